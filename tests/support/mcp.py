"""Sessions for the MCP server's tests: a root holding the demo with a planted secret, a
chain a thousand folds deep, and a hostile checkpoint (a tool result of a megabyte, a
message nested 300 levels deep, a lone surrogate)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from tests.support import SAMPLES
from tools.generate import nested_chain, to_bytes

#: An AWS access key id planted in the demo's run id and in the refund's tool result.
SECRET: Final = "AKIAQ4Z7XK2M9P3R6T8W"
#: The customer's address, which the demo already holds (a summary quotes it).
EMAIL: Final = "dana.whitfield@example.com"
#: The hostile checkpoint's long tool result (f5:2), and the deep value of f5:1.
LONG: Final = 'a long tool result é中😀 "quoted"\n' * 30_000 + "END"
DEEP_LEVELS: Final = 300


def deep_value(levels: int) -> Any:
    value: Any = "bottom"
    for _ in range(levels):
        value = [value]
    return value


def planted_demo() -> dict[str, Any]:
    """The demo, its run id and the refund's tool result holding :data:`SECRET` (frames
    untouched: the join still holds)."""
    doc = json.loads((SAMPLES / "nested_chain.json").read_text("utf-8"))
    text = json.dumps(doc).replace("run-1773652325000-1", f"run-{SECRET}-1")
    doc = json.loads(text)
    refund = doc["folded"][5]["messages"][2]
    refund["content"] += f"\napi key used: {SECRET}"
    return dict(doc)


def hostile() -> dict[str, Any]:
    doc = json.loads((SAMPLES / "nested_chain.json").read_text("utf-8"))
    doc["folded"][5]["messages"][2]["content"] = LONG
    doc["folded"][5]["messages"][1]["deep"] = deep_value(DEEP_LEVELS)
    doc["folded"][4]["messages"][1]["content"] = "lone \ud800 surrogate"
    return dict(doc)


def make_root(folder: Path) -> Path:
    """A root with ``demo.json`` (planted), ``deep.json`` (1,000 folds) and
    ``hostile.json``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "demo.json").write_text(json.dumps(planted_demo()), "utf-8")
    (folder / "deep.json").write_bytes(to_bytes(nested_chain(1000)))
    text = json.dumps(hostile())  # ensure_ascii: the lone surrogate as \ud800
    (folder / "hostile.json").write_text(text, "utf-8")
    return folder
