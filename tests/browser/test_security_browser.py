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


def start_match(page, live_server):
    page.goto(f"{live_server}/matches/new/classic")
    page.get_by_role("button", name="Start the match").click()
    expect(page.get_by_role("link", name="Enter hand 1")).to_be_visible()


def test_a_hand_typed_after_the_session_is_gone_comes_back_and_saves(page, context, live_server):
    """The session cookie vanishes while the hand is typed: the form returns filled in, then saves."""
    start_match(page, live_server)
    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.locator("#preview")).to_be_attached()
    wait_until(page, "window.htmx && !document.querySelector('.htmx-request, .htmx-settling')")
    context.clear_cookies()
    page.fill("#sides-0-melded_points", "620")
    page.fill("#sides-1-melded_points", "260")
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#form-problems")).to_contain_text("security check did not pass")
    expect(page.locator("#sides-0-melded_points")).to_have_value("620")
    expect(page.locator("#sides-1-melded_points")).to_have_value("260")
    page.get_by_role("button", name="Save hand").click()
    expect(page).to_have_url(re.compile(r"/matches/[0-9a-f]+$"))
    expect(page.locator("#sheet")).to_contain_text("620")


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
    context.clear_cookies()
    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name=re.compile("^Undo")).click()
    expect(page.locator(".flash")).to_contain_text("Nothing was changed")
    expect(page.locator("#sheet")).to_contain_text("620")
    context.close()
