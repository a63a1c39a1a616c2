"""Codex rollouts (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``): SPEC §7.

One ``{"timestamp", "type", "payload"}`` a line.  The model-visible history is the
``response_item`` lines; a compaction is a ``compacted`` line, whose originals are the
``response_item`` lines after the previous ``compacted`` line (or the start) and before it.
After a compaction the runtime rebuilds the history from the initial context, the user's
messages and the summary, so the frame of fold k is the ``compacted`` line itself (kept
verbatim), standing first in the next container (fold k+1's originals, or the live window):
the join is by position in the file.  ``replacement_history`` (a remote compaction's new
history, whose summary is only ``encrypted_content``) stays with its fold; ``event_msg``,
``turn_context`` and ``session_meta`` lines are not history (``session_meta`` names the
session; the ``turn_context`` written before a compaction names the model that ran it).

Read in one pass like a Claude Code session (:mod:`foldctl.formats.lines`): each line's
``type`` is read and its payload skipped, except for the few lines that say something about
the session (``session_meta``, ``turn_context``, ``compacted``).
"""

from __future__ import annotations

from typing import Any, Final

import msgspec
import orjson
from msgspec import UNSET, UnsetType

from foldctl.formats import lines
from foldctl.formats.base import Head, InputFormat, after_preamble
from foldctl.model import (
    Checkpoint,
    Container,
    LoadNote,
    Message,
    SessionFacts,
    Span,
)
from foldctl.times import iso_ms

#: The line types of a rollout.
LINE_TYPES: Final = frozenset(
    {"session_meta", "response_item", "turn_context", "event_msg", "compacted"}
)
#: What the runtime writes before the summarizer's text in a local compaction's summary
#: (codex-rs/core/templates/compact/summary_prefix.md), followed by a line break.
SUMMARY_PREFIX: Final = (
    "Another language model started to solve this problem and produced a summary of its "
    "thinking process. You also have access to the state of the tools that were used by that "
    "language model. Use this to build on the work that has already been done and avoid "
    "duplicating work. Here is the summary produced by the other language model, use the "
    "information in this summary to  assist with your own analysis:"
)


class _Line(msgspec.Struct):
    timestamp: str | None = None
    type: str | None = None
    payload: msgspec.Raw | UnsetType = UNSET


_DECODE: Final = msgspec.json.Decoder(_Line).decode


def _sniff(head: Head) -> bool:
    first = head.first
    kind = first.get("type") if first is not None else None
    return (
        first is not None
        and isinstance(kind, str)
        and kind in LINE_TYPES
        and "payload" in first
        and "timestamp" in first
    )


def _payload(raw: msgspec.Raw | UnsetType) -> dict[str, Any]:
    if isinstance(raw, UnsetType):
        return {}
    try:
        value = orjson.loads(memoryview(raw))
    except orjson.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def _opaque(record: dict[str, Any]) -> str | None:
    """Why a ``compacted`` line's summary cannot be read (None when it can)."""
    payload = record.get("payload")
    payload = payload if isinstance(payload, dict) else {}
    message = payload.get("message")
    if isinstance(message, str) and message.strip():
        return None
    history = payload.get("replacement_history")
    if isinstance(history, list) and any(
        isinstance(item, dict) and item.get("encrypted_content") for item in history
    ):
        return (
            "its summary exists only as encrypted_content in replacement_history (a remote "
            "compaction): no one but the model provider can read what it says"
        )
    return "it holds no summary text at all"


