"""Malformed input: every case is refused with exit 2 and one line naming the file and the
place (byte offset or JSON path) — never a traceback, never an empty result."""

from __future__ import annotations

import copy
import gzip
import json
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import pytest

from foldctl.errors import InputError
from foldctl.formats.source import load_source
from tests.support import run_proc
from tests.support.builders import clean

BASE = orjson.dumps(clean())


@dataclass(frozen=True)
class Case:
    name: str
    data: bytes
    # the exact place the error names ("" when there is none to name); a tuple when
    # either is right (a retained message may be decoded only when it is read, and is
    # then named by its JSON path rather than by a byte offset)
    where: str | tuple[str, ...]
    what: str  # a part of what the error says was wrong
    filename: str = "input.json"
    env: tuple[tuple[str, str], ...] = ()


def shaped(mutate: Callable[[dict[str, Any]], object]) -> bytes:
    """The clean checkpoint, changed in place by ``mutate``."""
    doc = copy.deepcopy(clean())
    mutate(doc)
    return orjson.dumps(doc)


def without_history() -> bytes:
    data = {k: v for k, v in clean().items() if k != "history"}
    return orjson.dumps({"format": "conversation-v1", "data": data, "savedAt": 1})


def at(data: bytes, needle: bytes) -> str:
    return f"byte {data.index(needle)}"


def with_field(raw: bytes) -> bytes:
    """The clean checkpoint with ``"extra": <raw JSON>`` as its last field."""
    return BASE[:-1] + b',"extra":' + raw + b"}"


BIG = with_field(b'{"n": [1, 123456789012345678901234567890]}')
NEGATIVE_BIG = BASE.replace(
    b'"lastCompletedIteration":5', b'"lastCompletedIteration":-9223372036854775809'
)
BIG_IN_ARGS = BASE.replace(b'"args":{"page":0}', b'"args":{"page":18446744073709551616}')
SURROGATE_AND_BIG = with_field(b'["\\ud83d", 99999999999999999999]')
NAN = with_field(b"NaN")
INFINITY = with_field(b"[-Infinity]")
HUGE_FLOAT = with_field(b"1e400")
DEEP_PREFIX = b'{"version":1,"x":'
DEEP = DEEP_PREFIX + b"[" * 100_000 + b"]" * 100_000 + b"}"
DEEP_SLOW_PREFIX = b'{"s":"\\udc00","x":'  # a lone surrogate: orjson refuses, the stdlib reads
DEEP_AFTER_SURROGATE = DEEP_SLOW_PREFIX + b"[" * 100_000 + b"]" * 100_000 + b"}"
# The top object is level 1, so the 1024th "[" is the first bracket past the limit.
# The JSON path of the first container past the limit, its long run of [0] shortened.
DEEP_AT = "x" + ("[0]" * 1022)[:59] + "..." + ("[0]" * 1022)[-40:]
DEEP_SLOW_AT = DEEP_AT
LATIN1 = BASE.replace(b"Reconcile the ledger.", b"R\xe9concilier", 1)
TRUNCATED_GZIP = gzip.compress(BASE)[:40]

