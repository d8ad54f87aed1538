"""Scoring a round and the standings: units, byes, no-shows, adjustments, and a tie broken at each step.

Victory points are read off docs/clubnight.md's table by hand: a difference of 200 is 11-9, 300 is
11-9, 400 is 12-8, 510 is 13-7, 1500 is 16-4.
"""

from __future__ import annotations

import pytest

from scorepad.canasta import InvalidError
from scorepad.canasta.text import Text
from scorepad.club.core import (
    Adjustment,
    EventSettings,
    SeasonRules,
    TableResult,
    bye_score,
    night_points,
    round_score,
    score_rounds,
    score_table,
    seat_in_order,
    seat_next_round,
    standings,
    time_rule,
)

NIGHT = EventSettings(name="Thursday club", date="2026-11-26")


def night(**changes):
    return EventSettings.from_dict({"name": NIGHT.name, "date": NIGHT.date, **changes})


def places(table):
    return [(row.place, row.entrant, row.score) for row in table.rows]


@pytest.mark.parametrize(
    ("scoring", "totals", "scores"),
    [
        ("victory_points", (3150, 2640), (13, 7)),  # 510: 505-750 is 13-7
        ("victory_points", (2640, 3150), (7, 13)),
        ("victory_points", (2500, 2500), (10, 10)),
        ("victory_points", (5100, 2100), (19, 1)),  # 3000 exactly: still 19-1
        ("victory_points", (5105, 2100), (20, 0)),  # 3005: over 3000
        ("match_points", (5010, 3200), (2, 0)),
        ("match_points", (2400, 2400), (1, 1)),
        ("points", (5010, 3200), (5010, 3200)),
    ],
)
def test_a_table_is_scored_in_the_event_units(scoring, totals, scores):
    result = score_table(TableResult(1, 4, ("A", "B"), totals), night(scoring=scoring))
    assert tuple(score.score for score in result) == scores
    assert [(score.entrant, score.opponent, score.table) for score in result] == [("A", "B", 4), ("B", "A", 4)]
    assert result[0].balance == totals[0] - totals[1] == -result[1].balance


def test_a_bye_scores_what_the_event_says():
    (bye,) = score_table(TableResult(2, 4, (None, "E")), NIGHT)
    assert (bye.entrant, bye.opponent, bye.kind, bye.score, bye.balance, bye.won) == ("E", None, "bye", 12, 0, False)
    (bye,) = score_table(TableResult(2, 4, (None, "E")), night(scoring="match_points"))
    assert bye.score == 1


def test_an_average_bye_is_the_rounds_played_so_far_rounded_half_up():
    average = night(bye={"kind": "average", "score": 10})
    results = [
        TableResult(1, 1, ("E", "F"), (3150, 2640)),  # E 13
        TableResult(2, 1, ("E", "G"), (2000, 2400)),  # E 8
        TableResult(3, 3, (None, "E")),  # (13 + 8) / 2 = 10.5: 11
        TableResult(4, 2, ("E", "H"), (2500, 2600)),  # E 10 (100: 10-10)
        TableResult(5, 3, (None, "E")),  # the bye of round 3 is not played: (13 + 8 + 10) / 3 = 10.33: 10
    ]
    scores = [score.score for score in score_rounds(results, average) if score.entrant == "E"]
    assert scores == [13, 8, 11, 10, 10]
    assert bye_score(average) == 10  # before any round, the stated score


def test_a_no_show_scores_nothing_and_the_side_present_a_bye():
    # docs/clubnight.md, `no_show` by default: the absent side 0, the side present the bye's 12.
    present, absent = score_table(TableResult(1, 2, ("A", "B"), no_show="B"), NIGHT)
    assert (present.entrant, present.kind, present.score, present.balance, present.won) == (
        "A",
        "no-show",
        12,
        0,
        False,
    )
    assert (absent.entrant, absent.kind, absent.score, absent.balance, absent.won) == ("B", "absent", 0, 0, False)
    assert str(present.label) == "Opponent did not come" and isinstance(present.label, Text)
    # An average bye: the side present scores its average so far.
    average = night(bye={"kind": "average", "score": 12})
    earlier = score_rounds(
        [TableResult(1, 1, ("A", "X"), (2400, 2600)), TableResult(2, 1, ("A", "Y"), (2900, 2500))], average
    )  # A: 200 behind, 9; 400 ahead, 12
    present, _ = score_table(TableResult(3, 1, ("A", "B"), no_show="B"), average, earlier)
    assert present.score == 11  # (9 + 12) / 2 = 10.5, half up


