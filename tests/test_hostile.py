"""Hostile input costs nothing: time and memory in proportion to the request, a 4xx, never a 500.

Each request here is what an attacker, or an unlucky club, sends: thousands of problems,
oversized lists, text no one types (control characters, lone surrogates), nesting thousands
deep, a path with a line break. Memory is measured with tracemalloc (the peak while the request
is answered) on moderate sizes that show how it grows: four times the problems must cost about
four times the memory, never sixteen. Caches that see client text must stay bounded.
"""

from __future__ import annotations

import io
import json
import os
import re
import sqlite3
import time
import tracemalloc
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad import canasta, create_app, limits, store
from scorepad.api import OPENAPI
from scorepad.canasta import InvalidError
from scorepad.canasta.cards import parse_card
from scorepad.canasta.text import unfit_text
from scorepad.db import connect, migrate
from scorepad.documents import MatchInfo, Side
from tests.support import DEFAULTS, add_match
from tests.support import HAND as FORM_HAND

# FORM_HAND as the core reads it: We 620 + natural canasta 500 + going out 100 = 1,220.
FORM_HAND_DICT = {
    "entries": [
        {"melded_points": 620, "canastas": {"natural": 1}, "went_out": True},
        {"melded_points": 260, "hand_points": 95},
    ]
}

# docs/rules.md: a two-deck game holds 4 red threes, so 9 for a side is impossible in any hand.
IMPOSSIBLE_HAND = {"entries": [{"red_threes": 9}, {"red_threes": 9}]}


def measured(action):
    """``action()``'s result, the peak of memory allocated while it ran (bytes), and its CPU seconds.

    The time is taken from a run of its own, untraced (tracemalloc slows Python several times),
    and is this process's CPU time, not the wall clock: the work a request costs, the same on a
    quiet machine and on one busy with other work (the wall clock measured the machine's load).
    """
    started = time.process_time()
    action()
    seconds = time.process_time() - started
    tracemalloc.start()
    try:
        result = action()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return result, peak, seconds


def post_json(client, url, body):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    return client.post(url, data=data, content_type="application/json")


# --- problems are a flat list ----------------------------------------------------------------------
def refused_hands(count):
    with pytest.raises(canasta.InvalidError) as caught:
        canasta.score_match("classic", [IMPOSSIBLE_HAND] * count)
    return caught.value


def test_a_refusal_costs_memory_in_proportion_to_its_problems():
    refused_hands(10)  # warm up: variants, messages
    small_error, small, _ = measured(lambda: refused_hands(500))
    large_error, large, _ = measured(lambda: refused_hands(2000))
    assert len(large_error.violations) == 4 * len(small_error.violations) >= 2000
    # Four times the problems: about four times the memory (nesting each message made it sixteen).
    assert large < 6 * small, (small, large)
    # Worded once each: str() lists every problem once, one a line.
    text = str(large_error)
    assert text.count("\n") == len(large_error.violations) - 1
    assert len(text) < 2 * sum(len(v.message) + len(v.field) + 2 for v in large_error.violations)


