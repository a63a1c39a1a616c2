"""The rows ``export`` writes for one source, as plain columns: no Arrow, no Parquet.

:func:`source_tables` is a pure function of one source: its stored bytes (hashed
with sha256), loaded and joined, become four tables of columns (lists of plain
values), named and typed as :mod:`foldctl.schemas.parquet` says.
:mod:`foldctl.arrow` turns them into Arrow tables; everything else (the export to
a folder, Dask, Spark) maps that over sources.

The ``messages`` rows are exactly the rows of ``expand --format jsonl
--include-detached``, in that order; ``findings`` holds every finding of every
check in :data:`FINDING_CHECKS`.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Final

import msgspec

from foldctl import jsoncodec
from foldctl.audit.checks import audit
from foldctl.audit.codes import Finding
from foldctl.claims.record import audit_findings
from foldctl.digest import digest
from foldctl.formats import registry as formats
from foldctl.formats.source import checkpoint_of, load_source
from foldctl.graph.filters import NO_FILTER, FoldFacts, FoldFilter, filter_events
from foldctl.graph.open import join
from foldctl.graph.resolve import FoldGraph
from foldctl.graph.walk import (
    CHAIN_FIELD_MAX,
    Context,
    Row,
    check_expansion,
    walk,
    walk_floating,
)
from foldctl.model import Checkpoint
from foldctl.query.records import fold_counts, span_rows
from foldctl.redact.apply import redact_graph
from foldctl.redact.redactor import Redactor
from foldctl.schemas.parquet import TABLES
from foldctl.sources.files import Buffer, RawSource, SourceSpec, read_bytes

Columns = dict[str, list[Any]]

#: The checks whose findings go in the ``findings`` table: (the ``check`` column, a
#: function from the fold graph to findings): the integrity audit and the check of every
#: summary against its originals (``verify --claims`` reports the same findings).
FINDING_CHECKS: list[tuple[str, Callable[[FoldGraph], Iterable[Finding]]]] = [
    ("verify", audit),
    ("claims", audit_findings),
]

#: Message fields that have a column of their own (when they are strings).
_OWN_COLUMNS: Final = ("role", "content", "toolName", "toolCallId")


class Stored(msgspec.Struct, frozen=True):
    """A source's stored bytes, before anything is decoded."""

    name: str
    data: Buffer  # as stored: a file's bytes (gzip or not), a session's envelope
    sha256: str
    store: str | None = None
    session: str | None = None
    info: Any = None  # the store row of a session (foldctl.sources.store.SessionInfo)


def read_stored(spec: SourceSpec) -> Stored:
    """Read a source's stored bytes and hash them; errors as loading would name them."""
    if isinstance(spec, RawSource):
        data: Buffer = spec.data
        return Stored(spec.name, data, hashlib.sha256(data).hexdigest())
    if "#" in spec:
        from foldctl.sources.store import read_session, split_source

        target = split_source(spec)
        if target is not None and target.session_id is not None:
            info, envelope = read_session(target)
            sha = hashlib.sha256(envelope).hexdigest()
            return Stored(spec, envelope, sha, target.path, target.session_id, info)
        if target is not None:
            load_source(spec)  # a store without a session id: says how to name one
    try:
        data = Path(spec).read_bytes()
    except OSError:
        read_bytes(spec)  # raises the error every command gives for this path
        raise
    return Stored(spec, data, hashlib.sha256(data).hexdigest())


def load_stored(stored: Stored) -> Checkpoint:
    """Load the checkpoint of bytes read by :func:`read_stored` (gzip, envelopes, stores)."""
    if stored.info is not None:
        return checkpoint_of(stored.info, bytes(stored.data))
    return load_source(RawSource(stored.name, stored.data))


class SourceTables(msgspec.Struct):
    """The four tables of one source, as columns of plain values."""

    source: str
    sha256: str
    tables: dict[str, Columns] = msgspec.field(default_factory=dict)
    #: with a fold filter: what the source held, and how many spans passed
    facts: FoldFacts | None = None

    def rows(self, table: str) -> int:
        return len(self.tables[table]["source"])


def empty_columns(table: str) -> Columns:
    return {c.name: [] for c in TABLES[table]}


def _float(value: float | None) -> float | None:
    return None if value is None else float(value)


