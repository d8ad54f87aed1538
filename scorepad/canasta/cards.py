"""Cards: notation, point values, and what the decks hold.

A card is written as a rank and an optional suit (API.md "Cards"): ``K``, ``KS``, ``10H``,
``TD``, ``JK`` or ``*`` for a joker. Threes must carry their suit, because a red three and a
black three are different cards in every Canasta.

>>> card = parse_card("3h")
>>> card.is_red_three, card.value
(True, 0)
>>> parse_card("jk").value, parse_card("2C").is_wild
(50, True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

NATURAL_RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")
RANKS = (*NATURAL_RANKS, "3", "2")
SUITS = ("S", "H", "D", "C")
RED_SUITS = frozenset({"H", "D"})
JOKER = "JK"

# Point values from RULES.md section 1. A red three has no card value: it only ever scores
# as a bonus, and never counts toward a minimum.
RANK_VALUES: Mapping[str, int] = {
    JOKER: 50,
    "2": 20,
    "A": 20,
    **{rank: 10 for rank in ("K", "Q", "J", "10", "9", "8")},
    **{rank: 5 for rank in ("7", "6", "5", "4")},
}
BLACK_THREE_VALUE = 5

# The card classes a card-count entry may use (API.md, melded_cards / hand_cards).
CARD_CLASSES: Mapping[str, int] = {
    "joker": RANK_VALUES[JOKER],
    "2": RANK_VALUES["2"],
    **{rank: RANK_VALUES[rank] for rank in NATURAL_RANKS},
    "black3": BLACK_THREE_VALUE,
}
# Card classes as players say them, in the plural: "2 decks hold 8 kings".
CLASS_NAMES: Mapping[str, str] = {
    "joker": "jokers", "2": "twos", "A": "aces", "K": "kings", "Q": "queens", "J": "jacks",
    "10": "tens", "9": "nines", "8": "eights", "7": "sevens", "6": "sixes", "5": "fives",
    "4": "fours", "black3": "black threes",
}  # fmt: skip
_CLASS_ALIASES = {"jk": "joker", "*": "joker", "t": "10", "black_three": "black3", "3": "black3"}


class CardError(ValueError):
    """A card string that is not a card."""


@dataclass(frozen=True, order=True)
class Card:
    """One card; ``suit`` is None when the notation left it out."""

    rank: str
    suit: str | None = None

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    @property
    def is_wild(self) -> bool:
        """Jokers and twos are wild in every variant scorepad knows."""
        return self.rank in (JOKER, "2")

    @property
    def is_three(self) -> bool:
        return self.rank == "3"

    @property
    def is_red_three(self) -> bool:
        return self.rank == "3" and self.suit in RED_SUITS

    @property
    def is_black_three(self) -> bool:
        return self.rank == "3" and self.suit not in RED_SUITS

    @property
    def is_natural(self) -> bool:
        """Aces down to fours: the ranks that can be melded on their own."""
        return self.rank in NATURAL_RANKS

    @property
    def value(self) -> int:
        """The card's point value; a red three is worth nothing as a card."""
        if self.rank == "3":
            return BLACK_THREE_VALUE if self.is_black_three else 0
        return RANK_VALUES[self.rank]

    @property
    def card_class(self) -> str:
        """The class this card counts under in a card-count entry."""
        if self.is_joker:
            return "joker"
        if self.rank == "3":
            return "black3" if self.is_black_three else "red3"
        return self.rank

    def __str__(self) -> str:
        return self.rank + (self.suit or "")


def parse_card(text: str) -> Card:
    """Read one card in API notation; case and surrounding spaces do not matter.

    :raises CardError: for anything that is not a card, or a three without its suit.
    """
    if not isinstance(text, str):
        raise CardError(f"A card is written as text like 'K' or '3H', not {text!r}.")
    raw = text.strip().upper()
    if raw in ("JK", "*", "JOKER"):
        return Card(JOKER)
    suit = None
    if len(raw) >= 2 and raw[-1] in SUITS:
        raw, suit = raw[:-1], raw[-1]
    rank = "10" if raw == "T" else raw
    if rank not in RANKS:
        raise CardError(f"'{text}' is not a card: use A K Q J 10 9 8 7 6 5 4 3 2 or JK.")
    if rank == "3" and suit is None:
        raise CardError(f"'{text}' needs its suit: 3H or 3D is a red three, 3S or 3C a black three.")
    return Card(rank, suit)


