"""Hostile session files, as a user meets them on the command line: chains 100,000 records
long, loops of parents, a record that is its own parent, a line that is not JSON in the
middle of the file; and the defects the fuzzer's session seeds and new mutations found
(each rebuilt here from a bundled sample with the fuzzer's own mutators)."""

from __future__ import annotations

import json
import random
from decimal import Decimal
from pathlib import Path
from typing import Any

from tests.support import SAMPLES, jsonl, run_cli
from tools.fuzz import mcp_target, mutators, sessions
from tools.fuzz import targets as adapter

CLAUDE = SAMPLES / "claude_code_session.jsonl"
CODEX = SAMPLES / "codex_rollout.jsonl"


def _records(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _write(path: Path, records: list[Any]) -> str:
    path.write_bytes(b"".join(mutators.dump(r) + b"\n" for r in records))
    return str(path)


def test_a_chain_of_100000_records_is_walked_without_the_python_stack(tmp_path: Path) -> None:
    """A fold whose originals are a chain of 100,000 records: far past Python's recursion
    limit (1,000), so only a walk with an explicit loop finishes."""
    records = _records(CLAUDE)
    sessions._claude_chain(random.Random(1), records, 100_000)
    source = _write(tmp_path / "long.jsonl", records)
    shown = run_cli("show", source, "-f", "json")
    assert shown.exit_code in (0, 1), shown.stderr
    assert "Traceback" not in shown.stderr
    folds = json.loads(shown.stdout)["tree"]
    counts = [node["messageCount"] for node in _nodes(folds)]
    assert max(counts) >= 100_000  # the last fold holds the whole chain
    expanded = run_cli("expand", source, "-f", "jsonl")
    assert expanded.exit_code == 0, expanded.stderr
    texts = {_text(row) for row in jsonl(expanded.stdout)}
    assert {"step 0", "step 99999"} <= texts  # both ends of the chain are put back


def test_a_codex_rollout_of_100000_items_is_folded(tmp_path: Path) -> None:
    records = _records(CODEX)
    sessions._codex_chain(records, 100_000)
    source = _write(tmp_path / "long.jsonl", records)
    expanded = run_cli("expand", source, "-f", "jsonl")
    assert expanded.exit_code == 0, expanded.stderr
    assert "step 99999" in expanded.stdout


def _nodes(tree: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found, stack = [], list(tree)
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(node.get("children", ()))
    return found


def _text(row: dict[str, Any]) -> str:
    message = row.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
    return ""


def _uuids(records: list[Any]) -> list[dict[str, Any]]:
    return [r for r in records if isinstance(r, dict) and isinstance(r.get("uuid"), str)]


def test_a_loop_of_parents_is_a_finding_not_a_hang(tmp_path: Path) -> None:
    records = _records(CLAUDE)
    linked = _uuids(records)
    linked[2]["parentUuid"] = linked[6]["uuid"]  # 2 -> 6 -> 5 -> 4 -> 3 -> 2
    source = _write(tmp_path / "loop.jsonl", records)
    verified = run_cli("verify", source)
    assert verified.exit_code == 1, verified.stderr
    assert "chain-cycle" in verified.stdout
    for command in ("show", "expand", "claims"):
        ran = run_cli(command, source)
        assert ran.exit_code in (0, 1), (command, ran.stderr)


def test_a_record_that_is_its_own_parent_is_a_cycle(tmp_path: Path) -> None:
    records = _records(CLAUDE)
    record = _uuids(records)[4]
    record["parentUuid"] = record["uuid"]
    source = _write(tmp_path / "self.jsonl", records)
    verified = run_cli("verify", source)
    assert verified.exit_code == 1
    assert "chain-cycle" in verified.stdout
    assert run_cli("expand", source).exit_code == 0


def test_a_boundary_pointing_nowhere_has_its_originals_missing(tmp_path: Path) -> None:
    records = _records(CLAUDE)
    bound = next(r for r in records if r.get("subtype") == "compact_boundary")
    bound["logicalParentUuid"] = "00000000-0000-4000-8000-000000000000"
    source = _write(tmp_path / "nowhere.jsonl", records)
    verified = run_cli("verify", source)
    assert verified.exit_code == 1
    assert "originals-missing" in verified.stdout or "broken-chain" in verified.stdout
    assert run_cli("expand", source).exit_code == 0


def test_duplicate_uuids_with_different_content_read_the_first(tmp_path: Path) -> None:
    records = _records(CLAUDE)
    first = _uuids(records)[0]
    copy = json.loads(json.dumps(first))
    copy["message"]["content"] = "a later copy that says something else"
    records.append(copy)
    source = _write(tmp_path / "dup.jsonl", records)
    verified = run_cli("verify", source)
    assert "duplicate-record" in verified.stdout
    expanded = run_cli("expand", source)
    assert "a later copy that says something else" not in expanded.stdout
    assert first["message"]["content"] in expanded.stdout


def test_a_line_that_is_not_json_is_named_and_the_rest_is_read(tmp_path: Path) -> None:
    for sample, label in ((CLAUDE, "claude"), (CODEX, "codex")):
        lines = sample.read_bytes().splitlines(keepends=True)
        lines.insert(9, b'{"type":"user","message":\n')  # line 10, cut short
        source = tmp_path / f"{label}.jsonl"
        source.write_bytes(b"".join(lines))
        kinds = (b'"type":"response_item"', b'"type":"user"', b'"type":"assistant"')
        last = max(n for n, ln in enumerate(lines, 1) if any(k in ln for k in kinds))
        verified = run_cli("verify", str(source))
        assert verified.exit_code == 1
        assert "bad-line" in verified.stdout and "Line 10 is not JSON" in verified.stdout
        for command in ("show", "expand", "spans"):
            ran = run_cli(command, str(source))
            assert ran.exit_code == 0, (label, command, ran.stderr)
            assert f"{source} is partial: line 10 is not JSON" in ran.stderr, (label, command)
        shown = run_cli("show", str(source), "-f", "json")
        assert json.loads(shown.stdout)["partial"] is True
        rows = jsonl(run_cli("expand", str(source), "-f", "jsonl").stdout)
        read = {row.get("line") for row in rows}
        assert last in read and 11 in read, label  # read past the bad line, to its last message


def test_a_file_read_whole_says_nothing_on_standard_error(tmp_path: Path) -> None:
    for sample in (CLAUDE, CODEX):
        ran = run_cli("expand", str(sample))
        assert ran.exit_code == 0 and ran.stderr == ""


def test_diff_of_a_session_before_and_after_a_second_compaction(tmp_path: Path) -> None:
    """A fold added between two copies of a session: its model and iteration are not
    recorded by the runtime (the text detail printed None into a TypeError)."""
    lines = CLAUDE.read_bytes().splitlines(keepends=True)
    second = [i for i, ln in enumerate(lines) if b'"compact_boundary"' in ln][1]
    old = tmp_path / "before.jsonl"
    old.write_bytes(b"".join(lines[:second]))
    ran = run_cli("diff", str(old), str(CLAUDE))
    assert ran.exit_code in (0, 1), ran.stderr
    assert "spans added (1)" in ran.stdout
    assert "model not recorded" in ran.stdout and "iteration not recorded" in ran.stdout
    assert "None" not in ran.stdout


def _with_long_model(tmp_path: Path, model: str) -> str:
    doc = json.loads((SAMPLES / "one_fold_conversation.json").read_text())
    wrapped = mutators.Doc(doc)
    span = mutators.spans_of(wrapped)[0]
    old = span["model"]
    span["model"] = model
    mutators.rewrite_frame(
        wrapped, span, lambda text: text.replace(f"written by {old};", f"written by {model};")
    )
    path = tmp_path / "long-model.json"
    path.write_bytes(wrapped.to_bytes())
    return str(path)


def test_claims_on_a_label_of_a_million_digits(tmp_path: Path) -> None:
    """A frame label whose model is 300,000 digits: claims read it as a number, and its
    spellings were built with int() and str() (quadratic, refused past 4,300 digits)."""
    source = _with_long_model(tmp_path, "9" * 300_000)
    verified = run_cli("verify", source)
    assert "unresolved-frame" not in verified.stdout  # the frame still joins its span
    for command in ("claims", "expand"):
        ran = run_cli(command, source, *(("-f", "markdown") if command == "expand" else ()))
        assert ran.exit_code in (0, 1), (command, ran.stderr)


def test_number_spellings_are_unchanged_and_read_off_the_digits() -> None:
    from foldctl.claims.atoms import number_spellings

    assert number_spellings(Decimal("1204.50"))[:2] == ("1204.5", "1204.50")
    assert "1.234.567" in number_spellings(Decimal("1234567"))
    assert number_spellings(Decimal("1E+3"))[0] == "1000"
    huge = number_spellings(Decimal("9" * 100_000))  # int() refused it; str() was quadratic
    assert huge[0].isdigit() and len(huge[0]) > 99_999


def test_mcp_folds_of_a_rollout_that_records_no_run(tmp_path: Path) -> None:
    records = [r for r in _records(CODEX) if r.get("type") != "session_meta"]
    source = _write(tmp_path / "no-meta.jsonl", records)
    shown = json.loads(run_cli("show", source, "-f", "json").stdout)
    assert "runId" not in shown
    result = mcp_target.mcp(Path(source).read_bytes(), source)  # no internal error
    assert result.machine_outputs


def _many_sentences(tmp_path: Path, count: int) -> Path:
    doc = mutators.Doc(json.loads((SAMPLES / "one_fold_conversation.json").read_text()))
    span = mutators.spans_of(doc)[0]
    body = " ".join(mutators._claim_sentences(random.Random(3), span, count))
    mutators.rewrite_frame(doc, span, lambda old: mutators._summary_of(old)[0] + body)
    path = tmp_path / f"sentences-{count}.json"
    path.write_bytes(doc.to_bytes())
    return path


def test_claims_stay_within_the_fuzzers_time_limit_on_hostile_summaries(tmp_path: Path) -> None:
    """What the scaling check and the time limit caught, replayed as the regressions are
    (each target in a child process, 2 s of CPU per command plus 0.5 s per MB): a summary
    of 3,000 claim-shaped sentences (each atom looked for its sentence, clause and
    neighbours among all of them: 10 s), a frame label of 300,000 digits (``int()`` of it
    as a count: 6 s), and a count of 6,000 digits (``int()`` refused it: a traceback)."""
    from tools.fuzz.harness import ReplayJob, run_many

    long_model = Path(_with_long_model(tmp_path, "9" * 300_000))
    big = "9" * 6_000
    doc = mutators.Doc(json.loads((SAMPLES / "one_fold_conversation.json").read_text()))
    summary = f"Ran {big} tests; {big} passed. Paid ${big}.50 for {big} items."
    mutators.rewrite_frame(
        doc, mutators.spans_of(doc)[0], lambda old: mutators._summary_of(old)[0] + summary
    )
    wide = tmp_path / "wide-count.json"
    wide.write_bytes(doc.to_bytes())
    runs = {t.name: t.runs for t in adapter.TARGETS}
    jobs = []
    for path in (_many_sentences(tmp_path, 3_000), long_model, wide):
        limit = 2.0 + 0.5 * path.stat().st_size / (1 << 20)
        for target in ("claims", "expand-markdown", "report-html"):
            jobs.append(ReplayJob(path, target, limit * runs[target]))
    results = run_many(jobs, processes=2)
    failed = [f"{r.target}: {r.cls} {r.frame} {r.message}" for r in results if r.cls != "accepted"]
    assert not failed, "\n".join(failed)


def test_an_unknown_envelope_format_is_quoted_short(tmp_path: Path) -> None:
    """An envelope whose ``format`` is 1.3 million characters: the error quoted all of it
    (a 4.8 MB stderr line, an MCP answer past its byte budget)."""
    doc = json.loads((SAMPLES / "envelope_paused.json").read_text())
    doc["format"] = "\U0001f469\u200d\U0001f4bb" * 100_000
    path = tmp_path / "wide-format.json"
    path.write_text(json.dumps(doc))
    ran = run_cli("show", str(path))
    assert ran.exit_code == 2
    assert "unknown envelope format" in ran.stderr and "(300000 characters)" in ran.stderr
    assert len(ran.stderr) < 400
    from foldctl.mcp import configure
    from foldctl.mcp.tools import call

    server = configure([str(tmp_path)], max_bytes=mcp_target.BUDGET)
    answer = call(server, "folds", {"source": str(path)})
    assert answer.is_error and len(answer.text.encode()) <= mcp_target.BUDGET


def test_redact_replaces_a_secret_among_microcompacted_tool_use_ids(tmp_path: Path) -> None:
    """``show --redact`` listed a microcompaction's tool-use ids as written: a secret there
    (the fuzzer planted a JWT) reached the output."""
    from tools.fuzz import planted
    from tools.generate_sessions import claude_cases

    data = claude_cases()["microcompact.jsonl"]
    record = next(json.loads(ln) for ln in data.splitlines() if b'"microcompact_boundary"' in ln)
    first = record["microcompactMetadata"]["compactedToolIds"][0]
    secret = planted.SECRETS[3]  # a JWT
    path = tmp_path / "micro.jsonl"
    path.write_bytes(data.replace(first.encode(), secret.text.encode()))
    plain = run_cli("show", str(path), "-f", "json")
    assert secret.core in plain.stdout  # shown without --redact
    for fmt in ("json", "text"):
        ran = run_cli("show", str(path), "-f", fmt, "--redact")
        assert ran.exit_code == plain.exit_code
        assert secret.core not in ran.stdout, fmt
        if fmt == "json":
            assert "[redacted:jwt:" in ran.stdout


def _derivable_by_every_pair(
    value: Decimal, numbers: list[Decimal], *, percent: bool, places: int
) -> bool:
    """The definition of a derived value, pair by pair (what ``derivable`` answered with
    before it looked partners up in sorted windows)."""
    if value == 0:
        return False
    tolerance = Decimal(5) * Decimal(10) ** (-(places + 1))
    values = list(dict.fromkeys(n for n in numbers if n != 0))[:80]
    target = abs(value)

    def near(candidate: Decimal) -> bool:
        return abs(candidate - target) <= tolerance

    for i, a in enumerate(values):
        if near(a):
            return True
        for b in values[i + 1 :]:
            if percent:  # a share, or a change from one to the other
                if near(a / b * 100) or near(b / a * 100):
                    return True
                if near(abs(a - b) / b * 100) or near(abs(a - b) / a * 100):
                    return True
            elif near(a + b) or near(abs(a - b)) or near(a * b) or near(a / b) or near(b / a):
                return True
    if percent:
        return False
    for i in range(len(values)):
        total = Decimal(0)
        for b in values[i : i + 12]:
            total += b
            if near(total):
                return True
    return False


def test_derived_values_are_found_as_every_pair_finds_them() -> None:
    """``derivable`` (a sum, difference, product, ratio or run of the originals' numbers)
    searches sorted windows now; on thousands of random cases, many of them built to be a
    sum or a ratio give or take a rounding, it answers as trying every pair does."""
    from foldctl.claims.derived import derivable

    rng = random.Random(5)

    def number() -> Decimal:
        pick = rng.random()
        if pick < 0.3:
            return Decimal(rng.randint(-50, 500))
        if pick < 0.7:
            return Decimal(rng.randint(0, 99_999)) / 100
        return Decimal(rng.randint(1, 10**6)) / Decimal(10 ** rng.randint(0, 4))

    agreed = found = 0
    for _ in range(4_000):
        numbers = [number() for _ in range(rng.randint(0, 40))]
        places = rng.choice([0, 1, 2])
        value = number()
        if len(numbers) > 1 and rng.random() < 0.6:
            a, b = rng.sample(numbers, 2)
            made = rng.choice(
                [a + b, abs(a - b), a * b, a / b if b else a, a / b * 100 if b else a]
            )
            value = made.quantize(Decimal(1).scaleb(-places)) + rng.choice(
                [Decimal(0), Decimal("0.01"), Decimal("-0.004")]
            )
        percent = rng.random() < 0.3
        expected = _derivable_by_every_pair(value, numbers, percent=percent, places=places)
        assert derivable(value, numbers, percent=percent, places=places) == expected
        agreed += 1
        found += expected
    assert agreed == 4_000 and 500 < found < 3_500  # both answers well represented
