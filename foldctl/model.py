"""Plain data: the loaded checkpoint and its folded spans.

Messages stay the dicts they were stored as, so every field (known or not)
is carried through to machine output verbatim.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

Message = dict[str, Any]
Retention = Literal["conversation", "discard"]
Shape = Literal["checkpoint", "conversation-v1", "flowchart-v1"]

FRAME_PREFIX = "[compacted history"


def looks_like_frame(message: Message) -> bool:
    """Content opens with the frame label, whatever the role."""
    content = message.get("content")
    return isinstance(content, str) and content.startswith(FRAME_PREFIX)


def is_frame(message: Message) -> bool:
    """A frame as the reference runtime defines it: a ``user`` message with the label."""
    return message.get("role") == "user" and looks_like_frame(message)


def frame_indices(messages: Sequence[Message]) -> Sequence[int]:
    """Indices of the frames among ``messages`` (known in advance for lazily read spans)."""
    known: Sequence[int] | None = getattr(messages, "frame_indices", None)
    if known is not None:
        return known
    return [i for i, m in enumerate(messages) if is_frame(m)]


@dataclass(frozen=True, slots=True)
class Span:
    """One entry of ``folded``: a fold and, when retained, what it folded."""

    index: int
    fingerprint: str
    run_id: str
    iteration: int
    folded_at_ms: int | float
    model: str
    message_count: int
    removed_stage_ids: tuple[str, ...]
    retained: Retention
    #: a list, or lazily decoded raw JSON (fastload); left out of the repr, as is ``raw``
    messages: Sequence[Message] | None = field(repr=False)
    #: the stored JSON object, when it holds more than the fields above (the exact path
    #: keeps it); None when it holds exactly them (the fast path): see :meth:`stored`
    raw: dict[str, Any] | None = field(repr=False)

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
            "removedStageIds": list(self.removed_stage_ids),
            "retained": self.retained,
        }
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


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """A conversation checkpoint, as found in one source."""

    source: str
    shape: Shape
    run_id: str
    version: int
    history: list[Message] = field(repr=False)
    spans: tuple[Span, ...] = field(repr=False)
    has_folded: bool  # ``folded`` key present (absent = never folded, or stored before 8.2)
    last_completed_iteration: int | float
    original_input: str
    checkpointed_at: int | float
    raw: dict[str, Any] = field(repr=False)
    #: every retained message was read and checked when loaded (the exact path); False
    #: when they are decoded only as a command reads them (the fast path)
    messages_checked: bool = True
    #: the bytes it was loaded from, when loaded from bytes (not from a decoded document)
    origin: Origin = field(default_factory=Origin, repr=False, compare=False)
