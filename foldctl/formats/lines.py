"""What the formats of one JSON record a line share: reading the start of a file, walking
its lines, a container of records kept as slices of the file and decoded when read, and
the place of a record in an error (``line 57``).

A session file is read once: each line's bytes are handed to a typed msgspec decoder
that reads only the few fields the structure needs and skips the rest, and what is kept
of each record is where it lies in the file (offsets and its line number, in compact
arrays).  A record is decoded in full only when a command reads it
(:class:`Records`), so memory does not grow with what the records hold.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final, TypeVar, overload

import msgspec
import orjson

from foldctl import jsoncodec
from foldctl.errors import InputError
from foldctl.formats.base import Head
from foldctl.load.exact import type_name
from foldctl.load.fast import has_long_digit_run
from foldctl.model import (
    Checkpoint,
    Container,
    LazyMessages,
    LoadNote,
    Message,
    Microcompaction,
    Origin,
    SessionFacts,
    Shape,
    Span,
)

_T = TypeVar("_T")

#: How far into a file the recognisers look for its first JSON line.
HEAD_BYTES: Final = 8 << 20
#: How many lines they try before giving up (lines that are not JSON are passed over).
HEAD_LINES: Final = 16
_SPACE: Final = b" \t\r"


def line_spans(
    data: Any, start: int = 0, stop: int | None = None
) -> Iterator[tuple[int, int, int]]:
    """``(line number, start, end)`` of every line that is not blank, 1-based numbers, the
    end before the line break (and any trailing ``\\r`` or spaces)."""
    end_of_data = len(data) if stop is None else stop
    number = 0
    position = start
    find = data.find
    while position < end_of_data:
        number += 1
        nl = find(b"\n", position, end_of_data)
        end = end_of_data if nl < 0 else nl
        first = position
        while first < end and data[first] in _SPACE:
            first += 1
        last = end
        while last > first and data[last - 1] in _SPACE:
            last -= 1
        if last > first:
            yield number, first, last
        position = end + 1


def read_head(data: Any) -> Head:
    """The start of a file as the recognisers read it (:class:`~foldctl.formats.base.Head`)."""
    window = min(len(data), HEAD_BYTES)
    first: dict[str, Any] | None = None
    first_line_whole = False
    tried = 0
    more = False
    for number, start, end in line_spans(data, 0, window):
        if first is not None:
            more = True
            break
        tried += 1
        if tried > HEAD_LINES:
            break
        try:
            value = orjson.loads(memoryview(data)[start:end])
        except orjson.JSONDecodeError:
            if number == 1 and end == window and window < len(data):
                break  # one long first line, cut by the window: a JSON document
            continue
        if number == 1:
            first_line_whole = True
        if isinstance(value, dict):
            first = value
    return Head(first, first_line_whole and more)


_RUN: Final = 19
#: The file is looked at in slices this long (overlapping by a run's length): small enough
#: for the allocator to reuse one buffer, where slices of megabytes each fault in fresh
#: pages (4 MiB slices: 50,000 page faults over 100 MB, the scan 85-135 ms; 64 KiB: none,
#: 70-75 ms).
_CHUNK: Final = (1 << 16) - _RUN


class Digits:
    """Whether a file has 19 digits in a row anywhere (which an integer beyond 64 bits
    needs), found once, when a record is first decoded, for every container of the file:
    then only the records of a file that has such a run are looked at one by one."""

    __slots__ = ("_data", "_found")

    def __init__(self, data: Any) -> None:
        self._data = data
        self._found: bool | None = None

    @property
    def found(self) -> bool | None:
        """What :meth:`anywhere` answered, or None before it was asked."""
        return self._found

    def anywhere(self) -> bool:
        if self._found is None:
            data, self._data = self._data, None  # the answer is all that is kept
            # In chunks, overlapping by a run's length, so a mapped file is not copied whole.
            self._found = any(
                has_long_digit_run(data[at : at + _CHUNK + _RUN])
                for at in range(0, max(len(data), 1), _CHUNK)
            )
        return self._found

    def __getstate__(self) -> bool:
        return self.anywhere()

    def __setstate__(self, state: bool) -> None:
        self._data, self._found = None, state


def decode_record(
    raw: bytes | memoryview, source: str, line: int, digits: Digits | None = None
) -> dict[str, Any]:
    """One line's record, decoded in full with the rules of the rest of foldctl (lone
    surrogates kept, numbers a double cannot hold refused, nesting bounded); an error
    names the line.  ``digits`` says whether the file may hold a too-wide integer at all."""
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        value = _strict(raw, source, line)
    else:
        if (
            type(value) is dict
            and (digits is None or digits.anywhere())
            and has_long_digit_run(raw)
            and jsoncodec.has_wide_float(value)
        ):
            value = _strict(raw, source, line)
    if type(value) is not dict:
        raise InputError(
            source, f"line {line}", f"expected a JSON object a line, found {type_name(value)}"
        )
    return value


def decode_line(decode: Callable[[Any], _T], raw: Any, source: str, line: int) -> _T:
    """``decode(raw)`` with a typed decoder, for one line of ``source``.  The decoder
    recurses on the Python stack, so a line nested near the interpreter's recursion limit
    is refused naming the line when it is deeper than foldctl reads anywhere
    (:data:`~foldctl.jsoncodec.MAX_DEPTH`), and otherwise decoded again with the limit
    raised, as the exact reader does: the same verdict as every other reader."""
    try:
        return decode(raw)
    except RecursionError:
        pass
    except msgspec.ValidationError:
        # The typed decoder stops at the first value of the wrong type ("[1,2" is "an
        # array"): a line that is not JSON at all is told as such, not as another shape.
        why = json_error(raw)
        if why is not None:
            raise msgspec.DecodeError(why) from None
        raise
    decode_record(bytes(raw), source, line)  # a line too deep: its error, naming the line
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * jsoncodec.MAX_DEPTH))
    try:
        return decode(raw)
    finally:
        sys.setrecursionlimit(limit)


def _strict(raw: bytes | memoryview, source: str, line: int) -> Any:
    try:
        return jsoncodec.loads(raw if isinstance(raw, bytes) else bytes(raw), source)
    except InputError as e:
        where = f"line {line}" + (f", {e.where} of the line" if e.where.startswith("byte") else "")
        raise InputError(source, where, e.what) from None


def json_error(raw: Any) -> str | None:
    """Why ``raw`` is not JSON to foldctl's reader, or None when it is (of any shape)."""
    try:
        jsoncodec.loads(bytes(raw), "")
    except InputError as e:
        return e.what.removeprefix("not valid JSON: ")
    return None


