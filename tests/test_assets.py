"""Static files: content-hashed URLs cached for a year, and each stylesheet linked once."""

import re

import pytest
from support import DEFAULTS, HAND

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
