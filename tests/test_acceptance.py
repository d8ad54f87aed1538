"""Acceptance checks: the JSON API driven over HTTP, every number worked out by hand from docs/rules.md.

Each case names the rule of docs/rules.md (or docs/api.md) it pins; the arithmetic is in the
comment next to it, so a failing case can be rechecked against the rulebook without the code.
"""

import re

import pytest


@pytest.fixture(scope="module")
def app(module_app):
    """These tests only score and check (stateless), or store a match of their own: one app for all."""
    return module_app


REQUIRED = {
    # id: (players, sides, target, canastas to go out, decks)      docs/rules.md "Presets"
    "classic": (4, 2, 5000, 1, 2),
    "classic-2p": (2, 2, 5000, 2, 2),
    "classic-3p": (3, 3, 7500, 1, 2),
    "classic-5p": (5, 2, 5000, 1, 2),
    "classic-6p-3x2": (6, 3, 7500, 2, 3),
    "classic-6p-2x3": (6, 2, 10000, 2, 3),
    "american": (4, 2, 8500, 2, 2),
    "samba": (4, 2, 10000, 2, 3),
    "bolivia": (4, 2, 15000, 2, 3),
    "chile": (4, 2, 15000, 2, 3),
}

# docs/rules.md "House rules": every option id with its default on the classic preset.
CLASSIC_OPTION_DEFAULTS = {
    "target": 5000,
    "decks": 2,
    "jokers_per_deck": 2,
    "canastas_to_go_out": 1,
    "harder_first_meld": False,
    "tough_end": False,
    "canasta_required_for_positive": False,
    "wild_canasta": "none",
    "sequences": False,
    "black_three_in_hand": 5,
    "pile_always_frozen": False,
    "pickup_with_wild": True,
    "pickup_onto_canasta": True,
    "max_wilds": 3,
    "wilds_not_more_than_naturals": True,
    "black_three_freezes": False,
    "top_counts_for_minimum": True,
    "restore_pile_penalty": 0,
    "max_hands": None,
}


def post_score(client, variant, hands, options=None, **extra):
    body = {"variant": variant, "options": options or {}, **extra}
    body["hands"] = [hand if isinstance(hand, dict) else {"entries": hand} for hand in hands]
    return client.post("/api/v1/score", json=body)


def scored(client, variant, hands, options=None, **extra):
    response = post_score(client, variant, hands, options, **extra)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    for hand in body["hands"]:
        # docs/api.md: breakdown parts are labelled and add up to the score.
        for side, part in enumerate(hand["breakdown"]):
            assert sum(p["points"] for p in part["parts"]) == hand["scores"][side]
            assert all(p["label"] for p in part["parts"])
    return body


def refused(client, variant, hands, options=None, **extra):
    response = post_score(client, variant, hands, options, **extra)
    assert response.status_code == 422, response.get_json()
    errors = response.get_json()["errors"]
    assert errors and all(error["message"] for error in errors)
    return {error["field"] for error in errors}


def check(client, **body):
    response = client.post("/api/v1/check", json={"variant": "classic", **body})
    assert response.status_code == 200, response.get_json()
    result = response.get_json()
    assert result["reasons"] and all(isinstance(reason, str) and reason for reason in result["reasons"])
    return result


# ---------------------------------------------------------------- GET /api/v1/variants


def test_variants_lists_every_required_preset_with_its_numbers(client):
    response = client.get("/api/v1/variants")
    assert response.status_code == 200
    variants = {v["id"]: v for v in response.get_json()["variants"]}
    assert set(REQUIRED) <= set(variants)
    for variant_id, (players, sides, target, to_go_out, decks) in REQUIRED.items():
        variant = variants[variant_id]
        assert variant["name"]
        assert (variant["players"], variant["sides"], variant["target"]) == (players, sides, target)
        options = {option["id"]: option for option in variant["options"]}
        for option in variant["options"]:
            assert {"id", "label", "default", "allowed"} <= set(option) and option["label"]
        # The preset's own numbers are the defaults of its options (docs/rules.md "House rules").
        assert options["target"]["default"] == target
        assert options["canastas_to_go_out"]["default"] == to_go_out
        if "decks" in options:
            assert options["decks"]["default"] == decks


def test_classic_offers_every_option_of_rules_section_4(client):
    variants = {v["id"]: v for v in client.get("/api/v1/variants").get_json()["variants"]}
    options = {option["id"]: option for option in variants["classic"]["options"]}
    assert {key: options[key]["default"] for key in CLASSIC_OPTION_DEFAULTS} == CLASSIC_OPTION_DEFAULTS
    assert options["decks"]["allowed"]["values"] == [2, 3, 4]
    assert options["jokers_per_deck"]["allowed"]["values"] == [2, 3]
    assert options["black_three_in_hand"]["allowed"]["values"] == [5, 100]
    assert options["wild_canasta"]["allowed"]["values"] == ["none", "1000", "2000", "palace"]
    assert options["harder_first_meld"]["allowed"]["values"] == [False, True]
    # Chile may be played with 3 or 4 packs (docs/rules.md "Presets").
    chile = {option["id"]: option for option in variants["chile"]["options"]}
    assert 3 in chile["decks"]["allowed"]["values"] and 4 in chile["decks"]["allowed"]["values"]
    # Canasta kinds per variant (docs/rules.md "Presets": the canasta bonuses column).
    assert variants["classic"]["canastas"] == {"natural": 500, "mixed": 300}
    assert variants["american"]["canastas"] == {
        "natural": 500,
        "mixed": 300,
        "sevens": 2500,
        "aces": 2500,
        "wild": 2000,
        "jokers": 2500,
        "twos": 3000,
    }
    assert variants["samba"]["canastas"] == {"natural": 500, "mixed": 300, "sequence": 1500}
    assert variants["bolivia"]["canastas"] == {"natural": 500, "mixed": 300, "sequence": 1500, "wild": 2500}
    assert variants["chile"]["canastas"] == variants["bolivia"]["canastas"]


# ---------------------------------------------------------------- classic (4 players)


def test_classic_two_hands(client):
    body = scored(
        client,
        "classic",
        [
            [
                # 500 natural + 300 mixed + 2 red threes 200 + going out 100 + 480 melded = 1580
                {"canastas": {"natural": 1, "mixed": 1}, "melded_points": 480, "red_threes": 2, "went_out": True},
                # red three 100 (they melded) + 150 melded - 85 in hand = 165
                {"melded_points": 150, "hand_points": 85, "red_threes": 1},
            ],
            [
                {"melded_points": 90, "hand_points": 40},  # 90 - 40 = 50
                # 500 natural + concealed 200 + 330 melded = 1030
                {"canastas": {"natural": 1}, "melded_points": 330, "went_out": True, "concealed": True},
            ],
        ],
    )
    assert [hand["scores"] for hand in body["hands"]] == [[1580, 165], [50, 1030]]
    assert [hand["totals"] for hand in body["hands"]] == [[1580, 165], [1630, 1195]]
    # Minimums from totals: 1630 is in 1500-2995 -> 90; 1195 in 0-1495 -> 50.
    assert body["totals"] == [1630, 1195] and body["next_minimums"] == [90, 50]
    assert body["game_over"] is False and body["winner"] is None


def test_classic_red_threes_count_minus_without_melds_and_800_for_all_four(client):
    body = scored(
        client,
        "classic",
        [
            [
                {"canastas": {"natural": 1}, "melded_points": 400, "went_out": True},  # 500+100+400 = 1000
                {"hand_points": 120, "red_threes": 4},  # nothing melded: -800 - 120 = -920
            ],
            [
                {"melded_points": 100, "hand_points": 20},  # 80
                {"melded_points": 60, "red_threes": 4},  # melded: all four = 800, + 60 = 860
            ],
        ],
    )
    assert [hand["scores"] for hand in body["hands"]] == [[1000, -920], [80, 860]]
    # -920 is below 0 -> 15; after the second hand -60 is still below 0 -> 15.
    assert body["hands"][0]["totals"] == [1000, -920]
    assert body["totals"] == [1080, -60] and body["next_minimums"] == [50, 15]


# Each side-0 entry is worked to give exactly the total on the left.
CLASSIC_LADDER = [
    (-5, [{"hand_points": 5}], 15),  # below 0 -> 15
    (0, [{"melded_points": 50, "hand_points": 50}], 50),
    # 500 + 2 red threes 200 + out 100 + 695 = 1495 -> still 50
    (1495, [{"canastas": {"natural": 1}, "red_threes": 2, "went_out": True, "melded_points": 695}], 50),
    (1500, [{"canastas": {"natural": 1}, "red_threes": 2, "went_out": True, "melded_points": 700}], 90),
    # 1000 + 300 + 800 + 100 + 795 = 2995 -> still 90
    (2995, [{"canastas": {"natural": 2, "mixed": 1}, "red_threes": 4, "went_out": True, "melded_points": 795}], 90),
    (3000, [{"canastas": {"natural": 2, "mixed": 1}, "red_threes": 4, "went_out": True, "melded_points": 800}], 120),
]


@pytest.mark.parametrize("variant", ["classic", "classic-5p"])
@pytest.mark.parametrize(("total", "entries", "minimum"), CLASSIC_LADDER)
def test_classic_minimum_ladder(client, variant, total, entries, minimum):
    """docs/rules.md "Presets" initial-meld minimum: below 0 15, 0-1495 50, 1500-2995 90, 3000 and up 120."""
    body = scored(client, variant, [[entries[0], {"melded_points": 50, "hand_points": 50}]])
    assert body["totals"] == [total, 0]
    assert body["next_minimums"] == [minimum, 50]


def test_classic_has_no_step_above_120(client):
    # 3 natural 1500 + mixed 300 + four red threes 800 + out 100 + 800 melded = 3500, twice = 7000.
    side = {"canastas": {"natural": 3, "mixed": 1}, "red_threes": 4, "went_out": True, "melded_points": 800}
    body = scored(client, "classic", [[side, {}], [side, {}]], {"target": 10000})
    assert body["totals"] == [7000, 0] and body["next_minimums"] == [120, 50]


