"""Options shared by commands: each group gives every command that takes it all its options."""

from __future__ import annotations

import re
from typing import Annotated

import pytest
import typer

from foldctl.cli.options import Output, Redaction, Sources, grouped
from tests.support import SAMPLES, run_cli, run_proc

NESTED = str(SAMPLES / "nested_chain.json")

#: Each group's options, in the order --help lists them.
GROUPS = {
    "output": ["--format", "--color", "--no-pager"],
    "redaction": [
        "--redact",
        "--redactions",
        "--redact-key-file",
        "--redact-rules",
        "--redact-only",
        "--redact-skip",
    ],
    "folds": ["--model", "--run", "--since", "--until", "--span"],
    "sources": ["--exclude", "--jobs"],
    "expansion": ["--replays"],
}
TAKES = {
    "show": ["output", "folds", "redaction"],
    "expand": ["output", "folds", "expansion", "redaction"],
    "spans": ["output", "folds", "redaction"],
    "stages": ["output", "redaction"],
    "verify": ["sources", "output", "folds", "redaction"],
    "grep": ["folds", "expansion", "redaction", "sources", "output"],
    "locate": ["sources", "output", "redaction"],
    "diff": ["output", "redaction"],
    "sessions": ["output"],
    "fingerprint": ["output"],
    "report": ["expansion", "folds", "redaction"],
    "claims": ["sources", "output", "folds", "redaction"],
    "redactions": ["output"],
    "export": ["sources", "output", "folds", "redaction"],
}


def _options(help_text: str) -> list[str]:
    return re.findall(r"^\s+(?:-\w, )?(--[\w-]+)", help_text, re.MULTILINE)


@pytest.mark.parametrize("command", sorted(TAKES))
def test_every_command_lists_the_options_of_its_groups_in_order(command: str) -> None:
    listed = _options(run_cli(command, "--help").stdout)
    for group in TAKES[command]:
        wanted = GROUPS[group]
        at = [listed.index(option) for option in wanted]
        assert at == sorted(at) and at[-1] - at[0] == len(wanted) - 1, (group, listed)


def test_redactions_takes_how_to_redact_without_redact_itself() -> None:
    listed = _options(run_cli("redactions", "--help").stdout)
    assert "--redact" not in listed and listed.count("--redact-key-file") == 1


def test_any_redaction_option_asks_for_redaction() -> None:
    plain = run_cli("expand", NESTED, "-f", "jsonl").stdout
    assert "dana.whitfield@example.com" in plain
    for option in (["--redact"], ["--redact-only", "email"], ["--redact-skip", "phone"]):
        shown = run_cli("expand", NESTED, "-f", "jsonl", *option).stdout
        assert "dana.whitfield@example.com" not in shown and "[redacted:email:" in shown


def test_a_group_option_is_refused_in_one_line_like_any_other() -> None:
    bad = run_proc("grep", "-F", "x", NESTED, "--since", "yesterday")
    assert bad.returncode == 2
    assert bad.stderr.decode() == (
        "foldctl: error: --since 'yesterday': expected ISO-8601 (2026-03-16, "
        "2026-03-16T09:13:00Z) or epoch milliseconds\n"
    )


def test_a_group_that_repeats_an_option_of_the_command_is_refused() -> None:
    def clash(jobs: Annotated[int, typer.Option("--jobs")] = 1, *, src: Sources) -> None: ...

    with pytest.raises(TypeError, match="repeats a parameter"):
        grouped(clash)


def test_a_command_gets_its_groups_built() -> None:
    seen: list[object] = []

    def command(*, out: Output, redaction: Redaction) -> None:
        seen.extend((out, redaction))

    run = grouped(command)
    run(fmt="json", color="never", no_pager=True, redact=False, redactions=None,
        redact_key_file=None, redact_rules=None, redact_only="email", redact_skip=None)  # fmt: skip
    out, redaction = seen
    assert out == Output("json", "never", no_pager=True)
    assert isinstance(redaction, Redaction) and redaction.how.redact_only == "email"
    assert list(Redaction.__struct_fields__) == ["redact", "redactions", "how"]
