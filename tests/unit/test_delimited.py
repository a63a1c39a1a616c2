"""CSV (RFC 4180) and TSV: a header row, quoting and escapes that read back to the same fields."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldctl.render.delimited import csv_chunks, tsv_chunks
from tests.support import run_cli
from tests.support.builders import Convo, write_doc

HARD = [
    "plain",
    "comma, inside",
    'a "quoted" word',
    "line one\nline two",
    "crlf\r\nend",
    "lone cr\r",
    "tab\there",
    "back\\slash and \\t literally",
    "résumé 会议 😀 ‮",
    " leading and trailing ",
    "",
    '"',
    "=1+2",
]


def csv_text(rows: list[dict[str, Any]], columns: list[str]) -> bytes:
    return b"".join(csv_chunks(rows, columns))


def tsv_text(rows: list[dict[str, Any]], columns: list[str]) -> bytes:
    return b"".join(tsv_chunks(rows, columns))


_TSV_ESCAPE = re.compile(r"\\(.)")


def tsv_unescape(field: str) -> str:
    return _TSV_ESCAPE.sub(lambda m: {"t": "\t", "n": "\n", "r": "\r"}.get(m[1], m[1]), field)


def read_tsv(data: bytes) -> list[list[str]]:
    lines = data.decode("utf-8").split("\n")
    assert lines[-1] == ""  # every line ends with a newline
    return [[tsv_unescape(f) for f in line.split("\t")] for line in lines[:-1]]


def test_csv_fields_read_back_exactly() -> None:
    rows = [{"n": i, "text": text} for i, text in enumerate(HARD)]
    data = csv_text(rows, ["n", "text"])
    parsed = list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))
    assert parsed[0] == ["n", "text"]
    assert [r[1] for r in parsed[1:]] == HARD
    assert data.count(b"\r\n") >= len(HARD) + 1  # RFC 4180 line ends
    assert b'"a ""quoted"" word"' in data  # quotes doubled inside a quoted field
    assert b"\r\n0,plain\r\n" in data  # a simple field is not quoted


def test_tsv_fields_read_back_exactly() -> None:
    rows = [{"n": i, "text": text} for i, text in enumerate(HARD)]
    data = tsv_text(rows, ["n", "text"])
    parsed = read_tsv(data)
    assert parsed[0] == ["n", "text"]
    assert [r[1] for r in parsed[1:]] == HARD
    assert len(data.decode().split("\n")) == len(HARD) + 2  # one line per row, no raw newline


def test_values_that_are_not_strings() -> None:
    row = {
        "none": None,
        "yes": True,
        "no": False,
        "int": 3,
        "float": 1.5,
        "stages": ["seed#0", "tool-calls#23"],
        "calls": [{"name": "a, b", "args": {"x": [1, 2]}}],
        "nested": [[1, 2], [3]],
        "obj": {"k": "v"},
    }
    columns = list(row)
    [header, values] = list(csv.reader(io.StringIO(csv_text([row], columns).decode())))
    assert header == columns
    assert values == [
        "", "true", "false", "3", "1.5", "seed#0 tool-calls#23",
        '[{"name":"a, b","args":{"x":[1,2]}}]', "[[1,2],[3]]", '{"k":"v"}',
    ]  # fmt: skip
    assert read_tsv(tsv_text([row], columns))[1] == values


def test_lone_surrogates_are_written_as_escapes() -> None:
    row = {"text": "cut \ud83d here", "obj": {"t": "\udc00"}}
    data = csv_text([row], ["text", "obj"])
    data.decode("utf-8")  # always valid UTF-8
    assert list(csv.reader(io.StringIO(data.decode())))[1] == [
        "cut \\ud83d here",
        '{"t":"\\udc00"}',
    ]
    tsv = read_tsv(tsv_text([row], ["text", "obj"]))
    assert tsv[1] == ["cut \\ud83d here", '{"t":"\\udc00"}']


def test_no_rows_is_a_header_alone() -> None:
    assert csv_text([], ["a", "b"]) == b"a,b\r\n"
    assert tsv_text([], ["a", "b"]) == b"a\tb\n"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(st.characters(exclude_categories=["Cs"])), min_size=1, max_size=5))
def test_any_text_round_trips(fields: list[str]) -> None:
    columns = [f"c{i}" for i in range(len(fields))]
    row = dict(zip(columns, fields, strict=True))
    parsed = list(csv.reader(io.StringIO(csv_text([row], columns).decode("utf-8"), newline="")))
    assert parsed == [columns, fields]
    assert read_tsv(tsv_text([row], columns)) == [columns, fields]


# --------------------------------------------------------------------------- through the CLI


@pytest.fixture
def hostile(tmp_path: Path) -> str:
    """A checkpoint whose model name and span fields need quoting in every format."""
    c = Convo()
    c.add("user", 'Audit "ACCT-8842", then\nreport\tback')
    c.add("assistant", "ok")
    c.fold(0, 2, "Summary, with a comma", model='mini, "quoted"\nmodel\t😀')
    doc = c.checkpoint()
    doc["folded"][0]["removedStageIds"] = ["seed#0", "tool-calls#1"]
    return str(write_doc(tmp_path / "hostile.json", doc))


@pytest.mark.parametrize("command", ["spans", "stages"])
def test_tables_quote_hostile_fields(hostile: str, command: str) -> None:
    rows = list(
        csv.DictReader(io.StringIO(run_cli(command, hostile, "-f", "csv").stdout, newline=""))
    )
    assert rows[0]["model"] == 'mini, "quoted"\nmodel\t😀'
    tsv = read_tsv(run_cli(command, hostile, "-f", "tsv").stdout_bytes)
    assert dict(zip(tsv[0], tsv[1], strict=True))["model"] == 'mini, "quoted"\nmodel\t😀'


def test_grep_csv_carries_match_text_exactly(hostile: str) -> None:
    result = run_cli("grep", "-F", '"ACCT-8842", then\nreport\tback', hostile, "-f", "csv")
    [row] = list(csv.DictReader(io.StringIO(result.stdout, newline="")))
    assert row["text"] == '"ACCT-8842", then\nreport\tback'
    tsv = read_tsv(run_cli("grep", "-F", "report\tback", hostile, "-f", "tsv").stdout_bytes)
    assert dict(zip(tsv[0], tsv[1], strict=True))["text"] == "report\tback"
