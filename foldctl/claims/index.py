"""The evidence side: a cheap per-message index, and lookups over ranges of messages.

Reading every evidence message with the full atom rules would be far too slow
for a checkpoint of hundreds of MB, and mostly wasted: a summary has a dozen
atoms, its evidence thousands.  So the work is split:

* :func:`index_message` does only what is cheap for every message: the set of
  number tokens in it (runs of digits and dots, by one ``bytes.translate``
  and ``split``; two or three dots end one), whether it holds
  an ``@`` or a ``://``, its tool names, and whether it is a tool result that
  reports an error.  Its result depends on the message alone, so a caller can
  cache it by message digest.
* :class:`EvidenceIndex` files the messages of a whole span chain in one
  order (the expanded transcript's), with a posting list per number token.  The
  evidence of one summary is a range ``[start, stop)`` of it (a span's
  messages with its nested spans' originals in place of their frames are
  contiguous in that order), so nested spans share one index.
* An atom is looked up by the number tokens any spelling of it must contain
  (:func:`~foldctl.claims.atoms.lookup_keys`); only the messages holding them
  are read, and only at the token: a number or identifier is settled by the
  token itself, anything else by the full rules over a few dozen characters
  around it.  Each message's verdict for each distinct atom is computed at
  most once (a byte per candidate), so an outer summary repeating an inner
  one's atom costs a binary search, not a second scan.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from decimal import Decimal
from functools import lru_cache, partial
from typing import Any, Final, NamedTuple, Protocol

import msgspec

from foldctl.claims import atoms as A
from foldctl.claims import failures as F
from foldctl.claims import operations as O
from foldctl.claims.atoms import Atom
from foldctl.claims.facts import (
    BODY_KEYS,
    Fact,
    MessageFacts,
    asked_facts,
    entity_key,
    label_key,
    message_facts,
    without_log_outcomes,
)
from foldctl.jsoncodec import as_text
from foldctl.lazyre import lazy

#: Keeps digits and dots, blanks the rest: the number tokens of a message, for ``split``.
NUMBER_TOKENS: Final = bytes(c if 48 <= c <= 57 or c == 46 else 32 for c in range(256))
#: A number with a decimal comma and no thousands ("82,6", "7,50"; not "1.204,50", not
#: "3,1,4"): its two tokens are one number, which a summary may write with a point.
_DECIMAL_COMMA: Final = lazy(rb"(?<![\d.,])(\d{1,3}),(\d{1,2})(?!\d|,\d)")
#: Runs of dots: no number, so a key group holding one constrains nothing.
_SHORT_TOKENS: Final = frozenset([b".", b"..", b"...", b"...."])
_NO_RUNS: Final[frozenset[bytes]] = frozenset()
_WINDOW: Final = 32
#: How much of one message is read in full for its facts (beyond it: unknown, so no finding).
_FACTS_LIMIT: Final = 1_000_000
#: JSON nested deeper than this is not walked.
_MAX_DEPTH: Final = 64
#: How many messages naming a noun are read to confirm a small count of it.
_COUNT_CANDIDATES: Final = 1000
#: How much of a message its numbers are read from for a derived value (a result's figures
#: are at its head; a long log's tail adds time, not totals).
_NUMBERS_READ: Final = 2000
#: How many failing results one dropped finding cites (the first and the last ones).
_CITED_ERRORS: Final = 20
_DIGIT: Final = lazy(r"\d")
_MAX_OCCURRENCES: Final = 200
_UNKNOWN, _YES, _NO = 0, 1, 2


class EvidenceRef(NamedTuple):
    """How a finding cites a message: its locator (``h12``, ``f3:5``) and digest.

    A named tuple (immutable, plain) rather than a dataclass: the caller makes
    one per evidence message.
    """

    locator: str
    digest: str | None = None


class MessageAtoms(NamedTuple):
    """The cheap index of one evidence message (see :func:`index_message`).

    A named tuple rather than a dataclass: one is made per evidence message,
    and building a tuple is several times cheaper than a frozen dataclass.
    """

    text: str  # "" when indexed with keep_text=False (the index reads it from Originals)
    runs: frozenset[bytes]  # number tokens; one-character tokens left out (too common to help)
    role: str
    tool_name: str | None
    call_names: tuple[str, ...]
    error: str | None
    error_class: str | None = None  # the error's kind (timeout, denied, ...) when it has one


class Originals(Protocol):
    """Where an index reads a filed message again, when it keeps only the message's atoms.

    A checkpoint of hundreds of MB has as much evidence text: an index that kept
    it would hold the file twice over.  With originals, the index keeps the cheap
    atoms of each message and asks for the text of the few messages a lookup
    reads, and for the reference (locator and digest) of the few a finding cites.
    """

    def text(self, position: int) -> str:
        """The evidence text of the message filed at ``position``."""
        ...

    def ref(self, position: int) -> EvidenceRef:
        """How a finding cites the message filed at ``position``."""
        ...


#: How much text (in characters) an index reading from :class:`Originals` keeps at
#: hand: all of a small checkpoint's, the most recently read of a large one's.
_TEXT_BUDGET: Final = 16_000_000


def wanted_tokens(summaries: Iterable[str]) -> frozenset[bytes]:
    """The number tokens any of ``summaries`` can look up (``wanted`` for :func:`index_message`)."""
    wanted: set[bytes] = set()
    for summary in summaries:
        for atom in A.summary_atoms(summary):
            for group in A.lookup_keys(atom):
                wanted.update(key.encode() for key in group)
    return frozenset(wanted - _SHORT_TOKENS)


def evidence_text(content: str, tool_calls: Iterable[dict[str, Any]] = ()) -> str:
    """The text of a message as evidence: its content, then one line per tool call.

    Each call line is ``→ NAME {json args}``, so a status or amount in the
    arguments is read the way it is in a JSON tool result.  ``args`` may be
    given already encoded (``str`` or ``bytes`` of JSON), which spares the
    standard library's slower encoder.
    """
    lines = [content] if content else []
    for call in tool_calls:
        args = call.get("args")
        if isinstance(args, str | bytes):  # already JSON text (a caller with a faster encoder)
            rendered = args if isinstance(args, str) else args.decode("utf-8", "replace")
            lines.append(f"→ {as_text(call.get('name', ''))} {rendered}")
            continue
        try:
            rendered = json.dumps(args, ensure_ascii=False, separators=(",", ":"))
        except (TypeError, ValueError):
            rendered = json.dumps(args, ensure_ascii=False, separators=(",", ":"), default=str)
        lines.append(f"→ {as_text(call.get('name', ''))} {rendered}")
    return "\n".join(lines)


def index_message(
    text: str,
    *,
    role: str = "tool",
    tool_name: str | None = None,
    call_names: Sequence[str] = (),
    is_error: bool = False,
    wanted: frozenset[bytes] | None = None,
    keep_text: bool = True,
) -> MessageAtoms:
    """The cheap index of one message's evidence text (cache it by the message's digest).

    ``role`` and ``tool_name`` are the message's own; ``call_names`` the
    names of the tool calls it makes; ``is_error`` the runtime's own error
    flag on a tool result, when it has one.

    ``wanted`` (from :func:`wanted_tokens` over every summary to be checked)
    keeps only the number tokens some summary can ask for: about twice as
    fast, and the index a fraction of the size.  Messages indexed with a
    ``wanted`` set belong in an :class:`EvidenceIndex` built with the same set
    (and a cache of them is good for that set only).

    ``keep_text=False`` leaves the text out, for an index that reads it from
    :class:`Originals` when a lookup needs it.
    """
    raw = text.encode("utf-8", "surrogatepass")
    runs = number_runs(number_tokens(raw), wanted)
    error, kind = (
        reported_error(text, raw, is_error, tool_name)
        if role == "tool" or is_error
        else (None, None)
    )
    kept = text if keep_text else ""
    return MessageAtoms(kept, runs, role, tool_name, tuple(call_names), error, kind)


def number_tokens(raw: bytes) -> list[bytes]:
    """The number tokens of a text: maximal runs of digits and dots, where a run of two or
    three dots ends one (``2026-11-15..21`` and ``15...21``: a range's ends are numbers of
    their own; an ellipsis is no token).  Two byte replacements, only in a text that has
    two dots in a row: an ellipsis in every sentence costs a third of the tokenising, a
    loop over the tokens cost four times it."""
    translated = raw.translate(NUMBER_TOKENS)
    if b".." in translated:
        translated = translated.replace(b"...", b"   ").replace(b"..", b"  ")
    tokens = translated.split()
    if b"," in raw:
        # "82,6 %" is filed under "82.6" as well: a summary writes the share with a point
        tokens.extend(b"%s.%s" % m.groups() for m in _DECIMAL_COMMA.finditer(raw))
    return tokens


def number_runs(tokens: Iterable[bytes], wanted: frozenset[bytes] | None) -> frozenset[bytes]:
    """The number tokens a message is filed under: those some summary can ask for
    (``wanted``), or with ``None`` every one but a run of dots."""
    return frozenset(tokens) - _SHORT_TOKENS if wanted is None else wanted.intersection(tokens)


def reported_error(
    text: str, raw: bytes | None = None, is_error: bool = False, tool_name: str | None = None
) -> tuple[str | None, str | None]:
    """The error a tool result reports (its line) and the error's class, or ``(None, None)``;
    ``is_error`` is the runtime's own flag (then the first line is the error at least);
    ``tool_name`` says whether the call writes (a 4xx answer is then its failure)."""
    error = F.error_line(text, raw, write=O.is_write(tool_name))
    if error is None and is_error:
        error = (text.strip().split("\n", 1)[0] or "error")[:200]
    return error, None if error is None else F.error_class(error, text[:400])


# --------------------------------------------------------------------------- the index


class _Lookup(msgspec.Struct):
    """Candidates for one distinct atom, and each one's verdict once known."""

    candidates: list[int]
    state: bytearray
    upto: int  # messages filed when the candidates were last extended


