"""The entry point, and the one place a failure becomes a stderr line and an exit code.

Exit codes (:class:`~foldctl.errors.ExitStatus`): 0 success, 1 "found
something" (as each command documents), 2 a usage error or unreadable input.
Every expected failure — a :class:`~foldctl.errors.FoldctlError` from the
library, or a usage error the option parser found — is one line on stderr,
``foldctl: error: ...``, made terminal-safe and kept to one line by
:func:`foldctl.termsafe.one_line`; a traceback only with ``--debug``.  A
reader that goes away (``| head``) ends the command quietly with status 0.
"""

from __future__ import annotations

import functools
import gc
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from foldctl import version_line

if TYPE_CHECKING:
    from foldctl.cli.group import LazyGroup

_built: list[LazyGroup] = []


def _pipe_closed() -> None:
    # As Python's signal docs advise: point stdout at devnull so the interpreter's
    # final flush cannot fail again, then leave quietly.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _guarded(callback: Callable[..., Any]) -> Callable[..., Any]:
    import typer

    from foldctl.cli.app import state
    from foldctl.cli.errors import report_error
    from foldctl.errors import ExitStatus, FoldctlError

    @functools.wraps(callback)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return callback(*args, **kwargs)
        except FoldctlError as e:
            if state["debug"]:
                raise
            report_error(e)
            raise typer.Exit(e.exit_status) from None
        except BrokenPipeError:
            _pipe_closed()
            raise typer.Exit(ExitStatus.OK) from None
        except MemoryError:
            if state["debug"]:
                raise
            report_error(
                f"{_inputs(callback, kwargs)}: out of memory; expected input that fits in"
                " the memory this process may use (see `ulimit -v`)"
            )
            raise typer.Exit(ExitStatus.ERROR) from None

    return run


def _inputs(callback: Callable[..., Any], kwargs: dict[str, Any]) -> str:
    """The inputs a command was given (its arguments that name a file, a store or ``-``),
    for an error that has no one place to name."""
    import os
    import typing

    from typer.models import ArgumentInfo

    names: list[str] = []
    for name, hint in typing.get_type_hints(callback, include_extras=True).items():
        if not any(isinstance(meta, ArgumentInfo) for meta in getattr(hint, "__metadata__", ())):
            continue
        value = kwargs.get(name)
        for item in value if isinstance(value, list | tuple) else [value]:
            if isinstance(item, str) and (item == "-" or os.path.exists(item.split("#")[0])):
                names.append(item)
    return ", ".join(names) or "the input"


def build_app() -> LazyGroup:
    """The command group: every command known, each built when it runs (its failures
    mapped to exit codes, its ``--format`` the formats the renderer registry declares)."""
    if not _built:
        import typer

        from foldctl.cli.app import app
        from foldctl.cli.group import LazyGroup

        group = typer.main.get_command(app)
        assert isinstance(group, LazyGroup)
        group.prepare = _guarded
        _built.append(group)
    return _built[0]


def run(args: list[str]) -> int:
    """Run the command line on ``args``; return the exit status (nothing is exited)."""
    from typer._click.exceptions import ClickException, NoArgsIsHelpError

    from foldctl.cli.app import state
    from foldctl.cli.errors import report_error
    from foldctl.errors import ExitStatus

    state.update(debug=False, stdin_read=False)
    if os.environ.get("_FOLDCTL_COMPLETE"):  # the completion script calling back
        from foldctl.cli.completion import answering

        answering()
    app = build_app()
    try:
        status = app.main(args=args, prog_name="foldctl", standalone_mode=False)
    except NoArgsIsHelpError as e:
        assert e.ctx is not None
        sys.stdout.write(e.ctx.get_help() + "\n")
        return ExitStatus.OK
    except ClickException as e:
        ctx = getattr(e, "ctx", None)
        command = ctx.command_path if ctx is not None else "foldctl"
        report_error(f"{e.format_message()} (see `{command} --help`)")
        return ExitStatus.ERROR
    except BrokenPipeError:
        _pipe_closed()
        return ExitStatus.OK
    except SystemExit as e:  # shell completion exits on its own
        return e.code if isinstance(e.code, int) else 0
    return int(status or 0)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point.

    ``--version`` alone is answered before anything is imported.  The cyclic
    garbage collector is off: a run is short, and the checkpoint's plain data
    holds no reference cycles, while collections over millions of decoded
    objects cost a large checkpoint about a tenth of its time.  For the same
    reason every object is frozen once the output is written: the interpreter's
    last collection at exit skips frozen objects (about 12 ms of the 85 ms that
    ``show`` takes on a small file went to that walk over typer's, msgspec's and
    the run's objects); files are closed and exit handlers run as before, and the
    memory goes back with the process.
    """
    args = sys.argv[1:] if argv is None else argv
    if args == ["--version"]:
        sys.stdout.write(version_line())
        return
    gc.disable()
    status = run(args)
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _pipe_closed()
    gc.freeze()
    raise SystemExit(status)
