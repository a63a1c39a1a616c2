"""The held-out families of the claims check: stories no rule is ever tuned on.

Each ``*.json`` file beside this module is one *family*: a domain and its story
(the messages an agent lived through: tool calls and the results tools print),
and labelled summaries of it.  ``README.md`` gives the rule (no rule or
vocabulary of the check is ever changed because of these cases; families are
added, never moved out), the label format and how a case is scored.

The set is scored only end to end: each case is written as a real checkpoint
(its summary a frame in the live window, its originals the folded span's
messages, a nested case's inner summary folded inside), loaded and joined by
foldctl, and checked by the claims check the command runs.  The one call into
the check is :func:`run_claims`, so the set outlives any rewrite of the
engine behind it.

    load_families()      every family, validated (HeldoutError names what is wrong)
    case_checkpoint(c)   one case as a checkpoint document
    score()              per-kind tp/fp/fn, precision, recall, per family, and the misses
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from foldctl.fingerprint import fnv1a32
from tools.claims_corpus import KINDS, Score, score_table
from tools.generate import frame_text

if TYPE_CHECKING:
    from foldctl.claims import ClaimFinding

__all__ = [
    "KINDS",
    "PLANTED",
    "QUIET",
    "Family",
    "Found",
    "HeldoutError",
    "Miss",
    "Result",
    "Score",
    "case_checkpoint",
    "case_findings",
    "cases",
    "family_table",
    "found_of",
    "load_families",
    "match_case",
    "on_derived",
    "placed",
    "planted",
    "run_claims",
    "score",
    "score_table",
]

HERE: Final = Path(__file__).resolve().parent

#: The finding kinds the set is scored on (``unverifiable`` and any info-level kind are not):
#: ``KINDS``, as the labelled corpus scores them, with its ``Score`` and ``score_table``.

#: Variants whose summary must raise no finding of those kinds.
QUIET: Final = frozenset({"faithful", "paraphrase", "derived", "trap", "nested-faithful"})

#: Variants with at least one planted error.
PLANTED: Final = frozenset(
    {
        "wrong-status",  # a status in other words, contradicting the originals
        "wrong-outcome",  # the right number with the wrong outcome
        "wrong-state",  # an entity's state (has shipped vs backordered)
        "wrong-level",  # SEV1 vs SEV2, P1 vs P3, HTTP 4xx vs 5xx, an exit code
        "wrong-value",  # a wrong id, amount, date, email, count
        "other-entity",  # a value that belongs to another entity (the option not chosen)
        "false-success",  # "restored successfully" over a failed result
        "invented",  # a handle or a person's name nowhere in the originals
        "dropped-error",  # an error result the summary never mentions
        "nested-invented",  # the inner summary invents a fact, the outer one repeats it
    }
)

ROLES: Final = frozenset({"system", "user", "assistant", "tool"})
MODEL: Final = "summarizer-mini"
T0: Final = 1_790_000_000_000


class HeldoutError(ValueError):
    """A family file that does not follow the label format: one line naming the file,
    the JSON path and what was expected."""


# --------------------------------------------------------------------------- loading


@dataclass(frozen=True)
class Family:
    """One family: its name, title, file, and its cases in the label format (README.md)."""

    name: str
    title: str
    path: Path
    cases: tuple[dict[str, Any], ...]


def load_families(directory: Path = HERE) -> list[Family]:
    """Every family file in ``directory``, read and validated, in name order; case ids are
    unique across them."""
    families = [load_family(path) for path in sorted(directory.glob("*.json"))]
    seen: dict[str, Path] = {}
    for family in families:
        for n, case in enumerate(family.cases):
            if case["id"] in seen:
                raise HeldoutError(
                    f"{family.path}: $.cases[{n}].id: {case['id']!r} is already a case of "
                    f"{seen[case['id']].name}; expected ids unique across the set"
                )
            seen[case["id"]] = family.path
    return families


def load_family(path: Path) -> Family:
    """One family file, read and validated; each case's ``messages`` resolved to its story."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise HeldoutError(f"{path}: cannot be read as JSON: {e}") from None
    return validate_family(data, path)


