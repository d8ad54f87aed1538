"""The match document: what the API returns for a stored match, and what import reads back."""

import doctest
import unicodedata

import pytest

from scorepad import canasta, documents
from scorepad.canasta import InvalidError
from scorepad.documents import MatchInfo, Side, is_well_formed_id, match_document, read_match_document

MATCH_ID = "0123456789abcdef0123456789abcdef"
HAND = {
    "entries": [
        {"melded_points": 520, "canastas": {"natural": 1, "mixed": 1}, "red_threes": 1, "went_out": True},
        {"melded_cards": {"K": 3, "4": 2}, "hand_points": 95},
    ]
}


def a_document(**changes):
    match = canasta.score_match("classic", [HAND], {"target": 3000})
    info = MatchInfo(MATCH_ID, (Side("We", ("Ann", "Bo")), Side("They", ("Cy", "Di"))), created="2026-11-22T10:00")
    return {**match_document(match, info), **changes}


def test_document_carries_facts_scores_and_format_version():
    document = a_document()
    assert document["format"] == "scorepad-match" and document["format_version"] == 1
    assert document["options"]["target"] == 3000  # options frozen in full, not only the changed ones
    assert document["hands"][0]["entries"][1] == {"melded_cards": {"K": 3, "4": 2}, "hand_points": 95}
    # 500 + 300 + 100 (red three) + 100 (going out) + 520 = 1520; They 3 kings + 2 fours = 40 - 95 = -55
    assert document["hands"][0]["scores"] == [1520, -55]
    assert document["sides"][0] == {"name": "We", "players": ["Ann", "Bo"]}


def test_a_document_reads_back_to_the_same_match():
    match, info = read_match_document(a_document())
    assert match.totals == (1520, -55)
    assert match.variant.target == 3000
    assert info.id == MATCH_ID and info.sides[1].players == ("Cy", "Di")
    assert match_document(match, info) == a_document()


def test_scores_in_a_document_are_derived_not_trusted():
    document = a_document()
    document["hands"][0]["scores"] = [999999, 0]
    match, _ = read_match_document(document)
    assert match.results[0].scores == (1520, -55)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"format": "something-else"}, "matches[2].format"),
        ({"format_version": 7}, "matches[2].format_version"),
        ({"id": 12345}, "matches[2].id"),
        ({"id": "a" * 65}, "matches[2].id"),
        ({"id": "line\nbreak"}, "matches[2].id"),
        ({"sides": [{"name": ""}, {"name": "They"}]}, "matches[2].sides[0].name"),
        ({"variant": "rummy"}, "matches[2].variant"),
        ({"hands": [{"entries": [{"red_threes": 5}, {}]}]}, "matches[2].hands[0].entries[0].red_threes"),
        ({"sides": [{"name": "Only one"}]}, "matches[2].sides"),
    ],
)
def test_a_bad_document_names_where_the_problem_is(changes, field):
    with pytest.raises(InvalidError) as caught:
        read_match_document(a_document(**changes), where="matches[2]")
    assert field in {violation.field for violation in caught.value.violations}


@pytest.mark.parametrize("match_id", ["../etc", "0000000000000000", "123e4567-e89b-12d3-a456-426614174000"])
def test_any_short_text_id_is_read_so_an_import_can_replace_it(match_id):
    _, info = read_match_document(a_document(id=match_id))
    assert info.id == match_id and not is_well_formed_id(match_id)


def test_module_examples_hold():
    assert doctest.testmod(documents).failed == 0


def test_hands_scoring_the_same_parts_share_one_breakdown_in_a_document():
    # docs/rules.md: each side scores melded cards plus, cards left in hand minus. Hands 1 and 3 are the
    # same report (We 120 - 30 = 90, They 90 - 40 = 50); hand 2 differs (We 75 - 55, They 130 - 20).
    same = {"entries": [{"melded_points": 120, "hand_points": 30}, {"melded_points": 90, "hand_points": 40}]}
    other = {"entries": [{"melded_points": 75, "hand_points": 55}, {"melded_points": 130, "hand_points": 20}]}
    match = canasta.score_match("classic", [same, other, dict(same)])
    first, second, third = documents.score_document(match)["hands"]
    assert first["breakdown"][0] is third["breakdown"][0]
    assert first["breakdown"][0] == {
        "score": 90,
        "parts": [
            {"id": "melded_points", "label": "Melded cards", "points": 120},
            {"id": "hand_points", "label": "Cards left in hand", "points": -30},
        ],
    }
    assert second["breakdown"][0]["score"] == 20 and second["breakdown"][1]["score"] == 110
    assert [hand["totals"] for hand in (first, second, third)] == [[90, 50], [110, 160], [200, 210]]


def test_a_hand_document_starts_with_the_hand_as_the_api_gives_it():
    # pagat "Canasta for three players": partners 1 and 2 pool their melds; zero fields are left out.
    hand = {
        "partnership": [1, 2],
        "entries": [
            {"melded_points": 150, "hand_points": 40, "red_threes": 0},
            {"melded_points": 300, "canastas": {"natural": 1, "mixed": 0}, "went_out": True},
            {"melded_points": 220, "hand_points": 30, "red_threes": 1, "concealed": False},
        ],
    }
    result = canasta.score_match("classic-3p", [hand]).results[0]
    document = documents.hand_document(result)
    assert list(document)[:5] == ["entries", "partnership", "scores", "totals", "minimums"]
    assert document["entries"] == [
        {"melded_points": 150, "hand_points": 40},
        {"melded_points": 300, "canastas": {"natural": 1}, "went_out": True},
        {"melded_points": 220, "hand_points": 30, "red_threes": 1},
    ]
    assert document["partnership"] == [1, 2]
    assert {key: document[key] for key in ("entries", "partnership")} == result.hand.to_dict()


def test_the_unreadable_search_finds_exactly_the_unreadable_categories():
    """is_readable's one search stands for the categories it names: every code point agrees."""
    from scorepad.documents import UNREADABLE, UNREADABLE_CHARACTER

    # Control characters, surrogates and the two separators are all in the first plane, by Unicode's
    # stability policy (Cc and Cs are closed): the search's class names none beyond it.
    found = [c for c in range(0x10000) if UNREADABLE_CHARACTER.match(chr(c))]
    named = [c for c in range(0x10000) if unicodedata.category(chr(c)) in UNREADABLE]
    assert found == named and len(named) == 65 + 2048 + 2
