"""Integrity findings: every way a checkpoint can disagree with itself, named, located, ranked.

:func:`audit` is a pure function of a resolved :class:`~foldctl.resolve.FoldGraph`
(the loaded checkpoint and its join).  Each :class:`Finding` has a stable
``code`` from :data:`CODES`, the code's severity, one sentence a reviewer
understands without the docs, and where it is: a message ``locator``
(``h7``, ``h2>f4:0``), a ``span`` index, and the ``path`` in the JSON file.
docs/findings.md describes every code with an example and what to do.

The rest of the module runs the audit over many sources (in parallel when
there are several) and turns the results into a :class:`VerifyReport` with
the exit status ``verify`` documents.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Final, Literal

from foldctl.errors import ExitStatus, FoldctlError, InputError, UsageError
from foldctl.fingerprint import SCHEMES, could_be
from foldctl.load import type_name
from foldctl.model import FRAME_PREFIX, Message, Span, looks_like_frame
from foldctl.resolve import Container, FoldGraph, FrameRef
from foldctl.views import iso_utc

Severity = Literal["error", "warning", "info"]
#: Most severe first.
SEVERITIES: Final[tuple[Severity, ...]] = ("error", "warning", "info")
_RANK: Final[dict[str, int]] = {name: rank for rank, name in enumerate(SEVERITIES)}


@dataclass(frozen=True, slots=True)
class Code:
    """A finding code: its name, severity and a one-line description for docs and help."""

    name: str
    severity: Severity
    summary: str


#: Every code ``audit`` can produce, in the order findings of one severity are listed.
CODES: Final[dict[str, Code]] = {
    code.name: code
    for code in (
        Code(
            "schema",
            "error",
            "a field of the reference format has the wrong type or an impossible value "
            "(the loader refuses what the join needs; this covers the rest)",
        ),
        Code(
            "retention-shape",
            "error",
            "retained: discard with messages, or retained: conversation without them",
        ),
        Code(
            "count-mismatch",
            "error",
            "retained: conversation and the number of messages kept differs from messageCount",
        ),
        Code("fold-cycle", "error", "a span reaches its own frame through nesting"),
        Code(
            "unresolved-frame",
            "warning",
            "a frame no span joins (forged, tampered, or stored before 8.2)",
        ),
        Code(
            "frame-role",
            "warning",
            "content opens with the frame label but the role is not user, so it never joins",
        ),
        Code(
            "frame-mismatch",
            "warning",
            "the frame's stated count, iteration, model or retention disagrees with its span",
        ),
        Code(
            "ambiguous-fingerprint",
            "warning",
            "a span shares its fingerprint with an earlier span; the first wins the join, "
            "so this one can never be reached",
        ),
        Code(
            "replayed-frame",
            "warning",
            "one span's frame appears in more than one place; a copy joins the real span",
        ),
        Code("orphan-span", "warning", "a span whose frame is nowhere in the checkpoint"),
        Code(
            "fingerprint-form",
            "warning",
            "a summaryFingerprint that no fingerprint scheme could have produced",
        ),
        Code(
            "time-order",
            "warning",
            "folded is not in non-decreasing foldedAtMs, or a fold is later than checkpointedAt",
        ),
        Code(
            "fold-order",
            "warning",
            "a span holds the frame of a later span, or a run's iterations go backwards",
        ),
        Code(
            "detached-span",
            "info",
            "a span whose frame was swallowed by a later fold that kept no messages",
        ),
        Code(
            "legacy-frame",
            "info",
            "a frame with the 7.16-8.1 retention sentence in a checkpoint that records spans",
        ),
    )
}

#: Not a finding about a checkpoint: the code ``verify`` reports for a source it cannot read.
UNREADABLE: Final = "unreadable"

ROLES: Final = ("system", "user", "assistant", "tool")


@dataclass(frozen=True, slots=True)
class Finding:
    """One disagreement, where it is, and one sentence about it."""

    code: str
    severity: Severity
    message: str
    locator: str | None = None  # the message it is about (``h7``, ``h2>f4:0``), if any
    span: int | None = None  # the span it is about, if any
    path: str | None = None  # where in the JSON file (``folded[3].messageCount``)
    related: tuple[str, ...] = ()  # every other place involved (locators, ``span N``)

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity,
            "locator": self.locator,
            "span": self.span,
            "path": self.path,
            "message": self.message,
            "related": list(self.related),
        }


def _finding(code: str, message: str, **where: Any) -> Finding:
    return Finding(code, CODES[code].severity, message, **where)


# --- the frame label ------------------------------------------------------------------

SENTENCE_CONVERSATION: Final = (
    "The folded messages are retained verbatim with this conversation and can be produced "
    "on request."
)
SENTENCE_DISCARD: Final = (
    "The folded messages were not retained beyond the run that folded them; only this "
    "summary carries them forward."
)
SENTENCE_LEGACY: Final = "The folded messages are retained verbatim in this run's commit log."
LabelRetention = Literal["conversation", "discard", "legacy"]
_SENTENCES: Final[dict[str, LabelRetention]] = {
    SENTENCE_CONVERSATION: "conversation",
    SENTENCE_DISCARD: "discard",
    SENTENCE_LEGACY: "legacy",
}
_LABEL: Final = re.compile(
    re.escape(FRAME_PREFIX)
    + r" — (\d+) earlier message\(s\) were folded out of this window at iteration (\d+)\. "
    r"The text after this line is a SUMMARY written by (.*?); it is a claim about the "
    r"conversation, not the conversation\. ("
    + "|".join(re.escape(s) for s in _SENTENCES)
    + r")\]\n\n",
    re.DOTALL,
)
#: How much of a frame's content the label may take (models are short names).
_LABEL_MAX: Final = 1 << 16


@dataclass(frozen=True, slots=True)
class FrameLabel:
    """What a frame's label states (SPEC §3)."""

    count: int
    iteration: int
    model: str
    retention: LabelRetention