def test_classic_game_ends_at_target_with_final_hand_whole_and_settlement(client):
    body = scored(
        client,
        "classic",
        [
            [
                # 1000 + 300 + 800 + 100 + 795 = 2995
                {"canastas": {"natural": 2, "mixed": 1}, "red_threes": 4, "went_out": True, "melded_points": 795},
                {"hand_points": 150},  # -150
            ],
            [
                # 1000 + 800 + 100 + 355 = 2255: total 5250, well past 5000, kept whole
                {"canastas": {"natural": 2}, "red_threes": 4, "went_out": True, "melded_points": 355},
                {"melded_points": 50, "hand_points": 50},  # 0
            ],
        ],
    )
    assert body["totals"] == [5250, -150]
    assert body["game_over"] is True and body["winner"] == 0 and not body.get("tie")
    # Bicycle: nearest hundred, 50 away from zero: 5250 -> 5300, -150 -> -200; margin 5500.
    assert body["settlement"]["rounded"] == [5300, -200]
    assert body["settlement"]["margin"] == 5500
    # docs/api.md: hands after the game is over are a 422.
    assert refused(client, "classic", [*[h["entries"] for h in body["hands"]], [{}, {}]])


def test_classic_tie_at_the_top(client):
    a_big = {"canastas": {"natural": 2}, "red_threes": 4, "went_out": True, "melded_points": 600}  # 1000+800+100+600
    a_small = {"canastas": {"natural": 1}, "melded_points": 500}  # 500 + 500 = 1000
    body = scored(
        client,
        "classic",
        [
            [a_big, a_small],  # 2500 / 1000
            [a_small, a_big],  # 1000 / 2500: 3500 each
            [
                # 500 + 300 + 200 + 100 + 400 = 1500
                {"canastas": {"natural": 1, "mixed": 1}, "red_threes": 2, "went_out": True, "melded_points": 400},
                # 500 + 300 + 200 + 500 = 1500
                {"canastas": {"natural": 1, "mixed": 1}, "red_threes": 2, "melded_points": 500},
            ],
        ],
    )
    assert body["totals"] == [5000, 5000]
    assert body["game_over"] is True and body["winner"] is None and body["tie"] is True
    assert body["settlement"]["margin"] == 0


def test_card_counts_are_valued_by_the_server(client):
    body = scored(
        client,
        "classic",
        [
            [
                # melded: joker 50 + 3 aces 60 + 7 kings 70 = 180; natural 500 + out 100 -> 780
                {"melded_cards": {"joker": 1, "A": 3, "K": 7}, "canastas": {"natural": 1}, "went_out": True},
                # melded: 3 eights 30 + 4 fours 20 = 50; hand: black three 5 + two sevens 10
                # + a two 20 + a queen 10 = 45 -> 50 - 45 = 5
                {"melded_cards": {"8": 3, "4": 4}, "hand_cards": {"black3": 1, "7": 2, "2": 1, "Q": 1}},
            ]
        ],
    )
    assert body["hands"][0]["scores"] == [780, 5]


# ---------------------------------------------------------------- classic-2p, -3p, -5p, -6p


def test_classic_2p(client):
    body = scored(
        client,
        "classic-2p",
        [
            [
                # two canastas to go out: 500 + 300 + 100 red + 100 out + 450 = 1450
                {"canastas": {"natural": 1, "mixed": 1}, "melded_points": 450, "red_threes": 1, "went_out": True},
                {"melded_points": 200, "hand_points": 60, "red_threes": 1},  # 100 + 200 - 60 = 240
            ],
            [
                {"hand_points": 120, "red_threes": 2},  # no melds: -200 - 120 = -320
                # 1000 + concealed 200 + 520 = 1720
                {"canastas": {"natural": 2}, "melded_points": 520, "went_out": True, "concealed": True},
            ],
        ],
    )
    assert [hand["scores"] for hand in body["hands"]] == [[1450, 240], [-320, 1720]]
    assert body["totals"] == [1130, 1960] and body["next_minimums"] == [50, 90]
    # classic-2p needs two canastas to go out (docs/rules.md "Presets").
    fields = refused(client, "classic-2p", [[{"canastas": {"natural": 1}, "melded_points": 300, "went_out": True}, {}]])
    assert fields == {"hands[0].entries[0].went_out"}


def test_classic_3p_partnership_pools_and_keeps_own_red_threes(client):
    body = scored(
        client,
        "classic-3p",
        [
            {
                "partnership": [1, 2],
                "entries": [
                    # lone player: 300 mixed + 100 red + 300 - 50 = 650
                    {"canastas": {"mixed": 1}, "melded_points": 300, "hand_points": 50, "red_threes": 1},
                    {"canastas": {"natural": 1}, "melded_points": 250, "went_out": True, "red_threes": 1},
                    {"hand_points": 30, "red_threes": 2},
                ],
            },
            [
                # everyone alone: 500 + 300 + 100 + 400 = 1300
                {"canastas": {"natural": 1, "mixed": 1}, "went_out": True, "melded_points": 400},
                {"melded_points": 100, "hand_points": 20},  # 80
                {"hand_points": 45, "red_threes": 1},  # alone, nothing melded: -100 - 45 = -145
            ],
        ],
    )
    # Partnership pool: 500 + out 100 + 250 - 30 = 820. Player 1: 820 + own red three 100 = 920.
    # Player 2 melded nothing himself, but the partnership did: 820 + 200 = 1020.
    assert body["hands"][0]["scores"] == [650, 920, 1020]
    assert body["hands"][1]["scores"] == [1300, 80, -145]
    # Each player's minimum from his own total: 1950 -> 90, 1000 -> 50, 875 -> 50.
    assert body["totals"] == [1950, 1000, 875] and body["next_minimums"] == [90, 50, 50]


def test_classic_3p_game_goes_to_7500(client):
    # 1500 + 300 + 800 + 100 + 800 = 3500 per hand, alone.
    big = {"canastas": {"natural": 3, "mixed": 1}, "red_threes": 4, "went_out": True, "melded_points": 800}
    body = scored(client, "classic-3p", [[big, {}, {}], [big, {}, {}]])
    assert body["totals"] == [7000, 0, 0] and body["game_over"] is False  # 7000 < 7500
    body = scored(client, "classic-3p", [[big, {}, {}], [big, {}, {}], [big, {}, {}]])
    assert body["totals"] == [10500, 0, 0] and body["game_over"] is True and body["winner"] == 0


def test_classic_5p(client):
    body = scored(
        client,
        "classic-5p",
        [
            [
                # 600 + 100 red + 100 out + 560 = 1360
                {"canastas": {"mixed": 2}, "melded_points": 560, "went_out": True, "red_threes": 1},
                {"canastas": {"natural": 1}, "melded_points": 300, "hand_points": 140, "red_threes": 2},  # 860
            ],
            [
                {"melded_points": 80, "hand_points": 215},  # -135
                # 800 + concealed 200 + 100 red + 440 = 1540
                {
                    "canastas": {"natural": 1, "mixed": 1},
                    "went_out": True,
                    "concealed": True,
                    "melded_points": 440,
                    "red_threes": 1,
                },
            ],
        ],
    )
    assert [hand["scores"] for hand in body["hands"]] == [[1360, 860], [-135, 1540]]
    assert body["totals"] == [1225, 2400] and body["next_minimums"] == [50, 90]


def test_classic_6p_3x2(client):
    body = scored(
        client,
        "classic-6p-3x2",
        [
            [
                # 500 + 300 + out 100 + five red threes 1000 + 500 = 2400
                {"canastas": {"natural": 1, "mixed": 1}, "melded_points": 500, "went_out": True, "red_threes": 5},
                {"melded_points": 200, "hand_points": 50, "red_threes": 1},  # 100 + 150 = 250
                {"hand_points": 100},  # -100
            ],
            [
                {"melded_points": 100},  # 100
                # 1000 + concealed 200 + six red threes 1200 + 600 = 3000
                {
                    "canastas": {"natural": 2},
                    "melded_points": 600,
                    "went_out": True,
                    "concealed": True,
                    "red_threes": 6,
                },
                {"melded_points": 150, "hand_points": 20},  # 130
            ],
        ],
    )
    assert [hand["scores"] for hand in body["hands"]] == [[2400, 250, -100], [100, 3000, 130]]
    assert body["hands"][0]["totals"] == [2400, 250, -100]
    # 2500 -> 90, 3250 -> 120, 30 -> 50
    assert body["totals"] == [2500, 3250, 30] and body["next_minimums"] == [90, 120, 50]
    # two canastas to go out
    fields = refused(
        client, "classic-6p-3x2", [[{"canastas": {"natural": 1}, "melded_points": 300, "went_out": True}, {}, {}]]
    )
    assert fields == {"hands[0].entries[0].went_out"}


@pytest.mark.parametrize("variant", ["classic-6p-3x2", "classic-6p-2x3"])
@pytest.mark.parametrize(("count", "value"), [(1, 100), (2, 200), (3, 300), (4, 400), (5, 1000), (6, 1200)])
def test_six_player_red_threes(client, variant, count, value):
    """docs/rules.md "Presets": 100 each up to four (four = 400); five 1000; six 1200; negative without melds."""
    others = [{"melded_points": 50, "hand_points": 50}] * (3 if variant.endswith("3x2") else 2)
    body = scored(client, variant, [[{"melded_points": 100, "red_threes": count}, *others[1:]]])
    assert body["hands"][0]["scores"][0] == 100 + value
    body = scored(client, variant, [[{"hand_points": 100, "red_threes": count}, *others[1:]]])
    assert body["hands"][0]["scores"][0] == -value - 100


def test_classic_6p_2x3_has_a_150_step_from_7000_and_goes_to_10000(client):
    # 1500 + 300 + 1200 + 100 + 400 = 3500
    big = {"canastas": {"natural": 3, "mixed": 1}, "red_threes": 6, "went_out": True, "melded_points": 400}
    almost = {**big, "melded_points": 395}  # 3495
    small = {"melded_points": 300, "hand_points": 100}  # 200
    body = scored(client, "classic-6p-2x3", [[big, small], [almost, small]])
    assert body["totals"] == [6995, 400] and body["next_minimums"] == [120, 50]
    body = scored(client, "classic-6p-2x3", [[big, small], [big, small]])
    assert body["totals"] == [7000, 400] and body["next_minimums"] == [150, 50]
    assert body["game_over"] is False  # target 10000
    body = scored(client, "classic-6p-2x3", [[big, small], [big, small], [big, small]])
    assert body["totals"] == [10500, 600] and body["game_over"] is True and body["winner"] == 0


