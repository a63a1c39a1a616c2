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

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from decimal import Decimal
from typing import Final

from foldctl.claims import atoms as A
from foldctl.lazyre import lazy

#: How many numbers of one text are combined (pairs, runs): the work stays bounded.
MAX_NUMBERS: Final = 80
#: A number not glued to a word (a sign of its own before it is no word: ``Ø42.000``).
_NUMBER: Final = lazy(
    "(?<![A-Za-z0-9_.])\\d{1,3}(?:[,.\u202f\u00a0]\\d{3})+(?:[.,]\\d{1,2}(?!\\d))?"
    "|(?<![A-Za-z0-9_.])\\d{1,3}(?: \\d{3}){2,}(?!\\d)"
    "|(?<![A-Za-z0-9_.])\\d+(?:[.,]\\d+)?"
)
#: A number of one group of thousands after a space ("12 480"), which :data:`_NUMBER`
#: reads as two.
_SPACED_THOUSANDS: Final = lazy(r"(?<![\d.,])\d{1,3} \d{3}(?![\d.,]| \d)")
#: A number whose one separator may group thousands or start decimals ("42.021", "1,204").
_ONE_GROUP: Final = lazy(r"\d{1,3}[.,]\d{3}")
#: Words that say a number is worked out from others.
_CUES: Final = lazy(
    r"\b(?:in total|totals?|totalling|totaling|in all|altogether|together|combined|sum|"
    r"subtotal|overall|come to|comes to|came to|coming to|add up|adds up|added up|"
    r"net of|difference|average|on average|"
    # a part of a figure: "accounts for 2.119,00 EUR of that", "makes up 57%"
    r"accounts? for|makes? up|made up|"
    # a figure over several things or a span: "across the five regions", "46 open files
    # between them", "over the three days"
    r"across|between them|over the (?:\w+ )?(?:days|weeks|months|runs|regions|jobs))\b"
)


def numbers_in(text: str, *, words: bool = False) -> list[Decimal]:
    """The numbers written in ``text`` (any locale's separators), the first
    :data:`MAX_NUMBERS` distinct ones; with ``words``, numbers written as words too (a
    summary's "three of the four inspections passed (75%)")."""
    found: dict[Decimal, None] = {}
    if words:
        for word in _NUMBER_WORD.findall(text[:20_000].lower()):
            found.setdefault(Decimal(A.NUMBER_WORDS[word]), None)
    for m in _NUMBER.finditer(text[:200_000]):
        written = m.group()
        values = [A.to_decimal(written, grouped=True)]
        if _ONE_GROUP.fullmatch(written):  # "42.021" is 42021 or 42.021: both are read
            values.append(A.to_decimal(written.replace(",", ".")))
        for value in values:
            if value is not None and value not in found:
                found[value] = None
        if len(found) >= MAX_NUMBERS:
            break
    # "12 480 source words": a thousand grouped by one space is read whole as well
    for m in _SPACED_THOUSANDS.finditer(text[:200_000]):
        if len(found) >= MAX_NUMBERS:
            break
        found.setdefault(Decimal(m.group().replace(" ", "")), None)
    return list(found)[:MAX_NUMBERS]


_NUMBER_WORD: Final = lazy(
    r"\b(?:" + "|".join(sorted(A.NUMBER_WORDS, key=len, reverse=True)) + r")\b"
)


#: Numbers joined by a plus or a minus with a space on each side ("108 + 177 + 266 - 47"):
#: a sum the summary writes out. A hyphen with no spaces joins a range or an id, not this.
_WRITTEN_SUM: Final = lazy(
    r"(?<![\w.,\u2212-])\d[\d,.]{0,15}(?:[ \t]{1,3}[+\u2212-][ \t]{1,3}\d[\d,.]{0,15}){1,11}(?!\w)"
)
_TERM: Final = lazy(r"([+\u2212-]?)[ \t]{0,3}(\d[\d,.]{0,15})")
#: How many written-out sums of one text are worked out: the work stays bounded.
_SUMS_READ: Final = 8


def written_out(value: Decimal, text: str, *, places: int) -> bool:
    """Whether ``value`` (written with ``places`` decimals) is a sum the text writes out
    with ``+`` and ``-`` between its numbers ("net 504 points (108 + 177 + 266 - 47)")."""
    if not any(sign in text for sign in ("+", " -", "\t-", "\u2212")):
        return False  # no sum written out: the common case, told without a search
    tolerance = Decimal(5) * Decimal(10) ** (-(places + 1))
    return any(abs(total - value) <= tolerance for total in _written_sums(text))


