"""Languages: which one a page gets, the switch, core messages rendered, and catalogues that keep up."""

import json
import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po
from jinja2 import nodes
from support import DEFAULTS, HAND, add_match

from scorepad import create_app, i18n
from scorepad.documents import Side

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "templates"
TRANSLATIONS = ROOT / "scorepad" / "translations"
SHIPPED = [code for code in i18n.LANGUAGES if code != "en"]


# --- every word a player reads in a template is marked for translation ---------------------------
# Not words to translate: the brand, the "A vs B" separator, and the CSS classes that templates
# build from pieces (``"key" ~ " wild"``), which the string-constant check below would see.
NOT_WORDS = {"scorepad", "vs"}
CLASS_PIECES = {"chip ", "key three ", " wild", " joker", "suit ", "card ", "key"}
VISIBLE_ATTRIBUTES = {"alt", "title", "placeholder", "aria-label", "label", "data-label", "hx-confirm"}
WORD = re.compile(r"[^\W\d_]{2,}")


def skeleton(source: str) -> str:
    """The template's HTML with every Jinja construct removed, and ``{% trans %}`` blocks (marked) gone."""
    source = re.sub(r"\{#.*?#\}", "", source, flags=re.S)
    # Blocks and macros that print attributes into a tag, not text.
    attributes = r"\{%\s*(block main_attributes|macro live\b).*?\{%\s*end(block|macro)\s*%\}"
    source = re.sub(attributes, "", source, flags=re.S)
    source = re.sub(r"\{%-?\s*trans\b.*?\{%-?\s*endtrans\s*-?%\}", "", source, flags=re.S)
    source = re.sub(r"\{\{.*?\}\}", "", source, flags=re.S)
    return re.sub(r"\{%.*?%\}", "", source, flags=re.S)


class VisibleText(HTMLParser):
    """Collects the text a player sees or hears: element text and the visible attributes."""

    def __init__(self):
        super().__init__()
        self.words: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.hidden += 1
        for name, value in attrs:
            if name in VISIBLE_ATTRIBUTES and value:
                self.words += WORD.findall(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden:
            self.words += WORD.findall(data)


def unmarked_html(source: str) -> set[str]:
    parser = VisibleText()
    parser.feed(skeleton(source))
    return {word for word in parser.words if word.casefold() not in NOT_WORDS}


def unmarked_constants(source: str, env) -> set[str]:
    """String constants in Jinja expressions that read like prose and are not inside ``_()``/``ngettext``."""
    tree = env.parse(source)
    marked = set()
    for call in tree.find_all(nodes.Call):
        if isinstance(call.node, nodes.Name) and call.node.name in ("_", "gettext", "ngettext", "url_for"):
            marked |= {id(const) for const in call.find_all(nodes.Const)}
    for compare in tree.find_all(nodes.Compare):  # `f.type == 'BooleanField'` is a test, not text
        marked |= {id(const) for const in compare.find_all(nodes.Const)}
    for pair in tree.find_all(nodes.Pair):  # a dict's keys look values up: {"True": _("Yes")}
        marked.add(id(pair.key))
    prose = set()
    for const in tree.find_all(nodes.Const):
        value = const.value
        if not isinstance(value, str) or id(const) in marked or value in CLASS_PIECES:
            continue
        if re.match(r"^[A-Z][a-z]", value) or re.search(r"[a-z]{2,} [a-z]{2,}", value):
            prose.add(value)
    return prose


def test_the_checks_find_unmarked_text():
    env = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": ":memory:"}).jinja_env
    assert unmarked_html('<p title="Tap here">Hello {{ name }}</p>') == {"Tap", "here", "Hello"}
    assert unmarked_html("<p>{% trans %}Hello {{ name }}{% endtrans %} {{ _('World') }} ×</p>") == set()
    assert unmarked_html('<script src="x.js"></script><p class="big words">7 · 12</p>') == set()
    assert unmarked_constants("{{ 'Yes' if ok else _('No') }}{{ tap('op', 'Clear cards') }}", env) == {
        "Yes",
        "Clear cards",
    }
    assert unmarked_constants("{{ url_for('matches.show') }}{{ x == 'hand' }}{{ _('Save hand') }}", env) == set()


@pytest.mark.parametrize("path", sorted(TEMPLATES.rglob("*.html")), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_every_visible_string_in_templates_is_marked(path, app):
    source = path.read_text()
    assert not unmarked_html(source), f"words not marked for translation: {sorted(unmarked_html(source))}"
    prose = unmarked_constants(source, app.jinja_env)
    assert not prose, f"string constants not marked for translation: {sorted(prose)}"


# --- the catalogues ---------------------------------------------------------------------------
def extracted() -> set[tuple[str | None, str]]:
    """The (context, msgid) pairs the documented ``pybabel extract`` finds, read with Babel's Python API."""
    keywords = {
        "_": None,
        "gettext": None,
        "ngettext": (1, 2),
        "N_": None,
        "lazy_gettext": None,
        "t": None,
        "tn": (1, 2),
        "tp": ((1, "c"), 2),  # the core's message with a context: tp(context, message)
    }
    method_map = [("scorepad/**.py", "python"), ("templates/**.html", "jinja2")]
    options = {"templates/**.html": {"trimmed": "true"}}
    ids = set()
    for _filename, _line, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, options, keywords=keywords
    ):
        ids.add((context, message if isinstance(message, str) else message[0]))
    return ids


def catalogue(code: str):
    with (TRANSLATIONS / code / "LC_MESSAGES" / "messages.po").open("rb") as file:
        return read_po(file)


def test_extraction_finds_templates_forms_and_views():
    ids = {message for _context, message in extracted()}
    assert {"New match", "Jokers (%(value)s)", "Meld these?", "Hand %(number)s undone."} <= ids
    assert "to open: <b>%(minimum)s</b>" in ids  # a {% trans %} block
    assert ("count", "two") in extracted()  # the core's number word, extracted with its context


@pytest.mark.parametrize("code", SHIPPED)
def test_every_message_is_translated_in_every_shipped_language(code):
    entries = catalogue(code)
    present = {(message.context, message.id if isinstance(message.id, str) else message.id[0]) for message in entries}
    missing = sorted(extracted() - present)
    untranslated = sorted(
        str(message.id) for message in entries if message.id and (not all(_strings(message)) or message.fuzzy)
    )
    assert not missing, f"{code}: not in the catalogue (run pybabel extract and update): {missing[:10]}"
    assert not untranslated, f"{code}: untranslated or fuzzy: {untranslated[:10]}"


def _strings(message) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple | list) else [message.string]


