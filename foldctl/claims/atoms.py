"""What a piece of text claims: the atom rules, in one place.

An *atom* is a fact small enough to look up: an identifier, an amount of
money, a number, a count, a duration, a date, a time, an email address, a
URL, a path, a version, a hash, an IP address, or a status word.  Each atom
has a *normalised value*, the way people mean it rather than the way it was
typed: ``$480``, ``$480.00`` and ``480.00 USD`` are all ``USD 480``;
``April 2, 2026``, ``2 April 2026`` and ``2026-04-02`` are all
``2026-04-02``; ``awaiting approval`` and ``pending_approval`` are both the
status family ``pending``.

Everything here is deterministic: regular expressions and small
vocabularies, no model, no network.  :data:`EXAMPLES` is the table of
examples (text -> atoms with normalised values) that the tests run and that
``docs/claims.md`` describes; change a rule and its examples together.

This module also holds the other vocabularies the comparison needs (status
families and how they relate, which JSON keys carry a status, an amount or
an identifier, what makes a tool result an error and what words mention
one), so that every rule about *meaning* lives in this one file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any, Final

from foldctl.lazyre import lazy

# --------------------------------------------------------------------------- atoms


def words(text: str) -> tuple[str, ...]:
    """A vocabulary written as one string of words separated by spaces."""
    return tuple(text.split())


_words = words

ID: Final = "id"
MONEY: Final = "money"
NUMBER: Final = "number"
PERCENT: Final = "percent"
COUNT: Final = "count"
TOOL_COUNT: Final = "tool_count"
DURATION: Final = "duration"
DATE: Final = "date"
TIME: Final = "time"
EMAIL: Final = "email"
URL: Final = "url"
PATH: Final = "path"
VERSION: Final = "version"
HASH: Final = "hash"
UUID: Final = "uuid"
IP: Final = "ip"
STATUS: Final = "status"

#: Kinds that name a thing (what a status or an amount can belong to).
ENTITY_KINDS: Final = frozenset({ID, VERSION, HASH, UUID})
#: Kinds a summary can invent: each is looked up in the evidence (``unsupported``).
FACT_KINDS: Final = frozenset(
    {
        ID,
        MONEY,
        NUMBER,
        PERCENT,
        COUNT,
        TOOL_COUNT,
        DURATION,
        DATE,
        TIME,
        EMAIL,
        URL,
        PATH,
        VERSION,
        HASH,
        UUID,
        IP,
    }
)


@dataclass(frozen=True, slots=True)
class Atom:
    """One atom of a text: its kind, the text as written, its normalised value, where it is.

    ``start``/``end`` are offsets into the text the atom was extracted from.
    ``value`` formats, by kind: ``id`` upper-case without separators
    (``RF9120``, ``#412``); ``money`` ``"EUR 642.1"`` (or ``"480"`` when no
    currency was written); ``number`` and ``percent`` a plain decimal
    (``1204``, ``3.7``); ``count`` ``"12 seat"`` (number and singular noun);
    ``tool_count`` ``"issue_refund×1"``; ``duration`` seconds (``"30"``);
    ``date`` ``2026-04-02``, ``--04-02`` (no year) or ``2026-04`` (a month);
    ``time`` ``09:00`` or ``09:00:33``; ``email``/``url``/``hash``/``uuid``
    lower-case; ``version`` without a leading ``v``; ``status`` the family
    name (``approved``, ``pending``, ``failed``, ...).
    """

    kind: str
    text: str
    value: str
    start: int
    end: int


# --------------------------------------------------------------------------- vocabularies

MONTHS: Final[dict[str, int]] = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}

NUMBER_WORDS: Final[dict[str, int]] = {
    word: n
    for n, word in enumerate(
        _words(
            "zero one two three four five six seven eight nine ten eleven twelve thirteen "
            "fourteen fifteen sixteen seventeen eighteen nineteen twenty"
        )
    )
} | {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "hundred": 100}

CURRENCY_SYMBOLS: Final[dict[str, str]] = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY"}
CURRENCY_CODES: Final = _words(
    "USD EUR GBP JPY CHF CAD AUD INR CNY SEK NOK DKK PLN NZD SGD HKD MXN BRL ZAR CZK HUF"
)
CURRENCY_WORDS: Final[dict[str, str]] = {
    "dollar": "USD",
    "dollars": "USD",
    "euro": "EUR",
    "euros": "EUR",
    "pound": "GBP",
    "pounds": "GBP",
}
MULTIPLIERS: Final[dict[str, int]] = {
    "k": 1000,
    "thousand": 1000,
    "m": 1_000_000,
    "million": 1_000_000,
    "bn": 1_000_000_000,
    "billion": 1_000_000_000,
}

#: Seconds per duration unit (a number followed by one of these is a duration).
DURATION_UNITS: Final[dict[str, int | Decimal]] = {
    "ms": Decimal("0.001"),
    "msec": Decimal("0.001"),
    "millisecond": Decimal("0.001"),
    "milliseconds": Decimal("0.001"),
    "s": 1,
    "sec": 1,
    "secs": 1,
    "second": 1,
    "seconds": 1,
    "min": 60,
    "mins": 60,
    "minute": 60,
    "minutes": 60,
    "h": 3600,
    "hr": 3600,
    "hrs": 3600,
    "hour": 3600,
    "hours": 3600,
    "day": 86400,
    "days": 86400,
    "week": 604800,
    "weeks": 604800,
}

#: Identifier-shaped words that are standards, not things (``SHA-256``, ``ISO-8601``).
ID_STOPLIST: Final = frozenset(
    _words("SHA UTF ISO RFC AES RSA HTTP HTTPS TLS SSL IPV MD BASE UTC GMT GPT MP ES PEP X")
)

#: Words after a number that make it no count (``3 of them``, ``2 to 4``).
NOT_NOUNS: Final = frozenset(
    _words(
        "of to and or in on at for by the a an is was were are be been with from per as than "
        "out times more less vs x after before into over under each which that this these "
        "those it its we i you he she they then so but if when while left ago later earlier "
        "percent am pm plus minus only also still etc via p nd rd th st about around approx "
        "approximately up down off across within without has have had will would can could "
        "should may might must not no"
    )
)
#: Words between a number and its noun (``3 failed requests``, ``3 tool calls``).
COUNT_MODIFIERS: Final = frozenset(
    _words(
        "more new open failed successful pending additional other extra tool unique distinct "
        "separate active total different consecutive remaining parallel concurrent "
        "outstanding duplicate failing passing previous earlier recent old large small minor "
        "major critical flaky blocked queued running retried unread further"
    )
)
#: Words that make the number after them a label ("summary 12", "section 3.2", "step 4").
LABEL_WORDS: Final = frozenset(
    words(
        "summary step part round iteration attempt page section chapter line row column item "
        "option rev revision phase stage level tier figure table slide question run turn"
    )
)
_LAST_WORD: Final = lazy(r"([A-Za-z]+)\.?[ ]$")
#: A count of these is a count of tool calls, checked against the calls themselves.
CALL_NOUNS: Final = frozenset({"call", "tool call", "tool-call", "invocation"})

# --------------------------------------------------------------------------- statuses


@dataclass(frozen=True, slots=True)
class Family:
    """A status family: the axes it is a value on and its rank along them.

    Two families conflict when they share an axis, differ, are not listed as
    compatible, and the summary's is not *earlier* (lower rank) than the
    evidence's: a summary saying "pending" of something the evidence later
    shows approved narrates history; one saying "approved" of something still
    pending invents the future.
    """

    name: str
    axes: frozenset[str]
    rank: int


def _family(name: str, axes: str, rank: int) -> Family:
    return Family(name, frozenset(axes.split()), rank)


FAMILIES: Final[dict[str, Family]] = {
    f.name: f
    for f in (
        _family("pending", "approval booking shipping payment outcome", 0),
        _family("approved", "approval payment", 1),
        _family("rejected", "approval payment", 1),
        _family("running", "outcome", 0),
        _family("succeeded", "outcome", 1),
        _family("failed", "outcome payment", 1),
        _family("rolled_back", "outcome", 1),
        _family("cancelled", "outcome booking shipping approval ticket payment", 1),
        _family("processing", "shipping", 0),
        _family("backordered", "shipping", 0),
        _family("shipped", "shipping", 1),
        _family("delivered", "shipping", 2),
        _family("returned", "shipping", 3),
        _family("open", "ticket", 0),
        _family("resolved", "ticket", 1),
        _family("merged", "ticket", 1),
        _family("held", "booking", 0),
        _family("confirmed", "booking", 1),
        _family("unpaid", "payment", 0),
        _family("paid", "payment", 1),
        _family("refunded", "payment", 2),
    )
}

#: Pairs of families that never contradict each other (either order).
COMPATIBLE: Final = frozenset(
    frozenset(pair)
    for pair in (
        ("resolved", "merged"),
        ("failed", "rolled_back"),
        ("failed", "rejected"),
        ("approved", "paid"),
        ("pending", "processing"),
        ("pending", "backordered"),
        ("pending", "running"),
        ("pending", "held"),
        ("pending", "unpaid"),
        ("pending", "open"),
    )
)

#: Status phrases in free text (summaries, prose lines), by family.  Words are
#: matched case-insensitively, with any run of spaces, ``_`` or ``-`` between them.
STATUS_PHRASES: Final[dict[str, tuple[str, ...]]] = {
    "approved": (
        "approved",
        "accepted",
        "authorized",
        "authorised",
        "granted",
        "signed off",
        "greenlit",
        "okayed",
    ),
    "pending": (
        "pending",
        "pending approval",
        "pending review",
        "pending finance approval",
        "pending sign off",
        "awaiting approval",
        "awaiting finance approval",
        "awaiting review",
        "awaiting sign off",
        "awaiting",
        "waiting for approval",
        "waiting on approval",
        "waiting on finance",
        "in review",
        "under review",
        "needs approval",
        "requires approval",
        "submitted for approval",
        "queued for approval",
        "not yet approved",
        "yet to be approved",
    ),
    "rejected": ("rejected", "denied", "declined", "refused", "disapproved"),
    "running": ("running", "in progress", "underway", "ongoing", "still running"),
    "succeeded": (
        "succeeded",
        "successful",
        "successfully",
        "passed",
        "passing",
        "completed",
        "finished",
        "deployed",
        "released",
        "rolled out",
        "went out",
        "went live",
        "is live",
        "applied",
        "restored",
        "all green",
    ),
    "failed": (
        "failed",
        "failing",
        "fails",
        "errored",
        "errored out",
        "crashed",
        "aborted",
        "timed out",
        "timeout",
        "timeouts",
        "unsuccessful",
        "did not succeed",
        "didn't succeed",
        "broke",
    ),
    "rolled_back": ("rolled back", "reverted", "rollback"),
    "cancelled": ("cancelled", "canceled", "called off"),
    "processing": (
        "processing",
        "awaiting shipment",
        "awaiting fulfillment",
        "pending shipment",
        "pending fulfillment",
        "not yet shipped",
        "being packed",
        "being prepared",
    ),
    "backordered": ("backordered", "back ordered", "on backorder", "out of stock"),
    "shipped": (
        "shipped",
        "dispatched",
        "in transit",
        "out for delivery",
        "sent out",
        "on its way",
        "on the way",
        "handed to the carrier",
    ),
    "delivered": ("delivered",),
    "returned": ("returned",),
    "open": ("open", "reopened", "still open", "investigating", "unresolved"),
    "resolved": ("resolved", "closed", "solved", "fixed", "mitigated"),
    "merged": ("merged",),
    "held": (
        "on hold",
        "held",
        "waitlisted",
        "provisional",
        "tentative",
        "unconfirmed",
        "pending confirmation",
        "awaiting confirmation",
    ),
    "confirmed": ("confirmed", "booked", "ticketed", "reserved"),
    "unpaid": (
        "unpaid",
        "outstanding",
        "overdue",
        "past due",
        "awaiting payment",
        "payment pending",
    ),
    "paid": ("paid", "paid in full", "settled", "captured"),
    "refunded": ("refunded",),
}

#: Values of a status *field* (``"status": "ok"``) beyond the free-text phrases.
STATUS_VALUES: Final[dict[str, str]] = {
    "ok": "succeeded",
    "complete": "succeeded",
    "success": "succeeded",
    "done": "succeeded",
    "live": "succeeded",
    "green": "succeeded",
    "pass": "succeeded",
    "passed": "succeeded",
    "healthy": "succeeded",
    "error": "failed",
    "failure": "failed",
    "fail": "failed",
    "red": "failed",
    "timeout": "failed",
    "crash": "failed",
    "unhealthy": "failed",
    "new": "open",
    "todo": "open",
    "triaged": "open",
    "acknowledged": "open",
    "queued": "running",
    "started": "running",
    "void": "cancelled",
    "voided": "cancelled",
    "partially paid": "unpaid",
    "due": "unpaid",
}

#: Words that, just before a status phrase, take the claim back ("not approved").
NEGATIONS: Final = frozenset(
    _words(
        "not never no without n't nor hasn't hadn't wasn't isn't weren't aren't didn't "
        "doesn't cannot can't won't"
    )
)


def trie_pattern(phrases: Iterable[str], separator: str = r"[\s_-]+") -> str:
    """One regular expression for many phrases, as a trie (far faster than an alternation).

    Longer phrases win over their prefixes; a space in a phrase matches ``separator``.
    """
    trie: dict[str, Any] = {}
    for phrase in phrases:
        node = trie
        for char in phrase:
            node = node.setdefault(char, {})
        node[""] = {}

    def emit(node: dict[str, Any]) -> str:
        branches = [
            (separator if char == " " else re.escape(char)) + emit(child)
            for char, child in sorted(node.items())
            if char
        ]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if "" in node:
            return f"(?:{body})?"
        return body

    return emit(trie)


_PHRASE_FAMILY: Final[dict[str, str]] = {
    phrase: family for family, phrases in STATUS_PHRASES.items() for phrase in phrases
}
_STATUS_ALTERNATION: Final = trie_pattern(_PHRASE_FAMILY)


def status_family(text: str) -> str | None:
    """The family of a status phrase or field value (``"PENDING_APPROVAL"`` -> ``pending``)."""
    key = " ".join(re.split(r"[\s_-]+", text.strip().lower()))
    return _PHRASE_FAMILY.get(key) or STATUS_VALUES.get(key)


def status_relation(summary: str, evidence: str) -> str:
    """``consistent``, ``conflict`` or ``unrelated``: a summary family against an evidence one."""
    if summary == evidence or frozenset((summary, evidence)) in COMPATIBLE:
        return "consistent"
    said, seen = FAMILIES[summary], FAMILIES[evidence]
    if not said.axes & seen.axes:
        return "unrelated"
    if said.rank < seen.rank:  # the summary tells an earlier stage: history, not a claim
        return "consistent"
    return "conflict"


# --------------------------------------------------------------------------- field names

#: Keys whose value is a status (also any key ending in ``_status`` or ``_state``).
STATUS_KEYS: Final = frozenset(
    _words("status state result outcome conclusion phase decision approval verdict")
)
#: Boolean keys that state an outcome: ``"ok": false`` is a failure.
BOOLEAN_STATUS_KEYS: Final[dict[str, tuple[str, str]]] = {
    "ok": ("succeeded", "failed"),
    "success": ("succeeded", "failed"),
    "succeeded": ("succeeded", "failed"),
    "passed": ("succeeded", "failed"),
    "approved": ("approved", "pending"),
    "paid": ("paid", "unpaid"),
    "merged": ("merged", "open"),
    "shipped": ("shipped", "processing"),
}
#: Keys whose value is an amount of money (also ``*_amount``, ``*_total``, ...).
AMOUNT_KEYS: Final = frozenset(
    _words(
        "amount total fare price cost sum balance subtotal charge refund refund_amount "
        "amount_due grand_total net gross value"
    )
)
AMOUNT_SUFFIXES: Final = ("_amount", "_total", "_price", "_fare", "_cost", "_due")
#: Keys whose value names the object it sits in (its *subject*).
ID_KEYS: Final = frozenset(["id", "key", "ref", "reference", "number", "uid"])
ID_SUFFIXES: Final = ("_id", "id", "_ref", "_number", "_no", "_key")


def normalise_key(key: str) -> str:
    """``"Refund ID"`` / ``"refundId"`` / ``"refund-id"`` -> ``refund_id``."""
    key = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", key.strip())
    return re.sub(r"[\s.-]+", "_", key.lower())


def is_status_key(key: str) -> bool:
    return key in STATUS_KEYS or key.endswith(("_status", "_state"))


def is_amount_key(key: str) -> bool:
    return key in AMOUNT_KEYS or key.endswith(AMOUNT_SUFFIXES)


#: Keys whose value is a date of the object (also ``*_date``, ``*_at``, ``*_on``).
DATE_KEYS: Final = frozenset(
    _words("date due deadline departure arrival eta start end expires expiry scheduled")
)
DATE_SUFFIXES: Final = ("_date", "_at", "_on", "_due", "_deadline", "_departure", "_arrival")


def is_date_key(key: str) -> bool:
    return key in DATE_KEYS or key.endswith(DATE_SUFFIXES) or key.startswith("date_")


def is_id_key(key: str) -> bool:
    return key in ID_KEYS or (key.endswith(ID_SUFFIXES) and key not in ("paid", "valid", "void"))


# --------------------------------------------------------------------------- the master pattern

_NUM: Final = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_MONTH: Final = trie_pattern(alt for name in MONTHS for alt in (name.capitalize(), name.upper()))
_CODES: Final = "|".join(CURRENCY_CODES)
_WORDNUM: Final = trie_pattern(NUMBER_WORDS)
_UNIT: Final = "|".join(sorted((u for u in DURATION_UNITS if len(u) <= 4), key=len, reverse=True))
_EXTS: Final = (
    "py|js|ts|tsx|jsx|json|yaml|yml|toml|md|txt|csv|tsv|sql|pdf|log|sh|go|rs|java|rb|html|"
    "css|xml|conf|cfg|ini|lock|tf|zip|gz|tgz|tar|png|jpg|jpeg|svg|docx|xlsx|env|parquet|ipynb"
)

#: The rules, one regular expression per kind of atom, in priority order (the first
#: that matches at a position wins), each with the characters it can begin with:
#: D a digit, U an upper-case letter, L a lower-case letter or ``_``, S a sign.
_RULES: Final[tuple[tuple[str, str, str], ...]] = (
    ("B_url", r"""(?P<url>\bhttps?://[^\s<>"'`)\]{}]+)""", "L"),
    (
        "B_email",
        r"(?<![\w.+-])[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}",
        "DUL",
    ),
    (
        "B_uuid",
        r"(?<![\w-])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
        r"(?![\w-])",
        "DUL",
    ),
    (
        "B_iso",
        r"(?<![\w-])(?P<iy>\d{4})-(?P<im>\d\d)-(?P<iday>\d\d)"
        r"(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?)?(?![\w-])",
        "D",
    ),
    ("B_slash", r"(?<![\w/])(?P<sy>\d{4})/(?P<sm>\d{1,2})/(?P<sd>\d{1,2})(?![\w/])", "D"),
    (
        "B_mdy",
        rf"(?P<mm>\b(?:{_MONTH}))\.? (?P<md>\d{{1,2}})(?:st|nd|rd|th)?(?:,? (?P<my>\d{{4}}))?"
        r"(?![\w:])",
        "U",
    ),
    ("B_my", rf"(?P<ymm>\b(?:{_MONTH}))\.?,? (?P<yy>\d{{4}})(?![\w])", "U"),
    (
        "B_dmy",
        rf"(?<![\w.])(?P<dd>\d{{1,2}})(?:st|nd|rd|th)? (?:of )?(?P<dm>(?:{_MONTH}))\b\.?"
        r"(?:,? (?P<dy>\d{4})(?!\d))?",
        "D",
    ),
    (
        "B_time",
        r"(?<![\w:.])(?P<th>[01]?\d|2[0-3]):(?P<tm>[0-5]\d)(?::(?P<ts>[0-5]\d)(?:\.\d+)?)?(?![\d:])"
        r"(?:\s?(?P<tap>[aApP]\.?[mM]\.?(?![\w])))?",
        "D",
    ),
    ("B_ampm", r"(?<![\w:.])(?P<th2>1[0-2]|0?[1-9])\s?(?P<tap2>[aApP][mM])\b", "D"),
    (
        "B_sym",
        rf"(?P<sym>[$€£¥])\s?(?P<sa>{_NUM})(?P<ssuf>\s?(?:k|K|m|M|bn|million|billion|thousand)\b)?",
        "S",
    ),
    ("B_ec", r"(?<![\w.,])(?P<ec>\d{1,3}(?:\.\d{3})*,\d\d)\s?(?:€|EUR\b)", "D"),
    (
        "B_code",
        rf"\b(?P<code1>{_CODES})\s?(?P<ca>{_NUM})(?P<csuf>\s?(?:k|m|bn|million|billion)\b)?",
        "U",
    ),
    ("B_amount", rf"(?<![\w.])(?P<ac>{_NUM})\s?(?P<code2>{_CODES}|dollars?|euros?|pounds?)\b", "D"),
    ("B_pct", rf"(?<![\w.])(?P<pct>{_NUM})\s?(?:%| percent\b)", "D"),
    ("B_ip", r"(?<![\w.])(?P<ip>\d{1,3}(?:\.\d{1,3}){3})(?![\w]|\.\w)", "D"),
    ("B_ver", r"(?<![\w.])[vV](?P<ver>\d+(?:\.\d+){1,3}(?:-[0-9A-Za-z.]+)?)(?![\w])", "UL"),
    ("B_ver2", r"\b(?:version|release|ver\.?) (?P<ver2>\d+(?:\.\d+)+)(?![\w])", "L"),
    ("B_ver3", r"(?<![\w.])\d+\.\d+\.\d+(?:-[0-9A-Za-z.]*[0-9A-Za-z])?(?![\w]|\.\w)", "D"),
    (
        "B_path",
        rf"(?<![\w/.:~-])(?:(?:~|\.{{1,2}})?/(?:[\w.@+-]+/)*[\w.@+-]*[\w@+-]"
        rf"|(?:[\w.-]+/)+[\w.-]+\.[A-Za-z0-9]{{1,8}}|[\w-][\w.-]*\.(?:{_EXTS}))(?![\w/])",
        "DULS",
    ),
    ("B_tc", r"(?P<tc>\b[A-Za-z_][\w.-]*)\s?×\s?(?P<tcn>\d+)", "UL"),
    (
        "B_id",
        r"(?<![\w/.-])(?=[A-Z][A-Z0-9_-]*\d)(?:[A-Z][A-Z0-9]*(?:[-_][A-Z0-9]+)+|[A-Z]+\d[A-Z0-9]*)"
        r"(?![\w-])",
        "U",
    ),
    ("B_lid", r"(?<![\w/.-])[a-z]{2,6}_(?=[A-Za-z]*\d)[A-Za-z0-9]{6,}(?![\w-])", "L"),
    ("B_hid", r"(?<![\w/.-])[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*-\d{2,}(?![\w-])", "L"),
    ("B_hnum", r"(?<![\w&])\#(?P<hnum>\d{2,})\b", "S"),
    ("B_hash", r"(?<![\w-])[0-9a-f]{7,40}(?![\w-])", "DL"),
    (
        "B_num",
        rf"(?<![\w.:/\#$€£¥@-])(?P<num>{_NUM}|(?i:{_WORDNUM})\b)(?P<unit>{_UNIT})?(?![\w])"
        r"(?=(?: (?P<w1>[A-Za-z][A-Za-z-]*)(?: (?P<w2>[A-Za-z][A-Za-z-]*))?)?)",
        "DUL",
    ),
)