CASES = [
    # -- not JSON at all
    Case("empty", b"", "byte 0", "the file is empty"),
    Case("whitespace", b" \n\t\n", "byte 0", "the file is empty"),
    Case("binary", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "byte 0", "not UTF-8 (byte 0x89)"),
    Case("html", b"<!doctype html>\n<html><body>404</body></html>", "byte 0", "Expecting value"),
    Case("python-repr", b"{'version': 1, 'history': []}", "byte 1", "property name"),
    Case("python-object", b"Checkpoint(version=1, history=[])", "byte 0", "Expecting value"),
    Case("two-documents", BASE + b"\n" + BASE, f"byte {len(BASE) + 1}", "Extra data"),
    Case("control-in-string", b'{"a": "\x01"}', "byte 7", "Invalid control character here"),
    # -- invalid UTF-8
    Case(
        "latin1-in-a-string",
        LATIN1,
        at(LATIN1, b"\xe9"),
        "not UTF-8 (byte 0xe9)",
    ),
    # -- truncated JSON, cut at several points
    Case("cut-after-bracket", b'{"version": 1, "history": [', "byte 27", "Expecting value"),
    Case("cut-in-string", b'{"version": 1, "runId": "run-', "byte 24", "Unterminated string"),
    Case("cut-after-key", b'{"version"', "byte 10", "Expecting ':' delimiter"),
    Case("cut-in-number", b'{"version": 1, "checkpointedAt": 17960', "byte 38", "delimiter"),
    Case("cut-in-escape", b'{"runId": "a\\u00', "byte 13", "Invalid \\uXXXX escape"),
    Case("cut-in-utf8", b'{"runId": "caf\xc3', "byte 14", "not UTF-8 (byte 0xc3)"),
    Case("cut-in-half", BASE[: len(BASE) // 2], "", "not valid JSON"),
    # -- valid JSON, wrong shape at every level
    Case("top-level-array", b"[]", "(top level)", "expected an object, found an array"),
    Case("top-level-null", b"null", "(top level)", "expected an object, found null"),
    Case("not-a-checkpoint", b'{"hello": "world"}', "(top level)", "not a conversation checkpoint"),
    Case(
        "version-2",
        shaped(lambda d: d.update(version=2)),
        "version",
        "unsupported checkpoint version 2",
    ),
    Case("version-string", shaped(lambda d: d.update(version="1")), "version", 'version "1"'),
    Case(
        "history-not-a-list",
        shaped(lambda d: d.update(history={})),
        "history",
        "expected an array, found an object",
    ),
    Case(
        "message-not-an-object",
        shaped(lambda d: d["history"].append("hi")),
        "history[4]",
        "expected an object, found a string",
    ),
    Case(
        "message-without-content",
        shaped(lambda d: d["history"][0].pop("content")),
        "history[0].content",
        "missing; it is required",
    ),
    Case(
        "content-a-number",
        shaped(lambda d: d["history"][0].update(content=5)),
        "history[0].content",
        "expected a string, found a number",
    ),
    Case(
        "role-a-number",
        shaped(lambda d: d["history"][0].update(role=1)),
        "history[0].role",
        "expected a string, found a number",
    ),
    Case(
        "folded-a-dict",
        shaped(lambda d: d.update(folded={})),
        "folded",
        "expected an array, found an object",
    ),
    Case(
        "span-not-an-object",
        shaped(lambda d: d["folded"].append(7)),
        "folded[3]",
        "expected an object, found a number",
    ),
    Case(
        "fingerprint-missing",
        shaped(lambda d: d["folded"][1].pop("summaryFingerprint")),
        "folded[1].summaryFingerprint",
        "missing",
    ),
    Case(
        "messageCount-a-string",
        shaped(lambda d: d["folded"][0].update(messageCount="2")),
        "folded[0].messageCount",
        "expected a number, found a string",
    ),
    Case(
        "iteration-not-whole",
        shaped(lambda d: d["folded"][0].update(iteration=2.5)),
        "folded[0].iteration",
        "expected a whole number",
    ),
    Case(
        "retained-unknown",
        shaped(lambda d: d["folded"][0].update(retained="forever")),
        "folded[0].retained",
        'found "forever"',
    ),
    Case(  # what was found is quoted cut short: the error stays one short line
        "retained-huge",
        shaped(lambda d: d["folded"][0].update(retained="x\n" * 100_000)),
        "folded[0].retained",
        "...",
    ),
    Case(
        "messages-not-a-list",
        shaped(lambda d: d["folded"][0].update(messages="x")),
        "folded[0].messages",
        "expected an array, found a string",
    ),
    Case(
        "kept-message-without-role",
        shaped(lambda d: d["folded"][1]["messages"][2].pop("role")),
        "folded[1].messages[2].role",
        "missing",
    ),
    Case(
        "stage-id-a-number",
        shaped(lambda d: d["folded"][0].update(removedStageIds=[23])),
        "folded[0].removedStageIds[0]",
        "expected a string",
    ),
    Case(
        "originalInput-a-string",
        shaped(lambda d: d.update(originalInput="hi")),
        "originalInput",
        "expected an object",
    ),
    # -- envelopes
    Case(
        "unknown-envelope",
        b'{"format": "chat-v9", "data": {}}',
        "format",
        'unknown envelope format "chat-v9"',
    ),
    Case(
        "envelope-format-a-number",
        b'{"format": 3, "data": {}}',
        "format",
        "unknown envelope format a number",
    ),
    Case(
        "envelope-data-an-array",
        b'{"format": "conversation-v1", "data": []}',
        "data",
        "expected an object, found an array",
    ),
    Case(
        "paused-without-conversation",
        b'{"format": "flowchart-v1", "data": {"checkpoint": {}}}',
        "data.conversation",
        "missing",
    ),
    Case(
        "envelope-history-missing",
        without_history(),
        "data.history",
        "missing",
    ),
    # -- numbers foldctl cannot keep exactly
    Case("nan", NAN, at(NAN, b"NaN"), "NaN is not a JSON number"),
    Case("infinity", INFINITY, at(INFINITY, b"-Infinity"), "-Infinity is not a JSON number"),
    Case("float-overflow", HUGE_FLOAT, at(HUGE_FLOAT, b"1e400"), "too large for a double"),
    Case("big-int-anywhere", BIG, at(BIG, b"1234567890123"), "does not fit in 64 bits"),
    Case("big-negative-int", NEGATIVE_BIG, at(NEGATIVE_BIG, b"-9223"), "does not fit in 64 bits"),
    Case(
        "big-int-in-tool-args",
        BIG_IN_ARGS,
        (at(BIG_IN_ARGS, b"1844674"), "folded[0].messages[0]"),
        "does not fit in 64 bits",
    ),
    Case(
        "big-int-slow-path",
        SURROGATE_AND_BIG,
        at(SURROGATE_AND_BIG, b"9999"),
        "does not fit in 64 bits",
    ),
    # -- nesting: the 1024th "[" is one level deeper than the limit under the top object
    Case(
        "nested-100k",
        DEEP,
        DEEP_AT,
        f"nested deeper than 1024 levels (at byte {len(DEEP_PREFIX) + 1023})",
    ),
    # the same limit and the same words whichever reader meets it first
    Case(
        "nested-100k-slow-path",
        DEEP_AFTER_SURROGATE,
        DEEP_SLOW_AT,
        f"nested deeper than 1024 levels (at byte {len(DEEP_SLOW_PREFIX) + 1023})",
    ),
    # -- gzip
    Case("gz-empty", b"", "byte 0", "empty file; expected gzip data", "input.json.gz"),
    Case(
        "gz-corrupt",
        b"\x1f\x8b\x08\x00garbage that is not deflate",
        "",  # zlib reports the failure where its input ended: a byte offset
        "corrupt gzip data",
        "input.json.gz",
    ),
    Case(
        "gz-truncated",
        TRUNCATED_GZIP,
        f"byte {len(TRUNCATED_GZIP)}",
        "truncated gzip data",
        "input.json.gz",
    ),
    Case("gz-of-not-json", gzip.compress(b"<html>"), "byte 0", "Expecting value", "input.json.gz"),
    Case(
        "gz-bomb",
        gzip.compress(b"\x00" * 3_000_000),
        "",
        "decompresses to more than 100000 bytes (the limit; set FOLDCTL_MAX_INPUT_BYTES",
        "bomb.json.gz",
        (("FOLDCTL_MAX_INPUT_BYTES", "100000"),),
    ),
]


def is_no_checkpoint(case: Case) -> bool:
    """Whether the case is JSON that is no checkpoint at all (not an object, or an object
    without `version` and `history` or `format`)."""
    try:
        doc = json.loads(case.data)
    except (ValueError, RecursionError):
        return False
    return not isinstance(doc, dict) or (
        "format" not in doc and not ("version" in doc and "history" in doc)
    )


def write_case(tmp_path: Path, case: Case) -> str:
    path = tmp_path / case.name / case.filename
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(case.data)
    return str(path)


def read_fully(path: str) -> None:
    """Load ``path`` and read every retained message (as ``verify`` does)."""
    for span in load_source(path).spans:
        list(span.messages or ())


def places(case: Case) -> tuple[str, ...]:
    return case.where if isinstance(case.where, tuple) else (case.where,)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_reading_names_the_file_and_the_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: Case
) -> None:
    for name, value in case.env:
        monkeypatch.setenv(name, value)
    path = write_case(tmp_path, case)
    with pytest.raises(InputError) as caught:
        read_fully(path)
    error = caught.value
    assert error.source == path
    if case.where:
        assert error.where in places(case)
    else:
        # no exact place to promise: a half file fails where the parser stops; zlib
        # fails where its input ended; a bomb is refused as a whole
        assert case.name in ("cut-in-half", "gz-corrupt", "gz-bomb")
        assert error.where.startswith("byte ") or case.name == "gz-bomb"
        if error.where:
            assert int(error.where.removeprefix("byte ")) <= len(case.data)
    assert case.what in error.what
    assert "\n" not in str(error)


@pytest.fixture(scope="module")
def processes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, Any]]:
    """``foldctl expand`` (which reads every message) run as a real process on every case."""
    top = tmp_path_factory.mktemp("malformed")
    env = {k: v for k, v in os.environ.items() if not k.startswith("FOLDCTL_")}

    def run(case: Case) -> tuple[str, Any]:
        path = write_case(top, case)
        return path, run_proc("expand", path, env={**env, **dict(case.env)})

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return dict(zip((c.name for c in CASES), pool.map(run, CASES), strict=True))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_a_real_process_exits_2_with_one_line_and_no_traceback(
    processes: dict[str, tuple[str, Any]], case: Case
) -> None:
    path, proc = processes[case.name]
    stderr = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 2, stderr
    assert "Traceback" not in stderr
    assert stderr.count("\n") == 1 and stderr.startswith(f"foldctl: error: {path}: ")
    assert len(stderr) < len(path) + 400  # what was found is quoted, never whole
    if case.where:
        assert any(stderr.startswith(f"foldctl: error: {path}: {w}: ") for w in places(case))
    assert case.what in stderr
    if not isinstance(case.where, tuple):
        assert proc.stdout == b""  # nothing shown as an empty or partial conversation
    # else: a retained message is decoded when expand reaches it; what came before it was
    # written, and the error on stderr and exit 2 say the transcript is cut short


