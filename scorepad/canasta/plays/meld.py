"""Melding: the rules every meld keeps (docs/rules.md "Melds"), and the meld action.

>>> from scorepad.canasta.plays import check_request
>>> check_request({"action": "meld", "hand": ["K", "K", "5"], "melds": [["K", "K"]]}).problems[0].code
'meld-too-small'
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card
from ..text import Text, and_list, t, tn
from ..variants import PlayRules, Variant
from .checks import CANASTA_KINDS, going_out_by_melding, red_threes_held, turn_melds
from .initial import minimum_findings
from .melds import SEQUENCE_RANKS, Laid, Turn, run_order
from .position import Position
from .verdict import Finding, Verdict, applied, first_applied
from .wording import CARDS, SUIT_NAMES, codes, describe, number

BLACK_THREES_NOT_GOING_OUT = t("Black threes are melded only when you go out, in your last turn.")


def meld_findings(meld: Laid, turn: Turn) -> list[Finding]:
    """Every meld rule this meld keeps or breaks, for its variant (docs/rules.md "Melds")."""
    judge = {"rank": _rank_meld, "wild": _wild_meld, "threes": _three_meld, "run": _run_meld}[meld.kind]
    findings = judge(meld, turn)
    if not any(f.obeyed is False for f in findings):
        findings.append(Finding("meld", _meld_sentence(meld, turn.play.canasta), True))
    return findings


# --- a meld of one rank -----------------------------------------------------------------------
def _names(meld: Laid) -> Text:
    return CARDS[meld.rank].plural


def _added_wilds(meld: Laid) -> list[Card]:
    return [card for card in meld.added if card.is_wild]


def _rank_too_small(meld: Laid, turn: Turn) -> Finding | None:
    """A meld is at least three cards."""
    cards, rank = meld.cards, meld.rank
    if len(cards) >= 3:
        return None
    wild_helps = rank not in turn.play.pure_ranks and len(meld.naturals) + 3 - len(cards) >= 3
    shown, words = codes(cards), CARDS[rank]
    if len(cards) == 1 and wild_helps:
        text = t(
            "%(meld)s is only one card: a meld needs at least three (add two more %(cards)s, or one "
            "more and a wild card).",
            meld=shown,
            cards=words.plural,
        )
    elif len(cards) == 1:
        text = t(
            "%(meld)s is only one card: a meld needs at least three (add two more %(cards)s).",
            meld=shown,
            cards=words.plural,
        )
    elif wild_helps:
        text = t(
            "%(meld)s is only two cards: a meld needs at least three (add another %(card)s or a wild card).",
            meld=shown,
            card=words.name,
        )
    else:
        text = t(
            "%(meld)s is only two cards: a meld needs at least three (add another %(card)s).",
            meld=shown,
            card=words.name,
        )
    return Finding("meld-too-small", text, False)


def _too_few_naturals(meld: Laid, turn: Turn) -> Finding | None:
    """A meld of three or more holds at least two natural cards of its rank."""
    if len(meld.cards) < 3 or len(meld.naturals) >= 2:
        return None
    return Finding(
        "too-few-naturals",
        t(
            "%(meld)s has %(naturals)s: a meld needs at least two natural %(cards)s.",
            meld=codes(meld.cards),
            naturals=describe(meld.naturals),
            cards=_names(meld),
        ),
        False,
    )


def _is_pure_with_wilds(meld: Laid, turn: Turn) -> bool:
    return bool(meld.wilds) and meld.rank in turn.play.pure_ranks


def _pure_rank_wild(meld: Laid, turn: Turn) -> Finding | None:
    """Some ranks never take wild cards (American sevens)."""
    if not _is_pure_with_wilds(meld, turn):
        return None
    return Finding(
        "pure-rank-wild",
        t(
            "A meld of %(cards)s never takes wild cards: leave %(wilds)s out.",
            cards=_names(meld),
            wilds=describe(meld.wilds, lead="the"),
        ),
        False,
    )


def _opening_wild_rank(meld: Laid, turn: Turn) -> bool:
    """Wild cards go on this meld, of a rank that takes them only from the initial meld (American aces)."""
    return (
        not _is_pure_with_wilds(meld, turn) and bool(_added_wilds(meld)) and meld.rank in turn.play.opening_wild_ranks
    )


def _pure_meld_stays_pure(meld: Laid, turn: Turn) -> Finding | None:
    """Such a meld begun without wild cards never takes one."""
    if not _opening_wild_rank(meld, turn) or meld.is_new or any(card.is_wild for card in meld.before):
        return None
    return Finding(
        "pure-meld-stays-pure",
        t("Your %(cards)s began without wild cards, so they can never take one.", cards=_names(meld)),
        False,
    )


def _wild_only_in_opening(meld: Laid, turn: Turn) -> Finding | None:
    """Such a meld takes wild cards only as part of the side's initial meld."""
    if not _opening_wild_rank(meld, turn) or not meld.is_new or turn.opening:
        return None
    text = t(
        "A meld of %(cards)s takes wild cards only when it is part of your side's initial meld; meld "
        "the %(cards)s pure.",
        cards=_names(meld),
    )
    return Finding("wild-only-in-opening", text, False)


