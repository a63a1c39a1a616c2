"""The stored bytes of a source, hashed: what a report records so its evidence can be checked.

The size and xxh3-128 are of the bytes as stored — before any gzip
decompression, and for ``STORE.db#SESSION_ID`` of the whole store file — so
anyone holding the file can check it against the report (``xxh128sum FILE``).
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import xxhash

from foldctl.errors import InputError
from foldctl.sources.files import GZIP_MAGIC, RawSource, SourceSpec, source_name

Signature = tuple[int, int, int]  # size, mtime (ns), inode


class Stored(msgspec.Struct, frozen=True):
    """Facts about the stored bytes of one source."""

    path: Path | None  # the file hashed; None for bytes in hand (standard input)
    size: int
    xxh3_128: str  # lowercase hex
    gzip: bool


def evidence_path(spec: SourceSpec) -> Path | None:
    """The file whose bytes are the evidence: the file itself, or a store's file."""
    if isinstance(spec, RawSource):
        return None
    from foldctl.sources.store import split_source

    store = split_source(spec)
    return Path(spec if store is None else store.path)


def signature(path: Path | None) -> Signature | None:
    """Size, modification time and inode of ``path`` (None when it cannot be read)."""
    if path is None:
        return None
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns, st.st_ino


def hash_stored(spec: SourceSpec, before: Signature | None) -> Stored:
    """Hash the stored bytes of ``spec``; a file must still match ``before`` (its signature
    taken before it was loaded), so the hash is of the very bytes that were read."""
    name = source_name(spec)
    if isinstance(spec, RawSource):
        data = bytes(spec.data)
        return Stored(None, len(data), xxhash.xxh3_128_hexdigest(data), data[:2] == GZIP_MAGIC)
    path = evidence_path(spec)
    if path is None or before is None:
        raise InputError(name, "", "loaded, but there is no file at that path to hash")
    hasher = xxhash.xxh3_128()
    size = 0
    head = b""
    try:
        with path.open("rb") as f:
            while chunk := f.read(1 << 20):
                if not head:
                    head = chunk[:2]
                hasher.update(chunk)
                size += len(chunk)
    except OSError as e:
        raise InputError(name, "", f"cannot read it again to hash it: {e.strerror}") from None
    if signature(path) != before or size != before[0]:
        raise InputError(name, "", "changed while it was being read; read it again")
    return Stored(path, size, hasher.hexdigest(), head == GZIP_MAGIC)
