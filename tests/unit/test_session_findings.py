"""Each finding code a session file of another runtime can have, on a file that has it:
``verify`` names it with its severity and the line, as a user runs it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import foldctl
from foldctl.audit.codes import CODES
from tests.support import run_cli
from tests.support.sessions import finding_cases, write_jsonl

CASES = finding_cases()


@pytest.mark.parametrize("code", sorted(CASES))
def test_verify_reports_the_code_with_its_line(code: str, tmp_path: Path) -> None:
    name, records = CASES[code]
    path = write_jsonl(tmp_path / name, records)
    result = run_cli("verify", path, "--format", "json", "--fail-on", "info")
    assert result.exit_code == 1, result.stderr
    found = json.loads(result.stdout)["sources"][0]["findings"]
    mine = [f for f in found if f["code"] == code]
    assert mine, found
    assert mine[0]["severity"] == CODES[code].severity
    assert mine[0]["path"] is not None and mine[0]["path"].startswith("line ")


def test_the_library_audit_says_the_same(tmp_path: Path) -> None:
    for code, (name, records) in CASES.items():
        folder = tmp_path / code
        folder.mkdir()
        conversation = foldctl.open(write_jsonl(folder / name, records))
        assert code in {f.code for f in conversation.audit()}, code


@pytest.mark.parametrize("sample", ["claude_code_session.jsonl", "codex_rollout.jsonl"])
@pytest.mark.parametrize(
    ("inserted", "code"),
    [(b"[1,2", "bad-line"), (b'["cut', "bad-line"), (b"[1,2]", "schema"), (b'"text"', "schema")],
)
def test_a_line_that_starts_like_another_shape_is_told_by_whether_it_is_json(
    sample: str, inserted: bytes, code: str, tmp_path: Path
) -> None:
    """A line the format's reader stops at its first value ("[1,2": an array) is a line
    that is not JSON when it is not JSON at all (the file is partial), and a record of
    another shape only when it is whole JSON."""
    lines = (Path(__file__).parents[2] / "sample_checkpoints" / sample).read_bytes().splitlines()
    path = tmp_path / sample
    path.write_bytes(b"\n".join([*lines[:3], inserted, *lines[3:]]) + b"\n")
    verify = run_cli("verify", "--format", "jsonl", str(path))
    found = [json.loads(line) for line in verify.stdout.splitlines()]
    assert [(f["code"], f["path"]) for f in found if f["code"] in ("bad-line", "schema")] == [
        (code, "line 4")
    ]
    shown = run_cli("show", str(path))
    assert shown.exit_code == 0
    assert ("is partial: line 4 is not JSON" in shown.stderr) == (code == "bad-line")
