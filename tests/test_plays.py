"""The rules checker (docs/rules.md "What the checker decides"), case by case: the rulebooks' own examples
first, then each rule in each variant, hand-worked; then properties that must hold for any position."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.canasta import VARIANTS, InvalidError
from scorepad.canasta.plays import Position, check, check_request, describe, take
from scorepad.canasta.plays.going_out import MAYBE_CONCEALED


def judge(variant="classic", options=None, **body):
    return check_request({"variant": variant, "options": options or {}, **body})


def codes_of(verdict):
    return {problem.code for problem in verdict.problems}


# --- the rulebooks' own examples ---------------------------------------------------------------
PAGAT_HAND = ["K", "K", "Q", "Q", "2C"]
PAGAT_MELDS = [["K", "K", "K"], ["Q", "Q", "2C"]]


@pytest.mark.parametrize(("score", "legal"), [(0, True), (1495, True), (1500, False), (3000, False)])
def test_pagat_king_queen_example(score, legal):
    """pagat: K on the pile, K-K-Q-Q-2 in hand: K-K-K, Q-Q-2 count 70, enough for 50, not for 90."""
    verdict = judge(action="pickup", hand=PAGAT_HAND, melds=PAGAT_MELDS, pile={"top": "K"}, score=score)
    assert (verdict.legal, verdict.count) == (legal, 70)
    assert verdict.minimum == (50 if score < 1500 else 90 if score < 3000 else 120)
    if not legal:
        assert codes_of(verdict) == {"below-minimum"}
        assert "bonuses never count" in verdict.reasons[0]


def test_pagat_example_found_without_melds():
    verdict = judge(action="pickup", hand=PAGAT_HAND, pile={"top": "K"}, score=0)
    assert verdict.legal
    assert [[str(c) for c in meld] for meld in verdict.how] == PAGAT_MELDS


def test_pagat_example_at_90_says_the_most_it_can_count():
    verdict = judge(action="pickup", hand=PAGAT_HAND, pile={"top": "K"}, score=1500)
    assert not verdict.legal and verdict.count == 70 and verdict.how is None
    assert "K-K-K; Q-Q-2C" in " ".join(verdict.reasons)


def test_buried_pile_cards_never_count():
    """pagat: the king and queen buried in the pile cannot be named in the initial meld."""
    with pytest.raises(InvalidError) as error:
        judge(action="pickup", hand=PAGAT_HAND, melds=[["K", "K", "K", "K"], ["Q", "Q", "Q", "2C"]], pile={"top": "K"})
    assert error.value.violations[0].field == "melds"


@pytest.mark.parametrize(
    ("hand", "legal"),
    [(["7", "7", "Q"], True), (["7", "Q", "4"], False), (["7", "2C", "4"], False)],
)
def test_pagat_frozen_sevens_example(hand, legal):
    """pagat: four sevens on the table, the pile frozen, a seven discarded: two sevens from the hand needed."""
    verdict = judge(action="pickup", hand=hand, table=[["7", "7", "7", "7"]], pile={"top": "7", "frozen": True})
    assert verdict.legal is legal
    if legal:
        assert [[str(c) for c in m] for m in verdict.how] == [["7", "7", "7"]]
        assert "natural canasta" in " ".join(verdict.reasons)
    else:
        assert codes_of(verdict) == {"pickup-needs-pair"}


def test_frozen_pile_sentence_names_the_cards():
    verdict = judge(action="pickup", hand=["K", "JK", "Q"], table=[["9", "9", "9"]], pile={"top": "K", "frozen": True})
    assert not verdict.legal
    assert "you need two natural kings in your hand; you have one king and a joker." in verdict.reasons[1]


@pytest.mark.parametrize("top", ["3S", "3C"])
def test_black_three_top_stops_the_pile(top):
    verdict = judge(action="pickup", hand=["K", "K", "Q"], table=[["9", "9", "9"]], pile={"top": top})
    assert codes_of(verdict) == {"pile-top-three"}
    assert "stop card" in verdict.reasons[-1]


@pytest.mark.parametrize("top", ["2C", "JK"])
def test_wild_top_never_taken(top):
    verdict = judge(action="pickup", hand=["K", "K", "2D"], table=[["9", "9", "9"]], pile={"top": top})
    assert codes_of(verdict) == {"pile-top-wild"}


@pytest.mark.parametrize(("size", "hand", "legal"), [(1, ["7"], False), (2, ["7"], True), (1, ["7", "5"], True)])
def test_one_card_rule(size, hand, legal):
    """Bicycle: a one-card hand may not take a one-card pile."""
    verdict = judge(action="pickup", hand=hand, table=[["7", "7", "7"]], pile={"top": "7", "size": size})
    assert ("one-card-pile" in codes_of(verdict)) is not legal


# --- taking the pile, classic ------------------------------------------------------------------
OPENED = {"table": [["9", "9", "9"]]}


@pytest.mark.parametrize(
    ("options", "hand", "table", "legal", "code"),
    [
        ({}, ["K", "2C", "Q"], [["9", "9", "9"]], True, None),
        ({"pickup_with_wild": False}, ["K", "2C", "Q"], [["9", "9", "9"]], False, "pickup-with-wild-off"),
        ({"pile_always_frozen": True}, ["K", "2C", "Q"], [["9", "9", "9"]], False, "pickup-needs-pair"),
        ({"pile_always_frozen": True}, ["K", "K", "Q"], [["9", "9", "9"]], True, None),
        ({}, ["Q", "4", "5"], [["K", "K", "K"]], True, None),
        ({}, ["Q", "4", "5"], [["K"] * 7], True, None),
        ({"pickup_onto_canasta": False}, ["Q", "4", "5"], [["K"] * 7], False, "pickup-onto-canasta"),
        ({"pickup_onto_canasta": False}, ["K", "2C", "5"], [["K"] * 5 + ["2D", "2S"]], False, "pickup-onto-canasta"),
        ({"pickup_onto_canasta": False}, ["K", "K", "5"], [["K"] * 5 + ["2D", "2S"]], True, None),
        ({}, ["Q", "4", "5"], [["9", "9", "9"]], False, "pickup-no-match"),
    ],
)
def test_unfrozen_pile_ways(options, hand, table, legal, code):
    verdict = judge(options=options, action="pickup", hand=hand, table=table, pile={"top": "K"})
    assert verdict.legal is legal
    if code:
        assert code in codes_of(verdict)


def test_before_the_initial_meld_the_pile_is_frozen_against_the_side():
    verdict = judge(action="pickup", hand=["K", "2C", "Q", "Q", "Q"], pile={"top": "K"})
    assert codes_of(verdict) == {"pickup-needs-pair"}
    assert "your side has not made its initial meld" in verdict.reasons[1]


@pytest.mark.parametrize(("counts", "count", "legal"), [(True, 60, True), (False, 50, True)])
def test_top_counts_for_minimum(counts, count, legal):
    verdict = judge(
        options={"top_counts_for_minimum": counts},
        action="pickup",
        hand=["K", "K", "Q", "Q", "Q"],
        melds=[["K", "K", "K"], ["Q", "Q", "Q"]],
        pile={"top": "K"},
    )
    assert (verdict.legal, verdict.count) == (legal, count)


def test_top_not_counting_can_fall_short():
    verdict = judge(
        options={"top_counts_for_minimum": False},
        action="pickup",
        hand=["K", "K", "2C", "5"],
        melds=[["K", "K", "K", "2C"]],
        pile={"top": "K"},
    )
    assert (verdict.legal, verdict.count) == (False, 40)


def test_top_card_must_be_melded():
    verdict = judge(action="pickup", hand=["Q", "Q", "Q", "5"], melds=[["Q", "Q", "Q"]], pile={"top": "K"}, **OPENED)
    assert "top-not-melded" in codes_of(verdict)


def test_stock_gone_must_take_a_matching_discard():
    verdict = judge(action="pickup", hand=["5", "6"], table=[["K", "K", "K"]], pile={"top": "K"}, stock_empty=True)
    assert verdict.legal and any("must take" in reason for reason in verdict.reasons)


# --- melds, classic ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "meld", "legal", "code"),
    [
        ({}, ["K", "K", "K"], True, None),
        ({}, ["K", "K", "2C"], True, None),
        ({}, ["K", "K"], False, "meld-too-small"),
        ({}, ["K", "2C", "JK"], False, "too-few-naturals"),
        ({}, ["K", "K", "K", "2C", "2D", "JK"], True, None),
        ({}, ["K", "K", "K", "K", "2C", "2D", "JK", "2H"], False, "too-many-wilds"),
        ({"max_wilds": 2}, ["K", "K", "K", "2C", "2D", "JK"], False, "too-many-wilds"),
        ({}, ["K", "K", "2C", "2D", "JK"], False, "wilds-outnumber-naturals"),
        ({"wilds_not_more_than_naturals": False}, ["K", "K", "2C", "2D", "JK"], True, None),
        ({}, ["K", "K", "Q"], False, "mixed-ranks"),
        # Three wild cards alone go on the side's 9-9-9 (pagat: "No meld can contain more than three wild cards").
        ({}, ["JK", "JK", "2C"], True, None),
        ({"wild_canasta": "1000"}, ["JK", "JK", "2C"], True, None),
        ({"wild_canasta": "palace"}, ["JK", "2C", "2D", "2H", "2S", "2C", "2D", "JK"], False, "meld-too-long"),
        ({}, ["3H", "K", "K"], False, "red-three-melded"),
        ({}, ["3S", "3S", "3C"], False, "black-threes-not-going-out"),
        ({"sequences": True}, ["4H", "5H", "6H"], True, None),
    ],
)
def test_classic_melds(options, meld, legal, code):
    hand = meld + ["5", "6"]
    verdict = judge(options=options, action="meld", hand=hand, melds=[meld], **OPENED)
    assert verdict.legal is legal, verdict.reasons
    if code:
        assert code in codes_of(verdict)


def test_addition_to_the_side_meld_counts_as_one_meld():
    verdict = judge(
        action="meld", hand=["K", "2C", "5", "6"], table=[["K", "K", "K", "K", "2D", "2S"]], melds=[["K", "2C"]]
    )
    assert verdict.legal
    assert "mixed canasta" in verdict.reasons[0]
    verdict = judge(
        action="meld",
        hand=["2C", "JK", "5", "6"],
        table=[["Q", "Q", "2D", "JK"], ["K", "K", "K", "K", "2D", "2S"]],
        melds=[["2C"]],
    )
    assert verdict.legal and "2C goes on your K-K-K-K-2D-2S" in verdict.reasons[0]
    verdict = judge(action="meld", hand=["2C", "JK", "5", "6"], table=[["Q", "Q", "2D"]], melds=[["2C", "JK"]])
    assert codes_of(verdict) == {"wilds-outnumber-naturals"}
    verdict = judge(
        action="meld", hand=["2C", "JK", "5", "6"], table=[["K", "K", "K", "K", "2D", "2S"]], melds=[["2C", "JK"]]
    )
    assert codes_of(verdict) == {"too-many-wilds"}


def test_two_proposed_melds_of_a_rank_are_one():
    verdict = judge(action="meld", hand=["K", "K", "K", "K", "5", "6"], melds=[["K", "K"], ["K", "K"]], **OPENED)
    assert verdict.legal and "four kings" in verdict.reasons[0]


@pytest.mark.parametrize(("score", "minimum"), [(-10, 15), (0, 50), (1500, 90), (3000, 120)])
def test_initial_meld_minimum_by_score(score, minimum):
    verdict = judge(action="meld", hand=["K", "K", "K", "5", "6"], melds=[["K", "K", "K"]], score=score)
    assert (verdict.count, verdict.minimum, verdict.legal) == (30, minimum, 30 >= minimum)


def test_harder_first_meld():
    verdict = judge(
        options={"harder_first_meld": True}, action="meld", hand=["A", "A", "A", "5", "6"], melds=[["A", "A", "A"]]
    )
    assert (verdict.minimum, verdict.legal) == (90, False)


def test_melding_down_to_one_card_without_a_canasta():
    verdict = judge(action="meld", hand=["K", "K", "K", "5"], melds=[["K", "K", "K"]], **OPENED)
    assert codes_of(verdict) == {"must-keep-a-card"}
    verdict = judge(action="meld", hand=["K", "K", "K", "5"], melds=[["K", "K", "K"]], table=[["9"] * 7])
    assert verdict.legal and "discarding your last card" in verdict.reasons[-1]


# --- going out ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("variant", "table", "legal"),
    [
        ("classic", [], False),
        ("classic", [["Q"] * 7], True),
        ("classic-2p", [["Q"] * 7], False),
        ("classic-2p", [["Q"] * 7, ["J"] * 6 + ["2D"]], True),
        ("classic-3p", [["Q"] * 7], True),
        ("classic-5p", [["Q"] * 7], True),
        ("classic-6p-3x2", [["Q"] * 7], False),
        ("classic-6p-2x3", [["Q"] * 7, ["J"] * 7], True),
        ("samba", [["Q"] * 7], False),
        ("samba", [["Q"] * 7, ["J"] * 6 + ["2D"]], True),
        ("bolivia", [["Q"] * 7, ["J"] * 7], False),
        ("bolivia", [["Q"] * 7, ["4H", "5H", "6H", "7H", "8H", "9H", "10H"]], True),
        ("chile", [["Q"] * 7, ["4H", "5H", "6H", "7H", "8H", "9H", "10H"]], True),
        ("american", [["Q"] * 7, ["J"] * 7], True),
        ("american", [["Q"] * 7], False),
    ],
)
def test_canastas_to_go_out(variant, table, legal):
    body = {"action": "go_out", "hand": ["K", "K", "K", "5"], "melds": [["K", "K", "K"]], "discard": "5"}
    if table:
        body["table"] = table
    verdict = judge(variant, **body)
    assert verdict.legal is legal, verdict.reasons
    assert ("not-enough-canastas" in codes_of(verdict)) is not legal


def test_canasta_completed_this_turn_counts():
    verdict = judge(
        action="go_out", hand=["K", "K", "K", "5"], table=[["K", "K", "K", "K"]], melds=[["K", "K", "K"]], discard="5"
    )
    assert verdict.legal and "natural canasta" in " ".join(verdict.reasons)


@pytest.mark.parametrize(
    ("table", "legal"), [([["Q"] * 6 + ["2C"]], False), ([["Q"] * 7], True), ([["Q"] * 6 + ["2C"], ["J"] * 7], True)]
)
def test_tough_end(table, legal):
    verdict = judge(
        options={"tough_end": True}, action="go_out", hand=["K", "K", "K"], table=table, melds=[["K", "K", "K"]]
    )
    assert verdict.legal is legal


def test_going_out_concealed_needs_no_minimum():
    hand = ["4", "4", "4", "4", "4", "4", "4", "5"]
    verdict = judge(action="go_out", hand=hand, melds=[["4"] * 7], discard="5", score=3000)
    assert verdict.legal and verdict.count == 35 and verdict.minimum == 120
    assert any("concealed" in reason for reason in verdict.reasons)
    verdict = judge(action="go_out", hand=hand, melds=[["4"] * 7], discard="5", score=3000, took_pile=True)
    assert codes_of(verdict) == {"below-minimum"}


def test_the_concealed_note_needs_a_canasta_of_this_turns_own_melds():
    """Classic, four players: the partner's natural canasta of queens is on the table.

    Melding K K K and 5 5 5 and discarding the 9 goes out (the side has the queens' canasta), but
    not concealed: a player going out concealed melds a canasta of their own in that turn, and
    these six cards make none. Seven kings and 5 5 5 do make one: then it may be concealed.
    """
    partner = [["Q"] * 7]
    short = judge(
        action="go_out",
        hand=["K", "K", "K", "5", "5", "5", "9"],
        melds=[["K"] * 3, ["5"] * 3],
        discard="9",
        table=partner,
    )
    assert short.legal and not any("concealed" in reason for reason in short.reasons)
    kings = judge(
        action="go_out", hand=["K"] * 7 + ["5", "5", "5", "9"], melds=[["K"] * 7, ["5"] * 3], discard="9", table=partner
    )
    assert kings.legal and MAYBE_CONCEALED in kings.reasons


def test_going_out_leaves_no_card_behind():
    verdict = judge(
        action="go_out", hand=["K", "K", "K", "5", "6"], melds=[["K", "K", "K"]], discard="5", table=[["Q"] * 7]
    )
    assert codes_of(verdict) == {"cards-left"}
    assert "6" in verdict.reasons[0]


@pytest.mark.parametrize(
    ("melds", "legal"),
    [([["3S", "3S", "3C"], ["K", "K", "K"]], True), ([["3S", "3C", "2D"], ["K", "K", "K"]], False)],
)
def test_black_threes_only_going_out(melds, legal):
    hand = [card for meld in melds for card in meld]
    verdict = judge(action="go_out", hand=hand, melds=melds, table=[["Q"] * 7])
    assert verdict.legal is legal


def test_going_out_without_discard_is_fine_in_classic_not_in_american():
    body = {"action": "go_out", "hand": ["K", "K", "K"], "melds": [["K", "K", "K"]], "table": [["Q"] * 7, ["J"] * 7]}
    assert judge("classic", **body).legal
    assert codes_of(judge("american", **body)) == {"going-out-needs-discard"}


# --- discards ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("variant", "options", "discard", "legal", "effect"),
    [
        ("classic", {}, "2C", True, "freezes the pile"),
        ("classic", {}, "JK", True, "freezes the pile"),
        ("classic", {}, "3S", True, "stops the next player"),
        ("classic", {"black_three_freezes": True}, "3S", True, "freezes the pile at your table"),
        ("classic", {}, "K", True, "next player"),
        ("classic", {}, "3H", False, "lay it out"),
        ("samba", {}, "2C", True, "freezes the pile"),
        ("american", {}, "2C", False, "only as your last card"),
        ("american", {}, "3S", False, "only as your last card"),
        ("american", {}, "K", True, "next player"),
    ],
)
def test_discards(variant, options, discard, legal, effect):
    hand = ["K", "5", discard]
    verdict = judge(variant, options=options, action="discard", hand=hand, discard=discard, table=[["Q", "Q", "Q"]])
    assert verdict.legal is legal
    assert effect in " ".join(verdict.reasons)


def test_discarding_the_last_card_goes_out():
    verdict = judge(action="discard", hand=["5"], discard="5", table=[["Q", "Q", "Q"]])
    assert codes_of(verdict) == {"not-enough-canastas"}
    assert judge(action="discard", hand=["5"], discard="5", table=[["Q"] * 7]).legal


@pytest.mark.parametrize(
    ("hand", "size", "legal"),
    [(["A", "K", "5"], 0, False), (["A", "7", "2C"], 0, True), (["A", "K", "5"], 4, True)],
)
def test_american_ace_or_seven_on_an_empty_pile(hand, size, legal):
    verdict = judge("american", action="discard", hand=hand, discard="A", pile={"size": size}, table=[["Q", "Q", "Q"]])
    assert verdict.legal is legal


def test_american_hand_of_wild_cards_may_discard_one():
    assert judge("american", action="discard", hand=["2C", "JK", "2D"], discard="2C", table=[["Q", "Q", "Q"]]).legal


# --- samba family ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("variant", "hand", "table", "legal", "code"),
    [
        ("samba", ["K", "K", "Q"], [["9", "9", "9"]], True, None),
        ("samba", ["K", "2C", "Q"], [["9", "9", "9"]], False, "pickup-with-wild-off"),
        ("samba", ["Q", "4", "5"], [["K", "K", "K", "K"]], True, None),
        ("samba", ["Q", "4", "5"], [["K"] * 7], False, "pickup-onto-canasta"),
        ("bolivia", ["K", "2C", "Q"], [["9", "9", "9"]], False, "pickup-with-wild-off"),
        ("chile", ["Q", "4", "5"], [["K"] * 7], False, "pickup-onto-canasta"),
    ],
)
def test_samba_family_pickup(variant, hand, table, legal, code):
    verdict = judge(variant, action="pickup", hand=hand, table=table, pile={"top": "K"})
    assert verdict.legal is legal
    if code:
        assert code in codes_of(verdict)


def test_samba_top_card_never_goes_into_a_sequence():
    verdict = judge(
        "samba", action="pickup", hand=["5H", "6H", "Q"], melds=[["4H", "5H", "6H"]], pile={"top": "4H"}, **OPENED
    )
    assert "top-in-sequence" in codes_of(verdict)


@pytest.mark.parametrize(
    ("meld", "table", "legal", "code"),
    [
        (["4H", "5H", "6H", "7H"], [], True, None),
        (["4H", "5H", "6H", "8H"], [], False, "sequence-gap"),
        (["4H", "5H", "6D"], [], False, "sequence-mixed-suits"),
        (["4H", "5H", "6"], [], False, "sequence-needs-suits"),
        (["4H", "5H", "2C", "7H"], [], False, "wild-in-sequence"),
        (["JH", "QH"], [["6H", "7H", "8H", "9H", "10H"]], True, None),
        (["JH", "QH", "KH"], [["6H", "7H", "8H", "9H", "10H"]], True, None),  # a new sequence beside it
        (["KH", "AH"], [["6H", "7H", "8H", "9H", "10H", "JH", "QH"]], False, "meld-too-small"),
        (["K", "K", "2C", "2D"], [], True, None),
        (["K", "K", "2C", "2D", "JK"], [], False, "too-many-wilds"),
    ],
)
def test_samba_melds(meld, table, legal, code):
    verdict = judge("samba", action="meld", hand=meld + ["5", "6"], melds=[meld], table=table or [["9", "9", "9"]])
    assert verdict.legal is legal, verdict.reasons
    if code:
        assert code in codes_of(verdict)


def test_sequences_need_suits_only_where_the_variant_has_them():
    verdict = judge("classic", action="meld", hand=["4H", "5H", "6H", "7", "8"], melds=[["4H", "5H", "6H"]], **OPENED)
    assert codes_of(verdict) == {"mixed-ranks"}


def test_bolivia_wild_meld_and_the_wild_card_lock():
    verdict = judge("bolivia", action="meld", hand=["JK", "JK", "2C", "5", "6"], melds=[["JK", "JK", "2C"]], **OPENED)
    assert verdict.legal
    verdict = judge(
        "bolivia",
        action="meld",
        hand=["2C", "9", "5", "6"],
        table=[["JK", "JK", "2D"], ["9", "9", "9"]],
        melds=[["9", "2C"]],
    )
    assert codes_of(verdict) == {"wild-meld-open"}


# --- Modern American ---------------------------------------------------------------------------
AMERICAN_HAND = ["K", "K", "Q", "Q", "Q", "A", "A", "A", "JK", "5", "6"]


def test_american_initial_meld_from_the_hand_alone():
    verdict = judge("american", action="pickup", hand=AMERICAN_HAND, pile={"top": "K"})
    assert verdict.legal and verdict.count >= 125
    assert all("K" not in [str(c) for c in meld] for meld in verdict.how[1:])
    verdict = judge(
        "american", action="pickup", hand=AMERICAN_HAND, melds=[["K", "K", "K"], ["Q", "Q", "Q"]], pile={"top": "K"}
    )
    assert (verdict.legal, verdict.count) == (False, 30)


@pytest.mark.parametrize(
    ("melds", "legal", "code"),
    [
        ([["K", "K", "K", "JK"], ["A", "A", "A", "2C"]], True, None),
        ([["K", "K", "JK"], ["A", "A", "2C", "2D"]], False, "opening-needs-set"),
        ([["K"] * 7], True, None),  # a splash: no minimum
        ([["2C", "2D", "2H"], ["A", "A", "A"]], False, "below-minimum"),  # 120
    ],
)
def test_american_initial_meld(melds, legal, code):
    hand = [card for meld in melds for card in meld] + ["5", "6"]
    verdict = judge("american", action="meld", hand=hand, melds=melds)
    assert verdict.legal is legal, verdict.reasons
    if code:
        assert code in codes_of(verdict)


@pytest.mark.parametrize(
    ("table", "meld", "legal", "code"),
    [
        ([["K", "K", "K"]], ["7", "7", "7", "2C"], False, "pure-rank-wild"),
        ([["K", "K", "K"]], ["A", "A", "A", "2C"], False, "wild-only-in-opening"),
        ([["A", "A", "A", "JK"]], ["A", "2C"], True, None),
        ([["A", "A", "A"]], ["A", "2C"], False, "pure-meld-stays-pure"),
        ([["K", "K", "K"]], ["Q", "Q", "2C", "JK"], True, None),
        ([["K", "K", "K"]], ["Q", "Q", "Q", "2C", "2D", "JK"], False, "too-many-wilds"),
        ([["K", "K", "K", "K", "K", "K"]], ["K", "K"], False, "meld-too-long"),
        ([["K", "K", "K"], ["JK", "2D", "2H"]], ["Q", "Q", "Q", "2C"], False, "wild-meld-open"),
        ([["K", "K", "K"]], ["3S", "3S", "3C"], False, "three-melded"),
    ],
)
def test_american_melds(table, meld, legal, code):
    verdict = judge("american", action="meld", hand=meld + ["5", "6"], table=table, melds=[meld])
    assert verdict.legal is legal, verdict.reasons
    if code:
        assert code in codes_of(verdict)


@pytest.mark.parametrize(
    ("hand", "table", "legal", "code"),
    [
        (["K", "K", "Q"], [["K", "K", "K", "K"]], True, None),
        (["K", "K", "Q"], [["K", "K", "K", "K", "K"]], False, "pickup-meld-full"),
        (["K", "2C", "Q"], [["9", "9", "9"]], False, "pickup-needs-pair"),
        (["Q", "4", "5"], [["K", "K", "K"]], False, "pickup-needs-pair"),
    ],
)
def test_american_pickup(hand, table, legal, code):
    verdict = judge("american", action="pickup", hand=hand, table=table, pile={"top": "K"})
    assert verdict.legal is legal
    if code:
        assert code in codes_of(verdict)


def test_american_may_keep_a_red_three():
    verdict = judge("american", action="meld", hand=["3H", "K", "K", "K", "5"], melds=[["K", "K", "K"]], **OPENED)
    assert verdict.legal and not any("Lay out" in reason for reason in verdict.reasons)
    verdict = judge("classic", action="meld", hand=["3H", "K", "K", "K", "5"], melds=[["K", "K", "K"]], **OPENED)
    assert verdict.legal and any("Lay out 3H" in reason for reason in verdict.reasons)


# --- every variant: the rules they share -------------------------------------------------------
# docs/rules.md "Presets", the initial-meld minimum from a total of 0 to 1495: every preset needs 50 but American, 125.
MINIMUM_FROM_ZERO = {
    "classic": 50, "classic-2p": 50, "classic-3p": 50, "classic-5p": 50, "classic-6p-3x2": 50,
    "classic-6p-2x3": 50, "american": 125, "samba": 50, "bolivia": 50, "chile": 50,
}  # fmt: skip


def test_every_variant_has_a_hand_worked_minimum():
    assert set(MINIMUM_FROM_ZERO) == set(VARIANTS)


@pytest.mark.parametrize(("variant", "minimum"), sorted(MINIMUM_FROM_ZERO.items()))
def test_every_variant_a_natural_meld_and_its_minimum(variant, minimum):
    """A-A-A-A counts 4 x 20 = 80 (docs/rules.md "Cards"): enough for 50, short of American's 125."""
    verdict = judge(variant, action="meld", hand=["A", "A", "A", "A", "5", "6"], melds=[["A", "A", "A", "A"]])
    assert (verdict.minimum, verdict.count) == (minimum, 80)
    assert verdict.legal is (variant != "american")
    if variant == "american":
        assert codes_of(verdict) == {"below-minimum"}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_variant_refuses_a_red_three_in_a_meld(variant):
    verdict = judge(variant, action="meld", hand=["3D", "K", "K", "5", "6"], melds=[["3D", "K", "K"]], **OPENED)
    assert not verdict.legal


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_variant_never_takes_a_wild_top(variant):
    verdict = judge(variant, action="pickup", hand=["K", "K", "5"], pile={"top": "JK"}, **OPENED)
    assert codes_of(verdict) == {"pile-top-wild"}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_variant_takes_an_open_pile_with_a_natural_pair(variant):
    verdict = judge(variant, action="pickup", hand=["K", "K", "5"], pile={"top": "K"}, **OPENED)
    assert verdict.legal
    assert [[str(c) for c in meld] for meld in verdict.how] == [["K", "K", "K"]]


# docs/rules.md "Presets", canasta bonuses: wild-card canastas exist in American (wild, jokers, twos), Bolivia and
# Chile (a bolivia); the classic family has them only with the wild_canasta option, Samba never.
WILD_MELDS = {"american", "bolivia", "chile"}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_variant_wild_meld_only_where_it_has_them(variant):
    # With no meld on the table for them to go on, three wild cards alone can only be a meld of wild cards.
    no_melds = {"table": [], "initial_meld_done": True}
    verdict = judge(variant, action="meld", hand=["JK", "2C", "2D", "5", "6"], melds=[["JK", "2C", "2D"]], **no_melds)
    assert verdict.legal is (variant in WILD_MELDS)
    if variant not in WILD_MELDS:
        assert codes_of(verdict) == {"wild-meld-not-allowed"}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_variant_going_out_without_canastas(variant):
    verdict = judge(variant, action="go_out", hand=["K", "K", "K", "5"], melds=[["K", "K", "K"]], discard="5", **OPENED)
    assert "not-enough-canastas" in codes_of(verdict)


# --- positions that cannot occur ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"action": "meld", "hand": ["JK"] * 5, "melds": [["JK"] * 5]}, ""),
        ({"action": "meld", "hand": ["K", "K"], "melds": [["K", "K", "K"]]}, "melds"),
        ({"action": "meld", "hand": ["3", "K"], "melds": [["K"]]}, "hand[0]"),
        ({"action": "meld", "hand": ["K"], "melds": []}, "melds"),
        ({"action": "discard", "hand": ["K"]}, "discard"),
        ({"action": "discard", "hand": ["K"], "discard": "Q"}, "discard"),
        ({"action": "pickup", "hand": ["K", "K"]}, "pile.top"),
        ({"action": "meld", "hand": ["K"], "melds": [["K"]], "table": [["Q", "Q"]]}, "table[0]"),
        ({"action": "meld", "hand": ["K"], "melds": [["K"]], "table": [["Q"] * 3, ["Q"] * 3]}, "table[1]"),
        ({"action": "fly", "hand": ["K"]}, "action"),
        ({"action": "meld", "hand": "K K", "melds": [["K"]]}, "hand"),
        ({"action": "meld", "hand": ["K"], "melds": [["K"]], "score": "lots"}, "score"),
        ({"action": "meld", "hand": ["K"], "melds": [["K"]], "colour": "red"}, "colour"),
    ],
)
def test_impossible_positions_are_refused(body, field):
    with pytest.raises(InvalidError) as error:
        judge(**body)
    assert field in [v.field for v in error.value.violations]
    assert all(v.message.endswith((".", ")")) for v in error.value.violations)


