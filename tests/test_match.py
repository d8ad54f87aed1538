"""A match: running totals, minimums, game end, winner, tie and Bicycle's settlement (docs/rules.md "Scoring a hand").

Totals below are sums worked out by hand from hands whose scores test_scoring.py pins.
"""

import pytest

from scorepad.canasta import InvalidError, score_match, settle

# classic: We 500 + 300 + 200 + 100 + 390 = 1490; They 100 + 120 - 85 = 135 (test_scoring)
HAND_B = {
    "entries": [
        {"melded_points": 390, "canastas": {"natural": 1, "mixed": 1}, "red_threes": 2, "went_out": True},
        {"melded_points": 120, "hand_points": 85, "red_threes": 1},
    ]
}
SWAPPED_B = {"entries": HAND_B["entries"][::-1]}  # They 1490, We 135
SMALL = {"entries": [{"melded_points": 50}, {"melded_points": 50}]}  # 50 each
KINGS_OUT = {"melded_points": 70, "canastas": {"natural": 1}, "went_out": True}  # 670


def refused(variant, hands, options=None, starting_totals=None):
    with pytest.raises(InvalidError) as caught:
        score_match(variant, hands, options, starting_totals)
    return [(v.code, v.field) for v in caught.value.violations]


def test_totals_run_on_and_minimums_follow_them():
    match = score_match("classic", [HAND_B, HAND_B, HAND_B])
    assert [r.totals for r in match.results] == [(1490, 135), (2980, 270), (4470, 405)]
    assert [r.number for r in match.results] == [1, 2, 3]
    # docs/rules.md "Presets": each hand's minimum comes from the total at its start: 0 -> 50, 1490 -> 50,
    # 2980 -> 90; after the third hand 4470 -> 120.
    assert [r.minimums for r in match.results] == [(50, 50), (50, 50), (90, 50)]
    assert match.next_minimums == (120, 50)
    assert (match.is_finished, match.winner, match.is_tie, match.settlement) == (False, None, False, None)


def test_starting_totals():
    # A match carried on from paper: the totals start where the sheet left off.
    match = score_match("classic", [HAND_B], starting_totals=[1500, -100])
    assert match.results[0].minimums == (90, 15)  # docs/rules.md "Presets": 1500 -> 90, below 0 -> 15
    assert match.totals == (1500 + 1490, -100 + 135)
    assert match.next_minimums == (90, 50)


def test_starting_totals_without_hands():
    match = score_match("american", [], starting_totals=[3000, -200])
    assert match.totals == (3000, -200)
    assert match.next_minimums == (155, 125)  # docs/rules.md "Presets" american: 155 from 3000; 125 even below 0
    assert not match.is_finished


def test_negative_totals_carry_forward():
    # docs/rules.md "Scoring a hand": "Negative totals carry forward." All four red threes with nothing melded: -860.
    minus = {"entries": [{"melded_points": 50}, {"red_threes": 4, "hand_points": 60}]}
    match = score_match("classic", [minus, SMALL])
    assert [r.totals for r in match.results] == [(50, -860), (100, -810)]
    assert match.results[1].minimums == (50, 15)


@pytest.mark.parametrize(
    ("start", "hand", "totals", "finished", "winner"),
    [
        # docs/rules.md "Scoring a hand": the game ends after the hand in which any total reaches the target, and the
        # final hand is scored whole: 4800 + 1490 = 6290 (not stopped at 5000).
        ([4800, 4000], HAND_B, (6290, 4135), True, 0),
        # Both pass the target in the same hand: the higher total wins, not the first to pass.
        ([4500, 4900], HAND_B, (5990, 5035), True, 0),
        ([4900, 4500], SWAPPED_B, (5035, 5990), True, 1),
        ([4950, 0], SMALL, (5000, 50), True, 0),  # reaching the target exactly ends it
        ([4945, 0], SMALL, (4995, 50), False, None),  # 5 short does not
        ([0, 4950], SMALL, (50, 5000), True, 1),
    ],
)
def test_game_end_at_target(start, hand, totals, finished, winner):
    match = score_match("classic", [hand], starting_totals=start)
    assert (match.totals, match.is_finished, match.winner) == (totals, finished, winner)


