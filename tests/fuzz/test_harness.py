"""The fuzzer itself: deterministic mutants, classified outcomes, hangs and crashes caught."""

from __future__ import annotations

import ast
import json
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from foldctl.errors import FoldctlError
from tools.fuzz import harness, mutants, mutators, outcome, pace
from tools.fuzz import targets as adapter
from tools.fuzz.outcome import TargetResult

pytestmark = pytest.mark.fuzz

FUZZ = Path(harness.__file__).parent


@pytest.fixture(scope="module")
def corpus() -> list[mutators.Seed]:
    return mutators.load_corpus(max_seed_bytes=200_000)


def test_only_the_adapter_imports_foldctl() -> None:
    importers = set()
    for path in FUZZ.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            if any(n == "foldctl" or n.startswith("foldctl.") for n in names):
                importers.add(path.name)
    assert importers == {"targets.py", "mcp_target.py"}  # the MCP server's target beside it


def test_preload_imports_every_module_the_targets_run() -> None:
    loaded = adapter.preload()
    assert {"foldctl.cli.commands.grep", "foldctl.render.html", "foldctl.claims.check"} <= set(
        loaded
    )
    assert all(name in sys.modules for name in loaded)


def test_corpus_skips_oracles_and_finds_every_kind(corpus: list[mutators.Seed]) -> None:
    assert not [s for s in corpus if s.name.endswith(".expected.json")]
    assert {s.kind for s in corpus} == {"json", "gz", "db", "jsonl"}
    names = {s.name for s in corpus}
    assert {"sample_checkpoints/claude_code_session.jsonl", "generated/codex-remote.jsonl"} <= names


def test_mutants_are_deterministic(corpus: list[mutators.Seed]) -> None:
    for index in range(60):
        a = mutants.make_mutant(corpus, 5, index, mutators.QUICK)
        b = mutants.make_mutant(corpus, 5, index, mutators.QUICK)
        assert a.chain == b.chain
        if not any(step.startswith("wal(") for step in a.chain):  # a WAL holds random salts
            assert a.data == b.data, a.chain


def test_a_large_seed_is_picked_less_often_in_proportion(tmp_path: Path) -> None:
    # A mutant costs time in proportion to its size: a seed eight times the light size
    # gets an eighth of a small seed's share, so one large file cannot take the run.
    small = mutators.SAMPLES / "one_fold_conversation.json"
    doc = json.loads(small.read_bytes())
    doc["history"][0]["content"] = "x" * (8 * mutants.LIGHT_SEED_BYTES)
    (tmp_path / "small.json").write_bytes(small.read_bytes())
    (tmp_path / "large.json").write_text(json.dumps(doc))
    corpus = mutators.load_corpus((tmp_path,))
    picked = Counter(
        mutants.make_mutant(corpus, 3, index, mutators.QUICK).seed.name for index in range(900)
    )
    large = picked[f"{tmp_path.name}/large.json"]
    assert picked[f"{tmp_path.name}/small.json"] + large == 900
    assert 60 <= large <= 150, picked  # 900 / (1 + 1/8) / 8 = 100 expected


def test_every_json_mutator_writes_bytes(corpus: list[mutators.Seed]) -> None:
    seed = next(s for s in corpus if s.name.endswith("nested_chain.json"))
    for name, (fn, _) in mutators.JSON_MUTATORS.items():
        doc = mutators.Doc(json.loads(seed.text))
        label = fn(random.Random(name), doc, mutators.QUICK, lambda: mutators.Doc({"a": [1]}))
        assert label.startswith(name.split("-")[0]), (name, label)
        assert isinstance(doc.to_bytes(), bytes)


def test_raw_markers_are_written_verbatim() -> None:
    doc = mutators.Doc({"role": "user", "content": "x"})
    doc.value = {doc.marker(b'"role"'): "assistant", **doc.value}
    doc.value["n"] = doc.marker(b"1e400")
    doc.value["content"] = "a" + doc.marker(b"\xff", quoted=False) + "b"
    assert doc.to_bytes() == b'{"role":"assistant","role":"user","content":"a\xffb","n":1e400}'


