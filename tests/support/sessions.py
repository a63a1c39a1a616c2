"""Small session files of other runtimes, written record by record in a test.

Each helper returns one record (a dict) as the runtime writes it, with only the
fields a case needs besides the ones the runtime always writes; :func:`write_jsonl`
writes them one a line.  The expected expansions are written by hand in the tests.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import orjson

SESSION = "7f3c9a2e-0000-4000-8000-000000000001"
_CLOCK = iter(range(10**6))


def _time(n: int | None = None) -> str:
    second = next(_CLOCK) if n is None else n
    return f"2025-06-01T10:{second // 60 % 60:02d}:{second % 60:02d}.000Z"


def write_jsonl(path: Path, records: Iterable[dict[str, Any] | bytes]) -> str:
    """One record a line (bytes are written as they are: a line that is not JSON)."""
    lines = [r if isinstance(r, bytes) else orjson.dumps(r) for r in records]
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    return str(path)


# --------------------------------------------------------------------------- Claude Code


def _base(uuid: str, parent: str | None, kind: str, **extra: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "parentUuid": parent,
        "isSidechain": False,
        "userType": "external",
        "cwd": "/home/dev/shop",
        "sessionId": SESSION,
        "version": "2.0.55",
        "gitBranch": "main",
        "type": kind,
    }
    record.update(extra)
    record["uuid"] = uuid
    record.setdefault("timestamp", _time())
    return record


def user(uuid: str, parent: str | None, text: str, **extra: Any) -> dict[str, Any]:
    return _base(uuid, parent, "user", message={"role": "user", "content": text}, **extra)


def assistant(
    uuid: str, parent: str | None, text: str, message_id: str | None = None, **extra: Any
) -> dict[str, Any]:
    message = {
        "id": message_id or f"msg_{uuid}",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5-20250929",
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 10, "output_tokens": 5},
    }
    return _base(uuid, parent, "assistant", message=message, requestId=f"req_{uuid}", **extra)


def tool_use(
    uuid: str, parent: str | None, call: str, name: str, args: dict[str, Any], message_id: str
) -> dict[str, Any]:
    record = assistant(uuid, parent, "", message_id)
    record["message"]["content"] = [{"type": "tool_use", "id": call, "name": name, "input": args}]
    record["message"]["stop_reason"] = "tool_use"
    return record


def tool_result(
    uuid: str, parent: str | None, call: str, output: str, error: bool = False
) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call, "content": output}
    if error:
        block["is_error"] = True
    return _base(
        uuid,
        parent,
        "user",
        message={"role": "user", "content": [block]},
        toolUseResult={"stdout": output, "stderr": "", "interrupted": False},
    )


def boundary(uuid: str, logical: str | None, **meta: Any) -> dict[str, Any]:
    metadata = {"trigger": meta.pop("trigger", "manual"), "preTokens": 150000, **meta}
    record = _base(
        uuid,
        None,
        "system",
        subtype="compact_boundary",
        content="Conversation compacted",
        level="info",
        isMeta=False,
        compactMetadata=metadata,
    )
    if logical is not None:
        record["logicalParentUuid"] = logical
    return record


def summary(uuid: str, boundary_uuid: str, text: str) -> dict[str, Any]:
    return user(
        uuid,
        boundary_uuid,
        "This session is being continued from a previous conversation that ran out of "
        "context. The conversation is summarized below:\n" + text,
        isCompactSummary=True,
        isVisibleInTranscriptOnly=True,
    )


def title(text: str, leaf: str) -> dict[str, Any]:
    return {"type": "summary", "summary": text, "leafUuid": leaf}


def snapshot(message_id: str) -> dict[str, Any]:
    return {
        "type": "file-history-snapshot",
        "messageId": message_id,
        "snapshot": {"messageId": message_id, "trackedFileBackups": {}, "timestamp": _time()},
        "isSnapshotUpdate": False,
    }


def microcompact(uuid: str, parent: str | None, tool_ids: list[str]) -> dict[str, Any]:
    return _base(
        uuid,
        parent,
        "system",
        subtype="microcompact_boundary",
        content="Context microcompacted",
        level="info",
        microcompactMetadata={
            "trigger": "auto",
            "preTokens": 90000,
            "tokensSaved": 12000,
            "compactedToolIds": tool_ids,
            "clearedAttachmentUUIDs": [],
        },
    )


# --------------------------------------------------------------------------- Codex

ROLLOUT = "0199a1b2-c3d4-7e5f-8a9b-000000000002"


def line(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"timestamp": _time(), "type": kind, "payload": payload}


def meta(session: str = ROLLOUT) -> dict[str, Any]:
    return line(
        "session_meta",
        {
            "id": session,
            "timestamp": _time(0),
            "cwd": "/home/dev/shop",
            "originator": "codex_cli_rs",
            "cli_version": "0.46.0",
            "instructions": None,
        },
    )


def turn(model: str = "gpt-5-codex") -> dict[str, Any]:
    return line(
        "turn_context",
        {
            "cwd": "/home/dev/shop",
            "approval_policy": "on-request",
            "sandbox_policy": {"mode": "workspace-write"},
            "model": model,
            "effort": "medium",
            "summary": "auto",
        },
    )


def say(role: str, text: str) -> dict[str, Any]:
    kind = "output_text" if role == "assistant" else "input_text"
    return line(
        "response_item",
        {"type": "message", "role": role, "content": [{"type": kind, "text": text}]},
    )


def call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    return line(
        "response_item",
        {"type": "function_call", "name": name, "arguments": arguments, "call_id": call_id},
    )


def output(call_id: str, text: str) -> dict[str, Any]:
    return line(
        "response_item", {"type": "function_call_output", "call_id": call_id, "output": text}
    )


def event(kind: str, **payload: Any) -> dict[str, Any]:
    return line("event_msg", {"type": kind, **payload})


CODEX_PREFIX = (
    "Another language model started to solve this problem and produced a summary of its "
    "thinking process. You also have access to the state of the tools that were used by that "
    "language model. Use this to build on the work that has already been done and avoid "
    "duplicating work. Here is the summary produced by the other language model, use the "
    "information in this summary to  assist with your own analysis:"
)


def compacted(text: str) -> dict[str, Any]:
    return line("compacted", {"message": f"{CODEX_PREFIX}\n{text}"})


def remote_compacted(kept_user_texts: list[str]) -> dict[str, Any]:
    history: list[dict[str, Any]] = [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": t}]}
        for t in kept_user_texts
    ]
    history.append({"type": "compaction", "encrypted_content": "gAAAAABo0v1x8Zq3remote"})
    return line("compacted", {"message": "", "replacement_history": history})


def finding_cases() -> dict[str, tuple[str, list[dict[str, Any] | bytes]]]:
    """A small session file for each finding code only a session file can have: code ->
    (file name, its records).  ``tests/unit/test_session_findings.py`` checks each."""
    return {
        "bad-line": ("c.jsonl", [user("u1", None, "q"), b'{"type":"user"', user("u2", "u1", "q")]),
        "chain-cycle": ("c.jsonl", [user("u1", "u2", "q1"), user("u2", "u1", "q2")]),
        "broken-chain": ("c.jsonl", [user("u1", "gone", "q")]),
        "duplicate-record": (
            "c.jsonl",
            [user("u1", None, "q"), user("u2", "u1", "q2"), user("u1", None, "q")],
        ),
        "summary-without-boundary": (
            "c.jsonl",
            [user("u1", None, "q"), summary("s1", "u1", "stray")],
        ),
        "originals-missing": ("r.jsonl", [meta(), compacted("gone"), say("user", "go on")]),
        "abandoned-branch": (
            "c.jsonl",
            [user("u1", None, "q"), user("u2", "u1", "rewound"), user("u3", "u1", "again")],
        ),
        "sidechain-records": (
            "c.jsonl",
            [user("u1", None, "q"), user("x1", "u1", "sub", isSidechain=True, agentId="a1")],
        ),
        "opaque-summary": (
            "r.jsonl",
            [meta(), say("user", "q"), remote_compacted(["q"]), say("user", "go on")],
        ),
    }
