"""Who sees what, on phones: a watcher's phone never reaches the writer's matches; the organiser
signs in and sees every match."""

import pytest
from playwright.sync_api import expect
from support import AS_SERVED, add_match

from scorepad import access

from .conftest import PHONE

PASSPHRASE = "two jokers and a deuce"


@pytest.fixture
def live_app(make_app):
    """The app as a club runs it: CSRF on and an organiser passphrase set."""
    return make_app(**AS_SERVED, ORGANISER_PASSPHRASE=PASSPHRASE)


@pytest.fixture
def phones(browser):
    """Separate phones: each context has its own cookies, like a phone of its own."""
    contexts = []

    def phone():
        context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
        contexts.append(context)
        return context.new_page()

    yield phone
    for context in contexts:
        context.close()


def start_match(page, live_server, title):
    page.goto(f"{live_server}/matches/new/classic")
    page.fill("#title", title)
    page.get_by_role("button", name="Start the match").click()
    expect(page.get_by_role("link", name="Enter hand 1")).to_be_visible()
    return page.url.rsplit("/", 1)[1]


def test_a_watchers_phone_taps_the_logo_and_sees_none_of_the_writers_matches(phones, live_server):
    writer, watcher = phones(), phones()
    match_id = start_match(writer, live_server, "Friday at Ann's")
    start_match(writer, live_server, "Saturday at Bob's")
    writer.goto(f"{live_server}/matches/{match_id}/share")
    watch_link = writer.locator("#watch-link").input_value()

    watcher.goto(watch_link)
    expect(watcher.locator("#sheet")).to_be_visible()
    assert match_id not in watcher.content()
    watcher.get_by_role("link", name="scorepad").click()
    expect(watcher.get_by_role("heading", name="Your matches")).to_be_visible()
    assert watcher.url == f"{live_server}/"
    expect(watcher.locator("ul.matches")).to_have_count(0)
    assert "Friday at Ann's" not in watcher.content() and "Saturday" not in watcher.content()
    assert match_id not in watcher.content()

    writer.goto(f"{live_server}/")
    expect(writer.locator("ul.matches li")).to_have_count(2)


def test_the_organiser_signs_in_and_sees_every_match(phones, live_app, live_server, monkeypatch):
    clock = {"now": 1_000_000.0}
    monkeypatch.setattr(access.time, "time", lambda: clock["now"])  # the sign-in's clock, moved by hand
    writer, organiser = phones(), phones()
    start_match(writer, live_server, "Friday at Ann's")
    add_match(live_app, [], title="From before the upgrade")  # on nobody's list

    organiser.goto(f"{live_server}/")
    expect(organiser.locator("ul.matches")).to_have_count(0)
    organiser.get_by_role("link", name="Organiser").click()
    organiser.get_by_label("Organiser passphrase").fill("a wrong guess")
    organiser.get_by_role("button", name="Sign in").click()
    expect(organiser.get_by_text("That is not the organiser passphrase.")).to_be_visible()
    organiser.get_by_label("Organiser passphrase").fill(PASSPHRASE)
    organiser.get_by_role("button", name="Sign in").click()  # at once: a wrong guess slows the next one
    expect(organiser.get_by_text("Too many wrong passphrases were tried: try again in 1 second.")).to_be_visible()
    clock["now"] += 1  # the organiser waits the second
    organiser.get_by_label("Organiser passphrase").fill(PASSPHRASE)
    organiser.get_by_role("button", name="Sign in").click()
    expect(organiser.get_by_role("heading", name="Every match")).to_be_visible()
    items = organiser.locator("ul.matches li")
    expect(items).to_have_count(2)
    texts = " ".join(items.all_inner_texts())
    assert "Friday at Ann's" in texts and "From before the upgrade" in texts
    width = organiser.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], "the list fits the phone's width"