# ---------------------------------------------------------------- american


def test_american_two_canastas_and_one_canasta(client):
    body = scored(
        client,
        "american",
        [
            [
                # 2+ canastas: 500 + sevens 2500 + out 100 + red threes (2) 300 + black (1) 100 + 600 = 4100
                {
                    "canastas": {"natural": 1, "sevens": 1},
                    "melded_points": 600,
                    "went_out": True,
                    "red_threes": 2,
                    "black_threes": 1,
                },
                # 1 canasta: 300 + threes 0 + 400 melded - 60 - unfinished aces 2500 = -1860
                {
                    "canastas": {"mixed": 1},
                    "melded_points": 400,
                    "hand_points": 60,
                    "red_threes": 1,
                    "black_threes": 2,
                    "incomplete": ["aces"],
                },
            ],
            [
                # 1 canasta: 500 + threes 0 + 300 - 80 (three aces 60 among them) - a player
                # holding 3+ aces 1500 = -780
                {
                    "canastas": {"natural": 1},
                    "melded_points": 300,
                    "hand_points": 80,
                    "red_threes": 2,
                    "held_sets": {"aces": 1},
                },
                # 800 + out 100 + red (2) 300 + black (4) 1000 + 500 = 2700
                {
                    "canastas": {"mixed": 1, "natural": 1},
                    "went_out": True,
                    "melded_points": 500,
                    "red_threes": 2,
                    "black_threes": 4,
                },
            ],
        ],
    )
    assert [hand["scores"] for hand in body["hands"]] == [[4100, -1860], [-780, 2700]]
    # 4100 -> 155 (3000-4995); -1860 -> 125. Then 3320 -> 155, 840 -> 125.
    assert body["hands"][1]["minimums"] == [155, 125]
    assert body["totals"] == [3320, 840] and body["next_minimums"] == [155, 125]


def test_american_no_canasta_counts_everything_minus(client):
    body = scored(
        client,
        "american",
        [
            [
                # 800 + out 100 + three red threes 500 + 500 = 1900
                {"canastas": {"natural": 1, "mixed": 1}, "melded_points": 500, "went_out": True, "red_threes": 3},
                # 0 canastas: red -100, black -100, melded -150, hand -40, two players with 3+ sevens -3000
                {
                    "melded_points": 150,
                    "hand_points": 40,
                    "red_threes": 1,
                    "black_threes": 1,
                    "held_sets": {"sevens": 2},
                },
            ],
            [
                {"canastas": {"natural": 2}, "went_out": True, "melded_points": 400},  # 1000 + 100 + 400 = 1500
                # 0 canastas: -100 melded - unfinished sevens 2500 - unfinished wild 2000 = -4600
                {"melded_points": 100, "incomplete": ["sevens", "wild"]},
            ],
        ],
    )
    assert [hand["scores"] for hand in body["hands"]] == [[1900, -3390], [1500, -4600]]
    # 3400 -> 155; -7990 -> 125 (American has no lower step below 0)
    assert body["totals"] == [3400, -7990] and body["next_minimums"] == [155, 125]


@pytest.mark.parametrize(
    ("special", "value"), [("straight", 3000), ("pairs", 2500), ("pairs_wild", 2000), ("garbage", 2000)]
)
def test_american_special_hands_replace_the_score(client, special, value):
    body = scored(
        client,
        "american",
        [
            [
                {"special_hand": special, "went_out": True},
                # other side, no canasta: -2 red threes 300 - 100 melded - 200 in hand = -600
                {"melded_points": 100, "hand_points": 200, "red_threes": 2},
            ],
            [
                {"special_hand": special, "went_out": True},
                # one canasta: 500 + threes 0 + 300 - 20 = 780
                {"canastas": {"natural": 1}, "melded_points": 300, "hand_points": 20, "red_threes": 2},
            ],
        ],
        {"target": 100000},
    )
    assert [hand["scores"] for hand in body["hands"]] == [[value, -600], [value, 780]]


def test_american_wild_canastas_and_game_end(client):
    body = scored(
        client,
        "american",
        [
            [
                # twos 3000 + natural 500 + out 100 + 400 = 4000
                {"canastas": {"twos": 1, "natural": 1}, "melded_points": 400, "went_out": True},
                # 1 canasta: 300 + threes 0 + 300 - 50 = 550
                {"canastas": {"mixed": 1}, "melded_points": 300, "hand_points": 50, "red_threes": 1, "black_threes": 1},
            ],
            [
                # jokers 2500 + aces 2500 + out 100 + 450 = 5550 (total 9550, past 8500)
                {"canastas": {"jokers": 1, "aces": 1}, "melded_points": 450, "went_out": True},
                # 0 canastas: -60 melded - 30 - unfinished wild meld 2000 = -2090
                {"melded_points": 60, "hand_points": 30, "incomplete": ["wild"]},
            ],
        ],
    )
    assert [hand["scores"] for hand in body["hands"]] == [[4000, 550], [5550, -2090]]
    assert body["totals"] == [9550, -1540] and body["game_over"] is True and body["winner"] == 0
    # 9550 -> 9600 (50 away from zero), -1540 -> -1500; margin 11100
    assert body["settlement"]["rounded"] == [9600, -1500] and body["settlement"]["margin"] == 11100
    # wild canasta (twos with 1-3 jokers) 2000: 2000 + 500 + 100 + 400 = 3000
    body = scored(
        client,
        "american",
        [[{"canastas": {"wild": 1, "natural": 1}, "melded_points": 400, "went_out": True}, {"melded_points": 0}]],
    )
    assert body["hands"][0]["scores"] == [3000, 0]


AMERICAN_LADDER = [
    (-5, [[{"hand_points": 5}]], 125),
    (0, [[{}]], 125),
    # sevens 2500 + mixed 300 + 295 - 100 = 2995, nobody out
    (2995, [[{"canastas": {"sevens": 1, "mixed": 1}, "melded_points": 295, "hand_points": 100}]], 125),
    (3000, [[{"special_hand": "straight", "went_out": True}]], 155),
    # 3000 + (2500 + 100 - 605 = 1995) = 4995
    (
        4995,
        [
            [{"special_hand": "straight", "went_out": True}],
            [{"canastas": {"sevens": 1}, "melded_points": 100, "hand_points": 605}],
        ],
        155,
    ),
    (
        5000,
        [[{"special_hand": "straight", "went_out": True}], [{"special_hand": "pairs_wild", "went_out": True}]],
        180,
    ),
]


@pytest.mark.parametrize(("total", "hands", "minimum"), AMERICAN_LADDER)
def test_american_minimum_ladder(client, total, hands, minimum):
    """docs/rules.md "Presets": 125 below 3000 (negative too), 155 for 3000-4995, 180 from 5000."""
    body = scored(client, "american", [[*entries, {"hand_points": 50}] for entries in hands])
    assert body["totals"] == [total, -50 * len(hands)]
    assert body["next_minimums"] == [minimum, 125]


def test_american_refuses_concealed_one_canasta_going_out_and_special_hand_with_melds(client):
    two = {"canastas": {"natural": 2}, "melded_points": 300, "went_out": True}
    # American has no concealed bonus (docs/rules.md "Presets" and "Impossible hands")
    assert refused(client, "american", [[{**two, "concealed": True}, {}]]) == {"hands[0].entries[0].concealed"}
    # two canastas to go out
    one = {"canastas": {"natural": 1}, "melded_points": 300, "went_out": True}
    assert refused(client, "american", [[one, {}]]) == {"hands[0].entries[0].went_out"}
    # a special hand is a hand with nothing melded (which of the two fields is named is the app's choice)
    fields = refused(client, "american", [[{"special_hand": "pairs", "went_out": True, "melded_points": 100}, {}]])
    assert fields <= {"hands[0].entries[0].special_hand", "hands[0].entries[0].melded_points"}
    # no such special hand
    assert refused(client, "american", [[{"special_hand": "flush", "went_out": True}, {}]]) == {
        "hands[0].entries[0].special_hand"
    }


# ---------------------------------------------------------------- samba, bolivia, chile


def test_samba(client):
    body = scored(
        client,
        "samba",
        [
            [
                # samba 1500 + natural 500 + out 200 + 2 red threes 200 + 600 = 3000
                {"canastas": {"sequence": 1, "natural": 1}, "melded_points": 600, "went_out": True, "red_threes": 2},
                # 1 canasta only: red threes -300; 300 + 300 - 80 - 300 = 220
                {"canastas": {"mixed": 1}, "melded_points": 300, "hand_points": 80, "red_threes": 3},
            ],
            [
                {"melded_points": 200, "hand_points": 150},  # 50
                # 600 + out 200 + all six red threes 1000 + 450 = 2250
                {"canastas": {"mixed": 2}, "melded_points": 450, "went_out": True, "red_threes": 6},
            ],
        ],
    )
    assert [hand["scores"] for hand in body["hands"]] == [[3000, 220], [50, 2250]]
    assert body["hands"][0]["totals"] == [3000, 220]
    # 3050 -> 120, 2470 -> 90
    assert body["totals"] == [3050, 2470] and body["next_minimums"] == [120, 90]


def test_samba_160_from_7000(client):
    big = {"canastas": {"sequence": 2}, "went_out": True, "melded_points": 300}  # 3000 + 200 + 300 = 3500
    body = scored(client, "samba", [[big, {}], [{**big, "melded_points": 295}, {}]])
    assert body["totals"] == [6995, 0] and body["next_minimums"] == [120, 50]
    body = scored(client, "samba", [[big, {}], [big, {}]])
    assert body["totals"] == [7000, 0] and body["next_minimums"] == [160, 50]


@pytest.mark.parametrize("variant", ["samba", "bolivia", "chile"])
def test_samba_family_refuses_concealed_and_one_canasta(client, variant):
    two = {"canastas": {"sequence": 1, "natural": 1}, "melded_points": 300, "went_out": True}
    assert refused(client, variant, [[{**two, "concealed": True}, {}]]) == {"hands[0].entries[0].concealed"}
    one = {"canastas": {"sequence": 1}, "melded_points": 300, "went_out": True}
    assert refused(client, variant, [[one, {}]]) == {"hands[0].entries[0].went_out"}


