"""SQLite session stores: read in place, WAL included, and never changed by foldctl.

The store under test is the reference runtime's schema in WAL mode with a
writer that is still running in another process (as the agent would be): it
writes the newest turns into the WAL and never checkpoints, so the main
database file alone does not hold them.  foldctl must see them, and must
leave the database, its ``-wal`` and its ``-shm`` byte-identical with no new
file beside them, also when the directory cannot be written to.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from foldctl.errors import InputError
from foldctl.formats.source import load_session
from foldctl.sources import store
from tests.support import REPO, app, run_cli, run_proc
from tools import make_store
from tools.generate import GenSpec, RunSpec, generate, wrap_conversation_envelope

# A writer in its own process, as the agent is: WAL mode, no automatic checkpoint.
WRITER = """
import json, sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA journal_mode = WAL")
conn.execute("PRAGMA wal_autocheckpoint = 0")
print("ready", flush=True)
for line in sys.stdin:
    conn.execute(sys.argv[2], json.loads(line))
    print("ok", flush=True)
conn.close()
"""


class LiveWriter:
    """A process holding the store open and writing rows that stay in the WAL."""

    def __init__(self, db: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(db), make_store.UPSERT],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self._reply() == "ready"

    def _reply(self) -> str:
        assert self.proc.stdout is not None
        return self.proc.stdout.readline().strip()

    def put(self, row: Any) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(list(row.params())) + "\n")
        self.proc.stdin.flush()
        assert self._reply() == "ok"

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)


def newest_rows() -> list[Any]:
    """A newer turn of an existing session, and a session that did not exist before."""
    continued = generate(
        GenSpec(
            seed=11,
            story="ledger",
            runs=(RunSpec(tool_rounds=2, fold_at=(3,)), RunSpec(tool_rounds=3, fold_at=(2, 3))),
        )
    )
    fresh = generate(GenSpec(seed=99, story="incident", runs=(RunSpec(tool_rounds=5),)))
    return [
        make_store.row_for(
            "one_fold_conversation",
            wrap_conversation_envelope(continued, continued["checkpointedAt"]),
        ),
        make_store.row_for("late-turn", wrap_conversation_envelope(fresh, fresh["checkpointedAt"])),
    ]


@dataclass
class Live:
    db: Path
    newest: dict[str, bytes]  # session id -> the envelope only the WAL holds
    writer: LiveWriter


@pytest.fixture
def live_store(tmp_path: Path) -> Iterator[Live]:
    folder = tmp_path / "evidence"
    folder.mkdir()
    db = folder / "sessions.db"
    make_store.write_store(db, make_store.sample_rows())
    writer = LiveWriter(db)
    try:
        rows = newest_rows()
        for row in rows:
            writer.put(row)
        yield Live(db, {row.session_id: row.envelope for row in rows}, writer)
    finally:
        with contextlib.suppress(Exception):
            _chattr("-i", folder)
        writer.close()


def main_file_only(db: Path, scratch: Path) -> dict[str, bytes]:
    """The sessions the database file holds without its WAL (a copy of that one file)."""
    scratch.mkdir()
    shutil.copyfile(db, scratch / "alone.db")
    conn = sqlite3.connect(scratch / "alone.db")
    conn.text_factory = bytes
    try:
        return {
            sid.decode(): env
            for sid, env in conn.execute("SELECT session_id, envelope FROM agent_sessions")
        }
    finally:
        conn.close()


def snapshot(folder: Path) -> dict[str, str]:
    """Every file in ``folder`` and the SHA-256 of its bytes."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def _chattr(flag: str, path: Path) -> None:
    subprocess.run(["chattr", flag, str(path)], check=True, capture_output=True)


@contextlib.contextmanager
def read_only_directory(folder: Path) -> Iterator[None]:
    """Make ``folder`` unwritable for this process: chmod for a user, the immutable flag for root.

    Root ignores permission bits, so chmod 0555 alone would prove nothing
    there; ``chattr +i`` stops root too.  Skips when neither is possible.
    """
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
        return
    if shutil.which("chattr") is None:
        pytest.skip("running as root without chattr: cannot make a directory read-only for root")
    try:
        _chattr("+i", folder)
    except subprocess.CalledProcessError as e:
        pytest.skip(f"chattr +i is not supported here ({e.stderr.decode().strip()})")
    try:
        probe = folder / "probe"
        with pytest.raises(PermissionError):
            probe.write_bytes(b"")
        yield
    finally:
        _chattr("-i", folder)