def load(data: Any, source: str) -> Checkpoint:
    """A Codex rollout from its (decompressed) bytes."""
    view_of = memoryview(data) if not isinstance(data, bytes) else data
    starts: list[int] = []
    ends: list[int] = []
    numbers: list[int] = []
    rows: list[int] = []  # response_item records, by record index
    compacted: list[tuple[int, dict[str, Any], str | None]] = []  # (record, line, model)
    notes: list[LoadNote] = []
    other: dict[str, int] = {}
    session_id: str | None = None
    cwd: str | None = None
    version: str | None = None
    parent: str | None = None
    model: str | None = None
    first_time: str | None = None
    last_time: str | None = None
    first_prompt: str | None = None
    records = 0
    line_count = 0
    # each segment: the response_item records after a compacted line (or the start)
    segments: list[list[int]] = [[]]
    for number, start, end in lines.line_spans(data):
        line_count = number
        try:
            line = lines.decode_line(_DECODE, view_of[start:end], source, number)
        except msgspec.ValidationError as e:
            records += 1
            notes.append(
                LoadNote("schema", f"Line {number} is not a line this format reads: {e}.", number)
            )
            continue
        except msgspec.DecodeError:
            notes.append(
                LoadNote(
                    "bad-line",
                    f"Line {number} is not JSON ({lines.not_json(data, start, end)}); the rest "
                    "of the file was read, so the rollout is shown without it.",
                    number,
                )
            )
            continue
        records += 1
        stamp = line.timestamp
        if stamp is not None:  # ISO-8601 as the runtime writes it: text order is time order
            first_time = stamp if first_time is None or stamp < first_time else first_time
            last_time = stamp if last_time is None or stamp > last_time else last_time
        kind = line.type
        if kind == "response_item" or kind == "compacted":
            index = len(starts)
            starts.append(start)
            ends.append(end)
            numbers.append(number)
            if kind == "response_item":
                rows.append(index)
                segments[-1].append(index)
            else:
                record = lines.decode_record(bytes(data[start:end]), source, number)
                compacted.append((index, record, model))
                segments.append([])
            continue
        name = kind if isinstance(kind, str) else "(no type)"
        other[name] = other.get(name, 0) + 1
        if kind == "session_meta":
            meta = _payload(line.payload)
            if session_id is None:
                session_id = _string(meta.get("id"))
                cwd = _string(meta.get("cwd"))
                version = _string(meta.get("cli_version"))
                parent = _string(meta.get("forked_from_id"))
                first_time = first_time or _string(meta.get("timestamp"))
        elif kind == "turn_context":
            model = _string(_payload(line.payload).get("model")) or model
        elif (
            kind == "event_msg"
            and first_prompt is None
            and b'"user_message"' in bytes(view_of[start:end])
        ):
            event = _payload(line.payload)
            if event.get("type") == "user_message" and isinstance(event.get("message"), str):
                first_prompt = event["message"]
    spans: list[Span] = []
    links: dict[tuple[Container, int], int] = {}
    count = len(compacted)
    digits = lines.Digits(data)

    def container(k: int) -> list[int]:
        """Fold k's originals (k == count: the live window), the previous frame first."""
        head = [compacted[k - 1][0]] if k > 0 else []
        return head + segments[k]

    for k, (index, record, at_model) in enumerate(compacted):
        number = numbers[index]
        held = container(k)
        missing = k == 0 and not held
        if missing:
            notes.append(
                LoadNote(
                    "originals-missing",
                    f"The rollout starts at the compacted line {number}: no response_item "
                    "comes before it, so the history it replaced is not in this file (rewritten "
                    "in place, or copied from another rollout).",
                    number,
                    span=k,
                )
            )
        why = _opaque(record)
        if why is not None:
            notes.append(
                LoadNote(
                    "opaque-summary",
                    f"The summary of the compaction at line {number} cannot be checked: {why}.",
                    number,
                    place=(k + 1 if k + 1 < count else None, 0),
                    span=k,
                )
            )
        links[(k + 1 if k + 1 < count else None, 0)] = k
        spans.append(
            Span(
                index=k,
                fingerprint=None,
                run_id=session_id,
                iteration=None,
                folded_at_ms=iso_ms(record.get("timestamp")),
                model=at_model,
                message_count=len(held),
                removed_stage_ids=None,
                retained="discard" if missing else "conversation",
                messages=None
                if missing
                else lines.records(
                    data, source, held, starts, ends, numbers, (0,) if k > 0 else (), digits
                ),
                raw=record,
                line=number,
            )
        )
    live = container(count)
    history = lines.records(
        data, source, live, starts, ends, numbers, (0,) if count else (), digits
    )
    facts = SessionFacts(
        session_id=session_id,
        project=cwd,
        first_ms=iso_ms(first_time),
        last_ms=iso_ms(last_time),
        records=records,
        lines=line_count,
        parent_session=parent,
        runtime_version=version,
        other_lines=tuple(sorted(other.items())),
    )
    return lines.session_checkpoint(
        source,
        data,
        format=FORMAT.name,
        shape="rollout",
        history=history,
        spans=spans,
        links=links,
        notes=notes,
        facts=facts,
        original_input=first_prompt,
    )


def _string(value: Any) -> str | None:
    return value if isinstance(value, str) else None


# ---------------------------------------------------------------------- the view


