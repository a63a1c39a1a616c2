"""Precision and recall of the claims check on the labelled corpus, per kind and per family.

Usage::

    python -m tools.claims_score [--seeds N] [--misses] [--family NAME ...]   (make claims-score)

The corpus is ``tools/claims_corpus/``: the generated families (one module per family,
every story under ``N`` seeds; the unit tests score the default four) and the written
families (``tools/claims_corpus/written/``, one JSON file each, written by hand apart from
the rules; seeds do not apply).  Each case is scored twice: its summary checked against its
originals directly, and written as a real checkpoint checked end to end by the command's
pipeline.  The tables: per kind on the whole corpus, on the families the rules were first
written beside, on the ones generated after and on the written ones; then per family.

Then the held-out families (``tools/claims_heldout``, scored by their own ``python -m
tools.claims_heldout``) when that package is present: no rule is tuned on them.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
from collections import Counter
from typing import TYPE_CHECKING

from tools.claims_corpus import (
    FAMILIES,
    KINDS,
    NEW,
    ORIGINAL,
    Tally,
    build_corpus,
    direct_cases,
    family_table,
    findings_of,
    info_line,
    pipeline_tally,
    score_table,
    subset,
    tally,
)

if TYPE_CHECKING:
    from tools.claims_heldout import Family

HELDOUT = "tools.claims_heldout"


def heldout_present() -> bool:
    """Whether the held-out families are installed beside the corpus."""
    try:
        return importlib.util.find_spec(HELDOUT) is not None
    except ModuleNotFoundError:
        return False


def written_families() -> list[Family]:
    """The corpus's written families (``tools/claims_corpus/written``), or none when the
    held-out set's package, whose loader and scorer they share, is not present."""
    if not heldout_present():
        return []
    from tools.claims_corpus.written import load_families

    return load_families()


def main(argv: list[str] | None = None) -> int:
    try:
        every_written = written_families()
    except ValueError as e:  # HeldoutError: a written family breaks the label format
        print(f"claims_score: {e}", file=sys.stderr)
        return 2
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--seeds", type=int, default=4, help="seeds per story (default 4)")
    parser.add_argument("--misses", action="store_true", help="list every false positive/negative")
    parser.add_argument(
        "--family",
        action="append",
        choices=sorted([*FAMILIES, *(f.name for f in every_written)]),
        help="only these (generated or written)",
    )
    args = parser.parse_args(argv)
    generated = [n for n in FAMILIES if args.family is None or n in args.family]
    written = [f for f in every_written if args.family is None or f.name in args.family]
    cases = build_corpus(tuple(range(args.seeds)), generated)
    variants = Counter(case.variant.split("-", 1)[0] for case in cases)
    written_cases = [case for family in written for case in family.cases]
    families = [*dict.fromkeys(case.domain for case in cases), *(f.name for f in written)]
    total = len(cases) + len(written_cases)
    print(f"{total} cases, {len(families)} families ({', '.join(families)})")
    if cases:
        print("variants: " + ", ".join(f"{name} {n}" for name, n in sorted(variants.items())))
    if not heldout_present():
        print("written families not scored: their loader (tools/claims_heldout) is not present")
    if written:
        from tools.claims_corpus.written import planted

        kinds = Counter[str]()
        for case in written_cases:
            kinds += planted(case)
        quiet = sum(1 for case in written_cases if not case["expected"])
        print(
            f"written: {len(written_cases)} cases, {quiet} quiet; planted: "
            + ", ".join(f"{kind} {kinds[kind]}" for kind in KINDS)
        )
    direct, end_to_end = tally(direct_cases(cases), findings_of), pipeline_tally(cases)
    if written:
        from tools.claims_corpus.written import case_findings, direct_findings, tally_into

        tally_into(direct, written, direct_findings)
        tally_into(end_to_end, written, case_findings)
    runs = (
        ("the check on each case's text", direct),
        ("end to end: each case as a checkpoint, through load, join and walk", end_to_end),
    )
    misses = []
    for title, counted in runs:
        print(f"\n{title}")
        print("whole corpus")
        print(score_table(counted.kinds))
        _subsets(counted, families, [f.name for f in written])
        print(info_line(counted))
        print("per family")
        print(family_table(counted, families))
        misses += counted.misses
    print("\nheld-out families (tools/claims_heldout)")
    sys.stdout.flush()
    status = 0
    if heldout_present():
        status = subprocess.run([sys.executable, "-m", HELDOUT], check=False).returncode
    else:
        print("held-out set not present")
    if args.misses:
        print()
        for miss in misses:
            print(f"{miss.kind.upper()} {miss.case}: {miss.finding}  | {miss.summary}")
    return status


def _subsets(counted: Tally, families: list[str], written: list[str]) -> None:
    """Per kind on each group of families, when more than that group is being scored."""
    groups = (
        ("first eight families", ORIGINAL),
        ("ten new families", NEW),
        ("written families", written),
    )
    for label, names in groups:
        chosen = [n for n in names if n in families]
        if chosen and len(chosen) < len(families):
            print(label)
            print(score_table(subset(counted, chosen)))


if __name__ == "__main__":
    raise SystemExit(main())
