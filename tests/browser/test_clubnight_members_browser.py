"""The club's known players on a phone (issue 30): a name typed on an earlier night is picked, not typed again."""

from playwright.sync_api import expect

from browser.test_clubnight_browser import PASSPHRASE, live_app, sign_in  # noqa: F401
from scorepad import create_app

__all__ = ["live_app"]  # the fixture: this night's server has the organiser's passphrase
PHONE = {"width": 390, "height": 844}


def test_a_player_of_an_earlier_night_is_picked_from_the_list_on_a_phone(browser, live_app, live_server):
    client = create_app({**live_app.config, "TESTING": True, "WTF_CSRF_ENABLED": False}).test_client()
    client.post("/organiser", data={"passphrase": PASSPHRASE})
    night = {"variant": "classic", "rounds": "3", "round_length": "minutes", "length_value": "50", "warning": "10",
             "at_time": "finish_hand", "first_round": "as_entered", "movement": "mitchell", "scoring": "victory_points",
             "victory_points": "100: 10\n300: 11\n3000: 19", "bye_score": "12", "no_show_margin": "1500",
             "tie_break_1": "matches_won", "tie_break_2": "point_balance", "tie_break_3": "head_to_head",
             "tie_break_4": "", "season_points": "placement", "season_best": "8"}  # fmt: skip
    earlier, tonight = (
        client.post("/nights/new", data={**night, "name": name, "date": date}).headers["Location"].rsplit("/", 1)[1]
        for name, date in (("Last week", "2026-11-19"), ("Thursday club", "2026-11-26"))
    )
    client.post(f"/nights/{earlier}/entrants", data={"name": "C & B", "player_1": "Conceição Lima", "player_2": "Bo"})
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    sign_in(page, live_server)
    page.goto(f"{live_server}/nights/{tonight}")
    page.fill("#name", "Conceição & Di")
    box = page.get_by_role("combobox", name="Player 1")  # a box with a list of suggestions
    expect(box).to_be_visible()
    box.press_sequentially("conc")
    # Chromium draws the list's popup outside the page, where no test can click: pick as the popup
    # does, the option the typed letters match, into the box.
    options = page.locator("#club-players option").evaluate_all("(options) => options.map((o) => o.value)")
    (picked,) = [option for option in options if option.casefold().startswith(box.input_value().casefold())]
    box.fill(picked)
    page.get_by_role("combobox", name="Player 2").fill("Di")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator(".flash")).to_contain_text("Conceição & Di joined the night.")
    expect(page.locator("ol.entrants > li").first).to_contain_text("Conceição Lima, Di")
    # The phone's page fits its 390 px: nothing wider than the screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    context.close()
