"""At the table between hands (issue 29): a saved hand lands where the next one starts, a refused
save says why where the player is looking, and a typical hand takes at most seven interactions
with no swipe, on the two phone sizes a table has (360x740 and 390x844).

Every total is worked by hand from docs/rules.md: natural canasta 500, mixed 300, red three 100 (for a
side that melded), going out 100, cards left in hand count against; a side under 1,500 needs 50
to open.
"""

import re

import club
import pytest
from playwright.sync_api import expect
from support import AS_SERVED, matrix

from browser.test_frictions_browser import settled, start_match
from browser.waiting import wait_until
from scorepad import create_app

PHONES = {360: {"width": 360, "height": 740}, 390: {"width": 390, "height": 844}}

# Where an element is against what covers the screen: the sticky top bar and the Save bar.
IN_VIEW = """(selector) => {
  const el = document.querySelector(selector);
  if (!el) return 'missing: ' + selector;
  const r = el.getBoundingClientRect();
  const header = document.querySelector('header.bar').getBoundingClientRect().bottom;
  const save = document.querySelector('.hand-form .save');
  const bar = el.closest('.save') ? innerHeight : save.getBoundingClientRect().top;
  const where = selector + ' at ' + Math.round(r.top) + '..' + Math.round(r.bottom);
  return r.top >= header - 0.5 && r.bottom <= bar + 0.5 && r.height > 0
    ? '' : where + ', screen ' + Math.round(header) + '..' + Math.round(bar);
}"""


class Player:
    """Counts what a player does (a tap, a number typed) and refuses any tap on something off the
    screen or under a sticky bar: a player would have to swipe first, and a swipe fails the test."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def seen(self, selector):
        where = self.page.evaluate(IN_VIEW, selector)
        assert not where, f"interaction {self.count + 1} needs a swipe: {where}"

    def tap(self, selector):
        self.seen(selector)
        self.count += 1
        self.page.locator(selector).click()  # in view already: Playwright scrolls nothing

    def type_into_focused(self, selector, number):
        assert self.page.evaluate("document.activeElement.id") == selector.lstrip("#")
        self.seen(selector)
        self.count += 1
        self.page.keyboard.type(number)

    def type(self, selector, number):
        self.tap(selector)  # the tap and the number are one interaction, as a person reckons it
        self.count -= 1
        self.type_into_focused(selector, number)


def save_a_hand(page, hand):
    for name, value in hand.items():
        if value == "y":
            page.check(f"#{name}")
        else:
            page.fill(f"#{name}", value)
    page.locator(".hand-form .save button").click()


def totals(*numbers):
    """The sheet's totals in any language's digits: 1200, 1,200, 1.200 or 1 200."""
    groups = [re.findall(r"\d{1,3}(?=(?:\d{3})*$)", str(n)) for n in numbers]
    return [re.compile("^" + r"[.,\s\u202f]?".join(digits) + "$") for digits in groups]


def begin(page, live_server):
    """A classic match started in the page's language (its buttons named in it)."""
    page.goto(f"{live_server}/matches/new/classic")
    page.locator("main form button.primary").click()
    expect(page.locator("#next-hand form")).to_be_attached()
    settled(page)


def lands_on_the_next_hand(page, number):
    expect(page.locator("#next-hand .next-hand-title")).to_contain_text(str(number))
    wait_until(page, "document.activeElement && document.activeElement.id === 'sides-0-melded_points'")
    wait_until(page, "scrollY > 0")
    settled(page)


# German's longer labels ("Ausgelegte Punkte", "Gemischte Canasta") push the other side's first
# boxes under the Save bar at 360 px: there the hand takes one swipe (README says so).
@pytest.mark.parametrize(
    ("width", "language"),
    matrix(
        [(360, "en"), (390, "en"), (360, "es"), (360, "pt-BR"), (390, "de")],
        quick=[(360, "en"), (390, "de")],
        ids=["360-en", "390-en", "360-es", "360-pt-BR", "390-de"],
    ),
)
def test_a_typical_hand_takes_seven_interactions_and_no_swipe(browser, live_server, width, language):
    context = browser.new_context(viewport=PHONES[width], is_mobile=True, has_touch=True, locale=language)
    page = context.new_page()
    begin(page, live_server)
    # Hand 1: We 600 + natural 500 + going out 100 = 1200; They 180.
    save_a_hand(page, {"sides-0-melded_points": "600", "sides-0-canasta_natural": "1",
                       "sides-0-went_out": "y", "sides-1-melded_points": "180"})  # fmt: skip
    expect(page.locator("#sheet [data-total]")).to_have_text(totals(1200, 180))
    # The phone is where hand 2 starts, not at the top of the page: its first box has focus.
    lands_on_the_next_hand(page, 2)
    assert page.evaluate("document.querySelector('#sheet').getBoundingClientRect().bottom") < 80
    # The totals so far are in view beside the sides' names, where the phone landed.
    expect(page.locator("#next-hand [data-side-total]")).to_have_text(totals(1200, 180))
    assert not page.evaluate(IN_VIEW, "#next-hand .side-1 [data-side-total]")
    player = Player(page)
    player.type_into_focused("#sides-0-melded_points", "600")
    player.tap("#sides-0-canasta_natural + .step")
    player.tap("label[for='sides-0-went_out']")
    player.type("#sides-1-melded_points", "180")
    player.type("#sides-1-hand_points", "65")
    player.tap("#sides-1-red_threes + .step")
    expect(page.locator("#preview .preview-table")).to_be_visible()
    player.tap(".hand-form .save button")
    # We 600 + natural 500 + going out 100 = 1200, 2400 in all; They 180 + one red three 100 - 65 = 215, 395.
    expect(page.locator("#sheet [data-total]")).to_have_text(totals(2400, 395))
    assert player.count == 7
    lands_on_the_next_hand(page, 3)
    context.close()