class EvidenceIndex:
    """The evidence messages of one span chain, in expanded-transcript order.

    File messages with :meth:`add` (or pass them to the constructor); a
    summary's evidence is then a range ``[start, stop)`` of positions.
    Lookups may be made at any time; messages filed later are picked up.
    ``messages`` holds what was filed without its number tokens (``runs`` is empty
    there: the tokens are in the posting lists), so file a message again from what
    :func:`index_message` gave, not from ``messages``.
    """

    def __init__(
        self,
        items: Iterable[tuple[EvidenceRef, MessageAtoms]] = (),
        *,
        wanted: frozenset[bytes] | None = None,
        originals: Originals | None = None,
    ) -> None:
        self.wanted = wanted
        self._originals = originals  # None: the index keeps each message's text and ref
        self._refs: list[EvidenceRef] = []
        self._texts: dict[int, str] = {}  # texts read from the originals, the latest last
        self._text_chars = 0
        self.messages: list[MessageAtoms] = []
        self._postings: defaultdict[bytes, list[int]] = defaultdict(list)
        self._calls: dict[str, list[int]] = {}
        self._call_prefix: list[int] = [0]
        self._errors: list[int] = []
        self._error_groups: dict[tuple[str, str], list[int]] = {}
        self._anchors: dict[int, frozenset[str]] = {}
        self._failed_on: dict[int, frozenset[str]] = {}
        self._call_arguments: dict[int, tuple[Any, ...]] = {}
        self._error_lines: dict[int, tuple[str, ...]] = {}
        self._error_fields: dict[int, tuple[str, ...]] = {}
        self._error_line_atoms: dict[int, tuple[Atom, ...]] = {}
        self._tools: dict[str, list[int]] = {}
        self._tool_names: dict[str, list[int]] = {}
        self._lookups: dict[tuple[str, ...], _Lookup] = {}
        self._live_keys: dict[tuple[str, ...], tuple[int, tuple[str, ...]]] = {}
        self._facts: dict[int, MessageFacts] = {}
        self._counts: dict[tuple[int, int, str], bool] = {}
        self._numbers: dict[int, list[Decimal]] = {}  # a message's numbers (derived values)
        self._conflicts: dict[tuple[int, int, str, frozenset[str], bool], bool] = {}
        self._documents: dict[int, tuple[str, Any]] = {}  # a message's text and its JSON
        self._read: dict[int, MessageFacts] = {}  # what its text alone says (message_facts)
        for ref, atoms in items:
            self.add(ref, atoms)

    def __len__(self) -> int:
        return len(self.messages)

    def add(self, ref: EvidenceRef | None, atoms: MessageAtoms) -> int:
        """File one message; its position.  With :class:`Originals` the index keeps
        no ``ref`` (pass ``None``) and reads the text from them (index the message
        with ``keep_text=False``)."""
        position = len(self.messages)
        if self._originals is None:
            if ref is None:
                raise ValueError("an index without originals needs each message's ref")
            self._refs.append(ref)
        # its tokens live on in the posting lists, not in the message (they were most of
        # the index's memory)
        kept = atoms if atoms.runs is _NO_RUNS else MessageAtoms(atoms[0], _NO_RUNS, *atoms[2:])
        self.messages.append(kept)
        if atoms.error is not None:
            self._errors.append(position)
            key = (atoms.error_class or "failed", atoms.tool_name or atoms.role)
            self._error_groups.setdefault(key, []).append(position)
        if atoms.runs:
            postings = self._postings
            for run in atoms.runs:
                postings[run].append(position)
        calls = atoms.call_names
        if calls:
            for name in calls:
                self._calls.setdefault(name, []).append(position)
        self._call_prefix.append(self._call_prefix[-1] + len(calls))
        if atoms.tool_name and atoms.role == "tool":
            for word in O.tool_words(atoms.tool_name):
                self._tools.setdefault(word, []).append(position)
            self._tool_names.setdefault(atoms.tool_name, []).append(position)
        return position

    def ref(self, position: int) -> EvidenceRef:
        """How a finding cites the message at ``position``."""
        if self._originals is None:
            return self._refs[position]
        return self._originals.ref(position)

    def text(self, position: int) -> str:
        """The evidence text of the message at ``position``."""
        if self._originals is None:
            return self.messages[position].text
        texts = self._texts
        found = texts.pop(position, None)
        if found is None:
            found = self._originals.text(position)
            self._text_chars += len(found)
            while self._text_chars > _TEXT_BUDGET and texts:
                oldest = next(iter(texts))
                self._text_chars -= len(texts.pop(oldest))
        texts[position] = found  # (re)inserted last: the least recently read goes first
        return found

    # ------------------------------------------------------------ ranges

    def span(self, start: int, stop: int | None) -> tuple[int, int]:
        stop = len(self.messages) if stop is None else min(stop, len(self.messages))
        return max(0, start), stop

    def calls(self, name: str | None, start: int, stop: int) -> int:
        """Tool calls named ``name`` (any name when ``None``) made in ``[start, stop)``."""
        if name is None:
            return self._call_prefix[stop] - self._call_prefix[start]
        positions = self._calls.get(name, [])
        return bisect_left(positions, stop) - bisect_left(positions, start)

    def errors(self, start: int, stop: int) -> list[int]:
        """Positions in ``[start, stop)`` of tool results that report an error."""
        lo, hi = bisect_left(self._errors, start), bisect_left(self._errors, stop)
        return self._errors[lo:hi]

    def error_groups(self, start: int, stop: int) -> dict[tuple[str, str], tuple[int, list[int]]]:
        """Errors in ``[start, stop)`` by (class, tool): how many, and up to 20 of them.

        Kept per group at filing time, so a summary over a long range costs a
        binary search per group, not a pass over every error in it.
        """
        found: dict[tuple[str, str], tuple[int, list[int]]] = {}
        half = _CITED_ERRORS // 2
        for key, positions in self._error_groups.items():
            lo, hi = bisect_left(positions, start), bisect_left(positions, stop)
            if hi > lo:
                shown = (
                    positions[lo:hi]
                    if hi - lo <= _CITED_ERRORS
                    else (positions[lo : lo + half] + positions[hi - half : hi])
                )
                found[key] = (hi - lo, shown)
        return found

    def error_anchors(self, position: int) -> frozenset[str]:
        """The entities an error result names, with those of the call just before it."""
        cached = self._anchors.get(position)
        if cached is None:
            texts = [self.text(position)[:2000]]
            if position > 0 and self.messages[position - 1].call_names:
                # what the call was about: its short arguments, not a message it sends
                # ("text": a report naming every ticket of the session) nor its prose
                texts.extend(call_values(self.call_arguments(position)))
            keys = _entity_keys(texts)
            labels = call_labels(self.call_arguments(position))
            # a channel or a handle as a summary writes it, with or without its sign
            keys.update(label_key(v.lstrip("#@")) for v in labels)
            keys.update(label_key(v) for v in labels)
            keys.update("#" + run for text in texts for run in _LONG_NUMBER.findall(text))
            cached = self._anchors[position] = frozenset(keys)
        return cached

    def failed_on(self, position: int) -> frozenset[str]:
        """The entities the error result at ``position`` failed on: those its lines of
        error name and those its call asked about (a short argument, or a shell command's
        ``.../disputes/CB-88471/responses``), not every row of the output around them."""
        cached = self._failed_on.get(position)
        if cached is None:
            arguments = self.call_arguments(position)
            texts = call_values(arguments) + [
                _URL_PARTS.sub(" ", command[:2000])  # the ids of a URL's path
                for command in command_texts(arguments)
            ]
            keys = _entity_keys(texts)
            cached = self._failed_on[position] = self.error_line_entities(position) | keys
        return cached

    def call_arguments(self, position: int) -> tuple[Any, ...]:
        """The parsed JSON arguments of the call a tool result answers (:meth:`call_args`),
        read once for every error and summary that asks."""
        cached = self._call_arguments.get(position)
        if cached is None:
            cached = self._call_arguments[position] = tuple(
                _call_arguments(self.call_args(position))
            )
        return cached

    def error_line_atoms(self, position: int) -> tuple[Atom, ...]:
        """The atoms of the lines reporting the error at ``position`` (read once): what the
        call failed for ("lk-0f3a-88e1 unreachable") and the sizes and times it gives
        ("exceeds the 10 MB limit")."""
        cached = self._error_line_atoms.get(position)
        if cached is None:
            cached = self._error_line_atoms[position] = tuple(
                a for line in self.error_lines(position) for a in A.extract_atoms(line[:1000])
            )
        return cached

    def error_line_entities(self, position: int) -> frozenset[str]:
        """The entities the lines reporting the error at ``position`` name."""
        return frozenset(
            entity_key(a) for a in self.error_line_atoms(position) if a.kind in A.ENTITY_KINDS
        )

    def error_lines(self, position: int) -> tuple[str, ...]:
        """Every line of the error result at ``position`` that reports its error, the one
        it was filed with first (:func:`~foldctl.claims.failures.error_lines`)."""
        cached = self._error_lines.get(position)
        if cached is None:
            first = self.messages[position].error
            cached = tuple(F.error_lines(self.text(position), first)) if first else ()
            self._error_lines[position] = cached
        return cached

    def error_fields(self, position: int) -> tuple[str, ...]:
        """The short text fields of the error result at ``position`` when it is a JSON object
        (what the error is about: ``"vendor": "Rapid Rooter"``;
        :func:`~foldctl.claims.failures.json_fields`)."""
        cached = self._error_fields.get(position)
        if cached is None:
            error = self.messages[position].error is not None
            cached = tuple(F.json_fields(self.text(position))) if error else ()
            self._error_fields[position] = cached
        return cached

    def recent_results(self, start: int, stop: int, count: int) -> list[int]:
        """The last ``count`` tool results in ``[start, stop)`` (at most 10 times as many
        messages are looked at)."""
        found: list[int] = []
        position = stop - 1
        while position >= start and len(found) < count and stop - position <= 10 * count:
            if self.messages[position].role == "tool":
                found.append(position)
            position -= 1
        return found

    def tool_names(self, start: int, stop: int) -> list[tuple[str, list[int]]]:
        """The tools whose results are in ``[start, stop)``, each with those positions."""
        found = []
        for name, positions in self._tool_names.items():
            lo, hi = bisect_left(positions, start), bisect_left(positions, stop)
            if hi > lo:
                found.append((name, positions[lo:hi]))
        return found

    def tool_results(self, words: Iterable[str], start: int, stop: int) -> list[int]:
        """Positions in range of tool results whose tool name has one of ``words``, in order."""
        found: set[int] = set()
        for word in words:
            positions = self._tools.get(word)
            if positions:
                found.update(
                    positions[bisect_left(positions, start) : bisect_left(positions, stop)]
                )
        return sorted(found)

    def facts(self, position: int) -> MessageFacts:
        """What the message at ``position`` says of each thing (read once, kept).

        A tool result is also about what its call asked for: the entities of the call's
        arguments that the result does not name get the levels it reports of itself (the
        exit code of the script it ran, the HTTP status of the URL it fetched), and are its
        subject when it has none; what the call asked is a lesser fact of that subject.
        (Not the result's status: a page delivered for an incident says nothing of the
        incident.)"""
        found = self._facts.get(position)
        if found is None:
            found = message_facts(self.text(position))
            if O.is_getter(self.messages[position].tool_name):
                found = without_log_outcomes(found)
            error = self.messages[position].error
            if error is not None and not any(
                f.kind == A.STATUS and f.value in F.ERROR_FAMILIES for f in found.own
            ):  # a result that reports an error failed, whatever else it says
                found.own.append(Fact(A.STATUS, "failed", error, None, 3))
            asked = self.asked(position)
            if asked:
                text = self.text(position)
                levels = [f for f in found.own if f.kind == A.LEVEL]
                for key, written in asked.items():
                    named = written in text  # the result speaks of it: its outcome is its
                    own = found.own if named else levels
                    if key not in found.entities and own:
                        found.entities[key] = list(own)
                found.subject = found.subject or list(asked)
            if found.subject and self.messages[position].role == "tool" and error is None:
                # what the call asked is a fact of what the result is about (a lesser one);
                # a call that failed did not do what it asked
                for key, facts in asked_facts(self.call_args(position)).items():
                    for fact in facts:
                        found.add(found.subject, fact)
                    found.entities.setdefault(key, []).extend(facts)
            self._facts[position] = found
        return found

    def asked(self, position: int) -> dict[str, str]:
        """The entities a tool result's call named in its arguments (the call just before),
        each as written there."""
        message = self.messages[position]
        if message.role != "tool" or position == 0 or not self.messages[position - 1].call_names:
            return {}
        keys: dict[str, str] = {}
        for line in self.text(position - 1).splitlines():
            if line.startswith("→ "):
                for atom in A.extract_atoms(line[:4000]):
                    if atom.kind in A.ENTITY_KINDS:
                        keys.setdefault(entity_key(atom), atom.text)
        return keys

    def result_of(self, position: int, stop: int) -> int | None:
        """The tool result that answers the call message at ``position`` (the next message),
        when it is in range."""
        if not self.messages[position].call_names or position + 1 >= stop:
            return None
        return position + 1 if self.messages[position + 1].role == "tool" else None

    def call_args(self, position: int) -> str:
        """The argument text of the call a tool result answers (``""`` when none)."""
        message = self.messages[position]
        if message.role != "tool" or position == 0 or not self.messages[position - 1].call_names:
            return ""
        return "\n".join(
            line for line in self.text(position - 1).splitlines() if line.startswith("→ ")
        )

    # ------------------------------------------------------------ atom lookups

    def first_support(self, atom: Atom, start: int, stop: int) -> int | None:
        """The first message in ``[start, stop)`` that says what ``atom`` says."""
        return self._search(atom, start, stop, last=False)

    def last_support(self, atom: Atom, start: int, stop: int) -> int | None:
        """The last message in ``[start, stop)`` that names ``atom`` (an entity)."""
        return self._search(atom, start, stop, last=True)

    def supports_at(self, atom: Atom, position: int) -> bool:
        """Whether message ``position`` says what ``atom`` says."""
        return self._search(atom, position, position + 1, last=False) is not None

    def _search(self, atom: Atom, start: int, stop: int, *, last: bool) -> int | None:
        lookup_key = (atom.kind, atom.value, atom.text if atom.kind == A.DURATION else "")
        lookup = self._lookups.get(lookup_key)
        groups = A.lookup_keys(atom) if atom.kind != "lemma" else ()
        if lookup is None:
            lookup = self._lookups[lookup_key] = _Lookup([], bytearray(), 0)
        self._extend(lookup, groups)
        candidates, state = lookup.candidates, lookup.state
        lo, hi = bisect_left(candidates, start), bisect_left(candidates, stop)
        if last:
            while hi > lo:
                k = max(state.rfind(_YES, lo, hi), state.rfind(_UNKNOWN, lo, hi))
                if k < 0:
                    return None
                if state[k] == _UNKNOWN:
                    state[k] = _YES if self._verify(atom, groups, candidates[k]) else _NO
                if state[k] == _YES:
                    return candidates[k]
                hi = k
            return None
        while lo < hi:
            yes, unknown = state.find(_YES, lo, hi), state.find(_UNKNOWN, lo, hi)
            k = min(i for i in (yes, unknown) if i >= 0) if max(yes, unknown) >= 0 else -1
            if k < 0:
                return None
            if state[k] == _UNKNOWN:
                state[k] = _YES if self._verify(atom, groups, candidates[k]) else _NO
            if state[k] == _YES:
                return candidates[k]
            lo = k + 1
        return None

    def _extend(self, lookup: _Lookup, groups: tuple[tuple[str, ...], ...]) -> None:
        total = len(self.messages)
        if lookup.upto == total:
            return
        groups = tuple(g for g in groups if all(self._filed(k.encode()) for k in g))
        if groups:
            fresh: set[int] | None = None
            for group in sorted(groups, key=self._group_size):
                found: set[int] = set()
                for key in group:
                    positions = self._postings.get(key.encode(), ())
                    found.update(positions[bisect_left(positions, lookup.upto) :])
                fresh = found if fresh is None else fresh & found
                if not fresh:
                    break
            added = sorted(fresh or ())
        else:
            added = list(range(lookup.upto, total))
        lookup.candidates.extend(added)
        lookup.state.extend(bytes(len(added)))
        lookup.upto = total

    def _filed(self, key: bytes) -> bool:
        """Whether messages are filed under ``key`` (a group with an unfiled key is no filter)."""
        return key not in _SHORT_TOKENS and (self.wanted is None or key in self.wanted)

    def _holds(self, key: str, position: int) -> bool:
        """Whether the message at ``position`` may hold ``key`` as a number token: False only
        when ``key`` is filed and the message is not among its postings (a tokeniser that
        reads the text the same way as :func:`_occurrences` then finds no occurrence)."""
        token = key.encode()
        if not self._filed(token):
            return True
        positions = self._postings.get(token)
        if not positions:
            return False
        i = bisect_left(positions, position)
        return i < len(positions) and positions[i] == position

    def _group_size(self, group: tuple[str, ...]) -> int:
        return sum(len(self._postings.get(key.encode(), ())) for key in group)

    def _live(self, group: tuple[str, ...]) -> tuple[str, ...]:
        """The keys of ``group`` a message may hold: unfiled, or filed under some message
        (a day and month with no year has hundreds of dotted forms, most held by none)."""
        cached = self._live_keys.get(group)
        if cached is None or cached[0] != len(self.messages):
            live = tuple(
                key
                for key in group
                if not self._filed(key.encode()) or key.encode() in self._postings
            )
            cached = self._live_keys[group] = (len(self.messages), live)
        return cached[1]

    def _verify(self, atom: Atom, groups: tuple[tuple[str, ...], ...], position: int) -> bool:
        if groups:
            keys = [key for key in self._live(groups[0]) if self._holds(key, position)]
            if not keys:
                return False
            text = self.text(position)
            for key in keys:
                for spelled in _spellings(key):
                    for index in _occurrences(text, spelled):
                        if _token_or_window(atom, text, index, index + len(spelled)):
                            return True
            return False
        text = self.text(position)
        target = A.needle(atom)
        if atom.kind == "lemma":
            return target in text or target.capitalize() in text or target.upper() in text
        if atom.kind in (A.HANDLE, A.NAME, LABEL):
            return _word_in(target, text.lower())
        haystack = text
        if target not in text:
            if (atom.kind == A.EMAIL and "@" in text) or (atom.kind == A.URL and "://" in text):
                haystack = text.lower()
            else:
                return False
            if target not in haystack:
                return False
        for index in _substring_occurrences(haystack, target):
            if _token_or_window(atom, text, index, index + len(target)):
                return True
        return False

    # ------------------------------------------------------------ small counts

    def small_count_support(self, number: int, lemma: str, start: int, stop: int) -> bool | None:
        """Whether a small count (``2 options``) is borne out in ``[start, stop)``.

        ``None`` when the noun appears nowhere in range (nothing to check a count
        of); ``True`` when some message names the noun with the number on the
        same line, or enumerates exactly that many items; ``False`` otherwise.
        """
        stem = _count_stem(lemma)
        seen = False
        for found in self._naming(stem, start, stop):
            seen = True
            key = (found, number, stem)
            verdict = self._counts.get(key)
            if verdict is None:
                text, document = self._document(found)
                verdict = self._counts[key] = _count_in_message(
                    text, number, stem, document, partial(self._read_facts, found)
                )
            if verdict:
                return True
        return None if not seen else False

    def _document(self, position: int) -> tuple[str, Any]:
        """A message's text and the JSON document it is (or None), parsed once."""
        found = self._documents.get(position)
        if found is None:
            text = self.text(position)
            found = self._documents[position] = (text, _json_of(text))
        return found

    def _read_facts(self, position: int) -> MessageFacts:
        """What a message's text alone says (:func:`message_facts`, without what its call
        asked), read once for every count looked up in it: a long message was read again
        for each count and noun, 8 s of a 10,000-sentence summary's check."""
        found = self._read.get(position)
        if found is None:
            found = self._read[position] = message_facts(self._document(position)[0])
        return found

    def _naming(self, stem: str, start: int, stop: int) -> Iterator[int]:
        """The first few messages in ``[start, stop)`` that name ``stem`` (at most
        :data:`_COUNT_CANDIDATES`), in order."""
        probe = Atom("lemma", stem, stem, 0, 0)
        position = start
        for _ in range(_COUNT_CANDIDATES):
            if position >= stop:
                return
            found = self._search(probe, position, stop, last=False)
            if found is None:
                return
            yield found
            position = found + 1

    def numbers(self, position: int) -> list[Decimal]:
        """The numbers a message writes (:func:`foldctl.claims.derived.numbers_in`), read once
        for every summary that draws on it."""
        found = self._numbers.get(position)
        if found is None:
            from foldctl.claims.derived import numbers_in

            text = self.text(position)
            found = self._numbers[position] = numbers_in(text[:_NUMBERS_READ])
        return found

    def small_count_conflict(
        self,
        number: int,
        lemma: str,
        start: int,
        stop: int,
        said: frozenset[str] = frozenset(),
        *,
        part: bool = False,
    ) -> bool:
        """Whether a message in ``[start, stop)`` gives another count of the noun of a small
        count (``3 items`` against "4 items"): the strong evidence against it.  With
        ``part``, the count is of the items with a property ("1 pair flagged"): a longer
        list of them is the whole, not another count."""
        stem = _count_stem(lemma)
        naming: Iterable[int] = self._naming(stem, start, stop)
        if stem in _TEST_NOUNS:  # a test runner counts its tests without the word
            runner = (*self._naming("collected", start, stop), *self._naming("passed", start, stop))
            naming = sorted({*naming, *runner})
        for found in naming:
            key = (found, number, stem, said, part)
            verdict = self._conflicts.get(key)
            if verdict is None:
                text, document = self._document(found)
                verdict = self._conflicts[key] = count_conflict(
                    text, document, number, stem, said, part=part,
                    facts=partial(self._read_facts, found),
                )  # fmt: skip
            if verdict:
                return True
        return False


