"""``show``: the overview of a checkpoint."""

from __future__ import annotations

from foldctl.cli.app import ColorOpt, FormatOpt, SchemeOpt, SourceArg, app, emit, source


@app.command()
def show(
    source_arg: SourceArg,
    fmt: FormatOpt = "text",
    color: ColorOpt = "auto",
    scheme: SchemeOpt = None,
) -> None:
    """Overview of a checkpoint: shape, run, counts, runs and models, and the fold tree."""
    from foldctl.graph.open import open_graph
    from foldctl.query.records import Overview, overview

    graph, note = open_graph(source(source_arg), scheme)
    emit("show", fmt, Overview(overview(graph, note)), color)
