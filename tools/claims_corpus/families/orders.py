"""E-commerce orders: an order, its stock, and a customer email that bounced."""

from __future__ import annotations

import random
from typing import Any

from tools.claims_corpus import kit as K
from tools.claims_corpus.kit import Story


def story(rng: random.Random) -> Story:
    first, last = K.person(rng)
    email = K.email(first, last, "mail.example.net")
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
        order_doc["shipped_at"] = f"{K.iso(y, m, d)}T14:05:00Z"
    else:
        order_doc["restock_date"] = K.iso(y, m, d)
    messages = [
        K.call("get_order", {"order_id": order}),
        K.result("get_order", order_doc),
        K.call("check_inventory", {"sku": skus[0]}),
        K.result(
            "check_inventory",
            f"SKU {skus[0]}\non hand: "
            f"{0 if status == 'backordered' else rng.randint(3, 40)}\nwarehouse: RNO-2\nnext "
            f"restock: {K.iso(y, m, d)}",
        ),
        K.call("send_email", {"to": email, "template": "order_update"}),
        K.result("send_email", f"Error: 550 mailbox unavailable for {email}", is_error=True),
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
                f"${K.money(total)}) is {r.choice(said)}",
                f"{order} for {email} is {r.choice(said)}; total ${K.money(total)}",
                f"order {order} is {r.choice(said)} (${K.money(total)})",
            )
        )

    def c_date(r: random.Random) -> str:
        if status == "shipped":
            return r.choice(
                (
                    f"it shipped on {K.date_words(r, y, m, d)} with tracking {tracking}",
                    f"tracking {tracking}, shipped {K.date_words(r, y, m, d)}",
                )
            )
        return r.choice(
            (
                f"{skus[0]} restocks on {K.date_words(r, y, m, d)}",
                f"{skus[0]} is expected back {K.date_words(r, y, m, d)}",
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
    wrong_sku = f"SKU-{K.other_digits(rng, int(skus[0][4:]), 4)}"
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
                lambda r: (0, f"order {order} is {r.choice(said)}, total ${K.money(wrong_total)}"),
                (("contradicted", K.norm_money("USD", wrong_total)),),
            ),
            (
                "swapped-amount",
                lambda r: (0, f"order {order} is {r.choice(said)}, total ${K.money(prices[0])}"),
                (("contradicted", K.norm_money("USD", prices[0])),) if prices[0] != total else (),
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
                    f"{skus[0]} restocks on {K.iso(y, m, wd)}"
                    if status != "shipped"
                    else f"it shipped on {K.iso(y, m, wd)}",
                ),
                (("unsupported", K.iso(y, m, wd)),),
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
                    f"{wrong_sku} restocks on {K.iso(y, m, d)}"
                    if status != "shipped"
                    else f"{wrong_sku} shipped on {K.iso(y, m, d)}",
                ),
                (("unsupported", wrong_sku.replace("-", "")),),
            ),
        ],
        inner_clauses=[c_order],
        invented=f"SO-{K.other_digits(rng, order_no, 5)}",
        noise=[
            K.call("list_orders", {"customer": email}),
            K.result(
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
