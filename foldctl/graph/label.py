"""The frame label: what a summary frame states about its fold (SPEC §3)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from foldctl.model import FRAME_PREFIX

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


@dataclass(frozen=True, slots=True)
class FrameLabel:
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