def meanings(catalogue) -> dict:
    """What gettext answers for each message: ``(context, id) -> translation``, plurals as tuples.

    Fuzzy and untranslated entries are left out, as `pybabel compile` leaves them out (gettext then
    shows the English). The header is left out too, but its plural rule is part of the meaning.
    """
    entries = {"plural rule": catalogue.plural_forms}
    for message in catalogue:
        strings = _strings(message)
        if message.id and all(strings) and not message.fuzzy:
            entries[(message.context, _key(message))] = strings[0] if isinstance(message.id, str) else tuple(strings)
    return entries


def differences(source, compiled) -> list[str]:
    """Where the compiled catalogue (read back from its ``.mo``) says other than its ``.po``."""
    said, written = meanings(source), meanings(compiled)
    return sorted(
        f"{key!r}: .po {said.get(key)!r}, .mo {written.get(key)!r}"
        for key in said.keys() | written.keys()
        if said.get(key) != written.get(key)
    )


@pytest.mark.parametrize("code", SHIPPED)
def test_compiled_catalogues_say_what_the_shipped_sources_say(code):
    # The .mo files are committed, so a fresh install needs no compile step; this keeps them current.
    # It compares meanings, not bytes: any Babel release may lay out the same catalogue differently.
    with (TRANSLATIONS / code / "LC_MESSAGES" / "messages.mo").open("rb") as file:
        compiled = read_mo(file)
    stale = differences(catalogue(code), compiled)
    assert not stale, f"{code}: run `pybabel compile -d scorepad/translations`: {stale[:5]}"


