"""Two checkpoints of one conversation compared: what was added, changed, and lost.

Nothing is matched by position.  Spans are matched by identity — the key
``(summaryFingerprint, runId, iteration, foldedAtMs)``; when several spans of
one checkpoint share a key (a tampered or replayed record), the n-th of them
in ``folded`` order pairs with the n-th in the other checkpoint.  Messages are
matched by digest (:mod:`foldctl.digest`): a message that left the live window
but is retained in a fold of NEW was *folded*, not lost.

:func:`compare` returns one plain dict per difference, each with a ``kind``
(see :data:`KINDS`; docs/output.md describes every key).  The order is
:data:`KINDS` order (evidence lost first), then by position in OLD or NEW.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from difflib import SequenceMatcher
from typing import Any, Final

import msgspec

from foldctl.digest import digest
from foldctl.errors import UsageError
from foldctl.formats import registry as formats
from foldctl.formats.base import identity
from foldctl.graph.resolve import FoldGraph
from foldctl.graph.walk import Row, every_row, walk
from foldctl.model import Message, Span, repr_without
from foldctl.times import iso_recorded

SpanKey = tuple[str | None, str | None, int | None, int | float | None]

#: Every kind of difference, in output order; the headline (evidence lost) first.
KINDS: Final = (
    "span-removed",
    "retention-changed",
    "span-messages-changed",
    "span-changed",
    "span-added",
    "frame-unresolved",
    "live-removed",
    "live-changed",
    "live-folded",
    "live-added",
)


def span_key(span: Span) -> SpanKey:
    """A span's identity across checkpoints (its index moves; this does not).  For a format
    that records no fingerprint, the uuid of the record that made the fold (a Claude Code
    boundary) or, without one, what it is and the line it starts at.  A redacted span is
    known by its stored facts, so ``--redact`` pairs the same spans."""
    span = span.recorded
    identity = span.fingerprint
    if identity is None:
        uuid = (span.raw or {}).get("uuid")
        identity = uuid if isinstance(uuid, str) else f"{span.kind}@{span.line}"
    return (identity, span.run_id, span.iteration, span.folded_at_ms)


class _Side(msgspec.Struct):
    """One checkpoint, indexed by digest."""

    graph: FoldGraph
    view: Callable[[Message], Message] = identity  # how its format shows a message
    live: list[str] = msgspec.field(default_factory=list)  # digests of history, in order
    anywhere: dict[str, str] = msgspec.field(default_factory=dict)  # digest -> first locator
    folded: dict[str, Row] = msgspec.field(
        default_factory=dict
    )  # digest -> first row inside a span
    unresolved: dict[str, Row] = msgspec.field(
        default_factory=dict
    )  # digest -> unresolved frame row
    frame_spans: dict[str, int | None] = msgspec.field(default_factory=dict)  # frame digest -> span

    @classmethod
    def of(cls, graph: FoldGraph) -> _Side:
        side = cls(graph, formats.view_of(graph.checkpoint))
        side.live = [digest(m) for m in graph.checkpoint.history]
        for row in every_row(graph, replays="ref"):  # a replay repeats messages already seen
            d = digest(row.message)
            side.anywhere.setdefault(d, row.locator)
            if row.span is not None:
                side.folded.setdefault(d, row)
            if row.frame is not None:
                side.frame_spans.setdefault(d, row.frame.span)
                if row.frame.resolution == "unresolved":
                    side.unresolved.setdefault(d, row)
        return side

    def role(self, message: Message) -> Any:
        """A message's role as its format shows it."""
        return self.view(message).get("role")


def first_message(graph: FoldGraph) -> Message | None:
    """The conversation's first message: the first row of the expansion."""
    for event in walk(graph):
        if isinstance(event, Row):
            return event.message
    return None


def _frame_digests(graph: FoldGraph) -> set[str]:
    return {
        digest(graph.container_messages(container)[index]) for (container, index) in graph.frames
    }


class Unrelated(UsageError):
    """Two checkpoints that share nothing of one conversation (compare with ``force``)."""

    remedy = "force"


def check_related(old: FoldGraph, new: FoldGraph) -> None:
    """Refuse two checkpoints that share nothing of one conversation.

    They are taken as one conversation when any of these holds: the same first
    message (of the expansion), a shared span (by identity), a shared summary
    frame (by digest: a summary is long and specific), or the same ``runId``.
    The frame rule keeps a checkpoint that lost its ``folded`` comparable with
    the one it lost it from.
    """
    first_old, first_new = first_message(old), first_message(new)
    if first_old is None or first_new is None:
        same_first = first_old is None and first_new is None
    else:
        same_first = digest(first_old) == digest(first_new)
    if (
        same_first
        or old.plain.checkpoint.run_id == new.plain.checkpoint.run_id
        or {span_key(s) for s in old.spans} & {span_key(s) for s in new.spans}
        or _frame_digests(old) & _frame_digests(new)
    ):
        return
    shown = [digest(m) if m is not None else "none" for m in (first_old, first_new)]
    raise Unrelated(
        f"{old.checkpoint.source} and {new.checkpoint.source} look like different "
        f"conversations: their first messages differ ({shown[0]} vs {shown[1]}), and they "
        "share no folded span, no summary frame and no runId"
    )


