"""The fleet part of ``make bench``: a directory of checkpoints, searched, exported, verified.

A directory of ``--fleet-files`` checkpoints (2,000 by default, about 1 GB:
mostly small ones, some of several MB, nested chains of many depths; cached in
``.bench-cache/``) with a rare literal planted in a few of them.  Contenders
run in rounds (A B C A B C ...) and medians are reported: ``foldctl grep``
against ``rg`` and ``jq``, ``foldctl export`` against DuckDB's own
``read_json`` of the same files into Parquet, and ``verify`` in files per
second, each foldctl command with 1 and 2 workers.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tools.benchkit import CACHE, FOLDCTL, PY, REPO, generated_folder

RARE = "INCIDENT-7731-ESCALATE"
PLANTED = 5


def _fleet_file(job: tuple[str, str, int, int]) -> int:
    """Write one fleet checkpoint (in a worker process): a sized one or a nested chain."""
    from tools.generate import nested_chain, to_bytes, write_sized

    kind, path, size, seed = job
    if kind == "chain":
        data = to_bytes(nested_chain(size, seed=seed))
        Path(path).write_bytes(data)
        return len(data)
    return write_sized(path, size, seed=seed)


def fleet_jobs(folder: Path, count: int) -> list[tuple[str, str, int, int]]:
    """About 1 GB for 2,000 files: 95 % of 100-600 KB, 3 % nested chains of 20-400 folds,
    2 % of 5-12 MB."""
    import random

    rng = random.Random(7)
    jobs = []
    for i in range(count):
        path = str(folder / f"ckpt-{i:05d}.json")
        roll = rng.random()
        if roll < 0.02:
            jobs.append(("sized", path, rng.randint(5_000_000, 12_000_000), i))
        elif roll < 0.05:
            jobs.append(("chain", path, rng.randint(20, 400), i))
        else:
            jobs.append(("sized", path, rng.randint(100_000, 600_000), i))
    return jobs


def ensure_fleet(count: int) -> Path:
    def fill(folder: Path) -> None:
        from concurrent.futures import ProcessPoolExecutor

        import orjson

        print(f"generating {count} checkpoints in {folder.relative_to(REPO)} ...", file=sys.stderr)
        jobs = fleet_jobs(folder, count)
        with ProcessPoolExecutor() as pool:
            list(pool.map(_fleet_file, jobs, chunksize=8))
        for _, path, _, _ in [j for j in jobs if j[0] == "sized"][:: count // PLANTED][:PLANTED]:
            doc = orjson.loads(Path(path).read_bytes())
            doc["history"][0]["content"] += f" (escalated as {RARE})"
            Path(path).write_bytes(orjson.dumps(doc))

    return generated_folder(f"fleet-{count}", fill)


@dataclass
class Contender:
    name: str
    argv: list[str]
    shown: str
    baseline: str | None = None  # the contender this one is compared with
    setup: Any = None  # called before each run, untimed
    times: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.times)


def timed(argv: list[str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise SystemExit(
            f"benchmark command failed ({proc.returncode}): {' '.join(argv)}\n"
            f"{proc.stderr.decode()[-2000:]}"
        )
    return elapsed


def rounds(contenders: list[Contender], runs: int) -> None:
    """A B C A B C ...: each contender runs once per round, so drift hits all alike."""
    for _ in range(runs):
        for c in contenders:
            if c.setup is not None:
                c.setup()
            c.times.append(timed(c.argv))


#: DuckDB's own JSON reader, the same files straight into Parquet (no joins): argv[1] is the
#: folder, argv[2] the Parquet file.
_DUCKDB_COPY = """
import sys, duckdb
duckdb.sql(
    "COPY (SELECT * FROM read_json('" + sys.argv[1] + "/*.json', union_by_name = true, "
    "maximum_object_size = 1000000000)) TO '" + sys.argv[2] + "' (FORMAT parquet)"
)
"""


def ensure_ripgrep() -> str | None:
    found = shutil.which("rg")
    if found or os.geteuid() != 0 or shutil.which("apt-get") is None:
        return found
    print("installing ripgrep (apt-get install -y ripgrep) ...", file=sys.stderr)
    subprocess.run(["apt-get", "update", "-qq"], capture_output=True, check=False)
    subprocess.run(["apt-get", "install", "-y", "-q", "ripgrep"], capture_output=True, check=False)
    return shutil.which("rg")


def bench_fleet(count: int, runs: int) -> dict[str, Any]:
    folder = ensure_fleet(count)
    files = sorted(folder.glob("*.json"))
    size = sum(p.stat().st_size for p in files)
    d = str(folder)
    scratch = CACHE / "fleet-out"
    rg = ensure_ripgrep()

    def fresh() -> None:
        if scratch.exists():
            shutil.rmtree(scratch)
        scratch.mkdir()

    groups: list[list[Contender]] = []
    rg_name = "rg -F LITERAL DIR (baseline)"
    grep: list[Contender] = []
    if rg:
        grep.append(Contender(rg_name, [rg, "-F", RARE, d], f"rg -F {RARE} DIR"))
    for jobs in (1, 2):
        argv = [*FOLDCTL, "grep", "-F", RARE, d, "-j", str(jobs)]
        shown = f"foldctl grep -F {RARE} DIR -j {jobs}"
        grep.append(
            Contender(
                f"foldctl grep -F LITERAL DIR -j {jobs}", argv, shown, rg_name if rg else None
            )
        )
    if shutil.which("jq"):
        program = f'.. | strings | select(contains("{RARE}"))'
        jq = f"find {d} -name '*.json' -print0 | xargs -0 -n 500 jq -c '{program}'"
        shown = f"find DIR -name '*.json' -print0 | xargs -0 jq -c '{program}'"
        grep.append(
            Contender("jq over the files", ["bash", "-c", jq], shown, rg_name if rg else None)
        )
    groups.append(grep)
    duck_name = "duckdb read_json -> parquet (baseline)"
    export = [
        Contender(
            duck_name,
            [PY, "-c", _DUCKDB_COPY, d, str(scratch / "duck.parquet")],
            "COPY (SELECT * FROM read_json('DIR/*.json', union_by_name = true)) TO 'x.parquet'",
            setup=fresh,
        )
    ]
    for jobs in (1, 2):
        argv = [*FOLDCTL, "export", d, "--to", str(scratch / "out"), "-j", str(jobs)]
        shown = f"foldctl export DIR --to OUT -j {jobs}"
        export.append(Contender(f"foldctl export DIR -j {jobs}", argv, shown, duck_name, fresh))
    groups.append(export)
    verify = []
    for jobs in (1, 2):
        argv = [*FOLDCTL, "verify", d, "-j", str(jobs), "-f", "jsonl"]
        shown = f"foldctl verify DIR -j {jobs} -f jsonl"
        verify.append(Contender(f"foldctl verify DIR -j {jobs}", argv, shown))
    groups.append(verify)
    for group in groups:
        rounds(group, runs)
    by_name = {c.name: c for group in groups for c in group}
    print(f"\nfleet: {len(files)} checkpoints, {size / 1e9:.2f} GB in {folder.relative_to(REPO)}; "
          f"the literal {RARE} is in {PLANTED} of them; {runs} interleaved runs each")  # fmt: skip
    print(f"  {'command':<44} {'median s':>9} {'MB/s':>7} {'files/s':>8} {'ratio':>7}  ratio to")
    rows = []
    for c in by_name.values():
        base = by_name.get(c.baseline) if c.baseline else None
        ratio = c.median / base.median if base else None
        rows.append({"name": c.name, "command": c.shown, "median": c.median, "runs": c.times,
                     "ratio": ratio, "baseline": c.baseline})  # fmt: skip
        shown_ratio = f"{ratio:.2f}x" if ratio is not None else "-"
        print(f"  {c.name:<44} {c.median:>9.2f} {size / 1e6 / c.median:>7.0f} "
              f"{len(files) / c.median:>8.0f} {shown_ratio:>7}  {c.baseline or ''}")  # fmt: skip

    def scale(name: str) -> float:
        return by_name[f"{name} -j 1"].median / by_name[f"{name} -j 2"].median

    print("  scaling, 1 -> 2 workers: " + ", ".join(
        f"{n.split()[1]} {scale(n):.2f}x" for n in
        ("foldctl grep -F LITERAL DIR", "foldctl export DIR", "foldctl verify DIR")))  # fmt: skip
    for c in by_name.values():
        print(f"  $ {c.shown}")
    return {"files": len(files), "bytes": size, "rows": rows}
