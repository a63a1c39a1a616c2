"""``expand``: the conversation as it was before any fold."""

from __future__ import annotations

from typing import Annotated

import typer

from foldctl.cli.app import (
    ColorOpt,
    FormatOpt,
    ModelOpt,
    RedactKeyOpt,
    RedactOnlyOpt,
    RedactOpt,
    RedactRulesOpt,
    RedactSkipOpt,
    ReplaysOpt,
    RunOpt,
    SchemeOpt,
    SinceOpt,
    SourceArg,
    SpanOpt,
    UntilOpt,
    app,
    emit,
    fold_filter,
    redacted,
    redactor_of,
    replays_mode,
    source,
)


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
            help="Only this: a message (h12, f3:5; a summary shows its originals), a span "
            "(f3, detached or orphan ones too) or a message digest (xxh3-128:...).",
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
    model: ModelOpt = None,
    run: RunOpt = None,
    since: SinceOpt = None,
    until: UntilOpt = None,
    span: SpanOpt = None,
    replays: ReplaysOpt = "full",
    redact: RedactOpt = False,
    redact_key_file: RedactKeyOpt = None,
    redact_rules: RedactRulesOpt = None,
    redact_only: RedactOnlyOpt = None,
    redact_skip: RedactSkipOpt = None,
) -> None:
    """The conversation before any fold, every message with its locator."""
    from foldctl.graph.open import open_graph
    from foldctl.query.transcript import transcript

    redactor = redactor_of(redact, redact_key_file, redact_rules, redact_only, redact_skip)
    graph, _ = open_graph(source(source_arg), scheme)
    graph = redacted(graph, redactor)
    result = transcript(
        graph, depth=depth, only=only, keep_frames=keep_frames,
        include_detached=include_detached, folds=fold_filter(model, run, since, until, span),
        replays=replays_mode(replays),
    )  # fmt: skip
    emit("expand", fmt, result, color)