def test_unknown_variant_and_option_are_refused():
    with pytest.raises(InvalidError) as error:
        judge("whist", action="meld", hand=["K"], melds=[["K"]])
    assert error.value.violations[0].field == "variant"
    with pytest.raises(InvalidError) as error:
        judge("american", {"sequences": True}, action="meld", hand=["K"], melds=[["K"]])
    assert error.value.violations[0].field == "options.sequences"


# --- helpers and properties --------------------------------------------------------------------
def test_describe_and_take():
    assert describe(Position.from_dict({"action": "meld", "hand": ["K", "JK", "K", "2C"]}).hand) == (
        "two kings, a two and a joker"
    )
    missing, rest = take(Position.from_dict({"action": "meld", "hand": ["K", "KS"]}).hand, [])
    assert missing == [] and len(rest) == 2


def test_verdict_document_shape():
    document = judge(action="pickup", hand=PAGAT_HAND, pile={"top": "K"}).to_dict()
    assert set(document) >= {"legal", "reasons", "count", "minimum", "how"}
    assert document["how"] == PAGAT_MELDS
    assert all(isinstance(reason, str) and reason for reason in document["reasons"])


def test_every_verdict_has_a_reason():
    for action, extra in [("meld", {"melds": [["K", "K", "K"]]}), ("discard", {"discard": "K"}), ("go_out", {})]:
        verdict = judge(action=action, hand=["K", "K", "K"], **extra)
        assert verdict.reasons


