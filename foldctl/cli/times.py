"""Times as options give them: ``--since``/``--until`` and ``report``'s ``--now`` (and
``SOURCE_DATE_EPOCH``), as epoch milliseconds, each refused with one line naming it."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta, timezone

from foldctl.errors import UsageError


def _iso(text: str) -> datetime | None:
    """ISO-8601 (``Z`` for UTC; no offset means UTC), or None."""
    value = text.strip()
    if value[-1:] in ("Z", "z"):
        value = value[:-1] + "+00:00"
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def fold_time(text: str, option: str, *, end: bool = False) -> float:
    """``--since``/``--until``: epoch milliseconds from ISO-8601 (a bare date means its
    start, or with ``end`` its last millisecond) or a number of milliseconds."""
    value = text.strip()
    try:
        return float(value)
    except ValueError:
        pass
    moment = _iso(value)
    if moment is None:
        raise UsageError(
            f"{option} {text!r}: expected ISO-8601 (2026-03-16, 2026-03-16T09:13:00Z) "
            "or epoch milliseconds"
        )
    if end and len(value) == 10:  # a date alone: up to its last millisecond
        moment += timedelta(days=1, milliseconds=-1)
    return moment.timestamp() * 1000


def generated_at(now: str | None, environ: Mapping[str, str]) -> float | None:
    """The report's generation time in epoch milliseconds: ``--now`` (ISO-8601, or whole
    seconds since the epoch), else ``SOURCE_DATE_EPOCH`` (whole seconds), else None (the
    clock, when the report is made)."""
    ms: float  # an int when given in seconds: no float can overflow before the check
    if now is not None:
        value = now.strip()
        moment = _iso(value)
        if value.isdigit():
            ms = int(value) * 1000
        elif moment is None:
            raise UsageError(
                f"--now {now!r}: expected ISO-8601 (2026-01-31T12:00:00Z) or epoch seconds"
            )
        else:
            ms = moment.timestamp() * 1000
        what = f"--now {now!r}"
    elif environ.get("SOURCE_DATE_EPOCH", "").strip():
        epoch = environ["SOURCE_DATE_EPOCH"]
        what = f"SOURCE_DATE_EPOCH={epoch!r}"
        if not epoch.strip().isdigit():
            raise UsageError(f"{what}: expected whole seconds since the epoch")
        ms = int(epoch) * 1000
    else:
        return None
    try:
        datetime.fromtimestamp(ms / 1000, tz=timezone.utc)
    except (OverflowError, OSError, ValueError):
        raise UsageError(f"{what}: out of range for a date") from None
    return ms
