"""``grep``: a search over every message foldctl can see, answered as plain hits.

Every message is searched where :func:`foldctl.graph.walk.every_row` finds it:
the live window, the retained originals of every fold at any depth (summaries
too), then detached and orphan spans.  Match offsets are in Unicode code
points of the searched text (Python string indices; a lone surrogate counts as
one).  A field that is not a string is searched in its compact JSON encoding
(:func:`searched_texts`).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Final, Literal

import msgspec
import msgspec.structs

from foldctl import jsoncodec
from foldctl.digest import digest
from foldctl.errors import ExitStatus, FoldctlError, InputError, NotACheckpoint, UsageError
from foldctl.fingerprint import require_scheme
from foldctl.formats import registry as formats
from foldctl.formats.source import checkpoint_of, load_bytes
from foldctl.graph.filters import NO_FILTER, FoldFacts, FoldFilter, total
from foldctl.graph.open import join, open_graph
from foldctl.graph.resolve import FoldGraph
from foldctl.graph.walk import FrameInfo, Replays, Row, chain_field, every_row
from foldctl.model import Message, repr_without
from foldctl.parallel import batch_size, default_jobs, map_ordered
from foldctl.query.prefilter import Prefilter, enabled_by_environment, prefilter_for
from foldctl.sources.files import SQLITE_MAGIC, SourceSpec, read_bytes, source_name
from foldctl.sources.scan import Expansion, scan_sources
from foldctl.times import iso_recorded

if TYPE_CHECKING:
    # Loaded where they are used: a search that finds nothing, and the process that hands
    # sources to workers, never pay for the locator, record and redaction modules.
    from foldctl.query.locate import Where
    from foldctl.redact.redactor import Redactor

Scope = Literal["all", "folded", "live"]

#: ``fields`` value meaning "every stored field of the message".
ALL_FIELDS = "*"


#: Searched when no field is named: every text a reader sees in a message.
SHOWN_FIELDS: Final = ("content", "toolName", "toolCalls")
#: The most matches kept for one message (``matchCount`` still counts them all), so
#: memory does not grow with the number of matches.
MAX_MATCHES: Final = 1000


class Query(msgspec.Struct, frozen=True):
    """What ``grep`` looks for, and where."""

    pattern: re.Pattern[str]
    fields: tuple[str, ...] = SHOWN_FIELDS
    roles: frozenset[str] | None = None
    scope: Scope = "all"
    invert: bool = False
    max_count: int | None = None  # matching messages per source
    before: int = 0  # context messages
    after: int = 0
    folds: FoldFilter = NO_FILTER
    replays: Replays = "ref"
    #: what a person may have meant otherwise (GNU grep's ``\\|``), said once by the caller
    notes: tuple[str, ...] = ()


#: What GNU grep's basic syntax writes escaped (``\\|``, ``\\(``, ``\\)``, ``\\{``), and
#: what each is in a Python pattern.
_GNU_ESCAPES: Final = {
    "|": "alternation is |",
    "(": "a group is (...)",
    ")": "a group is (...)",
    "{": "a repeat is {m,n}",
}


def gnu_escapes(pattern: str) -> list[str]:
    """The GNU-style escapes in ``pattern`` (``\\|``, ``\\(``, ``\\)``, ``\\{``), in order,
    each once; an escaped backslash (``\\\\|``) is not one."""
    found: list[str] = []
    i = 0
    while i < len(pattern) - 1:
        if pattern[i] == "\\":
            escaped = pattern[i + 1]
            if escaped in _GNU_ESCAPES and "\\" + escaped not in found:
                found.append("\\" + escaped)
            i += 2
        else:
            i += 1
    return found


def _gnu_note(patterns: Sequence[str]) -> tuple[str, ...]:
    escapes = list(dict.fromkeys(e for p in patterns for e in gnu_escapes(p)))
    if not escapes:
        return ()
    meant = "; ".join(dict.fromkeys(_GNU_ESCAPES[e[1]] for e in escapes))
    return (
        f"the pattern has {', '.join(escapes)} as GNU grep writes them; patterns are Python "
        f"regular expressions, where {escapes[0]} matches a literal {escapes[0][1]} ({meant}; "
        "-F searches for a plain string)",
    )


def compile_query(
    pattern: str | Sequence[str],
    *,
    fixed: bool = False,
    ignore_case: bool = False,
    word: bool = False,
    fields: Sequence[str] = (),
    roles: Sequence[str] = (),
    scope: Scope = "all",
    invert: bool = False,
    max_count: int | None = None,
    before: int = 0,
    after: int = 0,
    folds: FoldFilter = NO_FILTER,
    replays: Replays = "ref",
) -> Query:
    """Build a :class:`Query` (several patterns match when any does), or raise
    :class:`UsageError` for a pattern that does not compile."""
    patterns = [pattern] if isinstance(pattern, str) else list(pattern)
    if not patterns:
        raise UsageError("no pattern to search for")
    parts = [re.escape(p) if fixed else p for p in patterns]
    if word:
        parts = [rf"(?<!\w)(?:{p})(?!\w)" for p in parts]
    text = parts[0] if len(parts) == 1 else "|".join(f"(?:{p})" for p in parts)
    flags = re.MULTILINE | (re.IGNORECASE if ignore_case else 0)
    try:
        compiled = re.compile(text, flags)
    except re.error as e:
        shown = patterns[0] if len(patterns) == 1 else patterns
        raise UsageError(f"invalid regular expression {shown!r}: {e}") from None
    if fields and ALL_FIELDS in fields and len(fields) > 1:
        raise UsageError(f"the field {ALL_FIELDS} already means every field; give it alone")
    if max_count is not None and max_count < 0:
        raise UsageError(f"a maximum count cannot be negative ({max_count})")
    if before < 0 or after < 0:
        raise UsageError("context cannot be a negative number of messages")
    return Query(
        pattern=compiled,
        fields=tuple(dict.fromkeys(fields)) or SHOWN_FIELDS,
        roles=frozenset(roles) or None,
        scope=scope,
        invert=invert,
        max_count=max_count,
        before=before,
        after=after,
        folds=folds,
        replays=replays,
        notes=() if fixed else _gnu_note(patterns),
    )


def _leaves(value: Any, path: str) -> Iterator[tuple[str, str]]:
    """Every string leaf of a JSON value with its path (``toolCalls[0].args.note``),
    without recursion."""
    stack: list[tuple[str, Any]] = [(path, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            yield where, item
        elif isinstance(item, dict):
            stack.extend((f"{where}.{k}", v) for k, v in reversed(list(item.items())))
        elif isinstance(item, list):
            stack.extend((f"{where}[{i}]", v) for i, v in reversed(list(enumerate(item))))


def searched_texts(message: Message, name: str) -> Iterator[tuple[str, str, bool]]:
    """The texts grep searches for one field: ``(path, text, fallback)``.

    A string field is itself.  Any other value is searched leaf by leaf (each
    string in it, at its path), and then as its compact JSON text — the
    ``fallback``, which counts only when no leaf of the field matched (so a
    pattern across keys and values, ``"status":"approved"``, still matches).
    """
    if name not in message:
        return
    value = message[name]
    if isinstance(value, str):
        yield name, value, False
        return
    yield from ((path, text, False) for path, text in _leaves(value, name))
    yield name, jsoncodec.dumps(value).decode("utf-8"), True


class Match(msgspec.Struct, frozen=True):
    field: str  # the field, or the path of the string in it (``toolCalls[0].args.note``)
    start: int  # code point offset in the searched text
    end: int
    text: str


class Hit(msgspec.Struct, frozen=True):
    """One message that matched (or, with context, a neighbour of one), in one place."""

    source: str
    graph: FoldGraph  # the source's, to look around the row
    row: Row
    matches: tuple[Match, ...]
    texts: dict[str, str]  # the searched text of each field that matched
    match_count: int = 0  # every match, when more than MAX_MATCHES were kept
    context: bool = False  # a neighbour shown for -A/-B/-C, not a match
    first_of_group: bool = False  # the first message after a gap in the shown messages

    __repr__ = repr_without("graph", "texts")


def _in_scope(row: Row, shown: Message, query: Query, folds_ok: bool) -> bool:
    if query.scope == "live" and row.span is not None:
        return False
    if query.scope == "folded" and row.span is None:
        return False
    if not folds_ok:
        return False
    return query.roles is None or shown.get("role") in query.roles


def _matches(shown: Message, query: Query) -> tuple[list[Match], dict[str, str], int]:
    """The matches in a message as its format's view shows it (its role, text, tool calls,
    then its other fields by name)."""
    names: Iterable[str] = shown if query.fields == (ALL_FIELDS,) else query.fields
    matches: list[Match] = []
    texts: dict[str, str] = {}
    total = 0
    for name in names:
        field_matched = False
        for path, text, fallback in searched_texts(shown, name):
            if fallback and field_matched:
                continue
            count = 0
            for m in query.pattern.finditer(text):
                if m.end() == m.start():
                    continue
                count += 1
                if len(matches) < MAX_MATCHES:
                    matches.append(Match(path, m.start(), m.end(), m.group()))
            if not count:
                # A pattern that matches only the empty string (``^``, ``x*``) still
                # selects the message, as in grep; the match is zero-width.
                empty = query.pattern.search(text)
                if empty is not None:
                    count = 1
                    if len(matches) < MAX_MATCHES:
                        matches.append(Match(path, empty.start(), empty.start(), ""))
            if count:
                total += count
                field_matched = True
                texts[path] = text
    return matches, texts, total


def _per_message(query: Query, prefilter: Prefilter | None) -> Prefilter | None:
    """The prefilter to apply to each message's stored JSON before decoding it: when every
    message that is not a match can be passed over unread (no context, not inverted) and
    no searched field is one a format's view makes up (``role``; ``*`` includes it)."""
    if prefilter is None or query.invert or query.before or query.after:
        return None
    if ALL_FIELDS in query.fields or "role" in query.fields:
        return None
    return prefilter


