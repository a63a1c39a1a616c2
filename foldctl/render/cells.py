"""Text as a terminal lays it out: display width, truncation with an ellipsis, padding.

East-Asian wide and full-width characters take two columns, combining marks and
zero-width characters none, so table columns stay aligned whatever the script.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

ELLIPSIS = "…"


@lru_cache(maxsize=4096)
def _char_width(char: str) -> int:
    if unicodedata.combining(char) or char in "\u200b\u200c\u200d\u2060\ufeff":
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def width(text: str) -> int:
    """Columns ``text`` takes on a terminal."""
    if text.isascii():
        return len(text)
    return sum(_char_width(c) for c in text)


def truncate(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` columns, ending in an ellipsis when cut."""
    if limit <= 0:
        return ""
    if len(text) <= limit and width(text) <= limit:
        return text
    out: list[str] = []
    used = 0
    for char in text:
        w = _char_width(char)
        if used + w > limit - 1:
            break
        out.append(char)
        used += w
    return "".join(out) + ELLIPSIS


def pad(text: str, columns: int) -> str:
    """``text`` padded with spaces to ``columns`` display columns."""
    return text + " " * max(0, columns - width(text))


def brief(items: list[str], shown: int = 3) -> str:
    """A long list as its count and its first few: ``222: a, b, c, … (219 more)``."""
    if len(items) <= shown + 1:
        return ", ".join(items)
    return f"{', '.join(items[:shown])}, … ({len(items) - shown} more)"


def fit(text: str, start: int, columns: int) -> int:
    """The end of the longest piece of ``text`` from ``start`` that takes at most
    ``columns`` columns (one character at least, so a piece always moves on)."""
    end = min(len(text), start + columns)
    if text[start:end].isascii():
        return max(end, start + 1)
    used = 0
    for n in range(start, len(text)):
        used += _char_width(text[n])
        if used > columns:
            return max(n, start + 1)
    return len(text)
