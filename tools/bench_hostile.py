"""Hostile inputs in the benchmark: time on long words and names, memory on one huge string.

``claims`` on a checkpoint whose summary holds a 40,000-character word (a run of sentence
marks that no space ends: what made the sentence split quadratic) or whose frame label
and span carry a 40,000-character model name, against ``expand --format jsonl`` of the
same file, interleaved, medians: the claims check must take no more than twice as long.

``expand`` (text) and ``expand --format jsonl`` on a file whose one message holds one
huge string, in each input format (an agentfootprint checkpoint, a Claude Code session
line, a Codex rollout line, the session files written by ``tools/generate_sessions.py``):
the peak RSS of the child beyond that of ``python -c "import foldctl"``, as a multiple
of the file's size, must stay within 4.

    python -m tools.bench_hostile [--megabytes 200] [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import orjson

from tools.benchkit import CACHE, FOLDCTL, PY, REPO, run_once, write_chunks
from tools.generate_sessions import ClaudeSession, CodexRollout

#: The bounds the issue sets: claims within 2x expand; peak within 4x the file.
CLAIMS_LIMIT: Final = 2.0
MEMORY_LIMIT: Final = 4.0
LONG: Final = 40_000
_MARK: Final = "@@ONE-HUGE-STRING@@"
#: The huge string's text as JSON writes it: lines of words, quotes and a tab, all ASCII
#: (one byte a character in memory; an escape two in the file).
_FILLER: Final = orjson.dumps('log line: "status" ok\tvalue 42; next\n' * 1024)[1:-1]


@dataclass
class Timed:
    name: str
    seconds: float
    ratio: float


@dataclass
class Peak:
    file: str
    command: str
    megabytes: float
    peak_mb: float
    beyond: float  # (peak - start-up) / file size


# --------------------------------------------------------------------------- claims


def _fnv(text: str) -> str:
    from foldctl.fingerprint import SCHEMES

    return SCHEMES["fnv1a32"](text)


def claims_files() -> dict[str, Path]:
    """The nested-chain sample with one summary made hostile, each way: a long word of
    sentence marks, of dots, of letters; a long model name in a frame's label and span."""
    CACHE.mkdir(exist_ok=True)
    sample = json.loads((REPO / "sample_checkpoints" / "nested_chain.json").read_text("utf-8"))
    out: dict[str, Path] = {}
    cases = {
        "word of '!'": ("word", "!"),
        "word of '.'": ("word", "."),
        "word of letters": ("word", "x"),
        "model name": ("model", "m."),
    }
    for name, (kind, unit) in cases.items():
        doc = json.loads(json.dumps(sample))
        long = (unit * LONG)[:LONG]
        for message in doc["history"]:
            content = message["content"]
            if not content.startswith("[compacted history"):
                continue
            span = next(s for s in doc["folded"] if s["summaryFingerprint"] == _fnv(content))
            if kind == "word":
                content += f" The ledger {long}x was read."
            else:
                content = content.replace(span["model"], long)
                span["model"] = long
            message["content"] = content
            span["summaryFingerprint"] = _fnv(content)
        path = CACHE / f"hostile-{kind}-{len(out)}.json"
        path.write_bytes(orjson.dumps(doc))
        out[name] = path
    return out


def bench_claims(runs: int) -> list[dict[str, Any]]:
    """Each hostile file: expand --format jsonl and claims, interleaved, medians of at
    least 5 (both take a few tenths of a second, mostly start-up)."""
    runs = max(runs, 5)
    rows = []
    for name, path in claims_files().items():
        expand: list[float] = []
        claims: list[float] = []
        for _ in range(runs):
            expand.append(run_once([*FOLDCTL, "expand", "--format", "jsonl", str(path)])[0])
            claims.append(run_once([*FOLDCTL, "claims", str(path)])[0])
        e, c = statistics.median(expand), statistics.median(claims)
        rows.append({"file": name, "expandSeconds": e, "claimsSeconds": c, "ratio": c / e})
    return rows


# --------------------------------------------------------------------------- memory


