"""``expand``: the conversation as it was before any fold."""

from __future__ import annotations

from typing import Annotated

import typer

from foldctl.cli.app import ColorOpt, FormatOpt, SchemeOpt, SourceArg, app, emit, source


@app.command()
def expand(
    source_arg: SourceArg,
    fmt: FormatOpt = "text",
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
    from foldctl.graph.open import open_graph
    from foldctl.query.transcript import transcript

    graph, _ = open_graph(source(source_arg), scheme)
    result = transcript(
        graph, depth=depth, only=only, keep_frames=keep_frames, include_detached=include_detached
    )
    emit("expand", fmt, result, color)
