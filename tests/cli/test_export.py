"""``foldctl export``: the tables match expand and the docs, DuckDB answers the documented
queries, reruns append only what is new, and a killed export leaves nothing visible."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from foldctl.schemas.parquet import FORMAT, TABLES
from tests.support import REPO, SAMPLES, jsonl, run_cli

DOC = REPO / "docs" / "export.md"


def export(*args: str) -> dict[str, Any]:
    result = run_cli("export", *args, "--format", "json")
    assert result.exit_code == 0, result.stderr
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def parquet_files(out: Path) -> list[Path]:
    """Every Parquet file a reader globbing the table folders sees."""
    return sorted(p for table in TABLES for p in (out / table).glob("*/*.parquet"))


def read_table(out: Path, table: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for path in sorted((out / table).glob("*/*.parquet")):
        rows += pq.read_table(path).to_pylist()
    return rows


# --------------------------------------------------------------------------- the doc


def doc_blocks() -> list[tuple[str, str, list[tuple[str, ...]], list[str]]]:
    """(setup, sql, expected rows, expected header) for every query in docs/export.md."""
    text = DOC.read_text(encoding="utf-8")
    found = []
    pattern = re.compile(
        r"<!-- answer: (?P<setup>[\w-]+) -->\n```sql\n(?P<sql>.*?)```\n\n"
        r"(?P<table>(?:\|[^\n]*\|\n)+)",
        re.DOTALL,
    )
    for m in pattern.finditer(text):
        lines = m["table"].strip().splitlines()
        header = [c.strip() for c in lines[0].strip("|").split("|")]
        rows = [tuple(c.strip() for c in line.strip("|").split("|")) for line in lines[2:]]
        found.append((m["setup"], m["sql"], rows, header))
    return found


def run_sql(sql: str, cwd: Path) -> tuple[list[str], list[tuple[str, ...]]]:
    import duckdb

    here = os.getcwd()
    os.chdir(cwd)
    try:
        result = duckdb.sql(sql)
        assert result is not None
        columns = list(result.columns)
        rows = [tuple(str(v) for v in row) for row in result.fetchall()]
    finally:
        os.chdir(here)
    return columns, rows


def test_the_doc_has_every_query_of_the_issue() -> None:
    setups = [setup for setup, *_ in doc_blocks()]
    assert setups.count("samples") == 3 and setups.count("lost-evidence") == 1


@pytest.fixture
def exported(conformance: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``foldctl export sample_checkpoints ../shared/conformance --to out/``, as the doc says."""
    monkeypatch.chdir(REPO)
    out = tmp_path / "out"
    document = export("sample_checkpoints", "../shared/conformance", "--to", str(out))
    assert document["totals"]["unreadable"] == 0
    return tmp_path


def test_the_documented_queries_give_the_documented_answers(exported: Path) -> None:
    checked = 0
    for setup, sql, rows, header in doc_blocks():
        if setup != "samples":
            continue
        columns, answer = run_sql(sql, exported)
        assert columns == header, sql
        assert answer == rows, sql
        checked += 1
    assert checked == 3


