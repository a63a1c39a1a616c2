"""``report``'s answer: the joined checkpoint, its findings, and where its bytes came from.

Plain data that :mod:`foldctl.render.html` renders as one HTML page; the library's
:func:`foldctl.report` gathers it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from foldctl.audit.codes import Finding
from foldctl.graph.filters import NO_FILTER, FoldFilter
from foldctl.graph.resolve import FoldGraph
from foldctl.graph.walk import Replays

if TYPE_CHECKING:
    from foldctl.redact.redactor import Redactor


class Provenance(msgspec.Struct, frozen=True):
    """What the footer records: who made the report, from which bytes, when."""

    tool_version: str
    source: str  # as the checkpoint names it (``STORE.db#SESSION`` for a store)
    hashed: str  # the file whose bytes were hashed (a store's file), or ``<stdin>``
    stored_size: int  # bytes as stored (before any gzip decompression)
    stored_xxh3_128: str  # lowercase hex of xxh3-128 over those bytes
    gzip: bool
    generated_at: str  # ISO-8601 UTC


class Report(msgspec.Struct, frozen=True):
    """What ``report`` renders: the joined checkpoint, its findings and provenance."""

    graph: FoldGraph
    provenance: Provenance
    scheme_note: str = ""
    findings: tuple[Finding, ...] | None = None
    replays: Replays = "ref"
    #: the file its bytes were read from (a store's file), None for bytes in hand
    evidence: str | None = None
    #: only the folds that pass (tree, timeline, transcript; the findings already are)
    folds: FoldFilter = NO_FILTER
    #: the redactor of a redacted report (its findings, filter words and notes redacted)
    redactor: Redactor | None = None

    def unmatched(self) -> str | None:
        """With ``folds``: None when some span passes; else the line that says which filter
        no span passes and what the checkpoint holds (a span it does not have is a
        :class:`~foldctl.errors.UsageError`)."""
        spans = self.graph.plain.spans  # the stored facts (a redacted report: see below)
        self.folds.check_spans(spans)
        note = self.folds.unmatched(self.folds.facts(spans))
        if note is None or self.redactor is None:
            return note
        return self.redactor.redact_text(note, field="filter")[0]

    def __repr__(self) -> str:
        findings = "None" if self.findings is None else str(len(self.findings))
        return (
            f"Report(source={self.provenance.source!r}, findings={findings}, "
            f"generated_at={self.provenance.generated_at!r})"
        )
