"""foldctl's benchmark: large checkpoints against same-run baselines, start-up, resolver scale.

Run with ``make bench``.  Everything is measured in this run on this machine:
each foldctl figure is reported next to, and as a ratio of, a baseline
measured on the same file (a bare ``orjson.loads`` of it, ``orjson.loads`` +
``orjson.dumps`` for ``expand``, and ``jq '.folded | length'`` when jq is
installed).  Times are medians of several runs of a fresh process; peak RSS
comes from the kernel's accounting of each child (``wait4``) and is given as
a multiple of the file's size.  Test data is made by the project's own
generator and cached in ``.bench-cache/``.  Results: a table on stdout and
``.bench-cache/results.json``.  Not part of ``make test``; it never fails on
a slow machine.

Options: ``--sizes 10,100,500`` (MB), ``--runs N``, ``--quick`` (10 MB only,
fewer runs, for trying the script itself), ``--only files|fleet|startup|sessions``,
``--sessions-mb N`` (the folder of generated sessions ``grep`` searches; 0 leaves it out),
``--against DIR`` (start-up: also ``--help`` and ``show`` of another revision's checkout,
in the same loop), ``--runs-startup N``.

Session files of other runtimes (``tools/bench_sessions.py``): a generated 100 MB Claude
Code session, ``show`` and ``expand --format jsonl`` against a bare loop that decodes and
re-encodes each line with orjson, with peak memory; and ``grep -F`` over a folder of a
few hundred generated sessions (1 GB) against ``rg -F`` on the same folder.

Start-up is measured first, in one interleaved loop: ``python -c pass``, ``python -c
"import typer"`` (the floor the command line stands on), ``foldctl --version``,
``--help`` and ``show`` of the tiny sample, each as its median and its ratio to
``python -c pass``, against the targets (``--help`` within 3x, ``show`` within 4x).

The fleet part (docs/performance.md, "A fleet") generates a directory of
``--fleet-files`` checkpoints (2,000 by default, about 1 GB: mostly small ones,
some of several MB, nested chains of many depths; cached in ``.bench-cache/``),
plants a rare literal in a few of them, and times, contenders interleaved
(A B A B ...) and medians reported: ``foldctl grep`` against ``rg`` and ``jq``,
``foldctl export`` against DuckDB's own ``read_json`` of the same files into
Parquet, and ``verify`` in files per second, each foldctl command with 1 and 2
workers.  ``make bench`` installs ripgrep when it is missing and it can.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

from tools.benchkit import CACHE, FOLDCTL, PY, REPO, generated_file, run_once

GENERATOR_SEED = 1


@dataclass
class Measure:
    name: str
    command: str
    seconds: float  # median wall time
    runs: list[float]
    peak_rss_mb: float
    ratio: float | None = None  # seconds / baseline seconds
    baseline: str | None = None
    rss_per_file: float | None = None


@dataclass
class FileResult:
    file: str
    megabytes: float
    folds: int
    messages: int
    measures: list[Measure] = field(default_factory=list)


def measure(name: str, argv: list[str], runs: int, shown: str | None = None) -> Measure:
    times: list[float] = []
    peak = 0.0
    for _ in range(runs):
        seconds, rss = run_once(argv)
        times.append(seconds)
        peak = max(peak, rss)
    return Measure(name, shown or " ".join(argv), statistics.median(times), times, peak)


def ensure_file(megabytes: int) -> Path:
    """The cached test file, generated in a child process (the parent stays small, see run_once)."""
    name = f"sized-{megabytes}mb-seed{GENERATOR_SEED}.json"
    return generated_file(name, "generate:write_sized", megabytes * 1_000_000, GENERATOR_SEED)


def with_lone_surrogate(path: Path) -> Path:
    """The same checkpoint with a lone surrogate in its first message (the exact path)."""
    out = path.with_name(path.stem + "-surrogate.json")
    if not out.exists():
        data = path.read_bytes()
        marker = b'"history":[{"role":"user","content":"'
        at = data.index(marker) + len(marker)
        out.write_bytes(data[:at] + b"\\ud83d " + data[at:])
    return out


def shape(path: Path) -> tuple[int, int]:
    """Folds and folded messages, as ``foldctl show`` counts them (in a child process)."""
    out = subprocess.run(
        [*FOLDCTL, "show", str(path), "--format", "json"], capture_output=True, check=True
    ).stdout
    counts = json.loads(out)["counts"]
    return counts["spans"], counts["foldedMessages"]


def bench_file(path: Path, runs: int, *, surrogate: bool = False) -> FileResult:
    size = path.stat().st_size
    folds, messages = shape(path)
    result = FileResult(path.name, round(size / 1e6, 1), folds, messages)
    f = str(path)
    # orjson refuses a lone surrogate, so such a file's baseline is the standard library's.
    lib = "json" if surrogate else "orjson"
    read = f"{lib}.loads(open(F, 'rb').read())"
    loads = measure(
        f"{lib}.loads (baseline)",
        [PY, "-c", f"import {lib}; F = {f!r}; {read}"],
        runs,
        f'python -c "import {lib}; {read}"',
    )
    roundtrip = measure(
        f"{lib}.loads+dumps (baseline)",
        [PY, "-c", f"import {lib}; F = {f!r}; {lib}.dumps({read})"],
        runs,
        f'python -c "import {lib}; {lib}.dumps({read})"',
    )
    result.measures += [loads, roundtrip]
    jq = None
    if shutil.which("jq") and not surrogate:
        jq = measure(
            "jq '.folded | length'", ["jq", ".folded | length", f], runs, "jq '.folded | length' F"
        )
        result.measures.append(jq)
    for name, argv, base in [
        ("foldctl spans --format jsonl", [*FOLDCTL, "spans", f, "--format", "jsonl"], loads),
        ("foldctl show --format json", [*FOLDCTL, "show", f, "--format", "json"], loads),
        ("foldctl expand --format jsonl", [*FOLDCTL, "expand", f, "--format", "jsonl"], roundtrip),
    ]:
        m = measure(name, argv, runs, f"foldctl {' '.join(argv[3:]).replace(f, 'F')} > /dev/null")
        m.ratio, m.baseline = m.seconds / base.seconds, base.name
        if jq is not None and name.startswith("foldctl spans"):
            m.baseline += f"; jq is {jq.seconds / m.seconds:.1f}x slower"
        result.measures.append(m)
    for m in result.measures:
        m.rss_per_file = (m.peak_rss_mb * 1024 * 1024) / size
    return result


def interleaved(
    baseline: tuple[str, list[str]], contender: tuple[str, list[str]], runs: int, file: str
) -> tuple[Measure, Measure]:
    """Two commands run in turn, A B A B ..., so a drift of the machine's speed touches
    both alike; each reported as its median, the contender also as a ratio of the
    baseline's median."""
    a, b = interleaved_all([baseline, contender], runs, file)
    return a, b


