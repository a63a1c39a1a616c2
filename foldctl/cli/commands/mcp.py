"""``mcp``: a Model Context Protocol server over standard input and output."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

import foldctl
import foldctl.mcp
from foldctl.cli.app import command
from foldctl.cli.options import Redaction
from foldctl.errors import UsageError


@command()
def mcp(
    roots: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[ROOT]...",
            help="Files, folders or SQLite stores the server may read (default: "
            f"{' and '.join(foldctl.SESSION_FOLDERS)}, those that exist).",
        ),
    ] = None,
    max_bytes: Annotated[
        int,
        typer.Option(
            "--max-bytes",
            min=foldctl.mcp.MIN_BYTES,
            metavar="N",
            help="The most bytes one answer may hold; a longer one pages with a cursor.",
        ),
    ] = foldctl.mcp.DEFAULT_BYTES,
    *,
    redaction: Redaction,
) -> None:
    """Serve the sessions under ROOT to an MCP host (Claude Code, Codex, ...) over stdin
    and stdout, read-only: list_sessions, folds, expand, grep, locate and claims, and
    each session as a resource. Needs the mcp extra: pip install 'foldctl[mcp]'
    (docs/mcp.md). With --redact, every answer is redacted: use it when the host sends
    answers to a remote model."""
    foldctl.mcp.require_sdk()
    if redaction.redactions is not None:
        raise UsageError(
            "mcp takes no --redactions: it answers many requests, not one run; review with "
            "foldctl redactions SOURCE and the same --redact-key-file"
        )
    served = foldctl.mcp.configure(roots or [], max_bytes=max_bytes, redactor=redaction.redactor())
    chosen = "" if roots else " (no ROOT given: the default session folders that exist)"
    sys.stderr.write(f"foldctl mcp: serving {served.roots}{chosen}\n")
    sys.stderr.flush()
    foldctl.mcp.serve(served)
