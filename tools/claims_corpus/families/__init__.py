"""The corpus's families: one module each, a domain and its story.

``ORIGINAL`` are the eight the claims rules were first written beside; ``NEW`` the ten
written afterwards, before any rule was changed for them (their scores before the
change are kept in docs/claims.md).  A family is added here and never moved out.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from tools.claims_corpus.families import (
    alerts,
    backup,
    ci,
    clinic,
    deploy,
    etl,
    hotel,
    hr_it,
    incident,
    invoice,
    k8s,
    migration,
    orders,
    payments,
    shipping,
    support,
    travel,
    vulnscan,
)
from tools.claims_corpus.kit import Story

ORIGINAL: tuple[str, ...] = (
    "support",
    "deploy",
    "orders",
    "incident",
    "migration",
    "travel",
    "hr_it",
    "invoice",
)
NEW: tuple[str, ...] = (
    "payments",
    "ci",
    "backup",
    "alerts",
    "shipping",
    "clinic",
    "hotel",
    "vulnscan",
    "etl",
    "k8s",
)

FAMILIES: dict[str, Callable[[random.Random], Story]] = {
    "support": support.story,
    "deploy": deploy.story,
    "orders": orders.story,
    "incident": incident.story,
    "migration": migration.story,
    "travel": travel.story,
    "hr_it": hr_it.story,
    "invoice": invoice.story,
    "payments": payments.story,
    "ci": ci.story,
    "backup": backup.story,
    "alerts": alerts.story,
    "shipping": shipping.story,
    "clinic": clinic.story,
    "hotel": hotel.story,
    "vulnscan": vulnscan.story,
    "etl": etl.story,
    "k8s": k8s.story,
}