@pytest.mark.parametrize(
    ("url", "body_of"),
    [
        ("/api/v1/score", lambda n: {"variant": "classic", "hands": [IMPOSSIBLE_HAND] * n}),
        ("/api/v1/check", lambda n: {"variant": "classic", "action": "meld", "hand": ["ZZ"] * (n // 5)}),
    ],
    ids=["score", "check"],
)
def test_an_api_refusal_grows_linearly_and_stays_a_small_multiple_of_the_body(client, url, body_of):
    post_json(client, url, body_of(10))  # warm up
    peaks = {}
    for count in (250, 1000):
        body = json.dumps(body_of(count)).encode()
        response, peaks[count], seconds = measured(lambda body=body: post_json(client, url, body))
        assert response.status_code == 422
        assert len(response.get_json()["errors"]) >= count // 5
        assert peaks[count] < 100 * len(body) + 1_000_000, (count, peaks[count], len(body))
        assert seconds < 2
    assert peaks[1000] < 6 * peaks[250], peaks


def test_forty_thousand_empty_hands_are_refused_at_once_naming_the_cap(client):
    body = json.dumps({"variant": "classic", "hands": [{}] * 40_000}).encode()  # 160 KB
    response, peak, seconds = measured(lambda: post_json(client, "/api/v1/score", body))
    assert response.status_code == 413
    [error] = response.get_json()["errors"]
    assert error["field"] == "hands" and "1000" in error["message"] and "40000" in error["message"]
    assert seconds < 1.0  # scoring them took 1.5 s
    assert peak < 40 * len(body)


def test_a_real_match_of_a_thousand_hands_is_still_scored(client):
    hand = {"entries": [{"melded_points": 50, "hand_points": 45}, {"melded_points": 50, "hand_points": 40}]}
    body = {"variant": "classic", "options": {"target": 100_000}, "hands": [hand] * 1000}
    response = post_json(client, "/api/v1/score", body)
    # Each hand: We 50 - 45 = 5, They 50 - 40 = 10; after 1000 hands 5000 and 10000, under the target.
    assert response.status_code == 200
    assert response.get_json()["totals"] == [5000, 10000]


# --- every API route, oversized and malformed -------------------------------------------------------
def deep(depth, inner="1"):
    return '{"a": ' * depth + inner + "}" * depth


CHECK = '{"variant": "classic", "action": "meld", "hand": ["K", "K", "K"], '
DEEP_HANDS = '{"variant": "classic", "hands": ' + "[" * 5000 + "]" * 5000 + "}"
MANY_FIELDS = json.dumps({"variant": "classic", "options": {str(i): 1 for i in range(65)}})
MANY_ITEMS = json.dumps({"variant": "classic", "starting_totals": [0] * 1001})
MANY_CARDS = json.dumps({"action": "meld", "hand": ["K"] * 200, "melds": [["Q"] * 21]})
BIG_HAND = json.dumps({"action": "meld", "hand": ["K"] * 221})
MANY_PROBLEMS = json.dumps(
    {"action": "meld", "hand": ["K"], "options": {f"x{i}": "\x01" for i in range(60)}, "melds": [["\x02"] * 100]}
)
HOSTILE = [
    # (name, url, raw body, status, field, words the message must hold)
    ("surrogate value", "/api/v1/check", CHECK + '"discard": "\\ud800"}', 422, "discard", "broken character"),
    ("surrogate in a card", "/api/v1/check", CHECK[:-2] + ', "melds": [["K\\udfff"]]}', 422, "melds[0][0]", "broken"),
    ("surrogate field name", "/api/v1/score", '{"variant": "classic", "\\ud800": 1}', 422, "\\ud800", "broken"),
    ("control character", "/api/v1/score", '{"variant": "classic\\u0000"}', 422, "variant", "control character"),
    ("line break in options", "/api/v1/check", CHECK + '"options": {"a\\nb": 1}}', 422, "options.a\\nb", "control"),
    ("long text", "/api/v1/check", CHECK + '"discard": "' + "K" * 101 + '"}', 413, "discard", "100"),
    ("padded card", "/api/v1/check", CHECK + '"discard": "K' + " " * 300_000 + '"}', 413, "discard", "100"),
    ("options 11 deep", "/api/v1/check", CHECK + '"options": ' + deep(10) + "}", 413, "options.a", "10 deep"),
    ("options 5000 deep", "/api/v1/check", CHECK + '"options": ' + deep(5000) + "}", 413, "", "10 deep"),
    ("hands 5000 deep", "/api/v1/score", DEEP_HANDS, 413, "", "10 deep"),
    ("65 fields", "/api/v1/score", MANY_FIELDS, 413, "options", "64"),
    ("1001 items", "/api/v1/score", MANY_ITEMS, 413, "starting_totals", "1000"),
    ("221 cards", "/api/v1/check", MANY_CARDS, 413, "", "220"),
    ("221 in hand", "/api/v1/check", BIG_HAND, 413, "hand", "220"),
    ("many problems", "/api/v1/check", MANY_PROBLEMS, 422, "", "more problems"),
]


@pytest.mark.parametrize(
    ("url", "body", "status", "field", "words"), [h[1:] for h in HOSTILE], ids=[h[0] for h in HOSTILE]
)
def test_hostile_bodies_get_a_4xx_naming_the_field_at_little_cost(client, url, body, status, field, words):
    data = body.encode()
    response, peak, seconds = measured(lambda: post_json(client, url, data))
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    errors = response.get_json()["errors"]
    assert any(e["field"].startswith(field) and words in e["message"] for e in errors), errors[:3]
    assert len(errors) <= limits.PROBLEMS + 1
    assert seconds < 1.0
    assert peak < 20 * len(data) + 2_000_000, peak
    assert "\ud800" not in response.get_data(as_text=True)  # the answer is valid UTF-8: no lone surrogate


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/matches/%0d%0aX",
        "/api/v1/matches/%ED%A0%80",
        "/api/v1/matches/" + "x" * 20_000,
        "/api/v1/variants?x=%00",
    ],
)
def test_api_addresses_with_hostile_text_get_json_not_a_500(client, path):
    response = client.get(path)
    assert response.status_code in (200, 404) and response.is_json


# --- the pages ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("field", "value", "label"),
    [
        ("side_0", "We\x1bx", "Name"),
        ("side_1_player_0", "Ann\nBob", "Player 1"),
        ("title", "Friday\x00", "Name of the match"),
    ],
)
def test_names_and_titles_with_control_characters_come_back_with_a_message(client, field, value, label):
    response = client.post("/matches/new/classic", data={"side_0": "We", "side_1": "They", **DEFAULTS, field: value})
    assert response.status_code == 200  # the form again, filled in, nothing stored
    page = response.get_data(as_text=True)
    assert re.search(rf'id="{field}-error"><span class="error">{label}[^<]* holds a control character', page)
    assert b"No matches yet" in client.get("/").data


