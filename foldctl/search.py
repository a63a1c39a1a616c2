"""Finding messages wherever they are in the record: ``grep`` and ``locate``.

Every message foldctl can see is searched: the live window, the retained
originals of every fold at any depth (the expansion with frames kept, so the
summaries themselves are searched too), then the originals of detached and
orphan spans.  A message reached in more than one place (a replayed frame
expands its span twice) is reported at each place, with each locator.

Match offsets are in Unicode code points of the searched text (Python string
indices; a lone surrogate counts as one).  A field that is not a string is
searched in its compact JSON encoding (:func:`field_text`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from foldctl import jsoncodec
from foldctl.digest import PREFIX, digest, is_digest
from foldctl.errors import ExitStatus, FoldctlError, UsageError
from foldctl.expand import Row, walk, walk_floating
from foldctl.fingerprint import SCHEMES
from foldctl.model import Message
from foldctl.render import Line
from foldctl.resolve import FoldGraph
from foldctl.safety import visible
from foldctl.views import iso_utc, message_object

Scope = Literal["all", "folded", "live"]
Where = Literal["live", "folded", "detached", "orphan"]

#: ``--field`` value meaning "every stored field of the message".
ALL_FIELDS = "*"


# --------------------------------------------------------------------------- the record


def every_row(graph: FoldGraph) -> Iterator[Row]:
    """Every message foldctl can see, each place it occurs, with its locator.

    The expansion from history with frames kept (so summaries are rows too),
    then the floating (detached and orphan) spans with what nests in them.
    """
    events = itertools.chain(walk(graph, keep_frames=True), walk_floating(graph, keep_frames=True))
    for event in events:
        if isinstance(event, Row):
            yield event


def where(row: Row) -> Where:
    """Where a message lives: the live window, a placed fold, or a floating span."""
    if row.span is None:
        return "live"
    placement = row.context.placement
    return "folded" if placement == "placed" else placement


# --------------------------------------------------------------------------- locate


def normalise_digest(text: str) -> str:
    """A digest as typed (any case) in its canonical form, or :class:`UsageError`."""
    value = text.strip().lower()
    if not is_digest(value):
        raise UsageError(
            f"{text!r} is not a message digest; expected {PREFIX} followed by 32 hex digits "
            "(the `digest` key of foldctl's JSON output)"
        )
    return value


def locate(graph: FoldGraph, wanted: str) -> list[Row]:
    """Every place a message with this digest occurs, live or folded, at any depth."""
    wanted = normalise_digest(wanted)
    return [row for row in every_row(graph) if digest(row.message) == wanted]


def locator_for_digest(graph: FoldGraph, wanted: str) -> str:
    """The first locator (transcript order, placed before floating) of a digest."""
    rows = locate(graph, wanted)
    if not rows:
        raise UsageError(f"no message with digest {wanted} in {graph.checkpoint.source}")
    return rows[0].locator


def locate_object(row: Row, source: str) -> dict[str, Any]:
    """A ``locate`` row: the message object plus ``where``."""
    obj = message_object(row, source=source)
    obj["where"] = where(row)
    return obj


# --------------------------------------------------------------------------- grep


@dataclass(frozen=True, slots=True)
class Query:
    """What ``grep`` looks for, and where."""

    pattern: re.Pattern[str]
    fields: tuple[str, ...] = ("content",)
    roles: frozenset[str] | None = None
    scope: Scope = "all"


def compile_query(
    pattern: str,
    *,
    fixed: bool = False,
    ignore_case: bool = False,
    fields: Sequence[str] = (),
    roles: Sequence[str] = (),
    folded_only: bool = False,
    live_only: bool = False,
) -> Query:
    """Build a :class:`Query` from command-line options, or raise :class:`UsageError`."""
    if folded_only and live_only:
        raise UsageError("--folded-only and --live-only exclude each other; give at most one")
    flags = re.MULTILINE | (re.IGNORECASE if ignore_case else 0)
    try:
        compiled = re.compile(re.escape(pattern) if fixed else pattern, flags)
    except re.error as e:
        raise UsageError(f"invalid regular expression {pattern!r}: {e}") from None
    if fields and ALL_FIELDS in fields and len(fields) > 1:
        raise UsageError(f"--field {ALL_FIELDS} already means every field; give it alone")
    scope: Scope = "folded" if folded_only else "live" if live_only else "all"
    return Query(
        pattern=compiled,
        fields=tuple(dict.fromkeys(fields)) or ("content",),
        roles=frozenset(roles) or None,
        scope=scope,
    )


def field_text(message: Message, name: str) -> str | None:
    """The text ``grep`` searches for one field: a string as it is, anything else as
    compact JSON (stored key order, non-ASCII raw, a lone surrogate as ``\\udxxx``).
    ``None`` when the message has no such field."""
    if name not in message:
        return None
    value = message[name]
    if isinstance(value, str):
        return value
    return jsoncodec.dumps(value).decode("utf-8")


@dataclass(frozen=True, slots=True)
class Match:
    field: str
    start: int  # code point offset in the searched text
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class Hit:
    """One message that matched, in one place."""

    source: str
    graph: FoldGraph
    row: Row
    matches: tuple[Match, ...]
    texts: dict[str, str]  # the searched text of each field that matched


def _in_scope(row: Row, query: Query) -> bool:
    if query.scope == "live" and row.span is not None:
        return False
    if query.scope == "folded" and row.span is None:
        return False
    return query.roles is None or row.message.get("role") in query.roles


def search(graph: FoldGraph, query: Query) -> Iterator[Hit]:
    """Every message of one checkpoint that matches, in record order."""
    source = graph.checkpoint.source
    for row in every_row(graph):
        if not _in_scope(row, query):
            continue
        names: Iterable[str] = row.message if query.fields == (ALL_FIELDS,) else query.fields
        matches: list[Match] = []
        texts: dict[str, str] = {}
        for name in names:
            text = field_text(row.message, name)
            if text is None:
                continue
            found = [
                Match(name, m.start(), m.end(), m.group())
                for m in query.pattern.finditer(text)
                if m.end() > m.start()
            ]
            if not found:
                # A pattern that matches only the empty string (``^``, ``x*``) still
                # selects the message, as in grep; the match is zero-width.
                empty = query.pattern.search(text)
                if empty is not None:
                    found = [Match(name, empty.start(), empty.start(), "")]
            if found:
                matches += found
                texts[name] = text
        if matches:
            yield Hit(source, graph, row, tuple(matches), texts)


@dataclass(frozen=True, slots=True)
class SourceFailed:
    """A source that could not be read; the others are still searched."""

    source: str
    error: FoldctlError


@dataclass(frozen=True, slots=True)
class SourceDone:
    """The end of one source's hits, with how many messages matched."""

    source: str
    count: int


