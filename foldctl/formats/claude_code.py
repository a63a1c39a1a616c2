"""Claude Code sessions (``~/.claude/projects/<project>/<session>.jsonl``): SPEC §7.

One JSON record a line.  Records link by ``uuid`` / ``parentUuid``; a compaction is a
``compact_boundary`` record B and the ``isCompactSummary`` record S whose ``parentUuid`` is
B's uuid.  The originals of B are the chain from ``B.logicalParentUuid`` back to the
previous boundary (or the chain's start), less the records B preserved; the live window
is the chain from the last record back to the last boundary.  A preserved segment
(``compactMetadata.preservedSegment``, ``preservedMessages``) stands right after its
summary wherever a chain is walked, as the runtime relinks it.  S is the frame of B's fold;
where S sits inside a later fold's originals, folds nest.  Records in no fold and not
live (a rewound branch) are *abandoned*; a subagent's records inside this file
(``isSidechain``) are a *sidechain*: each kept as a floating container after the folds.

The file is read once: each line is decoded into a struct of the dozen fields the
structure needs (msgspec skips the rest) and kept as where it lies in the file; a record is
decoded in full only when read (:class:`~foldctl.formats.lines.Records`).  Chains are walked
with explicit loops and a visited set (a cycle of ``parentUuid`` is a finding, never a
hang), and the walking is bounded by the number of records.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from itertools import compress, islice
from operator import ne
from typing import Any, Final

import msgspec

from foldctl.errors import InputError
from foldctl.formats import lines
from foldctl.formats.base import Head, InputFormat, after_preamble
from foldctl.jsoncodec import brief
from foldctl.model import (
    Checkpoint,
    Container,
    LoadNote,
    Message,
    Microcompaction,
    SessionFacts,
    Span,
)
from foldctl.times import iso_ms

BOUNDARY: Final = "compact_boundary"
MICRO: Final = "microcompact_boundary"
#: Record types that are messages (one transcript row each), boundaries aside.
ROW_TYPES: Final = frozenset({"user", "assistant", "system", "attachment"})
#: What the runtime writes before the summarizer's text in a compaction summary.
SUMMARY_PREFIX: Final = (
    "This session is being continued from a previous conversation that ran out of context. "
    "The conversation is summarized below:"
)
#: Keys of a record that say it is Claude Code's (with a string ``type``).
_CHAIN_KEYS: Final = ("uuid", "parentUuid", "sessionId", "leafUuid", "messageId")

# Record kinds, as kept per record.
_OTHER, _ROW, _COMPACT, _MICROCOMPACT = 0, 1, 2, 3


# What the pass decodes holds no reference cycle: gc=False spares each struct the
# collector's bookkeeping (a few ms over a large session).


class _Segment(msgspec.Struct, gc=False):
    headUuid: str | None = None
    anchorUuid: str | None = None
    tailUuid: str | None = None


class _Preserved(msgspec.Struct, gc=False):
    anchorUuid: str | None = None
    uuids: list[str] | None = None


class _CompactMeta(msgspec.Struct, gc=False):
    trigger: str | None = None
    preservedSegment: _Segment | None = None
    preservedMessages: _Preserved | None = None


class _MicroMeta(msgspec.Struct, gc=False):
    trigger: str | None = None
    preTokens: int | float | None = None
    tokensSaved: int | float | None = None
    compactedToolIds: list[str] | None = None


class _Block(msgspec.Struct, gc=False):
    tool_use_id: str | None = None


class _ApiMessage(msgspec.Struct, gc=False):
    id: str | None = None
    content: list[_Block] | str | None = None


class _BareMessage(msgspec.Struct, gc=False):
    id: str | None = None


class _Record(msgspec.Struct, gc=False):
    """The fields of a record the structure needs; msgspec skips every other."""

    type: str | None = None
    uuid: str | None = None
    parentUuid: str | None = None
    logicalParentUuid: str | None = None
    subtype: str | None = None
    isCompactSummary: bool | None = None
    isSidechain: bool | None = None
    sessionId: str | None = None
    agentId: str | None = None
    timestamp: str | None = None
    cwd: str | None = None
    version: str | None = None
    message: _ApiMessage | None = None
    compactMetadata: _CompactMeta | None = None
    microcompactMetadata: _MicroMeta | None = None


class _BareRecord(_Record):
    """A record whose ``message.content`` is not the blocks the runtime writes: read
    without them (its tool results are then not found by their ids)."""

    message: _BareMessage | None = None  # type: ignore[assignment]


_DECODE: Final = msgspec.json.Decoder(_Record).decode
_DECODE_BARE: Final = msgspec.json.Decoder(_BareRecord).decode
#: The most chain steps a file may take, per record it holds (plus a constant): a session
#: the runtime wrote walks each record about once; past this the chains are hostile.
_WALK_FACTOR: Final = 4
_WALK_SLACK: Final = 10_000
#: How far from its anchor a record recovered by ``message.id`` is placed by line.
_NEAR: Final = 64
#: What a line may be padded with (as :func:`foldctl.formats.lines.line_spans` strips).
_SPACE: Final = b" \t\r"


def _sniff(head: Head) -> bool:
    first = head.first
    if first is None or not isinstance(first.get("type"), str) or "payload" in first:
        return False
    return any(key in first for key in _CHAIN_KEYS)


class _Boundary(msgspec.Struct):
    record: int
    logical: str | None
    meta: _CompactMeta | None
    session: str | None
    timestamp: str | None
    summary: int | None = None  # the record of its isCompactSummary
    preserved: list[int] = msgspec.field(default_factory=list)  # records it preserved, in order
    relinked: bool = False  # its preserved records are relinked after its summary


class _Pending(msgspec.Struct):
    """A note whose message's place is known once the containers are built."""

    code: str
    message: str
    line: int | None
    record: int | None = None
    span: int | None = None
    related: tuple[int, ...] = ()


