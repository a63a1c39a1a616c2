"""One case of a fuzz run: which seed it mutates (weighted by size) and how, by the seed's
kind: a store, a session file (:mod:`tools.fuzz.sessions`), or a JSON checkpoint, plain or
gzipped (:mod:`tools.fuzz.mutators`).  The same seed and index give the same mutant."""

from __future__ import annotations

import gzip
import random
from typing import Final

from tools.fuzz.mutators import (
    FULL,
    Limits,
    Mutant,
    Seed,
    byte_flip,
    mutate_json_text,
    mutate_store,
    truncate,
)
from tools.fuzz.sessions import mutate_session

#: A seed up to this size is picked as often as any other; a larger one in proportion to
#: how much smaller it is (see :func:`_cost_weight`).
LIGHT_SEED_BYTES: Final = 256 * 1024


def _cost_weight(seed: Seed) -> float:
    """How often ``seed`` is picked, relative to a small one: inversely to its size beyond
    :data:`LIGHT_SEED_BYTES`.  A mutant costs time in proportion to its size, and the
    conformance corpus's 2 MB file, picked as often as a 5 KB one, took a large share of a run
    while adding no shape the small ones lack (deep chains, huge strings and expansion
    bombs come from the heavy mutators, on every seed)."""
    return min(1.0, LIGHT_SEED_BYTES / max(1, len(seed.text or seed.raw)))


def _pick_seed(rng: random.Random, corpus: list[Seed]) -> Seed:
    weights = [(len(corpus) // 6 + 1 if s.kind == "db" else 1) * _cost_weight(s) for s in corpus]
    return rng.choices(corpus, weights=weights)[0]


def make_mutant(corpus: list[Seed], seed: int, index: int, limits: Limits = FULL) -> Mutant:
    """The mutant of case ``index`` in the run seeded with ``seed`` (always the same one)."""
    rng = random.Random(f"foldctl-fuzz:{seed}:{index}")
    base = _pick_seed(rng, corpus)
    texts = [s for s in corpus if s.kind != "db"]
    text_weights = [_cost_weight(s) for s in texts]

    def other() -> bytes:
        return rng.choices(texts, weights=text_weights)[0].text

    if base.kind == "db":
        return mutate_store(rng, base, limits, other)
    chain: list[str] = []
    if base.kind == "jsonl":
        text = mutate_session(rng, base.text, limits, other, chain)
        if rng.random() < 0.05:
            chain.append("gzip")
            return Mutant("jsonlgz", gzip.compress(text, mtime=0), base, chain)
        return Mutant("jsonl", text, base, chain)
    count = rng.choices([1, 2, 3], weights=[6, 3, 1])[0]
    raw = sum(1 for _ in range(count) if rng.random() < 0.3)
    text = mutate_json_text(rng, base.text, limits, other, chain, structural=count - raw, raw=raw)
    kind = base.kind
    if kind == "json" and rng.random() < 0.05:
        kind = "gz"
        chain.append("gzip")
    if kind == "gz":
        data = gzip.compress(text, mtime=0)
        if rng.random() < 0.2:
            choice = rng.choice(["flip", "truncate", "concat", "trailing"])
            if choice == "flip":
                data, label = byte_flip(rng, data)
            elif choice == "truncate":
                data, label = truncate(rng, data)
            elif choice == "concat":
                data, label = data + gzip.compress(b" ", mtime=0), "gz-concat"
            else:
                data, label = data + rng.randbytes(rng.randint(1, 16)), "gz-trailing"
            chain.append(f"gz:{label}")
        return Mutant("gz", data, base, chain)
    return Mutant("json", text, base, chain)
