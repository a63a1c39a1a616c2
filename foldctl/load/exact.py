"""The exact path: a decoded JSON document to a :class:`~foldctl.model.Checkpoint`.

Unwrap the envelope, validate, keep the rest.

Validation covers what the reference runtime itself needs to read a
checkpoint and what foldctl needs to join it; a failure names the source,
the JSON path and what was expected.  Everything else is kept verbatim for
the audit (``verify``) and for machine output.
"""

from __future__ import annotations

from typing import Any, Final, get_args

from foldctl.errors import InputError, NotACheckpoint
from foldctl.jsoncodec import brief
from foldctl.model import Checkpoint, Message, Retention, Shape, Span

ENVELOPE_FORMATS: Final = ("conversation-v1", "flowchart-v1")
RETENTIONS: tuple[str, ...] = get_args(Retention)
#: Where the conversation sits in each shape of an agentfootprint checkpoint.
_CONVERSATION: Final[dict[str, str]] = {
    "checkpoint": "",
    "conversation-v1": "data",
    "flowchart-v1": "data.conversation",
}


def json_path(shape: str, path: str = "") -> str:
    """The JSON path in the file of ``path`` within the conversation (``history[3]``,
    ``folded[2].model``) for a checkpoint of ``shape``: the one map from an envelope to its
    conversation (``data.conversation.history[3]`` in a paused run)."""
    return _join(_CONVERSATION[shape], path) if path else _CONVERSATION[shape]


def check_history(value: Any, source: str, conversation_path: str) -> list[Message]:
    """``history`` validated as the exact path does (for the fast path)."""
    return _Checker(source).messages({"history": value}, "history", conversation_path)


def check_message(value: Any, source: str, path: str) -> Message:
    """One message validated as the exact path does: an object with string role and content."""
    check = _Checker(source)
    message = check.obj(value, path)
    check.string(message, "role", path)
    check.string(message, "content", path)
    return message


def check_original_input(value: Any, source: str, conversation_path: str) -> str:
    check = _Checker(source)
    path = _join(conversation_path, "originalInput")
    return check.string(check.obj(value, path), "message", path)


