"""Every built-in detector of secrets and personal data, with the examples the tests run.

A detector is a name (its *kind*, which the placeholder carries) and a pure
function from a string to the code-point spans ``(start, end)`` of the values
it found there.  Precision comes first: each kind matches a documented shape
and, where one exists, a checksum (Luhn for payment cards, mod-97 for IBANs)
or a context word (``aws_secret_access_key``, ``Authorization``).  Evidence
that merely looks like data (ticket ids, uuids, commit hashes, timestamps,
amounts, version strings, fingerprints, digests) is never a match; the
``EXAMPLES`` table at the end holds positive and negative cases of every kind
and is run by ``tests/unit/test_redact_detectors.py``.

Speed comes from the shape of the patterns.  Each starts with a literal or a
character class, so ``re`` skips ahead in C to the few places a match can
begin; word-boundary checks that would defeat that skip are done afterwards,
on the match, in Python.  Detectors whose values always contain a rare
literal (``'@'``, ``'://'``, ``'-----BEGIN'``) test for it with ``in`` first.

No built-in pattern can match the character U+0000, and every one treats it
like the edge of the string.  The redactor relies on that to scan all the
strings of a message in one pass, joined by U+0000 (``redactor.py``).
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable, Collection, Iterator
from functools import lru_cache
from typing import Final

import msgspec

from foldctl.lazyre import lazy
from foldctl.redact.context import TEMPLATE, is_authorization, secret_name, secret_value_span

__all__ = [
    "DETECTORS",
    "EXAMPLES",
    "Detector",
    "DetectorFailed",
    "Example",
    "gate",
    "iban_ok",
    "kinds",
    "luhn_ok",
    "may_find",
    "scan",
]

Span = tuple[int, int]
Finder = Callable[[str], Iterator[Span]]
#: Given the text and a match, the span to redact, or None to drop the match.
Check = Callable[[str, "re.Match[str]"], "Span | None"]

# Characters that glue a token to what stands before or after it.  A value
# with one of these next to it is part of a larger token (an id, an amount, a
# path, a version) and is left alone.
_WORDISH: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def _is_word(ch: str) -> bool:
    return ch in _WORDISH or (ch > "\x7f" and ch.isalnum())


def _before(text: str, start: int) -> str:
    return text[start - 1] if start > 0 else ""


def _after(text: str, end: int, width: int = 1) -> str:
    return text[end : end + width]


class Detector(msgspec.Struct, frozen=True):
    """One kind of secret or personal datum.

    ``find(text)`` yields the spans of the values found in ``text``;
    ``canonical(value)`` is the form whose keyed hash names the value in its
    placeholder, so that ``(415) 555-0132`` and ``+1 415 555 0132`` are one
    phone number and ``Bob@Example.com`` and ``bob@example.com`` one address;
    ``specificity`` breaks ties between overlapping matches of equal length
    (higher wins).
    """

    kind: str
    summary: str
    find: Finder
    canonical: Callable[[str], str]
    specificity: int


def _same(value: str) -> str:
    return value


class _Regex:
    """A finder over one pattern: the span of ``group`` of every match ``check`` keeps.

    With ``needles``, a text that contains none of them is not scanned at all.
    Called with ``pos`` and ``endpos`` it scans that window only.  A match the
    check drops does not use up its text: the search goes on one character
    after its start, so "2024 4111 1111 1111 1111" still finds the card that
    a rejected "2024 4111 1111 1111" overlaps.  After a kept match it goes on
    from the end of the kept span.
    """

    __slots__ = ("check", "compiled", "group", "needles")

    def __init__(
        self,
        pattern: str,
        *,
        flags: int = 0,
        group: int = 0,
        check: Check | None = None,
        needles: tuple[str, ...] = (),
    ) -> None:
        self.compiled = lazy(pattern, flags)
        self.group = group
        self.check = check
        self.needles = needles

    def __call__(self, text: str, pos: int = 0, endpos: int | None = None) -> Iterator[Span]:
        if self.needles:
            for needle in self.needles:
                if needle in text:
                    break
            else:
                return
        check, group, search = self.check, self.group, self.compiled.search
        end = len(text) if endpos is None else endpos
        while pos <= end:
            match = search(text, pos, end)
            if match is None:
                return
            if check is None:
                span = match.span(group)
            else:
                checked = check(text, match)
                if checked is None:
                    pos = match.start() + 1
                    continue
                span = checked
            if span[0] < span[1]:
                yield span
            pos = max(span[1], match.end() if check is None else 0, match.start() + 1)

    def at(self, text: str, pos: int) -> Span | None:
        """The span a match starting exactly at ``pos`` gives, if the check keeps it."""
        match = self.compiled.match(text, pos)
        if match is None:
            return None
        span = match.span(self.group) if self.check is None else self.check(text, match)
        return span if span is not None and span[0] < span[1] else None


_regex = _Regex


def _chain(*finders: Finder) -> Finder:
    def find(text: str) -> Iterator[Span]:
        seen: set[Span] = set()
        for finder in finders:
            for span in finder(text):
                if span not in seen:
                    seen.add(span)
                    yield span

    return find


def _bounded(group: int = 0, *, before: str = "", after: str = "") -> Check:
    """Keep a match whose neighbours are not word characters (nor any of ``before`` / ``after``)."""

    def check(text: str, match: re.Match[str]) -> Span | None:
        start, end = match.span(group)
        prev = _before(text, start)
        if prev and (_is_word(prev) or prev in before):
            return None
        nxt = _after(text, end)
        if nxt and (_is_word(nxt) or nxt in after):
            return None
        return start, end

    return check


# --- cloud and service credentials, by their documented shapes ---------------

_AWS_ACCESS_KEY = _regex(
    r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}",
    check=_bounded(),
)

# A 40-character secret access key is indistinguishable from other base64 on
# its own; it counts only right after a name that says what it is.
_AWS_SECRET_KEY = _regex(
    r"(?:(?i:aws[_-]secret[_-](?:access[_-])?key|secret[_-]access[_-]key)"
    r"|(?:aws|Aws)?(?:Secret|secret)AccessKey)"
    r"[\"']?\s{0,4}(?::|=>?)\s{0,4}[\"']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])",
    flags=re.ASCII,  # ASCII case rules, as the byte gates have: "ſecret" is not "secret"
    group=1,
)

_GITHUB = _regex(
    r"gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{60,251}",
    check=_bounded(),
    needles=("_",),
)

_GITLAB = _regex(r"glpat-[A-Za-z0-9_-]{20,64}", check=_bounded(after="-"))

_SLACK_TOKEN = _regex(r"xox[baprs]-[A-Za-z0-9-]{10,250}", check=_bounded())

_SLACK_WEBHOOK = _regex(
    r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/+-]{10,300}",
    needles=("hooks.slack.com",),
)

_STRIPE = _regex(r"[rs]k_(?:live|test)_[A-Za-z0-9]{10,247}", check=_bounded(), needles=("k_",))

# Anthropic keys also start with "sk-", so the OpenAI shapes exclude "sk-ant-".
_ANTHROPIC = _regex(r"sk-ant-[A-Za-z0-9_-]{20,250}", check=_bounded(after="-"))
_OPENAI = _regex(
    r"sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,250}|[A-Za-z0-9]{20,250})",
    check=_bounded(after="-"),
)

_GOOGLE = _regex(r"AIza[0-9A-Za-z_-]{35}", check=_bounded(after="-"))

# --- tokens and key material -------------------------------------------------

# Header and payload of a JWS are base64url JSON objects, so both start "eyJ".
# The signature may be empty (alg "none"); the claims are still personal data.
_JWT = _regex(
    r"eyJ[A-Za-z0-9_-]{2,}\.eyJ[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*",
    check=_bounded(),
)

# A whole PEM block, from BEGIN to the matching END; a block cut off before
# its END (a truncated tool output) is redacted up to the end of its base64.
# "[^\x00]" rather than "." keeps the match inside one string (see module doc).
_PRIVATE_KEY = _regex(
    r"-----BEGIN (?P<label>[A-Z0-9 ]{0,40}?)PRIVATE KEY(?: BLOCK)?-----"
    r"(?:[^\x00]*?-----END (?P=label)PRIVATE KEY(?: BLOCK)?-----"
    r"|[A-Za-z0-9+/=]*(?:(?:\r?\n|\\r?\\n)[A-Za-z0-9+/=]+)*)",
    needles=("-----BEGIN ",),
)

# The credential of an Authorization header (Bearer, Basic or Token scheme),
# as a header line, a JSON member or a keyword argument.  Template references
# ($TOKEN, {token}, <token>) do not match the value's character class.
_AUTH_HEADER = _regex(
    r"authorization[\"']?\s{0,4}[:=]\s{0,4}[\"']?(?:bearer|basic|token)[ \t]+"
    r"([A-Za-z0-9_.~+/-]{8,4096}=*)(?![A-Za-z0-9_.~+/=-])",
    flags=re.IGNORECASE | re.ASCII,
    group=1,
)

# scheme://user:password@host — only the password.  The user may be empty
# (redis://:secret@host); a template ($PASSWORD, ${X}, <pw>, ****) is not a password.
# A bracketed template holds no opening bracket, so a run of them is not rescanned.
_URL_PASSWORD_TEMPLATE: Final = lazy(r"\*+|x+|X+|\$\{?\w+\}?|<[^<>]*>|\{\{[^{}]*\}\}|%s|\.\.\.")


_USERINFO: Final = lazy(
    r"(?<![^\s\x00/?#@\"'<>\[\]])[^\s\x00:/?#@\"'<>\[\]]{0,256}+"
    r":([^\s\x00/?#@\"'<>\[\]]{1,256}+)@(?=[A-Za-z0-9\[])"
)


def _find_url_password(text: str) -> Iterator[Span]:
    """Anchored on each '://' that follows a scheme letter: the userinfo's password."""
    sep = text.find("://")
    while sep >= 0:
        nxt = sep + 3
        if sep > 0 and text[sep - 1].isalnum():
            match = _USERINFO.match(text, sep + 3)
            if match is not None and not _URL_PASSWORD_TEMPLATE.fullmatch(match.group(1)):
                yield match.span(1)
                nxt = match.end()
        sep = text.find("://", nxt)


# --- secrets by their context: the name they sit under, a scheme word ---------------

