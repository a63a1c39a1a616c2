"""Run mutants through the targets in worker processes; classify, de-duplicate, save, summarise.

Each worker is a forked process with a capped address space
(``RLIMIT_AS``) working in its own scratch directory.  The parent hands it
one case at a time (a case index: the worker makes the mutant itself, from
the seed) and hears back as each target starts and ends, so a target that
runs past its time limit is known by name: the parent asks the worker for
its Python stack (``faulthandler`` on SIGUSR1), kills it, records a hang
where it was stuck, starts a fresh worker and goes on with the next target
of the same case.

A failing case is saved once per signature (class, target, exception type,
innermost foldctl frame) under the output directory: the mutant's files,
copied from the worker's scratch directory as they were run, and a JSON
sidecar; when a later case has the same signature and a smaller mutant, it
replaces the saved one.
"""

from __future__ import annotations

import contextlib
import dataclasses
import faulthandler
import gc
import hashlib
import json
import multiprocessing
import multiprocessing.connection
import os
import re
import resource
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Final, TextIO

import xxhash

from tools.fuzz import mutants, mutators, outcome, pace
from tools.fuzz import targets as adapter
from tools.fuzz.outcome import TargetResult

#: Extra seconds the parent allows a CLI target beyond the CLI's own time limit.
_CLI_GRACE: Final = 10.0
#: A target whose process the machine starves of CPU may take this many times its
#: allowance on the wall clock before it counts as hung.
STARVED_FACTOR: Final = 4.0
_CLOCK_TICKS: Final = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int | None) -> float | None:
    """User plus system CPU time of process ``pid`` so far (Linux ``/proc``), or None."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rpartition(b")")[2].split()
        return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS
    except (OSError, IndexError, ValueError):
        return None


@dataclass
class Budget:
    """The time one target may take: ``allowed`` seconds of its process's CPU time.

    A hang detector on the wall clock calls a slow target on a busy machine hung
    (another process on the same cores doubles every wall time), so the limit is
    CPU time, read from ``/proc``; a target that waits without computing (a lock,
    a sleep) is stopped at ``STARVED_FACTOR`` times the allowance on the wall clock.
    Without ``/proc``, or for a target whose work runs in a child process (the CLI
    targets), the limit is the wall clock alone.
    """

    pid: int | None
    allowed: float
    started: float  # time.monotonic() at the start
    cpu_start: float | None  # the process's CPU seconds at the start; None: wall clock only

    @classmethod
    def start(cls, pid: int | None, allowed: float, *, cpu: bool = True) -> Budget:
        return cls(pid, allowed, time.monotonic(), _cpu_seconds(pid) if cpu else None)

    def _cpu_used(self) -> float | None:
        if self.cpu_start is None:
            return None
        now = _cpu_seconds(self.pid)
        return None if now is None else now - self.cpu_start

    def expired(self) -> bool:
        elapsed = time.monotonic() - self.started
        if elapsed < self.allowed:
            return False
        used = self._cpu_used()
        return used is None or used >= self.allowed or elapsed >= self.allowed * STARVED_FACTOR

    def next_check(self) -> float:
        """The earliest monotonic time at which :meth:`expired` could become true."""
        first = self.started + self.allowed
        now = time.monotonic()
        if now < first:
            return first
        used = self._cpu_used()
        left = self.allowed - used if used is not None else 0.0
        return min(self.started + self.allowed * STARVED_FACTOR, now + max(0.05, left))

    def describe(self) -> str:
        elapsed = time.monotonic() - self.started
        used = self._cpu_used()
        if used is None:
            return f"no result after {elapsed:.1f} s ({self.allowed:.1f} s allowed)"
        return (
            f"no result after {elapsed:.1f} s, {used:.1f} s of CPU "
            f"({self.allowed:.1f} s of CPU allowed)"
        )


@dataclass(frozen=True)
class Config:
    count: int = 2_000
    seed: int = 1
    start: int = 0
    jobs: int = 2
    timeout: float = 3.0  # seconds per target, for an empty input ...
    timeout_per_mb: float = 1.0  # ... plus this many per MB of input (work grows with input)
    cli_timeout: float = 20.0  # seconds per CLI run
    memory_cap_mb: int = 3_072  # RLIMIT_AS of each worker: beyond it, MemoryError
    memory_soft_mb: int = 768  # peak RSS growth beyond this (plus 50x the input) is a blowup
    cli_every: int = 100  # every Nth case also runs the real CLI (0: never)
    out_dir: Path | None = Path("fuzz-out")
    targets: tuple[str, ...] = ()  # only these (empty: all)
    max_seed_bytes: int | None = None
    quick: bool = False  # smaller heavy mutations (the pytest sample)
    heavy: float | None = None  # how often heavy mutators are picked (None: the limits' default)
    max_hangs_per_case: int = 1  # a mutant that hung this often is not run further
    progress: bool = True
    minutes: float | None = None  # stop taking new mutants after this long
    #: the scaling check: every Nth mutant's accepted targets run again with its longest
    #: string SCALE_FACTOR times longer (0: never)
    scale_every: int = 20

    @property
    def limits(self) -> mutators.Limits:
        limits = mutators.QUICK if self.quick else mutators.FULL
        if self.heavy is not None:
            limits = dataclasses.replace(limits, heavy_weight=self.heavy)
        return limits

    def target_timeout(self, size: int, *, cli: bool = False, runs: int = 1) -> float:
        """Seconds one target may take on an input of ``size`` bytes: the allowance once per
        command it runs (``runs``; each reads the input again), times this machine's
        :func:`~tools.fuzz.pace.slowdown`."""
        allowed = (self.timeout + self.timeout_per_mb * size / (1 << 20)) * runs
        allowed = allowed + self.cli_timeout + _CLI_GRACE if cli else allowed
        return allowed * pace.slowdown()


def sample_config(out_dir: Path | None = None) -> Config:
    """The fixed-seed sample that runs inside ``make test`` (well under a minute on 2 cores)."""
    return Config(
        count=2_000,
        seed=1,
        jobs=2,
        timeout=3.0,  # a target runs several commands, each reading the file
        timeout_per_mb=1.0,
        cli_timeout=10.0,
        cli_every=1_000,
        out_dir=out_dir,
        max_seed_bytes=200_000,
        quick=True,
        max_hangs_per_case=1,
        progress=False,
        scale_every=100,  # 20 mutants through the scaling check
    )


#: The scaling check: the longest string made this many times longer ...
SCALE_FACTOR: Final = 10
#: ... may take at most this many times the CPU time the mutant took ...
SCALE_RATIO: Final = 20.0
#: ... counted from at least this many seconds (below it, the time is noise and start-up).
SCALE_FLOOR: Final = 0.05


def scale_allowance(small: float) -> float:
    """CPU seconds the scaled run of a target that took ``small`` may take."""
    return SCALE_RATIO * max(small, SCALE_FLOOR)


@dataclass
class Outcome:
    """How one target run on one mutant ended."""

    index: int
    target: str
    cls: str
    exc_type: str = ""
    message: str = ""
    frame: str = ""  # innermost foldctl frame: "foldctl/x.py:123 in func"
    elapsed: float = 0.0
    output_bytes: int = 0
    #: the scaling check: the run on the mutant with its longest string SCALE_FACTOR times
    #: longer (the scaled file is saved beside the mutant), and its figures
    scaled: dict[str, float] | None = None

    @property
    def signature(self) -> tuple[str, str, str, str]:
        return (self.cls, self.target, self.exc_type, re.sub(r":\d+ in ", " in ", self.frame))


@dataclass
class CaseInfo:
    index: int
    seed_file: str
    chain: list[str]
    kind: str
    size: int
    source: str
    original: str
    files: list[str]
    resolve_ok: bool = True
    hangs: int = 0


# --------------------------------------------------------------------------- classification


def innermost_frame(tb: TracebackType | None) -> str:
    """``foldctl/mod.py:LINE in FUNC`` of the innermost traceback frame inside foldctl.

    When no foldctl frame is on the stack (the adapter was running its own
    code), the innermost frame of the adapter instead.
    """
    found = fallback = ""
    for frame in traceback.extract_tb(tb):
        if _in_package(frame.filename):
            found = f"{_relative(frame.filename)}:{frame.lineno} in {frame.name}"
        elif Path(frame.filename).resolve() == _ADAPTER:
            fallback = f"tools/fuzz/targets.py:{frame.lineno} in {frame.name}"
    return found or fallback


_ADAPTER: Final = Path(adapter.__file__).resolve()


def _in_package(filename: str) -> bool:
    try:
        Path(filename).resolve().relative_to(adapter.PACKAGE_DIR)
    except ValueError:
        return False
    return True


def _relative(filename: str) -> str:
    return Path(filename).resolve().relative_to(adapter.PACKAGE_DIR.parent).as_posix()


def _short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


def classify_result(result: TargetResult) -> tuple[str, str, str]:
    """(class, what, detail) for a target that returned normally."""
    if result.cli_hang:
        return outcome.HANG, "cli", "the CLI ran past its time limit"
    if result.cli_problem is not None:
        return outcome.UNEXPECTED, "cli", result.cli_problem
    if result.leaked is not None:
        return outcome.LEAKED, result.leaked.partition(":")[0], result.leaked
    if result.disagreement is not None:
        return outcome.DISAGREE, result.disagreement_kind or "verdict", result.disagreement
    for message in result.error_messages:
        problem = outcome.error_problem(message)
        if problem is not None:
            return outcome.UNSAFE, "error-newline", f"{problem}: {_short(message, 200)!r}"
    for text in result.text_outputs:
        found = outcome.unsafe_char(text)
        if found is not None:
            at, kind = found
            return (
                outcome.UNSAFE,
                kind,
                f"text output holds {kind}: {text[max(0, at - 40) : at + 40]!r}",
            )
    return outcome.ACCEPTED, "", ""


def run_target(fn: adapter.TargetFn, data: bytes, name: str, index: int, target: str) -> Outcome:
    """Run one target in this process and classify how it ended."""
    start = time.perf_counter()
    result = Outcome(index, target, outcome.ACCEPTED)
    try:
        produced = fn(data, name)
    except MemoryError as e:
        result.cls, result.exc_type = outcome.MEMORY, "MemoryError"
        result.frame = innermost_frame(e.__traceback__)
        del e
        gc.collect()
    except outcome.OutputBudgetExceeded as e:
        result.cls, result.exc_type, result.message = outcome.BLOWUP, "output", str(e)
    except adapter.EXPECTED_ERROR as e:
        message = str(e)
        problem = outcome.error_problem(message)
        result.cls = outcome.REFUSED if problem is None else outcome.UNSAFE
        result.exc_type = type(e).__name__ if problem is None else "error-newline"
        result.message = _short(message if problem is None else f"{problem}: {message!r}")
        result.frame = innermost_frame(e.__traceback__)
    except KeyboardInterrupt:
        raise
    except BaseException as e:
        result.cls, result.exc_type = outcome.UNEXPECTED, type(e).__name__
        result.message = _short(str(e))
        result.frame = innermost_frame(e.__traceback__)
    else:
        result.cls, result.exc_type, result.message = classify_result(produced)
        result.message = _short(result.message)
        result.output_bytes = sum(len(t) for t in produced.text_outputs) + sum(
            len(m) for m in produced.machine_outputs
        )
    result.elapsed = time.perf_counter() - start
    return result


def applicable(target: adapter.Target, mutant: mutators.Mutant, with_cli: bool) -> bool:
    kind = "store" if mutant.kind == "db" else "file"
    return kind in target.kinds and (with_cli or not target.cli)


# --------------------------------------------------------------------------- the worker


def _maxrss_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _snapshot(directory: Path) -> dict[str, str]:
    """Every file of the case (not the stack dump) with a digest of its bytes."""
    return {
        p.name: xxhash.xxh64_hexdigest(p.read_bytes())
        for p in sorted(directory.iterdir())
        if p.name != "stack.txt" and p.is_file()
    }


def _changes(before: dict[str, str], after: dict[str, str]) -> str:
    created = sorted(set(after) - set(before))
    removed = sorted(set(before) - set(after))
    changed = sorted(n for n in set(before) & set(after) if before[n] != after[n])
    parts = [
        f"{what} {', '.join(names)}"
        for what, names in (("created", created), ("removed", removed), ("changed", changed))
        if names
    ]
    return "; ".join(parts)


def _memory_blowup(result: Outcome, grown: int, soft_mb: int, size: int) -> bool:
    """Peak RSS grew past ``soft_mb`` MB plus 50x the input: a ``blowup``. Did it?"""
    soft = (soft_mb << 20) + outcome.OUTPUT_FACTOR * size
    if grown <= soft:
        return False
    if result.cls in outcome.BENIGN:
        result.cls, result.exc_type = outcome.BLOWUP, "memory"
        result.message = f"peak memory grew by {grown >> 20} MB (limit {soft >> 20} MB)"
    return True


def _read_only(result: Outcome, before: dict[str, str], directory: Path) -> bool:
    """Evidence is read-only: a target that changed the case's files ``wrote``. Changed?"""
    changes = _changes(before, _snapshot(directory))
    if changes and result.cls in outcome.BENIGN:
        result.cls, result.exc_type = outcome.WROTE, changes.split(" ")[0]
        result.message = f"the files of the case changed: {changes}"
    return bool(changes)


