"""A labelled corpus for the claims check: summaries, their evidence, and the expected findings.

Deterministic (``build_corpus(seeds)`` gives the same cases for the same seeds).  The
corpus is made of *families* (:mod:`tools.claims_corpus.families`, one module each): a
domain and its story of tool calls and results as tools print them (JSON, ``key:
value`` lines, tables, logs with levels, HTTP statuses, exit codes), with facts drawn
per seed.  Each story yields cases (:func:`~tools.claims_corpus.kit.story_cases`):

* ``faithful``, ``paraphrase``, ``hard-faithful``, ``sectioned`` (the long summary in
  sections a coding agent writes), ``nested-faithful``: summaries that say only what
  the originals say, in varied words -> no findings;
* ``trap-*``: a faithful summary with one clause that tempts a false alarm (a derived
  total, another row's status, an id of digit groups, a size with its unit...) -> no
  findings, or only the ones the trap allows (``unverified`` for a derived value);
* one planted mistake each (``wrong-*``, ``status-words``, ``other-entity``...), and
  ``omitted-error``/``sectioned-omitted-error`` (an error left out: ``dropped``);
* ``nested-invented``: an inner summary invents an id and the outer repeats it; the
  inner summary is a claim, not evidence -> ``unsupported``;
* ``nested-discarded``: the inner fold kept nothing and the outer summary carries the
  inner summary's words over -> nothing is wrong (only a checkpoint can hold this case).

Normalised atoms follow ``docs/claims.md`` (``RF9121``, ``USD 480``, ``2026-04-03``,
``418 test``, ``approved``; ``dropped`` is ``CLASS:TOOL``, e.g. ``rate_limit:issue_refund``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from tools.claims_corpus.checkpoint import (
    case_checkpoint,
    pipeline_findings,
    pipeline_tally,
    score_pipeline,
)
from tools.claims_corpus.families import FAMILIES, NEW, ORIGINAL
from tools.claims_corpus.kit import (
    Case,
    Evidence,
    Expected,
    Sections,
    Story,
    Trap,
    call,
    case_dict,
    result,
    story_cases,
)
from tools.claims_corpus.score import (
    INFO_KINDS,
    KINDS,
    PRECISION,
    RECALL,
    Miss,
    Score,
    Tally,
    case_evidence,
    direct_cases,
    family_table,
    findings_of,
    index_case,
    info_line,
    score,
    score_table,
    subset,
    tally,
)

#: Every family by name (kept under its first name too).
STORIES = FAMILIES


def family_cases(family: str, seeds: Sequence[int] = tuple(range(4))) -> list[Case]:
    """The cases of one family under each seed."""
    return [case for seed in seeds for case in story_cases(family, seed, FAMILIES[family])]


def build_corpus(
    seeds: Sequence[int] = tuple(range(4)), families: Sequence[str] | None = None
) -> list[Case]:
    """Every family's cases for every seed (or only ``families``')."""
    names = list(FAMILIES) if families is None else list(families)
    return [
        case for seed in seeds for name in names for case in story_cases(name, seed, FAMILIES[name])
    ]


__all__ = [
    "FAMILIES",
    "INFO_KINDS",
    "KINDS",
    "NEW",
    "ORIGINAL",
    "PRECISION",
    "RECALL",
    "STORIES",
    "Case",
    "Evidence",
    "Expected",
    "Miss",
    "Score",
    "Sections",
    "Story",
    "Tally",
    "Trap",
    "build_corpus",
    "call",
    "case_checkpoint",
    "case_dict",
    "case_evidence",
    "direct_cases",
    "family_cases",
    "family_table",
    "findings_of",
    "index_case",
    "info_line",
    "pipeline_findings",
    "pipeline_tally",
    "result",
    "score",
    "score_pipeline",
    "score_table",
    "story_cases",
    "subset",
    "tally",
]

if __name__ == "__main__":
    corpus = build_corpus()
    print(json.dumps([case_dict(c) for c in corpus[:3]], indent=2, ensure_ascii=False))
    print(len(corpus), "cases")