def _too_many_wilds(meld: Laid, turn: Turn) -> Finding | None:
    """One meld holds at most the variant's number of wild cards."""
    wilds, most = len(meld.wilds), turn.rules.wild_limit
    if wilds <= most:
        return None
    return Finding(
        "too-many-wilds",
        tn(
            "%(meld)s holds %(count)s wild card: one meld may hold at most %(most)s.",
            "%(meld)s holds %(count)s wild cards: one meld may hold at most %(most)s.",
            wilds,
            meld=codes(meld.cards),
            count=number(wilds),
            most=number(most),
        ),
        False,
    )


def _wilds_outnumber_naturals(meld: Laid, turn: Turn) -> Finding | None:
    """Wild cards never outnumber the naturals (unless the house rule is off)."""
    rules, naturals, wilds = turn.rules, len(meld.naturals), len(meld.wilds)
    if wilds > rules.wild_limit or not rules.wilds_not_more_than_naturals or wilds <= naturals or naturals < 2:
        return None
    return Finding(
        "wilds-outnumber-naturals",
        tn(
            "%(meld)s has %(count)s wild card and only %(naturals)s natural %(cards)s: "
            "wild cards may never outnumber naturals (add %(card)s or leave a wild card out).",
            "%(meld)s has %(count)s wild cards and only %(naturals)s natural %(cards)s: "
            "wild cards may never outnumber naturals (add %(card)s or leave a wild card out).",
            wilds,
            meld=codes(meld.cards),
            count=number(wilds),
            naturals=number(naturals),
            cards=_names(meld),
            card=CARDS[meld.rank].a,
        ),
        False,
    )


def _rank_too_long(meld: Laid, turn: Turn) -> Finding | None:
    """Where the variant caps a meld (American seven), no meld grows past it."""
    cap = turn.rules.meld_cap
    if not cap or len(meld.cards) <= cap:
        return None
    return Finding(
        "meld-too-long",
        tn(
            "%(meld)s would make %(cards)s: no meld may hold more than %(count)s card.",
            "%(meld)s would make %(cards)s: no meld may hold more than %(count)s cards.",
            cap,
            meld=meld.words,
            cards=CARDS[meld.rank].counted(len(meld.cards)),
            count=number(cap),
        ),
        False,
    )


def _wild_meld_open(meld: Laid, turn: Turn) -> Finding | None:
    """While the side's meld of wild cards is unfinished, wild cards go only there."""
    added = _added_wilds(meld)
    if not added or not turn.wild_meld_open or meld.rank in turn.play.pure_ranks:
        return None
    return Finding(
        "wild-meld-open",
        t(
            "While your side's meld of wild cards is unfinished, no wild card goes on any other meld: "
            "keep %(cards)s for it.",
            cards=codes(added),
        ),
        False,
    )


def _wild_onto_canasta(meld: Laid, turn: Turn) -> Finding | None:
    """Samba family: no wild card is ever added to a completed canasta (Official Canasta Laws).

    Nor with Palace's strict wild cards: "Wild cards cannot be added to a canasta."
    """
    added = _added_wilds(meld)
    if not added or len(meld.before) < turn.play.canasta:
        return None
    if turn.play.wild_onto_canasta and turn.rules.strict_wild_cards:
        return Finding(
            "wild-onto-canasta",
            t(
                "Your %(meld)s is a completed canasta, and with strict wild cards no wild card is added to one: "
                "keep %(cards)s.",
                meld=codes(meld.before),
                cards=codes(added),
            ),
            False,
        )
    if turn.play.wild_onto_canasta:
        return None
    return Finding(
        "wild-onto-canasta",
        t(
            "Your %(meld)s is a completed canasta, and in %(variant)s no wild card is ever added to "
            "one: keep %(cards)s.",
            meld=codes(meld.before),
            variant=turn.rules.name,
            cards=codes(added),
        ),
        False,
    )


