"""The initial meld: the cards laid down this turn against the side's minimum (docs/rules.md "The initial meld").

>>> from scorepad.canasta.plays import check_request
>>> verdict = check_request({"action": "meld", "hand": ["K", "K", "K", "5", "6"], "melds": [["K", "K", "K"]]})
>>> verdict.legal, verdict.count, verdict.minimum
(False, 30, 50)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..cards import Card, cards_value
from ..text import Text, t
from ..variants import PlayRules, Variant
from .melds import Laid
from .position import Position
from .verdict import Finding
from .wording import card_name, codes

SPLASH = t("A natural or wild canasta from your hand opens with no minimum (a splash).")
OPENING_NEEDS_SET = t(
    "An initial meld must hold three matching natural cards, or three or more wild cards, from your hand."
)


def minimum_findings(
    rules: Variant, play: PlayRules, position: Position, touched: Sequence[Laid], top: Card | None = None
) -> tuple[list[Finding], int]:
    """The initial meld: the cards laid down this turn against the side's minimum."""
    minimum = rules.minimum_for(position.score)
    cards = [card for meld in touched for card in meld.added]
    if rules.initial_meld_from_hand:
        return _american_opening(rules, play, position, touched, top, minimum)
    count = cards_value(cards)
    if top is not None:
        count -= 0 if rules.top_counts_for_minimum else top.value
        return _with_top(position, count, minimum, card_name(top), rules.top_counts_for_minimum), count
    if count >= minimum:
        text = t("Your initial meld counts %(count)s: your side needs %(minimum)s.", count=count, minimum=minimum)
        return [Finding("minimum", text, True)], count
    text = t(
        "Your initial meld counts %(count)s, but your side needs %(minimum)s (its total is %(total)s): "
        "add melds worth %(more)s more; bonuses never count.",
        count=count,
        minimum=minimum,
        total=position.score,
        more=minimum - count,
    )
    return [Finding("below-minimum", text, False)], count


def _with_top(position: Position, count: int, minimum: int, top: Text, counts: bool) -> list[Finding]:
    """Taking the pile: the initial meld with the top card, which counts only at some tables."""
    numbers = {"count": count, "minimum": minimum, "card": top}
    short = {**numbers, "total": position.score, "more": minimum - count}
    if counts and count >= minimum:
        text = t(
            "Your initial meld counts %(count)s (the top %(card)s counts; no other card from the pile does): "
            "your side needs %(minimum)s.",
            **numbers,
        )
    elif count >= minimum:
        text = t(
            "Your initial meld counts %(count)s (the top %(card)s does not count at this table): "
            "your side needs %(minimum)s.",
            **numbers,
        )
    elif counts:
        text = t(
            "Your initial meld counts %(count)s (the top %(card)s counts; no other card from the pile does), but your "
            "side needs %(minimum)s (its total is %(total)s): add melds worth %(more)s more; bonuses never count.",
            **short,
        )
    else:
        text = t(
            "Your initial meld counts %(count)s (the top %(card)s does not count at this table), but your side needs "
            "%(minimum)s (its total is %(total)s): add melds worth %(more)s more; bonuses never count.",
            **short,
        )
    return [Finding("minimum" if count >= minimum else "below-minimum", text, count >= minimum)]


def _american_opening(
    rules: Variant, play: PlayRules, position: Position, touched: Sequence[Laid], top: Card | None, minimum: int
) -> tuple[list[Finding], int]:
    """American: the minimum comes from the hand alone, with three matching naturals or a wild meld."""
    parts = _hand_parts(touched, top)
    count = sum(cards_value(part) for part in parts)
    if play.splash and any(_is_hand_canasta(part, play.canasta) for part in parts):
        return [Finding("splash", SPLASH, True)], count
    found = [_hand_minimum(position, count, minimum)]
    if play.needs_set_to_open:
        found.append(_opening_set(parts))
    return found, count


def _hand_parts(touched: Sequence[Laid], top: Card | None) -> list[list[Card]]:
    """The cards each meld takes from the hand: the top card out, and the pair taking it no meld."""
    parts = []
    for meld in touched:
        part = list(meld.added)
        if top is not None and meld.kind == "rank" and any(card.rank == top.rank for card in part):
            part.remove(next(card for card in part if card.rank == top.rank))
            if len(part) < 3:
                continue  # the pair that takes the pile is no meld from the hand
        parts.append(part)
    return parts


def _is_hand_canasta(part: Sequence[Card], size: int) -> bool:
    """A natural or wild canasta straight from the hand (a splash)."""
    if len(part) < size:
        return False
    return all(card.is_wild for card in part) or (len({card.rank for card in part}) == 1 and part[0].is_natural)


def _hand_minimum(position: Position, count: int, minimum: int) -> Finding:
    if count >= minimum:
        text = t(
            "Your initial meld counts %(count)s from your hand: your side needs %(minimum)s.",
            count=count,
            minimum=minimum,
        )
        return Finding("minimum", text, True)
    text = t(
        "Your initial meld counts %(count)s from your hand, but your side needs %(minimum)s (its total is %(total)s): "
        "add melds from your hand worth %(more)s more; the top card never counts, and bonuses never count.",
        count=count,
        minimum=minimum,
        total=position.score,
        more=minimum - count,
    )
    return Finding("below-minimum", text, False)


def _opening_set(parts: Sequence[Sequence[Card]]) -> Finding:
    """American: the initial meld holds three matching naturals, or three or more wild cards, from the hand."""
    sets = [p for p in parts if _natural_set(p) or (len(p) >= 3 and all(card.is_wild for card in p))]
    if sets:
        return Finding("opening-set", t("It holds %(cards)s from your hand.", cards=codes(sets[0])), True)
    return Finding("opening-needs-set", OPENING_NEEDS_SET, False)


def _natural_set(cards: Sequence[Card]) -> bool:
    counts = Counter(card.rank for card in cards if card.is_natural)
    return any(count >= 3 for count in counts.values())
