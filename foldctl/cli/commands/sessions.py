"""``sessions``: one row per session, of a SQLite session store or of the session files
(Claude Code sessions, Codex rollouts) in folders."""

from __future__ import annotations

import os
from typing import Annotated

import typer

import foldctl
from foldctl.cli.app import command
from foldctl.cli.options import NoRedactOpt, Output, SchemeOpt, Sources, refuse_redact
from foldctl.cli.output import emit, say
from foldctl.errors import UsageError


@command()
def sessions(
    paths: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[STORE.db | DIR...]",
            help="A SQLite session store (or STORE.db#SESSION_ID for one session); or folders "
            "and session files (.jsonl, .jsonl.gz) of Claude Code and Codex. None: "
            "~/.claude/projects and ~/.codex/sessions, those that exist.",
        ),
    ] = None,
    *,
    src: Sources,
    out: Output,
    scheme: SchemeOpt = None,
    redact: NoRedactOpt = False,
) -> None:
    """The sessions in a SQLite store, or the Claude Code sessions and Codex rollouts in
    folders: one row each.

    A store: id, format, savedAt, messages, owner, folds, findings.  Two counts:
    messageCount is what the store recorded (the user and assistant messages with text
    in the live window); liveMessages is every message of the live window the envelope
    holds (summary frames and tool results included).

    Folders (with no argument, ~/.claude/projects and ~/.codex/sessions): project,
    session id, format, first and last time, records, folds and bytes of each session
    file (a subagent's with its parent session); the text table ends with where it
    looked (other formats say it on standard error).

    Each JSON row carries `source` (STORE.db#SESSION_ID, or the file), ready to pass
    back to any foldctl command.  Nothing is changed.  Exit 2 when any session cannot be
    read (its row is still listed, with `error`).
    """
    refuse_redact(
        redact,
        "sessions",
        "it lists sessions (ids, times, counts), never message text; redact what you read "
        "from one: foldctl expand SOURCE --redact",
    )
    given = list(paths or ())
    store = len(given) == 1 and not os.path.isdir(given[0]) and not _session_file(given[0])
    if store:
        listing = foldctl.sessions(given[0], scheme=scheme)
        emit("sessions", out, listing)
    else:
        if any(not os.path.isdir(p) and not _session_file(p) for p in given):
            raise UsageError(
                "sessions takes one SQLite store, or folders and session files (.jsonl, "
                ".jsonl.gz); not a store among other paths"
            )
        found = foldctl.sessions(given or None, jobs=src.jobs, exclude=src.excludes())
        emit("sessions", out, found)
        if out.fmt != "text":  # the text table ends with it
            say(found.note)
    failure = listing.failure() if store else found.failure()
    if failure is not None:
        raise failure


def _session_file(path: str) -> bool:
    return path.endswith((".jsonl", ".jsonl.gz"))
