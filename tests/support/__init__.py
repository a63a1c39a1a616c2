"""What the tests share: paths, the in-process and real-process runners, small readers.

Test modules import helpers from here (and from :mod:`tests.support.builders`,
:mod:`tests.support.golden`), never from each other.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from foldctl.cli.main import build_app, run

app = build_app()  # the command group as `foldctl` runs it
app.every_command()  # each command built, for the tests that look at them all

REPO = Path(__file__).resolve().parent.parent.parent
SAMPLES = REPO / "sample_checkpoints"
CONFORMANCE = REPO.parent / "shared" / "conformance"


def conformance_cases() -> list[str]:
    """Names X with X.json and X.expected.json in the corpus (empty when it is absent)."""
    if not CONFORMANCE.is_dir():
        return []
    return sorted(
        p.name.removesuffix(".expected.json") for p in CONFORMANCE.glob("*.expected.json")
    )


def conformance_params() -> list[Any]:
    """:func:`conformance_cases` for ``parametrize``: one visible skip when the corpus is absent."""
    reason = f"no conformance corpus at {CONFORMANCE}"
    return list(conformance_cases()) or [pytest.param("", marks=pytest.mark.skip(reason=reason))]


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str
    stdout_bytes: bytes


def run_cli(*args: str, stdin: bytes | None = None) -> Result:
    """Run foldctl in-process, as ``foldctl`` runs (exceptions that are not foldctl's own
    are not swallowed)."""
    runner = CliRunner()
    with runner.isolation(input=stdin) as (out, err, *_):
        code = run(list(args))
        stdout_bytes = out.getvalue()
        stderr_bytes = err.getvalue() if err is not None else b""
    return Result(
        code,
        stdout_bytes.decode("utf-8", "replace"),
        stderr_bytes.decode("utf-8", "replace"),
        stdout_bytes,
    )


def run_proc(
    *args: str, stdin: bytes | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """Run foldctl as a real process (for exit codes, pipes, escapes, import time)."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "foldctl", *args],
        input=stdin,
        capture_output=True,
        env=full_env,
        check=False,
        timeout=300,
    )


def on_a_terminal(*args: str, env: dict[str, str]) -> bytes:
    """Run foldctl with standard output on a pseudo-terminal; what it wrote there.  No
    pager unless ``env`` names one (``FOLDCTL_PAGER`` or ``PAGER``), no ``NO_COLOR``
    unless given."""
    import pty

    leader, follower = pty.openpty()
    base = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "PAGER", "FOLDCTL_PAGER")}
    full_env = base | ({} if "PAGER" in env else {"FOLDCTL_PAGER": ""}) | env
    proc = subprocess.Popen(
        [sys.executable, "-m", "foldctl", *args], stdout=follower, stderr=subprocess.PIPE,
        env=full_env, cwd=REPO,
    )  # fmt: skip
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=60)
    os.close(leader)
    return b"".join(chunks)


def jsonl(text: str) -> list[dict[str, Any]]:
    """The objects of JSONL text."""
    return [json.loads(line) for line in text.split("\n") if line]
