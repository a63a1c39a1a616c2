"""The atom rules of foldctl.claims.atoms: the example table, spellings, statuses, errors."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldctl.claims import EvidenceIndex, EvidenceRef, check_summary, extract_atoms, index_message
from foldctl.claims import atoms as A
from foldctl.claims import failures as F
from foldctl.claims import vocab as V

DOCS = Path(__file__).resolve().parents[2] / "docs" / "claims.md"


@pytest.mark.parametrize(("text", "expected"), A.EXAMPLES, ids=[t for t, _ in A.EXAMPLES])
def test_example_table(text: str, expected: tuple[tuple[str, str], ...]) -> None:
    assert tuple((a.kind, a.value) for a in extract_atoms(text)) == expected


@pytest.mark.parametrize(("text", "expected"), A.EXAMPLES, ids=[t for t, _ in A.EXAMPLES])
def test_every_fact_atom_is_found_in_its_own_text(
    text: str, expected: tuple[tuple[str, str], ...]
) -> None:
    """The index's lookup keys agree with extraction: an atom always finds the text it came from."""
    index = EvidenceIndex([(EvidenceRef("f0:0"), index_message(text))])
    for atom in extract_atoms(text):
        if atom.kind not in A.FACT_KINDS or atom.kind in (A.COUNT, A.TOOL_COUNT):
            continue  # counts are checked against nouns and calls, not looked up
        if atom.text[-1] in "kKmM":
            continue  # a rounded figure ("$12k") is not looked up either
        assert index.first_support(atom, 0, 1) == 0, atom


def test_docs_show_every_example() -> None:
    docs = DOCS.read_text(encoding="utf-8")
    missing = [text for text, _ in A.EXAMPLES if f"`{text}`" not in docs]
    assert not missing, f"docs/claims.md lacks examples: {missing}"


def test_atoms_carry_their_offsets() -> None:
    text = "refund RF-9120 of $480.00 was approved on April 2, 2026"
    for atom in extract_atoms(text):
        assert text[atom.start : atom.end] == atom.text


# --------------------------------------------------------------------------- one value, spellings

SAME_VALUE = [
    ("money", ["$480", "$480.00", "480.00 USD", "USD 480", "480 dollars", "$ 480.00"]),
    ("money", ["€642.10", "EUR 642.10", "642.10 EUR", "642,10 €", "€642.1"]),
    ("money", ["$2,880.00", "$2880", "USD 2,880"]),
    ("date", ["2026-04-02", "April 2, 2026", "Apr 2 2026", "2 April 2026", "Apr. 2, 2026"]),
    ("date", ["2026/04/02", "the 2nd of April 2026", "April 2nd, 2026", "APR 2 2026"]),
    ("time", ["21:05", "9:05 pm", "9:05 PM", "9:05 p.m."]),
    ("version", ["v2.14.0", "V2.14.0", "version 2.14.0", "2.14.0"]),
    ("id", ["RF-9120", "RF_9120", "RF9120"]),
]


@pytest.mark.parametrize(("kind", "spellings"), SAME_VALUE)
def test_spellings_normalise_alike(kind: str, spellings: list[str]) -> None:
    values = set()
    for spelling in spellings:
        atoms = [a for a in extract_atoms(spelling) if a.kind == kind]
        assert len(atoms) == 1, (spelling, atoms)
        values.add(atoms[0].value)
    assert len(values) == 1, values


@pytest.mark.parametrize(("kind", "spellings"), SAME_VALUE)
def test_any_spelling_supports_any_other(kind: str, spellings: list[str]) -> None:
    for said in spellings:
        for seen in spellings:
            index = EvidenceIndex([(EvidenceRef("f0:0"), index_message(f"result: {seen}"))])
            assert check_summary(f"the summary says {said}.", index) == [], (said, seen)


@settings(max_examples=60, deadline=None)
@given(
    cents=st.integers(min_value=1, max_value=99_999_999),
    currency=st.sampled_from(["$", "EUR "]),
    said_cents=st.booleans(),
    thousands=st.booleans(),
)
def test_money_found_however_written(
    cents: int, currency: str, said_cents: bool, thousands: bool
) -> None:
    amount = Decimal(cents) / 100
    evidence = f"amount: {amount:.2f}"  # the tool writes cents, no separators
    shown = f"{amount:,.2f}" if thousands else f"{amount:.2f}"
    if not said_cents and amount == amount.to_integral_value():
        shown = shown[:-3]
    index = EvidenceIndex([(EvidenceRef("f0:0"), index_message(evidence))])
    assert check_summary(f"charged {currency}{shown} in total", index) == []


