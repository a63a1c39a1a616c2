"""A progress line on standard error for long multi-source runs.

Shown only when standard error is a terminal and there are more than
:data:`THRESHOLD` sources; rich is imported only then, so piped and machine
runs never load it.  The line says how many sources are done, how many bytes
of how many, the rate and the time left; it disappears when done.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Final, TextIO

#: More sources than this (on a terminal) get a progress line.
THRESHOLD: Final = 8
#: The line is redrawn at most this often (seconds), however fast sources finish.
REFRESH: Final = 0.1


def wanted(total: int, stream: TextIO | None = None) -> bool:
    stream = stream or sys.stderr
    isatty = getattr(stream, "isatty", None)
    return total > THRESHOLD and bool(isatty and isatty())


class ProgressLine:
    """The progress a function of many sources tells (``foldctl.Progress``), drawn on a
    terminal once it knows there are more than :data:`THRESHOLD` sources."""

    def __init__(self, description: str, stream: TextIO | None = None, shown: bool = True) -> None:
        self.description = description
        self.stream = stream or sys.stderr
        self.shown = shown  # False while a pager holds the terminal
        self.bar: Any = None
        self.task: Any = None
        self.total = 0
        self.done = 0
        self.drawn = 0.0

    def start(self, count: int, nbytes: int) -> None:
        if not self.shown or not wanted(count, self.stream):
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            DownloadColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
            TransferSpeedColumn,
        )

        console = Console(file=self.stream, markup=False, emoji=False, highlight=False)
        columns = (
            TextColumn(self.description, markup=False),
            BarColumn(),
            TextColumn("{task.fields[done]}/{task.fields[count]} sources", markup=False),
            DownloadColumn(),
            TransferSpeedColumn(),
            TimeRemainingColumn(),
        )
        # No refresh thread (auto_refresh=False): worker processes may be forked meanwhile.
        self.bar = Progress(*columns, console=console, transient=True, auto_refresh=False)
        self.bar.start()
        self.total = count
        self.task = self.bar.add_task(self.description, total=max(nbytes, 1), done=0, count=count)
        self.bar.refresh()

    def advance(self, nbytes: int, count: int = 1) -> None:
        """``count`` more sources finished, holding ``nbytes`` bytes."""
        if self.bar is None:
            return
        self.done += count
        self.bar.update(self.task, advance=nbytes, done=self.done)
        now = time.monotonic()
        if now - self.drawn >= REFRESH or self.done >= self.total:
            self.drawn = now
            self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


@contextmanager
def progress_line(
    description: str, stream: TextIO | None = None, *, shown: bool = True
) -> Iterator[ProgressLine]:
    """A :class:`ProgressLine` for the work inside the block; it disappears when done
    (``shown=False``: never drawn, for output that goes through a pager as it comes)."""
    line = ProgressLine(description, stream, shown)
    try:
        yield line
    finally:
        line.close()


@contextmanager
def slow_notice(message: str, stream: TextIO | None = None, after: float = 1.0) -> Iterator[None]:
    """On a terminal, say ``message`` on ``stream`` (stderr) if the work takes longer than
    ``after`` seconds, and how long it took when it is done; nothing when piped."""
    import threading

    stream = stream or sys.stderr
    isatty = getattr(stream, "isatty", None)
    if not (isatty and isatty()):
        yield
        return
    started = time.monotonic()
    shown = threading.Event()

    def notice() -> None:
        shown.set()
        stream.write(f"foldctl: {message}...\n")
        stream.flush()

    timer = threading.Timer(after, notice)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        if shown.is_set():
            stream.write(f"foldctl: done in {time.monotonic() - started:.1f}s\n")
            stream.flush()