PASSPHRASE = club.PASSPHRASE  # the club tests' sign-in (club.signed_in)
# Both sides went out, each with a canasta: the one thing wrong is that only one side can go out.
BOTH_WENT_OUT = {"sides-0-melded_points": "600", "sides-0-canasta_natural": "1", "sides-0-went_out": "y",
                 "sides-1-melded_points": "500", "sides-1-canasta_mixed": "1", "sides-1-went_out": "y"}  # fmt: skip


@pytest.fixture
def live_app(make_app):
    return make_app(**AS_SERVED, ORGANISER_PASSPHRASE=PASSPHRASE)


def on_screen(page, selector):
    box = page.locator(selector).bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["height"] > 0 and box["y"] >= 0 and box["y"] + box["height"] <= height


@pytest.mark.parametrize("width", PHONES)
def test_a_refused_save_says_why_above_save_and_focuses_the_problem(browser, live_server, width):
    context = browser.new_context(viewport=PHONES[width], is_mobile=True, has_touch=True)
    page = context.new_page()
    start_match(page, live_server)
    save_a_hand(page, BOTH_WENT_OUT)
    refusal = page.locator("#save-refusal")
    expect(refusal).to_have_text(re.compile(r"^Not saved: .*two sides say they went out", re.I))
    assert refusal.get_attribute("role") == "alert"
    settled(page)
    assert not page.evaluate(IN_VIEW, "#save-refusal")
    # The problem itself has focus and is on screen above the Save bar.
    wait_until(page, "!!document.activeElement.closest('.invalid, .problems')")
    focused = page.evaluate("document.activeElement.id")
    assert not page.evaluate(IN_VIEW, f"#{focused}")
    assert page.locator(".hand-form [data-total], .hand-form .save button").count() == 1  # the form, not the sheet
    context.close()


def test_a_live_problem_shows_above_save_before_the_tap(page, live_server):
    start_match(page, live_server)
    for name in ("sides-0-went_out", "sides-1-went_out"):
        page.check(f"#{name}")
    expect(page.locator("#save-refusal")).to_have_text(re.compile(r"^Not saved yet: ", re.I))
    assert on_screen(page, "#save-refusal")


def test_without_javascript_a_saved_hand_lands_on_the_next_and_a_refusal_is_on_screen(no_js_page, live_server):
    page = no_js_page
    page.goto(f"{live_server}/matches/new/classic")
    page.get_by_role("button", name="Start the match").click()
    save_a_hand(page, BOTH_WENT_OUT)
    assert page.url.endswith("/hands")
    assert re.match(r"^Not saved: .*two sides say they went out", page.locator("#save-refusal").inner_text(), re.I)
    assert on_screen(page, "#save-refusal"), "the sticky Save bar holds the reason, in view at the page's top"
    page.uncheck("#sides-1-went_out")
    page.fill("#sides-1-canasta_mixed", "")
    page.locator(".hand-form .save button").click()
    # We 600 + 500 + 100 = 1200; They 500 melded. The sheet opens where hand 2 starts.
    assert page.url.endswith("#next-hand")
    assert page.locator("#sheet [data-total]").all_inner_texts() == ["1,200", "500"]
    assert page.evaluate("scrollY") > 0 and on_screen(page, "#next-hand .next-hand-title")


@pytest.mark.console_allows(r"the server responded with a status of 403")
def test_a_refusal_from_the_server_is_shown_on_a_boosted_page(page, live_app, live_server):
    """A table's phone taps Delete on its club match: the server answers 403 with a reason."""
    app = create_app({**live_app.config, "TESTING": True, "WTF_CSRF_ENABLED": False})
    match_id = club.start_night(app, club.signed_in(app), "Ana & Ben", "Cy & Di", rounds="1").matches[1]
    page.goto(f"{live_server}/matches/{match_id}")
    page.locator(".delete-match").get_by_role("link", name="Delete").click()
    with page.expect_response(lambda response: response.request.method == "POST") as answer:
        page.get_by_role("button", name="Delete the match").click()
    assert answer.value.status == 403
    reason = page.locator("#round-closed")
    expect(reason).to_contain_text("only the organiser can delete it")
    assert reason.get_attribute("role") == "alert"
    assert on_screen(page, "#round-closed")
    wait_until(page, "document.activeElement && document.activeElement.id === 'round-closed'")


def test_a_meld_below_the_minimum_is_named_and_asked_once_more(page, live_server):
    start_match(page, live_server)
    page.fill("#sides-0-melded_points", "40")
    page.fill("#sides-1-melded_points", "260")
    expect(page.locator("#preview")).to_contain_text("We: 40 melded, below the 50 needed to open.")
    page.locator(".hand-form .save button.primary").click()
    expect(page.locator("#save-refusal")).to_contain_text("We: 40 melded, below the 50 needed to open.")
    again = page.get_by_role("button", name="Save anyway")
    wait_until(page, "document.activeElement && document.activeElement.name === 'low_melds_confirmed'")
    assert on_screen(page, "#save-refusal")
    again.click()
    # We 40 melded; They 260.
    expect(page.locator("#sheet [data-total]")).to_have_text(["40", "260"])
