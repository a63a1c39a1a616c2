"""Human text: the overview, the expanded transcript and tables, as styled lines.

Every string that comes from the checkpoint passes through
:func:`foldctl.safety.visible` here, whatever the destination.
"""

from __future__ import annotations

import itertools
import shlex
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Final

from foldctl.formats import registry as formats
from foldctl.formats.base import identity
from foldctl.graph.walk import Event, FoldEnd, FoldStart, Row
from foldctl.jsoncodec import as_text
from foldctl.model import FRAME_PREFIX, Message
from foldctl.render import BLOCK, Line, Output
from foldctl.render.cells import brief, pad, truncate, width
from foldctl.render.claim_notes import finding_lines
from foldctl.render.fields import call_rest, content_text, other_fields, tool_calls
from foldctl.render.sink import text_lines
from foldctl.termsafe import visible
from foldctl.times import iso_utc

if TYPE_CHECKING:  # the results it renders; each command loads its own
    from foldctl.query.fingerprints import Fingerprints
    from foldctl.query.records import Overview, Table
    from foldctl.query.transcript import Transcript

_RESOLUTION_NOTE = {
    "discarded": "summary of a discarded fold: the originals were not retained",
    "unresolved": "looks like a summary but joins no span (forged, tampered, or pre-8.2)",
    "cycle": "joins a span already being expanded (a fold cycle): not expanded again",
    "depth-limit": "not expanded: --depth reached",
    "expanded": "summary frame, expanded below",
}
_ROLE_STYLE = {"user": "green", "assistant": "cyan", "tool": "magenta", "system": "yellow"}


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, list):
        return brief([_fmt(v) for v in value]) or "-"
    return visible(str(value))


#: The widest a table cell is drawn; longer values end in an ellipsis (machine formats
#: carry them whole), so one outlier does not pad every row.
MAX_CELL = 40


def table_lines(rows: Iterable[dict[str, Any]], columns: Sequence[str]) -> Iterator[Line]:
    """Aligned columns with a header; long cells cut with an ellipsis; the last column is
    not padded.  Widths are display columns (wide characters count two).  ``rows`` is
    read twice, widths first, so rows made as they are read are never all held."""

    if iter(rows) is rows:  # an iterator reads once: hold it
        rows = list(rows)

    def cells(row: dict[str, Any]) -> list[str]:
        return [truncate(_fmt(row.get(c)), MAX_CELL) for c in columns]

    widths = [width(c) for c in columns]
    for row in rows:
        for i, text in enumerate(cells(row)):
            widths[i] = max(widths[i], width(text))
    last = len(columns) - 1

    def cell(i: int, text: str) -> str:
        return text if i == last else pad(text, widths[i])

    yield [("  ".join(cell(i, c) for i, c in enumerate(columns)), "bold")]
    for row in rows:
        yield [("  ".join(cell(i, c) for i, c in enumerate(cells(row))), None)]


#: Nesting drawn as bars up to this depth; deeper levels say their depth instead, so a
#: chain hundreds of folds deep does not push every line hundreds of columns right.
MAX_DRAWN_DEPTH = 8


def _indent(depth: int, unicode: bool) -> str:
    bar = "│ " if unicode else "| "
    if depth <= MAX_DRAWN_DEPTH:
        return bar * depth
    return bar * (MAX_DRAWN_DEPTH - 1) + f"{bar.strip()}{depth} "


#: The fold tree shows at most this many spans: the first ones and the last few, with
#: a line saying how many are left out (``spans`` and ``--format json`` list them all).
MAX_TREE = 40
_TREE_TAIL = 8


#: What text says of a fact the input format does not record (JSON leaves the key out).
NOT_RECORDED = "not recorded"


def _recorded(value: Any, name: str) -> str:
    """A fact as text, or ``NAME not recorded`` when the format does not record it."""
    if value is None:
        return f"{name} {NOT_RECORDED}"
    return truncate(visible(str(value)), MAX_CELL)


def _time(ms: int | float | None) -> str:
    return f"time {NOT_RECORDED}" if ms is None else iso_utc(ms)


