"""foldctl: checkpoint forensics for compacted agent conversations.

The public API is :data:`__all__`; docs/library.md shows it at work::

    import foldctl
    cp = foldctl.open("checkpoint.json")
    for row in cp.walk():
        print(row.locator, row.message["role"])

Names load on first use, so ``import foldctl`` (and ``foldctl --version``)
stay cheap; neither imports typer nor rich.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = [
    "Checkpoint",
    "Conversation",
    "DiffResult",
    "Finding",
    "FoldctlError",
    "Hit",
    "InputError",
    "Row",
    "SessionFiles",
    "SessionListing",
    "Span",
    "UsageError",
    "VerifyReport",
    "__version__",
    "diff",
    "grep",
    "open",
    "sessions",
    "verify",
]

#: Where each public name lives.
_HOMES = {
    "Checkpoint": "foldctl.model",
    "Span": "foldctl.model",
    "Conversation": "foldctl.api",
    "open": "foldctl.api",
    "grep": "foldctl.api",
    "diff": "foldctl.api",
    "sessions": "foldctl.api",
    "verify": "foldctl.api",
    "DiffResult": "foldctl.query.diff",
    "Hit": "foldctl.query.grep",
    "SessionFiles": "foldctl.query.sessions",
    "SessionListing": "foldctl.query.sessions",
    "VerifyReport": "foldctl.audit.batch",
    "Finding": "foldctl.audit.codes",
    "Row": "foldctl.graph.walk",
    "FoldctlError": "foldctl.errors",
    "InputError": "foldctl.errors",
    "UsageError": "foldctl.errors",
}

if TYPE_CHECKING:
    from foldctl.api import Conversation, diff, grep, open, sessions, verify
    from foldctl.audit.batch import VerifyReport
    from foldctl.audit.codes import Finding
    from foldctl.errors import FoldctlError, InputError, UsageError
    from foldctl.graph.walk import Row
    from foldctl.model import Checkpoint, Span
    from foldctl.query.diff import DiffResult
    from foldctl.query.grep import Hit
    from foldctl.query.sessions import SessionFiles, SessionListing


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'foldctl' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


def version_line() -> str:
    """What ``foldctl --version`` prints."""
    return f"foldctl {__version__}\n"
