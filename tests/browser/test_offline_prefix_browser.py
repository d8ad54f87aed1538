"""Under a prefix, in Chromium: the app answers at ``/canasta/`` behind a proxy, as in docs/deploy.md.

werkzeug's ``DispatcherMiddleware`` mounts the app at the prefix, which sets ``SCRIPT_NAME`` as
a proxy's ``X-Forwarded-Prefix`` would. The pages, the scripts and the service worker must
then ask for nothing outside the prefix: whatever reaches the server's root is recorded, and a
test that finds anything there fails.
"""

import pytest
from playwright.sync_api import expect
from support import add_match
from werkzeug.middleware.dispatcher import DispatcherMiddleware

from browser.test_offline_browser import (
    OTHER_PHONE,
    REPLAY,
    WAITING,
    controlled,
    queue,
    settled,
    stored_hands,
    totals,
    type_hand,
)
from browser.waiting import wait_until
from scorepad import canasta, store
from scorepad.db import connect

PREFIX = "/canasta"


@pytest.fixture
def outside():
    """The paths asked for outside the prefix (the server's own root answers them with 404)."""
    return []


@pytest.fixture
def live_server(live_app, outside, served):
    """The app mounted at PREFIX on a free loopback port; yields its base URL, prefix included."""

    def elsewhere(environ, start_response):
        outside.append(environ.get("PATH_INFO", ""))
        start_response("404 Not Found", [("Content-Type", "text/plain")])
        return [b"not scorepad"]

    served.app = DispatcherMiddleware(elsewhere, {PREFIX: live_app})
    yield served.url + PREFIX
    assert outside == [], "asked for outside the prefix"


@pytest.fixture
def match_id(live_app):
    return add_match(live_app, [])


@pytest.fixture
def sheet(page, live_server, match_id):
    """The match's sheet under the prefix, opened once the service worker runs (so it is kept)."""
    url = f"{live_server}/matches/{match_id}"
    page.goto(url)
    controlled(page)
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)") == f"{live_server}/"
    page.reload()  # now through the worker: the sheet is kept on the phone
    expect(page.get_by_role("link", name="Enter hand 1")).to_be_visible()
    settled(page)
    return url


def save_hand_two_offline(page, context):
    """Hand 2 in the form under the sheet, saved offline: nobody went out, We 650, They 500."""
    expect(page.locator("#next-hand .next-hand-title")).to_have_text("Hand 2")
    settled(page)
    context.set_offline(True)
    wait_until(page, "!navigator.onLine")
    page.fill("#sides-0-melded_points", "650")
    page.fill("#sides-1-melded_points", "500")
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#sheet tr.queued th")).to_have_text("2")
    expect(page.locator("#queue-status")).to_contain_text(WAITING)


def test_under_a_prefix_a_hand_is_saved_and_one_saved_offline_is_sent_later(page, context, live_app, sheet, match_id):
    # Online: hand 1 in the form under the sheet (1620 and 565, see type_hand).
    type_hand(page)
    page.get_by_role("button", name="Save hand").click()
    expect(page.get_by_role("link", name="Enter hand 2")).to_be_visible()
    assert totals(page) == [1620, 565]
    assert page.url == sheet

    save_hand_two_offline(page, context)
    [item] = queue(page)
    assert item["action"] == f"{PREFIX}/matches/{match_id}/hands"
    assert (item["state"], item["number"]) == ("waiting", 2)
    assert len(stored_hands(live_app, match_id)) == 1

    # A page this phone never kept: the worker's "You're offline" page, under the prefix, lists
    # the waiting hand (its link the sheet's) and the pages kept, the match list first.
    page.goto(f"{sheet}/share")
    expect(page.get_by_role("heading", name="You're offline")).to_be_visible()
    waiting = page.locator("[data-offline-queue] li a")
    expect(waiting).to_have_text("Hand 2 (We – They)")
    assert waiting.get_attribute("href") == f"{PREFIX}/matches/{match_id}"
    kept = page.locator("[data-offline-pages] li a")
    expect(kept.first).to_have_attribute("href", f"{PREFIX}/")
    assert f"{PREFIX}/matches/{match_id}" in [kept.nth(i).get_attribute("href") for i in range(kept.count())]

    context.set_offline(False)
    expect(page.locator("#queue-status")).to_contain_text("has been sent: it is on the sheet", timeout=REPLAY)
    assert queue(page) == []
    page.goto(sheet)
    expect(page.get_by_role("link", name="Enter hand 3")).to_be_visible()
    assert totals(page) == [1620 + 650, 565 + 500]
    assert len(stored_hands(live_app, match_id)) == 2


def test_under_a_prefix_a_hand_refused_on_reconnect_comes_back_with_its_reasons(
    page, context, live_app, sheet, match_id
):
    type_hand(page)
    page.get_by_role("button", name="Save hand").click()
    expect(page.get_by_role("link", name="Enter hand 2")).to_be_visible()
    save_hand_two_offline(page, context)
    # Meanwhile another phone saves hand 2 against the same version: We 650, They 500 again.
    db = connect(live_app.config["DATABASE"])
    try:
        store.add_hand(db, match_id, canasta.Hand.from_dict(OTHER_PHONE), 2)
    finally:
        db.close()
    context.set_offline(False)
    problems = page.locator("#form-problems")
    expect(problems).to_contain_text("Someone else saved hand 2 meanwhile: We 650, They 500.", timeout=REPLAY)
    expect(page.locator("#queue-status")).to_contain_text("was not taken by the server")
    assert page.url.startswith(f"{sheet}/hands/new")
    expect(page.locator("#sides-0-melded_points")).to_have_value("650")
    expect(page.locator("#sides-1-melded_points")).to_have_value("500")
    assert queue(page) == []
    assert len(stored_hands(live_app, match_id)) == 2


def test_under_a_prefix_the_installed_app_and_its_cookies_stay_there(page, context, live_server, sheet):
    """Issue #32: the manifest Chromium reads says /canasta/ (an installed app opens scorepad, not
    the club's home page), and every cookie scorepad set is scoped to /canasta."""
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    assert href == f"{PREFIX}/manifest.webmanifest"
    manifest = page.evaluate(f"fetch({href!r}).then((r) => r.json())")
    root = f"{PREFIX}/"
    assert (manifest["id"], manifest["start_url"], manifest["scope"]) == (root, root, root)
    assert all(icon["src"].startswith(f"{PREFIX}/static/") for icon in manifest["icons"])
    page.goto(f"{live_server}/matches/new/classic")  # a form: its token is kept in the session
    cookies = context.cookies()
    assert {"scorepad_session", "scorepad_browser"} <= {cookie["name"] for cookie in cookies}
    assert {cookie["path"] for cookie in cookies} == {PREFIX}
