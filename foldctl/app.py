"""The Typer application and what every command shares: options, format checks, emitters.

Commands live one per module in :mod:`foldctl.commands` and register on
:data:`app`; :mod:`foldctl.cli` imports them all and runs the app.  Heavy
imports (rich, the library) happen inside command bodies, so ``--version``
and ``--help`` stay fast.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from typing import Annotated, Any

import typer

from foldctl import version_line
from foldctl.errors import UsageError
from foldctl.render import OutputFormat
from foldctl.render.sink import (
    ColorChoice,
    stdout_bytes,
    use_color,
    write_chunks,
    write_json,
    write_jsonl,
    write_lines,
)

app = typer.Typer(
    name="foldctl",
    help=(
        "Checkpoint forensics for compacted agent conversations: join every summary to "
        "its folded span and recover what was folded."
    ),
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

#: Set by the root callback; read by :func:`foldctl.cli.main`.
state: dict[str, Any] = {"debug": False}

SourceArg = Annotated[
    str,
    typer.Argument(
        metavar="SOURCE",
        help="A checkpoint file (.json or .json.gz), - for stdin, or STORE.db#SESSION_ID.",
    ),
]
FormatOpt = Annotated[
    OutputFormat, typer.Option("--format", "-f", help="Output format.", case_sensitive=False)
]
ColorOpt = Annotated[
    str,
    typer.Option(
        "--color",
        help="Colour on a terminal: auto (default; honours NO_COLOR), always, never.",
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

TABLE_FORMATS = (
    OutputFormat.text,
    OutputFormat.json,
    OutputFormat.jsonl,
    OutputFormat.csv,
    OutputFormat.tsv,
)


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


def check_format(fmt: OutputFormat, allowed: Sequence[OutputFormat], command: str) -> None:
    if fmt not in allowed:
        names = ", ".join(f.value for f in allowed)
        raise UsageError(f"{command} does not write {fmt.value}; choose from {names}")


def color_wanted(choice: str) -> bool:
    if choice not in ("auto", "always", "never"):
        raise UsageError(f"--color takes auto, always or never, not {choice!r}")
    typed: ColorChoice = choice  # type: ignore[assignment]  # checked just above
    return use_color(typed, sys.stdout)


def emit_table(
    rows: list[dict[str, Any]], columns: Sequence[str], fmt: OutputFormat, color: str
) -> None:
    """Tabular output in any of :data:`TABLE_FORMATS`."""
    out = stdout_bytes()
    if fmt is OutputFormat.json:
        write_json(rows, out)
    elif fmt is OutputFormat.jsonl:
        write_jsonl(rows, out)
    elif fmt in (OutputFormat.csv, OutputFormat.tsv):
        from foldctl.render import delimited

        chunks = delimited.csv_chunks if fmt is OutputFormat.csv else delimited.tsv_chunks
        write_chunks(chunks(rows, columns), out)
    else:
        from foldctl.render import text

        write_lines(text.table(rows, columns), out, color=color_wanted(color))


def emit_markdown(lines: Iterable[str]) -> None:
    write_chunks(
        ((line + "\n").encode("utf-8", "backslashreplace") for line in lines), stdout_bytes()
    )