def _ms(value: float | None) -> int | None:
    """Epoch milliseconds for a timestamp column (null when no time can hold it)."""
    if value is None or isinstance(value, bool) or not math.isfinite(value):
        return None
    ms = math.floor(value)
    return ms if -(2**62) < ms < 2**62 else None


def _chain(ctx: Context, known: dict[Context, list[int]]) -> list[int]:
    """``ctx.chain()`` as rows carry it (:func:`chain_field`), each container's computed
    once from its parent's."""
    found = known.get(ctx)
    if found is not None:
        return found
    pending: list[Context] = []
    current: Context | None = ctx
    while current is not None and current not in known:
        pending.append(current)
        current = current.parent
    base = [] if current is None else known[current]
    for item in reversed(pending):
        if item.span is not None:
            base = [*base[-(CHAIN_FIELD_MAX - 1) :], item.span]
        known[item] = base
    return known[ctx]


Key = tuple[str, str, str]  # (source, sha256, format): the columns every table starts with


def _key(out: Columns, key: Key) -> None:
    out["source"].append(key[0])
    out["sha256"].append(key[1])
    out["format"].append(key[2])


def message_rows(graph: FoldGraph, key: Key, out: Columns, folds: FoldFilter = NO_FILTER) -> int:
    """Append the ``messages`` rows of one checkpoint (expand --include-detached order;
    with ``folds``, the messages of the folds that pass)."""
    chains: dict[Context, list[int]] = {}
    seq = 0
    view = formats.view_of(graph.checkpoint)
    for stream in (walk(graph), walk_floating(graph)):
        if folds.active:
            stream = filter_events(stream, folds, graph.spans)
        for event in stream:
            if not isinstance(event, Row):
                continue
            message = view(event.message)  # the columns as its format shows it
            ctx = event.context
            own = {k: message[k] for k in _OWN_COLUMNS if isinstance(message.get(k), str)}
            rest = {k: v for k, v in message.items() if k not in own and k != "toolCalls"}
            _key(out, key)
            out["seq"].append(seq)
            out["locator"].append(event.locator)
            out["line"].append(event.line)
            out["span"].append(ctx.span)
            out["chain"].append(_chain(ctx, chains))
            out["depth"].append(ctx.depth)
            out["occurrence"].append(ctx.occurrence)
            span = ctx.span
            out["where"].append(
                "live" if span is None else "folded" if ctx.placement == "placed" else ctx.placement
            )
            out["role"].append(own.get("role", ""))
            out["content"].append(own.get("content"))
            out["toolName"].append(own.get("toolName"))
            out["toolCallId"].append(own.get("toolCallId"))
            calls = message.get("toolCalls", _ABSENT)
            out["toolCalls"].append(None if calls is _ABSENT else _json(calls))
            out["otherFields"].append(_json(rest) if rest else None)
            frame = event.frame
            out["fingerprint"].append(None if frame is None else frame.fingerprint)
            out["resolution"].append(None if frame is None else frame.resolution)
            out["joinsSpan"].append(None if frame is None else frame.span)
            out["digest"].append(digest(event.message))
            seq += 1
    return seq


_ABSENT: Final = object()


def _json(value: Any) -> str:
    return jsoncodec.dumps(value).decode("utf-8")


def span_table_rows(
    graph: FoldGraph, key: Key, out: Columns, folds: FoldFilter = NO_FILTER
) -> None:
    """Append the ``spans`` rows of one checkpoint, in ``folded`` order (with ``folds``,
    those that pass)."""
    view = formats.view_of(graph.checkpoint)
    for row in span_rows(graph):
        if folds.active and not folds.selects(graph.spans[row["span"]]):
            continue
        _key(out, key)
        out["kind"].append(row.get("kind", "fold"))
        for name in (
            "span", "fingerprint", "placement", "frame", "depth", "model", "runId",
            "iteration", "messageCount", "messagesKept", "retained", "reason", "line",
        ):  # fmt: skip
            out[name].append(row.get(name))
        out["foldedAt"].append(_ms(row.get("foldedAtMs")))
        out["foldedAtMs"].append(_float(row.get("foldedAtMs")))
        out["removedStageIds"].append(row.get("removedStageIds"))
        place = graph.places[row["span"]]
        summary = None
        if place.placement == "placed" and place.frame_index is not None:
            frame = graph.container_messages(place.container)[place.frame_index]
            content = view(frame).get("content")
            summary = content if isinstance(content, str) else None
        out["summary"].append(summary)