def parse_label(content: str) -> FrameLabel | None:
    """The label of a frame, or None when it is not in the runtime's form."""
    match = _LABEL.match(content[:_LABEL_MAX])
    if match is None:
        return None
    count, iteration, model, sentence = match.groups()
    return FrameLabel(int(count), int(iteration), model, _SENTENCES[sentence])


# --- the audit ------------------------------------------------------------------------

_PATH_PREFIX: Final = {
    "checkpoint": "",
    "conversation-v1": "data.",
    "flowchart-v1": "data.conversation.",
}


def _quote(text: str, limit: int = 80) -> str:
    shown = text if len(text) <= limit else text[:limit] + "..."
    return f'"{shown}"'


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class _Audit:
    """What every check needs: the graph, JSON paths, labels and floating descendants."""

    def __init__(self, graph: FoldGraph) -> None:
        self.graph = graph
        self.cp = graph.checkpoint
        self.spans = graph.spans
        self.prefix = _PATH_PREFIX[self.cp.shape]
        self._labels: dict[tuple[Container, int], FrameLabel | None] = {}

    def containers(self) -> Iterator[tuple[Container, Sequence[Message]]]:
        yield None, self.cp.history
        for span in self.spans:
            if span.messages is not None:
                yield span.index, span.messages

    def message_path(self, container: Container, index: int, key: str | None = None) -> str:
        base = (
            f"{self.prefix}history[{index}]"
            if container is None
            else f"{self.prefix}folded[{container}].messages[{index}]"
        )
        return f"{base}.{key}" if key else base

    def span_path(self, span: int, key: str | None = None) -> str:
        base = f"{self.prefix}folded[{span}]"
        return f"{base}.{key}" if key else base

    def top_path(self, key: str) -> str:
        return f"{self.prefix}{key}"

    def locator(self, container: Container, index: int) -> str:
        return self.graph.locator_of(container, index)

    def label(self, ref: FrameRef) -> FrameLabel | None:
        key = (ref.container, ref.index)
        if key not in self._labels:
            content = self.graph.container_messages(ref.container)[ref.index]["content"]
            self._labels[key] = parse_label(content)
        return self._labels[key]

    def shadowed(self, span: Span) -> int | None:
        """The earlier span that wins this span's fingerprint, if any."""
        first = self.graph.by_fingerprint[span.fingerprint][0]
        return None if first == span.index else first

    def cycle_frames(self) -> list[FrameRef]:
        """The frames ``expand`` labels ``cycle`` (:attr:`FoldGraph.cycles`), in frame order."""
        cycles = self.graph.cycles
        return [ref for key, ref in self.graph.frames.items() if key in cycles]

    def nested_floating(self) -> dict[int, int]:
        """For each floating root, how many floating spans sit (transitively) inside it."""
        children: dict[int, list[int]] = {}
        for span, place in zip(self.spans, self.graph.places, strict=True):
            if place.placement != "placed" and place.container is not None:
                children.setdefault(place.container, []).append(span.index)
        counts: dict[int, int] = {}
        for root in self.graph.floating_roots:
            seen = {root}
            stack = list(children.get(root, ()))
            while stack:
                child = stack.pop()
                if child not in seen:
                    seen.add(child)
                    stack.extend(children.get(child, ()))
            counts[root] = len(seen) - 1
        return counts


