"""Offline at the table, in Chromium: the connection drops and comes back while hands are saved.

The service worker really runs (loopback http is a secure context), and ``context.set_offline``
cuts the page and the worker from the server alike.
"""

import json
import re

import pytest
from playwright.sync_api import expect
from support import add_match

from browser.waiting import wait_until
from scorepad import canasta, store
from scorepad.db import connect

WAITING = "Saved on this phone, not sent yet"
REPLAY = 15_000  # ms to allow for sending, reloading and swapping on a busy CI machine
# Another phone's hand 1: nobody went out, We meld 650, They 500.
OTHER_PHONE = {"entries": [{"melded_points": 650}, {"melded_points": 500}]}


def stored_hands(app, match_id):
    db = connect(app.config["DATABASE"])
    try:
        return store.get_match(db, match_id).match.hands
    finally:
        db.close()


def totals(page):
    return [int(t.replace(",", "")) for t in page.locator("#sheet [data-total]").all_inner_texts()]


def queue(page):
    return page.evaluate("JSON.parse(localStorage.getItem('scorepad-queue') || '[]')")


def settled(page):
    wait_until(
        page, "window.htmx && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added')"
    )


def controlled(page):
    """Wait until the service worker is active and controls this page."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    wait_until(page, "navigator.serviceWorker.controller !== null")


@pytest.fixture
def live_app(live_app):
    """The app with a strict script policy (unless the app sets its own): offline.js needs no inline code."""

    @live_app.after_request
    def strict(response):
        response.headers.setdefault("Content-Security-Policy", "script-src 'self'; worker-src 'self'")
        return response

    return live_app


@pytest.fixture
def violations(page):
    """Content-Security-Policy refusals Chromium reports on any page this test opens."""
    found = []
    page.on("console", lambda message: "Content Security Policy" in message.text and found.append(message.text))
    yield found
    assert found == []


@pytest.fixture
def match_id(live_app):
    return add_match(live_app, [])


@pytest.fixture
def sheet(page, live_server, match_id, violations):
    """The match's sheet, opened once the service worker runs, so this phone keeps a copy."""
    url = f"{live_server}/matches/{match_id}"
    page.goto(url)
    controlled(page)
    page.reload()  # now through the worker: the sheet is kept on the phone
    expect(page.get_by_role("link", name="Enter hand 1")).to_be_visible()
    settled(page)
    return url


OFFLINE = "This phone is offline"


def go_offline(page, context):
    """Lose the connection once nothing is on its way, and wait until the page says so."""
    settled(page)
    context.set_offline(True)
    expect(page.locator("#queue-status")).to_contain_text(OFFLINE)


def type_hand_offline(page, context):
    """Open the hand form online, lose the connection, type the hand and save it."""
    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.locator("main > .hand-form #preview")).to_be_attached()
    go_offline(page, context)
    type_hand(page)
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#queue-status")).to_contain_text(WAITING)


def type_hand(page):
    """We: natural + mixed canasta, a red three, went out, 620 melded: 500+300+100+100+620 = 1620.
    They: a mixed canasta, a red three, 260 melded, 95 left in hand: 300+100+260-95 = 565.
    """
    page.fill("#sides-0-melded_points", "620")
    page.fill("#sides-0-canasta_natural", "1")
    page.fill("#sides-0-canasta_mixed", "1")
    page.fill("#sides-0-red_threes", "1")
    page.check("#sides-0-went_out")
    page.fill("#sides-1-melded_points", "260")
    page.fill("#sides-1-hand_points", "95")
    page.fill("#sides-1-canasta_mixed", "1")
    page.fill("#sides-1-red_threes", "1")


def test_a_hand_saved_offline_is_sent_when_the_connection_returns(page, context, live_app, sheet, match_id):
    type_hand_offline(page, context)
    assert stored_hands(live_app, match_id) == ()
    assert [item["state"] for item in queue(page)] == ["waiting"]
    expect(page.locator("#queue-status")).to_contain_text("Hand 1 (We – They)")

    # The sheet this phone kept says the hand waits on the phone, in its row, and offers the next.
    page.get_by_role("link", name="Sheet", exact=True).click()
    expect(page.get_by_role("link", name="Enter hand 2")).to_be_visible()
    expect(page.locator("#sheet tr.queued")).to_have_count(1)
    expect(page.locator("#sheet tr.queued th")).to_have_text("1")
    expect(page.locator("#sheet tr.queued td")).to_contain_text("saved on this phone, not sent yet")
    expect(page.locator("#queue-status")).to_contain_text(WAITING)
    assert stored_hands(live_app, match_id) == ()

    context.set_offline(False)
    expect(page.locator("#queue-status")).to_contain_text("has been sent: it is on the sheet", timeout=REPLAY)
    assert totals(page) == [1620, 565]
    expect(page.get_by_role("link", name="Enter hand 2")).to_be_visible()
    assert len(stored_hands(live_app, match_id)) == 1
    assert queue(page) == []
    expect(page.locator("#queue-status")).not_to_contain_text(WAITING)


