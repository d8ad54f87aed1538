"""Scoring one hand (docs/rules.md "Scoring a hand"), with whole hands worked out by hand.

Each case says which rule it pins and shows its arithmetic; none was copied from the code.
"""

import pytest

from scorepad.canasta import Hand, rules_for, score_hand, score_match

KINGS = {"melded_points": 70, "canastas": {"natural": 1}}  # pagat: a natural canasta of seven kings


def scores(variant, entries, options=None, partnership=None):
    hand = {"entries": entries}
    if partnership is not None:
        hand["partnership"] = partnership
    return score_match(variant, [hand], options).results[0].scores


def parts(variant, entries, options=None, side=0):
    """One side's breakdown as part id -> points, leaving out parts worth nothing."""
    hand = Hand.from_dict({"entries": entries})
    side_score = score_hand(hand, rules_for(variant, options))[side]
    assert all(part.label for part in side_score.parts)  # API: every part labelled
    assert len({part.id for part in side_score.parts}) == len(side_score.parts)
    return {part.id: part.points for part in side_score.parts if part.points}


CASES = [
    # --- classic (docs/rules.md "Scoring a hand": bonuses + red threes + going out + melded - hand - penalties) ----
    pytest.param(
        "classic",
        None,
        [KINGS, {"melded_points": 50, "hand_points": 20}],
        (570, 30),  # pagat: "a natural canasta of seven kings is worth 570 altogether"; 50 - 20
        id="pagat-570",
    ),
    pytest.param(
        "classic",
        None,
        [{**KINGS, "went_out": True}, {"hand_points": 45}],
        (670, -45),  # 500 + 100 going out + 70; the other side only loses its cards
        id="out-with-seven-kings",
    ),
    pytest.param(
        "classic",
        None,
        [{**KINGS, "went_out": True, "concealed": True}, {"hand_points": 45}],
        (770, -45),  # docs/rules.md "Presets": concealed 200 in all: 500 + 200 + 70
        id="concealed",
    ),
    pytest.param(
        "classic",
        None,
        [{**KINGS, "went_out": True, "concealed": True, "red_threes": 1}, {"hand_points": 45}],
        (870, -45),  # pagat: red threes "do not prevent ... the bonus for going out concealed"
        id="concealed-with-a-red-three",
    ),
    pytest.param(
        "classic",
        None,
        [
            {"melded_points": 390, "canastas": {"natural": 1, "mixed": 1}, "red_threes": 2, "went_out": True},
            {"melded_points": 120, "hand_points": 85, "red_threes": 1},
        ],
        # We: 500 + 300 + 2 x 100 + 100 + 390 = 1490; They: 100 + 120 - 85 = 135
        (1490, 135),
        id="classic-hand-both-sides",
    ),
    pytest.param(
        "classic",
        None,
        [{"melded_points": 100, "red_threes": 4}, {"melded_points": 50}],
        (900, 50),  # docs/rules.md "Presets" red threes: classic, all four = 800; + 100 melded
        id="all-four-red-threes",
    ),
    pytest.param(
        "classic",
        None,
        [{"melded_points": 60, "hand_points": 10, "red_threes": 2}, {"melded_points": 50}],
        (250, 50),  # docs/rules.md "Presets": plus when the side has melded anything, canasta or not: 200 + 60 - 10
        id="red-threes-plus-without-canasta",
    ),
    pytest.param(
        "classic",
        None,
        [{"melded_points": 50}, {"red_threes": 1, "hand_points": 30}],
        (50, -130),  # docs/rules.md "Presets": nothing melded, the same amount negative: -100 - 30
        id="one-red-three-minus",
    ),
    pytest.param(
        "classic",
        None,
        [{"melded_points": 50}, {"red_threes": 3, "hand_points": 30}],
        (50, -330),
        id="three-red-threes-minus",
    ),
    pytest.param(
        "classic",
        None,
        [{"melded_points": 50}, {"red_threes": 4, "hand_points": 60}],
        (50, -860),  # pagat: all four red threes and nothing melded: minus 800
        id="four-red-threes-minus",
    ),
    pytest.param(
        "classic-5p",
        None,
        [{"melded_points": 50, "red_threes": 4}, {"melded_points": 50}],
        (850, 50),  # docs/rules.md "Presets": classic-5p red threes as classic, all four 800
        id="classic-5p-four-red-threes",
    ),
    pytest.param(
        "classic",
        None,
        [
            {"melded_points": 85, "canastas": {"natural": 1}, "black_threes": 3, "went_out": True},
            {"hand_points": 20},
        ],
        (685, -20),  # docs/rules.md "Presets": black threes melded going out count 5: 500 + 100 + 70 + 15
        id="black-threes-melded-going-out",
    ),
    pytest.param(
        "classic",
        None,
        [{"melded_points": 100, "penalty_points": 50}, {"melded_points": 50}],
        (50, 50),  # API penalty_points: a positive number is subtracted
        id="table-penalty",
    ),
    # --- classic for two: two canastas to go out -----------------------------------------------
    pytest.param(
        "classic-2p",
        None,
        [
            {"melded_points": 250, "canastas": {"natural": 1, "mixed": 1}, "red_threes": 1, "went_out": True},
            {"melded_points": 180, "canastas": {"mixed": 1}, "hand_points": 45},
        ],
        (1250, 435),  # Me: 500 + 300 + 100 + 100 + 250; You: 300 + 180 - 45
        id="classic-2p-two-canastas",
    ),
    # --- six players: red threes 400 / 1000 / 1200 ---------------------------------------------
    pytest.param(
        "classic-6p-3x2",
        None,
        [{"melded_points": 50, "red_threes": 4}, {"melded_points": 50, "red_threes": 1}, {"hand_points": 10}],
        (450, 150, -10),  # docs/rules.md "Presets": four red threes are 400 with six players
        id="six-players-four-red-threes",
    ),
    pytest.param(
        "classic-6p-3x2",
        None,
        [{"melded_points": 50, "red_threes": 5}, {"melded_points": 50, "red_threes": 1}, {"hand_points": 10}],
        (1050, 150, -10),  # five count 1000
        id="six-players-five-red-threes",
    ),
    pytest.param(
        "classic-6p-2x3",
        None,
        [{"melded_points": 50, "red_threes": 6}, {"melded_points": 50}],
        (1250, 50),  # six count 1200
        id="six-players-six-red-threes",
    ),
    pytest.param(
        "classic-6p-2x3",
        None,
        [{"red_threes": 6, "hand_points": 50}, {"melded_points": 50}],
        (-1250, 50),  # ...and minus 1200 with nothing melded
        id="six-players-six-red-threes-minus",
    ),
    # --- classic house rules (docs/rules.md "House rules") --------------------------------------------------------
    pytest.param(
        "classic",
        {"black_three_in_hand": 100},
        [{"melded_points": 50}, {"melded_points": 50, "hand_points": 30, "black_threes_in_hand": 2}],
        (50, -170),  # two black threes cost 100 each in all: 50 - 30 (their 10 included) - 2 x 95
        id="black-three-in-hand-100",
    ),
    pytest.param(
        "classic",
        {"restore_pile_penalty": 50},
        [{"melded_points": 100, "restored_piles": 2}, {"melded_points": 50}],
        (0, 50),  # Hoyle program: 50 for each pile put back
        id="restore-pile-penalty",
    ),
    pytest.param(
        "classic",
        None,
        [{"melded_points": 100, "restored_piles": 2}, {"melded_points": 50}],
        (100, 50),  # without the option putting a pile back costs nothing
        id="restore-pile-no-penalty",
    ),
    pytest.param(
        "classic",
        {"wild_canasta": "1000"},
        [{"melded_points": 140, "canastas": {"wild": 1}}, {"melded_points": 50}],
        (1140, 50),  # docs/rules.md "House rules" wild_canasta 1000: 1000 + seven twos (140)
        id="wild-canasta-1000",
    ),
    pytest.param(
        "classic",
        {"wild_canasta": "palace"},
        [{"melded_points": 260, "canastas": {"wild_big": 1}}, {"melded_points": 50}],
        (2260, 50),  # Palace: a big wild canasta 2000 + its 4 jokers and 3 twos (260)
        id="palace-big-wild-canasta",
    ),
    pytest.param(
        "classic",
        {"wild_canasta": "palace"},
        [{"melded_points": 50}, {"melded_points": 140, "canastas": {"wild_small": 1}}],
        (50, 1140),  # Palace: a small wild canasta 1000 + seven twos (140)
        id="palace-small-wild-canasta",
    ),
    pytest.param(
        "classic",
        {"wild_canasta": "palace"},
        [{"melded_points": 100, "incomplete": ["wild"]}, {"melded_points": 50}],
        (-900, 50),  # Palace: an unfinished wild meld costs 1000: 100 - 1000
        id="palace-unfinished-wild",
    ),
    pytest.param(
        "classic",
        {"sequences": True},
        [{"melded_points": 120, "canastas": {"sequence": 1, "natural": 1}, "went_out": True}, {}],
        (2320, 0),  # Palace Sequences: 1500 + 500 + going out always 200 + 120
        id="sequences",
    ),
    pytest.param(
        "classic",
        {"tough_end": True, "wild_canasta": "1000"},
        [{**KINGS, "went_out": True}, {"melded_points": 140, "canastas": {"wild": 1}}],
        (670, 140),  # Palace Tough End: a wild canasta pays only the side going out
        id="tough-end-forfeits-wild-canasta",
    ),
    pytest.param(
        "classic",
        {"tough_end": True, "wild_canasta": "1000"},
        [{"melded_points": 210, "canastas": {"natural": 1, "wild": 1}, "went_out": True}, {"hand_points": 5}],
        (1810, -5),  # ...and is paid to that side: 500 + 1000 + 100 + 210
        id="tough-end-pays-wild-canasta-going-out",
    ),
    pytest.param(
        "classic-2p",
        {"canasta_required_for_positive": True},
        [
            {"melded_points": 150, "canastas": {"mixed": 1}, "hand_points": 40, "red_threes": 1},
            {"melded_points": 50, "hand_points": 5},
        ],
        # Hoyle program: short of the two canastas, "a negative score results consisting of the
        # sum of the values of the cards in your hand and on the table": no canasta bonus,
        # -150 - 40, and (pinned choice) the red three on the table counts minus too: -100.
        (-290, -55),
        id="canasta-required-for-positive",
    ),
    pytest.param(
        "classic",
        {"canasta_required_for_positive": True},
        [{**KINGS, "hand_points": 10, "red_threes": 1}, {"melded_points": 50, "hand_points": 10}],
        (660, -60),  # one canasta is enough in classic: 500 + 100 + 70 - 10; the other -50 - 10
        id="canasta-required-for-positive-classic",
    ),
    # --- american (docs/rules.md "Scoring a hand": by canasta count 0 / 1 / 2+) --------------------------------------
    pytest.param(
        "american",
        None,
        [{"melded_points": 150, "hand_points": 40, "red_threes": 1}, {"melded_points": 50}],
        # No canasta: threes minus (100), melded cards minus (150), hand minus (40)
        (-290, -50),
        id="american-no-canasta",
    ),
    pytest.param(
        "american",
        None,
        [{**KINGS, "melded_points": 200, "hand_points": 30, "red_threes": 2}, {"melded_points": 50}],
        (670, -50),  # One canasta: 500 + threes count 0 + 200 - 30
        id="american-one-canasta",
    ),
    pytest.param(
        "american",
        None,
        [
            {
                "melded_points": 400,
                "canastas": {"natural": 1, "mixed": 1},
                "red_threes": 2,
                "black_threes": 1,
                "went_out": True,
            },
            {"melded_points": 50},
        ],
        # Two canastas: 500 + 300 + red 2 -> 300 + black 1 -> 100 + going out 100 + 400
        (1700, -50),
        id="american-two-canastas-out",
    ),
    pytest.param(
        "american",
        None,
        [
            {"melded_points": 200, "canastas": {"natural": 1, "mixed": 1}, "red_threes": 2, "black_threes": 2},
            {"melded_points": 200, "canastas": {"natural": 1, "mixed": 1}, "red_threes": 2, "black_threes": 2},
        ],
        # Red and black counted separately: 300 + 300, not four threes' 1000: 800 + 600 + 200
        (1600, 1600),
        id="american-red-and-black-separately",
    ),
    pytest.param(
        "american",
        None,
        [{"melded_points": 200, "canastas": {"natural": 1, "mixed": 1}, "red_threes": 4}, {"melded_points": 50}],
        (2000, -50),  # four red threes 1000: 500 + 300 + 1000 + 200
        id="american-four-red-threes",
    ),
    pytest.param(
        "american",
        None,
        [{"melded_points": 200, "canastas": {"natural": 1, "mixed": 1}, "red_threes": 3}, {"melded_points": 50}],
        (1500, -50),  # three red threes 500
        id="american-three-red-threes",
    ),
    pytest.param(
        "american",
        None,
        [{"melded_points": 60, "red_threes": 4, "black_threes": 1}, {"melded_points": 50}],
        (-1160, -50),  # no canasta: -1000 - 100 - 60
        id="american-threes-minus",
    ),
    pytest.param(
        "american",
        None,
        [{"melded_points": 100, "canastas": {"natural": 1}, "red_threes": 4}, {"melded_points": 50}],
        (600, -50),  # one canasta: threes count nothing: 500 + 100
        id="american-threes-void-with-one-canasta",
    ),
    pytest.param(
        "american",
        None,
        [{"melded_points": 35, "canastas": {"sevens": 1}}, {"melded_points": 140, "canastas": {"aces": 1}}],
        (2535, 2640),  # docs/rules.md "Presets": sevens 2500, aces 2500, plus their cards
        id="american-sevens-and-aces",
    ),
    pytest.param(
        "american",
        None,
        [{"melded_points": 170, "canastas": {"wild": 1}}, {"melded_points": 50}],
        (2170, -50),  # docs/rules.md "Presets": wild (1-3 jokers) 2000 + one joker and six twos (170)
        id="american-wild",
    ),
    pytest.param(
        "american",
        None,
        [{"melded_points": 50}, {"melded_points": 260, "canastas": {"jokers": 1}}],
        (-50, 2760),  # jokers canasta 2500 + all four jokers and three twos (260)
        id="american-jokers",
    ),
    pytest.param(
        "american",
        None,
        [{"melded_points": 140, "canastas": {"twos": 1}}, {"melded_points": 50}],
        (3140, -50),  # seven twos 3000
        id="american-twos",
    ),
    pytest.param(
        "american",
        None,
        [{**KINGS, "melded_points": 50 + 35, "incomplete": ["sevens"]}, {"melded_points": 50}],
        (-1915, -50),  # 500 + 85 - 2500 for the unfinished sevens
        id="american-unfinished-sevens",
    ),
    pytest.param(
        "american",
        None,
        [{"melded_points": 60, "incomplete": ["wild"]}, {"melded_points": 60, "incomplete": ["aces"]}],
        (-2060, -2560),  # no canasta: -60 - 2000 (wild), -60 - 2500 (aces)
        id="american-unfinished-wild-and-aces",
    ),
    pytest.param(
        "american",
        None,
        [{"melded_points": 100, "canastas": {"natural": 1}, "hand_points": 45, "held_sets": {"sevens": 2}}, {}],
        (-2445, 0),  # both partners hold three sevens: 500 + 100 - 45 - 2 x 1500
        id="american-held-sets",
    ),
    pytest.param(
        "american",
        None,
        [
            {
                "melded_points": 50,
                "canastas": {"natural": 1},
                "incomplete": ["sevens"],
                "hand_points": 15,
                "held_sets": {"sevens": 1},
            },
            {"melded_points": 50},
        ],
        # pagat: an unfinished sevens meld and three sevens in a hand: "4000 points in all"
        (500 + 50 - 15 - 4000, -50),
        id="american-4000-for-sevens",
    ),
    pytest.param(
        "american",
        None,
        [
            {"special_hand": "straight", "red_threes": 2, "hand_points": 60, "held_sets": {"aces": 1}},
            {"melded_points": 150, "canastas": {"natural": 1}, "hand_points": 40},
        ],
        # A special hand replaces the side's whole score (pagat: items 1-5 not counted, held
        # sets among them); the other side scores normally: 500 + 150 - 40
        (3000, 610),
        id="american-straight",
    ),
    pytest.param(
        "american",
        None,
        [{"special_hand": "pairs"}, {"melded_points": 90, "hand_points": 60}],
        (2500, -150),  # pairs 2500; other side with no canasta: -90 - 60
        id="american-pairs",
    ),
    pytest.param(
        "american",
        None,
        [{"special_hand": "pairs_wild"}, {"melded_points": 90, "hand_points": 60}],
        (2000, -150),  # pairs with twos, sevens and aces 2000
        id="american-pairs-wild",
    ),
    pytest.param(
        "american",
        None,
        [{"melded_points": 90, "hand_points": 60}, {"special_hand": "garbage"}],
        (-150, 2000),  # garbage 2000
        id="american-garbage",
    ),
    # --- samba family: threes plus only with 2+ canastas ---------------------------------------
    pytest.param(
        "samba",
        None,
        [{"melded_points": 100, "canastas": {"mixed": 1}, "red_threes": 2}, {"melded_points": 50}],
        (200, 50),  # one canasta: threes minus: 300 - 200 + 100
        id="samba-one-canasta-threes-minus",
    ),
    pytest.param(
        "samba",
        None,
        [{"melded_points": 50, "red_threes": 1}, {"melded_points": 50}],
        (-50, 50),  # melded but no canasta: still minus (classic would pay it): -100 + 50
        id="samba-melded-threes-minus",
    ),
    pytest.param(
        "samba",
        None,
        [
            {"melded_points": 200, "canastas": {"natural": 1, "mixed": 1}, "red_threes": 2, "went_out": True},
            {"hand_points": 20},
        ],
        (1400, -20),  # two canastas: 500 + 300 + 200 + going out 200 + 200
        id="samba-two-canastas-out",
    ),
    pytest.param(
        "samba",
        None,
        [{"melded_points": 200, "canastas": {"natural": 1, "mixed": 1}, "red_threes": 6}, {"melded_points": 50}],
        (2000, 50),  # all six red threes 1000: 800 + 1000 + 200
        id="samba-all-six-red-threes",
    ),
    pytest.param(
        "samba",
        None,
        [{"melded_points": 200, "canastas": {"natural": 1, "mixed": 1}, "red_threes": 5}, {"melded_points": 50}],
        (1500, 50),  # five are 100 each
        id="samba-five-red-threes",
    ),
    pytest.param(
        "samba",
        None,
        [{"melded_points": 120, "canastas": {"sequence": 1, "natural": 1}, "went_out": True}, {}],
        (2320, 0),  # a samba 1500 + 500 + 200 + 120
        id="samba-sequence",
    ),
    pytest.param(
        "bolivia",
        None,
        [
            {"melded_points": 190, "canastas": {"sequence": 1, "wild": 1}, "went_out": True},
            {"melded_points": 100, "hand_points": 25, "black_threes_in_hand": 2},
        ],
        # escalera 1500 + bolivia 2500 + 200 + 190; the other side: 100 - 25 - 2 x 95, so each black
        # three costs 100 in all (5 inside hand_points plus 95)
        (4390, -115),
        id="bolivia-escalera-and-bolivia",
    ),
    pytest.param(
        "chile",
        {"decks": 4},
        [{"melded_points": 100}, {"hand_points": 5, "black_threes_in_hand": 1}],
        (100, -100),  # chile plays as bolivia: one black three in hand is -100
        id="chile-black-three",
    ),
]