class _Session:
    """One pass over the file, then the structure built from what it kept."""

    def __init__(self, data: Any, source: str) -> None:
        self.data = data
        self.source = source
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.lines: list[int] = []
        self.uuids: list[str | None] = []
        self.parents: list[str | None] = []
        self.kinds: list[int] = []
        self.types: list[str | None] = []
        self.side: set[int] = set()  # sidechain records
        self.no_uuid: list[int] = []  # records kept without a uuid (in no chain)
        self.summary: set[int] = set()  # records marked isCompactSummary
        self.msgids: dict[int, str] = {}  # assistant record -> its message.id
        self.answers: dict[str, list[int]] = {}  # tool_use_id -> the user records answering it
        self.agents: dict[int, str] = {}  # sidechain record -> its agentId
        self.by_uuid: dict[str, int] = {}
        self.boundaries: list[_Boundary] = []
        self.micro: list[tuple[int, _MicroMeta | None, str | None]] = []
        self.pending: list[_Pending] = []
        self.copies: list[tuple[int, int, bool]] = []  # (kept record, copy's line, differs)
        self.other: dict[str, int] = {}
        self.records = 0
        self.line_count = 0
        self.first_time: str | None = None
        self.last_time: str | None = None
        self.session_id: str | None = None
        self.cwd: str | None = None
        self.version: str | None = None
        self.agent_id: str | None = None
        self.last_main: _Record | None = None  # the last message record of the main chain
        self.first_side: _Record | None = None  # the first sidechain message record
        self.budget = 0
        # built from the above
        self.relink: dict[str, tuple[int, str]] = {}  # uuid -> (boundary, effective parent)
        self.place: dict[int, tuple[Container, int]] = {}
        self.relinked: dict[int, tuple[int, str]] | None = None  # relink, by record
        self._run_starts: list[int] | None = None  # where runs of plain links start

    # ------------------------------------------------------------------ the pass

    def read(self) -> None:
        data = self.data
        view = memoryview(data) if not isinstance(data, bytes) else data
        find, size = data.find, len(data)
        decode, keep, slow = _DECODE, self.keep, self.read_slow
        by_uuid = self.by_uuid
        # Bound once: the common record costs a few appends and a dict entry.
        add_start, add_end, add_line = self.starts.append, self.ends.append, self.lines.append
        add_uuid, add_parent = self.uuids.append, self.parents.append
        add_type, add_kind = self.types.append, self.kinds.append
        msgids, answers, other = self.msgids, self.answers, self.other
        first_time = last_time = None
        main = 0  # common records: counted here, the others by keep()
        index = len(self.starts)
        last_main: _Record | None = None
        number = 0
        position = 0
        while position < size:
            number += 1
            start = position
            nl = find(b"\n", start)
            end = size if nl < 0 else nl
            position = end + 1
            # A record's line starts with "{" and ends with "}"; any other line (blank,
            # padded with spaces or a \r, not an object, not JSON) goes the slow way.
            if end == start or data[start] != 123 or data[end - 1] != 125:  # { }
                record = slow(number, start, end)
                if record is None:
                    continue
            else:
                try:
                    record = decode(view[start:end])
                except (msgspec.ValidationError, RecursionError):
                    record = slow(number, start, end)
                    if record is None:
                        continue
                except msgspec.DecodeError:
                    slow(number, start, end)
                    continue
            uuid = record.uuid
            kind_name = record.type
            if uuid is None and kind_name not in ROW_TYPES:
                # A line of another kind (file-history-snapshot, ...): counted, as keep()
                # counts it.
                main += 1
                stamp = record.timestamp
                if stamp is not None:
                    if first_time is None or stamp < first_time:
                        first_time = stamp
                    if last_time is None or stamp > last_time:
                        last_time = stamp
                name = kind_name if isinstance(kind_name, str) else "(no type)"
                other[name] = other.get(name, 0) + 1
                continue
            if (
                uuid is None
                or uuid in by_uuid
                or record.isSidechain
                or record.isCompactSummary
                or (kind_name != "user" and kind_name != "assistant")
            ):
                if last_main is not None:  # keep() may find a later one
                    self.last_main, last_main = last_main, None
                keep(record, number, start, end)
                index = len(self.starts)
                continue
            # The common record, kept as keep() keeps it: a message of the main chain.
            main += 1
            stamp = record.timestamp
            if stamp is not None:  # ISO-8601 as the runtime writes it: text order is time order
                if first_time is None or stamp < first_time:
                    first_time = stamp
                if last_time is None or stamp > last_time:
                    last_time = stamp
            by_uuid[uuid] = index
            add_start(start)
            add_end(end)
            add_line(number)
            add_uuid(uuid)
            add_parent(record.parentUuid)
            add_type(kind_name)
            add_kind(_ROW)
            message = record.message
            if message is not None:
                if kind_name == "assistant":
                    if message.id:
                        msgids[index] = message.id
                else:
                    blocks: Any = getattr(message, "content", None)  # None: read bare
                    if type(blocks) is list:
                        for block in blocks:
                            if block.tool_use_id is not None:
                                answers.setdefault(block.tool_use_id, []).append(index)
            index += 1
            last_main = record
        self.line_count = number
        self.records += main
        self.stamp(first_time)
        self.stamp(last_time)
        if last_main is not None:
            self.last_main = last_main

    def read_slow(self, number: int, start: int, end: int) -> _Record | None:
        """Line ``number`` read the careful way: its spaces stripped, a blank line passed
        over, a record of another shape read bare; None when there is no record to keep
        (the line is noted)."""
        data = self.data
        while start < end and data[start] in _SPACE:
            start += 1
        while end > start and data[end - 1] in _SPACE:
            end -= 1
        if end == start:
            return None
        view = memoryview(data) if not isinstance(data, bytes) else data
        try:
            try:
                return _DECODE(view[start:end])
            except msgspec.ValidationError:  # the rare record of another shape
                return lines.decode_line(_DECODE_BARE, view[start:end], self.source, number)
            except RecursionError:  # a line nested near the recursion limit
                return lines.decode_line(_DECODE, view[start:end], self.source, number)
        except msgspec.ValidationError as e:
            self.records += 1
            self.pending.append(
                _Pending("schema", f"Line {number} is not a record this format reads: {e}.", number)
            )
        except msgspec.DecodeError:
            self.pending.append(
                _Pending(
                    "bad-line",
                    f"Line {number} is not JSON ({lines.not_json(data, start, end)}); the "
                    "rest of the file was read, so the session is shown without it.",
                    number,
                )
            )
        return None

    def stamp(self, stamp: str | None) -> None:
        """Widen the session's time range to ``stamp``."""
        if stamp is not None:  # ISO-8601 as the runtime writes it: text order is time order
            if self.first_time is None or stamp < self.first_time:
                self.first_time = stamp
            if self.last_time is None or stamp > self.last_time:
                self.last_time = stamp

    def keep(self, record: _Record, number: int, start: int, end: int) -> None:
        self.records += 1
        kind_name = record.type
        stamp = record.timestamp
        if stamp is not None:  # ISO-8601 as the runtime writes it: text order is time order
            if self.first_time is None or stamp < self.first_time:
                self.first_time = stamp
            if self.last_time is None or stamp > self.last_time:
                self.last_time = stamp
        uuid = record.uuid
        if uuid is None:
            if kind_name in ROW_TYPES:
                self.pending.append(
                    _Pending(
                        "schema",
                        f"Line {number} is a {kind_name} record without a uuid, so it stands "
                        "in no chain.",
                        number,
                    )
                )
            else:
                name = kind_name if isinstance(kind_name, str) else "(no type)"
                self.other[name] = self.other.get(name, 0) + 1
                return
        elif uuid in self.by_uuid:
            kept = self.by_uuid[uuid]
            differs = self.data[start:end] != self.data[self.starts[kept] : self.ends[kept]]
            self.copies.append((kept, number, differs))
            return
        index = len(self.starts)
        if uuid is not None:
            self.by_uuid[uuid] = index
        else:
            self.no_uuid.append(index)
        self.starts.append(start)
        self.ends.append(end)
        self.lines.append(number)
        self.uuids.append(uuid)
        self.parents.append(record.parentUuid)
        self.types.append(kind_name)
        if record.isSidechain:
            self.side.add(index)
            if record.agentId is not None:
                self.agents[index] = record.agentId
        if record.isCompactSummary:
            self.summary.add(index)
        if kind_name == "system" and record.subtype == BOUNDARY:
            self.kinds.append(_COMPACT)
            self.boundaries.append(
                _Boundary(
                    index,
                    record.logicalParentUuid,
                    record.compactMetadata,
                    record.sessionId,
                    record.timestamp,
                )
            )
        elif kind_name == "system" and record.subtype == MICRO:
            self.kinds.append(_MICROCOMPACT)
            self.micro.append((index, record.microcompactMetadata, record.timestamp))
        elif kind_name in ROW_TYPES:
            self.kinds.append(_ROW)
            message = record.message
            if message is not None:
                if kind_name == "assistant" and message.id:
                    self.msgids[index] = message.id
                elif kind_name == "user":
                    blocks: Any = getattr(message, "content", None)  # None: read bare
                    for block in blocks if type(blocks) is list else ():
                        if block.tool_use_id is not None:
                            self.answers.setdefault(block.tool_use_id, []).append(index)
            if not record.isSidechain:
                self.last_main = record
            elif self.first_side is None:
                self.first_side = record
        else:
            self.kinds.append(_OTHER)
            name = kind_name if isinstance(kind_name, str) else "(no type)"
            self.other[name] = self.other.get(name, 0) + 1

    # ------------------------------------------------------------------ chains

    def walk(self, start: int, before: int, what: str) -> list[int]:
        """The records from ``start`` back along ``parentUuid`` to a compaction boundary
        (left out) or the chain's start, in conversation order.  Preserved records of the
        boundaries numbered below ``before`` are relinked after their summaries."""
        path: list[int] = []
        seen: set[int] = set()
        current = start
        kinds, by_uuid = self.kinds, self.by_uuid
        if self.relinked is None:  # relink, by record
            self.relinked = {by_uuid[u]: link for u, link in self.relink.items() if u in by_uuid}
        relinked = self.relinked
        walked = self._walk_runs(start, before, relinked)
        if walked is not None:
            return walked
        budget = self.budget
        while True:
            if current in seen:
                self.pending.append(
                    _Pending(
                        "chain-cycle",
                        f"Walking {what} back from line {self.lines[start]}, the parentUuid "
                        f"links lead from line {self.lines[path[-1]]} back to line "
                        f"{self.lines[current]}, already walked: a cycle no runtime writes; "
                        "the walk stops there.",
                        self.lines[path[-1]],
                        path[-1],
                        related=(self.lines[current],),
                    )
                )
                break
            seen.add(current)
            if kinds[current] == _COMPACT:
                break
            path.append(current)
            budget -= 1
            if budget < 0:
                raise InputError(
                    self.source,
                    f"line {self.lines[current]}",
                    "the parentUuid chains of this file overlap far more than any session "
                    f"the runtime writes (more than {_WALK_FACTOR} steps per record); refused",
                )
            parent = self._parent(current, before, relinked)
            if parent is None:
                break
            found = by_uuid.get(parent)
            if found is None:
                self.pending.append(
                    _Pending(
                        "broken-chain",
                        f"The record at line {self.lines[current]} names parentUuid "
                        f"{brief(parent)}, which no record of this file has: {what} stops "
                        "there, and what came before it is not on disk.",
                        self.lines[current],
                        current,
                    )
                )
                break
            current = found
        self.budget = budget
        path.reverse()
        return path

    def _parent(self, record: int, before: int, relinked: dict[int, tuple[int, str]]) -> str | None:
        """The uuid a walk steps to from ``record``: its parentUuid, or, for a record a
        boundary numbered below ``before`` relinked after its summary, that link."""
        link = relinked.get(record) if relinked else None
        return link[1] if link is not None and link[0] < before else self.parents[record]

    def _walk_runs(
        self, start: int, before: int, relinked: dict[int, tuple[int, str]]
    ) -> list[int] | None:
        """What :meth:`walk` returns, taken a run of records at a time: a record whose
        parentUuid is the uuid of the record before it in the file (the common case) is
        stepped over without a lookup.  None where the walk would note or refuse something
        (a broken chain, a cycle, the step budget): :meth:`walk` then takes the same path
        one record at a time and says why."""
        starts = self._run_starts
        if starts is None:
            starts = self._run_starts = self._find_run_starts()
        kinds, by_uuid = self.kinds, self.by_uuid
        runs: list[range] = []
        entered: set[int] = set()  # the runs walked, by their first record
        steps = 0
        current = start
        while True:
            if kinds[current] == _COMPACT:
                break
            low = starts[bisect_right(starts, current) - 1]
            if low in entered:  # a run is walked down to its start: this is a cycle
                return None
            entered.add(low)
            runs.append(range(low, current + 1))
            steps += current + 1 - low
            parent = self._parent(low, before, relinked)
            if parent is None:
                break
            found = by_uuid.get(parent)
            if found is None:
                return None
            current = found
        if steps > self.budget:
            return None
        self.budget -= steps
        path: list[int] = []
        for run in reversed(runs):
            path.extend(run)
        return path

    def _find_run_starts(self) -> list[int]:
        """The records (in file order) from which a walk does not step to the record before
        it in the file by a plain link: the first, those whose parentUuid is not the uuid
        of the record before them, those after a record without a uuid or a compaction
        boundary (where a walk stops), and those relinked by a preserved segment."""
        parents, uuids = self.parents, self.uuids
        count = len(uuids)
        starts = set(compress(range(1, count), map(ne, islice(parents, 1, None), uuids)))
        starts.add(0)
        starts.update(i + 1 for i in self.no_uuid)
        starts.update(b.record + 1 for b in self.boundaries)  # the only _COMPACT records
        starts.update(self.relinked or ())
        return sorted(i for i in starts if i < count)

    def facts(self) -> None:
        """The session's id, directory and version: the last main record's (a subagent's
        file: its first record's, whose sessionId is its parent's session)."""
        source = self.last_main or self.first_side
        if source is not None:
            self.session_id, self.cwd, self.version = source.sessionId, source.cwd, source.version
        if self.last_main is None and self.first_side is not None:
            self.agent_id = self.first_side.agentId

    def prepare(self) -> None:
        """Join each boundary to its summary and work out the records it preserved."""
        self.facts()
        by_boundary = {b.record: n for n, b in enumerate(self.boundaries)}
        for r in sorted(self.summary):
            parent = self.parents[r]
            found = self.by_uuid.get(parent) if parent is not None else None
            n = by_boundary.get(found) if found is not None else None
            if n is not None and self.boundaries[n].summary is None:
                self.boundaries[n].summary = r
                continue
            self.summary.discard(r)
            why = "its parentUuid names no compact_boundary record"
            if n is not None:
                b = self.boundaries[n]
                why = (
                    f"its boundary (line {self.lines[b.record]}) already has the summary at "
                    f"line {self.lines[b.summary or 0]}"
                )
            self.pending.append(
                _Pending(
                    "summary-without-boundary",
                    f"The record at line {self.lines[r]} says it is a compaction summary "
                    f"(isCompactSummary), but {why}; it is shown as an ordinary message.",
                    self.lines[r],
                    r,
                )
            )
        for n, b in enumerate(self.boundaries):
            self._preserve(n, b)

    def _preserve(self, n: int, b: _Boundary) -> None:
        meta = b.meta
        if meta is None:
            return
        # Preserved records stand right after the summary (after the boundary without one).
        target = self.uuids[b.summary if b.summary is not None else b.record]
        segment = meta.preservedSegment
        if segment is not None and segment.headUuid and segment.tailUuid:
            head = self.by_uuid.get(segment.headUuid)
            tail = self.by_uuid.get(segment.tailUuid)
            chain: list[int] = []
            current = tail
            seen: set[int] = set()
            while current is not None and current not in seen and self.kinds[current] != _COMPACT:
                seen.add(current)
                chain.append(current)
                if current == head:
                    break
                parent = self.parents[current]
                current = self.by_uuid.get(parent) if parent is not None else None
            if head is None or tail is None or not chain or chain[-1] != head:
                self.pending.append(
                    _Pending(
                        "broken-chain",
                        f"The compaction at line {self.lines[b.record]} preserved the records "
                        f"from {brief(segment.headUuid)} to {brief(segment.tailUuid)}, but "
                        "they do not form a chain in this file, so they are not placed after "
                        "its summary.",
                        self.lines[b.record],
                    )
                )
                return
            chain.reverse()
            b.preserved = chain
            if target is not None:
                self.relink[segment.headUuid] = (n, target)
                b.relinked = True
            return
        kept = meta.preservedMessages
        if kept is not None and kept.uuids:
            found = [self.by_uuid[u] for u in kept.uuids if u in self.by_uuid]
            b.preserved = found
            previous = target
            for r in found:
                uuid = self.uuids[r]
                if uuid is not None and previous is not None:
                    self.relink[uuid] = (n, previous)
                previous = uuid
            b.relinked = bool(found)

    def originals(self, n: int, b: _Boundary) -> list[int] | None:
        """The records boundary ``n`` replaced, or None when they are not on disk."""
        start_uuid = b.logical if b.logical is not None else self.parents[b.record]
        segment = b.meta.preservedSegment if b.meta is not None else None
        if b.preserved and segment is not None and segment.headUuid:
            start_uuid = self.parents[b.preserved[0]]
            if start_uuid is None:
                return []  # everything before the compaction was preserved
        where = f"line {self.lines[b.record]}"
        if start_uuid is None:
            self.pending.append(
                _Pending(
                    "originals-missing",
                    f"The compaction at {where} names no logicalParentUuid, so the records "
                    "its summary replaced cannot be found.",
                    self.lines[b.record],
                    span=n,
                )
            )
            return None
        start = self.by_uuid.get(start_uuid)
        if start is None:
            self.pending.append(
                _Pending(
                    "originals-missing",
                    f"The compaction at {where} replaced the chain ending at "
                    f"{brief(start_uuid)}, which no record of this file has: its originals "
                    "are not on disk.",
                    self.lines[b.record],
                    span=n,
                )
            )
            return None
        walked = self.walk(start, n, f"the originals of the compaction at {where}")
        rows = _rows(self.kinds, walked)
        if b.preserved:
            preserved = set(b.preserved)
            rows = [r for r in rows if r not in preserved]
        return rows


