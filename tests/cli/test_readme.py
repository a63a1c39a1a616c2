"""The README's examples are real output of the current code (`make docs` refreshes them)."""

from __future__ import annotations

import subprocess
import sys

from tests.support import REPO


def test_readme_examples_are_current() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tools.update_readme", "--check"],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stderr


def test_readme_lists_every_finding_code() -> None:
    from foldctl.audit.codes import CODES

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for code in CODES:
        assert f"| `{code}` |" in readme, code


def test_readme_gives_the_two_set_up_commands() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "make demo" in readme and "make test" in readme


def test_readme_lists_the_formats_of_every_command_as_the_registry_declares() -> None:
    from foldctl.render.registry import RENDERERS

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for command, formats in RENDERERS.items():
        row = f"| `{command}` | {', '.join(f'`{f.value}`' for f in formats)} |"
        assert row in readme, row
