"""What every benchmark script shares: where the repository and its cache are, how to run
foldctl as a fresh process, how a generated file of any size is written."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Final

REPO: Final = Path(__file__).resolve().parent.parent
CACHE: Final = REPO / ".bench-cache"
PY: Final = sys.executable
FOLDCTL: Final = [PY, "-m", "foldctl"]


def write_chunks(path: str | Path, chunks: Iterable[bytes]) -> int:
    """Write ``chunks`` to ``path`` as they come (a generated file of any size, without
    holding it); the number of bytes written."""
    total = 0
    with open(path, "wb") as out:
        for chunk in chunks:
            out.write(chunk)
            total += len(chunk)
    return total
