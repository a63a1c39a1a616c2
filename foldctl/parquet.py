"""``foldctl export``: checkpoints to Parquet tables in a folder, appending only what is new.

The folder (docs/export.md)::

    DIR/manifest.json                              what was exported, by source and sha256
    DIR/checkpoints/export=ID/part-00000.parquet   one folder per table, one partition
    DIR/spans/export=ID/...                        per export run (hive style: DuckDB,
    DIR/messages/export=ID/...                     Dask and Spark read ``export`` as a
    DIR/findings/export=ID/...                     column)

Each run reads its sources in worker processes, in batches of about
:data:`BATCH_BYTES`; a worker hashes each source's stored bytes (sha256), passes
over one the manifest already holds under the same name, and writes the rest of
its batch as one Parquet file per table into ``DIR/.staging/ID/``, which no
reader looks at.  When every batch is done the run commits: the manifest is
rewritten (write, then rename) naming the new partition, then each table's
staged folder is renamed into place.  A run that dies before the manifest is
renamed leaves nothing visible (the next run deletes its staging); one that dies
after is finished by the next run, which renames what the manifest names.  Old
partitions are never rewritten.  One export runs at a time (a lock on
``DIR/.lock``).
"""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal

import msgspec

from foldctl import jsoncodec
from foldctl.arrow import to_tables
from foldctl.errors import (
    ExitStatus,
    FoldctlError,
    InputError,
    NotACheckpoint,
    UsageError,
)
from foldctl.fingerprint import require_scheme
from foldctl.graph.filters import NO_FILTER, FoldFacts, FoldFilter, total
from foldctl.optional import require
from foldctl.parallel import default_jobs, map_ordered
from foldctl.query.tables import Columns, extend, read_stored, stored_tables
from foldctl.schemas.parquet import FORMAT, TABLES
from foldctl.sources.files import SourceSpec, source_name
from foldctl.sources.scan import DEFAULT_EXCLUDES, Expansion, scan_sources, source_sizes
from foldctl.version import __version__

if TYPE_CHECKING:
    import pyarrow.parquet as pq

    from foldctl.redact.redactor import Redactor
else:
    pq = require("pyarrow.parquet", "export")

MANIFEST: Final = "manifest.json"
STAGING: Final = ".staging"
LOCK: Final = ".lock"
#: About how many stored bytes one worker reads before writing one file per table.
BATCH_BYTES: Final = 64 * 1024 * 1024
#: At most this many sources in one batch (many tiny files still make sizeable files).
BATCH_SOURCES: Final = 2000

Status = Literal["exported", "already exported", "unreadable", "not a checkpoint"]


class SourceExport(msgspec.Struct, frozen=True):
    """What became of one source."""

    source: str
    status: Status
    sha256: str | None = None
    rows: dict[str, int] | None = None  # per table, when exported
    error: FoldctlError | None = None
    facts: FoldFacts | None = None  # with a fold filter: what it held, how many spans passed


class BatchResult(msgspec.Struct, frozen=True):
    outcomes: tuple[SourceExport, ...]
    files: tuple[str, ...]  # staged, relative to the staging folder: "messages/part-00003.parquet"
    sizes: int = 0  # stored bytes read


class ExportReport(msgspec.Struct, frozen=True):
    """The result of one ``export`` run: what was written, what was passed over and why."""

    to: str
    export_id: str | None  # None when nothing new was written
    exported_at: str
    outcomes: tuple[SourceExport, ...]
    files: tuple[str, ...]  # relative to ``to``
    skipped: tuple[str, ...] = ()  # files a directory scan passed over (exclude patterns)

    def count(self, status: Status) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def facts(self) -> FoldFacts | None:
        """With a fold filter: what the sources exported held, how many spans passed."""
        held = [o.facts for o in self.outcomes if o.facts is not None]
        return total(held) if held else None

    def rows(self) -> dict[str, int]:
        totals = dict.fromkeys(TABLES, 0)
        for o in self.outcomes:
            for table, n in (o.rows or {}).items():
                totals[table] += n
        return totals

    @property
    def exit_status(self) -> ExitStatus:
        """2 when a source could not be read; 1 when a fold filter was given and no span
        of what was exported passed it; else 0."""
        if self.count("unreadable"):
            return ExitStatus.ERROR
        held = self.facts
        return ExitStatus.FOUND if held is not None and not held.passed else ExitStatus.OK

    def totals(self) -> dict[str, int]:
        return {
            "sources": len(self.outcomes),
            "exported": self.count("exported"),
            "alreadyExported": self.count("already exported"),
            "unreadable": self.count("unreadable"),
            "notCheckpoints": self.count("not a checkpoint"),
            "skipped": len(self.skipped),
        }

    def document(self) -> dict[str, Any]:
        """The ``--format json`` document."""
        return {
            "to": self.to,
            "format": FORMAT,
            "exportId": self.export_id,
            "exportedAt": self.exported_at,
            "totals": self.totals(),
            "rows": self.rows(),
            "files": list(self.files),
            "sources": [
                {
                    "source": o.source,
                    "status": o.status,
                    "sha256": o.sha256,
                    "rows": o.rows,
                    "error": None if o.error is None else str(o.error),
                }
                for o in self.outcomes
            ],
            "skipped": list(self.skipped),
            "exitStatus": int(self.exit_status),
        }


