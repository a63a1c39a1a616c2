"""``spans`` and ``stages``: the fold record as tables."""

from __future__ import annotations

from foldctl.cli.app import command
from foldctl.cli.inputs import opened
from foldctl.cli.options import Folds, Output, Redaction, SchemeOpt, SourceArg
from foldctl.cli.output import emit, redaction_done, unmatched


@command()
def spans(
    source_arg: SourceArg,
    out: Output,
    scheme: SchemeOpt = None,
    *,
    folds: Folds,
    redaction: Redaction,
) -> None:
    """One row per folded span: where its frame sits, model, count, retention, run, time.

    With a fold filter, the spans that pass; exit 1 when none does (said on stderr,
    with what the checkpoint holds).
    """
    redactor = redaction.redactor()
    plain = opened(source_arg, scheme)
    conversation = plain.redacted(redactor)
    chosen = folds.filter()
    missing = conversation.unmatched(chosen)
    emit("spans", out, conversation.spans_table(chosen))
    redaction_done(redaction, redactor, plain)
    unmatched(missing)


@command()
def stages(
    source_arg: SourceArg, out: Output, scheme: SchemeOpt = None, *, redaction: Redaction
) -> None:
    """One row per removed stage id: the stage, its span, run, iteration and model."""
    redactor = redaction.redactor()
    plain = opened(source_arg, scheme)
    emit("stages", out, plain.redacted(redactor).stages_table())
    redaction_done(redaction, redactor, plain)
