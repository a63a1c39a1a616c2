"""Dask DataFrames of a fleet of checkpoints, one partition per source.

``foldctl.dask.read("fleet/", table="messages")`` expands files, directories,
quoted patterns and stores as ``export`` does and builds the DataFrame with
``dask.dataframe.from_map`` over :func:`foldctl.arrow.tables`: each partition is
one source's table, computed where the task runs (a ``distributed`` cluster
ships the source name, never the data).  Columns and types are those of
:mod:`foldctl.schemas.parquet`, as pandas Arrow-backed dtypes, so a partition
equals what ``export`` writes for that source.  Needs the ``fleet`` extra.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from foldctl.arrow import schema, sources, tables
from foldctl.errors import NotACheckpoint
from foldctl.optional import require

if TYPE_CHECKING:
    import dask.dataframe as dd
    import pandas as pd
else:
    dd = require("dask.dataframe", "foldctl.dask")
    pd = require("pandas", "foldctl.dask")

__all__ = ["read"]


def _frame(table: str, arrow: Any) -> Any:
    return arrow.to_pandas(types_mapper=pd.ArrowDtype)


class _Partition:
    """One source's table as a pandas DataFrame (picklable: it travels to the workers)."""

    def __init__(self, table: str, scheme: str | None, lenient: frozenset[str]) -> None:
        self.table = table
        self.scheme = scheme
        self.lenient = lenient

    def __call__(self, source: str) -> Any:
        try:
            arrow = tables(source, scheme=self.scheme)[self.table]
        except NotACheckpoint:
            if source not in self.lenient:
                raise
            arrow = schema(self.table).empty_table()  # JSON found in a directory: passed over
        return _frame(self.table, arrow)


def read(
    paths_or_glob: str | Sequence[str], table: str = "messages", *, scheme: str | None = None
) -> Any:
    """A ``dask.dataframe.DataFrame`` of one table over every source found.

    A source that cannot be read fails its partition's task with its
    :class:`~foldctl.errors.InputError` when the frame is computed; a JSON file found in
    a directory that is no checkpoint at all is an empty partition.
    """
    from foldctl.sources.scan import DEFAULT_EXCLUDES, scan_sources

    names = sources(paths_or_glob)
    args = [paths_or_glob] if isinstance(paths_or_glob, str) else list(paths_or_glob)
    lenient = scan_sources(args, DEFAULT_EXCLUDES).from_directories
    meta = _frame(table, schema(table).empty_table())
    return dd.from_map(  # type: ignore[no-untyped-call]
        _Partition(table, scheme, frozenset(lenient)),
        names,
        meta=meta,
        label=f"foldctl-{table}",
        enforce_metadata=False,
    )