def _span_line(node: dict[str, Any]) -> str:
    if node.get("kind") is not None:  # a container that is no fold
        return (
            f"span {node['span']}  {node['kind']}  {node['messageCount']} msg  from line "
            f"{node.get('line')}"
        )
    text = (
        f"span {node['span']}  {_recorded(node.get('model'), 'model')}  "
        f"{node['messageCount']} msg  {node['retained']}  "
        f"run {_recorded(node.get('runId'), 'run')}  "
    )
    if "line" in node:  # a session file: the fold's record, no iteration
        return text + f"{node.get('foldedAt') or 'time ' + NOT_RECORDED}  line {node['line']}"
    return text + f"iter {node['iteration']}  {node['foldedAt']}"


def _tree_lines(tree: Iterable[dict[str, Any]], unicode: bool) -> Iterator[Line]:
    """The first nodes of the tree and its last few, read once (the tree may be a chain
    ten thousand deep, made as it is read)."""
    branch = "└─ " if unicode else "`- "
    head = MAX_TREE - _TREE_TAIL
    tail: deque[dict[str, Any]] = deque(maxlen=_TREE_TAIL)
    total = 0
    shown: list[dict[str, Any]] = []
    for node in tree:
        total += 1
        if total <= head:
            shown.append(node)
        else:
            tail.append(node)
    if total > MAX_TREE:
        shown += [{}, *tail]
    else:
        shown += tail
    for node in shown:
        if not node:
            left_out = total - MAX_TREE + 1
            yield [
                ("  ... ", "dim"),
                (f"{left_out} more spans (all of them: foldctl spans, or --format json)", "dim"),
            ]
            continue
        depth = node["depth"]
        where = node["frame"] or node["placement"].upper()
        style = None if node["placement"] == "placed" else "yellow"
        prefix = "  " + "   " * (min(depth, MAX_DRAWN_DEPTH) - 1) + branch
        line: Line = [(prefix, "dim")]
        if depth > MAX_DRAWN_DEPTH:
            line.append((f"depth {depth}  ", "dim"))
        line += [(f"{where}  ", "cyan"), (_span_line(node), style)]
        if node["replays"]:
            line.append((f"  (frame also at {node['replays']} other place(s))", "yellow"))
        yield line


def overview(doc: dict[str, Any], *, unicode: bool) -> Iterator[Line]:
    counts = doc["counts"]

    def field(name: str, value: Any) -> Line:
        return [(f"{name:<16}", "bold"), (_fmt(value), None)]

    if "session" in doc:
        yield from _session_head(doc, field)
    else:
        yield field("source", f"{doc['source']} ({doc['shape']})")
        yield field("runId", doc["runId"])
        yield field("version", doc["version"])
        yield field("checkpointedAt", doc["checkpointedAt"])
        yield field("iterations", doc["lastCompletedIteration"])
        first_line = str(doc["originalInput"]).split("\n", 1)[0]
        yield field("original input", first_line)
        yield field("scheme", f"{doc['scheme']} ({doc['schemeNote']})")
    yield field(
        "live window",
        f"{_count(counts['liveMessages'], 'message')}, "
        f"{_count(counts['liveFrames'], 'summary frame')} "
        f"({counts['unresolvedLiveFrames']} unresolved)",
    )
    yield field(
        "folds",
        f"{_count(counts['spans'], 'span')}: {counts['retained']} retained, "
        f"{counts['discarded']} discarded; "
        f"{counts['foldedMessages']} folded messages kept; deepest nesting {counts['maxDepth']}",
    )
    if "session" in doc:
        yield from _session_tail(doc, field)
    else:
        if not doc["foldedPresent"]:
            yield field("", "no `folded` on this checkpoint: never folded, or stored before 8.2")
        runs = [truncate(visible(r), MAX_CELL) for r in doc["runs"]]
        yield field("runs", f"{len(runs)}: {brief(runs)}")
        models = [truncate(visible(m), MAX_CELL) for m in doc["models"]]
        yield field(
            "models", (f"{len(models)}: " if len(models) > 1 else "") + (brief(models) or "-")
        )
    yield []
    tree_head: Line = [("fold tree", "bold")]
    if doc.get("treeFilter"):
        tree_head.append(
            (
                f"  (the spans {doc['treeFilter']}: {len(doc['tree'])} of {counts['spans']})",
                "dim",
            )
        )
    yield tree_head
    if not doc["tree"]:
        yield [("  (no folds)" if not doc.get("treeFilter") else "  (none)", "dim")]
    yield from _tree_lines(doc["tree"], unicode)
    yield []
    yield from _findings_lines(doc)