def _written_sums(text: str) -> list[Decimal]:
    """The value of each sum the text writes out, the first :data:`_SUMS_READ` of its
    first 20,000 characters."""
    found: list[Decimal] = []
    for m in _WRITTEN_SUM.finditer(text[:20_000]):
        total = Decimal(0)
        for sign, number in _TERM.findall(m.group()):
            value = A.to_decimal(number.rstrip(".,"), grouped=True)
            if value is None:
                break
            total += -value if sign in ("-", "\u2212") else value
        else:
            found.append(total)
        if len(found) >= _SUMS_READ:
            break
    return found


def derived_cue(clause: str, start: int, end: int) -> str | None:
    """What the clause says a number is (``a total``...), when it says it is derived."""
    hit = _CUES.search(clause.lower())
    if hit is None:
        return None
    return f"derived ({hit.group()}) from numbers in the originals; not checked"


def derivable(
    value: Decimal,
    numbers: Sequence[Decimal],
    *,
    percent: bool,
    places: int,
    additive: bool = False,
    shares: Sequence[Decimal] = (),
) -> bool:
    """Whether ``value`` (written with ``places`` decimals) is a sum, difference, product or
    ratio of two of ``numbers``, a sum of a run of them, or (``percent``) one of them as a
    percentage of another or the change from one to the other in percent ("40 mg to 30
    mg, a 25 % cut").

    Each number looks for its partner among the sorted numbers, in the window where their
    sum, difference, product or ratio would fall (widened past rounding), and each one
    found is checked exactly as written: the answer of trying every pair, in n log n
    (every pair of every number of a summary of thousands of sentences took seconds).
    With ``additive``, only a sum or a difference of two of them (a product or a ratio of
    two of many numbers lands near almost any small value).  With ``shares`` (the
    percentages of the text), also one of them with a share added or taken off (a price
    with VAT, a discount: "290,00 EUR, or 350,90 EUR with 21 % VAT")."""
    if value == 0:
        return False
    tolerance = Decimal(5) * Decimal(10) ** (-(places + 1))
    values = list(dict.fromkeys(n for n in numbers if n != 0))[:MAX_NUMBERS]
    target = abs(value)

    def near(candidate: Decimal) -> bool:
        return abs(candidate - target) <= tolerance

    if any(near(a) for a in values):
        return True
    for share in shares:
        for factor in (1 + share / 100, 1 - share / 100):
            if any(near(a * factor) for a in values):
                return True
    lo, hi = target - tolerance, target + tolerance
    if percent and lo <= 0:  # a ratio near 0: no window to look in, every pair is tried
        return any(
            near(top / bottom * 100)
            for i, a in enumerate(values)
            for b in values[i + 1 :]
            for top, bottom in ((a, b), (b, a))
        )
    ordered = sorted(values)

    def partners(a: Decimal, one: Decimal, other: Decimal) -> list[Decimal]:
        """The numbers but ``a`` between ``one`` and ``other``, widened past rounding."""
        low, high = min(one, other), max(one, other)
        slack = (abs(low) + abs(high)) * _SLACK + _SLACK
        found = ordered[bisect_left(ordered, low - slack) : bisect_right(ordered, high + slack)]
        return [b for b in found if b != a]

    for a in values:
        if percent:  # a as the top: a / b * 100 near the value
            if any(near(a / b * 100) for b in partners(a, a * 100 / lo, a * 100 / hi)):
                return True
            # a change from b to a, up or down: |a - b| / b * 100 ("40 mg to 30 mg, a 25 % cut")
            grown = partners(a, a * 100 / (100 + hi), a * 100 / (100 + lo))
            if hi < 100 or lo > 100:
                shrunk = partners(a, a * 100 / (100 - lo), a * 100 / (100 - hi))
            else:  # a change of about 100 %: a is about 0 beside b, any b may be it
                shrunk = [b for b in values if b != a]
            if any(near(abs(a - b) / b * 100) for b in [*grown, *shrunk]):
                return True
            continue
        if any(near(a + b) for b in partners(a, lo - a, hi - a)):
            return True
        if any(near(abs(a - b)) for b in partners(a, a - hi, a - lo)):
            return True
        if any(near(abs(a - b)) for b in partners(a, a + lo, a + hi)):
            return True
        if additive:
            continue
        if any(near(a * b) for b in partners(a, lo / a, hi / a)):
            return True
        # a as the top of a ratio (each pair is tried both ways); a value that rounds to
        # 0 has no window to look in: every partner is tried
        tops = partners(a, a / hi, a / lo) if lo > 0 else [b for b in values if b != a]
        if any(near(a / b) for b in tops):
            return True
    if percent or additive:
        return False
    for i in range(len(values)):  # a run of numbers as written: a column, a list of counts
        total = Decimal(0)
        for b in values[i : i + 12]:
            total += b
            if near(total):
                return True
    return False


#: How far :func:`derivable` widens its windows, relative to their ends, past the rounding
#: of decimal arithmetic (28 significant digits).
_SLACK: Final = Decimal("1e-20")
