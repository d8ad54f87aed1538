"""The facts each side reports when a hand ends: :class:`Entry`, and :class:`Hand`, an entry per side.

Points are card values, counts are cards (API.md "ENTRY").

>>> entry = Entry(melded_points=420, canastas={"natural": 1, "mixed": 1, "sequence": 0}, went_out=True)
>>> dict(entry.canastas), entry.canasta_count, entry.has_gone_out
({'natural': 1, 'mixed': 1}, 2, True)
>>> Entry(melded_cards={"K": 7}).melded_points
70
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from types import MappingProxyType
from typing import Any

from ..cards import counts_value

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
        """Read an API ENTRY object (see :func:`~scorepad.canasta.entries.reading.read_entry`).

        :raises InvalidError: listing every field that is of the wrong type or out of range.
        """
        from .reading import read_entry  # the reader builds entries, so it comes after them

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
        from .reading import read_hand  # the reader builds hands, so it comes after them

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
