"""The core's values behave as values: rules with options, entries read, hands checked, matches.

Nothing here pins how the core is made fast (no object identity, no call counts); every
expected number is worked out from docs/rules.md.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
from collections import Counter
from itertools import combinations_with_replacement
from types import MappingProxyType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad import canasta
from scorepad.canasta import (
    VARIANTS,
    Entry,
    Hand,
    InvalidError,
    Match,
    OptionError,
    Part,
    SideScore,
    check_hand,
    rules_for,
)
from scorepad.canasta.entries.table import check_table
from scorepad.canasta.match import HandResult

# We: natural 500 + mixed 300 + a red three 100 + going out 100 + 420 melded = 1420.
# They: a red three 100 (they melded) + 180 melded - 65 in hand = 215.
HAND = {
    "entries": [
        {"melded_points": 420, "canastas": {"natural": 1, "mixed": 1}, "red_threes": 1, "went_out": True},
        {"melded_points": 180, "hand_points": 65, "red_threes": 1},
    ]
}


# --- rules with options ------------------------------------------------------------------------
def test_the_same_preset_and_options_give_equal_rules():
    first = rules_for("classic", {"target": 10000, "tough_end": True})
    assert rules_for("classic", {"target": 10000, "tough_end": True}) == first
    assert rules_for("classic") == VARIANTS["classic"] == rules_for("classic", {})


def test_every_option_value_is_part_of_the_key():
    # docs/rules.md "Presets" and "House rules": classic needs 15 below zero, 50 from 0; with Harder First Meld
    # 50 and 90.
    harder = rules_for("classic", {"harder_first_meld": True})
    easier = rules_for("classic", {"harder_first_meld": False})
    assert (harder.minimum_for(-5), harder.minimum_for(0)) == (50, 90)
    assert (easier.minimum_for(-5), easier.minimum_for(0)) == (15, 50)
    assert harder != easier
    targets = [rules_for("classic", {"target": target, "tough_end": True}).target for target in (7500, 10000, 7500)]
    assert targets == [7500, 10000, 7500]
    # Two options at once: changing either one gives other rules.
    assert rules_for("samba", {"target": 12000, "max_wilds": 3}).max_wilds == 3
    assert rules_for("samba", {"target": 12000, "max_wilds": 2}).max_wilds == 2
    assert rules_for("classic", {"target": 10000}) != rules_for("classic-2p", {"target": 10000})
    assert rules_for("classic-2p", {"target": 10000}).canastas_to_go_out == 2  # docs/rules.md "Presets": two to go out


@pytest.mark.parametrize(
    ("accepted", "refused"),
    [
        ({"harder_first_meld": True}, {"harder_first_meld": 1}),  # True == 1 in Python, not here
        ({"canastas_to_go_out": 2}, {"canastas_to_go_out": 2.0}),  # 2.0 == 2 in Python, not here
    ],
)
def test_a_value_that_only_equals_an_accepted_one_is_still_refused(accepted, refused):
    rules_for("classic", accepted)
    with pytest.raises(OptionError) as error:
        rules_for("classic", refused)
    assert [v.code for v in error.value.violations] == ["bad-option-value"]


def test_refused_options_are_refused_every_time_with_every_problem():
    options = {"target": 7, "sequences": "yes", "bogus": 1}
    for _ in range(2):
        with pytest.raises(OptionError) as error:
            rules_for("classic", options)
        assert [(v.code, v.field) for v in error.value.violations] == [
            ("bad-option-value", "options.target"),
            ("bad-option-value", "options.sequences"),
            ("unknown-option", "options.bogus"),
        ]


def test_an_unhashable_value_is_refused_not_crashed_on():
    with pytest.raises(OptionError) as error:
        rules_for("classic", {"decks": [3]})
    assert [v.code for v in error.value.violations] == ["bad-option-value"]


def test_options_on_top_of_options_keep_both():
    rules = rules_for("classic", {"target": 10000}).with_options({"tough_end": True})
    assert (rules.target, rules.tough_end) == (10000, True)
    assert rules_for("classic", {"target": 10000}).tough_end is False


def test_derived_rules_are_read_only():
    samba = VARIANTS["samba"]
    with pytest.raises(TypeError):
        samba.canasta_kinds["natural"] = samba.canasta_kinds["mixed"]  # type: ignore[index]
    # docs/rules.md "Presets" samba: 500 / 300 / 1500, and three decks hold six red threes.
    assert {key: kind.bonus for key, kind in samba.canasta_kinds.items()} == {
        "natural": 500,
        "mixed": 300,
        "sequence": 1500,
    }
    assert samba.deck.red_threes == 6


def test_a_variant_pickles_and_copies_with_its_derived_rules():
    rules = rules_for("classic", {"target": 10000, "wild_canasta": "1000"})
    assert rules.canasta_kinds["wild"].bonus == 1000
    for copied in (pickle.loads(pickle.dumps(rules)), copy.deepcopy(rules), copy.copy(rules)):
        assert copied == rules
        assert copied.canasta_kinds["wild"].bonus == 1000
        assert copied.target == 10000


def test_a_variant_with_options_works_out_its_own_derived_rules():
    # docs/rules.md "House rules" wild canastas: with "1000" a wild-card canasta is a kind of its own.
    classic = VARIANTS["classic"]
    assert "wild" not in classic.canasta_kinds
    wild = rules_for("classic", {"wild_canasta": "1000"})
    assert wild.canasta_kinds["wild"].bonus == 1000
    assert "wild" not in classic.canasta_kinds


# --- entries read the same from any mapping ------------------------------------------------------
# Mostly well-formed values, with the odd ones reading must refuse or convert (a float, a bool
# for a number, past the limit).
POINTS = st.integers(min_value=0, max_value=400).map(lambda n: 5 * n)
ODD = st.one_of(
    st.integers(min_value=-10, max_value=10_010),
    st.sampled_from([10_000, 10_005, 2.0, 2.5, True, False, None, "5", [1]]),
)
NUMBER = st.one_of(POINTS, st.integers(min_value=0, max_value=10_010), ODD)
COUNTS = st.dictionaries(st.sampled_from(["natural", "mixed", "sevens", "K", 7]), NUMBER, max_size=3)
FIELD_VALUES = {
    **dict.fromkeys(canasta.entries.ENTRY_FIELDS, NUMBER),
    "went_out": st.one_of(st.booleans(), ODD),
    "concealed": st.one_of(st.booleans(), ODD),
    "canastas": st.one_of(COUNTS, ODD),
    "held_sets": st.one_of(COUNTS, ODD),
    "melded_cards": st.one_of(COUNTS, ODD),
    "hand_cards": st.one_of(COUNTS, ODD),
    "special_hand": st.sampled_from([None, "pairs", 3]),
    "incomplete": st.sampled_from([["sevens"], ["sevens", "sevens"], "sevens", []]),
}
ENTRY_DATA = st.lists(st.sampled_from([*FIELD_VALUES, "bogus", 3]), unique=True, max_size=6).flatmap(
    lambda names: st.fixed_dictionaries({name: FIELD_VALUES.get(name, NUMBER) for name in names})
)


def _read(source):
    try:
        entry = Entry.from_dict(source)
        return entry, entry.canasta_count
    except InvalidError as error:
        return [(v.code, v.message, v.field) for v in error.violations]


@settings(max_examples=300, deadline=None)
@given(ENTRY_DATA)
def test_an_entry_reads_alike_from_a_dict_and_any_other_mapping(data):
    assert _read(data) == _read(MappingProxyType(data))


@pytest.mark.parametrize(
    "data",
    [
        {"melded_points": 7},  # not a multiple of 5
        {"hand_points": 10_005},  # more than any hand holds
        {"red_threes": -1},
        {"red_threes": 2.0},  # a whole float counts
        {"red_threes": True},  # a flag is not a number
        {"went_out": 1},  # a number is not a flag
        {"canastas": {"natural": 1.5}},
        {"canastas": {"natural": 2.0}},
        {"canastas": {"natural": True}},
        {"canastas": {7: 1}},  # keys are read as text
        {"canastas": [1]},
        {"special_hand": 3},
        {"special_hand": None, "melded_points": 50},
        {"melded_cards": {"K": 3}},
        {"bogus": 1},
    ],
)
def test_odd_entries_read_alike_from_a_dict_and_any_other_mapping(data):
    assert _read(data) == _read(MappingProxyType(data))


def test_a_plain_entry_reads_as_the_same_entry_built_by_hand():
    read = Entry.from_dict({"melded_points": 420, "canastas": {"natural": 1, "mixed": 0}, "went_out": True})
    assert read == Entry(melded_points=420, canastas={"natural": 1}, went_out=True)
    assert dict(read.canastas) == {"natural": 1}  # a zero count is dropped, as before
    assert read.canasta_count == 1
    assert Entry.from_dict({"red_threes": 2.0}).red_threes == 2  # a whole float counts


# --- hands checked ------------------------------------------------------------------------------
# Entries built directly, so that values reading refuses (a negative count) are tried too, with
# each field near the limits the checks test: the decks' red threes and points, the canastas'
# least points, the canastas needed to go out.
SMALL = st.integers(min_value=-1, max_value=9)
ENTRY_VALUES = st.fixed_dictionaries(
    {
        "melded_points": st.one_of(st.integers(-2, 80), st.integers(100, 400)).map(lambda n: 5 * n),
        "hand_points": st.one_of(st.just(0), st.integers(-2, 40).map(lambda n: 5 * n), st.just(1200)),
        "canastas": st.dictionaries(
            st.sampled_from(["natural", "mixed", "sequence", "wild", "sevens", "aces", "twos", "wild_big", "bogus"]),
            st.integers(-1, 13),
            max_size=3,
        ),
        "red_threes": SMALL,
        "went_out": st.booleans(),
    },
    optional={
        "black_threes": SMALL,
        "black_threes_in_hand": SMALL,
        "concealed": st.booleans(),
        "special_hand": st.sampled_from([None, "pairs", "bogus"]),
        "incomplete": st.sampled_from([(), ("sevens",), ("wild",)]),
        "held_sets": st.sampled_from([{}, {"sevens": 1}]),
        "melded_cards": st.sampled_from([None, {"K": 3}]),
    },
)
RULES = [
    *VARIANTS.values(),
    rules_for("classic", {"tough_end": True, "wild_canasta": "palace", "sequences": True}),
    rules_for("classic", {"canastas_to_go_out": 3, "decks": 3}),
    rules_for("classic-2p", {"tough_end": True}),
]


# An entry per side: check_hand refuses any other count at once.
RULES_AND_ENTRIES = st.sampled_from(RULES).flatmap(
    lambda variant: st.tuples(st.just(variant), st.lists(ENTRY_VALUES, min_size=variant.sides, max_size=variant.sides))
)


@settings(max_examples=300, deadline=None)
@given(RULES_AND_ENTRIES)
def test_a_hand_that_breaks_nothing_scores_and_one_that_breaks_a_rule_is_placed_at_an_entry(drawn):
    variant, entries = drawn
    hand = Hand(tuple(Entry(**values) for values in entries))
    problems = check_hand(hand, variant)
    assert problems == check_hand(Hand(hand.entries), variant)  # the same answer every time
    assert all(v.field.startswith("entries") for v in problems)
    if not problems:
        assert len(canasta.score_hand(hand, variant)) == variant.sides


@pytest.mark.parametrize("variant", RULES, ids=lambda variant: variant.key)
def test_the_canastas_the_decks_always_hold_are_the_most_that_fit(variant):
    most = variant.canastas_always_held

    def too_many(kinds):  # the check across the table, for these canastas on one side
        found = check_table((Entry(canastas=Counter(kinds)),), variant)
        return any(v.message.startswith("The canastas entered need") for v in found)

    kinds = list(variant.canasta_kinds)
    assert not any(too_many(chosen) for chosen in combinations_with_replacement(kinds, most))
    assert any(too_many(chosen) for chosen in combinations_with_replacement(kinds, most + 1))


@pytest.mark.parametrize(
    ("key", "entries"),
    [
        ("classic", HAND["entries"]),
        ("classic", [{"melded_points": 50, "hand_points": 45}, {"hand_points": 40}]),
        ("classic-2p", [{"melded_points": 300, "canastas": {"natural": 2}, "went_out": True}, {"hand_points": 5}]),
        # docs/rules.md "Presets" samba: two canastas to go out; American: one natural and one of sevens.
        ("samba", [{"melded_points": 600, "canastas": {"natural": 1, "sequence": 1}, "went_out": True}, {}]),
        ("american", [{"melded_points": 700, "canastas": {"natural": 1, "sevens": 1}, "went_out": True}, {}]),
    ],
)
def test_the_usual_hands_break_nothing(key, entries):
    hand = Hand.from_dict({"entries": entries})
    assert check_hand(hand, VARIANTS[key]) == []


@pytest.mark.parametrize(
    ("entries", "codes"),
    [
        # docs/rules.md "Impossible hands": only one player goes out, with a canasta; two decks hold four red
        # threes; a natural canasta holds at least 35 points; a black three in hand (5) fits in 5 points
        # left in hand.
        (
            [{"melded_points": 50, "went_out": True}, {"went_out": True}],
            ["went-out-without-canastas", "went-out-without-canastas", "two-sides-went-out"],  # neither has one
        ),
        ([{"melded_points": 50, "red_threes": 3}, {"red_threes": 2}], ["too-many-red-threes"]),
        ([{"melded_points": 20, "canastas": {"natural": 1}}, {}], ["melded-points-too-low"]),
        ([{"melded_points": 50, "black_threes_in_hand": 1, "hand_points": 5}, {}], []),
    ],
)
def test_hands_near_a_limit_are_judged_by_it(entries, codes):
    problems = check_hand(Hand.from_dict({"entries": entries}), VARIANTS["classic"])
    assert [v.code for v in problems] == codes


# --- matches ------------------------------------------------------------------------------------
def test_a_validated_match_keeps_its_running_totals():
    match = canasta.score_match("classic", [HAND] * 3)
    assert match.totals == (3 * 1420, 3 * 215)
    assert [result.totals for result in match.results] == [(1420, 215), (2840, 430), (4260, 645)]
    # The same match sent again gives the same figures.
    assert canasta.score_match("classic", [HAND] * 3).totals == (4260, 645)


def test_a_match_built_without_validation_still_scores_its_hands():
    hand, other = Hand.from_dict(HAND), Hand.from_dict(HAND)
    match = Match(VARIANTS["classic"], (hand, other, hand))
    assert match.totals == (3 * 1420, 3 * 215)
    assert match.problems() == []


def test_a_match_that_breaks_a_rule_is_refused_but_scored_as_it_stands():
    # docs/rules.md "Impossible hands": a natural canasta holds at least 35 points, so 20 melded with one is refused.
    broken = Hand.from_dict({"entries": [{"melded_points": 20, "canastas": {"natural": 1}}, {"hand_points": 30}]})
    match = Match(VARIANTS["classic"], (Hand.from_dict(HAND), broken))
    assert [(v.code, v.field) for v in match.problems()] == [
        ("melded-points-too-low", "hands[1].entries[0].melded_points")
    ]
    # As it stands: 500 for the canasta and 20 melded; they lose the 30 in hand.
    assert match.totals == (1420 + 520, 215 - 30)
    with pytest.raises(InvalidError):
        Match.validated(VARIANTS["classic"], (Hand.from_dict(HAND), broken))


def test_a_hand_read_is_not_changed_by_its_source_changing_later():
    data = {"entries": [{"melded_points": 120, "canastas": {"natural": 1}}, {"hand_points": 30}]}
    hand = canasta.read_hand(data)
    assert canasta.read_hand(copy.deepcopy(data)) == hand
    data["entries"][0]["canastas"]["natural"] = 2  # the caller's dict changes; the hand read does not
    assert dict(hand.entries[0].canastas) == {"natural": 1}
    assert canasta.read_hand(data) != hand
    assert dict(canasta.read_hand(data).entries[0].canastas) == {"natural": 2}


@pytest.mark.parametrize(
    "refused",
    [
        {"entries": [{"melded_points": 120.5}, {}]},  # half a point
        {"entries": [{"melded_points": "120"}, {}]},  # text, not a number
        {"entries": [{"melded_points": 120, "went_out": 1}, {}]},  # 1 is not true
        {"entries": [{"melded_points": 125, "colour": "red"}, {}]},  # not a field
    ],
)
def test_a_hand_that_only_looks_like_one_read_before_is_still_refused(refused):
    canasta.read_hand({"entries": [{"melded_points": 120, "went_out": True}, {}]})
    for _ in range(2):  # refused every time
        with pytest.raises(InvalidError):
            canasta.read_hand(refused)


def test_a_hand_is_judged_by_the_variant_asked_each_time():
    # docs/rules.md "Presets": two players need two canastas to go out; four players need one.
    one_canasta_out = {"entries": [{"melded_points": 200, "canastas": {"natural": 1}, "went_out": True}, {}]}
    four = canasta.score_match("classic", [one_canasta_out])
    assert four.totals == (200 + 500 + 100, 0)  # melded 200, natural canasta 500, going out 100
    with pytest.raises(InvalidError) as refused:
        canasta.score_match("classic-2p", [one_canasta_out])
    assert [v.code for v in refused.value.violations] == ["went-out-without-canastas"]
    assert canasta.score_match("classic", [one_canasta_out]).totals == (800, 0)


def test_a_long_special_hand_name_is_read_and_refused_by_the_variant():
    # A special hand's name is checked against the variant, so reading lets a long one through.
    long = {"entries": [{"special_hand": "x" * 5000}, {}]}
    assert canasta.read_hand(long).entries[0].special_hand == "x" * 5000
    with pytest.raises(InvalidError) as refused:
        canasta.score_match("american", [long])
    assert "unknown-special-hand" in [v.code for v in refused.value.violations]


# --- the value types are frozen dataclasses ----------------------------------------------------
def test_the_value_types_are_frozen_dataclasses():
    part = Part("going_out", "Going out", 100)
    side = SideScore((part, Part("hand_points", "Cards left in hand", -65)))
    hand = Hand([Entry(went_out=True), Entry(hand_points=65)], [0, 1])
    result = HandResult(1, hand, (side,), (50, 50), (35, 0))
    match = Match(VARIANTS["classic"], (hand,))
    assert side.score == 35
    assert repr(part) == "Part(id='going_out', label='Going out', points=100)"
    assert part == Part("going_out", "Going out", 100) and hash(part) == hash(Part("going_out", "Going out", 100))
    assert part != Part("going_out", "Going out", 200)
    assert hand.entries == (Entry(went_out=True), Entry(hand_points=65)) and hand.partnership == (0, 1)
    assert result.warnings == () and result.scores == (35,)
    assert dataclasses.replace(part, points=200).points == 200
    assert dataclasses.replace(side, parts=(part,)).score == 100
    assert side == SideScore((part, Part("hand_points", "Cards left in hand", -65)))  # equal by their parts
    assert match == Match(VARIANTS["classic"], (hand,))
    for value, name in ((part, "points"), (side, "parts"), (hand, "entries"), (result, "number"), (match, "hands")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, name, None)
