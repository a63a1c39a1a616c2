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

import contextlib
import importlib
import io
import itertools
import os
import pkgutil
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import foldctl
from foldctl import jsoncodec
from foldctl.claims.record import check_graph
from foldctl.cli.main import run as run_command_line
from foldctl.digest import digest
from foldctl.errors import FoldctlError
from foldctl.fingerprint import SCHEMES
from foldctl.formats import registry as formats
from foldctl.graph.locators import message_locator
from foldctl.graph.open import open_graph
from foldctl.graph.resolve import FoldGraph, resolve
from foldctl.load.exact import load_document
from foldctl.load.fast import try_load
from foldctl.model import Checkpoint, frame_indices
from foldctl.sources.files import decompress
from foldctl.sources.store import Store, split_source
from tools.fuzz import mcp_target, planted
from tools.fuzz.outcome import OutputBudgetExceeded, TargetResult, input_size, output_budget

#: The directory of the package under test: frames inside it are "foldctl frames".
PACKAGE_DIR: Final = Path(foldctl.__file__).resolve().parent
#: The exception every documented foldctl failure derives from.
EXPECTED_ERROR: Final = FoldctlError
#: The report's generation time, fixed so that a report is a pure function of its input.
_STAMP: Final = "2026-01-01T00:00:00Z"
#: A fixed redaction key, so a redacted output is a pure function of its input.
_KEY: Final = b"fuzz-key-" * 4

TargetFn = Callable[[bytes, str], TargetResult]


@dataclass(frozen=True)
class Target:
    """One target and when it applies."""

    name: str
    run: TargetFn | None  # None for a paired target (see ``paired``)
    #: which mutants it takes: "file" (.json, .json.gz, .jsonl, .jsonl.gz) and/or "store" (.db)
    kinds: frozenset[str]
    #: skipped when ``resolve`` did not accept the mutant (it would only repeat that verdict)
    needs_graph: bool = True
    #: runs the real CLI in a subprocess (only on a sample of the mutants)
    cli: bool = False
    #: a target that also needs the unmutated original: ``paired(original)`` gives its function
    paired: Callable[[str], TargetFn] | None = None
    #: how many commands it runs at most (each reads the input): its time allowance is
    #: the harness's per-target limit this many times
    runs: int = 1

    def bind(self, original: str) -> TargetFn:
        if self.paired is not None:
            return self.paired(original)
        assert self.run is not None
        return self.run


# --------------------------------------------------------------------------- plumbing

_graphs: dict[str, tuple[FoldGraph, str] | FoldctlError] = {}


#: Modules that import an optional extra that is not installed (the MCP server's SDK).
_NEEDS_ABSENT_EXTRA: Final = () if mcp_target.HAS_SDK else ("foldctl.mcp.server",)


def preload() -> list[str]:
    """Import every module of foldctl (but ``__main__``), and return their names.

    The CLI imports each command's modules when the command first runs.  The
    harness calls this before it forks its workers, so that each starts with them
    loaded: a worker is replaced whenever its memory has grown, and every new one
    imported them again (about 5 % of a run's time, measured with py-spy).
    """
    names = []
    for info in pkgutil.walk_packages(foldctl.__path__, "foldctl."):
        if info.name != "foldctl.__main__" and info.name not in _NEEDS_ABSENT_EXTRA:
            importlib.import_module(info.name)
            names.append(info.name)
    return names


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


class _Budgeted(io.RawIOBase):
    """Standard output for one in-process command: kept, and stopped at the budget."""

    def __init__(self, what: str, budget: int) -> None:
        self.what, self.budget = what, budget
        self.data = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, chunk: Any) -> int:
        self.data += chunk
        if len(self.data) > self.budget:
            raise OutputBudgetExceeded(self.what, self.budget)
        return len(chunk)


class Refused(FoldctlError):
    """A command that ended with exit status 2 and its one ``foldctl: error:`` line."""


@dataclass
class Ran:
    status: int
    stdout: bytes
    errors: list[str]


