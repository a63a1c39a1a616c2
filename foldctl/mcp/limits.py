"""The byte budget of an answer: the default, and the least one may ask for (light, so
the command line's help can name them without loading the server)."""

from __future__ import annotations

from typing import Final

#: The default byte budget of an answer, and the least one may ask for.
DEFAULT_BYTES: Final = 32 * 1024
MIN_BYTES: Final = 4 * 1024
