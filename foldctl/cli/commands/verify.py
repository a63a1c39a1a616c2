"""``verify``: the integrity audit of one or many sources, with an exit status to act on."""

from __future__ import annotations

from typing import Annotated

import typer

import foldctl
from foldctl.cli.app import command
from foldctl.cli.completion import choices, complete_codes
from foldctl.cli.inputs import sources
from foldctl.cli.options import (
    CLAIMS_BY_DEFAULT,
    Folds,
    Output,
    Redaction,
    SchemeOpt,
    Sources,
    SourcesArg,
)
from foldctl.cli.output import answer, in_sources, redaction_done, say
from foldctl.cli.progress import progress_line
from foldctl.errors import UsageError


@command()
def verify(
    source_args: SourcesArg,
    fail_on: Annotated[
        str,
        typer.Option(
            "--fail-on",
            metavar="error|warning|info",
            help="Exit 1 when a finding is at least this severe.",
            autocompletion=choices("error", "warning", "info"),
        ),
    ] = "warning",
    ignore: Annotated[
        list[str] | None,
        typer.Option(
            "--ignore",
            metavar="CODE",
            help="Leave out this finding code (repeatable).",
            autocompletion=complete_codes,
        ),
    ] = None,
    *,
    src: Sources,
    claims: Annotated[
        bool,
        typer.Option(
            "--claims/--no-claims",
            help="Check every summary against its originals (claim-* findings; "
            "docs/claims.md; reads every retained message).",
        ),
    ] = CLAIMS_BY_DEFAULT,
    out: Output,
    scheme: SchemeOpt = None,
    folds: Folds,
    redaction: Redaction,
) -> None:
    """Audit checkpoints: every way one disagrees with itself, named, located and ranked.

    With a fold filter, the findings about the spans that pass and the messages they
    hold. Exit 0 when nothing reaches --fail-on, 1 when a finding does (or when no span
    passes the filter), 2 when a source could not be read (the others are still
    checked and reported).
    """
    if fail_on not in foldctl.SEVERITIES:
        raise UsageError(f"--fail-on takes error, warning or info, not {fail_on!r}")
    unknown = [code for code in ignore or () if code not in foldctl.CODES]
    if unknown:
        raise UsageError(
            f"--ignore: unknown finding code {unknown[0]!r}; codes are {', '.join(foldctl.CODES)}"
        )
    chosen = folds.filter()
    redactor = redaction.redactor()
    specs = sources(source_args)
    with progress_line("verifying") as progress:
        report = foldctl.verify(
            specs, fail_on=fail_on, ignore=ignore or (), scheme=scheme,
            jobs=src.jobs, claims=claims, exclude=src.excludes(), progress=progress,
            folds=chosen, redactor=redactor,
        )  # fmt: skip
    held = report.facts
    if held is not None:
        note = chosen.unmatched(held, in_sources(sum(a.readable for a in report.audits)))
        if note is not None:
            say(note)  # and the exit status is 1: nothing was found to check
    redaction_done(redaction, redactor, specs, scheme, src.excludes())
    answer("verify", out, report, (audit.error for audit in report.audits))
