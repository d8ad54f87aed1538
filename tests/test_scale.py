"""Pages that cost the same whatever is stored: counted SQL, not timings (issue 9's proof).

The home page's queries do not grow with the number of matches, an unchanged poll answers from
the match's version without reading a hand, and lists page through the (updated, id) index.
"""

import gc
import re
import tracemalloc

import pytest

from scorepad import canasta, db, store
from scorepad.db import connect
from scorepad.documents import Side
from tests.support import HAND as FORM_HAND
from tests.support import add_match

HAND = {
    "entries": [
        {"melded_points": 620, "canastas": {"natural": 1}, "went_out": True},
        {"melded_points": 260, "hand_points": 95},
    ]
}
# docs/rules.md: We 620 + natural canasta 500 + going out 100 = 1220; They 260 - 95 = 165.


PASSPHRASE = "count the canastas"


@pytest.fixture
def client(app):
    """The organiser's phone: it sees every stored match, so every list here is the whole club's."""
    app.config["ORGANISER_PASSPHRASE"] = PASSPHRASE
    organiser = app.test_client()
    signed_in = organiser.post("/organiser", data={"passphrase": PASSPHRASE}, follow_redirects=True)
    assert "organiser-note" in signed_in.get_data(as_text=True)  # the start page showed its flash
    return organiser


@pytest.fixture
def statements(monkeypatch):
    """Every SQL statement the app's request connections run, in order."""
    seen: list[str] = []
    opened = db.connect

    def traced(path):
        database = opened(path)
        database.conn.set_trace_callback(seen.append)
        return database

    monkeypatch.setattr(db, "connect", traced)
    kept = db.kept_connections().connections  # connections this thread kept from earlier requests: open anew, traced
    while kept:
        kept.popitem()[1].close()
    return seen


def queries(statements):
    """The statements that read or write, without the connection's set-up and savepoints."""
    return [s for s in statements if not re.match(r"\s*(PRAGMA|SAVEPOINT|RELEASE)", s, re.IGNORECASE)]


def reads(statements, table):
    return [s for s in statements if re.search(rf"\b(from|join)\s+{table}\b", s, re.IGNORECASE)]


def store_matches(app, count, **kwargs):
    return [add_match(app, [HAND], **kwargs) for _ in range(count)]


def home_queries(client, statements):
    statements.clear()
    assert client.get("/").status_code == 200
    return queries(statements)


def test_home_page_queries_do_not_grow_with_the_matches(app, client, statements):
    store_matches(app, 3)
    few = home_queries(client, statements)
    store_matches(app, 57)
    many = home_queries(client, statements)
    # A page of summaries, the recently deleted, and the organiser's sign-in still in force: the
    # sign-in and this browser's own session (signing out ends that session, so both are read).
    assert len(few) == len(many) == 4
    assert len(reads(many, "organiser_sign_in")) == 1 and len(reads(many, "organiser_sessions")) == 1
    assert not reads(many, "hands") and not reads(many, "hand_figures")


def test_a_phones_home_page_queries_do_not_grow_with_its_matches_or_the_servers(app, statements):
    phone = app.test_client()
    store_matches(app, 5)  # on nobody's list
    mine = store_matches(app, 2)
    for match_id in mine:
        phone.get(f"/matches/{match_id}")  # opening the link puts it on this phone's list
    few = home_queries(phone, statements)
    store_matches(app, 40)
    for match_id in store_matches(app, 20):
        phone.get(f"/matches/{match_id}")
    many = home_queries(phone, statements)
    assert len(few) == len(many) == 2
    assert not reads(many, "hands") and not reads(many, "hand_figures")
    listed = set(re.findall(r'href="/matches/([0-9a-f]{32})"', phone.get("/").get_data(as_text=True)))
    assert len(listed) == 22 and set(mine) <= listed


def test_home_pages_older_matches_through_a_link(app, client):
    ids = store_matches(app, 33)
    first = client.get("/").get_data(as_text=True)
    shown = set(re.findall(r'href="/matches/([0-9a-f]{32})"', first))
    assert len(shown) == 30
    older = re.search(r'href="(/\?before=[^"]+)"[^>]*>Older matches', first)[1].replace("&amp;", "&")
    second = client.get(older).get_data(as_text=True)
    rest = set(re.findall(r'href="/matches/([0-9a-f]{32})"', second))
    assert len(rest) == 3 and not rest & shown and rest | shown == set(ids)
    assert "Older matches" not in second


