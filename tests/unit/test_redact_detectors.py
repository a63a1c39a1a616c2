"""The built-in detectors: the EXAMPLES table, the checksums, and evidence that must survive."""

from __future__ import annotations

import datetime as dt
import json
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldctl.redact import DETECTORS, EXAMPLES, Example, Redactor, iban_ok, kinds, luhn_ok
from foldctl.redact.detectors import gate, may_find, scan

ALL = frozenset(DETECTORS)


def found(kind: str, text: str) -> tuple[str, ...]:
    return tuple(text[s:e] for s, e in DETECTORS[kind].find(text))


def every_finding(text: str) -> list[tuple[int, int, str]]:
    return sorted((s, e, k) for k, d in DETECTORS.items() for s, e in d.find(text))


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda ex: f"{ex.kind}:{ex.text[:30]!r}")
def test_example(example: Example) -> None:
    if example.where != "text":
        return  # a secret by the key it sits under: the redactor finds it (below)
    if example.kind is None:
        assert every_finding(example.text) == []
        assert scan(example.text, ALL) == []
    else:
        assert found(example.kind, example.text) == example.expected
        fast = tuple(example.text[s:e] for s, e, k in scan(example.text, ALL) if k == example.kind)
        assert sorted(fast) == sorted(example.expected)


def redacted(example: Example) -> str:
    """What a user sees of the example's text once redacted: the text itself, or the
    JSON of a message whose tool call has it as arguments."""
    redactor = Redactor(b"k" * 32)
    if example.where == "text":
        return redactor.redact_text(example.text)[0]
    message = {
        "role": "assistant",
        "content": "",
        "toolCalls": [{"id": "call_1", "name": "lookup", "args": json.loads(example.text)}],
    }
    new, _ = redactor.redact_message(message, "h0")
    return json.dumps(new, ensure_ascii=False)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda ex: f"{ex.kind}:{ex.text[:30]!r}")
def test_example_redacted_hides_the_secret_and_keeps_the_rest(example: Example) -> None:
    out = redacted(example)
    for value in example.expected:
        assert value not in out, (value, out)
        assert json.dumps(value)[1:-1] not in out, (value, out)
    for value in example.kept:
        assert value in out, (value, out)
    if example.expected:
        assert f"[redacted:{example.kind}:" in out, out
    if example.kind is None:
        assert "[redacted:" not in out, out


def test_every_kind_has_positive_and_negative_examples() -> None:
    for kind in kinds():
        mine = [ex for ex in EXAMPLES if ex.kind == kind]
        assert any(ex.expected for ex in mine), kind
        assert any(not ex.expected for ex in mine), kind


def test_kind_names_fit_a_placeholder() -> None:
    for kind in kinds():
        assert kind.isidentifier() and kind.islower() and ":" not in kind


@pytest.mark.parametrize(
    ("digits", "ok"),
    [
        ("4111111111111111", True),
        ("5500005555555559", True),
        ("378282246310005", True),
        ("6011111111111117", True),
        ("4111111111111112", False),
        ("79927398713", True),
        ("79927398710", False),
    ],
)
def test_luhn(digits: str, ok: bool) -> None:
    assert luhn_ok(digits) is ok


@pytest.mark.parametrize(
    ("iban", "ok"),
    [
        ("DE89370400440532013000", True),
        ("GB82WEST12345698765432", True),
        ("FR1420041010050500013M02606", True),
        ("NL91ABNA0417164300", True),
        ("NO9386011117947", True),
        ("DE89370400440532013001", False),  # mod-97
        ("GB82WEST1234569876543", False),  # length
        ("XX82WEST12345698765432", False),  # country
        ("DEAB370400440532013000", False),  # check digits must be digits
    ],
)
def test_iban_checksum(iban: str, ok: bool) -> None:
    assert iban_ok(iban) is ok


def test_card_needs_network_prefix_and_length() -> None:
    assert luhn_ok("1234567890123452")  # passes Luhn ...
    assert found("card", "id 1234567890123452") == ()  # ... but no network starts with 1


# --- evidence that is never redacted ----------------------------------------------------