def test_a_stale_compiled_catalogue_is_caught(tmp_path):
    source = catalogue("es")
    mo = tmp_path / "messages.mo"
    with mo.open("wb") as file:
        write_mo(file, source)  # compiled from the .po as it is now
    with mo.open("rb") as file:
        assert differences(source, read_mo(file)) == []
    # Then the .po changes and nobody compiles: a translation reworded, a plural reworded, an entry
    # marked fuzzy (gettext must fall back to English), a new context entry, another plural rule.
    single, plural, fuzzy = (next(m for m in source if m.id and test(m)) for test in _three_kinds())
    single.string += " (new)"
    plural.string = tuple(text + " (new)" for text in plural.string)
    fuzzy.flags.add("fuzzy")
    source.add("Pass", string="Paso", context="turn")
    with mo.open("rb") as file:
        stale = differences(source, read_mo(file))
    named = " ".join(stale)
    assert len(stale) == 4
    assert all(repr(_key(message)) in named for message in (single, plural, fuzzy))
    assert "('turn', 'Pass')" in named
    source.mime_headers = [("Plural-Forms", "nplurals=2; plural=(n > 1);")]  # Brazil's rule, not Spain's
    with mo.open("rb") as file:
        assert "'plural rule'" in " ".join(differences(source, read_mo(file)))


def _key(message):
    return message.id if isinstance(message.id, str) else tuple(message.id)


def _three_kinds():
    return (
        lambda m: isinstance(m.id, str) and not m.context,
        lambda m: not isinstance(m.id, str),
        lambda m: isinstance(m.id, str) and m.context,
    )


# --- which language a page gets --------------------------------------------------------------------
def lang(response) -> str:
    return re.search(r'<html lang="([^"]+)"', response.get_data(as_text=True))[1]


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("es-MX,es;q=0.9,en;q=0.8", "es"),
        ("pt-BR,pt;q=0.9", "pt-BR"),
        ("pt-PT", "pt-BR"),  # any Portuguese reads Brazil's better than English
        ("fr-FR,fr;q=0.9", "en"),  # no French catalogue: English
        ("fr,es;q=0.5", "es"),  # the best shipped one the browser accepts
        ("de-AT,de;q=0.9,en;q=0.8", "de"),
        ("", "en"),
    ],
)
def test_the_browser_language_picks_the_page_language(client, header, expected):
    response = client.get("/", headers={"Accept-Language": header} if header else {})
    assert lang(response) == expected
    assert {"Accept-Language", "Cookie"} <= set(response.vary)


