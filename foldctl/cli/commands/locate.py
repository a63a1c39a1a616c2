"""``locate``: every place a message with a given digest occurs, in one source or many."""

from __future__ import annotations

from typing import Annotated

import typer

import foldctl
from foldctl.cli.app import command
from foldctl.cli.completion import complete_source
from foldctl.cli.errors import report_error
from foldctl.cli.inputs import sources
from foldctl.cli.options import Output, Redaction, SchemeOpt, Sources
from foldctl.cli.output import answer, partial_noted, redaction_done
from foldctl.cli.progress import progress_line
from foldctl.errors import UsageError


@command()
def locate(
    arguments: Annotated[
        list[str],
        typer.Argument(
            metavar="SOURCE... DIGEST",
            help="Checkpoint files, - for stdin, STORE.db or STORE.db#SESSION_ID, directories "
            "or quoted patterns; then the digest (xxh3-128:… as in the `digest` key).",
            autocompletion=complete_source,
        ),
    ],
    *,
    src: Sources,
    out: Output,
    scheme: SchemeOpt = None,
    redaction: Redaction,
) -> None:
    """Print the locator of every place a message occurs, live or folded, at any depth.

    Text output is one locator per line (to feed `expand --only`), after its source
    when several sources are searched. Exit 0 when found, 1 when the digest is nowhere,
    2 when a source could not be read (the others are still searched).
    """
    if len(arguments) < 2:
        raise UsageError("locate needs at least one SOURCE and then a DIGEST")
    redactor = redaction.redactor()
    specs = sources(arguments[:-1])
    with progress_line("locating") as progress:
        result = foldctl.locate(
            specs, arguments[-1], scheme=scheme, jobs=src.jobs,
            exclude=src.excludes(), redactor=redactor, on_error=report_error, progress=progress,
            on_partial=partial_noted("searched"),
        )  # fmt: skip
    redaction_done(redaction, redactor, specs, scheme, src.excludes())
    answer("locate", out, result)
