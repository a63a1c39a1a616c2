"""The fast path: decode only what the join needs, keep span messages as raw JSON.

A large checkpoint is almost all retained messages inside ``folded``.  The
join needs, of those, only each span's fields, how many messages it kept and
which of them are frames.  msgspec decodes the checkpoint in one pass into
typed structs that keep every span message as a raw JSON slice of the input
(no copy); a cheap look at the start of each slice finds the frame
candidates, and only those are decoded.  Everything else is decoded when a
command asks for it (:class:`RawMessages`), one message at a time.

The fast path accepts only the layout the reference runtime writes (every key
known, every type as expected).  Anything else — unknown keys, a wrong type,
lone surrogates in a span field, malformed JSON — makes :func:`try_load`
return ``None`` and the caller reads the file on the exact path
(:mod:`foldctl.load.exact`), which either loads it or names the problem precisely.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Annotated, Any, Final, Literal, overload

import msgspec
import orjson
from msgspec import UNSET, Raw, UnsetType

from foldctl import jsoncodec
from foldctl.errors import InputError
from foldctl.load.exact import (
    check_history,
    check_message,
    check_original_input,
    json_path,
    load_document,
    type_name,
)
from foldctl.model import Checkpoint, LazyMessages, Message, Shape, Span, is_frame

# The start of a message, as the runtime writes it, that cannot be a frame:
# role then content, both strings, and either the role is not "user" or the
# content cannot start with "[" (not even as an escape).
_NOT_A_FRAME: Final = re.compile(
    rb'\{"role":"(?:assistant|tool|system)","content":"|\{"role":"user","content":"[^\[\\]'
).match
# What, later in such a message, could still make it a frame: a second "role" or
# "content" key (the last one wins, as in JSON.parse), or an escape that could spell
# one.  A message with any of these is decoded and checked like any other.
_ROLE: Final = b'"role"'
_CONTENT: Final = b'"content"'


def _could_change(item: Raw, start: int) -> bool:
    """Whether a message's bytes from ``start`` hold a second key or an escape (substring
    searches: about three times faster than one alternation pattern)."""
    data = bytes(item)
    return (
        data.find(_ROLE, start) >= 0
        or data.find(_CONTENT, start) >= 0
        or jsoncodec.find_unicode_escape(data, start) >= 0
    )


_ROLE_KEYS: Final = re.compile(re.escape(_ROLE))
_CONTENT_KEYS: Final = re.compile(re.escape(_CONTENT))


def _one_key_each(buffer: Any, messages: int) -> bool:
    """Whether the file spells ``"role"`` and ``"content"`` exactly ``messages`` times each
    (the caller has found no ``\\u`` escape in it).  Every message holds both keys (one
    that does not is refused), so then each holds each once: nothing after a message's
    first keys can change it.  Two passes over the file (at 3-5 GB/s), instead of three
    per message."""
    return (
        len(_ROLE_KEYS.findall(buffer)) == messages
        and len(_CONTENT_KEYS.findall(buffer)) == messages
    )


# msgspec reads an integer of any size exactly; the exact path refuses one beyond 64 bits.
_Int = Annotated[int, msgspec.Meta(ge=-(2**63), le=2**63 - 1)]  # beyond: the exact path decides
_Number = _Int | float


class _Span(msgspec.Struct, forbid_unknown_fields=True):
    summaryFingerprint: str
    runId: str
    iteration: _Int
    foldedAtMs: _Number
    model: str
    messageCount: _Int
    removedStageIds: list[str]
    retained: Literal["conversation", "discard"]
    messages: list[Raw] | UnsetType = UNSET


class _Conversation(msgspec.Struct, forbid_unknown_fields=True):
    version: Literal[1]
    runId: str
    history: Raw
    lastCompletedIteration: _Number
    originalInput: Raw
    checkpointedAt: _Number
    folded: list[_Span] | UnsetType = UNSET
    identity: Raw | UnsetType = UNSET
    agent: Raw | UnsetType = UNSET
    skillCursor: Raw | UnsetType = UNSET
    failurePoint: Raw | UnsetType = UNSET


class _ConversationEnvelope(msgspec.Struct, forbid_unknown_fields=True):
    format: Literal["conversation-v1"]
    data: _Conversation
    savedAt: Raw | UnsetType = UNSET


class _PausedData(msgspec.Struct, forbid_unknown_fields=True):
    conversation: _Conversation
    checkpoint: Raw | UnsetType = UNSET
    pending: Raw | UnsetType = UNSET


class _PausedEnvelope(msgspec.Struct, forbid_unknown_fields=True):
    format: Literal["flowchart-v1"]
    data: _PausedData
    savedAt: Raw | UnsetType = UNSET


# Tried in turn; each fails at the first key it does not know, so a miss is cheap.
_DECODERS: Final = (
    msgspec.json.Decoder(_Conversation),
    msgspec.json.Decoder(_ConversationEnvelope),
    msgspec.json.Decoder(_PausedEnvelope),
)
_OPTIONAL: Final = ("identity", "agent", "skillCursor", "failurePoint")


def decode_message(raw: Raw | bytes, source: str, path: str) -> Message:
    """One message from its raw JSON, with the same rules as the exact path.

    orjson reads an integer literal beyond 64 bits as a float: a message
    holding such a float is read again strictly, which refuses the literal.
    """
    try:
        value = orjson.loads(memoryview(raw))
    except orjson.JSONDecodeError:
        value = _strict(raw, source, path)
    else:
        # Only a non-string value can hold a number; most messages have none.
        if (
            type(value) is dict
            and not all(type(v) is str for v in value.values())
            and has_long_digit_run(raw)
            and _holds_wide_float(value)
        ):
            value = _strict(raw, source, path)
    if type(value) is not dict:
        raise InputError(source, path, f"expected an object, found {type_name(value)}")
    if type(value.get("role")) is not str or type(value.get("content")) is not str:
        check_message(value, source, path)  # raises, naming the field as the exact path does
    return value


def _strict(raw: Raw | bytes, source: str, path: str) -> Any:
    try:
        return jsoncodec.loads(bytes(raw), source)
    except InputError as e:
        raise InputError(source, path, e.what) from None


_WIDE: Final = float(2**63)
# Every digit to "0", everything else to " ": a run of 19 zeros is a run of 19 digits.
_DIGITS_ONLY: Final = bytes(0x30 if 0x30 <= b <= 0x39 else 0x20 for b in range(256))
_LONG_RUN: Final = b"0" * 19


def has_long_digit_run(raw: Raw | bytes | memoryview) -> bool:
    """Whether the JSON text has 19 digits in a row: needed by any integer beyond 64 bits.

    Two C-speed passes over the bytes, much cheaper than walking the decoded value; a
    long text in windows of 64 KiB (overlapping by a run's length), so no copy of it is
    made whole.
    """
    view = memoryview(raw)
    if len(view) <= _WINDOW:
        return bytes(view).translate(_DIGITS_ONLY).find(_LONG_RUN) >= 0
    overlap = len(_LONG_RUN) - 1
    return any(
        bytes(view[at : at + _WINDOW + overlap]).translate(_DIGITS_ONLY).find(_LONG_RUN) >= 0
        for at in range(0, len(view), _WINDOW)
    )


#: 64 KiB: a window the allocator reuses (a window of megabytes faults in fresh pages each
#: time, which cost more than the scan itself).
_WINDOW: Final = 1 << 16


def _holds_wide_float(message: dict[str, Any]) -> bool:
    """Whether orjson turned a too-wide integer literal into a float somewhere in ``message``.

    Strings cannot hide a number and are skipped without a look; only the
    containers (tool calls and their arguments, say) are walked.
    """
    stack = [v for v in message.values() if type(v) is not str]
    while stack:
        value = stack.pop()
        kind = type(value)
        if kind is dict:
            stack.extend(v for v in value.values() if type(v) is not str)
        elif kind is list:
            stack.extend(v for v in value if type(v) is not str)
        elif kind is float and (value >= _WIDE or value <= -_WIDE) and value.is_integer():
            return True
    return False


class RawMessages(LazyMessages):
    """A span's retained messages, decoded one at a time when asked for
    (:class:`~foldctl.model.LazyMessages`); ``frame_indices`` says which of them are frames;
    ``escape_free`` that the file holds no ``\\u`` escape (so neither does any message's
    JSON).
    """

    __slots__ = ("_items", "_path", "_source", "_whole", "escape_free", "frame_indices")

    def __init__(
        self,
        items: list[Raw],
        frame_indices: tuple[int, ...],
        source: str,
        path: str,
        whole: Any = None,
        escape_free: bool = False,
    ) -> None:
        self._items = items
        self._source = source
        self._path = path
        self._whole = whole  # the file's bytes: a message that cannot be read gets the
        self.frame_indices = frame_indices  # exact path's verdict on the whole file
        self.escape_free = escape_free

    def raw_json(self, index: int) -> bytes:
        """Message ``index`` as it is stored: its JSON bytes, not decoded."""
        return bytes(self._items[index])

    def stored_size(self) -> int:
        """The bytes of JSON these messages hold as stored, without decoding one."""
        return sum(len(item) for item in self._items)

    def __getstate__(self) -> tuple[Any, ...]:
        # The file's bytes (perhaps a memory map) stay behind when pickled.
        return (self._items, self.frame_indices, self._source, self._path, self.escape_free)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self._items, self.frame_indices, self._source, self._path, self.escape_free = state
        self._whole = None

    def _at(self, index: int) -> Message:
        try:
            return decode_message(self._items[index], self._source, f"{self._path}[{index}]")
        except InputError as e:
            raise exact_verdict(self._whole, self._source, e) from None

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"<RawMessages {self._path}: {len(self._items)} messages>"


def _frames(items: list[Raw], source: str, path: str, one_key_each: bool) -> tuple[int, ...]:
    """Indices of the frames among raw messages, validating role and content types.

    A message in the runtime's layout whose role is not ``user``, or whose
    content does not start with ``[`` (or an escape that could be one), is
    not a frame and its role and content are strings: it is not decoded.
    ``one_key_each``: :func:`_one_key_each` holds for the file.
    """
    found: list[int] = []
    heads = list(map(_NOT_A_FRAME, items))
    if one_key_each:
        unsure = [i for i, head in enumerate(heads) if head is None]
    else:
        unsure = [
            i
            for i, (item, head) in enumerate(zip(items, heads, strict=True))
            if head is None or _could_change(item, head.end())
        ]
    for i in unsure:
        message = decode_message(items[i], source, f"{path}[{i}]")
        check_message(message, source, f"{path}[{i}]")
        if is_frame(message):
            found.append(i)
    return tuple(found)


def exact_verdict(whole: Any, source: str, error: InputError) -> InputError:
    """The error the exact path gives the whole file, so that a message the fast path
    cannot read fails every command with the same line, naming the same place, as the
    exact path would (``error`` when the file's bytes are not at hand, or the exact path
    accepts the file after all)."""
    if whole is None:
        return error
    try:
        load_document(jsoncodec.loads(whole, source), source)
    except InputError as verdict:
        return verdict
    return error


def _decode(buffer: Any) -> tuple[Shape, _Conversation] | None:
    for decoder in _DECODERS:
        try:
            document = decoder.decode(buffer)
        except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
            continue
        if isinstance(document, _Conversation):
            return "checkpoint", document
        if isinstance(document, _ConversationEnvelope):
            if not _opaque_ok(document.savedAt):
                return None
            return "conversation-v1", document.data
        assert isinstance(document, _PausedEnvelope)
        data = document.data
        if not all(_opaque_ok(v) for v in (document.savedAt, data.checkpoint, data.pending)):
            return None
        return "flowchart-v1", data.conversation
    return None


def _opaque_ok(raw: Raw | UnsetType) -> bool:
    """Whether a part foldctl keeps without reading (an envelope's ``savedAt``, a paused
    run's ``checkpoint`` and ``pending``) is JSON the exact path accepts too: valid UTF-8,
    numbers a double holds, integers of 64 bits.  When it is not, the exact path reads the
    file and refuses it, naming the byte, so no command calls such a file clean."""
    if raw is UNSET:
        return True
    try:
        value = orjson.loads(memoryview(raw))
    except orjson.JSONDecodeError:
        return False
    return not jsoncodec.has_wide_float(value)


def try_load(buffer: Any, source: str) -> Checkpoint | None:
    """The checkpoint from the fast path, or None when only the exact path can read it.

    A file the fast path finds wrong gets the exact path's verdict, word for word
    (:func:`exact_verdict`): one verdict per file, whichever path reads it.
    """
    try:
        return _fast_load(buffer, source)
    except InputError as e:
        raise exact_verdict(buffer, source, e) from None


class _StoredSpans(Sequence[dict[str, Any]]):
    """``folded`` as stored, each span's object built when read (see Span.stored)."""

    __slots__ = ("_spans",)

    def __init__(self, spans: Sequence[Span]) -> None:
        self._spans = spans

    def __len__(self) -> int:
        return len(self._spans)

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return [span.stored() for span in self._spans[index]]
        return self._spans[index].stored()


def _fast_load(buffer: Any, source: str) -> Checkpoint | None:
    decoded = _decode(buffer)
    if decoded is None:
        return None
    shape, conv = decoded
    prefix = json_path(shape)
    try:
        history = orjson.loads(memoryview(conv.history))
        original = orjson.loads(memoryview(conv.originalInput))
        optional = {
            name: orjson.loads(memoryview(value))
            for name in _OPTIONAL
            if (value := getattr(conv, name)) is not UNSET
        }
    except orjson.JSONDecodeError:
        return None
    if jsoncodec.has_wide_float([history, original, optional]):
        return None  # the exact path decides whether a long number was written
    history = check_history(history, source, prefix)
    original_message = check_original_input(original, source, prefix)
    spans: list[Span] = []
    # A run id or model repeats across thousands of spans: one string each, not one per span.
    shared: dict[str, str] = {}
    stored = sum(len(s.messages) for s in conv.folded or () if s.messages is not UNSET)
    escape_free = stored > 0 and jsoncodec.find_unicode_escape(buffer) < 0
    one_key_each = escape_free and _one_key_each(buffer, stored + len(history))
    for index, s in enumerate(conv.folded or ()):
        messages: RawMessages | None = None
        if s.messages is not UNSET:
            path = json_path(shape, f"folded[{index}].messages")
            frames = _frames(s.messages, source, path, one_key_each)
            messages = RawMessages(s.messages, frames, source, path, buffer, escape_free)
        spans.append(
            Span(
                index=index,
                fingerprint=s.summaryFingerprint,
                run_id=shared.setdefault(s.runId, s.runId),
                iteration=s.iteration,
                folded_at_ms=s.foldedAtMs,
                model=shared.setdefault(s.model, s.model),
                message_count=s.messageCount,
                removed_stage_ids=tuple(s.removedStageIds),
                retained=s.retained,
                messages=messages,
                raw=None,  # exactly the fields above (unknown fields are refused): Span.stored
            )
        )
    top: dict[str, Any] = {
        "version": conv.version,
        "runId": conv.runId,
        "history": history,
        "lastCompletedIteration": conv.lastCompletedIteration,
        "originalInput": original,
        "checkpointedAt": conv.checkpointedAt,
    }
    if conv.folded is not UNSET:
        top["folded"] = _StoredSpans(spans)
    top.update(optional)
    return Checkpoint(
        source=source,
        shape=shape,
        run_id=conv.runId,
        version=1,
        history=history,
        spans=tuple(spans),
        has_folded=conv.folded is not UNSET,
        last_completed_iteration=conv.lastCompletedIteration,
        original_input=original_message,
        checkpointed_at=conv.checkpointedAt,
        raw=top,
        messages_checked=not any(span.messages for span in spans),
    )
