"""A labelled corpus for the claims check: summaries, their evidence, and the expected findings.

Deterministic (``build_corpus(seeds)`` gives the same cases for the same
seeds).  Eight domains (customer-support refunds, deploys/CI, e-commerce
orders, incidents/on-call, database migrations, travel booking, HR/IT
tickets, finance invoices), each a small *story*: tool calls and results
(JSON and ``key: value`` text, the way agent tools answer), with one tool
error along the way, and facts drawn per seed (ids, amounts, dates, emails,
statuses).  Each story yields cases:

* ``faithful`` and ``paraphrase``: summaries that say only what the evidence
  says, in varied words (amounts without cents, dates in words, status
  synonyms, facts reordered, the error mentioned in different ways) -> no
  findings;
* one planted error each: ``wrong-id``, ``wrong-amount`` (an amount given to
  an entity whose amount the evidence states: ``contradicted``),
  ``wrong-count``, ``wrong-date``, ``wrong-email`` (``unsupported``),
  ``wrong-status`` (``contradicted``), ``omitted-error`` (``dropped``);
* ``nested-faithful``: the story is folded twice; the outer summary repeats
  facts that live only in the inner span's originals (which the caller passes
  as evidence) -> no findings;
* ``nested-invented``: the inner summary invents an identifier and the outer
  one repeats it; the inner summary is a claim, not evidence -> the outer
  summary's copy is ``unsupported``.

Case structure (plain data; :func:`case_dict` gives the JSON-ready form the
project generator can turn into real checkpoints)::

    Case(
        id="support-3-wrong-status",          # domain-seed-variant
        domain="support", variant="wrong-status", seed=3,
        summary="...",                        # the summary text (no frame label)
        evidence=(Evidence(locator="f1:0", digest="sha1:...", role="assistant",
                           text="", tool_name=None, is_error=False,
                           tool_calls=({"name": "lookup_account", "args": {...}},)), ...),
        expected=(("contradicted", "approved"),),   # (kind, normalised atom)
        inner_summary=None,                   # nested cases: the inner span's summary
        inner_count=0,                        # nested: evidence[:inner_count] is the inner span
    )

Normalised atoms follow ``docs/claims.md`` (``RF9121``, ``USD 480``,
``EUR 598``, ``2026-04-03``, ``418 test``, ``approved``; ``dropped`` is
``CLASS:TOOL``, e.g. ``rate_limit:issue_refund``).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from foldctl.claims import (
    EvidenceIndex,
    EvidenceRef,
    MessageAtoms,
    check_summary,
    evidence_text,
    index_message,
)
from foldctl.fingerprint import fnv1a32
from tools.generate import frame_text

Expected = tuple[tuple[str, str], ...]

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
    id: str
    domain: str
    variant: str
    seed: int
    summary: str
    evidence: tuple[Evidence, ...]
    expected: Expected
    inner_summary: str | None = None
    inner_count: int = 0


def case_dict(case: Case) -> dict[str, Any]:
    """The case as JSON-ready plain data."""
    data = asdict(case)
    data["expected"] = [list(pair) for pair in case.expected]
    return data


# --------------------------------------------------------------------------- helpers


def _digest(text: str) -> str:
    return "sha1:" + hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def _call(name: str, args: dict[str, Any], content: str = "") -> dict[str, Any]:
    return {"role": "assistant", "text": content, "tool_calls": ({"name": name, "args": args},)}


def _result(name: str, body: Any, *, is_error: bool = False) -> dict[str, Any]:
    text = body if isinstance(body, str) else json.dumps(body)
    return {"role": "tool", "text": text, "tool_name": name, "is_error": is_error}


def _evidence(messages: Sequence[dict[str, Any]], span: int) -> tuple[Evidence, ...]:
    out = []
    for i, m in enumerate(messages):
        calls = m.get("tool_calls", ())
        key = m["text"] + json.dumps(calls, sort_keys=True)
        out.append(
            Evidence(
                locator=f"f{span}:{i}",
                digest=_digest(key),
                role=m["role"],
                text=m["text"],
                tool_name=m.get("tool_name"),
                is_error=m.get("is_error", False),
                tool_calls=tuple(calls),
            )
        )
    return tuple(out)


def _money(amount: float, cents: bool = True) -> str:
    return f"{amount:,.2f}" if cents or amount != int(amount) else f"{int(amount):,}"


def _norm_money(currency: str, amount: float) -> str:
    text = f"{amount:.2f}".rstrip("0").rstrip(".")
    return f"{currency} {text}"


def _date_words(rng: random.Random, y: int, m: int, d: int) -> str:
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


def _date_with_year(rng: random.Random, y: int, m: int, d: int) -> str:
    month = MONTHS[m - 1]
    return rng.choice((f"{y}-{m:02d}-{d:02d}", f"{month} {d}, {y}", f"{d} {month} {y}"))


def _iso(y: int, m: int, d: int) -> str:
    return f"{y}-{m:02d}-{d:02d}"


def _other_digits(rng: random.Random, value: int, width: int) -> int:
    while True:
        other = value + rng.choice((-1, 1)) * rng.randint(1, 9) * int(10 ** rng.randint(0, 2))
        if other != value and len(str(other)) == width:
            return other


def _name(rng: random.Random) -> tuple[str, str]:
    first = rng.choice(("Dana", "Priya", "Tomas", "Aiko", "Lena", "Marcus", "Sofia", "Ravi"))
    last = rng.choice(("Whitfield", "Okafor", "Lindqvist", "Moreau", "Tanaka", "Ferreira"))
    return first, last


def _email(first: str, last: str, domain: str = "example.com") -> str:
    return f"{first.lower()}.{last.lower()}@{domain}"


def _wrong_email(rng: random.Random, email: str) -> str:
    local, _, domain = email.partition("@")
    first, _, last = local.partition(".")
    return rng.choice(
        (f"{first}{last}@{domain}", f"{first}.{last}@example.org", f"{last}.{first}@{domain}")
    )


@dataclass
class Story:
    """One story: its messages, how to summarise it, and where to plant errors."""

    domain: str
    messages: list[dict[str, Any]]
    inner_count: int  # the first N messages form the inner span of the nested variants
    clauses: Sequence[Callable[[random.Random], str]]  # each renders one faithful clause
    error_clause: int  # index in ``clauses`` of the one that mentions the tool error
    dropped: str  # the normalised dropped finding when the error clause is left out
    mutations: list[tuple[str, Callable[[random.Random], tuple[int, str]], Expected]]
    inner_clauses: Sequence[Callable[[random.Random], str]] = ()
    invented: str = ""  # an identifier an inner summary makes up (and an outer one repeats)
    noise: list[dict[str, Any]] = field(default_factory=list)  # unrelated results, mid-story
    hard: Sequence[Callable[[random.Random], str]] = ()  # tricky true clauses


def _render(rng: random.Random, story: Story, replace: dict[int, str] | None = None) -> str:
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
    joined = [head]
    for part in tail:
        joined.append(rng.choice(("; ", ". ", "; ", ". ")))
        joined.append(part)
    text = "".join(joined)
    return text if text.endswith(".") else text + "."


# --------------------------------------------------------------------------- stories


def _support(rng: random.Random) -> Story:
    first, last = _name(rng)
    email = _email(first, last)
    account = f"ACCT-{rng.randint(1000, 9999)}"
    ticket = f"T-{rng.randint(1000, 9999)}"
    base = rng.randint(5400, 5900)
    dup, orig = f"CH-{base + 1}", f"CH-{base}"
    refund_no = rng.randint(9000, 9899)
    refund = f"RF-{refund_no}"
    amount = rng.choice((480.0, 129.99, 299.0, 74.5, 1250.0, 89.0))
    y, m, d = 2026, rng.randint(1, 4), rng.randint(3, 27)
    approved = rng.random() < 0.4
    status = "approved" if approved else "pending_approval"
    charges = [f"CHARGES {account} since {y}-01-01", "id       date        amount   status"]
    for i in range(4):
        charges.append(
            f"CH-{base - 40 + i * 7}  {y - 1}-12-{i + 3:02d}  "
            f"{rng.randint(10, 90)}.{rng.randint(10, 99)}  captured"
        )
    charges.append(f"{orig}  {_iso(y, m, d)}  {amount:.2f}  captured")
    charges.append(f"{dup}  {_iso(y, m, d)}  {amount:.2f}  captured")
    messages = [
        _call("lookup_account", {"account": account}),
        _result(
            "lookup_account",
            f"ACCOUNT {account}\nholder: {first} {last}\nemail: {email}\nplan: Pro (annual)\n"
            f"status: active, in good standing\nopen tickets: {ticket}",
        ),
        _call("list_charges", {"account": account, "since": f"{y}-01-01"}),
        _result("list_charges", "\n".join(charges)),
        _call(
            "issue_refund", {"charge": dup, "amount": amount}, "The later capture is the duplicate."
        ),
        _result(
            "issue_refund",
            {"error": {"code": 429, "message": "rate limit exceeded, retry in 2s"}},
            is_error=True,
        ),
        _call("issue_refund", {"charge": dup, "amount": amount}),
        _result(
            "issue_refund",
            {
                "refund_id": refund,
                "charge": dup,
                "amount": amount,
                "currency": "USD",
                "status": status,
            },
        ),
    ]

    def money(r: random.Random) -> str:
        return "$" + _money(amount, cents=r.random() < 0.5 or amount != int(amount))

    said_status = (
        ("approved", "signed off", "authorized")
        if approved
        else (
            "pending approval",
            "awaiting finance approval",
            "waiting on finance",
            "pending_approval",
            "not yet approved",
        )
    )
    wrong_status = "pending approval" if approved else "approved"

    def c_charge(r: random.Random) -> str:
        return r.choice(
            (
                f"{account} ({first} {last}) was charged {money(r)} twice on "
                f"{_date_words(r, y, m, d)} ({orig}, {dup})",
                f"customer {first} {last} on {account} saw a duplicate capture of {money(r)} on "
                f"{_date_words(r, y, m, d)}: {orig} and {dup}",
            )
        )

    def c_refund(r: random.Random) -> str:
        return r.choice(
            (
                f"refund {refund} for {dup} ({money(r)}) is {r.choice(said_status)}",
                f"refund {refund} of {money(r)} is {r.choice(said_status)}",
                f"{refund} was created for the later capture {dup} and is {r.choice(said_status)}",
            )
        )

    def c_contact(r: random.Random) -> str:
        return r.choice(
            (
                f"contact {email}",
                f"reply to {email} on {ticket}",
                f"the customer's email is {email}",
            )
        )

    def c_error(r: random.Random) -> str:
        return r.choice(
            (
                "the first issue_refund call was rate-limited and retried",
                "the first refund attempt hit a rate limit (429) and was retried",
                "issuing the refund failed once (too many requests) before it went through",
            )
        )

    clauses = [c_charge, c_refund, c_contact, c_error]
    wrong_refund = f"RF-{_other_digits(rng, refund_no, 4)}"
    wrong_amount = rng.choice([a for a in (450.0, 499.0, 139.99, 310.0) if a != amount])
    wd = d + rng.choice((-2, -1, 1, 2))
    return Story(
        domain="support",
        messages=messages,
        inner_count=4,
        clauses=clauses,
        error_clause=3,
        dropped="rate_limit:issue_refund",
        mutations=[
            (
                "wrong-id",
                lambda r: (1, f"refund {wrong_refund} for {dup} is {r.choice(said_status)}"),
                (("unsupported", wrong_refund.replace("-", "")),),
            ),
            (
                "wrong-amount",
                lambda r: (
                    1,
                    f"refund {refund} of ${wrong_amount:,.2f} is {r.choice(said_status)}",
                ),
                (("contradicted", _norm_money("USD", wrong_amount)),),
            ),
            (
                "wrong-date",
                lambda r: (
                    0,
                    f"{account} was charged {money(r)} twice on {_iso(y, m, wd)} ({orig}, {dup})",
                ),
                (("unsupported", _iso(y, m, wd)),),
            ),
            ("wrong-email", lambda r: (2, f"contact {_wrong_email(r, email)}"), ()),
            (
                "wrong-status",
                lambda r: (1, f"refund {refund} for {dup} is {wrong_status}"),
                (("contradicted", "approved" if not approved else "pending"),),
            ),
        ],
        inner_clauses=[c_charge, c_contact],
        invented=wrong_refund,
        noise=[
            _call("search_kb", {"q": "duplicate charge refund policy"}),
            _result(
                "search_kb",
                "KB-212  Refunds for duplicate captures\n1. Refunds over $250.00 require finance "
                "approval; issue_refund creates them as pending_approval.\n2. Reply with the "
                "refund id."
                f"\nrecent refunds: RF-{refund_no - 1500} approved, RF-{refund_no - 1499} rejected",
            ),
        ],
        hard=[
            lambda r: "policy KB-212: refunds over $250 need finance approval",
            lambda r: f"an unrelated refund RF-{refund_no - 1499} was rejected",
            lambda r: (
                f"{refund} has not been approved yet"
                if not approved
                else f"{refund} no longer needs approval"
            ),
            lambda r: (
                f"roughly ${round(amount, -1):,.0f} was charged twice"
                if amount >= 50
                else "the customer was charged twice"
            ),
        ],
    )


def _deploy(rng: random.Random) -> Story:
    service = rng.choice(("checkout-api", "billing-worker", "search-gateway", "auth-service"))
    major, minor, patch = 2, rng.randint(10, 30), rng.randint(0, 9)
    version = f"v{major}.{minor}.{patch}"
    pr = rng.randint(300, 990)
    commit = "".join(rng.choice("0123456789abcdef") for _ in range(7))
    while commit.isdigit() or not any(c.isdigit() for c in commit):
        commit = "".join(rng.choice("0123456789abcdef") for _ in range(7))
    tests = rng.randint(180, 950)
    seconds = round(rng.uniform(40, 200), 1)
    staging = f"DEP-{rng.randint(1000, 4999)}"
    prod = f"DEP-{rng.randint(5000, 9999)}"
    host = f"web-{rng.randint(1, 9):02d}"
    ended = rng.choice(("succeeded", "rolled_back"))
    messages = [
        _call("run_tests", {"pr": pr, "commit": commit}),
        _result(
            "run_tests", f"collected {tests} items\n...\n===== {tests} passed in {seconds}s ====="
        ),
        _call("deploy", {"service": service, "version": version, "env": "staging"}),
        _result(
            "deploy",
            {"deploy_id": staging, "version": version, "env": "staging", "status": "succeeded"},
        ),
        _call("deploy", {"service": service, "version": version, "env": "prod"}),
        _result(
            "deploy",
            f"DEPLOY {service} {version} -> prod\nstatus: FAILED\nreason: health check timed out "
            f"on {host} after 120s",
        ),
        _call("deploy", {"service": service, "version": version, "env": "prod", "retry": True}),
        _result("deploy", {"deploy_id": prod, "version": version, "env": "prod", "status": ended}),
    ]
    ok_words = ("succeeded", "went out", "rolled out successfully", "completed")
    final_words = (
        ok_words
        if ended == "succeeded"
        else ("was rolled back", "got reverted", "ended rolled back")
    )

    def c_ci(r: random.Random) -> str:
        return r.choice(
            (
                f"PR #{pr} (commit {commit}) passed CI: {tests} tests in {seconds}s",
                f"CI for PR #{pr} at {commit} was green with {tests} tests passing",
                f"all {tests} tests passed for #{pr}",
            )
        )

    def c_staging(r: random.Random) -> str:
        return r.choice(
            (
                f"{version} deployed to staging as {staging}",
                f"staging deploy {staging} of {service} {version} {r.choice(ok_words)}",
            )
        )

    def c_prod(r: random.Random) -> str:
        return r.choice(
            (
                f"the prod deploy {prod} {r.choice(final_words)}",
                f"{prod} (prod, {version}) {r.choice(final_words)}",
            )
        )

    def c_error(r: random.Random) -> str:
        return r.choice(
            (
                f"the first prod attempt failed its health check on {host} (timed out)",
                f"the first prod rollout timed out on {host} and was retried",
                "the first production deploy failed and had to be retried",
            )
        )

    wrong_version = f"v{major}.{minor}.{patch + 1}"
    wrong_tests = tests + rng.choice((-13, 6, 20, 100))
    wrong_final = "failed" if ended == "succeeded" else "succeeded"
    return Story(
        domain="deploy",
        messages=messages,
        inner_count=4,
        clauses=[c_ci, c_staging, c_prod, c_error],
        error_clause=3,
        dropped="timeout:deploy",
        mutations=[
            (
                "wrong-id",
                lambda r: (1, f"{wrong_version} deployed to staging as {staging}"),
                (("unsupported", wrong_version[1:]),),
            ),
            (
                "wrong-count",
                lambda r: (
                    0,
                    f"PR #{pr} (commit {commit}) passed CI: {wrong_tests} tests in {seconds}s",
                ),
                (("unsupported", f"{wrong_tests} test"),),
            ),
            (
                "wrong-status",
                lambda r: (2, f"the prod deploy {prod} {wrong_final}"),
                (("contradicted", wrong_final),),
            ),
        ],
        inner_clauses=[c_ci, c_staging],
        invented=f"DEP-{int(staging[4:]) + 1}",
        noise=[
            _call("get_logs", {"service": service, "lines": 50}),
            _result(
                "get_logs",
                f"LOGS {service} (last 50 lines)\n2026-03-02T10:00:01Z ERROR upstream timeout "
                "talking to redis"
                "\n2026-03-02T10:00:07Z WARN retrying request (attempt 2)\n2026-03-02T10:00:09Z "
                "INFO request ok",
            ),
        ],
        hard=[
            lambda r: f"about {round(tests, -1)} tests ran",
            lambda r: "old logs show redis timeouts, which are unrelated",
            lambda r: f"CI took under {int(seconds // 60) + 1} minutes",
        ],
    )


def _orders(rng: random.Random) -> Story:
    first, last = _name(rng)
    email = _email(first, last, "mail.example.net")
    order_no = rng.randint(20000, 29999)
    order = f"SO-{order_no}"
    skus = [f"SKU-{rng.randint(4000, 4999)}" for _ in range(rng.choice((2, 3)))]
    prices = [rng.choice((19.99, 34.5, 49.0, 12.75, 89.99)) for _ in skus]
    qty = [rng.choice((1, 1, 2)) for _ in skus]
    total = round(sum(p * q for p, q in zip(prices, qty, strict=True)), 2)
    status = rng.choice(("backordered", "shipped"))
    y, m, d = 2026, rng.randint(3, 5), rng.randint(2, 26)
    tracking = f"1Z{rng.randint(100, 999)}AA{rng.randint(10000000, 99999999)}"
    items = [{"sku": s, "qty": q, "price": p} for s, q, p in zip(skus, qty, prices, strict=True)]
    order_doc: dict[str, Any] = {
        "order_id": order,
        "customer": email,
        "items": items,
        "total": total,
        "currency": "USD",
        "status": status,
    }
    if status == "shipped":
        order_doc["tracking"] = tracking
        order_doc["shipped_at"] = f"{_iso(y, m, d)}T14:05:00Z"
    else:
        order_doc["restock_date"] = _iso(y, m, d)
    messages = [
        _call("get_order", {"order_id": order}),
        _result("get_order", order_doc),
        _call("check_inventory", {"sku": skus[0]}),
        _result(
            "check_inventory",
            f"SKU {skus[0]}\non hand: "
            f"{0 if status == 'backordered' else rng.randint(3, 40)}\nwarehouse: RNO-2\nnext "
            f"restock: {_iso(y, m, d)}",
        ),
        _call("send_email", {"to": email, "template": "order_update"}),
        _result("send_email", f"Error: 550 mailbox unavailable for {email}", is_error=True),
    ]
    said = {
        "backordered": ("backordered", "on backorder", "out of stock", "back-ordered"),
        "shipped": ("shipped", "dispatched", "on its way", "in transit"),
    }[status]
    count = len(skus)
    count_word = {2: "two", 3: "three"}[count]

    def c_order(r: random.Random) -> str:
        return r.choice(
            (
                f"order {order} ({r.choice((str(count), count_word))} items, total "
                f"${_money(total)}) is {r.choice(said)}",
                f"{order} for {email} is {r.choice(said)}; total ${_money(total)}",
                f"order {order} is {r.choice(said)} (${_money(total)})",
            )
        )

    def c_date(r: random.Random) -> str:
        if status == "shipped":
            return r.choice(
                (
                    f"it shipped on {_date_words(r, y, m, d)} with tracking {tracking}",
                    f"tracking {tracking}, shipped {_date_words(r, y, m, d)}",
                )
            )
        return r.choice(
            (
                f"{skus[0]} restocks on {_date_words(r, y, m, d)}",
                f"{skus[0]} is expected back {_date_words(r, y, m, d)}",
            )
        )

    def c_error(r: random.Random) -> str:
        return r.choice(
            (
                f"the update email to {email} bounced (mailbox unavailable)",
                "sending the order update failed: mailbox unavailable",
                "the customer email could not be delivered",
            )
        )

    wrong_total = round(total + rng.choice((-10, 5, 12.5, 20)), 2)
    wrong_status = "shipped" if status == "backordered" else "delivered"
    wrong_sku = f"SKU-{_other_digits(rng, int(skus[0][4:]), 4)}"
    wd = d + rng.choice((-1, 1, 2))
    return Story(
        domain="orders",
        messages=messages,
        inner_count=2,
        clauses=[c_order, c_date, c_error],
        error_clause=2,
        dropped="unavailable:send_email",
        mutations=[
            (
                "wrong-amount",
                lambda r: (0, f"order {order} is {r.choice(said)}, total ${_money(wrong_total)}"),
                (("contradicted", _norm_money("USD", wrong_total)),),
            ),
            (
                "swapped-amount",
                lambda r: (0, f"order {order} is {r.choice(said)}, total ${_money(prices[0])}"),
                (("contradicted", _norm_money("USD", prices[0])),) if prices[0] != total else (),
            ),
            (
                "wrong-status",
                lambda r: (0, f"order {order} ({count} items) is {wrong_status}"),
                (("contradicted", wrong_status),),
            ),
            (
                "wrong-date",
                lambda r: (
                    1,
                    f"{skus[0]} restocks on {_iso(y, m, wd)}"
                    if status != "shipped"
                    else f"it shipped on {_iso(y, m, wd)}",
                ),
                (("unsupported", _iso(y, m, wd)),),
            ),
            (
                "wrong-count",
                lambda r: (0, f"order {order} ({count + 2} items) is {r.choice(said)}"),
                (("unsupported", f"{count + 2} item"),),
            ),
            (
                "wrong-id",
                lambda r: (
                    1,
                    f"{wrong_sku} restocks on {_iso(y, m, d)}"
                    if status != "shipped"
                    else f"{wrong_sku} shipped on {_iso(y, m, d)}",
                ),
                (("unsupported", wrong_sku.replace("-", "")),),
            ),
        ],
        inner_clauses=[c_order],
        invented=f"SO-{_other_digits(rng, order_no, 5)}",
        noise=[
            _call("list_orders", {"customer": email}),
            _result(
                "list_orders",
                f"orders for {email}\nSO-{order_no - 7000}  delivered  2026-01-04  $42.00\n"
                f"SO-{order_no - 6000}  cancelled  2026-02-11  $18.50",
            ),
        ],
        hard=[
            lambda r: f"their earlier order SO-{order_no - 7000} was delivered",
            lambda r: f"SO-{order_no - 6000} had been cancelled",
            lambda r: (
                f"{order} has not shipped yet"
                if status == "backordered"
                else f"{order} is no longer backordered"
            ),
        ],
    )


def _incident(rng: random.Random) -> Story:
    inc_no = rng.randint(7000, 7999)
    inc = f"INC-{inc_no}"
    service = rng.choice(("payments-api", "ledger-db", "search", "notifications"))
    hour, minute = rng.randint(0, 23), rng.choice((5, 12, 17, 42, 55))
    rate = rng.choice((12.5, 4.2, 31.0, 7.75))
    p99 = rng.choice((2.4, 1.8, 3.1))
    lead = _email(*_name(rng), "ops.example.com")
    url = f"https://runbooks.example.com/{service}/latency"
    status = rng.choice(("investigating", "resolved"))
    messages = [
        _call("get_incident", {"id": inc}),
        _result(
            "get_incident",
            {
                "incident": inc,
                "service": service,
                "severity": "SEV2",
                "opened_at": f"2026-03-0{rng.randint(1, 9)}T{hour:02d}:{minute:02d}:00Z",
                "status": "investigating",
            },
        ),
        _call("query_metrics", {"service": service, "window": "1h"}),
        _result(
            "query_metrics",
            f"{service} last 1h\np99 latency: {p99} s\nerror rate: {rate}% since "
            f"{hour:02d}:{minute:02d} UTC\nrunbook: {url}",
        ),
        _call("restart_pods", {"service": service, "namespace": "prod"}),
        _result(
            "restart_pods",
            "Forbidden: user oncall-bot cannot delete pods in namespace prod (needs role "
            f"{service}-operator)",
            is_error=True,
        ),
        _call("update_incident", {"id": inc, "status": status, "escalated_to": lead}),
        _result(
            "update_incident", f"incident {inc} updated\nstatus: {status}\nescalated to: {lead}"
        ),
    ]
    said = {
        "investigating": ("still open", "under investigation", "open", "being investigated"),
        "resolved": ("resolved", "closed", "marked resolved"),
    }[status]

    def c_state(r: random.Random) -> str:
        return r.choice(
            (
                f"{inc} ({service}) is {r.choice(said)}",
                f"incident {inc} on {service} is {r.choice(said)}",
            )
        )

    def c_metrics(r: random.Random) -> str:
        clock = r.choice((f"{hour:02d}:{minute:02d} UTC", f"{hour:02d}:{minute:02d}"))
        return r.choice(
            (
                f"error rate {rate}% since {clock}, p99 {p99} s",
                f"errors at {rate}% from {clock} with p99 latency of {p99} s",
            )
        )

    def c_lead(r: random.Random) -> str:
        return r.choice((f"escalated to {lead}", f"{lead} now owns it; runbook {url}"))

    def c_error(r: random.Random) -> str:
        return r.choice(
            (
                "restarting the pods was denied (Forbidden, missing operator role)",
                "the pod restart was refused: the bot lacks permission",
                "restart_pods failed with a permission error",
            )
        )

    wrong_status = "resolved" if status == "investigating" else "open"
    wrong_hour = (hour + rng.choice((1, 2, -1))) % 24
    wrong_rate = round(rate + rng.choice((1.0, 2.5, -1.5)), 2)
    return Story(
        domain="incident",
        messages=messages,
        inner_count=4,
        clauses=[c_state, c_metrics, c_lead, c_error],
        error_clause=3,
        dropped="denied:restart_pods",
        mutations=[
            (
                "wrong-status",
                lambda r: (0, f"{inc} ({service}) is {wrong_status}"),
                (("contradicted", wrong_status),),
            ),
            (
                "wrong-date",
                lambda r: (1, f"error rate {rate}% since {wrong_hour:02d}:{minute:02d} UTC"),
                (("unsupported", f"{wrong_hour:02d}:{minute:02d}"),),
            ),
            (
                "wrong-count",
                lambda r: (1, f"error rate {wrong_rate}% since {hour:02d}:{minute:02d} UTC"),
                (("unsupported", f"{wrong_rate:g}"),),
            ),
            ("wrong-email", lambda r: (2, f"escalated to {_wrong_email(r, lead)}"), ()),
            (
                "wrong-id",
                lambda r: (0, f"INC-{_other_digits(r, inc_no, 4)} ({service}) is {r.choice(said)}"),
                (),
            ),
        ],
        inner_clauses=[c_metrics],
        invented=f"INC-{_other_digits(rng, inc_no, 4)}",
        noise=[
            _call("get_alerts", {"service": service}),
            _result(
                "get_alerts",
                {
                    "alerts": [
                        {
                            "id": f"ALR-{inc_no + 11}",
                            "status": "resolved",
                            "summary": "disk 91% on db-02",
                        },
                        {
                            "id": f"ALR-{inc_no + 12}",
                            "status": "firing",
                            "summary": f"p99 above 1 s on {service}",
                        },
                    ]
                },
            ),
        ],
        hard=[
            lambda r: f"the disk alert ALR-{inc_no + 11} is already resolved",
            lambda r: f"latency alert ALR-{inc_no + 12} is still firing",
            lambda r: f"error rate around {round(rate)}%",
        ],
    )


def _migration(rng: random.Random) -> Story:
    number = rng.randint(10, 99)
    table = rng.choice(("orders", "invoices", "events", "users"))
    path = f"migrations/00{number}_add_index_{table}.sql"
    rows = rng.randint(120_000, 4_900_000)
    minutes, secs = rng.randint(2, 40), rng.randint(1, 59)
    lock = rng.choice((30, 10, 60))
    schema = f"{rng.randint(40, 90)}"
    messages = [
        _call("run_migration", {"file": path, "dry_run": True}),
        _result(
            "run_migration",
            f"DRY RUN {path}\nALTER TABLE {table} ADD COLUMN region_id bigint;\nCREATE INDEX "
            f"CONCURRENTLY idx_{table}_region ON {table}(region_id);\nestimated rows to backfill: "
            f"{rows:,}",
        ),
        _call("run_migration", {"file": path}),
        _result(
            "run_migration",
            f"ERROR: canceling statement due to lock timeout ({lock}s) on relation {table}",
            is_error=True,
        ),
        _call("run_migration", {"file": path, "lock_timeout": "5min"}),
        _result(
            "run_migration",
            f"status: applied\nfile: {path}\nrows backfilled: {rows:,}\nduration: {minutes}m "
            f"{secs}s\nschema version: {schema}",
        ),
    ]

    def c_applied(r: random.Random) -> str:
        return r.choice(
            (
                f"{path} was applied (schema version {schema})",
                f"migration {path.rsplit('/', 1)[1]} applied successfully",
                f"{path} {r.choice(('applied', 'completed', 'succeeded'))}",
            )
        )

    def c_rows(r: random.Random) -> str:
        shown = r.choice((f"{rows:,}", str(rows)))
        return r.choice(
            (
                f"{shown} rows were backfilled in {minutes}m {secs}s",
                f"backfilled {shown} rows on {table}",
            )
        )

    def c_error(r: random.Random) -> str:
        return r.choice(
            (
                f"the first run hit a lock timeout ({lock} s) on {table}",
                "the first attempt timed out waiting for a lock and was rerun with a longer "
                "lock_timeout",
                f"the first run_migration failed on a {lock}s lock timeout",
            )
        )

    wrong_rows = rows + rng.choice((-36_000, 1_000, 40_000, 250_000))
    wrong_path = f"migrations/00{number + 1}_add_index_{table}.sql"
    return Story(
        domain="migration",
        messages=messages,
        inner_count=2,
        clauses=[c_applied, c_rows, c_error],
        error_clause=2,
        dropped="timeout:run_migration",
        mutations=[
            (
                "wrong-count",
                lambda r: (1, f"{wrong_rows:,} rows were backfilled"),
                (("unsupported", f"{wrong_rows} row"),),
            ),
            (
                "wrong-id",
                lambda r: (0, f"{wrong_path} was applied"),
                (("unsupported", wrong_path),),
            ),
            (
                "wrong-status",
                lambda r: (0, f"{path} was rolled back"),
                (("contradicted", "rolled_back"),),
            ),
        ],
        inner_clauses=[c_rows],
        invented=wrong_path,
        noise=[
            _call("list_migrations", {"applied": True}),
            _result(
                "list_migrations",
                f"applied migrations\n00{number - 2}_create_{table}.sql  applied  2026-01-12\n"
                f"00{number - 1}_add_fk_{table}.sql  applied  2026-02-03",
            ),
        ],
        hard=[
            lambda r: f"about {rows / 1_000_000:.1f} million rows were backfilled",
            lambda r: f"the two earlier migrations on {table} were already applied",
            lambda r: f"it took roughly {minutes} minutes",
        ],
    )


def _travel(rng: random.Random) -> Story:
    first, last = _name(rng)
    carrier = rng.choice(("LH", "LX", "AF", "KL", "BA"))
    flight_no = rng.randint(1000, 1999)
    flight = f"{carrier}{flight_no}"
    other = f"{rng.choice(('LX', 'OS', 'SN'))}{rng.randint(2000, 2999)}"
    fare = rng.choice((642.10, 512.40, 388.00, 701.95))
    cheaper = round(fare - rng.choice((44.1, 60.0, 23.5)), 2)
    pnr = (
        "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ") for _ in range(3))
        + str(rng.randint(2, 9))
        + "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ") for _ in range(2))
    )
    y, m, d = 2026, rng.randint(4, 9), rng.randint(1, 28)
    hh, mm = rng.randint(6, 21), rng.choice((5, 15, 40, 55))
    status = rng.choice(("ticketed", "ticketed", "confirmed"))
    messages = [
        _call("search_flights", {"from": "FRA", "to": "LIS", "date": _iso(y, m, d)}),
        _result(
            "search_flights",
            {
                "options": [
                    {
                        "flight": other,
                        "dep": f"{_iso(y, m, d)}T{(hh + 3) % 24:02d}:{mm:02d}",
                        "fare": {"amount": cheaper, "currency": "EUR"},
                        "seats": 2,
                    },
                    {
                        "flight": flight,
                        "dep": f"{_iso(y, m, d)}T{hh:02d}:{mm:02d}",
                        "fare": {"amount": fare, "currency": "EUR"},
                        "seats": 9,
                    },
                ]
            },
        ),
        _call("book_flight", {"flight": other, "passenger": f"{first} {last}"}),
        _result(
            "book_flight",
            {"error": f"fare class for {other} is no longer available"},
            is_error=True,
        ),
        _call("book_flight", {"flight": flight, "passenger": f"{first} {last}"}),
        _result(
            "book_flight",
            {
                "pnr": pnr,
                "flight": flight,
                "passenger": f"{first} {last}",
                "departure": f"{_iso(y, m, d)}T{hh:02d}:{mm:02d}:00",
                "fare": {"amount": fare, "currency": "EUR"},
                "status": status,
            },
        ),
    ]
    said = ("ticketed", "confirmed", "booked")

    def c_booking(r: random.Random) -> str:
        price = r.choice((f"€{fare:.2f}", f"EUR {fare:.2f}", f"{fare:.2f} EUR"))
        return r.choice(
            (
                f"booked {flight} on {_date_words(r, y, m, d)} for {first} {last}, fare {price}, "
                f"{r.choice(said)}",
                f"{first} {last} is {r.choice(said)} on {flight} ({_date_words(r, y, m, d)}, "
                f"{price})",
            )
        )

    def c_pnr(r: random.Random) -> str:
        return r.choice(
            (
                f"PNR {pnr}, departing {hh:02d}:{mm:02d}",
                f"record locator {pnr}",
                f"departure {hh:02d}:{mm:02d}, PNR {pnr}",
            )
        )

    def c_error(r: random.Random) -> str:
        return r.choice(
            (
                f"{other} at €{cheaper:.2f} could not be booked (fare no longer available)",
                f"the cheaper {other} fare was unavailable",
                "the first booking attempt failed because the fare was gone",
            )
        )

    wrong_status = "cancelled"
    return Story(
        domain="travel",
        messages=messages,
        inner_count=2,
        clauses=[c_booking, c_pnr, c_error],
        error_clause=2,
        dropped="unavailable:book_flight",
        mutations=[
            (
                "wrong-amount",
                lambda r: (0, f"booked {flight} for {first} {last}, fare EUR {cheaper:.2f}"),
                (("contradicted", _norm_money("EUR", cheaper)),),
            ),
            (
                "wrong-status",
                lambda r: (
                    0,
                    f"booking on {flight} ({_date_words(r, y, m, d)}) was {wrong_status}",
                ),
                (("contradicted", "cancelled"),),
            ),
            (
                "wrong-date",
                lambda r: (0, f"booked {flight} on {_iso(y, m, d + 1)}, fare €{fare:.2f}"),
                (("contradicted", _iso(y, m, d + 1)),),
            ),
            ("wrong-id", lambda r: (1, f"PNR {pnr[::-1]}"), ()),
        ],
        inner_clauses=[c_booking],
        invented=f"{carrier}{_other_digits(rng, flight_no, 4)}",
        noise=[
            _call("get_fare_rules", {"flight": flight}),
            _result(
                "get_fare_rules",
                f"FARE RULES {flight} Y-class\nchanges: EUR 70.00 fee\nrefund: not "
                "permitted\nbaggage: 1 x 23 kg",
            ),
        ],
        hard=[
            lambda r: "changes cost €70 and the ticket is non-refundable",
            lambda r: f"the fare is about €{round(fare)}",
            lambda r: f"{other} was not booked",
        ],
    )


def _hr_it(rng: random.Random) -> Story:
    first, last = _name(rng)
    email = _email(first, last, "corp.example.com")
    ticket_no = rng.randint(5000, 5999)
    ticket = f"IT-{ticket_no}"
    asset = f"LT-{rng.randint(20000, 29999)}"
    tracking = f"1Z{rng.randint(100, 999)}BB{rng.randint(10000000, 99999999)}"
    y, m, d = 2026, rng.randint(4, 8), rng.randint(1, 28)
    laptop = rng.choice(("shipped", "processing"))
    messages = [
        _call("get_ticket", {"id": ticket}),
        _result(
            "get_ticket",
            f"TICKET {ticket}\ntype: onboarding\nemployee: {first} {last} <{email}>\nstart date: "
            f"{_iso(y, m, d)}\nstatus: open",
        ),
        _call("provision_account", {"email": email, "groups": ["staff", "vpn"]}),
        _result(
            "provision_account",
            "permission denied: provisioning requires group it-admins",
            is_error=True,
        ),
        _call(
            "provision_account",
            {"email": email, "groups": ["staff", "vpn"], "approved_by": "it-admins"},
        ),
        _result(
            "provision_account", {"account": email, "status": "created", "groups": ["staff", "vpn"]}
        ),
        _call("assign_laptop", {"ticket": ticket, "model": "14-inch"}),
        _result(
            "assign_laptop",
            {
                "asset": asset,
                "ticket": ticket,
                "status": laptop,
                **({"tracking": tracking} if laptop == "shipped" else {}),
            },
        ),
    ]
    said = {
        "shipped": ("shipped", "dispatched", "on its way"),
        "processing": ("being prepared", "awaiting shipment", "not yet shipped"),
    }[laptop]

    def c_ticket(r: random.Random) -> str:
        return r.choice(
            (
                f"{ticket}: onboarding for {first} {last} ({email}) starting "
                f"{_date_words(r, y, m, d)}",
                f"onboarding ticket {ticket} for {email}, start date {_date_words(r, y, m, d)}",
            )
        )

    def c_account(r: random.Random) -> str:
        return r.choice(
            (
                "the account was created with staff and vpn groups",
                "accounts are provisioned (staff, vpn)",
            )
        )

    def c_laptop(r: random.Random) -> str:
        extra = f" (tracking {tracking})" if laptop == "shipped" and r.random() < 0.5 else ""
        return r.choice(
            (f"laptop {asset} is {r.choice(said)}{extra}", f"{asset} {r.choice(said)}{extra}")
        )

    def c_error(r: random.Random) -> str:
        return r.choice(
            (
                "the first provisioning attempt was denied (needs it-admins approval)",
                "provision_account was rejected once for missing permissions",
                "provisioning needed it-admins sign-off after a permission denied error",
            )
        )

    wrong_laptop = "delivered" if laptop == "shipped" else "shipped"
    return Story(
        domain="hr_it",
        messages=messages,
        inner_count=4,
        clauses=[c_ticket, c_account, c_laptop, c_error],
        error_clause=3,
        dropped="denied:provision_account",
        mutations=[
            (
                "wrong-status",
                lambda r: (2, f"laptop {asset} is {wrong_laptop}"),
                (("contradicted", wrong_laptop),),
            ),
            (
                "wrong-email",
                lambda r: (
                    0,
                    f"onboarding ticket {ticket} for {_wrong_email(r, email)}, start date "
                    f"{_iso(y, m, d)}",
                ),
                (),
            ),
            (
                "wrong-date",
                lambda r: (
                    0,
                    f"{ticket}: onboarding for {first} {last} starting {_iso(y, m + 1, d)}",
                ),
                (("contradicted", _iso(y, m + 1, d)),),
            ),
            (
                "wrong-id",
                lambda r: (
                    2,
                    f"laptop LT-{_other_digits(r, int(asset[3:]), 5)} is {r.choice(said)}",
                ),
                (),
            ),
        ],
        inner_clauses=[c_ticket],
        invented=f"IT-{_other_digits(rng, ticket_no, 4)}",
        noise=[
            _call("list_groups", {"email": email}),
            _result("list_groups", f"groups for {email}\n- staff\n- vpn"),
        ],
        hard=[
            lambda r: "they are in two groups (staff and vpn)",
            lambda r: (
                f"{asset} is not delivered yet"
                if laptop == "shipped"
                else f"{asset} has not shipped yet"
            ),
        ],
    )


def _invoice(rng: random.Random) -> Story:
    vendor = rng.choice(("Acme GmbH", "Globex Ltd", "Initech BV", "Umbrella SA"))
    inv_no = rng.randint(10, 99)
    invoice = f"INV-2026-00{inv_no}"
    amount = rng.choice((12480.0, 3250.5, 980.0, 45200.0))
    currency = rng.choice(("EUR", "USD"))
    symbol = {"EUR": "€", "USD": "$"}[currency]
    po = f"PO-{rng.randint(3000, 3999)}"
    pay = f"PAY-{rng.randint(8000, 8999)}"
    y, m, d = 2026, rng.randint(2, 5), rng.randint(1, 28)
    py, pm, pd = 2026, m + 1, rng.randint(1, 28)
    messages = [
        _call("get_invoice", {"id": invoice}),
        _result(
            "get_invoice",
            {
                "invoice_id": invoice,
                "vendor": vendor,
                "po": po,
                "amount_due": amount,
                "currency": currency,
                "due_date": _iso(y, m, d),
                "status": "overdue",
            },
        ),
        _call("pay_invoice", {"id": invoice, "amount": amount}),
        _result(
            "pay_invoice",
            {"ok": False, "error": "insufficient funds in operating account"},
            is_error=True,
        ),
        _call("schedule_payment", {"id": invoice, "date": _iso(py, pm, pd)}),
        _result(
            "schedule_payment",
            f"payment {pay} scheduled\ninvoice: {invoice}\namount: {amount:,.2f} {currency}\nrun "
            f"date: {_iso(py, pm, pd)}",
        ),
    ]
    said = ("overdue", "past due", "unpaid", "outstanding")

    def c_invoice(r: random.Random) -> str:
        price = r.choice(
            (
                f"{symbol}{_money(amount, cents=r.random() < 0.5 or amount != int(amount))}",
                f"{currency} {amount:,.2f}",
            )
        )
        return r.choice(
            (
                f"invoice {invoice} from {vendor} ({price}, due {_date_words(r, y, m, d)}) is "
                f"{r.choice(said)}",
                f"{vendor}'s {invoice} for {price} is {r.choice(said)} since "
                f"{_date_words(r, y, m, d)}",
            )
        )

    def c_po(r: random.Random) -> str:
        return r.choice((f"it references {po}", f"PO {po}"))

    def c_payment(r: random.Random) -> str:
        return r.choice(
            (
                f"{pay} is scheduled for {_date_words(r, py, pm, pd)}",
                f"payment {pay} will run on {_date_words(r, py, pm, pd)}",
            )
        )

    def c_error(r: random.Random) -> str:
        return r.choice(
            (
                "paying it directly failed (insufficient funds)",
                "the immediate payment was declined for insufficient funds",
                "pay_invoice errored: not enough funds",
            )
        )

    wrong_amount = amount + rng.choice((100.0, -250.0, 1000.0))
    return Story(
        domain="invoice",
        messages=messages,
        inner_count=2,
        clauses=[c_invoice, c_po, c_payment, c_error],
        error_clause=3,
        dropped="failed:pay_invoice",
        mutations=[
            (
                "wrong-amount",
                lambda r: (0, f"invoice {invoice} for {currency} {wrong_amount:,.2f} is overdue"),
                (("contradicted", _norm_money(currency, wrong_amount)),),
            ),
            (
                "wrong-status",
                lambda r: (0, f"invoice {invoice} from {vendor} is paid"),
                (("contradicted", "paid"),),
            ),
            (
                "wrong-date",
                lambda r: (2, f"{pay} is scheduled for {_iso(py, pm, pd % 28 + 1)}"),
                (("contradicted", _iso(py, pm, pd % 28 + 1)),),
            ),
            (
                "swapped-date",
                lambda r: (2, f"{pay} is scheduled for {_date_with_year(r, y, m, d)}"),
                (("contradicted", _iso(y, m, d)),),
            ),
            ("wrong-id", lambda r: (1, f"it references PO-{_other_digits(r, int(po[3:]), 4)}"), ()),
        ],
        inner_clauses=[c_invoice],
        invented=f"PAY-{_other_digits(rng, int(pay[4:]), 4)}",
        noise=[
            _call("list_invoices", {"vendor": vendor}),
            _result(
                "list_invoices",
                {
                    "invoices": [
                        {
                            "invoice_id": f"INV-2026-00{inv_no - 9}",
                            "status": "paid",
                            "amount_due": 3200.0,
                            "paid_at": "2026-01-15",
                        },
                        {"invoice_id": invoice, "status": "overdue", "amount_due": amount},
                    ]
                },
            ),
        ],
        hard=[
            lambda r: f"the previous invoice INV-2026-00{inv_no - 9} was paid on January 15",
            lambda r: f"{invoice} has not been paid",
            lambda r: (
                f"roughly {symbol}{round(amount / 1000)}k is owed"
                if amount >= 1000
                else "the full amount is owed"
            ),
        ],
    )


STORIES: dict[str, Callable[[random.Random], Story]] = {
    "support": _support,
    "deploy": _deploy,
    "orders": _orders,
    "incident": _incident,
    "migration": _migration,
    "travel": _travel,
    "hr_it": _hr_it,
    "invoice": _invoice,
}

# --------------------------------------------------------------------------- cases


def _id_norm(text: str) -> str:
    return "".join(c for c in text.upper() if c.isalnum())


def _mutation_expected(name: str, text: str, planted: Expected) -> Expected:
    """The expected finding of a planted error (computed here when the story left it implicit)."""
    if planted:
        return planted
    import re

    if name == "wrong-email":
        email = re.search(r"[\w.+-]+@[\w.-]+\.\w+", text)
        assert email is not None
        return (("unsupported", email.group().lower()),)
    if name == "wrong-id":
        found = re.search(r"\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\b|\b[A-Z]{2,}\d[A-Z0-9]*\b", text)
        assert found is not None
        return (("unsupported", _id_norm(found.group())),)
    raise AssertionError(f"no expected finding for {name}")


def story_cases(domain: str, seed: int) -> list[Case]:
    """The cases of one story (one domain, one seed)."""
    rng = random.Random(f"{domain}:{seed}")
    story = STORIES[domain](rng)
    at = story.inner_count
    story.messages[at:at] = story.noise  # unrelated results between the inner and outer spans
    evidence = _evidence(story.messages, 1)
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

    add("faithful", _render(random.Random(f"{domain}:{seed}:a"), story), ())
    add("paraphrase", _render(random.Random(f"{domain}:{seed}:b"), story), ())
    r = random.Random(f"{domain}:{seed}:hard")
    hard = _render(r, story) + " " + ". ".join(clause(r) for clause in story.hard) + "."
    add("hard-faithful", hard, ())
    for name, mutate, planted in story.mutations:
        r = random.Random(f"{domain}:{seed}:{name}")
        index, text = mutate(r)
        expected = _mutation_expected(name, text, planted)
        add(name, _render(r, story, {index: text}), expected)
    r = random.Random(f"{domain}:{seed}:omit")
    add("omitted-error", _render(r, story, {story.error_clause: ""}), (("dropped", story.dropped),))
    # nested: the inner span holds the first messages; the caller passes them as evidence
    inner = story.messages[: story.inner_count]
    outer = story.messages[story.inner_count :]
    nested_evidence = _evidence(inner, 0) + _evidence(outer, 1)
    r = random.Random(f"{domain}:{seed}:nested")
    inner_summary = "; ".join(c(r) for c in story.inner_clauses) + "."
    outer_summary = _render(r, story)
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
    outer_repeat = _render(r, story) + f" Follow-up: {invented}."
    add(
        "nested-invented",
        outer_repeat,
        (("unsupported", _norm_any(invented)),),
        evidence=nested_evidence,
        inner_summary=inner_invented,
        inner_count=len(inner),
    )
    return cases


def _norm_any(text: str) -> str:
    if "/" in text:
        return text
    return _id_norm(text)


def build_corpus(seeds: Sequence[int] = tuple(range(4))) -> list[Case]:
    """Every story's cases for every seed: at least 300 cases with the default seeds."""
    return [case for seed in seeds for domain in STORIES for case in story_cases(domain, seed)]


