"""Checkpoints built by hand for tests: frames exactly as the runtime writes them, spans
with real fingerprints, and a few whole conversations (an audit that folds over a week,
a detached span, three nested folds)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from foldctl.fingerprint import fnv1a32

_SENTENCE = {
    "conversation": "The folded messages are retained verbatim with this conversation and can "
    "be produced on request.",
    "discard": "The folded messages were not retained beyond the run that folded them; only "
    "this summary carries them forward.",
}


def frame_text(count: int, iteration: int, model: str, retained: str, summary: str) -> str:
    """The frame exactly as the reference runtime writes it (SPEC §3)."""
    return (
        f"[compacted history — {count} earlier message(s) were folded out of this window at "
        f"iteration {iteration}. The text after this line is a SUMMARY written by {model}; it "
        f"is a claim about the conversation, not the conversation. {_SENTENCE[retained]}]"
        f"\n\n{summary}"
    )


@dataclass
class Convo:
    """A conversation built message by message, folded like the runtime folds."""

    run_id: str = "run-1"
    clock: int = 1_773_000_000_000  # 2026-03-08T20:00:00Z
    iteration: int = 1
    history: list[dict[str, Any]] = field(default_factory=list)
    folded: list[dict[str, Any]] = field(default_factory=list)
    stage: int = 0

    def add(self, role: str, content: str = "", **extra: Any) -> Convo:
        self.history.append({"role": role, "content": content, **extra})
        self.clock += 1_000
        self.stage += 1
        if role == "assistant":
            self.iteration += 1
        return self

    def fold(
        self,
        start: int,
        end: int,
        summary: str,
        *,
        retained: str = "conversation",
        model: str = "mock-cheap",
    ) -> dict[str, Any]:
        """Replace ``history[start:end]`` by a frame; file the span."""
        messages = copy.deepcopy(self.history[start:end])
        content = frame_text(len(messages), self.iteration, model, retained, summary)
        stages = [
            "compact#1" if m["content"].startswith("[compacted history") else f"tool-calls#{n}"
            for n, m in enumerate(messages, start=start)
        ]
        self.clock += 500
        span: dict[str, Any] = {
            "summaryFingerprint": fnv1a32(content),
            "runId": self.run_id,
            "iteration": self.iteration,
            "foldedAtMs": self.clock,
            "model": model,
            "messageCount": len(messages),
            "removedStageIds": list(dict.fromkeys(stages)),
            "retained": retained,
        }
        if retained == "conversation":
            span["messages"] = messages
        self.folded.append(span)
        self.history[start:end] = [{"role": "user", "content": content}]
        return span

    def checkpoint(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "version": 1,
            "runId": self.run_id,
            "history": copy.deepcopy(self.history),
            "lastCompletedIteration": self.iteration,
            "originalInput": {"message": "Audit account ACCT-8842 and tell me what you find"},
            "checkpointedAt": self.clock,
        }
        if self.folded:
            doc["folded"] = copy.deepcopy(self.folded)
        return doc

    def write(self, path: Path) -> Path:
        path.write_bytes(orjson.dumps(self.checkpoint()))
        return path


def write_doc(path: Path, doc: dict[str, Any]) -> Path:
    path.write_bytes(orjson.dumps(doc))
    return path


def audit_monday() -> Convo:
    """An account audit: tool calls, three nested folds, a discard fold, a live tail."""
    c = Convo()
    c.add("user", "Audit account ACCT-8842 and tell me what you find")
    call = {"id": "call_1", "name": "read_ledger", "args": {"account": "ACCT-8842", "page": 1}}
    c.add("assistant", "", toolCalls=[call])
    c.add("tool", "LEDGER ACCT-8842 page 1\nrefund RF-9120 status: pending_approval",
          toolCallId="call_1", toolName="read_ledger")  # fmt: skip
    c.add("assistant", "Page 1 read; one refund is pending approval.")
    c.fold(1, 4, "Summary 1: ledger page 1 read; refund RF-9120 noted.")
    c.add("assistant", "", toolCalls=[{"id": "call_2", "name": "read_ledger", "args": {"page": 2}}])
    c.add("tool", "LEDGER page 2: 3 charges, no exceptions", toolCallId="call_2",
          toolName="read_ledger")  # fmt: skip
    c.fold(1, 4, "Summary 2: pages 1-2 read; refund RF-9120 approved.")
    c.add("assistant", "", toolCalls=[{"id": "call_3", "name": "read_ledger", "args": {"page": 3}}])
    c.add("tool", "LEDGER page 3: duplicate charge CH-77 on 2026-03-02", toolCallId="call_3",
          toolName="read_ledger")  # fmt: skip
    c.fold(1, 4, "Summary 3: pages 1-3 read; a duplicate charge found.")
    c.add("assistant", "Checking the duplicate charge with the payments team.")
    c.add("user", "Any news on the duplicate?")
    return c


def friday_of(monday: Convo) -> Convo:
    """Monday's conversation continued in a new run that folds what it was seeded with."""
    c = copy.deepcopy(monday)
    c.run_id = "run-2"
    c.clock += 3 * 86_400_000
    c.add(
        "assistant", "", toolCalls=[{"id": "call_4", "name": "payments", "args": {"id": "CH-77"}}]
    )
    c.add("tool", "CH-77 reversed on 2026-03-11", toolCallId="call_4", toolName="payments")
    c.fold(1, 6, "Summary 4: the duplicate charge CH-77 was reversed.")
    c.add("assistant", "The duplicate charge CH-77 has been reversed.")
    return c


