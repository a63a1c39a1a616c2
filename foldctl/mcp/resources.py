"""The resources: each session as ``foldctl://session/{source}`` (its folds: the first
answer of the ``folds`` tool), and a template for each span's originals,
``foldctl://session/{source}/span/{span}`` (the first answer of ``expand`` for that
fold).  ``{source}`` is the session's source, percent-encoded whole (``/`` and ``#``
too).  A resource is bounded as a tool's answer is; its ``next`` continues it with
the tool.
"""

from __future__ import annotations

import itertools
import urllib.parse
from typing import Any, Final

import msgspec

import foldctl
from foldctl.errors import FoldctlError, UsageError
from foldctl.mcp import schemas, tools
from foldctl.mcp.service import Answer, Service

SCHEME: Final = "foldctl://session/"
TEMPLATE: Final = SCHEME + "{source}/span/{span}"
#: Sessions per page of the resource list.
PAGE: Final = 50


class Listed(msgspec.Struct, frozen=True):
    uri: str
    name: str
    title: str
    description: str


def uri_of(source: str) -> str:
    return SCHEME + urllib.parse.quote(source, safe="")


def listing(service: Service, start: int) -> tuple[list[Listed], int | None]:
    """The sessions under the roots from the ``start``-th, a page of them, and where the
    next page starts (None: the last page)."""
    rows: list[dict[str, Any]] = []
    for root in service.roots.each(None):
        try:
            rows_of = foldctl.sessions_in(root).rows
        except FoldctlError:
            continue  # list_sessions says why; a resource list has no room for it
        rows.extend(itertools.islice(rows_of, max(0, start + PAGE + 1 - len(rows))))
        if len(rows) > start + PAGE:
            break
    page = rows[start : start + PAGE]
    out = []
    for row in page:
        row = service.budget.shape(row)[0]
        saved = row.get("savedAt") or "time not recorded"
        folds = row.get("folds")
        what = row.get("error") or f"{folds} folds, saved {saved}"
        out.append(
            Listed(
                uri_of(row["source"]),
                str(row["session"]),
                f"{row['session']} ({row.get('kind')})",
                f"Session {row['source']}: {what}. Read it for its folds.",
            )
        )
    more = start + PAGE if len(rows) > start + PAGE else None
    return out, more


def read(service: Service, uri: str) -> Answer:
    """A resource's document: a session's folds, or a span's originals."""

    def work() -> dict[str, Any]:
        if not uri.startswith(SCHEME):
            raise UsageError(f"{uri}: not a resource of this server (expected {SCHEME}...)")
        rest = uri[len(SCHEME) :]
        head, sep, index = rest.rpartition("/span/")  # no regex: a URI is the client's text
        if sep and head and "\n" not in head and index.isdecimal():
            source = urllib.parse.unquote(head)
            args = {"source": source, "locator": f"f{index}"}
            tool = tools.EXPAND
        else:
            args = {"source": urllib.parse.unquote(rest)}
            tool = tools.FOLDS
        return tool.work(service, schemas.checked(tool.input_schema, args))

    return service.answer(work)
