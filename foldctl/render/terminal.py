"""The terminal painter: the only module that imports rich.

Every segment becomes a :class:`rich.text.Text` built from a plain string, so
rich never parses markup or emoji codes in content; segments are already
made visible by :func:`foldctl.safety.visible` where they carry content.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import BinaryIO

from rich.console import Console
from rich.text import Text

from foldctl.render import Line


def paint(lines: Iterable[Line], out: BinaryIO) -> None:
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        force_terminal=True,
        color_system="standard",
        markup=False,
        emoji=False,
        highlight=False,
        soft_wrap=True,
        width=10_000,
    )
    for n, line in enumerate(lines, 1):
        text = Text()
        for segment, style in line:
            text.append(segment, style=style or "")
        console.print(text)
        if n % 512 == 0:
            out.write(buffer.getvalue().encode("utf-8", "backslashreplace"))
            buffer.seek(0)
            buffer.truncate()
    out.write(buffer.getvalue().encode("utf-8", "backslashreplace"))
    out.flush()