def pair_spans(
    old: FoldGraph, new: FoldGraph
) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """(matched (old, new) index pairs, old-only indices, new-only indices)."""
    waiting: dict[SpanKey, list[int]] = {}
    for span in new.spans:
        waiting.setdefault(span_key(span), []).append(span.index)
    pairs: list[tuple[int, int]] = []
    removed: list[int] = []
    for span in old.spans:
        queue = waiting.get(span_key(span))
        if queue:
            pairs.append((span.index, queue.pop(0)))
        else:
            removed.append(span.index)
    taken = {n for _, n in pairs}
    added = [s.index for s in new.spans if s.index not in taken]
    return pairs, removed, added


def _head(kind: str, **keys: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "kind": kind,
        "oldSpan": None,
        "newSpan": None,
        "oldLocator": None,
        "newLocator": None,
    }
    base.update(keys)
    return base


def _identity(span: Span) -> dict[str, Any]:
    return {
        "fingerprint": span.fingerprint,
        "runId": span.run_id,
        "iteration": span.iteration,
        "foldedAtMs": span.folded_at_ms,
        "foldedAt": iso_recorded(span.folded_at_ms),
    }


def _facts(span: Span, graph: FoldGraph) -> dict[str, Any]:
    return {
        "model": span.model,
        "retained": span.retained,
        "messageCount": span.message_count,
        "messagesKept": None if span.messages is None else len(span.messages),
        "placement": graph.places[span.index].placement,
    }


def _lost(messages: Sequence[Message] | None, new: _Side) -> int:
    return sum(1 for m in messages or () if digest(m) not in new.anywhere)


_NOT_COMPARED: Final = ("messages", "retained")


def _field_changes(a: Span, b: Span, old: FoldGraph, new: FoldGraph) -> list[dict[str, Any]]:
    changes: list[dict[str, Any]] = []
    was_stored, now_stored = a.stored(), b.stored()
    for name in dict.fromkeys([*was_stored, *now_stored]):
        if name in _NOT_COMPARED:
            continue
        if name in was_stored and name in now_stored and was_stored[name] == now_stored[name]:
            continue
        change: dict[str, Any] = {"field": name}
        if name in was_stored:
            change["old"] = was_stored[name]
        if name in now_stored:
            change["new"] = now_stored[name]
        changes.append(change)
    was, now = old.places[a.index].placement, new.places[b.index].placement
    if was != now:
        changes.append({"field": "placement", "old": was, "new": now})
    return changes


def _span_differences(old: _Side, new: _Side) -> Iterator[dict[str, Any]]:
    og, ng = old.graph, new.graph
    pairs, removed, added = pair_spans(og, ng)
    for i in removed:
        span = og.spans[i]
        yield _head(
            "span-removed",
            oldSpan=i,
            oldLocator=og.frame_locator(i),
            **_identity(span),
            **_facts(span, og),
            messagesLost=_lost(span.messages, new),
        )
    for i, j in pairs:
        a, b = og.spans[i], ng.spans[j]
        ids = {
            "oldSpan": i,
            "newSpan": j,
            "oldLocator": og.frame_locator(i),
            "newLocator": ng.frame_locator(j),
            **_identity(b),
        }
        if a.retained != b.retained:
            lost = _lost(a.messages, new) if b.messages is None else 0
            yield _head(
                "retention-changed",
                **ids,
                oldRetained=a.retained,
                newRetained=b.retained,
                messagesLost=lost,
            )
        elif a.messages is not None and b.messages is not None:
            yield from _message_changes(a, b, old, new, ids)
    for i, j in pairs:
        changes = _field_changes(og.spans[i], ng.spans[j], og, ng)
        if changes:
            yield _head(
                "span-changed",
                oldSpan=i,
                newSpan=j,
                oldLocator=og.frame_locator(i),
                newLocator=ng.frame_locator(j),
                **_identity(ng.spans[j]),
                changes=changes,
            )
    for j in added:
        span = ng.spans[j]
        yield _head(
            "span-added",
            newSpan=j,
            newLocator=ng.frame_locator(j),
            **_identity(span),
            **_facts(span, ng),
        )


