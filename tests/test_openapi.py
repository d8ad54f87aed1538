"""The OpenAPI document (scorepad/openapi.json): served, valid OpenAPI 3.1, true to the code, and
the source of an API fuzz test.

The fuzz test lets Schemathesis generate requests from the document's request schemas and send
them to the app in-process (WSGI, no server, no network): schema-valid requests (which the rules
may still refuse with a 422) and schema-breaking ones (which must be refused with a 4xx). Every
answer must be no 5xx, have a status the document lists for the operation, and a body its
schema accepts. ``SCOREPAD_OPENAPI_EXAMPLES`` raises the number of requests per operation and
mode and of the realistic tests (default 60: CI-sized, about 15 s in all).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    negative_data_rejection,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.config import SchemathesisConfig

from scorepad import canasta
from scorepad.api import OPENAPI
from scorepad.canasta.cards import CARD_CLASSES
from scorepad.canasta.entries import ENTRY_FIELDS
from scorepad.canasta.plays import ACTIONS, REQUEST_FIELDS
from scorepad.canasta.variants import WILD_CANASTA_KINDS
from scorepad.cli import main


@pytest.fixture(scope="module")
def app(module_app):
    """These tests only score, check and read (one stored match, its own id): one app for all."""
    return module_app


DOCUMENT = json.loads((Path(__file__).resolve().parents[1] / "scorepad" / "openapi.json").read_text())
SCHEMAS = DOCUMENT["components"]["schemas"]
EXAMPLES = int(os.environ.get("SCOREPAD_OPENAPI_EXAMPLES", "60"))


def test_the_document_is_valid_openapi_3_1():
    assert DOCUMENT["openapi"].startswith("3.1.")
    validate(DOCUMENT)


def test_the_server_serves_the_packaged_document(client):
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    # As packaged, with the server it is served from (the app's root) named.
    assert response.get_json() == {**DOCUMENT, "servers": [{"url": "/", "description": "this scorepad"}]}
    validate(response.get_json())
    assert OPENAPI.is_file()  # read through importlib.resources, so a wheel serves it too


def test_the_document_lists_the_four_api_operations_and_itself():
    assert {(path, method) for path, item in DOCUMENT["paths"].items() for method in item} == {
        ("/api/v1/variants", "get"),
        ("/api/v1/score", "post"),
        ("/api/v1/matches/{match_id}", "get"),
        ("/api/v1/check", "post"),
        ("/api/v1/openapi.json", "get"),
    }


# --- the document says what the code knows -------------------------------------------------------
def test_variant_ids_are_the_presets():
    assert SCHEMAS["VariantId"]["enum"] == list(canasta.VARIANTS)


@pytest.mark.parametrize("option", canasta.OPTIONS.values(), ids=lambda o: o.id)
def test_each_option_allows_what_the_variants_allow(option):
    schema = SCHEMAS["Options"]["properties"][option.id]
    allowed = option.allowed()
    expected_type = {"bool": "boolean", "int": "integer", "str": "string"}[allowed["type"]]
    assert schema["type"] in (expected_type, [expected_type, "null"])
    assert ("null" in schema["type"]) is allowed.get("null", False)
    if allowed["type"] != "bool":
        assert schema.get("enum") == allowed.get("values")
        assert (schema.get("minimum"), schema.get("maximum")) == (allowed.get("min"), allowed.get("max"))
        assert schema.get("multipleOf") == allowed.get("multiple_of")
    # Presets narrow some values (Samba plays 3 decks): never beyond what the option allows.
    for variant in canasta.VARIANTS.values():
        if option.id in variant.option_ids and "enum" in schema:
            assert set(variant.option_spec(option.id).allowed()["values"]) <= set(schema["enum"])


def test_entry_fields_are_the_cores():
    assert set(SCHEMAS["Entry"]["properties"]) == set(ENTRY_FIELDS)


def test_check_request_fields_and_actions_are_the_checkers():
    assert set(SCHEMAS["CheckRequest"]["properties"]) == set(REQUEST_FIELDS)
    assert SCHEMAS["CheckRequest"]["properties"]["action"]["enum"] == list(ACTIONS)


def test_canasta_kinds_special_hands_and_sets_cover_every_preset_with_every_option():
    kinds, specials, incomplete, held = set(), set(), set(), set()
    for variant in canasta.VARIANTS.values():
        for wild in WILD_CANASTA_KINDS:
            options = {"wild_canasta": wild, "sequences": True}
            rules = variant.with_options({key: value for key, value in options.items() if key in variant.option_ids})
            kinds |= set(rules.canasta_kinds)
            incomplete |= set(rules.incomplete_penalties)
        specials |= dict(variant.special_hands).keys()
        held |= dict(variant.held_set_penalties).keys()
    entry = SCHEMAS["Entry"]["properties"]
    assert set(entry["canastas"]["propertyNames"]["enum"]) == kinds
    assert set(entry["special_hand"]["enum"]) == specials | {None}
    assert set(entry["incomplete"]["items"]["enum"]) == incomplete
    assert set(entry["held_sets"]["propertyNames"]["enum"]) == held


def test_card_classes_are_the_cores():
    assert set(SCHEMAS["CardCounts"]["propertyNames"]["enum"]) == set(CARD_CLASSES)


@pytest.mark.parametrize(
    ("card", "is_card"),
    [("K", True), ("ks", True), ("10H", True), ("t", True), ("JK", True), ("*", True), ("3d", True),
     ("3", False), ("1", False), ("KX", False), ("11", False), (" K", False)],
)  # fmt: skip
def test_the_card_pattern_follows_the_notation(card, is_card):
    """API notation: rank, optional suit, any case; a three needs its suit; JK or * is a joker."""
    pattern = SCHEMAS["Card"]["pattern"]
    assert bool(re.search(pattern, card)) is is_card
    if is_card:
        canasta.parse_card(card)  # everything the pattern takes the server takes too


# --- the fuzz test ----------------------------------------------------------------------------------
OPERATIONS = [(path, method.upper()) for path, item in DOCUMENT["paths"].items() for method in item]
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
# A schema-breaking request must be refused: Schemathesis' usual 4xx answers, plus 413, the
# answer the document gives for a request beyond a cap (a string over maxLength, a list over
# maxItems: docs/api.md, Limits).
REFUSALS = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429", "5xx"]
CONFIG = SchemathesisConfig.from_dict({"checks": {"negative_data_rejection": {"expected-statuses": REFUSALS}}})


def fuzz_cases():
    """(path, method, mode): schema-breaking requests only where a request has something to break."""
    for path, method in OPERATIONS:
        yield pytest.param(path, method, GenerationMode.POSITIVE, id=f"{method} {path} valid")
        operation = DOCUMENT["paths"][path][method.lower()]
        if "requestBody" in operation or "parameters" in operation:
            yield pytest.param(path, method, GenerationMode.NEGATIVE, id=f"{method} {path} invalid")


@pytest.mark.slow  # a large generated fuzz run: CI runs it, the quick command does not
@pytest.mark.parametrize(("path", "method", "mode"), list(fuzz_cases()))
def test_generated_requests_get_documented_answers(app, path, method, mode):
    """No 5xx; every status listed for the operation; every body valid against its schema.

    A schema-valid request may still break a rule (too many red threes, a card not in the hand),
    so a 422 is a fine answer to it; a schema-breaking request must get a 4xx.
    """
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app, config=CONFIG)
    operation = schema[path][method]
    checks = CHECKS + ([negative_data_rejection] if mode is GenerationMode.NEGATIVE else [])

    @settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy(mode))
    def answers_as_documented(case):
        # The test client does not unzip; ask for the body as it is so it can be checked.
        case.call_and_validate(headers={"Accept-Encoding": "identity"}, checks=checks)

    answers_as_documented()


def test_a_stored_match_answers_as_documented(client, app, tmp_path):
    """The fuzz test rarely guesses a stored id: one stored match, checked against its schema."""
    document = {
        "format": "scorepad-match",
        "id": "0123456789abcdef0123456789abcdef",
        "variant": "classic-3p",
        "options": {"target": 3000},
        "sides": [{"name": "North"}, {"name": "East"}, {"name": "West"}],
        "starting_totals": [2500, 0, 100],
        "hands": [
            {
                "partnership": [1, 2],
                "entries": [
                    {"melded_points": 150, "hand_points": 40},
                    {"melded_points": 300, "canastas": {"natural": 1}, "went_out": True},
                    {"melded_points": 220, "hand_points": 30, "red_threes": 1},
                ],
            }
        ],
    }
    path = tmp_path / "match.json"
    path.write_text(json.dumps(document))
    assert main(["import", str(path), "--database", app.config["DATABASE"]]) == 0
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    case = schema["/api/v1/matches/{match_id}"]["GET"].Case(path_parameters={"match_id": document["id"]})
    response = case.call_and_validate(headers={"Accept-Encoding": "identity"}, checks=CHECKS)
    body = json.loads(response.content)
    # pagat, three players: East and West pool 520 melded, a natural canasta and going out
    # (500 + 100 + 520 = 1120) less West's 30 in hand = 1090 each, West +100 for a red three;
    # North alone: 150 - 40 = 110. North reaches 2610, East 1090, West 1290: no one at 3000.
    assert body["hands"][0]["scores"] == [110, 1090, 1190]
    assert body["totals"] == [2610, 1090, 1290]
    assert body["game_over"] is False


# --- realistic requests, their answers checked against the document ---------------------------------
# Schema-valid requests are mostly hands that cannot have happened, so the fuzz test sees few scored
# matches. These strategies play by the rules more often, so the answers' schemas meet real matches:
# game ends, settlements, ties, warnings, partnerships, counted cards, verdicts with and without `how`.
def validator(name: str) -> Draft202012Validator:
    """A JSON Schema validator for one schema of the document, its references resolved."""
    return Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": DOCUMENT["components"]})


points = st.integers(0, 40).map(lambda n: n * 5)


@st.composite
def entries(draw, variant, goes_out, counted):
    """One side's report, shaped so that the rules mostly accept it (``counted``: cards, not points)."""
    canastas = draw(st.dictionaries(st.sampled_from(["natural", "mixed"]), st.integers(1, 2), max_size=2))
    if goes_out:
        canastas["natural"] = max(canastas.get("natural", 0), variant.canastas_to_go_out)
        if variant.going_out_needs_kind:
            canastas[variant.going_out_needs_kind] = 1
    entry = {"canastas": canastas, "red_threes": draw(st.integers(0, 1)), "went_out": goes_out}
    if counted:  # a canasta of each rank from the ace down, as one side can hold them
        ranks = ["A", "K", "Q", "J", "10", "9", "8"][: sum(canastas.values())]
        entry["melded_cards"] = {rank: 7 for rank in ranks} | {"joker": draw(st.integers(0, 1))}
    else:
        entry["melded_points"] = 50 * sum(canastas.values()) + draw(points)
    if not goes_out:
        entry["hand_points"] = draw(points)
    entry["penalty_points"] = draw(st.sampled_from([0, 0, 50]))
    return {key: value for key, value in entry.items() if value}


