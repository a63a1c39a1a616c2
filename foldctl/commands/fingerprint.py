"""``fingerprint``: the fingerprint of a text under each scheme, to join a summary by hand."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from foldctl.app import ColorOpt, FormatOpt, app, check_format, color_wanted
from foldctl.errors import ExitStatus, InputError, UsageError
from foldctl.render import Line, OutputFormat
from foldctl.render.sink import stdout_bytes, write_json, write_lines


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


def describe(text: str, schemes: list[str]) -> dict[str, Any]:
    from foldctl.fingerprint import SCHEMES

    return {
        "length": {
            "utf16Units": len(text.encode("utf-16-le", "surrogatepass")) // 2,
            "utf8Bytes": len(text.encode("utf-8", "surrogatepass")),
        },
        "fingerprints": {name: SCHEMES[name](text) for name in schemes},
    }


def join_report(doc: dict[str, Any], source: str) -> dict[str, Any]:
    """Which span of SOURCE each fingerprint joins (the first in ``folded`` order wins)."""
    from foldctl.api import open_graph
    from foldctl.resolve import resolve

    graph, note = open_graph(source)
    matches: list[dict[str, Any]] = []
    for scheme, fingerprint in doc["fingerprints"].items():
        spans = graph.by_fingerprint.get(fingerprint)
        if not spans:
            continue
        joined = graph if scheme == graph.scheme else resolve(graph.checkpoint, scheme)
        place = joined.places[spans[0]]
        matches.append(
            {
                "scheme": scheme,
                "fingerprint": fingerprint,
                "span": spans[0],
                "spans": list(spans),
                "placement": place.placement,
                "frame": joined.frame_locator(spans[0]),
            }
        )
    return {
        "source": graph.checkpoint.source,
        "checkpointScheme": graph.scheme,
        "schemeNote": note,
        "matches": matches,
    }


def text_lines(doc: dict[str, Any], text: str) -> list[Line]:
    from foldctl.model import FRAME_PREFIX
    from foldctl.safety import visible

    prints = doc["fingerprints"]
    if len(prints) == 1 and "join" not in doc:
        return [[(next(iter(prints.values())), None)]]
    lines: list[Line] = [[(f"{name:<10}", "bold"), (fp, None)] for name, fp in prints.items()]
    join = doc.get("join")
    if join is None:
        return lines
    source = visible(join["source"])
    for m in join["matches"]:
        where = f"frame at {m['frame']}" if m["frame"] else m["placement"]
        shared = (
            f"; spans {', '.join(map(str, m['spans']))} share it, the first wins"
            if len(m["spans"]) > 1
            else ""
        )
        lines.append(
            [(f"joins span {m['span']} of {source} under {m['scheme']} ({where}){shared}", "green")]
        )
    if not join["matches"]:
        lines.append([(f"joins no span of {source}", "yellow")])
        if not text.startswith(FRAME_PREFIX):
            lines.append(
                [
                    (
                        "a frame's fingerprint covers its whole content, label included: "
                        f"paste from '{FRAME_PREFIX}' to the end of the summary",
                        "dim",
                    )
                ]
            )
    return lines


@app.command()
def fingerprint(
    text: Annotated[
        str | None,
        typer.Argument(metavar="[TEXT]", help="The text; standard input when absent."),
    ] = None,
    fmt: FormatOpt = OutputFormat.text,
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
    from foldctl.fingerprint import SCHEMES

    check_format(fmt, (OutputFormat.text, OutputFormat.json), "fingerprint")
    if scheme is not None and scheme not in SCHEMES:
        raise UsageError(f"unknown scheme {scheme!r}; choose from {', '.join(SCHEMES)}")
    content = read_text(text, json_string=json_string, strip_newline=strip_newline)
    doc = describe(content, [scheme] if scheme else list(SCHEMES))
    if join is not None:
        doc["join"] = join_report(doc, join)
    if fmt is OutputFormat.json:
        write_json(doc, stdout_bytes())
    else:
        write_lines(text_lines(doc, content), stdout_bytes(), color=color_wanted(color))
    if join is not None and not doc["join"]["matches"]:
        raise typer.Exit(ExitStatus.FOUND)
