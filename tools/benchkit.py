"""What every benchmark script shares: where the repository and its cache are, how to run
foldctl as a fresh process."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Final

REPO: Final = Path(__file__).resolve().parent.parent
CACHE: Final = REPO / ".bench-cache"
PY: Final = sys.executable
FOLDCTL: Final = [PY, "-m", "foldctl"]