def _clear(directory: Path) -> None:
    for entry in directory.iterdir():
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        elif entry.name != "stack.txt":
            entry.unlink(missing_ok=True)


def _worker(
    conn: multiprocessing.connection.Connection,
    directory: str,
    config: Config,
    corpus: list[mutators.Seed],
    selected: tuple[int, ...],
) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles ^C
    cap = config.memory_cap_mb << 20
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    adapter.CLI_SETTINGS["timeout"] = config.cli_timeout
    workdir = Path(directory)
    os.chdir(workdir)
    stack_file = (workdir / "stack.txt").open("w")
    faulthandler.register(signal.SIGUSR1, file=stack_file, all_threads=False)
    baseline = _maxrss_bytes()
    while True:
        task = conn.recv()
        if task is None:
            return
        index, first, resolve_ok = task
        _clear(workdir)
        adapter.reset()
        try:
            mutant = mutants.make_mutant(corpus, config.seed, index, config.limits)
        except Exception:
            conn.send(("mutator-error", index, traceback.format_exc()))
            conn.send(("done", index, False))
            continue
        name = mutant.write(workdir)
        original = mutant.original()
        files = sorted(p.name for p in workdir.iterdir() if p.name != "stack.txt")
        pristine = _snapshot(workdir)
        conn.send(
            (
                "case",
                CaseInfo(
                    index,
                    mutant.seed.name,
                    mutant.chain,
                    mutant.kind,
                    outcome.input_size(mutant.data),
                    name,
                    original,
                    files,
                ),
            )
        )
        with_cli = config.cli_every > 0 and index % config.cli_every == 0
        case_size = outcome.input_size(mutant.data)
        scale = _write_scaled(mutant, workdir) if _scales(config, index) else None
        recycle = False
        for ti in selected:
            if ti < first:
                continue
            target = adapter.TARGETS[ti]
            if not applicable(target, mutant, with_cli):
                continue
            if target.needs_graph and not resolve_ok:
                conn.send(("result", ti, Outcome(index, target.name, outcome.SKIPPED)))
                continue
            conn.send(("start", ti))
            before = _maxrss_bytes()
            cpu = time.process_time()
            result = run_target(target.bind(original), mutant.data, name, index, target.name)
            cpu = time.process_time() - cpu
            if _read_only(result, pristine, workdir):  # put the case back as it was
                _clear(workdir)
                mutant.write(workdir)
            # The peak is a high-water mark: growth during this target is this target's
            # (charged to the case that raised it, not to a later small one), and a worker
            # whose mark stands high is replaced so later targets are measured afresh.
            if _memory_blowup(result, _maxrss_bytes() - before, config.memory_soft_mb, case_size):
                recycle = True
            if _maxrss_bytes() - baseline > (config.memory_soft_mb << 20) // 2:
                recycle = True
            if result.cls == outcome.MEMORY:
                recycle = True
            if target.name == "resolve":
                resolve_ok = result.cls == outcome.ACCEPTED
            conn.send(("result", ti, result))
            if scale is None or result.cls != outcome.ACCEPTED or target.cli:
                continue
            if _scaled_run(conn, ti, target, scale, original, index, cpu, case_size):
                recycle = True
        conn.send(("done", index, recycle))
        if recycle:
            return


