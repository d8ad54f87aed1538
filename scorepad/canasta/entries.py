"""Entries: what each side reports when a hand ends, and what makes a report impossible.

An :class:`Entry` holds the facts players count at the table (API.md "ENTRY"); a :class:`Hand`
holds one entry per side. :func:`check_hand` returns every reason a hand cannot be scored
(RULES.md section 6), and :func:`hand_warnings` what is merely unlikely.

>>> from scorepad.canasta import VARIANTS
>>> hand = Hand.from_dict({"entries": [{"melded_points": 600, "canastas": {"natural": 1},
...                                     "went_out": True}, {"hand_points": 45}]})
>>> check_hand(hand, VARIANTS["classic"])
[]
>>> [v.code for v in check_hand(hand, VARIANTS["classic-2p"])]
['went-out-without-canastas']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from types import MappingProxyType
from typing import Any

from .cards import CARD_GROUPS, CLASS_NAMES, NATURAL_RANKS, RANK_VALUES, CardError, card_class_name, counts_value
from .text import Text, t, tn
from .variants import Variant
from .violations import InvalidError, Violation

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
_HAND_FIELD_SET = frozenset(HAND_FIELDS)
# The least a set kept in hand (three of the rank) is worth, for checking hand points.
HELD_SET_POINTS = {"sevens": 3 * RANK_VALUES["7"], "aces": 3 * RANK_VALUES["A"]}
# The least an unfinished meld of a special kind is worth (three of it; three twos for wild cards).
INCOMPLETE_POINTS = {**HELD_SET_POINTS, "wild": 3 * RANK_VALUES["2"]}
BLACK_THREE_MELDS = (0, 3, 4)
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
BOTH_SIDES = t("both sides")
# What the canastas entered need more of than the decks hold, by sort of card: (need, decks, have).
CANASTA_CARDS_SHORT = {
    "naturals": lambda need, decks, have: t(
        "The canastas entered need at least {need} natural cards, but {decks} decks hold {have}.",
        need=need, decks=decks, have=have,
    ),
    "wilds": lambda need, decks, have: t(
        "The canastas entered need at least {need} wild cards, but {decks} decks hold {have}.",
        need=need, decks=decks, have=have,
    ),
    "jokers": lambda need, decks, have: t(
        "The canastas entered need at least {need} jokers, but {decks} decks hold {have}.",
        need=need, decks=decks, have=have,
    ),
    "twos": lambda need, decks, have: t(
        "The canastas entered need at least {need} twos, but {decks} decks hold {have}.",
        need=need, decks=decks, have=have,
    ),
}  # fmt: skip


_NO_COUNTS: Mapping[str, int] = MappingProxyType({})  # read-only, so every empty entry shares it


def _frozen(mapping: Mapping[str, int]) -> Mapping[str, int]:
    if not mapping:
        return _NO_COUNTS
    return MappingProxyType({key: count for key, count in mapping.items() if count})


# The fields an entry usually holds, by how :func:`_quick_state` reads them.
_QUICK_NUMBERS = {**dict.fromkeys(POINT_FIELDS, 5), **dict.fromkeys(COUNT_FIELDS, 1)}  # each a multiple of
_QUICK_FIELDS = {
    **dict.fromkeys(FLAG_FIELDS, "flag"),
    "canastas": "counts",
    "held_sets": "counts",
    "special_hand": "text",
}
_MOST = 10_000  # more of anything than a hand holds (see _count)


def _quick_state(data: dict[Any, Any]) -> dict[str, Any] | None:
    """An entry's instance dict, settled, when every field is plainly well formed, else None.

    Most entries are a few whole numbers, flags and canasta counts, and need none of the
    careful reading that names every problem; anything else (a float, an unknown field, card
    counts) returns None and :meth:`Entry.from_dict` reads the entry the careful way, which
    gives the same entry for what this accepts. The dict is what :func:`_settle` would leave
    (read-only counts without zeros, the canastas counted), made in the same pass.

    >>> state = _quick_state({"melded_points": 120, "canastas": {"natural": 1}, "went_out": True})
    >>> state["melded_points"], dict(state["canastas"]), state["_canasta_count"], state["hand_points"]
    (120, {'natural': 1}, 1, 0)
    >>> _quick_state({"melded_points": 12}) is None
    True
    """
    state = _SETTLED_DEFAULTS.copy()
    for name, value in data.items():
        step = _QUICK_NUMBERS.get(name)
        if step is not None:  # points (a multiple of 5) or a count of cards
            if type(value) is not int or not 0 <= value <= _MOST or value % step:
                return None
            state[name] = value
            continue
        sort = _QUICK_FIELDS.get(name)
        if sort == "flag":
            if type(value) is not bool:
                return None
        elif sort == "counts":
            value = _plain_counts(value)
            if value is None:
                return None
        elif sort == "text":
            if value is None:
                continue
            if type(value) is not str:
                return None
        else:
            return None
        state[name] = value
    canastas = state["canastas"]
    if canastas:
        state["_canasta_count"] = sum(canastas.values())
    return state


def _plain_counts(value: Any) -> Mapping[str, int] | None:
    """``value`` settled (see :func:`_frozen`) when it is a dict of kind: count that needs no careful reading."""
    if type(value) is not dict:
        return None
    if not value:
        return _NO_COUNTS
    kept = {}
    for key, count in value.items():
        if type(key) is not str or type(count) is not int or not 0 <= count <= _MOST:
            return None
        if count:
            kept[key] = count
    return MappingProxyType(kept)


@dataclass(frozen=True)
class Entry:
    """One side's report for one hand; points are card values, counts are cards."""

    melded_points: int = 0
    hand_points: int = 0
    canastas: Mapping[str, int] = field(default_factory=dict)
    red_threes: int = 0
    black_threes: int = 0
    black_threes_in_hand: int = 0
    went_out: bool = False
    concealed: bool = False
    special_hand: str | None = None
    incomplete: tuple[str, ...] = ()
    held_sets: Mapping[str, int] = field(default_factory=dict)
    penalty_points: int = 0
    restored_piles: int = 0
    melded_cards: Mapping[str, int] | None = None  # when the side counted cards, not points
    hand_cards: Mapping[str, int] | None = None

    def __post_init__(self) -> None:
        _settle(self.__dict__)

    @classmethod
    def _from_values(cls, values: dict[str, Any]) -> Entry:
        """``cls(**values)`` for values already read, at half the cost.

        The generated ``__init__`` sets fifteen fields one by one on a frozen instance; this
        fills them in one step from the defaults and then runs the same ``__post_init__``.
        It runs for every side of every hand read, so the difference shows in a long match.
        """
        entry = object.__new__(cls)
        state = entry.__dict__
        state.update(_ENTRY_DEFAULTS)
        state.update(values)
        _settle(state)
        return entry

    @property
    def canasta_count(self) -> int:
        return self._canasta_count

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
        """Read an API ENTRY object.

        :raises InvalidError: listing every field that is of the wrong type or out of range.
        """
        if type(data) is dict:
            state = _quick_state(data)
            if state is not None:
                entry = object.__new__(cls)
                entry.__dict__.update(state)
                return entry
        if not isinstance(data, Mapping):
            raise InvalidError([Violation("entry-not-object", t("Each entry is an object of fields."))])
        problems: list[Violation] = []
        values: dict[str, Any] = {}
        for read in ENTRY_READERS:
            read(data, values, problems)
        if problems:
            raise InvalidError(problems)
        return cls._from_values(values)

    def to_dict(self) -> dict[str, Any]:
        """The API ENTRY for this report, leaving out what is zero or empty."""
        # Read from the instance dict: every scored hand's document writes its entries back.
        state = self.__dict__
        out: dict[str, Any] = {}
        for name, points in _CARDS_OR_POINTS:
            counts = state[name]
            if counts is not None:
                out[name] = dict(counts)
            elif state[points]:
                out[points] = state[points]
        for name in _COUNTS_FIELDS:
            if state[name]:
                out[name] = dict(state[name])
        for name in _PLAIN_FIELDS:
            if state[name]:
                out[name] = state[name]
        if state["incomplete"]:
            out["incomplete"] = list(state["incomplete"])
        return out


