"""What makes a tool result an error, what kind of error it is, and what words mention one.

A tool result reports an error (for ``dropped``) when the runtime flags it, or when
its text says so *as the result of the call*, wherever in the text that is:

* its first line starts like an error (``Error:``, ``ValueError:``, ``FATAL``,
  ``permission denied``, ``HTTP 503``, ``exit code 2`` ...), unless it is a plain
  setting (``timeout: 30s``, ``errors: 0``);
* it is JSON with a non-empty ``error``/``errors``/``exception``, ``ok``/``success``
  false, a status field in a failure family, or an HTTP status of 400 or more;
* a line of log output has the level ``ERROR``, ``FATAL``, ``CRITICAL``, ``PANIC``
  (after nothing but a timestamp, its time zone too, or a bracketed tag), or reads
  ``panic:``, ``error:``, ``fatal:``; or it holds a Python traceback;
* it gives an HTTP status of 500 or more (``HTTP/1.1 503``, ``-> HTTP 503``,
  ``503 Service Unavailable``), 401, 403, 429, or any 4xx when the tool writes
  (``book_room``, ``send_email``: its name starts with a verb that changes something);
* it reports a non-zero exit code anywhere (``exit code 3``, ``Exit Code: 2``,
  ``exited with code 137``), a ``status:``/``result:`` line near the top that says
  ``FAILED``, ``error``, ``timeout``..., or failed tests at its end (``2 failed``).

A row of data that *is* a failure (a table's ``failed`` backup, an alert's status) is
not the call failing.  :func:`may_report_error` is a looser twin of every probe, read
from the result's JSON bytes without decoding them: it may say "maybe", never "no"
when :func:`error_line` would find an error.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from foldctl.claims.atoms import is_status_key, normalise_key, words
from foldctl.claims.vocab import status_family
from foldctl.lazyre import lazy

#: Error classes, most specific first: (class, pattern over lower-case text).
ERROR_CLASSES: Final[tuple[tuple[str, re.Pattern[str]], ...]] = tuple(
    (name, lazy(pattern))
    for name, pattern in (
        (
            "failed",  # a crash, whatever else the line says ("invalid memory address")
            r"\bpanic\b|segmentation|sigsegv|oomkilled|out of memory|core dumped|"
            r"checksum mismatch",
        ),
        ("timeout", r"time[sd]?[\s_-]?out|deadline exceeded|etimedout|\b504\b"),
        ("rate_limit", r"rate[\s_-]?limit|too many requests|throttl|\b429\b|quota exceeded"),
        # a mail server's permanent refusal ("550 5.1.1 ... Recipient address rejected"): the
        # message bounced, it was not delivered
        ("unavailable", r"\b5\d\d[ -]5\.\d{1,3}\.\d{1,3}\b"),
        (
            "denied",
            r"denied|forbidden|unauthori[sz]ed|not authori[sz]ed|permission|declined|rejected|"
            r"(?<!connection )refused|not allowed|not permitted|\b40[123]\b",
        ),
        ("not_found", r"not found|no such|does not exist|doesn't exist|unknown \w+|\b404\b"),
        (
            "conflict",
            r"conflict|already exists|duplicate key|lock wait|deadlock|\b409\b|fully booked|"
            r"slot[_ ]taken|already taken|sold out",
        ),
        (
            "unavailable",
            r"unavailable|no longer available|not available|connection reset|econnrefused|"
            r"connection refused|bad gateway|\b50[23]\b|not delivered|undeliverable",
        ),
        ("invalid", r"invalid|validation|malformed|bad request|\b400\b|\b422\b"),
    )
)

#: A tool result whose first line starts like this reports an error (unless the lookahead
#: of ``_ERROR_HEAD`` says it is a field that reports none: ``error: 0``).
_ERROR_HEAD_WORDS: Final = (
    r"(?<![\w.])(?:error|err|fatal|exception|traceback|failed|failure|fail|denied|"
    r"permission denied|access denied|forbidden|unauthori[sz]ed|timeout|timed out|"
    r"request timed out|"
    r"deadline exceeded|http\s?[45]\d\d|status\s?[45]\d\d|[45]\d\d (?:conflict|forbidden|"
    r"not found|too many requests|bad request|unauthori[sz]ed|payment required|gone|"
    r"unprocessable|internal server error|bad gateway|service unavailable|gateway timeout)|"
    r"rate limit|too many requests|panic|"
    r"exit (?:code|status):? [1-9]\d*|"
    r"[45]\d\d[ -][45]\.\d{1,3}\.\d{1,3}|"  # an SMTP reply: "550 5.1.1 <...>: ... rejected"
    r"[\w.]*(?:error|exception|timeout))\b"
)
_ERROR_HEAD: Final = lazy(
    _ERROR_HEAD_WORDS
    + r"(?!\s*[:=]\s*(?:0|none|null|false|no|n/a|\d+\s*(?:ms|s|sec|seconds|m|min)?)?\s*$)"
    + r"(?![ _-](?:rates?|counts?|budgets?|ratios?|percentages?|totals?)\b)",  # a metric
)
#: A first line in the form programs report errors in: ``curl: (28) Operation timed out``,
#: ``user@host: Permission denied (publickey).``
_PROGRAM_ERROR: Final = lazy(
    rb"[a-z][\w.@:/-]{0,39}: (?:\(\d{1,4}\) )?[^\n]{0,300}?(?i:timed out|permission denied|"
    rb"connection refused|could not resolve host|no such file or directory|fatal:|error:)"
)
#: A status line of the result itself (``status: FAILED``), at the start of a line.
_OUTCOME_HEAD: Final = r"(?:status|state|result|outcome|conclusion|verdict)[ \t]*[:=]"
_OUTCOME_LINE: Final = lazy(_OUTCOME_HEAD + r"[ \t]*(?P<value>[^\n]+)", re.IGNORECASE)
#: Both start with a character class, so the engine skips to candidates quickly.
_FAILED_COUNT: Final = lazy(
    r"[1-9](?<![\w.][1-9])\d*[ ](?:failed|failing|failures|errors)\b", re.IGNORECASE
)
#: An exit code as tools and shells report it (``exit code 3``, ``Exit Code: 2``, ``exited
#: with code 137``, ``EXIT STATUS 1``): the word in one of its three casings, so that a
#: plain substring can look for it first (``may_report_error``).
_EXIT_CODE_B: Final = lazy(
    rb"(?<![\w])(?:exit|Exit|EXIT)(?:ed|ED)?[ \t]{1,4}(?:(?i:with)[ \t]{1,4})?"
    rb"(?:(?i:code|status))?[ \t]{0,4}[:=]?[ \t]{0,8}(?P<code>\d{1,3})\b"
)
#: Families a tool's own status field reports an error with.
ERROR_FAMILIES: Final = frozenset({"failed", "rejected"})

#: A log line's level word (the line is one when only a timestamp or a tag comes before).
_LOG_LEVEL: Final = lazy(
    rb"\b(?:ERROR|FATAL|CRITICAL|PANIC|SEVERE|EMERG)\b|\[(?:error|crit|alert|emerg|fatal)\]"
    rb"|(?m:^)(?:panic|error|fatal)(?:\[[\w-]{1,12}\])?:"
    rb"|(?<=: )(?:panic|error|fatal):"  # after a program's tag: "smtp: error: timeout"
    rb"|level\"?[=:] ?\"?(?:error|fatal|critical)\b"
)
#: A time zone a log's timestamp may end with (``2026-12-01 22:00:41 CET ERROR ...``).
LOG_ZONE: Final = r"(?:(?:UTC|[A-Z]{1,4}T)(?:[+-]\d{1,2}(?::?\d\d)?)?[ \t]{1,4})?"
#: What may come before a level word on a log line: a timestamp, brackets, a tag.
_LOG_PREFIX: Final = lazy(
    rb"(?:[a-z][\w.@:/-]{0,40}: )?"  # a program's tag: "psql:migrate.sql:12: ERROR:"
    rb"[\d\s:.,TZ+/()|\[\]-]{0,48}"
    + LOG_ZONE.encode()
    + rb"(?:\[[^\]\n]{1,40}\][\s\d:.,TZ+/()|-]{0,8}){0,2}"
)
#: An HTTP status given as such (``HTTP/1.1 503``, ``-> HTTP 503``); at the head of a
#: result, a status before its reason phrase (``409 Conflict``) too (``_ERROR_HEAD``).
_HTTP_STATUS: Final = lazy(rb"HTTP(?:/\d(?:\.\d)?)? ?(?P<code>[1-5]\d\d)\b")


def error_class(text: str, context: str = "") -> str:
    """The kind of an error text: ``timeout``, ``denied``, ``not_found``, ... or ``failed``.

    When the error line alone says only that something failed (``status:
    FAILED``), ``context`` (the start of the message) may say how.
    """
    found = _error_class(text)
    if found == "failed" and context:
        return _error_class(context)
    return found


def _error_class(text: str) -> str:
    lowered = text.lower()
    for name, pattern in ERROR_CLASSES:
        if pattern.search(lowered):
            return name
    return "failed"


_OUTCOME_KEYS: Final = ("status", "state", "result", "outcome", "conclusion", "verdict")
#: The start of a line that states a result's outcome (the ``\n`` lets the engine skip
#: straight from line to line).
_OUTCOME_KEY: Final = (
    "(?:" + "|".join(f"[{k[0]}{k[0].upper()}]{k[1:]}|{k.upper()}" for k in _OUTCOME_KEYS) + ")"
)
_OUTCOME_START: Final = lazy(f"\n{_OUTCOME_KEY}[ \t]*[:=]".encode())
_LEADING_SPACE_B: Final = lazy(rb"\S")
_ERROR_HEAD_B: Final = lazy(_ERROR_HEAD.pattern.encode())
_OUTCOME_LINE_B: Final = lazy(_OUTCOME_LINE.pattern.encode(), re.IGNORECASE)
_FAILED_VALUE: Final = lazy(r"(?i)(?:failed|error|timeout|timed out)\b")
_LINE_MAX: Final = 200


def error_line(text: str, raw: bytes | None = None, *, write: bool = False) -> str | None:
    """The line of a tool result that reports the tool's own error, if it reports one.

    See the module's description for what counts.  ``raw`` is ``text`` in UTF-8 when the
    caller has it: the probes run over bytes (uniformly fast, whatever the script of the
    text), and a pattern only runs on the part a probe points at.  ``write``: the tool
    changes something, so any 4xx HTTP status is its failure.
    """
    if not text:
        return None
    if raw is None:
        raw = text.encode("utf-8", "surrogatepass")
    begin = 0
    if raw[:1].isspace():
        first_char = _LEADING_SPACE_B.search(raw)
        if first_char is None:
            return None
        begin = first_char.start()
    if raw[begin : begin + 1] in (b"{", b"["):
        found = _json_error(text.lstrip())
        if found is not None:
            return found
    newline = raw.find(b"\n", begin, begin + 400)
    first = raw[begin : newline if newline >= 0 else begin + 400]
    if _reads_as_error(first):
        return first.decode("utf-8", "replace").strip()[:_LINE_MAX]
    if newline >= 0 and _REQUEST_ECHO.match(first):
        # "POST https://.../credits" then "Error: request timed out after 60 s"
        after = raw.find(b"\n", newline + 1, newline + 401)
        second = raw[newline + 1 : after if after >= 0 else newline + 401]
        if _reads_as_error(second):
            return second.decode("utf-8", "replace").strip()[:_LINE_MAX]
    if b"Traceback (most" in raw:
        return _last_line(text)
    for probe in (_log_error, _http_error, _outcome_line, _exit_error):
        found = probe(raw, begin, write)
        if found is not None:
            return found
    tail = raw[-400:].lower()  # test runners report at the end
    if b"failed" in tail or b"errors" in tail or b"failures" in tail:
        part = raw[-400:].decode("utf-8", "ignore")
        hit = _FAILED_COUNT.search(part)
        if hit is not None:
            line = _line_at(part, hit.start())
            # a listing's tally of its items' states ("6 jobs (3 done, 1 failed, 1 queued,
            # 1 cancelled)") is data; a run's ("2 failed, 10 passed") is its outcome
            if _ITEM_STATES.search(line) is None:
                return line[:_LINE_MAX]
    return None


#: States of listed items, which a test run's tally never holds.
_ITEM_STATES: Final = lazy(
    r"\b\d+ (?:queued|cancell?ed|pending|running|scheduled|in progress|done|open|closed)\b",
    re.IGNORECASE,
)


def _reads_as_error(line: bytes) -> bool:
    """Whether a line starts as an error does (``Error: ...``, ``HTTP 503``, ``curl: (28)
    Operation timed out``), not as a setting (``timeout: 30s``)."""
    return bool(_ERROR_HEAD_B.match(line.lower()) or _PROGRAM_ERROR.match(line))


def _line_of(raw: bytes, index: int) -> str:
    start = raw.rfind(b"\n", 0, index) + 1
    end = raw.find(b"\n", index)
    return raw[start : end if end >= 0 else len(raw)].decode("utf-8", "replace").strip()[:_LINE_MAX]


def _log_error(raw: bytes, begin: int, write: bool) -> str | None:
    """The first log line of level ERROR or worse (or ``panic:``, ``error:``)."""
    for hit in _LOG_LEVEL.finditer(raw, begin):
        line_start = raw.rfind(b"\n", 0, hit.start()) + 1
        if raw.startswith(b"level", hit.start()):  # logfmt or JSON lines: anywhere on the line
            return _line_of(raw, hit.start())
        if hit.start() - line_start > 60:
            continue
        if _TALLY.match(raw, hit.end()):
            continue  # "total: 5 (CRITICAL 0, HIGH 2)": findings counted by severity
        if _LOG_PREFIX.fullmatch(raw, line_start, hit.start()):
            return _line_of(raw, hit.start())
    return None


#: After a level word, a count of that level ("CRITICAL 0, HIGH 2", "ERROR: 3)"): a
#: tally of findings, not a line logged at that level.
_TALLY: Final = lazy(rb"[ \t]{0,2}[:=]?[ \t]{0,2}\d{1,6}[ \t]{0,2}(?:[,;)|]|$)", re.MULTILINE)


def _http_error(raw: bytes, begin: int, write: bool) -> str | None:
    """An HTTP status that says the call failed: 5xx, 401, 403, 429, a status only a write
    is answered with (409 Conflict, 422 Unprocessable, 423 Locked), or a 4xx to a write (the
    tool's name says so, or the result echoes the request: ``POST /api/v3/possessions``)."""
    write = write or _WRITE_REQUEST.match(raw, begin) is not None
    for hit in _HTTP_STATUS.finditer(raw, begin):
        code = int(hit.group("code"))
        if code >= 500 or code in _FAILED_CODES or (write and code >= 400):
            return _line_of(raw, hit.start())
        if code == 207 and _PART_FAILED.search(raw, hit.end()) is not None:
            return _line_of(raw, hit.start())  # "207 Multi-Status" with a list of failures
    return None


#: The list of failed items of a 207 Multi-Status body (``"failed": [{"student": ...``).
_PART_FAILED: Final = lazy(rb'"(?:failed|errors|rejected)"\s*:\s*\[\s*\{')


#: 4xx HTTP statuses that are a call's failure whatever it asked: not allowed (401,
#: 403), too many (429), and those that answer only a request that changes something
#: (409 Conflict, 422 Unprocessable, 423 Locked). A 404 to a read is an answer.
_FAILED_CODES: Final = frozenset((401, 403, 409, 422, 423, 429))
#: A first line that echoes the request a result answers (``POST https://.../credits``).
_REQUEST_ECHO: Final = lazy(rb"(?:GET|POST|PUT|PATCH|DELETE|HEAD) (?:https?://|/)\S*\s*$")
#: A result that starts with the request it answers, made with a method that writes.
_WRITE_REQUEST: Final = lazy(rb"(?:POST|PUT|PATCH|DELETE) /")


def _exit_error(raw: bytes, begin: int, write: bool) -> str | None:
    """A non-zero exit code the result reports (the last one it gives decides: ``exit code
    0`` after a failed attempt is a success)."""
    if b"xit" not in raw and b"XIT" not in raw:
        return None
    found = None
    last_zero = -1
    for hit in _EXIT_CODE_B.finditer(raw, begin):
        if hit.group("code") == b"0":
            last_zero = hit.start()
        else:
            found = hit
    if found is None or last_zero > found.start():
        return None
    return _line_of(raw, found.start())


def _in_json(pattern: str) -> bytes:
    """``pattern`` as its text reads inside a JSON string: a space, tab or newline it
    allows may be an escape there (``\\t``, ``\\n``)."""
    return pattern.replace(r"\s", r"(?:\s|\\[tnr])").replace(r"[ \t]", r"(?:[ ]|\\t)").encode()


#: The JSON twins of error_line's probes (see may_report_error).  The first line: the
#: lookahead of ``_ERROR_HEAD``, which only takes matches away, is left out.
_HEAD_JSON: Final = lazy(
    _in_json(_ERROR_HEAD_WORDS)
    + b"|"
    + _in_json(_OUTCOME_HEAD)
    + rb"|[a-z][\w.@:/-]{0,39}: ",  # _PROGRAM_ERROR
    re.IGNORECASE,
)
#: ``_OUTCOME_START`` in JSON (a newline is ``\\n`` there).
_OUTCOME_START_JSON: Final = lazy(rb"\\n" + _in_json(_OUTCOME_KEY + r"[ \t]*[:=]"))
#: Anywhere in a result, what the log, HTTP and exit probes look for first, as plain
#: substrings (found in C, far faster than a pattern over every byte): the upper-case
#: words among a text's capitals alone, the rest in the text (a line start in JSON is
#: ``\\n``; the first line is the head's).
_ANYWHERE_CAPS: Final = lazy(rb"ERROR|FATAL|CRITICAL|PANIC|SEVERE|EMERG|HTTP|XIT")
#: Deletes every byte but the capitals A-Z (``bytes.translate``).
_NOT_CAPITALS: Final = bytes(c for c in range(256) if not 65 <= c <= 90)


#: A line that starts ``panic:``, ``error:``, ``fatal:`` or ``Error:``, or a program's tag
#: before one (``smtp: error:``).
_ANYWHERE_LINE: Final = lazy(rb"\\n(?:[pP]anic|[eE]rror|[fF]atal)|: (?:panic|error|fatal):")
#: A level in brackets, lower case (``[error]``).
_ANYWHERE_BRACKET: Final = lazy(rb"\[(?:error|crit|alert|emerg|fatal)\]")


def _anywhere(quoted: bytes) -> bool:
    return (
        _ANYWHERE_CAPS.search(quoted.translate(None, _NOT_CAPITALS)) is not None
        or b"xit" in quoted
        or b"level" in quoted
        or _ANYWHERE_LINE.search(quoted) is not None
        or _ANYWHERE_BRACKET.search(quoted) is not None
    )


def may_report_error(quoted: bytes) -> bool:
    """Whether :func:`error_line` may find an error in a text, read from the text as a JSON
    string (``quoted``, quotes included) that holds no ``\\u`` escape, without decoding it.

    False only when :func:`error_line` of the decoded text is certainly ``None``: each of
    its probes has a looser twin here that reads the JSON bytes.  Up to the first escape
    those are the text's UTF-8 bytes; a newline is the two bytes ``\\n``, so a window of
    the text is at most twice as long in JSON.  A text that starts with a space, an
    escape, ``{`` or ``[`` is always a maybe (its first line, or its JSON, is read whole).
    """
    end = len(quoted) - 1
    if end <= 1:
        return False
    if quoted[1:2] in (b" ", b"\\", b"{", b"["):
        return True
    return bool(
        _HEAD_JSON.match(quoted, 1, min(end, 401))
        or b"Traceback (most" in quoted
        or _OUTCOME_START_JSON.search(quoted, 1, min(end, 8193))
        or _anywhere(quoted)
        or _reports_at_end(quoted[max(1, end - 800) : end].lower())
    )


def _reports_at_end(tail: bytes) -> bool:
    """Whether the lower-case JSON ``tail`` may hold a failed-test count."""
    for word in (b" fail", b" errors"):  # _FAILED_COUNT: a number, a space, the word
        at = tail.find(word)
        while at > 0:
            if 48 <= tail[at - 1] <= 57:
                return True
            at = tail.find(word, at + 1)
    return False


def _outcome_line(raw: bytes, begin: int, write: bool = False) -> str | None:
    """The result's own ``status:`` line when it reports a failure (the first such line).
    A record's own field is not the call's outcome: below a first line that names the record
    (``inspection: INS-2232`` ... ``result: FAIL``), a tool that does not write shows data."""
    match = _OUTCOME_LINE_B.match(raw, begin)
    if match is None:
        found = _OUTCOME_START.search(raw, 0, 4096)  # a result states its outcome up top
        if found is None:
            return None
        if not write and _RECORD_HEAD.match(raw, begin):
            return None
        match = _OUTCOME_LINE_B.match(raw, found.start() + 1)
        if match is None:
            return None
    line = match.group(0).decode("utf-8", "replace").strip()
    value = line.split(":", 1)[-1] if ":" in line else line.split("=", 1)[-1]
    value = _after_arrow(value.strip())
    family = status_family(value.split("(")[0].split(",")[0])
    if family is None and _FAILED_VALUE.match(value):
        family = "failed"
    return line[:_LINE_MAX] if family in ERROR_FAMILIES else None


#: A first line that names the record a result shows (``inspection: INS-2232``,
#: ``pipeline: #48213``, ``dag_id: orders_nightly``): a field of the record, not a status.
_RECORD_HEAD: Final = lazy(
    rb"[A-Za-z][\w -]{1,30}:[ \t]+(?:[A-Z][A-Z0-9]*[-_]?\d{2,}[\w-]*|#\d{2,}|"
    rb"[a-z][a-z0-9]*(?:[_.-][a-z0-9]+)+)[ \t]*\r?\n"
)


def _line_at(text: str, index: int) -> str:
    start = text.rfind("\n", 0, index) + 1
    end = text.find("\n", index)
    return text[start : end if end >= 0 else len(text)].strip()


_ERROR_KEYS: Final = frozenset({"error", "errors", "exception", "error_message", "fault"})
_HTTP_KEYS: Final = frozenset({"status_code", "http_status", "code", "status", "http_code"})


def _json_error(text: str) -> str | None:
    if not any(
        marker in text
        for marker in (
            '"error',
            '"status',
            '"state',
            '"ok"',
            '"success',
            '"result',
            '"outcome',
            '"exception',
            '"conclusion',
            '"code',
            '"http',
        )
    ):
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):  # too deeply nested to be a tool's own error
        return None
    if isinstance(value, dict) and len(value) == 1:
        ((only, inner),) = value.items()
        if isinstance(inner, dict) and normalise_key(str(only)) not in _ERROR_KEYS:
            value = inner
    if not isinstance(value, dict):
        return None
    for key, item in value.items():
        name = normalise_key(str(key))
        if name in _ERROR_KEYS and item:
            if isinstance(item, dict):
                message = item.get("message") or item.get("code") or json.dumps(item)
                return f"{key}: {message}"[:_LINE_MAX]
            return f"{key}: {item}"[:_LINE_MAX]
    for key, item in value.items():
        name = normalise_key(str(key))
        if name in ("ok", "success", "succeeded") and item is False:
            return json.dumps(value)[:_LINE_MAX]
        if is_status_key(name) and isinstance(item, str):
            family = status_family(item)
            if family in ERROR_FAMILIES:
                return f"{key}: {item}"[:_LINE_MAX]
        if name in _HTTP_KEYS and type(item) is int and 400 <= item <= 599:
            return f"{key}: {item}"[:_LINE_MAX]
    return None


