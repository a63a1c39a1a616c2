"""`report`: one self-contained HTML file for an incident review."""

from __future__ import annotations

from typing import Annotated

import typer

from foldctl.app import SchemeOpt, SourceArg, app

OutputOpt = Annotated[
    str,
    typer.Option(
        "--output", "-o", metavar="FILE.html", help="Where to write the report; - for stdout."
    ),
]
NowOpt = Annotated[
    str | None,
    typer.Option(
        "--now",
        metavar="TIME",
        help="Generation time to record (ISO-8601 or epoch seconds); default: "
        "SOURCE_DATE_EPOCH, else the clock.",
    ),
]


@app.command()
def report(
    source: SourceArg, output: OutputOpt, scheme: SchemeOpt = None, now: NowOpt = None
) -> None:
    """A self-contained HTML incident report: overview, findings, folds, transcript."""
    import os

    from foldctl import __version__
    from foldctl import html_report as hr
    from foldctl.findings import audit

    stamp = hr.generated_at(now, os.environ)
    evidence = hr.read_evidence(source, scheme)
    data = hr.render_bytes(
        evidence.graph,
        provenance=evidence.provenance(__version__, stamp),
        scheme_note=evidence.scheme_note,
        findings=audit(evidence.graph),
    )
    hr.write_report(output, data, evidence.path)
