"""On a slow network (issue 29): every answer takes 1.5 s, as on a club's Wi-Fi on a busy night.
What is typed while a save is on its way survives the answer, a second tap is one request, and the
form says it is saving.

The delay is added by the served app rather than by Playwright's ``page.route``: the sync API runs
route handlers on the test's own thread, so a handler that waited 1.5 s would stop the test from
typing meanwhile, which is the very thing tried here. Static files come at once (a phone has them).
"""

import re
import time

import pytest
from playwright.sync_api import expect
from support import AS_SERVED

from browser.test_frictions_browser import settled
from browser.waiting import wait_until
from scorepad import create_app

DELAY = 1.5
PASSPHRASE = "long table long night"


def slowly(app):
    def answer(environ, start_response):
        if not environ.get("PATH_INFO", "").startswith("/static/"):
            time.sleep(DELAY)
        return app(environ, start_response)

    return answer


@pytest.fixture
def live_app(make_app):
    return make_app(**AS_SERVED, ORGANISER_PASSPHRASE=PASSPHRASE)


@pytest.fixture
def live_server(live_app, served):
    """The module's loopback server (browser/conftest.py), every answer but a static file 1.5 s late."""
    served.app = slowly(live_app)
    yield served.url


def posts(page, path):
    sent = []
    page.on("request", lambda request: request.method == "POST" and re.search(path, request.url) and sent.append(1))
    return sent


def test_the_next_hand_typed_while_a_save_is_on_its_way_is_kept(page, live_server):
    page.goto(f"{live_server}/matches/new/classic")
    page.get_by_role("button", name="Start the match").click()
    expect(page.locator("#next-hand form")).to_be_attached(timeout=10_000)
    settled(page)
    sent = posts(page, r"/hands$")
    page.fill("#sides-0-melded_points", "600")
    page.fill("#sides-0-canasta_natural", "1")
    page.check("#sides-0-went_out")
    page.fill("#sides-1-melded_points", "180")
    save = page.locator(".hand-form .save button")
    save.click()
    # On its way: the button says so and takes no second tap; Enter in a box sends nothing more.
    expect(save).to_have_text("Saving…")
    expect(save).to_be_disabled()
    page.locator("#sides-0-melded_points").press("Enter")
    # The next hand, typed meanwhile over the last one's boxes: We melded 450, They 200.
    page.fill("#sides-0-melded_points", "450")
    page.fill("#sides-1-melded_points", "200")
    # Hand 1 as sent: We 600 + natural 500 + going out 100 = 1200; They 180.
    expect(page.locator("#sheet [data-total]")).to_have_text(["1,200", "180"], timeout=10_000)
    expect(page.locator("#next-hand .next-hand-title")).to_have_text("Hand 2")
    expect(page.locator("#sides-0-melded_points")).to_have_value("450")
    expect(page.locator("#sides-1-melded_points")).to_have_value("200")
    assert page.locator("#sides-0-went_out").is_checked() is False  # not typed meanwhile: hand 2's own
    assert len(sent) == 1
    expect(page.locator(".hand-form .save button")).to_have_text("Save hand")


def test_taps_on_the_checker_while_an_answer_is_on_its_way_all_count(page, live_server):
    page.goto(f"{live_server}/check")
    page.get_by_role("button", name="Take the pile?", exact=True).click()
    expect(page.get_by_role("button", name="Take the pile?", exact=True)).to_have_attribute("aria-pressed", "true")
    settled(page)
    # Three cards tapped in quick succession, each before the last answer came.
    for code in ["K", "K", "Q"]:
        page.get_by_role("button", name=f"Add {code}", exact=True).click()
    wait_until(page, "document.querySelectorAll('#board .chips button[aria-label^=\"Pick\"]').length === 3", 15)
    settled(page)
    picked = page.locator("#board .chips button[aria-label^='Pick']").all_inner_texts()
    assert [card.strip() for card in picked] == ["K", "K", "Q"]


def test_an_import_tapped_twice_is_one_request(page, live_app, live_server, tmp_path):
    client = create_app({**live_app.config, "TESTING": True, "WTF_CSRF_ENABLED": False}).test_client()
    client.post("/matches/new/classic", data={"option_target": "5000"})
    backup = tmp_path / "backup.json"
    backup.write_bytes(client.get("/export/matches.json").data)
    page.goto(f"{live_server}/import")
    sent = posts(page, r"/import$")
    page.set_input_files("#import-file", str(backup))
    button = page.locator("form.import-form button")
    button.click()
    expect(button).to_have_text("Saving…")
    expect(button).to_be_disabled()
    page.locator("form.import-form button").dispatch_event("click")  # a second tap, disabled or not
    expect(page.locator(".import-done")).to_be_visible(timeout=10_000)
    settled(page)
    assert len(sent) == 1


def test_names_typed_while_an_entrant_is_added_are_kept_whole(page, live_app, live_server):
    client = create_app({**live_app.config, "TESTING": True, "WTF_CSRF_ENABLED": False}).test_client()
    client.post("/organiser", data={"passphrase": PASSPHRASE})
    page.goto(f"{live_server}/organiser")
    page.fill("#passphrase", PASSPHRASE)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".flash")).to_contain_text("Signed in as the organiser", timeout=10_000)
    page.goto(f"{live_server}/nights/new")
    page.fill("#name", "Thursday")
    page.fill("#date", "2026-11-26")
    page.get_by_role("button", name="Create the night").click()
    expect(page.locator(".flash")).to_contain_text("The night is ready", timeout=10_000)
    settled(page)
    sent = posts(page, r"/entrants$")
    add = page.get_by_role("button", name="Add", exact=True)
    page.fill("#name", "Ana")
    add.click()
    expect(page.locator("#entrants form button.primary, #entrants form button").first).to_have_text("Saving…")
    # While Ana is on her way, the next name is typed in full, and Add tapped again.
    page.fill("#name", "Łukasz")
    page.locator("#name").press("Enter")
    expect(page.locator(".flash")).to_contain_text("Ana joined the night.", timeout=10_000)
    settled(page)
    expect(page.locator("#name")).to_have_value("Łukasz")
    assert len(sent) == 1
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator(".flash")).to_contain_text("Łukasz joined the night.", timeout=10_000)
    settled(page)
    page.fill("#name", "José & Íñigo")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator(".flash")).to_contain_text("José & Íñigo joined the night.", timeout=10_000)
    assert len(sent) == 3
