"""Static files: content-hashed URLs cached for a year, each stylesheet linked once; pages gzipped."""

import gzip
import re
import shutil

import itsdangerous
import pytest
from flask import Response
from support import DEFAULTS, HAND, add_match

from scorepad import assets
from scorepad.assets import asset_url


@pytest.fixture
def sheet(client):
    created = client.post("/matches/new/classic", data={"side_0": "We", "side_1": "They", **DEFAULTS})
    url = created.headers["Location"]
    client.post(f"{url}/hands", data={**HAND, "version": "1"})
    return url


def test_a_hashed_asset_is_cached_for_a_year_without_revalidation(app, client):
    with app.test_request_context():
        url = asset_url("scorepad.css")
    with client.get(url) as response:
        directives = {part.strip() for part in response.headers["Cache-Control"].split(",")}
    assert directives == {"public", "max-age=31536000", "immutable"}


@pytest.mark.parametrize("query", ["", "?v=0123456789"])
def test_an_unversioned_or_outdated_url_is_revalidated(client, query):
    with client.get(f"/static/scorepad.css{query}") as response:
        assert response.status_code == 200
        assert "immutable" not in response.headers["Cache-Control"]
        assert "no-cache" in response.headers["Cache-Control"]


def test_each_page_links_each_stylesheet_once(client, sheet):
    match_id = sheet.rsplit("/", 1)[1]
    for path in (sheet, f"{sheet}/hands/new", f"/matches/{match_id}/print", f"/matches/{match_id}/result", "/"):
        page = client.get(path).get_data(as_text=True)
        sheets = re.findall(r'<link rel="stylesheet" href="/static/([^"?]+)', page)
        assert sorted(sheets) == sorted(set(sheets)), path
        assert "print.css" in sheets, path


def test_an_edited_static_file_gets_a_new_url_in_debug_mode(app, client, tmp_path):
    shutil.copytree(app.static_folder, tmp_path / "static")
    app.static_folder = str(tmp_path / "static")
    first = client.get("/").get_data(as_text=True)
    css = re.search(r"/static/scorepad\.css\?v=(\w+)", first)[1]
    with (tmp_path / "static" / "scorepad.css").open("a") as file:
        file.write("\n/* edited */\n")
    assert f"scorepad.css?v={css}" in client.get("/").get_data(as_text=True), "a running server's files are fixed"
    app.debug = True  # an edited file gets its new hash on the next page
    edited = client.get("/").get_data(as_text=True)
    assert "scorepad.css?v=" in edited and f"scorepad.css?v={css}" not in edited


def test_asset_urls_follow_the_url_root(client):
    mounted = client.get("/", base_url="http://localhost/club").get_data(as_text=True)
    plain = client.get("/").get_data(as_text=True)
    assert 'href="/club/static/scorepad.css?v=' in mounted
    assert 'href="/static/scorepad.css?v=' in plain and "/club/" not in plain


def test_pages_are_gzipped_fast_and_static_files_well(client):
    page = client.get("/", headers={"Accept-Encoding": "gzip"})
    with client.get("/static/scorepad.css", headers={"Accept-Encoding": "gzip"}) as css:
        css_bytes = css.data
    # The gzip header's XFL byte (RFC 1952): 2 for the best level, for static files, kept; a page
    # is gzipped on each request at the fastest level, whose header says 4.
    assert page.headers["Content-Encoding"] == "gzip" and page.data[8] == 4
    assert b"scorepad" in gzip.decompress(page.data)
    assert css.headers["Content-Encoding"] == "gzip" and css_bytes[8] == 2


@pytest.mark.parametrize("refusal", ["gzip;q=0", "identity", "gzip;q=0, deflate", "*;q=0", "br"])
def test_gzip_is_sent_only_to_a_client_that_accepts_it(client, refusal):
    """RFC 9110 §12.5.3: ``q=0`` means "not acceptable"; a name without gzip or * does not ask for it."""
    for url in ("/", "/static/scorepad.css"):
        with client.get(url, headers={"Accept-Encoding": refusal}) as response:
            assert "Content-Encoding" not in response.headers and response.data.startswith((b"<!", b"/*", b":", b"@"))
    for accepted in ("gzip;q=0.5", "*", "deflate, gzip"):
        assert client.get("/", headers={"Accept-Encoding": accepted}).headers["Content-Encoding"] == "gzip"


# --- pages compressed per request ---------------------------------------------------------------
@pytest.fixture
def still_clock(monkeypatch):
    """Sign every form token at the same second, so two answers of one session are the same page."""
    monkeypatch.setattr(itsdangerous.TimestampSigner, "get_timestamp", lambda self: 1_800_000_000)


def unkeyed(page: bytes) -> bytes:
    return re.sub(rb'(name="submission" type="hidden" value=")[^"]*"', rb'\1"', page)


@pytest.mark.parametrize("language", ["en", "es", "de", "pt_BR"])
def test_the_sheet_gunzips_to_the_page_sent_plain(app, client, still_clock, language):
    match_id = add_match(app, [{"entries": [{"melded_points": 650}, {"melded_points": 500}]}] * 3)
    headers = {"Accept-Language": language.replace("_", "-")}
    for url in (f"/matches/{match_id}", f"/matches/{match_id}/sheet"):
        plain = client.get(url, headers=headers).data
        for _ in range(2):  # drawn, then with its pieces from the markup cache
            packed = client.get(url, headers={**headers, "Accept-Encoding": "gzip"})
            assert packed.headers["Content-Encoding"] == "gzip"
            # The next hand's form on the sheet carries a fresh submission key each time (issue 29).
            assert unkeyed(gzip.decompress(packed.data)) == unkeyed(plain)
    assert language == "en" or max(plain) > 127, "a page with accented words"
    assert b'name="csrf_token"' in plain


def test_a_sheet_with_a_message_is_gzipped_whole(app, client):
    match_id = add_match(app, [{"entries": [{"melded_points": 650}, {"melded_points": 500}]}] * 2)
    client.get(f"/matches/{match_id}")  # kept
    client.post(f"/matches/{match_id}/hands/undo", data={"version": "3"})
    packed = client.get(f"/matches/{match_id}", headers={"Accept-Encoding": "gzip"})
    assert "Hand 2 undone." in gzip.decompress(packed.data).decode()


def test_vary_names_each_header_once_after_those_already_there():
    response = Response("x")
    assets.vary(response, "Accept-Language", "Cookie", "Cookie")
    assert response.headers["Vary"] == "Accept-Language, Cookie"
    response.vary.add("HX-Request")
    assets.vary(response, "cookie", "Accept-Encoding")
    assert response.headers["Vary"] == "Accept-Language, Cookie, HX-Request, Accept-Encoding"
    assert response.headers.getlist("Vary") == [response.headers["Vary"]]
