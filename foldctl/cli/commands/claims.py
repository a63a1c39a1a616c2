"""``claims``: every summary checked against the originals it replaced."""

from __future__ import annotations

from typing import Annotated

import typer

import foldctl
from foldctl.cli.app import command
from foldctl.cli.errors import report_error
from foldctl.cli.inputs import sources
from foldctl.cli.options import Output, Redaction, SchemeOpt, Sources
from foldctl.cli.output import emit
from foldctl.errors import ExitStatus


@command()
def claims(
    source_args: Annotated[
        list[str],
        typer.Argument(
            metavar="SOURCE...",
            help="Checkpoint files, - for stdin, STORE.db or STORE.db#SESSION, or directories.",
        ),
    ],
    *,
    src: Sources,
    out: Output,
    scheme: SchemeOpt = None,
    redaction: Redaction,
) -> None:
    """Check every summary against the originals it stands for: facts it invents
    (unsupported), values it gets wrong (contradicted), errors it leaves out (dropped).

    Deterministic rules, no model (docs/claims.md). Exit 0 when no summary is found
    wrong, 1 when one is, 2 when a source could not be read.
    """
    specs = sources(source_args)
    redactor = redaction.redactor()
    result = foldctl.check_claims(
        specs, scheme=scheme, redactor=redactor, on_error=report_error, jobs=src.jobs,
        exclude=src.excludes(),
    )  # fmt: skip
    emit("claims", out, result)
    if result.failures:
        raise typer.Exit(ExitStatus.ERROR)
    raise typer.Exit(ExitStatus.FOUND if result.wrong else ExitStatus.OK)
