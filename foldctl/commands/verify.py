"""``verify``: the integrity audit of one or many sources, with an exit status to act on."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from foldctl.app import ColorOpt, FormatOpt, SchemeOpt, app, check_format, color_wanted
from foldctl.render import OutputFormat
from foldctl.render.sink import stdout_bytes, write_json, write_jsonl, write_lines

VERIFY_FORMATS = (OutputFormat.text, OutputFormat.json, OutputFormat.jsonl)


@app.command()
def verify(
    sources: Annotated[
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
    fmt: FormatOpt = OutputFormat.text,
    color: ColorOpt = "auto",
    scheme: SchemeOpt = None,
) -> None:
    """Audit checkpoints: every way one disagrees with itself, named, located and ranked.

    Exit 0 when nothing reaches --fail-on, 1 when a finding does, 2 when a source
    could not be read (the others are still checked and reported).
    """
    from foldctl.findings import audit_sources, build_report, parse_fail_on, parse_ignore
    from foldctl.render.progress import progress_bar
    from foldctl.sources import DEFAULT_EXCLUDES, scan_sources

    check_format(fmt, VERIFY_FORMATS, "verify")
    threshold, ignored = parse_fail_on(fail_on), parse_ignore(ignore or ())
    excludes = (*DEFAULT_EXCLUDES, *(exclude or ()))
    found = scan_sources(sources, excludes)
    with progress_bar(len(found.entries), "verifying") as advance:
        audits = audit_sources(found.entries, scheme, jobs=jobs, on_done=advance)
    report = build_report(audits, threshold, ignored, skipped=found.skipped, excludes=excludes)
    from foldctl.safety import visible

    for audit in report.audits:  # an error can quote the file's name and content
        if audit.error is not None:
            sys.stderr.write(f"foldctl: error: {visible(audit.error)}\n")
    sys.stderr.flush()
    if fmt is OutputFormat.json:
        write_json(report.document(), stdout_bytes())
    elif fmt is OutputFormat.jsonl:
        write_jsonl(report.rows(), stdout_bytes())
    else:
        from foldctl.render.findings_text import report_lines

        write_lines(report_lines(report), stdout_bytes(), color=color_wanted(color))
    raise typer.Exit(int(report.exit_status))
