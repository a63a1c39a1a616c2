"""foldctl's version, on the ground floor: what ``--version`` prints and what a report,
an export and a table record as the tool that made them."""

from __future__ import annotations

__version__ = "0.1.0"


def version_line() -> str:
    """What ``foldctl --version`` prints."""
    return f"foldctl {__version__}\n"
