"""The library on both other runtimes: ``foldctl.open``, ``walk``, ``audit``, ``overview``,
``grep``, ``verify``, ``sessions``, redaction and the export's tables on a Claude Code
session and a Codex rollout, as a user calls them; and the commands that open a source
through the library, run as a user runs them, on both samples."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest

import foldctl
from foldctl import schemas
from foldctl.graph.open import open_graph
from foldctl.query.records import spans_table
from foldctl.query.transcript import transcript
from tests.support import SAMPLES, jsonl, run_cli, run_proc
from tests.support.sessions import SESSION, assistant, user, write_jsonl
from tools.generate_sessions import claude_cases

CLAUDE = SAMPLES / "claude_code_session.jsonl"
CODEX = SAMPLES / "codex_rollout.jsonl"


def validate(command: str, document: object, *, record: bool = False) -> None:
    schema = schemas.record_schema(command) if record else schemas.load(command)
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(document))
    assert not errors, f"{command}: {errors[0].message} at {list(errors[0].absolute_path)}"


@pytest.mark.parametrize("path", [CLAUDE, CODEX], ids=["claude-code", "codex"])
def test_open_walk_audit_and_overview(path: Path) -> None:
    c = foldctl.open(path)
    rows = list(c.walk())
    assert rows and all(r.line is not None for r in rows)
    lines = [r.line for r in rows]
    assert len(set(lines)) == len(lines)  # one row per record
    overview = c.overview()
    assert overview["format"] == c.format and overview["session"]["records"] > 0
    assert overview["counts"]["spans"] == 2
    validate("show", {**overview, "tree": list(overview["tree"])})
    graph, _ = open_graph(str(path))
    for obj in transcript(graph, include_detached=True).records():
        validate("expand", obj, record=True)
    for row in spans_table(graph).rows:
        validate("spans", row, record=True)
    assert {f.code for f in c.audit()} <= {"duplicate-record", "abandoned-branch", "opaque-summary"}


def test_expand_puts_back_what_the_claude_code_summary_left_out() -> None:
    c = foldctl.open(CLAUDE)
    first = c.spans[0]
    assert first.kind == "fold" and first.model is None
    texts = [r.message.get("toolUseResult") for r in c.walk() if r.span == 0]
    assert any("test_refund_currency_jpy" in json.dumps(t) for t in texts if t)


def test_grep_searches_what_the_view_shows_with_the_records_line() -> None:
    hits = list(foldctl.grep("test_refund_currency_jpy", [str(CLAUDE)], fixed=True))
    assert hits and all(isinstance(h.row.line, int) for h in hits)
    folded = [h for h in hits if h.row.span is not None]
    assert folded and folded[0].matches[0].field == "content"
    calls = list(foldctl.grep("CREATE TABLE customers", [str(CODEX)], fixed=True))
    assert {m.field for h in calls for m in h.matches} >= {"toolCalls[0].args", "content"}


def test_verify_a_folder_of_sessions(tmp_path: Path) -> None:
    shutil.copy(CLAUDE, tmp_path / CLAUDE.name)
    shutil.copy(CODEX, tmp_path / CODEX.name)
    report = foldctl.verify([str(tmp_path)])
    codes = {f.code for a in report.audits for f in a.findings}
    assert codes == {"duplicate-record", "abandoned-branch", "opaque-summary"}
    assert int(report.exit_status) == 1  # a duplicate-record is a warning


def test_sessions_lists_the_session_files_of_a_folder(tmp_path: Path) -> None:
    for name, data in claude_cases().items():
        path = tmp_path / "proj" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    shutil.copy(CODEX, tmp_path / CODEX.name)
    (tmp_path / "notes.json").write_text('{"a": 1}')
    listing = foldctl.sessions(tmp_path)
    assert isinstance(listing, foldctl.SessionFiles)
    rows = {Path(r["source"]).name: r for r in listing.rows}
    assert len(rows) == len(claude_cases()) + 1
    nested = rows["nested.jsonl"]
    assert (nested["format"], nested["folds"], nested["project"]) == (
        "claude-code",
        3,
        "/home/dev/payments-service",
    )
    assert nested["bytes"] == (tmp_path / "proj" / "nested.jsonl").stat().st_size
    assert nested["firstAt"] < nested["lastAt"]
    sub = next(r for name, r in rows.items() if name.startswith("agent-"))
    assert sub["parentSession"] == rows["subagent.jsonl"]["session"] and sub["agentId"]
    assert rows[CODEX.name]["format"] == "codex" and rows[CODEX.name]["folds"] == 2
    assert listing.note == f"looked in {tmp_path}"


def test_sessions_of_several_paths_with_excludes_and_their_failure(tmp_path: Path) -> None:
    both = foldctl.sessions([CLAUDE, str(CODEX)])
    assert isinstance(both, foldctl.SessionFiles) and both.failure() is None
    assert [r["format"] for r in both.rows] == ["claude-code", "codex"]
    shutil.copy(CLAUDE, tmp_path / CLAUDE.name)
    shutil.copy(CODEX, tmp_path / CODEX.name)
    (tmp_path / "cut.jsonl").write_bytes(CODEX.read_bytes()[:40])  # the first line, cut
    found = foldctl.sessions(tmp_path, exclude="codex_*")
    assert isinstance(found, foldctl.SessionFiles)
    rows = {Path(r["source"]).name: r for r in found.rows}
    assert sorted(rows) == [CLAUDE.name, "cut.jsonl"] and "error" in rows["cut.jsonl"]
    failure = found.failure()
    assert failure is not None and "cut.jsonl" in str(failure)
    store = foldctl.sessions(SAMPLES / "sessions.db")  # a store is listed as the command does
    assert isinstance(store, foldctl.SessionListing) and store.failure() is None


def test_the_session_folders_are_one_list(tmp_path: Path) -> None:
    import foldctl.mcp

    assert foldctl.SESSION_FOLDERS == ("~/.claude/projects", "~/.codex/sessions")
    assert foldctl.session_folders(str(tmp_path)) == []
    (tmp_path / ".codex" / "sessions").mkdir(parents=True)
    assert foldctl.session_folders(str(tmp_path)) == [str(tmp_path / ".codex" / "sessions")]
    served = foldctl.mcp.configure(home=str(tmp_path))
    assert served.roots.paths == (str(tmp_path / ".codex" / "sessions"),)


def test_the_sessions_command_lists_the_bundled_session_files() -> None:
    result = run_cli("sessions", str(SAMPLES))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == [
        "project", "session", "format", "firstAt", "lastAt", "records", "folds", "bytes"
    ]  # fmt: skip
    claude = next(line for line in lines if "claude-code" in line).split()
    assert claude == [
        "/home/dev/payments-service",
        "db5b5fab-8f4d-4e27-9da1-494c73cf256d",
        "claude-code",
        "2025-06-02T09:00:20.805Z",
        "2025-06-02T09:15:24.446Z",
        "50",
        "2",
        str(CLAUDE.stat().st_size),
    ]
    assert any(line.split()[2:3] == ["codex"] for line in lines[1:])
    assert lines[-1] == f"looked in {SAMPLES}"
    rows = jsonl(run_cli("sessions", str(CLAUDE), str(CODEX), "-f", "jsonl").stdout)
    validate("sessions", rows)
    assert [(r["source"], r["format"], r["folds"]) for r in rows] == [
        (str(CLAUDE), "claude-code", 2),
        (str(CODEX), "codex", 2),
    ]


def test_the_sessions_command_with_no_argument_looks_in_the_runtimes_folders(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    project = home / ".claude" / "projects" / "-home-dev-payments-service"
    project.mkdir(parents=True)
    shutil.copy(CLAUDE, project / "db5b5fab.jsonl")
    (home / ".codex" / "sessions").mkdir(parents=True)  # no rollout yet: an empty listing
    result = run_proc("sessions", "-f", "jsonl", env={"HOME": str(home)})
    assert result.returncode == 0, result.stderr
    [row] = jsonl(result.stdout.decode())
    assert row["format"] == "claude-code"
    assert row["session"] == "db5b5fab-8f4d-4e27-9da1-494c73cf256d"
    assert result.stderr.decode() == (
        f"foldctl: looked in {home}/.claude/projects, {home}/.codex/sessions "
        f"(no session files in {home}/.codex/sessions)\n"
    )


def test_the_sessions_command_takes_one_store_or_folders_not_both() -> None:
    result = run_cli("sessions", str(SAMPLES), str(SAMPLES / "sessions.db"))
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    assert "not a store among other paths" in result.stderr


def test_grep_only_matching_labels_each_match_with_the_role_shown() -> None:
    out = run_cli("grep", "-o", "NOT NULL", str(CODEX)).stdout.splitlines()
    assert out and all(":?:" not in line for line in out)
    assert f"{CODEX}:f0:6:assistant: NOT NULL" in out


def test_a_fold_filter_on_a_fact_a_runtime_does_not_record(tmp_path: Path) -> None:
    """A Claude Code fold records no model: no span passes --model, and the line says what
    there is; a time filter keeps the folds whose time is recorded and passes."""
    none = run_cli("spans", str(CLAUDE), "--model", "claude-opus")
    assert none.exit_code == 1 and 'no span with model "claude-opus"' in none.stderr
    late = jsonl(
        run_cli("spans", str(CLAUDE), "--since", "2025-06-02T09:10:00Z", "-f", "jsonl").stdout
    )
    assert [r["span"] for r in late] == [1]
    codex = jsonl(run_cli("spans", str(CODEX), "--model", "GPT-5-CODEX", "-f", "jsonl").stdout)
    assert [r["span"] for r in codex] == [0, 1]


def test_sessions_with_no_folder_says_where_it_looked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    listing = foldctl.sessions()
    assert listing.rows == [] and "~/.claude/projects and ~/.codex/sessions" in listing.note
    folder = tmp_path / ".claude" / "projects" / "-home-dev-shop"
    folder.mkdir(parents=True)
    write_jsonl(folder / f"{SESSION}.jsonl", [user("u1", None, "q"), assistant("a1", "u1", "a")])
    listing = foldctl.sessions()
    assert [r["session"] for r in listing.rows] == [SESSION]
    assert str(tmp_path / ".claude" / "projects") in listing.note


def test_redaction_of_a_session_keeps_the_join_and_the_lines(tmp_path: Path) -> None:
    from foldctl.redact.apply import redact_graph
    from foldctl.redact.redactor import Redactor

    path = write_jsonl(
        tmp_path / "s.jsonl",
        [user("u1", None, "mail jane.doe@example.com"), assistant("a1", "u1", "ok")],
    )
    graph, _ = open_graph(path)
    redacted = redact_graph(graph, Redactor(key=b"k" * 32))
    (first, second) = list(transcript(redacted).records())
    assert "jane.doe@example.com" not in json.dumps(first) and first["line"] == 1
    assert second["line"] == 2 and first["redactions"]


def test_the_export_tables_hold_sessions_with_their_format() -> None:
    from foldctl.query.tables import source_tables

    tables = source_tables(str(CLAUDE), version="test").tables
    assert set(tables["checkpoints"]["format"]) == {"claude-code"}
    assert tables["checkpoints"]["version"] == [None]
    spans = tables["spans"]
    assert spans["kind"] == ["fold", "fold", "abandoned"] and spans["model"] == [None] * 3
    messages = tables["messages"]
    assert all(isinstance(n, int) for n in messages["line"])
    assert "tool" in messages["role"] and "user" in messages["role"]


@pytest.mark.parametrize("path", [CLAUDE, CODEX], ids=["claude-code", "codex"])
@pytest.mark.parametrize(
    "argv",
    [
        ["show"],
        ["show", "-f", "json"],
        ["show", "-f", "markdown"],
        ["expand"],
        ["expand", "--keep-frames", "--include-detached"],
        ["expand", "-f", "jsonl"],
        ["expand", "-f", "markdown"],
        ["expand", "--only", "f0"],
        ["expand", "--depth", "1"],
        ["spans"],
        ["spans", "-f", "csv"],
        ["stages"],
        ["verify"],
        ["claims"],
        ["locate", "xxh3-128:00000000000000000000000000000000"],
    ],
    ids=lambda a: "-".join(a) if isinstance(a, list) else str(a),
)
def test_the_commands_read_both_runtimes(argv: list[str], path: Path) -> None:
    command, *options = argv
    args = [command, *options[:0], str(path), *options] if command != "locate" else [
        command, str(path), *options,
    ]  # fmt: skip
    result = run_cli(*args)
    assert result.exit_code in (0, 1), result.stderr
    assert "Traceback" not in result.stderr
    if "jsonl" in options:
        rows = jsonl(result.stdout)
        assert rows and all("line" in r for r in rows)


def test_a_pasted_transcript_counts_the_folds_show_counts() -> None:
    """The rewound branch of the Claude Code sample is a floating container, not a fold: the
    markdown transcript's head counts the folds ``show`` counts, and shows each summary, as
    its format shows it, as a claim before its originals."""
    shown = json.loads(run_cli("show", str(CLAUDE), "-f", "json").stdout)
    assert (shown["counts"]["spans"], shown["counts"]["abandoned"]) == (2, 1)
    text = run_cli("expand", str(CLAUDE), "-f", "markdown").stdout
    assert "- 9 live messages; 2 folds (2 retained, 0 discarded); 25 folded messages kept" in text
    claim = text.index("> **Claim.** The summary at `h0`")
    assert text.index("Fix the flaky refund rounding test; add a CHANGELOG entry", claim) > claim


def test_a_partial_session_says_so(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "s.jsonl", [user("u1", None, "q"), b"not json", user("u2", "u1", "q")]
    )
    shown = run_cli("show", path)
    assert shown.exit_code == 0 and "partial" in shown.stdout
    verified = run_cli("verify", path)
    assert (
        verified.exit_code == 1 and "bad-line" in verified.stdout and "(line 2)" in verified.stdout
    )


def test_diff_of_two_copies_of_one_session(tmp_path: Path) -> None:
    """An earlier copy of the session (before its last compaction) against the whole file:
    a fold added, nothing lost."""
    lines = CLAUDE.read_bytes().splitlines(keepends=True)
    boundary = max(i for i, line in enumerate(lines) if b'"compact_boundary"' in line)
    old = tmp_path / "old.jsonl"
    old.write_bytes(b"".join(lines[:boundary]))
    result = foldctl.diff(old, CLAUDE)
    kinds = {d["kind"] for d in result.differences}
    assert "span-added" in kinds and "span-removed" not in kinds
    assert result.lost_messages == 0


@pytest.mark.parametrize("path", [CLAUDE, CODEX], ids=["claude-code", "codex"])
def test_report_and_redaction_read_both_runtimes(path: Path, tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    assert run_cli("report", str(path), "-o", str(page)).exit_code == 0
    html = page.read_text(encoding="utf-8")
    assert "not recorded" in html and "line " in html
    key = tmp_path / "key"
    key.write_bytes(b"k" * 32)
    redacted = run_cli(
        "expand", str(path), "-f", "jsonl", "--redact", "--redact-key-file", str(key)
    )
    assert redacted.exit_code == 0 and len(jsonl(redacted.stdout)) >= 10
