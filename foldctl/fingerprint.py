"""Summary fingerprint schemes.

The reference runtime's scheme, ``fnv1a32``, is 32-bit FNV-1a over the
string's UTF-16 code units (JavaScript ``charCodeAt``), written as lowercase
hex with no zero padding.  The xxHash schemes hash the UTF-8 bytes of the
content (a lone surrogate is encoded as its three-byte form, ``surrogatepass``)
and are written as lowercase hex of the digest.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import xxhash

_FNV_OFFSET: Final = 0x811C9DC5
_FNV_PRIME: Final = 0x01000193
_MASK: Final = 0xFFFFFFFF


#: Contents at least this long are looked up in :data:`_FNV_SEEN` before being hashed.
_FNV_MEMO_FROM: Final = 256
#: How many fingerprints of long contents are remembered (then forgotten all at once).
_FNV_MEMO_SIZE: Final = 65_536
#: BLAKE2b-128 of a content's UTF-8 -> its fnv1a32: the same summary is fingerprinted
#: again by every snapshot of a session in a fleet, and by both sides of a ``diff``.
_FNV_SEEN: dict[bytes, str] = {}


def fnv1a32(content: str) -> str:
    """32-bit FNV-1a over UTF-16 code units, unpadded lowercase hex.

    Pure Python (about 15 MB/s); only frames are fingerprinted, each frame once per
    scheme (:class:`foldctl.graph.resolve.FramePrints`).  A long content seen before in
    this process is recognised by its BLAKE2b digest (about 1 GB/s, and a collision
    cannot be crafted), so the same summary in many checkpoints is hashed once; the memo
    keeps digests, never the contents.
    """
    if len(content) < _FNV_MEMO_FROM:
        return _fnv1a32(content)
    from _blake2 import blake2b  # hashlib's own BLAKE2b, without loading OpenSSL's hashes

    key = blake2b(content.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    found = _FNV_SEEN.get(key)
    if found is None:
        found = _fnv1a32(content)
        if len(_FNV_SEEN) >= _FNV_MEMO_SIZE:
            _FNV_SEEN.clear()
        _FNV_SEEN[key] = found
    return found


def _fnv1a32(content: str) -> str:
    h = _FNV_OFFSET
    if content.isascii():
        units: bytes | memoryview = content.encode("ascii")
    else:
        units = memoryview(content.encode("utf-16-le", "surrogatepass")).cast("H")
    prime, mask = _FNV_PRIME, _MASK
    for u in units:
        h = ((h ^ u) * prime) & mask
    return format(h, "x")


def _utf8(content: str) -> bytes:
    return content.encode("utf-8", "surrogatepass")


def xxh32(content: str) -> str:
    return xxhash.xxh32_hexdigest(_utf8(content))


def xxh64(content: str) -> str:
    return xxhash.xxh64_hexdigest(_utf8(content))


def xxh3_64(content: str) -> str:
    return xxhash.xxh3_64_hexdigest(_utf8(content))


def xxh3_128(content: str) -> str:
    return xxhash.xxh3_128_hexdigest(_utf8(content))


Scheme = Callable[[str], str]

#: Every scheme foldctl knows, in detection order (the reference runtime's first).
SCHEMES: Final[dict[str, Scheme]] = {
    "fnv1a32": fnv1a32,
    "xxh32": xxh32,
    "xxh64": xxh64,
    "xxh3-64": xxh3_64,
    "xxh3-128": xxh3_128,
}

DEFAULT_SCHEME: Final = "fnv1a32"

#: Longest hex form each scheme can produce.
HEX_WIDTH: Final[dict[str, int]] = {
    "fnv1a32": 8,
    "xxh32": 8,
    "xxh64": 16,
    "xxh3-64": 16,
    "xxh3-128": 32,
}


def could_be(scheme: str, fingerprint: str) -> bool:
    """Whether ``fingerprint`` has a form ``scheme`` can produce.

    fnv1a32 is unpadded (1-8 hex digits, no leading zero unless it is "0");
    the xxHash digests are zero-padded to their full width.
    """
    width = HEX_WIDTH[scheme]
    if not fingerprint or any(c not in "0123456789abcdef" for c in fingerprint):
        return False
    if scheme == "fnv1a32":
        return len(fingerprint) <= width and (fingerprint == "0" or fingerprint[0] != "0")
    return len(fingerprint) == width


def require_scheme(name: str) -> str:
    """``name`` when it is a known scheme, else :class:`~foldctl.errors.UsageError`."""
    if name not in SCHEMES:
        from foldctl.errors import UsageError

        raise UsageError(f"unknown scheme {name!r}; choose from {', '.join(SCHEMES)}")
    return name
