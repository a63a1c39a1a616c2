"""A summary against the evidence it stands for: unsupported, contradicted, dropped.

The caller gathers the evidence (a span's messages and, recursively, the originals of the
summaries nested in it, never a nested summary's own text) and files it in an
:class:`~foldctl.claims.index.EvidenceIndex`; this module reads the summary clause by
clause into claims (a subject, what is said of it) and compares each with the facts the
originals give the same subject (:mod:`foldctl.claims.facts`).  See ``docs/claims.md``
for the rules.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from decimal import Decimal
from functools import lru_cache
from itertools import pairwise
from typing import Any, Final

import msgspec

from foldctl.claims import atoms as A
from foldctl.claims import derived as D
from foldctl.claims import failures as F
from foldctl.claims import vocab as V
from foldctl.claims.atoms import Atom
from foldctl.claims.atoms import words as _words
from foldctl.claims.facts import (
    LOG_KEYS,
    LOG_LEVEL,
    RANK_AGREES_ONLY,
    ROW,
    Fact,
    entity_key,
    label_key,
    outcome_counts,
)
from foldctl.claims.index import (
    LABEL,
    EvidenceIndex,
    EvidenceRef,
    MessageAtoms,
    call_labels,
    call_values,
    command_operations,
    command_programs,
)
from foldctl.claims.operations import (
    GENERIC_TOOL_WORDS,
    IRREGULAR_DONE,
    is_done_form,
    names_object,
    names_operation,
    notice_done,
    operation_words,
    runs_commands,
    told_done_of,
    tool_words,
)
from foldctl.lazyre import lazy

UNSUPPORTED: Final = "unsupported"
CONTRADICTED: Final = "contradicted"
DROPPED: Final = "dropped"
UNVERIFIABLE: Final = "unverifiable"
UNVERIFIED: Final = "unverified"
KINDS: Final = (UNSUPPORTED, CONTRADICTED, DROPPED, UNVERIFIED, UNVERIFIABLE)


class ClaimFinding(msgspec.Struct, frozen=True):
    """One thing a summary gets wrong (or that cannot be confirmed), with what a reviewer
    needs to check it.

    ``atom`` is the text as the summary wrote it (for ``dropped``, the error line of the
    original); ``atom_kind`` its kind (``error`` for ``dropped``); ``normalised`` its
    normalised value (for ``dropped``, ``CLASS:TOOL``, e.g. ``timeout:lookup_flight``);
    ``expected`` what the originals say instead (``contradicted``; for ``unverified``, how
    the value may be derived); ``sentence`` the summary sentence holding the atom,
    ``start``/``end`` the atom's offsets in it and ``offset`` the sentence's offset in the
    summary; ``entity`` the entity a contradicted value belongs to.  ``evidence`` cites
    messages: for ``contradicted`` the message with the other value, for ``dropped`` the
    error result(s), for an ``unverifiable`` atom the earlier summary it was carried over
    from; for ``unsupported`` and ``unverified`` nothing supports the atom, so it names
    the first and last message searched and ``searched`` how many (every message of the
    range; the caller holds the full list, which would make a long chain's findings
    quadratic).
    """

    kind: str
    atom: str
    atom_kind: str
    normalised: str
    expected: str | None = None
    sentence: str | None = None
    start: int | None = None
    end: int | None = None
    offset: int | None = None
    entity: str | None = None
    evidence: tuple[EvidenceRef, ...] = ()
    searched: int = 0


def unverifiable(summary: str) -> ClaimFinding:
    """The finding for a summary whose originals were not retained: nothing to check against."""
    return ClaimFinding(kind=UNVERIFIABLE, atom=summary[:200], atom_kind="summary", normalised="")


def check_summary(
    summary: str,
    evidence: EvidenceIndex | Iterable[tuple[EvidenceRef, MessageAtoms]],
    *,
    start: int = 0,
    stop: int | None = None,
    context: int | None = None,
    carried: Sequence[tuple[EvidenceRef, str]] = (),
) -> list[ClaimFinding]:
    """The findings of ``summary`` against ``evidence[start:stop]``, in summary order.

    ``evidence`` is an :class:`EvidenceIndex` shared by a span chain (pass the
    range this summary stands for), or the (ref, atoms) pairs of its evidence
    messages.  With no evidence at all the summary is :func:`unverifiable`.
    A faithful summary yields an empty list.  ``context`` (a position before
    ``start``) makes the messages ``[context, start)`` — the conversation before
    the summary's originals — support a plain atom (an id, an amount, a date...)
    that the originals do not hold: a summary may restate what was known; counts,
    statuses and errors are still judged against the originals alone.
    ``carried``: earlier summaries inside the range whose own originals were
    discarded (each cited by its ref): what the summary repeats from them can be
    confirmed by nothing retained, so it is ``unverifiable``, not ``unsupported``.
    """
    index = evidence if isinstance(evidence, EvidenceIndex) else EvidenceIndex(evidence)
    start, stop = index.span(start, stop)
    if stop <= start:
        return [unverifiable(summary)]
    before = start if context is None else max(0, min(context, start))
    return _Check(summary, index, start, stop, before, carried).run()


# --------------------------------------------------------------------------- sentences

_ABBREVIATIONS: Final = frozenset(
    _words(
        "mr mrs ms dr vs etc e.g i.e approx no inc ltd st jan feb mar apr jun jul aug sep "
        "sept oct nov dec rev fig prof"
    )
)
#: Abbreviations written only before a number ("no. 921 604 117", "fig. 3").
_BEFORE_NUMBER: Final = frozenset(("no", "fig"))
#: A run of end marks is tried from its first mark only, and taken whole (possessive),
#: so a run that no space follows costs its length once, not its length squared.
_SENTENCE_END: Final = lazy(r"(?<![.!?])[.!?]++[\"')\]]*+\s+|\n\s*")
#: The word before a sentence end (tried from the start of a run only, as above).
_LAST_TOKEN: Final = lazy(r"(?<![\w.])[\w.]++$")
_CLAUSE_BREAK: Final = lazy(
    r";|\s[—–]\s|\s-\s"
    # not before the clause's own call: "was ordered but the call timed out"
    r"|,?(?<!\s)\s{1,4}(?:but(?!\s{1,4}(?:the|its|that)\s{1,3}(?:call|request|attempt)\b)"
    r"|while|whereas|although|though|however|meanwhile)\s{1,4}"
    # ", and" before a new subject: "the rest was released, and Lakeside's panel was pushed";
    # not a retry of the same call: "got a 502, and the retry also failed"
    r"|,\s{1,3}and\s{1,3}(?=(?:the|its|their|his|her|[A-Z][a-z]+)\b)"
    r"(?!the\s{1,3}(?:retry|rerun|resend|second|next|third)\b)"
)
_PREPOSITIONS: Final = frozenset(
    _words("for of to from on with against via by about in under per after into onto toward")
)
_NUMERIC: Final = frozenset({A.MONEY, A.NUMBER, A.PERCENT, A.COUNT, A.DURATION, A.QUANTITY})
_APPROXIMATELY: Final = frozenset(
    _words("about around roughly approximately nearly almost over under some circa estimated")
)
_ROUNDED_SUFFIX: Final = lazy(r"\d\s?(?:k|K|m|M|bn|thousand|million|billion)$")
#: Words that end a prepositional phrase, looking back from an entity.
_PHRASE_BREAKS: Final = frozenset(
    ["as", "is", "was", "are", "were", "and", "or", "named", "called", "id"]
)
#: Where a phrase ends, looking back from an entity: a comma ("T-22 waiting on customer,
#: T-25 cancelled"), a semicolon, a colon, or the end of a sentence ("... declined for
#: insufficient funds. PAY-8477 is scheduled").
_PHRASE_END: Final = lazy(r"[,;]|[.:!?](?=\s)")
#: A word of a phrase: a hyphenated compound is one ("the start-of-care visit"), and so
#: is a number with what is written to it.
_PHRASE_WORD: Final = lazy(r"[A-Za-z]+(?:-[A-Za-z]+)*|\d\S*")
#: Nouns of a deed done to a thing (a noun made of a verb without a suffix): the thing
#: after their preposition is what the clause is about ("the restore of bkp-...").
_DEED_NOUNS: Final = frozenset(
    _words(
        "restore backup refund release transfer return deploy rollout upgrade update "
        "import export sync rebuild rerun retry reboot restart renewal approval dispatch"
    )
)
_DEED_SUFFIXES: Final = ("ing", "tion", "sion", "ment")
#: Words before a status that claim it holds now: an earlier stage is then no excuse.
_PRESENT: Final = frozenset(
    ["is", "are", "remains", "remain", "still", "currently", "now", "stays", "keeps"]
)
#: How many earlier mentions of an entity are read back for a value when the last gives none.
_LOOK_BACK: Final = 50
#: A verb right after an entity that makes it the subject of a clause of its own.
_OWN_VERB: Final = lazy(r"[ \t]{1,3}(?:is|was|are|were|has|had|have)\b")
#: A level set off by a comma just after an entity, with at most its scale's word between
#: ("VET-26-3381, priority P2"): the entity's own.
_APPOSED: Final = lazy(r", (?:[a-z]+ )?")
#: Words that name the attribute an amount is (``total $310``, ``a $46.50 duty``).
_MONEY_WORDS: Final = frozenset(
    _words(
        "total subtotal fare rate nightly night price unit fee fees net gross duty refund "
        "amount balance tax shipping cost deposit due charge charged paid premium discount "
        # what a limit, a share or a part of an amount is called ("sublimit 25.000,00 EUR")
        "limit sublimit deductible excess cap reserve headroom share copay coinsurance "
        "instalment installment down budget quote estimate payout allowance threshold "
        "minimum maximum exposure"
    )
)


def sentences(text: str) -> list[tuple[int, int]]:
    """The sentences of ``text`` as (start, end) offsets, trimmed."""
    spans: list[tuple[int, int]] = []
    begin = 0
    for match in _SENTENCE_END.finditer(text):
        if match.group().strip() and not match.group().startswith("\n"):
            words = _LAST_TOKEN.findall(text[max(begin, match.start() - 40) : match.start()])
            last = words[-1].lower() if words else ""
            after_number = text[max(begin, match.start() - len(last) - 2) : match.start()][:1]
            # an initial stands alone ("J. Smith"), not at the end of a name ("#shed-b.")
            joined = text[max(0, match.start() - len(last) - 1) : match.start() - len(last)]
            initial = len(last) == 1 and last.isalpha() and joined not in ("-", "/", "#")
            if (
                (last in _ABBREVIATIONS or initial)
                and not after_number.isdigit()  # "in 840 ms." and "after 11 s." end a sentence
                # "no." and "fig." abbreviate only before their number: "the DPO said no."
                and not (
                    last in _BEFORE_NUMBER and not text[match.end() : match.end() + 1].isdigit()
                )
            ):
                continue
        end = match.start() + len(match.group().rstrip())
        spans.append((begin, end))
        begin = match.end()
    spans.append((begin, len(text)))
    return [(s + _lead(text, s, e), e) for s, e in spans if text[s:e].strip()]


def _lead(text: str, start: int, end: int) -> int:
    return len(text[start:end]) - len(text[start:end].lstrip())


def _clauses(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    clauses: list[tuple[int, int]] = []
    for start, end in spans:
        begin = start
        for match in _CLAUSE_BREAK.finditer(text, start, end):
            clauses.append((begin, match.start()))
            begin = match.end()
        clauses.append((begin, end))
    return clauses


def _phrase_words(summary: str, end: int) -> list[str]:
    """The words of the phrase that ends at ``end`` (at most 40 characters back)."""
    before = summary[max(0, end - 40) : end]
    cut = 0
    for hit in _PHRASE_END.finditer(before):
        cut = hit.end()
    return _PHRASE_WORD.findall(before, cut)


def _topic(words: Sequence[str], at: int) -> bool:
    """Whether the entity after the preposition ``words[at]`` is still what its clause is
    about: the preposition opens the sentence ("For NLM-0421-PCT we paid ...", "After the
    correction NWL-2026-0412 sits ..."), or follows a deed done to the entity, a noun made
    of a verb ("the restore of bkp-20260515-0200 completed", "booking on LX1247 was
    cancelled", "the cancellation of SO-1")."""
    if at == 0:
        return True
    head = words[at - 1].lower()
    return head in _DEED_NOUNS or (len(head) > 5 and head.endswith(_DEED_SUFFIXES))


def _containing(
    spans: Sequence[tuple[int, int]], starts: Sequence[int], at: int, default: tuple[int, int]
) -> tuple[int, int]:
    """The span of sorted, non-overlapping ``spans`` (``starts``: their starts) that holds
    offset ``at``, else ``default``: ``next((s, e) for s, e in spans if s <= at < e)`` in
    log time."""
    k = bisect_right(starts, at) - 1
    if k >= 0 and spans[k][0] <= at < spans[k][1]:
        return spans[k]
    return default


# --------------------------------------------------------------------------- the check


class _Check:
    def __init__(
        self,
        summary: str,
        index: EvidenceIndex,
        start: int,
        stop: int,
        context: int,
        carried: Sequence[tuple[EvidenceRef, str]] = (),
    ) -> None:
        self.summary = summary
        self.index = index
        self.start = start
        self.stop = stop
        self.context = context  # [context, start): the conversation before, for plain atoms
        self.atoms = A.summary_atoms(summary)
        self.sentences = sentences(summary)
        self.clauses = _clauses(summary, self.sentences)
        # sorted starts, to find an atom's sentence and a span's atoms in log time
        self._atom_starts = [a.start for a in self.atoms]
        self._sentence_starts = [s for s, _ in self.sentences]
        self._clause_starts = [s for s, _ in self.clauses]
        self._covered = A.Covered((a.start, a.end) for a in self.atoms)
        self.carried = [(ref, A.summary_atoms(text), text.lower()) for ref, text in carried]
        self._searched: tuple[EvidenceRef, ...] | None = None
        self._levels: dict[int, list[Fact]] = {}  # a result's own levels, by position
        self._worked_out = 0  # numbers tried as worked out (:data:`_WORKED_OUT_BUDGET`)
        self._mention_list: list[_Mention] | None = None  # each clause's, read once
        # per tool, the words a clause tells its operation done by (read once)
        self._done_words: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
        # clauses whose failure words the originals bear out as a thing's own state ("DL-2219
        # failed" of a lot whose status is FAIL): data, not a tool's error told
        self._data_failures: set[tuple[int, int]] = set()

    # ------------------------------------------------------------ driver

    def run(self) -> list[ClaimFinding]:
        findings: list[ClaimFinding] = []
        contradicted = self._contradictions() if self.stop > self.start else {}
        for position, atom in enumerate(self.atoms):
            found = contradicted.get(position)
            if found is not None and self._weak_and_nowhere(atom, found):
                found = None  # read as any value is: found nowhere, it is unsupported
            if found is not None:
                carried = self._carried(atom, found.entity)
                if found.kind in (CONTRADICTED, UNVERIFIED) and carried is not None:
                    found = self._finding(UNVERIFIABLE, atom, evidence=(carried,))
                findings.append(found)
            elif (
                atom.kind in A.FACT_KINDS
                and not A.is_word_level(atom)
                and not self._approximate(atom)
            ):
                if self.stop > self.start and self._supported(atom):
                    continue
                carried = self._carried(atom)
                if carried is not None:
                    findings.append(self._finding(UNVERIFIABLE, atom, evidence=(carried,)))
                    continue
                derived = self._derived(atom) if atom.kind in _NUMERIC | {A.PERCENT} else None
                if derived is True:
                    continue
                if isinstance(derived, str):
                    findings.append(self._finding(UNVERIFIED, atom, expected=derived))
                    continue
                if self.stop > self.start:
                    weak = self._weak(atom)
                    if weak is not None:
                        findings.append(self._finding(UNVERIFIED, atom, expected=weak))
                    else:
                        findings.append(self._finding(UNSUPPORTED, atom))
        if self.stop > self.start:
            # a clause with a contradiction of its own is not told done a second time
            claimed = {
                self._clause_of(self.atoms[i])
                for i, found in contradicted.items()
                if found.kind == CONTRADICTED
            }
            findings.extend(self._dropped(claimed))
        seen: set[tuple[str, str, str | None]] = set()
        unique: list[ClaimFinding] = []
        for finding in findings:
            key = (finding.kind, finding.normalised, finding.entity)
            if key not in seen:
                seen.add(key)
                unique.append(finding)
        return unique

    # ------------------------------------------------------------ carried over

    def _carried(self, atom: Atom, entity: str | None = None) -> EvidenceRef | None:
        """The earlier summary (whose originals were discarded) that says ``atom`` too (of
        ``entity``, for a status: the same entity with a status of the same family)."""
        for ref, atoms, lowered in self.carried:
            if atom.kind == A.STATUS:
                if (
                    entity
                    and entity.lower() in lowered
                    and any(seen.kind == A.STATUS and seen.value == atom.value for seen in atoms)
                ):
                    return ref
                continue
            if atom.kind in (A.NAME, A.HANDLE):
                if A.needle(atom) in lowered:
                    return ref
                continue
            if any(A.supports(atom, seen) for seen in atoms if seen.kind == atom.kind) or any(
                A.supports(atom, seen) for seen in atoms if seen.kind != atom.kind
            ):
                return ref
        return None

    # ------------------------------------------------------------ unsupported

    def _approximate(self, atom: Atom) -> bool:
        """A rounded figure ("about 480", "~3.2k", "$1.2M"): not a value to look up."""
        if atom.kind not in _NUMERIC and atom.kind != A.TIME:
            return False
        if _ROUNDED_SUFFIX.search(atom.text):
            return True
        before = self.summary[max(0, atom.start - 24) : atom.start].lower()
        if before.rstrip().endswith(("~", "≈", "approx.", "ca.")):
            return True
        words = re.findall(r"[a-z]+", before)[-2:]
        return bool(words) and (
            words[-1] in _APPROXIMATELY or " ".join(words) in ("more than", "less than", "up to")
        )

    def _weak_and_nowhere(self, atom: Atom, found: ClaimFinding) -> bool:
        """Whether a conflict on weak evidence is of a value (an amount, a date, a time,
        a level...) that is nowhere in the originals: then it is read as any value is, and
        found ``unsupported`` ("$297.00" of an order that the reply's prose gives $279.00)."""
        if found.kind != UNVERIFIED or atom.kind not in A.FACT_KINDS or A.is_word_level(atom):
            return False
        return not self._approximate(atom) and not self._supported(atom)

    def _supported(self, atom: Atom) -> bool:
        index, start, stop = self.index, self.start, self.stop
        if atom.kind == A.TOOL_COUNT:
            name, _, count = atom.value.rpartition("×")
            return 1 <= int(count) <= index.calls(name, start, stop)
        if atom.kind == A.COUNT:
            number_text, _, lemma = atom.value.partition(" ")
            number = int(number_text)
            if lemma in A.CALL_NOUNS:
                total = index.calls(None, start, stop)
                if (number <= total if number else total == 0) or lemma != "call":
                    return number <= total if number else total == 0
                # "44,384 calls" may count what the originals report (API calls), not tools
            if number == 1 and not atom.text[:1].isdigit():
                return True  # "one partition write hit...": an article, not a count
            if number < 10:
                before = re.findall(r"[a-z]+", self.summary[max(0, atom.start - 20) : atom.start])
                if set(before[-2:]) & _RELATIVE:
                    return True  # "the other two pods": counted against something unsaid
                verdict = index.small_count_support(number, lemma, start, stop)
                return verdict is None or verdict
        if index.first_support(atom, start, stop) is not None:
            return True
        if self.context < start and index.first_support(atom, self.context, start) is not None:
            return True
        other = A.thousands_reading(atom) or A.number_reading(atom)
        # "48.213 Elemente" of 48,213 items; "04471" of a record's number written as such
        if other is not None and index.first_support(other, start, stop) is not None:
            return True
        # "arrives 05.12": a day and a month the originals give as a date
        return any(index.first_support(d, start, stop) is not None for d in A.date_readings(atom))

    def _weak(self, atom: Atom) -> str | None:
        """Why a value the originals do not hold may still be right, when it may be (then
        it is ``unverified``, not ``unsupported``): a value people work out rather than copy
        (a duration, a share, a range, a small count, a time in another zone), or a number
        that two numbers the originals hold give by a sum, difference, product or ratio."""
        clause = self._clause_of(atom)
        text = self.summary[clause[0] : clause[1]]
        if atom.kind == A.RANGE:
            return "a range; not found as written"
        if atom.kind == A.DURATION:
            # people work durations out (between two times, a sum of steps, rounded up);
            # a duration copied wrong is rarer than one worked out right
            return "a duration the originals do not give as written; it may be worked out"
        value = _numeric_value(atom)
        if value is not None and atom.kind in _NUMERIC and self._margin(atom):
            return "a difference the summary may have worked out; not found as written"
        if atom.kind == A.COUNT:
            number_text, _, lemma = atom.value.partition(" ")
            if not atom.text[:1].isdigit() and lemma not in A.CALL_NOUNS:
                return "a count written in words; not found as written"
            said = frozenset(w for w in re.findall(r"[a-z]{4,}", text.lower()))
            # the total of "4,581 of 45,807 requests" is a sum of the parts, not a count
            # the originals give another way
            if not self._of_total(atom) and self.index.small_count_conflict(
                int(number_text), lemma, self.start, self.stop, said, part=self._part(atom)
            ):
                # the originals count the same noun otherwise: strong evidence, unless the
                # sentence works it out ("1,220 of 2,000 positions, so 780 still free")
                return self._worked_out_reason(atom, value, clause)
            if lemma not in A.CALL_NOUNS:  # calls are counted by the originals' calls
                # a count the originals do not give may be counted from what they list
                return self._worked_out_reason(atom, value, clause) or (
                    "a count the originals give no other number for; it may be counted"
                )
        if atom.kind == A.TIME and (
            _ZONED.search(self.summary, atom.end, atom.end + 24) or self._two_zones(clause)
        ):
            return "a time in another zone; not found as written"
        if atom.kind == A.ID and self._named_by_value(atom):
            return "a thing named by one of its values; the value is in the originals"
        if atom.kind == A.QUANTITY:
            number = atom.value.partition(" ")[0]
            written = _WRITTEN_NUMBER.match(atom.text)  # "9,4" of "9,4 °C", as looked up
            text = written.group() if written is not None else number
            bare = Atom(A.NUMBER, text, number, atom.start, atom.end)
            if self.index.first_support(bare, self.start, self.stop) is not None:
                return "the number is in the originals, its unit not beside it"
        if atom.kind in _NUMERIC:  # a quantity too: "the two lots make 2.186,4 kg"
            return self._worked_out_reason(atom, value, clause)
        return None

    def _worked_out_reason(
        self, atom: Atom, value: Decimal | None, clause: tuple[int, int]
    ) -> str | None:
        """Why a number is ``unverified`` when it works out from numbers of one message
        (:meth:`_derivable_from_one`), or None."""
        if value is None:
            return None
        if self._worked_out >= _WORKED_OUT_BUDGET:
            return "one number too many to work out in one summary; not checked"
        self._worked_out += 1
        if self._derivable_from_one(atom, value, clause):
            return "works out from numbers of one message; not stated there"
        return None

    def _two_zones(self, clause: tuple[int, int]) -> bool:
        """Whether a clause gives clock times in two zones ("02:48 CET, i.e. 01:48 UTC"):
        one of them is worked out from the other."""
        zones = {A.zone_offset(a.text) for a in self._atoms_in(*clause) if a.kind == A.TIME} - {
            None
        }
        return len(zones) >= 2

    def _remainder(self, atom: Atom) -> bool:
        """Whether a quantity is what is left of another ("81.6 GB of the 200 GB plan is
        still free"): a difference, worked out like an amount."""
        if atom.kind != A.QUANTITY:
            return False
        clause = self._clause_of(atom)
        return _REMAINDER.search(self.summary, clause[0], clause[1]) is not None

    def _of_total(self, atom: Atom) -> bool:
        """Whether a count of 10 or more is the total a part is of ("4,581 of 45,807
        requests"): a sum of the parts, which the originals may give only part by part."""
        if atom.kind != A.COUNT or int(atom.value.partition(" ")[0]) < 10:
            return False
        return _OF_TOTAL.search(self.summary, max(0, atom.start - 24), atom.start) is not None

    def _named_by_value(self, atom: Atom) -> bool:
        """Whether an id-shaped word is a thing named by one of its values, a lower-case
        noun joined to a short number ("the batch-64 run", "the top-5 list"), whose
        originals give that noun that number (``batch_size=64``, ``batch 64``)."""
        match = _NOUN_VALUE.fullmatch(atom.text)
        if match is None:
            return False
        noun, number = match.group(1), match.group(2)
        bare = Atom(A.NUMBER, number, number, atom.start, atom.end)
        near = re.compile(rf"(?i)\b{noun}[\w ]{{0,12}}?[=:]? ?{number}(?![\d.])")
        at = self.index.first_support(bare, self.start, self.stop)
        for _ in range(20):
            if at is None:
                return False
            if near.search(self.index.text(at)):
                return True
            at = self.index.first_support(bare, at + 1, self.stop)
        return False

    def _margin(self, atom: Atom) -> bool:
        """Whether a number is a difference by how it is said: after "by" or "saved" ("beat
        A by 5.5 points", "down by 3%", "would have saved 4,47 €") or before a word of
        comparison ("0.021 mm above nominal", "20.6% over the included calls", "35 minutes
        over his limit", "388 € per person more than")."""
        before = self.summary[max(0, atom.start - 12) : atom.start].lower()
        if _BY.search(before):
            return True
        return (
            _COMPARED.match(self.summary, atom.end) is not None
            or _LEFT_OVER.match(self.summary, atom.end) is not None
        )

    def _part(self, count: Atom) -> bool:
        """Whether a count is of the things with a property, told by a status or a
        participle right after it ("1 pair flagged", "3 rows were rejected"): a part of
        what the originals list, which they need not count."""
        words = _WORD.findall(self.summary, count.end, count.end + 40)[:3]
        for word in words:
            lowered = word.lower()
            if lowered in _COPULAS:
                continue
            return V.status_family(lowered) is not None or (
                lowered.endswith("ed") and len(lowered) > 4
            )
        return False

    def _derivable_from_one(self, atom: Atom, value: Decimal, clause: tuple[int, int]) -> bool:
        """Whether ``value`` is a sum, difference, product or ratio of two numbers of the
        clause, or (an amount, a number, a share) of one of the last results in range: no
        numbers of two messages are combined, so a made-up value rarely works out, and
        the work per summary stays bounded."""
        sentence = _containing(self.sentences, self._sentence_starts, atom.start, clause)
        phrase = self._phrase(atom, sentence)
        # the phrase's own numbers, written as atoms or not ("41.2 of 50, is 82.4%")
        own = D.numbers_in(self._numbers_text(atom, phrase), words=True)
        percent = atom.kind == A.PERCENT
        places = _places(atom)
        # an amount with a share of its phrase added or taken off ("350,90 EUR with 21 % VAT")
        shares = self._shares(phrase) if atom.kind == A.MONEY else []
        if own and D.derivable(value, own, percent=percent, places=places, shares=shares):
            return True
        # a sum the sentence writes out: "net 504 points (108 + 177 + 266 - 47)"
        if D.written_out(value, self.summary[sentence[0] : sentence[1]], places=places):
            return True
        if not percent and phrase != sentence:
            # an amount of the sentence's other parts: "total 24.632,20 across A
            # (5.467,00), B (13.225,20) and C (5.940,00); 18.692,20 of that is posted"
            # (a share is of its own part: "41.2 of 50, is 82.4%")
            whole = D.numbers_in(self._numbers_text(atom, sentence), words=True)
            if whole and D.derivable(value, whole, percent=percent, places=places):
                return True
        if (
            atom.kind not in (A.MONEY, A.NUMBER, A.PERCENT)
            and not self._of_total(atom)
            and not self._remainder(atom)
        ):
            return False  # a count or a duration is made up of the summary's own numbers
        if atom.kind == A.PERCENT and not _SHARE_OF.match(self.summary, atom.end):
            return False  # a share of something named: "20.6% over the 2,000,000 included"
        positions = dict.fromkeys(self.index.recent_results(self.start, self.stop, _RECENT_DERIVED))
        for position in positions:
            read = self.index.numbers(position)
            if read and D.derivable(value, [*own, *read], percent=percent, places=places):
                return True
        if percent:
            return False
        for position in self._about(atom, sentence):
            # a sum or a difference of two numbers the originals give what the sentence is
            # about ("s-20388 4.6 points": 46.0 raw, 41.4 final in its row)
            read = self.index.numbers(position)
            if read and D.derivable(value, read, percent=False, places=places, additive=True):
                return True
        return False

    def _shares(self, phrase: tuple[int, int]) -> list[Decimal]:
        """The percentages of a part of a sentence, the first few."""
        atoms = self._atoms_in(*phrase)
        return [Decimal(a.value) for a in atoms if a.kind == A.PERCENT][:_SHARES_TRIED]

    def _about(self, atom: Atom, sentence: tuple[int, int]) -> list[int]:
        """The last message to name each entity of the part of the sentence holding
        ``atom`` (of the sentence before when it names none: "Its mean ..."), at most
        :data:`_RECENT_DERIVED`."""
        entities = [
            a for a in self._atoms_in(*self._phrase(atom, sentence)) if a.kind in A.ENTITY_KINDS
        ]
        if not entities:
            index = bisect_right(self._sentence_starts, sentence[0]) - 2
            if index >= 0:
                before = self._atoms_in(*self.sentences[index])
                entities = [a for a in before if a.kind in A.ENTITY_KINDS]
        found: dict[int, None] = {}
        for entity in entities[:_RECENT_DERIVED]:
            position = self.index.last_support(entity, self.start, self.stop)
            if position is not None:
                found[position] = None
        return list(found)

    def _numbers_text(self, atom: Atom, span: tuple[int, int]) -> str:
        """The text of ``span`` (the part of the sentence that holds ``atom``, or the
        sentence) with the atom and every value that is no quantity (an id, a date, a
        time, a version, an address) blanked out: the numbers it can be worked out from."""
        start, end = span
        text = list(self.summary[start:end])
        for other in self._atoms_in(start, end):
            if other is atom or other.kind not in _NUMERIC:
                text[other.start - start : other.end - start] = " " * (other.end - other.start)
        return "".join(text)

    def _phrase(self, atom: Atom, sentence: tuple[int, int]) -> tuple[int, int]:
        """The part of the sentence between semicolons (or lines) that holds ``atom``."""
        start, end = sentence
        text = self.summary
        start = max(
            start, text.rfind(";", start, atom.start) + 1, text.rfind("\n", start, atom.start) + 1
        )
        for stop in (text.find(";", atom.end, end), text.find("\n", atom.end, end)):
            if stop >= 0:
                end = min(end, stop)
        return start, end

    def _derived(self, atom: Atom) -> bool | str | None:
        """Whether a number the originals do not hold is worked out from numbers they do,
        when the summary says it is (a total, "together", a percentage): ``True`` when it
        works out, a description of what it claims to be when it does not (``unverified``;
        a percentage that does not work out and is not said to be derived stays
        ``unsupported``), ``None`` when it is not said to be derived."""
        value = _numeric_value(atom)
        if value is None:
            return None
        clause = self._clause_of(atom)
        text = self.summary[clause[0] : clause[1]]
        cue = D.derived_cue(text, atom.start - clause[0], atom.end - clause[0])
        # a share ("28.9% of hosts"), not a rate that is a measurement ("a 6.7% error rate")
        percent = atom.kind == A.PERCENT and self.summary.startswith(" of ", atom.end)
        change = atom.kind == A.PERCENT and (
            _CHANGE_AFTER.match(self.summary, atom.end) is not None
            or _CHANGE_BEFORE.search(self.summary, max(0, atom.start - 16), atom.start) is not None
        )
        if cue is None and not percent and not change:
            return None
        if change and cue is None:
            cue = "a change between numbers in the originals; not checked"
        said = cue or "a share of numbers in the originals; not checked"
        if self._worked_out >= _WORKED_OUT_BUDGET:
            return said  # unverified: one number too many to work out in one summary
        self._worked_out += 1
        numbers = self._related_numbers(atom, clause)
        if D.derivable(value, numbers, percent=percent or change, places=_places(atom)):
            return True
        return said

    def _related_numbers(
        self, atom: Atom, clause: tuple[int, int], *, recent: bool = True
    ) -> list[Decimal]:
        """The numbers a derived value may be made of: those of the messages that hold the
        sentence's other atoms and its entities, else of the last results in range."""
        sentence = _containing(self.sentences, self._sentence_starts, atom.start, clause)
        positions: set[int] = set()
        for other in self._atoms_in(*sentence):
            if other is atom:
                continue
            if other.kind in A.ENTITY_KINDS:
                found = self.index.last_support(other, self.start, self.stop)
            elif other.kind in A.FACT_KINDS and other.kind not in (A.COUNT, A.TOOL_COUNT):
                found = self.index.first_support(other, self.start, self.stop)
            else:
                continue
            if found is not None:
                positions.add(found)
        if recent:
            positions.update(self.index.recent_results(self.start, self.stop, 30))
        numbers: list[Decimal] = []
        for other in self._atoms_in(*clause):  # the summary's own ("the first two nights")
            if other is not atom:
                value = _numeric_value(other)
                if value is not None:
                    numbers.append(value)
        for position in sorted(positions):
            read = self.index.numbers(position)
            numbers.extend(read)
        return numbers

    def _clause_of(self, atom: Atom) -> tuple[int, int]:
        return _containing(self.clauses, self._clause_starts, atom.start, (0, len(self.summary)))

    def _atom_range(self, start: int, end: int) -> range:
        """The indices of the atoms that start in ``[start, end)`` (atoms are sorted)."""
        return range(bisect_left(self._atom_starts, start), bisect_left(self._atom_starts, end))

    def _atoms_in(self, start: int, end: int) -> Sequence[Atom]:
        found = self._atom_range(start, end)
        return self.atoms[found.start : found.stop]

    # ------------------------------------------------------------ contradicted

    def _contradictions(self) -> dict[int, ClaimFinding]:
        found: dict[int, ClaimFinding] = {}
        for clause_start, clause_end in self.clauses:
            starting = range(
                bisect_left(self._atom_starts, clause_start),
                bisect_right(self._atom_starts, clause_end),
            )
            members = [(i, self.atoms[i]) for i in starting if self.atoms[i].end <= clause_end]
            found.update(self._outcome_claims(members))
            entities = [a for _, a in members if a.kind in A.ENTITY_KINDS]
            claims = [
                (i, a)
                for i, a in members
                if i not in found
                and not (a.kind == A.STATUS and self._counted(a, clause_start))
                and (
                    a.kind in (A.STATUS, A.LEVEL)
                    # an amount among several, or a difference ("USD 660.00 more than
                    # FQ-3370"), is no one's
                    or (a.kind == A.MONEY and self._sole_amount(a) and not self._margin(a))
                    or (a.kind == A.DATE and (len(a.value) == 10 or a.value.startswith("--")))
                    # a time of an event the clause names ("an ERROR at 07:45:02"): the event's
                    or (
                        a.kind == A.TIME
                        and bool(entities)
                        and not _EVENT_AT.search(
                            self.summary, max(clause_start, a.start - 24), a.start
                        )
                    )
                )
            ]
            if not claims:
                continue
            if entities and _TOGETHER.search(self.summary, clause_start, clause_end):
                claims = [(i, a) for i, a in claims if a.kind not in (A.MONEY, A.QUANTITY)]
            if not entities and any(a.kind in (A.STATUS, A.LEVEL) for _, a in claims):
                entities = self._named_rows(clause_start, clause_end, claims)
            if entities:
                found.update(self._entity_claims(claims, entities, members))
            else:
                found.update(self._topic_claims(claims, clause_start, clause_end))
        return found

    def _sole_amount(self, amount: Atom) -> bool:
        """Whether an amount is the only one of its sentence: with several ("$284,903.17
        principal plus $2,112.93 interest and $55.00 in fees"), which entity each belongs
        to is more than nearness can tell, so none is judged against an entity's amount."""
        sentence = _containing(
            self.sentences, self._sentence_starts, amount.start, self._clause_of(amount)
        )
        return sum(1 for a in self._atoms_in(*sentence) if a.kind == A.MONEY) == 1

    def _counted(self, status: Atom, clause_start: int) -> bool:
        """Whether a status word is the outcome of a count just before it ("9 rejected",
        "3 users failed"; not "RF-1 is approved")."""
        begin = max(clause_start, status.start - 60)
        hit = _COUNTED.search(self.summary, begin, status.start)
        if hit is None:
            return False
        at = hit.start()
        before = bisect_right(self._atom_starts, at)  # the atoms that start by it; the last
        near = self.atoms[max(0, before - 8) : before]  # few are the ones that may hold it
        if any(at < a.end for a in near if a.kind in A.ENTITY_KINDS):
            return False  # "run 8812 has not started": an id, not a count
        return not set(self.summary[hit.start() : status.start].lower().split()) & _COPULAS

    def _named_rows(
        self, clause_start: int, clause_end: int, claims: list[tuple[int, Atom]]
    ) -> list[Atom]:
        """Things the clause names that the originals know by that name only (a job
        ``weekly_rollup``, a check ``deploy-preview``: a table row, a JSON ``name``), when
        the originals give them a status or a level."""
        kinds = {a.kind for _, a in claims if a.kind in (A.STATUS, A.LEVEL)}
        found: list[Atom] = []
        for m in _NAME_TOKEN.finditer(self.summary, clause_start, clause_end):
            if m.start() in self._covered:
                continue
            label = Atom(LABEL, m.group(), label_key(m.group()), m.start(), m.end())
            position = self.index.last_support(label, self.start, self.stop)
            if position is None:
                continue
            facts = self.index.facts(position)
            if any(f.kind in kinds for f in facts.entities.get(label.value, ())):
                found.append(label)
        return found

    def _candidates(self, entities: list[Atom], claim: Atom) -> list[Atom]:
        """The entities a claim may be about (see docs/claims.md).

        The clause's *subject* before the claim: the nearest entity before it,
        stepping back over entities that follow a preposition ("refund RF-1 of
        $480 for CH-2 approved" is about RF-1) or that are versions and hashes
        (attributes: "DEP-7 of api v2.1 went out" is about DEP-7); then the
        nearest entity after it, unless a preposition introduces that one.
        """
        entities = [e for e in entities if not self._a_code(e)]
        before = [e for e in entities if e.end <= claim.start][::-1]
        if (
            claim.kind == A.LEVEL
            and before
            and _APPOSED.fullmatch(self.summary, before[0].end, claim.start)
            and self._heads_bracket(before[0])
        ):
            return [before[0]]  # "on vet case VET-3381, priority P2": the case's priority
        after = [e for e in entities if e.start >= claim.end]
        # the preposition that governs each entity, as (its phrase's words, its place);
        # "for s-1 and s-2": the preposition governs both
        governed: dict[int, tuple[list[str], int] | None] = {}
        for n, entity in enumerate(entities):
            joined = n > 0 and _COORDINATED.fullmatch(
                self.summary, entities[n - 1].end, entity.start
            )
            inherited = governed.get(entities[n - 1].start) if joined else None
            if (
                inherited is not None
                and inherited[1] == 0
                and _BARE_COMMA.fullmatch(self.summary, entities[n - 1].end, entity.start)
            ):
                inherited = None  # "On EXS-4471, FLG-90412 was confirmed": the phrase ends
            governed[entity.start] = self._preposition(entity) or inherited
        chosen: list[Atom] = []
        if before:
            index = 0
            while index + 1 < len(before) and (
                governed.get(before[index].start)
                or before[index].kind in (A.VERSION, A.HASH)
                or self._bracketed_after(before[index], before[index + 1])
                or self._aside(before[index], claim)
            ):
                index += 1
            preposition = governed.get(before[index].start)
            if preposition is not None and not _topic(*preposition):
                return []  # "the slot on B-14 was refused": the slot's, a thing not named
            if (
                before[index].kind in (A.VERSION, A.HASH)
                and ":" in self.summary[before[index].end : claim.start]
            ):
                return []  # "3.14.2 rollout: FRA1 and AMS1 complete": the sites', a heading's
            chosen.append(before[index])
        if (
            after
            and not governed.get(after[0].start)
            and not self._next_item(claim, after[0], chosen)
        ):
            chosen.append(after[0])
        return chosen

    def _heads_bracket(self, entity: Atom) -> bool:
        """Whether ``entity`` is in no bracket, or opens the one it is in: "(WO-4417, NORMAL
        priority)" gives the work order's priority; "(UHC, CO-50, HIGH priority)" lists what
        the bracket is about, not a priority of the code before it."""
        opened = self._open_bracket(entity.start)
        return opened is None or not self.summary[opened + 1 : entity.start].strip()

    def _next_item(self, claim: Atom, entity: Atom, subject: list[Atom]) -> bool:
        """Whether ``entity``, after ``claim`` and a comma, opens the next item of a list
        ("T-30131 completed, T-30122 is done": T-30122's; "... charged USD 190.00, the chip
        transfer timed out, the TP-118 transfer was refused": TP-118's): the claim has its
        subject before it, or another state lies between them, or a verb of its own follows
        it ("its shift ends at 07:00, RC-21 is on_job"). Not an aside in brackets
        ("(£25.00, ADD-20260303-117)") nor a subject set off by commas ("The only cancelled
        job, rj-7f3a12, is ...")."""
        if "," not in self.summary[claim.end : entity.start]:
            return False
        return (
            bool(subject)
            or _OWN_VERB.match(self.summary, entity.end) is not None
            or any(a.kind in (A.STATUS, A.LEVEL) for a in self._atoms_in(claim.end, entity.start))
        )

    def _closes_before(self, claim: Atom, entity: Atom) -> bool:
        """Whether ``claim`` is in a bracket that closes before ``entity``: an aside about
        what came before it ("D3330 approved (her share $196.80), D2740 pending"), which
        the entity after it may bear out but does not contradict."""
        return (
            self._open_bracket(claim.start) is not None
            and ")" in self.summary[claim.end : entity.start]
        )

    def _open_bracket(self, at: int) -> int | None:
        """Where the bracket that is still open at ``at`` opens (within 60 characters)."""
        opened = self.summary.rfind("(", max(0, at - 60), at)
        return None if opened < 0 or ")" in self.summary[opened:at] else opened

    def _a_code(self, entity: Atom) -> bool:
        """Whether an id is a code the summary gives as a reason or an error ("reason
        AC04", "error code E-17"): a value of something else, not a thing with a state."""
        begin = max(0, entity.start - 14)
        return _CODE_BEFORE.search(self.summary, begin, entity.start) is not None

    def _bracketed_after(self, entity: Atom, previous: Atom) -> bool:
        """Whether ``entity`` is in a bracket opened right after ``previous``: an attribute
        of it ("sensor SM-4472 (F-07, 60 cm) is offline" is about the sensor, not the field;
        "JB-60445 (TPU 95A, P-09) is done" about the job, not the printer)."""
        return _BRACKET_OPEN.fullmatch(self.summary, previous.end, entity.start) is not None

    def _aside(self, entity: Atom, claim: Atom) -> bool:
        """Whether ``entity`` is in brackets after a state, closed before ``claim``: what
        the state is about, not the clause's subject ("SK-0915 is held (WH-3307) and
        retimed to 14:30"; not "sessions-redis (bk-90d4c7e3) failed": the name's id)."""
        opened = self._open_bracket(entity.start)
        if opened is None or ")" not in self.summary[entity.end : claim.start]:
            return False
        words = _phrase_words(self.summary, opened)
        return bool(words) and (
            words[-1].lower().endswith("ed") or V.status_family(words[-1]) is not None
        )

    def _preposition(self, entity: Atom) -> tuple[list[str], int] | None:
        """The preposition that introduces ``entity`` ("for CH-2", "for the capture CH-2"),
        as the words of its phrase and the preposition's place among them; else None."""
        words = _phrase_words(self.summary, entity.start)
        for back, word in enumerate(reversed(words[-4:])):
            if back == 0 and word.isalpha() and word.isupper() and len(word) <= 4:
                continue  # the entity's own noun: "on PR #412", "for PO 3226"
            if word[0].isdigit() or any(c.isupper() for c in word[1:]):
                return None  # another entity or number in between: not this one's phrase
            if word.lower() in _PHRASE_BREAKS:
                return None  # "deployed to staging as DEP-1": DEP-1 is named, not governed
            if word.lower() in _PREPOSITIONS:
                # "for the capture CH-2": at most a determiner and a noun between; a verb
                # and its subject are more ("with the weather pushes POUR-L3-02")
                return (words, len(words) - 1 - back) if back <= 2 else None
        return None

    def _present(self, claim: Atom) -> bool:
        """Whether a status is claimed to hold now ("is pending", "still open")."""
        words = re.findall(r"[a-z]+", self.summary[max(0, claim.start - 25) : claim.start].lower())
        return bool(_PRESENT & set(words[-2:])) or claim.text.lower().startswith("still")

    def _entity_claims(
        self,
        claims: list[tuple[int, Atom]],
        entities: list[Atom],
        members: list[tuple[int, Atom]],
    ) -> dict[int, ClaimFinding]:
        found: dict[int, ClaimFinding] = {}
        owners = {i: self._candidates(entities, claim) for i, claim in claims}
        said: dict[str, list[Atom]] = {}
        for i, claim in claims:
            if claim.kind == A.STATUS:
                for entity in owners[i]:
                    said.setdefault(entity.value, []).append(claim)
        clause_values = [a for _, a in members if a.kind in (A.MONEY, A.DATE, A.TIME, A.LEVEL)]
        # per claim: the entity whose facts agree with it (None: none do), and a conflict
        verdicts: dict[int, tuple[Atom | None, tuple[Atom, int, Fact] | None]] = {}
        for i, claim in claims:
            conflict: tuple[Atom, int, Fact] | None = None
            agreed: Atom | None = None
            for entity in owners[i]:
                verdict = self._judge(claim, entity, said.get(entity.value, [claim]), clause_values)
                if verdict is True:
                    agreed = entity
                    break
                if (
                    isinstance(verdict, tuple)
                    and conflict is None
                    and not self._closes_before(claim, entity)
                ):
                    conflict = (entity, verdict[0], verdict[1])
            if (
                conflict is not None
                and agreed is None
                and claim.kind in _VALUE_KINDS
                and self._given_to_another(claim, entities, conflict[0])
            ):
                conflict = None  # "SK-0915: hold WH-3307, retimed 12:15 -> 14:30": the sailing's
            verdicts[i] = (agreed, conflict)
            if agreed is not None and claim.kind == A.STATUS and _said_failed(claim):
                self._data_failures.add(self._clause_of(claim))
        for i, claim in claims:
            agreed, conflict = verdicts[i]
            if conflict is not None and agreed is None:
                entity, position, fact = conflict
                strong = self._strong(claim, fact, entity, position)
                if not strong and claim.kind == A.STATUS:
                    failed = self._asked_and_failed(claim, entity)
                    if failed is not None:
                        # "NCR-4471 is now closed" of a call that asked to close it and
                        # got a 403: the state was asked for, and not reached
                        strong, position = True, failed
                        fact = Fact(A.STATUS, "failed", self.index.messages[failed].error or "")
                if claim.kind == A.STATUS and any(
                    verdicts[j][0] == entity and other.kind == A.STATUS
                    for j, other in claims
                    if j != i
                ):
                    # another status of the clause agrees with this entity: this one is
                    # another's ("bk-1 failed and bk-2 failed as well" leaves bk-2 its own)
                    strong = False
                seen = fact.value if fact.kind == A.MONEY else fact.text
                found[i] = self._finding(
                    CONTRADICTED if strong else UNVERIFIED,
                    claim,
                    expected=seen if strong else _weakly(seen),
                    entity=entity.text,
                    evidence=(self.index.ref(position),),
                )
        return found

    def _asked_and_failed(self, claim: Atom, entity: Atom) -> int | None:
        """The error result of a call that asked to give ``entity`` the state ``claim``
        says it is in (``ncr_update {"ncr": "NCR-4471", "status": "closed"}`` answered
        403), when the claim says it holds now ("is now closed") and no later call of that
        tool went through."""
        if not self._present(claim) or _said_failed(claim):
            return None
        key = entity_key(entity)
        for position in self.index.errors(self.start, self.stop):
            if key not in self.index.failed_on(position):
                continue
            asked = call_values(self.index.call_arguments(position))
            if not any(V.status_family(value) == claim.value for value in asked):
                continue
            tool = self.index.messages[position].tool_name
            if tool is not None and self._went_through_after(position, tool.__eq__):
                continue  # tried again and went through
            return position
        return None

    def _went_through_after(self, position: int, same: Callable[[str], bool]) -> bool:
        """Whether a call of a tool ``same`` accepts, after ``position``, went through."""
        return any(
            same(name) and any(self.index.messages[p].error is None for p in later)
            for name, later in self.index.tool_names(position + 1, self.stop)
        )

    def _failed_on(self, claim: Atom, entity: Atom) -> bool:
        """Whether a call on ``entity`` failed in the originals the way ``claim`` says (an
        error of the kind its word names: "timed out" of a timeout, "refused" of a
        denial): an error result that names the entity, or answers a call that asked about
        it.  Such a failure happened, whatever state the entity reached after it.  A word
        of failure of no kind ("failed", "rolled back") tells how it ended: "the DNS-01
        validation failed" of one that went through on the retry is wrong."""
        said = _classes_in(claim.text) - _GENERIC_TROUBLE
        key = entity_key(entity)
        return any(
            self.index.messages[position].error_class in said
            and key in self.index.failed_on(position)
            for position in self.index.errors(self.start, self.stop)
        )

    def _strong(self, claim: Atom, fact: Fact, entity: Atom, position: int) -> bool:
        """Whether the originals' value is strong evidence against the claim: the same
        entity's value of the same attribute, in a field made for it, of a type that
        matches.  Weaker evidence makes an ``unverified`` finding (information), never a
        ``contradicted`` one: a false alarm costs more than a miss.

        * a status: from a status field, column or line (``status: pending``; not prose,
          not a log line, not an error message), and not a word that reports what came
          back ("the SMSC returned 503");
        * a level: from a field;
        * an amount: of the attribute the summary names, or owned by another entity
          in that message (the option not chosen);
        * a date or a time: from a field.
        """
        after = self.summary[claim.end : claim.end + 8]
        clause = self._clause_of(claim)
        if _HYPOTHETICAL.search(self.summary, clause[0], clause[1]):
            return False  # "FQ-7713 would have landed 75 min later": what did not happen
        if claim.kind == A.STATUS:
            if _CONDITION.search(self.summary[max(clause[0], claim.start - 40) : claim.start]):
                return False  # a plan or a condition: "will clear once the change is paid"
            if _REPORTED.match(after) or _TRANSITIVE.match(after):
                return False  # "returned 503", "approved the file": what one did, not a state
            if _CALL_CODE.match(self.summary, claim.end):
                return False  # "refused (409)", "refused with a 422": a call's answer
            named = _NAMED_OBJECT.match(self.summary, claim.end)
            if named is not None and named.start("id") != entity.start:
                return False  # "triggered alert FA-0417": what the subject did to the alert
            if _HEDGED.search(self.summary, max(clause[0], claim.start - 12), claim.start):
                return False  # "mostly worked": part of it did
            if _SAVE_FOR.match(self.summary, claim.end, claim.end + 48):
                return False  # "is paid except for two people": all but some did
            if _ONCE_THEN.match(self.summary, claim.end):
                return False  # "timed out once, then confirmed": a state it passed through
            if _IN_RELEASE.match(self.summary, claim.end):
                return False  # "is fixed in 9.3.2": the release that does it, not a state
            if _HTTP_REASON.search(self.summary, max(clause[0], claim.start - 32), claim.start):
                return False  # "504 Gateway Timeout": what a call got back, not a state
            if _said_failed(claim) and _EARLIER.search(self.summary, clause[0], claim.start):
                return False  # "the first attempt timed out": a try, not how it ended
            if _said_failed(claim) and self._failed_on(claim, entity):
                return False  # "CB-88471's POST timed out": a call on it did, whatever came after
            if _ASIDE_SUBJECT.search(self.summary, max(0, claim.start - 48), claim.start):
                return False  # "C-140 cleared (the first order timed out)": the aside's own
            before = self.summary[max(clause[0], claim.start - 6) : claim.start].lower()
            if _ATTRIBUTIVE.search(before) or (
                before.endswith("(") and _NOUN_CLOSES.match(self.summary, claim.end)
            ):
                return False  # "the failed payment", "(closed account)": a word of a noun
            if fact.text.strip().lower() == "scheduled" and (
                claim.value in ("confirmed", "held") or claim.text.lower() in _WENT_THROUGH
            ):
                return False  # a booking is scheduled for its date: the booking went through
            if self._another_subject(claim, entity):
                return False
            if self._own_subject(claim, entity):
                return False  # "E-10428 bounced because his account is closed": the account
            said_family = V.FAMILIES.get(claim.value)
            seen_family = V.FAMILIES.get(fact.value)
            if said_family is None or seen_family is None:
                return False
            ends = {V.DONE, V.FAILED}
            if (
                {said_family.polarity, seen_family.polarity} == ends
                and fact.key is not None
                and (fact.key != LOG_LEVEL or self._logged_by_operation(claim, position))
            ):
                # "restored successfully" of a restore that failed (not a word of prose
                # that the nearest entity was given: "RRB-77412 ... the PIDS update failed")
                return True
            key = A.normalise_key(fact.key) if fact.key and fact.key not in LOG_KEYS else ""
            return key == ROW or (bool(key) and (A.is_status_key(key) or key in _OUTCOME_FIELDS))
        if claim.kind == A.LEVEL:
            return fact.key is not None
        if claim.kind == A.MONEY:
            if (
                entity.end <= claim.start
                and _LISTED_SUBJECT.search(self.summary, entity.end, claim.start) is not None
            ):
                return False  # "CB-55140 failed (...), the limit increase to EUR 6,000 ..."
            attribute = self._attribute(claim) - _GENERIC_MONEY_WORDS
            key = A.normalise_key(fact.key) if fact.key else ""
            if (
                _RATE.match(self.summary, claim.end)
                or _PER_UNIT.search(self.summary, max(clause[0], claim.start - 24), claim.start)
            ) and not _RATE_KEY.search(key):
                return False  # "$24.00 a month", "1,450 kg at EUR 9,10": a rate, not a total
            if attribute and key and attribute & set(key.split("_")):
                return True
            if self._owned_elsewhere(claim, entity):
                return True  # the value belongs to another entity: the option not chosen
            return bool(key) and (A.is_amount_key(key) or key == ROW) and not attribute
        if claim.kind in (A.DATE, A.TIME) and self._troubled(clause):
            return False  # "booking NS-01 for 08:00-14:00 returned 409": what was asked
        if claim.kind in (A.DATE, A.TIME) and fact.key is not None:
            said = self._moments_named(claim, clause)
            if said and not A.moments(fact.key) & said:
                return False  # "ETA 06:52" of a route whose DEPART is 06:15: another moment
        return fact.key is not None

    def _logged_by_operation(self, claim: Atom, position: int) -> bool:
        """Whether an error logged at ``position`` tells against ``claim``: the claim is an
        outcome ("completed", "went out"), not a record's state, and its clause names the
        operation whose result logged it ("the restore of bkp-1 completed" of a restore
        that logged ``FATAL restore aborted``; not "ER-30502 is APPROVED" of a GL export's
        ``ERROR ER-30502: ... journal not created``)."""
        family = V.FAMILIES.get(claim.value)
        tool = self.index.messages[position].tool_name
        if family is None or not family.generic or tool is None:
            return False
        start, end = self._clause_of(claim)
        return names_operation(re.findall(r"[a-z][a-z0-9]*", self.summary[start:end].lower()), tool)

    def _moments_named(self, claim: Atom, clause: tuple[int, int]) -> set[str]:
        """The moments the words just before a date or a time name ("ETA", "ends on": see
        :data:`~foldctl.claims.atoms.MOMENT_WORDS`)."""
        return A.moments(self.summary[max(clause[0], claim.start - 30) : claim.start])

    def _troubled(self, clause: tuple[int, int]) -> bool:
        """Whether a clause tells of a failure (a word of trouble, an HTTP error status),
        as the clause's mention of errors reads it: its moments are then those of what was
        asked and refused, not of what is."""
        mention = self._mentions()[bisect_right(self._clause_starts, clause[0]) - 1]
        return bool(mention.classes - {"weak"}) or any(
            len(n) == 3 and n[0] in "45" for n in mention.numbers
        )

    def _own_subject(self, claim: Atom, entity: Atom) -> bool:
        """Whether a status has a subject of its own just before it: a noun ("his account
        is closed", "sequencer booked", "claims 1-14 rejected"), unless it is what the
        summary calls the entity ("order SO-1 ... the order shipped"), or an amount ("61,50
        € open against a 50,00 € limit"). It is that thing's state, not the entity's."""
        clause = self._clause_of(claim)
        if any(
            a.kind == A.MONEY and not self.summary[a.end : claim.start].strip()
            for a in self._atoms_in(max(clause[0], claim.start - 40), claim.start)
        ):
            return True
        subject = _SUBJECT_BEFORE.search(
            self.summary, max(clause[0], claim.start - 40), claim.start
        )
        if subject is None:
            return False
        noun = subject.group("noun").lower()
        if noun in _NOT_SUBJECTS or noun.endswith("ly") or noun in entity.text.lower():
            return False
        if entity.end <= subject.start() and not self.summary[entity.end : subject.start()].strip():
            return False  # "the DNS-01 validation failed": the entity's own noun
        named = self.summary[max(0, entity.start - 24) : entity.start].lower()
        return noun not in re.findall(r"[a-z]+", named)

    def _another_subject(self, claim: Atom, entity: Atom) -> bool:
        """Whether the words between an entity and a claim bring in another subject: an
        indefinite noun before the claim ("CR-1 awaits approval after a £6.00 credit was
        denied"), or a conjunction before an entity after it ("denied and CR-1 ...")."""
        if entity.end <= claim.start:
            return (
                _NEW_SUBJECT.search(self.summary, entity.end, claim.start) is not None
                or _NEXT_SUBJECT.search(self.summary, entity.end, claim.start) is not None
            )
        return _JOINED.search(self.summary, claim.end, entity.start) is not None

    def _supporting(self, claim: Atom) -> Iterator[int]:
        """The first few messages in range that say what ``claim`` says."""
        position = self.start
        for _ in range(_SUPPORTING_READ):
            found = self.index.first_support(claim, position, self.stop)
            if found is None:
                return
            yield found
            position = found + 1

    def _sentence_entities(self, claim: Atom) -> set[str]:
        """The entities the sentence of ``claim`` names, and the options it names by their
        letter ("option A"), as the originals file them."""
        span = _containing(
            self.sentences, self._sentence_starts, claim.start, self._clause_of(claim)
        )
        entities = {entity_key(a) for a in self._atoms_in(*span) if a.kind in A.ENTITY_KINDS}
        options = _OPTION_NAMED.finditer(self.summary, *span)
        return entities | {label_key(m.group(1)) for m in options}

    def _others(self, position: int, *keys: str) -> Iterator[Fact]:
        """The facts message ``position`` gives entities other than ``keys``."""
        for other, listed in self.index.facts(position).entities.items():
            if other not in keys:
                yield from listed

    def _unowned_moment(self, claim: Atom, key: str) -> bool:
        """Whether a message in range gives the date or time ``claim`` says and gives it
        to no other entity than ``key`` (a visit "on 9 March" that the request named, a
        gale warning "10:00-14:00" of a forecast that names no sailing): the summary may
        tie it to the entity rightly, by what the rules cannot read.  Not when the message
        is what a refused call asked: that is the option not had."""
        return any(
            not self._refused(found)
            and not any(_agrees(claim, f) for f in self._others(found, key))
            for found in self._supporting(claim)
        )

    def _refused(self, position: int) -> bool:
        """Whether message ``position`` is an error, or a call answered by one: what it
        says is what was asked and refused (the slot "10:30" a 409 turned away)."""
        if self.index.messages[position].error is not None:
            return True
        result = self.index.result_of(position, self.stop)
        return result is not None and self.index.messages[result].error is not None

    def _given_to_another(self, claim: Atom, entities: list[Atom], entity: Atom) -> bool:
        """Whether a message in range gives the value ``claim`` says to another entity its
        clause names: in "SK-0915: hold WH-3307, retimed 12:15 -> 14:30" the times are the
        sailing's, tied to the hold only by where the words fall."""
        others = {entity_key(e) for e in entities} - {entity_key(entity)}
        return any(
            _agrees(claim, f)
            for found in self._supporting(claim)
            for other in others
            for f in self.index.facts(found).of(other, claim.kind)
        )

    def _owned_by(self, claim: Atom, owner: str) -> bool:
        """Whether some message in range gives ``owner`` the amount ``claim`` says: an
        entity holds several amounts at once (a price, a proration, a total), so the last
        one stated is not the only one it has."""
        return any(
            any(
                _same_money(claim.value, f.value)
                for f in self.index.facts(found).of(owner, A.MONEY)
            )
            for found in self._supporting(claim)
        )

    def _owned_elsewhere(self, claim: Atom, entity: Atom | None) -> bool:
        """Whether an amount the summary gives ``entity`` is another entity's in the
        originals (the fare of the flight not booked, another row's total)."""
        owner = entity_key(entity) if entity is not None else ""
        # an entity the sentence names as well is the claim's own ("RD-3217 ... surcharge
        # 385,00 EUR ... booked as R-61497" of run R-61497's surcharge)
        named = self._sentence_entities(claim)
        return any(
            any(
                f.kind == A.MONEY and _same_money(claim.value, f.value)
                for f in self._others(found, owner, *named)
            )
            for found in self._supporting(claim)
        )

    def _judge(
        self, claim: Atom, entity: Atom, said: list[Atom], clause_values: list[Atom]
    ) -> bool | tuple[int, Fact] | None:
        """True: the evidence agrees; (position, fact): it disagrees; None: it is silent.

        A status or a level is judged by the last message that mentions the entity and
        gives it one (looking back past mentions that only refer to it): they change.
        An amount likewise, by its last stated amount of the attribute the summary names
        (``total``, ``fee``), else any.  A date or a time by every one the evidence gives
        the entity: they accumulate (ordered, shipped, due), they do not replace each
        other.
        """
        kind = claim.kind
        stop = self.stop
        key = entity_key(entity)
        latest: tuple[int, list[Fact]] | None = None
        attribute = self._attribute(claim) if kind == A.MONEY else set()
        fallback: tuple[int, list[Fact]] | None = None
        matched = False  # the amount was compared with the attribute the summary named
        scale = V.level_scale(claim.value) if kind == A.LEVEL else ""
        # "the first validation failed": an earlier state, which any earlier value may bear out
        clause = self._clause_of(claim)
        earlier = kind == A.STATUS and _EARLIER.search(self.summary, clause[0], claim.start)
        # "ETA 06:52", "ends on 30 June": the moment the summary names, if any
        moments = self._moments_named(claim, clause) if kind in (A.DATE, A.TIME) else set()
        pending: list[int] = []  # a call that names the entity: its result first
        for _ in range(_LOOK_BACK):
            if pending:
                position = pending.pop()
            else:
                found = self.index.last_support(entity, self.start, stop)
                if found is None:
                    break
                position = stop = found
                result = self.index.result_of(position, self.stop)
                if result is not None:
                    if self.index.messages[result].error is None:
                        pending.append(position)  # a call that failed changed nothing it asked
                    position = result
            facts = self.index.facts(position)
            values = facts.of(key, kind)
            if kind == A.LEVEL:
                values = [f for f in values if V.level_scale(f.value) == scale]
            if not values:
                continue
            if kind in (A.DATE, A.TIME):
                if any(_agrees(claim, f) for f in values):
                    return True
                owned = any(_agrees(claim, f) for f in self._others(position, key))
                if kind == A.DATE and not owned and self.index.supports_at(claim, position):
                    return True  # the date is in that message, and no other entity's
                decisive = [f for f in values if f.rank != RANK_AGREES_ONLY]
                if decisive and moments:
                    same = [f for f in decisive if A.moments(f.key or "") & moments]
                    if not same:
                        fallback = fallback or (position, decisive)
                        continue  # another moment of the thing (its departure, not its ETA)
                    decisive = same
                if decisive:
                    latest = latest or (position, decisive)
                continue
            if earlier:
                if _status_verdict(said, values, position, present=self._present) is True:
                    return True
                latest = latest or (position, values)
                continue
            if kind == A.MONEY and attribute:
                named = [f for f in values if f.key and attribute & set(f.key.split("_"))]
                if not named:
                    fallback = fallback or (position, values)
                    continue
                values = named
                matched = True
            latest = (position, values)
            break
        if latest is None:
            latest = fallback
        if latest is None:
            return None
        position, values = latest
        if kind == A.STATUS:
            return _status_verdict(said, values, position, present=self._present)
        if kind == A.LEVEL:
            if any(f.value == claim.value for f in values):
                return True
            return position, values[-1]
        if kind in (A.DATE, A.TIME):
            if any(_agrees(a, f) for a in clause_values if a.kind == kind for f in values):
                return True  # the sentence also gives the evidence's date
            if self._unowned_moment(claim, key):
                return None  # in the originals, and no other thing's: it may be this one's
            return position, values[0]
        if any(_same_money(claim.value, f.value) for f in values):
            return True
        others = [
            f
            for f in self._others(position, key)
            if f.kind == A.MONEY and _same_money(claim.value, f.value)
        ]
        if not others and self.index.supports_at(claim, position):
            return True  # the amount is in that message (a discount, a fee), owned by nothing else
        if any(
            _same_money(m.value, f.value)
            for m in clause_values
            if m.kind == A.MONEY
            for f in values
        ):
            return True  # the sentence also gives the evidence's amount: history, not a claim
        clause = self._clause_of(claim)
        if not matched and D.derived_cue(self.summary[clause[0] : clause[1]], 0, 0):
            return None  # "the two SKU-1 come to $37": worked out, not the entity's own value
        if self._owned_by(claim, key):
            return True  # an earlier message gives the entity this amount (a price, a rate)
        return position, _closest_amount(values, self.summary, claim)

    def _attribute(self, claim: Atom) -> set[str]:
        """The attribute words the summary gives an amount (``total``, ``fee``, ``nightly``)."""
        near = self.summary[max(0, claim.start - 30) : claim.end + 20].lower()
        clause = self._clause_of(claim)
        near = near[max(0, clause[0] - max(0, claim.start - 30)) :]
        found = {A.singular(w) for w in re.findall(r"[a-z]+", near)} & _MONEY_WORDS
        if "night" in found or "nightly" in found:
            found |= {"nightly", "rate"}
        return found

    def _outcome_claims(self, members: list[tuple[int, Atom]]) -> dict[int, ClaimFinding]:
        """The right number with the wrong outcome ("1,204 tests failed" of ``1204 passed, 0
        failed``): a count with an outcome word, against the originals' counts."""
        found: dict[int, ClaimFinding] = {}
        statuses = [(i, a) for i, a in members if a.kind == A.STATUS]
        for _, count in members:
            if count.kind not in (A.COUNT, A.NUMBER):
                continue
            number = _numeric_value(count)
            # past 18 digits no count of anything (and int() of it is quadratic in them)
            if number is None or number < 1 or number.adjusted() > 18:
                continue
            if number != number.to_integral_value():
                continue
            after = [
                (i, s)
                for i, s in statuses
                if 0 <= s.start - count.end <= 16
                and not any(c.isdigit() for c in self.summary[count.end : s.start])
                and not _JOINED.search(self.summary, count.end, s.start)
            ][:1]  # the first outcome after it, with no other number nor a new clause between
            # or the outcome just before it ("passed: 311"; not "failed, 311 passed")
            close = after + [
                (i, s)
                for i, s in statuses
                if 0 <= count.start - s.end <= 2
                and not self.summary[s.end : count.start].strip(" \t:")
            ]
            noun = count.value.partition(" ")[2] if count.kind == A.COUNT else ""
            if self.summary[max(0, count.start - 4) : count.start].endswith("of "):
                whole = _OF_TOTAL.search(self.summary, max(0, count.start - 24), count.start)
                part = A.to_decimal(whole.group("part"), grouped=True) if whole else None
                if part is None or not after:
                    continue  # "2 of 3 jobs": the total, not the count with that outcome
                # "8 of 9 files failed": the part is the count with the outcome after the whole
                number, close = part, after
            for i, status in close:
                # a word that counts an outcome ("3 assigned"), else the status's own family
                family = V.outcome_of(status.text) or status.value
                if family not in ("succeeded", "failed", "cancelled", "rejected"):
                    continue
                verdict = self._outcome_verdict(int(number), family, noun)
                if verdict is not None:
                    position, written = verdict
                    found[i] = self._finding(
                        CONTRADICTED, status, expected=written, evidence=(self.index.ref(position),)
                    )
        return found

    def _outcome_verdict(self, number: int, family: str, noun: str) -> tuple[int, str] | None:
        """The originals' count of ``number`` with another outcome, when they give one (a
        small number only on a line that names the counted noun)."""
        probe = Atom(A.NUMBER, str(number), str(number), 0, 0)
        conflict: tuple[int, str] | None = None
        position = self.start
        for _ in range(20):
            hit = self.index.first_support(probe, position, self.stop)
            if hit is None:
                break
            text = self.index.text(hit)
            for count, seen, written in outcome_counts(text):
                if count != number:
                    continue
                if number < 10 and not (noun and _line_with(text, written, noun)):
                    continue
                relation = V.status_relation(family, seen)
                if relation == "consistent":
                    return None
                if relation == "conflict" and conflict is None:
                    conflict = (hit, written)
            position = hit + 1
        return conflict

    def _topic_claims(
        self, claims: list[tuple[int, Atom]], clause_start: int, clause_end: int
    ) -> dict[int, ClaimFinding]:
        """A status or a level with no entity, about a kind of operation ("the deploy
        failed", "the health check returns HTTP 200").

        The operation is what the clause names (a word of a tool's operation: the deploy,
        the refund, the restore); when the clause also names what the call was about (an
        argument of it: "the test job", "prod") only those calls count.  Any such result
        that agrees will do ("the deploy failed" of a deploy that failed, then was retried
        and went out, is history); said of now ("is", "still"), each tool's last result
        must agree.  A statement about one operation is never judged by another's outcome.

        A status that disagrees is ``unverified``, never ``contradicted``: an operation
        named only by words is a loose match (another call of the tool, an earlier attempt,
        another part of the result), and on stories no rule was written beside most such
        conflicts were no error (docs/claims.md, "Batches 14 to 17").  A failed write told
        as done with its error untold is still ``dropped``, and ``contradicted`` by
        :meth:`_told_done`.
        """
        text = self.summary[clause_start:clause_end].lower().replace("re-run", "rerun")
        tokens = set(re.findall(r"[a-z0-9][a-z0-9_.-]*[a-z0-9]", text))
        statuses = [(i, a) for i, a in claims if a.kind == A.STATUS]
        levels = [(i, a) for i, a in claims if a.kind == A.LEVEL]
        if not statuses and not levels:
            return {}
        # what "everything but CAA" leaves out is not what the clause is about
        lead = self.summary[max(0, clause_start - 24) : clause_start].lower()  # "everything but"
        named = text
        for m in _EXCLUDED.finditer(lead + text):
            cut = max(0, m.start() - len(lead)), max(0, m.end() - len(lead))
            named = named[: cut[0]] + " " * (cut[1] - cut[0]) + named[cut[1] :]
        words = re.findall(r"[a-z][a-z0-9]*", named)
        positions: list[int] = []
        for tool, places in self.index.tool_names(self.start, self.stop):
            if names_operation(words, tool):
                positions.extend(places)
        if not positions:
            return self._topic_levels(levels, []) if levels else {}
        positions.sort()
        if self._about_another(clause_start, clause_end, positions):
            return {}
        asked = [p for p in positions if tokens & set(self._labels(p))]
        if asked:
            positions = asked
        if levels:
            found = self._topic_levels(levels, positions)
            if found:
                return found
        if not statuses:
            return {}
        said = [a for _, a in statuses]
        if any(self._present(a) for a in said):
            # about how things stand now: each tool's last result
            last: dict[str, int] = {}
            for position in positions:
                last[self.index.messages[position].tool_name or ""] = position
            positions = sorted(last.values())
        conflict: tuple[int, Fact] | None = None
        for position in reversed(positions[-_LOOK_BACK:]):
            own = self.index.facts(position).own_status()
            verdict = _status_verdict(said, own, position, present=self._present)
            if verdict is True:
                return {}
            if isinstance(verdict, tuple) and conflict is None:
                conflict = verdict
        if conflict is None:
            return {}
        position, fact = conflict
        i, claim = statuses[0]
        for j, atom in statuses:
            if V.status_relation(atom.value, fact.value) == "conflict":
                i, claim = j, atom
                break
        return {
            i: self._finding(
                UNVERIFIED,
                claim,
                expected=_of_operation(fact.text),
                entity=None,
                evidence=(self.index.ref(position),),
            )
        }

    def _about_another(self, clause_start: int, clause_end: int, positions: list[int]) -> bool:
        """Whether the clause gives an amount that the originals hold, but in no result of
        the operation it names: it is about what holds it ("the October prepayment of
        2.318,40 € is paid" of a tax account's row, not of the payment a tool scheduled)."""
        recent = positions[-_LOOK_BACK:]
        for atom in self._atoms_in(clause_start, clause_end):
            if atom.kind != A.MONEY:
                continue
            if self.index.first_support(atom, self.start, self.stop) is None:
                continue
            if not any(self.index.supports_at(atom, p) for p in recent):
                return True
        return False

    def _topic_levels(
        self, levels: list[tuple[int, Atom]], positions: list[int]
    ) -> dict[int, ClaimFinding]:
        """A level with no entity ("exited with code 137"): consistent when any result of
        the operation gives it, contradicted when the last one that gives a level on that
        scale gives another.  With no operation named either, the level is judged only
        when a single result in range gives one on that scale: then it is about that."""
        found: dict[int, ClaimFinding] = {}
        for i, claim in levels:
            if A.is_word_level(claim):
                continue  # "high priority" of nothing named: whose priority is unknown
            scale = V.level_scale(claim.value)
            seen: list[tuple[int, Fact]] = []
            candidates = positions or self.index.recent_results(self.start, self.stop, 30)
            for position in candidates[-_LOOK_BACK:]:
                for fact in self._own_levels(position):
                    if V.level_scale(fact.value) == scale:
                        seen.append((position, fact))
            if not positions and len({p for p, _ in seen}) != 1:
                continue  # several operations give levels: which one is meant is unknown
            if not seen or any(f.value == claim.value for _, f in seen):
                continue
            if positions and any(self.index.supports_at(claim, p) for p in positions[-_LOOK_BACK:]):
                continue  # a result of the operation gives it (of the run it started, say)
            if self.index.first_support(claim, self.start, self.stop) is not None:
                continue  # another result gives it, of an operation named in other words
            position, fact = seen[-1]
            found[i] = self._finding(
                CONTRADICTED, claim, expected=fact.text, evidence=(self.index.ref(position),)
            )
        return found

    def _own_levels(self, position: int) -> list[Fact]:
        """The levels a result gives itself (read once per check)."""
        found = self._levels.get(position)
        if found is None:
            own = self.index.facts(position).own
            found = self._levels[position] = [f for f in own if f.kind == A.LEVEL]
        return found

    def _labels(self, position: int) -> list[str]:
        return [v.lower() for v in call_labels(self.index.call_arguments(position))]

    # ------------------------------------------------------------ dropped

    def _dropped(self, claimed: set[tuple[int, int]]) -> list[ClaimFinding]:
        """Every error result the summary does not mention: ``dropped`` when the summary
        says nothing of trouble it does not tie to another error, else ``unverified`` (a
        clause of trouble the rules cannot tie to an error may be about this one, in words
        they do not know); and a clause (not one of ``claimed``, those contradicted
        already) that tells such a failed write as done, ``contradicted``."""
        groups = self.index.error_groups(self.start, self.stop)
        if not groups:
            return []
        mentions = self._mentions()
        classes = Counter(error_class for error_class, _ in groups)
        ordered = sorted(groups.items(), key=lambda g: g[1][1])
        tied: set[int] = set()  # clauses tied to an error
        unmentioned: list[tuple[str, str, list[int]]] = []
        found = [
            (
                error_class,
                tool,
                positions,
                self._mentioned(
                    error_class,
                    tool,
                    positions,
                    mentions,
                    single=len(groups) == 1,
                    unique=classes[error_class] == 1,
                ),
            )
            for (error_class, tool), (_, positions) in ordered
        ]
        named = {n for *_, (own, _, _) in found for n in own}  # named by an error's own marks
        errors_named = Counter(n for *_, (own, _, _) in found for n in own)
        findings: list[ClaimFinding] = []
        strong = [own - by_operation for *_, (own, _, by_operation) in found]
        for i, (error_class, tool, positions, (own, by_class, by_operation)) in enumerate(found):
            if self._named_for_another(i, error_class, strong, own, by_operation, mentions) or (
                not own and by_class and not by_class - named
            ):
                # the clauses that seem to tell it tell other errors (by their own marks,
                # or share only its kind of trouble with them); a clause that tells its
                # operation done is the summary's word on it: the error is dropped
                told = self._told_done(error_class, tool, positions, mentions, claimed)
            else:
                told = None
            if told is not None:
                findings += [told, self._drop(error_class, tool, positions, loose=False)]
                continue
            if own:
                tied |= own
                # a clause that names this error alone: what it says of it is about it
                alone = {n for n in own if errors_named[n] == 1}
                again = self._failed_again(tool, alone, mentions, claimed)
                if again is not None:
                    findings.append(again)
                continue
            if not by_class:
                unmentioned.append((error_class, tool, positions))
                continue
            # several clauses share only its kind of trouble: one of them tells it, the
            # others may tell another error, unless all but one name another error
            free = by_class - named
            if len(free) == 1:
                tied |= free
        if unmentioned and tied:
            tied |= self._continuing(tied)
        asides = self._asides() if unmentioned else set()
        loose = bool(unmentioned) and any(
            m.classes - {"weak"}
            and n not in tied
            and not m.planned
            and n not in asides
            and not self._elsewhere(n)
            and self.clauses[n] not in self._data_failures
            for n, m in enumerate(mentions)
        )
        for error_class, tool, positions in unmentioned:
            told = self._told_done(error_class, tool, positions, mentions, claimed)
            if told is not None:
                findings.append(told)
            findings.append(self._drop(error_class, tool, positions, loose=loose))
        return findings

    def _drop(
        self, error_class: str, tool: str, positions: list[int], *, loose: bool
    ) -> ClaimFinding:
        """The finding of an error the summary does not mention: ``dropped``, or with
        ``loose`` (a clause of trouble may tell it in other words) ``unverified``."""
        return ClaimFinding(
            kind=UNVERIFIED if loose else DROPPED,
            atom=self.index.messages[positions[0]].error or "",
            atom_kind="error",
            normalised=f"{error_class}:{tool}",
            expected="an error the summary may tell in other words" if loose else None,
            evidence=tuple(self.index.ref(p) for p in positions),
            searched=self.stop - self.start,
        )

    def _named_for_another(
        self,
        i: int,
        error_class: str,
        strong: list[set[int]],
        own: set[int],
        by_operation: set[int],
        mentions: list[_Mention],
    ) -> bool:
        """Whether the ``i``-th error is named only by clauses that name it by its
        operation or its thing (``by_operation``) and name another error by its own marks,
        with no word of its kind of trouble ("the pre-auth call got a 422" beside a failed
        ``hl7_push``: the clause tells the 422; "published on the second try after a 503"
        beside a failed ``sms_broadcast``: a retry is no word of its failure).  ``strong``:
        each error's clauses named by its own marks."""
        others = set().union(*(ties for j, ties in enumerate(strong) if j != i))
        return (
            bool(own)
            and own <= by_operation & others
            and not any(
                error_class in mentions[n].classes
                and (error_class not in _GENERIC_TROUBLE or self._says_failed(n))
                for n in own
            )
        )

    def _says_failed(self, n: int) -> bool:
        """Whether the ``n``-th clause has a word of failure that is not of a retry ("failed",
        "crashed"; not "on the second try", "after a retry"): a retry tells the error it
        follows, and that error is the one the clause names by its marks."""
        text = self.summary[slice(*self.clauses[n])]
        return any(not _RETRIED.fullmatch(m.group()) for m in _FAILED_WORDS.finditer(text))

    def _told_done(
        self,
        error_class: str,
        tool: str,
        positions: list[int],
        mentions: list[_Mention],
        claimed: set[tuple[int, int]],
    ) -> ClaimFinding | None:
        """A clause that tells a failed operation the summary says nothing of as done ("the
        update SMS was sent" of a ``send_sms`` that got a 503, never sent again): the clause
        names the operation (its object, what the call was about, or its own verb done)
        and says it is done, with no word of trouble, plan or doubt. ``None`` when a later
        call of the tool went through, or no clause tells it done."""
        verbs, objects = told_done_of(tool)
        if self._went_through_after(
            positions[-1],
            lambda name: name == tool or bool((verbs | objects) & set(tool_words(name))),
        ):
            return None  # tried again (or another way) and went through: "sent" is true
        # the same operation went through before, for another thing ("Ana is paid" of a
        # payment to Kenji that failed): a clause tells this one done only by what it asked
        asked = self._asked_apart(tool, positions[0])
        # its verbs and words of telling, less those of tools that went through
        done_verbs, told = self._done_words_of(tool)
        if runs_commands(tool):
            # what the command did: "the cash advice was sent" of a failed ``curl -X POST
            # .../api/v1/advices``
            programs, paths = command_operations(self.index.call_arguments(positions[0]))
            for name in programs:
                done_verbs |= told_done_of(name)[0]
            for name in paths:
                objects |= told_done_of(name)[1]
        # what the error's own lines name ("lk-0f3a-88e1 unreachable"), not a mail
        # server's status code ("552 5.3.4 message too big")
        named = frozenset(
            key
            for p in positions[:4]
            for key in self.index.error_line_entities(p)
            if not _MAIL_STATUS.fullmatch(key)
        )
        asides = self._asides()  # "Pending Tasks: - Set the copper target by hand"
        for n, (clause_start, clause_end) in enumerate(self.clauses):
            mention = mentions[n]
            if (
                n in asides
                or mention.planned
                or (mention.classes and not self._told_done_beside(n, error_class, tool))
            ):
                continue  # trouble of its own kind is no telling it done
            if (clause_start, clause_end) in claimed:
                continue
            if named and not mention.entities & named and not mention.words & _ALL:
                continue  # the call failed for one thing, the clause tells of others
            text = self.summary[clause_start:clause_end]
            if _DOUBT.search(text):
                continue
            match = _done_of(text, done_verbs, objects, told)
            if match is not None and asked is not None and not mention.words & _ALL:
                lowered = text.lower()  # "all three batches were paid" tells every one
                if not any(value in lowered for value in asked):
                    continue
            if match is not None:
                at = clause_start + match.start("done")
                done = match.group("done")
                atom = Atom(A.STATUS, done, "succeeded", at, at + len(done))
                line = self.index.messages[positions[0]].error or ""
                return self._finding(
                    CONTRADICTED,
                    atom,
                    expected=f"the originals say it failed: {line[:120]}",
                    evidence=tuple(self.index.ref(p) for p in positions[:4]),
                )
        return None

    def _done_words_of(self, tool: str) -> tuple[frozenset[str], frozenset[str]]:
        """The verbs of a tool's name that a clause tells its operation done by (its own
        done forms, :func:`told_done_of`) and the other done forms that tell it done
        (:func:`notice_done`), less those another tool that went through may be told done
        by ("the students were emailed" of a ``send_email`` that went through, beside a
        failed ``notify_instructor``; "resubmitted" of a renewal submitted on the retry,
        beside a refused ``ill_request_submit``): such a clause names this operation by
        what it acts on, or tells the other one done."""
        cached = self._done_words.get(tool)
        if cached is not None:
            return cached
        verbs, told = told_done_of(tool)[0], notice_done(tool)
        for name, found in self.index.tool_names(self.start, self.stop):
            if name == tool or all(self.index.messages[p].error is not None for p in found):
                continue
            theirs, notices = told_done_of(name)[0], notice_done(name)
            verbs -= theirs
            told = frozenset(
                word
                for word in told
                if word not in notices and not any(is_done_form(word, v) for v in theirs)
            )
        self._done_words[tool] = (verbs, told)
        return verbs, told

    def _asked_apart(self, tool: str, failed: int) -> frozenset[str] | None:
        """When an earlier call of ``tool`` went through, the values the failed call at
        ``failed`` asked for that the calls that went through did not (lower case, three
        letters or more); ``None`` when none went through before it."""
        earlier = next(
            (found for name, found in self.index.tool_names(self.start, failed) if name == tool),
            [],
        )
        done = [p for p in earlier if self.index.messages[p].error is None]
        if not done:
            return None
        others = {v for p in done for v in self._asked(p)}
        return frozenset(v for v in self._asked(failed) if v not in others)

    def _asked(self, position: int) -> set[str]:
        """What the call of the result at ``position`` names (:func:`call_values`), lower
        case, three letters or more (``{"payee": "Kenji Sato"}`` -> ``kenji sato``)."""
        return {v.lower() for v in call_values(self.index.call_arguments(position)) if len(v) >= 3}

    def _failed_again(
        self,
        tool: str,
        clauses: set[int],
        mentions: list[_Mention],
        claimed: set[tuple[int, int]],
    ) -> ClaimFinding | None:
        """A clause that names a failed operation and tells it failed again ("the retry also
        timed out", "was rejected again") where the operation failed once only and its next
        call, asking the same, went through: the retry did not fail.  ``None`` when the tool
        failed more than once, was not called again with the same arguments, or failed
        again, or no clause says so."""
        results = next(
            (found for name, found in self.index.tool_names(self.start, self.stop) if name == tool),
            [],
        )
        failed = [n for n, p in enumerate(results) if self.index.messages[p].error is not None]
        if len(failed) != 1 or failed[0] + 1 >= len(results):
            return None
        first, retry = results[failed[0]], results[failed[0] + 1]
        if self.index.messages[retry].error is not None or not _same_request(
            self.index.call_arguments(first), self.index.call_arguments(retry)
        ):
            return None  # failed again, or the next call asked for something else
        for n in sorted(clauses):
            if self.clauses[n] in claimed or mentions[n].planned:
                continue
            atom = self._told_again(*self.clauses[n])
            if atom is None:
                continue
            return self._finding(
                CONTRADICTED,
                atom,
                expected="the originals say it failed once, and the next call went through",
                evidence=(self.index.ref(first), self.index.ref(retry)),
            )
        return None

    def _told_again(self, start: int, end: int) -> Atom | None:
        """The status of failure of a phrase of a clause (between commas) that tells it
        happened again: "failed again", "the retry also timed out", "the rerun failed as
        well"; None when none does, or the phrase says it did not."""
        for phrase in _PHRASE.finditer(self.summary, start, end):
            failed = [a for a in self._atoms_in(*phrase.span()) if a.kind == A.STATUS]
            failed = [a for a in failed if _said_failed(a)]
            part = phrase.group()
            if not failed or _NEGATED.search(part):
                continue
            if _AGAIN.search(part) or (_RETRY_NOUN.search(part) and _ALSO.search(part)):
                return failed[0]
        return None

    def _continuing(self, tied: set[int]) -> set[int]:
        """The clauses of a line headed by a tool's name ("- send_sms: HTTP 503, queue
        full; the update was not delivered") that name and count nothing of their own,
        when a clause of the line is tied to an error: the line tells that error."""
        found: set[int] = set()
        for n, (start, end) in enumerate(self.clauses):
            if n in tied or any(
                a.kind in A.ENTITY_KINDS or a.kind in _NUMERIC for a in self._atoms_in(start, end)
            ):
                continue
            line_start = self.summary.rfind("\n", 0, start) + 1
            line_end = self.summary.find("\n", end)
            line_end = len(self.summary) if line_end < 0 else line_end
            if not _TOOL_LINE.match(self.summary, line_start):
                continue
            if any(line_start <= self.clauses[t][0] < line_end for t in tied):
                found.add(n)
        return found

    def _asides(self) -> set[int]:
        """The clauses under a heading that says what was asked, what it is about or what
        is still to do ("Key Technical Concepts", "Pending Tasks"): none tells what
        happened."""
        heads = [(m.start(), m.group("aside") is not None) for m in _HEADING.finditer(self.summary)]
        found: set[int] = set()
        for n, (start, _) in enumerate(self.clauses):
            last = [aside for at, aside in heads if at <= start]
            if last and last[-1]:
                found.add(n)
        return found

    def _elsewhere(self, clause: int) -> bool:
        """Whether a clause of trouble is about something the originals show that is no
        error result: it names the operation of a tool whose results report no error, or
        an entity or a number of a result that reports none ("DKIM s2026 missing", "1,924
        rejected": data a result reports)."""
        start, end = self.clauses[clause]
        words = set(re.findall(r"[a-z]+", self.summary[start:end].lower()))
        erring = {tool for _, tool in self.index.error_groups(self.start, self.stop)}
        for tool, _ in self.index.tool_names(self.start, self.stop):
            if tool not in erring and names_operation(words, tool):
                return True
        errors = set(self.index.errors(self.start, self.stop))
        for atom in self.atoms:
            if start <= atom.start < end and (
                atom.kind in A.ENTITY_KINDS
                or (atom.kind in _NUMERIC and (_numeric_value(atom) or 0) >= 10)
            ):
                at = self.index.first_support(atom, self.start, self.stop)
                while at is not None and at in errors:
                    at = self.index.first_support(atom, at + 1, self.stop)
                if at is not None and self.index.messages[at].role == "tool":
                    return True
        return False

    def _mentions(self) -> list[_Mention]:
        """Per clause: the classes of its words of trouble (not inside a tool's name:
        ``issue_refund`` holds no "issue"), its words, its entities, its numbers (an HTTP
        or exit code), its words joined by ``_``."""
        if self._mention_list is not None:
            return self._mention_list
        found: list[_Mention] = []
        tools = {tool.lower() for tool, _ in self.index.tool_names(self.start, self.stop)}
        # a word of a tool's name is no word of trouble ("a retry storm" beside retry_payment)
        verbs = {
            w[:-1] if w.endswith("y") else w
            for tool in tools
            for w in tool.split("_")
            if len(w) >= 4 and any(p.fullmatch(w) for _, p in F.MENTION_CLASSES)
        }
        own = (
            re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(verbs))) + r")[a-z]{0,4}\b", re.I)
            if verbs
            else None
        )
        requested = [m.span() for m in _REQUEST_SECTION.finditer(self.summary)]
        for clause_start, clause_end in self.clauses:
            if any(start <= clause_start < end for start, end in requested):
                # "1. Primary Request and Intent: Resolve SUP-48213: leaked key, ...": what
                # was asked before anything happened tells no error
                found.append(_Mention(set(), frozenset(), set(), set(), frozenset(), True))
                continue
            text = self.summary[clause_start:clause_end]
            troubled = _SNAKE.sub(
                lambda m: " " * len(m.group()) if m.group().lower() in tools else m.group(), text
            )
            if own is not None:
                troubled = own.sub(lambda m: " " * len(m.group()), troubled)
            troubles = [
                (name, m.start())
                for name, pattern in F.MENTION_CLASSES
                for m in pattern.finditer(troubled)
                if not _DENIED_TROUBLE.search(troubled, max(0, m.start() - 12), m.start())
            ]
            classes = {name for name, _ in troubles}
            if not classes:
                # an item of a list its sentence heads with trouble: "Also failed: closing
                # PR-30455 (409), ..., and the Slack post"
                classes = self._list_trouble(clause_start)
            # "isn't in the channel" says "not" as a word does
            lowered = _NOT_CONTRACTED.sub(" not", text.lower().replace("re-run", "rerun"))
            atoms = self._atoms_in(clause_start, clause_end)
            entities = {entity_key(a) for a in atoms if a.kind in A.ENTITY_KINDS}
            labels = re.findall(r"[a-z0-9][\w.-]*[a-z0-9]", lowered)
            entities |= {label_key(t) for t in labels}
            # a name the originals file by its number ("eNB-44107" as #44107)
            entities |= {f"#{m.group(1)}" for t in labels if (m := _NAMED_NUMBER.fullmatch(t))}
            numbers = set(re.findall(r"(?<![\d.])\d{1,3}(?!\d|[.,]\d)", text))
            names = frozenset(_SNAKE.findall(lowered))
            kebabs = frozenset(_KEBAB.findall(lowered))
            planned = _PLANNED.search(text) is not None
            in_order = re.findall(r"[a-z]+", lowered)
            if _CHANNEL_NAME.search(text):
                in_order.append("channel")  # "#district-north": a channel by its name
            words = frozenset(in_order)
            found.append(
                _Mention(
                    classes,
                    words,
                    entities,
                    numbers,
                    names,
                    planned,
                    word_pairs(lowered),
                    frozenset(map(_stem, words)),
                    f" {' '.join(in_order)} ",
                    _measures(atoms),
                    max((at for name, at in troubles if name != "weak"), default=-1),
                    _readings(text),
                    kebabs,
                )
            )
        self._mention_list = found
        return found

    def _list_trouble(self, at: int) -> set[str]:
        """The kinds of trouble the head of the sentence holding ``at`` names before a colon
        that opens a list ("Also failed:", "Errors:"), when ``at`` is after that colon."""
        start = _containing(self.sentences, self._sentence_starts, at, (at, at))[0]
        while start < at and self.summary[start].isspace():
            start += 1
        head = _LIST_HEAD.match(self.summary, start, at)
        if head is None:
            return set()
        return _classes_in(head.group("head")) - {"weak"}

    def _mentioned(
        self,
        error_class: str,
        tool: str,
        positions: list[int],
        mentions: list[_Mention],
        *,
        single: bool,
        unique: bool,
    ) -> tuple[set[int], set[int], set[int]]:
        """The clauses that mention the error: those that name it (its code, its
        distinctive words, its own code word, or a word of trouble with the failing
        operation or what the call was about), and, when none does, those that share only
        its kind of trouble when no other error shares it ("the card was declined"); and
        of the first, those that name it only by its operation or its thing beside a word
        of trouble (:data:`_BY_OPERATION`)."""
        anchors: set[str] = set()
        lines: list[str] = []
        for n, position in enumerate(positions[:20]):
            anchors |= self.index.error_anchors(position)
            # every line that reports it, for the first few: a summary may tell the error by
            # any ("died with CUDA out of memory" of a log whose ERROR line says "failed")
            if n < _ERROR_LINES_READ:
                lines.extend(self.index.error_lines(position))
            else:
                lines.append(self.index.messages[position].error or "")
        codes, distinct = _error_marks(lines)
        # the sizes and times of the lines of the first few (as their lines are read above)
        measures = set(
            _measures(
                a for p in positions[:_ERROR_LINES_READ] for a in self.index.error_line_atoms(p)
            )
        )
        names = {n for line in lines for n in _SNAKE.findall(line.lower())}
        readings = frozenset().union(*map(_readings, lines))
        kebabs = {k for line in lines for k in _KEBAB.findall(line.lower())}
        # two words in a row of its lines, or of its JSON fields ("Rapid Rooter declined the
        # job" of {"error": "vendor_declined", "vendor": "Rapid Rooter"})
        fields = [f for p in positions[:_ERROR_LINES_READ] for f in self.index.error_fields(p)]
        pairs = frozenset().union(*(word_pairs(line.lower()) for line in [*lines, *fields]))
        # the things the error's own lines name: its ids, and short names of letters and
        # digits too short to be ids ("ERROR GS-2 antenna ...", "QC05 spreader ...")
        things = set().union(
            *(self.index.error_line_entities(p) for p in positions[:_ERROR_LINES_READ])
        )
        things |= {label_key(t) for line in lines for t in _SHORT_NAME.findall(line.lower())}
        anchors = anchors | things
        tool_name = tool.lower()
        objects = {w for w in tool_words(tool)[1:] if w not in GENERIC_TOOL_WORDS and len(w) >= 3}
        # the program that reported it names the operation ("nginx: [emerg] ..." of run_shell)
        objects |= {p for p in map(F.program_of, lines) if p is not None}
        # and so do the program its command ran and its subcommand ("restic" of "timeout
        # 300 restic check", "sync" of "vetlink sync --lab idexx"), unless a word of any tool
        for position in positions[:_ERROR_LINES_READ]:
            objects |= command_programs(self.index.call_arguments(position)) - GENERIC_TOOL_WORDS
        found: set[int] = set()
        by_class: set[int] = set()
        by_operation: set[int] = set()
        for n, mention in enumerate(mentions):
            tie = self._mentions_error(
                mention,
                error_class,
                tool,
                tool_name,
                anchors,
                codes,
                distinct,
                names,
                objects,
                pairs,
                measures,
                things,
                readings,
                kebabs,
                single=single,
                unique=unique,
            )
            if tie is _BY_CLASS:
                by_class.add(n)
            elif tie is _BY_OPERATION and self._told_done_beside(n, error_class, tool):
                continue
            elif tie:
                found.add(n)
                if tie is _BY_OPERATION:
                    by_operation.add(n)
        if found:
            if any(mentions[n].classes - {"weak"} for n in found):
                # told by its own marks: a clause that only shares its kind of trouble may
                # tell another error ("the code was rejected" beside "the card was declined")
                return found, set(), by_operation
            # told by what it is about alone ("LO-58213 placed with Visionlab"): the clause
            # of its kind of trouble tells how it went ("the first request timed out")
            return found | by_class, set(), by_operation
        if by_class:
            return set(), by_class, set()
        if not anchors and not operation_words(tool):
            found = {n for n, m in enumerate(mentions) if m.classes - {"weak"}}
        return found, set(), set()

    def _told_done_beside(self, n: int, error_class: str, tool: str) -> bool:
        """Whether clause ``n``, which names a failed operation beside a word of another
        kind of trouble, tells the operation done ("WO-88341 is updated to scheduled" after
        "Rapid Rooter declined", of an update that timed out): the trouble is another's."""
        mention = self._mentions()[n]
        if error_class in mention.classes:
            return False
        verbs, told = self._done_words_of(tool)
        text = self.summary[slice(*self.clauses[n])]
        if _DOUBT.search(text):
            return False
        done = _done_of(text, verbs, (), told)
        # told after the trouble: "... refused (422), so ... DC-55120 is now marked SETTLED",
        # not "was resubmitted (a 503, then 202)", the retry of the call that got the 503
        return done is not None and mention.trouble_at <= done.start("done")

    @staticmethod
    def _mentions_error(
        mention: _Mention,
        error_class: str,
        tool: str,
        tool_name: str,
        anchors: set[str],
        codes: set[str],
        distinct: set[str],
        names: set[str],
        objects: set[str],
        pairs: frozenset[str],
        measures: set[str],
        things: set[str],
        readings: frozenset[str],
        kebabs: set[str],
        *,
        single: bool,
        unique: bool,
    ) -> bool | str:
        """Whether a clause mentions the error: ``True`` by a mark of its own (its code,
        its words, its operation, its object), :data:`_BY_CLASS` by its kind of trouble
        alone."""
        trouble = mention.classes - {"weak"}
        if codes & mention.numbers and (mention.classes or _CODE_WORDS & mention.words):
            return True  # "got a 503", "(409)", "exit code 3"
        if {c for c in codes & mention.numbers if len(c) == 3 and c[0] in "45"}:
            return True  # an HTTP status of the error, as a number of its own: "409 at 10:00"
        if names & mention.names:
            return True  # the error's own code word: "not_in_channel", "card_declined"
        if trouble and kebabs & mention.kebabs:
            return True  # a name of its line, with a word of trouble: "ICON-EU ... (CRC ERROR)"
        if any(_told_in_words(name, mention) for name in names):
            return True  # the code word in words: "not in their channel", "card was declined"
        if tool_name in mention.names and (mention.classes or "false" in mention.words):
            return True  # the tool by its name, with a word of trouble: "get_spc: ERROR ..."
        if mention.entities & anchors and any(
            _stem(w) in distinct and _stem(w) not in _tool_stems(tool) and V.status_family(w)
            for w in mention.words
        ):
            # its thing and the state it names ("WR-1 returned" of "error": "RETURNED"; not
            # "R-1 uploaded" of a failed upload, nor "all chunks verified" of a bad chunk)
            return True
        shared = distinct & mention.stems
        if not mention.classes:
            # no word of trouble: what the error's line says of a thing it names ("PM2-1409
            # was lost to web break BRK-2291"), unless the clause tells it done, another
            # story ("LS-0088 completed, 14 records acknowledged" of a sync that timed out
            # with 0 of 14 acknowledged)
            return bool(
                (
                    (
                        mention.entities & things
                        and (pairs & mention.pairs or measures & mention.measures or _long(shared))
                    )
                    # or a reading of it with a word of its own: "endotoxin ... 0.31 EU/mL"
                    or (readings & mention.readings and _long(shared))
                )
                and not _says_done(mention)
            )
        if len(shared) >= 2 or _long(shared):
            return True  # "checksum mismatch", "a nil pointer panic", "beyond the UCL"
        if pairs & mention.pairs:
            return True  # two words of the error line in a row: "sorter S3 (ERROR)"
        if measures & mention.measures:
            return True  # a size or a time of the error: "too big (over 10 MB)"
        if mention.entities & anchors:
            return _BY_OPERATION
        if names_operation(mention.words, tool):
            return _BY_OPERATION  # the operation, with a word of trouble ("two errors")
        if trouble and names_object(mention.words, objects):
            return _BY_OPERATION  # "the coupon was refused"
        if single and (error_class in trouble or "failed" in trouble):
            return _BY_CLASS  # the only error: a word of failure, or of its kind, is about it
        if error_class != "failed" and error_class in mention.classes and unique:
            return _BY_CLASS  # the only error of its kind: "timed out" names the timeout
        return False

    # ------------------------------------------------------------ findings

    def _searched_ends(self) -> tuple[EvidenceRef, ...]:
        """The first and last message searched (one when they are the same)."""
        if self._searched is None:
            if self.stop <= self.start:
                self._searched = ()
            else:
                first, last = self.index.ref(self.start), self.index.ref(self.stop - 1)
                self._searched = (first,) if self.stop - self.start == 1 else (first, last)
        return self._searched

    def _finding(
        self,
        kind: str,
        atom: Atom,
        *,
        expected: str | None = None,
        entity: str | None = None,
        evidence: tuple[EvidenceRef, ...] | None = None,
    ) -> ClaimFinding:
        sentence_start, sentence_end = _containing(
            self.sentences, self._sentence_starts, atom.start, (0, len(self.summary))
        )
        if evidence is None:
            evidence = self._searched_ends()
        return ClaimFinding(
            kind=kind,
            atom=atom.text,
            atom_kind=atom.kind,
            normalised=atom.value,
            expected=expected,
            sentence=self.summary[sentence_start:sentence_end],
            start=atom.start - sentence_start,
            end=atom.end - sentence_start,
            offset=sentence_start,
            entity=entity,
            evidence=evidence,
            searched=self.stop - self.start,
        )


