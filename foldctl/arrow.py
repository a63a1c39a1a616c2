"""Arrow tables of one checkpoint: the pure function every engine maps over sources.

``foldctl.arrow.tables(source)`` gives the four tables ``foldctl export`` writes
(``checkpoints``, ``spans``, ``messages``, ``findings``) for one source, as
:class:`pyarrow.Table` objects with the schema of :mod:`foldctl.schemas.parquet`.
The export to a folder, :func:`foldctl.dask.read` and Spark's ``mapInArrow``
(:func:`mapper`, :func:`spark_schema`) are thin maps of it.  Needs the ``fleet``
extra: ``pip install 'foldctl[fleet]'``.

Arrow strings are UTF-8, which cannot carry a lone UTF-16 surrogate (the
reference runtime writes one when it cuts an emoji in half); such a character is
written as the six characters ``\\udxxx``, as foldctl's CSV does.  The ``digest``
column is computed from the message as stored, so it still names it exactly.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Final

from foldctl.optional import require
from foldctl.query.tables import Columns, SourceTables, source_tables
from foldctl.schemas.parquet import TABLES
from foldctl.sources.files import SourceSpec
from foldctl.version import __version__

if TYPE_CHECKING:
    import pyarrow as pa
else:
    pa = require("pyarrow", "foldctl.arrow")

__all__ = ["TABLE_NAMES", "mapper", "schema", "sources", "spark_schema", "tables"]

TABLE_NAMES: Final = tuple(TABLES)

_ARROW_TYPES: Final[dict[str, Any]] = {
    "string": pa.string(),
    "int64": pa.int64(),
    "float64": pa.float64(),
    "bool": pa.bool_(),
    "timestamp[ms, UTC]": pa.timestamp("ms", tz="UTC"),
    "list<string>": pa.list_(pa.string()),
    "list<int64>": pa.list_(pa.int64()),
}
_SPARK_TYPES: Final[dict[str, str]] = {
    "string": "STRING",
    "int64": "BIGINT",
    "float64": "DOUBLE",
    "bool": "BOOLEAN",
    "timestamp[ms, UTC]": "TIMESTAMP",
    "list<string>": "ARRAY<STRING>",
    "list<int64>": "ARRAY<BIGINT>",
}
_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def _check(table: str) -> None:
    if table not in TABLES:
        from foldctl.errors import UsageError

        raise UsageError(f"no table {table!r}; the tables are {', '.join(TABLES)}")


def schema(table: str) -> pa.Schema:
    """The Arrow schema of one table (column descriptions in each field's metadata)."""
    _check(table)
    return pa.schema(
        [
            pa.field(c.name, _ARROW_TYPES[c.type], c.nullable, {"description": c.description})
            for c in TABLES[table]
        ]
    )


def _escaped(value: Any) -> Any:
    if isinstance(value, str):
        return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", value)
    if isinstance(value, list):
        return [_escaped(v) for v in value]
    return value


def _array(values: list[Any], type_: Any) -> Any:
    try:
        return pa.array(values, type=type_)
    except UnicodeEncodeError:
        return pa.array([_escaped(v) for v in values], type=type_)


def to_table(table: str, columns: Columns) -> pa.Table:
    """Columns of plain values (:mod:`foldctl.query.tables`) as an Arrow table."""
    target = schema(table)
    arrays = [_array(columns[f.name], f.type) for f in target]
    return pa.Table.from_arrays(arrays, schema=target)


def to_tables(gathered: SourceTables | dict[str, Columns]) -> dict[str, pa.Table]:
    """Every table of one source (or of many gathered together) as Arrow tables."""
    cols = gathered.tables if isinstance(gathered, SourceTables) else gathered
    return {name: to_table(name, cols[name]) for name in TABLES}


def tables(source: SourceSpec, *, scheme: str | None = None) -> dict[str, pa.Table]:
    """The four tables of one source — a path, ``STORE.db#SESSION_ID``, or bytes in hand
    (:class:`foldctl.sources.files.RawSource`) — keyed by table name.

    A pure function of the source's bytes: the same bytes give the same tables on any
    machine.  Raises :class:`~foldctl.errors.InputError` for input that is not a
    checkpoint."""
    return to_tables(source_tables(source, scheme, version=__version__))


def sources(paths: str | Sequence[str]) -> list[str]:
    """Files, directories, quoted patterns (``'fleet/**/*.json'``) and stores expanded into
    the sources ``export`` would read, in its order; raises for one that cannot be
    expanded (an empty directory, a pattern that matches nothing)."""
    from foldctl.sources.scan import DEFAULT_EXCLUDES, scan_sources

    args = [paths] if isinstance(paths, str) else list(paths)
    found = scan_sources(args, DEFAULT_EXCLUDES)
    if found.errors:
        raise found.errors[0]
    return [s for s in found.sources if isinstance(s, str)]


def _map_batches(
    batches: Iterable[pa.RecordBatch], *, table: str, column: str, scheme: str | None
) -> Iterator[pa.RecordBatch]:
    for batch in batches:
        for source in batch.column(column).to_pylist():
            if source is None:
                continue
            yield from tables(source, scheme=scheme)[table].to_batches()


def mapper(
    table: str = "messages", *, column: str = "source", scheme: str | None = None
) -> Callable[[Iterable[pa.RecordBatch]], Iterator[pa.RecordBatch]]:
    """The function to hand Spark's ``DataFrame.mapInArrow``: record batches with a column
    of sources in, record batches of ``table`` out (schema: :func:`spark_schema`)."""
    _check(table)
    return functools.partial(_map_batches, table=table, column=column, scheme=scheme)


def spark_schema(table: str = "messages") -> str:
    """The Spark DDL schema of one table, for ``mapInArrow(..., schema)``."""
    _check(table)
    return ", ".join(f"`{c.name}` {_SPARK_TYPES[c.type]}" for c in TABLES[table])
