"""``export``: checkpoints to Parquet tables in a folder, for DuckDB, Dask and Spark."""

from __future__ import annotations

from typing import Annotated

import typer

from foldctl.cli.app import (
    ColorOpt,
    FormatOpt,
    JobsOpt,
    SchemeOpt,
    app,
    emit,
    report_error,
    sources,
)


@app.command()
def export(
    source_args: Annotated[
        list[str],
        typer.Argument(
            metavar="SOURCE...",
            help="Checkpoint files, - for stdin, STORE.db (every session) or "
            "STORE.db#SESSION_ID, directories, or quoted patterns ('fleet/**/*.json.gz').",
        ),
    ],
    to: Annotated[
        str,
        typer.Option(
            "--to",
            metavar="DIR",
            help="The folder of Parquet tables (created; later runs append only what is new).",
        ),
    ],
    exclude: Annotated[
        list[str] | None,
        typer.Option(
            "--exclude",
            metavar="GLOB",
            help="In directories, also skip files whose name or relative path matches "
            "(repeatable; *.expected.json is skipped by default).",
        ),
    ] = None,
    jobs: JobsOpt = None,
    fmt: FormatOpt = "text",
    color: ColorOpt = "auto",
    scheme: SchemeOpt = None,
) -> None:
    """Write checkpoints, spans, messages and findings as Parquet tables under DIR.

    Each run adds one partition per table (DIR/TABLE/export=ID/) and records in
    DIR/manifest.json what it exported, by source and sha256: running it again over the
    same or a grown set of sources exports only what is new. Needs the fleet extra
    (pip install 'foldctl[fleet]'). Exit 0 when done, 2 when a source could not be read
    (the others are still exported). See docs/export.md.
    """
    from foldctl.cli.progress import progress_bar
    from foldctl.optional import require
    from foldctl.sources.scan import DEFAULT_EXCLUDES, scan_sources, source_sizes

    require("pyarrow", "export")
    from foldctl.parquet import export as export_to

    found = scan_sources(sources(source_args), (*DEFAULT_EXCLUDES, *(exclude or ())))
    sizes = source_sizes(found.entries)
    with progress_bar(len(sizes), "exporting", sum(sizes)) as advance:
        report = export_to(
            [], to, jobs=jobs, scheme=scheme, found=found,
            on_done=lambda count, nbytes: advance(nbytes, count),
        )  # fmt: skip
    for outcome in report.outcomes:
        if outcome.error is not None:
            report_error(outcome.error)
    emit("export", fmt, report, color)
    raise typer.Exit(int(report.exit_status))