NATURAL = st.sampled_from(["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4"])
CARD = st.one_of(NATURAL, st.sampled_from(["2C", "2D", "JK", "3S", "3H"]))


@settings(max_examples=150, deadline=None)
@given(st.lists(CARD, min_size=1, max_size=9), st.sampled_from(sorted(VARIANTS)), st.randoms(use_true_random=False))
def test_reordering_a_meld_never_changes_the_verdict(meld, variant, random):
    body = {"action": "meld", "hand": meld + ["5", "6"], "melds": [meld], "table": [["9", "9", "9"]]}
    try:
        first = judge(variant, **body)
    except InvalidError:
        return
    shuffled = list(meld)
    random.shuffle(shuffled)
    again = judge(variant, **{**body, "melds": [shuffled], "hand": shuffled + ["6", "5"]})
    assert again.legal == first.legal
    assert codes_of(again) == codes_of(first)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=4) | CARD,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "variant": st.sampled_from([*VARIANTS, "x"]),
            "action": st.sampled_from(["meld", "pickup", "go_out", "discard", "x"]),
            "hand": st.lists(CARD, max_size=8) | JSON,
            "table": st.lists(st.lists(CARD, max_size=8), max_size=3) | JSON,
            "melds": st.lists(st.lists(CARD, max_size=8), max_size=3) | JSON,
            "pile": st.fixed_dictionaries(
                {}, optional={"top": CARD | JSON, "size": st.integers(-1, 30), "frozen": JSON}
            )
            | JSON,
            "discard": CARD | JSON,
            "score": st.integers(-5000, 12000) | JSON,
            "initial_meld_done": JSON,
            "options": JSON,
        },
    )
)
def test_any_request_is_judged_or_refused(body):
    try:
        verdict = check_request(body)
    except InvalidError as error:
        assert error.violations
    else:
        assert verdict.reasons
        assert verdict.to_dict()["legal"] in (True, False)


