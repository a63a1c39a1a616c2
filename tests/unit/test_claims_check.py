"""check_summary: the RF-9120 demo, faithful paraphrases, each kind of finding, ranges."""

from __future__ import annotations

import doctest
import functools
import json
from pathlib import Path
from typing import Any

import pytest

from foldctl.claims import (
    CONTRADICTED,
    DROPPED,
    UNSUPPORTED,
    UNVERIFIABLE,
    UNVERIFIED,
    ClaimFinding,
    EvidenceIndex,
    EvidenceRef,
    check_summary,
    evidence_text,
    index_message,
    wanted_tokens,
)
from foldctl.claims import failures as F
from foldctl.claims.atoms import summary_atoms
from foldctl.claims.check import sentences
from tools.claims_corpus import build_corpus, case_evidence, findings_of, index_case
from tools.claims_corpus.written import load_families
from tools.claims_heldout import case_findings

SAMPLES = Path(__file__).resolve().parents[2] / "sample_checkpoints"

RESULT = '{"refund_id":"RF-9120","status":"pending_approval"}'


def evidence(*messages: tuple[str, str, str | None] | str) -> EvidenceIndex:
    """Evidence from (locator, text, tool name) triples, or bare texts of tool results."""
    index = EvidenceIndex()
    for i, message in enumerate(messages):
        locator, text, tool = message if isinstance(message, tuple) else (f"f1:{i}", message, "t")
        role = "tool" if tool else "assistant"
        index.add(
            EvidenceRef(locator, f"xxh3-128:{i:032x}"),
            index_message(text, role=role, tool_name=tool),
        )
    return index


def kinds(findings: list[ClaimFinding]) -> list[tuple[str, str]]:
    return [(f.kind, f.normalised) for f in findings]


# --------------------------------------------------------------------------- the demo


def test_the_documented_examples_run() -> None:
    import foldctl.claims

    assert doctest.testmod(foldctl.claims).failed == 0
    docs = SAMPLES.parent / "docs" / "claims.md"
    assert doctest.testfile(str(docs), module_relative=False).failed == 0


def test_rf9120_approved_is_contradicted_by_pending_approval() -> None:
    index = evidence(("f5:2", RESULT, "issue_refund"))
    summary = "Summary 6: refund RF-9120 was approved."
    (finding,) = check_summary(summary, index)
    assert finding.kind == CONTRADICTED
    assert finding.atom == "approved"
    assert finding.normalised == "approved"
    assert finding.expected == "pending_approval"
    assert finding.entity == "RF-9120"
    assert finding.evidence == (EvidenceRef("f5:2", f"xxh3-128:{0:032x}"),)
    assert finding.sentence == summary
    assert finding.start is not None and finding.end is not None
    assert finding.sentence[finding.start : finding.end] == "approved"
    assert finding.offset == 0


@pytest.mark.parametrize(
    "summary",
    [
        "refund RF-9120 is pending approval",
        "refund RF-9120 is awaiting approval",
        "RF-9120 was submitted and is waiting on finance",
        "RF-9120 has not been approved yet",
        "refund RF-9120: pending_approval",
        "RF-9120 is not yet approved",
    ],
)
def test_rf9120_faithful_paraphrases_raise_nothing(summary: str) -> None:
    assert check_summary(summary, evidence(("f5:2", RESULT, "issue_refund"))) == []


def _sample_chain() -> tuple[EvidenceIndex, list[tuple[int, str, int]]]:
    """nested_chain.json as the claims command will read it: one index, one range per summary."""
    data = json.loads((SAMPLES / "nested_chain.json").read_text(encoding="utf-8"))
    frames = {}  # span index -> its summary (the frame sits in the next span, or in history)
    for message in [*data["history"], *(m for s in data["folded"] for m in s["messages"])]:
        content = message.get("content") or ""
        if content.startswith("[compacted history"):
            summary = content.split("]\n\n", 1)[1]
            frames[int(summary.split(":", 1)[0].split()[-1]) - 1] = summary
    index = EvidenceIndex()
    ranges = []
    for number, span in enumerate(data["folded"]):  # span N holds span N-1's frame first
        for j, message in enumerate(span["messages"]):
            content = message.get("content") or ""
            if content.startswith("[compacted history"):
                continue  # a nested summary is a claim, not evidence
            calls = message.get("toolCalls") or []
            index.add(
                EvidenceRef(f"f{number}:{j}"),
                index_message(
                    evidence_text(content, calls),
                    role=message["role"],
                    tool_name=message.get("toolName"),
                    call_names=[c["name"] for c in calls],
                ),
            )
        ranges.append((number, frames[number], len(index)))
    return index, ranges


def test_the_demo_chain_flags_summaries_6_and_7_only() -> None:
    if not (SAMPLES / "nested_chain.json").is_file():
        pytest.skip("sample checkpoint not present")
    index, ranges = _sample_chain()
    found = {number + 1: check_summary(text, index, stop=stop) for number, text, stop in ranges}
    assert {n: kinds(f) for n, f in found.items() if f} == {
        6: [(CONTRADICTED, "approved")],
        7: [(CONTRADICTED, "approved")],
    }
    # summary 7 repeats summary 6's claim; the originals behind both say pending_approval
    for n in (6, 7):
        (finding,) = found[n]
        assert finding.expected == "pending_approval"
        assert finding.evidence == (EvidenceRef("f5:2"),)


# --------------------------------------------------------------------------- faithful summaries

FAITHFUL = [
    (
        "ACCT-8842 was charged $480 twice on March 14 (CH-5531, CH-5532); the duplicate was "
        "refunded as RF-9120, which is awaiting finance approval.",
        [
            "CH-5531  2026-03-14  480.00  captured\nCH-5532  2026-03-14  480.00  captured",
            "refund RF-9120 created\ncharge: CH-5532\namount: 480.00 USD\nstatus: pending_approval",
            "ACCOUNT ACCT-8842\nstatus: active",
        ],
    ),
    (
        "Booked LH1234 on 2 April 2026 at €642.10 (ticketed). The cheaper LX2001 fare was gone.",
        [
            '{"options": [{"flight": "LX2001", "fare": {"amount": 598.0, "currency": "EUR"}}]}',
            '{"error": "fare for LX2001 no longer available"}',
            '{"pnr": "K7QZ2D", "flight": "LH1234", "departure": "2026-04-02T07:15:00",'
            ' "fare": {"amount": 642.10, "currency": "EUR"}, "status": "ticketed"}',
        ],
    ),
    (
        "v2.14.0 went out to prod as DEP-5521 after the first attempt timed out; "
        "1,204 tests passed.",
        [
            "===== 1204 passed in 83.2s =====",
            "DEPLOY api v2.14.0 -> prod\nstatus: FAILED\nreason: health check timed out",
            '{"deploy_id": "DEP-5521", "version": "v2.14.0", "status": "succeeded"}',
        ],
    ),
    (
        "Order SO-20480 (two items, $129.99) is on backorder until Apr 9 2026.",
        [
            '{"order_id": "SO-20480", "items": [{"sku": "SKU-1"}, {"sku": "SKU-2"}],'
            ' "total": 129.99, "status": "BACKORDERED", "restock_date": "2026-04-09"}'
        ],
    ),
    (
        "INC-7701 is still open: error rate about 12% since 09:42 UTC; see "
        "https://runbooks.example.com/payments and page ops-lead@example.com.",
        [
            '{"incident": "INC-7701", "status": "investigating"}',
            "error rate: 12.5% since 09:42 UTC\nrunbook: https://runbooks.example.com/payments/latency"
            "\nowner: ops-lead@example.com",
        ],
    ),
    (
        "Lot K3-24817.1 (25 wafers) is released from its recipe hold; K3-24871.1 still waits.",
        [
            "LOT         STEP          WAFERS  STATE  HOLD\n"
            "K3-24817.1  ETCH-M1-210   25      HOLD   RCP-HOLD\n"
            "K3-24871.1  ETCH-M1-210   24      WAIT   -",
            '{"lot": "K3-24817.1", "hold_id": "H-330917", "hold_state": "RELEASED"}',
        ],
    ),
]


@pytest.mark.parametrize(("summary", "texts"), FAITHFUL, ids=[s[:30] for s, _ in FAITHFUL])
def test_faithful_summaries_raise_nothing(summary: str, texts: list[str]) -> None:
    assert check_summary(summary, evidence(*texts)) == []


# --------------------------------------------------------------------------- each kind


def test_unsupported_names_the_atom_and_what_was_searched() -> None:
    index = evidence("refund RF-9120 created", "status: pending_approval", "charge: CH-5532")
    (finding,) = check_summary("Refund RF-9121 was created. Nothing else.", index)
    assert (finding.kind, finding.atom, finding.atom_kind) == (UNSUPPORTED, "RF-9121", "id")
    assert finding.normalised == "RF9121"
    assert finding.expected is None
    assert finding.sentence == "Refund RF-9121 was created."
    assert finding.searched == 3
    assert [r.locator for r in finding.evidence] == ["f1:0", "f1:2"]  # first and last searched


@pytest.mark.parametrize(
    ("summary", "finding"),
    [
        ("refund of $450.00 sent to dana@example.com", (UNSUPPORTED, "USD 450")),
        ("contact dana.w@example.com", (UNSUPPORTED, "dana.w@example.com")),
        ("charged on 2026-03-15", (UNSUPPORTED, "2026-03-15")),
        ("15 seats were billed", (UNSUPPORTED, "15 seat")),
        (
            "see https://status.example.com/incidents/78",
            (UNSUPPORTED, "https://status.example.com/incidents/78"),
        ),
        ("commit 9fceb03 was deployed", (UNSUPPORTED, "9fceb03")),
        ("logs in /var/log/api.log", (UNSUPPORTED, "/var/log/api.log")),
        ("version v2.14.1 shipped", (UNSUPPORTED, "2.14.1")),
        ("lot K3-24817.2 was split off", (UNSUPPORTED, "K3248172")),  # the lot is .1
    ],
)
def test_unsupported_atoms(summary: str, finding: tuple[str, str]) -> None:
    index = evidence(
        "charged $480.00 on 2026-03-14 to dana@example.com; 12 seats",
        "see https://status.example.com/incidents/77 and commit 9fceb02 in /var/log/app.log",
        "version v2.14.0; lot K3-24817.1",
    )
    assert kinds(check_summary(summary, index)) == [finding]


def test_an_amount_given_to_an_entity_is_contradicted_by_its_own_amount() -> None:
    index = evidence(
        '{"options": [{"flight": "LX2001", "fare": {"amount": 598.0, "currency": "EUR"}}]}',
        '{"pnr": "K7QZ2D", "flight": "LH1234", "fare": {"amount": 642.10, "currency": "EUR"}}',
    )
    (finding,) = check_summary("Booked LH1234 at a fare of EUR 598.00.", index)
    assert (finding.kind, finding.normalised, finding.entity) == (CONTRADICTED, "EUR 598", "LH1234")
    assert finding.expected == "EUR 642.1"
    assert finding.evidence == (EvidenceRef("f1:1", f"xxh3-128:{1:032x}"),)


def test_a_deploy_said_to_succeed_when_it_failed() -> None:
    # the deploy is named by a word of its tool, not by an entity: the failure it leaves
    # out is dropped, and the status the originals give beside it is for the reader
    index = evidence(("f2:1", "DEPLOY api v2.14.0 -> prod\nstatus: FAILED", "deploy_service"))
    (finding, dropped) = check_summary("The deploy went out successfully.", index)
    assert (finding.kind, finding.atom) == (UNVERIFIED, "went out")
    assert finding.expected == "the originals say FAILED of the operation the clause names by words"
    assert dropped.kind == DROPPED
    named = check_summary("Deploy v2.14.0 went out successfully.", index)
    assert (CONTRADICTED, "succeeded") in kinds(named)


def test_a_dropped_error_cites_the_failing_result() -> None:
    index = evidence(
        ("f1:0", '{"error": {"code": 429, "message": "rate limit exceeded"}}', "issue_refund"),
        ("f1:1", RESULT, "issue_refund"),
    )
    (finding,) = check_summary("Refund RF-9120 is pending approval.", index)
    assert finding.kind == DROPPED
    assert finding.atom == "error: rate limit exceeded"
    assert finding.normalised == "rate_limit:issue_refund"
    assert [r.locator for r in finding.evidence] == ["f1:0"]
    assert finding.sentence is None


@pytest.mark.parametrize(
    "mention",
    [
        "the first attempt was rate-limited",
        "issuing the refund failed once and was retried",
        "the refund call hit a 429 (too many requests)",
    ],
)
def test_an_error_the_summary_mentions_is_not_dropped(mention: str) -> None:
    index = evidence(
        ("f1:0", '{"error": {"code": 429, "message": "rate limit exceeded"}}', "issue_refund"),
        ("f1:1", RESULT, "issue_refund"),
    )
    assert check_summary(f"Refund RF-9120 is pending approval; {mention}.", index) == []


def test_with_two_errors_a_mention_must_point_at_the_one_it_means() -> None:
    index = evidence(
        ("f1:0", "Error: lookup timed out after 30s", "lookup_flight"),
        ("f1:1", "Error: card declined", "charge_card"),
    )
    assert kinds(check_summary("The flight lookup timed out once.", index)) == [
        (DROPPED, "denied:charge_card")
    ]


def test_a_metric_named_error_rate_mentions_no_tool_error() -> None:
    index = evidence(("f1:0", "Forbidden: cannot delete pods", "restart_pods"))
    assert kinds(check_summary("The error rate is 4.2%.", evidence("error rate 4.2%"))) == []
    assert kinds(check_summary("Errors stayed at 4.2%.", index)) == [
        (UNSUPPORTED, "4.2"),
        (DROPPED, "denied:restart_pods"),
    ]


def test_no_evidence_means_unverifiable() -> None:
    (finding,) = check_summary("refund RF-9120 was approved", EvidenceIndex())
    assert finding.kind == UNVERIFIABLE
    assert finding.evidence == ()


# --------------------------------------------------------------------------- nesting and ranges


def test_an_outer_summary_may_repeat_what_only_the_inner_originals_say() -> None:
    index = EvidenceIndex()
    index.add(EvidenceRef("f0:1"), index_message("CHARGES: CH-5532 2026-03-14 480.00 captured"))
    index.add(EvidenceRef("f1:2"), index_message(RESULT))
    # the inner summary ("CH-5532 was charged $480") is not evidence; its originals are
    assert check_summary("CH-5532 ($480, March 14) is being refunded as RF-9120.", index) == []


def test_an_invented_fact_repeated_by_an_outer_summary_is_unsupported() -> None:
    index = EvidenceIndex()
    index.add(EvidenceRef("f0:1"), index_message("CHARGES: CH-5532 2026-03-14 480.00 captured"))
    index.add(EvidenceRef("f1:2"), index_message(RESULT))
    # inner summary invented "follow-up RF-9999"; the outer repeats it; neither has support
    assert kinds(check_summary("RF-9120 is pending; follow-up RF-9999.", index)) == [
        (UNSUPPORTED, "RF9999")
    ]


def test_one_index_serves_every_range_of_a_chain() -> None:
    """Checking each case over its range of one shared index equals checking it alone."""
    cases = build_corpus((0,))
    shared = EvidenceIndex()
    ranges = []
    for case in cases:
        start = len(shared)
        for ref, atoms in case_evidence(case):
            shared.add(ref, atoms)
        ranges.append((start, len(shared)))
    for case, (start, stop) in zip(cases, ranges, strict=True):
        alone = findings_of(case)
        together = [
            (f.kind, f.normalised)
            for f in check_summary(case.summary, shared, start=start, stop=stop)
        ]
        assert together == alone, case.id


def test_indexing_only_wanted_tokens_changes_nothing() -> None:
    cases = build_corpus((1,))
    for case in cases:
        wanted = wanted_tokens([case.summary])
        index = EvidenceIndex(wanted=wanted)
        for e in case.evidence:
            text = evidence_text(e.text, e.tool_calls)
            atoms = index_message(
                text,
                role=e.role,
                tool_name=e.tool_name,
                call_names=[c["name"] for c in e.tool_calls],
                is_error=e.is_error,
                wanted=wanted,
            )
            index.add(EvidenceRef(e.locator, e.digest), atoms)
        got = [(f.kind, f.normalised) for f in check_summary(case.summary, index)]
        assert got == findings_of(case), case.id


def test_tool_call_counts_are_checked_against_the_calls() -> None:
    index = EvidenceIndex()
    calls: list[dict[str, Any]] = [{"name": "issue_refund", "args": {"charge": "CH-5532"}}]
    text = evidence_text("", calls)
    index.add(
        EvidenceRef("f1:0"), index_message(text, role="assistant", call_names=["issue_refund"])
    )
    assert check_summary("issue_refund×1; 1 tool call", index) == []
    assert kinds(check_summary("issue_refund×2; 3 tool calls; get_customer×1", index)) == [
        (UNSUPPORTED, "issue_refund×2"),
        (UNSUPPORTED, "3 tool call"),
        (UNSUPPORTED, "get_customer×1"),
    ]


# --------------------------------------------------------------------------- hostile input


def test_deeply_nested_json_is_read_without_recursing_to_death() -> None:
    deep = '{"a":' * 5000 + '"RF-9120"' + "}" * 5000
    index = evidence(("f1:0", deep, "tool"), ("f1:1", "[" * 3000 + "]" * 3000, "tool"))
    assert kinds(check_summary("refund RF-9120 was approved", index)) == []


def test_a_deep_chain_of_errors_stays_bounded() -> None:
    """500 nested ranges over 2,000 errors: each summary costs a look-up per error kind."""
    index = EvidenceIndex()
    for i in range(2000):
        index.add(EvidenceRef(f"f{i}:0"), index_message(f"Error: job J-{1000 + i} timed out"))
    for depth in range(1, 501):
        (finding,) = check_summary("All jobs ran.", index, stop=depth * 4)
        assert finding.normalised == "timeout:tool"
        assert len(finding.evidence) == min(depth * 4, 20)


def test_a_huge_message_is_read_in_part() -> None:
    filler = "filler line without numbers\n" * 200_000
    big = "refund RF-9120 created\n" + filler + "status: approved"
    index = evidence(("f1:0", big, None))
    # the status line lies beyond what is read in full: unknown, so nothing is reported
    assert check_summary("RF-9120 is pending approval", index) == []


# --------------------------------------------------------------------------- known limits


def test_a_date_swapped_between_rows_of_a_table_is_contradicted() -> None:
    index = evidence("CH-5531  2026-03-14  captured\nCH-5532  2026-03-15  captured")
    assert kinds(check_summary("CH-5531 was captured on March 15, 2026.", index)) == [
        (CONTRADICTED, "2026-03-15")
    ]


@pytest.mark.xfail(strict=True, reason="a nested span's calls are in range: under-counts pass")
def test_limit_tool_calls_under_counted() -> None:
    index = EvidenceIndex()
    for i in range(3):
        index.add(
            EvidenceRef(f"f1:{i}"), index_message("", role="assistant", call_names=["search"])
        )
    assert kinds(check_summary("search×2", index)) == [(UNSUPPORTED, "search×2")]


@pytest.mark.xfail(strict=True, reason="a status is judged by the entity's last value, any env")
def test_limit_a_version_deployed_to_two_environments() -> None:
    index = evidence(
        ("f1:0", '{"env": "staging", "version": "v2.14.0", "status": "succeeded"}', None),
        ("f1:1", '{"env": "prod", "version": "v2.14.0", "status": "failed"}', None),
    )
    assert check_summary("v2.14.0 deployed to staging.", index) == []


