"""Every kind of secret, planted in every place a message can hold text, reaches no output
of any command in any format with ``--redact``: the property the redaction must hold.

The plants are the positive examples of ``foldctl.redact.EXAMPLES`` (one or more per
kind, the context ones included: a bearer token under ``Authorization``, an AWS secret
key beside its key id, ``password=`` in a connection string, a value under a ``secret``
key).  Each is planted, in one file per runtime (an agentfootprint checkpoint, a Claude
Code session, a Codex rollout), in message text, tool-call arguments at depth (values
and keys), tool names, tool results, unknown fields and summaries, live and folded.
Each command then runs once per format over each file, and its standard output, its
standard error and every file it writes are searched for every planted value, as
written and as JSON or markup would escape it.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import pytest

from foldctl.redact import EXAMPLES, kinds
from foldctl.render.registry import RENDERERS
from tests.support import SAMPLES, jsonl, run_cli
from tests.support.builders import Convo, write_doc
from tools.generate_sessions import ClaudeSession, CodexRollout

#: Planted values shorter than this could occur by chance in other text: not planted.
MIN_SECRET = 6
PLANTS = [
    ex
    for ex in EXAMPLES
    if ex.kind is not None and ex.expected and all(len(v) >= MIN_SECRET for v in ex.expected)
]
SECRETS = sorted({v for ex in PLANTS for v in ex.expected}, key=len, reverse=True)
EVERYTHING = "\n".join(ex.text for ex in PLANTS)
KEY = "plant-key-" + "k" * 22


def arguments(ex: Any) -> dict[str, Any]:
    """The plant as tool-call arguments, three levels deep, and as a key."""
    inner = json.loads(ex.text) if ex.where == "args" else {"query": ex.text}
    return {"request": {"steps": [inner, {ex.text: "as a key"}]}, "note": ex.text}


def agentfootprint(path: Path) -> Path:
    c = Convo()
    c.add("user", f"Please look into this: {EVERYTHING}")
    for n, ex in enumerate(PLANTS):
        call = {"id": f"call_{n}", "name": ex.text, "args": arguments(ex)}
        c.add("assistant", f"Checking {ex.text}", toolCalls=[call], trace={"seen": [ex.text]})
        c.add("tool", ex.text, toolCallId=f"call_{n}", toolName=ex.text, meta={ex.text: 1})
    half = len(c.history) // 2
    c.fold(1, half, f"Summary 1: {EVERYTHING}")
    c.add("assistant", "More.")
    c.fold(1, 4, f"Summary 2, nested: {EVERYTHING}")
    c.add("assistant", f"Done. {EVERYTHING}")
    return write_doc(path, c.checkpoint())


def claude_code(path: Path) -> Path:
    s = ClaudeSession(seed=7)
    s.user(f"Please look into this: {EVERYTHING}", unknownField={"deep": [EVERYTHING]})
    for n, ex in enumerate(PLANTS):
        s.turn(
            ex.text,
            [(f"Step {n}: {ex.text}", [(ex.text, arguments(ex), ex.text, n % 2 == 0)])],
            f"Found {ex.text}",
        )
        if n == len(PLANTS) // 2:
            s.compact({"Primary Request and Intent": EVERYTHING, "Pending Tasks": [EVERYTHING]})
    s.title(EVERYTHING)
    s.compact({"Primary Request and Intent": EVERYTHING}, preserve=2)
    s.assistant(f"Done. {EVERYTHING}")
    path.write_bytes(s.data())
    return path


def codex(path: Path) -> Path:
    r = CodexRollout(seed=9)
    r.meta()
    r.user(f"Please look into this: {EVERYTHING}")
    for n, ex in enumerate(PLANTS):
        r.reason(ex.text)
        r.line(
            "response_item",
            {
                "type": "function_call",
                "name": ex.text,
                "arguments": json.dumps(arguments(ex)),
                "call_id": f"call_{n}",
                "unknownField": {"deep": [ex.text]},
            },
        )
        r.line(
            "response_item",
            {"type": "function_call_output", "call_id": f"call_{n}", "output": ex.text},
        )
        r.say(f"Found {ex.text}")
        if n == len(PLANTS) // 2:
            r.compact(EVERYTHING)
    r.compact(f"Summary: {EVERYTHING}")
    r.user("Go on.")
    r.say(f"Done. {EVERYTHING}")
    path.write_bytes(r.data())
    return path


RUNTIMES = {"agentfootprint": agentfootprint, "claude-code": claude_code, "codex": codex}


def leaks(text: str) -> list[str]:
    """The planted values ``text`` still shows, however it escapes them."""
    readable = html.unescape(text)
    flat = readable.replace("\\", "")
    found = []
    for secret in SECRETS:
        escaped = json.dumps(secret)[1:-1]
        forms = {secret, escaped, json.dumps(escaped)[1:-1]}
        if any(f in readable for f in forms) or secret.replace("\\", "") in flat:
            found.append(secret)
    return found


def parquet_text(folder: Path) -> str:
    import pyarrow.parquet as pq

    rows = [pq.read_table(f).to_pylist() for f in sorted(folder.rglob("*.parquet"))]
    return json.dumps(rows, ensure_ascii=False, default=str)


def invocations(source: str, tmp: Path) -> dict[str, list[str]]:
    """One command line per command that reads a checkpoint (formats are added)."""
    first = jsonl(run_cli("expand", source, "-f", "jsonl").stdout)[0]["digest"]
    return {
        "show": ["show", source, "--claims"],
        "expand": ["expand", source, "--keep-frames", "--include-detached"],
        "spans": ["spans", source],
        "stages": ["stages", source],
        "grep": ["grep", "", source],
        "locate": ["locate", source, first],
        "verify": ["verify", source, "--claims"],
        "claims": ["claims", source],
        "diff": ["diff", "--force", str(SAMPLES / "nested_chain.json"), source],
        "redactions": ["redactions", source],
        "report": ["report", source, "-o", str(tmp / "report.html")],
        "export": ["export", source, "--to", str(tmp / "export")],
    }


def test_every_kind_is_planted() -> None:
    planted = {ex.kind for ex in PLANTS}
    assert planted == set(kinds()), set(kinds()) - planted


@pytest.mark.parametrize("runtime", sorted(RUNTIMES))
def test_no_planted_secret_reaches_any_output(runtime: str, tmp_path: Path) -> None:
    source = str(RUNTIMES[runtime](tmp_path / f"planted.{runtime}"))
    plain = run_cli("expand", source, "-f", "jsonl", "--include-detached").stdout
    assert leaks(plain) == SECRETS, "every plant is in the file, shown when not redacted"
    key = tmp_path / "key"
    key.write_text(KEY)
    commands = invocations(source, tmp_path)
    assert set(commands) | {"sessions", "fingerprint"} == set(RENDERERS)
    checked = 0
    for command, args in commands.items():
        for fmt in RENDERERS[command] if command not in ("report", "export") else [None]:
            review = tmp_path / f"{command}-{fmt}.review.json"
            line = [*args, "--redact", "--redact-key-file", str(key), "--redactions", str(review)]
            if command == "redactions":
                line = [*args, "--redact-key-file", str(key)]
            if fmt is not None:
                line += ["-f", fmt.value]
            result = run_cli(*line)
            where = f"{runtime}: foldctl {command} -f {fmt}"
            assert result.exit_code in (0, 1), (where, result.stderr)
            outputs = {"stdout": result.stdout, "stderr": result.stderr}
            if review.exists():
                outputs["--redactions"] = review.read_text("utf-8")
            if command == "report":
                outputs["report"] = (tmp_path / "report.html").read_text("utf-8")
            if command == "export":
                outputs["tables"] = parquet_text(tmp_path / "export")
            for name, text in outputs.items():
                assert not leaks(text), (where, name, leaks(text))
            checked += 1
    assert checked >= 40


def test_the_review_file_lists_the_placeholders_printed(tmp_path: Path) -> None:
    source = str(agentfootprint(tmp_path / "planted.json"))
    review = tmp_path / "review.json"
    printed = run_cli("expand", source, "-f", "jsonl", "--redactions", str(review))
    assert printed.exit_code == 0
    assert "will not match another run's" in printed.stderr  # no key file: said once
    assert printed.stderr.count("\n") == 1
    rows = json.loads(review.read_text("utf-8"))
    placeholders = {r["placeholder"] for r in rows}
    shown = {r["placeholder"] for row in jsonl(printed.stdout) for r in row["redactions"]}
    assert shown and shown <= placeholders
    assert {r["kind"] for r in rows} == set(kinds())


def test_with_a_key_file_the_review_file_is_what_redactions_prints(tmp_path: Path) -> None:
    source = str(SAMPLES / "nested_chain.json")
    key = tmp_path / "key"
    key.write_text(KEY)
    review = tmp_path / "review.csv"
    shown = run_cli(
        "show", source, "--redact-key-file", str(key), "--redactions", str(review), "-f", "json"
    )
    assert shown.exit_code == 0 and shown.stderr == ""  # keyed: no note
    listed = run_cli("redactions", source, "--redact-key-file", str(key), "-f", "csv")
    assert review.read_bytes() == listed.stdout_bytes
    assert "[redacted:email:" in listed.stdout


def test_a_review_of_several_sources_names_each(tmp_path: Path) -> None:
    one, two = tmp_path / "a.json", tmp_path / "b.json"
    one.write_bytes((SAMPLES / "nested_chain.json").read_bytes())
    two.write_bytes((SAMPLES / "nested_chain.json").read_bytes())
    review = tmp_path / "review.jsonl"
    found = run_cli("grep", "reply sent to", str(one), str(two), "--redactions", str(review))
    assert found.exit_code == 0
    rows = jsonl(review.read_text("utf-8"))
    assert {r["source"] for r in rows} == {str(one), str(two)}
    placeholders = {r["placeholder"] for r in rows}
    assert len(placeholders) == 1 and placeholders.pop() in found.stdout


def test_export_redacts_and_keeps_a_folder_of_one_kind(tmp_path: Path) -> None:
    source = str(agentfootprint(tmp_path / "planted.json"))
    folder = tmp_path / "shared"
    done = run_cli("export", source, "--to", str(folder), "--redact")
    assert done.exit_code == 0, done.stderr
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    assert [e.get("redacted") for e in manifest["exports"]] == [True]
    tables = parquet_text(folder)
    assert "[redacted:secret_value:" in tables and not leaks(tables)
    mixed = run_cli("export", str(SAMPLES / "nested_chain.json"), "--to", str(folder))
    assert mixed.exit_code == 2 and "holds redacted exports" in mixed.stderr
    plain = tmp_path / "plain"
    assert run_cli("export", source, "--to", str(plain)).exit_code == 0
    assert leaks(parquet_text(plain))  # without --redact the tables carry everything
    again = run_cli("export", source, "--to", str(plain), "--redact")
    assert again.exit_code == 2 and "written without --redact" in again.stderr


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        (["sessions", str(SAMPLES / "sessions.db")], "never message text"),
        (["fingerprint", "hello"], "no message text"),
        (["schema", "show"], "never a checkpoint's text"),
    ],
)
def test_a_command_with_no_message_text_refuses_redact_with_a_reason(
    command: list[str], reason: str
) -> None:
    result = run_cli(*command, "--redact")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"foldctl: error: {command[0]} takes no --redact: ")
    assert reason in result.stderr and result.stderr.count("\n") == 1
