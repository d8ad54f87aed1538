"""A whole club evening in Chromium (issue 30's last paragraph): 12 pairs and a late 13th over four
Mitchell rounds, two laptops at the desk, eight phones whose every answer takes 1.5 s, a dispute, a
correction of round 1 made during round 3, a penalty, the clock, a no-show, a withdrawal; then the
night exported, imported into a fresh database and compared on every surface; then a second night
and the season table. Every standing below is worked out by hand.

The hands (docs/rules.md, classic: natural canasta 500, mixed 300, red threes 100 each or 800 for all
four, going out 100, concealed 100 more, then melded points less points in hand; a side that has not
melded counts its red threes minus):

    A  NS: melded 720, natural + mixed canasta, 2 red threes, out   500+300+200+100+720 = 1820
       EW: melded 150, 85 in hand                                    150-85            =   65
       difference 1755: 17-3 (1,605-2,000)
    A' A corrected (round 1, table 1): NS's mixed canasta was never finished: 1820-300 = 1520;
       difference 1455: 16-4 (1,305-1,600)
    B  NS: melded 410, natural canasta, out                          500+100+410       = 1010
       EW: melded 380, mixed canasta, 1 red three, 40 in hand        300+100+380-40    =  740
       difference 270: 11-9 (105-300)
    C  EW went out concealed: melded 380, natural canasta            500+100+100+380   = 1080
       NS never melded: 1 red three (minus), 165 in hand             -100-165          = -265
       difference 1345: EW 16-4
    D  NS: melded 300, mixed canasta, out                            300+100+300       =  700
       EW: melded 660, natural canasta, 1 red three, 20 in hand      500+100+660-20    = 1240
       difference 540: EW 13-7 (505-750)
    E  NS: melded 900, two natural + a mixed canasta, all 4 red threes, out
                                                                     1000+300+800+100+900 = 3100
       EW never melded: 200 in hand                                  -200
       difference 3300: 20-0 (over 3,000)
    F  NS: melded 250, mixed canasta, out                            300+100+250       =  650
       EW: melded 420, 60 in hand                                    420-60            =  360
       difference 290: 11-9

A bye scores 12; a no-show gives the absent pair 0 and the pair present a bye's 12.

Round 1 (as entered): T1 P1-P2 A (17-3, corrected in round 3 to A': 16-4), T2 P3-P4 C (4-16),
  T3 P5-P6 B (11-9; P6 disputes, the director lets it stand), T4 P7-P8 D (7-13), T5 P9-P10 E (20-0),
  T6 P11-P12 F (11-9).
Round 2 (Mitchell: East-West move up a table, table 6's to table 1), seated on laptop 1 while laptop
  2 adds the late P13 (a table 7 of their own, a bye: 12), so laptop 1's Start is told what changed:
  T1 P1-P12 D (7-13), T2 P3-P2 B (11-9), T3 P5-P4 C (4-16), T4 P7-P6 A (17-3: entered after the
  clock ran out, the hand in progress, which counts), T5 P9-P8 F (11-9), T6 P11-P10 E (20-0),
  T7 P13 bye (12). P10 is penalised 1 in round 2 (slow play).
Round 3: T1 P1 bye (table 7's empty East-West seat moved to table 1: 12), T2 P3-P12 A (17-3),
  T3 P5-P2 D (7-13), T4 P7-P4 F (11-9), T5 P9-P6 (P6 does not come: 12-0), T6 P11-P8 B (11-9),
  T7 P13-P10 C (4-16). P8 withdraws after round 3.
Round 4: T1 P1-P10 E (20-0), T2 P3 bye (12), T3 P5-P12 B (11-9), T4 P7-P2 C (4-16), T5 P9-P4 D
  (7-13), T6 P11-P6 F (11-9), T7 P13 bye (P8 has withdrawn: 12).

    P1  16 +  7 + 12 + 20      = 55        P8   13 +  9 +  9 (withdrawn)  = 31
    P2   4 +  9 + 13 + 16      = 42        P9   20 + 11 + 12 +  7         = 50
    P3   4 + 11 + 17 + 12      = 44        P10   0 +  0 - 1 + 16 +  0     = 15
    P4  16 + 16 +  9 + 13      = 54        P11  11 + 20 + 11 + 11         = 53
    P5  11 +  4 +  7 + 11      = 33        P12   9 + 13 +  3 +  9         = 34
    P6   9 +  3 +  0 +  9      = 21        P13  12 +  4 + 12 (from round 2) = 28
    P7   7 + 17 + 11 +  4      = 39

Places: P1 55, P4 54, P11 53, P9 50, P3 44, P2 42, P7 39, P12 34, P5 33, P8 31, P13 28, P6 21, P10 15.

The second night (4 pairs, one round as entered): T1 P4-P1 A (P4 17, P1 3), T2 P2-"Nuno & Inês" C
(P2 4, Nuno & Inês 16). Season, placement points: night 1 has 13 entrants who played (first 13 ...
last 1), night 2 has 4. Conceição, João (P4): 12 + 4 = 16; Łukasz, José (P1): 13 + 1 = 14; Ólafur,
Þóra (P11): 11; Ğül, Şebnem (P9): 10; Dvořák, Čapek (P2): 8 + 2 = 10; Amélie, Théo (P3): 9.
"""