class _ListOriginals:
    """Originals kept in a list, counting what the index reads back."""

    def __init__(self, texts: list[str], refs: list[EvidenceRef]) -> None:
        self.texts, self.refs = texts, refs
        self.read: list[int] = []

    def text(self, position: int) -> str:
        self.read.append(position)
        return self.texts[position]

    def ref(self, position: int) -> EvidenceRef:
        return self.refs[position]


def test_an_index_reading_its_originals_finds_what_one_keeping_the_text_finds() -> None:
    """A large checkpoint's index keeps atoms only and reads texts back: same findings,
    every finding's evidence the same message, and no text held by the index itself."""
    cases = build_corpus((0,))
    reads = 0
    for case in cases:
        texts = [evidence_text(e.text, e.tool_calls) for e in case.evidence]
        refs = [EvidenceRef(e.locator, e.digest) for e in case.evidence]
        originals = _ListOriginals(texts, refs)
        lean = EvidenceIndex(originals=originals)
        for e, text in zip(case.evidence, texts, strict=True):
            atoms = index_message(
                text,
                role=e.role,
                tool_name=e.tool_name,
                call_names=[c["name"] for c in e.tool_calls],
                is_error=e.is_error,
                keep_text=False,
            )
            assert atoms.text == ""
            lean.add(None, atoms)
        kept = check_summary(case.summary, index_case(case))
        read = check_summary(case.summary, lean)
        assert [(f.kind, f.normalised, f.evidence) for f in read] == [
            (f.kind, f.normalised, f.evidence) for f in kept
        ], case.id
        reads += len(originals.read)
    assert reads > len(cases)  # the lookups did read texts back


def test_an_index_without_originals_refuses_a_message_without_its_reference() -> None:
    with pytest.raises(ValueError, match="needs each message's ref"):
        EvidenceIndex().add(None, index_message("RF-9120 approved"))


def test_check_graph_gives_each_finding_one_line_for_a_default_listing() -> None:
    """The RF-9120 contradiction of the demo, as a command lists it beside other output."""
    if not (SAMPLES / "nested_chain.json").is_file():
        pytest.skip("sample checkpoint not present")
    import foldctl
    from foldctl.claims.record import check_graph

    graph = foldctl.open(str(SAMPLES / "nested_chain.json")).graph
    lines = [f.one_line() for f in check_graph(graph)]
    assert lines == [
        'f6:0 contradicted status "approved" (originals: "pending_approval")',
        'h1 contradicted status "approved" (originals: "pending_approval")',
    ]


def test_a_value_said_to_be_worked_out_that_does_not_follow_is_unverified() -> None:
    index = evidence("page 0: 1,200 rows\npage 1: 800 rows")
    assert check_summary("Together the pages hold 2,000 rows.", index) == []  # it adds up
    (finding,) = check_summary("Together the pages hold 2,500 rows.", index)
    assert (finding.kind, finding.normalised) == (UNVERIFIED, "2500 row")
    assert finding.expected is not None and "together" in finding.expected
    # said without a word that it was worked out, a number that is nowhere is unsupported
    assert kinds(check_summary("The pages hold 2,500 rows.", index)) == [(UNSUPPORTED, "2500 row")]


def test_what_a_summary_carries_over_from_a_discarded_one_is_unverifiable() -> None:
    index = evidence("refund RF-9120 created\nstatus: pending_approval")
    carried = [(EvidenceRef("f1:0"), "charge CH-5532 of $480 was captured twice.")]
    found = check_summary(
        "CH-5532 ($480) was refunded as RF-9120, pending.", index, carried=carried
    )
    assert {(f.kind, f.normalised) for f in found} == {
        (UNVERIFIABLE, "CH5532"),
        (UNVERIFIABLE, "USD 480"),
    }
    assert all(f.evidence == (EvidenceRef("f1:0"),) for f in found)


# --------------------------------------------------------------------------- precision first


def test_a_price_in_any_json_field_is_the_entitys_amount() -> None:
    index = evidence(
        '{"subscription": "sub_77Ab", "price_per_seat": "€19.00/mo", "status": "active"}',
        '{"subscription": "sub_77Ab", "proration": {"amount": 310.55, "currency": "EUR"}}',
    )
    assert kinds(check_summary("sub_77Ab has seats at €19.00 a month.", index)) == []
    (finding,) = check_summary("sub_77Ab has seats at €21.00 a month.", index)
    assert finding.kind in (CONTRADICTED, UNSUPPORTED, UNVERIFIED)


@pytest.mark.parametrize(
    ("summary", "text"),
    [
        ("Paid with the mastercard ****0042.", "card: mastercard ****0042 (expires 09/28)"),
        ("The waiver holds for 14 days.", "waiver: granted, 14 business days"),
        ("Mark Ellison signed off the change.", "approver: Mark Ellison"),
        ("Escalated to the site lead, Ana Ferreira.", "owner: ana.ferreira@example.org"),
    ],
)
def test_values_written_as_people_write_them_are_supported(summary: str, text: str) -> None:
    assert kinds(check_summary(summary, evidence(text))) == []


@pytest.mark.parametrize(
    "summary",
    [
        "Escalated to the site lead, Ana Ferreira.",
        "Dispatcher Ana Ferreira agreed the swap.",
        "Ana Ferreira approved the swap.",
    ],
)
def test_a_person_named_nowhere_is_unsupported(summary: str) -> None:
    assert kinds(check_summary(summary, evidence("owner: j.okafor@example.org"))) == [
        (UNSUPPORTED, "Ana Ferreira")
    ]


def test_a_difference_the_summary_says_it_worked_out_is_no_finding_of_a_wrong_value() -> None:
    index = evidence("variant A open rate 31.2%\nvariant B open rate 36.9%", "ok")
    assert [f.kind for f in check_summary("Variant B beat A by 5.7 points.", index)] == [UNVERIFIED]
    # said to be a difference: unverified even when it does not work out
    assert [f.kind for f in check_summary("Variant B beat A by 8.3 points.", index)] == [UNVERIFIED]
    assert kinds(check_summary("Variant B scored 8.3 points.", index)) == [(UNSUPPORTED, "8.3")]


def test_a_count_of_the_listed_items_with_a_property_is_no_other_count() -> None:
    index = evidence('{"pairs": [{"a": "x1", "flag": "review"}, {"a": "x2", "flag": "none"}]}')
    assert [f.kind for f in check_summary("1 pair flagged for review.", index)] != [UNSUPPORTED]
    assert kinds(check_summary("3 pairs flagged for review.", index)) == [(UNSUPPORTED, "3 pair")]


def test_a_count_with_the_wrong_outcome_in_a_json_field() -> None:
    index = evidence(("f1:0", '{"posted": 41, "failed": [{"id": "g-1"}]}', "post_grades"))
    (finding, *_) = check_summary("41 grades failed to post and 1 went through.", index)
    assert (finding.kind, finding.atom, finding.expected) == (CONTRADICTED, "failed", 'posted": 41')
    assert kinds(check_summary("The LMS took 41 grades and refused g-1's.", index)) == []


def test_a_clause_sharing_only_an_errors_kind_does_not_hide_another_error() -> None:
    index = evidence(
        ("f1:0", "Error: card declined (do_not_honor)", "charge_card"),
        ("f1:1", "HTTP/1.1 410 Gone\ncoupon SPRING5 expired", "apply_coupon"),
        ("f1:2", "[sync] ERROR u_9: seat limit reached", "user_sync"),
    )
    summary = "The card was declined. The promo code was rejected as well."
    found = {f.normalised: f.kind for f in check_summary(summary, index)}
    assert found.get("failed:user_sync") == UNVERIFIED  # the other clause may tell it


def test_a_4xx_answer_to_a_tool_named_object_then_verb_is_an_error() -> None:
    index = evidence(("f1:0", "HTTP/1.1 423 Locked\nlot L-7 is locked", "mes_hold"))
    assert kinds(check_summary("Lot L-7 is ready.", index)) == [(DROPPED, "failed:mes_hold")]
    assert kinds(check_summary("Lot L-7 could not be put on hold (423).", index)) == []


def test_entities_after_one_preposition_are_not_the_subject() -> None:
    index = evidence(
        "similar pair: s-101 / s-102 (0.91)", '{"case": "IC-2026-0042", "status": "under_review"}'
    )
    (finding,) = check_summary("Case IC-2026-0042 for s-101 and s-102 was resolved.", index)
    assert (finding.kind, finding.entity) == (CONTRADICTED, "IC-2026-0042")


def test_a_status_of_a_thing_named_only_after_a_preposition_is_not_that_things() -> None:
    """ "The 06:00 slot on B-14 was refused": the slot's, which the summary does not name,
    not loom B-14's state."""
    index = evidence("LOOM  STATE\nB-14  running\nB-15  idle")
    told = "Marlow's 06:00 slot on B-14 was refused."
    assert CONTRADICTED not in [f.kind for f in check_summary(told, index)]
    assert kinds(check_summary("B-14 was refused.", index)) == [(CONTRADICTED, "rejected")]


@pytest.mark.parametrize(
    ("told", "entity"),
    [
        ("The restore of bkp-20260515-0200 completed.", "bkp-20260515-0200"),  # a deed done to it
        ("Booking on LX1247 was cancelled.", "LX1247"),
        ("For RF-9120 we refunded $450.00.", "RF-9120"),  # the phrase opens the sentence
        # a phrase ends with its sentence: PAY-8477 is not "for insufficient funds"
        ("The card was declined for insufficient funds. PAY-8477 was cancelled.", "PAY-8477"),
        # a hyphenated word is one: "of" inside "start-of-care" governs nothing
        ("The start-of-care visit V-2026-48821 was cancelled.", "V-2026-48821"),
    ],
)
def test_a_thing_after_a_preposition_is_the_subject_where_it_is_the_topic(
    told: str, entity: str
) -> None:
    index = evidence(
        '{"backup_id": "bkp-20260515-0200", "status": "failed", "error": "checksum mismatch"}',
        '{"pnr": "K7QZ2D", "flight": "LX1247", "status": "confirmed"}',
        "refund RF-9120\nstatus: pending_approval\namount: 480.00 USD",
        '{"payment": "PAY-8477", "status": "scheduled"}',
        '{"visit": "V-2026-48821", "status": "completed"}',
    )
    found = [(f.kind, f.entity) for f in check_summary(told, index)]
    assert (CONTRADICTED, entity) in found, found


# --------------------------------------------------------------------------- rounds 17 on


_TRAINING_LOG = (
    "[09:02:14] INFO  run r-7 started  batch_size=64\n"
    "Traceback (most recent call last):\n"
    '  File "train.py", line 9, in <module>\n'
    "RuntimeError: CUDA out of memory. Tried to allocate 1.50 GiB\n"
    "[09:03:58] ERROR run r-7 failed (exit code 1)"
)


@pytest.mark.parametrize(
    "mention",
    [
        "the first run died with CUDA out of memory",
        "the first run was stopped by the CUDA out-of-memory traceback",
    ],
)
def test_an_error_is_told_by_any_line_that_reports_it(mention: str) -> None:
    index = evidence(
        ("f1:0", _TRAINING_LOG, "fit_model"),
        ("f1:1", "run r-8 finished", "fit_model"),
        ("f1:2", "HTTP/1.1 503 Service Unavailable", "post_report"),
    )
    report = (DROPPED, "unavailable:post_report")
    assert kinds(check_summary("Training needed two attempts.", index)) == [
        (DROPPED, "failed:fit_model"),
        report,
    ]
    assert kinds(check_summary(f"Training needed two attempts; {mention}.", index)) == [report]


def test_the_program_that_reported_an_error_names_it() -> None:
    result = (
        'nginx: [emerg] cannot load certificate key "/etc/tls/a.pem": No such file or directory\n'
        "nginx: configuration file /etc/nginx/nginx.conf test failed\n"
        "exit status 1"
    )
    index = evidence(("f1:0", result, "run_shell"), ("f1:1", "Error: upload failed", "put_file"))
    upload = (DROPPED, "failed:put_file")
    assert kinds(check_summary("The site is live.", index)) == [
        (DROPPED, "not_found:run_shell"),
        upload,
    ]
    for told in (
        "nginx would not take the new configuration until the path was corrected.",
        "The reload failed once on the key path (exit status 1).",
    ):
        assert kinds(check_summary(told, index)) == [upload], told


def test_a_check_names_a_validation_and_found_no_tells_what_was_missing() -> None:
    index = evidence(
        ("f1:0", "[18:05:12] ERROR B-920: kein Steuerschlüssel (Netto 2.130,00)", "vat_validate"),
        (
            "f1:1",
            "ERROR dns-01: No TXT record found at _acme-challenge.shop\n"
            "result: FAILED (0 of 1 certificates renewed)",
            "acme_renew",
        ),
        ("f1:2", "result: OK (1 of 1 certificates renewed)", "acme_renew"),
    )
    found = kinds(check_summary("The return is filed and the site renewed.", index))
    assert sorted(found) == [(DROPPED, "failed:acme_renew"), (DROPPED, "failed:vat_validate")]
    told = (
        "The plausibility check refused one booking at first. "
        "The renewal took two orders (the first found no TXT record)."
    )
    assert kinds(check_summary(told, index)) == []
    # a word of the result's failing status line, in another form: "certificates"
    told = "The check refused one booking at first; the first certificate order failed."
    assert kinds(check_summary(told, index)) == []


@pytest.mark.parametrize(
    ("result", "summary"),
    [
        ("epoch 3/4  val_loss=0.4187  val_acc=0.8705", "Accuracy peaked at 87.05% in epoch 3."),
        ("Kz 81  Umsätze 19 %   18.420     Steuer  3.499,80", "Kz 81 is 18.420 (tax 3.499,80)."),
        ("Kz 81 rounded to full euros (18.420,50 → 18.420)", "Kz 81 says 18.420 instead."),
        ("BN-31  24.11.2026  08/2026  Zuschlag  35,00 €", "The 35,00 € are for August 2026."),
        (
            '{"status": "accepted", "received": "2026-12-02T18:14:37+01:00"}',
            "The return was received at 17:14:37 UTC.",
        ),
        ('cannot load certificate key "/etc/nginx/tls/privkey.pem"', "It wanted .../privkey.pem."),
        ("B-WIRE-0219  WIRE  CHF  1  18'436.75", "The wire is CHF 18,436.75."),  # Swiss groups
        ("B-WIRE-0219  WIRE  CHF  1  18,436.75", "The wire is CHF 18’436.75."),
    ],
)
def test_values_written_the_way_people_write_them_are_supported(result: str, summary: str) -> None:
    assert kinds(check_summary(summary, evidence(result))) == []


def test_a_share_written_as_a_fraction_supports_only_its_own_percentage() -> None:
    index = evidence("val_acc=0.8705")
    assert kinds(check_summary("Accuracy peaked at 87.05%.", index)) == []
    assert kinds(check_summary("Accuracy peaked at 87.5%.", index)) == [(UNSUPPORTED, "87.5")]


def test_a_thing_named_by_one_of_its_values_is_unverified_not_unsupported() -> None:
    index = evidence("INFO run r-1 batch_size=64 lr=5e-5")
    assert [f.kind for f in check_summary("The batch-64 run crashed.", index)] == [UNVERIFIED]
    assert kinds(check_summary("The batch-32 run crashed.", index)) == [(UNSUPPORTED, "BATCH32")]


def test_an_earlier_state_is_borne_out_by_an_earlier_result() -> None:
    call = evidence_text("", [{"name": "renew_cert", "args": {"challenge": "dns-01"}}])
    index = EvidenceIndex()
    for n, result in enumerate(
        (
            "2026-05-02T08:01:14Z ERROR dns-01: www.example.org: no token found\n"
            "result: FAILED (0 of 1 certificates renewed)",
            "2026-05-02T08:09:49Z INFO  dns-01: authorization valid\n"
            "result: OK (1 of 1 certificates renewed)",
        )
    ):
        index.add(
            EvidenceRef(f"f1:{2 * n}"),
            index_message(call, role="assistant", call_names=["renew_cert"]),
        )
        index.add(EvidenceRef(f"f1:{2 * n + 1}"), index_message(result, tool_name="renew_cert"))
    told = "Renewed on the second try: the {}DNS-01 validation failed for want of a token."
    assert kinds(check_summary(told.format("first "), index)) == []
    (finding,) = check_summary(told.format(""), index)
    assert (finding.kind, finding.entity) == (CONTRADICTED, "DNS-01")


def test_what_a_clause_leaves_out_is_not_what_it_is_about() -> None:
    index = evidence(("f1:0", 'HTTP/1.1 403 Forbidden\n{"error": "forbidden"}', "dns_caa_set"))
    told = "The CAA change was refused (403); everything but CAA is fixed."
    assert kinds(check_summary(told, index)) == []
    assert kinds(check_summary("The CAA change was refused (403); CAA is fixed.", index)) == [
        (UNVERIFIED, "resolved")
    ]


def test_a_clause_is_about_the_result_that_holds_its_amount() -> None:
    index = evidence(
        ("f1:0", "PERIOD   AMOUNT      STATUS\n10/2026  2.318,40 €  paid", "tax_account"),
        ("f1:1", '{"payment": "SEPA-1", "status": "scheduled"}', "payment_schedule"),
    )
    assert kinds(check_summary("The October prepayment of 2.318,40 € is paid.", index)) == []
    assert kinds(check_summary("The payment is paid.", index)) == [(UNVERIFIED, "paid")]


def test_a_level_any_result_of_the_operation_gives_is_no_contradiction() -> None:
    index = evidence(
        ("f1:0", "[09:03] ERROR run r-1 failed (exit code 1)", "train_model"),
        ("f1:1", "run r-2 finished\nexit code 0", "train_model"),
    )
    assert kinds(check_summary("The first training crashed (exit code 1).", index)) == []
    assert kinds(check_summary("The training ended with exit code 3.", index)) == [
        (CONTRADICTED, "exit 3")
    ]


@pytest.mark.parametrize("said", ["0.07 lower in F1", "9 ms slower at p95", "12 points higher"])
def test_a_number_before_a_comparative_is_a_difference(said: str) -> None:
    index = evidence("MODEL  F1    P95_MS  SCORE\nv3     0.82  41      61\nv4     0.86  36      59")
    (finding,) = check_summary(f"v3 is {said} than v4.", index)
    assert finding.kind == UNVERIFIED
    assert kinds(check_summary("v3 scored 0.07 in F1.", index)) == [(UNSUPPORTED, "0.07")]


def test_the_total_a_part_is_of_may_be_the_sum_of_the_parts() -> None:
    index = evidence("METRIC     STABLE   CANARY\nrequests   12,300   1,150")
    (finding,) = check_summary("The canary took 1,150 of 13,450 requests.", index)
    assert (finding.kind, finding.normalised) == (UNVERIFIED, "13450 request")
    assert finding.expected == "works out from numbers of one message; not stated there"
    # a total that is no sum of the parts: the originals give no other count of requests
    (finding,) = check_summary("The canary took 1,150 of 13,550 requests.", index)
    assert (finding.kind, finding.expected) == (
        UNVERIFIED,
        "a count the originals give no other number for; it may be counted",
    )


@pytest.mark.parametrize(
    "summary",
    ["I pinged Marta Lindholm about the release.", "The PDF goes to Jörg Bäcker in parts."],
)
def test_people_contacted_and_accented_names_are_atoms(summary: str) -> None:
    (name,) = [f for f in check_summary(summary, evidence("release approved by j.weber"))]
    assert (name.kind, name.atom_kind) == (UNSUPPORTED, "name")
    backed = evidence("owners: Marta Lindholm, Jörg Bäcker")
    assert kinds(check_summary(summary, backed)) == []


