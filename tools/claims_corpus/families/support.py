"""Customer support: a duplicate charge refunded (support desk and payments tools)."""

from __future__ import annotations

import random

from tools.claims_corpus import kit as K
from tools.claims_corpus.kit import Story


def story(rng: random.Random) -> Story:
    first, last = K.person(rng)
    email = K.email(first, last)
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
    charges.append(f"{orig}  {K.iso(y, m, d)}  {amount:.2f}  captured")
    charges.append(f"{dup}  {K.iso(y, m, d)}  {amount:.2f}  captured")
    messages = [
        K.call("lookup_account", {"account": account}),
        K.result(
            "lookup_account",
            f"ACCOUNT {account}\nholder: {first} {last}\nemail: {email}\nplan: Pro (annual)\n"
            f"status: active, in good standing\nopen tickets: {ticket}",
        ),
        K.call("list_charges", {"account": account, "since": f"{y}-01-01"}),
        K.result("list_charges", "\n".join(charges)),
        K.call(
            "issue_refund", {"charge": dup, "amount": amount}, "The later capture is the duplicate."
        ),
        K.result(
            "issue_refund",
            {"error": {"code": 429, "message": "rate limit exceeded, retry in 2s"}},
            is_error=True,
        ),
        K.call("issue_refund", {"charge": dup, "amount": amount}),
        K.result(
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
        return "$" + K.money(amount, cents=r.random() < 0.5 or amount != int(amount))

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
                f"{K.date_words(r, y, m, d)} ({orig}, {dup})",
                f"customer {first} {last} on {account} saw a duplicate capture of {money(r)} on "
                f"{K.date_words(r, y, m, d)}: {orig} and {dup}",
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
    wrong_refund = f"RF-{K.other_digits(rng, refund_no, 4)}"
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
                (("contradicted", K.norm_money("USD", wrong_amount)),),
            ),
            (
                "wrong-date",
                lambda r: (
                    0,
                    f"{account} was charged {money(r)} twice on {K.iso(y, m, wd)} ({orig}, {dup})",
                ),
                (("contradicted", K.iso(y, m, wd)),),
            ),
            ("wrong-email", lambda r: (2, f"contact {K.wrong_email(r, email)}"), ()),
            (
                "wrong-status",
                lambda r: (1, f"refund {refund} for {dup} is {wrong_status}"),
                (("contradicted", "approved" if not approved else "pending"),),
            ),
        ],
        inner_clauses=[c_charge, c_contact],
        invented=wrong_refund,
        noise=[
            K.call("search_kb", {"q": "duplicate charge refund policy"}),
            K.result(
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
