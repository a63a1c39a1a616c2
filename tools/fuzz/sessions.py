"""Mutants of session files of other runtimes: Claude Code sessions and Codex rollouts.

One JSON record a line.  A mutant is made from the records (each line parsed; a line
that is not JSON stays as its bytes) by the session mutators below, the JSON mutators of
:mod:`tools.fuzz.mutators` over the list of records (type swaps, secrets, huge strings,
controls ... inside any record), and now and then a byte mutation of the whole file.

Session mutators: a parent that no record has (a broken chain), a loop of
``parentUuid``\\ s, a record that is its own parent, a compact boundary whose
``logicalParentUuid`` points nowhere (a Codex ``compacted`` line moved to the start or
emptied), a generated chain of up to 100,000 records ending in a fold, a record
re-appended with its uuid and different content, and lines that are not JSON in the
middle of the file.  Independent of foldctl, like the rest of the mutators.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any, Final

from tools.fuzz import mutators as m

Records = list[Any]  # a parsed record (usually a dict), or a marker string for a raw line


def parse(text: bytes, doc_markers: m.Doc) -> Records:
    """The records of a session file; a line that is not JSON becomes a marker that is
    written back as the line's bytes."""
    records: Records = []
    for line in text.split(b"\n"):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line.decode("utf-8")))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            records.append(doc_markers.marker(line))
    return records


def write(doc: m.Doc) -> bytes:
    """One record a line, compact, the markers replaced by their raw bytes."""
    records = doc.value if isinstance(doc.value, list) else [doc.value]
    out = b"".join(m.dump(r) + b"\n" for r in records)
    for needle, raw in reversed(doc._subs):
        out = out.replace(needle, raw)
    return out


def _uuid(rng: random.Random) -> str:
    return "%08x-%04x-4%03x-%04x-%012x" % (  # noqa: UP031
        rng.getrandbits(32),
        rng.getrandbits(16),
        rng.getrandbits(12),
        0x8000 | rng.getrandbits(14),
        rng.getrandbits(48),
    )


def _with(records: Records, key: str) -> list[dict[str, Any]]:
    return [r for r in records if isinstance(r, dict) and isinstance(r.get(key), str)]


def _is_codex(records: Records) -> bool:
    return any(isinstance(r, dict) and "payload" in r for r in records[:5])


def broken_chain(rng: random.Random, records: Records, limits: m.Limits) -> str:
    linked = _with(records, "parentUuid")
    if not linked:
        return "broken-chain(none)"
    rng.choice(linked)["parentUuid"] = _uuid(rng)
    return "broken-chain"


def uuid_cycle(rng: random.Random, records: Records, limits: m.Limits) -> str:
    """An earlier record's parent set to a later one of its descendants: a loop."""
    with_ids = _with(records, "uuid")
    if len(with_ids) < 2:
        return "uuid-cycle(none)"
    a, b = sorted(rng.sample(range(len(with_ids)), 2))
    with_ids[a]["parentUuid"] = with_ids[b]["uuid"]
    if rng.random() < 0.3:  # and a boundary pointing into the loop
        for r in with_ids:
            if r.get("subtype") == "compact_boundary":
                r["logicalParentUuid"] = with_ids[a]["uuid"]
                break
    return f"uuid-cycle({a},{b})"


def self_parent(rng: random.Random, records: Records, limits: m.Limits) -> str:
    with_ids = _with(records, "uuid")
    if not with_ids:
        return "self-parent(none)"
    record = rng.choice(with_ids)
    key = "logicalParentUuid" if "logicalParentUuid" in record else "parentUuid"
    record[key] = record["uuid"]
    return f"self-parent({key})"


