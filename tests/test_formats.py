"""The export formats as pure functions: CSV read back with the csv module, JSON, share text, chart.

The results CSV and the stats come from stored figures: tests/test_exports.py reads them where they are served.
"""

import csv
import doctest
import importlib
import io
import json
import pkgutil
import re
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest

from scorepad import canasta, formats
from scorepad.canasta import InvalidError
from scorepad.documents import ALL_FORMAT, FORMAT, MatchInfo, Side, match_document

SVG = "{http://www.w3.org/2000/svg}"

# Seven hands that end Classic canasta at We 5,120 – They 3,870 (the issue's example).
CLASSIC_HANDS = [{"entries": [{"melded_points": 650}, {"melded_points": 500}]}] * 6 + [
    {
        "entries": [
            {"melded_points": 520, "canastas": {"natural": 1}, "went_out": True, "red_threes": 1},
            {"melded_points": 570, "red_threes": 3},
        ]
    }
]
# Five hands of 1,200 each way: a tie at 6,000.
TIE_HANDS = [
    {
        "entries": [
            {"melded_points": 600, "canastas": {"natural": 1}, "went_out": True},
            {"melded_points": 500, "canastas": {"natural": 1}, "red_threes": 2},
        ]
    }
] * 5


def info(match_id="a" * 16, sides=(("We", ("Ann", "Bob")), ("They", ("Cy", "Di"))), **extra):
    return MatchInfo(match_id, tuple(Side(name, players) for name, players in sides), **extra)


@pytest.fixture
def finished():
    return canasta.score_match("classic", CLASSIC_HANDS), info(created="2025-01-04T19:30:00Z")


def read_csv(text):
    rows = list(csv.DictReader(io.StringIO(text)))
    header = next(csv.reader(io.StringIO(text)))
    return header, rows


FORMAT_MODULES = ["scorepad.formats", *(f"scorepad.formats.{m.name}" for m in pkgutil.iter_modules(formats.__path__))]


@pytest.mark.parametrize("module", FORMAT_MODULES)
def test_module_examples_hold(module):
    assert doctest.testmod(importlib.import_module(module)).failed == 0


# --- one match as CSV --------------------------------------------------------------------


def test_match_csv_has_one_row_per_hand_and_a_totals_row(finished):
    match, match_info = finished
    header, rows = read_csv(formats.match_csv(match, match_info))
    assert len(header) == len(set(header)), "every column heading is unique"
    assert [row["hand"] for row in rows] == [str(n) for n in range(1, 8)] + ["total"]
    assert [int(row["We total"]) for row in rows[:-1]] == [650 * n for n in range(1, 7)] + [5120]
    assert rows[-1]["We total"] == "5120" and rows[-1]["They total"] == "3870"
    assert rows[-1]["We hand score"] == "5120"
    assert rows[-1]["We went_out"] == "1", "yes/no fields are counted in the totals row"


def test_match_csv_has_every_entry_field_and_a_breakdown_that_adds_up(finished):
    match, match_info = finished
    header, rows = read_csv(formats.match_csv(match, match_info))
    fields = "melded_points hand_points canastas.natural canastas.mixed red_threes went_out concealed special_hand"
    for field in [*fields.split(), "incomplete", "penalty_points", "melded_cards", "hand_cards"]:
        assert f"We {field}" in header and f"They {field}" in header
    last = rows[6]
    assert (last["We melded_points"], last["We canastas.natural"], last["We went_out"]) == ("520", "1", "1")
    for row in rows:
        for side in ("We", "They"):
            parts = [int(row[name]) for name in header if name.startswith(f"{side} score: ")]
            assert sum(parts) == int(row[f"{side} hand score"])
    assert last["We score: going_out"] == "100" and last["They score: red_threes"] == "300"


def test_match_csv_starts_from_carried_over_totals():
    match = canasta.score_match("classic", CLASSIC_HANDS[:1], starting_totals=[1000, -200])
    _, rows = read_csv(formats.match_csv(match, info()))
    assert rows[0]["hand"] == "start" and rows[0]["We total"] == "1000" and rows[0]["We hand score"] == ""
    assert rows[1]["We total"] == "1650" and rows[-1]["They total"] == "300"


