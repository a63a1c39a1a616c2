"""The labelled corpus: precision and recall of each kind of finding, per kind and family."""

from __future__ import annotations

from collections import Counter

import pytest

from tools import claims_score
from tools.claims_corpus import (
    FAMILIES,
    KINDS,
    NEW,
    ORIGINAL,
    PRECISION,
    RECALL,
    Case,
    Tally,
    build_corpus,
    case_checkpoint,
    direct_cases,
    family_table,
    findings_of,
    pipeline_findings,
    pipeline_tally,
    score_table,
    tally,
)


@pytest.fixture(scope="module")
def corpus() -> list[Case]:
    return build_corpus()


@pytest.fixture(scope="module")
def direct(corpus: list[Case]) -> Tally:
    return tally(direct_cases(corpus), findings_of)


@pytest.fixture(scope="module")
def end_to_end(corpus: list[Case]) -> Tally:
    return pipeline_tally(corpus)


def test_the_corpus_is_broad(corpus: list[Case]) -> None:
    assert len(FAMILIES) >= 18 and len(NEW) >= 10
    assert set(ORIGINAL) | set(NEW) == set(FAMILIES)
    assert {case.domain for case in corpus} == set(FAMILIES)
    planted = Counter(kind for case in corpus for kind, _ in case.expected)
    assert all(planted[kind] >= 100 for kind in KINDS), planted
    assert sum(1 for case in corpus if not case.expected) >= 400  # faithful summaries
    variants = Counter(case.variant.split("-", 1)[0] for case in corpus)
    assert variants["trap"] >= 150 and variants["sectioned"] >= 3 * len(FAMILIES)
    derived = [c for c in corpus if any(kind == "unverified" for kind, _ in c.allowed)]
    assert {c.domain for c in derived} >= set(NEW) - {"alerts", "clinic", "k8s"}


def test_the_corpus_is_deterministic() -> None:
    assert build_corpus((2,)) == build_corpus((2,))


def _low(counted: Tally) -> str:
    low = [k for k, s in counted.kinds.items() if s.precision < PRECISION or s.recall < RECALL]
    if not low:
        return ""
    detail = "\n".join(f"{m.kind} {m.case} {m.finding}: {m.summary}" for m in counted.misses[:20])
    return f"{low}\n{score_table(counted.kinds)}\n{family_table(counted)}\n{detail}"


def test_precision_and_recall_per_kind(direct: Tally) -> None:
    assert not _low(direct), _low(direct)


def test_precision_and_recall_end_to_end(end_to_end: Tally) -> None:
    """Each case written as a real checkpoint (the summary a frame, its originals a span, a
    nested case's inner summary folded inside) and checked by the command's own pipeline:
    load, join, walk, one evidence range per span."""
    assert not _low(end_to_end), _low(end_to_end)


def test_no_finding_on_a_faithful_summary(end_to_end: Tally) -> None:
    assert end_to_end.faithful_flagged == []


def test_an_invented_fact_repeated_outside_is_unsupported_in_both(corpus: list[Case]) -> None:
    cases = [c for c in corpus if c.variant == "nested-invented"][::3]
    assert len(cases) >= 8
    for case in cases:
        checkpoint = case_checkpoint(case)
        [(kind, invented)] = case.expected
        assert (kind, invented) in pipeline_findings(checkpoint, "h1"), case.id  # the outer
        assert (kind, invented) in pipeline_findings(checkpoint, "f1:0"), case.id  # the inner


def test_a_summary_whose_originals_were_discarded_is_only_unverifiable(
    corpus: list[Case],
) -> None:
    for case in corpus[::30]:
        found = pipeline_findings(case_checkpoint(case, discard=True), None)
        assert {kind for kind, _ in found} <= {"unverifiable"}, case.id
        assert ("unverifiable", "") in found


def test_the_score_names_every_family_and_the_held_out_set(
    capsys: pytest.CaptureFixture[str],
) -> None:
    claims_score.main(["--seeds", "1", "--family", "support", "--family", "ci"])
    out = capsys.readouterr().out
    assert "2 families (support, ci)" in out
    assert "first eight families" in out and "ten new families" in out
    assert "written families" not in out
    assert "\nsupport " in out and "\nci " in out
    assert "held-out families (tools/claims_heldout)" in out
    assert ("held-out set not present" in out) == (not claims_score.heldout_present())


def test_the_score_reports_a_written_family_beside_the_generated_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A written family (tools/claims_corpus/written) is a family of the corpus: counted in
    the whole corpus, in its own group's table, and on its own line per family, both times."""
    written = claims_score.written_families()
    if not written:
        pytest.skip("the written families' loader (tools/claims_heldout) is not present")
    family = written[0]
    claims_score.main(["--seeds", "1", "--family", "support", "--family", family.name])
    out = capsys.readouterr().out
    generated = len(build_corpus((0,), ["support"]))
    assert f"{generated + len(family.cases)} cases, 2 families (support, {family.name})" in out
    assert f"written: {len(family.cases)} cases, " in out
    assert out.count("\nwritten families\n") == 2 and out.count("\nfirst eight families\n") == 2
    rows = [line.split() for line in out.splitlines()]
    assert sum(1 for row in rows if row[:2] == [family.name, str(len(family.cases))]) == 2
    assert sum(1 for row in rows if row[:1] == ["support"]) == 2
