"""Hostile checkpoints: each failure the fuzzer found, as the behaviour a user sees now.

The reproducers are the fuzzer's own minimal files (tests/fuzz/regressions/,
described in its README); tests/fuzz/test_regressions.py checks that each is
accepted or refused under every target.  Here each one is held to what the
reliability rules promise: one line naming the place, the same verdict
whichever reader reads the file, text a terminal shows as written, output and
memory linear in the input.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foldctl import jsoncodec
from foldctl.errors import InputError
from foldctl.formats.source import load_bytes
from foldctl.load.exact import load_document
from tests.support import REPO, SAMPLES, jsonl, run_cli
from tests.support.builders import Convo, write_doc
from tools.fuzz import mutators, targets

REGRESSIONS = REPO / "tests" / "fuzz" / "regressions"
#: What a terminal must never receive: C0 controls but tab and newline, DEL, C1, bidi
#: overrides and isolates, lone surrogates.
UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)


def reproducer(name: str, tmp_path: Path) -> Path:
    """A reproducer as a plain file (decompressed when it is stored gzipped)."""
    source = REGRESSIONS / name
    if name.endswith(".gz"):
        target = tmp_path / name.removesuffix(".gz")
        target.write_bytes(gzip.decompress(source.read_bytes()))
        return target
    return source


def one_error_line(result_stderr: str) -> str:
    lines = result_stderr.strip().splitlines()
    assert len(lines) == 1, result_stderr
    assert lines[0].startswith("foldctl: error: "), lines
    assert "Traceback" not in result_stderr
    return lines[0]


# --------------------------------------------------------------------------- nesting


def _read_everything(data: bytes, name: str) -> None:
    """Load on the default path and decode every retained message (as verify does)."""
    checkpoint = load_bytes(data, name)
    for span in checkpoint.spans:
        list(span.messages or ())


def _nested_call_id(tmp_path: Path, depth: int) -> Path:
    c = Convo()
    c.add("user", "go")
    c.add("assistant", "", toolCalls=[{"id": "c1", "name": "lookup", "args": {}}])
    c.add("tool", "ok", toolCallId="c1", toolName="lookup")
    c.fold(1, 3, "Summary 1: looked it up.")
    data = jsoncodec.dumps(c.checkpoint())
    deep = b"[" * depth + b"1" + b"]" * depth
    return write_bytes(
        tmp_path / "deep.json", data.replace(b'"toolCallId":"c1"', b'"toolCallId":' + deep, 1)
    )


def write_bytes(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("where", ["retained message", "version"])
def test_nesting_past_the_limit_gets_one_verdict_from_both_readers(
    where: str, tmp_path: Path
) -> None:
    """Nesting past 1024 levels, in a retained message or where a field belongs: the same
    one line, naming the JSON path and the limit, from the fast reader (when it reads the
    message), the exact reader, and every command."""
    if where == "version":
        doc = json.loads((SAMPLES / "one_fold_conversation.json").read_bytes())
        data = json.dumps(doc).replace(
            '"version": 1', '"version": ' + "[" * 1100 + "1" + "]" * 1100, 1
        )
        source = write_bytes(tmp_path / "deep.json", data.encode())
    else:
        source = _nested_call_id(tmp_path, 1100)
    data_bytes, name = source.read_bytes(), str(source)
    with pytest.raises(InputError) as fast:
        _read_everything(data_bytes, name)
    with pytest.raises(InputError) as exact:
        load_document(jsoncodec.loads(data_bytes, name), name)
    assert str(fast.value) == str(exact.value)
    assert "deeper than 1024 levels" in str(fast.value)
    assert fast.value.where not in ("", "(top level)")
    page = str(tmp_path / "r.html")
    for argv in (
        ["expand", name],
        ["verify", name],
        ["grep", "a", name],
        ["report", name, "-o", page],
    ):
        result = run_cli(*argv)
        assert result.exit_code == 2, argv
        assert one_error_line(result.stderr) == f"foldctl: error: {fast.value}"


def test_nesting_within_the_limit_is_quoted_briefly() -> None:
    """A version nested a thousand deep (within the limit) is refused as a version, and the
    line quotes the start of the value, not all of it."""
    source = REGRESSIONS / "deep-version.json"
    result = run_cli("show", str(source))
    line = one_error_line(result.stderr)
    assert "unsupported checkpoint version" in line and len(line) < 300


# --------------------------------------------------------------------------- shapes


ODD_CALLS = {
    "a string": "lookup(42)",
    "a number": 42,
    "non-objects": [1, "two", None, [3]],
    "args not an object": [{"id": "c1", "name": "lookup", "args": "page=2"}],
    "args a list": [{"id": "c2", "name": "lookup", "args": [1, {"deep": [2]}]}],
}


@pytest.mark.parametrize("shape", sorted(ODD_CALLS))
def test_odd_tool_call_shapes_are_shown_in_every_format(shape: str, tmp_path: Path) -> None:
    """The loader keeps toolCalls it cannot interpret as opaque JSON; every renderer
    prints it (verify flags it as schema), none crashes."""
    c = Convo()
    c.add("user", "look it up")
    c.add("assistant", "calling", toolCalls=ODD_CALLS[shape])
    source = str(write_doc(tmp_path / "odd.json", c.checkpoint()))
    for fmt in ("text", "markdown", "jsonl"):
        result = run_cli("expand", source, "-f", fmt)
        assert result.exit_code == 0, (fmt, result.stderr)
        if fmt == "jsonl":
            assert jsonl(result.stdout)[1]["toolCalls"] == ODD_CALLS[shape]
        else:
            assert any(word in result.stdout for word in ("lookup", "two", "42")), fmt
    page = tmp_path / "r.html"
    assert run_cli("report", source, "-o", str(page)).exit_code == 0
    verdict = json.loads(run_cli("verify", source, "-f", "json").stdout)
    assert "schema" in {f["code"] for f in verdict["sources"][0]["findings"]}


def test_a_duplicated_role_of_another_type_is_a_finding_not_a_crash() -> None:
    result = run_cli("verify", str(REGRESSIONS / "dup-role-number.json"), "-f", "json")
    assert result.exit_code in (1, 2), result.stderr
    assert "Traceback" not in result.stderr


# --------------------------------------------------------------------------- terminal safety


def test_diff_shows_control_characters_as_escapes() -> None:
    result = run_cli(
        "diff", "--force", str(REGRESSIONS / "diff-old.json"),
        str(REGRESSIONS / "diff-fingerprint-controls.json"),
    )  # fmt: skip
    assert result.exit_code == 1
    assert UNSAFE.search(result.stdout) is None
    assert "\\x1b" in result.stdout or "\\x00" in result.stdout or "\\u" in result.stdout


@pytest.mark.parametrize("name", ["error-newline-format.json", "error-newline-key.json"])
def test_an_error_quoting_a_newline_stays_one_line(name: str) -> None:
    for command in ("show", "expand", "verify"):
        result = run_cli(command, str(REGRESSIONS / name))
        line = one_error_line(result.stderr)
        assert "\\n" in line and "forged" in line  # the value is shown, escaped


def test_grep_escapes_what_it_quotes_in_an_error() -> None:
    result = run_cli("grep", "x", str(REGRESSIONS / "error-esc-grep.json"))
    assert UNSAFE.search(result.stderr) is None
    assert "Traceback" not in result.stderr


# --------------------------------------------------------------------------- linear output


def test_three_million_newlines_render_as_text_of_linear_size(tmp_path: Path) -> None:
    source = reproducer("huge-newlines.json.gz", tmp_path)
    size = source.stat().st_size
    result = run_cli("expand", str(source), "--keep-frames", "--include-detached")
    assert result.exit_code == 0
    # every line of the message printed, each with its indent: a few bytes per input byte
    assert result.stdout.count("\n") >= 3_000_000
    assert len(result.stdout.encode()) < 5 * size


def test_three_million_zero_width_characters_render_as_text_of_linear_size(
    tmp_path: Path,
) -> None:
    c = Convo()
    c.add("user", "spaces: " + "\u200b" * 3_000_000 + " end")
    source = write_doc(tmp_path / "zw.json", c.checkpoint())
    result = run_cli("expand", str(source))
    assert result.exit_code == 0
    assert result.stdout.count("\u200b") == 3_000_000  # text stays text: shown, not dropped
    assert len(result.stdout) < 2 * 3_000_000
    grep = run_cli("grep", "end", str(source))
    assert grep.exit_code == 0
    assert len(grep.stdout) < 2_000  # the matched line, cut around the match


def test_a_forged_long_role_does_not_multiply_grep_rows() -> None:
    source = REGRESSIONS / "grep-role-amplify.json"
    size = source.stat().st_size
    for fmt in ("text", "csv", "tsv", "jsonl"):
        result = run_cli("grep", "refund", str(source), "-f", fmt)
        assert result.exit_code == 0
        assert len(result.stdout) < 20 * size, fmt


def test_deeply_nested_arguments_print_compact_not_indented() -> None:
    source = REGRESSIONS / "report-pretty-quadratic.json"
    size = source.stat().st_size
    result = run_cli("expand", str(source), "-f", "markdown")
    assert result.exit_code == 0
    assert len(result.stdout) < 20 * size


# --------------------------------------------------------------------------- expansion bound


def test_a_replay_bomb_is_refused_before_printing_and_printed_by_reference() -> None:
    source = str(REGRESSIONS / "expansion-bomb.json")
    size = os.path.getsize(source)
    refused = run_cli("expand", source, "--replays", "full")
    assert refused.exit_code == 2 and refused.stdout == ""
    line = one_error_line(refused.stderr)
    assert "FOLDCTL_MAX_EXPANSION" in line and "--replays ref" in line
    by_reference = run_cli("expand", source)  # by reference: the default
    assert by_reference.exit_code == 0
    assert len(by_reference.stdout) < 20 * size
    assert "replay" in by_reference.stdout


def test_replays_among_detached_spans_count_toward_the_bound() -> None:
    """The bound counts what is printed after the transcript too: detached spans whose
    frames replay one another.  By reference, every span is shown once in all."""
    source = str(REGRESSIONS / "detached-replays.json")
    size = os.path.getsize(source)
    full = ("--replays", "full")
    assert run_cli("expand", source, "-f", "jsonl", *full).exit_code == 0  # history: in bound
    for argv in (
        ("expand", source, "--include-detached", *full),
        ("grep", "-c", "a", source, *full),
        ("report", source, "-o", "-", *full),
    ):
        refused = run_cli(*argv)
        assert refused.exit_code == 2, argv
        assert "FOLDCTL_MAX_EXPANSION" in one_error_line(refused.stderr)
    rows = jsonl(
        run_cli("expand", source, "--include-detached", "--replays", "ref", "-f", "jsonl").stdout
    )
    stored = json.loads(Path(source).read_bytes())
    held = len(stored["history"]) + sum(len(s.get("messages") or ()) for s in stored["folded"])
    assert len(rows) <= held
    assert len({(r["locator"], r["occurrence"]) for r in rows}) == len(rows)
    assert run_cli("grep", "-c", "a", source, "--replays", "ref").exit_code in (0, 1)
    page = run_cli("report", source, "--replays", "ref", "-o", "-")
    assert page.exit_code == 0 and len(page.stdout) < 20 * size


def test_the_expansion_bound_can_be_raised(tmp_path: Path) -> None:
    """Each bound names its variable; raised to what the refusals said, both are met."""
    source = str(REGRESSIONS / "expansion-bomb.json")
    argv = [sys.executable, "-m", "foldctl", "expand", source, "-f", "jsonl", "--replays", "full"]
    env = dict(os.environ)
    wanted: dict[str, int] = {}
    for _ in range(3):
        refused = subprocess.run(argv, capture_output=True, check=False, env=env)
        if refused.returncode == 0:
            break
        found = re.search(rb"print ([\d,]+) (messages|bytes).*\((FOLDCTL_\w+)\)", refused.stderr)
        assert found is not None, refused.stderr
        wanted[found.group(2).decode()] = int(found.group(1).replace(b",", b""))
        env[found.group(3).decode()] = str(wanted[found.group(2).decode()])
    assert set(wanted) == {"messages", "bytes"}
    assert refused.returncode == 0
    assert refused.stdout.count(b"\n") == wanted["messages"]


def test_one_huge_message_replayed_is_refused_by_its_bytes() -> None:
    """40 placements of one 100 KB message are few messages but 4 MB: the bound counts the
    bytes printed too, names its own variable, and the replays print by reference."""
    source = str(REGRESSIONS / "expansion-bytes.json")
    size = os.path.getsize(source)
    for argv in (
        ("expand", source, "--replays", "full"),
        ("expand", source, "-f", "jsonl", "--replays", "full"),
        ("grep", "-c", "x", source, "--replays", "full"),
    ):
        refused = run_cli(*argv)
        assert refused.exit_code == 2 and refused.stdout == "", argv
        line = one_error_line(refused.stderr)
        assert "bytes" in line and "FOLDCTL_MAX_EXPANSION_BYTES" in line and "--replays ref" in line
    by_reference = run_cli("expand", source, "-f", "jsonl")  # by reference: the default
    assert by_reference.exit_code == 0
    assert len(by_reference.stdout) < 2 * size
    raised = subprocess.run(
        [sys.executable, "-m", "foldctl", "expand", source, "-f", "jsonl", "--replays", "full"],
        capture_output=True, check=False,
        env={**os.environ, "FOLDCTL_MAX_EXPANSION_BYTES": "5000000"},
    )  # fmt: skip
    assert raised.returncode == 0
    assert raised.stdout.count(b"\n") == 40 and len(raised.stdout) > 40 * 100_000


# --------------------------------------------------------------------------- memory


def peak_rss(*argv: str) -> tuple[int, int]:
    """(peak RSS in bytes, bytes written to stdout) of ``foldctl ARGV`` in its own process."""
    with open(os.devnull, "wb") as sink:
        proc = subprocess.Popen([sys.executable, "-m", "foldctl", *argv], stdout=subprocess.PIPE)
        assert proc.stdout is not None
        written = 0
        while chunk := proc.stdout.read(1 << 16):
            written += len(chunk)
            sink.write(chunk)
        _, status, usage = os.wait4(proc.pid, 0)
    assert os.waitstatus_to_exitcode(status) in (0, 1), argv
    return usage.ru_maxrss * 1024, written


@pytest.fixture(scope="module")
def chain_10000(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tools.generate import nested_chain, to_bytes

    path = tmp_path_factory.mktemp("chain") / "chain-10000.json"
    path.write_bytes(to_bytes(nested_chain(10_000)))
    return path


@pytest.mark.skipif(sys.platform != "linux", reason="peak RSS is read from wait4 on Linux")
@pytest.mark.parametrize("which", ["generated", "minimal"])
@pytest.mark.parametrize("command", [["show"], ["spans"], ["expand"]])
def test_a_chain_ten_thousand_deep_stays_within_four_times_the_file(
    which: str, command: list[str], chain_10000: Path, tmp_path: Path
) -> None:
    """show, spans and text expand: memory beyond the start-up footprint (the same command
    on a one-fold checkpoint) within 4x the file, output linear in it.  "minimal" is the
    fuzzer's chain of empty turns, the most spans per byte."""
    source = (
        chain_10000 if which == "generated" else reproducer("deep-chain-10000.json.gz", tmp_path)
    )
    size = source.stat().st_size
    footprint, _ = peak_rss(*command, str(SAMPLES / "one_fold_conversation.json"))
    rss, written = peak_rss(*command, str(source))
    assert rss - footprint <= 4 * size, (rss - footprint) / size
    assert written <= size


