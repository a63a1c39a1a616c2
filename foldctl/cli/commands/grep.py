"""``grep``: a regular-expression search over every message, live and folded, at any depth."""

from __future__ import annotations

from typing import Annotated

import typer

import foldctl
from foldctl.cli.app import command
from foldctl.cli.completion import complete_source
from foldctl.cli.errors import report_error
from foldctl.cli.inputs import sources
from foldctl.cli.options import Expansion, Folds, Output, Redaction, SchemeOpt, Sources
from foldctl.cli.output import emit, in_sources, pager, partial_noted, redaction_done, say
from foldctl.cli.progress import progress_line
from foldctl.errors import ExitStatus, UsageError


@command()
def grep(
    arguments: Annotated[
        list[str],
        typer.Argument(
            metavar="[PATTERN] SOURCE...",
            help="A Python regular expression (see -F; omit it when -e gives patterns), then "
            "checkpoint files, - for stdin, STORE.db#SESSION, or directories.",
            autocompletion=complete_source,
        ),
    ],
    patterns: Annotated[
        list[str] | None,
        typer.Option(
            "--regexp", "-e", metavar="PATTERN", help="A pattern (repeatable: any may match)."
        ),
    ] = None,
    field: Annotated[
        list[str] | None,
        typer.Option(
            "--field",
            metavar="NAME",
            help="Search only this message field (repeatable; * = every stored field). Default: "
            "what a reader sees: content, toolName, tool calls (names, ids, arguments). A value "
            "that is not a string is searched string by string, then as compact JSON.",
        ),
    ] = None,
    role: Annotated[
        list[str] | None,
        typer.Option("--role", help="Only messages with this role (repeatable)."),
    ] = None,
    folded_only: Annotated[
        bool, typer.Option("--folded-only", help="Only messages inside folds.")
    ] = False,
    live_only: Annotated[
        bool, typer.Option("--live-only", help="Only the live window (history).")
    ] = False,
    ignore_case: Annotated[bool, typer.Option("--ignore-case", "-i")] = False,
    fixed: Annotated[
        bool, typer.Option("--fixed-strings", "-F", help="PATTERN is a plain string.")
    ] = False,
    word: Annotated[
        bool, typer.Option("--word-regexp", "-w", help="Match whole words only.")
    ] = False,
    invert: Annotated[
        bool, typer.Option("--invert-match", "-v", help="Select messages that do not match.")
    ] = False,
    max_count: Annotated[
        int | None,
        typer.Option(
            "--max-count", "-m", min=0, metavar="N", help="Stop after N messages per source."
        ),
    ] = None,
    after: Annotated[
        int | None,
        typer.Option("--after-context", "-A", min=0, metavar="N", help="N messages after each."),
    ] = None,
    before: Annotated[
        int | None,
        typer.Option("--before-context", "-B", min=0, metavar="N", help="N messages before each."),
    ] = None,
    context: Annotated[
        int | None,
        typer.Option(
            "--context",
            "-C",
            min=0,
            metavar="N",
            help="N messages before and after each (neighbours in the expanded transcript).",
        ),
    ] = None,
    count: Annotated[
        bool, typer.Option("--count", "-c", help="Per source, how many messages matched.")
    ] = False,
    files: Annotated[
        bool, typer.Option("--files-with-matches", "-l", help="Only the sources that match.")
    ] = False,
    only_matching: Annotated[
        bool,
        typer.Option(
            "--only-matching",
            "-o",
            help="Text: each match alone, source:locator:role: match (machine formats list "
            "the matches of every hit anyway).",
        ),
    ] = False,
    quiet: Annotated[
        bool,
        typer.Option(
            "--quiet",
            "--silent",
            "-q",
            help="Print nothing; exit 0 at the first match (even if a source could not be "
            "read), else 1, or 2 when a source could not be read.",
        ),
    ] = False,
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose", help="Also say how many sources were passed over without decoding."
        ),
    ] = False,
    *,
    folds: Folds,
    expansion: Expansion,
    redaction: Redaction,
    src: Sources,
    out: Output,
    scheme: SchemeOpt = None,
) -> None:
    """Search every message, live and folded at any depth (and detached/orphan spans).

    Many sources are searched in parallel and answered in order; a source whose bytes
    cannot hold a match is not decoded (FOLDCTL_GREP_PREFILTER=0 decodes every one).
    Exit 0 when something matched, 1 when nothing did, 2 when a source could not be
    read (even if another matched, as grep does).
    """
    if folded_only and live_only:
        raise UsageError("--folded-only and --live-only exclude each other; give at most one")
    given = list(patterns or ())
    rest = list(arguments)
    if not given:
        if not rest:
            raise UsageError("grep needs a PATTERN (or -e PATTERN) and at least one SOURCE")
        given.append(rest.pop(0))
    if not rest:
        raise UsageError("grep needs at least one SOURCE after the pattern")
    folds_given = folds.filter()
    query = foldctl.grep_query(
        given, fixed=fixed, ignore_case=ignore_case, word=word, fields=field or (),
        roles=role or (), scope="folded" if folded_only else "live" if live_only else "all",
        invert=invert, max_count=max_count,
        before=before if before is not None else context or 0,
        after=after if after is not None else context or 0,
        folds=folds_given, replays=expansion.mode(),
    )  # fmt: skip
    for note in query.notes:  # once, before any output
        say(f"warning: {note}")
    redactor = redaction.redactor()
    with progress_line("searching", shown=pager(out.no_pager) is None) as progress:
        specs = sources(rest)
        run = foldctl.grep_records(
            query, specs, scheme=scheme, jobs=src.jobs, exclude=src.excludes(),
            mode="files" if files or quiet else "count" if count
            else "matches" if only_matching else "hits",
            redactor=redactor, on_error=report_error, progress=progress,
            on_partial=partial_noted("searched"),
        )  # fmt: skip
        if quiet:
            raise typer.Exit(ExitStatus.OK if run.found_any() else run.exit_status())
        emit("grep", out, run)
    redaction_done(redaction, redactor, specs, scheme, src.excludes())
    held = run.facts
    if held is not None and not run.failed:
        searched = len(run.counts) - run.undecoded
        missing = folds_given.unmatched(held, in_sources(searched))
        if missing is not None:
            say(missing if redactor is None else redactor.redact_text(missing)[0])
    if run.undecoded and (verbose or run.failed):
        say(
            f"{run.undecoded} of {len(run.counts)} source(s) not decoded: their bytes cannot "
            "hold a match, so they were not checked for errors (FOLDCTL_GREP_PREFILTER=0 "
            "decodes every one)"
        )
    raise typer.Exit(run.exit_status())