def boundary_nowhere(rng: random.Random, records: Records, limits: m.Limits) -> str:
    """A compact boundary whose chain names nothing; a Codex fold with no originals."""
    if _is_codex(records):
        folds = [
            i for i, r in enumerate(records) if isinstance(r, dict) and r.get("type") == "compacted"
        ]
        if not folds:
            return "boundary-nowhere(none)"
        i = rng.choice(folds)
        choice = rng.choice(["first", "empty", "null-message", "no-payload"])
        if choice == "first":
            records.insert(0, records.pop(i))
        elif choice == "empty":
            records[i]["payload"] = {"message": "", "replacement_history": []}
        elif choice == "null-message":
            records[i]["payload"] = {"message": None}
        else:
            records[i].pop("payload", None)
        return f"boundary-nowhere(codex {choice})"
    bounds = [r for r in records if isinstance(r, dict) and r.get("subtype") == "compact_boundary"]
    if not bounds:
        return "boundary-nowhere(none)"
    bound = rng.choice(bounds)
    choice = rng.choice(["unknown", "null", "missing", "summary-orphan", "preserved"])
    if choice == "unknown":
        bound["logicalParentUuid"] = _uuid(rng)
    elif choice == "null":
        bound["logicalParentUuid"] = None
    elif choice == "missing":
        bound.pop("logicalParentUuid", None)
    elif choice == "summary-orphan":  # the summary's parent is no boundary
        for r in records:
            if isinstance(r, dict) and r.get("isCompactSummary"):
                r["parentUuid"] = _uuid(rng)
                break
    else:
        meta = bound.setdefault("compactMetadata", {})
        if isinstance(meta, dict):
            meta["preservedSegment"] = {
                "headUuid": _uuid(rng),
                "anchorUuid": _uuid(rng),
                "tailUuid": _uuid(rng),
            }
    return f"boundary-nowhere({choice})"


def duplicate_uuid(rng: random.Random, records: Records, limits: m.Limits) -> str:
    """A record written again with its uuid and different content (before or after)."""
    with_ids = _with(records, "uuid") or [r for r in records if isinstance(r, dict)]
    if not with_ids:
        return "duplicate-uuid(none)"
    copy = json.loads(json.dumps(rng.choice(with_ids)))
    payload = copy.get("payload")
    if isinstance(payload, dict):  # a Codex line: the same line with other content
        payload["content"] = [{"type": "output_text", "text": "changed"}]
    message = copy.get("message")
    if isinstance(message, dict):
        message["content"] = rng.choice(["changed", [{"type": "text", "text": "changed"}], None])
    else:
        copy["type"] = rng.choice(["user", "assistant", "system", "summary"])
    where = rng.randint(0, len(records))
    records.insert(where, copy)
    return f"duplicate-uuid(at {where})"


_NOT_JSON: Final = (
    b"{", b'{"uuid":', b"not json", b"\xff\xfe\x00", b"}{", b'{"a":1}{"b":2}', b"[1,2",
    b"\x00\x00\x00", b"NaN", b'{"type":"user","message":', b"\x1b[31mred\x1b[0m",
)  # fmt: skip


def not_json_line(rng: random.Random, records: Records, limits: m.Limits, doc: m.Doc) -> str:
    """A line that is not JSON in the middle of the file (or a record cut short)."""
    if not records:
        return "not-json(none)"
    where = rng.randint(1, max(1, len(records) - 1))
    if rng.random() < 0.4 and isinstance(records[where - 1], dict):
        raw = m.dump(records[where - 1])
        raw = raw[: rng.randint(1, max(1, len(raw) - 1))]
        label = "cut"
    else:
        raw = rng.choice(_NOT_JSON)
        label = repr(raw[:12])
    records.insert(where, doc.marker(raw))
    return f"not-json({label} at line {where + 1})"


