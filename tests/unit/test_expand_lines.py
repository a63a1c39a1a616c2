"""``expand --format jsonl`` writes each row without building its object
(``query.records.message_lines``): byte for byte what the object would encode to, on every
sample, conformance file and generated session, under the options that change the rows."""

from __future__ import annotations

import copy
from pathlib import Path

import orjson
import pytest

from foldctl import jsoncodec
from foldctl.graph.open import open_graph
from foldctl.graph.resolve import FoldGraph
from foldctl.graph.walk import Row
from foldctl.query.records import message_lines, message_object
from foldctl.query.transcript import transcript
from tests.support import CONFORMANCE, SAMPLES, run_cli
from tests.support.builders import audit_monday, write_doc
from tools.generate_sessions import write_cases

OPTIONS = [
    {},
    {"keep_frames": True},
    {"include_detached": True, "keep_frames": True},
    {"depth": 1},
    {"replays": "full"},
]


def sources(tmp_path: Path) -> list[Path]:
    replayed = audit_monday().checkpoint()
    replayed["history"].append(copy.deepcopy(replayed["history"][1]))  # a frame replayed
    found = [write_doc(tmp_path / "replayed.json", replayed)]
    found += [
        p
        for p in [*SAMPLES.iterdir(), *CONFORMANCE.glob("*.json")]
        if p.suffix in (".json", ".jsonl", ".gz") and not p.name.endswith(".expected.json")
    ]
    found += write_cases(tmp_path)
    return sorted(found)


def test_every_line_is_what_its_object_encodes_to(tmp_path: Path) -> None:
    checked = 0
    for path in sources(tmp_path):
        graph, _ = open_graph(str(path))
        for options in OPTIONS:
            fast = b"".join(message_lines(transcript(graph, **options).events))  # type: ignore[arg-type]
            slow = b"".join(
                jsoncodec.dumps(o) + b"\n"
                for o in transcript(graph, **options).records()  # type: ignore[arg-type]
            )
            assert fast == slow, (path.name, options)
            checked += fast.count(b"\n")
    assert checked > 1000
    replays = [orjson.loads(line)["occurrence"] for line in _lines(tmp_path / "replayed.json")]
    assert 2 in replays  # the replayed span's rows say so


def _lines(path: Path) -> list[bytes]:
    graph, _ = open_graph(str(path))
    return b"".join(message_lines(transcript(graph, replays="full").events)).splitlines()


@pytest.mark.parametrize(
    "record",
    [
        {"role": "user", "content": "has a digest key", "digest": "mine"},  # foldctl's key wins
        {"role": "user", "content": "lone \ud83d surrogate"},  # orjson cannot encode it
    ],
    ids=["own-key", "surrogate"],
)
def test_a_message_the_fast_way_cannot_write_is_written_as_its_object(
    tmp_path: Path, record: dict[str, object]
) -> None:
    history = [{"role": "user", "content": "first"}, record]
    doc = {
        "version": 1,
        "runId": "r",
        "lastCompletedIteration": 1,
        "originalInput": {"message": "hi"},
        "checkpointedAt": 1773000000000,
        "history": history,
    }
    path = tmp_path / "c.json"
    path.write_bytes(jsoncodec.dumps(doc))
    result = run_cli("expand", str(path), "-f", "jsonl")
    assert result.exit_code == 0, result.stderr
    graph, _ = open_graph(str(path))
    expected = [jsoncodec.dumps(message_object(row)) for row in _rows(graph)]
    assert result.stdout_bytes.splitlines() == expected
    last = jsoncodec.loads(expected[-1], "x")
    assert last["digest"].startswith("xxh3-128:") and last["locator"] == "h1"
    if "digest" not in record:
        assert orjson.loads(result.stdout_bytes.splitlines()[0])["content"] == "first"


def test_an_empty_message_is_written_as_its_object() -> None:
    from foldctl.graph.walk import Context, Row

    row = Row({}, Context(None, None, None, 0), 3)
    [line] = message_lines([row])
    assert line == jsoncodec.dumps(message_object(row)) + b"\n"
    assert orjson.loads(line)["locator"] == "h3"


def _rows(graph: FoldGraph) -> list[Row]:
    return [e for e in transcript(graph).events if isinstance(e, Row)]