# --------------------------------------------------------------------------- rounds 22 on


def test_a_day_and_month_without_a_year_is_found_in_a_dotted_date() -> None:
    index = evidence('{"order": "MW-1", "slot": "19.03.2026 08:00", "status": "booked"}')
    assert kinds(check_summary("The meter check is on 19 March.", index)) == []
    assert kinds(check_summary("The meter check is on 18 March.", index)) == [
        (UNSUPPORTED, "--03-18")
    ]


def test_a_field_whose_value_is_a_date_bears_out_its_entitys_date() -> None:
    index = evidence(
        "contract:  CTR-2024-0187\nstatus:    active\nterm_end:  2026-06-30",
        '{"contract": "CTR-2024-0187", "due": "2026-04-24", "status": "scheduled"}',
    )
    assert kinds(check_summary("CTR-2024-0187 ends on 2026-06-30.", index)) == []
    assert kinds(check_summary("CTR-2024-0187 ends on 2026-07-30.", index)) == [
        (CONTRADICTED, "2026-07-30")
    ]


def test_two_digit_groups_are_one_identifier() -> None:
    index = evidence('{"order": "48213-7760", "status": "delivered"}')
    assert kinds(check_summary("- Order 48213-7760: delivered.", index)) == []
    assert kinds(check_summary("- Order 48213-7761: delivered.", index)) == [
        (UNSUPPORTED, "482137761")
    ]


def test_a_bare_clock_time_may_be_the_evenings() -> None:
    index = evidence('{"order": "SO-1", "promised": "19:40", "delivered": "20:31"}')
    assert kinds(check_summary("It came at 8:31 pm instead of 7:40.", index)) == []
    assert kinds(check_summary("It came at 8:31 pm instead of 7:50.", index)) == [
        (UNSUPPORTED, "07:50")
    ]


def _call_and_result(tool: str, args: dict[str, Any], result: str) -> list[tuple[str, str, str]]:
    return [
        ("call", evidence_text("", [{"name": tool, "args": args}]), tool),
        ("tool", result, tool),
    ]


def _index_of(*messages: tuple[str, str, str]) -> EvidenceIndex:
    index = EvidenceIndex()
    for n, (role, text, tool) in enumerate(messages):
        atoms = (
            index_message(text, role="assistant", call_names=[tool])
            if role == "call"
            else index_message(text, tool_name=tool)
        )
        index.add(EvidenceRef(f"f1:{n}"), atoms)
    return index


def test_what_a_failed_call_asked_is_no_fact_of_its_entity() -> None:
    listing = ("tool", "WO        STATUS\nWO-88341  open\nWO-88102  closed", "list_work_orders")
    update = ("update_work_order", {"wo": "WO-88341", "status": "scheduled"})
    failed = _index_of(listing, *_call_and_result(*update, "HTTP/1.1 504 Gateway Timeout"))
    told = "The update timed out (504); WO-88341 still shows open."
    assert kinds(check_summary(told, failed)) == []
    done = _index_of(listing, *_call_and_result(*update, '{"wo": "WO-88341", "status": "closed"}'))
    assert kinds(check_summary("WO-88341 still shows open.", done)) == [(CONTRADICTED, "open")]


def test_a_paragraph_that_starts_with_an_entity_is_no_row() -> None:
    recap = (
        "4.11.2 stays paused at 10% (crash-free users 98.61%). The Play upload failed on "
        "versionCode 41200, and the Play listing edit was refused (403)."
    )
    prose = EvidenceIndex()
    prose.add(EvidenceRef("f1:0"), index_message(recap, role="assistant"))
    assert CONTRADICTED not in [f.kind for f in check_summary("4.11.2 is paused at 10%.", prose)]
    row = evidence("VERSION  STATUS    DAY\n4.11.2   refused   4")
    assert kinds(check_summary("4.11.2 is paused.", row)) == [(CONTRADICTED, "pending")]


@pytest.mark.parametrize(
    ("result", "tool"),
    [
        ("POST /api/v3/possessions HTTP/1.1\nHTTP/1.1 404 Not Found", "possession_request"),
        ('HTTP/1.1 409 Conflict\n{"error": "possession_conflict"}', "possession_request"),
        ("HTTP/1.1 422 Unprocessable Entity", "lookup_rates"),
    ],
)
def test_a_status_only_a_write_is_answered_with_fails_the_call(result: str, tool: str) -> None:
    index = evidence(("f1:0", result, tool))
    assert [f.kind for f in check_summary("All done.", index)] == [DROPPED]
    assert (
        kinds(check_summary("All done.", evidence(("f1:0", "HTTP/1.1 404 Not Found", tool)))) == []
    )


def test_a_duration_not_found_as_written_is_unverified() -> None:
    # durations are worked out more often than copied (the time between two clock times,
    # a sum of steps), so one the originals do not give is unverified, never unsupported
    index = evidence(
        "19:09:14 INFO offered to CR-6103\n19:52:18 INFO picked up\n20:31:05 INFO delivered",
        "timeout: 30 s",
    )
    assert kinds(check_summary("The courier call timed out after 30 s.", index)) == []
    for told in ("took 39 minutes from pickup to the door", "took 52 minutes door to door"):
        (finding,) = check_summary(f"The courier {told}.", index)
        assert (finding.kind, finding.atom_kind) == (UNVERIFIED, "duration")
        assert finding.expected is not None and "worked out" in finding.expected


def test_a_quantity_left_over_is_worked_out() -> None:
    index = evidence("plan:  Clips 30\nused:  118.4 GB of 200 GB (59.2%)")
    (finding,) = check_summary("81.6 GB of the 200 GB plan is still free.", index)
    assert finding.kind == UNVERIFIED
    assert kinds(check_summary("91.6 GB of the 200 GB plan is still free.", index)) == [
        (UNSUPPORTED, "91.6 GB")
    ]


def test_no_abbreviates_only_before_a_number() -> None:
    from foldctl.claims.check import sentences

    text = "The DPO office said no. I set a reminder."
    assert [text[s:e] for s, e in sentences(text)] == [
        "The DPO office said no.",
        "I set a reminder.",
    ]
    text = "Nordlys Data AS (no. 921 604 117) signed."
    assert len(sentences(text)) == 1


@pytest.mark.parametrize(
    ("result", "tool", "mention"),
    [
        ("HTTP/1.1 403 Forbidden", "set_item_availability", "I wasn't allowed to change the menu."),
        ("HTTP/1.1 403 Forbidden", "set_item_availability", "Only the restaurant can change it."),
        ('HTTP/1.1 409 Conflict\n{"busy": ["j.keller"]}', "schedule_interview", "It clashed."),
        ("HTTP/1.1 409 Conflict", "schedule_interview", "j.keller was busy then."),
        (
            "HTTP/1.1 422 Unprocessable Entity",
            "create_payment_plan",
            "Six months fell below the minimum.",
        ),
        ("HTTP/1.1 503 Service Unavailable", "rate_lock_extend", "The lock desk was offline."),
        (
            '{"ok": false, "condition_id": "C-121", "error": "document_unsigned"}',
            "condition_clear",
            "C-121 didn't clear.",
        ),
        (
            "Traceback (most recent call last):\nKeyError: 'LDN-SE'",
            "log_quality_issue",
            "A KeyError stopped it.",
        ),
        (
            "Error: ReadTimeout: EAD NOTAM service did not respond within 30 s",
            "notam_lookup",
            "NOTAMs: ReadTimeout on the first call, second call fine.",
        ),
        (
            "error:    no 271 response from payer within 30000 ms",
            "payer_eligibility",
            "The clearinghouse gave up on the first eligibility request after 30 seconds.",
        ),
        ("status: DENIED", "ill_request", "The lending library said no to the ILL request."),
        ("exit code: 28", "price_file_publish", "The first price file push ran out of time."),
        ('{"ok": false, "error": "not_in_channel"}', "chat_post", "The post to Slack failed."),
        (
            "ERROR timed out after 300 s waiting for the warehouse load job",
            "cost_export",
            "The warehouse export stalled on the third week.",
        ),
        (
            "ERROR OX-M5-03 no response from probe (timeout 30s)",
            "sensor_log",
            "Probe OX-M5-03 stopped answering at half past three.",
        ),
        ("exit code 124", "run_backup_check", "The backup check ran out of its five minutes."),
        (
            "ERROR row 118 E-11052: negative hours value (-7.5), row skipped",
            "timesheet_import",
            "The time import threw out one row for E-11052 with negative hours.",
        ),
        (
            "ERROR upload aborted: server returned 502 Bad Gateway for chunk 24/39",
            "drone_upload",
            "The drone server's gateway kept falling over.",
        ),
        ('{"ok": false, "error": "not_sms_capable"}', "sms_notify", "The text bounced."),
        ("HTTP/1.1 422 Unprocessable Entity", "oa_response_file", "Our reply was turned away."),
        (
            "Uploading proof.pdf (12.4 MB)\nError: evidence file exceeds the 10 MB limit\n"
            "exit status 1",
            "cfctl",
            "Our delivery proof was rejected as too big (over 10 MB).",
        ),
    ],
)
def test_trouble_told_in_other_words_mentions_the_error(
    result: str, tool: str, mention: str
) -> None:
    index = evidence(("f1:0", result, tool))
    assert [f.kind for f in check_summary("All done.", index)] == [DROPPED]
    assert kinds(check_summary(mention, index)) == []


def test_a_status_word_with_an_object_after_it_is_no_state() -> None:
    index = evidence('{"check": "BGC-1", "status": "in_progress"}')
    told = check_summary("BGC-1: the ATS rejected the package name.", index)
    assert CONTRADICTED not in [f.kind for f in told]
    assert kinds(check_summary("BGC-1 was rejected.", index)) == [(CONTRADICTED, "rejected")]


def test_a_hedged_status_is_no_end() -> None:
    index = evidence('{"upload": "UP-12", "status": "failed"}')
    assert CONTRADICTED not in [f.kind for f in check_summary("UP-12 mostly worked.", index)]
    assert (CONTRADICTED, "succeeded") in kinds(check_summary("UP-12 worked.", index))


def test_a_share_may_be_written_rounded_to_the_places_shown() -> None:
    index = evidence("front-end DTI: 23.13%\nback-end DTI: 30.38%")
    assert kinds(check_summary("The ratios are 23,1 % and 30,4 %.", index)) == []
    assert kinds(check_summary("The ratios are 23,2 % and 30,4 %.", index)) == [
        (UNSUPPORTED, "23.2")
    ]


def test_a_status_in_an_aside_with_its_own_subject_is_weak() -> None:
    index = evidence('{"condition": "C-140", "status": "cleared"}')
    told = "C-140 is cleared (the first order timed out)."
    assert CONTRADICTED not in [f.kind for f in check_summary(told, index)]
    assert (CONTRADICTED, "failed") in kinds(check_summary("C-140 timed out.", index))


def test_a_status_word_before_a_capitalised_object_is_what_was_returned() -> None:
    index = evidence('{"casefile": "DU-1623", "status": "pending"}')
    told = check_summary("DU-1623 returned Refer with Caution.", index)
    assert CONTRADICTED not in [f.kind for f in told]


def test_a_status_word_before_an_object_in_capitals_is_what_was_done() -> None:
    index = evidence('{"release": "REL-2140", "status": "rolled_back"}')
    told = check_summary("REL-2140 passed CI on the second run.", index)
    assert CONTRADICTED not in [f.kind for f in told]
    assert (CONTRADICTED, "succeeded") in kinds(check_summary("REL-2140 passed.", index))


def test_a_status_heading_over_a_paragraph_is_prose_not_a_field() -> None:
    recap = (
        "QL-C status: RFI-0138 overdue, RFI-0142 and RFI-0144 open. INS-2232 failed "
        "(rebar spacing); re-inspection INS-2236 on 4 Dec. CO-017 went through."
    )
    prose = EvidenceIndex()
    prose.add(EvidenceRef("f1:0"), index_message(recap, role="assistant"))
    told = check_summary("CO-017 went through and INS-2236 is booked.", prose)
    assert CONTRADICTED not in [f.kind for f in told]
    field = evidence("change: CO-017\nstatus: overdue")
    assert (CONTRADICTED, "succeeded") in kinds(check_summary("CO-017 went through.", field))


def test_a_records_result_field_is_data_not_the_calls_failure() -> None:
    record = "inspection: INS-2232\nelement: L3 slab rebar\nresult: FAIL\nseverity: MAJOR"
    index = evidence(("f1:0", record, "inspection_report"))
    assert [f.kind for f in check_summary("All done.", index)] == []
    run = evidence(("f1:0", "renewing 1 certificate\nresult: FAILED (0 of 1 renewed)", "certbot"))
    assert [f.kind for f in check_summary("All done.", run)] == [DROPPED]


def test_a_number_with_dots_before_groups_of_three_may_be_thousands() -> None:
    index = evidence("COLLECTION  ITEMS   SIZE\nCOL-88412   48,213  21.4 GB")
    assert kinds(check_summary("COL-88412: 48.213 Elemente, 21,4 GB.", index)) == []
    assert kinds(check_summary("COL-88412: 48.214 Elemente, 21,4 GB.", index)) == [
        (UNSUPPORTED, "48.214")
    ]


def test_an_amount_with_a_decimal_comma_before_its_currency_code() -> None:
    index = evidence("VENDOR     RATE\nNorthgate  $8.75 per GB-month")
    assert kinds(check_summary("Northgate zu 8,75 USD je GB und Monat.", index)) == []


def test_a_preposition_governs_only_a_short_phrase_before_an_entity() -> None:
    index = evidence(
        "inspection: INS-2232\ninspected_on: 2026-12-01\nresult: FAIL",
        '{"pour": "POUR-L3-02", "original_date": "2026-12-03", "new_date": "2026-12-08"}',
    )
    told = "INS-2232 failed, which with the weather pushes POUR-L3-02 to 2026-12-08."
    assert CONTRADICTED not in [f.kind for f in check_summary(told, index)]


def test_a_count_in_words_before_a_status_is_that_counts_outcome() -> None:
    index = evidence(("f1:0", "inspection: INS-2232\nresult: FAIL", "inspection_report"))
    told = "Of the four inspections this week, three passed (75%); INS-2232 failed."
    assert {f.kind for f in check_summary(told, index)} == {UNVERIFIED}  # 75% worked out
    assert (UNVERIFIED, "succeeded") in kinds(check_summary("The inspection passed.", index))


def test_a_listings_tally_of_its_items_states_is_no_failure_of_the_call() -> None:
    listing = (
        "JOB_ID  STATUS\ntj-01   done\ntj-03   failed\n\n"
        "6 jobs (3 done, 1 failed, 1 queued, 1 cancelled)"
    )
    assert kinds(check_summary("All done.", evidence(("f1:0", listing, "transcode_jobs")))) == []
    run = evidence(("f1:0", "collected 12 items\n=== 2 failed, 10 passed in 3.1s ===", "pytest"))
    assert [f.kind for f in check_summary("All done.", run)] == [DROPPED]


def test_a_number_with_a_leading_zero_is_a_records_number() -> None:
    index = evidence("SAMPLE         STATUS\nS-2026-04471   qc_failed\nS-2026-04472   received")
    assert kinds(check_summary("04471 QC failed, 04472 received.", index)) == []
    assert kinds(check_summary("04473 QC failed.", index)) == [(UNSUPPORTED, "#04473")]


def test_an_entity_in_brackets_after_another_is_its_attribute() -> None:
    index = evidence(
        "SENSOR   FIELD  STATUS   LAST_SEEN\nSM-4472  F-07   offline  2026-09-12 22:14",
        '{"field": "F-07", "checked_at": "2026-09-14 21:50", "status": "ok"}',
    )
    told = "Sensor SM-4472 (F-07, 60 cm) is offline, last seen 2026-09-12 22:14 UTC."
    assert CONTRADICTED not in [f.kind for f in check_summary(told, index)]


def test_a_state_passed_through_once_is_weak() -> None:
    index = evidence('{"booking": "GEB-17-0932", "status": "confirmed"}')
    told = "GEB-17-0932 timed out once, then confirmed."
    assert CONTRADICTED not in [f.kind for f in check_summary(told, index)]
    assert (CONTRADICTED, "failed") in kinds(check_summary("GEB-17-0932 timed out.", index))


def test_a_moment_in_a_clause_that_tells_a_failure_is_what_was_asked() -> None:
    index = evidence(
        '{"instrument": "NS-01", "booking": "BK-7741", "start": "2026-12-03T14:00:00+01:00"}'
    )
    told = "Booking NS-01 for 08:00-14:00 returned 409; booked 14:00-20:00 as BK-7741."
    assert CONTRADICTED not in [f.kind for f in check_summary(told, index)]


def test_a_records_number_with_a_leading_zero_is_found_without_it() -> None:
    index = evidence("sample 4471: QC failed (hemolysis)")
    assert UNSUPPORTED not in [f.kind for f in check_summary("04471 QC failed.", index)]


def test_two_words_of_the_error_line_in_a_row_mention_it_among_others() -> None:
    index = evidence(
        ("f1:0", "06:58:17 INFO sorter S2 ok\n06:58:17 ERROR sorter S3 drive fault", "bhs_log"),
        ("f1:1", "HTTP/1.1 409 Conflict", "stand_change"),
        ("f1:2", "Error: ReadTimeout after 30 s", "notam_lookup"),
    )
    told = "What failed today: the stand change (409), sorter S3 (ERROR), the NOTAM call (timeout)."
    assert kinds(check_summary(told, index)) == []
    told = "What failed today: the stand change (409) and the NOTAM call (timeout)."
    assert kinds(check_summary(told, index)) == [(DROPPED, "failed:bhs_log")]


def test_a_share_with_a_decimal_comma_is_found_as_written() -> None:
    index = evidence(
        "study: STB-0931\n\nTIME POINT  ASSAY     RESULT\n"
        "T6M         98,9 %    PASS\nT9M         94,3 %    OOS"
    )
    assert kinds(check_summary("STB-0931 is OOS at T9M (94,3 %).", index)) == []
    assert kinds(check_summary("STB-0931 is OOS at T9M (93,4 %).", index)) == [
        (UNSUPPORTED, "93.4")
    ]


def test_an_amount_after_another_subject_in_a_list_is_not_the_entitys() -> None:
    index = evidence('{"case": "CB-55140", "amount": "EUR 134.00", "status": "open"}')
    told = "The letter for CB-55140 failed, the limit increase to EUR 6,000 was refused."
    assert (CONTRADICTED, "EUR 6000") not in kinds(check_summary(told, index))
    assert (CONTRADICTED, "EUR 6000") in kinds(check_summary("CB-55140 is EUR 6,000.", index))


def test_a_failed_operation_told_as_done_is_contradicted() -> None:
    coupon = ("apply_coupon", {"invoice": "in_1Qb02Xy9", "code": "LOYAL15"})
    refused = _index_of(*_call_and_result(*coupon, "HTTP/1.1 410 Gone\ncoupon LOYAL15 expired"))
    told = kinds(check_summary("Seats raised to 75 and coupon LOYAL15 was applied.", refused))
    assert (CONTRADICTED, "succeeded") in told
    assert (DROPPED, "failed:apply_coupon") in told
    # told as failed, planned, or tried again and gone through: no contradiction
    for said in ("Coupon LOYAL15 was refused (410).", "Apply coupon LOYAL15 again once renewed."):
        assert CONTRADICTED not in [f.kind for f in check_summary(said, refused)]
    retried = _index_of(
        *_call_and_result(*coupon, "HTTP/1.1 503 Service Unavailable"),
        *_call_and_result(*coupon, '{"invoice": "in_1Qb02Xy9", "discount": "15%"}'),
    )
    told = kinds(check_summary("Coupon LOYAL15 was applied.", retried))
    assert CONTRADICTED not in [kind for kind, _ in told]


