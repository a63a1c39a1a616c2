"""Mutants of the bundled checkpoints: deterministic from (seed, case index).

Independent of foldctl (nothing here imports it): mutants are made from the
seed corpus with the standard library (``json``, ``gzip``, ``sqlite3``) and
a seeded :class:`random.Random`.

Three families of mutators:

* **JSON structure** (on a parsed document, written back compactly in the
  runtime's layout): type swaps, deleted and duplicated keys, deep nesting,
  huge strings, invalid UTF-8, lone surrogates, control characters in
  values and keys, self-containing spans, replayed frames, colliding
  fingerprints, numbers beyond 64 bits or a double, generated deep chains
  and expansion bombs, splices of subtrees between files, envelope changes.
* **bytes** (on the file as stored): flips, truncation, splices between
  files, inserted tokens; for ``.gz`` also on the compressed stream.
* **SQLite stores**: a session's envelope run through the JSON mutators
  (or replaced by another file, garbage, a huge blob), ``saved_at``
  extremes, wrong column types, missing tables and columns, hostile session
  ids, a WAL (with or without ``-shm``) that is truncated or garbled,
  truncated databases and flipped page bytes.

Every mutator returns a short label (name and parameters) that goes into
the mutant's ``chain``, so a saved case says how it was made.
"""

from __future__ import annotations

import gzip
import json
import math
import os
import random
import re
import shutil
import sqlite3
import tempfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import xxhash

from tools.fuzz import planted

REPO: Final = Path(__file__).resolve().parent.parent.parent
SAMPLES: Final = REPO / "sample_checkpoints"
CONFORMANCE: Final = REPO.parent / "shared" / "conformance"
SQLITE_MAGIC: Final = b"SQLite format 3\x00"
FRAME_PREFIX: Final = "[compacted history"


# --------------------------------------------------------------------------- corpus


@dataclass(frozen=True)
class Seed:
    """One file of the corpus."""

    name: str  # unique, e.g. "samples/nested_chain.json"
    path: Path
    kind: str  # "json", "gz", "db" or "jsonl"
    raw: bytes  # the file as stored
    text: bytes  # JSON text (decompressed) for json/gz; empty for db
    sessions: tuple[str, ...] = ()  # session ids of a store

    @property
    def suffix(self) -> str:
        return SUFFIXES[self.kind]


#: The file name ending of each kind of seed and mutant.
SUFFIXES: Final = {
    "json": ".json",
    "gz": ".json.gz",
    "db": ".db",
    "jsonl": ".jsonl",  # a session file of another runtime (Claude Code, Codex)
    "jsonlgz": ".jsonl.gz",
}


def _store_sessions(path: Path) -> tuple[str, ...]:
    con = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
    try:
        rows = con.execute("SELECT session_id FROM agent_sessions ORDER BY session_id").fetchall()
    finally:
        con.close()
    return tuple(str(r[0]) for r in rows)


def generated_sessions() -> list[Seed]:
    """The session files ``tools/generate_sessions.py`` writes, one per case of SPEC §7
    (Claude Code: plain, nested, preserved segment, rewind, re-append, subagent,
    microcompact, titles; Codex: local, nested, remote, rewritten), as seeds.

    Written once into a folder of the system's temporary directory (``diff`` compares a
    mutant with its seed's file)."""
    from tools.generate_sessions import claude_cases, codex_cases

    folder = Path(tempfile.gettempdir()) / f"foldctl-fuzz-seeds-{os.getuid()}"
    seeds: list[Seed] = []
    for runtime, cases in (("claude", claude_cases()), ("codex", codex_cases())):
        for name, raw in sorted(cases.items()):
            flat = f"{runtime}-{name.replace('/', '-')}"
            path = folder / flat
            if not path.exists() or path.read_bytes() != raw:
                folder.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_bytes(raw)
                tmp.replace(path)
            seeds.append(Seed(f"generated/{flat}", path, "jsonl", raw, raw))
    return seeds


def load_corpus(
    dirs: tuple[Path, ...] | None = None,
    *,
    max_seed_bytes: int | None = None,
    generated: bool | None = None,
) -> list[Seed]:
    """The seed files: ``*.json``, ``*.json.gz``, ``*.jsonl`` and SQLite stores in ``dirs``.

    Default: the bundled samples and, when present, the shared conformance
    corpus beside the repository, and the generated session files (``generated``:
    default when ``dirs`` is not given).  ``*.expected.json`` (test oracles) are
    skipped, and so is any file larger than ``max_seed_bytes``.
    """
    if generated is None:
        generated = dirs is None
    if dirs is None:
        dirs = (SAMPLES, CONFORMANCE)
    seeds: list[Seed] = []
    for folder in dirs:
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            name = f"{folder.name}/{path.name}"
            if not path.is_file() or path.name.endswith(".expected.json"):
                continue
            raw = path.read_bytes()
            if max_seed_bytes is not None and len(raw) > max_seed_bytes:
                continue
            if path.name.endswith(".json"):
                seeds.append(Seed(name, path, "json", raw, raw))
            elif path.name.endswith(".json.gz"):
                seeds.append(Seed(name, path, "gz", raw, gzip.decompress(raw)))
            elif path.name.endswith(".jsonl"):
                seeds.append(Seed(name, path, "jsonl", raw, raw))
            elif raw.startswith(SQLITE_MAGIC):
                seeds.append(Seed(name, path, "db", raw, b"", _store_sessions(path)))
    if generated:
        limit = max_seed_bytes
        seeds += [s for s in generated_sessions() if limit is None or len(s.raw) <= limit]
    if not seeds:
        raise FileNotFoundError(f"no seed files in {', '.join(map(str, dirs))}")
    return seeds


# --------------------------------------------------------------------------- mutants


@dataclass
class Mutant:
    """A mutated file (and, for a store, the files beside it)."""

    kind: str  # a key of SUFFIXES
    data: bytes
    seed: Seed
    chain: list[str] = field(default_factory=list)
    side: dict[str, bytes] = field(default_factory=dict)  # "-wal" / "-shm" beside a store
    session: str | None = None  # a store: the session the graph targets open

    @property
    def suffix(self) -> str:
        return SUFFIXES[self.kind]

    def write(self, directory: Path, stem: str = "case") -> str:
        """Write the files into ``directory``; return the SOURCE that names the mutant."""
        path = directory / f"{stem}{self.suffix}"
        path.write_bytes(self.data)
        for suffix, content in self.side.items():
            (directory / f"{path.name}{suffix}").write_bytes(content)
        return path.name if self.session is None else f"{path.name}#{self.session}"

    def original(self) -> str:
        """The SOURCE of the unmutated seed (for ``diff``)."""
        path = str(self.seed.path)
        if self.kind == "db":
            session = self.session if self.session in self.seed.sessions else None
            return f"{path}#{session or self.seed.sessions[0]}"
        return path


@dataclass(frozen=True)
class Limits:
    """How big the heavy mutators may go (smaller for the quick sample run)."""

    huge_string: int = 3_000_000  # characters
    nest_depth: int = 5_000
    chain_depth: int = 10_000
    replay_copies: int = 1_000  # copies of every frame where it stands (replay-frames)
    bomb_copies: int = 1_000  # copies of the previous frame in each span (expansion-bomb)
    blob_bytes: int = 16 << 20
    heavy_weight: float = 0.5  # scales how often the heavy mutators (HEAVY) are picked
    wal_rate: float = 0.15  # share of store mutants that get a WAL beside them
    long_word: int = 1_000_000  # characters of a long label or word (from 10^4)
    sentences: int = 10_000  # sentences of the longest many-sentence summary
    session_chain: int = 100_000  # records of the longest generated session chain


