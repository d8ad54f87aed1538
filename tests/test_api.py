"""The JSON API (docs/api.md): variants, scoring, and errors that are never a 500.

Expected numbers are worked by hand from docs/rules.md; each case says which rule it pins.
"""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


@pytest.fixture(scope="module")
def app(module_app):
    """These tests only score (stateless): one app for all."""
    return module_app


PRESETS = {
    # id: (players, sides, target) -- docs/rules.md "Presets"
    "classic": (4, 2, 5000),
    "classic-2p": (2, 2, 5000),
    "classic-3p": (3, 3, 7500),
    "classic-5p": (5, 2, 5000),
    "classic-6p-3x2": (6, 3, 7500),
    "classic-6p-2x3": (6, 2, 10000),
    "american": (4, 2, 8500),
    "samba": (4, 2, 10000),
    "bolivia": (4, 2, 15000),
    "chile": (4, 2, 15000),
}


def score(client, hands, variant="classic", **extra):
    return client.post("/api/v1/score", json={"variant": variant, "hands": hands, **extra})


def errors_of(response):
    assert response.status_code == 422, response.get_json()
    return {error["field"]: error["message"] for error in response.get_json()["errors"]}


# --- GET /api/v1/variants ---------------------------------------------------------------------
def test_variants_lists_every_preset_with_players_sides_and_target(client):
    listed = {v["id"]: v for v in client.get("/api/v1/variants").get_json()["variants"]}
    assert set(PRESETS) <= set(listed)
    for key, (players, sides, target) in PRESETS.items():
        assert (listed[key]["players"], listed[key]["sides"], listed[key]["target"]) == (players, sides, target)
        assert listed[key]["name"]


def test_variants_list_options_with_label_default_and_allowed_values(client):
    classic = next(v for v in client.get("/api/v1/variants").get_json()["variants"] if v["id"] == "classic")
    options = {option["id"]: option for option in classic["options"]}
    # docs/rules.md "House rules": every option id, with the classic defaults
    assert options["target"]["default"] == 5000
    assert options["decks"]["allowed"]["values"] == [2, 3, 4]
    assert options["max_wilds"]["default"] == 3
    assert options["pickup_with_wild"]["default"] is True
    assert options["wild_canasta"]["allowed"]["values"] == ["none", "1000", "2000", "palace"]
    assert options["max_hands"]["default"] is None
    assert all(option["label"] for option in options.values())


def test_american_lists_its_canasta_kinds_and_special_hands(client):
    american = next(v for v in client.get("/api/v1/variants").get_json()["variants"] if v["id"] == "american")
    # docs/rules.md "Presets": canasta bonuses and special hands
    assert american["canastas"] == {
        "natural": 500, "mixed": 300, "sevens": 2500, "aces": 2500, "wild": 2000, "jokers": 2500, "twos": 3000,
    }  # fmt: skip
    assert american["special_hands"] == {"straight": 3000, "pairs": 2500, "pairs_wild": 2000, "garbage": 2000}


# --- POST /api/v1/score -----------------------------------------------------------------------
def test_scores_the_spec_example_hand(client):
    # We: natural 500 + mixed 300 + going out 100 + one red three 100 (melded) + 520 melded = 1520.
    # They: 260 melded - 95 in hand = 165. Next minimums: 1520 -> 90, 165 -> 50 (docs/rules.md "Presets").
    we = {"melded_points": 520, "canastas": {"natural": 1, "mixed": 1}, "red_threes": 1, "went_out": True}
    they = {"melded_points": 260, "hand_points": 95}
    body = score(client, [{"entries": [we, they]}]).get_json()
    assert body["variant"] == "classic"
    assert body["hands"][0]["scores"] == [1520, 165]
    assert body["hands"][0]["totals"] == [1520, 165]
    assert body["totals"] == [1520, 165]
    assert body["next_minimums"] == [90, 50]
    assert body["game_over"] is False and body["winner"] is None