# --------------------------------------------------------------------------- scoring

KINDS = ("unsupported", "contradicted", "dropped")


@dataclass
class Score:
    """True positives, false positives and false negatives of one kind of finding."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0


@dataclass(frozen=True)
class Miss:
    case: str
    kind: str  # "fp" or "fn"
    finding: tuple[str, str]
    summary: str


def index_case(case: Case) -> EvidenceIndex:
    """The evidence of a case, filed the way the claims command files a span's originals."""
    return EvidenceIndex(case_evidence(case))


def case_evidence(case: Case) -> list[tuple[EvidenceRef, MessageAtoms]]:
    """How each evidence message of a case is cited, and its cheap index, in order."""
    return [
        (
            EvidenceRef(e.locator, e.digest),
            index_message(
                evidence_text(e.text, e.tool_calls),
                role=e.role,
                tool_name=e.tool_name,
                call_names=[c["name"] for c in e.tool_calls],
                is_error=e.is_error,
            ),
        )
        for e in case.evidence
    ]


def findings_of(case: Case) -> list[tuple[str, str]]:
    return [(f.kind, f.normalised) for f in check_summary(case.summary, index_case(case))]


def score(cases: Sequence[Case]) -> tuple[dict[str, Score], list[Miss]]:
    """Per-kind counts over ``cases`` (findings matched as (kind, normalised atom)), and misses."""
    scores = {kind: Score() for kind in KINDS}
    misses: list[Miss] = []
    for case in cases:
        got = Counter(findings_of(case))
        want = Counter(case.expected)
        for key in set(got) | set(want):
            kind = key[0]
            if kind not in scores:
                continue
            hit = min(got[key], want[key])
            scores[kind].tp += hit
            scores[kind].fp += got[key] - hit
            scores[kind].fn += want[key] - hit
            if got[key] > hit:
                misses.append(Miss(case.id, "fp", key, case.summary))
            if want[key] > hit:
                misses.append(Miss(case.id, "fn", key, case.summary))
    return scores, misses