def _rows(kinds: list[int], walked: list[int]) -> list[int]:
    return list(compress(walked, map(_ROW.__eq__, map(kinds.__getitem__, walked))))


def _near(container: list[int], lines_of: list[int], anchor: int, record: int) -> int:
    """Where ``record`` goes in ``container``: beside ``anchor`` (a position), after the
    records nearby whose line is before its own."""
    line = lines_of[record]
    position = anchor
    steps = 0
    while position > 0 and lines_of[container[position]] > line and steps < _NEAR:
        position -= 1
        steps += 1
    while position < len(container) and lines_of[container[position]] < line and steps < 2 * _NEAR:
        position += 1
        steps += 1
    return position


def _groups(
    members: list[int], parents: list[str | None], by_uuid: dict[str, int]
) -> list[list[int]]:
    """Records grouped by ``parentUuid`` (a record joins its parent's group), in file order."""
    group_of: dict[int, int] = {}
    groups: list[list[int]] = []
    for r in members:
        parent = parents[r]
        found = by_uuid.get(parent) if parent is not None else None
        g = group_of.get(found) if found is not None else None
        if g is None:
            g = len(groups)
            groups.append([])
        group_of[r] = g
        groups[g].append(r)
    return groups


def _build(session: _Session) -> Checkpoint:
    s = session
    s.budget = _WALK_FACTOR * len(s.starts) + _WALK_SLACK
    s.prepare()
    kinds = s.kinds
    rows = list(compress(range(len(kinds)), map(_ROW.__eq__, kinds)))
    main_rows = ([r for r in rows if r not in s.side] or rows) if s.side else rows
    main = set(main_rows)
    boundaries = s.boundaries
    # The live window: from the last record of the main chain back to its boundary.
    live: list[int] = []
    if main_rows:
        tip = main_rows[-1]
        for b in boundaries:  # a session that ends at a summary: its preserved records follow
            if b.summary == tip and b.preserved and b.relinked:
                tip = b.preserved[-1]
        live = _rows(kinds, s.walk(tip, len(boundaries), "the live window"))
    folds: list[list[int] | None] = [s.originals(n, b) for n, b in enumerate(boundaries)]
    containers: list[list[int]] = [live] + [f or [] for f in folds]
    # record -> container position (0 = live, n + 1 = fold n), the first that holds it:
    # filled from the last container back, so an earlier one overwrites a later one.
    covered: dict[int, int] = {}
    for position in range(len(containers) - 1, -1, -1):
        covered.update(dict.fromkeys(containers[position], position))
    _recover_parallel(s, containers, covered, main)
    # Rewound branches, then a subagent's records: floating containers after the folds.
    abandoned = sorted(main.difference(covered))
    floating: list[tuple[str, list[int]]] = [
        ("abandoned", group) for group in _groups(abandoned, s.parents, s.by_uuid)
    ]
    sidechain = [r for r in rows if r not in main] if len(main) < len(rows) else []
    by_agent: dict[str, list[int]] = {}
    for r in sidechain:
        by_agent.setdefault(s.agents.get(r, ""), []).append(r)
    floating += [("sidechain", group) for group in by_agent.values()]
    return _checkpoint(s, containers, folds, floating)


