"""What the server holds while it runs, and the one way a tool's work becomes an answer.

The service knows the roots, the byte budget, the redactor and the cursors' key; it
opens sources (checked against the roots, the last one kept while its file is
unchanged), turns a stream of items into one bounded page, and turns any failure
into the one line the command line would print.  It knows nothing of the protocol:
:mod:`foldctl.mcp.server` carries its answers.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import msgspec

import foldctl
from foldctl import jsoncodec
from foldctl.errors import FoldctlError
from foldctl.mcp.paging import Budget, Cursors
from foldctl.mcp.roots import Roots


class Answer(msgspec.Struct):
    """A tool's answer: the document (None for an error) and its text."""

    document: dict[str, Any] | None
    text: str

    @property
    def is_error(self) -> bool:
        return self.document is None


def _stamp(path: str) -> list[int]:
    """A file's size and modification time (of the store, for ``STORE.db#SESSION``)."""
    file = path
    while "#" in file and not os.path.isfile(file):
        file = file.rsplit("#", 1)[0]
    try:
        info = os.stat(file)
    except OSError:
        return [-1, -1]
    return [info.st_size, info.st_mtime_ns]


class Service(msgspec.Struct):
    """The state of one server run."""

    roots: Roots
    max_bytes: int
    redactor: foldctl.Redactor | None = None
    cursors: Cursors = msgspec.field(default_factory=Cursors)
    _open: tuple[tuple[str, list[int]], foldctl.Conversation] | None = None
    #: the cursor of the last answer, and the rest of its items
    _kept: tuple[str, Iterator[Any]] | None = None

    @property
    def budget(self) -> Budget:
        return Budget(self.max_bytes, self._redact)

    def _redact(self, value: Any) -> Any:
        if self.redactor is None:
            return value
        return self.redactor.redact_value(value)[0]

    def source(self, spec: str) -> str:
        """The path the server reads for ``spec`` (checked against the roots)."""
        return self.roots.check(spec)

    def open(self, spec: str) -> tuple[str, foldctl.Conversation]:
        """The checked path and its conversation (redacted when asked for); the last one
        opened is kept while its file is unchanged, so paging does not load it again."""
        path = self.source(spec)
        key = (path, _stamp(path))
        if self._open is not None and self._open[0] == key:
            return path, self._open[1]
        self._open = None
        conversation = foldctl.open(path).redacted(self.redactor)
        self._open = (key, conversation)
        return path, conversation

    def question(self, tool: str, arguments: dict[str, Any], *paths: str) -> list[Any]:
        """What a cursor is bound to: the tool, its arguments, the sources' stamps."""
        asked = {k: v for k, v in arguments.items() if k != "cursor"}
        return [tool, asked, [[p, _stamp(p)] for p in paths]]

    def page(
        self,
        envelope: dict[str, Any],
        key: str,
        items: Callable[[int], Iterator[Any]],
        question: list[Any],
        cursor: str | None,
        limit: int,
    ) -> dict[str, Any]:
        """``envelope`` with the page of items under ``key`` that the cursor (or the
        start) begins, within the budget, and the paging keys.  ``items(i)`` gives the
        items from the ``i``-th on; the page that answered a cursor's question last
        keeps its place, so asking for the pages in turn reads the source once."""
        budget = self.budget
        start = (0, 0) if cursor is None else self.cursors.read(cursor, question)
        shaped = budget.shape(envelope)[0]
        probe = self.cursors.make(question, (1 << 40, 1 << 40))
        room = budget.room({**shaped, key: []}, len(probe))
        kept, self._kept = self._kept, None
        if cursor is not None and kept is not None and kept[0] == cursor:
            stream = kept[1]
        else:
            stream = iter(items(start[0]))
        page = budget.page(stream, start, room, limit)
        following = None if page.next is None else self.cursors.make(question, page.next)
        if following is not None and page.rest is not None:
            self._kept = (following, page.rest)
        return {
            **shaped,
            key: page.items,
            "complete": page.next is None,
            "stopped": page.stopped,
            "next": following,
        }

    def answer(self, work: Callable[[], dict[str, Any]]) -> Answer:
        """Run a tool's work: its document, or the one line the command line prints for
        its failure (never an exception: the server survives any input)."""
        try:
            document = work()
        except FoldctlError as e:
            return Answer(None, self.error_line(e))
        except MemoryError:
            return Answer(None, self.error_line("out of memory; the answer needs more memory"))
        except RecursionError:
            return Answer(None, self.error_line("input nested too deeply to answer"))
        except Exception as e:  # a bug: said in one line, never a crash of the server
            return Answer(None, self.error_line(f"internal error: {type(e).__name__}: {e}"))
        return Answer(document, jsoncodec.dumps(document).decode("utf-8"))

    def error_line(self, error: BaseException | str) -> str:
        """``foldctl: error: ...``, as the command line prints it (redacted when asked)."""
        text = foldctl.one_line(str(error))
        if self.redactor is not None:
            try:
                text = self.redactor.redact_text(text)[0]
            except FoldctlError:
                text = "an error whose text could not be redacted"
        return f"foldctl: error: {text}"

    def failure(self, error: FoldctlError) -> dict[str, Any]:
        """An item for a source that could not be read, among many."""
        source = getattr(error, "source", "") or ""
        return {"source": source, "error": self.error_line(error)}
