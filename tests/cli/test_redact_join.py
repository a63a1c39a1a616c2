"""``--redact`` changes what is printed, never what is joined, audited, checked or selected.

Each checkpoint here is a sample with a secret (an email address) planted where the join
and the audit read: two spans sharing a ``summaryFingerprint`` that holds it, a run id, a
model, a stage id, tool-call ids; a session's record uuids (its chain), session id,
tool-use ids and model.  Every command that takes ``--redact`` must answer as without it
(the same exit status, findings, locators, verdicts, selections), and print no secret.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.support import SAMPLES, jsonl, run_cli

SECRET = "dana.rivers@example.org"
KEY = "k" * 32


def _shared_fingerprint(tmp: Path) -> Path:
    """The issue's reproducer: two spans share a fingerprint that holds an email."""
    doc = json.loads((SAMPLES / "nested_chain.json").read_text("utf-8"))
    folded = doc["folded"]
    for span in (folded[1], folded[2]):
        span["summaryFingerprint"] = f"{SECRET}"
    path = tmp / "shared.json"
    path.write_text(json.dumps(doc), "utf-8")
    return path


def _every_key(tmp: Path) -> Path:
    """A secret in every key-like field of an agentfootprint checkpoint: a fingerprint two
    spans share, a span's run id and model, a stage id, and a tool call's id (its call and
    its result both)."""
    doc = json.loads((SAMPLES / "tool_calls.json").read_text("utf-8"))
    folded = doc["folded"]
    folded[0]["summaryFingerprint"] = folded[1]["summaryFingerprint"] = f"fp-{SECRET}"
    folded[-1]["runId"] = f"run-{SECRET}"
    folded[-1]["model"] = f"model-{SECRET}"
    folded[0]["removedStageIds"] = [f"stage-{SECRET}", *folded[0].get("removedStageIds", [])]
    text = json.dumps(doc)
    call_ids = re.findall(r'"id": "(toolu_[^"]+)"', text)
    assert call_ids, "the sample has tool calls"
    text = text.replace(call_ids[0], f"toolu-{SECRET}")
    path = tmp / "every_key.json"
    path.write_text(text, "utf-8")
    return path


def _session(tmp: Path, sample: str, pattern: str) -> Path:
    """A session file whose ids matching ``pattern`` (each one, everywhere it occurs, so
    every link still holds) and model carry the secret."""
    text = (SAMPLES / sample).read_text("utf-8")
    for n, value in enumerate(dict.fromkeys(re.findall(pattern, text))):
        text = text.replace(value, f"{n}-{SECRET}")
    path = tmp / sample
    path.write_text(text, "utf-8")
    return path


