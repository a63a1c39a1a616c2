"""The originals read into facts: (entity, attribute, value), and where they are.

A fact is what one evidence message says of one thing: refund ``RF9120`` has status
``pending`` (from its ``status`` field), order ``SO77134`` has total ``USD 89`` (from the
``TOTAL`` column of its row), the restore of ``BKP202606110200`` failed (from a ``FATAL``
line of its log), the alert ``ALR5522`` is at level ``SEV1``.  Sources:

* **JSON** (a result, or a tool call's arguments on its ``→ NAME {args}`` line): a
  status, amount, date, level or number field belongs to the object's *subject*: the
  entities in its id-like fields (``id``, ``*_id``, ``ref``, ``number``), else a
  ``name``/``job`` label (``{"name": "test", "conclusion": "success"}``), else every
  entity in it, else its parent's subject.  ``conclusion``/``outcome``/``result``
  outrank ``status``/``state`` (a run ``completed`` with conclusion ``failure`` failed).
* **Tables** (a header line, then rows aligned under it): the row's id cell (or first
  cell) is the entity; every other cell is a fact named by its column (``STATUS``,
  ``SEV``, ``TOTAL``, ``RESTARTS``...).
* **``key: value`` lines**: facts of the current subject (the first entity of the first
  line, or the last ``id:`` line); a label, a run of spaces and an amount
  (``Balance due          € 164,18``) is one without the colon.
* **Log lines** (a level after a timestamp or tag): ``ERROR``/``FATAL``/``panic:`` say
  the subject's operation failed, a later ``completed``/``finished`` that it succeeded;
  ``exit code N`` and ``HTTP/1.1 NNN`` are levels of the result itself.
* **Counts with outcomes** (``1204 passed, 4 skipped``): what happened to how many.
* **Prose lines**: statuses and amounts go to the nearest entity on the line.

``own`` holds what a result says of *itself* (its status field, its last decisive log
line, its test counts, HTTP status and exit code): the outcome of the call.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any, Final

import msgspec

from foldctl.claims import atoms as A
from foldctl.claims import failures as F
from foldctl.claims import vocab as V
from foldctl.claims.atoms import Atom
from foldctl.lazyre import lazy

#: How much of one message is read in full for its facts (beyond it: unknown, so no finding).
FACTS_LIMIT: Final = 200_000
#: How many facts of one thing, and of a result itself, a message keeps (the last ones:
#: the latest line decides); a log of a million lines says no more than its last.
FACTS_KEPT: Final = 256
#: JSON nested deeper than this is not walked.
MAX_DEPTH: Final = 64
#: The attribute of what a log line says (a status word on it, a level).
LOG: Final = "log"
#: The attribute of a log line's error level: something done to its entity failed, which
#: is not the state of the entity ("ERROR ER-30502: journal not created" of an approved
#: report).
LOG_LEVEL: Final = "log level"
#: The attribute of a value a headerless row gives its entity (``CH-5531 2026-03-14 captured``).
ROW: Final = "row"
#: Kinds of facts beyond the atom kinds: a count with its outcome, a plain number.
OUTCOME: Final = "outcome"
NUMBER: Final = "number"
#: How much a status fact weighs against another of the same message: an outcome field
#: outranks a lifecycle field; what a call asked outranks nothing.
_RANK_OUTCOME, _RANK_STATUS, _RANK_ASKED = 2, 1, 0
#: The rank of a date or time from a field whose name says nothing of what it dates
#: (``effective``, ``promised``): it bears a claim out, it never contradicts one.
RANK_AGREES_ONLY: Final = -1
_OUTCOME_FIELDS: Final = frozenset(["conclusion", "outcome", "result", "verdict"])
_ERROR_KEYS: Final = frozenset(["error", "errors", "exception", "error_message", "fault"])
#: A ``reason:`` line after a status line says what the status really is (``State:
#: Waiting`` then ``Reason: CrashLoopBackOff``).
_REASON_KEYS: Final = frozenset(["reason", "status_reason", "state_reason"])


class Fact(msgspec.Struct, frozen=True):
    """What a message says of one thing: a status, an amount, a date, a time, a level, a
    number or a count with its outcome."""

    kind: str  # "status", "money", "date", "time", "level", "number", "outcome"
    value: str  # a family, ``EUR 642.1``, ``2026-04-02``, ``14:00``, ``SEV1``, ``14``...
    text: str  # as written
    key: str | None = None  # the attribute (field or column) it came from
    rank: int = _RANK_STATUS


class MessageFacts(msgspec.Struct):
    """What one evidence message says of each entity it names, and of itself."""

    entities: dict[str, list[Fact]] = msgspec.field(default_factory=dict)
    own: list[Fact] = msgspec.field(default_factory=list)  # the result's own outcome
    subject: list[str] = msgspec.field(default_factory=list)  # what the message is about

    def add(self, targets: Iterable[str], fact: Fact) -> None:
        for target in targets:
            listed = self.entities.setdefault(target, [])
            listed.append(fact)
            if len(listed) > 2 * FACTS_KEPT:
                del listed[:FACTS_KEPT]

    def keep_last(self) -> None:
        """Keep the last :data:`FACTS_KEPT` facts of each thing and of the result itself."""
        self.own = self.own[-FACTS_KEPT:]
        for key, listed in self.entities.items():
            if len(listed) > FACTS_KEPT:
                self.entities[key] = listed[-FACTS_KEPT:]

    def of(self, key: str, kind: str) -> list[Fact]:
        """The facts of one kind about one entity, the decisive ones only for statuses: the
        highest rank, and of those the last (a log's later line overrides an earlier)."""
        found = [f for f in self.entities.get(key, ()) if f.kind == kind]
        if kind == A.STATUS and len(found) > 1:
            top = max(f.rank for f in found)
            found = [f for f in found if f.rank == top][-1:]
        return found

    def own_status(self) -> list[Fact]:
        """The result's own outcome: the decisive status it gives itself."""
        found = [f for f in self.own if f.kind == A.STATUS]
        if len(found) > 1:
            top = max(f.rank for f in found)
            found = [f for f in found if f.rank == top][-1:]
        return found


def entity_key(atom: Atom) -> str:
    """How an entity is filed (a hash by its first 7 digits)."""
    return atom.value[:7] if atom.kind == A.HASH else atom.value


def label_key(text: str) -> str:
    """How a thing known only by a name is filed (``test`` -> ``~test``)."""
    return "~" + text.strip().lower()


_KV: Final = lazy(
    r"^(?P<indent>[ \t]{0,8})(?P<key>[A-Za-z][\w .()/-]{0,40}?)[ \t]{0,8}[:=][ \t]{0,40}"
    r"(?P<value>.*)$"
)
#: A label and an amount set apart by a run of spaces, as a receipt or an invoice prints
#: its totals (``Balance due          € 164,18``): a ``key: value`` line without the colon.
_LABELLED_AMOUNT: Final = lazy(
    r"^(?P<indent>[ \t]{0,8})(?P<key>[A-Za-z][A-Za-z ]{0,30}?[A-Za-z])[ \t]{2,}(?P<value>\S.*)$"
)
_ARROW: Final = lazy(r"[ \t]{0,8}(?:->|→|=>)[ \t]{0,8}")
_CALL_LINE: Final = lazy(r"^→ (?P<name>[\w.:-]+) (?P<args>\{.*\})\s*$")
_TWO_DECIMALS: Final = lazy(r"\d\.\d\d$")
_DIGIT: Final = lazy(r"\d")
_INT_ID_KEYS: Final = frozenset(
    A.words("pr pr_number pull_request pull issue issue_number number id ticket order run_id")
)
_LABEL_KEYS: Final = ("name", "job", "title", "check", "step", "service", "test")
#: Fields that carry the body of what a call sends or a note on a record (``text``,
#: ``note``...): what they name is what the words are about, not the object's subject.
BODY_KEYS: Final = frozenset(
    A.words("text body message content html markdown description notes note comment summary blocks")
)
#: A log line: a timestamp or tag, then a level.
_LOG_LINE: Final = lazy(
    r"[\[\]\d\s:.,TZ+/()|-]{0,48}"
    + F.LOG_ZONE
    + r"(?:\[[^\]\n]{1,40}\][\s\d:.,TZ+/()|-]{0,8})?"
    + r"(?P<level>TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|CRITICAL|PANIC)\b"
    + r"|(?P<word>panic|error|fatal)(?:\[[\w-]{1,12}\])?:"
)
_FAILING_LEVELS: Final = frozenset(
    ["ERROR", "FATAL", "CRITICAL", "PANIC", "panic", "error", "fatal"]
)
#: A count and its outcome word (``1204 passed``, ``0 mismatches``, ``rows_rejected: 5 441``).
_OUTCOME_COUNT: Final = lazy(
    "(?<![\\w.:])(?P<n>\\d{1,3}(?:[,\u202f\u00a0 ]\\d{3})+|\\d+) (?P<word>"
    + "|".join(sorted(V.OUTCOMES, key=len, reverse=True))
    + r")\b"
    # the outcome as a field's name: "posted": 34, failed: 3
    + "|(?<![\\w])(?P<key>"
    + "|".join(sorted(V.OUTCOMES, key=len, reverse=True))
    + r")\"?[ \t]{0,3}[:=][ \t]{0,3}(?P<kn>\d{1,9})(?!\d|[.,]\d)"
    # a part of a whole: "8 of 9 files uploaded"
    + "|(?<![\\w.])(?P<on>\\d{1,9}) of \\d{1,9} (?:[a-z]{2,20} ){0,2}(?P<oword>"
    + "|".join(sorted(V.OUTCOMES, key=len, reverse=True))
    + r")\b",
    re.IGNORECASE,
)
_TABLE_SPLIT: Final = lazy(r"\S(?:\S| (?! ))*")
#: A header cell: a name, with units as people write them ("QTY m³", "TEMP °C", "AMOUNT €").
_HEADER_CELL: Final = lazy(r"[A-Za-z0-9][A-Za-z0-9 ()/_.#%°²³µ€$£<=>-]{0,40}")
_LEVEL_IN_TEXT: Final = lazy(
    r"HTTP(?:/\d(?:\.\d)?)? (?P<http>[1-5]\d\d)\b|"
    r"[Ee]xit(?:ed)?(?: with)?(?:[ _](?i:code|status))?[ :=]{1,8}(?P<exit>\d{1,3})\b"
)


def message_facts(text: str) -> MessageFacts:
    """Read one message in full: which statuses, amounts, dates, levels and counts it gives
    which entity, and what it says of itself (see the module's description)."""
    facts = MessageFacts()
    text = text[:FACTS_LIMIT]
    stripped = text.strip()
    if stripped[:1] in ("{", "["):
        try:
            value = json.loads(stripped)
        except (ValueError, RecursionError):
            pass
        else:
            walk_json(value, [], facts, top=True)
            facts.keep_last()
            return facts
    _text_facts(text, facts)
    facts.keep_last()
    return facts


def asked_facts(calls: str) -> dict[str, list[Fact]]:
    """What tool calls asked (their ``→ NAME {args}`` lines), as facts of lesser rank, by
    what the arguments name."""
    found = MessageFacts()
    for line in calls.splitlines():
        call = _CALL_LINE.match(line)
        if call is None:
            continue
        try:
            args = json.loads(call.group("args"))
        except (ValueError, RecursionError):
            continue
        walk_json(args, ["~asked"], found, top=False, rank=_RANK_ASKED)
    return found.entities


def _entities_in(text: str) -> list[Atom]:
    return [a for a in A.extract_atoms(text) if a.kind in A.ENTITY_KINDS]


def walk_json(
    value: Any,
    inherited: list[str],
    facts: MessageFacts,
    *,
    top: bool,
    depth: int = 0,
    rank: int | None = None,
) -> None:
    """File the facts of a JSON value (``rank``: every status fact at that rank, for what a
    tool call asked)."""
    stack: list[tuple[Any, list[str], bool, int]] = [(value, inherited, top, depth)]
    while stack:  # depth-first, in document order, without recursion on the Python stack
        item, subjects, is_top, level = stack.pop()
        if level > MAX_DEPTH:
            continue
        if isinstance(item, list):
            stack.extend((x, subjects, False, level + 1) for x in reversed(item))
            continue
        if not isinstance(item, dict):
            continue
        if is_top and len(item) == 1:
            ((only, inner),) = item.items()
            if isinstance(inner, dict) and A.normalise_key(str(only)) not in _ERROR_KEYS:
                stack.append((inner, subjects, True, level + 1))
                continue
        children = _object_facts(item, subjects, facts, top=is_top, rank=rank)
        stack.extend((child, own, False, level + 1) for child, own in reversed(children))


#: Fields that name another record than the object they are in (``"replaces":
#: "RE-2025-0088120"`` of a new invoice): their entities are not what it is about.
_OTHER_RECORD_KEYS: Final = frozenset(
    A.words(
        "replaces replaced_by supersedes superseded_by previous parent original duplicate_of "
        "related retry_of"
    )
)


#: A field's value that says a call went through, not what state a record is in.
_CALL_OK: Final = lazy(r"(?i:ok|success|succeeded|true)")
#: A field named like a kind of record (``work_order``, ``booking``), not like text.
_KIND_KEY: Final = lazy(r"[a-z]{3,20}(?:_[a-z]{3,20})?")


def _object_facts(
    value: dict[str, Any], inherited: list[str], facts: MessageFacts, *, top: bool, rank: int | None
) -> list[tuple[Any, list[str]]]:
    named: list[str] = []
    mentioned: list[str] = []
    noted: list[str] = []  # named only in a body or a note: the subject when nothing else is
    labels: list[str] = []
    own: list[str] = []  # the first field's id, under a name of a kind ("work_order")
    id_keys: list[str] = []
    first = True
    for key, item in value.items():
        name = A.normalise_key(str(key))
        is_id = A.is_id_key(name)
        if is_id:
            id_keys.append(name)
        if isinstance(item, str) and len(item) <= 300 and name not in _OTHER_RECORD_KEYS:
            found = [entity_key(a) for a in _entities_in(item)]
            if first and found and not is_id and _KIND_KEY.fullmatch(name):
                own = found
            first = first and not found
            (named if is_id else noted if name in BODY_KEYS else mentioned).extend(found)
            if name in _LABEL_KEYS and not found and 0 < len(item) <= 40 and " " not in item:
                labels.append(label_key(item))
        elif type(item) is int and name in _INT_ID_KEYS:
            named.append(f"#{item}")
    subjects = named or labels or mentioned or noted or inherited
    # {"work_order": "MWO-55218", "fault_id": "WF-30917", "status": "scheduled"}: the status
    # is the work order's; the fault it was raised for is a reference
    stated = own if own and id_keys and all(k.endswith("_id") for k in id_keys) else None
    if top and not facts.subject:
        facts.subject = list(subjects)
    currency = value.get("currency") if isinstance(value.get("currency"), str) else None
    children: list[tuple[Any, list[str]]] = []
    for key, item in value.items():
        name = A.normalise_key(str(key))
        status = _field_status(name, item)
        if status is not None:
            weight = _RANK_OUTCOME if name in _OUTCOME_FIELDS else _RANK_STATUS
            fact = Fact(A.STATUS, status, str(item), name, weight if rank is None else rank)
            facts.add(stated or subjects, fact)
            if top:
                facts.own.append(fact)
            continue
        level = V.field_level(name, item)
        if level is not None:
            fact = Fact(A.LEVEL, level, str(item), name)
            facts.add(subjects, fact)
            if top:
                facts.own.append(fact)
            continue
        if A.is_amount_key(name):
            for fact in _field_amounts(name, item, currency):
                facts.add(subjects, fact)
            if not isinstance(item, dict | list):
                continue
        dated = A.is_date_key(name)
        atoms = (
            A.extract_atoms(item)
            if isinstance(item, str) and (dated or _may_be_moment(item))
            else None
        )
        if atoms is not None and (dated or _is_moment(atoms)):
            moment_rank = _RANK_STATUS if dated else RANK_AGREES_ONLY
            for atom in atoms:
                if atom.kind == A.DATE:
                    facts.add(subjects, Fact(A.DATE, atom.value, atom.text, name, moment_rank))
                    clock = _clock_of(atom.text)
                    if clock is not None:
                        facts.add(subjects, Fact(A.TIME, clock, atom.text, name, moment_rank))
                elif atom.kind == A.TIME:
                    facts.add(subjects, Fact(A.TIME, atom.value, atom.text, name, moment_rank))
            continue
        if isinstance(item, str) and len(item) <= 300 and not A.is_id_key(name):
            # an amount written with its currency is an amount, whatever the field is
            # called (``"price_per_seat": "$24.00/mo"``), as on a ``key: value`` line
            for atom in atoms if atoms is not None else A.extract_atoms(item):
                if atom.kind == A.MONEY:
                    facts.add(subjects, Fact(A.MONEY, atom.value, atom.text, name))
            continue
        if type(item) in (int, float) and not A.is_id_key(name):
            number = A.to_decimal(repr(item))
            if number is not None:
                facts.add(subjects, Fact(NUMBER, A.decimal_text(number), repr(item), name))
        if isinstance(item, dict | list):
            children.append((item, subjects))
    return children


_CLOCK: Final = lazy(r"[T ](\d\d:\d\d)")


def _may_be_moment(text: str) -> bool:
    """Whether a field's value is short and starts like a date or a time."""
    return 0 < len(text) <= 40 and text[0].isdigit()


def _is_moment(atoms: list[Atom]) -> bool:
    """Whether a field's value (its atoms) is a date or a time, whatever the field is
    called (``"promised": "19:40"``, ``"term_end": "2026-06-30"``)."""
    return bool(atoms) and atoms[0].start == 0 and atoms[0].kind in (A.DATE, A.TIME)


def _clock_of(stamp: str) -> str | None:
    found = _CLOCK.search(stamp)
    return None if found is None else found.group(1)


def _field_status(name: str, item: Any) -> str | None:
    if isinstance(item, bool):
        pair = A.BOOLEAN_STATUS_KEYS.get(name)
        return None if pair is None else pair[0 if item else 1]
    if name in _ERROR_KEYS and item:
        return "failed"
    if A.is_status_key(name) and isinstance(item, str):
        return value_family(item)
    return None


def value_family(value: str) -> str | None:
    """The family of a status field's value (``open -> solved`` is its last step,
    ``In customs, held for duty payment`` its first words)."""
    last = _ARROW.split(value.strip())[-1]
    family = V.status_family(last)
    if family is not None:
        return family
    head = re.split(r"[(,;—]", last, maxsplit=1)[0]
    family = V.status_family(head)
    if family is not None:
        return family
    for atom in A.extract_atoms(last):
        if atom.kind == A.STATUS:
            return atom.value
    first = head.strip().split(" ", 1)[0] if head.strip() else ""
    return V.VALUES.get(first.lower())


def _field_amounts(name: str, item: Any, currency: str | None) -> list[Fact]:
    if isinstance(item, bool):
        return []
    if isinstance(item, int | float):
        amount = A.to_decimal(repr(item))
        if amount is None:
            return []
        return [Fact(A.MONEY, A.money_value(currency, amount), repr(item), name)]
    if isinstance(item, str):
        return [
            Fact(A.MONEY, a.value, a.text, name)
            for a in A.extract_atoms(item, all_numbers=True)
            if a.kind in (A.MONEY, A.NUMBER)
        ]
    if isinstance(item, dict):
        inner = item.get("amount", item.get("value", item.get("total")))
        inner_currency = item.get("currency") if isinstance(item.get("currency"), str) else currency
        return _field_amounts(name, inner, inner_currency)
    return []


# --------------------------------------------------------------------------- text


class _Table(msgspec.Struct):
    """A table's header: where each column starts and what it is called."""

    columns: list[tuple[int, str]]
    entity_column: int


def _cells(line: str) -> list[tuple[int, str]]:
    """A table line's cells: runs separated by two spaces or more (or a tab)."""
    return [(m.start(), m.group()) for m in _TABLE_SPLIT.finditer(line.replace("\t", "  "))]


_ID_HEADERS: Final = frozenset(A.words("id name key order ticket backup pod host job test item"))
#: A table none of whose headers names an id column.
_NO_ID_COLUMN: Final = -1


def _is_column_name(text: str) -> bool:
    """Whether a cell names a column: a name, with its unit, and with a number only as part
    of a name ("ICD-10", "P99_MS", "5XX", "MITES/100"), never a value ("P-4417", "0.3
    L/min", "8h")."""
    if not _HEADER_CELL.fullmatch(text):
        return False
    digits = len(_DIGIT.findall(text))
    letters = sum(c.isalpha() for c in text)
    if text[0].isdigit() and (letters < 2 or "." in text or "," in text):
        return False
    return not digits or (digits <= 3 and digits <= letters and len(text.split()) <= 3)


def _capitals(text: str) -> bool:
    """Whether a cell is a name in capitals, as headers are written ("STATUS", "ON HAND")."""
    return not _DIGIT.search(text) and text.upper() == text and sum(c.isalpha() for c in text) > 1


def _header(line: str, following: str | None) -> _Table | None:
    """``line`` as a table header when it looks like one and the next line is a row."""
    if following is None:
        return None
    cells = _cells(line)
    if (
        len(cells) < 3
        or _DIGIT.search(cells[0][1])
        or not all(_is_column_name(text) for _, text in cells)
    ):
        return None
    if _DIGIT.search(line) and not any(_capitals(text) for _, text in cells):
        return None  # numbers in a line of names and words: a row ("db-ro  LOW  8h")
    if len(_cells(following)) < 2 or set(following.strip()) <= set("-=+| "):
        return None
    names = [A.normalise_key(_unbracketed(text)).strip("_") for _, text in cells]
    entity = next(
        (
            i
            for i, n in enumerate(names)
            if n in _ID_HEADERS or n.split("_")[-1] in _ID_HEADERS or A.is_id_key(n)
        ),
        _NO_ID_COLUMN,
    )
    return _Table([(start, name) for (start, _), name in zip(cells, names, strict=True)], entity)


def _column(table: _Table, start: int) -> int:
    """The column a cell starting at ``start`` falls under."""
    index = 0
    for i, (begin, _) in enumerate(table.columns):
        if begin <= start + 1:
            index = i
    return index


def _row_facts(line: str, table: _Table, facts: MessageFacts) -> bool:
    cells = _cells(line)
    if len(cells) < 2:
        return False
    by_column: dict[int, str] = {}
    for start, text in cells:
        by_column.setdefault(_column(table, start), text)
    entity_column = table.entity_column
    if entity_column == _NO_ID_COLUMN:
        # no column is named as an id: the first, unless it is a moment (``DATE  REF
        # DESCRIPTION``: "2026-11-06  WR-880412  earnest money" is WR-880412's row)
        entity_column = min(by_column)
        first = by_column[entity_column]
        if first[:1].isdigit() and _is_moment(A.extract_atoms(first[:80])):
            entity_column = next(
                (i for i, text in sorted(by_column.items()) if _entities_in(text)), entity_column
            )
    elif entity_column > min(by_column):
        # an id in the first column keys the row; a later column named as one is a
        # reference ("LOT  ORDER  VERDICT": DL-2219's verdict, not its order's)
        first = by_column[min(by_column)]
        if _entities_in(first) and not _is_moment(A.extract_atoms(first[:80])):
            entity_column = min(by_column)
    key_cell = by_column.get(entity_column) or cells[0][1]
    found = _entities_in(key_cell)
    target = [entity_key(found[0])] if found else [label_key(key_cell)]
    found_facts = [
        fact
        for index, text in by_column.items()
        if index != entity_column
        for fact in _cell_facts(table.columns[index][1], text)
    ]
    states = [f for f in found_facts if f.kind == A.STATUS and not _says_call_ok(f.text)]
    for fact in found_facts:
        if states and fact.kind == A.STATUS and _says_call_ok(fact.text):
            continue  # "NEW STATUS  pending_approval  RESULT  ok": how the call went
        facts.add(target, fact)
    return True


def _says_call_ok(text: str) -> bool:
    """Whether a status cell says a call went through ("ok", "ok (note added)"), not what
    state a record is in."""
    return _CALL_OK.fullmatch(re.split(r"[(,;]", text, maxsplit=1)[0].strip()) is not None


def _cell_facts(name: str, text: str) -> Iterator[Fact]:
    if A.is_status_key(name) or name in ("state", "status"):
        family = value_family(text)
        if family is not None:
            yield Fact(A.STATUS, family, text, name)
        return
    level = V.field_level(name, text)
    if level is not None:
        yield Fact(A.LEVEL, level, text, name)
        return
    if name in V.LEVEL_KEYS:
        return
    for atom in A.extract_atoms(text, all_numbers=True):
        if atom.kind == A.MONEY or (atom.kind == A.NUMBER and A.is_amount_key(name)):
            yield Fact(A.MONEY, atom.value, atom.text, name)
        elif atom.kind == A.DATE:
            yield Fact(A.DATE, atom.value, atom.text, name)
        elif atom.kind in (A.NUMBER, A.QUANTITY, A.DURATION, A.TIME, A.LEVEL):
            kind = NUMBER if atom.kind == A.NUMBER else atom.kind
            yield Fact(kind, atom.value, atom.text, name)
        elif atom.kind == A.COUNT:
            yield Fact(NUMBER, atom.value.split(" ", 1)[0], atom.text, name)
        break  # a cell holds one value


def outcome_counts(text: str) -> list[tuple[int, str, str]]:
    """The counts with outcomes in ``text``: (count, family, as written)."""
    found: list[tuple[int, str, str]] = []
    for m in _OUTCOME_COUNT.finditer(text):
        word = m.group("word") or m.group("key") or m.group("oword")
        family = V.outcome_of(word)
        number = A.to_decimal(m.group("n") or m.group("kn") or m.group("on"), grouped=True)
        if family is not None and number is not None:
            found.append((int(number), family, m.group()))
    return found


def _json_object(line: str) -> dict[str, Any] | None:
    """A line that is a JSON object (``{"offer": "OFR-5", "status": "applied", ...}``,
    the body under an HTTP status line), or None.  It is read as JSON, not as a row, whose
    first entity would own every status and amount after it."""
    stripped = line.strip()
    if not (stripped.startswith("{") and stripped.endswith("}")):
        return None
    try:
        value = json.loads(stripped)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _text_facts(text: str, facts: MessageFacts) -> None:
    subject: list[str] = []
    first = True
    own_done = False
    table: _Table | None = None
    lines = text.splitlines()
    for number, line in enumerate(lines):
        if not line.strip():
            table = None
            continue
        call = _CALL_LINE.match(line)
        if call is not None:
            try:
                args = json.loads(call.group("args"))
            except (ValueError, RecursionError):
                args = None
            if args is not None:
                walk_json(args, [], facts, top=False, rank=_RANK_ASKED)
                continue
        body = _json_object(line)
        if body is not None:
            # the body under an HTTP status line: its levels, by the object's own id
            # ({"incident": "INC-26-0318", "severity": "MODERATE", ...}); not its statuses,
            # often the call's or another record's (docs/claims.md, rounds 53 and 74)
            read = MessageFacts()
            walk_json(body, [], read, top=False)
            for target, found in read.entities.items():
                for fact in found:
                    if fact.kind == A.LEVEL:
                        facts.add((target,), fact)
            first = False
            continue
        if table is not None:
            if _row_facts(line, table, facts):
                continue
            table = None
        following = lines[number + 1] if number + 1 < len(lines) else None
        header = _header(line, following)
        if header is not None:
            table = header
            first = False
            continue
        log = _LOG_LINE.match(line)
        level = None if log is None else (log.group("level") or log.group("word"))
        has_digit = _DIGIT.search(line) is not None
        if not first and not has_digit and level is None:
            # no digit, no entity: only a status or a level line of the current subject
            # matters ("state: draft", "severity: MAJOR")
            kv = _KV.match(line)
            if kv is not None and (
                word_level := V.field_level(A.normalise_key(kv.group("key")), kv.group("value"))
            ):
                facts.add(
                    subject, Fact(A.LEVEL, word_level, kv.group("value").strip(), kv.group("key"))
                )
            elif (
                kv is not None
                and _status_value(kv.group("value"))
                and (
                    A.is_status_key(A.normalise_key(kv.group("key")))
                    or A.normalise_key(kv.group("key")) in _REASON_KEYS
                )
            ):
                family = value_family(kv.group("value"))
                if family is not None:
                    fact = Fact(A.STATUS, family, kv.group("value").strip(), kv.group("key"))
                    facts.add(subject, fact)
                    if not own_done and not kv.group("indent"):
                        facts.own.append(fact)
                        own_done = True
            continue
        atoms = A.extract_atoms(line, all_numbers=True) if has_digit or first else []
        entities = [a for a in atoms if a.kind in A.ENTITY_KINDS]
        if first:
            first = False
            subject = [entity_key(entities[0])] if entities else []
            facts.subject = list(subject)
            statuses = [a for a in atoms if a.kind == A.STATUS]
            if level is None:
                for atom in statuses:  # the result's first line states its outcome
                    facts.own.append(Fact(A.STATUS, atom.value, atom.text, ROW))
                if statuses:
                    own_done = True
        if level is not None:
            _log_facts(line, level, atoms, entities, subject, facts)
            continue
        if has_digit:
            _level_facts(line, subject, facts)
            for count, family, written in outcome_counts(line):
                fact = Fact(OUTCOME, f"{count} {family}", written)
                facts.add(subject, fact)
                facts.own.append(fact)
        kv = _KV.match(line)
        if kv is None and not entities and any(a.kind == A.MONEY for a in atoms):
            kv = _LABELLED_AMOUNT.match(line)
        if kv is not None and not _looks_like_time(kv):
            key = A.normalise_key(kv.group("key"))
            offset = kv.start("value")
            value_entities = [entity_key(a) for a in entities if a.start >= offset]
            if A.is_id_key(key) and value_entities:
                subject = value_entities[:1]
                if not facts.subject:
                    facts.subject = list(subject)
                continue
            if (A.is_status_key(key) or key in _REASON_KEYS) and _status_value(kv.group("value")):
                family = value_family(kv.group("value"))
                if family is not None:
                    fact = Fact(A.STATUS, family, kv.group("value").strip(), key)
                    facts.add(value_entities or subject, fact)
                    if not own_done and not kv.group("indent"):
                        facts.own.append(fact)
                        own_done = True
                continue
            if _kv_fact(key, kv.group("value"), atoms, offset, value_entities or subject, facts):
                continue
        words = len(line.split())
        _line_facts(atoms, entities, facts, short=words <= 6, prose=_is_prose(line, words))


def _kv_fact(
    key: str, value: str, atoms: list[Atom], offset: int, targets: list[str], facts: MessageFacts
) -> bool:
    """A ``key: value`` line's fact of its subject; whether the line was one."""
    level = V.field_level(key, value)
    if level is not None:
        facts.add(targets, Fact(A.LEVEL, level, value.strip(), key))
        return True
    after = [a for a in atoms if a.start >= offset]
    if A.is_amount_key(key):
        for atom in after:
            if atom.kind in (A.MONEY, A.NUMBER):
                facts.add(targets, Fact(A.MONEY, atom.value, atom.text, key))
                break
        return True
    if A.is_date_key(key):
        for atom in after:
            if atom.kind == A.DATE:
                facts.add(targets, Fact(A.DATE, atom.value, atom.text, key))
            elif atom.kind == A.TIME:
                facts.add(targets, Fact(A.TIME, atom.value, atom.text, key))
        return True
    amounts = [atom for atom in after if atom.kind == A.MONEY]
    if amounts:  # an amount with its currency, wherever in the value ("1 cat (fee $35/mo)")
        for atom in amounts:
            facts.add(targets, Fact(A.MONEY, atom.value, atom.text, key))
        return False
    for atom in after:
        if atom.kind in (A.NUMBER, A.QUANTITY, A.DURATION, A.LEVEL):
            kind = NUMBER if atom.kind == A.NUMBER else atom.kind
            facts.add(targets, Fact(kind, atom.value, atom.text, key))
        elif atom.kind == A.COUNT:
            facts.add(targets, Fact(NUMBER, atom.value.split(" ", 1)[0], atom.text, key))
        elif atom.kind in (A.DATE, A.TIME) and atom.start == offset:
            # a field whose value is a date, whatever its name (term_end, effective)
            facts.add(targets, Fact(atom.kind, atom.value, atom.text, key, RANK_AGREES_ONLY))
        else:
            continue
        break
    return False


def _level_facts(line: str, subject: list[str], facts: MessageFacts) -> None:
    """``HTTP/1.1 503`` and ``exit code 3``: levels of the result itself."""
    for m in _LEVEL_IN_TEXT.finditer(line):
        if m.group("http"):
            value = f"HTTP {int(m.group('http'))}"
            outcome = "failed" if int(m.group("http")) >= 400 else "succeeded"
        else:
            value = f"exit {int(m.group('exit'))}"
            outcome = "failed" if int(m.group("exit")) else "succeeded"
        fact = Fact(A.LEVEL, value, m.group())
        facts.own.append(fact)
        facts.own.append(Fact(A.STATUS, outcome, m.group(), None, _RANK_STATUS))
        facts.add(subject, fact)


def _log_facts(
    line: str,
    level: str,
    atoms: list[Atom],
    entities: list[Atom],
    subject: list[str],
    facts: MessageFacts,
) -> None:
    """A log line: an error level fails its entity (or the log's subject); an outcome
    word on it (``completed``, ``aborted``) is that entity's status."""
    targets = [entity_key(entities[0])] if entities else subject
    if entities:
        # "MDM-4417 noncompliant: passcode_length 4 < 6 (severity HIGH)": the entity's level
        for atom in atoms:
            if atom.kind == A.LEVEL and not atom.value.startswith(("HTTP", "exit")):
                facts.add(targets, Fact(A.LEVEL, atom.value, atom.text, LOG))
    if level in _FAILING_LEVELS:
        fact = Fact(A.STATUS, "failed", line.strip()[:200], LOG_LEVEL)
        facts.add(targets, fact)
        facts.own.append(fact)
        return
    statuses = [a for a in atoms if a.kind == A.STATUS] or [
        a for a in A.extract_atoms(line) if a.kind == A.STATUS
    ]
    for atom in statuses:
        if _OTHERS.search(line, max(0, atom.start - 32), atom.start):
            continue  # "QC-88412 complete: K REJECT, other assays accepted": not its state
        fact = Fact(A.STATUS, atom.value, atom.text, LOG)
        facts.add(targets, fact)
        if atom.value in ("succeeded", "failed"):
            facts.own.append(fact)
    _level_facts(line, subject, facts)


#: Before a status word on a log line, words that give it to other things than the
#: line's entity ("other assays accepted", "the rest passed").
_OTHERS: Final = lazy(r"\b(?:other|others|remaining|rest)\b[^,;:]*$", re.IGNORECASE)
#: The attributes of what log lines say.
LOG_KEYS: Final = (LOG, LOG_LEVEL)


def without_log_outcomes(facts: MessageFacts) -> MessageFacts:
    """``facts`` without the outcomes its log lines gave (for a tool that *reads* a log: an
    ``ERROR`` line in it is an event it reports, not what became of what it is about)."""
    kept = MessageFacts(subject=facts.subject)
    kept.own = [f for f in facts.own if f.key not in LOG_KEYS]
    for key, listed in facts.entities.items():
        kept.entities[key] = [f for f in listed if f.key not in LOG_KEYS]
    return kept


def _looks_like_time(kv: re.Match[str]) -> bool:
    return kv.group("key").strip().isdigit()


def _status_value(value: str) -> bool:
    """Whether a status field's value is a status, not a paragraph ("QL-C status: RFI-0138
    overdue, RFI-0142 and RFI-0144 open. INS-2232 failed ..." is prose under a heading)."""
    words = len(value.split())
    return words <= _STATUS_WORDS and not _is_prose(value, words)


#: A status field's value has at most this many words ("pending finance approval (KB-212)").
_STATUS_WORDS: Final = 8


def _is_prose(line: str, words: int) -> bool:
    """Whether a line of ``words`` words is sentences, not a row: more than one sentence,
    or many words."""
    return words > _ROW_WORDS or _SENTENCE_BREAK.search(line) is not None


#: A row of a listing has at most this many words; a line of more is prose.
_ROW_WORDS: Final = 16
_SENTENCE_BREAK: Final = lazy(r"[a-z)][.;!?] +[A-Z]")


def _line_facts(
    atoms: list[Atom],
    entities: list[Atom],
    facts: MessageFacts,
    *,
    short: bool = False,
    prose: bool = False,
) -> None:
    """A prose line's statuses, amounts and levels go to the nearest entity on it; its
    dates too when the line is a row (it starts with the entity: ``CH-5531  2026-03-14``;
    a paragraph that happens to start with one is no row)."""
    if not entities:
        return
    row = atoms[0] is entities[0] and not prose
    # a row (it starts with its entity) or a short status line ("payment PAY-1 scheduled")
    # states; a sentence of prose narrates
    key = ROW if row or short else None
    for atom in atoms:
        if atom.kind == A.DATE and row:
            facts.add([entity_key(entities[0])], Fact(A.DATE, atom.value, atom.text, ROW))
            continue
        if atom.kind == A.STATUS:
            fact = Fact(A.STATUS, atom.value, atom.text, key)
        elif atom.kind == A.MONEY or (
            atom.kind == A.NUMBER and _TWO_DECIMALS.search(atom.text) is not None
        ):
            fact = Fact(A.MONEY, atom.value, atom.text, key)
        elif atom.kind == A.LEVEL:
            fact = Fact(A.LEVEL, atom.value, atom.text, key)
        else:
            continue
        owner = _nearest(entities, atom)
        if owner is not None:
            facts.add([entity_key(owner)], fact)


def _nearest(entities: list[Atom], atom: Atom) -> Atom | None:
    before = [e for e in entities if e.end <= atom.start]
    if before:
        return before[-1]
    after = [e for e in entities if e.start >= atom.end]
    return after[0] if after else None


def _unbracketed(text: str) -> str:
    r"""``text`` without its parenthesised parts: each ``(`` up to the first ``)`` after it
    on its line, as ``re.sub(r"\(.*?\)", "", text)`` but in one pass (that pattern tries
    every ``(`` of a line that holds no ``)`` to the line's end)."""
    out: list[str] = []
    at = 0
    while (open_ := text.find("(", at)) >= 0:
        line_end = text.find("\n", open_)
        close = text.find(")", open_, len(text) if line_end < 0 else line_end)
        if close < 0:  # no "(" of the rest of this line is closed on it
            if line_end < 0:
                break
            out.append(text[at : line_end + 1])
            at = line_end + 1
            continue
        out.append(text[at:open_])
        at = close + 1
    out.append(text[at:])
    return "".join(out)
