"""Who sees what: writer, watcher, stranger and organiser on every page and export.

Each role is its own test client (its own cookie jar, so its own browser). The write id of a
match (its ``/matches/<id>`` link) is what lets a phone enter hands: it must never reach a
watcher or a stranger, in any page, fragment, download or header.
"""

import csv
import io
import json
import re
from html import unescape
from urllib.parse import urljoin, urlsplit

import pytest
import support
from support import DEFAULTS, HAND

from scorepad import access, create_app, store
from scorepad.db import connect, migrate
from scorepad.migrations import migrations

PASSPHRASE = "red threes and black threes"
LINK = re.compile(r'(?:href|src|hx-get|data-sw)="([^"]+)"')


@pytest.fixture
def app(make_app):
    return make_app(ORGANISER_PASSPHRASE=PASSPHRASE)


@pytest.fixture
def writer(app):
    return app.test_client()


@pytest.fixture
def watcher(app):
    return app.test_client()


@pytest.fixture
def stranger(app):
    return app.test_client()


@pytest.fixture
def organiser(app):
    client = app.test_client()
    response = client.post("/organiser", data={"passphrase": PASSPHRASE})
    assert response.status_code == 303
    return client


def start_match(client, title="Friday"):
    """Start a match the way a phone does, enter one hand, and return (match id, watch path)."""
    data = {"side_0": "We", "side_1": "They", "side_0_player_0": "Ann", "side_0_player_1": "Bob", **DEFAULTS}
    response = client.post("/matches/new/classic", data={**data, "title": title})
    assert response.status_code == 303
    match_id = response.headers["Location"].rsplit("/", 1)[1]
    assert client.post(f"/matches/{match_id}/hands", data={**HAND, "version": "1"}).status_code == 303
    share = client.get(f"/matches/{match_id}/share").get_data(as_text=True)
    watch = re.search(r'value="http://localhost(/watch/[0-9a-f]{32})"', share)[1]
    return match_id, watch


def text_of(response):
    """Everything a response says: its body (images too, read as Latin-1) and every header."""
    headers = "\n".join(f"{k}: {v}" for k, v in response.headers.items())
    return response.get_data().decode("latin-1") + "\n" + headers


def listed_ids(client):
    return re.findall(r'href="/matches/([0-9a-f]{32})"', client.get("/").get_data(as_text=True))


def exported_ids(client):
    document = json.loads(client.get("/export/matches.json").data)
    rows = csv.DictReader(io.StringIO(client.get("/export/results.csv").data.decode("utf-8-sig")))
    csv_ids = sorted(row["id"] for row in rows)
    json_ids = sorted(match["id"] for match in document["matches"])
    assert csv_ids == json_ids and document["count"] == len(json_ids)
    return json_ids


def crawl(client, start, limit=80):
    """Every same-site page, fragment and file reachable by GET from ``start``; returns {url: response}."""
    seen, queue = {}, [start]
    while queue and len(seen) < limit:
        url = queue.pop(0)
        if url in seen:
            continue
        response = client.get(url, buffered=True)  # static files are streamed: read and close them
        seen[url] = response
        if response.status_code in (301, 302, 303):
            queue.append(response.headers["Location"])
        if response.mimetype != "text/html":
            continue
        for link in LINK.findall(response.get_data(as_text=True)):
            target = urljoin(url, unescape(link))
            parts = urlsplit(target)
            if parts.scheme in ("", "http") and parts.netloc in ("", "localhost"):
                queue.append(parts.path + (f"?{parts.query}" if parts.query else ""))
    return seen


# Pages and downloads that cover "all matches" or "my matches"; none names a match in its URL.
LISTS = ["/", "/stats", "/stats?player=Ann", "/export/matches.json", "/export/results.csv", "/import", "/organiser"]


# --- the writer ----------------------------------------------------------------------------
def test_the_writer_sees_and_exports_its_own_matches(app, writer):
    first, _ = start_match(writer, "Friday")
    second, _ = start_match(writer, "Saturday")
    support.add_match(app, [], title="Someone else's")  # on the server, but never opened here
    assert sorted(listed_ids(writer)) == sorted([first, second])
    assert exported_ids(writer) == sorted([first, second])
    stats = writer.get("/stats").get_data(as_text=True)
    assert "2 matches in this phone’s list" in stats
    assert f"/matches/{first}" in writer.get("/stats?player=Ann").get_data(as_text=True)


