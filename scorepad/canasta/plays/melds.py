"""What the cards on the table become this turn: each group of cards classified and joined to the side's melds.

>>> from scorepad.canasta.variants import VARIANTS
>>> touched, untouched = side_melds([[Card("K")] * 3], [[Card("K")]], VARIANTS["classic"])
>>> str(touched[0]), untouched
('K on your K-K-K', [])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ..cards import Card
from ..text import Text, t
from ..variants import PlayRules, Variant
from .wording import codes

SEQUENCE_RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")  # low to high


@dataclass(frozen=True)
class Laid:
    """One side meld after this turn: what was on the table and what goes on it now."""

    kind: str  # "rank", "wild", "threes", "run" (a sequence, or cards of several ranks)
    rank: str | None
    before: tuple[Card, ...] = ()
    added: tuple[Card, ...] = ()

    @property
    def cards(self) -> tuple[Card, ...]:
        """The meld's cards after this turn."""
        return self.before + self.added

    @property
    def is_new(self) -> bool:
        """The meld is started this turn."""
        return not self.before

    @property
    def naturals(self) -> list[Card]:
        """The meld's natural cards."""
        return [card for card in self.cards if card.is_natural]

    @property
    def wilds(self) -> list[Card]:
        """The meld's wild cards."""
        return [card for card in self.cards if card.is_wild]

    def is_canasta(self, size: int) -> bool:
        """The meld holds ``size`` cards or more (:attr:`PlayRules.canasta`) and may be a canasta."""
        return self.kind in ("rank", "wild", "run") and len(self.cards) >= size

    def canasta_kind(self, size: int) -> str | None:
        """natural, mixed, wild or sequence, once the meld is a canasta of ``size`` cards."""
        if not self.is_canasta(size):
            return None
        if self.kind == "run":
            return "sequence"
        if self.kind == "wild":
            return "wild"
        return "mixed" if self.wilds else "natural"

    @property
    def words(self) -> Text | str:
        """The meld as the reasons name it: ``K-K`` for a new one, "K on your K-K-K" for one added to."""
        if self.before and self.added:
            return t("{cards} on your {meld}", cards=codes(self.added), meld=codes(self.before))
        return codes(self.cards)

    def __str__(self) -> str:
        return self.words


def meld_key(cards: Sequence[Card]) -> tuple[str, str | None]:
    """What a group of cards is trying to be: a meld of one rank, of wild cards, of threes, a run."""
    if any(card.is_three for card in cards):
        return ("threes", None)
    ranks = {card.rank for card in cards if card.is_natural}
    if not ranks:
        return ("wild", None)
    if len(ranks) == 1:
        return ("rank", ranks.pop())
    return ("run", None)


def run_order(cards: Sequence[Card]) -> list[Card]:
    """A sequence's cards from low to high."""
    return sorted(cards, key=lambda card: SEQUENCE_RANKS.index(card.rank) if card.rank in SEQUENCE_RANKS else -1)


def is_run(cards: Sequence[Card], longest: int) -> bool:
    """Natural cards of one suit in unbroken rank order, 4 up to ace, at most ``longest``."""
    if not cards or any(not card.is_natural or card.suit is None for card in cards):
        return False
    if len({card.suit for card in cards}) != 1 or len(cards) > longest:
        return False
    places = sorted(SEQUENCE_RANKS.index(card.rank) for card in cards)
    return places == list(range(places[0], places[0] + len(places)))


def side_melds(
    table: Sequence[Sequence[Card]], melds: Sequence[Sequence[Card]], rules: Variant
) -> tuple[list[Laid], list[Laid]]:
    """The side's melds after this turn: (melds touched this turn, melds left as they were).

    A proposed meld of a rank the side has is added to it, and proposed melds of one rank are one
    meld (one meld per rank per side); so are wild cards and black threes. Wild cards alone that
    cannot be a meld of wild cards go on the first meld of the side they fit. A run, or a lone card
    of a rank the side has no meld of, is added to a table sequence of its suit when together they
    make one; otherwise it is a new sequence (or meld).
    """
    untouched = [laid_from_table(meld) for meld in table]
    touched: list[Laid] = []
    for group in melds:
        base = _meld_joined(group, touched, untouched, rules)
        if base is None:
            kind, rank = meld_key(group)
            touched.append(Laid(kind, rank, added=tuple(group)))
        elif base in untouched:
            untouched.remove(base)
            touched.append(replace(base, added=tuple(group)))
        else:
            touched[touched.index(base)] = replace(base, added=base.added + tuple(group))
    return touched, untouched


