"""Build session files of other runtimes the way they write them: Claude Code sessions and
Codex rollouts, deterministically from a seed.

:class:`ClaudeSession` appends records as Claude Code does: each record with its
``parentUuid``, ``isSidechain``, ``userType``, ``cwd``, ``sessionId``, ``version``,
``gitBranch``, ``timestamp``; an assistant message split into one record per content
block sharing one ``message.id`` (with ``model``, ``usage``, ``stop_reason`` and the
record's ``requestId``); tool results with ``toolUseResult``; a compaction as a
``compact_boundary`` (``logicalParentUuid``, ``compactMetadata``) and its
``isCompactSummary`` record, the summary in the runtime's sections; a preserved segment
re-appended after the summary; rewinds, re-appended copies, microcompactions, titles,
file-history snapshots and subagent transcripts.  :class:`CodexRollout` writes
``{timestamp, type, payload}`` lines: ``session_meta``, ``turn_context``, ``event_msg``,
``response_item`` (messages, function calls and outputs, reasoning) and ``compacted``
(local: the runtime's summary prefix and the summary; remote: an empty message and a
``replacement_history`` whose summary is only ``encrypted_content``).

:func:`claude_cases` and :func:`codex_cases` write one small file per case SPEC §7 names;
:func:`sample_sessions` the two bundled samples; :func:`write_sized_claude` a session of
any size for the benchmark.  Nothing here prints.
"""

from __future__ import annotations

import random
import uuid as uuidlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Final

import orjson

from tools.benchkit import write_chunks

Record = dict[str, Any]

CLAUDE_VERSION: Final = "2.0.55"
CLAUDE_MODEL: Final = "claude-sonnet-4-5-20250929"
#: What Claude Code writes before the summarizer's text.
CLAUDE_SUMMARY_PREFIX: Final = (
    "This session is being continued from a previous conversation that ran out of context. "
    "The conversation is summarized below:"
)
CLAUDE_SUMMARY_SUFFIX: Final = (
    "Please continue the conversation from where we left it off without asking the user any "
    "further questions. Continue with the last task that you were asked to work on."
)
#: The sections of a Claude Code compaction summary, in the runtime's order.
SECTIONS: Final = (
    "Primary Request and Intent",
    "Key Technical Concepts",
    "Files and Code Sections",
    "Errors and fixes",
    "Problem Solving",
    "All user messages",
    "Pending Tasks",
    "Current Work",
    "Optional Next Step",
)
CODEX_VERSION: Final = "0.46.0"
CODEX_MODEL: Final = "gpt-5-codex"
#: codex-rs/core/templates/compact/summary_prefix.md, as the runtime writes it.
CODEX_SUMMARY_PREFIX: Final = (
    "Another language model started to solve this problem and produced a summary of its "
    "thinking process. You also have access to the state of the tools that were used by that "
    "language model. Use this to build on the work that has already been done and avoid "
    "duplicating work. Here is the summary produced by the other language model, use the "
    "information in this summary to  assist with your own analysis:"
)


def to_jsonl(records: Sequence[Record]) -> bytes:
    """One record a line, as the runtimes write them (compact JSON, raw UTF-8)."""
    return b"".join(orjson.dumps(r) + b"\n" for r in records)


def summary_sections(sections: dict[str, str | list[str]]) -> str:
    """A compaction summary in the sections Claude Code's summarizer writes."""
    lines = ["Analysis:", "Chronological review of the conversation so far.", "", "Summary:"]
    for n, name in enumerate(SECTIONS, 1):
        if name not in sections:
            continue
        body = sections[name]
        lines.append(f"{n}. {name}:")
        items = [body] if isinstance(body, str) else body
        lines += [f"   - {item}" if isinstance(body, list) else f"   {item}" for item in items]
        lines.append("")
    return "\n".join(lines).rstrip("\n")


class _Clock:
    def __init__(self, rng: random.Random, start: datetime) -> None:
        self.rng = rng
        self.now = start

    def tick(self, low: float = 1.0, high: float = 40.0) -> str:
        self.now += timedelta(seconds=self.rng.uniform(low, high))
        return self.now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.now.microsecond // 1000:03d}Z"


# --------------------------------------------------------------------------- Claude Code


