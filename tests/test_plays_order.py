"""The checker's answer never depends on the order of ``table`` or ``melds`` (issue 21): a wild
card sent alone goes on the meld the player chooses, and the checker tries them all."""

from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.canasta import InvalidError
from scorepad.canasta.plays import check_request

ORDERED = settings(max_examples=150, deadline=None)
TABLE_MELDS = (
    ["10", "10", "10"],
    ["Q", "Q", "Q", "Q", "Q", "Q"],
    ["K", "K", "K", "K", "K"],
    ["7", "7", "7"],
    ["9", "9", "9", "9", "9", "9", "9"],
    ["8", "8", "2D"],
    ["5H", "6H", "7H"],
    ["9S", "10S", "JS"],
)
PROPOSED = (["JK"], ["2C"], ["5", "5", "5"], ["K", "K"], ["9"], ["8H"], ["J", "J", "J"], ["4", "4", "2H"], ["Q"])
VARIANTS = ("classic", "american", "samba", "bolivia")


def verdict_of(body):
    """What is decided: legal or not and the broken rules' codes, or the 422's codes."""
    try:
        verdict = check_request(body)
    except InvalidError as error:
        return ("invalid", sorted(v.code for v in error.violations))
    return (verdict.legal, sorted(p.code for p in verdict.problems))


@st.composite
def positions(draw):
    variant = draw(st.sampled_from(VARIANTS))
    table = draw(st.lists(st.sampled_from(TABLE_MELDS), max_size=4, unique_by=lambda m: m[0]))
    melds = draw(st.lists(st.sampled_from(PROPOSED), min_size=1, max_size=3))
    extra = draw(st.lists(st.sampled_from(["5", "6", "J", "4"]), max_size=3))
    action = draw(st.sampled_from(["meld", "go_out"]))
    hand = [card for meld in melds for card in meld] + extra
    return {"variant": variant, "action": action, "hand": hand, "table": table, "melds": melds}


@ORDERED
@given(positions(), st.randoms(use_true_random=False))
def test_the_verdict_does_not_depend_on_the_order_of_table_or_melds(body, random):
    table, melds = list(body["table"]), list(body["melds"])
    random.shuffle(table)
    random.shuffle(melds)
    assert verdict_of(body) == verdict_of({**body, "table": table, "melds": melds})


@ORDERED
@given(positions(), st.data())
def test_a_pickup_verdict_does_not_depend_on_the_order_of_table(body, data):
    top = data.draw(st.sampled_from(["K", "Q", "9", "8", "5"]))
    pickup = {**body, "action": "pickup", "pile": {"top": top, "size": 6}, "hand": body["hand"] + [top, top]}
    pickup.pop("melds")
    table = data.draw(st.permutations(body["table"]))
    assert verdict_of(pickup) == verdict_of({**pickup, "table": list(table)})


@ORDERED
@given(positions(), st.data())
def test_a_pickup_with_melds_does_not_depend_on_their_order(body, data):
    top = data.draw(st.sampled_from(["K", "Q", "9", "5", "J"]))
    melds = [list(meld) for meld in body["melds"]] + [[top, top, top]]
    pickup = {**body, "action": "pickup", "pile": {"top": top, "size": 6}, "melds": melds}
    pickup["hand"] = body["hand"] + [top, top]
    table = data.draw(st.permutations(body["table"]))
    shuffled = data.draw(st.permutations(melds))
    assert verdict_of(pickup) == verdict_of({**pickup, "table": list(table), "melds": list(shuffled)})


@ORDERED
@given(positions(), st.sampled_from(["K", "Q", "9", "5", "4"]), st.booleans())
def test_american_reasons_never_speak_of_sequences(body, top, with_melds):
    # Issue 21: American has no sequences, so no reason it gives may mention one.
    request = {**body, "variant": "american", "action": "pickup", "pile": {"top": top}}
    request["hand"] = body["hand"] + [top]
    if with_melds:
        request["melds"] = [[top] + list(body["melds"][0])]
    else:
        request.pop("melds")
    try:
        reasons = check_request(request).reasons
    except InvalidError:
        return
    assert not any("sequence" in reason for reason in reasons), reasons


BOLIVIA_PICKUP = {
    "variant": "bolivia",
    "action": "pickup",
    "hand": ["Q", "2C", "9", "6", "4", "6", "9", "9"],
    "table": [["7", "7", "7"], ["5H", "6H", "7H"]],
    "melds": [["Q"], ["2C"], ["9"], ["9", "9", "9"]],
    "pile": {"top": "9", "size": 6},
}
# Worked out from docs/rules.md "Melds": in Bolivia the lone 9 joins the 9-9-9 (with the top 9 a meld of
# five nines), so it is never too small. The lone 2C goes on the meld the player chooses: the
# 7-7-7, the nines or the Q (never the 5H-6H-7H sequence). Wherever it goes, the Q is too small:
# alone (one card) beside 2C on the 7-7-7 or the nines, or as Q-2C (two cards).
QUEEN_ALONE = "Q is only one card: a meld needs at least three (add two more queens, or one more and a wild card)."
BOLIVIA_REFUSAL = [
    f"With 2C on your 7-7-7: {QUEEN_ALONE}",
    f"With 2C on your 9-9-9: {QUEEN_ALONE}",
    "With 2C on your Q: Q-2C is only two cards: a meld needs at least three (add another queen).",
]


def test_a_lone_card_beside_a_meld_of_its_rank_is_judged_alike_in_either_order():
    # Issue 21: the 9 placed before the 9-9-9 used to stand alone (5 problems), after it joined (3).
    reordered = {
        **BOLIVIA_PICKUP,
        "table": [["5H", "6H", "7H"], ["7", "7", "7"]],
        "melds": [["9", "9", "9"], ["9"], ["2C"], ["Q"]],
    }
    for body in (BOLIVIA_PICKUP, reordered):
        verdict = check_request(body)
        assert not verdict.legal
        assert [p.code for p in verdict.problems] == ["meld-too-small"] * 3
        assert sorted(str(p.message) for p in verdict.problems) == BOLIVIA_REFUSAL
        assert sorted(map(str, verdict.reasons)) == BOLIVIA_REFUSAL
