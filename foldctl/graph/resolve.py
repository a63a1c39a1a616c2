"""The fold graph: every frame joined to its span, every span placed.

A *container* is where messages sit: ``None`` for ``history``, or a span
index for that span's retained ``messages``.  Frames are found in every
container and joined to the first span in ``folded`` order whose
``summaryFingerprint`` equals the frame's fingerprint; for an input format that
links a summary to its originals by id or position (a Claude Code session, a Codex
rollout), the loader gives the join (:attr:`~foldctl.model.Checkpoint.links`) and it is
used as it is, fingerprints left aside.  Spans are then classified, without recursion on
the Python stack:

* **placed**: reachable from ``history`` through joined frames;
* **detached**: not reachable, and a later ``discard`` span swallowed an
  earlier summary (its ``removedStageIds`` name a ``compact#`` stage), so its
  frame most likely went with that span's discarded messages; or its frame
  sits inside a detached span;
* **orphan**: any other span not reachable: its frame is nowhere foldctl can
  see, or its fingerprint is shadowed by an earlier span's;
* **abandoned** / **sidechain**: a container that is no fold (a rewound branch, a
  subagent's records in its parent's file: :attr:`~foldctl.model.Span.kind`), and any
  span whose frame sits in one.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Final, Literal

import msgspec
from msgspec.structs import replace

from foldctl.fingerprint import DEFAULT_SCHEME, SCHEMES
from foldctl.formats import registry as formats
from foldctl.graph.locators import Container, message_locator
from foldctl.model import Checkpoint, Message, Span, frame_indices, repr_without

Placement = Literal["placed", "detached", "orphan", "abandoned", "sidechain"]
#: What a span that is no fold floats as, and why (for a linked format's containers).
_FLOATING_KINDS: Final[dict[str, tuple[Placement, str]]] = {
    "abandoned": (
        "abandoned",
        "records on disk that are in no fold's originals and not in the live window "
        "(a rewound branch)",
    ),
    "sidechain": (
        "sidechain",
        "a subagent's records in this file (isSidechain): a conversation of its own",
    ),
}


class FrameRef(msgspec.Struct, frozen=True):
    """A frame (``user`` message with the label) and the span it joins."""

    container: Container
    index: int
    fingerprint: str | None  # None when the format links frames to spans itself
    span: int | None  # the first span in ``folded`` order with this fingerprint


class SpanPlace(msgspec.Struct, frozen=True):
    """Where a span stands in the fold graph."""

    placement: Placement
    container: Container  # where its (first) frame sits; None for history or when floating
    frame_index: int | None  # index of that frame in its container
    depth: int  # 1 = its frame is in history; 0 when not placed
    reason: str  # why a span floats (empty when placed)


class FoldGraph(msgspec.Struct, frozen=True):
    checkpoint: Checkpoint
    scheme: str
    frames: dict[tuple[Container, int], FrameRef]
    by_fingerprint: dict[str, tuple[int, ...]]
    places: tuple[SpanPlace, ...]
    #: every placed location of a span's frame beyond the first (replayed copies)
    replays: dict[int, tuple[tuple[Container, int], ...]]
    #: the frames expand labels `cycle`: each joins a span that contains it, directly or nested
    cycles: frozenset[tuple[Container, int]]
    #: spans with no containing span among the floating ones, in ``folded`` order
    floating_roots: tuple[int, ...]
    #: each container's frames (the keys of :attr:`frames`), by index in order
    frame_indices: dict[Container, tuple[int, ...]]
    #: how frames joined spans: ``fingerprint`` (under :attr:`scheme`), or the format's own
    #: link (``uuid-chain``, ``position``; then :attr:`scheme` names it too)
    join: str = "fingerprint"
    #: in a redacted view (``foldctl.redact.apply``), the checkpoint as stored; None otherwise
    unredacted: Checkpoint | None = None

    __repr__ = repr_without("unredacted")

    @property
    def spans(self) -> tuple[Span, ...]:
        return self.checkpoint.spans

    @property
    def plain(self) -> FoldGraph:
        """The graph as joined: itself, or (in a redacted view) the same join over the
        checkpoint as stored.  The audit, the claims check and the fold filters read this
        one, so redaction never changes a finding, a verdict or a selection; only what
        is printed."""
        if self.unredacted is None:
            return self
        return replace(self, checkpoint=self.unredacted, unredacted=None)

    def container_messages(self, container: Container) -> Sequence[Message]:
        if container is None:
            return self.checkpoint.history
        return self.checkpoint.spans[container].messages or []

    def frame_at(self, container: Container, index: int) -> FrameRef | None:
        return self.frames.get((container, index))

    def ambiguous(self) -> dict[str, tuple[int, ...]]:
        return {fp: ids for fp, ids in self.by_fingerprint.items() if len(ids) > 1}

    def locator_of(self, container: Container, index: int) -> str:
        """The locator of a message in a container (``h12``, ``f3:5``)."""
        return message_locator(container, index)

    def frame_locator(self, span: int) -> str | None:
        """Where a placed span's frame sits, as a locator."""
        place = self.places[span]
        if place.placement != "placed" or place.frame_index is None:
            return None
        return self.locator_of(place.container, place.frame_index)