def _claude_chain(rng: random.Random, records: Records, count: int) -> None:
    """``count`` records chained by ``parentUuid`` after the last record, then a fold."""
    last = next((r for r in reversed(records) if isinstance(r, dict) and "uuid" in r), None)
    session = last.get("sessionId", "s") if last else "s"
    parent = last.get("uuid") if last else None
    for n in range(count):
        uid = f"c{n:07d}-0000-4000-8000-{rng.getrandbits(48):012x}"
        role = "user" if n % 2 == 0 else "assistant"
        records.append(
            {
                "parentUuid": parent,
                "sessionId": session,
                "type": role,
                "uuid": uid,
                "message": {"role": role, "content": f"step {n}"},
                "timestamp": "2025-06-02T09:00:00.000Z",
            }
        )
        parent = uid
    boundary = _uuid(rng)
    records.append(
        {
            "parentUuid": None,
            "logicalParentUuid": parent,
            "sessionId": session,
            "type": "system",
            "subtype": "compact_boundary",
            "content": "Conversation compacted",
            "uuid": boundary,
            "compactMetadata": {"trigger": "auto", "preTokens": 150000},
            "timestamp": "2025-06-02T10:00:00.000Z",
        }
    )
    records.append(
        {
            "parentUuid": boundary,
            "sessionId": session,
            "type": "user",
            "uuid": _uuid(rng),
            "isCompactSummary": True,
            "message": {"role": "user", "content": f"Summary: {count} steps were taken."},
            "timestamp": "2025-06-02T10:00:01.000Z",
        }
    )


def _codex_chain(records: Records, count: int) -> None:
    for n in range(count):
        records.append(
            {
                "timestamp": "2025-09-10T14:00:00.000Z",
                "type": "response_item",
                "payload": {
                    "type": "message",
                    "role": "user" if n % 2 == 0 else "assistant",
                    "content": [{"type": "output_text", "text": f"step {n}"}],
                },
            }
        )
    records.append(
        {
            "timestamp": "2025-09-10T15:00:00.000Z",
            "type": "compacted",
            "payload": {"message": f"Summary: {count} steps were taken."},
        }
    )


def long_chain(rng: random.Random, records: Records, limits: m.Limits) -> str:
    """A chain of up to ``limits.session_chain`` records (100,000) folded at its end."""
    count = rng.choice(sorted({1_000, 10_000, limits.session_chain}))
    if _is_codex(records):
        _codex_chain(records, count)
    else:
        _claude_chain(rng, records, count)
    return f"long-chain({count})"


SessionMutator = Callable[[random.Random, Records, m.Limits, m.Doc], str]
SESSION_MUTATORS: Final[dict[str, tuple[SessionMutator, int]]] = {
    "broken-chain": (lambda r, rec, lim, d: broken_chain(r, rec, lim), 6),
    "uuid-cycle": (lambda r, rec, lim, d: uuid_cycle(r, rec, lim), 6),
    "self-parent": (lambda r, rec, lim, d: self_parent(r, rec, lim), 4),
    "boundary-nowhere": (lambda r, rec, lim, d: boundary_nowhere(r, rec, lim), 6),
    "duplicate-uuid": (lambda r, rec, lim, d: duplicate_uuid(r, rec, lim), 5),
    "not-json": (not_json_line, 6),
    "long-chain": (lambda r, rec, lim, d: long_chain(r, rec, lim), 2),
}


def mutate_session(
    rng: random.Random,
    text: bytes,
    limits: m.Limits,
    other: Callable[[], bytes],
    chain: list[str],
) -> bytes:
    """One to three mutations of a session file: the session mutators (most often), the
    JSON mutators over its records, and now and then a byte mutation of the file."""
    doc = m.Doc(None)
    doc.value = parse(text, doc)
    count = rng.choices([1, 2, 3], weights=[6, 3, 1])[0]
    raw = 0
    for _ in range(count):
        family = rng.choices(["session", "json", "bytes"], weights=[6, 4, 1])[0]
        if family == "bytes":
            raw += 1
        elif family == "session":
            names = list(SESSION_MUTATORS)
            weights = [
                SESSION_MUTATORS[n][1] * (limits.heavy_weight if n in m.HEAVY else 1.0)
                for n in names
            ]
            name = rng.choices(names, weights=weights)[0]
            chain.append(SESSION_MUTATORS[name][0](rng, doc.value, limits, doc))
        else:
            name = m.pick_json_mutator(rng, limits)
            fn = m.JSON_MUTATORS[name][0]
            chain.append(fn(rng, doc, limits, lambda: m.Doc(m.first_json(other()))))
    out = write(doc)
    for _ in range(raw):
        out, label = m.byte_mutation(rng, out, other)
        chain.append(label)
    return out
