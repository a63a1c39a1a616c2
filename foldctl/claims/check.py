"""A summary against the evidence it stands for: unsupported, contradicted, dropped.

The caller gathers the evidence (a span's messages and, recursively, the
originals of the summaries nested in it, never a nested summary's own text)
and files it in an :class:`~foldctl.claims.index.EvidenceIndex`; this module
reads the summary and compares.  See ``docs/claims.md`` for the rules.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from foldctl.claims import atoms as A
from foldctl.claims.atoms import Atom
from foldctl.claims.atoms import words as _words
from foldctl.claims.index import (
    EvidenceIndex,
    EvidenceRef,
    Fact,
    MessageAtoms,
    entity_key,
)
from foldctl.lazyre import lazy

UNSUPPORTED: Final = "unsupported"
CONTRADICTED: Final = "contradicted"
DROPPED: Final = "dropped"
UNVERIFIABLE: Final = "unverifiable"
KINDS: Final = (UNSUPPORTED, CONTRADICTED, DROPPED, UNVERIFIABLE)


@dataclass(frozen=True, slots=True)
class ClaimFinding:
    """One thing a summary gets wrong, with what a reviewer needs to check it.

    ``atom`` is the text as the summary wrote it (for ``dropped``, the error
    line of the original); ``atom_kind`` its kind (``error`` for ``dropped``);
    ``normalised`` its normalised value (for ``dropped``, ``CLASS:TOOL``, e.g.
    ``timeout:lookup_flight``); ``expected`` what the originals say instead
    (``contradicted`` only); ``sentence`` the summary sentence holding the
    atom, ``start``/``end`` the atom's offsets in it and ``offset`` the
    sentence's offset in the summary; ``entity`` the entity a contradicted
    status or amount belongs to.  ``evidence`` cites messages: for
    ``contradicted`` the message with the other value, for ``dropped`` the
    error result(s); for ``unsupported`` nothing supports the atom, so it
    names the first and last message searched and ``searched`` how many
    (every message of the range; the caller holds the full list, which would
    make a long chain's findings quadratic).
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
    """
    index = evidence if isinstance(evidence, EvidenceIndex) else EvidenceIndex(evidence)
    start, stop = index.span(start, stop)
    if stop <= start:
        return [unverifiable(summary)]
    before = start if context is None else max(0, min(context, start))
    return _Check(summary, index, start, stop, before).run()


# --------------------------------------------------------------------------- sentences

_ABBREVIATIONS: Final = frozenset(
    _words(
        "mr mrs ms dr vs etc e.g i.e approx no inc ltd st jan feb mar apr jun jul aug sep "
        "sept oct nov dec rev fig"
    )
)
_SENTENCE_END: Final = lazy(r"[.!?]+[\"')\]]*\s+|\n\s*")
_CLAUSE_BREAK: Final = lazy(
    r";|\s[—–]\s|\s-\s|,?\s+(?:but|while|whereas|although|though|however|meanwhile)\s+"
)
_PREPOSITIONS: Final = frozenset(
    _words("for of to from on with against via by about in under per after into onto toward")
)
_NUMERIC: Final = frozenset({A.MONEY, A.NUMBER, A.PERCENT, A.COUNT, A.DURATION})
_APPROXIMATELY: Final = frozenset(
    _words("about around roughly approximately nearly almost over under some circa estimated")
)
_ROUNDED_SUFFIX: Final = lazy(r"\d\s?(?:k|K|m|M|bn|thousand|million|billion)$")
#: Words that end a prepositional phrase, looking back from an entity.
_PHRASE_BREAKS: Final = frozenset(
    ["as", "is", "was", "are", "were", "and", "or", "named", "called", "id"]
)
#: Words that place a topic claim on an earlier attempt ("the first deploy failed").
_EARLIER: Final = frozenset(
    _words(
        "first initial earlier previous prior once before retried retry again attempt "
        "attempts originally"
    )
)
#: Words before a status that claim it holds now: an earlier stage is then no excuse.
_PRESENT: Final = frozenset(
    ["is", "are", "remains", "remain", "still", "currently", "now", "stays"]
)
#: How many earlier mentions of an entity are read back for a value when the last gives none.
_LOOK_BACK: Final = 50


def sentences(text: str) -> list[tuple[int, int]]:
    """The sentences of ``text`` as (start, end) offsets, trimmed."""
    spans: list[tuple[int, int]] = []
    begin = 0
    for match in _SENTENCE_END.finditer(text):
        if match.group().strip() and not match.group().startswith("\n"):
            words = re.findall(r"[\w.]+$", text[begin : match.start()])
            last = words[-1].lower() if words else ""
            if last in _ABBREVIATIONS or (len(last) == 1 and last.isalpha()):
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


# --------------------------------------------------------------------------- topics

#: Words of a summary that name a kind of operation, and the tool-name words of
#: the tool results that report on it (for a status with no identifier nearby:
#: "the deploy failed", "CI passed").
TOPICS: Final[dict[str, tuple[str, ...]]] = {
    word: tools
    for words, tools in (
        (
            "deploy deploys deployed deployment deploying release released rollout rolled",
            ("deploy", "deployment", "release", "rollout"),
        ),
        (
            "build builds ci pipeline tests test suite checks",
            ("build", "ci", "pipeline", "test", "tests", "checks", "pytest", "jest"),
        ),
        ("migration migrations migrate migrated", ("migration", "migrate", "migrations")),
        ("backup backups restore restored", ("backup", "restore")),
        ("payment payments charge", ("payment", "charge", "pay")),
        ("sync import export job", ("sync", "import", "export", "job")),
    )
    for word in words.split()
}
_TOPIC_FAMILIES: Final = frozenset({"succeeded", "failed", "rolled_back", "running", "cancelled"})

# --------------------------------------------------------------------------- the check


class _Check:
    def __init__(
        self, summary: str, index: EvidenceIndex, start: int, stop: int, context: int
    ) -> None:
        self.summary = summary
        self.index = index
        self.start = start
        self.stop = stop
        self.context = context  # [context, start): the conversation before, for plain atoms
        self.atoms = A.summary_atoms(summary)
        self.sentences = sentences(summary)
        self.clauses = _clauses(summary, self.sentences)
        self._searched: tuple[EvidenceRef, ...] | None = None

    # ------------------------------------------------------------ driver

    def run(self) -> list[ClaimFinding]:
        findings: list[ClaimFinding] = []
        contradicted = self._contradictions()
        for position, atom in enumerate(self.atoms):
            if position in contradicted:
                findings.append(contradicted[position])
            elif (
                atom.kind in A.FACT_KINDS
                and not self._approximate(atom)
                and not self._supported(atom)
            ):
                findings.append(self._finding(UNSUPPORTED, atom))
        findings.extend(self._dropped())
        seen: set[tuple[str, str, str | None]] = set()
        unique: list[ClaimFinding] = []
        for finding in findings:
            key = (finding.kind, finding.normalised, finding.entity)
            if key not in seen:
                seen.add(key)
                unique.append(finding)
        return unique

    # ------------------------------------------------------------ unsupported

    def _approximate(self, atom: Atom) -> bool:
        """A rounded figure ("about 480", "~3.2k", "$1.2M"): not a value to look up."""
        if atom.kind not in _NUMERIC:
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
                return number <= total if number else total == 0
            if number < 10:
                verdict = index.small_count_support(number, lemma, start, stop)
                return verdict is None or verdict
        if index.first_support(atom, start, stop) is not None:
            return True
        return self.context < start and index.first_support(atom, self.context, start) is not None

    # ------------------------------------------------------------ contradicted

    def _contradictions(self) -> dict[int, ClaimFinding]:
        found: dict[int, ClaimFinding] = {}
        for clause_start, clause_end in self.clauses:
            members = [
                (i, a)
                for i, a in enumerate(self.atoms)
                if clause_start <= a.start and a.end <= clause_end
            ]
            entities = [a for _, a in members if a.kind in A.ENTITY_KINDS]
            claims = [
                (i, a)
                for i, a in members
                if a.kind in (A.STATUS, A.MONEY)
                or (a.kind == A.DATE and (len(a.value) == 10 or a.value.startswith("--")))
            ]
            if not claims:
                continue
            if entities:
                found.update(self._entity_claims(claims, entities, members))
            else:
                found.update(self._topic_claims(claims, clause_start, clause_end))
        return found

    def _candidates(self, entities: list[Atom], claim: Atom) -> list[Atom]:
        """The entities a status or amount may belong to (see docs/claims.md).

        The clause's *subject* before the claim: the nearest entity before it,
        stepping back over entities that follow a preposition ("refund RF-1 of
        $480 for CH-2 approved" is about RF-1) or that are versions and hashes
        (attributes: "DEP-7 of api v2.1 went out" is about DEP-7); then the
        nearest entity after it, unless a preposition introduces that one.
        """
        before = [e for e in entities if e.end <= claim.start][::-1]
        after = [e for e in entities if e.start >= claim.end]
        chosen: list[Atom] = []
        if before:
            index = 0
            while index + 1 < len(before) and (
                self._after_preposition(before[index]) or before[index].kind in (A.VERSION, A.HASH)
            ):
                index += 1
            chosen.append(before[index])
        if after and (not chosen or not self._after_preposition(after[0])):
            chosen.append(after[0])
        return chosen

    def _after_preposition(self, entity: Atom) -> bool:
        """Whether a preposition introduces ``entity`` ("for CH-2", "for the capture CH-2")."""
        before = self.summary[max(0, entity.start - 40) : entity.start]
        words = re.findall(r"[A-Za-z]+|\d\S*", before)[-4:]
        for word in reversed(words):
            if word[0].isdigit() or any(c.isupper() for c in word[1:]):
                return False  # another entity or number in between: not this one's phrase
            if word.lower() in _PHRASE_BREAKS:
                return False  # "deployed to staging as DEP-1": DEP-1 is named, not governed
            if word.lower() in _PREPOSITIONS:
                return True
        return False

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
        clause_values = [a for _, a in members if a.kind in (A.MONEY, A.DATE)]
        for i, claim in claims:
            conflict: tuple[Atom, int, Fact] | None = None
            agreed = False
            for entity in owners[i]:
                verdict = self._judge(claim, entity, said.get(entity.value, [claim]), clause_values)
                if verdict is True:
                    agreed = True
                    break
                if isinstance(verdict, tuple) and conflict is None:
                    conflict = (entity, verdict[0], verdict[1])
            if conflict is not None and not agreed:
                entity, position, fact = conflict
                found[i] = self._finding(
                    CONTRADICTED,
                    claim,
                    expected=fact.value if fact.kind == A.MONEY else fact.text,
                    entity=entity.text,
                    evidence=(self.index.ref(position),),
                )
        return found

    def _judge(
        self, claim: Atom, entity: Atom, said: list[Atom], clause_values: list[Atom]
    ) -> bool | tuple[int, Fact] | None:
        """True: the evidence agrees; (position, fact): it disagrees; None: it is silent.

        A status is judged by the last message that mentions the entity and
        gives it a status (looking back past mentions that only refer to it):
        statuses change.  An amount likewise, by its last stated amount.  A
        date by every date the evidence gives the entity: dates accumulate
        (ordered, shipped, due), they do not replace each other.
        """
        kind = claim.kind
        stop = self.stop
        latest: tuple[int, list[Fact]] | None = None
        for _ in range(_LOOK_BACK):
            position = self.index.last_support(entity, self.start, stop)
            if position is None:
                break
            stop = position
            facts = self.index.facts(position).entities.get(entity_key(entity), [])
            values = [f for f in facts if f.kind == kind]
            if not values:
                continue
            if kind == A.DATE:
                if any(A.dates_agree(claim.value, f.value) for f in values):
                    return True
                if self.index.supports_at(claim, position):
                    return True
                latest = latest or (position, values)
                continue
            latest = (position, values)
            break
        if latest is None:
            return None
        position, values = latest
        if kind == A.STATUS:
            return _status_verdict(said, values, position, present=self._present)
        if kind == A.DATE:
            if any(
                A.dates_agree(a.value, f.value)
                for a in clause_values
                if a.kind == A.DATE
                for f in values
            ):
                return True  # the sentence also gives the evidence's date
            return position, values[0]
        if any(_same_money(claim.value, f.value) for f in values):
            return True
        others = [
            f
            for key, facts in self.index.facts(position).entities.items()
            if key != entity_key(entity)
            for f in facts
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
        return position, _closest_amount(values, self.summary, claim)

    def _topic_claims(
        self, claims: list[tuple[int, Atom]], clause_start: int, clause_end: int
    ) -> dict[int, ClaimFinding]:
        """A status with no entity, about a kind of operation ("the deploy failed").

        The claim is about the last result of that kind of tool in range,
        unless the clause speaks of an earlier attempt ("the first deploy
        failed", "was retried"): then any result of that kind that agrees
        with it will do.
        """
        words = re.findall(r"[a-z]+", self.summary[clause_start:clause_end].lower())
        tools = [t for w in words for t in TOPICS.get(w, ())]
        statuses = [(i, a) for i, a in claims if a.kind == A.STATUS and a.value in _TOPIC_FAMILIES]
        if not tools or not statuses:
            return {}
        positions = self.index.tool_results(dict.fromkeys(tools), self.start, self.stop)
        if not positions:
            return {}
        said = [a for _, a in statuses]
        if any(self._present(a) for a in said) or not _EARLIER & set(words):
            positions = positions[-1:]  # about the outcome, not about some earlier attempt
        conflict: tuple[int, Fact] | None = None
        for position in reversed(positions[-_LOOK_BACK:]):
            own = [f for f in self.index.facts(position).own if f.kind == A.STATUS]
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
            if A.status_relation(atom.value, fact.value) == "conflict":
                i, claim = j, atom
                break
        return {
            i: self._finding(
                CONTRADICTED,
                claim,
                expected=fact.text,
                entity=None,
                evidence=(self.index.ref(position),),
            )
        }

    # ------------------------------------------------------------ dropped

    def _dropped(self) -> list[ClaimFinding]:
        groups = self.index.error_groups(self.start, self.stop)
        if not groups:
            return []
        mentions = self._mentions()
        findings: list[ClaimFinding] = []
        for (error_class, tool), (_, positions) in groups.items():
            if self._mentioned(error_class, tool, positions, mentions, single=len(groups) == 1):
                continue
            line = self.index.messages[positions[0]].error or ""
            findings.append(
                ClaimFinding(
                    kind=DROPPED,
                    atom=line,
                    atom_kind="error",
                    normalised=f"{error_class}:{tool}",
                    evidence=tuple(self.index.ref(p) for p in positions),
                    searched=self.stop - self.start,
                )
            )
        return findings

    def _mentions(self) -> list[tuple[set[str], str, set[str]]]:
        """Per clause with a problem word: the classes of its words, its text, its entities."""
        found: list[tuple[set[str], str, set[str]]] = []
        for clause_start, clause_end in self.clauses:
            text = self.summary[clause_start:clause_end]
            classes = {m.lastgroup or "failed" for m in A.MENTION_PATTERN.finditer(text)}
            if not classes:
                continue
            entities = {
                entity_key(a)
                for a in self.atoms
                if a.kind in A.ENTITY_KINDS and clause_start <= a.start < clause_end
            }
            found.append((classes, text.lower(), entities))
        return found

    def _mentioned(
        self,
        error_class: str,
        tool: str,
        positions: list[int],
        mentions: list[tuple[set[str], str, set[str]]],
        *,
        single: bool,
    ) -> bool:
        if not mentions:
            return False
        anchors: set[str] = set()
        for position in positions:
            anchors |= self.index.error_anchors(position)
        words = [
            w
            for w in re.split(r"[^a-z0-9]+", re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", tool).lower())
            if len(w) >= 3 and w not in A.GENERIC_TOOL_WORDS
        ]
        related = set(words)
        for word, tools in TOPICS.items():
            if any(t in words for t in tools):
                related.add(word)
        for classes, text, entities in mentions:
            if classes - {"weak"} and single:
                return True  # the only error: any word of trouble is about it
            if error_class in classes:
                return True
            if entities & anchors:
                return True
            if any(re.search(rf"\b{re.escape(w)}", text) for w in related):
                return True
        return not anchors and not related

    # ------------------------------------------------------------ findings

    def _searched_ends(self) -> tuple[EvidenceRef, ...]:
        """The first and last message searched (one when they are the same)."""
        if self._searched is None:
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
        sentence_start, sentence_end = next(
            ((s, e) for s, e in self.sentences if s <= atom.start < e),
            (0, len(self.summary)),
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
            relation = A.status_relation(claim.value, fact.value)
            if relation == "consistent" and claim.value != fact.value and present(claim):
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