def _count_stem(lemma: str) -> str:
    """The stem a count's noun is searched by: its last word (``entry``/``entries`` as
    ``entr``)."""
    stem = lemma.split()[-1]
    return stem[:-1] if len(stem) > 4 and stem.endswith("y") else stem


def count_conflict(
    text: str,
    document: Any,
    number: int,
    stem: str,
    said: frozenset[str] = frozenset(),
    *,
    part: bool = False,
    facts: Callable[[], MessageFacts] | None = None,
) -> bool:
    """Whether ``text`` gives another count of things named like ``stem``: a number
    written with the noun (``3 items``, ``items: 3``) or a JSON array of another length
    under a key named like it, and nowhere ``number`` of them (nor ``number`` on a line
    with a word the summary ``said`` beside its count: "9 rows rejected", "9 rejected").
    ``document`` is the JSON document ``text`` is, or None (:func:`_json_of`); ``facts``
    what it says, when read already (:func:`message_facts`)."""
    if _count_in_message(text, number, stem, document, facts):
        return False
    digits = re.compile(rf"(?<![\d.,:/-]){number}(?![\d.,:/-])")
    for line in text.splitlines():
        if digits.search(line) and said & set(re.findall(r"[a-z]{4,}", line.lower())):
            return False  # the number is there, with what the summary says of it
    if document is not None and _json_lengths(document, stem, number if part else None):
        return True
    pattern = _count_pattern(stem)
    if any(
        _another_count(int((m.group("a") or m.group("b")).replace(",", "")), number)
        for line in text.splitlines()
        if stem in line.lower()
        for m in pattern.finditer(line.lower())
    ):
        return True
    if stem in _TEST_NOUNS:
        ran = _tests_ran(text)
        return number not in ran and any(_another_count(seen, number) for seen in ran)
    return False


