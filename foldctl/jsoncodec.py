"""JSON decoding and encoding with the fallbacks real checkpoints need.

orjson is the fast path.  The reference runtime writes lone UTF-16
surrogates as ``"\\ud83d"`` escapes, which orjson refuses in both directions,
so each direction has a fallback on the standard library that keeps such
strings exactly (decoding) and writes them back as the same lowercase
``\\udxxx`` escape ``JSON.stringify`` uses (encoding).
"""

from __future__ import annotations

import json
import math
import mmap
import os
import re
import sys
from collections.abc import Iterator
from typing import Any, Final

import orjson

from foldctl.errors import InputError

_INT64_MIN: Final = -(2**63)
_UINT64_MAX: Final = 2**64 - 1
_SURROGATE = re.compile("[\ud800-\udfff]")


class _Refused(ValueError):
    pass


def _parse_constant(name: str) -> Any:
    raise _Refused(f"{name} is not JSON")


def _parse_int(text: str) -> int:
    value = int(text)
    if not _INT64_MIN <= value <= _UINT64_MAX:
        raise _Refused(f"integer {text[:24]}... does not fit in 64 bits")
    return value


def _parse_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise _Refused(f"number {text[:24]} is too large for a double")
    return value


def _byte_offset(text: str, pos: int) -> int:
    return len(text[:pos].encode("utf-8", "surrogatepass"))


#: The deepest nesting foldctl reads: orjson's own limit, applied by every reader.
MAX_DEPTH: Final = 1024

# Tokens of valid JSON that matter for numbers: whole strings (skipped), the
# non-JSON constants, and number literals split into integer / fraction / exponent.
_NUMBER_TOKENS: Final = re.compile(
    rb'"[^"\\]*(?:\\.[^"\\]*)*"|(-?Infinity|NaN)|(-?\d+)(\.\d+)?([eE][+-]?\d+)?'
)
_WIDE: Final = float(2**63)


def _number_problem(data: bytes) -> tuple[int, str] | None:
    """The first number foldctl refuses, as (byte offset, what), or None.

    Refused: ``NaN`` and ``Infinity``, an integer literal outside the 64-bit
    range (orjson would silently turn it into an approximate float), and a
    literal too large for a double.
    """
    for match in _NUMBER_TOKENS.finditer(data):
        constant, whole, fraction, exponent = match.groups()
        if constant is not None:
            return match.start(), f"{constant.decode()} is not a JSON number"
        if whole is None:
            continue  # a string
        literal = match.group().decode("ascii")
        if fraction is None and exponent is None:
            if len(whole) >= 19 and not _INT64_MIN <= int(whole) <= _UINT64_MAX:
                shown = literal if len(literal) <= 30 else literal[:24] + "..."
                return match.start(), (
                    f"integer {shown} does not fit in 64 bits; foldctl refuses numbers "
                    "it cannot keep exactly"
                )
        elif math.isinf(float(literal)):
            return match.start(), f"number {literal[:24]} is too large for a double"
    return None


_UNICODE_ESCAPE: Final = re.compile(rb"\\u")
_SPARSE: Final = 512  # bytes per backslash above which reading each one by hand is faster


def find_unicode_escape(data: Any, start: int = 0, end: int | None = None) -> int:
    """Where a ``\\u`` escape starts in JSON bytes (``bytes``, ``bytearray`` or ``mmap``),
    from ``start`` and before ``end`` (default: the end of ``data``), or -1.

    Where backslashes are sparse (most JSON text), each is found with memchr and the byte
    after it read: about 5 GB/s.  Where they are dense, every 64 of them, a regular
    expression takes the rest: about 3 GB/s however dense (a plain ``find`` of the two
    bytes manages about 1 GB/s).  An escaped backslash followed by ``u`` may be reported
    too: a caller treats -1 as "certainly none".
    """
    stop = len(data) if end is None else end
    i = data.find(b"\\", start, stop)
    while i >= 0:
        begun = i
        for _ in range(64):
            if i + 1 < stop and data[i + 1] == 0x75:  # u
                return int(i)
            i = data.find(b"\\", i + 2, stop)
            if i < 0:
                return -1
        if i - begun < 64 * _SPARSE:
            found = _UNICODE_ESCAPE.search(data, i, stop)
            return -1 if found is None else found.start()
    return -1