def test_hands_saved_offline_one_after_another_are_never_offered_twice(page, context, live_app, sheet, match_id):
    """Hand 1 waits on the phone: the sheet shows it and offers hand 2, whose form says "Hand 2"."""
    type_hand_offline(page, context)
    page.get_by_role("link", name="Sheet", exact=True).click()
    page.get_by_role("link", name="Enter hand 2").click()  # the form this phone kept, headed "Hand 1" when kept
    expect(page.get_by_role("heading", level=1)).to_have_text("Hand 2")
    # Hand 2: nobody went out, We meld 650 (the 90 We need after 1620), They 500.
    page.fill("#sides-0-melded_points", "650")
    page.fill("#sides-1-melded_points", "500")
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#queue-status")).to_contain_text("Hand 2 (We – They)")
    waiting = queue(page)
    assert [(item["number"], item["version"]) for item in waiting] == [(1, 1), (2, 2)]
    assert len({item["key"] for item in waiting}) == 2

    page.get_by_role("link", name="Sheet", exact=True).click()
    expect(page.get_by_role("link", name="Enter hand 3")).to_be_visible()
    expect(page.locator("#sheet tr.queued th")).to_have_text(["1", "2"])
    assert stored_hands(live_app, match_id) == ()

    # Back online, the first hand goes out within 2 s, and the second after it, as hand 2.
    with page.expect_request(lambda request: request.method == "POST" and request.url.endswith("/hands"), timeout=2000):
        context.set_offline(False)
    expect(page.get_by_role("link", name="Enter hand 3")).to_be_visible(timeout=REPLAY)
    # Said on the sheet reloaded from the server (the page before the reload, once both are
    # sent, shows no waiting row either).
    expect(page.locator("#queue-status")).to_contain_text("Hand 2 (We v They), saved on this phone, has been sent")
    expect(page.locator("#sheet tr.queued")).to_have_count(0)
    # The sheet the last send reloads, once it is the one on screen (not the page it replaces).
    expect(page.locator("#sheet [data-total]")).to_have_text([re.compile(r"^2,?270$"), re.compile(r"^1,?065$")])
    assert totals(page) == [1620 + 650, 565 + 500]
    assert len(stored_hands(live_app, match_id)) == 2
    assert queue(page) == []
    expect(page.locator("#queue-status")).not_to_contain_text("meanwhile")


# Every htmx request the page is about to make, and whether it was held back (window hears it last).
ASKED = """window.scorepadAsked = [];
  window.addEventListener("htmx:beforeRequest", (event) => window.scorepadAsked.push(
    [event.detail.pathInfo.requestPath, event.defaultPrevented]));"""


def held_back(page, part):
    """For each request the page was about to make to a path holding ``part``: whether it was held back."""
    return [held for path, held in page.evaluate("window.scorepadAsked") if part in path]


def asked_for(part, times=1):
    return f"window.scorepadAsked.filter(([path]) => path.includes({part!r})).length >= {times}"


def test_nothing_is_asked_in_the_background_while_offline(page, context, sheet):
    """Offline, the sheet's poll and the live preview are not sent: their answers could not come."""
    expect(page.locator("#next-hand #preview")).to_be_attached()
    sent = []
    page.on("request", lambda request: request.headers.get("hx-request") and sent.append(request.url))
    go_offline(page, context)
    page.evaluate(ASKED)
    wait_until(page, asked_for("/sheet"))  # the poll, within its 3 s
    type_hand(page)
    wait_until(page, asked_for("/preview"))  # the live preview, 300 ms after the last key
    assert set(held_back(page, "/")) == {True}
    assert sent == []
    expect(page.locator("#preview")).to_be_empty()  # what the player sees: no answer, and no error

    context.set_offline(False)  # back online, the preview is asked for again and answered
    page.fill("#sides-1-melded_points", "265")
    expect(page.locator("#preview")).to_contain_text("1,620")


# The server cannot be reached while the phone believes it is online: htmx logs that one poll.
@pytest.mark.console_allows(r"ERR_CONNECTION_REFUSED", r"htmx:(sendError|afterRequest), \[object HTMLElement\]")
def test_a_poll_cut_by_the_network_is_let_go_quietly(page, sheet):
    """One poll fails: the sheet stays as it was, nothing is said, and the next poll is not sent."""
    before = page.locator("#sheet").inner_html()
    page.evaluate(ASKED)
    with page.expect_event("requestfailed", timeout=REPLAY):
        page.route("**/sheet?*", lambda route: route.abort("connectionrefused"))
    wait_until(page, asked_for("/sheet", 2))
    assert held_back(page, "/sheet")[:2] == [False, True]
    expect(page.locator("#queue-status")).to_have_count(0)
    assert page.locator("#sheet").inner_html() == before