WRITER_PAGES = [
    "",
    "/hands/new",
    "/hands/1",
    "/hands/1/edit",
    "/share",
    "/delete",
    "/export.csv",
    "/export.json",
    "/print",
    "/result",
]


@pytest.mark.parametrize("suffix", WRITER_PAGES)
def test_opening_any_writer_page_adds_the_match_to_the_list(writer, stranger, suffix):
    match_id, _ = start_match(writer)
    assert listed_ids(stranger) == []
    assert stranger.get(f"/matches/{match_id}{suffix}").status_code == 200
    assert listed_ids(stranger) == [match_id]
    assert exported_ids(stranger) == [match_id]


def access_rows(app):
    db = connect(app.config["DATABASE"])
    try:
        return db.execute("select count(*) from access").fetchone()[0]
    finally:
        db.close()


def test_a_client_that_keeps_no_cookie_writes_nothing_per_visit(app, writer):
    match_id, _ = start_match(writer)
    rows = access_rows(app)
    cookieless = app.test_client(use_cookies=False)
    for _ in range(3):
        response = cookieless.get(f"/matches/{match_id}")
        assert response.status_code == 200 and browser_cookie(response)  # offered an id every time
    assert access_rows(app) == rows, "no row for a browser that never comes back with its id"


def test_a_browser_lists_what_it_opened_before_it_had_an_id_once_it_comes_back(app, writer, stranger):
    match_id, _ = start_match(writer)
    rows = access_rows(app)
    assert stranger.get(f"/matches/{match_id}").status_code == 200
    assert access_rows(app) == rows  # a first visit: an id is offered, nothing is written yet
    back = stranger.get("/")
    assert re.findall(r'href="/matches/([0-9a-f]{32})"', back.get_data(as_text=True)) == [match_id]
    assert access_rows(app) == rows + 1
    assert stranger.get(f"/matches/{match_id}").status_code == 200 and listed_ids(stranger) == [match_id]
    assert access_rows(app) == rows + 1, "written once"
    assert stranger.get_cookie(access.OPENED_COOKIE) is None, "the note is spent"


def test_polling_fragments_and_qr_codes_add_nothing(writer, stranger):
    match_id, _ = start_match(writer)
    for suffix in ("/sheet", "/qr.svg"):
        assert stranger.get(f"/matches/{match_id}{suffix}").status_code == 200
    assert listed_ids(stranger) == []


def test_a_deleted_match_opened_by_link_is_offered_for_restoring(app, writer, stranger):
    match_id, _ = start_match(writer)
    writer.post(f"/matches/{match_id}/delete", data={"version": "2"})
    assert match_id not in writer.get("/").get_data(as_text=True).split("Recently deleted")[0]
    assert match_id not in stranger.get("/").get_data(as_text=True)
    stranger.get(f"/matches/{match_id}")
    assert f"/matches/{match_id}/restore" in stranger.get("/").get_data(as_text=True)


def test_an_import_joins_the_importing_browsers_list(app, writer, stranger, make_app):
    match_id, _ = start_match(writer)
    backup = writer.get("/export/matches.json").data
    elsewhere = make_app()
    importer, bystander = elsewhere.test_client(), elsewhere.test_client()
    data = {"file": (io.BytesIO(backup), "backup.json")}
    assert importer.post("/import", data=data, content_type="multipart/form-data").status_code == 303
    assert listed_ids(importer) == [match_id], "a well-formed id is kept: the old links keep working"
    assert listed_ids(bystander) == []


