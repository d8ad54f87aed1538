"""Cards: notation, point values, and what the decks hold.

A card is written as a rank and an optional suit (docs/api.md "Cards"): ``K``, ``KS``, ``10H``,
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
from dataclasses import dataclass, field
from types import MappingProxyType

from .text import Text, t, tn

NATURAL_RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")
RANKS = (*NATURAL_RANKS, "3", "2")
SUITS = ("S", "H", "D", "C")
RED_SUITS = frozenset({"H", "D"})
JOKER = "JK"

# Point values from docs/rules.md "Cards". A red three has no card value: it only ever scores
# as a bonus, and never counts toward a minimum.
RANK_VALUES: Mapping[str, int] = {
    JOKER: 50,
    "2": 20,
    "A": 20,
    **{rank: 10 for rank in ("K", "Q", "J", "10", "9", "8")},
    **{rank: 5 for rank in ("7", "6", "5", "4")},
}
BLACK_THREE_VALUE = 5

# The groups players count by value without telling ranks apart (docs/api.md "Cards"): a
# group holds the cards of all its ranks together, and is never one of those ranks.
CARD_GROUPS: Mapping[str, tuple[str, ...]] = {
    "K-8": ("K", "Q", "J", "10", "9", "8"),
    "7-4": ("7", "6", "5", "4"),
}
# The card classes a card-count entry may use (docs/api.md "Cards": melded_cards, hand_cards).
CARD_CLASSES: Mapping[str, int] = {
    "joker": RANK_VALUES[JOKER],
    "2": RANK_VALUES["2"],
    **{rank: RANK_VALUES[rank] for rank in NATURAL_RANKS},
    **{group: RANK_VALUES[ranks[0]] for group, ranks in CARD_GROUPS.items()},
    "black3": BLACK_THREE_VALUE,
}
# Card classes as players say them, in the plural: "2 decks hold 8 kings" (the plural of each
# card name's message, as the checker's wording has it).
CLASS_NAMES: Mapping[str, Text] = {
    "joker": tn("joker", "jokers", 2), "2": tn("two", "twos", 2), "A": tn("ace", "aces", 2),
    "K": tn("king", "kings", 2), "Q": tn("queen", "queens", 2), "J": tn("jack", "jacks", 2),
    "10": tn("ten", "tens", 2), "9": tn("nine", "nines", 2), "8": tn("eight", "eights", 2),
    "7": tn("seven", "sevens", 2), "6": tn("six", "sixes", 2), "5": tn("five", "fives", 2),
    "4": tn("four", "fours", 2), "black3": tn("black three", "black threes", 2),
    # Translators: a group of cards counted together, kings down to eights (10 points each).
    "K-8": tn("card from king to eight", "cards from king to eight", 2),
    # Translators: a group of cards counted together, sevens down to fours (5 points each).
    "7-4": tn("card from seven to four", "cards from seven to four", 2),
}  # fmt: skip
RED_THREES_NOT_COUNTED = t("Red threes are not counted as cards: enter them under red threes.")
_CLASS_ALIASES = {
    "jk": "joker", "*": "joker", "t": "10", "black_three": "black3", "3": "black3",
    "k\u20138": "K-8", "7\u20134": "7-4",  # the groups written with an en dash, as the form shows them
}  # fmt: skip


class CardError(ValueError):
    """A card string that is not a card; ``str(error)`` is its message, still translatable."""

    def __init__(self, message: Text) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, order=True)
class Card:
    """One card; ``suit`` is None when the notation left it out.

    What the checker asks of a card many times a request (is it wild, natural, a three, what
    is it worth) is worked out when the card is made, beside the fields; it takes no part in
    equality, ordering or hashing.
    """

    rank: str
    suit: str | None = None
    is_wild: bool = field(init=False, repr=False, compare=False)  # jokers and twos, in every variant
    is_three: bool = field(init=False, repr=False, compare=False)
    is_natural: bool = field(init=False, repr=False, compare=False)  # aces down to fours: melded on their own
    value: int = field(init=False, repr=False, compare=False)  # a red three is worth nothing as a card

    def __post_init__(self) -> None:
        rank = self.rank
        is_three = rank == "3"
        if is_three:
            value = 0 if self.suit in RED_SUITS else BLACK_THREE_VALUE
        else:
            value = RANK_VALUES.get(rank, 0)
        object.__setattr__(self, "is_wild", rank in (JOKER, "2"))
        object.__setattr__(self, "is_three", is_three)
        object.__setattr__(self, "is_natural", rank in NATURAL_RANKS)
        object.__setattr__(self, "value", value)

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    @property
    def is_red_three(self) -> bool:
        return self.rank == "3" and self.suit in RED_SUITS

    @property
    def is_black_three(self) -> bool:
        return self.rank == "3" and self.suit not in RED_SUITS

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


def _spellings() -> dict[str, Card]:
    """Every way of writing a card, normalised (stripped, upper case), with the card it names."""
    cards = {spelling: Card(JOKER) for spelling in ("JK", "*", "JOKER")}
    for rank in RANKS:
        for written in ("T", "10") if rank == "10" else (rank,):
            if rank != "3":
                cards[written] = Card(rank)
            for suit in SUITS:
                cards[written + suit] = Card(rank, suit)
    return cards


# The deck's cards by their spellings: a constant like RANK_VALUES, so reading a card is one look-up.
CARD_SPELLINGS: Mapping[str, Card] = MappingProxyType(_spellings())


def parse_card(text: str) -> Card:
    """Read one card in API notation; case and surrounding spaces do not matter.

    :raises CardError: for anything that is not a card, or a three without its suit.
    """
    if not isinstance(text, str):
        raise CardError(t("A card is written as text like 'K' or '3H', not %(value)s.", value=repr(text)))
    card = CARD_SPELLINGS.get(text.strip().upper())
    if card is not None:
        return card
    if text.strip().upper() == "3":
        raise CardError(t("'%(text)s' needs its suit: 3H or 3D is a red three, 3S or 3C a black three.", text=text))
    raise CardError(t("'%(text)s' is not a card: use A K Q J 10 9 8 7 6 5 4 3 2 or JK.", text=text))


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
            raise CardError(RED_THREES_NOT_COUNTED)
        raise CardError(
            t(
                "'%(name)s' is not a card class: use joker, 2, A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, K-8, 7-4 or black3.",
                name=name,
            )
        )
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
    >>> Decks(2).canasta_cards
    (88, 12, 4, 8)
    """

    count: int
    jokers_per_deck: int = 2
    # Natural cards, wild cards, jokers and twos: what canastas are made of (checked per hand).
    canasta_cards: tuple[int, int, int, int] = field(init=False, repr=False, compare=False)
    points: int = field(init=False, repr=False, compare=False)  # every card but the red threes

    def __post_init__(self) -> None:
        object.__setattr__(self, "canasta_cards", (self.natural_cards, self.wild_cards, self.jokers, self.twos))
        points = sum(self.holds(name) * value for name, value in CARD_CLASSES.items() if name not in CARD_GROUPS)
        object.__setattr__(self, "points", points)

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

    def holds(self, card_class: str) -> int:
        """How many cards of one class the decks hold; a group holds all its ranks' cards.

        >>> Decks(2).holds("K-8"), Decks(2).holds("7-4"), Decks(3).holds("K-8")
        (48, 32, 72)
        """
        if card_class == "joker":
            return self.jokers
        if card_class in ("black3", "red3"):
            return self.black_threes
        return self.per_rank * len(CARD_GROUPS.get(card_class, (card_class,)))

    def copies(self, card: Card) -> int:
        """How many copies of this exact card the decks hold (suit counted when given)."""
        if card.is_joker:
            return self.jokers
        return self.count if card.suit else self.holds(card.card_class)