def test_a_broken_utf8_name_is_never_a_500(client):
    response = client.post(
        "/matches/new/classic",
        data="side_0=We%ED%A0%80&side_1=They&option_target=5000&option_canastas_to_go_out=1&option_restore_pile_penalty=0",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code in (200, 303)


@pytest.mark.parametrize("url", ["/check", "/check/verdict"])
@pytest.mark.parametrize(
    "options", [deep(5000), deep(990), '{"target": "\\ud800"}', '{"\\udfff": 1}', '{"a\\u0000": 1}']
)
def test_the_checkers_house_rules_refuse_deep_or_broken_json_with_a_message(client, url, options):
    response, peak, seconds = measured(lambda: client.post(url, data={"options": options, "hand": "K K K"}))
    if len(options) > 16_000:  # some 85 KB as a form: over the form's 64 KB, refused before it is read
        assert response.status_code == 413 and "at most 64 KB" in response.get_data(as_text=True)
    else:
        assert response.status_code == 200
        assert "these are not house rules scorepad can read" in response.get_data(as_text=True)
    assert seconds < 1.0


def test_a_huge_number_box_is_refused_quickly(app, client):
    match_id = add_match(app, [])
    client.get(f"/matches/{match_id}/hands/new")  # the form's templates, compiled once
    body = {"version": "1", "sides-0-melded_points": "9" * 60_000, "sides-1-melded_points": "\x00" * 1000}
    response, peak, seconds = measured(lambda: client.post(f"/matches/{match_id}/hands", data=body))
    assert response.status_code == 200 and seconds < 1.0
    body["sides-0-melded_points"] = "9" * 200_000  # over the form's 64 KB: refused before it is read
    response, peak, seconds = measured(lambda: client.post(f"/matches/{match_id}/hands", data=body))
    assert response.status_code == 413 and seconds < 1.0


@pytest.fixture
def guarded(tmp_path):
    """The app with form tokens checked, as served."""
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.db"), "SECRET_KEY": "test-only"})


@pytest.mark.parametrize("path", ["/matches/%0d%0aX/delete", "/matches/%0aX/hands/undo", "/matches/a%0d%0a/restore"])
def test_a_refused_one_button_form_on_a_path_with_a_line_break_goes_back_quoted(guarded, path):
    response = guarded.test_client().post(path)
    assert response.status_code == 303
    location = response.headers["Location"]
    assert "\r" not in location and "\n" not in location and "%0A" in location.upper()


# --- caches that see client text stay bounded ------------------------------------------------------
def test_reading_padded_cards_keeps_nothing_of_the_text():
    tracemalloc.start()
    try:
        for padding in range(1, 301):
            assert parse_card("K" + " " * (padding * 1000)) == canasta.Card("K")  # 300 KB at the last
        kept = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert kept < 100_000  # the 300 texts (45 MB in all) are not kept
    with pytest.raises(canasta.CardError):
        parse_card("ZZ" + " " * 1000)


def test_long_accept_language_headers_are_answered_in_the_language_they_ask_for(client):
    for i in range(50):
        header = f"es;q=0.{i % 9 + 1}, " + "x-" * 200 + str(i)
        page = client.get("/", headers={"Accept-Language": header}).get_data(as_text=True)
        assert '<html lang="es"' in page


def test_asset_urls_behind_a_proxy_are_not_kept_per_prefix(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "p.db"), "SECRET_KEY": "x", "PROXY_HOPS": 1})
    client = app.test_client()
    client.get("/")
    kept = app.extensions["scorepad.static_files"]
    files = len(kept)
    for i in range(100):
        page = client.get("/", headers={"X-Forwarded-Prefix": f"/club{i}"}).get_data(as_text=True)
        assert f'"/club{i}/static/scorepad.css?v=' in page
    assert len(kept) == files <= 20
    for i in range(20):  # the same file named another way: served, not kept
        client.get("/static/" + "./" * (i + 1) + "scorepad.css?v=1").close()
    assert len(kept) == files