# The order :meth:`Entry.to_dict` writes an entry's fields in.
_CARDS_OR_POINTS = (("melded_cards", "melded_points"), ("hand_cards", "hand_points"))
_COUNTS_FIELDS = ("canastas", "held_sets")
_PLAIN_FIELDS = (*COUNT_FIELDS, *FLAG_FIELDS, "penalty_points", "special_hand")


def _settle(state: dict[str, Any]) -> None:
    """Finish an entry's fields in its instance dict (frozen, so not through setattr).

    Counts become read-only mappings without zeros, counted cards give their points, and
    the number of canastas is counted once: checking and scoring ask for it many times. That
    count is not a field, so equality and the dataclass's fields are as they were.
    """
    canastas = state["canastas"] = _frozen(state["canastas"])
    state["held_sets"] = _frozen(state["held_sets"])
    counted = state["melded_cards"] is not None or state["hand_cards"] is not None
    for name, points in CARD_FIELDS.items() if counted else ():
        counts = state[name]
        if counts is not None:
            state[name] = _frozen(counts)
            state[points] = counts_value(counts)
    state["_canasta_count"] = sum(canastas.values())


_ENTRY_DEFAULTS = {
    spec.name: spec.default if spec.default_factory is MISSING else spec.default_factory() for spec in fields(Entry)
}
# An entry of nothing but defaults as :func:`_settle` leaves it: where the quick reading starts.
_SETTLED_DEFAULTS = dict(_ENTRY_DEFAULTS)
_settle(_SETTLED_DEFAULTS)


@dataclass(frozen=True, init=False)
class Hand:
    """One hand of a match: an entry per side, and for three players who partnered."""

    entries: tuple[Entry, ...]
    partnership: tuple[int, int] | None = None

    def __init__(self, entries: Iterable[Entry], partnership: Iterable[int] | None = None) -> None:
        # Written out for speed, like scoring.Part's: one of these per hand read.
        state = self.__dict__
        state["entries"] = tuple(entries)
        state["partnership"] = None if partnership is None else tuple(partnership)

    @classmethod
    def from_dict(cls, data: Any) -> Hand:
        """Read an API hand object: ``{"entries": [...], "partnership": [i, j]}``.

        :raises InvalidError: with every problem, fields relative to the hand.
        """
        if type(data) is not dict and not isinstance(data, Mapping):
            raise InvalidError([Violation("hand-not-object", t("Each hand is an object with its entries."))])
        problems: list[Violation] = []
        if not (type(data) is dict and data.keys() <= _HAND_FIELD_SET):  # the usual case, at once
            problems += _unknown_hand_fields(data)
        entries = _read_entries(data.get("entries"), problems)
        partnership = data.get("partnership")
        if partnership is not None:
            partnership = _read_partnership(partnership, problems)
        if problems:
            raise InvalidError(problems)
        return cls(tuple(entries), tuple(partnership) if partnership else None)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"entries": [entry.to_dict() for entry in self.entries]}
        if self.partnership:
            out["partnership"] = list(self.partnership)
        return out

    def entry_dicts(self) -> tuple[dict[str, Any], ...]:
        """Each entry as an API ENTRY, written once per hand and then shared: do not change them.

        A match's documents write every hand's entries back, and a hand read once by
        :func:`read_hand` is in every document of every match that holds it.
        """
        dicts = self.__dict__.get("_entry_dicts")
        if dicts is None:
            dicts = self.__dict__["_entry_dicts"] = tuple(entry.to_dict() for entry in self.entries)
        return dicts

    def units(self) -> list[tuple[int, ...]]:
        """The groups that score together: the partnership, and every other side alone."""
        if self.partnership is None:
            return [(index,) for index in range(len(self.entries))]
        first, second = sorted(self.partnership)
        rest = [(index,) for index in range(len(self.entries)) if index not in (first, second)]
        return [(first, second), *rest]

    def pooled(self, unit: Iterable[int]) -> Entry:
        """Partners' entries combined into one (melds, canastas, hand cards, going out)."""
        members = [self.entries[index] for index in unit]
        if len(members) == 1:
            return members[0]
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


