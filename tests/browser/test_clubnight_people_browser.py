"""The organiser's corrections of people, and a second laptop with an older page, in Chromium (issue 30)."""

import re

from playwright.sync_api import expect

from browser.test_clubnight_browser import LAPTOP, create_night, enter, live_app, press, sign_in  # noqa: F401

__all__ = ["live_app"]  # the fixture: this night's server has the organiser's passphrase


def test_a_typo_is_renamed_a_mistake_removed_and_the_night_deleted(browser, live_server):
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    sign_in(page, live_server)
    create_night(page, live_server)
    enter(page, "Ann & Bo", "Typo", "Cy & Di")
    entrants = page.locator("ol.entrants > li")
    entrants.nth(0).locator("summary").click()
    entrants.nth(0).get_by_label("New name").fill("Ann & Bob")
    entrants.nth(0).get_by_role("button", name="Rename").click()
    expect(page.locator(".flash")).to_contain_text("Ann & Bo is now called Ann & Bob.")
    page.once("dialog", lambda dialog: dialog.accept())
    entrants.nth(1).locator("summary").click()
    entrants.nth(1).get_by_role("button", name="Remove Typo").click()
    expect(page.locator(".flash")).to_contain_text("Typo was removed from the night.")
    expect(entrants).to_have_count(2)
    expect(page.locator("ol.entrants")).not_to_contain_text("Typo")
    expect(entrants.nth(0)).to_contain_text("Ann & Bob")
    # Leaving the night out of the season and counting it again.
    press(page, "Leave it out of the season")
    expect(page.locator(".flash")).to_contain_text("The night is left out of its season.")
    press(page, "Count it in the season")
    expect(page.locator(".flash")).to_contain_text("The night counts toward its season.")
    # The delete button asks for the box first (the browser's own check), then deletes.
    page.get_by_label("Yes, delete this night with its tables’ matches").check()
    page.get_by_role("button", name="Delete the night").click()
    expect(page.locator(".flash")).to_contain_text("The night Thursday club is deleted.")
    expect(page).to_have_url(re.compile(r"/nights$"))
    expect(page.locator("main")).to_contain_text("No club night yet.")
    context.close()


def test_a_second_laptop_with_an_older_page_is_told_what_changed(browser, live_server):
    first, second = (browser.new_context(viewport=LAPTOP) for _ in range(2))
    desk, other = first.new_page(), second.new_page()
    sign_in(desk, live_server)
    sign_in(other, live_server)
    create_night(desk, live_server, rounds=2)  # a Mitchell of two tables plays two rounds
    enter(desk, "A", "B", "C", "D")
    press(desk, "Seat round 1")
    other.goto(desk.url)  # the second laptop's page: round 1 seated
    enter(desk, "E")  # meanwhile a late pair joins at the desk
    other.get_by_role("button", name="Start round 1").click()
    flashes = other.locator(".flashes")
    expect(flashes).to_contain_text("Meanwhile, on another device:")
    expect(flashes).to_contain_text("E joined the night.")
    expect(flashes).to_contain_text("Nothing was done: here is the night as it is now.")
    expect(other.locator("#table-3")).to_contain_text("E")  # the page is the night as it is now
    # Now up to date, the second laptop starts the round: one match at each table of two.
    other.get_by_role("button", name="Start round 1").click()
    expect(flashes).to_contain_text("Round 1 has started.")
    expect(other.locator("#table-1").get_by_role("link", name="Sheet")).to_be_visible()
    expect(other.locator("#table-3").get_by_role("link", name="Sheet")).to_have_count(0)
    first.close()
    second.close()


def test_a_name_of_one_long_word_stays_on_a_phone_with_its_corrections_open(browser, live_server):
    """The whole evening (issue 30): a 100-letter name with no space pushed the Remove button past
    the edge of a 390 px phone once "Correct" was open. The dashboard is reached by links, as an
    organiser reaches it: a boosted link swaps the body only, and the club's stylesheet was in the
    head, so it never loaded (the page stood unstyled until a reload)."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    sign_in(page, live_server)
    create_night(page, live_server)
    long_name = "W" * 100  # the longest name the form takes, and the widest letter
    enter(page, long_name, "Cy & Di")
    entrant = page.locator("ol.entrants > li").nth(0)
    entrant.locator("summary").click()
    remove = entrant.get_by_role("button", name=f"Remove {long_name}")
    expect(remove).to_be_visible()
    box = remove.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()
