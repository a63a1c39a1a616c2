"""Renderers: pure functions from plain result objects to output, one module per format.

:mod:`foldctl.render.registry` says which formats each command writes and which
function renders each pair.  Text renderers produce :data:`Line` values (styled
segments) so that only the terminal painter, :mod:`foldctl.render.terminal`,
needs rich; piped text is written plain by :mod:`foldctl.render.sink`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import Enum
from typing import Any, BinaryIO, Protocol

import msgspec


class OutputFormat(str, Enum):
    text = "text"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"
    tsv = "tsv"
    markdown = "markdown"
    html = "html"


# A styled segment: (text, rich style name or None). A line has no newline.
Segment = tuple[str, str | None]
Line = list[Segment]

#: The style of a line's last segment when that segment is a block of many lines (a
#: message's content): each of its lines is printed after the segments before it, as if
#: each were a line of its own.  The writer handles a block in one piece, so a message
#: of three million lines costs a few passes over its text, not three million lines'
#: worth of per-line work.
BLOCK = "block"


class Output(msgspec.Struct, frozen=True):
    """Where a renderer writes, and how: ``color`` means a terminal that takes colour
    and Unicode box drawing; otherwise plain ASCII separators."""

    out: BinaryIO
    color: bool = False
    terminal: bool = False  # a person reads it: JSON is indented, as jq and gh do
    #: the terminal's width in columns: text lines longer than it are wrapped, the tree
    #: drawn again on each continuation (None: not a terminal, nothing wrapped)
    width: int | None = None


class Documented(Protocol):
    """A result with one JSON document (``--format json``)."""

    def document(self) -> Any: ...


class Recorded(Protocol):
    """A result with one JSON object per row or message (``--format jsonl``)."""

    def records(self) -> Iterable[Any]: ...


class Tabular(Protocol):
    """A result with rows and named columns (CSV, TSV, a text table); ``text`` picks the
    columns a text table shows."""

    def table(self, text: bool = False) -> tuple[Iterable[dict[str, Any]], Sequence[str]]: ...