def test_lone_surrogates_are_written_as_escapes() -> None:
    assert mutators.dump({"c": "a\ud800b"}) == b'{"c":"a\\ud800b"}'


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("a\x1b[31m", "ESC"),
        ("\x00", "NUL"),
        ("a\rb", "CR"),
        ("\x9b", "C1"),
        ("\x7f", "DEL"),
        ("\u202e", "bidi"),
        ("\u2066", "bidi"),
        ("\u061c", "bidi"),
        ("\ud800", "lone-surrogate"),
    ],
)
def test_unsafe_characters_are_found(text: str, kind: str) -> None:
    found = outcome.unsafe_char("ok " + text)
    assert found is not None and found[1] == kind


def test_tab_newline_and_printable_text_are_safe() -> None:
    assert outcome.unsafe_char("a\tb\nc \u00e9 \u6458\u8981 \U0001f600 \\x1b") is None


def test_a_multi_line_error_is_unsafe() -> None:
    assert outcome.error_problem("f.json: bad") is None
    assert outcome.error_problem("f.json: bad\nfoldctl: error: forged") is not None


def _outcome(fn: adapter.TargetFn) -> harness.Outcome:
    return harness.run_target(fn, b"{}", "x.json", 0, "t")


def test_run_target_classifies_how_a_target_ends() -> None:
    def refused(data: bytes, name: str) -> TargetResult:
        raise adapter.EXPECTED_ERROR("x.json: byte 0: not JSON")

    class Unescaped(FoldctlError):  # foldctl's own errors escape their line breaks
        def __str__(self) -> str:
            return str(self.args[0])

    def forged(data: bytes, name: str) -> TargetResult:
        raise Unescaped("x.json: bad\nfoldctl: error: forged")

    def crashed(data: bytes, name: str) -> TargetResult:
        raise TypeError("'bool' object is not iterable")

    def too_big(data: bytes, name: str) -> TargetResult:
        raise outcome.OutputBudgetExceeded("expand text", 10)

    def out_of_memory(data: bytes, name: str) -> TargetResult:
        raise MemoryError

    def unsafe_text(data: bytes, name: str) -> TargetResult:
        return TargetResult(text_outputs=["ok", "bad \x1b]0;t\x07"])

    def disagree(data: bytes, name: str) -> TargetResult:
        return TargetResult(disagreement="fast path loads what the exact path refuses")

    def fine(data: bytes, name: str) -> TargetResult:
        return TargetResult(["plain\ttext\n"], [b"\x1b is fine in JSON"])

    assert _outcome(refused).cls == outcome.REFUSED
    assert _outcome(forged).cls == outcome.UNSAFE
    crash = _outcome(crashed)
    assert (crash.cls, crash.exc_type) == (outcome.UNEXPECTED, "TypeError")
    assert _outcome(too_big).cls == outcome.BLOWUP
    assert _outcome(out_of_memory).cls == outcome.MEMORY
    assert _outcome(unsafe_text).exc_type == "ESC"
    assert _outcome(disagree).cls == outcome.DISAGREE
    assert _outcome(fine).cls == outcome.ACCEPTED


def test_innermost_foldctl_frame_is_named() -> None:
    from foldctl.load.exact import load_document

    try:
        load_document([], "x.json")
    except adapter.EXPECTED_ERROR as e:
        frame = harness.innermost_frame(e.__traceback__)
    assert frame.startswith("foldctl/load/exact.py:") and " in " in frame


def test_pristine_samples_pass_the_core_targets(
    corpus: list[mutators.Seed], tmp_path: Path
) -> None:
    names = ("load", "resolve", "show", "expand-text", "expand-jsonl", "tables", "verify")
    for seed in corpus:
        if seed.kind == "db" or seed.name.startswith("conformance/"):
            continue
        path = tmp_path / seed.path.name
        path.write_bytes(seed.raw)
        for result in harness.replay(path, names, show=lambda _: None):
            assert result.cls == outcome.ACCEPTED, (seed.name, result)


