"""``claims``: every summary checked against the originals it replaced, on real checkpoints."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson

from tests.support import SAMPLES, jsonl, run_cli
from tests.support.builders import T0, call, clean, frame, result, span, user

NESTED = str(SAMPLES / "nested_chain.json")


def test_the_demo_false_approval_is_contradicted_with_the_refund_result_as_evidence() -> None:
    result = run_cli("claims", NESTED, "-f", "jsonl")
    assert result.exit_code == 1
    rows = jsonl(result.stdout)
    refund = [r for r in rows if r["kind"] == "contradicted" and r["entity"] == "RF-9120"]
    assert refund, rows
    first = refund[0]
    assert (first["atom"], first["expected"], first["frame"]) == (
        "approved",
        "pending_approval",
        "f6:0",
    )
    [evidence] = first["evidence"]
    expanded = jsonl(run_cli("expand", NESTED, "-f", "jsonl").stdout)
    original = next(o for o in expanded if o["locator"] == evidence["locator"])
    assert original["toolName"] == "issue_refund" and "pending_approval" in original["content"]
    assert evidence["digest"] == original["digest"]
    assert first["originalLine"] == "status: pending_approval"
    # nothing false on the demo's faithful summaries: only the approval claims are findings
    assert {(r["kind"], r["atom"]) for r in rows} == {("contradicted", "approved")}


def test_text_marks_the_atom_and_quotes_the_original() -> None:
    out = run_cli("claims", NESTED).stdout
    assert "issued and [[approved]];" in out
    assert "originals: pending_approval" in out and "evidence: f5:2" in out
    assert out.rstrip().endswith("0 summary(ies) unverifiable")


def test_discarded_and_forged_summaries_are_unverifiable_not_wrong() -> None:
    for name in ("one_fold_discard.json", "forged_frame.json"):
        result = run_cli("claims", str(SAMPLES / name), "-f", "json")
        rows = json.loads(result.stdout)
        assert rows and {r["kind"] for r in rows} == {"unverifiable"}, name
        assert result.exit_code == 0


def test_many_sources_and_a_directory(tmp_path: Path) -> None:
    (tmp_path / "broken.json").write_text("{")
    result = run_cli("claims", str(SAMPLES), str(tmp_path / "broken.json"), "-f", "jsonl")
    assert result.exit_code == 2
    assert result.stderr.count("foldctl: error:") == 1 and "broken.json" in result.stderr
    sources = {r["source"] for r in jsonl(result.stdout)}
    assert any(s.endswith("nested_chain.json") for s in sources)


def test_show_counts_claims_and_report_marks_them(tmp_path: Path) -> None:
    shown = json.loads(run_cli("show", NESTED, "--claims", "-f", "json").stdout)["findings"]
    assert shown["claims"] is True and shown["codes"] == {"claim-contradicted": 2}
    page = tmp_path / "r.html"
    run_cli("report", NESTED, "-o", str(page))
    html = page.read_text("utf-8")
    assert html.count("claim-contradicted") >= 4  # the findings table and the two summaries
    assert 'href="#m-f5-2"' in html  # the original it cites is linked


def test_show_with_claims_lists_the_false_approval_one_line_per_finding() -> None:
    """Each finding that a summary is wrong, one line: its locator, kind, atom, what the
    originals say; --no-claims (and the default, CLAIMS_BY_DEFAULT off) lists none."""
    out = run_cli("show", NESTED, "--claims").stdout
    listed = [line.strip() for line in out.splitlines() if line.lstrip().startswith("claim ")]
    assert listed == [
        'claim  f6:0 contradicted status "approved" (originals: "pending_approval")',
        'claim  h1 contradicted status "approved" (originals: "pending_approval")',
    ]
    for args in (("--no-claims",), ()):
        plain = run_cli("show", NESTED, *args).stdout
        assert "contradicted" not in plain and "findings        none" in plain
    shown = json.loads(run_cli("show", NESTED, "--claims", "-f", "json").stdout)["findings"]
    assert shown["claimLines"] == [line.removeprefix("claim  ") for line in listed]


def test_verify_checks_claims_only_when_asked() -> None:
    assert run_cli("verify", NESTED, "--claims").exit_code == 1  # the false approval
    assert run_cli("verify", NESTED, "--no-claims").exit_code == 0
    assert run_cli("verify", NESTED).exit_code == 0  # CLAIMS_BY_DEFAULT is off


def test_redacted_claims_quote_no_email() -> None:
    out = run_cli("claims", NESTED, "--redact", "-f", "json").stdout
    assert "dana.whitfield@example.com" not in out and "[redacted:email:" in out


def test_claims_takes_jobs_and_exclude_as_every_command_of_directories(tmp_path: Path) -> None:
    every = jsonl(run_cli("claims", str(SAMPLES), "-f", "jsonl", "-j", "1").stdout)
    assert any(r["source"].endswith("nested_chain.json") for r in every)
    pooled = jsonl(run_cli("claims", str(SAMPLES), "-f", "jsonl", "--jobs", "2").stdout)
    assert pooled == every  # answered in the order of the sources, whatever the workers
    left = run_cli("claims", str(SAMPLES), "-f", "jsonl", "--exclude", "nested_chain*")
    assert not any(r["source"].endswith("nested_chain.json") for r in jsonl(left.stdout))
    assert {r["source"] for r in jsonl(left.stdout)} < {r["source"] for r in every}


def _written(tmp_path: Path, doc: dict[str, Any]) -> str:
    path = tmp_path / "case.json"
    path.write_bytes(orjson.dumps(doc))
    return str(path)


def test_a_worked_out_value_that_does_not_follow_is_listed_and_never_counted_wrong(
    tmp_path: Path,
) -> None:
    doc = clean()
    doc["folded"][1]["messages"][2]["content"] = "page 0: 1,200 rows\npage 1: 800 rows"
    summary = frame(3, 3, "Looked up pages 0 and 1; together they hold 2,500 rows.")
    doc["history"][1]["content"] = summary
    doc["folded"][1] = span(
        summary,
        doc["folded"][1]["messages"],
        count=3,
        iteration=3,
        at=T0 + 2000,
        stages=["compact#47", "tool-calls#46"],
    )
    source = _written(tmp_path, doc)
    checked = run_cli("claims", source)
    assert checked.exit_code == 0, checked.stdout
    assert "h1: unverified count 2,500 rows" in checked.stdout
    assert checked.stdout.rstrip().endswith("; 1 worked-out value(s) unverified")
    page = run_cli("expand", source, "-f", "markdown", "--no-pager").stdout
    assert "(`foldctl claims`): 0 finding(s) that a summary is wrong" in page
    assert "- **unverified** count `2,500 rows` — summary `h1` of span 1" in page
    assert "that this summary is wrong" not in page


def test_what_a_summary_carries_over_from_a_discarded_one_is_listed_under_it(
    tmp_path: Path,
) -> None:
    """Span 0 was discarded; span 1's summary repeats its charge: unverifiable, shown
    under span 1's summary and citing the discarded one."""
    doc = clean()
    inner = frame(2, 2, "Charged CH-5532 $480.00 for order 7731.", "discard")
    outer = frame(3, 3, "Charge CH-5532 of $480.00 was made; looked up page 1.")
    doc["folded"][0] = span(inner, None, count=2, iteration=2, at=T0 + 1000, stages=["t#23"])
    doc["folded"][1] = span(
        outer, [user(inner), call(1), result(1)], count=3, iteration=3, at=T0 + 2000, stages=[]
    )
    doc["history"][1] = user(outer)
    source = _written(tmp_path, doc)
    rows = jsonl(run_cli("claims", source, "-f", "jsonl").stdout)
    carried = [(r["frame"], r["atom"], r["evidence"][0]["locator"]) for r in rows if r["evidence"]]
    assert carried == [("h1", "CH-5532", "f1:0"), ("h1", "$480.00", "f1:0")]
    assert {r["kind"] for r in rows} == {"unverifiable"}
    page = run_cli("expand", source, "-f", "markdown", "--no-pager").stdout
    outer_fold, inner_frame = page.split("### `f1:0` user", 1)
    assert "- **unverifiable** id `CH-5532` — summary `h1` of span 1" in outer_fold
    assert "- **unverifiable** summary `Charged CH-5532" in inner_frame
