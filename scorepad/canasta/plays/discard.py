"""Discarding: which cards may be thrown, and what the discard does to the pile.

>>> from scorepad.canasta.plays import check_request
>>> check_request({"variant": "american", "action": "discard", "hand": ["K", "2"], "discard": "2"}).reasons[0]
'You may discard a wild card only as your last card, going out.'
"""

from __future__ import annotations

from dataclasses import replace

from ..cards import Card
from ..text import t
from ..variants import PlayRules, Variant
from .checks import canasta_findings
from .melds import laid_from_table
from .position import Position
from .verdict import Finding, Verdict, applied, first_applied
from .wording import card_name, codes, words_for

ALL_WILD = t("Your hand is all wild cards, so you may discard one; the next player cannot take it.")
WILD_ONLY_GOING_OUT = t("You may discard a wild card only as your last card, going out.")
THREE_ONLY_GOING_OUT = t("You may discard a three only as your last card, going out.")
BLACK_THREE_FREEZES = t("A discarded black three freezes the pile at your table, and stops the next player.")
BLACK_THREE_STOPS = t("A black three stops the next player from taking the pile; it does not freeze it.")


def check_discard(rules: Variant, play: PlayRules, position: Position) -> Verdict:
    """Discarding: which card may go, the empty-pile guard, the last card, the effect on the pile."""
    findings = first_applied(WHICH_DISCARD, play, position)
    findings += applied(GUARDED_DISCARD, play, position)
    findings += _last_card_goes_out(rules, position)
    findings += _discard_effects(rules, play, position)
    return Verdict.from_findings(findings, minimum=rules.minimum_for(position.score))


def _is_last(position: Position) -> bool:
    return len(position.hand) == 1


def _red_three_discarded(play: PlayRules, position: Position) -> Finding | None:
    """A red three is laid out, never discarded (unless the variant keeps threes in the hand)."""
    card = position.discard
    if not card.is_red_three or play.threes_held:
        return None
    return Finding(
        "discard-red-three",
        t("%(card)s is a red three: lay it out and draw a replacement, never discard it.", card=codes([card])),
        False,
    )


def _only_going_out(play: PlayRules, position: Position) -> Finding | None:
    """American: wild cards and threes are discarded only going out, or from a hand of wild cards."""
    card = position.discard
    if not (play.discard_only_going_out and (card.is_wild or card.is_three)) or _is_last(position):
        return None
    if card.is_wild and all(c.is_wild for c in position.hand):
        return Finding("discard-all-wild", ALL_WILD, True)
    if card.is_wild:
        return Finding("discard-wild", WILD_ONLY_GOING_OUT, False)
    return Finding("discard-three", THREE_ONLY_GOING_OUT, False)


def _plain_discard(play: PlayRules, position: Position) -> Finding:
    return Finding("discard", t("You may discard %(card)s.", card=words_for(position.discard).a), True)


WHICH_DISCARD = (_red_three_discarded, _only_going_out, _plain_discard)  # the first that applies


def _guarded_others(play: PlayRules, position: Position) -> list[Card]:
    """American: the other naturals held while discarding an ace or a seven (not the last card)."""
    card, guarded = position.discard, play.empty_pile_guarded
    if not guarded or card.rank not in guarded or _is_last(position):
        return []
    return [c for c in position.hand if c.is_natural and c.rank not in guarded]


def _guarded_on_empty_pile(play: PlayRules, position: Position) -> Finding | None:
    """No ace or seven onto an empty pile while the hand holds another natural card."""
    others = _guarded_others(play, position)
    if not others or position.pile_size != 0:
        return None
    return Finding(
        "discard-guarded-on-empty-pile",
        t(
            "On an empty pile you may not discard %(card)s while you hold another natural card (%(cards)s).",
            card=words_for(position.discard).a,
            cards=codes(others[:3]),
        ),
        False,
    )


def _guarded_if_empty(play: PlayRules, position: Position) -> Finding | None:
    """The pile was not described: say the rule that applies if it is empty."""
    others = _guarded_others(play, position)
    if not others or position.pile_top is not None or position.pile_size is not None:
        return None
    return Finding(
        "discard-guarded-if-empty",
        t(
            "If the pile is empty, you may not discard %(card)s while you hold %(cards)s.",
            card=words_for(position.discard).a,
            cards=codes(others[:3]),
        ),
        None,
    )


GUARDED_DISCARD = (_guarded_on_empty_pile, _guarded_if_empty)


def _last_card_goes_out(rules: Variant, position: Position) -> list[Finding]:
    """Discarding the last card goes out, so the side needs its canastas."""
    if not _is_last(position):
        return []
    return [
        replace(f, text=t("Discarding your last card goes out. %(reason)s", reason=f.text))
        if f.code == "canastas"
        else f
        for f in canasta_findings(rules, [laid_from_table(meld) for meld in position.table])
    ]


def _discard_effects(rules: Variant, play: PlayRules, position: Position) -> list[Finding]:
    """What the discard does to the pile for the next player."""
    card = position.discard
    if card.is_red_three and not play.threes_held:
        return []
    if card.is_wild:
        return [
            Finding(
                "freezes",
                t(
                    "A discarded %(card)s freezes the pile: after it, only a natural pair takes it.",
                    card=card_name(card),
                ),
                None,
            )
        ]
    if card.is_black_three:
        if rules.black_three_freezes:
            return [Finding("freezes", BLACK_THREE_FREEZES, None)]
        return [Finding("stops", BLACK_THREE_STOPS, None)]
    if card.is_three:
        return []
    text = t("The next player may take the pile only by melding the %(card)s.", card=card_name(card))
    return [Finding("next-player", text, None)]