#: The nouns a test runner's count is of.
_TEST_NOUNS: Final = frozenset({"test", "testcase", "spec"})
#: pytest's "collected 715 items" and its closing line "=== 712 passed, 3 failed in 9.1s ===",
#: which count tests without the word.
_COLLECTED: Final = lazy(r"(?m)^collected (\d{1,3}(?:,\d{3})+|\d{1,7}) items?\b")
_RUN_SUMMARY: Final = lazy(
    r"(?m)^=+ ([^=\n]{1,200}) in \d{1,6}(?:\.\d{1,3})?s\b[^=\n]{0,40}=+[ \t]*$"
)
_OUTCOME: Final = lazy(
    r"(?<![\d,.])(\d{1,3}(?:,\d{3})+|\d{1,7}) (?:passed|failed|skipped|errors?|xfailed|xpassed)\b"
)


def _tests_ran(text: str) -> set[int]:
    """How many tests a test runner's output says it ran: the count it collected, and the
    sum of the outcomes on its closing line."""
    ran = {int(m.group(1).replace(",", "")) for m in _COLLECTED.finditer(text)}
    for summary in _RUN_SUMMARY.finditer(text):
        outcomes = [int(n.replace(",", "")) for n in _OUTCOME.findall(summary.group(1))]
        if outcomes:
            ran.add(sum(outcomes))
    return ran