def validate_family(data: Any, path: Path) -> Family:
    """Check one family document against the label format and return it with every case's
    ``messages`` a list of messages."""
    where = _Where(path)
    doc = where.obj(data, "$")
    name = where.text(doc, "family", "$")
    if not name or not name.replace("_", "").isalnum() or name != path.stem:
        raise where.error("$.family", f"expected the file's name {path.stem!r}, got {name!r}")
    title = where.text(doc, "title", "$")
    where.text(doc, "about", "$")
    stories_doc = where.obj(doc.get("stories"), "$.stories")
    stories = {
        key: _valid_messages(where, value, f"$.stories.{key}") for key, value in stories_doc.items()
    }
    raw_cases = doc.get("cases")
    if not isinstance(raw_cases, list) or not raw_cases:
        raise where.error("$.cases", "expected a non-empty array of cases")
    cases = []
    ids: set[str] = set()
    for n, raw in enumerate(raw_cases):
        case = _valid_case(where, raw, f"$.cases[{n}]", stories)
        if not case["id"].startswith(f"{name}-"):
            raise where.error(f"$.cases[{n}].id", f"expected an id starting {name + '-'!r}")
        if case["id"] in ids:
            raise where.error(f"$.cases[{n}].id", f"{case['id']!r} is used twice")
        ids.add(case["id"])
        cases.append(case)
    return Family(name, title, path, tuple(cases))


