"""The audit over many sources: each loaded, joined and audited (in worker processes when
there are several), a source that cannot be read reported as such, and the verdict
``verify`` prints with its exit status.  Plain data; the words are the renderers'.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from typing import Any

import msgspec

from foldctl.audit.checks import audit
from foldctl.audit.codes import SEVERITIES, UNREADABLE, Finding, Severity, rank
from foldctl.errors import ExitStatus, FoldctlError, InputError, NotACheckpoint
from foldctl.fingerprint import require_scheme
from foldctl.graph.filters import NO_FILTER, FoldFacts, FoldFilter, total
from foldctl.graph.open import open_graph
from foldctl.graph.resolve import FoldGraph
from foldctl.parallel import batch_size, map_ordered
from foldctl.sources.files import SourceSpec, source_name

#: A further check of one fold graph, run after the audit (``claims``' ``audit_findings``).
Check = Callable[[FoldGraph], Iterable[Finding]]


class SourceAudit(msgspec.Struct, frozen=True):
    """The audit of one source: its findings, or the error that kept it from being read."""

    source: str
    findings: tuple[Finding, ...] = ()
    scheme: str | None = None
    error: FoldctlError | None = None
    #: found in a directory and not a checkpoint at all: passed over, counted, no error
    not_checkpoint: bool = False
    #: with a fold filter: what the source held, and how many spans passed
    facts: FoldFacts | None = None

    @property
    def readable(self) -> bool:
        return self.error is None


def audit_source(
    source: SourceSpec,
    scheme: str | None = None,
    lenient: bool = False,
    checks: Sequence[Check] = (),
    folds: FoldFilter = NO_FILTER,
) -> SourceAudit:
    """Load, join and audit one source; a source that cannot be read is reported, not raised.
    With ``lenient`` (a file found in a directory), JSON that is not a checkpoint at all is
    marked ``not_checkpoint``.  ``checks`` run after the audit, their findings added
    (``verify --claims`` passes the claims check); each must be a module-level function,
    so that a worker process can be handed it.  With ``folds``, only the findings about
    the spans that pass (and the messages they hold), and the source's facts."""
    name = source_name(source)
    try:
        graph, _ = open_graph(source, scheme)
        # Retained messages may be decoded only when read, so the audit can fail too.
        findings = tuple(audit(graph))
        for check in checks:
            findings += tuple(check(graph))
    except FoldctlError as e:
        return SourceAudit(name, error=e, not_checkpoint=lenient and isinstance(e, NotACheckpoint))
    if not folds.active:
        return SourceAudit(name, findings, graph.scheme)
    spans = graph.spans
    kept = tuple(f for f in findings if folds.place_passes(f.span, f.locator, spans))
    return SourceAudit(name, kept, graph.scheme, facts=folds.facts(spans))


def _failed_name(error: FoldctlError) -> str:
    return error.source if isinstance(error, InputError) else str(error)


#: One unit of work for a worker: the source (or why it could not be expanded), the
#: scheme, whether it was found by a directory scan, the further checks to run, the folds.
AuditItem = tuple[SourceSpec | FoldctlError, str | None, bool, Sequence[Check], FoldFilter]


def _audit_item(item: AuditItem) -> SourceAudit:
    source, scheme, lenient, checks, folds = item
    if isinstance(source, FoldctlError):
        return SourceAudit(_failed_name(source), error=source)
    return audit_source(source, scheme, lenient, checks, folds)


def _is_local(item: AuditItem) -> bool:
    return not isinstance(item[0], str)  # bytes in hand, or an error: nothing to ship


def crashed(name: str) -> InputError:
    """The error of a source whose worker process died under it."""
    return InputError(
        name,
        "",
        "the worker process reading it ended abruptly (out of memory?); "
        "read it alone, in one process (--jobs 1)",
    )


def _crashed(item: AuditItem) -> SourceAudit:
    name = source_name(item[0]) if not isinstance(item[0], FoldctlError) else "?"
    return SourceAudit(name, error=crashed(name))


def audit_sources(
    sources: Sequence[SourceSpec | FoldctlError],
    scheme: str | None = None,
    *,
    jobs: int | None = None,
    on_done: Callable[[int], None] | None = None,
    lenient: Collection[str] = frozenset(),
    checks: Sequence[Check] = (),
    folds: FoldFilter = NO_FILTER,
) -> list[SourceAudit]:
    """Audit every source, in parallel worker processes when there are several
    (:func:`foldctl.parallel.map_ordered`).

    ``jobs=1`` audits in this process, and bytes in hand (standard input) always
    are.  An error in place of a source (an argument that could not be expanded,
    see :mod:`foldctl.sources.scan`) is reported as unreadable.  A source in
    ``lenient`` (found by walking a directory) that is not a checkpoint at all is
    passed over.  ``checks`` run after the audit of each source (see :func:`audit_source`).
    Results come back in the order of ``sources``; ``on_done(i)`` is called with the
    index of each source as it finishes.
    """
    if scheme is not None:
        require_scheme(scheme)
    items: list[AuditItem] = [
        (s, scheme, isinstance(s, str) and s in lenient, checks, folds) for s in sources
    ]
    done = None if on_done is None else (lambda i, _result: on_done(i))
    batch = batch_size(len(items), jobs)
    found = map_ordered(
        _audit_item, items, jobs=jobs, local=_is_local, on_done=done, on_crash=_crashed, batch=batch
    )
    return list(found)