def test_match_csv_card_counts_and_american_fields():
    match = canasta.score_match(
        "american",
        [
            {
                "entries": [
                    {"special_hand": "pairs"},
                    {"melded_cards": {"K": 5, "joker": 1}, "canastas": {"natural": 1}, "incomplete": ["sevens"],
                     "held_sets": {"aces": 1}, "hand_points": 120, "penalty_points": 100},
                ]
            }
        ],
    )  # fmt: skip
    header, rows = read_csv(formats.match_csv(match, info()))
    first = rows[0]
    assert first["We special_hand"] == "pairs" and first["We score: special_hand"] == "2500"
    assert first["They melded_cards"] == "joker:1 K:5" and first["They melded_points"] == "100"
    assert first["They incomplete"] == "sevens" and first["They held_sets.aces"] == "1"
    assert "We canastas.sevens" in header and "We canastas.natural" in header


def test_match_csv_shows_groups_as_counted():
    # Issue 20: 1 joker, 2 twos, 5 cards K-8 and 6 cards 7-4 melded (170), never "K:5 7:6".
    entries = [{"melded_cards": {"joker": 1, "2": 2, "K-8": 5, "7-4": 6}}, {"hand_cards": {"A": 1, "K-8": 3, "7-4": 3}}]
    match = canasta.score_match("classic", [{"entries": entries}])
    _header, rows = read_csv(formats.match_csv(match, info()))
    assert rows[0]["We melded_cards"] == "joker:1 2:2 K-8:5 7-4:6" and rows[0]["We melded_points"] == "170"
    assert rows[0]["They hand_cards"] == "A:1 K-8:3 7-4:3" and rows[0]["They hand score"] == "-65"


def test_match_csv_three_sides_and_names_that_look_like_formulas():
    match = canasta.score_match(
        "classic-3p",
        [{"entries": [{"melded_points": 600, "canastas": {"natural": 1}, "went_out": True}, {}, {}]}],
    )
    sides = (("=SUM(A1)", ()), ("North", ()), ("North", ()))
    header, rows = read_csv(formats.match_csv(match, info(sides=sides)))
    assert "'=SUM(A1) total" in header and "North total" in header and "North (3) total" in header
    assert rows[0]["'=SUM(A1) hand score"] == "1200"


# --- all matches -------------------------------------------------------------------------


def test_all_matches_document_holds_each_match_document(finished):
    document = formats.all_matches_document([finished], exported="2025-02-01T10:00:00Z")
    assert document["format"] == ALL_FORMAT and document["format_version"] == 1 and document["count"] == 1
    assert document["matches"] == [match_document(*finished)]
    assert json.loads(json.dumps(document)) == document


def test_reading_back_an_export_gives_the_same_matches(finished):
    other = (canasta.score_match("samba", [], {"target": 15000}), info("d" * 20, title="Samba night"))
    document = json.loads(json.dumps(formats.all_matches_document([finished, other])))
    pairs = formats.read_all_matches_document(document)
    assert [match_document(*pair) for pair in pairs] == document["matches"]


def test_a_single_match_document_is_also_an_import(finished):
    [(match, match_info)] = formats.read_all_matches_document(match_document(*finished))
    assert match.totals == (5120, 3870) and match_info.id == "a" * 16
    assert match_document(match, match_info)["format"] == FORMAT


def test_every_problem_is_reported_with_its_path(finished):
    good = match_document(*finished)
    bad_hand = json.loads(json.dumps(good)) | {"id": "e" * 16}
    bad_hand["hands"][2]["entries"][0]["red_threes"] = 9
    no_sides = good | {"id": "f" * 16, "sides": []}
    document = {"format": ALL_FORMAT, "format_version": 1, "matches": [good, bad_hand, no_sides, good, "x"]}
    with pytest.raises(InvalidError) as caught:
        formats.read_all_matches_document(document)
    fields = [v.field for v in caught.value.violations]
    assert "matches[1].hands[2].entries[0].red_threes" in fields or any(
        f.startswith("matches[1].hands[2]") for f in fields
    )
    assert "matches[2].sides" in fields
    assert "matches[3].id" in fields, "the same id twice in one file"
    assert "matches[4]" in fields