def _recover_parallel(
    s: _Session, containers: list[list[int]], covered: dict[int, int], main: set[int]
) -> None:
    """Records the chain walk passes by, placed as the runtime places them: assistant
    records sharing a ``message.id`` with a placed one (one API message split over
    several records, parallel tool calls), and the tool results that answer them."""
    msgids = s.msgids
    uncovered = sorted(main.difference(covered))
    if not uncovered:
        return
    # message.id -> (container, anchor record): the first placed record of each id an
    # unplaced record shares
    wanted = {msgids[r] for r in uncovered if r in msgids}
    by_msgid: dict[str, tuple[int, int]] = {}
    for r, placed_id in msgids.items():
        if placed_id in wanted and r in covered:
            by_msgid.setdefault(placed_id, (covered[r], r))
    if not by_msgid:
        return
    joined: dict[int, tuple[int, int]] = {}  # record -> (container, anchor record)
    for r in uncovered:
        msgid = msgids.get(r)
        anchor = by_msgid.get(msgid) if msgid is not None else None
        if anchor is None and s.types[r] == "user":
            parent = s.parents[r]
            above = s.by_uuid.get(parent) if parent is not None else None
            anchor = joined.get(above) if above is not None else None
        if anchor is not None:
            joined[r] = anchor
    if not joined:
        return
    by_container: dict[int, list[tuple[int, int]]] = {}
    for r, (position, anchor_record) in joined.items():
        by_container.setdefault(position, []).append((anchor_record, r))
        covered[r] = position
    for position, extra in by_container.items():
        container = containers[position]
        where = dict(zip(container, range(len(container)), strict=True))
        inserts = sorted(
            (_near(container, s.lines, where[anchor], r), s.lines[r], r) for anchor, r in extra
        )
        merged: list[int] = []
        i = 0
        for at, _, r in inserts:
            merged.extend(container[i:at])
            i = max(i, at)
            merged.append(r)
        merged.extend(container[i:])
        containers[position] = merged


