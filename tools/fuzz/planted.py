"""The secrets the mutators plant, and the check that none reaches a redacted output.

Pure (the standard library only): the mutators plant these values and the ``redact``
target looks for them in everything a command printed with ``--redact``.

Each secret is planted as ``text`` (what a runtime could write: an email, an AWS access
key id, an ``Authorization: Bearer`` header, a JSON Web Token, a URL with a password) and
is *leaked* when its ``core`` (the part that must never be printed: the whole address or
key, the token, the password) appears in an output.  The values are made up; none is in
the bundled samples, so a core found in a redacted output was planted by a mutator.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class Secret:
    kind: str  # the detector that must find it (docs/redaction.md)
    text: str  # as planted
    core: str  # what must never appear in a redacted output


SECRETS: Final = (
    Secret("email", "dana.wu@acme-payments.io", "dana.wu@acme-payments.io"),
    Secret("aws_access_key", "AKIAQ3EGUTZ7LWM4XK2P", "AKIAQ3EGUTZ7LWM4XK2P"),
    Secret(
        "auth_header",
        "Authorization: Bearer 9f8e7d6c5b4a3f2e1d0c9b8aZZQ",
        "9f8e7d6c5b4a3f2e1d0c9b8aZZQ",
    ),
    Secret(
        "jwt",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkYW5hIn0.Qm9ndXNTaWduYXR1cmVWYWx1ZTEyMzQ",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkYW5hIn0.Qm9ndXNTaWduYXR1cmVWYWx1ZTEyMzQ",
    ),
    Secret("url_password", "postgres://admin:Tr0ub4dor-X9@db.internal:5432/prod", "Tr0ub4dor-X9"),
)


def leaked(output: str | bytes) -> str | None:
    """The kind of the first planted secret whose core ``output`` holds, or None."""
    for secret in SECRETS:
        core: str | bytes = secret.core if isinstance(output, str) else secret.core.encode()
        if core in output:  # type: ignore[operator]
            return secret.kind
    return None
