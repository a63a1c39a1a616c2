"""The sample generator: determinism, the bundled samples, and every frame joining its span."""

from __future__ import annotations

import gzip
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foldctl import jsoncodec
from foldctl.fingerprint import SCHEMES
from foldctl.formats.source import load_bytes
from foldctl.graph.resolve import FoldGraph, resolve
from foldctl.model import Checkpoint
from tools import generate as gen
from tools.generate import GenSpec, RunSpec

SAMPLES = Path(__file__).resolve().parents[2] / "sample_checkpoints"

# Written out here from the reference runtime's frame, independently of foldctl.generate.
REFERENCE_FRAME = re.compile(
    r"\[compacted history — (\d+) earlier message\(s\) were folded out of this window at "
    r"iteration (\d+)\. The text after this line is a SUMMARY written by (.+?); it is a claim "
    r"about the conversation, not the conversation\. (The folded messages are retained verbatim "
    r"with this conversation and can be produced on request\.|The folded messages were not "
    r"retained beyond the run that folded them; only this summary carries them forward\.)\]"
    r"\n\n(.*)",
    re.DOTALL,
)
SENTENCE_RETAINED = {
    "The folded messages are retained verbatim with this conversation and can be produced "
    "on request.": "conversation",
    "The folded messages were not retained beyond the run that folded them; only this "
    "summary carries them forward.": "discard",
}
TOP_KEYS = [
    "version",
    "runId",
    "history",
    "lastCompletedIteration",
    "originalInput",
    "checkpointedAt",
]
SPAN_KEYS = [
    "summaryFingerprint",
    "runId",
    "iteration",
    "foldedAtMs",
    "model",
    "messageCount",
    "removedStageIds",
    "retained",
]
STAGE_ID = re.compile(r"(seed#0|tool-calls#\d+|compact#\d+)")


def _load(cp: dict[str, Any], name: str = "generated") -> Checkpoint:
    return load_bytes(gen.to_bytes(cp), name)


def _graph(cp: dict[str, Any], scheme: str = "fnv1a32") -> FoldGraph:
    return resolve(_load(cp), scheme)


def _conversation(doc: dict[str, Any]) -> dict[str, Any]:
    if doc.get("format") == "conversation-v1":
        return doc["data"]  # type: ignore[no-any-return]
    if doc.get("format") == "flowchart-v1":
        return doc["data"]["conversation"]  # type: ignore[no-any-return]
    return doc


def _check_shape(cp: dict[str, Any]) -> None:
    """Key order, retention shape and counts as the reference runtime writes them."""
    keys = list(cp)
    assert keys[:6] == TOP_KEYS
    rest = [k for k in keys[6:] if k in ("folded", "identity", "agent")]
    assert rest == keys[6:]
    assert rest == sorted(rest, key=["folded", "identity", "agent"].index)
    if "folded" in cp:
        assert cp["folded"], "`folded` is absent, never [], when nothing folded"
    last = 0
    for span in cp.get("folded", ()):
        expected = SPAN_KEYS + (["messages"] if span["retained"] == "conversation" else [])
        assert list(span) == expected
        if span["retained"] == "conversation":
            assert len(span["messages"]) == span["messageCount"]
        assert span["removedStageIds"]
        assert all(STAGE_ID.fullmatch(s) for s in span["removedStageIds"])
        assert len(set(span["removedStageIds"])) == len(span["removedStageIds"])
        assert span["foldedAtMs"] >= last
        last = span["foldedAtMs"]
        assert re.fullmatch(r"[0-9a-f]+", span["summaryFingerprint"])
    assert last <= cp["checkpointedAt"]
    messages = list(cp["history"])
    for span in cp.get("folded", ()):
        messages += span.get("messages", [])
    for m in messages:
        assert list(m)[:2] == ["role", "content"]
        if m["role"] == "tool":
            assert list(m) == ["role", "content", "toolCallId", "toolName"]
        if "toolCalls" in m:
            assert list(m) == ["role", "content", "toolCalls"]
            assert all(list(c) == ["id", "name", "args"] for c in m["toolCalls"])


