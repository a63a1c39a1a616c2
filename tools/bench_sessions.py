"""The session-file part of ``make bench``: a 100 MB Claude Code session, and a folder of
generated sessions searched with ``grep -F`` beside ``rg -F``.

Both parts run their contenders in rounds (A B C A B C ...) and report medians, each
foldctl command as a ratio of the baseline measured in the same rounds:

- **One large session** (``tools.generate_sessions.write_sized_claude``, 100 MB, seed 1;
  cached in ``.bench-cache/``): ``foldctl show`` and ``foldctl expand --format jsonl``
  against a bare Python loop that decodes and re-encodes each line with orjson (targets:
  ``show`` within 1.0x, ``expand`` within 1.5x), and the peak memory of each as a
  multiple of the file (target: within 2x); beside them, the floor of ``expand``'s rows
  (:data:`FLOOR`: what each row must cost with no foldctl at all).
- **A folder of sessions** (``--sessions-mb``, 1,000 MB by default: a few hundred
  generated sessions of 0.5-8 MB; a rare word planted in a few of them): ``foldctl grep -F
  WORD DIR`` against ``rg -F WORD DIR`` (target: within 3x).  Without ripgrep this part
  is left out, and says why.

To compare two trees of foldctl (a change against the tree it started from), run this
module on its own: ``python -m tools.bench_sessions --against ../other-tree`` measures
each command of both trees in the same rounds, beside the loop (the large session only).
"""

from __future__ import annotations

import os
import random
import shlex
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any, Final

from tools.benchkit import FOLDCTL, PY, REPO, generated_file, generated_folder

SEED: Final = 1
#: The targets of docs/performance.md, "Session files of other runtimes".
SESSION_TARGETS: Final = {
    "foldctl show": 1.0,
    "foldctl expand --format jsonl": 1.5,
}
MEMORY_TARGET: Final = 2.0
GREP_TARGET: Final = 3.0
#: The word planted in a few sessions of the folder (a tool's output), and in how many.
RARE: Final = "INCIDENT-7731-ESCALATE"
PLANTED: Final = 5

#: The baseline: decode and re-encode every line with orjson, nothing kept.
LOOP: Final = (
    "import sys, orjson\n"
    "with open(sys.argv[1], 'rb') as f:\n"
    "    for line in f:\n"
    "        orjson.dumps(orjson.loads(line))\n"
)


#: What every row of ``expand --format jsonl`` must cost at the least, with no foldctl at
#: all: each line decoded, its digest (SPEC §4: XXH3-128 of the sorted-key encoding of the
#: decoded record), and the stored line written back with two keys added.  No structure
#: is read, no start-up of foldctl paid: a floor, not a contender.
FLOOR: Final = (
    "import sys, orjson, xxhash\n"
    "out = open(1, 'wb', closefd=False)\n"
    "sort, digest = orjson.OPT_SORT_KEYS, xxhash.xxh3_128_hexdigest\n"
    "with open(sys.argv[1], 'rb') as f:\n"
    "    for n, line in enumerate(f, 1):\n"
    "        canonical = orjson.dumps(orjson.loads(line), option=sort)\n"
    '        out.write(b\'%s,"line":%d,"digest":"xxh3-128:%s"}\\n\'\n'
    "                  % (line.rstrip()[:-1], n, digest(canonical).encode()))\n"
)


