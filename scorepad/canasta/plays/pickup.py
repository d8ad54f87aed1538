"""Taking the pile (docs/rules.md "Taking the pile"): the ways it may be taken, and a legal one found.

>>> from scorepad.canasta.plays import check_request
>>> frozen = {"action": "pickup", "pile": {"top": "Q", "frozen": True}, "table": [["K", "K", "K"]]}
>>> check_request({**frozen, "hand": ["Q", "Q", "5"]}).legal, check_request({**frozen, "hand": ["Q", "2", "5"]}).legal
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..cards import Card, cards_value
from ..text import Text, clause_list, t, tn
from ..variants import PlayRules, Variant
from .checks import going_out_by_melding, left_after, red_threes_held, turn_melds
from .initial import minimum_findings
from .meld import melds_findings
from .melds import Laid
from .placing import placed_check
from .position import Position
from .search import pickup_candidates
from .verdict import Finding, Verdict, first_applied
from .wording import CARDS, card_name, codes, holding, number

NO_WAY = t("No way to take the pile with this hand.")
TOP_BLACK_THREE = t("You can never take the pile while a black three (a stop card) is on top.")
TOP_RED_THREE = t("You can never take the pile while a red three is on top.")
ONE_CARD_PILE = t("With one card in your hand you may not take a pile of one card.")
FROZEN_BY_CARD = t("it holds a wild card or a red three turned up at the start")
FROZEN_NOT_OPENED = t("your side has not made its initial meld")
FROZEN_ALWAYS = t("your table plays it always frozen")
PAIR_ALWAYS = t("you always need a pair")
MUST_TAKE = t("With the stock gone you must take a discard that goes on one of your melds.")
NOT_ON_INITIAL_MELD = t(
    "At your table the pile is taken only by a side that made its initial meld before this turn: "
    "draw from the stock and meld from your hand."
)
TOP_IN_SEQUENCE = t("The top card never starts or extends a sequence.")


def check_pickup(rules: Variant, play: PlayRules, position: Position) -> Verdict:
    """Taking the pile: the player's melds judged, or a legal way found (``how``)."""
    minimum = rules.minimum_for(position.score)
    if position.melds:
        return _judge_pickup(rules, play, position)
    blocked = _pile_blocked(rules, position)
    if blocked:
        return Verdict.from_findings(blocked, minimum=minimum)
    judge = _Judge(rules, play, position)
    failures = []
    for melds in pickup_candidates(rules, play, position):
        verdict = judge(melds)
        if verdict.legal:
            melds = _trim(judge, melds)
            verdict = judge(melds)
            shown = "; ".join(codes(meld) for meld in melds)
            return replace(
                verdict, reasons=(t("Yes: meld %(melds)s and take the pile.", melds=shown), *verdict.reasons), how=melds
            )
        failures.append((len(verdict.problems), -(verdict.count or 0), len(failures), melds, verdict))
    if not failures:
        top = position.pile_top
        verdict = _judge_pickup(rules, play, replace(position, melds=((top,),)))
        return replace(verdict, reasons=(NO_WAY, *verdict.reasons))
    *_, melds, verdict = min(failures)
    pile_rules = [v for v in verdict.problems if v.code.startswith(("pickup", "pile", "one-card", "top-"))]
    if pile_rules:
        verdict = replace(verdict, reasons=tuple(v.message for v in pile_rules), problems=tuple(pile_rules))
    elif verdict.count is not None:
        shown = "; ".join(codes(meld) for meld in melds)
        lead = t(
            "The most you can lay down with the top %(card)s is %(melds)s.",
            card=card_name(position.pile_top),
            melds=shown,
        )
        verdict = replace(verdict, reasons=(lead, *verdict.reasons))
    return replace(verdict, reasons=(NO_WAY, *verdict.reasons))


def _pile_blocked(rules: Variant, position: Position) -> list[Finding]:
    """The pile cannot be taken at all: its top card, or the one-card rule."""
    top = position.pile_top
    found = []
    if top.is_wild:
        found.append(
            Finding(
                "pile-top-wild",
                t("You can never take the pile while a wild card (%(card)s) is on top.", card=card_name(top)),
                False,
            )
        )
    elif top.is_three:
        found.append(Finding("pile-top-three", TOP_BLACK_THREE if top.is_black_three else TOP_RED_THREE, False))
    if position.pile_size == 1 and len(position.hand) == 1 and position.whole_hand:
        found.append(Finding("one-card-pile", ONE_CARD_PILE, False))
    if rules.no_pickup_on_initial_meld and not position.has_opened:
        found.append(Finding("pickup-initial-meld", NOT_ON_INITIAL_MELD, False))
    return found


