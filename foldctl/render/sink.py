"""Writing output: bytes in batches, JSON and JSONL, text lines plain or painted.

Every function writes to the binary stream it is given; choosing the stream
(standard output, a file) is the caller's.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

from foldctl import jsoncodec
from foldctl.render import Documented, Line, Output, Recorded
from foldctl.termsafe import one_line

_BATCH = 1 << 16


def write_chunks(chunks: Iterable[bytes], out: BinaryIO) -> None:
    """Write many small byte strings in batches of about 64 KiB."""
    buf: list[bytes] = []
    size = 0
    for chunk in chunks:
        buf.append(chunk)
        size += len(chunk)
        if size >= _BATCH:
            out.write(b"".join(buf))
            buf.clear()
            size = 0
    if buf:
        out.write(b"".join(buf))
    out.flush()


def write_json(document: Any, out: BinaryIO, *, indent: bool = False) -> None:
    write_chunks([jsoncodec.dumps(document, indent=indent), b"\n"], out)


def write_jsonl(objects: Iterable[Any], out: BinaryIO) -> None:
    write_chunks((jsoncodec.dumps(obj) + b"\n" for obj in objects), out)


def safe_lines(lines: Iterable[Line]) -> Iterator[Line]:
    """Every segment through :func:`foldctl.termsafe.one_line`, whatever the renderer did:
    no control character, bidi override or lone surrogate reaches a terminal, and no
    segment starts a line of its own.  Idempotent, so text already made visible is
    unchanged."""
    for line in lines:
        yield [(one_line(text), style) for text, style in line]


def write_lines(lines: Iterable[Line], out: BinaryIO, *, color: bool) -> None:
    if color:
        from foldctl.render.terminal import paint

        paint(safe_lines(lines), out)
        return
    write_chunks(
        (
            ("".join(text for text, _ in line) + "\n").encode("utf-8", "backslashreplace")
            for line in safe_lines(lines)
        ),
        out,
    )


def document(result: Documented, output: Output) -> None:
    """``--format json``: the result's one document (indented on a terminal)."""
    write_json(result.document(), output.out, indent=output.terminal)


def records(result: Recorded, output: Output) -> None:
    """``--format jsonl``: one object per line, streamed."""
    write_jsonl(result.records(), output.out)


def text_lines(lines: Iterable[Line], output: Output) -> None:
    write_lines(lines, output.out, color=output.color)


def markdown_lines(lines: Iterable[str], output: Output) -> None:
    """Markdown: UTF-8 text lines (a lone surrogate written as ``\\udxxx``)."""
    write_chunks(((line + "\n").encode("utf-8", "backslashreplace") for line in lines), output.out)
