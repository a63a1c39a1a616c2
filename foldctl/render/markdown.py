"""Markdown for ``show`` and ``expand``: a document to paste into a ticket.

Content goes into fenced blocks whose fence is longer than any backtick run
inside it, after :func:`foldctl.safety.visible`, so it can neither close the
fence nor carry control characters.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from foldctl.formats import registry as formats
from foldctl.formats.base import identity
from foldctl.graph.walk import Event, FoldEnd, FoldStart, Row
from foldctl.jsoncodec import as_text
from foldctl.model import Message
from foldctl.query.records import Overview
from foldctl.query.transcript import Transcript
from foldctl.render import Output
from foldctl.render.fields import call_rest, content_text, other_fields, pretty, tool_calls
from foldctl.render.sink import markdown_lines
from foldctl.termsafe import visible
from foldctl.times import iso_utc

_TICKS = re.compile("`+")
# What would change the rendering inside a line: backslash escapes, code spans,
# emphasis (``*``; ``_`` only where it can open or close emphasis, not inside a word),
# links and images, raw HTML and autolinks, table cells, strikethrough, entities.
_MD_SPECIAL = re.compile(r"[\\`*\[\]<>|~]|(?<!\w)_|_(?!\w)|&(?=#?\w+;)")


def inline(text: str) -> str:
    """Text safe in a markdown line: visible, on one line, with only the characters that
    would change the rendering escaped (ids, timestamps and snake_case stay as written)."""
    return _MD_SPECIAL.sub(lambda m: "\\" + m.group(), visible(text).replace("\n", " "))


def code(text: str) -> str:
    """Text as an inline code span (its fence longer than any backtick run in it)."""
    shown = visible(text).replace("\n", " ")
    longest = max((len(m.group()) for m in _TICKS.finditer(shown)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if shown.startswith("`") or shown.endswith("`") or not shown.strip() else ""
    return f"{fence}{pad}{shown}{pad}{fence}"


def fenced(text: str, info: str = "text") -> str:
    shown = visible(text)
    longest = max((len(m.group()) for m in _TICKS.finditer(shown)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{shown}\n{fence}"


NOT_RECORDED = "not recorded"


def _session_rows(doc: dict[str, Any]) -> list[tuple[str, str]]:
    """The head of the overview of a session file of another runtime."""
    facts = doc["session"]
    rows = [
        ("source", f"{doc['source']} ({formats.get(doc['format']).title})"),
        ("session", facts.get("sessionId", NOT_RECORDED)),
        ("project", facts.get("project", NOT_RECORDED)),
        ("runtime", facts.get("runtimeVersion", NOT_RECORDED)),
        ("time", f"{facts.get('firstAt', '?')} .. {facts.get('lastAt', '?')}"),
        ("lines", f"{facts['lines']} ({facts['records']} records)"),
        ("first prompt", str(doc.get("originalInput", NOT_RECORDED))),
        ("join", f"{doc['join']}: {doc['schemeNote']}"),
        ("not recorded", ", ".join(doc.get("notRecorded", ()))),
    ]
    if "parentSession" in facts:
        rows.insert(2, ("subagent of", str(facts["parentSession"])))
    if doc.get("partial"):
        rows.append(("partial", "some lines are not JSON and were left out (see verify)"))
    return rows


def overview(doc: dict[str, Any]) -> Iterator[str]:
    c = doc["counts"]
    name = doc.get("runId") or NOT_RECORDED
    yield f"# {'Session' if 'session' in doc else 'Checkpoint'} {inline(name)}"
    yield ""
    yield "| field | value |"
    yield "| --- | --- |"
    head = (
        _session_rows(doc)
        if "session" in doc
        else [
            ("source", f"{doc['source']} ({doc['shape']})"),
            ("version", str(doc["version"])),
            ("checkpointedAt", doc["checkpointedAt"]),
            ("iterations", str(doc["lastCompletedIteration"])),
            ("original input", str(doc["originalInput"])),
            ("scheme", doc["scheme"]),
        ]
    )
    rows = [
        *head,
        ("live messages", f"{c['liveMessages']} ({c['liveFrames']} frames)"),
        ("spans", f"{c['spans']} ({c['retained']} retained, {c['discarded']} discarded)"),
        ("placement", f"{c['placed']} placed, {c['detached']} detached, {c['orphan']} orphan"),
        ("unresolved frames", str(c["unresolvedFrames"])),
        ("ambiguous fingerprints", str(c["ambiguousFingerprints"])),
        ("runs", ", ".join(doc["runs"])),
        ("models", ", ".join(doc["models"])),
    ]
    for name, value in rows:
        yield f"| {name} | {inline(value)} |"
    yield ""
    yield "## Fold tree"
    yield ""
    if not doc["tree"]:
        yield "(no folds)"
    for node in doc["tree"]:
        where = node["frame"] or node["placement"]
        yield (
            "  " * (node["depth"] - 1) + f"- `{where}` span {node['span']}: "
            f"{inline(node.get('model', 'model ' + NOT_RECORDED))}, "
            f"{node['messageCount']} messages, {node['retained']}, "
            f"run {inline(node.get('runId', NOT_RECORDED))}, "
            + (
                f"iteration {node['iteration']}, {node['foldedAt']}"
                if "iteration" in node
                else f"{node.get('foldedAt', 'time ' + NOT_RECORDED)}, line {node.get('line')}"
            )
        )
    found = doc.get("findings")
    if found is not None:
        scope = " in the fold record" if found.get("scope") == "fold record" else ""
        yield ""
        yield "## Findings"
        yield ""
        words = {"error": "errors", "warning": "warnings", "info": "info"}
        listed = ", ".join(
            f"{found[s]} {s if found[s] == 1 else plural}"
            for s, plural in words.items()
            if found[s]
        )
        if listed:
            listed += " (" + ", ".join(f"`{c}` {n}" for c, n in found["codes"].items()) + ")"
        yield (
            f"{listed or 'None'}{scope}. Run `foldctl verify` on this source for the full audit."
        )


def header(facts: dict[str, Any]) -> Iterator[str]:
    """The head of a transcript, so a pasted transcript stands alone."""
    yield f"# Transcript of {code(str(facts['runId'] or NOT_RECORDED))}"
    yield ""
    yield f"- source: {code(str(facts['source']))} ({facts['shape']})"
    yield f"- checkpointed at: {facts['checkpointedAt']}"
    yield (
        f"- {facts['liveMessages']} live messages; {facts['spans']} folds "
        f"({facts['retained']} retained, {facts['discarded']} discarded); "
        f"{facts['foldedMessages']} folded messages kept; deepest nesting {facts['maxDepth']}"
    )
    yield (
        "- summaries are claims written by a model, not the conversation; each is followed "
        "by the originals it stands for"
    )
    yield ""


def _fold_line(event: FoldStart) -> str:
    span, ctx = event.span, event.context
    parts = [f"**fold: span {span.index}**"]
    if ctx.depth > 1:
        parts.append(f"depth {ctx.depth} (outermost span {ctx.outermost})")
    if span.kind != "fold":
        parts = [f"**{span.kind}: span {span.index}**", f"{span.message_count} messages"]
    else:
        parts += [
            f"model {code(span.model)}" if span.model is not None else f"model {NOT_RECORDED}",
            f"{span.message_count} messages",
            span.retained,
            f"run {code(span.run_id or NOT_RECORDED)}",
        ]
        if span.iteration is not None:
            parts.append(f"iteration {span.iteration}")
        at = span.folded_at_ms
        parts.append(iso_utc(at) if at is not None else f"time {NOT_RECORDED}")
    if span.line is not None:
        parts.append(f"line {span.line}")
    line = " · ".join(parts)
    if event.first_frame is not None or ctx.occurrence > 1:
        line += (
            f" — **replay {ctx.occurrence}**: the same messages as at the first placement "
            f"(frame {code(event.first_frame or 'history')}); this one is through frame "
            f"{code(ctx.frame_locator or '?')}" + ("; not repeated here" if event.reference else "")
        )
    if event.reason:
        line += f" ({ctx.placement}: {inline(event.reason)})"
    return line


def _message(row: Row, view: Callable[[Message], Message]) -> Iterator[str]:
    m = view(row.message)
    role = m.get("role")
    title = f"### {code(row.locator)} {inline(role) if isinstance(role, str) else '(no role)'}"
    if row.line is not None:
        title += f" (line {row.line})"
    tool = m.get("toolName")
    if isinstance(tool, str):
        title += f" ({code(tool)})"
    if row.occurrence > 1:
        title += f" — replay {row.occurrence}"
    if row.frame is not None:
        title += f" — summary frame, {row.frame.resolution}"
        if row.frame.span is not None:
            title += f" (span {row.frame.span})"
    yield title
    yield ""
    content = content_text(m)
    if content:
        yield fenced(content)
        yield ""
    for call in tool_calls(m) or ():
        head = f"- tool call {code(as_text(call.get('name')))}"
        if "id" in call:
            head += f" (id {code(as_text(call['id']))})"
        yield head
        yield ""
        if "args" in call:
            yield fenced(pretty(call["args"]), "json")
            yield ""
        rest = call_rest(call)
        if rest:
            yield fenced(pretty(rest), "json")
            yield ""
    for key, value in other_fields(m):
        yield f"- {code(key)}:"
        yield ""
        yield fenced(
            value if isinstance(value, str) else pretty(value),
            "text" if isinstance(value, str) else "json",
        )
        yield ""


def transcript(
    events: Iterable[Event],
    facts: dict[str, Any] | None = None,
    view: Callable[[Message], Message] = identity,
) -> Iterator[str]:
    """The transcript as markdown; each message as its format's ``view`` shows it."""
    if facts is not None:
        yield from header(facts)
    for event in events:
        if isinstance(event, FoldStart):
            yield _fold_line(event)
            yield ""
        elif isinstance(event, FoldEnd):
            yield f"*end of span {event.span.index}*"
            yield ""
        else:
            yield from _message(event, view)


def show(result: Overview, output: Output) -> None:
    markdown_lines(overview(result.doc), output)


def expand(result: Transcript, output: Output) -> None:
    markdown_lines(transcript(result.events, result.facts, result.view), output)
