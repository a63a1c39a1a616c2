"""``show``: the overview of a checkpoint."""

from __future__ import annotations

from typing import Annotated

import typer

import foldctl
from foldctl.cli.app import command
from foldctl.cli.inputs import opened
from foldctl.cli.options import (
    CLAIMS_BY_DEFAULT,
    Folds,
    Output,
    Redaction,
    SchemeOpt,
    SourceArg,
)
from foldctl.cli.output import emit, redaction_done, unmatched


@command()
def show(
    source_arg: SourceArg,
    out: Output,
    scheme: SchemeOpt = None,
    claims: Annotated[
        bool,
        typer.Option(
            "--claims/--no-claims",
            help="Check the summaries against their originals: count the claim-* findings "
            "and list each finding that a summary is wrong, one a line (reads every "
            "retained message: under twice the time of expand --format jsonl).",
        ),
    ] = CLAIMS_BY_DEFAULT,
    *,
    folds: Folds,
    redaction: Redaction,
) -> None:
    """Overview of a checkpoint: shape, run, counts, runs and models, and the fold tree.

    With a fold filter, the tree and the findings are those of the spans that pass;
    exit 1 when none does (said on stderr, with what the checkpoint holds).
    """
    redactor = redaction.redactor()
    plain = opened(source_arg, scheme)
    conversation = plain.redacted(redactor)
    chosen = folds.filter()
    missing = conversation.unmatched(chosen)
    emit("show", out, foldctl.Overview(conversation.overview(claims=claims, folds=chosen)))
    redaction_done(redaction, redactor, plain)
    unmatched(missing)