# Where a name that says "secret" is found: the word, in any case.  Linear: a fixed
# alternation of literals; the name around the word is walked in Python, bounded.
_NAME_WORD: Final = lazy(
    r"(?i:token|secret|passw|pwd|api[^A-Za-z0-9\x00]?key|cookie|credential"
    r"|private[^A-Za-z0-9\x00]?key)",
    re.ASCII,
)
_NAME_CHARS: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
# After a name: its closing quote (plain or JSON-escaped), blanks, the separator.
_ASSIGN: Final = lazy(r"(?:\\?[\"'])?[ \t]{0,4}(?::=|=>|:|=)[ \t]{0,4}")
_UNQUOTED: Final = lazy(r"[^\s\"'`,;&<>()\[\]{}\x00\\]{1,4096}")
_TO_LINE_END: Final = lazy(r"[^\r\n\x00\"'\\]{1,4096}")
_CREDENTIAL_MARK: Final = frozenset("0123456789!@#%^*+/=~?")


def _name_around(text: str, start: int, end: int) -> tuple[int, int]:
    """The name (letters, digits, ``_ . -``) around ``text[start:end]``, at most 64 each way."""
    floor = max(0, start - 64)
    while start > floor and text[start - 1] in _NAME_CHARS:
        start -= 1
    ceil = min(len(text), end + 64)
    while end < ceil and text[end] in _NAME_CHARS:
        end += 1
    return start, end


def _quoted_value(text: str, pos: int) -> tuple[int, int] | None:
    """The inside of the quoted string at ``pos`` (``"…"``, ``'…'`` or ``\\"…\\"``); a
    string cut off before its closing quote runs to the end of its line."""
    escaped = text.startswith('\\"', pos)
    quote = '\\"' if escaped else text[pos]
    begin = pos + len(quote)
    stop = begin
    limit = min(len(text), begin + 4096)
    while stop < limit:
        ch = text[stop]
        if ch in "\r\n\x00":
            break
        if text.startswith(quote, stop) and not (not escaped and text[stop - 1] == "\\"):
            break
        stop += 1
    return (begin, stop) if stop > begin else None


def _quoted_items(text: str, pos: int) -> Iterator[Span]:
    """The secrets among the quoted strings of a list that starts at ``pos`` (at most 64)."""
    for _ in range(64):
        while pos < len(text) and text[pos] in " \t\r\n":
            pos += 1
        if pos >= len(text) or not (text[pos] in "\"'" or text.startswith('\\"', pos)):
            return
        span = _quoted_value(text, pos)
        if span is None:
            return
        inner = secret_value_span(text[span[0] : span[1]])
        if inner is not None:
            yield span[0] + inner[0], span[0] + inner[1]
        pos = span[1] + (2 if text.startswith('\\"', span[1]) else 1)
        while pos < len(text) and text[pos] in " \t\r\n":
            pos += 1
        if not text.startswith(",", pos):
            return
        pos += 1


#: Unquoted values under a secret's name that are code, not a credential: type names,
#: nulls and booleans (``password: str``, ``secret=None``).
_CODE_WORDS: Final = frozenset(
    [
        "str",
        "string",
        "bytes",
        "int",
        "integer",
        "bool",
        "boolean",
        "float",
        "number",
        "none",
        "null",
        "nil",
        "undefined",
        "true",
        "false",
        "any",
        "object",
        "dict",
        "list",
        "optional",
        "required",
    ]
)


def _looks_like_credential(value: str) -> bool:
    """An unquoted value under a secret's name, unless it reads as code: a type name, a
    null or a boolean, an ``ALL_CAPS`` name (an environment variable) or a dotted path,
    without a digit or a symbol; so ``password: str``, ``token = get_token()``,
    ``api_key=API_KEY`` stay, and ``password=correcthorse`` is hidden (fail closed)."""
    if any(ch in _CREDENTIAL_MARK for ch in value):
        return True
    return value.lower() not in _CODE_WORDS and "." not in value and not value.isupper()


def _find_secret_value(text: str) -> Iterator[Span]:
    """The value after a name that names a secret: ``password=…``, ``"secret": "…"``,
    ``api_key: …``, ``Cookie: …`` (see :mod:`foldctl.redact.context`)."""
    pos = 0
    while True:
        word = _NAME_WORD.search(text, pos)
        if word is None:
            return
        name_start, name_end = _name_around(text, *word.span())
        pos = max(name_end, word.end())
        name = text[name_start:name_end].strip(".-")
        if is_authorization(name) or not secret_name(name):
            continue
        assign = _ASSIGN.match(text, name_end)
        if assign is None:
            continue
        at = assign.end()
        if at >= len(text):
            continue
        if text[at] == "[":  # a JSON list of values: each quoted string in it
            for item in _quoted_items(text, at + 1):
                yield item
                pos = item[1]
            continue
        if text[at] in "\"'" or text.startswith('\\"', at):
            span = _quoted_value(text, at)
            if span is None:
                continue
            inner = secret_value_span(text[span[0] : span[1]])
            if inner is None:
                continue
            yield span[0] + inner[0], span[0] + inner[1]
            pos = span[1]
            continue
        low = name.lower()
        if "cookie" in low:
            value = _TO_LINE_END.match(text, at)
        else:
            value = _UNQUOTED.match(text, at)
            if value is not None and not _looks_like_credential(value.group()):
                continue
        if value is None or TEMPLATE.fullmatch(value.group()):
            continue
        if _after(text, value.end()) == "(":
            continue  # a call, not a value
        yield value.span()
        pos = value.end()


# key=value connection strings (libpq, ADO.NET, ODBC, JDBC properties): the value of
# password= / pwd=, whatever it looks like, when another connection key is near.
_CONN_PASSWORD = lazy(
    r"(?i:passw(?:or)?d|pwd)[ \t]?=[ \t]?('(?:[^'\\\x00\r\n]|\\[^\x00]){0,512}'"
    r"|\{[^}\x00\r\n]{0,512}\}|[^\s;'\"\x00]{1,512})",
    re.ASCII,
)
_CONN_KEY: Final = lazy(
    r"(?i:host|hostaddr|port|dbname|user|username|server|database|uid|user id|data source"
    r"|initial catalog|sslmode|driver|dsn)[ \t]?=",
    re.ASCII,
)


def _find_conn_password(text: str) -> Iterator[Span]:
    for match in _CONN_PASSWORD.finditer(text):
        start = match.start()
        prev = _before(text, start)
        if prev and (_is_word(prev) or prev in ".-"):
            continue
        if _CONN_KEY.search(text, max(0, start - 256), min(len(text), match.end() + 256)) is None:
            continue
        begin, end = match.span(1)
        if text[begin] in "'{":
            begin, end = begin + 1, end - 1
        elif ";" in text[max(0, start - 256) : start]:
            # ADO.NET / ODBC: a value runs to the next ';' (it may hold spaces)
            stop = begin
            limit = min(len(text), begin + 512)
            while stop < limit and text[stop] not in ";\r\n\x00":
                stop += 1
            end = max(end, len(text[begin:stop].rstrip()) + begin)
        if begin >= end or TEMPLATE.fullmatch(text, begin, end):
            continue
        yield begin, end


# A Bearer or Basic credential without its header name (the scheme word capitalised, as
# HTTP writes it, or in capitals): a Bearer token of 16 or more
# with a digit (prose like "Bearer authentication" has none), a Basic credential that
# decodes to user:password.
_BEARER = _regex(
    r"B(?:earer|EARER)[ \t]{1,16}([A-Za-z0-9_.~+/-]{16,4096}={0,8})(?![A-Za-z0-9_.~+/=-])",
    group=1,
    check=lambda text, m: _scheme_check(text, m, bearer=True),
)
_BASIC = _regex(
    r"B(?:asic|ASIC)[ \t]{1,16}([A-Za-z0-9+/]{8,4096}={0,2})(?![A-Za-z0-9+/=])",
    group=1,
    check=lambda text, m: _scheme_check(text, m, bearer=False),
)


def _scheme_check(text: str, match: re.Match[str], *, bearer: bool) -> Span | None:
    if _is_word(_before(text, match.start()) or " "):
        return None
    value = match.group(1)
    if bearer:
        return match.span(1) if any("0" <= ch <= "9" for ch in value) else None
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except ValueError:
        return None
    if b":" not in decoded or not decoded.isascii() or not decoded.decode().isprintable():
        return None
    return match.span(1)


# An AWS secret access key under any name: 40 base64 characters (mixed case, a digit
# or / or +, so never a hex hash) within 256 characters of an access key id.
_BASE64_CHARS: Final = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/+="
)
_BASE64_40: Final = lazy(r"(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")


def _find_aws_secret_near_id(text: str) -> Iterator[Span]:
    last = 0  # where the previous window's search stopped
    for key_start, key_end in _AWS_ACCESS_KEY(text):
        pos = max(last, key_start - 256)
        stop = key_end + 256
        # a token that starts in the window ends at most 41 characters after it; the
        # search stops there, and a match cut short by that bound is checked by hand
        for match in _BASE64_40.finditer(text, pos, stop + 41):
            if match.start() > stop or _after(text, match.end()) in _BASE64_CHARS:
                continue
            last = match.end()
            value = match.group()
            if (
                any(c.isupper() for c in value)
                and any(c.islower() for c in value)
                and any(c.isdigit() or c in "/+" for c in value)
            ):
                yield match.span()
        last = max(last, stop)


# --- personal data -----------------------------------------------------------

_EMAIL_LOCAL: Final = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._%+-'"
)
_EMAIL_DOMAIN: Final = lazy(r"(?:[^\W_](?:[\w-]{0,61}[^\W_])?\.)+[^\W\d_]{2,24}(?![\w-])")
# icon@2x.png is a file, not an address (a digit run is tried from its first digit only)
_RETINA_SUFFIX: Final = lazy(r"(?<!\d)\d++(?:\.\d++)?x\.")


def _email_local_ok(ch: str) -> bool:
    return ch in _EMAIL_LOCAL or (ch > "\x7f" and ch.isalnum())


def _find_email(text: str) -> Iterator[Span]:
    """Anchored on each '@': walk back over the local part, match the domain forward."""
    at = text.find("@")
    while at >= 0:
        start = at
        floor = max(0, at - 64)
        while start > floor and _email_local_ok(text[start - 1]):
            start -= 1
        while start < at and text[start] in ".'":
            start += 1  # a local part does not start with a dot or a quote
        nxt = at + 1
        if start < at and not (start == floor and floor > 0 and _email_local_ok(text[floor - 1])):
            domain = _EMAIL_DOMAIN.match(text, at + 1)
            if (
                domain is not None
                and not _RETINA_SUFFIX.match(domain.group())
                and not _in_url_userinfo(text, start)
            ):
                yield start, domain.end()
                nxt = domain.end()
        at = text.find("@", nxt)


def _in_url_userinfo(text: str, start: int) -> bool:
    """True when ``text[start:]`` is the password of ``scheme://user:password@host``."""
    if start == 0 or text[start - 1] != ":":
        return False
    i = start - 1
    floor = max(0, start - 300)
    while i > floor and text[i - 1] not in " \t\r\n\x00\"'<>":
        i -= 1
    return "://" in text[i:start]


