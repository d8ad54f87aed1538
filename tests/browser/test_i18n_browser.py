"""The language switch on a phone: tap Español once and every page after it is in Spanish."""

from playwright.sync_api import expect


def test_switching_to_spanish_on_the_home_page_keeps_later_pages_spanish(page, live_server):
    page.goto(f"{live_server}/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    switch = page.get_by_role("link", name="Language: English")
    box = switch.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44  # big enough to tap at the table
    switch.tap()
    expect(page.get_by_role("heading", name="Language")).to_be_visible()
    page.get_by_role("link", name="Español").tap()

    expect(page).to_have_url(f"{live_server}/")  # back where the switch was tapped
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.get_by_role("heading", name="Tus partidas")).to_be_visible()
    expect(page.get_by_role("link", name="Idioma: Español")).to_have_text("ES")

    page.get_by_role("link", name="Nueva partida").tap()  # a boosted link: the page after it
    expect(page).to_have_url(f"{live_server}/matches/new")
    expect(page.get_by_role("heading", name="Nueva partida")).to_be_visible()
    expect(page.get_by_text("¿Qué Canasta están jugando?")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "es")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing runs off the side

    page.reload()  # remembered in the cookie, not only in this page
    expect(page.get_by_role("heading", name="Nueva partida")).to_be_visible()


def test_the_switch_works_without_javascript(no_js_page, live_server):
    no_js_page.goto(f"{live_server}/check")
    no_js_page.locator("a.language").click()
    no_js_page.get_by_role("link", name="Português").click()
    assert no_js_page.locator("html").get_attribute("lang") == "pt-BR"
    assert no_js_page.url == f"{live_server}/check"


def test_a_match_started_in_english_reads_nosotros_after_switching_to_spanish(page, live_server):
    page.goto(f"{live_server}/matches/new/classic")
    expect(page.locator("#side_0")).to_have_value("We")  # the names offered in English
    page.fill("#side_1", "Ann & Bo")
    page.get_by_role("button", name="Start the match").click()
    expect(page.locator(".side-name")).to_have_text(["We", "Ann & Bo"])
    page.get_by_role("link", name="Language: English").tap()
    page.get_by_role("link", name="Español").tap()
    expect(page.locator("html")).to_have_attribute("lang", "es")
    # Back on the sheet: the preset's name is read in Spanish, the family's as they typed it.
    expect(page.locator(".side-name")).to_have_text(["Nosotros", "Ann & Bo"])
