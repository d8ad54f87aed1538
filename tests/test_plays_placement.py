"""Issue 21, worked by hand from docs/rules.md ("What the checker decides", "Choices in the rules checker")
and the rulebooks: where a wild card sent alone goes, Samba's second melds of a rank, and reasons
that speak only of the variant asked about."""

import pytest

from scorepad.canasta import InvalidError
from scorepad.canasta.plays import check_request

TENS = ["10S", "10H", "10D"]
SIX_QUEENS = ["QS", "QH", "QD", "QC", "QS", "QH"]
SEVEN_KINGS = ["K"] * 7


def codes(verdict):
    return [problem.code for problem in verdict.problems]


def joker_going_out(table, **extra):
    """Issue 21's classic example: JK alone and 5-5-5, going out with no discard."""
    body = {"variant": "classic", "action": "go_out", "hand": ["JK", "5S", "5H", "5D"], "table": table}
    return check_request({**body, "melds": [["JK"], ["5S", "5H", "5D"]], **extra})


@pytest.mark.parametrize("table", [[TENS, SIX_QUEENS], [SIX_QUEENS, TENS]], ids=["tens-first", "queens-first"])
def test_a_lone_joker_goes_where_it_completes_the_canasta(table):
    # Six queens and the joker make seven cards, four or more natural: a mixed canasta (docs/rules.md
    # "Melds"), the one canasta classic needs to go out. On the tens it makes four cards and no canasta.
    verdict = joker_going_out(table)
    assert verdict.legal
    assert "JK goes on your QS-QH-QD-QC-QS-QH: six queens with a joker, a mixed canasta." in verdict.reasons
    assert "You choose the meld JK goes on: on your QS-QH-QD-QC-QS-QH the play is allowed." in verdict.reasons


def test_the_player_may_name_the_meld_with_onto():
    # On the tens (table[0]) the side has no canasta, so it may not go out.
    verdict = joker_going_out([TENS, SIX_QUEENS], onto={"melds[0]": "table[0]"})
    assert not verdict.legal and codes(verdict) == ["not-enough-canastas"]
    assert joker_going_out([TENS, SIX_QUEENS], onto={"melds[0]": "table[1]"}).legal


def test_when_no_meld_works_each_meld_gives_its_reasons():
    # Three queens take the joker as four cards; the tens too: no canasta either way, so the
    # reason is the same wherever the joker goes and is said once.
    verdict = joker_going_out([TENS, ["Q", "Q", "Q"]])
    assert not verdict.legal
    assert codes(verdict) == ["not-enough-canastas"]
    assert verdict.reasons[0] == (
        "Wherever you put JK: To go out your side needs one canasta; counting this turn it has none. "
        "Keep at least one card after your discard until then."
    )
    # American: on the sevens the two is refused (pure), on the kings the side still lacks canastas.
    body = {"variant": "american", "action": "go_out", "hand": ["2C", "5"], "discard": "5", "melds": [["2C"]]}
    verdict = check_request({**body, "table": [["7", "7", "7"], ["K", "K", "K", "K", "K"]]})
    assert not verdict.legal
    assert "With 2C on your 7-7-7: A meld of sevens never takes wild cards: leave the two out." in verdict.reasons
    assert any(reason.startswith("Wherever you put 2C: To go out your side needs two") for reason in verdict.reasons)


def test_two_wild_cards_that_fit_nowhere_give_one_reason_not_sixteen():
    # Four melds of three naturals, a two and a joker: no placement makes a canasta (seven cards
    # need four naturals), so going out is refused for the same reason each of the 16 ways.
    body = {"action": "go_out", "hand": ["2C", "JK"], "melds": [["2C"], ["JK"]]}
    verdict = check_request({**body, "table": [["K"] * 3, ["Q"] * 3, ["9"] * 3, ["5"] * 3]})
    assert not verdict.legal and codes(verdict) == ["not-enough-canastas"]
    assert verdict.reasons[0].startswith("Wherever you put 2C and JK: To go out your side needs one canasta")
    assert len(verdict.reasons) == 1, verdict.reasons


def test_american_two_goes_on_the_kings_not_the_sevens():
    # pagat Modern American: "wild cards cannot be used in a meld of sevens"; kings take up to two.
    body = {"variant": "american", "action": "meld", "hand": ["2C", "5", "6", "8"], "melds": [["2C"]]}
    body["table"] = [["7", "7", "7"], ["K", "K", "K", "K", "K"]]
    verdict = check_request(body)
    assert verdict.legal and "2C goes on your K-K-K-K-K: five kings with a two." in verdict.reasons
    named = check_request({**body, "onto": {"melds[0]": "table[0]"}})
    assert not named.legal and codes(named) == ["pure-rank-wild"]