def search(graph: FoldGraph, query: Query, prefilter: Prefilter | None = None) -> Iterator[Hit]:
    """Every message of one checkpoint that matches (or, inverted, does not), in record
    order, with ``before``/``after`` neighbours in the expanded transcript as context.
    With ``prefilter``, a message whose stored JSON cannot hold a match is passed over
    without being decoded (the rule of :mod:`foldctl.query.prefilter`, per message)."""
    source = graph.checkpoint.source
    spans = graph.spans
    view = formats.view_of(graph.checkpoint)
    skip = _per_message(query, prefilter)
    before: deque[Row] = deque(maxlen=query.before or None) if query.before else deque()
    after_left = 0
    selected = 0
    last_shown = -2
    last_ctx: object = None
    folds_ok = True
    messages: Any = None
    for n, row in enumerate(every_row(graph, replays=query.replays, bodies=skip is None)):
        if row.context is not last_ctx:
            last_ctx = row.context
            folds_ok = query.folds.context_passes(row.context, spans)
            messages = graph.container_messages(row.span)
        if skip is not None and row.frame is None:
            raw_json = getattr(messages, "raw_json", None)
            if raw_json is not None and not skip.may_match(raw_json(row.index)):
                continue  # its stored JSON cannot hold a match: not decoded
            row = msgspec.structs.replace(row, message=messages[row.index])
        hit: Hit | None = None
        room = query.max_count is None or selected < query.max_count
        shown = view(row.message) if room else row.message
        if room and _in_scope(row, shown, query, folds_ok):
            matches, texts, total = _matches(shown, query)
            if bool(total) != query.invert:
                hit = Hit(source, graph, row, tuple(matches), texts, total)
        if hit is not None:
            selected += 1
            first = n - len(before)
            for k, previous in enumerate(before):
                gap = first + k != last_shown + 1
                yield Hit(source, graph, previous, (), {}, context=True, first_of_group=gap)
                last_shown = first + k
            before.clear()
            yield Hit(
                hit.source, graph, row, hit.matches, hit.texts, hit.match_count,
                first_of_group=n != last_shown + 1,
            )  # fmt: skip
            last_shown = n
            after_left = query.after
        elif after_left:
            after_left -= 1
            yield Hit(source, graph, row, (), {}, context=True)
            last_shown = n
        elif query.before:
            before.append(row)
        if query.max_count is not None and selected >= query.max_count and not after_left:
            break


