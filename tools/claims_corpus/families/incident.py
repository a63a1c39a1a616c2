"""Incidents and on-call: an incident, its metrics, a pod restart that was denied."""

from __future__ import annotations

import random

from tools.claims_corpus import kit as K
from tools.claims_corpus.kit import Story


def story(rng: random.Random) -> Story:
    inc_no = rng.randint(7000, 7999)
    inc = f"INC-{inc_no}"
    service = rng.choice(("payments-api", "ledger-db", "search", "notifications"))
    hour, minute = rng.randint(0, 23), rng.choice((5, 12, 17, 42, 55))
    rate = rng.choice((12.5, 4.2, 31.0, 7.75))
    p99 = rng.choice((2.4, 1.8, 3.1))
    lead = K.email(*K.person(rng), "ops.example.com")
    url = f"https://runbooks.example.com/{service}/latency"
    status = rng.choice(("investigating", "resolved"))
    messages = [
        K.call("get_incident", {"id": inc}),
        K.result(
            "get_incident",
            {
                "incident": inc,
                "service": service,
                "severity": "SEV2",
                "opened_at": f"2026-03-0{rng.randint(1, 9)}T{hour:02d}:{minute:02d}:00Z",
                "status": "investigating",
            },
        ),
        K.call("query_metrics", {"service": service, "window": "1h"}),
        K.result(
            "query_metrics",
            f"{service} last 1h\np99 latency: {p99} s\nerror rate: {rate}% since "
            f"{hour:02d}:{minute:02d} UTC\nrunbook: {url}",
        ),
        K.call("restart_pods", {"service": service, "namespace": "prod"}),
        K.result(
            "restart_pods",
            "Forbidden: user oncall-bot cannot delete pods in namespace prod (needs role "
            f"{service}-operator)",
            is_error=True,
        ),
        K.call("update_incident", {"id": inc, "status": status, "escalated_to": lead}),
        K.result(
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
            ("wrong-email", lambda r: (2, f"escalated to {K.wrong_email(r, lead)}"), ()),
            (
                "wrong-id",
                lambda r: (
                    0,
                    f"INC-{K.other_digits(r, inc_no, 4)} ({service}) is {r.choice(said)}",
                ),
                (),
            ),
        ],
        inner_clauses=[c_metrics],
        invented=f"INC-{K.other_digits(rng, inc_no, 4)}",
        noise=[
            K.call("get_alerts", {"service": service}),
            K.result(
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