def _run(argv: list[str]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system, every thread) and peak RSS (MB) of one
    child (output to /dev/null)."""
    import time

    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    stderr = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"benchmark command failed ({code}): {' '.join(argv)}\n{stderr}")
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def rounds(commands: list[tuple[str, list[str], str]], runs: int) -> list[dict[str, Any]]:
    """Each command once a round, ``runs`` rounds; each one's median wall and CPU time,
    peak RSS and (after the first) both ratios to the first's medians.  On a machine
    other work shares, the CPU time of a one-threaded process moves less than its wall
    time, so both are kept."""
    times: dict[str, list[float]] = {name: [] for name, _, _ in commands}
    cpus: dict[str, list[float]] = {name: [] for name, _, _ in commands}
    peaks = dict.fromkeys(times, 0.0)
    for _ in range(runs):
        for name, argv, _ in commands:
            seconds, cpu, rss = _run(argv)
            times[name].append(seconds)
            cpus[name].append(cpu)
            peaks[name] = max(peaks[name], rss)
    first = commands[0][0]
    base, base_cpu = statistics.median(times[first]), statistics.median(cpus[first])
    return [
        {
            "name": name,
            "command": shown,
            "seconds": statistics.median(times[name]),
            "cpuSeconds": statistics.median(cpus[name]),
            "runs": times[name],
            "peakRssMb": peaks[name],
            "ratio": None if i == 0 else statistics.median(times[name]) / base,
            "cpuRatio": None if i == 0 else statistics.median(cpus[name]) / base_cpu,
        }
        for i, (name, _, shown) in enumerate(commands)
    ]


def ensure_session(megabytes: int = 100) -> Path:
    """The cached generated Claude Code session of ``megabytes`` MB (made in a child)."""
    name = f"claude-{megabytes}mb-seed{SEED}.jsonl"
    return generated_file(name, "generate_sessions:write_sized_claude", megabytes << 20, SEED)


def _session_commands(
    f: str, tree: str | None = None, name: str = ""
) -> list[tuple[str, list[str], str]]:
    """``show`` and ``expand --format jsonl`` of ``f``, by this tree's foldctl or (``tree``)
    by the foldctl of that checkout, labelled ``name``."""
    # ``python -m`` puts the working directory first on the path: run from inside the tree.
    run = (
        [*FOLDCTL]
        if tree is None
        else ["sh", "-c", f'cd {shlex.quote(tree)} && exec "$@"', "-", *FOLDCTL]
    )
    label = f" ({name})" if name else ""
    return [
        (f"foldctl show{label}", [*run, "show", f], "foldctl show F > /dev/null"),
        (
            f"foldctl expand --format jsonl{label}",
            [*run, "expand", f, "--format", "jsonl"],
            "foldctl expand F --format jsonl > /dev/null",
        ),
    ]


def bench_session(runs: int, megabytes: int = 100, against: str | None = None) -> dict[str, Any]:
    """``show`` and ``expand --format jsonl`` of one large session against the bare loop;
    with ``against`` (another checkout of foldctl), its commands too, in the same rounds."""
    path = ensure_session(megabytes)
    f = str(path)
    size = path.stat().st_size
    commands = [
        ("orjson loop (baseline)", [PY, "-c", LOOP, f], "python -c LOOP F  # " + _loop_shown()),
        ("expand's floor (decode, digest, write)", [PY, "-c", FLOOR, f], "python -c FLOOR F"),
    ]
    if against is None:
        commands += _session_commands(f)
    else:  # both trees by way of a shell, so that they start alike
        ours = _session_commands(f, str(REPO), "this tree")
        other = Path(against).resolve()
        theirs = _session_commands(f, str(other), other.name)
        commands += [theirs[0], ours[0], theirs[1], ours[1]]
        for _, argv, _ in commands:  # warm: bytecode cached, the file in the page cache
            _run(argv)
    measures = rounds(commands, runs)
    for m in measures:
        m["rssPerFile"] = m["peakRssMb"] * (1 << 20) / size
    return {"file": path.name, "megabytes": round(size / 1e6, 1), "measures": measures}


def _ratio(value: float | None) -> str:
    return f"{value:5.2f}x" if value is not None else "     -"


def _loop_shown() -> str:
    return "for line in open(F, 'rb'): orjson.dumps(orjson.loads(line))"


def print_session(result: dict[str, Any]) -> None:
    print(
        f"\n{result['file']}: a Claude Code session of {result['megabytes']} MB "
        "(interleaved, medians; ratios to the orjson loop; the targets are on wall time)"
    )
    print(f"  {'command':<42} {'wall':>7} {'ratio':>6} {'CPU':>7} {'ratio':>6}  peak RSS")
    for m in result["measures"]:
        target = SESSION_TARGETS.get(m["name"].split(" (")[0])
        verdict = ""
        if target is not None:
            fast = "met" if m["ratio"] <= target else "NOT met"
            small = "met" if m["rssPerFile"] <= MEMORY_TARGET else "NOT met"
            verdict = f"  target {target:.1f}x: {fast}; memory {MEMORY_TARGET:.0f}x: {small}"
        print(
            f"  {m['name']:<42} {m['seconds']:>6.2f}s {_ratio(m['ratio'])} "
            f"{m['cpuSeconds']:>6.2f}s {_ratio(m['cpuRatio'])}  {m['peakRssMb']:>4.0f} MB "
            f"({m['rssPerFile']:.2f}x the file){verdict}"
        )
    for m in result["measures"]:
        print(f"  $ {m['command']}")
    print(
        "  (the floor: each line decoded, its digest taken over its sorted-key encoding, and "
        "written back with two keys; no structure read, no foldctl: what any expand --format "
        "jsonl must at least do for a row, SPEC §4)"
    )


def main(argv: list[str] | None = None) -> None:
    """``python -m tools.bench_sessions --against TREE [--runs N]``: the large session's
    commands of this tree and of ``TREE`` (another checkout) in the same rounds."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--against", required=True, help="another checkout of foldctl")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    print_session(bench_session(max(args.runs, 5), against=args.against))


def _folder_file(job: tuple[str, int, int]) -> int:
    """One generated session of the folder (in a worker process)."""
    from tools.generate_sessions import write_sized_claude

    path, size, seed = job
    return write_sized_claude(path, size, seed=seed)