class _Mention(msgspec.Struct, frozen=True):
    classes: set[str]
    words: frozenset[str]
    entities: set[str]
    numbers: set[str]
    names: frozenset[str]  # words joined by ``_`` (``not_in_channel``, ``get_spc``)
    planned: bool = False  # a task, a plan or a condition: "fix X", "retry once it is paid"
    pairs: frozenset[str] = frozenset()  # its words two by two ("sorter s3")
    stems: frozenset[str] = frozenset()  # its words without their endings (:func:`_stem`)
    phrase: str = ""  # its words in order, one space between, one before and after
    measures: frozenset[str] = frozenset()  # its sizes and times (:func:`_measures`)
    # where its last word of trouble (not a weak one) begins, from the clause's start
    trouble_at: int = -1
    readings: frozenset[str] = frozenset()  # its numbers with decimals (:func:`_readings`)
    kebabs: frozenset[str] = frozenset()  # its names of words joined by ``-`` ("icon-eu")


#: A clause that tells an operation done: a verb's done form after "was", "has been", "I"
#: or at the clause's start, or a word of the done family.
_TOLD_DONE: Final = lazy(
    r"(?:\b(?:was|were|is|are|has\s+been|have\s+been|had\s+been|got|now|i|we|successfully)"
    r"\s+(?:\w+ly\s+)?|^[\s\-*\d.)]{0,8}|\b(?:\w+s)\s+|\b[a-z]+\s+(?=went\s))(?:e-)?"
    # a regular done form, or one of the irregular ones tools' verbs have ("sent", "paid")
    r"(?P<done>[a-z]{3,}ed|"
    + "|".join(sorted({form for forms in IRREGULAR_DONE.values() for form in forms}))
    + r"|went\s+(?:out|through)|in\s+place|live)\b",
    re.IGNORECASE,
)
#: What begins a new clause with its own subject ("... and the invoice ...", "but it").
_NEW_CLAUSE: Final = lazy(
    r"\b(?:and|but)\s+(?:the|a|an|this|that|these|those|its|their|his|her|it|they|we|i)\b"
    r"|\b(?:but|while|whereas)\b|[;,]\s*(?:and|but)\b",
    re.IGNORECASE,
)
#: After a done form: a quantity it amounts to ("worked out at", "topped out at 95%").
_QUANTITY_AFTER: Final = lazy(r"\s{1,3}out\s{1,3}at\b", re.IGNORECASE)
#: A short name of letters and digits in an error line, too short to be an id ("GS-2",
#: "QC05"): a clause names the same thing by it.
_SHORT_NAME: Final = lazy(r"(?<![\w-])[a-z]{2,4}-?\d{1,3}(?![\w-])")
#: Words that make a clause tell of every thing an operation acted on.
_ALL: Final = frozenset(_words("all every both each entire whole full"))
#: The status families of a word that tells an operation done (``None``: a verb's done form
#: that is no status word, "uploaded").
_DONE_FAMILIES: Final = frozenset({None, "succeeded", "completed", "approved", "delivered"})
#: Done forms that tell no operation done.
_NOT_DONE: Final = frozenset(
    _words(
        "attempted tried retried requested asked started initiated planned proposed expected "
        "needed required queued scheduled pending awaited waited used based called named "
        "related listed noted checked confirmed reported returned received showed "
        "flagged raised limited capped locked blocked rejected declined denied refused failed "
        "timed stopped paused"
    )
)
#: The words that tell a failure happened again ("failed again", "the retry also timed
#: out", "the second one was rejected too").
_AGAIN: Final = lazy(r"\bagain\b", re.IGNORECASE)
_RETRY_NOUN: Final = lazy(
    r"\b(?:retry|retries|re-?run|re-?try|resubmission|second (?:attempt|try|run|call|one|pass|"
    r"submission|request))\b",
    re.IGNORECASE,
)
_ALSO: Final = lazy(r"\b(?:also|too|as well)\b", re.IGNORECASE)
#: A phrase of a clause: what lies between its commas, colons and brackets.
_PHRASE: Final = lazy(r"[^,;:()]+")
#: Words that say a failure did not happen again ("did not fail again").
_NEGATED: Final = lazy(r"\b(?:not|never|no longer|without)\b|n't\b", re.IGNORECASE)
#: Words that make a clause a doubt, a negation or a plan, not a telling of what was done.
_DOUBT: Final = lazy(
    r"\b(?:not|never|no|n't|without|unable|cannot|yet|still|pending|awaiting|will|would|"
    r"should|may|might|to\s+be|again|retry|once|until|if|unless)\b",
    re.IGNORECASE,
)
#: A line headed by a tool's name ("- send_sms: HTTP 503, queue full").
_TOOL_LINE: Final = lazy(
    r"[ \t]{0,8}(?:[-*•]|\d{1,2}[.)])?[ \t]{0,3}`?[a-z][a-z0-9]{0,30}(?:_[a-z0-9]{1,30}){1,6}`?:"
)
#: A comma alone between two entities: after a phrase that opens a sentence ("On EXS-4471,
#: FLG-90412 ..."), it ends the phrase rather than joining a list.
_BARE_COMMA: Final = lazy(r",\s{1,3}")
#: Between two entities, what joins them into one phrase ("s-1 and s-2", "A, B or C").
_COORDINATED: Final = lazy(r"\s{0,2}(?:,|&|and|or|,\s{0,2}and)\s{1,3}")
#: A clause that mentions an error only by its kind of trouble ("timed out", "refused").
_BY_CLASS: Final = "by class"
#: A clause that names an error's operation or thing, with a word of trouble of its own.
_BY_OPERATION: Final = "by operation"
#: A clause about what did not happen: "option B would have cost 335,00 EUR".
_HYPOTHETICAL: Final = lazy(
    r"\b(?:would|could|might)(?: not|n't)? (?:have|'ve)\b|\b(?:would|could)'ve\b", re.I
)
#: Before a status word, what makes it a condition or a plan ("once the change is paid").
_CONDITION: Final = lazy(r"\b(?:once|until|unless|if|when|after|before)\b[^,;.]{0,36}$", re.I)
#: Between an entity and an amount after it, another item of a list with a subject of its
#: own: "CB-55140 failed (...), the limit increase to EUR 6,000".
_LISTED_SUBJECT: Final = lazy(r"[,;]\s{1,3}(?:and\s{1,3})?the\s[a-z]", re.IGNORECASE)
#: Between an entity and a claim after it, a new subject ("after a £6.00 credit was").
_NEW_SUBJECT: Final = lazy(r"\b(?:a|an|another)\s", re.IGNORECASE)
#: Just before an id, what makes it a code of something else: "reason AC04", "code E-17".
_CODE_BEFORE: Final = lazy(r"\b(?:reason|code|error)[ \t:]{1,3}$", re.IGNORECASE)
#: Words that tell an operation went through, not what state its thing is in.
_WENT_THROUGH: Final = frozenset(("went through", "succeeded", "successful", "successfully"))
#: Between an entity and a claim after it, the next item of a list with a subject of its
#: own: "INC-1 returned 503, and the post to #data failed", ", Slack post failed".
_NEXT_SUBJECT: Final = lazy(r"(?:[,;]|\band\b|\bbut\b)\s{1,3}(?:the\s{1,3}[a-z]|[A-Z][a-z]+\s)")
#: Between a claim and an entity after it, a conjunction: the entity starts another clause.
_JOINED: Final = lazy(r"\b(?:and|but|while|then|so)\b|[,;:|]", re.IGNORECASE)
#: Just before a status word, a count it is the outcome of ("9 rejected", "3 users failed").
_COUNTED: Final = lazy(
    r"(?:(?<![\w.,/:#-])\d[\d,.]{0,12}|\b(?i:two|three|four|five|six|seven|eight|nine|ten|"
    r"eleven|twelve))[ \t](?:[a-z]{1,20}[ \t]){0,2}$"
)
_WORD: Final = lazy(r"[A-Za-z]+")
_COPULAS: Final = frozenset(_words("is was are were been be has have had being"))
#: Just before a status word (past "is", "was", "has been"), a word that may be its subject,
#: and a number after it ("claims 1-14 rejected").
_SUBJECT_BEFORE: Final = lazy(
    r"(?<![\w/.-])(?P<noun>[a-z]{3,30})(?:[ \t]+[\d-]{1,12})?"
    r"(?:[ \t]+(?:is|was|were|are|has[ \t]+been|have[ \t]+been|had[ \t]+been|got|now|still))*"
    r"[ \t]+$"
)
#: Words before a status that are no subject of their own.
_NOT_SUBJECT_WORDS: Final = (
    "and but or so then also already all both each which that who it they this these those "
    "was were is are has have had been got now still just not never since as the its their "
    "his her our your one two three four five six seven eight nine ten finally yet later "
    "first again shows show showed showing remains remained stays stayed looks seems became "
    "becomes marked listed reads reported"
)
_NOT_SUBJECTS: Final = frozenset(_NOT_SUBJECT_WORDS.split(" "))
#: Just before a status word, an article: the word qualifies a noun ("the failed payment").
_ATTRIBUTIVE: Final = lazy(r"\b(?:the|a|an|this|that|each|every|its|their)\s{1,3}$")
#: After a status word that opens a bracket, a noun that closes it: "(closed account)".
_NOUN_CLOSES: Final = lazy(r"[ \t]{1,3}[a-z]{3,30}\)")
#: After a status word, what makes it a verb of reporting: "returned 503", "answered 401".
_REPORTED: Final = lazy(r"\s{1,3}(?:an? |with |HTTP |code |status )?\d")
#: After a status word, the HTTP status a call got back: "was refused (409)", "refused with
#: a 422", "port-in refused, 422 NP-117". The word tells what the call got, not the state
#: the thing is in (a room refused to one booking is held by another).
_CALL_CODE: Final = lazy(
    r"[ \t]{0,2}[,(]?[ \t]{0,2}(?:with[ \t]{1,3})?(?:an?[ \t]{1,3})?(?:HTTP[ \t]{1,3})?"
    r"[45]\d\d(?![\d%]|[.,]\d)"
)
#: After a status word, a noun and the id of what it names: the word is what the subject
#: did to that thing ("authorised and triggered alert FA-20261201-0417"), the thing's own
#: state only ("accepted referral REF-25258").
_NAMED_OBJECT: Final = lazy(r"[ \t]{1,3}[a-z]{3,20}[ \t]{1,3}(?P<id>[A-Z][A-Za-z]{0,7}[-_]?\d)")
#: After a status word, an object: the word is what the subject did to it ("DU approved
#: the file", "The Work Number returned no record"), not the state of an entity.
_TRANSITIVE: Final = lazy(
    r"\s{1,3}(?:(?:the|a|an|no|its|their|his|her|our|my|this|that|these|those|it|them)\b"
    r"|[A-Z][a-z]|[A-Z]{2,5}\b)"  # "returned Refer with Caution", "passed CI"
)
#: After a percentage, a word of change ("a 25 % cut"); before it, a verb of change ("fell
#: 22.9%", "up by 6%"): a change between two numbers, worked out.
_CHANGE_AFTER: Final = lazy(
    r"\s?(?:cut|drop|fall|decrease|reduction|increase|rise|jump|gain|discount|markup|"
    r"mark-up|uplift|higher|lower|more|less|up|down)\b",
    re.IGNORECASE,
)
_CHANGE_BEFORE: Final = lazy(
    r"\b(?:up|down|rose|fell|grew|dropped|increased|decreased|cut|reduced|raised|climbed|"
    r"slipped)(?:\s+by)?\s+$",
    re.IGNORECASE,
)
#: Classes of trouble words that name no kind of failure ("failed", "an error").
_GENERIC_TROUBLE: Final = frozenset({"failed", "weak"})
#: Words of failure of no kind (failures.MENTION_TERMS["failed"]).
_FAILED_WORDS: Final = dict(F.MENTION_CLASSES)["failed"]
#: Those of a retry ("retried", "on the second try").
_RETRIED: Final = lazy(
    r"retr(?:y|ied|ies|ying)|(?:on|at|in) (?:the |its |a )?(?:second|2nd|third|3rd|next) \w+",
    re.IGNORECASE,
)
#: An option a summary names by its letter or number ("option A", "quote 2"), as the
#: originals' table of options files its row.
_OPTION_NAMED: Final = lazy(
    r"(?i:\b(?:option|plan|offer|quote|alternative|choice|variant|scenario))[ \t]([A-Z0-9]{1,2})\b"
)
#: Before a status word, an aside with a subject of its own: "(the first order timed out)".
_ASIDE_SUBJECT: Final = lazy(r"\((?:the|a|an|its|their|his|her|our)\s[^()]{1,40}$", re.I)
#: Just before a status word, a hedge: only part of it is said ("mostly worked").
_HEDGED: Final = lazy(r"\b(?:mostly|partly|partially|largely|almost|nearly|half)\s+$", re.I)
#: After a status, the ones it leaves out: "paid except for two", "for everyone but two".
_SAVE_FOR: Final = lazy(
    r"[^.;:]{0,40}?\b(?:except(?:\s+for)?|apart\s+from|save\s+for|but\s+(?:for\s+)?(?:one|two|three|"
    r"four|five|a\s+few|some|\d+(?![\d.,])))\b",
    re.I,
)
#: Before an amount, a quantity and "at" (or "x", "@"): the amount is a price per unit
#: ("1,450 kg at EUR 9,10", "10 x 38,00").
_PER_UNIT: Final = lazy(r"(?<![\w.,/-])\d[\d.,]*\s*(?:[A-Za-z]{1,8}\.?\s+)?(?:at|x|×|@)\s*$")
#: After an amount, what makes it a rate ("$24.00 a month", "EUR 119 per night", "each").
_RATE: Final = lazy(r"\s{0,2}(?:(?:a|an|per|each)\b|/)\s{0,2}(?:[a-z]{2,12})?", re.IGNORECASE)
#: Words of an amount that name no attribute of it ("refund RF-1 of $480").
_GENERIC_MONEY_WORDS: Final = frozenset(_words("refund amount charge charged paid cost price"))
_RATE_KEY: Final = lazy(r"price|rate|unit|per|each|monthly|nightly|daily|hourly|fee")
#: Fields that state an outcome, beside the status fields.
_OUTCOME_FIELDS: Final = frozenset(
    _words("status state result outcome conclusion verdict decision disposition stage phase reason")
)
#: After a percentage, what makes it a share of something the originals count.
_SHARE_OF: Final = lazy(
    r"\s{1,3}(?:[A-Za-z]{2,12}\s{1,3})?(?:of|on|over|above|below|under|more|less|fewer|up|down|"
    r"higher|lower)\b",
    re.I,
)
#: Before a time, an event of a log or a monitor it is the time of ("an ERROR at 07:45:02",
#: "the alarm at 22:49", "a WARN (06:12)").
_EVENT_AT: Final = lazy(
    r"(?i)\b(?:error|errors|warn|warning|fatal|critical|alarm|alert|fault|crash|crashed|"
    r"exception|panic|trip|tripped|break)[ \t]{1,3}(?:at|@|\()[ \t]{0,2}$"
)
#: A chat channel by its name: ``#pm2-shift``, ``#district-north-structures``.
_CHANNEL_NAME: Final = lazy(r"(?<![\w#&])#[a-z][a-z0-9_-]{1,60}")
#: Before a number, what makes it a difference ("by 5.5 points").
_BY: Final = lazy(r"\b(?:by|saved?|saves|saving)\s{1,3}(?:about\s|some\s|another\s)?$")
#: After a number (and its unit or noun), a word of comparison: the number is a difference.
_COMPARED: Final = lazy(
    # after at most three words or a unit ("per tonne", "/kg", "a month in P&I", "€ per
    # person")
    r"(?:\s{0,2}(?:/\s?)?[A-Za-z%&€$£¥]{1,12}){0,3}\s{1,3}(?:above|below|over|under|beyond|"
    r"short of|more than|less than|fewer than|higher than|lower than|ahead of|behind|"
    # a comparative alone: "0.039 lower in macro-F1", "29 ms faster at p95", "$122.63 less"
    r"lower|higher|faster|slower|smaller|larger|bigger|cheaper|dearer|greater|shorter|"
    r"longer|heavier|lighter|wider|narrower|less|more|fewer|later|earlier|sooner)\b",
    re.IGNORECASE,
)
#: After a number, what makes it what is left of another: "1880 tickets left", "183 seats
#: unsold", "$287.65 to go".
_LEFT_OVER: Final = lazy(
    r"(?:\s{1,3}[A-Za-z]{1,12})?\s{1,3}(?:left|remaining|unsold|to go|outstanding)\b",
    re.IGNORECASE,
)
#: How many of the last results a value not said to be derived may be worked out from.
_RECENT_DERIVED: Final = 4
#: How many messages that say what a claim says are read for whose value it is.
_SUPPORTING_READ: Final = 5
#: Words that say a quantity is what is left of another.
_REMAINDER: Final = lazy(
    r"(?i)\b(?:free|left|remaining|remains?|spare|headroom|to go|short of|unused)\b"
)
#: How many percentages of an amount's phrase are tried as a share added to or taken off
#: one of its amounts.
_SHARES_TRIED: Final = 4
#: How many of one summary's numbers are tried as worked out from its originals (each
#: try combines up to :data:`~foldctl.claims.derived.MAX_NUMBERS` numbers of several
#: results); past it a number not found as written is ``unverified``, never
#: ``unsupported``, so a summary of thousands of sentences is checked in bounded time.
_WORKED_OUT_BUDGET: Final = 500
#: "N of " just before a count: the count is the total the part N is of (and an outcome
#: after the total is the part's: "8 of 9 files failed").
_OF_TOTAL: Final = lazy(r"(?<![\d,.])(?P<part>\d[\d,.]{0,20})[ \t]{1,3}of[ \t]{1,3}$")
#: A bracket opened after a thing and still open (" (TPU 95A, "): what follows in it is an
#: attribute of that thing.
_BRACKET_OPEN: Final = lazy(r"[ \t]{0,4}[(\[][^()\[\]\n]{0,48}")
#: After a status word, that it was an earlier state: "timed out once, then confirmed".
_ONCE_THEN: Final = lazy(
    r"\s(?:once|at first|first|initially|(?:on|at) the first)\b", re.IGNORECASE
)
#: Words before a status that make it an earlier state ("the first validation failed").
_EARLIER: Final = lazy(
    r"\b(?:first|initial|initially|earlier|previous|original|originally|at first)\b",
    re.IGNORECASE,
)
#: What a clause leaves out of what it says ("everything but CAA is fixed").
_EXCLUDED: Final = lazy(
    r"\b(?:everything|all|anything|each|every \w+)[ \t]+(?:but|except(?: for)?|other than|"
    r"apart from|save)[ \t]+(?:the[ \t]+)?[\w.-]+",
    re.IGNORECASE,
)
#: A lower-case noun joined to a short number: a thing named by a value ("batch-64").
_NOUN_VALUE: Final = lazy(r"([a-z]{3,20})-(\d{1,3})")
#: A time given in a zone or a place's local time ("07:00 UTC", "18:10 Lisbon time").
_ZONED: Final = lazy(
    r"[ \t(]{1,2}(?:[A-Z]{1,5}\b|Z\b|[A-Z][a-z]{2,20} time|local|"
    r"(?:Eastern|Central|Mountain|Pacific|Atlantic)\b)"
)
#: The number a quantity starts with, as written ("9,4" of "9,4 °C").
_WRITTEN_NUMBER: Final = lazy(r"\d[\d.,]*")
#: A heading of a sectioned summary; ``aside`` when its section tells no events.
_HEADING: Final = lazy(
    r"(?im)^[ \t#*]{0,6}(?:\d{1,2}[.)][ \t]{1,3})?(?:(?P<aside>primary request|key technical "
    r"concepts|pending tasks|optional next step|next steps?|all user messages|user messages)"
    r"|[a-z][a-z ]{2,40}:[ \t]*$)"
)
#: The section of a long summary that restates the request, up to a blank line or the
#: next heading ("1. Primary Request and Intent:\n   Resolve SUP-48213 ...\n\n2. Key ...").
#: Not :data:`_HEADING`'s sections: those run on to the next heading it knows, and a
#: summary that writes "4. Errors and fixes: the call timed out ..." on one line would
#: have its errors read as part of the request.
_REQUEST_SECTION: Final = lazy(
    r"(?im)^[ \t]*(?:\d{1,2}[.)][ \t]*)?(?:\*\*)?(?:primary )?request(?: and intent)?(?:\*\*)?:"
    r"[^\n]*(?:\n(?![ \t]*\n|[ \t]*(?:\d{1,2}[.)][ \t]*|#{1,4}[ \t]+)[A-Z*]"
    r"|[ \t]*[A-Z*][\w *]{0,40}:[ \t]*$)[^\n]*){0,40}"
)
#: A clause that states a task or a plan, not what happened ("Pending Tasks: fix the rows").
_PLANNED: Final = lazy(
    r"^[\s\-*\d.)]{0,8}(?:fix|retry|re-?run|resend|re-?import|rerun|investigate|ask|check|report|"
    r"follow up|chase|get|publish|change|grade|put|look)\b|\b(?:next step|pending tasks?|"
    r"to do|todo|will|should|need(?:s|ed)? to|once|until|if)\b",
    re.IGNORECASE,
)


