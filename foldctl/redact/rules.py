"""The ``--redact-rules`` file: named patterns to redact, and values never to redact.

A TOML file::

    [[rule]]
    name = "employee_id"          # the kind in the placeholder: [redacted:employee_id:…]
    pattern = 'EMP-\\d{6}'        # a Python regular expression
    group = 0                     # optional: the group to redact (number or name), default 0
    ignore_case = false           # optional

    [allow]
    values = ["support@acme.example"]          # exact values never redacted
    patterns = ['[a-z0-9.-]+@acme\\.example']  # regexes a whole value must match

Every mistake is one line naming the file and the TOML key (``rule[1].pattern``)
or the line and column of a syntax error; unknown keys are mistakes too, so a
misspelt ``patern`` is never silently ignored.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Final

import msgspec

from foldctl.errors import cannot_read
from foldctl.lazyre import lazy
from foldctl.redact.detectors import DETECTORS, Detector
from foldctl.redact.errors import RulesError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

__all__ = ["Rule", "Rules", "load_rules", "parse_rules"]

#: A kind name: it appears inside placeholders and in --redact-only lists.
KIND_NAME: Final = lazy(r"[a-z][a-z0-9_]{0,31}")

#: Custom rules rank above the generic built-ins (auth_header, email, phone)
#: and below the vendor-specific credential shapes when two matches tie.
RULE_SPECIFICITY: Final = 65


class Rule(msgspec.Struct, frozen=True):
    """A named pattern: every match (or its ``group``) is redacted as kind ``name``."""

    name: str
    pattern: re.Pattern[str]
    group: int | str = 0

    def find(self, text: str) -> Iterator[tuple[int, int]]:
        for match in self.pattern.finditer(text):
            start, end = match.span(self.group)
            if start < end:
                yield start, end

    def detector(self) -> Detector:
        return Detector(self.name, f"rule {self.name}", self.find, _same, RULE_SPECIFICITY)


def _same(value: str) -> str:
    return value


class Rules(msgspec.Struct, frozen=True):
    """The contents of a rules file: extra detectors and the allow-list."""

    rules: tuple[Rule, ...] = ()
    allow_values: frozenset[str] = msgspec.field(default_factory=frozenset)
    allow_patterns: tuple[re.Pattern[str], ...] = ()

    def allows(self, value: str) -> bool:
        """True when ``value`` is on the allow-list (exactly, or by a whole-value pattern)."""
        if value in self.allow_values:
            return True
        return any(p.fullmatch(value) for p in self.allow_patterns)


def load_rules(path: Path) -> Rules:
    """Read and check a rules file; every problem is a :class:`RulesError` naming it."""
    source = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise RulesError(source, f"byte {exc.start}", "not UTF-8 text") from None
    except OSError as exc:
        raise RulesError(source, "", cannot_read(exc, "a TOML rules file")) from None
    return parse_rules(text, source=source)


_TOML_PLACE: Final = lazy(r"(?<!\s)\s*\(at line (\d+), column (\d+)\)\s*$")


def parse_rules(text: str, *, source: str = "<rules>") -> Rules:
    """Check the TOML text of a rules file (``source`` names it in errors)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        place = _TOML_PLACE.search(message)
        where = f"line {place.group(1)}, column {place.group(2)}" if place else ""
        what = _TOML_PLACE.sub("", message) if place else message
        raise RulesError(source, where, f"not valid TOML: {what}") from None
    return _check(data, source)


def _check(data: Mapping[str, Any], source: str) -> Rules:
    unknown = sorted(set(data) - {"rule", "allow"})
    if unknown:
        raise RulesError(source, unknown[0], "unknown key; expected [[rule]] or [allow]")
    raw_rules = data.get("rule", [])
    if not isinstance(raw_rules, list):
        raise RulesError(source, "rule", "expected an array of tables ([[rule]])")
    rules: list[Rule] = []
    names: set[str] = set()
    for i, raw in enumerate(raw_rules):
        rule = _check_rule(raw, f"rule[{i}]", source)
        if rule.name in names:
            raise RulesError(source, f"rule[{i}].name", f"{rule.name!r} is defined twice")
        names.add(rule.name)
        rules.append(rule)
    values: frozenset[str] = frozenset()
    patterns: tuple[re.Pattern[str], ...] = ()
    if "allow" in data:
        allow = data["allow"]
        if not isinstance(allow, dict):
            raise RulesError(source, "allow", "expected a table ([allow])")
        extra = sorted(set(allow) - {"values", "patterns"})
        if extra:
            raise RulesError(
                source, f"allow.{extra[0]}", "unknown key; expected values or patterns"
            )
        values = frozenset(_strings(allow.get("values", []), "allow.values", source))
        patterns = tuple(
            _compile(p, f"allow.patterns[{j}]", source, 0)
            for j, p in enumerate(_strings(allow.get("patterns", []), "allow.patterns", source))
        )
    return Rules(tuple(rules), values, patterns)


def _check_rule(raw: object, where: str, source: str) -> Rule:
    if not isinstance(raw, dict):
        raise RulesError(source, where, "expected a table with name and pattern")
    extra = sorted(set(raw) - {"name", "pattern", "group", "ignore_case"})
    if extra:
        raise RulesError(
            source, f"{where}.{extra[0]}", "unknown key; expected name, pattern, group, ignore_case"
        )
    name = raw.get("name")
    if not isinstance(name, str):
        raise RulesError(source, f"{where}.name", "missing or not a string")
    if not KIND_NAME.fullmatch(name):
        raise RulesError(
            source,
            f"{where}.name",
            f"{name!r} is not a kind name: lower-case letters, digits and _, "
            "starting with a letter, at most 32",
        )
    if name in DETECTORS:
        raise RulesError(source, f"{where}.name", f"{name!r} is a built-in detector's name")
    pattern = raw.get("pattern")
    if not isinstance(pattern, str):
        raise RulesError(source, f"{where}.pattern", "missing or not a string")
    ignore_case = raw.get("ignore_case", False)
    if not isinstance(ignore_case, bool):
        raise RulesError(source, f"{where}.ignore_case", "expected true or false")
    compiled = _compile(pattern, f"{where}.pattern", source, re.IGNORECASE if ignore_case else 0)
    if compiled.fullmatch(""):
        raise RulesError(source, f"{where}.pattern", "matches the empty string")
    group = raw.get("group", 0)
    if isinstance(group, bool) or not isinstance(group, (int, str)):
        raise RulesError(source, f"{where}.group", "expected a group number or name")
    if isinstance(group, int) and not 0 <= group <= compiled.groups:
        raise RulesError(
            source, f"{where}.group", f"no group {group}: the pattern has {compiled.groups}"
        )
    if isinstance(group, str) and group not in compiled.groupindex:
        raise RulesError(source, f"{where}.group", f"no group named {group!r} in the pattern")
    return Rule(name, compiled, group)


def _strings(value: object, where: str, source: str) -> list[str]:
    if not isinstance(value, list):
        raise RulesError(source, where, "expected an array of strings")
    for j, item in enumerate(value):
        if not isinstance(item, str):
            raise RulesError(source, f"{where}[{j}]", "expected a string")
    return list(value)


def _compile(pattern: str, where: str, source: str, flags: int) -> re.Pattern[str]:
    try:
        return re.compile(pattern, flags)
    except re.error as exc:
        at = f" at position {exc.pos}" if exc.pos is not None else ""
        raise RulesError(source, where, f"bad regular expression: {exc.msg}{at}") from None