def test_a_wild_card_goes_on_the_meld_that_completes_a_canasta_not_the_one_started_this_turn():
    # Going out needs a canasta: the two goes on six queens (7 cards), not on the kings laid now.
    body = {"variant": "classic", "action": "go_out", "hand": ["K", "K", "K", "2C"]}
    verdict = check_request({**body, "melds": [["K", "K", "K"], ["2C"]], "table": [["Q"] * 6]})
    assert verdict.legal
    assert "2C goes on your Q-Q-Q-Q-Q-Q: six queens with a two, a mixed canasta." in verdict.reasons


@pytest.mark.parametrize("reverse", [False, True], ids=["as-listed", "reversed"])
def test_five_lone_wild_cards_are_spread_over_the_melds_that_can_take_them(reverse):
    # Classic rules, three decks (six jokers, twelve twos): at most three wild cards in a meld
    # (docs/rules.md "Melds"). Each table meld holds three naturals and two twos, so it takes one more wild
    # card and a second would make four. One wild card on each meld is legal, though only 120 of
    # the 3125 ways to place five wild cards on five melds are.
    table = [[rank] * 3 + ["2", "2"] for rank in ("K", "Q", "J", "10", "9")]
    lone = ["2", "2", "JK", "JK", "JK"]
    body = {"variant": "classic-6p-3x2", "action": "meld", "hand": [*lone, "5", "6"], "melds": [[c] for c in lone]}
    verdict = check_request({**body, "table": table[::-1] if reverse else table})
    assert verdict.legal, verdict.reasons[:3]
    for rank in ("K", "Q", "J", "10", "9"):
        assert sum(f" goes on your {rank}-{rank}-{rank}-2-2: " in reason for reason in verdict.reasons) == 1


def test_two_like_wild_cards_on_one_meld_are_named_once():
    # K-K-K takes 2, 2 and JK (three naturals, three wild cards); Q-Q-Q could take them too.
    body = {"action": "meld", "hand": ["2", "2", "JK", "5", "6"], "melds": [["2"], ["2"], ["JK"]]}
    verdict = check_request({**body, "table": [["K", "K", "K"], ["Q", "Q", "Q"]]})
    assert verdict.legal
    assert len(verdict.reasons) == len(set(verdict.reasons)), verdict.reasons
    assert "You choose the meld 2 goes on: on your K-K-K the play is allowed." in verdict.reasons


@pytest.mark.parametrize(
    ("onto", "code"),
    [
        ({"melds[1]": "table[0]"}, "onto-not-wild"),  # K-K-K is no wild card sent alone
        ({"melds[0]": "table[5]"}, "onto-no-such-meld"),
        ({"melds[3]": "table[0]"}, "onto-no-such-meld"),
        ({"melds[0]": "the queens"}, "bad-onto"),
        ({"melds[0]": "melds[0]"}, "onto-no-such-meld"),
        ({"melds[0]": "table[\u0660]"}, "bad-onto"),  # an Arabic-Indic zero: indexes are written in 0-9
        ({"melds[\u0660]": "table[0]"}, "bad-onto"),
        (["table[0]"], "bad-onto"),
    ],
)
def test_onto_that_names_no_meld_is_refused(onto, code):
    body = {"action": "meld", "hand": ["2C", "K", "K", "K", "5"], "melds": [["2C"], ["K", "K", "K"]], "onto": onto}
    with pytest.raises(InvalidError) as error:
        check_request({**body, "table": [["Q", "Q", "Q"]]})
    assert code in [violation.code for violation in error.value.violations]


# --- Samba family (docs/rules.md "Melds" and "Taking the pile") ---------------------------------------
def test_samba_natural_pair_starts_a_new_meld_beside_a_canasta():
    # Issue 21's example: two kings and the top king make a new meld of kings; the side's kings
    # are already a canasta, and a Samba side may hold a second meld of a rank.
    body = {"variant": "samba", "action": "pickup", "hand": ["KS", "KH", "5S", "6H", "9C"]}
    body |= {"table": [SEVEN_KINGS, ["8", "8", "8"]], "pile": {"top": "KD", "size": 6}}
    verdict = check_request({**body, "melds": [["KS", "KH", "KD"]]})
    assert verdict.legal and "KS-KH-KD is a meld of three kings." in verdict.reasons
    found = check_request(body)  # no melds proposed: the checker finds the same way
    assert found.legal and found.how == (tuple(found.how[0]),)


