"""The layering of docs/architecture.md, enforced by reading every import with ``ast``.

The floors, their rooms and the arrows allowed along a floor are read from
docs/architecture.md itself, so the doc and the rule cannot drift apart.  Every import
counts (inside functions too, and ``importlib.import_module``, ``__import__`` and
``foldctl.optional.require`` with a literal name) except those in the true branch of
exactly ``if TYPE_CHECKING:``, which never runs.  A new module must be given its floor
in the doc's table.  The last tests plant real violations in a copy of the package and
expect the check to find each one.
"""

from __future__ import annotations

import ast
import functools
import re
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support import REPO

PACKAGE = REPO / "foldctl"
ARCHITECTURE = REPO / "docs" / "architecture.md"

#: What a module under ``cli/`` may import of foldctl: the package face, the errors, the
#: renderers, the MCP server (which the ``mcp`` command starts) and the command line itself.
CLI_MAY_IMPORT = ("foldctl", "foldctl.errors", "foldctl.render", "foldctl.mcp", "foldctl.cli")
#: What a module under ``mcp/`` (the MCP server, the command line's peer) may import of
#: foldctl: the package face, the errors, the optional-package loader (its SDK comes
#: through it), the JSON writer, and the server itself.
MCP_MAY_IMPORT = (
    "foldctl",
    "foldctl.errors",
    "foldctl.optional",
    "foldctl.jsoncodec",
    "foldctl.mcp",
)


def _face_or_above(name: str, allowed: tuple[str, ...] = CLI_MAY_IMPORT) -> bool:
    return name == "foldctl" or any(name == a or name.startswith(a + ".") for a in allowed[1:])


#: The only modules that import rich: the terminal painter and the progress line.
RICH_MODULES = frozenset({"foldctl.render.terminal", "foldctl.cli.progress"})
#: Modules (and names) that only ``foldctl.optional.require`` hands out at run time.
OPTIONAL_CALLS = ("require", "optional.require", "foldctl.optional.require")

# --------------------------------------------------------------------------- the doc


@dataclass(frozen=True)
class Plan:
    """The floors of docs/architecture.md and the arrows it allows along a floor."""

    floors: dict[str, int]
    along: frozenset[tuple[str, str]]


def _ticked(text: str) -> list[str]:
    return re.findall(r"`([\w.]+)`", text)


def read_plan(doc: Path = ARCHITECTURE) -> Plan:
    """The table of floors (``| N | `room`, ... | ... |``) and the list under the heading
    "Along a floor" (``- `a`, `b` → `c`, `d```: each room on the left may import each room
    on the right)."""
    text = doc.read_text("utf-8")
    floors: dict[str, int] = {}
    for match in re.finditer(r"^\|\s*(\d+)\s*\|([^|]*)\|", text, re.MULTILINE):
        for name in _ticked(match.group(2)):
            floors[name] = int(match.group(1))
    section = re.search(r"^#+ Along a floor\n(.*?)(?=^#)", text, re.MULTILINE | re.DOTALL)
    assert floors and section, f"{doc}: no table of floors, or no 'Along a floor' section"
    along: set[tuple[str, str]] = set()
    for line in section.group(1).splitlines():
        if line.startswith("- ") and "→" in line:
            left, right = line[2:].split("→", 1)
            right = right.split("(", 1)[0]  # a reason in brackets may name rooms too
            along.update((a, b) for a in _ticked(left) for b in _ticked(right))
    return Plan(floors, frozenset(along))


# --------------------------------------------------------------------------- the code


def module_name(path: Path, package: Path) -> str:
    parts = [package.name, *path.relative_to(package).with_suffix("").parts]
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def modules_of(package: Path) -> dict[str, Path]:
    return {module_name(p, package): p for p in sorted(package.rglob("*.py"))}


MODULES = modules_of(PACKAGE)