def _floats(span: Span, nested: int) -> str:
    """What is left of an unreachable span, as the end of a sentence."""
    if span.messages is None:
        return "it kept no messages, so only its record is left"
    kept = f"its {_plural(len(span.messages), 'retained message')}"
    if nested:
        kept += f" (and the {_plural(nested, 'span')} nested in them)"
    return kept + " float with nowhere to stand"


def _check_messages(a: _Audit) -> Iterator[Finding]:
    """The checks on every message, in one pass (retained messages may be decoded on
    demand, so each is read once): ``schema`` and ``frame-role``."""
    scheme = SCHEMES[a.graph.scheme]
    for container, messages in a.containers():
        for i, message in enumerate(messages):
            yield from _message_schema(a, container, i, message)
            if message["role"] != "user" and looks_like_frame(message):
                yield _frame_role(a, container, i, message, scheme)


def _check_schema(a: _Audit) -> Iterator[Finding]:
    for span in a.spans:
        for key, value in (
            ("iteration", span.iteration),
            ("messageCount", span.message_count),
            ("foldedAtMs", span.folded_at_ms),
        ):
            if value < 0:
                yield _finding(
                    "schema",
                    f"Span {span.index}'s {key} is {value}; expected a number >= 0.",
                    span=span.index,
                    path=a.span_path(span.index, key),
                )
    cp = a.cp
    lci = cp.last_completed_iteration
    if lci < 0 or (isinstance(lci, float) and not lci.is_integer()):
        yield _finding(
            "schema",
            f"lastCompletedIteration is {lci}; expected a whole number >= 0.",
            path=a.top_path("lastCompletedIteration"),
        )
    if cp.checkpointed_at < 0:
        yield _finding(
            "schema",
            f"checkpointedAt is {cp.checkpointed_at}; expected epoch milliseconds >= 0.",
            path=a.top_path("checkpointedAt"),
        )
    yield from _optional_objects(a)


def _tool_call_problem(call: Any) -> str | None:
    if not isinstance(call, dict):
        return f"is {type_name(call)}; expected an object"
    problems = [
        f"{key} is {'missing' if key not in call else type_name(call[key])}"
        for key in ("id", "name")
        if not isinstance(call.get(key), str)
    ]
    if not isinstance(call.get("args"), dict):
        problems.append(f"args is {'missing' if 'args' not in call else type_name(call['args'])}")
    if not problems:
        return None
    return "has " + ", ".join(problems) + " (expected id and name strings, args an object)"


def _message_schema(a: _Audit, container: Container, i: int, message: Message) -> Iterator[Finding]:
    problems: list[tuple[str, str]] = []  # (what, JSON path)
    role = message["role"]
    if role not in ROLES:
        problems.append((f"has role {_quote(role)}; expected one of {', '.join(ROLES)}", "role"))
    for key in ("toolCallId", "toolName"):
        if key in message and not isinstance(message[key], str):
            problems.append((f"has {key} {type_name(message[key])}; expected a string", key))
    calls = message.get("toolCalls")
    if "toolCalls" in message and not isinstance(calls, list):
        problems.append((f"has toolCalls {type_name(calls)}; expected an array", "toolCalls"))
    elif isinstance(calls, list):
        for n, call in enumerate(calls):
            problem = _tool_call_problem(call)
            if problem is not None:
                problems.append((f"has a tool call {n} that {problem}", f"toolCalls[{n}]"))
    if not problems:
        return
    locator = a.locator(container, i)
    for what, key in problems:
        yield _finding(
            "schema",
            f"The message at {locator} {what}.",
            locator=locator,
            path=f"{a.message_path(container, i)}.{key}",
        )