def _checkpoint(
    s: _Session,
    containers: list[list[int]],
    folds: list[list[int] | None],
    floating: list[tuple[str, list[int]]],
) -> Checkpoint:
    data, source = s.data, s.source
    boundaries = s.boundaries
    summary_of = {b.summary: n for n, b in enumerate(boundaries) if b.summary is not None}
    all_containers: list[tuple[Container, list[int]]] = [(None, containers[0])]
    all_containers += [(n, containers[n + 1]) for n in range(len(boundaries))]
    first_floating = len(boundaries)
    all_containers += [(first_floating + k, group) for k, (_, group) in enumerate(floating)]
    links: dict[tuple[Container, int], int] = {}
    frames: dict[Container, list[int]] = {}
    summaries = summary_of.keys()
    for container, records in all_containers:
        if summaries.isdisjoint(records):
            continue
        # a record stands once in a container: index() finds it
        found = sorted(records.index(r) for r in summaries & set(records))
        frames[container] = found
        for i in found:
            links[(container, i)] = summary_of[records[i]]
    s.place = _places(all_containers, _placed_records(s))

    digits = lines.Digits(data)

    def sequence(container: Container, records: list[int]) -> lines.Records:
        found = tuple(frames.get(container, ()))
        return lines.records(data, source, records, s.starts, s.ends, s.lines, found, digits)

    spans: list[Span] = []
    for n, b in enumerate(boundaries):
        kept = folds[n]
        raw = lines.decode_record(
            bytes(data[s.starts[b.record] : s.ends[b.record]]), source, s.lines[b.record]
        )
        spans.append(
            Span(
                index=n,
                fingerprint=None,
                run_id=b.session,
                iteration=None,
                folded_at_ms=iso_ms(b.timestamp),
                model=None,
                message_count=len(containers[n + 1]),
                removed_stage_ids=None,
                retained="conversation" if kept is not None else "discard",
                messages=sequence(n, containers[n + 1]) if kept is not None else None,
                raw=raw,
                line=s.lines[b.record],
            )
        )
    for k, (kind, group) in enumerate(floating):
        index = first_floating + k
        spans.append(
            Span(
                index=index,
                fingerprint=None,
                run_id=s.session_id if kind == "abandoned" else None,
                iteration=None,
                folded_at_ms=None,
                model=None,
                message_count=len(group),
                removed_stage_ids=None,
                retained="conversation",
                messages=sequence(index, group),
                raw={},
                kind="abandoned" if kind == "abandoned" else "sidechain",
                line=s.lines[group[0]],
            )
        )
    notes = [*_duplicate_notes(s), *(_note(s, p) for p in s.pending)]
    facts = SessionFacts(
        session_id=s.session_id,
        project=s.cwd,
        first_ms=iso_ms(s.first_time),
        last_ms=iso_ms(s.last_time),
        records=s.records,
        lines=s.line_count,
        parent_session=s.session_id if s.agent_id is not None and not _has_main(s) else None,
        agent_id=s.agent_id if not _has_main(s) else None,
        runtime_version=s.version,
        other_lines=tuple(sorted(s.other.items())),
    )
    history = sequence(None, containers[0])
    return lines.session_checkpoint(
        source,
        data,
        format=FORMAT.name,
        shape="session",
        history=history,
        spans=spans,
        links=links,
        notes=notes,
        facts=facts,
        original_input=_first_prompt(s, containers[0], folds),
        microcompactions=tuple(_microcompactions(s)),
    )