def _compile_rules(first: str) -> re.Pattern[str]:
    body = "|".join(f"(?P<{name}>{rule})" for name, rule, starts in _RULES if first in starts)
    return lazy(rf"(?<![\w])(?:{body})")


#: One pattern per kind of first character, so a position only tries the rules that can
#: begin there.
_PATTERNS: Final[dict[str, re.Pattern[str]]] = {c: _compile_rules(c) for c in "DULS"}


def _match_at(text: str, position: int) -> re.Match[str] | None:
    char = text[position]
    if char.isdigit():
        first = "D"
    elif not char.isascii():
        first = "S" if char in "€£¥" else ""
    elif char.isupper():
        first = "U"
    elif char.islower() or char == "_":
        first = "L"
    else:
        first = "S"
    pattern = _PATTERNS.get(first)
    return None if pattern is None else pattern.match(text, position)


_DIGIT_RUN: Final = lazy(r"\d+")
_TRAILING: Final = ".,;:!?)]}'\""


# --------------------------------------------------------------------------- normalisers


def decimal_text(value: Decimal) -> str:
    """A decimal without trailing zeros or exponent: ``480.00`` -> ``480``, ``642.1`` stays."""
    text = format(value.normalize(), "f")
    return text


def to_decimal(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace(",", ""))
    except InvalidOperation:
        return None


