"""JSON decoding and encoding with the fallbacks real checkpoints need.

orjson is the fast path.  The reference runtime writes lone UTF-16
surrogates as ``"\\ud83d"`` escapes, which orjson refuses in both directions,
so each direction has a fallback on the standard library that keeps such
strings exactly (decoding) and writes them back as the same lowercase
``\\udxxx`` escape ``JSON.stringify`` uses (encoding).
"""

from __future__ import annotations

import json
import re
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


def _byte_offset(text: str, pos: int) -> int:
    return len(text[:pos].encode("utf-8", "surrogatepass"))


def loads(data: bytes, source: str) -> Any:
    """Decode ``data`` or raise :class:`InputError` naming the byte offset."""
    if not data.strip():
        raise InputError(source, "byte 0", "the file is empty; expected a JSON checkpoint")
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as fast_error:
        fast_message = fast_error.msg
    # Slow path: lone surrogates (which orjson refuses) load here; anything
    # else fails here too, with a position we can turn into a byte offset.
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(
            source, f"byte {e.start}", f"not UTF-8 (byte 0x{data[e.start]:02x}); expected JSON text"
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        return json.loads(text, parse_constant=_parse_constant, parse_int=_parse_int)
    except json.JSONDecodeError as e:
        raise InputError(
            source, f"byte {_byte_offset(text, e.pos)}", f"not valid JSON: {e.msg}"
        ) from None
    except _Refused as e:
        raise InputError(source, "", f"not valid JSON: {e}") from None
    except RecursionError:
        raise InputError(
            source, "", f"not readable JSON: nested too deeply ({fast_message})"
        ) from None


def _escape_surrogate(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def dumps(value: Any, *, sort_keys: bool = False) -> bytes:
    """Compact JSON bytes, as orjson writes them (keys sorted when asked).

    A value orjson cannot encode because a string holds a lone surrogate is
    written by the standard library with the same compact separators, raw
    non-ASCII, and each lone surrogate as a lowercase ``\\udxxx`` escape.
    """
    option = orjson.OPT_SORT_KEYS if sort_keys else 0
    try:
        return orjson.dumps(value, option=option)
    except orjson.JSONEncodeError:
        text = json.dumps(value, sort_keys=sort_keys, separators=(",", ":"), ensure_ascii=False)
        return _SURROGATE.sub(_escape_surrogate, text).encode("utf-8")