# --- the watcher ---------------------------------------------------------------------------
def test_nothing_a_watcher_can_reach_carries_the_write_id(app, writer, watcher):
    match_id, watch = start_match(writer)
    other_id, _ = start_match(writer, "Saturday")
    support.add_match(app, [], title="Unopened")
    reached = crawl(watcher, watch)
    for url in [f"{watch}/sheet", f"{watch}/sheet?since=1", f"{watch}/qr.svg", *LISTS]:
        reached.setdefault(url, watcher.get(url))
    fragment = watcher.get(f"{watch}/sheet", headers={"HX-Request": "true"})
    assert fragment.status_code == 200 and 'id="sheet"' in fragment.get_data(as_text=True)
    reached["fragment"] = fragment
    assert "/" in reached, "the logo leads home"
    assert {urlsplit(url).path for url in reached} >= {"/", watch, f"{watch}/sheet", "/stats", "/import"}
    for url, response in reached.items():
        assert response.status_code < 500, url
        said = text_of(response)
        assert match_id not in said and other_id not in said, f"{url} gave a watcher a write id"
    assert "1,220" in reached[watch].get_data(as_text=True), "the watched sheet itself is shown"
    assert listed_ids(watcher) == [] and exported_ids(watcher) == []


def test_the_watch_page_has_no_write_controls(writer, watcher):
    _, watch = start_match(writer)
    page = watcher.get(watch).get_data(as_text=True)
    for control in ("Enter hand", "Undo", "Share", "Delete", "Can We", "export.csv", "<form", "/check"):
        assert control not in page, control


# --- a stranger ----------------------------------------------------------------------------
def test_a_stranger_sees_no_match_anywhere(app, writer, stranger):
    match_id, watch = start_match(writer)
    support.add_match(app, [], title="Unopened")
    for url in LISTS:
        response = stranger.get(url)
        assert response.status_code == 200, url
        assert match_id not in text_of(response), url
    assert listed_ids(stranger) == [] and exported_ids(stranger) == []
    assert "0 matches in this phone’s list" in stranger.get("/stats").get_data(as_text=True)
    assert "No stored match has a player" in stranger.get("/stats?player=Ann").get_data(as_text=True)


def test_a_forged_or_malformed_browser_cookie_lists_nothing(app, writer, stranger):
    start_match(writer)
    stranger.set_cookie(access.COOKIE, "0" * 16)
    assert listed_ids(stranger) == []
    stranger.set_cookie(access.COOKIE, "' or 1=1 --")
    assert listed_ids(stranger) == []


# --- the organiser -------------------------------------------------------------------------
def test_the_organiser_sees_and_exports_every_match(app, writer, organiser):
    mine, _ = start_match(writer)
    unopened = support.add_match(app, [], title="Never opened")
    assert sorted(listed_ids(organiser)) == sorted([mine, unopened])
    assert exported_ids(organiser) == sorted([mine, unopened])
    home = organiser.get("/").get_data(as_text=True)
    assert "Every match" in home and "Signed in as the organiser" in home
    assert "2 matches stored on this server" in organiser.get("/stats").get_data(as_text=True)
    assert listed_ids(writer) == [mine], "the writer still sees only its own"


def test_organiser_sign_out_lists_only_its_own_again(app, writer, organiser):
    start_match(writer)
    own, _ = start_match(organiser, "The organiser's own")
    assert len(listed_ids(organiser)) == 2
    response = organiser.post("/organiser/sign-out")
    assert response.status_code == 303 and response.headers["Location"] == "/"
    assert listed_ids(organiser) == [own]


# --- the browser's cookie ------------------------------------------------------------------
def browser_cookie(response):
    [header] = [h for h in response.headers.getlist("Set-Cookie") if h.startswith(access.COOKIE + "=")]
    return header


def test_the_browser_cookie_is_long_lived_http_only_and_same_site(writer):
    response = writer.post("/matches/new/classic", data={"side_0": "We", "side_1": "They", **DEFAULTS})
    header = browser_cookie(response)
    assert re.match(rf"{access.COOKIE}=[0-9a-f]{{32}};", header)
    assert "HttpOnly" in header and "SameSite=Lax" in header and "Secure" not in header
    assert "Max-Age=34560000" in header  # 400 days, the most browsers keep a cookie
    assert "Cookie" in writer.get("/").headers["Vary"], "the list differs per browser"


