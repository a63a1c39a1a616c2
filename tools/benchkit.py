"""What every benchmark script shares: where the repository and its cache are, how to run
foldctl as a fresh process and measure one run of it, how a generated file of any size is
written."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Final

REPO: Final = Path(__file__).resolve().parent.parent
CACHE: Final = REPO / ".bench-cache"
PY: Final = sys.executable
FOLDCTL: Final = [PY, "-m", "foldctl"]


def write_chunks(path: str | Path, chunks: Iterable[bytes]) -> int:
    """Write ``chunks`` to ``path`` as they come (a generated file of any size, without
    holding it); the number of bytes written."""
    total = 0
    with open(path, "wb") as out:
        for chunk in chunks:
            out.write(chunk)
            total += len(chunk)
    return total


def run_once(argv: list[str], stdout: Any = subprocess.DEVNULL) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one child process.

    The kernel's peak RSS of a child includes what it shared with this process
    before exec, so this process never loads a large file itself: generation,
    counting and the in-process resolver runs happen in children or last.
    """
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    stderr = proc.stderr.read().decode() if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):  # 1 is "found something" (claims, verify, grep): a result
        raise SystemExit(f"benchmark command failed ({code}): {' '.join(argv)}\n{stderr}")
    return elapsed, usage.ru_maxrss / 1024


def generated_file(name: str, writer: str, *args: object) -> Path:
    """``CACHE/name``, written once by ``tools.<writer>(path, *args)`` in a child process
    (the parent stays small, see :func:`run_once`); ``writer`` is ``module:function``."""
    CACHE.mkdir(exist_ok=True)
    path = CACHE / name
    if not path.exists():
        print(f"generating {path.name} ...", file=sys.stderr, flush=True)
        tmp = path.with_suffix(".tmp")
        module, function = writer.split(":")
        code = (
            f"import sys; from tools.{module} import {function}; "
            f"{function}(sys.argv[1], *map(int, sys.argv[2:]))"
        )
        subprocess.run([PY, "-c", code, str(tmp), *map(str, args)], check=True, cwd=REPO)
        tmp.rename(path)
    return path


def generated_folder(name: str, fill: Callable[[Path], None]) -> Path:
    """``CACHE/name``, a folder filled once by ``fill(folder)``; one left half made (no
    ``.complete`` in it) is made again."""
    folder = CACHE / name
    done = folder / ".complete"
    if done.exists():
        return folder
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    fill(folder)
    done.write_text("")
    return folder
