"""A whole club night in Chromium (issue 23): three rounds of four tables, run by the organiser on a
laptop, played from the table cards on phones, with a late arrival, a disputed result, a time-out
and a correction of round 1 made during round 3; the standings are checked by hand.

Every table plays one hand. support.HAND scores 1220 for North-South (620 melded, a natural canasta,
going out) and 165 for East-West (260 - 95 in hand): a difference of 1055, which the default
victory-point table (1,005-1,300) splits 15-5. HAND_EW is the same hand won by East-West. A bye
scores 12.

Round 1 (as entered): T1 P1 v P2 (NS wins), T2 P3 v P4 (EW), T3 P5 v P6 (NS; P6 disputes, the
director lets it stand), T4 P7 v P8 (NS).
P9 arrives before round 2 starts: a table of their own, a bye (12).
Round 2 (Mitchell, East-West up one table): T1 P1 v P8 (NS), T2 P3 v P2 (EW), T3 P5 v P4 (NS),
T4 P7 v P6 (EW; time runs out before it is entered, and the table shows late), T5 P9 bye.
Round 3: T1 P1 bye, T2 P3 v P8 (NS), T3 P5 v P2 (NS), T4 P7 v P4 (EW), T5 P9 v P6 (NS).
During round 3 the organiser corrects round 1's T1: P2 had no cards left in hand, so East-West
scored 260 and the difference is 960: 14-6 instead of 15-5. P8 is penalised 1 for lateness.

    P1 14 + 15 + 12 = 41     P4 15 + 5 + 15 = 35     P7 15 + 5 + 5 = 25
    P2  6 + 15 +  5 = 26     P5 15 + 15 + 15 = 45    P8 5 + 5 + 5 - 1 = 14
    P3  5 +  5 + 15 = 25     P6  5 + 15 +  5 = 25    P9 12 + 15 = 27

P3, P6 and P7 are level on 25, on one win each and on a balance of -1055 each, and none of them
met: they share sixth place.
"""

import json
import re

import club
import pytest
from playwright.sync_api import expect
from support import AS_SERVED, HAND, matrix

from browser.test_axe_browser import axe_script, axe_violations  # noqa: F401  (axe_script is a fixture)
from browser.test_match_flow_browser import open_form, settled
from scorepad import create_app
from scorepad.db import connect

PASSPHRASE = club.PASSPHRASE  # the club tests' sign-in (club.signed_in)
HAND_EW = {
    "sides-1-melded_points": "620",
    "sides-1-canasta_natural": "1",
    "sides-1-went_out": "y",
    "sides-0-melded_points": "260",
    "sides-0-hand_points": "95",
}
LAPTOP = {"width": 1920, "height": 1080}
EXPECTED = [
    ("1", "P5", "45"), ("2", "P1", "41"), ("3", "P4", "35"), ("4", "P9", "27"), ("5", "P2", "26"),
    ("=6", "P3", "25"), ("=6", "P6", "25"), ("=6", "P7", "25"), ("9", "P8", "14"),
]  # fmt: skip


@pytest.fixture
def live_app(make_app):
    return make_app(**AS_SERVED, ORGANISER_PASSPHRASE=PASSPHRASE)


@pytest.fixture
def laptop(browser, live_server):
    context = browser.new_context(viewport=LAPTOP)
    yield context.new_page()
    context.close()


def sign_in(page, live_server):
    page.goto(f"{live_server}/organiser")
    page.fill("#passphrase", PASSPHRASE)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".flash")).to_contain_text("Signed in as the organiser")


def create_night(page, live_server, rounds=3):
    page.goto(f"{live_server}/organiser")
    page.get_by_role("link", name="Club nights").click()
    page.get_by_role("link", name="New club night").click()
    page.fill("#name", "Thursday club")
    page.fill("#date", "2026-11-26")
    page.fill("#rounds", str(rounds))
    page.select_option("#first_round", "as_entered")
    page.get_by_role("button", name="Create the night").click()
    expect(page.locator(".flash")).to_contain_text("The night is ready")


def enter(page, *names):
    for name in names:
        page.fill("#name", name)
        page.get_by_role("button", name="Add", exact=True).click()
        expect(page.locator(".flash")).to_contain_text(f"{name} joined the night.")