#: Microcompactions ``show`` lists in text (JSON lists every one).
_MICRO_SHOWN = 5


def _session_head(doc: dict[str, Any], field: Callable[[str, Any], Line]) -> Iterator[Line]:
    """The head of ``show`` for a session file of another runtime (Claude Code, Codex)."""
    facts = doc["session"]
    title = formats.get(doc["format"]).title
    yield field("source", f"{doc['source']} ({title})")
    yield field("session", facts.get("sessionId", NOT_RECORDED))
    if "parentSession" in facts:
        agent = f" (agent {facts['agentId']})" if "agentId" in facts else ""
        yield field("subagent of", f"{facts['parentSession']}{agent}")
    yield field("project", facts.get("project", NOT_RECORDED))
    yield field("runtime", facts.get("runtimeVersion", NOT_RECORDED))
    yield field("time", f"{facts.get('firstAt', '?')} .. {facts.get('lastAt', '?')}")
    others = ", ".join(f"{n} {kind}" for kind, n in facts.get("otherLines", {}).items())
    yield field(
        "lines",
        f"{facts['lines']} ({facts['records']} records"
        + (f"; not messages: {others})" if others else ")"),
    )
    if doc.get("partial"):
        yield [
            (f"{'partial':<16}", "bold"),
            ("some lines are not JSON and were left out (foldctl verify lists them)", "red"),
        ]
    first_line = str(doc.get("originalInput", NOT_RECORDED)).split("\n", 1)[0]
    yield field("first prompt", first_line)
    yield field("join", f"{doc['join']} ({doc['schemeNote']})")


def _session_tail(doc: dict[str, Any], field: Callable[[str, Any], Line]) -> Iterator[Line]:
    counts = doc["counts"]
    floating = [
        _count(counts[kind], f"{kind} container")
        for kind in ("abandoned", "sidechain")
        if counts.get(kind)
    ]
    if floating:
        yield field("not in folds", ", ".join(floating) + " (expand --include-detached)")
    micro = doc.get("microcompactions", ())
    for m in micro[:_MICRO_SHOWN]:
        cleared = brief([str(c) for c in m.get("cleared", [])]) or "none found"
        saved = f", {m['tokensSaved']} tokens saved" if "tokensSaved" in m else ""
        yield field(
            "microcompact",
            f"line {m['line']} ({m.get('trigger', 'trigger ' + NOT_RECORDED)}{saved}): "
            f"{len(m.get('toolUseIds', []))} tool result(s) cleared: {cleared}",
        )
    if len(micro) > _MICRO_SHOWN:
        more = len(micro) - _MICRO_SHOWN
        yield field("", f"... {more} more microcompactions (show --format json lists them)")
    if doc.get("notRecorded"):
        yield field(NOT_RECORDED, ", ".join(doc["notRecorded"]) + " (this runtime writes none)")
    models = [truncate(visible(m), MAX_CELL) for m in doc["models"]]
    if models:
        yield field("models", brief(models))


def _findings_lines(doc: dict[str, Any]) -> Iterator[Line]:
    """The count of ``verify`` findings and the command that lists them."""
    found = doc["findings"]
    words = {"error": "errors", "warning": "warnings", "info": "info"}
    listed = ", ".join(
        f"{found[s]} {s if found[s] == 1 else plural}" for s, plural in words.items() if found[s]
    )
    if listed:
        by_code = ", ".join(f"{code} {n}" for code, n in found["codes"].items())
        listed += f" ({by_code})"
    style = "red" if found["error"] else ("yellow" if found["warning"] else "green")
    yield [("findings        ", "bold"), (listed or "none", style)]
    command = f"foldctl verify {shlex.quote(str(doc['source']))}"
    scope = "in the fold record; " if found.get("scope") == "fold record" else ""
    if found.get("claims"):
        scope = "in the fold record and the summaries' claims; "
    elif not doc.get("messagesChecked", True):
        scope = "in the fold record; retained messages not decoded; "
    yield [("", None), (f"{scope}run `{visible(command)}` for the full check", "dim")]
    lines = found.get("claimLines") or []
    for line in lines[:CLAIM_LINES_SHOWN]:
        yield [("  claim  ", "yellow"), (truncate(visible(line), 200), None)]
    if len(lines) > CLAIM_LINES_SHOWN:
        more = len(lines) - CLAIM_LINES_SHOWN
        claims_command = f"foldctl claims {shlex.quote(str(doc['source']))}"
        yield [("", None), (f"... {more} more: `{visible(claims_command)}` lists them", "dim")]


