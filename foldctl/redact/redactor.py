"""The redactor: placeholders for detected values, per message, with a review list.

One :class:`Redactor` serves one output.  Every value it redacts becomes
``[redacted:<kind>:<tag>]`` where the tag is the first 6 hex digits of
``HMAC-SHA256(key, kind + "\\0" + canonical value)``: the same value gets the
same placeholder everywhere in the output, two different values never share
one (on a collision of the short tag the later value's tag is lengthened),
and without the key a tag cannot be tied to a value, nor (with a random
per-run key) to the same value in another run's output.

Scanning a message works on all its strings at once: every string leaf and
every dict key, joined by U+0000 (which no built-in pattern can match, see
``detectors.py``), goes through the gates once, and only the detectors a
gate wakes scan it; only messages with a finding are rebuilt.  Custom rules
run on each string on its own, so their anchors (``^``, ``$``) mean what
they say.  Integers of 13 digits or
more are scanned as their decimal text (a card number stored as a number).

Redaction fails closed: any error while detecting or replacing raises
:class:`RedactionError`, never returns unredacted text.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from itertools import accumulate
from pathlib import Path
from typing import Any, Final

import msgspec
import orjson

from foldctl.errors import FoldctlError, UsageError, cannot_read
from foldctl.redact import detectors
from foldctl.redact.context import is_authorization, secret_name, secret_value_span
from foldctl.redact.detectors import DETECTORS, Detector, DetectorFailed
from foldctl.redact.errors import RedactionError, RulesError
from foldctl.redact.rules import Rules, load_rules

__all__ = [
    "MAX_DEPTH",
    "Redaction",
    "Redactor",
    "ReviewRow",
    "field_path",
    "load_key",
    "parse_kinds",
]

#: Deepest nesting of a message's JSON that is redacted (the same bound as the loader's).
MAX_DEPTH: Final = 1024
#: The short tag: hex digits of the HMAC shown in a placeholder before any collision.
TAG_HEX: Final = 6
#: A key file must hold at least this many bytes.
MIN_KEY_BYTES: Final = 16
#: Integers with at least this many digits are scanned (the shortest card number).
_BIG_INT: Final = 10**12
_SEP: Final = "\x00"


class Redaction(msgspec.Struct, frozen=True):
    """One value replaced in one string of a message.  Never carries the value.

    ``field`` names the string (see :func:`field_path`); ``start`` and
    ``end`` are code-point offsets of the value in the original string.
    """

    kind: str
    placeholder: str
    field: str
    start: int
    end: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "placeholder": self.placeholder,
            "field": self.field,
            "start": self.start,
            "end": self.end,
        }


class ReviewRow(msgspec.Struct, frozen=True):
    """One placeholder of an output: what kind, how often, and in which messages."""

    kind: str
    placeholder: str
    count: int
    locators: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "placeholder": self.placeholder,
            "count": self.count,
            "locators": list(self.locators),
        }


class _Tally(msgspec.Struct):
    kind: str
    count: int
    locators: dict[str, None]


# A finding in one string: start, end, kind, and the canonical form of the value.
_Hit = tuple[int, int, str, str]


def field_path(parent: str, member: str | int) -> str:
    """The name of ``member`` (a dict key or a list index) of the value named ``parent``.

    ``content``, ``toolCalls[0].args.query``, ``args["x-api-key"]``: a key that
    is an identifier is written after a dot (bare at the top level), any other
    key as a JSON string in brackets, an index in brackets.  The key itself,
    as a string that was redacted, is its member's name followed by ``{key}``.
    Keys are written as they appear in the redacted message, so a name never
    carries a redacted value.
    """
    if isinstance(member, int):
        return f"{parent}[{member}]"
    if member.isidentifier() and member.isascii():
        return f"{parent}.{member}" if parent else member
    quoted = json.dumps(member, ensure_ascii=False)
    return f"{parent}[{quoted}]"


def parse_kinds(spec: str | Iterable[str] | None, valid: Sequence[str], option: str) -> set[str]:
    """The kind names of ``--redact-only`` / ``--redact-skip`` (a comma list or names)."""
    if spec is None:
        return set()
    names = spec.split(",") if isinstance(spec, str) else list(spec)
    chosen = {n.strip() for n in names if n.strip()}
    unknown = sorted(chosen - set(valid))
    if unknown:
        bad = ", ".join(map(repr, unknown))
        raise UsageError(f"{option}: unknown kind {bad}; valid kinds: {', '.join(valid)}")
    return chosen


def load_key(path: Path) -> bytes:
    """The HMAC key in a ``--redact-key-file``: its bytes, trailing whitespace removed."""
    source = str(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        what = cannot_read(exc, "a key file", missing="no such key file")
        raise RulesError(source, "", what) from None
    key = data.rstrip(b" \t\r\n")
    if len(key) < MIN_KEY_BYTES:
        raise RulesError(
            source,
            "",
            f"a key needs at least {MIN_KEY_BYTES} bytes, found {len(key)} "
            "(make one with: head -c 32 /dev/urandom > FILE)",
        )
    return key


class Redactor:
    """Redacts messages for one output; remembers every placeholder it gave out.

    ``key`` is the HMAC key (None: 32 random bytes, so tags are unlinkable
    across runs).  ``only`` and ``skip`` choose detectors by kind (a comma
    list or names; custom rule names count); an unknown kind is a
    :class:`UsageError` that lists the valid ones.  ``rules`` adds named
    patterns and an allow-list.
    """

    def __init__(
        self,
        key: bytes | None = None,
        *,
        only: str | Iterable[str] | None = None,
        skip: str | Iterable[str] | None = None,
        rules: Rules | None = None,
    ) -> None:
        self._keyed = key is not None
        if key is None:
            key = secrets.token_bytes(32)
        if not isinstance(key, bytes) or not key:
            raise UsageError("a redaction key must be non-empty bytes")
        self._key = key
        self._choice = (only, skip)  # as given, to build the same redactor in a worker
        self._rules = rules if rules is not None else Rules()
        custom = [rule.detector() for rule in self._rules.rules]
        valid = [*DETECTORS, *(d.kind for d in custom)]
        if only is not None:
            chosen = parse_kinds(only, valid, "--redact-only")
            if not chosen:
                raise UsageError(f"--redact-only: no kind given; valid kinds: {', '.join(valid)}")
        else:
            chosen = set(valid)
        chosen -= parse_kinds(skip, valid, "--redact-skip")
        self._builtin: tuple[Detector, ...] = tuple(
            d for d in DETECTORS.values() if d.kind in chosen
        )
        self._builtin_kinds = frozenset(d.kind for d in self._builtin)
        self._custom: tuple[Detector, ...] = tuple(d for d in custom if d.kind in chosen)
        self._specificity = {d.kind: d.specificity for d in (*self._builtin, *self._custom)}
        self._canonical = {d.kind: d.canonical for d in (*self._builtin, *self._custom)}
        self._by_digest: dict[tuple[str, str], str] = {}
        self._taken: set[str] = set()
        self._tally: dict[str, _Tally] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        """A worker process gets a redactor with the same key, kinds and rules (so the
        same placeholders), and a review list of its own."""
        only, skip = self._choice
        return _rebuild, (self._key, only, skip, self._rules)

    def sibling(self) -> Redactor:
        """A redactor that gives the same placeholders as this one (the same key, kinds,
        rules and placeholders given out so far, shared from now on) with a review list
        of its own: the review of one source while the output goes on."""
        twin = Redactor.__new__(Redactor)
        for name in (
            "_key", "_choice", "_rules", "_builtin", "_builtin_kinds", "_custom",
            "_specificity", "_canonical", "_by_digest", "_taken", "_keyed",
        ):  # fmt: skip
            setattr(twin, name, getattr(self, name))
        twin._tally = {}
        return twin

    @property
    def keyed(self) -> bool:
        """True when the key was given (a key file), so placeholders match other runs'."""
        return self._keyed

    @classmethod
    def from_options(
        cls,
        *,
        key_file: Path | None = None,
        only: str | Iterable[str] | None = None,
        skip: str | Iterable[str] | None = None,
        rules_file: Path | None = None,
    ) -> Redactor:
        """A redactor from the command-line options; file errors name the file and place."""
        key = load_key(key_file) if key_file is not None else None
        rules = load_rules(rules_file) if rules_file is not None else None
        return cls(key, only=only, skip=skip, rules=rules)

    @property
    def kinds(self) -> tuple[str, ...]:
        """The kinds this redactor detects, built-ins first in table order."""
        return tuple(d.kind for d in (*self._builtin, *self._custom))

    # --- the public operations ------------------------------------------------

    def redact_text(
        self, text: str, *, field: str = "", locator: str | None = None
    ) -> tuple[str, list[Redaction]]:
        """``text`` with every detected value replaced, and the redactions (``field`` names it)."""
        try:
            hits = self._scan([text], locator)
            out: list[Redaction] = []
            found = hits.get(text)
            if not found:
                return text, out
            return self._replace(text, found, field, locator, out), out
        except FoldctlError:
            raise
        except Exception as exc:  # fail closed, and never quote the text
            raise self._failed(type(exc).__name__, locator) from None

    def redact_message(
        self, message: Mapping[str, Any], locator: str | None = None
    ) -> tuple[dict[str, Any], list[Redaction]]:
        """A redacted copy of ``message`` and its redactions, in document order.

        Every string is scanned: values at any depth, dict keys, unknown
        fields.  The original is never modified.  Without any finding the
        result is a fresh copy all the same (containers copied, strings and
        numbers shared), so the caller may change it freely.
        """
        new, out = self.redact_value(message, locator)
        if not isinstance(new, dict):  # pragma: no cover - a Mapping always becomes a dict
            raise RedactionError("redaction: a message must be a JSON object")
        return new, out

    def redact_value(self, value: Any, locator: str | None = None) -> tuple[Any, list[Redaction]]:
        """Like :meth:`redact_message` for any JSON value (fields named from its root)."""
        try:
            out: list[Redaction] = []
            try:
                texts = _collect(value)
            except _NotJSON:
                self._rebuild(value, {}, locator, out)  # raises, naming the field
                raise
            hits = self._scan(texts, locator, value) if texts else {}
            if not hits:
                try:
                    return _copy(value), out
                except RecursionError:
                    pass  # deep nesting: the iterative walk below copies it
            return self._rebuild(value, hits, locator, out), out
        except FoldctlError:
            raise
        except Exception as exc:
            raise self._failed(type(exc).__name__, locator) from None

    def redact_json(self, raw: bytes, locator: str | None = None) -> tuple[bytes, list[Redaction]]:
        """``raw`` JSON redacted: the same bytes back when nothing was found.

        Without custom rules the gates run on the raw bytes first, and when
        none fires the bytes are returned as they are, neither decoded nor
        checked to be JSON.  Otherwise the document is decoded, redacted like
        :meth:`redact_value`, and written compact (``orjson``; the standard
        library's escaping for what orjson cannot encode, such as a lone
        surrogate) when something was redacted.
        """
        if not self._custom:
            try:
                possible = detectors.gate(raw, self._builtin_kinds, json_text=True)
            except Exception as exc:
                raise self._failed(type(exc).__name__, locator) from None
            if not possible:
                return raw, []
        try:
            value = orjson.loads(raw)
        except orjson.JSONDecodeError:
            try:
                value = json.loads(raw)
            except ValueError:
                raise RedactionError(
                    f"redaction: {_where(locator)}is not JSON, so it cannot be redacted"
                ) from None
        new, out = self.redact_value(value, locator)
        if not out:
            return raw, out
        try:
            return orjson.dumps(new), out
        except TypeError:
            text = json.dumps(new, ensure_ascii=True, separators=(",", ":"))
            return text.encode("ascii"), out

    def review(self) -> list[ReviewRow]:
        """One row per placeholder given out so far, sorted by kind, then placeholder.

        ``count`` is the number of redactions; ``locators`` the messages they
        were in, each once, in the order first seen.
        """
        return [
            ReviewRow(t.kind, placeholder, t.count, tuple(t.locators))
            for placeholder, t in sorted(self._tally.items(), key=lambda i: (i[1].kind, i[0]))
        ]

    # --- detection --------------------------------------------------------------

    def _scan(
        self, texts: list[str], locator: str | None, root: Any = None
    ) -> dict[str, list[_Hit]]:
        """Findings per distinct string, overlaps resolved and the allow-list applied.

        With ``root`` (the value the strings come from), a string under a key that
        names a secret is a finding too (``secret_value``, see ``context.py``).
        """
        raw: dict[int, list[tuple[int, int, str]]] = {}
        if self._builtin:
            enabled = self._builtin_kinds
            joined = _SEP.join(texts)
            try:
                wake = detectors.gate(joined.encode("utf-8", "surrogatepass"), enabled)
                found = detectors.scan(joined, enabled, wake) if wake else []
            except DetectorFailed as exc:
                raise self._failed(exc.error, locator, exc.kind) from None
            if root is not None and "secret_value" in wake:
                where = {text: i for i, text in enumerate(texts)}
                for text, (start, end) in _under_secret_names(root).items():
                    raw.setdefault(where[text], []).append((start, end, "secret_value"))
            starts = [0, *accumulate(len(t) + 1 for t in texts[:-1])] if found else []
            for start, end, kind in found:
                i = bisect_right(starts, start) - 1
                base = starts[i]
                if end - base > len(texts[i]):
                    # A match across two strings: no built-in pattern can make
                    # one, but if it did, scan each string on its own instead.
                    raw = {}
                    for j, text in enumerate(texts):
                        try:
                            hits = detectors.scan(text, enabled)
                        except DetectorFailed as exc:
                            raise self._failed(exc.error, locator, exc.kind) from None
                        if hits:
                            raw[j] = hits
                    break
                raw.setdefault(i, []).append((start - base, end - base, kind))
        for detector in self._custom:
            self._scan_each(detector, texts, raw, locator)
        return {texts[i]: self._resolve(texts[i], found) for i, found in raw.items()}

    def _scan_each(
        self,
        detector: Detector,
        texts: list[str],
        raw: dict[int, list[tuple[int, int, str]]],
        locator: str | None,
    ) -> None:
        for i, text in enumerate(texts):
            try:
                spans = list(detector.find(text))
            except Exception as exc:
                raise self._failed(type(exc).__name__, locator, detector.kind) from None
            bucket = raw.setdefault(i, [])
            for start, end in spans:
                hit = (start, end, detector.kind)
                if hit not in bucket:
                    bucket.append(hit)

    def _resolve(self, text: str, found: list[tuple[int, int, str]]) -> list[_Hit]:
        """Overlapping findings become one: the union of their spans, named by the best.

        The best is the longest, then the most specific kind, then the kind
        name; the union makes sure no part of any finding is left in clear.
        """
        allows = self._rules.allows
        kept: list[tuple[int, int, str]] = []
        for start, end, kind in found:
            value = text[start:end]
            if allows(value) or allows(self._canonical[kind](value)):
                continue
            kept.append((start, end, kind))
        kept.sort(key=lambda h: (h[0], -h[1]))
        out: list[_Hit] = []
        i = 0
        while i < len(kept):
            start, end, _ = kept[i]
            j = i + 1
            while j < len(kept) and kept[j][0] < end:
                end = max(end, kept[j][1])
                j += 1
            best = min(
                kept[i:j],
                key=lambda h: (-(h[1] - h[0]), -self._specificity[h[2]], h[2]),
            )
            kind = best[2]
            out.append((start, end, kind, self._canonical[kind](text[start:end])))
            i = j
        return out

    # --- replacement ---------------------------------------------------------------

    def _placeholder(self, kind: str, canonical: str) -> str:
        message = kind.encode() + b"\x00" + canonical.encode("utf-8", "surrogatepass")
        digest = hmac.new(self._key, message, hashlib.sha256).hexdigest()
        ident = (kind, digest)
        placeholder = self._by_digest.get(ident)
        if placeholder is not None:
            return placeholder
        for width in range(TAG_HEX, len(digest) + 1, 2):
            placeholder = f"[redacted:{kind}:{digest[:width]}]"
            if placeholder not in self._taken:
                break
        else:  # pragma: no cover - two values with one full HMAC-SHA256
            raise RedactionError(f"redaction: two {kind} values share one HMAC")
        self._taken.add(placeholder)
        self._by_digest[ident] = placeholder
        return placeholder

    def _replace(
        self,
        text: str,
        hits: list[_Hit],
        field: str,
        locator: str | None,
        out: list[Redaction],
    ) -> str:
        new, placed = self._substitute(text, hits)
        self._record(placed, field, locator, out)
        return new

    def _substitute(self, text: str, hits: list[_Hit]) -> tuple[str, list[tuple[_Hit, str]]]:
        """``text`` with each finding replaced by its placeholder, and the placeholders."""
        pieces: list[str] = []
        placed: list[tuple[_Hit, str]] = []
        last = 0
        for hit in hits:
            start, end, kind, canonical = hit
            placeholder = self._placeholder(kind, canonical)
            pieces.append(text[last:start])
            pieces.append(placeholder)
            placed.append((hit, placeholder))
            last = end
        pieces.append(text[last:])
        return "".join(pieces), placed

    def _record(
        self,
        placed: list[tuple[_Hit, str]],
        field: str,
        locator: str | None,
        out: list[Redaction],
    ) -> None:
        for (start, end, kind, _), placeholder in placed:
            out.append(Redaction(kind, placeholder, field, start, end))
            tally = self._tally.get(placeholder)
            if tally is None:
                tally = self._tally[placeholder] = _Tally(kind, 0, {})
            tally.count += 1
            if locator is not None:
                tally.locators[locator] = None

    def _rebuild(
        self,
        root: Any,
        hits: dict[str, list[_Hit]],
        locator: str | None,
        out: list[Redaction],
    ) -> Any:
        """A copy of ``root`` with every string that has findings replaced, in document order."""
        holder: list[Any] = [None]
        # (value, the new container that receives it, its key or index there,
        #  the field name of that container, depth); key None marks the root.
        stack: list[tuple[Any, Any, str | int | None, str, int]] = [(root, holder, None, "", 0)]
        while stack:
            node, parent, member, parent_field, depth = stack.pop()
            slot: str | int
            if member is None:
                name, slot = "", 0
            elif isinstance(member, int):
                name, slot = field_path(parent_field, member), member
            else:
                key = member
                found = hits.get(member)
                if found:
                    key, placed = self._substitute(member, found)
                    name = field_path(parent_field, key)
                    self._record(placed, name + "{key}", locator, out)
                else:
                    name = field_path(parent_field, key)
                if key in parent:
                    raise RedactionError(
                        f"redaction: {_where(locator)}two keys of {parent_field or 'the message'} "
                        "would become one after redaction"
                    )
                slot = key
                parent[key] = None
            kind = type(node)
            if kind is str or isinstance(node, str):
                found = hits.get(node)
                parent[slot] = self._replace(node, found, name, locator, out) if found else node
            elif kind is dict or isinstance(node, Mapping):
                if depth >= MAX_DEPTH:
                    raise _too_deep(locator)
                new: dict[str, Any] = {}
                parent[slot] = new
                items = list(node.items())
                for k, v in reversed(items):
                    if not isinstance(k, str):
                        raise _not_json(k, name, locator, "key")
                    stack.append((v, new, k, name, depth + 1))
            elif kind is list or kind is tuple or isinstance(node, (list, tuple)):
                if depth >= MAX_DEPTH:
                    raise _too_deep(locator)
                seq: list[Any] = [None] * len(node)
                parent[slot] = seq
                for i in range(len(node) - 1, -1, -1):
                    stack.append((node[i], seq, i, name, depth + 1))
            elif kind is int and (node >= _BIG_INT or node <= -_BIG_INT):
                text = str(node)
                found = hits.get(text)
                parent[slot] = self._replace(text, found, name, locator, out) if found else node
            elif node is None or kind is bool or kind is int or kind is float:
                parent[slot] = node
            else:
                raise _not_json(node, name, locator, "value")
        return holder[0]

    def _failed(self, error: str, locator: str | None, kind: str | None = None) -> RedactionError:
        what = f"detector {kind!r}" if kind else "redaction"
        return RedactionError(
            f"redaction failed: {what} raised {error} {_where(locator)}"
            "(nothing is printed unredacted)"
        )


