"""Commerce and travel: hotel options (the one not chosen has its own rates), a room type
that was fully booked (HTTP 409), and the booking with rates written the continental way
(``174,00 €``)."""

from __future__ import annotations

import random

from tools.claims_corpus import kit as K
from tools.claims_corpus.kit import Sections, Story, Trap


def story(rng: random.Random) -> Story:
    first, last = K.person(rng)
    address = K.email(first, last)
    city = rng.choice(("Lisbon", "Porto", "Seville"))
    cheap_id, chosen_id = f"HTL-{rng.randint(3000, 3999)}", f"HTL-{rng.randint(2000, 2999)}"
    cheap_name = rng.choice(("Casa Alfama", "Hostal Sol", "Pensão Azul"))
    chosen_name = rng.choice(("Baixa Grand", "Hotel Miradouro", "Palacio Real"))
    cheap_rate = rng.choice((142.0, 118.0, 131.0))
    deluxe_rate = rng.choice((189.0, 205.0, 221.0))
    rate = deluxe_rate - rng.choice((15.0, 21.0, 30.0))
    nights = rng.choice((3, 4))
    total = rate * nights
    ref = "BK-" + "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
    while not any(c.isdigit() for c in ref[3:]) or sum(c.isdigit() for c in ref) < 2:
        ref = "BK-" + "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
    y, m, d = 2026, rng.randint(4, 10), rng.randint(5, 18)
    out_d = d + nights
    free_d = d - 2
    messages = [
        K.call("search_hotels", {"city": city, "check_in": K.iso(y, m, d), "nights": nights}),
        K.result(
            "search_hotels",
            {
                "results": [
                    {
                        "hotel_id": cheap_id,
                        "name": cheap_name,
                        "rating": 4.4,
                        "nightly_rate": {"amount": cheap_rate, "currency": "EUR"},
                        "total": {"amount": cheap_rate * nights, "currency": "EUR"},
                    },
                    {
                        "hotel_id": chosen_id,
                        "name": chosen_name,
                        "rating": 4.8,
                        "nightly_rate": {"amount": deluxe_rate, "currency": "EUR"},
                        "total": {"amount": deluxe_rate * nights, "currency": "EUR"},
                    },
                ]
            },
        ),
        K.call("book_room", {"hotel_id": chosen_id, "room": "deluxe", "nights": nights}),
        K.result(
            "book_room",
            f"409 Conflict: deluxe rooms at {chosen_name} are fully booked for {K.iso(y, m, d)}",
        ),
        K.call(
            "book_room",
            {
                "hotel_id": chosen_id,
                "room": "superior",
                "nights": nights,
                "guest": f"{first} {last}",
            },
        ),
        K.result(
            "book_room",
            {
                "booking_ref": ref,
                "hotel_id": chosen_id,
                "room": "superior",
                "check_in": K.iso(y, m, d),
                "check_out": K.iso(y, m, out_d),
                "nightly_rate": f"{K.de(rate)} €",
                "total": f"{K.de(total)} €",
                "status": "confirmed",
                "cancellation": f"free until {K.iso(y, m, free_d)} 18:00 WEST",
            },
        ),
        K.call("send_confirmation", {"to": address, "booking_ref": ref}),
        K.result("send_confirmation", f"250 OK: queued as {K.hex_id(rng, 10).upper()}"),
    ]
    month = K.MONTHS[m - 1]

    def eur(r: random.Random, value: float) -> str:
        return r.choice((f"€{value:,.0f}", f"{K.de(value)} €", f"EUR {value:,.2f}"))

    def c_booking(r: random.Random) -> str:
        return r.choice(
            (
                f"booked {ref} at {chosen_name} (superior room) for {nights} nights from "
                f"{d} {month}, {eur(r, rate)} a night, {eur(r, total)} in total, confirmed",
                f"{ref} is confirmed: superior room, {K.date_words(r, y, m, d)} to "
                f"{K.date_words(r, y, m, out_d)}, {eur(r, total)}",
                f"{first} {last} is booked into {chosen_name} ({ref}) at {eur(r, rate)} per night",
            )
        )

    def c_cancel(r: random.Random) -> str:
        return r.choice(
            (
                f"free cancellation until {d - 2} {month}, 18:00 WEST",
                f"it can be cancelled free of charge until {K.date_words(r, y, m, free_d)}",
            )
        )

    def c_error(r: random.Random) -> str:
        return r.choice(
            (
                "the deluxe room was fully booked (409), so a superior room was taken",
                "deluxe was sold out for those dates",
                "booking a deluxe room failed with a conflict: none left",
            )
        )

    def c_email(r: random.Random) -> str:
        return r.choice(
            (f"the confirmation went to {address}", f"confirmation email queued for {address}")
        )

    def c_search(r: random.Random) -> str:
        return r.choice(
            (
                f"the search found {chosen_name} ({chosen_id}) and {cheap_name} ({cheap_id}) "
                f"in {city}",
                f"{cheap_id} was cheaper but {chosen_id} is rated 4.8",
            )
        )

    return Story(
        domain="hotel",
        messages=messages,
        inner_count=2,
        clauses=[c_booking, c_cancel, c_error, c_email, c_search],
        error_clause=2,
        dropped="conflict:book_room",
        mutations=[
            (
                "unchosen-total",
                lambda r: (0, f"{ref} at {chosen_name} costs €{cheap_rate * nights:,.2f} in total"),
                (("contradicted", K.norm_money("EUR", cheap_rate * nights)),),
            ),
            (
                "unchosen-rate",
                lambda r: (0, f"{ref} is confirmed at €{cheap_rate:,.2f} per night"),
                (("contradicted", K.norm_money("EUR", cheap_rate)),),
            ),
            (
                "wrong-status",
                lambda r: (0, r.choice((f"{ref} is on hold", f"{ref} is only provisional"))),
                (("contradicted", "held"),),
            ),
            (
                "wrong-date",
                lambda r: (0, f"{ref} is confirmed, checking out on {out_d + 1} {month} {y}"),
                (("contradicted", K.iso(y, m, out_d + 1)),),
            ),
            (
                "wrong-email",
                lambda r: (3, f"the confirmation went to {K.wrong_email(r, address)}"),
                (),
            ),
        ],
        inner_clauses=[c_search],
        invented=f"BK-{rng.randint(100, 999)}X{rng.randint(10, 99)}",
        noise=[
            K.call("get_weather", {"city": city, "date": K.iso(y, m, d)}),
            K.result("get_weather", f"{city} {K.iso(y, m, d)}: 24°C, sunny, wind 12 km/h"),
        ],
        traps=[
            Trap(
                "derived-product",
                lambda r: f"the first two nights come to €{rate * 2:,.0f}",
                (("unverified", K.norm_money("EUR", rate * 2)),),
            ),
            Trap("locale-rate", lambda r: f"the nightly rate is {K.de(rate)} €"),
            Trap(
                "unchosen-named",
                lambda r: f"{cheap_name} was cheaper at €{cheap_rate:,.0f} a night but not booked",
            ),
            Trap("printed-total", lambda r: f"{nights} nights at €{rate:,.0f} make €{total:,.0f}"),
        ],
        sections=Sections(
            request=f"Book a hotel in {city} for {nights} nights and send the confirmation.",
            concepts=("room types and availability", "free cancellation windows"),
            pending=("Nothing else: the booking is confirmed.",),
        ),
    )
