"""Reading hands and entries sent as JSON values, naming every problem (API.md "ENTRY").

>>> hand = read_hand({"entries": [{"melded_points": 120, "canastas": {"natural": 1}}, {}]})
>>> hand.entries[0].canasta_count, hand.entries[1] == Entry()
(1, True)
>>> try:
...     read_entry({"went_out": 1, "melded_points": 12, "bogus": 1})
... except InvalidError as error:
...     [v.field for v in error.violations]  # unknown fields first, then in the order of FIELD_READERS
['bogus', 'melded_points', 'went_out']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import CardError, card_class_name
from ..text import Text, t
from ..violations import InvalidError, Violation
from .entry import CARD_FIELDS, COUNT_FIELDS, ENTRY_FIELDS, FLAG_FIELDS, HAND_FIELDS, POINT_FIELDS, Entry, Hand

MOST = 10_000  # more of anything than a hand holds
_ENTRY_FIELD_SET = frozenset(ENTRY_FIELDS)
_HAND_FIELD_SET = frozenset(HAND_FIELDS)
# The field labels messages start with ("Melded points is a whole number."), by API field: the
# words of the hand form's boxes, so a message under a box names it as the box does.
FIELD_LABELS = {
    "melded_points": t("Melded points"), "hand_points": t("Points in hand"), "canastas": t("Canastas"),
    "red_threes": t("Red threes"), "black_threes": t("Black threes laid out"),
    "black_threes_in_hand": t("Black threes left in hand"), "went_out": t("Went out"), "concealed": t("Concealed"),
    "special_hand": t("Special hand"), "incomplete": t("Incomplete"), "held_sets": t("Held sets"),
    "penalty_points": t("Other penalties"), "restored_piles": t("Piles put back"),
    "melded_cards": t("Melded cards"), "hand_cards": t("Cards in hand"),
}  # fmt: skip
KNOWN_ENTRY_FIELDS = ", ".join(ENTRY_FIELDS)  # API keys, as the API writes them


def read_hand(data: Any) -> Hand:
    """Read an API hand object: ``{"entries": [...], "partnership": [i, j]}``.

    :raises InvalidError: with every problem, fields relative to the hand.
    """
    if not isinstance(data, (dict, Mapping)):  # a dict first: the ABC check costs more
        raise InvalidError([Violation("hand-not-object", t("Each hand is an object with its entries."))])
    problems: list[Violation] = []
    if not data.keys() <= _HAND_FIELD_SET:
        problems += _unknown_hand_fields(data)
    entries = _read_entries(data.get("entries"), problems)
    partnership = data.get("partnership")
    if partnership is not None:
        partnership = _read_partnership(partnership, problems)
    if problems:
        raise InvalidError(problems)
    return Hand(tuple(entries), tuple(partnership) if partnership else None)


def read_entry(data: Any) -> Entry:
    """Read an API ENTRY object.

    :raises InvalidError: listing every field that is of the wrong type or out of range.
    """
    if not isinstance(data, (dict, Mapping)):  # a dict first: the ABC check costs more
        raise InvalidError([Violation("entry-not-object", t("Each entry is an object of fields."))])
    problems: list[Violation] = []
    values = _read_fields(data, problems)
    if problems:
        raise InvalidError(problems)
    return Entry(**values)


def _read_fields(data: Mapping[Any, Any], problems: list[Violation]) -> dict[str, Any]:
    """The fields an entry gives, each read by its sort's reader; problems in FIELD_READERS' order."""
    if not data.keys() <= _ENTRY_FIELD_SET:
        problems += _unknown_entry_fields(data)
    values = {}
    found: list[Violation] = []
    for name in data:
        read = _READER_OF.get(name)
        if read is not None:
            values[name] = read(data, name, found)
    if found:  # read in the order given; reported in the order of FIELD_READERS
        found.sort(key=lambda violation: _FIELD_ORDER[violation.field.partition(".")[0]])
        problems += found
    return values


# --- one reader per sort of field: it returns the value read and adds what is wrong ------------
def _unknown_entry_fields(data: Mapping[Any, Any]) -> list[Violation]:
    return [
        Violation(
            "unknown-field",
            t("'{name}' is not an entry field. Known fields: {known}.", name=name, known=KNOWN_ENTRY_FIELDS),
            str(name),
        )
        for name in data
        if name not in _ENTRY_FIELD_SET
    ]


def _read_points(data: Mapping[Any, Any], name: str, problems: list[Violation]) -> int:
    value = data[name]
    if type(value) is int and 0 <= value <= MOST and not value % 5:  # what nearly every entry sends
        return value
    return _points(value, name, problems)


def _read_count(data: Mapping[Any, Any], name: str, problems: list[Violation]) -> int:
    value = data[name]
    if type(value) is int and 0 <= value <= MOST:  # what nearly every entry sends
        return value
    return _count(value, name, problems)


def _read_flag(data: Mapping[Any, Any], name: str, problems: list[Violation]) -> bool:
    if isinstance(data[name], bool):
        return data[name]
    problems.append(Violation("not-a-flag", t("{field} is true or false.", field=_label(name)), name))
    return False


def _read_count_map(data: Mapping[Any, Any], name: str, problems: list[Violation]) -> dict[str, int]:
    return _count_map(data[name], name, problems)


def _read_card_counts(data: Mapping[Any, Any], name: str, problems: list[Violation]) -> dict[str, int]:
    points = CARD_FIELDS[name]
    if points in data:
        problems.append(
            Violation(
                "points-and-cards",
                t("Give either {points} or {cards} for this pile, not both.", points=points, cards=name),
                name,
            )
        )
    return _card_counts(data[name], name, problems)


def _read_special_hand(data: Mapping[Any, Any], name: str, problems: list[Violation]) -> str | None:
    value = data[name]
    if value is None or isinstance(value, str):
        return value
    problems.append(Violation("not-text", t('The special hand is named as text, e.g. "pairs".'), "special_hand"))
    return None


def _read_incomplete(data: Mapping[Any, Any], name: str, problems: list[Violation]) -> tuple[str, ...]:
    return _kind_list(data[name], problems)


# Each field of an entry with its reader, in the order their problems are reported.
FIELD_READERS = (
    *((name, _read_points) for name in POINT_FIELDS),
    *((name, _read_count) for name in COUNT_FIELDS),
    *((name, _read_flag) for name in FLAG_FIELDS),
    ("canastas", _read_count_map),
    ("held_sets", _read_count_map),
    *((name, _read_card_counts) for name in CARD_FIELDS),
    ("special_hand", _read_special_hand),
    ("incomplete", _read_incomplete),
)
_READER_OF = dict(FIELD_READERS)
_FIELD_ORDER = {name: order for order, (name, _) in enumerate(FIELD_READERS)}


# --- reading a hand ----------------------------------------------------------------------------
def _unknown_hand_fields(data: Mapping[Any, Any]) -> list[Violation]:
    return [
        Violation(
            "unknown-field", t("'{name}' is not a hand field; use entries and partnership.", name=name), str(name)
        )
        for name in data
        if name not in HAND_FIELDS
    ]


def _read_entries(raw: Any, problems: list[Violation]) -> list[Entry]:
    """Every entry that reads well; the others' problems, placed under their index."""
    entries: list[Entry] = []
    if not isinstance(raw, list) or not raw:
        problems.append(Violation("entries-missing", t("Give one entry per side in 'entries'."), "entries"))
        return entries
    for index, item in enumerate(raw):
        try:
            entries.append(read_entry(item))
        except InvalidError as error:
            problems.extend(v.under(f"entries[{index}]") for v in error.violations)
    return entries


