"""Plain data: the loaded checkpoint and its folded spans.

Messages stay the dicts they were stored as, so every field (known or not)
is carried through to machine output verbatim.  Every input format
(:mod:`foldctl.formats`) loads into this one model: an agentfootprint checkpoint,
a Claude Code session and a Codex rollout alike have a live window (``history``),
folds (``spans``, oldest first) whose ``messages`` are the originals they replaced,
and frames (the summaries) that join them: by fingerprint, or, for a format that
links a summary to its originals by id or position, by :attr:`Checkpoint.links`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Literal, overload

import msgspec

Message = dict[str, Any]
Retention = Literal["conversation", "discard"]
Shape = Literal["checkpoint", "conversation-v1", "flowchart-v1", "session", "rollout"]
#: A fold, or a container of records that floats outside every fold (a rewound
#: branch, a subagent's records inside its parent's file): see :attr:`Span.kind`.
SpanKind = Literal["fold", "abandoned", "sidechain"]
#: Where messages sit: ``None`` for the live window, else the index of the span whose
#: ``messages`` hold them.
Container = int | None

FRAME_PREFIX = "[compacted history"


def repr_without(*hidden: str) -> Callable[[msgspec.Struct], str]:
    """A ``__repr__`` for a record that leaves out the fields named (messages, raw JSON,
    whole graphs: a repr in a traceback or a REPL stays one readable line)."""

    def __repr__(self: msgspec.Struct) -> str:
        shown = (f"{n}={getattr(self, n)!r}" for n in self.__struct_fields__ if n not in hidden)
        return f"{type(self).__name__}({', '.join(shown)})"

    return __repr__


def looks_like_frame(message: Message) -> bool:
    """Content opens with the frame label, whatever the role."""
    content = message.get("content")
    return isinstance(content, str) and content.startswith(FRAME_PREFIX)


def is_frame(message: Message) -> bool:
    """A frame as the reference runtime defines it: a ``user`` message with the label."""
    return message.get("role") == "user" and looks_like_frame(message)


def record_line(messages: Sequence[Message], index: int) -> int | None:
    """The 1-based line of message ``index`` in its file, for formats that store one record
    a line (None for a JSON document)."""
    lines: Sequence[int] | None = getattr(messages, "lines", None)
    return None if lines is None else int(lines[index])


def frame_indices(messages: Sequence[Message]) -> Sequence[int]:
    """Indices of the frames among ``messages`` (known in advance for lazily read spans)."""
    known: Sequence[int] | None = getattr(messages, "frame_indices", None)
    if known is not None:
        return known
    return [i for i, m in enumerate(messages) if is_frame(m)]


class LazyMessages(Sequence[Message]):
    """Messages made one at a time when asked for (decoded from stored JSON, redacted):
    a subclass says how many there are and makes message ``index`` (:meth:`_at`); indexing
    (negative indices, slices) and iteration are here.  Nothing is cached, so streaming
    over a large checkpoint holds one message at a time."""

    __slots__ = ()

    def _at(self, index: int) -> Message:
        raise NotImplementedError

    @overload
    def __getitem__(self, index: int) -> Message: ...

    @overload
    def __getitem__(self, index: slice) -> list[Message]: ...

    def __getitem__(self, index: int | slice) -> Message | list[Message]:
        if isinstance(index, slice):
            return [self._at(i) for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self._at(index)

    def __iter__(self) -> Iterator[Message]:
        for i in range(len(self)):
            yield self._at(i)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or len(other) != len(self):
            return False
        return all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]


class Span(msgspec.Struct, frozen=True):
    """One entry of ``folded``: a fold and, when retained, what it folded.

    A field the input format does not record is ``None`` (absent in JSON, "not
    recorded" in text): a Claude Code compaction records no summarizing model, no
    iteration and no stage ids; a fingerprint exists only where the format joins by one.
    """

    index: int
    fingerprint: str | None
    run_id: str | None
    iteration: int | None
    folded_at_ms: int | float | None
    model: str | None
    message_count: int
    removed_stage_ids: tuple[str, ...] | None
    retained: Retention
    #: a list, or lazily decoded raw JSON (fastload); left out of the repr, as is ``raw``
    messages: Sequence[Message] | None
    #: the stored JSON object, when it holds more than the fields above (the exact path
    #: keeps it); None when it holds exactly them (the fast path): see :meth:`stored`.
    #: For a format of one record a line: the record that made the fold (a Claude Code
    #: ``compact_boundary``, a Codex ``compacted`` line), verbatim.
    raw: dict[str, Any] | None
    #: ``fold``: a compaction.  ``abandoned`` / ``sidechain``: not a fold but records that
    #: stand in no fold and not in the live window (a rewound branch; a subagent's records
    #: in its parent's file), kept as a floating container so that they can be shown
    kind: SpanKind = "fold"
    #: the 1-based line of the record that made the fold, for a format of one record a line
    line: int | None = None
    #: in a redacted view, the span as stored: its fingerprint, run, model and stage ids are
    #: what the join, the audit and the fold filters read (:attr:`recorded`); None otherwise
    unredacted: Span | None = None

    __repr__ = repr_without("messages", "raw", "unredacted")

    @property
    def recorded(self) -> Span:
        """The span as stored: itself, or (in a redacted view) the span it was redacted
        from.  Redaction changes what is printed, never what is joined or compared."""
        return self if self.unredacted is None else self.unredacted

    def stored(self) -> dict[str, Any]:
        """The span's JSON object as stored (built from the fields when not kept: a
        checkpoint of 10,000 spans holds no second copy of each)."""
        if self.raw is not None:
            return self.raw
        out: dict[str, Any] = {
            "summaryFingerprint": self.fingerprint,
            "runId": self.run_id,
            "iteration": self.iteration,
            "foldedAtMs": self.folded_at_ms,
            "model": self.model,
            "messageCount": self.message_count,
            "removedStageIds": None
            if self.removed_stage_ids is None
            else list(self.removed_stage_ids),
            "retained": self.retained,
        }
        out = {k: v for k, v in out.items() if v is not None}  # not recorded: absent
        if self.messages is not None:
            out["messages"] = self.messages
        return out


class Origin:
    """The bytes a checkpoint was loaded from (a ``bytes`` or a memory map), kept for the
    checks that read the file as written (``duplicate-key``).  Not pickled: a
    checkpoint sent to another process leaves them behind."""

    __slots__ = ("data",)

    def __init__(self, data: Any = None) -> None:
        self.data = data

    def __reduce__(self) -> tuple[type[Origin], tuple[None]]:
        return Origin, (None,)


class LoadNote(msgspec.Struct, frozen=True):
    """Something the loader noticed while reading a format of one record a line, as plain
    data: the audit turns each into a finding of the same ``code`` (docs/findings.md).

    ``line`` is the 1-based line it is about; ``place`` the message it is about, as
    (container, index), when the record is a message; ``related`` further lines."""

    code: str
    message: str
    line: int | None = None
    place: tuple[Container, int] | None = None
    span: int | None = None
    related: tuple[int, ...] = ()


class Microcompaction(msgspec.Struct, frozen=True):
    """A Claude Code ``microcompact_boundary``: tool results cleared from the context (their
    records stay in the file).  ``cleared`` are the messages holding those results, as
    (container, index), in the order of ``tool_use_ids``; ``missing`` the ids no record
    in the file answers."""

    line: int
    timestamp: str | None
    trigger: str | None
    pre_tokens: int | None
    tokens_saved: int | None
    tool_use_ids: tuple[str, ...]
    cleared: tuple[tuple[Container, int], ...]
    missing: tuple[str, ...]


class SessionFacts(msgspec.Struct, frozen=True):
    """What a session file says about itself (formats of one record a line): the session
    id, where it ran, when, and for a subagent's transcript its parent session."""

    session_id: str | None
    project: str | None  # the working directory (Claude Code ``cwd``, Codex ``session_meta.cwd``)
    first_ms: int | float | None
    last_ms: int | float | None
    records: int  # lines that hold a JSON object
    lines: int  # every line, blank ones and those that are not JSON included
    parent_session: str | None = None
    agent_id: str | None = None
    runtime_version: str | None = None
    #: lines that carry no message, by their ``type`` (titles, file-history snapshots, ...)
    other_lines: tuple[tuple[str, int], ...] = ()