def finding_rows(graph: FoldGraph, folds: FoldFilter = NO_FILTER) -> Iterator[dict[str, Any]]:
    """Every finding of every check in :data:`FINDING_CHECKS`, as ``findings`` rows (without
    the key columns); with ``folds``, those about the spans that pass."""
    for check, run in FINDING_CHECKS:
        for f in run(graph):
            if folds.place_passes(f.span, f.locator, graph.spans):
                yield {"check": check, **f.as_dict()}


def checkpoint_row(
    graph: FoldGraph, stored: Stored, note: str, messages: int, findings: int, version: str
) -> dict[str, Any]:
    cp = graph.checkpoint
    spans = graph.spans
    return {
        "source": stored.name,
        "sha256": stored.sha256,
        "format": cp.format,
        "bytes": len(stored.data),
        "store": stored.store,
        "session": stored.session,
        "shape": cp.shape,
        "runId": cp.run_id,
        "version": cp.version if isinstance(cp.version, int) else None,  # a runtime's is text
        "checkpointedAt": _ms(cp.checkpointed_at),
        "checkpointedAtMs": _float(cp.checkpointed_at),
        "lastCompletedIteration": _float(cp.last_completed_iteration),
        "scheme": graph.scheme,
        "schemeNote": note,
        "foldedPresent": cp.has_folded,
        "liveMessages": len(cp.history),
        "abandoned": 0,
        "sidechain": 0,
        **fold_counts(graph),
        "foldedMessages": sum(len(s.messages or ()) for s in spans),
        "maxDepth": max((p.depth for p in graph.places), default=0),
        "messages": messages,
        "findings": findings,
        "foldctlVersion": version,
    }


def stored_tables(
    stored: Stored,
    scheme: str | None = None,
    *,
    version: str,
    folds: FoldFilter = NO_FILTER,
    redactor: Redactor | None = None,
) -> SourceTables:
    """The four tables of bytes read by :func:`read_stored` (``version``: the foldctl that
    writes them); raises :class:`~foldctl.errors.FoldctlError` when they are not a
    checkpoint, or when replayed summaries would make its messages table far larger than
    the record (:func:`~foldctl.graph.walk.check_expansion`).  With ``folds``, the spans,
    messages and findings of the folds that pass (the checkpoint's row is whole).  With
    ``redactor``, every string a table holds of the checkpoint is redacted (the keys,
    digests and fingerprints are the original's; findings are found in the original)."""
    graph, note = join(load_stored(stored), scheme)
    check_expansion(graph, floating=True)
    original = graph
    if redactor is not None:
        graph = redact_graph(graph, redactor)
    key = (stored.name, stored.sha256, graph.checkpoint.format)
    facts = folds.facts(graph.spans) if folds.active else None
    tables = {t: empty_columns(t) for t in TABLES}
    result = SourceTables(stored.name, stored.sha256, tables, facts)
    span_table_rows(graph, key, tables["spans"], folds)
    messages = message_rows(graph, key, tables["messages"], folds)
    found = tables["findings"]
    count = 0
    for row in finding_rows(original, folds):
        if redactor is not None:
            row = redactor.redact_value(row, f"finding {row.get('code')}")[0]
        _key(found, key)
        for name, value in row.items():
            found[name].append(value)
        count += 1
    for name, value in checkpoint_row(graph, stored, note, messages, count, version).items():
        tables["checkpoints"][name].append(value)
    return result


def source_tables(source: SourceSpec, scheme: str | None = None, *, version: str) -> SourceTables:
    """The four tables of one source (a path, ``STORE.db#SESSION_ID`` or bytes in hand)."""
    return stored_tables(read_stored(source), scheme, version=version)


def extend(into: dict[str, Columns], more: SourceTables) -> None:
    """Append one source's tables to columns gathered over many."""
    for table, cols in more.tables.items():
        target = into.setdefault(table, empty_columns(table))
        for name, values in cols.items():
            target[name].extend(values)
