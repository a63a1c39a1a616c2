"""``grep``: a regular-expression search over every message, live and folded, at any depth."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from foldctl.app import (
    TABLE_FORMATS,
    ColorOpt,
    FormatOpt,
    SchemeOpt,
    app,
    check_format,
    color_wanted,
    emit_table,
)
from foldctl.errors import FoldctlError
from foldctl.render import OutputFormat
from foldctl.render.sink import stdout_bytes, write_json, write_jsonl, write_lines

if TYPE_CHECKING:
    from foldctl.search import GrepRun


def _report(error: FoldctlError) -> None:
    sys.stderr.write(f"foldctl: error: {error}\n")
    sys.stderr.flush()


@app.command()
def grep(
    pattern: Annotated[str, typer.Argument(help="A Python regular expression (see -F).")],
    sources: Annotated[
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
    fmt: FormatOpt = OutputFormat.text,
    color: ColorOpt = "auto",
    scheme: SchemeOpt = None,
) -> None:
    """Search every message, live and folded at any depth (and detached/orphan spans).

    Exit 0 when something matched, 1 when nothing did, 2 when a source could not be
    read (even if another matched, as grep does).
    """
    from foldctl.search import GrepRun, compile_query, grep_sources, source_lines

    check_format(fmt, TABLE_FORMATS, "grep")
    query = compile_query(
        pattern, fixed=fixed, ignore_case=ignore_case, fields=field or (),
        roles=role or (), folded_only=folded_only, live_only=live_only,
    )  # fmt: skip
    run = GrepRun(grep_sources(sources, query, scheme), _report)
    if count or files:
        rows = run.file_rows() if files else run.count_rows()
        columns = ("source",) if files else ("source", "count")
        if fmt is OutputFormat.text:
            write_lines(source_lines(rows), stdout_bytes(), color=False)
        else:
            emit_table(list(rows), columns, fmt, color)
    else:
        _emit_hits(run, fmt, color)
    raise typer.Exit(run.exit_status())


def _emit_hits(run: GrepRun, fmt: OutputFormat, color: str) -> None:
    from foldctl.search import GREP_COLUMNS, hit_lines, hit_object, hit_rows

    hits = run.hits()
    if fmt is OutputFormat.jsonl:
        write_jsonl((hit_object(h) for h in hits), stdout_bytes())
    elif fmt is OutputFormat.json:
        write_json([hit_object(h) for h in hits], stdout_bytes())
    elif fmt in (OutputFormat.csv, OutputFormat.tsv):
        emit_table([row for h in hits for row in hit_rows(h)], GREP_COLUMNS, fmt, color)
    else:
        painted = color_wanted(color)
        lines = (line for h in hits for line in hit_lines(h, unicode=painted))
        write_lines(lines, stdout_bytes(), color=painted)