def test_truncation_anywhere_names_a_byte_offset_within_the_file(tmp_path: Path) -> None:
    path = tmp_path / "cut.json"
    for cut in range(1, len(BASE) - 1, 37):
        path.write_bytes(BASE[:cut])
        with pytest.raises(InputError) as caught:
            load_source(str(path))
        where = caught.value.where
        assert where.startswith("byte "), (cut, str(caught.value))
        assert 0 <= int(where.removeprefix("byte ")) <= cut


def test_verify_reports_every_malformed_file_and_exits_2(tmp_path: Path) -> None:
    """In a directory, every malformed checkpoint is reported; JSON that is no checkpoint at
    all is passed over and counted (named on the command line, it is an error: above)."""
    every = [c for c in CASES if not c.env]
    cases = [c for c in every if not is_no_checkpoint(c)]
    others = [write_case(tmp_path, c) for c in every if c not in cases]
    assert others, "the corpus holds JSON that is not a checkpoint"
    paths = [write_case(tmp_path, c) for c in cases]
    good = tmp_path / "good.json"
    good.write_bytes(BASE)
    proc = run_proc("verify", str(tmp_path), "--format", "jsonl")
    assert proc.returncode == 2
    stderr = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in stderr
    lines = stderr.splitlines()
    assert len(lines) == len(cases)
    assert sorted(line.split(": ")[2] for line in lines) == sorted(paths)
    rows = [orjson.loads(line) for line in proc.stdout.splitlines()]
    assert sorted(r["source"] for r in rows) == sorted(paths)  # good.json: no findings, no row
    assert all(r["code"] == "unreadable" for r in rows)
    doc = orjson.loads(run_proc("verify", str(tmp_path), "--format", "json").stdout)
    assert sorted(doc["notCheckpoints"]) == sorted(others)
    assert doc["totals"]["notCheckpoints"] == len(others)