def _message_changes(
    a: Span, b: Span, old: _Side, new: _Side, ids: dict[str, Any]
) -> Iterator[dict[str, Any]]:
    assert a.messages is not None and b.messages is not None
    da, db = [digest(m) for m in a.messages], [digest(m) for m in b.messages]
    if da == db:
        return
    gone, fresh = _surplus(da, db), _surplus(db, da)
    edits = _edits(da, db, a.messages, b.messages, set(gone), set(fresh), old, new)
    edited_old, edited_new = {i for i, _ in edits}, {j for _, j in edits}
    old_at, new_at = old.graph.locator_of, new.graph.locator_of
    am, bm = a.messages, b.messages
    changed = [
        _edit(old_at(a.index, i), new_at(b.index, j), da[i], db[j], am[i], bm[j], new.role(bm[j]))
        for i, j in edits
    ]
    removed = [
        {
            "locator": old.graph.locator_of(a.index, n),
            "digest": da[n],
            "role": old.role(a.messages[n]),
            "lost": da[n] not in new.anywhere,
            "message": a.messages[n],
        }
        for n in gone
        if n not in edited_old
    ]
    added = [
        {
            "locator": new.graph.locator_of(b.index, n),
            "digest": db[n],
            "role": new.role(b.messages[n]),
            "message": b.messages[n],
        }
        for n in fresh
        if n not in edited_new
    ]
    reordered = not removed and not added and not changed  # the same messages, reordered
    yield _head(
        "span-messages-changed", **ids, changed=changed, removed=removed, added=added,
        reordered=reordered,
    )  # fmt: skip


def _edit(
    old_locator: str,
    new_locator: str,
    old_digest: str,
    new_digest: str,
    a: Message,
    b: Message,
    role: Any,
) -> dict[str, Any]:
    """One message edited in place: both sides whole, the fields that differ, and the
    role its format shows for NEW's."""
    names = [k for k in dict.fromkeys([*a, *b]) if a.get(k, _ABSENT) != b.get(k, _ABSENT)]
    return {
        "oldLocator": old_locator,
        "newLocator": new_locator,
        "oldDigest": old_digest,
        "newDigest": new_digest,
        "role": role,
        "fields": names,
        "oldMessage": a,
        "newMessage": b,
    }


def _edits(
    da: list[str],
    db: list[str],
    a: Sequence[Message],
    b: Sequence[Message],
    gone: set[int],
    fresh: set[int],
    old: _Side,
    new: _Side,
) -> list[tuple[int, int]]:
    """The messages of OLD edited in place in NEW: in each region where the two sequences
    differ (their unchanged messages aligned), an OLD message found nowhere in NEW paired
    with the next NEW message of its role found nowhere in OLD.  The live window and a
    span's retained messages are compared alike."""
    pairs: list[tuple[int, int]] = []
    for i1, i2, j1, j2 in _unequal_regions(da, db):
        # Only messages that exist nowhere on the other side can be edits of each other.
        olds = [i for i in range(i1, i2) if i in gone and da[i] not in new.anywhere]
        news = [j for j in range(j1, j2) if j in fresh and db[j] not in old.anywhere]
        for i in olds:
            role = old.role(a[i])
            j = next((j for j in news if new.role(b[j]) == role), None)
            if j is not None:
                news = news[news.index(j) + 1 :]
                pairs.append((i, j))
    return pairs


def _surplus(ours: list[str], theirs: list[str]) -> list[int]:
    """Indices in ``ours`` of the copies ``theirs`` lacks (the first ones of each digest)."""
    extra = Counter(ours) - Counter(theirs)
    out = []
    for n, d in enumerate(ours):
        if extra[d] > 0:
            extra[d] -= 1
            out.append(n)
    return out


def _unmatched(ours: list[str], theirs: list[str]) -> list[bool]:
    """For each digest of ``ours``: True when a copy of it is not matched in ``theirs``."""
    left = Counter(theirs)
    out = []
    for d in ours:
        if left[d] > 0:
            left[d] -= 1
            out.append(False)
        else:
            out.append(True)
    return out


#: Beyond this many pairs of messages between the common head and tail, the two windows
#: are compared as one region: an alignment costs time quadratic in the region, and a
#: window of thousands of copies of one message would take minutes.
_ALIGN_LIMIT: Final = 4_000_000


Opcode = tuple[str, int, int, int, int]