def press(page, button):
    page.get_by_role("button", name=button).click()
    settled(page)


def card_links(page):
    """The table cards' addresses, by table number, read from the printable cards."""
    page.get_by_role("link", name="Table cards").click()
    expect(page.locator(".table-card").first).to_be_visible()
    links = {}
    for card in page.locator(".table-card").all():
        number = int(re.search(r"\d+", card.locator("figcaption").inner_text())[0])
        links[number] = card.locator("small").inner_text().strip()
    page.go_back()
    return links


def play_hand(phone, card, hand):
    """At the table: the card's address opens the sheet; the hand goes in through the form."""
    phone.goto(card)
    expect(phone.locator("#club-banner")).to_be_visible()
    open_form(phone, re.compile("^Enter hand"))
    for name, value in hand.items():
        if value == "y":
            phone.check(f"#{name}")
        else:
            phone.fill(f"#{name}", value)
    phone.get_by_role("button", name="Save hand").click()
    expect(phone.locator("#sheet [data-total]").first).not_to_have_text("0")


def pair_link(laptop, entrant):
    """An entrant's pair card address, read from the organiser's printable pair cards."""
    laptop.get_by_role("link", name="Pair cards").click()
    link = laptop.locator(".pair-card", has=laptop.locator("figcaption", has_text=entrant)).locator("small")
    found = link.inner_text().strip()
    laptop.go_back()
    return found


def confirm(phone, card, entrant):
    phone.goto(card)
    phone.get_by_role("link", name="Confirm the result").click()
    phone.get_by_role("button", name=f"{entrant} agrees").click()
    expect(phone.locator(".flash")).to_contain_text("your side confirmed the result")


def state_of(page, table):
    return page.locator(f"#table-{table} .state").inner_text()


def run_out_the_clock(live_app, round_number):
    """The round's 50 minutes are over: the test moves the end into the past rather than wait."""
    db = connect(live_app.config["DATABASE"])
    try:
        db.execute("update club_rounds set ends = ? where number = ?", ["2000-01-01T00:00:00+00:00", round_number])
        db.conn.commit()
    finally:
        db.close()


def standings_rows(page):
    rows = page.locator("table.standings tbody tr")
    return [
        (row.locator(".place").inner_text(), row.locator(".entrant").inner_text().split()[0],
         row.locator(".score").inner_text())
        for row in rows.all()
    ]  # fmt: skip


def play_round_one(laptop, phone, other_phone, cards):
    play_hand(phone, cards[1], HAND)
    play_hand(phone, cards[2], HAND_EW)
    play_hand(phone, cards[3], HAND)
    play_hand(phone, cards[4], HAND)
    confirm(phone, cards[1], "P1")
    # The phone is P1's now: it cannot agree for P2, who confirm on their own phone.
    expect(phone.locator(".other-side")).to_contain_text("P2 confirm on their own phone.")
    expect(phone.get_by_role("button", name="P2 agrees")).to_have_count(0)
    # East-West's phone holding only the table card cannot confirm P2 either: the card confirmed P1's side.
    other_phone.goto(cards[1])
    other_phone.get_by_role("link", name="Confirm the result").click()
    expect(other_phone.locator(".other-side")).to_contain_text(
        "P2 confirm on their own phone (their pair card), or the director settles the result."
    )
    expect(other_phone.get_by_role("button", name="P2 agrees")).to_have_count(0)
    other_phone.goto(pair_link(laptop, "P2"))  # ... until it scans P2's pair card: it is P2's phone now
    expect(other_phone.locator("#pair-phone")).to_contain_text("This phone is P2’s tonight")
    confirm(other_phone, cards[1], "P2")
    expect(other_phone.locator(".confirmed").first).to_contain_text("Both sides confirmed this result.")
    phone.goto(cards[3])
    phone.get_by_role("link", name="Confirm the result").click()
    phone.fill("#note", "They counted our red three twice")
    phone.get_by_role("button", name="We do not agree: call the director").click()
    expect(phone.locator(".disputed")).to_contain_text("the director is coming")
    laptop.reload()
    assert state_of(laptop, 1) == "Finished" and "Disputed" in state_of(laptop, 3)
    assert "They counted our red three twice" in state_of(laptop, 3)
    laptop.locator("#table-3").get_by_role("button", name="Accept the result").click()
    expect(laptop.locator(".flash")).to_contain_text("Round 1, table 3: the result stands.")


