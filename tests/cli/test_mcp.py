"""``foldctl mcp`` as an MCP host runs it: a subprocess spoken to over stdio with the
SDK's own client (which checks every structured answer against its tool's output
schema).  Without the ``mcp`` extra these tests skip, saying so; the last ones run
either way."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support import REPO, SAMPLES
from tests.support.mcp import EMAIL, SECRET, make_root

try:
    import anyio
    from mcp import Client, StdioServerParameters
    from mcp.shared.exceptions import MCPError

    SDK = True
except ImportError:
    SDK = False

needs_sdk = pytest.mark.skipif(
    not SDK, reason="the mcp extra is not installed (pip install 'foldctl[mcp]')"
)
DEMO = "sample_checkpoints/nested_chain.json"


def foldctl_command() -> str:
    script = Path(sys.executable).parent / "foldctl"
    return str(script) if script.exists() else shutil.which("foldctl") or "foldctl"


def talk(args: list[str], conversation: Callable[[Any], Awaitable[None]], cwd: Path = REPO) -> None:
    """Start ``foldctl mcp ARGS`` and hold ``conversation`` with it."""
    params = StdioServerParameters(
        command=foldctl_command(), args=["mcp", *args], cwd=str(cwd), env=dict(os.environ)
    )

    async def run() -> None:
        async with Client(params, read_timeout_seconds=60) as client:
            await conversation(client)

    anyio.run(run)


def document(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content[0].text
    text = result.content[0].text
    assert json.loads(text) == result.structured_content
    return dict(result.structured_content)


@needs_sdk
def test_an_agent_reads_back_what_the_demo_folded() -> None:
    async def conversation(client: Any) -> None:
        listed = await client.list_tools()
        assert [t.name for t in listed.tools] == [
            "list_sessions", "folds", "expand", "grep", "locate", "claims",
        ]  # fmt: skip
        assert all(t.annotations.read_only_hint for t in listed.tools)
        assert all(t.output_schema and t.input_schema["type"] == "object" for t in listed.tools)

        folds = document(await client.call_tool("folds", {"source": DEMO}))
        assert [f["frame"] for f in folds["folds"]] == [
            "h1",
            "f6:0",
            "f5:0",
            "f4:0",
            "f3:0",
            "f2:0",
            "f1:0",
        ]
        assert folds["folds"][0]["summary"].startswith("Summary 7: refund RF-9120 approved")

        span = document(await client.call_tool("expand", {"source": DEMO, "locator": "f5"}))
        refund = span["messages"][-1]
        assert (refund["locator"], refund["toolName"]) == ("f5:2", "issue_refund")
        assert "status: pending_approval" in refund["content"]

        hits = document(
            await client.call_tool("grep", {"pattern": "pending_approval", "sources": [DEMO]})
        )
        assert [h["locator"] for h in hits["hits"]] == ["f3:2", "f5:2"]

        claims = document(await client.call_tool("claims", {"source": DEMO}))
        found = [(f["kind"], f["entity"], f["atom"], f["expected"]) for f in claims["findings"]]
        assert ("contradicted", "RF-9120", "approved", "pending_approval") in found

        sessions = document(await client.call_tool("list_sessions", {}))
        assert sessions["roots"] == [str(SAMPLES)]
        assert any(r["source"] == str(SAMPLES / "nested_chain.json") for r in sessions["sessions"])
        runtime = {r["source"]: r["runtime"] for r in sessions["sessions"]}
        assert runtime[str(SAMPLES / "claude_code_session.jsonl")] == "claude-code"
        assert runtime[str(SAMPLES / "codex_rollout.jsonl")] == "codex"

        codex = str(SAMPLES / "codex_rollout.jsonl")
        folds = document(await client.call_tool("folds", {"source": codex}))
        assert [f["span"] for f in folds["folds"]] == [1, 0]
        assert folds["folds"][1]["summary"].startswith("The user wants a NOT NULL email")

    talk(["sample_checkpoints"], conversation)


@needs_sdk
def test_each_session_is_a_resource_and_each_span_a_template() -> None:
    async def conversation(client: Any) -> None:
        listed = await client.list_resources()
        uris = [r.uri for r in listed.resources]
        demo = "foldctl://session/" + str(SAMPLES / "nested_chain.json").replace("/", "%2F")
        assert demo in uris
        read = await client.read_resource(demo)
        assert json.loads(read.contents[0].text)["counts"]["spans"] == 7
        templates = await client.list_resource_templates()
        assert [t.uri_template for t in templates.resource_templates] == [
            "foldctl://session/{source}/span/{span}"
        ]
        span = json.loads((await client.read_resource(demo + "/span/5")).contents[0].text)
        assert span["messages"][-1]["locator"] == "f5:2"
        with pytest.raises(MCPError, match="refused: outside the roots"):
            await client.read_resource("foldctl://session/%2Fetc%2Fpasswd")

    talk(["sample_checkpoints"], conversation)


@needs_sdk
def test_paths_outside_the_roots_are_refused_and_the_server_goes_on(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    shutil.copy(SAMPLES / "nested_chain.json", root / "demo.json")
    outside = tmp_path / "outside.json"
    shutil.copy(SAMPLES / "forged_frame.json", outside)
    (root / "link.json").symlink_to(outside)
    folder = root / "folder"
    folder.mkdir()
    (folder / "inner.json").symlink_to(outside)

    async def conversation(client: Any) -> None:
        async def refused(tool: str, args: dict[str, Any]) -> str:
            result = await client.call_tool(tool, args)
            assert result.is_error
            text: str = result.content[0].text
            assert text.startswith("foldctl: error: ") and "\n" not in text
            return text

        assert "outside the roots" in await refused("expand", {"source": str(outside)})
        assert "outside the roots" in await refused("folds", {"source": "/etc/passwd"})
        assert "'..' is not allowed" in await refused(
            "folds", {"source": "root/folder/../demo.json"}
        )
        assert "outside the roots" in await refused("expand", {"source": "root/link.json"})
        leads_out = await refused("grep", {"pattern": "x", "sources": ["root/folder"]})
        assert "inner.json is a link that leads outside the roots" in leads_out
        assert "no such file" in await refused("folds", {"source": "root/nope.json"})
        assert "there is no span 99" in await refused(
            "expand", {"source": "root/demo.json", "locator": "f99"}
        )
        assert "no tool" in await refused("rm", {"path": "/"})
        still = document(await client.call_tool("folds", {"source": "root/demo.json"}))
        assert still["counts"]["spans"] == 7

    talk(["root/demo.json", "root/folder"], conversation, cwd=tmp_path)


@needs_sdk
def test_a_thousand_fold_chain_pages_within_the_budget_and_redact_hides_the_secret(
    tmp_path: Path,
) -> None:
    make_root(tmp_path / "root")
    key = tmp_path / "key"
    key.write_bytes(b"a key of thirty-two bytes, fixed")

    async def conversation(client: Any) -> None:
        cursor, pages, spans = None, 0, []
        while True:
            args = {"source": "root/deep.json", **({"cursor": cursor} if cursor else {})}
            result = await client.call_tool("folds", args)
            assert len(result.content[0].text.encode()) <= 8192
            page = document(result)
            spans += [f["span"] for f in page["folds"]]
            pages += 1
            cursor = page["next"]
            if cursor is None:
                break
        assert spans == list(range(999, -1, -1)) and pages > 10
        demo = "root/demo.json"
        answers = [
            await client.call_tool("list_sessions", {}),
            await client.call_tool("folds", {"source": demo}),
            await client.call_tool("expand", {"source": demo, "locator": "f5:2"}),
            await client.call_tool("grep", {"pattern": "RF-9120", "sources": [demo]}),
            await client.call_tool("claims", {"source": demo}),
        ]
        refund = document(answers[2])["messages"][0]
        assert refund["locator"] == "f5:2"
        digest = refund["digest"]
        answers.append(await client.call_tool("locate", {"digest": digest, "sources": [demo]}))
        for result in answers:
            text = result.content[0].text
            assert not result.is_error, text
            assert SECRET not in text and EMAIL not in text
            assert SECRET not in json.dumps(result.structured_content)
            assert "[redacted:" in text

    talk(
        ["root", "--max-bytes", "8192", "--redact", "--redact-key-file", str(key)],
        conversation,
        cwd=tmp_path,
    )


@needs_sdk
def test_lines_that_are_not_the_protocol_do_not_stop_the_server() -> None:
    hello = {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "test", "version": "0"}},
    }  # fmt: skip
    wrong = {"source": DEMO, "depth": "deep"}
    ask = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
           "params": {"name": "expand", "arguments": wrong}}  # fmt: skip
    lines = [
        "not json at all",
        '{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": 3}',
        json.dumps(hello),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        "\udcff garbage \x1b[31m",
        json.dumps(ask),
    ]
    server = subprocess.Popen(
        [foldctl_command(), "mcp", "sample_checkpoints"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO,
    )  # fmt: skip
    assert server.stdin is not None and server.stdout is not None
    for line in lines:
        server.stdin.write(line.encode("utf-8", "surrogateescape") + b"\n")
    server.stdin.flush()
    replies: dict[Any, Any] = {}
    while 2 not in replies:  # the answers come as they are ready; then stdin is closed
        reply = server.stdout.readline()
        assert reply, "the server stopped before answering"
        replies[json.loads(reply).get("id")] = json.loads(reply)
    _, errors = server.communicate(timeout=60)
    assert replies[1]["result"]["serverInfo"]["name"] == "foldctl"
    assert replies[2]["result"]["isError"] is True
    assert (
        replies[2]["result"]["content"][0]["text"] == "foldctl: error: depth: expected an integer"
    )
    assert server.returncode == 0 and b"Traceback" not in errors


# --------------------------------------------------------------------------- either way


def test_without_the_extra_one_line_names_it(tmp_path: Path) -> None:
    shim = tmp_path / "shim" / "mcp"
    shim.mkdir(parents=True)
    (shim / "__init__.py").write_text("raise ImportError('No module named mcp')\n", "utf-8")
    env = {**os.environ, "PYTHONPATH": f"{shim.parent}{os.pathsep}{REPO}"}
    done = subprocess.run(
        [sys.executable, "-m", "foldctl", "mcp", "sample_checkpoints"],
        capture_output=True, text=True, cwd=REPO, env=env, stdin=subprocess.DEVNULL, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == (
        "foldctl: error: foldctl mcp needs mcp, which is not installed: "
        "pip install 'foldctl[mcp]'\n"
    )
    assert done.stdout == ""


def test_no_root_and_no_default_folder_is_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "HOME": str(tmp_path), "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-m", "foldctl", "mcp"],
        capture_output=True, text=True, cwd=REPO, env=env, stdin=subprocess.DEVNULL, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    if SDK:
        assert done.stderr.startswith("foldctl: error: no ROOT given, and none of the default")
        assert "~/.claude/projects, ~/.codex/sessions" in done.stderr
    else:
        assert "pip install 'foldctl[mcp]'" in done.stderr
    assert done.stderr.count("\n") == 1


def test_a_root_that_does_not_exist_or_climbs_is_refused(tmp_path: Path) -> None:
    from tests.support import run_cli

    if not SDK:
        pytest.skip("the mcp extra is not installed (pip install 'foldctl[mcp]')")
    missing = run_cli("mcp", str(tmp_path / "nope"))
    assert missing.exit_code == 2 and "no such file or folder to serve" in missing.stderr
    climbs = run_cli("mcp", "sample_checkpoints/..")
    assert climbs.exit_code == 2 and "'..' is not allowed" in climbs.stderr
    small = run_cli("mcp", "sample_checkpoints", "--max-bytes", "100")
    assert small.exit_code == 2 and "--max-bytes" in small.stderr


def test_the_other_commands_never_load_the_sdk() -> None:
    code = (
        "import sys\nfrom foldctl.cli.main import run\n"
        "run(['show', 'sample_checkpoints/nested_chain.json'])\nrun(['mcp', '--help'])\n"
        "sdk = ('mcp', 'anyio', 'pydantic')\n"
        "print(sorted(m for m in sdk if m in sys.modules), file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60
    )
    assert done.stderr.strip().splitlines()[-1] == "[]"
    assert "--max-bytes" in done.stdout and "--redact-key-file" in done.stdout
