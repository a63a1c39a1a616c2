"""Times as foldctl prints them: epoch milliseconds to ISO-8601 UTC."""

from __future__ import annotations

from datetime import datetime, timezone


def iso_utc(epoch_ms: int | float) -> str:
    """Epoch milliseconds as ISO-8601 UTC with milliseconds (``2026-11-30T04:48:50.123Z``).

    A value no calendar can hold is written ``(out of range: VALUE)``, never raised.
    """
    try:
        moment = datetime.fromtimestamp(epoch_ms / 1000, tz=timezone.utc)
    except (OverflowError, OSError, ValueError):
        return f"(out of range: {epoch_ms})"
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