def test_a_failure_told_again_where_the_retry_went_through_is_contradicted() -> None:
    renew = ("order_renewal", {"quote": "Q-2027-0412"})
    went_through = _index_of(
        *_call_and_result(*renew, "HTTP/1.1 502 Bad Gateway"),
        *_call_and_result(*renew, '{"order": "PO-8812", "status": "placed"}'),
    )
    for said in (
        "The renewal order got a 502 and failed again on the retry.",
        "The renewal order got a 502, and the retry also failed.",
    ):
        assert (CONTRADICTED, "failed") in kinds(check_summary(said, went_through))
    # told once, or tried again for something else, or failed twice: no contradiction
    told = "The renewal order got a 502 and went through on the retry."
    assert CONTRADICTED not in [f.kind for f in check_summary(told, went_through)]
    other = _index_of(
        *_call_and_result(*renew, "HTTP/1.1 502 Bad Gateway"),
        *_call_and_result("order_renewal", {"quote": "Q-2027-0413"}, '{"status": "placed"}'),
    )
    again = "The renewal order got a 502 and failed again on the retry."
    assert CONTRADICTED not in [f.kind for f in check_summary(again, other)]
    twice = _index_of(
        *_call_and_result(*renew, "HTTP/1.1 502 Bad Gateway"),
        *_call_and_result(*renew, "HTTP/1.1 502 Bad Gateway"),
    )
    assert CONTRADICTED not in [f.kind for f in check_summary(again, twice)]


def test_an_http_reason_phrase_is_what_a_call_got_back_not_a_state() -> None:
    index = evidence('{"invoice_id": "INV-2026-04519", "status": "APPROVED"}')
    told = "match_run on INV-2026-04519: 504 Gateway Timeout, matched on the retry."
    assert CONTRADICTED not in [f.kind for f in check_summary(told, index)]
    assert CONTRADICTED in [f.kind for f in check_summary("INV-2026-04519 timed out.", index)]


def test_a_json_body_on_one_line_is_no_row_of_its_first_entity() -> None:
    applied = (
        "HTTP/1.1 201 Created\n\n"
        '{"subscription": "SUB-45510390", "offer": "OFR-50OFF3", "status": "applied", '
        '"cancel_request": "withdrawn"}'
    )
    index = evidence(("f1:0", applied, "apply_offer"))
    told = "The retry applied OFR-50OFF3 and withdrew his cancellation."
    assert CONTRADICTED not in [f.kind for f in check_summary(told, index)]


def test_a_count_of_tests_is_read_in_a_test_runners_own_words() -> None:
    for output in (
        "collected 715 items\n...\n===== 715 passed in 41.2s =====",
        "===== 712 passed, 3 skipped in 41.2s =====",  # the outcomes summed
    ):
        index = _index_of(*_call_and_result("run_tests", {"pr": 512}, output))
        assert [f.kind for f in check_summary("CI ran 751 tests.", index)] == [UNSUPPORTED]
        assert UNSUPPORTED not in [f.kind for f in check_summary("CI ran 715 tests.", index)]


def test_a_done_claim_about_other_things_than_the_failure_names_is_no_contradiction() -> None:
    sync = ("ats_sync", {"candidate": "CAN-29904"})
    log = (
        "INFO interview INT-7781 pushed\nINFO offer OFR-2026-0388 pushed\n"
        "ERROR background check BGC-44-0912-7: field 'package' rejected by ATS"
    )
    index = _index_of(*_call_and_result(*sync, log))
    told = "The ATS is synced with the interview and the offer."
    assert CONTRADICTED not in [f.kind for f in check_summary(told, index)]
    told = "All records are synced to the ATS."
    assert (CONTRADICTED, "succeeded") in kinds(check_summary(told, index))


@pytest.mark.parametrize(
    "told",
    [
        "SSAB would have been €85 per tonne cheaper.",
        "The 7/6 ARM would have been $122.63 less.",
        "The pour moved to 8 December, 5 days later.",
    ],
)
def test_a_difference_may_have_a_unit_or_words_before_its_comparative(told: str) -> None:
    index = evidence("SSAB 1,265.00 EUR/t\nARM 2,278.54\npour 2026-12-03 -> 2026-12-08")
    assert UNSUPPORTED not in [f.kind for f in check_summary(told, index)]


def test_an_amount_named_a_limit_or_a_deductible_is_not_the_entitys_amount() -> None:
    index = evidence(
        "claim_id: CLM-2026-048213\nstatus: OPEN\nclaimed_amount: 18.450,00 EUR",
        "Policy HH-DE-7730419\n\nCOVERAGE                  LIMIT (EUR)   DEDUCTIBLE (EUR)\n"
        "Water damage sublimit       25.000,00           1.000,00",
    )
    told = "CLM-2026-048213 is covered: water sublimit (25.000,00 EUR, deductible 1.000,00 EUR)."
    assert CONTRADICTED not in [f.kind for f in check_summary(told, index)]
    told = "CLM-2026-048213 is for 18.540,00 EUR of water damage."
    assert (CONTRADICTED, "EUR 18540") in kinds(check_summary(told, index))


def test_a_status_after_the_next_item_of_a_list_is_not_the_entitys() -> None:
    index = evidence('{"incident": "INC-20931", "status": "open", "priority": "P2"}')
    for told in (
        "Updating INC-20931 returned 503, and the post to #data-eng failed.",
        "INC-20931 could not be updated (503), Slack post failed (ok: false).",
    ):
        assert CONTRADICTED not in [f.kind for f in check_summary(told, index)]
    assert (CONTRADICTED, "failed") in kinds(check_summary("INC-20931 failed.", index))


def test_a_booking_that_went_through_is_scheduled() -> None:
    index = evidence('{"assignment": "ASN-77120", "status": "scheduled", "start": "2026-12-03"}')
    told = "ASN-77120 went through on the second try."
    assert CONTRADICTED not in [f.kind for f in check_summary(told, index)]
    assert (CONTRADICTED, "succeeded") in kinds(check_summary("ASN-77120 is complete.", index))


def test_a_records_state_under_a_first_line_naming_it_is_data_not_the_calls_failure() -> None:
    listing = "dag_id: orders_nightly\nrun_id: scheduled__2026-12-01\nstate: failed\n\nTASK  STATE"
    pipeline = "pipeline:   #48213\nref:        release/2.14\nstatus:     failed"
    for text, tool in ((listing, "airflow_task_states"), (pipeline, "ci_pipeline_status")):
        assert F.error_line(text, write=False) is None
        assert (
            kinds(check_summary("The run is being looked at.", evidence(("f1:0", text, tool))))
            == []
        )
    assert F.error_line(listing, write=True) == "state: failed"


def test_an_amount_under_ten_with_a_decimal_comma_is_found_as_written() -> None:
    index = evidence(
        "OPTION  WAREHOUSE     EST. COST\n1       TRANSFORM_M   7,98 €\n2       XL   8,36 €"
    )
    assert kinds(check_summary("TRANSFORM_M at 7,98 € against 8,36 € for XL.", index)) == []
    assert kinds(check_summary("TRANSFORM_M at 7,89 €.", index)) == [(UNSUPPORTED, "EUR 7.89")]


def test_a_year_before_a_noun_is_no_count() -> None:
    index = evidence('{"claim": "CLM-2023-017702", "status": "closed", "paid": "2.975,50 EUR"}')
    assert kinds(check_summary("The 2023 water claim CLM-2023-017702 is closed.", index)) == []
    assert ("count", "2023 claim") in [(a.kind, a.value) for a in summary_atoms("2023 claims")]


def test_a_level_another_result_gives_is_not_contradicted_by_the_operation_named() -> None:
    index = evidence(
        ("f1:0", "ERROR Job failed: exit code 1", "ci_job_log"),
        ("f1:1", "Error: query timed out after 30s\nexit code: 124", "metrics_query"),
    )
    told = "Integration tests failed (exit code 1), the metrics query timed out (exit code 124)."
    assert CONTRADICTED not in [f.kind for f in check_summary(told, index)]
    told = "The metrics query exited with exit code 137."
    assert (CONTRADICTED, "exit 137") in kinds(check_summary(told, index))


@pytest.mark.parametrize(
    "told", ["Payroll is paid except for two people.", "Payroll went through for everyone but two."]
)
def test_a_status_with_the_ones_it_leaves_out_is_no_end(told: str) -> None:
    index = evidence("run: PR-2026-11-M\nstatus: DRAFT")
    assert CONTRADICTED not in [f.kind for f in check_summary(f"PR-2026-11-M: {told}", index)]
    told = "PR-2026-11-M is done, but 4.11.2 stays paused."
    assert CONTRADICTED in [f.kind for f in check_summary(told, index)]


@pytest.mark.parametrize(
    "told",
    [
        "Across the two regions the event served {} requests.",
        "The two adjusters carry {} open files between them.",
        "Over the two days there are {} orders.",
    ],
)
def test_a_figure_across_several_things_is_worked_out(told: str) -> None:
    index = evidence("REGION  COUNT\neu      4,100,201\nus      8,483,866")
    assert kinds(check_summary(told.format("12,584,067"), index)) == []  # the sum
    assert [f.kind for f in check_summary(told.format("12,584,076"), index)] == [UNVERIFIED]
    said = told.format("12,584,076").replace("Across the two regions t", "T")
    said = said.replace(" between them", "").replace("Over the two days t", "T")
    # not said to be derived: a count the originals give no other number for
    (finding,) = check_summary(said, index)
    assert (finding.kind, finding.expected) == (
        UNVERIFIED,
        "a count the originals give no other number for; it may be counted",
    )


@pytest.mark.parametrize(
    ("told", "given"),
    [
        ("at 1 pm Eastern, 10 am Pacific", "slot: 2026-05-13 10:00 PT"),
        ("at 02:48 CET, i.e. 01:48 UTC", "updated: 2026-12-03 02:48 CET"),
    ],
)
def test_a_time_in_another_zone_is_worked_out(told: str, given: str) -> None:
    index = evidence(f"change: CHG-20931\n{given}")
    assert UNSUPPORTED not in [f.kind for f in check_summary(f"CHG-20931 is {told}.", index)]


def test_what_a_call_sends_is_not_what_it_is_about() -> None:
    report = "Nightly: validate_orders failed, contract publish refused (CR-3318 pending)."
    index = _index_of(
        *_call_and_result("update_contract", {"version": 15}, "HTTP/1.1 403 Forbidden"),
        *_call_and_result(
            "slack_post",
            {"channel": "#data-eng", "text": report},
            '{"ok": false, "error": "not_in_channel"}',
        ),
    )
    told = "Contract v15 was refused (403, CR-3318 pending). I posted the summary to #data-eng."
    found = kinds(check_summary(told, index))
    assert (DROPPED, "failed:slack_post") in found
    assert (CONTRADICTED, "succeeded") in found
    told = "Contract v15 publish was refused (403, CR-3318 pending); posting to data-eng failed."
    assert kinds(check_summary(told, index)) == []


def test_an_error_told_by_its_thing_and_the_state_it_names_is_mentioned() -> None:
    wire = '{"ok": false, "ref": "WR-880421", "error": "RETURNED", "return_reason": "AC04"}'
    index = _index_of(*_call_and_result("wire_status", {"ref": "WR-880421"}, wire))
    # the state the originals give in their own word agrees, and tells the error
    assert kinds(check_summary("WR-880421 returned (AC04).", index)) == []
    found = kinds(check_summary("WR-880421 cleared.", index))
    assert (DROPPED, "failed:wire_status") in found


def test_a_row_that_starts_with_its_date_is_its_ids() -> None:
    ledger = (
        "DATE        REF         DESCRIPTION          AMOUNT        STATUS\n"
        "2026-11-06  WR-880412   earnest money        $18,375.00    CLEARED\n"
        "2026-11-20  WR-880421   additional deposit   $6,125.17     RETURNED"
    )
    recap = "Working from OFR-5521 ($612,500.00, accepted); WR-880412 cleared."
    index = evidence(ledger, ("f1:1", recap, None))
    assert kinds(check_summary("Earnest money WR-880412 ($18,375.00) cleared.", index)) == []
    told = "Earnest money WR-880412 ($6,125.17) cleared."
    assert (CONTRADICTED, "USD 6125.17") in kinds(check_summary(told, index))


@pytest.mark.parametrize(
    "told",
    [
        "PF-NV-20261218-03 timed out on the first publish and was published on the retry.",
        "Price file PF-NV-20261218-03: first attempt timed out, second published.",
    ],
)
def test_a_failure_of_a_first_try_is_no_end(told: str) -> None:
    index = evidence('{"price_file": "PF-NV-20261218-03", "published": true, "status": "active"}')
    assert CONTRADICTED not in [f.kind for f in check_summary(told, index)]
    told = "PF-NV-20261218-03 timed out and is still unpublished."
    assert (CONTRADICTED, "failed") in kinds(check_summary(told, index))


def test_a_code_given_as_a_reason_owns_no_amount() -> None:
    index = evidence(
        '{"ref": "WR-880421", "instructed_amount": "5.650,00 EUR", "error": "RETURNED"}',
        "Returns by reason\nAC04  closed account  2 wires  $612,500.00",
    )
    told = "The euro wire (5.650,00 EUR) bounced back, reason AC04 closed account."
    assert CONTRADICTED not in [f.kind for f in check_summary(told, index)]


def test_a_quantity_whose_unit_is_the_columns_is_in_the_originals() -> None:
    index = evidence(
        "ZONE   CROP                 TEMP °C  RH %  ALARM     LEVEL\n"
        "GH-B3  Buxus sempervirens   6,1      74    temp-low  critical\n"
        "GH-B4  Skimmia japonica     9,4      70    temp-low  info"
    )
    assert [f.kind for f in check_summary("GH-B4 is at 9,4 °C.", index)] == [UNVERIFIED]
    assert kinds(check_summary("GH-B4 is at 9,7 °C.", index)) == [(UNSUPPORTED, "9.7 °C")]


def test_a_zones_offset_is_no_clock_time() -> None:
    index = evidence('{"hold": "HLD-90215", "until": "2027-06-18T12:00:00+02:00"}')
    told = "HLD-90215 has the block until 2027-06-18 12:00 +02:00."
    assert kinds(check_summary(told, index)) == []


@pytest.mark.parametrize(
    "told", ["General still has 1880 tickets left.", "VIP has 183 seats unsold."]
)
def test_what_is_left_of_a_number_is_worked_out(told: str) -> None:
    index = evidence("TIER     CAPACITY  SOLD\ngeneral  12000     10120\nvip      600       417")
    assert UNSUPPORTED not in [f.kind for f in check_summary(told, index)]


# --------------------------------------------------------------------------- round 43


def test_an_amount_among_several_of_its_sentence_is_judged_by_no_entity() -> None:
    # with several amounts in a sentence, nearness cannot tell which entity each is of
    index = evidence(
        "OPTION  APR  TOTAL\nA       0%   $1,199.30\nB       9%   $1,260.00",
        '{"plan_id": "PP-30917", "option": "A", "down_payment": "USD 199.30"}',
    )
    told = "Option A chosen ($1,199.30), PP-30917 created; down payment $199.30."
    assert kinds(check_summary(told, index)) == []
    wrong = "PP-30917 was created for $1,260.00."
    assert kinds(check_summary(wrong, index)) == [(CONTRADICTED, "USD 1260")]


@pytest.mark.parametrize(
    "told",
    [
        "integration-tests failed (2 failed, 311 passed).",
        "Two lots were released, 1 rejected.",
    ],
)
def test_an_outcome_before_a_list_of_counts_is_not_the_next_counts(told: str) -> None:
    index = evidence(
        "collected 313 items\n=== 2 failed, 311 passed in 3.1s ===\nlots: 2 released, 1 rejected"
    )
    assert kinds(check_summary(told, index)) == []
    assert kinds(check_summary("Tests failed: 311.", index)) == [(CONTRADICTED, "failed")]


def test_a_table_cell_is_no_outcome_of_the_count_in_the_cell_before() -> None:
    index = evidence("FLIGHT  STATUS\nOS 87   cancelled\nOS 88   delayed\n\n87 failed")
    assert CONTRADICTED not in [f.kind for f in check_summary("| OS 87 ORD | cancelled |", index)]
    assert (CONTRADICTED, "cancelled") in kinds(check_summary("87 flights cancelled.", index))


def test_a_number_with_a_leading_zero_before_a_word_is_a_label() -> None:
    index = evidence("box 07 logger: timeout\nbox 08 logger: ok, 12 reads, 2-6 °C held")
    assert kinds(check_summary("Box 07 timed out; box 08 read OK.", index)) == []
    assert kinds(check_summary("Box 08 logged 9 reads.", index)) == [(UNSUPPORTED, "9 read")]


@pytest.mark.parametrize(("fraction", "count"), [("214/214", "214 edges"), ("17/32", "17 hosts")])
def test_a_fraction_past_a_months_days_is_no_date(fraction: str, count: str) -> None:
    index = evidence(f"status: Completed\ndone: {fraction}")
    assert kinds(check_summary(f"It completed on {count}.", index)) == []
    assert kinds(check_summary("It ran on 12/03.", evidence("on 12/03 at 09:00"))) == []


def test_a_status_with_a_noun_of_its_own_is_that_things_state() -> None:
    index = evidence(
        "APPROVALS\nEMPLOYEE  PAYMENT   STATUS\nE-10428   APR-5533  PENDING_APPROVAL",
        "order: SO-48213\nstatus: backordered",
    )
    told = "E-10428's pay bounced with AC04 because his account is closed."
    assert CONTRADICTED not in [f.kind for f in check_summary(told, index)]
    assert (CONTRADICTED, "resolved") in kinds(check_summary("E-10428 is closed.", index))
    # what the summary calls the entity is no other subject
    said = "For order SO-48213 the order has shipped."
    assert (CONTRADICTED, "shipped") in kinds(check_summary(said, index))


@pytest.mark.parametrize(
    "told",
    [
        "CI run 8811771431 on fix/login-redirect succeeded.",
        "Run 8811771431 of deploy-preview succeeded.",
    ],
)
def test_a_name_before_a_status_is_no_subject_of_its_own(told: str) -> None:
    # a branch or a job named with '-' or '/' is a name, not a noun the status is about
    index = evidence(
        '{"run_id": 8811771431, "branch": "fix/login-redirect", "conclusion": "failure"}'
    )
    assert (CONTRADICTED, "succeeded") in kinds(check_summary(told, index))


def test_an_errors_code_word_told_in_words_mentions_it() -> None:
    index = evidence(
        ("f1:0", '{"ok": false, "error": "not_in_channel"}', "slack_post"),
        ("f1:1", '{"ok": false, "error": "card_declined"}', "charge_card"),
    )
    assert (
        kinds(check_summary("The bot is not in the channel; the card was declined.", index)) == []
    )
    told = "Slack: the bot is not in the channel. The charge went through."
    assert (DROPPED, "denied:charge_card") in kinds(check_summary(told, index))
    assert (DROPPED, "failed:slack_post") not in kinds(check_summary(told, index))