# --- the shared test of text ----------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["Los Pumas", "Zoë & José", "😀 Team", "", "a" * 60, "Ann\u00a0Lee"])
def test_text_a_player_types_is_fit(value):
    assert unfit_text(value, "Name", 60) is None


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("a" * 61, "at most 60 characters long; this one has 61"),
        ("We\nThey", "control character"),
        ("tab\there", "control character"),
        ("nul\x00", "control character"),
        ("c1\x85", "control character"),
        ("del\x7f", "control character"),
        ("half \ud83d", "broken character"),
        ("\udfff", "broken character"),
    ],
)
def test_unfit_text_says_why_naming_the_field_never_echoing_the_text(value, words):
    problem = unfit_text(value, "Side name", 60)
    assert problem.startswith("Side name ") and words in problem
    assert value not in problem
    problem.encode()  # valid UTF-8 whatever it was given


def test_the_openapi_document_states_the_caps():
    schemas = json.loads(OPENAPI.read_text())["components"]["schemas"]
    check = schemas["CheckRequest"]["properties"]
    assert check["hand"]["maxItems"] == check["melds"]["maxItems"] == check["table"]["maxItems"] == limits.CARDS
    assert schemas["Meld"]["maxItems"] == limits.CARDS
    assert schemas["ScoreRequest"]["properties"]["hands"]["maxItems"] == limits.ITEMS
    assert schemas["Card"]["maxLength"] == limits.TEXT


def test_the_card_cap_holds_every_card_a_preset_can_play_with():
    # docs/rules.md: a deck is 52 cards and its jokers; the house rules allow up to 4 decks of 3 jokers.
    assert limits.CARDS == 4 * (52 + 3)
    most = 0
    for variant in canasta.VARIANTS.values():
        decks = variant.option_spec("decks").allowed()["values"] if "decks" in variant.option_ids else [variant.decks]
        jokers = (
            variant.option_spec("jokers_per_deck").allowed()["values"]
            if "jokers_per_deck" in variant.option_ids
            else [2]
        )
        most = max(most, max(decks) * (52 + max(jokers)))
    assert most == limits.CARDS


def test_a_url_root_longer_than_any_real_path_is_refused_before_rendering(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "p.db"), "SECRET_KEY": "x", "PROXY_HOPS": 1})
    client = app.test_client()
    assert client.get("/", headers={"X-Forwarded-Prefix": "/" + "c" * 199}).status_code == 200
    assert client.get("/", headers={"X-Forwarded-Prefix": "/" + "c" * 200}).status_code == 400
    refused = client.get("/api/v1/variants", headers={"X-Forwarded-Prefix": "/" + "c" * 5000})
    assert refused.status_code == 400 and "200 characters" in refused.get_json()["errors"][0]["message"]


# --- the caps, against a plain model of them ----------------------------------------------------------
TEXTS = st.one_of(
    st.text(max_size=5),
    st.sampled_from(["K", "classic", "\ud800", "a\n", "\x85", "x" * 100, "x" * 101]),
)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | TEXTS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXTS, inner, max_size=4),
    max_leaves=30,
)


def nest(value, depth):
    for _ in range(depth):
        value = [value]
    return value


def unfit(text):
    """Text no one types, as docs/api.md says: over 100 characters, a control character or a lone surrogate."""
    return len(text) > 100 or any(unicodedata.category(c) in ("Cc", "Cs") for c in text)


