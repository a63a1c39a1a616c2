"""Claims: check a summary against the originals it stands for.

The rules (:mod:`~foldctl.claims.atoms`, :mod:`~foldctl.claims.vocab`,
:mod:`~foldctl.claims.facts`, :mod:`~foldctl.claims.failures`,
:mod:`~foldctl.claims.operations`, :mod:`~foldctl.claims.derived`,
:mod:`~foldctl.claims.index`, :mod:`~foldctl.claims.check`,
:mod:`~foldctl.claims.stored`) are pure functions over plain text and data, with no
knowledge of checkpoints or the fold graph: the caller gathers, for each summary, the
evidence messages (its span's messages and, recursively, the originals of the summaries
nested in it) and passes their text.
:mod:`~foldctl.claims.record` is that caller: it opens sources and walks a
checkpoint's fold graph (floors below: sources, load, graph), and gives the audit its
``claim-*`` findings (the audit's ``Finding``).  Nothing here knows the command line
or redaction.

>>> from foldctl.claims import EvidenceIndex, EvidenceRef, check_summary, index_message
>>> result = '{"refund_id":"RF-9120","status":"pending_approval"}'
>>> atoms = index_message(result, tool_name="issue_refund")
>>> evidence = EvidenceIndex([(EvidenceRef("f5:2"), atoms)])
>>> [(f.kind, f.atom, f.expected) for f in check_summary("refund RF-9120 was approved", evidence)]
[('contradicted', 'approved', 'pending_approval')]
>>> check_summary("refund RF-9120 is awaiting approval", evidence)
[]

The rules are in :mod:`foldctl.claims.atoms` (with a table of examples) and
``docs/claims.md``.
"""

from foldctl.claims.atoms import EXAMPLES, Atom, extract_atoms
from foldctl.claims.check import (
    CONTRADICTED,
    DROPPED,
    KINDS,
    UNSUPPORTED,
    UNVERIFIABLE,
    UNVERIFIED,
    ClaimFinding,
    check_summary,
    unverifiable,
)
from foldctl.claims.index import (
    EvidenceIndex,
    EvidenceRef,
    MessageAtoms,
    evidence_text,
    index_message,
    wanted_tokens,
)

__all__ = [
    "CONTRADICTED",
    "DROPPED",
    "EXAMPLES",
    "KINDS",
    "UNSUPPORTED",
    "UNVERIFIABLE",
    "UNVERIFIED",
    "Atom",
    "ClaimFinding",
    "EvidenceIndex",
    "EvidenceRef",
    "MessageAtoms",
    "check_summary",
    "evidence_text",
    "extract_atoms",
    "index_message",
    "unverifiable",
    "wanted_tokens",
]
