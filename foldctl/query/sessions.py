"""The sessions of a SQLite store, one row each, with what each one's audit found."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from foldctl.audit.checks import audit
from foldctl.audit.codes import SEVERITIES
from foldctl.errors import FoldctlError, InputError
from foldctl.fingerprint import require_scheme
from foldctl.graph.open import join
from foldctl.graph.resolve import FoldGraph
from foldctl.load.checkpoint import checkpoint_of
from foldctl.query.records import Table
from foldctl.sources.store import read_sessions, saved_at_ms
from foldctl.times import iso_utc

#: The columns of the text table.
TEXT_COLUMNS: Final = (
    "session",
    "kind",
    "savedAt",
    "messageCount",
    "liveMessages",
    "owner",
    "folds",
    "findings",
    "worst",
)
#: Every key of a row: the columns of CSV and TSV.
ALL_COLUMNS: Final = (
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


@dataclass(frozen=True, slots=True)
class SessionListing(Table):
    """The rows of ``sessions``, and the sessions that could not be read (each row is
    still listed, with ``error``)."""

    errors: tuple[InputError, ...] = ()
    store: str = ""  # the store's path

    def failure(self) -> InputError | None:
        """One error for the sessions that could not be read, if any."""
        return listing_error(self.store, self.errors) if self.errors else None


def sessions(path: str, scheme: str | None = None, only: str | None = None) -> SessionListing:
    """One row per session of the store at ``path`` (or the one ``only`` names).

    Every session gets a row; one whose envelope cannot be read keeps its
    stored columns, null where the envelope was needed, and ``error``.
    """
    if scheme is not None:
        require_scheme(scheme)
    rows: list[dict[str, Any]] = []
    errors: list[InputError] = []
    for info, envelope in read_sessions(path, only):
        ms = saved_at_ms(info.saved_at)
        row: dict[str, Any] = {
            "source": info.source,
            "session": info.session_id,
            "format": info.format,
            "kind": info.kind,
            "savedAt": iso_utc(ms) if ms is not None else info.saved_at,
            "savedAtMs": ms,
            "messageCount": info.message_count,
            "owner": info.owner,
            "runId": None,
            "liveMessages": None,
            "folds": None,
            "scheme": None,
            "findings": None,
            "worst": None,
            "error": None,
        }
        try:
            if isinstance(envelope, InputError):
                raise envelope
            checkpoint = checkpoint_of(info, envelope)
            graph, _ = join(checkpoint, scheme)
            findings = audit(graph)
        except InputError as e:
            row["error"] = str(e)
            errors.append(e)
            rows.append(row)
            continue
        row["runId"] = checkpoint.run_id
        row["liveMessages"] = len(checkpoint.history)
        row["folds"] = len(checkpoint.spans)
        row["scheme"] = graph.scheme
        severities = {finding.severity for finding in findings}
        row["findings"] = len(findings)
        row["worst"] = next((s for s in SEVERITIES if s in severities), None)
        rows.append(row)
    text = TEXT_COLUMNS + (("error",) if errors else ())
    return SessionListing(rows, ALL_COLUMNS, text, COUNTS_NOTE, errors=tuple(errors), store=path)


#: What the two counts of the text table are, under it.
COUNTS_NOTE: Final = (
    "messageCount: the user and assistant messages with text in the live window, as the "
    "store recorded them; liveMessages: every message of the live window (history) in "
    "the envelope, summary frames and tool results included"
)


def listing_error(path: str, errors: tuple[InputError, ...]) -> InputError:
    """One error for a listing in which some sessions could not be read."""
    if len(errors) == 1:
        return errors[0]
    return InputError(
        path,
        "",
        f"{len(errors)} sessions could not be read (see the `error` column); the first: "
        f"{errors[0]}",
    )


def checkpoint_row(source: str, session: str, graph: FoldGraph) -> dict[str, Any]:
    """The row of a checkpoint file, in the columns of a store's sessions: what the
    file records (its run, its time, its folds; no store columns), and its audit."""
    checkpoint = graph.checkpoint
    findings = audit(graph)
    severities = {finding.severity for finding in findings}
    return {
        "source": source,
        "session": session,
        "format": None,
        "kind": checkpoint.shape,
        "savedAt": iso_utc(checkpoint.checkpointed_at),
        "savedAtMs": checkpoint.checkpointed_at,
        "messageCount": None,
        "owner": None,
        "runId": checkpoint.run_id,
        "liveMessages": len(checkpoint.history),
        "folds": len(checkpoint.spans),
        "scheme": graph.scheme,
        "findings": len(findings),
        "worst": next((s for s in SEVERITIES if s in severities), None),
        "error": None,
    }


def unreadable_row(source: str, session: str, error: FoldctlError) -> dict[str, Any]:
    """The row of a session that could not be read: its name and the error."""
    row: dict[str, Any] = dict.fromkeys(ALL_COLUMNS)
    row.update(source=source, session=session, kind="unreadable", error=str(error))
    return row
