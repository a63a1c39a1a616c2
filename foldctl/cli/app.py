"""The Typer application and what every command shares: options, sources, output.

Commands live one per module in :mod:`foldctl.cli.commands` and register on
:data:`app`; :mod:`foldctl.cli.main` imports them all and runs the app.  Heavy
imports (rich, the library) happen inside command bodies, so ``--version``
and ``--help`` stay fast.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer

from foldctl import version_line
from foldctl.errors import UsageError
from foldctl.render import Output, OutputFormat
from foldctl.render.registry import check, formats
from foldctl.sources.files import STDIN_NAME, RawSource, SourceSpec
from foldctl.termsafe import one_line

if TYPE_CHECKING:
    from foldctl.graph.resolve import FoldGraph
    from foldctl.graph.walk import Replays
    from foldctl.query.filters import FoldFilter
    from foldctl.redact import Redactor

app = typer.Typer(
    name="foldctl",
    help=(
        "Checkpoint forensics for compacted agent conversations: join every summary to "
        "its folded span and recover what was folded."
    ),
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    no_args_is_help=True,
    add_completion=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)

#: Set by the root callback; read by :func:`foldctl.cli.main.main`.
state: dict[str, Any] = {"debug": False, "stdin_read": False}

SourceArg = Annotated[
    str,
    typer.Argument(
        metavar="SOURCE",
        help="A checkpoint file (.json or .json.gz), - for stdin, or STORE.db#SESSION_ID.",
    ),
]
ColorOpt = Annotated[
    str,
    typer.Option(
        "--color",
        help="Colour on a terminal: auto (default; honours NO_COLOR and TERM=dumb), always, never.",
        metavar="auto|always|never",
    ),
]
SchemeOpt = Annotated[
    str | None,
    typer.Option(
        "--scheme",
        help="Force a fingerprint scheme (fnv1a32, xxh32, xxh64, xxh3-64, xxh3-128); "
        "default: detect.",
    ),
]

JobsOpt = Annotated[
    int | None,
    typer.Option(
        "--jobs",
        "-j",
        min=1,
        metavar="N",
        help="Worker processes for many sources (default: one per CPU).",
    ),
]


def _check_format(ctx: typer.Context, value: str) -> str:
    command = ctx.info_name or ""
    names = [f.value for f in formats(command)]
    try:
        check(command, OutputFormat(value.lower()))
    except ValueError:
        raise typer.BadParameter(
            f"no format {value!r}; {command} writes {', '.join(names)}"
        ) from None
    except UsageError as e:
        raise typer.BadParameter(str(e)) from None
    return value.lower()


#: ``--format``; :func:`declare_formats` gives each command's the formats it declares.
FormatOpt = Annotated[str, typer.Option("--format", "-f", metavar="FORMAT", callback=_check_format)]


def declare_formats(group: Any) -> None:
    """Give every command's ``--format`` exactly the formats the renderer registry
    declares for it: its metavar and help list them, the first is the default."""
    for name, command in group.commands.items():
        for param in command.params:
            if param.name != "fmt":
                continue
            names = [f.value for f in formats(name)]
            param.metavar = "|".join(names)
            param.help = f"Output format: {', '.join(names)}."
            param.default = names[0]


def _version(value: bool) -> None:
    if value:
        sys.stdout.write(version_line())
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks on errors.")] = False,
) -> None:
    state["debug"] = debug


def report_error(error: BaseException | str) -> None:
    """Write one error line to stderr: ``foldctl: error: ...``, safe for a terminal.

    Every command reports every failure through here, a source that could not
    be read among many included.  A library error that an option can get past
    (the library never names options) gets the option named here.
    """
    text = str(error)
    hint = _hint(error)
    if hint:
        text += f" ({hint})"
    sys.stderr.write(f"foldctl: error: {one_line(text)}\n")
    sys.stderr.flush()


def _hint(error: BaseException | str) -> str:
    from foldctl.graph.walk import ExpansionTooLarge

    if isinstance(error, ExpansionTooLarge):
        return "--replays ref where the command offers it"
    return ""


ColorChoice = Literal["auto", "always", "never"]


def use_color(choice: str, stream: Any = None) -> bool:
    """``--color``: always/never win; auto means a terminal, no ``NO_COLOR``, and a
    ``TERM`` other than ``dumb``."""
    if choice not in ("auto", "always", "never"):
        raise UsageError(f"--color takes auto, always or never, not {choice!r}")
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    stream = stream or sys.stdout
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def stdout_output(color: str = "never") -> Output:
    """Standard output as bytes, painted when ``--color`` says so; ``terminal`` when a
    person reads it (JSON is then indented)."""
    isatty = getattr(sys.stdout, "isatty", None)
    return Output(sys.stdout.buffer, use_color(color), bool(isatty and isatty()))


def emit(command: str, fmt: str, result: Any, color: str = "never") -> None:
    """Render ``command``'s result in ``fmt`` to standard output."""
    from foldctl.render.registry import render

    render(command, OutputFormat(fmt), result, stdout_output(color))


