"""show / expand / spans / stages as a user runs them: formats, options, locators, errors."""

from __future__ import annotations

import csv
import gzip
import io
import json
import re
from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.support import CONFORMANCE, run_cli, run_proc
from tests.support.builders import checkpoint_of, frame_of, span_of

NESTED = CONFORMANCE / "c_nested_one_run.json"


def write(tmp_path: Path, doc: Any, name: str = "cp.json") -> str:
    path = tmp_path / name
    path.write_bytes(orjson.dumps(doc) if not isinstance(doc, bytes) else doc)
    return str(path)


def chain(depth: int) -> dict[str, Any]:
    """A chain of ``depth`` folds, each swallowing the previous summary and one message."""
    folded: list[dict[str, Any]] = []
    previous: dict[str, Any] | None = None
    for i in range(depth):
        originals = [{"role": "assistant", "content": f"original {i}"}]
        if previous is not None:
            originals.insert(0, previous)
        content = frame_of(len(originals), i + 1, "mock-model", f"summary {i}")
        folded.append(span_of(content, originals, i))
        previous = {"role": "user", "content": content}
    assert previous is not None
    return checkpoint_of([{"role": "user", "content": "start"}, previous], folded)


def jsonl(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.split("\n") if line]


# --- show --------------------------------------------------------------------------------


def test_show_tree_lists_every_span_nested(tmp_path: Path) -> None:
    result = run_cli("show", write(tmp_path, chain(4)))
    assert result.exit_code == 0
    tree = [line for line in result.stdout.splitlines() if " span " in line and "`- " in line]
    assert [line.split("span ")[1].split()[0] for line in tree] == ["3", "2", "1", "0"]
    # each level indents further, and names its frame's locator
    indents = [len(line) - len(line.lstrip()) for line in tree]
    assert indents == sorted(indents) and len(set(indents)) == 4
    assert "`- f1:0  span 0" in tree[-1]
    assert "4 spans: 4 retained, 0 discarded" in result.stdout
    assert "2 messages, 1 summary frame (0 unresolved)" in result.stdout


def test_show_json_counts(tmp_path: Path) -> None:
    doc = chain(3)
    doc["history"].append({"role": "user", "content": frame_of(2, 9, "m", "forged summary")})
    result = run_cli("show", write(tmp_path, doc), "--format", "json")
    data = json.loads(result.stdout)
    assert data["shape"] == "checkpoint"
    assert data["counts"]["spans"] == 3
    assert data["counts"]["liveFrames"] == 2
    assert data["counts"]["unresolvedLiveFrames"] == 1
    assert [n["span"] for n in data["tree"]] == [2, 1, 0]
    assert [n["depth"] for n in data["tree"]] == [1, 2, 3]


def test_show_names_envelope_shapes(conformance: Path) -> None:
    for name, shape in [
        ("g_envelope_conversation.json", "conversation-v1"),
        ("g_envelope_paused.json", "flowchart-v1"),
        ("a_one_fold_conversation.json", "checkpoint"),
    ]:
        result = run_cli("show", str(conformance / name), "--format", "json")
        assert json.loads(result.stdout)["shape"] == shape


# --- expand ------------------------------------------------------------------------------


def test_expand_recovers_folded_messages_in_order(tmp_path: Path) -> None:
    rows = jsonl(run_cli("expand", write(tmp_path, chain(3)), "--format", "jsonl").stdout)
    assert [r["content"] for r in rows] == ["start", "original 0", "original 1", "original 2"]
    assert [r["span"] for r in rows] == [None, 0, 1, 2]
    assert [r["depth"] for r in rows] == [0, 3, 2, 1]
    assert rows[1]["locator"] == "f0:0"
    assert [r["chain"] for r in rows] == [[], [2, 1, 0], [2, 1], [2]]
    assert all(r["occurrence"] == 1 for r in rows)
    assert all(r["digest"].startswith("xxh3-128:") for r in rows)


