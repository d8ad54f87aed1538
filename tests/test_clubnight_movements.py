"""Seating: Mitchell for 7 and 8 tables, Swiss without repeats, Danish, Berger round robin, byes, late arrivals.

The seat lists below are written out by hand from docs/clubnight.md's words ("East-West move up one
table each round (the last table's go to table 1)") and FIDE's Berger tables, not from the code.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.club.core import (
    EventSettings,
    MovementError,
    late_arrival,
    meetings,
    mitchell,
    next_mitchell_round,
    random_draw,
    round_robin,
    seat_first_round,
    seat_in_order,
    seat_next_round,
    swiss,
    withdraw,
)

PAIRS_16 = [str(number) for number in range(1, 17)]  # 8 tables: NS 1, 3, ... 15; EW 2, 4, ... 16
PAIRS_14 = [str(number) for number in range(1, 15)]  # 7 tables: NS 1, 3, ... 13; EW 2, 4, ... 14


def seats(seating):
    return [table.entrants for table in seating.tables]


# Round r, table t: East-West are the pair that started at table t - (r - 1), counted round the room.
MITCHELL_8 = {
    1: [("1", "2"), ("3", "4"), ("5", "6"), ("7", "8"), ("9", "10"), ("11", "12"), ("13", "14"), ("15", "16")],
    2: [("1", "16"), ("3", "2"), ("5", "4"), ("7", "6"), ("9", "8"), ("11", "10"), ("13", "12"), ("15", "14")],
    3: [("1", "14"), ("3", "16"), ("5", "2"), ("7", "4"), ("9", "6"), ("11", "8"), ("13", "10"), ("15", "12")],
    8: [("1", "4"), ("3", "6"), ("5", "8"), ("7", "10"), ("9", "12"), ("11", "14"), ("13", "16"), ("15", "2")],
}
MITCHELL_7 = {
    1: [("1", "2"), ("3", "4"), ("5", "6"), ("7", "8"), ("9", "10"), ("11", "12"), ("13", "14")],
    2: [("1", "14"), ("3", "2"), ("5", "4"), ("7", "6"), ("9", "8"), ("11", "10"), ("13", "12")],
    4: [("1", "10"), ("3", "12"), ("5", "14"), ("7", "2"), ("9", "4"), ("11", "6"), ("13", "8")],
    7: [("1", "4"), ("3", "6"), ("5", "8"), ("7", "10"), ("9", "12"), ("11", "14"), ("13", "2")],
}


@pytest.mark.parametrize(("pairs", "expected"), [(PAIRS_16, MITCHELL_8), (PAIRS_14, MITCHELL_7)], ids=["8", "7"])
def test_mitchell_seats_by_hand(pairs, expected):
    night = mitchell(seat_in_order(pairs), len(pairs) // 2)
    for round_number, tables in expected.items():
        assert night[round_number - 1].round == round_number
        assert seats(night[round_number - 1]) == tables


@pytest.mark.parametrize("pairs", [PAIRS_16, PAIRS_14], ids=["8 tables", "7 tables"])
def test_a_mitchell_of_n_tables_meets_each_opposite_pair_once_in_n_rounds(pairs):
    tables = len(pairs) // 2
    night = mitchell(seat_in_order(pairs), tables)
    north_south, east_west = set(pairs[0::2]), set(pairs[1::2])
    met = [frozenset(table.entrants) for seating in night for table in seating.tables]
    assert len(met) == len(set(met)) == tables * tables  # nobody meets anyone twice...
    assert set(met) == {frozenset((ns, ew)) for ns in north_south for ew in east_west}  # ...and NS meet every EW
    for seating in night:  # North-South never move
        assert [table.entrants[0] for table in seating.tables] == pairs[0::2]


def test_a_mitchell_refuses_more_rounds_than_tables():
    with pytest.raises(MovementError) as raised:
        mitchell(seat_in_order(PAIRS_16), 9)
    assert raised.value.violations[0].field == "rounds"
    # Round by round too: two tables give two rounds, and a third would bring A and B together again.
    settings = EventSettings(name="Club", date="2026-11-26")
    night = [seat_in_order(list("ABCD"))]
    night.append(seat_next_round(settings, night, []))
    with pytest.raises(MovementError):
        seat_next_round(settings, night, [])


def test_an_odd_mitchell_adds_a_bye_table_each_east_west_pair_visits_once():
    # 13 pairs: six tables and a seventh "bye table" whose North-South seat is empty.
    first = seat_in_order(PAIRS_14[:13])
    assert seats(first)[-1] == (None, "13")
    night = mitchell(first, 7)
    assert seats(night[1])[0] == ("1", "13") and seats(night[1])[-1] == (None, "12")
    assert seats(night[2])[-1] == (None, "10")
    assert [seating.byes for seating in night] == [("13",), ("12",), ("10",), ("8",), ("6",), ("4",), ("2",)]
    played = [pair for seating in night for pair in seating.meetings()]
    assert len(played) == len(set(played)) == 6 * 7  # each of 6 NS pairs meets all 7 EW pairs once


def test_swiss_pairs_top_down_and_swaps_to_avoid_a_repeat():
    # Only A and B have met: B swaps with the next one down, C. A v C, B v D, E v F.
    assert seats(swiss(list("ABCDEF"), 2, met={frozenset("AB")})) == [("A", "C"), ("B", "D"), ("E", "F")]
    assert seats(swiss(list("ABCDEF"), 2)) == [("A", "B"), ("C", "D"), ("E", "F")]  # no one met: 1 v 2, 3 v 4


def test_swiss_swaps_with_the_next_one_down_to_avoid_a_repeat():
    # Round 1 was A v B, C v D, E v F. A v B would repeat, so B swaps with C: A v C. B v D would
    # leave E v F, who met too, so B takes the next one down, E: B v E, and D v F.
    seating = swiss(list("ABCDEF"), 2, met={frozenset("AB"), frozenset("CD"), frozenset("EF")})
    assert seats(seating) == [("A", "C"), ("B", "E"), ("D", "F")]
    assert not seating.meetings() & {frozenset("AB"), frozenset("CD"), frozenset("EF")}


@settings(max_examples=50, deadline=None)
@given(st.lists(st.permutations(list("ABCDEFGH")), min_size=3, max_size=3))
def test_four_swiss_rounds_of_eight_never_repeat_whatever_the_standings(orders):
    # After three rounds each entrant has met three of the seven others; the four not met always
    # hold a repeat-free pairing (a graph where each has four of seven is Hamiltonian, Dirac).
    night = [seat_in_order(list("ABCDEFGH"))]
    for round_number, ranked in enumerate(orders, start=2):
        night.append(swiss(ranked, round_number, meetings(night)))
    played = [pair for seating in night for pair in seating.meetings()]
    assert len(played) == len(set(played)) == 16


def test_swiss_looks_further_when_the_first_swap_leaves_a_repeat_below():
    # A met B; A v C would leave B v D, who met too; A v D, B v C repeats nothing.
    seating = swiss(list("ABCD"), 3, met={frozenset("AB"), frozenset("BD")})
    assert seats(seating) == [("A", "D"), ("B", "C")]


def test_swiss_keeps_a_repeat_only_when_none_can_be_avoided():
    # A has met everyone: A plays the next one down again, the rest as ranked.
    seating = swiss(list("ABCD"), 4, met={frozenset("AB"), frozenset("AC"), frozenset("AD")})
    assert seats(seating) == [("A", "B"), ("C", "D")]


def test_danish_pairs_first_against_second_even_again():
    assert seats(swiss(list("ABCDEF"), 2, met={frozenset("AB")}, repeats=True)) == [
        ("A", "B"),
        ("C", "D"),
        ("E", "F"),
    ]


def test_a_swiss_bye_goes_to_the_lowest_entrant_without_one():
    # Five entrants, E sat out before: D sits out now; A v B, C v E; the bye table is last.
    seating = swiss(list("ABCDE"), 2, had_bye={"E"})
    assert seats(seating) == [("A", "B"), ("C", "E"), (None, "D")]
    assert seating.byes == ("D",)


# FIDE Handbook C.05 Annex 1, Berger tables for 5 or 6 players (6 is the bye for five).
BERGER_6 = [
    [("1", "6"), ("2", "5"), ("3", "4")],
    [("6", "4"), ("5", "3"), ("1", "2")],
    [("2", "6"), ("3", "1"), ("4", "5")],
    [("6", "5"), ("1", "4"), ("2", "3")],
    [("3", "6"), ("4", "2"), ("5", "1")],
]


@pytest.mark.parametrize("round_number", [1, 2, 3, 4, 5])
def test_round_robin_is_the_berger_table(round_number):
    assert seats(round_robin(list("123456"), round_number)) == BERGER_6[round_number - 1]


def test_an_odd_round_robin_gives_each_one_bye_at_the_last_table():
    # Five entrants: whoever would meet 6 sits out. Round 2: 5 v 3, 1 v 2, and 4 has the bye.
    assert seats(round_robin(list("12345"), 2)) == [("5", "3"), ("1", "2"), (None, "4")]
    assert [round_robin(list("12345"), number).byes for number in range(1, 6)] == [
        ("1",),
        ("4",),
        ("2",),
        ("5",),
        ("3",),
    ]


@pytest.mark.parametrize("count", range(2, 11))
def test_a_round_robin_meets_everyone_exactly_once(count):
    order = [f"P{number}" for number in range(count)]
    rounds = count - 1 if count % 2 == 0 else count
    met = [pair for number in range(1, rounds + 1) for pair in round_robin(order, number).meetings()]
    assert sorted(met, key=sorted) == sorted((frozenset(pair) for pair in combinations(order, 2)), key=sorted)


def test_a_round_robin_is_for_up_to_ten():
    with pytest.raises(MovementError):
        round_robin([str(number) for number in range(11)], 1)
    with pytest.raises(MovementError):
        round_robin(list("1234"), 4)  # four entrants play three rounds


def test_the_draw_uses_the_generator_it_is_given_and_no_other():
    state = random.getstate()
    first = random_draw(PAIRS_16, random.Random(2026))
    assert first == random_draw(PAIRS_16, random.Random(2026))
    assert sorted(first) == sorted(PAIRS_16) and first != PAIRS_16
    assert random.getstate() == state  # the global generator was left alone


def test_round_one_as_entered_and_by_draw():
    settings = EventSettings(name="Club", date="2026-11-26", first_round="as_entered")
    assert seats(seat_first_round(settings, list("ABCD"), random.Random(1))) == [("A", "B"), ("C", "D")]
    drawn = random_draw(list("ABCD"), random.Random(1))
    settings = EventSettings(name="Club", date="2026-11-26")
    assert seats(seat_first_round(settings, list("ABCD"), random.Random(1))) == [tuple(drawn[:2]), tuple(drawn[2:])]


def test_the_next_round_follows_the_event_movement():
    first = seat_in_order(list("ABCDEF"))
    mitchell_night = EventSettings(name="Club", date="2026-11-26")
    assert seats(seat_next_round(mitchell_night, [first], [])) == [("A", "F"), ("C", "B"), ("E", "D")]
    swiss_night = EventSettings(name="Club", date="2026-11-26", movement="swiss")
    assert seats(seat_next_round(swiss_night, [first], list("ABCDEF"))) == [("A", "C"), ("B", "E"), ("D", "F")]
    danish_night = EventSettings(name="Club", date="2026-11-26", movement="danish")
    assert seats(seat_next_round(danish_night, [first], list("ABCDEF"))) == [("A", "B"), ("C", "D"), ("E", "F")]
    robin_night = EventSettings(name="Club", date="2026-11-26", movement="round_robin")
    assert seats(seat_next_round(robin_night, [round_robin(list("123456"), 1)], list("123456"))) == BERGER_6[1]


def test_a_late_arrival_takes_the_bye():
    seating = late_arrival(seat_in_order(list("ABCDE")), "F")
    assert seats(seating) == [("A", "B"), ("C", "D"), ("F", "E")]
    # In a Mitchell they then sit North-South at the old bye table and stay there.
    assert seats(next_mitchell_round(seating)) == [("A", "E"), ("C", "B"), ("F", "D")]


def test_a_late_arrival_without_a_bye_opens_a_new_table():
    seating = late_arrival(seat_in_order(list("ABCD")), "E")
    assert seats(seating) == [("A", "B"), ("C", "D"), ("E", None)]
    assert seating.byes == ("E",)
    assert seats(late_arrival(seating, "F"))[-1] == ("E", "F")  # the next one to arrive fills it
    with pytest.raises(MovementError):
        late_arrival(seating, "A")


def test_a_late_arrival_in_an_odd_round_robin_takes_the_bye_slot():
    # Five entrants drawn 1-5; F arrives before round 3 and is added at the end of the order:
    # F meets whoever had the bye, and everyone else plays as before (FIDE's table for six, 6 = F).
    late = [round_robin([*"12345", "F"], number) for number in (3, 4, 5)]
    assert [seats(seating) for seating in late] == [
        [("2", "F"), ("3", "1"), ("4", "5")],
        [("F", "5"), ("1", "4"), ("2", "3")],
        [("3", "F"), ("4", "2"), ("5", "1")],
    ]
    before = [round_robin(list("12345"), number) for number in (3, 4, 5)]
    assert [
        seating.meetings() - {frozenset(pair) for pair in seating.meetings() if "F" in pair} for seating in late
    ] == [seating.meetings() for seating in before]


def test_a_withdrawn_entrants_later_opponents_get_the_bye():
    # B (East-West at table 1) withdraws after round 1: whoever B would have met sits out.
    night = mitchell(seat_in_order(list("ABCDEF")), 3)
    later = [withdraw(seating, "B") for seating in night[1:]]
    assert seats(later[0]) == [("A", "F"), ("C", None), ("E", "D")]
    assert seats(later[1]) == [("A", "D"), ("C", "F"), ("E", None)]
    assert [seating.byes for seating in later] == [("C",), ("E",)]
    assert seats(next_mitchell_round(later[0])) == seats(later[1])  # the empty seat moves with its line


def test_the_organiser_can_swap_two_entrants_before_a_round():
    seating = seat_in_order(list("ABCD")).swapped("B", "C")
    assert seats(seating) == [("A", "C"), ("B", "D")]
    with pytest.raises(MovementError):
        seating.swapped("A", "Z")


def test_meetings_over_rounds():
    night = mitchell(seat_in_order(list("ABCD")), 2)
    assert meetings(night) == {frozenset("AB"), frozenset("CD"), frozenset("AD"), frozenset("CB")}


@pytest.mark.parametrize("entrants", [["A"], ["A", "A"], []])
def test_a_seating_needs_two_different_entrants(entrants):
    with pytest.raises(MovementError):
        seat_in_order(entrants)


def test_a_mitchell_of_one_table_says_so_in_the_singular():
    """The whole evening (issue 30): two pairs entered on a night of two rounds read "A Mitchell of 1
    tables gives 1 rounds without a repeat, not 2." """
    from scorepad.club.core import plan_problems

    settings = EventSettings(name="Club", date="2026-11-26", rounds=2)
    assert [str(v.message) for v in plan_problems(settings, 2)] == [
        "A Mitchell of 1 table gives 1 round without a repeat, not 2."
    ]
    assert [str(v.message) for v in plan_problems(settings, 2, [seat_in_order(["A", "B"])])] == [
        "A Mitchell of 1 table gives 1 round without a repeat, not 2."
    ]
    with pytest.raises(MovementError, match="A Mitchell of 1 table gives 1 round without a repeat, not 2."):
        mitchell(seat_in_order(["A", "B"]), 2)
    assert [str(v.message) for v in plan_problems(EventSettings(name="Club", date="2026-11-26", rounds=4), 6)] == [
        "A Mitchell of 3 tables gives 3 rounds without a repeat, not 4."
    ]
