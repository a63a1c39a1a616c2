"""CSV (RFC 4180) and TSV for tabular output, with a header row.

Lists of scalars are joined with a space (stage ids); a list holding objects or
lists, and an object, are written as compact JSON; null is an empty field;
booleans are ``true``/``false``.  CSV quotes as RFC 4180 says (a field with a
comma, quote, CR or LF is quoted, quotes doubled; lines end with CRLF).  In
TSV, tab, newline, carriage return and backslash inside a field are written
as ``\\t``, ``\\n``, ``\\r`` and ``\\\\``.  Text is UTF-8; a lone surrogate, which
UTF-8 cannot carry, is written as the six characters ``\\udxxx``.
"""

from __future__ import annotations

import csv as _csv
import io
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from foldctl import jsoncodec
from foldctl.render import Output, Tabular
from foldctl.render.sink import write_chunks


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        if any(isinstance(v, (list, dict)) for v in value):
            return jsoncodec.dumps(value).decode("utf-8")  # structure kept, not flattened
        return " ".join(_cell(v) for v in value)
    if isinstance(value, dict):
        return jsoncodec.dumps(value).decode("utf-8")
    return str(value)


def _tsv_escape(text: str) -> str:
    # A lone surrogate becomes the text \udxxx first, so its backslash is escaped like any
    # other and the field reads back as the same \udxxx that CSV carries.
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def csv_chunks(rows: Iterable[dict[str, Any]], columns: Sequence[str]) -> Iterator[bytes]:
    buffer = io.StringIO()
    writer = _csv.writer(buffer, lineterminator="\r\n")
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


def csv(result: Tabular, output: Output) -> None:
    rows, columns = result.table()
    write_chunks(csv_chunks(rows, columns), output.out)


def tsv(result: Tabular, output: Output) -> None:
    rows, columns = result.table()
    write_chunks(tsv_chunks(rows, columns), output.out)
