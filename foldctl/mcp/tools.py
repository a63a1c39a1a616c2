"""The tools: each a description for a model, a JSON Schema of its arguments, the
schema of its answer, and a function over the package face.

Every answer is a page (:mod:`foldctl.mcp.paging`): its items are the records the
matching command writes as JSON (``show``'s fold tree, ``expand``'s messages,
``grep``'s hits, ``locate``'s rows, ``claims``' findings, ``sessions``' rows), and it
ends with ``complete``, ``stopped`` and ``next``.
"""

from __future__ import annotations

import itertools
import re
from collections import deque
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from typing import Any, Final

import msgspec

import foldctl
from foldctl.errors import FoldctlError, UsageError
from foldctl.mcp import schemas
from foldctl.mcp.schemas import CURSOR, SOURCE, SOURCES, inputs, limit
from foldctl.mcp.service import Answer, Service

Work = Callable[[Service, dict[str, Any]], dict[str, Any]]

_PAGING_HELP: Final = (
    " Answers are bounded (a byte budget): when `complete` is false, call again with the "
    "same arguments and `cursor` set to `next`. A message too long for one answer comes "
    "cut, with `cut` giving its length and the slice shown; the next answer continues it."
)


class Tool(msgspec.Struct, frozen=True):
    name: str
    title: str
    description: str
    input_schema: dict[str, Any]
    output_schema: Callable[[], dict[str, Any]]
    work: Work


def _from(items: Iterator[Any], start: int) -> Iterator[Any]:
    """``items`` from the ``start``-th on."""
    return itertools.islice(items, start, None)


# --------------------------------------------------------------------------- list_sessions


