"""``sessions``: the sessions of a SQLite session store, one row each."""

from __future__ import annotations

import os
from typing import Annotated

import typer

import foldctl
from foldctl.cli.app import command
from foldctl.cli.options import NoRedactOpt, Output, SchemeOpt, refuse_redact
from foldctl.cli.output import emit


@command()
def sessions(
    store: Annotated[
        str,
        typer.Argument(
            metavar="STORE.db",
            help="A SQLite session store (or STORE.db#SESSION_ID for one session).",
        ),
    ],
    out: Output,
    scheme: SchemeOpt = None,
    redact: NoRedactOpt = False,
) -> None:
    """The sessions in a SQLite store: id, format, savedAt, messages, owner, folds, findings.

    Two counts: messageCount is what the store recorded (the user and assistant
    messages with text in the live window); liveMessages is every message of the live
    window the envelope holds (summary frames and tool results included).

    Each JSON row carries `source` (STORE.db#SESSION_ID), ready to pass back
    to any foldctl command.  The store is read in place and never changed.
    Exit 2 when any session cannot be read (its row is still listed, with `error`).
    """
    refuse_redact(
        redact,
        "sessions",
        "it lists sessions (ids, times, counts), never message text; redact what you read "
        "from one: foldctl expand STORE.db#SESSION_ID --redact",
    )
    if os.path.isdir(store):  # the library lists a folder's session files; the command not yet
        raise foldctl.InputError(
            store,
            "",
            "is a directory; expected a SQLite session store (the Claude Code sessions and "
            "Codex rollouts of a folder are listed by foldctl.sessions(FOLDER) in the library)",
        )
    listing = foldctl.sessions(store, scheme=scheme)
    emit("sessions", out, listing)
    failure = listing.failure()
    if failure is not None:
        raise failure