class _Where:
    """Error messages that name the file and the JSON path."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def error(self, at: str, what: str) -> HeldoutError:
        return HeldoutError(f"{self.path}: {at}: {what}")

    def obj(self, value: Any, at: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.error(at, f"expected an object, got {type(value).__name__}")
        return value

    def text(self, obj: Mapping[str, Any], key: str, at: str) -> str:
        value = obj.get(key)
        if not isinstance(value, str) or not value:
            raise self.error(f"{at}.{key}", "expected a non-empty string")
        return value


def _valid_messages(where: _Where, value: Any, at: str) -> list[dict[str, Any]]:
    """A story: agentfootprint messages, every tool result answering an earlier call of the
    same tool by id, every call id used once."""
    if not isinstance(value, list) or not value:
        raise where.error(at, "expected a non-empty array of messages")
    calls: dict[str, str] = {}
    answered: set[str] = set()
    for n, message in enumerate(value):
        here = f"{at}[{n}]"
        m = where.obj(message, here)
        if m.get("role") not in ROLES:
            raise where.error(f"{here}.role", f"expected one of {sorted(ROLES)}")
        if not isinstance(m.get("content"), str):
            raise where.error(f"{here}.content", "expected a string")
        for k, call in enumerate(m.get("toolCalls") or []):
            c = where.obj(call, f"{here}.toolCalls[{k}]")
            if m["role"] != "assistant":
                raise where.error(f"{here}.toolCalls", "expected tool calls on assistant messages")
            for key in ("id", "name"):
                where.text(c, key, f"{here}.toolCalls[{k}]")
            where.obj(c.get("args"), f"{here}.toolCalls[{k}].args")
            if c["id"] in calls:
                raise where.error(f"{here}.toolCalls[{k}].id", f"{c['id']!r} is used twice")
            calls[c["id"]] = c["name"]
        if m["role"] == "tool":
            call_id = where.text(m, "toolCallId", here)
            tool = where.text(m, "toolName", here)
            if calls.get(call_id) != tool or call_id in answered:
                raise where.error(
                    f"{here}.toolCallId",
                    f"{call_id!r} answers no earlier unanswered call of {tool!r}",
                )
            answered.add(call_id)
    return list(value)


CASE_KEYS: Final = frozenset(
    {"id", "variant", "summary", "messages", "inner", "expected", "derived"}
)
EXPECTED_KEYS: Final = frozenset({"kind", "text", "tool", "accept"})


def _valid_keys(where: _Where, obj: Mapping[str, Any], allowed: frozenset[str], at: str) -> None:
    unknown = sorted(set(obj) - allowed)
    if unknown:
        raise where.error(f"{at}.{unknown[0]}", f"unknown key; expected one of {sorted(allowed)}")


def _valid_case(
    where: _Where, raw: Any, at: str, stories: Mapping[str, list[dict[str, Any]]]
) -> dict[str, Any]:
    case = dict(where.obj(raw, at))
    _valid_keys(where, case, CASE_KEYS, at)
    where.text(case, "id", at)
    variant = where.text(case, "variant", at)
    summary = where.text(case, "summary", at)
    if variant not in QUIET | PLANTED:
        raise where.error(f"{at}.variant", f"expected one of {sorted(QUIET | PLANTED)}")
    messages = case.get("messages")
    if isinstance(messages, str):
        if messages not in stories:
            raise where.error(f"{at}.messages", f"no story named {messages!r} in $.stories")
        case["messages"] = stories[messages]
    else:
        case["messages"] = _valid_messages(where, messages, f"{at}.messages")
    case["inner"] = _valid_inner(where, case.get("inner"), f"{at}.inner", case["messages"])
    tools = {m["toolName"] for m in case["messages"] if m["role"] == "tool"}
    expected = case.get("expected")
    if not isinstance(expected, list):
        raise where.error(f"{at}.expected", "expected an array")
    for k, item in enumerate(expected):
        here = f"{at}.expected[{k}]"
        e = where.obj(item, here)
        _valid_keys(where, e, EXPECTED_KEYS, here)
        if e.get("kind") not in KINDS:
            raise where.error(f"{here}.kind", f"expected one of {list(KINDS)}")
        if ("tool" in e) != (e["kind"] == "dropped") or ("text" in e) == (e["kind"] == "dropped"):
            raise where.error(here, 'expected {kind, text} or {kind: "dropped", tool}')
        if e["kind"] == "dropped":
            tool = where.text(e, "tool", here)
            if tool not in tools:
                raise where.error(f"{here}.tool", f"no tool result of {tool!r} in the messages")
        else:
            _valid_text(where, summary, where.text(e, "text", here), f"{here}.text")
        accept = e.setdefault("accept", [])
        if not isinstance(accept, list) or not set(accept) <= set(KINDS) - {e["kind"]}:
            raise where.error(f"{here}.accept", "expected an array of the other kinds")
        if "dropped" in accept or (accept and e["kind"] == "dropped"):
            raise where.error(f"{here}.accept", "a dropped error is found only as dropped")
    if variant in QUIET and expected:
        raise where.error(f"{at}.expected", f"a {variant} case expects no finding")
    if variant in PLANTED and not expected:
        raise where.error(f"{at}.expected", f"a {variant} case plants at least one error")
    derived = case.get("derived", [])
    if not isinstance(derived, list):
        raise where.error(f"{at}.derived", "expected an array of strings")
    for k, text in enumerate(derived):
        if not isinstance(text, str) or not text:
            raise where.error(f"{at}.derived[{k}]", "expected a non-empty string")
        _valid_text(where, summary, text, f"{at}.derived[{k}]")
    case["derived"] = derived
    return case


def _valid_text(where: _Where, summary: str, text: str, at: str) -> None:
    count = summary.count(text)
    if count != 1:
        found = "not in" if count == 0 else f"{count} times in"
        raise where.error(at, f"{text!r} is {found} the summary; expected exactly once")


def _valid_inner(
    where: _Where, value: Any, at: str, messages: Sequence[dict[str, Any]]
) -> dict[str, Any] | None:
    if value is None:
        return None
    inner = where.obj(value, at)
    where.text(inner, "summary", at)
    count = inner.get("count")
    if not isinstance(count, int) or isinstance(count, bool) or not 0 < count < len(messages):
        raise where.error(f"{at}.count", f"expected an integer from 1 to {len(messages) - 1}")
    outer_calls = {c["id"] for m in messages[count:] for c in m.get("toolCalls") or []}
    for n, m in enumerate(messages[count:], count):
        if m["role"] == "tool" and m["toolCallId"] not in outer_calls:
            raise where.error(
                f"{at}.count", f"the fold separates message {n}, a tool result, from its call"
            )
    return inner


def cases(families: Iterable[Family]) -> list[tuple[Family, dict[str, Any]]]:
    return [(family, case) for family in families for case in family.cases]


# --------------------------------------------------------------------------- checkpoints

#: Where the case's own summary sits in :func:`case_checkpoint`'s document.
SUMMARY_FRAME: Final = "h0"


def case_checkpoint(case: Mapping[str, Any]) -> dict[str, Any]:
    """A case as the reference runtime would have stored it: the summary is a frame in the
    live window and its originals the span's messages; a nested case folds its inner
    originals first, under the inner summary, inside the outer span."""
    messages: list[dict[str, Any]] = list(case["messages"])
    inner = case["inner"]
    folded: list[dict[str, Any]] = []
    outer = messages
    if inner is not None:
        count = inner["count"]
        frame = frame_text(count, 3, MODEL, "conversation", inner["summary"])
        folded.append(_span(frame, messages[:count], 3, T0 + 1_000))
        outer = [{"role": "user", "content": frame}, *messages[count:]]
    frame = frame_text(len(outer), 6, MODEL, "conversation", case["summary"])
    folded.append(_span(frame, outer, 6, T0 + 2_000))
    request = next((m["content"] for m in messages if m["role"] == "user"), "")
    return {
        "version": 1,
        "runId": f"run-{case['id']}",
        "history": [
            {"role": "user", "content": frame},
            {"role": "assistant", "content": "Continuing from the summary above."},
        ],
        "lastCompletedIteration": 7,
        "originalInput": {"message": request},
        "checkpointedAt": T0 + 10_000,
        "folded": folded,
    }


def _span(frame: str, messages: list[dict[str, Any]], iteration: int, at: int) -> dict[str, Any]:
    stages: list[str] = []
    step = 0
    for m in messages:
        if m["role"] == "assistant":
            step += 1
        if m["role"] == "user":
            stage = "compact#1" if m["content"].startswith("[compacted history") else "seed#0"
        else:
            stage = f"tool-calls#{23 * step}"
        if stage not in stages:
            stages.append(stage)
    return {
        "summaryFingerprint": fnv1a32(frame),
        "runId": "run-1",
        "iteration": iteration,
        "foldedAtMs": at,
        "model": MODEL,
        "messageCount": len(messages),
        "removedStageIds": stages,
        "retained": "conversation",
        "messages": messages,
    }


# --------------------------------------------------------------------------- the check


@dataclass(frozen=True)
class Found:
    """One finding about a case's summary, as the scorer reads it: its kind, where its
    atom is in the summary (``None`` when it names no place), and for ``dropped`` the tool
    whose error it reports."""

    kind: str
    start: int | None
    end: int | None
    atom: str
    tool: str | None = None
    sentence: str | None = None  # where the finding names a sentence but no offset


def run_claims(checkpoint: dict[str, Any]) -> dict[str, list[Found]]:
    """The claims check, end to end, on one checkpoint: every finding, by the locator of
    the summary it concerns.  The only place the set calls the check: repoint it here when
    the check's API changes."""
    import foldctl
    from foldctl.claims.record import check_graph

    graph = foldctl.open(checkpoint).graph
    out: dict[str, list[Found]] = {}
    for found in check_graph(graph):
        out.setdefault(found.frame, []).append(found_of(found.finding))
    return out


