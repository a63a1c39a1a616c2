"""The vocabularies of meaning (foldctl.claims.vocab): every entry's examples, and every
pattern of the claims rules linear in its input."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import pytest

from foldctl.claims import atoms as A
from foldctl.claims import check, derived, facts, failures, index, operations, record, stored
from foldctl.claims import vocab as V
from foldctl.claims.atoms import extract_atoms
from foldctl.lazyre import LazyPattern

DOCS = Path(__file__).resolve().parents[2] / "docs" / "claims.md"

STATUS_EXAMPLES = [(f.name, text, want) for f in V.STATUS_TABLE for text, want in f.examples]


@pytest.mark.parametrize(
    ("family", "text", "want"), STATUS_EXAMPLES, ids=[e[1] for e in STATUS_EXAMPLES]
)
def test_status_examples(family: str, text: str, want: str) -> None:
    """A text with a colon is a status field (its value is read); any other is prose."""
    if ": " in text:
        assert facts.value_family(text.split(": ", 1)[1]) == (want or None), text
        return
    found = [a.value for a in extract_atoms(text) if a.kind == A.STATUS]
    assert (want in found) if want else not found, (text, found)


def test_every_family_has_examples_and_its_words_are_its_own() -> None:
    for family in V.STATUS_TABLE:
        assert family.examples, family.name
        assert family.polarity in V.STAGE, family.name
        for phrase in family.phrases:
            assert V.status_family(phrase) == family.name, phrase


SCALE_EXAMPLES = [(s.name, text, want) for s in V.SCALES for text, want in s.examples]


@pytest.mark.parametrize(
    ("scale", "text", "want"), SCALE_EXAMPLES, ids=[e[1] for e in SCALE_EXAMPLES]
)
def test_level_examples(scale: str, text: str, want: str) -> None:
    found = [a.value for a in extract_atoms(text) if a.kind == A.LEVEL]
    assert found == ([want] if want else []), (text, found)
    if want:
        assert V.level_scale(want) == scale


@pytest.mark.parametrize(
    ("text", "want"), V.WORD_LEVEL_EXAMPLES, ids=[t for t, _ in V.WORD_LEVEL_EXAMPLES]
)
def test_word_level_examples(text: str, want: str) -> None:
    found = [a.value for a in extract_atoms(text) if a.kind == A.LEVEL]
    assert found == ([want] if want else []), (text, found)


def test_a_fields_word_level_is_read_on_the_scale_its_key_names() -> None:
    assert V.field_level("risk_band", "HIGH") == "risk=high"
    assert V.field_level("severity", "MAJOR") == "severity=high"
    assert V.field_level("severity", "SEV2") == "SEV2"
    assert V.field_level("tier", "gold") == "tier=gold"
    assert V.field_level("status", "HIGH") is None  # no scale's key
    assert V.field_level("priority", "high (escalated)") is None  # not a rung alone


@pytest.mark.parametrize(
    ("text", "want"), V.OUTCOME_EXAMPLES, ids=[t for t, _ in V.OUTCOME_EXAMPLES]
)
def test_outcome_examples(text: str, want: tuple[tuple[int, str], ...]) -> None:
    assert tuple((n, family) for n, family, _ in facts.outcome_counts(text)) == want


def test_docs_show_every_vocabulary_example() -> None:
    docs = DOCS.read_text(encoding="utf-8")
    texts = [t for _, t, _ in STATUS_EXAMPLES] + [t for _, t, _ in SCALE_EXAMPLES]
    texts += [t for t, _ in V.WORD_LEVEL_EXAMPLES]
    texts += [t for t, _ in V.OUTCOME_EXAMPLES]
    missing = [t for t in texts if f"`{t}`" not in docs]
    assert not missing, f"docs/claims.md lacks vocabulary examples: {missing}"


@pytest.mark.parametrize(
    ("said", "seen", "relation"),
    [
        ("succeeded", "pending", "conflict"),  # "the refund is complete" of pending_review
        ("refunded", "pending", "conflict"),  # "made whole"
        ("shipped", "backordered", "conflict"),
        ("delivered", "in_customs", "conflict"),
        ("shipped", "in_customs", "consistent"),  # a parcel in customs has shipped
        ("acknowledged", "open", "conflict"),  # acked of an alert still triggered
        ("open", "acknowledged", "consistent"),
        ("resolved", "open", "conflict"),
        ("running", "failed", "conflict"),  # a failure is no later stage of running
        ("pending", "succeeded", "consistent"),  # history
        ("cancelled", "confirmed", "conflict"),
        ("held", "confirmed", "consistent"),
        ("failed", "unpaid", "unrelated"),  # "the statement for ACCT-1 timed out" of overdue
        ("unpaid", "failed", "unrelated"),  # a failed charge leaves the invoice unpaid
    ],
)
def test_status_relations_by_meaning(said: str, seen: str, relation: str) -> None:
    assert V.status_relation(said, seen) == relation


# --------------------------------------------------------------------------- linear patterns


def _patterns() -> Iterator[tuple[str, re.Pattern[str] | re.Pattern[bytes]]]:
    """Every pattern of the claims rules (compiled, or compiled on first use), found in
    their modules' globals."""
    for module in (A, V, facts, failures, check, index, derived, operations, record, stored):
        for name, value in vars(module).items():
            values = value.values() if isinstance(value, dict) else value
            if isinstance(value, re.Pattern | LazyPattern):
                yield f"{module.__name__}.{name}", cast("re.Pattern[str]", value)
            elif isinstance(value, tuple | list | dict):
                for item in values:
                    items = item if isinstance(item, tuple) else (item,)
                    for part in items:
                        if isinstance(part, re.Pattern | LazyPattern):
                            yield f"{module.__name__}.{name}", cast("re.Pattern[str]", part)


#: Inputs that make a backtracking pattern slow: long words, digits, spaces, separators.
_SHAPES = (
    "a",
    "1",
    " ",
    "1,",
    "1.",
    "1 ",
    "a-",
    "a1-",
    "ERROR ",
    "\n",
    "exit ",
    "$1",
    "@a.",
    "a@a.",
    "pending ",
    "Dr. A ",
    "\u202f1",
)


def _cost(pattern: re.Pattern[str] | re.Pattern[bytes], text: str) -> float:
    subject: str | bytes = text if isinstance(pattern.pattern, str) else text.encode()
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        for _ in pattern.finditer(subject):  # type: ignore[arg-type]
            pass
        best = min(best, time.process_time() - started)
    return best


def test_every_pattern_is_linear_in_its_input() -> None:
    """Each pattern on an input 10 and 100 times longer takes at most 4 times as much longer
    (a quadratic one would take 100 and 10,000 times as long)."""
    slow: list[str] = []
    seen: set[int] = set()
    for name, pattern in _patterns():
        if id(pattern) in seen:
            continue
        seen.add(id(pattern))
        for shape in _SHAPES:
            small = shape * (1_000 // len(shape)) + "!"
            base = max(_cost(pattern, small), 1e-4)
            for times in (10, 100):
                large = shape * (1_000 * times // len(shape)) + "!"
                if _cost(pattern, large) > 4 * times * base:
                    slow.append(f"{name} on {shape!r} x{times}")
                    break
    assert not slow, slow


def test_the_seconds_of_a_log_timestamp_are_no_count() -> None:
    line = "2026-12-07 09:42:03 ERROR BDG-55171 revoke failed on DC-2-EAST"
    assert facts.outcome_counts(line) == []
    assert facts.outcome_counts("done: issued 3, failed: 1") == [(1, "failed", "failed: 1")]