class HitRecord(msgspec.Struct, frozen=True):
    """A hit made plain: everything its JSON object, CSV rows and text lines need, without
    the fold graph, so a worker process can hand it back (it pickles small)."""

    source: str
    locator: str
    span: int | None
    chain: tuple[int, ...]
    depth: int
    occurrence: int
    placement: str  # placed, detached or orphan (of the innermost span; placed when live)
    where: Where
    message: Message  # as stored
    #: the message as its format shows it (the same object for agentfootprint)
    shown: Message
    digest: str
    frame: FrameInfo | None  # a summary frame that is shown
    frame_model: str | None  # the model of the span the frame joins
    folded_by: dict[str, Any] | None  # the innermost span's facts (``foldedBy``)
    outermost: int | None  # the outermost span entered to reach it
    float_reason: str  # why the outermost span floats (detached, orphan), else ""
    matches: tuple[Match, ...]
    texts: dict[str, str]
    match_count: int = 0
    context: bool = False
    first_of_group: bool = False
    line: int | None = None  # the record's line in its file (formats of a record a line)


def record_of(hit: Hit) -> HitRecord:
    """The plain record of a hit."""
    row, graph = hit.row, hit.graph
    ctx = row.context
    frame = row.frame
    joined = frame.span if frame is not None else None
    from foldctl.query.locate import where

    place = where(row)
    outermost = ctx.outermost
    reason = ""
    if place != "folded" and outermost is not None:
        reason = graph.places[outermost].reason
    return HitRecord(
        source=hit.source,
        locator=row.locator,
        span=row.span,
        chain=row.chain,
        depth=row.depth,
        occurrence=row.occurrence,
        placement=ctx.placement,
        where=place,
        message=row.message,
        shown=formats.view_of(graph.checkpoint)(row.message),
        digest=digest(row.message),
        frame=frame,
        frame_model=None if joined is None else graph.spans[joined].model,
        folded_by=None if row.span is None else fold_facts(graph, row.span),
        outermost=outermost,
        float_reason=reason,
        matches=hit.matches,
        texts=hit.texts,
        match_count=hit.match_count,
        context=hit.context,
        first_of_group=hit.first_of_group,
        line=row.line,
    )


