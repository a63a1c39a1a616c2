"""The expansion bound is measured before printing: the size it computes from the fold graph
is exactly what the walks then print, with replays in full or by reference, with the
detached and orphan spans or without."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from foldctl import jsoncodec
from foldctl.errors import InputError
from foldctl.graph.open import open_graph
from foldctl.graph.walk import Replays, Row, expansion_bytes, expansion_size, walk, walk_floating
from tests.support import CONFORMANCE, SAMPLES

REGRESSIONS = Path(__file__).resolve().parent.parent / "fuzz" / "regressions"
SOURCES = (
    sorted(SAMPLES.glob("*.json"))
    + sorted(p for p in CONFORMANCE.glob("*.json") if not p.name.endswith(".expected.json"))
    + [REGRESSIONS / "detached-replays.json", REGRESSIONS / "report-replays-in-full.json"]
)


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
@pytest.mark.parametrize("replays", ["full", "ref"])
def test_the_size_is_what_the_walks_print(source: Path, replays: Replays) -> None:
    try:
        graph, _ = open_graph(str(source), None)
    except InputError:
        pytest.skip("not a checkpoint foldctl reads")
    history = sum(1 for e in walk(graph, replays=replays) if isinstance(e, Row))
    floating = sum(1 for e in walk_floating(graph, replays=replays) if isinstance(e, Row))
    assert expansion_size(graph, replays=replays) == history
    assert expansion_size(graph, replays=replays, floating=True) == history + floating


def test_by_reference_every_span_is_shown_once_in_all() -> None:
    graph, _ = open_graph(str(REGRESSIONS / "detached-replays.json"), None)
    held = len(graph.checkpoint.history) + sum(len(s.messages or ()) for s in graph.spans)
    rows = [
        e
        for stream in (walk(graph, replays="ref"), walk_floating(graph, replays="ref"))
        for e in stream
        if isinstance(e, Row)
    ]
    assert len(rows) <= held
    assert len({(r.context.span, r.index) for r in rows}) == len(rows)


BYTE_SOURCES = [
    REGRESSIONS / name
    for name in ("expansion-bytes.json", "detached-replays.json", "report-replays-in-full.json")
]


@pytest.mark.parametrize("source", BYTE_SOURCES, ids=lambda p: p.name)
@pytest.mark.parametrize("floating", [False, True])
def test_the_bytes_measured_are_the_bytes_of_the_messages_printed(
    source: Path, floating: bool
) -> None:
    graph, _ = open_graph(str(source), None)
    measured = expansion_bytes(graph, floating=floating)
    assert measured is not None  # each of these replays a span
    rows = [e for e in walk(graph) if isinstance(e, Row)]
    if floating:
        rows += [e for e in walk_floating(graph) if isinstance(e, Row)]
    printed = sum(len(jsoncodec.dumps(graph.container_messages(r.span)[r.index])) for r in rows)
    assert measured[0] == printed
    stored = json.loads(source.read_bytes())
    held = [stored["history"], *(s.get("messages") or [] for s in stored["folded"])]
    assert measured[1] == sum(len(jsoncodec.dumps(m)) for ms in held for m in ms)


def test_a_record_that_replays_nothing_is_not_measured_in_bytes() -> None:
    graph, _ = open_graph(str(SAMPLES / "nested_chain.json"), None)
    assert expansion_bytes(graph, floating=True) is None
