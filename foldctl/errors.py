"""The one exception tree for expected failures, and the exit codes."""

from __future__ import annotations

from enum import IntEnum

from foldctl.termsafe import one_line


class ExitStatus(IntEnum):
    OK = 0
    FOUND = 1  # verify findings, grep no match, diff differences
    ERROR = 2  # usage error or unreadable input


class FoldctlError(Exception):
    """An expected failure: one line on stderr and exit status 2.

    Its text is always one line a terminal shows as written: a value quoted in it
    (a file name, a key, a field's content) has its line breaks and control
    characters escaped, so it can neither start a second, forged error line nor
    drive the terminal.
    """

    exit_status = ExitStatus.ERROR
    #: The parameter of the library call that gets past this failure, if one does
    #: (``force``, ``replays``): the command line names its option, the library never does.
    remedy = ""

    def __str__(self) -> str:
        return one_line(super().__str__())


class InputError(FoldctlError):
    """Input that cannot be read as a checkpoint.

    ``source`` names the file (or ``<stdin>``, or ``STORE.db#SESSION``),
    ``where`` the place in it (a JSON path such as ``folded[3].messages[7].content``
    or ``byte 1234``), and ``what`` what was found and what was expected.
    """

    def __init__(self, source: str, where: str, what: str) -> None:
        # Each part may quote the input (a file name, a key): kept one safe line each.
        source, where, what = one_line(source), one_line(where), one_line(what)
        self.source = source
        self.where = where
        self.what = what
        place = f"{source}: {where}" if where else source
        super().__init__(f"{place}: {what}")

    def __reduce__(self) -> tuple[type[InputError], tuple[str, str, str]]:
        # Pickled with its three parts, so a worker process can hand it back.
        return (type(self), (self.source, self.where, self.what))


class NotACheckpoint(InputError):
    """JSON that is not a conversation checkpoint at all (no ``version`` and ``history``,
    no envelope ``format``): a directory scan passes over such files and counts them."""


class UsageError(FoldctlError):
    """A command-line argument foldctl cannot act on (a bad locator, say)."""


class MissingDependency(FoldctlError):
    """An optional package a feature needs is not installed; the message says how to
    install it (``pip install 'foldctl[fleet]'``)."""


def cannot_read(
    error: OSError,
    expected: str,
    *,
    missing: str = "no such file",
    denied: str = "permission denied",
) -> str:
    """What an :class:`OSError` met opening a file means, as the ``what`` of an error: the
    file is missing, a directory where ``expected`` was, not readable, or the system's
    reason."""
    if isinstance(error, FileNotFoundError):
        return missing
    if isinstance(error, IsADirectoryError):
        return f"is a directory; expected {expected}"
    if isinstance(error, PermissionError):
        return denied
    return f"cannot read: {error.strerror or type(error).__name__}"
