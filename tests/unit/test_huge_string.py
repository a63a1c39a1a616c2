"""One huge string is written and hashed in slices: the same bytes and digests as whole.

A message holding a string of :data:`foldctl.jsoncodec.BIG_STRING` characters or more is
never encoded as one copy (``expand --format jsonl``, a digest, the text transcript);
these tests hold the sliced output to be byte for byte what the whole one was.  The
memory bound itself is measured by ``make bench`` (tools/bench_hostile.py).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import orjson
import pytest
import xxhash

import foldctl
from foldctl import jsoncodec
from foldctl.digest import PREFIX, digest
from foldctl.load.fast import has_long_digit_run
from foldctl.query.transcript import transcript
from tests.support import SAMPLES, jsonl, run_cli

BIG = jsoncodec.BIG_STRING


def _text(n: int, seed: int) -> str:
    """``n`` characters of every kind JSON escapes or widens: quotes, backslashes, control
    characters, U+2028, accents, astral characters, a lone surrogate."""
    rng = random.Random(seed)
    alphabet = ["a", "b ", "é", "\n", '"', "\\", "\u2028", "😀", "\x01", "\t", "\ud800"]
    block = "".join(rng.choice(alphabet) for _ in range(4099))  # cuts fall anywhere in it
    return (block * (n // len(block) + 1))[:n]


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("sort_keys", [False, True])
def test_dumps_chunks_writes_what_dumps_writes(seed: int, sort_keys: bool) -> None:
    big = _text(BIG + 3 * 2**18 + seed, seed)
    message = {
        "role": "tool",
        "content": big,
        "toolCalls": [{"id": "call_1", "args": {"query": big[: BIG + 1], "n": 2**70}}],
        "b": [big[7:], 1.5, None, True],
    }
    for value in (message, [big], big, {"small": "x"}):
        whole = jsoncodec.dumps(value, sort_keys=sort_keys)
        pieces = list(jsoncodec.dumps_chunks(value, sort_keys=sort_keys))
        assert b"".join(pieces) == whole
        if value is message:
            assert max(map(len, pieces)) < BIG  # never one piece of the whole string


def test_a_digest_of_a_huge_message_is_of_its_canonical_bytes() -> None:
    message = {"role": "user", "content": _text(BIG + 100, 7), "z": {"y": 1}}
    canonical = jsoncodec.dumps(message, sort_keys=True)  # as a digest is defined
    assert digest(message) == PREFIX + xxhash.xxh3_128_hexdigest(canonical)


def test_a_long_digit_run_is_found_across_windows() -> None:
    size = 3 * 2**20
    for at in (0, 2**20 - 19, 2**20 - 10, 2**20 - 1, 2 * 2**20 + 5, size - 19):
        data = bytearray(b"a" * size)
        data[at : at + 19] = b"7" * 19
        assert has_long_digit_run(bytes(data)), at
        data[at + 9] = ord("x")  # two runs of 9 and 9: no run of 19
        assert not has_long_digit_run(bytes(data)), at


def _huge_checkpoint(tmp: Path, content: str) -> Path:
    doc = json.loads((SAMPLES / "one_fold_conversation.json").read_text("utf-8"))
    doc["history"].append({"role": "tool", "content": content, "toolCallId": "call_9"})
    path = tmp / "huge.json"
    path.write_bytes(orjson.dumps(doc))
    return path


def test_expand_jsonl_prints_a_huge_message_whole(tmp_path: Path) -> None:
    content = "line one\n" + "x" * BIG + '\n"quoted" \u2028 end'
    path = _huge_checkpoint(tmp_path, content)
    result = run_cli("expand", "--format", "jsonl", str(path))
    assert result.exit_code == 0, result.stderr
    last = jsonl(result.stdout)[-1]
    assert last["content"] == content
    stored = {"role": "tool", "content": content, "toolCallId": "call_9"}
    canonical = orjson.dumps(stored, option=orjson.OPT_SORT_KEYS)
    assert last["digest"] == PREFIX + xxhash.xxh3_128_hexdigest(canonical)


def test_expand_jsonl_writes_a_huge_message_in_slices_as_the_whole_line(tmp_path: Path) -> None:
    """The fast JSONL lines of a transcript: a row holding a huge string comes in pieces
    none as long as the string (no second copy of it), that make the line of the row."""
    content = 'line one\n"quoted" \u2028 é' * (BIG // 8)
    path = _huge_checkpoint(tmp_path, content)
    graph = foldctl.open(path).graph
    pieces = list(transcript(graph).jsonl_lines())
    assert max(map(len, pieces)) < BIG
    lines = b"".join(pieces).splitlines()
    assert lines == [jsoncodec.dumps(row) for row in transcript(graph).records()]
    assert orjson.loads(lines[-1])["content"] == content


def test_expand_text_prints_a_huge_message_with_every_line_indented(tmp_path: Path) -> None:
    lines = [f"row {n} " + "y" * 200 for n in range(BIG // 200)]
    path = _huge_checkpoint(tmp_path, "\n".join(lines))
    result = run_cli("expand", str(path))
    assert result.exit_code == 0, result.stderr
    out = result.stdout.split("\n")
    first = next(i for i, line in enumerate(out) if line.endswith(lines[0]))
    prefix = out[first][: -len(lines[0])]
    assert prefix.strip() == ""
    assert out[first : first + len(lines)] == [prefix + line for line in lines]


def test_a_session_record_with_a_huge_string_is_read_whole(tmp_path: Path) -> None:
    """A Claude Code record is decoded where it lies in the file; the same as the line."""
    text = (SAMPLES / "claude_code_session.jsonl").read_text("utf-8").splitlines()
    record = json.loads(text[0])
    huge = "z" * BIG + " tail"
    record["message"]["content"] = huge
    text[0] = json.dumps(record)
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(text) + "\n", "utf-8")
    result = run_cli("expand", "--format", "jsonl", str(path))
    assert result.exit_code == 0, result.stderr
    assert any(huge in json.dumps(row) for row in jsonl(result.stdout))
