"""Claude Code sessions, case by case (SPEC §7): each a small file written here, each with
its expansion written by hand: the records' uuids in transcript order, with the locator
and the 1-based line each stands at, and the spans the folds become."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import foldctl
from foldctl.errors import InputError
from foldctl.graph.walk import Row
from tests.support.sessions import (
    SESSION,
    assistant,
    boundary,
    microcompact,
    snapshot,
    summary,
    title,
    tool_result,
    tool_use,
    user,
    write_jsonl,
)


def rows(conversation: foldctl.Conversation, **options: Any) -> list[tuple[str, str, int]]:
    """(locator, uuid, line) of every row of the walk."""
    found = []
    for row in conversation.walk(**options):
        assert isinstance(row, Row) and row.line is not None
        found.append((row.locator, row.message["uuid"], row.line))
    return found


def codes(conversation: foldctl.Conversation) -> list[str]:
    return sorted(f.code for f in conversation.audit())


def open_session(tmp_path: Path, records: list[Any], name: str = "s.jsonl") -> foldctl.Conversation:
    return foldctl.open(write_jsonl(tmp_path / name, records))


def test_a_file_without_compaction_is_its_live_window(tmp_path: Path) -> None:
    c = open_session(
        tmp_path,
        [
            user("u1", None, "Add a CSV export to the orders page."),
            assistant("a1", "u1", "I'll look at the orders view first."),
        ],
    )
    assert c.checkpoint.format == "claude-code" and c.scheme == "uuid-chain"
    assert rows(c) == [("h0", "u1", 1), ("h1", "a1", 2)]
    assert c.spans == () and codes(c) == []


def test_one_compaction_puts_its_originals_back_behind_its_summary(tmp_path: Path) -> None:
    c = open_session(
        tmp_path,
        [
            user("u1", None, "Fix the failing checkout test."),  # 1
            assistant("a1", "u1", "The tax rounding is off by a cent."),  # 2
            user("u2", "a1", "Round half up, then."),  # 3
            boundary("b1", "u2"),  # 4
            summary("s1", "b1", "The user asked to fix the checkout test; tax rounding."),  # 5
            user("u3", "s1", "Now run the whole suite."),  # 6
            assistant("a2", "u3", "All 214 tests pass."),  # 7
        ],
    )
    assert rows(c) == [
        ("f0:0", "u1", 1),
        ("f0:1", "a1", 2),
        ("f0:2", "u2", 3),
        ("h1", "u3", 6),
        ("h2", "a2", 7),
    ]
    assert rows(c, keep_frames=True)[0] == ("h0", "s1", 5)
    (span,) = c.spans
    assert (span.line, span.message_count, span.retained, span.kind) == (
        4,
        3,
        "conversation",
        "fold",
    )
    assert span.model is None and span.iteration is None and span.removed_stage_ids is None
    assert span.run_id == SESSION and span.raw is not None and span.raw["uuid"] == "b1"
    assert [p.placement for p in c.places] == ["placed"]
    assert codes(c) == []


def test_folds_nest_three_deep_and_expand_puts_them_all_back(tmp_path: Path) -> None:
    c = open_session(
        tmp_path,
        [
            user("u1", None, "one"),  # 1
            assistant("a1", "u1", "two"),  # 2
            boundary("b1", "a1"),  # 3
            summary("s1", "b1", "first summary"),  # 4
            user("u2", "s1", "three"),  # 5
            boundary("b2", "u2", trigger="auto"),  # 6
            summary("s2", "b2", "second summary"),  # 7
            assistant("a2", "s2", "four"),  # 8
            boundary("b3", "a2"),  # 9
            summary("s3", "b3", "third summary"),  # 10
            user("u3", "s3", "five"),  # 11
        ],
    )
    assert rows(c, keep_frames=True) == [
        ("h0", "s3", 10),
        ("f2:0", "s2", 7),
        ("f1:0", "s1", 4),
        ("f0:0", "u1", 1),
        ("f0:1", "a1", 2),
        ("f1:1", "u2", 5),
        ("f2:1", "a2", 8),
        ("h1", "u3", 11),
    ]
    assert [p.depth for p in c.places] == [3, 2, 1]
    assert [s.raw["compactMetadata"]["trigger"] for s in c.spans if s.raw] == [
        "manual",
        "auto",
        "manual",
    ]
    depths = [(r.locator, r.depth, r.chain) for r in c.walk()]
    assert depths[0] == ("f0:0", 3, (2, 1, 0))


def test_a_preserved_segment_stands_right_after_its_summary(tmp_path: Path) -> None:
    """The originals end at the head's parent; the live window has the summary, then the
    preserved head..tail, then what came after."""
    c = open_session(
        tmp_path,
        [
            user("u1", None, "old question"),  # 1
            assistant("a1", "u1", "old answer"),  # 2
            user("u2", "a1", "recent question"),  # 3 head
            assistant("a2", "u2", "recent answer"),  # 4 tail
            boundary(
                "b1",
                "a2",
                preservedSegment={"headUuid": "u2", "anchorUuid": "s1", "tailUuid": "a2"},
            ),  # 5
            summary("s1", "b1", "the old exchange"),  # 6
            user("u3", "a2", "next question"),  # 7
        ],
    )
    assert rows(c, keep_frames=True) == [
        ("h0", "s1", 6),
        ("f0:0", "u1", 1),
        ("f0:1", "a1", 2),
        ("h1", "u2", 3),
        ("h2", "a2", 4),
        ("h3", "u3", 7),
    ]
    assert codes(c) == []


def test_a_session_that_ends_at_a_summary_has_its_preserved_records_live(
    tmp_path: Path,
) -> None:
    """The runtime re-appends the tail after the summary (same uuid) and nothing follows:
    the live window is still the summary and the preserved records."""
    tail = assistant("a2", "u2", "recent answer")
    c = open_session(
        tmp_path,
        [
            user("u1", None, "old question"),  # 1
            user("u2", "u1", "recent question"),  # 2 head
            tail,  # 3 tail
            boundary(
                "b1",
                "a2",
                preservedSegment={"headUuid": "u2", "anchorUuid": "s1", "tailUuid": "a2"},
            ),  # 4
            summary("s1", "b1", "the old question"),  # 5
            {**tail, "parentUuid": "s1"},  # 6: the tail re-appended after the summary
        ],
    )
    assert rows(c, keep_frames=True) == [
        ("h0", "s1", 5),
        ("f0:0", "u1", 1),
        ("h1", "u2", 2),
        ("h2", "a2", 3),
    ]
    assert c.audit() == []  # the re-appended tail is the relink, not a duplicate


def test_a_later_fold_holds_the_earlier_summary_and_its_preserved_segment(
    tmp_path: Path,
) -> None:
    c = open_session(
        tmp_path,
        [
            user("u1", None, "q1"),  # 1
            user("u2", "u1", "q2 kept"),  # 2
            boundary(
                "b1",
                "u2",
                preservedSegment={"headUuid": "u2", "anchorUuid": "s1", "tailUuid": "u2"},
            ),  # 3
            summary("s1", "b1", "summary one"),  # 4
            user("u3", "u2", "q3"),  # 5
            boundary("b2", "u3"),  # 6
            summary("s2", "b2", "summary two"),  # 7
            user("u4", "s2", "q4"),  # 8
        ],
    )
    assert rows(c, keep_frames=True) == [
        ("h0", "s2", 7),
        ("f1:0", "s1", 4),
        ("f0:0", "u1", 1),
        ("f1:1", "u2", 2),
        ("f1:2", "u3", 5),
        ("h1", "u4", 8),
    ]


def test_preserved_messages_by_uuid_are_left_out_of_the_originals(tmp_path: Path) -> None:
    c = open_session(
        tmp_path,
        [
            user("u1", None, "q1"),  # 1
            assistant("a1", "u1", "kept answer"),  # 2
            user("u2", "a1", "q2"),  # 3
            boundary("b1", "u2", preservedMessages={"anchorUuid": "s1", "uuids": ["a1", "u2"]}),
            summary("s1", "b1", "summary"),  # 5
            user("u3", "u2", "q3"),  # 6
        ],
    )
    assert rows(c, keep_frames=True) == [
        ("h0", "s1", 5),
        ("f0:0", "u1", 1),
        ("h1", "a1", 2),
        ("h2", "u2", 3),
        ("h3", "u3", 6),
    ]


def test_a_rewound_branch_is_abandoned_shown_only_on_request(tmp_path: Path) -> None:
    c = open_session(
        tmp_path,
        [
            user("u1", None, "Deploy to staging."),  # 1
            assistant("a1", "u1", "Deploying."),  # 2
            user("u2", "a1", "Actually deploy to production."),  # 3 rewound
            assistant("a2", "u2", "Deploying to production."),  # 4 rewound
            user("u3", "a1", "Wait, first run the migrations."),  # 5
        ],
    )
    assert rows(c) == [("h0", "u1", 1), ("h1", "a1", 2), ("h2", "u3", 5)]
    (branch,) = c.spans
    assert branch.kind == "abandoned" and c.places[0].placement == "abandoned"
    assert rows(c, include_detached=True)[3:] == [("f0:0", "u2", 3), ("f0:1", "a2", 4)]
    (finding,) = c.audit()
    assert (finding.code, finding.severity, finding.span) == ("abandoned-branch", "info", 0)
    assert "lines 3-4" in finding.message
    assert c.overview()["counts"]["spans"] == 0 and c.overview()["counts"]["abandoned"] == 1


def test_records_re_appended_with_the_same_uuid_are_one_record_with_copies_counted(
    tmp_path: Path,
) -> None:
    """A second /compact re-appended history with the uuids it had (claude-code#92089)."""
    first = [
        user("u1", None, "Migrate the users table."),
        assistant("a1", "u1", "Migration written."),
    ]
    changed = assistant("a1", "u1", "Migration written (re-appended, edited).")
    c = open_session(tmp_path, [*first, user("u2", "a1", "Run it."), first[0], changed])
    assert rows(c) == [("h0", "u1", 1), ("h1", "a1", 2), ("h2", "u2", 3)]
    (finding,) = c.audit()
    assert finding.code == "duplicate-record" and finding.path == "line 4"
    assert "Lines 4-5 re-append 2 record(s)" in finding.message
    assert "1 of the copies differ" in finding.message
    assert finding.locator == "h0" and finding.related == ("line 1", "line 2")


def test_titles_snapshots_and_boundaries_are_not_messages(tmp_path: Path) -> None:
    c = open_session(
        tmp_path,
        [
            title("Add CSV export", "a1"),  # 1
            snapshot("u1"),  # 2
            user("u1", None, "Add a CSV export."),  # 3
            assistant("a1", "u1", "Done."),  # 4
        ],
    )
    assert rows(c) == [("h0", "u1", 3), ("h1", "a1", 4)]
    facts = c.checkpoint.session
    assert facts is not None
    assert dict(facts.other_lines) == {"file-history-snapshot": 1, "summary": 1}
    assert (facts.records, facts.lines, facts.session_id) == (4, 4, SESSION)


def test_one_row_per_record_even_when_records_share_a_message_id(tmp_path: Path) -> None:
    c = open_session(
        tmp_path,
        [
            user("u1", None, "Read both files."),  # 1
            assistant("a1", "u1", "Reading.", message_id="msg_1"),  # 2
            tool_use("a2", "a1", "toolu_1", "Read", {"file_path": "a.py"}, "msg_1"),  # 3
            tool_use("a3", "a2", "toolu_2", "Read", {"file_path": "b.py"}, "msg_1"),  # 4
            tool_result("r1", "a3", "toolu_1", "print('a')"),  # 5
            tool_result("r2", "r1", "toolu_2", "print('b')"),  # 6
        ],
    )
    assert [u for _, u, _ in rows(c)] == ["u1", "a1", "a2", "a3", "r1", "r2"]


def test_parallel_tool_calls_the_chain_walk_passes_by_are_placed_by_message_id(
    tmp_path: Path,
) -> None:
    """Each tool result's parent is its own assistant record: the walk from the last record
    follows one branch; the siblings of one API message and their results are placed in
    file order, as the runtime recovers them, and nothing is abandoned."""
    c = open_session(
        tmp_path,
        [
            user("u1", None, "Read both files."),  # 1
            tool_use("a1", "u1", "toolu_1", "Read", {"file_path": "a.py"}, "msg_1"),  # 2
            tool_use("a2", "u1", "toolu_2", "Read", {"file_path": "b.py"}, "msg_1"),  # 3
            tool_result("r1", "a1", "toolu_1", "print('a')"),  # 4
            tool_result("r2", "a2", "toolu_2", "print('b')"),  # 5
            assistant("a3", "r2", "Both files print."),  # 6
        ],
    )
    assert [u for _, u, _ in rows(c)] == ["u1", "a1", "a2", "r1", "r2", "a3"]
    assert codes(c) == []


def test_a_subagent_transcript_is_a_session_of_its_own_linked_to_its_parent(
    tmp_path: Path,
) -> None:
    folder = tmp_path / SESSION / "subagents"
    folder.mkdir(parents=True)
    records = [
        user("x1", None, "Find every caller of tax_rate().", isSidechain=True, agentId="a81f"),
        assistant("x2", "x1", "Three callers.", isSidechain=True, agentId="a81f"),
    ]
    c = open_session(folder, records, "agent-a81f.jsonl")
    assert rows(c) == [("h0", "x1", 1), ("h1", "x2", 2)]
    facts = c.checkpoint.session
    assert facts is not None and (facts.parent_session, facts.agent_id) == (SESSION, "a81f")


def test_a_subagents_records_inside_the_parent_file_stand_apart(tmp_path: Path) -> None:
    c = open_session(
        tmp_path,
        [
            user("u1", None, "Audit the tax code."),
            user("x1", "u1", "Find every caller.", isSidechain=True, agentId="a81f"),
            assistant("x2", "x1", "Three callers.", isSidechain=True, agentId="a81f"),
            assistant("a1", "u1", "The subagent found three callers."),
        ],
    )
    assert rows(c) == [("h0", "u1", 1), ("h1", "a1", 4)]
    assert [s.kind for s in c.spans] == ["sidechain"]
    assert codes(c) == ["sidechain-records"]
    assert c.checkpoint.session is not None and c.checkpoint.session.parent_session is None


def test_a_microcompaction_names_the_results_it_cleared(tmp_path: Path) -> None:
    c = open_session(
        tmp_path,
        [
            user("u1", None, "Look at the logs."),  # 1
            tool_use("a1", "u1", "toolu_9", "Bash", {"command": "tail app.log"}, "msg_9"),  # 2
            tool_result("r1", "a1", "toolu_9", "x" * 200),  # 3
            microcompact("m1", "r1", ["toolu_9", "toolu_gone"]),  # 4
            assistant("a2", "m1", "The log is noisy."),  # 5
        ],
    )
    assert rows(c) == [("h0", "u1", 1), ("h1", "a1", 2), ("h2", "r1", 3), ("h3", "a2", 5)]
    (micro,) = c.checkpoint.microcompactions
    assert (micro.line, micro.trigger, micro.tokens_saved) == (4, "auto", 12000)
    assert micro.cleared == ((None, 2),) and micro.missing == ("toolu_gone",)
    assert c.overview()["microcompactions"][0]["cleared"] == ["h2"]


def test_content_blocks_of_another_shape_are_read_and_answers_found_in_any_record(
    tmp_path: Path,
) -> None:
    odd = user("u2", "r1", "x")
    odd["message"]["content"] = ["a bare string block", 7]  # not the blocks the runtime writes
    c = open_session(
        tmp_path,
        [
            user("u1", None, "Look at the logs."),  # 1
            tool_use("a1", "u1", "toolu_9", "Bash", {"command": "tail app.log"}, "msg_9"),  # 2
            tool_result("r1", "a1", "toolu_9", "x" * 200),  # 3
            odd,  # 4
            microcompact("m1", "u2", ["toolu_9"]),  # 5
        ],
    )
    assert rows(c) == [("h0", "u1", 1), ("h1", "a1", 2), ("h2", "r1", 3), ("h3", "u2", 4)]
    assert codes(c) == []  # the odd record is a message like any other, no schema finding
    (micro,) = c.checkpoint.microcompactions
    assert micro.cleared == ((None, 2),) and micro.missing == ()


def test_a_summary_without_its_boundary_is_an_ordinary_message(tmp_path: Path) -> None:
    stray = summary("s9", "u1", "a summary whose boundary is not there")
    c = open_session(tmp_path, [user("u1", None, "q"), stray, user("u2", "s9", "q2")])
    assert rows(c, keep_frames=True) == [("h0", "u1", 1), ("h1", "s9", 2), ("h2", "u2", 3)]
    (finding,) = c.audit()
    assert finding.code == "summary-without-boundary" and finding.locator == "h1"


def test_a_boundary_without_its_summary_is_an_orphan_fold(tmp_path: Path) -> None:
    c = open_session(
        tmp_path,
        [user("u1", None, "q1"), boundary("b1", "u1"), user("u2", "b1", "q2")],
    )
    assert rows(c) == [("h0", "u2", 3)]
    assert c.places[0].placement == "orphan"
    assert rows(c, include_detached=True) == [("h0", "u2", 3), ("f0:0", "u1", 1)]
    assert codes(c) == ["orphan-span"]


def test_a_boundary_whose_chain_names_no_record_has_its_originals_missing(
    tmp_path: Path,
) -> None:
    c = open_session(
        tmp_path,
        [
            boundary("b1", "gone"),
            summary("s1", "b1", "summary of what is gone"),
            user("u1", "s1", "q"),
        ],
    )
    (span,) = c.spans
    assert span.messages is None and span.retained == "discard"
    found = c.audit()
    assert [f.code for f in found] == ["originals-missing"]
    assert found[0].path == "line 1"
    assert rows(c, keep_frames=True)[0] == ("h0", "s1", 2)  # the frame stays, unexpanded


def test_a_broken_chain_stops_the_walk_and_says_where(tmp_path: Path) -> None:
    c = open_session(tmp_path, [user("u1", "missing-parent", "q"), assistant("a1", "u1", "a")])
    assert rows(c) == [("h0", "u1", 1), ("h1", "a1", 2)]
    (finding,) = c.audit()
    assert finding.code == "broken-chain" and finding.locator == "h0" and finding.path == "line 1"


@pytest.mark.parametrize(
    "records",
    [
        [user("u1", "u2", "q1"), user("u2", "u1", "q2")],  # a loop
        [user("u1", "u1", "q1")],  # its own parent
    ],
    ids=["loop", "own-parent"],
)
def test_a_cycle_of_parent_uuids_is_a_finding_not_a_hang(
    tmp_path: Path, records: list[dict[str, Any]]
) -> None:
    c = open_session(tmp_path, records)
    assert len(list(c.walk())) == len(records)
    assert "chain-cycle" in codes(c)


def test_a_line_that_is_not_json_is_named_and_the_rest_is_read(tmp_path: Path) -> None:
    c = open_session(
        tmp_path,
        [user("u1", None, "q1"), b'{"type":"user","uuid":"u2"', assistant("a1", "u1", "a1")],
    )
    assert rows(c) == [("h0", "u1", 1), ("h1", "a1", 3)]
    assert c.checkpoint.partial
    (finding,) = c.audit()
    assert (finding.code, finding.severity, finding.path) == ("bad-line", "error", "line 2")
    assert c.overview()["partial"] is True


def test_a_chain_of_100000_records_walks_without_recursion(tmp_path: Path) -> None:
    records = [user("u0", None, "q0")] + [
        user(f"u{i}", f"u{i - 1}", "q") for i in range(1, 100_000)
    ]
    c = open_session(tmp_path, records)
    assert len(c.history) == 100_000
    assert sum(1 for _ in c.walk()) == 100_000


def test_a_gzipped_session_is_read_the_same(tmp_path: Path) -> None:
    import gzip

    path = Path(
        write_jsonl(tmp_path / "s.jsonl", [user("u1", None, "q"), assistant("a1", "u1", "a")])
    )
    zipped = tmp_path / "s.jsonl.gz"
    zipped.write_bytes(gzip.compress(path.read_bytes()))
    assert rows(foldctl.open(zipped)) == rows(foldctl.open(path))


def test_every_json_row_is_the_record_verbatim_plus_foldctls_keys(tmp_path: Path) -> None:
    import orjson

    from foldctl.digest import digest
    from foldctl.graph.open import open_graph
    from foldctl.query.transcript import transcript

    records = [user("u1", None, "q"), assistant("a1", "u1", "a")]
    path = write_jsonl(tmp_path / "s.jsonl", records)
    graph, _ = open_graph(path)
    out = list(transcript(graph).records())
    for record, obj in zip(records, out, strict=True):
        stored = orjson.loads(orjson.dumps(record))
        assert {k: v for k, v in obj.items() if k in stored} == stored
        assert obj["digest"] == digest(stored) and obj["uuid"] == record["uuid"]
    assert [o["line"] for o in out] == [1, 2]


def test_a_record_that_cannot_be_decoded_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    good = write_jsonl(tmp_path / "g.jsonl", [user("u1", None, "q")])
    wide = Path(good).read_bytes().replace(b'"q"', b'"q","n":123456789012345678901234567890')
    path.write_bytes(wide)
    c = foldctl.open(path)
    with pytest.raises(InputError) as caught:
        list(c.walk())
    assert caught.value.where.startswith("line 1") and "64 bits" in caught.value.what
