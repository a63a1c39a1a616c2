"""Which formats each command writes, and the function that renders each pair.

Every command declares its formats here once: the command line offers exactly
these (``--help`` lists them) and refuses any other with one line.  Renderers
are named ``module:function`` and imported only when used, so a command loads
the code of its own format and nothing else.  A renderer is called as
``function(result, output)`` with the command's plain result object and an
:class:`~foldctl.render.Output`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Final

from foldctl.errors import UsageError
from foldctl.render import Output, OutputFormat

F = OutputFormat
_TABLE: Final = {
    F.text: "foldctl.render.text:table",
    F.json: "foldctl.render.sink:document",
    F.jsonl: "foldctl.render.sink:records",
    F.csv: "foldctl.render.delimited:csv",
    F.tsv: "foldctl.render.delimited:tsv",
}

#: (command, format) -> renderer, in the order ``--help`` lists the formats.
RENDERERS: Final[dict[str, dict[OutputFormat, str]]] = {
    "show": {
        F.text: "foldctl.render.text:show",
        F.json: "foldctl.render.sink:document",
        F.markdown: "foldctl.render.markdown:show",
    },
    "expand": {
        F.text: "foldctl.render.text:expand",
        F.markdown: "foldctl.render.markdown:expand",
        F.json: "foldctl.render.sink:document",
        F.jsonl: "foldctl.render.sink:records",
    },
    "spans": _TABLE,
    "stages": _TABLE,
    "sessions": _TABLE,
    "redactions": _TABLE,
    "locate": {**_TABLE, F.text: "foldctl.render.locate_text:locators"},
    "grep": {
        F.text: "foldctl.render.grep_text:grep",
        F.json: "foldctl.render.sink:document",
        F.jsonl: "foldctl.render.sink:records",
        F.csv: "foldctl.render.delimited:csv",
        F.tsv: "foldctl.render.delimited:tsv",
    },
    "diff": {
        F.text: "foldctl.render.diff_text:diff",
        F.json: "foldctl.render.sink:document",
        F.jsonl: "foldctl.render.sink:records",
        F.csv: "foldctl.render.diff_text:csv",
        F.tsv: "foldctl.render.diff_text:tsv",
    },
    "verify": {
        F.text: "foldctl.render.verify_text:verify",
        F.json: "foldctl.render.sink:document",
        F.jsonl: "foldctl.render.sink:records",
    },
    "fingerprint": {
        F.text: "foldctl.render.text:fingerprint",
        F.json: "foldctl.render.sink:document",
    },
    "report": {F.html: "foldctl.render.html:report"},
    "claims": {
        F.text: "foldctl.render.claims_text:claims",
        F.json: "foldctl.render.sink:document",
        F.jsonl: "foldctl.render.sink:records",
        F.csv: "foldctl.render.delimited:csv",
        F.tsv: "foldctl.render.delimited:tsv",
        F.markdown: "foldctl.render.claims_text:claims_markdown",
    },
    "export": {
        F.text: "foldctl.render.export_text:export",
        F.json: "foldctl.render.sink:document",
    },
}

Renderer = Callable[[Any, Output], None]


def formats(command: str) -> tuple[OutputFormat, ...]:
    """The formats ``command`` writes, the first being its default."""
    return tuple(RENDERERS[command])


def check(command: str, fmt: OutputFormat) -> None:
    """:class:`UsageError` when ``command`` does not write ``fmt``."""
    if fmt not in RENDERERS[command]:
        names = ", ".join(f.value for f in RENDERERS[command])
        raise UsageError(f"{command} does not write {fmt.value}; choose from {names}")


def renderer(command: str, fmt: OutputFormat) -> Renderer:
    """The function that renders ``command``'s result as ``fmt``."""
    check(command, fmt)
    module, name = RENDERERS[command][fmt].split(":")
    function: Renderer = getattr(importlib.import_module(module), name)
    return function


def render(command: str, fmt: OutputFormat, result: Any, output: Output) -> None:
    """Render ``result`` (the command's plain result object) as ``fmt`` into ``output``."""
    renderer(command, fmt)(result, output)