def test_a_hand_saved_offline_in_place_leaves_the_next_hands_form(page, context, live_app, sheet, match_id):
    """The form under the sheet, saved offline, becomes hand 2's, empty: never hand 1's again."""
    expect(page.locator("#next-hand #preview")).to_be_attached()
    go_offline(page, context)
    type_hand(page)
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#sheet tr.queued th")).to_have_text("1")
    # Typed offline, the hand had no preview: no score is shown for it, nor any total after it.
    expect(page.locator("#sheet tr.queued td")).to_have_text(
        re.compile("not sent yet .*Its score will show when it is sent.")
    )
    assert totals(page) == [0, 0]
    expect(page.locator("#sheet .queued-totals")).to_have_text(
        "These totals are before hand 1: it waits on this phone, and its score will show when it is sent."
    )
    assert to_open(page) == ["to open: known once the hands before it are sent"] * 2
    expect(page.get_by_role("link", name="Enter hand 2")).to_be_visible()
    expect(page.locator("#next-hand .next-hand-title")).to_have_text("Hand 2")
    expect(page.locator("#sides-0-melded_points")).to_have_value("")
    expect(page.locator("#sides-0-went_out")).not_to_be_checked()
    # Hand 2 in the same place: nobody went out, We meld 650 (the 90 We need after 1620), They 500.
    page.fill("#sides-0-melded_points", "650")
    page.fill("#sides-1-melded_points", "500")
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#sheet tr.queued th")).to_have_text(["1", "2"])
    waiting = queue(page)
    assert [(item["number"], item["version"]) for item in waiting] == [(1, 1), (2, 2)]
    assert [item["label"] for item in waiting] == ["Hand 1 (We – They)", "Hand 2 (We – They)"]
    assert len({item["key"] for item in waiting}) == 2

    context.set_offline(False)
    expect(page.get_by_role("link", name="Enter hand 3")).to_be_visible(timeout=REPLAY)
    # Said on the sheet reloaded from the server (the page before the reload, once both are
    # sent, shows no waiting row either).
    expect(page.locator("#queue-status")).to_contain_text("Hand 2 (We v They), saved on this phone, has been sent")
    expect(page.locator("#sheet tr.queued")).to_have_count(0)
    # The sheet the last send reloads, once it is the one on screen (not the page it replaces).
    expect(page.locator("#sheet [data-total]")).to_have_text([re.compile(r"^2,?270$"), re.compile(r"^1,?065$")])
    assert totals(page) == [1620 + 650, 565 + 500]
    assert len(stored_hands(live_app, match_id)) == 2


# The save reached the server but its answer was lost on the way back: htmx reports it failed.
@pytest.mark.console_allows(r"ERR_FAILED|ERR_CONNECTION", r"htmx:(sendError|afterRequest), \[object HTMLBodyElement\]")
def test_a_save_whose_answer_was_lost_is_not_saved_twice(page, live_app, sheet, match_id):
    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.locator("#preview")).to_be_attached()
    settled(page)
    type_hand(page)
    expect(page.locator("#preview")).to_contain_text("1,620")

    def lost_answer(route):
        route.fetch()  # the server saves the hand ...
        route.abort("connectionreset")  # ... and the phone never hears so

    page.route("**/matches/*/hands", lost_answer)
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#queue-status")).to_contain_text(WAITING)
    assert len(stored_hands(live_app, match_id)) == 1
    item = queue(page)[0]

    # Two tabs send the queued copy at once (the phone's own lock lets one tab at a time; a second
    # browser window or an old phone has none): both are told it is on the sheet.
    page.unroute("**/matches/*/hands")
    answers = page.evaluate(
        """(item) => Promise.all([1, 2].map(() => fetch(item.action, {method: "POST",
             body: new URLSearchParams(item.fields), credentials: "same-origin"})
           .then((response) => [response.redirected, new URL(response.url).pathname])))""",
        item,
    )
    assert answers == [[True, f"/matches/{match_id}"]] * 2
    page.get_by_role("button", name="Send now").click()
    expect(page.locator("#queue-status")).to_contain_text("has been sent: it is on the sheet", timeout=REPLAY)
    expect(page.get_by_role("link", name="Enter hand 2")).to_be_visible()
    assert totals(page) == [1620, 565]
    assert len(stored_hands(live_app, match_id)) == 1
    assert queue(page) == []


