"""Issue #31: wild cards added to a meld, Palace's strict rules, Samba's single cards, the rest of the rulebooks.

Every expected answer is worked out by hand from the sentence of the rulebook quoted beside it.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.canasta.plays import check_request
from scorepad.canasta.violations import InvalidError


def judge(variant="classic", options=None, **body):
    return check_request({"variant": variant, "options": options or {}, **body})


def codes_of(verdict):
    return {problem.code for problem in verdict.problems}


NINES = [["9", "9", "9"]]
WILDS = ["2H", "2C", "JK"]


# --- 1. a group of wild cards added to a meld -------------------------------------------------
# pagat Classic: "No meld can contain more than three wild cards – so a six card meld must include
# at least three natural cards". 9-9-9 with 2H-2C-JK is six cards, three of them natural: a meld.
@pytest.mark.parametrize("onto", [None, {"melds[0]": "table[0]"}])
def test_three_wild_cards_onto_three_nines(onto):
    body = {"action": "meld", "hand": [*WILDS, "5", "6"], "melds": [WILDS], "table": NINES}
    if onto:
        body["onto"] = onto
    verdict = judge(**body)
    assert verdict.legal, verdict.reasons
    assert "wild-meld-not-allowed" not in codes_of(verdict)
    assert "goes on your 9-9-9" in verdict.reasons[0]


def test_three_wild_cards_as_one_group_or_three_agree():
    one = judge(action="meld", hand=[*WILDS, "5", "6"], melds=[WILDS], table=NINES)
    three = judge(action="meld", hand=[*WILDS, "5", "6"], melds=[[card] for card in WILDS], table=NINES)
    assert one.legal and three.legal


# pagat: "a canasta must contain at least four natural cards"; Bicycle: "a mixed canasta (one that
# has one to three wild cards)". Four nines and 2-2-Joker: seven cards, four natural: a mixed canasta.
def test_four_nines_and_three_wild_cards_make_a_mixed_canasta():
    verdict = judge(action="meld", hand=[*WILDS, "5", "6"], melds=[WILDS], table=[["9"] * 4])
    assert verdict.legal, verdict.reasons
    assert "a mixed canasta" in verdict.reasons[0]


# Going out that way: pagat "you need at least one canasta" to go out (four-player Classic).
def test_going_out_with_three_wild_cards_completing_the_canasta():
    verdict = judge(action="go_out", hand=[*WILDS, "5"], melds=[WILDS], table=[["9"] * 4], discard="5")
    assert verdict.legal, verdict.reasons


def test_going_out_with_a_nine_and_three_wild_cards_as_two_groups():
    hand = [*WILDS, "9"]
    verdict = judge(action="go_out", hand=hand, melds=[["9"], WILDS], table=NINES)
    assert verdict.legal, verdict.reasons


# pagat: "No meld can contain more than three wild cards": four are refused, as one group or two.
@pytest.mark.parametrize("melds", [[["2H", "2C", "JK", "2D"]], [["2H", "2C"], ["JK", "2D"]]])
def test_four_wild_cards_are_too_many(melds):
    hand = ["2H", "2C", "JK", "2D", "5", "6"]
    onto = {f"melds[{i}]": "table[0]" for i in range(len(melds))}
    verdict = judge(action="meld", hand=hand, melds=melds, table=[["9"] * 4], onto=onto)
    assert not verdict.legal
    assert codes_of(verdict) == {"too-many-wilds"}


# Samba (docs/rules.md "Melds"; max_wilds 2 in the Samba family): three wild cards are one too many for any meld.
def test_samba_three_wild_cards_onto_nines_are_too_many():
    verdict = judge(
        "samba", action="meld", hand=[*WILDS, "5", "6"], melds=[WILDS], table=NINES, onto={"melds[0]": "table[0]"}
    )
    assert codes_of(verdict) == {"too-many-wilds"}


# Wild canastas (pagat variation "a meld consisting entirely of wild cards"): three wild cards alone
# may be a meld of their own, or, named with onto, go on the nines.
def test_where_wild_melds_exist_a_group_stands_alone_or_goes_where_onto_says():
    body = {"action": "meld", "hand": [*WILDS, "5", "6"], "melds": [WILDS], "table": NINES}
    alone = judge(options={"wild_canasta": "1000"}, **body)
    assert alone.legal and "a meld of three wild cards" in alone.reasons[0]
    onto = judge(options={"wild_canasta": "1000"}, onto={"melds[0]": "table[0]"}, **body)
    assert onto.legal and "goes on your 9-9-9" in onto.reasons[0]


def test_onto_a_group_of_naturals_is_still_refused():
    with pytest.raises(InvalidError) as error:
        judge(
            action="meld",
            hand=["9", "9", "9", "5"],
            melds=[["9", "9", "9"]],
            table=[["K"] * 3],
            onto={"melds[0]": "table[0]"},
        )
    assert [v.code for v in error.value.violations] == ["onto-not-wild"]


# Hypothesis: wild cards added to a meld one by one or all at once give the same verdict.
RANKS = ["4", "5", "6", "8", "9", "10", "J", "Q", "K"]
VARIANTS_AND_OPTIONS = [
    ("classic", {}),
    ("classic", {"wilds_not_more_than_naturals": False}),
    ("classic", {"wild_canasta": "1000"}),
    ("classic", {"strict_wild_cards": True}),
    ("classic-2p", {"max_wilds": 2}),
    ("samba", {}),
    ("bolivia", {}),
    ("american", {}),
]


@settings(max_examples=120, deadline=None)
@given(
    st.sampled_from(VARIANTS_AND_OPTIONS),
    st.sampled_from(RANKS),
    st.integers(2, 6),
    st.lists(st.sampled_from(["2C", "2D", "2H", "2S", "JK"]), min_size=0, max_size=2),
    st.lists(st.sampled_from(["2C", "2D", "2H", "2S", "JK"]), min_size=1, max_size=4),
    st.booleans(),
    st.booleans(),
)
def test_wild_cards_one_by_one_or_all_at_once(setting, rank, naturals, on_table, added, name_it, opened):
    variant, options = setting
    table = [[rank] * naturals + on_table]
    hand = [*added, "5", "6"]
    body = {"action": "meld", "hand": hand, "table": table, "initial_meld_done": opened}
    try:
        at_once = judge(variant, options, melds=[added], onto={"melds[0]": "table[0]"}, **body)
    except InvalidError as error:
        # A table meld no side could have (too many wild cards on it already), or more of a card than the decks hold.
        assert {v.code for v in error.violations} <= {"table-meld-impossible", "more-cards-than-decks"}
        return
    singles = [[card] for card in added]
    onto = {f"melds[{i}]": "table[0]" for i in range(len(singles))}
    one_by_one = judge(variant, options, melds=singles, onto=onto, **body)
    assert at_once.legal is one_by_one.legal, (at_once.reasons, one_by_one.reasons)
    assert codes_of(at_once) == codes_of(one_by_one)
    has_wild_melds = variant in ("bolivia", "american") or options.get("wild_canasta")
    if not name_it or has_wild_melds:
        return
    # With the nines the only meld, where wild cards cannot be a meld of their own, naming it changes nothing.
    left_open = judge(variant, options, melds=[added], **body)
    assert left_open.legal is at_once.legal


# --- 3. Samba's single cards against the table as it becomes ------------------------------------
# docs/rules.md "Melds": Samba sequences are "3 to 7 cards of one suit, 4 up to A"; Palace: "The cards must
# be consistent and in order". 4H-8H with 9H then 10H is 4H-10H, seven in order: a sequence canasta.
RUN = [["4H", "5H", "6H", "7H", "8H"], ["K", "K", "K"]]


@pytest.mark.parametrize("melds", [[["9H"], ["10H"]], [["10H"], ["9H"]], [["9H", "10H"]], [["10H", "9H"]]])
def test_samba_single_cards_extend_a_sequence_in_either_order(melds):
    verdict = judge("samba", action="meld", hand=["9H", "10H", "5", "6"], melds=melds, table=RUN)
    assert verdict.legal, verdict.reasons
    assert "goes on your 4H-5H-6H-7H-8H" in verdict.reasons[0]
    assert "a sequence canasta" in verdict.reasons[0]


def test_samba_three_single_cards_extend_a_sequence_from_its_far_end():
    # 4H-6H on the table; 7H, 8H, 9H one by one: 4H-9H, six in order.
    melds = [["9H"], ["8H"], ["7H"]]
    verdict = judge("samba", action="meld", hand=["7H", "8H", "9H", "5", "6"], melds=melds, table=[["4H", "5H", "6H"]])
    assert verdict.legal, verdict.reasons


def test_samba_a_card_that_fits_nowhere_is_still_refused():
    # 10H does not follow 4H-8H without 9H: it is one card of a rank with no meld.
    verdict = judge("samba", action="meld", hand=["10H", "5", "6"], melds=[["10H"]], table=RUN)
    assert not verdict.legal
    assert "meld-too-small" in codes_of(verdict)


# --- 2. Canasta Palace "Strict Wild Cards" and "Strict Discard Pile" ---------------------------
STRICT = {"strict_wild_cards": True}
PILE = {"strict_discard_pile": True}


# "The maximum number of wild cards in a meld is reduced to two instead of three." (whatever max_wilds says)
@pytest.mark.parametrize("options", [STRICT, {**STRICT, "max_wilds": 3}])
def test_strict_wild_cards_two_at_most(options):
    meld = ["A", "A", "A", "2C", "2D", "JK"]
    verdict = judge(options=options, action="meld", hand=[*meld, "5", "6"], melds=[meld])
    assert codes_of(verdict) == {"too-many-wilds"}


# "Wild cards cannot be added to a canasta." Without the rule, pagat: "A wild card added to a pure
# canasta of course makes it mixed."
def test_strict_wild_cards_none_onto_a_canasta():
    body = {"action": "meld", "hand": ["2C", "5", "6"], "melds": [["2C"]], "table": [["K"] * 7]}
    assert codes_of(judge(options=STRICT, **body)) == {"wild-onto-canasta"}
    assert judge(**body).legal


# "After the first meld, at least five natural cards need to be used before adding wild cards."
@pytest.mark.parametrize(
    ("table", "melds", "legal"),
    [
        ([["9"] * 3], [["2C"]], False),  # three natural nines: not five
        ([["9"] * 5], [["2C"]], True),  # five natural nines, then a two: six cards
        ([["9"] * 4], [["9"], ["2C"]], True),  # the fifth nine comes this turn
        ([["9"] * 3], [["Q", "Q", "2C"]], False),  # a new meld after the first meld: two naturals
    ],
)
def test_strict_wild_cards_five_naturals_after_the_first_meld(table, melds, legal):
    hand = [card for meld in melds for card in meld] + ["5", "6"]
    verdict = judge(options=STRICT, action="meld", hand=hand, melds=melds, table=table)
    assert verdict.legal is legal, verdict.reasons
    if not legal:
        assert codes_of(verdict) == {"wild-needs-five-naturals"}


def test_strict_wild_cards_leave_the_first_meld_alone():
    # The side's first meld: A-A-2C is 60 against a minimum of 50, and two naturals with a wild card is a meld.
    verdict = judge(options=STRICT, action="meld", hand=["A", "A", "2C", "5", "6"], melds=[["A", "A", "2C"]])
    assert verdict.legal, verdict.reasons


def test_strict_wild_cards_score_a_mixed_canasta_with_five_naturals():
    # Two wild cards at most: a mixed canasta of seven holds at least five naturals (scoring's least contents).
    from scorepad.canasta import rules_for

    assert rules_for("classic", STRICT).canasta_kinds["mixed"].naturals == 5
    assert rules_for("classic").canasta_kinds["mixed"].naturals == 4


# "The discard pile is permanently frozen."
def test_strict_discard_pile_is_always_frozen():
    body = {"action": "pickup", "hand": ["K", "2C", "5"], "table": [["Q"] * 3], "pile": {"top": "K", "size": 5}}
    assert judge(**body).legal  # one king and a two take an open pile (pagat)
    assert codes_of(judge(options=PILE, **body)) == {"pickup-needs-pair"}


# "Cards from the discard pile cannot be used to add cards to a canasta."
def test_strict_discard_pile_never_onto_a_canasta():
    canasta = ["K", "K", "K", "K", "K", "2C", "2D"]
    body = {"action": "pickup", "hand": ["K", "K", "5", "6"], "table": [canasta], "pile": {"top": "K", "size": 5}}
    assert judge(options={"pile_always_frozen": True}, **body).legal  # a natural pair still takes a frozen pile
    assert codes_of(judge(options=PILE, **body)) == {"pickup-onto-canasta"}
    not_yet = {**body, "table": [["K", "K", "K"]]}
    assert judge(options=PILE, **not_yet).legal  # three kings are no canasta yet


# --- 4. the options players ask for most --------------------------------------------------------
# pagat, Modern American variations: "Some players do not allow the player making the initial meld
# for their team to take the discard pile, even if they have an additional pair with which to take it.
# The pile can only be taken if your side has already made its initial meld before your turn."
AMERICAN_HAND = ["A", "A", "A", "A", "K", "K", "K", "Q", "Q", "Q", "9", "9", "5"]  # 80 + 30 + 30 = 140 >= 125


def test_american_no_pickup_on_the_initial_meld_turn():
    body = {"action": "pickup", "hand": AMERICAN_HAND, "pile": {"top": "9", "size": 5}}
    assert judge("american", **body).legal  # pagat's main rule: the pair takes the pile after the initial meld
    option = {"no_pickup_on_initial_meld": True}
    assert codes_of(judge("american", option, **body)) == {"pickup-initial-meld"}
    opened = {"action": "pickup", "hand": ["9", "9", "5", "6"], "table": [["K"] * 3], "pile": {"top": "9", "size": 5}}
    assert judge("american", option, **opened).legal


def test_no_pickup_on_initial_meld_is_american_only():
    with pytest.raises(InvalidError) as error:
        judge("classic", {"no_pickup_on_initial_meld": True}, action="discard", hand=["5"], discard="5")
    assert [v.code for v in error.value.violations] == ["option-not-in-variant"]


# pagat Classic, Wild Card Melds: "A meld of seven wild cards is a wild canasta, and a typical bonus
# for it is 2000." One wild canasta and going out: 2000 + 100 + 7 x 20 melded = 2240.
def test_wild_canasta_2000_scores_2000(client):
    entry = {"canastas": {"wild": 1}, "melded_points": 140, "went_out": True}
    body = {"variant": "classic", "options": {"wild_canasta": "2000"}, "hands": [{"entries": [entry, {}]}]}
    response = client.post("/api/v1/score", json=body)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["hands"][0]["scores"][0] == 2240