def lost_evidence(monday: Convo) -> dict[str, Any]:
    """Monday restored from a backup that lost things: a retained span vanished, another
    span's retention turned to discard, a live message edited, one removed, one added."""
    doc = monday.checkpoint()
    vanished = doc["folded"].pop(0)  # the innermost retained span (nested in span 1)
    assert vanished["retained"] == "conversation"
    doc["folded"][0]["retained"] = "discard"  # was span 1
    del doc["folded"][0]["messages"]
    doc["history"][2]["content"] = "Checking the duplicate charge with the bank."
    del doc["history"][3]
    doc["history"].append({"role": "assistant", "content": "Nothing new yet."})
    return doc


DEEP = "f0:1"  # the ledger page 1 tool result: three folds deep (chain [2, 1, 0])


def detached_convo() -> dict[str, Any]:
    """A retained fold whose frame a later ``discard`` fold swallowed: span 0 is detached."""
    c = Convo()
    c.add("user", "Reconcile ACCT-8842")
    c.add("assistant", "", toolCalls=[{"id": "c1", "name": "read_ledger", "args": {"page": 1}}])
    c.add("tool", "page 1: wire W-55 to ACCT-8842 flagged", toolCallId="c1", toolName="read_ledger")
    c.fold(1, 3, "Summary 1: page 1 read.")
    c.add("assistant", "Continuing.")
    c.fold(1, 3, "Summary 2: page 1 read, continuing.", retained="discard")
    c.add("assistant", "Done.")
    return c.checkpoint()


# --- single folds, named the way the audit tests name them

RETAINED = (
    "The folded messages are retained verbatim with this conversation and can be produced "
    "on request."
)
DISCARDED = (
    "The folded messages were not retained beyond the run that folded them; only this "
    "summary carries them forward."
)
COMMIT_LOG = "The folded messages are retained verbatim in this run's commit log."
SENTENCES = {"conversation": RETAINED, "discard": DISCARDED, "legacy": COMMIT_LOG}


def frame(
    count: int,
    iteration: int,
    summary: str,
    retention: str = "conversation",
    *,
    model: str = "mock-cheap",
) -> str:
    """A summary frame exactly as the reference runtime writes it (SPEC §3)."""
    return (
        f"[compacted history — {count} earlier message(s) were folded out of this window at "
        f"iteration {iteration}. The text after this line is a SUMMARY written by {model}; it "
        f"is a claim about the conversation, not the conversation. {SENTENCES[retention]}]"
        f"\n\n{summary}"
    )