@pytest.mark.parametrize(
    ("result", "tool", "told"),
    [
        (
            '{"ok": false, "error": "channel_archived"}',
            "client_notify",
            "The note to the client never arrived.",
        ),
        (
            "ERROR CV03 pull-wire PW-07 activated",
            "plc_log_tail",
            "Belt CV-03 was halted by a trip wire.",
        ),
        ("ERROR relay K2 overload", "pump_log", "Pump 2 tripped its overload relay."),
        (
            '{"ok": false, "error": "channel_not_linked"}',
            "customer_notify",
            "Agroplus has not been messaged yet.",
        ),
        (
            '{"ok": false, "error": "refund_declined"}',
            "refund_request",
            "Finance wouldn't refund it.",
        ),
        (
            '{"wire": "WR-880421", "error": "RETURNED"}',
            "wire_status",
            "The WR-880421 top-up came back.",
        ),
    ],
)
def test_a_failure_told_as_what_happened_mentions_it(result: str, tool: str, told: str) -> None:
    # a failure, a refusal or a return in plain words ("never arrived", "wouldn't refund
    # it", "came back")
    index = evidence(("f1:0", result, tool))
    assert kinds(check_summary(told, index)) == []
    assert [f.kind for f in check_summary("All went to plan.", index)] == [DROPPED]


def test_a_name_the_originals_file_by_its_number_ties_the_error() -> None:
    # "eNB-44107" is filed by its number in the error's line; the summary names it whole
    index = evidence(
        ("f1:0", "2026-12-09 07:41:12 ERROR [oss] eNB-44107 S1 link down", "network_alarms"),
        ("f1:1", "attaching sites\nexit code 1", "run_shell"),
        ("f1:2", '{"ok": false, "error": "partial_failure"}', "notify_sms"),
    )
    told = "Outage: eNB-{} S1 down per the ERROR lines. Attach: exit code 1. SMS: ok: false."
    assert DROPPED not in [f.kind for f in check_summary(told.format(44107), index)]
    other = check_summary(told.format(44109), index)
    assert (DROPPED, "failed:network_alarms") in kinds(other)


def test_a_time_of_another_moment_is_no_contradiction() -> None:
    # the route's DEPART is no ETA: another moment of the same thing; an ETA found
    # nowhere is unsupported, one another thing has in the originals only unverified, one
    # a line gives to no thing (a prose line files no time) no finding
    route = "ROUTE   VAN     DEPART  STATUS\nRT-S02  VN-108  06:15   planned"
    index = evidence(route)
    assert [f.kind for f in check_summary("RT-S02 has ETA 06:52.", index)] == [UNSUPPORTED]
    elsewhere = evidence(route, "van: VN-108\nshift_end: 06:52")
    assert [f.kind for f in check_summary("RT-S02 has ETA 06:52.", elsewhere)] == [UNVERIFIED]
    nobodys = evidence(route, "VN-108 driver shift ends 06:52")
    assert check_summary("RT-S02 has ETA 06:52.", nobodys) == []
    assert kinds(check_summary("RT-S02 departs at 06:40.", index)) == [(CONTRADICTED, "06:40")]


def test_a_rows_first_id_keys_it_not_a_later_column_named_as_one() -> None:
    # the dye lot's verdict is the lot's; the order it was dyed for is a reference
    index = evidence(
        "ORDER    CUSTOMER   STATUS\nSO-7713  Ostfalia   confirmed",
        "LOT      ORDER    DELTA_E  VERDICT\nDL-2219  SO-7713  1.84     FAIL",
    )
    assert kinds(check_summary("SO-7713 is confirmed.", index)) == []
    assert kinds(check_summary("DL-2219 passed.", index)) == [(CONTRADICTED, "succeeded")]


def test_an_objects_status_is_its_own_not_its_references() -> None:
    index = evidence(
        '{"faults": [{"fault_id": "WF-30917", "status": "open"}]}',
        '{"work_order": "MWO-55218", "fault_id": "WF-30917", "status": "scheduled"}',
    )
    assert kinds(check_summary("Fault WF-30917 is open.", index)) == []
    assert kinds(check_summary("MWO-55218 is done.", index)) == [(CONTRADICTED, "succeeded")]


def test_a_rates_unit_after_a_value_is_no_path() -> None:
    index = evidence("QUOTE    LENGTH  RATE\nQ-88120  42 m    1.150,00 EUR/m")
    assert kinds(check_summary("Q-88120 is 42 m at 1.150,00 €/m.", index)) == []
    assert kinds(check_summary("The report is in /srv/reports.", index)) == [
        (UNSUPPORTED, "/srv/reports")
    ]


def test_a_count_the_originals_give_no_other_number_for_is_unverified() -> None:
    index = evidence(
        "shipment:        SHP-55120\nkits:            40",
        "production: PROD003\ndocuments: 1,204",
        '{"bounced": {"hard": 1204, "soft": 311}}',
    )
    # the originals count the noun otherwise (an aligned field, a grouped number, JSON)
    assert kinds(check_summary("SHP-55120 holds 48 kits.", index)) == [(UNSUPPORTED, "48 kit")]
    assert kinds(check_summary("PROD003 has 1,240 documents.", index)) == [
        (UNSUPPORTED, "1240 document")
    ]
    assert kinds(check_summary("There were 1,402 hard bounces.", index)) == [
        (UNSUPPORTED, "1402 hard")
    ]
    # nothing counts bags: the summary may have counted them from what the originals list
    assert [f.kind for f in check_summary("The lots hold 220 bags.", index)] == [UNVERIFIED]


def test_a_count_its_sentence_works_out_is_no_other_count() -> None:
    index = evidence("store: EBS-1\npositions: 2,000\noccupied: 1,220")
    told = "EBS-1 is at 1,220 of 2,000 positions, so 780 positions are still free."
    assert [f.kind for f in check_summary(told, index)] == [UNVERIFIED]
    assert kinds(check_summary("EBS-1 has 780 positions.", index)) == [
        (UNSUPPORTED, "780 position")
    ]


@pytest.mark.parametrize(
    "told",
    ["Glacier IR would have saved 3,10 €.", "Suite BA costs 391 € per person more than OV."],
)
def test_a_saving_or_a_difference_after_its_unit_is_worked_out(told: str) -> None:
    index = evidence("S3 Standard: 5,62 €\nGlacier IR: 1,15 €\nBA: 1.082,00 €\nOV: 694,00 €")
    assert [f.kind for f in check_summary(told, index)] == [UNVERIFIED]
    plain = told.replace("would have saved", "costs").replace(" per person more than OV", "")
    assert [f.kind for f in check_summary(plain, index)] == [UNSUPPORTED]


def test_a_failed_command_is_told_by_the_program_it_ran() -> None:
    command = {"command": "timeout 300 /usr/bin/restic -r s3:vault/media check"}
    index = _index_of(
        *_call_and_result("run_shell", command, "check all packs\n[4:19] 71.43%\nexit code 124")
    )
    assert kinds(check_summary("The restic check hit the timeout.", index)) == []
    assert [f.kind for f in check_summary("The vault is clean.", index)] == [DROPPED]


@pytest.mark.parametrize(
    ("code", "told"),
    [
        ("not_in_channel", "The bot isn't in the channel."),
        ("recipient_opted_out", "She can't get texts (opted out)."),
    ],
)
def test_an_errors_code_word_in_other_words(code: str, told: str) -> None:
    index = evidence(("f1:0", f'{{"ok": false, "error": "{code}"}}', "notify"))
    assert kinds(check_summary(told, index)) == []
    assert [f.kind for f in check_summary("All went to plan.", index)] == [DROPPED]


def test_a_code_words_bare_negation_needs_its_subject() -> None:
    # "not found" tells "user_not_found" with its user, never "channel_not_found"
    index = evidence(
        ("f1:0", '{"ok": false, "error": "user_not_found"}', "user_lookup"),
        ("f1:1", '{"ok": false, "error": "channel_not_found"}', "notify"),
    )
    told = "The user was not found."
    assert [f.normalised for f in check_summary(told, index)] == ["failed:notify"]
    assert kinds(check_summary(f"{told} The channel was not found either.", index)) == []


def test_a_status_that_agrees_with_one_entity_leaves_the_next_its_own() -> None:
    index = evidence(
        "JOB          STATUS\nbk-7f3a9e21  FAILED\nbk-90d4c7e3  CANCELLED",
        "TASK     STATUS\nT-30122  waiting\nT-30125  cancelled",
    )
    told = "bk-7f3a9e21 failed and sessions-redis (bk-90d4c7e3) failed as well."
    assert kinds(check_summary(told, index)) == [(CONTRADICTED, "failed")]
    # a comma ends a preposition's phrase: "cancelled" is T-30125's, not T-30122's
    assert kinds(check_summary("T-30122 waiting on customer, T-30125 cancelled.", index)) == []


def test_a_level_in_words_is_compared_with_its_entitys_field_of_that_scale() -> None:
    index = evidence(
        "CASE      PRIORITY  STATUS\nCS-88213  MEDIUM    open\nCS-88231  LOW       open",
        '{"vendor": "VN-1041", "risk_band": "HIGH"}',
    )
    assert kinds(check_summary("CS-88213 is a high-priority case.", index)) == [
        (CONTRADICTED, "priority=high")
    ]
    assert kinds(check_summary("VN-1041 was rated LOW risk.", index)) == [
        (CONTRADICTED, "risk=low")
    ]
    assert kinds(check_summary("CS-88213 is open with priority MEDIUM.", index)) == []
    assert kinds(check_summary("CS-88213 has moderate priority.", index)) == []  # one rung
    # a level in words of nothing named is not judged, nor looked up as a value
    assert kinds(check_summary("It is a low-priority case.", index)) == []


def test_an_amount_with_a_share_added_is_worked_out() -> None:
    index = evidence("option A: 2 x 145,00 EUR on site, VAT 21 %\noption B: RMA swap 225,00 EUR")
    told = "On-site costs 290,00 EUR, or {} with 21 % VAT."
    assert [f.kind for f in check_summary(told.format("350,90 EUR"), index)] == [
        UNVERIFIED,
        UNVERIFIED,
    ]
    assert UNSUPPORTED in [f.kind for f in check_summary(told.format("351,90 EUR"), index)]


def test_a_status_in_a_release_is_no_state_of_the_thing() -> None:
    index = evidence("ticket: ERR-2291\nstatus: open\nfix_version: 9.3.2")
    told = "ERR-2291 is fixed in 9.3.2, so upgrade."
    assert [f.kind for f in check_summary(told, index)] == [UNVERIFIED]
    assert [f.kind for f in check_summary("ERR-2291 is fixed.", index)] == [CONTRADICTED]


def test_a_zone_offset_after_a_space_is_no_time_of_its_own() -> None:
    index = evidence("PO-26-5530  V-2491  FR  due 2026-12-09T11:00:00-05:00  accepted")
    told = "PO-26-5530 (V-2491, FR) is due 2026-12-09 11:00 -05:00."
    assert kinds(check_summary(told, index)) == []


def test_a_difference_of_numbers_grouped_by_one_space_is_worked_out() -> None:
    index = evidence("job: J-26-0912\nsource words: 12 480\nweighted words: 7 770")
    told = "J-26-0912 has 12 480 source words, 7 770 weighted, so {} words were discounted."
    assert [f.kind for f in check_summary(told.format("4 710"), index)] == [UNVERIFIED]
    assert [f.kind for f in check_summary(told.format("4 170"), index)] == [UNSUPPORTED]


@pytest.mark.parametrize(
    ("original", "said", "other", "unsupported"),
    [
        # an id before a file's extension is that id's
        (
            "mismatched objects:\n  media/2026/11/30/IMG_88213.heic  4.1 MB",
            "The mismatch is IMG_88213.heic.",
            "The mismatch is IMG_88231.heic.",
            "IMG88231",
        ),
        # a version written inside a name is there
        (
            "SNAPSHOT                 STATUS\nnightly-2026.12.02-0200  PARTIAL",
            "Nightly 2026.12.02 was partial.",
            "Nightly 2026.12.05 was partial.",
            "2026.12.05",
        ),
        # the minutes and seconds of an elapsed time without its hours
        (
            "drill: rd-0412\nresult: PASSED\nrto: 00:22:41\ntarget: 00:30:00",
            "The drill passed, done in 22:41.",
            "The drill passed, done in 22:14.",
            "22:14",
        ),
        # a unit with a power is no count of its letters
        (
            "chargeable weight: volumetric 6000 cm3/kg",
            "Volumetric weight is 6 000 cm3 per kg.",
            "Volumetric weight is 5 000 cm3 per kg.",
            "5000",
        ),
        # a day and a month without the year is the date the originals give
        (
            "carrier: Nordfrio\neta: 2026-12-05 14:00 CET",
            "Nordfrio arrives 05.12.",
            "Nordfrio arrives 06.12.",
            "6.12",
        ),
        # an amount written with a point is found where the originals write a comma
        (
            "INV-2026-119457   2026-11  late fee   7,50 EUR   open",
            "I waived the €7.50 late fee.",
            "I waived the €7.60 late fee.",
            "EUR 7.6",
        ),
    ],
)
def test_a_value_is_found_where_the_originals_write_it_otherwise(
    original: str, said: str, other: str, unsupported: str
) -> None:
    index = evidence(original)
    assert kinds(check_summary(said, index)) == []
    assert kinds(check_summary(other, index)) == [(UNSUPPORTED, unsupported)]


# --------------------------------------------------------------------------- round 56

_WEB_BREAK = (
    "2026-12-03 02:30:01 INFO  reel PM2-1409 on the winder\n"
    "2026-12-03 02:31:52 ERROR web break BRK-2291 at dryer group 3; reel PM2-1409 cut"
)


def test_an_error_is_told_by_what_its_line_says_of_a_thing_it_names() -> None:
    index = evidence(("f1:0", _WEB_BREAK, "mill_log"))
    told = "Reel PM2-1409 was lost to web break BRK-2291 at dryer group 3."
    assert kinds(check_summary(told, index)) == []
    # the same thing told done, with no word of trouble: another story, the error untold
    done = "Reel PM2-1409 completed at dryer group 3."
    assert (DROPPED, "failed:mill_log") in kinds(check_summary(done, index))


def test_a_short_name_of_an_error_line_names_its_thing() -> None:
    line = "2026-12-03T17:33:47Z ERROR GS-2 antenna ACU: azimuth encoder fault, tracking lost"
    index = evidence(("f1:0", line, "ground_station_log"))
    assert kinds(check_summary("GS-2 logged an ERROR and handed over to GS-3.", index)) == []


@functools.cache
def _written(case_id: str) -> dict[str, Any]:
    """A written story of the corpus, by its id."""
    return next(c for f in load_families() for c in f.cases if c["id"] == case_id)


def test_a_thing_told_by_content_leaves_the_clause_of_its_trouble_tied_to_it() -> None:
    """ "LO-58213 placed with Visionlab" tells the timed-out order by what its error line
    says; "the first request timed out" is about it too, so no clause of trouble is left
    that may tell the portal's rejection in other words: that one is ``dropped``."""
    case = _written("opticalretail-24")
    assert [(f.kind, f.tool) for f in case_findings(case) if f.kind != UNVERIFIED] == [
        (DROPPED, "run_shell")
    ]


def test_an_entity_in_brackets_after_a_state_is_not_the_subject() -> None:
    """ "SK-0915 is held (WH-3307) and retimed to 14:30": the time is the sailing's, not
    the hold's (whose originals give it the time it was set)."""
    case = _written("ferryline-10")
    assert "SK-0915 is held (WH-3307) and retimed to 14:30." in case["summary"]
    assert [f for f in case_findings(case) if f.kind == CONTRADICTED] == []
    # a name's id in brackets is the name's: the subject
    index = evidence('{"backup_id": "bk-90d4c7e3", "status": "cancelled"}')
    (finding,) = check_summary("Backup of sessions-redis (bk-90d4c7e3) failed.", index)
    assert (finding.kind, finding.entity) == (CONTRADICTED, "bk-90d4c7e3")


def test_a_failed_command_is_told_by_its_subcommand() -> None:
    """ "the sync rejected one patient's result" of ``vetlink sync``, where another error
    is told by its kind of trouble too ("the refill was denied")."""
    log = (
        "10:31:08 INFO  IDX-7730412 imported (PARTIAL)\n"
        "10:31:09 ERROR IDX-7730419 HL7 ORU^R01 rejected: OBX-6 units missing\n"
        "10:31:10 INFO  sync done: 1 imported, 1 failed"
    )

    def told(subcommand: str) -> list[tuple[str, str]]:
        index = _index_of(
            *_call_and_result("run_shell", {"command": f"vetlink {subcommand} --lab idexx"}, log),
            *_call_and_result("refill_request", {"rx": "RFL-240981"}, "status: DENIED"),
        )
        summary = f"The refill was denied; the {subcommand} rejected one other patient's result."
        return kinds(check_summary(summary, index))

    assert told("sync") == []
    # a subcommand that is a word of any tool ("check", "run") names no operation: the
    # clause is not tied to the error, which it may tell in words the rules do not know
    assert told("run") == [(UNVERIFIED, "denied:run_shell")]


def test_a_share_over_a_hundred_written_with_a_comma_is_found() -> None:
    """An assay at T0 of "100,4 %", as the stability table writes it."""
    index = evidence("T0   2025-12-01   100,4 %   0,12 %   pass")
    assert kinds(check_summary("Assay fell from 100,4 % at T0.", index)) == []
    assert kinds(check_summary("Assay fell from 100,6 % at T0.", index)) == [(UNSUPPORTED, "100.6")]


def test_a_version_before_a_colon_heads_what_follows() -> None:
    """ "3.14.2 rollout: FRA1 and AMS1 complete": the sites' state, not the release's."""
    index = evidence('{"version": "3.14.2", "rollout_status": "failed"}')
    told = "3.14.2 rollout: FRA1 and AMS1 complete."
    assert CONTRADICTED not in [f.kind for f in check_summary(told, index)]
    assert [f.kind for f in check_summary("3.14.2 is complete.", index)] == [CONTRADICTED]


# --------------------------------------------------------------------------- round 57


def test_an_amount_nowhere_in_the_originals_is_unsupported_though_its_entity_has_one() -> None:
    """ "$297.00" of an order whose last mention, the reply's prose, gives it $279.00: too
    weak a word to contradict, but the amount is nowhere in the originals."""
    case = _written("secretsrotation-19")
    found = {f.atom: f.kind for f in case_findings(case)}
    assert found["$297.00"] == UNSUPPORTED
    told = case["summary"].replace("$297.00", "$279.00")
    assert "$279.00" not in {f.atom for f in case_findings({**case, "summary": told})}


@pytest.mark.parametrize(
    ("field", "told", "found"),
    [
        ("status: terminated", "Policy POL-7731 is still active.", [CONTRADICTED]),
        ("status: cancelled", "Policy POL-7731 is still active.", [CONTRADICTED]),
        ("status: ACTIVE", "Policy POL-7731 is still active.", []),
        ("status: ACTIVE", "Policy POL-7731 is suspended.", [CONTRADICTED]),
        # an earlier state, told as history
        ("status: terminated", "Policy POL-7731 was active until November.", []),
        # waiting before it was in force: history
        ("status: active", "Policy POL-7731 was pending until the first premium.", []),
    ],
)
def test_a_things_lifecycle_active_or_ended(field: str, told: str, found: list[str]) -> None:
    index = evidence(f"policy_id: POL-7731\nholder: C-5521\n{field}")
    assert [f.kind for f in check_summary(told, index)] == found


def test_an_operation_that_failed_on_a_thing_says_nothing_of_whether_it_is_in_force() -> None:
    """ "key_91ce5f02 is still active" of a key whose rotation failed with 409."""
    keys = "KEY ID        NAME          STATUS\nkey_91ce5f02  legacy-batch  active"
    listing = ("tool", keys, "keys")
    rotate = ("api_key_rotate", {"key": "key_91ce5f02"})
    refused = '{"error": "rotation_pending", "key": "key_91ce5f02", "status": "failed"}'
    index = _index_of(listing, *_call_and_result(*rotate, "HTTP/1.1 409 Conflict\n\n" + refused))
    told = "The leaked key key_91ce5f02 is still active; its rotation got a 409."
    assert kinds(check_summary(told, index)) == []