def _placed_records(s: _Session) -> set[int]:
    """The records whose place (container, index) a note or a microcompaction names."""
    wanted = {p.record for p in s.pending if p.record is not None}
    wanted.update(kept for kept, _, _ in s.copies)
    for _, meta, _ in s.micro:
        for tool_id in (meta.compactedToolIds or ()) if meta is not None else ():
            wanted.update(s.answers.get(tool_id, ()))
    return wanted


def _places(
    containers: list[tuple[Container, list[int]]], wanted: set[int]
) -> dict[int, tuple[Container, int]]:
    """Where each of ``wanted`` stands first: its first container, and its first index there
    (a record no container holds has none)."""
    place: dict[int, tuple[Container, int]] = {}
    for container, records in containers:
        if not wanted:
            break
        hit = wanted.intersection(records)
        for r in hit:
            place[r] = (container, records.index(r))
        wanted -= hit
    return place


def _has_main(s: _Session) -> bool:
    return s.last_main is not None


def _note(s: _Session, p: _Pending) -> LoadNote:
    place = s.place.get(p.record) if p.record is not None else None
    return LoadNote(p.code, p.message, p.line, place, p.span, p.related)


def _duplicate_notes(s: _Session) -> Iterator[LoadNote]:
    """One note per run of consecutive lines that re-append records already written.  The
    tail of a preserved segment, re-appended once after its summary as the runtime
    relinks it, is no hazard and not counted."""
    tails = {
        b.meta.preservedSegment.tailUuid
        for b in s.boundaries
        if b.meta is not None and b.meta.preservedSegment is not None
    }
    relinked: set[int] = set()
    run: list[tuple[int, int, bool]] = []

    def flush() -> LoadNote:
        kept_lines = [s.lines[kept] for kept, _, _ in run]
        differ = sum(1 for _, _, d in run if d)
        first, last = run[0][1], run[-1][1]
        where = f"Line {first}" if first == last else f"Lines {first}-{last}"
        what = (
            f"{where} re-append{'s' if first == last else ''} {len(run)} record(s) already "
            f"written with the same uuid (first written at line{'s' if len(run) > 1 else ''} "
            f"{', '.join(map(str, kept_lines[:5]))}{', ...' if len(kept_lines) > 5 else ''}); "
            "the first copy is read and the copies are not shown again"
        )
        if differ:
            what += f"; {differ} of the copies differ from the first"
        kept = run[0][0]
        return LoadNote(
            "duplicate-record",
            what + ".",
            first,
            s.place.get(kept),
            None,
            tuple(kept_lines[:20]),
        )

    for copy in s.copies:
        kept = copy[0]
        if s.uuids[kept] in tails and kept not in relinked:
            relinked.add(kept)
            continue
        if run and copy[1] != run[-1][1] + 1:
            yield flush()
            run = []
        run.append(copy)
    if run:
        yield flush()