def _under_secret_names(root: Any) -> dict[str, tuple[int, int]]:
    """The strings of ``root`` that are members (or items of a list member) of an object
    under a key that names a secret, with the part of each that is the secret."""
    found: dict[str, tuple[int, int]] = {}
    stack: list[Any] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            for key, value in node.items():
                if isinstance(value, str):
                    values: Iterable[Any] = (value,)
                elif isinstance(value, (list, tuple)):
                    values = value
                    stack.append(value)
                else:
                    if isinstance(value, Mapping):
                        stack.append(value)
                    continue
                if not (isinstance(key, str) and secret_name(key)):
                    continue
                auth = is_authorization(key)
                for item in values:
                    if isinstance(item, str) and item not in found:
                        span = secret_value_span(item, authorization=auth)
                        if span is not None:
                            found[item] = span
        elif isinstance(node, (list, tuple)):
            stack.extend(v for v in node if isinstance(v, (Mapping, list, tuple)))
    return found


def _collect(root: Any) -> list[str]:
    """Every distinct string to scan in ``root``: values, keys, and the text of big integers."""
    seen: dict[str, None] = {}
    stack: list[tuple[Any, int]] = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        kind = type(node)
        if kind is str:
            seen[node] = None
        elif kind is dict or isinstance(node, Mapping):
            if depth >= MAX_DEPTH:
                raise _too_deep(None)
            for k, v in node.items():
                if type(k) is str:
                    seen[k] = None
                elif isinstance(k, str):
                    seen[str.__str__(k)] = None
                else:
                    raise _NotJSON
                if type(v) is str:
                    seen[v] = None
                elif v is not None:
                    stack.append((v, depth + 1))
        elif kind is list or kind is tuple or isinstance(node, (list, tuple)):
            if depth >= MAX_DEPTH:
                raise _too_deep(None)
            for v in node:
                if type(v) is str:
                    seen[v] = None
                elif v is not None:
                    stack.append((v, depth + 1))
        elif kind is int:
            if node >= _BIG_INT or node <= -_BIG_INT:
                seen[str(node)] = None
        elif node is None or kind is float or kind is bool:
            pass
        elif isinstance(node, str):
            seen[str.__str__(node)] = None
        else:
            raise _NotJSON  # the walk that names fields says where
    return list(seen)