def play_round_two(laptop, phone, live_app, cards):
    play_hand(phone, cards[1], HAND)
    play_hand(phone, cards[2], HAND_EW)
    play_hand(phone, cards[3], HAND)
    run_out_the_clock(live_app, 2)  # table 4 is still playing its hand
    laptop.reload()
    assert state_of(laptop, 4) == "Late" and state_of(laptop, 5) == "Bye"
    phone.goto(cards[4])
    expect(phone.locator("#club-banner .clock")).to_contain_text("Time!")
    expect(phone.locator("#club-banner .clock")).to_contain_text("the hand in progress is played to its end")
    play_hand(phone, cards[4], HAND_EW)


def correct_round_one(laptop):
    """The organiser corrects round 1's table 1 from the dashboard, then notes why."""
    dashboard = laptop.url
    laptop.locator("#seatings details").first.locator("summary").click()
    laptop.locator("#seatings details").first.get_by_role("link", name="Sheet").first.click()
    laptop.get_by_role("link", name="Hand 1 in detail").click()
    open_form(laptop, "Correct this hand")
    laptop.fill("#sides-1-hand_points", "0")
    laptop.get_by_role("button", name="Save correction").click()
    expect(laptop.locator(".flash")).to_contain_text("Hand 1 corrected.")
    laptop.goto(dashboard)
    laptop.fill("#correction-round", "1")
    laptop.fill("#correction-table", "1")
    laptop.fill("#correction-text", "P2 had no cards left in hand")
    press(laptop, "Record the correction")
    expect(laptop.locator(".flash")).to_contain_text("The correction's reason is recorded.")


def test_a_whole_club_night(browser, laptop, live_server, live_app, page):
    phone = page  # 390 px
    sign_in(laptop, live_server)
    create_night(laptop, live_server)
    enter(laptop, *[f"P{n}" for n in range(1, 9)])
    press(laptop, "Seat round 1")
    cards = card_links(laptop)
    assert sorted(cards) == [1, 2, 3, 4]
    press(laptop, "Start round 1")
    other_phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()  # East-West's own phone
    play_round_one(laptop, phone, other_phone, cards)
    other_phone.context.close()

    # Tables 2 and 4 have not confirmed: the director seats round 2 anyway, while they finish.
    laptop.get_by_label("Seat it even if a result is missing or disputed").check()
    press(laptop, "Seat round 2")
    enter(laptop, "P9")  # late, before round 2 starts: a table of their own
    expect(laptop.locator("#table-5")).to_contain_text("P9")
    cards = card_links(laptop)
    phone.goto(cards[1])  # round 1's sheet until round 2 starts, which it announces
    expect(phone.locator("#next-round")).to_contain_text("Round 2 at this table: P1 – P8")
    phone.goto(cards[5])
    expect(phone.locator("#table-waits")).to_contain_text("P9")
    press(laptop, "Start round 2")
    play_round_two(laptop, phone, live_app, cards)

    press(laptop, "Seat round 3")
    expect(laptop.locator(".flash")).to_contain_text("Round 2 has no result yet at table 1, 2, 3, 4")
    press(laptop, "Close round 2")
    press(laptop, "Seat round 3")
    press(laptop, "Start round 3")
    phone.goto(cards[1])
    expect(phone.locator("#table-waits")).to_contain_text("P1 does not play")
    for table, hand in ((2, HAND), (3, HAND), (4, HAND_EW), (5, HAND)):
        play_hand(phone, cards[table], hand)
    correct_round_one(laptop)
    laptop.select_option("#adjustment-entrant", "P8")
    laptop.fill("#adjustment-round", "2")
    laptop.fill("#adjustment-amount", "-1")
    laptop.fill("#adjustment-reason", "Late to the table")
    press(laptop, "Record the adjustment")

    laptop.get_by_role("link", name="Standings screen").click()
    expect(laptop.locator("table.standings tbody tr")).to_have_count(9)
    assert standings_rows(laptop) == EXPECTED
    the_screen_reads_across_a_room(laptop)
    the_phone_shows_the_standings(phone, laptop.url.removesuffix("/screen"))


