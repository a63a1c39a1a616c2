"""Message digests: the canonical encoding, its lone-surrogate fallback, ``locate``, ``--only``."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import orjson
import pytest
import xxhash
from hypothesis import given, settings
from hypothesis import strategies as st

from foldctl.digest import canonical, digest
from foldctl.jsoncodec import encode_by_hand
from tests.support import run_cli
from tests.support.builders import DEEP, audit_monday, detached_convo, friday_of, write_doc

#: Keys foldctl adds to a message object (docs/output.md); everything else is the message.
FOLDCTL_KEYS = {
    "source", "locator", "span", "chain", "depth", "occurrence", "digest", "placement",
    "fingerprint", "resolution", "joinsSpan", "where", "foldedBy", "matches", "matchCount",
    "context",
}  # fmt: skip


def jsonl(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.split("\n") if line]


def recompute(obj: dict[str, Any]) -> str:
    """The recipe of docs/output.md: drop foldctl's keys, hash the canonical encoding."""
    message = {k: v for k, v in obj.items() if k not in FOLDCTL_KEYS}
    return "xxh3-128:" + xxhash.xxh3_128_hexdigest(canonical(message))


# --------------------------------------------------------------------------- the encoding


def test_known_digest_matches_an_independent_implementation() -> None:
    # Cross-checked with the C reference, xxhsum 0.8.1:
    #   printf '%s' '{"content":"Audit account ACCT-8842 and tell me what you find",'\
    #     '"role":"user"}' | xxhsum -H2   ->  06245529117e2379d0ef8a20d3f3d936
    message = {"role": "user", "content": "Audit account ACCT-8842 and tell me what you find"}
    assert canonical(message) == (
        b'{"content":"Audit account ACCT-8842 and tell me what you find","role":"user"}'
    )
    assert digest(message) == "xxh3-128:06245529117e2379d0ef8a20d3f3d936"


def test_key_order_does_not_matter_but_every_value_does() -> None:
    a = {"role": "assistant", "content": "", "toolCalls": [{"name": "x", "args": {"b": 1, "a": 2}}]}
    b = {"toolCalls": [{"args": {"a": 2, "b": 1}, "name": "x"}], "content": "", "role": "assistant"}
    assert digest(a) == digest(b)
    assert digest(a) != digest({**a, "content": " "})
    assert digest(a) != digest({**a, "extra": None})  # an unknown field is part of the message
    assert digest({"role": "user", "content": "1"}) != digest({"role": "user", "content": 1})


_json_leaf = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(exclude_categories=["Cs"]))
)
_json = st.recursive(
    _json_leaf,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.text(st.characters(exclude_categories=["Cs"]), max_size=6), inner, max_size=4
        )
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(_json)
def test_the_fallback_writes_exactly_what_orjson_writes(value: Any) -> None:
    # The hand-written encoder (used only when a lone surrogate is present) must agree
    # with orjson byte for byte on everything else: escapes, floats such as 1e-7, ints.
    assert encode_by_hand(value, sort_keys=True) == orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def test_the_fallback_agrees_on_small_floats_where_the_json_module_does_not() -> None:
    value = {"x": [1e-7, 1.5e-5, 0.00001, -2.5e-9, 1e16, 5e-324]}
    assert json.dumps(value, separators=(",", ":")) != orjson.dumps(value).decode()
    assert encode_by_hand(value, sort_keys=True) == orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


_PLACEHOLDERS = [chr(0xE000 + n) for n in range(8)]
_SURROGATES = ["\ud83d", "\udc00", "\ud800", "\udfff"]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            # At least one character between two surrogates: a high one followed by a low
            # one would be a valid pair, which no JSON reader hands back as two halves.
            st.text(st.characters(exclude_categories=["Cs", "Co"]), min_size=1, max_size=8),
            st.sampled_from(range(len(_SURROGATES))),
        ),
        min_size=1,
        max_size=4,
    ),
    st.floats(allow_nan=False, allow_infinity=False),
)
def test_lone_surrogates_are_written_as_lowercase_escapes(
    pieces: list[tuple[str, int]], number: float
) -> None:
    with_lone = "".join(text + _SURROGATES[k] for text, k in pieces)
    with_marks = "".join(text + _PLACEHOLDERS[k] for text, k in pieces)
    message = {"role": "tool", "content": with_lone, "n": number, "args": {"k": [with_lone]}}
    stand_in = {"role": "tool", "content": with_marks, "n": number, "args": {"k": [with_marks]}}
    expected = orjson.dumps(stand_in, option=orjson.OPT_SORT_KEYS)
    for mark, lone in zip(_PLACEHOLDERS[: len(_SURROGATES)], _SURROGATES, strict=True):
        expected = expected.replace(mark.encode(), f"\\u{ord(lone):04x}".encode())
    assert canonical(message) == expected
    assert json.loads(canonical(message)) == message  # and it reads back as the same message


def test_the_conformance_lone_surrogate_message_has_a_digest(conformance: Path) -> None:
    args = ("expand", str(conformance / "f_unicode.json"), "-f", "jsonl", "--keep-frames")
    rows = jsonl(run_cli(*args).stdout)
    lone = [r for r in rows if any(0xD800 <= ord(c) <= 0xDFFF for c in r["content"])]
    assert lone, "f_unicode holds a lone surrogate"
    for row in lone:
        encoded = canonical({k: v for k, v in row.items() if k not in FOLDCTL_KEYS})
        assert b"\\ud83d" in encoded  # the lone high surrogate, as JSON.stringify writes it
        assert recompute(row) == row["digest"]