def overdrawn(cards: Iterable[Card], decks: Decks) -> list[Text]:
    """Describe every card that appears more often than the decks hold it.

    >>> overdrawn(parse_cards(["JK"] * 5), Decks(2))
    ['5 jokers, but 2 decks hold only 4']
    """
    cards = list(cards)
    problems = []
    by_rank = Counter("red3" if c.is_red_three else "black3" if c.rank == "3" else c.rank for c in cards)
    by_card = Counter(c for c in cards if c.suit and not c.is_joker)
    for rank, seen in by_rank.items():
        limit = decks.jokers if rank == JOKER else decks.holds(rank)
        if seen > limit:
            problems.append(_too_many(rank, seen, decks.count, limit))
    for card, seen in by_card.items():
        if seen > decks.count:
            text = t(
                "%(n)s × %(card)s, but %(decks)s decks hold only %(limit)s",
                n=seen,
                card=str(card),
                decks=decks.count,
                limit=decks.count,
            )
            problems.append(text)
    return problems


def _too_many(rank: str, seen: int, decks: int, limit: int) -> Text:
    """More cards of one rank than the decks hold: "5 jokers, but 2 decks hold only 4"."""
    numbers = {"decks": decks, "limit": limit}
    if rank == JOKER:
        return tn(
            "%(n)s joker, but %(decks)s decks hold only %(limit)s",
            "%(n)s jokers, but %(decks)s decks hold only %(limit)s",
            seen,
            **numbers,
        )
    if rank == "red3":
        return tn(
            "%(n)s red three, but %(decks)s decks hold only %(limit)s",
            "%(n)s red threes, but %(decks)s decks hold only %(limit)s",
            seen,
            **numbers,
        )
    if rank == "black3":
        return tn(
            "%(n)s black three, but %(decks)s decks hold only %(limit)s",
            "%(n)s black threes, but %(decks)s decks hold only %(limit)s",
            seen,
            **numbers,
        )
    # Translators: %(rank)s is a rank as the cards are written (K, 10); "Ks" is "kings".
    return tn(
        "%(n)s %(rank)s, but %(decks)s decks hold only %(limit)s",
        "%(n)s %(rank)ss, but %(decks)s decks hold only %(limit)s",
        seen,
        rank=rank,
        **numbers,
    )
