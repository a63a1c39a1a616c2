"""Data: a nightly load job queued, then finished (row counts grouped with narrow no-break
spaces, the way some locales print them), its log (a WARN and an ERROR that recovered on
retry), and a count query on the loaded table."""

from __future__ import annotations

import random

from tools.claims_corpus import kit as K
from tools.claims_corpus.kit import Sections, Story, Trap


def story(rng: random.Random) -> Story:
    job = rng.choice(("daily_orders_load", "nightly_events_load", "daily_invoices_load"))
    table_name = {
        "daily_orders_load": "analytics.orders",
        "nightly_events_load": "analytics.events",
        "daily_invoices_load": "analytics.invoices",
    }[job]
    run = "run_" + "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789") for _ in range(6))
    while not any(c.isdigit() for c in run):
        run = "run_" + "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789") for _ in range(6))
    y, m, d = 2026, rng.randint(1, 12), rng.randint(2, 27)
    read = rng.randint(1_000_000, 1_900_000)
    rejected = rng.randint(1_000, 9_000)
    written = read - rejected
    part = rng.randint(3, 14)
    minutes, seconds = rng.randint(9, 21), rng.randint(1, 59)
    sep = rng.choice((K.NNBSP, " "))
    messages = [
        K.call("run_job", {"job": job, "date": K.iso(y, m, d)}),
        K.result(
            "run_job",
            {"run_id": run, "status": "queued", "queued_at": f"{K.iso(y, m, d + 1)}T01:00:03Z"},
        ),
        K.call("get_job_status", {"run_id": run}),
        K.result(
            "get_job_status",
            f"run_id: {run}\nstate: SUCCEEDED\nrows_read: {K.grouped(read, sep)}\n"
            f"rows_written: {K.grouped(written, sep)}\nrows_rejected: {K.grouped(rejected, sep)}\n"
            f"duration: {minutes}m {seconds:02d}s",
        ),
        K.call("get_logs", {"run_id": run, "tail": 5}),
        K.result(
            "get_logs",
            f"01:02:11 INFO  reading s3://lake/raw/{job}/{K.iso(y, m, d)}/\n"
            f"01:09:40 WARN  {rejected} rows rejected: invalid currency code\n"
            f"01:14:52 ERROR partition {K.iso(y, m, d)}/part-{part:04d} write failed: S3 "
            "SlowDown (503), retrying\n"
            f"01:15:30 INFO  partition {K.iso(y, m, d)}/part-{part:04d} written on retry 2\n"
            "01:16:10 INFO  job finished",
        ),
        K.call(
            "run_query",
            {"sql": f"select count(*) from {table_name} where load_date = '{K.iso(y, m, d)}'"},
        ),
        K.result("run_query", f"count\n-------\n{written}\n(1 row)"),
    ]

    def c_run(r: random.Random) -> str:
        return r.choice(
            (
                f"{run} of {job} succeeded in {minutes}m {seconds:02d}s",
                f"the {K.date_words(r, y, m, d)} load ({run}) finished successfully after "
                f"{minutes} min {seconds} s",
                f"{job} completed as {run}",
            )
        )

    def c_rows(r: random.Random) -> str:
        return r.choice(
            (
                f"it read {read:,} rows and wrote {written:,}; {rejected:,} were rejected for an "
                "invalid currency code",
                f"{written:,} of {read:,} rows were written, {rejected:,} rejected",
                f"rows read {K.grouped(read, '.')}, written {K.grouped(written, '.')}",
            )
        )

    def c_retry(r: random.Random) -> str:
        return r.choice(
            (
                f"one partition write (part-{part:04d}) hit an S3 SlowDown 503 and succeeded on "
                "retry",
                "the log shows a write error (S3 503) that recovered on the second try",
                f"writing part-{part:04d} failed once with a 503 before the retry worked",
            )
        )

    def c_check(r: random.Random) -> str:
        return r.choice(
            (
                f"{table_name} now holds {written} rows for {K.date_words(r, y, m, d)}",
                f"a count on {table_name} confirms {written:,} rows",
            )
        )

    def c_queue(r: random.Random) -> str:
        return r.choice((f"{job} was queued as {run}", f"{run} was queued at 01:00 UTC"))

    wrong_written = written - rng.choice((9_000, 900, 90))
    share = round(written / read * 100, 1)
    return Story(
        domain="etl",
        messages=messages,
        inner_count=2,
        clauses=[c_run, c_rows, c_retry, c_check, c_queue],
        error_clause=2,
        dropped="unavailable:get_logs",
        mutations=[
            (
                "wrong-status",
                lambda r: (0, f"{run} of {job} failed"),
                (("contradicted", "failed"),),
            ),
            (
                "status-words",
                lambda r: (0, f"{run} is still running"),
                (("contradicted", "running"),),
            ),
            (
                "wrong-rows",
                lambda r: (1, f"it wrote {wrong_written:,} rows"),
                (("unsupported", f"{wrong_written} row"),),
            ),
            (
                "wrong-duration",
                lambda r: (0, f"{run} succeeded in {minutes + 2} min {seconds} s"),
                (("unsupported", str((minutes + 2) * 60 + seconds)),),
            ),
        ],
        inner_clauses=[c_queue],
        invented="run_"
        + "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ") for _ in range(4))
        + str(rng.randint(10, 99)),
        noise=[
            K.call("list_jobs", {"owner": "data-eng"}),
            K.result(
                "list_jobs",
                K.table(
                    ("JOB", "SCHEDULE", "LAST RUN", "STATE"),
                    (
                        (job, "0 1 * * *", K.iso(y, m, d), "running"),
                        ("weekly_rollup", "0 3 * * 1", K.iso(y, m, d - 1), "failed"),
                    ),
                ),
            ),
        ],
        traps=[
            Trap(
                "derived-percent",
                lambda r: f"{share}% of the rows loaded",
                (("unverified", K.norm_number(share)),),
            ),
            Trap("difference", lambda r: f"{read - written:,} rows did not load"),
            Trap("other-job", lambda r: "the unrelated weekly_rollup job had failed"),
            Trap("start-time", lambda r: "it was queued at 01:00 UTC"),
        ],
        sections=Sections(
            request=f"Run the {job} job for {K.iso(y, m, d)} and check the data landed.",
            concepts=("partitioned loads to S3", "rejected rows and currency codes"),
            pending=("Look into the rejected rows.",),
            next_step="Report the rejected rows to the source team.",
        ),
    )