GrepEvent = Hit | SourceFailed | SourceDone


def grep_sources(
    specs: Sequence[str], query: Query, scheme: str | None = None
) -> Iterator[GrepEvent]:
    """Search every source in turn: its hits, then :class:`SourceDone`; or :class:`SourceFailed`.

    SOURCE arguments expand as :func:`foldctl.sources.scan_sources` expands them (the
    rules ``verify`` follows): a directory is searched recursively for ``*.json``,
    ``*.json.gz`` and session stores, skipping ``*.expected.json``; a store named
    without ``#SESSION_ID`` becomes each of its sessions.
    """
    from foldctl.api import open_graph
    from foldctl.sources import scan_sources

    if scheme is not None and scheme not in SCHEMES:
        raise UsageError(f"unknown scheme {scheme!r}; choose from {', '.join(SCHEMES)}")
    for spec in scan_sources(specs).entries:
        if isinstance(spec, FoldctlError):
            yield SourceFailed(getattr(spec, "source", ""), spec)
            continue
        try:
            graph, _ = open_graph(spec, scheme)
        except FoldctlError as e:
            yield SourceFailed(spec, e)
            continue
        count = 0
        for hit in search(graph, query):
            count += 1
            yield hit
        yield SourceDone(graph.checkpoint.source, count)


# --------------------------------------------------------------------------- grep output


def fold_facts(graph: FoldGraph, span_index: int) -> dict[str, Any]:
    span = graph.spans[span_index]
    return {
        "span": span.index,
        "model": span.model,
        "runId": span.run_id,
        "iteration": span.iteration,
        "foldedAtMs": span.folded_at_ms,
        "foldedAt": iso_utc(span.folded_at_ms),
        "retained": span.retained,
    }


def hit_object(hit: Hit) -> dict[str, Any]:
    """A ``grep`` JSON/JSONL object: the message object, ``where``, ``foldedBy``, ``matches``."""
    obj = message_object(hit.row, source=hit.source)
    obj["where"] = where(hit.row)
    span = hit.row.span
    obj["foldedBy"] = None if span is None else fold_facts(hit.graph, span)
    obj["matches"] = [
        {"field": m.field, "start": m.start, "end": m.end, "text": m.text} for m in hit.matches
    ]
    return obj


GREP_COLUMNS = (
    "source",
    "locator",
    "where",
    "span",
    "depth",
    "role",
    "field",
    "start",
    "end",
    "text",
    "digest",
)


def hit_rows(hit: Hit) -> Iterator[dict[str, Any]]:
    """CSV/TSV rows of a hit: one per match."""
    base = {
        "source": hit.source,
        "locator": hit.row.locator,
        "where": where(hit.row),
        "span": hit.row.span,
        "depth": hit.row.depth,
        "role": hit.row.message.get("role"),
        "digest": digest(hit.row.message),
    }
    for m in hit.matches:
        yield {**base, "field": m.field, "start": m.start, "end": m.end, "text": m.text}


