"""The fuzz targets: the ONE module of the fuzzer that imports foldctl.

Every call into foldctl is here, each target a thin function
``(data, name) -> TargetResult`` that does what one command does with the
library and hands back what it would print.  When foldctl's modules move,
re-point the imports below (and nothing else in ``tools/fuzz``).

``data`` is the mutant's bytes and ``name`` the SOURCE that names it (a file
in the current directory holding ``data``, or ``STORE.db#SESSION_ID``).  A
target raises whatever foldctl raises: the harness classifies it.
"""

from __future__ import annotations

import itertools
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import foldctl
from foldctl import __version__, jsoncodec
from foldctl import html_report as hr
from foldctl.api import open_graph
from foldctl.commands.sessions import ALL_COLUMNS as SESSION_COLUMNS
from foldctl.commands.sessions import TEXT_COLUMNS as SESSION_TEXT_COLUMNS
from foldctl.commands.spans import SPAN_COLUMNS, STAGE_COLUMNS
from foldctl.compare import DIFF_COLUMNS, compare, csv_rows, diff_lines
from foldctl.digest import digest
from foldctl.errors import FoldctlError
from foldctl.expand import Event, Row, walk, walk_floating, walk_one
from foldctl.fastload import try_load
from foldctl.findings import audit, audit_source, build_report
from foldctl.fingerprint import SCHEMES
from foldctl.load import load_document
from foldctl.model import Checkpoint, frame_indices
from foldctl.render import delimited, markdown, text
from foldctl.render.findings_text import report_lines
from foldctl.resolve import FoldGraph, resolve
from foldctl.search import (
    GREP_COLUMNS,
    GrepRun,
    compile_query,
    grep_sources,
    hit_lines,
    hit_object,
    hit_rows,
    locate,
    locate_object,
)
from foldctl.source import decompress
from foldctl.store import Store, list_session_sources, session_rows, sessions_error, split_source
from foldctl.views import expanded_objects, overview, span_rows, stage_rows
from tools.fuzz.outcome import OutputBudgetExceeded, TargetResult, input_size, output_budget

#: The directory of the package under test: frames inside it are "foldctl frames".
PACKAGE_DIR: Final = Path(foldctl.__file__).resolve().parent
#: The exception every documented foldctl failure derives from.
EXPECTED_ERROR: Final = FoldctlError
#: The report's generation time, fixed so that a report is a pure function of its input.
_STAMP: Final = "2026-01-01T00:00:00Z"

TargetFn = Callable[[bytes, str], TargetResult]
Line = list[tuple[str, "str | None"]]


@dataclass(frozen=True)
class Target:
    """One target and when it applies."""

    name: str
    run: TargetFn | None  # None for a paired target (see ``paired``)
    #: which mutants it takes: "file" (.json, .json.gz) and/or "store" (.db)
    kinds: frozenset[str]
    #: skipped when ``resolve`` did not accept the mutant (it would only repeat that verdict)
    needs_graph: bool = True
    #: runs the real CLI in a subprocess (only on a sample of the mutants)
    cli: bool = False
    #: a target that also needs the unmutated original: ``paired(original)`` gives its function
    paired: Callable[[str], TargetFn] | None = None

    def bind(self, original: str) -> TargetFn:
        if self.paired is not None:
            return self.paired(original)
        assert self.run is not None
        return self.run


# --------------------------------------------------------------------------- plumbing

_graphs: dict[str, tuple[FoldGraph, str] | FoldctlError] = {}


def reset() -> None:
    """Forget every graph loaded for the previous case (the harness calls it per case)."""
    _graphs.clear()


def _graph(name: str) -> tuple[FoldGraph, str]:
    """``open_graph(name)``, once per case; a refusal is remembered and raised again."""
    found = _graphs.get(name)
    if found is None:
        try:
            found = open_graph(name)
        except FoldctlError as e:
            found = e
        _graphs[name] = found
    if isinstance(found, FoldctlError):
        raise found
    return found