def test_a_value_of_another_thing_the_clause_names_is_no_contradiction() -> None:
    # the times are the sailing's; the words put them nearest the hold
    index = evidence(
        '{"hold_id": "WH-3307", "sailing": "SK-0915", "status": "ACTIVE", '
        '"created_at": "2026-12-03T07:22:41Z"}',
        "sailing: SK-0915\nstatus: retimed\ndep_old: 12:15\ndep_new: 14:30\nhold: WH-3307",
        "sailing: SK-0920\ndep: 16:05",
    )
    assert kinds(check_summary("SK-0915: hold WH-3307, retimed 12:15 -> 14:30.", index)) == []
    # a time of a thing the clause does not name stays a contradiction
    assert kinds(check_summary("SK-0915: hold WH-3307, retimed 12:15 -> 16:05.", index)) == [
        (CONTRADICTED, "16:05")
    ]
    assert kinds(check_summary("Hold WH-3307 was raised at 14:30.", index)) == [
        (CONTRADICTED, "14:30")
    ]


def test_a_time_the_originals_give_no_other_thing_is_no_contradiction() -> None:
    # the gale warning's window is the forecast's, which names no sailing and no hold: the
    # summary may tie it to the hold rightly; a time of another thing stays a contradiction
    index = evidence(
        '{"hold_id": "WH-3307", "status": "ACTIVE", "created_at": "2026-12-03T07:22:41Z"}',
        "Marine forecast, sea area 14\nAMBER gale warning 10:00-14:00, SW 34 kn gusting 47 kn",
        "sailing: SK-0920\ndep: 16:05",
    )
    assert kinds(check_summary("Hold WH-3307 covers the gale warning, 10:00-14:00.", index)) == []
    assert kinds(check_summary("Hold WH-3307 was raised at 16:05.", index)) == [
        (CONTRADICTED, "16:05")
    ]


def test_a_time_only_a_refused_request_gives_is_no_other_things() -> None:
    # the slot the 409 turned away is the un-chosen option, not a moment of no one's
    index = evidence(
        'HTTP/1.1 409 Conflict\n{"error": "slot_taken", "message": "10:30 is fully booked"}',
        "appointment: APT-90180\nstatus: confirmed\nstart: 14:00",
    )
    found = kinds(check_summary("APT-90180 is confirmed for 10:30.", index))
    assert (CONTRADICTED, "10:30") in found


def test_the_end_of_a_range_of_times_bears_out_a_time() -> None:
    index = evidence("Marine forecast, sea area 14\nAMBER gale warning 10:00-14:00")
    for summary in ("The warning ends at 14:00.", "The warning runs from 10:00 to 14:00."):
        assert kinds(check_summary(summary, index)) == []
    assert kinds(check_summary("The warning ends at 15:00.", index)) == [(UNSUPPORTED, "15:00")]


def test_an_amount_after_its_label_and_spaces_is_a_field() -> None:
    # an invoice prints its totals as a label, a run of spaces and the amount
    index = evidence(
        "INVOICE          TOTAL     PAID      STATUS\n"
        "INV-2026-018834  € 314,18  € 150,00  partially paid",
        "Invoice INV-2026-018834 - Dierenkliniek Kralingen\n\n"
        "Subtotal                 € 259,65\nTotal                    € 314,18\n"
        "Balance due              € 164,18\nStatus: partially paid",
    )
    assert kinds(check_summary("Invoice INV-2026-018834 has a balance of € 164,18.", index)) == []
    facts = index.facts(1).of("INV2026018834", "money")
    assert {(f.key, f.value) for f in facts} >= {("balance_due", "EUR 164.18")}


def test_the_ends_of_a_range_written_with_two_dots_are_found() -> None:
    # 2026-11-15..21 and 2026-11-29..2026-12-01: two dots end a number, they are no point
    index = evidence(
        "partition 2026-11-15..21   ok   1.2 GB",
        "demurrage billed for 2026-11-29..2026-12-01 (3 days)",
    )
    for summary in (
        "Partition 2026-11-15..21 loaded.",
        "The draft already bills 2026-11-29..2026-12-01.",
    ):
        assert kinds(check_summary(summary, index)) == []
    assert kinds(check_summary("It bills up to 2026-12-02.", index)) == [
        (UNSUPPORTED, "2026-12-02")
    ]


def test_a_done_word_is_told_of_what_the_operation_acts_on_not_of_the_next_clause() -> None:
    notify = ("district_notify", {"district": "north", "text": "LP-3318 posting"})
    refused = _index_of(*_call_and_result(*notify, '{"ok": false, "error": "not_in_channel"}'))
    for said in (
        # the district is what "waits for" names, not what was put in
        "The posting LP-3318 has been put in for 30 t and waits for the district engineer.",
        # "worked out at" is an amount, and the district is a new clause's subject
        "The fees worked out at $21,634.31 and the district has the figures.",
    ):
        assert CONTRADICTED not in [f.kind for f in check_summary(said, refused)], said
    for said in (
        "The update was posted and the district is informed.",
        "The district was informed.",
    ):
        assert (CONTRADICTED, "succeeded") in kinds(check_summary(said, refused)), said


def test_a_status_of_a_noun_beside_the_entity_is_that_nouns() -> None:
    index = evidence('{"employee": "E-10428", "status": "PENDING_APPROVAL"}')
    for said in ("1 returned (E-10428, account closed).", "E-10428 was returned (closed account)."):
        assert CONTRADICTED not in [f.kind for f in check_summary(said, index)], said
    assert (CONTRADICTED, "resolved") in kinds(check_summary("E-10428 is closed.", index))


def test_a_status_right_after_an_amount_is_the_amounts() -> None:
    index = evidence('{"invoice": "INV-7731", "status": "paid"}')
    said = "INV-7731 is 61,50 € unpaid."
    assert CONTRADICTED not in [f.kind for f in check_summary(said, index)]
    assert (CONTRADICTED, "unpaid") in kinds(check_summary("INV-7731 is unpaid.", index))


def test_an_amount_in_a_bracket_is_not_the_next_entitys() -> None:
    index = evidence(
        '{"code": "D3330", "status": "approved"}',
        '{"code": "D2740", "status": "pending", "patient_share": "$1,385.00"}',
        "Estimated share of the approved crown: $196.80",
    )
    said = "D3330 approved (her share $196.80), D2740 pending."
    assert CONTRADICTED not in [f.kind for f in check_summary(said, index)]
    said = "D3330 approved, D2740 pending (her share $196.80)."
    assert (CONTRADICTED, "USD 196.8") in kinds(check_summary(said, index))


def test_an_amount_after_a_quantity_and_at_is_a_unit_price() -> None:
    index = evidence('{"po": "PO-40918", "total": "EUR 13195.00"}')
    said = "1,450 kg at EUR 9,10 from Valsorte, PO-40918."
    assert CONTRADICTED not in [f.kind for f in check_summary(said, index)]
    # an id's digits before "at" are no quantity
    assert (CONTRADICTED, "EUR 9.1") in kinds(check_summary("PO-40918 at EUR 9,10.", index))


@pytest.mark.parametrize(
    "said",
    ["PAY-7731 was refused (409) and PAY-7740 used instead.", "PAY-7731 refused, 422 NP-117.",
     "PAY-7731 was refused with a 422."],
)  # fmt: skip
def test_a_status_with_the_http_code_a_call_got_is_the_calls(said: str) -> None:
    index = evidence('{"payment": "PAY-7731", "status": "paid"}')
    assert CONTRADICTED not in [f.kind for f in check_summary(said, index)]
    assert (CONTRADICTED, "rejected") in kinds(check_summary("PAY-7731 was refused.", index))


def test_a_status_before_a_noun_and_its_id_is_what_was_done_to_that_thing() -> None:
    index = evidence(
        '{"transaction": "TX-90425774", "status": "declined"}',
        '{"referral": "REF-25258", "status": "pending"}',
    )
    said = "TX-90425774 was authorised and triggered alert FA-20261201-0417."
    assert (CONTRADICTED, "open") not in kinds(check_summary(said, index))
    # the thing named after the noun is what the word is about: its own state
    said = "Nephrology has accepted referral REF-25258."
    assert CONTRADICTED in [f.kind for f in check_summary(said, index)]


# --------------------------------------------------------------------------- round 62


def test_a_number_worked_out_from_another_part_of_its_sentence_is_worked_out() -> None:
    index = evidence(
        "ACR-1107  freight      5.467,00  posted",
        "ACR-1108  electricity  13.225,20  posted",
        *(f"step: C-0{n}\nstate: done" for n in range(1, 5)),
    )
    told = "ACR-1107 (5.467,00) and ACR-1108 (13.225,20) are in; {} of that is posted."
    assert [f.kind for f in check_summary(told.format("18.692,20"), index)] == [UNVERIFIED]
    assert [f.kind for f in check_summary(told.format("18.962,20"), index)] == [UNSUPPORTED]


def test_a_sum_the_summary_writes_out_is_worked_out() -> None:
    index = evidence(
        "member: M-48\nTX-1  earn  EUR 108,00\nTX-2  earn  EUR 177,00\n"
        "TX-3  earn  EUR 266,00\nTX-4  return  EUR -47,00"
    )
    told = "M-48 is owed EUR {} (108 + 177 + 266 - 47)."
    assert [f.kind for f in check_summary(told.format("504,00"), index)] == [UNVERIFIED]
    assert [f.kind for f in check_summary(told.format("514,00"), index)] == [UNSUPPORTED]
    # a hyphen with no space on each side is a range or an id, never a minus
    said = "M-48 is owed EUR 504,00 (108 + 177 + 266-47)."
    assert [f.kind for f in check_summary(said, index)] == [UNSUPPORTED]


@pytest.mark.parametrize(
    "summary",
    [
        "Lakeside's operator, Ana Ferreira, will meet the family.",
        "The technician on call, Ana Ferreira, has to go to Central.",
        "It is with buyer Ana Ferreira now.",
        "The receipt is with AR, where Ana Ferreira will apply it.",
        "The change waits on Ana Ferreira from sales-data.",
        "Ana Ferreira in finance has to sign it off.",
        # round 64: a longer trade word, a role after the name, a name in brackets
        # before what the person did, a person doing anything
        "I asked the owner's superintendent, Ana Ferreira, to approve it.",
        "Ana Ferreira, Head of Payroll, needs to approve it.",
        "The gate (Ana Ferreira) rejected the change.",
        "The pills are ready; Ana Ferreira labeled the pack by hand.",
    ],
)
def test_a_person_named_by_a_trade_or_a_team_is_a_name(summary: str) -> None:
    assert kinds(check_summary(summary, evidence("owner: j.okafor@example.org"))) == [
        (UNSUPPORTED, "Ana Ferreira")
    ]
    backed = evidence("owner: Ana Ferreira (ana.ferreira@example.org)")
    assert kinds(check_summary(summary, backed)) == []


@pytest.mark.parametrize(
    "summary",
    ["Rhein Power AG will deliver on Friday.", "Morrow & Gale Legal will file it.",
     "Stadtwerke Bochum in November billed twice."],
)  # fmt: skip
def test_the_end_of_a_longer_name_or_a_month_is_no_person(summary: str) -> None:
    assert [f.atom_kind for f in check_summary(summary, evidence("ok"))] == []


def test_an_amount_that_is_a_difference_is_no_amount_of_the_entity() -> None:
    index = evidence(
        '{"quote": "FQ-3307", "total": "USD 5,840.00"}',
        '{"quote": "FQ-3370", "total": "USD 5,180.00"}',
    )
    said = "FQ-3307 is USD 660.00 more for the four boxes than FQ-3370 would have been."
    assert CONTRADICTED not in [f.kind for f in check_summary(said, index)]
    assert (CONTRADICTED, "USD 660") in kinds(check_summary("FQ-3307 is USD 660.00.", index))


def test_a_time_of_an_event_the_clause_names_is_the_events() -> None:
    index = evidence(
        "TICKET       IN     STATUS\nWB-26-40952  13:20  pending_assay",
        "2026-12-03 07:45:02 ERROR xrf-02 shot 6 detector saturated, discarded",
    )
    said = "WB-26-40952 was downgraded, with an ERROR at 07:45:02 for shot 6."
    assert "07:45:02" not in [f.atom for f in check_summary(said, index)]
    assert CONTRADICTED in [f.kind for f in check_summary("WB-26-40952 came in at 07:45.", index)]


# --------------------------------------------------------------------------- round 63


@pytest.mark.parametrize(
    ("tool", "args", "result", "told"),
    [
        (
            "diversion_activate",
            {"route": "14"},
            "HTTP/1.1 503 Service Unavailable",
            "The dispatch system was too busy to take the diversion at first.",
        ),
        (
            "diversion_activate",
            {"route": "14"},
            "HTTP/1.1 503 Service Unavailable",
            "The dispatch system took the diversion on the second go.",
        ),
        (
            "ops_post",
            {"channel": "#ops-morning"},
            '{"ok": false, "error": "not_in_channel"}',
            "Nothing reached the team: the bot is not in #ops-morning.",
        ),
        (
            "run_shell",
            {"command": "vetlink sync --lab idexx"},
            "2026-12-02T10:31:09 ERROR IDX-7730419 rejected: OBX-6 units missing\nexit code 0",
            "The IDEXX sync logged an ERROR.",
        ),
    ],
)
def test_an_error_told_in_everyday_words_is_mentioned(
    tool: str, args: dict[str, Any], result: str, told: str
) -> None:
    index = _index_of(
        *_call_and_result(tool, args, result),
        *_call_and_result(
            "sms_send", {"to": "+44 7700 900123"}, '{"ok": false, "error": "carrier"}'
        ),
    )
    sms = "The SMS to the rider failed."
    assert DROPPED not in [f.kind for f in check_summary(f"{told} {sms}", index)]
    assert DROPPED in [
        f.kind for f in check_summary(f"The diversion and the sync ran. {sms}", index)
    ]


def test_a_letter_at_the_end_of_a_name_is_no_initial() -> None:
    text = "The plan is posted to #planning-shed-b. Marlow got a 409. Ask J. Smith."
    assert [text[a:b] for a, b in sentences(text)] == [
        "The plan is posted to #planning-shed-b.",
        "Marlow got a 409.",
        "Ask J. Smith.",
    ]


def test_a_name_with_small_words_is_one_name() -> None:
    said = "I rang the duty officer, Marleen de Groot, about the scan."
    assert kinds(check_summary(said, evidence("owner: j.okafor@example.org"))) == [
        (UNSUPPORTED, "Marleen de Groot")
    ]
    assert kinds(check_summary(said, evidence("officer: M. de Groot"))) == []


# --------------------------------------------------------------------------- round 65


def test_an_error_line_after_a_zoned_timestamp_is_an_error() -> None:
    log = (
        "2026-12-01 22:00:27 CET INFO  PC-B2-02 within limits\n"
        "2026-12-01 22:00:41 CET ERROR PC-B2-03 sensor fault: flow rate below 28,3 L/min\n"
        "2026-12-01 22:00:55 CET INFO  PC-B2-04 within limits"
    )
    assert F.error_line(log) == (
        "2026-12-01 22:00:41 CET ERROR PC-B2-03 sensor fault: flow rate below 28,3 L/min"
    )
    index = _index_of(*_call_and_result("em_log_read", {"room": "B2"}, log))
    assert kinds(check_summary("All six B2 points were read.", index)) == [
        (DROPPED, "failed:em_log_read")
    ]
    told = "The B2 run logged a sensor fault on PC-B2-03."
    assert kinds(check_summary(told, index)) == []


def test_a_level_on_a_log_line_is_its_entitys() -> None:
    log = (
        "2026-12-01 09:14:03 INFO  MDM-4417 noncompliant: passcode_length 4 < 6 (severity HIGH)\n"
        "2026-12-01 09:14:05 INFO  MDM-4502 compliant"
    )
    index = evidence(log)
    said = "MDM-4417 is noncompliant on its passcode (severity {})."
    assert kinds(check_summary(said.format("MEDIUM"), index)) == [(CONTRADICTED, "severity=medium")]
    assert kinds(check_summary(said.format("HIGH"), index)) == []


def test_a_freight_car_by_its_owner_code_and_serial_is_one_id() -> None:
    consist = "CAR          STATUS\nCEFX 654417  sealed\nCEFX 654480  loading"
    assert kinds(check_summary("CEFX 654480 is still loading.", evidence(consist))) == []
    assert kinds(check_summary("CEFX 654408 is still loading.", evidence(consist))) == [
        (UNSUPPORTED, "CEFX654408")
    ]


def test_a_word_that_opens_a_sentence_is_no_first_name() -> None:
    said = "Since Slack refused the post, the summary goes by e-mail."
    found = check_summary(said, evidence('{"ok": false, "error": "restricted_action"}'))
    assert [f.kind for f in found if f.kind == UNSUPPORTED] == []


def test_the_next_item_of_a_list_does_not_bear_out_a_state() -> None:
    tasks = "TASK     STATUS\nT-30131  completed\nT-30122  open\nT-30125  cancelled"
    said = "Tasks: T-30131 completed, T-30122 is done, T-30125 cancelled."
    assert kinds(check_summary(said, evidence(tasks))) == [(CONTRADICTED, "succeeded")]
    faithful = "Tasks: T-30131 completed, T-30122 still open, T-30125 cancelled."
    assert kinds(check_summary(faithful, evidence(tasks))) == []
    # an aside in brackets, and a subject set off by commas, are still the claim's
    fee = "Booked the bundle (£25.00, ADD-20260303-117)."
    assert kinds(check_summary(fee, evidence("ADD-20260303-117  price: £25.00"))) == []


def test_a_call_that_went_through_is_no_state_of_its_record() -> None:
    update = (
        "TICKET     OLD STATUS   NEW STATUS        RESULT\n"
        "TK-608119  open         resolved          ok\n"
        "TK-608121  open         pending_approval  ok (note added)"
    )
    index = evidence(update)
    assert kinds(check_summary("TK-608121 is closed.", index)) == [(CONTRADICTED, "resolved")]
    assert kinds(check_summary("TK-608119 is resolved.", index)) == []


def test_a_thing_issued_is_no_issue() -> None:
    index = _index_of(
        *_call_and_result(
            "credit_note_create", {"invoice": "INV-2026-11027"}, "HTTP/1.1 503 Service Unavailable"
        )
    )
    told = "The SLA credit note against INV-2026-11027 was issued."
    assert DROPPED in [f.kind for f in check_summary(told, index)]


def test_a_read_refused_for_want_of_permission_is_an_error() -> None:
    index = _index_of(
        *_call_and_result(
            "kms_key_status",
            {"key": "alias/vault-media-eu"},
            'HTTP/1.1 403 Forbidden\n\n{"__type": "AccessDeniedException"}',
        )
    )
    assert kinds(check_summary("The media vault key was checked.", index)) == [
        (DROPPED, "denied:kms_key_status")
    ]
    assert kinds(check_summary("Reading the key was denied (403).", index)) == []


def test_what_a_json_error_names_ties_a_clause_to_it() -> None:
    index = _index_of(
        *_call_and_result(
            "dispatch_vendor",
            {"wo": "WO-88341"},
            '{"ok": false, "error": "vendor_declined", "vendor": "Rapid Rooter"}',
        ),
        *_call_and_result(
            "send_notice", {"type": "pay_or_quit"}, "HTTP/1.1 403 Forbidden\nrole required"
        ),
    )
    told = "Rapid Rooter declined the job, and the pay-or-quit notice was refused (403)."
    assert kinds(check_summary(told, index)) == []


