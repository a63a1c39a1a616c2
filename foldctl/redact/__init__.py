"""Redaction of secrets and personal data in everything foldctl prints.

    >>> from foldctl.redact import Redactor
    >>> r = Redactor(key=b"an example key, 32 bytes long...")
    >>> r.redact_text("mail bob@example.com", field="content")[0]
    'mail [redacted:email:6b463a]'
    >>> message = {"role": "user", "content": "call +44 20 7946 0958 or mail bob@example.com"}
    >>> new, redactions = r.redact_message(message, "h12")
    >>> new["content"]
    'call [redacted:phone:9df753] or mail [redacted:email:6b463a]'
    >>> [(x.kind, x.field, x.start, x.end) for x in redactions]
    [('phone', 'content', 5, 21), ('email', 'content', 30, 45)]
    >>> [(row.placeholder, row.count, row.locators) for row in r.review()]
    [('[redacted:email:6b463a]', 2, ('h12',)), ('[redacted:phone:9df753]', 1, ('h12',))]

The tag is a keyed hash (HMAC-SHA256) of the kind and the value; without a key
each Redactor draws a random one.  docs/redaction.md has the whole contract.
The detectors, the redactor and the rules import only the standard library,
``orjson`` and ``foldctl.errors``; :mod:`foldctl.redact.apply` redacts a whole fold
graph, so it imports the floors below (``model``, ``digest``, ``graph``, and the
audit's ``Finding`` to redact findings' sentences) and names the claims' results for
types only.
"""

from __future__ import annotations

from foldctl.redact.detectors import DETECTORS, EXAMPLES, Detector, Example, iban_ok, kinds, luhn_ok
from foldctl.redact.errors import RedactionError, RulesError
from foldctl.redact.redactor import (
    MAX_DEPTH,
    Redaction,
    Redactor,
    ReviewRow,
    field_path,
    load_key,
    parse_kinds,
)
from foldctl.redact.rules import Rule, Rules, load_rules, parse_rules

__all__ = [
    "DETECTORS",
    "EXAMPLES",
    "MAX_DEPTH",
    "Detector",
    "Example",
    "Redaction",
    "RedactionError",
    "Redactor",
    "ReviewRow",
    "Rule",
    "Rules",
    "RulesError",
    "field_path",
    "iban_ok",
    "kinds",
    "load_key",
    "load_rules",
    "luhn_ok",
    "parse_kinds",
    "parse_rules",
]
