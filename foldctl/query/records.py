"""Plain rows and documents for each command, built from the fold graph.

These dicts are the machine output (JSON, JSONL, CSV/TSV) as they are, and
what the text and markdown renderers format.  Key names are documented in
docs/output.md and are stable.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Final

import msgspec
import orjson
import xxhash

from foldctl import jsoncodec
from foldctl.audit.checks import audit, summary
from foldctl.audit.codes import Finding
from foldctl.digest import PREFIX as DIGEST_PREFIX
from foldctl.digest import digest
from foldctl.formats import registry as formats
from foldctl.graph.filters import NO_FILTER, FoldFilter
from foldctl.graph.locators import Container, message_locator
from foldctl.graph.resolve import FoldGraph
from foldctl.graph.walk import Context, Event, FoldEnd, Row, chain_field
from foldctl.jsoncodec import BIG_STRING, Sliced, holds_big_string
from foldctl.model import Span
from foldctl.times import iso_recorded


def message_object(row: Row, *, source: str | None = None) -> dict[str, Any]:
    """A message as stored, plus foldctl's keys (which win over same-named stored fields);
    ``line`` for a record of a format of one record a line."""
    huge = holds_big_string(row.message)  # then written and hashed in slices
    obj: dict[str, Any] = Sliced(row.message) if huge else dict(row.message)
    if source is not None:
        obj["source"] = source
    obj["locator"] = row.locator
    if row.line is not None:
        obj["line"] = row.line
    obj["span"] = row.span
    obj["chain"] = chain_field(row.chain)
    obj["depth"] = row.depth
    obj["occurrence"] = row.occurrence
    obj["digest"] = digest(row.message, huge=huge)
    redactions = getattr(row.message, "redactions", None)
    if redactions is not None:
        obj["redactions"] = [r.as_dict() for r in redactions]
    if row.context.placement != "placed":
        obj["placement"] = row.context.placement
    if row.frame is not None:
        if row.frame.fingerprint is not None:
            obj["fingerprint"] = row.frame.fingerprint
        obj["resolution"] = row.frame.resolution
        obj["joinsSpan"] = row.frame.span
    return obj


#: Every key :func:`message_object` may add: a stored message holding one of them is
#: written by way of :func:`message_object` (its own value gives way).
ADDED_KEYS: Final = frozenset(
    {
        "source", "locator", "line", "span", "chain", "depth", "occurrence", "digest",
        "redactions", "placement", "fingerprint", "resolution", "joinsSpan",
    }
)  # fmt: skip


def message_lines(events: Iterable[Event]) -> Iterator[bytes]:
    """The JSONL line of each row of ``events`` (with its line break): byte for byte
    ``jsoncodec.dumps(message_object(row))``, made faster for a plain stored message
    (:func:`_plain_line`).  Any other row goes by way of :func:`message_object`; one
    holding a huge string is written in slices, as
    :func:`foldctl.render.sink.write_jsonl` writes it, never as a second copy."""
    shared: dict[Context, tuple[bytes, bytes, bytes]] = {}
    for event in events:
        if type(event) is not Row:
            if type(event) is FoldEnd:
                shared.pop(event.context, None)
            continue
        line = _plain_line(event, shared)
        if line is not None:
            yield line
            continue
        obj = message_object(event)
        if type(obj) is Sliced:
            yield from jsoncodec.dumps_chunks(obj)
            yield b"\n"
        else:
            yield jsoncodec.dumps(obj) + b"\n"


def _plain_line(row: Row, shared: dict[Context, tuple[bytes, bytes, bytes]]) -> bytes | None:
    """The JSONL line of a plain stored message: encoded once (and once more, keys sorted,
    for its digest), with foldctl's keys that every row of a container shares encoded once
    for the container (``shared``).  None for a frame, a redacted message, a message
    holding one of :data:`ADDED_KEYS`, one orjson cannot encode, and one whose JSON is as
    long as a huge string (it may hold one: what was encoded is let go here)."""
    message = row.message
    if row.frame is not None or type(message) is not dict or not message:
        return None
    if not message.keys().isdisjoint(ADDED_KEYS):
        return None
    try:
        body = orjson.dumps(message)
        if len(body) >= BIG_STRING:
            return None
        canonical = orjson.dumps(message, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError:
        return None
    ctx = row.context
    parts = shared.get(ctx)
    if parts is None:
        parts = shared[ctx] = _shared_parts(ctx)
    head, middle, end = parts
    line = b"" if row.line is None else b',"line":%d' % row.line
    return b"".join(
        (
            memoryview(body)[:-1],
            head,
            b'%d"' % row.index,
            line,
            middle,
            xxhash.xxh3_128_hexdigest(canonical).encode(),
            end,
        )
    )


def _shared_parts(ctx: Context) -> tuple[bytes, bytes, bytes]:
    """What :func:`message_object` writes the same for every row of ``ctx``: before the
    message's index, between its line and its digest, and after its digest."""
    span = ctx.span
    head = b',"locator":"' + (b"h" if span is None else b"f%d:" % span)
    middle = (
        b',"span":' + orjson.dumps(span)
        + b',"chain":' + orjson.dumps(chain_field(ctx.chain()))
        + b',"depth":%d,"occurrence":%d,"digest":"' % (ctx.depth, ctx.occurrence)
        + DIGEST_PREFIX.encode()
    )  # fmt: skip
    end = b'"'
    if ctx.placement != "placed":
        end += b',"placement":' + orjson.dumps(ctx.placement)
    return head, middle, end + b"}\n"


