"""Fixtures every test gets: an isolated environment; and the conformance corpus, which
lives beside the repository (tests that need it skip, saying where they looked)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import CONFORMANCE


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
