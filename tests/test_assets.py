"""Static files: content-hashed URLs cached for a year, and each stylesheet linked once."""

import re

import pytest
from support import DEFAULTS, HAND

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


def test_asset_urls_are_worked_out_once_per_file_outside_debug(app, client, monkeypatch):
    hashed = []
    digest = assets._digest
    monkeypatch.setattr(assets, "_digest", lambda path, mtime: hashed.append(path) or digest(path, mtime))
    first = client.get("/").get_data(as_text=True)
    assert hashed and len(hashed) == len(set(hashed))  # each linked file hashed once
    hashed.clear()
    assert client.get("/").get_data(as_text=True) == first and hashed == []
    app.debug = True  # an edited file gets its new hash on the next page
    client.get("/")
    assert hashed


def test_asset_urls_follow_the_url_root(client):
    mounted = client.get("/", base_url="http://localhost/club").get_data(as_text=True)
    plain = client.get("/").get_data(as_text=True)
    assert 'href="/club/static/scorepad.css?v=' in mounted
    assert 'href="/static/scorepad.css?v=' in plain and "/club/" not in plain


def test_pages_are_gzipped_fast_and_static_files_well(client):
    page = client.get("/", headers={"Accept-Encoding": "gzip"})
    with client.get("/static/scorepad.css", headers={"Accept-Encoding": "gzip"}) as css:
        css_bytes = css.data
    # The gzip header's XFL byte: 4 for the fastest level, 2 for the best (RFC 1952).
    assert page.headers["Content-Encoding"] == "gzip" and page.data[8] == 4
    assert css.headers["Content-Encoding"] == "gzip" and css_bytes[8] == 2