@pytest.mark.parametrize(("variant", "options", "entries", "expected"), CASES)
def test_hand_scores(variant, options, entries, expected):
    assert scores(variant, entries, options) == expected


def test_classic_breakdown_names_every_part():
    # The classic-hand-both-sides case, part by part (docs/rules.md "Scoring a hand" formula).
    entries = [
        {"melded_points": 390, "canastas": {"natural": 1, "mixed": 1}, "red_threes": 2, "went_out": True},
        {"melded_points": 120, "hand_points": 85, "red_threes": 1},
    ]
    assert parts("classic", entries, side=0) == {
        "canastas.natural": 500,
        "canastas.mixed": 300,
        "red_threes": 200,
        "going_out": 100,
        "melded_points": 390,
    }
    assert parts("classic", entries, side=1) == {"red_threes": 100, "melded_points": 120, "hand_points": -85}


def test_american_breakdown_with_no_canasta():
    entries = [{"melded_points": 150, "hand_points": 40, "red_threes": 1, "incomplete": ["sevens"]}, {}]
    assert parts("american", entries) == {
        "red_threes": -100,
        "melded_points": -150,  # docs/rules.md "Scoring a hand": melded points subtracted with 0 canastas
        "hand_points": -40,
        "incomplete.sevens": -2500,
    }


