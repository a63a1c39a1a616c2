"""Where output goes: standard output as bytes, batched; text plain or painted."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from typing import Any, BinaryIO, Literal

from foldctl import jsoncodec
from foldctl.render import Line

ColorChoice = Literal["auto", "always", "never"]
_BATCH = 1 << 16


def use_color(choice: ColorChoice, stream: Any) -> bool:
    """``--color``: always/never win; auto means a terminal and no ``NO_COLOR``."""
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def stdout_bytes() -> BinaryIO:
    return sys.stdout.buffer


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


def write_json(document: Any, out: BinaryIO) -> None:
    write_chunks([jsoncodec.dumps(document), b"\n"], out)


def write_jsonl(objects: Iterable[Any], out: BinaryIO) -> None:
    write_chunks((jsoncodec.dumps(obj) + b"\n" for obj in objects), out)


def write_lines(lines: Iterable[Line], out: BinaryIO, *, color: bool) -> None:
    if color:
        from foldctl.render.terminal import paint

        paint(lines, out)
        return
    write_chunks(
        (
            ("".join(text for text, _ in line) + "\n").encode("utf-8", "backslashreplace")
            for line in lines
        ),
        out,
    )
