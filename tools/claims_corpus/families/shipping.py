"""Logistics: a cross-border parcel held in customs (tracking ids of digit groups, weight,
duty, a delivery range), the customer's orders table, a duty payment declined, and a
notification that came back HTTP 503."""

from __future__ import annotations

import random

from tools.claims_corpus import kit as K
from tools.claims_corpus.kit import Sections, Story, Trap


def story(rng: random.Random) -> Story:
    tracking = f"{rng.randint(1000, 9999)}-{rng.randint(1000, 9999)}-{rng.randint(1000, 9999)}"
    order_no = rng.randint(70000, 79999)
    order, later, earlier = f"SO-{order_no}", f"SO-{order_no + 14}", f"SO-{order_no - 140}"
    sku_a, sku_b = f"SKU-{rng.randint(1000, 4999)}", f"SKU-{rng.randint(5000, 9999)}"
    price_a = rng.choice((24.95, 18.50, 32.00))
    price_b = rng.choice((260.10, 199.00, 145.50))
    qty_a = 2
    total = round(qty_a * price_a + price_b, 2)
    later_total = rng.choice((89.00, 54.20, 120.75))
    weight = rng.choice((2.40, 1.85, 3.10))
    duty = round(total * 0.15, 2)
    y, m, d = 2026, rng.randint(7, 10), rng.randint(3, 24)
    hub = rng.choice(("Leipzig hub", "East Midlands hub", "Cincinnati hub"))
    messages = [
        K.call("list_orders", {"customer": "cus_48213"}),
        K.result(
            "list_orders",
            K.table(
                ("ORDER", "PLACED", "STATUS", "TOTAL"),
                (
                    (order, K.iso(y, m, d - 2), "shipped", f"${total:,.2f}"),
                    (later, K.iso(y, m, d), "backordered", f"${later_total:,.2f}"),
                    (earlier, K.iso(y, m - 1, 21), "delivered", "$42.50"),
                ),
            ),
        ),
        K.call("get_order", {"order_id": order}),
        K.result(
            "get_order",
            {
                "order_id": order,
                "status": "shipped",
                "items": [
                    {"sku": sku_a, "qty": qty_a, "unit_price": price_a},
                    {"sku": sku_b, "qty": 1, "unit_price": price_b},
                ],
                "total": total,
                "currency": "USD",
                "tracking": tracking,
            },
        ),
        K.call("track_parcel", {"tracking": tracking}),
        K.result(
            "track_parcel",
            f"Tracking number: {tracking}\nCarrier: DHL Express\nService: International Economy\n"
            "Status: In customs, held for duty payment\n"
            f"Weight: {weight:.2f} kg\nDeclared value: USD {total:,.2f}\n"
            f"Duty due: USD {duty:,.2f}\n"
            "Estimated delivery: 5–10 business days after release\n"
            f"Last scan: {K.iso(y, m, d + 3)} 06:42 ({hub})",
        ),
        K.call("pay_duty", {"tracking": tracking, "amount": duty, "card": "visa-4242"}),
        K.result(
            "pay_duty",
            {
                "error": {
                    "code": "card_declined",
                    "http_status": 402,
                    "message": "card declined by issuer",
                }
            },
        ),
        K.call("notify_customer", {"order_id": order, "channel": "sms"}),
        K.result(
            "notify_customer",
            "POST /v1/notifications -> HTTP 503 Service Unavailable\nnotification not delivered",
        ),
    ]

    def c_parcel(r: random.Random) -> str:
        return r.choice(
            (
                f"parcel {tracking} ({weight:.2f} kg) is held in customs until USD {duty:,.2f} "
                "of duty is paid",
                f"tracking {tracking} shows the parcel in customs, awaiting ${duty:,.2f} duty",
                f"the {weight} kg parcel {tracking} is on hold at customs (last scan "
                f"{K.date_words(r, y, m, d + 3)} at the {hub})",
            )
        )

    def c_eta(r: random.Random) -> str:
        return r.choice(
            (
                "delivery is expected 5–10 business days after release",
                "the carrier estimates 5-10 business days once customs releases it",
            )
        )

    def c_order(r: random.Random) -> str:
        return r.choice(
            (
                f"order {order} (${total:,.2f}) has shipped",
                f"{order} shipped with {qty_a} × {sku_a} at ${price_a:.2f} and {sku_b} at "
                f"${price_b:.2f}",
                f"{order} for ${total:,.2f} is on its way",
            )
        )

    def c_duty_error(r: random.Random) -> str:
        return r.choice(
            (
                "paying the duty failed: the card was declined (402)",
                "the duty payment on visa-4242 was declined by the issuer",
                "we could not pay the duty because the card was declined",
            )
        )

    def c_notify(r: random.Random) -> str:
        return r.choice(
            (
                "the SMS notification was not delivered (HTTP 503)",
                "notifying the customer failed with a 503",
                "the customer has not been told: the notification service was unavailable",
            )
        )

    wrong_duty = round(duty + rng.choice((18.0, -9.5, 30.0)), 2)
    return Story(
        domain="shipping",
        messages=messages,
        inner_count=4,
        clauses=[c_parcel, c_eta, c_order, c_duty_error, c_notify],
        error_clause=3,
        dropped="denied:pay_duty",
        more_error_clauses=(4,),
        more_dropped=(("dropped", "unavailable:notify_customer"),),
        mutations=[
            (
                "entity-state",
                lambda r: (-1, r.choice((f"{later} has shipped", f"order {later} is in transit"))),
                (("contradicted", "shipped"),),
            ),
            (
                "delivered",
                lambda r: (0, f"parcel {tracking} has been delivered"),
                (("contradicted", "delivered"),),
            ),
            (
                "wrong-duty",
                lambda r: (
                    0,
                    f"parcel {tracking} is held until USD {wrong_duty:,.2f} duty is paid",
                ),
                (("contradicted", K.norm_money("USD", wrong_duty)),),
            ),
            (
                "other-entity",
                lambda r: (2, f"order {order} totals ${later_total:,.2f} and has shipped"),
                (("contradicted", K.norm_money("USD", later_total)),),
            ),
            (
                "omitted-notify-error",
                lambda r: (4, ""),
                (("dropped", "unavailable:notify_customer"),),
            ),
        ],
        inner_clauses=[c_order],
        invented=f"{rng.randint(1000, 9999)}-{rng.randint(1000, 9999)}-{rng.randint(1000, 9999)}",
        noise=[
            K.call("get_customs_rules", {"country": "DE", "hs_code": "6912.00"}),
            K.result(
                "get_customs_rules",
                "country: DE\nhs code: 6912.00 (ceramic tableware)\nduty rate: 15%\n"
                "de minimis: EUR 150",
            ),
        ],
        traps=[
            Trap("digit-group-id", lambda r: f"the tracking number is {tracking}"),
            Trap(
                "duty-and-weight", lambda r: f"the {weight:.2f} kg parcel owes ${duty:,.2f} in duty"
            ),
            Trap(
                "derived-product",
                lambda r: f"the two {sku_a} come to ${qty_a * price_a:,.2f}",
                (("unverified", K.norm_money("USD", qty_a * price_a)),),
            ),
            Trap("other-rows", lambda r: f"{earlier} was delivered and {later} is backordered"),
            Trap("range", lambda r: "expect delivery in 5 to 10 business days after release"),
        ],
        sections=Sections(
            request=f"Find out where order {order} is and get it delivered.",
            concepts=("customs holds and duty", "carrier tracking", "international parcels"),
            pending=("Pay the duty with another card.", "Notify the customer by SMS again."),
            next_step="Ask the customer for another card.",
        ),
    )