import csv
import io
import json
import re
import threading
import time

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from browser.conftest import PHONE, closing_when_dropped
from browser.test_match_flow_browser import settled
from scorepad import create_app
from scorepad.db import connect

pytestmark = pytest.mark.slow

PASSPHRASE = "long table long night"
DESK = {"width": 1280, "height": 800}
PROJECTOR = {"width": 1920, "height": 1080}
DELAY = 1.5  # every answer a phone gets, but static files (a phone has them)

PAIRS = {
    "P1": ("Łukasz & José", "Łukasz", "José"),
    "P2": ("Dvořák & Čapek", "Dvořák", "Čapek"),
    "P3": ("Amélie & Théo", "Amélie", "Théo"),
    "P4": ("Conceição & João", "Conceição", "João"),
    "P5": ("Käthe & Íñigo", "Käthe", "Íñigo"),
    "P6": ("Ana & Ben", "Ana", "Ben"),
    "P7": ("Søren & Åsa", "Søren", "Åsa"),
    "P8": ("Zoë & Noël", "Zoë", "Noël"),
    "P9": ("Ğül & Şebnem", "Ğül", "Şebnem"),
    "P10": ("Renée & Begoña", "Renée", "Begoña"),
    "P11": ("Ólafur & Þóra", "Ólafur", "Þóra"),
    "P12": ("Grzegorz & Bożena", "Grzegorz", "Bożena"),
    "P13": ("Müller & Straße", "Müller", "Straße"),
}
NAME = {key: pair[0] for key, pair in PAIRS.items()}


def side(index, melded, hand=0, natural=0, mixed=0, red=0, out=False, concealed=False):
    fields = {f"sides-{index}-melded_points": str(melded)}
    if hand:
        fields[f"sides-{index}-hand_points"] = str(hand)
    if natural:
        fields[f"sides-{index}-canasta_natural"] = str(natural)
    if mixed:
        fields[f"sides-{index}-canasta_mixed"] = str(mixed)
    if red:
        fields[f"sides-{index}-red_threes"] = str(red)
    if out:
        fields[f"sides-{index}-went_out"] = "y"
    if concealed:
        fields[f"sides-{index}-concealed"] = "y"
    return fields


# The hands of the module's docstring, North-South first, with the totals the sheet must show.
HANDS = {
    "A": ({**side(0, 720, natural=1, mixed=1, red=2, out=True), **side(1, 150, hand=85)}, ("1,820", "65")),
    "B": ({**side(0, 410, natural=1, out=True), **side(1, 380, hand=40, mixed=1, red=1)}, ("1,010", "740")),
    "C": ({**side(0, 0, hand=165, red=1), **side(1, 380, natural=1, out=True, concealed=True)}, ("-265", "1,080")),
    "D": ({**side(0, 300, mixed=1, out=True), **side(1, 660, hand=20, natural=1, red=1)}, ("700", "1,240")),
    "E": ({**side(0, 900, natural=2, mixed=1, red=4, out=True), **side(1, 0, hand=200)}, ("3,100", "-200")),
    "F": ({**side(0, 250, mixed=1, out=True), **side(1, 420, hand=60)}, ("650", "360")),
}