#: A word joined by ``_`` (a tool's name, an error's code: ``not_in_channel``).
_SNAKE: Final = lazy(r"(?<![\w])[a-z][a-z0-9]{0,30}(?:_[a-z0-9]{1,30}){1,6}(?![\w])")
#: An enhanced mail status code (RFC 3463): "5.3.4", "4.2.2".
_MAIL_STATUS: Final = lazy(r"[245]\.\d{1,3}\.\d{1,3}")
#: The head of a sentence that opens a list with a colon: "Also failed:", "Errors today:".
_LIST_HEAD: Final = lazy(r"(?P<head>[A-Za-z][\w ]{0,30}):\s")
#: Words joined by hyphens, none a number: a name ("icon-eu", "gw-rg"), or a compound.
_KEBAB: Final = lazy(r"(?<![\w-])[a-z]{2,20}(?:-[a-z]{2,20}){1,4}(?![\w-])")


def word_pairs(lowered: str) -> frozenset[str]:
    """A lower-cased text's words two by two, those that say which thing: words that
    start with a letter, neither common in error lines, one of five letters or more or one
    a code of letters and digits (``sorter s3``; not ``the service``, not the pieces of an
    id or a date: ``ln 2026``, ``2026 12``)."""
    tokens = [
        part
        for token in _PAIR_TOKEN.findall(lowered[:4000])
        # a compound of words is its words ("first-aid" of "first aid given"); an id stays whole
        for part in (token.split("-") if _compound(token) else (token,))
    ]
    return frozenset(
        f"{a} {b}"
        for a, b in pairwise(tokens)
        if _PAIR_WORD.fullmatch(a)
        and _PAIR_WORD.fullmatch(b)
        and a not in F.COMMON_ERROR_WORDS
        and b not in F.COMMON_ERROR_WORDS
        and a not in _PAIR_FILLER
        and b not in _PAIR_FILLER
        and (max(len(a), len(b)) >= 5 or any(c.isdigit() for c in a + b))
    )


