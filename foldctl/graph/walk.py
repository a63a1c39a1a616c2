"""The conversation as it was before any fold.

``history`` with every frame that joins a span with retained messages
replaced by those messages, recursively — the reference expansion.  The walk
keeps its own stack (no recursion), so a chain of any depth expands; a frame
that joins a span already being expanded is a cycle and is kept, labelled.

The walk yields plain events: :class:`FoldStart` when it enters a span,
:class:`Row` for each message, :class:`FoldEnd` when it leaves.  Each event
knows its depth, its innermost and outermost span and its occurrence in O(1);
the full chain of spans is computed on demand from parent pointers, so text
output stays linear in a chain of any depth.

A replayed frame (the same summary twice in the window) places its span's
messages twice; the second and later placements carry ``occurrence`` 2, 3, …
and name the frame of the first placement, so no reader takes one record
message for two events.
"""

from __future__ import annotations

import itertools
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from typing import Final, Literal, NamedTuple

import msgspec

from foldctl import jsoncodec
from foldctl.errors import InputError, UsageError
from foldctl.graph.locators import (
    Container,
    DigestName,
    MessageName,
    Name,
    SpanName,
    message_locator,
    parse,
)
from foldctl.graph.resolve import FoldGraph, Placement
from foldctl.model import Message, Span, record_line

Resolution = Literal["expanded", "discarded", "unresolved", "cycle", "depth-limit"]
#: ``full``: every placement of a span shows its messages (the reference expansion);
#: ``ref``: a replayed placement is a reference to the first, without its messages.
Replays = Literal["full", "ref"]

#: The environment variable that sets the most messages one expansion may print.
MAX_EXPANSION_ENV: Final = "FOLDCTL_MAX_EXPANSION"
#: The environment variable that sets the most bytes of messages one expansion may print.
MAX_EXPANSION_BYTES_ENV: Final = "FOLDCTL_MAX_EXPANSION_BYTES"
#: Past this many times what the record holds (plus the slack), an expansion is refused.
EXPANSION_FACTOR: Final = 10
EXPANSION_SLACK_MESSAGES: Final = 1_000
EXPANSION_SLACK_BYTES: Final = 1 << 20


class ExpansionTooLarge(InputError):
    """Replayed frames would make the expansion far larger than the record it comes from."""

    remedy = "replays"  # a replay as a reference to the first placement


def _entered(graph: FoldGraph) -> dict[Container, list[int]]:
    """Container -> the spans its expandable frames enter (cycle frames left out)."""
    spans = graph.spans
    inner: dict[Container, list[int]] = {}
    for (container, index), ref in graph.frames.items():
        target = ref.span
        if target is None or spans[target].messages is None:
            continue
        if (container, index) in graph.cycles:
            continue
        inner.setdefault(container, []).append(target)
    return inner


def _totals(
    graph: FoldGraph, inner: dict[Container, list[int]], own: dict[int, int]
) -> dict[int, int]:
    """Span -> its ``own`` amount plus the totals of the spans its frames enter, each
    entry counted again (so a replay counts twice): post-order over the span DAG, without
    recursion."""
    totals: dict[int, int] = {}
    for root in range(len(graph.spans)):
        if root in totals:
            continue
        stack: list[tuple[int, bool]] = [(root, False)]
        while stack:
            node, done = stack.pop()
            if done:
                totals[node] = own[node] + sum(totals.get(k, 0) for k in inner.get(node, []))
                continue
            if node in totals:
                continue
            totals[node] = 0  # provisional: guards a loop the cycle frames did not cut
            stack.append((node, True))
            stack.extend((k, False) for k in inner.get(node, []) if k not in totals)
    return totals


def _transcript_total(
    graph: FoldGraph, inner: dict[Container, list[int]], totals: dict[int, int], history: int,
    floating: bool,
) -> int:  # fmt: skip
    top = inner.get(None, [])
    size = history + sum(totals[k] for k in top)
    if floating:
        size += sum(totals.get(root, 0) for root in graph.floating_roots)
    return size


