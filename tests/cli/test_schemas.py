"""The published JSON Schemas: valid, printed by ``foldctl schema``, documented, and true of
every JSON/JSONL output of every command."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from foldctl import schemas
from tests.support import CONFORMANCE, REPO, SAMPLES, app, jsonl, run_cli
from tests.support.builders import audit_monday, detached_convo, friday_of, lost_evidence, write_doc

DOCS = REPO / "docs" / "output.md"
#: Commands whose output is not JSON: an HTML file, the schemas themselves, and the MCP
#: server (its answers are the other commands' records; its tools carry their schemas).
NO_JSON = {"report", "schema", "mcp"}


def validator(command: str, *, record: bool) -> jsonschema.Draft202012Validator:
    schema = schemas.record_schema(command) if record else schemas.load(command)
    return jsonschema.Draft202012Validator(schema)


def assert_valid(command: str, fmt: str, stdout: str) -> int:
    """Validate one output; return how many objects were checked."""
    if fmt == "json":
        docs = [json.loads(stdout)]
        check = validator(command, record=False)
    else:
        docs = jsonl(stdout)
        check = validator(command, record=True)
    for doc in docs:
        errors = sorted(check.iter_errors(doc), key=lambda e: list(e.absolute_path))
        assert not errors, (
            f"{command} --format {fmt}: {errors[0].message} at {list(errors[0].absolute_path)}"
        )
    return len(docs)


# --------------------------------------------------------------------------- the files


def test_every_schema_is_a_valid_draft_2020_12_schema() -> None:
    for name in schemas.names():
        schema = schemas.load(name)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        jsonschema.Draft202012Validator.check_schema(schema)
        jsonschema.Draft202012Validator.check_schema(schemas.record_schema(name))
        assert "record" in schema["$defs"], name


def test_every_command_with_json_output_publishes_a_schema() -> None:
    commands = set(app.commands)
    assert set(schemas.names()) == commands - NO_JSON


def test_the_message_definition_is_the_same_everywhere() -> None:
    defs = [schemas.load(n)["$defs"]["message"] for n in ("expand", "grep", "locate")]
    assert defs[0] == defs[1] == defs[2]


def test_schema_command_prints_the_files(tmp_path: Path) -> None:
    listed = run_cli("schema")
    assert listed.stdout.split() == schemas.names()
    for name in schemas.names():
        result = run_cli("schema", name)
        assert result.exit_code == 0
        assert result.stdout_bytes == schemas.text(name)
        record = json.loads(run_cli("schema", name, "--jsonl").stdout)
        assert record["$ref"] == "#/$defs/record"
    unknown = run_cli("schema", "nope")
    assert unknown.exit_code == 2 and "no published schema for 'nope'" in unknown.stderr


def _property_names(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                yield from value
            yield from _property_names(value)
    elif isinstance(node, list):
        for item in node:
            yield from _property_names(item)


def test_every_key_is_documented() -> None:
    text = DOCS.read_text(encoding="utf-8")
    documented = set(re.findall(r"`([A-Za-z][A-Za-z0-9]*)`", text))
    missing = {
        f"{name}: {key}"
        for name in schemas.names()
        for key in _property_names(schemas.load(name))
        if key not in documented
    }
    assert not missing, f"keys missing from {DOCS.name}: {sorted(missing)}"


def test_the_validators_do_reject_what_is_wrong(tmp_path: Path) -> None:
    path = str(audit_monday().write(tmp_path / "a.json"))
    [hit] = jsonl(run_cli("grep", "-F", "Audit account", path, "-f", "jsonl").stdout)
    check = validator("grep", record=True)
    assert check.is_valid(hit)
    assert not check.is_valid({k: v for k, v in hit.items() if k != "digest"})
    assert not check.is_valid(hit | {"locator": "history[0]"})
    assert not check.is_valid(hit | {"locator": "h1>f2:0"})  # the path form is never printed
    assert not check.is_valid(hit | {"occurrence": 0})
    assert not check.is_valid({k: v for k, v in hit.items() if k != "chain"})
    span_row = jsonl(run_cli("spans", path, "-f", "jsonl").stdout)[0]
    assert not validator("spans", record=True).is_valid(span_row | {"undocumented": 1})
    assert not validator("diff", record=True).is_valid({"kind": "span-vanished"})


# --------------------------------------------------------------------------- real output


def _inputs(tmp_path: Path) -> list[str]:
    built = [
        write_doc(tmp_path / "audit.json", audit_monday().checkpoint()),
        write_doc(tmp_path / "friday.json", friday_of(audit_monday()).checkpoint()),
        write_doc(tmp_path / "lost.json", lost_evidence(audit_monday())),
        write_doc(tmp_path / "detached.json", detached_convo()),
    ]
    found = [str(p) for p in built]
    for folder in (SAMPLES, CONFORMANCE):
        if folder.is_dir():
            # Every shape the corpus has, but not its 2 MB file: that adds time, not shapes.
            found += sorted(
                str(p)
                for p in folder.glob("*.json")
                if not p.name.endswith(".expected.json") and p.stat().st_size < 1_000_000
            )
    return found


def _store(tmp_path: Path) -> Path:
    path = tmp_path / "store.db"
    with sqlite3.connect(path) as db:
        db.execute(
            "CREATE TABLE agent_sessions (session_id TEXT, format TEXT, saved_at INTEGER, "
            "envelope TEXT, owner TEXT, message_count INTEGER)"
        )
        for sid, doc in (("mon", audit_monday().checkpoint()), ("bad", None)):
            envelope = (
                "{"
                if doc is None
                else json.dumps(
                    {"format": "conversation-v1", "data": doc, "savedAt": 1_773_000_000_000}
                )
            )
            db.execute(
                "INSERT INTO agent_sessions VALUES (?, 'conversation-v1', 1773000000000, ?, "
                "'ops', 4)",
                (sid, envelope),
            )
    db.close()
    return path


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_every_output_validates(tmp_path: Path, fmt: str) -> None:
    sources = _inputs(tmp_path)
    checked = 0
    for source in sources:
        runs: list[tuple[str, list[str]]] = [
            ("expand", ["expand", source, "--keep-frames", "--include-detached"]),
            ("spans", ["spans", source]),
            ("stages", ["stages", source]),
            ("grep", ["grep", "-i", "account|refund|summary|read_", source, "--field", "*"]),
            ("grep", ["grep", "-c", "zzz-none", source]),
            ("diff", ["diff", sources[0], source, "--force"]),
            ("verify", ["verify", source, "--claims"]),
            ("claims", ["claims", source]),
            ("redactions", ["redactions", source]),
            ("expand", ["expand", source, "--redact"]),
        ]
        if fmt == "json":
            runs += [
                ("show", ["show", source]),
                ("fingerprint", ["fingerprint", "x", "--join", source]),
            ]
        rows = jsonl(run_cli("expand", source, "-f", "jsonl", "--keep-frames").stdout)
        if rows:
            runs.append(("locate", ["locate", source, rows[-1]["digest"]]))
        for command, args in runs:
            result = run_cli(*args, "--format", fmt)
            assert result.exit_code in (0, 1), (args, result.stderr)
            checked += assert_valid(command, fmt, result.stdout)
    store = str(_store(tmp_path))
    for command, args in (("sessions", ["sessions", store]), ("verify", ["verify", store])):
        result = run_cli(*args, "--format", fmt)
        assert result.exit_code == 2  # the "bad" session cannot be read, and says so
        checked += assert_valid(command, fmt, result.stdout)
    once = [
        ("expand", ["expand", sources[0], "--depth", "1"]),
        ("expand", ["expand", sources[0], "--only", "h1"]),
        ("grep", ["grep", "-l", "ACCT", *sources[:3]]),
    ]
    if fmt == "json":
        once.append(("fingerprint", ["fingerprint", "x"]))
    if fmt == "json":
        once.append(("export", ["export", *sources, store, "--to", str(tmp_path / "out")]))
    for command, args in once:
        checked += assert_valid(command, fmt, run_cli(*args, "--format", fmt).stdout)
    assert checked > len(sources) * 8
