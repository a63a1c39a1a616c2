"""A fold graph whose every printed string is redacted, and whose join is untouched.

Redaction runs after the join: a summary's fingerprint is of its original text,
so the frames, the placements and the chains are those of the original record,
while every string a renderer can print — message fields at any depth (keys
included), the summary frames, span facts (model, run, stage ids), the source
name, the original input — is the redacted one.  Each message keeps the digest
of its original (:func:`foldctl.digest.digest` reads it), so a redacted export
still cites the exact evidence, and carries the list of what was replaced.
Retained messages are redacted as they are read, like the fast loader decodes
them, so memory does not grow with the checkpoint.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

import msgspec
import msgspec.structs
import orjson

from foldctl.audit.codes import Finding
from foldctl.digest import digest
from foldctl.graph.filters import FoldFilter
from foldctl.graph.locators import message_locator, span_locator
from foldctl.graph.resolve import FoldGraph
from foldctl.graph.walk import every_row
from foldctl.model import (
    Checkpoint,
    LazyMessages,
    Message,
    Microcompaction,
    Span,
    frame_indices,
)
from foldctl.redact.redactor import Redaction, Redactor

if TYPE_CHECKING:  # the claim rules load only when claims are checked
    from foldctl.claims.record import ClaimsResult, SummaryFinding


class RedactedMessage(dict[str, Any]):
    """A message with its secrets replaced: the digest of its original, and what was
    replaced (never the values)."""

    __slots__ = ("original_digest", "redactions")

    def __init__(self, fields: dict[str, Any], original_digest: str, redactions: list[Redaction]):
        super().__init__(fields)
        self.original_digest = original_digest
        self.redactions = redactions

    def __reduce__(self) -> Any:
        return (RedactedMessage, (dict(self), self.original_digest, self.redactions))


def redact_message(redactor: Redactor, message: Message, locator: str) -> RedactedMessage:
    new, redactions = redactor.redact_message(message, locator)
    return RedactedMessage(new, digest(message), redactions)


class RedactedMessages(LazyMessages):
    """A span's retained messages, each redacted when read."""

    __slots__ = ("_messages", "_redactor", "_span", "frame_indices", "lines")

    def __init__(self, messages: Sequence[Message], redactor: Redactor, span: int | None) -> None:
        self._messages = messages
        self._redactor = redactor
        self._span = span
        self.frame_indices = frame_indices(messages)
        self.lines = getattr(messages, "lines", None)  # records' lines in their file

    def __len__(self) -> int:
        return len(self._messages)

    def _at(self, index: int) -> Message:
        raw = getattr(self._messages, "raw_json", None)
        locator = message_locator(self._span, index)
        if raw is not None:
            data = raw(index)  # the stored bytes: most hold nothing and are not decoded twice
            redacted, redactions = self._redactor.redact_json(data, locator)
            original = self._messages[index]
            if not redactions:
                return RedactedMessage(original, digest(original), [])
            return RedactedMessage(orjson.loads(redacted), digest(original), redactions)
        return redact_message(self._redactor, self._messages[index], locator)


def _text(redactor: Redactor, value: str, field: str, locator: str) -> str:
    return redactor.redact_text(value, field=field, locator=locator)[0]


def _recorded(redactor: Redactor, value: str | None, field: str, locator: str) -> str | None:
    """:func:`_text` of a value the input may not record (None stays None)."""
    return None if value is None else _text(redactor, value, field, locator)


def _span(redactor: Redactor, span: Span) -> Span:
    where = span_locator(span.index)
    raw = {k: v for k, v in span.stored().items() if k != "messages"}
    redacted_raw, _ = redactor.redact_value(raw, where)
    messages = (
        None if span.messages is None else RedactedMessages(span.messages, redactor, span.index)
    )
    if messages is not None:
        redacted_raw["messages"] = messages
    stages = span.removed_stage_ids
    return msgspec.structs.replace(
        span,
        run_id=_recorded(redactor, span.run_id, "runId", where),
        model=_recorded(redactor, span.model, "model", where),
        fingerprint=_recorded(redactor, span.fingerprint, "summaryFingerprint", where),
        removed_stage_ids=None
        if stages is None
        else tuple(
            _text(redactor, s, f"removedStageIds[{i}]", where) for i, s in enumerate(stages)
        ),
        messages=messages,
        raw=redacted_raw,
        unredacted=span.recorded,
    )


