"""What tools do, by the words of their names: which verbs change something, which fetch,
which create, and what a summary calls each operation.

A tool result is about the *operation* its name says: ``get_invoice`` about the invoice,
``create_refund`` about the refund it creates, ``notify_customer`` about the notification
(not the customer), ``pay_duty`` about the payment, ``kubectl`` about whatever it ran.
A summary's clause names an operation by one of those words, a form of it
(``booking``/``book``) or a synonym (``release`` for a deploy): :func:`names_operation`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Final

from foldctl.claims.atoms import singular, words

_words = words

#: Tool-name verbs that change something: a 4xx answer to them is the call failing.
WRITE_VERBS: Final = frozenset(
    _words(
        "create add insert post put patch update upsert delete remove send notify page book "
        "reserve pay charge refund issue submit apply deploy restore run rerun trigger start "
        "stop restart cancel assign provision schedule push upload write set open close merge "
        "approve reject escalate transfer move migrate rollout rollback scale"
    )
)
#: More verbs that change something, for :func:`is_write` only (a summary names such an
#: operation by any word of the tool: "the suppression import", "the MES hold").
MORE_WRITE_VERBS: Final = frozenset(
    _words(
        "hold release lock unlock suspend block flag mark import export sync enqueue place "
        "file grant revoke invite"
    )
)
_WRITES: Final = WRITE_VERBS | MORE_WRITE_VERBS
#: Verbs of tool names whose done form tells the operation done (``uploaded`` of
#: ``play_upload``): the writes, and verbs that make or change a thing of their own.
_DONE_VERBS: Final = _WRITES | frozenset(
    _words(
        "renew attach install publish generate promote transition register activate enable disable"
    )
)
#: Done forms a suffix does not make.
IRREGULAR_DONE: Final[dict[str, tuple[str, ...]]] = {
    "send": ("sent",),
    "pay": ("paid",),
    "set": ("set",),
    "put": ("put",),
    "hold": ("held",),
    "run": ("ran", "run"),
    "write": ("written", "wrote"),
}


def is_write(tool_name: str | None) -> bool:
    """Whether a tool's name says it changes something (``book_room``, ``sendEmail``; a
    verb last after what it acts on: ``mes_hold``, ``lot_release``)."""
    found = tool_words(tool_name) if tool_name else ()
    if not found:
        return False
    writes = WRITE_VERBS | MORE_WRITE_VERBS
    return found[0] in writes or (
        len(found) > 1 and found[0] not in GETTERS and found[-1] in writes
    )


@lru_cache(maxsize=4096)
def tool_words(name: str) -> tuple[str, ...]:
    """The words of a tool's name, lower case (``restartPods`` -> ``restart``, ``pods``)."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name)
    return tuple(w for w in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if w)


#: Tool-name words too common to tie a mention to one tool.
GENERIC_TOOL_WORDS: Final = frozenset(
    _words(
        "get list run fetch read create update check query call tool api set do make find "
        "search lookup look up show view describe send post put new add remove delete the "
        "status info data record records item items result results v1 v2"
    )
)


#: Words of a summary that name a kind of operation, grouped with the words tools name it
#: by: a word of a group matches a tool whose operation words hold another of the group.
SYNONYMS: Final[tuple[frozenset[str], ...]] = tuple(
    frozenset(group.split())
    for group in (
        "deploy deploys deployed deployment deploying release released rollout rolled",
        "test tests testing suite pytest jest spec specs",
        "build builds compile compiled",
        "migration migrations migrate migrated",
        "backup backups restore restored restoring",
        "payment payments pay paid paying charge charged",
        "notification notify notified notice message sms email mail text texts texted",
        "response responses respond reply replies replied answer",
        "chat slack teams discord channel",
        "booking book booked reservation reserve reserved",
        "invoice invoices invoiced invoicing bill bills billed billing",
        "page paged paging pager oncall",
        "sync import export",
        "validate validates validated validating validation validator check checks checked "
        "checking verify verifies verified verification",
    )
)
_SYNONYM_OF: Final[dict[str, frozenset[str]]] = {w: g for g in SYNONYMS for w in g}
#: Tool-name verbs that fetch: the tool's result is about its object (``get_invoice``).
GETTERS: Final = frozenset(
    _words(
        "get list fetch read lookup look describe show query search track check find view "
        "count inspect load retrieve poll watch"
    )
)
#: Tool-name verbs that create: the result is the thing created (``create_refund``).
CREATORS: Final = frozenset(
    _words("create add open issue submit new make schedule start run file raise scan")
)
#: Verbs whose noun a summary uses (``pay`` -> ``payment``).
_VERB_NOUNS: Final[dict[str, tuple[str, ...]]] = {
    "pay": ("payment", "paid", "paying"),
    "send": ("sending", "sent"),
    "run": ("running", "ran"),
    "page": ("paging", "paged"),
}


#: Verbs whose object is what they send (``send_email``, ``send_sms``): a summary names
#: the operation by the thing sent.
_SENDERS: Final = frozenset(_words("send"))


#: The words of a tool that runs shell commands (``run_shell``, ``bash``): what it did is
#: in the command it ran, not in its name.
SHELL_TOOL_WORDS: Final = frozenset(
    _words("run shell bash sh zsh exec execute command cmd terminal")
)


