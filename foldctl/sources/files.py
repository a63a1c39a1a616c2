"""A SOURCE's bytes: a path read (mapped when large), or bytes already read, gunzipped.

The library never reads standard input: the command line reads it once and
hands its bytes over as a :class:`RawSource` named ``<stdin>``.
"""

from __future__ import annotations

import mmap
import os
import zlib
from pathlib import Path
from typing import Final

import msgspec

from foldctl.errors import InputError, UsageError, cannot_read

GZIP_MAGIC: Final = b"\x1f\x8b"
SQLITE_MAGIC: Final = b"SQLite format 3\x00"

#: The most bytes foldctl will decompress from one ``.gz`` (a gzip bomb guard).
#: Override with the environment variable ``FOLDCTL_MAX_INPUT_BYTES``.
DEFAULT_MAX_INPUT_BYTES: Final = 4 * 1024**3


def max_input_bytes() -> int:
    value = os.environ.get("FOLDCTL_MAX_INPUT_BYTES")
    return int(value) if value and value.isdigit() else DEFAULT_MAX_INPUT_BYTES


#: Files at least this large are mapped read-only instead of copied into memory.
#: ``FOLDCTL_NO_MMAP=1`` turns mapping off (a file truncated by another process
#: while it is mapped ends the reader with SIGBUS; renaming a new file into
#: place, as writers usually do, is safe).
MMAP_MIN_BYTES: Final = 64 * 1024 * 1024

Buffer = bytes | mmap.mmap


class RawSource(msgspec.Struct, frozen=True):
    name: str  # how the source is named in messages and output
    data: Buffer  # decompressed bytes, or a read-only map of an uncompressed file


def _read_file(path: Path) -> Buffer:
    with path.open("rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size >= MMAP_MIN_BYTES and not os.environ.get("FOLDCTL_NO_MMAP"):
            with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as probe:
                if probe[:2] != GZIP_MAGIC:
                    return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        return f.read()


#: What names a source in the library: a path (or ``STORE.db#SESSION_ID``), or bytes in hand.
SourceSpec = str | RawSource

STDIN_NAME: Final = "<stdin>"


def source_name(spec: SourceSpec) -> str:
    """How a source is named in messages and output."""
    return spec if isinstance(spec, str) else spec.name


def read_bytes(spec: SourceSpec) -> RawSource:
    """The bytes behind SOURCE, decompressing gzip (detected by its magic)."""
    if isinstance(spec, RawSource):
        name, data = spec.name, spec.data
    else:
        name = spec
        if spec == "-":
            raise UsageError(
                "'-' names standard input, which the library does not read: "
                "read it and pass the bytes"
            )
        try:
            data = _read_file(Path(spec))
        except OSError as e:
            denied = "permission denied (cannot read the file)"
            raise InputError(name, "", cannot_read(e, "a checkpoint file", denied=denied)) from None
    if isinstance(data, bytes) and (data[:2] == GZIP_MAGIC or (name.endswith(".gz") and not data)):
        data = _gunzip(name, data)
    return RawSource(name, data)


def _gunzip(name: str, data: bytes) -> bytes:
    if not data:
        raise InputError(name, "byte 0", "empty file; expected gzip data")
    limit = max_input_bytes()
    decompressor = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    out = bytearray()
    import gzip  # only for gzip data: a plain checkpoint never loads the module

    view = memoryview(data)
    try:
        chunk = decompressor.decompress(view, limit + 1 - len(out))
        out += chunk
        while decompressor.unconsumed_tail and len(out) <= limit:
            out += decompressor.decompress(decompressor.unconsumed_tail, limit + 1 - len(out))
        if len(out) > limit:
            raise InputError(
                name,
                "",
                f"decompresses to more than {limit} bytes (the limit; "
                "set FOLDCTL_MAX_INPUT_BYTES to raise it)",
            )
        out += decompressor.flush()
        # Concatenated gzip members (``cat a.gz b.gz``) are one stream to gzip(1).
        rest = decompressor.unused_data
        if rest.strip(b"\x00"):
            out += gzip.decompress(rest)
    except (zlib.error, gzip.BadGzipFile, EOFError) as e:
        consumed = len(data) - len(decompressor.unused_data)
        raise InputError(name, f"byte {consumed}", f"corrupt gzip data ({e})") from None
    if not decompressor.eof:
        raise InputError(name, f"byte {len(data)}", "truncated gzip data (stream ends early)")
    return bytes(out)


def decompress(name: str, data: bytes) -> bytes:
    """``data`` gunzipped when it is gzip (by its magic), else ``data`` as it is.

    For callers that read the stored bytes themselves (``report`` hashes them
    for its provenance footer) and still want :func:`read_bytes`'s gzip rules.
    """
    if data[:2] == GZIP_MAGIC:
        return _gunzip(name, data)
    return data
