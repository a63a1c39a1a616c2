"""``show``: the overview of a checkpoint."""

from __future__ import annotations

from typing import Annotated

import typer

import foldctl
from foldctl.cli.app import command
from foldctl.cli.inputs import opened
from foldctl.cli.options import Folds, Output, Redaction, SchemeOpt, SourceArg
from foldctl.cli.output import emit, redaction_done, unmatched


@command()
def show(
    source_arg: SourceArg,
    out: Output,
    scheme: SchemeOpt = None,
    claims: Annotated[
        bool,
        typer.Option(
            "--claims",
            help="Also check the summaries against their originals and count claim-* "
            "findings (reads every retained message).",
        ),
    ] = False,
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