def test_integers_within_64_bits_and_ordinary_floats_load_exactly(tmp_path: Path) -> None:
    path = tmp_path / "wide.json"
    path.write_bytes(
        with_field(b"[9223372036854775807, -9223372036854775808, 18446744073709551615, 1.5e300]")
    )
    checkpoint = load_source(str(path))
    assert checkpoint.raw["extra"] == [2**63 - 1, -(2**63), 2**64 - 1, 1.5e300]
    digits = with_field(b'"123456789012345678901234567890"')  # digits inside a string are text
    path.write_bytes(digits)
    assert load_source(str(path)).raw["extra"] == "123456789012345678901234567890"


def test_a_directory_or_a_missing_path_given_as_a_file(tmp_path: Path) -> None:
    for target, what in ((tmp_path, "is a directory"), (tmp_path / "nope.json", "no such file")):
        proc = run_proc("show", str(target))
        assert proc.returncode == 2
        assert proc.stderr.decode() == f"foldctl: error: {target}: {what}" + (
            "; expected a checkpoint file\n" if what == "is a directory" else "\n"
        )


def test_a_file_without_read_permission(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip(
            "running as root: root reads files without read permission "
            "(test_permission_denied_is_reported_simulated covers the message)"
        )
    path = tmp_path / "secret.json"
    path.write_bytes(BASE)
    path.chmod(0)
    proc = run_proc("show", str(path))
    assert proc.returncode == 2
    assert proc.stderr.decode() == (
        f"foldctl: error: {path}: permission denied (cannot read the file)\n"
    )


def test_permission_denied_is_reported_simulated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "secret.json"
    path.write_bytes(BASE)

    def refuse(self: Path, *args: Any, **kwargs: Any) -> Any:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_bytes", refuse)
    monkeypatch.setattr(Path, "open", refuse)
    with pytest.raises(InputError) as caught:
        load_source(str(path))
    assert str(caught.value) == f"{path}: permission denied (cannot read the file)"
