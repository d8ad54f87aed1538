"""American special hands on the checker: pagat Modern American's own examples ("Special Hands"),
with the scores of its "Special hand scores" (straight 3000, pairs 2500, pairs with twos, sevens
and aces 2000, garbage 2000)."""

import pytest

from scorepad.canasta.plays import check_request

STRAIGHT = ["A", "2C", "3S", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK"]
PAIRS = "4 4 5 5 7 7 8 8 9 9 10 10 Q Q".split()  # pagat: "Without wild cards. Example"
PAIRS_WILD = "2 2 6 6 7 7 9 9 J J K K A A".split()  # pagat: "With twos, sevens and aces: Example"
NOT_PAIRS = "2 2 4 4 5 5 6 6 8 8 9 9 A A".split()  # pagat: "is not valid"
GARBAGE = "4 4 4 6 6 6 6 J J J J A A A".split()  # pagat: "Example"


def special(hand, **extra):
    return check_request({"variant": "american", "action": "go_out", "hand": hand, **extra})


def codes(verdict):
    return [problem.code for problem in verdict.problems]


@pytest.mark.parametrize(
    ("hand", "name", "score"),
    [
        (STRAIGHT, "Straight", 3000),
        (PAIRS, "Seven pairs", 2500),
        (PAIRS_WILD, "Pairs with twos, sevens and aces", 2000),
        (GARBAGE, "Garbage", 2000),
    ],
)
def test_pagat_examples_go_out_as_special_hands(hand, name, score):
    verdict = special(hand)
    assert verdict.legal, verdict.reasons
    assert verdict.reasons[0] == (
        f"{'-'.join(hand)} is a special hand: {name}. Your side scores {score} for this hand in place of "
        "everything else; the other side scores as usual."
    )
    # the 14 cards sent as one meld ask the same question
    assert special(hand, melds=[hand]).legal


def test_pagat_invalid_pairs_names_the_twos():
    verdict = special(NOT_PAIRS)
    assert not verdict.legal and codes(verdict) == ["not-a-special-hand"]
    assert verdict.reasons[0] == (
        "Not seven pairs: a pair of twos (2-2) is allowed only with a pair of sevens and a pair of aces."
    )


def test_a_second_queen_breaks_the_straight():
    # Q twice and no K: one card of every rank A-K and a joker is broken by the second queen.
    hand = STRAIGHT[:-2] + ["Q", "JK"]
    verdict = special(hand)
    assert not verdict.legal
    assert "so Q breaks it (it has no K)" in verdict.reasons[0]


def test_a_joker_breaks_seven_pairs_and_a_two_breaks_garbage():
    assert "so Q-JK break them" in special(PAIRS[:-1] + ["JK"]).reasons[0]
    assert "so 2 breaks it" in special(GARBAGE[:-1] + ["2"]).reasons[0]


def test_no_special_hand_once_the_team_has_melded():
    verdict = special(GARBAGE, table=[["K", "K", "K"]])
    assert not verdict.legal and codes(verdict) == ["special-hand-after-meld"]
    assert special(GARBAGE, initial_meld_done=True).problems[0].code == "special-hand-after-meld"


def test_a_special_hand_is_the_whole_fourteen_cards_after_drawing():
    assert codes(special(GARBAGE[:-1])) == ["special-hand-size"]
    assert codes(special(GARBAGE, took_pile=True)) == ["special-hand-from-pile"]


def test_with_a_discard_it_is_an_ordinary_going_out():
    # 13 cards melded and a discard: the usual rules (garbage's sets melded, two canastas needed).
    verdict = special(GARBAGE + ["5"], melds=[GARBAGE[:3], GARBAGE[3:7], GARBAGE[7:11], GARBAGE[11:]], discard="5")
    assert "not-enough-canastas" in codes(verdict)


def test_other_variants_have_no_special_hands():
    verdict = check_request({"variant": "classic", "action": "go_out", "hand": GARBAGE})
    assert not verdict.legal and "not-a-special-hand" not in codes(verdict)
