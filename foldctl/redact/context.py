"""When a value is a secret by its context: the name it sits under, and what a value is.

A value is a credential by its shape (a provider's prefix, a checksum) or by its
context: the JSON key, header or assignment it sits under.  :func:`secret_name` says
whether a name (``access_token``, ``X-Api-Key``, ``DB_PASSWORD``, ``Set-Cookie``)
names a secret; :func:`secret_value_span` which part of a value under such a name
is the secret (the credential after an ``Authorization`` scheme word, nothing for a
template such as ``$TOKEN`` or ``<password>``).  Both the text detector
``secret_value`` (``password=…``, ``"secret": "…"``) and the redactor's walk over
JSON objects (a tool call's ``{"headers": {"Authorization": "Bearer …"}}``) use them,
so one rule holds in text and in structure.

Nothing here is a regular expression over untrusted text except bounded, linear ones.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import pairwise
from typing import Final

from foldctl.lazyre import lazy

__all__ = ["TEMPLATE", "is_authorization", "secret_name", "secret_value_span"]

#: Words of a name that make it a secret's name (``x-api-key`` has ``api`` + ``key``).
_SECRET_WORDS: Final = frozenset(
    (
        "token",
        "secret",
        "password",
        "passwd",
        "pwd",
        "apikey",
        "cookie",
        "cookies",
        "authorization",
        "credential",
        "credentials",
        "privatekey",
        "secretkey",
    )
)
#: Pairs of consecutive words that name a secret.
_SECRET_PAIRS: Final = frozenset((("api", "key"), ("private", "key"), ("secret", "key")))
#: Substrings that name a secret wherever they occur in a name (``PGPASSWORD``).
_SECRET_PARTS: Final = ("password", "passwd", "secret")
#: A last word that makes the name one *about* a secret, not the secret itself:
#: ``token_type``, ``password_min_length``, ``secret_name``, ``api_key_env``.
_ABOUT: Final = frozenset(
    (
        "type", "types", "count", "counts", "usage", "limit", "limits", "length", "len",
        "budget", "name", "names", "id", "ids", "file", "path", "env", "var", "field",
        "hint", "expiry", "expires", "expiration", "ttl", "url", "uri", "endpoint",
        "prompt", "estimate", "index", "used", "remaining", "total", "policy", "version",
        "arn", "ref", "required", "enabled", "kind", "format", "location", "header",
        "manager", "store", "rotation", "at", "in", "provider", "source", "label",
        "description", "mode", "scope", "scopes", "status", "present", "set", "valid",
    )
)  # fmt: skip

_WORDS: Final = lazy(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")

#: A placeholder for a value, not a value: ``$TOKEN``, ``${X}``, ``{token}``, ``<pw>``,
#: ``****``, ``xxx``, ``...``, ``%s``, ``[redacted:…]``, ``null``, ``true``.
TEMPLATE: Final = lazy(
    r"\*+|[xX]{1,64}|\.{2,}|…|\$\{?[A-Za-z_][A-Za-z0-9_]{0,64}\}?|<[^<>\x00]{0,64}>"
    r"|\{\{?[^{}\x00]{0,64}\}?\}|%[sd]|%\([A-Za-z_]{1,32}\)s|\[redacted:[a-z0-9_]{1,40}:[0-9a-f]{6,64}\]"
    r"|(?i:null|none|nil|true|false|undefined|changeme|redacted|hidden|required|optional|string)",
)
#: The scheme word before a credential in an Authorization value.
_SCHEME: Final = lazy(r"(?i:bearer|basic|token|digest|negotiate|apikey|key|sso-key)[ \t]+")


@lru_cache(maxsize=4096)
def secret_name(name: str) -> bool:
    """True when ``name`` (a JSON key, a header, a variable) names a secret."""
    if len(name) > 80 or not name:
        return False
    words = [w.lower() for w in _WORDS.findall(name)]
    if not words or words[-1] in _ABOUT:
        return False
    if any(w in _SECRET_WORDS for w in words):
        return True
    if any(pair in _SECRET_PAIRS for pair in pairwise(words)):
        return True
    low = name.lower()
    return any(part in low for part in _SECRET_PARTS)


def is_authorization(name: str) -> bool:
    """True for ``Authorization`` and ``Proxy-Authorization`` (any case)."""
    return name.lower().endswith("authorization")


def secret_value_span(value: str, *, authorization: bool = False) -> tuple[int, int] | None:
    """The part of ``value`` (under a secret's name) that is the secret, or None.

    Surrounding blanks are left; so is the scheme word of an Authorization value
    (``Bearer``).  An empty value or a template is no secret.  Values are bounded:
    a value of more than 8192 characters under a secret's name is redacted whole.
    """
    start, end = 0, len(value)
    while start < end and value[start] in " \t\r\n":
        start += 1
    while end > start and value[end - 1] in " \t\r\n":
        end -= 1
    if authorization:
        scheme = _SCHEME.match(value, start, end)
        if scheme is not None:
            start = scheme.end()
    if start >= end:
        return None
    if end - start <= 80 and TEMPLATE.fullmatch(value, start, end):
        return None
    return start, end
