"""Every regular expression that runs on untrusted text takes time linear in it.

The patterns are found, not listed: every compiled pattern (``re.Pattern`` or
:func:`foldctl.lazyre.lazy`) that a module of the claims check, the redaction, the input
formats, the loaders, the renderers, grep, the MCP server or the library keeps at module
level (also inside a detector object, a tuple or a dict), every pattern
:mod:`foldctl.lazyre` has handed out, and every pattern written as a literal in a call
(``re.findall(r"...", text)``) in those modules' source.  A pattern added later is held
to the same bound without a change here.

Each is run over its whole input (``finditer``, which tries every start, as ``search``
in a loop does) on hostile inputs built from its own characters: a long run of each
character it names, the same run with a character that ends no match after it, a run
of ``c`` and spaces, all its characters in turn, many short sentences.  Each input is
timed at n characters (best of three), then at 10n and 100n (once each: the long inputs
are most of the suite's time).  100n may take at most 300 times n (a linear pattern
takes about 100; a quadratic one 10,000), with a floor under the time of n so that
noise on a few microseconds cannot fail it.  A pattern that is already past the bound
at 10n fails there, so a quadratic one costs a second, not minutes.  A ratio past its
bound is timed again (best of seven, both lengths) before it fails: a busy machine can
stall one timing three times over, a quadratic pattern is thirty times past the bound.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from foldctl import lazyre
from foldctl.lazyre import LazyPattern

#: The modules whose patterns may see untrusted text (everything but the command line,
#: which parses options, and the test of nothing else).
PACKAGES = (
    "foldctl.claims",
    "foldctl.redact",
    "foldctl.formats",
    "foldctl.load",
    "foldctl.render",
    "foldctl.query",
    "foldctl.audit",
    "foldctl.graph",
    "foldctl.sources",
    "foldctl.mcp",
)
TOP_MODULES = ("foldctl.lazyre", "foldctl.jsoncodec", "foldctl.termsafe", "foldctl.digest")
N = 200
LIMIT = 300  # 100n over n; linear is ~100, quadratic ~10,000
FLOOR_S = 50e-6  # the time of n is taken as at least this
AT_10N = 60  # 10n over n past this is super-linear already (linear ~10, quadratic ~100)
ABSOLUTE_S = 2e-3  # below this, any ratio is noise
RETRIES = 7  # a ratio past its bound is timed again, best of this many, before it fails
BASICS = "aZ1 ._-\n"  # a letter, a digit, a space, a dot, an underscore, a dash, a newline
MAX_CHARACTERS = 24  # characters tried per pattern


def _modules() -> Iterator[Any]:
    for name in TOP_MODULES:
        yield importlib.import_module(name)
    for package in PACKAGES:
        root = importlib.import_module(package)
        yield root
        for info in pkgutil.walk_packages(root.__path__, f"{package}."):
            try:
                yield importlib.import_module(info.name)
            except ImportError:  # an optional dependency this install lacks
                continue


Key = tuple[str | bytes, int]


def _visit(value: Any, found: dict[Key, str], where: str, depth: int = 0) -> None:
    if isinstance(value, re.Pattern):
        found.setdefault((value.pattern, value.flags), where)
    elif isinstance(value, LazyPattern):
        source, flags = value.__dict__["_source"]
        found.setdefault((source, flags), where)
    elif depth >= 2 or isinstance(value, (str, bytes, type)) or inspect.ismodule(value):
        return
    elif isinstance(value, dict):
        for item in value.values():
            _visit(item, found, where, depth + 1)
    elif isinstance(value, (tuple, list, set, frozenset)):
        for item in value:
            _visit(item, found, where, depth + 1)
    else:
        for slot in getattr(type(value), "__slots__", ()):
            _visit(getattr(value, slot, None), found, where, depth + 1)


_CALLS = {"compile", "search", "match", "fullmatch", "findall", "finditer", "sub", "subn", "split"}


def _literal_patterns(path: Path) -> Iterator[tuple[Key, str]]:
    """``re.X(<literal>, ...)`` and ``lazy(<literal>, ...)`` calls in a module's source
    (a pattern built at run time from other text is not a literal and not here)."""
    tree = ast.parse(path.read_text("utf-8"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        is_re = (
            isinstance(func, ast.Attribute)
            and func.attr in _CALLS
            and isinstance(func.value, ast.Name)
            and func.value.id == "re"
        )
        is_lazy = isinstance(func, ast.Name) and func.id == "lazy"
        if not (is_re or is_lazy):
            continue
        first = node.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, (str, bytes)):
            flags = 0
            if len(node.args) > 1 and is_lazy:
                try:
                    flags = int(eval(compile(ast.Expression(node.args[1]), "", "eval"), vars(re)))
                except Exception:
                    flags = 0
            yield (first.value, flags), f"{path.name}:{node.lineno}"


def patterns() -> dict[Key, str]:
    found: dict[Key, str] = {}
    for module in _modules():
        for name, value in vars(module).items():
            if value is lazyre.REGISTRY:
                continue  # every lazy pattern, named below after the module that holds it
            _visit(value, found, f"{module.__name__}.{name}")
        source = getattr(module, "__file__", None)
        if source and source.endswith(".py"):
            for key, where in _literal_patterns(Path(source)):
                found.setdefault(key, where)
    for pattern in lazyre.REGISTRY:
        source, flags = pattern.__dict__["_source"]
        found.setdefault((source, flags), "lazyre")
    return found


def _characters(source: str, flags: int) -> list[str]:
    """Characters the pattern names (literals, class members and range ends), and a few
    of every kind (a letter, a digit, a space, a dot, an underscore, a dash, a newline)."""
    chars = set(BASICS)
    try:
        from re import _parser  # type: ignore[attr-defined]

        tree = _parser.parse(source, flags)
    except Exception:
        return sorted(chars)  # pragma: no cover - every pattern here parses

    def walk(items: Any) -> None:
        for op, arg in items:
            name = str(op)
            if name == "LITERAL":
                chars.add(chr(arg))
            elif name == "IN":
                for sub, value in arg:
                    if str(sub) == "LITERAL":
                        chars.add(chr(value))
                    elif str(sub) == "RANGE":
                        chars.update((chr(value[0]), chr(value[1])))
            elif name == "SUBPATTERN":
                walk(arg[-1])
            elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
                walk(arg[2])
            elif name == "BRANCH":
                for branch in arg[1]:
                    walk(branch)
            elif name in ("ASSERT", "ASSERT_NOT"):
                walk(arg[1])
            elif name == "ATOMIC_GROUP":
                walk(arg)

    walk(tree)
    named = sorted(chars - set(BASICS))
    step = max(1, len(named) // (MAX_CHARACTERS - len(BASICS)))
    return [*BASICS, *named[::step]]  # a large alternation: an even sample of its letters


def hostile(source: str, flags: int) -> Iterator[tuple[str, Any]]:
    """(name, builder of n characters) for each hostile input of this pattern."""
    chars = _characters(source, flags)
    every = "".join(chars)
    yield "every character in turn", lambda n: (every * (n // len(every) + 1))[:n] + "\x01"
    yield "sentences", lambda n: ("A b c. " * (n // 7 + 1))[:n]
    for c in chars:
        yield f"run of {c!r}", lambda n, c=c: c * n
        yield f"run of {c!r} then \\x01", lambda n, c=c: c * n + "\x01"
        yield f"run of {c!r} and spaces", lambda n, c=c: (c + " ") * (n // 2) + "\x01"


def _time(pattern: re.Pattern[Any], text: Any, tries: int = 3) -> float:
    best = float("inf")
    for _ in range(tries):
        start = time.perf_counter()
        for _match in pattern.finditer(text):
            pass
        best = min(best, time.perf_counter() - start)
    return best


FOUND = patterns()


def test_the_patterns_are_found() -> None:
    """The collection reaches every kind of place: detectors, claim rules, inline calls."""
    where = " ".join(FOUND.values())
    for place in ("foldctl.redact.detectors", "foldctl.claims.atoms", "check.py:"):
        assert place in where
    assert len(FOUND) > 100
    assert lazyre.REGISTRY
    assert all(p.__dict__["_source"] in FOUND for p in lazyre.REGISTRY)


def check_linear(source: str | bytes, flags: int) -> None:
    """Raise AssertionError, naming the input and the times, if ``source`` is super-linear."""
    pattern = re.compile(source, flags)
    text_source = source if isinstance(source, str) else source.decode("latin-1")
    for name, build in hostile(text_source, flags & ~re.LOCALE):

        def sample(n: int, build: Any = build) -> Any:
            text = build(n)
            return text if isinstance(source, str) else text.encode("utf-8", "surrogatepass")

        small = max(_time(pattern, sample(N)), FLOOR_S)
        for times, bound in ((10, AT_10N), (100, LIMIT)):
            large = _time(pattern, sample(times * N), tries=1)
            if large >= ABSOLUTE_S and large / small >= bound:
                # a busy machine can stall one timing; a super-linear pattern stays past
                # the bound when both are timed again, more times
                small = max(_time(pattern, sample(N), RETRIES), FLOOR_S)
                large = _time(pattern, sample(times * N), RETRIES)
            assert large < ABSOLUTE_S or large / small < bound, (
                f"{pattern.pattern!r} on {name}: {N} chars {small:.6f}s, "
                f"{times * N} chars {large:.6f}s"
            )


@pytest.mark.parametrize(
    "source",
    [
        r"[.!?]+[\"')\]]*\s+|\n\s*",  # the sentence end before it was made linear
        r"[\w.]+$",  # the word before it
        r"\d+(?:\.\d+)?x\.",  # the retina suffix
    ],
)
def test_the_check_finds_a_quadratic_pattern(source: str) -> None:
    """Patterns that were made linear, as they were written before: the check fails each
    (so the check can fail)."""
    with pytest.raises(AssertionError, match="chars"):
        check_linear(source, 0)


@pytest.mark.parametrize(("source", "flags"), list(FOUND), ids=list(FOUND.values()))
def test_pattern_is_linear(source: str | bytes, flags: int) -> None:
    check_linear(source, flags)