def test_position_round_trips():
    position = Position.from_dict(
        {"action": "pickup", "hand": ["K", "K"], "table": [["Q", "Q", "Q"]], "pile": {"top": "K", "size": 3}}
    )
    assert Position.from_dict(position.to_dict()) == position
    assert check(VARIANTS["classic"], position).legal


def test_an_explicit_initial_meld_done_wins_over_the_table():
    # docs/api.md: initial_meld_done only *defaults* to the table being non-empty. Said outright, it
    # is taken at its word: Q-Q-Q listed, but "not opened" means the minimum of 50 applies to
    # K-K-K (30 points), which falls short.
    verdict = check_request(
        {
            "action": "meld",
            "hand": ["K", "K", "K", "7"],
            "melds": [["K", "K", "K"]],
            "table": [["Q"] * 3],
            "initial_meld_done": False,
            "score": 0,
        }
    )
    assert verdict.legal is False
    assert (verdict.count, verdict.minimum) == (30, 50)


# --- play rules are variant data ---------------------------------------------------------------
def test_play_rules_are_read_from_the_variant_not_its_name():
    # docs/rules.md "Taking the pile": in American a side meld of five or more blocks the pile (a pair and the
    # top card would pass seven); classic takes that pile with the pair. Classic's record given
    # American's play rules must judge it the American way.
    body = {"action": "pickup", "hand": ["K", "K", "Q"], "table": [["K"] * 5], "pile": {"top": "K"}}
    classic = VARIANTS["classic"]
    assert check(classic, Position.from_dict(body)).legal
    american_play = replace(classic, play_rules=VARIANTS["american"].play_rules)
    verdict = check(american_play, Position.from_dict(body))
    assert codes_of(verdict) == {"pickup-meld-full"}


