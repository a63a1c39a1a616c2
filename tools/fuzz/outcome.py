"""What a target returns, how one run of a target is classified, and the safety checks.

Pure: imports neither foldctl nor anything that does, so the harness and the
tests can classify without loading the code under test.
"""

from __future__ import annotations

import functools
import gzip
import io
import re
import zlib
from dataclasses import dataclass, field
from typing import Final

#: Every class a target run can end in, in the order the summary table lists them.
ACCEPTED: Final = "accepted"  # the target did its work and its output passed every check
REFUSED: Final = "refused"  # a documented foldctl error (FoldctlError) with a one-line message
UNEXPECTED: Final = "unexpected"  # any other exception, or the CLI misbehaving
HANG: Final = "hang"  # the run did not finish within the time limit
UNSAFE: Final = "unsafe"  # controls / bidi / lone surrogates in text output, or a multi-line error
BLOWUP: Final = "blowup"  # output beyond the budget, or peak memory beyond the cap
MEMORY: Final = "memory"  # MemoryError (the worker's address space is capped)
DISAGREE: Final = "disagree"  # two code paths gave the same bytes different verdicts
CRASH: Final = "crash"  # the worker process died (a signal, an abort) without a Python exception
WROTE: Final = "wrote"  # the target changed the files it read, or created files beside them
SKIPPED: Final = "skipped"  # not run: it needs a loaded checkpoint and the load was refused
LEAKED: Final = "leaked"  # a planted secret in what a command printed with --redact
SUPERLINEAR: Final = "superlinear"  # 10x the longest string took more than 20x the time

CLASSES: Final = (
    ACCEPTED,
    REFUSED,
    UNEXPECTED,
    HANG,
    UNSAFE,
    LEAKED,
    SUPERLINEAR,
    BLOWUP,
    MEMORY,
    DISAGREE,
    WROTE,
    CRASH,
    SKIPPED,
)
#: Classes that are not failures: no reproducer is kept for them.
BENIGN: Final = frozenset({ACCEPTED, REFUSED, SKIPPED})
#: Classes that are failures.
FAILURES: Final = tuple(c for c in CLASSES if c not in BENIGN)

#: Output budget: an output longer than this many times the input, plus the slack, is a blowup.
OUTPUT_FACTOR: Final = 50
OUTPUT_SLACK: Final = 1 << 20


def output_budget(size: int) -> int:
    """The most characters (or bytes) one output of a target may have for an input this large."""
    return OUTPUT_FACTOR * size + OUTPUT_SLACK


@functools.lru_cache(maxsize=4)  # asked once per target of the same case
def input_size(data: bytes) -> int:
    """How large an input is for the budgets: a gzip file counts as what it decompresses to.

    Counted by decompressing it (every member of a concatenated gzip: its last
    trailer's ISIZE speaks only for the last member), in chunks, so nothing is held.
    A stream that breaks off counts what came out of it before, and never less than
    the stored size or the trailer's claim.
    """
    if data[:2] != b"\x1f\x8b" or len(data) < 18:
        return len(data)
    counted = 0
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
            while chunk := stream.read(1 << 20):
                counted += len(chunk)
    except (OSError, EOFError, zlib.error):
        pass
    return max(len(data), int.from_bytes(data[-4:], "little"), counted)


@dataclass
class TargetResult:
    """What a target produced: text meant for a reader, and machine output."""

    #: text and markdown output (checked for unsafe characters)
    text_outputs: list[str] = field(default_factory=list)
    #: JSON, JSONL, CSV, TSV, HTML (checked only for size)
    machine_outputs: list[bytes] = field(default_factory=list)
    #: one-line errors the target reported without raising (verify's unreadable
    #: sources, grep's failed sources, sessions' error column): checked like errors
    error_messages: list[str] = field(default_factory=list)
    #: set by a target that compares two code paths and finds them disagreeing
    disagreement: str | None = None
    #: a short name for the kind of disagreement (part of the failure signature)
    disagreement_kind: str = ""
    #: set by a CLI target: what was wrong with the process (exit code, traceback)
    cli_problem: str | None = None
    #: set by a CLI target whose process was killed at its time limit
    cli_hang: bool = False
    #: set by the ``redact`` target: the kind of a planted secret found in its output, and where
    leaked: str | None = None


class OutputBudgetExceeded(Exception):
    """Raised by a target's output collector as soon as one output exceeds its budget."""

    def __init__(self, what: str, budget: int) -> None:
        super().__init__(f"{what} exceeded {budget} characters")
        self.what = what
        self.budget = budget


# The characters that must never reach a reader's terminal unescaped.
_UNSAFE_CHARS: Final = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)


def char_kind(char: str) -> str:
    """A short name for an unsafe character's family (part of a failure signature)."""
    code = ord(char)
    if code == 0x1B:
        return "ESC"
    if code == 0:
        return "NUL"
    if code == 0x0D:
        return "CR"
    if code < 0x20:
        return "C0"
    if code == 0x7F:
        return "DEL"
    if code <= 0x9F:
        return "C1"
    if 0xD800 <= code <= 0xDFFF:
        return "lone-surrogate"
    return "bidi"


def unsafe_char(text: str) -> tuple[int, str] | None:
    """The first unsafe character in ``text`` as (offset, family), or None.

    Unsafe: a C0 control other than tab and newline, DEL, a C1 control, a bidi
    mark, embedding, override or isolate (U+061C, U+200E, U+200F,
    U+202A-U+202E, U+2066-U+2069), or a lone surrogate.
    """
    match = _UNSAFE_CHARS.search(text)
    if match is None:
        return None
    return match.start(), char_kind(match.group())


def error_problem(message: str) -> str | None:
    """Why an error message cannot be printed as one line, or None.

    Only a newline counts here: the CLI makes every other control visible
    before it prints an error (what reaches stderr is checked by the CLI
    targets, with :func:`unsafe_char`).
    """
    if "\n" in message:
        return "error message holds a newline (a second, forged line on stderr)"
    return None