def _scales(config: Config, index: int) -> bool:
    """Whether case ``index`` gets the scaling check (every ``scale_every``-th, offset so
    that it is not always a CLI case)."""
    return config.scale_every > 0 and index % config.scale_every == config.scale_every // 2


#: Where the scaled mutant is written in a worker's directory (a folder: the case's own
#: files, checked for writes, stay as they are).
SCALED_DIR: Final = "x10"


def _write_scaled(mutant: mutators.Mutant, workdir: Path) -> tuple[str, bytes, int] | None:
    """Write the mutant with its longest string SCALE_FACTOR times longer into the
    scaled folder; (its SOURCE, its bytes, the string's length), or None."""
    scaled = mutators.scale_longest(mutant.data, mutant.kind, SCALE_FACTOR)
    if scaled is None:
        return None
    data, length = scaled
    folder = workdir / SCALED_DIR
    folder.mkdir(exist_ok=True)
    path = folder / f"case{mutant.suffix}"
    path.write_bytes(data)
    return f"{SCALED_DIR}/{path.name}", data, length


def _scaled_run(
    conn: multiprocessing.connection.Connection,
    ti: int,
    target: adapter.Target,
    scale: tuple[str, bytes, int],
    original: str,
    index: int,
    small: float,
    case_size: int,
) -> bool:
    """Run ``target`` on the scaled mutant; past :func:`scale_allowance` of ``small`` CPU
    seconds it is ``superlinear`` (the parent stops it there).  Returns whether the worker
    should be replaced (its memory grew)."""
    name, data, length = scale
    allowed = scale_allowance(small)
    conn.send(("scale-start", ti, allowed, length))
    adapter.reset()
    before = _maxrss_bytes()
    cpu = time.process_time()
    result = run_target(target.bind(original), data, name, index, target.name)
    big = time.process_time() - cpu
    figures = {"string_bytes": float(length), "seconds": small, "scaled_seconds": big}
    result.scaled = figures
    if result.cls in outcome.BENIGN and big > allowed:
        result.cls, result.exc_type = outcome.SUPERLINEAR, "time"
        result.message = (
            f"longest string ({length} bytes) x{SCALE_FACTOR}: {big:.2f} s of CPU "
            f"where the mutant took {small:.3f} s ({big / max(small, SCALE_FLOOR):.0f}x, "
            f"limit {SCALE_RATIO:g}x)"
        )
    elif result.cls not in outcome.BENIGN:
        result.message = f"(longest string x{SCALE_FACTOR}) {result.message}"
    conn.send(("scaled", ti, result))
    grown = _maxrss_bytes() - before
    return grown > (SCALE_FACTOR << 20) + SCALE_FACTOR * case_size * 50


