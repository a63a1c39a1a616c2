"""The corpus's shared machinery: messages as tools write them, stories, and how a story
becomes labelled cases.

A *family* (one module of :mod:`tools.claims_corpus.families`) is a domain and its
story: a function of a seeded ``random.Random`` that returns a :class:`Story`.  The
story holds the tool calls and results, clauses that each say one true thing about
them (several phrasings each), the planted mistakes (a clause replaced, with the
finding it must raise), traps (true clauses that tempt a false alarm) and what a long,
sectioned summary says.  :func:`story_cases` turns one story into every variant.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

Expected = tuple[tuple[str, str], ...]
Clause = Callable[[random.Random], str]
#: A planted mistake: which clause it replaces (-1: added) and its text ("" drops the clause).
Mutate = Callable[[random.Random], tuple[int, str]]
#: A planted mistake: its name, how to plant it, the findings it must raise and (optional)
#: findings it may raise besides.
Mutation = tuple[str, Mutate, Expected] | tuple[str, Mutate, Expected, Expected]

MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
#: The narrow no-break space some locales group thousands with (``1 204``).
NNBSP = "\u202f"


@dataclass(frozen=True)
class Evidence:
    """One evidence message, as the caller of the claims check gathers it."""

    locator: str
    digest: str
    role: str
    text: str
    tool_name: str | None = None
    is_error: bool = False
    tool_calls: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class Case:
    """One summary, its originals and the findings it must raise.

    ``allowed`` are findings that are neither required nor wrong (a derived total a
    check may report as ``unverified``).  ``inner_discarded``: the inner span of a
    nested case kept nothing, so the case exists only as a checkpoint (its inner
    summary is all the outer one could carry over)."""

    id: str
    domain: str
    variant: str
    seed: int
    summary: str
    evidence: tuple[Evidence, ...]
    expected: Expected
    inner_summary: str | None = None
    inner_count: int = 0
    allowed: Expected = ()
    inner_discarded: bool = False


def case_dict(case: Case) -> dict[str, Any]:
    """The case as JSON-ready plain data."""
    data = asdict(case)
    data["expected"] = [list(pair) for pair in case.expected]
    data["allowed"] = [list(pair) for pair in case.allowed]
    return data


# --------------------------------------------------------------------------- messages


def digest_of(text: str) -> str:
    return "sha1:" + hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def call(name: str, args: dict[str, Any], content: str = "") -> dict[str, Any]:
    """An assistant message that calls one tool."""
    return {"role": "assistant", "text": content, "tool_calls": ({"name": name, "args": args},)}


def result(name: str, body: Any, *, is_error: bool = False) -> dict[str, Any]:
    """A tool's result: text as is, anything else as its JSON."""
    text = body if isinstance(body, str) else json.dumps(body)
    return {"role": "tool", "text": text, "tool_name": name, "is_error": is_error}


def say(text: str) -> dict[str, Any]:
    """An assistant message without tool calls."""
    return {"role": "assistant", "text": text}


def evidence_of(messages: Sequence[dict[str, Any]], span: int) -> tuple[Evidence, ...]:
    out = []
    for i, m in enumerate(messages):
        calls = m.get("tool_calls", ())
        key = m["text"] + json.dumps(calls, sort_keys=True)
        out.append(
            Evidence(
                locator=f"f{span}:{i}",
                digest=digest_of(key),
                role=m["role"],
                text=m["text"],
                tool_name=m.get("tool_name"),
                is_error=m.get("is_error", False),
                tool_calls=tuple(calls),
            )
        )
    return tuple(out)