def recorded(facts: dict[str, Any]) -> dict[str, Any]:
    """``facts`` without the ones the input did not record (None): absent, never guessed."""
    return {key: value for key, value in facts.items() if value is not None}


def span_facts(span: Span) -> dict[str, Any]:
    """A span's facts; those its format does not record are absent."""
    return recorded(
        {
            "model": span.model,
            "messageCount": span.message_count,
            "retained": span.retained,
            "runId": span.run_id,
            "iteration": span.iteration,
            "foldedAtMs": span.folded_at_ms,
            "foldedAt": iso_recorded(span.folded_at_ms),
        }
    )


def span_rows(graph: FoldGraph) -> Iterator[dict[str, Any]]:
    """One row per span, in ``folded`` order, made as it is read.  A span of a format of one
    record a line has ``line`` (the record that made the fold); a container that is no
    fold (an abandoned branch, a sidechain) has ``kind``."""
    for span, place in zip(graph.spans, graph.places, strict=True):
        row: dict[str, Any] = {"span": span.index}
        if span.fingerprint is not None:
            row["fingerprint"] = span.fingerprint
        row.update(
            placement=place.placement,
            frame=graph.frame_locator(span.index),
            depth=place.depth,
            **span_facts(span),
        )
        if span.removed_stage_ids is not None:
            row["removedStageIds"] = list(span.removed_stage_ids)
        row["messagesKept"] = None if span.messages is None else len(span.messages)
        row["reason"] = place.reason or None
        if span.line is not None:
            row["line"] = span.line
        if span.kind != "fold":
            row["kind"] = span.kind
        yield row


def stage_rows(graph: FoldGraph) -> Iterator[dict[str, Any]]:
    """One row per removed stage id, made as it is read."""
    return (
        recorded(
            {
                "stageId": stage,
                "span": span.index,
                "runId": span.run_id,
                "iteration": span.iteration,
                "model": span.model,
                "foldedAt": iso_recorded(span.folded_at_ms),
                "retained": span.retained,
            }
        )
        for span in graph.spans
        for stage in span.removed_stage_ids or ()
    )


class Rows(msgspec.Struct, frozen=True):
    """Rows made afresh each time they are read, so a table of 10,000 spans is written
    row by row and never held (a text table reads them twice: widths, then lines)."""

    make: Callable[[], Iterator[dict[str, Any]]]

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return self.make()


def _children(graph: FoldGraph) -> dict[Container, list[int]]:
    children: dict[Container, list[int]] = {}
    for span, place in zip(graph.spans, graph.places, strict=True):
        if place.frame_index is not None:
            children.setdefault(place.container, []).append(span.index)
    for kids in children.values():
        kids.sort(key=lambda i: graph.places[i].frame_index or 0)
    return children


def fold_tree(graph: FoldGraph) -> Iterator[dict[str, Any]]:
    """The fold tree, flattened in pre-order (history frames, then floating roots).

    Each node has ``depth`` (1 = frame in history) and ``parent`` (the span
    whose messages hold its frame, or null), so a deep chain needs no nesting.
    Nodes are made as they are read (see :class:`FoldTree`).
    """
    children = _children(graph)
    tops: list[tuple[int, int]] = [(i, 1) for i in children.get(None, [])]
    tops += [(i, 1) for i in graph.floating_roots]
    stack = list(reversed(tops))
    while stack:
        index, depth = stack.pop()
        span, place = graph.spans[index], graph.places[index]
        node = {
            "span": index,
            "parent": place.container,
            "depth": depth,
            "placement": place.placement,
            "frame": graph.frame_locator(index),
            **span_facts(span),
            "replays": len(graph.replays.get(index, ())),
        }
        if span.line is not None:
            node["line"] = span.line
        if span.kind != "fold":
            node["kind"] = span.kind
        yield node
        stack.extend((child, depth + 1) for child in reversed(children.get(index, [])))


