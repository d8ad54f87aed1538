"""Taking the pile (RULES.md §5 "Taking the pile"): the ways it may be taken, and a legal one found."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..cards import Card, cards_value
from ..variants import PlayRules, Variant
from .checks import _going_out_by_melding, _left_after, _red_threes_held, _turn_melds
from .initial import _minimum_findings
from .meld import _melds_findings
from .melds import Laid
from .position import Position
from .search import pickup_candidates
from .verdict import Finding, Verdict
from .wording import NAMES, _held, card_name, codes, number, plural


def _check_pickup(rules: Variant, play: PlayRules, position: Position) -> Verdict:
    minimum = rules.minimum_for(position.score)
    if position.melds:
        return _judge_pickup(rules, play, position)
    blocked = _pile_blocked(rules, position)
    if blocked:
        return Verdict.from_findings(blocked, minimum=minimum)
    failures = []
    for melds in pickup_candidates(rules, play, position):
        verdict = _judge_pickup(rules, play, replace(position, melds=melds))
        if verdict.legal:
            melds = _trim(rules, play, position, melds)
            verdict = _judge_pickup(rules, play, replace(position, melds=melds))
            shown = "; ".join(codes(meld) for meld in melds)
            return replace(verdict, reasons=(f"Yes: meld {shown} and take the pile.", *verdict.reasons), how=melds)
        failures.append((len(verdict.problems), -(verdict.count or 0), len(failures), melds, verdict))
    if not failures:
        top = position.pile_top
        verdict = _judge_pickup(rules, play, replace(position, melds=((top,),)))
        return replace(verdict, reasons=("No way to take the pile with this hand.", *verdict.reasons))
    *_, melds, verdict = min(failures)
    pile_rules = [v for v in verdict.problems if v.code.startswith(("pickup", "pile", "one-card", "top-"))]
    if pile_rules:
        verdict = replace(verdict, reasons=tuple(v.message for v in pile_rules), problems=tuple(pile_rules))
    elif verdict.count is not None:
        shown = "; ".join(codes(meld) for meld in melds)
        lead = f"The most you can lay down with the top {card_name(position.pile_top)} is {shown}."
        verdict = replace(verdict, reasons=(lead, *verdict.reasons))
    return replace(verdict, reasons=("No way to take the pile with this hand.", *verdict.reasons))


def _pile_blocked(rules: Variant, position: Position) -> list[Finding]:
    """The pile cannot be taken at all: its top card, or the one-card rule."""
    top = position.pile_top
    found = []
    if top.is_wild:
        found.append(
            Finding(
                "pile-top-wild", f"You can never take the pile while a wild card ({card_name(top)}) is on top.", False
            )
        )
    elif top.is_three:
        what = "a black three (a stop card)" if top.is_black_three else "a red three"
        found.append(Finding("pile-top-three", f"You can never take the pile while {what} is on top.", False))
    if position.pile_size == 1 and len(position.hand) == 1:
        found.append(
            Finding(
                "one-card-pile",
                "With one card in your hand you may not take a pile of one card.",
                False,
            )
        )
    return found


def _frozen_because(rules: Variant, position: Position) -> list[str]:
    why = []
    if position.pile_frozen:
        why.append("it holds a wild card or a red three turned up at the start")
    if not position.has_opened:
        why.append("your side has not made its initial meld")
    if rules.pile_always_frozen:
        why.append("your table plays it always frozen")
    return why


def _judge_pickup(rules: Variant, play: PlayRules, position: Position) -> Verdict:
    top = position.pile_top
    minimum = rules.minimum_for(position.score)
    findings = _pile_blocked(rules, position)
    touched, untouched, turn = _turn_melds(rules, play, position, going_out=False)
    findings += _top_meld_findings(rules, play, position, touched)
    findings += _melds_findings(touched, turn)
    count = None
    if not position.has_opened:
        found, count = _minimum_findings(rules, play, position, touched, top)
        findings += found
    melded_from_hand = sum(len(meld) for meld in position.melds) - 1
    if position.pile_size is not None:
        left = _left_after(position, melded_from_hand, position.pile_size - 1)
        if left <= 1:
            findings += _going_out_by_melding(rules, play, position, touched + untouched, left)
    if (
        position.stock_empty
        and not _frozen_because(rules, position)
        and any(m.kind == "rank" and m.rank == top.rank and not m.is_new for m in touched)
    ):
        findings.append(
            Finding("must-take", "With the stock gone you must take a discard that goes on one of your melds.", None)
        )
    findings += _red_threes_held(play, position.hand)
    return Verdict.from_findings(findings, count=count, minimum=minimum)


def _top_meld_findings(rules: Variant, play: PlayRules, position: Position, touched: Sequence[Laid]) -> list[Finding]:
    """How the top card is melded, against the ways the pile may be taken (RULES.md §5 "Taking the pile")."""
    top = position.pile_top
    if not top.is_natural:
        return []
    name, names = NAMES[top.rank], plural(NAMES[top.rank])
    meld = next((m for m in touched if m.kind == "rank" and m.rank == top.rank), None)
    in_run = any(m.kind == "run" and any(card.rank == top.rank for card in m.added) for m in touched)
    if meld is None:
        if in_run:
            return [Finding("top-in-sequence", "The top card never starts or extends a sequence.", False)]
        return [Finding("top-not-melded", f"To take the pile you must meld the top {name} now.", False)]
    part = list(meld.added)
    part.remove(next(card for card in part if card.rank == top.rank))
    naturals = [card for card in part if card.is_natural]
    wilds = [card for card in part if card.is_wild]
    held = [card for card in position.hand if card.rank == top.rank] + [card for card in position.hand if card.is_wild]
    frozen = _frozen_because(rules, position) if not play.pickup_pair_only else ["you always need a pair"]
    canasta = len(meld.before) >= play.canasta
    found = []
    if play.pickup_blocked_from and len(meld.before) >= play.pickup_blocked_from:
        return [
            Finding(
                "pickup-meld-full",
                f"Your {codes(meld.before)} has {number(len(meld.before))} cards: a pair and the top {name} would "
                f"pass {number(play.canasta)}, so you cannot take this pile.",
                False,
            )
        ]
    if canasta and not play.pickup_onto_canasta and play.pickup_onto_meld:
        return [
            Finding(
                "pickup-onto-canasta",
                f"The top {name} never goes onto a completed canasta in {rules.name}.",
                False,
            )
        ]
    pair = len(naturals) >= 2
    if pair:
        what = "frozen pile" if frozen and not play.pickup_pair_only else "pile"
        found.append(
            Finding("pickup-pair", f"Two natural {names} from your hand take the {what} with the top {name}.", True)
        )
        return found
    if frozen:
        why = "; ".join(frozen) if not play.pickup_pair_only else ""
        lead = f"The pile is frozen ({why})" if why else f"In {rules.name} the pile is only taken with a natural pair"
        return [
            Finding(
                "pickup-needs-pair",
                f"{lead}: you need two natural {names} in your hand; you have {_held(held, names)}.",
                False,
            )
        ]
    onto_canasta_ok = not canasta or (play.pickup_onto_canasta and rules.pickup_onto_canasta)
    if naturals and wilds:
        if not (play.pickup_with_wild and rules.pickup_with_wild):
            where = f"in {rules.name}" if not play.pickup_with_wild else "at your table"
            found.append(
                Finding(
                    "pickup-with-wild-off",
                    f"One {name} and a wild card do not take the pile {where}: you need two natural {names}.",
                    False,
                )
            )
        elif not onto_canasta_ok:
            found.append(
                Finding(
                    "pickup-onto-canasta",
                    f"Your {names} are a completed canasta: at your table only two natural {names} "
                    "take the pile onto it.",
                    False,
                )
            )
        else:
            found.append(
                Finding(
                    "pickup-natural-wild",
                    f"One natural {name} and a wild card take the pile with the top {name}.",
                    True,
                )
            )
        return found
    if meld.before:
        if not play.pickup_onto_meld:
            found.append(
                Finding(
                    "pickup-needs-pair",
                    f"You need two natural {names} in your hand; you have {_held(held, names)}.",
                    False,
                )
            )
        elif not onto_canasta_ok:
            found.append(
                Finding(
                    "pickup-onto-canasta",
                    f"Your {names} are a completed canasta, and at your table the pile is not taken "
                    "just to add to one: "
                    f"you need two natural {names}.",
                    False,
                )
            )
        else:
            found.append(
                Finding(
                    "pickup-onto-meld",
                    f"The top {name} goes on your {codes(meld.before)}, so you may take the pile.",
                    True,
                )
            )
        return found
    ways = f"two natural {names}"
    if play.pickup_with_wild and rules.pickup_with_wild:
        ways += f", one {name} with a wild card"
    if play.pickup_onto_meld:
        ways += f", or a meld of {names} on the table"
    return [Finding("pickup-no-match", f"To take the pile you need {ways}; you have {_held(held, names)}.", False)]


def _trim(rules: Variant, play: PlayRules, position: Position, melds: tuple[tuple[Card, ...], ...]):
    """Drop extra melds (smallest first) that a legal way to take the pile does not need."""
    melds = list(melds)
    for meld in sorted(melds[1:], key=cards_value):
        fewer = [m for m in melds if m is not meld]
        if _judge_pickup(rules, play, replace(position, melds=tuple(fewer))).legal:
            melds = fewer
    return tuple(melds)