def _canonical_email(value: str) -> str:
    return value.lower()


# Phone numbers: only shapes that are phone numbers and nothing else.
# International: "+" and a country code, 8-15 digits in all (E.164), +1 held to
# the North American plan.  National: North American with a parenthesised area
# code or two matching separators, UK groupings with spaces.  Never
# a bare digit run, never glued to a word, an id, an amount or a version.
_PHONE_GLUE_BEFORE: Final = "+-.,/$€£#"


def _phone_tail_ok(text: str, end: int, *, national: bool) -> bool:
    tail = _after(text, end, 2)
    if not tail:
        return True
    if _is_word(tail[0]) or tail[0] in "-/+":
        return False
    if len(tail) == 2 and tail[1].isdigit():
        # "…0132.5" or "…0132,5" continue a number; so does "… 12" after a national form
        return not (tail[0] in ".," or (national and tail[0] == " "))
    return True


def _nanp_ok(ten: str) -> bool:
    return len(ten) == 10 and ten[0] in "23456789" and ten[3] in "23456789"


def _digits(value: str) -> str:
    return "".join(ch for ch in value if "0" <= ch <= "9")


def _phone_intl_check(text: str, match: re.Match[str]) -> Span | None:
    start, end = match.span()
    prev = _before(text, start)
    if prev and (_is_word(prev) or prev in _PHONE_GLUE_BEFORE):
        return None
    if not _phone_tail_ok(text, end, national=False):
        return None
    digits = _digits(match.group().replace("(0)", ""))
    if not 8 <= len(digits) <= 15:
        return None
    if digits[0] == "1" and not (len(digits) == 11 and _nanp_ok(digits[1:])):
        return None
    return start, end


def _phone_national_check(text: str, match: re.Match[str]) -> Span | None:
    start, end = match.span()
    # A North American trunk prefix ("1-800-…", "1 (415) …") belongs to the number.
    if start >= 2 and text[start - 2 : start] in ("1-", "1.", "1 "):
        before_trunk = _before(text, start - 2)
        if not (before_trunk and (_is_word(before_trunk) or before_trunk in _PHONE_GLUE_BEFORE)):
            start -= 2
    prev = _before(text, start)
    if prev and (_is_word(prev) or prev in _PHONE_GLUE_BEFORE):
        return None
    if prev == " " and start >= 2 and text[start - 2].isdigit():
        return None  # one group of a longer run of numbers
    if not _phone_tail_ok(text, end, national=True):
        return None
    return start, end


_PHONE_INTL = _regex(
    r"\+[1-9][0-9]{0,3}(?:[ .-]?(?:\(0\)[ .-]?)?(?:\([0-9]{1,4}\)|[0-9]{1,6})){1,6}",
    check=_phone_intl_check,
)
_PHONE_PAREN = _regex(
    r"\([2-9][0-9]{2}\)[ ]?[2-9][0-9]{2}[-. ][0-9]{4}", check=_phone_national_check
)
_PHONE_NANP = _regex(
    r"[2-9][0-9]{2}(?P<s>[-.])[2-9][0-9]{2}(?P=s)[0-9]{4}", check=_phone_national_check
)
_PHONE_UK = _regex(
    r"0[1-9](?:[0-9] [0-9]{4} [0-9]{4}|[0-9]{2} [0-9]{3} [0-9]{4}|[0-9]{3} [0-9]{6})",
    check=_phone_national_check,
)
_PHONE = _chain(_PHONE_INTL, _PHONE_PAREN, _PHONE_NANP, _PHONE_UK)


def _canonical_phone(value: str) -> str:
    """E.164 where the shape names the country: ``+14155550132``, ``+442079460958``."""
    if value.startswith("+"):
        return "+" + _digits(value.replace("(0)", ""))
    digits = _digits(value)
    if digits.startswith("0"):  # a UK grouping
        return "+44" + digits[1:]
    if len(digits) == 11:  # with the North American trunk prefix 1
        return "+" + digits
    return "+1" + digits


# Payment cards: 13-19 digits, grouped by single spaces or dashes (the same
# separator throughout) or not at all, the issuer prefix of a card network
# with its lengths, and the Luhn check.  Epoch times (they start with 1) and
# digit runs inside ids or hex never qualify.
def luhn_ok(digits: str) -> bool:
    """The Luhn (mod 10) check over a string of ASCII digits."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i & 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def _card_network_ok(d: str) -> bool:
    n = len(d)
    p2, p3, p4 = int(d[:2]), int(d[:3]), int(d[:4])
    if d[0] == "4":  # Visa
        return n in (13, 16, 19)
    if 51 <= p2 <= 55 or 2221 <= p4 <= 2720:  # Mastercard
        return n == 16
    if p2 in (34, 37):  # American Express
        return n == 15
    if p4 == 6011 or 644 <= p3 <= 649 or p2 == 65 or 3528 <= p4 <= 3589 or p2 == 62:
        return 16 <= n <= 19  # Discover, JCB, UnionPay
    if 300 <= p3 <= 305 or p2 in (36, 38, 39):  # Diners Club
        return 14 <= n <= 19
    if p2 == 50 or 56 <= p2 <= 69:  # Maestro
        return 13 <= n <= 19
    return False


def _card_check(text: str, match: re.Match[str]) -> Span | None:
    start, end = match.span()
    prev = _before(text, start)
    if prev and (_is_word(prev) or prev in "+-.,$€£"):
        return None
    tail = _after(text, end, 2)
    if tail[:1] and (_is_word(tail[0]) or (tail[0] in ".,-" and tail[1:].isdigit())):
        return None
    digits = _digits(match.group())
    if not 13 <= len(digits) <= 19 or not _card_network_ok(digits) or not luhn_ok(digits):
        return None
    return start, end


_CARD = _regex(
    r"[2-6][0-9]{3}(?:(?P<a>[ -]?)[0-9]{4}(?P=a)[0-9]{4}(?P=a)[0-9]{1,4}(?:(?P=a)[0-9]{1,3})?"
    r"|(?P<b>[ -]?)[0-9]{6}(?P=b)[0-9]{4,5})(?![0-9])",
    check=_card_check,
)


def _canonical_digits(value: str) -> str:
    return _digits(value)


# IBAN: country code, two check digits, the country's length (ISO 13616
# registry), and the mod-97 check; printed in groups of four or unbroken.
_IBAN_LENGTH: Final[dict[str, int]] = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22,
    "BH": 22, "BI": 27, "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24,
    "DE": 22, "DJ": 27, "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18,
    "FK": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27,
    "GT": 28, "HN": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26,
    "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20,
    "LU": 20, "LV": 21, "LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MN": 20,
    "MR": 27, "MT": 31, "MU": 30, "NI": 28, "NL": 18, "NO": 15, "OM": 23, "PK": 24,
    "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "RU": 33, "SA": 24,
    "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25,
    "SV": 28, "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
    "YE": 30,
}  # fmt: skip


def iban_ok(iban: str) -> bool:
    """True for an IBAN (no spaces, upper case) of its country's length whose mod-97 is 1."""
    if _IBAN_LENGTH.get(iban[:2]) != len(iban) or not iban[2:4].isdigit():
        return False
    if not iban.isascii() or not iban.isalnum():
        return False
    rearranged = iban[4:] + iban[:4]
    number = "".join(str(int(ch, 36)) for ch in rearranged)
    return int(number) % 97 == 1


def _iban_check(text: str, match: re.Match[str]) -> Span | None:
    start = match.start()
    prev = _before(text, start)
    if prev and (_is_word(prev) or prev in "-./"):
        return None
    value = match.group()
    length = _IBAN_LENGTH.get(value[:2])
    if length is None:
        return None
    # Walk to the country's length; a spaced match may have run into the next word.
    count = 0
    stop = start
    for i, ch in enumerate(value):
        if ch != " ":
            count += 1
            if count == length:
                stop = start + i + 1
                break
    else:
        return None
    nxt = _after(text, stop)
    if nxt and (_is_word(nxt) or nxt in "-/"):
        return None
    if not iban_ok(text[start:stop].replace(" ", "")):
        return None
    return start, stop


_IBAN = _regex(
    r"[A-Z][A-Z][0-9]{2}(?:(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,3})?|[A-Z0-9]{11,30})",
    check=_iban_check,
)


def _canonical_iban(value: str) -> str:
    return value.replace(" ", "")


# --- national identity numbers: US, UK, India, China, Brazil --------------------
#
# The largest locales with a printed shape that nothing else has: the US social
# security number (ddd-dd-dddd, with the SSA's rules for the area, group and serial),
# the UK National Insurance number (HMRC's prefix letters, six digits, A-D), India's
# Aadhaar (12 digits in groups of four, Verhoeff check), China's resident identity
# number (18 characters, region, birth date, ISO 7064 MOD 11-2 check) and Brazil's CPF
# (ddd.ddd.ddd-dd, two mod-11 check digits).  Shapes without a separator, a checksum or
# a date are too often some other number and are left (docs/redaction.md, Limits).


def _ids_bounded(
    text: str, start: int, end: int, glue: str = "-./", *, grouped: bool = False
) -> bool:
    """Not glued to a word, an id or a number; a ``grouped`` shape (groups of digits and
    blanks) also not one group of a longer run of numbers."""
    prev = _before(text, start)
    if prev and (_is_word(prev) or prev in glue):
        return False
    tail = _after(text, end, 2)
    if tail[:1] and (_is_word(tail[0]) or (tail[0] in glue and tail[1:2].isdigit())):
        return False
    if not grouped:
        return True
    if prev == " " and text[start - 2 : start - 1].isdigit():
        return False
    return not (tail[:1] == " " and tail[1:2].isdigit())


def _ssn_check(text: str, match: re.Match[str]) -> Span | None:
    start, end = match.start() - 3, match.end()
    if start < 0:
        return None
    value = text[start:end]
    area, group, serial = value[:3], value[4:6], value[7:]
    if not area.isdigit() or area in ("000", "666") or area[0] == "9":
        return None
    if group == "00" or serial == "0000":
        return None
    if not _ids_bounded(text, start, end, grouped=True):
        return None
    return start, end


# Starts at the first '-', so ``re`` skips to the dashes; the area is checked behind it.
_SSN = _regex(r"-(?<=[0-9]{3}-)[0-9]{2}-[0-9]{4}", check=_ssn_check, needles=("-",))

_NINO_PREFIX_BAD: Final = frozenset(("BG", "GB", "NK", "KN", "TN", "NT", "ZZ"))


def _nino_check(text: str, match: re.Match[str]) -> Span | None:
    start, end = match.span()
    if match.group()[:2] in _NINO_PREFIX_BAD or not _ids_bounded(text, start, end, "-./"):
        return None
    return start, end


