"""grep and locate over many sources: the prefilter is exact (escaped spellings included),
parallel runs answer as one process does, patterns expand, and failures are one line."""

from __future__ import annotations

import gzip
import json
import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from foldctl.query.prefilter import FOLDS_ONTO_ASCII, Prefilter, prefilter_for
from tests.support import CONFORMANCE, SAMPLES, jsonl, run_cli, run_proc

OFF = {"FOLDCTL_GREP_PREFILTER": "0"}


def checkpoint(content: str, *, tool_args: str | None = None) -> str:
    """A one-message checkpoint whose JSON text is written by hand (escapes as given)."""
    calls = ""
    if tool_args is not None:
        calls = f', "toolCalls": [{{"id": "c1", "name": "lookup", "args": {tool_args}}}]'
    return (
        '{"version": 1, "runId": "r", "lastCompletedIteration": 1, '
        '"originalInput": {"message": "hi"}, "checkpointedAt": 1773000000000, '
        f'"history": [{{"role": "assistant", "content": "{content}"{calls}}}]}}'
    )


#: (JSON text of a content, pattern, grep options): the match exists only once decoded.
ESCAPED = [
    (r"pending\u005fapproval", "pending_approval", ["-F"]),  # \u spells a letter
    (r"RF\u002d9120 held", "RF-9120", ["-F"]),
    (r"see https:\/\/example.test\/refund", "https://example.test/refund", ["-F"]),
    (r"caf\u00e9 au lait", "café", []),
    (r"\u00c9COLE", "école", ["-i"]),
    (r"\u0041pproved", "approved", ["-i"]),  # an escaped capital, found without case
    ("\u212aelvin", "kelvin", ["-i"]),  # the Kelvin sign folds onto k
    (r"\ud83d\ude00 smile", "\U0001f600 smile", ["-F"]),  # a surrogate pair
    (r"two\nlines", "two\nlines", ["-F"]),
    (r"say \"approved\" now", '"approved"', ["-F"]),
    (r"x pending\u005fapproval", r"pending_appro\w+", []),
    (r"word\u0020boundary", "word boundary", ["-w"]),
]


