"""The library's front door: a SOURCE in, a resolved fold graph out."""

from __future__ import annotations

from foldctl.errors import UsageError
from foldctl.fingerprint import SCHEMES
from foldctl.load import load_source
from foldctl.resolve import FoldGraph, detect_scheme, resolve


def open_graph(source: str, scheme: str | None = None) -> tuple[FoldGraph, str]:
    """Load SOURCE and join it; ``scheme=None`` detects it. Returns (graph, scheme note)."""
    if scheme is not None and scheme not in SCHEMES:
        raise UsageError(f"unknown scheme {scheme!r}; choose from {', '.join(SCHEMES)}")
    checkpoint = load_source(source)
    if scheme is None:
        scheme, note = detect_scheme(checkpoint)
    else:
        note = "forced with --scheme"
    return resolve(checkpoint, scheme), note