def interleaved_all(commands: list[tuple[str, list[str]]], runs: int, file: str) -> list[Measure]:
    """Commands run in turn (A B C A B C ...), each as its median, every one after the
    first also as a ratio of the first's median."""
    times: dict[str, list[float]] = {name: [] for name, _ in commands}
    peaks = {name: 0.0 for name, _ in commands}
    for _ in range(runs):
        for name, argv in commands:
            seconds, rss = run_once(argv)
            times[name].append(seconds)
            peaks[name] = max(peaks[name], rss)
    measures = [
        Measure(name, _shown(argv, file), statistics.median(times[name]), times[name], peaks[name])
        for name, argv in commands
    ]
    for m in measures[1:]:
        m.ratio, m.baseline = m.seconds / measures[0].seconds, measures[0].name
    return measures


def _shown(argv: list[str], file: str) -> str:
    if argv[:3] == FOLDCTL:
        return "foldctl " + " ".join(argv[3:]).replace(file, "F") + " > /dev/null"
    if argv[1:3] == ["-c", _FROM_TREE]:
        return f"foldctl (from {argv[3]}) " + " ".join(argv[4:]).replace(file, "F") + " > /dev/null"
    return " ".join(Path(a).name if a == PY else a for a in argv).replace(file, "F")


def bench_redaction(path: Path, runs: int) -> tuple[Measure, Measure]:
    """``expand --redact --format jsonl`` against ``expand --format jsonl`` (the target:
    at most 2x)."""
    f = str(path)
    return interleaved(
        ("foldctl expand --format jsonl", [*FOLDCTL, "expand", f, "--format", "jsonl"]),
        (
            "foldctl expand --redact --format jsonl",
            [*FOLDCTL, "expand", f, "--redact", "--format", "jsonl"],
        ),
        runs,
        f,
    )


