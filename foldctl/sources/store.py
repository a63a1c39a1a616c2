"""SQLite session stores, read where they lie and never changed.

The reference runtime keeps conversations in one SQLite file: a table
``agent_sessions(session_id, format, saved_at, envelope, owner,
message_count)`` whose ``envelope`` column is the JSON text of a
``conversation-v1`` or ``flowchart-v1`` envelope.  A SOURCE of the form
``STORE.db#SESSION_ID`` selects one session; a store is recognised by its
SQLite header, never by its name.

Evidence is read-only, and SQLite's ordinary read-only mode is not enough for
that: ``mode=ro`` still writes read marks into an existing ``-shm`` file and
creates ``-wal`` and ``-shm`` beside a WAL database that has none.  So the way
in is chosen from what lies beside the file (docs/stores.md has the
measurements behind each choice):

``wal-in-place``
    ``-wal`` and ``-shm`` both exist (a live writer, or one that stopped
    without closing): ``mode=ro&readonly_shm=1``.  SQLite maps the shared
    memory read-only, takes only shared locks, and reads every committed
    frame of the WAL, including the ones not yet checkpointed.
``immutable``
    a WAL-mode database with nothing beside it: ``immutable=1`` (no locks, no
    files).  The file's size and times are compared before and after; a
    change means a writer started meanwhile, and the read is done again.
``read-only``
    a rollback-journal database with no journal: ``mode=ro``, which takes a
    shared lock and creates nothing.
``private-copy``
    anything else (a ``-wal`` without ``-shm``, a ``-journal``, an SQLite
    older than 3.22, Windows, or an in-place open that failed): the database
    and its journal files are copied into a private temporary directory and
    the copy is opened; the copy is checked to have been taken while nothing
    changed, and is removed afterwards.
"""

from __future__ import annotations

import difflib
import math
import os
import re
import shutil
import sys
import tempfile
import urllib.parse
from datetime import datetime, timedelta, timezone
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Final, Literal

import msgspec

from foldctl.errors import InputError, cannot_read
from foldctl.jsoncodec import brief
from foldctl.sources.files import SQLITE_MAGIC

if TYPE_CHECKING:
    import sqlite3

Access = Literal["wal-in-place", "immutable", "read-only", "private-copy"]

TABLE: Final = "agent_sessions"
REQUIRED_COLUMNS: Final = ("session_id", "format", "saved_at", "envelope")
META_TABLE: Final = "agent_store_meta"
#: The newest ``agent_store_meta.schema_version`` foldctl reads.
SCHEMA_VERSION: Final = 1
KINDS: Final = {"conversation-v1": "conversation", "flowchart-v1": "paused run"}

#: How long a read waits on a lock held by another process before giving up.
BUSY_TIMEOUT_SECONDS: Final = 2.0
#: How many times a read is redone when the files change underneath it.
ATTEMPTS: Final = 3
_SIDE_FILES: Final = ("-wal", "-shm", "-journal")