def type_name(value: Any) -> str:
    """How an error names a JSON value's type ("a string", "an array", "null")."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


class _Checker:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, path: str, what: str) -> InputError:
        return InputError(self.source, path or "(top level)", what)

    def obj(self, value: Any, path: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(path, f"expected an object, found {type_name(value)}")
        return value

    def field(self, parent: dict[str, Any], key: str, path: str) -> Any:
        if key not in parent:
            raise self.fail(_join(path, key), "missing; it is required")
        return parent[key]

    def string(self, parent: dict[str, Any], key: str, path: str) -> str:
        value = self.field(parent, key, path)
        if not isinstance(value, str):
            raise self.fail(_join(path, key), f"expected a string, found {type_name(value)}")
        return value

    def number(self, parent: dict[str, Any], key: str, path: str) -> int | float:
        value = self.field(parent, key, path)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(_join(path, key), f"expected a number, found {type_name(value)}")
        return value

    def integer(self, parent: dict[str, Any], key: str, path: str) -> int:
        value = self.number(parent, key, path)
        if isinstance(value, float):
            if not value.is_integer():
                raise self.fail(_join(path, key), f"expected a whole number, found {value}")
            return int(value)
        return value

    def array(self, parent: dict[str, Any], key: str, path: str) -> list[Any]:
        value = self.field(parent, key, path)
        if not isinstance(value, list):
            raise self.fail(_join(path, key), f"expected an array, found {type_name(value)}")
        return value

    def messages(self, parent: dict[str, Any], key: str, path: str) -> list[Message]:
        items = self.array(parent, key, path)
        base = _join(path, key)
        for i, item in enumerate(items):
            where = f"{base}[{i}]"
            message = self.obj(item, where)
            self.string(message, "role", where)
            self.string(message, "content", where)
        return items

    def span(self, value: Any, index: int, path: str) -> Span:
        where = f"{path}[{index}]"
        raw = self.obj(value, where)
        stage_ids = self.array(raw, "removedStageIds", where)
        for i, stage in enumerate(stage_ids):
            if not isinstance(stage, str):
                raise self.fail(
                    f"{where}.removedStageIds[{i}]",
                    f"expected a string, found {type_name(stage)}",
                )
        retained = self.string(raw, "retained", where)
        if retained not in RETENTIONS:
            raise self.fail(
                f"{where}.retained",
                f'expected "conversation" or "discard", found {brief(retained)}',
            )
        messages = self.messages(raw, "messages", where) if "messages" in raw else None
        return Span(
            index=index,
            fingerprint=self.string(raw, "summaryFingerprint", where),
            run_id=self.string(raw, "runId", where),
            iteration=self.integer(raw, "iteration", where),
            folded_at_ms=self.number(raw, "foldedAtMs", where),
            model=self.string(raw, "model", where),
            message_count=self.integer(raw, "messageCount", where),
            removed_stage_ids=tuple(stage_ids),
            retained=retained,  # type: ignore[arg-type]  # checked against RETENTIONS above
            messages=messages,
            raw=raw,
        )


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _unwrap(doc: Any, check: _Checker) -> tuple[Shape, dict[str, Any], str]:
    """Find the conversation in a document: (shape, conversation, its JSON path)."""
    if not isinstance(doc, dict):
        raise NotACheckpoint(
            check.source,
            "(top level)",
            f"not a conversation checkpoint: expected an object, found {type_name(doc)}",
        )
    top: dict[str, Any] = doc
    if "format" in top:
        fmt = top["format"]
        if fmt == "conversation-v1":
            path = json_path(fmt)
            return fmt, check.obj(check.field(top, "data", ""), path), path
        if fmt == "flowchart-v1":
            data = check.obj(check.field(top, "data", ""), "data")
            path = json_path(fmt)
            return fmt, check.obj(check.field(data, "conversation", "data"), path), path
        # quoted to 60 characters: an error line stays one short line whatever the file holds
        cut = (
            f"{fmt[:60]}… ({len(fmt)} characters)"
            if isinstance(fmt, str) and len(fmt) > 60
            else fmt
        )
        shown = f'"{cut}"' if isinstance(fmt, str) else type_name(fmt)
        raise check.fail(
            "format",
            f"unknown envelope format {shown}; expected one of {', '.join(ENVELOPE_FORMATS)}",
        )
    if "version" in top and "history" in top:
        return "checkpoint", top, ""
    raise NotACheckpoint(
        check.source,
        "(top level)",
        "not a conversation checkpoint: expected top-level `version` and `history` "
        f"or an envelope with `format` (found keys: {', '.join(sorted(top)[:8]) or 'none'})",
    )


def load_document(doc: Any, source: str) -> Checkpoint:
    """Validate a decoded JSON document and build the checkpoint."""
    check = _Checker(source)
    shape, conv, path = _unwrap(doc, check)
    version = check.field(conv, "version", path)
    if version != 1 or isinstance(version, bool):
        raise check.fail(
            _join(path, "version"), f"unsupported checkpoint version {brief(version)}; expected 1"
        )
    history = check.messages(conv, "history", path)
    original = check.obj(check.field(conv, "originalInput", path), _join(path, "originalInput"))
    spans: tuple[Span, ...] = ()
    if "folded" in conv:
        folded = check.array(conv, "folded", path)
        fpath = _join(path, "folded")
        spans = tuple(check.span(item, i, fpath) for i, item in enumerate(folded))
    return Checkpoint(
        source=source,
        shape=shape,
        run_id=check.string(conv, "runId", path),
        version=1,
        history=history,
        spans=spans,
        has_folded="folded" in conv,
        last_completed_iteration=check.number(conv, "lastCompletedIteration", path),
        original_input=check.string(original, "message", _join(path, "originalInput")),
        checkpointed_at=check.number(conv, "checkpointedAt", path),
        raw=conv,
    )
