"""What the server may read: its roots, and every path checked against them.

A root is a file, a folder or a SQLite store, resolved once when the server starts
(symbolic links followed).  A path a client names is taken as the command line takes
it (relative to the server's working directory), refused when it holds a ``..``
component, resolved with every symbolic link followed, and served only when what it
resolves to is a root or lies under a folder root.  A folder is read only when no
symbolic link in it (outside hidden entries, which a folder scan never enters) leads
outside the roots, so a scan of it cannot be led out either.  Nothing here reads a
checkpoint: it names and checks paths.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

import msgspec

import foldctl
from foldctl.errors import InputError, UsageError


class Refused(InputError):
    """A path the server does not read: outside its roots, or spelled with ``..``."""


def _has_dotdot(path: str) -> bool:
    return ".." in Path(path).parts


def _store_split(spec: str) -> tuple[str, str]:
    """``STORE.db#SESSION`` as (the file, ``#SESSION``); a path that exists as a file, or
    has no ``#`` after an existing file, is all file."""
    if os.path.lexists(spec) or "#" not in spec:
        return spec, ""
    head = spec
    while "#" in head:
        head = head.rsplit("#", 1)[0]
        if os.path.isfile(head):
            return head, spec[len(head) :]
    return spec, ""


class Roots(msgspec.Struct, frozen=True):
    """The resolved roots, in the order given."""

    paths: tuple[str, ...]

    @classmethod
    def of(cls, given: Sequence[str]) -> Roots:
        """The roots named on the command line, each resolved; one that does not exist
        or spells ``..`` is refused by name."""
        if not given:
            raise UsageError(
                "no ROOT given, and none of the default session folders exists "
                f"({', '.join(foldctl.SESSION_FOLDERS)}); name the files or folders to serve"
            )
        resolved: list[str] = []
        for root in given:
            if _has_dotdot(root):
                raise UsageError(f"ROOT {root!r}: '..' is not allowed; give the folder itself")
            path = os.path.expanduser(root)
            if not os.path.exists(path):
                raise InputError(root, "", "no such file or folder to serve")
            real = os.path.realpath(path)
            if real not in resolved:
                resolved.append(real)
        return cls(tuple(resolved))

    def holds(self, real: str) -> bool:
        """Whether the resolved path ``real`` is a root or lies under a folder root."""
        for root in self.paths:
            if real == root:
                return True
            if os.path.isdir(root) and real.startswith(root.rstrip(os.sep) + os.sep):
                return True
        return False

    def check(self, spec: str) -> str:
        """The resolved path (``#SESSION`` kept) the server reads for ``spec``, or
        :class:`Refused` naming why not."""
        if not isinstance(spec, str) or not spec or "\x00" in spec:
            raise Refused(str(spec), "", "not a path")
        if _has_dotdot(spec):
            raise Refused(spec, "", "refused: '..' is not allowed in a path the server reads")
        path, session = _store_split(os.path.expanduser(spec))
        try:
            real = os.path.realpath(path, strict=True)
        except FileNotFoundError:
            raise InputError(spec, "", "no such file") from None
        except (OSError, ValueError) as e:
            why = getattr(e, "strerror", None) or e
            raise InputError(spec, "", f"cannot be read: {why}") from None
        if not self.holds(real):
            raise Refused(spec, "", f"refused: outside the roots this server reads ({self})")
        if os.path.isdir(real):
            self.check_folder(real)
        return real + session

    def check_folder(self, folder: str) -> None:
        """Refuse a folder in which a symbolic link leads outside the roots (hidden entries
        and linked folders are never entered by a scan, as here)."""
        for top, dirs, files in os.walk(folder):
            kept = []
            for name in sorted(dirs):
                if name.startswith("."):
                    continue
                if os.path.islink(os.path.join(top, name)):
                    continue  # a scan does not follow a linked folder
                kept.append(name)
            dirs[:] = kept
            for name in sorted(files):
                if name.startswith("."):
                    continue
                path = os.path.join(top, name)
                if os.path.islink(path) and not self.holds(os.path.realpath(path)):
                    raise Refused(
                        folder,
                        "",
                        f"refused: {path} is a link that leads outside the roots this "
                        "server reads; serve its target as a root too, or remove the link",
                    )

    def each(self, given: Iterable[str] | None) -> list[str]:
        """The sources a client named (each checked), or every root."""
        if given is None:
            for root in self.paths:
                if os.path.isdir(root):
                    self.check_folder(root)
            return list(self.paths)
        return [self.check(spec) for spec in given]

    def __str__(self) -> str:
        return ", ".join(self.paths)
