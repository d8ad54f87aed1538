"""The "Can I?" pages: plain form posts work without JavaScript, the htmx route answers the board."""

import re

import pytest


def hidden(html, name):
    match = re.search(rf'name="{name}" value="([^"]*)"', html)
    return match.group(1) if match else None


def test_the_page_opens_with_a_prompt(client):
    response = client.get("/check")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "<html" in html and "Can I?" in html
    assert "Tap the cards in your hand." in html
    assert "<script>" not in html


def test_each_tap_adds_a_card_without_javascript(client):
    html = client.post("/check", data={"op": "add:K", "hand": "K Q"}).get_data(as_text=True)
    assert hidden(html, "hand") == "K Q K"


def test_a_new_meld_and_removing_cards(client):
    html = client.post("/check", data={"op": "new:melds", "melds": "K K K"}).get_data(as_text=True)
    assert hidden(html, "melds") == "K K K|" and hidden(html, "target") == "melds"
    html = client.post("/check", data={"op": "remove:melds:0:1", "melds": "K Q K"}).get_data(as_text=True)
    assert hidden(html, "melds") == "K K"
    html = client.post("/check", data={"op": "remove:hand:0", "hand": "K Q"}).get_data(as_text=True)
    assert hidden(html, "hand") == "Q"


def test_the_pagat_example_by_taps(client):
    data = {"action": "pickup", "hand": "K K Q Q 2C", "target": "top", "score": "0"}
    html = client.post("/check", data={**data, "op": "add:K"}).get_data(as_text=True)
    assert hidden(html, "top") == "K"
    assert "Yes" in html and "K-K-K; Q-Q-2C" in html
    html = client.post("/check", data={**data, "top": "K", "score": "1500", "op": "check"}).get_data(as_text=True)
    assert 'class="answer">No<' in html
    assert "needs 90" in html


def test_melds_on_the_page_get_the_top_card_by_themselves(client):
    data = {"action": "pickup", "hand": "K K Q Q 2C", "top": "K", "melds": "K K|Q Q 2C", "op": "check"}
    html = client.post("/check", data=data).get_data(as_text=True)
    assert 'class="answer">Yes<' in html and "counts 70" in html


def test_bad_input_names_the_field_and_keeps_the_form(client):
    data = {"action": "meld", "hand": "K K", "melds": "K K K", "op": "check"}
    response = client.post("/check", data=data)
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "<b>Melds:</b>" in html
    assert hidden(html, "hand") == "K K" and hidden(html, "melds") == "K K K"


def test_the_fragment_route_answers_the_board_only(client):
    response = client.post("/check/verdict", data={"op": "add:K", "hand": "K K", "action": "meld", "melds": "K K"})
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "<html" not in html and 'id="board"' in html
    assert hidden(html, "hand") == "K K K"


def test_htmx_attributes_sit_on_the_requesting_elements(client):
    html = client.get("/check").get_data(as_text=True)
    buttons = re.findall(r"<button[^>]*>", html)
    assert buttons
    for button in buttons:
        if 'value="check"' in button:
            continue
        for attribute in ('hx-post="/check/verdict"', 'hx-target="#board"', 'hx-swap="outerHTML"', "hx-include"):
            assert attribute in button


def test_variant_and_score_from_the_query(client):
    html = client.get("/check?variant=american&score=3200").get_data(as_text=True)
    assert 'value="american" selected' in html
    assert 'name="score" value="3200"' in html and "needs 155" in html  # any total, typed


def test_sequences_bring_the_suit_buttons(client):
    assert "Suit: hearts" in client.get("/check?variant=samba").get_data(as_text=True)
    assert "Suit: hearts" not in client.get("/check?variant=classic").get_data(as_text=True)
    html = client.post("/check", data={"variant": "samba", "suit": "H", "op": "add:5"}).get_data(as_text=True)
    assert hidden(html, "hand") == "5H"