def money_value(currency: str | None, amount: Decimal) -> str:
    """The normalised value of an amount of money (``USD 480``, or ``480`` with no currency)."""
    number = decimal_text(amount)
    return f"{currency} {number}" if currency else number


def parse_money(value: str) -> tuple[str | None, Decimal]:
    """Back from :func:`money_value` (or a plain number) to (currency, amount)."""
    currency, _, number = value.rpartition(" ")
    return (currency or None), Decimal(number)


def singular(word: str) -> str:
    """A crude singular, enough to match ``seats`` with ``seat`` and ``entries`` with ``entry``."""
    word = word.lower()
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _date(year: str | None, month: int, day: int) -> str | None:
    if not 1 <= month <= 12 or not 1 <= day <= 31:
        return None
    return f"{year}-{month:02d}-{day:02d}" if year else f"--{month:02d}-{day:02d}"


def _time(hour: int, minute: str, second: str | None, ampm: str | None) -> str | None:
    if ampm:
        if hour > 12:
            return None
        pm = ampm[0] in "pP"
        hour = hour % 12 + (12 if pm else 0)
    return f"{hour:02d}:{minute}" + (f":{second}" if second else "")


def _strip_trailing(text: str) -> str:
    while text and text[-1] in _TRAILING:
        text = text[:-1]
    return text


def normalise_url(url: str) -> str:
    scheme, _, rest = url.partition("://")
    host, slash, path = rest.partition("/")
    path = path.rstrip("/")
    return f"{scheme.lower()}://{host.lower()}" + (f"/{path}" if slash and path else "")


# --------------------------------------------------------------------------- extraction


#: Characters every atom but a status, a spelled-out count or a bare file name contains.
_ANCHOR: Final = lazy(r"[0-9$€£¥#@×/][0-9]*")
#: Where an atom may begin: a word start (or a sign that opens one).
_WORD_START: Final = lazy(r"(?<![\w])[\w$€£¥#~/.]")
_EXTENSION: Final = lazy(rf"\.(?:{_EXTS})(?![\w])")
_STATUS_ONLY: Final = lazy(rf"(?<![\w-])(?i:{_STATUS_ALTERNATION})(?![\w-])")
_STATUS_FIRST_WORDS: Final = frozenset(p.split()[0] for p in _PHRASE_FAMILY)
_LOWER_WORD: Final = lazy(r"[a-z]+")
_NUMBER_WORD_SET: Final = frozenset(NUMBER_WORDS)
#: Words that open an atom whose digits come in the next word (``EUR 642``, ``April 2``).
_LEADING_WORDS: Final = frozenset(
    [m for m in MONTHS] + [c.lower() for c in CURRENCY_CODES] + ["version", "release", "ver"]
)