def aligned(a: Sequence[str], b: Sequence[str], limit: int = _ALIGN_LIMIT) -> list[Opcode]:
    """``a`` against ``b`` as :class:`difflib.SequenceMatcher`'s opcodes (``equal``,
    ``replace``, ``delete``, ``insert`` with their ranges): the common head and tail
    equal, what lies between aligned when that costs at most ``limit`` pairs, else one
    ``replace``.  Messages (by digest) and lines of text are compared alike."""
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    i2, j2 = len(a) - tail, len(b) - tail
    ops: list[Opcode] = [("equal", 0, head, 0, head)] if head else []
    if (i2 - head) * (j2 - head) > limit:
        ops.append(("replace", head, i2, head, j2))
    elif i2 > head or j2 > head:
        matcher = SequenceMatcher(None, a[head:i2], b[head:j2], autojunk=False)
        ops += [
            (tag, head + x1, head + x2, head + y1, head + y2)
            for tag, x1, x2, y1, y2 in matcher.get_opcodes()
        ]
    if tail:
        ops.append(("equal", i2, len(a), j2, len(b)))
    return ops


def _unequal_regions(a: list[str], b: list[str]) -> Iterator[tuple[int, int, int, int]]:
    """The regions ``(i1, i2, j1, j2)`` where ``a`` and ``b`` differ (:func:`aligned`)."""
    for tag, i1, i2, j1, j2 in aligned(a, b):
        if tag != "equal":
            yield i1, i2, j1, j2


def _live_differences(old: _Side, new: _Side) -> Iterator[dict[str, Any]]:
    old_history, new_history = old.graph.checkpoint.history, new.graph.checkpoint.history
    gone, fresh = _unmatched(old.live, new.live), _unmatched(new.live, old.live)
    changed = _edits(
        old.live, new.live, old_history, new_history,
        {i for i, g in enumerate(gone) if g}, {j for j, f in enumerate(fresh) if f}, old, new,
    )  # fmt: skip
    paired_old = {i for i, _ in changed}
    paired_new = {j for _, j in changed}
    for i, d in enumerate(old.live):
        if not gone[i] or i in paired_old:
            continue
        message = old_history[i]
        folded = new.folded.get(d)
        if folded is not None:
            yield _head(
                "live-folded", oldLocator=f"h{i}", newLocator=folded.locator,
                newSpan=folded.span, digest=d, role=old.role(message), message=message,
            )  # fmt: skip
        else:
            yield _head(
                "live-removed", oldLocator=f"h{i}", newLocator=new.anywhere.get(d),
                digest=d, role=old.role(message), message=message,
            )  # fmt: skip
    for i, j in changed:
        a, b = old_history[i], new_history[j]
        edit = _edit(f"h{i}", f"h{j}", old.live[i], new.live[j], a, b, new.role(b))
        yield _head("live-changed", **edit)
    for j, d in enumerate(new.live):
        if fresh[j] and j not in paired_new:
            message = new_history[j]
            yield _head(
                "live-added", oldLocator=old.anywhere.get(d), newLocator=f"h{j}",
                digest=d, role=new.role(message), message=message,
            )  # fmt: skip


_ABSENT: Final = object()


def _frame_differences(old: _Side, new: _Side) -> Iterator[dict[str, Any]]:
    for d, row in new.unresolved.items():
        if d in old.unresolved:
            continue
        yield _head(
            "frame-unresolved",
            oldSpan=old.frame_spans.get(d),
            oldLocator=old.anywhere.get(d),
            newLocator=row.locator,
            digest=d,
            fingerprint=row.frame.fingerprint if row.frame is not None else None,
        )


class DiffResult(msgspec.Struct, frozen=True):
    """Every difference between two checkpoints (each a dict with its ``kind``), in
    :data:`KINDS` order; the two fold graphs compared are kept, out of the repr."""

    old: FoldGraph
    new: FoldGraph
    differences: list[dict[str, Any]]
    #: messages (unique digests) present anywhere in OLD and nowhere in NEW
    lost_messages: int

    __repr__ = repr_without("old", "new")

    @property
    def identical(self) -> bool:
        return not self.differences

    def document(self) -> list[dict[str, Any]]:
        return self.differences

    def records(self) -> Iterator[dict[str, Any]]:
        return iter(self.differences)


def compare(old: FoldGraph, new: FoldGraph, *, force: bool = False) -> DiffResult:
    """Every difference between OLD and NEW, in :data:`KINDS` order."""
    if not force:
        check_related(old, new)
    a, b = _Side.of(old), _Side.of(new)
    found = [*_span_differences(a, b), *_frame_differences(a, b), *_live_differences(a, b)]
    order = {kind: n for n, kind in enumerate(KINDS)}
    found.sort(key=lambda d: order[d["kind"]])  # stable: keeps position order within a kind
    lost = sum(1 for d in a.anywhere if d not in b.anywhere)
    return DiffResult(old, new, found, lost)
