"""Where a message is: every place foldctl can see it, and the digest that names it.

Every message foldctl can see is visited: the live window, the retained
originals of every fold at any depth (the expansion with frames kept, so the
summaries themselves are visited too), then the originals of detached and
orphan spans.  A message reached in more than one place (a replayed frame
expands its span twice) is found at each place, with each locator.
"""

from __future__ import annotations

from typing import Any, Final, Literal

from foldctl.digest import PREFIX, digest, is_digest
from foldctl.errors import UsageError
from foldctl.graph.resolve import FoldGraph
from foldctl.graph.walk import Row, every_row
from foldctl.query.records import Table, message_object

Where = Literal["live", "folded", "detached", "orphan"]


def where(row: Row) -> Where:
    """Where a message lives: the live window, a placed fold, or a floating span."""
    if row.span is None:
        return "live"
    placement = row.context.placement
    return "folded" if placement == "placed" else placement


def normalise_digest(text: str) -> str:
    """A digest as typed (any case) in its canonical form, or :class:`UsageError`."""
    value = text.strip().lower()
    if not is_digest(value):
        raise UsageError(
            f"{text!r} is not a message digest; expected {PREFIX} followed by 32 hex digits "
            "(the `digest` key of foldctl's JSON output)"
        )
    return value


def locate(graph: FoldGraph, wanted: str) -> list[Row]:
    """Every place a message with this digest occurs, live or folded, at any depth."""
    wanted = normalise_digest(wanted)
    return [row for row in every_row(graph) if digest(row.message) == wanted]


def locate_object(row: Row, source: str) -> dict[str, Any]:
    """A ``locate`` row: the message object plus ``where``."""
    obj = message_object(row, source=source)
    obj["where"] = where(row)
    return obj


LOCATE_COLUMNS: Final = ("source", "locator", "where", "span", "depth", "role", "digest")


def locate_table(graph: FoldGraph, wanted: str) -> Table:
    """``locate``'s answer: one row per place the digest occurs."""
    source = graph.checkpoint.source
    return Table([locate_object(row, source) for row in locate(graph, wanted)], LOCATE_COLUMNS)