def model_problems(value, where="", depth=0):
    """Where ``value`` breaks a cap of docs/api.md (10 deep, 64 fields, 1,000 items, 100 characters), as paths."""
    if isinstance(value, str):
        return {where} if unfit(value) else set()
    if not isinstance(value, dict | list):
        return set()
    if depth >= 10 or len(value) > (64 if isinstance(value, dict) else 1000):
        return {where}  # nothing inside is looked at
    found = set()
    if isinstance(value, dict):
        for key, item in value.items():
            escaped = ascii(key)[1:-1]  # a name no one types is shown escaped, cut at 40 characters
            shown = key if not unfit(key) else escaped if len(escaped) <= 40 else escaped[:40] + "…"
            inner = f"{where}.{shown}" if where else shown
            found |= ({inner} if unfit(key) else set()) | model_problems(item, inner, depth + 1)
    else:
        for index, item in enumerate(value):
            found |= model_problems(item, f"{where}[{index}]", depth + 1)
    return found


@settings(max_examples=300, deadline=None, database=None)
@given(body=JSON, depth=st.integers(0, 12), wide=st.sampled_from([0, 0, 0, 64, 65, 1000, 1001]))
def test_a_body_is_refused_exactly_where_it_breaks_a_cap(body, depth, wide):
    body = nest(body, depth)
    if wide:
        body = {"a": [0] * wide} if wide > 100 else {str(i): 0 for i in range(wide)}
    expected = model_problems(body)
    try:
        limits.check_json(body)
    except InvalidError as refusal:
        found = {p.field for p in refusal.violations if p.code != "more-problems"}
        assert found == expected
    else:
        assert not expected


# --- kept pages are bounded by size, not only by count ---------------------------------------------------
# We 620 melded + a natural canasta 500 + going out 100 = 1220; They 260 - 95 = 165 (docs/rules.md): four such
# hands leave We at 4880, under the 5000 that ends the match.
HAND = {
    "entries": [
        {"melded_points": 620, "canastas": {"natural": 1}, "went_out": True},
        {"melded_points": 260, "hand_points": 95},
    ]
}


def test_kept_markup_is_bounded_by_the_characters_it_holds(app, client):
    from scorepad.fragments import Fragments

    kept = app.extensions["scorepad.fragments"] = Fragments(budget=6_000)
    ids = [add_match(app, [HAND] * 4, title=f"long {n}") for n in range(6)]  # 6 matches of 4 hands
    for match_id in ids:
        page = client.get(f"/matches/{match_id}").get_data(as_text=True)
        assert "4,880" in page and "660" in page  # the totals: 4 x 1220 and 4 x 165
        assert kept.size <= 6_000
    assert 0 < len(kept) < 6 * 2, "the oldest pieces made room"


def test_a_piece_larger_than_the_cache_is_drawn_and_not_kept(app, client):
    import gzip

    from scorepad.fragments import Fragments

    kept = app.extensions["scorepad.fragments"] = Fragments(budget=300)  # every hand-rows piece is larger
    match_id = add_match(app, [HAND] * 3)
    plain = client.get(f"/matches/{match_id}").get_data()
    zipped = client.get(f"/matches/{match_id}", headers={"Accept-Encoding": "gzip"})
    assert gzip.decompress(zipped.get_data()).count(b"<tr") == plain.count(b"<tr") > 3
    assert kept.size <= 300


# --- issue 34: the 500s and costs found by the second attack ------------------------------------


@pytest.fixture
def quiet_app(make_app):
    """An app whose errors become answers (as a real server's), so a 500 is seen as one."""
    return make_app(TESTING=False, PROPAGATE_EXCEPTIONS=False)


@pytest.mark.parametrize("target", ["/%0d%0aSet-Cookie:x=1", "/a%0ab", "/%0d", "/x%7f", "/%00"])
def test_the_language_switch_never_puts_a_line_break_in_a_header(quiet_app, target):
    """On main: 500 (Werkzeug refuses a Location with a newline), 52 times in the attack."""
    response = quiet_app.test_client().get(f"/language/es?next={target}")
    assert response.status_code == 303 and response.headers["Location"] == "/"
    assert "x=1" not in response.headers.get("Set-Cookie", "")


