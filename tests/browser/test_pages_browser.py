"""Every page at phone size, light and dark, with and without JavaScript: nothing runs off the side,
everything tapped is at least 44px, and text is at least 16px (the per-hand "need" notes, the
start row's word and the chart's labels are the only smaller print)."""

import re

import pytest
from playwright.sync_api import expect
from support import matrix

from scorepad import create_app

PHONE = {"width": 390, "height": 844}
LONG = "Wolfeschlegelsteinhausenbergerdorff"

MEASURE = """() => {
  const seen = el => {
    const r = el.getBoundingClientRect(), style = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && style.visibility !== 'hidden'
      && !el.closest('details:not([open]) > :not(summary)');
  };
  const say = el => el.tagName + (el.id ? '#' + el.id : '') + ' "'
    + (el.innerText || el.value || '').trim().slice(0, 30) + '"';
  const small = [], tiny = [];
  for (const el of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, summary, textarea')) {
    if (!seen(el)) continue;
    let r = el.getBoundingClientRect();
    const label = el.labels && el.labels[0];
    if (label && (el.type === 'checkbox' || el.type === 'radio')) r = label.getBoundingClientRect();
    if (r.height < 44 || r.width < 44) small.push(say(el) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (!walker.currentNode.textContent.trim() || !seen(el) || el.closest('svg, .hands .need, .hands .note')) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 16) tiny.push(say(el) + ' ' + size + 'px');
  }
  return {width: document.documentElement.scrollWidth, small, tiny};
}"""


@pytest.fixture
def pages(live_app, live_server):
    """A classic match with hands, and a three-player one with long names and five-digit totals."""
    seed = create_app({**live_app.config, "TESTING": True, "WTF_CSRF_ENABLED": False})
    client = seed.test_client()
    base = {"option_target": "5000", "option_canastas_to_go_out": "1", "option_restore_pile_penalty": "0"}
    classic = client.post(
        "/matches/new/classic", data={**base, "side_0": "We", "side_1": "They", "side_0_player_0": "Ann"}
    ).headers["Location"]
    three = client.post(
        "/matches/new/classic-3p",
        data={
            **base,
            "option_target": "7500",
            "side_0": LONG,
            "side_1": "B",
            "side_2": "C" * 24 + " cc",
            "start_0": "7400",
            "start_1": "-1500",
            "start_2": "6995",
        },
    ).headers["Location"]

    def add(url, **hand):
        page = client.get(f"{url}/hands/new").get_data(as_text=True)
        version = re.search(r'name="version" (?:type="hidden" )?value="(\d+)"', page)[1]
        assert client.post(f"{url}/hands", data={"version": version, **hand}).status_code == 303

    for _ in range(2):
        add(
            classic,
            **{
                "sides-0-melded_points": "620",
                "sides-0-canasta_natural": "1",
                "sides-0-went_out": "y",
                "sides-1-melded_points": "260",
                "sides-1-hand_points": "95",
            },
        )
    add(
        three,
        **{
            "partnership": "0-1",
            "sides-0-melded_points": "600",
            "sides-0-canasta_natural": "1",
            "sides-0-canasta_mixed": "2",
            "sides-0-red_threes": "4",
            "sides-0-went_out": "y",
            "sides-1-melded_points": "120",
            "sides-2-hand_points": "300",
        },
    )
    return {
        "home": "/",
        "choose": "/matches/new",
        "new": "/matches/new/classic",
        "new 3p": "/matches/new/classic-3p",
        "sheet": classic,
        "sheet 3p": three,
        "hand": f"{classic}/hands/new",
        "hand 3p": f"{three}/hands/1/edit",
        "detail": f"{three}/hands/1",
        "share": f"{classic}/share",
        "check": "/check",
        "result": f"{classic}/result",
        "print": f"{classic}/print",
        "import": "/import",
        "stats": "/stats",
        "missing": "/matches/nope",
    }


@pytest.mark.parametrize(
    ("javascript", "scheme"),
    matrix(
        [(True, "light"), (True, "dark"), (False, "light"), (False, "dark")],
        quick=[(True, "light"), (False, "dark")],
        ids=["js-light", "js-dark", "no-js-light", "no-js-dark"],
    ),
)
@pytest.mark.console_allows(r"/matches/nope: Failed to load resource: .* 404")
def test_every_page_fits_a_phone(browser, live_server, pages, scheme, javascript):
    context = browser.new_context(viewport=PHONE, color_scheme=scheme, java_script_enabled=javascript)
    page = context.new_page()
    problems = {}
    for name, url in pages.items():
        page.goto(live_server + url)
        found = page.evaluate(MEASURE)
        if found["width"] > PHONE["width"] or found["small"] or found["tiny"]:
            problems[name] = found
    context.close()
    assert not problems


def test_no_sticky_bar_covers_the_boxes_before_anything_is_previewed(no_js_page, live_server, pages):
    no_js_page.goto(live_server + pages["hand"])
    assert not no_js_page.locator("#preview").is_visible()
    no_js_page.locator("label[for='sides-0-went_out']").click()  # the whole label is the target
    assert no_js_page.locator("#sides-0-went_out").is_checked()


def test_three_players_without_javascript_choose_partners_and_fix_a_refused_hand(no_js_page, live_server):
    page = no_js_page
    page.goto(f"{live_server}/matches/new/classic-3p")
    page.fill("#side_0", "Ann")
    page.fill("#side_1", "Bob")
    page.fill("#side_2", "Cy")
    page.locator("details.resume summary").click()
    page.fill("#start_1", "12.5")  # refused, named, and the form comes back filled in
    page.get_by_role("button", name="Start the match").click()
    assert page.locator("#start_1-error").inner_text().startswith("East: starting total must be a whole number")
    assert page.input_value("#side_2") == "Cy"
    page.fill("#start_1", "")
    page.get_by_role("button", name="Start the match").click()
    page.get_by_role("link", name="Enter hand 1").click()
    page.get_by_label("Ann with Bob").check()
    page.fill("#sides-0-melded_points", "300")
    page.fill("#sides-0-hand_points", "50")  # but Ann went out: no cards left
    page.fill("#sides-0-canasta_natural", "1")
    page.get_by_text("Went out").first.click()
    page.fill("#sides-2-hand_points", "60")
    page.get_by_role("button", name="Save hand").click()
    assert "no cards left" in page.locator("#sides-0-hand_points-error").inner_text()
    assert page.get_by_label("Ann with Bob").is_checked(), "the partnership choice is kept"
    assert page.input_value("#sides-0-melded_points") == "300"
    assert page.locator("#sides-0-went_out").is_checked()
    page.fill("#sides-0-hand_points", "")
    page.get_by_role("button", name="Save hand").click()
    # The saved hand's page may still be on its way: wait until the sheet shows these totals.
    expect(page.locator("#sheet [data-total]")).to_have_text(["900", "900", "-60"])
