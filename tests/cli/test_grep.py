"""``grep``: every message, live and folded at any depth, summaries and floating spans included."""

from __future__ import annotations

import copy
import csv
import io
import json
import sqlite3
from pathlib import Path

import orjson
import pytest

from foldctl.query.grep import GREP_COLUMNS
from tests.support import jsonl, run_cli, run_proc
from tests.support.builders import DEEP, Convo, audit_monday, detached_convo, write_doc
from tests.support.golden import check_golden


@pytest.fixture
def audit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(tmp_path)
    audit_monday().write(tmp_path / "audit.json")
    return "audit.json"


# --------------------------------------------------------------------------- where hits live


def test_a_match_three_folds_deep(audit: str) -> None:
    result = run_cli("grep", "RF-9120", audit, "-f", "jsonl")
    assert result.exit_code == 0
    hits = {h["locator"]: h for h in jsonl(result.stdout)}
    deep = hits[DEEP]
    assert (deep["span"], deep["depth"], deep["where"], deep["role"]) == (0, 3, "folded", "tool")
    assert (deep["chain"], deep["occurrence"]) == ([2, 1, 0], 1)
    assert deep["foldedBy"]["span"] == 0 and deep["foldedBy"]["model"] == "mock-cheap"
    assert deep["foldedBy"]["foldedAt"] == "2026-03-08T20:00:04.500Z"
    start = deep["content"].index("RF-9120")
    assert deep["matches"] == [
        {"field": "content", "start": start, "end": start + 7, "text": "RF-9120"}
    ]
    text = run_cli("grep", "RF-9120", audit).stdout.splitlines()
    at = text.index(f"audit.json:{DEEP}:tool: refund RF-9120 status: pending_approval")
    context = text[at + 1]
    assert "folded away by span 0" in context and "depth 3, outermost span 2" in context


def test_summaries_are_searched_and_marked_as_claims(audit: str) -> None:
    hits = jsonl(run_cli("grep", "approved", audit, "-f", "jsonl").stdout)
    [claim] = [h for h in hits if "resolution" in h]
    # Summary 2 (the frame of span 1, swallowed by span 2) claims the refund was approved;
    # the original three folds down says pending_approval, which "approved" does not match.
    assert claim["locator"] == "f2:0"
    assert (claim["span"], claim["joinsSpan"], claim["resolution"]) == (2, 1, "expanded")
    assert claim["content"].startswith("[compacted history")
    assert [h["locator"] for h in hits] == ["f2:0"]
    text = run_cli("grep", "approved", audit).stdout
    assert "the summary frame of span 1, written by mock-cheap: a claim" in text


def test_every_place_a_replayed_span_expands(tmp_path: Path) -> None:
    doc = audit_monday().checkpoint()
    doc["history"].append(copy.deepcopy(doc["history"][1]))  # the same frame, replayed
    path = write_doc(tmp_path / "replayed.json", doc)
    args = ("grep", "-F", "refund RF-9120 status", str(path))
    hits = jsonl(run_cli(*args, "-f", "jsonl", "--replays", "full").stdout)
    assert [(h["locator"], h["occurrence"]) for h in hits] == [(DEEP, 1), (DEEP, 2)]
    assert hits[0]["digest"] == hits[1]["digest"]
    text = run_cli(*args, "--replays", "full").stdout
    assert "replay 2 of these messages" in text
    once = jsonl(run_cli(*args, "-f", "jsonl").stdout)  # by reference, the default
    assert [(h["locator"], h["occurrence"]) for h in once] == [(DEEP, 1)]


def test_detached_spans_are_searched_and_marked(tmp_path: Path) -> None:
    path = write_doc(tmp_path / "detached.json", detached_convo())
    hits = jsonl(run_cli("grep", "W-55", str(path), "-f", "jsonl").stdout)
    assert [(h["locator"], h["where"], h["placement"]) for h in hits] == [
        ("f0:1", "detached", "detached")
    ]
    text = run_cli("grep", "W-55", str(path)).stdout
    assert "detached: its frame was swallowed by a later fold" in text


