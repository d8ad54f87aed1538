"""Discarding: which cards may be thrown, and what the discard does to the pile."""

from __future__ import annotations

from dataclasses import replace

from ..variants import PlayRules, Variant
from .checks import canasta_findings
from .melds import _laid_from_table
from .position import Position
from .verdict import Finding, Verdict
from .wording import card_name, codes, with_article


def _check_discard(rules: Variant, play: PlayRules, position: Position) -> Verdict:
    card = position.discard
    name = card_name(card)
    findings: list[Finding] = []
    last = len(position.hand) == 1
    if card.is_red_three and not play.threes_held:
        findings.append(
            Finding(
                "discard-red-three",
                f"{codes([card])} is a red three: lay it out and draw a replacement, never discard it.",
                False,
            )
        )
    elif play.discard_only_going_out and (card.is_wild or card.is_three) and not last:
        all_wild = card.is_wild and all(c.is_wild for c in position.hand)
        if all_wild:
            findings.append(
                Finding(
                    "discard-all-wild",
                    "Your hand is all wild cards, so you may discard one; the next player cannot take it.",
                    True,
                )
            )
        else:
            what = "wild card" if card.is_wild else "three"
            findings.append(
                Finding(
                    f"discard-{'wild' if card.is_wild else 'three'}",
                    f"You may discard {with_article(what)} only as your last card, going out.",
                    False,
                )
            )
    else:
        findings.append(Finding("discard", f"You may discard {with_article(name)}.", True))
    if play.empty_pile_guarded and card.rank in play.empty_pile_guarded and not last:
        others = [c for c in position.hand if c.is_natural and c.rank not in play.empty_pile_guarded]
        if others and position.pile_size == 0:
            findings.append(
                Finding(
                    "discard-guarded-on-empty-pile",
                    f"On an empty pile you may not discard {with_article(name)} while you hold another natural card "
                    f"({codes(others[:3])}).",
                    False,
                )
            )
        elif others and position.pile_top is None and position.pile_size is None:
            findings.append(
                Finding(
                    "discard-guarded-if-empty",
                    f"If the pile is empty, you may not discard {with_article(name)} while you hold "
                    f"{codes(others[:3])}.",
                    None,
                )
            )
    if last:
        findings += [
            replace(f, text=f"Discarding your last card goes out. {f.text}") if f.code == "canastas" else f
            for f in canasta_findings(rules, [_laid_from_table(meld) for meld in position.table])
        ]
    findings += _discard_effects(rules, play, position)
    return Verdict.from_findings(findings, minimum=rules.minimum_for(position.score))


def _discard_effects(rules: Variant, play: PlayRules, position: Position) -> list[Finding]:
    """What the discard does to the pile for the next player."""
    card = position.discard
    if card.is_red_three and not play.threes_held:
        return []
    if card.is_wild:
        return [
            Finding(
                "freezes",
                f"A discarded {card_name(card)} freezes the pile: after it, only a natural pair takes it.",
                None,
            )
        ]
    if card.is_black_three:
        if rules.black_three_freezes:
            return [
                Finding(
                    "freezes",
                    "A discarded black three freezes the pile at your table, and stops the next player.",
                    None,
                )
            ]
        return [
            Finding("stops", "A black three stops the next player from taking the pile; it does not freeze it.", None)
        ]
    if card.is_three:
        return []
    return [Finding("next-player", f"The next player may take the pile only by melding the {card_name(card)}.", None)]