class _Collector:
    """Joins rendered output, stopping as soon as one output exceeds the budget."""

    def __init__(self, data: bytes) -> None:
        self.budget = output_budget(input_size(data))

    def lines(self, what: str, lines: Iterable[Line]) -> str:
        return self.strings(what, ("".join(segment for segment, _ in line) for line in lines))

    def strings(self, what: str, lines: Iterable[str]) -> str:
        parts: list[str] = []
        size = 0
        for line in lines:
            size += len(line) + 1
            if size > self.budget:
                raise OutputBudgetExceeded(what, self.budget)
            parts.append(line)
        return "".join(p + "\n" for p in parts)

    def chunks(self, what: str, chunks: Iterable[bytes]) -> bytes:
        parts: list[bytes] = []
        size = 0
        for chunk in chunks:
            size += len(chunk)
            if size > self.budget:
                raise OutputBudgetExceeded(what, self.budget)
            parts.append(chunk)
        return b"".join(parts)

    def jsonl(self, what: str, objects: Iterable[Any]) -> bytes:
        return self.chunks(what, (jsoncodec.dumps(o) + b"\n" for o in objects))

    def json(self, what: str, document: Any) -> bytes:
        return self.chunks(what, [jsoncodec.dumps(document) + b"\n"])


def _everything(graph: FoldGraph, *, keep_frames: bool) -> Iterator[Event]:
    """``expand --include-detached``: the transcript, then the floating spans."""
    return itertools.chain(
        walk(graph, keep_frames=keep_frames), walk_floating(graph, keep_frames=keep_frames)
    )


def _store_envelope(name: str) -> bytes | None:
    """The envelope bytes of ``STORE.db#SESSION``, or None when ``name`` is a plain file."""
    target = split_source(name)
    if target is None or target.session_id is None:
        return None
    with Store(target.path) as store:
        return store.envelope(target.session_id)


# --------------------------------------------------------------------------- the targets


def _verdict(load: Callable[[], Checkpoint | None]) -> Checkpoint | FoldctlError | None:
    try:
        return load()
    except FoldctlError as e:
        return e


def _facts(cp: Checkpoint) -> list[tuple[str, Any]]:
    """Everything a checkpoint says, decoded, as (what, value) pairs to compare."""
    facts: list[tuple[str, Any]] = [
        ("shape", cp.shape),
        ("runId", cp.run_id),
        ("history", cp.history),
        ("lastCompletedIteration", cp.last_completed_iteration),
        ("originalInput", cp.original_input),
        ("checkpointedAt", cp.checkpointed_at),
        ("has folded", cp.has_folded),
        ("span count", len(cp.spans)),
    ]
    for s in cp.spans:
        where = f"folded[{s.index}]"
        facts += [
            (f"{where} fields", (s.fingerprint, s.run_id, s.iteration, s.folded_at_ms, s.model)),
            (f"{where} counts", (s.message_count, s.removed_stage_ids, s.retained)),
        ]
        if s.messages is not None:
            facts.append((f"{where}.messages", list(s.messages)))
            facts.append((f"{where} frames", tuple(frame_indices(s.messages))))
        else:
            facts.append((f"{where}.messages", None))
    return facts


def load(data: bytes, name: str) -> TargetResult:
    """Both loaders over the same bytes: the fast path and the exact path must agree.

    The fast path may decline (None: the exact path decides).  When it accepts,
    the exact path must accept too, and both must read the same checkpoint,
    every retained message decoded (the fast path decodes them lazily).
    """
    envelope = _store_envelope(name)
    body = envelope if envelope is not None else decompress(name, data)
    fast = _verdict(lambda: try_load(body, name))
    exact = _verdict(lambda: load_document(jsoncodec.loads(bytes(body), name), name))
    result = TargetResult()
    if fast is None:
        if isinstance(exact, FoldctlError):
            raise exact
        return result
    if isinstance(fast, FoldctlError):
        if isinstance(exact, FoldctlError):
            raise exact
        result.disagreement = f"fast path refuses what the exact path loads: {fast}"
        result.disagreement_kind = f"exact-only: {_kind(fast)}"
        return result
    if isinstance(exact, FoldctlError):
        result.disagreement = f"fast path loads what the exact path refuses: {exact.args[0]}"
        result.disagreement_kind = f"fast-only: {_kind(exact)}"
        return result
    assert exact is not None  # the exact path never declines
    try:
        fast_facts = _facts(fast)
    except FoldctlError as e:
        result.disagreement = f"fast path loads, then a retained message fails to decode: {e}"
        result.disagreement_kind = f"fast-then-fails: {_kind(e)}"
        return result
    for (what, a), (_, b) in zip(fast_facts, _facts(exact), strict=True):
        if a != b:
            result.disagreement = f"fast and exact paths read {what} differently"
            result.disagreement_kind = "differ: " + re.sub(r"\[\d+\]", "[]", what)
            return result
    return result