def is_store(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a regular file that starts with the SQLite header."""
    try:
        with open(path, "rb") as f:
            return f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


class StoreSource(msgspec.Struct, frozen=True):
    """A SOURCE that names a store: the file, and the session (None: not given)."""

    path: str
    session_id: str | None

    @property
    def name(self) -> str:
        return self.path if self.session_id is None else source_of(self.path, self.session_id)


def source_of(path: str, session_id: str) -> str:
    """The SOURCE that selects one session: ``STORE.db#SESSION_ID``."""
    return f"{path}#{session_id}"


def split_source(spec: str) -> StoreSource | None:
    """Read SOURCE as a store reference, or None when it is not one.

    A path that exists as a file is that file (a store when it has the SQLite
    header, whatever its name, ``#`` included).  Otherwise SOURCE is split at
    the first ``#`` whose left side is an existing store, and the rest is the
    session id (which may itself contain ``#``); when the left side of every
    ``#`` is missing or not a store, the error says so.
    """
    if spec == "-":
        return None
    if os.path.isfile(spec):
        return StoreSource(spec, None) if is_store(spec) else None
    files = [i for i, c in enumerate(spec) if c == "#" and os.path.isfile(spec[:i])]
    if not files:
        if "#" in spec:
            first = spec[: spec.index("#")]
            raise InputError(
                spec, "", f"no such file (nor a store {first!r} to select a session from)"
            )
        return None
    for i in files:
        if is_store(spec[:i]):
            return StoreSource(spec[:i], spec[i + 1 :])
    path = spec[: files[0]]
    raise InputError(
        path,
        "",
        "is not a SQLite session store (it does not start with the SQLite header; an "
        f"encrypted store must be decrypted first), so '#{spec[files[0] + 1 :]}' cannot "
        "select a session in it",
    )


# --------------------------------------------------------------------------- opening


def _header(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read(100)
    except OSError as e:
        what = cannot_read(
            e, "a SQLite session store", denied="permission denied (cannot read the store)"
        )
        raise InputError(path, "", what) from None


def _signature(path: str) -> tuple[tuple[str, int, int, int] | None, ...]:
    """Identity, size and modification time of the database and each journal beside it."""
    sig: list[tuple[str, int, int, int] | None] = []
    for suffix in ("", *_SIDE_FILES):
        try:
            st = os.stat(path + suffix)
        except OSError:
            sig.append(None)
            continue
        sig.append((suffix, st.st_ino, st.st_size, st.st_mtime_ns))
    return tuple(sig)


def _uri(path: str, query: str) -> str:
    return "file:" + urllib.parse.quote(os.path.abspath(path)) + "?" + query


def choose_access(path: str) -> Access:
    """How :class:`Store` will open ``path``, from what lies beside it (see the module doc)."""
    import sqlite3

    beside = {s for s in _SIDE_FILES if os.path.exists(path + s)}
    wal_capable = sqlite3.sqlite_version_info >= (3, 22, 0) and sys.platform != "win32"
    if beside == {"-wal", "-shm"} and wal_capable and wal_readable_in_place(path):
        return "wal-in-place"
    if beside:
        return "private-copy"
    header = _header(path)
    # Either version byte at 2 makes SQLite treat the file as WAL-mode (and create a -wal
    # and -shm beside it if opened any other way): read it immutable.
    if len(header) >= 20 and (header[18] == 2 or header[19] == 2):
        return "immutable"
    return "read-only"


_WAL_MAGIC: Final = (0x377F0682, 0x377F0683)
_WAL_VERSION: Final = 3007000


def _wal_checksum(data: bytes, byteorder: Literal["little", "big"]) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` (a multiple of 8 bytes) read as ``byteorder`` words."""
    s0 = s1 = 0
    for i in range(0, len(data), 8):
        s0 = (s0 + int.from_bytes(data[i : i + 4], byteorder) + s1) & 0xFFFFFFFF
        s1 = (s1 + int.from_bytes(data[i + 4 : i + 8], byteorder) + s0) & 0xFFFFFFFF
    return s0, s1


def _words(data: bytes, byteorder: Literal["little", "big"]) -> tuple[int, int]:
    return int.from_bytes(data[0:4], byteorder), int.from_bytes(data[4:8], byteorder)


def wal_readable_in_place(path: str) -> bool:
    """Whether SQLite can read ``path``'s WAL through a read-only ``-shm`` without recovery.

    A reader whose shared memory is read-only cannot rebuild the WAL index; when
    the ``-shm`` header is not intact, or disagrees with the ``-wal`` header (a
    garbled or truncated WAL, a stale ``-shm``), SQLite retries for about ten
    seconds before it answers.  Such a store is read from a private copy, where
    SQLite recovers at once, exactly as any other reader of the files would.
    """
    try:
        with open(path + "-wal", "rb") as f:
            wal = f.read(32)
        with open(path + "-shm", "rb") as f:
            shm = f.read(96)
    except OSError:
        return False
    if len(shm) < 96 or shm[:48] != shm[48:96]:
        return False  # the two copies of the index header differ: mid-write, or garbled
    order = sys.byteorder  # the -shm is in the writer's native order
    header = shm[:48]
    if int.from_bytes(header[0:4], order) != _WAL_VERSION or header[12] != 1:
        return False
    if _wal_checksum(header[:40], order) != _words(header[40:48], order):
        return False
    frames = int.from_bytes(header[16:20], order)
    if len(wal) < 32:
        return frames == 0 and not wal  # an empty WAL with an index that says so
    magic = int.from_bytes(wal[0:4], "big")
    if magic not in _WAL_MAGIC or int.from_bytes(wal[4:8], "big") != _WAL_VERSION:
        return False
    # Summed in the byte order the magic names, stored big-endian like every WAL header field.
    if _wal_checksum(wal[:24], "big" if magic & 1 else "little") != _words(wal[24:32], "big"):
        return False
    return frames == 0 or header[32:40] == wal[16:24]  # the index's salts are the WAL's


class _Changed(Exception):
    """The files changed while an immutable read or a copy was being taken."""


def _sqlite_problem(e: Exception) -> str:
    """One sentence for an sqlite3 error: locked, corrupt, encrypted, unreadable.

    A message SQLite writes in bytes that are not UTF-8 (a garbled table name in
    "malformed database schema (...)") reaches Python as a ``UnicodeDecodeError``
    instead of the ``DatabaseError`` it is; its bytes are shown escaped.
    """
    if isinstance(e, UnicodeDecodeError):
        text = bytes(e.object).decode("utf-8", "backslashreplace")
    else:
        text = str(e)
    name = getattr(e, "sqlite_errorname", "")
    lowered = text.lower()
    if "locked" in lowered or "busy" in lowered or name.startswith("SQLITE_BUSY"):
        return (
            f"the database is locked by another process ({text}); foldctl waited "
            f"{BUSY_TIMEOUT_SECONDS:g}s and takes no lock that would make the writer wait"
        )
    if "not a database" in lowered or name == "SQLITE_NOTADB":
        return f"not a readable SQLite database: corrupt or encrypted ({text})"
    if "malformed" in lowered or "corrupt" in lowered or name.startswith("SQLITE_CORRUPT"):
        return f"the database is corrupt ({text})"
    if "unable to open" in lowered or name.startswith("SQLITE_CANTOPEN"):
        return f"cannot open the database ({text})"
    return f"SQLite error: {text}"


def _connect(uri: str) -> sqlite3.Connection:
    import sqlite3

    conn = sqlite3.connect(
        uri, uri=True, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None, check_same_thread=False
    )
    conn.text_factory = bytes  # JSON bytes reach the JSON reader untouched (offsets, bad UTF-8)
    conn.execute("PRAGMA query_only = ON")
    conn.execute("PRAGMA trusted_schema = OFF")
    return conn


def _copy_files(path: str, into: str) -> str:
    """Copy the database and its journal files; return the copy's path."""
    target = os.path.join(into, "store.db")
    for suffix in ("", *_SIDE_FILES):
        source = path + suffix
        if suffix and not os.path.exists(source):
            continue
        try:
            shutil.copyfile(source, target + suffix)
        except FileNotFoundError:
            if suffix:  # a journal that went away mid-copy: the signature check notices
                continue
            raise InputError(path, "", "no such file") from None
        except OSError as e:
            raise InputError(
                path, "", f"cannot copy {source!r} to read it safely: {e.strerror}"
            ) from None
    return target


def _decode(value: Any) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "surrogateescape")
    return str(value)


class SessionInfo(msgspec.Struct, frozen=True):
    """One row of ``agent_sessions`` without its envelope, values as stored."""

    store: str
    session_id: str
    format: str | None
    saved_at: int | float | str | None
    owner: str | None
    message_count: int | float | str | None  # None when NULL or the column is absent

    @property
    def source(self) -> str:
        return source_of(self.store, self.session_id)

    @property
    def kind(self) -> str:
        """``conversation`` or ``paused run`` (or the format as stored, when unknown)."""
        if self.format is None:
            return "(no format)"
        return KINDS.get(self.format, self.format)


class Store:
    """A session store opened for reading only (see the module doc for how).

    Use as a context manager; every query runs in one read transaction, so a
    listing and the envelopes read after it come from the same snapshot.
    """

    def __init__(self, path: str, access: Access | None = None) -> None:
        self.path = path
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        self._conn: sqlite3.Connection | None = None
        _header(path)  # a clear error for a missing or unreadable file
        if not is_store(path):
            raise InputError(
                path,
                "",
                "not a SQLite database (the file does not start with the SQLite header; "
                "an encrypted store must be decrypted first)",
            )
        self.access: Access = access or choose_access(path)
        self._before = _signature(path)
        try:
            self._open()
        except BaseException:
            self.close()
            raise

    # -- opening ---------------------------------------------------------------

    def _open(self) -> None:
        import sqlite3

        if self.access == "wal-in-place" and not all(
            os.path.exists(self.path + s) for s in ("-wal", "-shm")
        ):
            # In place without both files SQLite would create them: never.
            self.access = "private-copy"
        if self.access == "wal-in-place":
            try:
                self._conn = _connect(_uri(self.path, "mode=ro&readonly_shm=1"))
                self._begin()
                return
            except sqlite3.OperationalError as e:
                if "locked" in str(e).lower():
                    raise InputError(self.path, "", _sqlite_problem(e)) from None
                # e.g. the -shm went away between the look and the open: copy instead.
                self.close()
                self.access = "private-copy"
            except (sqlite3.DatabaseError, UnicodeDecodeError) as e:
                raise InputError(self.path, "", _sqlite_problem(e)) from None
        if self.access == "private-copy":
            self._open_copy()
            return
        query = "mode=ro&immutable=1" if self.access == "immutable" else "mode=ro"
        try:
            self._conn = _connect(_uri(self.path, query))
            self._begin()
        except (sqlite3.DatabaseError, UnicodeDecodeError) as e:
            raise InputError(self.path, "", _sqlite_problem(e)) from None

    def _open_copy(self) -> None:
        import sqlite3

        for _ in range(ATTEMPTS):
            self._tmp = tempfile.TemporaryDirectory(prefix="foldctl-store-")
            before = _signature(self.path)
            copy = _copy_files(self.path, self._tmp.name)
            if _signature(self.path) == before:
                break
            self._tmp.cleanup()
            self._tmp = None
        else:
            raise InputError(
                self.path,
                "",
                f"kept changing while foldctl copied it to read it safely ({ATTEMPTS} tries); "
                "copy the database with its -wal file yourself, or try again",
            )
        try:
            conn = sqlite3.connect(copy, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)
            conn.text_factory = bytes
            conn.execute("PRAGMA trusted_schema = OFF")
            conn.execute("PRAGMA query_only = ON")
            self._conn = conn
            self._begin()
        except (sqlite3.DatabaseError, UnicodeDecodeError) as e:
            raise InputError(self.path, "", _sqlite_problem(e)) from None

    def _begin(self) -> None:
        """One read transaction for everything read from this store, then check the schema."""
        conn = self._live()
        conn.execute("BEGIN")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()  # takes the snapshot
        self._columns = self._check_schema()

    def _live(self) -> sqlite3.Connection:
        if self._conn is None:
            raise InputError(self.path, "", "the store is closed")
        return self._conn

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        import sqlite3

        try:
            rows = self._live().execute(sql, params).fetchall()
        except (sqlite3.DatabaseError, UnicodeDecodeError) as e:
            raise InputError(self.path, "", _sqlite_problem(e)) from None
        if self.access == "immutable" and _signature(self.path) != self._before:
            raise _Changed()
        return rows

    def _check_schema(self) -> set[str]:
        found = self._query(
            "SELECT type, name, sql FROM sqlite_master WHERE lower(name) = ?", (TABLE,)
        )
        tables = [r for r in found if r[0] == b"table"]
        if not tables:
            if found:
                raise InputError(
                    self.path,
                    "",
                    f"`{TABLE}` is a {_decode(found[0][0])}, not the session store's table",
                )
            names = sorted(
                _decode(r[0])
                for r in self._query("SELECT name FROM sqlite_master WHERE type = 'table'")
            )
            shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
            raise InputError(
                self.path,
                "",
                f"not a session store: no table `{TABLE}` (tables found: {shown or 'none'})",
            )
        ddl = _decode(tables[0][2] or b"")
        if ddl.lstrip().upper().startswith("CREATE VIRTUAL"):
            raise InputError(
                self.path, "", f"`{TABLE}` is a virtual table, not the session store's table"
            )
        columns = {_decode(r[1]) for r in self._query(f"PRAGMA table_info({TABLE})")}
        missing = [c for c in REQUIRED_COLUMNS if c not in columns]
        if missing:
            raise InputError(
                self.path,
                f"table {TABLE}",
                f"not the session store's table: missing column(s) {', '.join(missing)} "
                f"(found: {', '.join(sorted(columns)) or 'none'})",
            )
        self._check_version()
        return columns

    def _check_version(self) -> None:
        meta = self._query(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND lower(name) = ?", (META_TABLE,)
        )
        if not meta:
            return
        try:
            rows = self._query(f"SELECT value FROM {META_TABLE} WHERE key = 'schema_version'")
        except InputError:
            return  # a meta table without those columns says nothing about the version
        if not rows:
            return
        value = _decode(rows[0][0]) if rows[0][0] is not None else "null"
        try:
            version = float(value)
        except ValueError:
            version = float("nan")
        if not version <= SCHEMA_VERSION:
            raise InputError(
                self.path,
                f"table {META_TABLE}",
                f"written with store schema version {value}; foldctl reads version "
                f"{SCHEMA_VERSION} and refuses to half-read a newer one",
            )

    # -- reading ---------------------------------------------------------------

    def _select(self, column: str) -> str:
        return column if column in self._columns else "NULL"

    def sessions(self) -> list[SessionInfo]:
        """Every session, newest ``saved_at`` first (then by id; unknown times last)."""
        rows = self._query(
            f"SELECT session_id, format, saved_at, {self._select('owner')}, "
            f"{self._select('message_count')} FROM {TABLE}"
        )
        infos = [self._info(row) for row in rows]
        infos.sort(key=lambda s: (_sort_time(s.saved_at), s.session_id))
        return infos

    def _info(self, row: tuple[Any, ...]) -> SessionInfo:
        session_id, fmt, saved_at, owner, count = row
        return SessionInfo(
            store=self.path,
            session_id=_decode(session_id) if session_id is not None else "",
            format=_decode(fmt) if fmt is not None else None,
            saved_at=_decode(saved_at) if isinstance(saved_at, bytes) else saved_at,
            owner=_decode(owner) if owner is not None else None,
            message_count=_decode(count) if isinstance(count, bytes) else count,
        )

    def _rows_for(self, session_id: str, columns: str) -> list[tuple[Any, ...]]:
        key = session_id.encode("utf-8", "surrogateescape")
        rows = self._query(
            f"SELECT {columns} FROM {TABLE} WHERE session_id = CAST(? AS TEXT)", (key,)
        )
        if not rows:  # ids stored as numbers or blobs compare only as text
            rows = self._query(
                f"SELECT {columns} FROM {TABLE} WHERE CAST(session_id AS TEXT) = CAST(? AS TEXT)",
                (key,),
            )
        if len(rows) > 1:
            raise InputError(
                source_of(self.path, session_id),
                "",
                f"{len(rows)} rows of {TABLE} have this session id; the store is damaged "
                "(session_id should be unique)",
            )
        if not rows:
            raise InputError(source_of(self.path, session_id), "", self._not_found(session_id))
        return rows

    def _not_found(self, session_id: str) -> str:
        ids = [_decode(r[0]) for r in self._query(f"SELECT session_id FROM {TABLE}")]
        near = difflib.get_close_matches(session_id, ids, n=3)
        hint = f"; did you mean {', '.join(near)}?" if near else ""
        return (
            f"no such session in this store ({len(ids)} sessions){hint} "
            f"(list them with `foldctl sessions {self.path}`)"
        )

    def info(self, session_id: str) -> SessionInfo:
        columns = (
            f"session_id, format, saved_at, {self._select('owner')}, "
            f"{self._select('message_count')}"
        )
        info = self._info(self._rows_for(session_id, columns)[0])
        # The id as asked for, so the SOURCE shown is the one the user typed.
        return SessionInfo(
            info.store, session_id, info.format, info.saved_at, info.owner, info.message_count
        )

    def envelope(self, session_id: str) -> bytes:
        """The envelope column of one session, as its bytes."""
        value = self._rows_for(session_id, "envelope")[0][0]
        if isinstance(value, bytes):
            return value
        found = "NULL" if value is None else f"a {type(value).__name__} ({brief(value)})"
        raise InputError(
            source_of(self.path, session_id),
            "column envelope",
            f"expected the JSON text of an envelope, found {found}",
        )

    # -- closing ---------------------------------------------------------------

    def close(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            finally:
                self._conn = None
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _retrying(path: str, work: Any) -> Any:
    """Run ``work(store)`` on a fresh snapshot, again if an immutable read saw a change."""
    for _ in range(ATTEMPTS):
        try:
            with Store(path) as store:
                return work(store)
        except _Changed:
            continue
    raise InputError(
        path, "", f"kept changing while being read ({ATTEMPTS} tries); a writer is busy, try again"
    )


# --------------------------------------------------------------------------- the library


def list_session_sources(path: str) -> list[str]:
    """``path#id`` for every session of the store, in :meth:`Store.sessions` order."""
    infos: list[SessionInfo] = _retrying(path, lambda store: store.sessions())
    return [info.source for info in infos]


def needs_session(path: str) -> InputError:
    """The error for a store given where one conversation is needed."""
    try:
        count = len(_retrying(path, lambda store: store.sessions()))
        held = f"with {count} session{'s' if count != 1 else ''}"
    except InputError:
        held = ""
    return InputError(
        path,
        "",
        f"is a SQLite session store{' ' + held if held else ''}; pick one as "
        f"{path}#SESSION_ID (list them with `foldctl sessions {path}`)",
    )


def read_session(target: StoreSource) -> tuple[SessionInfo, bytes]:
    """The row and the envelope bytes of the session ``target`` names (one snapshot)."""
    if target.session_id is None:
        raise needs_session(target.path)
    session_id = target.session_id
    if not session_id:
        raise InputError(
            target.name,
            "",
            f"empty session id; list the sessions with `foldctl sessions {target.path}`",
        )
    result: tuple[SessionInfo, bytes] = _retrying(
        target.path, lambda store: (store.info(session_id), store.envelope(session_id))
    )
    return result


def read_sessions(
    path: str, only: str | None = None
) -> list[tuple[SessionInfo, bytes | InputError]]:
    """Every session's row (or the one ``only`` names) with its envelope bytes, or the
    error that kept them from being read, from one snapshot."""

    def work(store: Store) -> list[tuple[SessionInfo, bytes | InputError]]:
        infos = store.sessions() if only is None else [store.info(only)]
        out: list[tuple[SessionInfo, bytes | InputError]] = []
        for info in infos:
            try:
                out.append((info, store.envelope(info.session_id)))
            except InputError as e:
                out.append((info, e))
        return out

    result: list[tuple[SessionInfo, bytes | InputError]] = _retrying(path, work)
    return result


# --------------------------------------------------------------------------- savedAt

_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
_ISO = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?"
    r"\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?"
)


def saved_at_ms(value: int | float | str | None) -> int | float | None:
    """``saved_at`` as epoch milliseconds: a number is taken as ms, text as a number or ISO-8601.

    Text without a zone is UTC (SQLite's ``CURRENT_TIMESTAMP`` writes UTC
    that way).  None when the value is absent or cannot be read as a time.
    """
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return value if math.isfinite(value) else None
    text = value.strip()
    if _NUMBER.fullmatch(text):
        number = float(text)
        if not math.isfinite(number):
            return None
        return int(number) if number.is_integer() else number
    m = _ISO.fullmatch(text)
    if m is None:
        return None
    year, month, day, hour, minute, second, fraction, zone = m.groups()
    try:
        moment = datetime(
            int(year),
            int(month),
            int(day),
            int(hour or 0),
            int(minute or 0),
            int(second or 0),
            tzinfo=timezone.utc,
        )
    except ValueError:
        return None
    if zone and zone not in ("Z", "z"):
        sign = -1 if zone[0] == "-" else 1
        digits = zone[1:].replace(":", "")
        offset = timedelta(hours=int(digits[:2]), minutes=int(digits[2:4] or 0))
        try:
            moment -= sign * offset
        except OverflowError:  # 0001-01-01T00:00:00+01:00: before the first representable time
            return None
    ms = int(moment.timestamp()) * 1000
    if fraction:
        ms += int((fraction + "000")[:3])
    return ms


def _sort_time(value: int | float | str | None) -> tuple[int, float]:
    ms = saved_at_ms(value)
    return (1, 0.0) if ms is None else (0, -float(ms))


def store_path(spec: str) -> StoreSource:
    """The store a ``sessions`` argument names: ``STORE.db`` or ``STORE.db#SESSION_ID``."""
    target = split_source(spec)
    if target is None:
        if spec == "-":
            raise InputError(
                "<stdin>", "", "a session store is read in place; give its path, not -"
            )
        _header(spec)
        if Path(spec).is_dir():
            raise InputError(spec, "", "is a directory; expected a SQLite session store")
        raise InputError(
            spec,
            "",
            "not a SQLite session store (the file does not start with the SQLite header; "
            "an encrypted store must be decrypted first)",
        )
    return target