@pytest.fixture(params=["shared", "every_key", "claude_code", "codex"])
def hostile(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    name = request.param
    if name == "shared":
        return _shared_fingerprint(tmp_path)
    if name == "every_key":
        return _every_key(tmp_path)
    if name == "claude_code":
        uuids = r'"(?:uuid|sessionId|tool_use_id|model)":"([^"]+)"'
        return _session(tmp_path, "claude_code_session.jsonl", uuids)
    return _session(tmp_path, "codex_rollout.jsonl", r'"(?:call_id|model|id)":"([^"]+)"')


def _both(tmp: Path, *args: str) -> tuple[Any, Any]:
    """The command run as it is, then with ``--redact`` (a fixed key); neither output may
    hold a traceback, and the redacted one not the secret."""
    key = tmp / "key"
    key.write_text(KEY)
    plain = run_cli(*args)
    redacted = run_cli(*args, "--redact", "--redact-key-file", str(key))
    assert "Traceback" not in plain.stderr + redacted.stderr
    assert redacted.exit_code == plain.exit_code, redacted.stderr
    assert SECRET not in redacted.stdout + redacted.stderr
    return plain, redacted


def test_the_secret_is_where_the_join_reads(hostile: Path) -> None:
    """The planted files really hold the secret in what the commands read and print."""
    spans = run_cli("spans", "--format", "jsonl", str(hostile)).stdout
    shown = run_cli("expand", "--format", "jsonl", "--include-detached", str(hostile)).stdout
    assert SECRET in spans + shown


def test_show_counts_the_same_findings(hostile: Path, tmp_path: Path) -> None:
    plain, redacted = _both(tmp_path, "show", "--format", "json", "--claims", str(hostile))
    a, b = json.loads(plain.stdout), json.loads(redacted.stdout)
    assert b["findings"] == a["findings"]
    assert b["counts"] == a["counts"]
    assert len(b["runs"]) == len(a["runs"]) and len(b["models"]) == len(a["models"])
    strip = ("model", "runId", "removedStageIds", "fingerprint", "summaryFingerprint")

    def tree(doc: dict[str, Any]) -> list[dict[str, Any]]:
        return [{k: v for k, v in node.items() if k not in strip} for node in doc["tree"]]

    assert tree(b) == tree(a)


def test_show_text_prints_the_overview(hostile: Path, tmp_path: Path) -> None:
    plain, redacted = _both(tmp_path, "show", str(hostile))
    assert plain.exit_code == 0
    assert "findings" in redacted.stdout
    if SECRET in plain.stdout:
        assert "[redacted:email:" in redacted.stdout


def test_expand_walks_the_same_messages(hostile: Path, tmp_path: Path) -> None:
    args = ("expand", "--format", "jsonl", "--include-detached", str(hostile))
    plain, redacted = _both(tmp_path, *args)

    def places(out: str) -> list[tuple[Any, ...]]:
        return [(r["locator"], r["span"], r["chain"], r["depth"], r["digest"]) for r in jsonl(out)]

    assert places(redacted.stdout) == places(plain.stdout)
    assert "[redacted:email:" in redacted.stdout


def test_claims_give_the_same_verdicts(hostile: Path, tmp_path: Path) -> None:
    plain, redacted = _both(tmp_path, "claims", "--format", "jsonl", str(hostile))

    def verdicts(out: str) -> Counter[tuple[Any, ...]]:
        return Counter((r.get("span"), r.get("frame"), r.get("kind")) for r in jsonl(out))

    assert verdicts(redacted.stdout) == verdicts(plain.stdout)


def test_report_prints_the_same_findings(hostile: Path, tmp_path: Path) -> None:
    """The report (audit and claims) renders, with every finding code of the unredacted
    one, as often."""
    pages = {}
    for name in ("plain", "redacted"):
        page = tmp_path / f"{name}.html"
        extra = ("--redact",) if name == "redacted" else ()
        result = run_cli("report", str(hostile), "-o", str(page), *extra)
        assert result.exit_code == 0, result.stderr
        assert "Traceback" not in result.stderr
        pages[name] = page.read_text("utf-8")
    assert SECRET not in pages["redacted"]

    def codes(page: str) -> Counter[str]:
        row = (
            r'data-severity="[a-z]+"><td class="sev [a-z -]+">[a-z]+</td>'
            r'<td class="mono">([a-z-]+)<'
        )
        return Counter(re.findall(row, page))

    assert codes(pages["redacted"]) == codes(pages["plain"])


def test_a_fold_filter_selects_the_same_spans(hostile: Path, tmp_path: Path) -> None:
    """``--model`` and ``--run`` name what was recorded; redaction does not change which
    spans pass (the tree and the transcript of the selected folds)."""
    doc = json.loads(run_cli("show", "--format", "json", str(hostile)).stdout)
    for option, values in (("--model", doc["models"]), ("--run", doc["runs"])):
        for value in values:
            plain, redacted = _both(
                tmp_path, "show", "--format", "json", option, value, str(hostile)
            )
            if plain.exit_code == 0:
                a, b = json.loads(plain.stdout), json.loads(redacted.stdout)
                assert [n["span"] for n in b["tree"]] == [n["span"] for n in a["tree"]]
                assert b["findings"] == a["findings"]


def test_grep_finds_the_same_messages(hostile: Path, tmp_path: Path) -> None:
    plain, redacted = _both(tmp_path, "grep", "--format", "jsonl", "-e", "the", str(hostile))
    assert [r["locator"] for r in jsonl(redacted.stdout)] == [
        r["locator"] for r in jsonl(plain.stdout)
    ]


def test_diff_pairs_the_same_spans(hostile: Path, tmp_path: Path) -> None:
    """A file against itself with one span's messages dropped: the same changes."""
    plain, redacted = _both(tmp_path, "diff", "--format", "jsonl", str(hostile), str(hostile))

    def changes(out: str) -> list[Any]:
        return [(r.get("change"), r.get("span"), r.get("locator")) for r in jsonl(out)]

    assert changes(redacted.stdout) == changes(plain.stdout)


@pytest.mark.parametrize(
    "command",
    [
        ("show",),
        ("expand",),
        ("claims",),
        ("grep", "-e", "the"),
    ],
)
def test_a_filter_no_span_passes_is_said_without_the_secret(
    hostile: Path, tmp_path: Path, command: tuple[str, ...]
) -> None:
    """A ``--model`` no span has, itself a secret: exit 1 both ways, and the redacted note
    quotes neither the filter nor the models the checkpoint holds."""
    plain, redacted = _both(tmp_path, *command, "--model", f"other-{SECRET}", str(hostile))
    assert plain.exit_code == 1
    assert "no span with model" in redacted.stderr