@dataclass
class ClaudeSession:
    """A Claude Code session, record by record.  ``tip`` is the uuid the next record
    chains to; ``records`` are the file's lines."""

    seed: int = 0
    cwd: str = "/home/dev/payments-service"
    branch: str = "main"
    start: datetime = datetime(2025, 6, 2, 9, 0, tzinfo=timezone.utc)
    agent: str | None = None  # a subagent's id: every record is a sidechain record
    session_id: str = ""
    records: list[Record] = field(default_factory=list)
    tip: str | None = None

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.clock = _Clock(self.rng, self.start)
        if not self.session_id:
            self.session_id = self.new_uuid()
        self.by_uuid: dict[str, Record] = {}

    def new_uuid(self) -> str:
        return str(uuidlib.UUID(int=self.rng.getrandbits(128), version=4))

    def _ident(self, prefix: str, n: int = 24) -> str:
        alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789"
        return prefix + "".join(self.rng.choice(alphabet) for _ in range(n))

    def _record(self, kind: str, parent: str | None, **fields: Any) -> Record:
        record: Record = {
            "parentUuid": parent,
            "isSidechain": self.agent is not None,
            "userType": "external",
            "cwd": self.cwd,
            "sessionId": self.session_id,
            "version": CLAUDE_VERSION,
            "gitBranch": self.branch,
        }
        if self.agent is not None:
            record["agentId"] = self.agent
        record["type"] = kind
        record.update(fields)
        return record

    def _append(self, record: Record, *, chain: bool = True) -> str:
        uid = self.new_uuid()
        record["uuid"] = uid
        record["timestamp"] = self.clock.tick()
        self.records.append(record)
        self.by_uuid[uid] = record
        if chain:
            self.tip = uid
        return uid

    # ---- messages

    def user(self, text: str, **extra: Any) -> str:
        if self.records and self.agent is None:
            self.snapshot()
        return self._append(
            self._record("user", self.tip, message={"role": "user", "content": text}, **extra)
        )

    def assistant(
        self, text: str | None, calls: Sequence[tuple[str, dict[str, Any]]] = ()
    ) -> list[str]:
        """One API message: a record for its text, then one per tool call, sharing its id.
        Returns the tool-use ids of the calls."""
        msgid = self._ident("msg_01")
        request = self._ident("req_011C")
        blocks: list[dict[str, Any]] = []
        if text:
            blocks.append({"type": "text", "text": text})
        ids = []
        for name, args in calls:
            call_id = self._ident("toolu_01")
            ids.append(call_id)
            blocks.append({"type": "tool_use", "id": call_id, "name": name, "input": args})
        for n, block in enumerate(blocks):
            last = n == len(blocks) - 1
            message = {
                "id": msgid,
                "type": "message",
                "role": "assistant",
                "model": CLAUDE_MODEL,
                "content": [block],
                "stop_reason": ("tool_use" if calls else "end_turn") if last else None,
                "stop_sequence": None,
                "usage": {
                    "input_tokens": self.rng.randint(4, 40),
                    "cache_creation_input_tokens": self.rng.randint(0, 3000),
                    "cache_read_input_tokens": self.rng.randint(10000, 90000),
                    "output_tokens": self.rng.randint(20, 900),
                    "service_tier": "standard",
                },
            }
            self._append(self._record("assistant", self.tip, message=message, requestId=request))
        return ids

    def results(self, outputs: Sequence[tuple[str, str, bool]]) -> None:
        """One record per tool result: (tool-use id, output, is_error)."""
        for call_id, text, error in outputs:
            block: dict[str, Any] = {"tool_use_id": call_id, "type": "tool_result", "content": text}
            if error:
                block["is_error"] = True
            self._append(
                self._record(
                    "user",
                    self.tip,
                    message={"role": "user", "content": [block]},
                    toolUseResult=(
                        f"Error: {text}"
                        if error
                        else {"stdout": text, "stderr": "", "interrupted": False, "isImage": False}
                    ),
                )
            )

    def turn(
        self,
        prompt: str | None,
        steps: Sequence[tuple[str | None, Sequence[tuple[str, dict[str, Any], str, bool]]]],
        answer: str | None = None,
    ) -> None:
        """A user prompt, tool rounds (text, [(tool, args, output, is_error)]), an answer."""
        if prompt is not None:
            self.user(prompt)
        for text, calls in steps:
            ids = self.assistant(text, [(name, args) for name, args, _, _ in calls])
            self.results([(i, out, err) for i, (_, _, out, err) in zip(ids, calls, strict=True)])
        if answer is not None:
            self.assistant(answer)

    # ---- what is not a message

    def title(self, text: str) -> None:
        self.records.append({"type": "summary", "summary": text, "leafUuid": self.tip})

    def snapshot(self) -> None:
        message_id = self.new_uuid()
        self.records.append(
            {
                "type": "file-history-snapshot",
                "messageId": message_id,
                "snapshot": {
                    "messageId": message_id,
                    "trackedFileBackups": {},
                    "timestamp": self.clock.tick(0, 1),
                },
                "isSnapshotUpdate": False,
            }
        )

    # ---- compaction and its hazards

    def compact(
        self,
        sections: dict[str, str | list[str]],
        *,
        trigger: str = "manual",
        preserve: int = 0,
    ) -> str:
        """A compaction of everything up to the tip; with ``preserve``, the last records
        before it are a preserved segment, relinked after the summary (the tail re-appended
        with the summary as its parent).  Returns the boundary's uuid."""
        logical = self.tip
        segment: list[str] = []
        if preserve:
            current = logical
            while current is not None and len(segment) < preserve:
                record = self.by_uuid[current]
                if record.get("subtype") == "compact_boundary" or record.get("isCompactSummary"):
                    break
                segment.append(current)
                current = record["parentUuid"]
            segment.reverse()
        metadata: dict[str, Any] = {
            "trigger": trigger,
            "preTokens": self.rng.randint(120000, 168000),
        }
        boundary = self._record(
            "system",
            None,
            subtype="compact_boundary",
            content="Conversation compacted",
            isMeta=False,
        )
        boundary["parentUuid"] = None
        boundary["logicalParentUuid"] = logical
        boundary["level"] = "info"
        boundary["compactMetadata"] = metadata
        b = self._append(boundary)
        text = f"{CLAUDE_SUMMARY_PREFIX}\n{summary_sections(sections)}\n\n{CLAUDE_SUMMARY_SUFFIX}"
        s = self._append(
            self._record(
                "user",
                b,
                message={"role": "user", "content": text},
                isVisibleInTranscriptOnly=True,
                isCompactSummary=True,
            )
        )
        if segment:
            metadata["preservedSegment"] = {
                "headUuid": segment[0],
                "anchorUuid": s,
                "tailUuid": segment[-1],
            }
            tail = dict(self.by_uuid[segment[-1]])
            tail["parentUuid"] = s
            self.records.append(tail)  # re-appended, same uuid: the first copy is read
            self.tip = segment[-1]
        metadata["postTokens"] = self.rng.randint(8000, 30000)
        metadata["durationMs"] = self.rng.randint(20000, 90000)
        return b

    def rewind(self, to: str) -> None:
        """The user rewound to after record ``to``: the next record chains to it."""
        self.tip = to

    def reappend(self, uuids: Sequence[str]) -> None:
        """Copies of earlier records written again with their uuids (claude-code#92089)."""
        for uid in uuids:
            self.records.append(dict(self.by_uuid[uid]))

    def microcompact(self, tool_ids: Sequence[str]) -> None:
        self._append(
            self._record(
                "system",
                self.tip,
                subtype="microcompact_boundary",
                content="Context microcompacted",
                isMeta=False,
                level="info",
                microcompactMetadata={
                    "trigger": "auto",
                    "preTokens": self.rng.randint(100000, 150000),
                    "tokensSaved": self.rng.randint(5000, 40000),
                    "compactedToolIds": list(tool_ids),
                    "clearedAttachmentUUIDs": [],
                },
            )
        )

    def tool_ids(self) -> list[str]:
        """The tool-use ids answered so far, oldest first."""
        return [
            block["tool_use_id"]
            for r in self.records
            if r.get("type") == "user" and isinstance(r.get("message", {}).get("content"), list)
            for block in r["message"]["content"]
            if block.get("type") == "tool_result"
        ]

    def subagent(self, agent: str, prompt: str, answer: str) -> ClaudeSession:
        """The transcript of a subagent this session started (its own file)."""
        sub = ClaudeSession(
            seed=self.seed + 1000,
            cwd=self.cwd,
            branch=self.branch,
            start=self.clock.now,
            agent=agent,
            session_id=self.session_id,
        )
        sub.turn(
            prompt,
            [("Searching.", [("Grep", {"pattern": "round("}, "src/payments/refund.py:41", False)])],
            answer,
        )
        return sub

    def data(self) -> bytes:
        return to_jsonl(self.records)


