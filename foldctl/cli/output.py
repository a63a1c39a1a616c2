"""Standard output and output files: results rendered in the chosen format, painted only
for a terminal; files written only once the work has succeeded, never over the evidence."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, BinaryIO, Final, NoReturn, cast

import typer

import foldctl
from foldctl import one_line
from foldctl.cli.errors import report_error
from foldctl.cli.options import Output, Redaction
from foldctl.errors import ExitStatus, FoldctlError, UsageError
from foldctl.render import Output as Sink
from foldctl.render import OutputFormat


def use_color(choice: str, stream: Any = None) -> bool:
    """``--color``: always/never win; auto means a terminal, no ``NO_COLOR``, and a
    ``TERM`` other than ``dumb``."""
    if choice not in ("auto", "always", "never"):
        raise UsageError(f"--color takes auto, always or never, not {choice!r}")
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    stream = stream or sys.stdout
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _on_terminal() -> bool:
    isatty = getattr(sys.stdout, "isatty", None)
    return bool(isatty and isatty())


def stdout_sink(color: str = "never", stream: BinaryIO | None = None) -> Sink:
    """Standard output (or the pager in front of it) as bytes, painted when ``--color``
    says so; ``terminal`` when a person reads it (JSON is then indented, text wrapped to
    the terminal's width, ``COLUMNS`` first)."""
    terminal = _on_terminal()
    columns = shutil.get_terminal_size().columns if terminal else None
    return Sink(stream or sys.stdout.buffer, use_color(color), terminal, columns)


#: The pager when neither ``FOLDCTL_PAGER`` nor ``PAGER`` names one: quit at once when the
#: output fits the screen (-F), pass colour through (-R), leave it on the screen (-X).
DEFAULT_PAGER: Final = "less -FRX"


def pager(no_pager: bool = False, environ: Mapping[str, str] = os.environ) -> list[str] | None:
    """The pager's command line, or None: ``--no-pager``, standard output not a terminal,
    or ``FOLDCTL_PAGER`` (else ``PAGER``) empty or ``cat``."""
    if no_pager or not _on_terminal():
        return None
    chosen = environ.get("FOLDCTL_PAGER", environ.get("PAGER", DEFAULT_PAGER))
    try:
        argv = shlex.split(chosen)
    except ValueError:
        say(f"cannot read the pager {chosen!r} (an unclosed quote?); writing to the terminal")
        return None
    return None if not argv or argv == ["cat"] else argv


@contextmanager
def paged(no_pager: bool = False) -> Iterator[BinaryIO]:
    """Where to write what a person reads: the pager's input on a terminal (waited for
    at the end; quitting it early stops the output quietly), else standard output."""
    argv = pager(no_pager)
    if argv is None:
        yield sys.stdout.buffer
        return
    sys.stdout.flush()
    env = {**os.environ, "LESS": os.environ.get("LESS", "FRX"), "LV": os.environ.get("LV", "-c")}
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, env=env)
    except OSError as e:
        say(f"cannot run the pager {argv[0]}: {e.strerror}; writing to the terminal")
        yield sys.stdout.buffer
        return
    assert proc.stdin is not None
    try:
        yield cast(BinaryIO, proc.stdin)
        proc.stdin.close()
    except BrokenPipeError:
        pass  # the pager was quit before the end: nothing more to show
    finally:
        with suppress(OSError):
            proc.stdin.close()
        while True:
            try:
                proc.wait()
                break
            except KeyboardInterrupt:  # Ctrl-C reaches the pager too; it decides
                continue


def emit(command: str, out: Output, result: Any) -> None:
    """Render ``command``'s result in the format ``out`` asks for, to standard output
    (through the pager on a terminal)."""
    from foldctl.render.registry import render

    with paged(out.no_pager) as stream:
        render(command, OutputFormat(out.fmt), result, stdout_sink(out.color, stream))


def answer(
    command: str, out: Output, result: Any, failures: Iterable[BaseException | None] = ()
) -> NoReturn:
    """Say what could not be read (a line each), render ``result``, and exit with its
    ``exit_status``."""
    for error in failures:
        if error is not None:
            report_error(error)
    emit(command, out, result)
    raise typer.Exit(int(result.exit_status))


#: The format of a table written to a file, by the file's extension (else JSON).
_BY_EXTENSION: Final = {".csv": "csv", ".tsv": "tsv", ".jsonl": "jsonl", ".txt": "text"}