@lru_cache(maxsize=8192)
def summary_atoms(summary: str) -> tuple[Atom, ...]:
    """The atoms of a summary, kept: choosing what to index and checking both read them."""
    return tuple(extract_atoms(summary))


def extract_atoms(text: str, *, all_numbers: bool = False) -> list[Atom]:
    """The atoms of ``text``, in order of position.

    A bare number (no currency, unit or noun) is an atom only when it carries
    information: three or more digits, a decimal part, or thousands separators
    (``4242``, ``3.5``, ``1,204``; not the ``6`` of "Summary 6").  With
    ``all_numbers`` every number is kept (the evidence side uses this, so a
    summary's ``$5`` can be found in an evidence ``5.00``).

    The rules are one pattern (``_PATTERN``), but it is only tried where an
    atom can be: at word starts shortly before a digit or one of ``$€£¥#@×/``,
    before a known file extension, and at the status words and spelled-out
    numbers found by plain substring search.  That keeps extraction fast on
    long texts without changing what the pattern means.
    """
    atoms: list[Atom] = []
    consumed = 0
    for anchor in _ANCHOR.finditer(text):
        at = anchor.start()
        if at < consumed:
            continue
        match = _match_covering(text, at, consumed)
        if match is None:
            consumed = anchor.end()
            continue
        consumed = match.end()
        atom = _atom(match, all_numbers)
        if atom is not None:
            atoms.append(atom)
    for hit in _EXTENSION.finditer(text):
        if any(a.start <= hit.start() < a.end for a in atoms):
            continue
        match = _match_covering(text, hit.start(), 0)
        if match is not None:
            atom = _atom(match, all_numbers)
            if atom is not None:
                atoms.append(atom)
    words = _word_atoms(text, all_numbers)
    if words:
        taken = [(a.start, a.end) for a in atoms if a.kind != COUNT]
        atoms.extend(w for w in words if not any(s <= w.start < e for s, e in taken))
    atoms.sort(key=lambda a: a.start)
    return atoms


def _match_covering(text: str, at: int, floor: int) -> re.Match[str] | None:
    """The pattern's match that begins at a word start near ``at`` and covers it.

    Tried: the word before a number when it opens a multi-word atom (``EUR
    642``, ``April 2``, ``version 2.14``), then the word starts of the token
    holding ``at``, up to ``at`` (``(CH-5531`` -> ``CH-5531``).
    """
    low = max(floor, at - 300)
    begin = max(text.rfind(" ", low, at), text.rfind("\n", low, at), text.rfind("\t", low, at))
    begin = low if begin < 0 else begin + 1
    if begin == at and text[at].isdigit() and at - 2 >= floor and text[at - 1] == " ":
        first = max(text.rfind(" ", max(floor, at - 14), at - 1), text.rfind("\n", floor, at - 1))
        first = max(first + 1, floor)
        while first < at - 1 and text[first] in "([{\"'":
            first += 1
        if text[first : at - 1].strip(".,").lower() in _LEADING_WORDS:
            match = _match_at(text, first)
            if match is not None and match.end() > at:
                return match
    if begin == at:
        match = _match_at(text, at)
        return match if match is not None and match.end() > at else None
    for start in _WORD_START.finditer(text, begin, at + 1):
        match = _match_at(text, start.start())
        if match is not None and match.end() > at:
            return match
    return None


def _word_atoms(text: str, all_numbers: bool) -> list[Atom]:
    """Statuses and spelled-out counts: found by substring search for their first words."""
    lowered = text.lower()
    present = set(_LOWER_WORD.findall(lowered))
    found: list[Atom] = []
    for word in present & _STATUS_FIRST_WORDS:
        index = lowered.find(word)
        while index >= 0:
            if index == 0 or not (lowered[index - 1].isalnum() or lowered[index - 1] in "_-"):
                match = _STATUS_ONLY.match(text, index)
                if match is not None:
                    atom = _status(match)
                    if atom is not None:
                        found.append(atom)
            index = lowered.find(word, index + 1)
    for word in present & _NUMBER_WORD_SET:
        index = lowered.find(word)
        while index >= 0:
            if index == 0 or not lowered[index - 1].isalnum():
                match = _match_at(text, index)
                if match is not None and match.lastgroup == "B_num":
                    atom = _number(match, all_numbers)
                    if atom is not None:
                        found.append(atom)
            index = lowered.find(word, index + 1)
    if not found:
        return found
    found.sort(key=lambda a: (a.start, -a.end))
    kept: list[Atom] = []
    for atom in found:
        if kept and atom.start < kept[-1].end and atom.kind == STATUS == kept[-1].kind:
            continue  # "not yet approved" holds "approved"
        kept.append(atom)
    return kept


def _atom(m: re.Match[str], all_numbers: bool) -> Atom | None:
    branch = m.lastgroup
    if branch == "B_num":
        return _number(m, all_numbers)
    handler = _BRANCHES.get(branch or "")
    return None if handler is None else handler(m)


def _url(m: re.Match[str]) -> Atom | None:
    text = _strip_trailing(m.group())
    return Atom(URL, text, normalise_url(text), m.start(), m.start() + len(text))


def _email(m: re.Match[str]) -> Atom | None:
    return Atom(EMAIL, m.group(), m.group().lower(), m.start(), m.end())


def _uuid(m: re.Match[str]) -> Atom | None:
    return Atom(UUID, m.group(), m.group().lower(), m.start(), m.end())


def _iso(m: re.Match[str]) -> Atom | None:
    value = _date(m.group("iy"), int(m.group("im")), int(m.group("iday")))
    return None if value is None else Atom(DATE, m.group(), value, m.start(), m.end())


def _slash(m: re.Match[str]) -> Atom | None:
    value = _date(m.group("sy"), int(m.group("sm")), int(m.group("sd")))
    return None if value is None else Atom(DATE, m.group(), value, m.start(), m.end())


def _mdy(m: re.Match[str]) -> Atom | None:
    value = _date(m.group("my"), MONTHS[m.group("mm").lower()], int(m.group("md")))
    return None if value is None else Atom(DATE, m.group(), value, m.start(), m.end())


def _my(m: re.Match[str]) -> Atom | None:
    month = MONTHS[m.group("ymm").lower()]
    return Atom(DATE, m.group(), f"{m.group('yy')}-{month:02d}", m.start(), m.end())


def _dmy(m: re.Match[str]) -> Atom | None:
    value = _date(m.group("dy"), MONTHS[m.group("dm").lower()], int(m.group("dd")))
    if value is None:
        return None
    return Atom(DATE, m.group().rstrip("."), value, m.start(), m.end())


def _clock(m: re.Match[str]) -> Atom | None:
    value = _time(int(m.group("th")), m.group("tm"), m.group("ts"), m.group("tap"))
    return None if value is None else Atom(TIME, m.group(), value, m.start(), m.end())


def _ampm(m: re.Match[str]) -> Atom | None:
    value = _time(int(m.group("th2")), "00", None, m.group("tap2"))
    return None if value is None else Atom(TIME, m.group(), value, m.start(), m.end())


def _symbol_money(m: re.Match[str]) -> Atom | None:
    amount = to_decimal(m.group("sa"))
    if amount is None:
        return None
    suffix = (m.group("ssuf") or "").strip().lower()
    if suffix:
        amount *= MULTIPLIERS[suffix]
    value = money_value(CURRENCY_SYMBOLS[m.group("sym")], amount)
    return Atom(MONEY, m.group(), value, m.start(), m.end())


def _euro_comma(m: re.Match[str]) -> Atom | None:
    amount = to_decimal(m.group("ec").replace(".", "").replace(",", "."))
    if amount is None:
        return None
    return Atom(MONEY, m.group(), money_value("EUR", amount), m.start(), m.end())


def _code_money(m: re.Match[str]) -> Atom | None:
    amount = to_decimal(m.group("ca"))
    if amount is None:
        return None
    suffix = (m.group("csuf") or "").strip().lower()
    if suffix:
        amount *= MULTIPLIERS[suffix]
    return Atom(MONEY, m.group(), money_value(m.group("code1"), amount), m.start(), m.end())


def _amount_code(m: re.Match[str]) -> Atom | None:
    amount = to_decimal(m.group("ac"))
    if amount is None:
        return None
    code = m.group("code2")
    currency = CURRENCY_WORDS.get(code.lower(), code)
    return Atom(MONEY, m.group(), money_value(currency, amount), m.start(), m.end())


def _percent(m: re.Match[str]) -> Atom | None:
    amount = to_decimal(m.group("pct"))
    if amount is None:
        return None
    return Atom(PERCENT, m.group(), decimal_text(amount), m.start(), m.end())


def _ip(m: re.Match[str]) -> Atom | None:
    if all(int(part) <= 255 for part in m.group("ip").split(".")):
        return Atom(IP, m.group(), m.group(), m.start(), m.end())
    return None


def _v_version(m: re.Match[str]) -> Atom | None:
    return Atom(VERSION, m.group(), m.group("ver").lower(), m.start(), m.end())