def test_breakdown_parts_are_labelled_and_add_up(client):
    we = {"melded_points": 520, "canastas": {"natural": 1, "mixed": 1}, "red_threes": 1, "went_out": True}
    body = score(client, [{"entries": [we, {"melded_points": 260, "hand_points": 95}]}]).get_json()
    for side, expected in zip(body["hands"][0]["breakdown"], (1520, 165), strict=True):
        assert side["score"] == expected
        assert sum(part["points"] for part in side["parts"]) == expected
        assert all(part["label"] and part["id"] for part in side["parts"])


def test_card_counts_are_valued_by_the_server(client):
    # docs/api.md example: a joker 50 + three aces 60 + seven kings 70 = 180 melded; a natural canasta
    # of kings is 500 more; 180 + 500 = 680 (no going out).
    entry = {"melded_cards": {"joker": 1, "A": 3, "K": 7}, "canastas": {"natural": 1}}
    body = score(client, [{"entries": [entry, {"hand_cards": {"black3": 1, "4": 2}}]}]).get_json()
    assert body["hands"][0]["scores"] == [680, -15]


def test_game_ends_at_the_target_with_the_final_hand_scored_whole(client):
    # Bicycle: the final deal is played out; 4900 + 620 = 5520 ends the game, They 4300 + 900 = 5200.
    start = {"starting_totals": [4900, 4300]}
    we = {"melded_points": 20, "canastas": {}, "hand_points": 0}
    hands = [{"entries": [{"melded_points": 120, "canastas": {"natural": 1}, "went_out": True}, we]}]
    body = score(client, hands, **start).get_json()
    # We: 500 + 100 + 120 = 720 -> 5620; They: 20 -> 4320.
    assert body["totals"] == [5620, 4320]
    assert body["game_over"] is True and body["winner"] == 0
    # Bicycle settlement: 5620 -> 5600, 4320 -> 4300, margin 1300.
    assert body["settlement"]["rounded"] == [5600, 4300]
    assert body["settlement"]["margin"] == 1300


def test_tie_at_the_top_has_no_winner(client):
    hands = [{"entries": [{"melded_points": 50}, {"melded_points": 50}]}]
    body = score(client, hands, options={"max_hands": 1}).get_json()
    assert body["game_over"] is True
    assert body["winner"] is None and body["tie"] is True


def test_hands_after_the_game_is_over_are_refused(client):
    hands = [{"entries": [{"melded_points": 50}, {"melded_points": 45}]}] * 2
    errors = errors_of(score(client, hands, options={"max_hands": 1}))
    assert "hands[1]" in errors


def test_three_player_partnership_pools_melds_and_keeps_own_red_threes(client):
    # pagat "Canasta for three players": partners 1 and 2 pool 300 + 220 melded, a natural canasta,
    # going out: 500 + 100 + 520 = 1120 each, plus their own red threes (player 2 has one: +100).
    hands = [
        {
            "partnership": [1, 2],
            "entries": [
                {"melded_points": 150, "hand_points": 40},
                {"melded_points": 300, "canastas": {"natural": 1}, "went_out": True},
                {"melded_points": 220, "hand_points": 30, "red_threes": 1},
            ],
        }
    ]
    body = score(client, hands, variant="classic-3p").get_json()
    # Partners pool hand cards too: 1120 - 30 = 1090; player 2 adds +100 for a red three.
    assert body["hands"][0]["scores"] == [110, 1090, 1190]