class VerifyReport(msgspec.Struct, frozen=True):
    """What ``verify`` prints, and its exit status."""

    audits: tuple[SourceAudit, ...]  # in the order checked, ignored codes already removed
    fail_on: Severity
    ignored: frozenset[str] = frozenset()
    ignored_count: int = 0
    skipped: tuple[str, ...] = ()  # files a directory scan passed over (exclude patterns)
    excludes: tuple[str, ...] = ()
    #: files found in a directory that are JSON but no checkpoint: passed over, counted
    not_checkpoints: tuple[str, ...] = ()

    @property
    def facts(self) -> FoldFacts | None:
        """With a fold filter: what the readable sources held, and how many spans passed."""
        held = [a.facts for a in self.audits if a.facts is not None]
        return total(held) if held else None

    @property
    def exit_status(self) -> ExitStatus:
        """2 when a source could not be read; 1 when a finding reaches ``fail_on``, or when
        a fold filter was given and no span passed it (nothing was checked); else 0."""
        if any(not a.readable for a in self.audits):
            return ExitStatus.ERROR
        held = self.facts
        if held is not None and not held.passed:
            return ExitStatus.FOUND
        limit = rank(self.fail_on)
        if any(rank(f.severity) <= limit for a in self.audits for f in a.findings):
            return ExitStatus.FOUND
        return ExitStatus.OK

    def totals(self) -> dict[str, Any]:
        readable = [a for a in self.audits if a.readable]
        findings = [f for a in readable for f in a.findings]
        return {
            "sources": len(self.audits),
            "clean": sum(1 for a in readable if not a.findings),
            "withFindings": sum(1 for a in readable if a.findings),
            "unreadable": len(self.audits) - len(readable),
            "skipped": len(self.skipped),
            "notCheckpoints": len(self.not_checkpoints),
            "findings": len(findings),
            **{s: sum(1 for f in findings if f.severity == s) for s in SEVERITIES},
            "ignored": self.ignored_count,
        }

    def document(self) -> dict[str, Any]:
        """The ``--format json`` document."""
        return {
            "sources": [
                {
                    "source": a.source,
                    "status": "unreadable"
                    if not a.readable
                    else ("findings" if a.findings else "clean"),
                    "scheme": a.scheme,
                    "error": None if a.error is None else str(a.error),
                    "findings": [f.as_dict() for f in a.findings],
                }
                for a in self.audits
            ],
            "skipped": list(self.skipped),
            "notCheckpoints": list(self.not_checkpoints),
            "totals": self.totals(),
            "failOn": self.fail_on,
            "ignored": sorted(self.ignored),
            "exitStatus": int(self.exit_status),
        }

    def records(self) -> Iterator[dict[str, Any]]:
        """The ``--format jsonl`` rows: one per finding, and one per unreadable source."""
        for a in self.audits:
            if a.error is not None:
                where = a.error.where if isinstance(a.error, InputError) else ""
                what = a.error.what if isinstance(a.error, InputError) else str(a.error)
                yield {
                    "source": a.source,
                    "code": UNREADABLE,
                    "severity": "error",
                    "locator": None,
                    "span": None,
                    "path": where or None,
                    "message": what,
                    "related": [],
                }
                continue
            for f in a.findings:
                yield {"source": a.source, **f.as_dict()}


def build_report(
    audits: Sequence[SourceAudit],
    fail_on: Severity = "warning",
    ignore: frozenset[str] = frozenset(),
    *,
    skipped: Sequence[str] = (),
    excludes: Sequence[str] = (),
) -> VerifyReport:
    """Drop ignored codes and rank each source's findings, most severe first; set apart the
    files found in directories that are not checkpoints."""
    kept: list[SourceAudit] = []
    ignored = 0
    for a in audits:
        if a.not_checkpoint:
            continue
        findings = [f for f in a.findings if f.code not in ignore]
        ignored += len(a.findings) - len(findings)
        findings.sort(key=lambda f: rank(f.severity))
        kept.append(SourceAudit(a.source, tuple(findings), a.scheme, a.error, facts=a.facts))
    others = tuple(a.source for a in audits if a.not_checkpoint)
    return VerifyReport(
        tuple(kept), fail_on, ignore, ignored, tuple(skipped), tuple(excludes), others
    )