@pytest.mark.skipif(sys.platform != "linux", reason="peak RSS is read from wait4 on Linux")
def test_grep_memory_does_not_grow_with_the_number_of_matches(tmp_path: Path) -> None:
    c = Convo()
    c.add("tool", "a " * 2_000_000, toolCallId="c1", toolName="dump")
    source = write_doc(tmp_path / "matches.json", c.checkpoint())
    size = source.stat().st_size
    footprint, _ = peak_rss("grep", "zzz", str(SAMPLES / "one_fold_conversation.json"))
    for fmt in ("text", "jsonl"):
        rss, written = peak_rss("grep", "a", str(source), "-f", fmt)
        assert rss - footprint <= 4 * size, (fmt, (rss - footprint) / size)
        assert written <= 2 * size, fmt
    count = json.loads(run_cli("grep", "a", str(source), "-f", "jsonl").stdout)
    assert count["matchCount"] == 2_000_000  # counted, though not every match is listed


# --------------------------------------------------------------------------- one verdict


SEEDS = sorted(p for p in SAMPLES.glob("*.json"))


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.sampled_from(SEEDS))
def test_fast_and_exact_readers_give_every_mutant_one_verdict(seed: int, path: Path) -> None:
    """A mutated sample (structure, then bytes) is read alike by both loaders: both
    refuse it with the same line, or both read the same checkpoint, every retained
    message included (a message the fast path cannot decode fails as the exact path
    fails the whole file)."""
    rng = random.Random(seed)
    other = SEEDS[rng.randrange(len(SEEDS))].read_bytes
    chain: list[str] = []
    data = mutators.mutate_json_text(
        rng, path.read_bytes(), mutators.QUICK, other, chain,
        structural=rng.randint(0, 2), raw=rng.randint(0, 2),
    )  # fmt: skip
    try:
        result = targets.load(data, "mutant.json")
    except InputError:
        return  # both refused, with the same error (the target raises it only then)
    assert result.disagreement is None, (chain, result.disagreement)
