"""``fingerprint``: the fingerprint of a text under each scheme, to join a summary by hand."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from foldctl.cli.app import ColorOpt, FormatOpt, app, emit, source
from foldctl.errors import ExitStatus, InputError, UsageError


def read_text(text: str | None, *, json_string: bool, strip_newline: bool) -> str:
    """The text to fingerprint: TEXT as given, or standard input read as bytes and decoded.

    Bytes must be UTF-8 (a fingerprint is of text, and the runtime never saw
    undecodable bytes); ``json_string`` reads a JSON string literal instead, the
    one way to pass a lone surrogate; ``strip_newline`` drops one final
    ``\\n`` (or ``\\r\\n``).
    """
    from foldctl import jsoncodec

    if text is None:
        if sys.stdin.isatty():
            raise UsageError("fingerprint needs TEXT, or the text on standard input")
        name, data = "<stdin>", sys.stdin.buffer.read()
    else:
        # Undecodable argv bytes arrive as U+DC80..U+DCFF (surrogateescape): undo to find them.
        name, data = "TEXT", text.encode("utf-8", "surrogateescape")
    if json_string:
        value = jsoncodec.loads(data, name)
        if not isinstance(value, str):
            raise InputError(name, "", "expected a JSON string literal (with --json)")
        return value
    try:
        decoded = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(
            name,
            f"byte {e.start}",
            f"not UTF-8 (byte 0x{data[e.start]:02x}); a fingerprint is of text "
            "(use --json to give a string with escapes)",
        ) from None
    if strip_newline and decoded.endswith("\n"):
        decoded = decoded[:-2] if decoded.endswith("\r\n") else decoded[:-1]
    return decoded


@app.command()
def fingerprint(
    text: Annotated[
        str | None,
        typer.Argument(metavar="[TEXT]", help="The text; standard input when absent."),
    ] = None,
    fmt: FormatOpt = "text",
    color: ColorOpt = "auto",
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
) -> None:
    """The fingerprint of TEXT (or stdin) under every scheme, for joining a summary by hand.

    Standard input is read as bytes and must be UTF-8; nothing is stripped
    unless --strip-newline.  With --join, exit 1 when no span joins.
    """
    from foldctl.query.fingerprints import fingerprints

    content = read_text(text, json_string=json_string, strip_newline=strip_newline)
    result = fingerprints(
        content, [scheme] if scheme else [], None if join is None else source(join)
    )
    emit("fingerprint", fmt, result, color)
    if join is not None and not result.doc["join"]["matches"]:
        raise typer.Exit(ExitStatus.FOUND)
