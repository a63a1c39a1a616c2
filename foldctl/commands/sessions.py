"""``sessions``: the sessions of a SQLite session store, one row each."""

from __future__ import annotations

from typing import Annotated

import typer

from foldctl.app import TABLE_FORMATS, ColorOpt, FormatOpt, SchemeOpt, app, check_format, emit_table
from foldctl.render import OutputFormat

#: Columns of the text table.
TEXT_COLUMNS = (
    "session",
    "kind",
    "savedAt",
    "messageCount",
    "owner",
    "folds",
    "findings",
    "worst",
)
#: Columns of CSV and TSV: every key of a row.
ALL_COLUMNS = (
    "source",
    "session",
    "format",
    "kind",
    "savedAt",
    "savedAtMs",
    "messageCount",
    "owner",
    "runId",
    "liveMessages",
    "folds",
    "scheme",
    "findings",
    "worst",
    "error",
)


@app.command()
def sessions(
    store: Annotated[
        str,
        typer.Argument(
            metavar="STORE.db",
            help="A SQLite session store (or STORE.db#SESSION_ID for one session).",
        ),
    ],
    fmt: FormatOpt = OutputFormat.text,
    color: ColorOpt = "auto",
    scheme: SchemeOpt = None,
) -> None:
    """The sessions in a SQLite store: id, format, savedAt, messages, owner, folds, findings.

    Each JSON row carries `source` (STORE.db#SESSION_ID), ready to pass back
    to any foldctl command.  The store is read in place and never changed.
    Exit 2 when any session cannot be read (its row is still listed, with `error`).
    """
    from foldctl.store import session_rows, sessions_error, store_path

    check_format(fmt, TABLE_FORMATS, "sessions")
    target = store_path(store)
    rows, errors = session_rows(target.path, scheme, target.session_id)
    columns = list(TEXT_COLUMNS if fmt is OutputFormat.text else ALL_COLUMNS)
    if fmt is OutputFormat.text and errors:
        columns.append("error")
    emit_table(rows, columns, fmt, color)
    if errors:
        raise sessions_error(target.path, errors)
