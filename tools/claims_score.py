"""Precision and recall of the claims check on the labelled corpus, per kind and per family.

Usage::

    python -m tools.claims_score [--seeds N] [--misses] [--family NAME ...]   (make claims-score)

The corpus is ``tools/claims_corpus/`` (one module per family, every story under ``N``
seeds; the unit tests score the default four).  Each case is scored twice: its summary
checked against its originals directly, and written as a real checkpoint checked end to
end by the command's pipeline.  The tables: per kind on the whole corpus, on the families
the rules were first written beside and on the ones written after; then per family.

Then the held-out families (``tools/claims_heldout``, scored by their own ``python -m
tools.claims_heldout``) when that package is present: no rule is tuned on them.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
from collections import Counter

from tools.claims_corpus import (
    FAMILIES,
    NEW,
    ORIGINAL,
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

HELDOUT = "tools.claims_heldout"


def heldout_present() -> bool:
    """Whether the held-out families are installed beside the corpus."""
    try:
        return importlib.util.find_spec(HELDOUT) is not None
    except ModuleNotFoundError:
        return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--seeds", type=int, default=4, help="seeds per story (default 4)")
    parser.add_argument("--misses", action="store_true", help="list every false positive/negative")
    parser.add_argument("--family", action="append", choices=sorted(FAMILIES), help="only these")
    args = parser.parse_args(argv)
    cases = build_corpus(tuple(range(args.seeds)), args.family)
    variants = Counter(case.variant.split("-", 1)[0] for case in cases)
    families = list(dict.fromkeys(case.domain for case in cases))
    print(f"{len(cases)} cases, {len(families)} families ({', '.join(families)})")
    print("variants: " + ", ".join(f"{name} {count}" for name, count in sorted(variants.items())))
    runs = (
        ("the check on each case's text", tally(direct_cases(cases), findings_of)),
        ("end to end: each case as a checkpoint, through load, join and walk",
         pipeline_tally(cases)),
    )  # fmt: skip
    misses = []
    for title, counted in runs:
        print(f"\n{title}")
        print("whole corpus")
        print(score_table(counted.kinds))
        for label, names in (("first eight families", ORIGINAL), ("ten new families", NEW)):
            chosen = [n for n in names if n in families]
            if chosen and len(chosen) < len(families):
                print(label)
                print(score_table(subset(counted, chosen)))
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


if __name__ == "__main__":
    raise SystemExit(main())