def test_unknown_entry_fields_point_into_the_entry(finished):
    document = json.loads(json.dumps(match_document(*finished)))
    document["hands"][0]["entries"][1]["red_threez"] = 1
    with pytest.raises(InvalidError) as caught:
        formats.read_all_matches_document({"format": ALL_FORMAT, "format_version": 1, "matches": [document]})
    assert [v.field for v in caught.value.violations] == ["matches[0].hands[0].entries[1].red_threez"]


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ([], ""),
        ({"format": "something-else", "matches": []}, "format"),
        ({"format": ALL_FORMAT, "format_version": 2, "matches": []}, "format_version"),
        ({"format": ALL_FORMAT, "format_version": 1, "matches": {}}, "matches"),
    ],
)
def test_documents_that_are_not_exports(data, field):
    with pytest.raises(InvalidError) as caught:
        formats.read_all_matches_document(data)
    assert field in [v.field for v in caught.value.violations]


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b'{"format": ', "line 1, column 12"),
        (b"\xff\xfe{}", "not UTF-8"),
        (b"[" * 100_000, "nests too deeply"),
    ],
)
def test_files_that_are_not_json_say_where(raw, words):
    with pytest.raises(InvalidError) as caught:
        formats.parse_json(raw)
    assert words in caught.value.violations[0].message


def test_parse_json_skips_a_byte_order_mark():
    assert formats.parse_json("\ufeff{}".encode()) == {}


# --- share text --------------------------------------------------------------------------


def test_share_text_matches_the_issue(finished):
    assert formats.share_text(*finished) == "Classic canasta, 7 hands: We 5,120 – They 3,870. We win by 1,250."


@pytest.mark.parametrize(
    ("variant", "hands", "sides", "expected"),
    [
        ("classic-2p", [], ("Me", "You"), "Classic canasta for two, no hands yet."),
        (
            "classic",
            [{"entries": [{"melded_points": 100}, {"melded_points": 100}]}],
            ("Lions", "Tigers"),
            "Classic canasta, 1 hand so far: Lions 100 – Tigers 100. All square.",
        ),
        (
            "classic",
            [{"entries": [{"melded_points": 50}, {"melded_points": 100, "red_threes": 2}]}],
            ("Lions", "Tigers"),
            "Classic canasta, 1 hand so far: Lions 50 – Tigers 300. In the lead: Tigers, by 250.",
        ),
        (
            "classic-2p",
            [{"entries": [{"melded_points": 100}, {"hand_points": 1000}]}],
            ("Me", "You"),
            "Classic canasta for two, 1 hand so far: Me 100 – You -1,000. I lead by 1,100.",
        ),
    ],
)
def test_share_text_while_playing(variant, hands, sides, expected):
    match = canasta.score_match(variant, hands)
    assert formats.share_text(match, info(sides=[(name, ()) for name in sides])) == expected


def test_share_text_of_a_named_winner_and_a_tie():
    hands = TIE_HANDS
    tie = canasta.score_match("classic", hands)
    assert formats.share_text(tie, info()) == "Classic canasta, 5 hands: We 6,000 – They 6,000. It's a tie."
    won = canasta.score_match("classic", CLASSIC_HANDS)
    text = formats.share_text(won, info(sides=(("Ann", ()), ("Bob", ()))))
    assert text.endswith("Winner: Ann, by 1,250.")


# --- the progress chart ------------------------------------------------------------------


def parse_svg(markup):
    return ET.fromstring(markup)


def test_progress_svg_has_a_line_per_side_a_target_and_a_title(finished):
    match, match_info = finished
    svg = parse_svg(formats.progress_svg(match, match_info))
    assert svg.get("viewBox") == "0 0 360 250" and svg.get("role") == "img"
    title = svg.find(f"{SVG}title")
    assert "target 5,000" in title.text
    assert svg.get("aria-labelledby").split()[0] == title.get("id")
    assert match_info.id not in formats.progress_svg(match, match_info), "watchers must not learn the match id"
    lines = svg.findall(f"{SVG}polyline")
    assert len(lines) == 2
    assert all(len(line.get("points").split()) == 8 for line in lines), "the start and each of 7 hands"
    texts = [t.text for t in svg.iter(f"{SVG}text")]
    assert "Target 5,000" in texts and "We 5,120" in texts and "They 3,870" in texts


