"""The MCP server's tools as the protocol calls them, without the protocol: what each
answers, within its byte budget, over which paths (the SDK is not needed here;
tests/cli/test_mcp.py talks to the real server)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import foldctl
import foldctl.mcp
from foldctl.mcp.service import Service
from foldctl.mcp.tools import TOOLS, call
from tests.support import SAMPLES
from tests.support.mcp import DEEP_LEVELS, EMAIL, LONG, SECRET, deep_value, make_root


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_root(tmp_path_factory.mktemp("served") / "root")


def serve(root: Path, max_bytes: int = 32 * 1024, **kw: Any) -> Service:
    return foldctl.mcp.configure([str(root)], max_bytes=max_bytes, **kw)


def ask(service: Service, tool: str, **args: Any) -> dict[str, Any]:
    answer = call(service, tool, args)
    assert not answer.is_error, answer.text
    assert answer.document is not None
    assert json.loads(answer.text) == answer.document
    return answer.document


def error(service: Service, tool: str, **args: Any) -> str:
    answer = call(service, tool, args)
    assert answer.is_error and answer.document is None
    return answer.text


def pages(service: Service, tool: str, key: str, **args: Any) -> Iterator[dict[str, Any]]:
    """Every answer of a paged question, each checked to be within the budget."""
    cursor = None
    for _ in range(10_000):
        answer = call(service, tool, {**args, **({"cursor": cursor} if cursor else {})})
        assert not answer.is_error, answer.text
        assert len(answer.text.encode("utf-8")) <= service.max_bytes
        assert answer.document is not None
        yield answer.document
        cursor = answer.document["next"]
        if cursor is None:
            assert answer.document["complete"] and answer.document["stopped"] is None
            return
        assert not answer.document["complete"] and answer.document["stopped"] in ("budget", "limit")
    raise AssertionError("no end to the pages")


def items(service: Service, tool: str, key: str, **args: Any) -> list[Any]:
    return [item for page in pages(service, tool, key, **args) for item in page[key]]


def whole(pieces: list[dict[str, Any]]) -> list[Any]:
    """Items as they were before being cut: content slices joined, JSON pieces decoded."""
    out: list[Any] = []
    text = ""
    for item in pieces:
        if "piece" in item:
            assert item["piece"]["start"] == len(text)
            text += item["json"]
            if item["piece"]["end"] == item["piece"]["length"]:
                out.append(json.loads(text))
                text = ""
        elif "cut" in item:
            cut = item["cut"]
            if cut["start"] == 0:
                out.append(dict(item))
            else:
                assert out[-1]["locator"] == item["locator"]
                assert len(out[-1]["content"]) == cut["start"]
                out[-1]["content"] += item["content"]
            if cut["end"] == cut["length"]:
                del out[-1]["cut"]
        else:
            out.append(item)
    assert not text, "a piece left unfinished"
    return out


# --------------------------------------------------------------------------- the tools


def test_the_demo_through_every_tool(root: Path) -> None:
    service = serve(SAMPLES)
    demo = str(SAMPLES / "nested_chain.json")
    folds = ask(service, "folds", source=demo)
    assert [(f["span"], f["frame"]) for f in folds["folds"]][:2] == [(6, "h1"), (5, "f6:0")]
    assert folds["folds"][1]["summary"].startswith("Summary 6: refund RF-9120")
    assert folds["counts"]["spans"] == 7
    expanded = ask(service, "expand", source=demo, locator="f5")
    assert [m["locator"] for m in expanded["messages"]][-2:] == ["f5:1", "f5:2"]
    assert "status: pending_approval" in expanded["messages"][-1]["content"]
    hits = ask(service, "grep", pattern="pending_approval", sources=[demo])
    assert [(h["locator"], h["where"]) for h in hits["hits"]] == [
        ("f3:2", "folded"),
        ("f5:2", "folded"),
    ]
    assert hits["hits"][1]["foldedBy"]["span"] == 5
    found = ask(service, "claims", source=demo)
    assert [(f["frame"], f["kind"], f["entity"], f["expected"]) for f in found["findings"]] == [
        ("f6:0", "contradicted", "RF-9120", "pending_approval"),
        ("h1", "contradicted", "RF-9120", "pending_approval"),
    ]
    assert found["findings"][0]["evidence"][0]["locator"] == "f5:2"
    one = ask(service, "claims", source=demo, locator="h1")
    assert [f["frame"] for f in one["findings"]] == ["h1"]
    digest = found["findings"][0]["evidence"][0]["digest"]
    places = ask(service, "locate", digest=digest)
    assert {(p["source"].rsplit("/", 1)[-1], p["locator"]) for p in places["places"]} == {
        ("nested_chain.json", "f5:2"),
        ("nested_chain.json.gz", "f5:2"),
        ("sessions.db#nested_chain", "f5:2"),
    }


def test_list_sessions_pages_the_rows_sessions_prints(root: Path) -> None:
    service = serve(SAMPLES)
    rows = items(service, "list_sessions", "sessions", limit=4)
    store = foldctl.sessions(str(SAMPLES / "sessions.db"))
    runtimes = {r["source"].rsplit("/", 1)[-1]: r["runtime"] for r in rows}
    assert set(runtimes.values()) == {"agentfootprint", "claude-code", "codex"}
    assert runtimes["claude_code_session.jsonl"] == "claude-code"
    assert runtimes["codex_rollout.jsonl"] == "codex"
    codex = next(r for r in rows if r["runtime"] == "codex")
    facts = foldctl.open(SAMPLES / "codex_rollout.jsonl").checkpoint.session
    assert facts is not None
    assert (codex["kind"], codex["folds"], codex["runId"]) == ("rollout", 2, facts.session_id)
    assert [r for r in rows if "#" in r["source"]] == [
        {**r, "source": str(SAMPLES / r["source"].split("/")[-1]), "runtime": "agentfootprint"}
        for r in store.rows
    ]
    assert len(rows) == len(list(SAMPLES.glob("*.json*"))) + len(list(store.rows))
    late = ask(service, "list_sessions", since="2026-05-01", limit=100)["sessions"]
    assert late and all(r["savedAtMs"] >= 1777593600000 for r in late)
    assert len(late) < len(rows)
    assert "since 'soon'" in error(service, "list_sessions", since="soon")


def test_a_session_that_cannot_be_read_keeps_its_row(tmp_path: Path) -> None:
    (tmp_path / "good.json").write_bytes((SAMPLES / "forged_frame.json").read_bytes())
    (tmp_path / "broken.json").write_text('{"version": 1, "history": [', "utf-8")
    rows = ask(serve(tmp_path), "list_sessions")["sessions"]
    assert [(r["session"], r["error"] is None, r["runtime"]) for r in rows] == [
        ("broken.json", False, None),
        ("good.json", True, "agentfootprint"),
    ]
    assert "not valid JSON" in rows[0]["error"]


def test_a_bad_locator_a_missing_file_and_a_bad_cursor_are_the_cli_s_line(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from foldctl.cli.main import run

    service = serve(SAMPLES)
    demo = str(SAMPLES / "nested_chain.json")
    for args in (["expand", demo, "--only", "f99"], ["expand", demo, "--only", "zz"]):
        assert run(args) == 2
        line = capsys.readouterr().err.strip()
        assert error(service, "expand", source=demo, locator=args[-1]) == line
    missing = str(SAMPLES / "no_such_file.json")
    assert run(["show", missing]) == 2
    assert error(service, "folds", source=missing) == capsys.readouterr().err.strip()
    assert "cursor: not one this server gave out" in error(
        service, "expand", source=demo, cursor="forged.0000"
    )
    assert "unknown argument 'only'" in error(service, "expand", source=demo, only="f5")
    assert "source: required" in error(service, "expand")
    assert "no tool 'show'" in error(service, "show")


def test_a_cursor_belongs_to_its_question_and_to_the_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_bytes((SAMPLES / "nested_chain.json").read_bytes())
    service = serve(tmp_path, 4096)
    first = ask(service, "expand", source=str(path))
    assert first["next"]
    again = ask(service, "expand", source=str(path), cursor=first["next"])
    assert again["messages"][0] != first["messages"][0]
    other = error(service, "expand", source=str(path), locator="f5", cursor=first["next"])
    assert "made for other arguments" in other
    os.utime(path, ns=(1, 1))
    changed = error(service, "expand", source=str(path), cursor=first["next"])
    assert "the source changed since" in changed


# --------------------------------------------------------------------------- the budget


@pytest.mark.parametrize("budget", [4096, 32 * 1024])
def test_a_thousand_folds_deep_chain_pages_within_the_budget(root: Path, budget: int) -> None:
    service = serve(root, budget)
    deep = str(root / "deep.json")
    folds = items(service, "folds", "folds", source=deep)
    assert [f["span"] for f in folds] == list(range(999, -1, -1))
    assert folds[-1]["depth"] == 1000
    everything = [m["locator"] for m in whole(items(service, "expand", "messages", source=deep))]
    cp = foldctl.open(deep)
    assert everything == [r.locator for r in cp.walk()]
    innermost = whole(items(service, "expand", "messages", source=deep, locator="f0"))
    assert [m["locator"] for m in innermost] == [
        r["locator"] for r in cp.transcript(only="f0").records()
    ]
    assert innermost[0]["depth"] == 1000 and len(innermost[0]["chain"]) == 256


def test_a_long_message_is_cut_and_continued_a_deep_one_comes_in_pieces(root: Path) -> None:
    service = serve(root)
    hostile = str(root / "hostile.json")
    got = items(service, "expand", "messages", source=hostile, locator="f5")
    assert any("cut" in m for m in got) and any("piece" in m for m in got)
    first_cut = next(m for m in got if "cut" in m)
    assert first_cut["cut"] == {
        "field": "content",
        "length": len(LONG),
        "start": 0,
        "end": first_cut["cut"]["end"],
    }
    messages = {m["locator"]: m for m in whole(got)}
    assert messages["f5:2"]["content"] == LONG
    assert messages["f5:1"]["deep"] == deep_value(DEEP_LEVELS)
    expected = [r["locator"] for r in foldctl.open(hostile).transcript(only="f5").records()]
    assert list(messages) == expected
    shown = items(service, "expand", "messages", source=hostile, locator="f4")
    assert any(m.get("content") == "lone \\ud800 surrogate" for m in shown)


def test_a_hit_on_a_long_message_is_cut_too(root: Path) -> None:
    service = serve(root, 8192)
    got = items(service, "grep", "hits", pattern="END$", sources=[str(root / "hostile.json")])
    assert [h["locator"] for h in whole(got)] == ["f5:2"]
    assert all(len(json.dumps(h, ensure_ascii=False).encode()) < 8192 for h in got)


def test_a_limit_stops_an_answer_and_says_so(root: Path) -> None:
    service = serve(SAMPLES)
    answer = ask(service, "expand", source=str(SAMPLES / "nested_chain.json"), limit=3)
    assert len(answer["messages"]) == 3 and answer["stopped"] == "limit"


# --------------------------------------------------------------------------- privacy


def _every_answer(service: Service, root: Path) -> Iterator[str]:
    demo = str(root / "demo.json")
    plain = call(serve(root), "expand", {"source": demo, "locator": "f5"}).document
    assert plain is not None and SECRET in plain["messages"][-1]["content"]
    digest = plain["messages"][-1]["digest"]
    for tool, args in [
        ("list_sessions", {}),
        ("folds", {"source": demo}),
        ("expand", {"source": demo}),
        ("expand", {"source": demo, "locator": "f5"}),
        ("grep", {"pattern": "RF-9120|example", "sources": [demo]}),
        ("locate", {"digest": digest}),
        ("claims", {"source": demo}),
    ]:
        answer = call(service, tool, args)
        assert not answer.is_error, answer.text
        yield answer.text


def test_the_planted_secret_is_in_every_answer_without_redact(root: Path) -> None:
    texts = list(_every_answer(serve(root), root))
    assert all(SECRET in t or EMAIL in t for t in texts)


def test_redact_removes_the_planted_secret_from_every_answer(root: Path) -> None:
    service = serve(root, redactor=foldctl.Redactor(key=b"k" * 32))
    for text in _every_answer(service, root):
        assert SECRET not in text and EMAIL not in text
        assert "[redacted:" in text


def test_redact_keeps_the_digests_and_the_placeholders_stable(root: Path) -> None:
    service = serve(root, redactor=foldctl.Redactor(key=b"k" * 32))
    demo = str(root / "demo.json")
    one = ask(service, "expand", source=demo, locator="f5")["messages"][-1]
    two = ask(service, "grep", pattern="RF-9120 created", sources=[demo])["hits"][0]
    assert (
        one["digest"]
        == two["digest"]
        == foldctl.open(demo).transcript(only="f5:2").document()[0]["digest"]
    )
    assert one["content"] == two["content"]


# --------------------------------------------------------------------------- every tool


def test_every_tool_has_a_description_and_schemas_with_every_key_it_answers() -> None:
    for tool in TOOLS.values():
        assert len(tool.description) > 200, tool.name
        assert "cursor" in tool.input_schema["properties"], tool.name
        output = tool.output_schema()
        assert {"complete", "stopped", "next"} <= set(output["required"])
