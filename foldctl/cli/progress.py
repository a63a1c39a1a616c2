"""A progress line on standard error for long multi-source runs.

Shown only when standard error is a terminal and there are more than
:data:`THRESHOLD` sources; rich is imported only then, so piped and machine
runs never load it.  The line says how many sources are done, how many bytes
of how many, the rate and the time left; it disappears when done.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Final, TextIO

#: More sources than this (on a terminal) get a progress line.
THRESHOLD: Final = 8
#: The line is redrawn at most this often (seconds), however fast sources finish.
REFRESH: Final = 0.1

#: Called as sources finish: their size in bytes, and how many (one by default).
Advance = Callable[..., None]


def wanted(total: int, stream: TextIO | None = None) -> bool:
    stream = stream or sys.stderr
    isatty = getattr(stream, "isatty", None)
    return total > THRESHOLD and bool(isatty and isatty())


@contextmanager
def progress_bar(
    total: int, description: str, total_bytes: int = 0, stream: TextIO | None = None
) -> Iterator[Advance]:
    """Yield ``advance(nbytes, count=1)``, to call as sources finish, with their size."""
    stream = stream or sys.stderr
    if not wanted(total, stream):
        yield lambda _nbytes, _count=1: None
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

    console = Console(file=stream, markup=False, emoji=False, highlight=False)
    columns = (
        TextColumn(description, markup=False),
        BarColumn(),
        TextColumn("{task.fields[done]}/{task.fields[count]} sources", markup=False),
        DownloadColumn(),
        TransferSpeedColumn(),
        TimeRemainingColumn(),
    )
    # No refresh thread (auto_refresh=False): worker processes may be forked meanwhile.
    with Progress(*columns, console=console, transient=True, auto_refresh=False) as bar:
        task = bar.add_task(description, total=max(total_bytes, 1), done=0, count=total)
        state = {"done": 0, "drawn": 0.0}

        def advance(nbytes: int, count: int = 1) -> None:
            state["done"] += count
            bar.update(task, advance=nbytes, done=int(state["done"]))
            now = time.monotonic()
            if now - state["drawn"] >= REFRESH or state["done"] >= total:
                state["drawn"] = now
                bar.refresh()

        bar.refresh()
        yield advance


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
