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
from typing import Any, Final

import orjson
import xxhash

from foldctl.model import Message

PREFIX: Final = "xxh3-128:"
#: ``PREFIX`` followed by 32 lowercase hex digits.
DIGEST_FORM: Final = re.compile(r"xxh3-128:[0-9a-f]{32}")

_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def canonical(message: Message) -> bytes:
    """The bytes a digest hashes: ``orjson.dumps(message, option=OPT_SORT_KEYS)``."""
    try:
        return orjson.dumps(message, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError:
        return _canonical_with_surrogates(message)


def digest(message: Message) -> str:
    """``xxh3-128:`` and 32 hex digits: the message's id across checkpoints."""
    return PREFIX + xxhash.xxh3_128_hexdigest(canonical(message))


def is_digest(text: str) -> bool:
    """Whether ``text`` has the form of a digest (``xxh3-128:`` + 32 lowercase hex)."""
    return DIGEST_FORM.fullmatch(text) is not None


def _string(text: str) -> bytes:
    """A JSON string as orjson writes it, with lone surrogates as ``\\udxxx``."""
    if _SURROGATE.search(text) is None:
        return orjson.dumps(text)
    parts: list[bytes] = [b'"']
    last = 0
    for match in _SURROGATE.finditer(text):
        parts.append(orjson.dumps(text[last : match.start()])[1:-1])
        parts.append(f"\\u{ord(match.group()):04x}".encode("ascii"))
        last = match.end()
    parts.append(orjson.dumps(text[last:])[1:-1])
    parts.append(b'"')
    return b"".join(parts)


def _canonical_with_surrogates(value: Any) -> bytes:
    """orjson's sorted-key encoding, written by hand around strings orjson refuses.

    Iterative (an explicit stack), so nesting depth is bounded only by memory.
    ``bytes`` on the stack are literal output; anything else is a value to encode.
    """
    out: list[bytes] = []
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, bytes):
            out.append(item)
        elif isinstance(item, str):
            out.append(_string(item))
        elif isinstance(item, dict):
            todo: list[Any] = [b"{"]
            for n, key in enumerate(sorted(item)):
                if n:
                    todo.append(b",")
                todo += [_string(key), b":", item[key]]
            todo.append(b"}")
            stack.extend(reversed(todo))
        elif isinstance(item, list):
            todo = [b"["]
            for n, element in enumerate(item):
                if n:
                    todo.append(b",")
                todo.append(element)
            todo.append(b"]")
            stack.extend(reversed(todo))
        else:
            out.append(orjson.dumps(item))
    return b"".join(out)