@pytest.mark.parametrize("where", ["form", "sheet"])
def test_a_conflicting_replay_shows_the_refusal_with_the_entry_kept(page, context, live_app, sheet, match_id, where):
    type_hand_offline(page, context)
    if where == "sheet":  # the player left the form: the refused entry is opened for them
        page.get_by_role("link", name="Sheet", exact=True).click()
        expect(page.locator("#sheet")).to_be_visible()
    # Meanwhile another phone, still online, saves hand 1 against the same version.
    db = connect(live_app.config["DATABASE"])
    try:
        store.add_hand(db, match_id, canasta.Hand.from_dict(OTHER_PHONE), 1)
    finally:
        db.close()

    context.set_offline(False)
    problems = page.locator("#form-problems")
    expect(problems).to_contain_text("Someone else saved hand 1 meanwhile: We 650, They 500.", timeout=REPLAY)
    expect(problems).to_contain_text("Your entry is kept below")
    expect(page.locator("#queue-status")).to_contain_text("was not taken by the server")
    expect(page.locator("#sides-0-melded_points")).to_have_value("620")
    expect(page.locator("#sides-1-hand_points")).to_have_value("95")
    assert queue(page) == []  # the entry is back in the form, so the phone no longer holds it
    assert len(stored_hands(live_app, match_id)) == 1

    # The player saves it again, now knowingly, as hand 2: 650+1620 = 2270, 500+565 = 1065.
    settled(page)
    page.get_by_role("button", name="Save hand").click()
    expect(page.get_by_role("link", name="Enter hand 3")).to_be_visible()
    assert totals(page) == [2270, 1065]
    assert len(stored_hands(live_app, match_id)) == 2


def test_a_refusal_waits_as_reasons_while_another_hand_is_typed(page, context, live_app, sheet, match_id):
    """The phone keeps the server's reasons and the entry, never its page, until the player opens it."""
    type_hand_offline(page, context)
    page.get_by_role("link", name="Sheet", exact=True).click()
    page.get_by_role("link", name="Enter hand 2").click()  # typing the next hand, offline
    expect(page.get_by_role("heading", level=1)).to_have_text("Hand 2")
    db = connect(live_app.config["DATABASE"])
    try:
        store.add_hand(db, match_id, canasta.Hand.from_dict(OTHER_PHONE), 1)
    finally:
        db.close()

    context.set_offline(False)
    expect(page.locator("#queue-status")).to_contain_text("The server did not take Hand 1 (We – They).", timeout=REPLAY)
    [item] = queue(page)
    assert item["state"] == "refused" and "answer" not in item
    assert "Someone else saved hand 1 meanwhile: We 650, They 500." in item["reasons"]
    assert all("<" not in reason for reason in item["reasons"])

    page.get_by_role("button", name="Open it").click()
    expect(page.locator("#form-problems")).to_contain_text("Someone else saved hand 1 meanwhile: We 650, They 500.")
    expect(page.locator("#sides-0-melded_points")).to_have_value("620")
    expect(page.locator("#sides-1-hand_points")).to_have_value("95")
    assert queue(page) == []
    settled(page)
    page.get_by_role("button", name="Save hand").click()  # now knowingly, as hand 2
    expect(page.get_by_role("link", name="Enter hand 3")).to_be_visible()
    assert totals(page) == [650 + 1620, 500 + 565]


def test_a_refusal_keeps_a_bounded_number_of_reasons_each_bounded(page, context, live_app, sheet, match_id):
    """However long the server's answer, the phone keeps 20 reasons of at most 300 characters."""
    type_hand_offline(page, context)
    page.get_by_role("link", name="Sheet", exact=True).click()
    page.get_by_role("link", name="Enter hand 2").click()  # typing the next hand: the refusal waits
    expect(page.get_by_role("heading", level=1)).to_have_text("Hand 2")
    db = connect(live_app.config["DATABASE"])
    try:
        store.add_hand(db, match_id, canasta.Hand.from_dict(OTHER_PHONE), 1)
    finally:
        db.close()

    def long_answer(route):  # the real refusal, with 30 more reasons of 1,000 characters after its own
        response = route.fetch()
        extra = "".join(f'<p class="error">Reason {n}: {"x" * 1000}</p>' for n in range(30))
        problems = re.compile(r'(id="form-problems"[^>]*>.*?)(</div>)', re.S)
        body = problems.sub(rf"\g<1>{extra}\g<2>", response.text(), count=1)
        assert body.count("Reason ") == 30
        route.fulfill(response=response, body=body)

    page.route("**/matches/*/hands", long_answer)
    context.set_offline(False)
    expect(page.locator("#queue-status")).to_contain_text("The server did not take Hand 1 (We – They).", timeout=REPLAY)
    [item] = queue(page)
    assert item["reasons"][0] == "Someone else saved hand 1 meanwhile: We 650, They 500."
    assert len(item["reasons"]) == 20
    assert max(len(reason) for reason in item["reasons"]) == 300
    assert item["reasons"][-1].endswith("x\u2026")
    assert len(page.evaluate("localStorage.getItem('scorepad-queue')")) < 6000 + 5000  # reasons + the entry


