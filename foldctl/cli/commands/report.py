"""``report``: one self-contained HTML file for an incident review."""

from __future__ import annotations

import io
import os
import shlex
from typing import Annotated

import typer

import foldctl
from foldctl.cli.app import command
from foldctl.cli.inputs import source
from foldctl.cli.options import Expansion, Folds, Redaction, SchemeOpt, SourceArg
from foldctl.cli.output import redaction_done, say, size_text, unmatched, write_file
from foldctl.cli.progress import slow_notice
from foldctl.cli.times import generated_at
from foldctl.errors import UsageError

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


@command()
def report(
    source_arg: SourceArg,
    output: OutputOpt,
    scheme: SchemeOpt = None,
    now: NowOpt = None,
    *,
    expansion: Expansion,
    folds: Folds,
    redaction: Redaction,
) -> None:
    """A self-contained HTML incident report: overview, findings, folds, transcript.

    -o takes a FILE.html (or .htm), or - for standard output.
    """
    from foldctl.render import Output, OutputFormat
    from foldctl.render.registry import render

    suffix = os.path.splitext(output)[1].lower()
    if output != "-" and suffix not in (".html", ".htm"):
        raise UsageError(
            f"-o {output}: report writes HTML, to a FILE.html; for markdown: foldctl expand "
            f"{shlex.quote(source_arg)} --format markdown > {shlex.quote(output)}"
        )
    stamp = generated_at(now, os.environ)
    spec = source(source_arg)
    mode = expansion.mode()
    redactor = redaction.redactor()
    chosen = folds.filter()
    with slow_notice("reading and auditing the checkpoint"):
        result = foldctl.report(
            spec, scheme=scheme, replays=mode, redactor=redactor, generated_at_ms=stamp,
            folds=chosen,
        )  # fmt: skip
    missing = result.unmatched()
    page = io.BytesIO()
    with slow_notice("writing the report"):
        render("report", OutputFormat.html, result, Output(page))
    data = page.getvalue()
    write_file(output, data, result.evidence, what="the report")
    if output != "-":
        say(f"wrote {output} ({size_text(len(data))})")
    redaction_done(redaction, redactor, [spec], scheme)
    unmatched(missing)