_HEX = "0123456789abcdef"
evidence_token = st.one_of(
    st.tuples(st.sampled_from(["RF", "INC", "SO", "ACCT", "TX", "CH"]), st.integers(1, 99999)).map(
        lambda t: f"{t[0]}-{t[1]}"
    ),
    st.integers(0, 2**128 - 1).map(lambda n: str(uuid.UUID(int=n))),
    st.text(_HEX, min_size=7, max_size=40).map(lambda h: "c" + h[1:] if h[0].isdigit() else h),
    st.text(_HEX, min_size=5, max_size=8),
    st.text(_HEX, min_size=32, max_size=32).map(lambda h: f"xxh3-128:{h}"),
    st.datetimes(dt.datetime(2001, 1, 1), dt.datetime(2030, 12, 31)).flatmap(
        lambda d: st.sampled_from(
            [
                d.isoformat() + "Z",
                d.strftime("%Y-%m-%d %H:%M:%S"),
                d.strftime("%Y-%m-%d"),
                d.strftime("%d/%m/%Y"),
                str(int(d.timestamp() * 1000)),
                str(int(d.timestamp())),
            ]
        )
    ),
    st.tuples(st.integers(0, 99999), st.integers(0, 99)).flatmap(
        lambda a: st.sampled_from(
            [f"${a[0]}.{a[1]:02d}", f"EUR {a[0]}.{a[1]:02d}", f"{a[0]:,}.{a[1]:02d} USD"]
        )
    ),
    st.tuples(st.integers(0, 30), st.integers(0, 99), st.integers(0, 9999)).map(
        lambda v: f"v{v[0]}.{v[1]}.{v[2]}"
    ),
    st.sampled_from(["seed#0", "tool-calls#23", "compact#47", "h12", "f3:5", "f3"]),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(evidence_token, min_size=1, max_size=12), st.sampled_from([" ", ", ", "\n"]))
def test_evidence_is_never_a_finding(tokens: list[str], sep: str) -> None:
    text = sep.join(tokens)
    assert every_finding(text) == []
    assert scan(text, ALL) == []


# --- the fast path finds exactly what the detectors find ---------------------------------

_FRAGMENTS = [ex.text for ex in EXAMPLES] + [v for ex in EXAMPLES for v in ex.expected]
fragment = st.one_of(
    st.sampled_from(_FRAGMENTS),
    st.text(st.sampled_from("ab xyzAZ09-_.@+()/:=\"'\n\x00"), max_size=12),
    st.sampled_from(
        [
            "Authorization: Bearer ",
            "aws_secret_access_key=",
            "hooks.slack.com/",
            "ü",
            "中",
            "\ud800",
            "ſecret_",  # long s: Unicode case folding would make it "secret"
            "\u212a",  # Kelvin sign, folds to "k"
            "AUTHORİZATİON: Bearer ",
            "1 ",
            "2024 ",
            "XX12 ",
        ]
    ),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(fragment, min_size=1, max_size=8))
def test_scan_finds_what_the_detectors_find(parts: list[str]) -> None:
    text = "".join(parts)
    findings = every_finding(text)
    assert sorted(scan(text, ALL)) == findings
    woken = gate(text.encode("utf-8", "surrogatepass"), ALL)
    assert {kind for _, _, kind in findings} <= woken
    assert sorted(scan(text, ALL, woken)) == findings
    if findings:
        assert may_find(text.encode("utf-8", "surrogatepass"), ALL)


@settings(max_examples=200, deadline=None)
@given(st.lists(fragment, min_size=1, max_size=6), st.sampled_from(sorted(ALL)))
def test_scan_respects_the_enabled_kinds(parts: list[str], kind: str) -> None:
    text = "".join(parts)
    assert sorted(scan(text, {kind})) == [f for f in every_finding(text) if f[2] == kind]


@pytest.mark.parametrize("name", ["api€key", "API€KEY", "private😀key", "api\ud800key"])
def test_a_secret_name_with_any_one_character_between_its_words(name: str) -> None:
    """The detector reads api€key as a secret's name, so the gates must let it through
    (they once looked for one byte between the words, and the value was printed)."""
    text = f"{name}=9f86d081884c7d65 and more"
    out, redactions = Redactor(b"k" * 32).redact_text(text)
    assert "9f86d081884c7d65" not in out
    assert out.startswith(f"{name}=[redacted:secret_value:") and out.endswith(" and more")
    assert [r.kind for r in redactions] == ["secret_value"]


def test_no_builtin_match_crosses_a_nul() -> None:
    """The redactor joins strings with U+0000; a finding must never span two of them."""
    for ex in EXAMPLES:
        for value in ex.expected:
            for cut in range(1, len(value)):
                text = value[:cut] + "\x00" + value[cut:]
                for start, end, _ in scan(text, ALL):
                    assert "\x00" not in text[start:end]
