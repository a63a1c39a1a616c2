"""``redactions``: what ``--redact`` would remove from a checkpoint, to check before sharing."""

from __future__ import annotations

from foldctl.cli.app import (
    ColorOpt,
    FormatOpt,
    RedactKeyOpt,
    RedactOnlyOpt,
    RedactRulesOpt,
    RedactSkipOpt,
    SchemeOpt,
    SourceArg,
    app,
    emit,
    redactor_of,
    source,
)


@app.command()
def redactions(
    source_arg: SourceArg,
    fmt: FormatOpt = "text",
    color: ColorOpt = "auto",
    scheme: SchemeOpt = None,
    redact_key_file: RedactKeyOpt = None,
    redact_rules: RedactRulesOpt = None,
    redact_only: RedactOnlyOpt = None,
    redact_skip: RedactSkipOpt = None,
) -> None:
    """The review list of --redact: one row per placeholder, with its kind, how often it
    stands in and the locators of the messages it stands in.

    With the same --redact-key-file, the placeholders are those every other command
    prints with --redact.
    """
    from foldctl.graph.open import open_graph
    from foldctl.query.records import Table
    from foldctl.redact.apply import REVIEW_COLUMNS, review

    redactor = redactor_of(True, redact_key_file, redact_rules, redact_only, redact_skip)
    assert redactor is not None
    graph, _ = open_graph(source(source_arg), scheme)
    emit("redactions", fmt, Table(review(graph, redactor), REVIEW_COLUMNS), color)
