"""``python -m tools.fuzz``: run the fuzzer, replay a saved case, or write one case's mutant.

    python -m tools.fuzz run -n 20000 --seed 1 --jobs 2
    python -m tools.fuzz replay fuzz-out/unexpected-show-0123456789.json
    python -m tools.fuzz mutant --seed 1 --index 417 -o /tmp/case
    python -m tools.fuzz targets

See docs/fuzzing.md.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tools.fuzz import mutants, mutators, outcome

if TYPE_CHECKING:
    from tools.fuzz.harness import Config


def _run(args: argparse.Namespace) -> int:
    from tools.fuzz.harness import Config, sample_config

    if args.sample:
        config = sample_config(None if args.no_save else Path(args.out))
        return _finish(config, args)
    config = Config(
        count=args.n,
        seed=args.seed,
        start=args.start,
        jobs=args.jobs,
        timeout=args.timeout,
        timeout_per_mb=args.timeout_per_mb,
        cli_timeout=args.cli_timeout,
        memory_cap_mb=args.memory_cap,
        memory_soft_mb=args.memory_soft,
        cli_every=args.cli_every,
        out_dir=None if args.no_save else Path(args.out),
        targets=tuple(t for t in args.targets.split(",") if t) if args.targets else (),
        max_seed_bytes=args.max_seed_bytes,
        quick=args.quick,
        max_hangs_per_case=args.max_hangs,
        heavy=args.heavy,
        minutes=args.minutes,
        scale_every=args.scale_every,
        progress=not args.quiet,
    )
    return _finish(config, args)


def _finish(config: Config, args: argparse.Namespace) -> int:
    from tools.fuzz.harness import Harness, report_lines, write_summary_json

    corpus = mutators.load_corpus(max_seed_bytes=config.max_seed_bytes)
    summary = Harness(config, corpus).run()
    lines = report_lines(summary)
    sys.stdout.write("\n".join(lines) + "\n")
    if config.out_dir is not None:
        config.out_dir.mkdir(parents=True, exist_ok=True)
        write_summary_json(summary, config.out_dir / "summary.json")
        (config.out_dir / "summary.txt").write_text("\n".join(lines) + "\n")
    return 1 if args.check and summary.failing else 0


def _replay(args: argparse.Namespace) -> int:
    from tools.fuzz.harness import replay, run_isolated

    path = Path(args.file)
    if args.timeout is not None:
        names = args.target or _sidecar_targets(path)
        results = run_isolated(path, names, timeout=args.timeout)
        for r in results:
            sys.stdout.write(f"{r.target}: {r.cls} {r.exc_type} {r.frame}\n    {r.message}\n")
    else:
        results = replay(path, args.target or ())
    return 1 if any(r.cls not in outcome.BENIGN for r in results) else 0


def _sidecar_targets(path: Path) -> list[str]:
    import json

    from tools.fuzz.targets import TARGET_NAMES

    for meta in path.parent.glob("*.meta.json"):
        doc = json.loads(meta.read_text())
        if doc.get("file") == path.name:
            return [doc["target"]]
    return list(TARGET_NAMES)


def _mutant(args: argparse.Namespace) -> int:
    corpus = mutators.load_corpus(max_seed_bytes=args.max_seed_bytes)
    limits = mutators.QUICK if args.quick else mutators.FULL
    mutant = mutants.make_mutant(corpus, args.seed, args.index, limits)
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    name = mutant.write(out, stem=f"case-{args.seed}-{args.index}")
    sys.stdout.write(f"{out / name}\n  from {mutant.seed.name}: {' + '.join(mutant.chain)}\n")
    return 0


def _targets(args: argparse.Namespace) -> int:
    from tools.fuzz.targets import TARGETS

    for t in TARGETS:
        kinds = "/".join(sorted(t.kinds))
        sys.stdout.write(f"{t.name:<16} {kinds:<11} {'cli sample' if t.cli else ''}\n")
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m tools.fuzz", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command")
    run = sub.add_parser("run", help="run mutants through every target (the default)")
    run.add_argument("-n", type=int, default=2_000, help="how many mutants (default 2000)")
    run.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
    run.add_argument("--start", type=int, default=0, help="first case index (default 0)")
    run.add_argument("--jobs", "-j", type=int, default=2, help="worker processes (default 2)")
    run.add_argument(
        "--timeout",
        type=float,
        default=3.0,
        help="seconds of CPU time per target, plus --timeout-per-mb",
    )
    run.add_argument(
        "--timeout-per-mb", type=float, default=1.0, help="extra seconds per MB of input"
    )
    run.add_argument("--cli-timeout", type=float, default=20.0, help="seconds per CLI run")
    run.add_argument("--sample", action="store_true", help="the fixed sample run by make test")
    run.add_argument("--memory-cap", type=int, default=3_072, help="MB of address space per worker")
    run.add_argument(
        "--memory-soft", type=int, default=768, help="MB of RSS growth that counts as a blowup"
    )
    run.add_argument(
        "--cli-every", type=int, default=100, help="also run the CLI on every Nth mutant (0: never)"
    )
    run.add_argument("--out", default="fuzz-out", help="where reproducers go (default fuzz-out/)")
    run.add_argument("--no-save", action="store_true", help="keep no reproducers")
    run.add_argument("--targets", default="", help="comma-separated target names (default: all)")
    run.add_argument("--max-seed-bytes", type=int, default=None, help="skip larger seed files")
    run.add_argument("--quick", action="store_true", help="smaller heavy mutations")
    run.add_argument(
        "--heavy",
        type=float,
        default=None,
        help="weight of the heavy mutators (deep, huge, multiplying); "
        "default 0.5, 0.25 with --quick",
    )
    run.add_argument(
        "--max-hangs", type=int, default=1, help="stop a mutant after this many hangs (default 1)"
    )
    run.add_argument(
        "--minutes", type=float, default=None, help="stop taking new mutants after this long"
    )
    run.add_argument(
        "--scale-every",
        type=int,
        default=20,
        help="the scaling check on every Nth mutant: its accepted targets again with the "
        "longest string 10x longer, superlinear past 20x the time (0: never; default 20)",
    )
    run.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    run.add_argument("--check", action="store_true", help="exit 1 when anything failed")
    run.set_defaults(func=_run)
    rep = sub.add_parser("replay", help="run a saved case in this process, with tracebacks")
    rep.add_argument("file", help="the saved mutant (its .meta.json sidecar is read when present)")
    rep.add_argument("--target", action="append", help="target(s) to run (default: the sidecar's)")
    rep.add_argument(
        "--timeout",
        type=float,
        default=None,
        help="run each target in a child process with this CPU-time limit (no traceback shown)",
    )
    rep.set_defaults(func=_replay)
    mut = sub.add_parser("mutant", help="write the mutant of one case")
    mut.add_argument("--seed", type=int, default=1)
    mut.add_argument("--index", type=int, required=True)
    mut.add_argument("--quick", action="store_true")
    mut.add_argument("--max-seed-bytes", type=int, default=None)
    mut.add_argument("-o", "--output", default="fuzz-out/mutants")
    mut.set_defaults(func=_mutant)
    tg = sub.add_parser("targets", help="list the targets")
    tg.set_defaults(func=_targets)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list or args_list[0].startswith("-"):
        args_list.insert(0, "run")
    args = parser().parse_args(args_list)
    status: int = args.func(args)
    return status


if __name__ == "__main__":
    sys.exit(main())
