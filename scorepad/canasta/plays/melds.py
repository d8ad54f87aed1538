"""What the cards on the table become this turn: each group of cards classified and joined to the side's melds.

>>> from scorepad.canasta.presets import VARIANTS
>>> touched, untouched = side_melds([[Card("K")] * 3], [[Card("K")]], VARIANTS["classic"])
>>> str(touched[0]), untouched
('K on your K-K-K', [])
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

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
            return t("%(cards)s on your %(meld)s", cards=codes(self.added), meld=codes(self.before))
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


Target = tuple[str, int]  # ("table", j): onto the side's table meld j; ("melds", i): onto the new meld of group i
NEW: Target = ("new", -1)  # a meld of its own


def side_melds(
    table: Sequence[Sequence[Card]],
    melds: Sequence[Sequence[Card]],
    rules: Variant,
    onto: Mapping[int, Target] | None = None,
) -> tuple[list[Laid], list[Laid]]:
    """The side's melds after this turn: (melds touched this turn, melds left as they were).

    ``onto`` says where groups of ``melds`` go; a group it does not place goes where
    :func:`placements` would put it first: a proposed meld of a rank the side has is added to it,
    and proposed melds of one rank are one meld (one meld per rank per side, except where the
    variant allows two); so are wild cards and black threes. Wild cards alone that cannot be a
    meld of wild cards go on one of the side's melds. A run, or a lone card of a rank the side has
    no meld of, is added to a table sequence of its suit when together they make one.
    """
    homes = _walk(table, melds, rules, dict(onto or {}))
    return _assemble(table, melds, homes)


def placements(
    table: Sequence[Sequence[Card]],
    melds: Sequence[Sequence[Card]],
    rules: Variant,
    onto: Mapping[int, Target],
    hopeful: bool = False,
) -> Iterator[dict[int, Target]]:
    """Every way the groups of ``melds`` may be placed, given those ``onto`` fixes, the default first.

    Each group is placed in turn, longest first (onto the table's melds, or the groups placed before
    it); wild cards sent alone are placed last, onto any meld the others make. Choices come in an order that depends on
    the cards only, never on the order of ``table`` or ``melds``. ``hopeful`` leaves out the ways
    that put a wild card where it breaks the meld's wild-card limits, which no play can make legal
    (so many wild cards sent alone spread over the melds that can take them).
    """
    order = _placing_order(melds, rules)
    yield from _branch(table, melds, rules, dict(onto), order, {}, hopeful)


def wild_groups(melds: Sequence[Sequence[Card]]) -> list[int]:
    """The groups of ``melds`` that are wild cards alone, of any size: each may go on one of the side's melds."""
    return [i for i, group in enumerate(melds) if meld_key(group)[0] == "wild"]


def lone_wilds(melds: Sequence[Sequence[Card]], rules: Variant) -> list[int]:
    """The groups of ``melds`` that are wild cards sent alone, to go on one of the side's melds.

    That is every group of wild cards alone where the variant has no melds of wild cards (so
    2H-2C-JK goes on a meld of nines as the three cards sent one by one do), and the groups too
    small for a meld of wild cards where it has them.
    """
    low = rules.play_rules.wild_meld_cards[0]
    return [i for i in wild_groups(melds) if not rules.has_wild_melds or len(melds[i]) < low]


def _card_order(group: Sequence[Card]) -> tuple[int, list[str]]:
    """Groups of cards in an order of their cards alone: the longest first."""
    return -len(group), sorted(map(str, group))


def _placing_order(melds: Sequence[Sequence[Card]], rules: Variant) -> list[int]:
    """The groups in an order of their cards alone: the longest first, groups of wild cards alone last.

    A group may join only groups placed before it, and a lone card joins a meld of its rank
    rather than stand alone: so a lone 9 and a 9-9-9 give the same choices in either order.
    Wild cards come after every natural card, so they may go on any meld the others make.
    """
    wild = wild_groups(melds)
    return sorted(range(len(melds)), key=lambda i: (i in wild, _card_order(melds[i]), i))


