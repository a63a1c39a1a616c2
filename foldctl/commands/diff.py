"""``diff``: two checkpoints of one conversation — what was added, changed and lost."""

from __future__ import annotations

from typing import Annotated

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
from foldctl.errors import ExitStatus
from foldctl.render import OutputFormat
from foldctl.render.sink import stdout_bytes, write_json, write_jsonl, write_lines


@app.command()
def diff(
    old: Annotated[str, typer.Argument(metavar="OLD", help="The earlier checkpoint (or -).")],
    new: Annotated[str, typer.Argument(metavar="NEW", help="The later checkpoint.")],
    fmt: FormatOpt = OutputFormat.text,
    color: ColorOpt = "auto",
    scheme: SchemeOpt = None,
    force: Annotated[
        bool,
        typer.Option("--force", help="Compare even if they look like different conversations."),
    ] = False,
) -> None:
    """Spans added and lost, retention and span changes, live messages added / removed /
    changed / folded (matched by digest), and frames that newly fail to resolve.

    Exit 0 when identical, 1 when different, 2 on error.
    """
    from foldctl.api import open_graph
    from foldctl.compare import DIFF_COLUMNS, compare, csv_rows, diff_lines

    check_format(fmt, TABLE_FORMATS, "diff")
    result = compare(open_graph(old, scheme)[0], open_graph(new, scheme)[0], force=force)
    if fmt is OutputFormat.jsonl:
        write_jsonl(result.differences, stdout_bytes())
    elif fmt is OutputFormat.json:
        write_json(result.differences, stdout_bytes())
    elif fmt in (OutputFormat.csv, OutputFormat.tsv):
        emit_table(list(csv_rows(result)), DIFF_COLUMNS, fmt, color)
    else:
        painted = color_wanted(color)
        write_lines(diff_lines(result, unicode=painted), stdout_bytes(), color=painted)
    raise typer.Exit(ExitStatus.OK if result.identical else ExitStatus.FOUND)
