"""Minimal reproducers of what the fuzzer found (tests/fuzz/regressions/README.md).

Each file goes through its targets in child processes (two at a time), each
under a short time limit (a target runs several commands, each of which reads
the file).  The manifest records the class each one failed with before it was
fixed; every one is now accepted or refused.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tools.fuzz import outcome
from tools.fuzz.harness import Outcome, ReplayJob, run_many
from tools.fuzz.targets import TARGETS

pytestmark = pytest.mark.fuzz

REGRESSIONS = Path(__file__).parent / "regressions"
REPO = Path(__file__).resolve().parent.parent.parent
MANIFEST: list[dict[str, Any]] = json.loads((REGRESSIONS / "manifest.json").read_text())
CASES = [case for case in MANIFEST if case["targets"]]
#: Seconds of CPU time each command of a target may take on a reproducer (four times
#: that on the wall clock), plus this many per MB it decompresses to: a hang detector,
#: not a speed test (the hangs in the manifest took 10 s or more; fixed, well under this).
TIME_LIMIT = 2.0
TIME_PER_MB = 0.5


def _jobs(case: dict[str, Any]) -> list[ReplayJob]:
    path = REGRESSIONS / case["file"]
    limit = TIME_LIMIT + TIME_PER_MB * outcome.input_size(path.read_bytes()) / (1 << 20)
    original = str(REPO / case["original"]) if "original" in case else None
    runs = {t.name: t.runs for t in TARGETS}  # a target that runs n commands gets n limits
    return [
        ReplayJob(path, t, limit * runs.get(t, 1), original, case.get("session"))
        for t in case["targets"]
    ]


@pytest.fixture(scope="module")
def replayed() -> dict[str, list[Outcome]]:
    """Every case through its targets, all at once, two child processes at a time."""
    jobs = [(case["file"], job) for case in CASES for job in _jobs(case)]
    results = run_many([job for _, job in jobs], processes=2)
    found: dict[str, list[Outcome]] = {}
    for (name, _), result in zip(jobs, results, strict=True):
        found.setdefault(name, []).append(result)
    return found


def test_every_file_is_listed_and_described() -> None:
    listed = {case["file"] for case in MANIFEST}
    readme = (REGRESSIONS / "README.md").read_text()
    on_disk = {
        p.name
        for p in REGRESSIONS.iterdir()
        if p.name not in ("README.md", "manifest.json") and not p.name.endswith(("-wal", "-shm"))
    }
    assert on_disk == listed
    for case in MANIFEST:
        assert f"`{case['file']}`" in readme, case["file"]
        assert case["class"] in outcome.CLASSES


@pytest.mark.parametrize("case", CASES, ids=[case["file"] for case in CASES])
def test_regression_is_accepted_or_refused(
    case: dict[str, Any], replayed: dict[str, list[Outcome]]
) -> None:
    results = replayed[case["file"]]
    failed = [f"{r.target}: {r.cls} {r.exc_type} {r.frame} {r.message}" for r in results]
    assert all(r.cls in outcome.BENIGN for r in results), "\n".join(failed)