def _sleepy(data: bytes, name: str) -> TargetResult:
    time.sleep(30)
    return TargetResult()


def _spins(data: bytes, name: str) -> TargetResult:
    end = time.monotonic() + 30
    while time.monotonic() < end:  # computes without end: hung by its CPU time
        pass
    return TargetResult()


def _waits(data: bytes, name: str) -> TargetResult:
    # Past its allowance on the wall clock while using no CPU, as a target does on a
    # machine busy with other work: slow, not hung.
    time.sleep(1.2)
    return TargetResult(["ok"])


def _dies(data: bytes, name: str) -> TargetResult:
    os._exit(3)


def _greedy(data: bytes, name: str) -> TargetResult:
    block = b"x" * (1 << 34)  # 16 GB: past the cap
    return TargetResult(machine_outputs=[block])


def _fine(data: bytes, name: str) -> TargetResult:
    return TargetResult(["ok"])


def _writes(data: bytes, name: str) -> TargetResult:
    Path(name.partition("#")[0] + "-wal").write_bytes(b"")  # evidence must stay read-only
    return TargetResult()


def _sees_pristine_files(data: bytes, name: str) -> TargetResult:
    files = sorted(p.name for p in Path.cwd().iterdir() if p.name != "stack.txt")
    assert not any(f.endswith("-wal") for f in files), files
    return TargetResult(["ok"])


