"""Cards in the words players use at the table, in any language: "two kings and a joker", ``K-K-2C``.

Every kind of card has its own messages, one per form a sentence needs (:class:`CardWords`):
a bare name with its plural ("king" / "kings", through ``tn``), with an indefinite and a
definite article ("a king", "the king"), none of them ("no kings"), and counted ("one king",
"{count} kings"). A translator so says "una reina" and "un rey", "dos reyes" and "duas damas",
without the code gluing English words together. Counts are number words in their own context
(``tp("count", ...)``), lists are joined by the translatable list patterns of :mod:`..text`.

>>> codes([Card("K"), Card("K"), Card("2", "C")]), describe([Card("K"), Card("JK"), Card("K")])
('K-K-2C', 'two kings and a joker')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..cards import JOKER, NATURAL_RANKS, Card
from ..text import Text, and_list, t, tn, tp

NUMBERS = (
    # Translators: number words, as in "two kings" or "at most three"; "no" is zero ("no cards").
    # Where a word would not agree with a feminine noun ("duas"), write %(n)s (digits) instead of %(count)s.
    tp("count", "no"), tp("count", "one"), tp("count", "two"), tp("count", "three"), tp("count", "four"),
    tp("count", "five"), tp("count", "six"), tp("count", "seven"), tp("count", "eight"),
    tp("count", "nine"), tp("count", "ten"), tp("count", "eleven"), tp("count", "twelve"),
)  # fmt: skip


def number(count: int) -> Text | str:
    """A count in words up to twelve, digits above.

    >>> number(3), number(13)
    ('three', '13')
    """
    return NUMBERS[count] if count < len(NUMBERS) else str(count)


@dataclass(frozen=True)
class CardWords:
    """One kind of card in every form a sentence needs."""

    name: Text  # "king": "the top {card}"
    plural: Text  # "kings": "two natural {cards}"
    a: Text  # "a king", "an ace"
    the: Text  # "the king"
    none: Text  # "no kings"
    counted: Callable[[int], Text]  # one king, two kings: the count in words inside the message

    @classmethod
    def of(cls, names: Callable[[int], Text], counted: Callable[[int, Text | str], Text], **forms: Text) -> CardWords:
        """The forms from the name's plural message ``names(n)`` and the counted message."""
        return cls(names(1), names(2), counted=lambda n: counted(n, number(n)), **forms)