EXPECTED = [  # place, pair, score: the module's docstring
    ("1", "P1", "55"), ("2", "P4", "54"), ("3", "P11", "53"), ("4", "P9", "50"), ("5", "P3", "44"),
    ("6", "P2", "42"), ("7", "P7", "39"), ("8", "P12", "34"), ("9", "P5", "33"), ("10", "P8", "31"),
    ("11", "P13", "28"), ("12", "P6", "21"), ("13", "P10", "15"),
]  # fmt: skip
EXPECTED_ROWS = [(place, NAME[key], score) for place, key, score in EXPECTED]
ROUND_SCORES = {  # the CSV's round_1 .. round_4 (a round not played is empty)
    "P1": ("16", "7", "12", "20"), "P2": ("4", "9", "13", "16"), "P3": ("4", "11", "17", "12"),
    "P4": ("16", "16", "9", "13"), "P5": ("11", "4", "7", "11"), "P6": ("9", "3", "0", "9"),
    "P7": ("7", "17", "11", "4"), "P8": ("13", "9", "9", ""), "P9": ("20", "11", "12", "7"),
    "P10": ("0", "0", "16", "0"), "P11": ("11", "20", "11", "11"), "P12": ("9", "13", "3", "9"),
    "P13": ("", "12", "4", "12"),
}  # fmt: skip
# Which hand each table plays, round by round (None: a bye or a no-show, nothing to enter).
PLAYED = {
    1: {1: "A", 2: "C", 3: "B", 4: "D", 5: "E", 6: "F"},
    2: {1: "D", 2: "B", 3: "C", 5: "F", 6: "E"},  # table 4 plays A after the clock ran out
    3: {2: "A", 3: "D", 4: "F", 6: "B", 7: "C"},  # table 5: P6 never came
    4: {1: "E", 3: "B", 4: "C", 5: "D", 6: "F"},
}
SEATING = {  # Mitchell by hand: North-South stay, East-West move up one table (the last table's go to 1)
    2: {1: ("P1", "P12"), 2: ("P3", "P2"), 3: ("P5", "P4"), 4: ("P7", "P6"), 5: ("P9", "P8"), 6: ("P11", "P10")},
    3: {1: ("P1", None), 2: ("P3", "P12"), 3: ("P5", "P2"), 4: ("P7", "P4"), 5: ("P9", "P6"), 6: ("P11", "P8"),
        7: ("P13", "P10")},
    4: {1: ("P1", "P10"), 2: ("P3", None), 3: ("P5", "P12"), 4: ("P7", "P2"), 5: ("P9", "P4"), 6: ("P11", "P6"),
        7: ("P13", None)},
}  # fmt: skip


def slow_for_phones(app):
    """Phones (their requests carry X-Phone) wait 1.5 s for every answer; the desk's laptops do not."""

    def answer(environ, start_response):
        if environ.get("HTTP_X_PHONE") and not environ.get("PATH_INFO", "").startswith("/static/"):
            time.sleep(DELAY)
        return app(environ, start_response)

    return answer


class Server:
    def __init__(self, app):
        self.server = make_server("127.0.0.1", 0, closing_when_dropped(slow_for_phones(app)), threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


def app_on(path):
    return create_app({"DATABASE": str(path), "SECRET_KEY": "browser-tests", "ORGANISER_PASSPHRASE": PASSPHRASE})


@pytest.fixture
def club(browser, tmp_path):
    """The club's server and, for the import, a fresh one with a database of its own.

    Every laptop, phone and projector of the evening closes before the servers stop: a page left
    polling a stopped server would report its failed requests in whichever test runs next.
    """
    servers = {"club": app_on(tmp_path / "club.db"), "fresh": app_on(tmp_path / "fresh.db")}
    running = {name: Server(app) for name, app in servers.items()}
    yield {name: (servers[name], running[name].url) for name in servers}
    for context in list(browser.contexts):
        context.close()
    for server in running.values():
        server.stop()


def laptop(browser, url):
    page = browser.new_context(viewport=DESK).new_page()
    page.goto(f"{url}/organiser")
    page.fill("#passphrase", PASSPHRASE)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".flash")).to_contain_text("Signed in as the organiser")
    return page


def phone(browser):
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, extra_http_headers={"X-Phone": "1"}
    )
    return context.new_page()


