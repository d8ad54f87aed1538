"""The season table: placement points (shared places share), a pair's points to both, best N of M nights."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scorepad.club.core import (
    EventSettings,
    NightPoints,
    SeasonRules,
    TableResult,
    night_points,
    placement_points,
    season_table,
    standings,
)

NIGHT = EventSettings(name="Thursday club", date="2026-11-26")


def five_entrants():
    # A 13, B 7 (510: 13-7); C 10, D 10 (a draw); E has the bye, 12.
    # Places: A first (13), E second (12), C and D share third (10 each, never met), B fifth.
    results = [
        TableResult(1, 1, ("A", "B"), (3150, 2640)),
        TableResult(1, 2, ("C", "D"), (2500, 2500)),
        TableResult(1, 3, (None, "E")),
    ]
    return standings("ABCDE", results, NIGHT)


def test_placement_points_with_a_shared_place():
    # First of five gets 5, second 4; C and D share 3rd and 4th, worth 3 and 2: 5/2 each; last 1.
    assert [row.place for row in five_entrants().rows] == ["1", "2", "=3", "=3", "5"]
    assert placement_points(five_entrants()) == {
        "A": 5,
        "E": 4,
        "C": Fraction(5, 2),
        "D": Fraction(5, 2),
        "B": 1,
    }


def test_a_pairs_points_go_to_both_players():
    pairs = {"A": ("Ana", "Bea"), "B": ("Carl", "Dora"), "C": ("Eli", "Fay"), "D": ("Gus", "Hal"), "E": ("Ivo", "Jo")}
    points = night_points("26 Nov", five_entrants(), SeasonRules(), pairs).points
    assert points["Ana"] == points["Bea"] == 5
    assert points["Gus"] == points["Hal"] == Fraction(5, 2)
    assert len(points) == 10


def test_the_nights_score_instead_of_placement():
    points = night_points("26 Nov", five_entrants(), SeasonRules(points="score")).points
    assert points == {"A": 13, "E": 12, "C": 10, "D": 10, "B": 7}


NIGHTS = [
    NightPoints("1 Oct", {"Ana": 5, "Ben": 2, "Cy": 4}),
    NightPoints("8 Oct", {"Ana": 3, "Ben": 6}),
    NightPoints("15 Oct", {"Ana": 4, "Ben": 6, "Cy": 9}),
    NightPoints("22 Oct", {"Ana": 1, "Ben": 1, "Cy": Fraction(1, 2)}),
]


@pytest.mark.parametrize(
    ("best", "expected"),
    [
        # Best 2 of 4: Ana 5 + 4 = 9, Ben 6 + 6 = 12, Cy 9 + 4 = 13.
        (2, [("1", "Cy", 13), ("2", "Ben", 12), ("3", "Ana", 9)]),
        # Best 1: Cy 9, Ben 6, Ana 5.
        (1, [("1", "Cy", 9), ("2", "Ben", 6), ("3", "Ana", 5)]),
        # Every night: Ana 13, Ben 15, Cy 13 1/2.
        (None, [("1", "Ben", 15), ("2", "Cy", Fraction(27, 2)), ("3", "Ana", 13)]),
        # Best 3: Ana 5 + 4 + 3 = 12, Ben 6 + 6 + 2 = 14, Cy 9 + 4 + 1/2 = 13 1/2.
        (3, [("1", "Ben", 14), ("2", "Cy", Fraction(27, 2)), ("3", "Ana", 12)]),
    ],
)
def test_best_n_of_m_nights(best, expected):
    table = season_table(NIGHTS, SeasonRules(best=best))
    assert [(line.place, line.player, line.total) for line in table] == expected


def test_each_players_history_marks_the_nights_that_count():
    ana = next(line for line in season_table(NIGHTS, SeasonRules(best=2)) if line.player == "Ana")
    assert [(night.night, night.points, night.counted) for night in ana.history] == [
        ("1 Oct", 5, True),
        ("8 Oct", 3, False),
        ("15 Oct", 4, True),
        ("22 Oct", 1, False),
    ]
    # Ben's two sixes count; on equal points the earlier night is the one marked.
    ben = next(line for line in season_table(NIGHTS, SeasonRules(best=1)) if line.player == "Ben")
    assert [night.counted for night in ben.history] == [False, True, False, False]


def test_level_season_totals_share_a_place():
    nights = [NightPoints("1 Oct", {"Ana": 3, "Ben": 3, "Cy": 1}), NightPoints("8 Oct", {"Dee": 2})]
    table = season_table(nights, SeasonRules())
    assert [(line.place, line.player) for line in table] == [("=1", "Ana"), ("=1", "Ben"), ("3", "Dee"), ("4", "Cy")]


def test_a_player_is_one_player_whatever_the_case_spaces_or_unicode_form():
    # Night 1: P 3150 - 2640 Q is 13 - 7 (a 510 margin); R has the bye, 12. Places: P 1st (3 points of 3),
    # R 2nd (2), Q 3rd (1). Night 2: X and Y draw 2500 - 2500, 10 each: they share places 1 and 2 (2 + 1), 3/2 each.
    # Night 3: Z beats W 3150 - 2640: Z 2, W 1.
    decomposed, composed = "Conceic\u0327a\u0303o", "Concei\u00e7\u00e3o"
    one = standings("PQR", [TableResult(1, 1, ("P", "Q"), (3150, 2640)), TableResult(1, 2, (None, "R"))], NIGHT)
    two = standings("XY", [TableResult(1, 1, ("X", "Y"), (2500, 2500))], NIGHT)
    three = standings("ZW", [TableResult(1, 1, ("Z", "W"), (3150, 2640))], NIGHT)
    rules = SeasonRules(best=None)
    nights = [
        night_points("1", one, rules, {"P": ("Ana  Souza", "Ben"), "Q": ("Cy", "Di"), "R": ("Eva",)}),
        night_points("2", two, rules, {"X": ("ana souza", "Cy"), "Y": ("Ben ", decomposed)}),
        night_points("3", three, rules, {"Z": (" ANA SOUZA", "Eva"), "W": ("Di", composed)}),
    ]
    # Ana Souza 3 + 3/2 + 2 = 13/2; Ben 3 + 3/2 = 9/2; Eva 2 + 2 = 4; Cy 1 + 3/2 = 5/2 and Conceição
    # 3/2 + 1 = 5/2 share 4th; Di 1 + 1 = 2. Each is named as first written.
    assert [(line.place, line.player, line.total) for line in season_table(nights, rules)] == [
        ("1", "Ana  Souza", Fraction(13, 2)),
        ("2", "Ben", Fraction(9, 2)),
        ("3", "Eva", 4),
        ("=4", decomposed, Fraction(5, 2)),
        ("=4", "Cy", Fraction(5, 2)),
        ("6", "Di", 2),
    ]
    # Best 2 of Ana Souza's 3 nights: 3 and 2 count, 5.
    (ana, *_) = season_table(nights, SeasonRules(best=2))
    assert (ana.player, ana.total, [night.counted for night in ana.history]) == ("Ana  Souza", 5, [True, False, True])