class FoldTree(msgspec.Struct, frozen=True):
    """The fold tree of ``show``, one node per span, made each time it is read: text shows
    forty nodes of a chain ten thousand deep and never holds the other nodes; JSON
    writes every one (:meth:`Overview.document` lists them)."""

    graph: FoldGraph
    folds: FoldFilter = NO_FILTER  # only the spans that pass (each at its own depth)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        if not self.folds.active:
            return fold_tree(self.graph)
        spans = self.graph.spans
        return (node for node in fold_tree(self.graph) if self.folds.selects(spans[node["span"]]))

    def __len__(self) -> int:
        if self.folds.active:
            return sum(1 for span in self.graph.spans if self.folds.selects(span))
        return len(self.graph.spans)  # every span is a node: placed, or under a floating root

    def __bool__(self) -> bool:
        return len(self) > 0


def fold_counts(graph: FoldGraph) -> dict[str, int]:
    """How many folds, retained or discarded, placed, detached or orphan; for a format that
    keeps records in no fold, how many such containers (``abandoned``, ``sidechain``)."""
    folds = [s for s in graph.spans if s.kind == "fold"]
    placements = [p.placement for p in graph.places]
    counts = {
        "spans": len(folds),
        "retained": sum(1 for s in folds if s.retained == "conversation"),
        "discarded": sum(1 for s in folds if s.retained == "discard"),
        "placed": placements.count("placed"),
        "detached": placements.count("detached"),
        "orphan": placements.count("orphan"),
    }
    if graph.join != "fingerprint":
        counts["abandoned"] = placements.count("abandoned")
        counts["sidechain"] = placements.count("sidechain")
    return counts


def session_facts(graph: FoldGraph) -> dict[str, Any] | None:
    """What a session file says about itself (None for a checkpoint), recorded facts only."""
    facts = graph.checkpoint.session
    if facts is None:
        return None
    return recorded(
        {
            "sessionId": facts.session_id,
            "project": facts.project,
            "firstAt": iso_recorded(facts.first_ms),
            "lastAt": iso_recorded(facts.last_ms),
            "records": facts.records,
            "lines": facts.lines,
            "parentSession": facts.parent_session,
            "agentId": facts.agent_id,
            "runtimeVersion": facts.runtime_version,
            "otherLines": dict(facts.other_lines),
        }
    )


def microcompactions(graph: FoldGraph) -> list[dict[str, Any]]:
    """Each Claude Code microcompaction: when, why, what it saved, and the messages whose
    tool results it cleared from the context (their locators; the records stay on disk)."""
    return [
        recorded(
            {
                "line": m.line,
                "timestamp": m.timestamp,
                "trigger": m.trigger,
                "preTokens": m.pre_tokens,
                "tokensSaved": m.tokens_saved,
                "toolUseIds": list(m.tool_use_ids),
                "cleared": [message_locator(c, i) for c, i in m.cleared],
                "missing": list(m.missing) or None,
            }
        )
        for m in graph.checkpoint.microcompactions
    ]


def overview(
    graph: FoldGraph,
    scheme_note: str = "",
    findings: Sequence[Finding] | None = None,
    *,
    claims: bool = False,
    folds: FoldFilter = NO_FILTER,
) -> dict[str, Any]:
    """The ``show`` document (with ``folds``: the tree and the findings of the spans that
    pass, ``treeFilter`` saying which; the counts stay the checkpoint's).

    ``findings`` is summarised under ``"findings"``: counts by severity and by
    code.  By default it is the audit of the fold record
    (``audit(graph, messages=False)``), so ``show`` never decodes every
    retained message; ``verify`` runs the message-level checks too.  With
    ``claims``, the summaries are checked against their originals as well
    (which reads every retained message) and the ``claim-*`` findings counted.
    """
    cp = graph.checkpoint
    spans = graph.spans
    compactions = [s for s in spans if s.kind == "fold"]  # not the floating containers
    frames = graph.frames
    live_frames = [ref for (container, _), ref in frames.items() if container is None]
    doc: dict[str, Any] = {
        "source": cp.source,
        "format": cp.format,
        "shape": cp.shape,
        "runId": cp.run_id,
        "version": cp.version,
        "checkpointedAtMs": cp.checkpointed_at,
        "checkpointedAt": iso_recorded(cp.checkpointed_at),
        "lastCompletedIteration": cp.last_completed_iteration,
        "originalInput": cp.original_input,
        "scheme": graph.scheme,
        "join": graph.join,
        "schemeNote": scheme_note,
        "foldedPresent": cp.has_folded,
        "messagesChecked": cp.messages_checked,
        "counts": {
            "liveMessages": len(cp.history),
            "liveFrames": len(live_frames),
            "unresolvedLiveFrames": sum(1 for ref in live_frames if ref.span is None),
            "frames": len(frames),
            "unresolvedFrames": sum(1 for ref in frames.values() if ref.span is None),
            **fold_counts(graph),
            "ambiguousFingerprints": len(graph.ambiguous()),
            "replayedFrames": sum(len(v) for v in graph.replays.values()),
            "cycles": len(graph.cycles),
            "foldedMessages": sum(len(s.messages or ()) for s in compactions),
            "maxDepth": max((p.depth for p in graph.places), default=0),
        },
        "runs": sorted({run for run in (cp.run_id, *(s.run_id for s in compactions)) if run}),
        "models": sorted({s.model for s in compactions if s.model is not None}),
        "tree": FoldTree(graph, folds),
        "findings": _findings(graph, findings, claims, folds),
        **({"treeFilter": folds.describe()} if folds.active else {}),
    }
    if cp.session is not None:
        doc["session"] = session_facts(graph)
        doc["partial"] = cp.partial
        doc["notRecorded"] = list(formats.of(cp).not_recorded)
    if cp.microcompactions:
        doc["microcompactions"] = microcompactions(graph)
    return recorded(doc)  # what the format does not record is absent, never a guess


