"""Golden files of the text a reviewer reads: ``show``, ``expand``, ``verify``, ``sessions``.

Run from the repository's top folder on the bundled samples, piped (no colour).
``FOLDCTL_UPDATE_GOLDEN=1 pytest tests/cli/test_golden.py`` rewrites them; review the diff.
"""

from __future__ import annotations

import pytest

from tests.support import REPO, run_cli
from tests.support.golden import check_golden

CASES = {
    "show.text": ["show", "sample_checkpoints/nested_chain.json"],
    "show_detached.text": ["show", "sample_checkpoints/detached_span.json"],
    "show.markdown": ["show", "sample_checkpoints/nested_chain.json", "-f", "markdown"],
    "expand.text": ["expand", "sample_checkpoints/nested_chain.json"],
    "expand_detached.text": [
        "expand", "sample_checkpoints/detached_span.json", "--include-detached", "--keep-frames"
    ],
    "expand.markdown": ["expand", "sample_checkpoints/tool_calls.json", "-f", "markdown"],
    "verify.text": ["verify", "sample_checkpoints"],
    "sessions.text": ["sessions", "sample_checkpoints/sessions.db"],
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_text(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    result = run_cli(*CASES[name])
    assert result.exit_code in (0, 1), result.stderr
    check_golden(name, result.stdout_bytes)