def test_expand_keep_frames_and_depth(tmp_path: Path) -> None:
    source = write(tmp_path, chain(3))
    kept = jsonl(run_cli("expand", source, "-f", "jsonl", "--keep-frames").stdout)
    frames = [r for r in kept if "resolution" in r]
    assert [(r["locator"], r["resolution"], r["joinsSpan"]) for r in frames] == [
        ("h1", "expanded", 2),
        ("f2:0", "expanded", 1),
        ("f1:0", "expanded", 0),
    ]
    shallow = jsonl(run_cli("expand", source, "-f", "jsonl", "--depth", "1").stdout)
    assert [r["locator"] for r in shallow] == ["h0", "f2:0", "f2:1"]
    assert shallow[1]["resolution"] == "depth-limit"


def test_expand_only_one_summary(tmp_path: Path) -> None:
    source = write(tmp_path, chain(3))
    for name in ("h1>f2:0", "f2:0"):  # the path form is still read
        rows = jsonl(run_cli("expand", source, "-f", "jsonl", "--only", name).stdout)
        assert [r["content"] for r in rows] == ["original 0", "original 1"]
        assert rows[0]["locator"] == "f0:0" and rows[0]["chain"] == [2, 1, 0]
    one = jsonl(run_cli("expand", source, "-f", "jsonl", "--only", "h0").stdout)
    assert [r["content"] for r in one] == ["start"]
    span = jsonl(run_cli("expand", source, "-f", "jsonl", "--only", "f1").stdout)
    assert [r["content"] for r in span] == ["original 0", "original 1"]
    missing = run_cli("expand", source, "--only", "f9")
    assert missing.exit_code == 2 and "there is no span 9" in missing.stderr
    wrong = run_cli("expand", source, "--only", "h1>f0:0")
    assert wrong.exit_code == 2 and "h1 joins span 2, not span 0" in wrong.stderr


def test_expand_only_with_depth_opens_one_level_below_the_name(tmp_path: Path) -> None:
    source = write(tmp_path, chain(3))

    def opened(*args: str) -> list[tuple[str, str | None]]:
        rows = jsonl(run_cli("expand", source, "-f", "jsonl", *args).stdout)
        return [(r["locator"], r.get("resolution")) for r in rows]

    top = opened("--depth", "1")  # from the top: span 2 opened, its frame of span 1 not
    assert top == [("h0", None), ("f2:0", "depth-limit"), ("f2:1", None)]
    for name in ("h1", "f2"):  # the frame of span 2, or span 2 itself: the same one level
        assert opened("--only", name, "--depth", "1") == top[1:]
    assert opened("--only", "h1", "--depth", "0") == [("h1", "depth-limit")]
    assert opened("--only", "h1", "--depth", "2") == [
        ("f1:0", "depth-limit"),
        ("f1:1", None),
        ("f2:1", None),
    ]


def test_expand_labels_what_it_cannot_expand(tmp_path: Path) -> None:
    discarded = frame_of(2, 1, "m", "gone")
    forged = frame_of(5, 2, "m", "never happened")
    doc = checkpoint_of(
        [{"role": "user", "content": discarded}, {"role": "user", "content": forged}],
        [span_of(discarded, None, 0)],
    )
    result = run_cli("expand", write(tmp_path, doc))
    assert "[discarded: span 0," in result.stdout
    assert "[unresolved: fingerprint" in result.stdout
    rows = jsonl(run_cli("expand", write(tmp_path, doc), "-f", "jsonl").stdout)
    assert [r["resolution"] for r in rows] == ["discarded", "unresolved"]
    assert rows[1]["joinsSpan"] is None


def test_cycle_terminates_and_is_labelled(tmp_path: Path) -> None:
    content = frame_of(1, 1, "m", "I contain myself")
    me = {"role": "user", "content": content}
    folded = [span_of(content, [me, {"role": "assistant", "content": "inside"}], 0)]
    rows = jsonl(
        run_cli("expand", write(tmp_path, checkpoint_of([me], folded)), "-f", "jsonl").stdout
    )
    assert [(r["locator"], r.get("resolution")) for r in rows] == [
        ("f0:0", "cycle"),
        ("f0:1", None),
    ]


