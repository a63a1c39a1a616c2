"""``grep``'s prefilter: a source whose raw bytes cannot hold a match is never decoded.

Most files of a fleet do not contain what a reviewer greps for, and decoding is
grep's whole cost.  So before decoding a source, grep looks in its bytes (after
gzip, or the envelope read from a store) for a *needle*: a piece of text that
every match must contain.  No needle in the bytes, no match in the file.  The
rule that keeps this exact (docs/performance.md, "The grep prefilter"):

* **Needles.** A fixed string is its own needle; a regular expression's needles
  are read from its parsed form: a run of literal characters it must match
  (outside optional repetition, in every branch of an alternation — then the
  needles are one per branch, and any of them will do).  No needle (``-v``, or
  a pattern such as ``\\d+`` or ``x*``) means no prefilter: every source is
  decoded.
* **Only text the bytes must show.** grep searches strings (decoded), and
  values that are not strings as their compact JSON, which foldctl writes
  itself: keys, ``:``, ``,``, brackets, quotes, escapes and numbers in its own
  spelling (``1e2`` is written ``100.0``).  So a needle is cut at ``{ } [ ] : ,
  " \\`` and control characters, and a piece made only of number characters
  (``0-9 . e E + -``) is never used; what is left can only match inside a
  string (or a ``true``/``false``/``null``), which the bytes spell verbatim —
  unless an escape spells it.
* **Escapes.** ``\\uXXXX`` can spell any character, ``\\/`` spells ``/``.  When the
  bytes hold an escape that decodes to a character of the needle (compared
  without case under ``-i``), the source is decoded as usual.  ``\\n``, ``\\t``,
  ``\\"`` and ``\\\\`` decode to characters a needle never holds.
* **Case.** Under ``-i`` a needle is an ASCII run, looked for in the bytes with
  ASCII case folded; the few non-ASCII characters Python's ``re`` folds onto
  ASCII letters (``İ ı`` onto i, ``ſ`` onto s, the Kelvin sign onto k) send the
  source to be decoded when they occur.
* **Not UTF-8.** Bytes that start with a UTF-16/32 byte order mark or hold NUL
  in their first four bytes are decoded as usual (foldctl reads only UTF-8, and
  says so).

How the bytes are searched changes no answer: StringZilla's SIMD ``find`` where it is
installed (the ``fleet`` extra; ``FOLDCTL_GREP_SIMD=0`` turns it off), else ``bytes.find``
and :func:`foldctl.jsoncodec.find_unicode_escape`; either way, the escapes from the first
``\\u`` on are read one by one.

A source the prefilter skips is not decoded, so it is not checked either:
grep says how many it passed over.  ``FOLDCTL_GREP_PREFILTER=0`` (or
``prefilter=False`` in the library) decodes every source.
"""

from __future__ import annotations

import importlib
import os
import re
import threading
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any, Final

import msgspec

from foldctl.jsoncodec import find_unicode_escape
from foldctl.sources.files import Buffer

#: Characters a needle is cut at: the structure of the compact JSON grep also searches
#: (keys, punctuation, quotes), the escape character, and control characters.
CUT: Final = frozenset('{}[]:,"\\') | frozenset(map(chr, range(0x20))) | {"\x7f"}
#: Characters of a JSON number as foldctl writes one (a piece made only of these is unused).
NUMBER: Final = frozenset("0123456789.eE+-")
#: Non-ASCII characters that Python's ``re`` matches to ASCII letters under IGNORECASE
#: (tests/unit/test_prefilter.py checks this against ``re`` itself).
FOLDS_ONTO_ASCII: Final[dict[str, str]] = {
    "i": "\u0130\u0131",
    "s": "\u017f",
    "k": "\u212a",
}
_UNICODE_ESCAPE: Final = re.compile(rb"\\u([0-9a-fA-F]{4})")
#: How many bytes of a file :meth:`Prefilter.may_match_file` reads at a time.
FILE_CHUNK: Final = 1 << 20
#: The length of a ``\\uXXXX`` escape (what may straddle two chunks, with a needle).
_ESCAPE_BYTES: Final = 6
#: Below this many bytes (one record of a session, say), a buffer is searched for a
#: ``\\u`` escape with one regular expression, not :func:`find_unicode_escape`'s walk.
_SMALL: Final = 1 << 14
#: Set to ``0`` (or ``off``, ``no``, ``false``) to decode every source.
ENVIRONMENT: Final = "FOLDCTL_GREP_PREFILTER"
#: Set to ``0`` (or ``off``, ``no``, ``false``) to search bytes with Python's own
#: ``bytes.find`` even where StringZilla is installed (the answers are the same).
SIMD_ENVIRONMENT: Final = "FOLDCTL_GREP_SIMD"
_OFF: Final = ("0", "off", "no", "false")


