"""Shell completion: a script for bash, zsh and fish, loaded by the shells where they are
installed, and option values completed from what foldctl knows (formats, choices, schema
names, a store's sessions, the locators of a file)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import REPO, run_cli

NESTED = "sample_checkpoints/nested_chain.json"
STORE = "sample_checkpoints/sessions.db"
BIN = str(Path(sys.executable).parent)


def completions(line: str, shell: str = "bash") -> list[str]:
    """What foldctl answers a shell completing ``line`` (the words so far; a trailing
    space means a new word), in that shell's protocol."""
    env = {**os.environ, "_FOLDCTL_COMPLETE": f"complete_{shell}"}
    if shell == "bash":
        env |= {
            "COMP_WORDS": line,
            "COMP_CWORD": str(len(line.split()) - (0 if line.endswith(" ") else 1)),
        }
    else:
        env |= {"_TYPER_COMPLETE_ARGS": line, "_TYPER_COMPLETE_FISH_ACTION": "get-args"}
    proc = subprocess.run(
        [sys.executable, "-m", "foldctl"], capture_output=True, text=True, env=env, cwd=REPO
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


def test_each_shell_gets_its_script_and_a_shell_we_have_none_for_is_refused() -> None:
    bash = run_cli("--show-completion", "bash")
    assert (
        bash.exit_code == 0 and "complete -o default -F _foldctl_completion foldctl" in bash.stdout
    )
    zsh = run_cli("--show-completion", "zsh").stdout
    assert zsh.startswith("#compdef foldctl\n") and "_FOLDCTL_COMPLETE=complete_zsh" in zsh
    assert "compdef _foldctl foldctl" in zsh and "loadautofunc" in zsh
    fish = run_cli("--show-completion", "fish").stdout
    assert fish.startswith("complete --command foldctl ") and "complete_fish" in fish
    tcsh = run_cli("--show-completion", "tcsh")
    assert tcsh.exit_code == 2 and "choose from bash, zsh, fish" in tcsh.stderr


def test_format_completes_to_the_formats_of_its_command() -> None:
    assert completions("foldctl expand x --format ") == ["text", "markdown", "json", "jsonl"]
    assert completions("foldctl show x -f ") == ["text", "json", "markdown"]
    assert completions("foldctl claims x --format m") == ["markdown"]


def test_choices_complete_to_their_values() -> None:
    assert completions("foldctl show x --color ") == ["auto", "always", "never"]
    assert completions("foldctl grep a x --replays ") == ["full", "ref"]
    assert completions("foldctl verify x --fail-on w") == ["warning"]
    assert "unresolved-frame" in completions("foldctl verify x --ignore unres")
    assert completions("foldctl --show-completion ") == ["bash", "zsh", "fish"]


def test_schema_completes_to_the_commands_that_publish_one() -> None:
    assert completions("foldctl schema ") == run_cli("schema").stdout.split()
    assert completions("foldctl schema ex") == ["expand", "export"]


def test_a_store_completes_to_its_sessions() -> None:
    sessions = completions(f"foldctl show {STORE}#n")
    assert sessions == [f"{STORE}#nested_chain"]
    every = completions(f"foldctl verify {STORE}")
    assert len(every) == 12 and all(s.startswith(f"{STORE}#") for s in every)
    assert completions("foldctl show sample_checkpoints/nested_") == []  # files: the shell's


def test_only_completes_to_the_locators_of_the_file_given() -> None:
    assert completions(f"foldctl expand {NESTED} --only f5") == ["f5", "f5:0", "f5:1", "f5:2"]
    every = completions(f"foldctl expand {NESTED} --only ")
    assert every[:3] == ["h0", "h1", "h2"] and len(every) == 5 + 7 + 20
    assert completions("foldctl expand missing.json --only ") == []  # nothing, no error


needs_zsh = pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
needs_fish = pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")


def _shell(argv: list[str], tmp_path: Path) -> str:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", "HOME": str(tmp_path)}
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=REPO, timeout=60)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return proc.stdout


@needs_zsh
def test_zsh_loads_the_script_sourced_or_from_fpath(tmp_path: Path) -> None:
    script = run_cli("--show-completion", "zsh").stdout
    (tmp_path / "_foldctl").write_text(script)
    sourced = _shell(
        ["zsh", "-f", "-c",
         f"autoload -Uz compinit && compinit -u -d {tmp_path}/dump; source {tmp_path}/_foldctl;"
         " print -r -- ${+functions[_foldctl]} $_comps[foldctl]"],
        tmp_path,
    )  # fmt: skip
    assert sourced.split() == ["1", "_foldctl"]
    from_fpath = _shell(
        ["zsh", "-f", "-c",
         f"fpath=({tmp_path} $fpath); autoload -Uz compinit && compinit -u -d {tmp_path}/dump;"
         " print -r -- $_comps[foldctl]"],
        tmp_path,
    )  # fmt: skip
    assert from_fpath.split() == ["_foldctl"]
    answer = completions("foldctl show x --format ", shell="zsh")
    assert answer[0] == "_arguments" and '"markdown"))\'' in answer[-1]


@needs_fish
def test_fish_loads_the_script_and_completes(tmp_path: Path) -> None:
    out = _shell(
        ["fish", "--no-config", "-c",
         "foldctl --show-completion fish | source;"
         " complete -C 'foldctl show x --format '; complete -C 'foldctl schema ex'"],
        tmp_path,
    )  # fmt: skip
    assert out.split() == ["json", "markdown", "text", "expand", "export"]  # fish sorts them


def test_install_writes_where_the_shell_loads_it_and_touches_no_start_up_file(
    tmp_path: Path,
) -> None:
    env = {**os.environ, "HOME": str(tmp_path)}
    for shell, where in (
        ("bash", ".local/share/bash-completion/completions/foldctl"),
        ("zsh", ".zfunc/_foldctl"),
        ("fish", ".config/fish/completions/foldctl.fish"),
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "foldctl", "--install-completion", shell],
            capture_output=True, text=True, env=env, cwd=REPO,
        )  # fmt: skip
        assert proc.returncode == 0 and proc.stdout.startswith(f"wrote {tmp_path / where}:")
        assert (tmp_path / where).read_text() == run_cli("--show-completion", shell).stdout
    assert not (tmp_path / ".zshrc").exists() and not (tmp_path / ".bashrc").exists()
    if shutil.which("fish"):  # fish finds it there by itself
        out = _shell(["fish", "-c", "complete -C 'foldctl schema ex'"], tmp_path)
        assert out.split() == ["expand", "export"]
