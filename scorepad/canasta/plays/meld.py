"""Melding: the rules every meld keeps (RULES.md §5 "Melds"), and the meld action."""

from __future__ import annotations

from collections.abc import Sequence

from ..variants import PlayRules, Variant
from .checks import _going_out_by_melding, _red_threes_held, _turn_melds
from .initial import _minimum_findings
from .melds import SEQUENCE_RANKS, Laid, Turn, run_order
from .position import Position
from .verdict import Finding, Verdict
from .wording import NAMES, SUIT_NAMES, _and, codes, describe, number, plural, with_article


def meld_findings(meld: Laid, turn: Turn) -> list[Finding]:
    """Every meld rule this meld keeps or breaks, for its variant (RULES.md §5 "Melds")."""
    judge = {"rank": _rank_meld, "wild": _wild_meld, "threes": _three_meld, "run": _run_meld}[meld.kind]
    findings = judge(meld, turn)
    if not any(f.kept is False for f in findings):
        findings.append(Finding("meld", _meld_sentence(meld, turn.play.canasta), True))
    return findings


def _rank_meld(meld: Laid, turn: Turn) -> list[Finding]:
    rules, play = turn.rules, turn.play
    cards, rank = meld.cards, meld.rank
    naturals, wilds = len(meld.naturals), len(meld.wilds)
    added_wilds = [card for card in meld.added if card.is_wild]
    names = plural(NAMES[rank])
    found = []
    if len(cards) < 3:
        wild_helps = rank not in play.pure_ranks and naturals + 3 - len(cards) >= 3
        if len(cards) == 1:
            fix = f"add two more {names}{', or one more and a wild card' if wild_helps else ''}"
        else:
            fix = f"add another {NAMES[rank]}{' or a wild card' if wild_helps else ''}"
        found.append(
            Finding(
                "meld-too-small",
                f"{codes(cards)} is only {number(len(cards))} card{'s' * (len(cards) != 1)}: a meld needs "
                f"at least three ({fix}).",
                False,
            )
        )
    elif naturals < 2:
        found.append(
            Finding(
                "too-few-naturals",
                f"{codes(cards)} has {describe(meld.naturals)}: a meld needs at least two natural {names}.",
                False,
            )
        )
    if wilds and rank in play.pure_ranks:
        found.append(
            Finding(
                "pure-rank-wild",
                f"A meld of {names} never takes wild cards: leave {describe(meld.wilds).replace('one ', 'the ')} out.",
                False,
            )
        )
    elif added_wilds and rank in play.opening_wild_ranks:
        if not meld.is_new and not any(card.is_wild for card in meld.before):
            found.append(
                Finding(
                    "pure-meld-stays-pure",
                    f"Your {names} began without wild cards, so they can never take one.",
                    False,
                )
            )
        elif meld.is_new and not turn.opening:
            found.append(
                Finding(
                    "wild-only-in-opening",
                    f"A meld of {names} takes wild cards only when it is part of your side's initial meld; "
                    f"meld the {names} pure.",
                    False,
                )
            )
    if wilds > rules.max_wilds:
        found.append(
            Finding(
                "too-many-wilds",
                f"{codes(cards)} holds {number(wilds)} wild cards: one meld may hold at most "
                f"{number(rules.max_wilds)}.",
                False,
            )
        )
    elif rules.wilds_not_more_than_naturals and wilds > naturals and naturals >= 2:
        found.append(
            Finding(
                "wilds-outnumber-naturals",
                f"{codes(cards)} has {number(wilds)} wild cards and only {number(naturals)} natural {names}: "
                f"wild cards may never outnumber naturals (add a {NAMES[rank]} or leave a wild card out).",
                False,
            )
        )
    if rules.meld_cap and len(cards) > rules.meld_cap:
        found.append(
            Finding(
                "meld-too-long",
                f"{meld} would make {number(len(cards))} {names}: no meld may hold more than "
                f"{number(rules.meld_cap)} cards.",
                False,
            )
        )
    if added_wilds and turn.wild_meld_open and rank not in play.pure_ranks:
        found.append(
            Finding(
                "wild-meld-open",
                "While your side's meld of wild cards is unfinished, no wild card goes on any other meld: "
                f"keep {codes(added_wilds)} for it.",
                False,
            )
        )
    return found


def _wild_meld(meld: Laid, turn: Turn) -> list[Finding]:
    rules, cards = turn.rules, meld.cards
    if not rules.has_wild_melds:
        return [
            Finding(
                "wild-meld-not-allowed",
                f"{codes(cards)} is wild cards alone, and {rules.name} has no melds of wild cards: "
                "a meld needs at least two natural cards of one rank.",
                False,
            )
        ]
    low, high = turn.play.wild_meld_cards
    if len(cards) < low:
        return [
            Finding(
                "meld-too-small",
                f"{codes(cards)} is only {number(len(cards))} wild card{'s' * (len(cards) != 1)}: "
                f"a meld of wild cards needs at least {number(low)}.",
                False,
            )
        ]
    if len(cards) > high:
        return [
            Finding(
                "meld-too-long",
                f"{meld} would make {number(len(cards))} wild cards: a meld of wild cards stops at {number(high)}.",
                False,
            )
        ]
    return []


