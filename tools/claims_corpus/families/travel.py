"""Travel booking: flight options, a fare that was gone, the booking ticketed."""

from __future__ import annotations

import random

from tools.claims_corpus import kit as K
from tools.claims_corpus.kit import Story


def story(rng: random.Random) -> Story:
    first, last = K.person(rng)
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
        K.call("search_flights", {"from": "FRA", "to": "LIS", "date": K.iso(y, m, d)}),
        K.result(
            "search_flights",
            {
                "options": [
                    {
                        "flight": other,
                        "dep": f"{K.iso(y, m, d)}T{(hh + 3) % 24:02d}:{mm:02d}",
                        "fare": {"amount": cheaper, "currency": "EUR"},
                        "seats": 2,
                    },
                    {
                        "flight": flight,
                        "dep": f"{K.iso(y, m, d)}T{hh:02d}:{mm:02d}",
                        "fare": {"amount": fare, "currency": "EUR"},
                        "seats": 9,
                    },
                ]
            },
        ),
        K.call("book_flight", {"flight": other, "passenger": f"{first} {last}"}),
        K.result(
            "book_flight",
            {"error": f"fare class for {other} is no longer available"},
            is_error=True,
        ),
        K.call("book_flight", {"flight": flight, "passenger": f"{first} {last}"}),
        K.result(
            "book_flight",
            {
                "pnr": pnr,
                "flight": flight,
                "passenger": f"{first} {last}",
                "departure": f"{K.iso(y, m, d)}T{hh:02d}:{mm:02d}:00",
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
                f"booked {flight} on {K.date_words(r, y, m, d)} for {first} {last}, fare {price}, "
                f"{r.choice(said)}",
                f"{first} {last} is {r.choice(said)} on {flight} ({K.date_words(r, y, m, d)}, "
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
                f"{other} could not be booked (fare no longer available)",
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
                (("contradicted", K.norm_money("EUR", cheaper)),),
            ),
            (
                "wrong-status",
                lambda r: (
                    0,
                    f"booking on {flight} ({K.date_words(r, y, m, d)}) was {wrong_status}",
                ),
                (("contradicted", "cancelled"),),
            ),
            (
                "wrong-date",
                lambda r: (0, f"booked {flight} on {K.iso(y, m, d + 1)}, fare €{fare:.2f}"),
                (("contradicted", K.iso(y, m, d + 1)),),
            ),
            ("wrong-id", lambda r: (1, f"PNR {pnr[::-1]}"), ()),
        ],
        inner_clauses=[c_booking],
        invented=f"{carrier}{K.other_digits(rng, flight_no, 4)}",
        noise=[
            K.call("get_fare_rules", {"flight": flight}),
            K.result(
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
