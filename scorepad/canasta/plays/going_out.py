"""Going out: every card melded, the canastas the variant asks for, the last discard."""

from __future__ import annotations

from dataclasses import replace

from ..cards import cards_value
from ..variants import PlayRules, Variant
from .checks import _turn_melds, canasta_findings
from .initial import _minimum_findings
from .meld import _melds_findings
from .melds import take
from .position import Position
from .verdict import Finding, Verdict
from .wording import card_name, codes, with_article


def _check_go_out(rules: Variant, play: PlayRules, position: Position) -> Verdict:
    touched, untouched, turn = _turn_melds(rules, play, position, going_out=True)
    findings = _melds_findings(touched, turn)
    _, left = take(position.hand, [card for meld in position.melds for card in meld])
    if position.discard is not None:
        _, left = take(left, [position.discard])
    if left:
        reds = [card for card in left if card.is_red_three and not play.threes_held]
        others = [card for card in left if card not in reds]
        if others:
            findings.append(
                Finding(
                    "cards-left",
                    f"You still hold {codes(others)}: to go out every card is melded, with at most one discard.",
                    False,
                )
            )
        if reds:
            findings.append(
                Finding("red-three-held", f"Lay out {codes(reds)} first: red threes are never kept in the hand.", False)
            )
    findings += canasta_findings(rules, touched + untouched)
    findings += _going_out_discard(rules, play, position)
    count = None
    concealed = not position.has_opened and not position.took_pile
    if not position.has_opened:
        if concealed and play.concealed_needs_no_minimum:
            findings.append(
                Finding(
                    "concealed-no-minimum",
                    "Going out in one turn after drawing from the stock needs no initial-meld minimum.",
                    True,
                )
            )
            count = cards_value(card for meld in touched for card in meld.added)
        else:
            found, count = _minimum_findings(rules, play, position, touched)
            if position.took_pile and not rules.initial_meld_from_hand:
                found = [
                    replace(
                        f,
                        text=f.text + " Only your hand cards and the top card count: the rest of the pile never does.",
                    )
                    for f in found
                ]
            findings += found
    if concealed and rules.concealed is not None and not any(f.kept is False for f in findings):
        findings.append(
            Finding(
                "concealed",
                f"Your side had not melded, so this is going out concealed: {rules.going_out + rules.concealed} "
                f"for going out instead of {rules.going_out}.",
                None,
            )
        )
    elif (
        position.has_opened
        and rules.players > 2  # playing alone, melds on the table are your own
        and rules.concealed is not None
        and not any(not m.is_new for m in touched)
        and not any(f.kept is False for f in findings)
    ):
        findings.append(
            Finding(
                "maybe-concealed",
                "If you had melded nothing before and your partner made every meld on the table, "
                "this is going out concealed.",
                None,
            )
        )
    return Verdict.from_findings(findings, count=count, minimum=rules.minimum_for(position.score))


def _going_out_discard(rules: Variant, play: PlayRules, position: Position) -> list[Finding]:
    card = position.discard
    if card is None:
        if play.going_out_needs_discard:
            return [Finding("going-out-needs-discard", "To go out you must keep a card for a last discard.", False)]
        return [Finding("no-discard", "You may go out with or without a last discard.", None)]
    if card.is_red_three and not play.threes_held:
        return [Finding("discard-red-three", "A red three is laid out, never discarded.", False)]
    if play.discard_only_going_out and (card.is_wild or card.is_three):
        return [
            Finding("discard-going-out", f"Going out, your last discard may be {with_article(card_name(card))}.", True)
        ]
    return [Finding("discard", f"You end by discarding {with_article(card_name(card))}.", True)]
