"""Standard output and output files: results rendered in the chosen format, painted only
for a terminal; files written only once the work has succeeded, never over the evidence."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NoReturn

import typer

from foldctl import one_line
from foldctl.cli.errors import report_error
from foldctl.cli.options import Output
from foldctl.errors import ExitStatus, FoldctlError, UsageError
from foldctl.render import Output as Sink
from foldctl.render import OutputFormat


def use_color(choice: str, stream: Any = None) -> bool:
    """``--color``: always/never win; auto means a terminal, no ``NO_COLOR``, and a
    ``TERM`` other than ``dumb``."""
    if choice not in ("auto", "always", "never"):
        raise UsageError(f"--color takes auto, always or never, not {choice!r}")
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    stream = stream or sys.stdout
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def stdout_sink(color: str = "never") -> Sink:
    """Standard output as bytes, painted when ``--color`` says so; ``terminal`` when a
    person reads it (JSON is then indented)."""
    isatty = getattr(sys.stdout, "isatty", None)
    return Sink(sys.stdout.buffer, use_color(color), bool(isatty and isatty()))


def emit(command: str, out: Output, result: Any) -> None:
    """Render ``command``'s result in the format ``out`` asks for, to standard output."""
    from foldctl.render.registry import render

    render(command, OutputFormat(out.fmt), result, stdout_sink(out.color))


def answer(
    command: str, out: Output, result: Any, failures: Iterable[BaseException | None] = ()
) -> NoReturn:
    """Say what could not be read (a line each), render ``result``, and exit with its
    ``exit_status``."""
    for error in failures:
        if error is not None:
            report_error(error)
    emit(command, out, result)
    raise typer.Exit(int(result.exit_status))


def say(text: str) -> None:
    """A note on standard error, ``foldctl: ...``, on one safe line."""
    sys.stderr.write(f"foldctl: {one_line(text)}\n")
    sys.stderr.flush()


def unmatched(note: str | None) -> None:
    """A fold filter that no span passed: said on standard error with what there is, and
    exit 1 (nothing found), whatever was printed."""
    if note is not None:
        say(note)
        raise typer.Exit(ExitStatus.FOUND)


def in_sources(count: int) -> str:
    """Where a filter looked, for its note: ``here`` (one source) or ``in these N sources``."""
    return "here" if count == 1 else f"in these {count} sources"


def write_stdout(data: bytes) -> None:
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def write_file(
    output: str, data: bytes, evidence: str | None, *, what: str, option: str = "-o"
) -> None:
    """Write ``data`` to OUTPUT (``-`` = standard output); refuse to write over the file
    the evidence was read from."""
    if output == "-":
        write_stdout(data)
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
