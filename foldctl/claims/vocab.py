"""The vocabularies that carry meaning: status families, ordered levels, counts with outcomes.

One table each, every entry with the examples that test it
(``tests/unit/test_claims_vocab.py`` runs them; ``docs/claims.md`` shows them).

**Statuses.** A status word belongs to a *family*; a family has a *polarity* (what it
means whatever the domain: ``done``, ``waiting``, ``active``, ``failed``,
``cancelled``), the *axes* it is a value on (``approval``, ``shipping``, ``payment``,
``ticket``, ``booking``, ``outcome``, ``lifecycle``; the generic families are on every
axis) and a *rank* along them (earlier stages rank lower).  A summary's status and the
originals' conflict when they differ in a way no history explains: see
:func:`status_relation`.

**Levels.** Ordered scales whose values are facts of their own: severities ``SEV1``...,
priorities ``P0``..., HTTP statuses, exit codes (see :data:`SCALES`).

**Counts with outcomes.** ``1,204 passed``, ``2 failed``, ``0 mismatches``: the outcome
word after a count (see :data:`OUTCOMES`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

import msgspec

from foldctl.lazyre import lazy

DONE: Final = "done"
WAITING: Final = "waiting"
ACTIVE: Final = "active"
FAILED: Final = "failed"
CANCELLED: Final = "cancelled"
#: How far along a polarity is, for families that share no axis: waiting, then active,
#: then an end (done, failed, cancelled).
STAGE: Final[dict[str, int]] = {WAITING: 0, ACTIVE: 1, DONE: 2, FAILED: 2, CANCELLED: 2}
#: The axis of the generic families: they are a value on every axis.
ANY: Final = "any"
#: The axis of a thing's lifecycle (``active``, ``ended``): whether it is in force, which
#: no failed operation on it tells.
LIFECYCLE: Final = "lifecycle"
#: The family of a balance still owed: no call's failure tells against it.
UNPAID: Final = "unpaid"


class Family(msgspec.Struct, frozen=True):
    """A status family: what it means, where it applies, its words, its examples.

    ``phrases`` are read in free text (summaries, prose lines of results); ``values``
    only as the value of a status field (``"status": "ok"``).  ``examples`` are (text,
    family the text says, or ``""`` for none), run by the tests.
    """

    name: str
    polarity: str
    axes: frozenset[str]
    rank: int
    phrases: tuple[str, ...]
    values: tuple[str, ...] = ()
    examples: tuple[tuple[str, str], ...] = ()

    @property
    def generic(self) -> bool:
        return ANY in self.axes


#: An HTTP status written with a word before it ("HTTP 503", "code 404: ...").
_HTTP_CODE: Final = lazy(r"(?<!\s)\s*+(?:[A-Za-z]{1,4}[ -]?)?(\d{1,3})\b.*")


def _family(
    name: str,
    polarity: str,
    axes: str,
    rank: int,
    phrases: str,
    values: str = "",
    examples: tuple[tuple[str, str], ...] = (),
) -> Family:
    """A family from ``|``-separated phrase lists (phrases may hold spaces)."""
    return Family(
        name,
        polarity,
        frozenset(axes.split()),
        rank,
        tuple(p.strip() for p in phrases.split("|") if p.strip()),
        tuple(v.strip() for v in values.split("|") if v.strip()),
        examples,
    )


#: Every status family.  Words match case-insensitively with any run of spaces, ``_`` or
#: ``-`` between them (``pending_approval`` = ``pending approval`` = ``PENDING-APPROVAL``).
STATUS_TABLE: Final[tuple[Family, ...]] = (
    _family(
        "pending",
        WAITING,
        "any approval booking shipping payment outcome",
        0,
        "pending | pending approval | pending review | pending finance approval | "
        "pending sign off | awaiting approval | awaiting finance approval | awaiting review | "
        "awaiting sign off | awaiting | waiting for approval | waiting on approval | "
        "waiting on finance | waiting for review | in review | under review | in the review "
        "queue | needs approval | requires approval | submitted for approval | queued for "
        "approval | not yet approved | yet to be approved | needs response | needs a response "
        "| awaiting response | action required | requires action | queued | in the queue | "
        "scheduled | not started | has not started | not yet started | paused | deferred | "
        "draft | on the waitlist",
        "wait | waiting | new request | requested | submitted | initiated | delayed | pended",
        (
            ("refund RF-1 is pending_review", "pending"),
            ("awaiting risk review", "pending"),
            ("the job is queued", "pending"),
            ("re-run 8812 has not started yet", "pending"),
            ("PENDING-APPROVAL", "pending"),
        ),
    ),
    _family(
        "running",
        ACTIVE,
        "any outcome",
        0,
        "running | in progress | underway | under way | ongoing | still running | printing | "
        "retrying | rolling out | deploying | building | restoring | being processed | "
        "is processing",
        "in_progress | inprogress | executing | provisioning | pending_start | "
        "started | starting | sending | importing | exporting | syncing | uploading | "
        "downloading | migrating | indexing | scanning | transferring",
        (
            ("the load is still running", "running"),
            ("deploy in progress", "running"),
            ("state: RUNNING", "running"),
            ("JB-60417-R1 is printing", "running"),
        ),
    ),
    _family(
        "succeeded",
        DONE,
        "any outcome",
        1,
        "succeeded | successful | successfully | passed | passing | completed | complete | "
        "finished | done | deployed | released | rolled out | went out | went live | is live "
        "| applied | restored | all green | green | healthy | went through | gone through | "
        "fulfilled | processed | executed | ran successfully | worked | up and running | "
        "finalised | finalized",
        "ok | success | pass | live | available | succeeded_with_warnings | ready | up | "
        "completed_successfully | fine",
        (
            ("the refund is complete", "succeeded"),
            ("it went through", "succeeded"),
            ("CI is green", "succeeded"),
            ("conclusion: success", "succeeded"),
            ("deployed successfully", "succeeded"),
            ("the deploy went out", "succeeded"),
            ("the draft was finalised", "succeeded"),
        ),
    ),
    _family(
        "failed",
        FAILED,
        "any outcome payment",
        1,
        "failed | failing | fails | failure | a failure | in failure | errored | errored out "
        "| crashed | crashing | crash looping | crashloopbackoff | aborted | timed out | "
        "timeout | timeouts | unsuccessful | did not succeed | didn't succeed | broke | "
        "broken | unhealthy | oomkilled | panicked | bounced | undeliverable | went down",
        "error | fail | crash | down | degraded | unreachable | dead | killed | errored_out | red "
        "| offline",
        (
            ("run 8812 ended in failure", "failed"),
            ("the pod is in CrashLoopBackOff", "failed"),
            ("conclusion: failure", "failed"),
            ("the restore aborted", "failed"),
            ("status: FAILED", "failed"),
            ("state: OFFLINE", "failed"),
        ),
    ),
    _family(
        "rolled_back",
        FAILED,
        "outcome",
        1,
        "rolled back | reverted | rollback",
        "",
        (("v2 was rolled back", "rolled_back"),),
    ),
    _family(
        "cancelled",
        CANCELLED,
        "any approval booking shipping payment outcome ticket",
        1,
        "cancelled | canceled | called off | withdrawn | revoked | abandoned | voided | waived",
        "void | cancel | expired | superseded | skipped",
        (
            ("booking BK-1 was cancelled", "cancelled"),
            ("status: void", "cancelled"),
            ("the late fee was waived", "cancelled"),
        ),
    ),
    _family(
        "approved",
        DONE,
        "approval payment",
        1,
        "approved | accepted | authorized | authorised | granted | signed off | greenlit | okayed",
        "accept",
        (("refund RF-9120 was approved", "approved"), ("signed off by finance", "approved")),
    ),
    _family(
        "rejected",
        FAILED,
        "approval payment",
        1,
        "rejected | denied | declined | refused | disapproved | turned down",
        "reject",
        (("the card was declined", "rejected"), ("access denied", "rejected")),
    ),
    _family(
        "processing",
        ACTIVE,
        "shipping",
        0,
        "processing | awaiting shipment | awaiting fulfillment | pending shipment | pending "
        "fulfillment | not yet shipped | being packed | being prepared | packing | "
        "label created | ready to ship",
        "unfulfilled | picking | packed",
        (("awaiting shipment", "processing"), ("label created", "processing")),
    ),
    _family(
        "backordered",
        WAITING,
        "shipping",
        0,
        "backordered | back ordered | on backorder | out of stock | sold out",
        "",
        (("SO-1 is back-ordered", "backordered"), ("the dumplings are sold out", "backordered")),
    ),
    _family(
        "shipped",
        DONE,
        "shipping",
        1,
        "shipped | dispatched | in transit | out for delivery | sent out | on its way | on "
        "the way | handed to the carrier | picked up by the carrier | departed | has left",
        "partially_shipped",
        (("it is in transit", "shipped"), ("dispatched today", "shipped")),
    ),
    _family(
        "in_customs",
        WAITING,
        "shipping",
        1,
        "in customs | held in customs | customs hold | held at customs | on hold at customs "
        "| held for duty | awaiting customs clearance | at customs",
        "customs",
        (("In customs, held for duty payment", "in_customs"),),
    ),
    _family(
        "delivered",
        DONE,
        "shipping",
        2,
        "delivered | received by the customer | signed for",
        "",
        (("the parcel has been delivered", "delivered"),),
    ),
    _family(
        "returned",
        DONE,
        "shipping",
        3,
        # "returned" alone, in prose, is mostly a call's answer ("returned ok: false",
        # "returned 503"), so it is a status only as a field's value
        "returned to sender",
        "returned",
        (("returned to sender", "returned"), ("the API returned HTTP 503", "")),
    ),
    _family(
        "open",
        ACTIVE,
        "ticket",
        0,
        "open | reopened | still open | investigating | under investigation | unresolved | "
        "firing | triggered | alerting | still to do",
        "new | todo | to do | triaged | backlog | assigned | identified",
        (
            ("INC-1 is still open", "open"),
            ("ALR-2 keeps firing", "open"),
            ("status: To Do", "open"),
        ),
    ),
    _family(
        "acknowledged",
        ACTIVE,
        "ticket",
        1,
        "acknowledged | acked | ack'd",
        "monitoring",
        (("ALR-5521 has been acknowledged", "acknowledged"),),
    ),
    _family(
        "resolved",
        DONE,
        "ticket",
        2,
        "resolved | closed | solved | fixed | mitigated | remediated | cleared | answered",
        "",
        (
            ("VULN-1 is mitigated", "resolved"),
            ("open -> solved", "resolved"),
            ("fault FLT-1 CLEARED", "resolved"),
            ("RFI-0142 has been answered", "resolved"),
        ),
    ),
    _family(
        "merged",
        DONE,
        "ticket",
        2,
        "merged",
        "",
        (("the PR was merged", "merged"),),
    ),
    _family(
        "active",
        ACTIVE,
        LIFECYCLE,
        0,
        "active | still active | in force | in effect | activated | reactivated",
        "enabled",
        (("the policy is still active", "active"), ("status: ACTIVE", "active")),
    ),
    _family(
        "ended",
        CANCELLED,
        LIFECYCLE,
        1,
        "inactive | suspended | terminated | deactivated | lapsed",
        "disabled | ended",
        (("the account is suspended", "ended"), ("state: INACTIVE", "ended")),
    ),
    _family(
        "held",
        WAITING,
        "booking",
        0,
        "on hold | held | waitlisted | provisional | tentative | unconfirmed | pending "
        "confirmation | awaiting confirmation",
        "hold",
        (("BK-1 is only provisional", "held"), ("the slot is tentative", "held")),
    ),
    _family(
        "confirmed",
        DONE,
        "booking",
        1,
        "confirmed | booked | ticketed | reserved",
        "",
        (("booking BK-1 is confirmed", "confirmed"),),
    ),
    _family(
        "unpaid",
        WAITING,
        "payment",
        0,
        "unpaid | outstanding | overdue | past due | awaiting payment | payment pending",
        "partially paid | due | open_balance",
        (("INV-1 is past due", "unpaid"),),
    ),
    _family(
        "paid",
        DONE,
        "payment",
        1,
        "paid | paid in full | settled | captured",
        "",
        (("the invoice was paid in full", "paid"),),
    ),
    _family(
        "refunded",
        DONE,
        "payment",
        2,
        "refunded | made whole | money returned | reimbursed",
        "",
        (("the customer has been made whole", "refunded"),),
    ),
)

FAMILIES: Final[dict[str, Family]] = {f.name: f for f in STATUS_TABLE}

#: Pairs of families that never contradict each other (either order).
COMPATIBLE: Final = frozenset(
    frozenset(pair)
    for pair in (
        ("resolved", "merged"),
        ("failed", "rolled_back"),
        ("failed", "rejected"),
        ("approved", "paid"),
        ("shipped", "in_customs"),
        ("pending", "processing"),
        ("pending", "backordered"),
        ("pending", "running"),
        ("pending", "active"),
        ("pending", "held"),
        ("pending", "unpaid"),
        ("pending", "open"),
        ("pending", "in_customs"),
        ("running", "open"),
        ("running", "acknowledged"),
        ("running", "processing"),
        ("succeeded", "resolved"),
    )
)

#: Status phrases by family (free text).
PHRASES: Final[dict[str, str]] = {
    phrase: family.name for family in STATUS_TABLE for phrase in family.phrases
}
#: Status field values by family (beyond the phrases).
VALUES: Final[dict[str, str]] = {
    value: family.name for family in STATUS_TABLE for value in family.values
}

_SEPARATORS: Final = lazy(r"[\s_-]+")


def status_key(text: str) -> str:
    """A status text as the tables file it: lower case, one space between words."""
    return " ".join(_SEPARATORS.split(text.strip().lower()))


def status_family(text: str) -> str | None:
    """The family of a status phrase or field value (``"PENDING_APPROVAL"`` -> ``pending``)."""
    key = status_key(text)
    return PHRASES.get(key) or VALUES.get(key)


def status_relation(summary: str, evidence: str) -> str:
    """``consistent``, ``conflict`` or ``unrelated``: a summary's family against the
    originals'.

    Families that share an axis (the generic ones share every axis) conflict unless the
    summary's is an *earlier* stage of a process that went on ("pending" of a refund
    since approved narrates history; "approved" of one still pending invents the future;
    "shipped" of one since delivered is history).  A failure or a cancellation is never
    an earlier stage.  Between a generic family and a specific one the polarity decides:
    the same polarity is consistent ("complete" and "shipped").  A thing's lifecycle
    (``active``, ``ended``) the summary tells is unrelated to a failure the originals
    tell ("key K-1 is still active" of a key whose rotation failed with 409); a failure
    the summary tells of a thing the originals give as in force is a conflict ("PF-3
    timed out" of a price file ``published: true, status: active``).
    """
    if summary == evidence or frozenset((summary, evidence)) in COMPATIBLE:
        return "consistent"
    said, seen = FAMILIES[summary], FAMILIES[evidence]
    if LIFECYCLE in said.axes and LIFECYCLE not in seen.axes and seen.polarity == FAILED:
        return "unrelated"  # a call on a thing in force failed: not its lifecycle
    if UNPAID in (said.name, seen.name) and FAILED in (said.polarity, seen.polarity):
        return "unrelated"  # a failed charge leaves a balance unpaid; a call on one failed
    specific = (said.axes & seen.axes) - {ANY}
    if said.generic or seen.generic:
        if said.polarity == seen.polarity:
            return "consistent"
        if specific and not (said.generic and seen.generic):
            earlier = said.rank < seen.rank
        else:
            earlier = STAGE[said.polarity] < STAGE[seen.polarity]
        if earlier and said.polarity in (WAITING, ACTIVE) and seen.polarity == DONE:
            return "consistent"
        return "conflict"
    if not specific:
        return "unrelated"
    if said.rank < seen.rank and said.polarity not in (FAILED, CANCELLED):
        return "consistent"  # the summary tells an earlier stage: history, not a claim
    return "conflict"


# --------------------------------------------------------------------------- levels


class Scale(msgspec.Struct, frozen=True):
    """An ordered scale: how a value is written (``pattern``, its digits in group ``n``),
    how it is normalised (``prefix`` + number), and examples (text -> value, ``""``:
    none)."""

    name: str
    prefix: str
    pattern: str
    examples: tuple[tuple[str, str], ...]


#: The ordered scales.  Each pattern is tried at a word start; ``n`` is the level.
SCALES: Final[tuple[Scale, ...]] = (
    Scale(
        "severity",
        "SEV",
        r"(?<![\w-])(?:SEV|Sev|sev)[ -]?(?P<n>[0-5])(?![\w-])|"
        r"[Ss]everity[ :-]{1,3}(?:level )?(?P<n2>[0-5])\b",
        (
            ("INC-4410 is a SEV1", "SEV1"),
            ("severity 2", "SEV2"),
            ("a Sev-3 incident", "SEV3"),
            ("SEV10", ""),
        ),
    ),
    Scale(
        "priority",
        "P",
        r"(?<![\w-])P(?P<n>[0-5])(?![\w-])|[Pp]riority[ :-]{1,3}P?(?P<n2>[0-5])\b",
        (
            ("ticket SEC-1 (P1)", "P1"),
            ("priority 2", "P2"),
            ("P95 latency", ""),
        ),
    ),
    Scale(
        "http",
        "HTTP ",
        r"HTTP(?:/\d(?:\.\d)?)? ?(?P<n>[1-5]\d\d)\b|"
        r"(?P<n2>[1-5]\d\d)(?= (?:OK|Created|Accepted|No Content|Moved Permanently|Found|"
        r"Not Modified|Bad Request|Unauthori[sz]ed|Payment Required|Forbidden|Not Found|"
        r"Method Not Allowed|Conflict|Gone|Unprocessable|Too Many Requests|Internal Server "
        r"Error|Bad Gateway|Service Unavailable|Gateway Time-?out)\b)",
        (
            ("HTTP 503", "HTTP 503"),
            ("HTTP/1.1 200 OK", "HTTP 200"),
            ("409 Conflict: fully booked", "HTTP 409"),
            ("503 rows", ""),
        ),
    ),
    Scale(
        "exit",
        "exit ",
        r"[Ee]xit(?:ed)?(?: with)?(?:[ _](?i:code|status))?[ :=]{1,4}(?P<n>\d{1,3})\b",
        (
            ("exit code 3", "exit 3"),
            ("exited with code 137", "exit 137"),
            ("Exit Code:   2", "exit 2"),
            ("exit status 255", "exit 255"),
        ),
    ),
)
LEVEL_PREFIXES: Final[dict[str, str]] = {s.prefix: s.name for s in SCALES}

#: The rungs of the scales written in words, each word by the rung it names: words of one
#: rung say the same ("minor" and "low", "major" and "high"), words of two rungs differ.
WORD_RUNGS: Final[dict[str, str]] = {
    "info": "info",
    "informational": "info",
    "low": "low",
    "minor": "low",
    "medium": "medium",
    "moderate": "medium",
    "normal": "medium",
    "standard": "medium",
    "high": "high",
    "major": "high",
    "elevated": "high",
    "critical": "critical",
    "severe": "critical",
    "warning": "warning",
    "routine": "routine",
    "urgent": "urgent",
    "rush": "urgent",
    "expedited": "urgent",
    "stat": "urgent",
    "asap": "high",
    "emergency": "emergency",
    "bronze": "bronze",
    "silver": "silver",
    "gold": "gold",
    "platinum": "platinum",
}
#: The nouns that name a scale written in words, by the scale: "priority MEDIUM", "low
#: risk", "silver tier", "severity: minor", "the CRITICAL band".  A word level is
#: compared only with a field of its entity named by its scale (``priority``,
#: ``risk_band``, ``TIER``), never looked up as a value on its own.
WORD_SCALES: Final[dict[str, str]] = {
    "priority": "priority",
    "urgency": "priority",
    "severity": "severity",
    "sev": "severity",
    "risk": "risk",
    "band": "risk",
    "tier": "tier",
    "alert": "alert",
    "alarm": "alert",
}
#: Examples of word levels (text -> normalised value), tested with the scales'.
WORD_LEVEL_EXAMPLES: Final[tuple[tuple[str, str], ...]] = (
    ("ticket RT-1 has priority MEDIUM", "priority=medium"),
    ("a high-priority batch", "priority=high"),
    ("rated LOW risk", "risk=low"),
    ("in the CRITICAL band", "risk=critical"),
    ("severity: minor", "severity=low"),
    ("a silver-tier customer", "tier=silver"),
    ("high availability", ""),
)


def word_level(noun: str, word: str) -> str | None:
    """A level written in words, normalised as ``scale=rung`` (``("risk", "HIGH")`` ->
    ``risk=high``), or None."""
    scale, rung = WORD_SCALES.get(noun.lower()), WORD_RUNGS.get(word.lower())
    return f"{scale}={rung}" if scale is not None and rung is not None else None


def field_level(key: str, value: object) -> str | None:
    """The level a field of the originals gives, normalised (``priority: P2`` -> ``P2``,
    ``risk_band: HIGH`` -> ``risk=high``), or None: a number on the scale its key names
    (:data:`LEVEL_KEYS`), or a word of a scale a word of its key names."""
    scale = LEVEL_KEYS.get(key)
    if scale is not None:
        level = level_value(scale, value)
        if level is not None:
            return level
    if not isinstance(value, str) or len(word := value.strip()) > 16:
        return None
    for part in key.split("_"):
        if part in WORD_SCALES:
            return word_level(part, word)
    return None


@lru_cache(maxsize=1024)
def level_scale(value: str) -> str:
    """The scale a normalised level belongs to (``SEV1`` -> ``severity``, ``risk=high``
    -> ``risk``)."""
    if "=" in value:
        return value.partition("=")[0]
    for prefix, name in LEVEL_PREFIXES.items():
        if value.startswith(prefix) and value[len(prefix) :].isdigit():
            return name
    return ""


#: Keys of a result whose value is a level, by scale.
LEVEL_KEYS: Final[dict[str, str]] = {
    "severity": "severity",
    "sev": "severity",
    "priority": "priority",
    "prio": "priority",
    "status_code": "http",
    "http_status": "http",
    "http_code": "http",
    "response_code": "http",
    "exit_code": "exit",
    "exitcode": "exit",
    "exit_status": "exit",
    "returncode": "exit",
    "return_code": "exit",
}


def level_value(scale: str, value: object) -> str | None:
    """A level field's value normalised on its scale (``("severity", "SEV1")`` -> ``SEV1``,
    ``("http", 503)`` -> ``HTTP 503``), or ``None``."""
    prefix = next(s.prefix for s in SCALES if s.name == scale)
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif isinstance(value, str):
        digits = _HTTP_CODE.fullmatch(value)
        if digits is None:
            return None
        number = int(digits.group(1))
    else:
        return None
    return f"{prefix}{number}"


# --------------------------------------------------------------------------- counts


#: Outcome words after a count (``1,204 passed``, ``2 failed``), by the status family they
#: state of the counted things.
OUTCOMES: Final[dict[str, str]] = {
    "passed": "succeeded",
    "pass": "succeeded",
    "succeeded": "succeeded",
    "successful": "succeeded",
    "ok": "succeeded",
    "written": "succeeded",
    "loaded": "succeeded",
    "verified": "succeeded",
    "posted": "succeeded",
    "sent": "succeeded",
    "imported": "succeeded",
    "delivered": "succeeded",
    "assigned": "succeeded",
    "accepted": "succeeded",
    "synced": "succeeded",
    "uploaded": "succeeded",
    "failed": "failed",
    "bounced": "failed",
    "failing": "failed",
    "failures": "failed",
    "errors": "failed",
    "error": "failed",
    "errored": "failed",
    "rejected": "rejected",
    "mismatches": "failed",
    "skipped": "cancelled",
    "deselected": "cancelled",
    "xfailed": "cancelled",
}
#: Examples of counts with outcomes: text -> (count, family).
OUTCOME_EXAMPLES: Final[tuple[tuple[str, tuple[tuple[int, str], ...]], ...]] = (
    ("===== 1204 passed, 4 skipped in 371.52s =====", ((1204, "succeeded"), (4, "cancelled"))),
    ("2 failed, 10 passed in 3.1s", ((2, "failed"), (10, "succeeded"))),
    ("verified 6,912 chunks, 0 mismatches", ((0, "failed"),)),
    ('{"posted": 34, "failed": 1}', ((34, "succeeded"), (1, "failed"))),
    ("done: 2 assigned, 3 failed", ((2, "succeeded"), (3, "failed"))),
    ("1,198,870 written, 5 441 rejected", ((1198870, "succeeded"), (5441, "rejected"))),
    ("8 of 9 files uploaded, 1 failed", ((8, "succeeded"), (1, "failed"))),
)


def outcome_of(word: str) -> str | None:
    """The family an outcome word gives the things counted before it."""
    return OUTCOMES.get(word.lower())


#: Status words that are a claim only said of something ("the refund is complete", not "a
#: complete list"): one of :data:`PREDICATE_WORDS` must come just before them.
PREDICATIVE: Final = frozenset(
    ["complete", "done", "green", "healthy", "broken", "finished", "processed", "executed"]
)
_PREDICATES: Final = (
    "is are was were been be being now marked as remains remain stays still shows came back "
    "turned went all fully and"
)
PREDICATE_WORDS: Final = frozenset(_PREDICATES.split(" "))
