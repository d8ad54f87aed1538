"""The facts each side reports when a hand ends: :class:`Entry`, and :class:`Hand`, an entry per side.

Points are card values, counts are cards (docs/api.md "ENTRY").

>>> entry = Entry(melded_points=420, canastas={"natural": 1, "mixed": 1, "sequence": 0}, went_out=True)
>>> dict(entry.canastas), entry.canasta_count, entry.has_gone_out
({'natural': 1, 'mixed': 1}, 2, True)
>>> Entry(melded_cards={"K": 7}).melded_points
70

Reading them from JSON values names every problem at once:

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

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from types import MappingProxyType
from typing import Any

from ..cards import CardError, card_class_name, counts_value
from ..text import Text, t
from ..violations import InvalidError, Violation

POINT_FIELDS = ("melded_points", "hand_points", "penalty_points")
COUNT_FIELDS = ("red_threes", "black_threes", "black_threes_in_hand", "restored_piles")
FLAG_FIELDS = ("went_out", "concealed")
CARD_FIELDS = {"melded_cards": "melded_points", "hand_cards": "hand_points"}
ENTRY_FIELDS = (
    *POINT_FIELDS[:2], "canastas", "red_threes", "black_threes", "black_threes_in_hand",
    "went_out", "concealed", "special_hand", "incomplete", "held_sets", "penalty_points",
    "restored_piles", *CARD_FIELDS,
)  # fmt: skip
HAND_FIELDS = ("entries", "partnership")

_NO_COUNTS: Mapping[str, int] = MappingProxyType({})  # read-only, so every empty entry shares it


def _frozen(mapping: Mapping[str, int]) -> Mapping[str, int]:
    """Counts as a read-only mapping without zeros: an entry is a value nothing may change."""
    if not mapping:
        return _NO_COUNTS
    return MappingProxyType({key: count for key, count in mapping.items() if count})


def _no_counts() -> Mapping[str, int]:
    """The counts of an entry that gives none: the shared empty mapping, already read-only."""
    return _NO_COUNTS


@dataclass(frozen=True, slots=True)
class Entry:
    """One side's report for one hand; points are card values, counts are cards.

    Made, counts become read-only mappings without zeros, counted cards give their points, and
    the canastas are counted once (checking and scoring ask for the count many times); the
    count takes no part in equality. Counts not given start as the shared empty mapping, and
    ``__post_init__`` finishes only what was given: most entries are a few numbers.
    """

    melded_points: int = 0
    hand_points: int = 0
    canastas: Mapping[str, int] = field(default_factory=_no_counts)
    red_threes: int = 0
    black_threes: int = 0
    black_threes_in_hand: int = 0
    went_out: bool = False
    concealed: bool = False
    special_hand: str | None = None
    incomplete: tuple[str, ...] = ()
    held_sets: Mapping[str, int] = field(default_factory=_no_counts)
    penalty_points: int = 0
    restored_piles: int = 0
    melded_cards: Mapping[str, int] | None = None  # when the side counted cards, not points
    hand_cards: Mapping[str, int] | None = None
    canasta_count: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        finish = object.__setattr__  # the documented way to finish a frozen dataclass
        if self.canastas is not _NO_COUNTS:
            canastas = _frozen(self.canastas)
            finish(self, "canastas", canastas)
            if canastas:
                finish(self, "canasta_count", sum(canastas.values()))
        if self.held_sets is not _NO_COUNTS:
            finish(self, "held_sets", _frozen(self.held_sets))
        if self.melded_cards is not None or self.hand_cards is not None:  # the side counted cards
            for name, points in CARD_FIELDS.items():
                counts = getattr(self, name)
                if counts is not None:
                    finish(self, name, _frozen(counts))
                    finish(self, points, counts_value(counts))

    @property
    def has_melded(self) -> bool:
        """Whether the side laid down any meld this hand (red threes are not melds)."""
        return self.melded_points > 0 or self.canasta_count > 0

    @property
    def has_gone_out(self) -> bool:
        """A special hand is itself a way of going out."""
        return self.went_out or self.special_hand is not None

    @classmethod
    def from_dict(cls, data: Any) -> Entry:
        """Read an API ENTRY object (see :func:`read_entry`).

        :raises InvalidError: listing every field that is of the wrong type or out of range.
        """
        return read_entry(data)

    def to_dict(self) -> dict[str, Any]:
        """The API ENTRY for this report, leaving out what is zero or empty."""
        out: dict[str, Any] = {}
        if self.melded_cards is not None:
            out["melded_cards"] = dict(self.melded_cards)
        elif self.melded_points:
            out["melded_points"] = self.melded_points
        if self.hand_cards is not None:
            out["hand_cards"] = dict(self.hand_cards)
        elif self.hand_points:
            out["hand_points"] = self.hand_points
        if self.canastas:
            out["canastas"] = dict(self.canastas)
        if self.held_sets:
            out["held_sets"] = dict(self.held_sets)
        values = _plain_values(self)
        if any(values):  # most entries give none of them
            for name, value in zip(_PLAIN_FIELDS, values, strict=True):
                if value:
                    out[name] = value
        if self.incomplete:
            out["incomplete"] = list(self.incomplete)
        return out


# The fields :meth:`Entry.to_dict` writes as they are, after the piles and the counts.
_PLAIN_FIELDS = (*COUNT_FIELDS, *FLAG_FIELDS, "penalty_points", "special_hand")
_plain_values = attrgetter(*_PLAIN_FIELDS)  # an entry's values of them, read in one call


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand of a match: an entry per side, and for three players who partnered."""

    entries: tuple[Entry, ...]
    partnership: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        # Any iterable is taken; a hand holds tuples, so it compares and hashes as a value.
        if type(self.entries) is not tuple:
            object.__setattr__(self, "entries", tuple(self.entries))
        if self.partnership is not None and type(self.partnership) is not tuple:
            object.__setattr__(self, "partnership", tuple(self.partnership))

    @classmethod
    def from_dict(cls, data: Any) -> Hand:
        """Read an API hand object: ``{"entries": [...], "partnership": [i, j]}``.

        :raises InvalidError: with every problem, fields relative to the hand.
        """
        return read_hand(data)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"entries": [entry.to_dict() for entry in self.entries]}
        if self.partnership:
            out["partnership"] = list(self.partnership)
        return out

    def entry_dicts(self) -> tuple[dict[str, Any], ...]:
        """Each entry as an API ENTRY, as a match's documents write them back."""
        return tuple(entry.to_dict() for entry in self.entries)

    def units(self) -> list[tuple[int, ...]]:
        """The groups that score together: the partnership, and every other side alone."""
        if self.partnership is None:
            return [(index,) for index in range(len(self.entries))]
        first, second = sorted(self.partnership)
        rest = [(index,) for index in range(len(self.entries)) if index not in (first, second)]
        return [(first, second), *rest]

    def pooled(self, unit: tuple[int, ...]) -> Entry:
        """Partners' entries combined into one (melds, canastas, hand cards, going out)."""
        if len(unit) == 1:
            return self.entries[unit[0]]
        members = [self.entries[index] for index in unit]
        canastas: Counter[str] = Counter()
        held: Counter[str] = Counter()
        for entry in members:
            canastas.update(entry.canastas)
            held.update(entry.held_sets)
        return Entry(
            melded_points=sum(e.melded_points for e in members),
            hand_points=sum(e.hand_points for e in members),
            canastas=canastas,
            red_threes=sum(e.red_threes for e in members),
            black_threes=sum(e.black_threes for e in members),
            black_threes_in_hand=sum(e.black_threes_in_hand for e in members),
            went_out=any(e.went_out for e in members),
            concealed=any(e.concealed for e in members),
            incomplete=tuple(sorted({kind for e in members for kind in e.incomplete})),
            held_sets=held,
            penalty_points=sum(e.penalty_points for e in members),
            restored_piles=sum(e.restored_piles for e in members),
        )


