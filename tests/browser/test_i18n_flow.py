"""A whole match and the checker at phone size in Spanish, Portuguese and German (issue 12).

Every page of the flow is read as a player reads it (``inner_text`` of the body) and must hold
no English word, must not run off the side of a 390 px phone with the longer words, and must
write totals over 999 as the language does ("1.620"). Selectors are ids, field names and
addresses, never English labels, so the same steps drive every language.

Expected numbers, from docs/rules.md: hand 1 for We is 620 melded + a natural canasta 500 + a mixed
canasta 300 + a red three 100 + going out 100 = 1620; They 260 melded + a mixed canasta 300 + a
red three 100 - 95 left in hand = 565. The correction makes We's melded 520, so We 1520.
"""

import re

import pytest
from playwright.sync_api import expect
from support import matrix

from browser.waiting import wait_until
from scorepad import i18n

pytestmark = pytest.mark.browser

LANGUAGES = ["es", "pt_BR", "de"]

# Common words of the English pages. Words that are also Spanish or Portuguese ("no", "a", "as",
# "do", "red", "total", "final", "natural", "me", "sin") are left out: they prove nothing.
ENGLISH = set(
    """
    the and or of to in on at by for from with without into is are was were be been has have had
    not this that these those it its you your we they them their our who what which when where why
    how all any each every some more most less than then there here yes
    hand hands match matches score scores scored sheet save saved saving cancel undo undone edit
    correct corrected correction delete deleted restore new enter entered share shared watch watching
    export print printable download backup spreadsheet result results meld melds melded melding pile
    piles pickup take taken took going went out card cards points point side sides team teams player
    players canastas mixed clean dirty wild wilds joker jokers red threes three black threes discard
    discards frozen frozen pick picked top bottom hand left right need needs needed open opening
    initial minimum target game games won win wins winner lead leads leading behind over tie settled
    round rounds check checker question answer reasons because only already still yet now later
    sent send copy copied copies link links phone phones offline online server connection waiting kept
    try again language languages start started name names title house rules rule variant variants
    concealed penalty penalties bonus bonuses other others nothing something someone else meanwhile
    clear last back show hide more less count counted counter counts add added remove removed
    """.split()
)
# Words that are the same in Spanish and Portuguese, or names: never counted as English.
SAME_EVERYWHERE = {
    "scorepad",
    "canasta",
    "canastas",
    "samba",
    "bolivia",
    "chile",
    "ok",
    "csv",
    "json",
    "pdf",
    "qr",
    "ann",
    "cy",
}
# English words a language has taken in as its own, as its players write them at the table.
# German also writes some English words as its own ("in", "was" and "Hand" are German words too).
LOANWORDS = {
    "pt_BR": {"link", "backup"},
    "de": {
        "in",
        "was",
        "hand",
        "joker",
        "link",
        "name",
        "server",
        "online",
        "offline",
        "bonus",
        "minimum",
        "team",
        "start",
    },
}
WORD = re.compile(r"[^\W\d_]+")

# Everything that sticks out past the right edge of the phone, outside a box made to scroll sideways.
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const scrolls = el => {
    for (let up = el.parentElement; up; up = up.parentElement) {
      const x = getComputedStyle(up).overflowX;
      if (x === 'auto' || x === 'scroll' || x === 'hidden' || x === 'clip') return true;
    }
    return false;
  };
  const wide = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect(), style = getComputedStyle(el);
    if (!r.width || !r.height || style.visibility === 'hidden' || r.right <= width + 0.5 || scrolls(el)) continue;
    const name = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '');
    wide.push(name + (el.className ? '.' + String(el.className).trim().replace(/\\s+/g, '.') : '') + ' "'
      + (el.innerText || el.value || '').trim().slice(0, 40) + '" ends at ' + Math.round(r.right));
  }
  return {scroll: document.documentElement.scrollWidth, width, wide};
}"""


def english_words(text: str, language: str = "") -> list[str]:
    """The English words in a page's text, each once, in reading order."""
    found = []
    borrowed = LOANWORDS.get(language, set())
    for word in WORD.findall(text):
        folded = word.casefold()
        if folded in ENGLISH and folded not in SAME_EVERYWHERE | borrowed and folded not in found:
            found.append(folded)
    return found


def test_the_english_check_finds_english_and_spares_the_translations():
    assert english_words("Guardar mano · Save hand · Canasta limpia") == ["save", "hand"]
    assert english_words("Nova partida — Samba, CSV, Ann e Cy: 1.620 no total") == []
    assert english_words("Copiar o link", "pt_BR") == [] and english_words("Copiar el link", "es") == ["link"]


