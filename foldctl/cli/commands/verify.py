"""``verify``: the integrity audit of one or many sources, with an exit status to act on."""

from __future__ import annotations

from typing import Annotated

import typer

from foldctl.cli.app import ColorOpt, FormatOpt, SchemeOpt, app, emit, report_error, sources
from foldctl.errors import UsageError


@app.command()
def verify(
    source_args: Annotated[
        list[str],
        typer.Argument(
            metavar="SOURCE...",
            help="Checkpoint files, - for stdin, STORE.db or STORE.db#SESSION, or directories "
            "(searched recursively for *.json, *.json.gz and SQLite stores).",
        ),
    ],
    fail_on: Annotated[
        str,
        typer.Option(
            "--fail-on",
            metavar="error|warning|info",
            help="Exit 1 when a finding is at least this severe.",
        ),
    ] = "warning",
    ignore: Annotated[
        list[str] | None,
        typer.Option("--ignore", metavar="CODE", help="Leave out this finding code (repeatable)."),
    ] = None,
    exclude: Annotated[
        list[str] | None,
        typer.Option(
            "--exclude",
            metavar="GLOB",
            help="In directories, also skip files whose name or relative path matches "
            "(repeatable; *.expected.json is skipped by default).",
        ),
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs", "-j", min=1, metavar="N", help="Worker processes (default: one per CPU)."
        ),
    ] = None,
    claims: Annotated[
        bool,
        typer.Option(
            "--claims",
            help="Also check every summary against its originals (claim-* findings; "
            "docs/claims.md).",
        ),
    ] = False,
    fmt: FormatOpt = "text",
    color: ColorOpt = "auto",
    scheme: SchemeOpt = None,
) -> None:
    """Audit checkpoints: every way one disagrees with itself, named, located and ranked.

    Exit 0 when nothing reaches --fail-on, 1 when a finding does, 2 when a source
    could not be read (the others are still checked and reported).
    """
    from foldctl.audit.batch import Check, audit_sources, build_report
    from foldctl.audit.codes import CODES, SEVERITIES
    from foldctl.cli.progress import progress_bar
    from foldctl.sources.scan import DEFAULT_EXCLUDES, scan_sources, source_sizes

    if fail_on not in SEVERITIES:
        raise UsageError(f"--fail-on takes error, warning or info, not {fail_on!r}")
    unknown = [code for code in ignore or () if code not in CODES]
    if unknown:
        raise UsageError(
            f"--ignore: unknown finding code {unknown[0]!r}; codes are {', '.join(CODES)}"
        )
    checks: tuple[Check, ...] = ()
    if claims:  # the claim rules load only when asked for
        from foldctl.claims.record import audit_findings

        checks = (audit_findings,)
    excludes = (*DEFAULT_EXCLUDES, *(exclude or ()))
    found = scan_sources(sources(source_args), excludes)
    sizes = source_sizes(found.entries)
    with progress_bar(len(sizes), "verifying", sum(sizes)) as advance:
        audits = audit_sources(
            found.entries,
            scheme,
            jobs=jobs,
            on_done=lambda i: advance(sizes[i]),
            lenient=found.from_directories,
            checks=checks,
        )
    report = build_report(
        audits, fail_on, frozenset(ignore or ()), skipped=found.skipped, excludes=excludes
    )
    for audit in report.audits:
        if audit.error is not None:
            report_error(audit.error)
    emit("verify", fmt, report, color)
    raise typer.Exit(int(report.exit_status))