_NINO = _regex(
    r"[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z](?:[0-9]{6}|(?: [0-9]{2}){3} ?)[A-D]",
    check=_nino_check,
)

_VERHOEFF_D: Final = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9), (1, 2, 3, 4, 0, 6, 7, 8, 9, 5),
    (2, 3, 4, 0, 1, 7, 8, 9, 5, 6), (3, 4, 0, 1, 2, 8, 9, 5, 6, 7),
    (4, 0, 1, 2, 3, 9, 5, 6, 7, 8), (5, 9, 8, 7, 6, 0, 4, 3, 2, 1),
    (6, 5, 9, 8, 7, 1, 0, 4, 3, 2), (7, 6, 5, 9, 8, 2, 1, 0, 4, 3),
    (8, 7, 6, 5, 9, 3, 2, 1, 0, 4), (9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
)  # fmt: skip
_VERHOEFF_P: Final = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9), (1, 5, 7, 6, 2, 8, 3, 0, 9, 4),
    (5, 8, 0, 3, 7, 9, 6, 1, 4, 2), (8, 9, 1, 6, 0, 4, 3, 5, 2, 7),
    (9, 4, 5, 3, 1, 2, 6, 8, 7, 0), (4, 2, 8, 6, 5, 7, 3, 9, 0, 1),
    (2, 7, 9, 3, 8, 0, 6, 4, 1, 5), (7, 0, 4, 6, 9, 1, 3, 2, 5, 8),
)  # fmt: skip


def verhoeff_ok(digits: str) -> bool:
    """The Verhoeff check over a string of ASCII digits (Aadhaar's check digit)."""
    c = 0
    for i, ch in enumerate(reversed(digits)):
        c = _VERHOEFF_D[c][_VERHOEFF_P[i % 8][ord(ch) - 48]]
    return c == 0


def _aadhaar_check(text: str, match: re.Match[str]) -> Span | None:
    start, end = match.span()
    if not _ids_bounded(text, start, end, "-./+$€£,", grouped=True):
        return None
    return (start, end) if verhoeff_ok(_digits(match.group())) else None


_AADHAAR = _regex(r"[2-9][0-9]{3}(?P<g>[ -])[0-9]{4}(?P=g)[0-9]{4}", check=_aadhaar_check)


def cn_resident_id_ok(value: str) -> bool:
    """China's resident identity number: 17 digits and a check digit (or X) by ISO 7064
    MOD 11-2, a region starting 1-8 and a plausible birth date (1900-2099)."""
    if len(value) != 18 or not value[:17].isdigit() or value[0] not in "12345678":
        return False
    year, month, day = int(value[6:10]), int(value[10:12]), int(value[12:14])
    if not (1900 <= year <= 2099 and 1 <= month <= 12 and 1 <= day <= 31):
        return False
    total = sum(int(ch) * (2 ** (17 - i) % 11) for i, ch in enumerate(value[:17]))
    check = (12 - total % 11) % 11
    return value[17] == ("X" if check == 10 else str(check))


def _cn_check(text: str, match: re.Match[str]) -> Span | None:
    start, end = match.span()
    if not _ids_bounded(text, start, end, "-./+$€£,") or not cn_resident_id_ok(match.group()):
        return None
    return start, end


_CN_RESIDENT_ID = _regex(r"[1-8][0-9]{16}[0-9X](?![0-9])", check=_cn_check)


def cpf_ok(digits: str) -> bool:
    """Brazil's CPF: 11 digits, not all one digit, two mod-11 check digits."""
    if len(digits) != 11 or len(set(digits)) == 1:
        return False
    for n in (9, 10):
        total = sum(int(digits[i]) * (n + 1 - i) for i in range(n))
        if (total * 10 % 11) % 10 != int(digits[n]):
            return False
    return True


def _cpf_check(text: str, match: re.Match[str]) -> Span | None:
    start, end = match.span()
    if not _ids_bounded(text, start, end, "-./+$€£,"):
        return None
    return (start, end) if cpf_ok(_digits(match.group())) else None


_CPF = _regex(r"[0-9]{3}\.[0-9]{3}\.[0-9]{3}-[0-9]{2}", check=_cpf_check)


# --- the table ---------------------------------------------------------------

DETECTORS: Final[dict[str, Detector]] = {
    d.kind: d
    for d in (
        Detector(
            "aws_access_key",
            "AWS access key id: AKIA/ASIA/ABIA/ACCA/A3T? + 16 upper-case letters or digits",
            _AWS_ACCESS_KEY,
            _same,
            90,
        ),
        Detector(
            "aws_secret_key",
            "AWS secret access key: 40 base64 characters right after a name that says so "
            "(aws_secret_access_key, aws-secret-key, SECRET_ACCESS_KEY, SecretAccessKey, ...) "
            "and ':', '=' or '=>'",
            _chain(_AWS_SECRET_KEY, _find_aws_secret_near_id),
            _same,
            80,
        ),
        Detector(
            "github_token",
            "GitHub token: ghp_/gho_/ghu_/ghs_/ghr_ + 36 or more, or github_pat_ + 60 or more",
            _GITHUB,
            _same,
            90,
        ),
        Detector("gitlab_token", "GitLab personal access token: glpat-", _GITLAB, _same, 90),
        Detector(
            "slack_token", "Slack token: xoxb-/xoxa-/xoxp-/xoxr-/xoxs-", _SLACK_TOKEN, _same, 90
        ),
        Detector(
            "slack_webhook",
            "Slack webhook URL: https://hooks.slack.com/services/...",
            _SLACK_WEBHOOK,
            _same,
            90,
        ),
        Detector(
            "stripe_key",
            "Stripe secret or restricted key: sk_live_/rk_live_/sk_test_/rk_test_",
            _STRIPE,
            _same,
            90,
        ),
        Detector("anthropic_key", "Anthropic API key: sk-ant- + 20 or more", _ANTHROPIC, _same, 95),
        Detector(
            "openai_key",
            "OpenAI API key: sk-proj-/sk-svcacct-/sk-admin- + 20 or more, or sk- + 20 or more "
            "letters and digits",
            _OPENAI,
            _same,
            85,
        ),
        Detector("google_api_key", "Google API key: AIza + 35", _GOOGLE, _same, 90),
        Detector(
            "jwt",
            "JSON Web Token: eyJ<header>.eyJ<payload>.<signature>",
            _JWT,
            _same,
            70,
        ),
        Detector(
            "private_key",
            "PEM private key block: -----BEGIN ... PRIVATE KEY----- to its END line",
            _PRIVATE_KEY,
            _same,
            100,
        ),
        Detector(
            "auth_header",
            "credential of an Authorization header (Bearer, Basic or Token scheme), or after "
            "a Bearer or Basic scheme word anywhere",
            _chain(_AUTH_HEADER, _BEARER, _BASIC),
            _same,
            60,
        ),
        Detector(
            "conn_password",
            "password of a key=value connection string: password= or pwd= beside host=, "
            "user=, dbname=, server=, database=, ...",
            _find_conn_password,
            _same,
            65,
        ),
        Detector(
            "secret_value",
            "the value under a name that says secret: a JSON key, header or assignment "
            "named *token*, *secret*, *password*, api key, cookie, credential, private key, "
            "authorization",
            _find_secret_value,
            _same,
            20,
        ),
        Detector(
            "url_password",
            "password in a URL: the PASSWORD of scheme://user:PASSWORD@host",
            _find_url_password,
            _same,
            60,
        ),
        Detector(
            "email",
            "email address: local part, '@', a dotted domain with an alphabetic top level",
            _find_email,
            _canonical_email,
            40,
        ),
        Detector(
            "phone",
            "phone number: +CC international (E.164 length), North American or UK national "
            "groupings",
            _PHONE,
            _canonical_phone,
            30,
        ),
        Detector(
            "card",
            "payment card number: 13-19 digits of a card network's prefix and length, "
            "passing the Luhn check",
            _CARD,
            _canonical_digits,
            50,
        ),
        Detector(
            "iban",
            "IBAN: country, check digits, the country's length, passing mod-97",
            _IBAN,
            _canonical_iban,
            50,
        ),
        Detector(
            "us_ssn",
            "US social security number: ddd-dd-dddd with a valid area, group and serial",
            _SSN,
            _same,
            45,
        ),
        Detector(
            "uk_nino",
            "UK National Insurance number: two prefix letters, six digits, A-D",
            _NINO,
            _canonical_iban,
            45,
        ),
        Detector(
            "in_aadhaar",
            "Indian Aadhaar number: 12 digits in groups of four, Verhoeff check",
            _AADHAAR,
            _canonical_digits,
            45,
        ),
        Detector(
            "cn_resident_id",
            "Chinese resident identity number: 18 characters, birth date, MOD 11-2 check",
            _CN_RESIDENT_ID,
            _same,
            45,
        ),
        Detector(
            "br_cpf",
            "Brazilian CPF: ddd.ddd.ddd-dd with its two check digits",
            _CPF,
            _canonical_digits,
            45,
        ),
    )
}


def kinds() -> tuple[str, ...]:
    """The names of the built-in detectors, in table order."""
    return tuple(DETECTORS)


# --- the fast path: gates, then detectors only where they can match -----------
#
# ``scan(text)`` finds exactly what running every detector's ``find`` over
# ``text`` finds (a property test holds it to that), but most text is never
# looked at by a detector, and ``gate(data)`` rules most text out without
# decoding it at all.  Each gate is a *necessary condition* of some
# detectors, cheap to test: a one-character ``in`` (memchr), a regex that
# starts with one literal character (which ``re`` skips to in a tight loop; a
# character class or an alternation at the start would make it try every
# position), or a needle in a one-byte-per-character translation of the text
# ("shapes", ``bytes.translate``) where digits and the separators `` -.()``
# read ``0``, upper-case letters ``A``, ``\\`` and ``u`` themselves and
# everything else ``x``.  Digit shapes (cards, national phone numbers, IBANs)
# are matched only inside the runs of shape characters that hold a needle.
# Every needle is made of characters that JSON never escapes (except by
# \\u), so a gate that fails on a JSON document's text without \\u escapes
# fails on every string inside it.


