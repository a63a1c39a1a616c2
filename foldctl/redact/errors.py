"""The redaction failures, as part of foldctl's one exception tree."""

from __future__ import annotations

from foldctl.errors import FoldctlError, UsageError

__all__ = ["RedactionError", "RulesError"]


class RedactionError(FoldctlError):
    """Redaction could not be completed, so nothing may be printed.

    Raised when a detector fails, or a value cannot be redacted (not JSON,
    nested too deeply, two keys that would become one).  The message never
    quotes the text being redacted, and the detector's own exception is not
    chained: its message could carry the very value it was looking at.
    """


class RulesError(UsageError):
    """A ``--redact-rules`` file (or a ``--redact-key-file``) foldctl cannot use.

    ``source`` names the file, ``where`` the place in it (a TOML key such as
    ``rule[2].pattern``, or ``line 3, column 7``), ``what`` what is wrong.
    """

    def __init__(self, source: str, where: str, what: str) -> None:
        self.source = source
        self.where = where
        self.what = what
        place = f"{source}: {where}" if where else source
        super().__init__(f"{place}: {what}")
