"""Markdown for ``show`` and ``expand``: a document to paste into a ticket.

Content goes into fenced blocks whose fence is longer than any backtick run
inside it, after :func:`foldctl.safety.visible`, so it can neither close the
fence nor carry control characters.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Final

from foldctl.formats import registry as formats
from foldctl.formats.base import identity
from foldctl.graph.walk import Event, FoldEnd, FoldStart, Row
from foldctl.jsoncodec import as_text
from foldctl.model import Message
from foldctl.query.records import Overview
from foldctl.query.transcript import Transcript
from foldctl.render import Output
from foldctl.render.claim_notes import cited, cites, marked
from foldctl.render.fields import call_rest, content_text, other_fields, pretty, tool_calls
from foldctl.render.sink import markdown_lines
from foldctl.termsafe import visible
from foldctl.times import iso_utc

_TICKS = re.compile("`+")
# What would change the rendering inside a line: backslash escapes, code spans,
# emphasis (``*``; ``_`` only where it can open or close emphasis, not inside a word),
# links and images, raw HTML and autolinks, table cells, strikethrough, entities.
_MD_SPECIAL = re.compile(r"[\\`*\[\]<>|~]|(?<!\w)_|_(?!\w)|&(?=#?\w+;)")

if TYPE_CHECKING:
    from foldctl.claims.record import SummaryFinding


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
    if doc.get("treeFilter"):
        shown = f"{len(doc['tree'])} of {c['spans']}"
        yield f"The spans {inline(doc['treeFilter'])}: {shown}."
        yield ""
    if not doc["tree"]:
        yield "(no folds)" if not doc.get("treeFilter") else "(none)"
    for node in doc["tree"]:
        where = node["frame"] or node["placement"]
        depth = node["depth"]
        deep = f"depth {depth}: " if depth > NEST_DEPTH else ""
        yield (
            "  " * (min(depth, NEST_DEPTH) - 1) + f"- {deep}`{where}` span {node['span']}: "
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
        claim_lines = found.get("claimLines") or []
        if claim_lines:
            yield ""
            yield from (f"- {inline(line)}" for line in claim_lines)


#: Folds this deep or less nest: a fold at depth d is a heading of level d + 1 and its
#: messages of level d + 2 (a list item, in ``show``'s tree, d levels in).  Deeper ones are
#: written flat at the deepest level, their depth written out: a chain 1,019 folds deep
#: would otherwise nest past what markdown has (six heading levels) or anyone reads.
NEST_DEPTH: Final = 4


def header(facts: dict[str, Any], claims: Sequence[SummaryFinding] | None = None) -> Iterator[str]:
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
        "- summaries are claims written by a model, not the conversation; each is shown, "
        "marked as a claim, before the originals it stands for"
    )
    if claims is not None:
        wrong = sum(1 for f in claims if f.wrong)
        yield (
            f"- each summary was checked against its originals (`foldctl claims`): {wrong} "
            f"finding(s) that a summary is wrong, listed under it"
        )
    if facts["maxDepth"] > NEST_DEPTH:
        yield (
            f"- folds nest as headings {NEST_DEPTH} levels deep; deeper ones are listed "
            "flat, each with its depth"
        )
    yield ""


def _fold_line(event: FoldStart) -> str:
    span, ctx = event.span, event.context
    parts = [f"fold: span {span.index}"]
    if ctx.depth > 1:
        parts.append(f"depth {ctx.depth} (outermost span {ctx.outermost})")
    if span.kind != "fold":
        parts = [f"{span.kind}: span {span.index}", f"{span.message_count} messages"]
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
    if ctx.depth <= NEST_DEPTH:
        line = "#" * (ctx.depth + 1) + " " + " · ".join(parts)
    else:
        line = f"- **{parts[0]}** · " + " · ".join(parts[1:])
    if event.first_frame is not None or ctx.occurrence > 1:
        line += (
            f" — **replay {ctx.occurrence}**: the same messages as at the first placement "
            f"(frame {code(event.first_frame or 'history')}); this one is through frame "
            f"{code(ctx.frame_locator or '?')}" + ("; not repeated here" if event.reference else "")
        )
    if event.reason:
        line += f" ({ctx.placement}: {inline(event.reason)})"
    return line


def claim_items(f: SummaryFinding) -> Iterator[str]:
    """A claims finding as a list item: its kind, the atom, the summary's sentence with
    the atom marked, what the originals say and where."""
    x = f.finding
    span = "no span" if f.span is None else f"span {f.span}"
    yield f"- **{x.kind}** {inline(x.atom_kind)} {code(x.atom)} — summary {code(f.frame)} of {span}"
    sentence = marked(f, "**", "**")
    if sentence:
        yield f"  - summary: {inline(sentence).replace(chr(92) + '*' + chr(92) + '*', '**')}"
    if x.expected is not None:
        yield f"  - originals: {code(x.expected)}"
    if f.line:
        yield f"  - original line: {code(f.line)}"
    if cites(f):
        yield f"  - evidence: {inline(cited(f))}"


def _view(result: Transcript | None) -> Callable[[Message], Message]:
    """How the transcript's format shows a message (the message itself without one)."""
    return identity if result is None else result.view


