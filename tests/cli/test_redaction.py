"""``--redact`` on every command that prints message text: no planted secret reaches any
format, the same value gets the same placeholder everywhere in one output, the evidence
(ids, hashes, amounts, times) survives, and the review list matches what was printed."""

from __future__ import annotations

import html
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from foldctl.redact import EXAMPLES
from tests.support import CONFORMANCE, SAMPLES, jsonl, run_cli
from tests.support.builders import Convo, write_doc

PLACEHOLDER = re.compile(r"\[redacted:([a-z0-9_-]+):([0-9a-f]{6,})\]")
KEY = "k" * 32


def one_example_per_kind() -> list[tuple[str, str, tuple[str, ...]]]:
    seen: dict[str, tuple[str, str, tuple[str, ...]]] = {}
    for example in EXAMPLES:
        if example.kind and example.expected and example.kind not in seen:
            seen[example.kind] = (example.kind, example.text, example.expected)
    return list(seen.values())


PLANTED = one_example_per_kind()
SECRETS = sorted({value for _, _, values in PLANTED for value in values}, key=len, reverse=True)


def planted_checkpoint() -> dict[str, Any]:
    """Every kind of secret in every place a message holds text: live and folded three
    deep, summaries, tool-call arguments (values and keys), tool names, unknown fields."""
    texts = [text for _, text, _ in PLANTED]
    everything = "\n".join(texts)
    c = Convo()
    c.add("user", f"Please look into this: {everything}")
    for n, text in enumerate(texts[:6]):
        call = {"id": f"call_{n}", "name": "lookup", "args": {"query": text, text: "as a key"}}
        c.add("assistant", "", toolCalls=[call])
        c.add("tool", f"result {n}: {text}", toolCallId=f"call_{n}", toolName="lookup",
              metadata={"note": text, "list": [text]})  # fmt: skip
    c.fold(4, 3, f"Summary 1: looked up {texts[0]} and {texts[1]}.")
    for n, text in enumerate(texts[6:], start=6):
        c.add("assistant", f"Checking {text}", debugTrace={"seen": text})
        c.add("tool", text, toolCallId=f"call_{n}", toolName="lookup")
    c.fold(1, 7, f"Summary 2: everything so far, incl. {texts[-1]}.")
    c.add("assistant", "More.")
    c.fold(1, 3, f"Summary 3: nested three deep; {texts[2]}.")
    c.add("assistant", f"Done. {everything}")
    return c.checkpoint()


@pytest.fixture
def planted(tmp_path: Path) -> str:
    return str(write_doc(tmp_path / "planted.json", planted_checkpoint()))


def outputs(source: str, tmp_path: Path) -> dict[str, str]:
    """Every format of every command that prints message text, with --redact."""
    red = ["--redact", "--redact-key-file", str(tmp_path / "key")]
    (tmp_path / "key").write_text(KEY)
    found: dict[str, str] = {}
    for fmt in ("text", "markdown", "json", "jsonl"):
        args = ["expand", source, "--keep-frames", "--include-detached", "-f", fmt, *red]
        found[f"expand {fmt}"] = run_cli(*args).stdout
    for fmt in ("text", "json", "jsonl", "csv", "tsv"):
        found[f"grep {fmt}"] = run_cli("grep", "", source, "-f", fmt, *red).stdout
    for fmt in ("text", "json", "markdown"):
        found[f"show {fmt}"] = run_cli("show", source, "-f", fmt, *red).stdout
    for fmt in ("text", "json", "csv"):
        found[f"diff {fmt}"] = run_cli(
            "diff", "--force", str(SAMPLES / "nested_chain.json"), source, "-f", fmt, *red
        ).stdout
    twin = tmp_path / "twin" / Path(source).name  # a second source: worker processes search
    twin.parent.mkdir(exist_ok=True)
    twin.write_bytes(Path(source).read_bytes())
    found["grep jsonl, 2 workers"] = run_cli(
        "grep", "", source, str(twin), "-j", "2", "-f", "jsonl", *red
    ).stdout
    first = jsonl(run_cli("expand", source, "-f", "jsonl").stdout)[0]["digest"]
    found["locate json"] = run_cli("locate", source, first, "-f", "json", *red).stdout
    found["claims json"] = run_cli("claims", source, "-f", "json", *red).stdout
    page = tmp_path / "r.html"
    assert run_cli("report", source, "-o", str(page), *red).exit_code == 0
    found["report"] = page.read_text("utf-8")
    found["redactions"] = run_cli("redactions", source, "-f", "json", *red[1:]).stdout
    return found


def test_no_planted_secret_reaches_any_output(planted: str, tmp_path: Path) -> None:
    assert len(PLANTED) >= 15, "every built-in kind is planted"
    for name, out in outputs(planted, tmp_path).items():
        assert out, name
        readable = html.unescape(out) if name == "report" else out
        for secret in SECRETS:
            for form in {secret, json.dumps(secret)[1:-1]}:
                assert form not in readable, (name, secret)