FULL: Final = Limits()
#: For the quick sample: heavy mutations stay heavy enough to trip a bound, but cheap to run.
QUICK: Final = Limits(
    huge_string=200_000,
    nest_depth=5_000,
    chain_depth=1_100,
    replay_copies=3,
    bomb_copies=12,
    blob_bytes=2 << 20,
    heavy_weight=0.25,
    wal_rate=0.05,
    long_word=40_000,
    sentences=2_000,
    session_chain=2_000,
)


# --------------------------------------------------------------------------- JSON text


_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def dump(doc: Any) -> bytes:
    """Compact JSON as the runtime writes it: raw UTF-8, lone surrogates as ``\\udxxx``."""
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    text = _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text.encode("utf-8")


class Doc:
    """A parsed JSON document being mutated, with raw-text substitutions for the end.

    Some mutations cannot be expressed as a Python value (a duplicated key,
    invalid UTF-8, a number beyond a double, nesting too deep for ``json``):
    they put a unique marker in the document and register the raw bytes
    that replace the marker once the document is written.
    """

    def __init__(self, value: Any) -> None:
        self.value = value
        self._subs: list[tuple[bytes, bytes]] = []

    def marker(self, raw: bytes, *, quoted: bool = True) -> str:
        """A string to place in the document; written as ``raw`` (replacing its quotes too)."""
        text = f"\x01FUZZ{len(self._subs)}\x01"
        needle = json.dumps(text).encode("ascii")
        self._subs.append((needle if quoted else needle[1:-1], raw))
        return text

    def to_bytes(self) -> bytes:
        out = dump(self.value)
        for needle, raw in reversed(self._subs):  # markers inside raw text come later
            out = out.replace(needle, raw)
        return out


Slot = tuple[Any, Any]  # (container, key or index) holding a value


def slots(value: Any) -> list[tuple[Slot, str]]:
    """Every (container, key) slot in ``value`` with the key's name (iteratively)."""
    found: list[tuple[Slot, str]] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for k, v in item.items():
                found.append(((item, k), k))
                if isinstance(v, (dict, list)):
                    stack.append(v)
        elif isinstance(item, list):
            for i, v in enumerate(item):
                found.append(((item, i), ""))
                if isinstance(v, (dict, list)):
                    stack.append(v)
    return found


#: Keys whose values foldctl reads: mutations prefer them.
INTERESTING: Final = frozenset(
    {
        "version", "runId", "history", "lastCompletedIteration", "originalInput", "message",
        "checkpointedAt", "folded", "summaryFingerprint", "iteration", "foldedAtMs", "model",
        "messageCount", "removedStageIds", "retained", "messages", "role", "content",
        "toolCallId", "toolName", "toolCalls", "id", "name", "args", "providerMeta",
        "thinkingBlocks", "format", "data", "conversation", "savedAt", "checkpoint", "pending",
    }
)  # fmt: skip


def pick_slot(
    rng: random.Random, doc: Doc, want: Callable[[Any], bool] | None = None
) -> Slot | None:
    """A random slot (half the time one under an interesting key) whose value passes ``want``."""
    every = [(s, k) for s, k in slots(doc.value) if want is None or want(s[0][s[1]])]
    if not every:
        return None
    keyed = [s for s, k in every if k in INTERESTING]
    if keyed and rng.random() < 0.5:
        return rng.choice(keyed)
    return rng.choice(every)[0]


def conversation(doc: Doc) -> dict[str, Any] | None:
    """The conversation object of a checkpoint or envelope (None when there is none)."""
    top = doc.value
    if not isinstance(top, dict):
        return None
    data = top.get("data")
    if isinstance(data, dict):
        conv = data.get("conversation", data)
        return conv if isinstance(conv, dict) else None
    return top


def spans_of(doc: Doc) -> list[dict[str, Any]]:
    conv = conversation(doc)
    folded = conv.get("folded") if conv is not None else None
    return [s for s in folded if isinstance(s, dict)] if isinstance(folded, list) else []


def is_frame(message: Any) -> bool:
    return (
        isinstance(message, dict)
        and message.get("role") == "user"
        and isinstance(message.get("content"), str)
        and message["content"].startswith(FRAME_PREFIX)
    )


def fnv1a32(content: str) -> str:
    """The reference runtime's fingerprint (see SPEC §2), for frames the mutators write."""
    h = 0x811C9DC5
    for unit in memoryview(content.encode("utf-16-le", "surrogatepass")).cast("H"):
        h = ((h ^ unit) * 0x01000193) & 0xFFFFFFFF
    return format(h, "x")


def _fingerprints(content: str) -> set[str]:
    utf8 = content.encode("utf-8", "surrogatepass")
    return {
        fnv1a32(content),
        xxhash.xxh32_hexdigest(utf8),
        xxhash.xxh64_hexdigest(utf8),
        xxhash.xxh3_64_hexdigest(utf8),
        xxhash.xxh3_128_hexdigest(utf8),
    }


def frame_text(count: int, iteration: int, model: str, summary: str) -> str:
    return (
        f"[compacted history \u2014 {count} earlier message(s) were folded out of this window "
        f"at iteration {iteration}. The text after this line is a SUMMARY written by {model}; "
        "it is a claim about the conversation, not the conversation. The folded messages are "
        f"retained verbatim with this conversation and can be produced on request.]\n\n{summary}"
    )


def frame_of(span: dict[str, Any], doc: Doc) -> dict[str, Any] | None:
    """A frame (anywhere in the document) that joins ``span`` under some scheme."""
    wanted = span.get("summaryFingerprint")
    conv = conversation(doc)
    if not isinstance(wanted, str) or conv is None:
        return None
    pools: list[Any] = [conv.get("history")]
    pools += [s.get("messages") for s in spans_of(doc)]
    for pool in pools:
        if isinstance(pool, list):
            for m in pool:
                if is_frame(m) and wanted in _fingerprints(m["content"]):
                    return dict(m)
    return None


# --------------------------------------------------------------------------- JSON mutators

# Values of every JSON type, to swap in.
_STRINGS: Final = (
    "", "x", "user", "assistant", "conversation", "discard", "[compacted history",
    "conversation-v1", "flowchart-v1", "0", "NaN", "a\nb", "\x1b[2J",
)  # fmt: skip
_NUMBERS: Final = (0, -1, 1, 2, 1.5, -0.5, 2**53 + 1, 2**63 - 1, -(2**63), 1e300, 1e-300)
_ARRAYS: Final[tuple[Any, ...]] = (
    [], [1], ["a", 2], [None], [[]], ["x", "y", "z"], [{"id": "c1"}], [1, {"a": []}],
    [{"role": "user", "content": "x"}], [{"id": "c", "name": "t", "args": "notanobject"}],
)  # fmt: skip
_OBJECTS: Final[tuple[Any, ...]] = (
    {}, {"a": 1}, {"role": "user"}, {"content": []}, {"role": "user", "content": "x"},
    {"id": 1, "name": [], "args": "x"}, {"message": None}, {"toString": "x", "__proto__": {}},
)  # fmt: skip


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def random_value(rng: random.Random, unlike: Any = None) -> Any:
    kinds = [k for k in ("string", "number", "bool", "null", "array", "object") if k != unlike]
    kind = rng.choice(kinds)
    if kind == "string":
        return rng.choice(_STRINGS)
    if kind == "number":
        return rng.choice(_NUMBERS)
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "null":
        return None
    return json.loads(json.dumps(rng.choice(_ARRAYS if kind == "array" else _OBJECTS)))