def ensure_folder(megabytes: int) -> Path:
    """A folder of generated Claude Code sessions, about ``megabytes`` MB in all, of
    0.5-8 MB each, :data:`RARE` planted in :data:`PLANTED` of them (cached)."""

    def fill(folder: Path) -> None:
        from concurrent.futures import ProcessPoolExecutor

        rng = random.Random(SEED)
        jobs: list[tuple[str, int, int]] = []
        total = 0
        while total < megabytes * 1_000_000:
            size = rng.randint(500_000, 8_000_000)
            project = folder / f"-home-dev-project-{len(jobs) % 17:02d}"
            jobs.append((str(project / f"session-{len(jobs):04d}.jsonl"), size, len(jobs)))
            total += size
        for path, _, _ in jobs:
            Path(path).parent.mkdir(exist_ok=True)
        print(f"generating {len(jobs)} sessions in {folder.relative_to(REPO)} ...", file=sys.stderr)
        with ProcessPoolExecutor() as pool:
            list(pool.map(_folder_file, jobs, chunksize=4))
        for path, _, _ in jobs[:: max(1, len(jobs) // PLANTED)][:PLANTED]:
            data = Path(path).read_bytes()
            at = data.index(b"ledger", len(data) // 2)  # a word of a tool's output, mid-file
            Path(path).write_bytes(data[:at] + RARE.encode() + data[at + len(b"ledger") :])

    return generated_folder(f"sessions-{megabytes}mb", fill)


def bench_folder_grep(megabytes: int, runs: int) -> dict[str, Any] | None:
    """``foldctl grep -F`` against ``rg -F`` over a folder of sessions, or None (and why)
    without ripgrep."""
    from tools.bench_fleet import ensure_ripgrep

    rg = ensure_ripgrep()
    if rg is None:
        print("\nsessions folder: left out, ripgrep (rg) is not installed", file=sys.stderr)
        return None
    folder = ensure_folder(megabytes)
    files = sorted(folder.rglob("*.jsonl"))
    size = sum(p.stat().st_size for p in files)
    d = str(folder)
    # --no-ignore: .bench-cache/ is in .gitignore, which rg would otherwise honour.
    measures = rounds(
        [
            ("rg -F WORD DIR (baseline)", [rg, "--no-ignore", "-F", RARE, d],
             f"rg --no-ignore -F {RARE} DIR"),
            ("foldctl grep -F WORD DIR", [*FOLDCTL, "grep", "-F", RARE, d],
             f"foldctl grep -F {RARE} DIR"),
            ("foldctl grep -F WORD DIR -j 1", [*FOLDCTL, "grep", "-F", RARE, d, "-j", "1"],
             f"foldctl grep -F {RARE} DIR -j 1"),
        ],
        runs,
    )  # fmt: skip
    return {
        "folder": folder.name,
        "files": len(files),
        "bytes": size,
        "measures": measures,
        "search": _prefilter_search(),
    }


def _prefilter_search() -> str:
    """How grep's prefilter searches a file's bytes in the children (docs/performance.md):
    StringZilla's SIMD find where installed (the fleet extra), else Python's bytes.find."""
    code = (
        "from foldctl.query.prefilter import simd_text\n"
        "import importlib.metadata as m\n"
        "print('bytes.find' if simd_text() is None else "
        "'StringZilla ' + m.version('stringzilla') + ' (SIMD)')"
    )
    found = subprocess.run([PY, "-c", code], capture_output=True, text=True, cwd=REPO)
    return found.stdout.strip() or "?"


def print_folder_grep(result: dict[str, Any] | None) -> None:
    if result is None:
        return
    print(
        f"\n{result['folder']}: {result['files']} Claude Code sessions, "
        f"{result['bytes'] / 1e9:.2f} GB; {RARE} in {PLANTED} of them "
        "(interleaved, medians; ratio to rg)"
    )
    print(f"  {'command':<30} {'wall':>7} {'ratio':>6} {'CPU':>7} {'ratio':>6}")
    for m in result["measures"]:
        verdict = ""
        if m["ratio"] is not None:
            verdict = f"  target {GREP_TARGET:.0f}x (wall): " + (
                "met" if m["ratio"] <= GREP_TARGET else "NOT met"
            )
        print(
            f"  {m['name']:<30} {m['seconds']:>6.2f}s {_ratio(m['ratio'])} "
            f"{m['cpuSeconds']:>6.2f}s {_ratio(m['cpuRatio'])}{verdict}"
        )
    print("  (rg's CPU time is that of all its threads)")
    print(f"  (grep's prefilter searched the bytes with {result.get('search', '?')})")
    for m in result["measures"]:
        print(f"  $ {m['command']}")
    print(
        "  (the floor: each line decoded, its digest taken over its sorted-key encoding, and "
        "written back with two keys; no structure read, no foldctl: what any expand --format "
        "jsonl must at least do for a row, SPEC §4)"
    )


def bench_sessions(runs: int, folder_mb: int) -> dict[str, Any]:
    """Both parts, printed as they finish; what ``results.json`` keeps of them."""
    session = bench_session(max(runs, 5))
    print_session(session)
    folder = bench_folder_grep(folder_mb, max(runs, 3)) if folder_mb > 0 else None
    print_folder_grep(folder)
    return {"session": session, "folderGrep": folder}


if __name__ == "__main__":
    main()