@st.composite
def score_requests(draw):
    key = draw(st.sampled_from(list(canasta.VARIANTS)))
    variant = canasta.VARIANTS[key]
    count = draw(st.integers(0, 3))
    # The game ends at the last hand often enough: at the hand limit, or at a low target.
    options = draw(st.sampled_from([{}, {"target": 1000}, {"max_hands": max(count, 1)}]))
    body = {"variant": key, "options": options, "hands": []}
    for _ in range(count):
        out = draw(st.none() | st.integers(0, variant.sides - 1))
        counted = draw(st.none() | st.integers(0, variant.sides - 1))
        hand = {"entries": [draw(entries(variant, side == out, side == counted)) for side in range(variant.sides)]}
        if variant.temporary_partnerships and draw(st.booleans()):
            hand["partnership"] = draw(st.sampled_from([[0, 1], [0, 2], [1, 2]]))
        body["hands"].append(hand)
    if draw(st.booleans()):
        body["starting_totals"] = [draw(st.integers(0, 100)) * 5 for _ in range(variant.sides)]
    return body


CARDS = ["A", "K", "K", "Q", "J", "10", "9", "8", "7", "7", "5", "4", "2C", "JK", "3H", "3S"]


@st.composite
def check_requests(draw):
    hand = draw(st.lists(st.sampled_from(CARDS), min_size=1, max_size=12))
    body = {
        "variant": draw(st.sampled_from(list(canasta.VARIANTS))),
        "action": draw(st.sampled_from(list(ACTIONS))),
        "hand": hand,
        "score": draw(st.sampled_from([0, 1500, 3000, -100])),
        "pile": {"top": draw(st.sampled_from(CARDS)), "frozen": draw(st.booleans()), "size": draw(st.integers(1, 20))},
    }
    order = draw(st.permutations(hand))
    size = draw(st.integers(0, 2))
    if size:
        body["melds"] = [order[i : i + 3] for i in range(0, 3 * size, 3) if order[i : i + 3]]
    if draw(st.booleans()):
        body["table"] = [["9", "9", "9"]]
    if body["action"] in ("discard", "go_out"):
        body["discard"] = order[-1]
    return body