def not_json(data: Any, start: int, end: int) -> str:
    """Why a line is not a record: what the JSON reader says of it."""
    why = json_error(data[start:end])
    if why is not None:
        return why
    value = jsoncodec.loads(bytes(data[start:end]), "")
    return f"expected a JSON object, found {type_name(value)}"


class Records(LazyMessages):
    """A container's records (the live window, or one fold's originals), each kept as
    where it lies in the file and decoded when read.

    ``lines`` are the records' 1-based line numbers; ``frame_indices`` which of them are
    frames (summaries the format links to a fold).  Nothing is cached, so streaming
    over a large session holds one record at a time.
    """

    __slots__ = ("_data", "_digits", "_ends", "_source", "_starts", "frame_indices", "lines")

    def __init__(
        self,
        data: Any,
        starts: array[int],
        ends: array[int],
        lines: array[int],
        source: str,
        frame_indices: tuple[int, ...] = (),
        digits: Digits | None = None,
    ) -> None:
        self._digits = digits
        self._data = data
        self._starts = starts
        self._ends = ends
        self.lines = lines
        self._source = source
        self.frame_indices = frame_indices

    def raw_json(self, index: int) -> bytes:
        """Record ``index`` as it is stored: its line's bytes, not decoded."""
        return bytes(self._data[self._starts[index] : self._ends[index]])

    def stored_size(self) -> int:
        """The bytes of JSON these records hold as stored."""
        return sum(self._ends) - sum(self._starts)

    def __len__(self) -> int:
        return len(self._starts)

    @overload
    def __getitem__(self, index: int) -> Message: ...

    @overload
    def __getitem__(self, index: slice) -> list[Message]: ...

    def __getitem__(self, index: int | slice) -> Message | list[Message]:
        # The walk reads every record by a valid index: that one goes straight to _at().
        if type(index) is int and 0 <= index < len(self._starts):
            return self._at(index)
        return super().__getitem__(index)

    def _at(self, index: int) -> Message:
        # decoded where it lies (a view of the file's bytes), not from a copy of its line
        raw = memoryview(self._data)[self._starts[index] : self._ends[index]]
        digits = self._digits
        if digits is not None and digits.found is False:
            # The common case, as decode_record() would read it: an object, in a file
            # with no integer too wide for a double.
            try:
                value = orjson.loads(raw)
            except orjson.JSONDecodeError:
                pass
            else:
                if type(value) is dict:
                    return value
        return decode_record(raw, self._source, self.lines[index], digits)

    def __getstate__(self) -> tuple[Any, ...]:
        # The file's bytes (perhaps a memory map) are not pickled: the records' own are.
        blob = b"".join(self.raw_json(i) for i in range(len(self)))
        ends = array("q")
        total = 0
        for i in range(len(self)):
            total += self._ends[i] - self._starts[i]
            ends.append(total)
        starts = array("q", [0, *ends[:-1]]) if len(ends) else array("q")
        return (blob, starts, ends, self.lines, self._source, self.frame_indices, self._digits)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        (
            self._data,
            self._starts,
            self._ends,
            self.lines,
            self._source,
            self.frame_indices,
            self._digits,
        ) = state

    def __repr__(self) -> str:
        return f"<Records {self._source}: {len(self)} records>"