_GATE_PATTERNS: Final[tuple[tuple[str, str, dict[str, tuple[str, ...]]], ...]] = (
    # (a character the text must hold, the gate's pattern, group -> detectors it wakes)
    (
        "A",
        r"A(?:(?P<a>KIA|SIA|BIA|CCA|3T)|(?P<b>Iza))",
        {"a": ("aws_access_key", "aws_secret_key"), "b": ("google_api_key",)},
    ),
    ("J", r"J(?<=\.eyJ)", {"": ("jwt",)}),
    ("B", r"B(?:earer|EARER|asic|ASIC)[ \t]", {"": ("auth_header",)}),
    (
        "-",
        # the forward branches first; one look behind (the letter before the '-') for the
        # three prefixes, so most dashes (dates, uuids, ids) cost two failed tests
        r"-(?:(?P<d>----BEGIN )|(?P<f>[0-9]{2}-[0-9]{4}(?<=[0-9]{3}-[0-9]{2}-[0-9]{4}))"
        r"|(?<=[abkprst]-)(?:(?P<a>(?<=sk-))|(?P<b>(?<=glpat-))|(?P<c>(?<=xox[baprs]-))))",
        {
            "a": ("openai_key", "anthropic_key"),
            "b": ("gitlab_token",),
            "c": ("slack_token",),
            "d": ("private_key",),
            "f": ("us_ssn",),
        },
    ),
)
_GATES: Final = tuple((lazy(p, re.ASCII), kinds) for _, p, kinds in _GATE_PATTERNS)
_BYTE_GATES: Final = tuple(
    (c.encode(), lazy(p.encode()), frozenset(k for ks in kinds.values() for k in ks))
    for c, p, kinds in _GATE_PATTERNS
)
_AT_KINDS: Final = frozenset(("email", "url_password"))


# Gates on the text with ASCII letters folded to lower case (one ``bytes.translate``),
# for words in any case: the words of a secret's name (context.py), "authorization",
# and the host of a Slack webhook.  Each group of a pattern wakes its kinds (a
# necessary condition for each).  The same translation reads k, w and z (rare in prose)
# as \x01, so one pattern led by that one byte finds every word that has one of them
# (token, cookie, api key, private key, passw, pwd, authoriz, hooks.slack); the words
# without one (secret, credential) are led by "cr".  A hit on a string that only looks
# like a word in this alphabet ("tozen") wakes a detector for nothing, never misses one.
def _folding() -> bytes:
    table = bytearray(range(256))
    for ch in b"ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        table[ch] = ch | 0x20  # lower case
    for ch in b"kwzKWZ_":
        table[ch] = 1
    return bytes(table)


_FOLD: Final = _folding()
_NOT_NAME: Final = b"[^a-z0-9\x00]"
_FOLDED_PATTERNS: Final[tuple[tuple[bytes, bytes, dict[str, tuple[str, ...]]], ...]] = (
    # (the byte the folded text must hold, the pattern, group -> detectors it wakes)
    (
        b"\x01",
        b"\x01(?:(?P<name>e(?:n(?<=to\x01en)|y(?:%s))|ie(?<=coo\x01ie))"
        % b"|".join(
            # api key, private key: nothing or one character between (1 to 4 UTF-8 bytes)
            b"(?<=%s%s\x01ey)" % (word, _NOT_NAME * width)
            for word in (b"api", b"private")
            for width in range(5)
        )
        # the words whose \x01 ends them: one look behind at the letter before it first
        + b"|(?P<pass>d(?<=p\x01d))"
        # sk_live_, rk_test_ (Stripe); github_pat_ (at their first '_')
        b"|(?P<stripe>(?:live|test)\x01(?<=[rs]\x01\x01live\x01|[rs]\x01\x01test\x01))"
        b"|(?P<ghpat>pat\x01(?<=github\x01pat\x01))"
        b"|(?<=[sci]\x01)(?:(?P<passw>(?<=pass\x01))"
        b"|(?P<slack>(?<=hoo\x01s\\.slac\x01))|(?P<auth>(?<=authori\x01)))"
        b"|(?<=[pousr]\x01)(?P<gh>(?<=gh[pousr]\x01)))",  # ghp_, gho_, ghu_, ghs_, ghr_
        {
            "name": ("secret_value",),  # token, api key, private key, cookie
            "pass": ("secret_value", "conn_password"),  # pwd
            "passw": ("secret_value", "conn_password"),  # passw…
            "slack": ("slack_webhook",),  # hooks.slack.com
            "auth": ("secret_value", "auth_header"),  # authoriz…
            "stripe": ("stripe_key",),
            "ghpat": ("github_token",),
            "gh": ("github_token",),
        },
    ),
    # secret, credential; every name of an AWS secret key holds "secret" too
    (b"c", b"cr(?:e(?:t(?<=secret)|dential))", {"": ("secret_value", "aws_secret_key")}),
)
_FOLDED_GATES: Final[
    tuple[tuple[bytes, re.Pattern[bytes], dict[str, frozenset[str]], frozenset[str]], ...]
] = tuple(
    (
        lead,
        lazy(pattern),
        {group: frozenset(kinds) for group, kinds in groups.items()},
        frozenset(k for kinds in groups.values() for k in kinds),
    )
    for lead, pattern, groups in _FOLDED_PATTERNS
)
_FoldedGate = tuple[bytes, re.Pattern[bytes], dict[str, frozenset[str]], frozenset[str]]


def _folded_kinds(data: bytes, gates: tuple[_FoldedGate, ...], wake: set[str]) -> None:
    """Add to ``wake`` the kinds the folded ``gates`` find in ``data``.

    Each gate's leading byte is looked for first (``in``: memchr, which stops at the
    first one), so a text without one is not walked by the pattern.
    """
    folded = data.translate(_FOLD)
    for lead, pattern, groups, wakes in gates:
        if lead in folded and not wakes <= wake:
            match = pattern.search(folded)
            while match is not None:
                wake.update(groups[match.lastgroup or ""])
                match = None if wakes <= wake else pattern.search(folded, match.end())


def _translation() -> bytes:
    table = bytearray(b"x" * 256)
    for ch in b"0123456789 -.()":
        table[ch] = ord("0")
    for ch in b"ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        table[ch] = ord("A")
    table[ord("\\")] = ord("\\")  # so that "\\u" escapes show in the shapes too
    table[ord("u")] = ord("u")
    return bytes(table)


_SHAPES: Final = _translation()
# Every card and every national phone shape is a run of at least 12 digits and
# separators (" -.()"): "415-555-0132", "07700 900123", "4111 1111 1111 1111";
# every IBAN starts "AA00".  A window is the run of shape characters around a
# needle; every match lies inside one.
_DIGIT_NEEDLE: Final = b"0" * 12
_ZEROS: Final = lazy(b"0*")
_IBAN_NEEDLE: Final = b"AA00"  # every IBAN starts where this needle does
_NEEDLES: Final = lazy(_IBAN_NEEDLE)
_NOT_DIGITS: Final = b" -.()"
_DIGIT_FINDERS: Final[tuple[tuple[str, _Regex], ...]] = (
    ("phone", _PHONE_PAREN),
    ("phone", _PHONE_NANP),
    ("phone", _PHONE_UK),
    ("card", _CARD),
    ("in_aadhaar", _AADHAAR),
    ("br_cpf", _CPF),
    ("cn_resident_id", _CN_RESIDENT_ID),
)
# The card check (and the national ids'), as far as it holds in JSON text too: no letter, digit or
# glue before (an escape such as \\n that ends in a letter stands for a
# control character, which is no glue), no letter or digit after.
_BYTE_CARD_BOUNDS: Final = rb"(?:(?<![%s])|(?<=\\[nrtbf]))(?:%s)(?![A-Za-z_]|[.,\-][0-9])"
_GLUE: Final = rb"0-9A-Za-z_+\-.,$"
# In JSON text a comma before a number parts two values (["a",6127101257124]): there the
# number is read whole, so the comma is no glue.  (Inside a string it is, and the detectors
# say so; waking them for it is only a wasted scan.)
_JSON_GLUE: Final = _GLUE.replace(b",", b"")


def _card_bounded(finder: _Regex, glue: bytes = _GLUE) -> bytes:
    return _BYTE_CARD_BOUNDS % (glue, finder.compiled.pattern.encode())


_BYTE_DIGIT_PATTERNS: Final[dict[str, re.Pattern[bytes]]] = {
    "phone": lazy(
        b"|".join(
            b"(?:%s)" % f.compiled.pattern.encode() for k, f in _DIGIT_FINDERS if k == "phone"
        )
    ),
    "card": lazy(_card_bounded(_CARD)),
    "in_aadhaar": lazy(_card_bounded(_AADHAAR)),
    "br_cpf": lazy(_card_bounded(_CPF)),
    "cn_resident_id": lazy(_card_bounded(_CN_RESIDENT_ID)),
}
#: The kinds tried in a run with separators (a digit shape and the blanks around it).
_SEPARATED_KINDS: Final = ("phone", "card", "in_aadhaar", "br_cpf", "cn_resident_id")
# One search per digit window: a separated run may hold a phone, card, Aadhaar or CPF
# shape; an unseparated one a card or a resident id.  A hit wakes every kind of its
# group (a necessary condition for each; the detectors tell them apart).
_BYTE_SEPARATED: Final = lazy(
    b"|".join(b"(?:%s)" % _BYTE_DIGIT_PATTERNS[k].pattern for k in _SEPARATED_KINDS)
)
_BYTE_BARE: Final = lazy(b"(?:%s)|(?:%s)" % (_card_bounded(_CARD), _card_bounded(_CN_RESIDENT_ID)))
_BYTE_BARE_JSON: Final = lazy(
    b"(?:%s)|(?:%s)"
    % (_card_bounded(_CARD, _JSON_GLUE), _card_bounded(_CN_RESIDENT_ID, _JSON_GLUE))
)
_SEPARATED_GROUP: Final = frozenset(_SEPARATED_KINDS)
# Every separated shape has two groups of three digits or more one or two separators
# apart ("415) 555", "4111 1111", "111.444", "07700 900123"), or six digits in a row (a
# compact card or resident id between blanks): one class per position, much cheaper
# than the shapes' alternation, and a timestamp ("2024-06-12 10:20") has neither.
_TWO_GROUPS: Final = lazy(rb"[0-9]{3}[ .()-]{0,2}[0-9]{3}")
_BARE_GROUP: Final = frozenset(("card", "cn_resident_id"))
_BYTE_NINO: Final = lazy(_NINO.compiled.pattern.encode())
# IBANs and NINOs both start at an "AA00" needle of the shapes: one match per needle.
_BYTE_NEEDLE_KINDS: Final = lazy(
    b"(?P<iban>%s)|(?P<uk_nino>%s)"
    % (_IBAN.compiled.pattern.encode(), _NINO.compiled.pattern.encode())
)
_BYTE_PHONE_INTL: Final = lazy(rb"\+[1-9]")


def _digit_windows(shapes: bytes) -> list[Span]:
    """The runs of 12 or more digits and separators (searched left to right, so each starts at
    its needle)."""
    found: list[Span] = []
    pos = shapes.find(_DIGIT_NEEDLE)
    while pos >= 0:
        match = _ZEROS.match(shapes, pos + 12)
        stop = match.end() if match is not None else pos + 12
        found.append((pos, stop))
        pos = shapes.find(_DIGIT_NEEDLE, stop)
    return found