# --------------------------------------------------------------------------- one batch

#: One worker's work: the batch number, its sources (each with whether a directory scan
#: found it), the scheme, the staging folder, the sha256s already exported per source
#: (with the same fold filter), and the fold filter.
BatchItem = tuple[
    int,
    tuple[tuple[SourceSpec, bool], ...],
    str | None,
    str,
    dict[str, frozenset[str]],
    FoldFilter,
    "Redactor | None",
]


def _one(
    spec: SourceSpec,
    lenient: bool,
    scheme: str | None,
    done: dict[str, frozenset[str]],
    folds: FoldFilter,
    redactor: Redactor | None,
) -> tuple[SourceExport, Any]:
    name = source_name(spec)
    try:
        stored = read_stored(spec)
        if stored.sha256 in done.get(stored.name, frozenset()):
            return SourceExport(name, "already exported", stored.sha256), None
        tables = stored_tables(stored, scheme, version=__version__, folds=folds, redactor=redactor)
    except NotACheckpoint as e:
        status: Status = "not a checkpoint" if lenient else "unreadable"
        return SourceExport(name, status, error=None if lenient else e), None
    except FoldctlError as e:
        return SourceExport(name, "unreadable", error=e), None
    rows = {t: tables.rows(t) for t in TABLES}
    return SourceExport(name, "exported", stored.sha256, rows, facts=tables.facts), tables


def export_batch(item: BatchItem) -> BatchResult:
    """Read, hash and tabulate a batch of sources; write one file per table into staging."""
    number, specs, scheme, staging, done, folds, redactor = item
    gathered: dict[str, Columns] = {}
    outcomes = []
    for spec, lenient in specs:
        outcome, tables = _one(spec, lenient, scheme, done, folds, redactor)
        outcomes.append(outcome)
        if tables is not None:
            extend(gathered, tables)
    files: list[str] = []
    if gathered:
        for table, arrow in to_tables(gathered).items():
            if arrow.num_rows == 0:
                continue
            relative = f"{table}/part-{number:05d}.parquet"
            path = Path(staging) / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            pq.write_table(arrow, path)
            files.append(relative)
    return BatchResult(tuple(outcomes), tuple(files))


def _crashed(item: BatchItem) -> BatchResult:
    from foldctl.audit.batch import crashed

    return BatchResult(
        tuple(
            SourceExport(source_name(s), "unreadable", error=crashed(source_name(s)))
            for s, _ in item[1]
        ),
        (),
    )


# --------------------------------------------------------------------------- the folder


def _now() -> datetime:
    return datetime.now(timezone.utc)


def new_export_id(now: datetime, manifest: dict[str, Any]) -> str:
    """Sortable by time and later than every export before it, unique:
    ``20260316T091346.123456Z-3f2a91`` (a clock that went back still sorts after)."""
    last = max((e["exportId"] for e in manifest["exports"]), default="")
    stamp = f"{now:%Y%m%dT%H%M%S.%f}Z"
    if stamp <= last[: len(stamp)]:
        before = datetime.strptime(last[: len(stamp)], "%Y%m%dT%H%M%S.%fZ")
        stamp = f"{before + timedelta(microseconds=1):%Y%m%dT%H%M%S.%f}Z"
    return f"{stamp}-{secrets.token_hex(3)}"


