"""The unchanged poll answered before Flask: the same answer as Flask's, and only for that case."""

import pytest

from scorepad import db, polls, store
from scorepad.db import connect
from tests.support import add_match

HAND = {
    "entries": [
        {"melded_points": 620, "canastas": {"natural": 1}, "went_out": True},
        {"melded_points": 260, "hand_points": 95},
    ]
}


@pytest.fixture
def stored(app):
    """A match of one hand (version 2: made, then a hand), its sheet's poll and its watcher's."""
    match_id = add_match(app, [HAND])
    database = connect(app.config["DATABASE"])
    try:
        token = store.match_head(database, match_id).watch_token
        assert store.current_version(database, match_id=match_id) == 2
    finally:
        database.close()
    return {"id": match_id, "sheet": f"/matches/{match_id}/sheet", "watch": f"/watch/{token}/sheet"}


@pytest.fixture
def flask_saw(app):
    """The paths of the requests that reached Flask's own hooks."""
    seen = []

    @app.before_request
    def note():
        from flask import request

        seen.append(request.full_path)

    return seen


def test_the_app_is_wrapped_by_the_shortcut(app):
    assert isinstance(app.wsgi_app, polls.UnchangedPolls)


@pytest.mark.parametrize("poll", ["sheet", "watch"])
def test_an_unchanged_poll_is_204_without_reaching_flask(client, stored, flask_saw, poll):
    response = client.get(f"{stored[poll]}?since=2", headers={"HX-Request": "true"})
    assert response.status_code == 204 and response.data == b""
    assert flask_saw == []


@pytest.mark.parametrize("poll", ["sheet", "watch"])
def test_an_unchanged_poll_carries_the_security_headers_every_page_does(client, stored, poll):
    quick = client.get(f"{stored[poll]}?since=2")
    page = client.get(stored[poll])  # the same sheet, answered by Flask
    assert (quick.status_code, page.status_code) == (204, 200)
    for name in ("Content-Security-Policy", "Referrer-Policy", "X-Content-Type-Options", "X-Frame-Options"):
        assert quick.headers[name] == page.headers[name], name
    assert quick.headers["Content-Security-Policy"].startswith("default-src 'self'")
    assert quick.headers["Referrer-Policy"] == "no-referrer"  # the poll's address carries the match's id


@pytest.mark.parametrize(
    "path",
    [
        "{sheet}?since=1",  # the match moved on: Flask sends the new sheet
        "{watch}?since=3",  # a version the match never had
        "{sheet}?since=02",  # not how the sheet writes its version
        "{sheet}?since=2&x=1",  # another query: Flask reads it
        "{sheet}",  # no since
        "/watch/0123456789abcdef0123456789abcdef/sheet?since=2",  # no such watch link
        "/matches/{id}?since=2",  # not a poll
        "/nowhere?since=2",
    ],
)
def test_anything_else_goes_to_flask(client, stored, flask_saw, path):
    url = path.format(**stored)
    response = client.get(url, headers={"HX-Request": "true"})
    assert flask_saw, url
    if url.startswith(stored["sheet"] + "?since=1"):
        assert response.status_code == 200 and b"since=2" in response.data
    if "0123456789abcdef" in url or url.startswith("/nowhere"):
        assert response.status_code == 404


def test_a_deleted_match_is_flasks_404(app, client, stored, flask_saw):
    database = connect(app.config["DATABASE"])
    try:
        store.delete_match(database, stored["id"], 2)
    finally:
        database.close()
    assert client.get(f"{stored['watch']}?since=3").status_code == 404
    assert flask_saw


def test_head_and_post_are_flasks(client, stored, flask_saw):
    client.head(f"{stored['sheet']}?since=2")
    assert len(flask_saw) == 1
    client.post(f"{stored['sheet']}?since=2")
    assert len(flask_saw) == 2


def test_the_lookup_uses_and_keeps_the_threads_connection(app, client, stored):
    kept = db.kept_connections().connections
    path = app.config["DATABASE"]
    assert client.get(f"{stored['sheet']}?since=2").status_code == 204
    connection = kept[path]
    assert client.get(f"{stored['watch']}?since=2").status_code == 204
    assert kept[path] is connection and not connection.conn.in_transaction
