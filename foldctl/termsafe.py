"""Untrusted text stays text: make message content safe to put on a terminal.

Content is model and tool output.  Before it reaches a terminal (or a text or
markdown document), every character that could act instead of print is
rewritten as a visible escape: C0 controls except tab and newline, DEL, C1
controls, the Unicode line and paragraph separators, bidirectional
formatting characters, and lone surrogates (which no terminal can print).
Escapes use Python's notation: ``\\x1b``, ``\\x9b``, ``\\u202e``, ``\\udc00``.
Rich markup needs no escaping here because foldctl never lets rich parse
content (it is always wrapped in ``rich.text.Text``).
"""

from __future__ import annotations

import re
from typing import Final

#: The characters :func:`visible` rewrites, as the inside of a regular-expression class.
UNSAFE_CLASS: Final = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
    "\ud800-\udfff"
)
_UNSAFE: Final = re.compile(f"[{UNSAFE_CLASS}]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with every control, bidi override and lone surrogate shown as an escape."""
    return _UNSAFE.sub(_escape, text)


def one_line(text: str) -> str:
    """``text`` made visible with its line breaks escaped too (``\\n``), so a quoted value
    can never start a second line of an error message.  Idempotent."""
    return visible(text).replace("\n", "\\n")