def test_house_rules_from_a_link(client):
    html = client.get('/check?variant=classic&options={"pickup_with_wild":false}').get_data(as_text=True)
    data = {
        "variant": "classic",
        "options": '{"pickup_with_wild": false}',
        "action": "pickup",
        "hand": "K 2C Q",
        "table": "9 9 9",
        "top": "K",
        "op": "check",
    }
    assert "pickup_with_wild" in html
    assert "do not take the pile at your table" in client.post("/check", data=data).get_data(as_text=True)


@pytest.mark.parametrize("variant", ["nope", "", "classic\x00"])
def test_an_unknown_variant_is_said_not_crashed(client, variant):
    response = client.get("/check", query_string={"variant": variant, "hand": "K"})
    assert response.status_code == 200


def test_nonsense_form_values_never_crash(client):
    data = {"hand": "ZZ 3 K", "melds": "|||", "table": "Q|Q", "score": "x", "side": "-9", "op": "remove:melds:a:b"}
    assert client.post("/check", data=data).status_code == 200
    assert client.post("/check", data={"op": "add:" + "K" * 5000}).status_code == 200


def test_a_stored_match_supplies_rules_and_total(app, client):
    from scorepad import canasta, store
    from scorepad.db import get_db
    from scorepad.documents import Side

    with app.app_context():
        rules = canasta.rules_for("classic", {"pickup_with_wild": False})
        match_id = store.create_match(get_db(), rules, [Side("Anna"), Side("Ben")], starting_totals=[0, 1600])
    html = client.get(f"/check?match={match_id}&side=1").get_data(as_text=True)
    assert "Back to the match" in html and f"/matches/{match_id}" in html
    assert "Ben: 1,600" in html and "to open: <b>90</b>" in html
    data = {"match": match_id, "side": "1", "action": "pickup", "hand": "K 2C Q", "table": "9 9 9", "top": "K"}
    html = client.post("/check", data={**data, "op": "check"}).get_data(as_text=True)
    assert "do not take the pile at your table" in html


def test_an_unknown_match_falls_back_to_the_plain_page(client):
    response = client.get("/check?match=does-not-exist&side=1")
    assert response.status_code == 200
    assert "Back to the match" not in response.get_data(as_text=True)


def test_the_checker_stores_nothing_so_it_needs_no_token(make_app):
    """With CSRF on, a tap from a page open for hours (or another browser) still gets its verdict."""
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    html = client.get("/check").get_data(as_text=True)
    assert 'name="csrf_token"' not in html
    for url in ("/check", "/check/verdict"):
        response = client.post(url, data={"op": "add:K"})
        assert response.status_code == 200
        assert hidden(response.get_data(as_text=True), "hand") == "K"


# --- house rules on the standalone page, and "I took the pile this turn" --------------------
# Classic defaults drawn as the page draws them: the checkboxes that are on, the selects' values.
CLASSIC_RULES = {
    "house_rules_for": "classic",
    "opt.wilds_not_more_than_naturals": "1",
    "opt.pickup_with_wild": "1",
    "opt.pickup_onto_canasta": "1",
    "opt.top_counts_for_minimum": "1",
    "opt.max_wilds": "3",
    "opt.wild_canasta": "none",
    "opt.canastas_to_go_out": "1",
    "opt.decks": "2",
    "opt.jokers_per_deck": "2",
}
# docs/rules.md "Taking the pile": with melds on the table the pile is not frozen, so one natural king and a
# joker take a king, unless the table plays pickup_with_wild off or the pile always frozen.
KING_AND_JOKER = {"action": "pickup", "hand": "K JK Q", "table": "9 9 9", "top": "K", "op": "check"}


def answer_of(html):
    return re.search(r'class="answer">(\w+)<', html).group(1)


def test_the_standalone_page_lists_the_play_changing_house_rules(client):
    html = client.get("/check").get_data(as_text=True)
    assert "<summary>House rules</summary>" in html
    assert 'name="opt.pickup_with_wild" value="1" checked' in html
    assert 'name="opt.pile_always_frozen" value="1" aria' in html  # off by default
    assert '<option value="3" selected>3</option>' in html  # max_wilds
    assert "An unfrozen pile may be taken with one natural card and one wild card." in html
    assert "opt.target" not in html and "opt.restore_pile_penalty" not in html  # scoring only
    samba = client.get("/check?variant=samba").get_data(as_text=True)
    assert "opt.pile_always_frozen" in samba and "opt.pickup_with_wild" not in samba
    american = client.get("/check?variant=american").get_data(as_text=True)
    assert re.findall(r'name="opt\.(\w+)"', american) == ["canastas_to_go_out"]


