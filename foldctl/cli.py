"""The command line entry point: register every command, run, map errors to exit codes.

Exit codes: 0 success, 1 "found something" (as each command documents), 2 a
usage error or unreadable input.  Expected failures are one line on stderr;
a traceback only with ``--debug``.
"""

from __future__ import annotations

import os
import sys

from foldctl.app import app, state
from foldctl.commands import (  # noqa: F401  (each module registers its commands)
    diff,
    expand,
    fingerprint,
    grep,
    report,
    schema,
    sessions,
    show,
    spans,
    verify,
)
from foldctl.errors import ExitStatus, FoldctlError


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point."""
    try:
        try:
            app(args=argv, prog_name="foldctl", standalone_mode=True)
        except FoldctlError as e:
            if state["debug"]:
                raise
            sys.stderr.write(f"foldctl: error: {e}\n")
            sys.stderr.flush()
            raise SystemExit(e.exit_status) from None
        except KeyboardInterrupt:
            sys.stderr.write("foldctl: interrupted\n")
            raise SystemExit(130) from None
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`| head`): end quietly, as Python's signal docs advise.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        raise SystemExit(ExitStatus.OK) from None
