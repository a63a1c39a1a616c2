"""``spans`` and ``stages``: the fold record as tables."""

from __future__ import annotations

from foldctl.cli.app import command
from foldctl.cli.inputs import opened
from foldctl.cli.options import Folds, Output, SchemeOpt, SourceArg
from foldctl.cli.output import emit


@command()
def spans(source_arg: SourceArg, out: Output, scheme: SchemeOpt = None, *, folds: Folds) -> None:
    """One row per folded span: where its frame sits, model, count, retention, run, time."""
    conversation = opened(source_arg, scheme)
    emit("spans", out, conversation.spans_table(folds.filter()))


@command()
def stages(source_arg: SourceArg, out: Output, scheme: SchemeOpt = None) -> None:
    """One row per removed stage id: the stage, its span, run, iteration and model."""
    emit("stages", out, opened(source_arg, scheme).stages_table())
