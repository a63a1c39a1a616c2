"""The fuzz target of ``foldctl mcp``: every tool and a resource on the mutant, as the
server answers them, each answer written as the protocol writes it.

The server is served from the mutant itself (its file, or its store), with a small
byte budget (so long and deep messages are cut and pieced) and, for ``expand``, with
``--redact``.  Every answer must be within the budget, and every failure a one-line
tool error, never an ``internal error`` (the server survives any input).  With the
SDK installed (the ``mcp`` extra) each answer is also written as the SDK writes it to
standard output (a ``CallToolResult`` dumped to JSON), which fails on what the wire
cannot carry (a lone surrogate, nesting past its limit).  Like ``targets.py``, this
module imports foldctl; the registry there lists this target.
"""

from __future__ import annotations

import importlib.util
from typing import Any, Final

import foldctl
import foldctl.mcp
from foldctl.mcp import resources
from foldctl.mcp.service import Answer, Service
from foldctl.mcp.tools import call
from tools.fuzz.outcome import OutputBudgetExceeded, TargetResult

#: The byte budget of the fuzzed server: the least one may ask for.
BUDGET: Final = foldctl.mcp.MIN_BYTES
_KEY: Final = b"fuzz-key-" * 4
HAS_SDK: Final = importlib.util.find_spec("mcp") is not None


def _on_the_wire(answer: Answer) -> None:
    """Write ``answer`` as the server writes it to standard output (SDK installed)."""
    if not HAS_SDK:
        return
    from foldctl.mcp.server import _result

    _result(answer).model_dump_json(by_alias=True, exclude_unset=True)


def _ask(service: Service, result: TargetResult, tool: str, args: dict[str, Any]) -> Any:
    """One tool call: its document (None for an error, whose line is kept)."""
    answer = call(service, tool, args)
    _checked(answer, result, tool)
    return answer.document


def _checked(answer: Answer, result: TargetResult, what: str) -> None:
    if len(answer.text.encode("utf-8")) > BUDGET:
        raise OutputBudgetExceeded(f"mcp {what}", BUDGET)
    if answer.is_error:
        if "foldctl: error: internal error" in answer.text:
            raise AssertionError(f"mcp {what}: {answer.text}")
        result.error_messages.append(answer.text)
    else:
        result.machine_outputs.append(answer.text.encode("utf-8"))
    _on_the_wire(answer)


def _root(name: str) -> str:
    return name.split("#", 1)[0] if "#" in name and not name.endswith(".json") else name


def mcp(data: bytes, name: str) -> TargetResult:
    """list_sessions, folds (two pages), expand (two pages, a fold, redacted), grep,
    locate, claims and the session's resource."""
    result = TargetResult()
    plain = foldctl.mcp.configure([_root(name)], max_bytes=BUDGET)
    _ask(plain, result, "list_sessions", {})
    folds = _ask(plain, result, "folds", {"source": name})
    if folds is not None and folds["next"]:
        _ask(plain, result, "folds", {"source": name, "cursor": folds["next"]})
    expanded = _ask(plain, result, "expand", {"source": name})
    if expanded is not None and expanded["next"]:
        _ask(plain, result, "expand", {"source": name, "cursor": expanded["next"]})
    frames = [f["frame"] for f in (folds or {}).get("folds", []) if isinstance(f.get("frame"), str)]
    for locator in [*frames[:1], "f0"]:
        _ask(plain, result, "expand", {"source": name, "locator": locator, "limit": 5})
    _ask(plain, result, "grep", {"pattern": "refund|error|\\[compacted", "ignore_case": True})
    messages = [m for m in (expanded or {}).get("messages", []) if "digest" in m]
    if messages:
        _ask(plain, result, "locate", {"digest": messages[0]["digest"]})
    _ask(plain, result, "claims", {"source": name})
    answer = resources.read(plain, resources.uri_of(plain.source(name)))
    _checked(answer, result, "resource")
    redacted = foldctl.mcp.configure(
        [_root(name)], max_bytes=BUDGET, redactor=foldctl.Redactor(key=_KEY)
    )
    _ask(redacted, result, "expand", {"source": name})
    return result