def _named_version(m: re.Match[str]) -> Atom | None:
    return Atom(VERSION, m.group("ver2"), m.group("ver2"), m.start("ver2"), m.end("ver2"))


def _bare_version(m: re.Match[str]) -> Atom | None:
    return Atom(VERSION, m.group(), m.group().lower(), m.start(), m.end())


def _path(m: re.Match[str]) -> Atom | None:
    text = _strip_trailing(m.group())
    if "/" not in text and not re.search(r"[A-Za-z]", text.rsplit(".", 1)[0]):
        return None
    return Atom(PATH, text, text.removeprefix("./"), m.start(), m.start() + len(text))


def _tool_count(m: re.Match[str]) -> Atom | None:
    value = f"{m.group('tc')}×{int(m.group('tcn'))}"
    return Atom(TOOL_COUNT, m.group(), value, m.start(), m.end())


def _upper_id(m: re.Match[str]) -> Atom | None:
    return _identifier(m.group(), m.start(), m.end())


def _lower_id(m: re.Match[str]) -> Atom | None:
    return Atom(ID, m.group(), m.group(), m.start(), m.end())


def _host_id(m: re.Match[str]) -> Atom | None:
    return Atom(ID, m.group(), m.group().upper().replace("-", ""), m.start(), m.end())


def _hash_number(m: re.Match[str]) -> Atom | None:
    return Atom(ID, m.group(), "#" + m.group("hnum"), m.start(), m.end())


def _hash(m: re.Match[str]) -> Atom | None:
    text = m.group()
    if text.isdigit() or not any(c.isdigit() for c in text):
        return None
    return Atom(HASH, text, text, m.start(), m.end())


_BRANCHES: Final[dict[str, Callable[[re.Match[str]], Atom | None]]] = {
    "B_url": _url,
    "B_email": _email,
    "B_uuid": _uuid,
    "B_iso": _iso,
    "B_slash": _slash,
    "B_mdy": _mdy,
    "B_my": _my,
    "B_dmy": _dmy,
    "B_time": _clock,
    "B_ampm": _ampm,
    "B_sym": _symbol_money,
    "B_ec": _euro_comma,
    "B_code": _code_money,
    "B_amount": _amount_code,
    "B_pct": _percent,
    "B_ip": _ip,
    "B_ver": _v_version,
    "B_ver2": _named_version,
    "B_ver3": _bare_version,
    "B_path": _path,
    "B_tc": _tool_count,
    "B_id": _upper_id,
    "B_lid": _lower_id,
    "B_hid": _host_id,
    "B_hnum": _hash_number,
    "B_hash": _hash,
}


_UPPER_PREFIX: Final = lazy(r"[A-Z]+")
_NOT_ID_CHAR: Final = lazy(r"[^A-Z0-9]")
_APOSTROPHE_WORDS: Final = lazy(r"[a-z']+")


def _identifier(text: str, start: int, end: int) -> Atom | None:
    """Upper-case identifiers: two digits (``KB-212``), or one in a long code (``K7QZ2D``)."""
    digits = sum(c.isdigit() for c in text)
    prefix = _UPPER_PREFIX.match(text)
    if prefix is not None and prefix.group() in ID_STOPLIST:
        return None
    if digits < 2 and not (digits == 1 and len(text) >= 6 and len(text) - digits >= 3):
        return None
    if prefix is not None and len(prefix.group()) == 1 and "-" not in text and len(text) < 5:
        return None  # P95, H100: a measure or a model, not a record
    return Atom(ID, text, _NOT_ID_CHAR.sub("", text), start, end)


def _number(m: re.Match[str], all_numbers: bool) -> Atom | None:
    raw = m.group("num")
    word = raw.lower()
    is_word = word in NUMBER_WORDS
    amount = Decimal(NUMBER_WORDS[word]) if is_word else to_decimal(raw)
    if amount is None:
        return None
    unit = m.group("unit")
    start = m.start()
    if unit:
        seconds = amount * Decimal(DURATION_UNITS.get(unit, 1))
        if unit in DURATION_UNITS:
            return Atom(DURATION, m.group(0), decimal_text(seconds), start, m.end())
        return None
    w1, w2 = m.group("w1"), m.group("w2")
    if w1 and w1.lower() in MULTIPLIERS:
        return None  # "1.2 million rows" is a rounded figure, not a value to look up
    if w1:
        lw1 = w1.lower()
        if lw1 in DURATION_UNITS and not is_word:
            seconds = amount * Decimal(DURATION_UNITS[lw1])
            return Atom(DURATION, f"{raw} {w1}", decimal_text(seconds), start, m.end("w1"))
        noun, noun_end = None, 0
        if lw1 in COUNT_MODIFIERS and w2 and w2.lower() not in NOT_NOUNS:
            noun, noun_end = (
                (f"{lw1} {w2.lower()}", m.end("w2"))
                if lw1 == "tool"
                else (
                    w2.lower(),
                    m.end("w2"),
                )
            )
        elif lw1 not in NOT_NOUNS and lw1 not in MONTHS:
            noun, noun_end = lw1, m.end("w1")
        if noun is not None and "." not in raw:
            lemma = " ".join(singular(part) for part in noun.split())
            text = m.string[start:noun_end]
            return Atom(COUNT, text, f"{int(amount)} {lemma}", start, noun_end)
    if is_word:
        return None
    before = _LAST_WORD.search(m.string, max(0, start - 16), start)
    if before is not None and before.group(1).lower() in LABEL_WORDS and not all_numbers:
        return None  # "summary 100", "section 3.2": a label, not a quantity
    significant = "." in raw or "," in raw or len(raw.lstrip("0")) >= 3
    if not (significant or all_numbers):
        return None
    return Atom(NUMBER, raw, decimal_text(amount), start, m.end("num"))


def family_of_progress(text: str) -> bool:
    """Whether ``being``/``getting`` before this status makes it a process, not a state."""
    return not text.lower().startswith(("being", "prepared", "packed"))


def _status(m: re.Match[str]) -> Atom | None:
    text = m.group(0)
    family = status_family(text)
    if family is None:
        return None
    before = m.string[max(0, m.start() - 30) : m.start()].lower()
    words = _APOSTROPHE_WORDS.findall(before)[-3:]
    if any(w in NEGATIONS or w.endswith("n't") for w in words):
        return None
    if words and words[-1] in ("being", "getting") and family_of_progress(text):
        return None  # "is being refunded": under way, not done
    return Atom(STATUS, text, family, m.start(), m.end())


# --------------------------------------------------------------------------- lookup keys


def lookup_keys(atom: Atom) -> tuple[tuple[str, ...], ...]:
    """Tokens any evidence spelling of ``atom`` must contain, as groups of alternatives.

    The evidence index files each message under its *number tokens*: maximal
    runs of digits and dots (``480.00``, ``2026``, ``10.0.3.17``; a ``,`` or
    ``-`` ends a token).  A message can support ``atom`` only if it holds one
    token of every group: a date needs its year *and* its day.  Empty when the
    atom has no dependable number token (an email, a URL, a path, a version, a
    hash, an identifier with fewer than three digits in a row): such atoms are
    looked up by :func:`needle` instead.
    """
    kind, value = atom.kind, atom.value
    if kind == ID:
        run = _longest_run(atom.text)
        return ((run, run + "."),) if len(run) >= 3 else ()
    if kind in (MONEY, NUMBER, PERCENT):
        amount = parse_money(value)[1]
        whole = str(int(abs(amount)))
        if kind == MONEY and amount != int(amount) and len(whole) > 1:
            return ((*number_spellings(amount), whole),)  # "642,10 €": the comma splits it
        return (number_spellings(amount),)
    if kind == COUNT:
        return (number_spellings(Decimal(value.split(" ", 1)[0])),)
    if kind == DURATION:
        seconds = Decimal(value)
        forms: list[str] = []
        for factor in (Decimal(1), Decimal(1000), Decimal(1) / 60, Decimal(1) / 3600):
            scaled = seconds * factor
            if scaled > 0 and scaled == scaled.quantize(Decimal("0.001")):
                forms.extend(number_spellings(scaled))
        written = _longest_run(atom.text)
        forms.extend((written, written + "."))
        return (tuple(dict.fromkeys(forms)),)
    if kind == DATE:
        if value.startswith("--"):
            return (_padded(int(value[5:7])),)
        year = value[:4]
        if len(value) == 7:
            return ((year, year + "."),)
        return ((year, year + "."), _padded(int(value[8:10])))
    if kind == TIME:
        hour = int(value[:2])
        hours = set(_padded(hour)) | (set(_padded(hour - 12)) if hour > 12 else set())
        hours |= set(_padded(12)) if hour in (0, 12) else set()
        if value[3:5] == "00":
            return (tuple(sorted(hours)),)  # "9am" has no minutes to look for
        return (tuple(sorted(hours)), (value[3:5], value[3:5] + "."))
    if kind == IP:
        return ((value, value + "."),)
    return ()


def _longest_run(text: str) -> str:
    runs = _DIGIT_RUN.findall(text)
    return max(reversed(runs), key=len) if runs else ""


def _padded(number: int) -> tuple[str, ...]:
    forms = {str(number), f"{number:02d}"}
    return tuple(sorted(forms | {f + "." for f in forms}))


