"""``diff``: two checkpoints of one conversation — what was added, changed and lost."""

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
    redacted,
    redactor_of,
    source,
)
from foldctl.errors import ExitStatus, UsageError


@app.command()
def diff(
    old: Annotated[str, typer.Argument(metavar="OLD", help="The earlier checkpoint (or -).")],
    new: Annotated[str, typer.Argument(metavar="NEW", help="The later checkpoint.")],
    fmt: FormatOpt = "text",
    color: ColorOpt = "auto",
    scheme: SchemeOpt = None,
    force: Annotated[
        bool,
        typer.Option("--force", help="Compare even if they look like different conversations."),
    ] = False,
    redact: RedactOpt = False,
    redact_key_file: RedactKeyOpt = None,
    redact_rules: RedactRulesOpt = None,
    redact_only: RedactOnlyOpt = None,
    redact_skip: RedactSkipOpt = None,
) -> None:
    """Spans added and lost, retention and span changes, live messages added / removed /
    changed / folded (matched by digest), and frames that newly fail to resolve.

    Exit 0 when identical, 1 when different, 2 on error.
    """
    from foldctl.graph.open import open_graph
    from foldctl.query.diff import Unrelated, compare

    if old == "-" and new == "-":
        raise UsageError("diff - -: standard input can be read only once; give a file for one side")
    redactor = redactor_of(
        redact, redact_key_file, redact_rules, redact_only, redact_skip
    )  # one key: one placeholder per value on both sides
    old_graph = redacted(open_graph(source(old), scheme)[0], redactor)
    new_graph = redacted(open_graph(source(new), scheme)[0], redactor)
    try:
        result = compare(old_graph, new_graph, force=force)
    except Unrelated as e:
        raise UsageError(f"{e}; pass --force to compare them anyway") from None
    emit("diff", fmt, result, color)
    raise typer.Exit(ExitStatus.OK if result.identical else ExitStatus.FOUND)