# --- reading an entry: one reader per sort of field, each adding what it finds ---------------
def _unknown_entry_fields(data: Mapping[Any, Any], values: dict[str, Any], problems: list[Violation]) -> None:
    for name in data:
        if name not in ENTRY_FIELDS:
            problems.append(
                Violation(
                    "unknown-field",
                    t("'{name}' is not an entry field. Known fields: {known}.", name=name, known=KNOWN_ENTRY_FIELDS),
                    str(name),
                )
            )


def _read_points(data: Mapping[Any, Any], values: dict[str, Any], problems: list[Violation]) -> None:
    for name in POINT_FIELDS:
        if name in data:
            values[name] = _points(data[name], name, problems)


def _read_counts(data: Mapping[Any, Any], values: dict[str, Any], problems: list[Violation]) -> None:
    for name in COUNT_FIELDS:
        if name in data:
            values[name] = _count(data[name], name, problems)


def _read_flags(data: Mapping[Any, Any], values: dict[str, Any], problems: list[Violation]) -> None:
    for name in FLAG_FIELDS:
        if name in data:
            if isinstance(data[name], bool):
                values[name] = data[name]
            else:
                problems.append(Violation("not-a-flag", t("{field} is true or false.", field=_label(name)), name))


def _read_count_maps(data: Mapping[Any, Any], values: dict[str, Any], problems: list[Violation]) -> None:
    for name in ("canastas", "held_sets"):
        if name in data:
            values[name] = _count_map(data[name], name, problems)


def _read_card_counts(data: Mapping[Any, Any], values: dict[str, Any], problems: list[Violation]) -> None:
    for name, points in CARD_FIELDS.items():
        if name in data:
            if points in data:
                problems.append(
                    Violation(
                        "points-and-cards",
                        t("Give either {points} or {cards} for this pile, not both.", points=points, cards=name),
                        name,
                    )
                )
            values[name] = _card_counts(data[name], name, problems)


def _read_special_hand(data: Mapping[Any, Any], values: dict[str, Any], problems: list[Violation]) -> None:
    if "special_hand" in data and data["special_hand"] is not None:
        if isinstance(data["special_hand"], str):
            values["special_hand"] = data["special_hand"]
        else:
            problems.append(
                Violation("not-text", t('The special hand is named as text, e.g. "pairs".'), "special_hand")
            )


def _read_incomplete(data: Mapping[Any, Any], values: dict[str, Any], problems: list[Violation]) -> None:
    if "incomplete" in data:
        values["incomplete"] = _kind_list(data["incomplete"], problems)


# The careful reading of an entry, in the order its problems are reported.
ENTRY_READERS = (
    _unknown_entry_fields,
    _read_points,
    _read_counts,
    _read_flags,
    _read_count_maps,
    _read_card_counts,
    _read_special_hand,
    _read_incomplete,
)


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
            entries.append(Entry.from_dict(item))
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
    number = _whole(value)
    if number is None:
        problems.append(Violation("not-a-number", t("{field} is a whole number.", field=_label(name)), name))
        return 0
    if number < 0:
        problems.append(Violation("negative", t("{field} cannot be negative.", field=_label(name)), name))
        return 0
    if number > 10_000:
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
    if not isinstance(value, Mapping):
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


# --- impossible hands ----------------------------------------------------------------------
READ_HANDS_KEPT = 4096  # distinct hands kept by read_hand: a few hundred matches' worth
READ_HAND_LONGEST = 2000  # characters; a real hand is a few hundred, so a longer one is read but not kept
_read_hands: dict[str, Hand] = {}


def read_hand(data: Any) -> Hand:
    """:meth:`Hand.from_dict` for a hand given as JSON values, read once and then shared.

    A client sends its match whole again after every hand, and hands repeat their shapes
    (a match of small hands, the same canasta and a went-out), so a hand read before comes
    back as the same :class:`Hand`, with what was worked out about it (its entries' dicts,
    its verdict under a variant: :func:`~scorepad.canasta.match.judge`). The key is the
    hand's ``repr``, which tells JSON's values apart (``1``, ``1.0``, ``true``, ``"1"``);
    a hand that cannot be read raises as before and is not kept, nor is one longer than any
    real hand. The first kept go first once ``READ_HANDS_KEPT`` are.

    >>> data = {"entries": [{"melded_points": 120}, {"hand_points": 30}]}
    >>> read_hand(data) is read_hand(dict(data))
    True
    """
    if type(data) is not dict:
        return Hand.from_dict(data)
    key = repr(data)
    if len(key) > READ_HAND_LONGEST:  # kept hands stay small, whatever a request sends
        return Hand.from_dict(data)
    hand = _read_hands.get(key)
    if hand is None:
        hand = _read_hands[key] = Hand.from_dict(data)
        if len(_read_hands) > READ_HANDS_KEPT:
            try:  # another thread may have dropped the same first one
                del _read_hands[next(iter(_read_hands))]
            except (KeyError, RuntimeError, StopIteration):
                pass
    return hand


def forget_read_hands() -> None:
    """Drop every hand :func:`read_hand` kept (a benchmark timing first reads, a test)."""
    _read_hands.clear()


def check_hand(hand: Hand, variant: Variant) -> list[Violation]:
    """Return every reason this hand cannot be scored under ``variant``; empty means it can."""
    if len(hand.entries) != variant.sides:
        return [
            Violation(
                "wrong-number-of-entries",
                t(
                    "{variant} has {sides} sides, so a hand has {sides} entries, not {count}.",
                    variant=variant.name,
                    sides=variant.sides,
                    count=len(hand.entries),
                ),
                "entries",
            )
        ]
    if hand.partnership is None and _breaks_nothing(hand.entries, variant):
        return []  # the usual hand: one pass shows that no check finds anything
    return _every_problem(hand, variant)


