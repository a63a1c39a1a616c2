"""agentfootprint checkpoints (SPEC §1-3): a JSON document, bare or in an envelope (or one
session of a SQLite store), whose summaries join their spans by content fingerprint.

Loading is the fast path (:mod:`foldctl.load.fast`) with the exact path
(:mod:`foldctl.load.exact`) behind it; a place in the file is a JSON path; a message is
shown as it is stored (the view is the identity).  The frame label (what a summary
frame states about its fold) is read here too.
"""

from __future__ import annotations

import re
from typing import Any, Final, Literal

import msgspec
from msgspec.structs import replace

from foldctl import jsoncodec
from foldctl.formats.base import Head, InputFormat, identity
from foldctl.load.exact import json_path, load_document
from foldctl.load.fast import try_load
from foldctl.model import FRAME_PREFIX, Checkpoint, Container, Message, Origin

SENTENCE_CONVERSATION: Final = (
    "The folded messages are retained verbatim with this conversation and can be produced "
    "on request."
)
SENTENCE_DISCARD: Final = (
    "The folded messages were not retained beyond the run that folded them; only this "
    "summary carries them forward."
)
SENTENCE_LEGACY: Final = "The folded messages are retained verbatim in this run's commit log."
LabelRetention = Literal["conversation", "discard", "legacy"]
_SENTENCES: Final[dict[str, LabelRetention]] = {
    SENTENCE_CONVERSATION: "conversation",
    SENTENCE_DISCARD: "discard",
    SENTENCE_LEGACY: "legacy",
}
_LABEL: Final = re.compile(
    re.escape(FRAME_PREFIX)
    + r" — (\d+) earlier message\(s\) were folded out of this window at iteration (\d+)\. "
    r"The text after this line is a SUMMARY written by (.*?); it is a claim about the "
    r"conversation, not the conversation\. ("
    + "|".join(re.escape(s) for s in _SENTENCES)
    + r")\]\n\n",
    re.DOTALL,
)
#: How much of a frame's content the label may take (models are short names).
_LABEL_MAX: Final = 1 << 16


class FrameLabel(msgspec.Struct, frozen=True):
    """What a frame's label states (SPEC §3)."""

    count: int
    iteration: int
    model: str
    retention: LabelRetention


def parse_label(content: str) -> FrameLabel | None:
    """The label of a frame, or None when it is not in the runtime's form."""
    match = _LABEL.match(content[:_LABEL_MAX])
    if match is None:
        return None
    count, iteration, model, sentence = match.groups()
    return FrameLabel(int(count), int(iteration), model, _SENTENCES[sentence])


def summary_text(content: str) -> str:
    """What the summarizer wrote: a frame's content after its label (the whole content
    when the label is not in the runtime's form)."""
    match = _LABEL.match(content[:_LABEL_MAX])
    return content if match is None else content[match.end() :]


def _sniff(head: Head) -> bool:
    """A JSON document (not one value a line), or one line that is a checkpoint or an
    envelope; anything else a JSON reader is left to refuse is this format's to name."""
    if not head.lines:
        return True
    first = head.first or {}
    return "format" in first or ("version" in first and "history" in first)


def load(data: Any, source: str) -> Checkpoint:
    """A checkpoint from its (decompressed) bytes, on the fast path when it can."""
    checkpoint = try_load(data, source)
    if checkpoint is None:
        checkpoint = load_document(jsoncodec.loads(data, source), source)
    return replace(checkpoint, origin=Origin(data))


def _summary(message: Message) -> str:
    content = message.get("content")
    return summary_text(content) if isinstance(content, str) else ""


def _place(checkpoint: Checkpoint, container: Container, index: int, key: str | None) -> str:
    base = f"history[{index}]" if container is None else f"folded[{container}].messages[{index}]"
    return json_path(checkpoint.shape, f"{base}.{key}" if key else base)


def _span_place(checkpoint: Checkpoint, span: int, key: str | None) -> str:
    return json_path(checkpoint.shape, f"folded[{span}].{key}" if key else f"folded[{span}]")


FORMAT: Final = InputFormat(
    name="agentfootprint",
    title="agentfootprint checkpoint",
    summary="a conversation checkpoint of the agentfootprint framework (JSON, bare or in an "
    "envelope, or a session of its SQLite store)",
    join="fingerprint",
    suffixes=(".json", ".json.gz"),
    sniff=_sniff,
    load=load,
    view=identity,
    summary_text=_summary,
    place=_place,
    span_place=_span_place,
)