@pytest.mark.parametrize("variant", ["bolivia", "chile"])
def test_bolivia_and_chile_need_an_escalera_to_go_out(client, variant):
    fields = refused(client, variant, [[{"canastas": {"natural": 2}, "melded_points": 300, "went_out": True}, {}]])
    assert fields == {"hands[0].entries[0].went_out"}


def test_bolivia(client):
    body = scored(
        client,
        "bolivia",
        [
            [
                # escalera 1500 + bolivia 2500 + out 200 + 1 red three 100 + 700 = 5000
                {"canastas": {"sequence": 1, "wild": 1}, "melded_points": 700, "went_out": True, "red_threes": 1},
                # 1 canasta: 500 - red 200 + 250 - 60 - two black threes 95 each 190 = 300
                {
                    "canastas": {"natural": 1},
                    "melded_points": 250,
                    "hand_points": 60,
                    "black_threes_in_hand": 2,
                    "red_threes": 2,
                },
            ],
            [
                {"melded_points": 100, "hand_points": 45, "black_threes_in_hand": 1},  # 100 - 45 - 95 = -40
                # 1500 + 500 + 200 + 500 = 2700
                {"canastas": {"sequence": 1, "natural": 1}, "melded_points": 500, "went_out": True},
            ],
        ],
    )
    assert [hand["scores"] for hand in body["hands"]] == [[5000, 300], [-40, 2700]]
    assert body["totals"] == [4960, 3000] and body["next_minimums"] == [120, 120]
    assert body["game_over"] is False  # target 15000


def test_bolivia_150_from_7000_and_target_option(client):
    big = {"canastas": {"sequence": 2}, "went_out": True, "melded_points": 300}  # 3500
    body = scored(client, "bolivia", [[big, {}], [big, {}]])
    assert body["totals"] == [7000, 0] and body["next_minimums"] == [150, 50]
    body = scored(client, "bolivia", [[big, {}], [big, {}]], {"target": 7000})
    assert body["game_over"] is True and body["winner"] == 0


def test_chile(client):
    body = scored(
        client,
        "chile",
        [
            [
                # 1500 + 300 + out 200 + all six red threes 1000 + 400 = 3400
                {"canastas": {"sequence": 1, "mixed": 1}, "melded_points": 400, "went_out": True, "red_threes": 6},
                # 120 - 115 - three black threes 95 each 285 = -280
                {"melded_points": 120, "hand_points": 115, "black_threes_in_hand": 3},
            ],
            [
                {"canastas": {"wild": 1}, "melded_points": 300, "hand_points": 40},  # 2500 + 300 - 40 = 2760
                # 1500 + 500 + 200 + 2 red threes 200 + 500 = 2900
                {"canastas": {"sequence": 1, "natural": 1}, "went_out": True, "melded_points": 500, "red_threes": 2},
            ],
        ],
    )
    assert [hand["scores"] for hand in body["hands"]] == [[3400, -280], [2760, 2900]]
    assert body["hands"][0]["minimums"] == [50, 50]
    # 6160 -> 120, 2620 -> 90
    assert body["totals"] == [6160, 2620] and body["next_minimums"] == [120, 90]


def test_chile_with_four_packs(client):
    side = {"canastas": {"sequence": 1, "natural": 1}, "went_out": True, "melded_points": 500, "red_threes": 8}
    # four packs: eight red threes, all of them 1000: 1500 + 500 + 200 + 1000 + 500 = 3700
    body = scored(client, "chile", [[side, {}]], {"decks": 4})
    assert body["hands"][0]["scores"] == [3700, 0]
    # three packs hold only six red threes
    assert refused(client, "chile", [[side, {}]]) == {"hands[0].entries[0].red_threes"}


# ---------------------------------------------------------------- options of docs/rules.md "House rules"


def test_option_canasta_required_for_positive(client):
    hand = [
        {"canastas": {"natural": 1}, "melded_points": 400, "went_out": True},  # 1000 either way
        {"melded_points": 200, "hand_points": 50, "red_threes": 1},
    ]
    # default: 100 + 200 - 50 = 250
    assert scored(client, "classic", [hand])["hands"][0]["scores"] == [1000, 250]
    # short of one canasta: -(200 + 50) and the red three minus (README choice) = -350
    body = scored(client, "classic", [hand], {"canasta_required_for_positive": True})
    assert body["hands"][0]["scores"] == [1000, -350]


def test_option_wild_canasta_1000(client):
    side = {"canastas": {"wild": 1, "natural": 1}, "melded_points": 400, "went_out": True}
    # 1000 + 500 + 100 + 400 = 2000
    assert scored(client, "classic", [[side, {}]], {"wild_canasta": "1000"})["hands"][0]["scores"] == [2000, 0]
    # without the option classic has no wild canasta
    assert refused(client, "classic", [[side, {}]]) == {"hands[0].entries[0].canastas.wild"}


def test_option_wild_canasta_palace(client):
    options = {"wild_canasta": "palace"}
    body = scored(
        client,
        "classic",
        [
            [
                # big wild canasta 2000 + 500 + 100 + 500 = 3100
                {"canastas": {"wild_big": 1, "natural": 1}, "melded_points": 500, "went_out": True},
                # unfinished wild meld -1000: 200 - 30 - 1000 = -830
                {"melded_points": 200, "hand_points": 30, "incomplete": ["wild"]},
            ],
            [
                {"melded_points": 100, "hand_points": 40},  # 60
                # small wild canasta 1000 + out 100 + 300 = 1400
                {"canastas": {"wild_small": 1}, "melded_points": 300, "went_out": True},
            ],
        ],
        options,
    )
    assert [hand["scores"] for hand in body["hands"]] == [[3100, -830], [60, 1400]]
    assert body["totals"] == [3160, 570] and body["next_minimums"] == [120, 50]
    # 'wild' alone is the 1000 option's kind, not palace's
    assert refused(client, "classic", [[{"canastas": {"wild": 1}, "melded_points": 300}, {}]], options)


def test_option_sequences(client):
    # sequence 1500 + going out always 200 + 300 = 2000
    side = {"canastas": {"sequence": 1}, "melded_points": 300, "went_out": True}
    body = scored(client, "classic", [[side, {}]], {"sequences": True})
    assert body["hands"][0]["scores"] == [2000, 0]
    assert refused(client, "classic", [[side, {}]]) == {"hands[0].entries[0].canastas.sequence"}


def test_option_black_three_in_hand(client):
    side = {"melded_points": 100, "hand_points": 30, "black_threes_in_hand": 2}
    # 100 each in all: 100 - 30 - 2 * 95 = -120
    assert scored(client, "classic", [[side, {}]], {"black_three_in_hand": 100})["hands"][0]["scores"][0] == -120
    # default 5: the 5 is already in hand_points: 100 - 30 = 70
    assert scored(client, "classic", [[side, {}]])["hands"][0]["scores"][0] == 70


@pytest.mark.parametrize(
    ("total", "entries", "minimum"),
    [
        (-5, [{"hand_points": 5}], 50),
        (0, [{"melded_points": 50, "hand_points": 50}], 90),
        (1495, CLASSIC_LADDER[2][1], 90),
        (1500, CLASSIC_LADDER[3][1], 120),
        (2995, CLASSIC_LADDER[4][1], 120),
        (3000, CLASSIC_LADDER[5][1], 150),
    ],
)
def test_option_harder_first_meld(client, total, entries, minimum):
    """docs/rules.md "House rules": harder_first_meld gives 50 / 90 / 120 / 150."""
    body = scored(client, "classic", [[entries[0], {}]], {"harder_first_meld": True})
    assert body["totals"] == [total, 0] and body["next_minimums"] == [minimum, 90]


def test_option_tough_end(client):
    options = {"tough_end": True}
    mixed = {"canastas": {"mixed": 1}, "melded_points": 300, "went_out": True}
    assert refused(client, "classic", [[mixed, {}]], options) == {"hands[0].entries[0].went_out"}
    # one natural canasta is enough: 500 + 100 + 300 = 900; two mixed too: 600 + 100 + 300 = 1000
    natural = {"canastas": {"natural": 1}, "melded_points": 300, "went_out": True}
    assert scored(client, "classic", [[natural, {}]], options)["hands"][0]["scores"] == [900, 0]
    two = {"canastas": {"mixed": 2}, "melded_points": 300, "went_out": True}
    assert scored(client, "classic", [[two, {}]], options)["hands"][0]["scores"] == [1000, 0]
    # without the option one mixed canasta goes out: 300 + 100 + 300 = 700
    assert scored(client, "classic", [[mixed, {}]])["hands"][0]["scores"] == [700, 0]


def test_option_max_hands(client):
    hands = [[{"melded_points": 100}, {"melded_points": 50}]] * 2
    body = scored(client, "classic", hands, {"max_hands": 2})
    assert body["totals"] == [200, 100] and body["game_over"] is True and body["winner"] == 0
    assert refused(client, "classic", [*hands, hands[0]], {"max_hands": 2})
    assert scored(client, "classic", hands)["game_over"] is False


def test_option_restore_pile_penalty(client):
    side = {"melded_points": 100, "restored_piles": 2}
    # Hoyle: 50 each time: 100 - 2 * 50 = 0
    assert scored(client, "classic", [[side, {}]], {"restore_pile_penalty": 50})["hands"][0]["scores"][0] == 0
    assert scored(client, "classic", [[side, {}]])["hands"][0]["scores"][0] == 100


def test_option_decks(client):
    # three decks: six red threes, every one of them = 600 + 400 = 1000 (README choice)
    body = scored(client, "classic", [[{"melded_points": 100, "red_threes": 6}, {}]], {"decks": 3})
    assert body["hands"][0]["scores"][0] == 1100
    body = scored(client, "classic", [[{"melded_points": 100, "red_threes": 5}, {}]], {"decks": 3})
    assert body["hands"][0]["scores"][0] == 600
    assert refused(client, "classic", [[{"melded_points": 100, "red_threes": 5}, {}]])
    # card points: 1180 in two decks, 1770 in three
    big = [{"melded_points": 1000, "hand_points": 200}, {}]
    assert refused(client, "classic", [big])
    assert scored(client, "classic", [big], {"decks": 3})["hands"][0]["scores"][0] == 800
    assert refused(client, "classic", [[{"melded_points": 1500, "hand_points": 300}, {}]], {"decks": 3})