# --------------------------------------------------------------------------- Codex


@dataclass
class CodexRollout:
    """A Codex rollout, line by line."""

    seed: int = 0
    cwd: str = "/home/dev/inventory"
    start: datetime = datetime(2025, 9, 10, 14, 0, tzinfo=timezone.utc)
    model: str = CODEX_MODEL
    records: list[Record] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.clock = _Clock(self.rng, self.start)
        self.session_id = str(uuidlib.UUID(int=self.rng.getrandbits(128), version=4))
        self.user_messages: list[str] = []

    def line(self, kind: str, payload: dict[str, Any]) -> None:
        self.records.append({"timestamp": self.clock.tick(), "type": kind, "payload": payload})

    def meta(self) -> None:
        self.line(
            "session_meta",
            {
                "id": self.session_id,
                "timestamp": self.clock.tick(0, 0.1),
                "cwd": self.cwd,
                "originator": "codex_cli_rs",
                "cli_version": CODEX_VERSION,
                "instructions": None,
                "git": {"commit_hash": "9f2c1e07ab4d", "branch": "main"},
            },
        )

    def context(self) -> None:
        self.line(
            "turn_context",
            {
                "cwd": self.cwd,
                "approval_policy": "on-request",
                "sandbox_policy": {"mode": "workspace-write", "network_access": False},
                "model": self.model,
                "effort": "medium",
                "summary": "auto",
            },
        )

    def user(self, text: str) -> None:
        self.user_messages.append(text)
        self.context()
        self.line("response_item", {"type": "message", "role": "user",
                                    "content": [{"type": "input_text", "text": text}]})  # fmt: skip
        self.line("event_msg", {"type": "user_message", "message": text, "images": []})

    def reason(self, summary: str) -> None:
        self.line(
            "response_item",
            {
                "type": "reasoning",
                "summary": [{"type": "summary_text", "text": summary}],
                "content": None,
                "encrypted_content": "gAAAAAB"
                + "".join(self.rng.choice("abcdefXYZ0129") for _ in range(48)),
            },
        )

    def call(self, command: list[str], output: str, exit_code: int = 0) -> None:
        call_id = "call_" + "".join(
            self.rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
            for _ in range(24)
        )
        args = orjson.dumps(
            {"command": command, "workdir": self.cwd, "timeout_ms": 120000}
        ).decode()
        self.line(
            "response_item",
            {"type": "function_call", "name": "shell", "arguments": args, "call_id": call_id},
        )
        body = orjson.dumps(
            {
                "output": output,
                "metadata": {
                    "exit_code": exit_code,
                    "duration_seconds": round(self.rng.uniform(0.1, 9), 1),
                },
            }
        ).decode()
        self.line(
            "response_item", {"type": "function_call_output", "call_id": call_id, "output": body}
        )

    def say(self, text: str) -> None:
        content = [{"type": "output_text", "text": text}]
        self.line("response_item", {"type": "message", "role": "assistant", "content": content})
        self.line("event_msg", {"type": "agent_message", "message": text})
        self.line(
            "event_msg",
            {
                "type": "token_count",
                "info": {
                    "total_token_usage": {
                        "input_tokens": self.rng.randint(20000, 200000),
                        "output_tokens": self.rng.randint(500, 9000),
                    }
                },
            },
        )

    def compact(self, summary: str) -> None:
        """A local compaction: the summary prefix and the summary."""
        self.context()
        self.line("compacted", {"message": f"{CODEX_SUMMARY_PREFIX}\n{summary}"})
        self.line("event_msg", {"type": "context_compacted"})

    def compact_remote(self) -> None:
        """A remote compaction: no message; the new history, its summary encrypted."""
        self.context()
        history: list[dict[str, Any]] = [
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": t}]}
            for t in self.user_messages
        ]
        secret = "".join(
            self.rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
            for _ in range(320)
        )
        history.append({"type": "compaction", "encrypted_content": "gAAAAABo" + secret})
        self.line("compacted", {"message": "", "replacement_history": history})
        self.line("event_msg", {"type": "context_compacted"})

    def data(self) -> bytes:
        return to_jsonl(self.records)