def has_wide_float(doc: Any) -> bool:
    """Whether ``doc`` holds a whole float of magnitude >= 2**63 (iteratively).

    orjson reads an integer literal beyond 64 bits as such a float, so a
    document without one cannot have held a too-wide integer.
    """
    stack = [doc]
    while stack:
        value = stack.pop()
        kind = type(value)
        if kind is dict:
            stack.extend(value.values())
        elif kind is list:
            stack.extend(value)
        elif kind is float and abs(value) >= _WIDE and value.is_integer():
            return True
    return False


_PATH_TOKENS: Final = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{},:]')


def _too_deep(data: bytes) -> tuple[int, str] | None:
    """Where the first container nested deeper than :data:`MAX_DEPTH` opens: its byte
    offset and its JSON path (``folded[0].messages[1].toolCallId[0][0]...``, the repeated
    tail shortened).  Scans the bytes once; used only on a file that is too deep."""
    stack: list[list[Any]] = []  # [kind, key or index, expecting a key]
    last_string: bytes | None = None
    for match in _PATH_TOKENS.finditer(data):
        token = match.group()
        if token[:1] == b'"':
            last_string = token
            continue
        if token == b":":
            if stack and stack[-1][0] == b"{":
                stack[-1][1] = last_string
            continue
        if token == b",":
            if stack and stack[-1][0] == b"[":
                stack[-1][1] += 1
            continue
        if token in (b"[", b"{"):
            stack.append([token, 0 if token == b"[" else None])
            if len(stack) > MAX_DEPTH:
                return match.start(), _path_of(stack)
        elif stack:
            stack.pop()
    return None


def _path_of(stack: list[list[Any]]) -> str:
    parts: list[str] = []
    for kind, key in stack[:-1]:
        if kind == b"[":
            parts.append(f"[{key}]")
        elif isinstance(key, bytes):
            name = key[1:-1].decode("utf-8", "backslashreplace")
            parts.append(f".{name}" if parts else name)
    path = "".join(parts) or "(top level)"
    if len(path) > 120:  # a thousand [0] in a row say no more than the first few
        path = path[:60] + "..." + path[-40:]
    return path


def _too_deep_error(data: bytes, source: str) -> InputError:
    found = _too_deep(data)
    offset, path = found if found is not None else (0, "(top level)")
    return InputError(
        source,
        path,
        f"JSON nested deeper than {MAX_DEPTH} levels (at byte {offset}); foldctl refuses "
        "nesting past this limit, the same in every reader",
    )


def _refuse_numbers(data: bytes, source: str, fallback: str) -> InputError:
    problem = _number_problem(data)
    if problem is None:
        return InputError(source, "", f"not valid JSON: {fallback}")
    offset, what = problem
    return InputError(source, f"byte {offset}", f"not valid JSON: {what}")


def loads(data: bytes | mmap.mmap, source: str) -> Any:
    """Decode ``data`` (bytes, or a map of the file, read without a copy) or raise
    :class:`InputError` naming the byte offset.

    Besides malformed JSON, refuses ``NaN``/``Infinity``, integers outside
    the 64-bit range (which orjson would read as approximate floats) and
    nesting deeper than :data:`MAX_DEPTH`, each with the byte offset; a document
    that does not fit in the memory the process may use is refused too, in one line.
    """
    if is_blank(data):
        raise InputError(source, "byte 0", "the file is empty; expected a JSON checkpoint")
    try:
        return _loads(data if isinstance(data, bytes) else memoryview(data), source)
    except MemoryError:
        raise InputError(
            source,
            "",
            f"out of memory decoding {len(data) / 1e6:,.0f} MB of JSON; expected a checkpoint"
            " that fits in the memory this process may use",
        ) from None


_BLANK: Final = re.compile(rb"\s*")


def is_blank(data: bytes | mmap.mmap) -> bool:
    """Whether ``data`` holds nothing but whitespace (an empty file)."""
    return _BLANK.fullmatch(data) is not None