@pytest.mark.parametrize("variant", ["samba", "bolivia", "chile"])
def test_samba_family_never_adds_a_wild_card_to_a_completed_canasta(variant):
    # Official Canasta Laws: a two on seven natural kings is refused (classic allows it: mixed).
    body = {"variant": variant, "action": "meld", "hand": ["2C", "5", "6", "9"], "melds": [["2C"]]}
    verdict = check_request({**body, "table": [SEVEN_KINGS, ["8", "8", "8"]], "onto": {"melds[0]": "table[0]"}})
    assert not verdict.legal and codes(verdict) == ["wild-onto-canasta"]
    # Left open, it goes on the eights, which are no canasta: 8-8-8-2C keeps 3 naturals to 1 wild.
    open_choice = check_request({**body, "table": [SEVEN_KINGS, ["8", "8", "8"]]})
    assert open_choice.legal and "2C goes on your 8-8-8: three eights with a two." in open_choice.reasons
    classic = check_request({**body, "variant": "classic", "table": [SEVEN_KINGS], "onto": {"melds[0]": "table[0]"}})
    assert classic.legal


def test_samba_side_may_hold_two_melds_of_a_rank():
    body = {"variant": "samba", "action": "meld", "hand": ["K", "K", "K", "9", "8"], "melds": [["K", "K", "K"]]}
    verdict = check_request({**body, "table": [SEVEN_KINGS]})
    assert verdict.legal
    with pytest.raises(InvalidError) as error:  # classic: one meld per rank per side
        check_request({**body, "variant": "classic", "hand": ["9", "9", "9", "8"], "melds": [["9"] * 3],
                       "table": [["K"] * 3, ["K"] * 3]})  # fmt: skip
    assert [v.code for v in error.value.violations] == ["two-melds-of-a-rank"]
    assert check_request({**body, "table": [["K"] * 3, SEVEN_KINGS[:4]]}).legal


def test_samba_melds_of_a_rank_merge_into_the_second_canasta_to_go_out():
    # K-K-K and K-K-K-K merged are seven kings: with seven queens, the two canastas Samba needs.
    body = {"variant": "samba", "action": "go_out", "hand": ["5", "5", "5", "9"], "melds": [["5", "5", "5"]]}
    verdict = check_request({**body, "table": [["K"] * 3, ["K"] * 4, ["Q"] * 7], "discard": "9"})
    assert verdict.legal
    assert "Merge your K-K-K and K-K-K-K: together they make a canasta." in verdict.reasons
    assert "To go out your side needs two canastas; it has two natural canastas." in verdict.reasons
    # K-K-2C and K-K-K-K merged are six kings and a two, a mixed canasta: the wild cards stay within
    # Samba's two (max_wilds) and never outnumber the naturals.
    mixed = check_request({**body, "table": [["K", "K", "2C"], ["K"] * 4, ["Q"] * 7], "discard": "9"})
    assert mixed.legal and "To go out your side needs two canastas; it has a natural canasta and a mixed canasta." in (
        mixed.reasons
    )
    # K-K-2C, K-K-2D and K-K-JK: all three merged hold three wild cards, more than Samba's two; any
    # two of them are six cards. No merge makes a canasta of kings.
    table = [["K", "K", "2C"], ["K", "K", "2D"], ["K", "K", "JK"], ["Q"] * 7]
    short = check_request({**body, "table": table, "discard": "9"})
    assert not short.legal and codes(short) == ["not-enough-canastas"]


# --- the variant's own rules only -------------------------------------------------------------
def test_american_pickup_reasons_never_speak_of_sequences():
    body = {"variant": "american", "action": "pickup", "hand": ["K", "Q", "Q", "5", "6"], "table": [["9"] * 3]}
    verdict = check_request({**body, "pile": {"top": "K"}, "melds": [["K", "Q", "K"]]})
    assert not verdict.legal
    assert not any("sequence" in reason for reason in verdict.reasons), verdict.reasons
    samba = check_request({**body, "variant": "samba", "hand": ["5H", "6H", "Q"], "pile": {"top": "4H"},
                           "melds": [["4H", "5H", "6H"]]})  # fmt: skip
    assert "top-in-sequence" in codes(samba)