@pytest.mark.parametrize(
    ("variant", "blocked_from", "pair_only", "guarded"),
    [("classic", None, False, ()), ("samba", None, False, ()), ("american", 5, True, ("A", "7"))],
)
def test_presets_carry_the_rulebooks_play_rules(variant, blocked_from, pair_only, guarded):
    play = VARIANTS[variant].play_rules
    assert play.canasta == 7  # seven cards make a canasta in every rulebook
    assert (play.pickup_blocked_from, play.pickup_pair_only, play.empty_pile_guarded) == (
        blocked_from,
        pair_only,
        guarded,
    )
    assert VARIANTS[variant].with_options({"target": 6000}).play_rules == play


@pytest.mark.parametrize("variant", ["classic", "american"])
@pytest.mark.parametrize("opened", [True, False])
def test_a_lone_wild_card_on_the_tops_rank_does_not_meld_the_top(variant, opened):
    # docs/rules.md "Taking the pile": to take the pile the top card is melded at once. A lone two goes onto the
    # side's tens, but no ten is melded with the top ten on the pile, so the pile is not taken.
    # (The checker used to crash here looking for the top ten in that meld.)
    verdict = judge(
        variant,
        action="pickup",
        hand=["2", "5", "K", "K", "K"],
        table=[["10", "10", "10"]],
        melds=[["2"]],
        pile={"top": "10"},
        initial_meld_done=opened,
    )
    assert not verdict.legal
    assert verdict.reasons[0] == "To take the pile you must meld the top ten now."


