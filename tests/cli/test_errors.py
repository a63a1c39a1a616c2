"""One error path: every failure is one ``foldctl: error:`` line on stderr, terminal-safe,
with the documented exit code — library errors, per-file failures and usage errors alike."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.support import SAMPLES, run_cli, run_proc

EVIL = "evil\x1b]0;pwned\x07.json"
SHOWN = "evil\\x1b]0;pwned\\x07.json"


def assert_one_safe_line(stderr: str, expected: str) -> None:
    lines = stderr.splitlines()
    assert lines, "nothing on stderr"
    for line in lines:
        assert line.startswith("foldctl: error: "), stderr
    assert "\x1b" not in stderr and "\x07" not in stderr, repr(stderr)
    assert any(expected in line for line in lines), (expected, stderr)


@pytest.fixture
def evil(tmp_path: Path) -> Path:
    """A directory holding one unreadable checkpoint whose name carries an OSC sequence."""
    folder = tmp_path / "dir"
    folder.mkdir()
    (folder / EVIL).write_bytes(b'{"version": 1, "history": ')
    return folder


def commands_naming(file: str, folder: str, tmp_path: Path) -> list[list[str]]:
    return [
        ["show", file],
        ["expand", file],
        ["spans", file],
        ["stages", file],
        ["locate", file, "xxh3-128:" + "0" * 32],
        ["report", file, "-o", str(tmp_path / "r.html")],
        ["diff", file, str(SAMPLES / "nested_chain.json")],
        ["fingerprint", "--join", file, "text"],
        ["verify", file],
        ["verify", folder],
        ["grep", "history", file],  # in its bytes, so it is decoded (and fails)
        ["grep", "history", folder],
    ]


@pytest.mark.parametrize("index", range(12))
def test_a_file_name_with_escapes_is_printed_escaped(
    evil: Path, tmp_path: Path, index: int
) -> None:
    args = commands_naming(str(evil / EVIL), str(evil), tmp_path)[index]
    proc = run_proc(*args)
    assert proc.returncode == 2, (args, proc.stderr)
    stderr = proc.stderr.decode("utf-8")
    assert "Traceback" not in stderr
    assert_one_safe_line(stderr, SHOWN)


def test_a_store_session_id_with_escapes_is_printed_escaped(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    con = sqlite3.connect(db)
    con.execute(
        "CREATE TABLE agent_sessions (session_id TEXT, format TEXT, saved_at TEXT, "
        "envelope TEXT, owner TEXT, message_count INTEGER)"
    )
    con.execute(
        "INSERT INTO agent_sessions VALUES (?, 'conversation-v1', '2026-01-01', 'junk', '', 0)",
        ("id\x1b[2J\nfoldctl: error: forged",),
    )
    con.commit()
    con.close()
    proc = run_proc("sessions", str(db))
    assert proc.returncode == 2
    stderr = proc.stderr.decode()
    assert len(stderr.splitlines()) == 1, stderr
    assert_one_safe_line(stderr, "id\\x1b[2J\\nfoldctl: error: forged")


def test_a_quoted_value_with_a_newline_cannot_forge_a_second_line(tmp_path: Path) -> None:
    path = tmp_path / "cp.json"
    path.write_text('{"format": "x\\nfoldctl: error: forged", "data": {}}')
    result = run_cli("show", str(path))
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert "\\nfoldctl: error: forged" in result.stderr


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["show", "{src}", "--format", "csv"], "show does not write csv"),
        (["show", "{src}", "--format", "yaml"], "no format 'yaml'"),
        (["expand", "{src}", "--depth", "-1"], "--depth"),
        (["report", "{src}"], "Missing option '--output'"),
        (["show"], "Missing argument 'SOURCE'"),
        (["show", "{src}", "--no-such-flag"], "No such option: --no-such-flag"),
        (["no-such-command"], "No such command 'no-such-command'"),
        (["show", "{src}", "--color", "purple"], "--color takes auto, always or never"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(args: list[str], expected: str) -> None:
    argv = [a.replace("{src}", str(SAMPLES / "nested_chain.json")) for a in args]
    proc = run_proc(*argv)
    assert proc.returncode == 2
    assert proc.stdout == b""
    stderr = proc.stderr.decode()
    assert len(stderr.splitlines()) == 1, stderr
    assert_one_safe_line(stderr, expected)


def test_debug_shows_the_traceback(tmp_path: Path) -> None:
    path = tmp_path / "cp.json"
    path.write_text("{")
    proc = run_proc("--debug", "show", str(path))
    assert proc.returncode != 0 and b"Traceback" in proc.stderr


def test_diff_of_standard_input_twice_says_it_is_read_once() -> None:
    result = run_cli("diff", "-", "-", stdin=b"{}")
    assert result.exit_code == 2
    assert "standard input can be read only once" in result.stderr


@pytest.mark.parametrize(
    "argv",
    [["show"], ["expand"], ["spans"], ["verify"], ["grep", "history"], ["claims"]],
    ids=lambda argv: argv[0],
)
def test_running_out_of_memory_is_one_line_naming_the_input(
    argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A checkpoint too large for the memory the process may use (a 407 MB file under a
    3 GB ``ulimit -v``) ends in one line and exit 2, not a MemoryError traceback."""

    def too_large(*_: object) -> None:
        raise MemoryError

    monkeypatch.setattr("foldctl.formats.agentfootprint.try_load", too_large)
    sample = str(SAMPLES / "nested_chain.json")
    result = run_cli(*argv, sample)
    assert result.exit_code == 2
    assert_one_safe_line(result.stderr, f"{sample}: out of memory")
    assert len(result.stderr.splitlines()) == 1
