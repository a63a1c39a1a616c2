"""Which folds a command looks at: by model, run, fold time, or span (``--model``,
``--run``, ``--since``/``--until``, ``--span`` on every command that reads folds): plain
data over the fold graph's spans, so every floor above (the audit, the claims, the
queries) filters the same way.

A span passes when its model (compared without regard to case), run and
``foldedAtMs`` pass every filter given (a fact its format does not record passes no
filter on it).  A message passes when the innermost span
that holds it passes, and, with ``spans``, when one of them is that span or an
enclosing one.  With any filter given, the live window's own messages do not pass:
the filters are about folds.  A finding passes when the span it is about (or the span
holding the message it names) passes.

:class:`FoldFacts` is what a filter could have matched (the models, runs, fold times
and spans of one checkpoint or many); :meth:`FoldFilter.unmatched` says, when no span
passed, which filter matched nothing and what there was.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Final

import msgspec
import msgspec.structs

from foldctl.errors import UsageError
from foldctl.graph.locators import MessageName, parse
from foldctl.graph.walk import Context, Event
from foldctl.model import Span, repr_without
from foldctl.times import iso_utc

#: A list of what there is in a message shows this many names at most.
LISTED: Final = 12


class FoldFacts(msgspec.Struct, frozen=True):
    """What a filter could have matched: the models, runs and fold times of the spans of
    one checkpoint or many (``+`` adds two), how many spans, and how many passed."""

    models: frozenset[str] = frozenset()
    runs: frozenset[str] = frozenset()
    first_ms: float | None = None
    last_ms: float | None = None
    spans: int = 0
    passed: int = 0

    def __add__(self, other: FoldFacts) -> FoldFacts:
        times = [
            t for t in (self.first_ms, self.last_ms, other.first_ms, other.last_ms) if t is not None
        ]
        return FoldFacts(
            self.models | other.models,
            self.runs | other.runs,
            min(times, default=None),
            max(times, default=None),
            self.spans + other.spans,
            self.passed + other.passed,
        )


def total(facts: Iterable[FoldFacts | None]) -> FoldFacts:
    """The facts of many sources together (a source without facts counts for nothing)."""
    out = FoldFacts()
    for one in facts:
        if one is not None:
            out = out + one
    return out


class FoldFilter(msgspec.Struct, frozen=True):
    models: frozenset[str] = frozenset()  # matched without regard to case
    runs: frozenset[str] = frozenset()
    since_ms: float | None = None  # inclusive
    until_ms: float | None = None  # inclusive
    spans: frozenset[int] = frozenset()
    #: what :meth:`describe` says instead, when set (a redacted output's words for the
    #: filters given, which may quote a secret); selection never reads it
    words: str | None = None
    _models: frozenset[str] = frozenset()

    __repr__ = repr_without("words", "_models")

    def __post_init__(self) -> None:
        msgspec.structs.force_setattr(self, "_models", frozenset(m.casefold() for m in self.models))

    @property
    def active(self) -> bool:
        return bool(
            self.models
            or self.runs
            or self.spans
            or self.since_ms is not None
            or self.until_ms is not None
        )

    def span_passes(self, span: Span) -> bool:
        """The span's own facts pass (models, runs, time).  A fact its format does not
        record (a Claude Code fold's model) passes no filter on it.  A redacted span is
        judged by its stored facts (:attr:`~foldctl.model.Span.recorded`)."""
        span = span.recorded
        if self._models and (span.model is None or span.model.casefold() not in self._models):
            return False
        if self.runs and span.run_id not in self.runs:
            return False
        at = span.folded_at_ms
        if self.since_ms is not None and (at is None or at < self.since_ms):
            return False  # a fold whose time is not recorded passes no time filter
        return self.until_ms is None or (at is not None and at <= self.until_ms)

    def selects(self, span: Span) -> bool:
        """A row of ``spans``: its facts pass and, with ``spans``, it is one of them."""
        return self.span_passes(span) and (not self.spans or span.index in self.spans)

    def context_passes(self, ctx: Context, spans: tuple[Span, ...]) -> bool:
        """Messages of this container pass (see the module doc)."""
        if not self.active:
            return True
        if ctx.span is None or not self.span_passes(spans[ctx.span]):
            return False
        return not self.spans or bool(self.spans.intersection(ctx.chain()))

    def place_passes(self, span: int | None, locator: str | None, spans: Sequence[Span]) -> bool:
        """A finding about ``span`` or the message at ``locator`` passes: the span, or the
        span holding the message, passes (a place in the live window or the whole file
        does not pass an active filter)."""
        if not self.active:
            return True
        if span is None and locator is not None:
            try:
                name = parse(locator)
            except UsageError:
                name = None
            if isinstance(name, MessageName) and isinstance(name.container, int):
                span = name.container
        return span is not None and 0 <= span < len(spans) and self.selects(spans[span])

    def facts(self, spans: Sequence[Span]) -> FoldFacts:
        """What the spans of one checkpoint hold, and how many pass."""
        times = [float(s.folded_at_ms) for s in spans if s.folded_at_ms is not None]
        return FoldFacts(
            frozenset(s.model for s in spans if s.model is not None),
            frozenset(s.run_id for s in spans if s.run_id is not None),
            min(times, default=None),
            max(times, default=None),
            len(spans),
            sum(1 for s in spans if self.selects(s)),
        )

    def check_spans(self, spans: Sequence[Span]) -> None:
        """:class:`UsageError` for a span index the checkpoint does not have."""
        missing = sorted(i for i in self.spans if i >= len(spans))
        if missing:
            here = f"spans here: 0-{len(spans) - 1}" if spans else "it has no spans"
            raise UsageError(f"there is no span {missing[0]}; {here}")

    def unmatched(self, facts: FoldFacts, where: str = "here") -> str | None:
        """None when some span passed (or no filter is given); else one line saying which
        filter no span passes and what there is ``where`` (``here``, ``in these sources``)."""
        if not self.active or facts.passed:
            return None
        if not facts.spans:
            return f"no span to filter: no folds {where}"
        wanted = {m.casefold() for m in facts.models}
        if self.models and not self._models & wanted:
            return (
                f"no span with model {_quoted(self.models)}; models {where}: "
                f"{_listed(facts.models)}"
            )
        if self.runs and not self.runs & facts.runs:
            return f"no span of run {_quoted(self.runs)}; runs {where}: {_listed(facts.runs)}"
        if facts.first_ms is not None and facts.last_ms is not None:
            early = self.until_ms is not None and self.until_ms < facts.first_ms
            late = self.since_ms is not None and self.since_ms > facts.last_ms
            if (
                early
                or late
                or (
                    self.since_ms is not None
                    and self.until_ms is not None
                    and self.since_ms > self.until_ms
                )
            ):
                return (
                    f"no span folded {_window(self.since_ms, self.until_ms)}; folds {where} "
                    f"from {iso_utc(facts.first_ms)} to {iso_utc(facts.last_ms)}"
                )
        return f"no span {self.describe()}; {facts.spans} spans {where}"

    def describe(self) -> str:
        """The filters given, as words that follow "the spans" (``with model "x", of run
        "r", folded at or after ...``)."""
        if self.words is not None:
            return self.words
        parts = []
        if self.models:
            parts.append(f"with model {_quoted(self.models)}")
        if self.runs:
            parts.append(f"of run {_quoted(self.runs)}")
        if self.since_ms is not None or self.until_ms is not None:
            parts.append(f"folded {_window(self.since_ms, self.until_ms)}")
        if self.spans:
            parts.append(f"numbered {' or '.join(str(i) for i in sorted(self.spans))}")
        return ", ".join(parts)


def _quoted(names: Iterable[str]) -> str:
    return " or ".join(f'"{n}"' for n in sorted(names))


def _listed(names: Iterable[str]) -> str:
    shown = sorted(names)
    if not shown:
        return "none"
    more = f" and {len(shown) - LISTED} more" if len(shown) > LISTED else ""
    return ", ".join(shown[:LISTED]) + more


def _window(since: float | None, until: float | None) -> str:
    if since is not None and until is not None:
        return f"between {iso_utc(since)} and {iso_utc(until)}"
    if since is not None:
        return f"at or after {iso_utc(since)}"
    return f"at or before {iso_utc(until or 0)}"


def filter_events(
    events: Iterator[Event], folds: FoldFilter, spans: tuple[Span, ...]
) -> Iterator[Event]:
    """The events of the folds that pass: their boundaries and their messages."""
    last: object = None
    passes = False
    for event in events:
        if event.context is not last:
            last = event.context
            passes = folds.context_passes(event.context, spans)
        if passes:
            yield event


NO_FILTER = FoldFilter()