def _texts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        return [
            item["text"]
            for item in content
            if isinstance(item, dict) and isinstance(item.get("text"), str)
        ]
    return []


def _output(output: Any) -> tuple[str, bool]:
    """A call's output as text, and whether it says the call failed.  The runtime writes a
    shell call's output as JSON text (``{"output": ..., "metadata": {"exit_code": ...}}``):
    its ``output`` is the text shown (the JSON stays in the record)."""
    if isinstance(output, dict):
        content = output.get("content")
        return lines.text_of(content) if content is not None else "", output.get("success") is False
    if not isinstance(output, str):
        return ("" if output is None else lines.text_of(output)), False
    if output.startswith('{"output"'):
        try:
            decoded = orjson.loads(output)
        except orjson.JSONDecodeError:
            return output, False
        if isinstance(decoded, dict) and isinstance(decoded.get("output"), str):
            meta = decoded.get("metadata")
            code = meta.get("exit_code") if isinstance(meta, dict) else None
            return decoded["output"], isinstance(code, int) and code != 0
    return output, False


def view(record: Message) -> Message:
    """A rollout line as foldctl shows and searches it: a ``message``'s role and the text of
    its content; a call (``function_call``, ``custom_tool_call``, ``local_shell_call``,
    ``web_search_call``) as ``toolCalls``; a call's output as role ``tool`` with its
    ``toolCallId``; a ``reasoning`` item's summary text; a ``compacted`` line as the user
    message the runtime puts in the history (its summary); then the line's ``timestamp`` and
    ``type`` and, as ``payload``, every field of the payload not shown above (so nothing is
    left out)."""
    payload = record.get("payload")
    payload = payload if isinstance(payload, dict) else {}
    kind = record.get("type")
    item = payload.get("type")
    shown: dict[str, Any] = {}
    used: set[str] = set()
    if kind == "compacted":
        message = payload.get("message")
        shown = {"role": "user", "content": message if isinstance(message, str) else ""}
        used = {"message"}
    elif item == "message":
        role = payload.get("role")
        shown = {"role": role if isinstance(role, str) else "?", "content": ""}
        texts = _texts(payload.get("content"))
        shown["content"] = "\n".join(texts)
        used |= {"role"}
        content = payload.get("content")
        if isinstance(content, list) and all(
            isinstance(c, dict) and isinstance(c.get("text"), str) for c in content
        ):
            used.add("content")
    elif item in ("function_call", "custom_tool_call", "local_shell_call", "web_search_call"):
        name = payload.get("name") or {"local_shell_call": "local_shell"}.get(item) or item
        args = payload.get("arguments", payload.get("input", payload.get("action")))
        call_id = payload.get("call_id", payload.get("id"))
        shown = {
            "role": "assistant",
            "content": "",
            "toolCalls": [{"id": call_id, "name": name, "args": args}],
        }
        used |= {"name", "arguments", "input", "action", "call_id"}
    elif item in ("function_call_output", "custom_tool_call_output"):
        output = payload.get("output")
        text, failed = _output(output)
        shown = {"role": "tool", "content": text, "toolCallId": payload.get("call_id")}
        if failed:
            shown["isError"] = True
        used.add("call_id")
        if output == text:  # shown whole; else the stored output stays under payload
            used.add("output")
    elif item == "reasoning":
        summary = payload.get("summary")
        shown = {"role": "assistant", "content": "\n".join(_texts(summary))}
        used |= {"summary"}
    else:
        role = payload.get("role")
        shown = {
            "role": role if isinstance(role, str) else lines.text_of(item or kind),
            "content": "",
        }
        used |= {"role"}
    for key, value in record.items():
        if key != "payload":
            shown.setdefault(key, value)
    rest = {key: value for key, value in payload.items() if key not in used}
    if rest or not isinstance(record.get("payload"), dict):
        shown["payload"] = (
            rest if isinstance(record.get("payload"), dict) else record.get("payload")
        )
    return shown


summary_text: Final = after_preamble(view, SUMMARY_PREFIX)


FORMAT: Final = InputFormat(
    name="codex",
    title="Codex rollout",
    summary="a Codex CLI rollout (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl)",
    join="position",
    suffixes=(".jsonl", ".jsonl.gz"),
    sniff=_sniff,
    load=load,
    view=view,
    summary_text=summary_text,
    place=lines.line_place,
    span_place=lines.span_line_place,
    not_recorded=("iteration", "removedStageIds", "fingerprint"),
)
