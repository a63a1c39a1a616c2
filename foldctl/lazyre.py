"""Regular expressions compiled on first use.

The claim rules and the redaction detectors declare some sixty patterns, a few of them
large alternations; compiled when their modules are imported they cost tens of
milliseconds of the start of every command that imports them, used or not.
:func:`lazy` returns a stand-in for a compiled pattern that compiles it the first time
any of its methods or attributes is used, then keeps each one it was asked for on
itself, so a later ``match`` costs what it costs on the compiled pattern.  Its source is
``pattern`` without compiling (a pattern built from another's source stays lazy), and it
pickles as its source.
"""

from __future__ import annotations

import re
from typing import Any, AnyStr, cast, overload

#: Every pattern :func:`lazy` has handed out, in order (tests/unit/test_regex_linear.py
#: holds each to linear time; a pattern is a few hundred bytes until compiled).
REGISTRY: list[LazyPattern] = []


class LazyPattern:
    """A :class:`re.Pattern` compiled when first used (see the module doc)."""

    def __init__(self, source: str | bytes, flags: int = 0) -> None:
        self.__dict__["_source"] = (source, flags)
        REGISTRY.append(self)

    @property
    def pattern(self) -> str | bytes:
        """The source, as :attr:`re.Pattern.pattern`, without compiling it."""
        source: str | bytes = self.__dict__["_source"][0]
        return source

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # copy, pickle and friends probe for these: not ours
            raise AttributeError(name)
        compiled = self.__dict__.get("_compiled")
        if compiled is None:
            compiled = self.__dict__["_compiled"] = re.compile(*self.__dict__["_source"])
        value = getattr(compiled, name)
        self.__dict__[name] = value  # the next use is a plain attribute
        return value

    def __reduce__(self) -> tuple[type[LazyPattern], tuple[str | bytes, int]]:
        source, flags = self.__dict__["_source"]
        return LazyPattern, (source, flags)

    def __repr__(self) -> str:
        return f"lazy({self.pattern!r})"


@overload
def lazy(source: str, flags: int = 0) -> re.Pattern[str]: ...


@overload
def lazy(source: bytes, flags: int = 0) -> re.Pattern[bytes]: ...


def lazy(source: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """``re.compile(source, flags)``, compiled when first used."""
    # typed as what it stands in for: every use goes through to it
    return cast("re.Pattern[AnyStr]", LazyPattern(source, flags))