def expansion_size(graph: FoldGraph, *, replays: Replays = "full", floating: bool = False) -> int:
    """How many messages the transcript from history holds (frames of expanded spans left
    out), and with ``floating`` the originals of the detached and orphan spans after it
    (:func:`walk_floating`), computed from the fold graph alone — without walking it, and
    without decoding a retained message.  Replays of replays multiply, in a floating span
    as in history; this is measured before printing."""
    spans = graph.spans
    inner = _entered(graph)
    if replays == "ref":  # each container once
        shown = {
            s.index
            for s, p in zip(spans, graph.places, strict=True)
            if floating or p.placement == "placed"
        }
        each = sum(len(graph.container_messages(c)) - len(inner.get(c, [])) for c in shown)
        return len(graph.checkpoint.history) - len(inner.get(None, [])) + each
    own = {s.index: len(s.messages or ()) - len(inner.get(s.index, [])) for s in spans}
    totals = _totals(graph, inner, own)
    history = len(graph.checkpoint.history) - len(inner.get(None, []))
    return _transcript_total(graph, inner, totals, history, floating)


def _stored_size(messages: Sequence[Message], index: int | None = None) -> int:
    """The bytes of JSON ``messages`` (or message ``index`` of them) hold as stored: read
    from the stored bytes when the loader kept them, else encoded again."""
    if index is not None:
        raw_json = getattr(messages, "raw_json", None)
        return len(raw_json(index) if raw_json else jsoncodec.dumps(messages[index]))
    sized = getattr(messages, "stored_size", None)
    if sized is not None:
        return int(sized())
    return sum(len(jsoncodec.dumps(m)) for m in messages)


def expansion_bytes(graph: FoldGraph, *, floating: bool = False) -> tuple[int, int] | None:
    """(bytes of messages the expansion with replays in full prints, bytes of messages the
    record holds), or None when no span is entered twice: then every message is printed
    at most once and the expansion is no larger than the record.  A message counts the
    bytes of its stored JSON (a frame its span replaces counts none), so one huge
    message replayed a hundred times counts a hundred times, which a count of messages
    does not see."""
    inner = _entered(graph)
    entries = [k for kids in inner.values() for k in kids]
    if len(entries) == len(set(entries)):
        return None
    replaced: dict[Container, int] = {}  # bytes of the frames a span's messages replace
    for (container, index), ref in graph.frames.items():
        if ref.span is None or graph.spans[ref.span].messages is None:
            continue
        if (container, index) in graph.cycles:
            continue
        messages = graph.container_messages(container)
        replaced[container] = replaced.get(container, 0) + _stored_size(messages, index)
    held = {s.index: _stored_size(s.messages or ()) for s in graph.spans}
    history = _stored_size(graph.checkpoint.history)
    own = {i: size - replaced.get(i, 0) for i, size in held.items()}
    totals = _totals(graph, inner, own)
    printed = _transcript_total(graph, inner, totals, history - replaced.get(None, 0), floating)
    return printed, history + sum(held.values())


def _env_limit(name: str) -> int | None:
    import os

    value = os.environ.get(name, "").replace("_", "").replace(",", "").strip()
    return int(value) if value.isdigit() else None


def expansion_limit(graph: FoldGraph) -> int:
    """The most messages one expansion may print: ten times the messages the record holds,
    plus 1,000 (or ``FOLDCTL_MAX_EXPANSION``): a record without replays expands to exactly
    the messages it holds, so only replays of replays come near it."""
    value = _env_limit(MAX_EXPANSION_ENV)
    if value is not None:
        return value
    stored = len(graph.checkpoint.history) + sum(len(s.messages or ()) for s in graph.spans)
    return EXPANSION_FACTOR * stored + EXPANSION_SLACK_MESSAGES


def _refusal(graph: FoldGraph, amount: str, bound: str, env: str) -> ExpansionTooLarge:
    return ExpansionTooLarge(
        graph.checkpoint.source,
        "",
        f"its expansion would print {amount} (replayed summaries place the same spans again "
        f"and again) but the limit is {bound}; print each replay as a reference to its first "
        f"placement, or raise the limit ({env})",
    )


