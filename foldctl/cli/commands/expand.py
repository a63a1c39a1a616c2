"""``expand``: the conversation as it was before any fold."""

from __future__ import annotations

from typing import Annotated

import typer

from foldctl.cli.app import command
from foldctl.cli.completion import complete_locator
from foldctl.cli.inputs import opened
from foldctl.cli.options import Expansion, Folds, Output, Redaction, SchemeOpt, SourceArg
from foldctl.cli.output import emit, redaction_done, unmatched
from foldctl.errors import UsageError


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
            autocompletion=complete_locator,
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
    claims: Annotated[
        bool | None,
        typer.Option(
            "--claims/--no-claims",
            help="Check each summary against its originals and show what is found under it "
            "(text and markdown; markdown does by default).",
        ),
    ] = None,
    *,
    folds: Folds,
    expansion: Expansion,
    redaction: Redaction,
) -> None:
    """The conversation before any fold, every message with its locator.

    Markdown shows each summary, marked as a claim, before the originals it stands for,
    with what the claims check found in it (--no-claims: without checking).
    """
    check = out.fmt == "markdown" if claims is None else claims
    if check and out.fmt in ("json", "jsonl"):
        raise UsageError(
            "--claims shows findings in text and markdown; for JSON, `foldctl claims "
            "--format json` lists them"
        )
    redactor = redaction.redactor()
    plain = opened(source_arg, scheme)
    conversation = plain.redacted(redactor)
    chosen = folds.filter()
    missing = conversation.unmatched(chosen)
    result = conversation.transcript(
        depth=depth, only=only, keep_frames=keep_frames, include_detached=include_detached,
        folds=chosen, replays=expansion.mode(), claims=check,
    )  # fmt: skip
    emit("expand", out, result)
    redaction_done(redaction, redactor, plain)
    unmatched(missing)