def _loads(data: bytes | memoryview, source: str) -> Any:
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError as fast_error:
        fast_message = fast_error.msg
    else:
        if has_wide_float(doc):
            whole = bytes(data)  # a map is copied only for this rare file
            if _number_problem(whole) is not None:
                raise _refuse_numbers(whole, source, "")
        return doc
    data = bytes(data)  # the rare files orjson refuses: one copy, for the slow path's reads
    if fast_message.startswith("depth limit") or fast_message.startswith("recursion limit"):
        raise _too_deep_error(data, source)
    # Slow path: lone surrogates (which orjson refuses) load here; anything
    # else fails here too, with a position we can turn into a byte offset.
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(
            source, f"byte {e.start}", f"not UTF-8 (byte 0x{data[e.start]:02x}); expected JSON text"
        ) from None
    bom = 0
    if text.startswith("\ufeff"):
        text = text[1:]
        bom = 3
    limit = sys.getrecursionlimit()
    # The standard library's decoder recurses once per level: let it reach MAX_DEPTH, as
    # orjson does, so both readers refuse the same files.
    sys.setrecursionlimit(max(limit, 4 * MAX_DEPTH))
    try:
        doc = json.loads(
            text,
            parse_constant=_parse_constant,
            parse_int=_parse_int,
            parse_float=_parse_float,
        )
    except json.JSONDecodeError as e:
        # The standard library's messages end in "at" before the position we name.
        what = e.msg[:-3] + " here" if e.msg.endswith(" at") else e.msg
        raise InputError(
            source, f"byte {bom + _byte_offset(text, e.pos)}", f"not valid JSON: {what}"
        ) from None
    except _Refused as e:
        raise _refuse_numbers(data, source, str(e)) from None
    except RecursionError:
        raise _too_deep_error(data, source) from None
    finally:
        sys.setrecursionlimit(limit)
    if _deeper_than(doc, MAX_DEPTH):  # the standard library reads deeper than orjson
        raise _too_deep_error(data, source)
    return doc


class _Duplicated(dict[str, Any]):
    """An object that held a key more than once: every value of each such key, in order."""

    __slots__ = ("repeated",)

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        super().__init__(pairs)
        seen: dict[str, list[Any]] = {}
        for key, value in pairs:
            seen.setdefault(key, []).append(value)
        self.repeated = {key: found for key, found in seen.items() if len(found) > 1}


