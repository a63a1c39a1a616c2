"""``foldctl mcp``: a Model Context Protocol server that lets an agent, or any MCP host,
read back what compaction folded (docs/mcp.md).

A peer of the command line: it stands on the package face alone (and the errors, the
optional-package loader and the JSON writer), and only :mod:`foldctl.mcp.server`
imports the SDK (the ``mcp`` extra).  :func:`service` checks the roots and the
budget; :func:`serve` answers over standard input and output until the client goes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import foldctl
from foldctl.errors import UsageError
from foldctl.mcp.limits import DEFAULT_BYTES, MIN_BYTES
from foldctl.mcp.roots import Roots
from foldctl.optional import ensure

if TYPE_CHECKING:
    from foldctl.mcp.service import Service

__all__ = [
    "DEFAULT_BYTES",
    "MIN_BYTES",
    "Service",
    "configure",
    "require_sdk",
    "serve",
]


def require_sdk() -> None:
    """Raise :class:`~foldctl.errors.MissingDependency` now when the SDK is missing (or
    cannot be imported), before anything is served."""
    ensure("mcp", "foldctl mcp")
    from foldctl.mcp import server  # imports the SDK through foldctl.optional.require

    del server


def configure(
    roots: Sequence[str] = (),
    *,
    max_bytes: int = DEFAULT_BYTES,
    redactor: foldctl.Redactor | None = None,
    home: str | None = None,
) -> Service:
    """The service over ``roots`` (none: the default session folders that exist, under
    ``home`` when given), each answer at most ``max_bytes``, redacted with ``redactor``."""
    if max_bytes < MIN_BYTES:
        raise UsageError(f"max_bytes: expected at least {MIN_BYTES}, not {max_bytes}")
    from foldctl.mcp.service import Service

    chosen = list(roots) if roots else foldctl.session_folders(home)
    return Service(Roots.of(chosen), max_bytes, redactor)


def serve(served: Service) -> None:
    """Answer over standard input and output until the client closes them."""
    from foldctl.mcp.server import serve as run

    run(served, foldctl.__version__)
