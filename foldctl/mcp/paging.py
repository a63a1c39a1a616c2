"""Answers within a byte budget: pages, opaque cursors, and long values cut.

Every answer is one JSON document no larger than the budget (its compact UTF-8 JSON,
as the text content of the tool result; the structured content is the same
document).  Items (messages, hits, rows) are added while they fit; the answer then
says it stopped early (``complete: false``, ``stopped``) and gives the cursor that
continues exactly there.  An item too large for a page is cut, never dropped:

* a message whose ``content`` is text keeps every other field and a slice of its
  content, with ``cut`` saying the content's length and the slice shown
  (``start``, ``end``, in characters); the next page continues the content;
* anything else too large, or nested deeper than :data:`MAX_NESTING` levels, comes
  as pieces of its compact JSON text: ``{"piece": {"of", "length", "start", "end"},
  "json": "..."}``, in order.

A cursor is opaque: a position (an item, a character in it) and a digest of the
question it answers (the tool, its arguments, the source's size and time), signed
with a key the server draws when it starts.  A cursor for other arguments, or for a
source that changed since, is refused with one line.

Text goes on the wire as UTF-8, which cannot carry a lone surrogate: one is shown as
the six characters ``\\udxxx``, as foldctl's text output shows it (the digest is
still the original message's).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import itertools
import re
import secrets
from collections.abc import Callable, Iterator
from typing import Any, Final

import msgspec

from foldctl import jsoncodec
from foldctl.errors import UsageError
from foldctl.mcp.limits import DEFAULT_BYTES

#: An item nested deeper than this comes as pieces of its JSON text (the protocol's
#: serializer stops at a few hundred levels; a message is rarely nested ten deep).
MAX_NESTING: Final = 64
#: What a page keeps free for its envelope beyond the envelope's own size.
_SLACK: Final = 64
#: The least room worth a slice of an item; with less, the item starts the next page.
_MIN_SLICE: Final = 256

_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def size(value: Any) -> int:
    """Bytes of ``value`` as compact JSON."""
    return len(jsoncodec.dumps(value))


def _visible(text: str) -> str:
    if _SURROGATE.search(text) is None:
        return text
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def wire_safe(value: Any) -> tuple[Any, int]:
    """A copy of ``value`` that the protocol can carry (lone surrogates shown as
    ``\\udxxx``), and how deeply it is nested.  Iterative: any depth."""
    depth = 0
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any, int]] = [(value, root, 0, 1)]
    while stack:
        item, parent, key, level = stack.pop()
        if isinstance(item, dict):
            depth = max(depth, level)
            copy: dict[str, Any] = {}
            parent[key] = copy
            for k, v in item.items():
                name = _visible(k) if isinstance(k, str) else str(k)
                copy[name] = None
                stack.append((v, copy, name, level + 1))
        elif isinstance(item, list | tuple):
            depth = max(depth, level)
            listed: list[Any] = [None] * len(item)
            parent[key] = listed
            stack.extend((v, listed, i, level + 1) for i, v in enumerate(item))
        elif isinstance(item, str):
            parent[key] = _visible(item)
        else:
            parent[key] = item
    return root[0], depth


# --------------------------------------------------------------------------- cursors


class Cursors(msgspec.Struct):
    """Makes and reads the opaque cursors of one server run."""

    key: bytes = msgspec.field(default_factory=lambda: secrets.token_bytes(32))

    def _question(self, question: Any) -> str:
        return hashlib.sha256(jsoncodec.dumps(question, sort_keys=True)).hexdigest()[:16]

    def _sign(self, body: bytes) -> str:
        return hmac.new(self.key, body, hashlib.sha256).hexdigest()[:16]

    def make(self, question: Any, position: tuple[int, int]) -> str:
        body = f"{self._question(question)}.{position[0]}.{position[1]}".encode("ascii")
        token = base64.urlsafe_b64encode(body).decode("ascii").rstrip("=")
        return f"{token}.{self._sign(body)}"

    def read(self, cursor: str, question: Any) -> tuple[int, int]:
        """The position ``cursor`` holds, or :class:`UsageError` when it is not one this
        server gave out for ``question``."""
        token, _, signature = cursor.partition(".")
        try:
            body = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        except (ValueError, TypeError):
            body = b""
        if not body or not hmac.compare_digest(self._sign(body), signature):
            raise UsageError(
                "cursor: not one this server gave out (a cursor lasts while the server "
                "runs); call again without it"
            )
        asked, item, offset = body.decode("ascii").split(".")
        if asked != self._question(question):
            raise UsageError(
                "cursor: made for other arguments, or the source changed since; call "
                "again with the arguments of the answer that gave it, or without it"
            )
        return int(item), int(offset)


# --------------------------------------------------------------------------- pages


class Page(msgspec.Struct):
    """The items of one answer, and where the next one starts (None: nothing is left)."""

    items: list[Any]
    next: tuple[int, int] | None
    stopped: str | None  # "budget" or "limit" when it stopped early
    #: the items from ``next`` on, as yet unread (None: nothing is left)
    rest: Iterator[Any] | None = None


class Budget(msgspec.Struct, frozen=True):
    """How large an answer may be, and how each item is made safe to send."""

    max_bytes: int = DEFAULT_BYTES
    #: applied to every item before it is measured (redaction, when asked for)
    prepare: Callable[[Any], Any] = lambda item: item

    def shape(self, item: Any) -> tuple[Any, int]:
        return wire_safe(self.prepare(item))

    def room(self, envelope: dict[str, Any], cursor_length: int) -> int:
        """Bytes left for items once ``envelope`` (with a cursor) is written; an envelope
        of more than a quarter of the budget (a long pattern, many sources) is refused,
        so that the first item of every page has room to be cut in."""
        fixed = size({**envelope, "next": "x" * cursor_length, "stopped": "budget"})
        if fixed > self.max_bytes // 4:
            raise UsageError(
                f"the arguments take {fixed} bytes of an answer of at most {self.max_bytes}; "
                "give fewer sources or a shorter pattern"
            )
        return self.max_bytes - fixed - _SLACK

    def page(
        self,
        items: Iterator[Any],
        start: tuple[int, int],
        room: int,
        limit: int,
    ) -> Page:
        """The items that fit in ``room`` bytes, ``limit`` items at most (an item cut in
        two counts once), from ``items``, which begins at item ``start[0]``; ``start[1]``
        is where in that item to begin.  The page keeps the rest of the stream, to go on
        from where it stopped without reading again what it passed."""
        index, offset = start
        out: list[Any] = []
        used = 0
        while True:
            raw = next(items, _END)
            if raw is _END:
                return Page(out, None, None)
            if len(out) >= limit:
                return Page(out, (index, 0), "limit", itertools.chain([raw], items))
            item, depth = self.shape(raw)
            left = room - used - (1 if out else 0)
            whole = size(item) if offset == 0 and depth <= MAX_NESTING else None
            if whole is not None and whole <= left:
                out.append(item)
                used += whole + (1 if len(out) > 1 else 0)
                index += 1
                continue
            fresh_fits = whole is not None and whole <= room
            cut = None if out and fresh_fits else self.cut(item, depth, offset, left, first=not out)
            if cut is None:
                return Page(out, (index, 0), "budget", itertools.chain([raw], items))
            piece, end = cut
            out.append(piece)
            if end is not None:
                return Page(out, (index, end), "budget", itertools.chain([raw], items))
            used += size(piece) + (1 if len(out) > 1 else 0)
            index, offset = index + 1, 0

    def _frame(self, item: Any, depth: int) -> tuple[dict[str, Any], str, bool]:
        """How ``item`` is cut: the largest form its cut can take with no text in it, the
        text it is cut along, and whether that is its content (else its JSON text).
        Decided by the item and the budget alone, so each page cuts it the same way."""
        content = item.get("content") if isinstance(item, dict) else None
        if isinstance(content, str) and depth <= MAX_NESTING:
            n = len(content)
            rest = {**item, "content": "", "cut": _note("content", n, n, n)}
            if size(rest) <= self.max_bytes // 2:
                return rest, content, True
        text = jsoncodec.dumps(item).decode("utf-8")
        of = item.get("locator") if isinstance(item, dict) else None
        n = len(text)
        return {"piece": {"of": of, "length": n, "start": n, "end": n}, "json": ""}, text, False

    def cut(
        self, item: Any, depth: int, offset: int, room: int, *, first: bool
    ) -> tuple[Any, int | None] | None:
        """A slice of ``item`` from ``offset`` that fits ``room``, and where the rest
        starts (None: this slice ends the item); None when no useful slice fits and the
        item is not the first of its page (it starts the next one)."""
        frame, text, is_content = self._frame(item, depth)
        avail = room - size(frame)
        if not first and avail < _MIN_SLICE:
            return None
        end = offset + _fitting(text, offset, avail)
        rest = end if end < len(text) else None
        if is_content:
            return {
                **item,
                "content": text[offset:end],
                "cut": _note("content", len(text), offset, end),
            }, rest
        of = frame["piece"]["of"]
        return {
            "piece": {"of": of, "length": len(text), "start": offset, "end": end},
            "json": text[offset:end],
        }, rest


def _note(field: str, length: int, start: int, end: int) -> dict[str, Any]:
    return {"field": field, "length": length, "start": start, "end": end}


_END: Final = object()


def _fitting(text: str, start: int, room: int) -> int:
    """The most characters of ``text`` from ``start`` whose JSON string fits ``room``
    bytes; at least one, so every page moves on."""
    if start >= len(text):
        return 0
    hi = min(len(text) - start, max(room, 0))
    if hi <= 0:
        return min(1, len(text) - start)
    if size(text[start : start + hi]) <= room:
        return hi
    lo = 0  # size(text[start:start+lo]) fits; hi does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if size(text[start : start + mid]) <= room:
            lo = mid
        else:
            hi = mid
    return max(lo, 1)
