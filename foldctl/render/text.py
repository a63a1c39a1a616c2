"""Human text: the overview, the expanded transcript and tables, as styled lines.

Every string that comes from the checkpoint passes through
:func:`foldctl.safety.visible` here, whatever the destination.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from foldctl import jsoncodec
from foldctl.graph.walk import Event, FoldEnd, FoldStart, Row
from foldctl.model import FRAME_PREFIX
from foldctl.query.fingerprints import Fingerprints
from foldctl.query.records import Overview, Table
from foldctl.query.transcript import Transcript
from foldctl.render import Line, Output
from foldctl.render.sink import text_lines, write_chunks
from foldctl.termsafe import visible
from foldctl.times import iso_utc

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
        return ",".join(_fmt(v) for v in value) or "-"
    return visible(str(value))


def table_lines(rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> Iterator[Line]:
    """Aligned columns with a header; the last column is not padded."""
    cells = [[_fmt(row.get(c)) for c in columns] for row in rows]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
    last = len(columns) - 1

    def pad(i: int, text: str) -> str:
        return text if i == last else text.ljust(widths[i])

    yield [("  ".join(pad(i, c) for i, c in enumerate(columns)), "bold")]
    for r in cells:
        yield [("  ".join(pad(i, c) for i, c in enumerate(r)), None)]


#: Nesting drawn as bars up to this depth; deeper levels say their depth instead, so a
#: chain hundreds of folds deep does not push every line hundreds of columns right.
MAX_DRAWN_DEPTH = 8


def _indent(depth: int, unicode: bool) -> str:
    bar = "│ " if unicode else "| "
    if depth <= MAX_DRAWN_DEPTH:
        return bar * depth
    return bar * (MAX_DRAWN_DEPTH - 1) + f"{bar.strip()}{depth} "


def _span_line(node: dict[str, Any]) -> str:
    return (
        f"span {node['span']}  {visible(str(node['model']))}  {node['messageCount']} msg  "
        f"{node['retained']}  run {visible(str(node['runId']))}  iter {node['iteration']}  "
        f"{node['foldedAt']}"
    )


def overview(doc: dict[str, Any], *, unicode: bool) -> Iterator[Line]:
    counts = doc["counts"]

    def field(name: str, value: Any) -> Line:
        return [(f"{name:<16}", "bold"), (_fmt(value), None)]

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
    if not doc["foldedPresent"]:
        yield field("", "no `folded` on this checkpoint: never folded, or stored before 8.2")
    yield field("runs", f"{len(doc['runs'])}: " + ", ".join(visible(r) for r in doc["runs"]))
    yield field("models", ", ".join(visible(m) for m in doc["models"]) or "-")
    yield []
    yield [("fold tree", "bold")]
    if not doc["tree"]:
        yield [("  (no folds)", "dim")]
    branch = "└─ " if unicode else "`- "
    for node in doc["tree"]:
        depth = node["depth"]
        where = node["frame"] or node["placement"].upper()
        style = None if node["placement"] == "placed" else "yellow"
        prefix = "  " + ("   " * (depth - 1)) + branch
        line: Line = [(prefix, "dim"), (f"{where}  ", "cyan"), (_span_line(node), style)]
        if node["replays"]:
            line.append((f"  (frame also at {node['replays']} other place(s))", "yellow"))
        yield line
    yield []
    yield from _findings_lines(doc)


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
    yield [("", None), (f"{scope}run `{visible(command)}` for the full audit", "dim")]


def _fold_header(event: FoldStart, unicode: bool) -> Line:
    span = event.span
    bar = _indent(event.context.depth - 1, unicode)
    corner = "┌─ " if unicode else "+- "
    text = (
        f"fold: span {span.index} · {visible(span.model)} · {span.message_count} msg · "
        f"{span.retained} · run {visible(span.run_id)} · iter {span.iteration} · "
        f"{iso_utc(span.folded_at_ms)}"
    )
    if not unicode:
        text = text.replace(" · ", " | ")
    line: Line = [(bar + corner, "dim"), (text, "bold yellow")]
    if event.reason:
        line.append((f"  ({event.context.placement}: {event.reason})", "yellow"))
    return line


def transcript(events: Iterable[Event], *, unicode: bool) -> Iterator[Line]:
    for event in events:
        if isinstance(event, FoldStart):
            yield _fold_header(event, unicode)
            continue
        if isinstance(event, FoldEnd):
            bar = _indent(event.context.depth - 1, unicode)
            corner = "└─ " if unicode else "`- "
            yield [(bar + corner, "dim"), (f"end of span {event.span.index}", "dim")]
            continue
        yield from _message(event, unicode)


def _message(row: Row, unicode: bool) -> Iterator[Line]:
    bar = _indent(row.depth, unicode)
    message = row.message
    role = visible(str(message.get("role", "?")))
    head: Line = [
        (bar, "dim"),
        (f"{row.locator} ", "dim"),
        (role, _ROLE_STYLE.get(role, "bold")),
    ]
    if "toolName" in message:
        head.append((f" ({_fmt(message['toolName'])})", "magenta"))
    if row.frame is not None:
        note = _RESOLUTION_NOTE[row.frame.resolution]
        joined = "" if row.frame.span is None else f" span {row.frame.span},"
        head.append(
            (
                f"  [{row.frame.resolution}:{joined} fingerprint {row.frame.fingerprint}] {note}",
                "yellow" if row.frame.resolution != "expanded" else "dim",
            )
        )
    yield head
    content = message.get("content")
    if isinstance(content, str) and content:
        for text in content.split("\n"):
            yield [(bar + "    ", "dim"), (visible(text), None)]
    for call in message.get("toolCalls") or ():
        if isinstance(call, dict):
            args = jsoncodec.dumps(call.get("args")).decode("utf-8", "backslashreplace")
            name = _fmt(call.get("name"))
            yield [
                (bar + "    ", "dim"),
                (("→ " if unicode else "-> ") + name, "magenta"),
                (f" {visible(args)}", None),
            ]


# --------------------------------------------------------------------------- renderers


def table(result: Table, output: Output) -> None:
    rows, columns = result.table(text=True)
    text_lines(table_lines(list(rows), columns), output)


def show(result: Overview, output: Output) -> None:
    text_lines(overview(result.document(), unicode=output.color), output)


def expand(result: Transcript, output: Output) -> None:
    text_lines(transcript(result.events, unicode=output.color), output)


def locators(result: Table, output: Output) -> None:
    """``locate``: one locator per line, to feed back to ``expand --only``."""
    write_chunks((f"{row['locator']}\n".encode() for row in result.rows), output.out)


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