def test_lost_evidence_between_two_exports(tmp_path: Path) -> None:
    text = DOC.read_text(encoding="utf-8")
    script = re.search(r"<!-- scenario: lost-evidence -->\n```python\n(.*?)```", text, re.DOTALL)
    assert script is not None
    (tmp_path / "sample_checkpoints").symlink_to(SAMPLES)
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    proc = subprocess.run(
        [sys.executable, "-c", script[1]], cwd=work, env=env, capture_output=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    ((_, sql, rows, header),) = [b for b in doc_blocks() if b[0] == "lost-evidence"]
    columns, answer = run_sql(sql, work)
    assert (columns, answer) == (header, rows)
    # A single export has nothing to compare: no rows.
    single = tmp_path / "single"
    single.mkdir()
    shutil.copytree(work / "fleet", single / "fleet")
    export(str(single / "fleet"), "--to", str(single / "out"))
    assert run_sql(sql, single)[1] == []


def doc_columns() -> dict[str, list[tuple[str, str, bool]]]:
    """The column tables of docs/export.md: table -> [(name, type, nullable)]."""
    text = DOC.read_text(encoding="utf-8")
    found: dict[str, list[tuple[str, str, bool]]] = {}
    for m in re.finditer(r"### `(\w+)`\n\n[^\n]*\n\n((?:\|[^\n]*\|\n)+)", text, re.DOTALL):
        rows = m[2].strip().splitlines()[2:]
        cells = [[c.strip() for c in row.strip("|").split("|")] for row in rows]
        found[m[1]] = [(c[0].strip("`"), c[1], c[2] == "yes") for c in cells]
    return found


def kind(type_: Any) -> str:
    """An Arrow type as text, a list's item named as any (Parquet calls it ``element``)."""
    import pyarrow as pa

    return f"list<{type_.value_type}>" if pa.types.is_list(type_) else str(type_)


def test_the_written_schema_is_the_documented_one(tmp_path: Path) -> None:
    documented = doc_columns()
    published = json.loads(run_cli("schema", "export", "--parquet").stdout)
    assert published["format"] == FORMAT
    export(str(SAMPLES), "--to", str(tmp_path / "out"))
    import foldctl.arrow

    assert set(documented) == set(TABLES) == set(published["tables"])
    for table in TABLES:
        listed = [
            (c["name"], c["type"], c["nullable"]) for c in published["tables"][table]["columns"]
        ]
        assert documented[table] == listed, table
        (written,) = {pq.read_schema(p) for p in (tmp_path / "out" / table).glob("*/*.parquet")}
        expected = foldctl.arrow.schema(table)
        assert written.names == [name for name, _, _ in listed]
        assert [kind(f.type) for f in written] == [kind(f.type) for f in expected]
        assert [f.nullable for f in written] == [nullable for _, _, nullable in listed]


# --------------------------------------------------------------------------- the rows


def test_messages_are_the_rows_expand_prints(
    exported: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    messages = read_table(exported / "out", "messages")
    checkpoints = read_table(exported / "out", "checkpoints")
    assert len(checkpoints) == len({c["source"] for c in checkpoints}) > 30
    by_source: dict[str, list[dict[str, Any]]] = {}
    for row in messages:
        by_source.setdefault(row["source"], []).append(row)
    for cp in checkpoints:
        expanded = jsonl(
            run_cli(
                "expand", cp["source"], "-f", "jsonl", "--include-detached", "--replays", "full"
            ).stdout
        )
        rows = sorted(by_source.get(cp["source"], []), key=lambda r: r["seq"])
        assert len(rows) == len(expanded) == cp["messages"], cp["source"]
        assert [(r["locator"], r["digest"], r["depth"], r["chain"]) for r in rows] == [
            (e["locator"], e["digest"], e["depth"], e["chain"]) for e in expanded
        ], cp["source"]
        assert [r["occurrence"] for r in rows] == [e["occurrence"] for e in expanded]
        assert [r["fingerprint"] for r in rows] == [e.get("fingerprint") for e in expanded]


def test_every_field_of_a_message_is_kept(tmp_path: Path) -> None:
    export(str(SAMPLES / "tool_calls.json"), "--to", str(tmp_path / "out"))
    expanded = jsonl(
        run_cli(
            "expand", str(SAMPLES / "tool_calls.json"), "-f", "jsonl", "--include-detached"
        ).stdout
    )
    foldctl_keys = {"locator", "span", "chain", "depth", "occurrence", "digest", "placement",
                    "fingerprint", "resolution", "joinsSpan"}  # fmt: skip
    rows = sorted(read_table(tmp_path / "out", "messages"), key=lambda r: r["seq"])
    for row, original in zip(rows, expanded, strict=True):
        stored = {k: v for k, v in original.items() if k not in foldctl_keys}
        rebuilt = {
            k: row[k] for k in ("role", "content", "toolName", "toolCallId") if row[k] is not None
        }
        if row["toolCalls"] is not None:
            rebuilt["toolCalls"] = json.loads(row["toolCalls"])
        rebuilt.update(json.loads(row["otherFields"] or "{}"))
        assert rebuilt == stored


def test_findings_and_spans_are_verifys_and_spans(tmp_path: Path) -> None:
    forged = str(SAMPLES / "forged_frame.json")
    export(forged, "--to", str(tmp_path / "out"))
    findings = read_table(tmp_path / "out", "findings")
    verified = jsonl(run_cli("verify", forged, "-f", "jsonl").stdout)
    assert [(f["code"], f["locator"], f["check"]) for f in findings] == [
        (v["code"], v["locator"], "verify") for v in verified
    ]
    spans = read_table(tmp_path / "out", "spans")
    listed = jsonl(run_cli("spans", forged, "-f", "jsonl").stdout)
    assert [(s["span"], s["fingerprint"], s["frame"]) for s in spans] == [
        (s["span"], s["fingerprint"], s["frame"]) for s in listed
    ]
    assert all(s["summary"].startswith("[compacted history") for s in spans if s["frame"])


# --------------------------------------------------------------------------- appending


def test_a_rerun_writes_nothing_and_a_grown_folder_only_what_is_new(tmp_path: Path) -> None:
    fleet = tmp_path / "fleet"
    fleet.mkdir()
    for name in ("nested_chain.json", "tool_calls.json"):
        shutil.copy(SAMPLES / name, fleet / name)
    out = tmp_path / "out"
    first = export(str(fleet), "--to", str(out))
    assert first["totals"]["exported"] == 2 and first["exportId"]
    before = parquet_files(out)
    manifest = (out / "manifest.json").read_bytes()
    again = export(str(fleet), "--to", str(out))
    assert again["exportId"] is None and again["files"] == []
    assert again["totals"] == {**first["totals"], "exported": 0, "alreadyExported": 2}
    assert parquet_files(out) == before and (out / "manifest.json").read_bytes() == manifest
    text = run_cli("export", str(fleet), "--to", str(out))
    assert text.stdout.startswith(f"nothing new to export to {out}\n")
    shutil.copy(SAMPLES / "unicode.json", fleet / "unicode.json")
    (fleet / "tool_calls.json").write_bytes((SAMPLES / "multi_run.json").read_bytes())  # changed
    grown = export(str(fleet), "--to", str(out))
    assert [(s["source"].rsplit("/", 1)[1], s["status"]) for s in grown["sources"]] == [
        ("nested_chain.json", "already exported"),
        ("tool_calls.json", "exported"),
        ("unicode.json", "exported"),
    ]
    assert set(before) < set(parquet_files(out))
    assert all(p.read_bytes() for p in before)  # old partitions untouched
    sources = [r["source"] for r in read_table(out, "checkpoints")]
    assert sorted(sources) == sorted([str(fleet / "nested_chain.json"),
                                      str(fleet / "tool_calls.json"),
                                      str(fleet / "tool_calls.json"),
                                      str(fleet / "unicode.json")])  # fmt: skip


def test_unreadable_sources_are_reported_and_the_rest_exported(tmp_path: Path) -> None:
    fleet = tmp_path / "fleet"
    fleet.mkdir()
    shutil.copy(SAMPLES / "nested_chain.json", fleet / "a.json")
    (fleet / "b.json").write_text('{"version": 1, "history": ')
    (fleet / "package.json").write_text('{"name": "not-a-checkpoint"}')
    result = run_cli("export", str(fleet), "--to", str(tmp_path / "out"), "--jobs", "2")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"foldctl: error: {fleet / 'b.json'}: byte ")
    assert len(result.stderr.splitlines()) == 1
    assert "exported 1 of 3 source(s)" in result.stdout
    assert "unreadable: 1 source(s)" in result.stdout
    assert "not checkpoints: 1 file(s)" in result.stdout


def test_a_folder_export_did_not_make_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    result = run_cli("export", str(SAMPLES / "unicode.json"), "--to", str(tmp_path))
    assert result.exit_code == 2
    assert "holds files but no manifest.json" in result.stderr


# --------------------------------------------------------------------------- interruption


def make_fleet(folder: Path, count: int) -> None:
    from tools.generate import nested_chain, to_bytes

    folder.mkdir()
    for i in range(count):
        (folder / f"cp-{i:03d}.json").write_bytes(to_bytes(nested_chain(20 + i % 7, seed=i)))


def assert_consistent(out: Path) -> set[str]:
    """Every visible Parquet file is named by the manifest; returns the files it names."""
    if not (out / "manifest.json").exists():
        assert parquet_files(out) == []
        return set()
    manifest = json.loads((out / "manifest.json").read_bytes())
    named = {f for e in manifest["exports"] for f in e["files"]}
    visible = {p.relative_to(out).as_posix() for p in parquet_files(out)}
    assert visible <= named, visible - named
    for p in parquet_files(out):
        pq.read_metadata(p)  # a whole file, never a partial one
    return named


def test_a_killed_export_leaves_no_partial_file_visible(tmp_path: Path) -> None:
    fleet = tmp_path / "fleet"
    make_fleet(fleet, 60)
    out = tmp_path / "out"
    for round_ in range(3):
        proc = subprocess.Popen(
            [sys.executable, "-m", "foldctl", "export", str(fleet), "--to", str(out), "-j", "2"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        # kill -9 the run and its workers once they are writing (a staged file exists)
        deadline = time.monotonic() + 60
        while not list((out / ".staging").glob("*/*/*.parquet")) and proc.poll() is None:
            assert time.monotonic() < deadline
            time.sleep(0.002)
        time.sleep(0.01 * round_)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        assert proc.returncode == -signal.SIGKILL, "the export ended before it was killed"
        assert_consistent(out)
        assert parquet_files(out) == []  # killed before its commit: nothing visible
    final = export(str(fleet), "--to", str(out))
    named = assert_consistent(out)
    assert {p.relative_to(out).as_posix() for p in parquet_files(out)} == named
    assert not (out / ".staging").exists()
    checkpoints = [r["source"] for r in read_table(out, "checkpoints")]
    assert sorted(checkpoints) == sorted(str(p) for p in fleet.iterdir())  # each exactly once
    assert final["totals"]["exported"] == 60


def test_a_commit_cut_short_is_finished_by_the_next_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import foldctl.parquet as parquet

    out = tmp_path / "out"
    real = parquet.recover
    calls: list[int] = []

    def dies_after_the_manifest(to: Path, manifest: dict[str, Any]) -> None:
        calls.append(1)
        if len(calls) == 2:  # the commit's renames: the process "dies" here
            raise KeyboardInterrupt
        real(to, manifest)

    monkeypatch.setattr(parquet, "recover", dies_after_the_manifest)
    with pytest.raises(KeyboardInterrupt):
        parquet.export([str(SAMPLES / "nested_chain.json")], out, jobs=1)
    manifest = json.loads((out / "manifest.json").read_bytes())
    assert len(manifest["exports"]) == 1 and parquet_files(out) == []  # nothing visible yet
    monkeypatch.setattr(parquet, "recover", real)
    again = parquet.export([str(SAMPLES / "nested_chain.json")], out, jobs=1)
    assert again.export_id is None  # already exported: the manifest says so
    assert {p.relative_to(out).as_posix() for p in parquet_files(out)} == set(
        manifest["exports"][0]["files"]
    )
    assert len(read_table(out, "checkpoints")) == 1


# --------------------------------------------------------------------------- the extra


def test_without_pyarrow_export_says_how_to_install_it(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['pyarrow'] = None; sys.modules['pyarrow.parquet'] = None\n"
        "from foldctl.cli.main import main\n"
        f"main(['export', {str(SAMPLES / 'unicode.json')!r}, '--to', {str(tmp_path / 'o')!r}])"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 2
    assert proc.stderr == (
        "foldctl: error: export needs pyarrow, which is not installed: "
        "pip install 'foldctl[fleet]'\n"
    )
    assert not (tmp_path / "o").exists()