def _placeholder_files() -> dict[str, bytes]:
    """Each format's file with the marker where the huge string goes (in one message)."""
    doc = {
        "version": 1,
        "runId": "run-1770633000000-1",
        "history": [
            {"role": "user", "content": "Read the log and tell me what failed."},
            {"role": "tool", "content": _MARK, "toolCallId": "call_1", "toolName": "read_log"},
        ],
        "lastCompletedIteration": 1,
        "originalInput": {"message": "Read the log and tell me what failed."},
        "checkpointedAt": 1770633014931,
        "folded": [],
    }
    claude = ClaudeSession(seed=7)
    claude.user("Read the log and tell me what failed.")
    claude.user(_MARK)
    codex = CodexRollout(seed=7)
    codex.meta()
    codex.context()
    codex.user("Read the log and tell me what failed.")
    codex.line(
        "response_item",
        {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "output_text", "text": _MARK}],
        },
    )
    return {
        "agentfootprint.json": orjson.dumps(doc),
        "claude_code.jsonl": claude.data(),
        "codex.jsonl": codex.data(),
    }


def huge_string_files(megabytes: int) -> dict[str, Path]:
    """The files, written in chunks (this process never holds the huge string)."""
    CACHE.mkdir(exist_ok=True)
    out = {}
    size = megabytes * 1024 * 1024
    for name, data in _placeholder_files().items():
        head, marker, tail = data.partition(_MARK.encode())
        assert marker and _MARK.encode() not in tail, name  # one message holds it

        def chunks(head: bytes = head, tail: bytes = tail) -> Any:
            yield head
            for _ in range(max(1, size // len(_FILLER))):  # whole pieces: no escape cut
                yield _FILLER
            yield tail

        path = CACHE / f"huge-{megabytes}mb-{name}"
        if not path.exists() or path.stat().st_size < size - len(_FILLER):
            write_chunks(path, chunks())
        out[name] = path
    return out


def bench_memory(megabytes: int) -> list[Peak]:
    """Peak RSS of expand (text, jsonl) beyond the interpreter's start-up, per format."""
    startup = statistics.median(run_once([PY, "-c", "import foldctl"])[1] for _ in range(3))
    peaks = []
    for name, path in huge_string_files(megabytes).items():
        file_mb = path.stat().st_size / (1024 * 1024)
        for command in (["expand"], ["expand", "--format", "jsonl"]):
            peak = run_once([*FOLDCTL, *command, str(path)])[1]
            peaks.append(Peak(name, " ".join(command), file_mb, peak, (peak - startup) / file_mb))
    return peaks


# --------------------------------------------------------------------------- report


def bench_hostile(megabytes: int, runs: int) -> dict[str, Any]:
    """Both parts, printed, and their rows (for the results file)."""
    claims = bench_claims(runs)
    print(f"\nclaims on hostile files ({LONG:,}-character word or model; interleaved, medians)")
    for row in claims:
        flag = "" if row["ratio"] <= CLAIMS_LIMIT else f"   OVER {CLAIMS_LIMIT:g}x"
        print(
            f"  {row['file']:<18} expand --format jsonl {row['expandSeconds']:6.2f} s  "
            f"claims {row['claimsSeconds']:6.2f} s  {row['ratio']:.2f}x{flag}"
        )
    peaks = bench_memory(megabytes)
    print(f"\none huge string ({megabytes} MB in one message): peak RSS beyond start-up")
    for p in peaks:
        flag = "" if p.beyond <= MEMORY_LIMIT else f"   OVER {MEMORY_LIMIT:g}x"
        print(
            f"  {p.file:<20} {p.command:<22} file {p.megabytes:7.1f} MB  peak "
            f"{p.peak_mb:7.1f} MB  {p.beyond:.2f}x the file{flag}"
        )
    return {"claims": claims, "memory": [p.__dict__ for p in peaks]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    result = bench_hostile(args.megabytes, args.runs)
    over = [r for r in result["claims"] if r["ratio"] > CLAIMS_LIMIT]
    over += [p for p in result["memory"] if p["beyond"] > MEMORY_LIMIT]
    return 1 if over else 0


if __name__ == "__main__":
    raise SystemExit(main())
