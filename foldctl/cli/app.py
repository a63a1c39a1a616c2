"""The Typer application: its root options, and the decorator every command registers with.

Commands live one per module in :mod:`foldctl.cli.commands`, each a thin function over
the names of ``foldctl.__all__``.  Registering a command only records its function
(:data:`COMMANDS`): :mod:`foldctl.cli.main` builds a command's options when it runs (or
its help, or its completion is asked for: :mod:`foldctl.cli.group`), so a command imports
and builds what it runs
and nothing more, and ``--version`` and ``--help`` stay fast.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import typer

from foldctl import version_line
from foldctl.cli import completion
from foldctl.cli.group import COMMANDS, LazyGroup

app = typer.Typer(
    name="foldctl",
    help=(
        "Checkpoint forensics for compacted agent conversations: join every summary to "
        "its folded span and recover what was folded."
    ),
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    cls=LazyGroup,
    no_args_is_help=True,
    add_completion=False,  # ours take the shell as a value: --show-completion zsh
    context_settings={"help_option_names": ["-h", "--help"]},
)

#: Set by the root callback and :func:`foldctl.cli.inputs.source`; reset for every run.
state: dict[str, Any] = {"debug": False, "stdin_read": False}

F = TypeVar("F", bound=Callable[..., Any])


def command() -> Callable[[F], F]:
    """Register a command: its function, named as the command (``_`` as ``-``)."""

    def register(function: F) -> F:
        COMMANDS[function.__name__.replace("_", "-")] = function
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
    show_completion: Annotated[
        str | None,
        completion.shell_option(
            "--show-completion",
            completion.show_completion,
            "Print the completion script for this shell, to source or save.",
        ),
    ] = None,
    install_completion: Annotated[
        str | None,
        completion.shell_option(
            "--install-completion",
            completion.install_completion,
            "Write the completion script where this shell loads it from (and say where); "
            "no start-up file is changed.",
        ),
    ] = None,
) -> None:
    state["debug"] = debug
