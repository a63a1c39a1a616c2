"""CSV (RFC 4180) and TSV for tabular output, with a header row.

Lists are joined with a space; null is an empty field.  In TSV, tab, newline,
carriage return and backslash inside a field are written as ``\\t``, ``\\n``,
``\\r`` and ``\\\\``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from foldctl import jsoncodec


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return " ".join(_cell(v) for v in value)
    if isinstance(value, dict):
        return jsoncodec.dumps(value).decode("utf-8")
    return str(value)


def _tsv_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def csv_chunks(rows: Iterable[dict[str, Any]], columns: Sequence[str]) -> Iterator[bytes]:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row.get(c)) for c in columns])
        yield buffer.getvalue().encode("utf-8", "backslashreplace")
        buffer.seek(0)
        buffer.truncate()
    yield buffer.getvalue().encode("utf-8", "backslashreplace")


def tsv_chunks(rows: Iterable[dict[str, Any]], columns: Sequence[str]) -> Iterator[bytes]:
    yield ("\t".join(columns) + "\n").encode("utf-8")
    for row in rows:
        line = "\t".join(_tsv_escape(_cell(row.get(c))) for c in columns)
        yield (line + "\n").encode("utf-8", "backslashreplace")
