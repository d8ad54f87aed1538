"""POST /api/v1/check exactly as docs/api.md "Rules check" describes it."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


@pytest.fixture(scope="module")
def app(module_app):
    """These tests only check (stateless): one app for all."""
    return module_app


SPEC_EXAMPLE = {
    "variant": "classic",
    "options": {},
    "action": "meld",
    "hand": ["K", "K", "Q", "Q", "2C", "7H"],
    "table": [["9", "9", "9"]],
    "initial_meld_done": False,
    "score": 1200,
    "melds": [["K", "K", "K"], ["Q", "Q", "2C"]],
    "pile": {"top": "K", "frozen": False, "size": 12},
    "discard": "7H",
    "stock_empty": False,
}


def post(client, body):
    return client.post("/api/v1/check", json=body)


def test_pagat_example_answers_yes_with_count_and_minimum(client):
    body = {
        "variant": "classic",
        "action": "pickup",
        "hand": ["K", "K", "Q", "Q", "2C"],
        "melds": [["K", "K", "K"], ["Q", "Q", "2C"]],
        "pile": {"top": "K", "size": 12},
        "score": 1200,
    }
    response = post(client, body)
    assert response.status_code == 200
    document = response.get_json()
    assert document["legal"] is True
    assert (document["count"], document["minimum"]) == (70, 50)
    assert document["reasons"] and all(isinstance(r, str) for r in document["reasons"])
    response = post(client, {**body, "score": 1500})
    assert response.get_json()["legal"] is False
    assert response.get_json()["minimum"] == 90


def test_pickup_without_melds_answers_how(client):
    body = {"variant": "classic", "action": "pickup", "hand": ["K", "K", "Q", "Q", "2C"], "pile": {"top": "K"}}
    document = post(client, body).get_json()
    assert document["legal"] is True
    assert document["how"] == [["K", "K", "K"], ["Q", "Q", "2C"]]


def test_the_spec_example_as_a_meld_is_refused_for_kings_not_in_the_hand(client):
    """pagat's example, sent as a meld, melds three kings from a hand of two without taking the pile:
    a meld with cards not in the hand is a 422 (docs/api.md "Rules check"), the only problem named."""
    response = post(client, SPEC_EXAMPLE)
    assert response.status_code == 422
    assert [e["field"] for e in response.get_json()["errors"]] == ["melds"]


def test_the_spec_example_as_a_pickup_with_its_table(client):
    # initial_meld_done: false is taken at its word even with melds listed: the pile is frozen
    # against the side, K-K from the hand take the top king, and pagat's count is 70 >= 50.
    document = post(client, {**SPEC_EXAMPLE, "action": "pickup"}).get_json()
    assert document["legal"] is True
    assert (document["count"], document["minimum"]) == (70, 50)


def test_the_spec_example_as_a_pickup(client):
    body = {key: value for key, value in SPEC_EXAMPLE.items() if key not in ("table", "discard")}
    document = post(client, {**body, "action": "pickup"}).get_json()
    assert document["legal"] is True
    assert (document["count"], document["minimum"]) == (70, 50)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"variant": "classic", "action": "meld", "hand": ["JK"] * 5, "melds": [["JK"] * 5]}, ""),
        ({"variant": "classic", "action": "meld", "hand": ["K", "K"], "melds": [["K", "K", "K"]]}, "melds"),
        ({"variant": "classic", "action": "meld", "hand": ["3", "K", "K"], "melds": [["K", "K"]]}, "hand[0]"),
        ({"variant": "nope", "action": "meld", "hand": ["K"], "melds": [["K"]]}, "variant"),
        ({"variant": "classic", "options": {"max_wilds": 7}, "action": "meld", "hand": ["K"]}, "options.max_wilds"),
        ({"variant": "classic", "action": "discard", "hand": ["K"], "discard": "Q"}, "discard"),
    ],
)
def test_impossible_positions_are_422(client, body, field):
    response = post(client, body)
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert field in [error["field"] for error in errors]
    assert all(error["message"] for error in errors)


def test_malformed_json_is_400(client):
    response = client.post("/api/v1/check", data="{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["field"] == ""


def test_a_body_that_is_not_an_object_is_422(client):
    assert post(client, ["K"]).status_code == 422


def test_get_is_not_allowed(client):
    assert client.get("/api/v1/check").status_code == 405


def test_the_api_needs_no_csrf_token(app):
    app.config["WTF_CSRF_ENABLED"] = True
    response = app.test_client().post(
        "/api/v1/check", json={"variant": "classic", "action": "discard", "hand": ["K", "5"], "discard": "5"}
    )
    assert response.status_code == 200


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5) | st.sampled_from(["K", "2C", "3S", "JK", "3"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=15,
)
FIELDS = st.sampled_from(
    ["variant", "options", "action", "hand", "table", "melds", "pile", "discard", "score", "initial_meld_done"]
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(FIELDS, JSON, max_size=8) | JSON)
def test_any_json_gives_no_500(client, body):
    response = client.post("/api/v1/check", data=json.dumps(body), content_type="application/json")
    assert response.status_code in (200, 400, 422)
    assert response.is_json


@pytest.mark.parametrize("pile", [False, 0, [], ""])
def test_a_pile_that_is_not_an_object_is_refused(client, pile):
    """docs/api.md: "pile" is an object ({"top", "frozen", "size"}); a falsy non-object is not "no pile"."""
    response = post(client, {"variant": "classic", "action": "meld", "hand": ["K", "K", "K"], "pile": pile})
    assert response.status_code == 422
    assert [e["field"] for e in response.get_json()["errors"]] == ["pile"]
