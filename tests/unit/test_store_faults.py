"""SQLite stores that went wrong: every fault gives an answer or one line, and changes nothing.

Each fault below is made on a real store (the reference schema, the bundled
samples as sessions), the way it happens in the field: a copy cut short, a
disk that flipped bytes, an agent killed mid-write, a WAL a tool garbled, a
table from somebody else's schema, a writer that holds the lock.  For every
one, ``sessions`` and ``show STORE#SESSION`` either answer (exit 0) or fail
with one line naming the store (exit 2) — never a traceback, never a wait
past the store's bounded lock wait — and the database, its ``-wal`` and its
``-shm`` stay byte-identical with no new file beside them.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from foldctl.sources import store
from tools import make_store

SESSION = "nested_chain"
#: A fault must be answered well inside this (the bounded lock wait is 2 s); a store that
#: made SQLite retry its WAL recovery took 10 s per command.
HANG = 8.0

# An agent killed mid-run: WAL mode, never checkpointed, the process gone without closing,
# so the -wal and -shm it wrote stay beside the database.
_CRASHED_WRITER = """
import os, sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA journal_mode = WAL")
conn.execute("PRAGMA wal_autocheckpoint = 0")
conn.execute("UPDATE agent_sessions SET saved_at = saved_at + 1")
os._exit(0)
"""


def rollback_store(folder: Path) -> Path:
    db = folder / "sessions.db"
    make_store.write_store(db, make_store.sample_rows(), wal=False)
    return db


def crashed_wal_store(folder: Path) -> Path:
    db = folder / "sessions.db"
    make_store.write_store(db, make_store.sample_rows())
    subprocess.run([sys.executable, "-c", _CRASHED_WRITER, str(db)], check=True, timeout=60)
    assert (folder / "sessions.db-wal").stat().st_size > 32
    assert (folder / "sessions.db-shm").exists()
    return db


def _truncate(path: Path, size: int) -> None:
    with path.open("r+b") as f:
        f.truncate(size)


def _poke(path: Path, offset: int, data: bytes) -> None:
    with path.open("r+b") as f:
        f.seek(offset)
        f.write(data)


def _page_size(db: Path) -> int:
    size = int.from_bytes(db.read_bytes()[16:18], "big")
    return 65536 if size == 1 else size


def truncated_db(folder: Path) -> Path:
    db = rollback_store(folder)
    _truncate(db, db.stat().st_size // 3)
    return db


def flipped_page(folder: Path) -> Path:
    """Page 2's b-tree header (its type byte and cell count) overwritten."""
    db = rollback_store(folder)
    _poke(db, _page_size(db), b"\xff\xff\xff\xff\xff\xff\xff\xff")
    return db


def truncated_wal(folder: Path) -> Path:
    db = crashed_wal_store(folder)
    wal = folder / "sessions.db-wal"
    _truncate(wal, 32 + (wal.stat().st_size - 32) // 2)  # cut inside its frames
    return db


def garbled_wal(folder: Path) -> Path:
    """The WAL header's magic kept, everything after it 0xff (the -shm no longer matches)."""
    db = crashed_wal_store(folder)
    _poke(folder / "sessions.db-wal", 4, b"\xff" * 28)
    return db


def garbled_shm(folder: Path) -> Path:
    db = crashed_wal_store(folder)
    _poke(folder / "sessions.db-shm", 0, os.urandom(96))
    return db


def missing_table(folder: Path) -> Path:
    db = folder / "sessions.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    conn.commit()
    conn.close()
    return db


def _loose_store(folder: Path, rows: list[tuple[object, ...]]) -> Path:
    db = folder / "sessions.db"
    conn = sqlite3.connect(db)
    conn.execute(
        "CREATE TABLE agent_sessions (session_id, format, saved_at, envelope, owner, message_count)"
    )
    conn.executemany("INSERT INTO agent_sessions VALUES (?, ?, ?, ?, ?, ?)", rows)
    conn.commit()
    conn.close()
    return db


def wrong_column_types(folder: Path) -> Path:
    """Numbers where text belongs and text where numbers belong."""
    envelope = make_store.sample_rows()[0].envelope
    return _loose_store(
        folder,
        [
            (SESSION, 42, "yesterday", 3.5, 7, "many"),
            ("other", "conversation-v1", b"\x00\x01", envelope, 12, -1),
        ],
    )


def garbage_envelope(folder: Path) -> Path:
    return _loose_store(folder, [(SESSION, "conversation-v1", 1, os.urandom(4096), None, None)])


def huge_envelope(folder: Path) -> Path:
    """A 64 MB envelope of zero bytes: refused by what it is, not by reading it all out."""
    return _loose_store(folder, [(SESSION, "conversation-v1", 1, bytes(64 << 20), None, None)])


@dataclass(frozen=True)
class Fault:
    make: Callable[[Path], Path]
    #: what a reader may answer: "error" (exit 2), "answer" (exit 0), or "either" when
    #: SQLite may or may not notice (a truncated WAL frame is dropped, as SQLite drops it)
    outcome: str
    #: words the one-line error must hold (any of them)
    words: tuple[str, ...] = ()


FAULTS: dict[str, Fault] = {
    "truncated database": Fault(truncated_db, "error", ("corrupt", "malformed")),
    "flipped page bytes": Fault(flipped_page, "error", ("corrupt", "malformed")),
    "truncated WAL": Fault(truncated_wal, "either", ("corrupt", "malformed")),
    "garbled WAL header": Fault(garbled_wal, "answer"),
    "garbled shared memory": Fault(garbled_shm, "answer"),
    "missing table": Fault(missing_table, "error", ("no table `agent_sessions`",)),
    "wrong column types": Fault(wrong_column_types, "error", ("column", "format")),
    "garbage envelope": Fault(garbage_envelope, "error", ("not UTF-8", "not valid JSON")),
    "huge envelope": Fault(huge_envelope, "error", ("not valid JSON", "not UTF-8", "empty")),
}


def snapshot(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def run(*argv: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "foldctl", *argv], capture_output=True, timeout=HANG, check=False
    )


@pytest.fixture(params=sorted(FAULTS), ids=lambda name: name.replace(" ", "-"))
def faulty(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Fault, Path]]:
    folder = tmp_path / "store"
    folder.mkdir()
    fault = FAULTS[request.param]
    yield fault, fault.make(folder)