#: A word or a code (``s3``) with nothing glued to it: the pieces of ``LN-2026-0481733``
#: and ``2026-12-03`` are not words.
_PAIR_TOKEN: Final = lazy(r"[\w-]+")
_PAIR_WORD: Final = lazy(r"[a-z][a-z0-9]*")


def _compound(token: str) -> bool:
    """Whether a lower-case token is words joined by hyphens ("first-aid"), not an id."""
    if "-" not in token:
        return False
    parts = token.split("-")
    return len(parts) > 1 and all(p.isascii() and p.isalpha() for p in parts)


#: Words too small to say which thing two words name.
_PAIR_FILLER: Final = frozenset(_words("a an the of to in on at for by and or is was with no not"))


def _classes_in(text: str) -> set[str]:
    """The kinds of trouble ``text`` names (:data:`~foldctl.claims.failures.MENTION_CLASSES`)."""
    return {name for name, pattern in F.MENTION_CLASSES if pattern.search(text)}


def _done_of(
    text: str,
    verbs: frozenset[str],
    objects: Iterable[str],
    told: frozenset[str] = frozenset(),
) -> re.Match[str] | None:
    """The first word of a clause that tells an operation done: the operation's own verb
    done ("uploaded") or one of ``told`` (:func:`notice_done`: "texted" of a failed
    ``notify_guest``), or a done word whose subject or complement is what the operation
    acts on ("the coupon was applied", "delivered to the skipper"). What it acts on after
    the word is its complement unless a list goes on first (", ", "and", "or": "put in
    for 30 t and waits for the district engineer"); before it, its subject unless a new clause
    begins between them ("fees worked out ... and the invoice"). Not an entity alone:
    "INC-7 is marked resolved" tells no restart of INC-7's pods."""
    wanted = tuple(objects)
    named = (
        [w.start() for w in _WORD.finditer(text) if names_object((w.group().lower(),), wanted)]
        if wanted
        else []
    )
    if wanted and names_object(("channel",), wanted):
        named += [c.start() for c in _CHANNEL_NAME.finditer(text)]  # "#qa-release" of a chat
    for match in _TOLD_DONE.finditer(text):
        done = match.group("done").lower()
        if done in _NOT_DONE:
            continue
        # the operation's own verb done tells it done, whatever state its word names
        # ("the scan is booked for 13:00" of a failed ``exam_book``)
        own = done in told or any(is_done_form(done, verb) for verb in verbs)
        if not own and V.status_family(done) not in _DONE_FAMILIES:
            continue
        if _QUANTITY_AFTER.match(text, match.end("done")):
            continue  # "worked out at $21,634.31": an amount, no outcome
        if own:
            return match
        at = match.start("done")
        if any(
            not (_COORDINATED if place > at else _NEW_CLAUSE).search(
                text, min(place, at), max(place, at)
            )
            for place in named
        ):
            return match
    return None