def test_option_jokers_per_deck(client):
    # 2 decks x 3 jokers = 6 jokers; 5 in hand = 250 points
    side = {"melded_points": 100, "hand_cards": {"joker": 5}}
    assert scored(client, "classic", [[side, {}]], {"jokers_per_deck": 3})["hands"][0]["scores"][0] == -150
    assert refused(client, "classic", [[side, {}]]) == {"hands[0].entries[0].hand_cards.joker"}
    # 1180 + two more jokers 100 = 1280 points of cards
    big = [{"melded_points": 1000, "hand_points": 250}, {}]
    assert scored(client, "classic", [big], {"jokers_per_deck": 3})["hands"][0]["scores"][0] == 750
    assert refused(client, "classic", [big])


def test_option_canastas_to_go_out(client):
    one = {"canastas": {"natural": 1}, "melded_points": 300, "went_out": True}  # 900
    assert refused(client, "classic", [[one, {}]], {"canastas_to_go_out": 2}) == {"hands[0].entries[0].went_out"}
    assert scored(client, "classic-2p", [[one, {}]], {"canastas_to_go_out": 1})["hands"][0]["scores"] == [900, 0]


def test_option_target(client):
    side = {"canastas": {"natural": 2, "mixed": 1}, "red_threes": 4, "went_out": True, "melded_points": 800}  # 3000
    body = scored(client, "classic", [[side, {}]], {"target": 3000})
    assert body["game_over"] is True and body["winner"] == 0
    assert scored(client, "classic", [[side, {}]], {"target": 3005})["game_over"] is False


# ---------------------------------------------------------------- impossible entries (docs/rules.md "Impossible hands")


@pytest.mark.parametrize(
    ("variant", "entries", "field"),
    [
        ("classic", [{"melded_points": -5}, {}], "hands[0].entries[0].melded_points"),
        ("classic", [{}, {"hand_points": 7}], "hands[0].entries[1].hand_points"),
        ("classic", [{"penalty_points": -10}, {}], "hands[0].entries[0].penalty_points"),
        ("classic", [{"red_threes": -1}, {}], "hands[0].entries[0].red_threes"),
        # 4 red threes in two decks: 3 + 2 = 5
        (
            "classic",
            [{"melded_points": 50, "red_threes": 3}, {"melded_points": 50, "red_threes": 2}],
            "hands[0].entries[1].red_threes",
        ),
        # both sides out
        (
            "classic",
            [
                {"canastas": {"natural": 1}, "melded_points": 100, "went_out": True},
                {"canastas": {"natural": 1}, "melded_points": 100, "went_out": True},
            ],
            "hands[0].entries[1].went_out",
        ),
        ("classic", [{"melded_points": 100, "concealed": True}, {}], "hands[0].entries[0].concealed"),
        ("classic", [{"melded_points": 100, "went_out": True}, {}], "hands[0].entries[0].went_out"),
        ("classic", [{"canastas": {"sevens": 1}, "melded_points": 100}, {}], "hands[0].entries[0].canastas.sevens"),
        ("classic", [{"special_hand": "straight", "went_out": True}, {}], "hands[0].entries[0].special_hand"),
        # a natural canasta holds at least 35 points, a mixed one 50
        ("classic", [{"canastas": {"natural": 1}, "melded_points": 30}, {}], "hands[0].entries[0].melded_points"),
        ("classic", [{"canastas": {"mixed": 1}, "melded_points": 45}, {}], "hands[0].entries[0].melded_points"),
        (
            "classic",
            [{"canastas": {"natural": 1, "mixed": 1}, "melded_points": 80}, {}],
            "hands[0].entries[0].melded_points",
        ),
        # more card points than two decks hold: 1180
        ("classic", [{"melded_points": 900}, {"hand_points": 285}], "hands[0].entries[1].hand_points"),
        # more jokers than the decks hold: 3 + 2 = 5 of 4
        (
            "classic",
            [{"melded_cards": {"joker": 3}}, {"hand_cards": {"joker": 2}}],
            "hands[0].entries[1].hand_cards.joker",
        ),
        # both forms for one pile
        ("classic", [{"melded_points": 100, "melded_cards": {"K": 10}}, {}], "hands[0].entries[0].melded_cards"),
        ("classic", [{"hand_cards": {"red3": 1}}, {}], "hands[0].entries[0].hand_cards.red3"),
        # more canastas than two decks can make: 8 kings + ... 30 natural canastas need 210 naturals
        ("classic", [{"canastas": {"natural": 30}, "melded_points": 1050}, {}], "hands[0].entries[0].canastas"),
        ("classic", [{"incomplete": ["sevens"]}, {}], "hands[0].entries[0].incomplete[0]"),
        ("classic", [{"held_sets": {"aces": 1}}, {}], "hands[0].entries[0].held_sets.aces"),
        ("classic", [{"melded_points": "many"}, {}], "hands[0].entries[0].melded_points"),
        ("classic", [{"melded_points": 1.5}, {}], "hands[0].entries[0].melded_points"),
        ("classic", [{"went_out": "yes"}, {}], "hands[0].entries[0].went_out"),
        ("classic", [{"typo": 1}, {}], "hands[0].entries[0].typo"),
        ("classic", [{}], "hands[0].entries"),
        (
            "classic-6p-3x2",
            [{"melded_points": 50, "red_threes": 4}, {"melded_points": 50, "red_threes": 3}, {}],
            "hands[0].entries[1].red_threes",
        ),
        ("american", [{"red_threes": 5}, {}], "hands[0].entries[0].red_threes"),
        ("american", [{"black_threes": 3}, {"black_threes": 2}], "hands[0].entries[1].black_threes"),
        # four jokers + three twos: only one jokers canasta in two decks
        (
            "american",
            [{"canastas": {"jokers": 1}, "melded_points": 260}, {"canastas": {"jokers": 1}, "melded_points": 260}],
            "hands[0].entries[1].canastas.jokers",
        ),
        ("samba", [{"red_threes": 7}, {}], "hands[0].entries[0].red_threes"),
    ],
)
def test_impossible_entries_are_422_naming_the_field(client, variant, entries, field):
    # The app may name a list or mapping as a whole (incomplete, canastas) rather than one item.
    fields = refused(client, variant, [entries])
    assert field in fields or any(field.startswith(f) and field[len(f)] in ".[" for f in fields), fields


def test_three_player_partnership_must_name_two_players(client):
    for bad in ([0, 0], [0, 3], [1], "1,2"):
        response = client.post(
            "/api/v1/score",
            json={"variant": "classic-3p", "hands": [{"partnership": bad, "entries": [{}, {}, {}]}]},
        )
        assert response.status_code == 422
        assert response.get_json()["errors"][0]["field"].startswith("hands[0].partnership")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"variant": "poker", "hands": []}, "variant"),
        ({"hands": []}, "variant"),
        ({"variant": "classic", "options": {"colour": "red"}, "hands": []}, "options.colour"),
        ({"variant": "classic", "options": {"decks": 5}, "hands": []}, "options.decks"),
        ({"variant": "classic", "options": {"wild_canasta": "3000"}, "hands": []}, "options.wild_canasta"),
        ({"variant": "classic", "options": {"black_three_in_hand": 50}, "hands": []}, "options.black_three_in_hand"),
        ({"variant": "classic", "options": {"target": "lots"}, "hands": []}, "options.target"),
        ({"variant": "classic", "options": {"harder_first_meld": "yes"}, "hands": []}, "options.harder_first_meld"),
        ({"variant": "classic", "options": {"jokers_per_deck": 4}, "hands": []}, "options.jokers_per_deck"),
        ({"variant": "classic", "options": [], "hands": []}, "options"),
        ({"variant": "classic", "hands": {}}, "hands"),
        ({"variant": "classic", "hands": [{"entries": "none"}]}, "hands[0].entries"),
        ({"variant": "classic", "hands": [[{}, {}]]}, "hands[0]"),
    ],
)
def test_bad_requests_are_422_naming_the_field(client, body, field):
    response = client.post("/api/v1/score", json=body)
    assert response.status_code == 422
    assert field in {error["field"] for error in response.get_json()["errors"]}


def test_whole_body_errors(client):
    response = client.post("/api/v1/score", data="{not json", content_type="application/json")
    assert response.status_code == 400 and response.get_json()["errors"]
    response = client.post("/api/v1/score", json=[1, 2])
    assert response.status_code == 422 and response.get_json()["errors"][0]["field"] == ""
    response = client.post("/api/v1/check", data="[", content_type="application/json")
    assert response.status_code == 400 and response.get_json()["errors"]


@pytest.mark.parametrize(
    "body",
    [
        None,
        0,
        "classic",
        {"variant": None},
        {"variant": 7, "hands": None},
        {"variant": "classic", "options": None, "hands": [None]},
        {"variant": "classic", "hands": [{"entries": [None, None]}]},
        {"variant": "classic", "hands": [{"entries": [{"canastas": [1]}, {"canastas": {"natural": "x"}}]}]},
        {"variant": "classic", "hands": [{"entries": [{"melded_cards": {"K": -1}}, {"hand_cards": []}]}]},
        {"variant": "classic", "hands": [{"entries": [{"melded_points": 10**30}, {"red_threes": 1e308}]}]},
        {"variant": "classic", "hands": [{"entries": [{"incomplete": "wild"}, {"held_sets": [1]}]}]},
        {"variant": "classic", "hands": [{"entries": [{"special_hand": 5}, {"went_out": None}]}]},
        {"variant": "american", "hands": [{"entries": [{"incomplete": [None]}, {"held_sets": {"aces": "x"}}]}]},
        {"variant": "classic-3p", "hands": [{"partnership": [None, {}], "entries": [{}, {}, {}]}]},
        {"variant": "classic", "options": {"max_hands": 0, "target": -5}, "hands": []},
        {"variant": "classic", "starting_totals": ["a", None], "hands": []},
    ],
)
def test_score_never_answers_500(client, body):
    response = client.post("/api/v1/score", json=body)
    assert response.status_code in (400, 415, 422)  # json=None sends no body and no Content-Type: 415
    assert response.get_json()["errors"]


# ---------------------------------------------------------------- POST /api/v1/check


