"""The floor `make bench` prints beside `expand --format jsonl` does what every row of expand
must do: its digests are foldctl's, line for line, so the floor is a fair one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson

import foldctl
from foldctl.digest import digest
from tools.bench_sessions import FLOOR

SAMPLE = Path(__file__).parents[2] / "sample_checkpoints" / "claude_code_session.jsonl"


def test_the_floor_writes_foldctls_digest_for_every_line() -> None:
    done = subprocess.run(
        [sys.executable, "-c", FLOOR, str(SAMPLE)], capture_output=True, check=True
    )
    floor = [orjson.loads(line) for line in done.stdout.splitlines()]
    assert len(floor) == len(SAMPLE.read_bytes().splitlines())
    by_line = {row["line"]: row["digest"] for row in floor}
    conversation = foldctl.open(SAMPLE)
    rows = list(conversation.walk(include_detached=True))
    assert rows and all(by_line[r.line] == digest(r.message) for r in rows)