def _frozen_because(rules: Variant, position: Position) -> list[Text]:
    why = []
    if position.pile_frozen:
        why.append(FROZEN_BY_CARD)
    if not position.has_opened:
        why.append(FROZEN_NOT_OPENED)
    if rules.pile_frozen_always:
        why.append(FROZEN_ALWAYS)
    return why


def _judge_pickup(rules: Variant, play: PlayRules, position: Position) -> Verdict:
    top = position.pile_top
    minimum = rules.minimum_for(position.score)
    findings = _pile_blocked(rules, position)
    touched, untouched, turn = turn_melds(rules, play, position, going_out=False)
    findings += _top_meld_findings(rules, play, position, touched)
    findings += melds_findings(touched, turn)
    count = None
    if not position.has_opened:
        found, count = minimum_findings(rules, play, position, touched, top)
        findings += found
    melded_from_hand = sum(len(meld) for meld in position.melds) - 1
    if position.pile_size is not None and position.whole_hand:
        left = left_after(position, melded_from_hand, position.pile_size - 1)
        if left <= 1:
            findings += going_out_by_melding(rules, play, position, touched + untouched, left)
    if (
        position.stock_empty
        and not _frozen_because(rules, position)
        and any(m.kind == "rank" and m.rank == top.rank and not m.is_new for m in touched)
    ):
        findings.append(Finding("must-take", MUST_TAKE, None))
    findings += red_threes_held(play, position.hand)
    return Verdict.from_findings(findings, count=count, minimum=minimum)


def _top_meld_findings(rules: Variant, play: PlayRules, position: Position, touched: Sequence[Laid]) -> list[Finding]:
    """How the top card is melded, against the ways the pile may be taken (docs/rules.md "Taking the pile")."""
    top = position.pile_top
    if not top.is_natural:
        return []
    melds = sorted(
        (m for m in touched if m.kind == "rank" and _holds_rank(m.added, top.rank)),
        key=lambda m: (len(m.before), sorted(str(card) for card in m.cards)),
    )
    if not melds:
        return [_top_unmelded(rules, top, touched)]
    # The top card may be any card of its rank laid this turn: the meld where it takes the pile.
    ways = [first_applied(TAKING_WAYS, _TopMeld.of(rules, play, position, meld)) for meld in melds]
    return next((found for found in ways if all(f.obeyed for f in found)), ways[0])


def _holds_rank(cards: Sequence[Card], rank: str) -> bool:
    """A wild card alone on the meld of the top's rank does not meld the top card."""
    return any(card.rank == rank for card in cards)


def _top_unmelded(rules: Variant, top: Card, touched: Sequence[Laid]) -> Finding:
    """The top card is melded at once, and never into a sequence (where the variant has them)."""
    if rules.has_sequences and any(m.kind == "run" and any(card.rank == top.rank for card in m.added) for m in touched):
        return Finding("top-in-sequence", TOP_IN_SEQUENCE, False)
    text = t("To take the pile you must meld the top %(card)s now.", card=CARDS[top.rank].name)
    return Finding("top-not-melded", text, False)


@dataclass(frozen=True)
class _TopMeld:
    """The meld the top card goes into, and what the hand brings to it."""

    rules: Variant
    play: PlayRules
    meld: Laid
    name: Text  # the top card's rank in words: "king"
    names: Text  # "kings"
    naturals: list[Card]  # from the hand, beside the top card
    wilds: list[Card]
    rank: str  # the top card's rank
    held_cards: list[Card]  # what the hand holds toward a pair
    frozen: list[Text]  # why the pile is frozen; empty when it is not

    @classmethod
    def of(cls, rules: Variant, play: PlayRules, position: Position, meld: Laid) -> _TopMeld:
        """The top's meld with the top card taken out, and the hand toward a pair."""
        top = position.pile_top
        part = list(meld.added)
        part.remove(next(card for card in part if card.rank == top.rank))
        hand = position.hand
        return cls(
            rules=rules,
            play=play,
            meld=meld,
            name=CARDS[top.rank].name,
            names=CARDS[top.rank].plural,
            naturals=[card for card in part if card.is_natural],
            wilds=[card for card in part if card.is_wild],
            rank=top.rank,
            held_cards=[card for card in hand if card.rank == top.rank] + [card for card in hand if card.is_wild],
            frozen=_frozen_because(rules, position) if not play.pickup_pair_only else [PAIR_ALWAYS],
        )

    @property
    def held(self) -> Text:
        """What the hand holds toward a pair, in words: "one king and a joker", "no kings"."""
        return holding(self.held_cards, self.rank)

    @property
    def onto_canasta(self) -> bool:
        """The top card goes onto a completed canasta."""
        return len(self.meld.before) >= self.play.canasta

    @property
    def onto_canasta_ok(self) -> bool:
        """Going onto a canasta is allowed, or the meld is no canasta yet."""
        return not self.onto_canasta or (self.play.pickup_onto_canasta and self.rules.pickup_onto_canasta)


