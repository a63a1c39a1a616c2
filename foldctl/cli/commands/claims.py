"""``claims``: every summary checked against the originals it replaced."""

from __future__ import annotations

import typer

import foldctl
from foldctl.cli.app import command
from foldctl.cli.errors import report_error
from foldctl.cli.inputs import sources
from foldctl.cli.options import Folds, Output, Redaction, SchemeOpt, Sources, SourcesArg
from foldctl.cli.output import emit, in_sources, partial_noted, redaction_done, unmatched
from foldctl.errors import ExitStatus


@command()
def claims(
    source_args: SourcesArg,
    *,
    src: Sources,
    out: Output,
    scheme: SchemeOpt = None,
    folds: Folds,
    redaction: Redaction,
) -> None:
    """Check every summary against the originals it stands for: facts it invents
    (unsupported), values it gets wrong (contradicted), errors it leaves out (dropped).

    Deterministic rules, no model (docs/claims.md). With a fold filter, the summaries
    of the spans that pass. Exit 0 when no summary is found wrong, 1 when one is (or
    when no span passes the filter), 2 when a source could not be read.
    """
    specs = sources(source_args)
    redactor = redaction.redactor()
    chosen = folds.filter()
    result = foldctl.check_claims(
        specs, scheme=scheme, redactor=redactor, on_error=report_error, jobs=src.jobs,
        exclude=src.excludes(), folds=chosen, on_partial=partial_noted("checked"),
    )  # fmt: skip
    emit("claims", out, result)
    redaction_done(redaction, redactor, specs, scheme, src.excludes())
    if result.failures:
        raise typer.Exit(ExitStatus.ERROR)
    if result.facts is not None:
        unmatched(chosen.unmatched(result.facts, in_sources(len(result.sources))), redactor)
    raise typer.Exit(ExitStatus.FOUND if result.wrong else ExitStatus.OK)
