"""SOURCE arguments as the library takes them: ``-`` is standard input's bytes, read once."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import foldctl
from foldctl.cli.app import state
from foldctl.cli.output import partial_note
from foldctl.errors import UsageError

STDIN_NAME = "<stdin>"


def source(arg: str) -> str | foldctl.RawSource:
    """One SOURCE argument: ``-`` becomes standard input's bytes, read once."""
    if arg != "-":
        return arg
    if state["stdin_read"]:
        raise UsageError("standard input can be read only once; give - as one SOURCE at most")
    state["stdin_read"] = True
    if sys.stdin.isatty():
        sys.stderr.write("foldctl: reading a checkpoint from standard input (Ctrl-D to end)\n")
        sys.stderr.flush()
    return foldctl.RawSource(STDIN_NAME, sys.stdin.buffer.read())


def sources(args: Sequence[str]) -> list[str | foldctl.RawSource]:
    """Many SOURCE arguments (``-`` at most once)."""
    return [source(arg) for arg in args]


def opened(arg: str, scheme: str | None) -> foldctl.Conversation:
    """One SOURCE argument, loaded and joined; a session file with lines that are not JSON
    is said to be partial on standard error (its output is of the lines that were read)."""
    conversation = foldctl.open(source(arg), scheme=scheme)
    partial_note(conversation.source, conversation.unread_lines)
    return conversation
