"""What a piece of text claims: the atom rules, in one place.

An *atom* is a fact small enough to look up: an identifier, an amount of
money, a number, a count, a quantity with its unit, a duration, a date, a time,
a range, an email address, a handle, a person's name, a URL, a path, a version,
a hash, an IP address, a level (``SEV1``, ``P2``, ``HTTP 503``, ``exit 3``) or a
status word.  Each atom has a *normalised value*, the way people mean it rather
than the way it was typed: ``$480``, ``$480.00`` and ``480.00 USD`` are all
``USD 480``; ``1,204``, ``1.204`` (before a noun), ``1 204`` and ``1\u202f204``
are all ``1204``; ``April 2, 2026``, ``2 April 2026`` and ``2026-04-02`` are
all ``2026-04-02``; ``38 min 41 s`` is ``2321`` seconds; ``awaiting approval``
and ``pending_approval`` are both the status family ``pending``.

Everything here is deterministic: regular expressions and small
vocabularies, no model, no network.  :data:`EXAMPLES` is the table of
examples (text -> atoms with normalised values) that the tests run and that
``docs/claims.md`` describes; change a rule and its examples together.  The
vocabularies of meaning (status families, levels, outcomes) are in
:mod:`foldctl.claims.vocab`; what makes a tool result an error in
:mod:`foldctl.claims.failures`.

Every pattern here runs on untrusted text and is linear in it: no nested or
overlapping quantifiers that can backtrack, bounded repetition where a match
must end on something (``tests/unit/test_claims_atoms.py`` times them on long
runs of words, digits and spaces).
"""

from __future__ import annotations

import re
import string
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from functools import lru_cache
from typing import Any, Final

import msgspec

from foldctl.claims import vocab as V
from foldctl.claims.vocab import status_family
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
LEVEL: Final = "level"
QUANTITY: Final = "quantity"
RANGE: Final = "range"
HANDLE: Final = "handle"
NAME: Final = "name"

#: Kinds that name a thing (what a status or an amount can belong to).
ENTITY_KINDS: Final = frozenset({ID, VERSION, HASH, UUID, IP, PATH})
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
        LEVEL,
        QUANTITY,
        RANGE,
        HANDLE,
        NAME,
    }
)


class Atom(msgspec.Struct, frozen=True):
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
    name (``approved``, ``pending``, ``failed``, ...); ``level`` ``SEV1``, ``P2``,
    ``HTTP 503``, ``exit 3``; ``quantity`` number and unit (``421.3 GB``,
    ``2.4 kg``); ``range`` ``5-10`` (with its unit or noun, as written, in ``text``);
    ``handle`` ``@name`` lower-case; ``name`` a person's name as written.
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

#: Words between a number and its unit of time that say which ones count ("10 calendar days").
_SPAN_QUALIFIERS: Final = frozenset(
    _words("calendar business working full whole consecutive clear banking school")
)

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
        "should may might must not no did do does got went made instead rather apiece "
        "again too already even just once twice both all"
    )
)
#: A capitalised word that is no acronym: a name, not a noun a count counts.
_PROPER: Final = lazy(r"[A-Z][a-z]{2,}")
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
        "option rev revision phase stage level tier figure table slide question run turn "
        "acuity priority grade category severity triage"
    )
)
_LAST_WORD: Final = lazy(r"(?<![A-Za-z])([A-Za-z]+)\.?[ ]$")
#: A count of these is a count of tool calls, checked against the calls themselves.
CALL_NOUNS: Final = frozenset({"call", "tool call", "tool-call", "invocation"})

# --------------------------------------------------------------------------- statuses

#: Words that, just before a status phrase, make it a wish, a plan or a condition.
INTENT_WORDS: Final = frozenset(
    _words(
        "get to will would should must can could may might shall once until unless if "
        "whether want wants wanted hope expect"
    )
)
#: Words that, just before a status phrase, take the claim back ("not approved").
NEGATIONS: Final = frozenset(
    _words(
        "not never no without n't nor hasn't hadn't wasn't isn't weren't aren't didn't "
        "doesn't cannot can't won't nothing none neither"
    )
)


def trie_pattern(phrases: Iterable[str], separator: str = r"[\s_-]{1,3}") -> str:
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


_PHRASE_FAMILY: Final[dict[str, str]] = V.PHRASES
_STATUS_ALTERNATION: Final = trie_pattern(_PHRASE_FAMILY)

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
    "delivered": ("delivered", "shipped"),
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
    _words(
        "date due deadline departure arrival eta start end expires expiry scheduled check_in "
        "check_out checkin checkout valid_from valid_until depart arrive"
    )
)
DATE_SUFFIXES: Final = (
    "_date", "_at", "_on", "_due", "_deadline", "_departure", "_arrival", "_by", "_until",
    "_end", "_start", "_eta",
)  # fmt: skip


#: Words that name a moment of a thing's life, by the moment they name (``ETA`` and
#: "arriving" are its arrival; ``DEPART`` and "leaves" its departure).
MOMENT_WORDS: Final[dict[str, str]] = {
    word: moment
    for moment, words in {
        "arrival": "eta arrival arrive arrives arriving arrived lands landing",
        "departure": "depart departs departure departing departed leaves leaving etd",
        "start": "start starts started starting begins began opens opening from",
        "end": "end ends ended finish finishes finished ready until closes closing",
        "due": "due deadline expires expiry expiring",
        "pickup": "pickup collection collect collected",
    }.items()
    for word in words.split()
}


def moments(text: str) -> set[str]:
    """The moments a text's words name (:data:`MOMENT_WORDS`)."""
    words = re.findall(r"[a-z]+", text.lower().replace("_", " "))
    return {MOMENT_WORDS[w] for w in words if w in MOMENT_WORDS}


def is_date_key(key: str) -> bool:
    return key in DATE_KEYS or key.endswith(DATE_SUFFIXES) or key.startswith("date_")


def is_id_key(key: str) -> bool:
    return key in ID_KEYS or (key.endswith(ID_SUFFIXES) and key not in ("paid", "valid", "void"))


# --------------------------------------------------------------------------- the master pattern

#: A number as people write it: thousands grouped by ``,`` (``1,204.50``), by ``.`` before a
#: decimal comma or in two groups or more (``1.204,50``, ``1.204.311``), by a narrow or plain
#: no-break space (``1 204``); else plain (``1204``, ``3.5``).  Each alternative repeats
#: groups that begin with a separator, so nothing can backtrack over a long run.
_NUM: Final = (
    r"\d{1,3}(?:,\d{3})+(?:\.\d+)?"
    r"|\d{1,3}(?:\.\d{3})+,\d{1,4}(?!\d)"
    r"|\d{1,3}(?:\.\d{3}){2,}(?!\d|\.\d)"
    "|\\d{1,3}(?:[\u202f\u00a0]\\d{3})+(?:[.,]\\d{1,2}(?!\\d))?"
    "|\\d{1,3}(?:['\u2019]\\d{3})+(?:\\.\\d+)?"
    r"|\d{1,3}(?: \d{3})+\.\d{1,2}(?!\d)"  # "1 284.60": a space, then a decimal point
    r"|\d{1,3}(?: \d{3}){2,}(?![\d])"
    r"|\d{1,3} \d{3}(?![\d])(?= [A-Za-z])"
    r"|\d+(?:\.\d+)?"
)
#: The decimal places of a range's end: a point, or a comma with one or two places
#: (``6,5-8,5``; three would be thousands).
_RANGE_DECIMALS: Final = r"(?:\.\d{1,3}|,\d{1,2}(?!\d))?"
#: A decimal comma with one or two places (``0,64``, ``2,5``), not in a list of numbers
#: (``12,45,7``): a number whole, where the digits after the comma alone would be read.
_NUM_DECIMAL_COMMA: Final = r"(?<!\d,)\d{1,4},\d{1,2}(?![\d,])"
#: An amount with a decimal comma and no thousands (``9,10``), beside a currency code.
_MONEY_COMMA: Final = r"\d{1,3},\d\d(?![\d,])"
_MONTH: Final = trie_pattern(alt for name in MONTHS for alt in (name.capitalize(), name.upper()))
_CODES: Final = "|".join(CURRENCY_CODES)
_WORDNUM: Final = trie_pattern(NUMBER_WORDS)
_UNIT: Final = "|".join(sorted((u for u in DURATION_UNITS if len(u) <= 4), key=len, reverse=True))
_EXTS: Final = (
    "py|js|ts|tsx|jsx|json|yaml|yml|toml|md|txt|csv|tsv|sql|pdf|log|sh|go|rs|java|rb|html|"
    "css|xml|conf|cfg|ini|lock|tf|zip|gz|tgz|tar|png|jpg|jpeg|svg|docx|xlsx|env|parquet|ipynb"
)
#: Units of a quantity, as written (a longer unit before its prefix), and how they are
#: normalised.
QUANTITY_UNITS: Final[dict[str, str]] = {
    "GiB": "GiB",
    "MiB": "MiB",
    "KiB": "KiB",
    "TiB": "TiB",
    "PiB": "PiB",
    "GB": "GB",
    "MB": "MB",
    "KB": "KB",
    "kB": "KB",
    "TB": "TB",
    "PB": "PB",
    "mg/dL": "mg/dL",
    "mmol/L": "mmol/L",
    "mg": "mg",
    "kg": "kg",
    "mm": "mm",
    "cm": "cm",
    "µm": "µm",
    "μm": "µm",
    "mL": "mL",
    "ml": "mL",
    "dBm": "dBm",
    "dB": "dB",
    "lbs": "lb",
    "lb": "lb",
    "oz": "oz",
    "km/h": "km/h",
    "km": "km",
    "mph": "mph",
    "°C": "°C",
    "°F": "°F",
    "Mbps": "Mbps",
    "Gbps": "Gbps",
    "GHz": "GHz",
    "MHz": "MHz",
    "kWh": "kWh",
    "kW": "kW",
    "req/s": "req/s",
    "rps": "req/s",
}
_QUNITS: Final = "|".join(re.escape(u) for u in sorted(QUANTITY_UNITS, key=len, reverse=True))
#: Time zones a time may be given in, and their offsets from UTC in minutes.
ZONES: Final[dict[str, int]] = {
    "UTC": 0, "GMT": 0, "Z": 0, "WET": 0, "WEST": 60, "BST": 60, "CET": 60, "CEST": 120,
    "EET": 120, "EEST": 180, "IST": 330, "SGT": 480, "HKT": 480, "JST": 540, "KST": 540,
    "AWST": 480, "AEST": 600, "AEDT": 660, "NZST": 720, "NZDT": 780, "EST": -300,
    "EDT": -240, "CST": -360, "CDT": -300, "MST": -420, "MDT": -360, "PST": -480,
    "PDT": -420, "AKST": -540, "AKDT": -480, "HST": -600,
}  # fmt: skip
_NAMED_ZONES: Final = "|".join(sorted((z for z in ZONES if len(z) > 1), key=len, reverse=True))
_OFFSET: Final = r"[+\u2212-]\d{1,2}(?::?\d\d)?"
_ZONE: Final = (
    rf"\(?(?:UTC|GMT){_OFFSET}\)?|(?:{_NAMED_ZONES})(?![\w])|Z(?![\w])|[+\u2212-]\d\d:?\d\d(?!\d)"
)


