"""The public library API: docs/library.md runs as written, the face is light, data pickles."""

from __future__ import annotations

import doctest
import pickle
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import foldctl
from tests.support import REPO, SAMPLES


def test_docs_library_examples_run_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    result = doctest.testfile(
        str(REPO / "docs" / "library.md"),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        verbose=False,
    )
    assert result.attempted > 20
    assert result.failed == 0


def test_the_issue_example_runs_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    cp = foldctl.open("sample_checkpoints/nested_chain.json")
    assert cp.spans and cp.history and cp.scheme == "fnv1a32"
    rows = list(cp.walk())
    assert {r.locator for r in rows} and all(r.depth == len(r.chain) for r in rows)
    assert all(r.span == (r.chain[-1] if r.chain else None) for r in rows)
    assert cp.audit() == []
    hits = list(foldctl.grep("pending_approval", [str(SAMPLES)], fixed=True))
    assert {Path(h.source).name for h in hits} >= {"nested_chain.json"}
    assert foldctl.diff(
        str(SAMPLES / "nested_chain.json"), str(SAMPLES / "nested_chain.json.gz")
    ).identical
    assert len(list(foldctl.sessions(SAMPLES / "sessions.db").rows)) > 1


def test_importing_and_opening_loads_neither_typer_nor_rich() -> None:
    heavy = ("typer", "rich", "pyarrow", "dask", "distributed", "duckdb", "pandas")
    code = (
        "import foldctl, sys; foldctl.open('sample_checkpoints/nested_chain.json'); "
        f"print(any(m in sys.modules for m in {heavy!r}))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True
    )
    assert proc.stdout.strip() == "False"


def test_all_names_the_public_api_and_each_resolves() -> None:
    for name in foldctl.__all__:
        assert getattr(foldctl, name) is not None, name
    with pytest.raises(AttributeError):
        foldctl.no_such_name  # noqa: B018


def test_conversations_rows_and_findings_pickle() -> None:
    cp = foldctl.open(SAMPLES / "forged_frame.json")
    again = pickle.loads(pickle.dumps(cp))
    assert [r.locator for r in again.walk()] == [r.locator for r in cp.walk()]
    rows = list(cp.walk())
    assert [pickle.loads(pickle.dumps(r)).message for r in rows] == [r.message for r in rows]
    assert pickle.loads(pickle.dumps(cp.audit())) == cp.audit()


def test_errors_pickle_with_their_parts() -> None:
    with pytest.raises(foldctl.InputError) as caught:
        foldctl.open(b"{")
    again = pickle.loads(pickle.dumps(caught.value))
    assert (again.source, again.where, again.what) == (
        caught.value.source,
        caught.value.where,
        caught.value.what,
    )


def test_library_errors_never_mention_command_line_flags(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_bytes((SAMPLES / "nested_chain.json").read_bytes())
    b.write_bytes((SAMPLES / "unicode.json").read_bytes())
    with pytest.raises(foldctl.UsageError) as caught:
        foldctl.diff(str(a), str(b))
    assert "--" not in str(caught.value)
    with pytest.raises(foldctl.UsageError) as caught:
        foldctl.open(str(a), scheme="md5")
    assert "--" not in str(caught.value)


def test_the_wheel_holds_only_the_package(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(REPO), "--no-deps", "--no-build-isolation",
         "-q", "-w", str(tmp_path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (wheel,) = tmp_path.glob("foldctl-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert all(n.startswith(("foldctl/", "foldctl-")) for n in names), names
    assert not [n for n in names if "generate" in n or n.startswith("foldctl/tools")]
    assert "foldctl/py.typed" in names and "foldctl/schemas/show.json" in names
