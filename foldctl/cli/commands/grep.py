"""``grep``: a regular-expression search over every message, live and folded, at any depth."""

from __future__ import annotations

from typing import Annotated

import typer

from foldctl.cli.app import ColorOpt, FormatOpt, SchemeOpt, app, emit, report_error, sources
from foldctl.errors import UsageError


@app.command()
def grep(
    pattern: Annotated[str, typer.Argument(help="A Python regular expression (see -F).")],
    source_args: Annotated[
        list[str],
        typer.Argument(
            metavar="SOURCE...",
            help="Checkpoint files, - for stdin, STORE.db#SESSION, or directories.",
        ),
    ],
    field: Annotated[
        list[str] | None,
        typer.Option(
            "--field",
            metavar="NAME",
            help="Search this message field instead of content (repeatable; * = every field). "
            "A field that is not a string is searched as compact JSON.",
        ),
    ] = None,
    role: Annotated[
        list[str] | None,
        typer.Option("--role", help="Only messages with this role (repeatable)."),
    ] = None,
    folded_only: Annotated[
        bool, typer.Option("--folded-only", help="Only messages inside folds.")
    ] = False,
    live_only: Annotated[
        bool, typer.Option("--live-only", help="Only the live window (history).")
    ] = False,
    ignore_case: Annotated[bool, typer.Option("--ignore-case", "-i")] = False,
    fixed: Annotated[
        bool, typer.Option("--fixed-strings", "-F", help="PATTERN is a plain string.")
    ] = False,
    count: Annotated[
        bool, typer.Option("--count", "-c", help="Per source, how many messages matched.")
    ] = False,
    files: Annotated[
        bool, typer.Option("--files-with-matches", "-l", help="Only the sources that match.")
    ] = False,
    fmt: FormatOpt = "text",
    color: ColorOpt = "auto",
    scheme: SchemeOpt = None,
) -> None:
    """Search every message, live and folded at any depth (and detached/orphan spans).

    Exit 0 when something matched, 1 when nothing did, 2 when a source could not be
    read (even if another matched, as grep does).
    """
    from foldctl.query.grep import GrepRun, Mode, compile_query, grep_sources

    if folded_only and live_only:
        raise UsageError("--folded-only and --live-only exclude each other; give at most one")
    query = compile_query(
        pattern, fixed=fixed, ignore_case=ignore_case, fields=field or (), roles=role or (),
        scope="folded" if folded_only else "live" if live_only else "all",
    )  # fmt: skip
    mode: Mode = "files" if files else "count" if count else "hits"
    run = GrepRun(grep_sources(sources(source_args), query, scheme), report_error, mode)
    emit("grep", fmt, run, color)
    raise typer.Exit(run.exit_status())
