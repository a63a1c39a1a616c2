"""The library's face: open a checkpoint, walk it, audit it; grep, diff, list sessions.

Everything here returns plain, typed, immutable data (frozen dataclasses and
dicts), so it can be pickled and shipped to a worker (Dask, Spark); nothing
prints, reads standard input or exits.  ``import foldctl`` exposes these names
(``foldctl.__all__``); docs/library.md shows them at work.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from foldctl.audit.batch import VerifyReport, audit_sources, build_report
from foldctl.audit.checks import audit
from foldctl.audit.codes import Finding, Severity
from foldctl.errors import FoldctlError, UsageError
from foldctl.graph.open import join, open_graph
from foldctl.graph.resolve import FoldGraph, SpanPlace
from foldctl.graph.walk import Row, walk, walk_floating
from foldctl.load.checkpoint import load_object
from foldctl.model import Checkpoint, Message, Span
from foldctl.query.diff import DiffResult, compare
from foldctl.query.grep import Hit, compile_query, hits_in
from foldctl.query.grep import SourceFailed as _SourceFailed
from foldctl.query.locate import locate
from foldctl.query.records import overview
from foldctl.query.sessions import SessionFiles, SessionListing, session_files
from foldctl.query.sessions import sessions as _sessions
from foldctl.sources.files import RawSource, SourceSpec
from foldctl.sources.scan import DEFAULT_EXCLUDES, scan_sources

#: What :func:`open` takes: a path (``str`` or :class:`os.PathLike`), ``STORE.db#SESSION_ID``,
#: the bytes of a checkpoint, or an already-decoded JSON document (a dict).
Openable = str | os.PathLike[str] | bytes | bytearray | memoryview | dict[str, Any] | RawSource


@dataclass(frozen=True, slots=True)
class Conversation:
    """One checkpoint, loaded and joined: its record of folds and what they hid."""

    graph: FoldGraph
    scheme_note: str = ""

    @property
    def checkpoint(self) -> Checkpoint:
        return self.graph.checkpoint

    @property
    def source(self) -> str:
        return self.graph.checkpoint.source

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
        events = [walk(self.graph, max_depth=depth, keep_frames=keep_frames)]
        if include_detached:
            events.append(walk_floating(self.graph, max_depth=depth, keep_frames=keep_frames))
        for stream in events:
            for event in stream:
                if isinstance(event, Row):
                    yield event

    def audit(self, *, messages: bool = True) -> list[Finding]:
        """Every integrity finding, most severe first (``messages=False``: the fold record
        only, without decoding every retained message)."""
        return audit(self.graph, messages=messages)

    def overview(self) -> dict[str, Any]:
        """What ``foldctl show`` prints, as a document."""
        return overview(self.graph, self.scheme_note)

    def locate(self, digest: str) -> list[Row]:
        """Every place a message with this digest occurs."""
        return locate(self.graph, digest)


def _spec(source: Openable) -> SourceSpec | dict[str, Any]:
    if isinstance(source, (str, RawSource, dict)):
        return source
    if isinstance(source, os.PathLike):
        return os.fspath(source)
    if isinstance(source, (bytes, bytearray, memoryview)):
        return RawSource("<bytes>", bytes(source))
    raise UsageError(f"cannot open a {type(source).__name__}; expected a path, bytes or a dict")


def open(source: Openable, *, scheme: str | None = None) -> Conversation:
    """Load and join one checkpoint.

    ``source`` is a path, ``"STORE.db#SESSION_ID"``, a :class:`~pathlib.Path`,
    the checkpoint's bytes (gzip or not), or a decoded JSON document.
    ``scheme=None`` detects the fingerprint scheme.  Raises
    :class:`~foldctl.errors.InputError` for input that is not a checkpoint.
    """
    spec = _spec(source)
    if isinstance(spec, dict):
        graph, note = join(load_object(spec), scheme)
    else:
        graph, note = open_graph(spec, scheme)
    return Conversation(graph, note)


def grep(
    pattern: str,
    sources: Sequence[Openable] | Openable,
    *,
    fixed: bool = False,
    ignore_case: bool = False,
    fields: Sequence[str] = (),
    roles: Sequence[str] = (),
    scheme: str | None = None,
    on_error: Callable[[FoldctlError], None] | None = None,
    prefilter: bool | None = None,
) -> Iterator[Hit]:
    """Every message of every source that matches ``pattern`` (a regular expression, or a
    plain string with ``fixed``), live or folded at any depth.  Directories are searched
    for checkpoints and stores.  A source that cannot be read raises, unless
    ``on_error`` takes it (and the search goes on).  A source whose bytes cannot hold a
    match is not decoded (``prefilter=False`` decodes every one; ``None`` leaves it to
    ``FOLDCTL_GREP_PREFILTER``)."""
    single = (str, bytes, bytearray, memoryview, dict, os.PathLike, RawSource)
    items: Sequence[Openable] = [sources] if isinstance(sources, single) else sources
    specs = [_spec(s) for s in items]
    if any(isinstance(s, dict) for s in specs):
        raise UsageError("grep takes paths or bytes, not decoded documents")
    query = compile_query(pattern, fixed=fixed, ignore_case=ignore_case, fields=fields, roles=roles)
    plain = [s for s in specs if not isinstance(s, dict)]
    for event in hits_in(plain, query, scheme, prefilter=prefilter):
        if isinstance(event, Hit):
            yield event
        elif isinstance(event, _SourceFailed):
            if on_error is None:
                raise event.error
            on_error(event.error)


def diff(
    old: Openable, new: Openable, *, scheme: str | None = None, force: bool = False
) -> DiffResult:
    """What changed between two checkpoints of one conversation (spans lost first)."""
    return compare(open(old, scheme=scheme).graph, open(new, scheme=scheme).graph, force=force)


def sessions(
    store: str | os.PathLike[str] | None = None, *, scheme: str | None = None, jobs: int | None = 1
) -> SessionListing | SessionFiles:
    """One row per session: of a SQLite session store, read in place and never changed; or,
    for a folder (``None``: ``~/.claude/projects`` and ``~/.codex/sessions`` where they
    exist), of every Claude Code session and Codex rollout in it (project, session id,
    parent session, first and last time, records, folds, bytes; ``note`` says where it
    looked)."""
    if store is None or os.path.isdir(store):
        return session_files(None if store is None else [os.fspath(store)], jobs=jobs)
    return _sessions(os.fspath(store), scheme)


def verify(
    sources: Sequence[str | os.PathLike[str]],
    *,
    fail_on: Severity = "warning",
    ignore: Sequence[str] = (),
    scheme: str | None = None,
    jobs: int | None = 1,
) -> VerifyReport:
    """The audit of many sources (files, directories, stores), with ``verify``'s verdict."""
    found = scan_sources([os.fspath(s) for s in sources], DEFAULT_EXCLUDES)
    audits = audit_sources(found.entries, scheme, jobs=jobs, lenient=found.from_directories)
    return build_report(
        audits, fail_on, frozenset(ignore), skipped=found.skipped, excludes=DEFAULT_EXCLUDES
    )