def _kind(error: FoldctlError) -> str:
    """What an error says, without the numbers and quoted values that vary from file to file."""
    what = getattr(error, "what", str(error))
    return re.sub(r'0x[0-9a-fA-F]+|"[^"]*"|\'[^\']*\'|(?<![A-Za-z-])-?\d[\d.e+]*', "#", what)[:60]


def resolve_all(data: bytes, name: str) -> TargetResult:
    """Load (as every command does), detect the scheme, and join under every scheme."""
    graph, _ = _graph(name)
    for scheme in SCHEMES:
        resolve(graph.checkpoint, scheme)
    return TargetResult()


def show(data: bytes, name: str) -> TargetResult:
    out = _Collector(data)
    graph, note = _graph(name)
    doc = overview(graph, note)
    return TargetResult(
        text_outputs=[
            out.lines("show text", text.overview(doc, unicode=False)),
            out.lines("show text (terminal)", text.overview(doc, unicode=True)),
            out.strings("show markdown", markdown.overview(doc)),
        ],
        machine_outputs=[out.json("show json", doc)],
    )


def expand_text(data: bytes, name: str) -> TargetResult:
    out = _Collector(data)
    graph, _ = _graph(name)
    events = _everything(graph, keep_frames=True)
    return TargetResult([out.lines("expand text", text.transcript(events, unicode=False))])


def expand_markdown(data: bytes, name: str) -> TargetResult:
    out = _Collector(data)
    graph, _ = _graph(name)
    events = _everything(graph, keep_frames=False)
    return TargetResult([out.strings("expand markdown", markdown.transcript(events))])


def expand_json(data: bytes, name: str) -> TargetResult:
    out = _Collector(data)
    graph, _ = _graph(name)
    rows = (e for e in _everything(graph, keep_frames=False) if isinstance(e, Row))
    return TargetResult(machine_outputs=[out.jsonl("expand jsonl", expanded_objects(rows))])


def only(data: bytes, name: str) -> TargetResult:
    """``expand --only`` on a few frames, and ``locate`` of a few messages by digest."""
    out = _Collector(data)
    graph, _ = _graph(name)
    texts: list[str] = []
    for container, index in itertools.islice(graph.frames, 4):
        locator = graph.locator_of(container, index)
        events = walk_one(graph, locator, keep_frames=True)
        texts.append(out.lines(f"expand --only {locator}", text.transcript(events, unicode=False)))
    machine: list[bytes] = []
    for message in graph.checkpoint.history[:2]:
        rows = locate(graph, digest(message))
        source = graph.checkpoint.source
        texts.append(out.strings("locate text", (row.locator for row in rows)))
        machine.append(out.jsonl("locate jsonl", (locate_object(r, source) for r in rows)))
    return TargetResult(texts, machine)


def tables(data: bytes, name: str) -> TargetResult:
    """``spans`` and ``stages`` in every tabular format."""
    out = _Collector(data)
    graph, _ = _graph(name)
    result = TargetResult()
    for what, rows, columns in (
        ("spans", span_rows(graph), SPAN_COLUMNS),
        ("stages", stage_rows(graph), STAGE_COLUMNS),
    ):
        result.text_outputs.append(out.lines(f"{what} text", text.table(rows, columns)))
        result.machine_outputs += [
            out.chunks(f"{what} csv", delimited.csv_chunks(rows, columns)),
            out.chunks(f"{what} tsv", delimited.tsv_chunks(rows, columns)),
            out.json(f"{what} json", rows),
        ]
    return result