def test_the_pool_catches_hangs_crashes_and_memory(
    corpus: list[mutators.Seed], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    both = frozenset({"file", "store"})
    fake = (
        adapter.Target("resolve", _fine, both, needs_graph=False),
        adapter.Target("sleepy", _sleepy, both, needs_graph=False),
        adapter.Target("spins", _spins, both, needs_graph=False),
        adapter.Target("waits", _waits, both, needs_graph=False),
        adapter.Target("dies", _dies, both, needs_graph=False),
        adapter.Target("greedy", _greedy, both, needs_graph=False),
        adapter.Target("writes", _writes, frozenset({"file"}), needs_graph=False),
        adapter.Target("after", _sees_pristine_files, frozenset({"file"}), needs_graph=False),
    )
    monkeypatch.setattr(adapter, "TARGETS", fake)
    monkeypatch.setattr(adapter, "TARGET_NAMES", tuple(t.name for t in fake))
    config = harness.Config(
        seed=3,
        count=2, timeout=0.5, timeout_per_mb=0, memory_cap_mb=1024, out_dir=tmp_path / "out",
        max_hangs_per_case=5, progress=False, cli_every=0, max_seed_bytes=200_000, quick=True,
    )  # fmt: skip
    summary = harness.Harness(config, corpus).run()
    by_target = {t: dict(c) for t, c in summary.by_target.items()}
    assert by_target["sleepy"] == {outcome.HANG: 2}  # stopped at 4x its allowance
    assert by_target["spins"] == {outcome.HANG: 2}  # stopped when its CPU time is spent
    assert by_target["waits"] == {outcome.ACCEPTED: 2}
    hangs = {sig.target: sig.message for sig in summary.signatures.values() if sig.cls == "hang"}
    assert "of CPU" in hangs["spins"], hangs
    assert by_target["dies"] == {outcome.CRASH: 2}
    assert by_target["greedy"] == {outcome.MEMORY: 2}
    assert by_target["writes"] == {outcome.WROTE: 2}
    assert by_target["after"] == {outcome.ACCEPTED: 2}  # the case goes on, its files restored
    saved = sorted(p.name for p in (tmp_path / "out").glob("*.meta.json"))
    assert len(saved) == 5  # one reproducer per signature, two cases each


def test_a_replay_that_overruns_once_is_run_again_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A replay past its CPU limit once (a shared machine's slow moment) is run again; only
    one that overruns again is a hang."""
    marker = tmp_path / "ran-once"

    def slow_once(data: bytes, name: str) -> TargetResult:
        if not marker.exists():
            marker.write_text("")
            return _spins(data, name)
        return TargetResult(["ok"])

    both = frozenset({"file", "store"})
    fake = (adapter.Target("spins", _spins, both, needs_graph=False),
            adapter.Target("slow-once", slow_once, both, needs_graph=False))  # fmt: skip
    monkeypatch.setattr(adapter, "TARGETS", fake)
    case = tmp_path / "case.json"
    case.write_text("{}")
    jobs = [harness.ReplayJob(case, "spins", 0.3), harness.ReplayJob(case, "slow-once", 0.3)]
    results = harness.run_many(jobs)
    assert [(r.target, r.cls) for r in results] == [
        ("spins", outcome.HANG),
        ("slow-once", outcome.ACCEPTED),
    ]
    assert marker.exists()  # it did overrun the first time


def test_a_concatenated_gzip_counts_every_member() -> None:
    """The output budget follows what a gzip decompresses to: the trailer's size speaks
    only for the last member of a concatenated file."""
    import gzip

    data = gzip.compress(b"x" * 600_000) + gzip.compress(b"y")
    assert int.from_bytes(data[-4:], "little") == 1
    assert outcome.input_size(data) == 600_001
    assert outcome.input_size(data[:-9]) >= len(data) - 9  # broken off: never below the stored size


# --------------------------------------------------------------------------- new mutations


def test_every_session_mutator_writes_lines(corpus: list[mutators.Seed]) -> None:
    from tools.fuzz import sessions

    for seed in (s for s in corpus if s.kind == "jsonl"):
        for name, (fn, _) in sessions.SESSION_MUTATORS.items():
            doc = mutators.Doc(None)
            doc.value = sessions.parse(seed.text, doc)
            label = fn(random.Random(name), doc.value, mutators.QUICK, doc)
            assert label.startswith(name.split("-")[0]), (name, label)
            out = sessions.write(doc)
            assert out.endswith(b"\n") and out.count(b"\n") >= seed.text.count(b"\n") - 1


def test_session_mutants_break_chains_and_lines(corpus: list[mutators.Seed]) -> None:
    """Over a few hundred cases, the session seeds get every session mutation."""
    seen: Counter[str] = Counter()
    for index in range(600):
        mutant = mutants.make_mutant(corpus, 1, index, mutators.QUICK)
        if mutant.kind.startswith("jsonl"):
            seen.update(label.split("(")[0] for label in mutant.chain)
    from tools.fuzz.sessions import SESSION_MUTATORS

    assert set(SESSION_MUTATORS) <= set(seen), seen


def test_plant_secret_plants_what_the_leak_check_finds() -> None:
    from tools.fuzz import planted

    seed = json.loads((mutators.SAMPLES / "nested_chain.json").read_text())
    kinds: Counter[str] = Counter()
    for n in range(80):
        doc = mutators.Doc(json.loads(json.dumps(seed)))
        label = mutators.plant_secret(random.Random(n), doc)
        kinds[label.split(",")[-1].rstrip(")").split(" ")[0]] += 1
        assert planted.leaked(doc.to_bytes()) is not None, label
    assert {"summaryFingerprint", "model", "collision", "unknown", "content"} <= set(kinds), kinds


def test_claim_summaries_and_long_labels_still_join() -> None:
    """The summary rewrites keep the span's fingerprint in step: the frame still joins."""
    import foldctl

    seed = (mutators.SAMPLES / "nested_chain.json").read_text()
    for name in ("claim-summary", "many-sentences", "long-label"):
        for n in range(6):
            doc = mutators.Doc(json.loads(seed))
            label = mutators.JSON_MUTATORS[name][0](
                random.Random(n), doc, mutators.QUICK, lambda: mutators.Doc({})
            )
            opened = foldctl.open(foldctl.RawSource("m.json", doc.to_bytes()))
            unresolved = [r for r in opened.graph.frames.values() if r.span is None]
            assert not unresolved or "runId" in label or "content" in label, label


def test_redaction_leaves_no_planted_secret_in_any_field(tmp_path: Path) -> None:
    """A secret in every string field foldctl reads or carries (fingerprints shared by two
    spans, models, run ids, stage ids, tool-call ids, unknown fields; a session's uuids,
    session id, cwd): ``--redact`` output of every command holds none of them."""
    from tools.fuzz import planted

    secrets = planted.SECRETS
    doc = json.loads((mutators.SAMPLES / "tool_calls.json").read_text())
    conv = doc.get("data", {}).get("conversation", doc) if "data" in doc else doc
    spans = conv["folded"]
    if len(spans) >= 2:
        spans[0]["summaryFingerprint"] = spans[1]["summaryFingerprint"] = secrets[0].text
    spans[0]["model"] = secrets[1].text
    spans[0]["runId"] = secrets[2].text
    spans[0]["removedStageIds"] = [secrets[3].text]
    for message in conv["history"]:
        for call in message.get("toolCalls") or ():
            call["id"] = secrets[4].text
        message["x-trace"] = {"nested": [secrets[0].text]}
    cases = {"case.json": mutators.dump(doc)}
    records = [json.loads(ln) for ln in (mutators.SAMPLES / "claude_code_session.jsonl").open()]
    for n, record in enumerate(records):
        secret = secrets[n % len(secrets)]
        key = ("cwd", "sessionId", "gitBranch", "x-note")[n % 4]
        record[key] = secret.text
    cases["case.jsonl"] = b"".join(mutators.dump(r) + b"\n" for r in records)
    here = Path.cwd()
    os.chdir(tmp_path)
    try:
        for name, data in cases.items():
            Path(name).write_bytes(data)
            assert planted.leaked(data) is not None
            result = harness.run_target(adapter.redact, data, name, 0, "redact")
            assert result.cls == outcome.ACCEPTED, (name, result)
    finally:
        os.chdir(here)


def test_a_leak_is_its_own_class() -> None:
    from tools.fuzz import planted

    def leaks(data: bytes, name: str) -> TargetResult:
        return TargetResult(leaked=f"email: in text output: {planted.SECRETS[0].core}")

    assert _outcome(leaks).cls == outcome.LEAKED


def test_scale_longest_repeats_the_longest_string() -> None:
    data = b'{"a":"xy\\"z","b":"q","c":"' + b"w" * 50 + b'"}\n{"d":"e"}\n'
    scaled, length = mutators.scale_longest(data, "jsonl", 10) or (b"", 0)
    assert length == 50
    assert scaled == data.replace(b"w" * 50, b"w" * 500)
    assert mutators.scale_longest(b"\x1f\x8b broken", "gz") is None
    assert mutators.scale_longest(b"x", "db") is None


_SIZES: dict[str, int] = {}


def _spin(seconds: float) -> None:
    end = time.process_time() + min(seconds, 30.0)
    while time.process_time() < end:
        pass


def _quadratic(data: bytes, name: str) -> TargetResult:
    first = _SIZES.setdefault(name.rpartition("/")[2], len(data))  # the mutant's own size
    _spin(0.06 * (len(data) / first) ** 2)
    return TargetResult(["ok"])


def _linear(data: bytes, name: str) -> TargetResult:
    first = _SIZES.setdefault("linear " + name.rpartition("/")[2], len(data))
    _spin(0.06 * len(data) / first)
    return TargetResult(["ok"])


def test_the_scaling_check_flags_superlinear_targets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A target quadratic in its input is stopped at 20x its time on the mutant with its
    longest string 10x longer (``superlinear``, the scaled file saved); a linear one is not."""
    folder = tmp_path / "seeds"
    folder.mkdir()
    long_text = "word " * 40_000
    (folder / "long.json").write_text(json.dumps({"history": [{"content": long_text}]}))
    corpus = mutators.load_corpus((folder,))
    both = frozenset({"file", "store"})
    fake = (
        adapter.Target("resolve", _fine, both, needs_graph=False),
        adapter.Target("quadratic", _quadratic, both, needs_graph=False),
        adapter.Target("linear", _linear, both, needs_graph=False),
    )
    monkeypatch.setattr(adapter, "TARGETS", fake)
    monkeypatch.setattr(adapter, "TARGET_NAMES", tuple(t.name for t in fake))
    config = harness.Config(
        seed=3, count=2, timeout=20, out_dir=tmp_path / "out", progress=False, cli_every=0,
        quick=True, scale_every=1, jobs=1,
    )  # fmt: skip
    summary = harness.Harness(config, corpus).run()
    by_target = {t: dict(c) for t, c in summary.by_target.items()}
    assert by_target["quadratic"].get(outcome.SUPERLINEAR, 0) >= 1, by_target
    assert outcome.SUPERLINEAR not in by_target["linear"], by_target
    assert summary.scaled_runs["linear"] == 2
    meta = next((tmp_path / "out").glob("superlinear-quadratic-*.meta.json"))
    sidecar = json.loads(meta.read_text())
    assert sidecar["scaled"]["factor"] == 10
    mutant = (tmp_path / "out" / sidecar["file"]).stat().st_size
    assert (tmp_path / "out" / sidecar["scaled"]["file"]).stat().st_size > 2 * mutant
    lines = harness.report_lines(summary)
    assert any(line.startswith("scaling check") for line in lines)


def test_the_cli_targets_take_a_partial_sessions_note(tmp_path: Path) -> None:
    """A session file with a line that is not JSON: the command says on stderr that it is
    partial (a ``foldctl:`` note), which the CLI targets accept beside an error line."""
    lines = (mutators.SAMPLES / "codex_rollout.jsonl").read_bytes().splitlines(keepends=True)
    lines.insert(5, b"not json\n")
    path = tmp_path / "partial.jsonl"
    path.write_bytes(b"".join(lines))
    for command in ("show", "expand"):
        result = adapter.run_cli([command, str(path)])
        assert result.cli_problem is None, result.cli_problem
        assert not result.error_messages
        assert "is partial: line 6 is not JSON" in result.text_outputs[1]
    harness_result = adapter.run_cli(["show", str(tmp_path / "missing.jsonl")])
    assert harness_result.cli_problem is None and not harness_result.error_messages


@pytest.fixture
def slowdown(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], None]]:
    """Force :func:`pace.slowdown` to a value (measured again after the test)."""

    def force(value: str) -> None:
        monkeypatch.setenv(pace.ENV, value)
        pace.slowdown.cache_clear()

    yield force
    monkeypatch.delenv(pace.ENV, raising=False)
    pace.slowdown.cache_clear()


def test_a_slower_machine_gets_longer_time_limits(
    corpus: list[mutators.Seed], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    slowdown: Callable[[str], None],
) -> None:  # fmt: skip
    """A CI runner twice as slow met the limits set on a faster machine: each limit is
    multiplied by how much slower this machine runs a fixed piece of work."""
    config = harness.Config(timeout=2.0, timeout_per_mb=1.0)
    slowdown("1")
    assert config.target_timeout(1 << 20, runs=2) == pytest.approx(6.0)
    slowdown("0.5")  # a faster machine keeps the limits as written
    assert config.target_timeout(1 << 20, runs=2) == pytest.approx(6.0)
    slowdown("3")
    assert config.target_timeout(1 << 20, runs=2) == pytest.approx(18.0)
    both = frozenset({"file", "store"})
    fake = (adapter.Target("resolve", _fine, both, needs_graph=False),
            adapter.Target("spins", _spins, both, needs_graph=False))  # fmt: skip
    monkeypatch.setattr(adapter, "TARGETS", fake)
    monkeypatch.setattr(adapter, "TARGET_NAMES", tuple(t.name for t in fake))
    run = harness.Config(
        seed=3, count=1, timeout=0.2, timeout_per_mb=0, out_dir=None, progress=False,
        cli_every=0, max_seed_bytes=200_000, quick=True, scale_every=0, jobs=1,
    )  # fmt: skip
    summary = harness.Harness(run, corpus).run()
    hang = next(sig.message for sig in summary.signatures.values() if sig.cls == "hang")
    assert "(0.6 s of CPU allowed)" in hang, hang
    assert "(x3.00 for this machine's pace)" in harness.report_lines(summary)[0]


def test_the_pace_of_this_machine_is_measured() -> None:
    assert pace.measure() > 0
    assert pace.slowdown() >= 1.0
