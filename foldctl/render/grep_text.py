"""Human text for ``grep``: ``source:locator:role: line`` with the match marked, and the
fold that hid the message."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from foldctl.query.grep import GrepRun, HitRecord, Match
from foldctl.render import Line, Output
from foldctl.render.cells import ELLIPSIS, truncate
from foldctl.render.sink import text_lines, write_lines
from foldctl.render.text import MAX_CELL
from foldctl.termsafe import visible

#: A matched line longer than this is shown as windows around its matches.
MAX_LINE = 240
_AROUND = 60  # characters shown on each side of a match in a long line
_MAX_SHOWN = 100  # characters of one match shown in a long line


def _context(hit: HitRecord, sep: str) -> str | None:
    """The line under a hit that says which fold hid the message (None for live messages):
    the innermost span, and for a nested one its depth and the outermost span."""
    parts: list[str] = []
    if hit.frame is not None:
        joined = hit.frame.span
        if joined is None:
            parts.append("a summary frame that joins no span (unresolved)")
        else:
            by = (
                f", written by {truncate(visible(hit.frame_model), MAX_CELL)}"
                if hit.frame_model is not None
                else " (its summarizing model is not recorded)"
            )
            parts.append(
                f"the summary frame of span {joined}{by}: "
                f"a claim, not the conversation ({hit.frame.resolution})"
            )
    fold = hit.folded_by
    if fold is not None:
        folder = fold.get("model")
        text = (
            f"folded away by span {fold['span']}{sep}"
            f"{truncate(visible(folder), MAX_CELL) if folder is not None else 'model not recorded'}"
            f"{sep}{fold.get('foldedAt', 'time not recorded')}{sep}{fold['retained']}"
        )
        if hit.depth > 1:
            text += f"{sep}depth {hit.depth}, outermost span {hit.outermost}"
        if hit.occurrence > 1:
            text += f"{sep}replay {hit.occurrence} of these messages"
        if hit.where != "folded" and hit.outermost is not None:
            text += f"{sep}{hit.where}: {truncate(hit.float_reason, 120)}"
        parts.append(text)
    return "; ".join(parts) if parts else None


def _windows(length: int, ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The parts of a long line to show: each match with some text around it, merged."""
    out: list[tuple[int, int]] = []
    for start, end in ranges:
        lo = max(0, start - _AROUND)
        hi = min(length, min(end, start + _MAX_SHOWN) + _AROUND)
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
        if len(out) >= 3:
            break
    return out


def _highlight(line: str, ranges: list[tuple[int, int]]) -> Line:
    """A line with the matched ranges styled, every piece made visible; a long line is cut
    to windows around its first matches, with ``…`` where text is left out."""
    if len(line) <= MAX_LINE:
        return _painted(line, ranges, 0, len(line))
    segments: Line = []
    shown = _windows(len(line), ranges)
    for n, (lo, hi) in enumerate(shown):
        if lo > 0 and (n == 0 or lo > shown[n - 1][1]):
            segments.append((ELLIPSIS, "dim"))
        segments += _painted(
            line, [(max(a, lo), min(b, hi)) for a, b in ranges if a < hi and b > lo], lo, hi
        )
    if shown and shown[-1][1] < len(line):
        left = len(ranges) - sum(1 for a, _ in ranges if a < shown[-1][1])
        segments.append((ELLIPSIS + (f" ({left} more matches)" if left > 0 else ""), "dim"))
    return segments


def _painted(line: str, ranges: list[tuple[int, int]], lo: int, hi: int) -> Line:
    segments: Line = []
    pos = lo
    for start, end in ranges:
        start, end = max(start, lo), min(end, hi)
        if start > pos:
            segments.append((visible(line[pos:start]), None))
        if end > start:
            shown = line[start:end]
            if len(shown) > _MAX_SHOWN:
                shown = shown[:_MAX_SHOWN] + ELLIPSIS
            segments.append((visible(shown), "bold red"))
        pos = max(pos, end)
    if pos < hi or not segments:
        segments.append((visible(line[pos:hi]), None))
    return segments


def _line_starts(text: str) -> list[int]:
    return [0, *(m.end() for m in _NEWLINE.finditer(text))]


_NEWLINE = re.compile("\n")


