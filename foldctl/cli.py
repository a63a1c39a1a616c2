"""The command line entry point: register every command, map failures to exit codes, run.

Exit codes: 0 success, 1 "found something" (as each command documents), 2 a
usage error or unreadable input.  Expected failures (:class:`FoldctlError`)
are one line on stderr; a traceback only with ``--debug``.  A reader that
goes away (``| head``) ends the command quietly with status 0.
"""

from __future__ import annotations

import functools
import gc
import importlib
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from foldctl import version_line

if TYPE_CHECKING:
    import typer

#: Every command module; each registers its commands on :data:`foldctl.app.app`.
COMMAND_MODULES = (
    "show",
    "expand",
    "spans",
    "verify",
    "grep",
    "locate",
    "diff",
    "sessions",
    "fingerprint",
    "report",
    "schema",
)
_built: list[typer.Typer] = []


def _pipe_closed() -> None:
    # As Python's signal docs advise: point stdout at devnull so the interpreter's
    # final flush cannot fail again, then leave quietly.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _guarded(callback: Callable[..., Any]) -> Callable[..., Any]:
    import typer

    from foldctl.app import state
    from foldctl.errors import ExitStatus, FoldctlError
    from foldctl.safety import visible

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


def build_app() -> typer.Typer:
    """The application with every command registered, each mapping failures to exit codes."""
    if not _built:
        from foldctl.app import app

        for name in COMMAND_MODULES:
            importlib.import_module(f"foldctl.commands.{name}")
        for info in app.registered_commands:
            if info.callback is not None:
                info.callback = _guarded(info.callback)
        _built.append(app)
    return _built[0]


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point.

    ``--version`` alone is answered before anything is imported.  The cyclic
    garbage collector is off: a run is short, and the checkpoint's plain data
    holds no reference cycles, while collections over millions of decoded
    objects cost a large checkpoint about a tenth of its time.
    """
    args = sys.argv[1:] if argv is None else argv
    if args == ["--version"]:
        sys.stdout.write(version_line())
        return
    gc.disable()
    try:
        build_app()(args=args, prog_name="foldctl")
    except BrokenPipeError:
        _pipe_closed()
        raise SystemExit(0) from None