def command(argv: Sequence[str], budget: int) -> Ran:
    """One foldctl command, in this process, exactly as ``foldctl ARGV`` runs it (the CLI
    is glue over the library and the renderer registry): its exit status, its standard
    output (stopped at ``budget``), and its error lines.  Exit status 2 is a refusal."""
    out = _Budgeted(" ".join(argv[:3]), budget)
    err = io.StringIO()
    stdout = io.TextIOWrapper(io.BufferedWriter(out), encoding="utf-8", write_through=True)
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(err):
        status = run_command_line(list(argv))
        stdout.flush()
    errors = err.getvalue().splitlines()
    if status == 2:
        raise Refused("\n".join(errors) or f"exit status 2 without an error line: {argv}")
    if status not in (0, 1):
        raise AssertionError(f"exit status {status}: {argv}")
    return Ran(status, bytes(out.data), errors)


def _outputs(data: bytes, runs: Sequence[tuple[Sequence[str], bool]]) -> TargetResult:
    """Run each command (``text``: its output is read by a person and checked as text)."""
    budget = output_budget(input_size(data))
    result = TargetResult()
    for argv, text in runs:
        ran = command(argv, budget)
        if text:
            result.text_outputs.append(ran.stdout.decode("utf-8", "surrogateescape"))
        else:
            result.machine_outputs.append(ran.stdout)
        result.error_messages += ran.errors
    return result


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
    the exact path must accept the file too and read the same checkpoint once
    every retained message is decoded (the fast path decodes them lazily); a
    message the fast path cannot decode must fail with the exact path's own
    error, word for word (one verdict per file).
    """
    if is_session(name):
        _facts(formats.load(decompress(name, data), name))  # every message decoded
        return TargetResult()
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
    try:
        fast_facts = _facts(fast)
    except FoldctlError as e:
        if isinstance(exact, FoldctlError) and str(e) == str(exact):
            raise e from None  # the same verdict, named the same way: one refusal
        result.disagreement = f"a retained message fails to decode ({e}); exact path: {exact}"
        result.disagreement_kind = f"fast-then-fails: {_kind(e)}"
        return result
    if isinstance(exact, FoldctlError):
        result.disagreement = f"fast path loads what the exact path refuses: {exact.args[0]}"
        result.disagreement_kind = f"fast-only: {_kind(exact)}"
        return result
    assert exact is not None  # the exact path never declines
    for (what, a), (_, b) in zip(fast_facts, _facts(exact), strict=True):
        if a != b:
            result.disagreement = f"fast and exact paths read {what} differently"
            result.disagreement_kind = "differ: " + re.sub(r"\[\d+\]", "[]", what)
            return result
    return result


def is_session(name: str) -> bool:
    """A session file of another runtime (one record a line): read through the format
    registry, which has one loader for it (there is no second path to compare)."""
    return name.endswith((".jsonl", ".jsonl.gz"))


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
    return _outputs(
        data,
        [
            (["show", name], True),
            (["show", name, "-f", "markdown"], True),
            (["show", name, "-f", "json"], False),
        ],
    )


def expand_text(data: bytes, name: str) -> TargetResult:
    return _outputs(data, [(["expand", name, "--keep-frames", "--include-detached"], True)])


def expand_markdown(data: bytes, name: str) -> TargetResult:
    return _outputs(data, [(["expand", name, "--include-detached", "-f", "markdown"], True)])


def expand_json(data: bytes, name: str) -> TargetResult:
    return _outputs(data, [(["expand", name, "--include-detached", "-f", "jsonl"], False)])


def _frame_locators(graph: FoldGraph, limit: int) -> Iterator[str]:
    for container, index in itertools.islice(graph.frames, limit):
        yield message_locator(container, index)


def only(data: bytes, name: str) -> TargetResult:
    """``expand --only`` on a few frames, and ``locate`` of a few messages by digest."""
    graph, _ = _graph(name)
    runs: list[tuple[Sequence[str], bool]] = [
        (["expand", name, "--only", locator, "--keep-frames"], True)
        for locator in _frame_locators(graph, 4)
    ]
    for message in graph.checkpoint.history[:2]:
        wanted = digest(message)
        runs += [(["locate", name, wanted], True), (["locate", name, wanted, "-f", "jsonl"], False)]
    return _outputs(data, runs)


def tables(data: bytes, name: str) -> TargetResult:
    """``spans`` and ``stages`` as text, and between them every machine format of a table
    (each command loads the file again, so four of them, not eight)."""
    return _outputs(
        data,
        [
            (["spans", name], True),
            (["spans", name, "-f", "csv"], False),
            (["stages", name], True),
            (["stages", name, "-f", "tsv"], False),
            (["stages", name, "-f", "json"], False),
        ],
    )


def verify(data: bytes, name: str) -> TargetResult:
    """``verify``: the audit of one source, in text, JSON and JSONL (a source it cannot
    read is its one error line, exit 2)."""
    return _outputs(
        data,
        [
            (["verify", name], True),
            (["verify", name, "-f", "json"], False),
            (["verify", name, "-f", "jsonl"], False),
        ],
    )


def claims(data: bytes, name: str) -> TargetResult:
    """``claims``: every summary checked against its originals, in text and JSON; and the
    same findings (or the same refusal) whether the evidence is indexed from the JSON the
    loader kept or from every message decoded."""
    result = _outputs(data, [(["claims", name], True), (["claims", name, "-f", "json"], False)])
    graph, _ = _graph(name)
    stored, decoded = (_findings(graph, stored=keep) for keep in (True, False))
    if stored != decoded:
        result.disagreement = f"claims read stored and decoded messages differently: {stored}"
        result.disagreement_kind = "claims: stored or decoded"
    return result


def _findings(graph: FoldGraph, *, stored: bool) -> list[Any] | str:
    try:
        return list(check_graph(graph, stored=stored))
    except FoldctlError as e:
        return str(e)


def redact(data: bytes, name: str) -> TargetResult:
    """``--redact`` (a fixed key: reproducible) on the commands that print what a file
    holds: the overview (text, JSON), the transcript (text, JSONL), a search, the HTML
    report and the review list.  A planted secret (``tools/fuzz/planted.py``) in any
    output or error line is ``leaked``."""
    with tempfile.TemporaryDirectory(prefix="foldctl-fuzz-") as folder:
        key = Path(folder) / "key"
        key.write_bytes(_KEY)
        page = Path(folder) / "report.html"
        red = ["--redact", "--redact-key-file", str(key)]
        try:
            result = _outputs(
                data,
                [
                    (["show", name, *red], True),
                    (["show", name, "-f", "json", *red], False),
                    (["expand", name, "--include-detached", *red], True),
                    (["expand", name, "--include-detached", "-f", "jsonl", *red], False),
                    (["grep", "-i", "a|e|@", name, "-j", "1", "-f", "jsonl", *red], False),
                    (["report", name, "-o", str(page), "--now", _STAMP, *red], False),
                    (["redactions", name, "--redact-key-file", str(key)], True),
                ],
            )
        except Refused as e:
            found = planted.leaked(str(e))
            if found is None:
                raise
            return TargetResult(leaked=f"{found}: in an error line: {str(e)[:200]}")
        if page.exists():
            result.machine_outputs.append(page.read_bytes())
    outputs: list[tuple[str, str | bytes]] = [("text output", t) for t in result.text_outputs]
    outputs += [("machine output", m) for m in result.machine_outputs]
    outputs += [("an error line", e) for e in result.error_messages]
    for where, output in outputs:
        found = planted.leaked(output)
        if found is not None:
            result.leaked = f"{found}: in {where}: {_around(output, found)}"
            break
    return result


def _around(output: str | bytes, kind: str) -> str:
    """The planted secret of ``kind`` with 60 characters either side (for the report)."""
    text = output if isinstance(output, str) else output.decode("utf-8", "replace")
    core = next(s.core for s in planted.SECRETS if s.kind == kind)
    at = text.find(core)
    return repr(text[max(0, at - 60) : at + len(core) + 60])


def report(data: bytes, name: str) -> TargetResult:
    """``report``: the HTML incident report (written outside the evidence's folder)."""
    with tempfile.TemporaryDirectory(prefix="foldctl-fuzz-") as folder:
        page = Path(folder) / "report.html"
        ran = command(["report", name, "-o", str(page), "--now", _STAMP], output_budget(0))
        html = page.read_bytes()
    if len(html) > output_budget(input_size(data)):
        raise OutputBudgetExceeded("report html", output_budget(input_size(data)))
    return TargetResult(machine_outputs=[html], error_messages=ran.errors)


#: ``grep`` runs: the arguments before the SOURCE, and whether to write CSV too
GREP_QUERIES: Final[tuple[tuple[tuple[str, ...], bool], ...]] = (
    (("-i", "refund|error|\\[compacted"), True),
    (("[^ ]{16}", "--field", "*"), False),  # every field, as compact JSON when not a string
)


def grep(data: bytes, name: str) -> TargetResult:
    runs: list[tuple[Sequence[str], bool]] = []
    for args, with_csv in GREP_QUERIES:
        base = ["grep", *args, name, "-j", "1"]
        runs += [(base, True), ([*base, "-f", "jsonl"], False)]
        if with_csv:
            runs.append(([*base, "-f", "csv"], False))
    return _outputs(data, runs)


def diff_against(original: str) -> TargetFn:
    """``diff ORIGINAL MUTANT`` and ``diff MUTANT ORIGINAL`` (with ``--force``)."""

    def diff(data: bytes, name: str) -> TargetResult:
        _graph(name)
        runs: list[tuple[Sequence[str], bool]] = []
        for old, new in ((original, name), (name, original)):
            base = ["diff", "--force", old, new]
            runs += [(base, True), ([*base, "-f", "json"], False), ([*base, "-f", "csv"], False)]
        return _outputs(data, runs)

    return diff


def sessions(data: bytes, name: str) -> TargetResult:
    """``sessions STORE.db``: every session listed, in text, CSV and JSON (a session that
    cannot be read is its row's error, and exit 2)."""
    target = split_source(name)
    path = name if target is None else target.path
    return _outputs(
        data,
        [
            (["sessions", path], True),
            (["sessions", path, "-f", "csv"], False),
            (["sessions", path, "-f", "json"], False),
        ],
    )


# --------------------------------------------------------------------------- the real CLI

#: Seconds a CLI run may take before it counts as a hang (the harness may change it).
CLI_SETTINGS: dict[str, float] = {"timeout": 20.0}
_ERROR_PREFIX: Final = "foldctl: error: "
#: A note on standard error (a partial session file), one line, beside at most one error.
_NOTE_PREFIX: Final = "foldctl: "


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
    but ``foldctl: error:`` lines and ``foldctl:`` notes (a session file that is
    partial), and a status of 2 needs an error.  Every run here names one mutant
    (and at most one pristine file), so a second error line, a second note or a line
    without the prefix is a message that spilled onto a second line: it is reported
    as an error message holding a newline.
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
    errors = [line for line in lines if line.startswith(_ERROR_PREFIX)]
    notes = [line for line in lines if line.startswith(_NOTE_PREFIX) and line not in errors]
    stray = [line for line in lines if not line.startswith(_NOTE_PREFIX)]
    if proc.returncode not in (0, 1, 2):
        result.cli_problem = f"exit status {proc.returncode}"
    elif "Traceback (most recent call last)" in stderr:
        result.cli_problem = f"traceback on stderr: {lines[-1][:200] if lines else ''}"
    elif proc.returncode == 2 and not errors:
        result.cli_problem = "exit status 2 without an error line on stderr"
    elif stray and len(lines) == 1:
        result.cli_problem = f"stderr line without the foldctl prefix: {lines[0][:200]!r}"
    if len(errors) > 1 or len(notes) > 1 or (stray and len(lines) > 1):
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
    Target("show", show, _BOTH, runs=3),
    Target("expand-text", expand_text, _BOTH),
    Target("expand-markdown", expand_markdown, _BOTH),
    Target("expand-jsonl", expand_json, _BOTH),
    Target("expand-only", only, _BOTH, runs=8),
    Target("tables", tables, _BOTH, runs=5),
    Target("verify", verify, _BOTH, needs_graph=False, runs=3),
    Target("claims", claims, _BOTH, runs=4),
    Target("redact", redact, _BOTH, runs=7),
    Target("report-html", report, _BOTH),
    Target("grep", grep, _BOTH, needs_graph=False, runs=5),
    Target("diff", None, _BOTH, paired=diff_against, runs=6),
    Target("sessions", sessions, _STORE, needs_graph=False, runs=3),
    Target("mcp", mcp_target.mcp, _BOTH, needs_graph=False, runs=12),
    Target("cli-show", cli("show"), _BOTH, needs_graph=False, cli=True),
    Target("cli-expand", cli("expand", "--include-detached"), _BOTH, needs_graph=False, cli=True),
    Target("cli-verify", cli("verify"), _BOTH, needs_graph=False, cli=True),
    Target("cli-grep", cli("grep", "-i", "e"), _BOTH, needs_graph=False, cli=True),
    Target("cli-diff", None, _BOTH, needs_graph=False, cli=True, paired=cli_diff),
    Target("cli-sessions", cli_sessions, _STORE, needs_graph=False, cli=True),
)
TARGET_NAMES: Final = tuple(t.name for t in TARGETS)