class FramePrints:
    """Every frame of a checkpoint and its fingerprint under each scheme asked for, each
    computed once: scheme detection and the join both ask, and ``fnv1a32`` is pure
    Python.  Only the fingerprints are kept, never the frames' text (decoded again when
    another scheme is asked for), so a checkpoint of 10,000 summaries holds 10,000 short
    strings here, not its summaries a second time."""

    def __init__(self, checkpoint: Checkpoint) -> None:
        self.checkpoint = checkpoint
        places: list[tuple[Container, int]] = [(None, i) for i in frame_indices(checkpoint.history)]
        for span in checkpoint.spans:
            if span.messages is not None:
                places += [(span.index, i) for i in frame_indices(span.messages)]
        self.places = places
        self._by_scheme: dict[str, dict[tuple[Container, int], str]] = {}

    def __len__(self) -> int:
        return len(self.places)

    def of(self, scheme: str) -> dict[tuple[Container, int], str]:
        """Each frame's fingerprint under ``scheme``, by where the frame is."""
        found = self._by_scheme.get(scheme)
        if found is None:
            fingerprint = SCHEMES[scheme]
            history = self.checkpoint.history
            spans = self.checkpoint.spans
            found = {}
            for container, i in self.places:
                messages = history if container is None else spans[container].messages
                assert messages is not None
                found[(container, i)] = fingerprint(messages[i]["content"])
            self._by_scheme[scheme] = found
        return found


def _scan_frames(
    prints: FramePrints, scheme: str, first: dict[str, int]
) -> dict[tuple[Container, int], FrameRef]:
    return {
        (container, i): FrameRef(container, i, fp, first.get(fp))
        for (container, i), fp in prints.of(scheme).items()
    }


def _find_cycles(
    places: list[SpanPlace | None], frames: dict[tuple[Container, int], FrameRef]
) -> frozenset[tuple[Container, int]]:
    """The frames that join a span containing them, directly or through nesting.

    These are exactly the frames ``expand`` labels ``cycle``: a frame closes a
    loop when the span it joins is its own container or an ancestor of it in
    the placement tree (history first, then each floating root).  The tree is
    numbered once (entry/exit order), so each test is O(1).
    """
    children: dict[int, list[int]] = {}
    roots: list[int] = []
    for index, place in enumerate(places):
        assert place is not None
        if place.frame_index is not None and place.container is not None:
            children.setdefault(place.container, []).append(index)
        else:
            roots.append(index)
    enter = [0] * len(places)
    leave = [0] * len(places)
    clock = 0
    for root in roots:
        stack: list[tuple[int, bool]] = [(root, False)]
        while stack:
            node, done = stack.pop()
            clock += 1
            if done:
                leave[node] = clock
                continue
            enter[node] = clock
            stack.append((node, True))
            stack.extend((child, False) for child in children.get(node, ()))
    return frozenset(
        key
        for key, ref in frames.items()
        if ref.span is not None
        and ref.container is not None
        and enter[ref.span] <= enter[ref.container]
        and leave[ref.container] <= leave[ref.span]
    )