def _strict_five_naturals(meld: Laid, turn: Turn) -> Finding | None:
    """Palace's strict wild cards: "After the first meld, at least five natural cards need to be used
    before adding wild cards" (a meld that takes wild cards after the side's initial meld holds five naturals).
    """
    added = _added_wilds(meld)
    naturals = len(meld.naturals)
    if not turn.rules.strict_wild_cards or not added or turn.opening or naturals >= 5:
        return None
    return Finding(
        "wild-needs-five-naturals",
        tn(
            "After your side's initial meld, with strict wild cards, wild cards go only on a meld of at least "
            "five natural cards: %(meld)s has %(count)s natural card, so keep %(cards)s.",
            "After your side's initial meld, with strict wild cards, wild cards go only on a meld of at least "
            "five natural cards: %(meld)s has %(count)s natural cards, so keep %(cards)s.",
            naturals,
            meld=meld.words,
            count=number(naturals),
            cards=codes(added),
        ),
        False,
    )


RANK_MELD_CHECKS = (
    _rank_too_small,
    _too_few_naturals,
    _pure_rank_wild,
    _pure_meld_stays_pure,
    _wild_only_in_opening,
    _too_many_wilds,
    _wilds_outnumber_naturals,
    _rank_too_long,
    _wild_meld_open,
    _wild_onto_canasta,
    _strict_five_naturals,
)


# --- a meld of wild cards ---------------------------------------------------------------------
def _no_wild_melds(meld: Laid, turn: Turn) -> Finding | None:
    """Only some variants meld wild cards alone."""
    rules = turn.rules
    if rules.has_wild_melds:
        return None
    return Finding(
        "wild-meld-not-allowed",
        t(
            "%(meld)s is wild cards alone, and %(variant)s has no melds of wild cards: "
            "a meld needs at least two natural cards of one rank.",
            meld=codes(meld.cards),
            variant=rules.name,
        ),
        False,
    )


def _wild_too_small(meld: Laid, turn: Turn) -> Finding | None:
    cards, low = meld.cards, turn.play.wild_meld_cards[0]
    if len(cards) >= low:
        return None
    return Finding(
        "meld-too-small",
        tn(
            "%(meld)s is only %(count)s wild card: a meld of wild cards needs at least %(least)s.",
            "%(meld)s is only %(count)s wild cards: a meld of wild cards needs at least %(least)s.",
            len(cards),
            meld=codes(cards),
            count=number(len(cards)),
            least=number(low),
        ),
        False,
    )


def _wild_too_long(meld: Laid, turn: Turn) -> Finding | None:
    cards, high = meld.cards, turn.play.wild_meld_cards[1]
    if len(cards) <= high:
        return None
    return Finding(
        "meld-too-long",
        tn(
            "%(meld)s would make %(count)s wild card: a meld of wild cards stops at %(most)s.",
            "%(meld)s would make %(count)s wild cards: a meld of wild cards stops at %(most)s.",
            len(cards),
            meld=meld.words,
            count=number(len(cards)),
            most=number(high),
        ),
        False,
    )


WILD_MELD_CHECKS = (_no_wild_melds, _wild_too_small, _wild_too_long)  # the first that applies


# --- threes -----------------------------------------------------------------------------------
def _red_three_melded(meld: Laid, turn: Turn) -> Finding | None:
    """Red threes are bonus cards, never melded."""
    reds = [card for card in meld.cards if card.is_red_three]
    if not reds:
        return None
    return Finding(
        "red-three-melded",
        t("%(cards)s: red threes are never melded; they are laid out on their own as bonus cards.", cards=codes(reds)),
        False,
    )


def _threes_never_melded(meld: Laid, turn: Turn) -> Finding | None:
    """Where black threes never go out in a meld (American), threes are never melded."""
    if turn.play.black_threes_going_out:
        return None
    return Finding(
        "three-melded",
        t("Threes are never melded in %(variant)s: they are laid out beside your melds.", variant=turn.rules.name),
        False,
    )


def _not_threes(meld: Laid) -> list[Card]:
    return [card for card in meld.cards if not card.is_three]


def _black_threes_mixed(meld: Laid, turn: Turn) -> Finding | None:
    others = _not_threes(meld)
    if not others:
        return None
    return Finding(
        "black-threes-mixed",
        t("Black threes are melded only with each other: leave %(cards)s out.", cards=codes(others)),
        False,
    )


