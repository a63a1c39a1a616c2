"""Precision and recall of the claims check on the labelled corpus, per kind of finding.

Usage::

    python scripts/claims_score.py [--seeds N] [--misses]

The corpus is ``tests/claims_corpus.py`` (eight domains, every story under
``N`` seeds; the unit test scores the default four).  Seeds beyond those the
rules were written against are a fair held-out check: ``--seeds 40``.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.claims_corpus import build_corpus, score, score_table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seeds", type=int, default=4, help="seeds per story (default 4)")
    parser.add_argument("--misses", action="store_true", help="list every false positive/negative")
    args = parser.parse_args()
    cases = build_corpus(tuple(range(args.seeds)))
    scores, misses = score(cases)
    variants = Counter(case.variant for case in cases)
    domains = sorted({case.domain for case in cases})
    print(f"{len(cases)} cases, {len(domains)} domains ({', '.join(domains)})")
    print("variants: " + ", ".join(f"{name} {count}" for name, count in sorted(variants.items())))
    print()
    print(score_table(scores))
    if args.misses:
        print()
        for miss in misses:
            print(f"{miss.kind.upper()} {miss.case}: {miss.finding}  | {miss.summary}")


if __name__ == "__main__":
    main()
