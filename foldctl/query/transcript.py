"""``expand``'s answer: the walk events of the transcript, chosen by the options."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from foldctl.formats import registry as formats
from foldctl.formats.base import identity
from foldctl.graph.resolve import FoldGraph
from foldctl.graph.walk import (
    Event,
    Replays,
    Row,
    check_expansion,
    walk,
    walk_floating,
    walk_name,
)
from foldctl.model import Message
from foldctl.query.filters import NO_FILTER, FoldFilter
from foldctl.query.records import message_object
from foldctl.times import iso_recorded


@dataclass(frozen=True, slots=True)
class Transcript:
    """The expanded transcript as walk events, and its rows as message objects."""

    events: Iterable[Event]
    #: what a transcript's header says: source, run, checkpoint time and counts
    facts: dict[str, Any] | None = None
    #: how the checkpoint's format shows a message (text, markdown): :mod:`foldctl.formats`
    view: Callable[[Message], Message] = identity

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
    folds: FoldFilter = NO_FILTER,
    replays: Replays = "full",
) -> Transcript:
    """The transcript ``expand`` prints: all of it, or what ``only`` names (a message, a
    span ``fN`` or a digest; see :func:`foldctl.graph.walk.walk_name`), at most ``depth``
    levels of folds, frames kept or not, then (``include_detached``) the originals of
    detached and orphan spans; with ``folds``, only the folds that pass it
    (:mod:`foldctl.query.filters`).  ``replays="ref"`` prints a replayed placement as a
    reference to the first; with ``"full"`` the expansion's size is checked first
    (:func:`foldctl.graph.walk.check_expansion`)."""
    if replays == "full":
        check_expansion(graph, floating=include_detached)
    events: Iterator[Event]
    if only is not None:
        events = walk_name(graph, only, max_depth=depth, keep_frames=keep_frames, replays=replays)
    else:
        events = walk(graph, max_depth=depth, keep_frames=keep_frames, replays=replays)
    if include_detached:
        floating = walk_floating(graph, max_depth=depth, keep_frames=keep_frames, replays=replays)
        events = itertools.chain(events, floating)
    if folds.active:
        events = _filtered(events, folds, graph)
    return Transcript(events, transcript_facts(graph), formats.view_of(graph.checkpoint))


def transcript_facts(graph: FoldGraph) -> dict[str, Any]:
    """Source, run, checkpoint time and counts: what makes a pasted transcript stand alone."""
    cp = graph.checkpoint
    spans = graph.spans
    return {
        "source": cp.source,
        "shape": cp.shape,
        "runId": cp.run_id,
        "checkpointedAt": iso_recorded(cp.checkpointed_at),
        "liveMessages": len(cp.history),
        "spans": len(spans),
        "retained": sum(1 for s in spans if s.retained == "conversation"),
        "discarded": sum(1 for s in spans if s.retained == "discard"),
        "foldedMessages": sum(len(s.messages or ()) for s in spans),
        "maxDepth": max((p.depth for p in graph.places), default=0),
    }


def _filtered(events: Iterator[Event], folds: FoldFilter, graph: FoldGraph) -> Iterator[Event]:
    """The events of the folds that pass: their boundaries and their messages."""
    last: object = None
    passes = False
    for event in events:
        if event.context is not last:
            last = event.context
            passes = folds.context_passes(event.context, graph.spans)
        if passes:
            yield event