def the_screen_reads_across_a_room(screen):
    size = screen.evaluate("parseFloat(getComputedStyle(document.querySelector('.standings td.score')).fontSize)")
    assert size >= 36, f"the projector's scores are {size}px"
    assert screen.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert screen.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")


def the_phone_shows_the_standings(phone, url):
    phone.goto(url)
    expect(phone.locator("table.standings tbody tr")).to_have_count(9)
    assert standings_rows(phone) == EXPECTED
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_night_runs_without_javascript(no_js_page, live_server):
    page = no_js_page
    sign_in(page, live_server)
    create_night(page, live_server, rounds=2)  # a Mitchell of two tables: two rounds
    enter(page, "Ann & Bob", "Cy & Di", "Ed & Flo")
    page.get_by_role("button", name="Seat round 1").click()
    expect(page.locator("#table-2")).to_contain_text("Ed & Flo")  # the odd one out: a bye table
    page.get_by_role("button", name="Start round 1").click()
    expect(page.locator(".flash")).to_contain_text("Round 1 has started.")
    assert state_of(page, 1) == "Playing" and state_of(page, 2) == "Bye"
    page.get_by_role("link", name="Print the seating").click()
    expect(page.locator("#seating-1 tbody tr").nth(1)).to_contain_text("Ed & Flo")
    page.emulate_media(media="print")  # on paper: the page's bar and the help line stay off
    expect(page.locator(".paper-help")).to_be_hidden()
    page.emulate_media(media="screen")
    page.go_back()
    page.get_by_role("link", name="Standings screen").click()
    expect(page.locator("table.standings tbody tr")).to_have_count(3)
    expect(page.locator(".provisional")).to_contain_text("Provisional: a table is still playing.")
    expect(page.locator("table.standings tbody tr").first).to_contain_text("Ed & Flo")  # the bye's 12 so far


LANGUAGES = ["en", "es", "pt-BR", "de"]
FITS = "document.documentElement.scrollWidth <= window.innerWidth"


@pytest.fixture
def seeded_night(live_app, live_server):
    """A night in its second round, seeded through the pages: the addresses every club page has."""
    client = create_app({**live_app.config, "TESTING": True, "WTF_CSRF_ENABLED": False}).test_client()
    client.post("/organiser", data={"passphrase": PASSPHRASE})
    event_id = client.post(
        "/nights/new",
        data={"name": "Donnerstagsclub im Gemeindehaus", "date": "2026-11-26", "variant": "classic", "rounds": "3",
              "round_length": "minutes", "length_value": "50", "warning": "10", "at_time": "score_as_it_stands",
              "first_round": "as_entered", "movement": "mitchell", "scoring": "victory_points",
              "victory_points": "100: 10\n300: 11\n3000: 19", "bye_score": "12", "no_show_margin": "1500",
              "tie_break_1": "matches_won", "tie_break_2": "point_balance", "tie_break_3": "head_to_head",
              "tie_break_4": "", "season_points": "placement", "season_best": "8"},
    ).headers["Location"].rsplit("/", 1)[1]  # fmt: skip
    for name in ("Wolfeschlegelsteinhausen & Bergerdorff", "Ana & Ben", "Cy & Di", "Ed & Flo", "Gil"):
        client.post(f"/nights/{event_id}/entrants", data={"name": name, "players": name.replace("&", ",")})
    client.post(f"/nights/{event_id}/rounds")
    client.post(f"/nights/{event_id}/rounds/1/start")
    client.post(f"/nights/{event_id}/announcements", data={"announcement-text": "Kaffee und Kuchen in der Pause"})
    page = client.get(f"/nights/{event_id}").get_data(as_text=True)
    match_id = re.search(r"/matches/([0-9a-f]{32})", page)[1]
    client.post(f"/matches/{match_id}/hands", data={**HAND, "version": "1"})
    db = connect(live_app.config["DATABASE"])
    try:
        from scorepad.store import club as clubstore

        event = clubstore.get_event(db, event_id)
        card = clubstore.cards(db, event_id)[1]
    finally:
        db.close()
    return {
        "dashboard": f"/nights/{event_id}",
        "new night": "/nights/new",
        "table cards": f"/nights/{event_id}/cards",
        "printed seating": f"/nights/{event_id}/print/seating",
        "printed results": f"/nights/{event_id}/print/results",
        "season": "/nights/season",
        "standings": f"/standings/{event.standings_token}",
        "screen": f"/standings/{event.standings_token}/screen",
        "result": f"/tables/{card}/result",
        "sheet": f"/matches/{match_id}",
    }