class SourceFailed(msgspec.Struct, frozen=True):
    """A source that could not be read; the others are still searched."""

    source: str
    error: FoldctlError


class SourceDone(msgspec.Struct, frozen=True):
    """The end of one source's hits, with how many messages matched; ``decoded`` is false
    when the prefilter showed from its bytes that it cannot match (it was not read)."""

    source: str
    count: int
    decoded: bool = True
    #: with a fold filter: what the source held, and how many spans passed
    facts: FoldFacts | None = None
    #: the lines of a session file that are not JSON (the rest was searched)
    unread: tuple[int, ...] = ()


GrepEvent = HitRecord | SourceFailed | SourceDone


def open_searched(
    spec: SourceSpec, scheme: str | None, prefilter: Prefilter | None
) -> FoldGraph | None:
    """Load and join one source, or None when ``prefilter`` shows from its bytes (after
    gzip; a store session's envelope) that it cannot match.  Reads as
    :func:`foldctl.formats.source.load_source` does, so errors are the same."""
    if prefilter is None:
        return open_graph(spec, scheme)[0]
    if isinstance(spec, str) and "#" in spec:
        from foldctl.sources.store import read_session, split_source

        target = split_source(spec)
        if target is not None:
            if target.session_id is None:
                return open_graph(spec, scheme)[0]  # says how to name a session
            info, envelope = read_session(target)
            if not prefilter.may_match(envelope):
                return None
            return join(checkpoint_of(info, envelope), scheme)[0]
    verdict = None
    if isinstance(spec, str) and spec != "-":
        verdict = prefilter.may_match_file(spec)
        if verdict is False:
            return None  # a plain file whose bytes cannot match: read in chunks, not held
    raw = read_bytes(spec)
    if raw.data[: len(SQLITE_MAGIC)] == SQLITE_MAGIC:
        return open_graph(spec, scheme)[0]  # a store where a checkpoint was expected: says so
    if verdict is None and not prefilter.may_match(raw.data):
        return None  # gzip, standard input: judged once read
    return join(load_bytes(raw.data, raw.name), scheme)[0]


