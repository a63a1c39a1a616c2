"""Score the claims check on the labelled corpus's written families alone, end to end.

Usage::

    python -m tools.claims_corpus.written [--misses]

The same tables as the held-out set's (per kind; per family the errors planted, found and
the false positives), by the same scorer; ``make claims-score`` reports these families
beside the generated ones as well.
"""

from __future__ import annotations

from tools.claims_corpus.written import HERE
from tools.claims_heldout.__main__ import main as score_folder


def main(argv: list[str] | None = None) -> None:
    score_folder(
        argv,
        directory=HERE,
        prog="python -m tools.claims_corpus.written",
        description=(__doc__ or "").split("\n", 1)[0],
    )


if __name__ == "__main__":
    main()
