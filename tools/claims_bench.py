"""Throughput of the claims check on a real checkpoint, next to ``foldctl expand --format jsonl``.

Usage::

    python -m tools.claims_bench CHECKPOINT.json [--runs 3] [--show]

What is timed, in this process, after the file is parsed (``orjson.loads``,
timed separately): walking the fold chain the way ``expand`` does, building
each evidence message's text, :func:`index_message` for every retained
message (cached by content, as a caller caches by digest), filing them in one
:class:`EvidenceIndex` in expanded order, and :func:`check_summary` for every
resolved summary over its range.  Beside it: ``foldctl expand --format jsonl``
on the same file in a fresh process (median of ``--runs``), which is the bound
the claims command must stay within.  A benchmark, not a test: it prints
numbers and never fails on a slow machine.

The fold walk here is deliberately self-contained (FNV-1a 32 fingerprints, the
reference runtime's default) so the script measures only the claims package.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections import Counter
from itertools import chain
from pathlib import Path
from typing import Any

import orjson

from foldctl.claims import (
    ClaimFinding,
    EvidenceIndex,
    EvidenceRef,
    MessageAtoms,
    check_summary,
    evidence_text,
    index_message,
    wanted_tokens,
)

FRAME = "[compacted history"


def fnv1a32(text: str) -> str:
    h = 0x811C9DC5
    data = text.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(data), 2):
        h ^= data[i] | (data[i + 1] << 8)
        h = (h * 0x01000193) & 0xFFFFFFFF
    return format(h, "x")


def summary_of(content: str) -> str:
    _, sep, rest = content.partition("]\n\n")
    return rest if sep else content


def walk(checkpoint: dict[str, Any]) -> tuple[EvidenceIndex, list[tuple[str, str, int, int]]]:
    """File every placed span's originals in expanded order; (locator, summary, start, stop)."""
    spans = checkpoint.get("folded") or []
    by_fingerprint: dict[str, int] = {}
    for i, span in enumerate(spans):
        by_fingerprint.setdefault(span["summaryFingerprint"], i)
    wanted = wanted_tokens(
        summary_of(m["content"])
        for m in chain(checkpoint["history"], (m for s in spans for m in s.get("messages") or ()))
        if m.get("role") == "user" and (m.get("content") or "").startswith(FRAME)
    )
    index = EvidenceIndex(wanted=wanted)
    cache: dict[str, MessageAtoms] = {}
    summaries: list[tuple[str, str, int, int]] = []
    entered: set[int] = set()
    # an explicit stack: ("msg", locator, message) or ("close", span, frame locator, start, text)
    stack: list[tuple[Any, ...]] = [
        ("msg", f"h{i}", m) for i, m in reversed(list(enumerate(checkpoint["history"])))
    ]
    while stack:
        item = stack.pop()
        if item[0] == "close":
            _, locator, text, start = item
            summaries.append((locator, text, start, len(index)))
            continue
        _, locator, message = item
        content = message.get("content") or ""
        if message.get("role") == "user" and content.startswith(FRAME):
            span = by_fingerprint.get(fnv1a32(content))
            if span is not None and span not in entered and spans[span].get("messages"):
                entered.add(span)
                stack.append(("close", locator, summary_of(content), len(index)))
                for j, inner in reversed(list(enumerate(spans[span]["messages"]))):
                    stack.append(("msg", f"f{span}:{j}", inner))
            continue
        if not locator.startswith("f"):
            continue  # live messages are not evidence for any summary
        calls = message.get("toolCalls") or []
        text = evidence_text(content, [{**c, "args": orjson.dumps(c.get("args"))} for c in calls])
        atoms = cache.get(text)
        if atoms is None:
            atoms = cache[text] = index_message(
                text,
                role=message.get("role", ""),
                tool_name=message.get("toolName"),
                call_names=[c.get("name", "") for c in calls],
                wanted=wanted,
            )
        index.add(EvidenceRef(locator), atoms)
    return index, summaries


def claims(
    checkpoint: dict[str, Any],
) -> tuple[EvidenceIndex, list[tuple[str, list[ClaimFinding]]]]:
    index, summaries = walk(checkpoint)
    results = [
        (locator, check_summary(text, index, start=start, stop=stop))
        for locator, text, start, stop in summaries
    ]
    return index, results


def expand_seconds(path: Path, runs: int) -> tuple[float, float]:
    """Median wall and CPU seconds of ``foldctl expand --format jsonl`` in a fresh process."""
    walls, cpus = [], []
    for _ in range(runs):
        began = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "foldctl", "expand", str(path), "--format", "jsonl"],
            stdout=subprocess.DEVNULL,
        )
        _, status, usage = os.wait4(proc.pid, 0)
        walls.append(time.perf_counter() - began)
        cpus.append(usage.ru_utime + usage.ru_stime)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit("foldctl expand failed")
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("checkpoint", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--show", action="store_true", help="print every finding")
    args = parser.parse_args()
    data = args.checkpoint.read_bytes()
    megabytes = len(data) / 1e6
    began = time.perf_counter()
    try:
        checkpoint = orjson.loads(data)
    except orjson.JSONDecodeError:  # lone surrogates: the standard library keeps them
        checkpoint = json.loads(data)
    parse = time.perf_counter() - began
    if checkpoint.get("format") == "conversation-v1":
        checkpoint = checkpoint["data"]
    elif checkpoint.get("format") == "flowchart-v1":
        checkpoint = checkpoint["data"]["conversation"]
    walls, cpus = [], []
    for _ in range(args.runs):
        began, began_cpu = time.perf_counter(), time.process_time()
        index, results = claims(checkpoint)
        walls.append(time.perf_counter() - began)
        cpus.append(time.process_time() - began_cpu)
    seconds, cpu = statistics.median(walls), statistics.median(cpus)
    text_mb = sum(len(m.text.encode("utf-8", "surrogatepass")) for m in index.messages) / 1e6
    kinds = Counter(f.kind for _, found in results for f in found)
    if args.show:
        for locator, found in results:
            for f in found:
                print(f"{locator}\t{f.kind}\t{f.atom!r}\texpected={f.expected!r}\t{f.sentence!r}")
    expand, expand_cpu = expand_seconds(args.checkpoint, args.runs)
    print(f"file                          {megabytes:8.1f} MB, {len(results)} summaries checked")
    print(f"evidence text                 {text_mb:8.1f} MB in {len(index)} messages")
    print(f"orjson.loads (not counted)    {parse:8.2f} s")
    print(
        f"claims: walk + index + check  {seconds:8.2f} s wall, {cpu:.2f} s CPU  "
        f"({megabytes / cpu:.0f} MB/s of file, {text_mb / cpu:.0f} MB/s of evidence text, CPU)"
    )
    print(
        f"foldctl expand --format jsonl {expand:8.2f} s wall, {expand_cpu:.2f} s CPU  "
        f"({megabytes / expand_cpu:.0f} MB/s of file, CPU)"
    )
    print(f"claims / expand (CPU)         {cpu / expand_cpu:8.2f}")
    print(f"findings: {dict(kinds)}")


if __name__ == "__main__":
    main()