def _same_request(first: tuple[Any, ...], then: tuple[Any, ...]) -> bool:
    """Whether a call asks again what an earlier one asked (a retry): every argument of the
    first with the same value, and one more at most (``"retry": true``)."""
    if len(first) != 1 or len(then) != 1:
        return False
    before, after = first[0], then[0]
    if not isinstance(before, dict) or not isinstance(after, dict) or not before:
        return before == after and bool(before)
    return all(after.get(key) == value for key, value in before.items()) and (
        len(after) <= len(before) + 1
    )


def _told_in_words(name: str, mention: _Mention) -> bool:
    """Whether every word of an error's code word (``not_in_channel``) is a word of the
    clause ("the note never arrived because we are not in their channel"): two words at
    least, one of them more than a word of any error ("error_code" says nothing)."""
    parts = name.split("_")
    if len(parts) < 2 or not all(p.isalpha() for p in parts):
        return False
    if all(len(p) < 4 or p in F.COMMON_ERROR_WORDS for p in parts):
        return False
    if all(p in mention.words or _stem(p) in mention.stems for p in parts):
        return True
    if len(parts) == 2 and _long(parts[1:]) and parts[1] not in F.COMMON_ERROR_WORDS:
        # a thing and a state of its own: the state tells it ("C-121 not (unsigned gift
        # letter)" of ``document_unsigned``)
        return parts[1] in mention.words
    # a code word of three words or more names what failed first ("recipient_opted_out"):
    # the rest, in a row, tells it ("she opted out"), unless the rest is a bare negation
    # that needs its subject ("not found" of "channel_not_found")
    rest = parts[1:]
    return (
        len(rest) >= 2
        and rest[0] not in ("not", "no")
        and any(len(p) >= 4 and p not in F.COMMON_ERROR_WORDS for p in rest)
        and f" {' '.join(rest)} " in mention.phrase
    )