def _check_frames(cp: dict[str, Any], graph: FoldGraph) -> int:
    """Every joined frame has the reference text and agrees with its span. Returns the count."""
    joined = 0
    for ref in graph.frames.values():
        if ref.span is None:
            continue
        joined += 1
        message = graph.container_messages(ref.container)[ref.index]
        match = REFERENCE_FRAME.fullmatch(message["content"])
        assert match, message["content"][:200]
        span = cp["folded"][ref.span]
        assert int(match.group(1)) == span["messageCount"]
        assert int(match.group(2)) == span["iteration"]
        assert match.group(3) == span["model"]
        assert SENTENCE_RETAINED[match.group(4)] == span["retained"]
        assert SCHEMES[graph.scheme](message["content"]) == span["summaryFingerprint"]
    return joined


# --------------------------------------------------------------------------- determinism


def test_generator_is_deterministic() -> None:
    spec = GenSpec(seed=7, mix=gen.MIXES, lone_surrogate=True, runs=(RunSpec(), RunSpec(2)))
    assert gen.to_bytes(gen.generate(spec)) == gen.to_bytes(gen.generate(spec))
    assert gen.to_bytes(gen.generate(spec)) != gen.to_bytes(gen.generate(replace(spec, seed=8)))
    assert gen.sample_files() == gen.sample_files()


def test_frame_text_is_the_reference_frame() -> None:
    text = gen.frame_text(3, 8, "mock-cheap", "conversation", "Summary 6: ok.")
    match = REFERENCE_FRAME.fullmatch(text)
    assert match is not None
    assert match.groups()[:3] == ("3", "8", "mock-cheap")
    assert match.group(5) == "Summary 6: ok."
    assert gen.FRAME_RE.fullmatch(text) is not None
    discard = gen.frame_text(1, 2, "m", "discard", "")
    assert "were not retained beyond the run" in discard
    assert "\u2014" in text


# --------------------------------------------------------------------------- samples


def test_samples_match_the_generator() -> None:
    """The bundled files are exactly what the generator writes now (no drift)."""
    expected = gen.sample_files()
    # The SQLite store is built from these samples by tools/make_store.py (tested with stores).
    on_disk = {p.name for p in SAMPLES.iterdir() if p.is_file() and p.suffix != ".db"}
    assert on_disk == set(expected), "run `make samples`"
    for name, data in expected.items():
        stored = (SAMPLES / name).read_bytes()
        if name.endswith(".gz"):
            # compressed bytes depend on the zlib build; what they hold must not
            assert stored[:2] == b"\x1f\x8b"
            assert stored[4:8] == b"\x00\x00\x00\x00", "gzip mtime must be 0"
            assert gzip.decompress(stored) == gzip.decompress(data)
        else:
            assert stored == data, f"{name} drifted from the generator; run `make samples`"


def test_nested_chain_gz_holds_nested_chain() -> None:
    files = gen.sample_files()
    assert gzip.decompress(files["nested_chain.json.gz"]) == files["nested_chain.json"]


def _sample_docs() -> dict[str, dict[str, Any]]:
    return gen.sample_checkpoints()


@pytest.mark.parametrize("name", sorted(n for n in gen.SAMPLE_DESCRIPTIONS if n.endswith(".json")))
def test_every_sample_resolves_as_designed(name: str) -> None:
    doc = _sample_docs()[name]
    cp = _conversation(doc)
    _check_shape(cp)
    loaded = load_bytes(gen.to_bytes(doc), name)
    scheme = gen.SAMPLE_SCHEMES.get(name, "fnv1a32")
    graph = resolve(loaded, scheme)
    wanted = gen.SAMPLE_PLACEMENTS.get(name, ("placed",) * len(loaded.spans))
    assert tuple(p.placement for p in graph.places) == wanted
    assert not graph.cycles
    assert not graph.ambiguous()
    joined = _check_frames(cp, graph)
    assert wanted.count("placed") <= joined <= len(wanted)
    assert len(loaded.spans) >= 1


