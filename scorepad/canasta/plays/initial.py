"""The initial meld: the cards laid down this turn against the side's minimum (RULES.md §5)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..cards import Card, cards_value
from ..variants import PlayRules, Variant
from .melds import Laid
from .position import Position
from .verdict import Finding
from .wording import card_name, codes


def _minimum_findings(
    rules: Variant, play: PlayRules, position: Position, touched: Sequence[Laid], top: Card | None = None
) -> tuple[list[Finding], int]:
    """The initial meld: the cards laid down this turn against the side's minimum."""
    minimum = rules.minimum_for(position.score)
    cards = [card for meld in touched for card in meld.added]
    if rules.initial_meld_from_hand:
        return _american_opening(rules, play, position, touched, top, minimum)
    count = cards_value(cards)
    note = ""
    if top is not None and not rules.top_counts_for_minimum:
        count -= top.value
        note = f" (the top {card_name(top)} does not count at this table)"
    elif top is not None:
        note = f" (the top {card_name(top)} counts; no other card from the pile does)"
    if count >= minimum:
        return [Finding("minimum", f"Your initial meld counts {count}{note}: your side needs {minimum}.", True)], count
    return [
        Finding(
            "below-minimum",
            f"Your initial meld counts {count}{note}, but your side needs {minimum} (its total is {position.score}): "
            f"add melds worth {minimum - count} more; bonuses never count.",
            False,
        )
    ], count


def _american_opening(
    rules: Variant, play: PlayRules, position: Position, touched: Sequence[Laid], top: Card | None, minimum: int
) -> tuple[list[Finding], int]:
    """American: the minimum comes from the hand alone, with three matching naturals or a wild meld."""
    hand_parts = []
    for meld in touched:
        part = list(meld.added)
        if top is not None and meld.kind == "rank" and meld.rank == top.rank:
            part.remove(next(card for card in part if card.rank == top.rank))
            if len(part) < 3:
                continue  # the pair that takes the pile is no meld from the hand
        hand_parts.append(part)
    count = sum(cards_value(part) for part in hand_parts)
    sets = [p for p in hand_parts if _natural_set(p) or (len(p) >= 3 and all(card.is_wild for card in p))]
    splash = play.splash and any(
        len(p) >= play.canasta and (all(c.is_wild for c in p) or (len({c.rank for c in p}) == 1 and p[0].is_natural))
        for p in hand_parts
    )
    if splash:
        return [
            Finding("splash", "A natural or wild canasta from your hand opens with no minimum (a splash).", True)
        ], count
    found = []
    if count >= minimum:
        found.append(
            Finding("minimum", f"Your initial meld counts {count} from your hand: your side needs {minimum}.", True)
        )
    else:
        found.append(
            Finding(
                "below-minimum",
                f"Your initial meld counts {count} from your hand, but your side needs {minimum} (its total is "
                f"{position.score}): add melds from your hand worth {minimum - count} more; the top card never "
                "counts, and bonuses never count.",
                False,
            )
        )
    if play.needs_set_to_open:
        if sets:
            found.append(Finding("opening-set", f"It holds {codes(sets[0])} from your hand.", True))
        else:
            found.append(
                Finding(
                    "opening-needs-set",
                    "An initial meld must hold three matching natural cards, or three or more wild cards, "
                    "from your hand.",
                    False,
                )
            )
    return found, count


def _natural_set(cards: Sequence[Card]) -> bool:
    counts = Counter(card.rank for card in cards if card.is_natural)
    return any(count >= 3 for count in counts.values())