def test_the_pickup_search_judges_each_set_of_melds_once(monkeypatch):
    # Classic at 1200 needs 50 (docs/rules.md). The top king with the pair of kings counts 30, short;
    # adding Q-Q-2C (10 + 10 + 20) makes 70. Trimming tries K-K-K alone again and the answer is
    # K-K-K; Q-Q-2C again: both were judged already, so two judgements answer the request.
    from scorepad.canasta.plays import pickup

    judged = []
    real = pickup._judge_pickup

    def counting(rules, play, position):
        judged.append(tuple(tuple(str(card) for card in meld) for meld in position.melds))
        return real(rules, play, position)

    monkeypatch.setattr(pickup, "_judge_pickup", counting)
    request = {
        "action": "pickup",
        "hand": ["K", "K", "Q", "Q", "2C", "9", "9", "7H", "5S"],
        "pile": {"top": "K", "size": 12},
        "score": 1200,
    }
    verdict = check_request(request)
    assert verdict.legal and verdict.count == 70 and verdict.minimum == 50
    assert [[str(c) for c in meld] for meld in verdict.how] == [["K", "K", "K"], ["Q", "Q", "2C"]]
    assert judged == [(("K", "K", "K"),), (("K", "K", "K"), ("Q", "Q", "2C"))]
