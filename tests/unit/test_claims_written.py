"""The labelled corpus's written families (tools/claims_corpus/written): the set loads, is
valid, broad and balanced, in domains no other family has; each case is a checkpoint
foldctl opens; both ways of checking a case are counted into the corpus's tally, every
planted error once.  Their score has no threshold yet: it is far below the corpus's
(docs/claims.md keeps their score before any change and after each round), so the one
test that asks for the corpus's thresholds on them is expected to fail."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import foldctl
from tools import claims_score
from tools.claims_corpus import FAMILIES, KINDS, PRECISION, RECALL, Tally, score_table
from tools.claims_corpus.written import (
    HERE,
    Family,
    HeldoutError,
    cases,
    direct_findings,
    load_families,
    planted,
    tally_into,
)
from tools.claims_corpus.written import __main__ as written_main
from tools.claims_corpus.written.__main__ import main
from tools.claims_heldout import HERE as HELDOUT
from tools.claims_heldout import PLANTED, QUIET, case_checkpoint, case_findings

SECTIONS = (
    "Primary Request and Intent",
    "Key Technical Concepts",
    "Files and Code Sections",
    "Errors and fixes",
    "Pending Tasks",
    "Current Work",
)


@pytest.fixture(scope="module")
def families() -> list[Family]:
    return load_families()


@pytest.fixture(scope="module")
def end_to_end(families: list[Family]) -> Tally:
    return tally_into(Tally(), families, case_findings)


def test_the_written_families_are_broad_and_balanced(families: list[Family]) -> None:
    per_family = {f.name: sum(map(planted, f.cases), Counter[str]()) for f in families}
    total = sum(per_family.values(), Counter[str]())
    quiet = [case for _, case in cases(families) if case["variant"] in QUIET]
    assert len(families) >= 10 and all(len(f.cases) >= 15 for f in families)
    assert all(total[kind] >= 30 for kind in KINDS), total
    assert len(quiet) >= total.total()  # at least as many quiet cases as planted errors
    for family in families:
        variants = {case["variant"] for case in family.cases}
        assert set(QUIET) <= variants and len(variants & PLANTED) >= 6, family.name
        assert {"dropped-error", "false-success", "invented", "nested-invented"} <= variants
        assert all(per_family[family.name][kind] >= 3 for kind in KINDS), family.name
        assert sum(1 for case in family.cases if case["derived"]) >= 2, family.name
        long = [case for case in family.cases if all(s in case["summary"] for s in SECTIONS)]
        assert long, f"{family.name}: no summary in the long sectioned shape"


def test_their_domains_are_none_of_the_other_families(families: list[Family]) -> None:
    names = {family.name for family in families}
    assert not names & set(FAMILIES)
    assert not names & {path.stem for path in HELDOUT.glob("*.json")}
    ids = [case["id"] for _, case in cases(families)]
    assert len(ids) == len(set(ids))


def test_the_readme_names_every_family(families: list[Family]) -> None:
    readme = (HERE / "README.md").read_text(encoding="utf-8")
    assert all(f"| `{family.name}` |" in readme for family in families)


def test_every_case_is_a_checkpoint_foldctl_opens_and_joins(families: list[Family]) -> None:
    """Its originals are the expanded transcript, in order; a nested case's inner ones first."""
    for _, case in cases(families):
        conversation = foldctl.open(case_checkpoint(case))
        spans = 1 if case["inner"] is None else 2
        assert [p.placement for p in conversation.places] == ["placed"] * spans, case["id"]
        assert [r.message for r in conversation.walk()][:-1] == case["messages"], case["id"]


# --------------------------------------------------------------------------- the folder


def _family(name: str = "tiny") -> dict[str, Any]:
    """A lookup of A-1 that fails with HTTP 503, summarised with an invented ticket and
    without the failure."""
    story = [
        {"role": "user", "content": "Look up A-1."},
        {"role": "assistant", "content": "", "toolCalls": [{"id": "c1", "name": "lookup",
                                                            "args": {"id": "A-1"}}]},
        {"role": "tool", "content": "HTTP 503", "toolCallId": "c1", "toolName": "lookup"},
    ]  # fmt: skip
    expected = [{"kind": "unsupported", "text": "ZQ-40417"}, {"kind": "dropped", "tool": "lookup"}]
    case = {"id": f"{name}-01", "variant": "invented", "messages": "main", "expected": expected,
            "summary": "Looked up A-1 for ticket ZQ-40417."}  # fmt: skip
    return {"family": name, "title": "A tiny family", "about": "one lookup that fails",
            "stories": {"main": story}, "cases": [case]}  # fmt: skip


def _write(directory: Path, doc: dict[str, Any]) -> None:
    (directory / f"{doc['family']}.json").write_text(json.dumps(doc), encoding="utf-8")


def test_a_family_named_like_a_generated_one_is_refused(tmp_path: Path) -> None:
    _write(tmp_path, _family("support"))
    with pytest.raises(HeldoutError) as e:
        load_families(tmp_path)
    assert str(e.value) == (
        f"{tmp_path / 'support.json'}: $.family: 'support' is a generated family's name; "
        "expected a name of its own"
    )


def test_a_broken_family_is_refused_by_the_held_out_sets_validator(tmp_path: Path) -> None:
    doc = _family()
    doc["cases"][0]["expected"][0]["text"] = "ZQ-99999"
    _write(tmp_path, doc)
    with pytest.raises(HeldoutError, match=r"tiny\.json: \$\.cases\[0\]\.expected\[0\]\.text"):
        load_families(tmp_path)