def test_folded_only_live_only_and_role(audit: str) -> None:
    every = [h["locator"] for h in jsonl(run_cli("grep", "ACCT-8842", audit, "-f", "jsonl").stdout)]
    live = [
        h["locator"]
        for h in jsonl(run_cli("grep", "ACCT-8842", audit, "--live-only", "-f", "jsonl").stdout)
    ]
    folded = run_cli("grep", "ACCT-8842", audit, "--folded-only", "-f", "jsonl").stdout
    assert live == ["h0"]
    assert [h["locator"] for h in jsonl(folded)] == [loc for loc in every if loc != "h0"]
    assert all(h["span"] is not None for h in jsonl(folded))
    tools = jsonl(run_cli("grep", "ACCT-8842", audit, "--role", "tool", "-f", "jsonl").stdout)
    assert [h["locator"] for h in tools] == [DEEP]
    both = run_cli("grep", "x", audit, "--folded-only", "--live-only")
    assert both.exit_code == 2 and "exclude each other" in both.stderr


def test_field_tool_calls_searches_their_json(audit: str) -> None:
    hits = jsonl(
        run_cli(
            "grep", '"account":"ACCT-8842"', audit, "--field", "toolCalls", "-f", "jsonl"
        ).stdout
    )
    [hit] = hits
    assert hit["locator"] == "f0:0" and hit["role"] == "assistant"
    [match] = hit["matches"]
    searched = orjson.dumps(hit["toolCalls"]).decode()  # compact JSON, stored key order
    assert match["field"] == "toolCalls"
    assert searched[match["start"] : match["end"]] == '"account":"ACCT-8842"' == match["text"]
    # By default, what a reader sees is searched: the tool call's arguments too.
    assert "audit.json:f0:0:assistant:toolCalls: " in run_cli("grep", "account", audit).stdout
    leaf = jsonl(run_cli("grep", "ACCT-8842", audit, "-f", "jsonl").stdout)
    assert {"field": "toolCalls[0].args.account", "start": 0, "end": 9, "text": "ACCT-8842"} in [
        m for h in leaf for m in h["matches"]
    ]


def test_field_tool_name_and_every_field(audit: str) -> None:
    names = jsonl(
        run_cli("grep", "^read_ledger$", audit, "--field", "toolName", "-f", "jsonl").stdout
    )
    assert {h["role"] for h in names} == {"tool"} and len(names) == 3
    every = jsonl(run_cli("grep", "ACCT-8842", audit, "--field", "*", "-f", "jsonl").stdout)
    fields = {(h["locator"], m["field"]) for h in every for m in h["matches"]}
    assert ("f0:0", "toolCalls[0].args.account") in fields and ("h0", "content") in fields
    text = run_cli("grep", "read_ledger", audit, "--field", "toolName").stdout
    assert f"audit.json:{DEEP}:tool:toolName: read_ledger" in text.splitlines()


def test_ignore_case_and_fixed_strings(audit: str) -> None:
    assert run_cli("grep", "acct-8842", audit).exit_code == 1
    assert run_cli("grep", "-i", "acct-8842", audit).exit_code == 0
    assert run_cli("grep", "ACCT-88.2", audit).exit_code == 0
    assert run_cli("grep", "-F", "ACCT-88.2", audit).exit_code == 1
    bad = run_cli("grep", "ACCT-(", audit)
    assert bad.exit_code == 2 and "invalid regular expression" in bad.stderr
    assert run_cli("grep", "-F", "ACCT-(", audit).exit_code == 1


def test_anchors_work_per_line_and_lines_are_printed_singly(audit: str) -> None:
    result = run_cli("grep", "^refund", audit)
    assert result.stdout.splitlines()[0] == (
        f"audit.json:{DEEP}:tool: refund RF-9120 status: pending_approval"
    )