# --------------------------------------------------------------------------- the stories


REFUND_PATH: Final = "/home/dev/payments-service/src/payments/refund.py"
TEST_FILE: Final = (
    "def test_partial_refund_rounding():\n"
    "    assert refund(Money('10.005', 'EUR'), 0.5) == Money('5.00', 'EUR')\n\n"
    "def test_refund_currency_jpy():\n"
    "    assert refund(Money('1001', 'JPY'), 0.5) == Money('501', 'JPY')"
)
REFUND_FILE: Final = (
    "def refund(amount, share):\n    return Money(round(amount.value * share, 2), amount.currency)"
)
FAILED_EUR: Final = (
    "FAILED tests/test_refunds.py::test_partial_refund_rounding - assert 5.0 == 5.01"
)
FAILED_JPY_FLOAT: Final = (
    "FAILED tests/test_refunds.py::test_refund_currency_jpy - assert 500.5 == 501"
)
FAILED_JPY: Final = (
    "FAILED tests/test_refunds.py::test_refund_currency_jpy - assert Decimal('500.50') == 501"
)
DECIMAL_FIX: Final = (
    "(Decimal(amount.value) * Decimal(str(share))).quantize(Decimal('0.01'), ROUND_HALF_UP)"
)


def _slim(record: Record) -> Record:
    """What a chain walk needs of an old record (a sized session forgets the rest)."""
    kept = {"parentUuid": record.get("parentUuid")}
    for key in ("isCompactSummary", "subtype"):
        if key in record:
            kept[key] = record[key]
    return kept


