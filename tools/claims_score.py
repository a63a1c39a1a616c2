"""Precision and recall of the claims check on the labelled corpus, per kind of finding.

Usage::

    python -m tools.claims_score [--seeds N] [--misses]     (make claims-score)

The corpus is ``tools/claims_corpus.py`` (eight domains, every story under
``N`` seeds; the unit tests score the default four).  Each case is scored twice:
its summary checked against its originals directly, and written as a real
checkpoint checked end to end by the command's pipeline.
"""

from __future__ import annotations

import argparse
from collections import Counter

from tools.claims_corpus import build_corpus, score, score_pipeline, score_table


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
    print("the check on each case's text")
    print(score_table(scores))
    pipeline, pipeline_misses = score_pipeline(cases)
    print()
    print("end to end: each case as a checkpoint, through load, join and walk")
    print(score_table(pipeline))
    misses += pipeline_misses
    if args.misses:
        print()
        for miss in misses:
            print(f"{miss.kind.upper()} {miss.case}: {miss.finding}  | {miss.summary}")


if __name__ == "__main__":
    main()
