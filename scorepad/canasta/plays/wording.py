"""Cards in the words players use at the table: "two kings and a joker", ``K-K-2C``.

>>> codes([Card("K"), Card("K"), Card("2", "C")]), describe([Card("K"), Card("JK"), Card("K")])
('K-K-2C', 'two kings and a joker')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from ..cards import JOKER, NATURAL_RANKS, Card

NAMES = {
    "A": "ace", "K": "king", "Q": "queen", "J": "jack", "10": "ten", "9": "nine", "8": "eight",
    "7": "seven", "6": "six", "5": "five", "4": "four", "2": "two", JOKER: "joker",
}  # fmt: skip
NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
ORDER = {rank: index for index, rank in enumerate((*NATURAL_RANKS, "black three", "red three", "2", JOKER))}


def card_name(card: Card) -> str:
    """A card as a player says it: "king", "red three", "joker"."""
    if card.is_three:
        return "red three" if card.is_red_three else "black three"
    return NAMES[card.rank]


def plural(name: str) -> str:
    """A card name in the plural: "kings", "sixes"."""
    return name + ("es" if name.endswith("x") else "s")


def number(count: int) -> str:
    """A count in words up to twelve, digits above."""
    return NUMBERS[count] if count < len(NUMBERS) else str(count)


def with_article(name: str) -> str:
    """ "a king", "an ace"."""
    return ("an " if name[0] in "aeiou" else "a ") + name


def describe(cards: Iterable[Card]) -> str:
    """Cards in words, grouped: "two kings and a joker".

    >>> describe([Card("K"), Card("JK"), Card("K")])
    'two kings and a joker'
    >>> describe([Card("K"), Card("2", "C")]), describe([])
    ('one king and a two', 'no cards')
    """
    counts = Counter(card_name(card) for card in cards)
    if not counts:
        return "no cards"
    parts = []
    for index, name in enumerate(sorted(counts, key=lambda n: ORDER.get(n, ORDER.get(_rank_of(n), 99)))):
        count = counts[name]
        if count == 1:
            parts.append(f"one {name}" if index == 0 else with_article(name))
        else:
            parts.append(f"{number(count)} {plural(name)}")
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def holding(cards: Sequence[Card], names: str) -> str:
    """What the hand holds toward a pair: "one king and a joker", or "no kings"."""
    return describe(cards) if cards else f"no {names}"


def joined_with_and(words: Sequence[str]) -> str:
    """Words as a list in a sentence: "kings, queens and jacks"."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _rank_of(name: str) -> str:
    return next((rank for rank, word in NAMES.items() if word == name), name)


def codes(cards: Iterable[Card]) -> str:
    """Cards as the table writes a meld: ``K-K-2C``."""
    return "-".join(str(card) for card in cards)
