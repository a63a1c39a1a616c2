"""Locators: the short names of messages and spans (SPEC §3).

``h12`` is ``history[12]``; ``f3:5`` is message 5 of ``folded[3]``; ``f3`` is span
3 itself.  A locator names one message of the record whatever its nesting depth,
so it stays short in a chain a thousand folds deep.  The earlier path form
(``h2>f4:0>f1:7``, the frames crossed from the live window inward) is still read:
each step is checked against the join and the last step names the message.
A message digest (``xxh3-128:...``) names a message by its content.
"""

from __future__ import annotations

import re
from typing import Final

import msgspec

from foldctl.digest import PREFIX, is_digest
from foldctl.errors import UsageError
from foldctl.model import Container as Container  # None = history, else a span index

_STEP: Final = re.compile(r"(?:h|f(\d+):)(\d+)")
_SPAN: Final = re.compile(r"f(\d+)")


def message_locator(container: Container, index: int) -> str:
    """``h{index}`` in the live window, ``f{span}:{index}`` in a span's messages."""
    return f"h{index}" if container is None else f"f{container}:{index}"


def span_locator(span: int) -> str:
    return f"f{span}"


class MessageName(msgspec.Struct, frozen=True):
    """A message by where it is stored; ``path`` holds the containers a path form crossed
    (outermost first, each with the index of the frame it was entered through)."""

    container: Container
    index: int
    path: tuple[tuple[Container, int], ...] = ()


class SpanName(msgspec.Struct, frozen=True):
    span: int


class DigestName(msgspec.Struct, frozen=True):
    digest: str


Name = MessageName | SpanName | DigestName


def parse(text: str) -> Name:
    """Read a locator, a span ``fN`` or a digest; :class:`UsageError` for anything else.

    Only the form is checked here; whether the record has such a message is
    the graph's to say (:func:`foldctl.graph.walk.context_of`).
    """
    value = text.strip()
    if value.lower().startswith(PREFIX):
        if not is_digest(value.lower()):
            raise UsageError(
                f"{text!r} is not a message digest; expected {PREFIX} followed by 32 hex digits"
            )
        return DigestName(value.lower())
    span = _SPAN.fullmatch(value)
    if span is not None:
        return SpanName(int(span.group(1)))
    steps: list[tuple[Container, int]] = []
    for n, step in enumerate(value.split(">")):
        m = _STEP.fullmatch(step.strip())
        if m is None:
            raise UsageError(
                f"{text!r} is not a locator: expected hN (history), fS:N (message N of span S), "
                "fS (span S) or a digest (xxh3-128:...)"
            )
        span_text, index_text = m.groups()
        container: Container = None if span_text is None else int(span_text)
        if container is None and n > 0:
            raise UsageError(f"locator {text!r}: only the first step of a path can be hN")
        steps.append((container, int(index_text)))
    container, index = steps[-1]
    return MessageName(container, index, tuple(steps[:-1]) if len(steps) > 1 else ())