@pytest.mark.parametrize(
    ("variant", "start", "hand", "finished"),
    [
        ("classic-3p", [7000, 0, 0], [{"melded_points": 450}, {"melded_points": 50}, {"hand_points": 5}], False),
        ("classic-3p", [7000, 0, 0], [{"melded_points": 500}, {"melded_points": 50}, {"hand_points": 5}], True),
        ("classic-6p-2x3", [9500, 0], [{"melded_points": 495}, {"melded_points": 50}], False),
        ("classic-6p-2x3", [9500, 0], [{"melded_points": 500}, {"melded_points": 50}], True),
        (
            "american",
            [8000, 0],
            [{"melded_points": 500, "canastas": {"natural": 1}}, {"melded_points": 50}],
            True,
        ),
        ("american", [8000, 0], [{"melded_points": 495}, {"melded_points": 50}], False),  # -495 with none
    ],
)
def test_targets_per_preset(variant, start, hand, finished):
    # docs/rules.md "Presets" targets: classic-3p 7500, classic-6p-2x3 10000, american 8500.
    match = score_match(variant, [{"entries": hand}], starting_totals=start)
    assert match.is_finished == finished


def test_tie_at_the_top():
    # 4505 + 670 = 5175 and 4935 + (300 - 60) = 5175: docs/rules.md "Scoring a hand" "a tie at the top is a tie".
    hand = {"entries": [KINGS_OUT, {"melded_points": 300, "hand_points": 60}]}
    match = score_match("classic", [hand], starting_totals=[4505, 4935])
    assert match.totals == (5175, 5175)
    assert (match.is_finished, match.is_tie, match.winner) == (True, True, None)


def test_a_tie_below_the_top_is_no_tie():
    hand = {"entries": [{"melded_points": 600}, {"melded_points": 50}, {"melded_points": 50}]}
    match = score_match("classic-6p-3x2", [hand], starting_totals=[7000, 6000, 6000])
    assert match.totals == (7600, 6050, 6050)
    assert (match.is_tie, match.winner) == (False, 0)


def test_a_tie_among_three_at_the_top():
    hand = {"entries": [{"melded_points": 600}, {"melded_points": 600}, {"melded_points": 50}]}
    match = score_match("classic-6p-3x2", [hand], starting_totals=[7000, 7000, 0])
    assert (match.is_finished, match.is_tie, match.winner) == (True, True, None)


def test_no_hand_after_game_over():
    # API: hands after the game is over are a 422, naming the first one.
    assert refused("classic", [HAND_B, SMALL], starting_totals=[4800, 4000]) == [("hand-after-game-over", "hands[1]")]
    assert refused("classic", [SMALL, HAND_B, SMALL, SMALL], starting_totals=[4800, 4000]) == [
        ("hand-after-game-over", "hands[2]")
    ]
    with pytest.raises(InvalidError) as caught:
        score_match("classic", [SMALL, HAND_B, SMALL, SMALL], starting_totals=[4800, 4000])
    assert [v.message for v in caught.value.violations] == [
        "The game ended after hand 2; hands 3 to 4 cannot be added."
    ]


def test_max_hands():
    # docs/rules.md "House rules" max_hands (Palace): the match also ends after this many hands.
    match = score_match("classic", [HAND_B, SMALL], {"max_hands": 2})
    assert match.totals == (1540, 185)
    assert (match.is_finished, match.winner) == (True, 0)
    assert refused("classic", [HAND_B, SMALL, SMALL], {"max_hands": 2}) == [("hand-after-game-over", "hands[2]")]
    # ...and the target still ends it earlier.
    match = score_match("classic", [HAND_B], {"max_hands": 5}, starting_totals=[4800, 0])
    assert match.is_finished
    # One hand short of the limit the match goes on.
    assert not score_match("classic", [HAND_B], {"max_hands": 2}).is_finished


