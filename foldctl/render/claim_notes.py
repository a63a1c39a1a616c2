"""A claims finding in words, as every human format says it: what each kind means, the
summary's sentence with the atom marked, and the originals it cites.

Shared by ``claims`` (text and markdown) and ``expand``'s summaries, so a finding reads
the same wherever it is shown.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from foldctl.render import Line
from foldctl.render.cells import truncate
from foldctl.termsafe import visible

SAYS: Final = {
    "contradicted": "the originals say otherwise",
    "dropped": "an error in the originals that the summary does not mention",
    "unsupported": "appears nowhere in what the summary stands for",
    "unverified": "said to be worked out from the originals, and it does not follow from them",
    "unverifiable": "no retained originals to check against",
}
#: an ``unverifiable`` finding about one fact, not a whole summary
_CARRIED: Final = "carried over from a summary whose originals were discarded"
_EXCERPT = 240

if TYPE_CHECKING:
    from foldctl.claims.record import SummaryFinding


def marked(f: SummaryFinding, left: str, right: str) -> str:
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


def says(f: SummaryFinding) -> str:
    """What a finding's kind means, in words."""
    x = f.finding
    if x.kind == "unverifiable" and x.atom_kind != "summary":
        return _CARRIED
    return SAYS[x.kind]


def cites(f: SummaryFinding) -> bool:
    """Whether a finding has originals to cite (a whole summary whose originals were
    discarded has none; a fact carried over from it cites that summary)."""
    return f.finding.kind != "unverifiable" or bool(f.finding.evidence)


def cited(f: SummaryFinding) -> str:
    """The originals a finding rests on: the locators of its evidence, or for an
    unsupported or unverified atom how many messages were searched."""
    x = f.finding
    refs = [r.locator for r in x.evidence]
    if x.kind in ("unsupported", "unverified"):
        ends = " … ".join(dict.fromkeys(refs))
        return f"searched {x.searched} message(s){f' ({ends})' if ends else ''}"
    return ", ".join(refs[:6]) + (f" and {len(refs) - 6} more" if len(refs) > 6 else "")


_STYLE: Final = {
    "contradicted": "bold red",
    "dropped": "red",
    "unsupported": "yellow",
    "unverified": "cyan",
}


def finding_lines(f: SummaryFinding, head: str, unicode: bool, indent: str = "") -> Iterator[Line]:
    """A finding as text: ``head``, its kind and atom, then the summary's sentence with
    the atom marked, what the originals say, the original's line and the evidence."""
    arrow = "↳ " if unicode else "-> "
    x = f.finding
    span = "no span" if f.span is None else f"span {f.span}"
    yield [
        (indent + head, "magenta"),
        (f"{x.kind} ", _STYLE.get(x.kind, "dim")),
        (f"{x.atom_kind} {truncate(visible(x.atom), 80)!s}", "bold"),
        (f"  (summary of {span}: {says(f)})", "dim"),
    ]
    sentence = marked(f, "[[", "]]")
    if sentence:
        yield [(f"{indent}    summary: ", "dim"), (visible(sentence), None)]
    if x.expected is not None:
        yield [(f"{indent}    originals: ", "dim"), (visible(x.expected), "bold")]
    if f.line:
        yield [(f"{indent}    {arrow}", "dim"), (visible(f.line), None)]
    if cites(f):
        yield [(f"{indent}    evidence: ", "dim"), (cited(f), None)]
