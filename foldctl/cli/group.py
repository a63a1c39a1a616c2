"""The root command group: every command known by name, each built when it is needed.

Building a command (putting its option groups in place, turning its signature into
click parameters) costs about a millisecond and a half, and importing what it runs
costs more: ``foldctl show`` builds ``show`` alone, ``foldctl --help`` reads each
command's docstring and builds none, and completion builds the commands it completes.
:data:`MODULES` says which module defines each command, so nothing else is imported.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any, Final

from typer._click import Command, Context, HelpFormatter
from typer._click.utils import make_default_short_help
from typer.core import TyperGroup

#: Each command, in the order ``--help`` lists them, and the module of
#: :mod:`foldctl.cli.commands` that defines it.
MODULES: Final = {
    "show": "show",
    "expand": "expand",
    "spans": "spans",
    "stages": "spans",
    "verify": "verify",
    "grep": "grep",
    "locate": "locate",
    "diff": "diff",
    "sessions": "sessions",
    "fingerprint": "fingerprint",
    "report": "report",
    "claims": "claims",
    "redactions": "redactions",
    "export": "export",
    "schema": "schema",
    "mcp": "mcp",
}

#: Each registered command's function, by command name, as its module defines it (its
#: option groups not yet put in place: :func:`foldctl.cli.options.grouped` does, when
#: the command is built); filled by :func:`foldctl.cli.app.command`.
COMMANDS: dict[str, Callable[..., Any]] = {}


def function_of(name: str) -> Callable[..., Any]:
    """The function of command ``name``, its module imported."""
    importlib.import_module(f"foldctl.cli.commands.{MODULES[name]}")
    return COMMANDS[name]


class _Built(MutableMapping[str, Command]):
    """The group's commands: every name known, each built on first use."""

    def __init__(self, group: LazyGroup) -> None:
        self._group = group
        self._built: dict[str, Command] = {}

    def __getitem__(self, name: str) -> Command:
        if name not in MODULES:
            raise KeyError(name)
        if name not in self._built:
            self._built[name] = self._group.build(name)
        return self._built[name]

    def __setitem__(self, name: str, command: Command) -> None:
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        del self._built[name]

    def __iter__(self) -> Iterator[str]:
        return iter(MODULES)

    def __len__(self) -> int:
        return len(MODULES)


class LazyGroup(TyperGroup):
    """A Typer group whose commands are built when they are asked for (see the module
    doc); :attr:`prepare` is applied to each command's function before it is built (the
    command line's error handling)."""

    prepare: Callable[[Callable[..., Any]], Callable[..., Any]] = staticmethod(lambda f: f)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.commands = _Built(self)

    def build(self, name: str) -> Command:
        """Command ``name`` as click runs it: its option groups in place, its
        ``--format`` the formats the renderer registry declares."""
        import typer.main
        from typer.models import CommandInfo

        from foldctl.cli.options import declare_formats, grouped

        info = CommandInfo(name=name, callback=self.prepare(grouped(function_of(name))))
        command = typer.main.get_command_from_info(
            info, pretty_exceptions_short=False, rich_markup_mode=None
        )
        declare_formats(name, command)
        return command

    def every_command(self) -> dict[str, Command]:
        """Every command, built (for tests and tools that look at them all)."""
        return {name: self.commands[name] for name in MODULES}

    def list_commands(self, ctx: Context) -> list[str]:
        return list(MODULES)

    def format_commands(self, ctx: Context, formatter: HelpFormatter) -> None:
        """The commands and the first sentence of each one's help, as click writes them,
        from the docstrings alone: ``--help`` builds no command."""
        limit = formatter.width - 6 - max(len(name) for name in MODULES)
        rows = [
            (name, make_default_short_help(inspect.getdoc(function_of(name)) or "", limit))
            for name in MODULES
        ]
        with formatter.section("Commands"):
            formatter.write_dl(rows)