@pytest.mark.parametrize("language", matrix(LANGUAGES, quick=["de"]))
def test_every_club_page_fits_a_phone_and_a_projector_in_every_language(browser, live_server, seeded_night, language):
    problems = []
    for viewport in (PHONE_VIEWPORT, LAPTOP):
        context = browser.new_context(viewport=viewport, locale=language)
        page = context.new_page()
        sign_in_quietly(page, live_server)
        for name, path in seeded_night.items():
            page.goto(f"{live_server}{path}")
            settled(page)
            if not page.evaluate(FITS):
                problems.append(
                    f"{name} at {viewport['width']}px: {page.evaluate('document.documentElement.scrollWidth')}"
                )
        context.close()
    assert not problems, problems


PHONE_VIEWPORT = {"width": 390, "height": 844}


def sign_in_quietly(page, live_server):
    page.goto(f"{live_server}/organiser")
    page.fill("#passphrase", PASSPHRASE)
    page.locator("form button.primary").click()
    expect(page.locator(".flash")).to_be_visible()


@pytest.mark.parametrize("scheme", matrix(["light", "dark"], quick=["dark"]))
def test_no_axe_violations_on_the_club_pages(browser, live_server, seeded_night, axe_script, scheme):  # noqa: F811
    # The pages' policy allows no inline script; axe is injected as one, so this context bypasses it.
    context = browser.new_context(viewport=PHONE_VIEWPORT, color_scheme=scheme, bypass_csp=True)
    page = context.new_page()
    sign_in_quietly(page, live_server)
    found = {}
    for name, path in seeded_night.items():
        page.goto(live_server + path)
        settled(page)
        result = axe_violations(page, axe_script)
        if result:
            found[name] = result
    context.close()
    assert not found, json.dumps(found, indent=1, ensure_ascii=False)


def test_a_long_standings_list_rolls_itself_on_the_projector(browser, live_app, live_server):
    client = create_app({**live_app.config, "TESTING": True, "WTF_CSRF_ENABLED": False}).test_client()
    client.post("/organiser", data={"passphrase": PASSPHRASE})
    response = client.post(
        "/nights/new",
        data={"name": "Big night", "date": "2026-11-26", "variant": "classic", "rounds": "3",
              "round_length": "minutes", "length_value": "50", "warning": "10", "at_time": "finish_hand",
              "first_round": "random", "movement": "mitchell", "scoring": "victory_points",
              "victory_points": "100: 10", "no_show_margin": "1500", "tie_break_1": "matches_won",
              "tie_break_2": "point_balance", "tie_break_3": "head_to_head", "tie_break_4": "",
              "season_points": "placement", "season_best": "8"},
    )  # fmt: skip
    event_id = response.headers["Location"].rsplit("/", 1)[1]
    for number in range(40):
        client.post(f"/nights/{event_id}/entrants", data={"name": f"Pair {number + 1}"})
    token = re.search(r"/standings/([0-9a-f]{32})", client.get(f"/nights/{event_id}").get_data(as_text=True))[1]
    context = browser.new_context(viewport=LAPTOP)
    screen = context.new_page()
    screen.goto(f"{live_server}/standings/{token}/screen")
    expect(screen.locator("table.standings tbody tr")).to_have_count(40)
    # The page itself never scrolls: the list inside it rolls up and back by CSS.
    assert screen.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")
    assert screen.evaluate("getComputedStyle(document.querySelector('.screen-roll')).animationName") == "roll"
    assert screen.evaluate("document.querySelector('.screen-roll').scrollHeight > window.innerHeight")
    context.close()
