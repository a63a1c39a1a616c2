"""``spans`` and ``stages``: the fold record as tables."""

from __future__ import annotations

from foldctl.cli.app import (
    ColorOpt,
    FormatOpt,
    ModelOpt,
    RunOpt,
    SchemeOpt,
    SinceOpt,
    SourceArg,
    SpanOpt,
    UntilOpt,
    app,
    emit,
    fold_filter,
    source,
)


@app.command()
def spans(
    source_arg: SourceArg,
    fmt: FormatOpt = "text",
    color: ColorOpt = "auto",
    scheme: SchemeOpt = None,
    model: ModelOpt = None,
    run: RunOpt = None,
    since: SinceOpt = None,
    until: UntilOpt = None,
    span: SpanOpt = None,
) -> None:
    """One row per folded span: where its frame sits, model, count, retention, run, time."""
    from foldctl.graph.open import open_graph
    from foldctl.query.records import spans_table

    graph, _ = open_graph(source(source_arg), scheme)
    folds = fold_filter(model, run, since, until, span)
    emit("spans", fmt, spans_table(graph, folds), color)


@app.command()
def stages(
    source_arg: SourceArg,
    fmt: FormatOpt = "text",
    color: ColorOpt = "auto",
    scheme: SchemeOpt = None,
) -> None:
    """One row per removed stage id: the stage, its span, run, iteration and model."""
    from foldctl.graph.open import open_graph
    from foldctl.query.records import stages_table

    graph, _ = open_graph(source(source_arg), scheme)
    emit("stages", fmt, stages_table(graph), color)
