"""The Typer application: its root options, and the decorator every command registers with.

Commands live one per module in :mod:`foldctl.cli.commands`, each a thin function over
the names of ``foldctl.__all__``; :mod:`foldctl.cli.main` imports them all and runs the
app.  The library is reached through the package face when a command runs, so
``--version`` and ``--help`` stay fast.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import typer

from foldctl import version_line
from foldctl.cli.options import grouped

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

#: Set by the root callback and :func:`foldctl.cli.inputs.source`; reset for every run.
state: dict[str, Any] = {"debug": False, "stdin_read": False}

F = TypeVar("F", bound=Callable[..., Any])


def command() -> Callable[[F], F]:
    """Register a command on :data:`app`, its option groups (:mod:`foldctl.cli.options`)
    given in place of the parameters that name them."""

    def register(function: F) -> F:
        app.command()(grouped(function))
        return function

    return register


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