def test_sample_shapes() -> None:
    docs = _sample_docs()
    assert load_bytes(gen.to_bytes(docs["envelope_conversation.json"]), "e").shape == (
        "conversation-v1"
    )
    paused_doc = docs["envelope_paused.json"]
    assert load_bytes(gen.to_bytes(paused_doc), "p").shape == "flowchart-v1"
    assert list(paused_doc) == ["format", "data", "savedAt"]
    assert list(paused_doc["data"]) == ["checkpoint", "conversation", "pending"]
    last = paused_doc["data"]["conversation"]["history"][-1]
    pending = paused_doc["data"]["pending"]
    assert pending["pauseData"]["toolCallId"] == last["toolCalls"][-1]["id"]
    assert pending["tool"] == "issue_refund"
    conversation = docs["envelope_conversation.json"]["data"]
    assert list(conversation)[-3:] == ["folded", "identity", "agent"]
    assert len({s["runId"] for s in conversation["folded"]}) == 2


def test_nested_chain_sample_is_a_deep_chain_with_tool_calls() -> None:
    cp = _sample_docs()["nested_chain.json"]
    graph = _graph(cp)
    assert max(p.depth for p in graph.places) >= 4
    assert all(s["removedStageIds"][0].startswith("compact#") for s in cp["folded"][1:])
    tools = [m for s in cp["folded"] for m in s["messages"] if m["role"] == "tool"]
    assert len(tools) >= 4
    assert "ACCT-8842" in gen.to_bytes(cp).decode()
    # the summary claims an approval that the folded tool result does not show
    assert "pending_approval" in jsoncodec.dumps(cp["folded"]).decode()


def test_multi_run_sample_mixes_runs_and_policies() -> None:
    cp = _sample_docs()["multi_run.json"]
    assert len({s["runId"] for s in cp["folded"]} | {cp["runId"]}) >= 3
    assert {s["retained"] for s in cp["folded"]} == {"conversation", "discard"}
    assert any(s["removedStageIds"] == ["seed#0"] for s in cp["folded"])


def test_unicode_sample_has_what_it_promises() -> None:
    files = gen.sample_files()
    raw = files["unicode.json"]
    assert b"\\ud83d" in raw  # the lone high surrogate, escaped as JSON.stringify writes it
    text = raw.decode("utf-8")
    for needle in ("\u200d", "\U0001f1eb\U0001f1f7", "Élodie", "会议纪要", "\\u0000", "\u2028"):
        assert needle in text
    cp = _sample_docs()["unicode.json"]
    assert any(len(s["summaryFingerprint"]) < 8 for s in cp["folded"])
    assert not cp["folded"][0]["model"].isascii()


def test_hostile_sample_carries_hostile_text_live_and_folded() -> None:
    cp = _sample_docs()["hostile_content.json"]
    live = jsoncodec.dumps(cp["history"]).decode()
    folded = jsoncodec.dumps([m for s in cp["folded"] for m in s["messages"]]).decode()
    for text in (live, folded):
        for needle in (
            "[bold red]x[/]",
            "\\u001b]0;pwned\\u0007",
            "\\u001b[2J",
            "\x9b",
            "\u202e",
            "\\u0000",
            "<script>alert(1)</script>",
            "[link=",
            ":thumbs_up:",
        ):
            assert needle in text, needle


def test_forged_frames_join_nothing() -> None:
    cp = _sample_docs()["forged_frame.json"]
    graph = _graph(cp)
    history_frames = [ref for (container, _), ref in graph.frames.items() if container is None]
    unresolved = [ref for ref in history_frames if ref.span is None]
    assert len(unresolved) == 2
    assert len([ref for ref in history_frames if ref.span is not None]) == 1
    forged = cp["history"][unresolved[0].index]["content"]
    real = cp["history"][next(r.index for r in history_frames if r.span is not None)]["content"]
    assert forged.split("\n\n")[0] == real.split("\n\n")[0]  # the same label...
    assert forged != real  # ...with another summary
    assert cp["originalInput"]["message"] == forged
    assert gen.with_forged_frame(seed=3) == gen.with_forged_frame(seed=3)


