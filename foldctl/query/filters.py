"""Which folds a command looks at: by model, run, fold time, or span (``--model``,
``--run``, ``--since``/``--until``, ``--span`` on ``grep``, ``expand`` and ``spans``).

A span passes when its model, run and ``foldedAtMs`` pass every filter given.  A
message passes when the innermost span that holds it passes, and, with ``spans``,
when one of them is that span or an enclosing one.  With any filter given, the
live window's own messages do not pass: the filters are about folds.
"""

from __future__ import annotations

from dataclasses import dataclass

from foldctl.graph.walk import Context
from foldctl.model import Span


@dataclass(frozen=True, slots=True)
class FoldFilter:
    models: frozenset[str] = frozenset()
    runs: frozenset[str] = frozenset()
    since_ms: float | None = None  # inclusive
    until_ms: float | None = None  # inclusive
    spans: frozenset[int] = frozenset()

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
        """The span's own facts pass (models, runs, time)."""
        if self.models and span.model not in self.models:
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


NO_FILTER = FoldFilter()
