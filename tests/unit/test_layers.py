"""The layering of docs/architecture.md, enforced by reading every import with ``ast``.

Function-level imports count; imports under ``if TYPE_CHECKING:`` do not (they never
run).  A new module must be given its floor in :data:`FLOORS`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import REPO

PACKAGE = REPO / "foldctl"

#: Each room's floor; an import may point only to the same floor or below.
FLOORS: dict[str, int] = {
    # the ground floor: plain data and pure functions
    "model": 0,
    "errors": 0,
    "fingerprint": 0,
    "digest": 0,
    "termsafe": 0,
    "jsoncodec": 0,
    "times": 0,
    "schemas": 0,
    "optional": 0,
    "sources": 1,
    "parallel": 1,
    "load": 2,
    "formats": 2,
    "graph": 3,
    "audit": 4,
    "claims": 5,
    "redact": 5,
    "query": 6,
    "api": 7,
    "__init__": 7,
    # the engines, behind the ``fleet`` extra: each a thin adapter over query.tables
    "arrow": 7,
    "parquet": 7,
    "dask": 7,
    "render": 8,
    "__main__": 9,
    "cli": 9,
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def room(module: str) -> str:
    """``foldctl.graph.walk`` -> ``graph``; ``foldctl`` -> ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _type_checking_nodes(tree: ast.Module) -> set[int]:
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                skipped.update(id(n) for n in ast.walk(child))
    return skipped


def imports(module: str) -> Iterator[tuple[str, int]]:
    """Every module ``module`` imports (foldctl's resolved to a module), with its line."""
    tree = ast.parse(MODULES[module].read_text("utf-8"))
    skipped = _type_checking_nodes(tree)
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
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
                yield (candidate if candidate in MODULES else base), node.lineno


def internal_edges() -> dict[str, set[str]]:
    return {
        module: {name for name, _ in imports(module) if name in MODULES and name != module}
        for module in MODULES
    }


def test_every_room_has_a_floor() -> None:
    assert {room(m) for m in MODULES} <= set(FLOORS), "give the new room a floor in FLOORS"


def test_imports_only_point_down() -> None:
    upward = [
        f"{module} -> {target}"
        for module, targets in internal_edges().items()
        for target in targets
        if FLOORS[room(target)] > FLOORS[room(module)]
    ]
    assert not upward, "imports that point up a floor:\n" + "\n".join(sorted(upward))


def test_no_import_cycles() -> None:
    edges = internal_edges()
    state: dict[str, int] = {}
    cycles: list[list[str]] = []
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
                cycles.append([*path[path.index(child) :], child])
            elif not state.get(child):
                state[child] = 1
                path.append(child)
                stack.append((child, iter(sorted(edges[child]))))
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


@pytest.mark.parametrize(
    ("forbidden", "allowed_rooms"),
    [
        ("typer", {"cli", "__main__"}),
        ("foldctl.cli", {"cli", "__main__"}),
        ("rich", {"render", "cli"}),
        ("foldctl.render", {"render", "cli"}),
        # the optional engines live in their own modules, behind the ``fleet`` extra
        ("pyarrow", {"arrow", "parquet", "dask"}),
        ("dask", {"dask"}),
        ("distributed", set()),
        ("duckdb", set()),
        ("pandas", {"dask"}),
    ],
)
def test_only_the_upper_floors_import_the_terminal(forbidden: str, allowed_rooms: set[str]) -> None:
    found = [
        f"{module}:{line} imports {name}"
        for module in MODULES
        if room(module) not in allowed_rooms
        for name, line in imports(module)
        if name == forbidden or name.startswith(forbidden + ".")
    ]
    assert not found, "\n".join(found)


def test_sources_and_load_know_nothing_above_them() -> None:
    above = ("foldctl.audit", "foldctl.query", "foldctl.render", "foldctl.cli", "foldctl.api")
    found = [
        f"{module}:{line} imports {name}"
        for module in MODULES
        if room(module) in ("sources", "load")
        for name, line in imports(module)
        if name.startswith(above)
    ]
    assert not found, "\n".join(found)


def _effects(tree: ast.Module) -> Iterator[tuple[str, int]]:
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("print", "input", "exit", "quit")
        ):
            yield f"{node.func.id}()", node.lineno
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "sys"
            and node.attr in ("stdin", "stdout", "stderr", "exit")
        ):
            yield f"sys.{node.attr}", node.lineno


def test_library_code_never_prints_reads_stdin_or_exits() -> None:
    found = [
        f"{module}:{line} uses {what}"
        for module, path in MODULES.items()
        if room(module) not in ("cli", "__main__")
        for what, line in _effects(ast.parse(path.read_text("utf-8")))
    ]
    assert not found, "\n".join(found)


def test_the_reader_sees_imports_inside_functions_and_skips_type_checking_ones() -> None:
    edges = internal_edges()
    assert "foldctl.graph.open" in edges["foldctl.cli.commands.show"]  # inside the command
    assert "foldctl.api" not in edges["foldctl"]  # only under TYPE_CHECKING