# --------------------------------------------------------------------------- mentions


def _code(codes: str) -> str:
    """An HTTP status code as a summary mentions one: "(429)", "HTTP 403", "status 404", "a
    503"."""
    return (
        rf"\((?:http )?(?:{codes})\)|(?:http|status|code|error|an?|got|with)[\s:]{{1,3}}"
        rf"(?:{codes})(?![\d.,]\d)\b|\b(?:{codes})(?:s\b| (?:errors?|responses?|status))"
    )


#: Words a summary mentions a problem with, by error class (``failed`` is the generic
#: class).  ``weak``: words that also name metrics ("error rate 4%"): a mention only with
#: an anchor.
MENTION_TERMS: Final[dict[str, str]] = {
    "timeout": r"time[sd]?[\s_-]?out|timing out|deadline exceeded|(?:missed|past) the deadline|"
    r"(?:read|connect|request|gateway)timeout|"
    r"took too long|in time|time limit|hung|hangs|ran out of time|stall(?:s|ed|ing)?|"
    r"ran out of (?:its |the |their )?(?:\w+ )?(?:minutes?|seconds?|hours?)|"
    r"stopped (?:answering|responding|replying|reporting)|(?:went|gone|fell|go) silent|"
    r"never (?:answered|responded|replied|returned|finished)|"
    r"(?:(?:did|does|do|was|were|is|would|could)(?:n't| not)|never) \w+ within \d|"
    r"no (?:response|answer|reply)|" + _code("504|408"),
    "rate_limit": r"rate[\s_-]?limit\w*|throttl\w*|too many requests|slow ?down|" + _code("429"),
    "denied": r"denied|deny|declined|rejected|refus\w*|forbidden|unauthori[sz]ed|permission|"
    r"turned (?:\w+ )?down|said no|thr(?:ew|own|ows) out|would(?:n't| not) (?!be\b|have\b)\w+|"
    r"(?:not|never|\w*n't) (?:been )?(?:allowed|permitted)|blocked|lacks?|"
    r"missing (?:a |the )?(?:role|permission|scope|access)|can only be \w+|"
    r"only (?:the |its |their |a |an )?[\w -]{1,30}? (?:can|may|is allowed to)\b|"
    r"more than (?:a |an |the |their |his |her )?[\w -]{1,30}? (?:may|can|is allowed to)\b|"
    + _code("401|402|403"),
    "not_found": r"not found|missing|no such|does(?:n't| not) exist|found no|"
    r"no \w+ (?:\w+ )?(?:was |were )?found|no (?:match|record|result|entry|hit)(?:es|s)?\b|"
    + _code("404"),
    "conflict": r"conflict\w*|clash\w*|already (?:exist\w*|taken|booked|in use|running)|"
    r"duplicate key|(?:already|found|was|were|is|are) held by|"
    r"deadlock\w*|lock wait|fully booked|sold out|double[\s-]booked|"
    r"(?:slot|room|seat|table)s? (?:was |were |had |has )?(?:taken|gone)|none left|"
    r"no (?:rooms?|seats?|slots?|tables?|availability)|(?:is|was|were|are) full\b|"
    r"no \w+ left|already (?:owns|has|holds|scheduled|claimed|reserved)|"
    r"(?:is|was|were|are|already) (?:busy|booked up)|"
    r"(?:nobody|no one|no-one) (?:was |is )?(?:free|available)|" + _code("409"),
    "unavailable": r"unavailable|(?:is|was|were|are|went) (?:offline|off-line)|"
    r"(?:is|was|went) down|outage|unreachable|gone|"
    r"no longer available|not (?:be )?delivered|undeliver\w*|bounced|"
    r"connection (?:reset|refused)|bad gateway|(?:too|very) busy|overloaded|over capacity|"
    + _code("500|502|503"),
    "invalid": r"invalid|validation|malformed|bad request|"
    r"(?:below|under|above|over) (?:the |a )?(?:minimum|maximum)|"
    r"(?:has|have|had|must|needs?) (?:to )?be at (?:least|most)|"
    r"too (?:long|short|large|big|small|many|few|high|low)\b|" + _code("400|422"),
    "failed": r"fail\w*|crash\w*|broke\w*|errored|unsuccessful|could(?:n't| not)|unable|cannot|"
    # a log's level as the log writes it: "the sync logged an ERROR" (not "an error rate")
    r"(?-i:ERRORS?|FATAL)\b|"
    r"g[ai]ve up|gives up|choked|"
    r"died|dies|out[\s-]of[\s-]memory|f[ae]ll(?:s|ing)? over|never got\b|not reached|"
    r"emergency stop|e-stop\w*|"
    r"did(?:n't| not) (?:work|go through|succeed)|retr(?:y|ied|ies|ying)|"
    r"(?:on|at|in) (?:the |its |a )?(?:second|2nd|third|3rd|next) "
    r"(?:go|try|attempt|pass|request|call|time|run)\b|"
    r"abort\w*|hiccup|went wrong|panic\w*|segfault|sigsegv|oom\w*|corrupt\w*|mismatch\w*|"
    r"non-?zero|exit(?:ed)? (?:with )?(?:code |status )?[1-9]\d*|"
    r"(?:has|have|had)(?:n't| not) (?:yet )?(?:been )?(?:told|notified|informed|sent|paid|"
    r"messaged|e-?mailed|texted|contacted)|came back|"
    r"not (?:yet )?(?:been )?(?:told|notified|informed)|not fixed|unfixed|"
    r"(?:ok|success)[\s:=]{1,3}false|(?:would|will|could|did)(?:n't| not) (?:take|accept|load|"
    r"let|allow|respond|answer|reply|arrive|finish|complete|go|start|run|send|post|sync)|"
    r"won't|turned (?:\w+ ){0,3}away|out of (?:control|tolerance|spec)|"
    r"(?:over|above|exceed\w*|beyond|past) (?:the |its |their )?(?:\w+ )?limits?|"
    r"breach\w*|violat\w*|beyond|outside (?:the |its )?(?:tolerance|spec|limits?)|killed|"
    r"bounced|stuck|expired|lapsed|went nowhere|went (?:above|over|past|beyond)|"
    r"jam(?:med|ming|s)?\b|cut(?:s|ting)? out\b|"
    r"never (?:arrived|reached|got through|went out|made it|came through)|tripped|halted|"
    r"(?:first|initial|earlier|previous|original|second|another|third) (?:attempt|try)|"
    r"(?:did|does|do|was|were|is|are|has|have)(?:n't| not)(?= *[(,;.:]| *$)|"
    r"(?:sent|tried|submitted|resubmitted|retried) again|"
    r"(?:\w+n't|not) (?:yet )?(?:clear|pass|succeed|complete|finish|go through)\w*|"
    r"traceback|(?-i:[A-Z]\w*(?:Error|Exception))\b|(?:not|\w*n't) (?:been )?able to|"
    r"(?:ran|runs|run) out\b(?! of)|"
    r"(?:(?:was|were|is|are|has|have)(?:n't| not)|(?:nothing|none) (?:was|were|got|has|have))"
    r" (?:yet )?(?:been )?(?:posted|sent|"
    r"delivered|loaded|saved|created|applied|accepted|queued|scheduled|booked|synced|imported|"
    r"uploaded|published|logged|recorded|filed|stored|registered)",
    "weak": r"errors?|exception|problem|issues?\b|warnings?|faulty",
}
#: Each class's words alone (a clause may hold words of several classes that overlap).
MENTION_CLASSES: Final[tuple[tuple[str, re.Pattern[str]], ...]] = tuple(
    (name, lazy(f"\\b(?:{pattern})", re.IGNORECASE)) for name, pattern in MENTION_TERMS.items()
)
MENTION_PATTERN: Final = lazy(
    "|".join(f"(?P<{name}>\\b(?:{pattern}))" for name, pattern in MENTION_TERMS.items()),
    re.IGNORECASE,
)
#: Words of an error line too common to say which error a summary means.
COMMON_ERROR_WORDS: Final = frozenset(
    words(
        "error errors failed failure fatal critical warning request requests response status "
        "service server message after while with which there could would should their about "
        "retry retrying retried again because cannot unable timeout timed other false true "
        "null none code exit exited process completed aborted level trace stack line info "
        "from into this that when where what have has been was were will"
    )
)


