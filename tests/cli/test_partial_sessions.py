"""A session file with a line that is not JSON, as grep, locate, diff and claims read it: the
rest of the file is read, the answer is that of the lines read, and the command says on
standard error that the file is partial (the note show and expand give), its exit status
unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support import SAMPLES, jsonl, run_cli, run_proc

CLAUDE = SAMPLES / "claude_code_session.jsonl"
CODEX = SAMPLES / "codex_rollout.jsonl"
#: What a write cut short leaves: the start of a record, then the next line.
CUT = b'{"type":"user","message":\n'


def partial_copy(sample: Path, folder: Path, name: str = "partial.jsonl") -> Path:
    """``sample`` with a line that is not JSON put in as its line 10 (the middle of it)."""
    lines = sample.read_bytes().splitlines(keepends=True)
    assert len(lines) > 20
    lines.insert(9, CUT)
    path = folder / name
    path.write_bytes(b"".join(lines))
    return path


def note(path: Path, done: str) -> str:
    return (
        f"foldctl: {path} is partial: line 10 is not JSON; the rest of the file was read "
        f"and {done} (foldctl verify lists every such line)\n"
    )


def places(rows: list[dict[str, object]]) -> list[tuple[object, ...]]:
    """What a hit or a place is, whatever line of its file it was on."""
    return [(r["locator"], r["digest"], r["where"]) for r in rows]


@pytest.mark.parametrize("sample", [CLAUDE, CODEX], ids=["claude", "codex"])
def test_grep_says_a_file_is_partial_and_finds_what_the_rest_holds(
    tmp_path: Path, sample: Path
) -> None:
    path = partial_copy(sample, tmp_path)
    whole = run_cli("grep", "-i", "-F", "the", str(sample), "-f", "jsonl")
    ran = run_cli("grep", "-i", "-F", "the", str(path), "-f", "jsonl")
    assert ran.exit_code == 0, ran.stderr
    assert ran.stderr == note(path, "searched")
    hits = jsonl(ran.stdout)
    assert hits and places(hits) == places(jsonl(whole.stdout))
    assert whole.stderr == ""  # a file read whole says nothing


def test_grep_passes_over_a_file_that_cannot_match_and_says_it_with_a_count(tmp_path: Path) -> None:
    path = partial_copy(CLAUDE, tmp_path)
    # Bytes that cannot hold the pattern (the line cut short included) are passed over
    # unread: nothing to say of the file, whose answer is whole.
    ran = run_cli("grep", "-F", "a phrase nowhere in it", str(path))
    assert ran.exit_code == 1 and ran.stdout == "" and ran.stderr == ""
    counted = run_cli("grep", "-c", "-i", "-F", "the", str(path))
    assert counted.exit_code == 0, counted.stderr
    assert counted.stdout.startswith(f"{path}:")
    assert counted.stderr == note(path, "searched")


def test_grep_over_a_folder_with_workers_names_the_partial_file_once(tmp_path: Path) -> None:
    path = partial_copy(CLAUDE, tmp_path)
    (tmp_path / "whole.jsonl").write_bytes(CLAUDE.read_bytes())
    ran = run_proc("grep", "-l", "-i", "-F", "the", str(tmp_path), "-j", "2")
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.decode().splitlines() == [str(path), str(tmp_path / "whole.jsonl")]
    assert ran.stderr.decode() == note(path, "searched")


def test_locate_says_a_file_is_partial_and_finds_the_message(tmp_path: Path) -> None:
    path = partial_copy(CLAUDE, tmp_path)
    rows = jsonl(run_cli("expand", str(CLAUDE), "-f", "jsonl").stdout)
    wanted = next(r for r in rows if r.get("line", 0) > 20)  # after the line cut short
    ran = run_cli("locate", str(path), wanted["digest"], "-f", "jsonl")
    assert ran.exit_code == 0, ran.stderr
    assert ran.stderr == note(path, "searched")
    found = jsonl(ran.stdout)
    assert wanted["locator"] in [r["locator"] for r in found]
    assert all(r["digest"] == wanted["digest"] for r in found)
    nowhere = run_cli("locate", str(path), "xxh3-128:" + "0" * 32)
    assert nowhere.exit_code == 1 and nowhere.stdout == ""
    assert nowhere.stderr == note(path, "searched")


def test_diff_says_which_side_is_partial(tmp_path: Path) -> None:
    old = partial_copy(CLAUDE, tmp_path, "old.jsonl")
    new = partial_copy(CLAUDE, tmp_path, "new.jsonl")
    ran = run_cli("diff", str(old), str(new))
    assert ran.exit_code == 0, ran.stderr  # the same lines read on both sides: identical
    assert "no differences" in ran.stdout
    assert ran.stderr == note(old, "compared") + note(new, "compared")
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(CLAUDE.read_bytes())
    one_side = run_cli("diff", str(whole), str(new), "-f", "json")
    assert one_side.exit_code in (0, 1), one_side.stderr
    assert json.loads(one_side.stdout)  # the comparison is printed
    assert one_side.stderr == note(new, "compared")


@pytest.mark.parametrize("sample", [CLAUDE, CODEX], ids=["claude", "codex"])
def test_claims_says_a_file_is_partial_and_checks_what_the_rest_holds(
    tmp_path: Path, sample: Path
) -> None:
    path = partial_copy(sample, tmp_path)
    whole = run_cli("claims", str(sample), "-f", "json")
    ran = run_cli("claims", str(path), "-f", "json")
    assert ran.exit_code == whole.exit_code, ran.stderr
    assert ran.stderr == note(path, "checked")
    assert whole.stderr == ""
    checked = json.loads(ran.stdout)
    assert checked and json.loads(whole.stdout)  # both answered, as documents


def test_claims_over_a_folder_with_workers_names_the_partial_file_once(tmp_path: Path) -> None:
    path = partial_copy(CODEX, tmp_path)
    (tmp_path / "whole.jsonl").write_bytes(CODEX.read_bytes())
    ran = run_proc("claims", str(tmp_path), "-j", "2", "-f", "jsonl")
    assert ran.returncode in (0, 1), ran.stderr
    assert ran.stderr.decode() == note(path, "checked")
