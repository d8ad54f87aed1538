# ruff: noqa: F811  (the fixtures app and organiser come from test_nights)
"""Screens that keep up (issue 30): the dashboard, the standings and the projector answer 204/304 from
the night's one version, and change when anything they show does, the clock's minutes included."""

import re

from club import night_rows
from support import HAND
from test_nights import app, organiser, play, run_out_the_clock  # noqa: F401  (app, organiser: fixtures)

from scorepad.db import connect
from scorepad.store import club as clubstore


def version_of(app, event_id):
    db = connect(app.config["DATABASE"])
    try:
        return clubstore.night_version(db, event_id=event_id)
    finally:
        db.close()


def poll_url(page, name):
    """The address a page's poll asks, as htmx reads it from the page."""
    return re.search(rf'hx-get="([^"]*{name}[^"]*)"', page)[1].replace("&amp;", "&")


def test_the_dashboard_polls_and_says_what_changed_at_a_table(app, organiser, started_night):
    event_id = started_night("A", "B", "C", "D", rounds="2").event_id
    board = organiser.get(f"/nights/{event_id}").get_data(as_text=True)
    poll = poll_url(board, "/live")
    version = version_of(app, event_id)
    assert poll == f"/nights/{event_id}/live?since={version}"
    assert organiser.get(poll, headers={"HX-Request": "true"}).status_code == 204  # nothing new
    # A table disputes on its phone: the next poll brings the round's tables with it.
    _, rounds, cards = night_rows(app, event_id)
    play(app.test_client(), rounds[0].tables[0].match_id, HAND)
    app.test_client().post(f"/tables/{cards[1]}/dispute", data={"note": "A canasta is missing"})
    answer = organiser.get(poll, headers={"HX-Request": "true"})
    assert answer.status_code == 200
    text = answer.get_data(as_text=True)
    assert re.search(r'id="table-1">.*?Disputed: <q>A canasta is missing</q>', text, re.S)
    assert 'id="standings" hx-swap-oob="true"' in text  # the standings come along, out of band
    # ... and asks from the new version on; a copy it already holds is 304.
    newer = poll_url(text, "/live")
    assert newer != poll and organiser.get(newer).status_code == 204
    assert organiser.get(poll, headers={"If-None-Match": answer.headers["ETag"]}).status_code == 304
    # Only the organiser's: a stranger's poll is refused like the dashboard.
    assert app.test_client().get(poll).status_code == 403


def test_the_dashboard_says_late_once_the_clock_runs_out_with_no_write(app, organiser, started_night):
    event_id = started_night("A", "B", rounds="1").event_id
    poll = poll_url(organiser.get(f"/nights/{event_id}").get_data(as_text=True), "/live")
    assert organiser.get(poll).status_code == 204
    run_out_the_clock(app, event_id, 1)  # the time passes; nothing is written to the night
    text = organiser.get(poll).get_data(as_text=True)
    assert re.search(r'id="table-1">.*?Late', text, re.S) and "Time!" in text


def test_the_standings_and_the_projector_answer_304_until_something_changes(app, organiser, started_night):
    event_id = started_night("A", "B", rounds="1").event_id
    event, rounds, _ = night_rows(app, event_id)
    phone = app.test_client()
    for page in (f"/standings/{event.standings_token}", f"/standings/{event.standings_token}/screen"):
        first = phone.get(page)
        assert first.status_code == 200 and first.headers["ETag"]
        assert phone.get(page, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    before = {page: phone.get(page).headers["ETag"] for page in (f"/standings/{event.standings_token}",)}
    play(app.test_client(), rounds[0].tables[0].match_id, HAND)
    for page, tag in before.items():
        changed = phone.get(page, headers={"If-None-Match": tag})
        assert changed.status_code == 200 and "1,220 : 165" in changed.get_data(as_text=True)


def test_the_standings_polls_are_204_while_nothing_changes(app, organiser, started_night):
    event_id = started_night("A", "B", rounds="1").event_id
    event, rounds, _ = night_rows(app, event_id)
    phone = app.test_client()
    for page, name in (("", "/live"), ("/screen", "/screen/live")):
        poll = poll_url(phone.get(f"/standings/{event.standings_token}{page}").get_data(as_text=True), name)
        assert phone.get(poll).status_code == 204
    play(app.test_client(), rounds[0].tables[0].match_id, HAND)
    assert phone.get(poll).status_code == 200


def test_the_projector_shows_the_next_rounds_seating_between_rounds(app, organiser, started_night):
    event_id = started_night("A", "B", "C", "D", rounds="2").event_id
    event, _, _ = night_rows(app, event_id)
    screen = f"/standings/{event.standings_token}/screen"
    assert 'id="next-seating"' not in organiser.get(screen).get_data(as_text=True)
    organiser.post(f"/nights/{event_id}/rounds", data={"override": "yes"})  # Mitchell: A v D, C v B
    page = organiser.get(screen).get_data(as_text=True)
    seating = re.search(r'id="next-seating">(.*?)</section>', page, re.S)[1]
    assert "Round 2 of 2" in seating
    lines = [re.sub(r"<[^>]+>", "", line).split() for line in re.findall(r"<li>(.*?)</li>", seating)]
    assert lines == [["Table", "1", "A", "D"], ["Table", "2", "C", "B"]]
    organiser.post(f"/nights/{event_id}/rounds/2/start")
    assert 'id="next-seating"' not in organiser.get(screen).get_data(as_text=True)