def _after_arrow(value: str) -> str:
    r"""What follows the last arrow of "old -> new" (``->`` or ``→``), blanks left out; the
    value itself without one.  No regex: ``\s*->`` tries every blank of a long run."""
    ascii_at, arrow_at = value.rfind("->"), value.rfind("→")
    if ascii_at < 0 and arrow_at < 0:
        return value
    end = ascii_at + 2 if ascii_at > arrow_at else arrow_at + 1
    return value[end:].lstrip()


#: How much of a result :func:`error_lines` reads: its start and its end.
_LINES_READ: Final = 8000
#: A program's tag heading an error line (``nginx: [emerg] ...``, ``psql: error: ...``).
_PROGRAM_TAG: Final = lazy(r"([a-z][a-z0-9_.-]{2,30}):[ \t]")
#: A log line's error level, then the part of the system that logged it ("ERROR modem:").
_LOGGED_PART: Final = lazy(
    r"\b(?:ERROR|FATAL|CRITICAL|PANIC)[ \t]{1,3}([a-z][a-z0-9_.-]{2,30}):[ \t]"
)
_NOT_PROGRAMS: Final = frozenset(
    words("error fatal panic warning warn info debug critical status result state exit http")
)
#: A traceback's exception line (``RuntimeError: CUDA out of memory``).
_EXCEPTION_LINE: Final = lazy(rb"(?m)^[A-Z][\w.]{0,60}(?:Error|Exception)\b:")