def press(page, button):
    page.get_by_role("button", name=button, exact=True).click()
    settled(page)


def flash(page, text):
    expect(page.locator(".flashes")).to_contain_text(text)


def create_night(desk, url, name, rounds):
    desk.goto(f"{url}/nights/new")
    desk.fill("#name", name)
    desk.fill("#date", "2026-11-26")
    desk.fill("#rounds", str(rounds))
    desk.select_option("#first_round", "as_entered")
    desk.select_option("#movement", "mitchell")
    desk.fill("#season_name", "Autumn 2026")
    press(desk, "Create the night")
    flash(desk, "The night is ready")
    return desk.url


def enter(desk, key, pairs=PAIRS):
    name, first, second = pairs[key]
    desk.fill("#name", name)
    desk.fill("#player_1", first)
    desk.fill("#player_2", second)
    press(desk, "Add")
    flash(desk, f"{name} joined the night.")


def cards_of(desk):
    """The table cards' addresses by table number, read from the printable cards."""
    dashboard = desk.url
    desk.get_by_role("link", name="Table cards").click()
    expect(desk.locator(".table-card").first).to_be_visible()
    links = {}
    for card in desk.locator(".table-card").all():
        number = int(re.search(r"\d+", card.locator("figcaption").inner_text())[0])
        links[number] = card.locator("small").inner_text().strip()
    desk.goto(dashboard)
    return links


def pair_card(desk, key):
    dashboard = desk.url
    desk.get_by_role("link", name="Pair cards").click()
    figure = desk.locator(".pair-card", has=desk.locator("figcaption", has_text=NAME[key]))
    found = figure.locator("small").inner_text().strip()
    desk.goto(dashboard)
    return found


def at_once(phones, start, then):
    """Every phone starts (a slow request on its way), then each is waited for: the tables play at once."""
    for each in phones:
        start(each)
    for each in phones:
        then(each)


def go(page, url):
    page.evaluate("url => { window.location.href = url }", url)


def play_round(phones, cards, hands):
    """At each table the phone opens its card (the round's sheet), enters the hand and saves it."""
    tables = sorted(hands)
    at_once([phones[t] for t in tables], lambda p: p.goto("about:blank"), lambda p: None)
    at_once(
        tables,
        lambda t: go(phones[t], cards[t]),
        lambda t: expect(phones[t].get_by_role("link", name=re.compile("^Enter hand"))).to_be_visible(),
    )
    at_once(
        tables,
        lambda t: phones[t].get_by_role("link", name=re.compile("^Enter hand")).click(),
        lambda t: (expect(phones[t].locator("main > .hand-form #preview")).to_be_attached(), settled(phones[t])),
    )
    for t in tables:
        for name, value in HANDS[hands[t]][0].items():
            if value == "y":
                phones[t].check(f"#{name}")
            else:
                phones[t].fill(f"#{name}", value)
    at_once(
        tables,
        lambda t: phones[t].get_by_role("button", name="Save hand").click(),
        lambda t: expect(phones[t].locator("#sheet [data-total]")).to_have_text(list(HANDS[hands[t]][1])),
    )


def confirm(page, card, entrant, number):
    page.goto(f"{card}/result?round={number}")
    page.get_by_role("button", name=f"{entrant} agrees").click()
    flash(page, "your side confirmed the result")


def entrant_names(page):
    return [
        row.locator(".entrant").evaluate("e => e.firstChild.textContent.trim()")
        for row in page.locator("table.standings tbody tr").all()
    ]


def standings_seen(page):
    places = page.locator("table.standings tbody .place").all_inner_texts()
    scores = page.locator("table.standings tbody .score").all_inner_texts()
    return list(zip([p.strip() for p in places], entrant_names(page), [s.strip() for s in scores], strict=True))


def seating_of(desk):
    """The dashboard's tables of the round: {table: (North-South, East-West)} by pair key."""
    key = {name: k for k, name in NAME.items()}
    seats = {}
    for row in desk.locator("table.night-tables tbody tr").all():
        cells = row.locator("td").all_inner_texts()
        seats[int(cells[0])] = tuple(key.get(c.strip()) for c in cells[1:3])
    return seats