def number_spellings(amount: Decimal) -> tuple[str, ...]:
    """The number tokens a number can be written with: 480 -> 480, 480.0, 480.00, 480. ..."""
    amount = abs(amount)
    whole = int(amount)
    fraction = decimal_text(amount - whole).partition(".")[2] if amount != whole else ""
    bases = [str(whole)]
    if whole >= 1000:
        bases.append(str(whole)[-3:])  # "2,880.00" is the tokens "2" and "880.00"
    spellings: list[str] = []
    for base in bases:
        if fraction:
            forms = [f"{base}.{fraction}"] + ([f"{base}.{fraction}0"] if len(fraction) == 1 else [])
        else:
            forms = [base, f"{base}.0", f"{base}.00"]
        spellings.extend(forms)
        spellings.extend(f + "." for f in forms)
    return tuple(spellings)


def needle(atom: Atom) -> str:
    """A substring any evidence spelling of ``atom`` contains, for atoms without keys.

    Emails and URLs are compared lower-case; an identifier is found by its
    longest digit run, a path by its last segment, a hash by its first 7
    characters, a version by its text without the ``v``.
    """
    if atom.kind == EMAIL:
        return atom.value
    if atom.kind == URL:
        return atom.value.partition("://")[2]
    if atom.kind == PATH:
        return atom.value.rsplit("/", 1)[-1]
    if atom.kind in (HASH, UUID):
        return atom.value[:7]
    if atom.kind == ID:
        run = _longest_run(atom.text)
        return run or atom.text
    return atom.value


_CURRENCY_NEAR: Final = lazy(
    rf"(?P<before>[$€£¥]|\b(?:{_CODES})\b)\s?$|^\s?(?P<after>[$€£¥]|(?:{_CODES}|dollars?|euros?|pounds?)\b)"
)
_DECIMAL_COMMA: Final = lazy(r",(\d\d)(?!\d)\s?(?:€|EUR\b)")
_ID_CHARS: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-#")


def _part_of_stamp(text: str, begin: int, end: int) -> bool:
    """Whether the number at ``text[begin:end]`` is part of a date or time (``03-14``, ``9:42``)."""
    before = text[max(0, begin - 2) : begin]
    after = text[end : end + 2]
    joined = len(before) == 2 and before[1] in "-/:" and before[0].isdigit()
    return joined or (len(after) == 2 and after[0] in "-/:" and after[1].isdigit())


def _is_year(claim: Atom) -> bool:
    return claim.kind == NUMBER and claim.value.isdigit() and 1900 <= int(claim.value) <= 2100


def token_supports(claim: Atom, text: str, start: int, end: int) -> bool | None:
    """Decide from the number token at ``text[start:end]`` alone, when that is enough.

    Numbers, amounts, percentages, large counts and identifiers are settled
    here (``True``/``False``) without running the full rules over the
    surroundings; other kinds return ``None`` (read the window around it).
    """
    kind = claim.kind
    if kind in (MONEY, NUMBER, PERCENT) or (kind == COUNT and int(claim.value.split(" ")[0]) >= 10):
        begin = start
        while begin >= 2 and text[begin - 1] == "," and text[begin - 2].isdigit():
            begin -= 2
            while begin > 0 and text[begin - 1].isdigit():
                begin -= 1
        if _part_of_stamp(text, begin, end) and not _is_year(claim):
            return False  # the day of "2026-03-14" is no count of 14 things
        if (
            kind != NUMBER
            and begin > 0
            and (
                text[begin - 1].isalpha()
                or (text[begin - 1] in "-_#" and begin > 1 and text[begin - 2].isalnum())
            )
        ):
            return False  # the tail of an identifier (SO-480) is no amount or count
        token = text[begin:end].rstrip(".")
        comma = _DECIMAL_COMMA.match(text, end)
        if comma is not None and "." not in token:
            token += "." + comma.group(1)  # "642,10 €"
        seen = to_decimal(token)
        if seen is None:
            return False
        if kind == COUNT:
            return seen == Decimal(claim.value.split(" ")[0])
        currency, amount = parse_money(claim.value)
        if seen != amount:
            return False
        if currency:
            near = _CURRENCY_NEAR.search(text[max(0, begin - 5) : begin])
            after = _CURRENCY_NEAR.match(text[end : end + 9])
            for found in (near and near.group("before"), after and after.group("after")):
                if found:
                    code = CURRENCY_SYMBOLS.get(found) or CURRENCY_WORDS.get(found.lower(), found)
                    if code != currency:
                        return False
        return True
    if kind == ID:
        begin, stop = start, end
        while begin > 0 and text[begin - 1] in _ID_CHARS:
            begin -= 1
        while stop < len(text) and text[stop] in _ID_CHARS:
            stop += 1
        token = text[begin:stop].strip("-_")
        if claim.value.startswith("#"):
            return token.lstrip("#") == claim.value[1:]
        if not claim.value.isupper():  # a case-sensitive id (ch_3Nx8aB2c) is compared as is
            return token == claim.value
        return re.sub(r"[^A-Z0-9]", "", token.upper()) == claim.value
    return None


# --------------------------------------------------------------------------- support


def supports(claim: Atom, seen: Atom) -> bool:
    """Whether evidence atom ``seen`` says the same as summary atom ``claim``."""
    kind = claim.kind
    if kind == ID:
        if seen.kind == ID:
            return seen.value == claim.value
        if claim.value.startswith("#") and seen.kind == NUMBER:
            return seen.value == claim.value[1:]
        return False
    if kind in (MONEY, NUMBER, PERCENT):
        currency, amount = parse_money(claim.value)
        if seen.kind in (MONEY, NUMBER, PERCENT):
            other_currency, other = parse_money(seen.value)
            if currency and other_currency and currency != other_currency:
                return False
            return other == amount
        if kind == NUMBER and amount == amount.to_integral_value():
            whole = str(int(amount))
            if seen.kind == ID:
                return bool(_DIGIT_RUN.findall(seen.value)) and _DIGIT_RUN.findall(seen.value)[
                    -1
                ].lstrip("0") == whole.lstrip("0")
            if seen.kind == DATE:
                return seen.value[:4] == whole
            if seen.kind == COUNT:
                return seen.value.split(" ", 1)[0] == whole
            if seen.kind == DURATION:
                written = _DIGIT_RUN.match(seen.text)
                return written is not None and written.group() == whole
        return False
    if kind == COUNT:
        number = claim.value.split(" ", 1)[0]
        if seen.kind == COUNT:
            return seen.value.split(" ", 1)[0] == number
        if seen.kind == NUMBER:
            return seen.value == number
        return False
    if kind == DURATION:
        if seen.kind == DURATION:
            return Decimal(seen.value) == Decimal(claim.value)
        written = _DIGIT_RUN.match(claim.text)
        return seen.kind == NUMBER and written is not None and seen.value == written.group()
    if kind == DATE:
        return seen.kind == DATE and dates_agree(claim.value, seen.value)
    if kind == TIME:
        if seen.kind == TIME:
            return seen.value.startswith(claim.value) or claim.value.startswith(seen.value)
        if seen.kind == DATE and len(seen.text) > 10:
            stamp = re.search(r"[T ](\d\d:\d\d(?::\d\d)?)", seen.text)
            return stamp is not None and stamp.group(1).startswith(claim.value)
        return False
    if kind == VERSION:
        return seen.kind == VERSION and (
            seen.value == claim.value or seen.value.startswith(claim.value + ".")
        )
    if kind == EMAIL:
        return seen.kind == EMAIL and seen.value == claim.value
    if kind == URL:
        return seen.kind == URL and (
            seen.value == claim.value or seen.value.startswith(claim.value + "/")
        )
    if kind == PATH:
        if seen.kind not in (PATH, URL):
            return False
        a, b = claim.value, seen.value
        return a == b or b.endswith("/" + a) or a.endswith("/" + b.lstrip("/"))
    if kind in (HASH, UUID):
        if seen.kind not in (HASH, UUID):
            return False
        short, long_ = sorted((claim.value, seen.value), key=len)
        return len(short) >= 7 and long_.startswith(short)
    if kind == IP:
        return seen.kind == IP and seen.value == claim.value
    return False


def dates_agree(claim: str, seen: str) -> bool:
    """Same day; a date without a year agrees with any year; a month with any day in it."""
    if claim == seen:
        return True
    if claim.startswith("--") or seen.startswith("--"):
        return len(claim) >= 7 and len(seen) >= 7 and claim[-5:] == seen[-5:]
    if len(claim) == 7:
        return seen.startswith(claim)
    return False


# --------------------------------------------------------------------------- errors

#: Error classes, most specific first: (class, pattern over lower-case text).
ERROR_CLASSES: Final[tuple[tuple[str, re.Pattern[str]], ...]] = tuple(
    (name, lazy(pattern))
    for name, pattern in (
        ("timeout", r"time[sd]?[\s_-]?out|deadline exceeded|etimedout|\b504\b"),
        ("rate_limit", r"rate[\s_-]?limit|too many requests|throttl|\b429\b|quota exceeded"),
        (
            "denied",
            r"denied|forbidden|unauthori[sz]ed|not authori[sz]ed|permission|declined|rejected|"
            r"refused|not allowed|\b40[13]\b",
        ),
        ("not_found", r"not found|no such|does not exist|doesn't exist|unknown \w+|\b404\b"),
        ("conflict", r"conflict|already exists|duplicate key|lock wait|deadlock|\b409\b"),
        (
            "unavailable",
            r"unavailable|no longer available|not available|connection reset|econnrefused|"
            r"connection refused|bad gateway|\b50[23]\b",
        ),
        ("invalid", r"invalid|validation|malformed|bad request|\b400\b|\b422\b"),
    )
)