def _source_events(
    spec: SourceSpec | FoldctlError,
    query: Query,
    scheme: str | None,
    lenient: bool,
    prefilter: Prefilter | None,
    count_only: bool = False,
    redactor: Redactor | None = None,
) -> Iterator[Hit | SourceFailed | SourceDone]:
    if isinstance(spec, FoldctlError):
        yield SourceFailed(spec.source if isinstance(spec, InputError) else "", spec)
        return
    name = source_name(spec)
    try:
        graph = open_searched(spec, scheme, prefilter)
        if graph is None:
            yield SourceDone(name, 0, decoded=False)
            return
        if redactor is not None:
            from foldctl.redact.apply import redact_graph

            graph = redact_graph(graph, redactor)
        count = 0
        for hit in search(graph, query, prefilter):
            count += not hit.context
            if not count_only:
                yield hit
        folds = query.folds
        facts = folds.facts(graph.spans) if folds.active else None
        checkpoint = graph.checkpoint
        yield SourceDone(checkpoint.source, count, facts=facts, unread=checkpoint.unread_lines)
    except NotACheckpoint as e:
        if not lenient:
            yield SourceFailed(name, e)
        # JSON found in a directory that is not a checkpoint: passed over
    except FoldctlError as e:
        yield SourceFailed(name, e)


#: What a worker is handed: a source, the query, the scheme, whether the source was found in
#: a directory, whether to prefilter, whether only the count is wanted, and the redactor.
GrepItem = tuple[SourceSpec | FoldctlError, Query, str | None, bool, bool, bool, "Redactor | None"]


def grep_one(item: GrepItem) -> list[GrepEvent]:
    """Search one source (in a worker process): its events, hits made plain."""
    spec, query, scheme, lenient, use_prefilter, count_only, redactor = item
    prefilter = prefilter_for(query.pattern, invert=query.invert) if use_prefilter else None
    return [
        record_of(e) if isinstance(e, Hit) else e
        for e in _source_events(spec, query, scheme, lenient, prefilter, count_only, redactor)
    ]


def _crashed(item: GrepItem) -> list[GrepEvent]:
    from foldctl.audit.batch import crashed

    name = source_name(item[0]) if not isinstance(item[0], FoldctlError) else "?"
    return [SourceFailed(name, crashed(name))]


def _is_local(item: GrepItem) -> bool:
    return not isinstance(item[0], str)


def resolve_prefilter(prefilter: bool | None) -> bool:
    """``None`` means: as the environment says (:data:`prefilter.ENVIRONMENT`, on by default)."""
    return enabled_by_environment() if prefilter is None else prefilter