def test_the_browser_cookie_is_secure_when_the_app_is_served_over_https(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "https.db"),
            "SECRET_KEY": "t",
            "WTF_CSRF_ENABLED": False,
            "SESSION_COOKIE_SECURE": True,
        }
    )
    client = app.test_client()
    response = client.post("/matches/new/classic", data={"side_0": "We", "side_1": "They", **DEFAULTS})
    assert "Secure" in browser_cookie(response)


def test_pages_that_need_no_identity_set_no_cookie(writer, stranger):
    _, watch = start_match(writer)
    for url in ("/", watch, "/stats", "/export/matches.json"):
        assert not stranger.get(url).headers.getlist("Set-Cookie"), url


# --- upgrading a database from before ownership ---------------------------------------------
@pytest.fixture
def old_database(tmp_path):
    """A database as scorepad left it before m003: two matches, nobody's."""
    path = str(tmp_path / "old.db")
    db = connect(path)
    try:
        migrations.apply(db, stop_before="m003_record_access_and_import_origin")
        assert not db.table("access").exists()
    finally:
        db.close()
    app_before = type("App", (), {"config": {"DATABASE": path}})
    ids = [support.add_match(app_before, [], title=title) for title in ("Old Friday", "Old Saturday")]
    return path, ids


def test_an_upgrade_keeps_every_match_for_the_organiser_and_the_link_holders(old_database):
    path, (first, second) = old_database
    app = create_app(
        {"TESTING": True, "DATABASE": path, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "ORGANISER_PASSPHRASE": "p"}
    )
    organiser, player, stranger = app.test_client(), app.test_client(), app.test_client()
    organiser.post("/organiser", data={"passphrase": "p"})
    assert sorted(listed_ids(organiser)) == sorted([first, second])
    assert listed_ids(stranger) == []
    player.get(f"/matches/{first}")
    assert listed_ids(player) == [first]
    db = connect(path)
    try:
        assert store.count_unlisted(db) == 1
    finally:
        db.close()


def serve_output(monkeypatch, capsys, path, passphrase=None):
    """What ``scorepad serve`` prints before it starts serving (waitress binds but never runs)."""
    import waitress.server

    from scorepad import cli

    monkeypatch.setenv("FLASK_DATABASE", path)
    monkeypatch.setenv("FLASK_SECRET_KEY", "t")
    if passphrase:
        monkeypatch.setenv("FLASK_ORGANISER_PASSPHRASE", passphrase)
    else:
        monkeypatch.delenv("FLASK_ORGANISER_PASSPHRASE", raising=False)
    monkeypatch.setattr(waitress.server.BaseWSGIServer, "run", lambda server: None)
    assert cli.main(["serve", "--host", "127.0.0.1", "--port", "0"]) == 0
    return capsys.readouterr().out


def test_serve_says_when_matches_are_on_no_list_and_nobody_can_organise(old_database, monkeypatch, capsys):
    path, _ = old_database
    out = serve_output(monkeypatch, capsys, path)
    assert "2 matches are on no phone's list yet" in out and "FLASK_ORGANISER_PASSPHRASE" in out
    assert out.index("on no phone's list") < out.index("scorepad is at"), "said when it starts"


def test_serve_is_quiet_with_a_passphrase_or_when_every_match_is_listed(old_database, monkeypatch, capsys):
    path, ids = old_database
    assert "no phone's list" not in serve_output(monkeypatch, capsys, path, passphrase="1234")
    migrate(path)
    db = connect(path)
    try:
        for match_id in ids:
            store.grant_access(db, "a" * 32, match_id, "opened")
    finally:
        db.close()
    assert "no phone's list" not in serve_output(monkeypatch, capsys, path)


def test_a_numeric_passphrase_from_the_environment_is_kept_as_typed(app, monkeypatch):
    monkeypatch.setenv("FLASK_ORGANISER_PASSPHRASE", "007")
    with app.app_context():
        app.config["ORGANISER_PASSPHRASE"] = 7  # what from_prefixed_env() makes of "007"
        assert access.passphrase() == "007"
        app.config["ORGANISER_PASSPHRASE"] = ""
        assert access.passphrase() is None
