"""Database migrations: a dry run, a lock timeout, the migration applied."""

from __future__ import annotations

import random

from tools.claims_corpus import kit as K
from tools.claims_corpus.kit import Story


def story(rng: random.Random) -> Story:
    number = rng.randint(10, 99)
    table = rng.choice(("orders", "invoices", "events", "users"))
    path = f"migrations/00{number}_add_index_{table}.sql"
    rows = rng.randint(120_000, 4_900_000)
    minutes, secs = rng.randint(2, 40), rng.randint(1, 59)
    lock = rng.choice((30, 10, 60))
    schema = f"{rng.randint(40, 90)}"
    messages = [
        K.call("run_migration", {"file": path, "dry_run": True}),
        K.result(
            "run_migration",
            f"DRY RUN {path}\nALTER TABLE {table} ADD COLUMN region_id bigint;\nCREATE INDEX "
            f"CONCURRENTLY idx_{table}_region ON {table}(region_id);\nestimated rows to backfill: "
            f"{rows:,}",
        ),
        K.call("run_migration", {"file": path}),
        K.result(
            "run_migration",
            f"ERROR: canceling statement due to lock timeout ({lock}s) on relation {table}",
            is_error=True,
        ),
        K.call("run_migration", {"file": path, "lock_timeout": "5min"}),
        K.result(
            "run_migration",
            f"status: applied\nfile: {path}\nrows backfilled: {rows:,}\nduration: {minutes}m "
            f"{secs}s\nschema version: {schema}",
        ),
    ]

    def c_applied(r: random.Random) -> str:
        return r.choice(
            (
                f"{path} was applied (schema version {schema})",
                f"migration {path.rsplit('/', 1)[1]} applied successfully",
                f"{path} {r.choice(('applied', 'completed', 'succeeded'))}",
            )
        )

    def c_rows(r: random.Random) -> str:
        shown = r.choice((f"{rows:,}", str(rows)))
        return r.choice(
            (
                f"{shown} rows were backfilled in {minutes}m {secs}s",
                f"backfilled {shown} rows on {table}",
            )
        )

    def c_error(r: random.Random) -> str:
        return r.choice(
            (
                f"the first run hit a lock timeout ({lock} s) on {table}",
                "the first attempt timed out waiting for a lock and was rerun with a longer "
                "lock_timeout",
                f"the first run_migration failed on a {lock}s lock timeout",
            )
        )

    wrong_rows = rows + rng.choice((-36_000, 1_000, 40_000, 250_000))
    wrong_path = f"migrations/00{number + 1}_add_index_{table}.sql"
    return Story(
        domain="migration",
        messages=messages,
        inner_count=2,
        clauses=[c_applied, c_rows, c_error],
        error_clause=2,
        dropped="timeout:run_migration",
        mutations=[
            (
                "wrong-count",
                lambda r: (1, f"{wrong_rows:,} rows were backfilled"),
                (("unsupported", f"{wrong_rows} row"),),
            ),
            (
                "wrong-id",
                lambda r: (0, f"{wrong_path} was applied"),
                (("unsupported", wrong_path),),
            ),
            (
                "wrong-status",
                lambda r: (0, f"{path} was rolled back"),
                (("contradicted", "rolled_back"),),
            ),
        ],
        inner_clauses=[c_rows],
        invented=wrong_path,
        noise=[
            K.call("list_migrations", {"applied": True}),
            K.result(
                "list_migrations",
                f"applied migrations\n00{number - 2}_create_{table}.sql  applied  2026-01-12\n"
                f"00{number - 1}_add_fk_{table}.sql  applied  2026-02-03",
            ),
        ],
        hard=[
            lambda r: f"about {rows / 1_000_000:.1f} million rows were backfilled",
            lambda r: f"the two earlier migrations on {table} were already applied",
            lambda r: f"it took roughly {minutes} minutes",
        ],
    )
