"""Fold filters on every command that reads folds: the same filters, a model matched
without regard to case, and a filter that matches nothing said with what there is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support import SAMPLES, jsonl, run_cli

NESTED = str(SAMPLES / "nested_chain.json")


def argv(command: str, tmp_path: Path) -> list[str]:
    """The command on the nested sample, as a user runs it."""
    if command == "grep":
        return ["grep", "-F", "refund", NESTED]
    if command == "report":
        return ["report", NESTED, "-o", str(tmp_path / "r.html")]
    if command == "export":
        pytest.importorskip("pyarrow")
        return ["export", NESTED, "--to", str(tmp_path / "out")]
    return [command, NESTED]


FOLD_COMMANDS = ["show", "expand", "spans", "claims", "verify", "report", "grep", "export"]


@pytest.mark.parametrize("command", FOLD_COMMANDS)
def test_a_model_no_span_has_is_said_with_the_models_there(command: str, tmp_path: Path) -> None:
    result = run_cli(*argv(command, tmp_path), "--model", "Summarizer-Max")
    assert result.exit_code == 1, result.stderr
    assert (
        'foldctl: no span with model "Summarizer-Max"; models here: summarizer-mini'
        in result.stderr.splitlines()
    )


@pytest.mark.parametrize("command", FOLD_COMMANDS)
def test_a_model_is_matched_without_regard_to_case(command: str, tmp_path: Path) -> None:
    result = run_cli(*argv(command, tmp_path), "--model", "Summarizer-MINI")
    assert result.exit_code in (0, 1), result.stderr
    assert "no span" not in result.stderr


def test_each_command_keeps_what_the_filter_selects(tmp_path: Path) -> None:
    def rows(*args: str) -> list[dict[str, object]]:
        return jsonl(run_cli(*args, "-f", "jsonl").stdout)

    assert [r["span"] for r in rows("spans", NESTED, "--model", "SUMMARIZER-mini")] == list(
        range(7)
    )
    assert [r["span"] for r in rows("spans", NESTED, "--span", "5")] == [5]
    show = json.loads(run_cli("show", NESTED, "-f", "json", "--span", "5").stdout)
    assert [n["span"] for n in show["tree"]] == [5] and show["treeFilter"] == "numbered 5"
    assert show["counts"]["spans"] == 7  # what there is stays the checkpoint's
    claims = rows("claims", NESTED, "--span", "6")
    assert [(c["span"], c["frame"]) for c in claims] == [(6, "h1")]
    hits = rows("grep", "-F", "refund", NESTED, "--span", "5")  # span 5 and what nests in it
    assert hits and all(5 in h["chain"] for h in hits)  # type: ignore[operator]
    assert len(hits) < len(rows("grep", "-F", "refund", NESTED))
    page = tmp_path / "r.html"
    assert run_cli("report", NESTED, "-o", str(page), "--span", "3").exit_code == 0
    assert "Only the folds numbered 3" in page.read_text(encoding="utf-8")


def test_a_time_window_or_run_that_matches_nothing_lists_what_there_is() -> None:
    late = run_cli("spans", NESTED, "--since", "2027-01-01")
    assert late.exit_code == 1
    assert late.stderr == (
        "foldctl: no span folded at or after 2027-01-01T00:00:00.000Z; folds here from "
        "2026-03-16T09:12:25.913Z to 2026-03-16T09:13:33.156Z\n"
    )
    run = run_cli("expand", NESTED, "--run", "run-0")
    assert run.exit_code == 1
    assert run.stderr == 'foldctl: no span of run "run-0"; runs here: run-1773652325000-1\n'


def test_a_span_the_checkpoint_does_not_have_is_a_usage_error() -> None:
    for command in ("show", "expand", "spans"):
        result = run_cli(command, NESTED, "--span", "99")
        assert result.exit_code == 2
        assert result.stderr == "foldctl: error: there is no span 99; spans here: 0-6\n"


def test_many_sources_say_what_they_all_hold() -> None:
    result = run_cli("verify", str(SAMPLES), "--model", "nope", "--exclude", "*.db")
    assert result.exit_code == 1
    [line] = [line for line in result.stderr.splitlines() if "no span" in line]
    assert line.startswith('foldctl: no span with model "nope"; models in these ')
    assert "mock-cheap" in line and "summarizer-mini" in line
    assert "0 of " in result.stdout and " spans pass the fold filter" in result.stdout


def test_filters_that_each_match_but_not_together_say_so() -> None:
    result = run_cli("spans", NESTED, "--span", "2", "--since", "2026-03-16T09:13:00Z")
    assert result.exit_code == 1
    assert result.stderr == (
        "foldctl: no span folded at or after 2026-03-16T09:13:00.000Z, numbered 2; 7 spans here\n"
    )
