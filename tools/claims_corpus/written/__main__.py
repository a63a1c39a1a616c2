"""Score the claims check on the labelled corpus's written families alone, end to end.

Usage::

    python -m tools.claims_corpus.written [--misses]

The same tables as the held-out set's (per kind; per family the errors planted, found and
the false positives), by the same scorer; ``make claims-score`` reports these families
beside the generated ones as well.
"""

from __future__ import annotations

import sys

from tools.claims_corpus.written import HERE, HeldoutError
from tools.claims_heldout.__main__ import main as score_folder

PROG = "python -m tools.claims_corpus.written"


def main(argv: list[str] | None = None) -> None:
    """Score the written families; a family that breaks the label format is one line on
    standard error naming the file and the place, and exit status 2."""
    try:
        score_folder(argv, directory=HERE, prog=PROG, description=(__doc__ or "").split("\n", 1)[0])
    except HeldoutError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