def _refund_session(seed: int = 11) -> ClaudeSession:
    """The bundled Claude Code sample: a flaky refund test, a summary that drops a failure."""
    s = ClaudeSession(seed=seed)
    s.turn(
        "The refund rounding test is flaky in CI. Find out why and fix it.",
        [
            (
                "I'll start with the test and the code it covers.",
                [
                    (
                        "Read",
                        {"file_path": "/home/dev/payments-service/tests/test_refunds.py"},
                        TEST_FILE,
                        False,
                    ),
                    (
                        "Read",
                        {"file_path": "/home/dev/payments-service/src/payments/refund.py"},
                        REFUND_FILE,
                        False,
                    ),
                ],
            ),
            (
                "round() on floats rounds half to even. Let me run the tests.",
                [
                    (
                        "Bash",
                        {
                            "command": "pytest tests/test_refunds.py -q",
                            "description": "Run the refund tests",
                        },
                        f"{FAILED_EUR}\n{FAILED_JPY_FLOAT}\n2 failed, 14 passed in 0.41s",
                        True,
                    )
                ],
            ),
            (
                "Switching to Decimal with ROUND_HALF_UP.",
                [
                    (
                        "Edit",
                        {
                            "file_path": "/home/dev/payments-service/src/payments/refund.py",
                            "old_string": "round(amount.value * share, 2)",
                            "new_string": DECIMAL_FIX,
                        },
                        f"The file {REFUND_PATH} has been updated.",
                        False,
                    )
                ],
            ),
            (
                None,
                [
                    (
                        "Bash",
                        {
                            "command": "pytest tests/test_refunds.py -q",
                            "description": "Run the refund tests",
                        },
                        f"{FAILED_JPY}\n1 failed, 15 passed in 0.38s",
                        True,
                    )
                ],
            ),
        ],
        "The EUR case passes now. The JPY case still fails: JPY has no minor unit, so "
        "quantizing to 0.01 is wrong for it.",
    )
    s.title("Fix flaky refund rounding test")
    s.compact(
        {
            "Primary Request and Intent": "Fix the flaky refund rounding test in CI.",
            "Key Technical Concepts": [
                "Python round() uses banker's rounding",
                "Decimal quantize with ROUND_HALF_UP",
            ],
            "Files and Code Sections": [
                "src/payments/refund.py: refund() now uses Decimal and ROUND_HALF_UP",
                "tests/test_refunds.py: test_partial_refund_rounding",
            ],
            "Errors and fixes": [
                "test_partial_refund_rounding failed (5.0 != 5.01): fixed by switching to Decimal"
            ],
            "Problem Solving": "Rounding fixed; all 16 refund tests pass.",
            "All user messages": [
                "The refund rounding test is flaky in CI. Find out why and fix it."
            ],
            "Pending Tasks": ["None."],
            "Current Work": "The rounding fix is done.",
        },
        trigger="manual",
    )
    s.turn(
        "Good. Add a CHANGELOG entry for the fix.",
        [
            (
                "Adding the entry.",
                [
                    (
                        "Edit",
                        {
                            "file_path": "/home/dev/payments-service/CHANGELOG.md",
                            "old_string": "## Unreleased\n",
                            "new_string": "## Unreleased\n\n- Refunds round half up (Decimal).\n",
                        },
                        "The file /home/dev/payments-service/CHANGELOG.md has been updated.",
                        False,
                    )
                ],
            )
        ],
        "Added under Unreleased.",
    )
    before_bump = s.tip
    assert before_bump is not None
    s.turn(
        "Also bump the version to 2.4.0 and tag it.",
        [
            (
                "Bumping.",
                [
                    (
                        "Bash",
                        {
                            "command": "bumpversion minor && git tag v2.4.0",
                            "description": "Bump and tag",
                        },
                        "Bumped 2.3.1 -> 2.4.0; tagged v2.4.0",
                        False,
                    )
                ],
            )
        ],
        "Version 2.4.0, tagged.",
    )
    s.rewind(before_bump)  # the user rewound: the bump and tag are abandoned
    s.turn(
        "Actually, don't bump anything. Run the full suite instead.",
        [
            (
                "Running everything.",
                [
                    (
                        "Bash",
                        {"command": "pytest -q", "description": "Run the full suite"},
                        f"{FAILED_JPY}\n1 failed, 311 passed in 12.87s",
                        True,
                    )
                ],
            )
        ],
        "311 passed, 1 failed: the JPY refund test.",
    )
    s.microcompact(s.tool_ids()[:2])
    s.compact(
        {
            "Primary Request and Intent": (
                "Fix the flaky refund rounding test; add a CHANGELOG entry; run the full suite."
            ),
            "Files and Code Sections": ["CHANGELOG.md: entry under Unreleased"],
            "Errors and fixes": ["test_refund_currency_jpy fails: JPY has no minor unit"],
            "Pending Tasks": ["Quantize by the currency's minor unit (0 for JPY)."],
            "Current Work": "Fixing the JPY case.",
        },
        trigger="auto",
        preserve=2,
    )
    s.reappend([r["uuid"] for r in s.records[2:4] if "uuid" in r])
    s.turn(
        "Fix the JPY case.",
        [
            (
                "Using the currency's exponent.",
                [
                    (
                        "Edit",
                        {
                            "file_path": "/home/dev/payments-service/src/payments/refund.py",
                            "old_string": "Decimal('0.01')",
                            "new_string": "Decimal(1).scaleb(-amount.currency.exponent)",
                        },
                        f"The file {REFUND_PATH} has been updated.",
                        False,
                    ),
                    (
                        "Bash",
                        {"command": "pytest -q", "description": "Run the full suite"},
                        "312 passed in 12.41s",
                        False,
                    ),
                ],
            )
        ],
        "All 312 tests pass.",
    )
    return s