def _another_count(seen: int, number: int) -> bool:
    """Whether the originals' count ``seen`` of a noun says ``number`` of it is wrong: more
    than the originals count ("4 items" of 2), or a few fewer ("51 hosts" of 56); not far
    fewer, a part of the whole ("two submissions look alike" of 36 submissions)."""
    return seen != number and (number > seen or 3 * number >= seen)


@lru_cache(maxsize=256)
def _count_pattern(stem: str) -> re.Pattern[str]:
    """A count written with the noun: ``3 items``, ``1,204 items``, ``items: 3``,
    ``item count = 3``, an aligned ``kits:      40``, a JSON ``"hard": 1204``."""
    word = re.escape(stem)
    number = r"\d{1,3}(?:,\d{3})+|\d{1,7}"
    return re.compile(
        rf"(?<![\w.,:/-])(?P<a>{number}) {word}\w{{0,3}}\b"
        rf"|\b{word}\w{{0,3}}(?: [a-z]{{1,12}}){{0,2}}\"?[ \t]{{0,40}}[:=][ \t]{{0,40}}"
        rf"(?P<b>{number})(?![\w.:/-]|,\d)"
    )


def _json_lengths(value: Any, stem: str, part: int | None = None, depth: int = 0) -> bool:
    """Whether ``value`` holds an array named like ``stem`` (of another length than the
    count, :func:`_count_in_message` having found none of it); with ``part`` (the count of
    the items with a property), only one shorter than it."""
    if depth > _MAX_DEPTH:
        return False
    if isinstance(value, dict):
        for key, item in value.items():
            named = isinstance(item, list) and A.singular(str(key)).startswith(stem)
            if named and (part is None or len(item) < part):
                return True  # an array of the noun, not of that length
            if isinstance(item, dict | list) and _json_lengths(item, stem, part, depth + 1):
                return True
    elif isinstance(value, list):
        return any(_json_lengths(item, stem, part, depth + 1) for item in value)
    return False


