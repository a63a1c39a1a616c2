"""Turning a SOURCE argument into bytes: a path, ``-`` for stdin, gzip."""

from __future__ import annotations

import gzip
import os
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from foldctl.errors import InputError

GZIP_MAGIC: Final = b"\x1f\x8b"
SQLITE_MAGIC: Final = b"SQLite format 3\x00"

#: The most bytes foldctl will decompress from one ``.gz`` (a gzip bomb guard).
#: Override with the environment variable ``FOLDCTL_MAX_INPUT_BYTES``.
DEFAULT_MAX_INPUT_BYTES: Final = 4 * 1024**3


def max_input_bytes() -> int:
    value = os.environ.get("FOLDCTL_MAX_INPUT_BYTES")
    return int(value) if value and value.isdigit() else DEFAULT_MAX_INPUT_BYTES


@dataclass(frozen=True, slots=True)
class RawSource:
    name: str  # how the source is named in messages and output
    data: bytes  # decompressed bytes


def read_bytes(spec: str) -> RawSource:
    """Read the bytes behind SOURCE, decompressing gzip (detected by its magic)."""
    if spec == "-":
        name, data = "<stdin>", sys.stdin.buffer.read()
    else:
        name = spec
        path = Path(spec)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise InputError(name, "", "no such file") from None
        except IsADirectoryError:
            raise InputError(name, "", "is a directory; expected a checkpoint file") from None
        except PermissionError:
            raise InputError(name, "", "permission denied (cannot read the file)") from None
        except OSError as e:
            raise InputError(name, "", f"cannot read: {e.strerror}") from None
    if data[:2] == GZIP_MAGIC or (name.endswith(".gz") and not data):
        data = _gunzip(name, data)
    return RawSource(name, data)


def _gunzip(name: str, data: bytes) -> bytes:
    if not data:
        raise InputError(name, "byte 0", "empty file; expected gzip data")
    limit = max_input_bytes()
    decompressor = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    out = bytearray()
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
