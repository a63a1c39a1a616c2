"""HR and IT tickets: onboarding, an account provisioned after a denial, a laptop."""

from __future__ import annotations

import random

from tools.claims_corpus import kit as K
from tools.claims_corpus.kit import Story


def story(rng: random.Random) -> Story:
    first, last = K.person(rng)
    email = K.email(first, last, "corp.example.com")
    ticket_no = rng.randint(5000, 5999)
    ticket = f"IT-{ticket_no}"
    asset = f"LT-{rng.randint(20000, 29999)}"
    tracking = f"1Z{rng.randint(100, 999)}BB{rng.randint(10000000, 99999999)}"
    y, m, d = 2026, rng.randint(4, 8), rng.randint(1, 28)
    laptop = rng.choice(("shipped", "processing"))
    messages = [
        K.call("get_ticket", {"id": ticket}),
        K.result(
            "get_ticket",
            f"TICKET {ticket}\ntype: onboarding\nemployee: {first} {last} <{email}>\nstart date: "
            f"{K.iso(y, m, d)}\nstatus: open",
        ),
        K.call("provision_account", {"email": email, "groups": ["staff", "vpn"]}),
        K.result(
            "provision_account",
            "permission denied: provisioning requires group it-admins",
            is_error=True,
        ),
        K.call(
            "provision_account",
            {"email": email, "groups": ["staff", "vpn"], "approved_by": "it-admins"},
        ),
        K.result(
            "provision_account", {"account": email, "status": "created", "groups": ["staff", "vpn"]}
        ),
        K.call("assign_laptop", {"ticket": ticket, "model": "14-inch"}),
        K.result(
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
                f"{K.date_words(r, y, m, d)}",
                f"onboarding ticket {ticket} for {email}, start date {K.date_words(r, y, m, d)}",
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
                    f"onboarding ticket {ticket} for {K.wrong_email(r, email)}, start date "
                    f"{K.iso(y, m, d)}",
                ),
                (),
            ),
            (
                "wrong-date",
                lambda r: (
                    0,
                    f"{ticket}: onboarding for {first} {last} starting {K.iso(y, m + 1, d)}",
                ),
                (("contradicted", K.iso(y, m + 1, d)),),
            ),
            (
                "wrong-id",
                lambda r: (
                    2,
                    f"laptop LT-{K.other_digits(r, int(asset[3:]), 5)} is {r.choice(said)}",
                ),
                (),
            ),
        ],
        inner_clauses=[c_ticket],
        invented=f"IT-{K.other_digits(rng, ticket_no, 4)}",
        noise=[
            K.call("list_groups", {"email": email}),
            K.result("list_groups", f"groups for {email}\n- staff\n- vpn"),
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