def test_offsets_are_code_points(tmp_path: Path) -> None:
    c = Convo()
    c.add("user", "résumé 😀 会议 ACCT-8842\u0301 done")  # emoji is 2 UTF-16 units, 1 code point
    path = c.write(tmp_path / "u.json")
    [hit] = jsonl(run_cli("grep", "ACCT", str(path), "-f", "jsonl").stdout)
    [match] = hit["matches"]
    assert hit["content"][match["start"] : match["end"]] == "ACCT"
    assert match["start"] == 12  # 13 in UTF-16 code units (the emoji is a pair), 21 in UTF-8


def test_lone_surrogate_content_is_searched(tmp_path: Path) -> None:
    c = Convo()
    c.add("tool", "cut \ud83d ACCT-8842", toolCallId="t", toolName="fetch")
    path = tmp_path / "lone.json"
    path.write_text(json.dumps(c.checkpoint()))  # ensure_ascii: the surrogate as \ud83d
    result = run_cli("grep", "ACCT", str(path), "-f", "jsonl")
    [hit] = jsonl(result.stdout)
    assert hit["matches"][0]["start"] == 6 and hit["content"] == "cut \ud83d ACCT-8842"
    assert "cut \\ud83d ACCT-8842" in run_cli("grep", "ACCT", str(path)).stdout


# --------------------------------------------------------------------------- sources, counts, exit


def test_count_and_files_with_matches(audit: str, tmp_path: Path) -> None:
    other = Convo()
    other.add("user", "Plan a trip").add("assistant", "Sure.")
    other.write(tmp_path / "other.json")
    count = run_cli("grep", "-c", "ACCT-8842", audit, "other.json")
    assert count.exit_code == 0
    n = len(jsonl(run_cli("grep", "ACCT-8842", audit, "-f", "jsonl").stdout))
    assert count.stdout == f"audit.json:{n}\nother.json:0\n"
    assert run_cli("grep", "-l", "ACCT-8842", audit, "other.json").stdout == "audit.json\n"
    rows = jsonl(run_cli("grep", "-c", "ACCT-8842", audit, "other.json", "-f", "jsonl").stdout)
    assert rows == [{"source": "audit.json", "count": n}, {"source": "other.json", "count": 0}]
    assert run_cli("grep", "-l", "x{9}", "other.json").exit_code == 1


def test_exit_2_when_a_source_fails_even_if_another_matched(audit: str, tmp_path: Path) -> None:
    (tmp_path / "broken.json").write_text('{"version": 1')
    decode_all = {"FOLDCTL_GREP_PREFILTER": "0"}
    proc = run_proc("grep", "ACCT-8842", "broken.json", audit, "missing.json", env=decode_all)
    assert proc.returncode == 2
    assert b"audit.json:h0:user: Audit account ACCT-8842" in proc.stdout
    err = proc.stderr.decode().splitlines()
    assert len(err) == 2 and err[0].startswith("foldctl: error: broken.json: byte")
    assert err[1] == "foldctl: error: missing.json: no such file"
    assert b"Traceback" not in proc.stderr
    nothing = run_proc("grep", "zzz", audit, env=decode_all)
    assert (nothing.returncode, nothing.stdout, nothing.stderr) == (1, b"", b"")


def test_the_prefilter_says_what_it_did_not_decode(audit: str, tmp_path: Path) -> None:
    # broken.json cannot hold ACCT-8842 in any decoding, so it is passed over undecoded,
    # and grep says so instead of reporting it checked.
    (tmp_path / "broken.json").write_text('{"version": 1')
    proc = run_proc("grep", "ACCT-8842", "broken.json", audit, "missing.json")
    assert proc.returncode == 2  # missing.json cannot be read at all
    assert b"audit.json:h0:user: Audit account ACCT-8842" in proc.stdout
    assert proc.stderr.decode().splitlines() == [
        "foldctl: error: missing.json: no such file",
        "foldctl: 1 of 2 source(s) not decoded: their bytes cannot hold a match, so they "
        "were not checked for errors (FOLDCTL_GREP_PREFILTER=0 decodes every one)",
    ]
    nothing = run_proc("grep", "zzz", audit)  # nothing failed: the note only if asked for
    assert (nothing.returncode, nothing.stdout, nothing.stderr) == (1, b"", b"")
    told = run_proc("grep", "zzz", audit, "--verbose")
    assert told.returncode == 1 and b"1 of 1 source(s) not decoded" in told.stderr


