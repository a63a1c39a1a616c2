"""How fast this machine runs Python, against the machine the time limits were set on.

The hang detector's limits (:class:`tools.fuzz.harness.Budget`) are seconds of CPU time,
set on a machine where the slowest accepted work of the fixed-seed sample and of the
regressions takes well under them.  CPU time does not grow when another process shares
the cores, but it does on a slower processor: a CI runner that took 45 minutes over the
tests that take 21 on another met a 2.1 s limit on work that takes 1.4 to 1.9 s here, and
the same shared processor is not always as fast from one minute to the next.  So every
limit is multiplied by :func:`slowdown`: the CPU time of a fixed piece of work now (the
kind of work foldctl does: regular expressions, strings, dicts, decimals) over its time
on that machine at its fastest, never below 1.  A faster machine keeps the limits as
written; a hang (work that does not end, or grows with the square of its input) still
overruns any constant multiple of them.
"""

from __future__ import annotations

import functools
import os
import re
import statistics
import time
from decimal import Decimal
from typing import Final

#: The CPU seconds of :func:`_work` on the machine the limits were set on, at its fastest
#: (the median of :data:`_RUNS` ranged from 0.036 to 0.067 s there, from one process to
#: the next: the same processor, shared, is not always as fast).
REFERENCE_SECONDS: Final = 0.036
#: Set to a number, the slowdown to use instead of measuring one (``1``: the limits as
#: written).
ENV: Final = "FOLDCTL_FUZZ_SLOWDOWN"
_RUNS: Final = 5
_WORD: Final = re.compile(r"[A-Za-z]+-?\d*")
_AMOUNT: Final = re.compile(r"\d+\.\d\d")
_TEXT: Final = " ".join(
    f"order SO-{i} shipped {i * 7 % 1000} units at {i % 97}.50 EUR" for i in range(8_000)
)


def _work() -> int:
    counts: dict[str, int] = {}
    for word in _WORD.findall(_TEXT):
        counts[word.lower()] = counts.get(word.lower(), 0) + 1
    total = sum((Decimal(a) for a in _AMOUNT.findall(_TEXT)), Decimal(0))
    parts = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return len(parts) + int(total) + len(_TEXT.upper().split(" "))


def measure() -> float:
    """The median CPU seconds of :func:`_work` on this machine, now."""
    _work()  # the first run pays for warming up
    times = []
    for _ in range(_RUNS):
        start = time.process_time()
        _work()
        times.append(time.process_time() - start)
    return statistics.median(times)


@functools.cache
def slowdown() -> float:
    """How many times slower than the reference machine this one runs :func:`_work`
    (measured once, until :func:`remeasure`; :data:`ENV` overrides it), never below 1."""
    forced = os.environ.get(ENV)
    if forced:
        return max(1.0, float(forced))
    return max(1.0, measure() / REFERENCE_SECONDS)


def remeasure() -> float:
    """:func:`slowdown` measured again: each run of the fuzzer and each batch of replays
    starts with it, since the pace of a shared machine changes from one minute to the next
    (the runs' targets then read the value kept)."""
    slowdown.cache_clear()
    return slowdown()
