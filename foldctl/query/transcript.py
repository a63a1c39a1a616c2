"""``expand``'s answer: the walk events of the transcript, chosen by the options."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from foldctl.digest import PREFIX
from foldctl.graph.resolve import FoldGraph
from foldctl.graph.walk import Event, Row, walk, walk_floating, walk_one
from foldctl.query.locate import locator_for_digest
from foldctl.query.records import message_object


@dataclass(frozen=True, slots=True)
class Transcript:
    """The expanded transcript as walk events, and its rows as message objects."""

    events: Iterable[Event]

    def records(self) -> Iterator[dict[str, Any]]:
        for event in self.events:
            if isinstance(event, Row):
                yield message_object(event)

    def document(self) -> list[dict[str, Any]]:
        return list(self.records())


def transcript(
    graph: FoldGraph,
    *,
    depth: int | None = None,
    only: str | None = None,
    keep_frames: bool = False,
    include_detached: bool = False,
) -> Transcript:
    """The transcript ``expand`` prints: all of it, or the one summary ``only`` names (a
    locator or a digest), at most ``depth`` levels of folds, frames kept or not, then
    (``include_detached``) the originals of detached and orphan spans."""
    events: Iterator[Event]
    if only is not None:
        if only.startswith(PREFIX):
            only = locator_for_digest(graph, only)
        events = walk_one(graph, only, max_depth=depth, keep_frames=keep_frames)
    else:
        events = walk(graph, max_depth=depth, keep_frames=keep_frames)
    if include_detached:
        floating = walk_floating(graph, max_depth=depth, keep_frames=keep_frames)
        events = itertools.chain(events, floating)
    return Transcript(events)
