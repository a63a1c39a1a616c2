"""``locate``: every place a message with a given digest occurs."""

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
from foldctl.errors import ExitStatus


@app.command()
def locate(
    source_arg: SourceArg,
    digest: Annotated[
        str, typer.Argument(metavar="DIGEST", help="xxh3-128:… as in the `digest` key.")
    ],
    fmt: FormatOpt = "text",
    color: ColorOpt = "auto",
    scheme: SchemeOpt = None,
    redact: RedactOpt = False,
    redact_key_file: RedactKeyOpt = None,
    redact_rules: RedactRulesOpt = None,
    redact_only: RedactOnlyOpt = None,
    redact_skip: RedactSkipOpt = None,
) -> None:
    """Print the locator of every place a message occurs, live or folded, at any depth.

    Text output is one locator per line (to feed `expand --only`). Exit 1 when the
    digest is nowhere in SOURCE.
    """
    from foldctl.graph.open import open_graph
    from foldctl.query.locate import locate_table

    redactor = redactor_of(redact, redact_key_file, redact_rules, redact_only, redact_skip)
    graph, _ = open_graph(source(source_arg), scheme)
    graph = redacted(graph, redactor)
    result = locate_table(graph, digest)
    emit("locate", fmt, result, color)
    raise typer.Exit(ExitStatus.OK if result.rows else ExitStatus.FOUND)
