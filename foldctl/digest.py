"""Message digests: a stable id to cite a message and compare it across checkpoints.

``digest = "xxh3-128:" + xxh3_128_hexdigest(canonical(m))`` where ``m`` is the
message's own fields exactly as stored (foldctl's keys left out) and
``canonical(m)`` is ``orjson.dumps(m, option=orjson.OPT_SORT_KEYS)``: keys
sorted by code point at every level, no whitespace, non-ASCII as raw UTF-8,
``"``, ``\\`` and C0 controls escaped as orjson escapes them, numbers as
orjson writes them.

orjson cannot encode a string holding a lone UTF-16 surrogate (the reference
runtime writes one as the escape ``\\udXXX``; ``f_unicode`` in the
conformance corpus has one).  For such a message :func:`canonical` writes
(through :func:`foldctl.jsoncodec.encode_by_hand`)
exactly the bytes orjson would write if it could, with each lone surrogate as
the six-character lowercase escape ``\\udxxx`` — the form ``JSON.stringify``
uses.  Every other value in that message is still encoded by orjson itself,
so numbers and escapes are byte-for-byte the same as on the fast path (the
standard library's ``json`` writes some floats differently, e.g. ``1e-07``
where orjson writes ``1e-7``, so it is not used here).

The same message has the same digest wherever it sits: live or folded, at any
depth, in any checkpoint.  docs/output.md shows how to recompute a digest
with ``jq`` and Python.
"""

from __future__ import annotations

import re
from typing import Final

import xxhash

from foldctl.jsoncodec import dumps, dumps_chunks, holds_big_string
from foldctl.model import Message

PREFIX: Final = "xxh3-128:"
#: ``PREFIX`` followed by 32 lowercase hex digits.
DIGEST_FORM: Final = re.compile(r"xxh3-128:[0-9a-f]{32}")


def canonical(message: Message) -> bytes:
    """The bytes a digest hashes: ``orjson.dumps(message, option=OPT_SORT_KEYS)``,
    or for a message orjson refuses, what it would write (:func:`jsoncodec.dumps`)."""
    return dumps(message, sort_keys=True)


def digest(message: Message, *, huge: bool | None = None) -> str:
    """``xxh3-128:`` and 32 hex digits: the message's id across checkpoints.

    A redacted message (:mod:`foldctl.redact.apply`) carries the digest of its
    original, so a redacted output still cites the exact evidence.  A message that
    holds a huge string (:func:`foldctl.jsoncodec.holds_big_string`; ``huge`` says so
    when the caller has looked) is hashed in slices, its canonical bytes never made whole.
    """
    known: str | None = getattr(message, "original_digest", None)
    if known is not None:
        return known
    if not (holds_big_string(message) if huge is None else huge):
        return PREFIX + xxhash.xxh3_128_hexdigest(canonical(message))
    hasher = xxhash.xxh3_128()
    for chunk in dumps_chunks(message, sort_keys=True):
        hasher.update(chunk)
    return PREFIX + hasher.hexdigest()


def is_digest(text: str) -> bool:
    """Whether ``text`` has the form of a digest (``xxh3-128:`` + 32 lowercase hex)."""
    return DIGEST_FORM.fullmatch(text) is not None