def _migration_rollout(seed: int = 12) -> CodexRollout:
    """The bundled Codex sample: a column migration, compacted locally, then remotely."""
    r = CodexRollout(seed=seed)
    r.meta()
    r.user("Add a NOT NULL email column to customers and backfill it from accounts.")
    r.reason("Looking for the schema and the existing migrations.")
    r.call(
        ["rg", "-n", "CREATE TABLE customers", "db/"], "db/schema.sql:12:CREATE TABLE customers ("
    )
    r.call(["ls", "db/migrations"], "0041_orders_index.sql\n0042_accounts_email.sql")
    r.say("I'll write migration 0043: add the column nullable, backfill, then set NOT NULL.")
    r.call(
        ["psql", "-f", "db/migrations/0043_customers_email.sql"],
        'ERROR:  column "email" of relation "customers" contains null values',
        1,
    )
    r.say("17 customers have no account row, so the backfill leaves them NULL.")
    r.compact(
        "The user wants a NOT NULL email column on customers, backfilled from accounts. "
        "The migration adds the column, backfills every customer from accounts and sets NOT "
        "NULL; it was applied without errors. Next: add an index on customers.email."
    )
    r.user("What about the customers without an account?")
    r.call(
        [
            "psql",
            "-c",
            "SELECT count(*) FROM customers c LEFT JOIN accounts a "
            "ON a.customer_id = c.id WHERE a.id IS NULL",
        ],
        " count\n-------\n    17\n(1 row)",
    )
    r.say("17 customers have no account. I'll give them a placeholder address and flag them.")
    r.compact_remote()
    r.user("Use unknown+<id>@invalid and add a needs_email flag.")
    r.call(
        ["psql", "-f", "db/migrations/0043_customers_email.sql"],
        "ALTER TABLE\nUPDATE 17\nALTER TABLE",
    )
    r.say("Migration 0043 applied: 17 placeholder addresses, all flagged needs_email.")
    return r


# --------------------------------------------------------------------------- the cases