def test_a_value_has_one_placeholder_everywhere_in_one_output(planted: str, tmp_path: Path) -> None:
    for name, out in outputs(planted, tmp_path).items():
        tags: dict[str, set[str]] = {}
        for kind, tag in PLACEHOLDER.findall(out):
            tags.setdefault(kind, set()).add(tag)
        if name.startswith(("expand", "report")):
            assert set(tags) >= {kind for kind, _, _ in PLANTED}, (name, set(tags))
    rows = jsonl(
        run_cli("expand", planted, "-f", "jsonl", "--redact-key-file", str(tmp_path / "key")).stdout
    )
    by_field: dict[str, set[str]] = {}
    for row in rows:
        for r in row["redactions"]:
            by_field.setdefault(r["kind"], set()).add(r["placeholder"])
    text = run_cli("expand", planted, "--redact-key-file", str(tmp_path / "key")).stdout
    for placeholders in by_field.values():
        for placeholder in placeholders:
            assert placeholder in text  # the same key: the same placeholder in every format


def test_json_keeps_the_original_digest_and_says_what_was_replaced(
    planted: str, tmp_path: Path
) -> None:
    plain = jsonl(run_cli("expand", planted, "-f", "jsonl").stdout)
    red = jsonl(run_cli("expand", planted, "-f", "jsonl", "--redact").stdout)
    assert [r["digest"] for r in red] == [r["digest"] for r in plain]
    first = red[0]
    assert first["redactions"] and all(
        set(r) == {"kind", "placeholder", "field", "start", "end"} for r in first["redactions"]
    )
    original = plain[0]["content"]
    for r in first["redactions"]:
        assert r["field"] == "content"
        assert original[r["start"] : r["end"]] in SECRETS or r["kind"] in ("aws_secret_key",)


def test_the_review_list_matches_the_placeholders_printed(planted: str, tmp_path: Path) -> None:
    (tmp_path / "key").write_text(KEY)
    key = ["--redact-key-file", str(tmp_path / "key")]
    review = json.loads(run_cli("redactions", planted, "-f", "json", *key).stdout)
    printed = run_cli("expand", planted, "--keep-frames", "--include-detached", *key).stdout
    spans = run_cli("spans", planted).stdout  # no secret in span facts: nothing to review there
    assert "redacted" not in spans
    listed = {row["placeholder"] for row in review}
    shown = {m.group() for m in PLACEHOLDER.finditer(printed)}
    assert listed == shown
    counts = Counter(m.group() for m in PLACEHOLDER.finditer(printed))
    for row in review:
        assert row["count"] >= 1 and row["locators"]
        assert counts[row["placeholder"]] >= 1


def test_a_detector_that_fails_fails_the_command(
    planted: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from foldctl.redact import redactor

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(redactor.Redactor, "_scan", broken)
    result = run_cli("expand", planted, "--redact")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("foldctl: error: ") and "redact" in result.stderr


def corpus() -> list[Path]:
    files = sorted(SAMPLES.glob("*.json"))
    if CONFORMANCE.is_dir():
        files += sorted(
            p for p in CONFORMANCE.glob("*.json") if not p.name.endswith(".expected.json")
        )
    return files


@pytest.mark.parametrize("source", corpus(), ids=lambda p: p.name)
def test_the_samples_lose_only_their_emails(source: Path) -> None:
    """The bundled samples and the corpus hold no secret but customers' emails: --redact
    replaces those and leaves every id, hash, amount and timestamp as it was."""
    plain = jsonl(run_cli("expand", str(source), "--include-detached", "-f", "jsonl").stdout)
    red = jsonl(
        run_cli("expand", str(source), "--include-detached", "-f", "jsonl", "--redact").stdout
    )
    kinds = Counter(r["kind"] for row in red for r in row["redactions"])
    assert set(kinds) <= {"email"}, kinds
    for before, after in zip(plain, red, strict=True):
        if not after["redactions"]:
            assert {k: after[k] for k in before if k != "redactions"} == before
            continue
        text = json.dumps({k: before[k] for k in before}, ensure_ascii=False)
        for token in re.findall(
            r"\b(?:[A-Z]{2,5}-\d{3,}|[0-9a-f]{7,40}|\$\d[\d,.]*|\d{4}-\d{2}-\d{2}T[\d:.]+Z?)\b",
            text,
        ):
            assert token in json.dumps(after, ensure_ascii=False), token


def test_grep_finds_what_the_redaction_wrote(planted: str, tmp_path: Path) -> None:
    """The placeholder is in the redacted text, not in the file's bytes: the raw-bytes
    prefilter is off under --redact, so a search for it finds it, with any number of
    workers."""
    (tmp_path / "key").write_text(KEY)
    red = ["--redact", "--redact-key-file", str(tmp_path / "key")]
    one = run_cli("grep", "redacted:email", planted, "-f", "jsonl", *red)
    assert one.exit_code == 0, one.stderr
    two = run_cli("grep", "redacted:email", planted, planted, "-j", "2", "-f", "jsonl", *red)
    assert two.exit_code == 0, two.stderr
    assert jsonl(two.stdout) == jsonl(one.stdout) * 2
