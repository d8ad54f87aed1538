"""A club night's settings: docs/clubnight.md's defaults as data, the organiser's changes kept, bad values refused.

Every number below is read from docs/clubnight.md, not from the code.
"""

from __future__ import annotations

import json

import pytest

from scorepad.canasta import InvalidError
from scorepad.canasta.text import Text
from scorepad.club.core import ByeRule, EventSettings, SeasonRules, VictoryPoints
from scorepad.club.core.settings import CHOICE_LABELS

NIGHT = {"name": "Thursday club", "date": "2026-11-26"}


def test_the_defaults_are_club_night_md():
    settings = EventSettings.from_dict(NIGHT)
    assert settings.first_round == "random"  # "Random draw (default for round 1)"
    assert settings.movement == "mitchell"  # "default for later rounds when every round is seated in advance"
    assert settings.scoring == "victory_points"  # "Victory points (default)"
    assert settings.victory_points.total == 20  # "10 + k and the loser 10 - k"
    assert settings.bye == ByeRule("fixed", 12)  # "Bye: 12 victory points"
    assert settings.at_time == "finish_hand"  # "the hand in progress is played to its end"
    assert settings.tie_breaks == ("matches_won", "point_balance", "head_to_head")
    assert settings.season == SeasonRules("placement", 8)  # placement points, "best 8 nights"
    assert settings.final_table is None


@pytest.mark.parametrize(("scoring", "bye"), [("match_points", ("fixed", 1)), ("points", ("average", 0))])
def test_the_bye_follows_the_scoring_unless_the_organiser_says(scoring, bye):
    # docs/clubnight.md, the `bye` setting: 12 victory points, or 1 match point, or the entrant's average points so far.
    assert EventSettings.from_dict({**NIGHT, "scoring": scoring}).bye == ByeRule(*bye)
    chosen = {**NIGHT, "scoring": scoring, "bye": {"kind": "fixed", "score": 5}}
    assert EventSettings.from_dict(chosen).bye == ByeRule("fixed", 5)


# docs/clubnight.md's victory-point table, both edges of every band (totals are multiples of 5).
@pytest.mark.parametrize(
    ("difference", "split"),
    [
        (0, (10, 10)),
        (100, (10, 10)),
        (105, (11, 9)),
        (300, (11, 9)),
        (305, (12, 8)),
        (500, (12, 8)),
        (505, (13, 7)),
        (750, (13, 7)),
        (755, (14, 6)),
        (1000, (14, 6)),
        (1005, (15, 5)),
        (1300, (15, 5)),
        (1301, (16, 4)),  # docs/clubnight.md: 1,301 to 1,600 is 16-4 either way
        (1305, (16, 4)),
        (1600, (16, 4)),
        (1605, (17, 3)),
        (2000, (17, 3)),
        (2005, (18, 2)),
        (2500, (18, 2)),
        (2505, (19, 1)),
        (3000, (19, 1)),
        (3005, (20, 0)),
        (12000, (20, 0)),
    ],
)
def test_victory_point_band_edges(difference, split):
    assert VictoryPoints().split(difference) == split
    assert VictoryPoints().split(-difference) == split  # the difference either way round


def test_the_table_in_force_prints_as_club_night_md_shows_it():
    assert VictoryPoints().rows() == (
        (0, 100, 10, 10),
        (105, 300, 11, 9),
        (305, 500, 12, 8),
        (505, 750, 13, 7),
        (755, 1000, 14, 6),
        (1005, 1300, 15, 5),
        (1305, 1600, 16, 4),
        (1605, 2000, 17, 3),
        (2005, 2500, 18, 2),
        (2505, 3000, 19, 1),
        (3005, None, 20, 0),
    )


