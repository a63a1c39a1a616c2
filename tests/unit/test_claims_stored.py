"""The evidence index read from stored JSON is the index of the decoded message.

``claims`` indexes a retained message from its JSON bytes as the loader kept them
(:func:`foldctl.claims.stored.index_stored`), and decodes it only when those bytes
cannot tell (an escape ``\\u``, an unknown field, the runtime's error flag, a tool
result that may report an error).  Whatever path a message takes, what the index files
must be what indexing its decoded text files: these tests hold the two side by side on
the corpus, on the samples and on generated messages.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldctl.claims import failures as F
from foldctl.claims.index import MessageAtoms, index_message, wanted_tokens
from foldctl.claims.record import _evidence_of, check_graph, summary_texts
from foldctl.claims.stored import index_stored
from foldctl.formats.source import load_bytes
from foldctl.graph.resolve import resolve
from foldctl.graph.walk import Row, walk
from foldctl.load.fast import RawMessages
from tools.claims_corpus import build_corpus, case_checkpoint
from tools.claims_corpus.written import cases as written_cases
from tools.claims_corpus.written import load_families as written_families
from tools.claims_heldout import case_checkpoint as written_checkpoint

SAMPLES = Path(__file__).resolve().parents[2] / "sample_checkpoints"


def _decoded(message: dict[str, Any], wanted: frozenset[bytes] | None) -> MessageAtoms:
    text, role, tool, calls, error = _evidence_of(message)
    return index_message(
        text, role=role, tool_name=tool, call_names=calls, is_error=error, wanted=wanted,
        keep_text=False,
    )  # fmt: skip


def _stored_messages(data: bytes, source: str) -> list[tuple[bytes, dict[str, Any]]]:
    checkpoint = load_bytes(data, source)
    found = []
    for span in checkpoint.spans:
        if isinstance(span.messages, RawMessages):
            for i in range(len(span.messages)):
                found.append((span.messages.raw_json(i), span.messages[i]))
    return found


def _checkpoints() -> list[tuple[str, bytes]]:
    corpus = [(case.id, orjson.dumps(case_checkpoint(case))) for case in build_corpus(range(2))]
    written = [
        (case["id"], orjson.dumps(written_checkpoint(case)))
        for _, case in written_cases(written_families())
    ]
    samples = [(p.name, p.read_bytes()) for p in sorted(SAMPLES.glob("*.json"))]
    return corpus + written + samples


def test_the_stored_index_is_the_decoded_index_on_the_corpus_and_samples() -> None:
    read = decoded = 0
    for source, data in _checkpoints():
        graph = resolve(load_bytes(data, source))
        wanted = wanted_tokens(summary_texts(graph))
        for raw, message in _stored_messages(data, source):
            for keys in (wanted, None):
                found = index_stored(raw, wanted=keys)
                if found is None:
                    decoded += 1
                    continue
                read += 1
                assert found == _decoded(message, keys), (source, raw[:200])
    assert read > 20 * decoded  # the stored path is the common one, not the exception


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        (b'{"role":"tool","content":"caf\\u00e9 480"}', "an escape \\u"),
        (b'{"role":"tool","content":"ok \xff\xfe"}', "bytes that are not UTF-8"),
        (b'{"role":"tool","content":"ok","isError":true}', "the runtime's error flag"),
        (b'{"role":"tool","content":"ok","meta":{"n":1}}', "a field the runtime does not write"),
        (b'{"role":"tool","content":42}', "content that is not a string"),
        (
            b'{"role":"tool","content":"x","toolCalls":[{"name":"a","args":{}}]}',
            "a tool result that calls tools",
        ),
        (
            b'{"role":"assistant","content":"","toolCalls":[{"name":"a","args":'
            b'{"n":12345678901234567890123}}]}',
            "an integer too wide for 64 bits (decoding refuses it)",
        ),
        (
            b'{"role":"assistant","content":"","toolCalls":[{"name":"a","args":{"x":1e400}}]}',
            "a number too large for a double (decoding refuses it)",
        ),
        (
            b'{"role":"assistant","content":"","toolCalls":[{"name":"a","args":'
            + b"[" * 100_000
            + b"]" * 100_000
            + b"}]}",
            "arguments nested deeper than the decoder goes",
        ),
    ],
)
def test_what_only_decoding_can_tell_is_decoded(raw: bytes, why: str) -> None:
    assert index_stored(raw) is None, why


def test_the_loader_says_when_no_message_holds_an_escape() -> None:
    data = (SAMPLES / "tool_calls.json").read_bytes()
    assert b"\\u" not in data
    spans = [s.messages for s in load_bytes(data, "tool_calls.json").spans]
    assert any(isinstance(m, RawMessages) and m.escape_free for m in spans)
    escaped = data.replace(b'"role":"tool","content":"', b'"role":"tool","content":"\\u0041', 1)
    assert escaped != data
    spans = [s.messages for s in load_bytes(escaped, "escaped.json").spans]
    assert not any(isinstance(m, RawMessages) and m.escape_free for m in spans)


def test_a_float_in_tool_arguments_is_filed_as_the_evidence_text_spells_it() -> None:
    raw = b'{"role":"assistant","content":"","toolCalls":[{"name":"pay","args":{"amount":480.00}}]}'
    found = index_stored(raw)
    assert found is not None
    assert b"480.0" in found.runs and b"480.00" not in found.runs  # as orjson writes it again
    assert found == _decoded(orjson.loads(raw), None)


def test_findings_are_the_same_whether_messages_are_read_stored_or_decoded() -> None:
    written = {case["id"] for _, case in written_cases(written_families())}
    checkpoints = [(source, data) for source, data in _checkpoints() if "-0-" in source or
                   source in written or source.endswith(".json")]  # fmt: skip
    graphs = [resolve(load_bytes(d, s)) for s, d in checkpoints]
    stored = [list(check_graph(graph)) for graph in graphs]
    decoded = [list(check_graph(graph, stored=False)) for graph in graphs]
    assert stored == decoded
    assert sum(map(len, stored)) > 20  # findings of every kind among them, not all empty
    assert {f.kind for fs in stored for f in fs} >= {"unsupported", "contradicted", "dropped"}


def test_walking_without_bodies_gives_the_same_events_and_empty_rows() -> None:
    graph = resolve(load_bytes((SAMPLES / "nested_chain.json").read_bytes(), "nested_chain"))
    full = list(walk(graph, keep_frames=True, replays="ref"))
    bare = list(walk(graph, keep_frames=True, replays="ref", bodies=False))
    assert len(full) == len(bare) > 10
    for a, b in zip(full, bare, strict=True):
        if isinstance(a, Row) and isinstance(b, Row):
            assert (a.locator, a.depth, a.frame) == (b.locator, b.depth, b.frame)
            assert b.message == (a.message if a.frame is not None else {})
        else:
            assert type(a) is type(b)


def test_a_claims_run_reads_most_messages_without_decoding_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = (SAMPLES / "tool_calls.json").read_bytes()
    graph = resolve(load_bytes(data, "tool_calls.json"))
    decoded: list[int] = []
    original = RawMessages._at

    def counting(self: RawMessages, index: int) -> Any:
        decoded.append(index)
        return original(self, index)

    monkeypatch.setattr(RawMessages, "_at", counting)
    findings = list(check_graph(graph))
    stored = sum(len(s.messages) for s in graph.spans if isinstance(s.messages, RawMessages))
    assert stored > 10
    # frames, and the messages a lookup reads or a finding cites; not every message
    assert len(decoded) < stored, (len(decoded), stored, findings)


# --------------------------------------------------------------------------- generated

_PHRASES = st.sampled_from(
    [
        "Error: disk full", "error: 0", "ERR quota", "fatal: no repo", "Traceback (most recent"
        " call last):", "status: FAILED", "Status = ok", "\nstatus: failed", "\nRESULT: error",
        "exit code 3", "exited with status 2", "EXIT CODE: 0", "3 failed, 12 passed",
        "No errors", " 2 errors", "timed out", "HTTP 503", "http\t404", "permission denied",
        "Request timed out", "state:\tdenied", '{"error": "boom"}', '{"ok": false}',
        '[{"status": "failed"}]', "  Error: leading space", "\tFAILED", "ValueError: x",
        "RF-9120", "$480.00", "1,204", "v2.14.0", "2026-04-02", "1e5", "0.5", "€642,10",
        "caf\u00e9", "\u4e2d\u6587", "\U0001f600", '"quoted"', "back\\slash", "\u00b2",
    ]
)  # fmt: skip
_TEXT = st.lists(
    st.one_of(_PHRASES, st.text(alphabet='abc XYZ019.,:-\n\t"\\/%$é€', max_size=30)),
    max_size=8,
).map("".join)
_ARGS = st.dictionaries(
    st.sampled_from(["amount", "id", "q", "n", "status", "items"]),
    st.one_of(
        st.integers(-(10**12), 10**12),
        st.floats(allow_nan=False, allow_infinity=False),
        _TEXT,
        st.lists(st.integers(0, 999), max_size=3),
    ),
    max_size=4,
)
_CALLS = st.lists(
    st.fixed_dictionaries({"id": st.just("call_1"), "name": st.sampled_from(["pay", "v2_api"]),
                           "args": _ARGS}),
    max_size=2,
)  # fmt: skip


@st.composite
def _messages(draw: st.DrawFn) -> dict[str, Any]:
    role = draw(st.sampled_from(["tool", "assistant", "user"]))
    message: dict[str, Any] = {"role": role, "content": draw(_TEXT)}
    if role == "assistant":
        calls = draw(_CALLS)
        if calls:
            message["toolCalls"] = calls
    if role == "tool":
        message["toolCallId"] = "call_1"
        message["toolName"] = draw(st.sampled_from(["issue_refund", "run_tests", "deploy"]))
        if draw(st.booleans()):
            message["isError"] = draw(st.booleans())
    return message


@settings(max_examples=400, deadline=None)
@given(_messages())
def test_generated_messages_index_the_same_either_way(message: dict[str, Any]) -> None:
    raw = orjson.dumps(message)
    found = index_stored(raw)
    if found is not None:
        assert found == _decoded(orjson.loads(raw), None)


@settings(max_examples=600, deadline=None)
@given(_TEXT)
def test_the_error_probe_never_misses_an_error(text: str) -> None:
    quoted = orjson.dumps(text)
    if b"\\u" in quoted:
        return  # such a message is decoded, never probed
    if F.error_line(text) is not None:
        assert F.may_report_error(quoted), text


@pytest.mark.parametrize(
    "text",
    [
        "<page https://example.org/1/2>\nQuarterly uptime was 99.95%; no incidents.",
        "1. https://example.org/a - result\n2. https://example.org/b",
        "No errors in the last 2000 lines; 3 warnings about deprecated flags.",
        "// file: notes/1-5.md\nThe request was retried and succeeded on the second attempt.",
    ],
)
def test_the_error_probe_lets_ordinary_results_through(text: str) -> None:
    assert F.error_line(text) is None
    assert not F.may_report_error(orjson.dumps(text))  # so they are not decoded