def _first_prompt(s: _Session, live: list[int], folds: list[list[int] | None]) -> str | None:
    """The first thing the user typed: the first user record of the expansion that is text."""
    first = next((f for f in folds if f), live)
    candidates = [r for r in sorted(first or live)[:200] if s.types[r] == "user"]
    for r in candidates[:20]:
        if r in s.summary:
            continue
        try:
            record = lines.decode_record(
                bytes(s.data[s.starts[r] : s.ends[r]]), s.source, s.lines[r]
            )
        except InputError:
            return None
        if record.get("isMeta") is True:
            continue
        shown = view(record)
        if shown["role"] == "user" and shown["content"]:
            text: str = shown["content"]
            return text
    return None


def _microcompactions(s: _Session) -> Iterator[Microcompaction]:
    if not s.micro:
        return
    answers: dict[str, tuple[Container, int]] = {}
    for _, meta, _ in s.micro:
        for wanted in (meta.compactedToolIds or ()) if meta is not None else ():
            placed = (s.place.get(r) for r in s.answers.get(wanted, ()))
            found = next((p for p in placed if p is not None), None)
            if found is not None:
                answers[wanted] = found
    for r, meta, timestamp in s.micro:
        ids = tuple(meta.compactedToolIds or ()) if meta is not None else ()
        yield Microcompaction(
            line=s.lines[r],
            timestamp=timestamp,
            trigger=meta.trigger if meta is not None else None,
            pre_tokens=_whole(meta.preTokens) if meta is not None else None,
            tokens_saved=_whole(meta.tokensSaved) if meta is not None else None,
            tool_use_ids=ids,
            cleared=tuple(answers[i] for i in ids if i in answers),
            missing=tuple(i for i in ids if i not in answers),
        )