def test_a_submission_key_used_in_another_match_saves_the_hand_without_it(quiet_app):
    """On main: 500 (UNIQUE constraint failed: hand_revisions.submission)."""
    client = quiet_app.test_client()
    first, second = add_match(quiet_app, []), add_match(quiet_app, [])
    hand = {**FORM_HAND, "version": "1", "submission": "key-from-one-form"}
    assert client.post(f"/matches/{first}/hands", data=hand).status_code == 303
    assert client.post(f"/matches/{second}/hands", data=hand).status_code == 303
    sheet = client.get(f"/matches/{second}").get_data(as_text=True)
    assert "1,220" in sheet  # We 620 + natural canasta 500 + going out 100
    again = client.post(f"/matches/{first}/hands", data={**hand, "version": "2"})
    assert again.status_code == 303, "the key still recognises its own match's hand sent again"
    db = connect(quiet_app.config["DATABASE"])
    try:
        assert store.match_head(db, first).summary.played == 1 and store.match_head(db, second).summary.played == 1
    finally:
        db.close()


def test_a_full_disk_says_the_hand_was_not_saved_and_why(quiet_app, monkeypatch):
    """On main: Flask's bare 500 page (nothing was lost, but nobody was told)."""
    client = quiet_app.test_client()
    match_id = add_match(quiet_app, [])

    def full(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(store, "add_hand", full)
    response = client.post(f"/matches/{match_id}/hands", data={**FORM_HAND, "version": "1"})
    page = response.get_data(as_text=True)
    assert response.status_code == 503
    assert "The hand was not saved. The server&#39;s disk is full." in page and "free some disk space" in page
    monkeypatch.undo()
    assert "1,220" not in client.get(f"/matches/{match_id}").get_data(as_text=True)
    api = quiet_app.test_client().post("/api/v1/matches", json={"variant": "classic"})
    assert api.status_code != 500


def test_a_form_box_of_250_kb_is_refused_before_it_is_read(quiet_app):
    """On main a 250 KB box was read, checked and echoed back: ~50 MB on a real server."""
    client = quiet_app.test_client()
    data = {"side_0": "x" * 250_000, "side_1": "They", **DEFAULTS}
    response, peak, _ = measured(lambda: client.post("/matches/new/classic", data=data))
    assert response.status_code == 413 and peak < 1_500_000, peak
    normal = client.post("/matches/new/classic", data={"side_0": "é" * 60, "side_1": "They", **DEFAULTS})
    assert normal.status_code == 303, "the longest real box still fits"


def test_a_killed_imports_hidden_rows_are_removed_at_the_next_start(tmp_path):
    """On main they stayed for a day (25 MB after three kills in the attack)."""
    import subprocess
    import sys

    database = str(tmp_path / "killed.db")
    migrate(database)
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(ended.stdout)
    match = canasta.score_match("classic", [FORM_HAND_DICT])
    db = connect(database)
    try:
        killed = f"{store.now()} {dead_pid} {store.new_token()}"
        running = f"{store.now()} {os.getppid()} {store.new_token()}"  # a process that is still alive
        store.save_imported_match(db, match, MatchInfo("a" * 32, (Side("We"), Side("They"))), pending=killed)
        store.save_imported_match(db, match, MatchInfo("b" * 32, (Side("We"), Side("They"))), pending=running)
    finally:
        db.close()
    migrate(database)  # the next start
    db = connect(database)
    try:
        left = [row[0] for row in db.execute("select id from matches")]
        hands = db.execute("select count(*) from hands").fetchone()[0]
    finally:
        db.close()
    assert left == ["b" * 32] and hands == 1, "the killed import's match and hand are gone; the live one's stay"


def test_one_web_import_at_a_time_per_process(quiet_app, monkeypatch):
    """On main three 16 MB imports at once took 1.2 GB: now a second is asked to wait."""
    from scorepad import exports

    assert exports._ONE_IMPORT.acquire(blocking=False)
    try:
        upload = {"file": (io.BytesIO(b"{}"), "backup.json")}
        response = quiet_app.test_client().post("/import", data=upload, content_type="multipart/form-data")
    finally:
        exports._ONE_IMPORT.release()
    assert response.status_code == 200 and "Another file is being imported" in response.get_data(as_text=True)
    upload = {"file": (io.BytesIO(b"{}"), "backup.json")}
    response = quiet_app.test_client().post("/import", data=upload, content_type="multipart/form-data")
    assert "Another file" not in response.get_data(as_text=True), "and the next is read once it is done"