def write_table(command: str, result: Any, path: Path) -> None:
    """``command``'s result written to ``path`` as its extension says (JSON otherwise)."""
    from foldctl.render.registry import render

    fmt = OutputFormat(_BY_EXTENSION.get(path.suffix.lower(), "json"))
    try:
        with open(path, "wb") as stream:
            render(command, fmt, result, Sink(stream, False, False, None))
    except OSError as exc:
        raise UsageError(f"--redactions {path}: cannot write: {exc.strerror}") from None


def note_unkeyed(redactor: foldctl.Redactor | None) -> None:
    """After the output: one line on stderr when its placeholders were drawn for this run
    (no key file), so they will not match another run's."""
    if redactor is not None and not redactor.keyed:
        say(
            "no --redact-key-file: the placeholders were drawn for this run and will not "
            "match another run's (pass --redact-key-file FILE to compare runs)"
        )


def redaction_done(
    redaction: Redaction,
    redactor: foldctl.Redactor | None,
    sources: Sequence[str | foldctl.RawSource] | foldctl.Conversation,
    scheme: str | None = None,
    exclude: Sequence[str] = (),
) -> None:
    """After the output: with ``--redactions FILE``, the review list of ``sources`` (or of
    one conversation as read) by the same redactor, so with the output's placeholders;
    without a key file, the note that they are this run's alone."""
    note_unkeyed(redactor)
    if redaction.redactions is None or redactor is None:
        return
    if isinstance(sources, foldctl.Conversation):
        table = sources.redactions(redactor.sibling())
    else:
        table = foldctl.redactions(sources, redactor, scheme=scheme, exclude=exclude)
    write_table("redactions", table, redaction.redactions)


def say(text: str) -> None:
    """A note on standard error, ``foldctl: ...``, on one safe line."""
    sys.stderr.write(f"foldctl: {one_line(text)}\n")
    sys.stderr.flush()


def partial_note(source: str, lines: Sequence[int], done: str = "is shown") -> None:
    """The note of a session file with lines that are not JSON (``lines``, 1-based): the
    rest of it was read and ``done`` (shown, searched...), so an answer piped elsewhere never
    passes for the whole session.  A note, not an error: the exit status is the command's."""
    if lines:
        more = f" (and {len(lines) - 1} more line(s))" if len(lines) > 1 else ""
        say(
            f"{source} is partial: line {lines[0]} is not JSON{more}; the rest of the file "
            f"was read and {done} (foldctl verify lists every such line)"
        )


def partial_noted(done: str) -> Callable[[str, Sequence[int]], None]:
    """:func:`partial_note` as a library function's ``on_partial`` takes it: each source
    told of ``done`` (``searched``, ``compared``...)."""
    return lambda source, lines: partial_note(source, lines, done)


def unmatched(note: str | None, redactor: foldctl.Redactor | None = None) -> None:
    """A fold filter that no span passed: said on standard error with what there is, and
    exit 1 (nothing found), whatever was printed.  With ``redactor``, the note quotes no
    secret (the filter's own words included)."""
    if note is not None:
        say(note if redactor is None else redactor.redact_text(note, field="filter")[0])
        raise typer.Exit(ExitStatus.FOUND)


def in_sources(count: int) -> str:
    """Where a filter looked, for its note: ``here`` (one source) or ``in these N sources``."""
    return "here" if count == 1 else f"in these {count} sources"


def write_stdout(data: bytes) -> None:
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def write_file(
    output: str, data: bytes, evidence: str | None, *, what: str, option: str = "-o"
) -> None:
    """Write ``data`` to OUTPUT (``-`` = standard output); refuse to write over the file
    the evidence was read from."""
    if output == "-":
        write_stdout(data)
        return
    target = Path(output)
    if evidence is not None:
        try:
            same = target.exists() and target.samefile(evidence)
        except OSError:
            same = False
        if same:
            raise UsageError(
                f"{option} {output}: that is the source; evidence is never overwritten"
            )
    try:
        with target.open("wb") as f:
            f.write(data)
    except OSError as e:
        raise FoldctlError(f"{output}: cannot write {what}: {e.strerror}") from None


def size_text(size: int) -> str:
    """A byte count as people read it: ``812 bytes``, ``14.2 KB``, ``3.1 MB``."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} bytes"