def _read_partnership(partnership: Any, problems: list[Violation]) -> list[int] | None:
    """Two player indexes, or None after noting the problem."""
    if (
        isinstance(partnership, list)
        and len(partnership) == 2
        and all(isinstance(i, int) and not isinstance(i, bool) for i in partnership)
    ):
        return partnership
    problems.append(
        Violation("bad-partnership", t("A partnership names two players by their index, e.g. [0, 2]."), "partnership")
    )
    return None


# --- reading values --------------------------------------------------------------------------
def _label(name: str) -> Text | str:
    """A field as messages name it: "Melded points", or "Canastas.natural" for a count inside one."""
    label = FIELD_LABELS.get(name)
    if label is not None:
        return label
    field, dot, key = name.partition(".")
    if dot and field in FIELD_LABELS:
        # The key is the API's own (a canasta kind, a card class), shown as the API writes it.
        return t("{field}.{key}", field=FIELD_LABELS[field], key=key.replace("_", " "))
    return name.replace("_", " ").capitalize()  # not reached: every field has its label


def _whole(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e12:
        return int(value)
    return None


def _count(value: Any, name: str, problems: list[Violation]) -> int:
    if type(value) is int and 0 <= value <= MOST:  # what nearly every entry sends
        return value
    number = _whole(value)
    if number is None:
        problems.append(Violation("not-a-number", t("{field} is a whole number.", field=_label(name)), name))
        return 0
    if number < 0:
        problems.append(Violation("negative", t("{field} cannot be negative.", field=_label(name)), name))
        return 0
    if number > MOST:
        problems.append(
            Violation(
                "too-large",
                t("{field} of {number} is more than any hand holds.", field=_label(name), number=number),
                name,
            )
        )
        return 0
    return number


def _points(value: Any, name: str, problems: list[Violation]) -> int:
    if type(value) is int and 0 <= value <= MOST and not value % 5:  # what nearly every entry sends
        return value
    before = len(problems)
    number = _count(value, name, problems)
    if len(problems) == before and number % 5:
        problems.append(
            Violation(
                "not-multiple-of-5",
                t(
                    "{field} must be a multiple of 5: every card is worth 5, 10, 20 or 50, "
                    "so {number} cannot be right.",
                    field=_label(name),
                    number=number,
                ),
                name,
            )
        )
    return number


def _count_map(value: Any, name: str, problems: list[Violation]) -> dict[str, int]:
    if not isinstance(value, (dict, Mapping)):
        problems.append(Violation("not-object", t("{field} is an object of kind: count.", field=_label(name)), name))
        return {}
    return {str(key): _count(count, f"{name}.{key}", problems) for key, count in value.items()}


def _card_counts(value: Any, name: str, problems: list[Violation]) -> dict[str, int]:
    counts = _count_map(value, name, problems)
    out: dict[str, int] = {}
    for key, count in counts.items():
        try:
            canonical = card_class_name(key)
        except CardError as error:
            problems.append(Violation("unknown-card-class", error.message, f"{name}.{key}"))
            continue
        out[canonical] = out.get(canonical, 0) + count
    return out


def _kind_list(value: Any, problems: list[Violation]) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(kind, str) for kind in value):
        problems.append(Violation("not-list", t('Incomplete is a list of kinds, e.g. ["sevens"].'), "incomplete"))
        return ()
    if len(set(value)) != len(value):
        problems.append(
            Violation(
                "repeated-incomplete",
                t("Each kind is listed once in incomplete: a side has only one meld of each kind."),
                "incomplete",
            )
        )
    return tuple(value)