def _json_of(text: str) -> Any:
    """The JSON document a message's text is, or None (text that is not one)."""
    stripped = text.strip()
    if stripped[:1] not in ("{", "["):
        return None
    try:
        return json.loads(stripped)
    except (ValueError, RecursionError):
        return None


def _count_in_message(
    text: str,
    number: int,
    stem: str,
    value: Any,
    facts: Callable[[], MessageFacts] | None = None,
) -> bool:
    """Whether ``text`` counts ``number`` things named like ``stem``.

    On one line with the noun (``2 pages``, ``seats: 12``), as that many list
    items (numbered or bulleted lines), as that many rows under a header line
    naming the noun (``applied migrations`` then one line each), or as a JSON
    array of that many elements under a key named like the noun
    (``"items": [...]``); ``value`` is the JSON document ``text`` is (:func:`_json_of`),
    ``facts`` what it says when read already (:func:`message_facts`).
    """
    if value is not None and _json_count(value, number, stem):
        return True
    words = {w for w, n in A.NUMBER_WORDS.items() if n == number}
    digits = re.compile(rf"(?<![\d.]){number}(?!\d|\.\d)")
    for line in text.splitlines():
        lowered = line.lower()
        if stem not in lowered:
            continue
        if digits.search(line) or any(re.search(rf"\b{w}\b", lowered) for w in words):
            return True
    items = _LIST_ITEM.findall(text)
    if len(items) == number:
        return True
    lines = [line for line in text.splitlines() if line.strip()]
    if lines and stem in lines[0].lower() and len(lines) - 1 == number:
        return True  # a listing whose header names the noun: its rows
    # a field or a column named like the noun ("RESTARTS  2")
    read = facts() if facts is not None else message_facts(text)
    return any(
        fact.kind == "number" and fact.value == str(number) and A.singular(fact.key or "") == stem
        for listed in read.entities.values()
        for fact in listed
    )


