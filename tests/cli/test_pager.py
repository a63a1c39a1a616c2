"""Long text on a terminal: through a pager (FOLDCTL_PAGER, PAGER, else less -FRX; never
when piped; --no-pager), and wrapped to the terminal's width with the tree kept whole."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tests.support import SAMPLES, on_a_terminal, run_proc

NESTED = str(SAMPLES / "nested_chain.json")
#: A pager that keeps what it is given (and its arguments) in the file PAGED_TO.
FAKE_PAGER = (
    "import os, sys; open(os.environ['PAGED_TO'], 'ab').write("
    "b'ARGV ' + ' '.join(sys.argv[1:]).encode() + b'\\n' + sys.stdin.buffer.read())"
)


@pytest.fixture
def pager(tmp_path: Path) -> tuple[str, Path]:
    script = tmp_path / "pager.py"
    script.write_text(FAKE_PAGER)
    return f"{sys.executable} {script} --from-test", tmp_path / "paged.txt"


def lines(data: bytes) -> list[str]:
    return data.decode("utf-8").replace("\r\n", "\n").split("\n")


def test_text_on_a_terminal_goes_through_the_pager(pager: tuple[str, Path]) -> None:
    command, paged = pager
    env = {"FOLDCTL_PAGER": command, "PAGED_TO": str(paged), "COLUMNS": "100"}
    on_screen = on_a_terminal("expand", NESTED, env=env)
    assert on_screen == b""  # all of it went to the pager
    got = lines(paged.read_bytes())
    assert got[0] == "ARGV --from-test"
    assert "f5:2 tool (issue_refund)" in "\n".join(got)


def test_pager_comes_from_foldctl_pager_then_pager_and_cat_or_empty_means_none(
    pager: tuple[str, Path],
) -> None:
    command, paged = pager
    alone = on_a_terminal("show", NESTED, env={"PAGER": command, "PAGED_TO": str(paged)})
    assert alone == b"" and b"fold tree" in paged.read_bytes()  # PAGER when it is the one
    paged.unlink()
    env = {"PAGER": command, "PAGED_TO": str(paged)}
    for chosen in ("", "cat"):  # FOLDCTL_PAGER first: empty or cat means none
        shown = on_a_terminal("show", NESTED, env={**env, "FOLDCTL_PAGER": chosen})
        assert b"fold tree" in shown and not paged.exists(), chosen
    piped = run_proc("show", NESTED, env={"FOLDCTL_PAGER": command, "PAGED_TO": str(paged)})
    assert b"fold tree" in piped.stdout and not paged.exists()  # piped: never a pager


def test_no_pager_writes_straight_to_the_terminal(pager: tuple[str, Path]) -> None:
    command, paged = pager
    env = {"FOLDCTL_PAGER": command, "PAGED_TO": str(paged)}
    shown = on_a_terminal("show", NESTED, "--no-pager", env=env)
    assert b"fold tree" in shown and not paged.exists()


def test_a_pager_that_cannot_run_leaves_the_output_on_the_terminal() -> None:
    shown = on_a_terminal("show", NESTED, env={"FOLDCTL_PAGER": "no-such-pager-here -x"})
    assert b"fold tree" in shown


WIDE = re.compile(r"\x1b\[[0-9;]*m")


@pytest.mark.parametrize("columns", [80, 50])
def test_long_lines_are_wrapped_to_the_terminal_with_the_tree_kept(columns: int) -> None:
    env = {"COLUMNS": str(columns), "NO_COLOR": "1"}
    shown = lines(on_a_terminal("expand", NESTED, env=env))
    assert max(len(line) for line in shown) <= columns
    # a fold header too long for one row: its continuation draws the fold's own bar
    at = next(n for n, line in enumerate(shown) if line.startswith("| +- fold: span 5 "))
    assert shown[at + 1].startswith("| |    ")
    # every row inside span 5 starts with the bars of its depth
    end = shown.index("| `- end of span 5")
    assert all(line.startswith("| |") for line in shown[at + 1 : end])
    piped = run_proc("expand", NESTED, env={"COLUMNS": str(columns)}).stdout.decode()
    assert max(len(line) for line in piped.splitlines()) > 200  # a pipe gets whole lines


def test_painted_output_is_wrapped_too() -> None:
    shown = lines(on_a_terminal("expand", NESTED, "--color", "always", env={"COLUMNS": "80"}))
    assert max(len(WIDE.sub("", line)) for line in shown) <= 80
