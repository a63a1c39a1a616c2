"""foldctl: checkpoint forensics for compacted agent conversations.

The public API is :data:`__all__`; docs/library.md shows every name at work::

    import foldctl
    cp = foldctl.open("checkpoint.json")
    for row in cp.walk():
        print(row.locator, row.message["role"])

The command line is a thin layer over these names and nothing else.  Names load on
first use, so ``import foldctl`` (and ``foldctl --version``) stay cheap; neither
imports typer nor rich.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from foldctl.version import __version__
from foldctl.version import version_line as version_line  # what --version prints

__all__ = [
    "CODES",
    "SESSION_FOLDERS",
    "SEVERITIES",
    "Checkpoint",
    "ClaimFinding",
    "ClaimsResult",
    "Conversation",
    "DiffResult",
    "Finding",
    "Fingerprints",
    "FoldFilter",
    "FoldctlError",
    "GrepQuery",
    "GrepRun",
    "Hit",
    "InputError",
    "LocateResult",
    "Overview",
    "Progress",
    "RawSource",
    "Redactor",
    "Report",
    "Row",
    "SessionFiles",
    "SessionListing",
    "Span",
    "SummaryFinding",
    "Table",
    "Transcript",
    "UsageError",
    "VerifyReport",
    "__version__",
    "check_claims",
    "diff",
    "export",
    "fingerprints",
    "grep",
    "grep_query",
    "grep_records",
    "locate",
    "one_line",
    "open",
    "redactions",
    "report",
    "schema",
    "session_folders",
    "session_sources",
    "sessions",
    "sessions_in",
    "verify",
]

#: Where each public name lives (``module:name`` when it is named otherwise there).
_HOMES = {
    "Checkpoint": "foldctl.model",
    "Span": "foldctl.model",
    "Conversation": "foldctl.api",
    "Progress": "foldctl.api",
    "check_claims": "foldctl.api",
    "diff": "foldctl.api",
    "export": "foldctl.api",
    "fingerprints": "foldctl.api",
    "grep": "foldctl.api",
    "grep_query": "foldctl.api",
    "grep_records": "foldctl.api",
    "locate": "foldctl.api",
    "open": "foldctl.api",
    "redactions": "foldctl.api",
    "report": "foldctl.api",
    "schema": "foldctl.api",
    "session_folders": "foldctl.api",
    "session_sources": "foldctl.api",
    "sessions": "foldctl.api",
    "sessions_in": "foldctl.api",
    "verify": "foldctl.api",
    "CODES": "foldctl.audit.codes",
    "SEVERITIES": "foldctl.audit.codes",
    "SESSION_FOLDERS": "foldctl.formats.registry",
    "Finding": "foldctl.audit.codes",
    "VerifyReport": "foldctl.audit.batch",
    "ClaimFinding": "foldctl.claims.check",
    "ClaimsResult": "foldctl.claims.record",
    "SummaryFinding": "foldctl.claims.record",
    "Row": "foldctl.graph.walk",
    "DiffResult": "foldctl.query.diff",
    "FoldFilter": "foldctl.graph.filters",
    "Fingerprints": "foldctl.query.fingerprints",
    "GrepQuery": "foldctl.query.grep:Query",
    "GrepRun": "foldctl.query.grep",
    "Hit": "foldctl.query.grep",
    "LocateResult": "foldctl.query.locate",
    "Overview": "foldctl.query.records",
    "Table": "foldctl.query.records",
    "Report": "foldctl.query.report",
    "SessionFiles": "foldctl.query.sessions",
    "SessionListing": "foldctl.query.sessions",
    "Transcript": "foldctl.query.transcript",
    "Redactor": "foldctl.redact.redactor",
    "RawSource": "foldctl.sources.files",
    "FoldctlError": "foldctl.errors",
    "InputError": "foldctl.errors",
    "UsageError": "foldctl.errors",
    "one_line": "foldctl.termsafe",
}

if TYPE_CHECKING:
    from foldctl.api import (
        Conversation,
        Progress,
        check_claims,
        diff,
        export,
        fingerprints,
        grep,
        grep_query,
        grep_records,
        locate,
        open,
        report,
        schema,
        session_folders,
        session_sources,
        sessions,
        sessions_in,
        verify,
    )
    from foldctl.audit.batch import VerifyReport
    from foldctl.audit.codes import CODES, SEVERITIES, Finding
    from foldctl.claims.check import ClaimFinding
    from foldctl.claims.record import ClaimsResult, SummaryFinding
    from foldctl.errors import FoldctlError, InputError, UsageError
    from foldctl.formats.registry import SESSION_FOLDERS
    from foldctl.graph.filters import FoldFilter
    from foldctl.graph.walk import Row
    from foldctl.model import Checkpoint, Span
    from foldctl.query.diff import DiffResult
    from foldctl.query.fingerprints import Fingerprints
    from foldctl.query.grep import GrepRun, Hit
    from foldctl.query.grep import Query as GrepQuery
    from foldctl.query.locate import LocateResult
    from foldctl.query.records import Overview, Table
    from foldctl.query.report import Report
    from foldctl.query.sessions import SessionFiles, SessionListing
    from foldctl.query.transcript import Transcript
    from foldctl.redact.redactor import Redactor
    from foldctl.sources.files import RawSource
    from foldctl.termsafe import one_line


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'foldctl' has no attribute {name!r}")
    module, _, attribute = home.partition(":")
    value = getattr(importlib.import_module(module), attribute or name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
