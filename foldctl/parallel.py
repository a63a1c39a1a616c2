"""One function over many items, in worker processes, answered in the items' order.

Every command that reads many sources (``verify``, ``grep``, ``locate``, ``export``)
maps one picklable function over them with :func:`map_ordered`: up to ``jobs``
worker processes run at once, results come back in the order of the items
whatever order they finish in (so output is deterministic), ``on_done`` hears of
each as it finishes (a progress bar), and a worker that dies (killed, out of
memory) costs only the items it held: each becomes what ``on_crash`` makes of it
and the others go on in a fresh pool.  Items the caller marks as local (bytes
read from standard input, say) run in this process.  Plain standard library.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

A = TypeVar("A")
R = TypeVar("R")

#: How many items may run or wait, finished, ahead of the next one to be answered, per
#: worker: it bounds the memory held by results that are waiting for an earlier, slower one.
WINDOW_PER_JOB = 16


def default_jobs() -> int:
    """One worker per CPU this process may run on."""
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        return max(1, len(affinity(0)))
    return os.cpu_count() or 1


def map_ordered(
    function: Callable[[A], R],
    items: Sequence[A],
    *,
    jobs: int | None = None,
    local: Callable[[A], bool] | None = None,
    on_done: Callable[[int, R], None] | None = None,
    on_crash: Callable[[A], R],
) -> Iterator[R]:
    """``function(item)`` for every item, yielded in the order of ``items``.

    ``jobs`` is the number of worker processes (``None``: one per CPU); with one
    job, or one item, everything runs here, one item at a time, as it is
    consumed.  ``local(item)`` true keeps that item in this process.
    ``on_done(index, result)`` is called as each item finishes, in finishing
    order.  ``function`` must not raise for an expected failure: it returns it
    (a result that holds the error), so one bad item never stops the others.
    """
    workers = min(jobs or default_jobs(), len(items))
    if workers <= 1:
        for i, item in enumerate(items):
            result = function(item)
            if on_done is not None:
                on_done(i, result)
            yield result
        return
    yield from _pooled(function, items, workers, local, on_done, on_crash)


def _pooled(
    function: Callable[[A], R],
    items: Sequence[A],
    workers: int,
    local: Callable[[A], bool] | None,
    on_done: Callable[[int, R], None] | None,
    on_crash: Callable[[A], R],
) -> Iterator[R]:
    done: dict[int, R] = {}
    running: dict[Future[R], int] = {}
    window = workers * WINDOW_PER_JOB
    next_submit = 0
    next_yield = 0
    pool: ProcessPoolExecutor | None = None

    def finish(i: int, result: R) -> None:
        done[i] = result
        if on_done is not None:
            on_done(i, result)

    try:
        while next_yield < len(items):
            while next_submit < len(items) and next_submit - next_yield < window:
                i, item = next_submit, items[next_submit]
                next_submit += 1
                if local is not None and local(item):
                    finish(i, function(item))
                    continue
                if pool is None:
                    pool = ProcessPoolExecutor(max_workers=workers)
                try:
                    running[pool.submit(function, item)] = i
                except BrokenProcessPool:
                    finish(i, on_crash(item))
            while next_yield in done:
                yield done.pop(next_yield)
                next_yield += 1
            if not running:
                continue
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            broken = False
            for future in finished:
                i = running.pop(future)
                try:
                    result = future.result()
                except BrokenProcessPool:
                    broken = True
                    result = on_crash(items[i])
                finish(i, result)
            if broken and pool is not None:
                # Every item the dead pool still held fails with it; the rest get a new pool.
                for future, i in list(running.items()):
                    running.pop(future)
                    finish(i, on_crash(items[i]))
                pool.shutdown(wait=False, cancel_futures=True)
                pool = None
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