def grep_sources(
    specs: Sequence[SourceSpec],
    query: Query,
    scheme: str | None = None,
    *,
    jobs: int | None = 1,
    prefilter: bool | None = None,
    count_only: bool = False,
    on_done: Callable[[int], None] | None = None,
    found: Expansion | None = None,
    redactor: Redactor | None = None,
) -> Iterator[GrepEvent]:
    """Search every source: its hits (plain records), then :class:`SourceDone`; or
    :class:`SourceFailed`.  In the order of the sources, whatever order workers finish in.

    SOURCE arguments expand as :func:`foldctl.sources.scan.scan_sources` expands them (the
    rules ``verify`` follows): a directory is searched recursively for ``*.json``,
    ``*.json.gz`` and session stores, skipping ``*.expected.json``; a store named
    without ``#SESSION_ID`` becomes each of its sessions; a quoted pattern is expanded.
    ``jobs`` worker processes search at once (``None``: one per CPU); with one, hits
    stream as they are found.  ``prefilter`` (default: on, unless the environment turns it
    off) skips, undecoded, a source whose bytes cannot hold a match
    (:mod:`foldctl.query.prefilter`).  ``on_done(i)`` is told of each source finished.
    With ``redactor``, what is searched and shown is the redacted text; the prefilter is
    then off (a match may be in what the redaction wrote, which the bytes do not hold).
    """
    if scheme is not None:
        require_scheme(scheme)
    found = found if found is not None else scan_sources(specs)
    use = resolve_prefilter(prefilter) and redactor is None
    entries = found.entries
    lenient = found.from_directories
    if (jobs or default_jobs()) <= 1 or len(entries) <= 1:
        filtered = prefilter_for(query.pattern, invert=query.invert) if use else None
        for i, spec in enumerate(entries):
            is_lenient = isinstance(spec, str) and spec in lenient
            events = _source_events(spec, query, scheme, is_lenient, filtered, count_only, redactor)
            for event in events:
                yield record_of(event) if isinstance(event, Hit) else event
            if on_done is not None:
                on_done(i)
        return
    items: list[GrepItem] = [
        (spec, query, scheme, isinstance(spec, str) and spec in lenient, use, count_only, redactor)
        for spec in entries
    ]
    done = None if on_done is None else (lambda i, _events: on_done(i))
    # A source the prefilter passes over costs one read and one find: batched, or the
    # pool's round trip per source would cost more than the search (2 workers slower than 1).
    batch = batch_size(len(items), jobs) if use else 1
    for events in map_ordered(
        grep_one, items, jobs=jobs, local=_is_local, on_done=done, on_crash=_crashed, batch=batch
    ):
        yield from events


def hits_in(
    specs: Sequence[SourceSpec],
    query: Query,
    scheme: str | None = None,
    *,
    prefilter: bool | None = None,
) -> Iterator[Hit | SourceFailed]:
    """The library's search, in this process: hits with their row and fold graph."""
    if scheme is not None:
        require_scheme(scheme)
    found = scan_sources(specs)
    filtered = prefilter_for(query.pattern, invert=query.invert)
    filtered = filtered if resolve_prefilter(prefilter) else None
    for spec in found.entries:
        is_lenient = isinstance(spec, str) and spec in found.from_directories
        for event in _source_events(spec, query, scheme, is_lenient, filtered):
            if not isinstance(event, SourceDone):
                yield event


def fold_facts(graph: FoldGraph, span_index: int) -> dict[str, Any]:
    from foldctl.query.records import recorded

    span = graph.spans[span_index]
    return recorded(
        {
            "span": span.index,
            "model": span.model,
            "runId": span.run_id,
            "iteration": span.iteration,
            "foldedAtMs": span.folded_at_ms,
            "foldedAt": iso_recorded(span.folded_at_ms),
            "retained": span.retained,
        }
    )


def message_fields(record: HitRecord) -> dict[str, Any]:
    """The message object of a hit (as ``message_object`` builds one from its row)."""
    obj = dict(record.message)
    obj["source"] = record.source
    obj["locator"] = record.locator
    if record.line is not None:
        obj["line"] = record.line
    obj["span"] = record.span
    obj["chain"] = chain_field(record.chain)
    obj["depth"] = record.depth
    obj["occurrence"] = record.occurrence
    obj["digest"] = record.digest
    if record.placement != "placed":
        obj["placement"] = record.placement
    if record.frame is not None:
        if record.frame.fingerprint is not None:
            obj["fingerprint"] = record.frame.fingerprint
        obj["resolution"] = record.frame.resolution
        obj["joinsSpan"] = record.frame.span
    return obj