# --- errors ------------------------------------------------------------------------------------
def test_malformed_json_is_a_400_with_the_errors_shape(client):
    response = client.post("/api/v1/score", data="{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["field"] == ""


@pytest.mark.parametrize(
    ("entries", "field"),
    [
        # docs/api.md example: 5 red threes across both sides in a 2-deck game
        ([{"red_threes": 3}, {"red_threes": 2}], "hands[0].entries[1].red_threes"),
        ([{"hand_points": -5}, {}], "hands[0].entries[0].hand_points"),
        ([{"melded_points": 52}, {}], "hands[0].entries[0].melded_points"),
        ([{"concealed": True, "melded_points": 50}, {}], "hands[0].entries[0].concealed"),
        ([{"melded_points": 100, "went_out": True}, {}], "hands[0].entries[0].went_out"),
        ([{"canastas": {"sevens": 1}, "melded_points": 100}, {}], "hands[0].entries[0].canastas.sevens"),
        ([{"special_hand": "straight"}, {}], "hands[0].entries[0].special_hand"),
        ([{"melded_points": 100, "melded_cards": {"K": 10}}, {}], "hands[0].entries[0].melded_cards"),
        ([{"melded_points": 30, "canastas": {"natural": 1}}, {}], "hands[0].entries[0].melded_points"),
    ],
)
def test_impossible_entries_are_422_naming_the_field(client, entries, field):
    errors = errors_of(score(client, [{"entries": entries}]))
    assert field in errors
    assert errors[field].endswith(".")


def test_two_sides_going_out_is_refused(client):
    side = {"melded_points": 200, "canastas": {"mixed": 1}, "went_out": True}
    errors = errors_of(score(client, [{"entries": [side, side]}]))
    assert "hands[0].entries[1].went_out" in errors


def test_every_problem_is_reported_at_once(client):
    entries = [{"hand_points": -5, "red_threes": 9}, {"melded_points": 7}]
    errors = errors_of(score(client, [{"entries": entries}]))
    assert {"hands[0].entries[0].hand_points", "hands[0].entries[1].melded_points"} <= set(errors)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"variant": "rummy", "hands": []}, "variant"),
        ({"variant": "classic", "options": {"jokers": 3}, "hands": []}, "options.jokers"),
        ({"variant": "classic", "options": {"decks": 5}, "hands": []}, "options.decks"),
        ({"variant": "classic", "options": {"target": "lots"}, "hands": []}, "options.target"),
        ({"variant": "american", "options": {"sequences": True}, "hands": []}, "options.sequences"),
        ({"variant": "classic", "hands": {}}, "hands"),
        ({"hands": []}, "variant"),
        ([1, 2], ""),
    ],
)
def test_bad_requests_are_422_naming_the_field(client, body, field):
    errors = errors_of(client.post("/api/v1/score", json=body))
    assert field in errors


def test_options_change_the_score(client):
    # Hoyle program: a wild-card canasta is worth 1000 with wild_canasta "1000".
    # 1000 + 7 twos (140 melded) = 1140.
    entry = {"melded_points": 140, "canastas": {"wild": 1}}
    body = score(client, [{"entries": [entry, {}]}], options={"wild_canasta": "1000"}).get_json()
    assert body["hands"][0]["scores"][0] == 1140


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4),
    max_leaves=20,
)
entry_like = st.dictionaries(
    st.sampled_from(
        ["melded_points", "hand_points", "canastas", "red_threes", "went_out", "concealed", "special_hand",
         "melded_cards", "hand_cards", "incomplete", "held_sets", "black_threes", "partnership", "x"]
    ),
    json_values,
    max_size=6,
)  # fmt: skip


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    variant=st.sampled_from([*PRESETS, "nope", 3]),
    hands=st.lists(st.fixed_dictionaries({"entries": st.lists(entry_like, max_size=4)}), max_size=3) | json_values,
    options=st.none() | json_values,
)
def test_no_json_body_ever_gives_a_500(client, variant, hands, options):
    body = {"variant": variant, "hands": hands}
    if options is not None:
        body["options"] = options
    response = client.post("/api/v1/score", data=json.dumps(body), content_type="application/json")
    assert response.status_code in (200, 422), response.get_data(as_text=True)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=64))
def test_no_byte_string_ever_gives_a_500(client, raw):
    response = client.post("/api/v1/score", data=raw, content_type="application/json")
    assert response.status_code in (400, 422)


def test_warnings_point_at_their_entry_with_an_absolute_path(client):
    # docs/rules.md "Impossible hands": a side with no melds and no cards in hand is warned about, not refused;
    # the warning's field is a path like the errors' (hands[i]...), here the second hand's They.
    hands = [{"entries": [{"melded_points": 100}, {"melded_points": 50}]}, {"entries": [{"melded_points": 100}, {}]}]
    body = score(client, hands).get_json()
    assert "warnings" not in body["hands"][0]
    assert [w["field"] for w in body["hands"][1]["warnings"]] == ["hands[1].entries[1]"]