def _black_threes_not_going_out(meld: Laid, turn: Turn) -> Finding | None:
    if turn.going_out:
        return None
    return Finding("black-threes-not-going-out", BLACK_THREES_NOT_GOING_OUT, False)


def _black_threes_count(meld: Laid, turn: Turn) -> Finding | None:
    threes = len(meld.cards) - len(_not_threes(meld))
    low, high = turn.play.black_three_cards
    if low <= threes <= high:
        return None
    return Finding(
        "black-threes-count",
        t("A meld of black threes holds three or four of them, not %(count)s.", count=number(threes)),
        False,
    )


THREES_REFUSED = (_red_three_melded, _threes_never_melded)  # the first that applies
BLACK_THREE_CHECKS = (_black_threes_mixed, _black_threes_not_going_out, _black_threes_count)


# --- a sequence -------------------------------------------------------------------------------
def _ranks(meld: Laid) -> list[str]:
    return sorted({card.rank for card in meld.naturals}, key=SEQUENCE_RANKS.index)


def _no_sequences(meld: Laid, turn: Turn) -> Finding | None:
    """Cards of several ranks are a meld only where the variant has sequences."""
    rules = turn.rules
    if rules.has_sequences:
        return None
    return Finding(
        "mixed-ranks",
        t(
            "%(meld)s mixes %(ranks)s: a meld is cards of one rank.",
            meld=codes(meld.cards),
            ranks=and_list([CARDS[rank].plural for rank in reversed(_ranks(meld))]),
        ),
        False,
    )


def _wild_in_sequence(meld: Laid, turn: Turn) -> Finding | None:
    if not meld.wilds:
        return None
    return Finding(
        "wild-in-sequence",
        t("A sequence takes no wild cards: leave %(wilds)s out.", wilds=describe(meld.wilds, lead="the")),
        False,
    )


def _unsuited(meld: Laid) -> list[Card]:
    return [card for card in meld.naturals if card.suit is None]


def _sequence_needs_suits(meld: Laid, turn: Turn) -> Finding | None:
    unsuited = _unsuited(meld)
    if not unsuited:
        return None
    return Finding(
        "sequence-needs-suits",
        t("A sequence is cards of one suit: give the suit of %(cards)s.", cards=describe(unsuited, lead="the")),
        False,
    )


def _sequence_mixed_suits(meld: Laid, turn: Turn) -> Finding | None:
    naturals = meld.naturals
    if len({card.suit for card in naturals}) <= 1:
        return None
    text = t("%(meld)s mixes suits: a sequence is one suit.", meld=codes(run_order(naturals)))
    return Finding("sequence-mixed-suits", text, False)


def _sequence_repeats(meld: Laid, turn: Turn) -> Finding | None:
    naturals = meld.naturals
    if len(_ranks(meld)) >= len(naturals):
        return None
    return Finding(
        "sequence-repeats",
        t("%(meld)s repeats a rank: a sequence has each rank once.", meld=codes(run_order(naturals))),
        False,
    )


def _sequence_gap(meld: Laid, turn: Turn) -> Finding | None:
    ranks = _ranks(meld)
    places = [SEQUENCE_RANKS.index(rank) for rank in ranks]
    missing = [r for r in SEQUENCE_RANKS[places[0] : places[-1] + 1] if r not in ranks]
    if not missing:
        return None
    return Finding(
        "sequence-gap",
        t(
            "%(meld)s has a gap: a sequence runs without one (it lacks %(cards)s).",
            meld=codes(run_order(meld.naturals)),
            cards=and_list([CARDS[rank].a for rank in missing], commas=False),
        ),
        False,
    )


def _sequence_too_small(meld: Laid, turn: Turn) -> Finding | None:
    if len(meld.cards) >= turn.play.sequence_cards[0]:
        return None
    text = t("%(meld)s is too short: a sequence needs at least three cards.", meld=codes(meld.cards))
    return Finding("meld-too-small", text, False)


def _sequence_too_long(meld: Laid, turn: Turn) -> Finding | None:
    cards = meld.cards
    if len(cards) <= turn.play.sequence_cards[1]:
        return None
    text = tn(
        "%(meld)s would be %(count)s card: a sequence stops at seven.",
        "%(meld)s would be %(count)s cards: a sequence stops at seven.",
        len(cards),
        meld=meld.words,
        count=number(len(cards)),
    )
    return Finding("meld-too-long", text, False)


SUITED_SEQUENCE_CHECKS = (
    _sequence_mixed_suits,
    _sequence_repeats,
    _sequence_gap,
    _sequence_too_small,
    _sequence_too_long,
)


