"""Payments: a disputed card charge, its balance transactions, a refund held for risk review,
and a customer notice the messaging API did not deliver (HTTP 503 in a normal result)."""

from __future__ import annotations

import random

from tools.claims_corpus import kit as K
from tools.claims_corpus.kit import Sections, Story, Trap

_ALNUM = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789"


def _token(rng: random.Random, prefix: str, size: int = 10) -> str:
    while True:
        body = "".join(rng.choice(_ALNUM) for _ in range(size))
        if any(c.isdigit() for c in body) and any(c.isalpha() for c in body):
            return f"{prefix}_{rng.randint(1, 9)}{body}"


def story(rng: random.Random) -> Story:
    charge, customer = _token(rng, "ch"), _token(rng, "cus", 8)
    refund, dispute = _token(rng, "re"), _token(rng, "dp")
    txn_a, txn_b = _token(rng, "txn"), _token(rng, "txn")
    amount = rng.choice((1204.50, 2310.75, 1580.00, 1049.90))
    fee = round(amount * 0.029 + 0.30, 2)
    net = round(amount - fee, 2)
    other = rng.choice((120.00, 64.90, 212.40))
    y, m, d = 2026, rng.randint(3, 6), rng.randint(3, 18)
    due = (y, m, d + 10)
    eta = (y, m, d + 2)
    first, last = K.person(rng)
    address = K.email(first, last, "shop.example.com")
    messages = [
        K.call("get_charge", {"charge": charge}),
        K.result(
            "get_charge",
            {
                "id": charge,
                "object": "charge",
                "amount": amount,
                "currency": "EUR",
                "customer": customer,
                "status": "succeeded",
                "disputed": True,
                "created": f"{K.iso(y, m, d)}T09:14:03Z",
            },
        ),
        K.call("list_balance_transactions", {"customer": customer, "limit": 10}),
        K.result(
            "list_balance_transactions",
            K.table(
                ("ID", "TYPE", "GROSS", "FEE", "NET", "STATUS", "AVAILABLE ON"),
                (
                    (
                        txn_a,
                        "charge",
                        K.de(amount),
                        K.de(fee),
                        K.de(net),
                        "available",
                        K.iso(y, m, d + 2),
                    ),
                    (txn_b, "refund", "-" + K.de(other), "0,00", "-" + K.de(other), "pending", "—"),
                ),
            ),
        ),
        K.call("get_dispute", {"charge": charge}),
        K.result(
            "get_dispute",
            {
                "id": dispute,
                "charge": charge,
                "amount": amount,
                "currency": "EUR",
                "reason": "duplicate",
                "status": "needs_response",
                "evidence_due_by": K.iso(*due),
            },
        ),
        K.call(
            "create_refund",
            {"charge": charge, "amount": amount, "reason": "duplicate"},
            "A full refund settles the dispute.",
        ),
        K.result(
            "create_refund",
            {
                "id": refund,
                "object": "refund",
                "charge": charge,
                "amount": amount,
                "currency": "EUR",
                "status": "pending_review",
                "review": {"queue": "risk", "eta": K.iso(*eta)},
            },
        ),
        K.call("notify_customer", {"customer": customer, "template": "refund_started"}),
        K.result(
            "notify_customer",
            "POST /v1/messages -> HTTP 503 Service Unavailable\n"
            "message not delivered; retry after 60s",
        ),
    ]

    def eur(r: random.Random, value: float) -> str:
        return r.choice((f"€{K.money(value)}", f"EUR {value:,.2f}", f"{K.de(value)} €"))

    def c_charge(r: random.Random) -> str:
        return r.choice(
            (
                f"charge {charge} for {eur(r, amount)} was disputed by {customer} "
                f"(charged {K.date_words(r, y, m, d)})",
                f"{customer} disputed the {eur(r, amount)} charge {charge} from "
                f"{K.date_words(r, y, m, d)}",
                f"the customer opened a dispute on {charge} ({eur(r, amount)}, "
                f"{d} {K.MONTHS[m - 1]})",
            )
        )

    def c_balance(r: random.Random) -> str:
        return r.choice(
            (
                f"the charge netted {eur(r, net)} after a {eur(r, fee)} fee",
                f"balance transaction {txn_a} shows {K.de(amount)} gross, {K.de(fee)} fee and "
                f"{K.de(net)} net",
                f"processing fees were {eur(r, fee)}, leaving {eur(r, net)} available on "
                f"{K.date_words(r, y, m, d + 2)}",
            )
        )

    def c_dispute(r: random.Random) -> str:
        return r.choice(
            (
                f"dispute {dispute} still needs a response by {K.date_words(r, *due)}",
                f"evidence for {dispute} is due {K.date_words(r, *due)}",
                f"{dispute} (reason: duplicate) needs a response before {K.date_words(r, *due)}",
            )
        )

    def c_refund(r: random.Random) -> str:
        return r.choice(
            (
                f"refund {refund} for the full {eur(r, amount)} is pending review by the risk team",
                f"{refund} ({eur(r, amount)}) is awaiting risk review, expected by "
                f"{K.date_words(r, *eta)}",
                f"a full refund, {refund}, was created and is under review",
            )
        )

    def c_error(r: random.Random) -> str:
        return r.choice(
            (
                "the customer notification failed with HTTP 503 and was not delivered",
                "notify_customer got a 503 (service unavailable), so the customer has not been "
                "told yet",
                "we could not message the customer: the messaging API was unavailable",
            )
        )

    stranger = rng.choice(K.STRANGERS)
    handle = rng.choice(("risk-ops", "payments-lead", "mkowalski"))
    wrong_due = (y, m, d + rng.choice((7, 8, 12)))
    wrong_amount = amount + rng.choice((-100.0, 50.0, 200.0))
    fee_share = round(fee / amount * 100, 1)
    return Story(
        domain="payments",
        messages=messages,
        inner_count=4,
        clauses=[c_charge, c_balance, c_dispute, c_refund, c_error],
        error_clause=4,
        dropped="unavailable:notify_customer",
        mutations=[
            (
                "status-words",
                lambda r: (
                    3,
                    r.choice(
                        (
                            "the refund is complete and the customer has been made whole",
                            f"refund {refund} has completed and the customer was made whole",
                            f"{refund} went through, so the customer is made whole",
                        )
                    ),
                ),
                (("contradicted", "succeeded"),),
                (("contradicted", "refunded"),),
            ),
            (
                "other-entity",
                lambda r: (3, f"refund {refund} of {eur(r, other)} is pending review"),
                (("contradicted", K.norm_money("EUR", other)),),
            ),
            (
                "wrong-amount",
                lambda r: (3, f"refund {refund} of €{wrong_amount:,.2f} is pending review"),
                (("contradicted", K.norm_money("EUR", wrong_amount)),),
            ),
            (
                "wrong-date",
                lambda r: (2, f"dispute {dispute} needs a response by {K.iso(*wrong_due)}"),
                (("contradicted", K.iso(*wrong_due)),),
            ),
            (
                "invented-name",
                lambda r: (-1, f"the case was escalated to {stranger[0]} {stranger[1]}"),
                (("unsupported", f"{stranger[0]} {stranger[1]}"),),
            ),
            (
                "invented-handle",
                lambda r: (-1, f"cc @{handle} on the refund"),
                (("unsupported", f"@{handle}"),),
            ),
        ],
        inner_clauses=[c_charge, c_balance],
        invented=f"CASE-{rng.randint(10000, 99999)}",
        noise=[
            K.call("get_customer", {"customer": customer}),
            K.result(
                "get_customer",
                f"customer: {customer}\nname: {first} {last}\nemail: {address}\n"
                "default currency: eur\nbalance: 0,00 €\ndelinquent: false",
            ),
        ],
        traps=[
            Trap("locale-amount", lambda r: f"the ledger shows {K.de(amount)} EUR gross for it"),
            Trap("date-end", lambda r: f"the charge was made on {d} {K.MONTHS[m - 1]}"),
            Trap(
                "derived-percent",
                lambda r: f"the fee came to {fee_share}% of the charge",
                (("unverified", K.norm_number(fee_share)),),
            ),
            Trap(
                "derived-sum",
                lambda r: f"{txn_a} and {txn_b} together net €{net - other:,.2f}",
                (("unverified", K.norm_money("EUR", net - other)),),
            ),
            Trap("customer-email", lambda r: f"the customer's email on file is {address}"),
        ],
        sections=Sections(
            request="Resolve the customer's dispute of a duplicate charge and refund it.",
            concepts=(
                "card disputes and evidence deadlines",
                "refund review queues",
                "balance transactions: gross, fee and net",
            ),
            pending=(f"Submit evidence for {dispute} before the deadline.",),
            fixes=(
                "Retry notify_customer once the messaging API is back.",
                "Tell the customer about the refund.",
            ),
        ),
    )
