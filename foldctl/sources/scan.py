"""Expanding SOURCE arguments for commands that take many: directories and stores.

The rules (docs/findings.md, "Which files a directory scan checks"):

* Bytes in hand (standard input, read by the caller) are passed through.
* A directory is searched recursively, in sorted order, for checkpoint files
  (names ending in ``.json`` or ``.json.gz``), session files of other runtimes
  (``.jsonl``, ``.jsonl.gz``: Claude Code sessions, Codex rollouts) and SQLite session stores
  (names ending in ``.db``, ``.sqlite``, ``.sqlite3`` or ``.db3`` whose first
  bytes are the SQLite header).  Hidden files and directories (names starting
  with ``.``) are not entered, symbolic links to directories are not followed,
  and files matching an exclude pattern (by default ``*.expected.json``: test
  oracles and golden outputs, not checkpoints) are skipped and counted.
* A SQLite store, found in a directory or named directly, becomes one source
  per session (``STORE.db#SESSION_ID``).
* A pattern (an argument that names no file and holds ``*``, ``?`` or ``[``,
  quoted so the shell leaves it alone: ``'fleet/**/*.json.gz'``) is expanded
  here, in sorted order, ``**`` matching any number of folders: each match is
  taken as a directory scan takes what it finds (checkpoint files and stores by
  their names, directories walked, exclude patterns applied).  A pattern that
  matches nothing is an error, named.
* Anything else (a file, a missing path, ``STORE.db#SESSION``) is passed
  through unchanged: the loader reports what is wrong with it.

A file named explicitly is never excluded.  The order is the order of the
arguments, each expanded in sorted order, and does not depend on timing: the
commands that read sources in parallel answer in this order.
"""

from __future__ import annotations

import fnmatch
import glob
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Final

import msgspec

from foldctl.errors import FoldctlError, InputError
from foldctl.sources.files import RawSource, SourceSpec

#: File names a directory scan takes as sources: every input format's (docs/runtimes.md).
#: Which format a file is, is told by its bytes when it is read; a file none recognises
#: is passed over as the scan passes over JSON that is no checkpoint.
CHECKPOINT_SUFFIXES: Final = (".json", ".json.gz", ".jsonl", ".jsonl.gz")
_LOOKED_FOR: Final = "*.json, *.json.gz, *.jsonl, *.jsonl.gz"
STORE_SUFFIXES: Final = (".db", ".sqlite", ".sqlite3", ".db3")
#: Skipped in directory scans unless named explicitly: oracle / golden files beside checkpoints.
DEFAULT_EXCLUDES: Final = ("*.expected.json",)


class Expansion(msgspec.Struct, frozen=True):
    """What SOURCE arguments expand to, in order."""

    #: a source to read, or why an argument could not be expanded (an unreadable or
    #: empty directory, a store that cannot be listed)
    entries: tuple[SourceSpec | FoldctlError, ...]
    #: files a directory scan passed over because they match an exclude pattern
    skipped: tuple[str, ...] = ()
    #: the sources found by walking a directory (not named on the command line): one that
    #: turns out not to be a checkpoint at all is passed over, not reported as unreadable
    from_directories: frozenset[str] = frozenset()

    @property
    def sources(self) -> list[SourceSpec]:
        return [e for e in self.entries if isinstance(e, (str, RawSource))]

    @property
    def errors(self) -> list[FoldctlError]:
        return [e for e in self.entries if isinstance(e, FoldctlError)]


def _excluded(name: str, relative: str, patterns: Sequence[str]) -> bool:
    return any(fnmatch.fnmatchcase(name, p) or fnmatch.fnmatchcase(relative, p) for p in patterns)


def _is_store(path: str) -> bool:
    # sqlite3 is loaded only where a store may be: a folder of checkpoints never pays for it
    from foldctl.sources.store import is_store

    return is_store(path)


