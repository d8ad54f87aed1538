"""The server's part of offline use: the "You're offline" page, the shell the worker keeps, and
the hand forms' marks that let a page queue them (the queue itself is tested in Chromium)."""

import json
import re
from urllib.parse import urlsplit

from test_matches import add, new_match

from scorepad import create_app

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
INLINE_HANDLER = re.compile(r"\s(?:on[a-z]+|style)=", re.IGNORECASE)


def shell(client):
    worker = client.get("/sw.js").get_data(as_text=True)
    return json.loads(re.match(r"const SHELL = (\[.*?\]);\n", worker)[1]), worker


def test_the_offline_page_says_so_under_its_own_title(client):
    response = client.get("/offline")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "<title>You're offline · scorepad</title>" in html
    assert "<h1>You're offline</h1>" in html
    assert "Pages this phone still has" in html and "Hands waiting to be sent" in html
    assert 'href="/"' in html
    assert re.search(r'<script src="/static/offline\.js\?v=\w+" defer>', html)
    # offline.js loads the page's own script (lists of what the phone kept) only here.
    assert re.search(r'data-script="/static/offline-page\.js\?v=\w+"', html)
    assert not INLINE_SCRIPT.search(html) and not INLINE_HANDLER.search(html)


def test_the_worker_keeps_the_offline_page_and_every_shell_file(client):
    urls, worker = shell(client)
    assert urls[:2] == ["/", "/offline"]
    assert 'const OFFLINE = "/offline";' in worker
    for name in ("offline.js", "offline-page.js"):
        assert any(url.startswith(f"/static/{name}?v=") for url in urls), name
    # One missing file would make the worker's install fail, and then nothing works offline.
    for url in urls:
        with client.get(url) as response:
            assert response.status_code == 200, url


def test_hand_forms_say_which_page_they_live_on(client):
    path = urlsplit(new_match(client)).path
    page = client.get(f"{path}/hands/new").get_data(as_text=True)
    assert f'data-queue="{path}/hands/new"' in page
    assert add(client, path).status_code == 303
    correction = client.get(f"{path}/hands/1/edit").get_data(as_text=True)
    assert f'data-queue="{path}/hands/1/edit"' in correction


def test_pages_name_the_root_the_scripts_and_the_worker_live_under(client):
    """The scripts read the app's root from the page (static/words.js), so a prefix reaches them."""
    assert '<html lang="en" data-root="/">' in client.get("/offline").get_data(as_text=True)
    prefixed = client.get("/offline", base_url="http://localhost/canasta").get_data(as_text=True)
    assert '<html lang="en" data-root="/canasta/">' in prefixed
    assert 'data-sw="/canasta/sw.js"' in prefixed
    worker = client.get("/sw.js", base_url="http://localhost/canasta").get_data(as_text=True)
    urls = json.loads(re.match(r"const SHELL = (\[.*?\]);\n", worker)[1])
    assert urls[:3] == ["/canasta/", "/canasta/offline", "/canasta/manifest.webmanifest"]
    assert all(url.startswith("/canasta/static/") for url in urls[3:])


def test_behind_a_proxy_the_prefix_it_names_is_the_pages_root(tmp_path):
    """docs/deploy.md, "Under a path": the proxy takes /canasta off and says so in a header."""
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "p.db"), "SECRET_KEY": "x", "PROXY_HOPS": 1})
    client = app.test_client()
    page = client.get("/offline", headers={"X-Forwarded-Prefix": "/canasta"}).get_data(as_text=True)
    assert 'data-root="/canasta/"' in page and 'data-sw="/canasta/sw.js"' in page
    assert 'data-root="/"' in client.get("/offline").get_data(as_text=True)  # the same app, no header