class Reader:
    """Reads each page of the flow and keeps every problem, so one run reports them all."""

    def __init__(self, page, language: str):
        self.page = page
        self.language = language
        self.problems: list[str] = []

    def read(self, name: str) -> str:
        settled(self.page)
        text = self.page.inner_text("body")
        english = english_words(text, self.language)
        if english:
            lines = [line.strip() for line in text.splitlines() if english_words(line, self.language)]
            self.problems.append(f"{name}: English {english} in {lines}")
        measured = self.page.evaluate(OVERFLOW)
        if measured["scroll"] > measured["width"] or measured["wide"]:
            self.problems.append(f"{name}: wider than the phone ({measured['scroll']} px): {measured['wide'][:5]}")
        return text

    def verify(self):
        assert not self.problems, "\n".join(self.problems)


def settled(page):
    wait_until(
        page, "window.htmx && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added')"
    )


def speaking(context, live_server, code):
    """The phone with the language chosen in the switch (its cookie) before the first page."""
    context.add_cookies([{"name": i18n.COOKIE, "value": code, "url": live_server}])


def submit(page, form_selector):
    page.locator(f"{form_selector} button:not([type=button])").last.click()


def one_more(page, side, field):
    page.locator(f".side-{side} #sides-{side}-{field}").locator("xpath=..").locator("[data-step='1']").click()


def totals(page):
    return page.locator("#sheet [data-total]").all_inner_texts()


@pytest.fixture(params=matrix(LANGUAGES, quick=["de"]))
def language(request):
    return request.param