def test_a_jam_is_a_failure() -> None:
    log = (
        "2027-03-09 10:44:02 WET INFO  BP-02 badge A-10383 printed\n"
        "2027-03-09 10:44:09 WET ERROR BP-02 badge A-10388 failed: print head jam\n"
        "2027-03-09 10:46:41 WET INFO  batch done: 553 printed, 1 failed"
    )
    index = _index_of(*_call_and_result("badge_print", {"batch": "all"}, log))
    assert kinds(check_summary("553 badges printed; A-10388 jammed on BP-02.", index)) == []


# --------------------------------------------------------------------------- round 66


def test_the_restated_request_mentions_no_error() -> None:
    index = _index_of(
        *_call_and_result(
            "slack_post", {"channel": "#ops"}, '{"ok": false, "error": "not_in_channel"}'
        )
    )
    asked = (
        "1. Primary Request and Intent:\n"
        "   Resolve the ticket: leaked key, failed webhooks, a reply, an escalation channel.\n"
        "\n"
        "2. Current Work:\n"
        "   The ticket is answered."
    )
    assert kinds(check_summary(asked, index)) == [(DROPPED, "failed:slack_post")]
    told = asked.replace("The ticket is answered.", "The Slack post failed (not in channel).")
    assert kinds(check_summary(told, index)) == []


def test_a_compound_word_is_its_words_when_a_clause_is_tied_to_an_error() -> None:
    log = (
        "2026-12-01 13:10:30 GMT INFO  permit PTW-0912 closed\n"
        "2026-12-01 15:48:19 GMT ERROR incident INC-0213: steel fixer laceration, first aid given"
    )
    index = _index_of(*_call_and_result("safety_log", {"site": "QL-C"}, log))
    told = "The safety log has INC-0213, a first-aid injury."
    assert kinds(check_summary(told, index)) == []


def test_a_failure_the_originals_give_a_thing_does_not_excuse_a_dropped_error() -> None:
    lots = "LOT      ORDER    RESULT\nDL-2219  SO-7713  FAIL\nDL-2291  SO-7731  PASS"
    index = _index_of(
        *_call_and_result("dye_lot_lab", {"lots": ["DL-2291", "DL-2219"]}, lots),
        *_call_and_result("yarn_order", {"po": "PO-1"}, "Error: POST /api/po timed out after 60 s"),
        *_call_and_result(
            "slack_post", {"channel": "#ops"}, '{"ok": false, "error": "not_in_channel"}'
        ),
    )
    slack = "The Slack post failed (not_in_channel)."
    said = f"DL-2219 failed, DL-2291 passed. {slack}"
    assert kinds(check_summary(said, index)) == [(DROPPED, "timeout:yarn_order")]
    # a failure the originals do not bear out may be the error told in other words
    loose = f"Something else failed. {slack}"
    assert [f.kind for f in check_summary(loose, index)] == [UNVERIFIED]


# --------------------------------------------------------------------------- round 67


@pytest.mark.parametrize(
    ("result", "line"),
    [
        (
            "POST https://billing.internal/v2/credits\n"
            "Error: request timed out after 60 s (billing-svc did not respond)\ncredit not created",
            "Error: request timed out after 60 s (billing-svc did not respond)",
        ),
        (
            "550 5.1.1 <team@example.org>: Recipient address rejected: User unknown\n"
            "status: not delivered",
            "550 5.1.1 <team@example.org>: Recipient address rejected: User unknown",
        ),
        (
            "smtp: connecting to mx1.example.org:587\n"
            "smtp: error: timeout after 60s waiting for 220 greeting\nmessage not sent",
            "smtp: error: timeout after 60s waiting for 220 greeting",
        ),
        (
            "ReadTimeout: HTTPSConnectionPool(host='appstoreconnect.apple.com', port=443)",
            "ReadTimeout: HTTPSConnectionPool(host='appstoreconnect.apple.com', port=443)",
        ),
        (
            'HTTP/1.1 207 Multi-Status\n{"posted": 34, "failed": [{"student": "s-20455", '
            '"status": 409, "error": "grade locked: extension override pending"}]}',
            "HTTP/1.1 207 Multi-Status",
        ),
    ],
)
def test_errors_told_after_a_request_by_mail_servers_and_in_part(result: str, line: str) -> None:
    assert F.error_line(result) == line
    assert F.may_report_error(json.dumps(result).encode())


def test_a_207_with_no_failed_item_is_no_error() -> None:
    assert F.error_line('HTTP/1.1 207 Multi-Status\n{"posted": 35, "failed": []}') is None


def test_a_bounce_is_told_by_bounced_and_what_a_207_failed_on_by_its_words() -> None:
    index = _index_of(
        *_call_and_result(
            "send_email",
            {"to": "team@example.org"},
            "550 5.1.1 <team@example.org>: Recipient address rejected: User unknown",
        ),
        *_call_and_result(
            "post_grades_lms",
            {"assignment": "A3"},
            'HTTP/1.1 207 Multi-Status\n{"posted": 34, "failed": [{"student": "s-20455", '
            '"status": 409, "error": "grade locked: extension override pending"}]}',
        ),
    )
    told = (
        "The note to the study team bounced back. The LMS turned one grade away because an "
        "extension override is still pending."
    )
    assert kinds(check_summary(told, index)) == []
    assert kinds(check_summary("The grades were posted to the LMS. The note went out.", index)) == [
        (DROPPED, "unavailable:send_email"),
        (CONTRADICTED, "succeeded"),
        (DROPPED, "conflict:post_grades_lms"),
    ]


def test_a_compressor_that_cut_out_is_a_failure_told() -> None:
    log = (
        "2026-12-02T23:10:00Z INFO  MSKU7723105 supply=+5.6C\n"
        "2026-12-02T23:41:12Z ERROR compressor C1 trip: high pressure cutout (alarm AL-17)"
    )
    index = _index_of(
        *_call_and_result("telemetry_get", {"unit": "MSKU7723105"}, log),
        *_call_and_result("notify", {"to": "ops"}, '{"ok": false, "error": "not_in_channel"}'),
    )
    told = (
        "The container's compressor cut out on high pressure. The ops note failed (not_in_channel)."
    )
    assert kinds(check_summary(told, index)) == []


# --------------------------------------------------------------------------- round 68


def test_a_call_that_failed_on_an_unpaid_account_tells_nothing_of_its_balance() -> None:
    index = _index_of(
        *_call_and_result(
            "account_get", {"account": "ACCT-771093"}, "account: ACCT-771093\nstatus: overdue"
        ),
    )
    told = "The statement for ACCT-771093 timed out."
    assert kinds(check_summary(told, index)) == []
    # a state of the balance itself is still judged
    assert kinds(check_summary("ACCT-771093 is paid in full.", index)) == [(CONTRADICTED, "paid")]


def test_an_error_line_of_a_log_is_no_state_of_the_thing_it_names() -> None:
    index = _index_of(
        *_call_and_result(
            "reports_list", {"batch": "EB-48"}, "ER-30502  Kenji Watanabe  status: APPROVED"
        ),
        *_call_and_result(
            "gl_export",
            {"batch": "EB-48"},
            "INFO  export started\nERROR ER-30502: line 2 has no cost centre; journal not created",
        ),
    )
    told = "ER-30502 is APPROVED; its GL export logged an ERROR (no cost centre)."
    # weak evidence at most (information), never a contradiction
    assert kinds(check_summary(told, index)) == [(UNVERIFIED, "approved")]
    # a word of state on a log line still is its thing's state
    index = _index_of(
        *_call_and_result(
            "drill_run", {"drill": "rd-0412"}, "INFO  drill rd-0412 FAILED  RTO over target"
        ),
    )
    assert kinds(check_summary("Drill rd-0412 passed.", index)) == [(CONTRADICTED, "succeeded")]
    # and an error logged by the operation the clause names tells against its outcome
    log = (
        "INFO  restore started: bkp-0515 -> orders-restore-8\n"
        "ERROR checksum mismatch on chunk 2596\nFATAL restore aborted"
    )
    index = _index_of(*_call_and_result("restore_backup", {"backup_id": "bkp-0515"}, log))
    told = "The restore of bkp-0515 completed without problems."
    assert (CONTRADICTED, "succeeded") in kinds(check_summary(told, index))


def test_what_a_note_names_is_not_what_the_object_is_about() -> None:
    index = _index_of(
        *_call_and_result(
            "advisory_publish", {"area": "Harbour Road"}, '{"id": "ADV-07", "status": "published"}'
        ),
        *_call_and_result(
            "alert_update",
            {"alert": "ALR-11873", "state": "ACKNOWLEDGED", "note": "advisory ADV-07 published"},
            '{"id": "ALR-11873", "state": "ACKNOWLEDGED"}',
        ),
    )
    assert kinds(check_summary("Advisory ADV-07 is live.", index)) == []
    assert kinds(check_summary("Alert ALR-11873 is resolved.", index)) == [
        (CONTRADICTED, "resolved")
    ]


def test_the_part_of_a_whole_with_the_wrong_outcome_is_contradicted() -> None:
    log = (
        "2026-12-01 09:14:02 INFO  found 9 files (41,7 MB)\n"
        "2026-12-01 09:14:14 INFO  8 of 9 files uploaded, 1 failed"
    )
    index = _index_of(*_call_and_result("run_shell", {"command": "docpush"}, log))
    assert kinds(check_summary("The push uploaded 8 of 9 files; one failed.", index)) == []
    assert kinds(check_summary("The push went badly: 8 of 9 files failed.", index)) == [
        (CONTRADICTED, "failed")
    ]


def test_a_table_whose_header_gives_units_is_read() -> None:
    table = (
        "ORDER       CUSTOMER                  QTY m³  UNIT PRICE     PRIORITY  STATUS\n"
        "SO-26-0914  Hartwell Timber Ltd, GB   42,0    GBP 268.00/m³  HIGH      awaiting_kiln\n"
        "SO-26-0941  Bauholz Lechner GmbH, AT  36,5    312,00 EUR/m³  NORMAL    ready_to_ship"
    )
    index = _index_of(*_call_and_result("orders_list", {"status": "open"}, table))
    assert kinds(check_summary("SO-26-0914 (priority HIGH) waits for the kiln.", index)) == []
    assert kinds(check_summary("SO-26-0914 (priority URGENT) waits for the kiln.", index)) == [
        (CONTRADICTED, "priority=urgent")
    ]


def test_a_rush_priority_is_urgent() -> None:
    index = _index_of(
        *_call_and_result(
            "ill_request_submit",
            {"title": "thesis"},
            '{"request_id": "ILL-2026-08815", "priority": "RUSH", "status": "DENIED"}',
        ),
    )
    assert (
        kinds(check_summary("ILL-2026-08815, placed at URGENT priority, was denied.", index)) == []
    )
    assert kinds(
        check_summary("ILL-2026-08815, placed at NORMAL priority, was denied.", index)
    ) == [(CONTRADICTED, "priority=medium")]


# --------------------------------------------------------------------------- round 69


def test_findings_counted_by_severity_are_no_error() -> None:
    report = (
        "VULNERABILITY   PACKAGE   SEVERITY\nCVE-2026-41172  libssl3   HIGH\n"
        "total: 5 (CRITICAL 0, HIGH 2, MEDIUM 2, LOW 1)\nverdict: PASS (2 warnings)"
    )
    assert F.error_line(report) is None
    assert F.error_line("[10:00] ERROR 503 Service Unavailable") is not None


def test_an_address_that_ends_in_no_is_no_negation() -> None:
    index = _index_of(
        *_call_and_result(
            "email_send",
            {"to": "eksamen@nordvik-uni.no"},
            '{"ok": false, "error": "smtp_rejected", "detail": "552 mailbox full"}',
        ),
    )
    assert kinds(check_summary("The email to eksamen@nordvik-uni.no failed.", index)) == []


def test_a_thing_in_brackets_after_another_is_its_attribute() -> None:
    queue = (
        "JOB       PRINTER  MATERIAL  STATUS\n"
        "JB-60445  P-09     TPU 95A   cancelled\n"
        "JB-60451  P-11     PETG      done"
    )
    index = _index_of(*_call_and_result("jobs_list", {"farm": "north"}, queue))
    told = "JB-60451 is done and JB-60445 (TPU 95A, P-09) is done as well."
    assert kinds(check_summary(told, index)) == [(CONTRADICTED, "succeeded")]


def test_a_phrase_that_opens_a_sentence_ends_at_its_comma() -> None:
    flags = (
        "FLAG       SESSION   TYPE            SEVERITY  STATE\n"
        "FLG-90412  EXS-4471  second person   HIGH      confirmed\n"
        "FLG-90433  EXS-4471  gaze off-screen LOW       dismissed"
    )
    index = _index_of(*_call_and_result("flags_list", {"session": "EXS-4471"}, flags))
    told = "On EXS-4471, FLG-90412 (second person in frame, severity MEDIUM) was confirmed."
    assert kinds(check_summary(told, index)) == [(CONTRADICTED, "severity=medium")]


# --------------------------------------------------------------------------- round 70


def test_a_state_a_log_line_gives_other_things_is_not_its_entitys() -> None:
    log = "2026-12-08 21:34:02 INFO  QC run QC-88412 complete: K 2-2s REJECT, other assays accepted"
    index = _index_of(*_call_and_result("run_shell", {"command": "labctl qc log"}, log))
    assert kinds(check_summary("QC-88412 rejected K on the 2-2s rule.", index)) == []


def test_a_quantity_the_summary_works_out_is_unverified_not_unsupported() -> None:
    lots = "LOT      NET KG\nHL-0413  1.152,0 kg\nHL-0431  1.034,4 kg"
    index = _index_of(*_call_and_result("lots_list", {"zone": "Z1"}, lots))
    told = "HL-0413 (1.152,0 kg) and HL-0431 (1.034,4 kg) make 2.186,4 kg of grade I."
    assert [(f.kind, f.atom) for f in check_summary(told, index)] == [(UNVERIFIED, "2.186,4 kg")]
    # a quantity that works out from nothing is still unsupported
    told = "HL-0413 (1.152,0 kg) and HL-0431 (1.034,4 kg) make 2.917,7 kg of grade I."
    assert [(f.kind, f.atom) for f in check_summary(told, index)] == [(UNSUPPORTED, "2.917,7 kg")]


def test_a_new_subject_after_and_is_a_clause_of_its_own() -> None:
    index = _index_of(
        *_call_and_result("result_release", {"batch": "R-1"}, "HTTP/1.1 422 Unprocessable Entity"),
        *_call_and_result(
            "hl7_push",
            {"clinic": "Lakeside Cardiology"},
            "curl: (28) Operation timed out after 30001 milliseconds\nexit code: 28",
        ),
    )
    told = (
        "After a 422 on the first release the rest was released, and Lakeside Cardiology's "
        "lipid panel was pushed to their EHR."
    )
    found = kinds(check_summary(told, index))
    assert (DROPPED, "timeout:hl7_push") in found
    assert (CONTRADICTED, "succeeded") in found


def test_a_part_of_a_figure_is_said_to_be_derived() -> None:
    index = _index_of(
        *_call_and_result("invoice_get", {"invoice": "LK-11873"}, "total: 3.021,13 EUR")
    )
    told = "Of LK-11873 (3.021,13 EUR), the surgery accounts for 2.119,00 EUR."
    assert [f.kind for f in check_summary(told, index)] == [UNVERIFIED]


def test_stat_and_asap_are_rungs_of_a_priority() -> None:
    queue = (
        "ACCESSION     PRIORITY  STATUS\n"
        "26-342-04417  ASAP      in_process\n"
        "26-342-04502  STAT      resulted"
    )
    index = _index_of(*_call_and_result("accession_queue", {"bench": "chem"}, queue))
    assert kinds(check_summary("26-342-04417 (priority ASAP) is in process.", index)) == []
    assert kinds(check_summary("26-342-04417 (priority STAT) is in process.", index)) == [
        (CONTRADICTED, "priority=urgent")
    ]


# --------------------------------------------------------------------------- round 71


def test_a_failed_booking_told_booked_is_contradicted() -> None:
    index = _index_of(
        *_call_and_result(
            "exam_book", {"container": "MSKU 7304162", "slot": "13:00"}, "HTTP/1.1 409 Conflict"
        )
    )
    found = kinds(check_summary("The scan is booked for 13:00 today.", index))
    assert (CONTRADICTED, "succeeded") in found


def test_a_payment_that_went_through_before_is_not_the_one_that_failed() -> None:
    index = _index_of(
        *_call_and_result("reimburse_pay", {"payee": "Ana Ferreira"}, '{"status": "paid"}'),
        *_call_and_result(
            "reimburse_pay", {"payee": "Kenji Sato"}, "HTTP/1.1 500 Internal Server Error"
        ),
    )
    assert (CONTRADICTED, "succeeded") not in kinds(check_summary("Ana Ferreira is paid.", index))
    assert (CONTRADICTED, "succeeded") in kinds(check_summary("Kenji Sato is paid.", index))


def test_a_failed_notice_told_done_in_other_words_is_contradicted() -> None:
    failed = _call_and_result("pax_notify", {"flight": "OS 87"}, "HTTP 503 Service Unavailable")
    told = "OS 87 cancelled; its 186 passengers were texted about the rebooking."
    assert (CONTRADICTED, "succeeded") in kinds(check_summary(told, _index_of(*failed)))
    # another tool that mails went through: "emailed" may be what it did
    mailed = _call_and_result("send_email", {"to": "tenants@example.org"}, '{"ok": true}')
    index = _index_of(*mailed, *_call_and_result("generate_notice", {}, "HTTP/1.1 403 Forbidden"))
    assert (CONTRADICTED, "succeeded") not in kinds(
        check_summary("The tenants were emailed.", index)
    )


def test_a_write_done_again_or_e_mailed_is_told_done() -> None:
    post = _call_and_result("post_job", {"board": "techjobs"}, "HTTP/1.1 422 Unprocessable Entity")
    told = "The ad was reposted on techjobs."
    assert (CONTRADICTED, "succeeded") in kinds(check_summary(told, _index_of(*post)))
    mail = _call_and_result("email_send", {"to": "a@b.example"}, "error: recipient_suppressed")
    told = "Nordhafen has been e-mailed the full status."
    assert (CONTRADICTED, "succeeded") in kinds(check_summary(told, _index_of(*mail)))


def test_a_chat_channel_named_by_its_name_is_the_post() -> None:
    post = _call_and_result("slack_post", {"channel": "#kaldera-delivery"}, "error: is_archived")
    told = "Kaldera was updated in #kaldera-delivery."
    assert (CONTRADICTED, "succeeded") in kinds(check_summary(told, _index_of(*post)))


def test_a_write_told_done_beside_another_errors_trouble_is_contradicted() -> None:
    index = _index_of(
        *_call_and_result(
            "dispatch_vendor",
            {"vendor": "Rapid Rooter"},
            '{"ok": false, "error": "vendor_declined"}',
        ),
        *_call_and_result(
            "update_work_order",
            {"wo": "WO-88341", "status": "scheduled"},
            "HTTP/1.1 504 Gateway Timeout",
        ),
    )
    told = "Rapid Rooter declined, and WO-88341 is updated to scheduled."
    found = kinds(check_summary(told, index))
    assert (DROPPED, "timeout:update_work_order") in found
    assert (CONTRADICTED, "succeeded") in found
    # told after its own call got a 504: the retry went through
    told = "WO-88341 was updated after a 504 on the first try; Rapid Rooter declined."
    assert (CONTRADICTED, "succeeded") not in kinds(check_summary(told, index))