def score_table(scores: dict[str, Score]) -> str:
    lines = [f"{'kind':14} {'tp':>5} {'fp':>5} {'fn':>5} {'precision':>10} {'recall':>8}"]
    for kind, s in scores.items():
        lines.append(f"{kind:14} {s.tp:5d} {s.fp:5d} {s.fn:5d} {s.precision:10.3f} {s.recall:8.3f}")
    return "\n".join(lines)


if __name__ == "__main__":
    corpus = build_corpus()
    print(json.dumps([case_dict(c) for c in corpus[:3]], indent=2, ensure_ascii=False))
    print(len(corpus), "cases")


# --------------------------------------------------------------------------- real checkpoints

_MODEL = "summarizer-mini"
_T0 = 1_790_000_000_000


def _messages(evidence: Sequence[Evidence], prefix: str) -> list[dict[str, Any]]:
    """Evidence as the runtime stores messages: tool calls with ids, results that answer them."""
    out: list[dict[str, Any]] = []
    pending: list[str] = []
    for n, e in enumerate(evidence):
        if e.tool_calls:
            calls = []
            for k, call in enumerate(e.tool_calls):
                call_id = f"{prefix}_{n}_{k}"
                pending.append(call_id)
                calls.append({"id": call_id, "name": call["name"], "args": call["args"]})
            out.append({"role": "assistant", "content": e.text, "toolCalls": calls})
        elif e.role == "tool":
            call_id = pending.pop(0) if pending else f"{prefix}_{n}"
            out.append(
                {
                    "role": "tool",
                    "content": e.text,
                    "toolCallId": call_id,
                    "toolName": e.tool_name or "tool",
                }
            )
        else:
            out.append({"role": e.role, "content": e.text})
    return out