#: Claim findings ``show`` lists one a line (JSON lists every one).
CLAIM_LINES_SHOWN: Final = 20


def _where(depth: int, outermost: int | None, sep: str) -> str:
    """The depth and the outermost span, for a fold deeper than one level."""
    if depth <= 1 or outermost is None:
        return ""
    return f"depth {depth}{sep}outermost span {outermost}{sep}"


def _fold_header(event: FoldStart, unicode: bool) -> Line:
    span, ctx = event.span, event.context
    sep = " · " if unicode else " | "
    bar = _indent(ctx.depth - 1, unicode)
    corner = "┌─ " if unicode else "+- "
    if span.kind != "fold":
        text = (
            f"{span.kind}: span {span.index}{sep}{span.message_count} msg{sep}from line {span.line}"
        )
    elif span.line is not None:  # a session file: no iteration, the fold's own line
        text = (
            f"fold: span {span.index}{sep}{_where(ctx.depth, ctx.outermost, sep)}"
            f"{_recorded(span.model, 'model')}{sep}{span.message_count} msg{sep}"
            f"{span.retained}{sep}"
            f"{_time(span.folded_at_ms)}"
            f"{sep}line {span.line}"
        )
    else:
        text = (
            f"fold: span {span.index}{sep}{_where(ctx.depth, ctx.outermost, sep)}"
            f"{truncate(visible(str(span.model)), MAX_CELL)}{sep}{span.message_count} msg{sep}"
            f"{span.retained}{sep}run {truncate(visible(str(span.run_id)), MAX_CELL)}{sep}"
            f"iter {span.iteration}{sep}{iso_utc(span.folded_at_ms or 0)}"
        )
    line: Line = [(bar + corner, "dim"), (text, "bold yellow")]
    if event.first_frame is not None or ctx.occurrence > 1:
        first = event.first_frame or "history"
        here = ctx.frame_locator or "?"
        shown = "; not repeated here" if event.reference else ""
        line.append(
            (
                f"  (replay {ctx.occurrence}: the same messages as span {span.index} at its "
                f"first placement, through the frame at {first}; this placement is through the "
                f"frame at {here}{shown})",
                "yellow",
            )
        )
    if event.reason:
        line.append((f"  ({ctx.placement}: {truncate(event.reason, 160)})", "yellow"))
    return line


def transcript(
    events: Iterable[Event], *, unicode: bool, result: Transcript | None = None
) -> Iterator[Line]:
    """The transcript as lines, each message as its format's view shows it; with the claims
    checked (``result.claims``), what the check found in each summary under its fold's
    header (or under the frame shown as a row)."""
    checked = result is not None and result.claims is not None
    view = identity if result is None else result.view
    for event in events:
        if isinstance(event, FoldStart):
            yield _fold_header(event, unicode)
            if checked and result is not None:
                body = _indent(event.context.depth, unicode) + "  "
                for f in result.span_claims(event.span.index):
                    yield from finding_lines(f, "claim ", unicode, body)
            continue
        if isinstance(event, FoldEnd):
            bar = _indent(event.context.depth - 1, unicode)
            corner = "└─ " if unicode else "`- "
            yield [(bar + corner, "dim"), (f"end of span {event.span.index}", "dim")]
            continue
        yield from _message(event, unicode, view)
        if checked and result is not None and event.frame is not None:
            body = _indent(event.depth, unicode) + "    "
            for f in result.frame_claims(event):
                yield from finding_lines(f, "claim ", unicode, body)