def found_of(f: ClaimFinding) -> Found:
    """One finding of the check as the scorer reads it: its atom's place in the summary
    (the sentence's offset plus the atom's offsets in it), and a dropped error's tool."""
    start = end = None
    if f.offset is not None and f.start is not None and f.end is not None:
        start, end = f.offset + f.start, f.offset + f.end
    tool = (f.normalised.partition(":")[2] or None) if f.kind == "dropped" else None
    return Found(f.kind, start, end, f.atom, tool, f.sentence)


def case_findings(case: Mapping[str, Any]) -> list[Found]:
    """The findings about the case's own summary (not its inner one), each placed in the
    summary: by its offsets, else by finding its sentence and its atom in that sentence."""
    return placed(case["summary"], run_claims(case_checkpoint(case)).get(SUMMARY_FRAME, []))


def placed(summary: str, found: Iterable[Found]) -> list[Found]:
    """Findings about ``summary``, each placed in it: by its offsets, else by finding its
    sentence and its atom in that sentence."""
    out = []
    for f in found:
        if f.start is None and f.sentence and f.atom and f.sentence in summary:
            base = summary.index(f.sentence)
            at = f.sentence.find(f.atom)
            if at >= 0:
                f = Found(f.kind, base + at, base + at + len(f.atom), f.atom, f.tool, f.sentence)
        out.append(f)
    return out


# --------------------------------------------------------------------------- scoring


@dataclass(frozen=True)
class Miss:
    """A planted error not found (``fn``) or a finding that is no planted error (``fp``;
    ``derived`` when it falls on a correct derived value)."""

    family: str
    case: str
    what: str  # "fn", "fp" or "derived"
    kind: str
    text: str  # the expected text or tool, or the finding's atom
    summary: str