def _every_problem(hand: Hand, variant: Variant) -> list[Violation]:
    """The careful checks of a hand with an entry per side, in turn, each problem placed at its entry."""
    if hand.partnership is not None:
        problems = _check_partnership(hand, variant)
        if problems:
            return problems
    problems = []
    for index, entry in enumerate(hand.entries):
        found = _check_entry(entry, variant, index)
        if found:
            problems += [v.under(f"entries[{index}]") for v in found]
    if hand.partnership is None:  # every side plays alone: nothing to pool
        for index, entry in enumerate(hand.entries):
            found = _check_side(entry, variant, False)
            if found:
                problems += [v.under(f"entries[{index}]") for v in found]
    else:
        for unit in hand.units():
            found = _check_side(hand.pooled(unit), variant, len(unit) > 1)
            if found:
                problems += [v.under(f"entries[{unit[0]}]") for v in found]
    problems += _check_table(hand, variant)
    return problems


def hand_warnings(hand: Hand, variant: Variant) -> list[Violation]:
    """What is possible but unlikely, worth a second look before saving."""
    warnings = []
    for index, entry in enumerate(hand.entries):
        if not entry.has_melded and not entry.hand_points and not entry.has_gone_out:
            warnings.append(
                Violation(
                    "nothing-entered",
                    t("No melds and no cards left in hand for {side}: is that right?", side=_side_name(variant, index)),
                    f"entries[{index}]",
                )
            )
    return warnings


def _side_name(variant: Variant, index: int) -> Text | str:
    """What the score sheet calls side ``index``."""
    if index < len(variant.side_names):
        return variant.side_names[index]
    return t("Side {n}", n=index + 1)


def _check_partnership(hand: Hand, variant: Variant) -> list[Violation]:
    if hand.partnership is None:
        return []
    if not variant.temporary_partnerships:
        return [
            Violation(
                "partnership-not-in-variant",
                t(
                    "{variant} has fixed sides; only three-player canasta names a partnership per hand.",
                    variant=variant.name,
                ),
                "partnership",
            )
        ]
    first, second = hand.partnership
    if first == second or not all(0 <= i < variant.sides for i in hand.partnership):
        return [
            Violation(
                "bad-partnership",
                t("A partnership is two different players, numbered 0 to {last}.", last=variant.sides - 1),
                "partnership",
            )
        ]
    return []


def _check_entry(entry: Entry, variant: Variant, index: int) -> list[Violation]:
    """Rules about one player's or side's own entry: each check of ENTRY_CHECKS, in order."""
    extras = (  # fields that only the checks missing from PLAIN_ENTRY_CHECKS look at
        entry.special_hand is not None
        or entry.incomplete
        or entry.held_sets
        or entry.concealed
        or entry.hand_cards
        or entry.black_threes_in_hand
        or entry.hand_points < 0  # then even no black threes or sets are more than the hand holds
    )
    problems: list[Violation] = []
    for check in ENTRY_CHECKS if extras else PLAIN_ENTRY_CHECKS:
        problems += check(entry, variant, index)
    return problems


def _known_canasta_kinds(entry: Entry, variant: Variant, index: int) -> list[Violation]:
    """Every canasta is of a kind the variant has."""
    kinds = variant.canasta_kinds
    return [
        Violation(
            "unknown-canasta-kind",
            # Translators: {kind} and {kinds} are the API's names of canasta kinds ("natural, mixed").
            t(
                "{variant} has no '{kind}' canastas; its kinds are {kinds}.",
                variant=variant.name,
                kind=kind,
                kinds=", ".join(kinds),
            ),
            f"canastas.{kind}",
        )
        for kind in entry.canastas
        if kind not in kinds
    ]


def _known_special_hand(entry: Entry, variant: Variant, index: int) -> list[Violation]:
    """A special hand is one the variant has."""
    specials = variant.special_hand_values
    if entry.special_hand is None or entry.special_hand in specials:
        return []
    name = entry.special_hand
    if specials:
        # Translators: {known} are the API's names of special hands ("straight, pairs").
        text = t(
            "{variant} has no special hand '{name}'. Its special hands are {known}.",
            variant=variant.name,
            name=name,
            known=", ".join(specials),
        )
    else:
        text = t("{variant} has no special hand '{name}'. It has no special hands.", variant=variant.name, name=name)
    return [
        Violation(
            "unknown-special-hand",
            text,
            "special_hand",
        )
    ]


def _known_incomplete_kinds(entry: Entry, variant: Variant, index: int) -> list[Violation]:
    """An unfinished meld costs a penalty only where the variant names one for its kind."""
    penalised = variant.incomplete_penalties
    problems = []
    for position, kind in enumerate(entry.incomplete):
        if kind not in penalised:
            if penalised:
                text = t(
                    "{variant} has no penalty for an unfinished '{kind}' meld (only {known}).",
                    variant=variant.name,
                    kind=kind,
                    known=", ".join(penalised),
                )
            else:
                text = t(
                    "{variant} has no penalty for an unfinished '{kind}' meld (none).", variant=variant.name, kind=kind
                )
            problems.append(
                Violation(
                    "unknown-incomplete-kind",
                    text,
                    f"incomplete[{position}]",
                )
            )
    return problems


def held_set_cards(variant: Variant, kind: str) -> Text | str:
    """The cards a held set is made of, in words ("sevens"): held sets are named by a canasta kind of one rank."""
    spec = variant.canasta_kinds.get(kind)
    rank = spec.rank if spec is not None else None
    return CLASS_NAMES[rank] if rank in CLASS_NAMES else kind


def _known_held_sets(entry: Entry, variant: Variant, index: int) -> list[Violation]:
    """Sets kept in hand are of a kind the variant penalises, at most one per player of the side."""
    held = variant.held_set_values
    players = variant.players_per_side[index]
    problems = []
    for kind, count in entry.held_sets.items():
        if kind not in held:
            problems.append(
                Violation(
                    "unknown-held-set",
                    t("{variant} has no penalty for '{kind}' kept in hand.", variant=variant.name, kind=kind),
                    f"held_sets.{kind}",
                )
            )
        elif count > players:
            problems.append(
                Violation(
                    "too-many-held-sets",
                    t(
                        "Only {players} players on this side can each hold a set of {kind}; {count} entered.",
                        players=players,
                        kind=held_set_cards(variant, kind),
                        count=count,
                    ),
                    f"held_sets.{kind}",
                )
            )
    return problems