def _message(row: Row, unicode: bool, view: Callable[[Message], Message]) -> Iterator[Line]:
    bar = _indent(row.depth, unicode)
    body = bar + "    "
    message = view(row.message)
    role = message.get("role", "?")
    role_text = truncate(visible(role if isinstance(role, str) else as_text(role)), MAX_CELL)
    head: Line = [
        (bar, "dim"),
        (f"{row.locator} ", "dim"),
    ]
    if row.line is not None:
        head.append((f"line {row.line} ", "dim"))
    head.append((role_text, _ROLE_STYLE.get(role_text, "bold")))
    tool = message.get("toolName")
    if isinstance(tool, str):
        head.append((f" ({truncate(visible(tool), MAX_CELL)})", "magenta"))
    if row.occurrence > 1:
        head.append((f"  (replay {row.occurrence})", "yellow"))
    if row.frame is not None:
        note = _RESOLUTION_NOTE[row.frame.resolution]
        joined = "" if row.frame.span is None else f" span {row.frame.span},"
        how = (
            f"fingerprint {row.frame.fingerprint}"
            if row.frame.fingerprint is not None
            else "joined by its record's link"
        )
        head.append(
            (
                f"  [{row.frame.resolution}:{joined} {how}] {note}",
                "yellow" if row.frame.resolution != "expanded" else "dim",
            )
        )
    yield head
    content = content_text(message)
    if content:
        yield [(body, "dim"), (visible(content), BLOCK)]
    arrow = "→ " if unicode else "-> "
    for call in tool_calls(message) or ():
        name = call.get("name")
        line: Line = [(body, "dim"), (arrow + visible(as_text(name)), "magenta")]
        if "id" in call:
            line.append((f" [{visible(as_text(call['id']))}]", "dim"))
        if "args" in call:
            line.append((f" {visible(as_text(call['args']))}", None))
        rest = call_rest(call)
        if rest:
            line.append((f" {visible(as_text(rest))}", "dim"))
        yield line
    for key, value in other_fields(message):
        lines = as_text(value).split("\n")
        yield [(body, "dim"), (f"{visible(key)}: ", "dim"), (visible(lines[0]), None)]
        for more in lines[1:]:
            yield [(body + "  ", "dim"), (visible(more), None)]


# --------------------------------------------------------------------------- renderers


def table(result: Table, output: Output) -> None:
    rows, columns = result.table(text=True)
    lines = table_lines(rows, columns)
    if result.note:
        lines = itertools.chain(lines, [[(result.note, "dim")]])
    text_lines(lines, output)


def show(result: Overview, output: Output) -> None:
    text_lines(overview(result.doc, unicode=output.color), output)


def expand(result: Transcript, output: Output) -> None:
    text_lines(transcript(result.events, unicode=output.color, result=result), output)


def fingerprint(result: Fingerprints, output: Output) -> None:
    text_lines(fingerprint_lines(result), output)


def fingerprint_lines(result: Fingerprints) -> list[Line]:
    """The bare fingerprint (one scheme), or each scheme's, then which span joins."""
    doc = result.document()
    prints = doc["fingerprints"]
    if len(prints) == 1 and "join" not in doc:
        return [[(next(iter(prints.values())), None)]]
    lines: list[Line] = [[(f"{name:<10}", "bold"), (fp, None)] for name, fp in prints.items()]
    join = doc.get("join")
    if join is None:
        return lines
    source = visible(join["source"])
    for m in join["matches"]:
        where = f"frame at {m['frame']}" if m["frame"] else m["placement"]
        shared = (
            f"; spans {', '.join(map(str, m['spans']))} share it, the first wins"
            if len(m["spans"]) > 1
            else ""
        )
        lines.append(
            [(f"joins span {m['span']} of {source} under {m['scheme']} ({where}){shared}", "green")]
        )
    if not join["matches"]:
        lines.append([(f"joins no span of {source}", "yellow")])
        if not result.text.startswith(FRAME_PREFIX):
            lines.append(
                [
                    (
                        "a frame's fingerprint covers its whole content, label included: "
                        f"paste from '{FRAME_PREFIX}' to the end of the summary",
                        "dim",
                    )
                ]
            )
    return lines