def _readings(text: str) -> frozenset[str]:
    """The numbers with decimals a text gives, with a point ("0.31" of "0,31 EU/mL"): a
    reading is as good as a word of an error's line at naming it."""
    return frozenset(m.replace(",", ".") for m in _READING.findall(text[:2000]))


#: A number with decimals, not part of a longer run of digits and dots (a version, a date).
_READING: Final = lazy(r"(?<![\d.,])\d{1,6}[.,]\d{1,4}(?![\d]|[.,]\d)")


def _long(words: Iterable[str]) -> bool:
    """Whether one of an error's own words is long enough to say which error."""
    return any(len(w) >= 7 for w in words)


def _says_done(mention: _Mention) -> bool:
    """Whether a clause has a word of a status family of done ("completed", "shipped")."""
    for word in mention.words:
        family = V.status_family(word)
        if family is not None and V.FAMILIES[family].polarity == V.DONE:
            return True
    return False


def _stem(word: str) -> str:
    """A word without its commonest endings, so that ``points`` and ``point``, ``subgroups``
    and ``subgroup``, ``certificates`` and ``certificate`` name the same thing."""
    for ending in ("ing", "ed", "es", "s"):
        if len(word) > len(ending) + 3 and word.endswith(ending):
            word = word[: -len(ending)]
            break
    # a final "e" too, so that both forms meet ("certificates" -> "certificat" <- "certificate")
    return word[:-1] if len(word) > 4 and word.endswith("e") else word


