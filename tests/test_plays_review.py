"""An independent review of the rules checker: docs/rules.md "What the checker decides" case by case,
worked out by hand from docs/rules.md and the rulebooks (pagat, Bicycle, the Hoyle program, Canasta
Palace) before reading plays.py. Each case names the rule it checks; `count` and `minimum` are asserted where given."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.canasta import InvalidError
from scorepad.canasta.plays import check_request

SEVEN_KINGS = ["K"] * 7
MIXED_QUEENS = ["Q"] * 5 + ["2C", "JK"]
SEQUENCE_HEARTS = ["4H", "5H", "6H", "7H", "8H", "9H", "10H"]


def case(name, variant, body, legal, count=None, minimum=None, **options):
    """One row of the table: the request, the verdict, and the count and minimum expected."""
    request = {"variant": variant, "options": options, **body}
    return pytest.param(request, legal, count, minimum, id=name)


def meld(hand, melds, table=(), score=0, **extra):
    return {"action": "meld", "hand": hand, "melds": melds, "table": list(table), "score": score, **extra}


def pickup(top, hand, melds=None, table=(), score=0, frozen=False, size=10, **extra):
    body = {"action": "pickup", "hand": hand, "table": list(table), "score": score}
    body["pile"] = {"top": top, "frozen": frozen, "size": size}
    if melds is not None:
        body["melds"] = melds
    return {**body, **extra}


def go_out(hand, melds, discard=None, table=(), score=0, **extra):
    body = {"action": "go_out", "hand": hand, "melds": melds, "table": list(table), "score": score}
    if discard is not None:
        body["discard"] = discard
    return {**body, **extra}


def discard(card, hand, table=(), size=10, **extra):
    return {"action": "discard", "hand": hand, "discard": card, "table": list(table), "pile": {"size": size}, **extra}


CASES = [
    # ---- melds, classic family --------------------------------------------------------------
    # "Melds": "3 or more cards of one natural rank": a pair is no meld.
    case("classic-pair-is-no-meld", "classic", meld(["K", "K", "Q", "5", "6"], [["K", "K"]], [["9"] * 3]), False),
    # "Melds": "3 or more cards of one natural rank": mixed ranks are no meld (no sequences in classic).
    case("classic-mixed-ranks", "classic", meld(["K", "K", "Q", "5", "6"], [["K", "K", "Q"]], [["9"] * 3]), False),
    case(
        "classic-run-is-no-meld",
        "classic",
        meld(["4H", "5H", "6H", "9", "K"], [["4H", "5H", "6H"]], [["9"] * 3]),
        False,
    ),
    # "Melds": "at least 2 naturals": K + two wilds.
    case("classic-one-natural", "classic", meld(["K", "2C", "JK", "5", "6"], [["K", "2C", "JK"]], [["9"] * 3]), False),
    # "Melds": 2 naturals + 2 wilds: wilds do not outnumber naturals.
    case(
        "classic-2n-2w", "classic", meld(["K", "K", "2C", "JK", "5", "6"], [["K", "K", "2C", "JK"]], [["9"] * 3]), True
    ),
    # "Melds": wilds_not_more_than_naturals: 2 naturals + 3 wilds refused by default...
    case(
        "classic-2n-3w",
        "classic",
        meld(["K", "K", "2C", "2D", "JK", "5", "6"], [["K", "K", "2C", "2D", "JK"]], [["9"] * 3]),
        False,
    ),
    # ... and allowed with it off (Bicycle's literal "2+ naturals, 3 wilds at most").
    case(
        "classic-2n-3w-option-off",
        "classic",
        meld(["K", "K", "2C", "2D", "JK", "5", "6"], [["K", "K", "2C", "2D", "JK"]], [["9"] * 3]),
        True,
        wilds_not_more_than_naturals=False,
    ),
    # "Melds": max_wilds 3: a fourth wild on a canasta is refused even with many naturals.
    case(
        "classic-fourth-wild",
        "classic",
        meld(["K", "JK", "5", "6"], [["K", "JK"]], [["K"] * 4 + ["2C", "2D", "2H"]]),
        False,
    ),
    # "Melds": max_wilds option 2: two wilds fine, three refused.
    case(
        "classic-max-wilds-2-ok",
        "classic",
        meld(["K", "K", "K", "2C", "JK", "5", "6"], [["K", "K", "K", "2C", "JK"]], [["9"] * 3]),
        True,
        max_wilds=2,
    ),
    case(
        "classic-max-wilds-2-three",
        "classic",
        meld(["K", "K", "K", "K", "2C", "2D", "JK", "5", "6"], [["K", "K", "K", "K", "2C", "2D", "JK"]], [["9"] * 3]),
        False,
        max_wilds=2,
    ),
    # "Melds": "one meld per rank per side": K-K-2 next to K-K-K-2-2-JK is an addition: 5 naturals, 4 wilds.
    case(
        "classic-same-rank-is-addition",
        "classic",
        meld(["K", "K", "2H", "5", "6"], [["K", "K", "2H"]], [["K", "K", "K", "2C", "2D", "JK"]]),
        False,
    ),
    # ... and a legal addition: K-K onto K-K-K-2-2-JK (5 naturals, 3 wilds).
    case(
        "classic-addition-ok",
        "classic",
        meld(["K", "K", "5", "6"], [["K", "K"]], [["K", "K", "K", "2C", "2D", "JK"]]),
        True,
    ),
    # "Melds": classic melds can pass 7 cards (only American caps at 7).
    case("classic-eighth-card", "classic", meld(["K", "5", "6"], [["K"]], [SEVEN_KINGS]), True),
    # "Melds": "no meld of wild cards alone unless the variant has wild canastas".
    # (With no meld of a rank to go on: on a 9-9-9 they are three wild cards added to it, issue #31.)
    case(
        "classic-wild-meld",
        "classic",
        meld(["2C", "2D", "JK", "5", "6"], [["2C", "2D", "JK"]], initial_meld_done=True),
        False,
    ),
    case(
        "classic-wild-meld-wild-canasta",
        "classic",
        meld(["2C", "2D", "JK", "5", "6"], [["2C", "2D", "JK"]], [["9"] * 3]),
        True,
        wild_canasta="1000",
    ),
    # Palace: a wild canasta is limited to seven cards.
    case(
        "classic-wild-meld-8",
        "classic",
        meld(["2C", "5", "6"], [["2C"]], [["2D", "2D", "2H", "2H", "JK", "JK", "JK"]]),
        False,
        wild_canasta="palace",
    ),
    # "Melds": / README: while the wild meld is unfinished, no wild card goes on any other meld.
    case(
        "classic-wild-lock",
        "classic",
        meld(["Q", "Q", "2H", "5", "6"], [["Q", "Q", "2H"]], [["2C", "2D", "JK"], ["9"] * 3]),
        False,
        wild_canasta="palace",
    ),
    case(
        "classic-wild-lock-naturals-fine",
        "classic",
        meld(["Q", "Q", "Q", "5", "6"], [["Q", "Q", "Q"]], [["2C", "2D", "JK"], ["9"] * 3]),
        True,
        wild_canasta="palace",
    ),
    # "Melds": threes never: red threes are laid out, never melded.
    case("classic-red-threes", "classic", meld(["3H", "3H", "3D", "5", "6"], [["3H", "3H", "3D"]], [["9"] * 3]), False),
    # "Melds": black threes only when going out.
    case(
        "classic-black-threes-not-out",
        "classic",
        meld(["3S", "3S", "3C", "5", "6"], [["3S", "3S", "3C"]], [["9"] * 3]),
        False,
    ),
    # "House rules" sequences: runs allowed in classic with `sequences` on.
    case(
        "classic-sequences-option",
        "classic",
        meld(["4H", "5H", "6H", "9", "K"], [["4H", "5H", "6H"]], [["9"] * 3]),
        True,
        sequences=True,
    ),
    # ---- initial meld ----------------------------------------------------------------------
    # "Presets": minimum 50 at 0: K-K-K counts 30.
    case("initial-30-below-50", "classic", meld(["K", "K", "K", "Q", "5"], [["K", "K", "K"]]), False, 30, 50),
    # K-K-K + A-A-A = 90.
    case(
        "initial-90-over-50",
        "classic",
        meld(["K", "K", "K", "A", "A", "A", "5", "6"], [["K", "K", "K"], ["A", "A", "A"]]),
        True,
        90,
        50,
    ),
    # below 0: 15; 4-4-4 counts exactly 15.
    case(
        "initial-negative-15", "classic", meld(["4", "4", "4", "K", "9"], [["4", "4", "4"]], score=-100), True, 15, 15
    ),
    # 1500: 90; A-A-A + K-K-2 = 100.
    case(
        "initial-1500-90",
        "classic",
        meld(["A", "A", "A", "K", "K", "2C", "Q", "9"], [["A", "A", "A"], ["K", "K", "2C"]], score=1500),
        True,
        100,
        90,
    ),
    # 3000: 120; JK-A-A + K-K-K = 120 exactly.
    case(
        "initial-3000-120",
        "classic",
        meld(["JK", "A", "A", "K", "K", "K", "9", "5"], [["JK", "A", "A"], ["K", "K", "K"]], score=3000),
        True,
        120,
        120,
    ),
    case(
        "initial-2995-90",
        "classic",
        meld(["JK", "A", "A", "K", "K", "K", "9", "5"], [["JK", "A", "A"], ["K", "K", "K"]], score=2995),
        True,
        120,
        90,
    ),
    # harder_first_meld: below 0 needs 50.
    case(
        "initial-harder-below-0",
        "classic",
        meld(["4", "4", "4", "K", "9"], [["4", "4", "4"]], score=-100),
        False,
        15,
        50,
        harder_first_meld=True,
    ),
    # classic-6p-2x3 at 7000: 150; classic-6p-3x2 stays 120.
    case(
        "initial-6p-2x3-7000",
        "classic-6p-2x3",
        meld(["JK", "A", "A", "K", "K", "K", "9", "5"], [["JK", "A", "A"], ["K", "K", "K"]], score=7000),
        False,
        120,
        150,
    ),
    case(
        "initial-6p-3x2-7000",
        "classic-6p-3x2",
        meld(["JK", "A", "A", "K", "K", "K", "9", "5"], [["JK", "A", "A"], ["K", "K", "K"]], score=7000),
        True,
        120,
        120,
    ),
    # classic-3p: the player's own total (here 1500: 90).
    case(
        "initial-3p-own-total",
        "classic-3p",
        meld(["A", "A", "A", "K", "9"], [["A", "A", "A"]], score=1500),
        False,
        60,
        90,
    ),
    # bonuses never count: a natural canasta of fives counts 35, not 535.
    case(
        "initial-canasta-bonus-never-counts",
        "classic",
        meld(["5"] * 7 + ["K", "Q"], [["5"] * 7], score=3000),
        False,
        35,
        120,
    ),
    # with a pickup the top card counts: A-A + top A = 60 >= 50.
    case(
        "initial-pickup-top-counts", "classic", pickup("A", ["A", "A", "5", "6", "9"], [["A", "A", "A"]]), True, 60, 50
    ),
    # top_counts_for_minimum off: A-A from the hand count 40 only.
    case(
        "initial-pickup-top-not-counted",
        "classic",
        pickup("A", ["A", "A", "5", "6", "9"], [["A", "A", "A"]]),
        False,
        top_counts_for_minimum=False,
    ),
    case(
        "initial-pickup-top-not-counted-enough",
        "classic",
        pickup("A", ["A", "A", "K", "K", "K", "9"], [["A", "A", "A"], ["K", "K", "K"]]),
        True,
        top_counts_for_minimum=False,
    ),
    # samba at 7000: 160; A-A-A-A-JK + K-K-K = 160.
    case(
        "initial-samba-7000",
        "samba",
        meld(
            ["A", "A", "A", "A", "JK", "K", "K", "K", "5", "6"],
            [["A", "A", "A", "A", "JK"], ["K", "K", "K"]],
            score=7000,
        ),
        True,
        160,
        160,
    ),
    case(
        "initial-bolivia-7000",
        "bolivia",
        meld(
            ["A", "A", "A", "A", "JK", "K", "K", "K", "5", "6"],
            [["A", "A", "A", "A", "JK"], ["K", "K", "K"]],
            score=7000,
        ),
        True,
        160,
        150,
    ),
    # ---- taking the pile, classic family -----------------------------------------------------
    # unfrozen: a natural pair.
    case("pickup-pair", "classic", pickup("K", ["K", "K", "5", "6"], [["K", "K", "K"]], [["9"] * 3]), True),
    # unfrozen: one natural + one wild (pickup_with_wild).
    case("pickup-natural-wild", "classic", pickup("K", ["K", "2C", "5", "6"], [["K", "K", "2C"]], [["9"] * 3]), True),
    case(
        "pickup-natural-wild-off",
        "classic",
        pickup("K", ["K", "2C", "5", "6"], [["K", "K", "2C"]], [["9"] * 3]),
        False,
        pickup_with_wild=False,
    ),
    case(
        "pickup-natural-wild-always-frozen",
        "classic",
        pickup("K", ["K", "2C", "5", "6"], [["K", "K", "2C"]], [["9"] * 3]),
        False,
        pile_always_frozen=True,
    ),
    # unfrozen: the top card onto a side meld.
    case("pickup-onto-meld", "classic", pickup("9", ["5", "6", "Q"], [["9"]], [["9"] * 3]), True),
    case(
        "pickup-onto-meld-always-frozen",
        "classic",
        pickup("9", ["5", "6", "Q"], [["9"]], [["9"] * 3]),
        False,
        pile_always_frozen=True,
    ),
    # pile_always_frozen: a natural pair still takes it.
    case(
        "pickup-pair-always-frozen",
        "classic",
        pickup("K", ["K", "K", "5", "6"], [["K", "K", "K"]], [["9"] * 3]),
        True,
        pile_always_frozen=True,
    ),
    # pickup_onto_canasta: the top card onto a completed canasta, allowed by default, refused off...
    case("pickup-onto-canasta", "classic", pickup("K", ["5", "6", "Q"], [["K"]], [SEVEN_KINGS]), True),
    case(
        "pickup-onto-canasta-off",
        "classic",
        pickup("K", ["5", "6", "Q"], [["K"]], [SEVEN_KINGS]),
        False,
        pickup_onto_canasta=False,
    ),
    # ... but (README, pagat's note) a natural pair still takes it.
    case(
        "pickup-onto-canasta-off-pair",
        "classic",
        pickup("K", ["K", "K", "6", "Q"], [["K", "K", "K"]], [["K"] * 5 + ["2C", "JK"]]),
        True,
        pickup_onto_canasta=False,
    ),
    # frozen (a wild in the pile): only a natural pair.
    case(
        "pickup-frozen-natural-wild",
        "classic",
        pickup("K", ["K", "2C", "5", "6"], [["K", "K", "2C"]], [["9"] * 3], frozen=True),
        False,
    ),
    case(
        "pickup-frozen-pair",
        "classic",
        pickup("K", ["K", "K", "5", "6"], [["K", "K", "K"]], [["9"] * 3], frozen=True),
        True,
    ),
    case("pickup-frozen-onto-meld", "classic", pickup("9", ["5", "6", "Q"], [["9"]], [["9"] * 3], frozen=True), False),
    # pagat: frozen, four sevens down, two sevens in the hand: merged.
    case(
        "pickup-frozen-pair-merges",
        "classic",
        pickup("7", ["7", "7", "Q"], [["7", "7", "7"]], [["7"] * 4], frozen=True),
        True,
    ),
    # red three turned up at the start: frozen; natural + wild refused, pair fine.
    case(
        "pickup-red-three-start-frozen",
        "classic",
        pickup("Q", ["Q", "JK", "5", "6"], [["Q", "Q", "JK"]], [["9"] * 3], frozen=True),
        False,
    ),
    # frozen against a side with no initial meld: natural + wild refused even on an unfrozen pile.
    case(
        "pickup-before-initial-natural-wild", "classic", pickup("A", ["A", "JK", "5", "6"], [["A", "A", "JK"]]), False
    ),
    # top card never a wild card or a three.
    case("pickup-top-two", "classic", pickup("2C", ["2D", "2H", "5", "6"], None, [["9"] * 3]), False),
    case("pickup-top-joker", "classic", pickup("JK", ["K", "K", "5", "6"], None, [["9"] * 3]), False),
    case("pickup-top-black-three", "classic", pickup("3S", ["3C", "3C", "5", "6"], None, [["9"] * 3]), False),
    case("pickup-top-red-three", "classic", pickup("3H", ["K", "K", "5", "6"], None, [["9"] * 3]), False),
    # never a one-card pile with a one-card hand.
    case("pickup-one-card-pile-one-card-hand", "classic", pickup("9", ["Q"], [["9"]], [["9"] * 3], size=1), False),
    case("pickup-two-card-pile-one-card-hand", "classic", pickup("9", ["Q"], [["9"]], [["9"] * 3], size=2), True),
    # the search: no melds given, a pair found.
    case("pickup-search-finds-pair", "classic", pickup("K", ["K", "K", "5", "6"], None, [["9"] * 3]), True),
    case("pickup-search-finds-nothing", "classic", pickup("K", ["K", "Q", "5", "6"], None, [["9"] * 3]), False),
    # 2p plays the same pile rules.
    case(
        "pickup-2p-natural-wild",
        "classic-2p",
        pickup("K", ["K", "2C", "5", "6"], [["K", "K", "2C"]], [["9"] * 3]),
        True,
    ),
    # frozen against the side: the pair takes it only if the count reaches the minimum (5-5-5 = 15).
    case("pickup-initial-pair-too-low", "classic", pickup("5", ["5", "5", "9", "Q"], [["5", "5", "5"]]), False, 15, 50),
    # natural + wild onto a completed canasta: fine by default, a natural pair needed with pickup_onto_canasta off.
    case(
        "pickup-natural-wild-onto-canasta",
        "classic",
        pickup("K", ["K", "2D", "5", "6"], [["K", "K", "2D"]], [["K"] * 5 + ["2C", "JK"]]),
        True,
    ),
    case(
        "pickup-natural-wild-onto-canasta-off",
        "classic",
        pickup("K", ["K", "2D", "5", "6"], [["K", "K", "2D"]], [["K"] * 5 + ["2C", "JK"]]),
        False,
        pickup_onto_canasta=False,
    ),
    # ---- going out ---------------------------------------------------------------------------
    # classic: one canasta down, meld the rest, discard one.
    case("out-with-canasta", "classic", go_out(["9", "9", "9", "Q"], [["9", "9", "9"]], "Q", [SEVEN_KINGS]), True),
    # no discard is fine in classic.
    case("out-no-discard", "classic", go_out(["9", "9", "9"], [["9", "9", "9"]], None, [SEVEN_KINGS]), True),
    # no canasta: refused.
    case("out-no-canasta", "classic", go_out(["9", "9", "9", "Q"], [["9", "9", "9"]], "Q", [["K"] * 5]), False),
    # completing the required canasta this turn: K-K-K-K-K-2 + K = 7.
    case(
        "out-completing-canasta",
        "classic",
        go_out(["K", "9", "9", "9", "Q"], [["K"], ["9", "9", "9"]], "Q", [["K"] * 5 + ["2C"]]),
        True,
    ),
    case(
        "out-not-completing",
        "classic",
        go_out(["K", "9", "9", "9", "Q"], [["K"], ["9", "9", "9"]], "Q", [["K"] * 4 + ["2C"]]),
        False,
    ),
    # at most one discard: a card left over is not going out.
    case(
        "out-card-left-over", "classic", go_out(["9", "9", "9", "Q", "J"], [["9", "9", "9"]], "Q", [SEVEN_KINGS]), False
    ),
    # black threes melded going out: three or four, no wilds.
    case(
        "out-black-threes-3", "classic", go_out(["3S", "3C", "3S", "Q"], [["3S", "3C", "3S"]], "Q", [SEVEN_KINGS]), True
    ),
    case(
        "out-black-threes-4",
        "classic",
        go_out(["3S", "3C", "3S", "3C"], [["3S", "3C", "3S", "3C"]], None, [SEVEN_KINGS]),
        True,
    ),
    case(
        "out-black-threes-wild",
        "classic",
        go_out(["3S", "3C", "2D", "Q"], [["3S", "3C", "2D"]], "Q", [SEVEN_KINGS]),
        False,
    ),
    # concealed going out from the stock: no minimum (65 < 120).
    case(
        "out-concealed-no-minimum",
        "classic",
        go_out(["5"] * 7 + ["9", "9", "9", "Q"], [["5"] * 7, ["9", "9", "9"]], "Q", score=3000),
        True,
    ),
    # ... but after taking the pile the minimum applies (README: took_pile).
    case(
        "out-concealed-took-pile",
        "classic",
        go_out(["5"] * 7 + ["9", "9", "9", "Q"], [["5"] * 7, ["9", "9", "9"]], "Q", score=3000, took_pile=True),
        False,
        65,
        120,
    ),
    # concealed going out still needs the required canastas: two in classic-2p.
    case(
        "out-concealed-2p-one-canasta",
        "classic-2p",
        go_out(["5"] * 7 + ["9", "9", "9", "Q"], [["5"] * 7, ["9", "9", "9"]], "Q"),
        False,
    ),
    case(
        "out-2p-two-canastas",
        "classic-2p",
        go_out(["9", "9", "9", "Q"], [["9", "9", "9"]], "Q", [SEVEN_KINGS, MIXED_QUEENS]),
        True,
    ),
    case(
        "out-2p-one-canasta", "classic-2p", go_out(["9", "9", "9", "Q"], [["9", "9", "9"]], "Q", [SEVEN_KINGS]), False
    ),
    case("out-3p-one-canasta", "classic-3p", go_out(["9", "9", "9", "Q"], [["9", "9", "9"]], "Q", [SEVEN_KINGS]), True),
    case(
        "out-6p-one-canasta",
        "classic-6p-3x2",
        go_out(["9", "9", "9", "Q"], [["9", "9", "9"]], "Q", [SEVEN_KINGS]),
        False,
    ),
    case(
        "out-canastas-to-go-out-2",
        "classic",
        go_out(["9", "9", "9", "Q"], [["9", "9", "9"]], "Q", [SEVEN_KINGS]),
        False,
        canastas_to_go_out=2,
    ),
    # tough_end: two canastas or one natural canasta.
    case(
        "out-tough-mixed",
        "classic",
        go_out(["9", "9", "9", "J"], [["9", "9", "9"]], "J", [MIXED_QUEENS]),
        False,
        tough_end=True,
    ),
    case(
        "out-tough-natural",
        "classic",
        go_out(["9", "9", "9", "J"], [["9", "9", "9"]], "J", [SEVEN_KINGS]),
        True,
        tough_end=True,
    ),
    case(
        "out-tough-two-mixed",
        "classic",
        go_out(["9", "9", "9", "J"], [["9", "9", "9"]], "J", [MIXED_QUEENS, ["8"] * 6 + ["2D"]]),
        True,
        tough_end=True,
    ),
    # README: melding down to one card is going out, so it needs the canasta.
    case("meld-down-to-one-no-canasta", "classic", meld(["9", "9", "9", "Q"], [["9", "9", "9"]], [["K"] * 3]), False),
    case(
        "meld-down-to-one-with-canasta", "classic", meld(["9", "9", "9", "Q"], [["9", "9", "9"]], [SEVEN_KINGS]), True
    ),
    # classic going out: the last discard may be a wild card.
    case(
        "out-wild-discard-classic",
        "classic",
        go_out(["9", "9", "9", "2C"], [["9", "9", "9"]], "2C", [SEVEN_KINGS]),
        True,
    ),
    # ---- discards, classic family ------------------------------------------------------------
    case("discard-any-natural", "classic", discard("K", ["K", "Q", "5"]), True),
    case("discard-wild-freezes", "classic", discard("2C", ["2C", "Q", "5"]), True),
    case("discard-black-three", "classic", discard("3S", ["3S", "Q", "5"]), True),
    case("discard-black-three-freezes", "classic", discard("3S", ["3S", "Q", "5"]), True, black_three_freezes=True),
    case("discard-red-three", "classic", discard("3H", ["3H", "Q", "5"]), False),
    case("discard-ace-empty-pile-classic", "classic", discard("A", ["A", "K", "5"], size=0), True),
    # ---- samba, bolivia, chile ---------------------------------------------------------------
    # max_wilds 2: two fine, three refused.
    case("samba-2-wilds", "samba", meld(["K", "K", "2C", "JK", "5", "6"], [["K", "K", "2C", "JK"]], [["9"] * 3]), True),
    case(
        "samba-3-wilds",
        "samba",
        meld(["K", "K", "K", "K", "2C", "2D", "JK", "5", "6"], [["K", "K", "K", "K", "2C", "2D", "JK"]], [["9"] * 3]),
        False,
    ),
    # max_wilds is an option in Samba too: at 3, K-K-K-2-2-JK is fine.
    case(
        "samba-max-wilds-3",
        "samba",
        meld(["K", "K", "K", "2C", "2D", "JK", "5", "6"], [["K", "K", "K", "2C", "2D", "JK"]], [["9"] * 3]),
        True,
        max_wilds=3,
    ),
    # pile_always_frozen in Samba: the top card onto a meld no longer takes it.
    case(
        "samba-always-frozen-onto-meld",
        "samba",
        pickup("9", ["5", "6", "Q"], [["9"]], [["9"] * 3]),
        False,
        pile_always_frozen=True,
    ),
    # sequences: 3-7 of one suit, 4 up to A, no wilds, no threes, never more than 7.
    case("samba-sequence", "samba", meld(["4H", "5H", "6H", "9", "K"], [["4H", "5H", "6H"]], [["9"] * 3]), True),
    case("samba-sequence-top", "samba", meld(["QH", "KH", "AH", "9", "K"], [["QH", "KH", "AH"]], [["9"] * 3]), True),
    case("samba-sequence-gap", "samba", meld(["5H", "6H", "8H", "9", "K"], [["5H", "6H", "8H"]], [["9"] * 3]), False),
    case("samba-sequence-suits", "samba", meld(["4H", "5S", "6H", "9", "K"], [["4H", "5S", "6H"]], [["9"] * 3]), False),
    case("samba-sequence-wild", "samba", meld(["4H", "5H", "2C", "9", "K"], [["4H", "5H", "2C"]], [["9"] * 3]), False),
    case("samba-sequence-three", "samba", meld(["3H", "4H", "5H", "9", "K"], [["3H", "4H", "5H"]], [["9"] * 3]), False),
    case("samba-sequence-eighth", "samba", meld(["JH", "9", "K"], [["JH"]], [SEQUENCE_HEARTS]), False),
    case("samba-sequence-extend", "samba", meld(["JH", "9", "K"], [["JH"]], [SEQUENCE_HEARTS[1:]]), True),
    case("samba-sequence-extend-low", "samba", meld(["4H", "9", "K"], [["4H"]], [SEQUENCE_HEARTS[1:4]]), True),
    case(
        "samba-sequence-extend-two", "samba", meld(["8H", "9H", "9", "K"], [["8H", "9H"]], [SEQUENCE_HEARTS[1:4]]), True
    ),
    case("samba-sequence-wrong-suit", "samba", meld(["8S", "9", "K"], [["8S"]], [SEQUENCE_HEARTS[1:4]]), False),
    case(
        "sequences-option-extend",
        "classic",
        meld(["JH", "9", "K"], [["JH"]], [SEQUENCE_HEARTS[1:]]),
        True,
        sequences=True,
    ),
    # samba has no wild canastas; bolivia and chile do.
    case("samba-wild-meld", "samba", meld(["2C", "2D", "JK", "5", "6"], [["2C", "2D", "JK"]], [["9"] * 3]), False),
    case("bolivia-wild-meld", "bolivia", meld(["2C", "2D", "JK", "5", "6"], [["2C", "2D", "JK"]], [["9"] * 3]), True),
    case("chile-wild-meld", "chile", meld(["2C", "2D", "JK", "5", "6"], [["2C", "2D", "JK"]], [["9"] * 3]), True),
    # pile: natural pair yes, natural + wild never.
    case("samba-pickup-pair", "samba", pickup("K", ["K", "K", "5", "6"], [["K", "K", "K"]], [["9"] * 3]), True),
    case(
        "samba-pickup-natural-wild", "samba", pickup("K", ["K", "2C", "5", "6"], [["K", "K", "2C"]], [["9"] * 3]), False
    ),
    # the top card onto a meld that is not a canasta: yes; the top card alone onto a canasta: never.
    case("samba-pickup-onto-meld", "samba", pickup("9", ["5", "6", "Q"], [["9"]], [["9"] * 3]), True),
    case("samba-pickup-onto-canasta", "samba", pickup("K", ["5", "6", "Q"], [["K"]], [SEVEN_KINGS]), False),
    # docs/rules.md "Taking the pile", Samba family: a natural pair with the top card starts a new meld of
    # kings even though the side's kings are a canasta (Bicycle Samba: a side may hold two melds of a rank).
    case(
        "samba-pickup-pair-beside-canasta",
        "samba",
        pickup("K", ["K", "K", "6", "Q"], [["K", "K", "K"]], [SEVEN_KINGS]),
        True,
    ),
    # the top card never starts or extends a sequence.
    case(
        "samba-top-starts-sequence",
        "samba",
        pickup("7H", ["8H", "9H", "5", "6"], [["7H", "8H", "9H"]], [["9"] * 3]),
        False,
    ),
    case(
        "samba-top-extends-sequence",
        "samba",
        pickup("7H", ["5", "6", "Q"], [["7H"]], [["4H", "5H", "6H"], ["9"] * 3]),
        False,
    ),
    # going out: samba two canastas of any kind; bolivia and chile two, one of them an escalera.
    case(
        "samba-out-two",
        "samba",
        go_out(["9", "9", "9", "Q"], [["9", "9", "9"]], "Q", [SEVEN_KINGS, MIXED_QUEENS]),
        True,
    ),
    case("samba-out-one", "samba", go_out(["9", "9", "9", "Q"], [["9", "9", "9"]], "Q", [SEVEN_KINGS]), False),
    case(
        "bolivia-out-no-escalera",
        "bolivia",
        go_out(["9", "9", "9", "J"], [["9", "9", "9"]], "J", [SEVEN_KINGS, MIXED_QUEENS]),
        False,
    ),
    case(
        "bolivia-out-escalera",
        "bolivia",
        go_out(["9", "9", "9", "J"], [["9", "9", "9"]], "J", [SEVEN_KINGS, SEQUENCE_HEARTS]),
        True,
    ),
    case(
        "chile-out-escalera",
        "chile",
        go_out(["9", "9", "9", "J"], [["9", "9", "9"]], "J", [SEVEN_KINGS, SEQUENCE_HEARTS]),
        True,
    ),
    # samba family, going out in one turn from the stock: no minimum (README).
    case(
        "samba-out-one-turn-no-minimum",
        "samba",
        go_out(["5"] * 7 + ["K"] * 7 + ["Q"], [["5"] * 7, ["K"] * 7], "Q", score=3000),
        True,
    ),
    # ---- American ----------------------------------------------------------------------------
    # minimum 125 even below 0, 155 from 3000, 180 from 5000.
    case(
        "am-min-negative",
        "american",
        meld(["A", "A", "A", "K", "K", "K", "JK", "5", "6"], [["A", "A", "A"], ["K", "K", "K", "JK"]], score=-500),
        True,
        140,
        125,
    ),
    case(
        "am-min-3000",
        "american",
        meld(["A", "A", "A", "K", "K", "K", "JK", "5", "6"], [["A", "A", "A"], ["K", "K", "K", "JK"]], score=3000),
        False,
        140,
        155,
    ),
    case(
        "am-min-5000",
        "american",
        meld(
            ["A", "A", "A", "A", "JK", "K", "K", "K", "2C", "5", "6"],
            [["A", "A", "A", "A", "JK"], ["K", "K", "K", "2C"]],
            score=5000,
        ),
        True,
        180,
        180,
    ),
    case(
        "am-min-4995",
        "american",
        meld(["A", "A", "A", "K", "K", "K", "JK", "5", "6"], [["A", "A", "A"], ["K", "K", "K", "JK"]], score=4995),
        False,
        140,
        155,
    ),
    # the initial meld must include three matching naturals or a wild meld.
    case(
        "am-initial-no-three-naturals",
        "american",
        meld(
            ["A", "A", "JK", "K", "K", "2C", "Q", "Q", "JK", "5", "6"],
            [["A", "A", "JK"], ["K", "K", "2C"], ["Q", "Q", "JK"]],
        ),
        False,
        200,
        125,
    ),
    case(
        "am-initial-wild-meld",
        "american",
        meld(["2C", "2D", "JK", "JK", "5", "6"], [["2C", "2D", "JK", "JK"]]),
        True,
        140,
        125,
    ),
    # pagat's splash: a natural canasta from the hand needs no minimum.
    case("am-splash", "american", meld(SEVEN_KINGS + ["5", "6"], [SEVEN_KINGS]), True),
    # pickup before the initial meld: the minimum from the hand alone (A-A-A-JK = 110; the Q pair never counts).
    case(
        "am-pickup-initial-hand-short",
        "american",
        pickup("Q", ["A", "A", "A", "JK", "Q", "Q", "5", "6", "9"], [["A", "A", "A", "JK"], ["Q", "Q", "Q"]]),
        False,
        110,
        125,
    ),
    case(
        "am-pickup-initial-hand-enough",
        "american",
        pickup(
            "Q",
            ["A", "A", "A", "K", "K", "K", "JK", "Q", "Q", "5", "6"],
            [["A", "A", "A"], ["K", "K", "K", "JK"], ["Q", "Q", "Q"]],
        ),
        True,
        140,
        125,
    ),
    # pickup: always a natural pair.
    case("am-pickup-pair", "american", pickup("K", ["K", "K", "5", "6"], [["K", "K", "K"]], [["9"] * 3]), True),
    case(
        "am-pickup-natural-wild", "american", pickup("K", ["K", "2C", "5", "6"], [["K", "K", "2C"]], [["9"] * 3]), False
    ),
    case("am-pickup-onto-meld", "american", pickup("9", ["5", "6", "Q"], [["9"]], [["9"] * 3]), False),
    # a pair onto a meld of 3 or 4 merges; onto 5+ never (it would pass 7).
    case("am-pickup-pair-onto-4", "american", pickup("9", ["9", "9", "6", "Q"], [["9", "9", "9"]], [["9"] * 4]), True),
    case("am-pickup-pair-onto-5", "american", pickup("9", ["9", "9", "6", "Q"], [["9", "9", "9"]], [["9"] * 5]), False),
    # melds: at most 2 wilds, caps at 7.
    case(
        "am-3-wilds",
        "american",
        meld(["K", "K", "K", "2C", "2D", "JK", "5", "6"], [["K", "K", "K", "2C", "2D", "JK"]], [["9"] * 3]),
        False,
    ),
    case("am-8th-card", "american", meld(["K", "5", "6"], [["K"]], [SEVEN_KINGS]), False),
    case("am-7th-card", "american", meld(["K", "5", "6"], [["K"]], [["K"] * 6]), True),
    # sevens never take wilds.
    case("am-sevens-wild", "american", meld(["7", "7", "2C", "5", "6"], [["7", "7", "2C"]], [["9"] * 3]), False),
    case(
        "am-sevens-wild-initial",
        "american",
        meld(["7", "7", "7", "JK", "A", "A", "A", "5", "6"], [["7", "7", "7", "JK"], ["A", "A", "A"]]),
        False,
    ),
    case("am-sevens-pure", "american", meld(["7", "7", "7", "5", "6"], [["7", "7", "7"]], [["9"] * 3]), True),
    # aces: wilds only in the initial meld, and only on an ace meld that held one from the start.
    case(
        "am-aces-wild-initial",
        "american",
        meld(["A", "A", "JK", "K", "K", "K", "K", "5", "6"], [["A", "A", "JK"], ["K", "K", "K", "K"]]),
        True,
        130,
        125,
    ),
    case("am-aces-wild-later", "american", meld(["A", "A", "JK", "5", "6"], [["A", "A", "JK"]], [["9"] * 3]), False),
    case("am-aces-wild-onto-mixed", "american", meld(["A", "2C", "5", "6"], [["A", "2C"]], [["A", "A", "JK"]]), True),
    case("am-aces-wild-onto-pure", "american", meld(["A", "2C", "5", "6"], [["A", "2C"]], [["A", "A", "A"]]), False),
    # wild melds 3-7 and the lock.
    case("am-wild-meld", "american", meld(["2C", "2D", "JK", "5", "6"], [["2C", "2D", "JK"]], [["9"] * 3]), True),
    case(
        "am-wild-meld-8",
        "american",
        meld(["2C"], [["2C"]], [["2D", "2D", "2H", "2H", "JK", "JK", "JK"]]) | {"hand": ["2C", "5", "6"]},
        False,
    ),
    case(
        "am-wild-lock",
        "american",
        meld(["Q", "Q", "2H", "5", "6"], [["Q", "Q", "2H"]], [["2C", "2D", "JK"], ["9"] * 3]),
        False,
    ),
    case(
        "am-wild-lock-over",
        "american",
        meld(["Q", "Q", "2H", "5", "6"], [["Q", "Q", "2H"]], [["2C", "2C", "2D", "2D", "JK", "JK", "JK"], ["9"] * 3]),
        True,
    ),
    # going out: two canastas, a discard required, and it may be a wild card or a three.
    case(
        "am-out",
        "american",
        go_out(["9", "9", "9", "Q"], [["9", "9", "9"]], "Q", [SEVEN_KINGS, ["Q"] * 5 + ["2D", "JK"]]),
        True,
    ),
    case("am-out-one-canasta", "american", go_out(["9", "9", "9", "J"], [["9", "9", "9"]], "J", [SEVEN_KINGS]), False),
    case(
        "am-out-no-discard",
        "american",
        go_out(["9", "9", "9"], [["9", "9", "9"]], None, [SEVEN_KINGS, ["Q"] * 7]),
        False,
    ),
    case(
        "am-out-wild-discard",
        "american",
        go_out(["9", "9", "9", "2C"], [["9", "9", "9"]], "2C", [SEVEN_KINGS, ["Q"] * 7]),
        True,
    ),
    case(
        "am-out-three-discard",
        "american",
        go_out(["9", "9", "9", "3S"], [["9", "9", "9"]], "3S", [SEVEN_KINGS, ["Q"] * 7]),
        True,
    ),
    # never a one-turn exemption from the minimum in American (README): two mixed canastas, 130 < 155.
    case(
        "am-out-one-turn-minimum",
        "american",
        go_out(
            ["5"] * 5 + ["2C", "2D"] + ["4"] * 5 + ["2H", "2S", "Q"],
            [["5"] * 5 + ["2C", "2D"], ["4"] * 5 + ["2H", "2S"]],
            "Q",
            score=3000,
        ),
        False,
        130,
        155,
    ),
    # discards: never a three or a wild card except going out.
    case("am-discard-three", "american", discard("3S", ["3S", "Q", "5"]), False),
    case("am-discard-wild", "american", discard("2C", ["2C", "Q", "5"]), False),
    case("am-discard-natural", "american", discard("Q", ["2C", "Q", "5"]), True),
    # empty pile: no ace or seven unless the hand holds no other natural.
    case("am-discard-ace-empty", "american", discard("A", ["A", "K", "5"], size=0), False),
    case("am-discard-seven-empty", "american", discard("7", ["7", "K", "5"], size=0), False),
    case("am-discard-ace-empty-only-aces", "american", discard("A", ["A", "A", "2C"], size=0), True),
    case("am-discard-ace-pile", "american", discard("A", ["A", "K", "5"], size=4), True),
]


@pytest.mark.parametrize(("request_body", "legal", "count", "minimum"), CASES)
def test_case(request_body, legal, count, minimum):
    verdict = check_request(request_body)
    assert verdict.legal is legal, verdict.reasons
    if count is not None:
        assert verdict.count == count, verdict.reasons
    if minimum is not None:
        assert verdict.minimum == minimum, verdict.reasons
    assert verdict.reasons, "every verdict gives at least one reason"
    for reason in verdict.reasons:
        assert re.match(r"[A-Z0-9\"'“]", reason) and reason.rstrip()[-1] in ".?!", reason


def test_buried_pile_card_never_reaches_the_minimum():
    """pagat: K on top, K and Q buried; at 90 K-K-K-K + Q-Q-Q-2 only counts by naming buried cards: must fail."""
    body = pickup("K", ["K", "K", "Q", "Q", "2C", "5"], [["K", "K", "K", "K"], ["Q", "Q", "Q", "2C"]], score=1500)
    try:
        verdict = check_request({"variant": "classic", **body})
    except InvalidError:
        return
    assert not verdict.legal


LEGAL = [param for param in CASES if param.values[1]]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(LEGAL), st.randoms(use_true_random=False))
def test_a_legal_play_stays_legal_when_the_hand_is_reordered(param, random):
    """The order of the cards in the hand, and inside each proposed meld, never changes a verdict."""
    request = dict(param.values[0])
    request["hand"] = random.sample(request["hand"], len(request["hand"]))
    if "melds" in request:
        request["melds"] = [random.sample(meld, len(meld)) for meld in request["melds"]]
    verdict = check_request(request)
    assert verdict.legal, (param.id, request, verdict.reasons)
    assert verdict.count == check_request(param.values[0]).count


BY_ID = {param.id: param.values[0] for param in CASES}


@pytest.mark.parametrize(
    ("case_id", "words"),
    [
        # "no" answers name the cards and say what would make the play legal
        ("initial-30-below-50", "add melds worth 20 more"),
        ("am-min-3000", "add melds from your hand worth 15 more"),
        ("classic-pair-is-no-meld", "add another king or a wild card"),
        ("samba-sequence-wrong-suit", "add two more eights, or one more and a wild card"),
        ("pickup-onto-meld-always-frozen", "you need two natural nines in your hand; you have no nines"),
        ("pickup-frozen-natural-wild", "you have one king and a two"),
        ("pickup-search-finds-nothing", "two natural kings, one king with a wild card, or a meld of kings"),
        ("classic-red-threes", "3H-3H-3D: red threes are never melded"),
        ("out-black-threes-wild", "leave 2D out"),
        ("classic-wild-lock", "keep 2H for it"),
        ("classic-2n-3w", "add a king or leave a wild card out"),
        ("am-discard-ace-empty", "while you hold another natural card (K-5)"),
        # "yes" answers name the cards too
        ("out-tough-two-mixed", "it has two mixed canastas"),
        ("samba-sequence-extend", "JH goes on your 5H-6H-7H-8H-9H-10H"),
    ],
)
def test_reasons_name_the_cards(case_id, words):
    assert words in " ".join(check_request(BY_ID[case_id]).reasons)


def test_two_players_are_never_told_about_a_partner():
    """classic-2p: each plays alone, so the melds on the table are the player's own."""
    assert "partner" not in " ".join(check_request(BY_ID["out-2p-two-canastas"]).reasons)