def parse_cards(texts: Iterable[str]) -> list[Card]:
    """Read a list of cards; :raises CardError: on the first that is not a card."""
    return [parse_card(text) for text in texts]


def cards_value(cards: Iterable[Card]) -> int:
    """The total point value of some cards.

    >>> cards_value(parse_cards(["K", "K", "2C", "JK"]))
    90
    """
    return sum(card.value for card in cards)


def card_class_name(name: str) -> str:
    """The canonical card class for a key of a card-count entry.

    :raises CardError: for a key that is no card class.
    """
    key = str(name).strip().lower()
    key = _CLASS_ALIASES.get(key, key)
    canonical = key.upper() if key not in CARD_CLASSES else key
    if canonical not in CARD_CLASSES:
        if key in ("red3", "red_three", "3h", "3d"):
            raise CardError("Red threes are not counted as cards: enter them under red threes.")
        raise CardError(f"'{name}' is not a card class: use joker, 2, A, K, Q, J, 10, 9, 8, 7, 6, 5, 4 or black3.")
    return canonical


def counts_value(counts: Mapping[str, int]) -> int:
    """Value card counts by class, as players count a pile at the table.

    >>> counts_value({"joker": 1, "A": 3, "K": 7})
    180
    """
    return sum(CARD_CLASSES[card_class_name(name)] * count for name, count in counts.items())


@dataclass(frozen=True)
class Decks:
    """What the packs in play hold: the limits every entry and position is checked against.

    >>> Decks(2).points
    1180
    >>> Decks(3).red_threes, Decks(3, jokers_per_deck=3).jokers
    (6, 9)
    """

    count: int
    jokers_per_deck: int = 2

    @property
    def per_rank(self) -> int:
        return 4 * self.count

    @property
    def jokers(self) -> int:
        return self.jokers_per_deck * self.count

    @property
    def twos(self) -> int:
        return self.per_rank

    @property
    def wild_cards(self) -> int:
        return self.jokers + self.twos

    @property
    def natural_cards(self) -> int:
        return self.per_rank * len(NATURAL_RANKS)

    @property
    def red_threes(self) -> int:
        return 2 * self.count

    @property
    def black_threes(self) -> int:
        return 2 * self.count

    @cached_property
    def canasta_cards(self) -> tuple[int, int, int, int]:
        """Natural cards, wild cards, jokers and twos: what canastas are made of.

        >>> Decks(2).canasta_cards
        (88, 12, 4, 8)
        """
        return (self.natural_cards, self.wild_cards, self.jokers, self.twos)

    def holds(self, card_class: str) -> int:
        """How many cards of one class the decks hold."""
        if card_class == "joker":
            return self.jokers
        if card_class in ("black3", "red3"):
            return self.black_threes
        return self.per_rank

    @cached_property
    def points(self) -> int:
        """The value of every card but the red threes."""
        return sum(self.holds(name) * value for name, value in CARD_CLASSES.items())

    def copies(self, card: Card) -> int:
        """How many copies of this exact card the decks hold (suit counted when given)."""
        if card.is_joker:
            return self.jokers
        return self.count if card.suit else self.holds(card.card_class)


def overdrawn(cards: Iterable[Card], decks: Decks) -> list[str]:
    """Describe every card that appears more often than the decks hold it.

    >>> overdrawn(parse_cards(["JK"] * 5), Decks(2))
    ['5 jokers, but 2 decks hold only 4']
    """
    cards = list(cards)
    problems = []
    by_rank = Counter("red3" if c.is_red_three else "black3" if c.rank == "3" else c.rank for c in cards)
    by_card = Counter(c for c in cards if c.suit and not c.is_joker)
    names = {JOKER: "jokers", "red3": "red threes", "black3": "black threes"}
    for rank, seen in by_rank.items():
        limit = decks.jokers if rank == JOKER else decks.holds(rank)
        if seen > limit:
            problems.append(f"{seen} {names.get(rank, rank + 's')}, but {decks.count} decks hold only {limit}")
    for card, seen in by_card.items():
        if seen > decks.count:
            problems.append(f"{seen} × {card}, but {decks.count} decks hold only {decks.count}")
    return problems
