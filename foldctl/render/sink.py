"""Writing output: bytes in batches, JSON and JSONL, text lines plain or painted.

Every function writes to the binary stream it is given; choosing the stream
(standard output, a file) is the caller's.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

from foldctl import jsoncodec
from foldctl.lazyre import lazy
from foldctl.render import BLOCK, Documented, Line, Output, Recorded
from foldctl.render.cells import fit, width
from foldctl.termsafe import one_line, visible

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
    """One compact JSON object a line; an object holding a huge string is written in
    slices (:func:`foldctl.jsoncodec.dumps_chunks`), never as one copy of it."""
    write_chunks(_jsonl_chunks(objects), out)


def _jsonl_chunks(objects: Iterable[Any]) -> Iterator[bytes]:
    for obj in objects:
        if type(obj) is jsoncodec.Sliced:
            yield from jsoncodec.dumps_chunks(obj)
        else:
            yield jsoncodec.dumps(obj)
        yield b"\n"


def safe_lines(lines: Iterable[Line]) -> Iterator[Line]:
    """Every segment through :func:`foldctl.termsafe.one_line`, whatever the renderer did:
    no control character, bidi override or lone surrogate reaches a terminal, and no
    segment starts a line of its own (a :data:`~foldctl.render.BLOCK` keeps its line
    breaks, each of which the writer prefixes).  Idempotent, so text already made
    visible is unchanged."""
    for line in lines:
        if line and line[-1][1] == BLOCK:
            *head, (block, _) = line
            yield [*((one_line(text), style) for text, style in head), (visible(block), BLOCK)]
        else:
            yield [(one_line(text), style) for text, style in line]


def unblocked(lines: Iterable[Line]) -> Iterator[Line]:
    """Lines with every block split into lines of their own (for the painter)."""
    for line in lines:
        if line and line[-1][1] == BLOCK:
            *head, (block, _) = line
            for part in block.split("\n"):
                yield [*head, (part, None)]
        else:
            yield line


#: The start of a line that draws the tree: bars, a depth past the drawn levels, a fold's
#: corner, the indent of a message's body.
_TREE = lazy(r"[ |│]*(?:[|│]\d+ )?(?:[+`┌└][-─] )?[ ]*")
_CORNERS = str.maketrans({"+": "|", "┌": "│", "`": " ", "└": " ", "-": " ", "─": " "})


def wrapped(line: Line, columns: int) -> Iterator[Line]:
    """``line`` as rows of at most ``columns`` columns, broken at a space where one is
    near; each continuation starts with the tree the line starts with (a fold's corner
    drawn on as its bar) and two more spaces, so the tree stays whole on a terminal."""
    text = "".join(t for t, _ in line)
    if len(text) <= columns and width(text) <= columns:
        yield line
        return
    tree = _TREE.match(text)
    hang = (tree.group() if tree else "").translate(_CORNERS) + "  "
    if width(hang) > columns // 2:
        hang = ""  # too deep to indent further on so narrow a terminal
    bounds: list[tuple[int, int, str | None]] = []
    at = 0
    for part, style in line:
        bounds.append((at, at + len(part), style))
        at += len(part)
    start, first = 0, True
    while start < len(text):
        room = max(1, columns - (0 if first else width(hang)))
        end = fit(text, start, room)
        if end < len(text):
            space = text.rfind(" ", start + room // 2, end)
            if space > start:
                end = space + 1
        row: Line = [
            (text[max(a, start) : min(b, end)], st) for a, b, st in bounds if a < end and b > start
        ]
        yield row if first else [(hang, "dim"), *row]
        start, first = end, False


#: A block longer than this is written in slices of it (never a second copy of a huge
#: message's text, nor a third encoded one).
_SLICE = 1 << 18


def _plain(line: Line) -> Iterator[bytes]:
    if line and line[-1][1] == BLOCK:
        prefix = "".join(text for text, _ in line[:-1])
        block = line[-1][0]
        if len(block) > _SLICE:
            yield prefix.encode("utf-8", "backslashreplace")
            for start in range(0, len(block), _SLICE):
                part = block[start : start + _SLICE].replace("\n", "\n" + prefix)
                yield part.encode("utf-8", "backslashreplace")
            yield b"\n"
            return
        text = prefix + block.replace("\n", "\n" + prefix)
    else:
        text = "".join(text for text, _ in line)
    yield (text + "\n").encode("utf-8", "backslashreplace")


def write_lines(
    lines: Iterable[Line], out: BinaryIO, *, color: bool, width: int | None = None
) -> None:
    """Text lines, painted when ``color``; with ``width`` (a terminal's), each longer line
    wrapped (:func:`wrapped`)."""
    safe = safe_lines(lines)
    if width is not None:
        safe = (row for line in unblocked(safe) for row in wrapped(line, width))
    if color:
        from foldctl.render.terminal import paint

        paint(unblocked(safe), out)
        return
    write_chunks((chunk for line in safe for chunk in _plain(line)), out)


def document(result: Documented, output: Output) -> None:
    """``--format json``: the result's one document (indented on a terminal)."""
    write_json(result.document(), output.out, indent=output.terminal)


def records(result: Recorded, output: Output) -> None:
    """``--format jsonl``: one object per line, streamed (as the result's own ``jsonl_lines()``
    writes them, when it has that: the same lines, made faster)."""
    lines = getattr(result, "jsonl_lines", None)
    if lines is not None:
        write_chunks(lines(), output.out)
    else:
        write_jsonl(result.records(), output.out)


def text_lines(lines: Iterable[Line], output: Output) -> None:
    write_lines(lines, output.out, color=output.color, width=output.width)


def markdown_lines(lines: Iterable[str], output: Output) -> None:
    """Markdown: UTF-8 text lines (a lone surrogate written as ``\\udxxx``)."""
    write_chunks(((line + "\n").encode("utf-8", "backslashreplace") for line in lines), output.out)
