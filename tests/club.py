"""What the club night tests share: the organiser's app and sign-in, a night's settings, and the
one way a test starts a night (:func:`start_night`, the ``started_night`` fixture in conftest.py).

Every step goes through the organiser's pages, as a club would: create the night, enter the
pairs, seat round 1, start it.
"""

from __future__ import annotations

from dataclasses import dataclass

from support import fresh_app

from scorepad.db import connect
from scorepad.store import club as clubstore

PASSPHRASE = "long table long night"
SETTINGS = {
    "name": "Thursday club",
    "date": "2026-11-26",
    "variant": "classic",
    "rounds": "2",
    "round_length": "minutes",
    "length_value": "50",
    "warning": "10",
    "at_time": "finish_hand",
    "first_round": "as_entered",
    "movement": "mitchell",
    "scoring": "victory_points",
    "victory_points": "100: 10\n300: 11\n500: 12\n750: 13\n1000: 14\n1300: 15\n1600: 16\n2000: 17\n2500: 18\n3000: 19",
    "bye_score": "12",
    "no_show": "bye",
    "no_show_margin": "1500",
    "tie_break_1": "matches_won",
    "tie_break_2": "point_balance",
    "tie_break_3": "head_to_head",
    "tie_break_4": "",
    "season_points": "placement",
    "season_best": "8",
}


def club_app(folder):
    """An app in organiser mode (the passphrase set), CSRF off, on a fresh database in ``folder``."""
    return fresh_app(folder, ORGANISER_PASSPHRASE=PASSPHRASE)


def signed_in(app):
    """A browser signed in as the organiser."""
    client = app.test_client()
    assert client.post("/organiser", data={"passphrase": PASSPHRASE}).status_code == 303
    return client


def new_night(organiser, **changes):
    """A new night with :data:`SETTINGS` and ``changes``; returns its id."""
    response = organiser.post("/nights/new", data={**SETTINGS, **changes})
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[1]


def enter(organiser, event_id, *names):
    for name in names:
        assert organiser.post(f"/nights/{event_id}/entrants", data={"name": name}).status_code == 303


def night_rows(app, event_id):
    """The night as stored now: its event, its rounds and its table cards."""
    db = connect(app.config["DATABASE"])
    try:
        return clubstore.get_event(db, event_id), clubstore.rounds(db, event_id), clubstore.cards(db, event_id)
    finally:
        db.close()


@dataclass(frozen=True)
class StartedNight:
    """A night whose round 1 is seated and started: what its tests reach it by."""

    event_id: str
    standings_token: str
    cards: dict[int, str]  # table number -> its card's token
    matches: dict[int, str]  # round 1's table number -> its match (a bye table has none)


def start_night(app, organiser, *names, **changes):
    """A night of ``names`` entered in that order (:data:`SETTINGS` with ``changes``), round 1 seated
    as entered (table 1: the first two, …) and started."""
    event_id = new_night(organiser, **changes)
    enter(organiser, event_id, *names)
    assert organiser.post(f"/nights/{event_id}/rounds").status_code == 303
    assert organiser.post(f"/nights/{event_id}/rounds/1/start").status_code == 303
    event, rounds, cards = night_rows(app, event_id)
    assert rounds[0].started, "round 1 did not start"
    matches = {table.number: table.match_id for table in rounds[0].tables if table.match_id}
    return StartedNight(event_id, event.standings_token, cards, matches)
