"""Finance invoices: an overdue invoice, a payment declined, a payment scheduled."""

from __future__ import annotations

import random

from tools.claims_corpus import kit as K
from tools.claims_corpus.kit import Story


def story(rng: random.Random) -> Story:
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
        K.call("get_invoice", {"id": invoice}),
        K.result(
            "get_invoice",
            {
                "invoice_id": invoice,
                "vendor": vendor,
                "po": po,
                "amount_due": amount,
                "currency": currency,
                "due_date": K.iso(y, m, d),
                "status": "overdue",
            },
        ),
        K.call("pay_invoice", {"id": invoice, "amount": amount}),
        K.result(
            "pay_invoice",
            {"ok": False, "error": "insufficient funds in operating account"},
            is_error=True,
        ),
        K.call("schedule_payment", {"id": invoice, "date": K.iso(py, pm, pd)}),
        K.result(
            "schedule_payment",
            f"payment {pay} scheduled\ninvoice: {invoice}\namount: {amount:,.2f} {currency}\nrun "
            f"date: {K.iso(py, pm, pd)}",
        ),
    ]
    said = ("overdue", "past due", "unpaid", "outstanding")

    def c_invoice(r: random.Random) -> str:
        price = r.choice(
            (
                f"{symbol}{K.money(amount, cents=r.random() < 0.5 or amount != int(amount))}",
                f"{currency} {amount:,.2f}",
            )
        )
        return r.choice(
            (
                f"invoice {invoice} from {vendor} ({price}, due {K.date_words(r, y, m, d)}) is "
                f"{r.choice(said)}",
                f"{vendor}'s {invoice} for {price} is {r.choice(said)} since "
                f"{K.date_words(r, y, m, d)}",
            )
        )

    def c_po(r: random.Random) -> str:
        return r.choice((f"it references {po}", f"PO {po}"))

    def c_payment(r: random.Random) -> str:
        return r.choice(
            (
                f"{pay} is scheduled for {K.date_words(r, py, pm, pd)}",
                f"payment {pay} will run on {K.date_words(r, py, pm, pd)}",
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
                (("contradicted", K.norm_money(currency, wrong_amount)),),
            ),
            (
                "wrong-status",
                lambda r: (0, f"invoice {invoice} from {vendor} is paid"),
                (("contradicted", "paid"),),
            ),
            (
                "wrong-date",
                lambda r: (2, f"{pay} is scheduled for {K.iso(py, pm, pd % 28 + 1)}"),
                (("contradicted", K.iso(py, pm, pd % 28 + 1)),),
            ),
            (
                "swapped-date",
                lambda r: (2, f"{pay} is scheduled for {K.date_with_year(r, y, m, d)}"),
                (("contradicted", K.iso(y, m, d)),),
            ),
            (
                "wrong-id",
                lambda r: (1, f"it references PO-{K.other_digits(r, int(po[3:]), 4)}"),
                (),
            ),
        ],
        inner_clauses=[c_invoice],
        invented=f"PAY-{K.other_digits(rng, int(pay[4:]), 4)}",
        noise=[
            K.call("list_invoices", {"vendor": vendor}),
            K.result(
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