def source(arg: str) -> SourceSpec:
    """A SOURCE argument for the library: ``-`` becomes standard input's bytes, read once."""
    if arg != "-":
        return arg
    if state["stdin_read"]:
        raise UsageError("standard input can be read only once; give - as one SOURCE at most")
    state["stdin_read"] = True
    if sys.stdin.isatty():
        sys.stderr.write("foldctl: reading a checkpoint from standard input (Ctrl-D to end)\n")
        sys.stderr.flush()
    return RawSource(STDIN_NAME, sys.stdin.buffer.read())


def sources(args: Sequence[str]) -> list[SourceSpec]:
    """Many SOURCE arguments (``-`` at most once)."""
    return [source(arg) for arg in args]


ReplaysOpt = Annotated[
    str,
    typer.Option(
        "--replays",
        metavar="full|ref",
        help="A replayed summary's span: full (its messages again, marked as a replay) or "
        "ref (a reference to its first placement).",
    ),
]


def replays_mode(value: str) -> Replays:
    if value == "full":
        return "full"
    if value == "ref":
        return "ref"
    raise UsageError(f"--replays takes full or ref, not {value!r}")


# --------------------------------------------------------------------------- fold filters

ModelOpt = Annotated[
    list[str] | None,
    typer.Option("--model", metavar="MODEL", help="Only folds summarized by MODEL (repeatable)."),
]
RunOpt = Annotated[
    list[str] | None,
    typer.Option("--run", metavar="RUN_ID", help="Only folds made by run RUN_ID (repeatable)."),
]
SinceOpt = Annotated[
    str | None,
    typer.Option(
        "--since",
        metavar="TIME",
        help="Only folds made at or after TIME (ISO-8601, e.g. 2026-03-16 or "
        "2026-03-16T09:13:00Z; or epoch milliseconds).",
    ),
]
UntilOpt = Annotated[
    str | None,
    typer.Option("--until", metavar="TIME", help="Only folds made at or before TIME."),
]
SpanOpt = Annotated[
    list[int] | None,
    typer.Option(
        "--span", metavar="N", min=0, help="Only span N and the spans nested in it (repeatable)."
    ),
]


def fold_time(text: str, option: str, *, end: bool = False) -> float:
    """``--since``/``--until``: epoch milliseconds from ISO-8601 (no zone means UTC; a
    bare date means its start, or with ``end`` its last millisecond) or a number of ms."""
    from datetime import datetime, timedelta, timezone

    value = text.strip()
    try:
        return float(value)
    except ValueError:
        pass
    if value[-1:] in ("Z", "z"):
        value = value[:-1] + "+00:00"
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise UsageError(
            f"{option} {text!r}: expected ISO-8601 (2026-03-16, 2026-03-16T09:13:00Z) "
            "or epoch milliseconds"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    if end and len(value) == 10:  # a date alone: up to its last millisecond
        moment += timedelta(days=1, milliseconds=-1)
    return moment.timestamp() * 1000


def fold_filter(
    model: list[str] | None,
    run: list[str] | None,
    since: str | None,
    until: str | None,
    span: list[int] | None,
) -> FoldFilter:
    from foldctl.query.filters import FoldFilter

    return FoldFilter(
        models=frozenset(model or ()),
        runs=frozenset(run or ()),
        since_ms=None if since is None else fold_time(since, "--since"),
        until_ms=None if until is None else fold_time(until, "--until", end=True),
        spans=frozenset(span or ()),
    )


# --------------------------------------------------------------------------- redaction

RedactOpt = Annotated[
    bool,
    typer.Option(
        "--redact",
        help="Replace secrets and personal data (keys, tokens, passwords in URLs, emails, "
        "phone, card and IBAN numbers) with placeholders such as [redacted:email:7f3a91], "
        "in every format (docs/redaction.md).",
    ),
]
RedactKeyOpt = Annotated[
    Path | None,
    typer.Option(
        "--redact-key-file",
        metavar="FILE",
        help="The HMAC key for placeholders (stable across runs); default: a random key per run.",
    ),
]
RedactRulesOpt = Annotated[
    Path | None,
    typer.Option(
        "--redact-rules", metavar="FILE.toml", help="More named patterns and an allow-list."
    ),
]
RedactOnlyOpt = Annotated[
    str | None,
    typer.Option("--redact-only", metavar="KINDS", help="Only these kinds (comma-separated)."),
]
RedactSkipOpt = Annotated[
    str | None,
    typer.Option("--redact-skip", metavar="KINDS", help="Not these kinds (comma-separated)."),
]


def redactor_of(
    redact: bool,
    key_file: Path | None,
    rules: Path | None,
    only: str | None,
    skip: str | None,
) -> Redactor | None:
    """The redactor the ``--redact*`` options ask for (any of them implies ``--redact``)."""
    if not (redact or key_file or rules or only or skip):
        return None
    from foldctl.redact import Redactor

    return Redactor.from_options(key_file=key_file, only=only, skip=skip, rules_file=rules)


def redacted(graph: FoldGraph, redactor: Redactor | None) -> FoldGraph:
    """``graph`` with every printed string redacted, when a redactor is given."""
    if redactor is None:
        return graph
    from foldctl.redact.apply import redact_graph

    return redact_graph(graph, redactor)