def _concealed_only_going_out(entry: Entry, variant: Variant, index: int) -> list[Violation]:
    """Only the side that went out can have gone out concealed."""
    if not (entry.concealed and not entry.went_out):
        return []
    return [
        Violation(
            "concealed-without-going-out",
            t("Concealed is only for the side that went out: tick went out too, or untick concealed."),
            "concealed",
        )
    ]


def _concealed_has_bonus(entry: Entry, variant: Variant, index: int) -> list[Violation]:
    """Going out concealed is entered only where the variant pays for it."""
    if not (entry.concealed and variant.concealed is None):
        return []
    return [
        Violation(
            "no-concealed-bonus",
            t("{variant} has no bonus for going out concealed.", variant=variant.name),
            "concealed",
        )
    ]


def _red_threes_in_the_decks(entry: Entry, variant: Variant, index: int) -> list[Violation]:
    """A side cannot hold more red threes than the decks have."""
    if not entry.red_threes > variant.deck.red_threes:
        return []
    return [
        Violation(
            "too-many-red-threes",
            t(
                "Only {limit} red threes exist in a {decks}-deck game; {count} entered.",
                limit=variant.deck.red_threes,
                decks=variant.decks,
                count=entry.red_threes,
            ),
            "red_threes",
        )
    ]


def _out_with_no_cards(entry: Entry, variant: Variant, index: int) -> list[Violation]:
    """A player who went out alone holds no cards (partners may still hold theirs)."""
    if not (entry.went_out and variant.players_per_side[index] == 1 and entry.hand_points):
        return []
    return [
        Violation(
            "went-out-with-cards",
            t("The player who went out has no cards left, so their cards in hand are 0."),
            "hand_points",
        )
    ]


def _black_threes_fit_in_hand(entry: Entry, variant: Variant, index: int) -> list[Violation]:
    """Black threes left in hand, 5 points each, are part of the points left in hand."""
    if not entry.black_threes_in_hand * 5 > entry.hand_points:
        return []
    return [
        Violation(
            "black-threes-exceed-hand",
            t(
                "{count} black threes in hand are worth {points} points, "
                "more than the {hand} entered for cards in hand.",
                count=entry.black_threes_in_hand,
                points=entry.black_threes_in_hand * 5,
                hand=entry.hand_points,
            ),
            "black_threes_in_hand",
        )
    ]


def _held_sets_fit_in_hand(entry: Entry, variant: Variant, index: int) -> list[Violation]:
    """Sets kept in hand are part of the points left in hand."""
    held_points = (
        sum(HELD_SET_POINTS.get(kind, 0) * count for kind, count in entry.held_sets.items()) if entry.held_sets else 0
    )
    if not held_points > entry.hand_points:
        return []
    return [
        Violation(
            "held-sets-exceed-hand",
            t(
                "The sets kept in hand are worth at least {points} points, "
                "more than the {hand} entered for cards in hand.",
                points=held_points,
                hand=entry.hand_points,
            ),
            "held_sets",
        )
    ]


def _black_threes_counted(entry: Entry, variant: Variant, index: int) -> list[Violation]:
    """A side that counted its hand's cards counts its black threes among them."""
    if not (entry.hand_cards and entry.black_threes_in_hand > entry.hand_cards.get("black3", 0)):
        return []
    return [
        Violation(
            "black-threes-not-counted",
            t("Black threes left in hand must also be counted among the cards in hand (black3)."),
            "black_threes_in_hand",
        )
    ]


# The rules of one entry, in the order their problems are reported.
ENTRY_CHECKS = (
    _known_canasta_kinds,
    _known_special_hand,
    _known_incomplete_kinds,
    _known_held_sets,
    _concealed_only_going_out,
    _concealed_has_bonus,
    _red_threes_in_the_decks,
    _out_with_no_cards,
    _black_threes_fit_in_hand,
    _held_sets_fit_in_hand,
    _black_threes_counted,
)
# What an entry with none of the rarer fields _check_entry looks for can break: the other checks
# find nothing there, and most entries are like that, so they skip them (every hand is checked).
PLAIN_ENTRY_CHECKS = (_known_canasta_kinds, _red_threes_in_the_decks, _out_with_no_cards)


def _check_side(entry: Entry, variant: Variant, partnership: bool) -> list[Violation]:
    """Rules about a scoring side as a whole (partners pooled in three-player canasta)."""
    if entry.special_hand is not None:
        checks = SPECIAL_HAND_CHECKS
    elif entry.went_out:
        checks = GOING_OUT_SIDE_CHECKS
    else:
        checks = SIDE_CHECKS if entry.canastas or entry.black_threes else BARE_SIDE_CHECKS
    problems: list[Violation] = []
    for check in checks:
        problems += check(entry, variant, partnership)
    return problems


def _special_hand_alone(entry: Entry, variant: Variant, partnership: bool) -> list[Violation]:
    """A special hand is the side's only meld."""
    if not (entry.has_melded or entry.black_threes):
        return []
    return [
        Violation(
            "special-hand-with-melds",
            t("A special hand is the side's only meld: leave melded points and canastas empty."),
            "special_hand",
        )
    ]


def _special_hand_finished(entry: Entry, variant: Variant, partnership: bool) -> list[Violation]:
    """A side that went out with a special hand has no other melds, so none unfinished."""
    if not entry.incomplete:
        return []
    return [
        Violation(
            "special-hand-with-melds",
            t("A side that went out with a special hand has no unfinished melds."),
            "incomplete",
        )
    ]