def type_swap(rng: random.Random, doc: Doc) -> str:
    slot = pick_slot(rng, doc)
    if slot is None:
        return "type-swap(none)"
    container, key = slot
    new = random_value(rng, unlike=_json_type(container[key]))
    container[key] = new
    return f"type-swap({key}->{_json_type(new)})"


def delete_key(rng: random.Random, doc: Doc) -> str:
    slot = pick_slot(rng, doc, _nonempty_object)
    if slot is None:
        return "delete-key(none)"
    obj = slot[0][slot[1]]
    keys = [k for k in obj if k in INTERESTING] or list(obj)
    key = rng.choice(keys)
    del obj[key]
    return f"delete-key({key})"


def _nonempty_object(value: Any) -> bool:
    return isinstance(value, dict) and bool(value)


def duplicate_key(rng: random.Random, doc: Doc) -> str:
    """A key written twice in one object, with different values, at the raw-text level."""
    every = [s for s, _ in slots(doc.value) if _nonempty_object(s[0][s[1]])]
    messages = [s for s in every if "role" in s[0][s[1]]]
    slot = rng.choice(messages if messages and rng.random() < 0.5 else every) if every else None
    if slot is None:
        return "duplicate-key(none)"
    container, key = slot
    obj = container[key]
    dup = rng.choice([k for k in obj if k in INTERESTING] or list(obj))
    old = obj[dup]
    if dup == "role":
        value: Any = rng.choice([r for r in ("user", "assistant", "tool", "system") if r != old])
    elif dup == "content" and rng.random() < 0.5:
        value = frame_text(1, 1, "m", "forged") if not str(old).startswith("[") else "plain"
    else:
        value = random_value(rng, unlike=_json_type(old))
    marker = doc.marker(json.dumps(dup, ensure_ascii=False).encode("utf-8"))
    first = rng.random() < 0.5
    rebuilt = {marker: value, **obj} if first else {**obj, marker: value}
    container[key] = rebuilt
    return f"duplicate-key({dup},{'first' if first else 'last'})"


def deep_nest(rng: random.Random, doc: Doc, limits: Limits) -> str:
    slot = pick_slot(rng, doc)
    if slot is None:
        return "deep-nest(none)"
    container, key = slot
    depth = rng.choice([1_000, 1_024, 1_025, 2_000, limits.nest_depth])
    core = dump(container[key] if rng.random() < 0.5 else None)
    if rng.random() < 0.5:
        raw = b"[" * depth + core + b"]" * depth
        style = "array"
    else:
        raw = b'{"a":' * depth + core + b"}" * depth
        style = "object"
    container[key] = doc.marker(raw)
    return f"deep-nest({key},{style},{depth})"


def _string_slot(
    rng: random.Random, doc: Doc, prefer: tuple[str, ...] = ("content",)
) -> Slot | None:
    every = [s for s, k in slots(doc.value) if isinstance(s[0][s[1]], str)]
    preferred = [s for s in every if s[1] in prefer]
    if preferred and rng.random() < 0.7:
        return rng.choice(preferred)
    return rng.choice(every) if every else None


