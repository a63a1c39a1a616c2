"""``locate``: every place a message with a given digest occurs, in one source or many."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from foldctl.cli.app import (
    ColorOpt,
    FormatOpt,
    JobsOpt,
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
from foldctl.errors import ExitStatus, UsageError


@app.command()
def locate(
    arguments: Annotated[
        list[str],
        typer.Argument(
            metavar="SOURCE... DIGEST",
            help="Checkpoint files, - for stdin, STORE.db or STORE.db#SESSION_ID, directories "
            "or quoted patterns; then the digest (xxh3-128:… as in the `digest` key).",
        ),
    ],
    jobs: JobsOpt = None,
    fmt: FormatOpt = "text",
    color: ColorOpt = "auto",
    scheme: SchemeOpt = None,
    redact: RedactOpt = False,
    redact_key_file: RedactKeyOpt = None,
    redact_rules: RedactRulesOpt = None,
    redact_only: RedactOnlyOpt = None,
    redact_skip: RedactSkipOpt = None,
) -> None:
    """Print the locator of every place a message occurs, live or folded, at any depth.

    Text output is one locator per line (to feed `expand --only`), after its source
    when several sources are searched. Exit 0 when found, 1 when the digest is nowhere,
    2 when a source could not be read (the others are still searched).
    """
    from foldctl.cli.progress import progress_bar
    from foldctl.query.locate import LocateResult, locate_sources, normalise_digest
    from foldctl.sources.scan import scan_sources, source_sizes

    if len(arguments) < 2:
        raise UsageError("locate needs at least one SOURCE and then a DIGEST")
    wanted = normalise_digest(arguments[-1])
    redactor = redactor_of(redact, redact_key_file, redact_rules, redact_only, redact_skip)
    found = scan_sources(sources(arguments[:-1]))
    sizes = source_sizes(found.entries)
    rows: list[dict[str, Any]] = []
    failed = 0
    with progress_bar(len(sizes), "locating", sum(sizes)) as advance:
        for located in locate_sources(
            found.entries, wanted, scheme, jobs=jobs, lenient=found.from_directories,
            on_done=lambda i: advance(sizes[i]), redactor=redactor,
        ):  # fmt: skip
            if located.error is not None:
                failed += 1
                report_error(located.error)
            rows.extend(located.rows)
    many = len(found.entries) > 1 or len(arguments) > 2
    emit("locate", fmt, LocateResult(rows, many), color)
    status = ExitStatus.ERROR if failed else ExitStatus.OK if rows else ExitStatus.FOUND
    raise typer.Exit(status)
