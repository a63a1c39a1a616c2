"""The Claude Code chain walk taken a run of plain links at a time gives what the walk one
record at a time gives: the same containers, record for record, the same notes (cycles,
broken chains) and the same refusals, on every generated session case and on mutants of
them (broken chains, uuid cycles, a record its own parent, boundaries pointing nowhere,
duplicate uuids, lines that are not JSON, long chains)."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from foldctl.errors import InputError
from foldctl.formats import claude_code, lines
from tools.fuzz import mutators, sessions
from tools.generate_sessions import claude_cases


def _outcome(data: bytes) -> Any:
    """Each container's records (by line) and every note of the session, or the refusal."""
    try:
        checkpoint = claude_code.load(data, "session.jsonl")
    except InputError as e:
        return ("refused", str(e))
    containers: list[list[int] | None] = [_lines(checkpoint.history)]
    containers += [None if s.messages is None else _lines(s.messages) for s in checkpoint.spans]
    notes = [(n.code, n.message, n.line, n.place) for n in checkpoint.notes]
    return containers, notes


def _lines(records: object) -> list[int]:
    assert isinstance(records, lines.Records)
    return list(records.lines)


def _both(data: bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    runs = _outcome(data)
    with monkeypatch.context() as m:
        m.setattr(claude_code._Session, "_walk_runs", lambda self, *args: None)
        one_by_one = _outcome(data)
    return runs, one_by_one


def _seeds() -> list[tuple[str, bytes]]:
    sample = Path(__file__).parents[2] / "sample_checkpoints" / "claude_code_session.jsonl"
    cases = [(name, data) for name, data in claude_cases().items() if "/" not in name]
    return [("sample", sample.read_bytes()), *cases]


@pytest.mark.parametrize(("name", "data"), _seeds(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_case_walks_the_same(name: str, data: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    runs, one_by_one = _both(data, monkeypatch)
    assert runs == one_by_one
    assert runs[0] != "refused"


@pytest.mark.parametrize(("name", "data"), _seeds(), ids=lambda v: v if isinstance(v, str) else "")
def test_a_boundary_linked_to_the_record_before_it_still_ends_the_walk(
    name: str, data: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The runtime writes a compact_boundary with a null parentUuid; one that names the
    # record before it must still stop the walk, not be walked through.
    records = [json.loads(line) for line in data.splitlines() if line.strip()]
    previous = None
    for record in records:
        if record.get("subtype") == "compact_boundary" and previous is not None:
            record["parentUuid"] = previous
        previous = record.get("uuid", previous)
    relinked = b"".join(json.dumps(r).encode() + b"\n" for r in records)
    runs, one_by_one = _both(relinked, monkeypatch)
    assert runs == one_by_one


def test_mutants_walk_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    seeds = [data for _, data in _seeds()]
    compared = cycles = broken = 0
    for case in range(150):
        rng = random.Random(case)
        seed = rng.choice(seeds)
        other = rng.choice(seeds)
        mutant = sessions.mutate_session(
            rng, seed, mutators.QUICK, functools.partial(bytes, other), []
        )
        runs, one_by_one = _both(mutant, monkeypatch)
        assert runs == one_by_one, f"case {case}"
        compared += 1
        notes = runs[1] if runs[0] != "refused" else []
        cycles += any(code == "chain-cycle" for code, *_ in notes)
        broken += any(code == "broken-chain" for code, *_ in notes)
    # The mutants reach the shapes the runs must hand back to the walk one record at a time
    assert compared == 150 and cycles > 0 and broken > 0