def huge_string(rng: random.Random, doc: Doc, limits: Limits) -> str:
    slot = _string_slot(rng, doc)
    if slot is None:
        return "huge-string(none)"
    size = int(math.exp(rng.uniform(math.log(10_000), math.log(limits.huge_string))))
    patterns: dict[str, str] = {
        "zwsp": "a\u200b",
        "newlines": "\n",
        "lines": "x\n",
        "mixed": "word \u200b\n\u200bz",
        "combining": "e\u0301\u0302",
        "emoji": "\U0001f469\u200d\U0001f4bb",
        "plain": "abcdefgh",
    }
    name = rng.choice(sorted(patterns))
    unit = patterns[name]
    text = (unit * (size // len(unit) + 1))[:size]
    container, key = slot
    old = container[key]
    if rng.random() < 0.3 and isinstance(old, str) and old.startswith(FRAME_PREFIX):
        text = old + text  # the summary of a frame grows (the join breaks: that is fine)
    container[key] = text
    return f"huge-string({key},{name},{size})"


_BAD_UTF8: Final = (
    b"\xff", b"\xfe", b"\x80", b"\xc3\x28", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf",
    b"\xe2\x82", b"\xf0\x9f\x98",
)  # fmt: skip


def _insert_into(rng: random.Random, text: str, piece: str) -> str:
    at = rng.randint(0, len(text))
    return text[:at] + piece + text[at:]


def invalid_utf8(rng: random.Random, doc: Doc) -> str:
    slot = _string_slot(rng, doc, ("content", "model", "runId", "summaryFingerprint", "role"))
    if slot is None:
        return "invalid-utf8(none)"
    container, key = slot
    raw = rng.choice(_BAD_UTF8)
    container[key] = _insert_into(rng, container[key], doc.marker(raw, quoted=False))
    return f"invalid-utf8({key},{raw.hex()})"


def _rename_key(obj: dict[str, Any], old: str, new: str) -> None:
    items = [(new if k == old else k, v) for k, v in obj.items()]
    obj.clear()
    obj.update(items)


def _hostile_text(rng: random.Random, doc: Doc, pieces: tuple[str, ...], label: str) -> str:
    piece = rng.choice(pieces)
    if rng.random() < 0.25:  # into a key
        slot = pick_slot(rng, doc, _nonempty_object)
        if slot is not None:
            obj = slot[0][slot[1]]
            old = rng.choice(list(obj))
            new = _insert_into(rng, old, piece)
            if new not in obj:
                _rename_key(obj, old, new)
                return f"{label}(key {old},{piece!r})"
    prefer = ("content", "model", "runId", "toolName", "summaryFingerprint", "role", "message")
    string_slot = _string_slot(rng, doc, prefer)
    if string_slot is None:
        return f"{label}(none)"
    container, key = string_slot
    container[key] = _insert_into(rng, container[key], piece)
    return f"{label}({key},{piece!r})"


_SURROGATES: Final = ("\ud800", "\udfff", "\ud83d", "\ude00", "\udc00\ud800")


def lone_surrogate(rng: random.Random, doc: Doc) -> str:
    return _hostile_text(rng, doc, _SURROGATES, "lone-surrogate")


_CONTROLS: Final = (
    "\x1b[31m", "\x1b[2J\x1b[H", "\x1b]0;pwned\x07", "\x1b]8;;http://evil/\x1b\\link\x1b]8;;\x1b\\",
    "\x9b2J", "\x85", "\x00", "\x7f", "\x08\x08\x08", "\r", "\x0b\x0c", "\u202e", "\u2066",
    "\u2069", "\u200e", "\u200f", "\u061c", "\u2028", "\nfoldctl: error: forged line",
    "[bold red]x[/]", ":warning:",
)  # fmt: skip


def control_chars(rng: random.Random, doc: Doc) -> str:
    return _hostile_text(rng, doc, _CONTROLS, "control-chars")


def self_span(rng: random.Random, doc: Doc) -> str:
    """A span whose messages hold its own frame (a fold cycle), or two spans holding each other."""
    spans = [s for s in spans_of(doc) if isinstance(s.get("messages"), list)]
    if not spans:
        return "self-span(none)"
    span = rng.choice(spans)
    frame = frame_of(span, doc)
    if frame is None:
        content = frame_text(len(span["messages"]), 1, "m", "self")
        span["summaryFingerprint"] = fnv1a32(content)
        frame = {"role": "user", "content": content}
    if len(spans) > 1 and rng.random() < 0.3:
        other = rng.choice([s for s in spans if s is not span])
        back = frame_of(other, doc)
        if back is not None:
            span["messages"].insert(rng.randint(0, len(span["messages"])), back)
            other["messages"].insert(rng.randint(0, len(other["messages"])), frame)
            return "self-span(mutual)"
    span["messages"].insert(rng.randint(0, len(span["messages"])), frame)
    return "self-span(own)"


def replay_frames(rng: random.Random, doc: Doc, limits: Limits) -> str:
    """Every frame copied R times where it stands: nested frames multiply the expansion."""
    conv = conversation(doc)
    if conv is None:
        return "replay-frames(none)"
    copies = rng.choice(sorted({2, 3, min(10, limits.replay_copies), limits.replay_copies}))
    pools = [conv.get("history")] + [s.get("messages") for s in spans_of(doc)]
    budget = 8 << 20
    replayed = 0
    for pool in pools:
        if not isinstance(pool, list):
            continue
        out: list[Any] = []
        for m in pool:
            if is_frame(m) and budget > 0:
                out.extend(dict(m) for _ in range(copies))
                budget -= copies * len(m["content"])
                replayed += 1
            else:
                out.append(m)
        pool[:] = out
    return f"replay-frames({copies}x{replayed})"


def collide_fingerprint(rng: random.Random, doc: Doc) -> str:
    spans = spans_of(doc)
    conv = conversation(doc)
    if len(spans) == 1 and conv is not None:
        conv["folded"].append(json.loads(dump(spans[0])))  # the same span twice
        return "collide-fingerprint(duplicated span)"
    if len(spans) < 2:
        return "collide-fingerprint(none)"
    a, b = rng.sample(range(len(spans)), 2)
    spans[b]["summaryFingerprint"] = spans[a].get("summaryFingerprint")
    return f"collide-fingerprint({a},{b})"


_BIG_NUMBERS: Final = (
    b"18446744073709551616", b"-9223372036854775809", b"18446744073709551615",
    b"9223372036854775808", b"1" + b"0" * 400, b"1e309", b"-1e400", b"2e308", b"0.1e99999",
    b"123456789012345678901234567890.5", b"1e-400", b"-0", b"-0.0", b"1E+2", b"1.0",
    b"9007199254740993",
)  # fmt: skip
_NUMERIC_KEYS: Final = (
    "version", "iteration", "messageCount", "foldedAtMs", "checkpointedAt",
    "lastCompletedIteration", "savedAt",
)  # fmt: skip


def big_number(rng: random.Random, doc: Doc) -> str:
    every = [s for s, _ in slots(doc.value)]
    numeric = [s for s in every if s[1] in _NUMERIC_KEYS]
    messages = [s for s in every if isinstance(s[0], dict) and "role" in s[0]]
    pool = numeric if numeric and rng.random() < 0.6 else (messages or every)
    if not pool:
        return "big-number(none)"
    container, key = rng.choice(pool)
    raw = rng.choice(_BIG_NUMBERS)
    if isinstance(container, dict) and "role" in container and key in ("role", "content"):
        key = "extra"  # a number in a message's own field, away from role/content
    container[key] = doc.marker(raw)
    return f"big-number({key},{raw[:24].decode()})"


def _chain(conv: dict[str, Any], depth: int, copies: int = 1) -> None:
    """Replace history and folded with a generated chain ``depth`` folds deep.

    Each span's messages hold ``copies`` copies of the previous span's frame,
    so with copies > 1 the expansion is ``copies ** depth`` messages.
    """
    run = conv.get("runId") if isinstance(conv.get("runId"), str) else "run-fuzz"
    folded: list[dict[str, Any]] = []
    frame: dict[str, Any] | None = None
    for i in range(depth):
        messages = [dict(frame) for _ in range(copies)] if frame else []
        messages.append({"role": "assistant", "content": f"step {i}"})
        content = frame_text(len(messages), i + 1, "mock-cheap", f"Summary {i}.")
        folded.append(
            {
                "summaryFingerprint": fnv1a32(content),
                "runId": run,
                "iteration": i + 1,
                "foldedAtMs": 1_700_000_000_000 + i,
                "model": "mock-cheap",
                "messageCount": len(messages),
                "removedStageIds": [f"tool-calls#{i}"],
                "retained": "conversation",
                "messages": messages,
            }
        )
        frame = {"role": "user", "content": content}
    assert frame is not None
    conv["history"] = [{"role": "user", "content": "start"}] + [dict(frame)] * copies
    conv["folded"] = folded
    conv["checkpointedAt"] = 1_700_000_000_000 + depth + 1


def deep_chain(rng: random.Random, doc: Doc, limits: Limits) -> str:
    conv = conversation(doc)
    if conv is None:
        return "deep-chain(none)"
    depth = rng.choice(sorted({1_000, min(1_500, limits.chain_depth), limits.chain_depth}))
    _chain(conv, depth)
    return f"deep-chain({depth})"


def expansion_bomb(rng: random.Random, doc: Doc, limits: Limits) -> str:
    conv = conversation(doc)
    if conv is None:
        return "expansion-bomb(none)"
    levels = rng.choice([2, 3, 4])
    copies = rng.choice(sorted({min(10, limits.bomb_copies), limits.bomb_copies}))
    _chain(conv, levels, copies)
    return f"expansion-bomb({copies}^{levels})"


def splice_tree(rng: random.Random, doc: Doc, other: Doc) -> str:
    """A subtree of another file placed at a random slot of this one."""
    donors = [s for s, _ in slots(other.value) if isinstance(s[0][s[1]], (dict, list))]
    slot = pick_slot(rng, doc)
    if not donors or slot is None:
        return "splice-tree(none)"
    donor = rng.choice(donors)
    container, key = slot
    container[key] = json.loads(dump(donor[0][donor[1]]))
    return f"splice-tree({key})"


def envelope_shape(rng: random.Random, doc: Doc) -> str:
    """Wrap, unwrap or re-label the envelope."""
    conv = conversation(doc)
    top = doc.value
    if conv is None or not isinstance(top, dict):
        return "envelope(none)"
    choice = rng.choice(["conversation-v1", "flowchart-v1", "bare", "unknown", "both"])
    if choice == "conversation-v1":
        doc.value = {"format": "conversation-v1", "data": conv, "savedAt": 1_700_000_000_000}
    elif choice == "flowchart-v1":
        doc.value = {
            "format": "flowchart-v1",
            "data": {"checkpoint": {}, "conversation": conv, "pending": None},
            "savedAt": "2026-01-01T00:00:00Z",
        }
    elif choice == "bare":
        doc.value = conv
    elif choice == "unknown":
        top["format"] = rng.choice(["conversation-v2", "", "Conversation-V1", None, 1])
    else:  # an envelope whose data is also a bare checkpoint at the top level
        doc.value = {**conv, "format": "conversation-v1", "data": conv}
    return f"envelope({choice})"


# --------------------------------------------------------------------------- hostile content

#: Keys whose string values are ids or labels: a secret there replaces the whole value.
_LABEL_KEYS: Final = (
    "summaryFingerprint", "model", "runId", "toolCallId", "id", "name", "toolName",
    "removedStageIds", "uuid", "parentUuid", "sessionId", "call_id", "tool_use_id", "cwd",
)  # fmt: skip


def _frames_by_fingerprint(doc: Doc) -> dict[str, list[Slot]]:
    """Every (list, index) in the document holding a frame, under each fingerprint its
    content has (each frame hashed once, however many spans are looked up)."""
    conv = conversation(doc)
    index: dict[str, list[Slot]] = {}
    if conv is None:
        return index
    pools: list[Any] = [conv.get("history")] + [s.get("messages") for s in spans_of(doc)]
    for pool in pools:
        if isinstance(pool, list):
            for i, m in enumerate(pool):
                if is_frame(m):
                    for fingerprint in _fingerprints(m["content"]):
                        index.setdefault(fingerprint, []).append((pool, i))
    return index


def _frame_slots(
    doc: Doc, span: dict[str, Any], index: dict[str, list[Slot]] | None = None
) -> list[Slot]:
    """Every (list, index) in the document holding a frame that joins ``span``."""
    wanted = span.get("summaryFingerprint")
    if not isinstance(wanted, str):
        return []
    frames = _frames_by_fingerprint(doc) if index is None else index
    return list(frames.get(wanted, ()))


def _rehash(old_content: str, old_print: str, new_content: str) -> str:
    """The fingerprint of ``new_content`` in the scheme that gave ``old_print`` to the old."""
    utf8 = new_content.encode("utf-8", "surrogatepass")
    old8 = old_content.encode("utf-8", "surrogatepass")
    for fn in (xxhash.xxh32_hexdigest, xxhash.xxh64_hexdigest, xxhash.xxh3_64_hexdigest,
               xxhash.xxh3_128_hexdigest):  # fmt: skip
        if fn(old8) == old_print:
            return fn(utf8)
    return fnv1a32(new_content)


def rewrite_frame(doc: Doc, span: dict[str, Any], change: Callable[[str], str]) -> bool:
    """Rewrite the frame of ``span`` with ``change`` (whole text in, whole text out) and
    give the span the new text's fingerprint in its scheme, so the join still holds."""
    found = _frame_slots(doc, span)
    if not found:
        return False
    old = found[0][0][found[0][1]]["content"]
    new = change(old)
    for pool, i in found:
        pool[i] = {**pool[i], "content": new}
    span["summaryFingerprint"] = _rehash(old, span["summaryFingerprint"], new)
    return True


def _summary_of(frame: str) -> tuple[str, str]:
    """(the preamble up to its blank line, the summary) of a frame's text."""
    head, sep, summary = frame.partition("]\n\n")
    return (head + sep, summary) if sep else (frame, "")


def _secret_into(rng: random.Random, old: str, text: str, whole: bool) -> str:
    if whole or not old:
        return text
    words = old.split(" ")
    at = rng.randint(0, len(words))
    return " ".join([*words[:at], text, *words[at:]])


def plant_secret(rng: random.Random, doc: Doc) -> str:
    """A secret (email, AWS key, bearer header, JWT, password URL) in a string field: an id
    or label (the whole value), a message's text (between its words), a new unknown field,
    or the fingerprint of two spans at once (a collision whose shared value is a secret)."""
    secret = rng.choice(planted.SECRETS)
    spans = spans_of(doc)
    where = rng.choices(["label", "text", "unknown", "collision"], weights=[5, 3, 2, 2])[0]
    if where == "collision" and len(spans) >= 2:
        a, b = rng.sample(spans, 2)
        a["summaryFingerprint"] = b["summaryFingerprint"] = secret.text
        return f"plant-secret({secret.kind},collision)"
    if where == "unknown":
        slot = pick_slot(rng, doc, _nonempty_object)
        if slot is not None:
            obj = slot[0][slot[1]]
            key = rng.choice(["note", "x-trace", "metadata", "owner", "extra"])
            obj[key] = secret.text if rng.random() < 0.7 else {"nested": [secret.text]}
            return f"plant-secret({secret.kind},unknown {key})"
    every = [(s, k) for s, k in slots(doc.value) if isinstance(s[0][s[1]], str)]
    labels = [s for s, k in every if k in _LABEL_KEYS or (k == "" and s[1] is not None
              and isinstance(s[0], list) and s[0] is not doc.value)]  # fmt: skip
    texts = [s for s, k in every if k in ("content", "message", "text", "args")]
    pool = labels if where in ("label", "collision") and labels else texts or labels
    if not pool:
        return "plant-secret(none)"
    container, key = rng.choice(pool)
    whole = pool is labels
    container[key] = _secret_into(rng, container[key], secret.text, whole)
    return f"plant-secret({secret.kind},{key})"


_STATUSES: Final = (
    ("paid", "unpaid"), ("shipped", "pending"), ("passed", "failed"), ("resolved", "open"),
    ("approved", "rejected"), ("refunded", "charged"), ("succeeded", "errored"),
)  # fmt: skip
_AMOUNT: Final = re.compile(r"\d{1,7}\.\d{2}")
_DATE: Final = re.compile(r"\d{4}-\d{2}-\d{2}")
_ID: Final = re.compile(r"\b[A-Z]{2,5}-\d{2,6}\b")


def _originals_text(span: dict[str, Any]) -> str:
    messages = span.get("messages")
    if not isinstance(messages, list):
        return ""
    return "\n".join(m["content"] for m in messages if isinstance(m, dict)
                     and isinstance(m.get("content"), str))[:200_000]  # fmt: skip


def _claim_sentences(rng: random.Random, span: dict[str, Any], count: int) -> list[str]:
    """``count`` claim-shaped sentences over a span's originals: their amounts, dates,
    ids and statuses, some kept and some changed."""
    text = _originals_text(span)
    amounts = _AMOUNT.findall(text) or ["4300.69"]
    dates = _DATE.findall(text) or ["2026-01-01"]
    ids = _ID.findall(text) or ["ORD-1001"]
    out = []
    for n in range(count):
        amount, date, thing = rng.choice(amounts), rng.choice(dates), rng.choice(ids)
        if rng.random() < 0.5:  # changed: off by a cent, a tenfold, another day
            amount = rng.choice([f"{float(amount) + 0.01:.2f}", f"{float(amount) * 10:.2f}"])
            date = date[:-2] + f"{(int(date[-2:]) % 28) + 1:02d}"
        done, not_done = rng.choice(_STATUSES)
        status = done if rng.random() < 0.5 else not_done
        shape = rng.choice([
            f"{thing} was {status} on {date} for ${amount}.",
            f"Refund of {amount} USD issued for {thing} ({status}).",
            f"All {rng.randint(1, 400)} tests {status}; {thing} is {status}.",
            f"On {date} the total came to {amount} across {rng.randint(2, 90)} items.",
            f"Step {n}: {thing} {status}, balance {amount}, checked {date}.",
        ])  # fmt: skip
        out.append(shape)
    return out


def _pick_span_with_frame(rng: random.Random, doc: Doc) -> dict[str, Any] | None:
    frames = _frames_by_fingerprint(doc)
    spans = [s for s in spans_of(doc) if _frame_slots(doc, s, frames)]
    return rng.choice(spans) if spans else None


def claim_summary(rng: random.Random, doc: Doc) -> str:
    """A summary rewritten as claims over its originals (amounts, statuses, dates, ids from
    the originals, some changed), its fingerprint recomputed so it still joins."""
    span = _pick_span_with_frame(rng, doc)
    if span is None:
        return "claim-summary(none)"
    sentences = " ".join(_claim_sentences(rng, span, rng.randint(1, 12)))
    rewrite_frame(doc, span, lambda old: _summary_of(old)[0] + sentences)
    return f"claim-summary({len(sentences)})"


def many_sentences(rng: random.Random, doc: Doc, limits: Limits) -> str:
    """A summary of thousands of claim-shaped sentences (it still joins)."""
    span = _pick_span_with_frame(rng, doc)
    if span is None:
        return "many-sentences(none)"
    count = rng.choice([1_000, 3_000, limits.sentences])
    body = " ".join(_claim_sentences(rng, span, count))
    rewrite_frame(doc, span, lambda old: _summary_of(old)[0] + body)
    return f"many-sentences({count})"


#: Long words: one letter repeated, a dotted name, digits, a path, an identifier.
_WORDS: Final = ("a", "x.", "9", "a/", "ab_", "é", "ACCT-")


def long_label(rng: random.Random, doc: Doc, limits: Limits) -> str:
    """A label or a word 10^4-10^6 characters long: a span's model (in its frame's label
    too, so it joins), its run id or stage ids, a tool's name, or one word of a summary
    or a message."""
    size = int(math.exp(rng.uniform(math.log(10_000), math.log(limits.long_word))))
    unit = rng.choice(_WORDS)
    word = (unit * (size // len(unit) + 1))[:size]
    span = _pick_span_with_frame(rng, doc)
    where = rng.choice(["model", "summary-word", "runId", "removedStageIds", "content-word"])
    if span is not None and where == "model":
        old_model = span.get("model")
        span["model"] = word

        def relabel(old: str) -> str:
            mark = f"SUMMARY written by {old_model};"
            return old.replace(mark, f"SUMMARY written by {word};", 1)

        rewrite_frame(doc, span, relabel)
        return f"long-label(model,{unit!r},{size})"
    if span is not None and where == "summary-word":

        def lengthen(old: str) -> str:
            head, summary = _summary_of(old)
            return head + _secret_into(rng, summary, word, whole=False)

        rewrite_frame(doc, span, lengthen)
        return f"long-label(summary word,{unit!r},{size})"
    if span is not None and where in ("runId", "removedStageIds"):
        span[where] = word if where == "runId" else [word]
        return f"long-label({where},{unit!r},{size})"
    slot = _string_slot(rng, doc, ("content", "toolName", "name", "model"))
    if slot is None:
        return "long-label(none)"
    container, key = slot
    container[key] = _secret_into(rng, container[key], word, whole=key != "content")
    return f"long-label({key},{unit!r},{size})"


#: name -> (function, weight). Functions take (rng, doc, limits, other-doc).
JsonMutator = Callable[[random.Random, Doc, Limits, "Callable[[], Doc]"], str]
JSON_MUTATORS: Final[dict[str, tuple[JsonMutator, int]]] = {
    "type-swap": (lambda r, d, lim, o: type_swap(r, d), 14),
    "delete-key": (lambda r, d, lim, o: delete_key(r, d), 6),
    "duplicate-key": (lambda r, d, lim, o: duplicate_key(r, d), 8),
    "deep-nest": (lambda r, d, lim, o: deep_nest(r, d, lim), 3),
    "huge-string": (lambda r, d, lim, o: huge_string(r, d, lim), 2),
    "invalid-utf8": (lambda r, d, lim, o: invalid_utf8(r, d), 5),
    "lone-surrogate": (lambda r, d, lim, o: lone_surrogate(r, d), 5),
    "control-chars": (lambda r, d, lim, o: control_chars(r, d), 10),
    "self-span": (lambda r, d, lim, o: self_span(r, d), 4),
    "replay-frames": (lambda r, d, lim, o: replay_frames(r, d, lim), 2),
    "collide-fingerprint": (lambda r, d, lim, o: collide_fingerprint(r, d), 4),
    "big-number": (lambda r, d, lim, o: big_number(r, d), 5),
    "deep-chain": (lambda r, d, lim, o: deep_chain(r, d, lim), 1),
    "expansion-bomb": (lambda r, d, lim, o: expansion_bomb(r, d, lim), 1),
    "splice-tree": (lambda r, d, lim, o: splice_tree(r, d, o()), 4),
    "envelope": (lambda r, d, lim, o: envelope_shape(r, d), 3),
    "plant-secret": (lambda r, d, lim, o: plant_secret(r, d), 8),
    "claim-summary": (lambda r, d, lim, o: claim_summary(r, d), 6),
    "many-sentences": (lambda r, d, lim, o: many_sentences(r, d, lim), 2),
    "long-label": (lambda r, d, lim, o: long_label(r, d, lim), 3),
}


# --------------------------------------------------------------------------- byte mutators

_TOKENS: Final = (
    b"\x00", b"\xef\xbb\xbf", b"\\", b'"', b"{", b"[", b"]", b"}", b",", b":", b"NaN",
    b"Infinity", b"-", b"\xff\xfe", b"\\u0000", b"\\ud800", b"\\u001b", b"1e999", b" ", b"\n",
    b"null", b"true", b'"role":"user",', b'"[compacted history',
)  # fmt: skip


def byte_flip(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    if not data:
        return data, "byte-flip(empty)"
    buf = bytearray(data)
    n = rng.choice([1, 1, 2, 4, 8])
    for _ in range(n):
        at = rng.randrange(len(buf))
        buf[at] = buf[at] ^ (1 << rng.randrange(8)) if rng.random() < 0.6 else rng.randrange(256)
    return bytes(buf), f"byte-flip({n})"


def truncate(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    at = rng.choice([0, 1, rng.randint(0, len(data)), max(len(data) - 1, 0), len(data) // 2])
    return data[:at], f"truncate({at})"


def insert_token(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    token = rng.choice(_TOKENS) if rng.random() < 0.8 else rng.randbytes(rng.randint(1, 8))
    at = rng.randint(0, len(data))
    return data[:at] + token + data[at:], f"insert({token[:12]!r})"


def splice_bytes(rng: random.Random, data: bytes, other: bytes) -> tuple[bytes, str]:
    a = rng.randint(0, len(data))
    b = rng.randint(0, len(other))
    return data[:a] + other[b:], f"splice-bytes({a},{b})"


BYTE_MUTATORS: Final = ("byte-flip", "truncate", "insert", "splice-bytes")


def byte_mutation(rng: random.Random, data: bytes, other: Callable[[], bytes]) -> tuple[bytes, str]:
    name = rng.choice(BYTE_MUTATORS)
    if name == "byte-flip":
        return byte_flip(rng, data)
    if name == "truncate":
        return truncate(rng, data)
    if name == "insert":
        return insert_token(rng, data)
    return splice_bytes(rng, data, other())


#: Mutators whose mutants are expensive to run (deep, huge or multiplying).
HEAVY: Final = frozenset(
    {
        "deep-nest", "huge-string", "replay-frames", "deep-chain", "expansion-bomb",
        "many-sentences", "long-label", "long-chain",
    }
)  # fmt: skip


def pick_json_mutator(rng: random.Random, limits: Limits) -> str:
    names = list(JSON_MUTATORS)
    weights = [JSON_MUTATORS[n][1] * (limits.heavy_weight if n in HEAVY else 1.0) for n in names]
    return rng.choices(names, weights=weights)[0]


def first_json(text: bytes) -> Any:
    """A donor document for a splice: a JSON file, or the first record of a session."""
    try:
        return json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        for line in text.split(b"\n"):
            try:
                return json.loads(line)
            except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
                continue
    return {}


def mutate_json_text(
    rng: random.Random,
    text: bytes,
    limits: Limits,
    other: Callable[[], bytes],
    chain: list[str],
    *,
    structural: int,
    raw: int,
) -> bytes:
    """``structural`` JSON mutations, then ``raw`` byte mutations, of one JSON text."""
    if structural:
        try:
            doc = Doc(json.loads(text.decode("utf-8")))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            raw += structural  # not JSON (or too deep for json): mutate the bytes instead
        else:
            for _ in range(structural):
                name = pick_json_mutator(rng, limits)
                fn = JSON_MUTATORS[name][0]
                chain.append(fn(rng, doc, limits, lambda: Doc(first_json(other()))))
            text = doc.to_bytes()
    for _ in range(raw):
        text, label = byte_mutation(rng, text, other)
        chain.append(label)
    return text


# --------------------------------------------------------------------------- store mutators


class _Store:
    """A store copied into a scratch directory, changed with sqlite3, read back."""

    def __init__(self, raw: bytes) -> None:
        self.dir = tempfile.mkdtemp(prefix="fuzz-store-")
        self.path = os.path.join(self.dir, "s.db")
        Path(self.path).write_bytes(raw)
        self.con = sqlite3.connect(self.path, isolation_level=None)
        self.side: dict[str, bytes] = {}

    def sessions(self) -> list[Any]:
        try:
            return [r[0] for r in self.con.execute("SELECT session_id FROM agent_sessions")]
        except sqlite3.Error:
            return []

    def loosen(self) -> None:
        """Rebuild ``agent_sessions`` without STRICT, types or keys, so any value fits."""
        try:
            cols = [r[1] for r in self.con.execute("PRAGMA table_info(agent_sessions)")]
            if not cols:
                return
            listed = ", ".join(cols)
            self.con.executescript(
                f"BEGIN; CREATE TABLE loose ({listed}); "
                f"INSERT INTO loose SELECT {listed} FROM agent_sessions; "
                "DROP TABLE agent_sessions; ALTER TABLE loose RENAME TO agent_sessions; COMMIT;"
            )
        except sqlite3.Error:
            if self.con.in_transaction:
                self.con.execute("ROLLBACK")

    def finish(self) -> bytes:
        self.con.close()
        data = Path(self.path).read_bytes()
        shutil.rmtree(self.dir, ignore_errors=True)
        return data


_SAVED_AT: Final[tuple[Any, ...]] = (
    "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00", "0001-01-01", "9999-12-31T23:59:59Z",
    "2024-02-30T00:00:00Z", "0000-00-00", "2026-01-01T25:61:61Z", "2026-01-01T00:00:00+99:99",
    "", "  ", "NaN", "inf", "-inf", "1e309", "9" * 400, "now", "\x1b[31m2026\u202e",
    2**63 - 1, -(2**63), 9_999_999_999_999_999, -62_135_596_800_001, 253_402_300_800_000,
    1e308, -1e308, 1.5, 0, -1, None, b"\x00\xff", float("nan"), float("inf"),
)  # fmt: skip


def _focus(rng: random.Random, st: _Store) -> Any:
    ids = st.sessions()
    return rng.choice(sorted(ids, key=repr)) if ids else None


def store_envelope(
    rng: random.Random, st: _Store, limits: Limits, other: Callable[[], bytes], chain: list[str]
) -> Any:
    """One session's envelope through the JSON mutators (invalid UTF-8 goes in as TEXT)."""
    sid = _focus(rng, st)
    if sid is None:
        chain.append("envelope(no sessions)")
        return None
    row = st.con.execute(
        "SELECT CAST(envelope AS BLOB) FROM agent_sessions WHERE session_id = ?", (sid,)
    ).fetchone()
    text = row[0] if row and isinstance(row[0], bytes) else b""
    sub: list[str] = []
    structural = rng.choice([1, 1, 2])
    raw = 1 if rng.random() < 0.2 else 0
    text = mutate_json_text(rng, text, limits, other, sub, structural=structural, raw=raw)
    st.con.execute(
        "UPDATE agent_sessions SET envelope = CAST(? AS TEXT) WHERE session_id = ?", (text, sid)
    )
    chain.append(f"envelope[{sid}]:" + "+".join(sub))
    return sid


def store_replace(
    rng: random.Random, st: _Store, limits: Limits, other: Callable[[], bytes], chain: list[str]
) -> Any:
    """A session's envelope replaced by another file (wrapped, bare), garbage or a huge blob."""
    sid = _focus(rng, st)
    if sid is None:
        chain.append("replace(no sessions)")
        return None
    choice = rng.choice(["file", "bare", "garbage", "huge", "empty", "nul"])
    if choice in ("file", "bare"):
        text = other()
        if choice == "file" and b'"format"' not in text[:64]:
            text = b'{"format":"conversation-v1","data":' + text + b',"savedAt":0}'
    elif choice == "garbage":
        text = rng.randbytes(rng.randint(1, 4096))
    elif choice == "huge":
        size = rng.randint(1 << 20, limits.blob_bytes)
        text = b'{"format":"conversation-v1","data":{"runId":"' + b"x" * size + b'"}}'
    elif choice == "empty":
        text = b""
    else:
        text = b"\x00" * rng.randint(1, 1 << 16)
    st.con.execute(
        "UPDATE agent_sessions SET envelope = CAST(? AS TEXT) WHERE session_id = ?", (text, sid)
    )
    chain.append(f"replace[{sid}]({choice},{len(text)})")
    return sid


def store_saved_at(rng: random.Random, st: _Store, chain: list[str]) -> Any:
    st.loosen()
    sid = _focus(rng, st)
    value = rng.choice(_SAVED_AT)
    everyone = rng.random() < 0.3
    try:
        if everyone:
            st.con.execute("UPDATE agent_sessions SET saved_at = ?", (value,))
        else:
            st.con.execute(
                "UPDATE agent_sessions SET saved_at = ? WHERE session_id = ?", (value, sid)
            )
    except (sqlite3.Error, OverflowError):
        chain.append(f"saved-at(refused by sqlite: {value!r:.40})")
        return sid
    chain.append(f"saved-at({'all' if everyone else sid},{value!r:.40})")
    return sid


_WRONG: Final[dict[str, tuple[Any, ...]]] = {
    "session_id": (None, 7, 1.5, b"\x00id", "", "a\nfoldctl: error: forged", "x#y", "\x1b[31mid"),
    "format": (None, 1, "conversation-v2", "flowchart-v1", "conversation-v1", b"conversation-v1"),
    "envelope": (None, 0, 1.5, b"{}", b"\xff\xfe"),
    "owner": (b"\x00\xff", 1, 1e308, "\x1b]0;t\x07", "\u202eowner"),
    "message_count": ("many", -1, 2**63 - 1, 1e308, b"x", None),
}


def store_types(rng: random.Random, st: _Store, chain: list[str]) -> Any:
    st.loosen()
    sid = _focus(rng, st)
    column = rng.choice(sorted(_WRONG))
    value = rng.choice(_WRONG[column])
    try:
        st.con.execute(f"UPDATE agent_sessions SET {column} = ? WHERE session_id = ?", (value, sid))
    except sqlite3.Error as e:
        chain.append(f"types(failed: {e})")
        return sid
    chain.append(f"types({column}={value!r:.40})")
    if column == "session_id":
        return value if isinstance(value, str) else None
    return sid


def store_schema(rng: random.Random, st: _Store, chain: list[str]) -> Any:
    sid = _focus(rng, st)
    choice = rng.choice(
        ["drop-table", "rename-table", "drop-column", "view", "meta-version", "drop-meta",
         "duplicate-row", "extra-column", "upper-name"]
    )  # fmt: skip
    script = {
        "drop-table": "DROP TABLE agent_sessions;",
        "rename-table": "ALTER TABLE agent_sessions RENAME TO sessions_old;",
        "drop-column": "",
        "view": "ALTER TABLE agent_sessions RENAME TO t0; "
        "CREATE VIEW agent_sessions AS SELECT * FROM t0;",
        "meta-version": "UPDATE agent_store_meta SET value = "
        + rng.choice(["'2'", "'x'", "'1.0'", "'NaN'", "'-1'", "'1e999'"])
        + " WHERE key = 'schema_version';",
        "drop-meta": "DROP TABLE agent_store_meta;",
        "duplicate-row": "",
        "extra-column": "ALTER TABLE agent_sessions ADD COLUMN extra TEXT DEFAULT 'x';",
        "upper-name": "ALTER TABLE agent_sessions RENAME TO AGENT_SESSIONS;",
    }[choice]
    try:
        if choice == "drop-column":
            column = rng.choice(["session_id", "format", "saved_at", "envelope", "owner"])
            st.loosen()
            script = f"ALTER TABLE agent_sessions DROP COLUMN {column};"
            choice += f"({column})"
        elif choice == "duplicate-row":
            st.loosen()
            script = "INSERT INTO agent_sessions SELECT * FROM agent_sessions;"
        st.con.executescript(script)
    except sqlite3.Error as e:
        chain.append(f"schema({choice} failed: {e})")
        return sid
    chain.append(f"schema({choice})")
    return sid


def store_wal(rng: random.Random, st: _Store, chain: list[str]) -> None:
    """Leave committed changes in a WAL beside the store, then damage the WAL (or not)."""
    try:
        st.con.execute("PRAGMA journal_mode=WAL")
        st.con.execute("PRAGMA wal_autocheckpoint=0")
        st.con.execute(
            "UPDATE agent_sessions SET owner = 'wal-owner' WHERE rowid IN "
            "(SELECT rowid FROM agent_sessions LIMIT 3)"
        )
        st.con.execute(
            "INSERT INTO agent_sessions (session_id, format, saved_at, envelope) "
            "SELECT 'wal-' || session_id, format, saved_at, envelope FROM agent_sessions LIMIT 1"
        )
    except sqlite3.Error as e:
        chain.append(f"wal(failed: {e})")
        return
    wal = Path(st.path + "-wal").read_bytes()
    shm = Path(st.path + "-shm").read_bytes()
    damage = rng.choice(["none", "header", "truncate", "flip", "salt", "empty", "garbage"])
    if damage == "header":
        wal = rng.randbytes(32) + wal[32:]
    elif damage == "truncate":
        wal = wal[: rng.randint(0, len(wal))]
    elif damage == "flip":
        buf = bytearray(wal)
        for _ in range(rng.randint(1, 16)):
            at = rng.randrange(len(buf))
            buf[at] ^= 1 << rng.randrange(8)
        wal = bytes(buf)
    elif damage == "salt":
        wal = wal[:16] + rng.randbytes(8) + wal[24:]
    elif damage == "empty":
        wal = b""
    elif damage == "garbage":
        wal = rng.randbytes(rng.randint(1, 70_000))
    st.side["-wal"] = wal
    shm_state = rng.choice(["kept", "absent", "garbage"])
    if shm_state == "kept":
        st.side["-shm"] = shm
    elif shm_state == "garbage":
        st.side["-shm"] = rng.randbytes(len(shm) or 32768)
    # The database file as it stands while the WAL holds the changes.
    st.side["db"] = Path(st.path).read_bytes()
    chain.append(f"wal({damage},shm {shm_state},{len(wal)} bytes)")


def store_file_fault(rng: random.Random, data: bytes, chain: list[str]) -> bytes:
    page = int.from_bytes(data[16:18], "big") if len(data) > 18 else 4096
    page = 65536 if page == 1 else page or 4096
    choice = rng.choice(["truncate", "truncate-page", "flip-page", "flip-header", "zero-page"])
    if choice == "truncate":
        at = rng.choice([0, 50, 100, rng.randint(0, len(data))])
        chain.append(f"db-truncate({at})")
        return data[:at]
    pages = max(len(data) // page, 1)
    n = rng.randrange(pages)
    if choice == "truncate-page":
        chain.append(f"db-truncate-page({n})")
        return data[: n * page]
    buf = bytearray(data)
    if choice == "flip-header":
        for _ in range(rng.randint(1, 4)):
            buf[rng.randrange(16, min(100, len(buf)))] ^= 1 << rng.randrange(8)
        chain.append("db-flip-header")
        return bytes(buf)
    start = n * page
    end = min(start + page, len(buf))
    if choice == "zero-page":
        buf[start:end] = bytes(end - start)
        chain.append(f"db-zero-page({n})")
        return bytes(buf)
    for _ in range(rng.randint(1, 32)):
        buf[rng.randrange(start, end)] ^= 1 << rng.randrange(8)
    chain.append(f"db-flip-page({n})")
    return bytes(buf)


def mutate_store(
    rng: random.Random, seed: Seed, limits: Limits, other: Callable[[], bytes]
) -> Mutant:
    chain: list[str] = []
    st = _Store(seed.raw)
    focus: Any = None
    try:
        for _ in range(rng.choice([1, 1, 2])):
            choice = rng.choices(
                ["envelope", "replace", "saved-at", "types", "schema"], weights=[10, 3, 3, 3, 2]
            )[0]
            try:
                if choice == "envelope":
                    focus = store_envelope(rng, st, limits, other, chain) or focus
                elif choice == "replace":
                    focus = store_replace(rng, st, limits, other, chain) or focus
                elif choice == "saved-at":
                    focus = store_saved_at(rng, st, chain) or focus
                elif choice == "types":
                    focus = store_types(rng, st, chain)
                else:
                    focus = store_schema(rng, st, chain) or focus
            except sqlite3.Error as e:  # e.g. the table is now a view
                chain.append(f"{choice}(failed: {e})")
        if rng.random() < limits.wal_rate:
            try:
                store_wal(rng, st, chain)
            except sqlite3.Error as e:
                chain.append(f"wal(failed: {e})")
    finally:
        data = st.finish()
    side = {k: v for k, v in st.side.items() if k != "db"}
    data = st.side.get("db", data)
    if rng.random() < 0.12:
        data = store_file_fault(rng, data, chain)
    if focus is None or not isinstance(focus, str):
        focus = rng.choice(seed.sessions)
    return Mutant("db", data, seed, chain, side, focus)


# --------------------------------------------------------------------------- the scaling check

#: A JSON string literal (its quotes included), on the bytes: escapes kept whole, never
#: across a line (a JSON string holds no raw newline).  Linear: one way to match each byte.
_STRING_LITERAL: Final = re.compile(rb'"(?:[^"\\\n]|\\.)*"')
#: The scaling check leaves out files larger than this, and strings longer than this.
SCALE_MAX_FILE: Final = 4 << 20
SCALE_MAX_STRING: Final = 1 << 20


def scale_longest(data: bytes, kind: str, factor: int = 10) -> tuple[bytes, int] | None:
    """The mutant with its longest string ``factor`` times longer (its text repeated), and
    that string's length in bytes; None for a store, a file too large, a gzip stream that
    does not decompress, or a file without a string of two bytes or more."""
    if kind == "db" or len(data) > SCALE_MAX_FILE:
        return None
    text = data
    if kind in ("gz", "jsonlgz"):
        try:
            text = gzip.decompress(data)
        except (OSError, EOFError, zlib.error):
            return None
        if len(text) > SCALE_MAX_FILE:
            return None
    best: re.Match[bytes] | None = None
    for found in _STRING_LITERAL.finditer(text):
        if best is None or found.end() - found.start() > best.end() - best.start():
            best = found
    if best is None or best.end() - best.start() < 4:
        return None
    inner = text[best.start() + 1 : best.end() - 1]
    if len(inner) > SCALE_MAX_STRING:
        return None
    scaled = text[: best.start() + 1] + inner * factor + text[best.end() - 1 :]
    if kind in ("gz", "jsonlgz"):
        scaled = gzip.compress(scaled, mtime=0)
    return scaled, len(inner)
