"""A case written as a real checkpoint, and checked end to end by the command's pipeline."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from foldctl.fingerprint import fnv1a32
from tools.claims_corpus.kit import Case, Evidence
from tools.claims_corpus.score import Found, Miss, Score, Tally, tally
from tools.generate import frame_text

_MODEL = "summarizer-mini"
_T0 = 1_790_000_000_000


def _messages(evidence: Sequence[Evidence], prefix: str) -> list[dict[str, Any]]:
    """Evidence as the runtime stores messages: tool calls with ids, results that answer them."""
    out: list[dict[str, Any]] = []
    pending: list[str] = []
    for n, e in enumerate(evidence):
        if e.tool_calls:
            calls = []
            for k, call in enumerate(e.tool_calls):
                call_id = f"{prefix}_{n}_{k}"
                pending.append(call_id)
                calls.append({"id": call_id, "name": call["name"], "args": call["args"]})
            out.append({"role": "assistant", "content": e.text, "toolCalls": calls})
        elif e.role == "tool":
            call_id = pending.pop(0) if pending else f"{prefix}_{n}"
            message: dict[str, Any] = {
                "role": "tool",
                "content": e.text,
                "toolCallId": call_id,
                "toolName": e.tool_name or "tool",
            }
            if e.is_error:
                message["isError"] = True
            out.append(message)
        else:
            out.append({"role": e.role, "content": e.text})
    return out


def case_checkpoint(case: Case, *, discard: bool = False) -> dict[str, Any]:
    """A case as a checkpoint the reference runtime could have written: the summary is the
    frame in the live window, its originals the span's messages; a nested case folds the
    inner originals first, under the inner summary, inside the outer span (kept, or
    discarded for a case whose inner fold kept nothing).  With ``discard`` the outer fold
    kept nothing (its summary is then unverifiable)."""
    inner = [e for e in case.evidence if e.locator.startswith("f0:")]
    outer = [e for e in case.evidence if not e.locator.startswith("f0:")]
    folded: list[dict[str, Any]] = []
    outer_messages = _messages(outer, "call")
    if case.inner_summary is not None and inner:
        kept: Literal["conversation", "discard"] = (
            "discard" if case.inner_discarded else "conversation"
        )
        inner_frame = frame_text(len(inner), 2, _MODEL, kept, case.inner_summary)
        inner_messages = None if case.inner_discarded else _messages(inner, "inner")
        folded.append(
            _span(inner_frame, inner_messages, 2, _T0 + 1000, ["tool-calls#23"], len(inner))
        )
        outer_messages.insert(0, {"role": "user", "content": inner_frame})
    retention: Literal["conversation", "discard"] = "discard" if discard else "conversation"
    count = len(outer_messages)
    outer_frame = frame_text(count, 4, _MODEL, retention, case.summary)
    stages = (["compact#24"] if folded else []) + ["tool-calls#69"]
    folded.append(
        _span(outer_frame, None if discard else outer_messages, 4, _T0 + 2000, stages, count)
    )
    return {
        "version": 1,
        "runId": f"run-{case.id}",
        "history": [
            {"role": "user", "content": f"Please handle {case.domain} request {case.seed}."},
            {"role": "user", "content": outer_frame},
            {"role": "assistant", "content": "Done."},
        ],
        "lastCompletedIteration": 5,
        "originalInput": {"message": f"Please handle {case.domain} request {case.seed}."},
        "checkpointedAt": _T0 + 10_000,
        "folded": folded,
    }


def _span(
    frame: str,
    messages: list[dict[str, Any]] | None,
    iteration: int,
    at: int,
    stages: list[str],
    count: int | None = None,
) -> dict[str, Any]:
    span: dict[str, Any] = {
        "summaryFingerprint": fnv1a32(frame),
        "runId": "run-1",
        "iteration": iteration,
        "foldedAtMs": at,
        "model": _MODEL,
        "messageCount": len(messages) if messages is not None else (count or 0),
        "removedStageIds": stages,
        "retained": "conversation" if messages is not None else "discard",
    }
    if messages is not None:
        span["messages"] = messages
    return span


def pipeline_findings(checkpoint: dict[str, Any], frame: str | None = "h1") -> Found:
    """What ``foldctl claims`` finds in a checkpoint, as (kind, normalised atom): about the
    summary at ``frame`` (the case's summary, in the live window), or every summary."""
    import foldctl
    from foldctl.claims.record import check_graph

    return [
        (f.kind, f.finding.normalised)
        for f in check_graph(foldctl.open(checkpoint).graph)
        if frame is None or f.frame == frame
    ]


def pipeline_tally(cases: Sequence[Case]) -> Tally:
    """Every case written as a real checkpoint and checked by the command's own pipeline
    (load, join, walk, evidence ranges), end to end."""
    return tally(cases, lambda case: pipeline_findings(case_checkpoint(case)))


def score_pipeline(cases: Sequence[Case]) -> tuple[dict[str, Score], list[Miss]]:
    """:func:`~tools.claims_corpus.score.score`, end to end."""
    counted = pipeline_tally(cases)
    return counted.kinds, counted.misses