def test_a_no_show_as_a_win_by_the_margin_gives_the_absent_side_nothing():
    # The organiser's other choice: a win by 1500-0, 16 in the 1,305-1,600 band; the absent side
    # scores 0, never the loser's 4, which is more than a side that played and lost by 3,005 (0).
    margin = night(no_show="margin")
    present, absent = score_table(TableResult(1, 2, ("A", "B"), no_show="B"), margin)
    assert (present.score, present.balance, present.won) == (16, 1500, True)
    assert (absent.score, absent.balance, absent.won) == (0, -1500, False)
    lost = score_table(TableResult(1, 3, ("C", "D"), (5105, 2100)), margin)[1]
    assert lost.score == 0 and absent.score <= lost.score
    for scoring, present_score in (("match_points", 2), ("points", 1500)):
        units = night(no_show="margin", scoring=scoring)
        absent, present = score_table(TableResult(1, 2, ("A", "B"), no_show="A"), units)  # North-South first
        assert (present.entrant, present.score, absent.entrant, absent.score) == ("B", present_score, "A", 0)


@pytest.mark.parametrize(
    "result",
    [
        dict(entrants=("A", "B")),  # a played table without totals
        dict(entrants=(None, "E"), totals=(100, 0)),  # a bye with totals
        dict(entrants=("A", "A"), totals=(100, 0)),
        dict(entrants=(None, None)),
        dict(entrants=("A", "B"), no_show="C"),
        dict(entrants=("A", "B"), totals=(100, "0")),
    ],
)
def test_a_result_that_cannot_be_scored_is_refused(result):
    with pytest.raises(InvalidError) as raised:
        TableResult(1, 1, **result)
    assert raised.value.violations[0].field == "rounds[1].tables[1]"


def test_the_time_rule_is_said_on_the_sheet():
    assert time_rule(NIGHT) == "At time the hand in progress is played to its end; no new hand starts."
    assert "no going-out bonus" in time_rule(night(at_time="score_as_it_stands"))
    assert time_rule(night(at_time="drop_hand")) == "At time the hand in progress is dropped."


# --- the standings: a tie broken at each step of docs/clubnight.md's order --------------------------


def test_a_tie_on_victory_points_is_broken_by_matches_won():
    results = [
        TableResult(1, 1, ("A", "X"), (2600, 2400)),  # A 11, X 9
        TableResult(1, 2, ("B", "Z"), (2500, 2500)),  # B 10, Z 10
        TableResult(2, 1, ("A", "Y"), (2400, 2600)),  # A 9, Y 11: A 20, one win
        TableResult(2, 2, ("B", "W"), (2500, 2500)),  # B 10, W 10: B 20, no win
    ]
    table = standings("ABWXYZ", results, NIGHT)
    # Z and W: 10 each, no win, balance 0, never met: they share 4th; X is 6th.
    assert places(table) == [
        ("1", "A", 20),
        ("2", "B", 20),
        ("3", "Y", 11),
        ("=4", "W", 10),
        ("=4", "Z", 10),
        ("6", "X", 9),
    ]
    assert table.of("A").tie_break == table.of("B").tie_break == "matches_won"
    assert (table.of("A").matches_won, table.of("B").matches_won) == (1, 0)
    assert table.of("Y").tie_break is None and table.of("W").tie_break is None


def test_then_by_point_balance():
    results = [
        TableResult(1, 1, ("A", "X"), (2600, 2400)),  # A 11, +200
        TableResult(1, 2, ("B", "Z"), (3000, 2700)),  # B 11, +300
        TableResult(2, 1, ("A", "Y"), (2300, 2600)),  # A 9, -300: A 20, one win, balance -100
        TableResult(2, 2, ("B", "W"), (2450, 2650)),  # B 9, -200: B 20, one win, balance +100
    ]
    table = standings("ABWXYZ", results, NIGHT)
    assert [row.entrant for row in table.rows[:2]] == ["B", "A"]
    assert (table.of("B").point_balance, table.of("A").point_balance) == (100, -100)
    assert table.of("A").tie_break == "point_balance"


def test_then_by_the_result_between_them():
    results = [
        TableResult(1, 1, ("A", "B"), (2600, 2400)),  # A 11 +200, B 9 -200
        TableResult(2, 1, ("A", "X"), (2400, 2600)),  # A 9 -200: A 20, one win, balance 0
        TableResult(2, 2, ("B", "Y"), (2600, 2400)),  # B 11 +200: B 20, one win, balance 0
    ]
    table = standings("ABXY", results, NIGHT)
    assert places(table)[:2] == [("1", "A", 20), ("2", "B", 20)]
    assert table.of("B").tie_break == "head_to_head"