def test_quiet_prints_nothing_and_answers_by_its_exit_status(audit: str, tmp_path: Path) -> None:
    (tmp_path / "broken.json").write_text('{"version": 1, "history": [ACCT-8842')
    found = run_cli("grep", "-q", "ACCT-8842", audit)
    assert (found.exit_code, found.stdout, found.stderr) == (0, "", "")
    missing = run_cli("grep", "--quiet", "zzz", audit)
    assert (missing.exit_code, missing.stdout, missing.stderr) == (1, "", "")
    # as grep -q: a match wins over a source that could not be read (still named)
    both = run_cli("grep", "-q", "ACCT-8842", "broken.json", audit)
    assert (both.exit_code, both.stdout) == (0, "")
    assert both.stderr.startswith("foldctl: error: broken.json: byte")
    failed = run_cli("grep", "-q", "ACCT", "broken.json")
    assert (failed.exit_code, failed.stdout) == (2, "")


def test_only_matching_prints_each_match_alone(audit: str) -> None:
    result = run_cli("grep", "-o", r"RF-\d+|ACCT-\d+", audit)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines and all(line.rsplit(": ", 1)[1] in ("RF-9120", "ACCT-8842") for line in lines)
    assert "audit.json:h0:user: ACCT-8842" in lines
    assert not any("->" in line for line in lines)  # no fold context under a match
    full = run_cli("grep", r"RF-\d+|ACCT-\d+", audit, "-f", "jsonl").stdout
    assert len(lines) == sum(len(h["matches"]) for h in jsonl(full))
    assert run_cli("grep", "-o", "-v", "ACCT", audit).stdout == ""  # as grep -o -v: nothing


def test_a_gnu_escape_warns_once_that_patterns_are_python(audit: str) -> None:
    result = run_cli("grep", "-e", r"RF\|ACCT", "-e", r"\(x\)", audit)
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    assert warnings == [
        r"foldctl: warning: the pattern has \|, \(, \) as GNU grep writes them; patterns are "
        r"Python regular expressions, where \| matches a literal | (alternation is |; a "
        "group is (...); -F searches for a plain string)"
    ]
    assert result.exit_code == 1  # \| is a literal |: nothing matches
    for quiet in ([r"RF\\|ACCT"], ["-F", r"a\|b"], ["RF|ACCT"]):
        assert "warning" not in run_cli("grep", *quiet, audit).stderr, quiet


def test_count_and_files_are_per_source_as_grep_has_them(audit: str, tmp_path: Path) -> None:
    (tmp_path / "b.json").write_bytes((tmp_path / "audit.json").read_bytes())
    hits = jsonl(run_cli("grep", "ACCT-8842", audit, "-f", "jsonl").stdout)
    shown = ("expand", audit, "-f", "jsonl", "--include-detached", "--keep-frames")
    every = len(jsonl(run_cli(*shown).stdout))  # summaries are searched too
    count = run_cli("grep", "-c", "ACCT-8842", audit, "b.json")
    assert count.stdout.splitlines() == [f"audit.json:{len(hits)}", f"b.json:{len(hits)}"]
    inverted = run_cli("grep", "-c", "-v", "ACCT-8842", audit).stdout
    assert inverted == f"audit.json:{every - len(hits)}\n"  # the messages that do not match
    assert run_cli("grep", "-c", "-m", "1", "ACCT-8842", audit).stdout == "audit.json:1\n"
    assert (
        run_cli("grep", "-c", "-C", "2", "ACCT-8842", audit).stdout
        == count.stdout.split("\n")[0] + "\n"
    )
    listed = run_cli("grep", "-l", "-c", "ACCT-8842", audit, "b.json")  # -l wins, as in grep
    assert (listed.exit_code, listed.stdout) == (0, "audit.json\nb.json\n")
    none = run_cli("grep", "-l", "zzz", audit)
    assert (none.exit_code, none.stdout) == (1, "")