def claude_cases(seed: int = 3) -> dict[str, bytes]:
    """One Claude Code file per case of SPEC §7 (a subagent's is under its session's folder)."""
    files: dict[str, bytes] = {}

    def story(s: ClaudeSession, rounds: int, start: int = 0) -> None:
        for n in range(start, start + rounds):
            s.turn(
                f"Step {n}: check module m{n}.",
                [
                    (
                        None,
                        [
                            (
                                "Read",
                                {"file_path": f"/src/m{n}.py"},
                                f"def f{n}(): return {n}",
                                False,
                            )
                        ],
                    )
                ],
                f"Module m{n} is fine.",
            )

    plain = ClaudeSession(seed=seed)
    story(plain, 2)
    plain.compact({"Primary Request and Intent": "Check modules m0 and m1."})
    story(plain, 1, 2)
    files["plain.jsonl"] = plain.data()

    nested = ClaudeSession(seed=seed + 1)
    for k in range(3):
        story(nested, 2, 2 * k)
        nested.compact({"Current Work": f"Checked modules up to m{2 * k + 1}."},
                       trigger="auto" if k % 2 else "manual")  # fmt: skip
    story(nested, 1, 6)
    files["nested.jsonl"] = nested.data()

    preserved = ClaudeSession(seed=seed + 2)
    story(preserved, 3)
    preserved.compact({"Current Work": "Checking modules."}, trigger="auto", preserve=3)
    story(preserved, 1, 3)
    files["preserved.jsonl"] = preserved.data()

    rewind = ClaudeSession(seed=seed + 3)
    story(rewind, 1)
    back = rewind.tip
    assert back is not None
    story(rewind, 2, 1)
    rewind.rewind(back)
    story(rewind, 1, 3)
    files["rewind.jsonl"] = rewind.data()

    again = ClaudeSession(seed=seed + 4)
    story(again, 2)
    again.compact({"Current Work": "first"})
    story(again, 1, 2)
    again.compact({"Current Work": "second"})
    again.reappend([r["uuid"] for r in again.records if r.get("type") in ("user", "assistant")][:4])
    story(again, 1, 3)
    files["reappend.jsonl"] = again.data()

    parent = ClaudeSession(seed=seed + 5)
    task = {"description": "find callers", "prompt": "Find every caller of round().",
            "subagent_type": "Explore"}  # fmt: skip
    found = "One caller: src/payments/refund.py:41"
    parent.turn(task["prompt"], [("Delegating.", [("Task", task, found, False)])], "One caller.")
    files["subagent.jsonl"] = parent.data()
    sub = parent.subagent(
        "a81f3c2", "Find every caller of round().", "One caller: src/payments/refund.py:41"
    )
    files[f"{parent.session_id}/subagents/agent-a81f3c2.jsonl"] = sub.data()

    micro = ClaudeSession(seed=seed + 6)
    story(micro, 3)
    micro.microcompact(micro.tool_ids()[:2])
    story(micro, 1, 3)
    files["microcompact.jsonl"] = micro.data()

    titled = ClaudeSession(seed=seed + 7)
    story(titled, 1)
    titled.title("Check modules")
    story(titled, 1, 1)
    titled.title("Check every module")
    files["titles.jsonl"] = titled.data()
    return files


def codex_cases(seed: int = 5) -> dict[str, bytes]:
    """One Codex rollout per case of SPEC §7."""
    files: dict[str, bytes] = {}

    def story(r: CodexRollout, n: int) -> None:
        r.user(f"Step {n}: check table t{n}.")
        r.call(["psql", "-c", f"\\d t{n}"], f"Table t{n}: id integer")
        r.say(f"Table t{n} is fine.")

    local = CodexRollout(seed=seed)
    local.meta()
    story(local, 0)
    local.compact("Checked table t0.")
    story(local, 1)
    files["local.jsonl"] = local.data()

    nested = CodexRollout(seed=seed + 1)
    nested.meta()
    for k in range(3):
        story(nested, k)
        nested.compact(f"Checked tables up to t{k}.")
    story(nested, 3)
    files["nested.jsonl"] = nested.data()

    remote = CodexRollout(seed=seed + 2)
    remote.meta()
    story(remote, 0)
    remote.compact_remote()
    story(remote, 1)
    files["remote.jsonl"] = remote.data()

    rewritten = CodexRollout(seed=seed + 3)
    rewritten.meta()
    rewritten.compact("Everything before this line was rewritten away.")
    story(rewritten, 1)
    files["rewritten.jsonl"] = rewritten.data()
    return files