def test_a_refused_page_an_older_phone_kept_becomes_its_reasons(page, context, sheet, match_id):
    """An entry queued by the offline.js that kept the server's whole page is turned into reasons."""
    type_hand_offline(page, context)
    refused_page = (
        f'<html><body><main><h1>Hand 1</h1><form data-queue="/matches/{match_id}/hands/new">'
        '<input name="version" value="2"></form><div class="problems"><p class="error">'
        "Someone else saved hand 1 meanwhile: We 650, They 500.</p></div></main></body></html>"
    )
    # The older phone's refusal is written as the next page starts, before its scripts run: written
    # under a running page, that page could open it (as it should) before the reload.
    context.add_init_script(
        """(() => { const items = JSON.parse(localStorage.getItem('scorepad-queue') || '[]');
             if (items.length !== 1 || items[0].state !== 'waiting') return;
             items[0].state = 'refused'; items[0].answer = ANSWER;
             localStorage.setItem('scorepad-queue', JSON.stringify(items)); })()""".replace(
            "ANSWER", json.dumps(refused_page)
        )
    )
    page.reload()  # offline: the copy this phone kept, with today's offline.js
    expect(page.locator("#queue-status")).to_contain_text("The server did not take Hand 1 (We – They).")
    [item] = queue(page)
    assert "answer" not in item and item["state"] == "refused"
    assert item["reasons"] == ["Someone else saved hand 1 meanwhile: We 650, They 500."]
    assert ["version", "2"] in item["fields"]

    page.get_by_role("button", name="Open it").click()
    expect(page.locator("#form-problems")).to_have_text("Someone else saved hand 1 meanwhile: We 650, They 500.")
    expect(page.locator("#sides-0-melded_points")).to_have_value("620")
    assert queue(page) == []


def test_the_phone_remembers_the_sheets_of_its_last_hundred_matches(page, sheet, match_id):
    """What a phone knows of each match it showed is bounded: the 100 matches shown last."""
    page.evaluate(
        """() => { const all = {};
             for (let n = 0; n < 150; n++) all["m" + n] = { version: 1, hands: 0 };
             localStorage.setItem("scorepad-seen", JSON.stringify(all)); }"""
    )
    page.reload()
    expect(page.get_by_role("link", name="Enter hand 1")).to_be_visible()
    remembered = "Object.keys(JSON.parse(localStorage.getItem('scorepad-seen')))"
    wait_until(page, f"{remembered}.includes({match_id!r})")
    assert page.evaluate(remembered) == [f"m{n}" for n in range(51, 150)] + [match_id]


def test_a_page_this_phone_never_kept_says_you_are_offline(page, context, sheet, live_server):
    type_hand_offline(page, context)
    page.goto(f"{live_server}/matches/new")
    expect(page.get_by_role("heading", name="You're offline")).to_be_visible()
    expect(page).to_have_title("You're offline · scorepad")
    kept = page.locator("[data-offline-pages] li a")
    expect(kept.first).to_be_visible()
    assert "/" in [kept.nth(i).get_attribute("href") for i in range(kept.count())]
    expect(page.locator("[data-offline-pages]")).to_contain_text("Hand 1")  # the form this phone kept
    waiting = page.locator("[data-offline-queue]")
    expect(waiting).to_be_visible()
    expect(waiting).to_contain_text("Hand 1 (We – They)")
    expect(waiting).to_contain_text(WAITING)

    # A boosted link to a page this phone never kept says the same, with the right title.
    page.goto(sheet)
    page.get_by_role("link", name="Share", exact=True).click()
    expect(page.get_by_role("heading", name="You're offline")).to_be_visible()
    expect(page).to_have_title("You're offline · scorepad")


# The save itself cannot reach the server: htmx logs that network failure (the save swaps the body).
@pytest.mark.console_allows(r"ERR_CONNECTION_REFUSED", r"htmx:(sendError|afterRequest), \[object HTMLBodyElement\]")
def test_a_save_that_cannot_reach_the_server_waits_on_the_phone_too(page, live_app, sheet, match_id):
    """The phone believes it is online, but the server does not answer."""
    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.locator("main > .hand-form #preview")).to_be_attached()
    settled(page)
    page.route("**/matches/*/hands", lambda route: route.abort("connectionrefused"))
    type_hand(page)
    expect(page.locator("#preview")).to_contain_text("1,620")
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#queue-status")).to_contain_text(WAITING)
    assert stored_hands(live_app, match_id) == ()
    # The hand waits with the figures its preview answered: the sheet shows them as not sent yet.
    page.get_by_role("link", name="Sheet", exact=True).click()
    expect(page.locator("#sheet tr.queued")).to_have_count(1)
    assert [row.locator("th, td").all_inner_texts() for row in page.locator("#sheet tr.queued").all()] == [
        ["1", "1620", "1620", "565", "565"]
    ]
    expect(page.locator("#sheet tr.queued-note")).to_contain_text("saved on this phone, not sent yet")
    assert totals(page) == [1620, 565]
    assert page.locator("#sheet .scoreboard .need b").all_inner_texts() == ["90", "50"]  # 1500-2995: 90; 0-1495: 50

    page.unroute("**/matches/*/hands")
    page.get_by_role("button", name="Send now").click()
    expect(page.locator("#queue-status")).to_contain_text("has been sent: it is on the sheet", timeout=REPLAY)
    assert totals(page) == [1620, 565]
    assert len(stored_hands(live_app, match_id)) == 1


