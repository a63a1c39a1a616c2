"""``spans`` and ``stages``: the fold record as tables."""

from __future__ import annotations

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
from foldctl.render import OutputFormat

SPAN_COLUMNS = (
    "span",
    "fingerprint",
    "placement",
    "frame",
    "model",
    "messageCount",
    "retained",
    "runId",
    "iteration",
    "foldedAt",
    "removedStageIds",
)
STAGE_COLUMNS = ("stageId", "span", "runId", "iteration", "model", "foldedAt")


@app.command()
def spans(
    source: SourceArg,
    fmt: FormatOpt = OutputFormat.text,
    color: ColorOpt = "auto",
    scheme: SchemeOpt = None,
) -> None:
    """One row per folded span: where its frame sits, model, count, retention, run, time."""
    from foldctl.api import open_graph
    from foldctl.views import span_rows

    check_format(fmt, TABLE_FORMATS, "spans")
    graph, _ = open_graph(source, scheme)
    emit_table(span_rows(graph), SPAN_COLUMNS, fmt, color)


@app.command()
def stages(
    source: SourceArg,
    fmt: FormatOpt = OutputFormat.text,
    color: ColorOpt = "auto",
    scheme: SchemeOpt = None,
) -> None:
    """One row per removed stage id: the stage, its span, run, iteration and model."""
    from foldctl.api import open_graph
    from foldctl.views import stage_rows

    check_format(fmt, TABLE_FORMATS, "stages")
    graph, _ = open_graph(source, scheme)
    emit_table(stage_rows(graph), STAGE_COLUMNS, fmt, color)
