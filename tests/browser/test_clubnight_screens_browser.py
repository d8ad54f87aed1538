# ruff: noqa: F811  (the fixture live_app comes from test_clubnight_browser: the organiser's app)
"""The projector at 1920x1080 from 2 to 40 entrants (issue 30): every row one line, and every row on the
screen or reached by the roll; between rounds the next round's seating comes first. Screenshots go to
``SCOREPAD_SHOTS`` when it is set (to look at them)."""

import os
import re
from pathlib import Path

import club
import pytest
from playwright.sync_api import expect
from support import HAND, matrix

from browser.test_clubnight_browser import LAPTOP, PASSPHRASE, live_app  # noqa: F401  (the organiser's app)
from browser.test_match_flow_browser import settled
from scorepad import create_app

NAMES = [
    "Wolfeschlegelsteinhausen & Bergerdorff", "Conceição & João", "Dvořák & Čapek", "Amélie & Théo",
    "Łukasz & Małgorzata", "Ana & Ben", "Käthe & Jürgen", "Íñigo & José María",
]  # fmt: skip


def shot(page, name):
    folder = os.environ.get("SCOREPAD_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


def night_of(live_app, count, between_rounds):
    """A night of ``count`` pairs with long names and their players: round 1 played at its first table,
    and (``between_rounds``) round 2 seated and not started."""
    client = create_app({**live_app.config, "TESTING": True, "WTF_CSRF_ENABLED": False}).test_client()
    client.post("/organiser", data={"passphrase": PASSPHRASE})
    response = client.post(
        "/nights/new",
        data={"name": "Donnerstagsclub im Gemeindehaus Sankt Georg", "date": "2026-11-26", "variant": "classic",
              "rounds": "2", "round_length": "minutes", "length_value": "50", "warning": "10",
              "at_time": "finish_hand", "first_round": "as_entered", "movement": "swiss",
              "scoring": "victory_points", "victory_points": "100: 10\n300: 11\n3000: 19", "no_show_margin": "1500",
              "tie_break_1": "matches_won", "tie_break_2": "point_balance", "tie_break_3": "head_to_head",
              "tie_break_4": "", "season_points": "placement", "season_best": "8"},
    )  # fmt: skip
    event_id = response.headers["Location"].rsplit("/", 1)[1]
    for number in range(count):
        name = f"{NAMES[number % len(NAMES)]} {number + 1}"
        client.post(f"/nights/{event_id}/entrants", data={"name": name, "players": name.replace("&", ",")})
    client.post(f"/nights/{event_id}/rounds")
    client.post(f"/nights/{event_id}/rounds/1/start")
    client.post(f"/nights/{event_id}/announcements", data={"announcement-text": "Kaffee und Kuchen in der Pause"})
    board = client.get(f"/nights/{event_id}").get_data(as_text=True)
    match_id = re.search(r"/matches/([0-9a-f]{32})", board)[1]
    client.post(f"/matches/{match_id}/hands", data={**HAND, "version": "1"})
    if between_rounds:
        client.post(f"/nights/{event_id}/rounds/1/close")
        client.post(f"/nights/{event_id}/rounds")
    return re.search(r"/standings/([0-9a-f]{32})", board)[1]


# The roll's far end: its animation held at 90% of its first pass (it rests from 85%).
AT_THE_END = "(() => { const a = document.querySelector('.screen-roll').getAnimations()[0];" \
             " a.pause(); a.currentTime = a.effect.getTiming().duration * 0.9; })()"  # fmt: skip
ROWS = """[...document.querySelectorAll('table.standings tbody tr')].map(r => {
  const box = r.getBoundingClientRect(); return [box.top, box.bottom, box.height]; })"""


@pytest.mark.parametrize(
    ("count", "between_rounds"),
    matrix(
        [(count, between) for between in (False, True) for count in (2, 12, 16, 17, 40)],
        quick=[(2, True), (17, False), (40, True)],
        ids=[f"{count}-{label}" for label in ("playing", "between-rounds") for count in (2, 12, 16, 17, 40)],
    ),
)
def test_the_projector_fits_or_rolls_every_row(browser, live_app, live_server, count, between_rounds):
    token = night_of(live_app, count, between_rounds)
    context = browser.new_context(viewport=LAPTOP)
    screen = context.new_page()
    screen.goto(f"{live_server}/standings/{token}/screen")
    settled(screen)
    expect(screen.locator("table.standings tbody tr")).to_have_count(count)
    if between_rounds:
        expect(screen.locator("#next-seating li")).to_have_count((count + 1) // 2)
        expect(screen.locator("#next-seating h2")).to_contain_text("Round 2 of 2 — seating")
    assert screen.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")
    assert screen.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    size = screen.evaluate("parseFloat(getComputedStyle(document.querySelector('.standings td.score')).fontSize)")
    assert size >= 28, f"the projector's scores are {size}px with {count} entrants"
    rows = screen.evaluate(ROWS)
    heights = {round(height) for _, _, height in rows}
    assert max(heights) < 2 * size, f"a row wraps onto several lines: {heights} at {size}px"
    window = screen.locator(".screen-scroll").bounding_box()
    shot(screen, f"projector-{count}-{'between' if between_rounds else 'playing'}")
    if rows[-1][1] > window["y"] + window["height"] + 1:  # longer than the screen: the roll reaches the last row
        assert rows[0][0] >= window["y"] - 1  # it starts at the top
        screen.evaluate(AT_THE_END)
        last = screen.evaluate(ROWS)[-1]
        assert window["y"] - 1 <= last[0] and last[1] <= window["y"] + window["height"] + 1
        shot(screen, f"projector-{count}-{'between' if between_rounds else 'playing'}-end")
    else:  # it fits: nothing moves
        screen.evaluate(AT_THE_END)
        assert screen.evaluate(ROWS)[0][0] == rows[0][0]
    context.close()


def test_the_dashboard_keeps_up_by_itself(browser, live_app, live_server):
    """Issue 30: a dispute still read "Playing" 60 s later; now the dashboard shows it within its poll (5 s)."""
    app = create_app({**live_app.config, "TESTING": True, "WTF_CSRF_ENABLED": False})
    client = club.signed_in(app)
    names = ("Wolfeschlegelsteinhausen & Bergerdorff", "Conceição & João", "Dvořák & Čapek", "Amélie & Théo")
    night = club.start_night(app, client, *names, name="Tuesday")
    event_id, cards = night.event_id, night.cards
    for table, (viewport, name) in enumerate(((LAPTOP, "1920"), ({"width": 390, "height": 844}, "390")), start=1):
        context = browser.new_context(viewport=viewport)
        laptop = context.new_page()
        laptop.goto(f"{live_server}/organiser")
        laptop.fill("#passphrase", PASSPHRASE)
        laptop.locator("form button.primary").click()
        expect(laptop.locator(".flash")).to_be_visible()
        laptop.goto(f"{live_server}/nights/{event_id}")
        laptop.fill("#name", "Typed while the dashboard polls")  # what is typed elsewhere on the page stays
        expect(laptop.locator(f"#table-{table} .state")).to_have_text("Playing")
        note = f"Our canasta is missing ({name})"
        client.post(f"/tables/{cards[table]}/dispute", data={"note": note})  # a phone at the table, meanwhile
        expect(laptop.locator(f"#table-{table} .state")).to_contain_text(f"Disputed: {note}", timeout=12_000)
        expect(laptop.locator("#name")).to_have_value("Typed while the dashboard polls")
        assert laptop.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        shot(laptop, f"dashboard-updated-{name}")
        context.close()
