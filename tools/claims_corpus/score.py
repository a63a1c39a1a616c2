"""Scoring: each case's findings against the findings it must raise, per kind and per family.

A finding is matched as (kind, normalised atom).  ``unsupported``, ``contradicted`` and
``dropped`` are scored for precision and recall; a finding a case *allows* (a derived
total reported ``unverified``) is neither; the info kinds (``unverified``,
``unverifiable``) are counted apart: an ``unverified`` a case does not allow is a
finding on a summary that should have none.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from foldctl.claims import (
    EvidenceIndex,
    EvidenceRef,
    MessageAtoms,
    check_summary,
    evidence_text,
    index_message,
)
from tools.claims_corpus.kit import Case

#: The kinds that say a summary is wrong: scored for precision and recall.
KINDS = ("unsupported", "contradicted", "dropped")
#: The kinds that say something could not be confirmed: counted, never wrong.
INFO_KINDS = ("unverified", "unverifiable")
#: What the corpus asks of every kind: the thresholds its unit tests hold.
PRECISION = 0.95
RECALL = 0.9

Found = list[tuple[str, str]]


@dataclass
class Score:
    """True positives, false positives and false negatives of one kind of finding."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0


@dataclass(frozen=True)
class Miss:
    case: str
    kind: str  # "fp" or "fn"
    finding: tuple[str, str]
    summary: str


@dataclass
class Tally:
    """Everything a scoring run counts."""

    kinds: dict[str, Score] = field(default_factory=lambda: {k: Score() for k in KINDS})
    families: dict[str, dict[str, Score]] = field(default_factory=dict)
    cases: Counter[str] = field(default_factory=Counter)  # per family
    info: Counter[str] = field(default_factory=Counter)  # "unverified allowed", ...
    faithful: int = 0  # cases that must raise nothing
    faithful_flagged: list[str] = field(default_factory=list)
    misses: list[Miss] = field(default_factory=list)

    def add(self, case: Case, got: Iterable[tuple[str, str]]) -> None:
        family = self.families.setdefault(case.domain, {k: Score() for k in KINDS})
        self.cases[case.domain] += 1
        found = Counter(got)
        want = Counter(case.expected)
        allowed = set(case.allowed)
        wrong = False
        for key in set(found) | set(want):
            kind = key[0]
            if kind in INFO_KINDS:
                if kind == "unverified" and key not in allowed:
                    wrong = True
                    self.misses.append(Miss(case.id, "fp", key, case.summary))
                label = kind if kind != "unverified" else unverified_label(key in allowed)
                self.info[label] += found[key]
                continue
            if kind not in self.kinds:
                continue
            hit = min(found[key], want[key])
            extra = 0 if key in allowed else found[key] - hit
            for score in (self.kinds[kind], family[kind]):
                score.tp += hit
                score.fp += extra
                score.fn += want[key] - hit
            if extra:
                wrong = True
                self.misses.append(Miss(case.id, "fp", key, case.summary))
            if want[key] > hit:
                self.misses.append(Miss(case.id, "fn", key, case.summary))
        if not case.expected:
            self.faithful += 1
            if wrong:
                self.faithful_flagged.append(case.id)

    def add_matched(
        self,
        family: str,
        case_id: str,
        summary: str,
        scores: Mapping[str, Score],
        wrong: Iterable[tuple[str, tuple[str, str]]],
        info: Iterable[str],
        quiet: bool,
    ) -> None:
        """A case whose findings were matched to its labels by other rules (a written family's,
        by kind and place in the summary): its counts per kind, what it got wrong (``"fp"`` or
        ``"fn"``, and (kind, text)), the labels of its info findings, and whether it is a case
        that must raise nothing."""
        per_family = self.families.setdefault(family, {k: Score() for k in KINDS})
        self.cases[family] += 1
        for kind, s in scores.items():
            for score in (self.kinds[kind], per_family[kind]):
                score.tp += s.tp
                score.fp += s.fp
                score.fn += s.fn
        misses = [Miss(case_id, what, finding, summary) for what, finding in wrong]
        self.misses += misses
        self.info.update(info)
        if quiet:
            self.faithful += 1
            if misses:
                self.faithful_flagged.append(case_id)


