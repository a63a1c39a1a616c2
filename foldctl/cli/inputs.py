"""SOURCE arguments as the library takes them: ``-`` is standard input's bytes, read once."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import foldctl
from foldctl.cli.app import state
from foldctl.cli.output import say
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
    unread = conversation.unread_lines
    if unread:
        more = f" (and {len(unread) - 1} more line(s))" if len(unread) > 1 else ""
        say(
            f"{conversation.source} is partial: line {unread[0]} is not JSON{more}; the rest "
            "of the file was read and is shown (foldctl verify lists every such line)"
        )
    return conversation
