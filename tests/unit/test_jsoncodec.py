"""JSON helpers the readers share."""

from __future__ import annotations

import mmap
import tracemalloc
from pathlib import Path

import orjson
import pytest

from foldctl import jsoncodec
from foldctl.errors import InputError
from foldctl.jsoncodec import find_unicode_escape

ESCAPE = b'"x\\u0063"'


@pytest.mark.parametrize("backslashes_before", [0, 1, 63, 64, 65, 5000])
def test_an_escape_is_found_after_any_number_of_other_backslashes(backslashes_before: int) -> None:
    before = b'"a\\n b\\"c"' * backslashes_before  # two backslashes each, neither a \u
    data = before + ESCAPE
    assert find_unicode_escape(data) == len(before) + 2
    assert find_unicode_escape(before) == -1


def test_an_escaped_backslash_before_u_is_no_escape_when_read_by_hand() -> None:
    assert find_unicode_escape(b'"C:\\\\users"') == -1
    assert find_unicode_escape(b'"C:\\\\\\u0063"') == 5  # \\ then the escape \u0063


@pytest.mark.parametrize("gap", [0, 100, 1000, 100_000])
def test_sparse_and_dense_backslashes_alike(gap: int) -> None:
    """Read one by one while sparse, by a pattern once dense: the same answer."""
    before = (b'"a\\n' + b" " * gap + b'"') * 300
    assert find_unicode_escape(before + ESCAPE) == len(before) + 2
    assert find_unicode_escape(before + b'"\\\\u"') in (-1, len(before) + 2)
    assert find_unicode_escape(before) == -1


def test_start_and_a_mapped_file(tmp_path: Path) -> None:
    path = tmp_path / "f.json"
    path.write_bytes(ESCAPE + b" " + ESCAPE)
    with path.open("rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
        assert find_unicode_escape(mapped) == 2
        assert find_unicode_escape(mapped, 3) == len(ESCAPE) + 3
        assert find_unicode_escape(mapped, len(ESCAPE) + 4) == -1


@pytest.mark.parametrize("backslashes_before", [0, 70])
def test_an_end_leaves_out_what_lies_past_it(backslashes_before: int) -> None:
    """Read by hand or by the pattern: an escape that starts or ends past ``end`` is not
    found (a buffer reused for a shorter file holds the longer one's bytes past its end)."""
    before = b'"a\\n b"' * backslashes_before
    data = before + ESCAPE
    at = len(before) + 2
    assert find_unicode_escape(data, 0, len(data)) == at
    assert find_unicode_escape(data, 0, at + 2) == at  # the \u is in: the digits are the caller's
    assert find_unicode_escape(data, 0, at + 1) == -1  # the backslash alone
    assert find_unicode_escape(bytearray(data), 0, at) == -1


def test_a_document_orjson_refuses_is_encoded_in_memory_of_its_size() -> None:
    # One lone surrogate sends a whole document to the encoder by hand, which writes each
    # key and value with orjson: every small result of orjson.dumps holds a block of
    # about 4 KB, so keeping them in a list cost 650 times the output (`show -f json` of a
    # 10,000-span chain with one such run id peaked at 1.1 GB for 2.6 MB of JSON).
    doc = [{"span": i, "runId": "run-1", "depth": i % 7} for i in range(5000)] + ["\ud800"]
    tracemalloc.start()
    try:
        out = jsoncodec.dumps(doc)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert out.endswith(b',"\\ud800"]')
    assert orjson.loads(out.replace(b"\\ud800", b"x"))[:5000] == doc[:5000]
    assert peak < 20 * len(out), (peak, len(out))


def test_a_mapped_file_loads_as_its_bytes_do(tmp_path: Path) -> None:
    """The exact loader reads a map of the file in place (a 407 MB file was copied whole
    before it was decoded), with the same answer as for its bytes."""
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_bytes(b' {"a": [1, 2.5, "\\ud800"], "b": null} ')  # a lone surrogate: slow path
    bad.write_bytes(b' {"a"]')
    with good.open("rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
        assert jsoncodec.loads(mapped, "good.json") == jsoncodec.loads(good.read_bytes(), "")
    refused = pytest.raises(InputError, match=r"^bad.json: byte 5: not valid JSON")
    with bad.open("rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mapped, refused:
        jsoncodec.loads(mapped, "bad.json")


def test_a_document_too_large_for_memory_is_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def out_of_memory(data: object) -> object:
        raise MemoryError

    monkeypatch.setattr(orjson, "loads", out_of_memory)
    with pytest.raises(InputError) as refused:
        jsoncodec.loads(b'{"history": []}' + b" " * 3_000_000, "big.json")
    assert str(refused.value) == (
        "big.json: out of memory decoding 3 MB of JSON; expected a checkpoint that fits in"
        " the memory this process may use"
    )
