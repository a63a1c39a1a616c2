"""What an input format is: a name, how its bytes are recognised, how they load, how a
place in them is named, how its summaries join their originals, and how its messages are
shown and searched (its *view*)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Literal

import msgspec

from foldctl.model import Checkpoint, Container, Message

#: How a format's summaries join their originals: by content fingerprint (the fingerprint
#: schemes of :mod:`foldctl.fingerprint`), by the uuid chain the runtime writes, or by
#: position in the file.  For the last two the loader gives the join
#: (:attr:`foldctl.model.Checkpoint.links`) and the fold graph uses it as it is.
Join = Literal["fingerprint", "uuid-chain", "position"]

#: Keys of a message view beyond the record's own (see :func:`identity`).
SHOWN_KEYS: Final = ("role", "content", "toolName", "toolCalls", "toolCallId", "isError")


def identity(message: Message) -> Message:
    """The view of a format whose messages are already in the shape foldctl shows
    (agentfootprint's ``{role, content, toolName, toolCalls, ...}``): the message itself."""
    return message


def after_preamble(view: Callable[[Message], Message], preamble: str) -> Callable[[Message], str]:
    """A format's ``summary_text``: a frame's text as its ``view`` shows it, less the
    ``preamble`` the runtime writes before the summarizer's words (and the line break)."""

    def summary_text(frame: Message) -> str:
        text: str = view(frame)["content"]
        return text[len(preamble) :].lstrip("\n") if text.startswith(preamble) else text

    return summary_text


class Head(msgspec.Struct, frozen=True):
    """The start of a file, read once for every format's recogniser: the first line that is
    a JSON object, and whether the file is one JSON value a line."""

    #: the first line (within the first lines) that holds a JSON object, decoded; None when
    #: no such line was found (a pretty-printed document, or not JSON at all)
    first: dict[str, Any] | None
    #: the first line holds one whole JSON value and another line follows it
    lines: bool


class InputFormat(msgspec.Struct, frozen=True):
    """One input format (a module of :mod:`foldctl.formats` holds one, as ``FORMAT``).

    ``view`` turns one of its messages (a record, verbatim) into the shape every reader of
    messages uses: ``role`` and ``content`` strings, and when the message has them
    ``toolName``, ``toolCalls`` (``[{id, name, args}]``), ``toolCallId``, ``isError``, then
    every other field of the record that the shape does not already show.  The text,
    markdown and HTML renderers, grep's fields, the claims' evidence, diff's display and
    the export's columns read messages through it; JSON and JSONL output carry the record
    itself.  For agentfootprint it is :func:`identity`.
    """

    name: str  #: as the registry, ``show`` and ``--format`` lists name it: ``claude-code``
    title: str  #: in a sentence: ``Claude Code session``
    #: what it is and where it is found, one line (docs/runtimes.md, errors)
    summary: str
    join: Join
    #: the file names a directory scan takes for it (gzip too): ``.jsonl``, ``.jsonl.gz``
    suffixes: tuple[str, ...]
    #: whether the start of a file is this format's (never by the file's name alone)
    sniff: Callable[[Head], bool]
    #: its (decompressed) bytes to a checkpoint, or :class:`~foldctl.errors.InputError`
    load: Callable[[Any, str], Checkpoint]
    view: Callable[[Message], Message]
    #: a frame's summary as its summarizer wrote it (the runtime's own preamble left out)
    summary_text: Callable[[Message], str]
    #: where a message (or one of its fields) is, as an error or a finding names it:
    #: ``folded[3].messages[2].role``, ``line 57``, ``line 57: message.content``
    place: Callable[[Checkpoint, Container, int, str | None], str]
    #: where a span (or one of its fields) is recorded
    span_place: Callable[[Checkpoint, int, str | None], str]
    #: the span fields this format does not record (absent in JSON, "not recorded" in text)
    not_recorded: tuple[str, ...] = ()

    @property
    def shows_as_stored(self) -> bool:
        """Its messages are shown as they are stored (the view is :func:`identity`), so a
        message's stored JSON can be indexed without decoding it (claims)."""
        return self.view is identity