def test_detached_span_floats_only_when_asked(tmp_path: Path) -> None:
    # span 0 is retained; its frame was swallowed by span 1, which discarded its messages.
    first = frame_of(1, 1, "m", "first summary")
    second = frame_of(2, 2, "m", "second summary", retained=False)
    s0 = span_of(first, [{"role": "assistant", "content": "kept original"}], 0)
    s1 = span_of(second, None, 1)
    s1["removedStageIds"] = ["compact#7", "tool-calls#8"]
    source = write(tmp_path, checkpoint_of([{"role": "user", "content": second}], [s0, s1]))
    plain = jsonl(run_cli("expand", source, "-f", "jsonl").stdout)
    assert [r["content"] for r in plain] == [second]
    floating = jsonl(run_cli("expand", source, "-f", "jsonl", "--include-detached").stdout)
    assert floating[-1]["content"] == "kept original"
    assert floating[-1]["placement"] == "detached"
    assert floating[-1]["locator"] == "f0:0"
    text = run_cli("expand", source, "--include-detached").stdout
    assert "detached: its frame was swallowed by a later fold" in text
    spans_out = jsonl(run_cli("spans", source, "-f", "jsonl").stdout)
    assert [s["placement"] for s in spans_out] == ["detached", "placed"]


def test_ten_thousand_nested_folds_expand(tmp_path: Path) -> None:
    """No recursion limit, and every original comes back in order."""
    from foldctl.graph.resolve import resolve
    from foldctl.graph.walk import Row, walk
    from foldctl.load.exact import load_document

    depth = 10_000
    graph = resolve(load_document(chain(depth), "chain"))
    assert all(p.placement == "placed" for p in graph.places)
    assert graph.places[0].depth == depth
    rows = [e for e in walk(graph) if isinstance(e, Row)]
    assert [r.message["content"] for r in rows] == ["start"] + [
        f"original {i}" for i in range(depth)
    ]
    assert rows[1].depth == depth and rows[1].context.chain()[0] == depth - 1
    assert rows[-1].locator == f"f{depth - 1}:1"


# --- tables ------------------------------------------------------------------------------


def test_spans_and_stages_tables(tmp_path: Path) -> None:
    source = write(tmp_path, chain(2))
    rows = list(csv.DictReader(io.StringIO(run_cli("spans", source, "-f", "csv").stdout)))
    assert [r["span"] for r in rows] == ["0", "1"]
    assert rows[0]["frame"] == "f1:0"
    assert rows[0]["foldedAt"] == "2023-11-14T22:13:20.000Z"
    stages = jsonl(run_cli("stages", source, "-f", "jsonl").stdout)
    assert [(s["stageId"], s["span"]) for s in stages] == [("tool-calls#0", 0), ("tool-calls#1", 1)]
    tsv = run_cli("stages", source, "-f", "tsv").stdout.splitlines()
    assert tsv[0].split("\t") == ["stageId", "span", "runId", "iteration", "model", "foldedAt"]


# --- sources and errors ------------------------------------------------------------------


def test_gzip_and_stdin_read_the_same(tmp_path: Path) -> None:
    data = orjson.dumps(chain(2))
    gz = tmp_path / "cp.json.gz"
    gz.write_bytes(gzip.compress(data))
    plain = run_cli("expand", write(tmp_path, data), "-f", "jsonl").stdout
    assert run_cli("expand", str(gz), "-f", "jsonl").stdout == plain
    assert run_cli("expand", "-", "-f", "jsonl", stdin=data).stdout == plain


