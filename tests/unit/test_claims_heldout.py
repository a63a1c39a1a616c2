"""The held-out families of the claims check (tools/claims_heldout): the set loads and is
valid, broad and balanced; every case is a checkpoint foldctl opens and joins; the scorer
matches findings by kind and place.  No threshold on the score: the set measures the
check, it does not gate it."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import foldctl
from tools.claims_heldout import (
    HERE,
    KINDS,
    PLANTED,
    QUIET,
    Family,
    Found,
    HeldoutError,
    case_checkpoint,
    cases,
    load_families,
    match_case,
    planted,
    score,
)
from tools.claims_heldout.__main__ import main

SECTIONS = ("Primary Request and Intent", "Errors and fixes", "Pending Tasks", "Current Work")


@pytest.fixture(scope="module")
def families() -> list[Family]:
    return load_families()


def test_the_set_is_broad_and_balanced(families: list[Family]) -> None:
    every = cases(families)
    assert len(families) >= 8
    assert len(every) >= 100
    assert all(len(family.cases) >= 12 for family in families)
    kinds = Counter[str]()
    for _, case in every:
        kinds += planted(case)
    assert all(kinds[kind] >= 25 for kind in KINDS), kinds
    quiet = [case for _, case in every if case["variant"] in QUIET]
    assert len(quiet) >= sum(kinds.values())  # at least as many quiet cases as planted errors
    for family in families:
        variants = {case["variant"] for case in family.cases}
        assert {"faithful", "trap", "nested-faithful"} <= variants, family.name
        assert variants & PLANTED, family.name
        assert any(case["derived"] for case in family.cases), family.name
        assert any(all(s in case["summary"] for s in SECTIONS) for case in family.cases), (
            f"{family.name}: no summary in the long sectioned shape"
        )


def test_the_readme_names_every_family(families: list[Family]) -> None:
    readme = (HERE / "README.md").read_text(encoding="utf-8")
    assert all(f"| `{family.name}` |" in readme for family in families)


def test_every_label_points_into_its_summary(families: list[Family]) -> None:
    for _, case in cases(families):
        tools = {m["toolName"] for m in case["messages"] if m["role"] == "tool"}
        for e in case["expected"]:
            if e["kind"] == "dropped":
                assert e["tool"] in tools, case["id"]
            else:
                assert case["summary"].count(e["text"]) == 1, case["id"]
        assert all(case["summary"].count(text) == 1 for text in case["derived"]), case["id"]


def test_every_case_is_a_checkpoint_foldctl_opens_and_joins(families: list[Family]) -> None:
    for _, case in cases(families):
        conversation = foldctl.open(case_checkpoint(case))
        nested = case["inner"] is not None
        assert len(conversation.spans) == (2 if nested else 1), case["id"]
        assert [p.placement for p in conversation.places] == ["placed"] * len(conversation.spans)
        assert conversation.history[0]["content"].endswith("\n\n" + case["summary"])
        # the expanded transcript is the case's messages, in order, then the live reply
        rows = list(conversation.walk())
        assert [r.message for r in rows[:-1]] == case["messages"], case["id"]
        depths = [r.depth for r in rows[:-1]]
        count = case["inner"]["count"] if nested else 0
        assert depths == [2] * count + [1] * (len(case["messages"]) - count), case["id"]


# --------------------------------------------------------------------------- validation


def _family() -> dict[str, Any]:
    call = {"id": "c1", "name": "lookup", "args": {"id": "A-1"}}
    return {
        "family": "tiny",
        "title": "A tiny family",
        "about": "one lookup that fails",
        "stories": {
            "main": [
                {"role": "user", "content": "Look up A-1."},
                {"role": "assistant", "content": "", "toolCalls": [call]},
                {"role": "tool", "content": "HTTP 503", "toolCallId": "c1", "toolName": "lookup"},
            ]
        },
        "cases": [
            {
                "id": "tiny-01",
                "variant": "dropped-error",
                "summary": "Looked up A-1.",
                "messages": "main",
                "inner": None,
                "expected": [{"kind": "dropped", "tool": "lookup"}],
                "derived": [],
            },
            {
                "id": "tiny-02",
                "variant": "faithful",
                "summary": "The lookup of A-1 failed with HTTP 503.",
                "messages": "main",
                "inner": None,
                "expected": [],
                "derived": [],
            },
        ],
    }


def _write(directory: Path, doc: dict[str, Any]) -> None:
    (directory / f"{doc['family']}.json").write_text(json.dumps(doc), encoding="utf-8")


def test_a_valid_family_loads_with_its_story_resolved(tmp_path: Path) -> None:
    _write(tmp_path, _family())
    [family] = load_families(tmp_path)
    assert family.name == "tiny"
    assert family.cases[0]["messages"][2]["content"] == "HTTP 503"
    assert family.cases[0]["expected"] == [{"kind": "dropped", "tool": "lookup", "accept": []}]


BROKEN = [
    (
        lambda d: d["cases"][1].update(variant="invented"),
        "$.cases[1].expected: a invented case plants at least one error",
    ),
    (
        lambda d: d["cases"][0]["expected"].append({"kind": "unsupported", "text": "A-2"}),
        "$.cases[0].expected[1].text: 'A-2' is not in the summary; expected exactly once",
    ),
    (
        lambda d: d["cases"][0]["expected"].__setitem__(0, {"kind": "dropped", "tool": "lookp"}),
        "$.cases[0].expected[0].tool: no tool result of 'lookp' in the messages",
    ),
    (
        lambda d: d["cases"][1].update(derived=["503", "A-2"]),
        "$.cases[1].derived[1]: 'A-2' is not in the summary; expected exactly once",
    ),
    (
        lambda d: d["cases"][0]["expected"].append({"kind": "contradicted", "text": "o"}),
        "$.cases[0].expected[1].text: 'o' is 2 times in the summary; expected exactly once",
    ),
    (
        lambda d: d["cases"][1].update(id="tiny-01"),
        "$.cases[1].id: 'tiny-01' is used twice",
    ),
    (
        lambda d: d["cases"][1].update(expect=[]),
        "$.cases[1].expect: unknown key",
    ),
    (
        lambda d: d["cases"][1].update(messages="other"),
        "$.cases[1].messages: no story named 'other' in $.stories",
    ),
    (
        lambda d: d["cases"][1].update(inner={"summary": "Asked.", "count": 2}),
        "$.cases[1].inner.count: the fold separates message 2, a tool result, from its call",
    ),
    (
        lambda d: d["stories"]["main"][2].update(toolCallId="c9"),
        "$.stories.main[2].toolCallId: 'c9' answers no earlier unanswered call of 'lookup'",
    ),
    (
        lambda d: d["cases"][0]["expected"][0].update(accept=["dropped"]),
        "$.cases[0].expected[0].accept: expected an array of the other kinds",
    ),
]


@pytest.mark.parametrize(("breaks", "message"), BROKEN)
def test_a_broken_family_is_refused_naming_the_file_and_the_place(
    tmp_path: Path, breaks: Any, message: str
) -> None:
    doc = _family()
    breaks(doc)
    _write(tmp_path, doc)
    with pytest.raises(HeldoutError) as e:
        load_families(tmp_path)
    text = str(e.value)
    assert text.startswith(f"{tmp_path / 'tiny.json'}: ")
    assert message in text
    assert "\n" not in text


def test_a_case_id_used_by_two_families_is_refused(tmp_path: Path) -> None:
    _write(tmp_path, _family())
    other = _family()
    other["family"] = "tiny2"
    other["cases"][1]["id"] = "tiny2-02"
    other["cases"][0]["id"] = "tiny2-01"
    _write(tmp_path, other)
    assert len(load_families(tmp_path)) == 2
    other["cases"][1]["id"] = "tiny-01"
    _write(tmp_path, other)
    with pytest.raises(HeldoutError, match=r"tiny2\.json: \$\.cases\[1\]\.id: expected an id"):
        load_families(tmp_path)


def test_a_file_that_is_not_json_is_refused(tmp_path: Path) -> None:
    (tmp_path / "tiny.json").write_text("{", encoding="utf-8")
    with pytest.raises(HeldoutError, match=r"tiny\.json: cannot be read as JSON"):
        load_families(tmp_path)


# --------------------------------------------------------------------------- matching


CASE: dict[str, Any] = {
    "id": "t-1",
    "summary": "Refund RF-1 of $12.50 is complete; total $43.68.",
    "expected": [
        {"kind": "contradicted", "text": "is complete", "accept": []},
        {"kind": "contradicted", "text": "$12.50", "accept": ["unsupported"]},
        {"kind": "dropped", "tool": "send_sms", "accept": []},
    ],
    "derived": ["$43.68"],
}


def _at(kind: str, text: str, **extra: Any) -> Found:
    start = CASE["summary"].index(text)
    return Found(kind, start, start + len(text), text, **extra)


def test_a_finding_matches_by_kind_and_overlapping_place() -> None:
    found = [
        _at("contradicted", "complete"),  # inside "is complete"
        _at("contradicted", "is"),  # the same error again: counted once, not a false positive
        _at("unsupported", "$12.50"),  # an accepted kind
        Found("dropped", None, None, "HTTP 503", tool="send_sms"),
    ]
    scores, misses = match_case(CASE, found)
    assert [(k, s.tp, s.fp, s.fn) for k, s in scores.items()] == [
        ("unsupported", 0, 0, 0),
        ("contradicted", 2, 0, 0),
        ("dropped", 1, 0, 0),
    ]
    assert misses == []


def test_a_finding_elsewhere_or_of_another_kind_is_a_false_positive() -> None:
    found = [
        _at("unsupported", "complete"),  # right place, wrong kind
        _at("contradicted", "RF-1"),  # right kind, wrong place
        _at("contradicted", "$43.68"),  # on a correct derived value
        Found("dropped", None, None, "HTTP 409", tool="book"),  # another tool
        Found("unverifiable", None, None, "Refund"),  # not a scored kind
    ]
    scores, misses = match_case(CASE, found, "fam")
    assert [(k, s.tp, s.fp, s.fn) for k, s in scores.items()] == [
        ("unsupported", 0, 1, 0),
        ("contradicted", 0, 2, 2),
        ("dropped", 0, 1, 1),
    ]
    assert sorted((m.what, m.kind, m.text) for m in misses) == [
        ("derived", "contradicted", "$43.68"),
        ("fn", "contradicted", "$12.50"),
        ("fn", "contradicted", "is complete"),
        ("fn", "dropped", "send_sms"),
        ("fp", "contradicted", "RF-1"),
        ("fp", "dropped", "HTTP 409"),
        ("fp", "unsupported", "complete"),
    ]
    assert all(m.family == "fam" and m.case == "t-1" for m in misses)


# --------------------------------------------------------------------------- the score


def test_the_score_accounts_for_every_planted_error(families: list[Family]) -> None:
    result = score(families)
    assert result.cases == len(cases(families))
    kinds = Counter[str]()
    for _, case in cases(families):
        kinds += planted(case)
    for kind in KINDS:
        s = result.scores[kind]
        assert s.tp + s.fn == kinds[kind], kind
        assert 0.0 <= s.precision <= 1.0 and 0.0 <= s.recall <= 1.0
        assert sum(f[kind].tp + f[kind].fn for f in result.families.values()) == kinds[kind]
    wrong = sum(s.fp + s.fn for s in result.scores.values())
    assert len(result.misses) == wrong


def test_the_command_prints_the_table_per_kind_and_per_family(
    families: list[Family], capsys: pytest.CaptureFixture[str]
) -> None:
    main(["--misses"])
    out = capsys.readouterr().out
    assert out.startswith(f"{len(cases(families))} cases, {len(families)} families (")
    lines = out.splitlines()
    header = lines.index(
        f"{'kind':14} {'tp':>5} {'fp':>5} {'fn':>5} {'precision':>10} {'recall':>8}"
    )
    assert [line.split()[0] for line in lines[header + 1 : header + 4]] == list(KINDS)
    for family in families:
        assert any(line.split()[:2] == [family.name, str(len(family.cases))] for line in lines)
    assert any(line.startswith(("FN ", "FP ", "DERIVED ")) for line in lines)


def test_the_checkpoints_do_not_change_the_set(families: list[Family]) -> None:
    """Building a checkpoint leaves the case as it was (the set is data, read-only)."""
    case = families[0].cases[-1]
    before = copy.deepcopy(case)
    case_checkpoint(case)
    assert case == before
