"""Property: an untouched generated checkpoint has no finding but the detached spans its
own history explains, and one random corruption produces the finding that names it.

Conversations come from :mod:`foldctl.generate` (the runtime's compaction rules, with
ground truth about where every frame went): random folds, nesting across continued
runs, both retentions, and discard folds swallowing retained spans.  Discard folds are
kept to the first run, whose seed holds no summary, so every swallowed summary is named
by a ``compact#`` stage, which is how foldctl tells detached from orphan.
"""

from __future__ import annotations

import copy
from itertools import pairwise
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from foldctl.audit.checks import audit
from foldctl.audit.codes import Finding
from foldctl.fingerprint import fnv1a32
from foldctl.formats.source import load_bytes
from foldctl.graph.resolve import detect_scheme, resolve
from foldctl.model import is_frame
from tools import generate as gen
from tools.generate import GenSpec, RunSpec


@st.composite
def conversations(draw: st.DrawFn) -> gen.Generated:
    first = RunSpec(
        tool_rounds=draw(st.integers(2, 8)),
        retained=draw(st.sampled_from(["conversation", "discard"])),
        fold_from=draw(st.integers(2, 4)),
        fold_every=draw(st.integers(1, 2)),
        keep_recent_turns=draw(st.integers(1, 2)),
        discard_from_iteration=draw(st.sampled_from([0, 0, 3, 4, 5, 6])),
    )
    later = draw(
        st.lists(
            st.builds(
                RunSpec,
                tool_rounds=st.integers(1, 4),
                fold_from=st.integers(2, 3),
                keep_recent_turns=st.integers(1, 2),
            ),
            max_size=2,
        )
    )
    spec = GenSpec(
        seed=draw(st.integers(0, 2**20)),
        runs=(first, *later),
        story=draw(st.sampled_from(sorted(gen.STORIES))),
        mix=draw(st.sampled_from([("ascii",), ("latin1", "cjk"), ("emoji", "ascii")])),
        size_range=(40, 200),
        lone_surrogate=draw(st.booleans()),
    )
    return gen.build(spec)


def findings_of(doc: dict[str, Any]) -> list[Finding]:
    checkpoint = load_bytes(gen.to_bytes(doc), "generated.json")
    scheme, _ = detect_scheme(checkpoint)
    return audit(resolve(checkpoint, scheme))


def detached_roots(made: gen.Generated) -> set[int]:
    """Spans whose frame a discard fold swallowed (the others float inside them)."""
    spans = made.checkpoint.get("folded", [])
    return {
        i
        for i, home in enumerate(made.frame_home)
        if home is not None and spans[home]["retained"] == "discard"
    }


def frame_path(doc: dict[str, Any], fingerprint: str) -> str:
    """The JSON path of the frame whose fingerprint is ``fingerprint``."""
    containers = [("history", doc["history"])] + [
        (f"folded[{i}].messages", s["messages"])
        for i, s in enumerate(doc.get("folded", []))
        if "messages" in s
    ]
    for name, messages in containers:
        for n, message in enumerate(messages):
            if is_frame(message) and fnv1a32(message["content"]) == fingerprint:
                return f"{name}[{n}]"
    raise AssertionError(f"no frame with fingerprint {fingerprint}")


PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(conversations())
def test_an_untouched_conversation_has_only_its_detached_spans(made: gen.Generated) -> None:
    found = findings_of(made.checkpoint)
    assert sorted((f.code, f.span) for f in found) == sorted(
        ("detached-span", i) for i in detached_roots(made)
    )


CORRUPTIONS = ["flip-fingerprint", "drop-kept-message", "drop-live-frame", "change-count", "swap"]


@PROPERTY
@given(conversations(), st.sampled_from(CORRUPTIONS), st.data())
def test_one_corruption_produces_the_finding_that_names_it(
    made: gen.Generated, kind: str, data: st.DataObject
) -> None:
    doc = copy.deepcopy(made.checkpoint)
    spans: list[dict[str, Any]] = doc.get("folded", [])
    placed = [i for i, p in enumerate(made.placements) if p == "placed"]

    def pick(candidates: list[int]) -> int:
        assume(candidates)
        return data.draw(st.sampled_from(candidates))

    def named(codes: set[str], span: int | None = None, path: str | None = None) -> bool:
        return any(
            f.code in codes
            and (span is None or f.span == span)
            and (path is None or f.path == path)
            for f in findings_of(doc)
        )

    if kind == "flip-fingerprint":
        i = pick(placed)
        old = spans[i]["summaryFingerprint"]
        where = frame_path(doc, old)
        spans[i]["summaryFingerprint"] = fnv1a32("flipped " + old)
        assume(spans[i]["summaryFingerprint"] not in {s["summaryFingerprint"] for s in spans[:i]})
        assert named({"unresolved-frame"}, path=where)
        assert named({"orphan-span", "detached-span"}, span=i)
    elif kind == "drop-kept-message":
        i = pick([n for n, s in enumerate(spans) if s.get("messages")])
        messages = spans[i]["messages"]
        del messages[data.draw(st.integers(0, len(messages) - 1))]
        assert named({"count-mismatch"}, span=i)
    elif kind == "drop-live-frame":
        i = pick([n for n in placed if made.frame_home[n] is None])
        where = frame_path(doc, spans[i]["summaryFingerprint"])
        del doc["history"][int(where.removeprefix("history[").rstrip("]"))]
        assert named({"orphan-span", "detached-span"}, span=i)
    elif kind == "change-count":
        i = pick([n for n, s in enumerate(spans) if s["retained"] == "conversation" or n in placed])
        delta = data.draw(st.sampled_from([-1, 1, 2]))
        assume(spans[i]["messageCount"] + delta >= 0)
        spans[i]["messageCount"] += delta
        if spans[i]["retained"] == "conversation":
            assert named({"count-mismatch"}, span=i)
        else:  # a discard span keeps nothing to count: its frame's label says the count
            assert named({"frame-mismatch"}, span=i)
    else:
        assume(len(spans) >= 2)
        i = data.draw(st.integers(0, len(spans) - 2))
        j = data.draw(st.integers(i + 1, len(spans) - 1))
        times = [s["foldedAtMs"] for s in spans]
        assume(all(a < b for a, b in pairwise(times)))
        spans[i], spans[j] = spans[j], spans[i]
        assert named({"time-order"}, span=j)