def test_the_legend_takes_a_row_per_side_where_one_row_would_not_hold_them(finished):
    match, match_info = finished
    # Two short labels ("We 5,120", "They 3,870": 8 and 10 letters) share the top row.
    two = parse_svg(formats.progress_svg(match, match_info))
    assert {t.get("y") for t in two.iter(f"{SVG}text") if t.get("class") == "legend"} == {"18"}
    # Three long names: a row each, the chart 2 rows (36) taller, the plot moved down under them.
    long = ["Maria Fernanda Albuquerque", "Bartholomew Winterbottom", "José Íñigo"]
    info = replace(match_info, sides=tuple(Side(name) for name in long))
    svg = formats.progress_chart("Classic canasta for three", 5000, (0, 0, 0), [(1600, 770, 390)], info)
    root = parse_svg(svg)
    legend = [t for t in root.iter(f"{SVG}text") if t.get("class") == "legend"]
    assert [(t.get("y"), t.text) for t in legend] == [
        ("18", "Maria Fernanda Albuquerque 1,600"),
        ("36", "Bartholomew Winterbottom 770"),
        ("54", "José Íñigo 390"),
    ]
    assert root.get("viewBox") == "0 0 360 286"
    # The plot's top (the target, 5,000, the highest tick) is 36 lower than with one row (40).
    assert re.search(r'<line x1="46" x2="348" y1="76.0" y2="76.0"[^>]*stroke-dasharray="4 3"', svg)
    # A 60-letter name is shortened to fit its row (the description keeps it whole).
    info = replace(match_info, sides=(Side("W" * 60), Side("B"), Side("C")))
    root = parse_svg(formats.progress_chart("Classic", 5000, (0, 0, 0), [(1600, 770, 390)], info))
    first = next(t.text for t in root.iter(f"{SVG}text") if t.get("class") == "legend")
    assert first.endswith("… 1,600") and len(first) * 7.8 <= 360 - 16 - 28
    assert "W" * 60 in root.find(f"{SVG}desc").text


def test_progress_svg_climbs_as_totals_grow(finished):
    svg = parse_svg(formats.progress_svg(*finished))
    we = [tuple(map(float, p.split(","))) for p in svg.find(f"{SVG}polyline").get("points").split()]
    xs, ys = zip(*we, strict=True)
    assert list(xs) == sorted(xs) and list(ys) == sorted(ys, reverse=True), "SVG y grows downwards"
    assert 0 <= min(xs) and max(xs) <= 360 and 0 <= min(ys) and max(ys) <= 250


def test_progress_svg_escapes_names_and_handles_negatives_and_no_hands():
    sides = (("<script>alert(1)</script>", ()), ("They & co", ()))
    markup = formats.progress_svg(canasta.score_match("classic", [], starting_totals=[-500, 0]), info(sides=sides))
    assert "<script>" not in markup and "&lt;script&gt;" in markup and "They &amp; co" in markup
    svg = parse_svg(markup)
    assert len(svg.findall(f"{SVG}polyline")) == 2
    assert "-1,000" in [t.text for t in svg.iter(f"{SVG}text")], "the scale reaches below the lowest total"


def test_progress_svg_three_sides_and_many_hands():
    hands = [{"entries": [{"melded_points": 50}, {"melded_points": 40}, {"melded_points": 30}]}] * 60
    svg = parse_svg(
        formats.progress_svg(canasta.score_match("classic-3p", hands), info(sides=[("N", ()), ("E", ()), ("W", ())]))
    )
    assert len(svg.findall(f"{SVG}polyline")) == 3
    hand_labels = [t.text for t in svg.iter(f"{SVG}text") if t.text.isdigit() and t.get("text-anchor") == "middle"]
    assert len(hand_labels) <= 10 and "60" in hand_labels