# --- reading entries and hands sent as JSON values (docs/api.md "ENTRY") -------------------------
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
            t("'%(name)s' is not an entry field. Known fields: %(known)s.", name=name, known=KNOWN_ENTRY_FIELDS),
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
    problems.append(Violation("not-a-flag", t("%(field)s is true or false.", field=_label(name)), name))
    return False


def _read_count_map(data: Mapping[Any, Any], name: str, problems: list[Violation]) -> dict[str, int]:
    return _count_map(data[name], name, problems)


def _read_card_counts(data: Mapping[Any, Any], name: str, problems: list[Violation]) -> dict[str, int]:
    points = CARD_FIELDS[name]
    if points in data:
        problems.append(
            Violation(
                "points-and-cards",
                t("Give either %(points)s or %(cards)s for this pile, not both.", points=points, cards=name),
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
            "unknown-field", t("'%(name)s' is not a hand field; use entries and partnership.", name=name), str(name)
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
        return t("%(field)s.%(key)s", field=FIELD_LABELS[field], key=key.replace("_", " "))
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
        problems.append(Violation("not-a-number", t("%(field)s is a whole number.", field=_label(name)), name))
        return 0
    if number < 0:
        problems.append(Violation("negative", t("%(field)s cannot be negative.", field=_label(name)), name))
        return 0
    if number > MOST:
        problems.append(
            Violation(
                "too-large",
                t("%(field)s of %(number)s is more than any hand holds.", field=_label(name), number=number),
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
                    "%(field)s must be a multiple of 5: every card is worth 5, 10, 20 or 50, "
                    "so %(number)s cannot be right.",
                    field=_label(name),
                    number=number,
                ),
                name,
            )
        )
    return number


def _count_map(value: Any, name: str, problems: list[Violation]) -> dict[str, int]:
    if not isinstance(value, (dict, Mapping)):
        problems.append(Violation("not-object", t("%(field)s is an object of kind: count.", field=_label(name)), name))
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