def test_a_house_rule_whose_values_are_codes_offers_them_in_words(client):
    html = client.get("/check").get_data(as_text=True)
    options = re.search(r'<select id="opt-wild_canasta"[^>]*>(.*?)</select>', html, re.S)[1]
    assert re.findall(r'<option value="([^"]+)"[^>]*>([^<]+)<', options) == [
        ("none", "No wild canastas"),
        ("1000", "A wild-card canasta is worth 1000"),
        ("2000", "A wild-card canasta is worth 2000"),
        ("palace", "Palace: big wild canasta 2000, small 1000"),
    ]
    spanish = client.get("/check", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert '<option value="none" selected>Sin canastas de comodines</option>' in spanish
    # The value sent is still the code, and it changes the rule.
    data = {**CLASSIC_RULES, "opt.wild_canasta": "palace", "op": "check"}
    assert '<option value="palace" selected>' in client.post("/check", data=data).get_data(as_text=True)


def test_pickup_with_wild_off_refuses_a_king_and_a_joker(client):
    assert answer_of(client.post("/check", data={**CLASSIC_RULES, **KING_AND_JOKER}).get_data(as_text=True)) == "Yes"
    rules = {key: value for key, value in CLASSIC_RULES.items() if key != "opt.pickup_with_wild"}
    html = client.post("/check", data={**rules, **KING_AND_JOKER}).get_data(as_text=True)
    assert answer_of(html) == "No" and "do not take the pile at your table" in html
    assert 'name="opt.pickup_with_wild" value="1" aria' in html  # the box stays off on the next tap
    assert '<details class="house-rules" open>' in html  # a changed rule is in view


def test_pile_always_frozen_needs_a_natural_pair(client):
    data = {**CLASSIC_RULES, **KING_AND_JOKER, "opt.pile_always_frozen": "1"}
    html = client.post("/check", data=data).get_data(as_text=True)
    assert answer_of(html) == "No" and "your table plays it always frozen" in html
    data["hand"] = "K K Q"
    assert answer_of(client.post("/check", data=data).get_data(as_text=True)) == "Yes"


def test_changing_variant_starts_from_its_own_house_rules(client):
    data = {**CLASSIC_RULES, "variant": "samba", "opt.max_wilds": "3", "opt.pickup_with_wild": "1"}
    html = client.post("/check", data=data).get_data(as_text=True)
    assert "House rules:" not in html
    assert '<option value="2" selected>2</option>' in html  # Samba's max_wilds


def test_a_bad_house_rule_value_comes_back_with_its_message(client):
    html = client.post("/check", data={**CLASSIC_RULES, **KING_AND_JOKER, "opt.max_wilds": "5"}).get_data(as_text=True)
    message = "Wild cards per meld is 2 or 3 here, not 5."
    assert f'<p class="error" id="error-max_wilds">{message}</p>' in html
    assert f"House rules: {message}" in html
    assert '<details class="house-rules" open>' in html
    html = client.post("/check", data={**CLASSIC_RULES, "opt.tough_end": "maybe"}).get_data(as_text=True)
    assert 'id="error-tough_end">Tough end is true or false' in html


def test_a_matchs_house_rules_are_shown_and_not_editable(app, client):
    from scorepad import canasta, store
    from scorepad.db import get_db
    from scorepad.documents import Side

    with app.app_context():
        rules = canasta.rules_for("classic", {"pickup_with_wild": False, "max_wilds": 2, "wild_canasta": "palace"})
        match_id = store.create_match(get_db(), rules, [Side("Anna"), Side("Ben")])
    html = client.get(f"/check?match={match_id}&side=0").get_data(as_text=True)
    assert "(this match's)" in html
    assert "<dt>Take the pile with one natural and a wild</dt><dd>No</dd>" in html
    assert "<dt>Wild cards per meld</dt><dd>2</dd>" in html
    assert "<dt>Wild canastas</dt><dd>Palace: big wild canasta 2000, small 1000</dd>" in html  # words, not "palace"
    assert 'name="opt.' not in html and 'name="house_rules_for"' not in html
    # posted controls cannot change a match's rules
    data = {"match": match_id, "side": "0", **CLASSIC_RULES, "opt.pickup_with_wild": "1", **KING_AND_JOKER}
    assert "do not take the pile at your table" in client.post("/check", data=data).get_data(as_text=True)


def test_took_pile_removes_the_one_turn_exemption_from_the_minimum(client):
    # docs/rules.md "The initial meld": going out concealed from the stock needs no minimum; seven fours count 35.
    data = {"action": "go_out", "hand": "4 4 4 4 4 4 4", "melds": "4 4 4 4 4 4 4", "discard": "5", "op": "check"}
    html = client.post("/check", data=data).get_data(as_text=True)
    assert answer_of(html) == "Yes" and "needs no initial-meld minimum" in html
    assert 'name="took_pile" value="1" hx-post' in html and "I took the pile this turn" in html
    html = client.post("/check", data={**data, "took_pile": "1"}).get_data(as_text=True)
    assert answer_of(html) == "No" and "counts 35, but your side needs 50" in html
    assert 'name="took_pile" value="1" checked' in html


def test_card_colour_is_decided_from_the_suit_alone():
    from scorepad.canasta.cards import parse_card
    from scorepad.checker import card_colour

    # Hearts and diamonds are red, whether given as a card, a card code or a suit letter.
    assert [card_colour(x) for x in ("10H", "3D", "H", "D", parse_card("QD"))] == ["red"] * 5
    # Spades and clubs, jokers, rank-only cards and "any suit" take no colour class.
    assert [card_colour(x) for x in ("KS", "3C", "S", "JK", "2", "K", "", parse_card("K"))] == [""] * 8


def classes(html, pattern):
    """The class attribute of each element whose aria-label matches ``pattern``, by that label."""
    return {
        label: cls
        for cls, label in re.findall(r'class="([^"]*)"[^>]*?(?:aria-label="([^"]*)")', html)
        if re.search(pattern, label)
    }


def test_red_cards_are_red_everywhere_on_the_board(client):
    data = {"variant": "samba", "hand": "10H KS JK 3D", "op": "check"}
    html = client.post("/check", data=data).get_data(as_text=True)
    chips = classes(html, r"^Pick ")
    assert chips == {
        "Pick 10♥": "tap chip red",
        "Pick K♠": "tap chip",
        "Pick Joker": "tap chip",
        "Pick 3♦": "tap chip red",
    }
    assert classes(html, r"^Suit: ") == {
        "Suit: any": "tap suit",
        "Suit: spades": "tap suit",
        "Suit: hearts": "tap suit red",
        "Suit: diamonds": "tap suit red",
        "Suit: clubs": "tap suit",
    }
    # Named as shown (issue 20: "3♥" named "Add 3H" broke label-in-name).
    assert classes(html, r"^Add 3") == {
        "Add 3♥": "tap key three red",
        "Add 3♦": "tap key three red",
        "Add 3♠": "tap key three",
        "Add 3♣": "tap key three",
    }


def test_red_cards_are_red_in_the_verdicts_melds(client):
    data = {"action": "pickup", "hand": "K K Q Q 2H", "top": "K", "score": "0", "op": "check"}
    html = client.post("/check", data=data).get_data(as_text=True)
    how = re.search(r'<p class="how">(.*?)</p>', html).group(1)
    assert re.findall(r'<span class="(card[^"]*)">([^<]*)</span>', how) == [
        ("card", "K"),
        ("card", "K"),
        ("card", "K"),
        ("card", "Q"),
        ("card", "Q"),
        ("card red", "2♥"),
    ]
