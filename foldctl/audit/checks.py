"""Integrity findings: every way a checkpoint can disagree with itself, named, located, ranked.

:func:`audit` is a pure function of a resolved :class:`~foldctl.graph.resolve.FoldGraph`
(the loaded checkpoint and its join).  Each :class:`~foldctl.audit.codes.Finding`
has a stable ``code``, the code's severity, one sentence a reviewer understands
without the docs, and where it is: a message ``locator``, a ``span`` index, and
the ``path`` in the JSON file.  docs/findings.md describes every code with an
example and what to do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final

from foldctl.audit.codes import CODES, ROLES, SEVERITIES, Finding, finding, rank
from foldctl.fingerprint import SCHEMES, could_be
from foldctl.formats import registry as formats
from foldctl.formats.agentfootprint import FrameLabel, parse_label
from foldctl.graph.locators import Container, message_locator
from foldctl.graph.resolve import FoldGraph, FrameRef
from foldctl.jsoncodec import brief, duplicate_keys
from foldctl.lazyre import lazy
from foldctl.load.exact import json_path, type_name
from foldctl.model import Message, Span, looks_like_frame
from foldctl.times import iso_utc


def _quote(value: Any, limit: int = 80) -> str:
    """A value quoted in a finding: a string in quotes, anything else as short JSON."""
    return brief(value, limit)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class _Audit:
    """What every check needs: the graph, JSON paths, labels and floating descendants."""

    def __init__(self, graph: FoldGraph) -> None:
        self.graph = graph
        self.cp = graph.checkpoint
        self.spans = graph.spans
        self.format = formats.of(self.cp)
        self._labels: dict[tuple[Container, int], FrameLabel | None] = {}

    def containers(self) -> Iterator[tuple[Container, Sequence[Message]]]:
        yield None, self.cp.history
        for span in self.spans:
            if span.messages is not None:
                yield span.index, span.messages

    def message_path(self, container: Container, index: int, key: str | None = None) -> str:
        return self.format.place(self.cp, container, index, key)

    def span_path(self, span: int, key: str | None = None) -> str:
        return self.format.span_place(self.cp, span, key)

    def top_path(self, key: str) -> str:
        return json_path(self.cp.shape, key)

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
        ids = self.graph.by_fingerprint.get(span.fingerprint or "")
        return None if not ids or ids[0] == span.index else ids[0]

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


_MESSAGE_PATH: Final = lazy(
    r"^(?:data\.(?:conversation\.)?)?(?:history\[(\d+)\]|folded\[(\d+)\]\.messages\[(\d+)\])"
)


def _check_duplicates(a: _Audit) -> Iterator[Finding]:
    """Keys written twice in one object (never by the runtime's ``JSON.stringify``)."""
    data = a.cp.origin.data
    if data is None:
        return  # loaded from a decoded document: the duplicates, if any, are gone
    for path, key, values in duplicate_keys(bytes(data)):
        where = _MESSAGE_PATH.match(path)
        locator = None
        if where is not None:
            history, span, index = where.groups()
            locator = (
                message_locator(None, int(history))
                if history is not None
                else message_locator(int(span), int(index))
            )
        shown = ", ".join(_quote(v, 40) for v in values)
        yield finding(
            "duplicate-key",
            f"{path} holds the key {_quote(key)} {len(values)} times ({shown}); the last is "
            "read, as the runtime's JSON.parse reads it, and the others are hidden.",
            locator=locator,
            path=f"{path}.{key}" if path != "(top level)" else key,
        )


def _check_schema(a: _Audit) -> Iterator[Finding]:
    for span in a.spans:
        for key, value in (
            ("iteration", span.iteration),
            ("messageCount", span.message_count),
            ("foldedAtMs", span.folded_at_ms),
        ):
            if value is not None and value < 0:
                yield finding(
                    "schema",
                    f"Span {span.index}'s {key} is {value}; expected a number >= 0.",
                    span=span.index,
                    path=a.span_path(span.index, key),
                )
    cp = a.cp
    lci = cp.last_completed_iteration
    if lci is not None and (lci < 0 or (isinstance(lci, float) and not lci.is_integer())):
        yield finding(
            "schema",
            f"lastCompletedIteration is {lci}; expected a whole number >= 0.",
            path=a.top_path("lastCompletedIteration"),
        )
    if cp.checkpointed_at is not None and cp.checkpointed_at < 0:
        yield finding(
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
        yield finding(
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
            yield finding(
                "schema",
                f"{key} is {type_name(value)}; expected an object.",
                path=a.top_path(key),
            )
            continue
        for name, (kind, required) in fields.items():
            if name not in value:
                if required:
                    yield finding(
                        "schema",
                        f"{key}.{name} is missing; it is required when {key} is present.",
                        path=a.top_path(f"{key}.{name}"),
                    )
                continue
            item = value[name]
            if isinstance(item, bool) or not isinstance(item, kind):
                want = "a string" if kind is str else "a number"
                yield finding(
                    "schema",
                    f"{key}.{name} is {type_name(item)}; expected {want}.",
                    path=a.top_path(f"{key}.{name}"),
                )


def _check_retention_shape(a: _Audit) -> Iterator[Finding]:
    for span in a.spans:
        if span.retained == "discard" and span.messages is not None:
            yield finding(
                "retention-shape",
                f"Span {span.index} says retained: discard but carries "
                f"{_plural(len(span.messages), 'message')}; the runtime writes messages "
                "only for retained: conversation.",
                span=span.index,
                path=a.span_path(span.index, "messages"),
            )
        elif span.retained == "conversation" and span.messages is None:
            yield finding(
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
            yield finding(
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
        yield finding(
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
        yield finding(
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
    return finding(
        "frame-role",
        f"The message at {locator} opens with the summary label but its role is "
        f'{_quote(message["role"])}, not "user", so the runtime never treats it '
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
        yield finding(
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
        yield finding(
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
        yield finding(
            "ambiguous-fingerprint",
            f"Span {span.index} has the same fingerprint {span.fingerprint} as span {first}; "
            f"the join takes the first, so no frame can reach span {span.index}: "
            f"{_floats(span, nested.get(span.index, 0))}.",
            span=span.index,
            path=a.span_path(span.index, "summaryFingerprint"),
            related=tuple(f"span {i}" for i in a.graph.by_fingerprint[span.fingerprint or ""]),
        )


def _check_replayed(a: _Audit, cycles: set[tuple[Container, int]]) -> Iterator[Finding]:
    places: dict[int, list[tuple[Container, int]]] = {}
    for ref in a.graph.frames.values():
        if ref.span is None or (ref.container, ref.index) in cycles:
            continue
        target = a.spans[ref.span]
        holder = ref.container
        if (
            holder is not None
            and target.fingerprint is not None
            and a.spans[holder].fingerprint == target.fingerprint
        ):
            continue  # a span sharing the fingerprint: ambiguous-fingerprint says it
        places.setdefault(ref.span, []).append((ref.container, ref.index))
    for index in sorted(places):
        found = places[index]
        if len(found) < 2:
            continue
        locators = tuple(a.locator(c, i) for c, i in found)
        yield finding(
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
                    and any(stage.startswith("compact#") for stage in s.removed_stage_ids or ())
                ),
                None,
            )
            by = "a later fold" if swallower is None else f"span {swallower}, a later fold"
            yield finding(
                "detached-span",
                f"Span {index}'s frame is not in this checkpoint: {by} that kept no messages "
                "(retained: discard) swallowed an earlier summary, most likely this one; "
                f"{floats}.",
                span=index,
                path=a.span_path(index),
            )
        elif "cycle" in place.reason:
            yield finding(
                "orphan-span",
                f"Span {index} can be reached only through a fold cycle (its frame sits in "
                f"spans it contains), so nothing in history leads to it: {floats}.",
                span=index,
                path=a.span_path(index),
            )
        else:
            yield finding(
                "orphan-span",
                f"Span {index}'s frame (fingerprint {span.fingerprint}) is nowhere in this "
                "checkpoint (edited out of the live window, or the checkpoint was assembled "
                f"from parts): {floats}.",
                span=index,
                path=a.span_path(index),
            )


def _check_fingerprint_form(a: _Audit) -> Iterator[Finding]:
    for span in a.spans:
        if any(could_be(scheme, span.fingerprint or "") for scheme in SCHEMES):
            continue
        yield finding(
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
    previous: tuple[Span, int | float] | None = None
    taken = a.cp.checkpointed_at
    # where a session file records a fold's time, and the order of its folds
    key, order = ("foldedAtMs", "`folded`") if a.cp.session is None else ("timestamp", "the file")
    for span in a.spans:
        at = span.folded_at_ms
        if at is None or span.kind != "fold":
            continue
        if previous is not None and at < previous[1]:
            yield finding(
                "time-order",
                f"Span {span.index} was folded at {_when(at)}, before span "
                f"{previous[0].index} ({_when(previous[1])}), yet comes after it in {order}.",
                span=span.index,
                path=a.span_path(span.index, key),
                related=(f"span {previous[0].index}",),
            )
        if taken is not None and at > taken:
            last = "checkpoint was taken" if a.cp.session is None else "latest record of the file"
            yield finding(
                "time-order",
                f"Span {span.index} was folded at {_when(at)}, after the {last} ({_when(taken)}).",
                span=span.index,
                path=a.span_path(span.index, key),
            )
        previous = (span, at)


def _check_fold_order(a: _Audit, cycles: set[tuple[Container, int]]) -> Iterator[Finding]:
    for ref in a.graph.frames.values():
        holder = ref.container
        if ref.span is None or holder is None or ref.span <= holder:
            continue
        if (holder, ref.index) in cycles:
            continue  # fold-cycle says it
        locator = a.locator(holder, ref.index)
        yield finding(
            "fold-order",
            f"Span {holder} holds the frame of span {ref.span} (at {locator}), but span "
            f"{ref.span} comes later in `folded`: a fold can only swallow summaries written "
            "before it.",
            locator=locator,
            span=holder,
            path=a.message_path(holder, ref.index),
            related=(f"span {ref.span}",),
        )
    latest: dict[str | None, tuple[Span, int]] = {}
    for span in a.spans:
        iteration = span.iteration
        if iteration is None:
            continue  # not recorded by this format
        before = latest.get(span.run_id)
        if before is not None and iteration < before[1]:
            yield finding(
                "fold-order",
                f"Span {span.index} of run {_quote(span.run_id)} is at iteration "
                f"{iteration}, earlier than span {before[0].index} of the same run "
                f"(iteration {before[1]}) that precedes it in `folded`.",
                span=span.index,
                path=a.span_path(span.index, "iteration"),
                related=(f"span {before[0].index}",),
            )
        if before is None or iteration >= before[1]:
            latest[span.run_id] = (span, iteration)


# ------------------------------------------------------------------ formats that link


def _check_notes(a: _Audit) -> Iterator[Finding]:
    """What the loader noticed (a line that is not JSON, a broken chain, a re-append...)."""
    for note in a.cp.notes:
        locator = None if note.place is None else a.locator(*note.place)
        yield finding(
            note.code,
            note.message,
            locator=locator,
            span=note.span,
            path=None if note.line is None else f"line {note.line}",
            related=tuple(f"line {n}" for n in note.related),
        )


def _check_records(a: _Audit) -> Iterator[Finding]:
    """Every record decoded once, with the rules of every reader: one that cannot be read
    makes the source unreadable, as a message the fast path cannot read does."""
    for _, messages in a.containers():
        for _ in messages:
            pass
    return iter(())


def _lines(span: Span) -> str:
    lines: Sequence[int] | None = getattr(span.messages, "lines", None)
    if not lines:
        return f"span {span.index}"
    first, last = min(lines), max(lines)
    where = f"line {first}" if first == last else f"lines {first}-{last}"
    return f"{where} (span {span.index})"


def _check_floating_linked(a: _Audit, nested: dict[int, int]) -> Iterator[Finding]:
    for index in a.graph.floating_roots:
        span = a.spans[index]
        floats = _floats(span, nested.get(index, 0))
        count = _plural(len(span.messages or ()), "record")
        if span.kind == "abandoned":
            yield finding(
                "abandoned-branch",
                f"{count.capitalize()} at {_lines(span)} are in no fold's originals and not in "
                "the live window: a rewound branch, on disk but not in the transcript "
                "(expand --include-detached shows them).",
                span=index,
                path=a.span_path(index),
            )
        elif span.kind == "sidechain":
            yield finding(
                "sidechain-records",
                f"{count.capitalize()} at {_lines(span)} are a subagent's (isSidechain): a "
                "conversation of its own, not in this session's transcript (expand "
                "--include-detached shows them).",
                span=index,
                path=a.span_path(index),
            )
        else:
            line = f"line {span.line}" if span.line is not None else f"span {index}"
            yield finding(
                "orphan-span",
                f"The compaction at {line} (span {index}) has no summary in this file that "
                f"stands for it, so nothing in the live window leads to it: {floats}.",
                span=index,
                path=a.span_path(index),
            )


def _linked(a: _Audit, messages: bool) -> list[Finding]:
    nested = a.nested_floating()
    cycles = a.cycle_frames()
    in_cycles = {(ref.container, ref.index) for ref in cycles}
    return [
        *(_check_records(a) if messages else ()),
        *_check_notes(a),
        *_check_cycles(a, cycles),
        *_check_replayed(a, in_cycles),
        *_check_floating_linked(a, nested),
        *_check_time_order(a),
        *_check_fold_order(a, in_cycles),
    ]


def audit(graph: FoldGraph, *, messages: bool = True) -> list[Finding]:
    """Every finding for one resolved checkpoint, most severe first (then in code order).

    ``messages=False`` audits the fold record only: it skips the checks that read
    every message (``frame-role``, and ``schema`` on a message's own fields), so
    a large checkpoint's retained messages are never decoded (what ``show`` does).
    A session whose format links its summaries (Claude Code, Codex) gets the checks of
    its structure and what its loader noticed (docs/findings.md).
    """
    a = _Audit(graph)
    order = {name: n for n, name in enumerate(CODES)}
    if graph.join != "fingerprint":
        linked = _linked(a, messages)
        linked.sort(key=lambda f: (rank(f.severity), order[f.code]))
        return linked
    nested = a.nested_floating()
    cycles = a.cycle_frames()
    in_cycles = {(ref.container, ref.index) for ref in cycles}
    found: list[Finding] = [
        *(_check_messages(a) if messages else ()),
        *(_check_duplicates(a) if messages else ()),
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
    found.sort(key=lambda f: (rank(f.severity), order[f.code]))
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
