"""The options commands share, each declared once.

A single option is an ``Annotated`` alias (``SchemeOpt``, ``ReplaysOpt``): a command
gives it a parameter and its default.  Options that go together are a *group*: a
frozen record (``msgspec.Struct``) whose fields are options (or other groups), with what the command
line builds from them (:meth:`Redaction.redactor`, :meth:`Folds.filter`).  A command
takes a group by naming a parameter of its type (``out: Output``); :func:`grouped`
puts the group's options in that place of the command's signature (each named as its
field: field names are unique across groups) and hands the command the group built
from their values.  So adding an option to a group adds it
to every command that takes the group, and giving a command a group is one line.

Nothing here imports the library: the groups build its objects (a redactor, a fold
filter) through the package face, when a command runs.
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Final, Literal, TypeVar

import msgspec
import msgspec.structs
import typer

import foldctl
from foldctl.cli.completion import choices, complete_format, complete_source
from foldctl.errors import UsageError
from foldctl.render import OutputFormat
from foldctl.render.registry import check, formats

# --------------------------------------------------------------------------- single options

#: Whether ``show`` and ``verify`` check every summary against its originals unless told
#: otherwise (``--claims/--no-claims``).  The one place the default is set: it is turned
#: on only once the held-out precision of the kinds it shows allows (docs/decisions.md,
#: "Claims by default").
CLAIMS_BY_DEFAULT: Final = False

SourceArg = Annotated[
    str,
    typer.Argument(
        metavar="SOURCE",
        help="A checkpoint (.json, .json.gz), a Claude Code session or Codex rollout (.jsonl, "
        ".jsonl.gz), - for stdin, or STORE.db#SESSION_ID.",
        autocompletion=complete_source,
    ),
]
SourcesArg = Annotated[
    list[str],
    typer.Argument(
        metavar="SOURCE...",
        help="Checkpoints (.json, .json.gz), Claude Code sessions and Codex rollouts (.jsonl, "
        ".jsonl.gz), - for stdin, STORE.db (every session) or STORE.db#SESSION_ID, directories "
        "(searched recursively) or quoted patterns ('fleet/**/*.json.gz').",
        autocompletion=complete_source,
    ),
]
SchemeOpt = Annotated[
    str | None,
    typer.Option(
        "--scheme",
        help="Force a fingerprint scheme (fnv1a32, xxh32, xxh64, xxh3-64, xxh3-128); "
        "default: detect.",
    ),
]
ReplaysOpt = Annotated[
    str,
    typer.Option(
        "--replays",
        metavar="full|ref",
        help="A replayed summary's span: full (its messages again, marked as a replay) or "
        "ref (a reference to its first placement).",
        autocompletion=choices("full", "ref"),
    ),
]


Replays = Literal["full", "ref"]


def replays_mode(value: str) -> Replays:
    """``--replays``: full or ref."""
    if value == "full":
        return "full"
    if value == "ref":
        return "ref"
    raise UsageError(f"--replays takes full or ref, not {value!r}")


# --------------------------------------------------------------------------- groups

_GROUPS: set[type] = set()
G = TypeVar("G", bound=type)


def group(cls: G) -> G:
    """Mark a record of options as a group a command can take by its type."""
    _GROUPS.add(cls)
    return cls


def _check_format(ctx: typer.Context, value: str) -> str:
    command = ctx.info_name or ""
    names = [f.value for f in formats(command)]
    try:
        check(command, OutputFormat(value.lower()))
    except ValueError:
        raise typer.BadParameter(
            f"no format {value!r}; {command} writes {', '.join(names)}"
        ) from None
    except UsageError as e:
        raise typer.BadParameter(str(e)) from None
    return value.lower()


#: ``--format``; :func:`declare_formats` gives each command's the formats it declares.
FormatOpt = Annotated[
    str,
    typer.Option(
        "--format",
        "-f",
        metavar="FORMAT",
        callback=_check_format,
        autocompletion=complete_format,
    ),
]
ColorOpt = Annotated[
    str,
    typer.Option(
        "--color",
        help="Colour on a terminal: auto (default; honours NO_COLOR and TERM=dumb), always, never.",
        metavar="auto|always|never",
        autocompletion=choices("auto", "always", "never"),
    ),
]


@group
class Expansion(msgspec.Struct, frozen=True):
    """``--replays``, with the one default of every command that expands a transcript
    (``expand``, ``grep``, ``report``; docs/decisions.md says why it is ``ref``)."""

    replays: ReplaysOpt = "ref"

    def mode(self) -> Replays:
        return replays_mode(self.replays)


NoPagerOpt = Annotated[
    bool,
    typer.Option(
        "--no-pager",
        help="Write straight to the terminal. Otherwise output to a terminal goes through "
        "FOLDCTL_PAGER, else PAGER, else less -FRX (empty or cat: none); never when piped.",
    ),
]


@group
class Output(msgspec.Struct, frozen=True):
    """``--format`` (the formats the renderer registry declares for the command),
    ``--color`` and ``--no-pager``."""

    fmt: FormatOpt = "text"
    color: ColorOpt = "auto"
    no_pager: NoPagerOpt = False


def declare_formats(name: str, command: Any) -> None:
    """Give command ``name``'s ``--format`` exactly the formats the renderer registry
    declares for it: its metavar and help list them, the first is the default."""
    for param in command.params:
        if "--format" not in getattr(param, "opts", ()):
            continue
        names = [f.value for f in formats(name)]
        param.metavar = "|".join(names)
        param.help = f"Output format: {', '.join(names)}."
        param.default = names[0]


JobsOpt = Annotated[
    int | None,
    typer.Option(
        "--jobs",
        "-j",
        min=1,
        metavar="N",
        help="Worker processes for many sources (default: one per CPU).",
    ),
]
ExcludeOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--exclude",
        metavar="GLOB",
        help="In directories, also skip files whose name or relative path matches "
        "(repeatable; *.expected.json is skipped by default).",
    ),
]


@group
class Sources(msgspec.Struct, frozen=True):
    """``--exclude`` and ``--jobs``: what a directory yields, and how many worker
    processes read it; every command that takes directories takes both."""

    exclude: ExcludeOpt = None
    jobs: JobsOpt = None

    def excludes(self) -> tuple[str, ...]:
        return tuple(self.exclude or ())


RedactOpt = Annotated[
    bool,
    typer.Option(
        "--redact",
        help="Replace secrets and personal data (keys, tokens, passwords in URLs, emails, "
        "phone, card and IBAN numbers) with placeholders such as [redacted:email:7f3a91], "
        "in every format (docs/redaction.md).",
    ),
]
RedactKeyOpt = Annotated[
    Path | None,
    typer.Option(
        "--redact-key-file",
        metavar="FILE",
        help="The HMAC key for placeholders (stable across runs); default: a random key per run.",
    ),
]
RedactRulesOpt = Annotated[
    Path | None,
    typer.Option(
        "--redact-rules", metavar="FILE.toml", help="More named patterns and an allow-list."
    ),
]
RedactOnlyOpt = Annotated[
    str | None,
    typer.Option("--redact-only", metavar="KINDS", help="Only these kinds (comma-separated)."),
]
RedactSkipOpt = Annotated[
    str | None,
    typer.Option("--redact-skip", metavar="KINDS", help="Not these kinds (comma-separated)."),
]


@group
class RedactionRules(msgspec.Struct, frozen=True):
    """How to redact: the key of the placeholders, more rules, the kinds chosen."""

    redact_key_file: RedactKeyOpt = None
    redact_rules: RedactRulesOpt = None
    redact_only: RedactOnlyOpt = None
    redact_skip: RedactSkipOpt = None

    @property
    def given(self) -> bool:
        return bool(
            self.redact_key_file or self.redact_rules or self.redact_only or self.redact_skip
        )

    def redactor(self) -> foldctl.Redactor:
        return foldctl.Redactor.from_options(
            key_file=self.redact_key_file,
            only=self.redact_only,
            skip=self.redact_skip,
            rules_file=self.redact_rules,
        )


#: ``--redact`` on a command that prints no message text: refused with the reason.
NoRedactOpt = Annotated[bool, typer.Option("--redact", hidden=True)]


def refuse_redact(redact: bool, command: str, reason: str) -> None:
    """A usage error when ``--redact`` was given to a command with nothing to redact."""
    if redact:
        raise UsageError(f"{command} takes no --redact: {reason}")


RedactionsOpt = Annotated[
    Path | None,
    typer.Option(
        "--redactions",
        metavar="FILE",
        help="Also write the review list of this run's placeholders to FILE (as "
        "foldctl redactions prints it: JSON, or CSV, TSV, JSONL or text by FILE's "
        "extension); implies --redact.",
    ),
]


@group
class Redaction(msgspec.Struct, frozen=True):
    """``--redact`` and how (any of the ``--redact-*`` options implies it), and
    ``--redactions FILE``: the review list of the same run."""

    redact: RedactOpt = False
    redactions: RedactionsOpt = None
    how: RedactionRules = RedactionRules()

    def redactor(self) -> foldctl.Redactor | None:
        """The redactor the options ask for, or None."""
        if not (self.redact or self.how.given or self.redactions):
            return None
        return self.how.redactor()


ModelOpt = Annotated[
    list[str] | None,
    typer.Option("--model", metavar="MODEL", help="Only folds summarized by MODEL (repeatable)."),
]
RunOpt = Annotated[
    list[str] | None,
    typer.Option("--run", metavar="RUN_ID", help="Only folds made by run RUN_ID (repeatable)."),
]
SinceOpt = Annotated[
    str | None,
    typer.Option(
        "--since",
        metavar="TIME",
        help="Only folds made at or after TIME (ISO-8601, e.g. 2026-03-16 or "
        "2026-03-16T09:13:00Z; or epoch milliseconds).",
    ),
]
UntilOpt = Annotated[
    str | None,
    typer.Option("--until", metavar="TIME", help="Only folds made at or before TIME."),
]
SpanOpt = Annotated[
    list[int] | None,
    typer.Option(
        "--span", metavar="N", min=0, help="Only span N and the spans nested in it (repeatable)."
    ),
]


@group
class Folds(msgspec.Struct, frozen=True):
    """``--model``, ``--run``, ``--since``, ``--until``, ``--span``: which folds a command
    looks at."""

    model: ModelOpt = None
    run: RunOpt = None
    since: SinceOpt = None
    until: UntilOpt = None
    span: SpanOpt = None

    def filter(self) -> foldctl.FoldFilter:
        from foldctl.cli.times import fold_time

        return foldctl.FoldFilter(
            models=frozenset(self.model or ()),
            runs=frozenset(self.run or ()),
            since_ms=None if self.since is None else fold_time(self.since, "--since"),
            until_ms=None if self.until is None else fold_time(self.until, "--until", end=True),
            spans=frozenset(self.span or ()),
        )


# --------------------------------------------------------------------------- applying groups


def grouped(command: Callable[..., Any]) -> Callable[..., Any]:
    """``command`` with each parameter whose type is a group replaced, in place, by the
    group's options (keyword parameters, as typer reads them), and called with the group
    built from their values."""
    hints = typing.get_type_hints(command, include_extras=True)
    params: list[inspect.Parameter] = []
    builders: dict[str, Callable[[dict[str, Any]], Any]] = {}
    for param in inspect.signature(command).parameters.values():
        hint = hints.get(param.name, param.annotation)
        if isinstance(hint, type) and hint in _GROUPS:
            flat, builders[param.name] = _expand(hint)
            params.extend(flat)
        else:
            params.append(param.replace(kind=inspect.Parameter.KEYWORD_ONLY, annotation=hint))
    names = [p.name for p in params]
    if len(set(names)) != len(names) or set(builders) & set(names):
        raise TypeError(f"{command.__name__}: an option group repeats a parameter: {names}")

    @functools.wraps(command)
    def run(**values: Any) -> Any:
        for name, build in builders.items():
            values[name] = build(values)
        return command(**values)

    run.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: p.annotation for p in params}
    return run


def _expand(cls: type) -> tuple[list[inspect.Parameter], Callable[..., Any]]:
    """A group's options as parameters named as its fields, and the function that builds
    the group from (and takes out of) the values of a call."""
    hints = typing.get_type_hints(cls, include_extras=True)
    params: list[inspect.Parameter] = []
    parts: dict[str, str | Callable[[dict[str, Any]], Any]] = {}
    for field in msgspec.structs.fields(cls):
        hint = hints[field.name]
        if isinstance(hint, type) and hint in _GROUPS:
            inner, parts[field.name] = _expand(hint)
            params.extend(inner)
        else:
            kind = inspect.Parameter.KEYWORD_ONLY
            params.append(
                inspect.Parameter(field.name, kind, default=field.default, annotation=hint)
            )
            parts[field.name] = field.name

    def build(values: dict[str, Any]) -> Any:
        return cls(
            **{
                field: values.pop(part) if isinstance(part, str) else part(values)
                for field, part in parts.items()
            }
        )

    return params, build
