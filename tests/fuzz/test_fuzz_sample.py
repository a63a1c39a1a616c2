"""The fixed-seed fuzz sample: 2,000 mutants of the bundled checkpoints through every target.

Run alone with ``make fuzz-sample`` (``pytest tests/fuzz -m fuzz``); the full
fuzzer is ``make fuzz`` (docs/fuzzing.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.fuzz import mutators, outcome
from tools.fuzz.harness import Harness, report_lines, sample_config

pytestmark = pytest.mark.fuzz


def test_sample_has_no_failures(tmp_path: Path) -> None:
    """No unexpected exception, hang, unsafe output, blowup, crash or verdict mismatch."""
    config = sample_config(tmp_path / "fuzz-out")
    summary = Harness(config, mutators.load_corpus(max_seed_bytes=config.max_seed_bytes)).run()
    table = "\n".join(report_lines(summary))
    assert summary.cases == config.count, table
    for cls in (outcome.UNEXPECTED, outcome.HANG, outcome.UNSAFE):
        assert summary.by_class[cls] == 0, table
    assert not summary.failing, table