#: A tool result whose first line starts like this reports an error (unless the lookahead
#: of ``_ERROR_HEAD`` says it is a field that reports none: ``error: 0``).
_ERROR_HEAD_WORDS: Final = (
    r"(?:error|err|fatal|exception|traceback|failed|failure|fail|denied|permission denied|"
    r"access denied|forbidden|unauthori[sz]ed|timeout|timed out|request timed out|"
    r"deadline exceeded|http\s?[45]\d\d|status\s?[45]\d\d|rate limit|too many requests|"
    r"exit (?:code|status):? [1-9]\d*|"
    r"[\w.]*(?:error|exception))\b"
)
_ERROR_HEAD: Final = lazy(
    _ERROR_HEAD_WORDS
    + r"(?!\s*[:=]\s*(?:0|none|null|false|no|n/a|\d+\s*(?:ms|s|sec|seconds|m|min)?)?\s*$)",
)
#: A status line of the result itself (``status: FAILED``), at the start of a line.
_OUTCOME_HEAD: Final = r"(?:status|state|result|outcome|conclusion|verdict)[ \t]*[:=]"
_OUTCOME_LINE: Final = lazy(_OUTCOME_HEAD + r"[ \t]*(?P<value>[^\n]+)", re.IGNORECASE)
#: Both start with a character class, so the engine skips to candidates quickly.
_FAILED_COUNT: Final = lazy(
    r"[1-9](?<![\w.][1-9])\d*[ ](?:failed|failing|failures|errors)\b", re.IGNORECASE
)
_EXIT_WORDS: Final = r"xit(?:ed)?\s+(?:with\s+)?(?:code|status)\s*[:=]?\s*([1-9]\d*)"
_EXIT_CODE: Final = lazy(r"[eE](?<![\w][eE])" + _EXIT_WORDS, re.IGNORECASE)
#: Families a tool's own status field reports an error with.
ERROR_FAMILIES: Final = frozenset({"failed", "rejected"})


def error_class(text: str, context: str = "") -> str:
    """The kind of an error text: ``timeout``, ``denied``, ``not_found``, ... or ``failed``.

    When the error line alone says only that something failed (``status:
    FAILED``), ``context`` (the start of the message) may say how.
    """
    found = _error_class(text)
    if found == "failed" and context:
        return _error_class(context)
    return found


def _error_class(text: str) -> str:
    lowered = text.lower()
    for name, pattern in ERROR_CLASSES:
        if pattern.search(lowered):
            return name
    return "failed"


_OUTCOME_KEYS: Final = ("status", "state", "result", "outcome", "conclusion", "verdict")
#: The start of a line that states a result's outcome (the ``\n`` lets the engine skip
#: straight from line to line).
_OUTCOME_KEY: Final = (
    "(?:" + "|".join(f"[{k[0]}{k[0].upper()}]{k[1:]}|{k.upper()}" for k in _OUTCOME_KEYS) + ")"
)
_OUTCOME_START: Final = lazy(f"\n{_OUTCOME_KEY}[ \t]*[:=]".encode())
_LEADING_SPACE_B: Final = lazy(rb"\S")
_ERROR_HEAD_B: Final = lazy(_ERROR_HEAD.pattern.encode())
_OUTCOME_LINE_B: Final = lazy(_OUTCOME_LINE.pattern.encode(), re.IGNORECASE)
_FAILED_VALUE: Final = lazy(r"(?i)(?:failed|error|timeout|timed out)\b")


def error_line(text: str, raw: bytes | None = None) -> str | None:
    """The line of a tool result that reports the tool's own error, if it reports one.

    Only what the result says about *itself* counts: its first line, a
    ``status:``/``result:`` line at the start of a line (the first such line;
    later ones describe data), a JSON object's own ``error``/``status``/``ok``
    field, a failed-test count or a non-zero exit code in its last 400 bytes,
    a Python traceback.  An error *mentioned* inside data (a log line, an old
    incident) is not the tool failing.

    ``raw`` is ``text`` in UTF-8 when the caller has it: the probes run over
    bytes (uniformly fast, whatever the script of the text), and a pattern
    only runs on the part a probe points at.
    """
    if not text:
        return None
    if raw is None:
        raw = text.encode("utf-8", "surrogatepass")
    begin = 0
    if raw[:1].isspace():
        first_char = _LEADING_SPACE_B.search(raw)
        if first_char is None:
            return None
        begin = first_char.start()
    if raw[begin : begin + 1] in (b"{", b"["):
        found = _json_error(text.lstrip())
        if found is not None:
            return found
    newline = raw.find(b"\n", begin, begin + 400)
    first = raw[begin : newline if newline >= 0 else begin + 400]
    if _ERROR_HEAD_B.match(first.lower()):
        return first.decode("utf-8", "replace").strip()[:200]
    if b"Traceback (most" in raw:
        lines = [line for line in text.strip().splitlines() if line.strip()]
        return lines[-1].strip()[:200]
    outcome = _outcome_line(raw, begin)
    if outcome is not None:
        return outcome
    tail = raw[-400:].lower()  # test runners and shells report at the end
    if b"failed" in tail or b"errors" in tail or b"failures" in tail or b"exit" in tail:
        part = raw[-400:].decode("utf-8", "ignore")
        hit = _FAILED_COUNT.search(part) or _EXIT_CODE.search(part)
        if hit is not None:
            return _line_at(part, hit.start())[:200]
    return None


def _in_json(pattern: str) -> bytes:
    """``pattern`` as its text reads inside a JSON string: a space, tab or newline it
    allows may be an escape there (``\\t``, ``\\n``)."""
    return pattern.replace(r"\s", r"(?:\s|\\[tnr])").replace(r"[ \t]", r"(?:[ ]|\\t)").encode()


#: The JSON twins of error_line's probes (see may_report_error).  The first line: the
#: lookahead of ``_ERROR_HEAD``, which only takes matches away, is left out.
_HEAD_JSON: Final = lazy(
    _in_json(_ERROR_HEAD_WORDS) + b"|" + _in_json(_OUTCOME_HEAD), re.IGNORECASE
)
#: ``_OUTCOME_START`` in JSON (a newline is ``\\n`` there).
_OUTCOME_START_JSON: Final = lazy(rb"\\n" + _in_json(_OUTCOME_KEY + r"[ \t]*[:=]"))
#: The last lines' exit code, in lower-case JSON (without the lookbehind).
_EXIT_JSON: Final = lazy(_in_json("e" + _EXIT_WORDS))


def may_report_error(quoted: bytes) -> bool:
    """Whether :func:`error_line` may find an error in a text, read from the text as a JSON
    string (``quoted``, quotes included) that holds no ``\\u`` escape, without decoding it.

    False only when :func:`error_line` of the decoded text is certainly ``None``: each of
    its probes has a looser twin here that reads the JSON bytes.  Up to the first escape
    those are the text's UTF-8 bytes; a newline is the two bytes ``\\n``, so a window of
    the text is at most twice as long in JSON.  A text that starts with a space, an
    escape, ``{`` or ``[`` is always a maybe (its first line, or its JSON, is read whole).
    """
    end = len(quoted) - 1
    if end <= 1:
        return False
    if quoted[1:2] in (b" ", b"\\", b"{", b"["):
        return True
    return bool(
        _HEAD_JSON.match(quoted, 1, min(end, 401))
        or b"Traceback (most" in quoted
        or _OUTCOME_START_JSON.search(quoted, 1, min(end, 8193))
        or _reports_at_end(quoted[max(1, end - 800) : end].lower())
    )


def _reports_at_end(tail: bytes) -> bool:
    """Whether the lower-case JSON ``tail`` may hold a failed-test count or an exit code."""
    for word in (b" fail", b" errors"):  # _FAILED_COUNT: a number, a space, the word
        at = tail.find(word)
        while at > 0:
            if 48 <= tail[at - 1] <= 57:
                return True
            at = tail.find(word, at + 1)
    return b"exit" in tail and _EXIT_JSON.search(tail) is not None


def _outcome_line(raw: bytes, begin: int) -> str | None:
    """The result's own ``status:`` line when it reports a failure (the first such line)."""
    match = _OUTCOME_LINE_B.match(raw, begin)
    if match is None:
        found = _OUTCOME_START.search(raw, 0, 4096)  # a result states its outcome up top
        if found is None:
            return None
        match = _OUTCOME_LINE_B.match(raw, found.start() + 1)
        if match is None:
            return None
    line = match.group(0).decode("utf-8", "replace").strip()
    value = line.split(":", 1)[-1] if ":" in line else line.split("=", 1)[-1]
    value = re.split(r"\s*(?:->|→)\s*", value.strip())[-1]
    family = status_family(value.split("(")[0].split(",")[0])
    if family is None and _FAILED_VALUE.match(value):
        family = "failed"
    return line[:200] if family in ERROR_FAMILIES else None