def runs_commands(tool: str) -> bool:
    """Whether a tool's name is only that it runs shell commands (``run_shell``)."""
    found = tool_words(tool)
    return bool(found) and set(found) <= SHELL_TOOL_WORDS


def is_getter(tool_name: str | None) -> bool:
    """Whether a tool's name says it fetches (``read_log``, ``get_invoice``)."""
    found = tool_words(tool_name) if tool_name else ()
    return bool(found) and found[0] in GETTERS


def operation_words(tool: str) -> frozenset[str]:
    """The words a summary may name a tool's operation by: a getter's or creator's object
    (``get_invoice`` -> invoice, ``create_refund`` -> refund), another verb itself and its
    noun (``notify_customer`` -> notify, not customer; ``pay_duty`` -> pay, payment), a
    tool named by a noun all its words (``kubectl``, ``http_check``)."""
    found = tool_words(tool)
    if not found:
        return frozenset()
    head = found[0]
    if head in GETTERS or head in CREATORS:
        chosen = found[1:] or found
    elif head in _SENDERS:
        chosen = (head, *_VERB_NOUNS.get(head, ()), *found[1:])  # "the email went through"
    elif head in WRITE_VERBS:
        chosen = (head, *_VERB_NOUNS.get(head, ()))
    else:
        chosen = found
    return frozenset(w for w in chosen if w not in GENERIC_TOOL_WORDS or head not in GETTERS)


def same_stem(word: str, other: str) -> bool:
    """Whether two words name the same thing (``booking``/``book``, ``logs``/``log``)."""
    if word == other or singular(word) == singular(other):
        return True
    short, long_ = sorted((word, other), key=len)
    if len(short) >= 3 and long_.startswith(short) and long_[len(short) :] in _SUFFIXES:
        return True  # book/booking, deploy/deployment, pay/payment
    return len(short) >= 5 and short[:5] == long_[:5] and len(long_) - len(short) <= 6


#: Endings that make another form of the same word.
_SUFFIXES: Final = frozenset(
    _words("s es ed d ing ings ment ments ion ions er ers ies y al ation ations")
)


def names_operation(clause_words: Iterable[str], tool: str) -> bool:
    """Whether a clause names a tool's operation (a word of it, a stem, a synonym)."""
    return names_object(clause_words, operation_words(tool))


def names_object(clause_words: Iterable[str], objects: Iterable[str]) -> bool:
    """Whether a clause names one of ``objects``, the words a tool acts on (``send_sms``
    -> sms, a ``message``) or does, by a stem or a synonym."""
    wanted = tuple(objects)
    for word in clause_words:
        group = _SYNONYM_OF.get(word)
        for obj in wanted:
            if same_stem(word, obj) or (group is not None and obj in group):
                return True
    return False


@lru_cache(maxsize=1024)
def told_done_of(tool: str) -> tuple[frozenset[str], frozenset[str]]:
    """The verbs of a tool's name that make or change something (``upload`` of
    ``play_upload``) and the words of what it acts on (``play``), generic words left out."""
    found = tool_words(tool)
    # a verb done again is that verb (``resend_notice`` sends, ``repost_job`` posts)
    again = {w[2:] for w in found if w.startswith("re") and w[2:] in _DONE_VERBS}
    verbs = frozenset(w for w in found if w in _DONE_VERBS) | again
    objects = frozenset(
        w
        for w in found
        if w not in _DONE_VERBS and w not in GENERIC_TOOL_WORDS and w[2:] not in again
    )
    return verbs, objects


#: The done forms that tell an operation that tells someone something done, by the words of
#: the tool's name that make it one: a post to a chat ("QA has been informed in
#: #qa-release"), a text ("I texted her"), a mail ("Nordhafen has been e-mailed"), a notice
#: of any kind ("its 186 passengers were texted" of ``pax_notify``).
_TOLD_BY: Final[tuple[tuple[frozenset[str], frozenset[str]], ...]] = tuple(
    (frozenset(_words(tools)), frozenset(_words(done)))
    for tools, done in (
        ("slack chat channel teams discord", "posted messaged notified informed alerted pinged"),
        ("sms text texts", "texted messaged notified informed alerted"),
        ("email mail", "emailed mailed notified informed"),
        (
            "notify notification alert page message notice",
            "notified informed texted emailed mailed messaged alerted paged",
        ),
    )
)


@lru_cache(maxsize=1024)
def notice_done(tool: str) -> frozenset[str]:
    """The done forms, other than its own verb's, that tell a tool's operation done when it
    tells someone something (``notified``, ``texted``... of ``notify_guest``)."""
    found = set(tool_words(tool))
    return frozenset().union(*(done for tools, done in _TOLD_BY if tools & found))


#: Words of ``re`` and a done form that are words of their own, not a verb done again.
_NOT_AGAIN: Final = frozenset(
    _words("replaced reset released reserved restored resolved reported returned retained")
)


def is_done_form(word: str, verb: str) -> bool:
    """Whether ``word`` is ``verb`` done (``uploaded``, ``applied``, ``sent``)."""
    if word in IRREGULAR_DONE.get(verb, ()):
        return True
    if word.startswith("re") and word not in _NOT_AGAIN and is_done_form(word[2:], verb):
        return True  # done again: "reposted", "resent", "resubmitted"
    if verb.endswith("y") and word == verb[:-1] + "ied":
        return True
    return word != verb and same_stem(word, verb)
