"""``sessions``: the sessions of a SQLite session store, one row each."""

from __future__ import annotations

from typing import Annotated

import typer

from foldctl.cli.app import ColorOpt, FormatOpt, SchemeOpt, app, emit


@app.command()
def sessions(
    store: Annotated[
        str,
        typer.Argument(
            metavar="STORE.db",
            help="A SQLite session store (or STORE.db#SESSION_ID for one session).",
        ),
    ],
    fmt: FormatOpt = "text",
    color: ColorOpt = "auto",
    scheme: SchemeOpt = None,
) -> None:
    """The sessions in a SQLite store: id, format, savedAt, messages, owner, folds, findings.

    Each JSON row carries `source` (STORE.db#SESSION_ID), ready to pass back
    to any foldctl command.  The store is read in place and never changed.
    Exit 2 when any session cannot be read (its row is still listed, with `error`).
    """
    from foldctl.query.sessions import listing_error
    from foldctl.query.sessions import sessions as list_sessions
    from foldctl.sources.store import store_path

    target = store_path(store)
    listing = list_sessions(target.path, scheme, target.session_id)
    emit("sessions", fmt, listing, color)
    if listing.errors:
        raise listing_error(target.path, listing.errors)