#: An HTTP status code and the first words of its reason phrase, up to a status that ends
#: it ("504 Gateway Timeout", "503 Service Unavailable").
_HTTP_REASON: Final = lazy(r"(?<![\w.,/-])[1-5]\d\d(?:[ \t]+[A-Z][A-Za-z-]{1,20}){1,3}[ \t]+$")
#: After a status, the release it comes in ("fixed in 9.3.2", "resolved in v4.1").
_IN_RELEASE: Final = lazy(r"[ \t]{1,3}in[ \t]{1,3}(?:v|version |release )?\d+(?:\.\d+)+\b")
#: A negation glued to its verb ("isn't", "can't", "wasn't"), lower case.
_NOT_CONTRACTED: Final = lazy(r"n[\u2019']t\b")
#: A short name and a long number joined by ``-`` (``enb-44107``), lower case.
_NAMED_NUMBER: Final = lazy(r"[a-z]{1,6}-(\d{4,12})")
#: A name made of words joined by ``-`` or ``_`` (``weekly_rollup``, ``deploy-preview``).
_NAME_TOKEN: Final = lazy(r"(?<![\w-])[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+){1,6}(?![\w-])")
#: Words before a small count that make it relative to something unsaid ("the other two").
_RELATIVE: Final = frozenset(_words("other remaining rest both"))
#: Words that make an amount one of several things together, not of one of them.
_TOGETHER: Final = lazy(
    r"\b(?:together|combined|in all|altogether|add(?:s|ed)? up|sum of|between them|both)\b",
    re.IGNORECASE,
)
#: Words just before a word of trouble that say there was none ("without problems"); not
#: the end of an address ("eksamen@nordvik-uni.no failed").
_DENIED_TROUBLE: Final = lazy(
    r"(?:(?<![.@-])\b(?:without|no|zero|never|free of)|(?<![\d.,])0)\s+(?:any\s+)?$",
    re.IGNORECASE,
)
#: How many results of one error group are read for every line that reports the error.
_ERROR_LINES_READ: Final = 3
_CODE_WORDS: Final = frozenset(_words("http status code exit exited got returned answered"))
_ERROR_WORDS: Final = lazy(r"[a-z]{5,}")
_ACRONYM: Final = lazy(r"(?<![\w])[A-Z]{3,6}(?![\w])")
_LEVEL_WORDS: Final = frozenset(
    [
        "ERROR",
        "FATAL",
        "WARN",
        "WARNING",
        "INFO",
        "DEBUG",
        "TRACE",
        "CRITICAL",
        "PANIC",
        "SEVERE",
        "EMERG",
        "HTTP",
        "FAILED",
        "FAIL",
        "GET",
        "POST",
        "PUT",
        "PATCH",
        "DELETE",
        "UTC",
    ]
)
_ERROR_CODES: Final = lazy(r"(?<![\d.])([1-5]\d\d|[1-9]\d{0,2})(?![\d.])")