def test_check_meld_counts_toward_the_minimum(client):
    hand = ["K", "K", "K", "Q", "Q", "2C", "7H", "9", "8"]
    melds = [["K", "K", "K"], ["Q", "Q", "2C"]]
    # K K K 30 + Q Q 20 + 2 20 = 70 against 50 (total 1200)
    result = check(client, action="meld", hand=hand, melds=melds, score=1200)
    assert (result["legal"], result["count"], result["minimum"]) == (True, 70, 50)
    # 70 is short of 90 (total 1500)
    result = check(client, action="meld", hand=hand, melds=melds, score=1500)
    assert (result["legal"], result["count"], result["minimum"]) == (False, 70, 90)
    # after the initial meld no minimum applies
    result = check(client, action="meld", hand=hand, melds=[["Q", "Q", "2C"]], table=[["K", "K", "K"]], score=1500)
    assert result["legal"] is True
    # a meld of two wild cards and one natural is not a meld (2+ naturals)
    result = check(
        client, action="meld", hand=["K", "2C", "JK", "9"], melds=[["K", "2C", "JK"]], table=[["9", "9", "9"]]
    )
    assert result["legal"] is False


def test_check_pagat_king_queen_example(client):
    """pagat: K on the pile, K K Q Q 2 in hand: K-K-K, Q-Q-2 count 70 - enough for 50, not for 90."""
    position = {
        "action": "pickup",
        "hand": ["K", "K", "Q", "Q", "2C", "9"],
        "melds": [["K", "K", "K"], ["Q", "Q", "2C"]],
        "pile": {"top": "K", "frozen": False, "size": 8},
    }
    result = check(client, **position, score=0)
    assert (result["legal"], result["count"], result["minimum"]) == (True, 70, 50)
    result = check(client, **position, score=1500)
    assert (result["legal"], result["count"], result["minimum"]) == (False, 70, 90)


def test_check_pickup(client):
    table = [["9", "9", "9"]]
    pile = {"top": "K", "frozen": False, "size": 5}
    # without melds, the checker finds a way: the natural pair with the top card
    result = check(client, action="pickup", hand=["K", "K", "7", "8"], table=table, pile=pile)
    assert result["legal"] is True and ["K", "K", "K"] in [sorted(m) for m in result["how"]]
    # unfrozen: one natural + one wild will do (pickup_with_wild, default on)
    assert check(client, action="pickup", hand=["K", "2C", "7", "8"], table=table, pile=pile)["legal"] is True
    # frozen: only a natural pair
    frozen = {**pile, "frozen": True}
    assert check(client, action="pickup", hand=["K", "2C", "7", "8"], table=table, pile=frozen)["legal"] is False
    assert (
        check(
            client,
            action="pickup",
            hand=["K", "2C", "7", "8"],
            table=table,
            pile=pile,
            options={"pickup_with_wild": False},
        )["legal"]
        is False
    )
    # never when the top is a wild card or a three
    for top in ("2C", "JK", "3S"):
        result = check(client, action="pickup", hand=["K", "K", "7", "8"], table=table, pile={**pile, "top": top})
        assert result["legal"] is False
    # with explicit melds that include the top card
    result = check(client, action="pickup", hand=["K", "K", "7"], table=table, pile=pile, melds=[["K", "K", "K"]])
    assert result["legal"] is True


def test_check_go_out(client):
    canasta = [["K"] * 7]
    position = {"action": "go_out", "hand": ["Q", "Q", "Q", "5"], "melds": [["Q", "Q", "Q"]], "discard": "5"}
    assert check(client, **position, table=canasta)["legal"] is True
    # no canasta yet (classic needs one)
    assert check(client, **position, table=[["K", "K", "K"]])["legal"] is False
    # classic-2p needs two
    assert check(client, **position, table=canasta, variant="classic-2p")["legal"] is False


def test_check_discard(client):
    table = [["K", "K", "K"]]
    assert check(client, action="discard", hand=["7H", "9"], table=table, discard="7H")["legal"] is True
    # American: never a wild card except when going out
    result = check(client, variant="american", action="discard", hand=["2C", "9", "8"], table=table, discard="2C")
    assert result["legal"] is False


@pytest.mark.parametrize(
    ("body", "field"),
    [
        # two decks hold four jokers (counted across the whole position, so the body is named)
        ({"action": "meld", "hand": ["JK"] * 5 + ["K", "K"], "melds": [["K", "K", "JK"]]}, ""),
        # nine kings: eight in two decks
        ({"action": "meld", "hand": ["K", "K", "K"], "table": [["K"] * 6], "melds": [["K", "K", "K"]]}, ""),
        # a meld with cards not in the hand
        ({"action": "meld", "hand": ["K", "K", "Q"], "melds": [["Q", "Q", "Q"]]}, "melds"),
        ({"action": "meld", "hand": ["K", "3"], "melds": []}, "hand"),
        ({"action": "dance", "hand": ["K"]}, "action"),
        ({"action": "meld", "hand": ["Z9"]}, "hand"),
    ],
)
def test_check_refuses_positions_that_cannot_occur(client, body, field):
    response = client.post("/api/v1/check", json={"variant": "classic", **body})
    assert response.status_code == 422, response.get_json()
    fields = [error["field"] for error in response.get_json()["errors"]]
    assert any(f.startswith(field) for f in fields)


# ---------------------------------------------------------------- stored matches


def test_stored_match_json(client):
    data = {
        "side_0": "We",
        "side_1": "They",
        "option_target": "5000",
        "option_canastas_to_go_out": "1",
        "option_restore_pile_penalty": "0",
    }
    response = client.post("/matches/new/classic", data=data)
    assert response.status_code == 303
    url = response.headers["Location"]
    form = client.get(f"{url}/hands/new").get_data(as_text=True)
    version = re.search(r'name="version" (?:type="hidden" )?value="(\d+)"', form)[1]
    hand = {
        "sides-0-melded_points": "620",
        "sides-0-canasta_natural": "1",
        "sides-0-went_out": "y",
        "sides-1-melded_points": "260",
        "sides-1-hand_points": "95",
        "version": version,
    }
    assert client.post(f"{url}/hands", data=hand).status_code in (200, 303)
    match_id = url.rsplit("/", 1)[1]
    response = client.get(f"/api/v1/matches/{match_id}")
    assert response.status_code == 200
    body = response.get_json()
    assert body["variant"] == "classic"
    entries = body["hands"][0]["entries"]
    assert entries[0]["melded_points"] == 620 and entries[0]["canastas"] == {"natural": 1} and entries[0]["went_out"]
    assert entries[1]["melded_points"] == 260 and entries[1]["hand_points"] == 95
    # 500 + 100 + 620 = 1220; 260 - 95 = 165
    assert body["hands"][0]["scores"] == [1220, 165]
    assert body["totals"] == [1220, 165]
    # the unguessable id is not a counter
    assert len(match_id) >= 16


def test_unknown_match_is_a_json_404(client):
    for match_id in ("0" * 32, "1", "nope"):
        response = client.get(f"/api/v1/matches/{match_id}")
        assert response.status_code == 404
        assert response.is_json and response.get_json()["errors"]


# ---------------------------------------------------------------- more rules, pinned one by one


def test_penalties_and_card_count_classes(client):
    body = scored(
        client,
        "classic",
        [
            [
                # agreed penalty is subtracted: 200 - 100 = 100
                {"melded_points": 200, "penalty_points": 100},
                # 10s 20 + 9 10 + 5s 15 + 6 5 = 50 melded; 4 + 4 + 5 in hand 15: 35
                {"melded_cards": {"10": 2, "9": 1, "5": 3, "6": 1}, "hand_cards": {"4": 2, "5": 1}},
            ]
        ],
    )
    assert body["hands"][0]["scores"] == [100, 35]
    # nine kings across both sides: two decks hold eight
    assert refused(client, "classic", [[{"melded_cards": {"K": 5}}, {"hand_cards": {"K": 4}}]])


def test_card_point_limits(client):
    # classic two decks: 1180 points of cards other than red threes
    assert scored(client, "classic", [[{"melded_points": 1000}, {"hand_points": 180}]])["hands"][0]["scores"] == [
        1000,
        -180,
    ]
    assert refused(client, "classic", [[{"melded_points": 1000}, {"hand_points": 185}]])
    # American: threes kept in hand count 5 each, so 1200 (README choice); no canasta: melded counts minus
    body = scored(client, "american", [[{"melded_points": 1000}, {"hand_points": 200}]])
    assert body["hands"][0]["scores"] == [-1000, -200]
    assert refused(client, "american", [[{"melded_points": 1000}, {"hand_points": 205}]])


def test_black_threes_limits_and_hand_value(client):
    # two decks: four black threes; three decks (bolivia): six
    assert refused(
        client,
        "classic",
        [[{"hand_points": 15, "black_threes_in_hand": 3}, {"hand_points": 10, "black_threes_in_hand": 2}]],
    )
    assert refused(
        client,
        "bolivia",
        [[{"hand_points": 20, "black_threes_in_hand": 4}, {"hand_points": 15, "black_threes_in_hand": 3}]],
    )
    # a black three in hand is in hand_points at 5: two of them cannot be worth only 5
    fields = refused(client, "bolivia", [[{"melded_points": 100, "hand_points": 5, "black_threes_in_hand": 2}, {}]])
    assert fields == {"hands[0].entries[0].black_threes_in_hand"}


def test_american_one_canasta_to_go_out_option_scores_bonus_with_one_canasta(client):
    # canastas_to_go_out 1: one canasta: 500 + out 100 + threes 0 + 300 = 900
    side = {"canastas": {"natural": 1}, "went_out": True, "melded_points": 300, "red_threes": 2}
    body = scored(client, "american", [[side, {}]], {"canastas_to_go_out": 1})
    assert body["hands"][0]["scores"] == [900, 0]


def test_options_a_preset_does_not_take_are_refused(client):
    response = client.post("/api/v1/score", json={"variant": "american", "options": {"decks": 3}, "hands": []})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["field"] == "options.decks"


def test_samba_red_threes_without_two_canastas_are_minus_all_six_1000(client):
    # no canasta: all six red threes -1000; 200 - 100 = 100 -> -900
    body = scored(client, "samba", [[{"melded_points": 200, "hand_points": 100, "red_threes": 6}, {}]])
    assert body["hands"][0]["scores"][0] == -900
    # samba below zero: 15
    assert body["next_minimums"] == [15, 50]


