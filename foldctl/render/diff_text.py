"""Human text and CSV/TSV rows for ``diff``: the two checkpoints, the evidence-lost
headline, then each kind of difference with a count."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Final

from foldctl import jsoncodec
from foldctl.formats import registry as formats
from foldctl.formats.base import identity
from foldctl.graph.locators import MessageName, parse
from foldctl.graph.resolve import FoldGraph
from foldctl.model import Message
from foldctl.query.diff import KINDS, DiffResult, aligned
from foldctl.render import Line, Output
from foldctl.render.delimited import csv_chunks, tsv_chunks
from foldctl.render.fields import pretty
from foldctl.render.sink import text_lines, write_chunks
from foldctl.termsafe import visible
from foldctl.times import iso_recorded

View = Callable[[Message], Message]

_TITLES: Final = {
    "span-removed": "spans that disappeared — evidence lost",
    "retention-changed": "spans whose retention changed",
    "span-messages-changed": "spans whose retained messages changed",
    "span-changed": "spans whose fields changed",
    "span-added": "spans added",
    "frame-unresolved": "frames that newly fail to resolve",
    "live-removed": "live messages removed",
    "live-changed": "live messages changed",
    "live-folded": "live messages folded away, retained in NEW",
    "live-added": "live messages added",
}


DIFF_COLUMNS: Final = (
    "kind",
    "oldSpan",
    "newSpan",
    "oldLocator",
    "newLocator",
    "digest",
    "oldDigest",
    "role",
    "fingerprint",
    "runId",
    "iteration",
    "foldedAt",
    "model",
    "retained",
    "messagesLost",
    "detail",
)


def _snippet(message: Any, view: View = identity, width: int = 72) -> str:
    """The first line of a message's content, or the tools it calls, made visible (as its
    format's ``view`` shows it)."""
    if not isinstance(message, dict):
        return ""
    message = view(message)
    content = message.get("content")
    first = content.split("\n", 1)[0] if isinstance(content, str) else ""
    if not first and isinstance(message.get("toolCalls"), list):
        names = [
            jsoncodec.as_text(c.get("name")) for c in message["toolCalls"] if isinstance(c, dict)
        ]
        first = "calls " + ", ".join(names)
    if len(first) > width:
        first = first[: width - 1] + "…"
    return visible(first)


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else jsoncodec.dumps(value).decode("utf-8")
    return visible(text if len(text) <= 60 else text[:59] + "…")


def _recorded(what: str, value: Any, label: str = "") -> str:
    """A span's string fact, or ``WHAT not recorded`` where its format does not record it
    (a Claude Code or Codex fold has no summarizing model, no iteration)."""
    if value is None:
        return f"{what} not recorded"
    return label + visible(value if isinstance(value, str) else str(value))


def detail(d: dict[str, Any], views: tuple[View, View] = (identity, identity)) -> str:
    """One line saying what a difference is (the ``detail`` column; wording may change),
    messages seen through the ``views`` of OLD's and NEW's formats."""
    kind = d["kind"]
    if kind in ("span-removed", "span-added"):
        kept = "discarded" if d["messagesKept"] is None else f"{d['messagesKept']} kept"
        facts = [
            _recorded("model", d["model"]),
            f"{d['messageCount']} msg",
            f"{d['retained']} ({kept})",
            _recorded("run", d["runId"], "run "),
            _recorded("iteration", d["iteration"], "iter "),
            _recorded("time", d["foldedAt"]),
            d["placement"],
        ]
        text = ", ".join(facts)
        if kind == "span-removed" and d["messagesLost"]:
            text += f"; {d['messagesLost']} retained message(s) now nowhere in NEW"
        return text
    if kind == "retention-changed":
        text = f"retained {d['oldRetained']} -> {d['newRetained']}"
        return text + (
            f"; {d['messagesLost']} message(s) now nowhere in NEW" if d["messagesLost"] else ""
        )
    if kind == "span-messages-changed":
        lost = sum(1 for r in d["removed"] if r["lost"])
        parts = [f"{len(d['changed'])} changed"] if d["changed"] else []
        if d["removed"] or not d["changed"]:
            parts.append(f"{len(d['removed'])} removed ({lost} now nowhere in NEW)")
        if d["added"] or not d["changed"]:
            parts.append(f"{len(d['added'])} added")
        return ", ".join(parts) + ("; same messages, new order" if d["reordered"] else "")
    if kind == "span-changed":
        return "; ".join(
            f"{visible(c['field'])}: {_short(c['old']) if 'old' in c else '(absent)'} -> "
            f"{_short(c['new']) if 'new' in c else '(absent)'}"
            for c in d["changes"]
        )
    if kind == "frame-unresolved":
        was = "new in NEW" if d["oldLocator"] is None else f"at {d['oldLocator']} in OLD"
        joined = "" if d["oldSpan"] is None else f", joined span {d['oldSpan']} in OLD"
        return f"fingerprint {d['fingerprint']}; {was}{joined}"
    if kind == "live-changed":
        return f"{', '.join(visible(f) for f in shown_edit(d, *views)[2])} changed"
    return _snippet(d.get("message"), views[1] if kind == "live-added" else views[0])


