"""Plain data: the loaded checkpoint and its folded spans.

Messages stay the dicts they were stored as, so every field (known or not)
is carried through to machine output verbatim.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
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
    messages: Sequence[Message] | None  # a list, or lazily decoded raw JSON (fastload)
    raw: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """A conversation checkpoint, as found in one source."""

    source: str
    shape: Shape
    run_id: str
    version: int
    history: list[Message]
    spans: tuple[Span, ...]
    has_folded: bool  # ``folded`` key present (absent = never folded, or stored before 8.2)
    last_completed_iteration: int | float
    original_input: str
    checkpointed_at: int | float
    raw: dict[str, Any]
    #: every retained message was read and checked when loaded (the exact path); False
    #: when they are decoded only as a command reads them (the fast path)
    messages_checked: bool = True