def _matched_lines(
    text: str, matches: Sequence[Match]
) -> Iterator[tuple[str, list[tuple[int, int]]]]:
    """Each line of ``text`` that a match touches, with the match ranges in that line."""
    starts = _line_starts(text)
    ends = [s - 1 for s in starts[1:]] + [len(text)]
    touched: dict[int, list[tuple[int, int]]] = {}
    for m in sorted(matches, key=lambda m: m.start):
        n = bisect.bisect_right(starts, m.start) - 1
        while True:
            lo, hi = max(m.start, starts[n]), min(m.end, ends[n])
            touched.setdefault(n, []).append((lo - starts[n], max(lo, hi) - starts[n]))
            if m.end <= ends[n] + 1 or n + 1 >= len(starts):
                break
            n += 1
    for n in sorted(touched):
        yield text[starts[n] : ends[n]], touched[n]


def _first_line(hit: HitRecord) -> str:
    content = hit.shown.get("content")
    text = content if isinstance(content, str) else ""
    return text.split("\n", 1)[0]


def _role(hit: HitRecord) -> str:
    """The role of a hit's message as its format shows it, made visible and short."""
    role = hit.shown.get("role", "?")
    return truncate(visible(role if isinstance(role, str) else "?"), MAX_CELL)


def _label(role: str, field: str) -> str:
    """``role``, or ``role:field`` for a match in a field other than the content."""
    return role if field == "content" else f"{role}:{truncate(visible(field), MAX_CELL)}"


def hit_lines(hit: HitRecord, *, unicode: bool = False) -> Iterator[Line]:
    """``source:locator:role: line`` for each matching line, then the fold context; a
    context neighbour (``-A``/``-B``/``-C``) or an inverted match (``-v``) is its first
    line, with ``-`` after the locator for a neighbour, as grep marks context lines.

    ``unicode`` picks the separators (a terminal gets ``·`` and ``↳``, a pipe ASCII)."""
    role = _role(hit)
    mark = "-" if hit.context else ":"
    head = f"{visible(hit.source)}{mark}{hit.locator}{mark}"
    if not hit.texts:
        yield [(head, "magenta"), (f"{role}{mark} ", "cyan"), *_highlight(_first_line(hit), [])]
        if hit.context:
            return
    for name in hit.texts:
        matches = [m for m in hit.matches if m.field == name]
        label = _label(role, name)
        for line, ranges in _matched_lines(hit.texts[name], matches):
            yield [(head, "magenta"), (f"{label}: ", "cyan"), *_highlight(line, ranges)]
    if hit.match_count > len(hit.matches):
        yield [
            ("    ", None),
            (f"({hit.match_count} matches; the first {len(hit.matches)} shown)", "dim"),
        ]
    context = _context(hit, " · " if unicode else " | ")
    if context is not None:
        yield [("    ↳ " if unicode else "    -> ", "dim"), (context, "dim")]


def match_lines(hits: Iterable[HitRecord]) -> Iterator[Line]:
    """``-o``: each match alone, ``source:locator:role: match``, as grep prints only the
    matching parts (no context, nothing for an inverted match)."""
    for hit in hits:
        if hit.context:
            continue
        role = _role(hit)  # as the message's format shows it
        head = f"{visible(hit.source)}:{hit.locator}:"
        for m in hit.matches:
            label = _label(role, m.field)
            yield [(head, "magenta"), (f"{label}: ", "cyan"), (visible(m.text), "bold red")]
        if hit.match_count > len(hit.matches):
            yield [
                (f"{head} ({hit.match_count} matches; the first {len(hit.matches)} shown)", "dim")
            ]


def grep_lines(hits: Iterable[HitRecord], *, unicode: bool, grouped: bool) -> Iterator[Line]:
    """Every hit's lines; with context asked for, ``--`` between groups, as grep does."""
    started = False
    for hit in hits:
        if grouped and started and hit.first_of_group:
            yield [("--", "dim")]
        started = True
        yield from hit_lines(hit, unicode=unicode)


def source_lines(rows: Iterable[dict[str, Any]]) -> Iterator[Line]:
    """``-c`` / ``-l`` as text: ``source:count`` or ``source`` per line, as grep prints them."""
    for row in rows:
        text = visible(row["source"])
        if "count" in row:
            text += f":{row['count']}"
        yield [(text, None)]


def grep(result: GrepRun, output: Output) -> None:
    """Hits as ``source:locator:role: line``; with a count or a listing, one source a line."""
    if result.mode == "matches":
        text_lines(match_lines(result.hits()), output)
    elif result.mode == "hits":
        grouped = bool(result.query is not None and (result.query.before or result.query.after))
        text_lines(grep_lines(result.hits(), unicode=output.color, grouped=grouped), output)
    else:
        rows, _ = result.table()
        write_lines(source_lines(rows), output.out, color=False, width=output.width)