def _meld_full(way: _TopMeld) -> Finding | None:
    """American: a side meld of five or more blocks the pile, as a pair and the top would pass seven."""
    before, blocked_from = way.meld.before, way.play.pickup_blocked_from
    if not blocked_from or len(before) < blocked_from:
        return None
    return Finding(
        "pickup-meld-full",
        tn(
            "Your %(meld)s has %(count)s card: a pair and the top %(card)s would pass %(canasta)s, "
            "so you cannot take this pile.",
            "Your %(meld)s has %(count)s cards: a pair and the top %(card)s would pass %(canasta)s, "
            "so you cannot take this pile.",
            len(before),
            meld=codes(before),
            count=number(len(before)),
            card=way.name,
            canasta=number(way.play.canasta),
        ),
        False,
    )


def _never_onto_canasta(way: _TopMeld) -> Finding | None:
    """Samba: the top card alone goes onto a meld, never onto a completed canasta."""
    if not way.onto_canasta or way.play.pickup_onto_canasta or not way.play.pickup_onto_meld:
        return None
    text = t(
        "The top %(card)s never goes onto a completed canasta in %(variant)s.", card=way.name, variant=way.rules.name
    )
    return Finding("pickup-onto-canasta", text, False)


def _strict_pile_onto_canasta(way: _TopMeld) -> Finding | None:
    """Palace's strict discard pile: "Cards from the discard pile cannot be used to add cards to a canasta"."""
    if not way.onto_canasta or not way.rules.strict_discard_pile:
        return None
    text = t(
        "Your %(cards)s are a completed canasta, and with the strict discard pile no card from the pile is added "
        "to a canasta: the top %(card)s cannot go on it.",
        cards=way.names,
        card=way.name,
    )
    return Finding("pickup-onto-canasta", text, False)


def _natural_pair(way: _TopMeld) -> Finding | None:
    """Two natural cards of the top's rank take any pile."""
    if len(way.naturals) < 2:
        return None
    if way.frozen and not way.play.pickup_pair_only:
        text = t(
            "Two natural %(cards)s from your hand take the frozen pile with the top %(card)s.",
            cards=way.names,
            card=way.name,
        )
    else:
        text = t(
            "Two natural %(cards)s from your hand take the pile with the top %(card)s.", cards=way.names, card=way.name
        )
    return Finding("pickup-pair", text, True)


def _frozen_needs_pair(way: _TopMeld) -> Finding | None:
    """A frozen pile is taken only with a natural pair."""
    if not way.frozen:
        return None
    if way.play.pickup_pair_only:
        text = t(
            "In %(variant)s the pile is only taken with a natural pair: you need two natural %(cards)s in your hand; "
            "you have %(held)s.",
            variant=way.rules.name,
            cards=way.names,
            held=way.held,
        )
    else:
        text = t(
            "The pile is frozen (%(why)s): you need two natural %(cards)s in your hand; you have %(held)s.",
            why=clause_list(way.frozen),
            cards=way.names,
            held=way.held,
        )
    return Finding("pickup-needs-pair", text, False)