def _at_needles(text: str, shapes: bytes, finder: _Regex) -> Iterator[Span]:
    """IBANs or NINOs of ``text``, tried only where one can start (an "AA00" of the shapes)."""
    last = 0
    for needle in _NEEDLES.finditer(shapes):
        pos = needle.start()
        if pos < last:
            continue
        after = text[pos + 2]  # "AA" then a digit, or " dd " (a NINO in pairs)
        if not ("0" <= after <= "9" or (after == " " and text[pos + 5 : pos + 6] == " ")):
            continue
        span = finder.at(text, pos)
        if span is not None:
            yield span
            last = span[1]


def _gated_kinds(text: str) -> set[str]:
    wake: set[str] = set()
    if "@" in text:
        wake.update(_AT_KINDS)
    for gate, kinds_by_group in _GATES:
        for match in gate.finditer(text):
            wake.update(kinds_by_group[match.lastgroup or ""])
    _folded_kinds(text.encode("utf-8", "surrogatepass"), _FOLDED_GATES, wake)
    return wake


def _bare_run_kinds(run: str, wanted: Collection[str]) -> tuple[str, ...]:
    """The kinds an unseparated digit run can be, as the whole run: a compact card, a
    Chinese resident id (17 digits and an X, or 18 digits)."""
    n = len(run)
    card = "card" in wanted and 13 <= n <= 19 and "2" <= run[0] <= "6"
    cn = "cn_resident_id" in wanted and (n == 17 or n == 18) and "1" <= run[0] <= "8"
    if card:
        return ("card", "cn_resident_id") if cn else ("card",)
    return ("cn_resident_id",) if cn else ()


def scan(
    text: str, enabled: Collection[str], wake: Collection[str] | None = None
) -> list[tuple[int, int, str]]:
    """``(start, end, kind)`` of every value the ``enabled`` built-ins find in ``text``.

    The same findings as running each enabled detector's ``find`` over ``text``
    (each listed once per detector that finds it), found much faster.
    ``wake``, from :func:`gate` on the same text, saves testing the gates
    twice.  A detector that raises becomes :class:`DetectorFailed`.
    """
    found: list[tuple[int, int, str]] = []
    kind = "a gate"
    try:
        if wake is None:
            wake = _gated_kinds(text) | _DIGIT_KINDS
        for kind, detector in DETECTORS.items():
            if kind in wake and kind in enabled and kind not in _DIGIT_KINDS:
                found.extend((s, e, kind) for s, e in detector.find(text))
        digits = {k for k in _WINDOW_KINDS if k in enabled and k in wake}
        needles = {k for k in ("iban", "uk_nino") if k in enabled and k in wake}
        if "phone" in digits and "+" in text:
            kind = "phone"
            found.extend((s, e, kind) for s, e in _PHONE_INTL(text))
        if digits or needles:
            # one byte per code point, so shape offsets are string offsets
            shapes = text.encode("ascii", "replace").translate(_SHAPES)
            if digits and _DIGIT_NEEDLE in shapes:
                for pos, endpos in _digit_windows(shapes):
                    run = text[pos:endpos]
                    if run.isascii() and run.isdigit():
                        tried: tuple[str, ...] = _bare_run_kinds(run, digits)
                        if not tried:
                            continue
                    elif len(run.translate(_DROP_SEPARATORS)) < 10:
                        continue  # every windowed shape has 10 digits or more
                    else:
                        tried = _SEPARATED_KINDS
                    for kind, finder in _DIGIT_FINDERS:
                        if kind in digits and kind in tried:
                            stop = endpos + 1 if kind == "cn_resident_id" else endpos
                            found.extend((s, e, kind) for s, e in finder(text, pos, stop))
            for kind in sorted(needles):
                finder = _IBAN if kind == "iban" else _NINO
                found.extend((s, e, kind) for s, e in _at_needles(text, shapes, finder))
    except Exception as exc:
        raise DetectorFailed(kind, type(exc).__name__) from None
    return found


#: Kinds found in digit windows ("phone" also by its "+" form) or at "AA00" needles.
_WINDOW_KINDS: Final = frozenset(("phone", "card", "in_aadhaar", "br_cpf", "cn_resident_id"))
_DIGIT_KINDS: Final = _WINDOW_KINDS | {"iban", "uk_nino"}
_DROP_SEPARATORS: Final = str.maketrans("", "", " -.()")


def may_find(data: bytes, enabled: Collection[str], *, json_text: bool = False) -> bool:
    """False only when no ``enabled`` built-in can find anything in any string within ``data``."""
    return bool(gate(data, enabled, json_text=json_text))


_NONE: Final[frozenset[str]] = frozenset()


def gate(data: bytes, enabled: Collection[str], *, json_text: bool = False) -> frozenset[str]:
    """The ``enabled`` kinds that may find something in a string within ``data``; often none.

    ``data`` is UTF-8: the strings of a message joined together, or (with
    ``json_text``) the text of a JSON document.  JSON escapes other than
    ``\\u`` stand for characters no gate looks at, so a document with no
    ``\\u`` escape holds each of its strings whole; one with a ``\\u``
    escape may find anything.  Only necessary conditions are tested, none of
    the detectors' context checks, so the answer holds for every string whose
    text appears whole in ``data``.
    """
    kinds = enabled if isinstance(enabled, frozenset) else frozenset(enabled)
    at, gates, folded, digits, needles = _plan(kinds)
    wake: set[str] = set()
    if at and b"@" in data:
        wake.update(_AT_KINDS)
    for char, pattern, wakes in gates:
        if char in data and not wakes <= wake and pattern.search(data):
            wake.update(wakes)
    if folded:
        _folded_kinds(data, folded, wake)
    if "phone" in digits and b"+" in data and _BYTE_PHONE_INTL.search(data):
        wake.add("phone")
    if digits or needles or json_text:
        shapes = data.translate(_SHAPES)
        if json_text and b"\\u" in shapes:
            return kinds  # a \\u escape can stand for anything
        bare_shape = _BYTE_BARE_JSON if json_text else _BYTE_BARE
        _shape_kinds(data, shapes, digits, needles, wake, bare_shape)
    return frozenset(wake) & kinds if wake else _NONE


def _shape_kinds(
    data: bytes,
    shapes: bytes,
    digits: frozenset[str],
    needles: frozenset[str],
    wake: set[str],
    bare_shape: re.Pattern[bytes],
) -> None:
    """Add to ``wake`` the digit kinds asked for whose shapes ``data`` holds."""
    pos = shapes.find(_DIGIT_NEEDLE) if digits else -1
    if pos >= 0:
        separated = _SEPARATED_GROUP & digits
        bare = _BARE_GROUP & digits
        wanted = separated | bare
        find, zeros = shapes.find, _ZEROS.match
        while pos >= 0:  # each run of 12 or more digits and separators (see _digit_windows)
            match = zeros(shapes, pos + 12)
            endpos = match.end() if match is not None else pos + 12
            run = data[pos:endpos]
            if run.isdigit():
                n = len(run)
                if (
                    bare
                    and ((13 <= n <= 19 and 50 <= run[0] <= 54) or 17 <= n <= 18)
                    and not bare <= wake
                    and bare_shape.search(data, pos, endpos + 1)
                ):  # otherwise no card, no resident id: nothing an unseparated run can be
                    wake.update(bare)
            elif (
                not separated <= wake
                and len(run.translate(None, _NOT_DIGITS)) >= 10  # every shape has 10 or more
                and _TWO_GROUPS.search(run)  # not a log line's "2024-06-12 10"
                and _BYTE_SEPARATED.search(data, pos, endpos + 1)
            ):
                wake.update(separated)
                if wanted <= wake:
                    break
            pos = find(_DIGIT_NEEDLE, endpos)
    if needles:
        # re finds the needles in these few-symbol shapes faster than bytes.find
        first = _NEEDLES.search(shapes)  # most texts have none: no iterator for them
        for needle in _NEEDLES.finditer(shapes, first.start()) if first is not None else ():
            pos = needle.start()
            after = data[pos + 2]  # "AA" then a digit, or " dd " (a NINO in pairs)
            if not (48 <= after <= 57 or (after == 32 and data[pos + 5 : pos + 6] == b" ")):
                continue  # INC-1234, EUR 642.10: a separator after the letters
            match = _BYTE_NEEDLE_KINDS.match(data, pos)
            if match is not None and match.lastgroup in needles:
                wake.add(match.lastgroup)
                if (
                    match.lastgroup == "iban"
                    and "uk_nino" in needles
                    and _BYTE_NINO.match(data, pos)
                ):
                    wake.add("uk_nino")
                if needles <= wake:
                    break


@lru_cache(maxsize=64)
def _plan(
    enabled: frozenset[str],
) -> tuple[
    bool,
    tuple[tuple[bytes, re.Pattern[bytes], frozenset[str]], ...],
    tuple[_FoldedGate, ...],
    frozenset[str],
    frozenset[str],
]:
    """What :func:`may_find` tests for a set of kinds: '@', the gates, the digit kinds."""
    gates = tuple(
        (char, gate, wakes & enabled)
        for char, gate, wakes in _BYTE_GATES
        if not wakes.isdisjoint(enabled)
    )
    folded = tuple(
        (c, p, groups, wakes & enabled) for c, p, groups, wakes in _FOLDED_GATES if wakes & enabled
    )
    at = not _AT_KINDS.isdisjoint(enabled)
    needles = frozenset(("iban", "uk_nino")) & enabled
    return at, gates, folded, _WINDOW_KINDS & enabled, needles


class DetectorFailed(Exception):
    """A detector raised; ``kind`` names it, ``error`` the exception's type (never its text)."""

    def __init__(self, kind: str, error: str) -> None:
        super().__init__(kind, error)
        self.kind = kind
        self.error = error


# --- examples: run by tests/unit/test_redact_detectors.py ---------------------


class Example(msgspec.Struct, frozen=True):
    """``text`` scanned by the detector ``kind`` finds exactly ``expected``.

    ``kind=None`` is a negative for every detector: nothing at all may match.
    ``kept`` must still be in the text after the redactor (every kind) redacted it:
    the evidence and the context around a secret.  With ``where="args"`` the text is
    a JSON object, the arguments of a tool call: the secret is one by the key it sits
    under, which the redactor (not a detector on text) sees; the tests redact a
    message holding it and look at what it prints.
    """

    kind: str | None
    text: str
    expected: tuple[str, ...] = ()
    kept: tuple[str, ...] = ()
    where: str = "text"