def room(module: str) -> str:
    """``foldctl.graph.walk`` -> ``graph``; ``foldctl`` -> ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _is_type_checking(test: ast.expr) -> bool:
    """Exactly ``TYPE_CHECKING`` or ``typing.TYPE_CHECKING``: not ``not TYPE_CHECKING``,
    not ``TYPE_CHECKING or x``."""
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return (
        isinstance(test, ast.Attribute)
        and test.attr == "TYPE_CHECKING"
        and isinstance(test.value, ast.Name)
        and test.value.id == "typing"
    )


def type_checking_nodes(tree: ast.Module) -> set[int]:
    """The nodes in the true branch of an ``if TYPE_CHECKING:`` (its ``else`` runs)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                skipped.update(id(n) for n in ast.walk(child))
    return skipped


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


def _literal_import(node: ast.Call) -> str | None:
    """The module a call imports by a literal name: ``importlib.import_module("x")``,
    ``import_module("x")``, ``__import__("x")``, ``require("x", ...)``."""
    name = _dotted(node.func)
    known = ("importlib.import_module", "import_module", "__import__", *OPTIONAL_CALLS)
    if name not in known or not node.args:
        return None
    first = node.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value
    return None


@functools.cache
def _parse(text: str) -> ast.Module:
    """A module's tree (a copy of the package shares the trees of the files it did not
    change; nothing here changes a tree)."""
    return ast.parse(text)


@dataclass
class Source:
    """One module of a package, parsed once."""

    name: str
    path: Path
    is_package: bool

    def __post_init__(self) -> None:
        self.tree = _parse(self.path.read_text("utf-8"))

    def imports(
        self, modules: dict[str, Path], *, type_checking: bool = False
    ) -> Iterator[tuple[str, int]]:
        """Every module this one imports (foldctl's resolved to a module), with its line;
        ``type_checking`` counts the imports under ``if TYPE_CHECKING:`` too."""
        skipped = set() if type_checking else type_checking_nodes(self.tree)
        package = self.name if self.is_package else self.name.rpartition(".")[0]
        for node in ast.walk(self.tree):
            if id(node) in skipped:
                continue
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield alias.name, node.lineno
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                for alias in node.names:
                    candidate = f"{base}.{alias.name}"
                    yield (candidate if candidate in modules else base), node.lineno
            elif isinstance(node, ast.Call):
                name = _literal_import(node)
                if name is not None:
                    yield name, node.lineno


