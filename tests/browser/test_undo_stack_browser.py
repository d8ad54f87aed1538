"""Undo twice, then Put back, on a 390 px phone: the hand undone last comes back, and Undo asks first.

Issue #28's report, as a player taps it: three classic hands, rows 500, 600 and 700 for We.
"""

import re

from playwright.sync_api import expect

from browser.test_match_flow_browser import open_form, settled, start_match, totals


def rows(page):
    """Each hand row's number and We's score, as the sheet shows them."""
    found = []
    for row in page.locator("#sheet table.hands tbody tr:not(.start)").all():
        number = row.locator("th").inner_text().strip()
        score = row.locator("td.score").first.inner_text().split("\n")[-1].strip()
        found.append((int(number), int(re.sub(r"need \d+", "", score).strip().replace(",", ""))))
    return found


def enter(page, melded, in_hand):
    """We meld ``melded`` with a mixed canasta and go out; They hold ``in_hand`` points.

    docs/rules.md: We score 300 (mixed canasta) + 100 (going out) + melded; They score -in_hand.
    """
    open_form(page, re.compile("^Enter hand"))
    page.fill("#sides-0-melded_points", str(melded))
    page.locator(".side-0").get_by_role("button", name="One more: Mixed canasta").click()
    page.check("#sides-0-went_out")
    page.fill("#sides-1-hand_points", str(in_hand))
    expect(page.locator("#preview")).to_contain_text("This hand")
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#sheet")).to_be_visible()
    settled(page)


def undo(page, number, asked):
    """Tap Undo: the phone asks first (htmx's confirm); the answer is recorded in ``asked``."""

    def answer(dialog):
        asked.append(dialog.message)
        dialog.accept()

    page.once("dialog", answer)
    page.get_by_role("button", name=f"Undo hand {number}").click()
    expect(page.locator(".flash").first).to_contain_text(f"Hand {number} undone.")
    settled(page)


def test_undo_twice_then_put_back_restores_the_hand_undone_last(page, live_server):
    start_match(page, live_server, target="5000")
    enter(page, 100, 10)  # We 300 + 100 + 100 = 500, They -10
    enter(page, 200, 20)  # We 600, They -20
    enter(page, 300, 30)  # We 700, They -30
    assert totals(page) == [1800, -60]
    assert rows(page) == [(1, 500), (2, 600), (3, 700)]

    asked = []
    undo(page, 3, asked)
    assert totals(page) == [1100, -30]
    undo(page, 2, asked)
    assert totals(page) == [500, -10]
    assert asked == ["Undo hand 3? You can put it back.", "Undo hand 2? You can put it back."]

    # Put back brings hand 2 back (the one undone last), then hand 3: a stack.
    page.get_by_role("button", name="Put hand 2 back").click()
    expect(page.locator(".flash").first).to_contain_text("Hand 2 is back.")
    settled(page)
    assert rows(page) == [(1, 500), (2, 600)]
    assert totals(page) == [1100, -30]
    page.get_by_role("button", name="Put hand 3 back").click()
    expect(page.locator(".flash").first).to_contain_text("Hand 3 is back.")
    settled(page)
    assert rows(page) == [(1, 500), (2, 600), (3, 700)]
    assert totals(page) == [1800, -60]
    expect(page.get_by_role("button", name=re.compile("^Put hand"))).to_have_count(0)


def test_undo_dismissed_changes_nothing(page, live_server):
    start_match(page, live_server, target="5000")
    enter(page, 100, 10)
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.get_by_role("button", name="Undo hand 1").click()
    page.wait_for_timeout(300)
    assert totals(page) == [500, -10]
    expect(page.get_by_role("button", name="Undo hand 1")).to_be_visible()


# --- no Undo while hands wait on the phone (offline) -----------------------------------------
import pytest  # noqa: E402
from support import add_match  # noqa: E402

from browser.test_offline_browser import (  # noqa: E402  the offline tests' phone, kept sheet and hand
    REPLAY,
    WAITING,
    controlled,
    live_app,  # noqa: F401  fixture: the app whose service worker keeps pages
    queue,
    type_hand,
    violations,  # noqa: F401  fixture
)
from browser.waiting import wait_until  # noqa: E402

# Hand 1, on the server before the phone goes offline: nobody went out, We meld 650, They 500.
FIRST = {"entries": [{"melded_points": 650}, {"melded_points": 500}]}


@pytest.fixture
def match_id(live_app):  # noqa: F811
    return add_match(live_app, [FIRST])


@pytest.fixture
def sheet(page, live_server, match_id, violations):  # noqa: F811
    """The match's sheet, opened once the service worker runs, so this phone keeps a copy."""
    url = f"{live_server}/matches/{match_id}"
    page.goto(url)
    controlled(page)
    page.reload()  # now through the worker: the sheet is kept on the phone
    expect(page.get_by_role("link", name="Enter hand 2")).to_be_visible()
    settled(page)
    return url


def test_no_undo_is_offered_while_a_hand_waits_on_the_phone(page, context, live_app, sheet, match_id):  # noqa: F811
    expect(page.get_by_role("button", name="Undo hand 1")).to_be_visible()
    page.get_by_role("link", name="Enter hand 2").click()
    expect(page.locator("main > .hand-form #preview")).to_be_attached()
    settled(page)
    context.set_offline(True)
    wait_until(page, "!navigator.onLine")
    type_hand(page)
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#queue-status")).to_contain_text(WAITING)
    assert [item["state"] for item in queue(page)] == ["waiting"]

    # The kept sheet shows hand 2 waiting and offers no Undo: it would take back hand 1 behind it.
    page.get_by_role("link", name="Sheet", exact=True).click()
    expect(page.locator("#sheet tr.queued th")).to_have_text("2")
    expect(page.get_by_role("button", name=re.compile("^Undo hand"))).to_have_count(0)

    context.set_offline(False)
    expect(page.locator("#queue-status")).to_contain_text("has been sent: it is on the sheet", timeout=REPLAY)
    expect(page.get_by_role("button", name="Undo hand 2")).to_be_visible()
