"""``fingerprint``: the fingerprint of a text under each scheme, to join a summary by hand."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

import foldctl
from foldctl.cli.app import command
from foldctl.cli.inputs import STDIN_NAME, source
from foldctl.cli.options import NoRedactOpt, Output, refuse_redact
from foldctl.cli.output import emit
from foldctl.errors import ExitStatus, UsageError


@command()
def fingerprint(
    text: Annotated[
        str | None,
        typer.Argument(metavar="[TEXT]", help="The text; standard input when absent."),
    ] = None,
    *,
    out: Output,
    scheme: Annotated[
        str | None,
        typer.Option("--scheme", help="Only this scheme (prints the bare fingerprint as text)."),
    ] = None,
    strip_newline: Annotated[
        bool, typer.Option("--strip-newline", help="Drop one trailing newline from the text.")
    ] = False,
    json_string: Annotated[
        bool,
        typer.Option("--json", help='The text is a JSON string literal ("...\\ud83d..." escapes).'),
    ] = False,
    join: Annotated[
        str | None,
        typer.Option("--join", metavar="SOURCE", help="Say which span of SOURCE it joins."),
    ] = None,
    redact: NoRedactOpt = False,
) -> None:
    """The fingerprint of TEXT (or stdin) under every scheme, for joining a summary by hand.

    Standard input is read as bytes and must be UTF-8; nothing is stripped
    unless --strip-newline.  With --join, exit 1 when no span joins.
    """
    refuse_redact(
        redact,
        "fingerprint",
        "it prints the fingerprints of the text you give it and, with --join, a locator; "
        "no message text",
    )
    if text is not None:  # undecodable argv bytes arrive as U+DC80..U+DCFF: undo to find them
        given = foldctl.RawSource("TEXT", text.encode("utf-8", "surrogateescape"))
    elif sys.stdin.isatty():
        raise UsageError("fingerprint needs TEXT, or the text on standard input")
    else:
        given = foldctl.RawSource(STDIN_NAME, sys.stdin.buffer.read())
    result = foldctl.fingerprints(
        given, schemes=[scheme] if scheme else [], join=None if join is None else source(join),
        json=json_string, strip_newline=strip_newline,
    )  # fmt: skip
    emit("fingerprint", out, result)
    if join is not None and not result.doc["join"]["matches"]:
        raise typer.Exit(ExitStatus.FOUND)
