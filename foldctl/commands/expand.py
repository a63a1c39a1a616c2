from __future__ import annotations

import itertools
from typing import Annotated

import typer

from foldctl.app import (
    ColorOpt,
    FormatOpt,
    SchemeOpt,
    SourceArg,
    app,
    check_format,
    color_wanted,
    emit_markdown,
)
from foldctl.render import OutputFormat
from foldctl.render.sink import stdout_bytes, write_json, write_jsonl, write_lines

EXPAND_FORMATS = (OutputFormat.text, OutputFormat.markdown, OutputFormat.json, OutputFormat.jsonl)


@app.command()
def expand(
    source: SourceArg,
    fmt: FormatOpt = OutputFormat.text,
    color: ColorOpt = "auto",
    scheme: SchemeOpt = None,
    depth: Annotated[
        int | None, typer.Option("--depth", min=0, help="Expand at most N levels of folds.")
    ] = None,
    only: Annotated[
        str | None,
        typer.Option(
            "--only",
            metavar="LOCATOR|DIGEST",
            help="Expand one summary, by locator (e.g. h2>f4:0) or by digest (xxh3-128:...).",
        ),
    ] = None,
    keep_frames: Annotated[
        bool, typer.Option("--keep-frames", help="Print each summary frame before its originals.")
    ] = False,
    include_detached: Annotated[
        bool,
        typer.Option(
            "--include-detached",
            help="After the transcript, the originals of detached and orphan spans.",
        ),
    ] = False,
) -> None:
    """The conversation before any fold, every message with its locator."""
    from foldctl.api import open_graph
    from foldctl.expand import Row, walk, walk_floating, walk_one

    check_format(fmt, EXPAND_FORMATS, "expand")
    graph, _ = open_graph(source, scheme)
    if only is not None:
        if only.startswith("xxh3-128:"):
            from foldctl.search import locator_for_digest

            only = locator_for_digest(graph, only)
        events = walk_one(graph, only, max_depth=depth, keep_frames=keep_frames)
    else:
        events = walk(graph, max_depth=depth, keep_frames=keep_frames)
    if include_detached:
        floating = walk_floating(graph, max_depth=depth, keep_frames=keep_frames)
        events = itertools.chain(events, floating)
    if fmt in (OutputFormat.json, OutputFormat.jsonl):
        from foldctl.views import expanded_objects

        objects = expanded_objects(e for e in events if isinstance(e, Row))
        if fmt is OutputFormat.jsonl:
            write_jsonl(objects, stdout_bytes())
        else:
            write_json(list(objects), stdout_bytes())
    elif fmt is OutputFormat.markdown:
        from foldctl.render import markdown

        emit_markdown(markdown.transcript(events))
    else:
        from foldctl.render import text

        painted = color_wanted(color)
        write_lines(text.transcript(events, unicode=painted), stdout_bytes(), color=painted)