def _line_at(text: str, index: int) -> str:
    start = text.rfind("\n", 0, index) + 1
    end = text.find("\n", index)
    return text[start : end if end >= 0 else len(text)].strip()


_ERROR_KEYS: Final = frozenset({"error", "errors", "exception", "error_message", "fault"})


def _json_error(text: str) -> str | None:
    if not any(
        marker in text
        for marker in (
            '"error',
            '"status',
            '"state',
            '"ok"',
            '"success',
            '"result',
            '"outcome',
            '"exception',
            '"conclusion',
        )
    ):
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):  # too deeply nested to be a tool's own error
        return None
    if isinstance(value, dict) and len(value) == 1:
        ((only, inner),) = value.items()
        if isinstance(inner, dict) and normalise_key(str(only)) not in _ERROR_KEYS:
            value = inner
    if not isinstance(value, dict):
        return None
    for key, item in value.items():
        name = normalise_key(str(key))
        if name in _ERROR_KEYS and item:
            if isinstance(item, dict):
                message = item.get("message") or item.get("code") or json.dumps(item)
                return f"{key}: {message}"[:200]
            return f"{key}: {item}"[:200]
    for key, item in value.items():
        name = normalise_key(str(key))
        if name in ("ok", "success", "succeeded") and item is False:
            return json.dumps(value)[:200]
        if is_status_key(name) and isinstance(item, str):
            family = status_family(item)
            if family in ERROR_FAMILIES:
                return f"{key}: {item}"[:200]
        if name in ("status_code", "http_status", "code") and isinstance(item, int) and item >= 400:
            return f"{key}: {item}"[:200]
    return None


#: Words a summary mentions a problem with, by error class (``failed`` is the generic class).
def _code(codes: str) -> str:
    """An HTTP status code as a summary mentions one: "(429)", "HTTP 403", "status 404"."""
    return rf"\((?:http )?(?:{codes})\)|(?:http|status|code|error)[\s:]*(?:{codes})\b"


MENTION_TERMS: Final[dict[str, str]] = {
    "timeout": r"time[sd]?[\s_-]?out|timing out|deadline|" + _code("504|408"),
    "rate_limit": r"rate[\s_-]?limit\w*|throttl\w*|too many requests|" + _code("429"),
    "denied": r"denied|deny|declined|rejected|refused|forbidden|unauthori[sz]ed|permission|"
    r"not allowed|blocked|" + _code("401|403"),
    "not_found": r"not found|missing|no such|does(?:n't| not) exist|" + _code("404"),
    "conflict": r"conflict\w*|already exist\w*|duplicate key|deadlock\w*|lock (?:wait|timeout)|"
    + _code("409"),
    "unavailable": r"unavailable|(?:is|was|went) down|outage|unreachable|gone|sold out|"
    r"no longer available|"
    r"connection (?:reset|refused)|bad gateway|bounced|" + _code("502|503"),
    "invalid": r"invalid|validation|malformed|bad request|" + _code("400|422"),
    "failed": r"fail\w*|crash\w*|broke\w*|unsuccessful|could(?:n't| not)|unable|"
    r"did(?:n't| not) (?:work|go through|succeed)|retr(?:y|ied|ies|ying)|abort\w*|hiccup|"
    r"went wrong",
    # nouns that also name metrics ("error rate 4%"): a mention only with an anchor
    "weak": r"errors?|errored|exception|problem",
}
MENTION_PATTERN: Final = lazy(
    "|".join(f"(?P<{name}>\\b(?:{pattern}))" for name, pattern in MENTION_TERMS.items()),
    re.IGNORECASE,
)
#: Tool-name words too common to tie a mention to one tool.
GENERIC_TOOL_WORDS: Final = frozenset(
    _words(
        "get list run fetch read create update check query call tool api set do make find "
        "search lookup look up show view describe send post put new add remove delete the "
        "status info data record records item items result results v1 v2"
    )
)

# --------------------------------------------------------------------------- examples

#: The rules by example: text -> the (kind, value) of every atom, in order.  Run by
#: ``tests/unit/test_claims_atoms.py`` and shown in ``docs/claims.md``.
EXAMPLES: Final[tuple[tuple[str, tuple[tuple[str, str], ...]], ...]] = (
    # identifiers
    ("refund RF-9120 was approved", ((ID, "RF9120"), (STATUS, "approved"))),
    ("INC-7701 and SO-20480", ((ID, "INC7701"), (ID, "SO20480"))),
    ("invoice INV-2026-0042", ((ID, "INV20260042"),)),
    ("flight LH1234", ((ID, "LH1234"),)),
    ("PR #412", ((ID, "#412"),)),
    ("charge ch_3Nx8aB2c", ((ID, "ch_3Nx8aB2c"),)),
    ("host web-03", ((ID, "WEB03"),)),
    ("UTF-8 and SHA-256 are not identifiers", ()),
    ("PNR K7QZ2D", ((ID, "K7QZ2D"),)),
    ("p95 and P95 are not", ()),
    ("commit 9fceb02 on main", ((HASH, "9fceb02"),)),
    (
        "request 123e4567-e89b-12d3-a456-426614174000",
        ((UUID, "123e4567-e89b-12d3-a456-426614174000"),),
    ),
    # money
    ("$480", ((MONEY, "USD 480"),)),
    ("$480.00", ((MONEY, "USD 480"),)),
    ("480.00 USD", ((MONEY, "USD 480"),)),
    ("€642.10", ((MONEY, "EUR 642.1"),)),
    ("EUR 642.10", ((MONEY, "EUR 642.1"),)),
    ("642,10 €", ((MONEY, "EUR 642.1"),)),
    ("$2,880.00 lifetime", ((MONEY, "USD 2880"),)),
    ("a $12k budget", ((MONEY, "USD 12000"),)),
    ("120 dollars", ((MONEY, "USD 120"),)),
    ("(EUR 45,200.00, due soon)", ((MONEY, "EUR 45200"),)),
    # numbers, percentages, counts, durations
    ("1,204 rows", ((COUNT, "1204 row"),)),
    ("card ends 4242", ((NUMBER, "4242"),)),
    ("Summary 6 of 7", ()),
    ("Research summary 100: see section 3.2", ()),
    ("uptime 99.95%", ((PERCENT, "99.95"),)),
    ("3 tool calls", ((COUNT, "3 tool call"),)),
    ("12 seats", ((COUNT, "12 seat"),)),
    ("two options", ((COUNT, "2 option"),)),
    ("3 failed requests", ((COUNT, "3 request"), (STATUS, "failed"))),
    ("one of them", ()),
    ("1.2 million rows", ()),
    ("issue_refund×1", ((TOOL_COUNT, "issue_refund×1"),)),
    ("timeout after 30000ms", ((STATUS, "failed"), (DURATION, "30"))),
    ("480.00 Pro annual renewal", ((NUMBER, "480"),)),
    ("after 30 seconds", ((DURATION, "30"),)),
    ("within 48 h", ((DURATION, "172800"),)),
    # dates and times
    ("2026-04-02", ((DATE, "2026-04-02"),)),
    ("April 2, 2026", ((DATE, "2026-04-02"),)),
    ("Apr 2 2026", ((DATE, "2026-04-02"),)),
    ("2 April 2026", ((DATE, "2026-04-02"),)),
    ("the 2nd of April 2026", ((DATE, "2026-04-02"),)),
    ("renews Mar 14", ((DATE, "--03-14"),)),
    ("in March 2026", ((DATE, "2026-03"),)),
    ("2026/04/02", ((DATE, "2026-04-02"),)),
    ("2026-03-14T09:00:02.114Z", ((DATE, "2026-03-14"),)),
    ("at 09:00", ((TIME, "09:00"),)),
    ("at 9:05 pm", ((TIME, "21:05"),)),
    ("at 9am", ((TIME, "09:00"),)),
    ("you may fail", ()),
    # addresses, paths, versions
    ("mail dana.whitfield@example.com", ((EMAIL, "dana.whitfield@example.com"),)),
    (
        "see https://status.example.com/incidents/77.",
        ((URL, "https://status.example.com/incidents/77"),),
    ),
    ("edit src/db/pool.ts", ((PATH, "src/db/pool.ts"),)),
    ("logs in /var/log/app.log", ((PATH, "/var/log/app.log"),)),
    ("statement-2026-03.pdf", ((PATH, "statement-2026-03.pdf"),)),
    ("v2.14.0", ((VERSION, "2.14.0"),)),
    ("version 2.14", ((VERSION, "2.14"),)),
    ("host 10.0.3.17", ((IP, "10.0.3.17"),)),
    # statuses and their families
    ("pending_approval", ((STATUS, "pending"),)),
    ("awaiting approval", ((STATUS, "pending"),)),
    ("PENDING-REVIEW", ((STATUS, "pending"),)),
    ("the deploy went out", ((STATUS, "succeeded"),)),
    ("deployed successfully", ((STATUS, "succeeded"), (STATUS, "succeeded"))),
    ("rolled back", ((STATUS, "rolled_back"),)),
    ("back-ordered", ((STATUS, "backordered"),)),
    ("not yet approved", ((STATUS, "pending"),)),
    ("was not approved", ()),
    ("the PR was merged", ((STATUS, "merged"),)),
)