def test_classic_four_decks_red_threes(client):
    # every red three of four decks: 8 x 100 + 400 = 1200 (README choice); seven: 700
    body = scored(client, "classic", [[{"melded_points": 100, "red_threes": 8}, {}]], {"decks": 4})
    assert body["hands"][0]["scores"][0] == 1300
    body = scored(client, "classic", [[{"melded_points": 100, "red_threes": 7}, {}]], {"decks": 4})
    assert body["hands"][0]["scores"][0] == 800


def test_three_player_partnership_that_melded_nothing_and_all_four_red_threes(client):
    body = scored(
        client,
        "classic-3p",
        [
            {
                "partnership": [0, 2],
                "entries": [
                    {"hand_points": 60, "red_threes": 4},  # partnership melded nothing: own threes -800
                    # lone player: 500 + 100 + 300 = 900
                    {"canastas": {"natural": 1}, "went_out": True, "melded_points": 300},
                    {"hand_points": 40},
                ],
            }
        ],
    )
    # pool: -60 - 40 = -100. Player 0: -100 - 800 = -900; player 2: -100.
    assert body["hands"][0]["scores"] == [-900, 900, -100]
    assert body["next_minimums"] == [15, 50, 15]


def test_three_sided_tie_and_highest_total_wins(client):
    # 6p-3x2 (target 7500): 3500 per hand as in the 6p-2x3 case
    big = {"canastas": {"natural": 3, "mixed": 1}, "red_threes": 3, "went_out": True, "melded_points": 700}
    # 1500 + 300 + 300 + 100 + 700 = 2900
    assert scored(client, "classic-6p-3x2", [[big, {}, {}]])["totals"] == [2900, 0, 0]
    quiet = {"canastas": {"natural": 3, "mixed": 1}, "red_threes": 3, "melded_points": 800}  # 1500+300+300+800
    body = scored(client, "classic-6p-3x2", [[big, quiet, {}], [quiet, big, {}]], {"target": 5800})
    assert body["totals"] == [5800, 5800, 0] and body["game_over"] is True
    assert body["winner"] is None and body["tie"] is True
    # both past the target: the higher wins, not the first to get there
    almost = CLASSIC_LADDER[4][1][0]  # 2995
    big = {"canastas": {"natural": 3, "mixed": 1}, "red_threes": 4, "went_out": True, "melded_points": 800}  # 3500
    body = scored(client, "classic", [[almost, {}], [{"melded_points": 100}, big]], {"target": 3000})
    assert body["totals"] == [3095, 3500] and body["game_over"] is True and body["winner"] == 1


def test_check_american_initial_meld(client):
    american = {"variant": "american", "action": "meld"}
    hand = ["A", "A", "A", "K", "K", "2C", "Q", "Q", "Q", "9", "8"]
    # AAA 60 + K K 2 40 + QQQ 30 = 130 >= 125, with three matching naturals
    result = check(client, **american, hand=hand, melds=[["A", "A", "A"], ["K", "K", "2C"], ["Q", "Q", "Q"]])
    assert (result["legal"], result["count"], result["minimum"]) == (True, 130, 125)
    # 120 is short of 125
    result = check(client, **american, hand=hand, melds=[["A", "A", "A"], ["K", "K", "2C"]], score=0)
    assert (result["legal"], result["count"]) == (False, 100)
    # 3000 and up: 155
    result = check(
        client, **american, hand=hand, melds=[["A", "A", "A"], ["K", "K", "2C"], ["Q", "Q", "Q"]], score=3000
    )
    assert (result["legal"], result["minimum"]) == (False, 155)
    # enough points but no meld of three matching naturals
    hand = ["A", "A", "2C", "K", "K", "2D", "Q", "Q", "JK", "9", "8"]
    result = check(client, **american, hand=hand, melds=[["A", "A", "2C"], ["K", "K", "2D"], ["Q", "Q", "JK"]])
    assert result["legal"] is False


def test_check_american_pickup_needs_the_minimum_from_the_hand(client):
    # K on the pile; from the hand K K 20 + AAA 60 + QQQQ 40 = 120 < 125 (the top king would make 130)
    hand = ["K", "K", "A", "A", "A", "Q", "Q", "Q", "Q", "9", "8"]
    melds = [["K", "K", "K"], ["A", "A", "A"], ["Q", "Q", "Q", "Q"]]
    result = check(client, variant="american", action="pickup", hand=hand, melds=melds, pile={"top": "K", "size": 6})
    assert result["legal"] is False and result["minimum"] == 125
    # one more natural jack meld from the hand: 120 + JJJ 30 = 150
    hand = [*hand, "J", "J", "J"]
    melds = [*melds, ["J", "J", "J"]]
    result = check(client, variant="american", action="pickup", hand=hand, melds=melds, pile={"top": "K", "size": 6})
    assert result["legal"] is True


def test_check_options_change_the_verdict(client):
    table = [["9", "9", "9"]]
    pile = {"top": "K", "frozen": False, "size": 5}
    hand = ["K", "2C", "7", "8"]
    # pile_always_frozen: only a natural pair
    assert check(client, action="pickup", hand=hand, table=table, pile=pile)["legal"] is True
    assert (
        check(client, action="pickup", hand=hand, table=table, pile=pile, options={"pile_always_frozen": True})["legal"]
        is False
    )
    # no initial meld yet: the pile is frozen against the side
    assert check(client, action="pickup", hand=hand, pile=pile)["legal"] is False
    # three wild cards with three naturals: a meld, unless max_wilds is 2
    meld = {"action": "meld", "hand": ["K", "K", "K", "2C", "2D", "JK", "7", "8"], "table": table}
    assert check(client, **meld, melds=[["K", "K", "K", "2C", "2D", "JK"]])["legal"] is True
    assert check(client, **meld, melds=[["K", "K", "K", "2C", "2D", "JK"]], options={"max_wilds": 2})["legal"] is False
    # two naturals with three wild cards: only with wilds_not_more_than_naturals off
    assert check(client, **meld, melds=[["K", "K", "2C", "2D", "JK"]])["legal"] is False
    off = {"wilds_not_more_than_naturals": False}
    assert check(client, **meld, melds=[["K", "K", "2C", "2D", "JK"]], options=off)["legal"] is True
    # pagat's example with the top card not counting: 60 is still enough for 50, not for 90
    position = {
        "action": "pickup",
        "hand": ["K", "K", "Q", "Q", "2C", "9"],
        "melds": [["K", "K", "K"], ["Q", "Q", "2C"]],
        "pile": {"top": "K", "frozen": False, "size": 8},
        "options": {"top_counts_for_minimum": False},
    }
    result = check(client, **position, score=0)
    assert (result["legal"], result["count"]) == (True, 60)
    assert check(client, **position, score=1500)["legal"] is False


def test_check_one_card_pile_with_one_card_hand(client):
    table = [["K", "K", "K"]]
    # adding the top card to a side meld: fine, but never a one-card pile with a one-card hand
    assert check(client, action="pickup", hand=["K"], table=table, pile={"top": "K", "size": 5})["legal"] is True
    assert check(client, action="pickup", hand=["K"], table=table, pile={"top": "K", "size": 1})["legal"] is False


def test_check_going_out_concealed_needs_no_minimum(client):
    # a whole hand melded at once with a canasta, after drawing: no minimum even at 120
    hand = ["5"] * 7 + ["4", "4", "4", "9"]
    position = {"action": "go_out", "hand": hand, "melds": [["5"] * 7, ["4", "4", "4"]], "discard": "9", "score": 3000}
    result = check(client, **position)
    assert result["legal"] is True and result["minimum"] == 120


def test_check_samba_pickup(client):
    samba = {"variant": "samba", "action": "pickup", "table": [["9", "9", "9"]]}
    pile = {"top": "K", "frozen": False, "size": 5}
    # never natural + wild, even unfrozen
    assert check(client, **samba, hand=["K", "2C", "7", "8"], pile=pile)["legal"] is False
    assert check(client, **samba, hand=["K", "K", "7", "8"], pile=pile)["legal"] is True
    # never onto a canasta
    canasta = {**samba, "table": [["K"] * 7]}
    assert check(client, **canasta, hand=["7", "8", "6"], pile=pile)["legal"] is False


# (variant, total reached by side 0 over two hands of 3500 / one hand, minimum)       docs/rules.md "Presets"
FURTHER_STEPS = [
    ("classic-6p-2x3", 150),
    ("samba", 160),
    ("bolivia", 150),
    ("chile", 150),
]


@pytest.mark.parametrize(("variant", "further"), FURTHER_STEPS)
def test_ladders_with_further_steps(client, variant, further):
    if variant.startswith("classic"):
        # 1500 + 300 + 1200 + 100 + 400 = 3500
        big = {"canastas": {"natural": 3, "mixed": 1}, "red_threes": 6, "went_out": True, "melded_points": 400}
    else:
        big = {"canastas": {"sequence": 2}, "went_out": True, "melded_points": 300}  # 3000 + 200 + 300
    rest = {"melded_points": 50, "hand_points": 50}  # 0
    steps = [
        ([[{"hand_points": 5}, rest]], -5, 15),
        ([[{"melded_points": 50, "hand_points": 50}, rest]], 0, 50),
        ([[{"melded_points": 1000, "hand_points": 5}, rest]], 995, 50),
        ([[big, rest]], 3500, 120),
        ([[big, rest], [{**big, "melded_points": big["melded_points"] - 5}, rest]], 6995, 120),
        ([[big, rest], [big, rest]], 7000, further),
    ]
    for hands, total, minimum in steps:
        body = scored(client, variant, hands)
        assert body["totals"][0] == total and body["next_minimums"] == [minimum, 50], (total, body["next_minimums"])


def test_harder_first_meld_in_the_six_player_game(client):
    # README: harder_first_meld replaces the whole ladder: 150 from 3000, no further step
    big = {"canastas": {"natural": 3, "mixed": 1}, "red_threes": 6, "went_out": True, "melded_points": 400}
    options = {"harder_first_meld": True}
    assert scored(client, "classic-6p-2x3", [[big, {}]], options)["next_minimums"] == [150, 90]
    assert scored(client, "classic-6p-2x3", [[big, {}], [big, {}]], options)["next_minimums"] == [150, 90]


def test_hands_after_the_game_are_refused_naming_the_first_extra_hand(client):
    big = {"canastas": {"natural": 3, "mixed": 1}, "red_threes": 4, "went_out": True, "melded_points": 800}  # 3500
    hands = [[big, {}], [big, {}], [{}, {"melded_points": 50}]]
    assert refused(client, "classic", hands) == {"hands[2]"}


