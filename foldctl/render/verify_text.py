"""Human text for ``verify``: findings grouped by source, most severe first, and a total.

Every string that comes from a checkpoint or a file name passes through
:func:`foldctl.safety.visible`; finding messages quote checkpoint values
(models, run ids, fingerprints), so they are made visible too.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from foldctl.audit.batch import SourceAudit, VerifyReport
from foldctl.audit.codes import SEVERITIES, Finding
from foldctl.render import Line, Output
from foldctl.render.sink import text_lines
from foldctl.termsafe import visible

_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
_CODE_WIDTH = 21  # the longest code, "ambiguous-fingerprint"


def _count(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def _severity_counts(counts: dict[str, Any]) -> str:
    words = {"error": ("error", None), "warning": ("warning", None), "info": ("info", "info")}
    parts = [_count(counts[s], *words[s]) for s in SEVERITIES if counts[s]]
    return ", ".join(parts)


#: More findings of one code in one source than this are one line: their count and the
#: first and last places (JSON and JSONL list every one).
GROUP_AFTER = 3


def _place(f: Finding) -> str:
    """Where a finding is, in a few words: its message, span or JSON path."""
    if f.locator:
        return f.locator
    if f.span is not None:
        return f"span {f.span}"
    return visible(f.path or "?")


def _grouped(findings: Sequence[Finding]) -> Iterator[Finding | list[Finding]]:
    """Each finding, or in place of the first of a code found more than
    :data:`GROUP_AFTER` times, all of that code."""
    by_code: dict[str, list[Finding]] = {}
    for f in findings:
        by_code.setdefault(f.code, []).append(f)
    for f in findings:
        same = by_code[f.code]
        if len(same) <= GROUP_AFTER:
            yield f
        elif same[0] is f:
            yield same


def _finding_line(f: Finding) -> Line:
    line: Line = [
        ("  ", None),
        (f"{f.severity:<8}", _STYLE[f.severity]),
        (f"{f.code:<{_CODE_WIDTH}}  ", "bold"),
        (visible(f.message), None),
    ]
    if f.path:
        line.append((f"  ({visible(f.path)})", "dim"))
    return line


def _group_line(same: list[Finding]) -> Line:
    first, last = same[0], same[-1]
    return [
        ("  ", None),
        (f"{first.severity:<8}", _STYLE[first.severity]),
        (f"{first.code:<{_CODE_WIDTH}}  ", "bold"),
        (f"{len(same)} times, from {_place(first)} to {_place(last)}; the first: ", "bold"),
        (visible(first.message), None),
        ("  (--format json lists every one)", "dim"),
    ]


def _source_lines(audit: SourceAudit) -> Iterator[Line]:
    name = visible(audit.source)
    if not audit.readable:
        return  # said once, on standard error, where every error goes
    if not audit.findings:
        yield [(f"{name}: ", "bold"), ("no findings", "green")]
        return
    counts: dict[str, Any] = {
        s: sum(1 for f in audit.findings if f.severity == s) for s in SEVERITIES
    }
    yield [(f"{name}: ", "bold"), (_severity_counts(counts), _STYLE[audit.findings[0].severity])]
    for item in _grouped(audit.findings):
        yield _group_line(item) if isinstance(item, list) else _finding_line(item)


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
        parts.append(f"{totals['unreadable']} unreadable (each named on standard error)")
    found = _severity_counts(totals) or "no findings"
    if totals["ignored"]:
        found += f" ({totals['ignored']} more ignored)"
    tail = f"failing at {report.fail_on} or above: exit {int(report.exit_status)}"
    held = report.facts
    if held is not None:
        tail = f"{held.passed} of {held.spans} spans pass the fold filter; " + tail
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