def check_expansion(
    graph: FoldGraph,
    *,
    replays: Replays = "full",
    limit: int | None = None,
    floating: bool = False,
) -> None:
    """:class:`ExpansionTooLarge` when the expansion (with ``floating``, the detached and
    orphan spans' too) would print more messages than the limit, or more bytes of messages
    than ten times the record holds plus 1 MiB (``FOLDCTL_MAX_EXPANSION_BYTES``)."""
    bound = expansion_limit(graph) if limit is None else limit
    size = expansion_size(graph, replays=replays, floating=floating)
    if size > bound:
        raise _refusal(graph, f"{size:,} messages", f"{bound:,}", MAX_EXPANSION_ENV)
    if replays == "ref":
        return  # each container once: never more bytes than the record holds
    measured = expansion_bytes(graph, floating=floating)
    if measured is None:
        return
    printed, stored = measured
    byte_bound = _env_limit(MAX_EXPANSION_BYTES_ENV)
    if byte_bound is None:
        byte_bound = EXPANSION_FACTOR * stored + EXPANSION_SLACK_BYTES
    if printed > byte_bound:
        raise _refusal(
            graph, f"{printed:,} bytes of messages", f"{byte_bound:,}", MAX_EXPANSION_BYTES_ENV
        )


#: Every this many levels of nesting, a container keeps its chain (see Context.chain).
_CHAIN_STEP: Final = 64

#: The most spans a machine-format row's ``chain`` lists: deeper rows list the innermost
#: ones (``depth`` still gives the whole length), so rows stay linear in a chain of any
#: depth (docs/decisions.md, "Where a message sits").
CHAIN_FIELD_MAX: Final = 256


def chain_field(chain: Sequence[int]) -> list[int]:
    """``chain`` as JSON, JSONL and Parquet rows carry it: whole up to
    :data:`CHAIN_FIELD_MAX` spans, else its innermost :data:`CHAIN_FIELD_MAX`."""
    return list(chain[-CHAIN_FIELD_MAX:])


class Context:
    """One container entered by the walk: history, or a span reached through a frame."""

    __slots__ = (
        "_chain",
        "at",
        "depth",
        "occurrence",
        "outermost",
        "parent",
        "placement",
        "span",
    )

    def __init__(
        self,
        parent: Context | None,
        at: int | None,
        span: int | None,
        depth: int,
        placement: Placement = "placed",
        occurrence: int = 1,
    ) -> None:
        self.parent = parent  # the context holding the frame we came through
        self.at = at  # that frame's index in the parent
        self.span = span  # None = history
        self.depth = depth  # 0 = history; len(chain) otherwise
        self.placement = placement
        self.occurrence = occurrence  # which placement of this span's messages (1 = first)
        outer = parent.outermost if parent is not None else None
        self.outermost: int | None = outer if outer is not None else span
        self._chain: tuple[int, ...] | None = None
        if parent is not None and parent.depth % _CHAIN_STEP:
            parent._chain = None  # see chain(): only milestones and the current one keep one

    def chain(self) -> tuple[int, ...]:
        """Span indices entered to reach this container, outermost first.

        Kept once built, so the rows of a container share one tuple.  Every
        :data:`_CHAIN_STEP`-th level keeps its tuple while it is open, so a chain is
        built from the nearest such ancestor (a few steps and one tuple copy) rather than
        by walking a thousand parents; any other container drops its tuple when the
        walk enters a nested one, so a chain 10,000 deep holds about 150 tuples, not
        10,000 of growing length.
        """
        if self._chain is not None:
            return self._chain
        pending: list[Context] = []  # containers without a tuple, innermost first
        ctx: Context | None = self
        while ctx is not None and ctx._chain is None:
            pending.append(ctx)
            ctx = ctx.parent
        chain = ctx._chain if ctx is not None and ctx._chain is not None else ()
        added: list[int] = []  # spans entered since the last tuple was built
        for ctx in reversed(pending):
            if ctx.span is not None:
                added.append(ctx.span)
            if ctx is self or ctx.depth % _CHAIN_STEP == 0:
                chain = (*chain, *added)  # one copy per tuple kept, not one per level
                added.clear()
                ctx._chain = chain
        return chain

    @property
    def frame_locator(self) -> str | None:
        """Where the frame this container was entered through sits (None: history, or a
        floating span shown on its own)."""
        if self.parent is None or self.at is None:
            return None
        return message_locator(self.parent.span, self.at)


class FrameInfo(msgspec.Struct, frozen=True):
    fingerprint: str | None  # None when the format links frames to spans itself
    span: int | None
    resolution: Resolution


