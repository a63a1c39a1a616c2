"""``expand``: the conversation as it was before any fold."""

from __future__ import annotations

from typing import Annotated

import typer

from foldctl.cli.app import command
from foldctl.cli.inputs import opened
from foldctl.cli.options import (
    Folds,
    Output,
    Redaction,
    ReplaysOpt,
    SchemeOpt,
    SourceArg,
    replays_mode,
)
from foldctl.cli.output import emit


@command()
def expand(
    source_arg: SourceArg,
    out: Output,
    scheme: SchemeOpt = None,
    depth: Annotated[
        int | None,
        typer.Option(
            "--depth",
            min=0,
            help="Expand at most N levels of folds (with --only, counted from the fold it "
            "names: --depth 1 opens that one).",
        ),
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
    *,
    folds: Folds,
    replays: ReplaysOpt = "full",
    redaction: Redaction,
) -> None:
    """The conversation before any fold, every message with its locator."""
    redactor = redaction.redactor()
    conversation = opened(source_arg, scheme).redacted(redactor)
    result = conversation.transcript(
        depth=depth, only=only, keep_frames=keep_frames, include_detached=include_detached,
        folds=folds.filter(), replays=replays_mode(replays),
    )  # fmt: skip
    emit("expand", out, result)
