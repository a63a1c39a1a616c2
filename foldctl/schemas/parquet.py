"""The Parquet tables ``foldctl export`` writes: every column, its type, and what it holds.

This is the one definition: :mod:`foldctl.arrow` builds the Arrow schemas from it,
``foldctl schema export --parquet`` prints it as JSON (:func:`description`), and
docs/export.md lists the same columns (a test compares all three with what is
written).  Types are named in a small language that maps one to one onto Arrow:
``string``, ``int64``, ``float64``, ``bool``, ``timestamp[ms, UTC]``,
``list<string>``, ``list<int64>``.  Column names and meanings are stable; a change
is a new ``FORMAT`` version and goes in the CHANGELOG.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

#: The version of these tables; written into every export's manifest.
FORMAT: Final = "foldctl-export/2"

TYPES: Final = (
    "string",
    "int64",
    "float64",
    "bool",
    "timestamp[ms, UTC]",
    "list<string>",
    "list<int64>",
)


class Column(msgspec.Struct, frozen=True):
    name: str
    type: str
    nullable: bool
    description: str


def _c(name: str, type_: str, description: str, *, null: bool = False) -> Column:
    assert type_ in TYPES, type_
    return Column(name, type_, null, description)


#: Every table starts with these: the checkpoint a row belongs to.
_KEY: Final = (
    _c("source", "string", "the SOURCE as named (a path, or STORE.db#SESSION_ID)"),
    _c("sha256", "string", "sha256 of the source's stored bytes (lowercase hex)"),
    _c("format", "string", "the input format: agentfootprint, claude-code or codex"),
)

TABLES: Final[dict[str, tuple[Column, ...]]] = {
    "checkpoints": (
        *_KEY,
        _c("bytes", "int64", "size of the stored bytes (a .gz as stored; a session's envelope)"),
        _c("store", "string", "the store file of a session, else null", null=True),
        _c("session", "string", "the session id in its store, else null", null=True),
        _c("shape", "string", "checkpoint, conversation-v1, flowchart-v1, session or rollout"),
        _c("runId", "string", "the checkpoint's runId (a session file: its session id)", null=True),
        _c("version", "int64", "the checkpoint's version (1); null for a session file", null=True),
        _c("checkpointedAt", "timestamp[ms, UTC]", "checkpointedAt as a time", null=True),
        _c(
            "checkpointedAtMs",
            "float64",
            "checkpointedAt as stored (epoch ms; a session file: its latest record time)",
            null=True,
        ),
        _c("lastCompletedIteration", "float64", "as stored; null when not recorded", null=True),
        _c("scheme", "string", "the fingerprint scheme that joined it, or uuid-chain, position"),
        _c("schemeNote", "string", "how the scheme was chosen"),
        _c("foldedPresent", "bool", "whether the checkpoint has a `folded` key"),
        _c("liveMessages", "int64", "length of history"),
        _c("spans", "int64", "entries of folded"),
        _c("retained", "int64", "spans with retained: conversation"),
        _c("discarded", "int64", "spans with retained: discard"),
        _c("placed", "int64", "spans by placement: placed"),
        _c("detached", "int64", "spans by placement: detached"),
        _c("orphan", "int64", "spans by placement: orphan"),
        _c("abandoned", "int64", "containers of records in no fold and not live (session files)"),
        _c("sidechain", "int64", "containers of a subagent's records in its parent's file"),
        _c("foldedMessages", "int64", "retained messages over all spans"),
        _c("maxDepth", "int64", "the deepest placed span"),
        _c("messages", "int64", "rows of this source in `messages`"),
        _c("findings", "int64", "rows of this source in `findings`"),
        _c("foldctlVersion", "string", "the foldctl that exported it"),
    ),
    "spans": (
        *_KEY,
        _c("span", "int64", "index in folded"),
        _c("kind", "string", "fold; abandoned or sidechain for a container that is no fold"),
        _c("fingerprint", "string", "summaryFingerprint; null when not recorded", null=True),
        _c("placement", "string", "placed, detached, orphan, abandoned or sidechain"),
        _c("frame", "string", "locator of its frame (h1, f6:0), null when it floats", null=True),
        _c(
            "depth",
            "int64",
            "1 = frame in history, 2 = inside a span whose frame is live, ...; 0 when floating",
        ),
        _c(
            "model", "string", "the model that wrote the summary; null when not recorded", null=True
        ),
        _c("runId", "string", "the run that folded; null when not recorded", null=True),
        _c("iteration", "int64", "ReAct iteration of the fold; null when not recorded", null=True),
        _c("foldedAt", "timestamp[ms, UTC]", "foldedAtMs as a time", null=True),
        _c("foldedAtMs", "float64", "foldedAtMs as stored; null when not recorded", null=True),
        _c("messageCount", "int64", "how many messages the summary stands for"),
        _c("messagesKept", "int64", "how many messages it holds; null without messages", null=True),
        _c("retained", "string", "conversation or discard"),
        _c("removedStageIds", "list<string>", "as stored; null when not recorded", null=True),
        _c("reason", "string", "why it floats, or null", null=True),
        _c("line", "int64", "the line of the record that made the fold (session files)", null=True),
        _c(
            "summary",
            "string",
            "the content of its frame (label and summary text), null when it floats",
            null=True,
        ),
    ),
    "messages": (
        *_KEY,
        _c("seq", "int64", "0-based row number in `expand --include-detached` order"),
        _c("locator", "string", "h12, f3:5: the message's short name"),
        _c("line", "int64", "the record's 1-based line in its file (session files)", null=True),
        _c("span", "int64", "the span whose messages hold it; null in the live window", null=True),
        _c(
            "chain",
            "list<int64>",
            "the spans entered from the live window inward, outermost first"
            " (past 256 levels, the innermost 256)",
        ),
        _c("depth", "int64", "how many folds deep: len(chain) up to 256"),
        _c(
            "occurrence",
            "int64",
            "1 for the first placement of its span's messages, 2, 3, ... for replays",
        ),
        _c("where", "string", "live, folded, detached, orphan, abandoned or sidechain"),
        _c("role", "string", "as stored (a session file's record: as its format shows it)"),
        _c("content", "string", "as stored, when a string (else in otherFields)", null=True),
        _c("toolName", "string", "as stored, when a string (else in otherFields)", null=True),
        _c("toolCallId", "string", "as stored, when a string (else in otherFields)", null=True),
        _c("toolCalls", "string", "toolCalls as compact JSON text, null when absent", null=True),
        _c(
            "otherFields",
            "string",
            "every other field (as its format shows it), as a compact JSON object; null when none",
            null=True,
        ),
        _c(
            "fingerprint",
            "string",
            "on a summary frame kept in the transcript: its fingerprint",
            null=True,
        ),
        _c("resolution", "string", "with fingerprint: discarded, unresolved, cycle", null=True),
        _c("joinsSpan", "int64", "with fingerprint: the span it joins, or null", null=True),
        _c("digest", "string", "xxh3-128:... of the message's canonical JSON"),
    ),
    "findings": (
        *_KEY,
        _c("check", "string", "which check found it: verify (the integrity audit) or claims"),
        _c("code", "string", "the finding code (docs/findings.md)"),
        _c("severity", "string", "error, warning or info"),
        _c("locator", "string", "the message it is about, if any", null=True),
        _c("span", "int64", "the span it is about, if any", null=True),
        _c("path", "string", "where in the JSON file, if known", null=True),
        _c("message", "string", "one sentence"),
        _c("related", "list<string>", "every other place involved"),
    ),
}


def columns(table: str) -> tuple[Column, ...]:
    """The columns of one table, in order."""
    return TABLES[table]


def description() -> dict[str, Any]:
    """What ``foldctl schema export --parquet`` prints: every table's columns and types."""
    return {
        "format": FORMAT,
        "tables": {
            name: {
                "columns": [
                    {
                        "name": c.name,
                        "type": c.type,
                        "nullable": c.nullable,
                        "description": c.description,
                    }
                    for c in cols
                ]
            }
            for name, cols in TABLES.items()
        },
    }