#: A line a command-line program reports its error on: ``Error: ...``, ``fatal: ...``.
_ERROR_PREFIX_LINE: Final = lazy(rb"(?im)^(?:error|fatal|panic):[ \t]+\S")


def error_lines(text: str, first: str | None, limit: int = 8) -> list[str]:
    """Every line of a tool result that reports its error, at most ``limit``: ``first``
    (what :func:`error_line` found), then each log line of level ERROR or worse, a
    traceback's last line and exception lines, a line headed ``Error:``, a non-zero exit
    code's line, a failing ``status:``/``result:`` line.  A summary may tell the error by
    any of them ("the first run died with CUDA out of memory" of a log whose first ERROR
    line only says the run failed).  Reads the first and last :data:`_LINES_READ`
    characters."""
    found: list[str] = [first] if first else []
    if len(text) > 2 * _LINES_READ:
        text = text[:_LINES_READ] + "\n" + text[-_LINES_READ:]
    raw = text.encode("utf-8", "surrogatepass")

    def add(line: str) -> None:
        if line and line not in found and len(found) < limit:
            found.append(line)

    for hit in _LOG_LEVEL.finditer(raw):
        line_start = raw.rfind(b"\n", 0, hit.start()) + 1
        if raw.startswith(b"level", hit.start()) or (
            hit.start() - line_start <= 60 and _LOG_PREFIX.fullmatch(raw, line_start, hit.start())
        ):
            add(_line_of(raw, hit.start()))
        if len(found) >= limit:
            return found
    if b"Traceback (most" in raw:
        add(_last_line(text))
        for hit in _EXCEPTION_LINE.finditer(raw):  # "RuntimeError: CUDA out of memory"
            add(_line_of(raw, hit.start()))
    for hit in _ERROR_PREFIX_LINE.finditer(raw):  # "Error: evidence file exceeds ..."
        add(_line_of(raw, hit.start()))
    if b"xit" in raw or b"XIT" in raw:
        for hit in _EXIT_CODE_B.finditer(raw):
            if hit.group("code") != b"0":
                add(_line_of(raw, hit.start()))
    for hit in _OUTCOME_START.finditer(raw):  # "result: FAILED (0 of 1 certificates renewed)"
        line = _outcome_line(raw, hit.start() + 1)
        if line is not None:
            add(line)
    return found