def test_a_failed_send_told_delivered_is_contradicted() -> None:
    sms = _call_and_result("portal_message_send", {"patient": "PT-4471"}, "error: carrier_timeout")
    told = "The SMS with the visit details was delivered to her phone."
    assert (CONTRADICTED, "succeeded") in kinds(check_summary(told, _index_of(*sms)))


def test_the_part_a_log_line_names_after_its_level_names_the_error() -> None:
    log = (
        "2026-12-02T23:40:00Z INFO modem: signal -97 dBm\n"
        "2026-12-02T23:47:12Z ERROR modem: PDP context lost (cause 36), link down"
    )
    index = _index_of(
        *_call_and_result("aq_station_diag", {"station": "AQ-03"}, log),
        *_call_and_result("met_forecast", {"site": "AQ-03"}, "Error: request timed out"),
        *_call_and_result("slack_post", {"channel": "#aq"}, "error: not_in_channel"),
    )
    told = (
        "Eastgate is offline (modem ERROR, UPS drained). The forecast call timed out and the "
        "Slack post failed."
    )
    assert kinds(check_summary(told, index)) == []


def test_the_state_of_a_code_word_tells_its_error() -> None:
    index = _index_of(
        *_call_and_result("condition_clear", {"condition": "C-121"}, "error: document_unsigned")
    )
    told = "C-118 cleared; C-121 not (unsigned gift letter)."
    assert all(kind != DROPPED for kind, _ in kinds(check_summary(told, index)))


def test_a_hash_inside_a_name_and_the_folder_of_a_file_are_in_the_originals() -> None:
    nodes = "NAME                               STATUS\nprod-euw1-general-7f3a9e21-x2kq    Ready"
    index = _index_of(*_call_and_result("kubectl", {"args": "get nodes"}, nodes))
    assert kinds(check_summary("The 7f3a9e21 node was drained.", index)) == []
    put = "sftp> put PROD003.zip /incoming/Harlow/PROD003.zip\nUploading done"
    index = _index_of(*_call_and_result("run_shell", {"command": "sftp"}, put))
    assert kinds(check_summary("PROD003 was delivered to /incoming/Harlow.", index)) == []


def test_a_number_with_a_decimal_point_is_the_originals_decimal_comma() -> None:
    quotes = (
        "SELLER            EUR/MWh   VALID\n"
        "Rhein Power AG    119,75    09:30 CET\n"
        "Baltic Trade A/S  120,40    09:45 CET"
    )
    index = _index_of(*_call_and_result("otc_quotes", {"product": "peak"}, quotes))
    assert kinds(check_summary("Rhein Power at 119.75 over Baltic at 120.40.", index)) == []
    found = [(f.kind, f.atom) for f in check_summary("Baltic quoted 121.40.", index)]
    assert found == [(UNSUPPORTED, "121.40")]
    # a share rounded to the places written is still the originals' ("1.9%" of 1.94%)
    index = _index_of(*_call_and_result("search", {"q": "churn"}, "churn rate: 1.94%"))
    assert kinds(check_summary("Churn so far is 1.9%.", index)) == []


# --------------------------------------------------------------------------- round 72


def test_a_failure_of_a_call_on_the_entity_is_not_contradicted_by_its_state() -> None:
    post = "curl -m 30 -X POST https://portal.example/api/v2/disputes/CB-88471/responses"
    index = _index_of(
        ("tool", "CASE      STATUS\nCB-88471  needs_response", "dispute_list"),
        *_call_and_result("run_shell", {"command": post}, "curl: (28) Operation timed out"),
        ("tool", "CASE      STATUS\nCB-88471  needs_response", "dispute_list"),
    )
    told = "CB-88471's evidence POST timed out (curl 28)."
    assert (CONTRADICTED, "failed") not in kinds(check_summary(told, index))
    # a case no call failed on: its state does contradict the failure
    listing = "CASE      STATUS\nCB-88417  needs_response"
    index = _index_of(
        ("tool", listing, "dispute_list"),
        *_call_and_result("run_shell", {"command": post}, "curl: (28) Operation timed out"),
    )
    assert (CONTRADICTED, "failed") in kinds(check_summary("CB-88417 timed out.", index))


def test_a_share_written_with_a_point_is_the_originals_decimal_comma() -> None:
    risk = "VaR 95 %: 413.000 EUR\nlimit: 500.000 EUR\nutilisation: 82,6 %\nband: AMBER"
    index = _index_of(*_call_and_result("risk_report", {"book": "power"}, risk))
    assert kinds(check_summary("VaR is AMBER at 82.6 %.", index)) == []
    found = [(f.kind, f.atom) for f in check_summary("VaR is AMBER at 86.2 %.", index)]
    assert found == [(UNSUPPORTED, "86.2 %")]


def test_an_option_the_sentence_names_owns_its_amount() -> None:
    """ "option A (... surcharge 385,00 EUR) was taken": the options table files the amount
    under option A's row; the sentence names that option, so the amount is not another's
    (the option not chosen) and not compared with the terminal's cash order."""
    case = _written("atmnetwork-01")
    assert (
        "option A (emergency run with AV-21 today 16:00-18:00, surcharge 385,00 EUR)"
        in (case["summary"])
    )
    assert "385,00 EUR" not in [f.atom for f in case_findings(case) if f.kind == CONTRADICTED]


def test_a_write_told_done_while_its_error_is_only_named_beside_another_is_dropped() -> None:
    index = _index_of(
        *_call_and_result(
            "preauth_submit", {"patient": "PT-4471"}, "HTTP/1.1 422 Unprocessable Entity"
        ),
        *_call_and_result(
            "hl7_push", {"clinic": "Lakeside Cardiology"}, "curl: (28) Operation timed out"
        ),
    )
    told = "The preauth push for PT-4471 got a 422. The lipid panel was pushed to the EHR."
    found = kinds(check_summary(told, index))
    assert (CONTRADICTED, "succeeded") in found
    assert (DROPPED, "timeout:hl7_push") in found
    # told with a word of its own kind of trouble, the clause tells it
    told = "The preauth push for PT-4471 got a 422 and the EHR push timed out."
    assert kinds(check_summary(told, index)) == []


def test_an_error_told_by_its_reading_or_by_nothing_done_is_mentioned() -> None:
    log = (
        "2026-12-02T05:58:00+01:00 INFO conductivity 4.1 uS/cm ok\n"
        "2026-12-02T06:02:09+01:00 ERROR endotoxin port B 0.31 EU/mL exceeds action level"
    )
    index = _index_of(*_call_and_result("water_test_log", {"plant": "RO-2"}, log))
    told = "RO-2: conductivity fine; port B endotoxin logged at 0.31 EU/mL."
    assert kinds(check_summary(told, index)) == []
    post = _call_and_result("slack_post", {"channel": "#aq-duty"}, "error: not_in_channel")
    told = "The bot is not a member of #aq-duty, so nothing was posted."
    assert kinds(check_summary(told, _index_of(*post))) == []


def test_an_invoice_is_named_by_its_bill() -> None:
    index = _index_of(
        *_call_and_result(
            "invoice_finalize", {"invoice": "INV-26-1187"}, "HTTP/1.1 422 Unprocessable Entity"
        )
    )
    told = "The bill can't be closed out until the missing dose is sorted."
    assert kinds(check_summary(told, index)) == []
    assert (DROPPED, "invalid:invoice_finalize") in kinds(
        check_summary("The bath is on the Great Dane's bill.", index)
    )


def test_the_file_a_curl_command_sends_is_in_the_originals() -> None:
    command = "curl -X POST https://portal.example/api/disputes -d @ce3_CB-88471.json"
    index = _index_of(*_call_and_result("run_shell", {"command": command}, '{"ok": true}'))
    assert kinds(check_summary("Sent ce3_CB-88471.json to the portal.", index)) == []
    assert kinds(check_summary("Sent ce3_CB-88417.json to the portal.", index)) == [
        (UNSUPPORTED, "ce3_CB-88417.json")
    ]


# --------------------------------------------------------------------------- round 73


def test_a_pending_task_tells_nothing_done() -> None:
    index = _index_of(
        *_call_and_result("dose_set", {"unit": "DP-QT3", "target": "0.50"}, "exit status 124")
    )
    told = (
        "Errors and fixes:\n- The copper change timed out.\n\n"
        "Pending Tasks:\n- Set the copper target on DP-QT3 by hand."
    )
    assert (CONTRADICTED, "succeeded") not in kinds(check_summary(told, index))


def test_a_write_told_ordered_but_its_call_timed_out_tells_the_timeout() -> None:
    """ "Option A ... was ordered but the call timed out": one clause, which tells the
    timeout; "ordered" is not told done."""
    case = _written("railfreight-18")
    assert "was ordered but the call timed out" in case["summary"]
    found = [(f.kind, f.atom) for f in case_findings(case)]
    assert (CONTRADICTED, "ordered") not in found
    assert all(kind != DROPPED for kind, _ in found)


def test_items_of_a_list_headed_by_trouble_tell_their_errors() -> None:
    index = _index_of(
        *_call_and_result("report_close", {"report": "PR-30455"}, "HTTP/1.1 409 Conflict"),
        *_call_and_result("slack_post", {"channel": "#soc"}, "error: channel_not_found"),
    )
    told = "Also failed: closing PR-30455 (409), and the Slack post."
    assert kinds(check_summary(told, index)) == []
    assert (DROPPED, "failed:slack_post") in kinds(
        check_summary("Closing PR-30455 failed (409), and the Slack post.", index)
    )


def test_a_percentage_change_between_two_numbers_works_out() -> None:
    index = evidence('{"order": "MO-1", "dose_before": "40 mg", "dose_after": "30 mg"}')
    assert kinds(check_summary("The dose went from 40 mg to 30 mg, a 25 % cut.", index)) == []
    # a change that does not work out is told as one: at most unverified
    found = kinds(check_summary("The dose went from 40 mg to 30 mg, a 35 % cut.", index))
    assert found == [(UNVERIFIED, "35")]


def test_a_mail_status_code_is_no_thing_the_send_was_for() -> None:
    """A mail error's "5.1.1" is a server's status code, not a thing the summary must
    name for a clause to tell the send done."""
    case = _written("clinicaltrials-21")
    found = [(f.kind, f.atom) for f in case_findings(case)]
    assert (CONTRADICTED, "informed") in found


def test_a_hyphenated_name_of_an_error_line_names_it_beside_trouble() -> None:
    """ "ICON-EU step +36 (CRC ERROR)" tells the log's "ERROR icon-eu 00Z: step +36 ...
    failed CRC check" by its name and a word of trouble."""
    case = _written("meteorology-10")
    assert "ICON-EU step +36 (CRC ERROR)" in case["summary"]
    assert all(f.kind != DROPPED for f in case_findings(case))


# --------------------------------------------------------------------------- round 74


def test_a_level_line_with_no_digit_is_a_fact_of_its_record() -> None:
    """ "severity: MAJOR" among a record's ``key: value`` lines is its level, though the
    line holds no digit."""
    index = evidence("incident: INC-26-0347\ncategory: hard landing\nseverity: MAJOR\nstate: draft")
    found = check_summary("INC-26-0347 (severity MINOR) could not be submitted.", index)
    assert [(f.kind, f.expected) for f in found] == [(CONTRADICTED, "MAJOR")]
    assert check_summary("INC-26-0347 (severity MAJOR) is a draft.", index) == []


def test_a_table_whose_header_names_a_column_with_a_number_is_read_as_one() -> None:
    """A header with "ICD-10" in it is a header: each row's priority is its claim's."""
    table = (
        "CLAIM_ID         PAYER   ICD-10   BILLED     STATUS  PRIORITY\n"
        "CLM-2026-118402  Aetna   G43.909  $2,340.00  DENIED  HIGH\n"
        "CLM-2026-118377  UHC     M54.16   $1,180.00  DENIED  MEDIUM\n"
    )
    found = check_summary("CLM-2026-118377 (UHC, HIGH priority) was denied.", evidence(table))
    assert [(f.kind, f.entity, f.expected) for f in found] == [
        (CONTRADICTED, "CLM-2026-118377", "MEDIUM")
    ]
    # a row of names and words stays a row ("db-ro  LOW  8h" is no header)
    rows = "db-readonly-prod  rds/prod-orders  LOW  8h  auto\nrevoke sessions  Okta  done\n"
    assert check_summary("db-readonly-prod is HIGH risk.", evidence(rows)) == []


def test_a_json_body_under_a_status_line_gives_its_object_a_level() -> None:
    body = (
        "HTTP/1.1 201 Created\nContent-Type: application/json\n\n"
        '{"incident": "INC-26-0318", "severity": "MODERATE", "state": "open"}'
    )
    index = evidence(body)
    found = check_summary("The scuffle is filed as INC-26-0318 with severity HIGH.", index)
    assert [(f.kind, f.expected) for f in found] == [(CONTRADICTED, "MODERATE")]
    # its statuses are not read: a body's status is often of the call or another record
    assert check_summary("INC-26-0318 is closed.", index) == []


def test_a_level_set_off_after_an_entity_is_that_entitys() -> None:
    index = evidence(
        "CASE          ANIMAL   PRIORITY  STATUS\nVET-26-3381   QT-4417  P1        open\n"
    )
    found = check_summary("QT-4417's tangs are on vet case VET-26-3381, priority P2.", index)
    assert [(f.kind, f.entity, f.expected) for f in found] == [(CONTRADICTED, "VET-26-3381", "P1")]
    # a bracket's list names what it is about, not a priority of its last item
    codes = evidence("CODE   PRIORITY\nCO-50  LOW\n")
    assert check_summary("CLM-1 (UHC, CO-50, HIGH priority) was refused.", codes) == []


def test_a_retry_is_no_word_of_another_errors_failure() -> None:
    """ "published on the second try after a 503" tells the 503, not the SMS broadcast's
    failure: the broadcast told as gone out is contradicted and dropped."""
    index = _index_of(
        *_call_and_result("warning_publish", {"warning": "VK-WRN-0412"}, "HTTP/1.1 503"),
        *_call_and_result("warning_publish", {"warning": "VK-WRN-0412"}, '{"status": "ok"}'),
        *_call_and_result(
            "sms_broadcast", {"warning": "VK-WRN-0412"}, "error: insufficient_credit"
        ),
    )
    told = (
        "VK-WRN-0412 published on the second try after a 503, and the SMS broadcast "
        "went out to the coast list."
    )
    found = kinds(check_summary(told, index))
    assert (CONTRADICTED, "succeeded") in found
    assert (DROPPED, "failed:sms_broadcast") in found
    assert check_summary(told.replace("went out", "failed (insufficient credit)"), index) == []


@pytest.mark.parametrize(
    ("case_id", "said"), [("organtransplant-08", "12:45"), ("autorepair-08", "222,90 EUR")]
)
def test_a_clause_of_what_would_have_happened_contradicts_nothing(case_id: str, said: str) -> None:
    """ "FQ-7713 would have landed 75 min later, at 12:45", "option A's parts would have
    landed 8 days later ... 222,90 EUR": what did not happen (the option not taken, as the
    summary works it out) is no claim the originals' values contradict."""
    case = _written(case_id)
    assert "would have" in case["summary"]
    found = [(f.kind, f.atom) for f in case_findings(case)]
    assert (CONTRADICTED, said) not in found


def test_standard_is_the_middle_rung_of_a_priority() -> None:
    index = evidence("JOB      PRIORITY  STAGE\nJB-4417  RUSH      pressing\n")
    found = check_summary("Salt Flats (JB-4417) is a STANDARD-priority job.", index)
    assert [(f.kind, f.expected) for f in found] == [(CONTRADICTED, "RUSH")]


def test_a_pended_claim_is_waiting() -> None:
    index = evidence("CLAIM_ID         PAYER  STATUS\nCLM-2026-118391  Cigna  PENDED\n")
    found = check_summary("CLM-2026-118391 is paid.", index)
    assert [(f.kind, f.expected) for f in found] == [(CONTRADICTED, "PENDED")]


def test_a_shell_command_is_told_done_by_what_its_url_acts_on() -> None:
    """A ``curl -X POST .../api/v1/advices`` that timed out is told done by "the cash
    advice was sent"; the command's program and subcommand tell it by their verb
    ("exported" of ``wmap export``)."""
    curl = "curl -sS -m 20 -X POST https://cashadvice.example/api/v1/advices -d @advice.json"
    index = _index_of(
        *_call_and_result(
            "run_shell",
            {"command": curl},
            "curl: (28) Operation timed out after 20001 milliseconds with 0 bytes received",
        )
    )
    found = kinds(check_summary("The USD cash advice was sent to the bank.", index))
    assert (CONTRADICTED, "succeeded") in found
    assert (DROPPED, "timeout:run_shell") in found
    export = _index_of(
        *_call_and_result(
            "run_shell",
            {"command": "wmap export --lot K3-24802.1 --dest /share/K3"},
            "ERROR W07 map truncated at 1.1 MB; skipped\nexit code 1",
        )
    )
    found = kinds(check_summary("All 13 wafer maps of K3-24802.1 were exported.", export))
    assert (CONTRADICTED, "succeeded") in found


# --------------------------------------------------------------------------- round 75


def test_sev_names_a_severity_column_of_words() -> None:
    table = (
        "ALARM       SEV     SOURCE  RAISED            STATE\n"
        "AL-26-7714  HIGH    BR-B    2026-12-12 06:58  active\n"
        "AL-26-7741  LOW     BR-A    2026-12-12 05:12  acknowledged\n"
    )
    found = check_summary("Alarm AL-26-7714 was raised at severity LOW.", evidence(table))
    assert [(f.kind, f.entity, f.expected) for f in found] == [(CONTRADICTED, "AL-26-7714", "HIGH")]


def test_a_state_a_failed_call_asked_for_is_not_reached() -> None:
    """ "NCR-4471 is now closed" of an ``ncr_update`` that asked to close it and got a 403:
    contradicted by that error, and the error dropped; "was to be closed" is no claim."""
    index = _index_of(
        *_call_and_result(
            "ncr_update", {"ncr": "NCR-4471", "status": "closed"}, "HTTP/1.1 403 Forbidden"
        )
    )
    # the agent's own recap after it: by itself, weak evidence of the state
    recap = (
        "The export logged an ERROR for the torque trip, the upload timed out, and the "
        "update of NCR-4471 for the lipping on R-1415 failed, so the review goes on tomorrow."
    )
    index.add(EvidenceRef("f1:2"), index_message(recap, role="assistant"))
    found = check_summary("NCR-4471 is now closed.", index)
    assert [(f.kind, f.expected) for f in found if f.kind != DROPPED] == [
        (CONTRADICTED, "HTTP/1.1 403 Forbidden")
    ]
    assert (DROPPED, "denied:ncr_update") in kinds(found)
    told = "Closing NCR-4471 was refused with a 403; it is still open."
    assert all(f.kind != CONTRADICTED for f in check_summary(told, index))


def test_an_entity_with_a_verb_of_its_own_opens_the_next_item() -> None:
    """ "its shift ends at 07:00, RC-21 is on_job": 07:00 is not RC-21's."""
    crews = (
        "CREW   SIZE  STATUS     SHIFT END\nRC-14  4     available  07:00\n"
        "RC-21  3     on_job     14:00\n"
    )
    told = "RC-14 was available too, but its shift ends at 07:00, RC-21 is on_job at Parnell St."
    assert all(f.kind != CONTRADICTED for f in check_summary(told, evidence(crews)))
