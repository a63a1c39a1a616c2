"""One function over many items, in worker processes, answered in the items' order.

Every command that reads many sources (``verify``, ``grep``, ``locate``, ``export``)
maps one picklable function over them with :func:`map_ordered`: up to ``jobs``
worker processes run at once, results come back in the order of the items
whatever order they finish in (so output is deterministic), ``on_done`` hears of
each as it finishes (a progress bar), and a worker that dies (killed, out of
memory) costs only the item that killed it: what the broken pool held is tried again
one item at a time in a fresh pool, the item that dies alone becomes what ``on_crash``
makes of it, and the others answer as usual.  Items the caller marks as local (bytes
read from standard input, say) run in this process.  Cheap items travel in batches
(:func:`batch_size`), so the pool's round trip is paid once per batch, not per item.
Plain standard library.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

A = TypeVar("A")
R = TypeVar("R")

#: How many items may run or wait, finished, ahead of the next one to be answered, per
#: worker: it bounds the memory held by results that are waiting for an earlier, slower one.
WINDOW_PER_JOB = 16

#: The most items one task carries, and how many tasks each worker should get at least.
MAX_BATCH = 32
TASKS_PER_JOB = 8

#: Tasks handed to the pool at once, per worker (one running, one waiting): all of them are
#: lost when a worker dies, and tried again one item at a time.
TASKS_IN_FLIGHT_PER_JOB = 2


def default_jobs() -> int:
    """One worker per CPU this process may run on."""
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        return max(1, len(affinity(0)))
    return os.cpu_count() or 1


def batch_size(items: int, jobs: int | None) -> int:
    """How many items of a cheap function one task should carry: enough that the pool's
    round trip (a pickled call and its answer, a few hundred microseconds) is not most of
    the work, few enough that every worker still gets :data:`TASKS_PER_JOB` tasks."""
    workers = jobs or default_jobs()
    return max(1, min(MAX_BATCH, items // (workers * TASKS_PER_JOB)))


def map_ordered(
    function: Callable[[A], R],
    items: Sequence[A],
    *,
    jobs: int | None = None,
    local: Callable[[A], bool] | None = None,
    on_done: Callable[[int, R], None] | None = None,
    on_crash: Callable[[A], R],
    batch: int = 1,
) -> Iterator[R]:
    """``function(item)`` for every item, yielded in the order of ``items``.

    ``jobs`` is the number of worker processes (``None``: one per CPU); with one
    job, or one item, everything runs here, one item at a time, as it is
    consumed.  ``local(item)`` true keeps that item in this process.
    ``on_done(index, result)`` is called as each item finishes, in finishing
    order.  ``function`` must not raise for an expected failure: it returns it
    (a result that holds the error), so one bad item never stops the others.
    ``batch`` consecutive items at most go to a worker as one task, answered together.
    """
    workers = min(jobs or default_jobs(), len(items))
    if workers <= 1:
        for i, item in enumerate(items):
            result = function(item)
            if on_done is not None:
                on_done(i, result)
            yield result
        return
    yield from _pooled(function, items, workers, local, on_done, on_crash, max(1, batch))


def _run_batch(function: Callable[[A], R], items: Sequence[A]) -> list[R]:
    """One task in a worker: ``function`` over each of a batch of items."""
    return [function(item) for item in items]


def _pooled(
    function: Callable[[A], R],
    items: Sequence[A],
    workers: int,
    local: Callable[[A], bool] | None,
    on_done: Callable[[int, R], None] | None,
    on_crash: Callable[[A], R],
    batch: int,
) -> Iterator[R]:
    # The pool's machinery is loaded only when a pool is needed: one source, or one job,
    # never pays for it.
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    done: dict[int, R] = {}
    running: dict[Future[list[R]], list[int]] = {}
    # A worker that dies breaks the whole pool: every task in it is lost, and which one
    # killed it is unknown.  Those items are tried again one at a time, each alone in the
    # pool; one that dies alone is the one that kills, and fails; the others answer.
    suspects: deque[int] = deque()
    alone: int | None = None
    window = workers * WINDOW_PER_JOB * batch
    most_tasks = workers * TASKS_IN_FLIGHT_PER_JOB
    next_submit = 0
    next_yield = 0
    pool: ProcessPoolExecutor | None = None

    def finish(i: int, result: R) -> None:
        done[i] = result
        if on_done is not None:
            on_done(i, result)

    def submit(held: list[int]) -> None:
        nonlocal pool
        if pool is None:
            pool = ProcessPoolExecutor(max_workers=workers)
        try:
            running[pool.submit(_run_batch, function, [items[i] for i in held])] = held
        except BrokenProcessPool:  # a worker died while idle: a fresh pool, and try again
            pool.shutdown(wait=False, cancel_futures=True)
            pool = None
            suspects.extend(held)

    try:
        while next_yield < len(items):
            if suspects and not running:
                alone = suspects.popleft()
                submit([alone])
            while (
                not suspects
                and alone is None
                and next_submit < len(items)
                and next_submit - next_yield < window
                and len(running) < most_tasks
            ):
                first = next_submit
                next_submit += 1
                if local is not None and local(items[first]):
                    finish(first, function(items[first]))
                    continue
                end = min(len(items), first + batch, next_yield + window)
                while next_submit < end and (local is None or not local(items[next_submit])):
                    next_submit += 1
                submit(list(range(first, next_submit)))
            while next_yield in done:
                yield done.pop(next_yield)
                next_yield += 1
            if not running:
                continue
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            lost: list[int] = []
            for future in finished:
                held = running.pop(future)
                try:
                    results = future.result()
                except BrokenProcessPool:
                    lost += held
                    continue
                for i, result in zip(held, results, strict=True):
                    finish(i, result)
            if lost and pool is not None:
                for held in running.values():
                    lost += held
                running.clear()
                pool.shutdown(wait=False, cancel_futures=True)
                pool = None
                if alone is not None and lost == [alone]:
                    finish(alone, on_crash(items[alone]))
                else:
                    suspects.extend(sorted(lost))
            alone = None
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
