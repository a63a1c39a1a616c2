"""Keep the README's examples true: re-run every marked command and paste its output.

A block in README.md looks like::

    <!-- run: foldctl show sample_checkpoints/nested_chain.json -->
    ```text
    ...output...
    ```
    <!-- end -->

A block ``<!-- generated: formats -->`` ... ``<!-- end -->`` is the table of the formats
each command writes, made from the renderer registry (``foldctl.render.registry``), so
the README lists exactly what ``--format`` accepts.

``python tools/update_readme.py`` rewrites every block with the command's
current output (run from the repository root, ``foldctl`` from this
interpreter's environment, no colour).  ``--check`` changes nothing and exits
1 when any block is stale, so a test can hold the README to the code.  Shell
pipelines (``|``) run under ``bash -o pipefail``; a block whose command needs
a program that is not installed (``jq``) is left alone and reported.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
BLOCK = re.compile(
    r"(?P<head><!-- run: (?P<command>.+?) -->\n```(?P<lang>\w*)\n)"
    r"(?P<body>.*?)(?P<tail>```\n<!-- end -->)",
    re.DOTALL,
)


#: Programs besides foldctl that README examples may use; a block needing a missing one is skipped.
OPTIONAL_PROGRAMS = ("jq", "sqlite3", "xxhsum")


def run(command: str) -> str | None:
    """The command's output, or None when a program it needs is missing."""
    words = set(re.findall(r"[\w-]+", command))
    if any(p in words and shutil.which(p) is None for p in OPTIONAL_PROGRAMS):
        return None
    bin_dir = str(Path(sys.executable).parent)
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "NO_COLOR": "1",
        "COLUMNS": "100",
    }
    proc = subprocess.run(
        ["bash", "-o", "pipefail", "-c", command],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    return proc.stdout + proc.stderr


GENERATED = re.compile(
    r"(?P<head><!-- generated: (?P<name>[\w-]+) -->\n)(?P<body>.*?)(?P<tail><!-- end -->)",
    re.DOTALL,
)


def formats_table() -> str:
    """Each command and the formats it writes, the default first, from the registry."""
    from foldctl.render.registry import RENDERERS

    lines = ["| command | formats (`--format`; the first is the default) |", "| --- | --- |"]
    for command, formats in RENDERERS.items():
        lines.append(f"| `{command}` | {', '.join(f'`{f.value}`' for f in formats)} |")
    return "\n".join(lines) + "\n"


GENERATORS = {"formats": formats_table}


def render(text: str) -> tuple[str, list[str]]:
    skipped: list[str] = []

    def replace(match: re.Match[str]) -> str:
        output = run(match["command"])
        if output is None:
            skipped.append(match["command"])
            return match.group(0)
        return match["head"] + output + match["tail"]

    def generate(match: re.Match[str]) -> str:
        return match["head"] + GENERATORS[match["name"]]() + match["tail"]

    return GENERATED.sub(generate, BLOCK.sub(replace, text)), skipped


def main(argv: list[str]) -> int:
    check = "--check" in argv
    current = README.read_text(encoding="utf-8")
    updated, skipped = render(current)
    for command in skipped:
        print(f"left as is (a program it needs is not installed): {command}", file=sys.stderr)
    if check:
        if updated != current:
            print("README.md is stale: run `make docs`", file=sys.stderr)
            return 1
        return 0
    README.write_text(updated, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