def _natural_and_wild(way: _TopMeld) -> Finding | None:
    """An open pile: one natural and a wild card, where the variant and the table allow it."""
    if not (way.naturals and way.wilds):
        return None
    name, names = way.name, way.names
    if not way.play.pickup_with_wild:
        text = t(
            "One %(card)s and a wild card do not take the pile in %(variant)s: you need two natural %(cards)s.",
            card=name,
            variant=way.rules.name,
            cards=names,
        )
        return Finding("pickup-with-wild-off", text, False)
    if not way.rules.pickup_with_wild:
        text = t(
            "One %(card)s and a wild card do not take the pile at your table: you need two natural %(cards)s.",
            card=name,
            cards=names,
        )
        return Finding("pickup-with-wild-off", text, False)
    if not way.onto_canasta_ok:
        text = t(
            "Your %(cards)s are a completed canasta: at your table only two natural %(cards)s take the pile onto it.",
            cards=names,
        )
        return Finding("pickup-onto-canasta", text, False)
    text = t("One natural %(card)s and a wild card take the pile with the top %(card)s.", card=name)
    return Finding("pickup-natural-wild", text, True)


def _onto_meld(way: _TopMeld) -> Finding | None:
    """An open pile: the top card alone onto the side's meld of its rank, where the variant allows it."""
    before, names = way.meld.before, way.names
    if not before:
        return None
    if not way.play.pickup_onto_meld:
        text = t("You need two natural %(cards)s in your hand; you have %(held)s.", cards=names, held=way.held)
        return Finding("pickup-needs-pair", text, False)
    if not way.onto_canasta_ok:
        text = t(
            "Your %(cards)s are a completed canasta, and at your table the pile is not taken just to add to one: "
            "you need two natural %(cards)s.",
            cards=names,
        )
        return Finding("pickup-onto-canasta", text, False)
    text = t("The top %(card)s goes on your %(meld)s, so you may take the pile.", card=way.name, meld=codes(before))
    return Finding("pickup-onto-meld", text, True)


def _no_way(way: _TopMeld) -> Finding:
    """None of the ways fits: name the ways this table allows."""
    words = {"cards": way.names, "card": way.name, "held": way.held}
    with_wild = way.play.pickup_with_wild and way.rules.pickup_with_wild
    if with_wild and way.play.pickup_onto_meld:
        text = t(
            "To take the pile you need two natural %(cards)s, one %(card)s with a wild card, or a meld of %(cards)s "
            "on the table; you have %(held)s.",
            **words,
        )
    elif with_wild:
        text = t(
            "To take the pile you need two natural %(cards)s, one %(card)s with a wild card; you have %(held)s.",
            **words,
        )
    elif way.play.pickup_onto_meld:
        text = t(
            "To take the pile you need two natural %(cards)s, or a meld of %(cards)s on the table; you have %(held)s.",
            **words,
        )
    else:
        text = t("To take the pile you need two natural %(cards)s; you have %(held)s.", **words)
    return Finding("pickup-no-match", text, False)


# The ways to take the pile, in the order they decide: the first that applies is the answer.
TAKING_WAYS = (
    _meld_full,
    _never_onto_canasta,
    _strict_pile_onto_canasta,
    _natural_pair,
    _frozen_needs_pair,
    _natural_and_wild,
    _onto_meld,
    _no_way,
)


class _Judge:
    """:func:`_judge_pickup` for one position with each set of melds tried, each judged once.

    The search tries a set of melds, trimming then tries it again without each extra meld
    (often the very set tried before it), and the answer is the trimmed set judged once more:
    the same position with the same melds always gets the same verdict, so each is remembered
    for this one question (nothing outlives the call).
    """

    def __init__(self, rules: Variant, play: PlayRules, position: Position) -> None:
        self.rules, self.play, self.position = rules, play, position
        self.verdicts: dict[tuple[tuple[Card, ...], ...], Verdict] = {}

    def __call__(self, melds: tuple[tuple[Card, ...], ...]) -> Verdict:
        verdict = self.verdicts.get(melds)
        if verdict is None:
            position = replace(self.position, melds=melds, onto=())
            verdict = placed_check(_judge_pickup, self.rules, self.play, position)
            self.verdicts[melds] = verdict
        return verdict


def _trim(judge: _Judge, melds: tuple[tuple[Card, ...], ...]) -> tuple[tuple[Card, ...], ...]:
    """Drop extra melds (smallest first) that a legal way to take the pile does not need."""
    melds = list(melds)
    for meld in sorted(melds[1:], key=cards_value):
        fewer = [m for m in melds if m is not meld]
        if judge(tuple(fewer)).legal:
            melds = fewer
    return tuple(melds)