def sample_sessions() -> dict[str, bytes]:
    """The bundled samples of other runtimes, by file name."""
    return {
        "claude_code_session.jsonl": _refund_session().data(),
        "codex_rollout.jsonl": _migration_rollout().data(),
    }


#: The bundled samples of other runtimes and what they demonstrate (the samples README).
SESSION_DESCRIPTIONS: Final[dict[str, str]] = {
    "claude_code_session.jsonl": "A Claude Code session (`~/.claude/projects/...`): a flaky "
    "refund rounding test. The first, manual `/compact` summary says all 16 refund tests "
    "pass; the test run it folded shows `test_refund_currency_jpy` still failing, and `expand` "
    "puts that run back. Then a rewound branch (a version bump the user took back: "
    "`abandoned`), a microcompaction, an auto compaction that preserves its last two records, "
    "and records re-appended with uuids already written (`duplicate-record`). The "
    "summarizing model is not recorded.",
    "codex_rollout.jsonl": "A Codex rollout (`~/.codex/sessions/...`): a NOT NULL email "
    "column migration. The local compaction's summary says the migration ran cleanly; the "
    "`psql` output it folded says `contains null values`. A later remote compaction keeps "
    "only `encrypted_content` (`opaque-summary`; claims: `unverifiable`).",
}


# --------------------------------------------------------------------------- any size


def _filler(rng: random.Random, nbytes: int) -> str:
    words = [
        "refund",
        "ledger",
        "rounding",
        "Decimal",
        "currency",
        "assert",
        "fixture",
        "migration",
        "customer",
    ]
    out: list[str] = []
    size = 0
    while size < nbytes:
        line = " ".join(rng.choice(words) for _ in range(12))
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)


def generate_sized_claude(target_bytes: int, seed: int = 0) -> Iterator[bytes]:
    """A Claude Code session of about ``target_bytes``, as its lines: tool rounds with
    outputs of 200 B-8 KB, an auto compaction every few hundred records (each fold holding
    the previous summary: one unbroken nesting chain), now and then a preserved segment,
    a rewound branch and a microcompaction.  Records are written as they are made, so
    memory stays at a few hundred records."""
    s = ClaudeSession(seed=seed)
    rng = random.Random(seed + 1)
    written = 0
    sent = 0
    rounds = 0
    since = 0  # records since the last compaction
    while written < target_bytes:
        for _ in range(rng.randint(2, 5)):
            rounds += 1
            size = rng.choice((200, 600, 1500, 3000, 8000))
            s.turn(
                f"Round {rounds}: look at the next failing module.",
                [(f"Checking module {rounds}.",
                  [("Bash", {"command": f"pytest tests/test_m{rounds}.py -q"},
                    _filler(rng, size), rng.random() < 0.1)])],
                f"Module {rounds} checked.",
            )  # fmt: skip
        if rounds % 40 < 5 and s.tip is not None and rng.random() < 0.2:
            back = s.tip
            s.turn("Try the other fix.", [], "Trying it.")
            s.rewind(back)
        if rng.random() < 0.05:
            s.microcompact(s.tool_ids()[-2:])
        if since > 400 and rng.random() < 0.3:
            s.compact({"Current Work": f"Checked modules up to {rounds}."}, trigger="auto",
                      preserve=2 if rng.random() < 0.3 else 0)  # fmt: skip
            since = 0
        since += len(s.records) - sent
        for record in s.records[sent:]:
            line = orjson.dumps(record) + b"\n"
            written += len(line)
            yield line
        sent = len(s.records)
        if sent > 2000:  # keep the uuids the chains need, not the records' text
            keep = {r["uuid"]: r for r in s.records[-600:] if "uuid" in r}
            s.by_uuid = {u: _slim(r) for u, r in s.by_uuid.items()}
            s.by_uuid.update(keep)
            s.records = s.records[-600:]
            sent = len(s.records)


def write_sized_claude(path: str | Path, target_bytes: int, seed: int = 0) -> int:
    """Write :func:`generate_sized_claude` to ``path``; the number of bytes written."""
    return write_chunks(path, generate_sized_claude(target_bytes, seed))


def write_cases(folder: str | Path) -> list[Path]:
    """Every case file of both runtimes under ``folder`` (``claude-code/``, ``codex/``)."""
    root = Path(folder)
    written = []
    for runtime, files in (("claude-code", claude_cases()), ("codex", codex_cases())):
        for name, data in files.items():
            path = root / runtime / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            written.append(path)
    return written
