"""Human text for ``grep``: ``source:locator:role: line`` with the match marked, and the
fold that hid the message."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from foldctl.query.grep import GrepRun, Hit, Match
from foldctl.query.locate import where
from foldctl.render import Line, Output
from foldctl.render.sink import text_lines, write_lines
from foldctl.termsafe import visible
from foldctl.times import iso_utc


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


def source_lines(rows: Iterable[dict[str, Any]]) -> Iterator[Line]:
    """``-c`` / ``-l`` as text: ``source:count`` or ``source`` per line, as grep prints them."""
    for row in rows:
        text = visible(row["source"])
        if "count" in row:
            text += f":{row['count']}"
        yield [(text, None)]


def grep(result: GrepRun, output: Output) -> None:
    """Hits as ``source:locator:role: line``; with a count or a listing, one source a line."""
    if result.mode == "hits":
        lines = (line for hit in result.hits() for line in hit_lines(hit, unicode=output.color))
        text_lines(lines, output)
    else:
        rows, _ = result.table()
        write_lines(source_lines(rows), output.out, color=False)
