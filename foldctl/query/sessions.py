"""Sessions, one row each: those of a SQLite store, with what each one's audit found; and the
session files of other runtimes in a folder (Claude Code sessions, Codex rollouts)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, Final

from foldctl.audit.checks import audit
from foldctl.audit.codes import SEVERITIES
from foldctl.errors import FoldctlError, InputError, NotACheckpoint
from foldctl.fingerprint import require_scheme
from foldctl.formats.registry import SESSION_FOLDERS, session_folders
from foldctl.formats.source import checkpoint_of, load_source
from foldctl.graph.open import join
from foldctl.graph.resolve import FoldGraph
from foldctl.parallel import batch_size, map_ordered
from foldctl.query.records import Table
from foldctl.sources.files import SourceSpec, source_name
from foldctl.sources.scan import DEFAULT_EXCLUDES, scan_sources
from foldctl.sources.store import read_sessions, saved_at_ms
from foldctl.times import iso_recorded, iso_utc

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


class SessionListing(Table, frozen=True):
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
    """The row of a checkpoint file (or a session file of another runtime), in the columns
    of a store's sessions: what the file records (its run, or a session file's session
    id; its time, or a session file's last record's; its folds; no store columns), and
    its audit."""
    checkpoint = graph.checkpoint
    findings = audit(graph)
    severities = {finding.severity for finding in findings}
    return {
        "source": source,
        "session": session,
        "format": None,
        "kind": checkpoint.shape,
        "savedAt": iso_recorded(checkpoint.checkpointed_at),
        "savedAtMs": checkpoint.checkpointed_at,
        "messageCount": None,
        "owner": None,
        "runId": checkpoint.run_id,
        "liveMessages": len(checkpoint.history),
        "folds": sum(1 for span in checkpoint.spans if span.kind == "fold"),
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


# --------------------------------------------------------------------------- session files

#: The columns of the listing of session files (CSV, TSV; JSON rows hold the recorded ones).
FILE_COLUMNS: Final = (
    "source",
    "format",
    "project",
    "session",
    "parentSession",
    "agentId",
    "firstAt",
    "lastAt",
    "records",
    "folds",
    "bytes",
    "liveMessages",
    "partial",
    "error",
)
FILE_TEXT_COLUMNS: Final = (
    "project",
    "session",
    "format",
    "firstAt",
    "lastAt",
    "records",
    "folds",
    "bytes",
)


def session_row(source: SourceSpec | FoldctlError) -> dict[str, Any] | None:
    """The row of one session file (None for a file no session format recognises, or a
    checkpoint of agentfootprint's, which ``sessions STORE.db`` and ``show`` describe)."""
    if isinstance(source, FoldctlError):
        return {"source": getattr(source, "source", ""), "error": str(source)}
    name = source_name(source)
    try:
        checkpoint = load_source(source)
    except NotACheckpoint:
        return None
    except FoldctlError as e:
        return {"source": name, "error": str(e)}
    facts = checkpoint.session
    if facts is None:
        return None
    try:
        size = os.stat(name).st_size if isinstance(source, str) else len(source.data)
    except OSError:
        size = None
    project = facts.project
    if project is None and isinstance(source, str):
        project = os.path.basename(os.path.dirname(os.path.abspath(source)))
    row = {
        "source": name,
        "format": checkpoint.format,
        "project": project,
        "session": facts.session_id,
        "parentSession": facts.parent_session,
        "agentId": facts.agent_id,
        "firstAt": iso_recorded(facts.first_ms),
        "lastAt": iso_recorded(facts.last_ms),
        "records": facts.records,
        "folds": sum(1 for s in checkpoint.spans if s.kind == "fold"),
        "bytes": size,
        "liveMessages": len(checkpoint.history),
        "partial": checkpoint.partial or None,
    }
    return {k: v for k, v in row.items() if v is not None}


class SessionFiles(Table, frozen=True):
    """The session files of one or more folders: one row each (a file that cannot be read
    keeps its row, with ``error``), and the folders looked in."""

    looked_in: tuple[str, ...] = ()
    errors: tuple[FoldctlError, ...] = ()

    def failure(self) -> FoldctlError | None:
        """One error for the files that could not be searched or read, if any (each read
        that failed keeps its row, with ``error``)."""
        failed = [row["error"] for row in self.rows if "error" in row]  # errors have rows too
        if not failed:
            return None
        if len(failed) == 1 and self.errors:
            return self.errors[0]
        return InputError(
            ", ".join(self.looked_in) or "the session folders",
            "",
            f"{len(failed)} session files could not be read (see the `error` column); the "
            f"first: {failed[0]}",
        )


def session_files(
    paths: Sequence[str] | None = None,
    *,
    jobs: int | None = 1,
    excludes: Sequence[str] = DEFAULT_EXCLUDES,
) -> SessionFiles:
    """Every Claude Code session and Codex rollout under ``paths`` (folders or files; by
    default the runtimes' own folders that exist, :data:`SESSION_FOLDERS`): project,
    session id, parent session (a subagent's), first and last time, records, folds and
    bytes, in the order a directory scan finds them (``excludes`` skipped).  Each file is
    read once (in ``jobs`` worker processes); files of other formats are passed over."""
    roots = list(paths) if paths is not None else session_folders()
    found = scan_sources(roots, excludes) if roots else None
    entries: list[SourceSpec | FoldctlError] = list(found.entries) if found else []
    # A folder with no session file in it is an empty listing, not a failure (a runtime's
    # folder before its first session): the note names it.
    empty = [e for e in entries if _nothing_in(e, roots)]
    entries = [e for e in entries if not any(e is x for x in empty)]
    batch = batch_size(len(entries), jobs)
    found_rows = map_ordered(session_row, entries, jobs=jobs, on_crash=_crashed, batch=batch)
    rows = [row for row in found_rows if row is not None]
    errors = tuple(e for e in entries if isinstance(e, FoldctlError))
    where = ", ".join(roots) if roots else f"nothing ({' and '.join(SESSION_FOLDERS)} do not exist)"
    if empty:
        where += f" (no session files in {', '.join(getattr(e, 'source', '') for e in empty)})"
    return SessionFiles(
        rows, FILE_COLUMNS, FILE_TEXT_COLUMNS, f"looked in {where}", tuple(roots), errors
    )


def _nothing_in(entry: SourceSpec | FoldctlError, roots: Sequence[str]) -> bool:
    """Whether ``entry`` is the scan's word that a folder named in ``roots`` holds no file
    it reads."""
    return (
        isinstance(entry, InputError)
        and entry.source in roots
        and os.path.isdir(entry.source)
        and entry.what.startswith("no checkpoints found in this directory")
    )


def _crashed(source: SourceSpec | FoldctlError) -> dict[str, Any]:
    from foldctl.audit.batch import crashed

    name = source_name(source) if not isinstance(source, FoldctlError) else "?"
    return {"source": name, "error": str(crashed(name))}
