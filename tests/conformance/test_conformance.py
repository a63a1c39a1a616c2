"""Every oracle in ../shared/conformance, computed by the reference runtime, must agree."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from foldctl.fingerprint import fnv1a32
from foldctl.formats.source import load_source
from foldctl.graph.resolve import FoldGraph, resolve
from foldctl.graph.walk import CHAIN_FIELD_MAX, Row, walk
from foldctl.model import is_frame
from tests.support import CONFORMANCE, conformance_cases, conformance_params, run_cli

CASES: list[Any] = conformance_params()


def _oracle(name: str) -> dict[str, Any]:
    # The stdlib reader keeps lone surrogates exactly as JSON.parse does.
    with (CONFORMANCE / f"{name}.expected.json").open(encoding="utf-8") as f:
        oracle: dict[str, Any] = json.load(f)
    return oracle


def _graph(name: str) -> FoldGraph:
    return resolve(load_source(str(CONFORMANCE / f"{name}.json")))


@pytest.mark.parametrize("name", CASES)
def test_history_fingerprints_and_joins(name: str) -> None:
    oracle, graph = _oracle(name), _graph(name)
    history = graph.checkpoint.history
    assert len(history) == len(oracle["history"])
    for message, want in zip(history, oracle["history"], strict=True):
        i = want["index"]
        assert fnv1a32(message["content"]) == want["summaryFingerprint"], f"history[{i}]"
        assert is_frame(message) == want["isCompactedSummary"], f"history[{i}]"
        ref = graph.frame_at(None, i)
        joined = None if ref is None else ref.span
        assert joined == want["foldedSpanIndex"], f"history[{i}]"


@pytest.mark.parametrize("name", CASES)
def test_spans_read_as_stored(name: str) -> None:
    oracle, graph = _oracle(name), _graph(name)
    assert len(graph.spans) == len(oracle["folded"])
    assert graph.checkpoint.has_folded == ("folded" in oracle["topLevelFieldOrder"])
    for span, want in zip(graph.spans, oracle["folded"], strict=True):
        assert span.fingerprint == want["summaryFingerprint"]
        assert span.run_id == want["runId"]
        assert span.iteration == want["iteration"]
        assert span.folded_at_ms == want["foldedAtMs"]
        assert span.model == want["model"]
        assert span.message_count == want["messageCount"]
        assert list(span.removed_stage_ids or ()) == want["removedStageIds"]
        assert span.retained == want["retained"]
        assert list(span.stored()) == want["fieldOrder"]
        assert (span.messages is not None) == want["hasMessages"]
        assert (None if span.messages is None else len(span.messages)) == want["messagesLength"]


@pytest.mark.parametrize("name", CASES)
def test_span_locations(name: str) -> None:
    """Every message that joins a span, wherever it sits, is where the oracle says."""
    oracle, graph = _oracle(name), _graph(name)
    for entry in oracle["spanLocations"]:
        want = sorted(
            (-1 if at["in"] == "history" else at["span"], at["index"]) for at in entry["at"]
        )
        got = sorted(
            (-1 if ref.container is None else ref.container, ref.index)
            for ref in graph.frames.values()
            if ref.span == entry["span"]
        )
        assert got == want, f"span {entry['span']}"


@pytest.mark.parametrize("name", CASES)
def test_folded_messages_flattened(name: str) -> None:
    oracle, graph = _oracle(name), _graph(name)
    flattened = [m for span in graph.spans for m in span.messages or ()]
    assert flattened == oracle["foldedMessages"]


@pytest.mark.parametrize("name", CASES)
def test_full_expansion(name: str) -> None:
    oracle, graph = _oracle(name), _graph(name)
    rows = [e for e in walk(graph) if isinstance(e, Row)]
    got = [
        {
            "position": n,
            "chain": list(row.context.chain()),
            "isCompactedSummary": is_frame(row.message),
            "message": row.message,
        }
        for n, row in enumerate(rows)
    ]
    want = [
        {k: e[k] for k in ("position", "chain", "isCompactedSummary", "message")}
        for e in oracle["fullyExpanded"]
    ]
    assert got == want
    # What is kept unexpanded, and why, agrees with the oracle's keptBecause.
    because = {"no-span": "unresolved", "span-has-no-messages": "discarded", "cycle": "cycle"}
    for row, entry in zip(rows, oracle["fullyExpanded"], strict=True):
        if "keptBecause" in entry:
            assert row.frame is not None
            assert row.frame.resolution == because[entry["keptBecause"]]
        else:
            assert row.frame is None


@pytest.mark.parametrize("name", CASES)
def test_unreachable_spans_are_not_placed(name: str) -> None:
    oracle, graph = _oracle(name), _graph(name)
    unplaced = [i for i, p in enumerate(graph.places) if p.placement != "placed"]
    assert unplaced == oracle["unreachableSpans"]


@pytest.mark.parametrize("name", CASES)
def test_expand_jsonl_locators_reach_their_messages(name: str) -> None:
    """`foldctl expand --format jsonl` gives every message a short locator that leads back to
    it, and the chain of spans the oracle gives it (its innermost CHAIN_FIELD_MAX in a row)."""
    result = run_cli("expand", str(CONFORMANCE / f"{name}.json"), "--format", "jsonl")
    assert result.exit_code == 0, result.stderr
    # Split on "\n" only: JSON strings may hold a raw U+2028, which splitlines() breaks on.
    lines = [json.loads(line) for line in result.stdout.split("\n") if line]
    assert len(lines) == _oracle(name)["counts"]["fullyExpandedLength"]
    graph = _graph(name)
    oracle_rows = _oracle(name)["fullyExpanded"]
    for obj, entry in zip(lines, oracle_rows, strict=True):
        assert obj["chain"] == entry["chain"][-CHAIN_FIELD_MAX:]
        assert obj["depth"] == len(entry["chain"])
        assert obj["span"] == (entry["chain"][-1] if entry["chain"] else None)
        container, _, index = obj["locator"].lstrip("hf").partition(":")
        span = None if obj["locator"].startswith("h") else int(container)
        stored = graph.container_messages(span)[int(index or container)]
        assert {k: obj[k] for k in stored} == stored


def test_corpus_present_or_skipped(conformance: Path) -> None:
    """With the corpus beside the repo, every data file has an oracle."""
    data = {p.name for p in conformance.glob("*.json") if not p.name.endswith(".expected.json")}
    assert {f"{name}.json" for name in conformance_cases()} == data
