"""``claims``: every summary checked against the originals it replaced."""

from __future__ import annotations

from typing import Annotated

import typer

from foldctl.cli.app import (
    ColorOpt,
    FormatOpt,
    RedactKeyOpt,
    RedactOnlyOpt,
    RedactOpt,
    RedactRulesOpt,
    RedactSkipOpt,
    SchemeOpt,
    app,
    emit,
    redactor_of,
    report_error,
    sources,
)
from foldctl.errors import ExitStatus


@app.command()
def claims(
    source_args: Annotated[
        list[str],
        typer.Argument(
            metavar="SOURCE...",
            help="Checkpoint files, - for stdin, STORE.db or STORE.db#SESSION, or directories.",
        ),
    ],
    fmt: FormatOpt = "text",
    color: ColorOpt = "auto",
    scheme: SchemeOpt = None,
    redact: RedactOpt = False,
    redact_key_file: RedactKeyOpt = None,
    redact_rules: RedactRulesOpt = None,
    redact_only: RedactOnlyOpt = None,
    redact_skip: RedactSkipOpt = None,
) -> None:
    """Check every summary against the originals it stands for: facts it invents
    (unsupported), values it gets wrong (contradicted), errors it leaves out (dropped).

    Deterministic rules, no model (docs/claims.md). Exit 0 when no summary is found
    wrong, 1 when one is, 2 when a source could not be read.
    """
    from foldctl.claims.record import claims_of

    result = claims_of(sources(source_args), scheme, report_error)
    redactor = redactor_of(redact, redact_key_file, redact_rules, redact_only, redact_skip)
    if redactor is not None:
        from foldctl.redact.apply import redact_claims

        result = redact_claims(redactor, result)
    emit("claims", fmt, result, color)
    if result.failures:
        raise typer.Exit(ExitStatus.ERROR)
    raise typer.Exit(ExitStatus.FOUND if result.wrong else ExitStatus.OK)