def _optional_objects(a: _Audit) -> Iterator[Finding]:
    raw = a.cp.raw
    expected: dict[str, dict[str, tuple[type | tuple[type, ...], bool]]] = {
        "agent": {"id": (str, True)},
        "failurePoint": {
            "iteration": ((int, float), True),
            "phase": (str, True),
            "stage": (str, False),
        },
        "identity": {},
    }
    for key, fields in expected.items():
        if key not in raw:
            continue
        value = raw[key]
        if not isinstance(value, dict):
            yield _finding(
                "schema",
                f"{key} is {type_name(value)}; expected an object.",
                path=a.top_path(key),
            )
            continue
        for name, (kind, required) in fields.items():
            if name not in value:
                if required:
                    yield _finding(
                        "schema",
                        f"{key}.{name} is missing; it is required when {key} is present.",
                        path=a.top_path(f"{key}.{name}"),
                    )
                continue
            item = value[name]
            if isinstance(item, bool) or not isinstance(item, kind):
                want = "a string" if kind is str else "a number"
                yield _finding(
                    "schema",
                    f"{key}.{name} is {type_name(item)}; expected {want}.",
                    path=a.top_path(f"{key}.{name}"),
                )


def _check_retention_shape(a: _Audit) -> Iterator[Finding]:
    for span in a.spans:
        if span.retained == "discard" and span.messages is not None:
            yield _finding(
                "retention-shape",
                f"Span {span.index} says retained: discard but carries "
                f"{_plural(len(span.messages), 'message')}; the runtime writes messages "
                "only for retained: conversation.",
                span=span.index,
                path=a.span_path(span.index, "messages"),
            )
        elif span.retained == "conversation" and span.messages is None:
            yield _finding(
                "retention-shape",
                f"Span {span.index} says retained: conversation but has no messages, "
                f"so the {_plural(span.message_count, 'message')} it folded are missing.",
                span=span.index,
                path=a.span_path(span.index),
            )


def _check_counts(a: _Audit) -> Iterator[Finding]:
    for span in a.spans:
        if span.retained != "conversation" or span.messages is None:
            continue
        if len(span.messages) != span.message_count:
            yield _finding(
                "count-mismatch",
                f"Span {span.index} keeps {_plural(len(span.messages), 'message')} but its "
                f"messageCount says {span.message_count}.",
                span=span.index,
                path=a.span_path(span.index, "messageCount"),
            )


def _check_cycles(a: _Audit, cycles: list[FrameRef]) -> Iterator[Finding]:
    for ref in cycles:
        container, index = ref.container, ref.index
        locator = a.locator(container, index)
        yield _finding(
            "fold-cycle",
            f"The frame at {locator} joins span {ref.span}, whose messages lead back to this "
            "very frame: a fold cycle no runtime can produce; expand keeps the frame "
            "unexpanded.",
            locator=locator,
            span=ref.span,
            path=a.message_path(container, index),
        )


def _same_facts(label: FrameLabel, span: Span) -> bool:
    return (label.count, label.iteration, label.model) == (
        span.message_count,
        span.iteration,
        span.model,
    )


def _check_unresolved(a: _Audit) -> Iterator[Finding]:
    for ref in a.graph.frames.values():
        if ref.span is not None:
            continue
        locator = a.locator(ref.container, ref.index)
        label = a.label(ref)
        if not a.cp.has_folded:
            why = (
                "this checkpoint has no `folded` at all, so it was stored before 8.2 "
                "(or its record of folds was removed)"
            )
        elif label is None:
            why = (
                "its label is not in the form the runtime writes, "
                "so it was most likely written by hand"
            )
        elif label.retention == "legacy":
            why = (
                "its label has the 7.16-8.1 wording, whose originals live in that run's commit log"
            )
        else:
            twin = next((s for s in a.spans if _same_facts(label, s)), None)
            if twin is not None:
                why = (
                    f"its label repeats span {twin.index}'s ({label.count} messages, iteration "
                    f"{label.iteration}, model {_quote(label.model)}) but its text does not hash "
                    "to that span's fingerprint, so the summary was altered or written by hand"
                )
            else:
                why = (
                    "it may be forged, edited after the fold, or its span was removed from `folded`"
                )
        yield _finding(
            "unresolved-frame",
            f"The message at {locator} looks like a summary frame, but no span has its "
            f"fingerprint {ref.fingerprint} ({a.graph.scheme}); {why}.",
            locator=locator,
            path=a.message_path(ref.container, ref.index),
        )


def _frame_role(
    a: _Audit, container: Container, i: int, message: Message, scheme: Callable[[str], str]
) -> Finding:
    locator = a.locator(container, i)
    ids = a.graph.by_fingerprint.get(scheme(message["content"]))
    would = f"; with role user it would join span {ids[0]}" if ids else ""
    return _finding(
        "frame-role",
        f"The message at {locator} opens with the summary label but its role is "
        f'{_quote(str(message["role"]))}, not "user", so the runtime never treats it '
        f"as a summary{would}.",
        locator=locator,
        path=a.message_path(container, i, "role"),
    )