def _levels() -> tuple[tuple[str, str, str], ...]:
    """The scales of :data:`foldctl.claims.vocab.SCALES` as rules (group names made unique)."""
    starts = {"severity": "UL", "priority": "UL", "http": "UD", "exit": "UL"}
    return tuple(
        (
            f"B_{scale.name}",
            scale.pattern.replace("(?P<n>", f"(?P<{scale.name}_n>").replace(
                "(?P<n2>", f"(?P<{scale.name}_m>"
            ),
            starts[scale.name],
        )
        for scale in V.SCALES
    )


#: An owner's code of a freight car or a container (ISO 6346 ends it in U, J or Z; an AAR
#: reporting mark of a private car in X).
_OWNER: Final = r"[A-Z]{3}[UJZX]"
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
        r"(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z| ?[+-]\d\d:?\d\d)?)?(?![\w-])",
        "D",
    ),
    # an id of digit groups (4471-2290-8813): one id, not the number 4471
    ("B_did", r"(?<![\w.-])\d{2,6}(?:-\d{2,6}){2,5}(?![\w-])", "D"),
    *_levels(),
    ("B_slash", r"(?<![\w/])(?P<sy>\d{4})/(?P<sm>\d{1,2})/(?P<sd>\d{1,2})(?![\w/])", "D"),
    # a month written month/year (08/2026): unambiguous, unlike 03/04/2026
    ("B_nmy", r"(?<![\w/.,])(?P<nm>0?[1-9]|1[0-2])/(?P<ny>(?:19|20)\d\d)(?![\w/]|[.,]\d)", "D"),
    # a date written day.month.year (15.03.2026): day first, the only way it is written
    ("B_dotted", r"(?<![\w.])(?P<ed>\d{1,2})\.(?P<em>\d{1,2})\.(?P<ey>\d{4})(?![\w]|\.\d)", "D"),
    (
        "B_mdy",
        rf"(?P<mm>\b(?:{_MONTH}))\.? (?P<md>\d{{1,2}})(?:st|nd|rd|th)?(?:,? (?P<my>\d{{4}}))?"
        r"(?![\w:]|[.,]\d)",  # "APR 6.712%" is no date
        "U",
    ),
    # "Nov 2026"; not the year of a date after a word like a month ("MAR, 2026-12-10")
    ("B_my", rf"(?P<ymm>\b(?:{_MONTH}))\.?,? (?P<yy>\d{{4}})(?![\w]|-\d)", "U"),
    (
        "B_dmy",
        rf"(?<![\w.])(?P<dd>\d{{1,2}})(?:st|nd|rd|th)? (?:of )?(?P<dm>(?:{_MONTH}))\b\.?"
        r"(?:,? (?P<dy>\d{4})(?!\d))?",
        "D",
    ),
    # a duration in two or three units (38 min 41 s, 14m 07s, 1 h 20 min): one duration
    (
        "B_dur",
        r"(?<![\w.])(?P<d1>\d{1,4}) ?(?P<u1>hours|hour|hrs|hr|h|days|day|d) ?"
        r"(?P<d2>\d{1,2}) ?(?P<u2>minutes|minute|mins|min|m)"
        r"(?: ?(?P<d3>\d{1,2}(?:\.\d{1,3})?) ?(?P<u3>seconds|second|secs|sec|s))?(?![\w])"
        r"|(?<![\w.])(?P<d4>\d{1,4}) ?(?P<u4>minutes|minute|mins|min|m) ?"
        r"(?P<d5>\d{1,2}(?:\.\d{1,3})?) ?(?P<u5>seconds|second|secs|sec|s)(?![\w])",
        "D",
    ),
    (
        # hours and minutes of a span: "5:40 h left", "1:35 hours over", "7:02 of air
        # time" (not a time of day: "at 14:00 hrs", "from 09:30 h")
        "B_hmdur",
        r"(?<![\w:.])(?<!\bat )(?<!\bby )(?<!from )(?<!until )(?<!\bto )"
        r"(?P<hh>\d{1,3}):(?P<hmm>[0-5]\d)"
        r"(?: ?(?:hours|hour|hrs|hr|h)(?![\w])|(?= of (?:[a-z]{2,12} )?time\b))",
        "D",
    ),
    (
        "B_time",
        # not after a sign: "+02:00" is a zone's offset
        "(?<![\\w:.+\u2212])"
        r"(?P<th>[01]?\d|2[0-3]):(?P<tm>[0-5]\d)(?::(?P<ts>[0-5]\d)(?:\.\d+)?)?(?![\d:])"
        r"(?: ?(?P<tap>[aApP]\.?[mM]\.?(?![\w])))?"
        rf"(?: ?(?P<tz>{_ZONE}))?",
        "D",
    ),
    (
        "B_ampm",
        r"(?<![\w:.])(?P<th2>1[0-2]|0?[1-9]) ?(?P<tap2>[aApP][mM])\b"
        rf"(?: ?(?P<tz2>{_ZONE}))?",
        "D",
    ),
    # a range (5–10 business days, 70-99 mg/dL, 5 to 10): both ends, one atom
    (
        "B_range",
        rf"(?<![\w.:/\u2212-])(?<!\d,)(?P<rlo>\d{{1,6}}{_RANGE_DECIMALS})"
        rf"(?: ?[\u2013\u2014] ?|-| to )(?P<rhi>\d{{1,6}}{_RANGE_DECIMALS})(?![\w/-]|[.:,]\d)",
        "D",
    ),
    (
        "B_sym",
        # "€ 89,60": a decimal comma after the symbol too
        rf"(?P<sym>[$€£¥]) ?(?P<sa>\d{{1,3}}(?:\.\d{{3}})*,\d\d(?![\d,])|{_NUM})"
        r"(?P<ssuf> ?(?:k|K|m|M|bn|million|billion|thousand)\b)?",
        "S",
    ),
    (
        # a decimal comma, thousands by a point or a space, and the currency after:
        # "5.650,00 €", "6 125,17 $" (fr-CA), "877 200,00 SEK"
        "B_ec",
        "(?<![\\w.,])(?P<ec>\\d{1,3}(?:[. \u202f\u00a0]\\d{3})*,\\d\\d)"
        rf"[ \u202f\u00a0]?(?P<ecur>[€$£¥](?![\w$€£¥])|(?:{_CODES})\b)",
        "D",
    ),
    (
        "B_code",
        # "EUR 9,10": a decimal comma after the code too, as after a symbol
        rf"\b(?P<code1>{_CODES}) ?(?P<ca>{_MONEY_COMMA}|{_NUM})"
        r"(?P<csuf> ?(?:k|m|bn|million|billion)\b)?",
        "U",
    ),
    (
        "B_amount",
        rf"(?<![\w.,])(?P<ac>{_MONEY_COMMA}|{_NUM})[ \u202f\u00a0]?"
        rf"(?P<code2>{_CODES}|dollars?|euros?|pounds?)\b",  # 8,75 USD too
        "D",
    ),
    # a share with a decimal comma too: 98,61 %
    (
        "B_pct",
        rf"(?<![\w.,])(?P<pct>\d{{1,3}},\d{{1,3}}(?![\d,])|{_NUM})[ \u202f\u00a0]?(?:%| percent\b)",
        "D",
    ),
    (  # a decimal comma too: 12,5 kWh
        "B_qty",
        rf"(?<![\w.,])(?P<qn>\d{{1,4}},\d{{1,2}}(?![\d,])|{_NUM}) ?(?P<qu>{_QUNITS})(?![\w/])",
        "D",
    ),
    ("B_ip", r"(?<![\w.])(?P<ip>\d{1,3}(?:\.\d{1,3}){3})(?![\w]|\.\w)", "D"),
    ("B_ver", r"(?<![\w.])[vV](?P<ver>\d+(?:\.\d+){1,3}(?:-[0-9A-Za-z.]+)?)(?![\w])", "UL"),
    ("B_ver2", r"\b(?:version|release|ver\.?) (?P<ver2>\d+(?:\.\d+)+)(?![\w])", "L"),
    (
        "B_ver3",
        r"(?<![\w.])(?!\d{1,3}(?:\.\d{3}){2,}(?!\d|\.\d))"  # 1.570.715 is a number
        r"\d+\.\d+\.\d+(?:-[0-9A-Za-z.]*[0-9A-Za-z])?(?![\w]|\.\w)",
        "D",
    ),
    (
        "B_path",
        rf"(?<![\w/.:~-])(?:(?:~|\.{{1,2}})?/(?:[\w.@+-]+/)*[\w.@+-]*[\w@+-]"
        rf"|(?:[\w.-]+/)+[\w.-]+\.[A-Za-z0-9]{{1,8}}|[\w-][\w.-]*\.(?:{_EXTS}))(?![\w/])",
        "DULS",
    ),
    ("B_tc", r"(?<![\w.-])(?P<tc>[A-Za-z_][\w.-]*) ?× ?(?P<tcn>\d+)", "UL"),
    # a freight car or a container by its owner's code and its serial (ISO 6346, AAR):
    # "CEFX 654480", "MSKU 772301-5"; one id, as "MSKU7723015" is
    (
        "B_cid",
        rf"(?<![\w/.-])(?P<cid>{_OWNER}) (?P<cnum>\d{{6}})(?:-(?P<ccheck>\d))?(?![\w-])",
        "U",
    ),
    (
        "B_id",
        r"(?<![\w/.-])(?=[A-Z][A-Z0-9_-]*\d)(?:[A-Z][A-Z0-9]*(?:[-_][A-Z0-9]+)+"
        r"(?:\.\d{1,3}(?!\.\d))?|[A-Z]+\d[A-Z0-9]*)(?![\w-])",  # a lot's split: K3-24817.1
        "U",
    ),
    ("B_lid", r"(?<![\w/.-])[a-z]{2,6}_(?=[A-Za-z]*\d)[A-Za-z0-9]{6,}(?![\w-])", "L"),
    ("B_hid", r"(?<![\w/.-])[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*-\d{2,}(?![\w-])", "L"),
    # a lower-case name made of parts with digits (checkout-api-7d9f8b6c4-9mzlt), not a
    # figure told roughly ("the mid-290s")
    (
        "B_kid",
        r"(?<![\w/.@:-])(?!(?:low|mid|high|upper|lower|early|late)-\d+s(?![\w-]))"
        r"[a-z][a-z0-9]*(?:-[a-z0-9]+){1,8}(?![\w-])",
        "L",
    ),
    ("B_handle", r"@(?P<handle>[A-Za-z][\w.-]{0,38}[A-Za-z0-9])(?![\w@])", "S"),
    ("B_hnum", r"(?<![\w&])\#(?P<hnum>\d{2,})\b", "S"),
    ("B_hash", r"(?<![\w-])(?=[0-9]{0,39}[a-f])[0-9a-f]{7,40}(?![\w-])", "DL"),
    (
        "B_num",
        rf"(?<![\w.:/\#$€£¥@…-])(?P<num>{_NUM_DECIMAL_COMMA}|{_NUM}|(?i:{_WORDNUM})\b)"
        rf"(?P<unit>{_UNIT})?(?![\w])"
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


_GROUPED_DOTS: Final = lazy(r"[1-9]\d{0,2}(?:\.\d{3})+(?:,\d+)?")
_GROUPED_COMMAS: Final = lazy(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
#: The characters that only ever group thousands (never decimals): spaces of every width
#: and the Swiss apostrophes (``1 204``, ``1\u202f204``, ``18'436.75``).
_GROUP_ONLY: Final = " \u202f\u00a0'\u2019"
_SPACES: Final = str.maketrans("", "", _GROUP_ONLY)


def to_decimal(text: str, *, grouped: bool = False) -> Decimal | None:
    """The value of a number as people write it, in any locale: ``1,204.50``, ``1.204,50``,
    ``1 204,50``, ``642,10`` (a decimal comma) and ``1.204.311`` all read as meant.  A
    single dot before three digits (``1.204``) is a decimal point unless ``grouped``
    (a count or an amount of money, which such a point cannot be)."""
    text = text.translate(_SPACES)
    if "," in text and "." in text:
        if text.rfind(",") > text.rfind("."):  # 1.204,50
            text = text.replace(".", "").replace(",", ".")
        else:  # 1,204.50
            text = text.replace(",", "")
    elif "," in text:
        text = text.replace(",", "") if _GROUPED_COMMAS.fullmatch(text) else text.replace(",", ".")
    elif text.count(".") > 1 or (grouped and _GROUPED_DOTS.fullmatch(text)):
        text = text.replace(".", "")
    if len(text) > MAX_NUMBER_CHARS:
        return None
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


#: A run of digits longer than this is no number people write (a hash, a padded id, a
#: hostile "count" of a million digits, whose ``int()`` and ``str()`` are quadratic and
#: refused past 4,300 digits): it is read as no number at all.
MAX_NUMBER_CHARS: Final = 40


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
#: An owner's code of a freight car or a container, which opens its serial (``CEFX 654480``).
_OWNER_CODE: Final = lazy(_OWNER)
#: Words that open an atom whose digits come in the next word (``EUR 642``, ``April 2``).
_LEADING_WORDS: Final = frozenset(
    [m for m in MONTHS]
    + [c.lower() for c in CURRENCY_CODES]
    + list(_words("version release ver http code status exit exited severity priority sev"))
)


@lru_cache(maxsize=8192)
def summary_atoms(summary: str) -> tuple[Atom, ...]:
    """The atoms of a summary, kept: choosing what to index and checking both read them.

    Beyond :func:`extract_atoms`, a summary's people: a title and a name (``Dr. Lena
    Moreau``), two capitalised words after a word that introduces a person (``escalated
    to Gregor Halvorsen``, ``reviewed by ...``, ``owner ...``, a trade: ``their driver,
    ...``), or before what a person is to do or the team a person is of (``Jonas Weber
    will apply it``, ``Priya Raman from sales-data``)."""
    atoms = extract_atoms(summary)
    names = [
        a
        for a in name_atoms(summary)
        if not any(a.start < b.end and b.start < a.end for b in atoms)
    ]
    if names:
        atoms = sorted([*atoms, *names], key=lambda a: a.start)
    return tuple(atoms)


#: Words after which two capitalised words are a person's name.
PERSON_CUES: Final = frozenset(
    _words(
        "by to from with for cc ask asked told paged page owner contact customer patient "
        "employee assignee commander reviewer manager named called lead dispatcher officer "
        "engineer inspector auditor supervisor technician analyst admin director head nurse "
        "doctor pilot captain recruiter coordinator planner controller approver candidate "
        "representative rep colleague agent tenant landlord student instructor teacher "
        "pinged emailed messaged mailed contacted notified informed phoned texted "
        # people by their trade or role, and by duty ("the technician on call, ...")
        "operator driver courier foreman clerk cashier guard warden surveyor broker advisor "
        "adviser counsel attorney lawyer solicitor notary accountant mechanic electrician "
        "plumber chef host examiner assessor adjuster underwriter registrar trainer coach "
        "therapist surgeon physician dentist vet pharmacist paramedic caregiver carer "
        "handler steward ranger keeper call duty shift installer assistant paralegal "
        "superintendent buyer patroller optician marshal clinician hygienist secretary "
        "receptionist scheduler foreperson crew"
    )
)
#: Capitalised words that are no part of a person's name.
_NOT_NAMES: Final = frozenset(
    [m.capitalize() for m in MONTHS]
    + list(
        _words(
            "Monday Tuesday Wednesday Thursday Friday Saturday Sunday The A An This That "
            "These Those It Its We Our They Their He She His Her You Your Summary Files "
            "Errors Pending Current Primary Key Problem Optional All None Tasks Work Request "
            # words that open a sentence before a name ("Since Slack refused the post")
            "Since When After Before Although Though Because If Once While Until Unless As "
            "Then Also But And So Both Yesterday Today Tomorrow Tonight Meanwhile However"
        )
    )
)
#: A word of a name: a capital, then lower-case letters, accented ones too ("Krüger").
_CAPITAL: Final = "[A-ZÀ-ÖØ-Þ]"
_LOWER_RUN: Final = "[a-zß-öø-ÿ]{1,20}"
_NAME_WORD: Final = _CAPITAL + _LOWER_RUN
#: The small words inside a name ("Marleen de Groot", "Ana van der Berg").
_PARTICLES: Final = "(?:(?:de|van|von|der|den|da|di|du|le|la|del|dos|ter|ten) ){0,2}"
_NAME: Final = lazy(
    rf"\b(?:(?P<title>Dr|Mr|Mrs|Ms|Prof)\.? (?P<titled>{_NAME_WORD}(?: {_NAME_WORD}){{0,2}})"
    rf"|(?P<cue>[A-Za-z]{{2,16}})[:,]? (?P<cued>{_NAME_WORD} {_PARTICLES}{_NAME_WORD}"
    rf"(?: {_NAME_WORD})?))\b"
    # a sentence that starts with a person doing what people do ("Claire Dubois approved")
    rf"|(?:^|(?<=[.!?] )|(?<=\n)|(?<=\n- )|(?<=\n\* ))(?P<lead>{_NAME_WORD} {_NAME_WORD})"
    r"(?= (?:approved|agreed|asked|said|confirmed|requested|signed|decided|replied|wrote|"
    r"rejected|declined|accepted|authori[sz]ed|signed off|will|from|of the)\b)"
)
#: Anywhere, two capitalised words before what a person does or is to do ("... where
#: Jonas Weber will apply it", "Dana Whitfield labeled the Z-pak", "(Martin Keller)
#: rejected"), before the team a person is of ("Priya Raman from sales-data", "Rui Matos
#: in finance") or before a role ("Katrin Vogelsang, Head of Payroll").
_NAME_BEFORE_ROLE: Final = lazy(
    # the capital first, then what is before it: the search skips to capitals (5x faster)
    rf"{_CAPITAL}(?<![\w&]{_CAPITAL}){_LOWER_RUN} {_NAME_WORD}"
    r"(?= (?:will|has to|needs to|must|is to|[a-z]{3,}ed)\b"
    r"| (?:from|at|in|of) (?!the\b)[a-z][a-z-]{1,30}\b"
    r"|\) (?:[a-z]{3,}ed|will|has|had)\b"
    r"|, (?:the |our |their )?(?i:head|manager|director|lead|chief|officer|supervisor|engineer"
    r"|coordinator)\b)"
)
#: A capitalised word or an ampersand just before a place: a name goes on before it.
_NAMED_BEFORE: Final = lazy(r"(?:[A-Z][\w'.-]{0,20}|&)[ \t]$")


def name_atoms(text: str) -> list[Atom]:
    """People named in ``text`` (see :func:`summary_atoms`), each as written."""
    found: list[Atom] = []
    for m in _NAME.finditer(text):
        group = "titled" if m.group("title") else "lead" if m.group("lead") else "cued"
        if group == "cued" and m.group("cue").lower() not in PERSON_CUES:
            continue
        words = m.group(group).split(" ")
        while words and words[-1] in _NOT_NAMES:
            words.pop()
        if not words or words[0] in _NOT_NAMES or (group != "titled" and len(words) < 2):
            continue
        name = " ".join(words)
        start = m.start(group)
        found.append(Atom(NAME, name, name, start, start + len(name)))
    for m in _NAME_BEFORE_ROLE.finditer(text):
        if _NAMED_BEFORE.search(text, max(0, m.start() - 24), m.start()):
            continue  # the end of a longer name: "Rhein Power AG", "Morrow & Gale"
        words = m.group().split(" ")
        if words[0] in _NOT_NAMES or words[-1] in _NOT_NAMES:
            continue
        if not any(a.start < m.end() and m.start() < a.end for a in found):
            found.append(Atom(NAME, m.group(), m.group(), m.start(), m.end()))
    found.sort(key=lambda a: a.start)
    return found


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
        taken = Covered((a.start, a.end) for a in atoms if a.kind != COUNT)
        atoms.extend(w for w in words if w.start not in taken)
    atoms.sort(key=lambda a: a.start)
    return atoms


class Covered:
    """The offsets inside any of some ``(start, end)`` spans, asked in log time (a summary
    of thousands of sentences has tens of thousands of atoms: a scan of them all for each
    one is quadratic).  ``at in covered`` is ``any(s <= at < e for s, e in spans)``."""

    __slots__ = ("reach", "starts")

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        ordered = sorted(spans)
        self.starts = [s for s, _ in ordered]
        self.reach: list[int] = []  # the furthest end of the spans up to each one
        far = -1
        for _, end in ordered:
            far = max(far, end)
            self.reach.append(far)

    def __contains__(self, at: object) -> bool:
        if not isinstance(at, int):
            return False
        k = bisect_right(self.starts, at)
        return k > 0 and self.reach[k - 1] > at


def _match_covering(text: str, at: int, floor: int) -> re.Match[str] | None:
    """The pattern's match that begins at a word start near ``at`` and covers it.

    Tried: the words before a number when the one just before opens a multi-word atom
    (``EUR 642``, ``April 2``, ``version 2.14``, ``HTTP 503``, ``exit code 3``), farthest
    first, then the word starts of the token holding ``at``, up to ``at`` (``(CH-5531``
    -> ``CH-5531``).
    """
    low = max(floor, at - 300)
    begin = max(text.rfind(" ", low, at), text.rfind("\n", low, at), text.rfind("\t", low, at))
    begin = low if begin < 0 else begin + 1
    if begin == at:
        if text[at].isdigit():
            for word_start in _leading_starts(text, at, max(floor, at - 32)):
                match = _match_at(text, word_start)
                if match is not None and match.end() > at:
                    return match
        match = _match_at(text, at)
        return match if match is not None and match.end() > at else None
    for start in _WORD_START.finditer(text, begin, at + 1):
        match = _match_at(text, start.start())
        if match is not None and match.end() > at:
            return match
    return None


def _leading_starts(text: str, at: int, low: int) -> list[int]:
    """Where the up to three words before ``at`` begin, farthest first, when the word just
    before opens a multi-word atom; else none.  Reads at most ``at - low`` characters."""
    found: list[tuple[int, str]] = []
    end = at
    while len(found) < 3:
        stop = end
        while stop > low and text[stop - 1] in " :=\t":
            stop -= 1
        if stop == end or stop <= low:
            break
        start = stop
        while start > low and not text[start - 1].isspace():
            start -= 1
        while start < stop and text[start] in "([{\"'":
            start += 1
        word = text[start:stop].strip(".,").lower()
        if not word:
            break
        found.append((start, word))
        end = start
    if not found:
        return []
    if found[0][1] not in _LEADING_WORDS:
        first = found[0][0]
        if _OWNER_CODE.fullmatch(text, first, first + 4) and text[first + 4 : first + 5] == " ":
            return [first]  # "CEFX 654480": an owner's code opens its serial
        return []
    return [start for start, _ in reversed(found)]


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
    for noun in present & _SCALE_NOUNS:
        index = lowered.find(noun)
        while index >= 0:
            # "priority MEDIUM" after the noun, "low priority" before it
            for m in _WORD_LEVEL.finditer(text, max(0, index - 16), index + len(noun) + 24):
                if m.start() <= index < m.end():
                    atom = _word_level(m)
                    if atom is not None:
                        found.append(atom)
            index = lowered.find(noun, index + 1)
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


#: The nouns of the scales written in words (:data:`foldctl.claims.vocab.WORD_SCALES`).
_SCALE_NOUNS: Final = frozenset(V.WORD_SCALES)
#: A level written in words beside the noun of its scale: "priority MEDIUM", "severity:
#: minor", "low risk", "high-priority", "silver-tier".
_WORD_LEVEL: Final = lazy(
    "(?i)(?<![\\w-])(?:(?P<noun>"
    + "|".join(sorted(V.WORD_SCALES, key=len, reverse=True))
    + ")(?:[ \t]{0,2}[:=][ \t]{0,3}|[ \t]{1,3})(?P<rung>"
    + "|".join(sorted(V.WORD_RUNGS, key=len, reverse=True))
    + ")|(?P<rung2>"
    + "|".join(sorted(V.WORD_RUNGS, key=len, reverse=True))
    + ")[ -](?P<noun2>"
    + "|".join(sorted(V.WORD_SCALES, key=len, reverse=True))
    + "))(?![\\w-])"
)


def _word_level(m: re.Match[str]) -> Atom | None:
    noun, rung = m.group("noun") or m.group("noun2"), m.group("rung") or m.group("rung2")
    value = V.word_level(noun, rung)
    return None if value is None else Atom(LEVEL, m.group(), value, m.start(), m.end())


def is_word_level(atom: Atom) -> bool:
    """Whether a level is written in words ("priority MEDIUM"): compared with its entity's
    field of that scale only, never looked up as a value on its own."""
    return atom.kind == LEVEL and "=" in atom.value


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


def _numeric_month(m: re.Match[str]) -> Atom | None:
    return Atom(DATE, m.group(), f"{m.group('ny')}-{int(m.group('nm')):02d}", m.start(), m.end())


def _dotted(m: re.Match[str]) -> Atom | None:
    value = _date(m.group("ey"), int(m.group("em")), int(m.group("ed")))
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


def _digit_groups(m: re.Match[str]) -> Atom | None:
    return Atom(ID, m.group(), m.group().replace("-", ""), m.start(), m.end())


#: The registered HTTP status codes (RFC 9110 and the IANA registry).
_HTTP_CODES: Final = frozenset(
    [
        *range(100, 104),
        *range(200, 209),
        226,
        *range(300, 309),
        *range(400, 419),
        *range(421, 427),
        428,
        429,
        431,
        451,
        *range(500, 509),
        510,
        511,
    ]
)


def _level(m: re.Match[str]) -> Atom | None:
    scale = (m.lastgroup or "")[2:]
    number = m.group(f"{scale}_n") or (
        m.group(f"{scale}_m") if f"{scale}_m" in m.re.groupindex else None
    )
    if number is None:
        return None
    if scale == "http" and not 100 <= int(number) <= 599:
        return None
    if scale == "http" and int(number) not in _HTTP_CODES and "http" not in m.group().lower():
        return None  # "250 OK" is an SMTP reply: a code is HTTP by its word or its registry
    prefix = next(s.prefix for s in V.SCALES if s.name == scale)
    return Atom(LEVEL, m.group(), f"{prefix}{int(number)}", m.start(), m.end())


def _compound_duration(m: re.Match[str]) -> Atom | None:
    seconds = Decimal(0)
    for number, unit in (("d1", "u1"), ("d2", "u2"), ("d3", "u3"), ("d4", "u4"), ("d5", "u5")):
        if m.group(number) is not None:
            factor = DURATION_UNITS.get(m.group(unit), 60 if m.group(unit) == "m" else None)
            if factor is None:
                factor = 3600 if m.group(unit).startswith("h") else 86400
            seconds += Decimal(m.group(number)) * Decimal(factor)
    return Atom(DURATION, m.group(), decimal_text(seconds), m.start(), m.end())


def _range(m: re.Match[str]) -> Atom | None:
    low, high = to_decimal(m.group("rlo")), to_decimal(m.group("rhi"))
    if low is None or high is None:
        return None
    joined = m.group()[len(m.group("rlo")) : m.start("rhi") - m.start()] == "-"
    if not low < high:
        if joined and _DIGIT_GROUPS.fullmatch(m.group()) and not _YEAR_MONTH.fullmatch(m.group()):
            return _digit_groups(m)  # order 48213-7760: an identifier of two digit groups
        return None  # 2026-03 is a month, 10-5 no range
    if joined and len(m.group("rhi")) - len(m.group("rlo")) >= 2:
        return None  # SKU 88-1204: an identifier, not a range
    label = _LAST_WORD.search(m.string, max(0, m.start() - 16), m.start())
    if joined and label is not None and label.group(1).isupper() and len(label.group(1)) >= 2:
        return None  # PO 12-40, SKU 3-18: a code after its label
    value = f"{decimal_text(low)}-{decimal_text(high)}"
    return Atom(RANGE, m.group(), value, m.start(), m.end())


_DIGIT_GROUPS: Final = lazy(r"\d{3,6}-\d{3,6}")
_YEAR_MONTH: Final = lazy(r"(?:19|20)\d\d-(?:0[1-9]|1[0-2])")


def _quantity(m: re.Match[str]) -> Atom | None:
    amount = to_decimal(m.group("qn"))
    if amount is None:
        return None
    unit = QUANTITY_UNITS[m.group("qu")]
    return Atom(QUANTITY, m.group(), f"{decimal_text(amount)} {unit}", m.start(), m.end())


#: Lower-case words with digits that name standards and encodings, not things.
_LOWER_STOPLIST: Final = frozenset(
    _words("x86-64 utf-8 utf-16 utf-32 iso-8601 sha-1 sha-256 sha-512 mp-4 h-264 covid-19 e-2e")
)


def _lower_name(m: re.Match[str]) -> Atom | None:
    """A lower-case name of parts with digits: a pod, a backup, a build
    (``checkout-api-7d9f8b6c4-9mzlt``, ``bkp-20260611-0200``).  Two digits at least, and a
    part of two digits or a part that mixes letters and digits in four characters."""
    text = m.group()
    if text in _LOWER_STOPLIST or sum(c.isdigit() for c in text) < 2 or len(text) < 8:
        return None
    parts = text.split("-")
    if not any(
        (p.isdigit() and len(p) >= 2)
        or (len(p) >= 4 and not p.isdigit() and any(c.isdigit() for c in p))
        for p in parts[1:]
    ):
        return None
    return Atom(ID, text, text.upper().replace("-", ""), m.start(), m.end())


def _handle(m: re.Match[str]) -> Atom | None:
    return Atom(HANDLE, m.group(), "@" + m.group("handle").lower(), m.start(), m.end())


def _hours_minutes(m: re.Match[str]) -> Atom:
    seconds = int(m.group("hh")) * 3600 + int(m.group("hmm")) * 60
    return Atom(DURATION, m.group(), decimal_text(Decimal(seconds)), m.start(), m.end())


def _clock(m: re.Match[str]) -> Atom | None:
    value = _time(int(m.group("th")), m.group("tm"), m.group("ts"), m.group("tap"))
    return None if value is None else Atom(TIME, m.group(), value, m.start(), m.end())


def _ampm(m: re.Match[str]) -> Atom | None:
    value = _time(int(m.group("th2")), "00", None, m.group("tap2"))
    return None if value is None else Atom(TIME, m.group(), value, m.start(), m.end())


def _symbol_money(m: re.Match[str]) -> Atom | None:
    amount = to_decimal(m.group("sa"), grouped=True)
    if amount is None:
        return None
    suffix = (m.group("ssuf") or "").strip().lower()
    if suffix:
        amount *= MULTIPLIERS[suffix]
    value = money_value(CURRENCY_SYMBOLS[m.group("sym")], amount)
    return Atom(MONEY, m.group(), value, m.start(), m.end())


def _euro_comma(m: re.Match[str]) -> Atom | None:
    amount = to_decimal(m.group("ec"))
    if amount is None:
        return None
    written = m.group("ecur")
    code = CURRENCY_SYMBOLS.get(written, written)
    return Atom(MONEY, m.group(), money_value(code, amount), m.start(), m.end())


def _code_money(m: re.Match[str]) -> Atom | None:
    amount = to_decimal(m.group("ca"), grouped=True)
    if amount is None:
        return None
    suffix = (m.group("csuf") or "").strip().lower()
    if suffix:
        amount *= MULTIPLIERS[suffix]
    return Atom(MONEY, m.group(), money_value(m.group("code1"), amount), m.start(), m.end())


def _amount_code(m: re.Match[str]) -> Atom | None:
    amount = to_decimal(m.group("ac"), grouped=True)
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


#: One short word after a slash (``/m``, ``/kg``, ``/night``): a rate's unit when it
#: follows a value with no space.
_RATE_UNIT: Final = lazy(r"/[A-Za-z]{1,6}")


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
    if _RATE_UNIT.fullmatch(text) and m.start() > 0 and not m.string[m.start() - 1].isspace():
        return None  # "1.150,00 €/m", "3.20/kg": the unit of a rate, not a path
    value = text.removeprefix("./")
    if value.startswith(".../"):  # a path cut short: ".../privkey.pem" is its last part
        value = value[3:]
    return Atom(PATH, text, value, m.start(), m.start() + len(text))


def _tool_count(m: re.Match[str]) -> Atom | None:
    value = f"{m.group('tc')}×{int(m.group('tcn'))}"
    return Atom(TOOL_COUNT, m.group(), value, m.start(), m.end())


def _upper_id(m: re.Match[str]) -> Atom | None:
    return _identifier(m.group(), m.start(), m.end())


def _owner_serial(m: re.Match[str]) -> Atom | None:
    value = m.group("cid") + m.group("cnum") + (m.group("ccheck") or "")
    return Atom(ID, m.group(), value, m.start(), m.end())


def _lower_id(m: re.Match[str]) -> Atom | None:
    return Atom(ID, m.group(), m.group(), m.start(), m.end())


def _host_id(m: re.Match[str]) -> Atom | None:
    if m.group() in _LOWER_STOPLIST:
        return None
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
    "B_did": _digit_groups,
    **{f"B_{scale.name}": _level for scale in V.SCALES},
    "B_dur": _compound_duration,
    "B_range": _range,
    "B_qty": _quantity,
    "B_kid": _lower_name,
    "B_handle": _handle,
    "B_slash": _slash,
    "B_nmy": _numeric_month,
    "B_dotted": _dotted,
    "B_mdy": _mdy,
    "B_my": _my,
    "B_dmy": _dmy,
    "B_hmdur": _hours_minutes,
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
    "B_cid": _owner_serial,
    "B_id": _upper_id,
    "B_lid": _lower_id,
    "B_hid": _host_id,
    "B_hnum": _hash_number,
    "B_hash": _hash,
}


_UPPER_PREFIX: Final = lazy(r"[A-Z]+")
_NOT_ID_CHAR: Final = lazy(r"[^A-Z0-9]")
_APOSTROPHE_WORDS: Final = lazy(r"[a-z']+")
_LEVEL_RANGE: Final = lazy(r"(?:SEV|P|S)\d(?:[-_](?:SEV|P|S)?\d){1,4}")
#: A range of short codes with one prefix (``T1-T4``, ``T0-T6M``, ``Q1-Q3``).
_CODE_RANGE: Final = lazy(r"([A-Z]{1,3})\d{1,2}[A-Z]?-\1\d{1,2}[A-Z]{0,2}")
#: Nouns a number after which names a record (``run 8812345678``, ``order 48213``).
ENTITY_NOUNS: Final = frozenset(
    _words(
        "run re-run rerun build job pipeline workflow order ticket issue pr case incident "
        "invoice request transaction txn deployment deploy job"
    )
)


def _lot_split(text: str) -> tuple[str, str]:
    """An identifier and its lot's split: ``("K3-24817", "1")`` for ``K3-24817.1``;
    ``(text, "")`` when there is none."""
    head, dot, split = text.rpartition(".")
    return (head, split) if dot and split.isdigit() else (text, "")


def _identifier(text: str, start: int, end: int) -> Atom | None:
    """Upper-case identifiers: two digits (``KB-212``), or one in a long code (``K7QZ2D``);
    a lot's split (``K3-24817.1``) when what comes before it is one (not ``BER-3.14``)."""
    base = _lot_split(text)[0]
    digits = sum(c.isdigit() for c in base)
    prefix = _UPPER_PREFIX.match(text)
    if prefix is not None and prefix.group() in ID_STOPLIST:
        return None
    if _LEVEL_RANGE.fullmatch(text) or _CODE_RANGE.fullmatch(text):
        return None  # P1-P4, SEV1-SEV3, T1-T4: a range of levels or codes, not a record
    if digits < 2 and not (digits == 1 and len(base) >= 6 and len(base) - digits >= 3):
        return None
    if prefix is not None and len(prefix.group()) == 1 and "-" not in text and len(text) < 5:
        return None  # P95, H100: a measure or a model, not a record
    return Atom(ID, text, _NOT_ID_CHAR.sub("", text), start, end)


#: Characters that mask the digits before a number's last ones (a card's ****0291).
_MASKS: Final = frozenset("*•xX")


def _number(m: re.Match[str], all_numbers: bool) -> Atom | None:
    raw = m.group("num")
    word = raw.lower()
    is_word = word in NUMBER_WORDS
    amount = Decimal(NUMBER_WORDS[word]) if is_word else to_decimal(raw)
    if amount is None:
        return None
    unit = m.group("unit")
    start = m.start()
    if (
        not unit
        and not is_word
        and raw[0] == "0"
        and raw.isdigit()
        and len(raw) >= 4
        and m.string[start - 1 : start] not in _MASKS
    ):
        return Atom(ID, raw, f"#{raw}", start, m.end("num"))  # sample 04471: a record's number
    if unit:
        seconds = amount * Decimal(DURATION_UNITS.get(unit, 1))
        if unit in DURATION_UNITS:
            return Atom(DURATION, m.group(0), decimal_text(seconds), start, m.end())
        return None
    w1, w2 = m.group("w1"), m.group("w2")
    if w1 and w1.lower() in MULTIPLIERS:
        return None  # "1.2 million rows" is a rounded figure, not a value to look up
    before = _LAST_WORD.search(m.string, max(0, start - 16), start)
    label = before.group(1).lower() if before is not None else ""
    if (
        label in ENTITY_NOUNS
        and raw.isdigit()
        and len(raw) >= 3
        and not m.string[max(0, start - 2) : start].startswith("#")
    ):
        return Atom(ID, raw, f"#{raw}", start, m.end("num"))  # "run 8812345678": a record
    if (
        w1
        and (w1.lower() in V.OUTCOMES or status_family(w1) is not None)
        and not (w1.lower() in COUNT_MODIFIERS and w2 and w2.lower() not in NOT_NOUNS)
    ):
        w1 = w2 = None  # "1,204 passed": a number with an outcome, not a count of "passed"
    if w1 and label in LABEL_WORDS and not is_word:
        w1 = w2 = None  # "the acuity 2 STEMI", "stage 3 tumours": a rank, not a count
    if w1:
        lw1 = w1.lower()
        if lw1 in DURATION_UNITS and not is_word:
            seconds = amount * Decimal(DURATION_UNITS[lw1])
            return Atom(DURATION, f"{raw} {w1}", decimal_text(seconds), start, m.end("w1"))
        if lw1 in _SPAN_QUALIFIERS and w2 and w2.lower() in DURATION_UNITS and not is_word:
            # "10 calendar days", "5 business days": a duration with a word of which days
            seconds = amount * Decimal(DURATION_UNITS[w2.lower()])
            return Atom(
                DURATION, m.string[start : m.end("w2")], decimal_text(seconds), start, m.end("w2")
            )
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
        elif lw1 not in NOT_NOUNS and lw1 not in MONTHS and not _PROPER.fullmatch(w1):
            noun, noun_end = lw1, m.end("w1")  # not a name: "at 9 Paris time"
        if noun is not None and _YEAR.fullmatch(raw) and singular(noun) == noun:
            noun = None  # "the 2023 water claim": a year before a noun, not a count of it
        if noun is not None and len(raw) > 1 and raw[0] == "0" and raw.isdigit():
            noun = None  # "box 08 read OK": a number with a leading zero is a label
        if noun is not None and m.string[noun_end : noun_end + 1].isdigit():
            noun = None  # "6 000 cm3 per kg": a unit with a power, not a count of "cm"
        if noun is not None and not is_word:
            counted = to_decimal(raw, grouped=True)  # "1.204 rows": things come in wholes
            amount = counted if counted is not None else amount
        if noun is not None and amount == amount.to_integral_value() and "." not in raw[-3:-2]:
            lemma = " ".join(singular(part) for part in noun.split())
            text = m.string[start:noun_end]
            return Atom(COUNT, text, f"{int(amount)} {lemma}", start, noun_end)
    if is_word:
        return None
    if label in LABEL_WORDS and not all_numbers:
        return None  # "summary 100", "section 3.2": a label, not a quantity
    significant = "." in raw or "," in raw or len(raw.lstrip("0")) >= 3 or not raw.isascii()
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
    if words and words[-1] in ("fully", "over", "double") and family == "confirmed":
        return None  # "fully booked": no seat left, no booking made
    written = _APOSTROPHE_WORDS.findall(m.string[max(0, m.start() - 30) : m.start()])[-2:]
    if set(written) & INTENT_WORDS:  # as written: "May" is a month
        return None  # "get it delivered", "to be approved", "will ship": a wish, no claim
    if V.status_key(text) in V.PREDICATIVE and not (set(words[-2:]) & V.PREDICATE_WORDS):
        return None  # "a complete list": no claim that anything is complete
    return Atom(STATUS, text, family, m.start(), m.end())


# --------------------------------------------------------------------------- lookup keys


def _amount_spellings(amount: Decimal) -> tuple[str, ...]:
    """The number tokens of an amount, a decimal comma's whole part too ("12,5 kWh": the
    comma splits the token)."""
    if amount != int(amount):
        return (*number_spellings(amount), *_whole_spellings(amount))
    return number_spellings(amount)


@lru_cache(maxsize=8192)
def lookup_keys(atom: Atom) -> tuple[tuple[str, ...], ...]:
    """Tokens any evidence spelling of ``atom`` must contain, as groups of alternatives.

    The evidence index files each message under its *number tokens*: maximal
    runs of digits and dots (``480.00``, ``2026``, ``10.0.3.17``, ``1.204``; two or
    three dots, a ``,``, a space or ``-`` end a token).  A message can support ``atom``
    only if it holds one token of every group: a date needs its year *and* its day, a
    range both its ends.
    Empty when the atom has no dependable number token (an email, a URL, a path, a
    version, a hash, a handle, a name, an identifier with fewer than three digits in a
    row): such atoms are looked up by :func:`needle` instead.
    """
    kind, value = atom.kind, atom.value
    if kind == ID:
        run = _longest_run(atom.text)
        head, split = _lot_split(atom.text)
        if split and head.endswith(run):
            run = f"{run}.{split}"  # K3-24817.1: the dot joins the lot's split to its token
        return ((run, run + "."),) if len(run) >= 3 else ()
    if kind in (MONEY, NUMBER, PERCENT):
        amount = parse_money(value)[1]
        if kind == NUMBER and len(atom.text) > 1 and atom.text[0] == "0" and atom.text.isdigit():
            # "****0291", "007": digits as written (an identifier's), zeros and all
            return ((atom.text, atom.text + ".", *number_spellings(amount)),)
        if kind == MONEY and amount != int(amount) and abs(amount) >= 10:
            # "642,10 €" and "1.204,50": the comma splits the token, the whole part is one
            return ((*number_spellings(amount), *_whole_spellings(amount)),)
        decimals = _DECIMAL_COMMA.search(atom.text) if kind in (MONEY, NUMBER) else None
        # "120.40" of "120,40": written with a point, a number the originals give with a
        # comma (not a share: "1.9%" would make every message with a 1 and a 9 a candidate,
        # six times the time of the 1,000-deep chain)
        pointed = decimals is None and kind in (MONEY, NUMBER)
        if pointed:
            decimals = _DECIMAL_POINT.search(atom.text)
        if decimals is not None and amount != int(amount):
            # "7,98 €", "9,4", and "€7.50" of "7,50 EUR": the originals' comma splits the
            # token in two, each of one or two digits; a message must hold both (one digit
            # alone is a token of most); written with a point, the cents may have two
            # places there ("7.5" of "7,50")
            spelled = number_spellings(amount)
            cents = decimals.group()[2:]
            tail = (cents, cents.ljust(2, "0")) if pointed else (cents,)
            return ((*spelled, *_whole_spellings(amount)), (*spelled, *tail))
        if kind == PERCENT and amount > 0:
            # a share may be written as a fraction ("0.8705" for 87.05%), or rounded to
            # the places written ("23,1 %" of 23.13%); an assay may pass 100 ("100,4 %")
            return (
                (
                    *number_spellings(amount),
                    *(number_spellings(amount / 100) if amount <= 100 else ()),
                    *(f"{v}" for v in _one_place_more(amount, decimal_places(atom.text))),
                    # "94,3 %": the comma splits the token, the whole part is one; only
                    # for a share the summary writes so (the whole part alone is a token of
                    # many messages, and each is then read around it)
                    *(_whole_spellings(amount) if _DECIMAL_COMMA.search(atom.text) else ()),
                ),
            )
        return (number_spellings(amount),)
    if kind == QUANTITY:
        return (_amount_spellings(Decimal(value.split(" ", 1)[0])),)
    if kind == COUNT:
        return (number_spellings(Decimal(value.split(" ", 1)[0])),)
    if kind == RANGE:  # each end like a quantity's amount: "6,5-8,5" splits at commas
        return tuple(_amount_spellings(Decimal(end)) for end in value.split("-"))
    if kind == LEVEL:
        digits = value[len(value.rstrip("0123456789")) :]
        return ((digits, digits + "."),) if digits else ()
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
            # a day and month with no year: its month token, or a dotted date of a year
            # near today's (19.03.2026 is one token; the summary's "19 March" has no year)
            return ((*_padded(int(value[5:7])), *_dotted_forms(int(value[5:7]), int(value[2:4]))),)
        year = value[:4]
        if len(value) == 7:
            return ((year, year + "."),)
        day, month = int(value[8:10]), int(value[5:7])
        dotted = _dotted_forms(day, month, (year,))
        return ((year, year + ".", *dotted), (*_padded(day), *dotted))
    if kind == TIME:
        hour = int(value[:2])
        hours = set(_padded(hour)) | (set(_padded(hour - 12)) if hour > 12 else set())
        hours |= set(_padded(12)) if hour in (0, 12) else set()
        hours |= set(_padded(hour + 12)) if _twelve_hour(atom.text) else set()
        offset = zone_offset(atom.text)
        if offset is not None:  # the same moment in any zone (its minutes pick it out)
            hours = {h for hour_ in range(24) for h in _padded(hour_)}
        if value[3:5] == "00":
            return (tuple(sorted(hours)),)  # "9am" has no minutes to look for
        return (tuple(sorted(hours)), (value[3:5], value[3:5] + "."))
    if kind == IP:
        return ((value, value + "."),)
    return ()


#: The years a day and month without one are looked up in, written day.month.year.
_NEAR_YEARS: Final = tuple(str(y) for y in range(1990, 2051))


def _dotted_forms(day: int, month: int, years: Sequence[str] = _NEAR_YEARS) -> tuple[str, ...]:
    """The one token a date written day.month.year is (``15.03.2026``, ``5.3.2026.``)."""
    return tuple(
        f"{d}.{m}.{year}{end}"
        for year in years
        for d in dict.fromkeys((str(day), f"{day:02d}"))
        for m in dict.fromkeys((str(month), f"{month:02d}"))
        for end in ("", ".")
    )


_PLACES: Final = lazy(r"\d+(?:[.,](\d+))?")
_DECIMAL_COMMA: Final = lazy(r"\d,\d{1,2}(?!\d)")
_DECIMAL_POINT: Final = lazy(r"\d\.\d{1,2}(?!\d)")
#: A year as people write one before a noun ("the 2023 claim").
_YEAR: Final = lazy(r"(?:19|20)\d\d")


def decimal_places(written: str) -> int:
    """How many decimal places the last number of ``written`` has (``23,1 %`` -> 1); more
    than three are no decimals people write (``1,204`` groups thousands): 0."""
    found = _PLACES.findall(written)
    tail = found[-1] if found else ""
    return len(tail) if len(tail) <= 3 else 0


def _rounded(value: Decimal, places: int) -> Decimal:
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def _one_place_more(amount: Decimal, places: int) -> list[Decimal]:
    """The numbers of one more decimal place that round to ``amount`` (23.1 -> 23.05 ...
    23.14): how a share the originals give more exactly may be written."""
    if places > 3:
        return []
    step = Decimal(1).scaleb(-(places + 1))
    low = amount - 5 * step
    return [low + n * step for n in range(10)]


_DOTTED_NUMBER: Final = lazy(r"(?<![\d.,])[1-9]\d{0,2}(?:\.\d{3})+(?![\d.,])")


def thousands_reading(atom: Atom) -> Atom | None:
    """The other reading of a number written with dots before groups of three digits
    (``48.213 Elemente``: 48213 as Germans write it, 48.213 as the English do), for a
    number, a count or a quantity; None when it has no other."""
    if atom.kind not in (NUMBER, COUNT, QUANTITY):
        return None
    match = _DOTTED_NUMBER.search(atom.text)
    if match is None:
        return None
    decimal, grouped = to_decimal(match.group()), to_decimal(match.group(), grouped=True)
    if decimal is None or grouped is None or decimal == grouped:
        return None
    number, _, rest = atom.value.partition(" ")
    if number != decimal_text(decimal):
        return None
    value = f"{decimal_text(grouped)} {rest}" if rest else decimal_text(grouped)
    return Atom(atom.kind, atom.text, value, atom.start, atom.end)


def date_readings(atom: Atom) -> tuple[Atom, ...]:
    """A number written as a day and a month without the year (``05.12``, as Europeans
    write 5 December) read as the dates it may be, day first, then month first; none for
    any other number."""
    if atom.kind != NUMBER:
        return ()
    match = _DAY_MONTH.fullmatch(atom.text)
    if match is None:
        return ()
    first, second = int(match.group(1)), int(match.group(2))
    found = []
    for day, month in ((first, second), (second, first)):
        if 1 <= day <= 31 and 1 <= month <= 12:
            found.append(Atom(DATE, atom.text, f"--{month:02d}-{day:02d}", atom.start, atom.end))
    return tuple(found)


#: A day and a month of two digits each, joined by a dot (``05.12``).
_DAY_MONTH: Final = lazy(r"(\d\d)\.(\d\d)")


def number_reading(atom: Atom) -> Atom | None:
    """A record's number written with a leading zero (``04471``) read as the number it also
    is, looked up as digits as written: the id reading must not be stricter."""
    if atom.kind != ID or not atom.text.isdigit():
        return None
    return Atom(NUMBER, atom.text, decimal_text(Decimal(atom.text)), atom.start, atom.end)


def _longest_run(text: str) -> str:
    runs = _DIGIT_RUN.findall(text)
    return max(reversed(runs), key=len) if runs else ""


def _padded(number: int) -> tuple[str, ...]:
    forms = {str(number), f"{number:02d}"}
    return tuple(sorted(forms | {f + "." for f in forms}))


def _whole_spellings(amount: Decimal) -> tuple[str, ...]:
    """The tokens the whole part of an amount is written with when a comma splits it off."""
    whole = _whole_digits(amount)
    forms = [whole]
    if len(whole) >= 4:
        forms += [whole[-3:], _grouped(whole, ".")]
    return tuple(forms)


def _whole_digits(amount: Decimal) -> str:
    """The digits of the whole part of ``abs(amount)``, read off its text: ``int()`` and
    ``str()`` of an integer are quadratic in its digits (and refused past 4,300 of them),
    and a summary can hold a "number" of a million digits."""
    return _digits(amount)[0]


def _digits(amount: Decimal) -> tuple[str, str]:
    """(whole, fraction) digits of ``abs(amount)``, exactly (no context rounding), the
    fraction without trailing zeros: ``480.50`` -> (``480``, ``5``)."""
    whole, _, fraction = format(abs(amount), "f").partition(".")
    return whole, fraction.rstrip("0")


def _grouped(digits: str, sep: str) -> str:
    """``1234567`` -> ``1.234.567`` (with ``sep``)."""
    head = len(digits) % 3 or 3
    return digits[:head] + "".join(sep + digits[i : i + 3] for i in range(head, len(digits), 3))


def number_spellings(amount: Decimal) -> tuple[str, ...]:
    """The number tokens a number can be written with: 480 -> 480, 480.0, 480.00, 480. ...;
    a number of thousands also by its last group (``2,880.00`` is the tokens ``2`` and
    ``880.00``) and grouped by dots (``1.204`` of ``1.204,50``)."""
    whole, fraction = _digits(amount)
    bases = [whole]
    if len(whole) >= 4:
        bases.append(whole[-3:])
    spellings: list[str] = []
    for base in bases:
        if fraction:
            # trailing zeros to four places: 18.42 is written 18.420 too, 0.5 as 0.50, 0.500
            forms = [f"{base}.{fraction}{'0' * pad}" for pad in range(max(1, 5 - len(fraction)))]
        else:
            forms = [base, f"{base}.0", f"{base}.00"]
        spellings.extend(forms)
        spellings.extend(f + "." for f in forms)
    if len(whole) >= 4:
        dotted = _grouped(whole, ".")
        spellings.extend((dotted, dotted + "."))
    return tuple(spellings)


def zone_offset(text: str) -> int | None:
    """The offset from UTC, in minutes, of a time written with a zone (``05:15 CEST`` ->
    120, ``14:00 (UTC-4)`` -> -240, ``...T14:00:00-04:00`` -> -240); ``None`` without one."""
    found = _ZONE_AT_END.search(text)
    if found is None:
        return None
    zone = found.group("name")
    if zone:
        return ZONES.get(zone.upper() if zone != "Z" else "Z")
    sign = -1 if found.group("sign") in "-\u2212" else 1
    hours = int(found.group("h"))
    minutes = int(found.group("m") or 0)
    return sign * (hours * 60 + minutes)


#: A zone at the end of a time's text (see :data:`ZONES`).
_ZONE_AT_END: Final = lazy(
    rf"(?:(?P<name>{_NAMED_ZONES}|Z)|(?:UTC|GMT)?(?P<sign>[+\u2212-])(?P<h>\d{{1,2}}):?(?P<m>\d\d)?)"
    r"\)?$"
)


def needle(atom: Atom) -> str:
    """A substring any evidence spelling of ``atom`` contains, for atoms without keys.

    Emails, URLs, handles and names are compared lower-case; an identifier is found by
    its longest digit run, a path by its last segment, a hash by its first 7
    characters, a version by its text without the ``v``, a name by its last word.
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
    if atom.kind == HANDLE:
        return atom.value[1:]
    if atom.kind == NAME:
        return atom.value.rsplit(" ", 1)[-1].lower()
    if atom.kind == "label":
        return atom.value[1:]
    return atom.value


_CURRENCY_NEAR: Final = lazy(
    rf"(?P<before>[$€£¥]|\b(?:{_CODES})\b)\s?$|^\s?(?P<after>[$€£¥]|(?:{_CODES}|dollars?|euros?|pounds?)\b)"
)
_DOTTED: Final = frozenset("0123456789.")
_ID_CHARS: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-#")
#: A number as written around a token, thousands separators of any locale included.
_NUMBER_SPAN: Final = lazy(
    f"\\d{{1,3}}(?:[,.{_GROUP_ONLY}]\\d{{3}})+(?:[.,]\\d{{1,2}}(?!\\d))?|\\d+(?:[.,]\\d+)?"
)
#: Words near a number that say which scale a level is on.
_SCALE_WORDS: Final[dict[str, tuple[str, ...]]] = {
    "SEV": ("sev",),
    "P": ("priority", "prio", "p"),
    "HTTP ": ("http", "status", "code"),
    "exit ": ("exit",),
}


def _part_of_stamp(text: str, begin: int, end: int) -> bool:
    """Whether the number at ``text[begin:end]`` is part of a date or time (``03-14``,
    ``9:42``, ``12/03``); not a fraction with a part past a month's days (``214/214``)."""
    before = text[max(0, begin - 2) : begin]
    after = text[end : end + 2]
    if len(before) == 2 and before[1] in "-/:" and before[0].isdigit():
        other = _DIGITS_BEFORE.search(text, max(0, begin - 12), begin - 1)
        return before[1] != "/" or (_a_day(text[begin:end]) and _a_day(other))
    if len(after) == 2 and after[0] in "-/:" and after[1].isdigit():
        other = _DIGITS_AFTER.match(text, end + 1)
        return after[0] != "/" or (_a_day(text[begin:end]) and _a_day(other))
    return False


_DIGITS_BEFORE: Final = lazy(r"\d{1,9}$")
_DIGITS_AFTER: Final = lazy(r"\d{1,9}")


def _a_day(digits: str | re.Match[str] | None) -> bool:
    """Whether digits may be a day or a month of a date written with ``/``."""
    if isinstance(digits, re.Match):
        digits = digits.group()
    return digits is not None and digits.isdigit() and int(digits) <= 31


def _is_year(claim: Atom) -> bool:
    return claim.kind == NUMBER and claim.value.isdigit() and 1900 <= int(claim.value) <= 2100


_GROUPING: Final = frozenset(",." + _GROUP_ONLY)
_UNIT_AFTER: Final = lazy(r" ?([A-Za-z°%/]{1,6})")
_MEASURES: Final = frozenset([*DURATION_UNITS, *QUANTITY_UNITS, "%", "m"])


def number_around(text: str, start: int, end: int) -> list[tuple[int, int, Decimal]]:
    """The readings of the number written around the token ``text[start:end]``: the token
    alone, and the whole number its thousands separators make of it (``1.204,50``, ``1
    204 311``), each with where it begins and ends."""
    readings: list[tuple[int, int, Decimal]] = []
    written = text[start:end].rstrip(".")
    token = to_decimal(written)
    if token is not None:
        readings.append((start, end, token))
        if _GROUPED_DOTS.fullmatch(written):  # 22.988 kWh of a German table: 22988
            thousands = to_decimal(written, grouped=True)
            if thousands is not None:
                readings.append((start, end, thousands))
    before = text[start - 2 : start] if start >= 2 else ""
    after = text[end : end + 2]
    if not (
        (len(before) == 2 and before[1] in _GROUPING and before[0].isdigit())
        or (len(after) == 2 and after[0] in _GROUPING and after[1].isdigit())
    ):
        return readings  # no separator next to a digit: the token is the number
    for m in _NUMBER_SPAN.finditer(text, max(0, start - 20), min(len(text), end + 8)):
        if m.start() <= start < m.end():
            for grouped in (True, False):
                value = to_decimal(m.group(), grouped=grouped)
                if value is not None:
                    readings.append((m.start(), m.end(), value))
            break
    return readings


def _reading_supports(claim: Atom, text: str, begin: int, stop: int, seen: Decimal) -> bool:
    """Whether the number ``seen``, written at ``text[begin:stop]``, says what ``claim`` says."""
    kind = claim.kind
    if _part_of_stamp(text, begin, stop) and not _is_year(claim):
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
    if kind == COUNT:
        measure = _UNIT_AFTER.match(text, stop)
        if measure is not None and measure.group(1) in _MEASURES:
            return False  # "48 s" is a duration, no count of 48 hosts
        return seen == Decimal(claim.value.split(" ")[0])
    if kind == QUANTITY:
        number, _, unit = claim.value.partition(" ")
        unit_text = text[stop : stop + 24].lstrip(" \t\u202f\u00a0")  # a table's gap too
        return seen == Decimal(number) and any(
            unit_text.startswith(u) and QUANTITY_UNITS[u] == unit for u in QUANTITY_UNITS
        )
    currency, amount = parse_money(claim.value)
    if kind == PERCENT and seen != amount:
        # a share written as a fraction: "accuracy 0.8705" is 87.05%; or the share rounded
        # to the places the summary wrote ("23,1 %" of 23.13%)
        if 0 < seen < 1 and text[begin : begin + 2] in ("0.", ".") and seen * 100 == amount:
            return True
        places = decimal_places(claim.text)
        exponent = seen.as_tuple().exponent
        return (
            isinstance(exponent, int)
            and -exponent == places + 1
            and _rounded(seen, places) == amount
        )
    if seen != amount:
        return False
    if currency:
        near = _CURRENCY_NEAR.search(text[max(0, begin - 5) : begin])
        after = _CURRENCY_NEAR.match(text[stop : stop + 9])
        for found in (near and near.group("before"), after and after.group("after")):
            if found:
                code = CURRENCY_SYMBOLS.get(found) or CURRENCY_WORDS.get(found.lower(), found)
                if code != currency:
                    return False
    return True


_HEX_DIGITS: Final = frozenset(string.hexdigits)


def token_supports(claim: Atom, text: str, start: int, end: int) -> bool | None:
    """Decide from the number token at ``text[start:end]`` alone, when that is enough.

    Numbers, amounts, percentages, quantities, large counts, levels and identifiers are
    settled here (``True``/``False``) without running the full rules over the
    surroundings; other kinds return ``None`` (read the window around it).
    """
    kind = claim.kind
    if kind in (MONEY, NUMBER, PERCENT, QUANTITY) or (
        kind == COUNT and int(claim.value.split(" ")[0]) >= 10
    ):
        return any(
            _reading_supports(claim, text, begin, stop, value)
            for begin, stop, value in number_around(text, start, end)
        )
    if kind == LEVEL:
        window = text[max(0, start - 24) : end + 24]
        if any(a.kind == LEVEL and a.value == claim.value for a in extract_atoms(window)):
            return True
        prefix = claim.value.rstrip("0123456789")
        words = set(_LOWER_WORD.findall(text[max(0, start - 24) : start].lower()))
        return bool(words & set(_SCALE_WORDS.get(prefix, ())))
    if kind == ID:
        # the key "88213." of "IMG_88213.heic" ends at its dot: the id ends before it
        begin, stop = start, end - 1 if text[start:end].endswith(".") else end
        while begin > 0 and text[begin - 1] in _ID_CHARS:
            begin -= 1
        while stop < len(text) and text[stop] in _ID_CHARS:
            stop += 1
        if (
            begin >= 5
            and text[begin - 1] == " "
            and _OWNER_CODE.fullmatch(text, begin - 5, begin - 1)
            and (begin == 5 or not text[begin - 6].isalnum())
        ):
            begin -= 5  # "CEFX 654480": the owner's code is the id's
        token = text[begin:stop].strip("-_")
        if claim.value.startswith("#"):
            runs = _DIGIT_RUN.findall(token)
            return token.lstrip("#") == claim.value[1:] or (
                bool(runs) and runs[-1].lstrip("0") == claim.value[1:].lstrip("0")
            )
        if claim.value != claim.value.upper():  # a case-sensitive id (ch_3Nx8aB2c): as is
            return token == claim.value
        return re.sub(r"[^A-Z0-9]", "", token.upper()) == claim.value
    if kind == HASH:
        stop = end
        while stop < len(text) and text[stop] in _HEX_DIGITS:
            stop += 1
        run = text[start:stop].lower()
        before = text[start - 1] if start > 0 else " "
        after = text[stop] if stop < len(text) else " "
        if not before.isalnum() and not after.isalnum() and run == claim.value.lower():
            return True  # a part of a name: "prod-euw1-general-7f3a9e21-x2kq"
        return None
    if kind == PATH and text.startswith("/", end) and text.endswith(claim.text, 0, end):
        return True  # the folder of a file: "/incoming/Harlow" of ".../Harlow/P3.zip"
    if kind == VERSION:
        # a version written inside a name ("nightly-2026.12.02-0200", "pgbackrest-2.54.1")
        # is the run of digits and dots it stands in
        begin, stop = start, end
        while begin > 0 and text[begin - 1] in _DOTTED:
            begin -= 1
        while stop < len(text) and text[stop] in _DOTTED:
            stop += 1
        run = text[begin:stop].strip(".")
        if run == claim.value or run.startswith(claim.value + "."):
            return True
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
            return times_agree(claim.value, claim.text, seen.value, seen.text)
        if seen.kind == DATE and len(seen.text) > 10:
            stamp = _STAMP_TIME.search(seen.text)
            return stamp is not None and times_agree(
                claim.value, claim.text, stamp.group(1), seen.text
            )
        return False
    if kind in (LEVEL, QUANTITY, RANGE):
        return seen.kind == kind and seen.value == claim.value
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
        if seen.kind == HANDLE and seen.text.startswith("@"):
            return seen.text[1:] == claim.text  # "curl -d @body.json": the file it sends
        if seen.kind not in (PATH, URL):
            return False
        a, b = claim.value, seen.value
        return (
            a == b
            or b.endswith("/" + a)
            or (a.startswith("/") and b.endswith(a))
            or a.endswith("/" + b.lstrip("/"))
        )
    if kind in (HASH, UUID):
        if seen.kind not in (HASH, UUID):
            return False
        short, long_ = sorted((claim.value, seen.value), key=len)
        return len(short) >= 7 and long_.startswith(short)
    if kind == IP:
        return seen.kind == IP and seen.value == claim.value
    return False


_STAMP_TIME: Final = lazy(r"[T ](\d\d:\d\d(?::\d\d)?)")


def times_agree(claim: str, claim_text: str, seen: str, seen_text: str) -> bool:
    """Whether two clock times say the same: as written, or as the same moment when both
    give their zone (``05:15 CEST`` is ``03:15Z``), or when one gives a zone and the other
    is that moment in UTC (a table's ``TRIGGERED (UTC)`` column)."""
    if seen.startswith(claim) or claim.startswith(seen):
        return True
    end = _RANGE_END.search(seen_text)
    if end is not None and f"{int(end.group(1)):02d}:{end.group(2)}" == claim[:5]:
        # "the warning ends at 14:00" of a window "10:00-14:00" (a range ends no range)
        return _RANGE_END.search(claim_text) is None
    if seen.startswith("00:") and seen[3:8] == claim:
        return True  # "done in 22:41" of an elapsed "00:22:41": minutes and seconds
    if _twelve_hour(claim_text) and f"{int(claim[:2]) + 12:02d}{claim[2:]}" in (seen, seen[:5]):
        return True  # "8:31 pm instead of 7:40": the evening's 19:40
    said, shown = zone_offset(claim_text), zone_offset(seen_text)
    if said is None and shown is None:
        return False
    minutes = int(claim[:2]) * 60 + int(claim[3:5]) - (said or 0)
    other = int(seen[:2]) * 60 + int(seen[3:5]) - (shown or 0)
    return minutes % 1440 == other % 1440


_BARE_CLOCK: Final = lazy(r"(?:[1-9]|1[01]):[0-5]\d")
#: The end of a range of clock times (``10:00-14:00``, ``22:00 – 02:00``).
_RANGE_END: Final = lazy(r"\d:\d\d\s*[-\u2013]\s*(\d{1,2}):(\d\d)")


def _twelve_hour(text: str) -> bool:
    """Whether a time is written the way a twelve-hour clock is, with no am or pm: ``7:40``
    (not ``07:40``, ``19:40``, ``7:40 am`` or ``7:40 UTC``)."""
    return _BARE_CLOCK.fullmatch(text) is not None


def dates_agree(claim: str, seen: str) -> bool:
    """Same day; a date without a year agrees with any year; a month with any day in it."""
    if claim == seen:
        return True
    if claim.startswith("--") or seen.startswith("--"):
        return len(claim) >= 7 and len(seen) >= 7 and claim[-5:] == seen[-5:]
    if len(claim) == 7:
        return seen.startswith(claim)
    return False


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
    ("lot K3-24817.1", ((ID, "K3248171"),)),  # a lot's split: one id, its dot and all
    # an owner's code and a serial: one id
    ("car CEFX 654480 and box MSKU 772301-5", ((ID, "CEFX654480"), (ID, "MSKU7723015"))),
    ("PM2.5 and room BER-3.14 are not lots", ()),  # no id before the dot
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
    ("(EUR 9,10 a kilo)", ((MONEY, "EUR 9.1"),)),  # a decimal comma after a code
    # numbers, percentages, counts, durations
    ("1,204 rows", ((COUNT, "1204 row"),)),
    ("card ends 4242", ((NUMBER, "4242"),)),
    ("Summary 6 of 7", ()),
    ("Research summary 100: see section 3.2", ()),
    ("uptime 99.95%", ((PERCENT, "99.95"),)),
    ("peaked at 0,64 NTU", ((NUMBER, "0.64"),)),  # a decimal comma: not "64 NTU"
    ("columns 12,45,7", ()),  # a list: no decimal comma, and no number worth keeping
    ("3 tool calls", ((COUNT, "3 tool call"),)),
    ("12 seats", ((COUNT, "12 seat"),)),
    ("two options", ((COUNT, "2 option"),)),
    ("3 failed requests", ((COUNT, "3 request"), (STATUS, "failed"))),
    ("one of them", ()),
    ("1.2 million rows", ()),
    ("issue_refund×1", ((TOOL_COUNT, "issue_refund×1"),)),
    ("timeout after 30000ms", ((STATUS, "failed"), (DURATION, "30"))),
    ("5:40 h left", ((DURATION, "20400"),)),
    ("at 14:00 hrs", ((TIME, "14:00"),)),
    ("logged 7:02 of air time", ((DURATION, "25320"),)),
    ("pull in the mid-290s", ()),
    ("the acuity 2 STEMI", ()),
    ("we have 2 STEMI patients", ((COUNT, "2 stemi"),)),
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
    ("read on 15.03.2026", ((DATE, "2026-03-15"),)),
    ("the return for 08/2026", ((DATE, "2026-08"),)),
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
    ("42 m at 1.150,00 €/m", ((MONEY, "EUR 1150"),)),
    ("cannot load .../privkey.pem", ((PATH, "/privkey.pem"),)),
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
    # numbers as people write them
    ("1.204 rows", ((COUNT, "1204 row"),)),
    ("1 204 311 rows", ((COUNT, "1204311 row"),)),
    ("rows: 1\u202f204\u202f311", ((NUMBER, "1204311"),)),
    ("€1.204,50", ((MONEY, "EUR 1204.5"),)),
    ("1 204,50 €", ((MONEY, "EUR 1204.5"),)),
    ("6 125,17 $", ((MONEY, "USD 6125.17"),)),
    ("€ 89,60", ((MONEY, "EUR 89.6"),)),
    ("€ 3.218,60", ((MONEY, "EUR 3218.6"),)),
    ("877 200,00 SEK", ((MONEY, "SEK 877200"),)),
    ("1 284.60 euros", ((MONEY, "EUR 1284.6"),)),
    ("1,204 tests failed", ((COUNT, "1204 test"), (STATUS, "failed"))),
    ("1,204 passed", ((NUMBER, "1204"), (STATUS, "succeeded"))),
    ("tracking 4471-2290-8813", ((ID, "447122908813"),)),
    ("backup bkp-20260611-0200", ((ID, "BKP202606110200"),)),
    ("pod checkout-api-7d9f8b6c4-9mzlt", ((ID, "CHECKOUTAPI7D9F8B6C49MZLT"),)),
    ("CI run 8812345678", ((ID, "#8812345678"),)),
    ("the first box (…8203)", ()),  # an id's last digits, not a number
    ("421.3GB", ((QUANTITY, "421.3 GB"),)),
    ("2.40 kg", ((QUANTITY, "2.4 kg"),)),
    ("38 min 41 s", ((DURATION, "2321"),)),
    ("14m 07s", ((DURATION, "847"),)),
    ("5–10 business days", ((RANGE, "5-10"),)),
    ("5 to 10 days", ((RANGE, "5-10"),)),
    ("pH 6,5-8,5", ((RANGE, "6.5-8.5"),)),  # decimal commas at both ends
    ("at 05:15 CEST", ((TIME, "05:15"),)),
    ("2:00 pm EDT", ((TIME, "14:00"),)),
    ("on 18 May.", ((DATE, "--05-18"),)),
    # levels, handles
    ("INC-4410 is a SEV1", ((ID, "INC4410"), (LEVEL, "SEV1"))),
    ("ticket SEC-1142 (P2)", ((ID, "SEC1142"), (LEVEL, "P2"))),
    ("P1-P4", ()),
    ("approval tiers T1-T4", ()),
    ("HTTP/1.1 503", ((LEVEL, "HTTP 503"),)),
    ("exited with code 137", ((LEVEL, "exit 137"),)),
    ("cc @risk-ops", ((HANDLE, "@risk-ops"),)),
    ("the refund is complete", ((STATUS, "succeeded"),)),
    ("a complete list", ()),
    ("get it delivered", ()),
    ("the 10:30 slot was fully booked", ((TIME, "10:30"),)),
)
