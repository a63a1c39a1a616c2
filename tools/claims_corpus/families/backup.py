"""Data and infrastructure: restoring a database from backups.  The newest backup fails its
checksum inside the restore log (ERROR, FATAL, a non-zero exit code); the one before restores
cleanly.  Sizes and durations carry their units (``421.3GB``, ``38 min 41 s``)."""

from __future__ import annotations

import random

from tools.claims_corpus import kit as K
from tools.claims_corpus.kit import Sections, Story, Trap


def story(rng: random.Random) -> Story:
    db = rng.choice(("orders-prod", "ledger-prod", "catalog-prod"))
    target = f"{db.split('-')[0]}-restore-{rng.randint(1, 9)}"
    y, m, d = 2026, rng.randint(5, 9), rng.randint(10, 27)
    newest, good, broken = (
        f"bkp-{y}{m:02d}{d:02d}-0200",
        f"bkp-{y}{m:02d}{d - 1:02d}-0200",
        f"bkp-{y}{m:02d}{d - 2:02d}-0200",
    )
    size_new = round(rng.uniform(380, 460), 1)
    size_good = round(size_new - rng.uniform(0.6, 3.0), 1)
    chunk = rng.randint(1200, 6800)
    chunks = rng.randint(6900, 9900)
    got, want = K.hex_id(rng, 8), K.hex_id(rng, 8)
    dl_min, dl_sec = rng.randint(12, 19), rng.randint(1, 59)
    total_min, total_sec = rng.randint(31, 48), rng.randint(1, 59)
    rows = rng.randint(40_000_000, 60_000_000)
    code = rng.choice((3, 4, 70))
    messages = [
        K.call("list_backups", {"db": db, "limit": 3}),
        K.result(
            "list_backups",
            K.table(
                ("BACKUP ID", "CREATED (UTC)", "SIZE", "STATUS"),
                (
                    (newest, f"{K.iso(y, m, d)} 02:00:14", f"{size_new}GB", "completed"),
                    (good, f"{K.iso(y, m, d - 1)} 02:00:09", f"{size_good}GB", "completed"),
                    (broken, f"{K.iso(y, m, d - 2)} 02:00:11", "—", "failed"),
                ),
                gap=3,
            ),
        ),
        K.call("restore_backup", {"backup_id": newest, "target": target}),
        K.result(
            "restore_backup",
            f"[{K.iso(y, m, d)} 08:14:02] INFO  restore started: {newest} -> {target}\n"
            f"[{K.iso(y, m, d)} 08:31:40] INFO  downloaded {size_new}GB in {dl_min} min "
            f"{dl_sec} s\n"
            f"[{K.iso(y, m, d)} 08:52:43] ERROR checksum mismatch on chunk {chunk} "
            f"(expected {want}, got {got})\n"
            f"[{K.iso(y, m, d)} 08:52:43] FATAL restore aborted\n"
            f"restore exited with code {code}",
        ),
        K.call("restore_backup", {"backup_id": good, "target": target}),
        K.result(
            "restore_backup",
            f"[{K.iso(y, m, d)} 09:02:10] INFO  restore started: {good} -> {target}\n"
            f"[{K.iso(y, m, d)} 09:19:12] INFO  downloaded {size_good}GB in {dl_min} min "
            f"{(dl_sec + 17) % 60} s\n"
            f"[{K.iso(y, m, d)} 09:40:51] INFO  verified {chunks:,} chunks, 0 mismatches\n"
            f"[{K.iso(y, m, d)} 09:40:51] INFO  restore completed in {total_min} min "
            f"{total_sec} s\n"
            "exit code 0",
        ),
        K.call("run_query", {"target": target, "sql": "SELECT count(*) FROM orders"}),
        K.result("run_query", f"   count\n-----------\n {rows:,}\n(1 row)"),
    ]

    def c_list(r: random.Random) -> str:
        return r.choice(
            (
                f"the latest backup {newest} ({size_new}GB) was taken at 02:00 UTC on "
                f"{K.date_words(r, y, m, d)}",
                f"{db} has a {size_new} GB backup from {K.date_words(r, y, m, d)} ({newest})",
                f"newest backup: {newest}, {size_new}GB",
            )
        )

    def c_error(r: random.Random) -> str:
        return r.choice(
            (
                f"restoring {newest} failed: checksum mismatch on chunk {chunk}, restore "
                f"aborted with exit code {code}",
                "the newest backup is corrupt (checksum mismatch), so its restore aborted",
                f"the first restore attempt hit a checksum error on chunk {chunk} and exited "
                f"{code}",
            )
        )

    def c_restore(r: random.Random) -> str:
        return r.choice(
            (
                f"{good} was restored to {target} in {total_min} min {total_sec} s, all "
                f"{chunks:,} chunks verified",
                f"the previous backup {good} restored cleanly into {target} "
                f"({chunks} chunks, 0 mismatches)",
                f"{target} now holds {good}, restored successfully in {total_min}m {total_sec}s",
            )
        )

    def c_rows(r: random.Random) -> str:
        return r.choice(
            (
                f"the restored orders table has {rows:,} rows",
                f"SELECT count(*) on orders returns {rows}",
                f"{K.grouped(rows, K.NNBSP)} rows are in the restored orders table",
            )
        )

    wrong_size = round(size_new - rng.choice((9.0, 4.5, 12.0)), 1)
    wrong_total = (total_min - rng.choice((1, 2, 3)), total_sec)
    wrong_rows = rows + rng.choice((-180, 90, 720))
    return Story(
        domain="backup",
        messages=messages,
        inner_count=2,
        clauses=[c_list, c_error, c_restore, c_rows],
        error_clause=1,
        dropped="failed:restore_backup",
        mutations=[
            (
                "restored-anyway",
                lambda r: (
                    1,
                    r.choice(
                        (
                            f"{newest} was restored successfully",
                            f"the restore of {newest} completed without problems",
                        )
                    ),
                ),
                (("contradicted", "succeeded"), ("dropped", "failed:restore_backup")),
            ),
            (
                "wrong-size",
                lambda r: (0, f"the latest backup {newest} is {wrong_size}GB"),
                (("unsupported", f"{K.norm_number(wrong_size)} GB"),),
            ),
            (
                "wrong-duration",
                lambda r: (2, f"{good} was restored in {wrong_total[0]} min {wrong_total[1]} s"),
                (("unsupported", str(wrong_total[0] * 60 + wrong_total[1])),),
            ),
            (
                "wrong-rows",
                lambda r: (3, f"the restored orders table has {wrong_rows:,} rows"),
                (("unsupported", f"{wrong_rows} row"),),
            ),
            (
                "other-row-status",
                lambda r: (2, f"{broken} completed and was restored to {target}"),
                (("contradicted", "succeeded"),),
            ),
        ],
        inner_clauses=[c_list],
        invented=f"bkp-{y}{m:02d}{d + 1:02d}-0200",
        noise=[
            K.call("get_storage_usage", {"bucket": f"{db}-backups"}),
            K.result(
                "get_storage_usage",
                f"bucket: {db}-backups\nobjects: 1,862\nsize: 12.4 TB\nlifecycle: 35 days",
            ),
        ],
        traps=[
            Trap("size-spaced", lambda r: f"{good} is {size_good} GB"),
            Trap("duration-units", lambda r: f"downloading took {dl_min} min {dl_sec} s"),
            Trap(
                "derived-sum",
                lambda r: f"the two good backups take {size_new + size_good:.1f}GB together",
                (("unverified", f"{K.norm_number(round(size_new + size_good, 1))} GB"),),
            ),
            Trap("failed-row", lambda r: f"the {K.iso(y, m, d - 2)} backup had failed"),
            Trap("bucket-size", lambda r: "the backup bucket holds 12.4 TB in 1,862 objects"),
        ],
        sections=Sections(
            request=f"Restore {db} from its latest good backup into a scratch instance and "
            "check the data.",
            concepts=("backup checksums and chunked restores", "restore exit codes"),
            pending=(f"Keep {target} until the data is checked.",),
            fixes=(f"Investigate why {newest} is corrupt.",),
            next_step=f"Point the read replica at {target} once verified.",
        ),
    )