class Row(msgspec.Struct, frozen=True):
    message: Message
    context: Context
    index: int
    frame: FrameInfo | None = None  # set for a frame that is shown (kept, or --keep-frames)
    #: the message's 1-based line in its file (formats of one record a line; else None)
    line: int | None = None

    @property
    def locator(self) -> str:
        """The message's own short name (``h12``, ``f3:5``), the same at any depth."""
        return message_locator(self.context.span, self.index)

    @property
    def span(self) -> int | None:
        """The span whose messages hold this one (None: the live window)."""
        return self.context.span

    @property
    def depth(self) -> int:
        return self.context.depth

    @property
    def chain(self) -> tuple[int, ...]:
        """The spans entered to reach this message, outermost first."""
        return self.context.chain()

    @property
    def occurrence(self) -> int:
        """1 for the first placement of its span's messages, 2, 3, ... for replays."""
        return self.context.occurrence

    def __repr__(self) -> str:
        """What a reader needs of a row (its message is ``row.message``); a chain thousands
        of spans deep is shown by its ends."""
        chain = self.chain
        if len(chain) > _REPR_CHAIN:
            shown = f"({chain[0]}, {chain[1]}, ..., {chain[-2]}, {chain[-1]}: {len(chain)} spans)"
        else:
            shown = repr(chain)
        return (
            f"Row(locator={self.locator!r}, depth={self.depth}, chain={shown}, "
            f"span={self.span!r}, occurrence={self.occurrence}, "
            f"role={self.message.get('role')!r})"
        )


#: The longest chain a row's repr shows whole.
_REPR_CHAIN: Final = 8


class FoldStart(msgspec.Struct, frozen=True):
    span: Span
    context: Context
    reason: str = ""  # why it floats, for detached and orphan spans
    first_frame: str | None = None  # a replay: the frame locator of the first placement
    reference: bool = False  # a replay shown as a reference: no messages follow


class FoldEnd(msgspec.Struct, frozen=True):
    span: Span
    context: Context


Event = Row | FoldStart | FoldEnd


class _Shown(NamedTuple):
    """The placements of spans so far: how many, and the frame of the first."""

    placed: dict[int, int]
    first_frame: dict[int, str | None]


def walk(
    graph: FoldGraph,
    *,
    max_depth: int | None = None,
    keep_frames: bool = False,
    start: Context | None = None,
    reason: str = "",
    replays: Replays = "full",
    shown: _Shown | None = None,
    bodies: bool = True,
) -> Iterator[Event]:
    """Expand from ``start`` (default: history), yielding events in transcript order.

    ``max_depth`` counts folds below ``start``.  ``reason`` is told on the
    first :class:`FoldStart` (why a span shown on its own floats).  With
    ``replays="ref"`` a replayed placement is its :class:`FoldStart` and
    :class:`FoldEnd` only, a reference to the first placement.  ``shown`` carries
    the placements so far from one walk into the next (:func:`walk_floating`).
    With ``bodies=False`` a row that is not a frame carries an empty message, for a
    caller that reads the messages it needs itself (by span and index) and would
    rather not have every retained message decoded.
    """
    spans = graph.spans
    root = start or Context(None, None, None, 0)
    limit = None if max_depth is None else root.depth + max_depth
    # (container, its messages, their lines, the next index, how many, where its frames
    # are): an index, not an iterator, since an enumerate() keeps its last item, and a
    # chain 10,000 deep would keep 10,000 frames.  The lines are the records' lines in
    # their file (formats of a record a line).
    stack: list[
        tuple[Context, Sequence[Message], Sequence[int] | None, list[int], int, tuple[int, ...]]
    ] = []
    frame_indices = graph.frame_indices
    on_path: set[int] = set()
    placed, first_frame = shown if shown is not None else _Shown({}, {})

    def enter(ctx: Context, why: str = "") -> FoldStart | None:
        messages = graph.container_messages(ctx.span)
        marks = frame_indices.get(ctx.span, ())
        stack.append((ctx, messages, getattr(messages, "lines", None), [0], len(messages), marks))
        if ctx.span is None:
            return None
        on_path.add(ctx.span)
        count = placed.get(ctx.span, 0) + 1
        placed[ctx.span] = count
        ctx.occurrence = max(ctx.occurrence, count)
        if count == 1:
            first_frame[ctx.span] = ctx.frame_locator
            return FoldStart(spans[ctx.span], ctx, why)
        return FoldStart(spans[ctx.span], ctx, why, first_frame[ctx.span])

    opened = enter(root, reason)
    if opened is not None:
        yield opened
    while stack:
        ctx, messages, lines, cursor, count, marks = stack[-1]
        index = cursor[0]
        if index >= count:
            stack.pop()
            if ctx.span is not None:
                on_path.discard(ctx.span)
                yield FoldEnd(spans[ctx.span], ctx)
            continue
        # The rows before the container's next frame, one after another.
        after = bisect_left(marks, index)
        plain_end = marks[after] if after < len(marks) else count
        if index < plain_end:
            for plain in range(index, plain_end):
                cursor[0] = plain + 1
                line = None if lines is None else lines[plain]
                yield Row(messages[plain] if bodies else {}, ctx, plain, None, line)
            continue
        cursor[0] = index + 1
        ref = graph.frames[(ctx.span, index)]
        line = None if lines is None else lines[index]
        message = messages[index]
        target = ref.span
        resolution: Resolution
        if target is None:
            resolution = "unresolved"
        elif spans[target].messages is None:
            resolution = "discarded"
        elif target in on_path:
            resolution = "cycle"
        elif limit is not None and ctx.depth >= limit:
            resolution = "depth-limit"
        else:
            if keep_frames:
                info = FrameInfo(ref.fingerprint, target, "expanded")
                yield Row(message, ctx, index, info, line)
            child = Context(ctx, index, target, ctx.depth + 1, ctx.placement)
            if replays == "ref" and target in placed:
                placed[target] += 1
                child.occurrence = placed[target]
                yield FoldStart(spans[target], child, "", first_frame[target], reference=True)
                yield FoldEnd(spans[target], child)
                continue
            opened = enter(child)
            # No local may keep the child once it is entered: after it ends, a reference
            # here would keep it alive, and through it every context below it and its chain.
            del child
            assert opened is not None
            yield opened
            opened = None
            continue
        yield Row(message, ctx, index, FrameInfo(ref.fingerprint, target, resolution), line)