@settings(max_examples=60, deadline=None)
@given(
    year=st.integers(min_value=2000, max_value=2099),
    month=st.integers(min_value=1, max_value=12),
    day=st.integers(min_value=1, max_value=28),
    form=st.integers(min_value=0, max_value=3),
)
def test_dates_found_however_written(year: int, month: int, day: int, form: int) -> None:
    name = [
        "January", "February", "March", "April", "May", "June", "July", "August",
        "September", "October", "November", "December",
    ][month - 1]  # fmt: skip
    said = [
        f"{name} {day}, {year}",
        f"{day} {name} {year}",
        f"{name[:3]} {day} {year}",
        f"{year}-{month:02d}-{day:02d}",
    ][form]
    evidence = f'{{"created_at": "{year}-{month:02d}-{day:02d}T10:00:00Z"}}'
    index = EvidenceIndex([(EvidenceRef("f0:0"), index_message(evidence))])
    assert check_summary(f"it was created on {said}.", index) == []


# --------------------------------------------------------------------------- numbers and counts


def test_small_bare_numbers_are_not_atoms() -> None:
    assert extract_atoms("Summary 6 of 7 (rev. 2)") == []


def test_the_last_digits_of_an_id_after_an_ellipsis_are_no_number() -> None:
    # "the first (…8203)": the end of a container number, as "...8203" already was
    for told in ("The first box (…8203) has cleared.", "The first box (...8203) has cleared."):
        assert [a.text for a in extract_atoms(told) if a.kind == A.NUMBER] == [], told
    assert [a.text for a in extract_atoms("Box 8203 has cleared.") if a.kind == A.NUMBER]


def test_rounded_figures_are_not_values() -> None:
    assert [a.kind for a in extract_atoms("about 1.2 million rows")] == []


def test_a_count_keeps_its_noun_singular() -> None:
    (count,) = extract_atoms("17 waiters in the pool")
    assert (count.kind, count.value, count.text) == ("count", "17 waiter", "17 waiters")


def test_decimals_are_never_counts() -> None:
    assert [(a.kind, a.value) for a in extract_atoms("480.00 Pro annual")] == [("number", "480")]


# --------------------------------------------------------------------------- statuses

FAMILIES = [
    (
        "pending",
        ["pending", "pending_approval", "PENDING-REVIEW", "awaiting approval", "in review"],
    ),
    ("approved", ["approved", "signed off", "authorized", "granted"]),
    ("failed", ["failed", "timed out", "errored", "crashed"]),
    ("succeeded", ["succeeded", "passed", "went out", "deployed", "rolled out", "completed"]),
    ("backordered", ["backordered", "back-ordered", "on backorder", "out of stock"]),
    ("shipped", ["shipped", "dispatched", "in transit", "on its way"]),
    ("resolved", ["resolved", "closed", "fixed"]),
]


@pytest.mark.parametrize(("family", "phrases"), FAMILIES)
def test_status_phrases_fall_in_their_family(family: str, phrases: list[str]) -> None:
    for phrase in phrases:
        assert V.status_family(phrase) == family, phrase
        assert [a.value for a in extract_atoms(f"it {phrase} today")] == [family], phrase


@pytest.mark.parametrize(
    ("said", "seen", "relation"),
    [
        ("approved", "pending", "conflict"),  # an invented future
        ("pending", "approved", "consistent"),  # an earlier stage: history
        ("succeeded", "failed", "conflict"),
        ("failed", "rolled_back", "consistent"),
        ("shipped", "delivered", "consistent"),
        ("delivered", "shipped", "conflict"),
        ("shipped", "backordered", "conflict"),
        ("merged", "resolved", "consistent"),
        ("approved", "shipped", "unrelated"),  # no axis in common
        ("succeeded", "approved", "consistent"),  # a generic family: the same polarity
        ("succeeded", "backordered", "conflict"),  # done against still waiting
        ("failed", "delivered", "conflict"),  # a failure is never an earlier stage
        ("running", "succeeded", "consistent"),  # history: it ran, then it finished
        ("paid", "approved", "consistent"),
    ],
)
def test_status_relations(said: str, seen: str, relation: str) -> None:
    assert V.status_relation(said, seen) == relation


