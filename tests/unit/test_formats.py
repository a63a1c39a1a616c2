"""The input-format registry, the recognisers, the directory scan and the docs, held to
each other: every format is one module named once in the registry, its files are
recognised as its own (by their bytes, whatever their name) and by no other format,
directory scans take its files, and docs/architecture.md and docs/runtimes.md describe
it."""

from __future__ import annotations

import gzip
import importlib
from pathlib import Path

import pytest

import foldctl
from foldctl.errors import NotACheckpoint
from foldctl.formats import registry
from foldctl.formats.lines import read_head
from foldctl.sources.scan import CHECKPOINT_SUFFIXES, scan_sources
from tests.support import REPO, SAMPLES
from tools.generate_sessions import claude_cases, codex_cases

#: A file of each format: the bundled samples.
EXAMPLES = {
    "agentfootprint": SAMPLES / "nested_chain.json",
    "claude-code": SAMPLES / "claude_code_session.jsonl",
    "codex": SAMPLES / "codex_rollout.jsonl",
}


def test_every_format_is_one_module_named_once() -> None:
    assert set(EXAMPLES) == set(registry.names())
    for name, module in registry.FORMATS.items():
        fmt = importlib.import_module(module).FORMAT
        assert fmt.name == name and registry.get(name) is fmt
        assert module == f"foldctl.formats.{name.replace('-', '_')}"
    assert registry.names()[-1] == registry.DEFAULT  # the JSON document takes the rest


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_a_file_is_recognised_as_its_format_and_by_no_other(name: str) -> None:
    data = EXAMPLES[name].read_bytes()
    head = read_head(data)
    takers = [n for n in registry.names() if registry.get(n).sniff(head)]
    assert takers[0] == name
    if name != registry.DEFAULT:
        assert takers == [name]  # the JSON document's recogniser takes only what is not JSONL
    assert registry.recognise(data, "x").name == name


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_name_of_a_file_does_not_decide_its_format(name: str, tmp_path: Path) -> None:
    renamed = tmp_path / "no-suffix"
    renamed.write_bytes(gzip.compress(EXAMPLES[name].read_bytes()))
    assert foldctl.open(renamed).format == name


def test_every_generated_case_is_read_as_its_runtime() -> None:
    for files, name in ((claude_cases(), "claude-code"), (codex_cases(), "codex")):
        for data in files.values():
            assert registry.recognise(data, "x").name == name


def test_lines_of_json_no_format_knows_are_refused_naming_what_was_found(tmp_path: Path) -> None:
    path = tmp_path / "app.jsonl"
    path.write_text('{"level": "info", "msg": "started"}\n{"level": "warn", "msg": "slow"}\n')
    with pytest.raises(NotACheckpoint) as caught:
        foldctl.open(path)
    assert caught.value.where == "line 1"
    assert "keys level, msg" in caught.value.what and "Codex rollout" in caught.value.what


def test_directory_scans_take_every_formats_files(tmp_path: Path) -> None:
    for fmt in map(registry.get, registry.names()):
        assert set(fmt.suffixes) <= set(CHECKPOINT_SUFFIXES), fmt.name
    for name, path in EXAMPLES.items():
        (tmp_path / f"{name}{path.suffix}").write_bytes(path.read_bytes())
    (tmp_path / "app.jsonl").write_text('{"level": "info"}\n{"level": "warn"}\n')
    found = scan_sources([str(tmp_path)])
    assert len(found.sources) == len(EXAMPLES) + 1
    report = foldctl.verify([str(tmp_path)])
    assert report.not_checkpoints == (str(tmp_path / "app.jsonl"),)
    assert len(report.audits) == len(EXAMPLES)


def test_the_docs_describe_every_format() -> None:
    architecture = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    runtimes = (REPO / "docs" / "runtimes.md").read_text(encoding="utf-8")
    assert "Adding an input format" in architecture
    for name in registry.names():
        fmt = registry.get(name)
        module = registry.FORMATS[name].rsplit(".", 1)[1]
        assert f"{module}.py" in architecture, module
        assert f"| `{name}` |" in runtimes, name
        assert fmt.title in runtimes, fmt.title
        for field in fmt.not_recorded:
            assert f"`{field}`" in runtimes, (name, field)