def case_checkpoint(case: Case, *, discard: bool = False) -> dict[str, Any]:
    """A case as a checkpoint the reference runtime could have written: the summary is the
    frame in the live window, its originals the span's messages; a nested case folds the
    inner originals first, under the inner summary, inside the outer span.  With
    ``discard`` the outer fold kept nothing (its summary is then unverifiable)."""
    inner = [e for e in case.evidence if e.locator.startswith("f0:")]
    outer = [e for e in case.evidence if not e.locator.startswith("f0:")]
    folded: list[dict[str, Any]] = []
    outer_messages = _messages(outer, "call")
    if case.inner_summary is not None and inner:
        inner_frame = frame_text(len(inner), 2, _MODEL, "conversation", case.inner_summary)
        folded.append(
            _span(inner_frame, _messages(inner, "inner"), 2, _T0 + 1000, ["tool-calls#23"])
        )
        outer_messages.insert(0, {"role": "user", "content": inner_frame})
    retention: Literal["conversation", "discard"] = "discard" if discard else "conversation"
    count = len(outer_messages)
    outer_frame = frame_text(count, 4, _MODEL, retention, case.summary)
    stages = (["compact#24"] if folded else []) + ["tool-calls#69"]
    folded.append(
        _span(outer_frame, None if discard else outer_messages, 4, _T0 + 2000, stages, count)
    )
    return {
        "version": 1,
        "runId": f"run-{case.id}",
        "history": [
            {"role": "user", "content": f"Please handle {case.domain} request {case.seed}."},
            {"role": "user", "content": outer_frame},
            {"role": "assistant", "content": "Done."},
        ],
        "lastCompletedIteration": 5,
        "originalInput": {"message": f"Please handle {case.domain} request {case.seed}."},
        "checkpointedAt": _T0 + 10_000,
        "folded": folded,
    }