def answered_as_documented(client, url, body, scored: list) -> None:
    response = client.post(url, data=json.dumps(body), content_type="application/json")
    if response.status_code == 422:
        validator("Errors").validate(response.get_json())
        return
    assert response.status_code == 200, response.get_data(as_text=True)
    validator("ScoreResult" if url.endswith("score") else "Verdict").validate(response.get_json())
    scored.append(response.get_json())


def test_realistic_score_requests_answer_as_documented(client):
    scored = []

    @settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(body=score_requests())
    def answers(body):
        answered_as_documented(client, "/api/v1/score", body, scored)

    answers()
    # The strategy is realistic enough that the answers' schemas meet scored hands, game ends and settlements.
    assert sum(bool(document["hands"]) for document in scored) >= EXAMPLES // 4
    assert any("settlement" in document for document in scored)


def test_realistic_checks_answer_as_documented(client):
    verdicts = []

    # Derandomized: the closing count of legal and illegal verdicts must not depend on a lucky draw.
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
    )
    @given(body=check_requests())
    def answers(body):
        answered_as_documented(client, "/api/v1/check", body, verdicts)

    answers()
    assert len(verdicts) >= EXAMPLES // 4
    assert {True, False} <= {verdict["legal"] for verdict in verdicts}


# --- hostile requests: text no one types, deep nesting, beyond the caps -----------------------------
HOSTILE_TEXT = st.sampled_from(["\ud800", "K\udfff", "\x00", "5\n", "\x1b[0m", "\x85", "K" * 101, " " * 200 + "K"])