class Checkpoint(msgspec.Struct, frozen=True):
    """A conversation checkpoint, as found in one source (a checkpoint, or a session of
    another runtime read through its format: :attr:`format`)."""

    source: str
    shape: Shape
    run_id: str | None
    version: int | str | None
    history: Sequence[Message]
    spans: tuple[Span, ...]
    has_folded: bool  # ``folded`` key present (absent = never folded, or stored before 8.2)
    last_completed_iteration: int | float | None
    original_input: str | None
    checkpointed_at: int | float | None
    raw: dict[str, Any]
    #: every retained message was read and checked when loaded (the exact path); False
    #: when they are decoded only as a command reads them (the fast path)
    messages_checked: bool = True
    #: the bytes it was loaded from, when loaded from bytes (not from a decoded document)
    origin: Origin = msgspec.field(default_factory=Origin)
    #: the input format it was read through (:mod:`foldctl.formats`)
    format: str = "agentfootprint"
    #: for a format that links a summary to its originals by id or position: each frame's
    #: place (container, index) -> the span it stands for.  The join uses these instead
    #: of fingerprints; None for a format that joins by fingerprint.
    links: Mapping[tuple[Container, int], int] | None = None
    #: what the loader noticed (duplicate records, broken chains, lines that are not JSON)
    notes: tuple[LoadNote, ...] = ()
    #: Claude Code microcompactions, in file order
    microcompactions: tuple[Microcompaction, ...] = ()
    #: what a session file says about itself (None for a checkpoint)
    session: SessionFacts | None = None

    __repr__ = repr_without(
        "history", "spans", "raw", "origin", "links", "notes", "microcompactions"
    )

    @property
    def partial(self) -> bool:
        """Some lines of the file could not be read (each is a ``bad-line`` note); the rest
        was read."""
        return any(note.code == "bad-line" for note in self.notes)

    @property
    def unread_lines(self) -> tuple[int, ...]:
        """The 1-based lines of a session file that are not JSON (each a ``bad-line``
        note); empty when every line was read."""
        return tuple(n.line for n in self.notes if n.code == "bad-line" and n.line is not None)
