"""The labelled corpus: precision and recall of each kind of finding must stay at 0.9 or above."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.claims_corpus import KINDS, build_corpus, score, score_table

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
