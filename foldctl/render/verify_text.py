"""Human text for ``verify``: findings grouped by source, most severe first, and a total.

Every string that comes from a checkpoint or a file name passes through
:func:`foldctl.safety.visible`; finding messages quote checkpoint values
(models, run ids, fingerprints), so they are made visible too.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from foldctl.audit.batch import SourceAudit, VerifyReport
from foldctl.audit.codes import SEVERITIES
from foldctl.render import Line, Output
from foldctl.render.sink import text_lines
from foldctl.termsafe import one_line, visible

_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
_CODE_WIDTH = 21  # the longest code, "ambiguous-fingerprint"


def _count(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def _severity_counts(counts: dict[str, Any]) -> str:
    words = {"error": ("error", None), "warning": ("warning", None), "info": ("info", "info")}
    parts = [_count(counts[s], *words[s]) for s in SEVERITIES if counts[s]]
    return ", ".join(parts)


def _source_lines(audit: SourceAudit) -> Iterator[Line]:
    name = visible(audit.source)
    if not audit.readable:
        yield [
            (f"{name}: ", "bold"),
            ("unreadable: ", "bold red"),
            (one_line(str(audit.error)), None),
        ]
        return
    if not audit.findings:
        yield [(f"{name}: ", "bold"), ("no findings", "green")]
        return
    counts: dict[str, Any] = {
        s: sum(1 for f in audit.findings if f.severity == s) for s in SEVERITIES
    }
    yield [(f"{name}: ", "bold"), (_severity_counts(counts), _STYLE[audit.findings[0].severity])]
    for f in audit.findings:
        line: Line = [
            ("  ", None),
            (f"{f.severity:<8}", _STYLE[f.severity]),
            (f"{f.code:<{_CODE_WIDTH}}  ", "bold"),
            (visible(f.message), None),
        ]
        if f.path:
            line.append((f"  ({visible(f.path)})", "dim"))
        yield line


def report_lines(report: VerifyReport) -> Iterator[Line]:
    """The text report: one group per source, in the order checked, then the total."""
    for audit in report.audits:
        yield from _source_lines(audit)
    totals = report.totals()
    parts = [
        _count(totals["sources"], "source") + " checked",
        f"{totals['clean']} clean",
        f"{totals['withFindings']} with findings",
    ]
    if totals["unreadable"]:
        parts.append(f"{totals['unreadable']} unreadable")
    found = _severity_counts(totals) or "no findings"
    if totals["ignored"]:
        found += f" ({totals['ignored']} more ignored)"
    tail = f"failing at {report.fail_on} or above: exit {int(report.exit_status)}"
    if totals["notCheckpoints"]:
        tail = (
            f"{_count(totals['notCheckpoints'], 'file')} in directories skipped (JSON, but not "
            "a checkpoint); " + tail
        )
    if totals["skipped"]:
        tail = (
            f"{_count(totals['skipped'], 'file')} skipped by exclude patterns "
            f"({', '.join(report.excludes)}); " + tail
        )
    style = {0: "green", 1: "yellow", 2: "bold red"}[int(report.exit_status)]
    yield []
    yield [(", ".join(parts) + "; " + found + "; " + tail, style)]


def verify(result: VerifyReport, output: Output) -> None:
    text_lines(report_lines(result), output)
