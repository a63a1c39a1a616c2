"""The JSON Schemas of the tools: their inputs, checked here, and their answers, built
from the schemas foldctl publishes for its commands' JSON (``foldctl.schema``), so an
answer's items are exactly what ``foldctl COMMAND --format json`` writes."""

from __future__ import annotations

import functools
import json
from typing import Any, Final

import foldctl
from foldctl.errors import UsageError

#: Pieces of an item too large for one answer (see :mod:`foldctl.mcp.paging`).
PIECE: Final = {
    "type": "object",
    "required": ["piece", "json"],
    "additionalProperties": False,
    "description": "A slice of the compact JSON text of an item too large (or nested too "
    "deeply) for one answer; the next answer continues it.",
    "properties": {
        "piece": {
            "type": "object",
            "required": ["of", "length", "start", "end"],
            "additionalProperties": False,
            "properties": {
                "of": {"type": ["string", "null"], "description": "The item's locator."},
                "length": {"type": "integer", "description": "Characters of the whole text."},
                "start": {"type": "integer"},
                "end": {"type": "integer"},
            },
        },
        "json": {"type": "string"},
    },
}
#: A source that could not be read, among many.
FAILURE: Final = {
    "type": "object",
    "required": ["source", "error"],
    "additionalProperties": False,
    "properties": {
        "source": {"type": "string"},
        "error": {"type": "string", "description": "The line `foldctl` prints for it."},
    },
}
#: What a message cut to fit carries.
CUT: Final = {
    "type": "object",
    "required": ["field", "length", "start", "end"],
    "additionalProperties": False,
    "description": "This message's content is cut: its length in characters and the slice "
    "shown; the answer's cursor continues it.",
    "properties": {
        "field": {"const": "content"},
        "length": {"type": "integer"},
        "start": {"type": "integer"},
        "end": {"type": "integer"},
    },
}
#: The keys every answer ends with.
PAGING: Final = {
    "complete": {
        "type": "boolean",
        "description": "true when this answer holds everything asked for.",
    },
    "stopped": {
        "enum": [None, "budget", "limit"],
        "description": "Why the answer stopped early: its byte budget or the item limit.",
    },
    "next": {
        "type": ["string", "null"],
        "description": "The cursor of the next answer: call again with the same arguments "
        "and cursor=next.",
    },
}


def _renamed(value: Any, command: str) -> Any:
    """``value`` with every ``#/$defs/X`` reference made ``#/$defs/COMMAND.X``."""
    text = json.dumps(value).replace('"#/$defs/', f'"#/$defs/{command}.')
    return json.loads(text)


@functools.cache
def library_defs(command: str) -> dict[str, Any]:
    """The ``$defs`` of a command's published schema, named ``COMMAND.X``."""
    published = json.loads(foldctl.schema(command))
    return {f"{command}.{k}": _renamed(v, command) for k, v in published["$defs"].items()}


def answer(
    command: str,
    item: str,
    items: str,
    fields: dict[str, Any],
    *,
    extra_defs: dict[str, Any] | None = None,
    failures: bool = False,
) -> dict[str, Any]:
    """The schema of an answer: ``fields``, then ``items`` (a list of the command's
    ``item`` definition, or pieces of one, or failures), then the paging keys."""
    kinds: list[dict[str, Any]] = [{"$ref": f"#/$defs/{item}"}, {"$ref": "#/$defs/piece"}]
    if failures:
        kinds.append({"$ref": "#/$defs/failure"})
    defs = {**library_defs(command), **(extra_defs or {}), "piece": PIECE, "failure": FAILURE}
    properties = {**fields, items: {"type": "array", "items": {"anyOf": kinds}}, **PAGING}
    return {
        "type": "object",
        "required": [*fields, items, *PAGING],
        "properties": properties,
        "$defs": defs,
    }


# --------------------------------------------------------------------------- inputs

SOURCE: Final = {
    "type": "string",
    "description": "A checkpoint file, STORE.db#SESSION_ID, as list_sessions gives it "
    "(absolute, or relative to the server's working folder); under the server's roots.",
}
SOURCES: Final = {
    "type": "array",
    "items": {"type": "string"},
    "description": "Files, folders or stores under the server's roots (default: every root).",
}
CURSOR: Final = {
    "type": "string",
    "description": "The `next` of a previous answer, to continue it (with the same arguments).",
}


def limit(default: int) -> dict[str, Any]:
    return {
        "type": "integer",
        "minimum": 1,
        "maximum": 1000,
        "default": default,
        "description": f"At most this many items per answer (default {default}); the byte "
        "budget may stop it sooner.",
    }


def inputs(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(required),
        "additionalProperties": False,
    }


_TYPES: Final = {
    "string": (str,),
    "integer": (int,),
    "boolean": (bool,),
    "array": (list,),
}


def checked(schema: dict[str, Any], arguments: Any) -> dict[str, Any]:
    """``arguments`` checked against an input schema (the flat kind above), defaults
    filled in; a wrong one is a :class:`UsageError` naming the argument."""
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise UsageError("arguments: expected an object")
    properties: dict[str, Any] = schema["properties"]
    for name in arguments:
        if name not in properties:
            known = ", ".join(properties) or "none"
            raise UsageError(f"unknown argument {name!r}; this tool takes {known}")
    for name in schema["required"]:
        if arguments.get(name) is None:
            raise UsageError(f"{name}: required")
    out: dict[str, Any] = {}
    for name, spec in properties.items():
        value = arguments.get(name)
        if value is None:
            out[name] = spec.get("default")
            continue
        kind = spec["type"]
        wrong = not isinstance(value, _TYPES[kind]) or (
            kind == "integer" and isinstance(value, bool)
        )
        if kind == "array" and not wrong:
            wrong = not all(isinstance(v, str) for v in value)
        if wrong:
            expected = {"array": "a list of strings", "integer": "an integer"}.get(
                kind, f"a {kind}"
            )
            raise UsageError(f"{name}: expected {expected}")
        if kind == "integer":
            low, high = spec.get("minimum"), spec.get("maximum")
            if low is not None and value < low:
                raise UsageError(f"{name}: expected at least {low}, not {value}")
            if high is not None and value > high:
                raise UsageError(f"{name}: expected at most {high}, not {value}")
        if kind == "string" and not value:
            raise UsageError(f"{name}: expected a non-empty string")
        out[name] = value
    return out
