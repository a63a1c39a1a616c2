"""``diff``: spans added and lost, retention, live messages by digest, frames, identity checks."""

from __future__ import annotations

import copy
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from foldctl.errors import UsageError
from foldctl.fingerprint import fnv1a32
from foldctl.graph.open import open_graph
from foldctl.query.diff import KINDS, compare, span_key
from tests.support import SAMPLES, jsonl, run_cli, run_proc
from tests.support.builders import Convo, audit_monday, friday_of, lost_evidence, write_doc
from tests.support.golden import check_golden

# --------------------------------------------------------------------------- golden files


# --------------------------------------------------------------------------- fixtures


@pytest.fixture
def monday_friday(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    monkeypatch.chdir(tmp_path)
    monday = audit_monday()
    monday.write(tmp_path / "monday.json")
    friday_of(monday).write(tmp_path / "friday.json")
    return "monday.json", "friday.json"


@pytest.fixture
def monday_lost(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    monkeypatch.chdir(tmp_path)
    monday = audit_monday()
    monday.write(tmp_path / "monday.json")
    write_doc(tmp_path / "restored.json", lost_evidence(monday))
    return "monday.json", "restored.json"


# --------------------------------------------------------------------------- identical


def test_diff_of_a_checkpoint_with_itself_is_silent_and_exits_0(
    monday_friday: tuple[str, str],
) -> None:
    old, _ = monday_friday
    result = run_cli("diff", old, old, "--format", "jsonl")
    assert result.exit_code == 0
    assert result.stdout_bytes == b""
    assert run_cli("diff", old, old, "--format", "json").stdout == "[]\n"
    text = run_cli("diff", old, old)
    assert text.exit_code == 0
    assert "no differences" in text.stdout


def test_a_checkpoint_and_its_envelope_are_identical(tmp_path: Path) -> None:
    doc = audit_monday().checkpoint()
    write_doc(tmp_path / "bare.json", doc)
    write_doc(tmp_path / "env.json", {"format": "conversation-v1", "data": doc, "savedAt": 1})
    result = run_cli("diff", str(tmp_path / "bare.json"), str(tmp_path / "env.json"), "-f", "jsonl")
    assert (result.exit_code, result.stdout) == (0, "")


def test_identical_conformance_files_diff_clean(conformance: Path) -> None:
    for path in sorted(conformance.glob("*.json")):
        if path.name.endswith(".expected.json"):
            continue
        result = run_cli("diff", str(path), str(path), "-f", "jsonl")
        assert (result.exit_code, result.stdout) == (0, ""), path.name


# --------------------------------------------------------------------------- a later snapshot


def test_later_snapshot_lists_exactly_the_new_spans(monday_friday: tuple[str, str]) -> None:
    old, new = monday_friday
    result = run_cli("diff", old, new, "--format", "jsonl")
    assert result.exit_code == 1
    diffs = jsonl(result.stdout)
    old_doc, new_doc = (json.loads(Path(p).read_text()) for p in (old, new))

    def key(s: dict[str, Any]) -> tuple[Any, ...]:
        return (s["summaryFingerprint"], s["runId"], s["iteration"], s["foldedAtMs"])

    new_keys = {key(s) for s in new_doc["folded"]} - {key(s) for s in old_doc["folded"]}
    added = [d for d in diffs if d["kind"] == "span-added"]
    assert {(d["fingerprint"], d["runId"], d["iteration"], d["foldedAtMs"]) for d in added} == (
        new_keys
    )
    assert len(added) == 1 and added[0]["newSpan"] == 3 and added[0]["runId"] == "run-2"
    kinds = {d["kind"] for d in diffs}
    assert kinds <= {"span-added", "live-folded", "live-added"}  # nothing lost, nothing changed
    assert not any(k.startswith("span-") and k != "span-added" for k in kinds)


def test_live_messages_that_were_folded_are_not_lost(monday_friday: tuple[str, str]) -> None:
    old, new = monday_friday
    diffs = jsonl(run_cli("diff", old, new, "-f", "jsonl").stdout)
    folded = [d for d in diffs if d["kind"] == "live-folded"]
    # Monday's live h1..h3 (the frame of span 2 and two later messages) went into span 3.
    assert [d["oldLocator"] for d in folded] == ["h1", "h2", "h3"]
    assert [d["newLocator"] for d in folded] == ["f3:0", "f3:1", "f3:2"]
    assert all(d["newSpan"] == 3 for d in folded)
    # The same message has the same digest in both checkpoints, live or folded.
    expanded = jsonl(run_cli("expand", new, "-f", "jsonl", "--keep-frames").stdout)
    digests = {o["locator"]: o["digest"] for o in expanded}
    assert all(digests[d["newLocator"]] == d["digest"] for d in folded)
    assert not [d for d in diffs if d["kind"] == "live-removed"]


def test_generated_runs_continue_into_a_later_snapshot(tmp_path: Path) -> None:
    from tools.generate import GenSpec, RunSpec, generate

    first = RunSpec(tool_rounds=3, fold_at=(3,))
    runs = (first, RunSpec(tool_rounds=2, fold_at=(2,)), RunSpec(tool_rounds=2, fold_at=(2,)))
    early = generate(GenSpec(seed=5, story="ledger", runs=runs[:1]))
    late = generate(GenSpec(seed=5, story="ledger", runs=runs))
    a, b = write_doc(tmp_path / "a.json", early), write_doc(tmp_path / "b.json", late)
    graph_a, graph_b = open_graph(str(a))[0], open_graph(str(b))[0]
    result = compare(graph_a, graph_b)
    added = [d for d in result.differences if d["kind"] == "span-added"]
    assert [d["newSpan"] for d in added] == list(range(len(early["folded"]), len(late["folded"])))
    assert result.lost_messages == 0


# --------------------------------------------------------------------------- evidence lost


def test_a_retained_span_that_vanished_is_the_headline(monday_lost: tuple[str, str]) -> None:
    old, new = monday_lost
    result = run_cli("diff", old, new, "-f", "jsonl")
    assert result.exit_code == 1
    diffs = jsonl(result.stdout)
    assert diffs[0]["kind"] == "span-removed"  # evidence lost comes first
    removed = [d for d in diffs if d["kind"] == "span-removed"]
    assert len(removed) == 1
    gone = removed[0]
    assert (gone["oldSpan"], gone["newSpan"], gone["retained"]) == (0, None, "conversation")
    assert gone["messagesKept"] == 3
    # Its three originals were only in span 0, and span 1 (which held its frame) was discarded.
    assert gone["messagesLost"] == 3
    text = run_cli("diff", old, new).stdout
    assert "spans that disappeared — evidence lost (1)" in text
    assert "evidence lost: 1 span(s) disappeared" in text


def test_retention_changed_to_discard_counts_what_was_lost(monday_lost: tuple[str, str]) -> None:
    old, new = monday_lost
    diffs = jsonl(run_cli("diff", old, new, "-f", "jsonl").stdout)
    [changed] = [d for d in diffs if d["kind"] == "retention-changed"]
    assert (changed["oldSpan"], changed["newSpan"]) == (1, 0)  # matched by identity, not index
    assert (changed["oldRetained"], changed["newRetained"]) == ("conversation", "discard")
    assert changed["messagesLost"] == 3  # span 1 kept span 0's frame and two messages


def test_live_message_edited_removed_and_added(monday_lost: tuple[str, str]) -> None:
    old, new = monday_lost
    diffs = jsonl(run_cli("diff", old, new, "-f", "jsonl").stdout)
    by_kind = {k: [d for d in diffs if d["kind"] == k] for k in KINDS}
    [edited] = by_kind["live-changed"]
    assert (edited["oldLocator"], edited["newLocator"], edited["fields"]) == (
        "h2",
        "h2",
        ["content"],
    )
    assert edited["oldMessage"]["content"].endswith("payments team.")
    assert edited["newMessage"]["content"].endswith("the bank.")
    assert edited["oldDigest"] != edited["newDigest"]
    [removed] = by_kind["live-removed"]
    assert (removed["oldLocator"], removed["newLocator"]) == ("h3", None)
    assert removed["message"] == {"role": "user", "content": "Any news on the duplicate?"}
    [added] = by_kind["live-added"]
    assert (added["newLocator"], added["oldLocator"]) == ("h3", None)


def test_span_field_change_and_messages_change(tmp_path: Path) -> None:
    monday = audit_monday()
    doc = monday.checkpoint()
    doc["folded"][2]["model"] = "other-model"
    doc["folded"][2]["note"] = "added by hand"
    doc["folded"][1]["messages"][2]["content"] = "LEDGER page 2: 4 charges"
    a, b = monday.write(tmp_path / "a.json"), write_doc(tmp_path / "b.json", doc)
    diffs = jsonl(run_cli("diff", str(a), str(b), "-f", "jsonl").stdout)
    [fields] = [d for d in diffs if d["kind"] == "span-changed"]
    assert fields["oldSpan"] == fields["newSpan"] == 2
    assert fields["changes"] == [
        {"field": "model", "old": "mock-cheap", "new": "other-model"},
        {"field": "note", "new": "added by hand"},  # absent in OLD: no "old" key
    ]
    [msgs] = [d for d in diffs if d["kind"] == "span-messages-changed"]
    assert msgs["oldSpan"] == 1
    [edit] = msgs["changed"]  # edited in place: one change, both messages, not a loss and a gain
    assert (edit["oldLocator"], edit["newLocator"], edit["fields"]) == ("f1:2", "f1:2", ["content"])
    assert edit["newMessage"]["content"] == "LEDGER page 2: 4 charges"
    assert edit["oldMessage"]["content"].startswith("LEDGER page 2")
    assert edit["oldMessage"]["content"] != edit["newMessage"]["content"]
    assert (msgs["removed"], msgs["added"], msgs["reordered"]) == ([], [], False)
    text = run_cli("diff", str(a), str(b)).stdout
    assert "~ f1:2 -> f1:2 tool: content changed" in text
    assert "        + LEDGER page 2: 4 charges" in text


def test_a_folded_message_edited_in_place_shows_what_changed(tmp_path: Path) -> None:
    original = SAMPLES / "nested_chain.json"
    tampered = tmp_path / "tampered.json"
    tampered.write_bytes(
        original.read_bytes().replace(b"status: pending_approval", b"status: approved")
    )
    text = run_cli("diff", str(original), str(tampered))
    assert text.exit_code == 1
    lines = text.stdout.splitlines()
    at = lines.index("      ~ f5:2 -> f5:2 tool: content changed")
    assert lines[at + 1 : at + 6] == [
        "        @@ content, line 4 @@",
        "          reason: duplicate_capture",
        "        - status: pending_approval",
        "        + status: approved",
        "          note: refunds over $250.00 require finance approval (KB-212 §3); approver "
        "queue: finance-refunds",
    ]
    for fmt in ("json", "jsonl"):
        out = run_cli("diff", str(original), str(tampered), "-f", fmt).stdout
        rows = json.loads(out) if fmt == "json" else jsonl(out)
        [edit] = [e for d in rows if d["kind"] == "span-messages-changed" for e in d["changed"]]
        assert "status: pending_approval" in edit["oldMessage"]["content"]
        assert "status: approved" in edit["newMessage"]["content"]
        assert edit["oldMessage"]["toolName"] == edit["newMessage"]["toolName"] == "issue_refund"


def test_a_session_record_edited_in_place_is_a_line_diff_of_its_text(tmp_path: Path) -> None:
    """A Claude Code record keeps its text inside ``message.content``: the diff compares what
    the two records show, so the changed text is diffed line by line, and a fold that has no
    fingerprint is named by its span alone."""
    original = SAMPLES / "claude_code_session.jsonl"
    edited = tmp_path / "edited.jsonl"
    said = b"round() on floats rounds half to even. Let me run the tests."
    assert original.read_bytes().count(said) == 1
    edited.write_bytes(
        original.read_bytes().replace(said, b"round() rounds half to even.\\nLet me run them.")
    )
    text = run_cli("diff", str(original), str(edited))
    assert text.exit_code == 1
    lines = text.stdout.splitlines()
    assert "  ~ span 0 -> span 0  1 changed" in lines and "None" not in text.stdout
    at = lines.index("      ~ f0:6 -> f0:6 assistant: content changed")
    assert lines[at + 1 : at + 5] == [
        "        @@ content, line 1 @@",
        "        - round() on floats rounds half to even. Let me run the tests.",
        "        + round() rounds half to even.",
        "        + Let me run them.",
    ]
    out = jsonl(run_cli("diff", str(original), str(edited), "-f", "jsonl").stdout)
    [edit] = [e for d in out if d["kind"] == "span-messages-changed" for e in d["changed"]]
    assert edit["fields"] == ["message"]  # the record's own field, kept whole in JSON
    assert edit["newMessage"]["message"]["content"][0]["text"].endswith("Let me run them.")


def test_changed_tool_call_arguments_are_a_line_diff_live_or_folded(tmp_path: Path) -> None:
    original = SAMPLES / "nested_chain.json"
    doc = json.loads(original.read_text(encoding="utf-8"))
    doc["history"][2]["toolCalls"][0]["args"]["status"] = "pending"
    changed = write_doc(tmp_path / "b.json", doc)
    text = run_cli("diff", str(original), str(changed)).stdout.splitlines()
    at = text.index("  ~ h2 -> h2  assistant  toolCalls changed")
    assert text[at + 1 : at + 6] == [
        "        @@ toolCalls, line 6 @@",
        '                "id": "T-3317",',
        '        -       "status": "solved",',
        '        +       "status": "pending",',
        '                "public_reply": "Hi Dana, we refunded the duplicate $480.00 charge from '
        "March 14 (refund RF-9120). It has been approved and should reach your card in 5–10 "
        'business days."',
    ]


def test_a_message_of_another_role_is_removed_and_added_not_changed(tmp_path: Path) -> None:
    monday = audit_monday()
    doc = monday.checkpoint()
    doc["folded"][1]["messages"][2] = {"role": "assistant", "content": "something else"}
    a, b = monday.write(tmp_path / "a.json"), write_doc(tmp_path / "b.json", doc)
    [msgs] = [
        d
        for d in jsonl(run_cli("diff", str(a), str(b), "-f", "jsonl").stdout)
        if d["kind"] == "span-messages-changed"
    ]
    assert msgs["changed"] == []
    assert [(r["locator"], r["message"]["role"]) for r in msgs["removed"]] == [("f1:2", "tool")]
    assert msgs["added"] == [
        {
            "locator": "f1:2",
            "digest": msgs["added"][0]["digest"],
            "role": "assistant",
            "message": {"role": "assistant", "content": "something else"},
        }
    ]
    text = run_cli("diff", str(a), str(b)).stdout
    assert "+ NEW f1:2 assistant: something else" in text


def test_frames_that_newly_fail_to_resolve(tmp_path: Path) -> None:
    monday = audit_monday()
    doc = monday.checkpoint()
    frame = doc["history"][1]
    frame["content"] = frame["content"].replace("duplicate charge found", "refund approved")
    a, b = monday.write(tmp_path / "a.json"), write_doc(tmp_path / "b.json", doc)
    diffs = jsonl(run_cli("diff", str(a), str(b), "-f", "jsonl").stdout)
    [unresolved] = [d for d in diffs if d["kind"] == "frame-unresolved"]
    assert unresolved["newLocator"] == "h1"
    assert unresolved["oldLocator"] is None  # this text was never in OLD
    assert unresolved["fingerprint"] == fnv1a32(frame["content"])
    # The span it used to reach now floats, and the two nested in it float with it.
    placements = [d for d in diffs if d["kind"] == "span-changed"]
    assert [d["newSpan"] for d in placements] == [0, 1, 2]
    assert all(
        d["changes"] == [{"field": "placement", "old": "placed", "new": "orphan"}]
        for d in placements
    )
    # The old frame is not lost: it is still (edited) at h1, reported as a change.
    assert [d["kind"] for d in diffs if d["kind"].startswith("live")] == ["live-changed"]


def test_spans_sharing_an_identity_pair_in_order(tmp_path: Path) -> None:
    monday = audit_monday()
    doc = monday.checkpoint()
    twin = copy.deepcopy(doc["folded"][2])
    twin["model"] = "twin"
    doc["folded"].append(twin)
    a, b = write_doc(tmp_path / "a.json", doc), write_doc(tmp_path / "b.json", doc)
    assert run_cli("diff", str(a), str(b), "-f", "jsonl").stdout == ""
    del doc["folded"][3]  # the twin, second in folded order, goes
    c = write_doc(tmp_path / "c.json", doc)
    diffs = jsonl(run_cli("diff", str(a), str(c), "-f", "jsonl").stdout)
    assert [(d["kind"], d["oldSpan"], d["model"]) for d in diffs] == [("span-removed", 3, "twin")]


def test_span_matching_ignores_index(tmp_path: Path) -> None:
    monday = audit_monday()
    doc = monday.checkpoint()
    graph_a = open_graph(str(write_doc(tmp_path / "a.json", doc)))[0]
    doc["folded"].insert(0, copy.deepcopy(doc["folded"][2]) | {"summaryFingerprint": "beef"})
    graph_b = open_graph(str(write_doc(tmp_path / "b.json", doc)))[0]
    result = compare(graph_a, graph_b)
    assert [d["kind"] for d in result.differences if d["kind"].startswith("span")] == ["span-added"]
    assert span_key(graph_b.spans[3]) == span_key(graph_a.spans[2])


# --------------------------------------------------------------------------- refusals


def test_unrelated_conversations_are_refused_unless_forced(tmp_path: Path) -> None:
    a = audit_monday().write(tmp_path / "a.json")
    other = Convo(run_id="run-9")
    other.add("user", "Plan a trip to Lisbon").add("assistant", "Here is a plan.")
    b = other.write(tmp_path / "b.json")
    refused = run_cli("diff", str(a), str(b))
    assert refused.exit_code == 2 and refused.stdout == ""
    assert "look like different conversations" in refused.stderr
    with pytest.raises(UsageError, match=r"different conversations"):
        compare(open_graph(str(a))[0], open_graph(str(b))[0])
    proc = run_proc("diff", str(a), str(b))
    assert proc.returncode == 2 and proc.stdout == b""
    assert proc.stderr.decode().count("\n") == 1 and "--force" in proc.stderr.decode()
    forced = run_cli("diff", str(a), str(b), "--force", "-f", "jsonl")
    assert forced.exit_code == 1 and forced.stdout


def test_shared_span_makes_conversations_related(tmp_path: Path) -> None:
    monday = audit_monday()
    doc = monday.checkpoint()
    doc["history"][0]["content"] = "Audit the account, please"  # first message differs
    doc["runId"] = "run-other"
    frames = [i for i, m in enumerate(doc["history"]) if m["content"].startswith("[compacted")]
    for i in frames:  # and no summary frame is shared: only the spans tie them together
        doc["history"][i]["content"] += " (edited)"
    a, b = monday.write(tmp_path / "a.json"), write_doc(tmp_path / "b.json", doc)
    assert run_cli("diff", str(a), str(b), "-f", "jsonl").exit_code == 1  # not refused
    del doc["folded"]
    c = write_doc(tmp_path / "c.json", doc)
    assert run_cli("diff", str(a), str(c)).exit_code == 2  # without the spans nothing is shared


def test_a_checkpoint_that_lost_folded_is_still_the_same_conversation(tmp_path: Path) -> None:
    monday = audit_monday()
    doc = monday.checkpoint()
    del doc["folded"]  # re-saved by a runtime from before 8.2
    doc["runId"] = "run-resaved"
    a, b = monday.write(tmp_path / "a.json"), write_doc(tmp_path / "b.json", doc)
    diffs = jsonl(run_cli("diff", str(a), str(b), "-f", "jsonl").stdout)
    removed = [d for d in diffs if d["kind"] == "span-removed"]
    assert [d["oldSpan"] for d in removed] == [0, 1, 2]
    assert [d["messagesLost"] for d in removed] == [3, 3, 3]
    # The live frame now joins nothing: it newly fails to resolve.
    assert [d["newLocator"] for d in diffs if d["kind"] == "frame-unresolved"] == ["h1"]


def test_unreadable_input_exits_2_naming_the_file(tmp_path: Path) -> None:
    good = audit_monday().write(tmp_path / "a.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": 1, "history": [}')
    proc = run_proc("diff", str(good), str(bad))
    assert proc.returncode == 2
    assert b"bad.json" in proc.stderr and b"Traceback" not in proc.stderr


def test_sessions_of_a_store_can_be_compared(tmp_path: Path) -> None:
    monday = audit_monday()
    store = tmp_path / "sessions.db"
    with sqlite3.connect(store) as db:
        db.execute(
            "CREATE TABLE agent_sessions (session_id TEXT PRIMARY KEY, format TEXT, "
            "saved_at INTEGER, envelope TEXT, owner TEXT, message_count INTEGER)"
        )
        for sid, convo in (("mon", monday), ("fri", friday_of(monday))):
            env = {"format": "conversation-v1", "data": convo.checkpoint(), "savedAt": 1}
            db.execute(
                "INSERT INTO agent_sessions VALUES (?, ?, ?, ?, ?, ?)",
                (sid, "conversation-v1", 1, json.dumps(env), "ops", len(convo.history)),
            )
    db.close()
    result = run_cli("diff", f"{store}#mon", f"{store}#fri", "-f", "jsonl")
    assert result.exit_code == 1
    assert [d["newSpan"] for d in jsonl(result.stdout) if d["kind"] == "span-added"] == [3]


# --------------------------------------------------------------------------- formats


def test_csv_and_tsv_have_a_header_and_one_row_per_difference(
    monday_lost: tuple[str, str],
) -> None:
    import csv
    import io

    from foldctl.render.diff_text import DIFF_COLUMNS

    old, new = monday_lost
    count = len(jsonl(run_cli("diff", old, new, "-f", "jsonl").stdout))
    rows = list(csv.reader(io.StringIO(run_cli("diff", old, new, "-f", "csv").stdout)))
    assert rows[0] == list(DIFF_COLUMNS)
    assert len(rows) == count + 1
    tsv = run_cli("diff", old, new, "-f", "tsv").stdout.splitlines()
    assert tsv[0].split("\t") == list(DIFF_COLUMNS) and len(tsv) == count + 1


@pytest.mark.parametrize("fmt", ["text", "json", "jsonl", "csv", "tsv"])
def test_golden_lost_evidence(monday_lost: tuple[str, str], fmt: str) -> None:
    old, new = monday_lost
    result = run_cli("diff", old, new, "--format", fmt)
    assert result.exit_code == 1
    check_golden(f"diff_lost.{fmt}", result.stdout_bytes)


@pytest.mark.parametrize("fmt", ["text", "json", "jsonl", "csv", "tsv"])
def test_golden_later_snapshot(monday_friday: tuple[str, str], fmt: str) -> None:
    old, new = monday_friday
    result = run_cli("diff", old, new, "--format", fmt)
    assert result.exit_code == 1
    check_golden(f"diff_later.{fmt}", result.stdout_bytes)


def test_content_in_text_output_is_made_visible(tmp_path: Path) -> None:
    monday = audit_monday()
    doc = monday.checkpoint()
    doc["history"].append({"role": "assistant", "content": "\x1b[2J[bold red]boom[/] \u202e"})
    a, b = monday.write(tmp_path / "a.json"), write_doc(tmp_path / "b.json", doc)
    out = run_cli("diff", str(a), str(b), "--color", "always").stdout
    assert "\x1b[2J" not in out and "\\x1b[2J" in out
    assert "[bold red]boom[/]" in out and "\\u202e" in out