def test_target_option():
    # docs/rules.md "House rules" target: 1490 reaches a 1000-point game.
    match = score_match("classic", [HAND_B], {"target": 1000})
    assert (match.is_finished, match.winner) == (True, 0)
    assert not score_match("classic", [HAND_B], {"target": 1495}).is_finished


@pytest.mark.parametrize(
    ("starting_totals", "code"),
    [
        ([0], "bad-starting-totals"),  # one per side
        ([0, 0, 0], "bad-starting-totals"),
        ([0, 3], "bad-starting-totals"),  # every score is a multiple of 5
        (["0", 0], "bad-starting-totals"),
        ([True, 0], "bad-starting-totals"),
        ([0.5, 0], "bad-starting-totals"),
        ([5000, 0], "bad-starting-totals"),  # a total at the target: that game is already over
        (5, "bad-starting-totals"),  # not a list at all
        ("00", "bad-starting-totals"),
    ],
)
def test_bad_starting_totals(starting_totals, code):
    assert refused("classic", [SMALL], starting_totals=starting_totals) == [(code, "starting_totals")]


@pytest.mark.parametrize(
    ("total", "rounded"),
    [
        # docs/rules.md "Scoring a hand" / Bicycle: "to the nearest hundred, counting 50 or more points as 100",
        # 50 rounding away from zero for minus totals.
        (5150, 5200),
        (5149, 5100),
        (5050, 5100),
        (5049, 5000),
        (4999, 5000),
        (6290, 6300),
        (50, 100),
        (49, 0),
        (0, 0),
        (-49, 0),
        (-50, -100),
        (-149, -100),
        (-150, -200),
        (-865, -900),
    ],
)
def test_settle(total, rounded):
    assert settle(total) == rounded


def test_settlement_of_a_finished_match():
    # 6290 -> 6300 and 4135 -> 4100: the winner's margin is 2200 (Bicycle: "the winners then
    # receive the difference between these net scores").
    match = score_match("classic", [HAND_B], starting_totals=[4800, 4000])
    assert match.settlement == {"rounded": [6300, 4100], "margin": 2200, "behind": [0, 2200]}


def test_settlement_with_a_minus_total():
    # 6290 -> 6300, -865 -> -900: margin 7200.
    match = score_match("classic", [HAND_B], starting_totals=[4800, -1000])
    assert match.settlement == {"rounded": [6300, -900], "margin": 7200, "behind": [0, 7200]}


def test_three_player_columns():
    # docs/rules.md "Scoring a hand" three-player: each player keeps a column; the partnership's 50 - 25 = 25 goes to
    # both partners, the lone player who went out scores 670 and passes 7500.
    hand = {
        "entries": [KINGS_OUT, {"melded_points": 50, "hand_points": 5}, {"hand_points": 20}],
        "partnership": [1, 2],
    }
    match = score_match("classic-3p", [hand], starting_totals=[7000, 100, 200])
    assert match.results[0].scores == (670, 25, 25)
    assert match.totals == (7670, 125, 225)
    assert (match.is_finished, match.winner) == (True, 0)
    # docs/rules.md "Presets": -3p minimums from each player's own total.
    assert match.results[0].minimums == (120, 50, 50)


@pytest.mark.parametrize(
    ("hands", "margin"),
    [
        # pagat / Bicycle: the margin of victory is the difference of the final totals.
        ([], None),  # nothing played, nobody leads
        ([[{"melded_points": 300}, {"melded_points": 120, "hand_points": 20}]], 200),  # 300 vs 100
        ([[{"melded_points": 50}, {"melded_points": 50}]], 0),
    ],
)
def test_margin_is_the_leaders_lead(hands, margin):
    match = score_match("classic", [{"entries": entries} for entries in hands])
    assert match.margin == margin


def test_margin_with_three_sides_is_over_the_runner_up():
    # classic-3p, each alone: 300, 150 and 100 (after 20 in hand): the leader is 150 ahead of 150.
    entries = [{"melded_points": 300}, {"melded_points": 150}, {"melded_points": 120, "hand_points": 20}]
    assert score_match("classic-3p", [{"entries": entries}]).margin == 150
