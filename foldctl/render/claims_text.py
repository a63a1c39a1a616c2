"""Human text and markdown for ``claims``: each finding under its summary, the atom marked
in the summary's sentence, and the original's line beside it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from foldctl.claims.record import ClaimsResult
from foldctl.render import Line, Output
from foldctl.render.claim_notes import finding_lines
from foldctl.render.markdown import claim_items, code
from foldctl.render.sink import markdown_lines, text_lines
from foldctl.termsafe import visible


def _lines(result: ClaimsResult, unicode: bool) -> Iterator[Line]:
    counted: Counter[str] = Counter()
    for source, findings in result.sources:
        for f in findings:
            x = f.finding
            counted[x.kind if x.atom_kind != "summary" else "summary"] += 1
            yield from finding_lines(f, f"{visible(source)}:{f.frame}: ", unicode)
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
            yield from claim_items(f)
        yield ""


def claims_markdown(result: ClaimsResult, output: Output) -> None:
    markdown_lines(_markdown(result), output)