def _three_meld(meld: Laid, turn: Turn) -> list[Finding]:
    cards = meld.cards
    reds = [card for card in cards if card.is_red_three]
    if reds:
        return [
            Finding(
                "red-three-melded",
                f"{codes(reds)}: red threes are never melded; they are laid out on their own as bonus cards.",
                False,
            )
        ]
    if not turn.play.black_threes_going_out:
        return [
            Finding(
                "three-melded",
                f"Threes are never melded in {turn.rules.name}: they are laid out beside your melds.",
                False,
            )
        ]
    found = []
    others = [card for card in cards if not card.is_three]
    if others:
        found.append(
            Finding(
                "black-threes-mixed",
                f"Black threes are melded only with each other: leave {codes(others)} out.",
                False,
            )
        )
    if not turn.going_out:
        found.append(
            Finding(
                "black-threes-not-going-out",
                "Black threes are melded only when you go out, in your last turn.",
                False,
            )
        )
    threes = len(cards) - len(others)
    low, high = turn.play.black_three_cards
    if not low <= threes <= high:
        found.append(
            Finding(
                "black-threes-count",
                f"A meld of black threes holds three or four of them, not {number(threes)}.",
                False,
            )
        )
    return found


def _run_meld(meld: Laid, turn: Turn) -> list[Finding]:
    rules, cards = turn.rules, meld.cards
    naturals = meld.naturals
    ranks = sorted({card.rank for card in naturals}, key=SEQUENCE_RANKS.index)
    if not rules.has_sequences:
        return [
            Finding(
                "mixed-ranks",
                f"{codes(cards)} mixes {_and([plural(NAMES[r]) for r in reversed(ranks)])}: "
                f"a meld is cards of one rank ({rules.name} has no sequences).",
                False,
            )
        ]
    found = []
    if meld.wilds:
        found.append(
            Finding(
                "wild-in-sequence",
                f"A sequence takes no wild cards: leave {describe(meld.wilds).replace('one ', 'the ')} out.",
                False,
            )
        )
    unsuited = [card for card in naturals if card.suit is None]
    if unsuited:
        found.append(
            Finding(
                "sequence-needs-suits",
                f"A sequence is cards of one suit: give the suit of {describe(unsuited).replace('one ', 'the ')}.",
                False,
            )
        )
        return found
    if len({card.suit for card in naturals}) > 1:
        found.append(
            Finding("sequence-mixed-suits", f"{codes(run_order(naturals))} mixes suits: a sequence is one suit.", False)
        )
    if len(ranks) < len(naturals):
        found.append(
            Finding(
                "sequence-repeats",
                f"{codes(run_order(naturals))} repeats a rank: a sequence has each rank once.",
                False,
            )
        )
    places = [SEQUENCE_RANKS.index(rank) for rank in ranks]
    missing = [r for r in SEQUENCE_RANKS[places[0] : places[-1] + 1] if r not in ranks]
    if missing:
        found.append(
            Finding(
                "sequence-gap",
                f"{codes(run_order(naturals))} has a gap: a sequence runs without one (it lacks "
                f"{' and '.join(with_article(NAMES[r]) for r in missing)}).",
                False,
            )
        )
    low, high = turn.play.sequence_cards
    if len(cards) < low:
        found.append(
            Finding("meld-too-small", f"{codes(cards)} is too short: a sequence needs at least three cards.", False)
        )
    if len(cards) > high:
        found.append(
            Finding("meld-too-long", f"{meld} would be {number(len(cards))} cards: a sequence stops at seven.", False)
        )
    return found


def _meld_sentence(meld: Laid, size: int) -> str:
    cards = meld.cards
    if meld.kind == "rank":
        what = (
            f"{number(len(cards))} {plural(NAMES[meld.rank])}"
            if not meld.wilds
            else (f"{describe(meld.naturals)} with {describe(meld.wilds).replace('one ', 'a ')}")
        )
    elif meld.kind == "wild":
        what = f"{number(len(cards))} wild cards"
    elif meld.kind == "threes":
        what = f"{number(len(cards))} black threes, melded going out"
    else:
        what = f"a sequence of {number(len(cards))} in {SUIT_NAMES[cards[0].suit]}"
    kind = meld.canasta_kind(size)
    done = f", a {kind} canasta" if kind and kind != "sequence" else ", a sequence canasta" if kind else ""
    if meld.is_new:
        return f"{codes(cards)} is {'' if meld.kind == 'run' else 'a meld of '}{what}{done}."
    return f"{codes(meld.added)} goes on your {codes(meld.before)}: {what}{done}."


def _melds_findings(touched: Sequence[Laid], turn: Turn) -> list[Finding]:
    findings = []
    for meld in touched:
        findings += meld_findings(meld, turn)
    return findings


def _check_meld(rules: Variant, play: PlayRules, position: Position) -> Verdict:
    cards = [card for meld in position.melds for card in meld]
    left = len(position.hand) - len(cards)
    going_out = left <= 1
    touched, untouched, turn = _turn_melds(rules, play, position, going_out)
    findings = _melds_findings(touched, turn)
    count = None
    if not position.has_opened:
        found, count = _minimum_findings(rules, play, position, touched)
        findings += found
    if going_out:
        findings += _going_out_by_melding(rules, play, position, touched + untouched, left)
    else:
        findings.append(Finding("cards-left", f"You keep {number(left)} cards: discard one to end your turn.", None))
    findings += _red_threes_held(play, position.hand)
    return Verdict.from_findings(findings, count=count, minimum=rules.minimum_for(position.score))
