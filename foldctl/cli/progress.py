"""A progress bar on standard error for long multi-source runs.

Shown only when standard error is a terminal and there are more than
:data:`THRESHOLD` items; rich is imported only then, so piped and machine
runs never load it.  The bar is transient: it disappears when done.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Final, TextIO

#: More items than this (on a terminal) get a progress bar.
THRESHOLD: Final = 8


def wanted(total: int, stream: TextIO | None = None) -> bool:
    stream = stream or sys.stderr
    isatty = getattr(stream, "isatty", None)
    return total > THRESHOLD and bool(isatty and isatty())


@contextmanager
def progress_bar(
    total: int, description: str, stream: TextIO | None = None
) -> Iterator[Callable[[Any], None]]:
    """Yield a callback to call once per finished item (its argument is ignored)."""
    stream = stream or sys.stderr
    if not wanted(total, stream):
        yield lambda _item: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    console = Console(file=stream, markup=False, emoji=False, highlight=False)
    columns = (TextColumn(description, markup=False), BarColumn(), MofNCompleteColumn())
    # No refresh thread (auto_refresh=False): worker processes may be forked meanwhile.
    with Progress(*columns, console=console, transient=True, auto_refresh=False) as bar:
        task = bar.add_task(description, total=total)

        def advance(_item: Any) -> None:
            bar.advance(task)
            bar.refresh()

        bar.refresh()
        yield advance


@contextmanager
def slow_notice(message: str, stream: TextIO | None = None, after: float = 1.0) -> Iterator[None]:
    """On a terminal, say ``message`` on ``stream`` (stderr) if the work takes longer than
    ``after`` seconds, and how long it took when it is done; nothing when piped."""
    import threading
    import time

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