def test_an_edited_table_is_used_and_kept():
    # A Burraco-sized table: the same 20-point split with smaller bands.
    bands = [[10, 10], [30, 11], [60, 12], [100, 13], [150, 14]]
    settings = EventSettings.from_dict({**NIGHT, "victory_points": {"bands": bands}})
    assert settings.victory_points.split(30) == (11, 9)
    assert settings.victory_points.split(35) == (12, 8)
    assert settings.victory_points.split(155) == (20, 0)
    assert settings.to_dict()["victory_points"] == {"total": 20, "bands": bands}


def test_the_event_keeps_what_it_was_created_with():
    chosen = {
        **NIGHT,
        "variant": "samba",
        "house_rules": {"target": 15000},
        "rounds": 5,
        "round_length": {"kind": "hands", "value": 4, "warning": None},
        "first_round": "as_entered",
        "movement": "swiss",
        "scoring": "match_points",
        "bye": {"kind": "average", "score": 1},
        "no_show": "margin",
        "no_show_margin": 1000,
        "at_time": "score_as_it_stands",
        "tie_breaks": ["points_won", "matches_won", "point_balance", "head_to_head"],
        "final_table": 4,
        "season": {"points": "score", "best": None, "name": "Autumn 2026"},
    }
    settings = EventSettings.from_dict(chosen)
    stored = json.loads(json.dumps(settings.to_dict()))  # plain JSON, as the store will keep it
    assert {name: value for name, value in stored.items() if name != "victory_points"} == chosen
    assert EventSettings.from_dict(stored) == settings
    assert settings.rules.target == 15000


def test_a_default_written_out_stays_when_the_defaults_move():
    stored = EventSettings.from_dict(NIGHT).to_dict()
    assert stored["bye"] == {"kind": "fixed", "score": 12}
    assert stored["victory_points"]["bands"][0] == [100, 10]
    assert stored["season"] == {"points": "placement", "best": 8, "name": ""}


@pytest.mark.parametrize(
    ("changed", "field"),
    [
        ({"rounds": 0}, "rounds"),
        ({"rounds": "three"}, "rounds"),
        ({"rounds": True}, "rounds"),
        ({"movement": "howell"}, "movement"),
        ({"first_round": "seeded"}, "first_round"),
        ({"scoring": "imps"}, "scoring"),
        ({"at_time": "stop"}, "at_time"),
        ({"date": "26/11/2026"}, "date"),
        ({"name": "  "}, "name"),
        ({"variant": "classic-3p"}, "variant"),  # three sides at a table
        ({"variant": "classic-5p"}, "variant"),  # a pair against a trio
        ({"variant": "whist"}, "variant"),
        ({"colour": "red"}, "colour"),
        ({"tie_breaks": ["coin toss"]}, "tie_breaks[0]"),
        ({"tie_breaks": ["matches_won", "matches_won"]}, "tie_breaks"),
        ({"tie_breaks": "matches_won"}, "tie_breaks"),
        ({"final_table": 1}, "final_table"),
        ({"no_show_margin": -5}, "no_show_margin"),
        ({"bye": {"kind": "half"}}, "bye.kind"),
        ({"bye": {"score": -1}}, "bye.score"),
        ({"bye": 12}, "bye"),
        ({"bye": {"colour": 1}}, "bye.colour"),
        ({"season": {"best": 0}}, "season.best"),
        ({"season": {"points": "medals"}}, "season.points"),
        ({"round_length": {"kind": "minutes", "value": 30, "warning": 30}}, "round_length.warning"),
        ({"round_length": {"kind": "hands", "value": 0}}, "round_length.value"),
        ({"victory_points": {"bands": [[100, 10], [50, 11]]}}, "victory_points.bands[1]"),
        ({"victory_points": {"bands": [[100, 10], [300, 9]]}}, "victory_points.bands[1]"),
        ({"victory_points": {"bands": [[100, 11]]}}, "victory_points.bands[0]"),
        ({"victory_points": {"bands": [[100, 10], [300, 21]]}}, "victory_points.bands[1]"),
        ({"victory_points": {"bands": []}}, "victory_points"),
        ({"victory_points": {"bands": [100, 10]}}, "victory_points.bands"),
        ({"victory_points": {"total": 1}}, "victory_points.total"),
        ({"victory_points": {"bands": [["a", 10]]}}, "victory_points.bands[0]"),
        ({"victory_points": {"bands": [[100, 10], [200.5, 11]]}}, "victory_points.bands[1]"),
        ({"victory_points": {"bands": [[100 * n, 10] for n in range(1, 52)]}}, "victory_points.bands"),
        ({"tie_breaks": ["matches_won"] * 5}, "tie_breaks"),
        ({"house_rules": []}, "house_rules"),
    ],
)
def test_a_bad_value_is_refused_naming_its_field(changed, field):
    with pytest.raises(InvalidError) as raised:
        EventSettings.from_dict({**NIGHT, **changed})
    assert field in [violation.field for violation in raised.value.violations]
    assert all(isinstance(violation.message, Text) for violation in raised.value.violations)