class _Scan:
    def __init__(self, excludes: Sequence[str]) -> None:
        self.excludes = tuple(excludes)
        self.entries: list[SourceSpec | FoldctlError] = []
        self.skipped: list[str] = []
        self.walked: set[str] = set()

    def add_store(self, path: str) -> None:
        from foldctl.sources.store import list_session_sources

        try:
            self.entries.extend(list_session_sources(path))
        except FoldctlError as e:
            self.entries.append(e)

    def add_argument(self, arg: SourceSpec) -> None:
        if isinstance(arg, RawSource):
            self.entries.append(arg)
        elif os.path.isdir(arg):
            self.add_directory(arg)
        elif _is_store(arg):
            self.add_store(arg)
        elif is_pattern(arg):
            self.add_pattern(arg)
        else:
            self.entries.append(arg)

    def add_found(self, path: str, name: str, relative: str) -> None:
        """A file met in a directory walk or by a pattern: a checkpoint or a store by its
        name, unless an exclude pattern skips it; anything else is not looked at."""
        lowered = name.lower()
        if lowered.endswith(CHECKPOINT_SUFFIXES):
            if _excluded(name, relative, self.excludes):
                self.skipped.append(path)
            else:
                self.entries.append(path)
                self.walked.add(path)
        elif lowered.endswith(STORE_SUFFIXES) and _is_store(path):
            if _excluded(name, relative, self.excludes):
                self.skipped.append(path)
            else:
                self.add_store(path)

    def add_pattern(self, pattern: str) -> None:
        found_before = len(self.entries)
        skipped_before = len(self.skipped)
        for path in sorted(glob.glob(pattern, recursive=True)):
            if os.path.isdir(path):
                self.add_directory(path)
            else:
                self.add_found(path, os.path.basename(path), Path(path).as_posix())
        if len(self.entries) == found_before:
            skipped = len(self.skipped) - skipped_before
            note = f"; {skipped} matching file(s) skipped by exclude patterns" if skipped else ""
            self.entries.append(
                InputError(
                    pattern,
                    "",
                    f"no checkpoint matches this pattern: looked for {_LOOKED_FOR} and "
                    f"SQLite stores ({', '.join('*' + s for s in STORE_SUFFIXES)}){note}",
                )
            )

    def add_directory(self, top: str) -> None:
        found_before = len(self.entries)
        skipped_before = len(self.skipped)
        problems: list[OSError] = []
        for root, dirs, files in os.walk(top, onerror=problems.append):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(files):
                if name.startswith("."):
                    continue
                path = os.path.join(root, name)
                self.add_found(path, name, Path(os.path.relpath(path, top)).as_posix())
        for problem in problems:
            where = problem.filename or top
            self.entries.append(
                InputError(str(where), "", f"cannot list the directory: {problem.strerror}")
            )
        if len(self.entries) == found_before:
            skipped = len(self.skipped) - skipped_before
            note = f"; {skipped} matching file(s) skipped by exclude patterns" if skipped else ""
            self.entries.append(
                InputError(
                    top,
                    "",
                    f"no checkpoints found in this directory: looked for {_LOOKED_FOR} "
                    f"and SQLite stores ({', '.join('*' + s for s in STORE_SUFFIXES)}){note}",
                )
            )


def is_pattern(arg: str) -> bool:
    """An argument to expand as a pattern: it names no file and holds ``*``, ``?`` or ``[``."""
    return any(c in arg for c in "*?[") and not os.path.lexists(arg)


def source_sizes(entries: Sequence[SourceSpec | FoldctlError]) -> list[int]:
    """About how many bytes each source is, to weigh progress: a file's size, bytes in
    hand, a store's size shared among the sessions taken from it (0 when unknown)."""
    from foldctl.sources.store import split_source

    def store_of(entry: str) -> str | None:
        try:
            target = split_source(entry) if "#" in entry else None
        except FoldctlError:
            return None
        return None if target is None or target.session_id is None else target.path

    stores = [store_of(e) if isinstance(e, str) else None for e in entries]
    sessions: dict[str, int] = {}
    for store in stores:
        if store is not None:
            sessions[store] = sessions.get(store, 0) + 1
    sizes: list[int] = []
    for entry, store in zip(entries, stores, strict=True):
        if isinstance(entry, FoldctlError):
            sizes.append(0)
        elif isinstance(entry, RawSource):
            sizes.append(len(entry.data))
        else:
            try:
                size = os.stat(entry if store is None else store).st_size
            except OSError:
                size = 0
            sizes.append(size if store is None else size // sessions[store])
    return sizes


def scan_sources(
    args: Sequence[SourceSpec], excludes: Sequence[str] = DEFAULT_EXCLUDES
) -> Expansion:
    """Expand SOURCE arguments (files, bytes in hand, directories, stores) into sources."""
    scan = _Scan(excludes)
    for arg in args:
        scan.add_argument(arg)
    return Expansion(tuple(scan.entries), tuple(scan.skipped), frozenset(scan.walked))