def run_out_the_clock(app, number):
    """The round's 50 minutes are over: the test moves its end into the past rather than wait."""
    db = connect(app.config["DATABASE"])
    try:
        db.execute("update club_rounds set ends = ? where number = ?", ["2000-01-01T00:00:00+00:00", number])
        db.conn.commit()
    finally:
        db.close()


def test_a_whole_club_evening(browser, club):
    app, url = club["club"]
    desk = laptop(browser, url)
    other = laptop(browser, url)  # the second laptop at the desk
    dashboard = create_night(desk, url, "Tuesday club", rounds=4)
    for key in [f"P{n}" for n in range(1, 13)]:
        enter(desk, key)
    press(desk, "Seat round 1")
    cards = cards_of(desk)
    assert sorted(cards) == [1, 2, 3, 4, 5, 6]
    phones = {number: phone(browser) for number in range(1, 8)}  # one a table, North-South's
    p2 = phone(browser)  # the eighth: P2's own phone, bound by their pair card
    p2.goto(pair_card(desk, "P2"))
    expect(p2.locator("#pair-phone")).to_contain_text(f"This phone is {NAME['P2']}’s tonight")
    press(desk, "Start round 1")
    flash(desk, "Round 1 has started.")

    # Round 1: every table at once.
    play_round(phones, cards, PLAYED[1])
    for number in (1, 2, 4, 5, 6):
        north_south = {1: "P1", 2: "P3", 4: "P7", 5: "P9", 6: "P11"}[number]
        confirm(phones[number], cards[number], NAME[north_south], 1)
    confirm(p2, cards[1], NAME["P2"], 1)
    expect(p2.locator(".confirmed").first).to_contain_text("Both sides confirmed this result.")
    phones[3].goto(f"{cards[3]}/result?round=1")
    phones[3].fill("#note", "They counted our red three twice")
    phones[3].get_by_role("button", name="We do not agree: call the director").click()
    expect(phones[3].locator(".disputed")).to_contain_text("the director is coming")
    desk.goto(dashboard)
    expect(desk.locator("#table-3 .state")).to_contain_text("They counted our red three twice")
    assert desk.locator("#table-1 .state").inner_text() == "Finished"
    desk.locator("#table-3").get_by_role("button", name="Accept the result").click()
    flash(desk, "Round 1, table 3: the result stands.")
    press(desk, "Close round 1")

    # Round 2 is seated on one laptop; the other adds a late pair meanwhile; the first's Start is told.
    press(desk, "Seat round 2")
    assert seating_of(desk) == SEATING[2]
    other.goto(dashboard)
    enter(other, "P13")
    expect(other.locator("#table-7")).to_contain_text(NAME["P13"])
    desk.get_by_role("button", name="Start round 2").click()
    flash(desk, "Meanwhile, on another device:")
    flash(desk, f"{NAME['P13']} joined the night.")
    flash(desk, "Nothing was done")
    press(desk, "Start round 2")
    flash(desk, "Round 2 has started.")
    cards = cards_of(desk)
    assert sorted(cards) == [1, 2, 3, 4, 5, 6, 7]
    phones[7].goto(cards[7])
    expect(phones[7].locator("#table-waits")).to_contain_text(f"{NAME['P13']} does not play")
    play_round(phones, cards, PLAYED[2])
    run_out_the_clock(app, 2)  # table 4 is still playing its hand
    desk.goto(dashboard)
    assert desk.locator("#table-4 .state").inner_text() == "Late"
    play_round(phones, cards, {4: "A"})  # the hand in progress at time counts
    other.goto(dashboard)
    other.select_option("#adjustment-entrant", NAME["P10"])
    other.fill("#adjustment-round", "2")
    other.fill("#adjustment-amount", "-1")
    other.fill("#adjustment-reason", "Slow play")
    press(other, "Record the adjustment")
    flash(other, "recorded")
    confirm(p2, cards[2], NAME["P2"], 2)
    desk.goto(dashboard)
    press(desk, "Close round 2")

    # Round 3: a no-show, and round 1 corrected while the tables play.
    press(desk, "Seat round 3")
    assert seating_of(desk) == SEATING[3]
    press(desk, "Start round 3")
    desk.locator("#table-5 details.no-show summary").click()
    desk.locator("#table-5").get_by_role("button", name=f"{NAME['P6']} did not come").click()
    flash(desk, NAME["P6"])
    phones[1].goto(cards[1])
    expect(phones[1].locator("#table-waits")).to_contain_text(f"{NAME['P1']} does not play")
    play_round(phones, cards, PLAYED[3])
    correct_round_one(desk, dashboard)
    confirm(p2, cards[3], NAME["P2"], 3)
    press(desk, "Close round 3")
    other.goto(dashboard)
    other.select_option("#withdraw-name", NAME["P8"])
    other.get_by_label("Yes: take this entrant out of the rest of the night").check()
    press(other, "Withdraw")
    desk.goto(dashboard)
    press(desk, "Seat round 4")
    assert seating_of(desk) == SEATING[4]
    press(desk, "Start round 4")
    play_round(phones, cards, PLAYED[4])
    confirm(p2, cards[4], NAME["P2"], 4)
    press(desk, "Close round 4")

    # Every surface of the club's server.
    exported = every_surface_reads_the_standings(browser, desk, phones[5], dashboard)
    # The night into a fresh database: the same standings everywhere, and a second import is the same night.
    fresh_app, fresh_url = club["fresh"]
    fresh = laptop(browser, fresh_url)
    imported = import_night(fresh, fresh_url, exported)
    flash(fresh, "The night is imported with its matches.")
    assert (
        every_surface_reads_the_standings(browser, fresh, phones[6], imported)["document"]["standings"]
        == (exported["document"]["standings"])
    )
    import_night(fresh, fresh_url, exported)
    flash(fresh, "This night is here already: nothing was imported.")
    expect(fresh).to_have_url(imported)
    second_night_and_the_season(fresh, fresh_url, fresh_app)