@pytest.fixture(params=["simd", "bytes.find"])
def searched_with(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every buffer searched as a large one is (a chunk of a file, not one record): with
    StringZilla's SIMD ``find`` where it is installed, or with ``bytes.find`` and
    ``find_unicode_escape``; the answers must be the same."""
    import foldctl.query.prefilter as prefilter

    monkeypatch.setattr(prefilter, "_SMALL", 0)
    if request.param == "simd":
        pytest.importorskip("stringzilla")
        if prefilter.simd_text() is None:
            pytest.skip(f"{prefilter.SIMD_ENVIRONMENT} turns StringZilla off")
    else:
        monkeypatch.setattr(prefilter, "simd_text", lambda: None)
    return str(request.param)


@pytest.mark.parametrize(("content", "pattern", "options"), ESCAPED)
def test_a_match_spelled_only_by_escapes_is_found(
    tmp_path: Path, content: str, pattern: str, options: list[str], searched_with: str
) -> None:
    path = tmp_path / "escaped.json"
    path.write_text(checkpoint(content), encoding="utf-8")
    on = run_cli("grep", *options, "-e", pattern, str(path), "-f", "jsonl")
    assert on.exit_code == 0, (content, pattern, on.stderr)
    assert len(jsonl(on.stdout)) == 1


def test_matches_inside_tool_calls_and_their_json_are_found(tmp_path: Path) -> None:
    path = tmp_path / "calls.json"
    path.write_text(checkpoint("calling", tool_args='{"status" : "appro\\u0076ed", "n": 1E2}'))
    for args in (
        ["-F", "approved"],  # a leaf, escaped
        ["-F", '"status":"approved"'],  # the compact JSON, spaced differently in the bytes
        ["-F", '"n":100.0'],  # a number foldctl spells its own way
        ["lookup"],
        ["--field", "*", "-F", "c1"],
    ):
        on = run_proc("grep", *args, str(path), "-f", "jsonl")
        off = run_proc("grep", *args, str(path), "-f", "jsonl", env=OFF)
        assert on.returncode == 0, (args, on.stderr)
        assert on.stdout == off.stdout


def test_a_file_that_cannot_match_is_not_decoded_and_said_so(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(checkpoint("nothing to see"))
    proc = run_proc("grep", "pending_approval", str(tmp_path / "a.json"), "--verbose")
    assert proc.returncode == 1 and proc.stdout == b""
    assert b"1 of 1 source(s) not decoded" in proc.stderr
    assert run_proc("grep", "pending_approval", str(tmp_path / "a.json")).stderr == b""
    assert run_proc("grep", "pending_approval", str(tmp_path), env=OFF).stderr == b""


@pytest.mark.parametrize("chunk", [64, 1 << 20])
def test_a_file_read_after_a_longer_one_is_judged_on_its_own_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int, searched_with: str
) -> None:
    """The buffer files are read into is kept from one file to the next: what a longer file
    left in it past a shorter one's end (a match, an escape, gzip's or UTF-16's first bytes)
    counts for nothing."""
    import foldctl.query.prefilter as prefilter

    monkeypatch.setattr(prefilter, "FILE_CHUNK", chunk)
    (tmp_path / "a.json").write_text(checkpoint("x" * 150 + r" pending\u005fapproval"))
    (tmp_path / "b.json").write_text(checkpoint("nothing"))
    ran = run_cli(
        "grep", "--verbose", "-j", "1", "-F", "pending_approval", str(tmp_path), "-f", "jsonl"
    )
    assert ran.exit_code == 0, ran.stderr
    assert [hit["source"] for hit in jsonl(ran.stdout)] == [str(tmp_path / "a.json")]
    assert "1 of 2 source(s) not decoded" in ran.stderr
    pf = Prefilter(("pending_approval",))
    tiny = tmp_path / "tiny.json"
    tiny.write_bytes(b"{}")
    for before in (b"\x1f\x8b" + b"pending_approval" * 9, b"\xff\xfe\x00\x00" + b"p" * 150):
        (tmp_path / "big.json").write_bytes(before)
        pf.may_match_file(str(tmp_path / "big.json"))
        assert pf.may_match_file(str(tiny)) is False


def test_no_prefilter_when_nothing_is_required() -> None:
    for pattern, flags in ((r"\d+", 0), ("x*", 0), ("a|\\w", 0), ("8842", 0), ("[ab]", 0)):
        assert prefilter_for(re.compile(pattern, flags)) is None, pattern
    assert prefilter_for(re.compile("approved"), invert=True) is None
    assert prefilter_for(re.compile('"status":"approved"')) == Prefilter(("approved",))
    assert prefilter_for(re.compile("(?:refund)|(?:charge)")) == Prefilter(("refund", "charge"))
    assert prefilter_for(re.compile("café", re.I)) == Prefilter(("caf",), ignore_case=True)


def test_the_case_folding_table_is_pythons() -> None:
    """Every non-ASCII character ``re`` matches to an ASCII letter under IGNORECASE."""
    found: dict[str, str] = {}
    for cp in range(0x80, 0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        c = chr(cp)
        if not any(ord(x) < 0x80 for t in (c.lower(), c.upper(), c.casefold()) for x in t):
            continue
        for a in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ":
            same = re.fullmatch(a, c, re.I) or re.fullmatch(re.escape(c), a, re.I)
            if same and c not in found.get(a.lower(), ""):
                found[a.lower()] = found.get(a.lower(), "") + c
    assert found == FOLDS_ONTO_ASCII


# --------------------------------------------------------------------------- one answer


def corpus(tmp_path: Path) -> Path:
    """Every sample and conformance file, a gzip copy and a store, in one folder."""
    folder = tmp_path / "fleet"
    shutil.copytree(SAMPLES, folder / "samples")
    if CONFORMANCE.is_dir():
        shutil.copytree(CONFORMANCE, folder / "conformance")
    data = (SAMPLES / "tool_calls.json").read_bytes()
    (folder / "tool_calls.json.gz").write_bytes(gzip.compress(data, mtime=0))
    return folder


QUERIES = [
    ["-F", "pending_approval"],
    ["refund|approved"],
    ["-i", "REFUND"],
    ["-w", "ledger"],
    ["-e", "ACCT-8842", "-e", "Summary 3"],
    ["--field", "*", "-F", "call_"],
    ["-F", "read_ledger"],  # tool names and call arguments
    ["-i", "-F", "ÉCOLE"],
    ["-F", "🎉"],
    ["-F", '"page":2'],
    ["-c", "-F", "approved"],
    ["-l", "summary"],
    ["-F", "no such text anywhere"],
    ["-v", "-m", "2", "a"],
]


@pytest.mark.parametrize("query", QUERIES, ids=" ".join)
def test_the_prefilter_changes_no_hit(tmp_path: Path, query: list[str], searched_with: str) -> None:
    folder = str(corpus(tmp_path))
    on = run_proc("grep", *query, folder, "-f", "jsonl", "-j", "2")
    off = run_proc("grep", *query, folder, "-f", "jsonl", "-j", "1", env=OFF)
    assert on.returncode == off.returncode, (on.stderr, off.stderr)
    assert on.stdout == off.stdout
    assert b"foldctl: error:" not in on.stderr and off.stderr == b""


def test_parallel_text_output_is_the_one_process_output(tmp_path: Path) -> None:
    folder = str(corpus(tmp_path))
    one = run_proc("grep", "-C", "1", "refund", folder, "-j", "1")
    two = run_proc("grep", "-C", "1", "refund", folder, "-j", "2")
    assert one.stdout == two.stdout and one.stdout and one.returncode == 0


def test_a_failing_source_is_one_line_and_the_others_go_on(tmp_path: Path) -> None:
    folder = tmp_path / "fleet"
    folder.mkdir()
    for name in ("a.json", "c.json"):
        shutil.copy(SAMPLES / "nested_chain.json", folder / name)
    (folder / "b.json").write_text('{"version": 1, "history": [refund')
    proc = run_proc("grep", "-c", "refund", str(folder), "-j", "2")
    assert proc.returncode == 2
    lines = proc.stdout.decode().splitlines()
    assert [line.split(":")[0] for line in lines] == [
        str(folder / "a.json"),
        str(folder / "c.json"),
    ]
    err = proc.stderr.decode().splitlines()
    assert len(err) == 1 and err[0].startswith(f"foldctl: error: {folder / 'b.json'}: byte")


def test_patterns_expand_like_directories(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(SAMPLES.parent)
    result = run_cli("grep", "-l", "-F", "pending_approval", "sample_checkpoints/*.json*")
    assert result.stdout.splitlines() == [
        "sample_checkpoints/nested_chain.json",
        "sample_checkpoints/nested_chain.json.gz",
    ]
    none = run_cli("grep", "x", "sample_checkpoints/*.nothing")
    assert none.exit_code == 2
    assert "sample_checkpoints/*.nothing: no checkpoint matches this pattern" in none.stderr


# --------------------------------------------------------------------------- locate


def test_locate_over_many_sources(tmp_path: Path) -> None:
    import foldctl
    from foldctl.digest import digest

    wanted = digest(foldctl.open(SAMPLES / "nested_chain.json").history[0])
    folder = str(corpus(tmp_path))
    one = run_proc("locate", folder, wanted, "-j", "1")
    two = run_proc("locate", folder, wanted, "-j", "2")
    assert one.returncode == 0 and one.stdout == two.stdout
    located = one.stdout.decode().splitlines()
    assert len(located) == 3  # the file, its .gz, its store session
    assert all(line.endswith(":h0") for line in located)
    rows = jsonl(run_proc("locate", folder, wanted, "-f", "jsonl").stdout.decode())
    assert [r["source"] for r in rows] == [line.rsplit(":", 1)[0] for line in located]
    single = run_cli("locate", str(SAMPLES / "nested_chain.json"), wanted)
    assert single.stdout == "h0\n"


def test_locate_reports_a_bad_source_and_goes_on(tmp_path: Path) -> None:
    import foldctl
    from foldctl.digest import digest

    wanted = digest(foldctl.open(SAMPLES / "unicode.json").history[0])
    (tmp_path / "bad.json").write_text("{")
    result = run_cli("locate", str(tmp_path / "bad.json"), str(SAMPLES / "unicode.json"), wanted)
    assert result.exit_code == 2
    assert result.stdout == f"{SAMPLES / 'unicode.json'}:h0\n"
    assert result.stderr.startswith(f"foldctl: error: {tmp_path / 'bad.json'}:")
    assert run_cli("locate", wanted).exit_code == 2  # a digest and no source


def test_store_sessions_are_prefiltered_on_their_envelope(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    shutil.copy(SAMPLES / "sessions.db", db)
    con = sqlite3.connect(db)
    envelope = json.dumps(
        {"format": "conversation-v1", "data": json.loads(checkpoint("x")), "savedAt": 1}
    ).replace('"x"', '"caf\\u00e9 escaped"')
    con.execute(
        "INSERT INTO agent_sessions VALUES ('esc', 'conversation-v1', 1, ?, NULL, 1)", (envelope,)
    )
    con.commit()
    con.close()
    result = run_cli("grep", "-l", "café", str(db))
    assert result.stdout == f"{db}#esc\n"


@pytest.mark.parametrize("chunk", [7, 16, 61])
def test_a_file_read_in_chunks_finds_what_straddles_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int, searched_with: str
) -> None:
    """A plain file is searched a chunk at a time: a needle or an escape cut by a chunk's end
    is still found, wherever the cut falls, and a file that cannot match is still skipped."""
    import foldctl.query.prefilter as prefilter

    monkeypatch.setattr(prefilter, "FILE_CHUNK", chunk)
    cases = [*ESCAPED, ("the plain pending_approval text", "pending_approval", ["-F"])]
    for pad in range(0, chunk + 1, 3):
        for content, pattern, options in cases:
            path = tmp_path / "chunked.json"
            path.write_text(checkpoint("x" * pad + " " + content), encoding="utf-8")
            on = run_cli("grep", *options, "-e", pattern, str(path), "-f", "jsonl")
            assert on.exit_code == 0, (pad, content, pattern, on.stderr)
            assert len(jsonl(on.stdout)) == 1
    path = tmp_path / "none.json"
    path.write_text(checkpoint("x" * 200 + " nothing of it here"), encoding="utf-8")
    off = run_cli("grep", "--verbose", "-F", "pending_approval", str(path))
    assert off.exit_code == 1
    assert "1 of 1 source(s) not decoded" in off.stderr
