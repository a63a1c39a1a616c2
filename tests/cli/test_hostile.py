"""Hostile content loads fine and stays inert in every output format.

Rich markup, terminal escapes (CSI, OSC, DCS, APC, C1), bidi overrides, NUL and other
controls, lone surrogates, and a 50 MB single message — in live and folded messages, a
summary, tool names and arguments, model, run id, unknown fields and the file name.
Text and markdown must show them as visible escapes; machine formats must carry them
verbatim.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from foldctl import jsoncodec
from foldctl.audit.checks import audit
from foldctl.formats.source import load_source
from foldctl.graph.resolve import detect_scheme, resolve
from tests.support import run_cli, run_proc
from tests.support.builders import T0, call, frame, result, span, user

HOSTILE = [
    "[bold red]x[/]",
    "[link=https://evil.example]click[/link]",
    ":thumbs_up:",
    "\x1b[2J\x1b[H",  # CSI: clear the screen, cursor home
    "\x1b]0;pwned\x07",  # OSC: window title
    "\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\",  # OSC 8 hyperlink
    "\x1bP1$r0m\x1b\\",  # DCS
    "\x1b_apc\x1b\\",  # APC
    "\x9b31m\x9d0;c1\x9c",  # C1 CSI, OSC, ST
    "abc\u202edcba\u2066iso\u2069\u061c",  # bidi overrides and isolates
    "nul\x00bel\x07bs\x08cr\rdel\x7f",
    "line\u2028para\u2029",
    "cut \ud83d and \udc00 halves",  # lone surrogates
]
PAYLOAD = " | ".join(HOSTILE)
NAME = "hostile\x1b[31m\u202e.json"
SGR = re.compile("\x1b\\[[0-9;]*m")
# Everything that may act on a terminal instead of printing (tab and newline are fine).
UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
    "\ud800-\udfff]"
)


def hostile_checkpoint() -> dict[str, Any]:
    summary = frame(3, 2, f"summary {PAYLOAD}", model="mock\x1b[5m[blink]")
    floating = [user(f"floating {PAYLOAD}"), call(7)]
    tool = result(1)
    tool.update(toolName=f"[bold]tool\x1b[0m{PAYLOAD}", content=f"tool {PAYLOAD}")
    tool[f"x-unknown {PAYLOAD}"] = {"nested": [PAYLOAD]}
    asking = call(1)
    asking["toolCalls"][0]["args"] = {"query": PAYLOAD, PAYLOAD: 1}
    folded = [
        span(
            summary,
            [user(f"folded {PAYLOAD}"), asking, tool],
            count=3,
            iteration=2,
            at=T0 + 1000,
            stages=["tool-calls#23"],
        ),
        span(
            frame(2, 3, "gone"),
            floating,
            count=2,
            iteration=3,
            at=T0 + 2000,
            stages=["tool-calls#46"],
        ),
    ]
    folded[0]["model"] = "mock\x1b[5m[blink]"
    folded[0]["runId"] = f"run-[blink]1[/blink]{PAYLOAD}"
    return {
        "version": 1,
        "runId": f"run-[blink]1[/blink]{PAYLOAD}",
        "history": [
            user(f"live {PAYLOAD}"),
            user(summary),
            {"role": "assistant", "content": f"answer {PAYLOAD}"},
        ],
        "lastCompletedIteration": 4,
        "originalInput": {"message": f"input {PAYLOAD}"},
        "checkpointedAt": T0 + 10_000,
        "folded": folded,
        "identity": {"tenant": PAYLOAD},
    }


@pytest.fixture
def hostile(tmp_path: Path) -> str:
    path = tmp_path / NAME
    # jsoncodec writes lone surrogates as the runtime does: the escape \ud83d
    path.write_bytes(jsoncodec.dumps(hostile_checkpoint()))
    return str(path)


def inert(out: bytes, *, painted: bool) -> str:
    """The output as text, after checking nothing in it can act on a terminal."""
    text = out.decode("utf-8")  # valid UTF-8: no lone surrogate got through
    if painted:
        text = SGR.sub("", text)  # rich's own colour codes are the only escapes allowed
    found = sorted({f"U+{ord(c):04X}" for c in UNSAFE.findall(text) if c not in "\n\t"})
    assert found == [], found
    return text


def test_it_loads_and_only_the_orphan_is_a_finding(hostile: str) -> None:
    checkpoint = load_source(hostile)
    assert checkpoint.history[0]["content"] == f"live {PAYLOAD}"
    scheme, _ = detect_scheme(checkpoint)
    assert [(f.code, f.span) for f in audit(resolve(checkpoint, scheme))] == [("orphan-span", 1)]


TEXT_RUNS = [
    ("show", "text"),
    ("show", "markdown"),
    ("expand", "text"),
    ("expand", "markdown"),
    ("spans", "text"),
    ("stages", "text"),
    ("verify", "text"),
]


@pytest.mark.parametrize(("command", "fmt"), TEXT_RUNS)
@pytest.mark.parametrize("color", ["never", "always"])
def test_text_and_markdown_show_escapes_not_effects(
    hostile: str, command: str, fmt: str, color: str
) -> None:
    extra = ["--keep-frames", "--include-detached"] if command == "expand" else []
    got = run_cli(command, hostile, "--format", fmt, "--color", color, *extra)
    assert got.exit_code == (1 if command == "verify" else 0), got.stderr
    text = inert(got.stdout_bytes, painted=color == "always")
    if command in ("show", "verify"):  # the file name is shown, made visible
        shown = "hostile\\x1b[31m\\u202e.json" if fmt == "text" else "hostile\\\\x1b\\[31m"
        assert shown in text
    if command == "expand":
        assert "\\x1b]0;pwned\\x07" in text and "cut \\ud83d and \\udc00 halves" in text
        assert "\\x9b31m\\x9d0;c1\\x9c" in text
        if fmt == "text":
            assert "[bold red]x[/]" in text and "[link=https://evil.example]click[/link]" in text
            assert ":thumbs_up:" in text and "👍" not in text
    if command in ("show", "spans", "stages") and fmt == "text":
        assert "mock\\x1b[5m[blink]" in text


def test_the_real_terminal_path_is_inert_too(hostile: str) -> None:
    for args in (["expand", hostile, "--include-detached"], ["verify", hostile]):
        proc = run_proc(*args, "--color", "always", env={"NO_COLOR": ""})
        assert b"Traceback" not in proc.stderr
        inert(proc.stdout, painted=True)
        inert(proc.stderr, painted=True)


def _rows(out: bytes) -> list[dict[str, Any]]:
    return [jsoncodec.loads(line, "out") for line in out.splitlines() if line]


def test_machine_formats_carry_content_verbatim(hostile: str) -> None:
    doc = hostile_checkpoint()
    rows = _rows(run_cli("expand", hostile, "-f", "jsonl", "--include-detached").stdout_bytes)
    by_content = {r["content"] for r in rows}
    for message in (
        *doc["history"][::2],
        *doc["folded"][0]["messages"],
        *doc["folded"][1]["messages"],
    ):
        assert message["content"] in by_content
    tool = next(r for r in rows if r.get("toolCallId") == "call_1")
    assert tool["toolName"] == f"[bold]tool\x1b[0m{PAYLOAD}"
    assert tool[f"x-unknown {PAYLOAD}"] == {"nested": [PAYLOAD]}
    asking = next(r for r in rows if r.get("toolCalls") and r["toolCalls"][0]["id"] == "call_1")
    assert asking["toolCalls"][0]["args"] == {"query": PAYLOAD, PAYLOAD: 1}
    whole = jsoncodec.loads(run_cli("expand", hostile, "-f", "json").stdout_bytes, "out")
    assert whole[0]["content"] == f"live {PAYLOAD}"
    shown = jsoncodec.loads(run_cli("show", hostile, "-f", "json").stdout_bytes, "out")
    assert shown["runId"] == doc["runId"] and shown["originalInput"] == f"input {PAYLOAD}"
    assert shown["source"] == hostile
    spans = jsoncodec.loads(run_cli("spans", hostile, "-f", "json").stdout_bytes, "out")
    assert spans[0]["model"] == "mock\x1b[5m[blink]"
    (finding,) = _rows(run_cli("verify", hostile, "-f", "jsonl").stdout_bytes)
    assert finding["source"] == hostile
    for out in (
        run_cli("expand", hostile, "-f", "jsonl").stdout_bytes,
        run_cli("show", hostile, "-f", "json").stdout_bytes,
    ):
        assert b"\x1b" not in out and b"\x00" not in out  # JSON-escaped, never raw


# --- one 50 MB message ----------------------------------------------------------------------

BIG = 50 * 1024 * 1024


@pytest.fixture(scope="module")
def huge(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """A checkpoint whose folded tool result is one 50 MB string with hostile bits in it."""
    filler = "x" * (BIG // 2)
    content = f"start {PAYLOAD} {filler} middle \x1b]0;pwned\x07 {filler} end {PAYLOAD}"
    doc = hostile_checkpoint()
    doc["folded"][0]["messages"][2]["content"] = content
    path = tmp_path_factory.mktemp("huge") / "huge.json"
    path.write_bytes(jsoncodec.dumps(doc))
    return str(path), content


def test_a_50mb_message_loads_and_round_trips_in_jsonl(huge: tuple[str, str]) -> None:
    path, content = huge
    rows = _rows(run_cli("expand", path, "-f", "jsonl").stdout_bytes)
    (big,) = [r for r in rows if len(r["content"]) > BIG]
    assert big["content"] == content


def test_a_50mb_message_is_inert_as_text(huge: tuple[str, str]) -> None:
    path, _ = huge
    got = run_cli("expand", path)
    assert got.exit_code == 0
    text = inert(got.stdout_bytes, painted=False)
    assert len(text) > BIG and "middle \\x1b]0;pwned\\x07 " in text


def test_a_50mb_message_is_audited_and_shown(huge: tuple[str, str]) -> None:
    path, _ = huge
    verified = run_cli("verify", path, "-f", "jsonl")
    assert [r["code"] for r in _rows(verified.stdout_bytes)] == ["orphan-span"]
    assert run_cli("show", path).exit_code == 0


def test_an_unreadable_hostile_file_is_reported_inertly(tmp_path: Path) -> None:
    path = tmp_path / NAME
    path.write_bytes(b'{"format": "chat\\u001b]0;pwned\\u0007-v9", "data": {}}')
    proc = run_proc("verify", str(path))
    assert proc.returncode == 2
    stderr = inert(proc.stderr, painted=False)
    assert 'unknown envelope format "chat\\x1b]0;pwned\\x07-v9"' in stderr
    assert "hostile\\x1b[31m\\u202e.json" in stderr
    inert(proc.stdout, painted=False)