def walk_floating(
    graph: FoldGraph,
    *,
    max_depth: int | None = None,
    keep_frames: bool = False,
    replays: Replays = "full",
    bodies: bool = True,
) -> Iterator[Event]:
    """The originals of detached and orphan spans, each root with the spans nested in it.

    With ``replays="ref"`` each span is shown once in all: a span the expansion from
    history shows (placed), or one an earlier floating root showed, is a reference here.
    ``bodies`` is :func:`walk`'s.
    """
    shown: _Shown | None = None
    if replays == "ref":
        shown = _Shown({}, {})
        for span, place in enumerate(graph.places):
            if place.placement == "placed" and place.frame_index is not None:
                shown.placed[span] = 1
                shown.first_frame[span] = message_locator(place.container, place.frame_index)
    for index in graph.floating_roots:
        place = graph.places[index]
        ctx = Context(None, None, index, 1, place.placement)
        yield from walk(
            graph,
            max_depth=max_depth,
            keep_frames=keep_frames,
            start=ctx,
            reason=place.reason,
            replays=replays,
            shown=shown,
            bodies=bodies,
        )


# --------------------------------------------------------------------------- one name


def context_of(graph: FoldGraph, container: Container) -> Context:
    """The context of a container at its first placement: history, a placed span reached
    from history, or a floating span under its floating root."""
    if container is None:
        return Context(None, None, None, 0)
    steps: list[tuple[int, int | None]] = []  # (span, frame index in its holder), inward
    seen: set[int] = set()
    current: Container = container
    holder: Container = None
    while current is not None and current not in seen:
        seen.add(current)
        place = graph.places[current]
        steps.append((current, place.frame_index))
        if place.frame_index is None:
            holder = None
            break
        holder = place.container
        current = holder
    steps.reverse()
    outermost_span, outermost_at = steps[0]
    placement = graph.places[container].placement
    if outermost_at is None:  # a floating root
        ctx = Context(None, None, outermost_span, 1, placement)
    else:
        ctx = Context(Context(None, None, None, 0), outermost_at, outermost_span, 1, placement)
    for span, at in steps[1:]:
        ctx = Context(ctx, at, span, ctx.depth + 1, placement)
    return ctx


def _check_index(graph: FoldGraph, text: str, container: Container, index: int) -> None:
    if container is not None and container >= len(graph.spans):
        raise UsageError(
            f"locator {text!r}: there is no span {container} (folded has {len(graph.spans)})"
        )
    messages = graph.container_messages(container)
    if index >= len(messages):
        where = "history" if container is None else f"span {container}'s messages"
        raise UsageError(f"locator {text!r}: {where} has {len(messages)} messages, no {index}")