def records(
    data: Any,
    source: str,
    chosen: Sequence[int],
    starts: Sequence[int],
    ends: Sequence[int],
    lines: Sequence[int],
    frames: tuple[int, ...] = (),
    digits: Digits | None = None,
) -> Records:
    """The records numbered ``chosen`` (indices into the file's record arrays), in order;
    ``digits`` the file's :class:`Digits`, shared by its containers."""
    return Records(
        data,
        array("q", map(starts.__getitem__, chosen)),
        array("q", map(ends.__getitem__, chosen)),
        array("l", map(lines.__getitem__, chosen)),
        source,
        frames,
        digits,
    )


def line_place(checkpoint: Checkpoint, container: Container, index: int, key: str | None) -> str:
    """``line N`` of a record (``line N: message.content`` for one of its fields)."""
    messages = (
        checkpoint.history if container is None else checkpoint.spans[container].messages or ()
    )
    lines: Sequence[int] | None = getattr(messages, "lines", None)
    where = f"line {lines[index]}" if lines is not None and index < len(lines) else "line ?"
    return f"{where}: {key}" if key else where


def span_line_place(checkpoint: Checkpoint, span: int, key: str | None) -> str:
    """``line N`` of the record that made a fold (its boundary, its ``compacted`` line)."""
    line = checkpoint.spans[span].line
    where = f"line {line}" if line is not None else f"span {span}"
    return f"{where}: {key}" if key else where


def text_of(value: Any) -> str:
    """A value as text: a string as it is, anything else as compact JSON."""
    return value if isinstance(value, str) else jsoncodec.as_text(value)


def session_checkpoint(
    source: str,
    data: Any,
    *,
    format: str,
    shape: Shape,
    history: Sequence[Message],
    spans: Sequence[Span],
    links: dict[tuple[Container, int], int],
    notes: list[LoadNote],
    facts: SessionFacts,
    original_input: str | None,
    microcompactions: tuple[Microcompaction, ...] = (),
) -> Checkpoint:
    """The checkpoint of a session file: its live window and folds, the loader's links and
    notes (in line order), and what it says about itself; what a session file does not
    record (an iteration, a checkpoint version) is None."""
    notes.sort(key=lambda note: note.line or 0)
    return Checkpoint(
        source=source,
        shape=shape,
        run_id=facts.session_id,
        version=facts.runtime_version,
        history=history,
        spans=tuple(spans),
        has_folded=any(span.kind == "fold" for span in spans),
        last_completed_iteration=None,
        original_input=original_input,
        checkpointed_at=facts.last_ms,
        raw={},
        messages_checked=False,
        origin=Origin(data),
        format=format,
        links=links,
        notes=tuple(notes),
        microcompactions=microcompactions,
        session=facts,
    )
