"""Where a message is: every place foldctl can see it, and the digest that names it.

Every message foldctl can see is visited: the live window, the retained
originals of every fold at any depth (the expansion with frames kept, so the
summaries themselves are visited too), then the originals of detached and
orphan spans.  A message reached in more than one place (a replayed frame
expands its span twice) is found at each place, with each locator.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from typing import Any, Final, Literal

import msgspec

from foldctl.digest import PREFIX, digest, is_digest
from foldctl.errors import ExitStatus, FoldctlError, InputError, NotACheckpoint, UsageError
from foldctl.fingerprint import require_scheme
from foldctl.graph.open import open_graph
from foldctl.graph.resolve import FoldGraph
from foldctl.graph.walk import Row, every_row
from foldctl.parallel import batch_size, map_ordered
from foldctl.query.records import Table, message_object
from foldctl.redact.apply import redact_graph
from foldctl.redact.redactor import Redactor
from foldctl.sources.files import SourceSpec, source_name

Where = Literal["live", "folded", "detached", "orphan", "abandoned", "sidechain"]


def where(row: Row) -> Where:
    """Where a message lives: the live window, a placed fold, or a floating span."""
    if row.span is None:
        return "live"
    placement = row.context.placement
    return "folded" if placement == "placed" else placement


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


def locate_object(row: Row, source: str) -> dict[str, Any]:
    """A ``locate`` row: the message object plus ``where``."""
    obj = message_object(row, source=source)
    obj["where"] = where(row)
    return obj


LOCATE_COLUMNS: Final = ("source", "locator", "where", "span", "depth", "role", "digest")


def locate_table(graph: FoldGraph, wanted: str) -> Table:
    """``locate``'s answer: one row per place the digest occurs."""
    source = graph.checkpoint.source
    return Table([locate_object(row, source) for row in locate(graph, wanted)], LOCATE_COLUMNS)


class Located(msgspec.Struct, frozen=True):
    """What one source answered: the places the digest occurs, or why it could not be read
    (``passed_over``: JSON found in a directory that is no checkpoint at all)."""

    source: str
    rows: tuple[dict[str, Any], ...] = ()
    error: FoldctlError | None = None
    passed_over: bool = False
    #: the lines of a session file that are not JSON (the rest was searched)
    unread: tuple[int, ...] = ()


#: One unit of work: the source (or why it could not be expanded), the digest, the scheme,
#: whether the source was found by a directory scan, and the redactor of what is shown.
LocateItem = tuple[SourceSpec | FoldctlError, str, str | None, bool, Redactor | None]


def locate_one(item: LocateItem) -> Located:
    """Every place the digest occurs in one source (in a worker process)."""
    spec, wanted, scheme, lenient, redactor = item
    if isinstance(spec, FoldctlError):
        return Located(spec.source if isinstance(spec, InputError) else "", error=spec)
    name = source_name(spec)
    try:
        graph, _ = open_graph(spec, scheme)
        if redactor is not None:  # digests are the originals': the same places are found
            graph = redact_graph(graph, redactor)
        rows = tuple(locate_table(graph, wanted).rows)
        return Located(name, rows, unread=graph.checkpoint.unread_lines)
    except NotACheckpoint as e:
        return Located(name, passed_over=True) if lenient else Located(name, error=e)
    except FoldctlError as e:
        return Located(name, error=e)


def _crashed(item: LocateItem) -> Located:
    from foldctl.audit.batch import crashed

    name = source_name(item[0]) if not isinstance(item[0], FoldctlError) else "?"
    return Located(name, error=crashed(name))


def locate_sources(
    entries: Sequence[SourceSpec | FoldctlError],
    wanted: str,
    scheme: str | None = None,
    *,
    jobs: int | None = 1,
    lenient: Collection[str] = frozenset(),
    on_done: Callable[[int], None] | None = None,
    redactor: Redactor | None = None,
) -> Iterator[Located]:
    """Each source's answer, in the order of ``entries`` (sources expanded by
    :func:`foldctl.sources.scan.scan_sources`), ``jobs`` worker processes at once; with
    ``redactor``, the messages shown are redacted."""
    wanted = normalise_digest(wanted)
    if scheme is not None:
        require_scheme(scheme)
    items: list[LocateItem] = [
        (e, wanted, scheme, isinstance(e, str) and e in lenient, redactor) for e in entries
    ]
    done = None if on_done is None else (lambda i, _located: on_done(i))
    return map_ordered(
        locate_one,
        items,
        jobs=jobs,
        local=lambda item: not isinstance(item[0], str),
        on_done=done,
        on_crash=_crashed,
        batch=batch_size(len(items), jobs),
    )


class LocateResult(msgspec.Struct, frozen=True):
    """``locate`` over one or many sources: one row per place the digest occurs."""

    rows: list[dict[str, Any]]
    many: bool = False  # several sources: text names the source of each locator
    failed: int = 0  # sources that could not be read

    @property
    def exit_status(self) -> ExitStatus:
        """2 when a source could not be read, else 0 when found, 1 when nowhere."""
        if self.failed:
            return ExitStatus.ERROR
        return ExitStatus.OK if self.rows else ExitStatus.FOUND

    def document(self) -> list[dict[str, Any]]:
        return self.rows

    def records(self) -> Iterator[dict[str, Any]]:
        return iter(self.rows)

    def table(self, text: bool = False) -> tuple[list[dict[str, Any]], tuple[str, ...]]:
        return self.rows, LOCATE_COLUMNS
