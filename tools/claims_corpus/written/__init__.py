"""The labelled corpus's written families: stories and summaries written by hand, apart from
the rules, in the held-out set's format.

Each ``*.json`` file beside this module is one *family*: a domain and its story (the
messages an agent lived through: tool calls and the results tools print) and labelled
summaries of it, in the format ``tools/claims_heldout/README.md`` describes.  Unlike the
held-out set these are *training* families: whoever works on the rules reads them and
their misses.  They were written without reading the rules or running the check on them
(``README.md`` beside this module), so their score before any rule change is kept in
``docs/claims.md`` as the rules' unseen score.

Nothing here is written twice: the families are loaded and validated by the held-out
set's loader pointed at this folder, matched to their labels by its ``match_case``, and
checked end to end by its ``case_findings``.  What this module adds is the check on each
case's text (:func:`direct_findings`, as the generated families are checked first) and
the counting of both into the corpus's :class:`~tools.claims_corpus.score.Tally`, so that
``make claims-score`` reports them beside the generated families, in the same tables.

    load_families()             every written family, validated (HeldoutError names what is wrong)
    direct_findings(case)       the case's summary checked against its originals directly
    tally_into(counted, ...)    the families' cases counted into a Tally
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from foldctl.claims import EvidenceIndex, EvidenceRef, check_summary, evidence_text, index_message
from tools.claims_corpus.families import FAMILIES as GENERATED
from tools.claims_corpus.kit import digest_of
from tools.claims_corpus.score import INFO_KINDS, Tally, unverified_label
from tools.claims_heldout import (
    Family,
    Found,
    HeldoutError,
    case_findings,
    cases,
    found_of,
    match_case,
    on_derived,
    placed,
    planted,
)
from tools.claims_heldout import load_families as load_folder

__all__ = [
    "HERE",
    "Family",
    "Found",
    "HeldoutError",
    "case_findings",
    "cases",
    "direct_findings",
    "load_families",
    "planted",
    "tally_into",
]

HERE: Final = Path(__file__).resolve().parent

#: How the findings about one case's summary are got: ``direct_findings`` or, end to end,
#: the held-out set's ``case_findings``.
Findings = Callable[[Mapping[str, Any]], list[Found]]


def load_families(directory: Path = HERE) -> list[Family]:
    """Every written family in ``directory``, read and validated, in name order; a family
    named like a generated one is refused (both are reported under their names)."""
    families = load_folder(directory)
    for family in families:
        if family.name in GENERATED:
            raise HeldoutError(
                f"{family.path}: $.family: {family.name!r} is a generated family's name; "
                "expected a name of its own"
            )
    return families


def direct_findings(case: Mapping[str, Any]) -> list[Found]:
    """The case's summary checked against its originals directly (no checkpoint), the way the
    generated families are checked first: every message of the case (a nested case's inner
    originals first, under ``f0``; the outer span's under ``f1``) filed as evidence.  The
    inner summary is a claim, never evidence, so it is not filed."""
    count = case["inner"]["count"] if case["inner"] is not None else 0
    evidence = []
    for n, m in enumerate(case["messages"]):
        calls = [{"name": c["name"], "args": c["args"]} for c in m.get("toolCalls") or []]
        text = evidence_text(m["content"], calls)
        locator = f"f0:{n}" if n < count else f"f1:{n - count}"
        atoms = index_message(
            text,
            role=m["role"],
            tool_name=m.get("toolName"),
            call_names=[c["name"] for c in calls],
            is_error=bool(m.get("isError")),
        )
        evidence.append((EvidenceRef(locator, digest_of(text)), atoms))
    found = [found_of(f) for f in check_summary(case["summary"], EvidenceIndex(evidence))]
    return placed(case["summary"], found)


def tally_into(
    counted: Tally, families: Sequence[Family], findings: Findings = case_findings
) -> Tally:
    """Every case of ``families`` checked (end to end unless ``findings`` says otherwise),
    matched to its labels by kind and place (the held-out set's ``match_case``) and counted
    into ``counted``, under its family's name.  An ``unverified`` finding on a correct derived
    value is information; one elsewhere is a finding on a summary that should have none."""
    for family, case in cases(families):
        found = findings(case)
        scores, misses = match_case(case, found, family.name)
        wrong = [("fn" if m.what == "fn" else "fp", (m.kind, m.text)) for m in misses]
        counted.add_matched(
            family.name,
            case["id"],
            case["summary"],
            scores,
            wrong + _unverified_elsewhere(case, found),
            _info(case, found),
            not case["expected"],
        )
    return counted


def _info(case: Mapping[str, Any], found: Iterable[Found]) -> list[str]:
    return [
        unverified_label(on_derived(case, f)) if f.kind == "unverified" else f.kind
        for f in found
        if f.kind in INFO_KINDS
    ]


def _unverified_elsewhere(
    case: Mapping[str, Any], found: Iterable[Found]
) -> list[tuple[str, tuple[str, str]]]:
    return [
        ("fp", (f.kind, f.atom))
        for f in found
        if f.kind == "unverified" and not on_derived(case, f)
    ]