# --------------------------------------------------------------------------- the parent


@dataclass
class _Slot:
    process: multiprocessing.process.BaseProcess
    conn: multiprocessing.connection.Connection
    directory: Path
    task: tuple[int, int, bool] | None = None
    case: CaseInfo | None = None
    running: int | None = None  # index into TARGETS of the target now running
    deadline: float = 0.0  # when to look again (a budget's next check, or a fixed limit)
    budget: Budget | None = None  # the running target's
    scaling: float | None = None  # the running target is the scaling check: the string's length


@dataclass
class Signature:
    cls: str
    target: str
    exc_type: str
    frame: str
    message: str
    count: int = 0
    cases: list[int] = field(default_factory=list)
    saved: str = ""
    size: int = 0


@dataclass
class RunSummary:
    config: Config
    cases: int = 0
    by_class: Counter[str] = field(default_factory=Counter)
    by_target: dict[str, Counter[str]] = field(default_factory=dict)
    worst: Counter[str] = field(default_factory=Counter)  # per mutant: its worst class
    signatures: dict[tuple[str, str, str, str], Signature] = field(default_factory=dict)
    mutator_errors: list[str] = field(default_factory=list)
    elapsed: float = 0.0
    interrupted: bool = False
    target_seconds: dict[str, float] = field(default_factory=dict)
    #: the scaling check: runs per target, and the largest ratio seen (ratio, target, case)
    scaled_runs: Counter[str] = field(default_factory=Counter)
    scaled_cases: set[int] = field(default_factory=set)
    worst_ratio: tuple[float, str, int] = (0.0, "", -1)
    slowdown: float = 1.0  # the time limits were multiplied by this (tools.fuzz.pace)

    def failures(self, cls: str) -> int:
        return self.by_class[cls]

    @property
    def failing(self) -> dict[str, int]:
        return {c: self.by_class[c] for c in outcome.FAILURES if self.by_class[c]}


#: Which class a mutant is counted under when its targets ended differently ("worst" first).
_SEVERITY: Final = {
    c: n
    for n, c in enumerate(
        (
            outcome.SKIPPED,
            outcome.ACCEPTED,
            outcome.REFUSED,
            outcome.DISAGREE,
            outcome.WROTE,
            outcome.BLOWUP,
            outcome.SUPERLINEAR,
            outcome.LEAKED,
            outcome.UNSAFE,
            outcome.MEMORY,
            outcome.UNEXPECTED,
            outcome.HANG,
            outcome.CRASH,
        )
    )
}


