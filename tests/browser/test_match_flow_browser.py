"""A whole match as a new player keeps it, on a phone-sized Chromium, plus a watching phone."""

import re

from playwright.sync_api import expect

from browser.waiting import wait_until


def totals(page):
    return [int(t.replace(",", "")) for t in page.locator("#sheet [data-total]").all_inner_texts()]


def start_match(page, live_server, target="3000"):
    page.goto(f"{live_server}/")
    page.get_by_role("link", name="New match").click()
    page.get_by_role("link", name=re.compile("^Classic canasta Four players")).click()
    page.fill("#side_0_player_0", "Ann")
    page.fill("#side_1_player_0", "Cy")
    page.fill("#option_target", target)
    page.get_by_role("button", name="Start the match").click()
    expect(page.get_by_role("link", name="Enter hand 1")).to_be_visible()


def settled(page):
    """Wait until htmx has swapped and processed the new content, as a person's eyes would."""
    wait_until(
        page, "window.htmx && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added')"
    )


def open_form(page, link):
    """Follow a boosted link to a form and wait until its live preview is wired up."""
    page.get_by_role("link", name=link).click()
    expect(page.locator("main > .hand-form #preview")).to_be_attached()
    settled(page)


def more(page, side, label, times=1):
    button = page.locator(f".side-{side}").get_by_role("button", name=f"One more: {label}")
    for _ in range(times):
        button.click()


def enter_classic_hand(page, we_melded="620"):
    """The typical classic hand, counted in taps: 1 open + 5 for We + 4 for They + 1 save = 11."""
    open_form(page, re.compile("^Enter hand"))
    page.fill("#sides-0-melded_points", we_melded)
    more(page, 0, "Natural canasta")
    more(page, 0, "Mixed canasta")
    more(page, 0, "Red threes")
    page.check("#sides-0-went_out")
    page.fill("#sides-1-melded_points", "260")
    page.fill("#sides-1-hand_points", "95")
    more(page, 1, "Mixed canasta")
    more(page, 1, "Red threes")
    expect(page.locator("#preview")).to_contain_text("This hand")
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#sheet")).to_be_visible()


def test_a_whole_match(page, browser, live_server):
    start_match(page, live_server)
    match_url = page.url
    enter_classic_hand(page)  # We 500+300+100+100+620 = 1620; They 300+100+260-95 = 565
    assert totals(page) == [1620, 565]
    expect(page.locator(".side-total").first).to_contain_text("to open: 90")

    # Hand 2 with the card counter: 1 joker, 4 aces, 14 high cards = 270 points melded.
    open_form(page, "Enter hand 2")
    counter = page.locator(".side-0 details.counter")
    counter.locator("summary").click()
    counter.get_by_role("button", name="One more: Jokers (50)").first.click()
    for _ in range(4):
        counter.get_by_role("button", name="One more: Aces (20)").first.click()
    counter.locator("#sides-0-melded_high").fill("14")
    expect(page.locator("#sides-0-melded_points")).to_have_value("270")
    more(page, 0, "Mixed canasta")
    page.check("#sides-0-went_out")
    page.fill("#sides-1-melded_points", "100")
    page.fill("#sides-1-hand_points", "40")
    expect(page.locator("#preview")).to_contain_text("670")
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#sheet")).to_be_visible()
    assert totals(page) == [2290, 625]
    expect(page.locator(".hands tbody tr").nth(1)).to_contain_text("need 90")

    # A watching phone opens the read-only link.
    page.get_by_role("link", name="Share", exact=True).click()
    watch_url = page.locator("#watch-link").input_value()
    watcher_context = browser.new_context(viewport={"width": 390, "height": 844})
    watcher = watcher_context.new_page()
    watcher.goto(watch_url)
    expect(watcher.locator("#sheet [data-total]").first).to_have_text("2,290")
    assert watcher.get_by_role("link", name=re.compile("Enter hand")).count() == 0
    page.goto(match_url)

    # Hand 3 reaches the target; the watching phone follows within seconds.
    enter_classic_hand(page, we_melded="300")
    assert totals(page) == [3590, 1190]  # past the target of 3000: over, for now
    expect(watcher.locator("#sheet [data-total]").nth(1)).to_have_text("1,190", timeout=8000)

    # Undo hand 3: the game is open again.
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Undo hand 3").click()
    expect(page.locator(".flash")).to_contain_text("Hand 3 undone.")
    assert totals(page) == [2290, 625]

    # Fix hand 1: We melded 520 instead of 620; every later total follows.
    page.get_by_role("link", name="Hand 1 in detail").click()
    expect(page.locator(".breakdown").first).to_contain_text("Natural canasta × 1 (at 500)")
    open_form(page, "Correct this hand")
    page.fill("#sides-0-melded_points", "520")
    expect(page.locator("#preview")).to_contain_text("1,520")
    page.get_by_role("button", name="Save correction").click()
    expect(page.locator(".flash")).to_contain_text("Hand 1 corrected.")
    assert totals(page) == [2190, 625]
    expect(watcher.locator("#sheet [data-total]").first).to_have_text("2,190", timeout=8000)

    # A problem shows next to its box while typing, before saving.
    open_form(page, "Enter hand 3")
    # Links inside the polling sheet must not inherit its target: one page, not one in another.
    assert page.locator("main").count() == 1 and page.locator(".export-links").count() == 0
    page.check("#sides-1-went_out")
    expect(page.locator("#sides-1-went_out-error")).to_contain_text("Going out needs 1 completed canasta")
    page.uncheck("#sides-1-went_out")
    page.get_by_role("link", name="Sheet").click()

    # Hand 3 again finishes the game: winner, margin and settlement.
    enter_classic_hand(page)
    expect(page.locator(".outcome")).to_contain_text("We won by")
    expect(page.locator(".settlement")).to_contain_text("Settled to the hundred")
    assert page.get_by_role("link", name=re.compile("Enter hand")).count() == 0
    expect(watcher.locator(".outcome")).to_contain_text("We won by", timeout=8000)
    watcher_context.close()


