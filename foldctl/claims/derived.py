"""Derived values: a number a summary computed from numbers the originals hold.

A total that is the sum of amounts, a subtotal that is quantity times unit price, a
difference, a percentage of two numbers, a count of listed items: the originals need not
print it, and it is not wrong.  A summary says when a value is derived ("in total",
"together", "come to", a percentage); only then is it worked out, from the numbers of
the messages the sentence draws on (and the summary's own: "the first two nights"):
a value that works out is supported, one that does not is ``unverified`` (never
``contradicted``: the summary may have used numbers the rules do not see).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from decimal import Decimal
from typing import Final

from foldctl.claims import atoms as A
from foldctl.lazyre import lazy

#: How many numbers of one text are combined (pairs, runs): the work stays bounded.
MAX_NUMBERS: Final = 80
_NUMBER: Final = lazy(
    "(?<![\\w.])\\d{1,3}(?:[,.\u202f\u00a0]\\d{3})+(?:[.,]\\d{1,2}(?!\\d))?"
    "|(?<![\\w.])\\d{1,3}(?: \\d{3}){2,}(?!\\d)"
    "|(?<![\\w.])\\d+(?:[.,]\\d+)?"
)
#: Words that say a number is worked out from others.
_CUES: Final = lazy(
    r"\b(?:in total|totals?|totalling|totaling|in all|altogether|together|combined|sum|"
    r"subtotal|overall|come to|comes to|came to|coming to|add up|adds up|added up|"
    r"net of|difference|average|on average)\b"
)


def numbers_in(text: str) -> list[Decimal]:
    """The numbers written in ``text`` (any locale's separators), the first
    :data:`MAX_NUMBERS` distinct ones."""
    found: dict[Decimal, None] = {}
    written: set[str] = set()
    for m in _NUMBER.finditer(text[:200_000]):
        raw = m.group()
        if raw in written:  # the same number again: read once
            continue
        written.add(raw)
        value = A.to_decimal(raw, grouped=True)
        if value is not None and value not in found:
            found[value] = None
            if len(found) >= MAX_NUMBERS:
                break
    return list(found)


def derived_cue(clause: str, start: int, end: int) -> str | None:
    """What the clause says a number is (``a total``...), when it says it is derived."""
    hit = _CUES.search(clause.lower())
    if hit is None:
        return None
    return f"derived ({hit.group()}) from numbers in the originals; not checked"


def derivable(value: Decimal, numbers: Sequence[Decimal], *, percent: bool, places: int) -> bool:
    """Whether ``value`` (written with ``places`` decimals) is a sum, difference, product or
    ratio of two of ``numbers``, a sum of a run of them, or (``percent``) one of them as a
    percentage of another.

    Each candidate partner of a number is found by bisection in the sorted numbers (the
    one that would make the value, then its neighbours), so the work grows as n log n, not
    with every pair."""
    if value == 0:
        return False
    tolerance = Decimal(5) * Decimal(10) ** (-(places + 1))
    values = list(dict.fromkeys(n for n in numbers if n != 0))[:MAX_NUMBERS]
    target = abs(value)
    ordered = sorted(values)

    def near(candidate: Decimal) -> bool:
        return abs(candidate - target) <= tolerance

    def combined(op: str, a: Decimal, b: Decimal) -> Decimal:
        if op == "sum":
            return a + b
        if op == "difference":
            return abs(a - b)
        if op == "product":
            return a * b
        if op == "ratio":
            return a / b
        return a / b * 100  # a percentage

    def partner(op: str, a: Decimal, wanted: Decimal) -> bool:
        """Whether the number nearest ``wanted`` (or a neighbour), with ``a``, makes it."""
        at = bisect_left(ordered, wanted)
        return any(b != a and near(combined(op, a, b)) for b in ordered[max(0, at - 1) : at + 1])

    for a in values:
        if near(a):
            return True
        if percent:
            if partner("percent", a, a * 100 / target):
                return True
            continue
        if (
            partner("sum", a, target - a)
            or partner("difference", a, a - target)
            or partner("difference", a, a + target)
            or partner("product", a, target / a)
            or partner("ratio", a, a / target)
        ):
            return True
    if percent:
        return False
    for i in range(len(values)):  # a run of numbers as written: a column, a list of counts
        total = Decimal(0)
        for b in values[i : i + 12]:
            total += b
            if near(total):
                return True
    return False