def table(header: Sequence[str], rows: Sequence[Sequence[Any]], gap: int = 2) -> str:
    """Rows under a header, columns padded the way CLI tools print them."""
    cells = [[str(c) for c in header], *[[str(c) for c in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    return "\n".join(
        (" " * gap).join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
        for row in cells
    )


# --------------------------------------------------------------------------- values


def money(amount: float, cents: bool = True) -> str:
    return f"{amount:,.2f}" if cents or amount != int(amount) else f"{int(amount):,}"


def norm_money(currency: str, amount: float) -> str:
    text = f"{amount:.2f}".rstrip("0").rstrip(".")
    return f"{currency} {text}"


def norm_number(amount: float) -> str:
    return f"{amount:.6f}".rstrip("0").rstrip(".")


def de(amount: float) -> str:
    """An amount the way German and most continental locales print it: ``1.204,50``."""
    return f"{amount:,.2f}".replace(",", "x").replace(".", ",").replace("x", ".")


def grouped(number: int, separator: str) -> str:
    """``1204`` with thousands grouped by ``separator`` (``,`` ``.`` a space, NNBSP)."""
    return f"{number:,}".replace(",", separator)


def date_words(rng: random.Random, y: int, m: int, d: int) -> str:
    month = MONTHS[m - 1]
    return rng.choice(
        (
            f"{y}-{m:02d}-{d:02d}",
            f"{month} {d}, {y}",
            f"{d} {month} {y}",
            f"{month[:3]} {d} {y}",
            f"{month} {d}",
        )
    )


def date_with_year(rng: random.Random, y: int, m: int, d: int) -> str:
    month = MONTHS[m - 1]
    return rng.choice((f"{y}-{m:02d}-{d:02d}", f"{month} {d}, {y}", f"{d} {month} {y}"))


def iso(y: int, m: int, d: int) -> str:
    return f"{y}-{m:02d}-{d:02d}"


def other_digits(rng: random.Random, value: int, width: int) -> int:
    while True:
        other = value + rng.choice((-1, 1)) * rng.randint(1, 9) * int(10 ** rng.randint(0, 2))
        if other != value and len(str(other)) == width:
            return other


FIRST_NAMES = ("Dana", "Priya", "Tomas", "Aiko", "Lena", "Marcus", "Sofia", "Ravi")
LAST_NAMES = ("Whitfield", "Okafor", "Lindqvist", "Moreau", "Tanaka", "Ferreira")
#: People a summary may name although the originals never do.
STRANGERS = (
    ("Gregor", "Halvorsen"),
    ("Imogen", "Castellano"),
    ("Yusuf", "Brennan"),
    ("Colette", "Abernathy"),
)


def person(rng: random.Random) -> tuple[str, str]:
    return rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)


def email(first: str, last: str, domain: str = "example.com") -> str:
    return f"{first.lower()}.{last.lower()}@{domain}"


def wrong_email(rng: random.Random, address: str) -> str:
    local, _, domain = address.partition("@")
    first, _, last = local.partition(".")
    return rng.choice(
        (f"{first}{last}@{domain}", f"{first}.{last}@example.org", f"{last}.{first}@{domain}")
    )


def hex_id(rng: random.Random, size: int) -> str:
    while True:
        text = "".join(rng.choice("0123456789abcdef") for _ in range(size))
        if not text.isdigit() and any(c.isdigit() for c in text):
            return text


def id_norm(text: str) -> str:
    return "".join(c for c in text.upper() if c.isalnum())


# --------------------------------------------------------------------------- stories


@dataclass(frozen=True)
class Trap:
    """A true clause that tempts a false alarm (a derived total, another row's status, an
    id of digit groups...).  ``allowed``: findings a check may raise on it without being
    wrong (``unverified`` for a derived value it cannot confirm)."""

    name: str
    clause: Clause
    allowed: Expected = ()


@dataclass(frozen=True)
class Sections:
    """What the long, sectioned summary says beyond the story's clauses (the shape of a
    coding agent's compaction summary: request, concepts, files, errors and fixes, pending
    tasks, current work).  Every fact here must be true of the story's originals."""

    request: str
    concepts: Sequence[str] = ()
    files: Sequence[str] = ()
    pending: Sequence[str] = ()
    next_step: str = ""
    #: Pending tasks that follow from an error: left out with the error ("Errors and fixes:
    #: None." and "retry the payment" cannot both be said).
    fixes: Sequence[str] = ()


@dataclass
class Story:
    """One story: its messages, how to summarise it, and where to plant errors."""

    domain: str
    messages: list[dict[str, Any]]
    inner_count: int  # the first N messages form the inner span of the nested variants
    clauses: Sequence[Clause]  # each renders one faithful clause
    error_clause: int  # index in ``clauses`` of the one that mentions the tool error
    dropped: str  # the normalised dropped finding when the error clause is left out
    mutations: list[Mutation]
    inner_clauses: Sequence[Clause] = ()
    invented: str = ""  # an identifier an inner summary makes up (and an outer one repeats)
    noise: list[dict[str, Any]] = field(default_factory=list)  # unrelated results, mid-story
    hard: Sequence[Clause] = ()  # tricky true clauses, all in one case
    traps: Sequence[Trap] = ()  # tricky true clauses, one case each
    sections: Sections | None = None
    #: More clauses that mention errors (a second failing result): left out together with
    #: ``error_clause`` in the sectioned summary that says "Errors and fixes: none".
    more_dropped: Expected = ()
    more_error_clauses: Sequence[int] = ()
    #: Clauses that tell the error's consequence ("the pod kept crashing"): a mention of it
    #: in other words, so left out with the error clause.
    echoes: Sequence[int] = ()
    #: What leaving the echoes out drops besides (an echo may be the only mention of a
    #: second error).
    echo_dropped: Expected = ()


def render(rng: random.Random, story: Story, replace: dict[int, str] | None = None) -> str:
    """The story as one paragraph: the first clause, the others shuffled."""
    replace = replace or {}
    parts = []
    for i, clause in enumerate(story.clauses):
        if i in replace:
            if replace[i]:
                parts.append(replace[i])
            continue
        parts.append(clause(rng))
    head, tail = parts[0], parts[1:]
    rng.shuffle(tail)
    if replace.get(-1):  # an added clause comes last
        tail.append(replace[-1])
    joined = [head]
    for part in tail:
        joined.append(rng.choice(("; ", ". ", "; ", ". ")))
        joined.append(part)
    text = "".join(joined)
    return text if text.endswith(".") else text + "."


def _sentence(text: str) -> str:
    """A clause as a sentence of its own: a capital (unless the first word is a name, an id
    or a path, which keep their case) and a full stop."""
    text = text.strip()
    first = text.split(" ", 1)[0]
    if first.isalpha() and first.islower():
        text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def render_sectioned(
    rng: random.Random, story: Story, replace: dict[int, str] | None = None
) -> str:
    """The story as a long summary in sections, the way coding agents compact a
    conversation: every clause lands in its section (errors under "Errors and fixes",
    the last one under "Current Work"), headings and all."""
    replace = replace or {}
    sections = story.sections or Sections(
        request=f"Handle the user's {story.domain.replace('_', ' ')} request end to end.",
        concepts=sorted({c["name"] for m in story.messages for c in m.get("tool_calls", ())}),
        pending=("Confirm the outcome with the user.",),
    )
    error_indexes = {story.error_clause, *story.more_error_clauses}
    silent = all(replace.get(i) == "" for i in error_indexes | set(story.echoes))
    pending = list(sections.pending) + ([] if silent else list(sections.fixes))
    facts: list[str] = []
    errors: list[str] = []
    for i, clause in enumerate(story.clauses):
        text = replace[i] if i in replace else clause(rng)
        if not text:
            continue
        (errors if i in error_indexes else facts).append(_sentence(text))
    if replace.get(-1):
        facts.append(_sentence(replace[-1]))
    current = facts.pop() if len(facts) > 1 else ""
    lines = [
        "This session is being continued from a previous conversation that ran out of "
        "context. The conversation is summarized below:",
        "",
        "Summary:",
        "1. Primary Request and Intent:",
        f"   {sections.request}",
        "",
        "2. Key Technical Concepts:",
        *(f"   - {c}" for c in sections.concepts),
        "",
        "3. Files and Code Sections:",
        *(
            (f"   - {f}" for f in sections.files)
            if sections.files
            else ["   - None: the work was done through tool calls."]
        ),
        "",
        "4. Errors and fixes:",
        *((f"   - {e}" for e in errors) if errors else ["   - None."]),
        "",
        "5. Problem Solving:",
        *(f"   - {f}" for f in facts),
        "",
        "6. Pending Tasks:",
        *((f"   - {p}" for p in pending) if pending else ["   - None."]),
        "",
        "7. Current Work:",
        f"   {current}" if current else "   Wrapping up.",
    ]
    if sections.next_step:
        lines += ["", "8. Optional Next Step:", f"   {sections.next_step}"]
    if not silent and not sections.next_step and sections.fixes:
        lines += ["", "8. Optional Next Step:", f"   {sections.fixes[0]}"]
    return "\n".join(lines)


def _mutation_expected(name: str, text: str, planted: Expected) -> Expected:
    """The expected finding of a planted error (computed here when the story left it implicit)."""
    if planted:
        return planted
    if name == "wrong-email":
        found = re.search(r"[\w.+-]+@[\w.-]+\.\w+", text)
        assert found is not None
        return (("unsupported", found.group().lower()),)
    if name == "wrong-id":
        hit = re.search(r"\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\b|\b[A-Z]{2,}\d[A-Z0-9]*\b", text)
        assert hit is not None
        return (("unsupported", id_norm(hit.group())),)
    raise AssertionError(f"no expected finding for {name}")


def _norm_any(text: str) -> str:
    """An invented identifier as the check normalises it: a path or an id with a lower-case
    prefix (``run_CQGQ25``) as written, any other without separators in upper case."""
    if "/" in text or re.fullmatch(r"[a-z]{2,6}_[A-Za-z0-9]+", text):
        return text
    return id_norm(text)


def story_cases(domain: str, seed: int, build: Callable[[random.Random], Story]) -> list[Case]:
    """The cases of one story (one family, one seed)."""
    rng = random.Random(f"{domain}:{seed}")
    story = build(rng)
    at = story.inner_count
    story.messages[at:at] = story.noise  # unrelated results between the inner and outer spans
    evidence = evidence_of(story.messages, 1)
    cases: list[Case] = []

    def add(variant: str, summary: str, expected: Expected, **extra: Any) -> None:
        cases.append(
            Case(
                id=f"{domain}-{seed}-{variant}",
                domain=domain,
                variant=variant,
                seed=seed,
                summary=summary,
                evidence=extra.pop("evidence", evidence),
                expected=expected,
                **extra,
            )
        )

    add("faithful", render(random.Random(f"{domain}:{seed}:a"), story), ())
    add("paraphrase", render(random.Random(f"{domain}:{seed}:b"), story), ())
    if story.hard:
        r = random.Random(f"{domain}:{seed}:hard")
        hard = render(r, story) + " " + ". ".join(clause(r) for clause in story.hard) + "."
        add("hard-faithful", hard, ())
    for name, mutate, planted, *more in story.mutations:
        r = random.Random(f"{domain}:{seed}:{name}")
        index, text = mutate(r)
        expected = _mutation_expected(name, text, planted)
        add(name, render(r, story, {index: text}), expected, allowed=more[0] if more else ())
    r = random.Random(f"{domain}:{seed}:omit")
    omit = {i: "" for i in (story.error_clause, *story.echoes)}
    add("omitted-error", render(r, story, omit), (("dropped", story.dropped), *story.echo_dropped))
    for trap in story.traps:
        r = random.Random(f"{domain}:{seed}:trap:{trap.name}")
        text = render(r, story, {-1: trap.clause(r)})
        add(f"trap-{trap.name}", text, (), allowed=trap.allowed)
    # the long shape: faithful, with no error owned up to, and with the first planted mistake
    add("sectioned", render_sectioned(random.Random(f"{domain}:{seed}:s"), story), ())
    silent = {i: "" for i in (story.error_clause, *story.more_error_clauses, *story.echoes)}
    add(
        "sectioned-omitted-error",
        render_sectioned(random.Random(f"{domain}:{seed}:s-omit"), story, silent),
        (("dropped", story.dropped), *story.more_dropped, *story.echo_dropped),
    )
    if story.mutations:
        name, mutate, planted, *more = story.mutations[-1]
        r = random.Random(f"{domain}:{seed}:s-{name}")
        index, text = mutate(r)
        expected = _mutation_expected(name, text, planted)
        summary = render_sectioned(r, story, {index: text})
        add(f"sectioned-{name}", summary, expected, allowed=more[0] if more else ())
    # nested: the inner span holds the first messages; the caller passes them as evidence
    inner = story.messages[: story.inner_count]
    outer = story.messages[story.inner_count :]
    nested_evidence = evidence_of(inner, 0) + evidence_of(outer, 1)
    r = random.Random(f"{domain}:{seed}:nested")
    inner_texts = [c(r) for c in story.inner_clauses]
    inner_summary = "; ".join(inner_texts) + "."
    outer_summary = render(r, story)
    add(
        "nested-faithful",
        outer_summary,
        (),
        evidence=nested_evidence,
        inner_summary=inner_summary,
        inner_count=len(inner),
    )
    invented = story.invented
    r = random.Random(f"{domain}:{seed}:invented")
    inner_invented = f"{inner_summary[:-1]}; follow-up recorded as {invented}."
    outer_repeat = render(r, story) + f" Follow-up: {invented}."
    add(
        "nested-invented",
        outer_repeat,
        (("unsupported", _norm_any(invented)),),
        evidence=nested_evidence,
        inner_summary=inner_invented,
        inner_count=len(inner),
    )
    # the inner fold kept nothing: the outer summary carries the inner summary's words over
    # (which nothing retained can confirm, and nothing shows wrong), then tells the errors
    # of the outer span; other facts may come from the discarded originals alone
    r = random.Random(f"{domain}:{seed}:discarded")
    errors = [story.clauses[i](r) for i in (story.error_clause, *story.more_error_clauses)]
    add(
        "nested-discarded",
        _sentence("; ".join(inner_texts)) + " " + " ".join(_sentence(e) for e in errors),
        (),
        evidence=nested_evidence,
        inner_summary=inner_summary,
        inner_count=len(inner),
        inner_discarded=True,
    )
    return cases
