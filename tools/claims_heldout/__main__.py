"""Score the claims check on the held-out families, end to end.

Usage::

    python -m tools.claims_heldout [--misses]     (make claims-heldout)
"""

from __future__ import annotations

import argparse
from collections import Counter

from tools.claims_heldout import (
    KINDS,
    cases,
    family_table,
    load_families,
    planted,
    score,
    score_table,
)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tools.claims_heldout", description=__doc__.split("\n", 1)[0]
    )
    parser.add_argument("--misses", action="store_true", help="list every false positive/negative")
    args = parser.parse_args(argv)
    families = load_families()
    every = cases(families)
    variants = Counter(case["variant"] for _, case in every)
    kinds = Counter[str]()
    for _, case in every:
        kinds += planted(case)
    quiet = sum(1 for _, case in every if not case["expected"])
    nested = sum(1 for _, case in every if case["inner"] is not None)
    derived = sum(len(case["derived"]) for _, case in every)
    print(f"{len(every)} cases, {len(families)} families ({', '.join(f.name for f in families)})")
    print(
        f"{quiet} quiet cases, {nested} nested, {derived} derived values; planted: "
        + ", ".join(f"{kind} {kinds[kind]}" for kind in KINDS)
    )
    print("variants: " + ", ".join(f"{name} {n}" for name, n in sorted(variants.items())))
    result = score(families)
    print()
    print("end to end: each case as a checkpoint, through load, join and the claims check")
    print(score_table(result.scores))
    print()
    print(family_table(families, result))
    if args.misses:
        print()
        for miss in result.misses:
            flat = " ".join(miss.text.split())
            print(f"{miss.what.upper():7} {miss.case} {miss.kind}: {flat[:120]}")


if __name__ == "__main__":
    main()