def _claim(
    message: Message | None,
    locator: str | None,
    model: str | None,
    checked: bool,
    findings: Sequence[SummaryFinding],
) -> Iterator[str]:
    """A summary marked as the claim it is, its text, and what the claims check found."""
    if message is None:
        yield "*No summary stands for this span here: no frame in the transcript reaches it.*"
        yield ""
        return
    by = f", written by {code(model)}" if model is not None else ""
    at = f" at {code(locator)}" if locator is not None else ""
    yield (
        f"> **Claim.** The summary{at}{by}: what a model wrote about the conversation, not "
        "the conversation."
    )
    yield ""
    content = content_text(message)  # the summary as its format's view shows it
    if content is not None:
        yield fenced(content)
        yield ""
    if not checked:
        return
    wrong = [f for f in findings if f.wrong]
    if not findings:
        yield "Claims check: nothing found wrong in this summary."
    elif wrong:
        yield f"Claims check: {len(wrong)} finding(s) that this summary is wrong:"
    else:
        yield "Claims check:"
    yield ""
    for f in findings:
        yield from claim_items(f)
    if findings:
        yield ""


def _heading(row: Row) -> str:
    """A message's heading: nested as its fold is, flat (its depth written) below that."""
    depth = row.depth
    level = depth + 2 if depth <= NEST_DEPTH else 6
    return "#" * level + " " + ("" if depth <= NEST_DEPTH else f"depth {depth} · ")


def _message(row: Row, result: Transcript | None = None) -> Iterator[str]:
    m = _view(result)(row.message)  # as its format shows it
    role = m.get("role")
    title = f"{_heading(row)}{code(row.locator)} "
    title += inline(role) if isinstance(role, str) else "(no role)"
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
        graph = result.graph if result is not None else None
        model = (
            None if graph is None or row.frame.span is None else graph.spans[row.frame.span].model
        )
        checked = result is not None and result.claims is not None
        findings = result.frame_claims(row) if result is not None else []
        yield from _claim(m, None, model, checked, findings)
        yield from _fields(m, with_content=False)
        return
    yield title
    yield ""
    yield from _fields(m)


def _fields(m: Message, *, with_content: bool = True) -> Iterator[str]:
    content = content_text(m)
    if content and with_content:
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
    events: Iterable[Event], facts: dict[str, Any] | None = None, result: Transcript | None = None
) -> Iterator[str]:
    """The transcript as markdown: each fold as a heading (flat below
    :data:`NEST_DEPTH`), its summary shown as a claim before its originals, each message
    as its format's view shows it."""
    checked = result is not None and result.claims is not None
    view = _view(result)
    if facts is not None:
        yield from header(facts, None if result is None else result.claims)
    for event in events:
        if isinstance(event, FoldStart):
            yield _fold_line(event)
            yield ""
            ctx = event.context
            summary = None if result is None else result.summary(event)
            summary = None if summary is None else view(summary)
            findings = result.span_claims(event.span.index) if result is not None else []
            yield from _claim(summary, ctx.frame_locator, event.span.model, checked, findings)
        elif isinstance(event, FoldEnd):
            depth = event.context.depth
            deep = f" (depth {depth})" if depth > NEST_DEPTH else ""
            yield f"*end of span {event.span.index}{deep}*"
            yield ""
        elif event.frame is not None and event.frame.resolution == "expanded":
            continue  # shown as its fold's claim, just below
        else:
            yield from _message(event, result)


def show(result: Overview, output: Output) -> None:
    markdown_lines(overview(result.doc), output)


def expand(result: Transcript, output: Output) -> None:
    markdown_lines(transcript(result.events, result.facts, result), output)
