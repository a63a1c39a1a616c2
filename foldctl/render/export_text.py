"""Human text for ``export``: what was written, how many rows per table, what was passed
over and why."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from foldctl.render import Line, Output
from foldctl.render.sink import text_lines
from foldctl.termsafe import visible

if TYPE_CHECKING:
    from foldctl.parquet import ExportReport


def export_lines(report: ExportReport) -> Iterator[Line]:
    totals = report.totals()
    to = visible(report.to)
    if report.export_id is None:
        yield [(f"nothing new to export to {to}", "bold")]
    else:
        yield [
            (f"exported {totals['exported']} of {totals['sources']} source(s) to {to}", "bold"),
            (f" as export {report.export_id}", None),
        ]
        for table, rows in report.rows().items():
            yield [(f"  {table:<12}", "cyan"), (f"{rows:>10,} rows", None)]
        yield [(f"  {len(report.files)} file(s) in {to}/TABLE/export={report.export_id}/", "dim")]
    if totals["alreadyExported"]:
        yield [
            (f"already exported: {totals['alreadyExported']} source(s)", "dim"),
            (" (the same bytes under the same name; passed over)", "dim"),
        ]
    if totals["notCheckpoints"]:
        yield [(f"not checkpoints: {totals['notCheckpoints']} file(s) found in directories", "dim")]
    if totals["skipped"]:
        yield [(f"skipped by exclude patterns: {totals['skipped']} file(s)", "dim")]
    if totals["unreadable"]:
        yield [
            (f"unreadable: {totals['unreadable']} source(s), each named above", "bold red"),
            (" (not exported; the next run tries them again)", None),
        ]


def export(report: ExportReport, output: Output) -> None:
    text_lines(export_lines(report), output)
