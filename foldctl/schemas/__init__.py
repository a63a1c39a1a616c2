"""The published JSON Schemas (draft 2020-12) of each command's JSON/JSONL output.

One file per command, ``<command>.json``.  The top level describes the
``--format json`` document; ``$defs.record`` describes one ``--format jsonl``
line.  Field names and meanings are stable (docs/output.md).
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from foldctl import jsoncodec
from foldctl.errors import UsageError


def names() -> list[str]:
    """The commands that publish a schema, sorted."""
    return sorted(
        entry.name.removesuffix(".json")
        for entry in resources.files(__name__).iterdir()
        if entry.name.endswith(".json")
    )


def text(command: str) -> bytes:
    """The schema file of ``command`` as stored, or :class:`UsageError`."""
    available = names()
    if command not in available:
        raise UsageError(f"no published schema for {command!r}; choose from {', '.join(available)}")
    return resources.files(__name__).joinpath(f"{command}.json").read_bytes()


def load(command: str) -> dict[str, Any]:
    """The schema of ``command``'s ``--format json`` output."""
    schema: dict[str, Any] = jsoncodec.loads(text(command), f"schema {command}")
    return schema


def record_schema(command: str) -> dict[str, Any]:
    """A schema for one ``--format jsonl`` line of ``command`` (``$defs.record``)."""
    schema = load(command)
    return {
        "$schema": schema["$schema"],
        "$id": schema["$id"] + ":record",
        "$defs": schema["$defs"],
        "$ref": "#/$defs/record",
    }
