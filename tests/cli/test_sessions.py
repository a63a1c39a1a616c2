"""``foldctl sessions STORE.db``: one row per session, in every table format, ready for a loop."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from foldctl.audit.checks import audit
from foldctl.formats.source import load_bytes
from foldctl.graph.resolve import detect_scheme, resolve
from foldctl.sources.store import list_session_sources
from tests.support import SAMPLES, run_cli, run_proc
from tools import make_store


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "sessions.db"
    make_store.write_store(path, make_store.sample_rows())
    return path


def listing(db: Path, *extra: str) -> list[dict[str, Any]]:
    result = run_cli("sessions", str(db), "--format", "jsonl", *extra)
    assert result.exit_code == 0
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_one_row_per_session_with_what_the_envelope_says(db: Path) -> None:
    rows = listing(db)
    expected = {r.session_id: r for r in make_store.sample_rows()}
    assert sorted(row["session"] for row in rows) == sorted(expected)
    for row in rows:
        stored = expected[row["session"]]
        envelope = json.loads(stored.envelope)
        conversation = envelope["data"]
        if envelope["format"] == "flowchart-v1":
            conversation = conversation["conversation"]
        assert row["source"] == f"{db}#{row['session']}"
        assert row["format"] == envelope["format"]
        assert (
            row["kind"]
            == {"conversation-v1": "conversation", "flowchart-v1": "paused run"}[envelope["format"]]
        )
        assert row["savedAtMs"] == envelope["savedAt"]
        assert row["messageCount"] == stored.message_count
        assert row["owner"] == stored.owner
        assert row["runId"] == conversation["runId"]
        assert row["liveMessages"] == len(conversation["history"])
        assert row["folds"] == len(conversation.get("folded", []))
        assert row["error"] is None


def test_owner_comes_from_the_store(db: Path) -> None:
    rows = {row["session"]: row for row in listing(db)}
    assert rows["envelope_conversation"]["owner"] == "user-7"
    assert rows["nested_chain"]["owner"] is None
    assert rows["envelope_paused"]["kind"] == "paused run"


def test_newest_first(db: Path) -> None:
    times = [row["savedAtMs"] for row in listing(db)]
    assert times == sorted(times, reverse=True)


def test_saved_at_is_iso_utc(db: Path) -> None:
    for row in listing(db):
        assert row["savedAt"].endswith("Z") and "T" in row["savedAt"]


def test_findings_count_what_verify_would_report(db: Path) -> None:
    rows = {row["session"]: row for row in listing(db)}
    for row in rows.values():
        target = make_store.sample_rows()
        stored = next(r for r in target if r.session_id == row["session"])
        checkpoint = load_bytes(stored.envelope, row["source"])
        found = audit(resolve(checkpoint, detect_scheme(checkpoint)[0]))
        assert row["findings"] == len(found)
        assert row["worst"] == (found[0].severity if found else None)
    # the forged sample is the one a reviewer must not miss
    assert rows["forged_frame"]["findings"] > 0
    assert rows["forged_frame"]["worst"] == "warning"


def test_each_source_feeds_back_into_foldctl(db: Path) -> None:
    """`foldctl sessions STORE --format jsonl | jq -r .source | xargs -n1 foldctl show` works."""
    for row in listing(db):
        shown = run_cli("show", row["source"], "--format", "json")
        assert shown.exit_code == 0
        assert json.loads(shown.stdout)["runId"] == row["runId"]
    assert [row["source"] for row in listing(db)] == list_session_sources(str(db))


def test_json_is_the_same_rows_as_one_document(db: Path) -> None:
    result = run_cli("sessions", str(db), "--format", "json")
    assert json.loads(result.stdout) == listing(db)


def test_rows_follow_the_published_schema(db: Path, tmp_path: Path) -> None:
    import jsonschema

    from foldctl import schemas

    document = json.loads(run_cli("sessions", str(db), "--format", "json").stdout)
    jsonschema.validate(document, schemas.load("sessions"))
    for row in listing(db):
        jsonschema.validate(row, schemas.record_schema("sessions"))


def test_csv_and_tsv_have_a_header_and_a_line_per_session(db: Path) -> None:
    rows = listing(db)
    text = run_cli("sessions", str(db), "--format", "csv").stdout
    parsed = list(csv.DictReader(io.StringIO(text)))
    assert [r["source"] for r in parsed] == [r["source"] for r in rows]
    assert parsed[0]["folds"] == str(rows[0]["folds"])
    tsv = run_cli("sessions", str(db), "--format", "tsv").stdout.splitlines()
    assert tsv[0].split("\t")[:3] == ["source", "session", "format"]
    assert len(tsv) == len(rows) + 1


def test_text_is_a_table_a_person_reads(db: Path) -> None:
    lines = run_cli("sessions", str(db)).stdout.splitlines()
    assert lines[0].split() == [
        "session",
        "kind",
        "savedAt",
        "messageCount",
        "liveMessages",
        "owner",
        "folds",
        "findings",
        "worst",
    ]
    paused = next(line for line in lines if line.startswith("envelope_paused "))
    assert "paused run" in paused


def test_markdown_is_refused(db: Path) -> None:
    result = run_proc("sessions", str(db), "--format", "markdown")
    assert result.returncode == 2
    assert b"sessions does not write markdown" in result.stderr


def test_one_session_with_its_source(db: Path) -> None:
    rows = listing(Path(f"{db}#multi_run"))
    assert [row["session"] for row in rows] == ["multi_run"]


def test_an_unreadable_session_is_listed_with_its_error_and_exit_2(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    rows = make_store.sample_rows()[:3]
    make_store.write_store(db, rows)
    conn = sqlite3.connect(db)
    conn.execute(
        'UPDATE agent_sessions SET envelope = \'{"format":"conversation-v2"}\' '
        "WHERE session_id = ?",
        (rows[1].session_id,),
    )
    conn.commit()
    conn.close()
    result = run_proc("sessions", str(db), "--format", "jsonl")
    assert result.returncode == 2
    listed = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(listed) == 3  # nothing dropped
    bad = next(r for r in listed if r["session"] == rows[1].session_id)
    assert "conversation-v2" in bad["error"] and bad["folds"] is None
    assert all(r["error"] is None for r in listed if r is not bad)
    err = result.stderr.decode()
    assert len(err.splitlines()) == 1 and f"{db}#{rows[1].session_id}" in err


def test_not_a_store(tmp_path: Path) -> None:
    plain = tmp_path / "checkpoint.json"
    plain.write_bytes(make_store.sample_rows()[0].envelope)
    for argv in (str(plain), str(tmp_path / "missing.db"), "-"):
        result = run_proc("sessions", argv)
        assert result.returncode == 2, argv
        assert len(result.stderr.splitlines()) == 1
        assert b"Traceback" not in result.stderr
    # A folder is listed for its session files: a checkpoint is not one (show reads it).
    folder = run_proc("sessions", str(tmp_path), "-f", "jsonl")
    assert (folder.returncode, folder.stdout) == (0, b"")
    assert folder.stderr.decode() == f"foldctl: looked in {tmp_path}\n"


def test_unknown_scheme_is_a_usage_error(db: Path) -> None:
    result = run_proc("sessions", str(db), "--scheme", "md5")
    assert result.returncode == 2
    assert b"unknown scheme 'md5'" in result.stderr


def test_the_bundled_sample_store_holds_the_bundled_samples() -> None:
    """sample_checkpoints/sessions.db is what tools/make_store.py writes now (no drift)."""
    bundled = SAMPLES / "sessions.db"
    rows = {row["session"]: row for row in listing(bundled)}
    expected = make_store.sample_rows()
    assert sorted(rows) == sorted(r.session_id for r in expected)
    conn = sqlite3.connect(f"file:{bundled}?mode=ro&immutable=1", uri=True)
    conn.text_factory = bytes
    try:
        stored = dict(conn.execute("SELECT session_id, envelope FROM agent_sessions"))
    finally:
        conn.close()
    for row in expected:
        assert stored[row.session_id.encode()] == row.envelope, row.session_id


def test_the_text_table_says_what_its_two_counts_are(db: Path) -> None:
    help_text = run_cli("sessions", "--help").stdout
    assert "messageCount is what the store recorded" in " ".join(help_text.split())
    last = run_cli("sessions", str(db)).stdout.splitlines()[-1]
    assert last.startswith("messageCount: the user and assistant messages with text in the live")
    assert "liveMessages: every message of the live window (history)" in last
    rows = listing(db)  # machine formats carry the rows alone
    assert all(set(row) >= {"messageCount", "liveMessages"} for row in rows)


def test_an_empty_session_file_is_refused_naming_the_formats(tmp_path: Path) -> None:
    empty = tmp_path / "session.jsonl"
    empty.write_bytes(b"\n")
    result = run_cli("show", str(empty))
    assert result.exit_code == 2
    assert result.stderr == (
        f"foldctl: error: {empty}: byte 0: the file is empty; expected one of: "
        "Claude Code session, Codex rollout, agentfootprint checkpoint\n"
    )