def _meld_joined(group: Sequence[Card], touched: list[Laid], untouched: list[Laid], rules: Variant) -> Laid | None:
    """The side meld these cards go on, or None when they make a new meld."""
    kind, rank = meld_key(group)
    longest = rules.play_rules.sequence_cards[1]
    if kind == "wild" and not _wild_meld_meant(group, touched + untouched, rules):
        target = _wild_target(group, touched + untouched, rules)
        if target is not None:
            return target
    if kind not in ("rank", "wild", "threes"):
        return _sequence_extended(untouched, group, longest)
    base = next((m for m in touched + untouched if (m.kind, m.rank) == (kind, rank)), None)
    if base is None and kind == "rank":  # a lone card may extend a table sequence instead
        base = _sequence_extended(untouched, group, longest)
    return base


def _sequence_extended(melds: Sequence[Laid], group: Sequence[Card], longest: int) -> Laid | None:
    """The first table sequence these cards extend into a longer sequence, if any."""
    return next((m for m in melds if m.kind == "run" and is_run(m.before + tuple(group), longest)), None)


def _wild_meld_meant(group: Sequence[Card], melds: Sequence[Laid], rules: Variant) -> bool:
    """Three or more wild cards alone are meant as a meld of wild cards; fewer join one if the side has it."""
    if len(group) >= rules.play_rules.wild_meld_cards[0]:
        return True
    return rules.has_wild_melds and any(m.kind == "wild" for m in melds)


def _wild_target(group: Sequence[Card], melds: Sequence[Laid], rules: Variant) -> Laid | None:
    """The first meld of one rank these wild cards may join; the first of any rank if none fits."""
    ranked = [m for m in melds if m.kind == "rank"]
    for meld in ranked:
        wilds, naturals = len(meld.wilds) + len(group), len(meld.naturals)
        if wilds <= rules.max_wilds and (wilds <= naturals or not rules.wilds_not_more_than_naturals):
            return meld
    return ranked[0] if ranked else None


def laid_from_table(meld: Sequence[Card]) -> Laid:
    """A meld already on the table, untouched this turn."""
    kind, rank = meld_key(meld)
    return Laid(kind, rank, before=tuple(meld))


@dataclass(frozen=True)
class Turn:
    """What the checker knows about the turn while judging melds."""

    rules: Variant
    play: PlayRules
    going_out: bool = False
    opening: bool = False  # these melds are the side's initial meld
    wild_meld_open: bool = False  # the side has an unfinished meld of wild cards after this turn


def take(pool: Sequence[Card], wanted: Sequence[Card]) -> tuple[list[Card], list[Card]]:
    """Match wanted cards against a pool: (the wanted cards it lacks, the pool's leftovers).

    A card without a suit matches any suit of its rank, and a suited card one without a suit.

    >>> take([Card("K"), Card("K", "S")], [Card("K", "S"), Card("K", "H")])
    ([], [])
    """
    rest = list(pool)
    suited = [card for card in wanted if card.suit is not None]
    plain = [card for card in wanted if card.suit is None]
    unmatched = _take_each(rest, suited, _same_card)
    missing = _take_each(rest, unmatched, _unsuited_of_rank)
    missing += _take_each(rest, plain, _any_of_rank)
    return missing, rest


def _take_each(rest: list[Card], cards: Sequence[Card], find: Callable[[list[Card], Card], Card | None]) -> list[Card]:
    """Take each card's match out of ``rest``; return the cards that found none."""
    lacking = []
    for card in cards:
        match = find(rest, card)
        if match is None:
            lacking.append(card)
        else:
            rest.remove(match)
    return lacking


def _same_card(rest: list[Card], card: Card) -> Card | None:
    return card if card in rest else None


def _unsuited_of_rank(rest: list[Card], card: Card) -> Card | None:
    return next((c for c in rest if c.rank == card.rank and c.suit is None), None)


def _any_of_rank(rest: list[Card], card: Card) -> Card | None:
    """A card without a suit first, so suited cards stay for the melds that name them."""
    return _unsuited_of_rank(rest, card) or next((c for c in rest if c.rank == card.rank), None)