# Test values are built from parts so that this file itself does not look
# like a leaked credential to the scanners that read source trees.
_GHP = "ghp_" + "a1B2c3D4e5F6g7H8i9J0" + "k1L2m3N4o5P6q7R8"
_GHPAT = "github_pat_" + "11ABCDEFG0123456789abc" + "_" + "x" * 20 + "Y" * 20 + "z9" * 10
_GLPAT = "glpat-" + "Ab3dEf6hIj9kLm2nOp5q"
_XOXB = "xoxb-" + "123456789012-1234567890123-" + "AbCdEfGhIjKlMnOpQrStUvWx"
_HOOK = "https://hooks.slack.com/services/" + "T00000000/B00000000/" + "XXXXXXXXXXXXXXXXXXXXXXXX"
_STRIPE_LIVE = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"
_STRIPE_RK = "rk_live_" + "51Habcdefghijklmnop"
_STRIPE_TEST = "sk_test_" + "4eC39HqLyjWDarjtT1zdp7dc"
_OPENAI_OLD = "sk-" + "T3BlbkFJ" + "a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7r8s9t0"
_OPENAI_PROJ = "sk-proj-" + "Ab12_Cd34-Ef56Gh78Ij90Kl12Mn34Op56Qr78"
_ANT = "sk-ant-api03-" + "Zx9_Yw8-Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8Ba7" + "AA"
_AIZA = "AIza" + "SyD-abcdefghijklmnop" + "qrstuvwxyz01234"
_AKIA = "AKIA" + "IOSFODNN7EXAMPLE"
_ASIA = "ASIA" + "Y34FZKBOKMUTVV7A"
_AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
_JWT_VALUE = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
    ".eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ"
    ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)
_PEM = (
    "-----BEGIN RSA " + "PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo\n"
    "4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u\n"
    "-----END RSA " + "PRIVATE KEY-----"
)
_PEM_OPENSSH = (
    "-----BEGIN OPENSSH " + "PRIVATE KEY-----\\nb3BlbnNzaC1rZXktdjEAAAAA\\n"
    "-----END OPENSSH " + "PRIVATE KEY-----"
)
_PEM_CUT = "-----BEGIN " + "PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC"

