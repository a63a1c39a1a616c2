"""``grep``: a search over every message foldctl can see, answered as plain hits.

Every message is searched where :func:`foldctl.query.locate.every_row` finds it:
the live window, the retained originals of every fold at any depth (summaries
too), then detached and orphan spans.  Match offsets are in Unicode code
points of the searched text (Python string indices; a lone surrogate counts as
one).  A field that is not a string is searched in its compact JSON encoding
(:func:`field_text`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from foldctl import jsoncodec
from foldctl.digest import digest
from foldctl.errors import ExitStatus, FoldctlError, InputError, UsageError
from foldctl.fingerprint import require_scheme
from foldctl.graph.open import open_graph
from foldctl.graph.resolve import FoldGraph
from foldctl.graph.walk import Row
from foldctl.model import Message
from foldctl.query.locate import every_row, where
from foldctl.query.records import message_object
from foldctl.sources.files import SourceSpec, source_name
from foldctl.sources.scan import scan_sources
from foldctl.times import iso_utc

Scope = Literal["all", "folded", "live"]

#: ``fields`` value meaning "every stored field of the message".
ALL_FIELDS = "*"


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
    scope: Scope = "all",
) -> Query:
    """Build a :class:`Query`, or raise :class:`UsageError` for a pattern that does not compile."""
    flags = re.MULTILINE | (re.IGNORECASE if ignore_case else 0)
    try:
        compiled = re.compile(re.escape(pattern) if fixed else pattern, flags)
    except re.error as e:
        raise UsageError(f"invalid regular expression {pattern!r}: {e}") from None
    if fields and ALL_FIELDS in fields and len(fields) > 1:
        raise UsageError(f"the field {ALL_FIELDS} already means every field; give it alone")
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
    specs: Sequence[SourceSpec], query: Query, scheme: str | None = None
) -> Iterator[GrepEvent]:
    """Search every source in turn: its hits, then :class:`SourceDone`; or :class:`SourceFailed`.

    SOURCE arguments expand as :func:`foldctl.sources.scan.scan_sources` expands them (the
    rules ``verify`` follows): a directory is searched recursively for ``*.json``,
    ``*.json.gz`` and session stores, skipping ``*.expected.json``; a store named
    without ``#SESSION_ID`` becomes each of its sessions.
    """
    if scheme is not None:
        require_scheme(scheme)
    for spec in scan_sources(specs).entries:
        if isinstance(spec, FoldctlError):
            name = spec.source if isinstance(spec, InputError) else ""
            yield SourceFailed(name, spec)
            continue
        try:
            graph, _ = open_graph(spec, scheme)
        except FoldctlError as e:
            yield SourceFailed(source_name(spec), e)
            continue
        count = 0
        for hit in search(graph, query):
            count += 1
            yield hit
        yield SourceDone(graph.checkpoint.source, count)


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


GREP_COLUMNS: Final = (
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


Mode = Literal["hits", "count", "files"]


class GrepRun:
    """The result of ``grep``, consumed once as it streams: hits (or, with ``mode``, a
    count per source or the sources that match), failures handed to ``report`` as
    they come, per-source counts kept, and :meth:`exit_status` by grep's convention."""

    def __init__(
        self,
        events: Iterable[GrepEvent],
        report: Callable[[FoldctlError], None],
        mode: Mode = "hits",
    ) -> None:
        self._events = events
        self._report = report
        self.mode = mode
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

    def records(self) -> Iterator[dict[str, Any]]:
        """One JSON object per hit (or per source, counting or listing)."""
        if self.mode == "count":
            return self.count_rows()
        if self.mode == "files":
            return self.file_rows()
        return (hit_object(hit) for hit in self.hits())

    def document(self) -> list[dict[str, Any]]:
        return list(self.records())

    def table(self, text: bool = False) -> tuple[Iterator[dict[str, Any]], tuple[str, ...]]:
        """CSV/TSV rows: one per match (or per source, counting or listing)."""
        if self.mode == "count":
            return self.count_rows(), ("source", "count")
        if self.mode == "files":
            return self.file_rows(), ("source",)
        return (row for hit in self.hits() for row in hit_rows(hit)), GREP_COLUMNS

    def exit_status(self) -> ExitStatus:
        """2 when any source failed (even if another matched, as grep does), else 0 when
        something matched, else 1."""
        if self.failed:
            return ExitStatus.ERROR
        return ExitStatus.OK if any(n for _, n in self.counts) else ExitStatus.FOUND