def _nested(depth: int) -> str:
    return '{"a": ' * depth + "1" + "}" * depth


@st.composite
def hostile_bodies(draw, requests):
    """A realistic request with one hostile part: text, a field name, nesting, or too many items."""
    body = draw(requests)
    how = draw(st.sampled_from(["text", "key", "deep", "many"]))
    if how == "text":
        field = draw(st.sampled_from(["variant", "hand", "action"]))
        body[field] = [draw(HOSTILE_TEXT)] if field == "hand" else draw(HOSTILE_TEXT)
    elif how == "key":
        body["options"] = {draw(HOSTILE_TEXT): 1}
    elif how == "many":
        body["hands" if "hands" in body else "hand"] = ["K"] * draw(st.sampled_from([217, 1001, 5000]))
    text = json.dumps(body)  # lone surrogates and control characters written as \u escapes
    if how == "deep":
        text = text[:-1] + ', "options": ' + _nested(draw(st.integers(10, 5000))) + "}"
    return text


@pytest.mark.parametrize("url", ["/api/v1/score", "/api/v1/check"])
def test_hostile_requests_are_refused_as_documented(client, url):
    requests = score_requests() if url.endswith("score") else check_requests()
    documented = {int(code) for code in DOCUMENT["paths"][url]["post"]["responses"]} - {200}

    @settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(body=hostile_bodies(requests))
    def refused(body):
        response = client.post(url, data=body, content_type="application/json")
        assert response.status_code in documented, response.get_data(as_text=True)[:500]
        validator("Errors").validate(response.get_json())

    refused()