def test_a_negated_status_claims_nothing() -> None:
    assert extract_atoms("the refund was not approved") == []
    assert [a.value for a in extract_atoms("not yet approved")] == ["pending"]


def test_went_out_is_success_not_failure() -> None:
    assert V.status_family("went out") == "succeeded"


# --------------------------------------------------------------------------- errors

ERRORS = [
    ("Error: 550 mailbox unavailable", "unavailable"),
    ('{"error": {"code": 429, "message": "rate limit exceeded"}}', "rate_limit"),
    ('{"ok": false, "error": "insufficient funds"}', "failed"),
    ("permission denied: requires group it-admins", "denied"),
    ("DEPLOY api v2 -> prod\nstatus: FAILED\nreason: health check timed out", "timeout"),
    ("ERROR: canceling statement due to lock timeout (30s)", "timeout"),
    ("collected 12 items\n...\n===== 2 failed, 10 passed in 3.1s =====", "failed"),
    ("Traceback (most recent call last):\n  File \"x\"\nKeyError: 'id'", "failed"),
    ("build finished\nprocess exited with code 2", "failed"),
    (
        "LOGS api (last 50 lines)\n2026-03-02T10:00:01Z ERROR upstream timeout talking to redis",
        "timeout",
    ),
    (
        "[2026-06-11 08:52:43] INFO  restore started\n[2026-06-11 08:52:43] FATAL restore aborted",
        "failed",
    ),
    ("POST /v1/messages -> HTTP 503 Service Unavailable\nmessage not delivered", "unavailable"),
    (
        "starting api v3.8.1\npanic: runtime error: invalid memory address or nil pointer",
        "failed",
    ),
    ("Name: api-7d9f8b6c4-9mzlt\nState: Waiting\n  Exit Code:   2", "failed"),
    ("409 Conflict: deluxe rooms are fully booked", "conflict"),
    ('{"status": 402, "message": "card declined"}', "denied"),
]
NOT_ERRORS = [
    "refund RF-9120 created\nstatus: pending_approval",
    '{"errors": [], "status": "ok"}',
    "errors: 0\nwarnings: 3",
    "timeout: 30s\nretries: 2",
    "The status page lists a partial outage\nStatus: ok",
    "ticket T-3317 updated\nstatus: open -> solved",
    "===== 12 passed, 0 failed in 3.1s =====",
    "BACKUP ID   STATUS\nbkp-1-0200  failed\nbkp-2-0200  completed",
    "HTTP/1.1 200 OK\ncontent-type: application/json",
    "[restore] exited with code 3 on the first try\nretried: exit code 0",
    "The ERROR column counts failed rows: 0",
]


@pytest.mark.parametrize(("text", "kind"), ERRORS)
def test_tool_errors_are_recognised_and_classified(text: str, kind: str) -> None:
    line = F.error_line(text)
    assert line is not None
    assert F.error_class(line, text[:400]) == kind


@pytest.mark.parametrize("text", NOT_ERRORS)
def test_errors_inside_data_are_not_the_tool_failing(text: str) -> None:
    assert F.error_line(text) is None


def test_a_word_like_a_month_does_not_take_the_year_of_a_date() -> None:
    atoms = [(a.kind, a.value) for a in A.extract_atoms("Rose wing MAR, 2026-12-10 20:00")]
    assert (A.DATE, "2026-12-10") in atoms
    assert (A.DATE, "2026-03") not in atoms
    assert [(a.kind, a.value) for a in A.extract_atoms("due in Mar 2026.")] == [(A.DATE, "2026-03")]


def test_a_number_with_dot_thousands_keeps_every_decimal_after_its_comma() -> None:
    atoms = [(a.kind, a.text, a.value) for a in A.extract_atoms("Gross export was 6.175,476 MWh")]
    assert atoms == [(A.NUMBER, "6.175,476", "6175.476")]
