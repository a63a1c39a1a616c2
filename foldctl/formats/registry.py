"""The input formats foldctl reads, how a file is recognised, and the one call that loads
bytes through the right format.

Each format is one module of :mod:`foldctl.formats` holding ``FORMAT`` (an
:class:`~foldctl.formats.base.InputFormat`), named here once and imported on first use.
A file is recognised by its bytes (gzip already undone by :mod:`foldctl.sources.files`):
the start of the file is read once (:func:`foldctl.formats.lines.read_head`) and each
format's recogniser asked in the order below; a file none of them takes is refused,
naming what was found.  To add a runtime: write its module and add it to
:data:`FORMATS` (docs/architecture.md, "Adding an input format").
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from typing import Any, Final

from foldctl.errors import InputError, NotACheckpoint, UsageError
from foldctl.formats.base import Head, InputFormat
from foldctl.formats.lines import read_head
from foldctl.jsoncodec import is_blank
from foldctl.model import Checkpoint, Message

#: Every input format, by name, in the order their recognisers are asked: the formats of
#: one JSON record a line first, the JSON document last (it takes what is not line-delimited).
FORMATS: Final[dict[str, str]] = {
    "claude-code": "foldctl.formats.claude_code",
    "codex": "foldctl.formats.codex",
    "agentfootprint": "foldctl.formats.agentfootprint",
}
#: The format of a checkpoint built in hand or decoded already (a dict): agentfootprint's.
DEFAULT: Final = "agentfootprint"
#: Where the runtimes keep their session files (one folder a runtime): what
#: ``foldctl.sessions()`` lists and ``foldctl mcp`` serves when no folder is named.
SESSION_FOLDERS: Final = ("~/.claude/projects", "~/.codex/sessions")

_loaded: dict[str, InputFormat] = {}


def session_folders(home: str | None = None) -> list[str]:
    """The folders of :data:`SESSION_FOLDERS` that exist here, ``~`` expanded (to ``home``
    when given)."""
    found = []
    for folder in SESSION_FOLDERS:
        path = folder.replace("~", home, 1) if home is not None else os.path.expanduser(folder)
        if os.path.isdir(path):
            found.append(path)
    return found


def names() -> tuple[str, ...]:
    """Every format's name, in recognising order."""
    return tuple(FORMATS)


def get(name: str) -> InputFormat:
    """The format called ``name``, or :class:`UsageError` naming those there are."""
    found = _loaded.get(name)
    if found is not None:
        return found
    if name not in FORMATS:
        raise UsageError(f"no input format {name!r}; foldctl reads {', '.join(FORMATS)}")
    fmt: InputFormat = importlib.import_module(FORMATS[name]).FORMAT
    _loaded[name] = fmt
    return fmt


def of(checkpoint: Checkpoint) -> InputFormat:
    """The format a checkpoint was read through."""
    return get(checkpoint.format)


def view_of(checkpoint: Checkpoint) -> Callable[[Message], Message]:
    """How the messages of ``checkpoint`` are shown and searched (its format's view)."""
    return get(checkpoint.format).view


def recognise(data: Any, source: str, head: Head | None = None) -> InputFormat:
    """The format whose recogniser takes these bytes, or :class:`NotACheckpoint` naming
    what the first line holds and what foldctl reads."""
    head = read_head(data) if head is None else head
    for name in FORMATS:
        fmt = get(name)
        if fmt.sniff(head):
            return fmt
    keys = ", ".join(sorted(head.first)[:8]) if head.first else "none"
    raise NotACheckpoint(
        source,
        "line 1",
        f"one JSON object a line, the first with keys {keys}: not a format foldctl reads "
        f"(expected {', or '.join(get(n).title for n in FORMATS)})",
    )


def load(data: Any, source: str) -> Checkpoint:
    """Load (decompressed) bytes through the format that recognises them; an empty file
    is refused naming every format foldctl reads."""
    if is_blank(data):
        expected = ", ".join(get(n).title for n in FORMATS)
        raise InputError(source, "byte 0", f"the file is empty; expected one of: {expected}")
    return recognise(data, source).load(data, source)