def test_concealed_breakdown():
    entries = [{**KINGS, "went_out": True, "concealed": True}, {}]
    assert parts("classic", entries) == {
        "canastas.natural": 500,
        "going_out": 100,
        "concealed": 100,
        "melded_points": 70,
    }


@pytest.mark.parametrize(
    ("entries", "partnership", "expected"),
    [
        pytest.param(
            [
                {"melded_points": 200, "canastas": {"natural": 1}, "went_out": True, "red_threes": 1},
                {"melded_points": 150, "hand_points": 60},
                {"melded_points": 100, "hand_points": 35, "red_threes": 2},
            ],
            [0, 2],
            # docs/rules.md "Scoring a hand" three-player: the partnership scores 500 + 100 + (200 + 100) - 35 = 865,
            # each partner adds their own red threes: 865 + 100, 865 + 200; the lone 150 - 60.
            (965, 90, 1065),
            id="partnership-pools-melds",
        ),
        pytest.param(
            [
                {"melded_points": 200, "canastas": {"natural": 1}, "went_out": True},
                {"melded_points": 50, "hand_points": 20},
                {"hand_points": 40, "red_threes": 1},
            ],
            [2, 0],
            # Player 2 melded nothing but the partnership did, so the red three counts plus:
            # 500 + 100 + 200 - 40 = 760, and 760 + 100.
            (760, 30, 860),
            id="red-threes-signed-by-partnership",
        ),
        pytest.param(
            [
                {"melded_points": 200, "canastas": {"natural": 1}, "went_out": True},
                {"melded_points": 50, "hand_points": 20},
                {"hand_points": 40, "red_threes": 1},
            ],
            None,
            # The same hand without a partnership: everyone alone, player 2 has melded nothing.
            (800, 30, -140),
            id="no-partnership-everyone-alone",
        ),
        pytest.param(
            [
                {**KINGS, "went_out": True},
                {"hand_points": 30, "red_threes": 1},
                {"hand_points": 20, "red_threes": 2},
            ],
            [1, 2],
            # The partnership melded nothing: -50 for its cards, each red three minus.
            (670, -150, -250),
            id="partnership-without-melds",
        ),
    ],
)
def test_three_player_partnerships(entries, partnership, expected):
    assert scores("classic-3p", entries, partnership=partnership) == expected


