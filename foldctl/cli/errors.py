"""The one place an error becomes what a person reads: one line on standard error.

Every command reports every failure through :func:`report_error`, a source that
could not be read among many included; :mod:`foldctl.cli.main` turns the failure
into an exit status.
"""

from __future__ import annotations

import sys
from typing import Final

import foldctl

#: What the command line adds to a library error that one of its options gets past:
#: the library names the parameter (``FoldctlError.remedy``), never the option.
REMEDIES: Final = {
    "replays": " (--replays ref where the command offers it)",
    "force": "; pass --force to compare them anyway",
    "json": " (use --json to give a string with escapes)",
}


def report_error(error: BaseException | str) -> None:
    """Write one error line to stderr: ``foldctl: error: ...``, safe for a terminal."""
    text = str(error) + REMEDIES.get(getattr(error, "remedy", ""), "")
    sys.stderr.write(f"foldctl: error: {foldctl.one_line(text)}\n")
    sys.stderr.flush()