_RETENTION_WORDS: Final = {
    "conversation": "retained with this conversation",
    "discard": "not retained (discard)",
    "legacy": "retained in the run's commit log (the 7.16-8.1 wording)",
}


def _label_problems(label: FrameLabel, span: Span) -> list[str]:
    problems: list[str] = []
    if label.count != span.message_count:
        problems.append(
            f"the label says {label.count} messages, messageCount is {span.message_count}"
        )
    if label.iteration != span.iteration:
        problems.append(f"the label says iteration {label.iteration}, the span {span.iteration}")
    if label.model != span.model:
        problems.append(
            f"the label says model {_quote(label.model)}, the span {_quote(span.model)}"
        )
    if label.retention != span.retained:
        problems.append(
            f"the label says the messages were {_RETENTION_WORDS[label.retention]}, "
            f"the span says retained: {span.retained}"
        )
    return problems


def _check_frame_mismatch(a: _Audit) -> Iterator[Finding]:
    for ref in a.graph.frames.values():
        if ref.span is None:
            continue
        span = a.spans[ref.span]
        label = a.label(ref)
        problems = ["unparsed"] if label is None else _label_problems(label, span)
        if not problems:
            continue
        locator = a.locator(ref.container, ref.index)
        if label is None:
            message = (
                f"The frame at {locator} joins span {span.index}, but its label is not in the "
                "runtime's form, so its count, iteration, model and retention cannot be checked "
                "against the span."
            )
        else:
            message = (
                f"The frame at {locator} disagrees with span {span.index}, which it joins: "
                + "; ".join(problems)
                + "."
            )
        yield _finding(
            "frame-mismatch",
            message,
            locator=locator,
            span=ref.span,
            path=a.message_path(ref.container, ref.index, "content"),
        )


def _check_legacy(a: _Audit) -> Iterator[Finding]:
    if not a.cp.has_folded:
        return
    for ref in a.graph.frames.values():
        label = a.label(ref)
        if label is None or label.retention != "legacy":
            continue
        locator = a.locator(ref.container, ref.index)
        yield _finding(
            "legacy-frame",
            f"The frame at {locator} carries the 7.16-8.1 retention sentence (originals in "
            "that run's commit log), yet this checkpoint records folded spans (8.2+): the "
            "runtime was upgraded mid-conversation, or the label was copied from an older "
            "checkpoint.",
            locator=locator,
            path=a.message_path(ref.container, ref.index, "content"),
        )


def _check_ambiguous(a: _Audit, nested: dict[int, int]) -> Iterator[Finding]:
    for span in a.spans:
        first = a.shadowed(span)
        if first is None:
            continue
        yield _finding(
            "ambiguous-fingerprint",
            f"Span {span.index} has the same fingerprint {span.fingerprint} as span {first}; "
            f"the join takes the first, so no frame can reach span {span.index}: "
            f"{_floats(span, nested.get(span.index, 0))}.",
            span=span.index,
            path=a.span_path(span.index, "summaryFingerprint"),
            related=tuple(f"span {i}" for i in a.graph.by_fingerprint[span.fingerprint]),
        )


def _check_replayed(a: _Audit, cycles: set[tuple[Container, int]]) -> Iterator[Finding]:
    places: dict[int, list[tuple[Container, int]]] = {}
    for ref in a.graph.frames.values():
        if ref.span is None or (ref.container, ref.index) in cycles:
            continue
        target = a.spans[ref.span]
        holder = ref.container
        if holder is not None and a.spans[holder].fingerprint == target.fingerprint:
            continue  # a span sharing the fingerprint: ambiguous-fingerprint says it
        places.setdefault(ref.span, []).append((ref.container, ref.index))
    for index in sorted(places):
        found = places[index]
        if len(found) < 2:
            continue
        locators = tuple(a.locator(c, i) for c, i in found)
        yield _finding(
            "replayed-frame",
            f"The frame of span {index} appears at {len(found)} places ({', '.join(locators)}): "
            "an exact copy of a summary joins the real span and nothing tells the copy from "
            "the original, so expand shows the span's messages at each place.",
            locator=locators[0],
            span=index,
            path=a.message_path(*found[0]),
            related=locators,
        )


