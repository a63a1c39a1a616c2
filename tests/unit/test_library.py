"""The public library API: docs/library.md runs as written, the face is light, data pickles."""

from __future__ import annotations

import ast
import doctest
import pickle
import re
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


def test_every_public_name_has_a_doctested_example() -> None:
    parser = doctest.DocTestParser()
    text = (REPO / "docs" / "library.md").read_text("utf-8")
    source = "\n".join(e.source for e in parser.get_examples(text))
    missing = [name for name in foldctl.__all__ if not re.search(rf"foldctl\.{name}\b", source)]
    assert not missing, f"no example in docs/library.md for {missing}"


def test_one_source_is_never_taken_for_many(tmp_path: Path) -> None:
    one = str(SAMPLES / "forged_frame.json")
    for given in (one, Path(one), [one], (s for s in [one])):
        report = foldctl.verify(given)
        assert [a.source for a in report.audits] == [one]
        assert report.totals()["findings"] == 2
    hits = list(foldctl.grep("RF-9120", str(SAMPLES / "nested_chain.json"), fixed=True))
    assert hits and {h.source for h in hits} == {str(SAMPLES / "nested_chain.json")}
    claims = foldctl.check_claims(SAMPLES / "nested_chain.json")
    assert [source for source, _ in claims.sources] == [str(SAMPLES / "nested_chain.json")]
    located = foldctl.locate(one, "xxh3-128:" + "0" * 32)
    assert located.rows == [] and not located.many and located.failed == 0
    with pytest.raises(foldctl.UsageError, match="cannot open a int"):
        foldctl.verify(42)  # type: ignore[arg-type]


def test_audit_agrees_with_verify_and_the_exported_findings() -> None:
    import foldctl.arrow

    path = str(SAMPLES / "nested_chain.json")
    cp = foldctl.open(path)
    exported = foldctl.arrow.tables(path)["findings"].to_pydict()
    with_claims = cp.audit(claims=True)
    assert [(f.code, f.locator) for f in with_claims] == list(
        zip(exported["code"], exported["locator"], strict=True)
    )
    assert len(with_claims) == 2 and cp.audit() == []
    for claims, findings in ((False, cp.audit()), (True, with_claims)):
        (audit,) = foldctl.verify(path, claims=claims).audits
        assert list(audit.findings) == findings


def test_reprs_show_what_a_reader_needs_and_no_graph(tmp_path: Path) -> None:
    from tools.generate import nested_chain, to_bytes

    deep = tmp_path / "deep.json"
    deep.write_bytes(to_bytes(nested_chain(300)))
    cp = foldctl.open(deep)
    assert repr(cp).startswith("Conversation(source=") and len(repr(cp)) < 200
    row = max(cp.walk(), key=lambda r: r.depth)
    shown = repr(row)
    assert f"locator={row.locator!r}" in shown and f"depth={row.depth}" in shown
    assert "300 spans" in shown and "Context" not in shown and len(shown) < 200
    hit = next(foldctl.grep("a", str(deep)))
    assert "FoldGraph" not in repr(hit) and "Row(locator=" in repr(hit)
    assert "FoldGraph" not in repr(foldctl.diff(deep, deep))


def test_the_library_names_one_finding() -> None:
    named = [
        path.relative_to(REPO).as_posix()
        for path in (REPO / "foldctl").rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text("utf-8")))
        if isinstance(node, ast.ClassDef) and node.name == "Finding"
    ]
    assert named == ["foldctl/audit/codes.py"]
    assert foldctl.Finding.__name__ != foldctl.ClaimFinding.__name__


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
