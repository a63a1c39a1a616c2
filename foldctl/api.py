"""The library's face: everything the command line does, as functions and plain results.

Open a checkpoint (:func:`open`) and ask the :class:`Conversation` for its walk, audit,
claims, overview, transcript and tables, or a redacted view of it; search, locate,
verify, check the claims of and export many sources at once; compare two; list a
store's sessions; fingerprint a text; gather a report.  Every command of the command
line is a thin function over these names (``foldctl.__all__``).

Everything here returns plain, typed, immutable data (frozen msgspec Structs and dicts),
so it can be pickled and shipped to a worker (Dask, Spark); nothing prints, reads
standard input or exits.  The floors below are imported when a function needs them,
so ``import foldctl`` and a command's start stay cheap.  docs/library.md shows every
name at work.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import msgspec
import msgspec.structs

from foldctl.errors import FoldctlError, UsageError
from foldctl.sources.files import RawSource

if TYPE_CHECKING:
    from foldctl.audit.batch import VerifyReport
    from foldctl.audit.codes import Finding, Severity
    from foldctl.claims.record import ClaimsResult, SummaryFinding
    from foldctl.graph.filters import FoldFilter
    from foldctl.graph.resolve import FoldGraph, SpanPlace
    from foldctl.graph.walk import Replays, Row
    from foldctl.model import Checkpoint, Message, Span
    from foldctl.parquet import ExportReport
    from foldctl.query.diff import DiffResult
    from foldctl.query.fingerprints import Fingerprints
    from foldctl.query.grep import GrepRun, Hit, Mode, Query, Scope
    from foldctl.query.locate import LocateResult
    from foldctl.query.records import Table
    from foldctl.query.report import Report
    from foldctl.query.sessions import SessionFiles, SessionListing
    from foldctl.query.transcript import Transcript
    from foldctl.redact.redactor import Redactor
    from foldctl.sources.files import SourceSpec
    from foldctl.sources.scan import Expansion

#: What :func:`open` takes: a path (``str`` or :class:`os.PathLike`), ``STORE.db#SESSION_ID``,
#: the bytes of a checkpoint (or a :class:`RawSource`: bytes with the name errors give
#: them), or an already-decoded JSON document (a dict).
Openable = str | os.PathLike[str] | bytes | bytearray | memoryview | dict[str, Any] | RawSource
#: What a function of many sources takes: one source (never iterated: ``"x.json"`` is one
#: path) or any iterable of them.  Directories are searched for checkpoints and stores
#: (``*.expected.json`` skipped), a store becomes each of its sessions, and a quoted
#: pattern (``"fleet/**/*.json.gz"``) is expanded.
Sources = Openable | Iterable[Openable]

_ONE = (str, bytes, bytearray, memoryview, dict, os.PathLike, RawSource)


class Progress(Protocol):
    """What a function of many sources tells about its progress: how many sources and
    bytes there are, once, before the work; then each piece as it finishes."""

    def start(self, count: int, nbytes: int) -> None: ...

    def advance(self, nbytes: int, count: int = 1) -> None: ...


# --------------------------------------------------------------------------- one checkpoint


class Conversation(msgspec.Struct, frozen=True):
    """One checkpoint, loaded and joined: its record of folds and what they hid."""

    graph: FoldGraph
    scheme_note: str = ""
    #: the redactor of a redacted view (:meth:`redacted`): findings and claims are those of
    #: the stored record, their sentences redacted with it
    redactor: Redactor | None = None

    def __repr__(self) -> str:
        return (
            f"Conversation(source={self.source!r}, scheme={self.scheme!r}, "
            f"history={len(self.history)}, spans={len(self.spans)})"
        )

    @property
    def checkpoint(self) -> Checkpoint:
        return self.graph.checkpoint

    @property
    def source(self) -> str:
        return self.graph.checkpoint.source

    @property
    def unread_lines(self) -> tuple[int, ...]:
        """The lines of a session file that are not JSON, 1-based (the rest of the file was
        read, so the conversation is partial); empty when every line was read."""
        return self.graph.checkpoint.unread_lines

    @property
    def history(self) -> Sequence[Message]:
        """The live window, oldest first."""
        return self.graph.checkpoint.history

    @property
    def spans(self) -> tuple[Span, ...]:
        """``folded``, oldest fold first."""
        return self.graph.spans

    @property
    def places(self) -> tuple[SpanPlace, ...]:
        """Where each span stands: placed, detached or orphan."""
        return self.graph.places

    @property
    def scheme(self) -> str:
        """The fingerprint scheme that joined it (``fnv1a32``, ...), or the link of a format
        that joins by its own (``uuid-chain``, ``position``)."""
        return self.graph.scheme

    @property
    def format(self) -> str:
        """The input format it was read through (``agentfootprint``, ``claude-code``, ``codex``)."""
        return self.graph.checkpoint.format

    def walk(
        self,
        *,
        depth: int | None = None,
        keep_frames: bool = False,
        include_detached: bool = False,
    ) -> Iterator[Row]:
        """The expanded transcript: each message with its locator, depth, chain and span."""
        from foldctl.graph.walk import Row, walk, walk_floating

        events = [walk(self.graph, max_depth=depth, keep_frames=keep_frames)]
        if include_detached:
            events.append(walk_floating(self.graph, max_depth=depth, keep_frames=keep_frames))
        for stream in events:
            for event in stream:
                if isinstance(event, Row):
                    yield event

    def audit(self, *, messages: bool = True, claims: bool = False) -> list[Finding]:
        """Every integrity finding, most severe first: what ``foldctl verify`` reports.

        ``claims=True`` adds the ``claim-*`` findings of the summaries checked against
        their originals: what ``verify --claims``, the findings table of ``export``
        (:func:`foldctl.arrow.tables`) and ``report`` include.  ``messages=False``
        checks the fold record only, without decoding every retained message (what
        ``show`` counts)."""
        from foldctl.audit.checks import audit
        from foldctl.audit.codes import rank

        plain = self.graph.plain  # a redacted view is audited as stored
        found = audit(plain, messages=messages)
        if claims:
            from foldctl.claims.record import audit_findings

            found = sorted([*found, *audit_findings(plain)], key=lambda f: rank(f.severity))
        if self.redactor is not None:
            from foldctl.redact.apply import redact_findings

            found = list(redact_findings(self.redactor, found))
        return found

    def claims(self) -> list[SummaryFinding]:
        """Every summary checked against the originals it stands for, in transcript order:
        what ``foldctl claims`` prints for this checkpoint (docs/claims.md)."""
        from foldctl.claims.record import check_graph

        found = list(check_graph(self.graph.plain))  # a redacted view is checked as stored
        if self.redactor is not None:
            from foldctl.redact.apply import redact_summary_findings

            found = list(redact_summary_findings(self.redactor, found))
        return found

    def overview(self, *, claims: bool = False, folds: FoldFilter | None = None) -> dict[str, Any]:
        """What ``foldctl show --format json`` prints, as a document (``claims=True``:
        ``show --claims``, which counts the ``claim-*`` findings too; with ``folds``, the
        fold tree and the findings of the spans that pass)."""
        from foldctl.query.records import overview

        doc = overview(self.graph, self.scheme_note, claims=claims, folds=self._said(folds))
        lines = doc["findings"].get("claimLines")
        if lines and self.redactor is not None:  # checked on the record as stored
            redact = self.redactor.redact_text
            doc["findings"]["claimLines"] = [redact(line, field="claims")[0] for line in lines]
        return doc

    def _said(self, folds: FoldFilter | None) -> FoldFilter:
        """``folds`` as this view prints it (a redacted view: its words redacted)."""
        from foldctl.graph.filters import NO_FILTER

        if folds is None or self.redactor is None:
            return folds or NO_FILTER
        from foldctl.redact.apply import redact_filter

        return redact_filter(self.redactor, folds)

    def unmatched(self, folds: FoldFilter) -> str | None:
        """None when some span passes ``folds`` (or it filters nothing); else one line
        saying which filter no span passes and what this checkpoint holds (``no span with
        model "X"; models here: x``).  A span index it does not have is a
        :class:`~foldctl.errors.UsageError`."""
        spans = self.graph.plain.spans  # a redacted view: the stored facts, the note redacted
        folds.check_spans(spans)
        note = folds.unmatched(folds.facts(spans))
        if note is None or self.redactor is None:
            return note
        return self.redactor.redact_text(note, field="filter")[0]

    def transcript(
        self,
        *,
        depth: int | None = None,
        only: str | None = None,
        keep_frames: bool = False,
        include_detached: bool = False,
        folds: FoldFilter | None = None,
        replays: Replays = "ref",
        claims: bool = False,
    ) -> Transcript:
        """What ``foldctl expand`` prints: the transcript, or the part ``only`` names (a
        locator, a span ``fN`` or a digest), ``depth`` levels of folds at most, with the
        frames (``keep_frames``), then the detached and orphan spans
        (``include_detached``), only the folds that pass ``folds``; a replayed span as a
        reference to its first placement (the default, as every command's), or
        (``replays="full"``) its messages again, the expansion measured first.  ``claims``
        checks every summary against its originals first (:meth:`claims`), so the text
        and markdown formats show each summary's findings with it."""
        from foldctl.graph.filters import NO_FILTER
        from foldctl.query.transcript import transcript

        return transcript(
            self.graph, depth=depth, only=only, keep_frames=keep_frames,
            include_detached=include_detached, folds=folds or NO_FILTER, replays=replays,
            claims=self.claims() if claims else None,
        )  # fmt: skip

    def spans_table(self, folds: FoldFilter | None = None) -> Table:
        """What ``foldctl spans`` prints: one row per span (those that pass ``folds``)."""
        from foldctl.graph.filters import NO_FILTER
        from foldctl.query.records import spans_table

        return spans_table(self.graph, folds or NO_FILTER)

    def stages_table(self) -> Table:
        """What ``foldctl stages`` prints: one row per removed stage id."""
        from foldctl.query.records import stages_table

        return stages_table(self.graph)

    def summary(self, span: int) -> str | None:
        """What the summarizer wrote for ``span``: the text of its frame after the
        runtime's label (or the preamble a runtime writes before a summary); None when no
        frame in view joins it (a detached or orphan span, or a frame whose content is not
        text)."""
        from foldctl.formats import registry

        if not 0 <= span < len(self.graph.spans):
            raise UsageError(f"no span {span}: the checkpoint has {len(self.graph.spans)}")
        place = self.graph.places[span]
        if place.placement != "placed" or place.frame_index is None:
            return None
        message = self.graph.container_messages(place.container)[place.frame_index]
        fmt = registry.of(self.checkpoint)
        if not isinstance(fmt.view(message).get("content"), str):
            return None
        return fmt.summary_text(message)

    def shown(self, message: Message) -> Message:
        """A message of this conversation as every renderer shows it and grep searches it:
        its format's view (``role``, ``content``, ``toolCalls``, ... then the record's other
        fields); for an agentfootprint checkpoint, the message itself."""
        from foldctl.formats import registry

        return registry.view_of(self.checkpoint)(message)

    def locators(self) -> list[str]:
        """Every name ``expand --only`` takes here, without reading a message: each
        message's locator (``h0``..., ``f3:0``...) and each span (``f3``), in stored order
        (what completion offers)."""
        names = [f"h{i}" for i in range(len(self.history))]
        for span in self.spans:
            names.append(f"f{span.index}")
            names.extend(f"f{span.index}:{n}" for n in range(len(span.messages or ())))
        return names

    def locate(self, digest: str) -> list[Row]:
        """Every place a message with this digest occurs."""
        from foldctl.query.locate import locate

        return locate(self.graph, digest)

    def redacted(self, redactor: Redactor | None) -> Conversation:
        """The same conversation with every string a renderer can print redacted (the join,
        the locators and the digests are the original's); itself when ``redactor`` is None."""
        if redactor is None:
            return self
        from foldctl.redact.apply import redact_graph

        return Conversation(redact_graph(self.graph, redactor), self.scheme_note, redactor)

    def redactions(self, redactor: Redactor) -> Table:
        """What ``foldctl redactions`` prints: one row per placeholder ``redactor`` would
        write, with its kind, how often and the locators of the messages it stands in."""
        from foldctl.query.records import Table
        from foldctl.redact.apply import REVIEW_COLUMNS, review

        return Table(review(self.graph, redactor), REVIEW_COLUMNS)


def _spec(source: Openable) -> SourceSpec | dict[str, Any]:
    if isinstance(source, (str, RawSource, dict)):
        return source
    if isinstance(source, os.PathLike):
        return os.fspath(source)
    if isinstance(source, (bytes, bytearray, memoryview)):
        return RawSource("<bytes>", bytes(source))
    raise UsageError(f"cannot open a {type(source).__name__}; expected a path, bytes or a dict")


def _path_or_bytes(source: Openable, what: str) -> SourceSpec:
    spec = _spec(source)
    if isinstance(spec, dict):
        raise UsageError(f"{what} takes paths or bytes, not decoded documents")
    return spec


def open(source: Openable, *, scheme: str | None = None) -> Conversation:
    """Load and join one checkpoint.

    ``source`` is a path, ``"STORE.db#SESSION_ID"``, a :class:`~pathlib.Path`,
    the checkpoint's bytes (gzip or not), or a decoded JSON document.
    ``scheme=None`` detects the fingerprint scheme.  Raises
    :class:`~foldctl.errors.InputError` for input that is not a checkpoint.
    """
    from foldctl.graph.open import join, open_graph

    spec = _spec(source)
    if isinstance(spec, dict):
        from foldctl.formats.source import load_object

        graph, note = join(load_object(spec), scheme)
    else:
        graph, note = open_graph(spec, scheme)
    return Conversation(graph, note)


# --------------------------------------------------------------------------- many sources


def _items(sources: Sources, what: str) -> list[SourceSpec]:
    """One source or many, as the specs the floors below take."""
    if isinstance(sources, _ONE) or not isinstance(sources, Iterable):
        return [_path_or_bytes(sources, what)]  # not iterable: refused by name
    return [_path_or_bytes(s, what) for s in sources]


def _names(names: str | Sequence[str]) -> tuple[str, ...]:
    """One name or many (a ``str`` is one name, not its characters)."""
    return (names,) if isinstance(names, str) else tuple(names)


def _excludes(exclude: str | Sequence[str]) -> tuple[str, ...]:
    """What a directory scan skips: ``*.expected.json`` and ``exclude``."""
    from foldctl.sources.scan import DEFAULT_EXCLUDES

    return (*DEFAULT_EXCLUDES, *_names(exclude))


def _scan(specs: Sequence[SourceSpec], exclude: str | Sequence[str] = ()) -> Expansion:
    from foldctl.sources.scan import scan_sources

    return scan_sources(specs, _excludes(exclude))


def _told(found: Expansion, progress: Progress) -> list[int]:
    """Each source's size in bytes, once ``progress`` is told how many and how much."""
    from foldctl.sources.scan import source_sizes

    sizes = source_sizes(found.entries)
    progress.start(len(sizes), sum(sizes))
    return sizes


def _on_done(found: Expansion, progress: Progress | None) -> Callable[[int], None] | None:
    """``on_done(i)`` for a pool: each source's size told to ``progress`` as it finishes."""
    if progress is None:
        return None
    sizes = _told(found, progress)
    return lambda i: progress.advance(sizes[i])


def redactions(
    sources: Sources,
    redactor: Redactor,
    *,
    scheme: str | None = None,
    exclude: str | Sequence[str] = (),
) -> Table:
    """What ``--redactions FILE`` writes: the review list of ``sources`` (one or many,
    as ``verify`` takes them) by ``redactor``, so with the placeholders of the output it
    redacted.  One row per placeholder and source (a ``source`` column first when there
    are several); a source that cannot be read is left out (the command said so)."""
    from foldctl.query.records import Table
    from foldctl.redact.apply import REVIEW_COLUMNS, review
    from foldctl.sources.files import source_name

    found = _scan(_items(sources, "redactions"), exclude)
    several = len(found.sources) > 1
    rows: list[dict[str, Any]] = []
    for spec in found.sources:
        try:
            graph = open(spec, scheme=scheme).graph
        except FoldctlError:
            continue
        for row in review(graph, redactor.sibling()):
            rows.append({"source": source_name(spec), **row} if several else row)
    return Table(rows, ("source", *REVIEW_COLUMNS) if several else REVIEW_COLUMNS)


def verify(
    sources: Sources,
    *,
    fail_on: Severity = "warning",
    ignore: str | Sequence[str] = (),
    scheme: str | None = None,
    jobs: int | None = 1,
    claims: bool = False,
    exclude: str | Sequence[str] = (),
    progress: Progress | None = None,
    folds: FoldFilter | None = None,
    redactor: Redactor | None = None,
) -> VerifyReport:
    """The audit of many sources (files, directories, stores), with ``verify``'s verdict:
    each source's :meth:`Conversation.audit` (``claims=True``: with the ``claim-*``
    findings, as ``verify --claims``), the codes in ``ignore`` left out, exit status 1
    when a finding reaches ``fail_on``.  A source that cannot be read is in the report,
    not raised.  ``jobs`` worker processes (``None``: one per CPU).  With ``folds``, the
    findings about the spans that pass (``report.facts`` says what the sources held).
    With ``redactor``, the findings' sentences quote no secret."""
    from foldctl.audit.batch import Check, audit_sources, build_report
    from foldctl.audit.codes import CODES, SEVERITIES
    from foldctl.graph.filters import NO_FILTER

    if fail_on not in SEVERITIES:
        raise UsageError(f"fail_on takes error, warning or info, not {fail_on!r}")
    ignore = _names(ignore)
    unknown = [code for code in ignore if code not in CODES]
    if unknown:
        raise UsageError(f"unknown finding code {unknown[0]!r}; codes are {', '.join(CODES)}")
    checks: tuple[Check, ...] = ()
    if claims:  # the claim rules load only when asked for
        from foldctl.claims.record import audit_findings

        checks = (audit_findings,)
    found = _scan(_items(sources, "verify"), exclude)
    audits = audit_sources(
        found.entries, scheme, jobs=jobs, on_done=_on_done(found, progress),
        lenient=found.from_directories, checks=checks, folds=folds or NO_FILTER,
    )  # fmt: skip
    if redactor is not None:
        import msgspec.structs

        from foldctl.redact.apply import redact_findings

        audits = [
            msgspec.structs.replace(a, findings=redact_findings(redactor, a.findings))
            for a in audits
        ]
    return build_report(
        audits, fail_on, frozenset(ignore), skipped=found.skipped, excludes=_excludes(exclude)
    )


def grep(
    pattern: str,
    sources: Sources,
    *,
    fixed: bool = False,
    ignore_case: bool = False,
    fields: str | Sequence[str] = (),
    roles: str | Sequence[str] = (),
    scheme: str | None = None,
    on_error: Callable[[FoldctlError], None] | None = None,
    prefilter: bool | None = None,
) -> Iterator[Hit]:
    """Every message of every source that matches ``pattern`` (a regular expression, or a
    plain string with ``fixed``), live or folded at any depth, each with its row and
    the source's fold graph, in this process.  A source that cannot be read raises,
    unless ``on_error`` takes it (and the search goes on).  A source whose bytes cannot
    hold a match is not decoded (``prefilter=False`` decodes every one; ``None`` leaves
    it to ``FOLDCTL_GREP_PREFILTER``).  :func:`grep_records` is the search ``foldctl
    grep`` runs: every option, worker processes, plain records."""
    from foldctl.query.grep import Hit, compile_query, hits_in
    from foldctl.query.grep import SourceFailed as _SourceFailed

    specs = _items(sources, "grep")
    query = compile_query(
        pattern, fixed=fixed, ignore_case=ignore_case, fields=_names(fields), roles=_names(roles)
    )
    for event in hits_in(specs, query, scheme, prefilter=prefilter):
        if isinstance(event, Hit):
            yield event
        elif isinstance(event, _SourceFailed):
            if on_error is None:
                raise event.error
            on_error(event.error)


def grep_query(
    patterns: str | Sequence[str],
    *,
    fixed: bool = False,
    ignore_case: bool = False,
    word: bool = False,
    fields: str | Sequence[str] = (),
    roles: str | Sequence[str] = (),
    scope: Scope = "all",
    invert: bool = False,
    max_count: int | None = None,
    before: int = 0,
    after: int = 0,
    folds: FoldFilter | None = None,
    replays: Replays = "ref",
) -> Query:
    """What :func:`grep_records` looks for, checked once: the patterns (any may match;
    ``fixed``: plain strings; ``word``: whole words), the fields searched (default: what a
    reader sees; ``"*"``: every stored field), the roles, the ``scope`` (``all``,
    ``folded``, ``live``), ``invert``, at most ``max_count`` messages per source,
    ``before``/``after`` neighbours as context, the folds that pass ``folds``.  A
    pattern that does not compile is a :class:`~foldctl.errors.UsageError`."""
    from foldctl.graph.filters import NO_FILTER
    from foldctl.query.grep import compile_query

    return compile_query(
        patterns, fixed=fixed, ignore_case=ignore_case, word=word, fields=_names(fields),
        roles=_names(roles), scope=scope, invert=invert, max_count=max_count, before=before,
        after=after, folds=folds or NO_FILTER, replays=replays,
    )  # fmt: skip


def grep_records(
    query: Query,
    sources: Sources,
    *,
    scheme: str | None = None,
    jobs: int | None = 1,
    mode: Mode = "hits",
    redactor: Redactor | None = None,
    prefilter: bool | None = None,
    on_error: Callable[[FoldctlError], None] | None = None,
    exclude: str | Sequence[str] = (),
    progress: Progress | None = None,
    on_partial: Callable[[str, tuple[int, ...]], None] | None = None,
) -> GrepRun:
    """What ``foldctl grep`` prints: a :class:`GrepRun` that streams each source's hits as
    plain records (``mode="matches"``: the same records, text showing each match alone, as
    ``grep -o``; ``"count"``, a count per source; ``"files"``, the sources that match),
    searched by ``jobs`` worker processes and answered in order.  Consume it once (or ask
    ``found_any()``, which stops at the first source that matches, as ``grep -q``); a
    source that cannot be read goes to ``on_error`` as it comes; then ``exit_status()``
    is grep's.  With ``redactor``, what is searched and shown is the redacted text.
    ``on_partial(source, lines)`` hears of each session file searched without its ``lines``
    that are not JSON (a source the prefilter passes over is not read, so not told of: those
    lines cannot hold a match either)."""
    from foldctl.query.grep import GrepRun, grep_sources

    found = _scan(_items(sources, "grep"), exclude)
    events = grep_sources(
        [], query, scheme, jobs=jobs, prefilter=prefilter, count_only=mode in ("count", "files"),
        found=found, on_done=_on_done(found, progress), redactor=redactor,
    )  # fmt: skip
    return GrepRun(events, on_error or _raise, mode, query, on_partial)


def _raise(error: FoldctlError) -> None:
    raise error


def locate(
    sources: Sources,
    digest: str,
    *,
    scheme: str | None = None,
    jobs: int | None = 1,
    redactor: Redactor | None = None,
    on_error: Callable[[FoldctlError], None] | None = None,
    exclude: str | Sequence[str] = (),
    progress: Progress | None = None,
    on_partial: Callable[[str, tuple[int, ...]], None] | None = None,
) -> LocateResult:
    """What ``foldctl locate`` prints: every place a message with ``digest`` occurs in
    every source, live or folded at any depth, one row each, in the order of the
    sources.  A source that cannot be read goes to ``on_error`` (and counts in
    ``failed``); without ``on_error`` it raises.  ``on_partial(source, lines)`` hears of
    each session file searched without its ``lines`` that are not JSON."""
    from foldctl.query.locate import LocateResult, locate_sources, normalise_digest

    wanted = normalise_digest(digest)
    specs = _items(sources, "locate")
    found = _scan(specs, exclude)
    rows: list[dict[str, Any]] = []
    failed = 0
    for located in locate_sources(
        found.entries, wanted, scheme, jobs=jobs, lenient=found.from_directories,
        on_done=_on_done(found, progress), redactor=redactor,
    ):  # fmt: skip
        if located.error is not None:
            failed += 1
            (on_error or _raise)(located.error)
        if located.unread and on_partial is not None:
            on_partial(located.source, located.unread)
        rows.extend(located.rows)
    many = len(found.entries) > 1 or len(specs) > 1
    return LocateResult(rows, many, failed)


def check_claims(
    sources: Sources,
    *,
    scheme: str | None = None,
    redactor: Redactor | None = None,
    on_error: Callable[[FoldctlError], None] | None = None,
    exclude: str | Sequence[str] = (),
    jobs: int | None = 1,
    folds: FoldFilter | None = None,
    on_partial: Callable[[str, tuple[int, ...]], None] | None = None,
) -> ClaimsResult:
    """What ``foldctl claims`` prints: every summary of every source checked against the
    originals it stands for (docs/claims.md), by ``jobs`` worker processes (``None``:
    one per CPU), answered in the order of the sources; with ``folds``, the summaries of
    the spans that pass (``result.facts`` says what the sources held).  A source that
    cannot be read goes to ``on_error`` and into ``failures``; ``on_partial(source,
    lines)`` hears of each session file checked without its ``lines`` (not JSON); with
    ``redactor``, no atom, sentence or line quotes a secret."""
    from foldctl.claims.record import claims_of
    from foldctl.graph.filters import NO_FILTER

    specs = _items(sources, "check_claims")
    chosen = folds or NO_FILTER
    result = claims_of(
        specs, scheme, on_error, _excludes(exclude), jobs=jobs, folds=chosen, on_partial=on_partial
    )
    if redactor is not None:
        from foldctl.redact.apply import redact_claims

        result = redact_claims(redactor, result)
    return result


def export(
    sources: Sources,
    to: str | os.PathLike[str],
    *,
    jobs: int | None = None,
    scheme: str | None = None,
    exclude: str | Sequence[str] = (),
    progress: Progress | None = None,
    folds: FoldFilter | None = None,
    redactor: Redactor | None = None,
) -> ExportReport:
    """What ``foldctl export`` does: every source's tables written as Parquet under ``to``
    (a partition per run, only what its manifest does not hold yet), and the report of
    it; with ``folds``, the spans, messages and findings of the folds that pass
    (``report.facts`` says what the sources held); with ``redactor``, every string of
    the tables redacted (a folder holds redacted exports or plain ones, never both).
    Needs the ``fleet`` extra (docs/export.md)."""
    from foldctl.optional import ensure

    ensure("pyarrow", "export")  # said before foldctl.parquet names a module of its own
    from foldctl.graph.filters import NO_FILTER
    from foldctl.parquet import export as export_to

    found = _scan(_items(sources, "export"), exclude)
    chosen = folds or NO_FILTER
    if progress is None:
        return export_to(
            [], to, jobs=jobs, scheme=scheme, found=found, folds=chosen, redactor=redactor
        )
    _told(found, progress)
    return export_to(
        [], to, jobs=jobs, scheme=scheme, found=found, folds=chosen, redactor=redactor,
        on_done=lambda count, nbytes: progress.advance(nbytes, count),
    )  # fmt: skip


# --------------------------------------------------------------------------- two, a store, a text


def diff(
    old: Openable,
    new: Openable,
    *,
    scheme: str | None = None,
    force: bool = False,
    redactor: Redactor | None = None,
    on_partial: Callable[[str, tuple[int, ...]], None] | None = None,
) -> DiffResult:
    """What changed between two checkpoints of one conversation (spans lost first).  Two
    that share nothing of one conversation are refused unless ``force``; with
    ``redactor``, both sides are redacted with it (one placeholder per value).
    ``on_partial(source, lines)`` hears of a session file compared without its ``lines``
    that are not JSON, each side as it is read."""
    from foldctl.query.diff import compare

    sides = []
    for side in (old, new):
        opened = open(side, scheme=scheme)
        if opened.unread_lines and on_partial is not None:
            on_partial(opened.source, opened.unread_lines)
        sides.append(opened.redacted(redactor))
    before, after = sides
    return compare(before.graph, after.graph, force=force)


def sessions(
    source: str | os.PathLike[str] | Iterable[str | os.PathLike[str]] | None = None,
    *,
    scheme: str | None = None,
    jobs: int | None = 1,
    exclude: str | Sequence[str] = (),
) -> SessionListing | SessionFiles:
    """One row per session.

    A SQLite session store (``STORE.db#SESSION_ID``: that one) gives a
    :class:`SessionListing`, read in place and never changed: what ``foldctl sessions``
    prints.  A folder, or several (files among them), gives :class:`SessionFiles`: every
    Claude Code session and Codex rollout in them (project, session id, parent session,
    first and last time, records, folds, bytes), each file read once by ``jobs`` workers,
    ``exclude`` patterns skipped; with no ``source``, the runtimes' own folders that
    exist (:data:`SESSION_FOLDERS`), ``note`` saying where it looked.  A session that
    cannot be read keeps its row, with ``error``; ``listing.failure()`` is the error to
    raise for them."""
    from foldctl.query.sessions import session_files

    if source is None:
        return session_files(None, jobs=jobs, excludes=_excludes(exclude))
    if isinstance(source, (str, os.PathLike)) and not os.path.isdir(source):
        from foldctl.query.sessions import sessions as list_sessions
        from foldctl.sources.store import store_path

        target = store_path(os.fspath(source))
        return list_sessions(target.path, scheme, target.session_id)
    paths = [source] if isinstance(source, (str, os.PathLike)) else list(source)
    return session_files([os.fspath(p) for p in paths], jobs=jobs, excludes=_excludes(exclude))


def session_folders(home: str | None = None) -> list[str]:
    """The folders of :data:`SESSION_FOLDERS` (where Claude Code and Codex keep their
    sessions) that exist here, ``~`` expanded (to ``home`` when given): what
    :func:`sessions` lists and ``foldctl mcp`` serves when given none."""
    from foldctl.formats.registry import session_folders as existing

    return existing(home)


def sessions_in(
    root: str | os.PathLike[str],
    *,
    scheme: str | None = None,
    exclude: str | Sequence[str] = (),
) -> SessionListing:
    """The sessions under ``root``, one row each in the columns of :func:`sessions` for a
    store and ``runtime`` (the input format that read it: ``agentfootprint``,
    ``claude-code``, ``codex``): a folder is searched as :func:`verify` searches it
    (checkpoint files, Claude Code sessions and Codex rollouts, and each session of every
    store), a store lists its sessions, a file is one.  A session file's row has its
    session id as ``runId`` and its last record's time as ``savedAt``.

    Rows are made as they are read, each reading its session then and only then, so
    the first rows of a large folder cost the sessions they list.  A session that
    cannot be read keeps its row, with ``error`` (and no ``runtime``); a folder that
    cannot be read raises.
    """
    from foldctl.formats.registry import DEFAULT
    from foldctl.graph.open import open_graph
    from foldctl.query.records import Rows
    from foldctl.query.sessions import (
        ALL_COLUMNS,
        TEXT_COLUMNS,
        SessionListing,
        checkpoint_row,
        unreadable_row,
    )

    top = os.fspath(root)
    found = _scan([top], exclude)
    if found.errors and not found.sources:
        raise found.errors[0]
    folder = os.path.isdir(top)

    def session_of(source: str) -> str:
        return os.path.relpath(source, top) if folder else os.path.basename(source)

    def rows() -> Iterator[dict[str, Any]]:
        for entry in found.entries:
            if isinstance(entry, FoldctlError):
                yield {**unreadable_row(getattr(entry, "source", top), top, entry), "runtime": None}
            elif isinstance(entry, str) and "#" in entry and not os.path.isfile(entry):
                for row in sessions(entry, scheme=scheme).rows:  # one session of a store
                    yield {**row, "runtime": None if row["error"] else DEFAULT}
            else:
                name = entry if isinstance(entry, str) else entry.name
                try:
                    graph, _ = open_graph(entry, scheme)
                except FoldctlError as e:
                    yield {**unreadable_row(name, session_of(name), e), "runtime": None}
                    continue
                row = checkpoint_row(name, session_of(name), graph)
                yield {**row, "runtime": graph.checkpoint.format}

    return SessionListing(Rows(rows), ALL_COLUMNS, (*TEXT_COLUMNS, "error"), store=top)


def session_sources(store: str | os.PathLike[str]) -> list[str]:
    """``STORE.db#SESSION_ID`` for each session of a SQLite session store, newest first,
    without reading any session (what completion offers; :func:`sessions` reads them)."""
    from foldctl.sources.store import list_session_sources, store_path

    return list_session_sources(store_path(os.fspath(store)).path)


def fingerprints(
    text: str | bytes | RawSource,
    *,
    schemes: str | Sequence[str] = (),
    join: Openable | None = None,
    json: bool = False,
    strip_newline: bool = False,
) -> Fingerprints:
    """What ``foldctl fingerprint`` prints: the fingerprint of ``text`` under each scheme
    (default: all), and with ``join`` which span of that checkpoint each joins.  Bytes
    must be UTF-8; ``json`` reads a JSON string literal (the one way to give a lone
    surrogate as bytes); ``strip_newline`` drops one final newline."""
    from foldctl.query.fingerprints import drop_newline, fingerprints, read_text

    if isinstance(text, str) and not json:
        content = drop_newline(text) if strip_newline else text
    else:
        if isinstance(text, str):
            text = RawSource("TEXT", text.encode("utf-8", "surrogatepass"))
        elif not isinstance(text, RawSource):
            text = RawSource("<bytes>", bytes(text))
        content = read_text(text, json_string=json, strip_newline=strip_newline)
    target = None if join is None else _path_or_bytes(join, "join")
    return fingerprints(content, _names(schemes), target)


def report(
    source: Openable,
    *,
    scheme: str | None = None,
    replays: Replays = "ref",
    redactor: Redactor | None = None,
    generated_at_ms: float | None = None,
    folds: FoldFilter | None = None,
) -> Report:
    """What ``foldctl report`` renders as HTML: the joined checkpoint, every finding (the
    audit and the claims), and the provenance of the bytes it was read from (their size
    and xxh3-128, the time ``generated_at_ms``, default now).  A replayed span is a
    link to its first placement (``replays="ref"``, as everywhere); ``"full"`` repeats
    it, checking first that the expansion is not far larger than the record.  With ``folds``,
    the findings, the tree, the timeline and the transcript of the folds that pass."""
    from foldctl.audit.checks import audit
    from foldctl.claims.record import audit_findings
    from foldctl.graph.filters import NO_FILTER
    from foldctl.graph.open import open_evidence
    from foldctl.graph.walk import check_expansion
    from foldctl.query.report import Provenance, Report
    from foldctl.times import iso_utc
    from foldctl.version import __version__

    if generated_at_ms is None:
        import time

        generated_at_ms = time.time() * 1000
    graph, note, stored = open_evidence(_path_or_bytes(source, "report"), scheme)
    if replays == "full":
        check_expansion(graph, floating=True)
    findings = (*audit(graph), *audit_findings(graph))
    chosen = folds or NO_FILTER
    if chosen.active:
        findings = tuple(f for f in findings if chosen.place_passes(f.span, f.locator, graph.spans))
    if redactor is not None:
        from foldctl.redact.apply import redact_filter, redact_findings, redact_graph

        graph = redact_graph(graph, redactor)
        findings = redact_findings(redactor, findings)
        chosen = redact_filter(redactor, chosen)
    provenance = Provenance(
        __version__,
        graph.checkpoint.source,
        "<stdin>" if stored.path is None else str(stored.path),  # what was hashed
        stored.size,
        stored.xxh3_128,
        stored.gzip,
        iso_utc(generated_at_ms),
    )
    evidence = None if stored.path is None else str(stored.path)
    return Report(graph, provenance, note, findings, replays, evidence, chosen, redactor)


def schema(command: str | None = None, *, jsonl: bool = False, parquet: bool = False) -> bytes:
    """What ``foldctl schema`` prints: the JSON Schema (draft 2020-12) of ``command``'s JSON
    output as published, of one JSONL line (``jsonl``), or (``schema("export",
    parquet=True)``) the Parquet tables export writes; without ``command``, the names of
    the commands that publish one, a line each."""
    from foldctl import jsoncodec, schemas

    if parquet:
        if command != "export":
            raise UsageError("only export writes Parquet tables: schema('export', parquet=True)")
        from foldctl.schemas.parquet import description

        return jsoncodec.dumps(description(), indent=True) + b"\n"
    if command is None:
        return "".join(f"{name}\n" for name in schemas.names()).encode()
    if jsonl:
        return jsoncodec.dumps(schemas.record_schema(command)) + b"\n"
    return schemas.text(command)