# --------------------------------------------------------------------------- schemes


@pytest.mark.parametrize("scheme", sorted(SCHEMES))
def test_every_scheme_resolves_with_itself(scheme: str) -> None:
    spec = GenSpec(
        seed=5,
        scheme=scheme,
        mix=gen.MIXES,
        lone_surrogate=True,
        runs=(RunSpec(tool_rounds=5), RunSpec(tool_rounds=2, fold_at=(2,))),
    )
    cp = gen.generate(spec)
    graph = _graph(cp, scheme)
    assert len(graph.places) >= 4
    assert all(p.placement == "placed" for p in graph.places)
    assert _check_frames(cp, graph) == len(graph.places)
    other = "xxh64" if scheme == "fnv1a32" else "fnv1a32"
    assert all(p.placement != "placed" for p in _graph(cp, other).places)


# --------------------------------------------------------------------------- special cases


def test_nested_chain_of_ten_thousand() -> None:
    cp = gen.nested_chain(10_000)
    assert len(cp["folded"]) == 10_000
    graph = _graph(cp)
    assert all(p.placement == "placed" for p in graph.places)
    assert max(p.depth for p in graph.places) == 10_000
    assert graph.places[-1].depth == 1 and graph.places[0].depth == 10_000


def test_detached_span_in_run() -> None:
    built = gen.build(gen._detached_spec(21, "fnv1a32", cross_run=False))
    assert built.placements == ("detached", "detached", "placed")
    assert built.checkpoint == gen.with_detached_span(seed=21)
    graph = _graph(built.checkpoint)
    assert tuple(p.placement for p in graph.places) == built.placements
    retained = [s for s in built.checkpoint["folded"][:2] if s["retained"] == "conversation"]
    assert len(retained) == 2


def test_detached_span_across_runs() -> None:
    """The next run's discard fold of its seed swallows the frame; its stage ids say seed#0."""
    built = gen.build(gen._detached_spec(4, "fnv1a32", cross_run=True))
    assert built.placements == ("detached", "detached", "placed")
    assert built.checkpoint["folded"][-1]["removedStageIds"] == ["seed#0"]
    assert built.checkpoint["folded"][-1]["retained"] == "discard"
    graph = _graph(built.checkpoint)
    assert graph.places[-1].placement == "placed"
    # A later run's discard of its carried-over messages (seed#0) took the frame.
    assert tuple(p.placement for p in graph.places) == built.placements


def test_cycle_is_tampered_and_detectable() -> None:
    cp = gen.with_cycle()
    graph = _graph(cp)
    assert graph.cycles
    last = len(cp["folded"]) - 1
    assert graph.places[last].placement == "placed"
    loose = gen.with_cycle(frame_in_history=False)
    loose_graph = _graph(loose)
    assert loose_graph.cycles
    assert all(p.placement == "orphan" for p in loose_graph.places)


def test_paused_envelope_needs_a_pending_call() -> None:
    cp = gen.generate(GenSpec(runs=(RunSpec(tool_rounds=2, fold_from=0),)))
    with pytest.raises(ValueError):
        gen.wrap_paused_envelope(cp, 1)
    paused = gen.generate(GenSpec(story="support", runs=(RunSpec(tool_rounds=2, paused=True),)))
    envelope = gen.wrap_paused_envelope(paused, paused["checkpointedAt"])
    assert load_bytes(gen.to_bytes(envelope), "p").shape == "flowchart-v1"
    assert paused["lastCompletedIteration"] == 2


def test_unknown_story_or_scheme_is_refused() -> None:
    with pytest.raises(ValueError):
        gen.generate(GenSpec(story="nope"))
    with pytest.raises(ValueError):
        gen.generate(GenSpec(scheme="md5"))


# --------------------------------------------------------------------------- big files