def csv_rows(result: DiffResult) -> Iterator[dict[str, Any]]:
    """CSV/TSV rows: the columns of :data:`DIFF_COLUMNS`."""
    for d in result.differences:
        row = dict(d)
        if d["kind"] == "live-changed":
            row["digest"] = d["newDigest"]
        row["detail"] = detail(d, _views(result))
        yield row


def _views(result: DiffResult) -> tuple[View, View]:
    """How OLD's and NEW's formats show a message."""
    return formats.view_of(result.old.checkpoint), formats.view_of(result.new.checkpoint)


def _describe(graph: FoldGraph) -> str:
    cp = graph.checkpoint
    return (
        f"{visible(cp.source)}  run {visible(str(cp.run_id))}  "
        f"checkpointed {iso_recorded(cp.checkpointed_at) or 'not recorded'}  "
        f"{len(cp.history)} live messages, {len(cp.spans)} spans"
    )


def _where(d: dict[str, Any], arrow: str) -> str:
    kind = d["kind"]
    if kind.startswith("span-") or kind == "retention-changed":
        old_span, new_span = d["oldSpan"], d["newSpan"]
        # a fold of a format that joins by its own links has no fingerprint to show
        fingerprint = "" if d["fingerprint"] is None else f"  {d['fingerprint']}"
        if old_span is not None and new_span is not None:
            return f"span {old_span}{arrow}span {new_span}{fingerprint}"
        frame = d["oldLocator"] if new_span is None else d["newLocator"]
        at = f"  frame {frame}" if frame is not None else ""
        return f"span {old_span if new_span is None else new_span}{fingerprint}{at}"
    old, new = d["oldLocator"], d["newLocator"]
    if kind in ("live-removed", "frame-unresolved"):
        here = old if kind == "live-removed" else new
        return f"{here}  {visible(str(d.get('role') or ''))}".rstrip()
    if kind == "live-added":
        return f"{new}  {visible(str(d['role']))}"
    return f"{old}{arrow}{new}  {visible(str(d['role']))}"


_MARK: Final = {
    "span-removed": ("-", "bold red"),
    "retention-changed": ("!", "red"),
    "span-messages-changed": ("~", "yellow"),
    "span-changed": ("~", "yellow"),
    "span-added": ("+", "green"),
    "frame-unresolved": ("!", "yellow"),
    "live-removed": ("-", "red"),
    "live-changed": ("~", "yellow"),
    "live-folded": (">", "cyan"),
    "live-added": ("+", "green"),
}


def diff_lines(result: DiffResult, *, unicode: bool = False) -> Iterator[Line]:
    """Human text: the two checkpoints, the evidence-lost headline, then each kind with a count."""
    arrow = " → " if unicode else " -> "
    yield [("--- OLD ", "bold red"), (_describe(result.old), None)]
    yield [("+++ NEW ", "bold green"), (_describe(result.new), None)]
    if result.identical:
        yield [("no differences: the same spans, live messages and frames", "green")]
        return
    removed = sum(1 for d in result.differences if d["kind"] == "span-removed")
    style = "bold red" if removed or result.lost_messages else "green"
    yield [
        ("evidence lost: ", "bold"),
        (
            f"{removed} span(s) disappeared; {result.lost_messages} message(s) present in OLD "
            "are nowhere in NEW",
            style,
        ),
    ]
    views = _views(result)
    for kind in KINDS:
        group = [d for d in result.differences if d["kind"] == kind]
        if not group:
            continue
        mark, colour = _MARK[kind]
        yield []
        yield [(f"{_TITLES[kind]} ({len(group)})", "bold")]
        for d in group:
            shown = detail(d, views)
            yield [(f"  {mark} ", colour), (_where(d, arrow), colour), ("  " + shown, None)]
            yield from _changed_messages(result, d)


def _message_at(graph: FoldGraph, locator: str | None) -> Any:
    if locator is None:
        return None
    name = parse(locator)
    if not isinstance(name, MessageName):
        return None
    messages = graph.container_messages(name.container)
    return messages[name.index] if name.index < len(messages) else None


#: Beyond this many pairs of lines between the common head and tail, two texts are
#: shown as the old lines, then the new, not aligned: an alignment costs time quadratic
#: in the lines, and the output stays linear in the two texts either way.
_ALIGN_LINES: Final = 1_000_000
_DIFF_CONTEXT: Final = 1  # unchanged lines shown around each change


def _field_text(message: dict[str, Any], name: str) -> str | None:
    """A field as the lines a line diff compares: a string as it is, anything else as
    indented JSON (tool calls: one argument a line), None when absent."""
    if name not in message:
        return None
    value = message[name]
    return value if isinstance(value, str) else pretty(value)