def test_counted_cards_beyond_the_decks_are_named_as_players_say_them(client):
    # docs/rules.md "Cards": two decks hold 8 of each rank; 5 + 4 kings counted is one too many.
    entries = [{"melded_cards": {"K": 5}}, {"hand_cards": {"K": 4}}]
    errors = errors_of(score(client, [{"entries": entries}]))
    assert errors["hands[0].entries[1].hand_cards.K"] == "2 decks hold 8 kings; 9 were counted across both sides."


def test_counts_by_the_counters_groups_are_scored_as_groups(client):
    # Issue 20: 1 joker, 2 twos, 5 cards K-8, 6 cards 7-4 melded = 50 + 40 + 50 + 30 = 170; They
    # hold an ace, 3 cards K-8 and 3 cards 7-4 = 20 + 30 + 15 = 65. 8 + 9 cards of the groups'
    # 48 and 32, never 9 "sevens" of 8.
    entries = [{"melded_cards": {"joker": 1, "2": 2, "K-8": 5, "7-4": 6}}, {"hand_cards": {"A": 1, "K-8": 3, "7-4": 3}}]
    body = score(client, [{"entries": entries}]).get_json()
    assert body["hands"][0]["scores"] == [170, -65]
    entries = [{"melded_cards": {"K-8": 40}}, {"hand_cards": {"K-8": 9}}]
    errors = errors_of(score(client, [{"entries": entries}]))
    assert errors["hands[0].entries[1].hand_cards.K-8"] == (
        "2 decks hold 48 cards from king to eight; 49 were counted across both sides."
    )


def test_a_bad_count_names_its_card_class_as_the_api_writes_it(client):
    # The message names the box as the request did ("K-8", "A"), not "k-8" or "a".
    entries = [{"melded_cards": {"K-8": -1, "A": "three"}}, {}]
    errors = errors_of(score(client, [{"entries": entries}]))
    assert errors["hands[0].entries[0].melded_cards.K-8"] == "Melded cards.K-8 cannot be negative."
    assert errors["hands[0].entries[0].melded_cards.A"] == "Melded cards.A is a whole number."


# --- how answers are written and bodies read ----------------------------------------------------
def test_answers_are_compact_json_with_sorted_keys(client):
    # docs/rules.md: melded cards count for a side, cards left in hand against it: We 120 - 30, They 90 - 40.
    hand = {"entries": [{"melded_points": 120, "hand_points": 30}, {"melded_points": 90, "hand_points": 40}]}
    response = score(client, [hand])
    text = response.get_data(as_text=True)
    document = json.loads(text)
    assert document["totals"] == [90, 50]
    assert text == json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"
    assert response.mimetype == "application/json"


def test_answers_are_written_by_orjson_even_with_the_language_layer(app, client, monkeypatch):
    # i18n's provider renders core messages; the API's (orjson) builds on it and must stay the app's.
    from scorepad import api

    assert isinstance(app.json, api.JSONProvider)
    written = []
    real = api.orjson.dumps
    monkeypatch.setattr(api.orjson, "dumps", lambda *a, **k: written.append(1) or real(*a, **k))
    hand = {"entries": [{"melded_points": 120, "hand_points": 30}, {"melded_points": 90, "hand_points": 40}]}
    assert score(client, [hand]).get_json()["totals"] == [90, 50]
    assert written == [1]


def test_a_body_only_the_standard_library_reads_is_still_read(client):
    # NaN is not JSON, but Python's reader has always taken it: the answer is about the field, not a 400.
    body = '{"variant": "classic", "hands": [], "extra": NaN}'
    response = client.post("/api/v1/score", data=body, content_type="application/json")
    assert errors_of(response) == {"extra": "'extra' is not a field of a score request."}


def test_a_body_that_is_not_json_is_a_400_naming_the_place(client):
    response = client.post("/api/v1/score", data='{"variant": ', content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["message"].startswith("The body is not valid JSON: Expecting value")
