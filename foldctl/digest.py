"""Message digests: a stable id to cite a message and compare it across checkpoints.

``digest = "xxh3-128:" + xxh3_128_hexdigest(canonical(m))`` where ``m`` is the
message's own fields exactly as stored (foldctl's keys left out) and
``canonical`` is ``orjson.dumps(m, option=orjson.OPT_SORT_KEYS)``: keys sorted,
no whitespace, non-ASCII as raw UTF-8.  A message holding a lone surrogate,
which orjson cannot encode, is encoded the same way with each lone surrogate
written as the lowercase escape ``\\udxxx`` (see :func:`foldctl.jsoncodec.dumps`).
"""

from __future__ import annotations

import xxhash

from foldctl.jsoncodec import dumps
from foldctl.model import Message

PREFIX = "xxh3-128:"


def canonical(message: Message) -> bytes:
    return dumps(message, sort_keys=True)


def digest(message: Message) -> str:
    return PREFIX + xxhash.xxh3_128_hexdigest(canonical(message))