def _findings(
    graph: FoldGraph, findings: Sequence[Finding] | None, claims: bool, folds: FoldFilter
) -> dict[str, Any]:
    if findings is not None:
        return summary(findings)
    plain = graph.plain  # a redacted view counts the findings of the record as stored
    found = audit(plain, messages=False)
    lines: list[str] = []
    if claims:  # the claim rules, only when asked
        from foldctl.claims.record import WRONG, audit_findings, check_graph

        checked = [
            f
            for f in check_graph(plain)
            if not folds.active or folds.place_passes(f.span, f.frame, graph.spans)
        ]
        found += audit_findings(plain, checked)
        lines = [f.one_line() for f in checked if f.kind in WRONG]  # redacted by the view
    if folds.active:
        found = [f for f in found if folds.place_passes(f.span, f.locator, graph.spans)]
    counted = summary(found, messages=False)
    counted["claims"] = claims
    if claims:
        counted["claimLines"] = lines
    return counted


class Table(msgspec.Struct, frozen=True):
    """Rows with named columns: what ``spans``, ``stages``, ``locate`` and ``sessions`` answer.

    ``columns`` are every column, in order (CSV, TSV); ``text_columns`` the ones a
    text table shows (default: all).  JSON carries every key of every row.
    """

    rows: Sequence[dict[str, Any]] | Rows
    columns: tuple[str, ...]
    text_columns: tuple[str, ...] | None = None
    #: a line under a text table: what the table does not say (machine formats omit it)
    note: str = ""

    def document(self) -> list[dict[str, Any]]:
        return list(self.rows)

    def records(self) -> Iterator[dict[str, Any]]:
        return iter(self.rows)

    def table(self, text: bool = False) -> tuple[Iterable[dict[str, Any]], tuple[str, ...]]:
        columns = self.text_columns if text and self.text_columns is not None else self.columns
        return self.rows, columns


class Overview(msgspec.Struct, frozen=True):
    """The ``show`` document (see :func:`overview`)."""

    doc: dict[str, Any]

    def document(self) -> dict[str, Any]:
        tree = self.doc.get("tree")
        if isinstance(tree, FoldTree):
            return {**self.doc, "tree": list(tree)}
        return self.doc


SPAN_COLUMNS: Final = (
    "span",
    "fingerprint",
    "placement",
    "frame",
    "model",
    "messageCount",
    "retained",
    "runId",
    "iteration",
    "foldedAt",
    "removedStageIds",
)
STAGE_COLUMNS: Final = ("stageId", "span", "runId", "iteration", "model", "foldedAt")


NOT_DECODED: Final = (
    "(retained messages not decoded; run `foldctl verify` on this source for the full check)"
)


def spans_table(graph: FoldGraph, folds: FoldFilter = NO_FILTER) -> Table:
    def rows() -> Iterator[dict[str, Any]]:
        for row, span in zip(span_rows(graph), graph.spans, strict=True):
            if not folds.active or folds.selects(span):
                yield row

    notes = [_not_recorded(graph)] + ([] if graph.checkpoint.messages_checked else [NOT_DECODED])
    return Table(Rows(rows), SPAN_COLUMNS, note=" ".join(n for n in notes if n))


def stages_table(graph: FoldGraph) -> Table:
    return Table(Rows(lambda: stage_rows(graph)), STAGE_COLUMNS, note=_not_recorded(graph))


def _not_recorded(graph: FoldGraph) -> str:
    """What a text table says of the facts its format does not record ("-" in the table)."""
    fmt = formats.of(graph.checkpoint)
    if not fmt.not_recorded:
        return ""
    return f"(not recorded by a {fmt.title}: {', '.join(fmt.not_recorded)})"