def _check_floating(a: _Audit, nested: dict[int, int]) -> Iterator[Finding]:
    for index in a.graph.floating_roots:
        span, place = a.spans[index], a.graph.places[index]
        if a.shadowed(span) is not None:
            continue  # ambiguous-fingerprint
        floats = _floats(span, nested.get(index, 0))
        if place.placement == "detached":
            swallower = next(
                (
                    s.index
                    for s in a.spans[index + 1 :]
                    if s.retained == "discard"
                    and any(stage.startswith("compact#") for stage in s.removed_stage_ids)
                ),
                None,
            )
            by = "a later fold" if swallower is None else f"span {swallower}, a later fold"
            yield _finding(
                "detached-span",
                f"Span {index}'s frame is not in this checkpoint: {by} that kept no messages "
                "(retained: discard) swallowed an earlier summary, most likely this one; "
                f"{floats}.",
                span=index,
                path=a.span_path(index),
            )
        elif "cycle" in place.reason:
            yield _finding(
                "orphan-span",
                f"Span {index} can be reached only through a fold cycle (its frame sits in "
                f"spans it contains), so nothing in history leads to it: {floats}.",
                span=index,
                path=a.span_path(index),
            )
        else:
            yield _finding(
                "orphan-span",
                f"Span {index}'s frame (fingerprint {span.fingerprint}) is nowhere in this "
                "checkpoint (edited out of the live window, or the checkpoint was assembled "
                f"from parts): {floats}.",
                span=index,
                path=a.span_path(index),
            )


def _check_fingerprint_form(a: _Audit) -> Iterator[Finding]:
    for span in a.spans:
        if any(could_be(scheme, span.fingerprint) for scheme in SCHEMES):
            continue
        yield _finding(
            "fingerprint-form",
            f"Span {span.index}'s summaryFingerprint {_quote(span.fingerprint)} has a form no "
            "scheme writes (lowercase hex: fnv1a32 1-8 digits without a leading zero, xxh32 8, "
            "xxh64 and xxh3-64 16, xxh3-128 32), so no frame can join it.",
            span=span.index,
            path=a.span_path(span.index, "summaryFingerprint"),
        )


def _when(ms: int | float) -> str:
    return f"{iso_utc(ms)} ({ms})"


def _check_time_order(a: _Audit) -> Iterator[Finding]:
    previous: Span | None = None
    for span in a.spans:
        if previous is not None and span.folded_at_ms < previous.folded_at_ms:
            yield _finding(
                "time-order",
                f"Span {span.index} was folded at {_when(span.folded_at_ms)}, before span "
                f"{previous.index} ({_when(previous.folded_at_ms)}), yet comes after it in "
                "`folded`.",
                span=span.index,
                path=a.span_path(span.index, "foldedAtMs"),
                related=(f"span {previous.index}",),
            )
        if span.folded_at_ms > a.cp.checkpointed_at:
            yield _finding(
                "time-order",
                f"Span {span.index} was folded at {_when(span.folded_at_ms)}, after the "
                f"checkpoint was taken ({_when(a.cp.checkpointed_at)}).",
                span=span.index,
                path=a.span_path(span.index, "foldedAtMs"),
            )
        previous = span


def _check_fold_order(a: _Audit, cycles: set[tuple[Container, int]]) -> Iterator[Finding]:
    for ref in a.graph.frames.values():
        holder = ref.container
        if ref.span is None or holder is None or ref.span <= holder:
            continue
        if (holder, ref.index) in cycles:
            continue  # fold-cycle says it
        locator = a.locator(holder, ref.index)
        yield _finding(
            "fold-order",
            f"Span {holder} holds the frame of span {ref.span} (at {locator}), but span "
            f"{ref.span} comes later in `folded`: a fold can only swallow summaries written "
            "before it.",
            locator=locator,
            span=holder,
            path=a.message_path(holder, ref.index),
            related=(f"span {ref.span}",),
        )
    latest: dict[str, Span] = {}
    for span in a.spans:
        before = latest.get(span.run_id)
        if before is not None and span.iteration < before.iteration:
            yield _finding(
                "fold-order",
                f"Span {span.index} of run {_quote(span.run_id)} is at iteration "
                f"{span.iteration}, earlier than span {before.index} of the same run "
                f"(iteration {before.iteration}) that precedes it in `folded`.",
                span=span.index,
                path=a.span_path(span.index, "iteration"),
                related=(f"span {before.index}",),
            )
        if before is None or span.iteration >= before.iteration:
            latest[span.run_id] = span


