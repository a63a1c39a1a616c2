"""Codex rollouts, case by case (SPEC §7): each a small file written here, each with its
expansion written by hand (locators and the 1-based lines of the rows)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import foldctl
from foldctl.claims.record import check_graph
from tests.support.sessions import (
    ROLLOUT,
    call,
    compacted,
    event,
    meta,
    output,
    remote_compacted,
    say,
    turn,
    write_jsonl,
)


def rows(conversation: foldctl.Conversation, **options: Any) -> list[tuple[str, int]]:
    """(locator, line) of every row of the walk."""
    return [(row.locator, row.line or 0) for row in conversation.walk(**options)]


def open_rollout(tmp_path: Path, records: list[Any]) -> foldctl.Conversation:
    return foldctl.open(write_jsonl(tmp_path / "rollout-2025-06-01T10-00-00-x.jsonl", records))


def test_only_response_items_are_history(tmp_path: Path) -> None:
    c = open_rollout(
        tmp_path,
        [
            meta(),  # 1
            turn(),  # 2
            event("user_message", message="Why does the build fail?"),  # 3
            say("user", "Why does the build fail?"),  # 4
            say("assistant", "A missing import."),  # 5
            event("token_count", info=None),  # 6
        ],
    )
    assert c.checkpoint.format == "codex" and c.scheme == "position"
    assert rows(c) == [("h0", 4), ("h1", 5)]
    assert c.checkpoint.original_input == "Why does the build fail?"
    facts = c.checkpoint.session
    assert facts is not None and facts.session_id == ROLLOUT and facts.project == "/home/dev/shop"
    assert dict(facts.other_lines) == {"event_msg": 2, "session_meta": 1, "turn_context": 1}


def test_a_compacted_line_folds_the_items_before_it(tmp_path: Path) -> None:
    c = open_rollout(
        tmp_path,
        [
            meta(),  # 1
            turn("gpt-5-codex"),  # 2
            say("user", "Fix the build."),  # 3
            call("c1", "shell", '{"command":["make"]}'),  # 4
            output("c1", "error: missing import"),  # 5
            compacted("The build failed on a missing import."),  # 6
            say("user", "Go on."),  # 7
        ],
    )
    assert rows(c, keep_frames=True) == [
        ("h0", 6),
        ("f0:0", 3),
        ("f0:1", 4),
        ("f0:2", 5),
        ("h1", 7),
    ]
    assert rows(c) == [("f0:0", 3), ("f0:1", 4), ("f0:2", 5), ("h1", 7)]
    (span,) = c.spans
    assert (span.line, span.model, span.message_count, span.iteration) == (
        6,
        "gpt-5-codex",
        3,
        None,
    )
    assert (
        span.removed_stage_ids is None and span.raw is not None and span.raw["type"] == "compacted"
    )
    assert c.audit() == []


def test_compactions_nest_the_earlier_summary_stands_first_in_the_next_fold(
    tmp_path: Path,
) -> None:
    c = open_rollout(
        tmp_path,
        [
            meta(),  # 1
            say("user", "one"),  # 2
            compacted("first"),  # 3
            say("user", "two"),  # 4
            compacted("second"),  # 5
            say("assistant", "three"),  # 6
            compacted("third"),  # 7
            say("user", "four"),  # 8
        ],
    )
    assert rows(c, keep_frames=True) == [
        ("h0", 7),
        ("f2:0", 5),
        ("f1:0", 3),
        ("f0:0", 2),
        ("f1:1", 4),
        ("f2:1", 6),
        ("h1", 8),
    ]
    assert [p.depth for p in c.places] == [3, 2, 1]


def test_a_remote_compaction_keeps_its_replacement_history_and_is_opaque(
    tmp_path: Path,
) -> None:
    c = open_rollout(
        tmp_path,
        [
            meta(),  # 1
            say("user", "Refund order 1182."),  # 2
            say("assistant", "Refund RF-77 issued."),  # 3
            remote_compacted(["Refund order 1182."]),  # 4
            say("user", "Thanks."),  # 5
        ],
    )
    assert rows(c) == [("f0:0", 2), ("f0:1", 3), ("h1", 5)]
    (span,) = c.spans
    assert span.raw is not None
    history = span.raw["payload"]["replacement_history"]
    assert history[-1] == {"type": "compaction", "encrypted_content": "gAAAAABo0v1x8Zq3remote"}
    (finding,) = c.audit()
    assert (finding.code, finding.severity, finding.span, finding.locator) == (
        "opaque-summary",
        "info",
        0,
        "h0",
    )
    assert [f.kind for f in check_graph(c.graph)] == ["unverifiable"]


def test_a_rollout_rewritten_to_start_at_compacted_has_its_originals_missing(
    tmp_path: Path,
) -> None:
    c = open_rollout(
        tmp_path,
        [meta(), compacted("everything before is gone"), say("user", "Continue.")],
    )
    (span,) = c.spans
    assert span.messages is None and span.retained == "discard"
    assert rows(c, keep_frames=True) == [("h0", 2), ("h1", 3)]
    (finding,) = c.audit()
    assert finding.code == "originals-missing" and finding.path == "line 2"


def test_the_view_shows_calls_outputs_and_the_summary(tmp_path: Path) -> None:
    from foldctl.formats.registry import view_of

    c = open_rollout(
        tmp_path,
        [meta(), say("user", "q"), call("c1", "shell", '{"command":["ls"]}'), output("c1", "a.py"),
         compacted("summary text")],
    )  # fmt: skip
    view = view_of(c.checkpoint)
    shown = [view(r.message) for r in c.walk()]
    assert [(s["role"], s["content"]) for s in shown] == [
        ("user", "q"),
        ("assistant", ""),
        ("tool", "a.py"),
    ]
    assert shown[1]["toolCalls"] == [{"id": "c1", "name": "shell", "args": '{"command":["ls"]}'}]
    assert shown[2]["toolCallId"] == "c1"
    frame = view(c.history[0])
    assert frame["role"] == "user" and frame["content"].endswith("\nsummary text")