def user(content: str) -> dict[str, Any]:
    return {"role": "user", "content": content}


def call(n: int) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": "",
        "toolCalls": [{"id": f"call_{n}", "name": "lookup", "args": {"page": n}}],
    }


def result(n: int) -> dict[str, Any]:
    return {"role": "tool", "content": f"page {n}", "toolCallId": f"call_{n}", "toolName": "lookup"}


def span(
    content: str,
    messages: list[dict[str, Any]] | None,
    *,
    count: int,
    iteration: int,
    at: int,
    stages: list[str],
    run: str = "run-1",
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "summaryFingerprint": fnv1a32(content),
        "runId": run,
        "iteration": iteration,
        "foldedAtMs": at,
        "model": "mock-cheap",
        "messageCount": count,
        "removedStageIds": stages,
        "retained": "conversation" if messages is not None else "discard",
    }
    if messages is not None:
        out["messages"] = messages
    return out


F0 = frame(2, 2, "Looked up page 0.")
F1 = frame(3, 3, "Looked up pages 0 and 1.")
F2 = frame(2, 4, "Looked up page 2; the pages were not kept.", "discard")
T0 = 1_796_000_000_000


def clean() -> dict[str, Any]:
    """Three folds: span 0 nested in span 1 (both retained), span 2 discarded.

    history: h0 request, h1 = frame of span 1, h2 = frame of span 2, h3 answer.
    Span 1's messages are [frame of span 0, call, result]; span 0's are [call, result].
    """
    return {
        "version": 1,
        "runId": "run-1",
        "history": [
            user("Reconcile the ledger."),
            user(F1),
            user(F2),
            {"role": "assistant", "content": "Done."},
        ],
        "lastCompletedIteration": 5,
        "originalInput": {"message": "Reconcile the ledger."},
        "checkpointedAt": T0 + 10_000,
        "folded": [
            span(
                F0,
                [call(0), result(0)],
                count=2,
                iteration=2,
                at=T0 + 1000,
                stages=["tool-calls#23"],
            ),
            span(
                F1,
                [user(F0), call(1), result(1)],
                count=3,
                iteration=3,
                at=T0 + 2000,
                stages=["compact#47", "tool-calls#46"],
            ),
            span(F2, None, count=2, iteration=4, at=T0 + 3000, stages=["tool-calls#69"]),
        ],
    }


# --- the smallest checkpoints


def frame_of(count: int, iteration: int, model: str, summary: str, retained: bool = True) -> str:
    sentence = (
        "The folded messages are retained verbatim with this conversation and can be produced "
        "on request."
        if retained
        else "The folded messages were not retained beyond the run that folded them; only this "
        "summary carries them forward."
    )
    return (
        f"[compacted history — {count} earlier message(s) were folded out of this window at "
        f"iteration {iteration}. The text after this line is a SUMMARY written by {model}; it is "
        f"a claim about the conversation, not the conversation. {sentence}]\n\n{summary}"
    )


def span_of(content: str, messages: list[dict[str, Any]] | None, index: int) -> dict[str, Any]:
    out: dict[str, Any] = {
        "summaryFingerprint": fnv1a32(content),
        "runId": "run-1",
        "iteration": index + 1,
        "foldedAtMs": 1_700_000_000_000 + index,
        "model": "mock-model",
        "messageCount": len(messages) if messages is not None else 2,
        "removedStageIds": [f"tool-calls#{index}"],
        "retained": "conversation" if messages is not None else "discard",
    }
    if messages is not None:
        out["messages"] = messages
    return out


def checkpoint_of(
    history: list[dict[str, Any]], folded: list[dict[str, Any]] | None
) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "version": 1,
        "runId": "run-1",
        "history": history,
        "lastCompletedIteration": 3,
        "originalInput": {"message": "hello"},
        "checkpointedAt": 1_700_000_100_000,
    }
    if folded is not None:
        doc["folded"] = folded
    return doc
