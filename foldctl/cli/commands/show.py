"""``show``: the overview of a checkpoint."""

from __future__ import annotations

from typing import Annotated

import typer

from foldctl.cli.app import (
    ColorOpt,
    FormatOpt,
    RedactKeyOpt,
    RedactOnlyOpt,
    RedactOpt,
    RedactRulesOpt,
    RedactSkipOpt,
    SchemeOpt,
    SourceArg,
    app,
    emit,
    redacted,
    redactor_of,
    source,
)


@app.command()
def show(
    source_arg: SourceArg,
    fmt: FormatOpt = "text",
    color: ColorOpt = "auto",
    scheme: SchemeOpt = None,
    claims: Annotated[
        bool,
        typer.Option(
            "--claims",
            help="Also check the summaries against their originals and count claim-* "
            "findings (reads every retained message).",
        ),
    ] = False,
    redact: RedactOpt = False,
    redact_key_file: RedactKeyOpt = None,
    redact_rules: RedactRulesOpt = None,
    redact_only: RedactOnlyOpt = None,
    redact_skip: RedactSkipOpt = None,
) -> None:
    """Overview of a checkpoint: shape, run, counts, runs and models, and the fold tree."""
    from foldctl.graph.open import open_graph
    from foldctl.query.records import Overview, overview

    redactor = redactor_of(redact, redact_key_file, redact_rules, redact_only, redact_skip)
    graph, note = open_graph(source(source_arg), scheme)
    graph = redacted(graph, redactor)
    emit("show", fmt, Overview(overview(graph, note, claims=claims)), color)