def test_a_refused_going_out_is_not_called_concealed():
    """classic-2p with one canasta: no going out at all, so no word of the concealed bonus."""
    reasons = " ".join(check_request(BY_ID["out-concealed-2p-one-canasta"]).reasons)
    assert "needs two canastas" in reasons and "concealed" not in reasons


@pytest.mark.parametrize(
    "case_id", ["initial-pickup-top-counts", "am-min-3000", "samba-sequence-extend", "pickup-top-joker"]
)
def test_the_api_answers_as_the_checker(client, case_id):
    """POST /api/v1/check gives the same verdict, count and minimum as check_request."""
    verdict = check_request(BY_ID[case_id])
    response = client.post("/api/v1/check", json=BY_ID[case_id])
    assert response.status_code == 200
    document = response.get_json()
    assert (document["legal"], document["count"], document["minimum"]) == (
        verdict.legal,
        verdict.count,
        verdict.minimum,
    )
    assert document["reasons"] == list(verdict.reasons)


def test_the_api_refuses_buried_pile_cards_named_in_melds(client):
    """A meld naming cards that are neither in the hand nor the top of the pile is not a position: 422."""
    body = {"variant": "classic", **pickup("K", ["K", "K", "Q", "5"], [["K", "K", "K", "K"]], score=1500)}
    response = client.post("/api/v1/check", json=body)
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["message"]