def _hunks(a: list[str], b: list[str]) -> Iterator[list[tuple[str, int, str]]]:
    """The changed parts of two lists of lines, each with a line of context: a hunk is a
    list of (``-``, ``+`` or `` ``, line number in OLD or NEW, text)."""
    hunk: list[tuple[str, int, str]] = []
    for tag, i1, i2, j1, j2 in aligned(a, b, _ALIGN_LINES):
        if tag == "equal":
            if hunk:  # the context after the change; a long run ends the hunk
                hunk += [(" ", n, a[n]) for n in range(i1, min(i2, i1 + _DIFF_CONTEXT))]
                if i2 - i1 > 2 * _DIFF_CONTEXT:
                    yield hunk
                    hunk = []
                else:
                    hunk += [(" ", n, a[n]) for n in range(i1 + _DIFF_CONTEXT, i2)]
            continue
        if not hunk:  # the context before it
            hunk = [(" ", n, a[n]) for n in range(max(0, i1 - _DIFF_CONTEXT), i1)]
        hunk += [("-", n, a[n]) for n in range(i1, i2)]
        hunk += [("+", n, b[n]) for n in range(j1, j2)]
    if hunk:
        yield hunk


#: A field a message does not have (None is a value a field can hold).
_ABSENT: Final = object()


def shown_edit(
    edit: dict[str, Any], old_view: View = identity, new_view: View = identity
) -> tuple[Message, Message, list[str]]:
    """A message edited in place as its format shows it: both sides through their views,
    and the fields of the views that differ (for agentfootprint, the view is the message,
    so these are the stored fields that differ; for a session record, its text and tool
    calls rather than the whole API message)."""
    old, new = old_view(edit["oldMessage"]), new_view(edit["newMessage"])
    fields = [k for k in dict.fromkeys([*old, *new]) if old.get(k, _ABSENT) != new.get(k, _ABSENT)]
    return old, new, fields


def edit_lines(
    edit: dict[str, Any],
    old_view: View = identity,
    new_view: View = identity,
    indent: str = "        ",
) -> Iterator[Line]:
    """What changed in a message edited in place, as its format shows it: for each field
    that differs, a line diff of its text (a field that is not a string, tool calls
    included, as indented JSON, so a changed argument is one line), with a line of context
    and where it is."""
    old, new, fields = shown_edit(edit, old_view, new_view)
    for name in fields:
        before, after = _field_text(old, name), _field_text(new, name)
        if before is None or after is None:
            shown = "absent in OLD" if before is None else "absent in NEW"
            yield [(f"{indent}{visible(name)}: {shown}", "dim")]
        a = [] if before is None else before.split("\n")
        b = [] if after is None else after.split("\n")
        for hunk in _hunks(a, b):
            first = next((n for sign, n, _ in hunk if sign != "+"), 0) + 1
            yield [(f"{indent}@@ {visible(name)}, line {first} @@", "cyan")]
            for sign, _, text in hunk:
                style = {"-": "red", "+": "green"}.get(sign)
                yield [(f"{indent}{sign} ", style), (visible(text), style)]


def _changed_messages(result: DiffResult, d: dict[str, Any]) -> Iterator[Line]:
    """Under a difference, each message it concerns, as its format shows it: an edited one
    as a line diff of what changed; a removed or added one, its locator and its first line."""
    old_view, new_view = _views(result)
    if d["kind"] == "span-messages-changed":
        for edit in d["changed"]:
            fields = shown_edit(edit, old_view, new_view)[2]
            yield [
                ("      ~ ", "yellow"),
                (f"{edit['oldLocator']} -> {edit['newLocator']} ", "yellow"),
                (visible(str(edit["role"])), "yellow"),
                (f": {', '.join(visible(f) for f in fields)} changed", None),
            ]
            yield from edit_lines(edit, old_view, new_view)
        for r in d["removed"]:
            message = _message_at(result.old, r["locator"])
            lost = "; now nowhere in NEW" if r["lost"] else ""
            yield [
                ("      - ", "red"),
                (f"OLD {r['locator']} {visible(str(r['role']))}{lost}: ", "red"),
                (_snippet(message, old_view), None),
            ]
        for r in d["added"]:
            message = _message_at(result.new, r["locator"])
            yield [
                ("      + ", "green"),
                (f"NEW {r['locator']} {visible(str(r['role']))}: ", "green"),
                (_snippet(message, new_view), None),
            ]
    elif d["kind"] == "live-changed":
        yield from edit_lines(d, old_view, new_view)


def diff(result: DiffResult, output: Output) -> None:
    text_lines(diff_lines(result, unicode=output.color), output)


def csv(result: DiffResult, output: Output) -> None:
    write_chunks(csv_chunks(csv_rows(result), DIFF_COLUMNS), output.out)


def tsv(result: DiffResult, output: Output) -> None:
    write_chunks(tsv_chunks(csv_rows(result), DIFF_COLUMNS), output.out)
