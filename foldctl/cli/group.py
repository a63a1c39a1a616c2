"""The root command group: every command known by name, each built when it is needed.

Building a command (putting its option groups in place, turning its signature into
click parameters) costs about a millisecond and a half, and importing what it runs
costs more: ``foldctl show`` builds ``show`` alone, ``foldctl --help`` lists each
command's first sentence and imports none, and completion builds the commands it
completes.
:data:`MODULES` says which module defines each command, so nothing else is imported.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any, Final

from typer._click import Command, Context, HelpFormatter
from typer._click.utils import make_default_short_help
from typer.core import TyperGroup

#: Each command, in the order ``--help`` lists them: its name, the module of
#: :mod:`foldctl.cli.commands` that defines it, and the first sentence of its docstring
#: (what ``--help`` lists, so that listing the commands imports none of them;
#: ``tests/unit/test_startup.py`` holds each to its docstring).
_TABLE: Final = (
    (
        "show",
        "show",
        "Overview of a checkpoint: shape, run, counts, runs and models, and the fold tree.",
    ),
    ("expand", "expand", "The conversation before any fold, every message with its locator."),
    (
        "spans",
        "spans",
        "One row per folded span: where its frame sits, model, count, retention, run, time.",
    ),
    (
        "stages",
        "spans",
        "One row per removed stage id: the stage, its span, run, iteration and model.",
    ),
    (
        "verify",
        "verify",
        "Audit checkpoints: every way one disagrees with itself, named, located and ranked.",
    ),
    (
        "grep",
        "grep",
        "Search every message, live and folded at any depth (and detached/orphan spans).",
    ),
    (
        "locate",
        "locate",
        "Print the locator of every place a message occurs, live or folded, at any depth.",
    ),
    (
        "diff",
        "diff",
        (
            "Spans added and lost, retention and span changes, live messages added / removed "
            "/ changed / folded (matched by digest), and frames that newly fail to resolve."
        ),
    ),
    (
        "sessions",
        "sessions",
        (
            "The sessions in a SQLite store, or the Claude Code sessions and Codex rollouts "
            "in folders: one row each."
        ),
    ),
    (
        "fingerprint",
        "fingerprint",
        "The fingerprint of TEXT (or stdin) under every scheme, for joining a summary by hand.",
    ),
    (
        "report",
        "report",
        "A self-contained HTML incident report: overview, findings, folds, transcript.",
    ),
    (
        "claims",
        "claims",
        (
            "Check every summary against the originals it stands for: facts it invents "
            "(unsupported), values it gets wrong (contradicted), errors it leaves out "
            "(dropped)."
        ),
    ),
    (
        "redactions",
        "redactions",
        (
            "The review list of --redact: one row per placeholder, with its kind, how often "
            "it stands in and the locators of the messages it stands in."
        ),
    ),
    (
        "export",
        "export",
        "Write checkpoints, spans, messages and findings as Parquet tables under DIR.",
    ),
    (
        "schema",
        "schema",
        "Print the JSON Schema (draft 2020-12) of COMMAND's --format json output.",
    ),
    (
        "mcp",
        "mcp",
        (
            "Serve the sessions under ROOT to an MCP host (Claude Code, Codex, ...) over "
            "stdin and stdout, read-only: list_sessions, folds, expand, grep, locate and "
            "claims, and each session as a resource."
        ),
    ),
)
MODULES: Final = {name: module for name, module, _ in _TABLE}
SUMMARIES: Final = {name: summary for name, _, summary in _TABLE}

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
        from :data:`SUMMARIES`: ``--help`` imports no command module."""
        limit = formatter.width - 6 - max(len(name) for name in MODULES)
        rows = [(name, make_default_short_help(SUMMARIES[name], limit)) for name in MODULES]
        with formatter.section("Commands"):
            formatter.write_dl(rows)
