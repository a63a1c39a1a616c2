"""Score the claims check on the held-out families, end to end.

Usage::

    python -m tools.claims_heldout [--misses]     (make claims-heldout)
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from tools.claims_heldout import (
    HERE,
    KINDS,
    cases,
    family_table,
    load_families,
    planted,
    score,
    score_table,
)


def main(
    argv: list[str] | None = None,
    *,
    directory: Path = HERE,
    prog: str = "python -m tools.claims_heldout",
    description: str = __doc__.split("\n", 1)[0],
) -> None:
    """Score the families in ``directory`` (the held-out set's own, unless another set in its
    format is named) and print the tables."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--misses", action="store_true", help="list every false positive/negative")
    args = parser.parse_args(argv)
    families = load_families(directory)
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