def test_a_spanish_page_is_in_spanish(client):
    html = client.get("/", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert "Nueva partida" in html and "Tus partidas" in html and "New match" not in html


def test_a_german_browser_gets_a_german_page_and_deutsch_in_the_switch(client):
    html = client.get("/", headers={"Accept-Language": "de-DE"}).get_data(as_text=True)
    assert '<html lang="de" ' in html
    assert "Neue Partie" in html and "Deine Partien" in html and "New match" not in html
    languages = client.get("/language?next=/").get_data(as_text=True)
    assert 'href="/language/de?next=/"' in languages and ">Deutsch</a>" in languages


def test_a_trans_block_over_several_lines_is_found_in_the_catalogue(client):
    # babel.cfg extracts {% trans %} blocks trimmed to one line; the page must look them up so too.
    html = client.get("/", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert "Aquí aparecen las partidas que este teléfono empezó" in html
    assert "Listed here" not in html


def test_the_switch_overrides_the_browser_and_is_remembered(client):
    response = client.get("/language/pt_BR?next=/matches/new")
    assert response.status_code == 303 and response.headers["Location"] == "/matches/new"
    assert "scorepad_language=pt_BR" in response.headers["Set-Cookie"]
    assert "Max-Age=" in response.headers["Set-Cookie"]
    page = client.get("/matches/new", headers={"Accept-Language": "es"})
    assert lang(page) == "pt-BR" and "Nova partida" in page.get_data(as_text=True)
    client.get("/language/en?next=/")
    assert lang(client.get("/", headers={"Accept-Language": "es"})) == "en"


def test_the_switch_is_on_every_page_as_a_plain_link_to_the_languages(client):
    html = client.get("/matches/new?x=1").get_data(as_text=True)
    switch = re.search(r'<a class="language" [^>]*>[^<]*</a>', html, re.S)[0]
    assert 'href="/language?next=/matches/new?x%3D1"' in switch and ">EN</a>" in switch
    assert 'hx-boost="false"' in switch  # a full page load, so <html lang> follows
    languages = client.get("/language?next=/matches/new?x%3D1").get_data(as_text=True)
    assert 'href="/language/es?next=/matches/new?x%3D1"' in languages and ">Español</a>" in languages
    assert re.search(r'aria-current="true">English</a>', languages)


@pytest.mark.parametrize("target", ["https://elsewhere.example/", "//elsewhere.example/", "javascript:x", ""])
def test_the_switch_never_sends_the_player_to_another_site(client, target):
    assert client.get(f"/language/es?next={target}").headers["Location"] == "/"


def test_an_unknown_language_is_not_remembered_and_falls_back_to_english(client):
    response = client.get("/language/xx?next=/")
    assert "Set-Cookie" not in response.headers
    client.set_cookie(i18n.COOKIE, "xx")
    assert lang(client.get("/")) == "en"


# --- the API stays English unless asked ------------------------------------------------------------
class Message(str):
    """A core message as the contract describes it: English as a str, rendered with translations."""

    def render(self, translations):
        return translations.gettext("Language")


def test_core_messages_render_in_json_only_when_the_request_asks(app):
    from flask import jsonify

    with app.test_request_context("/api/v1/score", headers={"Accept-Language": "es"}):
        app.preprocess_request()
        assert jsonify(errors=[{"message": Message("Language")}]).get_json() == {"errors": [{"message": "Idioma"}]}
    with app.test_request_context("/api/v1/score"):
        assert jsonify(errors=[{"message": Message("Language")}]).get_json() == {"errors": [{"message": "Language"}]}
    # The cookie chooses pages, not the API.
    with app.test_request_context("/api/v1/score", headers={"Cookie": f"{i18n.COOKIE}=es"}):
        assert jsonify(message=Message("Language")).get_json() == {"message": "Language"}


def test_the_api_answers_english_without_accept_language(client):
    response = client.post("/api/v1/score", json={"variant": "nope", "hands": []})
    english = response.get_json()
    client.set_cookie(i18n.COOKIE, "es")
    assert client.post("/api/v1/score", json={"variant": "nope", "hands": []}).get_json() == english


def test_the_api_answers_in_the_language_its_request_asks_for(app, client):
    # The answer is still written by the API's fast writer, with the messages rendered first.
    from scorepad import api

    assert isinstance(app.json, api.JSONProvider)
    hand = {"entries": [{"melded_points": 50, "red_threes": 9}, {"melded_points": 50}]}
    body = {"variant": "classic", "hands": [hand]}
    english = client.post("/api/v1/score", json=body).get_json()["errors"][0]["message"]
    spanish = client.post("/api/v1/score", json=body, headers={"Accept-Language": "es"}).get_json()
    assert english.startswith("Only 4 red threes exist")
    assert "hay solo 4 treses rojos; se anotaron 9" in spanish["errors"][0]["message"]
    missing = client.get("/api/v1/nowhere", headers={"Accept-Language": "pt-BR"}).get_json()
    assert missing["errors"][0]["message"] == "Não há nada neste endereço."


def test_a_trans_block_over_several_lines_is_looked_up_as_extracted(app):
    # babel.cfg extracts {% trans %} blocks trimmed; looked up untrimmed, a block broken over two
    # lines (the start page's hint) would never find its translation.
    from flask import render_template_string

    with app.test_request_context("/", headers={"Accept-Language": "es"}):
        assert render_template_string("{% trans %}Language\n    {% endtrans %}") == "Idioma"


def test_the_scripts_words_are_marked_and_travel_in_the_page(client):
    # static/*.js say nothing in English of their own: every word comes from base.html's meta tag.
    html = client.get("/", headers={"Accept-Language": "es"}).get_data(as_text=True)
    meta = re.search(r"<meta name=\"scorepad-text\" content='([^']*)'>", html)[1]
    words = json.loads(unescape(meta))
    used = set()
    for script in ("words.js", "scorepad.js", "offline.js", "offline-page.js"):
        source = (ROOT / "static" / script).read_text()
        used |= set(re.findall(r"words\(\"(\w+)\"", source))
        english = [s for s in re.findall(r'"([^"]*)"', source) if re.search(r"[A-Za-z]{2,} [a-z]{2,} [a-z]{2,}", s)]
        assert not english, f"{script} says English itself: {english}"
    assert used == set(words), "every word a script asks for is in the page, and nothing more"
    english = client.get("/").get_data(as_text=True)
    english_words = json.loads(unescape(re.search(r"<meta name=\"scorepad-text\" content='([^']*)'>", english)[1]))
    ids = {message for _context, message in extracted()}
    assert set(english_words.values()) <= ids, "every word is extracted for translation"


def test_core_messages_render_in_templates(app):
    from flask import render_template_string

    with app.test_request_context("/", headers={"Accept-Language": "es"}):
        assert render_template_string("{{ m }} {{ plain }}", m=Message("Language"), plain="Language") == (
            "Idioma Language"
        )
    with app.test_request_context("/"):
        assert render_template_string("{{ m }}", m=Message("Language")) == "Language"


# --- numbers and dates --------------------------------------------------------------------------
def new_match(client, **extra):
    data = {"side_0": "We", "side_1": "They", **DEFAULTS, **extra}
    response = client.post("/matches/new/classic", data=data)
    assert response.status_code == 303, response.data
    return response.headers["Location"]


def starting_cells(html: str) -> list[str]:
    return re.findall(r'<td class="running">([^<]+)</td>', html)


def test_scores_are_written_as_each_language_writes_them(client):
    url = new_match(client, start_0="1500", start_1="-200")
    assert "data-total>1,500<" in client.get(url).get_data(as_text=True)  # English groups with ",", as the chart does
    client.set_cookie(i18n.COOKIE, "pt_BR")
    html = client.get(url).get_data(as_text=True)
    assert "data-total>1.500<" in html and "data-total>-200<" in html  # Brazil groups thousands with "."
    client.set_cookie(i18n.COOKIE, "es")
    assert "data-total>1.500<" in client.get(url).get_data(as_text=True)  # and so does Spanish


@pytest.mark.parametrize(("code", "written"), [("en", "5,105"), ("de", "5.105"), ("pt_BR", "5.105")])
def test_one_number_style_on_the_sheet_the_chart_the_printed_sheet_and_the_share_text(client, code, written):
    # From 3885, the hand of support.HAND (620 melded, a natural canasta 500, went out 100) ends
    # the game at 3885 + 1220 = 5105: every place that shows the total writes it the same way.
    url = new_match(client, start_0="3885")
    form = client.get(f"{url}/hands/new").get_data(as_text=True)
    data = {**HAND, "version": re.search(r'name="version" (?:type="hidden" )?value="(\d+)"', form)[1]}
    assert client.post(f"{url}/hands", data=data).status_code == 303
    client.set_cookie(i18n.COOKIE, code)
    sheet = client.get(url).get_data(as_text=True)
    assert f"data-total>{written}<" in sheet  # the scoreboard
    assert f'<td class="running">{written}</td>' in sheet  # the table of hands
    assert re.search(rf"<desc [^>]*>[^<]*{re.escape(written)}", sheet)  # the chart
    assert f'<td class="paper-total">{written}</td>' in client.get(f"{url}/print").get_data(as_text=True)
    result = client.get(f"{url}/result").get_data(as_text=True)
    assert written in re.search(r"<textarea[^>]*>(.*?)</textarea>", result, re.S)[1]  # the share text
    # Nothing a player reads shows it ungrouped: only the page's data for its scripts (a box's
    # value, the offline queue's totals) holds the plain number.
    shown = re.sub(r'(?:value|data-[a-z-]+)="[^"]*"', "", sheet)
    assert "5105" not in shown


def test_the_cached_hand_rows_are_kept_per_language(client):
    url = new_match(client, start_0="1500")
    form = client.get(f"{url}/hands/new").get_data(as_text=True)
    data = {**HAND, "version": re.search(r'name="version" (?:type="hidden" )?value="(\d+)"', form)[1]}
    assert client.post(f"{url}/hands", data=data).status_code == 303
    english = starting_cells(client.get(url).get_data(as_text=True))
    total = int(english[-2].replace(",", ""))  # cells: start 1500 and 0, then hand 1's totals; side 1's is over 1500
    assert total > 1500
    client.set_cookie(i18n.COOKIE, "pt_BR")
    brazilian = starting_cells(client.get(url).get_data(as_text=True))
    assert brazilian[-2] == f"{total:,}".replace(",", ".")


def test_the_score_chart_speaks_the_page_language(client):
    url = new_match(client)
    form = client.get(f"{url}/hands/new").get_data(as_text=True)
    data = {**HAND, "version": re.search(r'name="version" (?:type="hidden" )?value="(\d+)"', form)[1]}
    assert client.post(f"{url}/hands", data=data).status_code == 303
    english = client.get(url).get_data(as_text=True)
    assert "Score progression: " in english and ">Target 5,000</text>" in english
    client.set_cookie(i18n.COOKIE, "pt_BR")  # the sheet of the same version, now in Portuguese
    brazilian = client.get(url).get_data(as_text=True)
    assert "Evolução do placar: " in brazilian and ">Meta 5.000</text>" in brazilian
    assert "Score progression" not in brazilian and ">hand</text>" not in brazilian


def test_the_match_list_and_sheet_name_the_variant_in_the_language(client):
    url = new_match(client)  # stored while the page was English: "Classic canasta"
    client.set_cookie(i18n.COOKIE, "es")
    for page in ("/", url):
        html = client.get(page).get_data(as_text=True)
        assert "Canasta clásica" in html and "Classic canasta" not in html, page


def test_a_new_match_offers_side_names_in_the_language(client):
    client.set_cookie(i18n.COOKIE, "es")
    html = client.get("/matches/new/classic").get_data(as_text=True)
    assert 'value="Nosotros"' in html and 'value="Ellos"' in html and 'value="We"' not in html


def test_the_hand_form_names_held_sets_and_unfinished_melds_in_the_language(app, client):
    match_id = add_match(app, [], variant="american")
    english = client.get(f"/matches/{match_id}/hands/new").get_data(as_text=True)
    assert "Players holding 3+ sevens (−1500 each)" in english and "Unfinished aces meld (−2500)" in english
    client.set_cookie(i18n.COOKIE, "es")
    spanish = client.get(f"/matches/{match_id}/hands/new").get_data(as_text=True)
    assert "3 o más sietes" in spanish and "3+ sevens" not in spanish and "aces meld" not in spanish


def test_dates_are_written_in_the_language(app):
    with app.test_request_context("/"):
        assert i18n.day("2025-01-04T18:30:00+00:00") == "2025-01-04"
    with app.test_request_context("/", headers={"Accept-Language": "es"}):
        assert i18n.day("2025-01-04T18:30:00+00:00") == "4 ene 2025"
    with app.test_request_context("/", headers={"Accept-Language": "pt-BR"}):
        assert i18n.day("2025-01-04T18:30:00+00:00") == "4 de jan. de 2025"


class Shouting:
    """Translations (the gettext API) that write every message in capitals."""

    def gettext(self, message):
        return message.upper().replace("%(VARIANT)S", "%(variant)s")

    def ngettext(self, singular, plural, n):
        return self.gettext(singular if n == 1 else plural)


def test_the_share_line_is_written_with_the_translations_it_is_given():
    from scorepad import canasta, formats
    from scorepad.documents import MatchInfo, Side

    info = MatchInfo("b" * 16, (Side("We"), Side("They")))
    # The variant's name is a core message too, so it goes through the same translations.
    assert formats.share_text(canasta.score_match("classic", []), info, Shouting()) == "CLASSIC CANASTA, NO HANDS YET."


def test_the_factory_registers_the_language_layer(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.db"), "SECRET_KEY": "t"})
    assert "babel" in app.extensions and app.jinja_env.finalize is i18n.finalize


# --- the presets' side names, in whichever language they were stored -------------------------
@pytest.mark.parametrize(
    ("stored", "language", "shown"),
    [
        ("We", "es", "Nosotros"),
        ("They", "pt_BR", "Eles"),
        ("Nosotros", "en", "We"),  # started at a Spanish table, read in English
        ("Nosotros", "de", "Wir"),
        ("Ellos", "es", "Ellos"),
        ("North", "de", "Nord"),  # three players: North, East, West
        ("Ann & Bo", "es", "Ann & Bo"),  # a name a family typed is theirs
        ("we", "es", "we"),  # only the preset's own spelling
    ],
)
def test_a_presets_side_name_is_shown_in_the_readers_language(app, stored, language, shown):
    index = 1 if stored in ("They", "Ellos") else 0
    variant = "classic-3p" if stored == "North" else "classic"  # three players: North, East, West
    with app.test_request_context("/", headers={"Accept-Language": language}):
        assert i18n.side_name(stored, variant, index) == shown


@pytest.mark.parametrize(
    ("stored", "variant", "index"),
    [
        ("Du", "classic", 1),  # German for "You", a two-player game's name: a surname here
        ("Nord", "classic", 0),  # German for "North", a three-player game's name
        ("They", "classic", 0),  # the preset's name for the other side
        ("We", "classic", None),  # no side given
        ("We", None, 0),  # no variant given
    ],
)
def test_only_the_presets_name_for_that_very_side_is_translated(app, stored, variant, index):
    with app.test_request_context("/", headers={"Accept-Language": "es"}):
        assert i18n.side_name(stored, variant, index) == stored


def test_the_sheet_list_and_result_name_preset_sides_in_the_readers_language(app, client):
    # Started in English, stored as "We". 700 melded + two natural canastas 1000 + a mixed one 300
    # + four red threes 800 + going out 100 = 2900 a hand: two hands pass the target of 5000.
    big = {"melded_points": 700, "canastas": {"natural": 2, "mixed": 1}, "red_threes": 4, "went_out": True}
    won = {"entries": [big, {"hand_points": 50}]}
    match_id = add_match(app, [won, won], sides=[Side("We"), Side("Ann & Bo")], title="")
    named = add_match(app, [], sides=[Side("Nord"), Side("Du")], title="")  # names, not presets
    client.get(f"/matches/{match_id}")  # this browser opened it: its list shows it
    client.set_cookie(i18n.COOKIE, "es")
    sheet = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert '<span class="side-name">Nosotros</span>' in sheet
    assert '<span class="side-name">Ann &amp; Bo</span>' in sheet
    assert ">We<" not in sheet
    listing = client.get("/").get_data(as_text=True)
    assert "<small>Nosotros</small>" in listing and "<small>We</small>" not in listing
    assert "Nosotros · Ann &amp; Bo" in listing
    result = client.get(f"/matches/{match_id}/result").get_data(as_text=True)
    assert "Ganamos por" in result  # the first-person line, as "We win by" is in English
    other = client.get(f"/matches/{named}").get_data(as_text=True)
    assert '<span class="side-name">Nord</span>' in other and '<span class="side-name">Du</span>' in other
    # The files keep the names as stored.
    exported = client.get(f"/api/v1/matches/{match_id}").get_json()
    assert [side["name"] for side in exported["sides"]] == ["We", "Ann & Bo"]


def test_the_hand_form_names_preset_sides_in_the_readers_language(app, client):
    match_id = add_match(app, [], sides=[Side("We"), Side("They")])
    client.set_cookie(i18n.COOKIE, "de")
    form = client.get(f"/matches/{match_id}/hands/new").get_data(as_text=True)
    assert '<h2 class="side-heading">Wir</h2>' in form and '<h2 class="side-heading">Sie</h2>' in form
    assert ">We</h2>" not in form and ">They</h2>" not in form


def test_the_apis_writer_says_each_core_message_in_the_asked_language_as_it_writes_it(app):
    # orjson hands each Text to the provider as it writes it, wherever it sits: in a list, a tuple,
    # a dict subclass; keys and other values stay as they are. The lone surrogate takes the
    # standard library's way, which renders first.
    from collections import OrderedDict

    from scorepad.canasta.text import t

    both = t("%(first)s and %(second)s", first="Ana", second=t("%(first)s and %(second)s", first="Bo", second="Cy"))
    answer = {"list": [both, (both,)], "kept": OrderedDict(both=both), "flag": True, "count": 3}
    with app.test_request_context("/api/v1/score", headers={"Accept-Language": "es"}):
        said = json.loads(app.json.response(answer).get_data())
        broken = json.loads(app.json.response({"both": both, "name": "\ud800"}).get_data())
    with app.test_request_context("/api/v1/score"):  # no Accept-Language: English
        english = json.loads(app.json.response({"both": both}).get_data())
    spanish = "Ana y Bo y Cy"
    assert said == {"list": [spanish, [spanish]], "kept": {"both": spanish}, "flag": True, "count": 3}
    assert broken == {"both": spanish, "name": "\ud800"}
    assert english == {"both": "Ana and Bo and Cy"}