@dataclass
class Result:
    scores: dict[str, Score]
    families: dict[str, dict[str, Score]]
    misses: list[Miss] = field(default_factory=list)
    cases: int = 0


def _spans(summary: str, text: str) -> tuple[int, int]:
    start = summary.index(text)
    return start, start + len(text)


def _overlaps(found: Found, span: tuple[int, int]) -> bool:
    if found.start is None or found.end is None:
        return False
    return found.start < span[1] and span[0] < max(found.end, found.start + 1)


def _hits(found: Found, expected: Mapping[str, Any], summary: str) -> bool:
    if found.kind != expected["kind"] and found.kind not in expected.get("accept", ()):
        return False
    if found.kind == "dropped":
        return found.tool is not None and found.tool == expected["tool"]
    return _overlaps(found, _spans(summary, expected["text"]))


def match_case(
    case: Mapping[str, Any], found: Sequence[Found], family: str = ""
) -> tuple[dict[str, Score], list[Miss]]:
    """Score one case's findings against its labels.

    An expected error is found when a finding of its kind (or of a kind its ``accept``
    lists) overlaps its text in the summary (``dropped``: names its tool); several
    findings on one expected error count once, under the expected kind.  Every other
    finding of a scored kind is a false positive, marked ``derived`` when it falls on one
    of the case's correct derived values."""
    scores = {kind: Score() for kind in KINDS}
    misses: list[Miss] = []
    summary = case["summary"]
    scored = [f for f in found if f.kind in KINDS]
    for e in case["expected"]:
        if any(_hits(f, e, summary) for f in scored):
            scores[e["kind"]].tp += 1
        else:
            scores[e["kind"]].fn += 1
            what = e.get("tool") or e["text"]
            misses.append(Miss(family, case["id"], "fn", e["kind"], what, summary))
    for f in scored:
        if any(_hits(f, e, summary) for e in case["expected"]):
            continue
        scores[f.kind].fp += 1
        what = "derived" if on_derived(case, f) else "fp"
        misses.append(Miss(family, case["id"], what, f.kind, f.atom, summary))
    return scores, misses


def on_derived(case: Mapping[str, Any], found: Found) -> bool:
    """Whether a finding falls on one of the case's correct derived values."""
    return any(_overlaps(found, _spans(case["summary"], text)) for text in case["derived"])


def score(families: Sequence[Family] | None = None) -> Result:
    """Every case checked end to end and matched against its labels."""
    chosen = load_families() if families is None else families
    result = Result({kind: Score() for kind in KINDS}, {})
    for family, case in cases(chosen):
        scores, misses = match_case(case, case_findings(case), family.name)
        per_family = result.families.setdefault(family.name, {k: Score() for k in KINDS})
        for kind, s in scores.items():
            for total in (result.scores[kind], per_family[kind]):
                total.tp += s.tp
                total.fp += s.fp
                total.fn += s.fn
        result.misses += misses
        result.cases += 1
    return result


def planted(case: Mapping[str, Any]) -> Counter[str]:
    """How many errors of each kind the case plants."""
    return Counter(e["kind"] for e in case["expected"])


def family_table(families: Sequence[Family], result: Result | None = None) -> str:
    """Per family: its cases, its quiet cases, and per kind the errors it plants (and,
    given a result, how many of them the check found, and its false positives there)."""
    cols = ("planted", "tp", "fp") if result is not None else ("planted",)
    width = 8 * len(cols)
    lines = [
        " " * 26 + "".join(f"  {kind:>{width}}" for kind in KINDS),
        f"{'family':14}{'cases':>6}{'quiet':>6}"
        + "".join("  " + "".join(f"{c:>8}" for c in cols) for _ in KINDS),
    ]
    for family in families:
        quiet = sum(1 for c in family.cases if not c["expected"])
        kinds = Counter[str]()
        for c in family.cases:
            kinds += planted(c)
        line = f"{family.name:14}{len(family.cases):6d}{quiet:6d}"
        for kind in KINDS:
            cells = [kinds[kind]]
            if result is not None:
                s = result.families.get(family.name, {}).get(kind, Score())
                cells += [s.tp, s.fp]
            line += "  " + "".join(f"{n:8d}" for n in cells)
        lines.append(line)
    return "\n".join(lines)