def test_every_bad_value_is_named_at_once():
    with pytest.raises(InvalidError) as raised:
        EventSettings.from_dict({**NIGHT, "rounds": 0, "movement": "howell", "bye": {"kind": "half"}})
    assert [violation.field for violation in raised.value.violations] == ["bye.kind", "rounds", "movement"]


def test_house_rules_are_checked_by_the_rules_core():
    with pytest.raises(InvalidError) as raised:
        EventSettings.from_dict({**NIGHT, "house_rules": {"target": 3}})
    assert all(violation.field.startswith("house_rules") for violation in raised.value.violations)


def test_settings_made_in_code_are_checked_too():
    with pytest.raises(InvalidError):
        EventSettings(name="Club", date="2026-11-26", rounds=0)
    with pytest.raises(InvalidError):
        VictoryPoints(bands=((100, 10), (100, 11)))


@pytest.mark.parametrize(("variant", "size"), [("classic", 2), ("samba", 2), ("classic-2p", 1), ("classic-6p-2x3", 3)])
def test_entrants_are_pairs_or_single_players_as_the_variant_seats_them(variant, size):
    # docs/clubnight.md "Words", Entrant: a pair in partnership variants, a player where each plays alone.
    assert EventSettings.from_dict({**NIGHT, "variant": variant}).entrant_size == size


def test_every_choice_has_words_for_the_organiser():
    from scorepad.club.core import settings as module

    codes = {
        *module.FIRST_ROUNDS,
        *module.MOVEMENTS,
        *module.SCORINGS,
        *module.ROUND_LENGTHS,
        *module.AT_TIME,
        *module.BYE_KINDS,
        *module.TIE_BREAKS,
        *module.SEASON_POINTS,
        *module.NO_SHOWS,
    }
    assert codes == set(CHOICE_LABELS)
    assert all(isinstance(label, Text) for label in CHOICE_LABELS.values())


def test_hostile_settings_cost_no_more_than_their_size():
    # Pitfall 22: a flood of unknown names or a huge value gives a short, flat answer.
    flood = {**NIGHT, **{f"x{n}": n for n in range(100_000)}, 7: "seven", "movement": "m" * 40_000}
    with pytest.raises(InvalidError) as raised:
        EventSettings.from_dict(flood)
    violations = raised.value.violations
    assert len(violations) == 6  # five unknown names, then the movement
    assert len(str(violations[-1].message)) < 200


def test_every_setting_is_described_in_the_docs():
    from dataclasses import fields
    from pathlib import Path

    doc = (Path(__file__).parents[1] / "docs" / "clubnight.md").read_text()
    for spec in fields(EventSettings):
        if spec.name not in ("name", "date"):
            assert f"`{spec.name}`" in doc, f"docs/clubnight.md does not describe {spec.name}"
    from scorepad.club.core import settings as module

    for code in (*module.MOVEMENTS, *module.SCORINGS, *module.AT_TIME, *module.TIE_BREAKS):
        assert f"`{code}`" in doc, f"docs/clubnight.md does not name the choice {code}"
