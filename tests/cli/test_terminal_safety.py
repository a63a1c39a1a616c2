"""Untrusted text stays text: markup, emoji codes and control sequences print literally."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from foldctl.jsoncodec import dumps, loads
from foldctl.termsafe import visible
from tests.support import run_cli
from tests.support.builders import checkpoint_of, frame_of, span_of

HOSTILE = [
    "[bold red]x[/]",
    "[link=https://evil.example]click[/link]",
    ":thumbs_up:",
    "\x1b]0;pwned\x07",
    "\x1b[2J",
    "\x1bP1$r0m\x1b\\",  # DCS
    "\x9b31m",  # C1 CSI
    "abc\u202edcba",  # bidi override
    "nul\x00byte",
    "cut \ud83d",
]


def hostile_checkpoint() -> dict[str, Any]:
    payload = " | ".join(HOSTILE)
    content = frame_of(2, 1, "[red]model[/]", f"summary {payload}")
    originals = [
        {"role": "assistant", "content": f"folded {payload}"},
        {"role": "tool", "content": payload, "toolCallId": "t1", "toolName": "[bold]tool\x1b[0m"},
    ]
    doc = checkpoint_of(
        [{"role": "user", "content": f"live {payload}"}, {"role": "user", "content": content}],
        [span_of(content, originals, 0)],
    )
    doc["originalInput"]["message"] = f"input {payload}"
    doc["runId"] = "run-[blink]1[/blink]\x1b[5m"
    doc["folded"][0]["model"] = "[red]model[/]\x1b]8;;http://x\x07"
    return doc


def _write(tmp_path: Path) -> str:
    path = tmp_path / "hostile.json"
    # jsoncodec writes the lone surrogate as the runtime does: the escape \ud83d
    path.write_bytes(dumps(hostile_checkpoint()))
    return str(path)


@pytest.mark.parametrize("command", ["show", "expand"])
@pytest.mark.parametrize("fmt", ["text", "markdown"])
@pytest.mark.parametrize("color", ["never", "always"])
def test_no_control_character_reaches_the_terminal(
    tmp_path: Path, command: str, fmt: str, color: str
) -> None:
    result = run_cli(command, _write(tmp_path), "--format", fmt, "--color", color)
    assert result.exit_code == 0, result.stderr
    out = result.stdout_bytes.decode("utf-8")
    painted = [c for c in out if ord(c) < 0x20 and c not in "\n\t\x1b"]
    assert painted == []
    # With colour, the only escapes are rich's own SGR colour codes (ESC [ ... m).
    stripped = re.sub("\x1b\\[[0-9;]*m", "", out)
    assert "\x1b" not in stripped
    for bad in ("\x9b", "\u202e", "\x00", "\x07"):
        assert bad not in stripped


@pytest.mark.parametrize("color", ["never", "always"])
def test_markup_and_emoji_codes_print_literally(tmp_path: Path, color: str) -> None:
    result = run_cli("expand", _write(tmp_path), "--color", color, "--keep-frames")
    out = re.sub("\x1b\\[[0-9;]*m", "", result.stdout)
    for literal in ("[bold red]x[/]", "[link=https://evil.example]click[/link]", ":thumbs_up:"):
        assert literal in out
    assert "👍" not in out
    for escaped in ("\\x1b]0;pwned\\x07", "\\x1b[2J", "\\x9b31m", "abc\\u202edcba", "nul\\x00byte"):
        assert escaped in out
    assert "cut \\ud83d" in out
    show = re.sub("\x1b\\[[0-9;]*m", "", run_cli("show", _write(tmp_path), "--color", color).stdout)
    assert "run-[blink]1[/blink]\\x1b[5m" in show
    assert "[red]model[/]\\x1b]8;;http://x\\x07" in show


def test_machine_formats_carry_content_verbatim(tmp_path: Path) -> None:
    result = run_cli("expand", _write(tmp_path), "--format", "jsonl")
    rows = [
        loads(line.encode("utf-8"), "out")
        for line in result.stdout_bytes.decode().split("\n")
        if line
    ]
    payload = " | ".join(HOSTILE)
    assert rows[0]["content"] == f"live {payload}"
    assert rows[1]["content"] == f"folded {payload}"
    assert b"\x1b" not in result.stdout_bytes  # JSON-escaped as \u001b


def test_visible_escapes_each_class() -> None:
    assert visible("a\tb\nc") == "a\tb\nc"
    assert visible("\x1b\x7f\x85\u2028\u202e\u2066\ud800") == (
        "\\x1b\\x7f\\x85\\u2028\\u202e\\u2066\\ud800"
    )
    assert visible("Élodie 東京 👩‍💻 🇫🇷") == "Élodie 東京 👩‍💻 🇫🇷"