_LIST_ITEM: Final = lazy(r"(?m)^[ \t]*(?:\d+[.)]|[-*•])[ \t]+\S")


def _json_count(value: Any, number: int, stem: str, depth: int = 0) -> bool:
    if depth > _MAX_DEPTH:
        return False
    if isinstance(value, dict):
        for key, item in value.items():
            named = isinstance(item, list) and A.singular(str(key)).startswith(stem)
            if named and len(item) == number:
                return True
            if isinstance(item, dict | list) and _json_count(item, number, stem, depth + 1):
                return True
    elif isinstance(value, list):
        return any(_json_count(item, number, stem, depth + 1) for item in value)
    return False


#: A key this short occurs everywhere inside longer numbers; it is searched with a pattern
#: that skips those in C.  A longer key is rare enough to check occurrence by occurrence
#: (and compiling a pattern for each of thousands of distinct keys costs more).
_SHORT_KEY: Final = 2


@lru_cache(maxsize=256)
def _token_pattern(key: str) -> re.Pattern[str]:
    """``key`` with no ASCII digit or dot after it (a literal first, so the engine
    jumps from one occurrence to the next in C)."""
    return re.compile(rf"{re.escape(key)}(?![0-9.])")


def _candidates(text: str, key: str) -> Iterator[int]:
    if len(key) <= _SHORT_KEY:
        for match in _token_pattern(key).finditer(text):
            yield match.start()
        return
    index = text.find(key)
    while index >= 0:
        yield index
        index = text.find(key, index + len(key))


def _occurrences(text: str, key: str) -> Iterator[int]:
    """Where ``key`` occurs in ``text`` as a whole number token (digits and dots)."""
    found = 0
    size = len(key)
    for index in _candidates(text, key):
        end = index + size
        if index and (text[index - 1].isdigit() or _lone_dot(text, index - 1)):
            continue
        if end < len(text) and (text[end].isdigit() or _lone_dot(text, end)):
            continue
        yield index
        found += 1
        if found >= _MAX_OCCURRENCES:
            return


def _spellings(key: str) -> tuple[str, ...]:
    """How a message may write a number token: as it is, and a short decimal with a comma
    ("82.6" as "82,6": :func:`number_tokens` files that under "82.6" too)."""
    whole, dot, places = key.partition(".")
    if dot and 1 <= len(places) <= 2 and "." not in places and 1 <= len(whole) <= 3:
        return (key, f"{whole},{places}")
    return (key,)


def _lone_dot(text: str, at: int) -> bool:
    """Whether ``text[at]`` is a dot of a number (a decimal point), not one of a run of
    dots (``15..21``), which ends the number."""
    return text[at] == "." and text[at - 1 : at] != "." and text[at + 1 : at + 2] != "."


def _substring_occurrences(text: str, target: str) -> Iterator[int]:
    index = text.find(target)
    found = 0
    while index >= 0 and found < _MAX_OCCURRENCES:
        found += 1
        yield index
        index = text.find(target, index + 1)