class Harness:
    def __init__(
        self, config: Config, corpus: list[mutators.Seed], log: TextIO | None = None
    ) -> None:
        self.config = config
        self.corpus = corpus
        self.log = log if log is not None else sys.stderr
        names = config.targets or adapter.TARGET_NAMES
        unknown = sorted(set(names) - set(adapter.TARGET_NAMES))
        if unknown:
            raise ValueError(f"unknown target(s): {', '.join(unknown)}")
        self.selected = tuple(i for i, t in enumerate(adapter.TARGETS) if t.name in names)
        self.summary = RunSummary(config, slowdown=pace.remeasure())  # before any worker
        self._scratch = Path(tempfile.mkdtemp(prefix="foldctl-fuzz-"))
        self._context = multiprocessing.get_context("fork")
        adapter.preload()  # forked workers start with every module foldctl runs
        self._worst: dict[int, str] = {}
        self._spawned = 0

    # -- workers ---------------------------------------------------------------

    def _spawn(self) -> _Slot:
        self._spawned += 1
        directory = self._scratch / f"w{self._spawned}"
        directory.mkdir()
        parent, child = self._context.Pipe()
        process = self._context.Process(
            target=_worker,
            args=(child, str(directory), self.config, self.corpus, self.selected),
            daemon=True,
        )
        process.start()
        child.close()
        return _Slot(process, parent, directory)

    def _stop(self, slot: _Slot, *, hung: bool) -> str:
        """End a worker; for a hung one, first ask for its stack. Returns the stack text."""
        stack = _dump_stack(slot.process, slot.directory / "stack.txt") if hung else ""
        if slot.process.is_alive():
            slot.process.kill()
        slot.process.join(5)
        slot.conn.close()
        return stack

    # -- results ---------------------------------------------------------------

    def _record(self, slot: _Slot, result: Outcome) -> None:
        """Count one target run and keep a reproducer of a failure (a scaled run is
        counted when it fails: superlinear, or any other failure on the scaled mutant)."""
        summary = self.summary
        summary.by_class[result.cls] += 1
        summary.by_target.setdefault(result.target, Counter())[result.cls] += 1
        seconds = summary.target_seconds
        seconds[result.target] = seconds.get(result.target, 0.0) + result.elapsed
        previous = self._worst.get(result.index, outcome.SKIPPED)
        if _SEVERITY[result.cls] > _SEVERITY[previous]:
            self._worst[result.index] = result.cls
        if result.cls in outcome.BENIGN:
            return
        key = result.signature
        sig = summary.signatures.get(key)
        if sig is None:
            sig = summary.signatures[key] = Signature(
                result.cls, result.target, result.exc_type, result.frame, result.message
            )
        sig.count += 1
        if len(sig.cases) < 20:
            sig.cases.append(result.index)
        case = slot.case
        if case is not None and (not sig.saved or case.size < sig.size):
            saved = self._save(slot.directory, case, result, key)
            if saved:
                sig.saved, sig.size, sig.message = saved, case.size, result.message
                sig.frame = result.frame

    def _save(self, directory: Path, case: CaseInfo, result: Outcome, key: tuple[str, ...]) -> str:
        out = self.config.out_dir
        if out is None:
            return ""
        out.mkdir(parents=True, exist_ok=True)
        tag = hashlib.sha1("\x00".join(key).encode()).hexdigest()[:10]
        stem = f"{result.cls}-{result.target}-{tag}"
        for old in out.glob(f"{stem}.*"):
            old.unlink()
        for old in out.glob(f"{stem}-side.*"):
            old.unlink()
        main = f"case{_suffix(case.kind)}"
        saved = f"{stem}{_suffix(case.kind)}"
        copied: list[str] = []
        for name in case.files:
            source = directory / name
            if not source.exists():
                return ""
            target = saved if name == main else saved + name[len(main) :]
            shutil.copyfile(source, out / target)
            copied.append(target)
        scaled_file = None
        if result.scaled is not None:
            source = directory / SCALED_DIR / main
            if source.exists():
                scaled_file = f"{stem}-x{SCALE_FACTOR}{_suffix(case.kind)}"
                shutil.copyfile(source, out / scaled_file)
        session = case.source.partition("#")[2] if "#" in case.source else None
        sidecar = {
            "seed": self.config.seed,
            "index": case.index,
            "seed_file": case.seed_file,
            "chain": case.chain,
            "target": result.target,
            "class": result.cls,
            "exception": {
                "type": result.exc_type,
                "message": result.message,
                "innermost_foldctl_frame": result.frame,
            },
            "file": saved,
            "files": copied,
            "session": session,
            "original": case.original,
            "size": case.size,
            "quick": self.config.quick,
            "replay": f"python -m tools.fuzz replay {out / saved} --target {result.target}",
        }
        if result.scaled is not None:
            limit = max(10.0, 4 * scale_allowance(result.scaled["seconds"]))
            sidecar["scaled"] = {
                "factor": SCALE_FACTOR,
                **result.scaled,
                "file": scaled_file,
                "replay": f"python -m tools.fuzz replay {out / (scaled_file or saved)} "
                f"--target {result.target} --timeout {limit:.0f}",
            }
        (out / f"{stem}.meta.json").write_text(json.dumps(sidecar, indent=2, ensure_ascii=True))
        return str(out / saved)

    # -- the loop ----------------------------------------------------------------

    def run(self) -> RunSummary:
        config = self.config
        started = time.monotonic()
        todo: list[tuple[int, int, bool]] = []
        upcoming = iter(range(config.start, config.start + config.count))
        slots = [self._spawn() for _ in range(max(1, config.jobs))]
        last_progress = started
        stop_at = None if config.minutes is None else started + 60 * config.minutes
        try:
            while True:
                if stop_at is not None and time.monotonic() > stop_at:
                    upcoming = iter(())  # the time budget is spent: finish what runs
                    todo.clear()
                for n, slot in enumerate(slots):
                    if slot.task is None:
                        task = todo.pop() if todo else None
                        if task is None:
                            index = next(upcoming, None)
                            task = None if index is None else (index, 0, True)
                        if task is None:
                            continue
                        if not slot.process.is_alive():
                            slots[n] = slot = self._spawn()
                        slot.task, slot.case, slot.running = task, None, None
                        slot.deadline = time.monotonic() + 60.0  # making the mutant
                        slot.conn.send(task)
                busy = [s for s in slots if s.task is not None]
                if not busy:
                    break
                wait = max(0.0, min(s.deadline for s in busy) - time.monotonic())
                ready = multiprocessing.connection.wait([s.conn for s in busy], timeout=wait)
                for n, slot in enumerate(slots):
                    if slot.task is None:
                        continue
                    if slot.conn in ready:
                        self._receive(n, slots, todo)
                    elif time.monotonic() > slot.deadline:
                        if slot.budget is not None and not slot.budget.expired():
                            slot.deadline = slot.budget.next_check()  # slowed, not stuck
                        else:
                            self._hung(n, slots, todo)
                now = time.monotonic()
                if config.progress and now - last_progress > 5:
                    last_progress = now
                    self._progress(now - started)
        except KeyboardInterrupt:
            self.summary.interrupted = True
        finally:
            for slot in slots:
                if slot.process.is_alive() and slot.task is None:
                    with contextlib.suppress(OSError, BrokenPipeError):
                        slot.conn.send(None)
                self._stop(slot, hung=False)
            shutil.rmtree(self._scratch, ignore_errors=True)
        self.summary.elapsed = time.monotonic() - started
        self.summary.cases = len(self._worst)
        self.summary.worst = Counter(self._worst.values())
        return self.summary

    def _progress(self, elapsed: float) -> None:
        done = len(self._worst)
        failing = ", ".join(f"{c} {n}" for c, n in self.summary.failing.items()) or "none"
        self.log.write(
            f"fuzz: {done}/{self.config.count} mutants, {done / elapsed:.0f}/s, "
            f"failures: {failing}\n"
        )
        self.log.flush()

    def _receive(self, n: int, slots: list[_Slot], todo: list[tuple[int, int, bool]]) -> None:
        slot = slots[n]
        try:
            message = slot.conn.recv()
        except (EOFError, OSError):
            self._died(n, slots, todo)
            return
        kind = message[0]
        if kind == "case":
            slot.case = message[1]
            if slot.task is not None:
                slot.case.resolve_ok = slot.task[2]
        elif kind == "start":
            slot.running = message[1]
            size = slot.case.size if slot.case is not None else 0
            target = adapter.TARGETS[message[1]]
            allowed = self.config.target_timeout(size, cli=target.cli, runs=target.runs)
            slot.budget = Budget.start(slot.process.pid, allowed, cpu=not target.cli)
            slot.deadline = slot.budget.next_check()
        elif kind == "result":
            ti, result = message[1], message[2]
            if adapter.TARGETS[ti].name == "resolve" and slot.case is not None:
                slot.case.resolve_ok = result.cls == outcome.ACCEPTED
            slot.running, slot.budget = None, None
            slot.deadline = time.monotonic() + 60.0
            self._record(slot, result)
        elif kind == "scale-start":
            _, ti, allowed, length = message
            slot.running, slot.scaling = ti, float(length)
            slot.budget = Budget.start(slot.process.pid, allowed)
            slot.deadline = slot.budget.next_check()
        elif kind == "scaled":
            result = message[2]
            slot.running, slot.budget, slot.scaling = None, None, None
            slot.deadline = time.monotonic() + 60.0
            summary = self.summary
            summary.scaled_runs[result.target] += 1
            summary.scaled_cases.add(result.index)
            figures = result.scaled or {}
            small = max(figures.get("seconds", 0.0), SCALE_FLOOR)
            ratio = figures.get("scaled_seconds", 0.0) / small
            if ratio > summary.worst_ratio[0]:
                summary.worst_ratio = (ratio, result.target, result.index)
            if result.cls not in outcome.BENIGN:
                self._record(slot, result)
        elif kind == "mutator-error":
            self.summary.mutator_errors.append(f"case {message[1]}:\n{message[2]}")
            self.log.write(f"fuzz: mutator error in case {message[1]}:\n{message[2]}")
        elif kind == "done":
            slot.task, slot.case, slot.running = None, None, None
            if message[2]:  # the worker recycles itself (memory)
                self._stop(slot, hung=False)
                slots[n] = self._spawn()

    def _interrupted(
        self,
        n: int,
        slots: list[_Slot],
        todo: list[tuple[int, int, bool]],
        cls: str,
        stack: str,
        hang: str = "",  # for a hang: what its budget says (read before the process is gone)
    ) -> None:
        slot = slots[n]
        task, case, running, budget = slot.task, slot.case, slot.running, slot.budget
        slots[n] = self._spawn()
        if task is None:
            return
        index = task[0]
        if running is None or budget is None:  # a target's start sets both
            if case is None:  # died or stuck while making the mutant
                self.summary.mutator_errors.append(f"case {index}: worker {cls} making the mutant")
            return
        target = adapter.TARGETS[running].name
        frame = _stack_frame(stack)
        message = hang if cls == outcome.HANG else f"worker exit code {slot.process.exitcode}"
        kind = "timeout" if cls == outcome.HANG else "signal"
        result = Outcome(index, target, cls, kind, message, frame, budget.allowed)
        if slot.scaling is not None:  # the scaling check's run: stopped at its allowance
            small = budget.allowed / SCALE_RATIO
            result.scaled = {"string_bytes": slot.scaling, "seconds": small}
            if cls == outcome.HANG:
                result.cls, result.exc_type = outcome.SUPERLINEAR, "time"
                result.message = (
                    f"longest string ({slot.scaling:.0f} bytes) x{SCALE_FACTOR}: {hang} "
                    f"(limit {SCALE_RATIO:g}x the mutant's {small:.3f} s, counted from "
                    f"{SCALE_FLOOR:g} s)"
                )
            else:
                result.message = f"(longest string x{SCALE_FACTOR}) {message}"
            self.summary.scaled_runs[target] += 1
            self.summary.scaled_cases.add(index)
        self._record(slot, result)
        if case is not None:
            if slot.scaling is None:  # a scaled run stopped: the case's own runs were fine
                case.hangs += 1
            if case.hangs < self.config.max_hangs_per_case:
                todo.append((index, running + 1, case.resolve_ok and target != "resolve"))

    def _hung(self, n: int, slots: list[_Slot], todo: list[tuple[int, int, bool]]) -> None:
        budget = slots[n].budget
        hang = budget.describe() if budget is not None else ""  # before the process is gone
        stack = self._stop(slots[n], hung=True)
        self._interrupted(n, slots, todo, outcome.HANG, stack, hang)

    def _died(self, n: int, slots: list[_Slot], todo: list[tuple[int, int, bool]]) -> None:
        self._stop(slots[n], hung=False)
        self._interrupted(n, slots, todo, outcome.CRASH, "")