# The match was deleted meanwhile: the replay is refused, and so is the preview htmx may ask for
# as the connection returns (htmx logs that refusal as "Response Status Error Code 404").
@pytest.mark.console_allows(r"status of 404", r"Response Status Error Code 404 from /matches/\w+/hands/preview")
def test_a_hand_the_server_cannot_take_stays_on_the_phone(page, context, live_app, sheet, match_id):
    """The match was deleted meanwhile: no form comes back, so the phone keeps the hand."""
    type_hand_offline(page, context)
    db = connect(live_app.config["DATABASE"])
    try:
        store.delete_match(db, match_id, 1)
    finally:
        db.close()

    context.set_offline(False)
    status = page.locator("#queue-status")
    expect(status).to_contain_text(
        "Hand 1 (We – They) is kept on this phone. The server did not take it: Not found.", timeout=REPLAY
    )
    assert [item["state"] for item in queue(page)] == ["stuck"]

    db = connect(live_app.config["DATABASE"])
    try:
        store.restore_match(db, match_id)
    finally:
        db.close()
    page.get_by_role("button", name="Try again").click()
    # Deleting and restoring moved the match on: the server refuses the old version, and says so.
    expect(page.locator("#form-problems")).to_contain_text("Someone else changed this match meanwhile.", timeout=REPLAY)
    expect(page.locator("#sides-0-melded_points")).to_have_value("620")
    assert queue(page) == []
    settled(page)
    page.get_by_role("button", name="Save hand").click()
    expect(page.get_by_role("link", name="Enter hand 2")).to_be_visible()
    assert totals(page) == [1620, 565]


def test_a_hand_refused_for_its_token_comes_back_in_its_form(page, context, live_app, sheet, match_id):
    """The phone lost its session cookie meanwhile, so the queued token no longer fits."""
    type_hand_offline(page, context)
    context.clear_cookies()
    context.set_offline(False)
    kept = page.get_by_role("button", name="Open it in its form")
    refused = page.locator("#form-problems p")
    expect(kept.or_(refused).first).to_be_visible(timeout=REPLAY)
    if kept.is_visible():  # a bare refusal page: the phone puts the entry back in a fresh form
        kept.click()
        expect(page.locator("#queue-status")).to_contain_text("Your entry is back in the form")
    expect(page.locator("#sides-0-melded_points")).to_have_value("620")
    expect(page.locator("#sides-0-went_out")).to_be_checked()
    expect(page.locator("#sides-1-hand_points")).to_have_value("95")
    assert queue(page) == [] and stored_hands(live_app, match_id) == ()
    settled(page)
    page.get_by_role("button", name="Save hand").click()
    expect(page.get_by_role("link", name="Enter hand 2")).to_be_visible()
    assert totals(page) == [1620, 565]


def kept_in(language, path):
    """JavaScript: whether the worker's copy of ``path`` is a page in ``language``."""
    return (
        f"caches.match({path!r}, {{ ignoreVary: true }})"
        f".then((hit) => hit ? hit.text() : '').then((html) => html.includes('lang=\"{language}\"'))"
    )


def test_pages_kept_for_offline_follow_a_language_change(page, context, sheet, live_server):
    # Kept in English: the match list (part of the shell) and the sheet (the fixture).
    wait_until(page, kept_in("en", "/"))
    page.get_by_role("link", name="Language: English").click()
    page.get_by_role("link", name="Español").click()
    expect(page.locator("html")).to_have_attribute("lang", "es")  # back on the sheet, in Spanish
    wait_until(page, kept_in("es", "/"))
    settled(page)
    context.set_offline(True)
    expect(page.locator("#queue-status")).to_contain_text("Este teléfono está sin conexión")
    page.goto(f"{live_server}/")  # never opened in Spanish, and yet not the English copy
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.get_by_role("heading", name="Tus partidas")).to_be_visible()
    page.goto(sheet)  # the page the switch came back to, kept again in Spanish
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.get_by_role("link", name="Anotar mano 1")).to_be_visible()


# --- hands waiting on the phone show the server's figures (issue #28, item 3) -----------------
def queued_rows(page):
    """Each waiting hand's row as the sheet shows it: its number, then each side's score and total."""
    return [row.locator("th, td").all_inner_texts() for row in page.locator("#sheet tr.queued").all()]