# Test instrumentation: the address of every XMLHttpRequest that has finished and been handled.
FINISHED = """() => {
  window.finished = [];
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    this.addEventListener('loadend', () => setTimeout(() => window.finished.push(String(url))));
    return open.call(this, method, url, ...rest);
  };
}"""


def test_a_preview_that_answers_after_the_save_is_dropped_quietly(page, live_server):
    # The server is slow with the preview: the player saves before it answers. The answer then has
    # no form to land in; the page drops it (no out-of-band swap without a target) and aborts
    # nothing (htmx logs an abort as an error), and any console error fails this test.
    start_match(page, live_server)
    open_form(page, "Enter hand 1")
    page.evaluate(FINISHED)
    held = []
    page.route("**/hands/preview", lambda route: held.append(route))
    with page.expect_request("**/hands/preview"):
        page.fill("#sides-0-melded_points", "120")
    page.fill("#sides-1-melded_points", "60")
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#sheet [data-total]").first).to_have_text("120")
    settled(page)
    for route in held:
        route.continue_()
    page.unroute("**/hands/preview")
    wait_until(page, "window.finished.some((url) => url.includes('/hands/preview'))")
    assert totals(page) == [120, 60] and page.locator("main").count() == 1


def test_the_sheet_stops_polling_when_the_page_goes_away(page, live_server):
    start_match(page, live_server)
    asked = []
    page.on("request", lambda request: "/sheet?since=" in request.url and asked.append(request.url))
    poll = "htmx.ajax('GET', document.querySelector('#sheet').getAttribute('hx-get'), {source: '#sheet'})"
    page.evaluate(poll)  # what the sheet's own timer does every 3 s
    assert len(asked) == 1
    page.evaluate(f"window.dispatchEvent(new PageTransitionEvent('pagehide')); {poll}")
    assert len(asked) == 1, "a page being left asks nothing more"
    page.evaluate(f"window.dispatchEvent(new PageTransitionEvent('pageshow')); {poll}")
    assert len(asked) == 2, "back on the page (from the back-forward cache), it polls again"


def test_the_score_sheet_loads_under_45_kb(page, live_server):
    start_match(page, live_server, target="5000")
    enter_classic_hand(page)
    fresh = page.context.browser.new_context(viewport={"width": 390, "height": 844})
    phone = fresh.new_page()
    phone.goto(page.url)
    phone.wait_for_load_state("networkidle")
    transferred = phone.evaluate(
        """() => performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))
                 .reduce((sum, entry) => sum + entry.transferSize, 0)"""
    )
    fresh.close()
    print(f"score sheet first load: {transferred} bytes transferred")
    # The sheet, every file it links and the next hand's form in place (issue 20). 49.5 KB: 43.1 KB
    # on e716259; issue 29 added 2.4 KB (scorepad.js: landing on the next hand, refusals in view,
    # what is typed on a slow network; the hand form's refusal slot); issue 28 added 2.4 KB
    # (offline.js and the scripts' words: hands waiting on the phone show their previews' figures).
    assert 0 < transferred < 49_500


def test_no_javascript_flow(no_js_page, live_server):
    page = no_js_page
    page.goto(f"{live_server}/matches/new/classic")
    page.get_by_role("button", name="Start the match").click()
    page.get_by_role("link", name="Enter hand 1").click()
    page.fill("#sides-0-melded_points", "620")
    page.fill("#sides-0-canasta_natural", "1")
    page.check("#sides-0-went_out")
    page.locator(".side-1 details.counter summary").click()
    page.fill("#sides-1-hand_low", "3")  # without JS the server values the counted cards
    page.get_by_role("button", name="Save hand").click()
    assert totals(page) == [1220, -15]
    page.get_by_role("button", name="Undo hand 1").click()
    assert totals(page) == [0, 0]
    page.get_by_role("button", name="Put hand 1 back").click()
    assert totals(page) == [1220, -15]


def test_can_i_from_the_score_sheet_uses_the_sides_total(page, live_server):
    # We: 620 melded + natural 500 + mixed 300 + a red three 100 + going out 100 = 1620, which
    # is in docs/rules.md's 1500-2995 step, so the checker opened from We's column asks for 90.
    start_match(page, live_server)
    enter_classic_hand(page)
    assert totals(page)[0] == 1620
    page.get_by_role("link", name="Can We…?").click()
    expect(page).to_have_url(re.compile(r"/check\?match=\w+&side=0"))
    expect(page.locator("#board")).to_contain_text("We: 1,620 · to open: 90")
