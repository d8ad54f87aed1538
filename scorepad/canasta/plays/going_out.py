"""Going out: every card melded, the canastas the variant asks for, the last discard.

>>> from scorepad.canasta.plays import check_request
>>> body = {"action": "go_out", "hand": ["K", "K", "K", "5"], "melds": [["K", "K", "K"]], "discard": "5"}
>>> check_request(body).legal, check_request({**body, "table": [["Q"] * 7]}).legal
(False, True)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..cards import Card, cards_value
from ..text import t
from ..variants import PlayRules, Variant
from .checks import canasta_count, canasta_findings, turn_melds
from .initial import minimum_findings
from .meld import melds_findings
from .melds import Laid, Turn, take
from .position import Position
from .special import check_special, is_special_question
from .verdict import Finding, Verdict
from .wording import codes, words_for

CONCEALED_NO_MINIMUM = t("Going out in one turn after drawing from the stock needs no initial-meld minimum.")
MAYBE_CONCEALED = t(
    "If you had melded nothing before and your partner made every meld on the table, this is going out concealed."
)
KEEP_A_LAST_DISCARD = t("To go out you must keep a card for a last discard.")
NO_DISCARD_NEEDED = t("You may go out with or without a last discard.")
RED_THREE_NOT_DISCARDED = t("A red three is laid out, never discarded.")


@dataclass(frozen=True)
class _GoingOut:
    """A player going out: the side's melds after this turn and the cards the player still holds."""

    rules: Variant
    play: PlayRules
    position: Position
    touched: list[Laid]
    untouched: list[Laid]
    turn: Turn
    left: list[Card]  # in the hand after the melds and the last discard

    @classmethod
    def of(cls, rules: Variant, play: PlayRules, position: Position) -> _GoingOut:
        """Lay this turn's melds and last discard out of the hand."""
        touched, untouched, turn = turn_melds(rules, play, position, going_out=True)
        _, left = take(position.hand, [card for meld in position.melds for card in meld])
        if position.discard is not None:
            _, left = take(left, [position.discard])
        return cls(rules, play, position, touched, untouched, turn, left)

    @property
    def concealed(self) -> bool:
        """Going out without the side having melded before, from the stock."""
        return not self.position.has_opened and not self.position.took_pile

    @property
    def red_threes_left(self) -> list[Card]:
        """Red threes still in the hand, where the variant lays them out."""
        return [card for card in self.left if card.is_red_three and not self.play.threes_held]


def check_go_out(rules: Variant, play: PlayRules, position: Position) -> Verdict:
    """Going out: every check in GOING_OUT_CHECKS, the opening, then whether it is concealed."""
    if is_special_question(rules, position):
        return check_special(rules, play, position)
    going = _GoingOut.of(rules, play, position)
    findings = [finding for check in GOING_OUT_CHECKS for finding in check(going)]
    opening, count = _opening(going)
    findings += opening
    findings += _concealed_notes(going, findings)
    return Verdict.from_findings(findings, count=count, minimum=rules.minimum_for(position.score))


def _melds_laid(going: _GoingOut) -> list[Finding]:
    return melds_findings(going.touched, going.turn)


def _cards_left(going: _GoingOut) -> list[Finding]:
    """Every card is melded, with at most one discard."""
    others = [card for card in going.left if card not in going.red_threes_left]
    if not others:
        return []
    return [
        Finding(
            "cards-left",
            t(
                "You still hold %(cards)s: to go out every card is melded, with at most one discard.",
                cards=codes(others),
            ),
            False,
        )
    ]


def _red_threes_left(going: _GoingOut) -> list[Finding]:
    reds = going.red_threes_left
    if not reds:
        return []
    text = t("Lay out %(cards)s first: red threes are never kept in the hand.", cards=codes(reds))
    return [Finding("red-three-held", text, False)]


def _canastas(going: _GoingOut) -> list[Finding]:
    return canasta_findings(going.rules, going.touched + going.untouched)


def _last_discard(going: _GoingOut) -> list[Finding]:
    return _going_out_discard(going.rules, going.play, going.position)


GOING_OUT_CHECKS = (_melds_laid, _cards_left, _red_threes_left, _canastas, _last_discard)


def _opening(going: _GoingOut) -> tuple[list[Finding], int | None]:
    """A side going out before it has melded: the minimum, unless it goes out concealed from the stock."""
    rules, position = going.rules, going.position
    if position.has_opened:
        return [], None
    if going.concealed and going.play.concealed_needs_no_minimum:
        count = cards_value(card for meld in going.touched for card in meld.added)
        return [Finding("concealed-no-minimum", CONCEALED_NO_MINIMUM, True)], count
    found, count = minimum_findings(rules, going.play, position, going.touched)
    if position.took_pile and not rules.initial_meld_from_hand:
        found = [
            replace(
                f,
                text=t(
                    "%(reason)s Only your hand cards and the top card count: the rest of the pile never does.",
                    reason=f.text,
                ),
            )
            for f in found
        ]
    return found, count


def _concealed_notes(going: _GoingOut, findings: list[Finding]) -> list[Finding]:
    """A legal going out that is, or may be, concealed: what it scores."""
    rules, position = going.rules, going.position
    if rules.concealed is None or any(f.obeyed is False for f in findings):
        return []
    if going.concealed:
        text = t(
            "Your side had not melded, so this is going out concealed: %(bonus)s for going out instead of %(points)s.",
            bonus=rules.going_out + rules.concealed,
            points=rules.going_out,
        )
        return [Finding("concealed", text, None)]
    # Playing alone (two players), melds on the table are your own. With a partner, going out
    # concealed means melding every card in this one turn without touching the partner's melds:
    # the canastas it needs are then among this turn's own melds, never the partner's.
    if (
        position.has_opened
        and rules.players > 2
        and all(m.is_new for m in going.touched)
        and canasta_count(rules, going.touched)[0]
    ):
        return [Finding("maybe-concealed", MAYBE_CONCEALED, None)]
    return []


def _going_out_discard(rules: Variant, play: PlayRules, position: Position) -> list[Finding]:
    card = position.discard
    if card is None:
        if play.going_out_needs_discard:
            return [Finding("going-out-needs-discard", KEEP_A_LAST_DISCARD, False)]
        return [Finding("no-discard", NO_DISCARD_NEEDED, None)]
    if card.is_red_three and not play.threes_held:
        return [Finding("discard-red-three", RED_THREE_NOT_DISCARDED, False)]
    if play.discard_only_going_out and (card.is_wild or card.is_three):
        text = t("Going out, your last discard may be %(card)s.", card=words_for(card).a)
        return [Finding("discard-going-out", text, True)]
    return [Finding("discard", t("You end by discarding %(card)s.", card=words_for(card).a), True)]