class _NotJSON(Exception):
    pass


def _copy(node: Any) -> Any:
    """A copy of a JSON value (new containers, shared strings and numbers); recursive."""
    kind = type(node)
    if kind is dict:
        return {k: _copy(v) if type(v) in _CONTAINERS else v for k, v in node.items()}
    if kind is list or kind is tuple:
        return [_copy(v) if type(v) in _CONTAINERS else v for v in node]
    if isinstance(node, Mapping):
        return {k: _copy(v) for k, v in node.items()}
    if isinstance(node, (list, tuple)):
        return [_copy(v) for v in node]
    return node


_CONTAINERS: Final = frozenset((dict, list, tuple))


def _where(locator: str | None) -> str:
    return f"in message {locator} " if locator else ""


def _too_deep(locator: str | None) -> RedactionError:
    return RedactionError(f"redaction: {_where(locator)}JSON nested deeper than {MAX_DEPTH} levels")


def _not_json(value: object, field: str, locator: str | None, role: str) -> RedactionError:
    at = f" at {field}" if field else ""
    return RedactionError(
        f"redaction: {_where(locator)}a {role} of type {type(value).__name__}{at} is not JSON"
    )


def _rebuild(
    key: bytes,
    only: str | Iterable[str] | None,
    skip: str | Iterable[str] | None,
    rules: Rules,
) -> Redactor:
    return Redactor(key, only=only, skip=skip, rules=rules)