EXAMPLES: Final[tuple[Example, ...]] = (
    # aws_access_key
    Example(
        "aws_access_key", f"export AWS_ACCESS_KEY_ID={_AKIA}", (_AKIA,), ("AWS_ACCESS_KEY_ID=",)
    ),
    Example("aws_access_key", f'{{"AccessKeyId": "{_ASIA}"}}', (_ASIA,)),
    Example("aws_access_key", f"X{_AKIA}"),  # glued to a word
    Example("aws_access_key", "AKIA1234"),  # too short
    Example("aws_access_key", "AKIAIOSFODNN7EXAMPLE0"),  # too long
    # aws_secret_key
    Example("aws_secret_key", f"aws_secret_access_key = {_AWS_SECRET}", (_AWS_SECRET,)),
    Example("aws_secret_key", f"AWS_SECRET_ACCESS_KEY={_AWS_SECRET}", (_AWS_SECRET,)),
    Example("aws_secret_key", f'"SecretAccessKey": "{_AWS_SECRET}"', (_AWS_SECRET,)),
    Example("aws_secret_key", f"value: {_AWS_SECRET}"),  # no context word
    Example("aws_secret_key", f"aws_secret_access_key = {_AWS_SECRET}x"),  # 41 characters
    # github_token
    Example("github_token", f"token {_GHP} expires", (_GHP,)),
    Example("github_token", f"GITHUB_TOKEN={_GHPAT}", (_GHPAT,)),
    Example("github_token", "gho_" + "x" * 36, ("gho_" + "x" * 36,)),
    Example("github_token", "ghp_short1234"),
    Example("github_token", "my_ghp_" + "a" * 36),  # glued
    # gitlab_token
    Example("gitlab_token", f"PRIVATE-TOKEN: {_GLPAT}", (_GLPAT,)),
    Example("gitlab_token", "glpat-short"),
    # slack
    Example("slack_token", f"SLACK_BOT_TOKEN={_XOXB}", (_XOXB,)),
    Example("slack_token", "xoxb-123"),
    Example("slack_webhook", f"post to {_HOOK} now", (_HOOK,)),
    Example("slack_webhook", "see https://api.slack.com/messaging/webhooks"),
    # stripe
    Example("stripe_key", f"Stripe.api_key = '{_STRIPE_LIVE}'", (_STRIPE_LIVE,)),
    Example("stripe_key", f"{_STRIPE_RK} and {_STRIPE_TEST}", (_STRIPE_RK, _STRIPE_TEST)),
    Example("stripe_key", "pk_live_4eC39HqLyjWDarjtT1zdp7dc"),  # publishable, not secret
    Example("stripe_key", "the sk_live_ prefix"),
    # openai / anthropic
    Example("openai_key", f"OPENAI_API_KEY={_OPENAI_OLD}", (_OPENAI_OLD,)),
    Example("openai_key", f"key: {_OPENAI_PROJ}", (_OPENAI_PROJ,)),
    Example("openai_key", f"key: {_ANT}"),  # an Anthropic key, not OpenAI's
    Example("openai_key", "pip install scikit-learn; task-sk-learn-estimators-wrapper"),
    Example("openai_key", "the risk-assessment-and-mitigation-plan-v2"),
    Example("anthropic_key", f"ANTHROPIC_API_KEY={_ANT}", (_ANT,)),
    Example("anthropic_key", "sk-ant-short"),
    # google
    Example("google_api_key", f"https://maps.googleapis.com/x?key={_AIZA}&v=3", (_AIZA,)),
    Example("google_api_key", "AIzaTooShort"),
    # jwt
    Example("jwt", f"id_token={_JWT_VALUE}&state=1", (_JWT_VALUE,), ("id_token=", "&state=1")),
    Example(
        "jwt", "eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.", ("eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.",)
    ),
    Example("jwt", "eyJhbGciOiJIUzI1NiJ9 is only a header"),
    Example("jwt", "release v1.2.3.eyJ"),
    # private_key
    Example("private_key", f"key:\n{_PEM}\nthen", (_PEM,), ("key:\n", "\nthen")),
    Example("private_key", f'"{_PEM_OPENSSH}"', (_PEM_OPENSSH,)),
    Example("private_key", f"{_PEM_CUT}", (_PEM_CUT,)),
    Example("private_key", "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n"),
    Example("private_key", "-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----"),
    # auth_header
    Example("auth_header", "Authorization: Bearer abc.def-ghi_jkl", ("abc.def-ghi_jkl",)),
    Example(
        "auth_header",
        '{"authorization": "Basic dXNlcjpodW50ZXIy"}',
        ("dXNlcjpodW50ZXIy",),
    ),
    Example("auth_header", "-H 'Authorization: Bearer $TOKEN'"),
    Example("auth_header", 'headers={"Authorization": f"Bearer {token}"}'),
    Example("auth_header", "Bearer tokens are described in RFC 6750"),
    Example("auth_header", "Authorization: Bearer <token>"),
    # url_password
    Example(
        "url_password",
        "postgres://admin:s3cr3t-Pa55@db.internal:5432/x",
        ("s3cr3t-Pa55",),
        ("postgres://admin:", "@db.internal:5432/x"),
    ),
    Example("url_password", "redis://:hunter2@cache:6379", ("hunter2",)),
    Example("url_password", "https://user:p%40ss@example.com/", ("p%40ss",)),
    Example("url_password", "https://example.com:8443/path"),
    Example("url_password", "postgres://admin:${DB_PASSWORD}@db/x"),
    Example("url_password", "https://user:****@example.com/"),
    Example("url_password", "mailto:bob@example.com"),
    # email
    Example("email", "mail bob@example.com today", ("bob@example.com",), ("mail ", " today")),
    Example(
        "email",
        "<Alice.Smith+billing@mail.example.co.uk>",
        ("Alice.Smith+billing@mail.example.co.uk",),
    ),
    Example("email", "mailto:o'brien@example.ie.", ("o'brien@example.ie",)),
    Example("email", "müller@beispiel.de", ("müller@beispiel.de",)),
    Example("email", "postgres://admin:s3cr3t@db.example.com/x"),  # a URL password, not an email
    Example("email", "icon@2x.png and logo@1.5x.jpg"),
    Example("email", "npm i lodash@4.17.21 @types/node@20.11.5"),
    Example("email", "@property and user@localhost"),
    Example("email", "image nginx@sha256:0123abcd"),
    # phone
    Example("phone", "call +1 (415) 555-0132 today", ("+1 (415) 555-0132",)),
    Example("phone", "UK: +44 20 7946 0958.", ("+44 20 7946 0958",)),
    Example("phone", "+44 (0)20 7946 0958", ("+44 (0)20 7946 0958",)),
    Example("phone", "tel:+4915123456789", ("+4915123456789",)),
    Example("phone", "+33 1 23 45 67 89", ("+33 1 23 45 67 89",)),
    Example("phone", "office (415) 555-0132", ("(415) 555-0132",)),
    Example("phone", "cell 415-555-0132, or 415.555.0199", ("415-555-0132", "415.555.0199")),
    Example("phone", "London 020 7946 0958", ("020 7946 0958",)),
    Example("phone", "Manchester 0161 496 0000", ("0161 496 0000",)),
    Example("phone", "mobile 07700 900123", ("07700 900123",)),
    Example("phone", "mobile 07700 900 123"),  # a 5-3-3 grouping: not detected
    Example("phone", "Paris 01 23 45 67 89"),  # national French form: not detected
    Example("phone", "toll free 1-800-555-0199", ("1-800-555-0199",)),
    Example("phone", "ring 1 (415) 555-0132", ("1 (415) 555-0132",)),
    Example("phone", "4155550132"),  # a bare digit run
    Example("phone", "+1 555 0132"),  # too short for North America
    Example("phone", "+12"),
    Example("phone", "555-0132"),
    Example("phone", "2024-01-15 and 2024-01-15T10:20:30+05:30"),
    Example("phone", "INC-415-555-0132 and SO-20480"),
    Example("phone", "$415.555.0132"),
    Example("phone", "@@ -12,7 +12,8 @@ and +1234 -567"),
    Example("phone", "415-555.0132"),  # mixed separators
    Example("phone", "v1.415.555.0132"),
    Example("phone", "1718035200000"),
    # card
    Example("card", "card 4111 1111 1111 1111 exp 12/27", ("4111 1111 1111 1111",), ("exp 12/27",)),
    Example("card", "4111-1111-1111-1111", ("4111-1111-1111-1111",)),
    Example("card", "pan=5500005555555559;", ("5500005555555559",)),
    Example("card", "amex 3782 822463 10005", ("3782 822463 10005",)),
    Example("card", "amex 378282246310005", ("378282246310005",)),
    Example("card", "paid 2024 4111 1111 1111 1111", ("4111 1111 1111 1111",)),
    Example("card", "4111 1111 1111 1112"),  # Luhn fails
    Example("card", "1718035200000 1718035200000123"),  # epoch ms / µs
    Example("card", "order 1234567890123456"),  # no card network starts with 1
    Example("card", "4111 11111 1111 1111"),  # not a card grouping
    Example("card", "4111 1111-1111 1111"),  # mixed separators
    Example("card", "sha 4111111111111111abcdef0"),  # inside hex
    Example("card", "ACCT-4111111111111111"),
    # iban
    Example("iban", "IBAN DE89 3704 0044 0532 0130 00 please", ("DE89 3704 0044 0532 0130 00",)),
    Example("iban", "GB82WEST12345698765432", ("GB82WEST12345698765432",)),
    Example("iban", "GB82 WEST 1234 5698 7654 32 THEN", ("GB82 WEST 1234 5698 7654 32",)),
    Example("iban", "ref XX12 ABCD DE89 3704 0044 0532 0130 00", ("DE89 3704 0044 0532 0130 00",)),
    Example(
        "iban",
        "DE89 3704 0044 0532 0130 00 GB82 WEST 1234 5698 7654 32",
        ("DE89 3704 0044 0532 0130 00", "GB82 WEST 1234 5698 7654 32"),
    ),
    Example("iban", "DE89 3704 0044 0532 0130 01"),  # mod-97 fails
    Example("iban", "GB82WEST1234569876543"),  # wrong length
    Example("iban", "XX89370400440532013000"),  # no such country
    # secret_value: the value under a name that says secret, in text and in tool-call args
    Example(
        "secret_value",
        '{"service": "billing", "secret": "Zq8vN2pLx7", "retries": 3}',
        ("Zq8vN2pLx7",),
        ('"service": "billing"', '"secret": "', "retries"),
    ),
    Example("secret_value", "password: hunter2", ("hunter2",), ("password: ",)),
    Example("secret_value", "password=correcthorse", ("correcthorse",), ("password=",)),
    Example("secret_value", "export DB_PASSWORD='correct horse'", ("correct horse",)),
    Example("secret_value", "--api-key=9f86d081884c7d65", ("9f86d081884c7d65",), ("--api-key=",)),
    Example(
        "secret_value",
        "curl -H 'Cookie: sid=31d4d96e407aad42; theme=dark' https://x.example",
        ("sid=31d4d96e407aad42; theme=dark",),
        ("Cookie: ", "https://x.example"),
    ),
    Example(
        "secret_value",
        "access_token=3f2a91c4e5b6a7d8&state=RF-9120",
        ("3f2a91c4e5b6a7d8",),
        ("state=RF-9120",),
    ),
    Example(
        "secret_value",
        "password: str, token = get_token(), api_key=API_KEY, secret=None",
        (),
        ("password: str", "get_token()", "API_KEY", "secret=None"),
    ),
    Example(
        "secret_value",
        "max_tokens: 4096, token_type: Bearer, tokenizer: cl100k_base, password_min_length=12",
        (),
        ("4096", "Bearer", "cl100k_base", "12"),
    ),
    Example("secret_value", 'token = "${GITHUB_TOKEN}" and password: "<password>"'),
    Example(
        "secret_value",
        '{"headers": {"X-Api-Key": "0123456789abcdef0123456789abcdef"}, "url": "/v1/refunds"}',
        ("0123456789abcdef0123456789abcdef",),
        ("X-Api-Key", "/v1/refunds"),
        "args",
    ),
    Example(
        "secret_value",
        '{"db": {"host": "db.internal", "password": "hunter"}, "refund": "RF-9120"}',
        ("hunter",),
        ("db.internal", "RF-9120", "password"),
        "args",
    ),
    Example(
        "secret_value",
        '{"session": {"refresh_token": "9fceb02d0ae598e95dc970b74767f19372d61af8"}}',
        ("9fceb02d0ae598e95dc970b74767f19372d61af8",),
        ("refresh_token",),
        "args",
    ),
    Example(
        "secret_value",
        '{"cookies": ["sid=abc", "csrftoken=def"], "max_tokens": 4096, "token_type": "Bearer"}',
        ("sid=abc", "csrftoken=def"),
        ("4096", '"token_type": "Bearer"'),
        "args",
    ),
    Example(
        "secret_value",
        '{"password": {"type": "string", "description": "the database password"}, '
        '"token": "$TOKEN"}',
        (),
        ('"type": "string"', "the database password", "$TOKEN"),
        "args",
    ),
    # conn_password: key=value connection strings
    Example(
        "conn_password",
        "psql 'host=db.internal port=5432 user=app password=hunter dbname=orders'",
        ("hunter",),
        ("host=db.internal", "dbname=orders", "password="),
    ),
    Example(
        "conn_password",
        "Server=tcp:db,1433;Database=orders;User Id=app;Password=p@ss word;Encrypt=true",
        ("p@ss word",),
        ("Database=orders", "Encrypt=true"),
    ),
    Example("conn_password", "host=db user=app password='it\\'s' sslmode=require", ("it\\'s",)),
    Example("conn_password", "the password=field is required"),  # no connection key near
    Example("conn_password", "host=db user=app password=$PGPASSWORD"),
    # national identity numbers
    Example("us_ssn", "SSN 078-05-1120 on file", ("078-05-1120",), ("SSN ", " on file")),
    Example("us_ssn", '{"ssn": "219-09-9999"}', ("219-09-9999",)),
    Example("us_ssn", "000-12-3456 666-12-3456 912-12-3456 123-00-4567 123-45-0000"),
    Example("us_ssn", "INC-123-45-6789, 2024-01-15, 415-555-0132, v1.123-45-6789"),
    Example("uk_nino", "NI number AB123456C.", ("AB123456C",), ("NI number ",)),
    Example("uk_nino", "NINO: JG 10 37 21 A", ("JG 10 37 21 A",)),
    Example("uk_nino", "GB123456A QQ123456C AB123456E XAB123456C"),  # bad prefix or suffix
    Example("in_aadhaar", "Aadhaar 2341 2341 2346", ("2341 2341 2346",), ("Aadhaar ",)),
    Example("in_aadhaar", "2341-2341-2346", ("2341-2341-2346",)),
    Example("in_aadhaar", "2341 2341 2345 and 1341 2341 2348"),  # Verhoeff fails; starts with 1
    Example("cn_resident_id", "身份证 11010519491231002X", ("11010519491231002X",)),
    Example("cn_resident_id", "id 110105199003071239", ("110105199003071239",)),
    Example("cn_resident_id", "11010519491231002Y 110105194912310022 175928847299117063"),
    Example("br_cpf", "CPF 111.444.777-35", ("111.444.777-35",), ("CPF ",)),
    Example("br_cpf", "111.444.777-36 and 111.111.111-11"),  # check digits; all one digit
    # context for the AWS secret key and the bearer token
    Example(
        "aws_secret_key",
        f'{{"AccessKeyId": "{_AKIA}", "secret": "{_AWS_SECRET}"}}',
        (_AWS_SECRET,),
    ),
    Example(
        "aws_secret_key",
        f"[default]\naws_access_key_id = {_AKIA}\naws_secret_access_key = {_AWS_SECRET}\n",
        (_AWS_SECRET,),
        ("[default]", "aws_secret_access_key = "),
    ),
    Example(
        "aws_secret_key",
        f'{{"key_id": "{_AKIA}", "value": "{_AWS_SECRET}"}}',
        (_AWS_SECRET,),
        ('"value"',),
        "args",
    ),
    Example(
        "aws_secret_key",
        f"{_AKIA} built from 9fceb02d0ae598e95dc970b74767f19372d61af8",
        (),
        ("9fceb02d0ae598e95dc970b74767f19372d61af8",),
    ),
    Example(
        "auth_header",
        "Authorization: Bearer 0123456789abcdef0123456789abcdef",
        ("0123456789abcdef0123456789abcdef",),
        ("Authorization: Bearer ",),
    ),
    Example(
        "auth_header",
        '{"headers": {"Authorization": "Bearer 0123456789abcdef0123456789abcdef"}}',
        ("0123456789abcdef0123456789abcdef",),
        ("Authorization", "Bearer "),
        "args",
    ),
    Example(
        "auth_header",
        "send it with Bearer dGhpc2lzYXRva2VuMTIzNDU2 and Basic dXNlcjpodW50ZXIy",
        ("dGhpc2lzYXRva2VuMTIzNDU2", "dXNlcjpodW50ZXIy"),
        ("Bearer ", "Basic "),
    ),
    Example("auth_header", "Bearer authentication and Basic authentication, Basic Plan"),
    # never redacted by any detector: the evidence itself
    Example(None, "refund RF-9120 for INC-7701, order SO-20480, account ACCT-8842"),
    Example(None, "request 123e4567-e89b-12d3-a456-426614174000 done"),
    Example(None, "commit 3f2a91c and 9fceb02d0ae598e95dc970b74767f19372d61af8"),
    Example(None, "fingerprint 3f2a91c4 and a1b2c"),
    Example(None, "digest xxh3-128:0123456789abcdef0123456789abcdef"),
    Example(None, "digest xxh3-128:41111111111111110123456789012345"),
    Example(None, "at 2024-01-15T10:20:30.123Z, 2024-01-15 10:20:30+00:00, 15/01/2024"),
    Example(None, "epoch 1705314030123 and 1705314030"),
    Example(None, "total $480.00, EUR 642.10, 1,234,567.89 USD, -12.5%"),
    Example(None, "version 1.2.3, v10.0.19045.3930, python 3.11.7"),
    Example(None, "ip 192.168.100.200 port 8080, sha256:9f86d081884c7d659a2feaa0c55ad015"),
    Example(None, "stages seed#0, tool-calls#23; locators h12, f3:5, f3"),
    Example(None, "[compacted history — 12 earlier message(s) were folded out at iteration 4.]"),
    Example(None, "temperature 0.7, max_tokens 4096, top_p 0.95, seed 1234567890123456"),
    Example(
        None,
        "commit 9fceb02d0ae598e95dc970b74767f19372d61af8, sha256 "
        "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08, "
        "request 123e4567-e89b-12d3-a456-426614174000, digest 0123456789abcdef0123456789abcdef",
        (),
        (
            "9fceb02d0ae598e95dc970b74767f19372d61af8",
            "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            "123e4567-e89b-12d3-a456-426614174000",
            "0123456789abcdef0123456789abcdef",
        ),
    ),
    Example(
        None,
        '{"sha": "9fceb02d0ae598e95dc970b74767f19372d61af8", "request_id": '
        '"123e4567-e89b-12d3-a456-426614174000", "tokens": 1234, "token_count": "88"}',
        (),
        ("9fceb02d0ae598e95dc970b74767f19372d61af8", "123e4567-e89b-12d3-a456-426614174000"),
        "args",
    ),
    Example(None, "the token limit was hit; rotate the secret; password policy: 12 characters"),
)
