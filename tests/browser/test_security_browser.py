"""The Content-Security-Policy in Chromium: it is enforced, htmx runs under it, and nothing typed is lost."""

import re

import pytest
from playwright.sync_api import expect

from browser.conftest import CONSOLE_PROBLEMS
from browser.waiting import wait_until


def test_the_policy_is_enforced_and_a_violation_is_caught(page, live_server):
    """An inline script is refused, and the console check sees it (so the other tests can trust it)."""
    response = page.goto(f"{live_server}/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.ran = 1';"
        " document.head.append(s); }"
    )
    assert page.evaluate("window.ran") is None, "the inline script did not run"
    wait_until(page, "true")  # let the console event arrive
    assert any("Content Security Policy" in problem for problem in CONSOLE_PROBLEMS), CONSOLE_PROBLEMS
    CONSOLE_PROBLEMS.clear()


def test_htmx_runs_without_eval_or_injected_styles(page, live_server):
    page.goto(f"{live_server}/")
    wait_until(page, "window.htmx")
    assert page.evaluate("htmx.config.allowEval") is False
    assert page.evaluate("htmx.config.includeIndicatorStyles") is False
    assert page.evaluate("document.querySelectorAll('style').length") == 0
    # Settling copies an old element's attributes onto the new one; a style attribute would be an
    # inline style the policy blocks (seen on the club night dashboard when buttons came quickly).
    assert "style" not in page.evaluate("htmx.config.attributesToSettle")


def start_match(page, live_server):
    page.goto(f"{live_server}/matches/new/classic")
    page.get_by_role("button", name="Start the match").click()
    expect(page.get_by_role("link", name="Enter hand 1")).to_be_visible()


def open_hand_form(page, live_server):
    start_match(page, live_server)
    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.locator("main > .hand-form #preview")).to_be_attached()
    wait_until(page, "window.htmx && !document.querySelector('.htmx-request, .htmx-settling')")


def test_a_hand_saved_after_the_session_is_gone_comes_back_filled_in_and_saves(page, context, live_server):
    """The cookie vanishes while the hand is typed (values set without the live preview running)."""
    open_hand_form(page, live_server)
    context.clear_cookies()
    for box, value in (("#sides-0-melded_points", "620"), ("#sides-1-melded_points", "260")):
        page.locator(box).evaluate("(input, value) => { input.value = value; }", value)
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#form-problems")).to_contain_text("security check did not pass")
    expect(page.locator("#sides-0-melded_points")).to_have_value("620")
    expect(page.locator("#sides-1-melded_points")).to_have_value("260")
    page.get_by_role("button", name="Save hand").click()
    expect(page).to_have_url(re.compile(r"/matches/[0-9a-f]+$"))
    expect(page.locator("#sheet")).to_contain_text("620")
    page.wait_for_load_state("load")  # closing mid-load leaves the test server a file to close
    wait_until(page, "!window.htmx || !document.querySelector('#next-hand:empty')")  # the next hand's form, in place


def test_the_live_preview_mends_the_token_before_save(page, context, live_server):
    """Typing runs the preview; it says what happened and swaps in a fresh token, so Save works at once."""
    open_hand_form(page, live_server)
    context.clear_cookies()
    page.fill("#sides-0-melded_points", "620")  # one box: one preview, whose answer stays shown
    expect(page.locator("#form-problems")).to_contain_text("security check did not pass")
    wait_until(page, "!document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping')")
    page.get_by_role("button", name="Save hand").click()
    expect(page).to_have_url(re.compile(r"/matches/[0-9a-f]+$"))
    expect(page.locator("#sheet")).to_contain_text("620")
    page.wait_for_load_state("load")  # closing mid-load leaves the test server a file to close
    wait_until(page, "!window.htmx || !document.querySelector('#next-hand:empty')")  # the next hand's form, in place


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_undo_from_a_page_whose_session_is_gone_says_nothing_changed(browser, live_server, javascript):
    context = browser.new_context(java_script_enabled=javascript)
    page = context.new_page()
    start_match(page, live_server)
    page.get_by_role("link", name="Enter hand 1").click()
    page.fill("#sides-0-melded_points", "620")
    page.fill("#sides-1-melded_points", "260")
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#sheet")).to_contain_text("620")
    page.wait_for_load_state("load")  # closing mid-load leaves the test server a file to close
    wait_until(page, "!window.htmx || !document.querySelector('#next-hand:empty')")  # the next hand's form, in place
    context.clear_cookies()
    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name=re.compile("^Undo")).click()
    expect(page.locator(".flash")).to_contain_text("Nothing was changed")
    expect(page.locator("#sheet")).to_contain_text("620")
    page.wait_for_load_state("load")  # closing mid-load leaves the test server a file to close
    wait_until(page, "!window.htmx || !document.querySelector('#next-hand:empty')")  # the next hand's form, in place
    context.close()