def _check_path(graph: FoldGraph, text: str, name: MessageName) -> None:
    """Each step of a path form must be a frame that joins the next step's span."""
    steps = [*name.path, (name.container, name.index)]
    for (container, index), (nxt, _) in itertools.pairwise(steps):
        _check_index(graph, text, container, index)
        ref = graph.frame_at(container, index)
        here = message_locator(container, index)
        if ref is None or ref.span is None:
            raise UsageError(f"locator {text!r}: {here} is not a frame that joins a span")
        if ref.span != nxt:
            raise UsageError(f"locator {text!r}: {here} joins span {ref.span}, not span {nxt}")


def resolve_name(graph: FoldGraph, text: str) -> Name:
    """Read ``text`` (a locator, a span ``fN`` or a digest) and check the record has it; a
    digest becomes the locator of its first occurrence."""
    name = parse(text)
    if isinstance(name, DigestName):
        from foldctl.digest import digest

        for row in every_row(graph):
            if digest(row.message) == name.digest:
                return MessageName(row.context.span, row.index)
        raise UsageError(f"no message with digest {name.digest} in {graph.checkpoint.source}")
    if isinstance(name, SpanName):
        if name.span >= len(graph.spans):
            raise UsageError(
                f"{text!r}: there is no span {name.span} (folded has {len(graph.spans)})"
            )
        return name
    _check_path(graph, text, name)
    _check_index(graph, text, name.container, name.index)
    return name


def walk_name(
    graph: FoldGraph,
    text: str,
    *,
    max_depth: int | None = None,
    keep_frames: bool = False,
    replays: Replays = "full",
) -> Iterator[Event]:
    """What ``expand --only`` prints for one name.

    A message: that message, or for a frame that joins a span with retained
    messages, the frame's expansion (the frame first with ``keep_frames``).  A
    span ``fN``: its messages, expanded, whether it is placed, detached or
    orphan (saying why it floats).  A digest: the message's first occurrence.
    """
    name = resolve_name(graph, text)
    # ``max_depth`` counts the folds opened from the name, its own first: the span it
    # names, or the one its frame joins (``--depth 1`` opens one level, as from the top).
    below = None if max_depth is None else max(max_depth - 1, 0)
    if isinstance(name, SpanName):
        ctx = context_of(graph, name.span)
        if graph.spans[name.span].messages is None:
            raise UsageError(f"{text!r}: span {name.span} kept no messages (retained: discard)")
        yield from walk(
            graph,
            max_depth=below,
            keep_frames=keep_frames,
            start=ctx,
            reason=graph.places[name.span].reason,
            replays=replays,
        )
        return
    assert isinstance(name, MessageName)
    ctx = context_of(graph, name.container)
    messages = graph.container_messages(name.container)
    message = messages[name.index]
    line = record_line(messages, name.index)
    ref = graph.frame_at(name.container, name.index)
    if ref is None:
        yield Row(message, ctx, name.index, None, line)
        return
    if ref.span is None or graph.spans[ref.span].messages is None or max_depth == 0:
        resolution: Resolution = (
            "unresolved"
            if ref.span is None
            else "discarded"
            if graph.spans[ref.span].messages is None
            else "depth-limit"
        )
        info = FrameInfo(ref.fingerprint, ref.span, resolution)
        yield Row(message, ctx, name.index, info, line)
        return
    if keep_frames:
        info = FrameInfo(ref.fingerprint, ref.span, "expanded")
        yield Row(message, ctx, name.index, info, line)
    child = Context(ctx, name.index, ref.span, ctx.depth + 1, ctx.placement)
    yield from walk(graph, max_depth=below, keep_frames=keep_frames, start=child, replays=replays)


def every_row(graph: FoldGraph, *, replays: Replays = "full", bodies: bool = True) -> Iterator[Row]:
    """Every message foldctl can see, each place it occurs, with its locator.

    The expansion from history with frames kept (so summaries are rows too),
    then the floating (detached and orphan) spans with what nests in them.  With
    ``replays="full"`` the expansion's size is checked first
    (:func:`check_expansion`).  ``bodies`` is :func:`walk`'s.
    """
    if replays == "full":
        check_expansion(graph, floating=True)
    streams = (
        walk(graph, keep_frames=True, replays=replays, bodies=bodies),
        walk_floating(graph, keep_frames=True, replays=replays, bodies=bodies),
    )
    for stream in streams:
        for event in stream:
            if isinstance(event, Row):
                yield event