def read_manifest(to: Path) -> dict[str, Any]:
    path = to / MANIFEST
    if not path.exists():
        return {"format": FORMAT, "exports": []}
    manifest: dict[str, Any] = jsoncodec.loads(path.read_bytes(), str(path))
    if not isinstance(manifest, dict) or not isinstance(manifest.get("exports"), list):
        raise InputError(str(path), "", "is not a foldctl export manifest (no `exports` list)")
    if manifest.get("format") != FORMAT:
        raise InputError(
            str(path),
            "format",
            f"is {jsoncodec.brief(manifest.get('format'))}; this foldctl writes {FORMAT}",
        )
    return manifest


def exported_keys(
    manifest: dict[str, Any], folds: FoldFilter = NO_FILTER
) -> dict[str, frozenset[str]]:
    """Source name -> the sha256s already exported under it with the same fold filter
    (an export under another filter wrote other rows)."""
    wanted = folds.describe() or None
    keys: dict[str, set[str]] = {}
    for export in manifest["exports"]:
        if export.get("folds") != wanted:
            continue
        for entry in export.get("sources", ()):
            keys.setdefault(entry["source"], set()).add(entry["sha256"])
    return {k: frozenset(v) for k, v in keys.items()}


def _write_atomically(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _partition(table: str, export_id: str) -> str:
    return f"{table}/export={export_id}"


def recover(to: Path, manifest: dict[str, Any]) -> None:
    """Finish a commit a previous run started (rename what the manifest names and is still
    staged), then drop whatever else is staged: it was never committed."""
    staging = to / STAGING
    for export in manifest["exports"]:
        export_id = export["exportId"]
        for table in TABLES:
            final = to / _partition(table, export_id)
            staged = staging / export_id / table
            if not final.exists() and staged.is_dir():
                final.parent.mkdir(parents=True, exist_ok=True)
                os.replace(staged, final)
    if staging.exists():
        shutil.rmtree(staging)


def _check_folder(to: Path) -> None:
    if to.exists() and not to.is_dir():
        raise UsageError(f"{to}: is not a folder; export writes a folder of Parquet tables")
    if to.is_dir() and not (to / MANIFEST).exists():
        visible = [p.name for p in to.iterdir() if not p.name.startswith(".")]
        if visible:
            raise UsageError(
                f"{to}: holds files but no {MANIFEST}, so it is not a foldctl export; "
                "give an empty or new folder, or one export wrote"
            )


class _Lock:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd = -1

    def __enter__(self) -> _Lock:
        import fcntl

        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            # A POSIX record lock: held by this process only (worker processes forked
            # later do not inherit it), released by the kernel when the process ends.
            fcntl.lockf(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(self.fd)
            raise UsageError(
                f"{self.path.parent}: another export is writing to this folder; wait for it"
            ) from None
        return self

    def __exit__(self, *_: object) -> None:
        os.close(self.fd)


def _batches(
    entries: Sequence[SourceSpec], lenient: frozenset[str], sizes: Sequence[int], target: int
) -> Iterator[tuple[tuple[tuple[SourceSpec, bool], ...], int]]:
    """Consecutive sources grouped to about ``target`` bytes; bytes in hand alone."""
    batch: list[tuple[SourceSpec, bool]] = []
    weight = 0
    for spec, size in zip(entries, sizes, strict=True):
        if not isinstance(spec, str):
            if batch:
                yield tuple(batch), weight
                batch, weight = [], 0
            yield ((spec, False),), size
            continue
        batch.append((spec, spec in lenient))
        weight += size
        if weight >= target or len(batch) >= BATCH_SOURCES:
            yield tuple(batch), weight
            batch, weight = [], 0
    if batch:
        yield tuple(batch), weight


def export(
    sources: Sequence[SourceSpec],
    to: str | os.PathLike[str],
    *,
    jobs: int | None = None,
    scheme: str | None = None,
    excludes: Sequence[str] = DEFAULT_EXCLUDES,
    found: Expansion | None = None,
    on_done: Callable[[int, int], None] | None = None,
    folds: FoldFilter = NO_FILTER,
    redactor: Redactor | None = None,
) -> ExportReport:
    """Export every source (files, directories, patterns, stores, ``STORE.db#ID``) to
    Parquet tables under ``to``, skipping what its manifest already holds; with
    ``folds``, the spans, messages and findings of the folds that pass (the manifest
    records the filter, and a source counts as exported only under the same filter).

    ``jobs`` worker processes (``None``: one per CPU); ``on_done(sources, bytes)`` is told
    of each batch as it finishes.  A source that cannot be read is reported in the result
    (``unreadable``), and the others are still exported.  With ``redactor`` every string
    of the tables is redacted; a folder holds redacted exports or plain ones, never
    both (:class:`~foldctl.errors.UsageError` otherwise), so a redacted folder can be
    shared whole."""
    if scheme is not None:
        require_scheme(scheme)
    folder = Path(to)
    _check_folder(folder)
    folder.mkdir(parents=True, exist_ok=True)
    found = found if found is not None else scan_sources(sources, excludes)
    with _Lock(folder / LOCK):
        manifest = read_manifest(folder)
        _check_redaction(folder, manifest, redactor is not None)
        recover(folder, manifest)
        return _export(folder, manifest, found, jobs, scheme, on_done, folds, redactor)


def _check_redaction(folder: Path, manifest: dict[str, Any], redacted: bool) -> None:
    """Refuse to mix redacted and plain exports in one folder."""
    for entry in manifest["exports"]:
        if bool(entry.get("redacted")) != redacted:
            if redacted:
                raise UsageError(
                    f"--redact: {folder} holds exports written without --redact; a redacted "
                    "export goes to a folder of its own, so that the whole folder can be shared"
                )
            raise UsageError(
                f"{folder} holds redacted exports (written with --redact); export into it "
                "with --redact too, or into another folder"
            )


def _export(
    folder: Path,
    manifest: dict[str, Any],
    found: Expansion,
    jobs: int | None,
    scheme: str | None,
    on_done: Callable[[int, int], None] | None,
    folds: FoldFilter,
    redactor: Redactor | None = None,
) -> ExportReport:
    now = _now()
    export_id = new_export_id(now, manifest)
    staging = folder / STAGING / export_id
    failed = [
        SourceExport(e.source if isinstance(e, InputError) else "", "unreadable", error=e)
        for e in found.errors
    ]
    seen: set[str] = set()
    entries = []
    for spec in found.sources:  # the same source named twice is read once
        if source_name(spec) not in seen:
            seen.add(source_name(spec))
            entries.append(spec)
    sizes = source_sizes(entries)
    workers = min(jobs or default_jobs(), max(1, len(entries)))
    target = max(1 << 20, min(BATCH_BYTES, sum(sizes) // max(1, workers * 4)))
    done = exported_keys(manifest, folds)
    items: list[BatchItem] = []
    weights: list[int] = []
    for number, (batch, weight) in enumerate(
        _batches(entries, found.from_directories, sizes, target)
    ):
        names = {source_name(s) for s, _ in batch}
        kept = {k: v for k, v in done.items() if k in names}
        items.append((number, batch, scheme, str(staging), kept, folds, redactor))
        weights.append(weight)
    progress = None if on_done is None else (lambda i, r: on_done(len(r.outcomes), weights[i]))
    results = list(
        map_ordered(
            export_batch,
            items,
            jobs=jobs,
            local=lambda item: any(not isinstance(s, str) for s, _ in item[1]),
            on_done=progress,
            on_crash=_crashed,
        )
    )
    outcomes = tuple(failed) + tuple(o for r in results for o in r.outcomes)
    staged = [f for r in results for f in r.files]
    exported = [o for o in outcomes if o.status == "exported"]
    if not exported:
        if staging.exists():
            shutil.rmtree(folder / STAGING)
        return ExportReport(str(folder), None, _iso(now), outcomes, (), found.skipped)
    files = tuple(
        f"{_partition(table, export_id)}/{name}"
        for table, name in (f.split("/", 1) for f in staged)
    )
    report = ExportReport(str(folder), export_id, _iso(now), outcomes, files, found.skipped)
    manifest["exports"].append(
        {
            "exportId": export_id,
            "exportedAt": report.exported_at,
            "foldctlVersion": __version__,
            "files": list(files),
            "rows": report.rows(),
            "sources": [{"source": o.source, "sha256": o.sha256} for o in exported],
            **({"folds": folds.describe()} if folds.active else {}),
            **({"redacted": True} if redactor is not None else {}),
        }
    )
    manifest["format"] = FORMAT
    _write_atomically(folder / MANIFEST, jsoncodec.dumps(manifest, indent=True) + b"\n")
    recover(folder, manifest)  # the commit: rename the staged tables into place
    return report


def _iso(now: datetime) -> str:
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"