@pytest.mark.parametrize(
    ("mutate", "where", "expected"),
    [
        (lambda d: d.update(version=2), "version", "unsupported checkpoint version 2"),
        (lambda d: d.update(history={}), "history", "expected an array"),
        (lambda d: d["history"][1].pop("content"), "history[1].content", "missing"),
        (lambda d: d["folded"][1].update(messageCount="2"), "folded[1].messageCount", "number"),
        (
            lambda d: d["folded"][1]["messages"][0].update(content=5),
            "folded[1].messages[0].content",
            "expected a string, found a number",
        ),
        (lambda d: d["folded"][0].update(retained="maybe"), "folded[0].retained", '"maybe"'),
    ],
)
def test_invalid_checkpoint_names_the_json_path(
    tmp_path: Path, mutate: Any, where: str, expected: str
) -> None:
    doc = chain(2)
    mutate(doc)
    source = write(tmp_path, doc)
    result = run_cli("show", source)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert f"{source}: {where}: " in result.stderr and expected in result.stderr


def test_unknown_envelope_and_not_json(tmp_path: Path) -> None:
    result = run_cli("show", write(tmp_path, {"format": "chat-v9", "data": {}}))
    assert result.exit_code == 2 and 'unknown envelope format "chat-v9"' in result.stderr
    result = run_cli("show", write(tmp_path, b'{"version": 1, "history": [', "cut.json"))
    assert result.exit_code == 2 and "cut.json: byte 27: not valid JSON" in result.stderr


def test_lone_surrogate_file_loads_and_keeps_the_surrogate(tmp_path: Path) -> None:
    doc = chain(1)
    text = orjson.dumps(doc).replace(b"original 0", b"cut \\ud83d")
    # the span's own summary fingerprint is unaffected: only the folded message changes
    rows = jsonl(run_cli("expand", write(tmp_path, text), "-f", "jsonl").stdout)
    assert rows[1]["content"] == "cut \ud83d"
    text_out = run_cli("expand", write(tmp_path, text)).stdout
    assert "cut \\ud83d" in text_out


# --- real processes ----------------------------------------------------------------------


def test_broken_pipe_is_quiet(tmp_path: Path) -> None:
    import subprocess
    import sys

    source = write(tmp_path, chain(300))
    proc = subprocess.run(
        f"{sys.executable} -m foldctl expand {source} --format jsonl | head -c 100",
        shell=True,
        capture_output=True,
        check=False,
    )
    assert len(proc.stdout) == 100
    assert b"Traceback" not in proc.stderr and b"Error" not in proc.stderr


def test_errors_are_one_line_without_traceback(tmp_path: Path) -> None:
    proc = run_proc("expand", str(tmp_path / "missing.json"))
    assert proc.returncode == 2
    assert proc.stderr.decode() == f"foldctl: error: {tmp_path / 'missing.json'}: no such file\n"


@pytest.mark.parametrize("args", [["--version"], ["show", "{src}", "--format", "json"]])
def test_machine_paths_do_not_import_rich(tmp_path: Path, args: list[str]) -> None:
    import subprocess
    import sys

    source = write(tmp_path, chain(2))
    argv = [a.replace("{src}", source) for a in args]
    code = (
        "import sys\nfrom foldctl.cli.main import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "sys.stderr.write('rich imported' if 'rich' in sys.modules else 'no rich')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, check=False)
    assert proc.stderr.decode().endswith("no rich"), proc.stderr


def test_python_m_and_version() -> None:
    proc = run_proc("--version")
    assert proc.returncode == 0 and proc.stdout.decode().startswith("foldctl ")


def test_nested_conformance_show_has_whole_tree(conformance: Path) -> None:
    result = run_cli("show", str(NESTED), "--format", "json")
    tree = json.loads(result.stdout)["tree"]
    assert [n["span"] for n in tree] == [5, 4, 3, 2, 1, 0]


def test_deep_nesting_is_drawn_with_its_depth_not_hundreds_of_bars(tmp_path: Path) -> None:
    from foldctl.render.text import MAX_DRAWN_DEPTH

    lines = run_cli("expand", write(tmp_path, chain(40))).stdout.splitlines()
    deepest = next(line for line in lines if line.lstrip("| ").startswith("40 f0:"))
    assert deepest.startswith("| " * (MAX_DRAWN_DEPTH - 1) + "|40 f0:0")
    bars = [len(re.match(r"(\| )*", line).group()) for line in lines]  # type: ignore[union-attr]
    assert max(bars) == 2 * MAX_DRAWN_DEPTH