def _swallowers(spans: tuple[Span, ...]) -> list[bool]:
    """For each span, whether a later ``discard`` fold could have swallowed its summary.

    Within a run, a fold that swallowed a summary names the ``compact#N`` stage
    that wrote it.  A continued run's first fold names ``seed#0``: the messages
    carried over from earlier runs, which hold the earlier runs' summaries.
    """
    result = [False] * len(spans)
    compact_later = False
    seed_runs: list[str | None] = []  # up to two distinct runs with a later seed-discard
    for span in reversed(spans):
        result[span.index] = compact_later or any(run != span.run_id for run in seed_runs)
        if span.retained == "discard":
            stages = span.removed_stage_ids or ()
            compact_later = compact_later or any(s.startswith("compact#") for s in stages)
            if any(s.startswith("seed#") for s in stages) and span.run_id not in seed_runs:
                seed_runs = [span.run_id, *seed_runs][:2]
    return result


def _spread(
    roots: list[int], places: list[SpanPlace | None], children: dict[Container, list[FrameRef]]
) -> None:
    """Spans whose frame sits inside a floating span float with it (breadth first)."""
    queue = deque(roots)
    while queue:
        container = queue.popleft()
        parent = places[container]
        assert parent is not None
        for ref in children.get(container, ()):
            target = ref.span
            assert target is not None
            if places[target] is None:
                places[target] = SpanPlace(
                    parent.placement,
                    container,
                    ref.index,
                    0,
                    f"its frame is inside span {container}, which is {parent.placement}",
                )
                queue.append(target)


def _linked_frames(checkpoint: Checkpoint) -> dict[tuple[Container, int], FrameRef]:
    """The frames a format links to spans itself, in container order (history first)."""
    links = checkpoint.links or {}
    count = len(checkpoint.spans)
    return {
        (container, index): FrameRef(container, index, None, span if 0 <= span < count else None)
        for (container, index), span in sorted(
            links.items(), key=lambda item: (item[0][0] is not None, item[0][0] or 0, item[0][1])
        )
    }


