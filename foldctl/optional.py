"""Optional dependencies: imported where they are used, with one line that says how to
install them when they are missing (the way pandas' ``import_optional_dependency`` does).

The Parquet export and the engine adapters need the ``fleet`` extra (pyarrow, and
dask, distributed and duckdb for the engines), ``foldctl mcp`` the ``mcp`` extra (the
Model Context Protocol SDK); the core install never imports them.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType
from typing import Final

from foldctl.errors import MissingDependency

#: The extra that brings each optional package.
EXTRAS: Final = {
    "pyarrow": "fleet",
    "pyarrow.parquet": "fleet",
    "dask": "fleet",
    "dask.dataframe": "fleet",
    "pandas": "fleet",
    "mcp": "mcp",
    "anyio": "mcp",
}


def require(module: str, purpose: str) -> ModuleType:
    """Import ``module``, or raise :class:`MissingDependency` naming the extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise missing(module, purpose) from None


def ensure(module: str, purpose: str) -> None:
    """Raise :class:`MissingDependency` now, naming ``purpose``, if ``module`` is not
    installed (without importing it: the module that needs it imports it with
    :func:`require`)."""
    if importlib.util.find_spec(module.split(".")[0]) is None:
        raise missing(module, purpose)


def missing(module: str, purpose: str) -> MissingDependency:
    top = module.split(".")[0]
    extra = EXTRAS.get(module) or EXTRAS.get(top, "fleet")
    return MissingDependency(
        f"{purpose} needs {top}, which is not installed: pip install 'foldctl[{extra}]'"
    )