def _holds_kept(value: Any) -> bool:
    """Whether a decoded value holds an object the first pass kept (see below)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if type(item) is dict or type(item) is _Duplicated:
            return True
        if type(item) is list:
            stack.extend(x for x in item if type(x) in (dict, list, _Duplicated))
    return False


def _none_unless_duplicated(pairs: list[tuple[str, Any]]) -> Any:
    # An object is kept only when it has a duplicate or holds one that does (so the way
    # to it survives); every other object becomes None, and the pass builds next to nothing.
    if len({key for key, _ in pairs}) != len(pairs):
        return _Duplicated(pairs)
    if any(type(v) in (dict, list, _Duplicated) and _holds_kept(v) for _, v in pairs):
        return dict(pairs)
    return None


def duplicate_keys(data: bytes, limit: int = 100) -> list[tuple[str, str, list[Any]]]:
    """Each object of ``data`` (valid JSON) that holds a key more than once: its JSON path,
    the key, and every value the key was given, in order (the last is the one read, as
    by ``JSON.parse``, orjson and the standard library alike).  At most ``limit``.

    One pass of the standard library's decoder keeps only the objects with a
    duplicate (a checkpoint without any costs a decode that builds nothing),
    then a walk finds where they are.
    """
    if b'":' not in data and b'" :' not in data:
        return []
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 4 * MAX_DEPTH))
    try:
        doc = json.loads(data, object_pairs_hook=_none_unless_duplicated)
    except (ValueError, RecursionError):
        return []  # not JSON the loaders accept: they have said so already
    finally:
        sys.setrecursionlimit(old)
    found: list[tuple[str, str, list[Any]]] = []
    stack: list[tuple[Any, str]] = [(doc, "")]
    while stack and len(found) < limit:
        value, path = stack.pop()
        if isinstance(value, dict):
            if isinstance(value, _Duplicated):
                for key, values in value.repeated.items():
                    found.append((path or "(top level)", key, values))
            children = [(v, f"{path}.{k}" if path else k) for k, v in value.items()]
        elif isinstance(value, list):
            children = [(v, f"{path}[{i}]") for i, v in enumerate(value)]
        else:
            continue
        stack.extend(reversed([(v, p) for v, p in children if isinstance(v, dict | list)]))
    return found[:limit]


def _deeper_than(doc: Any, limit: int) -> bool:
    """Whether ``doc`` nests containers more than ``limit`` deep (iteratively)."""
    stack: list[tuple[Any, int]] = [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        if type(value) is dict:
            children: Any = value.values()
        elif type(value) is list:
            children = value
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if type(child) in (dict, list))
    return False


def _string(text: str) -> bytes:
    """A JSON string as orjson writes it, with lone surrogates as ``\\udxxx``."""
    if _SURROGATE.search(text) is None:
        return orjson.dumps(text)
    parts: list[bytes] = [b'"']
    last = 0
    for match in _SURROGATE.finditer(text):
        parts.append(orjson.dumps(text[last : match.start()])[1:-1])
        parts.append(f"\\u{ord(match.group()):04x}".encode("ascii"))
        last = match.end()
    parts.append(orjson.dumps(text[last:])[1:-1])
    parts.append(b'"')
    return b"".join(parts)


def _scalar(value: Any) -> bytes:
    try:
        return orjson.dumps(value)
    except orjson.JSONEncodeError:
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value).encode("ascii")  # beyond 64 bits: orjson refuses, JSON does not
        raise


def encode_by_hand(value: Any, *, sort_keys: bool = False) -> bytes:
    """What orjson would write for ``value`` if it accepted lone surrogates and any int.

    Strings and scalars are still encoded by orjson itself, so escapes and
    numbers (``1e-7``, not the standard library's ``1e-07``) are byte for byte
    the same; each lone surrogate becomes the lowercase escape ``\\udxxx``, as
    ``JSON.stringify`` writes it.  Iterative (an explicit stack): nesting depth is
    bounded only by memory.  ``bytes`` on the stack are literal output.
    """
    # One growing buffer, not a list of pieces: each small result of orjson.dumps holds
    # a block of about 4 KB, so a list of them cost hundreds of times the output.
    out = bytearray()
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, bytes):
            out += item
        elif isinstance(item, str):
            out += _string(item)
        elif isinstance(item, dict):
            todo: list[Any] = [b"{"]
            for n, key in enumerate(sorted(item) if sort_keys else item):
                if n:
                    todo.append(b",")
                todo += [_string(key), b":", item[key]]
            todo.append(b"}")
            stack.extend(reversed(todo))
        elif isinstance(item, list):
            todo = [b"["]
            for n, element in enumerate(item):
                if n:
                    todo.append(b",")
                todo.append(element)
            todo.append(b"]")
            stack.extend(reversed(todo))
        else:
            out += _scalar(item)
    return bytes(out)


def dumps(value: Any, *, sort_keys: bool = False, indent: bool = False) -> bytes:
    """Compact JSON bytes exactly as orjson writes them (keys sorted when asked; indented
    by two spaces with ``indent``, for a person at a terminal).

    A value orjson refuses (a string holding a lone surrogate, an integer
    beyond 64 bits, nesting deeper than it goes) is written compact by
    :func:`encode_by_hand`, byte for byte as orjson would write it otherwise.
    """
    option = (orjson.OPT_SORT_KEYS if sort_keys else 0) | (orjson.OPT_INDENT_2 if indent else 0)
    try:
        return orjson.dumps(value, option=option)
    except orjson.JSONEncodeError:
        return encode_by_hand(value, sort_keys=sort_keys)


def as_text(value: Any) -> str:
    """A value as text: a string as it is, anything else as its compact JSON (never a
    recursive ``str``/``repr``: an opaque field may be nested a thousand levels deep)."""
    if isinstance(value, str):
        return value
    return dumps(value).decode("utf-8", "backslashreplace")


def brief(value: Any, limit: int = 80) -> str:
    """A value for an error message or a finding: a string in quotes, anything else as its
    compact JSON, cut to ``limit`` characters (never a recursive ``repr``: a value may be
    nested a thousand levels deep)."""
    text = as_text(value)
    if len(text) > limit:
        text = text[:limit] + "..."
    return f'"{text}"' if isinstance(value, str) else text


#: A string at least this long is written in slices by :func:`dumps_chunks` (one JSON
#: document holding it is never built whole).
BIG_STRING: Final = 1 << 20
_SLICE: Final = 1 << 18
#: How deep :func:`dumps_chunks` looks for such strings (a message's fields, tool calls'
#: arguments); one deeper is written whole, as :func:`dumps` does.
_BIG_DEPTH: Final = 8


def holds_big_string(value: Any) -> bool:
    """Whether ``value`` holds a string of :data:`BIG_STRING` characters or more, at any
    depth (a look at types and lengths, no copy)."""
    if type(value) is str:
        return len(value) >= BIG_STRING
    todo = [value]
    while todo:
        item = todo.pop()
        for child in item.values() if isinstance(item, dict) else item:
            kind = type(child)
            if kind is str:
                if len(child) >= BIG_STRING:
                    return True
            elif kind is dict or kind is list or isinstance(child, dict):
                todo.append(child)
    return False


class Sliced(dict[str, Any]):
    """An object that holds a huge string: :func:`foldctl.render.sink.write_jsonl` writes
    it with :func:`dumps_chunks` (any other writer as the dict it is)."""

    __slots__ = ()


def _big_strings(value: Any, found: list[str], depth: int = 0) -> Any:
    """``value`` with each string of :data:`BIG_STRING` characters or more (a dict's
    value, a list's item) replaced by a marker, its text appended to ``found``; the
    value itself when it holds none (nothing is copied then)."""
    if isinstance(value, str):
        if len(value) < BIG_STRING:
            return value
        found.append(value)
        return f"{_MARK}{len(found) - 1:08d}"
    if depth >= _BIG_DEPTH or not isinstance(value, (dict, list)):
        return value
    pairs: Any = value.items() if isinstance(value, dict) else enumerate(value)
    changed: Any = None
    for key, item in pairs:
        new = _big_strings(item, found, depth + 1)
        if new is not item:
            if changed is None:
                changed = dict(value) if isinstance(value, dict) else list(value)
            changed[key] = new
    return value if changed is None else changed


# A marker no text holds by chance: random per process (16 bytes of os.urandom, as
# secrets.token_hex draws them, without importing secrets' hmac and random at start-up),
# then the string's number.
_MARK: Final = "\x00foldctl-big-" + os.urandom(16).hex() + "-"
_MARK_JSON: Final = orjson.dumps(_MARK)[:-1]  # its JSON, opening quote included
_MARKED: Final = re.compile(re.escape(_MARK_JSON) + rb'(\d{8})"')


def string_chunks(text: str) -> Iterator[bytes]:
    """The JSON of a string, quotes included, in slices of at most about 256 KiB of text
    (each escaped on its own: every escape stands for one code point, so a cut between
    two never changes a byte)."""
    yield b'"'
    for start in range(0, len(text), _SLICE):
        yield dumps(text[start : start + _SLICE])[1:-1]
    yield b'"'


def dumps_chunks(value: Any, *, sort_keys: bool = False) -> Iterator[bytes]:
    """The bytes of :func:`dumps` (compact), in pieces: a string of :data:`BIG_STRING`
    characters or more is written in slices, so memory holds the value once and never a
    second, encoded, copy of a huge string (``expand --format jsonl``, a digest)."""
    if not holds_big_string(value):
        yield dumps(value, sort_keys=sort_keys)
        return
    found: list[str] = []
    small = _big_strings(value, found)
    data = dumps(small, sort_keys=sort_keys)
    at = 0
    for match in _MARKED.finditer(data):
        yield data[at : match.start()]
        yield from string_chunks(found[int(match.group(1))])
        at = match.end()
    yield data[at:]