def commands_over(source: str, db: str, out: Path) -> list[list[str]]:
    """Every command that reads a SOURCE, as a user would run it on one session of the store."""
    registered = set(app.commands)
    commands = [
        ["show", source],
        ["show", source, "--format", "json"],
        ["expand", source, "--format", "jsonl"],
        ["expand", source, "--include-detached", "--keep-frames"],
        ["spans", source, "--format", "csv"],
        ["stages", source],
        ["sessions", db],
        ["sessions", db, "--format", "jsonl"],
        ["fingerprint", "--join", source, "some pasted text"],
    ]
    optional = {
        "verify": ["verify", source, db],
        "grep": ["grep", "refund", source],
        "diff": ["diff", source, source],
        "report": ["report", source, "-o", str(out / "report.html")],
    }
    commands += [argv for name, argv in optional.items() if name in registered]
    return commands


# --------------------------------------------------------------------------- the WAL


def test_the_newest_rows_are_only_in_the_wal(live_store: Live, tmp_path: Path) -> None:
    """The fixture is what it claims: a live writer, a -wal and -shm, rows not checkpointed."""
    folder = live_store.db.parent
    assert sorted(p.name for p in folder.iterdir()) == [
        "sessions.db",
        "sessions.db-shm",
        "sessions.db-wal",
    ]
    assert (folder / "sessions.db-wal").stat().st_size > 0
    alone = main_file_only(live_store.db, tmp_path / "scratch")
    assert "late-turn" not in alone
    assert alone["one_fold_conversation"] != live_store.newest["one_fold_conversation"]
    assert store.choose_access(str(live_store.db)) == "wal-in-place"


def test_foldctl_sees_the_rows_only_the_wal_holds(live_store: Live, tmp_path: Path) -> None:
    db = str(live_store.db)
    listing = run_cli("sessions", db, "--format", "jsonl")
    assert listing.exit_code == 0
    rows = {r["session"]: r for r in map(json.loads, listing.stdout.splitlines())}
    assert "late-turn" in rows
    for session, envelope in live_store.newest.items():
        expected = json.loads(envelope)["data"]
        assert rows[session]["runId"] == expected["runId"]
        assert rows[session]["folds"] == len(expected.get("folded", []))
        shown = json.loads(run_cli("show", f"{db}#{session}", "--format", "json").stdout)
        assert shown["runId"] == expected["runId"]
        assert shown["counts"]["spans"] == len(expected.get("folded", []))
    # The continued session has the second run's folds, which only the WAL holds.
    older = main_file_only(live_store.db, tmp_path / "scratch")["one_fold_conversation"]
    assert rows["one_fold_conversation"]["folds"] > len(json.loads(older)["data"]["folded"])


def test_expand_of_a_session_equals_expand_of_its_exported_envelope(
    live_store: Live, tmp_path: Path
) -> None:
    """For every session: the store's bytes are exactly what a JSON export would give."""
    db = str(live_store.db)
    sources = store.list_session_sources(db)
    assert len(sources) == len(make_store.sample_rows()) + 1  # one new, one updated
    exported = tmp_path / "exported"
    exported.mkdir()
    with store.Store(db) as opened:
        envelopes = {
            info.session_id: opened.envelope(info.session_id) for info in opened.sessions()
        }
    assert envelopes["late-turn"] == live_store.newest["late-turn"]
    for source in sources:
        session = source.rpartition("#")[2]
        path = exported / f"{session}.json"
        path.write_bytes(envelopes[session])
        from_store = run_cli("expand", source, "--format", "jsonl", "--include-detached")
        from_file = run_cli("expand", str(path), "--format", "jsonl", "--include-detached")
        assert from_store.exit_code == from_file.exit_code == 0
        assert from_store.stdout_bytes == from_file.stdout_bytes, session
        assert from_store.stdout_bytes


