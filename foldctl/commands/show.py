from __future__ import annotations

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
from foldctl.render.sink import stdout_bytes, write_json, write_lines


@app.command()
def show(
    source: SourceArg,
    fmt: FormatOpt = OutputFormat.text,
    color: ColorOpt = "auto",
    scheme: SchemeOpt = None,
) -> None:
    """Overview of a checkpoint: shape, run, counts, runs and models, and the fold tree."""
    from foldctl.api import open_graph
    from foldctl.views import overview

    check_format(fmt, (OutputFormat.text, OutputFormat.json, OutputFormat.markdown), "show")
    graph, note = open_graph(source, scheme)
    doc = overview(graph, note)
    if fmt is OutputFormat.json:
        write_json(doc, stdout_bytes())
    elif fmt is OutputFormat.markdown:
        from foldctl.render import markdown

        emit_markdown(markdown.overview(doc))
    else:
        from foldctl.render import text

        painted = color_wanted(color)
        write_lines(text.overview(doc, unicode=painted), stdout_bytes(), color=painted)
