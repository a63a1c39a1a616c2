"""Markdown for ``show`` and ``expand``: a document to paste into a ticket.

Content goes into fenced blocks whose fence is longer than any backtick run
inside it, after :func:`foldctl.safety.visible`, so it can neither close the
fence nor carry control characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from foldctl.graph.walk import Event, FoldEnd, FoldStart
from foldctl.query.records import Overview
from foldctl.query.transcript import Transcript
from foldctl.render import Output
from foldctl.render.sink import markdown_lines
from foldctl.termsafe import visible
from foldctl.times import iso_utc

_TICKS = re.compile("`+")
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+\-.!|~])")


def inline(text: str) -> str:
    """Text safe in a markdown line: visible, specials backslash-escaped, one line."""
    return _MD_SPECIAL.sub(r"\\\1", visible(text).replace("\n", " "))


def fenced(text: str) -> str:
    longest = max((len(m.group()) for m in _TICKS.finditer(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{visible(text)}\n{fence}"


def overview(doc: dict[str, Any]) -> Iterator[str]:
    c = doc["counts"]
    yield f"# Checkpoint {inline(doc['runId'])}"
    yield ""
    yield "| field | value |"
    yield "| --- | --- |"
    rows = [
        ("source", f"{doc['source']} ({doc['shape']})"),
        ("version", str(doc["version"])),
        ("checkpointedAt", doc["checkpointedAt"]),
        ("iterations", str(doc["lastCompletedIteration"])),
        ("original input", str(doc["originalInput"])),
        ("scheme", doc["scheme"]),
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
            "  "
            * (node["depth"] - 1)
            + f"- `{where}` span {node['span']}: {inline(node['model'])}, "
            f"{node['messageCount']} messages, {node['retained']}, run {inline(node['runId'])}, "
            f"iteration {node['iteration']}, {node['foldedAt']}"
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


def transcript(events: Iterable[Event]) -> Iterator[str]:
    for event in events:
        if isinstance(event, FoldStart):
            span = event.span
            yield (
                f"**{'↳ ' * (event.context.depth - 1)}fold: span {span.index}** — "
                f"{inline(span.model)}, {span.message_count} "
                f"messages, {span.retained}, run {inline(span.run_id)}, iteration "
                f"{span.iteration}, {iso_utc(span.folded_at_ms)}"
                + (f" ({event.context.placement}: {event.reason})" if event.reason else "")
            )
            yield ""
            continue
        if isinstance(event, FoldEnd):
            yield f"*end of span {event.span.index}*"
            yield ""
            continue
        m = event.message
        title = f"### `{event.locator}` {inline(str(m.get('role')))}"
        if "toolName" in m:
            title += f" ({inline(str(m['toolName']))})"
        if event.frame is not None:
            title += f" — summary frame, {event.frame.resolution}"
        yield title
        yield ""
        content = m.get("content")
        if isinstance(content, str) and content:
            yield fenced(content)
            yield ""
        for call in m.get("toolCalls") or ():
            if isinstance(call, dict):
                yield f"- tool call {inline(str(call.get('name')))}"
        if m.get("toolCalls"):
            yield ""


def show(result: Overview, output: Output) -> None:
    markdown_lines(overview(result.document()), output)


def expand(result: Transcript, output: Output) -> None:
    markdown_lines(transcript(result.events), output)