def _next_group(
    table: Sequence[Sequence[Card]],
    melds: Sequence[Sequence[Card]],
    rules: Variant,
    order: list[int],
    homes: Mapping[int, Target],
    onto: Mapping[int, Target],
) -> int:
    """The group placed next: the first in ``order`` not yet placed, except that where the variant
    has sequences, a group of natural cards that now extends one of the side's sequences comes first.

    So groups join a sequence against the table as it becomes: with 4H-8H on the table, 9H and
    10H sent as two groups extend it as 9H-10H sent as one does, in either order.
    """
    waiting = [i for i in order if i not in homes]
    if rules.has_sequences and len(waiting) > 1:
        longest = rules.play_rules.sequence_cards[1]
        runs = [cards for cards in _so_far(table, melds, homes).values() if meld_key(cards)[0] == "run"]
        for index in waiting:
            group = tuple(melds[index])
            if index in onto or meld_key(group)[0] not in ("rank", "run"):
                continue
            if any(is_run(cards + group, longest) for cards in runs):
                return index
    return waiting[0]


def _branch(
    table: Sequence[Sequence[Card]],
    melds: Sequence[Sequence[Card]],
    rules: Variant,
    onto: dict[int, Target],
    order: list[int],
    homes: dict[int, Target],
    hopeful: bool = False,
) -> Iterator[dict[int, Target]]:
    if len(homes) == len(order):
        yield dict(homes)
        return
    index = _next_group(table, melds, rules, order, homes, onto)
    fixed = onto.get(index)
    if fixed is not None:
        choices = [_home_of(fixed, homes, index)]
    else:
        choices = _choices(table, melds, rules, index, homes, hopeful)
    for choice in choices:
        yield from _branch(table, melds, rules, onto, order, {**homes, index: choice}, hopeful)


def _home_of(target: Target, homes: Mapping[int, Target], index: int) -> Target:
    """A group placed onto another group goes where that group went (a meld of its own is its home)."""
    if target == NEW:
        return ("melds", index)
    if target[0] == "melds" and target[1] in homes:
        return homes[target[1]]
    return target


def _walk(
    table: Sequence[Sequence[Card]], melds: Sequence[Sequence[Card]], rules: Variant, onto: dict[int, Target]
) -> dict[int, Target]:
    """Each group's home: where ``onto`` puts it, else its first choice."""
    homes: dict[int, Target] = {}
    order = _placing_order(melds, rules)
    while len(homes) < len(order):
        index = _next_group(table, melds, rules, order, homes, onto)
        fixed = onto.get(index)
        if fixed is not None:
            homes[index] = _home_of(fixed, homes, index)
        else:
            homes[index] = _choices(table, melds, rules, index, homes)[0]
    return homes


def _so_far(
    table: Sequence[Sequence[Card]], melds: Sequence[Sequence[Card]], homes: Mapping[int, Target]
) -> dict[Target, tuple[Card, ...]]:
    """The side's melds as the groups placed so far leave them, by home."""
    cards: dict[Target, tuple[Card, ...]] = {("table", j): tuple(meld) for j, meld in enumerate(table)}
    for index, home in sorted(homes.items(), key=lambda item: (item[1] != ("melds", item[0]), item[0])):
        cards[home] = cards.get(home, ()) + tuple(melds[index])
    return cards


def _meld_order(item: tuple[Target, tuple[Card, ...]]) -> tuple[Any, ...]:
    """Melds in an order of their cards alone: not completed canastas first, then by rank and cards."""
    target, cards = item
    kind, rank = meld_key(cards)
    return (len(cards) >= 7, kind, rank or "", sorted(str(card) for card in cards), target[0])