def _out_with_the_canastas_needed(entry: Entry, variant: Variant, partnership: bool) -> list[Violation]:
    """Going out needs the variant's number of canastas, of the kind it names, past a tough end."""
    count = entry.canasta_count
    needed = variant.canastas_to_go_out
    problems = []
    if count < needed:
        problems.append(
            Violation(
                "went-out-without-canastas",
                _canastas_needed_text(partnership, needed, variant.name, count),
                "went_out",
            )
        )
    kind = variant.going_out_needs_kind
    if kind and not entry.canastas.get(kind):
        if kind == "sequence":
            text = t(
                "Going out in {variant} needs one sequence canasta (samba / escalera) among the canastas.",
                variant=variant.name,
            )
        else:
            label = variant.canasta_kinds[kind].label
            text = t("Going out in {variant} needs one {label} among the canastas.", variant=variant.name, label=label)
        problems.append(
            Violation(
                "went-out-without-kind",
                text,
                "went_out",
            )
        )
    if variant.tough_end and count < 2 and (variant.sequences or not entry.canastas.get("natural")):
        if variant.sequences:
            text = t("Tough end: going out needs two canastas.")
        else:
            text = t("Tough end: going out needs two canastas or one natural canasta.")
        problems.append(Violation("tough-end", text, "went_out"))
    return problems


def _canastas_needed_text(partnership: bool, needed: int, variant: Text | str, count: int) -> Text:
    if partnership:
        return tn(
            "Going out needs {n} completed canasta in {variant}; this partnership has {count}.",
            "Going out needs {n} completed canastas in {variant}; this partnership has {count}.",
            needed,
            variant=variant,
            count=count,
        )
    return tn(
        "Going out needs {n} completed canasta in {variant}; this side has {count}.",
        "Going out needs {n} completed canastas in {variant}; this side has {count}.",
        needed,
        variant=variant,
        count=count,
    )


def _melds_hold_their_points(entry: Entry, variant: Variant, partnership: bool) -> list[Violation]:
    """Melded points hold at least the cards of the canastas, unfinished melds and black threes."""
    kinds = variant.canasta_kinds
    needed = 0
    for kind, count in entry.canastas.items():
        spec = kinds.get(kind)
        if spec is not None:
            needed += spec.min_points * count
    if entry.incomplete:
        needed += sum(INCOMPLETE_POINTS.get(kind, 0) for kind in entry.incomplete)
    needed += 0 if variant.black_threes_scored else 5 * entry.black_threes
    if not entry.melded_points < needed:
        return []
    return [
        Violation(
            "melded-points-too-low",
            t(
                "This partnership's canastas and melds hold at least {needed} points of cards, but melded points "
                "are {melded} (a natural canasta holds at least 35, a mixed one at least 50).",
                needed=needed,
                melded=entry.melded_points,
            )
            if partnership
            else t(
                "This side's canastas and melds hold at least {needed} points of cards, but melded points "
                "are {melded} (a natural canasta holds at least 35, a mixed one at least 50).",
                needed=needed,
                melded=entry.melded_points,
            ),
            "melded_points",
        )
    ]


def _one_meld_per_rank(entry: Entry, variant: Variant, partnership: bool) -> list[Violation]:
    """A side has one meld per rank: no more canastas of ranks than ranks, one of each rank."""
    kinds = variant.canasta_kinds
    problems = []
    of_ranks = 0  # canastas of one rank each
    for kind, count in entry.canastas.items():
        spec = kinds.get(kind)
        if spec is not None and spec.naturals and kind != "sequence":
            of_ranks += count
    if of_ranks > len(NATURAL_RANKS):
        problems.append(
            Violation(
                "too-many-canastas",
                t("A side has one meld per rank, so at most {most} canastas of ranks.", most=len(NATURAL_RANKS)),
                "canastas",
            )
        )
    for kind in entry.canastas:
        rank = kinds[kind].rank if kind in kinds else None
        if rank and (entry.canastas[kind] > 1 or kind in entry.incomplete):
            problems.append(
                Violation(
                    "one-meld-per-rank",
                    _one_meld_text(CLASS_NAMES.get(rank, kind), entry.canastas[kind], kind in entry.incomplete),
                    f"canastas.{kind}",
                )
            )
    return problems


def _one_meld_text(cards: Text | str, count: int, unfinished: bool) -> Text:
    # Translators: {cards} are a rank in the plural ("sevens"); {n} canastas of them.
    if unfinished:
        return tn(
            "A side has only one meld of {cards}, so it cannot have {n} canasta of {cards} and an unfinished one.",
            "A side has only one meld of {cards}, so it cannot have {n} canastas of {cards} and an unfinished one.",
            count,
            cards=cards,
        )
    return tn(
        "A side has only one meld of {cards}, so it cannot have {n} canasta of {cards}.",
        "A side has only one meld of {cards}, so it cannot have {n} canastas of {cards}.",
        count,
        cards=cards,
    )


def _black_threes_melded_going_out(entry: Entry, variant: Variant, partnership: bool) -> list[Violation]:
    """Where black threes are not scored, only the player going out melds them, three or four."""
    if variant.black_threes_scored or not entry.black_threes:
        return []
    problems = []
    if entry.black_threes not in BLACK_THREE_MELDS:
        problems.append(
            Violation(
                "black-three-meld-size", t("Black threes are melded as a group of three or four."), "black_threes"
            )
        )
    if not entry.went_out:
        problems.append(
            Violation(
                "black-threes-without-going-out",
                t("Black threes can only be melded by the player going out."),
                "black_threes",
            )
        )
    return problems


# A side with a special hand: nothing else is melded (and its canasta rules do not apply).
SPECIAL_HAND_CHECKS = (_special_hand_alone, _special_hand_finished)
# Any other side, in the order problems are reported; the side that went out checks its
# canastas for going out first.
SIDE_CHECKS = (_melds_hold_their_points, _one_meld_per_rank, _black_threes_melded_going_out)
GOING_OUT_SIDE_CHECKS = (_out_with_the_canastas_needed, *SIDE_CHECKS)
# A side with no canastas and no black threes: the others find nothing there (and each side is
# checked in every hand).
BARE_SIDE_CHECKS = (_melds_hold_their_points,)


def _check_table(hand: Hand, variant: Variant) -> list[Violation]:
    """Rules across all sides: one goes out, and the decks hold everything entered.

    A limit broken by the sides together is reported on the entry whose value goes past it
    (the last one contributing), as API.md's own example does.
    """
    table = _Table(hand.entries)
    problems: list[Violation] = []
    for check in TABLE_CHECKS if table.out[1:] or table.counts_cards else PLAIN_TABLE_CHECKS:
        problems += check(table, variant)
    return problems