def enabled_by_environment() -> bool:
    """Whether the environment leaves the prefilter on (the default)."""
    return os.environ.get(ENVIRONMENT, "").strip().lower() not in _OFF


@lru_cache(maxsize=1)
def simd_text() -> Any:
    """StringZilla's ``Str`` (the ``fleet`` extra: a view of a buffer whose ``find`` runs
    with SIMD, 10-20 times Python's ``bytes.find`` on two bytes such as ``\\u``), or None
    when it is not installed or :data:`SIMD_ENVIRONMENT` turns it off."""
    if os.environ.get(SIMD_ENVIRONMENT, "").strip().lower() in _OFF:
        return None
    try:
        return importlib.import_module("stringzilla").Str
    except ImportError:
        return None


class _Plan(msgspec.Struct, frozen=True):
    """What a prefilter looks for, worked out once: each needle's bytes (lower case under
    ``-i``), the characters an escape must spell to matter, and what else may spell one."""

    needles: tuple[bytes, ...]
    letters: frozenset[str]  # every needle's characters (lower case under -i)
    folded: tuple[bytes, ...]  # non-ASCII characters -i folds onto one of them
    slash: bool  # ``\\/`` spells one of them
    beyond_bmp: bool  # a surrogate pair may spell one of them
    longest: int  # the longest needle, in bytes


@lru_cache(maxsize=16)
def _plan(needles: tuple[str, ...], ignore_case: bool) -> _Plan:
    letters = frozenset(c.lower() if ignore_case else c for n in needles for c in n)
    folded: tuple[bytes, ...] = ()
    if ignore_case:
        folded = tuple(c.encode() for c in "".join(FOLDS_ONTO_ASCII.get(c, "") for c in letters))
    return _Plan(
        needles=tuple((n.lower() if ignore_case else n).encode() for n in needles),
        letters=letters,
        folded=folded,
        slash="/" in letters,
        beyond_bmp=any(ord(c) > 0xFFFF for c in letters),
        longest=max((len(n.encode()) for n in needles), default=1),
    )


#: The buffer :meth:`Prefilter.may_match_file` reads into, kept for the next file (one a
#: thread): a fresh megabyte for every file costs its allocation and page faults.
_buffers = threading.local()


def _file_buffer(size: int) -> bytearray:
    buf: bytearray | None = getattr(_buffers, "buf", None)
    if buf is None or len(buf) != size:
        buf = _buffers.buf = bytearray(size)
    return buf


