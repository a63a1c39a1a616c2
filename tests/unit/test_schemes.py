"""Fingerprint schemes: each one round-trips through the generator and is detected; a
checkpoint that joins under several schemes, or none, is reported rather than guessed."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from foldctl.fingerprint import DEFAULT_SCHEME, SCHEMES
from foldctl.formats.source import load_bytes
from foldctl.graph.resolve import detect_scheme, resolve
from tests.support import conformance_params, run_cli, run_proc
from tools import make_store
from tools.generate import GenSpec, RunSpec, generate, to_bytes, wrap_conversation_envelope


def generated(scheme: str, seed: int = 5) -> dict[str, Any]:
    """A two-run conversation with nested folds and every script, fingerprinted with ``scheme``."""
    return generate(
        GenSpec(
            seed=seed,
            scheme=scheme,
            mix=("ascii", "latin1", "cjk", "emoji"),
            lone_surrogate=True,
            runs=(RunSpec(tool_rounds=5), RunSpec(tool_rounds=2, fold_at=(2,))),
        )
    )


def show_json(path: Path | str, *extra: str) -> dict[str, Any]:
    result = run_cli("show", str(path), "--format", "json", *extra)
    assert result.exit_code == 0
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc


def frames_of(doc: dict[str, Any]) -> list[tuple[int | None, int, str]]:
    """(span index or None for history, message index, content) of every frame."""
    found = []
    containers: list[tuple[int | None, list[dict[str, Any]]]] = [(None, doc["history"])]
    containers += [(i, s["messages"]) for i, s in enumerate(doc["folded"]) if "messages" in s]
    for where, messages in containers:
        for i, m in enumerate(messages):
            if m["role"] == "user" and m["content"].startswith("[compacted history"):
                found.append((where, i, m["content"]))
    return found


@pytest.mark.parametrize("scheme", list(SCHEMES))
def test_each_scheme_round_trips_and_is_detected(scheme: str, tmp_path: Path) -> None:
    doc = generated(scheme)
    frames = frames_of(doc)
    assert len(frames) >= 4
    # The generator wrote each span's fingerprint under the scheme: recompute independently.
    fingerprints = {span["summaryFingerprint"] for span in doc["folded"]}
    assert {SCHEMES[scheme](content) for _, _, content in frames} == fingerprints

    path = tmp_path / f"{scheme}.json"
    path.write_bytes(to_bytes(doc))
    shown = show_json(path)
    assert shown["scheme"] == scheme
    assert shown["schemeNote"].startswith("detected")
    assert shown["counts"]["unresolvedFrames"] == 0
    assert shown["counts"]["placed"] == len(doc["folded"])

    # Expanding gives back every folded message: no frame is left unexpanded.
    rows = [
        json.loads(line) for line in run_cli("expand", str(path), "-f", "jsonl").stdout.splitlines()
    ]
    assert not [r for r in rows if r.get("resolution") == "unresolved"]


@pytest.mark.parametrize("scheme", list(SCHEMES))
def test_each_scheme_is_detected_inside_a_store(scheme: str, tmp_path: Path) -> None:
    doc = generated(scheme, seed=8)
    db = tmp_path / "s.db"
    envelope = wrap_conversation_envelope(doc, doc["checkpointedAt"])
    make_store.write_store(db, [make_store.row_for(f"run-{scheme}", envelope)])
    shown = show_json(f"{db}#run-{scheme}")
    assert (shown["scheme"], shown["counts"]["unresolvedFrames"]) == (scheme, 0)
    listed = json.loads(run_cli("sessions", str(db), "-f", "json").stdout)
    assert listed[0]["scheme"] == scheme


@pytest.mark.parametrize("scheme", [s for s in SCHEMES if s != DEFAULT_SCHEME])
def test_forcing_another_scheme_joins_nothing_and_says_it_was_forced(
    scheme: str, tmp_path: Path
) -> None:
    doc = generated(DEFAULT_SCHEME)
    path = tmp_path / "cp.json"
    path.write_bytes(to_bytes(doc))
    shown = show_json(path, "--scheme", scheme)
    assert shown["scheme"] == scheme
    assert shown["schemeNote"] == "forced"
    assert shown["counts"]["unresolvedFrames"] == shown["counts"]["frames"] > 0
    assert shown["counts"]["placed"] == 0


def test_an_unknown_scheme_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "cp.json"
    path.write_bytes(to_bytes(generated(DEFAULT_SCHEME)))
    proc = run_proc("show", str(path), "--scheme", "crc32")
    assert proc.returncode == 2
    assert b"unknown scheme 'crc32'" in proc.stderr


def mixed(doc: dict[str, Any], other: str, how_many: int) -> dict[str, Any]:
    """``doc`` with ``how_many`` spans re-fingerprinted under ``other`` (their frames unchanged)."""
    out = copy.deepcopy(doc)
    checkpoint = load_bytes(to_bytes(out), "mixed")
    graph = resolve(checkpoint, DEFAULT_SCHEME)
    changed = 0
    for ref in graph.frames.values():
        if ref.span is None or changed == how_many:
            continue
        content = graph.container_messages(ref.container)[ref.index]["content"]
        out["folded"][ref.span]["summaryFingerprint"] = SCHEMES[other](content)
        changed += 1
    assert changed == how_many
    return out


def test_a_mixed_checkpoint_is_reported_with_each_schemes_count(tmp_path: Path) -> None:
    doc = generated(DEFAULT_SCHEME)
    total = len(frames_of(doc))
    path = tmp_path / "mixed.json"
    path.write_bytes(to_bytes(mixed(doc, "xxh64", 2)))
    shown = show_json(path)
    note = shown["schemeNote"]
    assert note.startswith(f"mixed: fnv1a32 joins {total - 2}, xxh64 joins 2 of {total} frames")
    assert "--scheme" in note
    assert shown["scheme"] == "fnv1a32"  # the most frames; the note says it is a choice
    assert shown["counts"]["unresolvedFrames"] == 2  # and the frames it leaves are not hidden
    text = run_cli("show", str(path)).stdout
    assert "mixed: fnv1a32 joins" in text


def test_mixed_note_from_the_library(tmp_path: Path) -> None:
    doc = mixed(generated(DEFAULT_SCHEME), "xxh3-128", 3)
    scheme, note = detect_scheme(load_bytes(to_bytes(doc), "m"))
    total = len(frames_of(doc))
    assert scheme == ("xxh3-128" if total - 3 < 3 else "fnv1a32")  # most joins; ties: earlier
    assert note.startswith("mixed:")
    assert f"fnv1a32 joins {total - 3}" in note and "xxh3-128 joins 3" in note


def test_a_checkpoint_no_scheme_joins_says_so(tmp_path: Path) -> None:
    doc = generated(DEFAULT_SCHEME)
    for i, span in enumerate(doc["folded"]):
        span["summaryFingerprint"] = f"{0xABC0 + i:x}"  # a plausible form, joined by nothing
    path = tmp_path / "unjoinable.json"
    path.write_bytes(to_bytes(doc))
    shown = show_json(path)
    assert shown["schemeNote"] == "no scheme joins any frame; reference scheme assumed"
    assert shown["counts"]["unresolvedFrames"] == shown["counts"]["frames"]
    assert "no scheme joins any frame" in run_cli("show", str(path)).stdout


def test_a_partly_joined_checkpoint_names_the_share(tmp_path: Path) -> None:
    """One scheme, some frames unjoined (forged or tampered): detected, with the share."""
    doc = generated("xxh32")
    doc["folded"][0]["summaryFingerprint"] = "0badf00d"
    total = len(frames_of(doc))
    scheme, note = detect_scheme(load_bytes(to_bytes(doc), "p"))
    assert scheme == "xxh32"
    assert note == f"detected: joins {total - 1} of {total} frames"


@pytest.mark.parametrize("case", conformance_params())
def test_the_reference_corpus_is_fnv1a32_and_never_mixed(case: str, conformance: Path) -> None:
    data = (conformance / f"{case}.json").read_bytes()
    scheme, note = detect_scheme(load_bytes(data, case))
    assert scheme == "fnv1a32"
    assert not note.startswith("mixed")
    expected = json.loads((conformance / f"{case}.expected.json").read_bytes())
    if any(row["foldedSpanIndex"] is not None for row in expected["history"]):
        assert note.startswith("detected")


@pytest.mark.parametrize(
    "content",
    ["[compacted history] " + "a" * 300, "摘要 🙂 " * 100, "x\ud800" * 200, "\u200b" * 5_000],
    ids=["ascii", "wide", "lone-surrogate", "zero-width"],
)
def test_a_long_summary_seen_again_gets_the_same_fingerprint(content: str) -> None:
    """The memo of long contents answers what hashing answers, and holds no content."""
    from foldctl import fingerprint

    fingerprint._FNV_SEEN.clear()
    first = fingerprint.fnv1a32(content)
    assert first == fingerprint._fnv1a32(content)
    assert fingerprint.fnv1a32(content[:-1] + "!") != first  # a changed content is hashed again
    assert fingerprint.fnv1a32(content) == first
    assert all(isinstance(k, bytes) and len(k) == 16 for k in fingerprint._FNV_SEEN)