class _Table:
    """What the sides entered, added up once for the checks across the table."""

    __slots__ = ("entries", "out", "red_threes", "black_threes", "points", "counts_cards")

    def __init__(self, entries: tuple[Entry, ...]) -> None:
        self.entries = entries
        self.out = []  # the sides that went out
        red = black = points = 0
        counts_cards = False
        for index, entry in enumerate(entries):
            if entry.went_out or entry.special_hand is not None:
                self.out.append(index)
            red += entry.red_threes
            black += entry.black_threes + entry.black_threes_in_hand
            points += entry.melded_points + entry.hand_points
            counts_cards = counts_cards or entry.melded_cards is not None or entry.hand_cards is not None
        self.red_threes, self.black_threes, self.points, self.counts_cards = red, black, points, counts_cards

    @property
    def across(self) -> Text:
        """The sides, as the messages name them all: "both sides", "all 3 sides"."""
        count = len(self.entries)
        # Translators: the sides together, in "... entered across {sides}".
        return BOTH_SIDES if count == 2 else t("all {count} sides", count=count)


def _one_side_out(table: _Table, variant: Variant) -> list[Violation]:
    """Only one player goes out in a hand."""
    out = table.out
    if not len(out) > 1:
        return []
    second = table.entries[out[1]]
    first, second_name = (_side_name(variant, index) for index in out[:2])
    return [
        Violation(
            "two-sides-went-out",
            t(
                "Only one player goes out in a hand, but two sides say they went out: {first} and {second}.",
                first=first,
                second=second_name,
            ),
            f"entries[{out[1]}].{'went_out' if second.went_out else 'special_hand'}",
        )
    ]


def _red_threes_in_the_decks_across(table: _Table, variant: Variant) -> list[Violation]:
    """The sides together hold no more red threes than the decks have (one side alone is its own check)."""
    deck, red = variant.deck, table.red_threes
    if not (red > deck.red_threes and all(entry.red_threes <= deck.red_threes for entry in table.entries)):
        return []
    return [
        Violation(
            "too-many-red-threes",
            t(
                "Only {limit} red threes exist in a {decks}-deck game; {count} entered across {sides}.",
                limit=deck.red_threes,
                decks=variant.decks,
                count=red,
                sides=table.across,
            ),
            _last_field(table.entries, ("red_threes",)),
        )
    ]


def _black_threes_in_the_decks(table: _Table, variant: Variant) -> list[Violation]:
    """The sides together hold no more black threes, melded or in hand, than the decks have."""
    deck, black = variant.deck, table.black_threes
    if not black > deck.black_threes:
        return []
    return [
        Violation(
            "too-many-black-threes",
            t(
                "Only {limit} black threes exist in a {decks}-deck game; {count} entered across {sides}.",
                limit=deck.black_threes,
                decks=variant.decks,
                count=black,
                sides=table.across,
            ),
            _last_field(table.entries, ("black_threes", "black_threes_in_hand")),
        )
    ]


def _points_in_the_decks(table: _Table, variant: Variant) -> list[Violation]:
    """The sides' points add up to no more than all the cards are worth."""
    points, limit = table.points, _points_in_play(variant)
    if not points > limit:
        return []
    return [
        Violation(
            "too-many-points",
            t(
                "All the cards of {decks} decks are worth {limit} points, but {points} were entered across {sides}.",
                decks=variant.decks,
                limit=limit,
                points=points,
                sides=table.across,
            ),
            _last_field(table.entries, ("melded_points", "hand_points"), counted_as=CARD_FIELDS),
        )
    ]


def _points_in_play(variant: Variant) -> int:
    """What all the cards the sides can enter are worth (red threes kept in hand too, where they count)."""
    deck = variant.deck
    return deck.points + (5 * deck.red_threes if variant.threes_in_hand_count else 0)


def _counted_cards_in_the_decks(table: _Table, variant: Variant) -> list[Violation]:
    """The decks must hold every card the sides counted, card class by card class.

    A group (``K-8``, ``7-4``) is checked against the cards its ranks hold together, with
    any of those ranks counted one by one; a rank is checked against its own cards.
    """
    if not table.counts_cards:
        return []
    counted: Counter[str] = Counter()
    for entry in table.entries:
        counted.update(entry.melded_cards or {})
        counted.update(entry.hand_cards or {})
    problems = []
    for card_class, seen in counted.items():
        if card_class not in CARD_GROUPS and seen > variant.deck.holds(card_class):
            problems.append(_too_many_counted(table, variant, card_class, seen))
    for group, ranks in CARD_GROUPS.items():
        seen = counted[group] + sum(counted[rank] for rank in ranks)
        if counted[group] and seen > variant.deck.holds(group):
            problems.append(_too_many_counted(table, variant, group, seen))
    return problems


def _too_many_counted(table: _Table, variant: Variant, card_class: str, seen: int) -> Violation:
    """More cards of one class (or group) counted than the decks hold, at the box that passed the limit."""
    return Violation(
        "too-many-cards",
        t(
            "{decks} decks hold {limit} {cards}; {count} were counted across {sides}.",
            decks=variant.decks,
            limit=variant.deck.holds(card_class),
            cards=CLASS_NAMES[card_class],
            count=seen,
            sides=table.across,
        ),
        _last_field(table.entries, ("melded_cards", "hand_cards"), card_class=card_class),
    )


def _last_field(
    entries: tuple[Entry, ...],
    names: tuple[str, ...],
    counted_as: Mapping[str, str] | None = None,
    card_class: str | None = None,
) -> str:
    """The path of the last non-empty value among ``names``: where a shared limit was passed."""
    for index in range(len(entries) - 1, -1, -1):
        entry = entries[index]
        for name in reversed(names):
            value = getattr(entry, name)
            if card_class is not None:
                value = (value or {}).get(card_class)
            if value:
                if counted_as:  # points that came from card counts point at the counts
                    cards = next((c for c, p in counted_as.items() if p == name), None)
                    if cards and getattr(entry, cards) is not None:
                        name = cards
                return f"entries[{index}].{name}" + (f".{card_class}" if card_class else "")
    return "entries"


