"""Finding codes and findings: the stable vocabulary of the audit (docs/findings.md)."""

from __future__ import annotations

from typing import Any, Final, Literal

import msgspec

Severity = Literal["error", "warning", "info"]
#: Most severe first.
SEVERITIES: Final[tuple[Severity, ...]] = ("error", "warning", "info")
_RANK: Final[dict[str, int]] = {name: rank for rank, name in enumerate(SEVERITIES)}


class Code(msgspec.Struct, frozen=True):
    """A finding code: its name, severity and a one-line description for docs and help."""

    name: str
    severity: Severity
    summary: str


#: Every code ``audit`` can produce, in the order findings of one severity are listed.
CODES: Final[dict[str, Code]] = {
    code.name: code
    for code in (
        Code(
            "schema",
            "error",
            "a field of the reference format has the wrong type or an impossible value "
            "(the loader refuses what the join needs; this covers the rest)",
        ),
        Code(
            "retention-shape",
            "error",
            "retained: discard with messages, or retained: conversation without them",
        ),
        Code(
            "count-mismatch",
            "error",
            "retained: conversation and the number of messages kept differs from messageCount",
        ),
        Code("fold-cycle", "error", "a span reaches its own frame through nesting"),
        Code(
            "bad-line",
            "error",
            "a line of a session file that is not JSON: the rest of the file is read and "
            "the session shown without it (the file is partial)",
        ),
        Code(
            "chain-cycle",
            "error",
            "parentUuid links that loop (a record its own ancestor, or its own parent): no "
            "runtime writes one; the walk stops where the loop closes",
        ),
        Code(
            "unresolved-frame",
            "warning",
            "a frame no span joins (forged, tampered, or stored before 8.2)",
        ),
        Code(
            "frame-role",
            "warning",
            "content opens with the frame label but the role is not user, so it never joins",
        ),
        Code(
            "duplicate-key",
            "warning",
            "an object holds the same key twice; the last value is read (as JSON.parse does) "
            "and the earlier one is in the file but nowhere in foldctl's output",
        ),
        Code(
            "frame-mismatch",
            "warning",
            "the frame's stated count, iteration, model or retention disagrees with its span",
        ),
        Code(
            "ambiguous-fingerprint",
            "warning",
            "a span shares its fingerprint with an earlier span; the first wins the join, "
            "so this one can never be reached",
        ),
        Code(
            "replayed-frame",
            "warning",
            "one span's frame appears in more than one place; a copy joins the real span",
        ),
        Code("orphan-span", "warning", "a span whose frame is nowhere in the checkpoint"),
        Code(
            "originals-missing",
            "warning",
            "a compaction whose originals are not in the file (a rollout rewritten to start "
            "at its compacted line; a boundary whose chain names no record)",
        ),
        Code(
            "broken-chain",
            "warning",
            "a parentUuid or a preserved segment that names no record of the file, so a chain "
            "(the live window, a fold's originals) stops short",
        ),
        Code(
            "duplicate-record",
            "warning",
            "records written again with a uuid already in the file (a re-append): the first "
            "copy is read and the copies are counted, not shown twice",
        ),
        Code(
            "summary-without-boundary",
            "warning",
            "a record marked as a compaction summary that no compact_boundary owns: shown as "
            "an ordinary message, joined to no fold",
        ),
        Code(
            "fingerprint-form",
            "warning",
            "a summaryFingerprint that no fingerprint scheme could have produced",
        ),
        Code(
            "time-order",
            "warning",
            "folded is not in non-decreasing foldedAtMs, or a fold is later than checkpointedAt",
        ),
        Code(
            "fold-order",
            "warning",
            "a span holds the frame of a later span, or a run's iterations go backwards",
        ),
        Code(
            "claim-contradicted",
            "warning",
            "a summary gives a status, amount or date that the originals it replaced contradict "
            "(verify --claims)",
        ),
        Code(
            "claim-dropped",
            "warning",
            "an error or failure in the originals that the summary replacing them does not "
            "mention (verify --claims)",
        ),
        Code(
            "claim-unsupported",
            "warning",
            "an id, amount, count, date or other fact in a summary that appears nowhere in the "
            "originals it stands for (verify --claims)",
        ),
        Code(
            "claim-unverified",
            "info",
            "a number a summary says it worked out (a total, a share) that does not follow from "
            "the originals it stands for (verify --claims)",
        ),
        Code(
            "detached-span",
            "info",
            "a span whose frame was swallowed by a later fold that kept no messages",
        ),
        Code(
            "legacy-frame",
            "info",
            "a frame with the 7.16-8.1 retention sentence in a checkpoint that records spans",
        ),
        Code(
            "abandoned-branch",
            "info",
            "records on disk that are in no fold's originals and not in the live window (a "
            "rewound branch): not in the transcript, shown with --include-detached",
        ),
        Code(
            "sidechain-records",
            "info",
            "a subagent's records inside its parent's session file: a conversation of its "
            "own, not in the parent's transcript, shown with --include-detached",
        ),
        Code(
            "opaque-summary",
            "info",
            "a summary that exists only as encrypted_content (a remote Codex compaction) or "
            "holds no text: nothing to check it against (claims: unverifiable)",
        ),
    )
}

#: Not a finding about a checkpoint: the code ``verify`` reports for a source it cannot read.
UNREADABLE: Final = "unreadable"

ROLES: Final = ("system", "user", "assistant", "tool")


class Finding(msgspec.Struct, frozen=True):
    """One disagreement, where it is, and one sentence about it."""

    code: str
    severity: Severity
    message: str
    locator: str | None = None  # the message it is about (``h7``, ``h2>f4:0``), if any
    span: int | None = None  # the span it is about, if any
    path: str | None = None  # where in the JSON file (``folded[3].messageCount``)
    related: tuple[str, ...] = ()  # every other place involved (locators, ``span N``)

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity,
            "locator": self.locator,
            "span": self.span,
            "path": self.path,
            "message": self.message,
            "related": list(self.related),
        }


def finding(code: str, message: str, **where: Any) -> Finding:
    """A finding of ``code``, with the code's severity."""
    return Finding(code, CODES[code].severity, message, **where)


def rank(severity: str) -> int:
    """0 for the most severe; the order of :data:`SEVERITIES`."""
    return _RANK[severity]
