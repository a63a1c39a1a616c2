"""The fast loader and the exact loader read every checkpoint the same way."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from foldctl import jsoncodec
from foldctl.load.exact import load_document
from foldctl.load.fast import RawMessages, try_load
from foldctl.model import Checkpoint
from foldctl.sources.files import read_bytes
from tests.support import CONFORMANCE, SAMPLES

FILES = sorted(SAMPLES.glob("*.json")) + sorted(
    p for p in CONFORMANCE.glob("*.json") if not p.name.endswith(".expected.json")
)


def _same(fast: Checkpoint, exact: Checkpoint) -> None:
    assert fast.shape == exact.shape
    assert fast.history == exact.history
    assert fast.has_folded == exact.has_folded
    assert fast.original_input == exact.original_input
    assert (fast.run_id, fast.checkpointed_at) == (exact.run_id, exact.checkpointed_at)
    assert len(fast.spans) == len(exact.spans)
    for a, b in zip(fast.spans, exact.spans, strict=True):
        assert a.fingerprint == b.fingerprint and a.model == b.model
        assert a.removed_stage_ids == b.removed_stage_ids and a.retained == b.retained
        assert (a.messages is None) == (b.messages is None)
        if a.messages is not None and b.messages is not None:
            assert isinstance(a.messages, RawMessages)
            assert list(a.messages) == list(b.messages)
            assert list(a.messages.frame_indices) == [
                i
                for i, m in enumerate(b.messages)
                if m.get("role") == "user"
                and str(m.get("content")).startswith("[compacted history")
            ]
        assert list(a.stored()) == list(b.stored())
    assert list(fast.raw) == list(exact.raw)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_fast_and_exact_agree(path: Path) -> None:
    data = bytes(read_bytes(str(path)).data)
    exact = load_document(jsoncodec.loads(data, path.name), path.name)
    fast = try_load(data, path.name)
    lone_surrogate = b'\\ud83d"' in data or b"\\ud83d " in data
    if lone_surrogate and fast is None:
        return  # the fast decoder refuses a lone surrogate; the exact path reads it
    assert fast is not None, "the reference layout should take the fast path"
    _same(fast, exact)


def test_unknown_key_takes_the_exact_path() -> None:
    doc = {
        "version": 1,
        "runId": "r",
        "history": [],
        "lastCompletedIteration": 0,
        "originalInput": {"message": "m"},
        "checkpointedAt": 0,
        "futureField": {"kept": True},
    }
    assert try_load(orjson.dumps(doc), "x") is None


def test_invalid_message_in_a_span_is_named_on_the_fast_path() -> None:
    from foldctl.errors import InputError
    from foldctl.formats.source import load_bytes

    span = {
        "summaryFingerprint": "1",
        "runId": "r",
        "iteration": 1,
        "foldedAtMs": 1,
        "model": "m",
        "messageCount": 1,
        "removedStageIds": [],
        "retained": "conversation",
        "messages": [{"content": 5, "role": "user"}],
    }
    doc = {
        "version": 1,
        "runId": "r",
        "history": [],
        "lastCompletedIteration": 0,
        "originalInput": {"message": "m"},
        "checkpointedAt": 0,
        "folded": [span],
    }
    with pytest.raises(InputError) as info:
        load_bytes(orjson.dumps(doc), "x.json")
    assert str(info.value).startswith("x.json: folded[0].messages[0].content: expected a string")


@pytest.mark.parametrize(
    "suspect",
    [
        # A second key wins, as in JSON.parse: each of these is a frame.
        b'{"role":"assistant","content":"[compacted history: x]","role":"user"}',
        b'{"role":"user","content":"plain","content":"[compacted history: x]"}',
        # An escape spells the key.
        b'{"role":"user","content":"plain","\\u0063ontent":"[compacted history: x]"}',
    ],
    ids=["second-role", "second-content", "escaped-key"],
)
def test_a_later_key_can_make_a_message_a_frame(suspect: bytes) -> None:
    """A message whose first keys say "not a frame" is still read to its end."""
    frame = b'{"role":"user","content":"[compacted history: y]"}'
    span = (
        b'{"summaryFingerprint":"1","runId":"r","iteration":1,"foldedAtMs":1,"model":"m",'
        b'"messageCount":2,"removedStageIds":[],"retained":"conversation","messages":['
        + frame
        + b","
        + suspect
        + b"]}"
    )
    data = (
        b'{"version":1,"runId":"r","history":[],"lastCompletedIteration":0,'
        b'"originalInput":{"message":"m"},"checkpointedAt":0,"folded":[' + span + b"]}"
    )
    exact = load_document(jsoncodec.loads(data, "x"), "x")
    fast = try_load(data, "x")
    assert fast is not None
    messages = fast.spans[0].messages
    assert isinstance(messages, RawMessages)
    assert list(messages.frame_indices) == [0, 1]
    _same(fast, exact)