def hit_object(hit: HitRecord) -> dict[str, Any]:
    """A ``grep`` JSON/JSONL object: the message object, ``where``, ``foldedBy``, ``matches``."""
    obj = message_fields(hit)
    obj["where"] = hit.where
    obj["foldedBy"] = hit.folded_by
    obj["matches"] = [
        {"field": m.field, "start": m.start, "end": m.end, "text": m.text} for m in hit.matches
    ]
    if hit.match_count > len(hit.matches):
        obj["matchCount"] = hit.match_count
    if hit.context:
        obj["context"] = True
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


#: A role longer than this is cut in grep's rows (the runtime writes four short ones).
ROLE_IN_ROWS: Final = 40


def _row_role(role: Any) -> Any:
    """The role as a hit row shows it: repeated on every match's row, so a forged role
    thousands of characters long is cut (the JSON message object keeps all of it)."""
    if isinstance(role, str) and len(role) > ROLE_IN_ROWS:
        return role[:ROLE_IN_ROWS] + "..."
    return role


def hit_rows(hit: HitRecord) -> Iterator[dict[str, Any]]:
    """CSV/TSV rows of a hit: one per match."""
    base = {
        "source": hit.source,
        "locator": hit.locator,
        "where": hit.where,
        "span": hit.span,
        "depth": hit.depth,
        "role": _row_role(hit.shown.get("role")),
        "digest": hit.digest,
    }
    for m in hit.matches:
        yield {**base, "field": m.field, "start": m.start, "end": m.end, "text": m.text}


#: What a search answers: every hit (``hits``), each hit's matches alone (``matches``, grep
#: ``-o``: the records are the hits all the same), a count per source (``count``), or
#: the sources that match (``files``).
Mode = Literal["hits", "matches", "count", "files"]


class GrepRun:
    """The result of ``grep``, consumed once as it streams: hits (or, with ``mode``, a
    count per source or the sources that match), failures handed to ``report`` as
    they come, per-source counts kept, and :meth:`exit_status` by grep's convention.
    ``partial(source, lines)`` hears of each session file searched without its ``lines``
    that are not JSON, as it is done."""

    def __init__(
        self,
        events: Iterable[GrepEvent],
        report: Callable[[FoldctlError], None],
        mode: Mode = "hits",
        query: Query | None = None,
        partial: Callable[[str, tuple[int, ...]], None] | None = None,
    ) -> None:
        self._events = events
        self._report = report
        self._partial = partial
        self.mode = mode
        self.query = query  # what was searched for (context settings, for the renderers)
        self.failed = 0
        self.undecoded = 0  # sources the prefilter passed over without decoding them
        self.counts: list[tuple[str, int]] = []
        self._facts: list[FoldFacts] = []

    def _sources(self) -> Iterator[HitRecord | SourceDone]:
        for event in self._events:
            if isinstance(event, SourceFailed):
                self.failed += 1
                self._report(event.error)
            else:
                if isinstance(event, SourceDone):
                    self.counts.append((event.source, event.count))
                    self.undecoded += not event.decoded
                    if event.unread and self._partial is not None:
                        self._partial(event.source, event.unread)
                    if event.facts is not None:
                        self._facts.append(event.facts)
                yield event

    def hits(self) -> Iterator[HitRecord]:
        """The hits (and context neighbours) as they stream."""
        for event in self._sources():
            if isinstance(event, HitRecord):
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

    @property
    def facts(self) -> FoldFacts | None:
        """With a fold filter, once consumed: what the sources searched held (those decoded),
        and how many spans passed."""
        return total(self._facts) if self._facts else None

    def found_any(self) -> bool:
        """Whether any source matches, the search stopped at the first that does (grep
        ``-q``); a source that could not be read before it goes to ``report``."""
        for _ in self.file_rows():
            return True  # the search is left there: the rest is never read
        return False

    def exit_status(self) -> ExitStatus:
        """2 when any source failed (even if another matched, as grep does), else 0 when
        something matched, else 1."""
        if self.failed:
            return ExitStatus.ERROR
        return ExitStatus.OK if any(n for _, n in self.counts) else ExitStatus.FOUND
