"""Fingerprints of a text under each scheme, and which span of a checkpoint each joins."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from foldctl import jsoncodec
from foldctl.errors import InputError
from foldctl.fingerprint import SCHEMES, require_scheme
from foldctl.graph.open import open_graph
from foldctl.graph.resolve import resolve
from foldctl.sources.files import RawSource, SourceSpec


class Fingerprints(msgspec.Struct, frozen=True):
    """What ``fingerprint`` answers: the text's lengths, its fingerprints, and the join."""

    text: str
    doc: dict[str, Any]

    def document(self) -> dict[str, Any]:
        return self.doc


def fingerprints(
    text: str, schemes: Sequence[str] = (), join: SourceSpec | None = None
) -> Fingerprints:
    """The fingerprint of ``text`` under each scheme (default: all), and with ``join``
    which span of that checkpoint each fingerprint joins (the first in ``folded``
    order wins, as in the runtime)."""
    names = [require_scheme(name) for name in schemes] or list(SCHEMES)
    doc: dict[str, Any] = {
        "length": {
            "utf16Units": len(text.encode("utf-16-le", "surrogatepass")) // 2,
            "utf8Bytes": len(text.encode("utf-8", "surrogatepass")),
        },
        "fingerprints": {name: SCHEMES[name](text) for name in names},
    }
    if join is not None:
        doc["join"] = join_report(doc["fingerprints"], join)
    return Fingerprints(text, doc)


class NotText(InputError):
    """Bytes that are not UTF-8 text (a JSON string literal can carry any character)."""

    remedy = "json"


def read_text(source: RawSource, *, json_string: bool = False, strip_newline: bool = False) -> str:
    """The text to fingerprint from bytes (a pasted argument, standard input).

    Bytes must be UTF-8 (a fingerprint is of text, and the runtime never saw
    undecodable bytes); ``json_string`` reads a JSON string literal instead, the
    one way to pass a lone surrogate; ``strip_newline`` drops one final
    ``\\n`` (or ``\\r\\n``).
    """
    name, data = source.name, source.data
    if json_string:
        value = jsoncodec.loads(data, name)
        if not isinstance(value, str):
            raise InputError(name, "", "expected a JSON string literal")
        return value
    try:
        decoded = bytes(data).decode("utf-8")
    except UnicodeDecodeError as e:
        what = f"not UTF-8 (byte 0x{data[e.start]:02x}); a fingerprint is of text"
        raise NotText(name, f"byte {e.start}", what) from None
    return drop_newline(decoded) if strip_newline else decoded


def drop_newline(text: str) -> str:
    """``text`` without one final ``\\n`` (or ``\\r\\n``)."""
    if text.endswith("\r\n"):
        return text[:-2]
    return text[:-1] if text.endswith("\n") else text


def join_report(prints: dict[str, str], source: SourceSpec) -> dict[str, Any]:
    """Which span of SOURCE each fingerprint joins."""
    graph, note = open_graph(source)
    matches: list[dict[str, Any]] = []
    for scheme, fingerprint in prints.items():
        spans = graph.by_fingerprint.get(fingerprint)
        if not spans:
            continue
        joined = graph if scheme == graph.scheme else resolve(graph.checkpoint, scheme)
        place = joined.places[spans[0]]
        matches.append(
            {
                "scheme": scheme,
                "fingerprint": fingerprint,
                "span": spans[0],
                "spans": list(spans),
                "placement": place.placement,
                "frame": joined.frame_locator(spans[0]),
            }
        )
    return {
        "source": graph.checkpoint.source,
        "checkpointScheme": graph.scheme,
        "schemeNote": note,
        "matches": matches,
    }