def _choices(
    table: Sequence[Sequence[Card]],
    melds: Sequence[Sequence[Card]],
    rules: Variant,
    index: int,
    homes: Mapping[int, Target],
    hopeful: bool = False,
) -> list[Target]:
    """Where this group may go, the default first (``hopeful``: see :func:`placements`)."""
    group = melds[index]
    current = sorted(_so_far(table, melds, homes).items(), key=_meld_order)
    kind, rank = meld_key(group)
    if index in lone_wilds(melds, rules):
        fits = _wild_choices(current, rules, group if hopeful else ())
        if len(group) >= rules.play_rules.wild_meld_cards[0]:
            return fits + [("melds", index)]  # enough for a meld of wild cards, which the variant refuses: said too
        return fits or [("melds", index)]
    same = [target for target, cards in current if meld_key(cards) == (kind, rank) and kind != "run"]
    if kind == "wild":  # wild cards enough for a meld of wild cards: the side's one, or onto a meld of a rank
        others = _wild_choices(current, rules, group if hopeful else (), kinds=("rank",))
        return (same[:1] or [("melds", index)]) + others
    longest = rules.play_rules.sequence_cards[1]
    runs = [t for t, cards in current if meld_key(cards)[0] == "run" and is_run(cards + tuple(group), longest)]
    own = [("melds", index)]
    if kind == "run":
        return runs + own
    if kind != "rank" or (same and not rules.play_rules.duplicate_melds):
        return same[:1] or own
    return _rank_choices(same, runs, own, alone=len(group) == 1)


def _rank_choices(same: list[Target], runs: list[Target], own: list[Target], alone: bool) -> list[Target]:
    """Cards of one rank: onto a meld of the rank (several in the Samba family), a sequence, or their own.

    A lone card is no meld of its own where it has a meld to join.
    """
    if alone and (same or runs):
        return same + runs
    return same + runs + own


def _may_take(cards: Sequence[Card], wilds: Sequence[Card], rules: Variant) -> bool:
    """A meld of one rank keeps its wild-card limits with these wild cards added (docs/rules.md "Melds").

    A wild card sent alone comes last, when the meld's naturals are all laid: a meld these
    limits refuse now is refused whatever else the play does.
    """
    kind, rank = meld_key(cards)
    if kind != "rank":
        return True
    naturals = sum(card.is_natural for card in cards)
    count = sum(card.is_wild for card in cards) + len(wilds)
    if rank in rules.play_rules.pure_ranks or count > rules.wild_limit:
        return False
    return not (rules.wilds_not_more_than_naturals and count > naturals >= 2)


def _wild_choices(
    current: Sequence[tuple[Target, tuple[Card, ...]]],
    rules: Variant,
    hopeful: Sequence[Card] = (),
    kinds: tuple[str, ...] = (),
) -> list[Target]:
    """Wild cards alone go on a meld of one rank, or on the side's meld of wild cards.

    Given the wild cards as ``hopeful``, only on the melds that keep their limits with them.
    """
    kinds = kinds or (("rank", "wild") if rules.has_wild_melds else ("rank",))
    fits = [(target, cards) for target, cards in current if not hopeful or _may_take(cards, hopeful, rules)]
    return [target for target, cards in fits if meld_key(cards)[0] in kinds]


def _low(group: Sequence[Card]) -> int:
    """Where a group starts in a sequence (so cards added to one read from low to high)."""
    return min((SEQUENCE_RANKS.index(card.rank) for card in group if card.rank in SEQUENCE_RANKS), default=-1)


def _assemble(
    table: Sequence[Sequence[Card]], melds: Sequence[Sequence[Card]], homes: Mapping[int, Target]
) -> tuple[list[Laid], list[Laid]]:
    """The melds after this turn from each group's home, touched in the order the groups touch them."""
    added: dict[Target, tuple[Card, ...]] = {}
    wild = wild_groups(melds)
    for index in sorted(
        homes, key=lambda i: (homes[i] != ("melds", i), i in wild, _low(melds[i]), _card_order(melds[i]), i)
    ):
        added[homes[index]] = added.get(homes[index], ()) + tuple(melds[index])
    touched, seen = [], set()
    for index in range(len(melds)):
        home = homes[index]
        if home in seen:
            continue
        seen.add(home)
        if home[0] == "table":
            touched.append(replace(laid_from_table(table[home[1]]), added=added[home]))
        else:
            kind, rank = meld_key(melds[home[1]])
            touched.append(Laid(kind, rank, added=added[home]))
    untouched = [laid_from_table(meld) for j, meld in enumerate(table) if ("table", j) not in seen]
    return touched, untouched


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
