"""``export``: checkpoints to Parquet tables in a folder, for DuckDB, Dask and Spark."""

from __future__ import annotations

from typing import Annotated

import typer

import foldctl
from foldctl.cli.app import command
from foldctl.cli.inputs import sources
from foldctl.cli.options import Folds, Output, Redaction, SchemeOpt, Sources, SourcesArg
from foldctl.cli.output import answer, in_sources, redaction_done, say
from foldctl.cli.progress import progress_line


@command()
def export(
    source_args: SourcesArg,
    to: Annotated[
        str,
        typer.Option(
            "--to",
            metavar="DIR",
            help="The folder of Parquet tables (created; later runs append only what is new).",
        ),
    ],
    *,
    src: Sources,
    out: Output,
    scheme: SchemeOpt = None,
    folds: Folds,
    redaction: Redaction,
) -> None:
    """Write checkpoints, spans, messages and findings as Parquet tables under DIR.

    Each run adds one partition per table (DIR/TABLE/export=ID/) and records in
    DIR/manifest.json what it exported, by source and sha256: running it again over the
    same or a grown set of sources exports only what is new. With a fold filter, the
    spans, messages and findings of the folds that pass (the manifest records the
    filter). Needs the fleet extra (pip install 'foldctl[fleet]'). Exit 0 when done, 1
    when no span passes the filter, 2 when a source could not be read (the others are
    still exported). With --redact, every string of the tables is redacted (a folder
    holds redacted exports or plain ones, never both). See docs/export.md.
    """
    chosen = folds.filter()
    redactor = redaction.redactor()
    specs = sources(source_args)
    with progress_line("exporting") as progress:
        report = foldctl.export(
            specs, to, jobs=src.jobs, scheme=scheme, exclude=src.excludes(),
            progress=progress, folds=chosen, redactor=redactor,
        )  # fmt: skip
    held = report.facts
    missing = None if held is None else chosen.unmatched(held, in_sources(report.count("exported")))
    if missing is not None:
        say(missing)
    redaction_done(redaction, redactor, specs, scheme, src.excludes())
    answer("export", out, report, (outcome.error for outcome in report.outcomes))