def test_settlement_rounds_fifty_away_from_zero(client):
    # 150 -> 200, -50 -> -100: margin 300
    body = scored(client, "classic", [[{"melded_points": 150}, {"hand_points": 50}]], {"target": 100})
    assert body["settlement"]["rounded"] == [200, -100] and body["settlement"]["margin"] == 300
    # three sides: margin is winner minus runner-up, 200 - 100
    body = scored(
        client,
        "classic-6p-3x2",
        [[{"melded_points": 150}, {"melded_points": 60}, {"hand_points": 50}]],
        {"target": 100},
    )
    assert body["settlement"]["rounded"] == [200, 100, -100] and body["settlement"]["margin"] == 100


def test_max_hands_ending_on_a_tie(client):
    body = scored(client, "classic", [[{"melded_points": 150}, {"melded_points": 150}]], {"max_hands": 1})
    assert body["game_over"] is True and body["winner"] is None and body["tie"] is True


TABLE = [["K", "K", "K"]]
CANASTA = [["K"] * 7]
CHECKS = [
    # docs/rules.md "Discards": classic, any card but a red three
    ("classic", {"action": "discard", "hand": ["3H", "9", "8"], "table": TABLE, "discard": "3H"}, False),
    ("classic", {"action": "discard", "hand": ["3S", "9", "8"], "table": TABLE, "discard": "3S"}, True),
    ("classic", {"action": "discard", "hand": ["2C", "9", "8"], "table": TABLE, "discard": "2C"}, True),
    # American: never a three or a wild card except going out; no ace on an empty pile with other naturals
    ("american", {"action": "discard", "hand": ["3S", "9", "8"], "table": TABLE, "discard": "3S"}, False),
    (
        "american",
        {"action": "discard", "hand": ["A", "9", "8"], "table": TABLE, "discard": "A", "pile": {"size": 0}},
        False,
    ),
    (
        "american",
        {"action": "discard", "hand": ["A", "7", "2C"], "table": TABLE, "discard": "A", "pile": {"size": 0}},
        True,
    ),
    (
        "american",
        {"action": "discard", "hand": ["A", "9", "8"], "table": TABLE, "discard": "A", "pile": {"top": "9", "size": 3}},
        True,
    ),
    # going out: American needs a discard, which may be wild
    (
        "american",
        {"action": "go_out", "hand": ["Q", "Q", "Q"], "table": [["K"] * 7, ["J"] * 7], "melds": [["Q", "Q", "Q"]]},
        False,
    ),
    (
        "american",
        {
            "action": "go_out",
            "hand": ["Q", "Q", "Q", "2C"],
            "table": [["K"] * 7, ["J"] * 7],
            "melds": [["Q", "Q", "Q"]],
            "discard": "2C",
        },
        True,
    ),
    # black threes melded only going out, three or four, no wilds
    (
        "classic",
        {
            "action": "go_out",
            "hand": ["3S", "3S", "3C", "9"],
            "table": CANASTA,
            "melds": [["3S", "3S", "3C"]],
            "discard": "9",
        },
        True,
    ),
    (
        "classic",
        {"action": "meld", "hand": ["3S", "3S", "3C", "9", "8", "7"], "table": CANASTA, "melds": [["3S", "3S", "3C"]]},
        False,
    ),
    (
        "classic",
        {
            "action": "go_out",
            "hand": ["3S", "3S", "2C", "9"],
            "table": CANASTA,
            "melds": [["3S", "3S", "2C"]],
            "discard": "9",
        },
        False,
    ),
    # samba sequences: 3-7 of a suit, no wilds, no threes; the top card never starts one
    (
        "samba",
        {
            "action": "meld",
            "hand": ["4H", "5H", "6H", "9", "8", "K"],
            "table": [["9", "9", "9"]],
            "melds": [["4H", "5H", "6H"]],
        },
        True,
    ),
    (
        "samba",
        {
            "action": "meld",
            "hand": ["4H", "5H", "2C", "9", "8", "K"],
            "table": [["9", "9", "9"]],
            "melds": [["4H", "5H", "2C"]],
        },
        False,
    ),
    (
        "samba",
        {
            "action": "meld",
            "hand": ["4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "K", "K"],
            "table": [["9", "9", "9"]],
            "melds": [["4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH"]],
        },
        False,
    ),
    (
        "samba",
        {
            "action": "pickup",
            "hand": ["5H", "6H", "K", "Q"],
            "table": [["9", "9", "9"]],
            "melds": [["4H", "5H", "6H"]],
            "pile": {"top": "4H", "size": 4},
        },
        False,
    ),
    # American melds: no wild cards on sevens, nor on aces after the initial meld; wild meld unfinished
    (
        "american",
        {
            "action": "meld",
            "hand": ["7", "7", "2C", "9", "8", "K"],
            "table": [["Q", "Q", "Q"]],
            "melds": [["7", "7", "2C"]],
        },
        False,
    ),
    (
        "american",
        {
            "action": "meld",
            "hand": ["A", "A", "2C", "9", "8", "Q"],
            "table": [["Q", "Q", "Q"]],
            "melds": [["A", "A", "2C"]],
        },
        False,
    ),
    (
        "american",
        {
            "action": "meld",
            "hand": ["K", "K", "2C", "9", "8", "Q"],
            "table": [["Q", "Q", "Q"], ["2D", "JK", "2H"]],
            "melds": [["K", "K", "2C"]],
        },
        False,
    ),
    # American pickup: onto a meld of 3-4, never of 5+
    (
        "american",
        {"action": "pickup", "hand": ["K", "K", "9", "8"], "table": [["K"] * 4], "pile": {"top": "K", "size": 4}},
        True,
    ),
    (
        "american",
        {"action": "pickup", "hand": ["K", "K", "9", "8"], "table": [["K"] * 5], "pile": {"top": "K", "size": 4}},
        False,
    ),
    # wild-only melds only where wild canastas exist (with no meld of a rank for them to go on:
    # on the side's Q-Q-Q they are three wild cards added to it, issue #31)
    (
        "classic",
        {
            "action": "meld",
            "hand": ["2C", "2D", "JK", "9", "8", "Q"],
            "table": [],
            "initial_meld_done": True,
            "melds": [["2C", "2D", "JK"]],
        },
        False,
    ),
    (
        "classic",
        {
            "options": {"wild_canasta": "1000"},
            "action": "meld",
            "hand": ["2C", "2D", "JK", "9", "8", "Q"],
            "table": [["Q", "Q", "Q"]],
            "melds": [["2C", "2D", "JK"]],
        },
        True,
    ),
    # a canasta needs four naturals; at most three wild cards
    (
        "classic",
        {
            "action": "meld",
            "hand": ["K", "K", "K", "2C", "2D", "JK", "2H", "9", "8"],
            "table": [["Q", "Q", "Q"]],
            "melds": [["K", "K", "K", "2C", "2D", "JK", "2H"]],
        },
        False,
    ),
    # melding down to one card without a canasta would be going out
    ("classic", {"action": "meld", "hand": ["Q", "Q", "Q", "5"], "table": TABLE, "melds": [["Q", "Q", "Q"]]}, False),
    # the top card onto a completed canasta (pickup_onto_canasta), not when frozen, not with the option off
    ("classic", {"action": "pickup", "hand": ["9", "8", "7"], "table": CANASTA, "pile": {"top": "K", "size": 4}}, True),
    (
        "classic",
        {
            "action": "pickup",
            "hand": ["9", "8", "7"],
            "table": CANASTA,
            "pile": {"top": "K", "size": 4, "frozen": True},
        },
        False,
    ),
    (
        "classic",
        {
            "options": {"pickup_onto_canasta": False},
            "action": "pickup",
            "hand": ["9", "8", "7"],
            "table": CANASTA,
            "pile": {"top": "K", "size": 4},
        },
        False,
    ),
]


@pytest.mark.parametrize(("variant", "position", "legal"), CHECKS)
def test_check_rules_of_section_5(client, variant, position, legal):
    assert check(client, variant=variant, **position)["legal"] is legal


def test_check_bonuses_never_count_toward_the_minimum(client):
    # pagat: a canasta of seven fours is worth only its 35 card points as an initial meld
    result = check(client, action="meld", hand=["4"] * 7 + ["9", "8"], melds=[["4"] * 7], score=0)
    assert (result["legal"], result["count"], result["minimum"]) == (False, 35, 50)


def test_a_side_with_nothing_is_a_warning_not_a_refusal(client):
    # docs/rules.md "Impossible hands": warn, without refusing, on a side with no melds and no cards in hand
    body = scored(client, "classic", [[{"melded_points": 100}, {}]])
    assert body["hands"][0]["scores"] == [100, 0]
    (warning,) = body["hands"][0]["warnings"]
    assert warning["field"].endswith("entries[1]")
    # a sentence for the table: "They has ..." is not one
    assert "They" in warning["message"] and "They has" not in warning["message"]


def test_card_notation_is_case_insensitive_with_t_and_star(client):
    # docs/api.md Cards: K and KS are both a king, T is 10, * is a joker, case does not matter
    result = check(
        client,
        action="meld",
        hand=["k", "ks", "Kh", "t", "T", "10d", "*", "jk", "9"],
        table=[["9", "9", "9"]],
        melds=[["k", "ks", "Kh"], ["t", "T", "10d", "*"]],
    )
    assert result["legal"] is True
    # variants with sequences need suits
    samba = {"variant": "samba", "action": "meld", "table": [["9", "9", "9"]], "hand": ["4", "5", "6", "9", "8", "K"]}
    assert check(client, **samba, melds=[["4", "5", "6"]])["legal"] is False


def test_json_endpoints_are_exempt_from_csrf(app):
    # docs/api.md: JSON endpoints take no cookies and need no CSRF token, even with CSRF on
    app.config["WTF_CSRF_ENABLED"] = True
    client = app.test_client()
    response = client.post(
        "/api/v1/score",
        json={"variant": "classic", "hands": [{"entries": [{"melded_points": 100}, {"hand_points": 5}]}]},
    )
    assert response.status_code == 200 and response.get_json()["totals"] == [100, -5]
    response = client.post(
        "/api/v1/check", json={"variant": "classic", "action": "discard", "hand": ["9", "8"], "discard": "9"}
    )
    assert response.status_code == 200