def unverified_label(allowed: bool) -> str:
    """How the info line counts an ``unverified`` finding: on a value that may be reported so
    (a derived value, a trap that allows it), or elsewhere."""
    return "unverified " + ("on a trap that allows it" if allowed else "elsewhere")


def index_case(case: Case) -> EvidenceIndex:
    """The evidence of a case, filed the way the claims command files a span's originals."""
    return EvidenceIndex(case_evidence(case))


def case_evidence(case: Case) -> list[tuple[EvidenceRef, MessageAtoms]]:
    """How each evidence message of a case is cited, and its cheap index, in order."""
    return [
        (
            EvidenceRef(e.locator, e.digest),
            index_message(
                evidence_text(e.text, e.tool_calls),
                role=e.role,
                tool_name=e.tool_name,
                call_names=[c["name"] for c in e.tool_calls],
                is_error=e.is_error,
            ),
        )
        for e in case.evidence
    ]


def findings_of(case: Case) -> Found:
    """The case's summary checked against its originals, as (kind, normalised atom)."""
    return [(f.kind, f.normalised) for f in check_summary(case.summary, index_case(case))]


def tally(cases: Sequence[Case], findings: Callable[[Case], Found]) -> Tally:
    counted = Tally()
    for case in cases:
        counted.add(case, findings(case))
    return counted


def direct_cases(cases: Sequence[Case]) -> list[Case]:
    """The cases that can be checked from their text alone (a discarded fold exists only
    in a checkpoint)."""
    return [case for case in cases if not case.inner_discarded]


def score(cases: Sequence[Case]) -> tuple[dict[str, Score], list[Miss]]:
    """Per-kind counts over ``cases``, each summary checked against its originals directly."""
    counted = tally(direct_cases(cases), findings_of)
    return counted.kinds, counted.misses


def score_table(scores: dict[str, Score]) -> str:
    lines = [f"{'kind':14} {'tp':>5} {'fp':>5} {'fn':>5} {'precision':>10} {'recall':>8}"]
    for kind, s in scores.items():
        lines.append(f"{kind:14} {s.tp:5d} {s.fp:5d} {s.fn:5d} {s.precision:10.3f} {s.recall:8.3f}")
    return "\n".join(lines)


def family_table(counted: Tally, families: Sequence[str] | None = None) -> str:
    """Precision and recall of each kind, one line per family (``-``: nothing to score)."""
    names = list(families) if families is not None else sorted(counted.families)
    width = max([12, *(len(name) for name in names)])
    head = f"{'family':{width}} {'cases':>5}" + "".join(f"  {k[:12]:>12} P/R" for k in KINDS)
    lines = [head]
    for name in names:
        scores = counted.families.get(name)
        if scores is None:
            continue
        cells = []
        for kind in KINDS:
            s = scores[kind]
            p = f"{s.precision:.2f}" if s.tp + s.fp else "-"
            r = f"{s.recall:.2f}" if s.tp + s.fn else "-"
            cells.append(f"  {p:>8} {r:>6}")
        lines.append(f"{name:{width}} {counted.cases[name]:5d}" + "".join(cells))
    return "\n".join(lines)


def subset(counted: Tally, families: Iterable[str]) -> dict[str, Score]:
    """The per-kind scores of some families, summed."""
    total = {k: Score() for k in KINDS}
    for name in families:
        for kind, s in counted.families.get(name, {}).items():
            total[kind].tp += s.tp
            total[kind].fp += s.fp
            total[kind].fn += s.fn
    return total


def info_line(counted: Tally) -> str:
    """What the info kinds counted, and how many summaries that must raise nothing did."""
    parts = [f"{name}: {n}" for name, n in sorted(counted.info.items())] or ["none"]
    flagged = len(counted.faithful_flagged)
    return (
        f"info findings ({', '.join(parts)}); "
        f"faithful summaries with a finding: {flagged} of {counted.faithful}"
    )
