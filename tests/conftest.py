"""Shared fixtures: an isolated environment, the CLI runner, sample and conformance paths."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from foldctl.cli import build_app

app = build_app()  # every command registered, as `foldctl` runs them

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "sample_checkpoints"
CONFORMANCE = REPO.parent / "shared" / "conformance"


@pytest.fixture(autouse=True)
def isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """No colour, a fixed width, no inherited foldctl settings, a scratch working directory."""
    for name in list(os.environ):
        if name.startswith("FOLDCTL_") or name in ("FORCE_COLOR", "CLICOLOR_FORCE"):
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("TERM", "dumb")
    yield


@pytest.fixture
def conformance() -> Path:
    if not CONFORMANCE.is_dir():
        pytest.skip(f"conformance corpus not found at {CONFORMANCE} (it lives beside the repo)")
    return CONFORMANCE


def conformance_cases() -> list[str]:
    """Names X with X.json and X.expected.json in the corpus (empty when it is absent)."""
    if not CONFORMANCE.is_dir():
        return []
    return sorted(
        p.name.removesuffix(".expected.json") for p in CONFORMANCE.glob("*.expected.json")
    )


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str
    stdout_bytes: bytes


def run_cli(*args: str, stdin: bytes | None = None) -> Result:
    """Run foldctl in-process (exceptions that are not foldctl's own are not swallowed)."""
    runner = CliRunner()
    result = runner.invoke(app, list(args), input=stdin, catch_exceptions=False)
    return Result(result.exit_code, result.stdout, result.stderr, result.stdout_bytes)


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