class Prefilter(msgspec.Struct, frozen=True):
    """A source may match only when its bytes hold one of ``needles``."""

    needles: tuple[str, ...]
    ignore_case: bool = False

    def may_match(self, data: Buffer | bytearray) -> bool:
        """False only when no decoding of ``data`` can hold a match."""
        head = bytes(data[:4])
        if b"\x00" in head or head.startswith((b"\xff\xfe", b"\xfe\xff")):
            return True
        return self._may_match(data, len(data))

    def _may_match(self, data: Buffer | bytearray, end: int) -> bool:
        """:meth:`may_match` of ``data[:end]`` (not copied), its first bytes not looked at."""
        plan = _plan(self.needles, self.ignore_case)
        simd = simd_text() if end > _SMALL else None
        if simd is not None and isinstance(data, (bytes, bytearray)):  # not a memory map
            text = simd(data)
            if end < len(data):
                text = text[:end]
            haystack = simd(bytes(data[:end]).lower()) if self.ignore_case else text
            if any(haystack.find(needle) >= 0 for needle in plan.needles):
                return True
            return _escapes_may_spell(data, end, plan, self.ignore_case, text.find)
        haystack = bytes(data[:end]).lower() if self.ignore_case else data
        for needle in plan.needles:  # a loop, not any(): called once a record
            if haystack.find(needle, 0, end) >= 0:
                return True
        return _escapes_may_spell(data, end, plan, self.ignore_case)

    def may_match_file(self, path: str) -> bool | None:
        """:meth:`may_match` of a plain file's bytes, read in chunks into one buffer (each
        chunk searched while it is in the cache; nothing of the file kept), stopping at the
        first chunk that may match.  None when the file is not one to judge here (gzip, a
        SQLite store, UTF-16/32 by its first bytes, or it cannot be opened): the caller
        reads it as usual and says what is wrong with it."""
        try:
            f = open(path, "rb", buffering=0)  # noqa: SIM115 - closed below
        except OSError:
            return None
        with f:
            plan = _plan(self.needles, self.ignore_case)
            carry = max(plan.longest, _ESCAPE_BYTES) - 1  # what may straddle two chunks
            buf = _file_buffer(FILE_CHUNK + carry)
            view = memoryview(buf)
            try:
                kept = 0
                first = True
                while True:
                    try:
                        n = f.readinto(view[kept:])
                    except OSError:
                        return None
                    if first:
                        if n == 0:
                            return None  # empty: the reader says so
                        head = bytes(buf[: min(n, 16)])  # past n: an earlier file's
                        if head.startswith((b"\x1f\x8b", b"SQLite format 3\x00")):
                            return None
                        if b"\x00" in head[:4] or head.startswith((b"\xff\xfe", b"\xfe\xff")):
                            return True  # not UTF-8: decoded as usual, which says so
                        first = False
                    if not n:
                        return False
                    size = kept + n
                    if self._may_match(buf, size):
                        return True
                    kept = min(carry, size)
                    view[:kept] = buf[size - kept : size]
            finally:
                view.release()


def _escapes_may_spell(
    data: Buffer | bytearray,
    end: int,
    plan: _Plan,
    ignore_case: bool,
    find: Callable[[bytes], int] | None = None,
) -> bool:
    """Whether an escape in ``data[:end]`` (or, under ``-i``, a character folded onto a
    needle's) may spell a character of a needle.  ``find`` searches ``data[:end]`` (with
    SIMD, :func:`simd_text`); without it, ``bytes.find`` and :func:`find_unicode_escape`."""
    if find is None:
        for spelled in plan.folded:
            if data.find(spelled, 0, end) >= 0:
                return True
        if plan.slash and data.find(b"\\/", 0, end) >= 0:
            return True
        start = find_unicode_escape(data, 0, end) if end > _SMALL else 0
    else:
        if any(find(spelled) >= 0 for spelled in plan.folded):
            return True
        if plan.slash and find(b"\\/") >= 0:
            return True
        start = find(b"\\u")
    if start < 0:
        return False
    letters = plan.letters
    for m in _UNICODE_ESCAPE.finditer(data, start, end):
        unit = int(m.group(1), 16)
        if 0xD800 <= unit <= 0xDFFF:
            if plan.beyond_bmp:
                return True  # a surrogate pair may spell a character beyond the BMP
            continue
        char = chr(unit)
        if char in letters:
            return True
        if ignore_case and (
            char.lower() in letters or any(char in FOLDS_ONTO_ASCII.get(c, "") for c in letters)
        ):
            return True
    return False


# --------------------------------------------------------------------------- needles


def _parser() -> Any:
    try:
        return importlib.import_module("re._parser")  # Python 3.11+
    except ImportError:  # pragma: no cover - Python 3.10
        return importlib.import_module("sre_parse")


