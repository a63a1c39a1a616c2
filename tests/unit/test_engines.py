"""The engine adapters over ``foldctl.arrow.tables``: Dask on a real two-process
LocalCluster and Spark's ``mapInArrow`` contract, each equal to what ``export`` writes."""

from __future__ import annotations

import doctest
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import foldctl.arrow
from foldctl.schemas.parquet import TABLES
from foldctl.sources.files import RawSource
from tests.support import CONFORMANCE, REPO, SAMPLES, run_cli

#: How rows of each table are ordered for comparison.
ORDER = {
    "checkpoints": ("source",),
    "spans": ("source", "span"),
    "messages": ("source", "seq"),
    "findings": ("source", "code", "locator", "span", "message"),
}


def sources() -> list[str]:
    found = [str(SAMPLES)]
    return [*found, str(CONFORMANCE)] if CONFORMANCE.is_dir() else found


def exported(tmp_path: Path) -> Path:
    out = tmp_path / "out"
    result = run_cli("export", *sources(), "--to", str(out), "--jobs", "2")
    assert result.exit_code == 0, result.stderr
    return out


def ordered(rows: list[dict[str, Any]], table: str) -> list[dict[str, Any]]:
    key = ORDER[table]
    return sorted(rows, key=lambda r: tuple("" if r[k] is None else str(r[k]) for k in key))


def export_rows(out: Path, table: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for path in sorted((out / table).glob("*/*.parquet")):
        rows += pq.read_table(path).to_pylist()
    return ordered(rows, table)


def test_dask_on_a_local_cluster_equals_the_export(tmp_path: Path) -> None:
    from distributed import Client, LocalCluster

    import foldctl.dask

    out = exported(tmp_path)
    with (
        LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,  # type: ignore[no-untyped-call]
    ):
        assert len(client.scheduler_info()["workers"]) == 2
        for table in TABLES:
            frame = foldctl.dask.read(sources(), table=table)
            assert frame.npartitions == len(foldctl.arrow.sources(sources()))
            computed = frame.compute()
            arrow = pa.Table.from_pandas(
                computed, schema=foldctl.arrow.schema(table), preserve_index=False
            )
            assert ordered(arrow.to_pylist(), table) == export_rows(out, table), table


def test_dask_frames_have_the_tables_types() -> None:
    import foldctl.dask

    frame = foldctl.dask.read(str(SAMPLES / "nested_chain.json"), table="spans")
    assert list(frame.columns) == [c.name for c in TABLES["spans"]]
    assert str(frame.dtypes["removedStageIds"]) == "list<item: string>[pyarrow]"
    assert len(frame.compute(scheduler="sync")) == 7


def batches_of(names: list[str], size: int) -> Iterator[pa.RecordBatch]:
    """Record batches of source names, as Spark hands them to a mapInArrow function."""
    for i in range(0, len(names), size):
        yield pa.RecordBatch.from_pydict({"source": names[i : i + size]})


def test_the_spark_function_maps_record_batches_like_the_export(tmp_path: Path) -> None:
    out = exported(tmp_path)
    names = foldctl.arrow.sources(sources())
    for table in TABLES:
        function = foldctl.arrow.mapper(table)
        produced = list(function(batches_of(names, 7)))
        assert all(isinstance(b, pa.RecordBatch) for b in produced)
        target = foldctl.arrow.schema(table)
        assert all(b.schema.equals(target) for b in produced)
        rows = [row for b in produced for row in b.to_pylist()]
        assert ordered(rows, table) == export_rows(out, table), table


def test_the_spark_schema_names_every_column() -> None:
    ddl = foldctl.arrow.spark_schema("messages")
    assert ddl.startswith("`source` STRING, `sha256` STRING, `format` STRING, `seq` BIGINT")
    assert "`chain` ARRAY<BIGINT>" in ddl and "`where` STRING" in ddl
    assert ddl.count("`") == 2 * len(TABLES["messages"])
    assert "`foldedAt` TIMESTAMP" in foldctl.arrow.spark_schema("spans")
    with pytest.raises(foldctl.UsageError):
        foldctl.arrow.spark_schema("nope")


def test_tables_is_a_pure_function_of_the_bytes() -> None:
    path = SAMPLES / "unicode.json"
    by_path = foldctl.arrow.tables(str(path))
    by_bytes = foldctl.arrow.tables(RawSource(str(path), path.read_bytes()))
    for table in TABLES:
        assert by_path[table].equals(by_bytes[table]), table
    # a lone surrogate (a cut emoji) is written as its escape; the digest names the original
    contents = by_path["messages"].column("content").to_pylist()
    assert any("\\ud83d" in c for c in contents if c)


def test_the_export_doc_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    result = doctest.testfile(
        str(REPO / "docs" / "export.md"),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
    )
    assert result.attempted >= 4 and result.failed == 0


def test_importing_foldctl_loads_no_engine() -> None:
    code = (
        "import foldctl, sys; foldctl.open('sample_checkpoints/nested_chain.json')\n"
        "list(foldctl.grep('refund', ['sample_checkpoints']))\n"
        "heavy = ('pyarrow', 'dask', 'distributed', 'duckdb', 'pandas', 'typer', 'rich', 'mcp')\n"
        "print(sorted(m for m in heavy if m in sys.modules))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True
    )
    assert proc.stdout.strip() == "[]"