def _token_or_window(atom: Atom, text: str, start: int, end: int) -> bool:
    """Whether the evidence at ``text[start:end]`` (a key or needle hit) supports ``atom``."""
    decided = A.token_supports(atom, text, start, end)
    if decided is not None:
        return decided
    reach = 300 if atom.kind in (A.URL, A.PATH, A.EMAIL) else _WINDOW
    lo = max(0, start - _WINDOW)
    hi = min(len(text), end + _WINDOW)
    while lo > 0 and start - lo < reach and not text[lo - 1].isspace():
        lo -= 1
    while hi < len(text) and hi - end < reach and not text[hi].isspace():
        hi += 1
    window = text[lo:hi]
    for seen in A.extract_atoms(window, all_numbers=True):
        if seen.start + lo < end and seen.end + lo > start and A.supports(atom, seen):
            return True
    return False


_LONG_NUMBER: Final = lazy(r"(?<![\w.])(\d{4,12})(?![\w.])")
#: The kind of a pseudo-atom: a thing a summary names that the originals know by a name
#: (a job, a table row): ``value`` is its :func:`~foldctl.claims.facts.label_key`.
LABEL: Final = "label"
_CALL_ARGS: Final = lazy(r"^→ [\w.:-]+ (?P<args>\{.*\})\s*$", re.MULTILINE)


def _call_arguments(calls: str) -> Iterator[Any]:
    """The parsed JSON arguments of each ``→ NAME {args}`` line (unreadable ones left out)."""
    for m in _CALL_ARGS.finditer(calls[:20_000]):
        try:
            yield json.loads(m.group("args"))
        except (ValueError, RecursionError):
            continue


def call_values(arguments: Iterable[Any]) -> list[str]:
    """The string values of tool-call arguments, at any depth of their JSON, but for the
    body of what a call sends (``text``, ``body``, ``message``...): what a call names
    (``INC-20931``, ``#data-eng``, a subject line), not the report it posts."""
    found: list[str] = []
    for args in arguments:
        stack: list[Any] = [args]
        while stack and len(found) < 200:
            item = stack.pop()
            if isinstance(item, dict):
                stack.extend(v for k, v in item.items() if str(k).lower() not in BODY_KEYS)
            elif isinstance(item, list):
                stack.extend(item)
            elif isinstance(item, str) and len(item) <= 200:
                found.append(item)
    return found


def command_programs(arguments: Iterable[Any]) -> set[str]:
    """The programs the shell commands of tool-call arguments run and their subcommands
    (``restic`` of ``{"command": "timeout 300 restic -r s3:... check"}``, ``vetlink`` and
    ``sync`` of ``vetlink sync --lab idexx``): the names a summary may call a failed
    command by."""
    return {name for command in command_texts(arguments) for name in F.command_names(command)}


def command_operations(arguments: Iterable[Any]) -> tuple[list[str], list[str]]:
    """What the shell commands of tool-call arguments do: the words of their programs and
    subcommands (``edi-send``, ``wmap export``: the verbs among them are what they do), and
    for an HTTP client the last word of the URL's path, what it acts on (``advices`` of
    ``curl -X POST https://cashadvice.example/api/v1/advices``).  A program's own name
    names nothing a summary says ("claimdocs push" is no "claim")."""
    programs: list[str] = []
    paths: list[str] = []
    for command in command_texts(arguments):
        names = F.command_names(command)
        if names and names[0] not in _HTTP_CLIENTS:
            programs.append(" ".join(names))
        for url in _URL.findall(command[:2000]):
            path = [
                part
                for part in url.split("?", 1)[0].split("/")[3:]
                if _PATH_WORD.fullmatch(part) and part.lower() not in _PATH_NOISE
            ]
            if path:
                paths.append(path[-1])
    return programs, paths


#: Programs that call a URL: what they do is the URL's.
_HTTP_CLIENTS: Final = frozenset({"curl", "wget", "http", "https", "httpie", "xh"})
_URL: Final = lazy(r"https?://[^\s'\"]{1,300}")
#: A word of a URL's path that names what it acts on (``advices``, ``pickups``).
_PATH_WORD: Final = lazy(r"[A-Za-z][A-Za-z_-]{2,30}")
_PATH_NOISE: Final = frozenset({"api", "rest", "json", "v1", "v2", "v3", "public", "internal"})


def command_texts(arguments: Iterable[Any]) -> list[str]:
    """The shell commands of tool-call arguments (``{"command": "curl ..."}``)."""
    return [
        value
        for args in arguments
        if isinstance(args, dict)
        for key, value in args.items()
        if str(key).lower() in _COMMAND_KEYS and isinstance(value, str)
    ]


def _entity_keys(texts: Iterable[str]) -> set[str]:
    """The keys of the entities ``texts`` name (:func:`~foldctl.claims.facts.entity_key`)."""
    return {
        entity_key(a) for text in texts for a in A.extract_atoms(text) if a.kind in A.ENTITY_KINDS
    }


#: Tool-call argument keys that hold a shell command.
#: What parts a URL or a file argument in a shell command: its ids stand between them.
_URL_PARTS: Final = lazy(r"[/@?&=]")
_COMMAND_KEYS: Final = frozenset({"command", "cmd", "script", "shell"})


def call_labels(arguments: Iterable[Any]) -> list[str]:
    """The short string values of tool-call arguments (``deploy-preview``, ``prod``): the
    names a summary may call the operation by."""
    return [
        value
        for args in arguments
        if isinstance(args, dict)
        for value in args.values()
        if isinstance(value, str) and 1 < len(value) <= 40 and " " not in value
    ]


def _word_in(word: str, text: str) -> bool:
    """Whether ``word`` occurs in ``text`` as a word of its own (not inside a longer one)."""
    at = text.find(word)
    while at >= 0:
        before = text[at - 1] if at else " "
        after = text[at + len(word)] if at + len(word) < len(text) else " "
        if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
            return True
        at = text.find(word, at + 1)
    return False