def audit(graph: FoldGraph, *, messages: bool = True) -> list[Finding]:
    """Every finding for one resolved checkpoint, most severe first (then in code order).

    ``messages=False`` audits the fold record only: it skips the checks that read
    every message (``frame-role``, and ``schema`` on a message's own fields), so
    a large checkpoint's retained messages are never decoded (what ``show`` does).
    """
    a = _Audit(graph)
    nested = a.nested_floating()
    cycles = a.cycle_frames()
    in_cycles = {(ref.container, ref.index) for ref in cycles}
    found: list[Finding] = [
        *(_check_messages(a) if messages else ()),
        *_check_schema(a),
        *_check_retention_shape(a),
        *_check_counts(a),
        *_check_cycles(a, cycles),
        *_check_unresolved(a),
        *_check_frame_mismatch(a),
        *_check_ambiguous(a, nested),
        *_check_replayed(a, in_cycles),
        *_check_floating(a, nested),
        *_check_fingerprint_form(a),
        *_check_time_order(a),
        *_check_fold_order(a, in_cycles),
        *_check_legacy(a),
    ]
    order = {name: n for n, name in enumerate(CODES)}
    found.sort(key=lambda f: (_RANK[f.severity], order[f.code]))
    return found


def summary(findings: Sequence[Finding], *, messages: bool = True) -> dict[str, Any]:
    """Counts by severity and by code (for ``show``), and whether messages were audited."""
    by_code: dict[str, int] = {}
    for f in findings:
        by_code[f.code] = by_code.get(f.code, 0) + 1
    return {
        "total": len(findings),
        **{severity: sum(1 for f in findings if f.severity == severity) for severity in SEVERITIES},
        "codes": by_code,
        "scope": "all" if messages else "fold record",
    }


# --- many sources ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SourceAudit:
    """The audit of one source: its findings, or why it could not be read."""

    source: str
    findings: tuple[Finding, ...] = ()
    scheme: str | None = None
    error_where: str | None = None  # set when unreadable: the place (JSON path, byte offset)
    error_what: str | None = None  # and what was wrong
    error_source: str | None = None  # the name the error gives (``<stdin>`` for ``-``)

    @property
    def readable(self) -> bool:
        return self.error_what is None

    @property
    def error(self) -> str | None:
        """The one-line error, as foldctl prints it for any command."""
        if self.error_what is None:
            return None
        name = self.error_source or self.source
        place = f"{name}: {self.error_where}" if self.error_where else name
        return f"{place}: {self.error_what}"


def unreadable(source: str, error: FoldctlError) -> SourceAudit:
    if isinstance(error, InputError):
        return SourceAudit(
            source, error_where=error.where, error_what=error.what, error_source=error.source
        )
    return SourceAudit(source, error_what=str(error))


def audit_source(source: str, scheme: str | None = None) -> SourceAudit:
    """Load, join and audit one source; a source that cannot be read is reported, not raised."""
    from foldctl.api import open_graph

    try:
        graph, _ = open_graph(source, scheme)
        # Retained messages may be decoded only when read, so the audit can fail too.
        findings = tuple(audit(graph))
    except FoldctlError as e:
        return unreadable(source, e)
    return SourceAudit(source, findings, graph.scheme)


def default_jobs() -> int:
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        return max(1, len(affinity(0)))
    return os.cpu_count() or 1


def audit_sources(
    sources: Sequence[str | FoldctlError],
    scheme: str | None = None,
    *,
    jobs: int | None = None,
    on_done: Callable[[SourceAudit], None] | None = None,
) -> list[SourceAudit]:
    """Audit every source, in parallel worker processes when there are several.

    One source (or ``jobs=1``) is audited in this process, and so is ``-``
    (standard input belongs to this process).  An error in place of a source
    (an argument that could not be expanded, see :mod:`foldctl.sources`) is
    reported as unreadable.  Results come back in the order of ``sources``;
    ``on_done`` is called as each one finishes.
    """
    if scheme is not None and scheme not in SCHEMES:
        raise UsageError(f"unknown scheme {scheme!r}; choose from {', '.join(SCHEMES)}")
    results: list[SourceAudit | None] = [None] * len(sources)

    def finish(i: int, result: SourceAudit) -> None:
        results[i] = result
        if on_done is not None:
            on_done(result)

    paths = {i: s for i, s in enumerate(sources) if isinstance(s, str)}
    for i, source in enumerate(sources):
        if not isinstance(source, str):
            finish(i, unreadable(getattr(source, "source", str(source)), source))
    workers = min(jobs or default_jobs(), len(paths))
    remote = [i for i, s in paths.items() if s != "-"] if workers > 1 else []
    for i in sorted(set(paths).difference(remote)):
        finish(i, audit_source(paths[i], scheme))
    if remote:
        with ProcessPoolExecutor(max_workers=min(workers, len(remote))) as pool:
            futures = {pool.submit(audit_source, paths[i], scheme): i for i in remote}
            for future in as_completed(futures):
                i = futures[future]
                try:
                    result = future.result()
                except BrokenProcessPool:
                    result = SourceAudit(
                        paths[i],
                        error_what="the worker process checking it ended abruptly "
                        "(out of memory?); check it alone with --jobs 1",
                    )
                finish(i, result)
    return [r for r in results if r is not None]