def redact_checkpoint(redactor: Redactor, checkpoint: Checkpoint) -> Checkpoint:
    """The checkpoint with every string it holds redacted (retained messages as read; the
    live window of a session file too, which can be as large)."""
    history: Sequence[Message]
    if isinstance(checkpoint.history, list):
        history = [
            redact_message(redactor, m, message_locator(None, i))
            for i, m in enumerate(checkpoint.history)
        ]
    else:
        history = RedactedMessages(checkpoint.history, redactor, None)
    spans = tuple(_span(redactor, s) for s in checkpoint.spans)
    rest = {k: v for k, v in checkpoint.raw.items() if k not in ("history", "folded")}
    raw, _ = redactor.redact_value(rest, "checkpoint")
    raw["history"] = history
    if "folded" in checkpoint.raw:
        raw["folded"] = [s.stored() for s in spans]
    facts = checkpoint.session
    if facts is not None:
        facts = msgspec.structs.replace(
            facts,
            session_id=_recorded(redactor, facts.session_id, "sessionId", "checkpoint"),
            project=_recorded(redactor, facts.project, "cwd", "checkpoint"),
            parent_session=_recorded(redactor, facts.parent_session, "sessionId", "checkpoint"),
            agent_id=_recorded(redactor, facts.agent_id, "agentId", "checkpoint"),
        )
    return msgspec.structs.replace(
        checkpoint,
        source=_text(redactor, checkpoint.source, "source", "checkpoint"),
        run_id=_recorded(redactor, checkpoint.run_id, "runId", "checkpoint"),
        original_input=_recorded(
            redactor, checkpoint.original_input, "originalInput.message", "checkpoint"
        ),
        history=history,
        spans=spans,
        raw=raw,
        notes=tuple(
            msgspec.structs.replace(n, message=_text(redactor, n.message, "finding", "checkpoint"))
            for n in checkpoint.notes
        ),
        session=facts,
        microcompactions=tuple(_microcompaction(redactor, m) for m in checkpoint.microcompactions),
    )


def _microcompaction(redactor: Redactor, m: Microcompaction) -> Microcompaction:
    """A microcompaction's tool-use ids (and what it records as text) redacted: ``show``
    lists them, and a runtime can write anything there."""

    def ids(values: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(_text(redactor, v, "toolUseIds", "checkpoint") for v in values)

    return msgspec.structs.replace(
        m,
        timestamp=_recorded(redactor, m.timestamp, "timestamp", "checkpoint"),
        trigger=_recorded(redactor, m.trigger, "trigger", "checkpoint"),
        tool_use_ids=ids(m.tool_use_ids),
        missing=ids(m.missing),
    )


def redact_graph(graph: FoldGraph, redactor: Redactor) -> FoldGraph:
    """The same join over the redacted checkpoint, which keeps the stored one
    (:attr:`FoldGraph.plain`) for the audit, the claims and the fold filters."""
    plain = graph.plain
    return msgspec.structs.replace(
        plain, checkpoint=redact_checkpoint(redactor, plain.checkpoint), unredacted=plain.checkpoint
    )


def redact_filter(redactor: Redactor, folds: FoldFilter) -> FoldFilter:
    """The same fold filter, whose words (``with model "x"``) quote no secret."""
    if not folds.active:
        return folds
    return msgspec.structs.replace(
        folds, words=_text(redactor, folds.describe(), "filter", "filter")
    )


def redact_findings(redactor: Redactor, findings: Sequence[Finding]) -> tuple[Finding, ...]:
    """Findings whose sentences quote no secret (they quote models, runs and values), nor
    their JSON paths (which name a message's keys)."""

    def one(f: Finding) -> Finding:
        where = f.locator or f"finding {f.code}"
        return msgspec.structs.replace(
            f,
            message=_text(redactor, f.message, "finding", where),
            path=_recorded(redactor, f.path, "path", where),
        )

    return tuple(one(f) for f in findings)


REVIEW_COLUMNS: Final = ("kind", "placeholder", "count", "locators")


def review(graph: FoldGraph, redactor: Redactor) -> list[dict[str, Any]]:
    """What ``--redact`` removes from this checkpoint, to check before sharing: one row
    per placeholder — its kind, how many times it stands in, and the locators of the
    messages it stands in (``checkpoint`` for the checkpoint's own fields, ``fN`` for
    span N's)."""
    redacted = redact_graph(graph, redactor)
    for _ in every_row(redacted, replays="ref"):
        pass  # reading every message (each once) redacts it
    return [row.as_dict() for row in redactor.review()]


def redact_claims(redactor: Redactor, result: ClaimsResult) -> ClaimsResult:
    """Claims whose atoms, sentences and original lines quote no secret (``facts`` stay the
    stored ones, which a fold filter is matched against: a note made of them is redacted
    as it is printed)."""
    return msgspec.structs.replace(
        result,
        sources=tuple(
            (_text(redactor, s, "source", "checkpoint"), redact_summary_findings(redactor, fs))
            for s, fs in result.sources
        ),
    )


def redact_summary_findings(
    redactor: Redactor, findings: Sequence[SummaryFinding]
) -> tuple[SummaryFinding, ...]:
    """One checkpoint's claims (checked on the stored text) with no secret quoted: the
    verdicts, codes and locators are the unredacted check's."""

    def text(value: str | None, where: str) -> str | None:
        return None if value is None else _text(redactor, value, "claim", where)

    def one(f: SummaryFinding) -> SummaryFinding:
        x = f.finding
        sentence = text(x.sentence, f.frame)
        atom = text(x.atom, f.frame) or ""
        moved = sentence is not None and sentence != x.sentence  # offsets no longer hold
        finding = msgspec.structs.replace(
            x,
            atom=atom,
            sentence=sentence,
            start=None if moved else x.start,
            end=None if moved else x.end,
            expected=text(x.expected, f.frame),
            entity=text(x.entity, f.frame),
        )
        return msgspec.structs.replace(f, finding=finding, line=text(f.line, f.frame))

    return tuple(one(f) for f in findings)