def _suffix(kind: str) -> str:
    return mutators.SUFFIXES[kind]


def _kind_of(name: str) -> str:
    """The kind of a saved mutant, from its file name."""
    for kind, suffix in sorted(mutators.SUFFIXES.items(), key=lambda kv: -len(kv[1])):
        if name.endswith(suffix):
            return kind
    return "json"


_STACK_LINE: Final = re.compile(r'File "([^"]+)", line (\d+) in (\S+)')


def _stack_frame(stack: str) -> str:
    """The innermost foldctl frame of a faulthandler dump (most recent call first).

    Falls back to the innermost frame of the adapter (see :func:`innermost_frame`).
    """
    fallback = ""
    for match in _STACK_LINE.finditer(stack):
        filename, line, func = match.groups()
        if _in_package(filename):
            return f"{_relative(filename)}:{line} in {func}"
        if not fallback and Path(filename).resolve() == _ADAPTER:
            fallback = f"tools/fuzz/targets.py:{line} in {func}"
    return fallback


# --------------------------------------------------------------------------- reporting


def _table(rows: Sequence[Sequence[str]], header: Sequence[str]) -> list[str]:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]

    def fmt(row: Sequence[str]) -> str:
        cells = [
            str(c).rjust(w) if n else str(c).ljust(w)
            for n, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        return "  ".join(cells).rstrip()

    return [fmt(header), "  ".join("-" * w for w in widths), *(fmt(r) for r in rows)]


def report_lines(summary: RunSummary) -> list[str]:
    """The summary table: cases per class, per target, run time, cases/s, and the signatures."""
    config = summary.config
    last = config.start + config.count - 1
    lines = [
        f"foldctl fuzz: seed {config.seed}, cases {config.start}..{last}, {config.jobs} worker(s), "
        f"{config.timeout:g} s + {config.timeout_per_mb:g} s/MB per target"
        + (f" (x{summary.slowdown:.2f} for this machine's pace)" if summary.slowdown > 1 else "")
        + f", {'quick' if config.quick else 'full'} limits",
        f"{summary.cases} mutants, {sum(summary.by_class.values())} target runs in "
        f"{summary.elapsed:.1f} s ({summary.cases / max(summary.elapsed, 1e-9):.1f} mutants/s)"
        + (" (interrupted)" if summary.interrupted else ""),
        "",
    ]
    always = {outcome.ACCEPTED, outcome.REFUSED, outcome.UNEXPECTED, outcome.HANG}
    if config.scale_every:
        always.add(outcome.SUPERLINEAR)
    if "redact" in (config.targets or adapter.TARGET_NAMES):
        always.add(outcome.LEAKED)
    classes = [c for c in outcome.CLASSES if summary.by_class[c] or c in always]
    header = ["target", *classes, "total", "seconds"]
    rows = []
    for target in adapter.TARGET_NAMES:
        counts = summary.by_target.get(target)
        if not counts:
            continue
        rows.append(
            [
                target,
                *(str(counts[c]) for c in classes),
                str(sum(counts.values())),
                f"{summary.target_seconds.get(target, 0.0):.1f}",
            ]
        )
    rows.append(
        [
            "all targets",
            *(str(summary.by_class[c]) for c in classes),
            str(sum(summary.by_class.values())),
            f"{sum(summary.target_seconds.values()):.1f}",
        ]
    )
    rows.append(
        ["mutants (worst)", *(str(summary.worst[c]) for c in classes), str(summary.cases), ""]
    )
    lines += _table(rows, header)
    if config.scale_every:
        ratio, target, index = summary.worst_ratio
        lines += [
            "",
            f"scaling check (every {config.scale_every}th mutant, longest string x{SCALE_FACTOR}, "
            f"superlinear past {SCALE_RATIO:g}x the CPU time counted from {SCALE_FLOOR:g} s): "
            f"{sum(summary.scaled_runs.values())} runs on {len(summary.scaled_cases)} mutants, "
            f"{summary.by_class[outcome.SUPERLINEAR]} superlinear"
            + (f"; largest ratio {ratio:.1f}x ({target}, case {index})" if target else ""),
        ]
    if summary.signatures:
        lines += ["", f"{len(summary.signatures)} distinct failure signature(s):"]
        ordered = sorted(summary.signatures.values(), key=lambda s: (s.cls, s.target, -s.count))
        for sig in ordered:
            where = sig.frame or "-"
            kind = sig.exc_type or "-"
            lines.append(f"  {sig.cls:<10} {sig.target:<15} {kind:<22} x{sig.count:<5} {where}")
            lines.append(f"      {_short(sig.message, 160)}")
            if sig.saved:
                lines.append(f"      saved: {sig.saved}")
    if summary.mutator_errors:
        lines += ["", f"{len(summary.mutator_errors)} mutator error(s); the first:"]
        lines += summary.mutator_errors[0].splitlines()
    return lines


def write_summary_json(summary: RunSummary, path: Path) -> None:
    doc = {
        "config": {
            k: str(v) if isinstance(v, Path) else v for k, v in asdict(summary.config).items()
        },
        "mutants": summary.cases,
        "elapsed": summary.elapsed,
        "by_class": dict(summary.by_class),
        "by_target": {t: dict(c) for t, c in summary.by_target.items()},
        "worst": dict(summary.worst),
        "signatures": [asdict(s) for s in summary.signatures.values()],
        "scaling": {
            "runs": dict(summary.scaled_runs),
            "mutants": len(summary.scaled_cases),
            "largest_ratio": list(summary.worst_ratio),
        },
    }
    path.write_text(json.dumps(doc, indent=2, default=str))


# --------------------------------------------------------------------------- one case, in process


def replay(
    path: Path,
    target_names: Iterable[str] = (),
    *,
    original: str | None = None,
    session: str | None = None,
    show: Callable[[str], None] = print,
    memory_soft_mb: int = 768,
) -> list[Outcome]:
    """Run a saved mutant (and its side files) through targets in this process.

    The files are copied into a scratch directory (the saved names stay put).
    The targets, the original (for ``diff``) and the session (for a store)
    default to what the ``.meta.json`` sidecar says; without one, every
    target runs, a file is compared with itself and a store's first session
    is opened.
    """
    path = path.resolve()
    meta_path = path.with_name(_stem(path.name) + ".meta.json")
    meta: dict[str, Any] = json.loads(meta_path.read_text()) if meta_path.exists() else {}
    names = list(target_names) or ([meta["target"]] if meta.get("target") else [])
    chosen = [t for t in adapter.TARGETS if not names or t.name in names]
    kind = _kind_of(path.name)
    original = original or meta.get("original") or str(path.resolve())
    session = session or meta.get("session")
    results: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="foldctl-replay-") as scratch:
        main = Path(scratch) / f"case{_suffix(kind)}"

        def put_in_place() -> None:
            _clear(Path(scratch))
            shutil.copyfile(path, main)
            for suffix in ("-wal", "-shm"):
                side = path.with_name(path.name + suffix)
                if side.exists():
                    shutil.copyfile(side, Path(scratch) / (main.name + suffix))

        put_in_place()
        if kind == "db" and not session:
            session = _first_session(path)
        name = main.name if not session else f"{main.name}#{session}"
        here = os.getcwd()
        os.chdir(scratch)
        try:
            data = main.read_bytes()
            adapter.reset()
            pristine = _snapshot(Path(scratch))
            for target in chosen:
                if ("store" if kind == "db" else "file") not in target.kinds:
                    continue
                before = _maxrss_bytes()
                result = run_target(target.bind(original), data, name, -1, target.name)
                grown = _maxrss_bytes() - before  # a high-water mark: exact in a fresh process
                _memory_blowup(result, grown, memory_soft_mb, outcome.input_size(data))
                if _read_only(result, pristine, Path(scratch)):
                    put_in_place()
                _show(result, target.bind(original), data, name, show)
                results.append(result)
        finally:
            os.chdir(here)
    return results