@dataclass
class House:
    """A package's modules and their imports, checked against a :class:`Plan`."""

    package: Path
    plan: Plan

    def __post_init__(self) -> None:
        self.modules = modules_of(self.package)
        self.sources = {
            name: Source(name, path, path.name == "__init__.py")
            for name, path in self.modules.items()
        }
        self._imports: dict[tuple[str, bool], list[tuple[str, int]]] = {}
        self._edges: dict[str, set[str]] = {}

    def imports(self, module: str, *, type_checking: bool = False) -> list[tuple[str, int]]:
        key = (module, type_checking)
        if key not in self._imports:
            found = self.sources[module].imports(self.modules, type_checking=type_checking)
            self._imports[key] = list(found)
        return self._imports[key]

    def edges(self) -> dict[str, set[str]]:
        if not self._edges:
            self._edges.update(
                (module, {n for n, _ in self.imports(module) if n in self.modules and n != module})
                for module in self.modules
            )
        return self._edges

    # ----------------------------------------------------------------- the rules

    def unplaced(self) -> list[str]:
        return sorted({room(m) for m in self.modules} - set(self.plan.floors))

    def upward(self) -> list[str]:
        floors = self.plan.floors
        return sorted(
            f"{module} -> {target}"
            for module, targets in self.edges().items()
            for target in targets
            if floors[room(target)] > floors[room(module)]
        )

    def along(self) -> list[str]:
        """Imports between two rooms of one floor that the doc does not allow."""
        floors = self.plan.floors
        return sorted(
            f"{module} -> {target}"
            for module, targets in self.edges().items()
            for target in targets
            if room(module) != room(target)
            and floors[room(target)] == floors[room(module)]
            and (room(module), room(target)) not in self.plan.along
        )

    def cycles(self) -> list[list[str]]:
        edges = self.edges()
        state: dict[str, int] = {}
        found: list[list[str]] = []
        for start in sorted(edges):
            if state.get(start):
                continue
            stack: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(edges[start])))]
            path = [start]
            state[start] = 1
            while stack:
                node, children = stack[-1]
                child = next(children, None)
                if child is None:
                    stack.pop()
                    path.pop()
                    state[node] = 2
                elif state.get(child) == 1:
                    found.append([*path[path.index(child) :], child])
                elif not state.get(child):
                    state[child] = 1
                    path.append(child)
                    stack.append((child, iter(sorted(edges[child]))))
        return found

    def importers_of(self, forbidden: str, allowed: set[str] | frozenset[str]) -> list[str]:
        """Imports of ``forbidden`` (or a module under it) by a module outside ``allowed``
        (rooms, or whole module names)."""
        return [
            f"{module}:{line} imports {name}"
            for module in self.modules
            if room(module) not in allowed and module not in allowed
            for name, line in self.imports(module)
            if name == forbidden or name.startswith(forbidden + ".")
        ]

    def cli_beside_the_face(self) -> list[str]:
        """Imports by ``cli/`` of anything of foldctl but its face, errors, render and cli
        (types included: the command line names the library's types through its face)."""
        return [
            f"{module}:{line} imports {name}"
            for module in self.modules
            if room(module) == "cli"
            for name, line in self.imports(module, type_checking=True)
            if name.split(".")[0] == "foldctl" and not _face_or_above(name)
        ]

    def mcp_beside_the_face(self) -> list[str]:
        """Imports by ``mcp/`` of anything of foldctl but what :data:`MCP_MAY_IMPORT`
        names (types included)."""
        return [
            f"{module}:{line} imports {name}"
            for module in self.modules
            if room(module) == "mcp"
            for name, line in self.imports(module, type_checking=True)
            if name.split(".")[0] == "foldctl" and not _face_or_above(name, MCP_MAY_IMPORT)
        ]

    def effects(self) -> list[str]:
        """Library code (all but ``cli/`` and ``__main__``) that prints, reads standard input
        or exits, however spelled."""
        return [
            f"{module}:{line} uses {what}"
            for module, source in self.sources.items()
            if room(module) not in ("cli", "__main__")
            for what, line in effects_in(source.tree)
        ]

    def violations(self) -> list[str]:
        """Every broken rule, one line each (what the tests below check one by one)."""
        out = [f"no floor for room {r}" for r in self.unplaced()]
        if out:
            return out
        out += [f"points up: {e}" for e in self.upward()]
        out += [f"along a floor: {e}" for e in self.along()]
        out += ["cycle: " + " -> ".join(c) for c in self.cycles()]
        for forbidden, allowed in TERMINAL_RULES:
            out += self.importers_of(forbidden, allowed)
        out += self.importers_of("rich", RICH_MODULES)
        out += self.cli_beside_the_face()
        out += self.mcp_beside_the_face()
        out += self.effects()
        return out


#: What a name of the ``builtins`` or ``sys`` module must never be in library code.
_FORBIDDEN_BUILTINS = frozenset({"print", "input", "exit", "quit", "SystemExit", "breakpoint"})
_FORBIDDEN_SYS = frozenset({"stdin", "stdout", "stderr", "exit", "__stdin__", "__stdout__"})