def test_directories_and_stores_expand(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "dir" / "sub").mkdir(parents=True)
    audit_monday().write(tmp_path / "dir" / "a.json")
    write_doc(tmp_path / "dir" / "sub" / "b.json", detached_convo())
    (tmp_path / "dir" / "notes.txt").write_text("ACCT-8842")
    store = tmp_path / "dir" / "s.db"
    with sqlite3.connect(store) as db:
        db.execute(
            "CREATE TABLE agent_sessions (session_id TEXT, format TEXT, saved_at INTEGER, "
            "envelope TEXT, owner TEXT, message_count INTEGER)"
        )
        env = {"format": "conversation-v1", "data": detached_convo(), "savedAt": 5}
        db.execute(
            "INSERT INTO agent_sessions VALUES ('s1', 'conversation-v1', 5, ?, 'ops', 4)",
            (json.dumps(env),),
        )
    db.close()
    result = run_cli("grep", "-c", "ACCT-8842", "dir")
    assert result.stdout.splitlines() == ["dir/a.json:3", "dir/s.db#s1:2", "dir/sub/b.json:2"]
    assert run_cli("grep", "-l", "W-55", "dir/s.db").stdout == "dir/s.db#s1\n"


def test_stdin(audit: str) -> None:
    data = Path(audit).read_bytes()
    result = run_cli("grep", "-c", "ACCT-8842", "-", stdin=data)
    assert result.stdout == "<stdin>:3\n"


# --------------------------------------------------------------------------- terminal safety


def test_content_is_never_markup_nor_control(tmp_path: Path) -> None:
    c = Convo()
    c.add("tool", "[bold red]ACCT[/] \x1b]8;;http://evil\x07link\x1b]8;;\x07 :smile: \u202e",
          toolCallId="t", toolName="fetch")  # fmt: skip
    path = c.write(tmp_path / "h.json")
    out = run_cli("grep", "ACCT", str(path), "--color", "always").stdout
    assert "\x1b]8" not in out and "\x07" not in out
    assert "\\x1b]8;;http://evil\\x07" in out and "\\u202e" in out
    assert "[bold red]" in out and ":smile:" in out  # shown literally, never interpreted
    assert "\x1b[" in out  # the match itself is highlighted
    plain = run_cli("grep", "ACCT", str(path)).stdout
    assert "\x1b" not in plain


# --------------------------------------------------------------------------- formats and goldens


def test_json_is_the_jsonl_objects_in_one_array(audit: str) -> None:
    as_json = json.loads(run_cli("grep", "ACCT-8842", audit, "-f", "json").stdout)
    assert as_json == jsonl(run_cli("grep", "ACCT-8842", audit, "-f", "jsonl").stdout)


def test_csv_has_one_row_per_match(audit: str) -> None:
    hits = jsonl(run_cli("grep", "e", audit, "-f", "jsonl").stdout)
    rows = list(csv.DictReader(io.StringIO(run_cli("grep", "e", audit, "-f", "csv").stdout)))
    assert list(rows[0]) == list(GREP_COLUMNS)
    assert len(rows) == sum(len(h["matches"]) for h in hits)
    first = hits[0]["matches"][1]
    assert (rows[1]["locator"], rows[1]["start"], rows[1]["text"]) == (
        hits[0]["locator"], str(first["start"]), first["text"],
    )  # fmt: skip


@pytest.mark.parametrize("fmt", ["text", "json", "jsonl", "csv", "tsv"])
def test_golden_grep(audit: str, fmt: str) -> None:
    result = run_cli("grep", "ACCT-8842|RF-9120", audit, "--field", "*", "--format", fmt)
    assert result.exit_code == 0
    check_golden(f"grep.{fmt}", result.stdout_bytes)


def test_golden_grep_count_and_files(audit: str, tmp_path: Path) -> None:
    write_doc(tmp_path / "detached.json", detached_convo())
    count = run_cli("grep", "-c", "-i", "acct-8842", audit, "detached.json")
    files = run_cli("grep", "-l", "W-55", audit, "detached.json")
    check_golden("grep_count.text", count.stdout_bytes + b"--\n" + files.stdout_bytes)