def _replay_child(
    conn: multiprocessing.connection.Connection,
    path: Path,
    target: str,
    original: str | None,
    session: str | None,
    memory_cap_mb: int,
    stack_path: str,
) -> None:
    # What the parent built (a test run's every module and cache) is never garbage here: a
    # collection that walked it would copy each page it touched, on this child's CPU time.
    gc.freeze()
    cap = memory_cap_mb << 20
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    stack_file = open(stack_path, "w")  # noqa: SIM115 - open until the process ends
    faulthandler.register(signal.SIGUSR1, file=stack_file, all_threads=False)
    results = replay(path, [target], original=original, session=session, show=lambda _: None)
    conn.send(results)


@dataclass(frozen=True)
class ReplayJob:
    """One saved file through one target, in a child process (see :func:`run_many`)."""

    path: Path
    target: str
    timeout: float  # CPU seconds, times this machine's pace.slowdown()
    original: str | None = None
    session: str | None = None


def run_many(
    jobs: Sequence[ReplayJob], *, processes: int = 2, memory_cap_mb: int = 3_072
) -> list[Outcome]:
    """:func:`replay` each job in a forked child with its time limit, ``processes`` at a time.

    Results come back in the order of ``jobs``; a child still running at its
    limit (times :func:`~tools.fuzz.pace.slowdown`) is killed (``hang``), one that dies
    without a result is a ``crash``.  A hang is run once more, alone, the pace measured
    again, and is a hang only if it overruns again: on a shared machine a process's CPU
    time can grow for a moment with what other machines run (a CI runner once took 2.2 s
    of CPU for a replay that takes 0.76 s), and work that does not end, or grows with the
    square of its input, overruns any number of times.
    """
    results = _run_batch(jobs, processes, memory_cap_mb)
    again = [n for n, result in enumerate(results) if result.cls == outcome.HANG]
    if again:
        retried = _run_batch([jobs[n] for n in again], 1, memory_cap_mb)
        for n, result in zip(again, retried, strict=True):
            results[n] = result
    return results


