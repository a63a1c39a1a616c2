"""``expand``'s answer: the walk events of the transcript, chosen by the options."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from foldctl.formats import registry as formats
from foldctl.formats.base import identity
from foldctl.graph.filters import NO_FILTER, FoldFilter, filter_events
from foldctl.graph.resolve import FoldGraph
from foldctl.graph.walk import (
    Event,
    FoldStart,
    Replays,
    Row,
    check_expansion,
    walk,
    walk_floating,
    walk_name,
)
from foldctl.model import Message, repr_without
from foldctl.query.records import message_lines, message_object
from foldctl.times import iso_recorded

if TYPE_CHECKING:
    from foldctl.claims.record import SummaryFinding


class Transcript(msgspec.Struct, frozen=True):
    """The expanded transcript as walk events, and its rows as message objects; the
    summary that stands for each fold, and (when the claims were checked) what the check
    found in each summary, for the formats that show them before the originals."""

    events: Iterable[Event]
    #: what a transcript's header says: source, run, checkpoint time and counts
    facts: dict[str, Any] | None = None
    graph: FoldGraph | None = None
    #: the claims findings, or None when the summaries were not checked
    claims: Sequence[SummaryFinding] | None = None
    _by_span: dict[int, list[SummaryFinding]] = msgspec.field(default_factory=dict)
    _by_frame: dict[str, list[SummaryFinding]] = msgspec.field(default_factory=dict)

    __repr__ = repr_without("graph", "claims", "_by_span", "_by_frame")

    def __post_init__(self) -> None:
        for f in self.claims or ():
            if f.finding.atom_kind == "summary" or f.span is None:  # a whole summary, unread
                self._by_frame.setdefault(f.frame, []).append(f)
            else:
                self._by_span.setdefault(f.span, []).append(f)

    def summary(self, fold: FoldStart) -> Message | None:
        """The summary frame the walk came through to open ``fold`` (None for a floating
        span shown on its own, which no frame reaches)."""
        ctx = fold.context
        if self.graph is None or ctx.parent is None or ctx.at is None:
            return None
        return self.graph.container_messages(ctx.parent.span)[ctx.at]

    def span_claims(self, span: int) -> list[SummaryFinding]:
        """What the claims check found in the summary of ``span`` (checked against its
        originals)."""
        return self._by_span.get(span, [])

    def frame_claims(self, row: Row) -> list[SummaryFinding]:
        """What the claims check says of a summary frame shown as a row: a frame that
        opens nothing here (discarded, unresolved, a cycle, the depth limit)."""
        if row.frame is None:
            return []
        if row.frame.resolution in ("discarded", "unresolved") or row.frame.span is None:
            return self._by_frame.get(row.locator, [])
        return self._by_span.get(row.frame.span, [])

    @property
    def view(self) -> Callable[[Message], Message]:
        """How the checkpoint's format shows a message (text, markdown):
        :mod:`foldctl.formats`; the message itself when no graph is kept."""
        return identity if self.graph is None else formats.view_of(self.graph.checkpoint)

    def records(self) -> Iterator[dict[str, Any]]:
        for event in self.events:
            if isinstance(event, Row):
                yield message_object(event)

    def jsonl_lines(self) -> Iterator[bytes]:
        """The JSONL lines of :meth:`records`, written without building each object."""
        return message_lines(self.events)

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
    replays: Replays = "ref",
    claims: Sequence[SummaryFinding] | None = None,
) -> Transcript:
    """The transcript ``expand`` prints: all of it, or what ``only`` names (a message, a
    span ``fN`` or a digest; see :func:`foldctl.graph.walk.walk_name`), at most ``depth``
    levels of folds, frames kept or not, then (``include_detached``) the originals of
    detached and orphan spans; with ``folds``, only the folds that pass it
    (:mod:`foldctl.graph.filters`).  ``replays="ref"`` prints a replayed placement as a
    reference to the first; with ``"full"`` the expansion's size is checked first
    (:func:`foldctl.graph.walk.check_expansion`).  ``claims`` are the findings of the
    summaries checked against their originals, for the formats that show them."""
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
        events = filter_events(events, folds, graph.spans)
    return Transcript(events, transcript_facts(graph), graph, claims)


def transcript_facts(graph: FoldGraph) -> dict[str, Any]:
    """Source, run, checkpoint time and counts: what makes a pasted transcript stand alone.
    The counts are of folds, as ``show``'s are: records in no fold (a rewound branch, a
    sidechain) are not folds."""
    cp = graph.checkpoint
    spans = [s for s in graph.spans if s.kind == "fold"]
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