def _canasta_cards_in_the_decks(table: _Table, variant: Variant) -> list[Violation]:
    """The decks must hold enough cards for every canasta entered, on all sides together."""
    entries = table.entries
    deck = variant.deck
    naturals, wilds, jokers, twos, per_rank = _canasta_cards_needed(entries, variant)
    have_naturals, have_wilds, have_jokers, have_twos = deck.canasta_cards
    problems = []
    if naturals > have_naturals or wilds > have_wilds or jokers > have_jokers or twos > have_twos:
        need = {"naturals": naturals, "wilds": wilds, "jokers": jokers, "twos": twos}
        have = {"naturals": have_naturals, "wilds": have_wilds, "jokers": have_jokers, "twos": have_twos}
        problems = [
            Violation(
                "too-many-canastas",
                CANASTA_CARDS_SHORT[sort](need[sort], variant.decks, have[sort]),
                _last_field(entries, ("canastas",)),
            )
            for sort in have
            if need[sort] > have[sort]
        ]
    for rank, cards in per_rank.items():
        if cards > deck.per_rank:
            problems.append(
                Violation(
                    "too-many-canastas",
                    t(
                        "The canastas entered need {count} cards of rank {rank}, but {decks} decks hold {limit}.",
                        count=cards,
                        rank=rank,
                        decks=variant.decks,
                        limit=deck.per_rank,
                    ),
                    _last_field(entries, ("canastas",)),
                )
            )
    return problems


def _canasta_cards_needed(entries: tuple[Entry, ...], variant: Variant) -> tuple[int, int, int, int, dict[str, int]]:
    """The fewest natural cards, wild cards, jokers and twos the canastas entered hold, and naturals by rank."""
    kinds = variant.canasta_kinds
    naturals = wilds = jokers = twos = 0
    per_rank: dict[str, int] = {}
    for entry in entries:
        for kind, count in entry.canastas.items():
            spec = kinds.get(kind)
            if spec is not None:
                naturals += spec.naturals * count
                wilds += spec.wilds * count
                jokers += spec.jokers * count
                twos += spec.twos * count
                if spec.rank:
                    per_rank[spec.rank] = per_rank.get(spec.rank, 0) + spec.naturals * count
    return naturals, wilds, jokers, twos, per_rank


# The rules across the table, in the order their problems are reported.
TABLE_CHECKS = (
    _one_side_out,
    _red_threes_in_the_decks_across,
    _black_threes_in_the_decks,
    _points_in_the_decks,
    _counted_cards_in_the_decks,
    _canasta_cards_in_the_decks,
)
# A table where at most one side went out and no side counted cards: the other two checks find
# nothing there, and most hands are like that.
PLAIN_TABLE_CHECKS = (
    _red_threes_in_the_decks_across,
    _black_threes_in_the_decks,
    _points_in_the_decks,
    _canasta_cards_in_the_decks,
)


# --- the quick check: most hands break nothing, and one pass shows it ------------------------
def _breaks_nothing(entries: tuple[Entry, ...], variant: Variant) -> bool:
    """Whether every check of :func:`check_hand` surely finds nothing in these sides playing alone.

    Most hands are plain (points, red threes, canastas of the variant's kinds, one side going
    out), and one pass over them tests what the careful checks test, from the same numbers.
    True means that none of those checks finds anything; False says nothing either way, and
    the careful checks run and report what they find. tests/test_lean_core.py holds the two
    to agreeing.
    """
    out = red = points = canastas = 0
    for index, entry in enumerate(entries):
        if not (_is_plain(entry) and _plain_side_breaks_nothing(entry, variant, index)):
            return False
        out += entry.went_out
        red += entry.red_threes
        points += entry.melded_points + entry.hand_points
        canastas += entry.canasta_count
    if out > 1 or red > variant.deck.red_threes or points > _points_in_play(variant):
        return False
    # Every canasta is of a kind the variant has, and each count is at least one (the sides said so).
    return canastas <= variant.canastas_always_held or _canastas_fit(entries, variant)


def _is_plain(entry: Entry) -> bool:
    """An entry of points, red threes, canastas and going out only, which most entries are."""
    return not (
        entry.special_hand is not None
        or entry.incomplete
        or entry.held_sets
        or entry.concealed
        or entry.melded_cards is not None
        or entry.hand_cards is not None
        or entry.black_threes
        or entry.black_threes_in_hand
        or entry.hand_points < 0
    )


def _plain_side_breaks_nothing(entry: Entry, variant: Variant, index: int) -> bool:
    """A plain entry's own rules and its side's, as PLAIN_ENTRY_CHECKS and the side checks test them.

    Canastas are of the variant's kinds, each at least one and at most one of a rank (so no
    more canastas of ranks than ranks); melded points hold them; the red threes are in the
    decks; a player going out alone holds no cards, and going out had the canastas it needs.
    """
    kinds = variant.canasta_kinds
    needed = 0  # the least the canastas' cards are worth
    for kind, count in entry.canastas.items():
        spec = kinds.get(kind)
        if spec is None or count < 1 or (count > 1 and spec.rank):
            return False
        needed += spec.min_points * count
    if entry.melded_points < needed or entry.canasta_count > len(NATURAL_RANKS):
        return False
    if entry.red_threes > variant.deck.red_threes:
        return False
    out_alone_with_cards = variant.players_per_side[index] == 1 and entry.hand_points
    return not entry.went_out or not (out_alone_with_cards or _out_with_the_canastas_needed(entry, variant, False))


def _canastas_fit(entries: tuple[Entry, ...], variant: Variant) -> bool:
    """The decks hold the cards of every canasta entered (what _canasta_cards_in_the_decks tests)."""
    deck = variant.deck
    naturals, wilds, jokers, twos, per_rank = _canasta_cards_needed(entries, variant)
    have_naturals, have_wilds, have_jokers, have_twos = deck.canasta_cards
    fit = naturals <= have_naturals and wilds <= have_wilds and jokers <= have_jokers and twos <= have_twos
    return fit and (not per_rank or max(per_rank.values()) <= deck.per_rank)