def json_fields(text: str) -> list[str]:
    """The short text fields of a result that is a JSON object, or ends in one under an
    HTTP status line and headers, in document order and to a depth of three (what its
    error is about: ``"vendor": "Rapid Rooter"``, ``"error": "grade locked: ..."``);
    none for other text."""
    stripped = text.strip()
    body = 0 if stripped[:1] == "{" else stripped.find("\n{") + 1
    if body == 0 and stripped[:1] != "{":
        return []
    try:
        value = json.loads(stripped[body:])
    except (ValueError, RecursionError):
        return []
    found: list[str] = []
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack and len(found) < _FIELDS_READ:
        item, depth = stack.pop()
        if isinstance(item, str):
            if 0 < len(item) <= 120:
                found.append(item)
        elif depth < 3 and isinstance(item, dict):
            stack.extend((v, depth + 1) for v in reversed(list(item.values())))
        elif depth < 3 and isinstance(item, list):
            stack.extend((v, depth + 1) for v in reversed(item[:_FIELDS_READ]))
    return found


#: How many text fields of a JSON result :func:`json_fields` reads.
_FIELDS_READ: Final = 24


def _last_line(text: str) -> str:
    """A traceback's last line: the exception it ended with ("" for blank text)."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1].strip()[:_LINE_MAX] if lines else ""


def command_names(command: str) -> list[str]:
    """The names a summary may call a shell command by: the program it runs (its first
    word past the wrappers that run another, ``timeout 300``, ``sudo``, ``env A=1``, and
    their options, without its directory: ``restic`` of ``timeout 300 /usr/bin/restic -r
    s3:... check``) and the subcommand right after it (``vetlink`` and ``sync`` of
    ``vetlink sync --lab idexx``: "the sync rejected ..."); empty when the program is no
    name."""
    split = command.split()[:13]  # the first twelve words, and the one after the last
    for at, word in enumerate(split[:12]):
        if word.startswith("-") or "=" in word or _WRAPPER_ARGUMENT.fullmatch(word):
            continue
        name = word.rsplit("/", 1)[-1].lower()
        if name in _WRAPPERS:
            continue
        if not _PROGRAM_NAME.fullmatch(name):
            return []
        after = split[at + 1] if at + 1 < len(split) else ""
        return [name, after] if _SUBCOMMAND.fullmatch(after) else [name]
    return []


#: Programs that run the command after them.
_WRAPPERS: Final = frozenset(words("sudo timeout env nice ionice nohup time exec stdbuf"))
#: A wrapper's argument: a duration or a priority ("timeout 300", "timeout 5m").
_WRAPPER_ARGUMENT: Final = lazy(r"\d+(?:\.\d+)?[smhd]?")
#: A subcommand: a lower-case word (``sync``, ``apply``), not an option, a path or a value.
_SUBCOMMAND: Final = lazy(r"[a-z]{3,20}")
#: A program's name, as a summary writes it.
_PROGRAM_NAME: Final = lazy(r"[a-z][a-z0-9_.+-]{1,30}")


def program_of(line: str) -> str | None:
    """The program an error line is tagged with (``nginx`` of ``nginx: [emerg] ...``), or
    the part of a system a log line's level is followed by (``modem`` of ``... ERROR
    modem: PDP context lost``)."""
    match = _PROGRAM_TAG.match(line) or _LOGGED_PART.search(line)
    if match is None or match.group(1) in _NOT_PROGRAMS:
        return None
    return match.group(1)
