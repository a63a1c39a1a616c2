"""Human text and markdown for ``claims``: each finding under its summary, the atom marked
in the summary's sentence, and the original's line beside it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from foldctl.claims.record import ClaimsResult, SummaryFinding
from foldctl.render import Line, Output
from foldctl.render.cells import truncate
from foldctl.render.markdown import code, inline
from foldctl.render.sink import markdown_lines, text_lines
from foldctl.termsafe import visible

_STYLE = {
    "contradicted": "bold red",
    "dropped": "red",
    "unsupported": "yellow",
    "unverified": "cyan",
}
_SAYS = {
    "contradicted": "the originals say otherwise",
    "dropped": "an error in the originals that the summary does not mention",
    "unsupported": "appears nowhere in what the summary stands for",
    "unverified": "said to be worked out from the originals, and it does not follow from them",
    "unverifiable": "no retained originals to check against",
}
_EXCERPT = 240


def _marked(f: SummaryFinding, left: str, right: str) -> str:
    """The summary's sentence with the atom marked, cut around it when long."""
    x = f.finding
    if x.sentence is None or x.start is None or x.end is None:
        return ""
    before, atom, after = x.sentence[: x.start], x.sentence[x.start : x.end], x.sentence[x.end :]
    if len(before) > _EXCERPT // 2:
        before = "…" + before[-(_EXCERPT // 2) :]
    if len(after) > _EXCERPT // 2:
        after = after[: _EXCERPT // 2] + "…"
    return f"{before}{left}{atom}{right}{after}".replace("\n", " ")


def _cited(f: SummaryFinding) -> str:
    x = f.finding
    refs = [r.locator for r in x.evidence]
    if x.kind in ("unsupported", "unverified"):
        ends = " … ".join(dict.fromkeys(refs))
        return f"searched {x.searched} message(s){f' ({ends})' if ends else ''}"
    return ", ".join(refs[:6]) + (f" and {len(refs) - 6} more" if len(refs) > 6 else "")


def _says(f: SummaryFinding) -> str:
    x = f.finding
    if x.kind == "unverifiable" and x.atom_kind != "summary":
        return "carried over from a summary whose originals were discarded"
    return _SAYS[x.kind]


def _lines(result: ClaimsResult, unicode: bool) -> Iterator[Line]:
    arrow = "↳ " if unicode else "-> "
    counted: Counter[str] = Counter()
    for source, findings in result.sources:
        for f in findings:
            x = f.finding
            counted[x.kind if x.atom_kind != "summary" else "summary"] += 1
            span = "no span" if f.span is None else f"span {f.span}"
            head: Line = [
                (f"{visible(source)}:{f.frame}: ", "magenta"),
                (f"{x.kind} ", _STYLE.get(x.kind, "dim")),
                (f"{x.atom_kind} {truncate(visible(x.atom), 80)!s}", "bold"),
                (f"  (summary of {span}: {_says(f)})", "dim"),
            ]
            yield head
            marked = _marked(f, "[[", "]]")
            if marked:
                yield [("    summary: ", "dim"), (visible(marked), None)]
            if x.expected is not None:
                yield [("    originals: ", "dim"), (visible(x.expected), "bold")]
            if f.line:
                yield [("    " + arrow, "dim"), (visible(f.line), None)]
            if x.kind != "unverifiable" or x.evidence:
                yield [("    evidence: ", "dim"), (_cited(f), None)]
    checked = len(result.sources)
    wrong = result.wrong
    line = (
        f"{checked} source(s) checked; {wrong} finding(s) that a summary is wrong; "
        f"{counted['summary']} summary(ies) unverifiable"
    )
    if counted["unverified"]:
        line += f"; {counted['unverified']} worked-out value(s) unverified"
    if counted["unverifiable"]:
        line += f"; {counted['unverifiable']} fact(s) carried over unverifiable"
    yield [(line, "bold" if wrong else "green")]


def claims(result: ClaimsResult, output: Output) -> None:
    text_lines(_lines(result, output.color), output)


def _markdown(result: ClaimsResult) -> Iterator[str]:
    yield "# Summary claims checked against their originals"
    yield ""
    for source, findings in result.sources:
        yield f"## {code(source)}"
        yield ""
        if not findings:
            yield "No finding: every summary checked says what its originals say."
            yield ""
        for f in findings:
            x = f.finding
            span = "no span" if f.span is None else f"span {f.span}"
            yield (
                f"- **{x.kind}** {inline(x.atom_kind)} {code(x.atom)} — summary "
                f"{code(f.frame)} of {span}"
            )
            marked = _marked(f, "**", "**")
            if marked:
                yield f"  - summary: {inline(marked).replace(chr(92) + '*' + chr(92) + '*', '**')}"
            if x.expected is not None:
                yield f"  - originals: {code(x.expected)}"
            if f.line:
                yield f"  - original line: {code(f.line)}"
            if x.kind != "unverifiable" or x.evidence:
                yield f"  - evidence: {inline(_cited(f))}"
        yield ""


def claims_markdown(result: ClaimsResult, output: Output) -> None:
    markdown_lines(_markdown(result), output)