CARDS = {
    "A": CardWords.of(
        # Translators: card names. %(count)s is a number word ("two"), %(n)s the same number in digits.
        # The "a" / "the" forms carry the article that agrees with the card: "una reina", "el comodín".
        lambda n: tn("ace", "aces", n), lambda n, c: tn("one ace", "%(count)s aces", n, count=c),
        a=t("an ace"), the=t("the ace"), none=t("no aces"),
    ),
    "K": CardWords.of(
        lambda n: tn("king", "kings", n), lambda n, c: tn("one king", "%(count)s kings", n, count=c),
        a=t("a king"), the=t("the king"), none=t("no kings"),
    ),
    "Q": CardWords.of(
        lambda n: tn("queen", "queens", n), lambda n, c: tn("one queen", "%(count)s queens", n, count=c),
        a=t("a queen"), the=t("the queen"), none=t("no queens"),
    ),
    "J": CardWords.of(
        lambda n: tn("jack", "jacks", n), lambda n, c: tn("one jack", "%(count)s jacks", n, count=c),
        a=t("a jack"), the=t("the jack"), none=t("no jacks"),
    ),
    "10": CardWords.of(
        lambda n: tn("ten", "tens", n), lambda n, c: tn("one ten", "%(count)s tens", n, count=c),
        a=t("a ten"), the=t("the ten"), none=t("no tens"),
    ),
    "9": CardWords.of(
        lambda n: tn("nine", "nines", n), lambda n, c: tn("one nine", "%(count)s nines", n, count=c),
        a=t("a nine"), the=t("the nine"), none=t("no nines"),
    ),
    "8": CardWords.of(
        lambda n: tn("eight", "eights", n), lambda n, c: tn("one eight", "%(count)s eights", n, count=c),
        a=t("an eight"), the=t("the eight"), none=t("no eights"),
    ),
    "7": CardWords.of(
        lambda n: tn("seven", "sevens", n), lambda n, c: tn("one seven", "%(count)s sevens", n, count=c),
        a=t("a seven"), the=t("the seven"), none=t("no sevens"),
    ),
    "6": CardWords.of(
        lambda n: tn("six", "sixes", n), lambda n, c: tn("one six", "%(count)s sixes", n, count=c),
        a=t("a six"), the=t("the six"), none=t("no sixes"),
    ),
    "5": CardWords.of(
        lambda n: tn("five", "fives", n), lambda n, c: tn("one five", "%(count)s fives", n, count=c),
        a=t("a five"), the=t("the five"), none=t("no fives"),
    ),
    "4": CardWords.of(
        lambda n: tn("four", "fours", n), lambda n, c: tn("one four", "%(count)s fours", n, count=c),
        a=t("a four"), the=t("the four"), none=t("no fours"),
    ),
    "2": CardWords.of(
        lambda n: tn("two", "twos", n), lambda n, c: tn("one two", "%(count)s twos", n, count=c),
        a=t("a two"), the=t("the two"), none=t("no twos"),
    ),
    JOKER: CardWords.of(
        lambda n: tn("joker", "jokers", n), lambda n, c: tn("one joker", "%(count)s jokers", n, count=c),
        a=t("a joker"), the=t("the joker"), none=t("no jokers"),
    ),
    "red3": CardWords.of(
        lambda n: tn("red three", "red threes", n),
        lambda n, c: tn("one red three", "%(count)s red threes", n, count=c),
        a=t("a red three"), the=t("the red three"), none=t("no red threes"),
    ),
    "black3": CardWords.of(
        lambda n: tn("black three", "black threes", n),
        lambda n, c: tn("one black three", "%(count)s black threes", n, count=c),
        a=t("a black three"), the=t("the black three"), none=t("no black threes"),
    ),
}  # fmt: skip
NAMES = {rank: words.name for rank, words in CARDS.items() if rank not in ("red3", "black3")}
# Translators: suits, as in "a sequence of five in hearts".
SUIT_NAMES = {"S": t("spades"), "H": t("hearts"), "D": t("diamonds"), "C": t("clubs")}
ORDER = {kind: index for index, kind in enumerate((*NATURAL_RANKS, "black3", "red3", "2", JOKER))}
NO_CARDS = t("no cards")


def kind_of(card: Card) -> str:
    """The key of a card's words in :data:`CARDS`: its rank, or ``red3`` / ``black3``."""
    if card.is_three:
        return "red3" if card.is_red_three else "black3"
    return card.rank


def words_for(card: Card) -> CardWords:
    """Every form of this card's name."""
    return CARDS[kind_of(card)]


def card_name(card: Card) -> Text:
    """A card as a player says it: "king", "red three", "joker"."""
    return CARDS[kind_of(card)].name


def describe(cards: Iterable[Card], lead: str = "one") -> Text:
    """Cards in words, grouped: "two kings and a joker".

    A lone card first in the list is counted ("one king"), or with ``lead`` said with its
    article: ``"a"`` ("a king and a two"), ``"the"`` ("the joker").

    >>> describe([Card("K"), Card("JK"), Card("K")])
    'two kings and a joker'
    >>> describe([Card("K"), Card("2", "C")]), describe([]), describe([Card("JK")], lead="the")
    ('one king and a two', 'no cards', 'the joker')
    """
    counts = Counter(kind_of(card) for card in cards)
    if not counts:
        return NO_CARDS
    parts = []
    for index, kind in enumerate(sorted(counts, key=ORDER.__getitem__)):
        count, words = counts[kind], CARDS[kind]
        if count > 1 or (index == 0 and lead == "one"):
            parts.append(words.counted(count))
        else:
            parts.append(words.the if index == 0 and lead == "the" else words.a)
    return and_list(parts)


def holding(cards: Sequence[Card], rank: str) -> Text:
    """What the hand holds toward a pair: "one king and a joker", or "no kings"."""
    return describe(cards) if cards else CARDS[rank].none


def codes(cards: Iterable[Card]) -> str:
    """Cards as the table writes a meld: ``K-K-2C`` (notation, the same in every language)."""
    return "-".join(str(card) for card in cards)
