"""The cheap index of a message read from its stored JSON, without decoding its text.

Indexing every evidence message is most of what ``claims`` costs on a large
checkpoint, and decoding each message's text first is most of that.  The
index needs little of the text: its number tokens, and for a tool result
whether it reports an error.  Both can be read from the JSON string as stored:

* A JSON string without ``\\u`` escapes has the same runs of ASCII digits and
  dots as the text it decodes to (the other escapes stand for characters that
  are neither), so its tokens are the text's.
* :func:`~foldctl.claims.failures.may_report_error` says from the same bytes
  whether a tool result may report an error; only then is the text decoded and
  read by :func:`~foldctl.claims.failures.error_line`, as :func:`index_message`
  does.

:func:`index_stored` gives exactly what :func:`index_message` gives the
message's evidence text, or ``None`` when it cannot say without decoding (an
escape ``\\u``, bytes that are not UTF-8, a field the runtime does not write or
of another type, a number decoding refuses, the runtime's error flag, a tool
result that calls tools): the caller then decodes the message, which refuses
what the loader refuses, and indexes its text.
"""

from __future__ import annotations

import sys
from typing import Final

import msgspec
import orjson

from foldctl.claims import failures as F
from foldctl.claims.index import MessageAtoms, number_runs, number_tokens, reported_error
from foldctl.jsoncodec import find_unicode_escape
from foldctl.lazyre import lazy
from foldctl.load.fast import has_long_digit_run


class _Call(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    id: str = ""
    name: str = ""
    args: msgspec.Raw = msgspec.Raw(b"null")


class _Stored(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """A message as the runtime stores it (any other field: decode it instead).

    Every value but a call's arguments is a string or a boolean, so a number too wide
    for 64 bits (which decoding refuses) can only be in the arguments."""

    role: str
    content: msgspec.Raw
    toolCalls: list[_Call] | None = None
    toolCallId: str | None = None
    toolName: str | None = None
    isError: bool | None = None


_DECODER: Final = msgspec.json.Decoder(_Stored)
#: A number in a tool call's arguments that encoding again may spell otherwise (``480.00``
#: becomes ``480.0``, ``1e3`` becomes ``1000.0``): such arguments are encoded again, as the
#: evidence text does.
_FLOAT: Final = lazy(rb"\d[.eE]")


def index_stored(
    raw: bytes, *, wanted: frozenset[bytes] | None = None, escape_free: bool = False
) -> MessageAtoms | None:
    """The cheap index of the message stored as ``raw`` (its JSON object), the text left out
    (as :func:`index_message` with ``keep_text=False``), or ``None`` when only decoding the
    message can tell: then decoding it also refuses what the loader refuses (a number too
    wide for 64 bits, bytes that are not UTF-8).  ``escape_free``: the caller knows ``raw``
    holds no ``\\u`` escape (the loader looked at the whole file), so it is not looked for."""
    if not escape_free and find_unicode_escape(raw) >= 0:
        return None
    try:
        stored = _DECODER.decode(raw)
    except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
        return None
    content = bytes(stored.content)
    calls = stored.toolCalls or ()
    tool = stored.role == "tool"
    if content[:1] != b'"' or stored.isError or (tool and calls) or not _utf8(content):
        return None
    tokens = number_tokens(content)
    for call in calls:  # the call lines of the evidence text: "→ NAME {args}"
        args = bytes(call.args)
        if not _utf8(args) or has_long_digit_run(args):
            return None
        if _FLOAT.search(args):
            try:
                args = orjson.dumps(orjson.loads(args))
            except orjson.JSONDecodeError:  # 1e400: decoding refuses the message
                return None
        tokens += number_tokens(call.name.encode("utf-8", "surrogatepass"))
        tokens += number_tokens(args)
    runs = number_runs(tokens, wanted)
    error = kind = None
    if tool and F.may_report_error(content):  # a maybe: read the text itself
        try:
            error, kind = reported_error(orjson.loads(content), None, False, stored.toolName)
        except orjson.JSONDecodeError:
            return None
    names = tuple(call.name for call in calls)
    tool_name = None if stored.toolName is None else sys.intern(stored.toolName)
    # one string for every "tool" and every tool's name, not one a message
    return MessageAtoms("", runs, sys.intern(stored.role), tool_name, names, error, kind)


def _utf8(raw: bytes) -> bool:
    if raw.isascii():
        return True
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
