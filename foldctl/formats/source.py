"""A SOURCE to a :class:`~foldctl.model.Checkpoint`: read it, recognise its format, load it.

A source is a file (``.json``, ``.jsonl``, gzip or not), bytes in hand, or one session
of a SQLite store (``STORE.db#SESSION_ID``).  Its bytes are loaded through the input
format that recognises them (:mod:`foldctl.formats.registry`): an agentfootprint
checkpoint on the fast path (:mod:`foldctl.load.fast`) when it is in the reference
layout, else on the exact path (:mod:`foldctl.load.exact`), which loads it or names the
problem precisely; a Claude Code session or a Codex rollout by its own module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from foldctl.errors import InputError
from foldctl.formats import registry
from foldctl.load.exact import ENVELOPE_FORMATS, load_document
from foldctl.model import Checkpoint
from foldctl.sources.files import SQLITE_MAGIC, Buffer, RawSource, SourceSpec, read_bytes

if TYPE_CHECKING:
    from foldctl.sources.store import SessionInfo, StoreSource


def load_source(spec: SourceSpec) -> Checkpoint:
    """Read and load the checkpoint named by a SOURCE: a path, bytes in hand, or
    ``STORE.db#SESSION_ID``."""
    raw: RawSource | None
    if isinstance(spec, RawSource):
        raw = read_bytes(spec)
    else:
        raw = None if "#" in spec else read_bytes(spec)  # only STORE.db#ID names a session
    if raw is None or raw.data[: len(SQLITE_MAGIC)] == SQLITE_MAGIC:
        from foldctl.sources import store  # sqlite3 is loaded only when a store may be read

        target = None if isinstance(spec, RawSource) else store.split_source(spec)
        if target is not None:
            return load_session(target)  # without a session id: says how to pick one
        raw = raw or read_bytes(spec)  # a file whose name holds "#"
        if raw.data[: len(SQLITE_MAGIC)] == SQLITE_MAGIC:  # a store in hand, or gzipped
            raise InputError(
                raw.name,
                "",
                "is a SQLite session store; foldctl reads a store in place from its file: "
                "pass STORE.db#SESSION_ID (list sessions with `foldctl sessions STORE.db`)",
            )
    return load_bytes(raw.data, raw.name)


def load_bytes(data: Buffer, source: str) -> Checkpoint:
    """Load a checkpoint (or a session of another runtime) from its (decompressed) bytes,
    through the input format that recognises them."""
    return registry.load(data, source)


def load_object(document: Any, source: str = "<object>") -> Checkpoint:
    """Load a checkpoint from an already-decoded JSON document (a dict)."""
    return load_document(document, source)


def load_session(target: StoreSource) -> Checkpoint:
    """Load the checkpoint of one store session."""
    from foldctl.sources.store import read_session

    info, envelope = read_session(target)
    return checkpoint_of(info, envelope)


def checkpoint_of(info: SessionInfo, envelope: bytes) -> Checkpoint:
    """Load one session's envelope; it must be an envelope, of the format its row states."""
    checkpoint = registry.get(registry.DEFAULT).load(envelope, info.source)
    if checkpoint.shape == "checkpoint":
        raise InputError(
            info.source,
            "column envelope",
            "holds a bare checkpoint; a store row holds an envelope with `format` "
            f"{' or '.join(ENVELOPE_FORMATS)}",
        )
    if info.format != checkpoint.shape:
        stated = "NULL" if info.format is None else f'"{info.format}"'
        raise InputError(
            info.source,
            "column format",
            f'states {stated} but the envelope is "{checkpoint.shape}"; the row is inconsistent',
        )
    return checkpoint