def verify(data: bytes, name: str) -> TargetResult:
    """``verify``: the audit of one source, in text, JSON and JSONL."""
    out = _Collector(data)
    report = build_report([audit_source(name)])
    result = TargetResult(
        text_outputs=[out.lines("verify text", report_lines(report))],
        machine_outputs=[
            out.json("verify json", report.document()),
            out.jsonl("verify jsonl", report.rows()),
        ],
    )
    result.error_messages += [a.error for a in report.audits if a.error is not None]
    return result


def report(data: bytes, name: str) -> TargetResult:
    """``report``: the HTML incident report."""
    out = _Collector(data)
    evidence = hr.read_evidence(name, None)
    html = hr.render_bytes(
        evidence.graph,
        provenance=evidence.provenance(__version__, _STAMP),
        scheme_note=evidence.scheme_note,
        findings=audit(evidence.graph),
    )
    return TargetResult(machine_outputs=[out.chunks("report html", [html])])


#: ``grep`` runs: (pattern, compile_query keyword arguments, also write CSV)
GREP_QUERIES: Final[tuple[tuple[str, dict[str, Any], bool], ...]] = (
    ("refund|error|\\[compacted", {"ignore_case": True}, True),
    ("[^ ]{16}", {"fields": ("*",)}, False),  # every field, as compact JSON when not a string
)


def grep(data: bytes, name: str) -> TargetResult:
    out = _Collector(data)
    result = TargetResult()
    for pattern, options, with_csv in GREP_QUERIES:
        query = compile_query(pattern, **options)
        errors: list[FoldctlError] = []
        run = GrepRun(grep_sources([name], query), errors.append)
        hits = list(itertools.islice(run.hits(), out.budget // 64 + 1))
        lines = (line for h in hits for line in hit_lines(h, unicode=False))
        result.text_outputs.append(out.lines(f"grep {pattern!r} text", lines))
        result.machine_outputs.append(
            out.jsonl(f"grep {pattern!r} jsonl", (hit_object(h) for h in hits))
        )
        if with_csv:
            rows = [r for h in hits for r in hit_rows(h)]
            result.machine_outputs.append(
                out.chunks(f"grep {pattern!r} csv", delimited.csv_chunks(rows, GREP_COLUMNS))
            )
        result.error_messages += [str(e) for e in errors]
    return result


def diff_against(original: str) -> TargetFn:
    """``diff ORIGINAL MUTANT`` and ``diff MUTANT ORIGINAL`` (with ``--force``)."""

    def diff(data: bytes, name: str) -> TargetResult:
        out = _Collector(data)
        mutant, _ = _graph(name)
        before, _ = _graph(original)
        result = TargetResult()
        for old, new, what in ((before, mutant, "diff"), (mutant, before, "diff reversed")):
            found = compare(old, new, force=True)
            result.text_outputs.append(out.lines(f"{what} text", diff_lines(found)))
            result.machine_outputs += [
                out.json(f"{what} json", found.differences),
                out.chunks(f"{what} csv", delimited.csv_chunks(csv_rows(found), DIFF_COLUMNS)),
            ]
        return result

    return diff


def sessions(data: bytes, name: str) -> TargetResult:
    """``sessions STORE.db``: every session listed, in text, CSV and JSON."""
    out = _Collector(data)
    target = split_source(name)
    path = name if target is None else target.path
    list_session_sources(path)
    rows, errors = session_rows(path)
    columns = [*SESSION_TEXT_COLUMNS, *(["error"] if errors else [])]
    result = TargetResult(
        text_outputs=[out.lines("sessions text", text.table(rows, columns))],
        machine_outputs=[
            out.chunks("sessions csv", delimited.csv_chunks(rows, SESSION_COLUMNS)),
            out.json("sessions json", rows),
        ],
    )
    result.error_messages += [str(e) for e in errors]
    if errors:
        result.error_messages.append(str(sessions_error(path, errors)))
    return result


# --------------------------------------------------------------------------- the real CLI

#: Seconds a CLI run may take before it counts as a hang (the harness may change it).
CLI_SETTINGS: dict[str, float] = {"timeout": 20.0}
_ERROR_PREFIX: Final = "foldctl: error: "


def _cli_env() -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("FOLDCTL_") and k not in ("FORCE_COLOR", "CLICOLOR_FORCE")
    }
    env.update(NO_COLOR="1", COLUMNS="80", TERM="dumb")
    return env


def run_cli(args: Sequence[str], timeout: float | None = None) -> TargetResult:
    """``python -m foldctl ARGS`` with output to pipes: exit status, stderr and stdout checked.

    Exit status must be 0, 1 or 2; stderr must hold no traceback and nothing
    but ``foldctl: error:`` lines, and a status of 2 needs one.  Every run
    here names one mutant (and at most one pristine file), so more than one
    line on stderr is an error message that spilled onto a second line: it is
    reported as an error message holding a newline.
    """
    result = TargetResult()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "foldctl", *args],
            capture_output=True,
            timeout=CLI_SETTINGS["timeout"] if timeout is None else timeout,
            env=_cli_env(),
            check=False,
        )
    except subprocess.TimeoutExpired:
        result.cli_hang = True
        return result
    stdout = proc.stdout.decode("utf-8", "replace")
    stderr = proc.stderr.decode("utf-8", "replace")
    lines = stderr.splitlines()
    if proc.returncode not in (0, 1, 2):
        result.cli_problem = f"exit status {proc.returncode}"
    elif "Traceback (most recent call last)" in stderr:
        result.cli_problem = f"traceback on stderr: {lines[-1][:200] if lines else ''}"
    elif proc.returncode == 2 and not any(line.startswith(_ERROR_PREFIX) for line in lines):
        result.cli_problem = "exit status 2 without an error line on stderr"
    elif lines and not lines[0].startswith(_ERROR_PREFIX):
        result.cli_problem = f"stderr line without the error prefix: {lines[0][:200]!r}"
    if len(lines) > 1:
        result.error_messages.append(stderr.rstrip("\n"))
    result.text_outputs += [stdout, stderr]
    return result