def needs(page):
    return page.locator("#sheet .scoreboard .need b").all_inner_texts()


def to_open(page):
    return page.locator("#next-hand fieldset.side legend small").all_inner_texts()


def fill_hand(page, sides):
    """Type each side's boxes; the last box typed is the last one listed."""
    for index, boxes in enumerate(sides):
        for name, value in boxes.items():
            if value is True:
                page.check(f"#sides-{index}-{name}")
            else:
                page.fill(f"#sides-{index}-{name}", str(value))


# Worked out from docs/rules.md ("Presets", classic; "Scoring a hand"), not from the app:
# Hand 1. We: natural canasta 500 + mixed 300 + a red three 100 + going out 100 + 620 melded = 1620.
#         They: nothing melded, 145 in hand = -145.
#   Totals 1620 / -145. Next minimums: 1620 is in 1500-2995, so 90; -145 is below 0, so 15.
HAND_ONE = [
    {"melded_points": 620, "canasta_natural": 1, "canasta_mixed": 1, "red_threes": 1, "went_out": True},
    {"hand_points": 145},
]
# Hand 2. We: two natural canastas 1000 + 600 melded - 10 in hand = 1590.
#         They: mixed canasta 300 + going out 100 + 200 melded = 600.
#   Totals 1620 + 1590 = 3210 / -145 + 600 = 455. Next minimums: 3000 and up, 120; 0-1495, 50.
HAND_TWO = [
    {"melded_points": 600, "canasta_natural": 2, "hand_points": 10},
    {"canasta_mixed": 1, "went_out": True, "melded_points": 200},
]


# The server answers the saves 503 for a while: Chromium logs each of those answers. Slow (about
# 6 s): quick tests see one hand's figures (test_a_save_that_cannot_reach_the_server_waits_on_the_phone_too)
# and the server's figures (tests/test_offline.py).
@pytest.mark.slow
@pytest.mark.console_allows(r"status of 503 \(Service Unavailable\)")
def test_hands_waiting_on_the_phone_show_the_servers_scores_totals_and_minimums(
    page, context, live_app, sheet, match_id
):
    """Each hand is typed while its preview can answer, and saved while the phone is offline.

    Hand 1 is typed online and saved offline. The connection returns while the server refuses
    saves for a while (503), so hand 1 still waits while hand 2 is typed: hand 2's preview is
    scored from hand 1's totals. Hand 2 is saved offline too. Back online, the server's sheet
    shows the numbers the phone showed.
    """
    expect(page.locator("#next-hand #preview")).to_be_attached()
    fill_hand(page, HAND_ONE)
    expect(page.locator("#preview")).to_contain_text("-145")
    go_offline(page, context)
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#sheet tr.queued th")).to_have_text("1")
    assert queued_rows(page) == [["1", "1620", "1620", "-145", "-145"]]
    expect(page.locator("#sheet tr.queued-note")).to_contain_text("saved on this phone, not sent yet")
    assert totals(page) == [1620, -145]
    assert needs(page) == ["90", "15"]
    expect(page.locator("#sheet .queued-totals")).to_contain_text("count the hands saved on this phone, not sent yet")
    expect(page.locator("#next-hand .next-hand-title")).to_have_text("Hand 2")
    assert to_open(page) == ["to open: 90", "to open: 15"]
    expect(page.locator("#next-hand [data-side-total]")).to_have_text(["1620", "-145"])
    # Undo would act on a hand the players no longer see last: not offered while a hand waits.
    expect(page.get_by_role("button", name=re.compile("^Undo"))).to_have_count(0)

    page.route("**/matches/*/hands", lambda route: route.fulfill(status=503, body="Service Unavailable"))
    context.set_offline(False)
    expect(page.locator("#queue-status")).to_contain_text("The server had a problem (503)", timeout=REPLAY)
    fill_hand(page, HAND_TWO)
    expect(page.locator("#preview")).to_contain_text("3210")  # scored from hand 1's totals
    go_offline(page, context)
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#sheet tr.queued th")).to_have_text(["1", "2"])
    assert queued_rows(page) == [["1", "1620", "1620", "-145", "-145"], ["2", "1590", "3210", "600", "455"]]
    assert totals(page) == [3210, 455]
    assert needs(page) == ["120", "50"]
    expect(page.locator("#next-hand .next-hand-title")).to_have_text("Hand 3")
    assert to_open(page) == ["to open: 120", "to open: 50"]
    assert stored_hands(live_app, match_id) == ()

    page.unroute("**/matches/*/hands")
    context.set_offline(False)
    expect(page.get_by_role("link", name="Enter hand 3")).to_be_visible(timeout=REPLAY)
    # Said on the sheet reloaded from the server (the page before the reload, once both are
    # sent, shows no waiting row either).
    expect(page.locator("#queue-status")).to_contain_text("Hand 2 (We v They), saved on this phone, has been sent")
    expect(page.locator("#sheet tr.queued")).to_have_count(0)
    # The server's own sheet: the same scores and totals, and the same minimums.
    rows = page.locator("#sheet table.hands tbody tr")
    expect(rows).to_have_count(2)
    assert [row.locator("td.running").all_inner_texts() for row in rows.all()] == [["1620", "-145"], ["3210", "455"]]
    assert totals(page) == [3210, 455]
    assert needs(page) == ["120", "50"]
    assert to_open(page) == ["to open: 120", "to open: 50"]
    expect(page.locator("#sheet .queued-totals")).to_have_count(0)
    assert queue(page) == []