def correct_round_one(desk, dashboard):
    """During round 3 the director corrects round 1's table 1 (the mixed canasta was never finished), then notes why."""
    desk.goto(dashboard)
    desk.locator("#seatings details").first.locator("summary").click()
    desk.locator("#seatings details").first.get_by_role("link", name="Sheet").first.click()
    desk.get_by_role("link", name="Hand 1 in detail").click()
    desk.get_by_role("link", name="Correct this hand").click()
    expect(desk.locator("main > .hand-form #preview")).to_be_attached()
    settled(desk)
    desk.fill("#sides-0-canasta_mixed", "0")
    desk.get_by_role("button", name="Save correction").click()
    flash(desk, "Hand 1 corrected.")
    expect(desk.locator("#sheet [data-total]")).to_have_text(["1,520", "65"])  # A': 1820 - 300
    desk.goto(dashboard)
    desk.fill("#correction-round", "1")
    desk.fill("#correction-table", "1")
    desk.fill("#correction-text", "The mixed canasta of Łukasz & José had six cards")
    desk.fill("#correction-by", "Marta")
    press(desk, "Record the correction")
    flash(desk, "The correction's reason is recorded.")


def link(page, name):
    return page.get_by_role("link", name=name, exact=True).get_attribute("href")


def every_surface_reads_the_standings(browser, desk, standing_phone, dashboard):
    """Dashboard, projector, a phone's standings, the printed results, the CSV and the JSON: one ranking."""
    desk.goto(dashboard)
    expect(desk.locator("#standings table.standings tbody tr")).to_have_count(13)
    assert standings_seen(desk.locator("#standings")) == EXPECTED_ROWS
    expect(desk.locator("#standings .withdrawn-entrant")).to_contain_text(NAME["P8"])
    base = re.match(r"https?://[^/]+", dashboard)[0]
    standings, screen = base + link(desk, "Standings"), base + link(desk, "Standings screen")

    projector = browser.new_context(viewport=PROJECTOR).new_page()
    projector.goto(screen)
    expect(projector.locator("table.standings tbody tr")).to_have_count(13)
    assert standings_seen(projector) == EXPECTED_ROWS
    assert projector.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")
    projector.context.close()

    standing_phone.goto(standings)
    assert standings_seen(standing_phone) == EXPECTED_ROWS
    assert standing_phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    desk.goto(base + link(desk, "Print the results"))
    assert standings_seen(desk) == EXPECTED_ROWS
    expect(desk.locator("main")).to_contain_text("The mixed canasta of Łukasz & José had six cards")
    expect(desk.locator("main")).to_contain_text("Marta")
    expect(desk.locator("main")).to_contain_text("Slow play")
    desk.goto(dashboard)

    answer = desk.request.get(base + link(desk, "Export (CSV)"))
    lines = list(csv.DictReader(io.StringIO(answer.text())))
    key = {name: k for k, name in NAME.items()}
    assert [(line["place"], line["entrant"], line["score"]) for line in lines] == EXPECTED_ROWS
    assert {key[line["entrant"]]: tuple(line[f"round_{n}"] for n in range(1, 5)) for line in lines} == ROUND_SCORES
    assert {line["entrant"]: line["adjustments"] for line in lines if line["adjustments"] != "0"} == {NAME["P10"]: "-1"}
    document = desk.request.get(base + link(desk, "Export (JSON)")).json()
    assert [(str(row["place"]), row["entrant"], str(row["score"])) for row in document["standings"]] == EXPECTED_ROWS
    return {"document": document, "csv": answer.text()}