def _epoch_ms(text: str) -> float:
    """``since``: ISO-8601 (a date, or a time with ``Z`` or an offset) or epoch ms."""
    value = text.strip()
    if re.fullmatch(r"\d+", value):
        return float(value)
    if value[-1:] in ("Z", "z"):
        value = value[:-1] + "+00:00"
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise UsageError(
            f"since {text!r}: expected ISO-8601 (2026-03-16, 2026-03-16T09:13:00Z) or "
            "epoch milliseconds"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.timestamp() * 1000


def list_sessions(service: Service, args: dict[str, Any]) -> dict[str, Any]:
    roots = service.roots.each(None if args["root"] is None else [args["root"]])
    since = None if args["since"] is None else _epoch_ms(args["since"])
    listings: list[Any] = []
    failed: list[dict[str, Any]] = []
    for root in roots:
        try:
            listings.append(foldctl.sessions_in(root))
        except FoldctlError as e:
            failed.append(service.failure(e))

    def rows() -> Iterator[Any]:
        yield from failed
        for listing in listings:
            for row in listing.rows:
                at = row.get("savedAtMs")
                late = isinstance(at, int | float) and at >= since if since is not None else True
                if late or row.get("error"):
                    yield row

    question = service.question("list_sessions", args, *roots)
    envelope = {"roots": list(service.roots.paths)}
    return service.page(
        envelope, "sessions", lambda i: _from(rows(), i), question, args["cursor"], args["limit"]
    )


def _session_schema() -> dict[str, Any]:
    row = dict(schemas.library_defs("sessions")["sessions.storeSession"])
    runtime = {
        "type": ["string", "null"],
        "description": "The runtime that wrote the session, as the input format that read it "
        "(agentfootprint, claude-code, codex); null when it could not be read.",
    }
    row["properties"] = {**row["properties"], "runtime": runtime}
    row["required"] = [*row["required"], "runtime"]
    return row


LIST_SESSIONS = Tool(
    "list_sessions",
    "List the sessions this server can read",
    "The checkpoints, stored sessions, Claude Code sessions and Codex rollouts under this "
    "server's roots, one row each: `source` (pass it to every other tool), session id, "
    "`runtime`, kind, run, when it was saved (`savedAt`; for a session file, its last "
    "record), how many live messages and folds it holds, and its audit (`findings`, "
    "`worst`); a session that cannot be read has `error`. Use it first, to find the "
    "session whose folded messages you need. `root` narrows it to one root (or a folder or "
    "store under one); `since` keeps sessions saved at or after a time." + _PAGING_HELP,
    inputs(
        {
            "root": {
                "type": "string",
                "description": "One root, or a folder or store under one (default: every root).",
            },
            "since": {
                "type": "string",
                "description": "Only sessions saved at or after this time: ISO-8601 "
                "(2026-03-16, 2026-03-16T09:13:00Z) or epoch milliseconds.",
            },
            "limit": limit(50),
            "cursor": CURSOR,
        }
    ),
    lambda: schemas.answer(
        "sessions",
        "session",
        "sessions",
        {"roots": {"type": "array", "items": {"type": "string"}}},
        extra_defs={"session": _session_schema()},
        failures=True,
    ),
    list_sessions,
)


# --------------------------------------------------------------------------- folds

#: How much of a summary's first line a fold shows (expand shows all of it).
SUMMARY_CHARS: Final = 300


def _first_line(summary: str | None) -> str | None:
    if summary is None:
        return None
    line = next((ln.strip() for ln in summary.splitlines() if ln.strip()), "")
    return line if len(line) <= SUMMARY_CHARS else line[:SUMMARY_CHARS] + "…"


def folds(service: Service, args: dict[str, Any]) -> dict[str, Any]:
    path, conversation = service.open(args["source"])
    overview = foldctl.Overview(conversation.overview())
    doc = overview.doc

    def nodes(start: int) -> Iterator[dict[str, Any]]:
        for node in _from(iter(doc["tree"]), start):
            yield {**node, "summary": _first_line(conversation.summary(node["span"]))}

    envelope = {
        "source": doc["source"],
        # absent from the overview when the file records none (a session without its
        # meta line, a rollout without a timestamp)
        "runId": doc.get("runId"),
        "checkpointedAt": doc.get("checkpointedAt"),
        "scheme": doc["scheme"],
        "counts": doc["counts"],
    }
    question = service.question("folds", args, path)
    return service.page(envelope, "folds", nodes, question, args["cursor"], args["limit"])


def _folds_schema() -> dict[str, Any]:
    show = schemas.library_defs("show")
    node = dict(show["show.node"])
    node["properties"] = {
        **node["properties"],
        "summary": {
            "type": ["string", "null"],
            "description": "The first line of the summary the fold left (cut at "
            f"{SUMMARY_CHARS} characters, ending with …); null when no frame in view joins "
            "the span (detached, orphan).",
        },
    }
    return schemas.answer(
        "show",
        "fold",
        "folds",
        {
            "source": {"type": "string"},
            "runId": {"type": ["string", "null"]},
            "checkpointedAt": {"type": ["string", "null"]},
            "scheme": {"type": "string"},
            "counts": {"$ref": "#/$defs/show.counts"},
        },
        extra_defs={"fold": node},
    )


FOLDS = Tool(
    "folds",
    "The folds of a session",
    "The fold tree of one session: every fold (span) that compaction made, in tree order "
    "(a fold inside another follows it, `depth` deeper), with where its summary frame "
    "sits (`frame`, a locator), the model that summarized it, when (`foldedAt`), how many "
    "messages it replaced (`messageCount`), whether the originals were kept (`retained`), "
    "and `summary`, the first line of what the summary says. Also the session's counts. "
    "Use it to see what was folded and find the span whose originals you need; then "
    "`expand` with `locator` set to `f` plus the span number (f5) or the frame's locator "
    "to read them." + _PAGING_HELP,
    inputs({"source": SOURCE, "limit": limit(100), "cursor": CURSOR}, ("source",)),
    _folds_schema,
    folds,
)


# --------------------------------------------------------------------------- expand


def expand(service: Service, args: dict[str, Any]) -> dict[str, Any]:
    path, conversation = service.open(args["source"])

    def messages(start: int) -> Iterator[Any]:
        transcript = conversation.transcript(
            depth=args["depth"], only=args["locator"], keep_frames=args["frames"], replays="ref"
        )
        events = iter(transcript.events)
        skipped = 0
        while skipped < start:  # rows passed over without making their records
            event = next(events, None)
            if event is None:
                break
            skipped += isinstance(event, foldctl.Row)
        return foldctl.Transcript(events).records()

    first = messages(0)
    next(first, None)  # a bad locator fails here, before any answer
    envelope = {"source": path, "locator": args["locator"], "depth": args["depth"]}
    question = service.question("expand", args, path)
    return service.page(envelope, "messages", messages, question, args["cursor"], args["limit"])


def _expand_schema() -> dict[str, Any]:
    message = dict(schemas.library_defs("expand")["expand.message"])
    message["properties"] = {**message["properties"], "cut": schemas.CUT}
    return schemas.answer(
        "expand",
        "message",
        "messages",
        {
            "source": {"type": "string"},
            "locator": {"type": ["string", "null"]},
            "depth": {"type": ["integer", "null"]},
        },
        extra_defs={"message": message},
    )


EXPAND = Tool(
    "expand",
    "Read the originals a summary replaced",
    "The messages of a session as they were before compaction folded them, each verbatim "
    "with its `locator` (h12: the live window; f3:5: message 5 of fold 3), `depth` (folds "
    "deep), `chain` (the folds entered) and `digest`. Without `locator`: the whole "
    "conversation with every summary replaced by its originals. With `locator`: one fold "
    "(f5: its originals, nested folds expanded), a summary frame's locator (the originals "
    "it stands for), a message's locator, or a digest. Use it to recover what a summary "
    "left out: the exact tool result, the edit already made, the step reached. `depth` "
    "stops after that many levels of folds; `frames` keeps each summary before its "
    "originals. A replayed summary's fold is given once (later places refer to it)." + _PAGING_HELP,
    inputs(
        {
            "source": SOURCE,
            "locator": {
                "type": "string",
                "description": "A fold (f5), a message or summary frame (h1, f6:0), or a "
                "digest (xxh3-128:...); default: the whole conversation.",
            },
            "depth": {
                "type": "integer",
                "minimum": 0,
                "description": "Expand at most this many levels of folds.",
            },
            "frames": {
                "type": "boolean",
                "default": False,
                "description": "Give each summary frame before its originals.",
            },
            "limit": limit(50),
            "cursor": CURSOR,
        },
        ("source",),
    ),
    _expand_schema,
    expand,
)


# --------------------------------------------------------------------------- grep


def _with_failures(
    service: Service, make: Callable[[Callable[[FoldctlError], None]], Iterator[Any]]
) -> Iterator[Any]:
    """The items ``make(on_error)`` yields, each source that could not be read given as a
    failure item where it was met."""
    failed: deque[dict[str, Any]] = deque()

    def on_error(error: FoldctlError) -> None:
        failed.append(service.failure(error))

    for item in make(on_error):
        while failed:
            yield failed.popleft()
        yield item
    yield from failed


def grep(service: Service, args: dict[str, Any]) -> dict[str, Any]:
    sources = service.roots.each(args["sources"])
    query = foldctl.grep_query(
        args["pattern"], fixed=args["fixed"], ignore_case=args["ignore_case"], replays="ref"
    )

    def hits(on_error: Callable[[FoldctlError], None]) -> Iterator[Any]:
        run = foldctl.grep_records(
            query, sources, jobs=1, redactor=service.redactor, on_error=on_error
        )
        return run.records()

    envelope = {"pattern": args["pattern"], "sources": sources}
    question = service.question("grep", args, *sources)
    return service.page(
        envelope,
        "hits",
        lambda i: _from(_with_failures(service, hits), i),
        question,
        args["cursor"],
        args["limit"],
    )


def _over_sources(command: str, items: str, asked: str) -> Callable[[], dict[str, Any]]:
    """The answer schema of a tool over many sources: what it was asked, the sources read,
    its items (the command's records, or a failure for a source that could not be read)."""
    fields = {asked: {"type": "string"}, "sources": {"type": "array", "items": {"type": "string"}}}
    return lambda: schemas.answer(command, f"{command}.record", items, fields, failures=True)


GREP = Tool(
    "grep",
    "Search live and folded messages",
    "Search every message of the sessions, live or folded away at any depth, for a regular "
    "expression (or, with `fixed`, a plain string): each hit is the message verbatim with "
    "its `source`, `locator`, `where` (live or folded), `foldedBy` (the fold that hid it: "
    "span, model, time) and `matches` (field, offsets, text). Use it to find where a fact "
    "went (an id, an error, a file name) when you do not know which fold holds it; then "
    "`expand` the hit's locator, or its span, for the context. A source that cannot be "
    "read is an item with `error`." + _PAGING_HELP,
    inputs(
        {
            "pattern": {"type": "string", "description": "A Python regular expression."},
            "sources": SOURCES,
            "fixed": {"type": "boolean", "default": False, "description": "A plain string."},
            "ignore_case": {"type": "boolean", "default": False},
            "limit": limit(20),
            "cursor": CURSOR,
        },
        ("pattern",),
    ),
    _over_sources("grep", "hits", "pattern"),
    grep,
)


# --------------------------------------------------------------------------- locate


def locate(service: Service, args: dict[str, Any]) -> dict[str, Any]:
    sources = service.roots.each(args["sources"])
    failed: list[dict[str, Any]] = []

    def on_error(error: FoldctlError) -> None:
        failed.append(service.failure(error))

    found = foldctl.locate(sources, args["digest"], redactor=service.redactor, on_error=on_error)
    envelope = {"digest": args["digest"], "sources": sources}
    question = service.question("locate", args, *sources)
    items = [*failed, *found.rows]
    return service.page(
        envelope, "places", lambda i: iter(items[i:]), question, args["cursor"], args["limit"]
    )


LOCATE = Tool(
    "locate",
    "Find every place a message occurs",
    "Every place a message with this digest (xxh3-128:..., as every message of every answer "
    "carries it) occurs in the sessions, live or folded at any depth: the message with its "
    "`source`, `locator`, `where` and `chain`. Use it to follow one message across "
    "sessions or copies of one session, or to cite it." + _PAGING_HELP,
    inputs(
        {
            "digest": {"type": "string", "description": "xxh3-128:<32 hex digits>."},
            "sources": SOURCES,
            "limit": limit(20),
            "cursor": CURSOR,
        },
        ("digest",),
    ),
    _over_sources("locate", "places", "digest"),
    locate,
)


# --------------------------------------------------------------------------- claims


def _fold_of(locator: str) -> int | None:
    match = re.fullmatch(r"f(\d+)", locator)
    return None if match is None else int(match.group(1))


def claims(service: Service, args: dict[str, Any]) -> dict[str, Any]:
    path = service.source(args["source"])
    wanted: str | None = args["locator"]
    if wanted is not None:  # a locator that names nothing is refused, as expand refuses it
        _, conversation = service.open(path)
        next(iter(conversation.transcript(only=wanted, depth=0, replays="ref").events), None)
    failed: list[FoldctlError] = []
    result = foldctl.check_claims(path, redactor=service.redactor, on_error=failed.append)
    if failed:
        raise failed[0]
    span = None if wanted is None else _fold_of(wanted)
    rows = [
        row
        for row in result.records()
        if wanted is None or row["frame"] == wanted or (span is not None and row["span"] == span)
    ]
    envelope = {"source": path, "locator": wanted, "wrong": result.wrong}
    question = service.question("claims", args, path)
    return service.page(
        envelope, "findings", lambda i: iter(rows[i:]), question, args["cursor"], args["limit"]
    )


def _claims_schema() -> dict[str, Any]:
    return schemas.answer(
        "claims",
        "claims.record",
        "findings",
        {
            "source": {"type": "string"},
            "locator": {"type": ["string", "null"]},
            "wrong": {
                "type": "integer",
                "description": "Findings that say a summary is wrong (in the whole session).",
            },
        },
    )


CLAIMS = Tool(
    "claims",
    "Check the summaries against their originals",
    "Every summary of a session checked against the originals it stands for, by "
    "deterministic rules: a value it gets wrong (`contradicted`, with `expected`, the "
    "originals' value), a fact it invents (`unsupported`), an error it leaves out "
    "(`dropped`); as information, a value it says it worked out that does not follow "
    "(`unverified`), or `unverifiable` when nothing was kept. Each finding names the summary "
    "(`frame`, `span`), the words (`atom`, `sentence`) and the `evidence` (locators and "
    "digests of the originals). Use it before trusting a summary; then `expand` the "
    "evidence locator. `locator`: only the findings of one summary (its frame's locator, or "
    "its fold, f5)." + _PAGING_HELP,
    inputs(
        {
            "source": SOURCE,
            "locator": {
                "type": "string",
                "description": "A summary frame (h1, f6:0) or its fold (f5).",
            },
            "limit": limit(50),
            "cursor": CURSOR,
        },
        ("source",),
    ),
    _claims_schema,
    claims,
)

#: Every tool, in the order they are listed.
TOOLS: Final = {t.name: t for t in (LIST_SESSIONS, FOLDS, EXPAND, GREP, LOCATE, CLAIMS)}


def call(service: Service, name: str, arguments: Any) -> Answer:
    """Run tool ``name`` on ``arguments``: its answer (a document, or an error line)."""
    tool = TOOLS.get(name) if isinstance(name, str) else None

    def work() -> dict[str, Any]:
        if tool is None:
            raise UsageError(f"no tool {name!r}; the tools are {', '.join(TOOLS)}")
        return tool.work(service, schemas.checked(tool.input_schema, arguments))

    return service.answer(work)