def test_and_otherwise_a_shared_place():
    results = [
        TableResult(1, 1, ("A", "X"), (2600, 2400)),  # A 11 +200
        TableResult(1, 2, ("B", "Y"), (2600, 2400)),  # B 11 +200
        TableResult(2, 1, ("A", "Y"), (2400, 2600)),  # A 9 -200
        TableResult(2, 2, ("B", "X"), (2400, 2600)),  # B 9 -200: level with A on everything, never met
    ]
    table = standings("ABXY", results, NIGHT)
    assert places(table) == [("=1", "A", 20), ("=1", "B", 20), ("=1", "X", 20), ("=1", "Y", 20)]
    assert all(row.shared and row.tie_break is None for row in table.rows)


def test_head_to_head_counts_only_when_all_the_tied_ones_met():
    # A beat B, but C (level with both) met neither: the result between them cannot decide.
    results = [
        TableResult(1, 1, ("A", "B"), (2600, 2400)),  # A 11 +200, B 9 -200
        TableResult(1, 2, ("C", "X"), (2600, 2400)),  # C 11 +200
        TableResult(2, 1, ("A", "Y"), (2400, 2600)),  # A 9 -200
        TableResult(2, 2, ("B", "Z"), (2600, 2400)),  # B 11 +200
        TableResult(2, 3, ("C", "W"), (2400, 2600)),  # C 9 -200
    ]
    table = standings("ABCWXYZ", results, NIGHT)
    assert places(table)[:3] == [("=1", "A", 20), ("=1", "B", 20), ("=1", "C", 20)]


def test_a_no_show_is_no_result_between_them():
    results = [
        TableResult(1, 1, ("A", "B"), no_show="B"),  # A 12 (a bye's score), B 0: B never came
        TableResult(2, 1, ("A", "X"), (2000, 2400)),  # 400: A 8, X 12
        TableResult(2, 2, ("B", "Y"), (5100, 2000)),  # 3100: B 20, Y 0
    ]
    table = standings("ABXY", results, night(tie_breaks=["head_to_head"]))
    assert places(table)[:2] == [("=1", "A", 20), ("=1", "B", 20)]


def test_the_organiser_orders_the_tie_breaks():
    # A: one win, balance -100; B: two draws, balance 0. Matches won first puts A ahead,
    # point balance first puts B ahead; points won (A 4900, B 5000) puts B ahead too.
    results = [
        TableResult(1, 1, ("A", "X"), (2600, 2400)),  # A 11
        TableResult(1, 2, ("B", "Z"), (2500, 2500)),  # B 10
        TableResult(2, 1, ("A", "Y"), (2300, 2600)),  # A 9
        TableResult(2, 2, ("B", "W"), (2500, 2500)),  # B 10
    ]
    order = [
        (["matches_won", "point_balance"], ["A", "B"]),
        (["point_balance", "matches_won"], ["B", "A"]),
        (["points_won"], ["B", "A"]),
    ]
    for tie_breaks, expected in order:
        table = standings("ABWXYZ", results, night(tie_breaks=tie_breaks))
        assert [row.entrant for row in table.rows[:2]] == expected
    assert places(standings("ABWXYZ", results, night(tie_breaks=[])))[:2] == [("=1", "A", 20), ("=1", "B", 20)]


def test_penalties_count_in_the_standings_with_their_reason():
    results = [TableResult(1, 1, ("A", "B"), (2600, 2400))]  # A 11, B 9
    late = Adjustment(1, "A", -3, "Twenty minutes late")
    table = standings("AB", results, NIGHT, [late])
    assert places(table) == [("1", "B", 9), ("2", "A", 8)]
    assert table.of("A").adjustments == (late,)
    with pytest.raises(InvalidError):
        Adjustment(1, "A", -3, " ")


def test_standings_are_provisional_while_a_table_plays_and_list_who_has_not_played():
    results = [TableResult(1, 1, ("A", "B"), (1200, 900), finished=False)]  # 300: 11-9 so far
    table = standings("ABC", results, NIGHT)
    assert table.provisional and isinstance(table.notice, Text)
    assert places(table) == [("1", "A", 11), ("2", "B", 9), ("3", "C", 0)]
    assert standings("AB", [TableResult(1, 1, ("A", "B"), (1200, 900))], NIGHT).notice is None


