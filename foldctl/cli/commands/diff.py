"""``diff``: two checkpoints of one conversation — what was added, changed and lost."""

from __future__ import annotations

from typing import Annotated

import typer

import foldctl
from foldctl.cli.app import command
from foldctl.cli.inputs import source
from foldctl.cli.options import Output, Redaction, SchemeOpt
from foldctl.cli.output import emit, partial_noted, redaction_done
from foldctl.errors import ExitStatus, UsageError


@command()
def diff(
    old: Annotated[str, typer.Argument(metavar="OLD", help="The earlier checkpoint (or -).")],
    new: Annotated[str, typer.Argument(metavar="NEW", help="The later checkpoint.")],
    *,
    out: Output,
    scheme: SchemeOpt = None,
    force: Annotated[
        bool,
        typer.Option("--force", help="Compare even if they look like different conversations."),
    ] = False,
    redaction: Redaction,
) -> None:
    """Spans added and lost, retention and span changes, live messages added / removed /
    changed / folded (matched by digest), and frames that newly fail to resolve.

    Exit 0 when identical, 1 when different, 2 on error.
    """
    if old == "-" and new == "-":
        raise UsageError("diff - -: standard input can be read only once; give a file for one side")
    redactor = redaction.redactor()  # one key: one placeholder per value on both sides
    specs = [source(old), source(new)]
    result = foldctl.diff(
        *specs, scheme=scheme, force=force, redactor=redactor, on_partial=partial_noted("compared")
    )
    emit("diff", out, result)
    redaction_done(redaction, redactor, specs, scheme)
    raise typer.Exit(ExitStatus.OK if result.identical else ExitStatus.FOUND)