def test_special_hand_keeps_table_penalties():
    # Pinned choice: a special hand replaces every item of American scoring, but a penalty the
    # table agreed on (penalty_points) is still taken off: 3000 - 50.
    assert scores("american", [{"special_hand": "straight", "penalty_points": 50}, {"melded_points": 50}]) == (
        2950,
        -50,
    )


@pytest.mark.parametrize(
    ("count", "expected"),
    # Canasta Palace, where the "3 decks" option comes from: red threes 100 each, and a side
    # with all the red threes of the round gains 400 more: six of six = 600 + 400 = 1000.
    # (In two decks that is Bicycle's 800 for all four.) Below all, 100 each.
    [(4, 450), (5, 550), (6, 1050)],
)
def test_classic_with_three_decks_red_threes(count, expected):
    assert scores("classic", [{"melded_points": 50, "red_threes": count}, {}], {"decks": 3})[0] == expected


@pytest.mark.parametrize(
    ("count", "expected"),
    # Pinned choice: chile with four packs holds 8 red threes; "all six 1000" becomes "all of
    # them 1000", and six of the eight are 100 each: 500 + 300 + 200 melded + 600 or 1000.
    [(6, 1600), (8, 2000)],
)
def test_chile_four_decks_red_threes(count, expected):
    entry = {"melded_points": 200, "canastas": {"natural": 1, "mixed": 1}, "red_threes": count}
    assert scores("chile", [entry, {}], {"decks": 4})[0] == expected
