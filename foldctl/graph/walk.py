"""The conversation as it was before any fold.

``history`` with every frame that joins a span with retained messages
replaced by those messages, recursively — the reference expansion.  The walk
keeps its own stack (no recursion), so a chain of any depth expands; a frame
that joins a span already being expanded is a cycle and is kept, labelled.

The walk yields plain events: :class:`FoldStart` when it enters a span,
:class:`Row` for each message, :class:`FoldEnd` when it leaves.  Locators and
span chains are computed on demand from a parent pointer, so the walk is
linear even when the locators themselves are long.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from foldctl.errors import UsageError
from foldctl.graph.resolve import Container, FoldGraph, Placement
from foldctl.model import Message, Span

Resolution = Literal["expanded", "discarded", "unresolved", "cycle", "depth-limit"]


class Context:
    """One container entered by the walk: history, or a span reached through a frame."""

    __slots__ = ("_prefix", "at", "depth", "parent", "placement", "span")

    def __init__(
        self,
        parent: Context | None,
        at: int | None,
        span: int | None,
        depth: int,
        placement: Placement = "placed",
    ) -> None:
        self.parent = parent  # the context holding the frame we came through
        self.at = at  # that frame's index in the parent
        self.span = span  # None = history
        self.depth = depth  # 0 = history (or a floating root's parent)
        self.placement = placement
        self._prefix: str | None = None

    def prefix(self) -> str:
        """Locator prefix for messages in this container (``h``, ``h2>f4:``, ``f3:``).

        Built from the nearest ancestor that already knows its prefix, so a
        deep chain costs one step per container, not one walk per container.
        """
        pending: list[Context] = []
        ctx: Context | None = self
        while ctx is not None and ctx._prefix is None:
            pending.append(ctx)
            ctx = ctx.parent
        prefix = "" if ctx is None else ctx._prefix or ""
        for node in reversed(pending):
            if node.span is None:
                prefix = "h"
            elif node.parent is None:
                prefix = f"f{node.span}:"
            else:
                prefix = f"{prefix}{node.at}>f{node.span}:"
            node._prefix = prefix
        assert self._prefix is not None
        return self._prefix

    def chain(self) -> tuple[int, ...]:
        """Span indices entered to reach this container, outermost first."""
        spans: list[int] = []
        ctx: Context | None = self
        while ctx is not None:
            if ctx.span is not None:
                spans.append(ctx.span)
            ctx = ctx.parent
        return tuple(reversed(spans))


@dataclass(frozen=True, slots=True)
class FrameInfo:
    fingerprint: str
    span: int | None
    resolution: Resolution


@dataclass(frozen=True, slots=True)
class Row:
    message: Message
    context: Context
    index: int
    frame: FrameInfo | None = None  # set for a frame that is shown (kept, or --keep-frames)

    @property
    def locator(self) -> str:
        return f"{self.context.prefix()}{self.index}"

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


@dataclass(frozen=True, slots=True)
class FoldStart:
    span: Span
    context: Context
    reason: str = ""  # why it floats, for detached and orphan spans


@dataclass(frozen=True, slots=True)
class FoldEnd:
    span: Span
    context: Context


Event = Row | FoldStart | FoldEnd


def walk(
    graph: FoldGraph,
    *,
    max_depth: int | None = None,
    keep_frames: bool = False,
    start: Context | None = None,
) -> Iterator[Event]:
    """Expand from ``start`` (default: history), yielding events in transcript order."""
    spans = graph.spans
    root = start or Context(None, None, None, 0)
    stack: list[tuple[Context, Iterator[tuple[int, Message]]]] = []
    on_path: set[int] = set()

    def enter(ctx: Context) -> FoldStart | None:
        stack.append((ctx, enumerate(graph.container_messages(ctx.span))))
        if ctx.span is None:
            return None
        on_path.add(ctx.span)
        return FoldStart(spans[ctx.span], ctx)

    opened = enter(root)
    if opened is not None:
        yield opened
    while stack:
        ctx, items = stack[-1]
        item = next(items, None)
        if item is None:
            stack.pop()
            if ctx.span is not None:
                on_path.discard(ctx.span)
                yield FoldEnd(spans[ctx.span], ctx)
            continue
        index, message = item
        ref = graph.frame_at(ctx.span, index)
        if ref is None:
            yield Row(message, ctx, index)
            continue
        target = ref.span
        resolution: Resolution
        if target is None:
            resolution = "unresolved"
        elif spans[target].messages is None:
            resolution = "discarded"
        elif target in on_path:
            resolution = "cycle"
        elif max_depth is not None and ctx.depth >= max_depth:
            resolution = "depth-limit"
        else:
            if keep_frames:
                yield Row(message, ctx, index, FrameInfo(ref.fingerprint, target, "expanded"))
            opened = enter(Context(ctx, index, target, ctx.depth + 1, ctx.placement))
            assert opened is not None
            yield opened
            continue
        yield Row(message, ctx, index, FrameInfo(ref.fingerprint, target, resolution))


def walk_floating(
    graph: FoldGraph, *, max_depth: int | None = None, keep_frames: bool = False
) -> Iterator[Event]:
    """The originals of detached and orphan spans, each root with the spans nested in it."""
    for index in graph.floating_roots:
        place = graph.places[index]
        ctx = Context(None, None, index, 1, place.placement)
        for event in walk(graph, max_depth=max_depth, keep_frames=keep_frames, start=ctx):
            if isinstance(event, FoldStart) and event.context is ctx:
                yield FoldStart(event.span, ctx, place.reason)
            else:
                yield event


_STEP = re.compile(r"(?:h|f(\d+):)(\d+)")


def parse_locator(graph: FoldGraph, locator: str) -> tuple[Context, int]:
    """Resolve a locator to (the context of its container, the message index).

    Every step of a path must be a frame that joins the next span, so a
    locator cannot name a message the join does not lead to.
    """
    steps = locator.split(">")
    ctx: Context | None = None
    parent_index: int | None = None
    for n, step in enumerate(steps):
        m = _STEP.fullmatch(step.strip())
        if m is None:
            raise UsageError(
                f"locator {locator!r}: step {step!r} is not hN or fS:N (e.g. h2>f4:0>f1:7)"
            )
        span_text, index_text = m.groups()
        index = int(index_text)
        container: Container = None if span_text is None else int(span_text)
        if container is None and n > 0:
            raise UsageError(f"locator {locator!r}: only the first step can be hN")
        if container is not None and container >= len(graph.spans):
            raise UsageError(
                f"locator {locator!r}: there is no span {container} "
                f"(folded has {len(graph.spans)} spans)"
            )
        if ctx is None:
            if container is None:
                ctx = Context(None, None, None, 0)
            else:
                place = graph.places[container]
                ctx = Context(None, None, container, max(place.depth, 1), place.placement)
        else:
            assert parent_index is not None
            ref = graph.frame_at(ctx.span, parent_index)
            here = f"{ctx.prefix()}{parent_index}"
            if ref is None or ref.span is None:
                raise UsageError(f"locator {locator!r}: {here} is not a frame that joins a span")
            if ref.span != container:
                raise UsageError(
                    f"locator {locator!r}: {here} joins span {ref.span}, not span {container}"
                )
            ctx = Context(ctx, parent_index, container, ctx.depth + 1, ctx.placement)
        messages = graph.container_messages(container)
        if index >= len(messages):
            where = "history" if container is None else f"span {container}'s messages"
            raise UsageError(
                f"locator {locator!r}: {where} has {len(messages)} messages, no index {index}"
            )
        parent_index = index
    assert ctx is not None and parent_index is not None
    return ctx, parent_index


def walk_one(
    graph: FoldGraph, locator: str, *, max_depth: int | None = None, keep_frames: bool = False
) -> Iterator[Event]:
    """Expand the one summary a locator names (``--only``)."""
    ctx, index = parse_locator(graph, locator)
    ref = graph.frame_at(ctx.span, index)
    if ref is None:
        raise UsageError(f"locator {locator!r} names a message that is not a frame (a summary)")
    message = graph.container_messages(ctx.span)[index]
    if ref.span is None or graph.spans[ref.span].messages is None:
        resolution: Resolution = "unresolved" if ref.span is None else "discarded"
        yield Row(message, ctx, index, FrameInfo(ref.fingerprint, ref.span, resolution))
        return
    if keep_frames:
        yield Row(message, ctx, index, FrameInfo(ref.fingerprint, ref.span, "expanded"))
    limit = None if max_depth is None else ctx.depth + max_depth
    child = Context(ctx, index, ref.span, ctx.depth + 1, ctx.placement)
    yield from walk(graph, max_depth=limit, keep_frames=keep_frames, start=child)