def import_night(page, url, exported, tmp=None):
    page.goto(f"{url}/nights")
    page.set_input_files(
        "#file",
        files=[{"name": "night.json", "mimeType": "application/json",
                "buffer": json.dumps(exported["document"]).encode()}],
    )  # fmt: skip
    press(page, "Import")
    expect(page.locator("h1")).to_contain_text("Tuesday club")
    return page.url


SECOND = {
    "P4": PAIRS["P4"], "P1": PAIRS["P1"], "P2": PAIRS["P2"], "N": ("Nuno & Inês", "Nuno", "Inês"),
}  # fmt: skip


def second_night_and_the_season(desk, url, app):
    """A second night on the same server: four pairs, one round, entered at the desk; then the season table."""
    dashboard = create_night(desk, url, "Tuesday club, week 2", rounds=1)
    for key in ("P4", "P1", "P2", "N"):
        enter(desk, key, SECOND)
    press(desk, "Seat round 1")
    press(desk, "Start round 1")
    for number, hand in ((1, "A"), (2, "C")):
        desk.goto(dashboard)
        desk.locator(f"#table-{number}").get_by_role("link", name="Sheet").click()
        desk.get_by_role("link", name=re.compile("^Enter hand")).click()
        expect(desk.locator("main > .hand-form #preview")).to_be_attached()
        settled(desk)
        for name, value in HANDS[hand][0].items():
            desk.check(f"#{name}") if value == "y" else desk.fill(f"#{name}", value)
        desk.get_by_role("button", name="Save hand").click()
        expect(desk.locator("#sheet [data-total]")).to_have_text(list(HANDS[hand][1]))
    desk.goto(dashboard)
    press(desk, "Close round 1")
    # P4 17, Nuno & Inês 16, P2 4, P1 3.
    assert standings_seen(desk.locator("#standings")) == [
        ("1", NAME["P4"], "17"), ("2", "Nuno & Inês", "16"), ("3", NAME["P2"], "4"), ("4", NAME["P1"], "3"),
    ]  # fmt: skip
    desk.goto(f"{url}/nights/season")
    rows = desk.locator("table.season tbody tr").all()
    season = [tuple(r.locator("td").nth(n).inner_text().strip() for n in (0, 1, 2)) for r in rows]
    # Placement points: night 1's first of 13 gets 13 ... its last 1; night 2's first of 4 gets 4. A pair's
    # points go to both players, who share the place (listed by name).
    assert season[:6] == [
        ("=1", "Conceição", "16"), ("=1", "João", "16"),  # P4: 12 + 4
        ("=3", "José", "14"), ("=3", "Łukasz", "14"),  # P1: 13 + 1
        ("=5", "Ólafur", "11"), ("=5", "Þóra", "11"),  # P11: 11
    ]  # fmt: skip
    points = {player: score for _, player, score in season}
    # P2: 8 + 2; P9: 10; P3: 9; Nuno & Inês: 3 (second of 4); P10: 1 (last of 13).
    assert (points["Dvořák"], points["Ğül"], points["Amélie"], points["Nuno"], points["Renée"]) == (
        "10",
        "10",
        "9",
        "3",
        "1",
    )
    assert len(season) == 28  # 13 pairs of night 1 and Nuno & Inês: one line each player, none twice
