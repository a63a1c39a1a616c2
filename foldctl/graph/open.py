"""A SOURCE in, a resolved fold graph out: load, pick the fingerprint scheme, join."""

from __future__ import annotations

from typing import TYPE_CHECKING

from foldctl.fingerprint import require_scheme
from foldctl.formats import registry as formats
from foldctl.formats.source import load_source
from foldctl.graph.resolve import FoldGraph, FramePrints, detect_scheme, resolve
from foldctl.model import Checkpoint
from foldctl.sources.files import SourceSpec

if TYPE_CHECKING:
    from foldctl.sources.evidence import Stored


def join(checkpoint: Checkpoint, scheme: str | None = None) -> tuple[FoldGraph, str]:
    """Join a loaded checkpoint; ``scheme=None`` detects it. Returns (graph, scheme note).

    A checkpoint whose format links its summaries to their originals (by the uuid chain, by
    position) is joined by those links: no fingerprint scheme applies, a forced one is
    ignored, and the note says which link joined."""
    if checkpoint.links is not None:
        fmt = formats.get(checkpoint.format)
        note = f"joined by the {fmt.title}'s own links ({fmt.join}); fingerprints do not apply"
        if scheme is not None:
            note += f" (--scheme {scheme} ignored)"
        return resolve(checkpoint), note
    prints = FramePrints(checkpoint)  # detection's fingerprints, reused by the join
    if scheme is None:
        scheme, note = detect_scheme(checkpoint, prints)
    else:
        note = "forced"
    return resolve(checkpoint, require_scheme(scheme), prints), note


def open_graph(source: SourceSpec, scheme: str | None = None) -> tuple[FoldGraph, str]:
    """Load SOURCE and join it; ``scheme=None`` detects it. Returns (graph, scheme note)."""
    if scheme is not None:
        require_scheme(scheme)
    return join(load_source(source), scheme)


def open_evidence(source: SourceSpec, scheme: str | None = None) -> tuple[FoldGraph, str, Stored]:
    """:func:`open_graph`, and the stored bytes hashed; a file that changed in between
    is refused, so the hash is of what was read."""
    from foldctl.sources.evidence import evidence_path, hash_stored, signature

    before = signature(evidence_path(source))
    graph, note = open_graph(source, scheme)
    return graph, note, hash_stored(source, before)