def _run_batch(jobs: Sequence[ReplayJob], processes: int, memory_cap_mb: int) -> list[Outcome]:
    """:func:`run_many`'s one pass over ``jobs``."""
    slowdown = pace.remeasure()  # before the first child starts
    context = multiprocessing.get_context("fork")
    results: list[Outcome | None] = [None] * len(jobs)
    running: dict[int, tuple[multiprocessing.process.BaseProcess, Any, Budget]] = {}
    stacks = Path(tempfile.mkdtemp(prefix="foldctl-replay-stacks-"))
    waiting = list(range(len(jobs)))[::-1]

    def finish(n: int, result: Outcome) -> None:
        process, conn, _ = running.pop(n)
        if process.is_alive():
            process.kill()
        process.join(5)
        conn.close()
        results[n] = result

    while waiting or running:
        while waiting and len(running) < max(1, processes):
            n = waiting.pop()
            job = jobs[n]
            parent, child = context.Pipe()
            process = context.Process(
                target=_replay_child,
                args=(
                    child,
                    job.path,
                    job.target,
                    job.original,
                    job.session,
                    memory_cap_mb,
                    str(stacks / f"{n}.txt"),
                ),
                daemon=True,
            )
            process.start()
            child.close()
            running[n] = (process, parent, Budget.start(process.pid, job.timeout * slowdown))
        soonest = min(budget.next_check() for _, _, budget in running.values())
        ready = multiprocessing.connection.wait(
            [conn for _, conn, _ in running.values()], timeout=max(0.0, soonest - time.monotonic())
        )
        for n in list(running):
            _, conn, budget = running[n]
            job = jobs[n]
            if conn in ready:
                try:
                    got = conn.recv()
                    result = got[0] if got else Outcome(-1, job.target, outcome.SKIPPED)
                except (EOFError, OSError):
                    result = Outcome(-1, job.target, outcome.CRASH, "signal", "the process died")
                finish(n, result)
            elif budget.expired():
                message = budget.describe()
                frame = _stack_frame(_dump_stack(running[n][0], stacks / f"{n}.txt"))
                finish(n, Outcome(-1, job.target, outcome.HANG, "timeout", message, frame))
    shutil.rmtree(stacks, ignore_errors=True)
    return [r for r in results if r is not None]


def _dump_stack(process: multiprocessing.process.BaseProcess, stack_file: Path) -> str:
    """Ask a live process for its Python stack (faulthandler on SIGUSR1) and read it."""
    stack = ""
    if process.pid is None or not process.is_alive():
        return stack
    with contextlib.suppress(ProcessLookupError):
        os.kill(process.pid, signal.SIGUSR1)
    waited = time.monotonic() + 0.5
    while time.monotonic() < waited:  # the dump takes a few milliseconds
        with contextlib.suppress(OSError):
            stack = stack_file.read_text(errors="replace")
        if "in <module>" in stack:  # the outermost frame: the dump is complete
            break
        time.sleep(0.02)
    return stack


def run_isolated(
    path: Path,
    target_names: Sequence[str],
    *,
    timeout: float,
    original: str | None = None,
    session: str | None = None,
    memory_cap_mb: int = 3_072,
) -> list[Outcome]:
    """:func:`replay`, each target in a forked process with a time limit and a memory cap."""
    jobs = [ReplayJob(path, t, timeout, original, session) for t in target_names]
    return run_many(jobs, processes=1, memory_cap_mb=memory_cap_mb)


def _show(
    result: Outcome, fn: adapter.TargetFn, data: bytes, name: str, show: Callable[[str], None]
) -> None:
    """Say how a replayed target ended; for an unexpected exception, run it again for the trace."""
    show(f"{result.target}: {result.cls} {result.exc_type} {result.frame} ({result.elapsed:.2f} s)")
    if result.message:
        show(f"    {result.message}")
    if result.cls == outcome.UNEXPECTED and result.exc_type != "cli":
        try:
            fn(data, name)
        except Exception:  # shown, not handled
            show("".join(traceback.format_exc(limit=-12)))


def _stem(name: str) -> str:
    for suffix in (".json.gz", ".jsonl.gz", ".jsonl", ".json", ".db", ".bin"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def _first_session(path: Path) -> str | None:
    import sqlite3

    try:
        con = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
        try:
            row = con.execute("SELECT session_id FROM agent_sessions LIMIT 1").fetchone()
        finally:
            con.close()
    except sqlite3.Error:
        return None
    return None if row is None else str(row[0])
