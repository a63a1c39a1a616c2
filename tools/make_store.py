"""Write ``sample_checkpoints/sessions.db``: the bundled samples as a SQLite session store.

The store has the reference runtime's schema (``agent_sessions`` and
``agent_store_meta``, WAL journal mode) and one session per bundled sample,
each row filled the way the runtime fills it: ``format`` and ``saved_at``
from the envelope, ``envelope`` its compact JSON text, ``owner`` the
conversation's ``identity.principal`` (or NULL), and ``message_count`` the
number of user and assistant messages with text in the live window.  A bare
sample checkpoint is stored as a ``conversation-v1`` envelope saved at its
``checkpointedAt``.

The documents come from :mod:`tools.generate`, so the rows are the same on
every run; the file's bytes are too, for one SQLite version (the header
records the version that wrote it).

Usage: ``python -m tools.make_store [OUT.db]`` (default:
``sample_checkpoints/sessions.db``).  Tests import :func:`write_store` to build
stores of their own.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "sample_checkpoints" / "sessions.db"

#: The reference runtime's DDL (STRICT needs SQLite 3.37; older ones get the same table without it).
SESSIONS_DDL = (
    "CREATE TABLE agent_sessions (session_id TEXT PRIMARY KEY, format TEXT NOT NULL, "
    "saved_at INTEGER NOT NULL, envelope TEXT NOT NULL, owner TEXT, message_count INTEGER)"
)
META_DDL = "CREATE TABLE agent_store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
OWNER_INDEX = "CREATE INDEX agent_sessions_owner ON agent_sessions (owner, saved_at DESC)"
UPSERT = (
    "INSERT INTO agent_sessions (session_id, format, saved_at, envelope, owner, message_count) "
    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(session_id) DO UPDATE SET format = excluded.format, "
    "saved_at = excluded.saved_at, envelope = excluded.envelope, owner = excluded.owner, "
    "message_count = excluded.message_count"
)


@dataclass(frozen=True)
class Row:
    """One ``agent_sessions`` row."""

    session_id: str
    format: str
    saved_at: int | str
    envelope: bytes
    owner: str | None
    message_count: int | None

    def params(self) -> tuple[Any, ...]:
        text = self.envelope.decode("utf-8")
        return (self.session_id, self.format, self.saved_at, text, self.owner, self.message_count)


def _conversation(envelope: dict[str, Any]) -> dict[str, Any]:
    data = envelope["data"]
    return data["conversation"] if envelope["format"] == "flowchart-v1" else data  # type: ignore[no-any-return]


def row_for(session_id: str, envelope: dict[str, Any]) -> Row:
    """The row the reference store writes for ``envelope`` (``persist``)."""
    from foldctl import jsoncodec

    conversation = _conversation(envelope)
    identity = conversation.get("identity")
    principal = identity.get("principal") if isinstance(identity, dict) else None
    transcript = [
        m
        for m in conversation.get("history", [])
        if m.get("role") in ("user", "assistant")
        and isinstance(m.get("content"), str)
        and m["content"]
    ]
    return Row(
        session_id=session_id,
        format=envelope["format"],
        saved_at=envelope["savedAt"],
        envelope=jsoncodec.dumps(envelope),
        owner=principal if isinstance(principal, str) and principal else None,
        message_count=len(transcript),
    )


def as_envelope(document: dict[str, Any]) -> dict[str, Any]:
    """An envelope as is; a bare checkpoint as ``conversation-v1`` saved at ``checkpointedAt``."""
    if "format" in document:
        return document
    return {"format": "conversation-v1", "data": document, "savedAt": document["checkpointedAt"]}


def sample_rows() -> list[Row]:
    """One row per bundled sample; the session id is the sample's name without ``.json``."""
    from tools.generate import sample_checkpoints

    return [
        row_for(name.removesuffix(".json"), as_envelope(document))
        for name, document in sorted(sample_checkpoints().items())
    ]


def create_schema(conn: sqlite3.Connection) -> None:
    strict = " STRICT" if sqlite3.sqlite_version_info >= (3, 37, 0) else ""
    conn.execute(SESSIONS_DDL + strict)
    conn.execute(META_DDL + strict)
    conn.execute(OWNER_INDEX)
    conn.execute("INSERT INTO agent_store_meta (key, value) VALUES ('schema_version', '1')")


def write_store(path: str | os.PathLike[str], rows: Iterable[Row], *, wal: bool = True) -> None:
    """Create a store at ``path`` (replacing one there) holding ``rows``, and close it.

    With ``wal`` (the reference runtime's journal mode) the WAL is checkpointed
    and removed on close, so the store is one self-contained file.
    """
    target = Path(path)
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    conn = sqlite3.connect(target, isolation_level=None)
    try:
        conn.execute(f"PRAGMA journal_mode = {'WAL' if wal else 'DELETE'}")
        conn.execute("BEGIN")
        create_schema(conn)
        conn.executemany(UPSERT, [row.params() for row in rows])
        conn.execute("COMMIT")
        if wal:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


def main(argv: Sequence[str]) -> int:
    out = Path(argv[0]) if argv else DEFAULT_OUT
    rows = sample_rows()
    write_store(out, rows)
    sys.stdout.write(f"wrote {out} ({len(rows)} sessions, {out.stat().st_size} bytes)\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
