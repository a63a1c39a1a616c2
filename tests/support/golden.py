"""Golden files: compare output with tests/golden/NAME; ``FOLDCTL_UPDATE_GOLDEN=1 pytest``
rewrites them (review the diff)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
# Read at import: the autouse fixture clears FOLDCTL_* variables before each test runs.
UPDATE_GOLDEN = os.environ.get("FOLDCTL_UPDATE_GOLDEN") == "1"


def check_golden(name: str, actual: bytes, *, replace: dict[str, str] | None = None) -> None:
    """Compare ``actual`` with tests/golden/NAME (volatile strings replaced first)."""
    for old, new in (replace or {}).items():
        actual = actual.replace(old.encode(), new.encode())
    path = GOLDEN / name
    if UPDATE_GOLDEN:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(actual)
        return
    if not path.exists():
        pytest.fail(
            f"golden file {path} is missing; run FOLDCTL_UPDATE_GOLDEN=1 pytest to create it"
        )
    expected = path.read_bytes()
    assert actual.decode("utf-8", "replace") == expected.decode("utf-8", "replace"), (
        f"output differs from {path}; if the change is intended, run "
        "FOLDCTL_UPDATE_GOLDEN=1 pytest and review the diff"
    )
    assert actual == expected