@pytest.mark.parametrize("how", ["direct", "end to end"])
def test_both_ways_of_checking_count_a_case_into_the_tally(tmp_path: Path, how: str) -> None:
    """An invented ticket and an unmentioned HTTP 503: found directly and end to end, each
    placed on its label, counted under the family's name like a generated family's case."""
    _write(tmp_path, _family())
    found = direct_findings if how == "direct" else case_findings
    counted = tally_into(Tally(), load_families(tmp_path), found)
    assert [(k, s.tp, s.fn) for k, s in counted.families["tiny"].items()] == [
        ("unsupported", 1, 0),
        ("contradicted", 0, 0),
        ("dropped", 1, 0),
    ]
    assert counted.cases == Counter({"tiny": 1})
    assert counted.faithful == 0 and counted.misses == []


def test_a_quiet_case_with_a_finding_is_flagged(tmp_path: Path) -> None:
    doc = _family()
    doc["cases"][0].update(variant="faithful", expected=[])
    _write(tmp_path, doc)
    counted = tally_into(Tally(), load_families(tmp_path), direct_findings)
    assert counted.faithful == 1 and counted.faithful_flagged == ["tiny-01"]
    assert {(m.kind, m.finding[0]) for m in counted.misses} == {
        ("fp", "unsupported"),
        ("fp", "dropped"),
    }


# --------------------------------------------------------------------------- the score


def test_the_tally_accounts_for_every_planted_error(
    families: list[Family], end_to_end: Tally
) -> None:
    kinds = Counter[str]()
    for _, case in cases(families):
        kinds += planted(case)
    for kind in KINDS:
        assert end_to_end.kinds[kind].tp + end_to_end.kinds[kind].fn == kinds[kind], kind
    assert end_to_end.cases == Counter({f.name: len(f.cases) for f in families})
    assert end_to_end.faithful == sum(1 for _, case in cases(families) if not case["expected"])


@pytest.mark.xfail(
    strict=True,
    reason="the written families are far from the thresholds (docs/claims.md keeps their "
    "score before any change and after each round on the study and blind halves)",
)
def test_the_written_families_meet_the_corpus_thresholds(end_to_end: Tally) -> None:
    low = [
        kind for kind, s in end_to_end.kinds.items() if s.precision < PRECISION or s.recall < RECALL
    ]
    assert not low, score_table(end_to_end.kinds)
    assert end_to_end.faithful_flagged == []


def test_the_command_scores_the_written_families_alone(
    families: list[Family], capsys: pytest.CaptureFixture[str]
) -> None:
    main([])
    out = capsys.readouterr().out
    assert out.startswith(f"{len(cases(families))} cases, {len(families)} families (")
    lines = out.splitlines()
    assert any(line.split()[:1] == ["unsupported"] for line in lines)
    for family in families:
        assert any(line.split()[:2] == [family.name, str(len(family.cases))] for line in lines)


def test_a_broken_written_family_is_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both commands that read the folder refuse a broken family with one line naming the
    file and the JSON path, and exit status 2, before scoring anything."""
    doc = _family()
    doc["cases"][0]["variant"] = "wrong-colour"
    _write(tmp_path, doc)
    where = f"{tmp_path / 'tiny.json'}: $.cases[0].variant: expected one of"
    monkeypatch.setattr(written_main, "HERE", tmp_path)
    with pytest.raises(SystemExit) as e:
        main([])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert (
        err.startswith(f"python -m tools.claims_corpus.written: {where}") and err.count("\n") == 1
    )
    monkeypatch.setattr(claims_score, "written_families", lambda: load_families(tmp_path))
    assert claims_score.main(["--seeds", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"claims_score: {where}") and err.count("\n") == 1


def test_the_split_scores_a_study_half_and_a_blind_half_without_naming_blind_cases(
    families: list[Family], capsys: pytest.CaptureFixture[str]
) -> None:
    """Every written family is in one half (docs/claims.md, "The written families split");
    --study prints the study half's false alarms, never a case of the blind half."""
    from tools.claims_corpus import split

    named = [f.name for half in split.halves(families).values() for f in half]
    assert sorted(named) == sorted(f.name for f in families)  # each in exactly one half
    split.main(["--study"])
    out = capsys.readouterr().out
    assert all(f"{label}:" in out for label in split.HALVES)
    cases_named = {line.split()[1] for line in out.splitlines() if line[:3] in ("FP ", "FN ")}
    assert cases_named and all(c.split("-")[0] in split.STUDY for c in cases_named)


def test_the_ledger_counts_each_false_alarm_of_a_half_once(families: list[Family]) -> None:
    """--by-atom's totals are the halves' false alarms, by kind and atom kind: what the
    score of a half calls false, and nothing else; the table names no case."""
    from tools.claims_corpus import split

    chosen = [f for f in families if f.name in ("dnsops", "qclab")]
    scores, _ = split.score_half(chosen)
    counted = split.ledger(chosen)
    for kind in KINDS:
        false = sum(row[1] for (k, _), row in counted.items() if k == kind)
        assert false == scores[kind].fp
    table = split.ledger_table(counted, {})
    assert table.splitlines()[0].split() == [
        "kind",
        "atom",
        "kind",
        "study",
        "halves",
        "blind",
        "halves",
    ]
    assert not any(case["id"] in table for f in chosen for case in f.cases)
