"""``claims``: every summary checked against the originals it replaced, on real checkpoints."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support import SAMPLES, jsonl, run_cli

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