def test_a_whole_match_has_no_english_and_fits_the_phone(page, context, live_server, language):
    speaking(context, live_server, language)
    reader = Reader(page, language)
    page.goto(f"{live_server}/")
    expect(page.locator("html")).to_have_attribute("lang", language.replace("_", "-"))
    reader.read("home")

    page.locator("main a[href='/matches/new']").first.click()
    expect(page).to_have_url(f"{live_server}/matches/new")
    reader.read("choose a variant")
    page.locator("a[href='/matches/new/classic']").click()
    expect(page.locator("#side_0_player_0")).to_be_visible()
    reader.read("new match")
    page.fill("#side_0_player_0", "Ann")
    page.fill("#side_1_player_0", "Cy")
    page.fill("#option_target", "5000")
    submit(page, "form[action='/matches/new/classic']")
    expect(page.locator("#sheet")).to_be_visible()
    match_url = page.url
    reader.read("new sheet")

    # Hand 1 through the form, with the steppers as a player taps them.
    page.locator("a[href$='/hands/new']").click()
    expect(page.locator("main > .hand-form #preview")).to_be_attached()
    reader.read("hand form")
    page.fill("#sides-0-melded_points", "620")
    one_more(page, 0, "canasta_natural")
    one_more(page, 0, "canasta_mixed")
    one_more(page, 0, "red_threes")
    page.check("#sides-0-went_out")
    page.fill("#sides-1-melded_points", "260")
    page.fill("#sides-1-hand_points", "95")
    one_more(page, 1, "canasta_mixed")
    one_more(page, 1, "red_threes")
    expect(page.locator("#preview")).to_contain_text("1.620")
    reader.read("hand form with its preview")
    submit(page, "form.hand-form")
    expect(page.locator("#sheet")).to_be_visible()
    assert totals(page) == ["1.620", "565"]  # es, pt_BR and de group thousands with "."
    reader.read("sheet with hand 1")

    # Hand 1 in detail, then corrected: We melded 520, not 620.
    page.locator("a[href$='/hands/1']").first.click()
    expect(page.locator(".breakdown").first).to_be_visible()
    reader.read("hand 1 in detail")
    page.locator("a[href$='/hands/1/edit']").click()
    expect(page.locator("main > .hand-form #preview")).to_be_attached()
    settled(page)
    page.fill("#sides-0-melded_points", "520")
    expect(page.locator("#preview")).to_contain_text("1.520")
    reader.read("correcting hand 1")
    submit(page, "form.hand-form")
    expect(page.locator(".flash").first).to_be_visible()
    assert totals(page) == ["1.520", "565"]
    reader.read("sheet after the correction")

    # Undo it (the confirmation too is in the language), then put it back.
    dialogs = []
    page.once("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.accept()))
    submit(page, "form[action$='/hands/undo']")
    expect(page.locator("form[action$='/hands/restore']")).to_be_visible()
    assert totals(page) == ["0", "0"]
    reader.problems += [f"undo confirmation: English {english_words(d)} in {d!r}" for d in dialogs if english_words(d)]
    reader.read("sheet after undo")
    submit(page, "form[action$='/hands/restore']")
    expect(page.locator("form[action$='/hands/undo']")).to_be_visible()
    assert totals(page) == ["1.520", "565"]
    reader.read("sheet with hand 1 put back")

    # Share: the watch link opens the read-only sheet; copying says so in the language.
    page.goto(f"{match_url}/share")
    reader.read("share")
    copy = page.locator("button[data-copy='watch-link']")
    label = copy.inner_text()
    copy.click()
    expect(copy).not_to_have_text(label)  # the button says it copied
    reader.read("share after copying")
    watch_url = page.locator("#watch-link").input_value()
    page.goto(watch_url)
    assert totals(page) == ["1.520", "565"]
    reader.read("watching")

    # Taking the result away.
    page.goto(f"{match_url}/result")
    reader.read("result to share")
    page.goto(f"{match_url}/print")
    reader.read("printable sheet")

    reader.verify()


def test_a_hand_saved_offline_is_reported_in_the_language(page, context, live_server, language):
    speaking(context, live_server, language)
    reader = Reader(page, language)
    page.goto(f"{live_server}/matches/new/classic")
    submit(page, "form[action='/matches/new/classic']")
    expect(page.locator("#sheet")).to_be_visible()
    page.locator("a[href$='/hands/new']").click()
    expect(page.locator("main > .hand-form #preview")).to_be_attached()
    settled(page)
    context.set_offline(True)
    page.fill("#sides-0-melded_points", "650")
    page.fill("#sides-1-melded_points", "500")
    submit(page, "form.hand-form")
    expect(page.locator("#queue-status button[data-queue-action='send']")).to_be_visible()
    reader.read("hand waiting on the phone")
    # The waiting hand is named by its sides, with no English " v " between their names.
    waiting = page.locator("#queue-status").inner_text()
    assert " v " not in waiting and " – " in waiting, waiting
    context.set_offline(False)  # the phone sends the hand itself as the connection returns
    expect(page.locator("#sheet [data-total]").first).to_have_text("650", timeout=15_000)
    expect(page.locator("#queue-status")).to_be_visible()
    reader.read("sheet once the hand was sent")
    reader.verify()


def tap(page, op):
    """Tap a checker button by what it does and wait for the board to come back."""
    with page.expect_response(lambda response: "/check" in response.url):
        page.locator(f"#board button[name='op'][value='{op}']").click()
    wait_until(page, "!document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping')")


def test_the_checker_answers_with_reasons_in_the_language(page, context, live_server, language):
    speaking(context, live_server, language)
    reader = Reader(page, language)
    page.goto(f"{live_server}/check")
    reader.read("checker")

    # Said to be the whole hand, a meld of every card in hand is going out, refused without a
    # canasta; with a 4 and a 5 kept back (one to discard), three kings and a two make a mixed meld
    # of 50 (3 x 10 + 20), enough to open from 0.
    tap(page, "action:meld")
    tap(page, "toggle:all_cards")
    for code in ["K", "K", "K", "2"]:
        tap(page, f"add:{code}")
    page.wait_for_selector("#verdict.no")
    assert page.locator("#verdict .reasons li").count() >= 1
    reader.read("a meld, refused with its reasons")
    tap(page, "add:4")
    tap(page, "add:5")
    page.wait_for_selector("#verdict.yes")
    expect(page.locator("#verdict .count")).to_contain_text("50")
    reader.read("a meld, answered")
    page.locator("#board details.house-rules summary").click()
    reader.read("a meld, house rules open")

    # Taking the pile (pagat's example): K-K and Q-Q-2 in hand, a king on top.
    tap(page, "clear")
    tap(page, "action:pickup")
    for code in ["K", "K", "Q", "Q", "2"]:
        tap(page, f"add:{code}")
    tap(page, "target:top")
    tap(page, "add:K")
    page.wait_for_selector("#verdict.yes")
    assert page.locator("#verdict .reasons li").count() >= 1
    reader.read("taking the pile, answered")

    # Refused: one natural king and a joker do not take a king on the pile.
    tap(page, "clear")
    tap(page, "action:pickup")
    for code in ["K", "JK", "Q"]:
        tap(page, f"add:{code}")
    tap(page, "target:top")
    tap(page, "add:K")
    page.wait_for_selector("#verdict.no")
    reader.read("taking the pile, refused")
    reader.verify()
