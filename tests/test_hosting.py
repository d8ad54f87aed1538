"""What a club's host sees: cookies of scorepad's own under its path, robots, caching, the icon."""

import re

import pytest

from tests.support import DEFAULTS, add_match, open_links


def every_cookie(client, base_url):
    """What a phone is sent while it opens the home page, picks a language, starts a match, opens it."""
    sent = []
    sent += client.get("/", base_url=base_url).headers.getlist("Set-Cookie")
    sent += client.get("/language/de", base_url=base_url).headers.getlist("Set-Cookie")
    form = client.get("/matches/new/classic", base_url=base_url)  # a form: a session holds its token
    sent += form.headers.getlist("Set-Cookie")
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', form.get_data(as_text=True))[1]
    data = {"side_0": "We", "side_1": "They", "csrf_token": token, **DEFAULTS}
    created = client.post("/matches/new/classic", data=data, base_url=base_url)
    assert created.status_code == 303, created.data
    sent += created.headers.getlist("Set-Cookie")
    sent += client.get(created.headers["Location"]).headers.getlist("Set-Cookie")
    return sent


def attributes(cookie):
    name = cookie.split("=", 1)[0]
    fields = dict(part.strip().partition("=")[::2] for part in cookie.split(";")[1:])
    return name, fields.get("Path")


@pytest.mark.parametrize(("base_url", "path"), [("http://localhost", "/"), ("http://localhost/canasta", "/canasta")])
def test_every_cookie_is_named_for_scorepad_and_scoped_to_its_root(app, client, base_url, path):
    """Under /canasta/ a club's own site must neither see scorepad's cookies nor have its own
    ``session`` cookie taken for scorepad's (RFC 6265 §5.1.4: Path=/canasta is sent to /canasta/...
    only)."""
    app.config["WTF_CSRF_ENABLED"] = True  # as served: forms carry a token, kept in the session
    sent = [attributes(cookie) for cookie in every_cookie(client, base_url)]
    names = {name for name, _ in sent}
    assert {"scorepad_session", "scorepad_language", "scorepad_browser"} <= names, names
    assert all(name.startswith("scorepad_") for name in names), names
    assert {found for _, found in sent} == {path}


def test_robots_are_asked_to_index_nothing(client):
    response = client.get("/robots.txt")
    assert response.status_code == 200 and response.mimetype == "text/plain"
    assert response.get_data(as_text=True).splitlines() == ["User-agent: *", "Disallow: /"]


def test_pages_are_never_indexed_nor_kept_by_a_shared_cache(app, client):
    match_id = add_match(app, [{"entries": [{"melded_points": 620}, {"melded_points": 260}]}])
    open_links(client, match_id)
    for url in (f"/matches/{match_id}", "/", "/checker/", "/nope"):
        response = client.get(url)
        assert response.mimetype == "text/html", url
        assert response.headers["X-Robots-Tag"] == "noindex, nofollow", url
        assert response.headers["Cache-Control"] == "private, no-cache", url
    assert client.get(f"/api/v1/matches/{match_id}").headers["X-Robots-Tag"] == "noindex, nofollow"
    # Static files keep their own year-long public caching.
    with client.get("/sw.js") as worker:
        assert worker.headers["Cache-Control"] == "no-cache"


def test_favicon_is_the_apps_icon(client):
    with client.get("/favicon.ico") as response:
        assert response.status_code == 200 and response.mimetype == "image/png"
        assert response.data.startswith(b"\x89PNG\r\n\x1a\n")