def _constants() -> Any:
    try:
        return importlib.import_module("re._constants")
    except ImportError:  # pragma: no cover - Python 3.10
        return importlib.import_module("sre_constants")


Requirement = tuple[str, ...]  # any one of these strings is in every match


class _Walker:
    def __init__(self) -> None:
        c = _constants()
        self.LITERAL = c.LITERAL
        self.SUBPATTERN = c.SUBPATTERN
        self.BRANCH = c.BRANCH
        self.repeats = {c.MAX_REPEAT, c.MIN_REPEAT}
        self.repeats |= {getattr(c, "POSSESSIVE_REPEAT", c.MAX_REPEAT)}
        self.atomic = getattr(c, "ATOMIC_GROUP", None)
        self.local_case = False  # a group turns IGNORECASE on or off

    def sequence(self, items: Any) -> list[Requirement]:
        """Every requirement of a sequence of items (all must hold)."""
        out: list[Requirement] = []
        run: list[str] = []

        def close() -> None:
            if run:
                out.append(("".join(run),))
                run.clear()

        for op, av in items:
            if op is self.LITERAL:
                run.append(chr(av))
                continue
            close()
            best: Requirement | None = None
            if op is self.SUBPATTERN:
                _group, add_flags, del_flags, sub = av
                if (add_flags | del_flags) & re.IGNORECASE:
                    self.local_case = True
                best = self.best(sub)
            elif op is self.atomic:
                best = self.best(av)
            elif op in self.repeats:
                low, _high, sub = av
                if low >= 1:
                    best = self.best(sub)
            elif op is self.BRANCH:
                _, branches = av
                found = [self.best(b) for b in branches]
                if all(f is not None for f in found):
                    best = tuple(dict.fromkeys(n for f in found if f is not None for n in f))
            if best is not None:
                out.append(best)
        close()
        return out

    def best(self, items: Any) -> Requirement | None:
        options = self.sequence(items)
        return max(options, key=_strength) if options else None


def _strength(requirement: Requirement) -> tuple[int, int]:
    # One needle beats several; then the shortest needle should be as long as possible.
    return (-len(requirement), min(len(n) for n in requirement))


def usable_piece(text: str, ignore_case: bool) -> str | None:
    """The longest part of ``text`` the bytes of a matching source must show verbatim: cut
    at JSON structure and controls, never only number characters, ASCII under ``-i``."""
    pieces = re.split("[" + re.escape("".join(sorted(CUT))) + "]", text)
    if ignore_case:
        pieces = [p for piece in pieces for p in re.split(r"[^\x00-\x7f]+", piece)]
    good = [p for p in pieces if p and not set(p) <= NUMBER]
    return max(good, key=len) if good else None


def _usable(requirement: Requirement, ignore_case: bool) -> Requirement | None:
    pieces = [usable_piece(n, ignore_case) for n in requirement]
    if any(p is None for p in pieces):
        return None
    return tuple(dict.fromkeys(p for p in pieces if p is not None))


@lru_cache(maxsize=16)
def prefilter_for(pattern: re.Pattern[str], *, invert: bool = False) -> Prefilter | None:
    """The prefilter of a compiled pattern, or None when every source must be decoded
    (kept: a worker is asked once per source with the same pattern)."""
    if invert:
        return None
    walker = _Walker()
    try:
        parsed = _parser().parse(pattern.pattern, pattern.flags)
    except Exception:  # pragma: no cover - the pattern compiled, so it parses
        return None
    options = walker.sequence(parsed)
    ignore_case = bool(pattern.flags & re.IGNORECASE) or walker.local_case
    usable = [u for u in (_usable(r, ignore_case) for r in options) if u is not None]
    if not usable:
        return None
    return Prefilter(max(usable, key=_strength), ignore_case)


def needles(pattern: re.Pattern[str]) -> Iterator[str]:
    """The needles of ``pattern`` (for docs and tests)."""
    found = prefilter_for(pattern)
    if found is not None:
        yield from found.needles
