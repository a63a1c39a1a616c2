"""The renderer registry: each command writes exactly the formats it declares.

Every declared (command, format) pair renders a real sample; every other pair is
refused before any work, with one line; ``--help`` lists exactly the declared formats.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from foldctl.render import OutputFormat
from foldctl.render.registry import RENDERERS, formats, renderer
from tests.support import SAMPLES, app, run_cli

NESTED = str(SAMPLES / "nested_chain.json")
STORE = str(SAMPLES / "sessions.db")


def first_digest() -> str:
    import foldctl
    from foldctl.digest import digest

    return digest(foldctl.open(NESTED).history[0])


def invocation(command: str, tmp_path: Path) -> list[str]:
    """A command line that makes ``command`` render the nested sample (or the store)."""
    return {
        "show": ["show", NESTED],
        "expand": ["expand", NESTED],
        "spans": ["spans", NESTED],
        "stages": ["stages", NESTED],
        "sessions": ["sessions", STORE],
        "locate": ["locate", NESTED, first_digest()],
        "grep": ["grep", "refund", NESTED],
        "diff": ["diff", "--force", NESTED, str(SAMPLES / "tool_calls.json")],
        "verify": ["verify", str(SAMPLES / "forged_frame.json")],
        "fingerprint": ["fingerprint", "hello"],
        "report": ["report", NESTED, "-o", str(tmp_path / "r.html")],
        "redactions": ["redactions", NESTED],
        "claims": ["claims", NESTED],
        "export": ["export", NESTED, "--to", str(tmp_path / "out")],
    }[command]


def test_every_command_with_a_format_is_in_the_registry() -> None:
    with_format = {
        name
        for name, command in app.commands.items()
        if any(p.name == "fmt" for p in command.params)
    }
    assert with_format == set(RENDERERS) - {"report"}


@pytest.mark.parametrize(
    ("command", "fmt"), [(c, f) for c in RENDERERS for f in RENDERERS[c]], ids=str
)
def test_every_declared_pair_renders_a_sample(
    command: str, fmt: OutputFormat, tmp_path: Path
) -> None:
    renderer(command, fmt)  # importable
    args = invocation(command, tmp_path)
    if command != "report":
        args += ["--format", fmt.value]
    result = run_cli(*args)
    assert result.exit_code in (0, 1), (command, fmt, result.stderr)
    # redactions without a key file says its placeholders are this run's alone
    unkeyed = command == "redactions" and result.stderr.count("\n") == 1
    assert result.stderr == "" or command == "report" or unkeyed, result.stderr
    if command == "report":
        assert (tmp_path / "r.html").read_bytes().startswith(b"<!DOCTYPE html>")
    else:
        assert result.stdout_bytes.strip(), (command, fmt)


@pytest.mark.parametrize(
    ("command", "fmt"),
    [(c, f) for c in RENDERERS if c != "report" for f in OutputFormat if f not in RENDERERS[c]],
    ids=str,
)
def test_every_undeclared_pair_is_refused_with_one_line(
    command: str, fmt: OutputFormat, tmp_path: Path
) -> None:
    result = run_cli(*invocation(command, tmp_path), "--format", fmt.value)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("foldctl: error: "), result.stderr
    assert f"{command} does not write {fmt.value}" in lines[0]


@pytest.mark.parametrize("command", [c for c in RENDERERS if c != "report"])
def test_help_lists_exactly_the_declared_formats(command: str) -> None:
    result = run_cli(command, "--help")
    assert result.exit_code == 0
    declared = "|".join(f.value for f in formats(command))
    assert f"--format {declared}" in " ".join(result.stdout.split()).replace(" | ", "|")
    for fmt in OutputFormat:
        if fmt not in RENDERERS[command]:
            assert f"|{fmt.value}" not in result.stdout and f"{fmt.value}|" not in result.stdout
