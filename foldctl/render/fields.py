"""Which fields of a message each human format shows, and how, so none is left out.

Every human format (text, markdown, HTML) shows a message's role, its tool name
and its content in their own places; tool calls as a list when they have the
runtime's shape (objects); and every other stored field — ``toolCallId``,
``thinkingBlocks``, anything unknown, a ``content`` or ``toolCalls`` of an
unexpected shape — as ``name: value``, a string as it is and anything else as
JSON.  Nothing a message holds is dropped from the page.
"""

from __future__ import annotations

from typing import Any, Final

from foldctl.jsoncodec import as_text
from foldctl.model import Message

#: Shown in the message's heading, not as a field.
HEADING_KEYS = ("role", "toolName")


def tool_calls(message: Message) -> list[dict[str, Any]] | None:
    """The tool calls when they are a list of objects (the runtime's shape), else None."""
    calls = message.get("toolCalls")
    if isinstance(calls, list) and calls and all(isinstance(c, dict) for c in calls):
        return calls
    return None


def content_text(message: Message) -> str | None:
    """The content when it is a string."""
    content = message.get("content")
    return content if isinstance(content, str) else None


def other_fields(message: Message) -> list[tuple[str, Any]]:
    """Every field not shown in the heading, the content or the tool calls, in stored order."""
    calls = tool_calls(message)
    out: list[tuple[str, Any]] = []
    for key, value in message.items():
        if key in HEADING_KEYS and isinstance(value, str):
            continue
        if key == "content" and isinstance(value, str):
            continue
        if key == "toolCalls" and (calls is not None or value == []):
            continue
        out.append((key, value))
    return out


def call_rest(call: dict[str, Any]) -> dict[str, Any]:
    """A tool call's fields other than name, id and args."""
    return {k: v for k, v in call.items() if k not in ("name", "id", "args")}


#: Deeper than this, a value is written compact: each level indents every line below it,
#: so indenting 900 levels turns 2 KB of arguments into megabytes.
PRETTY_DEPTH: Final = 8


def _deeper_than(value: Any, limit: int) -> bool:
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth >= limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return False


def pretty(value: Any) -> str:
    """A JSON value indented for reading (non-ASCII as it is).  A value nested deeper than
    :data:`PRETTY_DEPTH`, or one the JSON encoder refuses (a lone surrogate), is written
    compact instead, by the iterative encoder, so the text stays linear in the value."""
    import json

    if _deeper_than(value, PRETTY_DEPTH):
        return as_text(value)
    try:
        return json.dumps(value, indent=2, ensure_ascii=False)
    except (RecursionError, ValueError, TypeError):
        return as_text(value)
