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


def iso_ms(text: object) -> int | None:
    """An ISO-8601 time (``2025-06-01T12:00:00.123Z``, as the runtimes write them) as epoch
    milliseconds (rounded); None for anything else (a time without a zone is taken as UTC)."""
    if not isinstance(text, str) or not 10 <= len(text) <= 40:
        return None
    value = text[:-1] + "+00:00" if text.endswith(("Z", "z")) else text
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return round(moment.timestamp() * 1000)


def iso_recorded(epoch_ms: int | float | None) -> str | None:
    """:func:`iso_utc` of a time the input recorded, None when it did not."""
    return None if epoch_ms is None else iso_utc(epoch_ms)