def _span(
    frame: str,
    messages: list[dict[str, Any]] | None,
    iteration: int,
    at: int,
    stages: list[str],
    count: int | None = None,
) -> dict[str, Any]:
    span: dict[str, Any] = {
        "summaryFingerprint": fnv1a32(frame),
        "runId": "run-1",
        "iteration": iteration,
        "foldedAtMs": at,
        "model": _MODEL,
        "messageCount": len(messages) if messages is not None else (count or 0),
        "removedStageIds": stages,
        "retained": "conversation" if messages is not None else "discard",
    }
    if messages is not None:
        span["messages"] = messages
    return span


def pipeline_findings(
    checkpoint: dict[str, Any], frame: str | None = "h1"
) -> list[tuple[str, str]]:
    """What ``foldctl claims`` finds in a checkpoint, as (kind, normalised atom): about the
    summary at ``frame`` (the case's summary, in the live window), or every summary."""
    import foldctl
    from foldctl.claims.record import check_graph

    return [
        (f.kind, f.finding.normalised)
        for f in check_graph(foldctl.open(checkpoint).graph)
        if frame is None or f.frame == frame
    ]


def score_pipeline(cases: Sequence[Case]) -> tuple[dict[str, Score], list[Miss]]:
    """:func:`score`, each case written as a real checkpoint and checked by the command's
    own pipeline (load, join, walk, evidence ranges), end to end."""
    scores = {kind: Score() for kind in KINDS}
    misses: list[Miss] = []
    for case in cases:
        got = Counter(
            key for key in pipeline_findings(case_checkpoint(case)) if key[0] != "unverifiable"
        )
        want = Counter(case.expected)
        for key in set(got) | set(want):
            kind = key[0]
            if kind not in scores:
                continue
            hit = min(got[key], want[key])
            scores[kind].tp += hit
            scores[kind].fp += got[key] - hit
            scores[kind].fn += want[key] - hit
            if got[key] > hit:
                misses.append(Miss(case.id, "fp", key, case.summary))
            if want[key] > hit:
                misses.append(Miss(case.id, "fn", key, case.summary))
    return scores, misses