def test_home_finds_matches_by_name_and_variant(app, client):
    add_match(app, [HAND], sides=[Side("Crows", ("Zoë", "Bob")), Side("Owls", ("Cy", "Di"))], title="")
    add_match(app, [], variant="samba", sides=[Side("Wrens", ("Ann",)), Side("Kites", ("Eve",))], title="")
    page = client.get("/?q=zoë").get_data(as_text=True)  # case folded, not only ASCII
    assert "Crows" in page and "Wrens" not in page
    page = client.get("/?q=&variant=samba").get_data(as_text=True)
    assert "Wrens" in page and "Crows" not in page
    assert "No match found with “nobody”" in client.get("/?q=nobody").get_data(as_text=True)


def test_unchanged_poll_answers_from_the_version_alone(app, client, statements):
    url = f"/matches/{add_match(app, [HAND, HAND])}"
    first = client.get(f"{url}/sheet", headers={"HX-Request": "true"})
    assert first.status_code == 200 and first.headers["ETag"]
    assert "no-cache" in first.headers["Cache-Control"]
    statements.clear()
    again = client.get(f"{url}/sheet", headers={"HX-Request": "true", "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    assert client.get(f"{url}/sheet?since=3", headers={"HX-Request": "true"}).status_code == 204
    polls = queries(statements)
    assert len(polls) == 2 and all(reads([q], "matches") for q in polls)
    assert not reads(statements, "hands") and not reads(statements, "hand_figures")


def test_watchers_poll_gets_304_until_a_hand_is_saved(app, client, statements):
    match_id = add_match(app, [HAND])
    database = connect(app.config["DATABASE"])
    token = store.match_head(database, match_id).watch_token
    watch = f"/watch/{token}/sheet"
    first = client.get(watch, headers={"HX-Request": "true"})
    tag = first.headers["ETag"]
    assert client.get(watch, headers={"HX-Request": "true", "If-None-Match": tag}).status_code == 304
    # The full page and the fragment are different answers.
    assert client.get(watch, headers={"If-None-Match": tag}).status_code == 200
    store.add_hand(database, match_id, canasta.Hand.from_dict(HAND), 2)
    database.close()
    statements.clear()
    changed = client.get(watch, headers={"HX-Request": "true", "If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    assert b">2,440<" in changed.data  # two hands of 1220
    assert not reads(statements, "hands"), "the sheet reads stored figures, not the hands"


def test_sheet_shows_stored_figures(app, client):
    url = f"/matches/{add_match(app, [HAND, HAND])}"
    page = client.get(url).get_data(as_text=True)
    # Hand 2: We need 50 (1220 < 1500), They need 50; totals 2440 and 330. Next: We need 90.
    assert re.findall(r"data-total>(-?[\d,]+)<", page) == ["2,440", "330"]
    assert "to open: <b>90</b>" in page and "to open: <b>50</b>" in page
    assert page.count('<td class="running">') == 4


def test_stats_list_a_players_matches_a_page_at_a_time(app, client):
    store_matches(app, 32)
    page = client.get("/stats?player=ann").get_data(as_text=True)
    assert page.count('<li>\n      <a href="/matches/') == 30
    older = re.search(r'href="(/stats\?[^"]*before=[^"]+)"', page)[1].replace("&amp;", "&")
    rest = client.get(older).get_data(as_text=True)
    assert rest.count('<li>\n      <a href="/matches/') == 2
    # Ann played all 32 for We: 32 hands of 1220, nothing finished.
    assert re.search(r"Ann</a></th>\s*<td data-label=\"Played\">32</td>", page)
    assert re.search(r"Best hand\">1,220<", page)


def test_a_players_page_walks_the_list_index_instead_of_sorting_their_matches(app, client, statements):
    store_matches(app, 3)
    assert client.get("/stats?player=ann").status_code == 200
    [listing] = [sql for sql in queries(statements) if "match_players where key" in sql]
    with app.app_context():
        plan = " / ".join(row[3] for row in db.get_db().conn.execute(f"explain query plan {listing}"))
    assert "USING INDEX idx_matches_updated_id" in plan and "TEMP B-TREE" not in plan, plan


def figure(page, name, label):
    """One figure of ``name``'s line on the stats page, by its column's label."""
    line = re.search(rf"{name}</a></th>(.*?)</tr>", page, re.S)[1]
    return int(re.search(rf'data-label="{label}">(\d+)<', line)[1])


def test_the_stats_sums_run_once_until_the_database_changes(app, client, statements):
    store_matches(app, 3)  # Ann plays for We: each match one hand with a natural canasta
    statements.clear()
    assert figure(client.get("/stats").get_data(as_text=True), "Ann", "Played") == 3
    assert len(reads(statements, "side_figures")) == 1
    statements.clear()
    assert figure(client.get("/stats").get_data(as_text=True), "Ann", "Played") == 3
    assert reads(statements, "side_figures") == []  # nothing changed: the sums are not run again
    # A match stored through another connection (another thread, a process, the command line).
    match_id = store_matches(app, 1)[0]
    page = client.get("/stats").get_data(as_text=True)
    assert (figure(page, "Ann", "Played"), figure(page, "Ann", "Canastas")) == (4, 4)
    # A hand saved by a page, through the connection the stats page itself reads with.
    url = f"/matches/{match_id}"
    form = client.get(f"{url}/hands/new").get_data(as_text=True)
    version = re.search(r'name="version" (?:type="hidden" )?value="(\d+)"', form)[1]
    assert client.post(f"{url}/hands", data={**FORM_HAND, "version": version}).status_code == 303
    page = client.get("/stats").get_data(as_text=True)
    assert (figure(page, "Ann", "Played"), figure(page, "Ann", "Canastas")) == (4, 5)


# --- an unchanged poll, and pages that follow every write ------------------------------------
def test_an_unchanged_poll_is_one_statement_and_touches_no_session(app, client, statements):
    match_id = add_match(app, [HAND])
    database = connect(app.config["DATABASE"])
    token = store.match_head(database, match_id).watch_token
    database.close()
    for url in (f"/watch/{token}/sheet?since=2", f"/matches/{match_id}/sheet?since=2"):
        statements.clear()
        response = client.get(url, headers={"HX-Request": "true"})
        assert response.status_code == 204
        sent = [s for s in statements if not s.lstrip().upper().startswith("PRAGMA")]
        # One indexed lookup of the version: no savepoint around it, no access row read or written.
        assert len(sent) == 1 and reads(sent, "matches") and not reads(sent, "access"), sent
        # The organiser's phone sends its session cookie; the poll neither reads nor re-sends it.
        assert "Set-Cookie" not in response.headers and "Cookie" not in response.vary


def version_of(page):
    return re.search(r'name="version" value="(\d+)"', page)[1]


def test_the_sheet_after_a_write_shows_the_new_hand(app, client):
    url = f"/matches/{add_match(app, [HAND])}"
    first = client.get(url).get_data(as_text=True)
    # The same version: the same page (but the next hand's form's fresh submission key, issue 29,
    # and the form token, which carries the second it was signed in: two reads a second apart differ).
    key = re.compile(
        r'((?:name="(?:submission|csrf_token)" type="hidden"|type="hidden" name="csrf_token") value=")[^"]*"'
    )
    assert len(key.findall(first)) >= 2, "the submission key and the form token are where this test looks"
    assert key.sub(r"\1", first) == key.sub(r"\1", client.get(url).get_data(as_text=True))
    assert re.findall(r"data-total>(-?[\d,]+)<", first) == ["1,220", "165"] and first.count('<td class="running">') == 2
    client.post(f"{url}/hands", data={**FORM_HAND, "version": version_of(first)})
    changed = client.get(url).get_data(as_text=True)
    # Hand 2 as the form sent it: We 1220 + 1220 = 2440; They 165 + 165 = 330 (see FORM_HAND).
    assert re.findall(r"data-total>(-?[\d,]+)<", changed) == ["2,440", "330"]
    assert changed.count('<td class="running">') == 4 and "Enter hand 3" in changed
    watcher = client.get(f"/matches/{url.rsplit('/', 1)[1]}/sheet", headers={"HX-Request": "true"})
    assert ">2,440<" in watcher.get_data(as_text=True)


def test_the_list_after_a_write_shows_the_new_hand_on_that_line_only(app, client):
    first, second = store_matches(app, 2)
    page = client.get("/").get_data(as_text=True)
    assert f'href="/matches/{first}"' in page and f'href="/matches/{second}"' in page
    assert page.count("1 hand ·") == 2
    version = version_of(client.get(f"/matches/{first}").get_data(as_text=True))
    client.post(f"/matches/{first}/hands", data={**FORM_HAND, "version": version})
    page = client.get("/").get_data(as_text=True)
    line = re.search(rf'href="/matches/{first}".*?</li>', page, re.S)[0]
    assert "2 hands" in line and "<b>2,440</b>" in line
    assert page.count("1 hand ·") == 1


def test_a_page_never_carries_another_browsers_address(app, client):
    """Browser A's query string must not reach browser B's page (the language link reads the address)."""
    match_id = add_match(app, [HAND])
    database = connect(app.config["DATABASE"])
    token = store.match_head(database, match_id).watch_token
    database.close()
    for url in (f"/matches/{match_id}", f"/watch/{token}", f"/matches/{match_id}/sheet", "/"):
        joiner = "&" if "?" in url else "?"
        mine = client.get(f"{url}{joiner}from=alice-private-note").get_data(as_text=True)
        assert "alice-private-note" in mine  # A's own language link brings A back to A's address
        other = app.test_client().get(url).get_data(as_text=True)
        assert "alice-private-note" not in other, url


def test_kept_markup_follows_the_url_root_it_is_served_under(app, client):
    """Behind a proxy that mounts the app under a prefix, kept links carry that prefix."""
    match_id = add_match(app, [HAND])
    mounted = client.get(f"/matches/{match_id}", base_url="http://localhost/club").get_data(as_text=True)
    plain = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert f'href="/club/matches/{match_id}/hands/1"' in mounted
    assert f'href="/matches/{match_id}/hands/1"' in plain and "/club/" not in plain
    home = client.get("/", base_url="http://localhost/club").get_data(as_text=True)
    assert f'href="/club/matches/{match_id}"' in home and f'href="/matches/{match_id}"' not in home


def test_a_sheet_page_shows_a_message_once(app, client):
    url = f"/matches/{add_match(app, [HAND])}"
    client.get(url)
    refused = client.post(f"{url}/hands/undo", data={"version": "1"})  # stale: the match is at version 2
    assert refused.status_code == 303
    with_message = client.get(url).get_data(as_text=True)
    after = client.get(url).get_data(as_text=True)
    assert "Nothing was undone." in with_message
    assert "Nothing was undone." not in after and 'class="flashes"' not in after


# --- nothing kept per browser ---------------------------------------------------------------------
@pytest.mark.slow  # a stress test: 50,000 requests
def test_memory_stays_flat_under_requests_from_distinct_browsers(app):
    """Browsers with no cookie, each with its own Accept-Language and query string, keep nothing.

    Only what a page depends on (a match's version, a shipped language, the URL root) is a key of
    anything kept, so after the first requests memory does not grow with the requests.
    """
    match_id = add_match(app, [HAND] * 3)
    database = connect(app.config["DATABASE"])
    token = store.match_head(database, match_id).watch_token
    database.close()
    urls = [f"/matches/{match_id}", f"/watch/{token}", "/", f"/matches/{match_id}/sheet"]
    browser = app.test_client(use_cookies=False)  # every request a browser never seen before

    def visit(first, count):
        for n in range(first, first + count):
            language = f"x-{n}, {['es', 'de', 'pt-BR', 'en'][n % 4]};q=0.{n % 9 + 1}"
            response = browser.get(f"{urls[n % 4]}?from=browser-{n}", headers={"Accept-Language": language})
            assert response.status_code == 200

    visit(0, 100)  # templates compiled, pieces kept in each language
    pieces = len(app.extensions["scorepad.fragments"])
    tracemalloc.start()
    try:
        visit(100, 100)
        gc.collect()  # what is garbage already is not growth
        after_few = tracemalloc.get_traced_memory()[0]
        visit(200, 400)
        gc.collect()
        after_many = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert len(app.extensions["scorepad.fragments"]) == pieces
    assert after_many - after_few < 400 * 100, "less than 100 bytes a request"
