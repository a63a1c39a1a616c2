"""Shell completion: the script for bash, zsh or fish, and what each value completes to.

``--show-completion SHELL`` prints the script (to source, or to save where the shell
looks: docs/decisions.md says where); the script calls foldctl back with
``_FOLDCTL_COMPLETE`` set, and click asks each parameter for its values: ``--format``
the formats its command writes (the renderer registry), ``--color``, ``--replays``,
``--fail-on`` and ``--ignore`` their choices, ``schema`` the commands
that publish one, a SOURCE the sessions of a store (``STORE.db#``), ``--only`` the
locators of the SOURCE already given.  Everything else (a file name) is left to the
shell.  A value that cannot be read completes to nothing, never to an error.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Final

import typer

import foldctl
from foldctl.errors import FoldctlError

#: What the script's calls back to foldctl set (click's convention: ``_PROG_COMPLETE``).
COMPLETE_VAR: Final = "_FOLDCTL_COMPLETE"
SHELLS: Final = ("bash", "zsh", "fish")


def _starting(values: Iterable[str], incomplete: str) -> list[str]:
    return [v for v in values if v.startswith(incomplete)]


def choices(*values: str) -> Callable[[str], list[str]]:
    """A completion of a fixed set of values."""

    def complete(incomplete: str) -> list[str]:
        return _starting(values, incomplete)

    return complete


def complete_format(ctx: typer.Context, incomplete: str) -> list[str]:
    """``--format``: the formats the command writes, its default first."""
    from foldctl.render.registry import formats  # not on --help's path (start-up)

    try:
        return _starting((f.value for f in formats(ctx.info_name or "")), incomplete)
    except KeyError:
        return []


def complete_codes(incomplete: str) -> list[str]:
    """``--ignore``: every finding code."""
    return _starting(foldctl.CODES, incomplete)


def complete_schema(incomplete: str) -> list[str]:
    """``schema COMMAND``: the commands that publish a schema."""
    return _starting(foldctl.schema().decode().split(), incomplete)


def complete_source(incomplete: str) -> list[str]:
    """A SOURCE: a store's sessions once it is named (``STORE.db`` or ``STORE.db#...``);
    anything else is a file, which the shell completes."""
    store = incomplete.split("#", 1)[0]
    if not store or not os.path.isfile(store):
        return []
    try:
        with open(store, "rb") as f:
            if f.read(16) != b"SQLite format 3\x00":
                return []
        return _starting(foldctl.session_sources(store), incomplete)
    except (OSError, FoldctlError):
        return []


def _given(ctx: typer.Context, name: str) -> object:
    """The value of parameter ``name`` on the command line being completed.  While an
    option's value is being completed click has not parsed the words before it (the
    option lacks its value), so they are parsed again from the words the shell passed,
    the last ones left out until the rest parses."""
    value = ctx.params.get(name)
    if value is not None or ctx.info_name is None:
        return value
    from typer._click.shell_completion import split_arg_string

    line = os.environ.get("_TYPER_COMPLETE_ARGS") or os.environ.get("COMP_WORDS", "")
    words = split_arg_string(line)
    if ctx.info_name not in words:
        return None
    rest = words[words.index(ctx.info_name) + 1 :]
    for cut in range(len(rest), max(len(rest) - 3, -1), -1):
        with ctx.command.make_context(ctx.info_name, rest[:cut], resilient_parsing=True) as parsed:
            if parsed.params.get(name) is not None:
                return parsed.params[name]
    return None


def complete_locator(ctx: typer.Context, incomplete: str) -> list[str]:
    """``--only``: the locators and spans of the SOURCE given before it."""
    source = _given(ctx, "source_arg")
    if not isinstance(source, str) or source == "-":
        return []
    try:
        return _starting(foldctl.open(source).locators(), incomplete)
    except FoldctlError:
        return []


def _enable() -> None:
    """Typer's bash, zsh and fish completion classes in place of click's."""
    from typer._completion_classes import completion_init

    completion_init()


#: zsh's script works both ways zsh loads one: saved as ``_foldctl`` in a directory of
#: ``$fpath`` (autoloaded by compinit: it completes at once), or sourced (it registers
#: itself).  It asks foldctl for the candidates in Typer's zsh protocol.
ZSH_SCRIPT: Final = """#compdef foldctl
# foldctl completion for zsh: save as _foldctl in a directory of $fpath, or source it.

_foldctl() {
  eval "$(env _TYPER_COMPLETE_ARGS="${words[1,$CURRENT]}" %(var)s=complete_zsh foldctl)"
}

if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then
  _foldctl "$@"
else
  compdef _foldctl foldctl
fi
"""


def script(shell: str) -> str:
    """The completion script for ``shell`` (bash, zsh or fish)."""
    if shell == "zsh":
        return ZSH_SCRIPT % {"var": COMPLETE_VAR}
    from typer._completion_shared import get_completion_script

    _enable()
    return get_completion_script(prog_name="foldctl", complete_var=COMPLETE_VAR, shell=shell)


def _shell(value: str) -> str:
    if value not in SHELLS:
        raise typer.BadParameter(f"no completion for {value!r}; choose from {', '.join(SHELLS)}")
    return value


def show_completion(value: str | None) -> None:
    """``--show-completion SHELL``: print the script, and stop."""
    if value is None:
        return
    sys.stdout.write(script(_shell(value)).rstrip("\n") + "\n")
    sys.stdout.flush()
    raise typer.Exit()


#: Where each shell loads a command's completion from, under the home directory, and
#: what else it needs (said, never written into the user's start-up files).
INSTALL: Final = {
    "bash": (".local/share/bash-completion/completions/foldctl", "loaded by bash-completion"),
    "zsh": (".zfunc/_foldctl", "add `fpath+=~/.zfunc` before `compinit` in ~/.zshrc"),
    "fish": (".config/fish/completions/foldctl.fish", "loaded by fish"),
}


def install_completion(value: str | None) -> None:
    """``--install-completion SHELL``: write the script where the shell loads it from,
    and say where and what else is needed; no start-up file is changed."""
    if value is None:
        return
    shell = _shell(value)
    relative, note = INSTALL[shell]
    target = Path.home() / relative
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(script(shell).rstrip("\n") + "\n", encoding="utf-8")
    except OSError as e:
        raise FoldctlError(f"{target}: cannot write the completion script: {e.strerror}") from None
    sys.stdout.write(f"wrote {foldctl.one_line(str(target))}: {note}\n")
    sys.stdout.flush()
    raise typer.Exit()


def shell_option(name: str, callback: Callable[[str | None], None], help: str) -> Any:
    """A root option that takes a shell (``--show-completion zsh``), acted on at once."""
    return typer.Option(
        name,
        metavar="|".join(SHELLS),
        callback=callback,
        is_eager=True,
        autocompletion=choices(*SHELLS),
        help=help,
    )


def answering() -> bool:
    """Whether this run answers a shell's completion request (the script's call back)."""
    if os.environ.get(COMPLETE_VAR):
        _enable()
        return True
    return False
