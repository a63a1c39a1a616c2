"""Security and on-call: an alert table (several rows, severities SEV1..SEV3), the incident,
an error log query (ERROR lines: upstream 503s), and a page that was rate-limited first."""

from __future__ import annotations

import random

from tools.claims_corpus import kit as K
from tools.claims_corpus.kit import Sections, Story, Trap

#: A time zone a summary may convert to, and its offset from UTC in hours.
_ZONES = (("CEST", 2), ("EDT", -4), ("BST", 1), ("UTC", 0))


def story(rng: random.Random) -> Story:
    service = rng.choice(("auth-gateway", "payments-edge", "search-api"))
    upstream = rng.choice(("token-svc", "ledger-svc", "index-svc"))
    base = rng.randint(5100, 5900)
    warn, page, cert = f"ALR-{base}", f"ALR-{base + 1}", f"ALR-{base - 2}"
    inc = f"INC-{rng.randint(4000, 4999)}"
    commander = rng.choice(("jmorales", "apatel", "kwong"))
    primary = rng.choice(("lnguyen", "dokafor", "mtanaka"))
    y, m, d = 2026, rng.randint(6, 9), rng.randint(2, 27)
    hh, mm = rng.randint(1, 20), rng.choice((12, 15, 27, 41))
    rate = rng.choice((14.2, 9.7, 22.5, 31.0))
    p95 = rng.choice((2.4, 3.1, 1.8))
    messages = [
        K.call("list_alerts", {"service": service, "since": f"{K.iso(y, m, d - 1)}T00:00Z"}),
        K.result(
            "list_alerts",
            K.table(
                ("ID", "SEV", "STATUS", "TRIGGERED (UTC)", "SUMMARY"),
                (
                    (
                        warn,
                        "SEV2",
                        "acknowledged",
                        f"{K.iso(y, m, d)} {hh:02d}:{mm - 3:02d}",
                        f"login p95 > {p95}s",
                    ),
                    (
                        page,
                        "SEV1",
                        "triggered",
                        f"{K.iso(y, m, d)} {hh:02d}:{mm:02d}",
                        f"5xx rate {rate}% on {service}",
                    ),
                    (
                        cert,
                        "SEV3",
                        "resolved",
                        f"{K.iso(y, m, d - 1)} 22:40",
                        "cert expires in 14 days",
                    ),
                ),
            ),
        ),
        K.call("get_incident", {"id": inc}),
        K.result(
            "get_incident",
            {
                "id": inc,
                "title": f"{service} 5xx spike",
                "severity": "SEV1",
                "status": "investigating",
                "commander": f"@{commander}",
                "alerts": [warn, page],
                "started_at": f"{K.iso(y, m, d)}T{hh:02d}:{mm:02d}:00Z",
            },
        ),
        K.call("query_logs", {"service": service, "level": "error", "limit": 3}),
        K.result(
            "query_logs",
            f"{K.iso(y, m, d)}T{hh:02d}:{mm - 1:02d}:58.201Z ERROR [{service}] upstream connect "
            f"error: 503 from {upstream}\n"
            f"{K.iso(y, m, d)}T{hh:02d}:{mm:02d}:02.877Z ERROR [{service}] upstream connect "
            f"error: 503 from {upstream}\n"
            f"{K.iso(y, m, d)}T{hh:02d}:{mm:02d}:09.010Z WARN  [{service}] circuit breaker open "
            f"for {upstream}",
        ),
        K.call("page_oncall", {"team": "identity", "incident": inc}),
        K.result("page_oncall", "HTTP 429 Too Many Requests\nretry-after: 30"),
        K.call("page_oncall", {"team": "identity", "incident": inc, "retry": True}),
        K.result("page_oncall", f"paged: @{primary} (identity primary)\nstatus: delivered"),
    ]

    def c_incident(r: random.Random) -> str:
        return r.choice(
            (
                f"{inc} (SEV1) is still under investigation, with @{commander} as commander",
                f"{inc} is a SEV1 and still open; @{commander} is incident commander",
                f"incident {inc}, severity 1, remains open",
            )
        )

    def c_alerts(r: random.Random) -> str:
        return r.choice(
            (
                f"{page} (SEV1, 5xx rate {rate}%) is firing and {warn} (SEV2) has been "
                "acknowledged",
                f"alert {page} is still triggered at {rate}% 5xx; {warn} is acknowledged",
                f"{warn} (p95 over {p95}s) was acknowledged, {page} keeps firing",
            )
        )

    def c_logs(r: random.Random) -> str:
        return r.choice(
            (
                f"the error logs show upstream 503s from {upstream}",
                f"{service} logs upstream connect errors (503) from {upstream} and opened "
                "its circuit breaker",
                f"calls to {upstream} fail with 503 according to the logs",
            )
        )

    def c_page(r: random.Random) -> str:
        return r.choice(
            (
                f"paging identity was rate-limited (429) at first; @{primary} was then paged",
                f"the first page hit HTTP 429, the retry reached @{primary}",
                f"@{primary} has been paged after one throttled attempt",
            )
        )

    def c_start(r: random.Random) -> str:
        zone, offset = r.choice(_ZONES)
        local = (hh + offset) % 24
        return r.choice(
            (
                f"it started at {hh:02d}:{mm:02d} UTC on {K.date_words(r, y, m, d)}",
                f"the spike began at {local:02d}:{mm:02d} {zone}",
            )
        )

    stranger = rng.choice(("rpatel", "jdoe", "svc-bot"))
    wrong_rate = round(rate + rng.choice((10.0, -3.0, 4.5)), 1)
    return Story(
        domain="alerts",
        messages=messages,
        inner_count=2,
        clauses=[c_incident, c_alerts, c_logs, c_page, c_start],
        error_clause=2,
        dropped="unavailable:query_logs",
        more_error_clauses=(3,),
        more_dropped=(("dropped", "rate_limit:page_oncall"),),
        mutations=[
            (
                "wrong-level",
                lambda r: (0, r.choice((f"{inc} is a SEV2", f"{inc} was filed as SEV2"))),
                (("contradicted", "SEV2"),),
            ),
            (
                "other-row-status",
                lambda r: (1, f"{page} has been acknowledged"),
                (("contradicted", "acknowledged"),),
            ),
            (
                "wrong-status",
                lambda r: (0, f"{inc} is resolved"),
                (("contradicted", "resolved"),),
            ),
            (
                "wrong-percent",
                lambda r: (1, f"{page} fired at a {wrong_rate}% 5xx rate"),
                (("unsupported", K.norm_number(wrong_rate)),),
            ),
            (
                "invented-handle",
                lambda r: (0, f"{inc} is still open with @{stranger} as commander"),
                (("unsupported", f"@{stranger}"),),
            ),
            (
                "omitted-log-error",
                lambda r: (2, ""),
                (("dropped", "unavailable:query_logs"),),
            ),
        ],
        inner_clauses=[c_alerts],
        invented=f"ALR-{base + 7}",
        noise=[
            K.call("get_runbook", {"service": service}),
            K.result(
                "get_runbook",
                f"# {service} runbook\n1. Check {upstream} health.\n2. If 5xx > 5% for 10 min, "
                "page identity.\n3. Consider failing over to the secondary region.",
            ),
        ],
        traps=[
            Trap("other-row", lambda r: f"the certificate alert {cert} was resolved earlier"),
            Trap("level-words", lambda r: f"severity 1 incident {inc} has two alerts"),
            Trap("zone", lambda r: c_start(r)),
            Trap("runbook", lambda r: "the runbook says to page identity above 5% 5xx"),
        ],
        sections=Sections(
            request=f"Triage the {service} alerts and get the right people paged.",
            concepts=("alert severities SEV1-SEV3", "circuit breakers", "paging schedules"),
            pending=(f"Watch {page} until {upstream} recovers.",),
            next_step=f"Check {upstream} health per the runbook.",
        ),
    )
