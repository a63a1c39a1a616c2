"""Output files: written only once the work has succeeded, never over the evidence."""

from __future__ import annotations

import sys
from pathlib import Path

from foldctl.errors import FoldctlError, UsageError


def write_file(
    output: str, data: bytes, evidence: Path | None, *, what: str, option: str = "-o"
) -> None:
    """Write ``data`` to OUTPUT (``-`` = standard output); refuse to write over the file
    the evidence was read from."""
    if output == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    target = Path(output)
    if evidence is not None:
        try:
            same = target.exists() and target.samefile(evidence)
        except OSError:
            same = False
        if same:
            raise UsageError(
                f"{option} {output}: that is the source; evidence is never overwritten"
            )
    try:
        with target.open("wb") as f:
            f.write(data)
    except OSError as e:
        raise FoldctlError(f"{output}: cannot write {what}: {e.strerror}") from None


def size_text(size: int) -> str:
    """A byte count as people read it: ``812 bytes``, ``14.2 KB``, ``3.1 MB``."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} bytes"