def test_each_rounds_results_and_each_entrants_history():
    results = [
        TableResult(1, 1, ("A", "B"), (2600, 2400)),
        TableResult(1, 2, (None, "C")),
        TableResult(2, 1, ("A", "C"), (3150, 2640)),
        TableResult(2, 2, (None, "B")),
    ]
    table = standings("ABC", results, NIGHT)
    assert [(s.table, s.entrant, s.score) for s in table.round_results(1)] == [(1, "A", 11), (1, "B", 9), (2, "C", 12)]
    assert [(s.round, s.opponent, s.score) for s in table.of("A").rounds] == [(1, "B", 11), (2, "C", 13)]
    assert places(table) == [("1", "A", 24), ("2", "B", 21), ("3", "C", 19)]


def test_the_final_table_takes_the_top_n_and_a_tie_across_the_cut():
    results = [
        TableResult(1, 1, ("A", "B"), (3150, 2640)),  # A 13, B 7
        TableResult(1, 2, ("C", "D"), (2500, 2500)),  # C 10, D 10, never level-broken
    ]
    table = standings("ABCD", results, NIGHT)
    assert [row.entrant for row in table.top(1)] == ["A"]
    assert [row.entrant for row in table.top(2)] == ["A", "C", "D"]  # C and D share second


def test_round_score_reads_the_event_table():
    burraco = night(victory_points={"total": 20, "bands": [[10, 10], [30, 11], [60, 12]]})
    assert round_score(burraco, 100, 65) == 12 and round_score(burraco, 100, 35) == 20


def test_a_swiss_night_of_six_worked_by_hand():
    swiss_night = night(movement="swiss", first_round="as_entered")
    seatings = [seat_in_order(list("ABCDEF"))]
    results = [
        TableResult(1, 1, ("A", "B"), (3150, 2640)),  # 510: A 13, B 7
        TableResult(1, 2, ("C", "D"), (2500, 2900)),  # 400: C 8, D 12
        TableResult(1, 3, ("E", "F"), (2600, 2600)),  # a draw: 10 each
    ]
    after_one = standings("ABCDEF", results, swiss_night)
    # E and F: level on everything, and their own match was a draw: they share third.
    assert places(after_one) == [
        ("1", "A", 13),
        ("2", "D", 12),
        ("=3", "E", 10),
        ("=3", "F", 10),
        ("5", "C", 8),
        ("6", "B", 7),
    ]
    # A v D; E v F would repeat, so E takes the next one down, C; F v B.
    seatings.append(seat_next_round(swiss_night, seatings, after_one.ranked))
    assert seats(seatings[-1]) == [("A", "D"), ("E", "C"), ("F", "B")]
    results += [
        TableResult(2, 1, ("A", "D"), (2000, 3100)),  # 1100: D 15, A 5
        TableResult(2, 2, ("E", "C"), (3000, 2000)),  # 1000: E 14, C 6
        TableResult(2, 3, ("F", "B"), (2500, 2400)),  # 100: 10 each, F wins the match
    ]
    after_two = standings("ABCDEF", results, swiss_night)
    assert places(after_two) == [
        ("1", "D", 27),
        ("2", "E", 24),
        ("3", "F", 20),
        ("4", "A", 18),
        ("5", "B", 17),
        ("6", "C", 14),
    ]
    seatings.append(seat_next_round(swiss_night, seatings, after_two.ranked))
    assert seats(seatings[-1]) == [("D", "E"), ("F", "A"), ("B", "C")]
    results += [
        TableResult(3, 1, ("D", "E"), (2400, 2700)),  # 300: E 11, D 9
        TableResult(3, 2, ("F", "A"), (3000, 2995)),  # 5: 10 each
        TableResult(3, 3, ("B", "C"), (4000, 1000)),  # 3000: B 19, C 1
    ]
    final = standings("ABCDEF", results, swiss_night)
    # B and D: 36 each. D won rounds 1 and 2, B only round 3 (F won their 2500-2400): D is first.
    assert places(final) == [
        ("1", "D", 36),
        ("2", "B", 36),
        ("3", "E", 35),
        ("4", "F", 30),
        ("5", "A", 28),
        ("6", "C", 15),
    ]
    assert final.of("B").tie_break == final.of("D").tie_break == "matches_won"
    assert night_points("26 Nov", final, SeasonRules()).points == {"D": 6, "B": 5, "E": 4, "F": 3, "A": 2, "C": 1}


def seats(seating):
    return [table.entrants for table in seating.tables]