def bench_claims(path: Path, runs: int) -> list[Measure]:
    """``claims --format jsonl`` against ``expand --format jsonl`` (the target: at most 2x,
    and peak memory within 2x the file), with the least work a check does beside them
    (``tools/claims_floor.py``: load, every summary's atoms, every message's tokens)."""
    f = str(path)
    return interleaved_all(
        [
            ("foldctl expand --format jsonl", [*FOLDCTL, "expand", f, "--format", "jsonl"]),
            ("foldctl claims --format jsonl", [*FOLDCTL, "claims", f, "--format", "jsonl"]),
            ("claims floor (nothing checked)", [PY, "-m", "tools.claims_floor", f]),
        ],
        runs,
        f,
    )


def deep_chain_file(depth: int) -> Path:
    """A generated chain ``depth`` folds deep, tool results 4-9 KB (cached)."""
    path = CACHE / f"chain-{depth}-deep.json"
    if not path.exists():
        CACHE.mkdir(exist_ok=True)
        code = (
            "import sys; from tools.generate import nested_chain, to_bytes; "
            "open(sys.argv[1], 'wb').write(to_bytes(nested_chain(int(sys.argv[2]), "
            "size_range=(4000, 9000))))"
        )
        subprocess.run([PY, "-c", code, str(path), str(depth)], check=True, cwd=REPO)
    return path


#: The start-up targets: each command's median wall time within this many times the
#: median of ``python -c pass``, measured in the same interleaved loop.
STARTUP_TARGETS: Final = {"foldctl --help": 3.0, "foldctl show (tiny file)": 4.0}


#: Runs foldctl from the checkout named first (``sys.argv[1]``) ahead of the installed one.
_FROM_TREE: Final = (
    "import sys; sys.path.insert(0, sys.argv.pop(1)); from foldctl.cli.main import main; main()"
)


def bench_startup(runs: int, against: Path | None = None) -> list[Measure]:
    """``python -c pass``, ``import typer`` (the floor the command line stands on), and
    foldctl's start-up, run in turn (A B C ... A B C ...), each as its median and as a
    ratio of ``python -c pass``'s.  With ``against`` (a checkout of another revision,
    e.g. ``git worktree add /tmp/before REV``), ``--help`` and ``show`` of that tree and of
    this one also run in the same loop, both started the same way (:data:`_FROM_TREE`)."""
    tiny = str(REPO / "sample_checkpoints" / "one_fold_conversation.json")
    commands = [
        ("python -c pass", [PY, "-c", "pass"]),
        ("python -c 'import typer'", [PY, "-c", "import typer"]),
        ("foldctl --version", [*FOLDCTL, "--version"]),
        ("foldctl --help", [*FOLDCTL, "--help"]),
        ("foldctl show (tiny file)", [*FOLDCTL, "show", tiny]),
    ]
    if against is not None:
        subprocess.run([PY, "-m", "compileall", "-q", str(against / "foldctl")], check=True)
        for label, tree in (("against", against), ("this tree", REPO)):
            launch = [PY, "-c", _FROM_TREE, str(tree)]
            commands += [
                (f"--help ({label})", [*launch, "--help"]),
                (f"show ({label})", [*launch, "show", tiny]),
            ]
    return interleaved_all(commands, runs, tiny)