def _whole(value: int | float | None) -> int | None:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def load(data: Any, source: str) -> Checkpoint:
    """A Claude Code session from its (decompressed) bytes."""
    session = _Session(data, source)
    session.read()
    return _build(session)


# ---------------------------------------------------------------------- the view


def _result_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str)
        )
    return "" if content is None else lines.text_of(content)


def view(record: Message) -> Message:
    """A record as foldctl shows and searches it: ``role`` (``tool`` for a record that only
    answers tool calls); ``content``, the text of its text blocks and tool results (a system
    record's own ``content``); ``toolCalls`` for its ``tool_use`` blocks; ``toolCallId``
    (``toolCallIds``) and ``isError`` for tool results; ``thinkingBlocks``; then the rest of
    the record in three fields, so that nothing it holds is left out: ``uuid``, ``message``
    (the API message's other fields: id, model, stop_reason, usage, and blocks of other
    kinds), ``record`` (every other field of the record but ``toolUseResult``, which keeps
    its own)."""
    message = record.get("message")
    kind = record.get("type")
    if isinstance(message, dict):
        role = message.get("role", kind)
        content = message.get("content")
    else:
        role, content = kind, record.get("content")
    texts: list[str] = []
    calls: list[dict[str, Any]] = []
    answered: list[Any] = []
    thinking: list[Any] = []
    others: list[Any] = []
    error = False
    results = 0
    if isinstance(content, str):
        texts.append(content)
    elif isinstance(content, list):
        for block in content:
            kind_of = block.get("type") if isinstance(block, dict) else None
            if kind_of == "text" and isinstance(block.get("text"), str):
                texts.append(block["text"])
            elif kind_of == "tool_use":
                calls.append(
                    {"id": block.get("id"), "name": block.get("name"), "args": block.get("input")}
                )
            elif kind_of == "tool_result":
                results += 1
                answered.append(block.get("tool_use_id"))
                texts.append(_result_text(block.get("content")))
                error = error or block.get("is_error") is True
            elif kind_of in ("thinking", "redacted_thinking"):
                thinking.append(block)
            else:
                others.append(block)
    elif content is not None:
        others.append(content)
    if results and results == len(content or ()):
        role = "tool"
    shown: dict[str, Any] = {
        "role": role if isinstance(role, str) else lines.text_of(role),
        "content": "\n".join(texts),
    }
    if calls:
        shown["toolCalls"] = calls
    if len(answered) == 1:
        shown["toolCallId"] = answered[0]
    elif answered:
        shown["toolCallIds"] = answered
    if error:
        shown["isError"] = True
    if thinking:
        shown["thinkingBlocks"] = thinking
    if "uuid" in record:
        shown["uuid"] = record["uuid"]
    api: dict[str, Any] = {}
    if isinstance(message, dict):
        api = {k: v for k, v in message.items() if k not in ("role", "content")}
    elif message is not None:
        api = {"message": message}
    if others:
        api["content"] = others
    if api:
        shown["message"] = api
    rest = {
        k: v
        for k, v in record.items()
        if k not in ("uuid", "message", "toolUseResult")
        and not (k == "content" and not isinstance(message, dict))
    }
    if rest:
        shown["record"] = rest
    if "toolUseResult" in record:
        shown["toolUseResult"] = record["toolUseResult"]
    return shown


summary_text: Final = after_preamble(view, SUMMARY_PREFIX)


FORMAT: Final = InputFormat(
    name="claude-code",
    title="Claude Code session",
    summary="a Claude Code session (~/.claude/projects/<project>/<session>.jsonl; subagents in "
    "<session>/subagents/agent-*.jsonl)",
    join="uuid-chain",
    suffixes=(".jsonl", ".jsonl.gz"),
    sniff=_sniff,
    load=load,
    view=view,
    summary_text=summary_text,
    place=lines.line_place,
    span_place=lines.span_line_place,
    not_recorded=("model", "iteration", "removedStageIds", "fingerprint"),
)
