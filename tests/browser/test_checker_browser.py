"""The "Can I?" page in Chromium at phone size: taps, the htmx swap, and the same page without JS."""

import pytest
from playwright.sync_api import expect

from browser.waiting import wait_until

pytestmark = pytest.mark.browser


def tap(page, name):
    """Tap a button and wait for its answer, as a player waits to see the card appear."""
    with page.expect_response(lambda response: "/check" in response.url):
        page.get_by_role("button", name=name, exact=True).click()
    page.wait_for_load_state()
    wait_until(page, "!document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping')")


def answer(page):
    return page.locator("#verdict .answer").inner_text()


def test_pagat_example_by_taps(page, live_server):
    page.goto(f"{live_server}/check")
    tap(page, "Take the pile?")
    for code in ["K", "K", "Q", "Q", "2"]:
        tap(page, f"Add {code}")
    tap(page, "Add cards to: Top of pile")
    tap(page, "Add K")
    page.wait_for_selector("#verdict.yes")
    assert answer(page) == "Yes"
    assert "K-K-K; Q-Q-2" in page.locator("#verdict").inner_text()
    assert page.url == f"{live_server}/check"  # swapped in place, no page load


def test_frozen_pile_says_no_and_why(page, live_server):
    page.goto(f"{live_server}/check")
    tap(page, "Take the pile?")
    for code in ["K", "joker", "Q"]:
        tap(page, f"Add {code}")
    tap(page, "Add cards to: Top of pile")
    tap(page, "Add K")
    page.wait_for_selector("#verdict.no")
    assert (
        "you need two natural kings in your hand; you have one king and a joker"
        in page.locator("#verdict").inner_text()
    )


def test_tap_targets_are_large(page, live_server):
    page.goto(f"{live_server}/check")
    small = []
    for button in page.locator("#board button").all():
        box = button.bounding_box()
        if box and (box["height"] < 48 or box["width"] < 44):
            small.append((button.inner_text(), box))
    assert not small
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_taking_back_the_last_card(page, live_server):
    page.goto(f"{live_server}/check")
    tap(page, "Add A")
    tap(page, "Add K")
    tap(page, "Take back the last card")
    assert page.locator('input[name="hand"]').input_value() == "A"


def test_without_javascript_the_form_posts_and_answers(no_js_page, live_server):
    page = no_js_page
    page.goto(f"{live_server}/check")
    tap(page, "Discard?")
    tap(page, "Add 2")
    assert page.locator('input[name="discard"]').input_value() == "2"
    assert answer(page) == "No"  # a lone card discarded goes out, and the side has no canasta
    for code in ["K", "5"]:
        tap(page, f"Add {code}")
    assert answer(page) == "Yes"
    assert "freezes the pile" in page.locator("#verdict").inner_text()


def test_a_house_rule_changes_the_verdict_in_place(page, live_server):
    # docs/rules.md "Taking the pile": on an unfrozen pile a king and a joker take a king, unless the table
    # plays pickup_with_wild off.
    page.goto(f"{live_server}/check")
    tap(page, "Take the pile?")
    for code in ["K", "joker", "Q"]:
        tap(page, f"Add {code}")
    tap(page, "Add cards to: On the table")
    for code in ["9", "9", "9"]:
        tap(page, f"Add {code}")
    tap(page, "Add cards to: Top of pile")
    tap(page, "Add K")
    page.wait_for_selector("#verdict.yes")
    page.get_by_text("House rules", exact=True).click()
    box = page.get_by_label("Take the pile with one natural and a wild")
    assert box.is_checked()
    with page.expect_response(lambda response: "/check/verdict" in response.url):
        box.uncheck()
    page.wait_for_selector("#verdict.no")
    assert "do not take the pile at your table" in page.locator("#verdict").inner_text()
    assert not page.get_by_label("Take the pile with one natural and a wild").is_checked()
    assert page.url == f"{live_server}/check"
    for control in page.locator(".house-rules .check-row, .house-rules select, .house-rules summary").all():
        assert control.bounding_box()["height"] >= 44
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


# Issue 21: a joker alone, tens and six queens on the table, going out with three fives. On the
# queens the joker completes the canasta classic needs to go out; on the tens there is none.
JOKER_ALONE = "/check?action=go_out&hand=JK+5+5+5&melds=JK|5+5+5&table=10+10+10|Q+Q+Q+Q+Q+Q"


@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "no-js"])
def test_tapping_the_meld_a_wild_card_goes_on(page, no_js_page, live_server, javascript):
    page = page if javascript else no_js_page
    page.goto(live_server + JOKER_ALONE)
    assert answer(page) == "Yes"
    assert "JK goes on your Q-Q-Q-Q-Q-Q" in page.locator("#verdict").inner_text()
    choices = page.get_by_role("group", name="Where Joker goes")
    assert choices.get_by_role("button", name="Any meld it fits").get_attribute("aria-pressed") == "true"
    tap(page, "10 10 10")
    page.wait_for_selector("#verdict.no")
    assert "needs one canasta" in page.locator("#verdict").inner_text()
    assert page.get_by_role("button", name="10 10 10", exact=True).get_attribute("aria-pressed") == "true"
    tap(page, "Q Q Q Q Q Q")
    page.wait_for_selector("#verdict.yes")
    assert page.locator('input[name="onto"]').input_value() == "0:table:1"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_language_switch_comes_back_to_the_cards_tapped(page, live_server):
    # The board changes in place with htmx; the bar's language link must follow it.
    page.goto(f"{live_server}/check")
    for code in ["7", "7", "joker"]:
        tap(page, f"Add {code}")
    page.locator("a.language").click()
    page.get_by_role("link", name="Deutsch").click()
    page.wait_for_selector("#verdict.yes")
    assert answer(page) == "Ja"
    assert page.locator('input[name="hand"]').input_value() == "7 7 JK"


def test_the_checker_reached_by_a_link_has_its_own_stylesheet(page, live_server):
    """A boosted link swaps the body only: the checker's stylesheet, kept in the head, never loaded
    when the checker was opened from the home page (its taps stood unstyled until a reload)."""
    page.goto(f"{live_server}/")
    page.get_by_role("link", name="Can I? (rules checker)").click()
    expect(page.locator("form.checker")).to_be_visible()
    loaded = page.evaluate("[...document.styleSheets].map(sheet => sheet.href || '').join(' ')")
    assert "checker.css" in loaded, loaded