def effects_in(tree: ast.Module) -> Iterator[tuple[str, int]]:
    """``print``/``input``/``exit``/``SystemExit`` and ``sys.exit``/``sys.stdin``/... used
    in any form: called or not, through an alias of ``sys`` or ``builtins``, imported by
    name (``from sys import exit``), or by ``getattr`` with a literal name."""
    aliases: dict[str, str] = {}  # local name -> "sys" / "builtins" / "sys.exit" ...
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in ("sys", "builtins"):
                    aliases[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.module in ("sys", "builtins"):
            forbidden = _FORBIDDEN_SYS if node.module == "sys" else _FORBIDDEN_BUILTINS
            for alias in node.names:
                if alias.name in forbidden or alias.name == "*":
                    yield f"from {node.module} import {alias.name}", node.lineno
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in (*_FORBIDDEN_BUILTINS, "__builtins__"):
            yield node.id, node.lineno
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            module = aliases.get(node.value.id)
            if module == "sys" and node.attr in _FORBIDDEN_SYS:
                yield f"sys.{node.attr}", node.lineno
            elif module == "builtins" and node.attr in _FORBIDDEN_BUILTINS:
                yield f"builtins.{node.attr}", node.lineno
        elif (
            isinstance(node, ast.Call)
            and _dotted(node.func) == "getattr"
            and len(node.args) >= 2
            and isinstance(node.args[0], ast.Name)
            and aliases.get(node.args[0].id) in ("sys", "builtins")
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value in (_FORBIDDEN_SYS | _FORBIDDEN_BUILTINS)
        ):
            yield f"getattr({aliases[node.args[0].id]}, {node.args[1].value!r})", node.lineno


#: (a module, the rooms that alone may import it)
TERMINAL_RULES: tuple[tuple[str, set[str]], ...] = (
    ("typer", {"cli", "__main__"}),
    ("foldctl.cli", {"cli", "__main__"}),
    ("foldctl.render", {"render", "cli"}),
    # the optional engines live in their own modules, behind the ``fleet`` extra
    ("pyarrow", {"arrow", "parquet", "dask"}),
    ("dask", {"dask"}),
    ("distributed", set()),
    ("duckdb", set()),
    ("pandas", {"dask"}),
    # the MCP server: its SDK (the ``mcp`` extra) and the server itself
    ("mcp", {"mcp"}),
    ("anyio", {"mcp"}),
    ("foldctl.mcp", {"mcp", "cli"}),
)


@pytest.fixture(scope="module")
def house() -> House:
    return House(PACKAGE, read_plan())


# --------------------------------------------------------------------------- the rules


def test_every_room_has_a_floor(house: House) -> None:
    assert not house.unplaced(), "give the new room a floor in docs/architecture.md"


def test_imports_only_point_down(house: House) -> None:
    upward = house.upward()
    assert not upward, "imports that point up a floor:\n" + "\n".join(upward)


def test_rooms_of_one_floor_import_each_other_only_as_the_doc_says(house: House) -> None:
    along = house.along()
    assert not along, "imports along a floor the doc does not allow:\n" + "\n".join(along)


def test_claims_and_redaction_are_independent(house: House) -> None:
    plan = house.plan
    assert plan.floors["claims"] == plan.floors["redact"]
    assert ("claims", "redact") not in plan.along and ("redact", "claims") not in plan.along


def test_no_import_cycles(house: House) -> None:
    cycles = house.cycles()
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


@pytest.mark.parametrize(("forbidden", "allowed_rooms"), TERMINAL_RULES)
def test_only_the_upper_floors_import_the_terminal(
    house: House, forbidden: str, allowed_rooms: set[str]
) -> None:
    found = house.importers_of(forbidden, allowed_rooms)
    assert not found, "\n".join(found)


def test_rich_is_imported_by_the_terminal_painter_and_the_progress_line_alone(
    house: House,
) -> None:
    found = house.importers_of("rich", RICH_MODULES)
    assert not found, "\n".join(found)


def test_sources_load_and_formats_know_nothing_above_them(house: House) -> None:
    above = ("foldctl.audit", "foldctl.query", "foldctl.render", "foldctl.cli", "foldctl.api")
    found = [
        f"{module}:{line} imports {name}"
        for module in house.modules
        if room(module) in ("sources", "load", "formats")
        for name, line in house.imports(module)
        if name.startswith(above)
    ]
    assert not found, "\n".join(found)


def test_the_command_line_goes_through_the_public_face(house: House) -> None:
    found = house.cli_beside_the_face()
    assert not found, "the command line imports the library beside its face:\n" + "\n".join(found)


def test_the_mcp_server_goes_through_the_public_face(house: House) -> None:
    found = house.mcp_beside_the_face()
    assert not found, "the MCP server imports the library beside its face:\n" + "\n".join(found)


def test_library_code_never_prints_reads_stdin_or_exits(house: House) -> None:
    found = house.effects()
    assert not found, "\n".join(found)


def test_the_whole_check_passes(house: House) -> None:
    assert house.violations() == []


def test_the_reader_skips_the_face_s_type_checking_imports(house: House) -> None:
    assert "foldctl.api" not in house.edges()["foldctl"]  # only under TYPE_CHECKING


# --------------------------------------------------------------------------- the check checked


def _planted(tmp_path: Path, module: str, code: str) -> House:
    """A copy of the package with ``code`` added at the end of ``module`` (a path under
    the package)."""
    copy = Path(tempfile.mkdtemp(dir=tmp_path)) / "foldctl"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    target = copy / module
    target.write_text(target.read_text("utf-8") + "\n" + code, "utf-8")
    return House(copy, read_plan())


#: (where, what is planted, a piece of the violation the check must report)
PLANTED = [
    pytest.param(
        "graph/walk.py",
        "if not TYPE_CHECKING:\n    from foldctl.query.grep import search\n",
        "points up: foldctl.graph.walk -> foldctl.query.grep",
        id="import-under-not-TYPE_CHECKING",
    ),
    pytest.param(
        "graph/walk.py",
        "if TYPE_CHECKING or True:\n    import foldctl.audit.checks\n",
        "points up: foldctl.graph.walk -> foldctl.audit.checks",
        id="import-under-TYPE_CHECKING-or",
    ),
    pytest.param(
        "audit/checks.py",
        "import importlib\n\nLATER = importlib.import_module('foldctl.query.grep')\n",
        "points up: foldctl.audit.checks -> foldctl.query.grep",
        id="importlib-upward",
    ),
    pytest.param(
        "load/exact.py",
        "def _later():\n    return __import__('foldctl.api')\n",
        "points up: foldctl.load.exact -> foldctl.api",
        id="dunder-import-upward",
    ),
    pytest.param(
        "query/records.py",
        "import builtins\n\ndef _shout(text):\n    builtins.print(text)\n",
        "uses builtins.print",
        id="builtins-print",
    ),
    pytest.param(
        "audit/batch.py",
        "def _stop():\n    raise SystemExit(2)\n",
        "uses SystemExit",
        id="raise-SystemExit",
    ),
    pytest.param(
        "parallel.py",
        "from sys import exit as leave\n",
        "from sys import exit",
        id="from-sys-import-exit",
    ),
    pytest.param(
        "sources/files.py",
        "import sys as system\n\ndef _stdin():\n    return system.stdin.buffer.read()\n",
        "uses sys.stdin",
        id="aliased-sys-stdin",
    ),
    pytest.param(
        "render/text.py",
        "def _paint():\n    import rich\n    return rich\n",
        "imports rich",
        id="rich-outside-the-terminal-painter",
    ),
    pytest.param(
        "claims/check.py",
        "def _hide():\n    from foldctl.redact import Redactor\n    return Redactor\n",
        "along a floor: foldctl.claims.check -> foldctl.redact",
        id="claims-imports-redact",
    ),
    pytest.param(
        "mcp/tools.py",
        "def _inside():\n    from foldctl.graph.walk import walk\n    return walk\n",
        "foldctl.mcp.tools:",
        id="mcp-beside-the-face",
    ),
    pytest.param(
        "api.py",
        "def _serve():\n    import mcp.server\n    return mcp.server\n",
        "foldctl.api:",
        id="mcp-sdk-outside-the-server",
    ),
    pytest.param(
        "cli/commands/show.py",
        "def _inside():\n    from foldctl.graph.open import open_graph\n    return open_graph\n",
        "foldctl.cli.commands.show:",
        id="cli-beside-the-face",
    ),
]


@pytest.mark.parametrize(("module", "code", "expected"), PLANTED)
def test_each_planted_violation_fails_the_check(
    tmp_path: Path, module: str, code: str, expected: str
) -> None:
    found = _planted(tmp_path, module, code).violations()
    assert any(expected in line for line in found), found


def test_the_unplanted_copy_passes(tmp_path: Path) -> None:
    assert _planted(tmp_path, "model.py", "# nothing\n").violations() == []


def test_an_import_in_the_true_branch_of_type_checking_is_not_counted(tmp_path: Path) -> None:
    code = "if TYPE_CHECKING:\n    from foldctl.query.grep import Hit\nelse:\n    pass\n"
    assert _planted(tmp_path, "graph/walk.py", code).violations() == []
    code = "if TYPE_CHECKING:\n    pass\nelse:\n    from foldctl.query.grep import Hit\n"
    found = _planted(tmp_path, "graph/open.py", code).violations()
    assert "points up: foldctl.graph.open -> foldctl.query.grep" in found