def print_startup(startup: list[Measure]) -> None:
    print("\nstart-up (interleaved, medians; ratio to python -c pass)")
    for m in startup:
        ratio = f"{m.ratio:5.2f}x" if m.ratio else "     -"
        target = STARTUP_TARGETS.get(m.name)
        verdict = (
            ""
            if target is None
            else f"  target {target:.0f}x: "
            + ("met" if m.ratio is not None and m.ratio <= target else "NOT met")
        )
        print(f"  {m.name:<28} {m.seconds * 1000:>6.1f} ms  {ratio}{verdict}   [{m.command}]")


_RESOLVER = """
import json, sys, time
from tools.generate import nested_chain
from foldctl.load.exact import load_document
from foldctl.graph.resolve import resolve
n = int(sys.argv[1])
doc = nested_chain(n)
start = time.perf_counter()
graph = resolve(load_document(doc, "chain"))
elapsed = time.perf_counter() - start
assert all(p.placement == "placed" for p in graph.places)
print(json.dumps({"spans": n, "seconds": elapsed, "microsecondsPerSpan": elapsed / n * 1e6}))
"""


def bench_resolver(sizes: list[int]) -> list[dict[str, Any]]:
    """Load + join time per span for nested chains of growing length (each in a child)."""
    rows = []
    for n in sizes:
        out = subprocess.run([PY, "-c", _RESOLVER, str(n)], capture_output=True, check=True)
        rows.append(json.loads(out.stdout))
    return rows


def table(result: FileResult) -> str:
    head = f"{'command':<34} {'median s':>9} {'ratio':>7} {'peak RSS':>10} {'RSS/file':>9}"
    lines = [
        f"\n{result.file}: {result.megabytes} MB, {result.folds} folds, "
        f"{result.messages} folded messages",
        f"  {head}  ratio to",
    ]
    for m in result.measures:
        ratio = f"{m.ratio:.2f}x" if m.ratio is not None else "-"
        lines.append(
            f"  {m.name:<34} {m.seconds:>9.2f} {ratio:>7} {m.peak_rss_mb:>8.0f}MB "
            f"{m.rss_per_file or 0:>8.2f}x  {m.baseline or ''}"
        )
    return "\n".join(lines)