def open_sheet(page, url):
    """A sheet opened once the service worker runs, so this phone keeps a copy (as ``sheet`` does)."""
    page.goto(url)
    controlled(page)
    page.reload()
    expect(page.locator("#next-hand #preview")).to_be_attached()
    settled(page)


# Two stored hands: We 900 melded + two natural canastas 1000 + going out 100 = 2000 each; They 200.
NEAR_THE_END = [
    {"entries": [{"melded_points": 900, "canastas": {"natural": 2}, "went_out": True}, {"melded_points": 200}]}
] * 2


@pytest.mark.slow
def test_a_waiting_hand_that_reaches_the_target_says_the_game_may_be_over(
    page, context, live_app, live_server, violations
):
    """We stand at 4000: hand 3 (We 1620, They -145) takes We to 5620, past classic's 5000."""
    match_id = add_match(live_app, NEAR_THE_END)
    open_sheet(page, f"{live_server}/matches/{match_id}")
    assert totals(page) == [4000, 400]
    fill_hand(page, HAND_ONE)
    expect(page.locator("#preview")).to_contain_text("This hand ends the game.")
    go_offline(page, context)
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#sheet tr.queued")).to_have_count(1)
    assert queued_rows(page) == [["3", "1620", "5620", "-145", "255"]]
    expect(page.locator("#sheet tr.queued-note")).to_contain_text(
        "The game may be over once it is sent: the server decides."
    )
    assert totals(page) == [5620, 255]

    context.set_offline(False)  # the server decides: the game is over, We won by 5620 - 255 = 5365
    expect(page.locator("#sheet .outcome")).to_contain_text("We won by 5365", timeout=REPLAY)
    expect(page.locator("#sheet tr.queued, #sheet .queued-totals")).to_have_count(0)
    assert totals(page) == [5620, 255]


# Every htmx request the page was about to configure, and whether offline.js held it back.
CONFIGURED = """window.scorepadConfigured = [];
  window.addEventListener("htmx:configRequest", (event) => window.scorepadConfigured.push(
    [event.detail.path, event.defaultPrevented]));"""


# The server answers the saves 503 for a while: Chromium logs each of those answers.
@pytest.mark.slow
@pytest.mark.console_allows(r"status of 503 \(Service Unavailable\)")
def test_behind_a_hand_typed_offline_nothing_is_scored_until_it_is_sent(page, context, live_app, sheet, match_id):
    """Hand 1 had no preview: hand 2, typed while the server answers again, is not previewed
    from the wrong totals, and its form says its minimum is not known yet."""
    expect(page.locator("#next-hand #preview")).to_be_attached()
    go_offline(page, context)
    fill_hand(page, HAND_ONE)
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#sheet tr.queued td")).to_contain_text("Its score will show when it is sent.")

    page.route("**/matches/*/hands", lambda route: route.fulfill(status=503, body="Service Unavailable"))
    context.set_offline(False)
    expect(page.locator("#queue-status")).to_contain_text("The server had a problem (503)", timeout=REPLAY)
    page.evaluate(CONFIGURED)
    fill_hand(page, HAND_TWO)
    wait_until(page, "window.scorepadConfigured.some(([path]) => path.endsWith('/hands/preview'))")
    assert {held for path, held in page.evaluate("window.scorepadConfigured") if path.endswith("/preview")} == {True}
    expect(page.locator("#preview")).to_be_empty()
    assert to_open(page) == ["to open: known once the hands before it are sent"] * 2
    assert totals(page) == [0, 0]
    page.get_by_role("button", name="Save hand").click()  # behind hand 1: it waits too
    expect(page.locator("#sheet tr.queued th")).to_have_text(["1", "2"])
    expect(page.locator("#sheet tr.queued td")).to_contain_text(["Its score will show when it is sent."] * 2)

    page.unroute("**/matches/*/hands")
    page.get_by_role("button", name="Send now").click()
    expect(page.locator("#queue-status")).to_contain_text(
        "Hand 2 (We v They), saved on this phone, has been sent", timeout=REPLAY
    )
    assert totals(page) == [3210, 455]
    assert needs(page) == ["120", "50"]
