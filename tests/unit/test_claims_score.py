"""The labelled corpus: precision and recall of each kind of finding must stay at 0.9 or above."""

from __future__ import annotations

from collections import Counter

import pytest

from tools.claims_corpus import (
    KINDS,
    build_corpus,
    case_checkpoint,
    pipeline_findings,
    score,
    score_pipeline,
    score_table,
)

THRESHOLD = 0.9


@pytest.fixture(scope="module")
def corpus():  # type: ignore[no-untyped-def]
    return build_corpus()


def test_the_corpus_is_broad(corpus) -> None:  # type: ignore[no-untyped-def]
    assert len(corpus) >= 300
    assert len({case.domain for case in corpus}) >= 8
    planted = Counter(kind for case in corpus for kind, _ in case.expected)
    assert all(planted[kind] >= 30 for kind in KINDS), planted
    assert sum(1 for case in corpus if not case.expected) >= 100  # faithful summaries


def test_the_corpus_is_deterministic() -> None:
    assert build_corpus((2,)) == build_corpus((2,))


def test_precision_and_recall_per_kind(corpus) -> None:  # type: ignore[no-untyped-def]
    scores, misses = score(corpus)
    table = score_table(scores)
    low = [kind for kind, s in scores.items() if s.precision < THRESHOLD or s.recall < THRESHOLD]
    detail = "\n".join(f"{m.kind} {m.case} {m.finding}: {m.summary}" for m in misses[:20])
    assert not low, f"below {THRESHOLD}:\n{table}\n{detail}"


def test_precision_and_recall_end_to_end(corpus) -> None:  # type: ignore[no-untyped-def]
    """Each case written as a real checkpoint (tools/claims_corpus.py: the summary a frame,
    its originals a span, a nested case's inner summary folded inside) and checked by the
    command's own pipeline: load, join, walk, one evidence range per span."""
    scores, misses = score_pipeline(corpus)
    table = score_table(scores)
    low = [kind for kind, s in scores.items() if s.precision < THRESHOLD or s.recall < THRESHOLD]
    detail = "\n".join(f"{m.kind} {m.case} {m.finding}: {m.summary}" for m in misses[:20])
    assert not low, f"below {THRESHOLD}:\n{table}\n{detail}"


def test_an_invented_fact_repeated_outside_is_unsupported_in_both(corpus) -> None:  # type: ignore[no-untyped-def]
    cases = [case for case in corpus if case.variant == "nested-invented"]
    assert len(cases) >= 8
    for case in cases:
        checkpoint = case_checkpoint(case)
        [(kind, invented)] = case.expected
        assert (kind, invented) in pipeline_findings(checkpoint, "h1"), case.id  # the outer
        assert (kind, invented) in pipeline_findings(checkpoint, "f1:0"), case.id  # the inner


def test_a_summary_whose_originals_were_discarded_is_only_unverifiable(corpus) -> None:  # type: ignore[no-untyped-def]
    for case in corpus[:40]:
        found = pipeline_findings(case_checkpoint(case, discard=True), None)
        assert {kind for kind, _ in found} <= {"unverifiable"}, case.id
        assert ("unverifiable", "") in found