# --- the report -----------------------------------------------------------------------


def parse_fail_on(value: str) -> Severity:
    if value not in SEVERITIES:
        raise UsageError(f"--fail-on takes error, warning or info, not {value!r}")
    return value


def parse_ignore(codes: Sequence[str]) -> frozenset[str]:
    unknown = [c for c in codes if c not in CODES]
    if unknown:
        raise UsageError(
            f"--ignore: unknown finding code {unknown[0]!r}; codes are {', '.join(CODES)}"
        )
    return frozenset(codes)


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """What ``verify`` prints, and its exit status."""

    audits: tuple[SourceAudit, ...]  # in the order checked, ignored codes already removed
    fail_on: Severity
    ignored: frozenset[str] = frozenset()
    ignored_count: int = 0
    skipped: tuple[str, ...] = ()  # files a directory scan passed over (exclude patterns)
    excludes: tuple[str, ...] = ()

    @property
    def exit_status(self) -> ExitStatus:
        if any(not a.readable for a in self.audits):
            return ExitStatus.ERROR
        limit = _RANK[self.fail_on]
        if any(_RANK[f.severity] <= limit for a in self.audits for f in a.findings):
            return ExitStatus.FOUND
        return ExitStatus.OK

    def totals(self) -> dict[str, Any]:
        readable = [a for a in self.audits if a.readable]
        findings = [f for a in readable for f in a.findings]
        return {
            "sources": len(self.audits),
            "clean": sum(1 for a in readable if not a.findings),
            "withFindings": sum(1 for a in readable if a.findings),
            "unreadable": len(self.audits) - len(readable),
            "skipped": len(self.skipped),
            "findings": len(findings),
            **{s: sum(1 for f in findings if f.severity == s) for s in SEVERITIES},
            "ignored": self.ignored_count,
        }

    def document(self) -> dict[str, Any]:
        """The ``--format json`` document."""
        return {
            "sources": [
                {
                    "source": a.source,
                    "status": "unreadable"
                    if not a.readable
                    else ("findings" if a.findings else "clean"),
                    "scheme": a.scheme,
                    "error": a.error,
                    "findings": [f.as_dict() for f in a.findings],
                }
                for a in self.audits
            ],
            "skipped": list(self.skipped),
            "totals": self.totals(),
            "failOn": self.fail_on,
            "ignored": sorted(self.ignored),
            "exitStatus": int(self.exit_status),
        }

    def rows(self) -> Iterator[dict[str, Any]]:
        """The ``--format jsonl`` rows: one per finding, and one per unreadable source."""
        for a in self.audits:
            if not a.readable:
                yield {
                    "source": a.source,
                    "code": UNREADABLE,
                    "severity": "error",
                    "locator": None,
                    "span": None,
                    "path": a.error_where or None,
                    "message": a.error_what,
                    "related": [],
                }
                continue
            for f in a.findings:
                yield {"source": a.source, **f.as_dict()}


def build_report(
    audits: Sequence[SourceAudit],
    fail_on: Severity = "warning",
    ignore: frozenset[str] = frozenset(),
    *,
    skipped: Sequence[str] = (),
    excludes: Sequence[str] = (),
) -> VerifyReport:
    """Drop ignored codes and rank each source's findings, most severe first."""
    kept: list[SourceAudit] = []
    ignored = 0
    for a in audits:
        findings = [f for f in a.findings if f.code not in ignore]
        ignored += len(a.findings) - len(findings)
        findings.sort(key=lambda f: _RANK[f.severity])
        kept.append(
            SourceAudit(
                a.source, tuple(findings), a.scheme, a.error_where, a.error_what, a.error_source
            )
        )
    return VerifyReport(tuple(kept), fail_on, ignore, ignored, tuple(skipped), tuple(excludes))