def test_a_real_process_reads_the_wal_too(live_store: Live) -> None:
    proc = run_proc("show", f"{live_store.db}#late-turn", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    expected = json.loads(live_store.newest["late-turn"])["data"]["runId"]
    assert json.loads(proc.stdout)["runId"] == expected


def test_an_open_reader_does_not_stall_the_writer(live_store: Live) -> None:
    """While foldctl holds its snapshot, the agent still commits; the snapshot stays as it was."""
    with store.Store(str(live_store.db)) as opened:
        assert opened.access == "wal-in-place"
        before = {s.session_id for s in opened.sessions()}
        late = make_store.row_for(
            "written-while-reading", json.loads(live_store.newest["late-turn"])
        )
        live_store.writer.put(late)  # the writer's put fails (no "ok") if it cannot commit
        assert {s.session_id for s in opened.sessions()} == before
    assert f"{live_store.db}#written-while-reading" in store.list_session_sources(
        str(live_store.db)
    )


# --------------------------------------------------------------------------- read-only


def _assert_every_command_leaves_the_store_alone(folder: Path, db: Path, out: Path) -> None:
    before = snapshot(folder)
    for session in ("late-turn", "envelope_paused"):
        for argv in commands_over(f"{db}#{session}", str(db), out):
            result = run_cli(*argv)
            assert result.exit_code in (0, 1), (argv, result.stderr)
            assert result.stdout_bytes or result.exit_code == 1 or argv[0] == "report", argv
            assert snapshot(folder) == before, f"{argv} changed the evidence"


def test_every_command_leaves_store_wal_and_shm_byte_identical(
    live_store: Live, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    _assert_every_command_leaves_the_store_alone(live_store.db.parent, live_store.db, out)


def test_a_read_only_directory_with_a_live_writer(live_store: Live, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    folder = live_store.db.parent
    with read_only_directory(folder):
        _assert_every_command_leaves_the_store_alone(folder, live_store.db, out)
        listing = run_proc("sessions", str(live_store.db), "--format", "jsonl")
        assert b'"late-turn"' in listing.stdout


def crashed_copy(live: Live, tmp_path: Path, with_shm: bool) -> Path:
    """The store as a crashed writer leaves it (a WAL nobody checkpointed), with or without -shm."""
    folder = tmp_path / ("crashed-shm" if with_shm else "crashed")
    folder.mkdir()
    for suffix in ("", "-wal") + (("-shm",) if with_shm else ()):
        shutil.copyfile(f"{live.db}{suffix}", folder / f"sessions.db{suffix}")
    return folder / "sessions.db"


@pytest.mark.parametrize("read_only", [False, True], ids=["writable", "read-only-dir"])
def test_a_wal_without_shm_is_read_through_a_private_copy(
    live_store: Live, tmp_path: Path, read_only: bool
) -> None:
    """In place, SQLite would have to create the -shm; foldctl copies instead, and sees the WAL."""
    db = crashed_copy(live_store, tmp_path, with_shm=False)
    assert store.choose_access(str(db)) == "private-copy"
    out = tmp_path / "out"
    out.mkdir()
    context = read_only_directory(db.parent) if read_only else contextlib.nullcontext()
    with context:
        before = snapshot(db.parent)
        result = run_proc("show", f"{db}#late-turn", "--format", "json")
        assert result.returncode == 0, result.stderr
        assert snapshot(db.parent) == before
        _assert_every_command_leaves_the_store_alone(db.parent, db, out)
    expected = json.loads(live_store.newest["late-turn"])["data"]["runId"]
    assert json.loads(result.stdout)["runId"] == expected


def test_a_stale_shm_with_no_writer_is_read_in_place(live_store: Live, tmp_path: Path) -> None:
    db = crashed_copy(live_store, tmp_path, with_shm=True)
    assert store.choose_access(str(db)) == "wal-in-place"
    before = snapshot(db.parent)
    result = run_proc("sessions", str(db), "--format", "jsonl")
    assert result.returncode == 0, result.stderr
    assert b'"late-turn"' in result.stdout
    assert snapshot(db.parent) == before


def test_a_closed_wal_store_is_read_immutable_and_nothing_appears(tmp_path: Path) -> None:
    db = tmp_path / "sessions.db"
    make_store.write_store(db, make_store.sample_rows())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sessions.db"]
    assert store.choose_access(str(db)) == "immutable"
    before = snapshot(tmp_path)
    for argv in commands_over(f"{db}#nested_chain", str(db), tmp_path.parent):
        result = run_cli(*argv)
        assert result.exit_code in (0, 1), argv
        assert snapshot(tmp_path) == before, argv


def test_a_rollback_journal_store_is_read_read_only(tmp_path: Path) -> None:
    db = tmp_path / "sessions.db"
    make_store.write_store(db, make_store.sample_rows(), wal=False)
    assert store.choose_access(str(db)) == "read-only"
    before = snapshot(tmp_path)
    assert run_cli("show", f"{db}#multi_run").exit_code == 0
    assert run_cli("sessions", str(db)).exit_code == 0
    assert snapshot(tmp_path) == before


def test_every_way_in_reads_the_same_sessions(live_store: Live, tmp_path: Path) -> None:
    db = crashed_copy(live_store, tmp_path, with_shm=True)
    seen: dict[str, dict[str, bytes]] = {}
    accesses: tuple[store.Access, ...] = ("wal-in-place", "private-copy")
    for access in accesses:
        with store.Store(str(db), access=access) as opened:
            assert opened.access == access
            seen[access] = {s.session_id: opened.envelope(s.session_id) for s in opened.sessions()}
    assert seen["wal-in-place"] == seen["private-copy"]
    assert seen["wal-in-place"]["late-turn"] == live_store.newest["late-turn"]


# --------------------------------------------------------------------------- SOURCE syntax


def test_a_store_is_recognised_by_its_header_not_its_name(tmp_path: Path) -> None:
    db = tmp_path / "looks-like.json"
    make_store.write_store(db, make_store.sample_rows())
    assert store.is_store(db)
    assert not store.is_store(REPO / "pyproject.toml")
    assert not store.is_store(tmp_path / "missing.db")
    shown = json.loads(run_cli("show", f"{db}#nested_chain", "--format", "json").stdout)
    assert shown["shape"] == "conversation-v1"
    assert shown["source"] == f"{db}#nested_chain"


def test_a_path_with_hash_that_exists_is_a_file(tmp_path: Path) -> None:
    doc = make_store.sample_rows()[0]
    path = tmp_path / "ticket#42.json"
    path.write_bytes(doc.envelope)
    result = run_cli("show", str(path), "--format", "json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["source"] == str(path)


def test_a_session_id_may_contain_hash(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    base = make_store.sample_rows()[0]
    odd = make_store.Row("tenant#7/conv#1", base.format, base.saved_at, base.envelope, None, 1)
    make_store.write_store(db, [odd])
    assert store.list_session_sources(str(db)) == [f"{db}#tenant#7/conv#1"]
    result = run_cli("show", f"{db}#tenant#7/conv#1", "--format", "json")
    assert json.loads(result.stdout)["source"] == f"{db}#tenant#7/conv#1"


def expect_error(*argv: str) -> str:
    """Run a real process; it must fail with exit 2 and one line on stderr, no traceback."""
    result = run_proc(*argv)
    err = result.stderr.decode()
    assert result.returncode == 2, (argv, err, result.stdout[:200])
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    return err


def test_a_store_without_a_session_says_how_to_pick_one(tmp_path: Path) -> None:
    db = tmp_path / "sessions.db"
    make_store.write_store(db, make_store.sample_rows())
    err = expect_error("show", str(db))
    assert f"{db}#SESSION_ID" in err
    assert f"foldctl sessions {db}" in err
    assert "12 sessions" in err


def test_an_unknown_session_is_named_with_suggestions(tmp_path: Path) -> None:
    db = tmp_path / "sessions.db"
    make_store.write_store(db, make_store.sample_rows())
    err = expect_error("expand", f"{db}#nested_chian")
    assert f"{db}#nested_chian" in err
    assert "no such session" in err
    assert "nested_chain" in err


def test_a_store_on_stdin_is_refused_with_the_way_to_read_it(tmp_path: Path) -> None:
    db = tmp_path / "sessions.db"
    make_store.write_store(db, make_store.sample_rows())
    result = run_proc("show", "-", stdin=db.read_bytes())
    assert result.returncode == 2
    assert b"STORE.db#SESSION_ID" in result.stderr


def test_hash_after_a_file_that_is_not_a_store(tmp_path: Path) -> None:
    path = tmp_path / "plain.json"
    path.write_bytes(make_store.sample_rows()[0].envelope)
    err = expect_error("show", f"{path}#abc")
    assert "not a SQLite session store" in err
    assert str(path) in err


def test_hash_after_nothing(tmp_path: Path) -> None:
    err = expect_error("show", f"{tmp_path}/nowhere.db#abc")
    assert "no such file" in err


# --------------------------------------------------------------------------- bad stores


def raw_store(path: Path, ddl: str, rows: list[tuple[Any, ...]], extra: str = "") -> Path:
    conn = sqlite3.connect(path)
    conn.execute(ddl)
    if extra:
        conn.execute(extra)
    marks = ",".join("?" * len(rows[0])) if rows else ""
    for row in rows:
        conn.execute(f"INSERT INTO agent_sessions VALUES ({marks})", row)
    conn.commit()
    conn.close()
    return path


LOOSE_DDL = (
    "CREATE TABLE agent_sessions (session_id, format, saved_at, envelope, owner, message_count)"
)


def good_envelope() -> bytes:
    envelope: bytes = make_store.sample_rows()[0].envelope
    return envelope


def test_a_database_of_other_tables(tmp_path: Path) -> None:
    db = tmp_path / "other.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE invoices (id)")
    conn.commit()
    conn.close()
    err = expect_error("show", f"{db}#x")
    assert "no table `agent_sessions`" in err and "invoices" in err
    assert "no table `agent_sessions`" in expect_error("sessions", str(db))


def test_somebody_elses_agent_sessions_table(tmp_path: Path) -> None:
    db = raw_store(tmp_path / "other.db", "CREATE TABLE agent_sessions (id, data)", [])
    err = expect_error("sessions", str(db))
    assert "missing column(s) session_id, format, saved_at, envelope" in err


def test_a_view_named_agent_sessions(tmp_path: Path) -> None:
    db = tmp_path / "view.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE VIEW agent_sessions AS SELECT 1 AS session_id")
    conn.commit()
    conn.close()
    assert "is a view" in expect_error("show", f"{db}#1")


def test_an_envelope_that_is_not_json(tmp_path: Path) -> None:
    db = raw_store(
        tmp_path / "s.db", LOOSE_DDL, [("s1", "conversation-v1", 1, '{"format": ', None, 1)]
    )
    err = expect_error("show", f"{db}#s1")
    assert err.startswith(f"foldctl: error: {db}#s1: byte 11: not valid JSON")


def test_an_envelope_of_an_unknown_format(tmp_path: Path) -> None:
    envelope = good_envelope().replace(b'"conversation-v1"', b'"conversation-v9"', 1)
    db = raw_store(tmp_path / "s.db", LOOSE_DDL, [("s1", "conversation-v9", 1, envelope, None, 1)])
    err = expect_error("show", f"{db}#s1")
    assert f'{db}#s1: format: unknown envelope format "conversation-v9"' in err


def test_a_null_envelope(tmp_path: Path) -> None:
    db = raw_store(tmp_path / "s.db", LOOSE_DDL, [("s1", "conversation-v1", 1, None, None, 1)])
    err = expect_error("expand", f"{db}#s1")
    assert f"{db}#s1: column envelope: expected the JSON text of an envelope, found NULL" in err


def test_a_bare_checkpoint_where_an_envelope_belongs(tmp_path: Path) -> None:
    bare = json.dumps(json.loads(good_envelope())["data"])
    db = raw_store(tmp_path / "s.db", LOOSE_DDL, [("s1", "conversation-v1", 1, bare, None, 1)])
    assert "holds a bare checkpoint" in expect_error("show", f"{db}#s1")


def test_a_format_column_that_contradicts_the_envelope(tmp_path: Path) -> None:
    db = raw_store(
        tmp_path / "s.db", LOOSE_DDL, [("s1", "flowchart-v1", 1, good_envelope(), None, 1)]
    )
    err = expect_error("show", f"{db}#s1")
    assert 'column format: states "flowchart-v1" but the envelope is "conversation-v1"' in err


def test_a_store_from_a_newer_schema(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    make_store.write_store(db, make_store.sample_rows()[:1])
    conn = sqlite3.connect(db)
    conn.execute("UPDATE agent_store_meta SET value = '2' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    assert "schema version 2" in expect_error("sessions", str(db))


def test_a_store_from_before_the_owner_columns(tmp_path: Path) -> None:
    """Stores written before the runtime added owner and message_count are read (as null)."""
    row = make_store.sample_rows()[0]
    db = raw_store(
        tmp_path / "old.db",
        "CREATE TABLE agent_sessions (session_id TEXT PRIMARY KEY, format TEXT, "
        "saved_at INTEGER, envelope TEXT)",
        [(row.session_id, row.format, row.saved_at, row.envelope.decode())],
    )
    listed = json.loads(run_cli("sessions", str(db), "--format", "json").stdout)
    assert listed[0]["owner"] is None and listed[0]["messageCount"] is None
    assert listed[0]["folds"] == len(json.loads(row.envelope)["data"]["folded"])


def test_a_corrupt_database(tmp_path: Path) -> None:
    good = tmp_path / "good.db"
    make_store.write_store(good, make_store.sample_rows(), wal=False)
    data = bytearray(good.read_bytes())
    data[100:4096] = os.urandom(3996)  # the first page's b-tree: the schema is unreadable
    bad = tmp_path / "bad.db"
    bad.write_bytes(bytes(data))
    err = expect_error("show", f"{bad}#nested_chain")
    assert str(bad) in err
    assert "corrupt" in err or "not a readable SQLite database" in err


def test_an_encrypted_looking_file(tmp_path: Path) -> None:
    blob = tmp_path / "sessions.db"
    blob.write_bytes(os.urandom(8192))
    err = expect_error("show", f"{blob}#s1")
    assert "not a SQLite session store" in err and "encrypted" in err
    assert "encrypted" in expect_error("sessions", str(blob))


def test_a_locked_database_is_reported_not_waited_on_forever(tmp_path: Path) -> None:
    """A rollback-journal store whose writer holds an exclusive lock: one line, exit 2."""
    db = tmp_path / "s.db"
    make_store.write_store(db, make_store.sample_rows()[:2], wal=False)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3,sys\n"
            "c=sqlite3.connect(sys.argv[1],isolation_level=None)\n"
            "c.execute('BEGIN EXCLUSIVE')\nprint('held',flush=True)\nsys.stdin.readline()",
            str(db),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        err = expect_error("show", f"{db}#nested_chain")
        assert "locked" in err and str(db) in err
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=60)


def test_duplicate_session_ids_are_reported(tmp_path: Path) -> None:
    env = good_envelope()
    db = raw_store(
        tmp_path / "s.db",
        LOOSE_DDL,
        [("s1", "conversation-v1", 1, env, None, 1), ("s1", "conversation-v1", 2, env, None, 1)],
    )
    assert "2 rows of agent_sessions have this session id" in expect_error("show", f"{db}#s1")


# --------------------------------------------------------------------------- the library


def test_list_session_sources_and_load_session(tmp_path: Path) -> None:
    db = tmp_path / "sessions.db"
    rows = make_store.sample_rows()
    make_store.write_store(db, rows)
    sources = store.list_session_sources(str(db))
    assert sorted(sources) == sorted(f"{db}#{r.session_id}" for r in rows)
    for source in sources:
        target = store.split_source(source)
        assert target is not None and target.path == str(db)
        checkpoint = load_session(target)
        assert checkpoint.source == source
    with pytest.raises(InputError, match="is a SQLite session store"):
        load_session(store.StoreSource(str(db), None))


@pytest.mark.parametrize(
    ("stored", "ms"),
    [
        (1_796_010_091_118, 1_796_010_091_118),
        (1_796_010_091_118.5, 1_796_010_091_118.5),
        ("1796010091118", 1_796_010_091_118),
        ("2026-11-30T04:48:50.123Z", 1_796_014_130_123),
        ("2026-11-30 04:48:50", 1_796_014_130_000),  # SQLite CURRENT_TIMESTAMP: UTC, no zone
        ("2026-11-30T06:48:50.123+02:00", 1_796_014_130_123),
        ("2026-11-30T04:48:50.123456Z", 1_796_014_130_123),
        ("yesterday", None),
        (None, None),
    ],
)
def test_saved_at_as_number_or_text(stored: Any, ms: Any) -> None:
    assert store.saved_at_ms(stored) == ms