def test_sized_checkpoint_streams_and_resolves(tmp_path: Path) -> None:
    target = 3_000_000
    path = tmp_path / "big.json"
    written = gen.write_sized(path, target, seed=5)
    data = path.read_bytes()
    assert written == len(data)
    assert target * 0.9 <= len(data) <= target * 1.25
    assert b"".join(gen.generate_sized(target, seed=5)) == data
    loaded = load_bytes(data, "big")
    graph = resolve(loaded)
    assert len(loaded.spans) >= 20
    assert all(p.placement == "placed" for p in graph.places)
    assert max(p.depth for p in graph.places) == len(loaded.spans)  # one unbroken chain
    assert len({s.run_id for s in loaded.spans}) >= 3
    text = data.decode("utf-8")
    assert any(ord(c) > 0x10000 for c in text[:200_000])  # astral emoji
    assert any(0x4E00 <= ord(c) <= 0x9FFF for c in text[:200_000])  # CJK


def test_tiny_sized_checkpoint_is_still_valid() -> None:
    data = b"".join(gen.generate_sized(1_000, seed=1))
    loaded = load_bytes(data, "tiny")
    assert all(p.placement == "placed" for p in resolve(loaded).places)


# --------------------------------------------------------------------------- property


@st.composite
def gen_specs(draw: st.DrawFn) -> GenSpec:
    runs = draw(
        st.lists(
            st.builds(
                RunSpec,
                tool_rounds=st.integers(0, 7),
                retained=st.sampled_from(["conversation", "discard"]),
                fold_from=st.integers(0, 5),
                fold_every=st.integers(1, 3),
                max_folds=st.none() | st.integers(1, 3),
                keep_recent_turns=st.integers(1, 3),
                discard_from_iteration=st.sampled_from([0, 0, 0, 3, 5]),
                model=st.sampled_from(["mock-cheap", "summarizer-mini", "mini-résumé-摘要"]),
            ),
            min_size=1,
            max_size=4,
        )
    )
    if draw(st.booleans()) and runs[-1].tool_rounds > 0:
        runs[-1] = replace(runs[-1], paused=True)
    low = draw(st.integers(200, 900))
    return GenSpec(
        seed=draw(st.integers(0, 2**32)),
        runs=tuple(runs),
        story=draw(st.sampled_from(sorted(gen.STORIES))),
        scheme=draw(st.sampled_from(sorted(SCHEMES))),
        mix=tuple(draw(st.lists(st.sampled_from(gen.MIXES), min_size=1, max_size=4, unique=True))),
        size_range=(low, low + draw(st.integers(0, 2000))),
        lone_surrogate=draw(st.booleans()),
        short_fingerprint=draw(st.booleans()),
    )


def _discard_owner(built: gen.Generated, span: int) -> int:
    home = built.frame_home[span]
    while home is not None and built.checkpoint["folded"][home]["retained"] != "discard":
        home = built.frame_home[home]
    assert home is not None
    return home


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(gen_specs())
def test_random_specs_place_every_span_as_designed(spec: GenSpec) -> None:
    built = gen.build(spec)
    cp = built.checkpoint
    _check_shape(cp)
    graph = _graph(cp, spec.scheme)
    assert len(graph.places) == len(built.placements) == len(cp.get("folded", ()))
    for i, (truth, place) in enumerate(zip(built.placements, graph.places, strict=True)):
        if truth == "placed":
            assert place.placement == "placed", (i, place)
        else:
            assert truth == "detached"
            assert place.placement in ("detached", "orphan"), (i, place)
            owner = cp["folded"][_discard_owner(built, i)]
            if any(s.startswith("compact#") for s in owner["removedStageIds"]):
                assert place.placement == "detached", (i, place)
    visible = [
        home is None or cp["folded"][home]["retained"] == "conversation"
        for home in built.frame_home
    ]
    assert _check_frames(cp, graph) == visible.count(True)
    assert not graph.cycles
    assert not graph.ambiguous()
    runs = Counter(s["runId"] for s in cp.get("folded", ()))
    assert len(runs) <= len(spec.runs)
