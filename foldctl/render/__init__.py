"""Renderers: pure functions from plain data to output, one module per format.

Text renderers produce :data:`Line` values (styled segments) so that only the
terminal painter, :mod:`foldctl.render.terminal`, needs rich; piped text is
written plain by :mod:`foldctl.render.sink`.
"""

from __future__ import annotations

from enum import Enum


class OutputFormat(str, Enum):
    text = "text"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"
    tsv = "tsv"
    markdown = "markdown"


# A styled segment: (text, rich style name or None). A line has no newline.
Segment = tuple[str, str | None]
Line = list[Segment]