# --------------------------------------------------------------------------- in output


def test_every_row_digest_is_recomputable_from_its_output(conformance: Path) -> None:
    for path in sorted(conformance.glob("*.json")):
        if path.name.endswith(".expected.json"):
            continue
        args = ("expand", str(path), "-f", "jsonl", "--keep-frames", "--include-detached")
        for row in jsonl(run_cli(*args).stdout):
            assert recompute(row) == row["digest"], (path.name, row["locator"])


def test_the_same_message_has_the_same_digest_live_and_folded(tmp_path: Path) -> None:
    monday = audit_monday()
    mon, fri = monday.write(tmp_path / "mon.json"), friday_of(monday).write(tmp_path / "fri.json")
    live = {r["locator"]: r for r in jsonl(run_cli("expand", str(mon), "-f", "jsonl").stdout)}
    cited = live["h2"]["digest"]  # live on Monday
    found = run_cli("locate", str(fri), cited)
    assert (found.exit_code, found.stdout) == (0, "f3:1\n")  # folded by Friday


def test_the_documented_jq_and_xxhsum_recipe(tmp_path: Path) -> None:
    if not (shutil.which("jq") and shutil.which("xxhsum")):
        pytest.skip("jq and xxhsum are needed for the shell recipe of docs/output.md")
    path = audit_monday().write(tmp_path / "a.json")
    rows = run_cli("expand", str(path), "-f", "jsonl", "--keep-frames").stdout.split("\n")[:-1]
    keys = ", ".join(f".{k}" for k in sorted(FOLDCTL_KEYS))
    for line in rows:
        proc = subprocess.run(
            f"jq -cjS 'del({keys})' | xxhsum -H2",
            shell=True, input=line.encode(), capture_output=True, check=True,
        )  # fmt: skip
        assert "xxh3-128:" + proc.stdout.split()[0].decode() == json.loads(line)["digest"]


# --------------------------------------------------------------------------- locate


@pytest.fixture
def audit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(tmp_path)
    audit_monday().write(tmp_path / "audit.json")
    return "audit.json"


def _digest_at(source: str, locator: str) -> str:
    rows = jsonl(run_cli("expand", source, "-f", "jsonl", "--keep-frames").stdout)
    return str(next(r["digest"] for r in rows if r["locator"] == locator))


def test_locate_prints_every_place(audit: str, tmp_path: Path) -> None:
    wanted = _digest_at(audit, DEEP)
    result = run_cli("locate", audit, wanted)
    assert (result.exit_code, result.stdout) == (0, f"{DEEP}\n")
    doc = json.loads(Path(audit).read_text())
    doc["history"].append(doc["history"][1])  # a replayed frame: span 2 is expanded twice
    replayed = write_doc(tmp_path / "replayed.json", doc)
    twice = run_cli("locate", str(replayed), wanted)
    assert twice.stdout.splitlines() == [DEEP, DEEP]  # the replay: the same record message
    rows = jsonl(run_cli("locate", str(replayed), wanted, "-f", "jsonl").stdout)
    assert [(r["source"], r["where"], r["depth"]) for r in rows] == [
        (str(replayed), "folded", 3)
    ] * 2
    assert all(r["digest"] == wanted for r in rows)


def test_locate_finds_floating_messages(tmp_path: Path) -> None:
    path = str(write_doc(tmp_path / "d.json", detached_convo()))
    rows = jsonl(run_cli("expand", path, "-f", "jsonl", "--include-detached").stdout)
    floating = next(r for r in rows if r.get("placement") == "detached")
    assert run_cli("locate", path, floating["digest"]).stdout == f"{floating['locator']}\n"


def test_locate_not_found_and_malformed(audit: str) -> None:
    missing = run_cli("locate", audit, "xxh3-128:" + "0" * 32)
    assert (missing.exit_code, missing.stdout) == (1, "")
    bad = run_cli("locate", audit, "xxh3-128:abc")
    assert bad.exit_code == 2 and "not a message digest" in bad.stderr
    upper = run_cli("locate", audit, _digest_at(audit, "h0").upper().replace("XXH3", "xxh3"))
    assert upper.stdout == "h0\n"


# --------------------------------------------------------------------------- expand --only


def test_expand_only_accepts_a_digest(audit: str) -> None:
    frame = _digest_at(audit, "f2:0")  # the summary of span 1
    by_digest = run_cli("expand", audit, "--only", frame, "-f", "jsonl")
    by_locator = run_cli("expand", audit, "--only", "f2:0", "-f", "jsonl")
    assert by_digest.exit_code == 0 and by_digest.stdout == by_locator.stdout
    assert DEEP in by_digest.stdout


def test_expand_only_digest_errors(audit: str) -> None:
    one = run_cli("expand", audit, "--only", _digest_at(audit, "h0"), "-f", "jsonl")
    assert one.exit_code == 0 and [o["locator"] for o in jsonl(one.stdout)] == ["h0"]
    unknown = run_cli("expand", audit, "--only", "xxh3-128:" + "f" * 32)
    assert unknown.exit_code == 2 and "no message with digest" in unknown.stderr