def cli(*args: str) -> TargetFn:
    """A CLI target: ``foldctl ARGS... NAME``."""

    def run(data: bytes, name: str) -> TargetResult:
        return run_cli([*args, name])

    return run


def cli_diff(original: str) -> TargetFn:
    def run(data: bytes, name: str) -> TargetResult:
        return run_cli(["diff", "--force", original, name])

    return run


def cli_sessions(data: bytes, name: str) -> TargetResult:
    target = split_source(name)
    return run_cli(["sessions", name if target is None else target.path])


# --------------------------------------------------------------------------- the registry

_FILE = frozenset({"file"})
_STORE = frozenset({"store"})
_BOTH = _FILE | _STORE

#: Every target, in the order they run on a mutant: ``load`` and ``resolve`` first,
#: since the targets that need a loaded checkpoint are skipped when ``resolve`` refuses.
TARGETS: Final[tuple[Target, ...]] = (
    Target("load", load, _BOTH, needs_graph=False),
    Target("resolve", resolve_all, _BOTH, needs_graph=False),
    Target("show", show, _BOTH),
    Target("expand-text", expand_text, _BOTH),
    Target("expand-markdown", expand_markdown, _BOTH),
    Target("expand-jsonl", expand_json, _BOTH),
    Target("expand-only", only, _BOTH),
    Target("tables", tables, _BOTH),
    Target("verify", verify, _BOTH, needs_graph=False),
    Target("report-html", report, _BOTH),
    Target("grep", grep, _BOTH, needs_graph=False),
    Target("diff", None, _BOTH, paired=diff_against),
    Target("sessions", sessions, _STORE, needs_graph=False),
    Target("cli-show", cli("show"), _BOTH, needs_graph=False, cli=True),
    Target("cli-expand", cli("expand", "--include-detached"), _BOTH, needs_graph=False, cli=True),
    Target("cli-verify", cli("verify"), _BOTH, needs_graph=False, cli=True),
    Target("cli-grep", cli("grep", "-i", "e"), _BOTH, needs_graph=False, cli=True),
    Target("cli-diff", None, _BOTH, needs_graph=False, cli=True, paired=cli_diff),
    Target("cli-sessions", cli_sessions, _STORE, needs_graph=False, cli=True),
)
TARGET_NAMES: Final = tuple(t.name for t in TARGETS)
