"""Throughput of redaction on agent-transcript-like messages (not a test; prints numbers).

    .venv/bin/python -m tools.bench_redact [--mb 50] [--secret-every 200] [--runs 3]
    .venv/bin/python -m tools.bench_redact --tree OLD_TREE --tree . [--runs 5]

Makes a deterministic corpus of messages like those of a long agent run:
prose from users and the assistant, tool calls with arguments, tool results
that are JSON text full of ids, uuids, ISO timestamps, amounts, hashes and
status words, log excerpts, and (one message in ``--secret-every``) a planted
email, phone number, card, token or key.  Then it times, per message and
over the whole corpus:

- ``orjson.loads`` + ``orjson.dumps`` of each message: the floor under
  ``expand --format jsonl``, which reads and writes every message;
- ``Redactor.redact_message`` on the decoded message (the redaction alone);
- ``Redactor.redact_json`` on the message's raw JSON (decode, redact,
  re-encode only when something was found).

Figures are MB of message JSON per CPU second, best of ``--runs``.

With ``--tree`` (two or more times) it compares source trees of foldctl instead: one
worker process per tree imports ``foldctl`` from that tree (``PYTHONPATH``), every
worker times the same corpus, the trees take turns run by run (A B A B ...), and the
figures are medians with each tree's ratio to the first.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import orjson

_PROSE = (
    "the agent checked refund status for the customer and found that order was "
    "already shipped so it asked billing to confirm whether a partial credit "
    "applies under policy section four then it summarised the ticket history "
    "including escalation notes from support engineering and finance review "
    "pending approval timeout retry queue deploy rollback config cache latency "
    "p99 error budget incident postmortem mitigation owner follow-up action item "
    "we should verify the migration script before running it against production "
    "database replicas because the last attempt locked the accounts table"
)
WORDS = tuple(_PROSE.split(" "))
STATUSES = ("pending", "approved", "refunded", "shipped", "failed", "open", "closed")


def prose(rng: random.Random, n: int) -> str:
    words = [rng.choice(WORDS) for _ in range(n)]
    for i in range(0, n, rng.randint(8, 20)):
        words[i] = rng.choice(
            (
                f"RF-{rng.randint(1000, 9999)}",
                f"INC-{rng.randint(1000, 9999)}",
                f"SO-{rng.randint(10000, 99999)}",
                f"${rng.randint(1, 9999)}.{rng.randint(0, 99):02d}",
                f"EUR {rng.randint(1, 9999)}.{rng.randint(0, 99):02d}",
                f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
                f"v{rng.randint(0, 9)}.{rng.randint(0, 30)}.{rng.randint(0, 99)}",
                f"{rng.getrandbits(32):x}",
                words[i],
            )
        )
    return " ".join(words).capitalize() + "."


def record(rng: random.Random) -> dict[str, Any]:
    return {
        "id": f"ACCT-{rng.randint(1000, 9999)}",
        "uuid": str(uuid.UUID(int=rng.getrandbits(128))),
        "created_at": f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T"
        f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"
        f".{rng.randint(0, 999):03d}Z",
        "amount": f"{rng.randint(1, 99999)}.{rng.randint(0, 99):02d}",
        "currency": rng.choice(("USD", "EUR", "GBP")),
        "status": rng.choice(STATUSES),
        "commit": f"{rng.getrandbits(160):040x}",
        "epoch_ms": rng.randint(1_600_000_000_000, 1_750_000_000_000),
        "note": prose(rng, rng.randint(5, 25)),
    }


def log_lines(rng: random.Random, n: int) -> str:
    lines = []
    for _ in range(n):
        lines.append(
            f"2024-06-{rng.randint(1, 28):02d} {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:"
            f"{rng.randint(0, 59):02d},{rng.randint(0, 999):03d} INFO worker-{rng.randint(1, 16)} "
            f"request {uuid.UUID(int=rng.getrandbits(128))} took {rng.randint(1, 900)}ms "
            f"status={rng.choice((200, 201, 404, 500))} bytes={rng.randint(100, 99999)}"
        )
    return "\n".join(lines)


SECRETS = (
    "contact dana.whitlock@example.com about it",
    "call her on +1 (415) 555-0132 tomorrow",
    "card on file 4111 1111 1111 1111",
    "IBAN DE89 3704 0044 0532 0130 00",
    "curl -H 'Authorization: Bearer abcdefghijklmnop0123456789'",
    "GITHUB_TOKEN=ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
    "postgres://admin:hunter2hunter2@db.internal:5432/prod",
)


def message(rng: random.Random, i: int, secret_every: int) -> dict[str, Any]:
    kind = rng.random()
    msg: dict[str, Any]
    if kind < 0.25:
        msg = {"role": "user", "content": prose(rng, rng.randint(20, 120))}
    elif kind < 0.55:
        msg = {
            "role": "assistant",
            "content": prose(rng, rng.randint(30, 200)),
            "toolCalls": [
                {
                    "id": f"call_{rng.getrandbits(64):016x}",
                    "name": rng.choice(("search_orders", "get_ticket", "run_sql", "read_file")),
                    "args": {
                        "query": prose(rng, rng.randint(3, 12)),
                        "limit": rng.randint(1, 100),
                        "filters": {"status": rng.choice(STATUSES), "since": "2024-01-01"},
                    },
                }
            ],
        }
    elif kind < 0.9:
        body: Any = [record(rng) for _ in range(rng.randint(2, 20))]
        msg = {
            "role": "tool",
            "toolCallId": f"call_{rng.getrandbits(64):016x}",
            "toolName": "search_orders",
            "content": orjson.dumps({"results": body, "total": len(body)}).decode(),
        }
    else:
        msg = {
            "role": "tool",
            "toolName": "read_file",
            "content": log_lines(rng, rng.randint(5, 60)),
        }
    if secret_every and i % secret_every == secret_every - 1:
        msg["content"] = msg["content"] + " " + rng.choice(SECRETS)
    return msg


def corpus(mb: float, secret_every: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    messages: list[dict[str, Any]] = []
    size = 0
    while size < mb * 1e6:
        m = message(rng, len(messages), secret_every)
        messages.append(m)
        size += len(orjson.dumps(m))
    return messages


def checkpoint_messages(path: Path) -> list[dict[str, Any]]:
    data = orjson.loads(path.read_bytes())
    messages: list[dict[str, Any]] = list(data.get("history", []))
    for span in data.get("folded", []):
        messages.extend(span.get("messages", []))
    return messages


def best(runs: int, fn: Callable[[], object]) -> float:
    """The least CPU time (this process's and its children's) of ``runs`` calls.

    CPU time rather than wall time, so that other work on a shared machine
    does not count against the figures.
    """
    times = []
    for _ in range(runs):
        t0 = cpu_seconds()
        fn()
        times.append(cpu_seconds() - t0)
    return min(times)


def cpu_seconds() -> float:
    own = time.process_time()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own + children.ru_utime + children.ru_stime


_WORKER_TASKS: Final = ("redact_message", "redact_json")


def worker(corpus_file: str) -> None:
    """Time the tasks asked for on stdin, one line each; answer CPU seconds on stdout.

    The first answer is where ``foldctl`` was imported from.
    """
    import foldctl
    from foldctl.redact import Redactor  # from PYTHONPATH: the tree being measured

    raws = Path(corpus_file).read_bytes().splitlines()
    messages = [orjson.loads(raw) for raw in raws]
    key = b"bench-key-bench-key-bench-key-32"

    def redact_message() -> None:
        r = Redactor(key=key)
        for n, m in enumerate(messages):
            r.redact_message(m, f"h{n}")

    def redact_json() -> None:
        r = Redactor(key=key)
        for n, raw in enumerate(raws):
            r.redact_json(raw, f"h{n}")

    tasks = {"redact_message": redact_message, "redact_json": redact_json}
    print(foldctl.__file__, flush=True)
    for line in sys.stdin:
        fn = tasks[line.strip()]
        t0 = time.process_time()
        fn()
        print(time.process_time() - t0, flush=True)


def compare(trees: list[Path], messages: list[dict[str, Any]], runs: int) -> None:
    """Each tree's redactor on ``messages``, interleaved run by run; medians and ratios."""
    raws = [orjson.dumps(m) for m in messages]
    mb = sum(map(len, raws)) / 1e6
    with tempfile.TemporaryDirectory() as scratch:
        data = Path(scratch) / "corpus.jsonl"
        data.write_bytes(b"\n".join(raws))
        workers = []
        for tree in trees:
            env = {**os.environ, "PYTHONPATH": str(tree.resolve())}
            proc = subprocess.Popen(
                [sys.executable, str(Path(__file__).resolve()), "--worker", str(data)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env=env,
                cwd=scratch,  # outside every tree, so PYTHONPATH decides what is imported
            )
            assert proc.stdout is not None
            where = proc.stdout.readline().strip()
            print(f"{tree}: foldctl from {where}")
            workers.append(proc)
        times: dict[tuple[int, str], list[float]] = {}
        for _ in range(runs):
            for task in _WORKER_TASKS:
                for i, proc in enumerate(workers):
                    assert proc.stdin is not None and proc.stdout is not None
                    proc.stdin.write(task + "\n")
                    proc.stdin.flush()
                    times.setdefault((i, task), []).append(float(proc.stdout.readline()))
        for proc in workers:
            assert proc.stdin is not None
            proc.stdin.close()
            proc.wait()
    print(f"{len(raws):,} messages, {mb:.1f} MB of JSON; medians of {runs} interleaved runs")
    for task in _WORKER_TASKS:
        first = statistics.median(times[(0, task)])
        for i, tree in enumerate(trees):
            seconds = statistics.median(times[(i, task)])
            print(
                f"{task:15} {tree!s:40} {mb / seconds:8.1f} MB/s  ({seconds:.2f} s)"
                f"  {first / seconds:5.2f}x the first"
            )


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        worker(sys.argv[2])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=50.0)
    parser.add_argument("--secret-every", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--checkpoint",
        type=Path,
        help="take the messages of this bare checkpoint (history and folded spans) instead",
    )
    parser.add_argument(
        "--expand",
        action="store_true",
        help="with --checkpoint: also time `foldctl expand FILE --format jsonl` in a fresh "
        "process and estimate the cost of --redact as (expand + redact_json) / expand",
    )
    parser.add_argument(
        "--tree",
        type=Path,
        action="append",
        default=[],
        help="a source tree of foldctl to compare (give two or more; ratios to the first)",
    )
    args = parser.parse_args()

    if args.checkpoint is not None:
        messages = checkpoint_messages(args.checkpoint)
        source = str(args.checkpoint)
    else:
        messages = corpus(args.mb, args.secret_every, args.seed)
        source = "generated transcript corpus"
    if args.tree:
        compare(args.tree, messages, args.runs)
        return
    from foldctl.redact import Redactor

    raws = [orjson.dumps(m) for m in messages]
    mb = sum(map(len, raws)) / 1e6
    version = sys.version.split()[0]
    print(f"{source}: {len(messages):,} messages, {mb:.1f} MB of JSON, python {version}")

    def roundtrip() -> None:
        for raw in raws:
            orjson.dumps(orjson.loads(raw))

    def redact_dicts() -> None:
        r = Redactor(key=b"bench-key-bench-key-bench-key-32")
        for n, m in enumerate(messages):
            r.redact_message(m, f"h{n}")

    def redact_raw() -> None:
        r = Redactor(key=b"bench-key-bench-key-bench-key-32")
        for n, raw in enumerate(raws):
            r.redact_json(raw, f"h{n}")

    base = best(args.runs, roundtrip)
    dicts = best(args.runs, redact_dicts)
    raw = best(args.runs, redact_raw)
    print(f"orjson loads+dumps per message : {mb / base:8.1f} MB/s  ({base:.2f} s)")
    print(f"redact_message (decoded dicts) : {mb / dicts:8.1f} MB/s  ({dicts:.2f} s)")
    print(f"redact_json (raw -> raw)       : {mb / raw:8.1f} MB/s  ({raw:.2f} s)")
    if args.expand and args.checkpoint is not None:
        command = [sys.executable, "-m", "foldctl", "expand", str(args.checkpoint)]

        def expand() -> None:
            subprocess.run([*command, "--format", "jsonl"], stdout=subprocess.DEVNULL, check=True)

        file_mb = args.checkpoint.stat().st_size / 1e6
        seconds = best(args.runs, expand)
        print(f"foldctl expand --format jsonl   : {file_mb / seconds:8.1f} MB/s  ({seconds:.2f} s)")
        print(f"(expand + redact_json) / expand : {(seconds + raw) / seconds:8.2f}x")
    r = Redactor(key=b"bench-key-bench-key-bench-key-32")
    found = sum(len(r.redact_json(x)[1]) for x in raws)
    print(f"redactions in corpus: {found:,}; review rows: {len(r.review())}")


if __name__ == "__main__":
    main()
