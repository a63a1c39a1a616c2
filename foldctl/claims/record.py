"""Every summary of a checkpoint checked against the originals it stands for.

The evidence of a summary is its span's messages and, recursively, the originals
of the earlier summaries inside it — never a nested summary's own text, which is
a claim too.  The walk files the expanded transcript once, frames left out, into
one :class:`~foldctl.claims.EvidenceIndex`; each span's evidence is then one
contiguous range of it, opened at the span's :class:`FoldStart` and closed at its
:class:`FoldEnd`, so a chain a thousand folds deep is indexed once, not once per
level.  A replayed summary is checked once, at its first placement.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from typing import Any, Final

import msgspec

from foldctl.audit.batch import crashed
from foldctl.audit.codes import Finding as AuditFinding
from foldctl.audit.codes import finding
from foldctl.claims.check import ClaimFinding, check_summary, unverifiable
from foldctl.claims.index import (
    EvidenceIndex,
    EvidenceRef,
    MessageAtoms,
    evidence_text,
    index_message,
    wanted_tokens,
)
from foldctl.claims.stored import index_stored
from foldctl.digest import digest
from foldctl.errors import FoldctlError, NotACheckpoint
from foldctl.formats import registry as formats
from foldctl.formats.base import identity
from foldctl.graph.filters import NO_FILTER, FoldFacts, FoldFilter, total
from foldctl.graph.locators import Container, MessageName, message_locator, parse
from foldctl.graph.open import open_graph
from foldctl.graph.resolve import FoldGraph
from foldctl.graph.walk import FoldEnd, FoldStart, Row, walk, walk_floating
from foldctl.jsoncodec import as_text, brief, dumps
from foldctl.model import Checkpoint, Message
from foldctl.parallel import map_ordered
from foldctl.sources.files import SourceSpec, source_name
from foldctl.sources.scan import DEFAULT_EXCLUDES, scan_sources

#: The finding kinds that are something wrong (``unverified`` and ``unverifiable`` are not:
#: they say what could not be confirmed).
WRONG: Final = ("unsupported", "contradicted", "dropped")
#: The kinds ``verify --claims`` reports (``claim-*`` codes).
AUDITED: Final = (*WRONG, "unverified")


class SummaryFinding(msgspec.Struct, frozen=True):
    """A claims finding placed in the record: which summary, of which span."""

    span: int | None  # the span the summary joins (None: it joins none)
    frame: str  # the summary's locator
    finding: ClaimFinding
    line: str | None = None  # the original's line that shows the other value, or the error

    @property
    def kind(self) -> str:
        return self.finding.kind

    @property
    def wrong(self) -> bool:
        """Whether the finding says the summary is wrong (:data:`WRONG`), not that something
        could not be confirmed."""
        return self.finding.kind in WRONG

    def one_line(self) -> str:
        """The finding in one line, for a caller that lists findings beside other output (the
        summary's locator, the kind, the atom, what the originals say):
        ``f6:0 contradicted status "approved" (originals: "pending_approval")``."""
        x = self.finding
        text = f"{self.frame} {x.kind} {x.atom_kind} {brief(x.atom)}"
        if x.expected is not None and x.kind == "contradicted":
            text += f" (originals: {brief(x.expected)})"
        elif x.expected is not None and x.kind == "unverified":
            text += f" ({x.expected})"
        return text

    def as_dict(self, source: str | None = None) -> dict[str, Any]:
        f = self.finding
        row: dict[str, Any] = {} if source is None else {"source": source}
        row.update(
            {
                "span": self.span,
                "frame": self.frame,
                "kind": f.kind,
                "atom": f.atom,
                "atomKind": f.atom_kind,
                "normalised": f.normalised,
                "expected": f.expected,
                "entity": f.entity,
                "sentence": f.sentence,
                "start": f.start,
                "end": f.end,
                "evidence": [{"locator": r.locator, "digest": r.digest} for r in f.evidence],
                "searched": f.searched,
                "originalLine": self.line,
            }
        )
        return row


def _evidence_of(stored: Message, view: Callable[[Message], Message] = identity) -> Evidence:
    """A message as evidence (seen through its format's ``view``): its text (content and tool
    calls), role, tool name, the tools it calls, and the runtime's own error flag."""
    message = view(stored)
    content = message.get("content")
    text = content if isinstance(content, str) else ""
    calls = message.get("toolCalls")
    call_list = [c for c in calls if isinstance(c, dict)] if isinstance(calls, list) else []
    if call_list:  # arguments encoded by orjson: several times faster than evidence_text's
        text = evidence_text(text, [{**c, "args": dumps(c.get("args"))} for c in call_list])
    role = message.get("role")
    tool = message.get("toolName")
    names = tuple(as_text(c.get("name", "")) for c in call_list)
    return (
        text,
        role if isinstance(role, str) else "",
        tool if isinstance(tool, str) else None,
        names,
        message.get("isError") is True,
    )


Evidence = tuple[str, str, str | None, tuple[str, ...], bool]


def summary_texts(graph: FoldGraph) -> list[str]:
    """The text of every summary frame of ``graph`` (the frame's label, or the runtime's own
    preamble, left out)."""
    summary_text = formats.of(graph.checkpoint).summary_text
    return [
        summary_text(graph.container_messages(container)[index])
        for container, index in graph.frames
    ]


def _opaque(graph: FoldGraph) -> frozenset[int]:
    """The spans whose summary the loader found unreadable (``opaque-summary``)."""
    return frozenset(
        note.span
        for note in graph.checkpoint.notes
        if note.code == "opaque-summary" and note.span is not None
    )


class _GraphOriginals:
    """The evidence of a checkpoint, read again from the checkpoint when asked for.

    The index keeps each message's atoms only; a lookup that reads a message's
    text, or a finding that cites it, decodes it again here.  So the evidence
    of a 500 MB file is not held a second time, and only cited messages are
    digested.
    """

    def __init__(self, graph: FoldGraph) -> None:
        self.graph = graph
        self.view = formats.view_of(graph.checkpoint)
        self.places: list[tuple[Container, int]] = []  # by index position
        self.message = lru_cache(maxsize=64)(self._message)
        # the ends of a range are cited by every summary of a chain that reaches them
        self._refs = lru_cache(maxsize=4096)(self._ref)

    def _message(self, container: Container, index: int) -> Message:
        return self.graph.container_messages(container)[index]

    def text(self, position: int) -> str:
        return _evidence_of(self.message(*self.places[position]), self.view)[0]

    def ref(self, position: int) -> EvidenceRef:
        return self._refs(position)

    def _ref(self, position: int) -> EvidenceRef:
        container, index = self.places[position]
        message = self.message(container, index)
        return EvidenceRef(message_locator(container, index), digest(message))

    def text_at(self, locator: str) -> str | None:
        """The evidence text of the message named ``locator``."""
        name = parse(locator)
        if not isinstance(name, MessageName):
            return None
        return _evidence_of(self.message(name.container, name.index), self.view)[0]


class _Indexer:
    """The cheap index of each evidence message, read from its stored JSON when the loader
    kept it (:func:`~foldctl.claims.stored.index_stored`), else from the decoded message."""

    def __init__(self, graph: FoldGraph, wanted: frozenset[bytes], stored: bool) -> None:
        self.graph = graph
        self.wanted = wanted
        fmt = formats.of(graph.checkpoint)
        self.view = fmt.view
        # a stored record of another shape than the view's is read through the view
        self.stored = stored and fmt.shows_as_stored
        self.container: Container = None
        self.messages = graph.container_messages(None)
        self.raw_json: Callable[[int], bytes] | None = None
        self.escape_free = False

    def atoms(self, container: Container, index: int) -> MessageAtoms:
        if container != self.container:
            self.container = container
            self.messages = self.graph.container_messages(container)
            self.raw_json = getattr(self.messages, "raw_json", None) if self.stored else None
            self.escape_free = getattr(self.messages, "escape_free", False)
        if self.raw_json is not None:
            raw = self.raw_json(index)
            found = index_stored(raw, wanted=self.wanted, escape_free=self.escape_free)
            if found is not None:
                return found
        text, role, tool, calls, error = _evidence_of(self.messages[index], self.view)
        return index_message(
            text, role=role, tool_name=tool, call_names=calls, is_error=error,
            wanted=self.wanted, keep_text=False,
        )  # fmt: skip


def check_graph(graph: FoldGraph, *, stored: bool = True) -> Iterator[SummaryFinding]:
    """Every finding of every summary, in transcript order (the floating spans after).

    ``stored``: index a retained message from the JSON the loader kept where it can
    (:mod:`foldctl.claims.stored`); ``False`` decodes every one.  The findings are the
    same either way (and so is a refusal): the switch is for tests and the fuzzer."""
    wanted = wanted_tokens(summary_texts(graph))
    summary_text = formats.of(graph.checkpoint).summary_text
    opaque = _opaque(graph)
    originals = _GraphOriginals(graph)
    index = EvidenceIndex(wanted=wanted, originals=originals)
    places = originals.places
    frame_of: dict[int, Row] = {}  # span -> the frame row that opened it
    opened: list[tuple[int, int]] = []  # (span, first evidence position)
    # summaries whose originals were discarded, where they stand among the evidence: what
    # an outer summary repeats from them is unverifiable, not unsupported
    carried: list[tuple[int, EvidenceRef, str]] = []
    streams = (
        walk(graph, keep_frames=True, replays="ref", bodies=False),
        walk_floating(graph, keep_frames=True, replays="ref", bodies=False),
    )
    indexer = _Indexer(graph, wanted, stored)
    for stream in streams:
        for event in stream:
            if isinstance(event, Row):
                frame = event.frame
                if frame is None:
                    span = event.context.span
                    places.append((span, event.index))
                    index.add(None, indexer.atoms(span, event.index))
                elif (
                    frame.resolution == "expanded"
                    and frame.span is not None
                    and frame.span not in opaque
                ):
                    frame_of[frame.span] = event
                elif frame.resolution in ("discarded", "unresolved") or frame.span in opaque:
                    summary = summary_text(event.message)
                    yield SummaryFinding(frame.span, event.locator, unverifiable(summary))
                    ref = EvidenceRef(event.locator, digest(event.message))
                    carried.append((len(index), ref, summary))
            elif isinstance(event, FoldStart):
                if not event.reference:
                    opened.append((event.span.index, len(index)))
            elif isinstance(event, FoldEnd) and opened and opened[-1][0] == event.span.index:
                span, start = opened.pop()
                row = frame_of.pop(span, None)
                if row is None:
                    continue  # a floating root: no summary stands for it here
                summary = summary_text(row.message)
                stop = len(index)
                inside = [(ref, text) for at, ref, text in carried if start <= at <= stop]
                found_all = check_summary(
                    summary, index, start=start, stop=stop, context=0, carried=inside
                )
                for found in found_all:
                    yield SummaryFinding(span, row.locator, found, _line(originals, found))


_LINE_MAX: Final = 200


def _line(originals: _GraphOriginals, finding: ClaimFinding) -> str | None:
    """The line of the first evidence message that shows what the originals say."""
    if finding.kind == "dropped":
        return finding.atom[:_LINE_MAX]
    if finding.kind != "contradicted" or not finding.evidence:
        return None
    text = originals.text_at(finding.evidence[0].locator)
    if text is None:
        return None
    needle = (finding.expected or "").lower()
    for line in text.split("\n"):
        if needle and needle in line.lower():
            return line.strip()[:_LINE_MAX]
    return text.strip().split("\n", 1)[0][:_LINE_MAX]


class ClaimsResult(msgspec.Struct, frozen=True):
    """What ``claims`` answers for one or more sources."""

    sources: tuple[tuple[str, tuple[SummaryFinding, ...]], ...]
    failures: tuple[FoldctlError, ...] = ()  # the errors of sources that could not be read
    #: with a fold filter: what the sources held, and how many spans passed
    facts: FoldFacts | None = None

    def records(self) -> Iterator[dict[str, Any]]:
        for source, findings in self.sources:
            for f in findings:
                yield f.as_dict(source)

    def document(self) -> list[dict[str, Any]]:
        return list(self.records())

    def table(self, text: bool = False) -> tuple[Iterator[dict[str, Any]], Sequence[str]]:
        rows = (_flat(row) for row in self.records())
        return rows, CLAIM_COLUMNS

    @property
    def wrong(self) -> int:
        """Findings of the three kinds that say a summary is wrong (not unverifiable)."""
        return sum(1 for _, fs in self.sources for f in fs if f.wrong)


CLAIM_COLUMNS: Final = (
    "source",
    "span",
    "frame",
    "kind",
    "atomKind",
    "atom",
    "expected",
    "entity",
    "evidence",
    "searched",
    "sentence",
)


def _flat(row: dict[str, Any]) -> dict[str, Any]:
    out = dict(row)
    out["evidence"] = " ".join(e["locator"] for e in row["evidence"])
    return out


#: One source for a worker: the source (or the error in its place), the scheme, whether
#: a directory scan found it (JSON that is no checkpoint is then passed over), the folds.
ClaimsItem = tuple[SourceSpec | FoldctlError, str | None, bool, FoldFilter]
#: A source's claims (and, with a fold filter, its facts), the error that kept it from
#: being read, or None (passed over).
#: a source's name, its findings, what a fold filter saw in it and the lines of a session
#: file that could not be read (a partial file); an error; or None (not a checkpoint)
ClaimsOutcome = (
    tuple[str, tuple[SummaryFinding, ...], FoldFacts | None, tuple[int, ...]] | FoldctlError | None
)


def claims_of_source(item: ClaimsItem) -> ClaimsOutcome:
    """The claims of one source, in whichever process reads it: with a fold filter, the
    summaries of the spans that pass."""
    spec, scheme, lenient, folds = item
    if isinstance(spec, FoldctlError):
        return spec
    try:
        graph, _ = open_graph(spec, scheme)
        found = tuple(check_graph(graph))
        source, unread = graph.checkpoint.source, graph.checkpoint.unread_lines
        if not folds.active:
            return source, found, None, unread
        spans = graph.spans
        kept = tuple(f for f in found if f.span is not None and folds.selects(spans[f.span]))
        return source, kept, folds.facts(spans), unread
    except NotACheckpoint as e:
        return None if lenient else e  # JSON found in a directory that is no checkpoint
    except FoldctlError as e:
        return e


def _crashed(item: ClaimsItem) -> ClaimsOutcome:
    spec = item[0]
    return crashed(source_name(spec) if not isinstance(spec, FoldctlError) else "?")


def _is_local(item: ClaimsItem) -> bool:
    return not isinstance(item[0], str)  # bytes in hand, or an error: nothing to ship


def claims_of(
    specs: Sequence[SourceSpec],
    scheme: str | None = None,
    on_error: Callable[[FoldctlError], None] | None = None,
    excludes: Sequence[str] = DEFAULT_EXCLUDES,
    jobs: int | None = 1,
    folds: FoldFilter = NO_FILTER,
    on_partial: Callable[[str, tuple[int, ...]], None] | None = None,
) -> ClaimsResult:
    """The claims of every source (directories and stores expanded as ``verify`` does,
    ``excludes`` skipped), by ``jobs`` worker processes (``None``: one per CPU), in the
    order of the sources, only the summaries of the spans that pass ``folds``; a source
    that cannot be read goes to ``on_error`` and into ``failures``; a session file checked
    without some of its lines (not JSON) to ``on_partial(source, lines)``."""
    found = scan_sources(specs, excludes)
    items: list[ClaimsItem] = [
        (spec, scheme, isinstance(spec, str) and spec in found.from_directories, folds)
        for spec in found.entries
    ]
    results: list[tuple[str, tuple[SummaryFinding, ...]]] = []
    failures: list[FoldctlError] = []
    facts: list[FoldFacts | None] = []
    outcomes = map_ordered(claims_of_source, items, jobs=jobs, local=_is_local, on_crash=_crashed)
    for outcome in outcomes:
        if isinstance(outcome, FoldctlError):
            failures.append(outcome)
            if on_error is not None:
                on_error(outcome)
        elif outcome is not None:
            source, findings, held, unread = outcome
            results.append((source, findings))
            if unread and on_partial is not None:
                on_partial(source, unread)
            facts.append(held)
    held_all = total(facts) if folds.active else None
    return ClaimsResult(tuple(results), tuple(failures), held_all)


def audit_findings(
    graph: FoldGraph, found: Sequence[SummaryFinding] | None = None
) -> list[AuditFinding]:
    """The claims of one checkpoint as audit findings (``claim-*`` codes, warnings): the
    summary's locator and span, its JSON path, and the evidence as related places.
    ``found``: the claims already checked (:func:`check_graph`), not checked again."""
    fmt = formats.of(graph.checkpoint)
    key = "content" if fmt.shows_as_stored else None  # where a summary's text is stored
    out: list[AuditFinding] = []
    for f in check_graph(graph) if found is None else found:
        x = f.finding
        if x.kind not in AUDITED:
            continue
        if x.kind == "contradicted":
            what = f"says {brief(x.atom)} where the originals say {brief(x.expected)}"
        elif x.kind == "dropped":
            what = f"does not mention the error {brief(x.atom)}"
        elif x.kind == "unverified":
            why = f" ({x.expected})" if x.expected else ""
            what = f"gives {x.atom_kind} {brief(x.atom)}, which its originals do not confirm{why}"
        else:
            what = f"gives {x.atom_kind} {brief(x.atom)}, which appears nowhere in its originals"
        of = "no span" if f.span is None else f"span {f.span}"
        out.append(
            finding(
                f"claim-{x.kind}",
                f"The summary at {f.frame} (of {of}) {what}.",
                locator=f.frame,
                span=f.span,
                path=_path(graph, fmt.place, f.frame, key),
                related=tuple(r.locator for r in x.evidence),
            )
        )
    return out


def _path(
    graph: FoldGraph,
    place: Callable[[Checkpoint, Container, int, str | None], str],
    locator: str,
    key: str | None,
) -> str | None:
    """Where the summary named ``locator`` is stored, as its format names a place."""
    name = parse(locator)
    if not isinstance(name, MessageName):
        return None
    return place(graph.checkpoint, name.container, name.index, key)
