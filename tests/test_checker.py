"""The "Can I?" pages: plain form posts work without JavaScript, the htmx route answers the board."""

import re

import pytest

from scorepad import create_app


def hidden(html, name):
    match = re.search(rf'name="{name}" value="([^"]*)"', html)
    return match.group(1) if match else None


def test_the_page_opens_with_a_prompt(client):
    response = client.get("/check")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "<html" in html and "Can I?" in html
    assert "Tap the cards in your hand." in html
    assert 'name="csrf_token"' in html
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
    assert 'value="3200" selected' in html and "needs 155" in html


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
    assert "Ben: 1600" in html and "needs <b>90</b>" in html
    data = {"match": match_id, "side": "1", "action": "pickup", "hand": "K 2C Q", "table": "9 9 9", "top": "K"}
    html = client.post("/check", data={**data, "op": "check"}).get_data(as_text=True)
    assert "do not take the pile at your table" in html


def test_an_unknown_match_falls_back_to_the_plain_page(client):
    response = client.get("/check?match=does-not-exist&side=1")
    assert response.status_code == 200
    assert "Back to the match" not in response.get_data(as_text=True)


def test_csrf_is_required_on_the_form(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "csrf.db"), "SECRET_KEY": "test-only"})
    client = app.test_client()
    assert client.post("/check", data={"op": "add:K"}).status_code == 400
    html = client.get("/check").get_data(as_text=True)
    token = hidden(html, "csrf_token")
    assert client.post("/check", data={"op": "add:K", "csrf_token": token}).status_code == 200