def _context(hit: Hit, sep: str) -> str | None:
    """The line under a hit that says which fold hid the message (None for live messages)."""
    row, graph = hit.row, hit.graph
    parts: list[str] = []
    if row.frame is not None:
        joined = row.frame.span
        if joined is None:
            parts.append("a summary frame that joins no span (unresolved)")
        else:
            model = graph.spans[joined].model
            parts.append(
                f"the summary frame of span {joined}, written by {visible(model)}: "
                f"a claim, not the conversation ({row.frame.resolution})"
            )
    if row.span is not None:
        span = graph.spans[row.span]
        place = where(row)
        text = (
            f"folded away by span {span.index}{sep}{visible(span.model)}{sep}"
            f"{iso_utc(span.folded_at_ms)}{sep}{span.retained}"
        )
        chain = row.context.chain()
        if len(chain) > 1:
            text += f"{sep}{len(chain)} folds deep (spans {' > '.join(map(str, chain))})"
        if place != "folded":
            text += f"{sep}{place}: {graph.places[chain[0]].reason}"
        parts.append(text)
    return "; ".join(parts) if parts else None


def _highlight(line: str, ranges: list[tuple[int, int]]) -> Line:
    """A line of content with the matched ranges styled, every piece made visible."""
    segments: Line = []
    pos = 0
    for start, end in ranges:
        if start > pos:
            segments.append((visible(line[pos:start]), None))
        if end > start:
            segments.append((visible(line[start:end]), "bold red"))
        pos = max(pos, end)
    if pos < len(line) or not segments:
        segments.append((visible(line[pos:]), None))
    return segments


def _matched_lines(
    text: str, matches: Sequence[Match]
) -> Iterator[tuple[str, list[tuple[int, int]]]]:
    """Each line of ``text`` that a match touches, with the match ranges in that line."""
    starts = [0]
    for n, char in enumerate(text):
        if char == "\n":
            starts.append(n + 1)
    ends = [s - 1 for s in starts[1:]] + [len(text)]
    touched: dict[int, list[tuple[int, int]]] = {}
    line_no = 0
    for m in sorted(matches, key=lambda m: m.start):
        while line_no + 1 < len(starts) and starts[line_no + 1] <= m.start:
            line_no += 1
        n = line_no
        while True:
            lo, hi = max(m.start, starts[n]), min(m.end, ends[n])
            touched.setdefault(n, []).append((lo - starts[n], max(lo, hi) - starts[n]))
            if m.end <= ends[n] + 1 or n + 1 >= len(starts):
                break
            n += 1
    for n in sorted(touched):
        yield text[starts[n] : ends[n]], touched[n]


def hit_lines(hit: Hit, *, unicode: bool = False) -> Iterator[Line]:
    """``source:locator:role: line`` for each matching line, then the fold context.

    ``unicode`` picks the separators (a terminal gets ``·`` and ``↳``, a pipe ASCII)."""
    role = visible(str(hit.row.message.get("role", "?")))
    head = f"{visible(hit.source)}:{hit.row.locator}:"
    for name in hit.texts:
        matches = [m for m in hit.matches if m.field == name]
        label = role if name == "content" else f"{role}:{visible(name)}"
        for line, ranges in _matched_lines(hit.texts[name], matches):
            yield [(head, "magenta"), (f"{label}: ", "cyan"), *_highlight(line, ranges)]
    context = _context(hit, " · " if unicode else " | ")
    if context is not None:
        yield [("    ↳ " if unicode else "    -> ", "dim"), (context, "dim")]


# --------------------------------------------------------------------------- a grep run


class GrepRun:
    """Consumes :func:`grep_sources` events: hits pass through, failures go to ``report``,
    per-source counts are kept, and :meth:`exit_status` follows grep's convention."""

    def __init__(self, events: Iterable[GrepEvent], report: Callable[[FoldctlError], None]) -> None:
        self._events = events
        self._report = report
        self.failed = 0
        self.counts: list[tuple[str, int]] = []

    def _sources(self) -> Iterator[Hit | SourceDone]:
        for event in self._events:
            if isinstance(event, SourceFailed):
                self.failed += 1
                self._report(event.error)
            else:
                if isinstance(event, SourceDone):
                    self.counts.append((event.source, event.count))
                yield event

    def hits(self) -> Iterator[Hit]:
        for event in self._sources():
            if isinstance(event, Hit):
                yield event

    def count_rows(self) -> Iterator[dict[str, Any]]:
        """``-c``: one row per readable source, with how many messages matched."""
        for event in self._sources():
            if isinstance(event, SourceDone):
                yield {"source": event.source, "count": event.count}

    def file_rows(self) -> Iterator[dict[str, Any]]:
        """``-l``: one row per source with at least one matching message."""
        for row in self.count_rows():
            if row["count"]:
                yield {"source": row["source"]}

    def exit_status(self) -> ExitStatus:
        """2 when any source failed (even if another matched, as grep does), else 0 when
        something matched, else 1."""
        if self.failed:
            return ExitStatus.ERROR
        return ExitStatus.OK if any(n for _, n in self.counts) else ExitStatus.FOUND


def source_lines(rows: Iterable[dict[str, Any]]) -> Iterator[Line]:
    """``-c`` / ``-l`` as text: ``source:count`` or ``source`` per line, as grep prints them."""
    for row in rows:
        text = visible(row["source"])
        if "count" in row:
            text += f":{row['count']}"
        yield [(text, None)]
