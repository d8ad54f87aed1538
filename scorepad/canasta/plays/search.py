"""The search for a way to take the pile: candidate melds, simplest first.

>>> from scorepad.canasta.presets import VARIANTS
>>> classic = VARIANTS["classic"]
>>> hand = [Card("A"), Card("A"), Card("2"), Card("5"), Card("5"), Card("5")]
>>> ["-".join(map(str, meld)) for meld in best_melds(classic, classic.play_rules, hand)]
['5-5-5', 'A-A-2']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from ..cards import Card, cards_value
from ..variants import PlayRules, Variant
from .melds import meld_key, take
from .position import Position


def pickup_candidates(rules: Variant, play: PlayRules, position: Position) -> Iterable[tuple[tuple[Card, ...], ...]]:
    """Ways to take the pile worth judging, simplest first (for ``how``)."""
    top = position.pile_top
    if not top.is_natural:
        return
    naturals = [card for card in position.hand if card.rank == top.rank]
    wilds = sorted((card for card in position.hand if card.is_wild), key=lambda card: card.value)
    on_table = any(meld_key(meld) == ("rank", top.rank) for meld in position.table)
    options = [tuple(naturals[:2])]
    if on_table:
        options.append(())
    if naturals and wilds:
        options.append((naturals[0], wilds[0]))
    options.append(tuple(naturals))
    room = rules.wild_limit
    options.append(tuple(naturals) + tuple(reversed(wilds))[:room])
    seen = set()
    for part in options:
        top_meld = (top, *part)
        if top_meld in seen:
            continue
        seen.add(top_meld)
        yield (top_meld,)
        if not position.has_opened:
            _, rest = take(position.hand, list(part))
            extras = best_melds(rules, play, rest, skip=top.rank)
            if extras:
                yield (top_meld, *extras)


def best_melds(
    rules: Variant, play: PlayRules, cards: Sequence[Card], skip: str | None = None
) -> tuple[tuple[Card, ...], ...]:
    """The melds worth the most that these cards make (one per rank), to reach a minimum.

    Every set of three or more naturals is a meld; pairs become melds with a wild card each,
    the pairs worth most first; spare wild cards fill the melds that may hold them.
    """
    by_rank: dict[str, list[Card]] = {}
    for card in cards:
        if card.is_natural and card.rank != skip:
            by_rank.setdefault(card.rank, []).append(card)
    wilds = sorted((card for card in cards if card.is_wild), key=lambda card: -card.value)
    pairs = [rank for rank, group in by_rank.items() if len(group) == 2 and rank not in play.pure_ranks]
    pairs.sort(key=lambda rank: -by_rank[rank][0].value)
    best: tuple[int, tuple[tuple[Card, ...], ...]] = (0, ())
    for size in range(0, min(len(pairs), len(wilds), 6) + 1):
        for chosen in combinations(pairs, size):
            result = _melds_with_pairs(rules, play, by_rank, chosen, wilds)
            value = sum(cards_value(meld) for meld in result)
            if value > best[0]:
                best = (value, result)
    return best[1]


def _melds_with_pairs(
    rules: Variant, play: PlayRules, by_rank: dict[str, list[Card]], chosen: Sequence[str], wilds: Sequence[Card]
) -> tuple[tuple[Card, ...], ...]:
    """The sets, the chosen pairs with a wild card each, spare wild cards added where they may go."""
    cap = rules.meld_cap or 99
    melds = {rank: group[:cap] for rank, group in by_rank.items() if len(group) >= 3}
    spare = list(wilds)
    for rank in chosen:
        melds[rank] = by_rank[rank] + [spare.pop(0)]
    for rank, meld in sorted(melds.items(), key=lambda item: -len(item[1])):
        naturals = sum(1 for card in meld if card.is_natural)
        room = _wild_room(rules, play, rank, naturals)
        while spare and len(meld) - naturals < room and len(meld) < cap:
            meld.append(spare.pop(0))
    result = tuple(tuple(meld) for meld in melds.values())
    low, high = play.wild_meld_cards
    if rules.has_wild_melds and len(spare) >= low:
        result += (tuple(spare[:high]),)
    return result


def _wild_room(rules: Variant, play: PlayRules, rank: str, naturals: int) -> int:
    """How many wild cards a meld of this rank with this many naturals may hold."""
    if rank in play.pure_ranks:
        return 0
    if rules.wilds_not_more_than_naturals:
        return min(rules.wild_limit, naturals)
    return rules.wild_limit
