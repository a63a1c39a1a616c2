"""``foldctl fingerprint [TEXT]``: the fingerprint a reviewer needs to join a summary by hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldctl.fingerprint import SCHEMES
from tests.support import run_cli, run_proc
from tools import make_store
from tools.generate import GenSpec, RunSpec, generate, to_bytes

# Published test vectors (FNV-1a 32 from the FNV reference; xxHash from its reference suite).
EMPTY = {
    "fnv1a32": "811c9dc5",
    "xxh32": "02cc5d05",
    "xxh64": "ef46db3751d8e999",
    "xxh3-64": "2d06800538d394c2",
    "xxh3-128": "99aa06d3014798d86001c324468d497f",
}
FNV_VECTORS = {"a": "e40c292c", "foobar": "bf9cf968"}


def fnv_utf16(text: str) -> str:
    """FNV-1a 32 over UTF-16 code units, written out here independently of foldctl."""
    data = text.encode("utf-16-le", "surrogatepass")
    h = 0x811C9DC5
    for i in range(0, len(data), 2):
        h ^= data[i] | data[i + 1] << 8
        h = (h * 0x01000193) % 2**32
    return f"{h:x}"


def as_json(*args: str, stdin: bytes | None = None) -> dict[str, Any]:
    result = run_cli("fingerprint", "--format", "json", *args, stdin=stdin)
    assert result.exit_code == 0
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc


def test_empty_text_gives_each_schemes_published_value() -> None:
    assert as_json("")["fingerprints"] == EMPTY
    lines = run_cli("fingerprint", "").stdout.splitlines()
    assert [line.split() for line in lines] == [[name, value] for name, value in EMPTY.items()]


@pytest.mark.parametrize(("text", "expected"), FNV_VECTORS.items())
def test_fnv1a32_vectors(text: str, expected: str) -> None:
    assert run_cli("fingerprint", "--scheme", "fnv1a32", text).stdout == expected + "\n"


@pytest.mark.parametrize("text", ["café", "会议纪要", "\U0001f469\U0001f3fd\u200d\U0001f4bb", "🇫🇷"])
def test_fnv1a32_is_over_utf16_units_not_utf8(text: str) -> None:
    doc = as_json(text)
    assert doc["fingerprints"]["fnv1a32"] == fnv_utf16(text)
    assert doc["length"]["utf16Units"] == len(text.encode("utf-16-le")) // 2
    assert doc["length"]["utf8Bytes"] == len(text.encode("utf-8"))


def test_stdin_is_read_exactly() -> None:
    with_newline = as_json(stdin=b"summary text\n")["fingerprints"]
    assert with_newline == as_json("summary text\n")["fingerprints"]
    assert with_newline != as_json("summary text")["fingerprints"]
    stripped = as_json("--strip-newline", stdin=b"summary text\n")["fingerprints"]
    assert stripped == as_json("summary text")["fingerprints"]
    crlf = as_json("--strip-newline", stdin=b"summary text\r\n")["fingerprints"]
    assert crlf == stripped
    # only one newline goes, and a BOM is a character like any other
    assert (
        as_json("--strip-newline", stdin=b"x\n\n")["fingerprints"] == as_json("x\n")["fingerprints"]
    )
    assert as_json(stdin="\ufeffx".encode())["fingerprints"] != as_json("x")["fingerprints"]


def test_invalid_utf8_on_stdin_is_refused_with_its_offset() -> None:
    result = run_proc("fingerprint", stdin=b"ok \xff\xfe")
    assert result.returncode == 2
    assert result.stderr.decode().strip() == (
        "foldctl: error: <stdin>: byte 3: not UTF-8 (byte 0xff); a fingerprint is of text "
        "(use --json to give a string with escapes)"
    )


def test_invalid_utf8_in_the_argument_is_refused() -> None:
    result = run_proc("fingerprint", b"ab\xffc".decode("utf-8", "surrogateescape"))
    assert result.returncode == 2
    assert b"TEXT: byte 2: not UTF-8" in result.stderr


def test_a_json_string_carries_a_lone_surrogate() -> None:
    doc = as_json("--json", '"half an emoji \\ud83d"')
    assert doc["fingerprints"]["fnv1a32"] == fnv_utf16("half an emoji \ud83d")
    from_stdin = as_json("--json", stdin=b'"half an emoji \\ud83d"\n')
    assert from_stdin == doc
    result = run_proc("fingerprint", "--json", "[1, 2]")
    assert result.returncode == 2 and b"expected a JSON string literal" in result.stderr


def test_one_scheme_prints_the_bare_fingerprint() -> None:
    for name in SCHEMES:
        out = run_cli("fingerprint", "--scheme", name, "abc").stdout
        assert out == SCHEMES[name]("abc") + "\n"
    assert as_json("--scheme", "xxh64", "abc")["fingerprints"] == {"xxh64": SCHEMES["xxh64"]("abc")}


def test_bad_options_are_usage_errors() -> None:
    assert run_proc("fingerprint", "--scheme", "sha1", "x").returncode == 2
    assert run_proc("fingerprint", "--format", "csv", "x").returncode == 2


@settings(max_examples=60, deadline=None)
@given(st.text())
def test_any_text_matches_the_library(text: str) -> None:
    assert as_json("--json", json.dumps(text))["fingerprints"] == {
        name: scheme(text) for name, scheme in SCHEMES.items()
    }


# --------------------------------------------------------------------------- --join


@pytest.fixture
def checkpoint(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    doc = generate(GenSpec(seed=3, mix=("ascii", "cjk"), runs=(RunSpec(tool_rounds=5),)))
    path = tmp_path / "cp.json"
    path.write_bytes(to_bytes(doc))
    return path, doc


def live_frame(doc: dict[str, Any]) -> tuple[int, str]:
    """The index in ``history`` and the content of its (last) frame."""
    for i, m in reversed(list(enumerate(doc["history"]))):
        if m["role"] == "user" and m["content"].startswith("[compacted history"):
            return i, str(m["content"])
    raise AssertionError("the generated checkpoint has no frame in history")


def test_join_names_the_span_a_pasted_frame_joins(checkpoint: tuple[Path, dict[str, Any]]) -> None:
    path, doc = checkpoint
    index, content = live_frame(doc)
    span = next(
        i
        for i, s in enumerate(doc["folded"])
        if s["summaryFingerprint"] == SCHEMES["fnv1a32"](content)
    )
    result = run_cli("fingerprint", "--join", str(path), stdin=content.encode())
    assert result.exit_code == 0
    assert f"joins span {span} of {path} under fnv1a32 (frame at h{index})" in result.stdout
    doc_json = as_json("--join", str(path), content)["join"]
    assert doc_json["matches"] == [
        {
            "scheme": "fnv1a32",
            "fingerprint": doc["folded"][span]["summaryFingerprint"],
            "span": span,
            "spans": [span],
            "placement": "placed",
            "frame": f"h{index}",
        }
    ]
    assert doc_json["checkpointScheme"] == "fnv1a32"


def test_json_follows_the_published_schema(checkpoint: tuple[Path, dict[str, Any]]) -> None:
    import jsonschema

    from foldctl import schemas

    path, doc = checkpoint
    _, content = live_frame(doc)
    for args in ((content,), ("--join", str(path), content), ("--scheme", "xxh32", "x")):
        jsonschema.validate(as_json(*args), schemas.load("fingerprint"))


def test_join_of_text_that_joins_nothing_exits_1_with_a_hint(
    checkpoint: tuple[Path, dict[str, Any]],
) -> None:
    path, doc = checkpoint
    _, content = live_frame(doc)
    summary_only = content.split("\n\n", 1)[1]
    result = run_cli("fingerprint", "--join", str(path), summary_only)
    assert result.exit_code == 1
    assert "joins no span" in result.stdout
    assert "label included" in result.stdout
    assert as_json_exit("--join", str(path), summary_only)["join"]["matches"] == []


def as_json_exit(*args: str) -> dict[str, Any]:
    result = run_cli("fingerprint", "--format", "json", *args)
    assert result.exit_code == 1
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc


def test_join_reports_a_shared_fingerprint_first_wins(
    checkpoint: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    _, doc = checkpoint
    _, content = live_frame(doc)
    fp = SCHEMES["fnv1a32"](content)
    first = next(i for i, s in enumerate(doc["folded"]) if s["summaryFingerprint"] == fp)
    later = len(doc["folded"]) - 1 if first != len(doc["folded"]) - 1 else 0
    doc["folded"][later]["summaryFingerprint"] = fp
    tampered = tmp_path / "tampered.json"
    tampered.write_bytes(to_bytes(doc))
    match = as_json("--join", str(tampered), content)["join"]["matches"][0]
    assert match["span"] == min(first, later)
    assert match["spans"] == sorted([first, later])
    text = run_cli("fingerprint", "--join", str(tampered), content).stdout
    assert "share it, the first wins" in text


def test_join_a_session_of_a_store(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    rows = make_store.sample_rows()
    make_store.write_store(db, rows)
    envelope = json.loads(next(r for r in rows if r.session_id == "xxh64_scheme").envelope)
    _, content = live_frame(envelope["data"])
    match = as_json("--join", f"{db}#xxh64_scheme", content)["join"]["matches"]
    assert [m["scheme"] for m in match] == ["xxh64"]


def test_join_with_the_conformance_short_fingerprint(conformance: Path) -> None:
    """f_unicode has a 7-digit fingerprint: an unpadded hex joins as written."""
    expected = json.loads((conformance / "f_unicode.expected.json").read_bytes())
    doc = json.loads((conformance / "f_unicode.json").read_bytes())
    joined = [
        (row["index"], row["foldedSpanIndex"])
        for row in expected["history"]
        if row["foldedSpanIndex"] is not None
    ]
    assert joined
    for index, span in joined:
        content = doc["history"][index]["content"]
        match = as_json(
            "--json", json.dumps(content), "--join", str(conformance / "f_unicode.json")
        )["join"]["matches"]
        assert match[0]["span"] == span
        assert match[0]["fingerprint"] == doc["folded"][span]["summaryFingerprint"]