def resolve(
    checkpoint: Checkpoint, scheme: str = DEFAULT_SCHEME, prints: FramePrints | None = None
) -> FoldGraph:
    """Join every frame to its span and place every span. Linear in the checkpoint's size.
    ``prints`` holds fingerprints already computed (by :func:`detect_scheme`).  A checkpoint
    whose format gives its links is joined by them, whatever ``scheme`` says."""
    spans = checkpoint.spans
    by_fp: dict[str, list[int]] = {}
    join = "fingerprint"
    if checkpoint.links is not None:
        join = scheme = formats.get(checkpoint.format).join
        frames = _linked_frames(checkpoint)
        first: dict[str, int] = {}
    else:
        for span in spans:
            by_fp.setdefault(span.fingerprint or "", []).append(span.index)
        first = {fp: ids[0] for fp, ids in by_fp.items()}
        frames = _scan_frames(prints or FramePrints(checkpoint), scheme, first)

    children: dict[Container, list[FrameRef]] = {}
    for ref in frames.values():
        if ref.span is not None:
            children.setdefault(ref.container, []).append(ref)

    places: list[SpanPlace | None] = [None] * len(spans)
    replays: dict[int, list[tuple[Container, int]]] = {}
    queue: deque[tuple[Container, int]] = deque([(None, 0)])
    while queue:
        container, depth = queue.popleft()
        for ref in children.get(container, ()):
            target = ref.span
            assert target is not None
            if places[target] is None:
                places[target] = SpanPlace("placed", container, ref.index, depth + 1, "")
                queue.append((target, depth + 1))
            else:
                replays.setdefault(target, []).append((container, ref.index))

    # Floating spans: find which floating span holds each one's frame.
    holder: dict[int, int] = {}
    for ref in frames.values():
        target = ref.span
        if target is not None and places[target] is None and ref.container is not None:
            holder.setdefault(target, ref.container)
    swallowed = _swallowers(spans) if join == "fingerprint" else [False] * len(spans)

    roots: list[int] = []
    for span in spans:
        i = span.index
        if places[i] is not None or i in holder:
            continue
        roots.append(i)
        if span.kind in _FLOATING_KINDS:
            placement, why = _FLOATING_KINDS[span.kind]
            places[i] = SpanPlace(placement, None, None, 0, why)
        elif join != "fingerprint":
            places[i] = SpanPlace(
                "orphan", None, None, 0, "no summary record in this file stands for it"
            )
        elif first.get(span.fingerprint or "") != i:
            places[i] = SpanPlace(
                "orphan",
                None,
                None,
                0,
                f"its fingerprint joins span {first[span.fingerprint or '']} first, "
                "so no frame can reach it",
            )
        elif swallowed[i]:
            places[i] = SpanPlace(
                "detached",
                None,
                None,
                0,
                "its frame was swallowed by a later fold that discarded its messages",
            )
        else:
            places[i] = SpanPlace(
                "orphan", None, None, 0, "its frame is nowhere in this checkpoint"
            )

    _spread(roots, places, children)
    # What is left is held only by a loop of floating spans: make the first of each a root.
    for span in spans:
        if places[span.index] is None:
            roots.append(span.index)
            places[span.index] = SpanPlace(
                "orphan", None, None, 0, "its frame is reachable only through a fold cycle"
            )
            _spread([span.index], places, children)

    final_places = tuple(p for p in places if p is not None)
    assert len(final_places) == len(spans)
    by_container: dict[Container, list[int]] = {}
    for container, index in frames:
        by_container.setdefault(container, []).append(index)
    return FoldGraph(
        checkpoint=checkpoint,
        scheme=scheme,
        frames=frames,
        by_fingerprint={fp: tuple(ids) for fp, ids in by_fp.items()},
        places=final_places,
        replays={k: tuple(v) for k, v in replays.items()},
        cycles=_find_cycles(places, frames),
        floating_roots=tuple(roots),
        frame_indices={c: tuple(sorted(found)) for c, found in by_container.items()},
        join=join,
    )


def scheme_joins(checkpoint: Checkpoint, prints: FramePrints | None = None) -> dict[str, int]:
    """How many frames each scheme joins to some span (for detection and reporting)."""
    prints = prints or FramePrints(checkpoint)
    fingerprints = {span.fingerprint for span in checkpoint.spans}
    return {
        name: sum(1 for fp in prints.of(name).values() if fp in fingerprints) for name in SCHEMES
    }


def detect_scheme(checkpoint: Checkpoint, prints: FramePrints | None = None) -> tuple[str, str]:
    """The scheme that joins this checkpoint's frames, and how it was chosen.

    The reference scheme is tried first and kept when it joins every frame.
    Otherwise the scheme joining the most frames wins (ties go to the earlier
    scheme); when none joins any frame, the reference scheme is used and the
    note says so.  When frames join under more than one scheme the note
    starts with ``mixed:`` and gives each scheme's count.  ``prints`` keeps the
    fingerprints computed, for the join to reuse.
    """
    prints = prints or FramePrints(checkpoint)
    if not len(prints) or not checkpoint.spans:
        return DEFAULT_SCHEME, "no frames to join; reference scheme assumed"
    fingerprints = {span.fingerprint for span in checkpoint.spans}
    if all(fp in fingerprints for fp in prints.of(DEFAULT_SCHEME).values()):
        return DEFAULT_SCHEME, "detected: joins every frame"
    joins = scheme_joins(checkpoint, prints)
    best = max(joins, key=lambda name: joins[name])
    if joins[best] == 0:
        return DEFAULT_SCHEME, "no scheme joins any frame; reference scheme assumed"
    joining = [name for name, n in joins.items() if n]
    if len(joining) > 1:
        # Some frames join under one scheme, others under another: say so, pick none silently.
        counts = ", ".join(f"{name} joins {joins[name]}" for name in joining)
        return best, (
            f"mixed: {counts} of {len(prints)} frames; using {best} (the most), "
            "force one with --scheme"
        )
    return best, f"detected: joins {joins[best]} of {len(prints)} frames"