@lru_cache(maxsize=1024)
def _tool_stems(tool: str) -> frozenset[str]:
    """The stems of the words of a tool's name (``drone_upload`` -> drone, upload)."""
    return frozenset(_stem(w) for w in tool_words(tool))


#: The kinds of claim a value of another entity the clause names bears out: an amount, a
#: level, a date, a time (a status has rules of its own: another subject, its own noun).
_VALUE_KINDS: Final = frozenset((A.MONEY, A.LEVEL, A.DATE, A.TIME))

#: The kinds of atom that measure: a size, a time, a share.
_MEASURE_KINDS: Final = frozenset((A.QUANTITY, A.DURATION, A.PERCENT))


def _measures(atoms: Iterable[Atom]) -> frozenset[str]:
    """The sizes, times and shares among ``atoms``, as their kind and normalised value
    (``quantity:10 MB``; a duration in seconds, so "30 min" and "1,800 s" meet)."""
    return frozenset(f"{a.kind}:{a.value}" for a in atoms if a.kind in _MEASURE_KINDS)


def _error_marks(lines: Sequence[str]) -> tuple[set[str], set[str]]:
    """What names an error: its codes (an HTTP status, an exit code) and its distinctive
    words (long, and not common to every error)."""
    codes: set[str] = set()
    distinct: set[str] = set()
    for line in lines:
        lowered = line.lower()
        for m in _ERROR_CODES.finditer(lowered):
            before = lowered[max(0, m.start() - 12) : m.start()]
            if len(m.group()) == 3 or "exit" in before or "code" in before:
                codes.add(m.group())
        distinct |= {
            _stem(w)
            for w in _ERROR_WORDS.findall(lowered)
            if w not in F.COMMON_ERROR_WORDS and w not in GENERIC_TOOL_WORDS
        }
        distinct |= {  # an acronym is as distinctive as a long word: "beyond UCL"
            w.lower() for w in _ACRONYM.findall(line) if w not in _LEVEL_WORDS
        }
    return codes, distinct


def _line_with(text: str, written: str, noun: str) -> bool:
    """Whether the line of ``text`` holding ``written`` names ``noun``."""
    at = text.find(written)
    if at < 0:
        return False
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return noun in text[start : end if end >= 0 else len(text)].lower()


def _agrees(claim: Atom, fact: Fact) -> bool:
    """Whether a fact gives the date, time, amount or level ``claim`` says."""
    if claim.kind != fact.kind:
        return False
    if claim.kind == A.DATE:
        return A.dates_agree(claim.value, fact.value)
    if claim.kind == A.TIME:
        return A.times_agree(claim.value, claim.text, fact.value, fact.text)
    if claim.kind == A.MONEY:
        return _same_money(claim.value, fact.value)
    return claim.kind == A.LEVEL and fact.value == claim.value


def _weakly(seen: str) -> str:
    """What an ``unverified`` finding says of a conflict on weak evidence."""
    return (
        f"the originals say {_brief_text(seen)}, on weak evidence (another attribute or subject?)"
    )


def _of_operation(seen: str) -> str:
    """What an ``unverified`` finding says of a status that disagrees with the result of
    an operation the clause names only by words."""
    return f"the originals say {_brief_text(seen)} of the operation the clause names by words"


def _brief_text(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= 80 else flat[:77] + "..."


def _numeric_value(atom: Atom) -> Decimal | None:
    try:
        if atom.kind in (A.MONEY, A.NUMBER, A.PERCENT):
            return A.parse_money(atom.value)[1]
        if atom.kind in (A.COUNT, A.QUANTITY, A.DURATION):
            return Decimal(atom.value.split(" ", 1)[0])
    except ArithmeticError:
        return None
    return None


def _places(atom: Atom) -> int:
    """How many decimals the summary wrote a number with (what a derivation is rounded to)."""
    return 2 if atom.kind == A.MONEY else A.decimal_places(atom.text)


def _said_failed(claim: Atom) -> bool:
    """Whether a status claim says something failed (of the failed family)."""
    family = V.FAMILIES.get(claim.value)
    return family is not None and family.polarity == V.FAILED


def _status_verdict(
    said: Sequence[Atom],
    statuses: Sequence[Fact],
    position: int,
    *,
    present: Callable[[Atom], bool],
) -> bool | tuple[int, Fact] | None:
    if not statuses:
        return None
    conflict: Fact | None = None
    for claim in said:
        for fact in statuses:
            if V.status_family(fact.text.strip()) == claim.value:
                return True  # the originals' own word ("error": "RETURNED" of "returned")
            relation = V.status_relation(claim.value, fact.value)
            if (
                relation == "consistent"
                and claim.value != fact.value
                and present(claim)
                and V.FAMILIES[claim.value].polarity != V.FAMILIES[fact.value].polarity
            ):
                relation = "conflict"  # "is pending" of something approved: no longer true
            if relation == "consistent":
                return True
            if relation == "conflict" and conflict is None:
                conflict = fact
    return None if conflict is None else (position, conflict)


def _same_money(claim: str, seen: str) -> bool:
    currency, amount = A.parse_money(claim)
    other_currency, other = A.parse_money(seen)
    if currency and other_currency and currency != other_currency:
        return False
    return amount == other


def _closest_amount(amounts: Sequence[Fact], summary: str, claim: Atom) -> Fact:
    """The evidence amount the claim most likely restates: same field name as a nearby word."""
    nearby = set(re.findall(r"[a-z]+", summary[max(0, claim.start - 40) : claim.end + 20].lower()))
    for fact in amounts:
        if fact.key and set(fact.key.split("_")) & nearby:
            return fact
    currency = A.parse_money(claim.value)[0]
    for fact in amounts:
        if currency and A.parse_money(fact.value)[0] == currency:
            return fact
    return amounts[0]
