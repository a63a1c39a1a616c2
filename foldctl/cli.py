"""The command line entry point: register every command, map failures to exit codes, run.

Exit codes: 0 success, 1 "found something" (as each command documents), 2 a
usage error or unreadable input.  Expected failures (:class:`FoldctlError`)
are one line on stderr; a traceback only with ``--debug``.  A reader that
goes away (``| head``) ends the command quietly with status 0.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import Any

import typer

from foldctl.app import app, state
from foldctl.commands import (  # noqa: F401  (each module registers its commands)
    diff,
    expand,
    fingerprint,
    grep,
    locate,
    report,
    schema,
    sessions,
    show,
    spans,
    verify,
)
from foldctl.errors import ExitStatus, FoldctlError
from foldctl.safety import visible


def _pipe_closed() -> None:
    # As Python's signal docs advise: point stdout at devnull so the interpreter's
    # final flush cannot fail again, then leave quietly.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _guarded(callback: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(callback)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return callback(*args, **kwargs)
        except FoldctlError as e:
            if state["debug"]:
                raise
            # The message may quote a file name or a value from the file: keep it inert.
            sys.stderr.write(f"foldctl: error: {visible(str(e))}\n")
            sys.stderr.flush()
            raise typer.Exit(e.exit_status) from None
        except BrokenPipeError:
            _pipe_closed()
            raise typer.Exit(ExitStatus.OK) from None

    return run


for _info in app.registered_commands:
    if _info.callback is not None:
        _info.callback = _guarded(_info.callback)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point."""
    try:
        app(args=argv, prog_name="foldctl")
    except BrokenPipeError:
        _pipe_closed()
        raise SystemExit(ExitStatus.OK) from None