# --- every kind -------------------------------------------------------------------------------
def _rank_meld(meld: Laid, turn: Turn) -> list[Finding]:
    return applied(RANK_MELD_CHECKS, meld, turn)


def _wild_meld(meld: Laid, turn: Turn) -> list[Finding]:
    return first_applied(WILD_MELD_CHECKS, meld, turn)


def _three_meld(meld: Laid, turn: Turn) -> list[Finding]:
    return first_applied(THREES_REFUSED, meld, turn) or applied(BLACK_THREE_CHECKS, meld, turn)


def _run_meld(meld: Laid, turn: Turn) -> list[Finding]:
    """Sequences first need the variant, then suits on every card, before order and length."""
    refused = first_applied((_no_sequences,), meld, turn)
    if refused:
        return refused
    found = applied((_wild_in_sequence, _sequence_needs_suits), meld, turn)
    if _unsuited(meld):
        return found
    return found + applied(SUITED_SEQUENCE_CHECKS, meld, turn)


def _meld_words(meld: Laid) -> Text:
    """What the meld is, in words: "four kings", "two kings with a joker", "a sequence of five in hearts"."""
    cards = meld.cards
    count = len(cards)
    if meld.kind == "rank" and not meld.wilds:
        return CARDS[meld.rank].counted(count)
    if meld.kind == "rank":
        # Translators: natural cards with wild cards: "two kings with a joker".
        return t("%(naturals)s with %(wilds)s", naturals=describe(meld.naturals), wilds=describe(meld.wilds, lead="a"))
    if meld.kind == "wild":
        return tn("%(count)s wild card", "%(count)s wild cards", count, count=number(count))
    if meld.kind == "threes":
        return tn(
            "%(count)s black three, melded going out",
            "%(count)s black threes, melded going out",
            count,
            count=number(count),
        )
    return tn(
        "a sequence of %(count)s in %(suit)s",
        "a sequence of %(count)s in %(suit)s",
        count,
        count=number(count),
        suit=SUIT_NAMES[cards[0].suit],
    )


def _meld_sentence(meld: Laid, size: int) -> Text:
    what = _meld_words(meld)
    kind = meld.canasta_kind(size)
    canasta = CANASTA_KINDS[kind] if kind else None
    if meld.is_new:
        shown = codes(meld.cards)
        if meld.kind == "run":
            if canasta:
                return t("%(meld)s is %(what)s, %(canasta)s.", meld=shown, what=what, canasta=canasta)
            return t("%(meld)s is %(what)s.", meld=shown, what=what)
        if canasta:
            return t("%(meld)s is a meld of %(what)s, %(canasta)s.", meld=shown, what=what, canasta=canasta)
        return t("%(meld)s is a meld of %(what)s.", meld=shown, what=what)
    added, before = codes(meld.added), codes(meld.before)
    if canasta:
        return t(
            "%(cards)s goes on your %(meld)s: %(what)s, %(canasta)s.",
            cards=added,
            meld=before,
            what=what,
            canasta=canasta,
        )
    return t("%(cards)s goes on your %(meld)s: %(what)s.", cards=added, meld=before, what=what)


def melds_findings(touched: Sequence[Laid], turn: Turn) -> list[Finding]:
    """Every meld rule each touched meld keeps or breaks."""
    findings = []
    for meld in touched:
        findings += meld_findings(meld, turn)
    return findings


def check_meld(rules: Variant, play: PlayRules, position: Position) -> Verdict:
    """Melding: the meld rules, the initial meld, and going out when few cards are left."""
    cards = [card for meld in position.melds for card in meld]
    left = len(position.hand) - len(cards)
    going_out = left <= 1 and position.whole_hand  # only the cards asked about: the rest of the hand is unknown
    touched, untouched, turn = turn_melds(rules, play, position, going_out)
    findings = melds_findings(touched, turn)
    count = None
    if not position.has_opened:
        found, count = minimum_findings(rules, play, position, touched)
        findings += found
    if going_out:
        findings += going_out_by_melding(rules, play, position, touched + untouched, left)
    elif position.whole_hand:
        text = tn(
            "You keep %(count)s card: discard one to end your turn.",
            "You keep %(count)s cards: discard one to end your turn.",
            left,
            count=number(left),
        )
        findings.append(Finding("cards-left", text, None))
    findings += red_threes_held(play, position.hand)
    return Verdict.from_findings(findings, count=count, minimum=rules.minimum_for(position.score))