@pytest.mark.parametrize("command", ["sessions", "show"])
def test_a_faulty_store_gets_one_line_or_an_answer_and_is_left_as_it_was(
    faulty: tuple[Fault, Path], command: str
) -> None:
    fault, db = faulty
    before = snapshot(db.parent)
    argv = [command, str(db)] if command == "sessions" else [command, f"{db}#{SESSION}"]
    result = run(*argv)
    err = result.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err
    assert snapshot(db.parent) == before  # byte-identical, and no new file beside them
    if result.returncode == 2:
        assert fault.outcome in ("error", "either"), err
        assert len(err.strip().splitlines()) == 1, err
        assert err.startswith(f"foldctl: error: {db}"), err
        assert len(err) < 1000  # the huge envelope is not quoted back
        assert any(word in err for word in fault.words), err
    else:
        assert fault.outcome in ("answer", "either"), (result.returncode, err)
        assert result.returncode in (0, 1), err
        assert result.stdout.strip()


def test_a_garbled_wal_is_read_from_a_private_copy_not_retried_in_place(tmp_path: Path) -> None:
    """SQLite retries for about ten seconds before it reads a WAL through a read-only
    shared memory that does not match; foldctl sees the mismatch first."""
    (tmp_path / "intact").mkdir()
    intact = crashed_wal_store(tmp_path / "intact")
    assert store.choose_access(str(intact)) == "wal-in-place"
    for make in (garbled_wal, garbled_shm, truncated_wal):
        folder = tmp_path / make.__name__
        folder.mkdir()
        db = make(folder)
        expected = "wal-in-place" if make is truncated_wal else "private-copy"
        assert store.choose_access(str(db)) == expected, make.__name__


def test_the_garbled_wal_store_answers_what_sqlite_itself_reads(tmp_path: Path) -> None:
    """The garbled WAL is ignored by SQLite's own recovery: the sessions are the database's."""
    db = garbled_wal(tmp_path)
    result = run("sessions", str(db), "--format", "jsonl")
    assert result.returncode == 0, result.stderr
    listed = {line.split(b'"session":"')[1].split(b'"')[0] for line in result.stdout.splitlines()}
    assert SESSION.encode() in listed


def _hold(db: Path, *pragmas: str) -> subprocess.Popen[str]:
    code = (
        "import sqlite3, sys\n"
        "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        f"for p in {list(pragmas)!r}: c.execute(p)\n"
        "c.execute('BEGIN EXCLUSIVE')\n"
        "c.execute('UPDATE agent_sessions SET saved_at = saved_at + 1')\n"
        "print('held', flush=True)\n"
        "sys.stdin.readline()\n"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", code, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    return holder


def _release(holder: subprocess.Popen[str]) -> None:
    assert holder.stdin is not None
    holder.stdin.close()
    holder.wait(timeout=60)


def test_an_exclusive_writer_on_a_wal_store_does_not_stop_a_reader(tmp_path: Path) -> None:
    """WAL readers take no lock a writer holds: the committed sessions are read at once."""
    db = crashed_wal_store(tmp_path)
    holder = _hold(db)
    try:
        result = run("show", f"{db}#{SESSION}")
        assert result.returncode == 0, result.stderr
    finally:
        _release(holder)


def test_an_exclusive_locking_mode_writer_gets_one_line_after_the_bounded_wait(
    tmp_path: Path,
) -> None:
    """``locking_mode = EXCLUSIVE`` keeps every reader out: foldctl waits its bounded time and
    says the store is locked, in one line."""
    db = tmp_path / "sessions.db"
    make_store.write_store(db, make_store.sample_rows())
    holder = _hold(db, "PRAGMA journal_mode = WAL", "PRAGMA locking_mode = EXCLUSIVE")
    try:
        before = snapshot(tmp_path)
        result = run("show", f"{db}#{SESSION}")
        err = result.stderr.decode()
        assert result.returncode == 2, err
        assert len(err.strip().splitlines()) == 1 and "locked" in err, err
        assert f"waited {store.BUSY_TIMEOUT_SECONDS:g}s" in err
        assert snapshot(tmp_path) == before
    finally:
        _release(holder)