def run_sessions(args: argparse.Namespace) -> dict[str, Any]:
    """The session-file part (tools/bench_sessions.py), also kept on its own in
    ``.bench-cache/sessions-results.json``."""
    from tools.bench_sessions import bench_sessions

    subprocess.run([PY, "-m", "compileall", "-q", str(REPO / "foldctl")], check=True)
    runs = 1 if args.quick else args.runs
    result = bench_sessions(runs, 0 if args.quick else args.sessions_mb)
    CACHE.mkdir(exist_ok=True)
    (CACHE / "sessions-results.json").write_text(json.dumps(result, indent=2))
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10,100,500")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", choices=("files", "fleet", "startup", "sessions"), default=None)
    parser.add_argument("--sessions-mb", type=int, default=1000)
    parser.add_argument(
        "--against",
        type=Path,
        default=None,
        help="start-up: also time --help and show of this checkout of another revision",
    )
    parser.add_argument("--runs-startup", type=int, default=None, help="start-up rounds (30)")
    parser.add_argument("--fleet-files", type=int, default=2000)
    parser.add_argument("--fleet-runs", type=int, default=3)
    args = parser.parse_args()
    print("$ python -m tools.bench " + " ".join(sys.argv[1:]))
    from tools.bench_fleet import bench_fleet
    from tools.bench_hostile import bench_hostile

    if args.only == "sessions":
        run_sessions(args)
        return 0
    if args.only == "fleet":
        subprocess.run([PY, "-m", "compileall", "-q", str(REPO / "foldctl")], check=True)
        fleet = {"fleet": bench_fleet(args.fleet_files, args.fleet_runs)}
        CACHE.mkdir(exist_ok=True)
        (CACHE / "fleet-results.json").write_text(json.dumps(fleet, indent=2))
        return 0
    sizes = [10] if args.quick else [int(s) for s in args.sizes.split(",")]
    runs = 1 if args.quick else args.runs
    started = time.perf_counter()
    report: dict[str, Any] = {
        "command": "make bench",
        "machine": {
            "python": platform.python_version(),
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "jq": shutil.which("jq") is not None,
        },
        "files": [],
    }
    print(f"foldctl benchmark: python {platform.python_version()}, {os.cpu_count()} CPUs")
    # An installed package runs from byte-compiled modules; an editable checkout may not
    # (PYTHONDONTWRITEBYTECODE), and compiling on every start would be measured instead.
    subprocess.run([PY, "-m", "compileall", "-q", str(REPO / "foldctl")], check=True)
    startup = bench_startup(args.runs_startup or (30 if not args.quick else 5), args.against)
    print_startup(startup)
    report["startup"] = [asdict(m) for m in startup]
    if args.only == "startup":
        return 0
    for megabytes in sizes:
        path = ensure_file(megabytes)
        result = bench_file(path, runs if megabytes >= 100 else max(runs, 5))
        print(table(result), flush=True)
        report["files"].append(asdict(result))
    largest = ensure_file(100 if 100 in sizes else sizes[-1])
    plain, red = bench_redaction(largest, max(runs, 3))
    print(f"\nredaction on {largest.name} (interleaved A B A B, medians)")
    for m in (plain, red):
        ratio = f"{m.ratio:.2f}x {m.baseline}" if m.ratio else "baseline"
        print(f"  {m.name:<40} {m.seconds:>7.2f} s  {ratio}   [{m.command}]")
    report["redaction"] = [asdict(plain), asdict(red)]
    report["claims"] = []
    tiny = str(REPO / "sample_checkpoints" / "one_fold_conversation.json")
    for target in (largest, deep_chain_file(1_000)):
        size = target.stat().st_size
        base, claims, floor = bench_claims(target, max(runs, 3))
        print(f"\nclaims on {target.name} ({size / 1e6:.1f} MB; interleaved, medians)")
        for m, command in ((base, "expand"), (claims, "claims"), (floor, "claims")):
            footprint = run_once([*FOLDCTL, command, tiny])[1]  # the start-up footprint
            m.rss_per_file = (m.peak_rss_mb * 1024 * 1024) / size
            beyond = (m.peak_rss_mb - footprint) * 1024 * 1024 / size
            ratio = f"{m.ratio:.2f}x {m.baseline}" if m.ratio else "baseline"
            print(
                f"  {m.name:<40} {m.seconds:>7.2f} s  {ratio}  peak RSS {m.rss_per_file:.2f}x "
                f"the file ({beyond:.2f}x beyond start-up)   [{m.command}]"
            )
        report["claims"] += [asdict(base), asdict(claims), asdict(floor)]
    surrogate = with_lone_surrogate(ensure_file(sizes[min(1, len(sizes) - 1)]))
    result = bench_file(surrogate, runs, surrogate=True)
    print(table(result) + "\n  (a lone surrogate sends this file down the exact, slower path)")
    report["files"].append(asdict(result))
    chains = [1_000, 10_000] if args.quick else [1_000, 10_000, 100_000]
    resolver = bench_resolver(chains)
    print("\nresolver: nested chain of N folds, load + join in-process")
    for row in resolver:
        per_span = row["microsecondsPerSpan"]
        print(f"  {row['spans']:>7} spans {row['seconds']:>8.2f} s {per_span:>8.1f} us/span")
    report["resolver"] = resolver
    report["sessions"] = run_sessions(args)
    report["hostile"] = bench_hostile(50 if args.quick else 200, max(runs, 3))  # bench_hostile.py
    if args.only != "files":
        report["fleet"] = bench_fleet(args.fleet_files, args.fleet_runs)
    report["totalSeconds"] = time.perf_counter() - started
    out = CACHE / "results.json"
    CACHE.mkdir(exist_ok=True)
    out.write_text(json.dumps(report, indent=2))
    print(f"\nresults: {out.relative_to(REPO)} ({report['totalSeconds']:.0f} s in all)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
