"""``locate``: every place a message with a given digest occurs."""

from __future__ import annotations

from typing import Annotated

import typer

from foldctl.app import (
    TABLE_FORMATS,
    ColorOpt,
    FormatOpt,
    SchemeOpt,
    SourceArg,
    app,
    check_format,
    emit_table,
)
from foldctl.errors import ExitStatus
from foldctl.render import OutputFormat
from foldctl.render.sink import stdout_bytes, write_chunks

LOCATE_COLUMNS = ("source", "locator", "where", "span", "depth", "role", "digest")


@app.command()
def locate(
    source: SourceArg,
    digest: Annotated[
        str, typer.Argument(metavar="DIGEST", help="xxh3-128:… as in the `digest` key.")
    ],
    fmt: FormatOpt = OutputFormat.text,
    color: ColorOpt = "auto",
    scheme: SchemeOpt = None,
) -> None:
    """Print the locator of every place a message occurs, live or folded, at any depth.

    Text output is one locator per line (to feed `expand --only`). Exit 1 when the
    digest is nowhere in SOURCE.
    """
    from foldctl.api import open_graph
    from foldctl.search import locate as find
    from foldctl.search import locate_object

    check_format(fmt, TABLE_FORMATS, "locate")
    graph, _ = open_graph(source, scheme)
    rows = find(graph, digest)
    if fmt is OutputFormat.text:
        write_chunks((f"{row.locator}\n".encode() for row in rows), stdout_bytes())
    else:
        objects = [locate_object(row, graph.checkpoint.source) for row in rows]
        emit_table(objects, LOCATE_COLUMNS, fmt, color)
    raise typer.Exit(ExitStatus.OK if rows else ExitStatus.FOUND)
