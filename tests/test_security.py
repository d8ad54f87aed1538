"""Defended pages (scorepad.security): headers, cookies, body bounds, and refused form tokens.

These tests run with CSRF on, as a phone uses the app; the token cases show that whatever
refuses a token, the form comes back filled in with a fresh one, and nothing is stored.
"""

import gzip
import io
import json
import re
import time

import itsdangerous
import pytest
from support import AS_SERVED, add_match

from scorepad import store
from scorepad.db import connect
from scorepad.security import CONTENT_SECURITY_POLICY

HAND = {"sides-0-melded_points": "620", "sides-1-melded_points": "260", "sides-1-hand_points": "95"}
ONE_HAND = [{"entries": [{"melded_points": 650}, {"melded_points": 500}]}]


@pytest.fixture
def secure_app(make_app):
    """The app as a phone meets it: form tokens checked, errors answered as a server would."""
    return make_app(TESTING=False, WTF_CSRF_ENABLED=True, SECRET_KEY="security-tests")


@pytest.fixture
def phone(secure_app):
    return secure_app.test_client()


def token(html):
    return re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', html)[1]


def page(client, url):
    return client.get(url).get_data(as_text=True)


def stored(app, match_id):
    db = connect(app.config["DATABASE"])
    try:
        return store.get_match(db, match_id)
    finally:
        db.close()


def match_count(app):
    db = connect(app.config["DATABASE"])
    try:
        return len(store.all_match_ids(db))
    finally:
        db.close()


# --- headers on every kind of response ------------------------------------------------------
def test_the_policy_allows_no_inline_code_and_no_framing():
    directives = dict(d.split(" ", 1) for d in CONTENT_SECURITY_POLICY.split("; "))
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in CONTENT_SECURITY_POLICY


def kinds_of_response(app, client):
    match_id = add_match(app, ONE_HAND)
    return {
        "page": client.get("/"),
        "form page": client.get(f"/matches/{match_id}/hands/new"),
        "fragment": client.get(f"/matches/{match_id}/sheet", headers={"HX-Request": "true"}),
        "json": client.get("/api/v1/variants"),
        "json error": client.post("/api/v1/score", data="nonsense", content_type="application/json"),
        "415": client.post("/api/v1/score", data="nonsense"),
        "static": client.get("/static/scorepad.css"),
        "static gzipped": client.get("/static/htmx-2.0.11.min.js", headers={"Accept-Encoding": "gzip"}),
        "service worker": client.get("/sw.js"),
        "qr code": client.get(f"/matches/{match_id}/qr.svg"),
        "download": client.get(f"/matches/{match_id}/export.csv"),
        "redirect": client.post(f"/matches/{match_id}/hands/undo", data={"version": "0"}),
        "404 page": client.get("/matches/nope"),
        "404 json": client.get("/api/v1/matches/nope"),
        "405": client.get("/api/v1/score"),
        "413": client.post("/api/v1/score", data=b" " * (2 * 1024 * 1024), content_type="application/json"),
    }


def test_every_kind_of_response_carries_the_headers(secure_app, phone):
    for kind, response in kinds_of_response(secure_app, phone).items():
        headers = response.headers
        assert headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY, kind
        assert headers["Referrer-Policy"] == "no-referrer", kind
        assert headers["X-Content-Type-Options"] == "nosniff", kind
        assert headers["X-Frame-Options"] == "DENY", kind
        response.close()


def test_no_template_has_inline_script_or_style(secure_app):
    """The policy would block them; the browser tests would see it only on the pages they open."""
    from pathlib import Path

    templates = Path(secure_app.template_folder)
    for path in templates.rglob("*.html"):
        text = path.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), path
        assert "<style" not in text and " style=" not in text, path
        assert not re.search(r"\son[a-z]+=", text), path  # onclick= and friends are inline script


def test_the_progress_chart_has_no_style_attributes(secure_app, phone):
    match_id = add_match(secure_app, ONE_HAND * 3)
    html = page(phone, f"/matches/{match_id}/result")
    assert "<svg" in html and "style=" not in html.split("<svg", 1)[1].split("</svg>", 1)[0]


# --- the session cookie ------------------------------------------------------------------------
def session_cookie(response):
    return next(value for value in response.headers.getlist("Set-Cookie") if value.startswith("scorepad_session="))


def test_the_session_cookie_is_lax_and_http_only_and_plain_over_http(phone):
    cookie = session_cookie(phone.get("/matches/new/classic"))
    assert "SameSite=Lax" in cookie and "HttpOnly" in cookie
    assert "Secure" not in cookie


def test_the_session_cookie_is_secure_over_https(phone):
    assert "Secure" in session_cookie(phone.get("/matches/new/classic", base_url="https://scores.example"))


def test_behind_a_trusted_proxy_forwarded_https_makes_it_secure(make_app):
    app = make_app(**AS_SERVED, PROXY_HOPS=1)
    response = app.test_client().get("/matches/new/classic", headers={"X-Forwarded-Proto": "https"})
    assert "Secure" in session_cookie(response)


def test_forwarded_headers_are_ignored_unless_a_proxy_is_configured(phone):
    response = phone.get("/matches/new/classic", headers={"X-Forwarded-Proto": "https"})
    assert "Secure" not in session_cookie(response)


def test_the_secure_setting_forces_it(make_app):
    app = make_app(**AS_SERVED, SESSION_COOKIE_SECURE=True)
    assert "Secure" in session_cookie(app.test_client().get("/matches/new/classic"))


def test_one_button_forms_work_over_https_without_a_referer(secure_app, phone):
    """With Referrer-Policy: no-referrer browsers send none, so the token alone must do."""
    match_id = add_match(secure_app, ONE_HAND)
    https = "https://scores.example"
    html = phone.get(f"/matches/{match_id}", base_url=https).get_data(as_text=True)
    undo = phone.post(
        f"/matches/{match_id}/hands/undo", data={"csrf_token": token(html), "version": "2"}, base_url=https
    )
    assert undo.status_code == 303
    assert stored(secure_app, match_id).match.hands == ()


# --- a token refused for any reason: the form comes back filled in ----------------------------
@pytest.fixture
def clock(monkeypatch):
    """Move the clock the form tokens are signed with, by hours at a time."""
    real = itsdangerous.TimestampSigner.get_timestamp
    offset = {"seconds": 0}
    monkeypatch.setattr(itsdangerous.TimestampSigner, "get_timestamp", lambda self: real(self) + offset["seconds"])
    return offset


def test_a_hand_form_open_for_three_hours_still_saves(secure_app, phone, clock):
    match_id = add_match(secure_app, [])
    form = page(phone, f"/matches/{match_id}/hands/new")
    clock["seconds"] = 3 * 3600
    saved = phone.post(f"/matches/{match_id}/hands", data={**HAND, "version": "1", "csrf_token": token(form)})
    assert saved.status_code == 303
    assert len(stored(secure_app, match_id).match.hands) == 1


def refused_then_saved(app, client, match_id, sent_token):
    """Post a hand with a refused token; it comes back filled in, and the fresh token saves it."""
    refused = client.post(f"/matches/{match_id}/hands", data={**HAND, "version": "1", "csrf_token": sent_token})
    html = refused.get_data(as_text=True)
    assert refused.status_code == 200
    assert "security check did not pass" in html
    assert "Everything you typed is still here" in html
    assert 'value="620"' in html and 'value="260"' in html and 'value="95"' in html
    assert stored(app, match_id).match.hands == (), "nothing stored from a refused form"
    fresh = token(html)
    assert fresh != sent_token
    saved = client.post(f"/matches/{match_id}/hands", data={**HAND, "version": "1", "csrf_token": fresh})
    assert saved.status_code == 303
    assert len(stored(app, match_id).match.hands) == 1


def test_an_expired_token_comes_back_filled_with_a_fresh_one(make_app, clock):
    """A server that sets a time limit anyway (WTF_CSRF_TIME_LIMIT) still loses nothing."""
    app = make_app(**AS_SERVED, WTF_CSRF_TIME_LIMIT=60)
    client = app.test_client()
    match_id = add_match(app, [])
    old = token(page(client, f"/matches/{match_id}/hands/new"))
    clock["seconds"] = 120
    refused_then_saved(app, client, match_id, old)


def test_a_missing_session_cookie(secure_app, phone):
    match_id = add_match(secure_app, [])
    old = token(page(phone, f"/matches/{match_id}/hands/new"))
    phone.delete_cookie("scorepad_session")
    refused_then_saved(secure_app, phone, match_id, old)


def test_a_token_from_another_browser(secure_app, phone):
    match_id = add_match(secure_app, [])
    page(phone, "/matches/new/classic")  # this phone has a session of its own
    other = token(page(secure_app.test_client(), f"/matches/{match_id}/hands/new"))
    refused_then_saved(secure_app, phone, match_id, other)


@pytest.mark.parametrize("bad", ["", "nonsense", "a.b.c", "x" * 5000])
def test_a_bad_or_missing_token(secure_app, phone, bad):
    match_id = add_match(secure_app, [])
    page(phone, f"/matches/{match_id}/hands/new")
    refused_then_saved(secure_app, phone, match_id, bad)


def test_a_hand_correction_with_a_refused_token_keeps_the_correction(secure_app, phone):
    match_id = add_match(secure_app, ONE_HAND)
    page(phone, f"/matches/{match_id}/hands/1/edit")
    refused = phone.post(f"/matches/{match_id}/hands/1", data={**HAND, "version": "2", "csrf_token": "stale"})
    html = refused.get_data(as_text=True)
    assert refused.status_code == 200 and "security check did not pass" in html and 'value="620"' in html
    assert stored(secure_app, match_id).version == 2


def test_a_new_match_with_a_refused_token_keeps_the_names(secure_app, phone):
    data = {
        "side_0": "Ann & Bob",
        "side_1": "Cy",
        "title": "Friday",
        "option_target": "7500",
        "option_canastas_to_go_out": "1",
        "option_restore_pile_penalty": "0",
        "csrf_token": "x",
    }
    refused = phone.post("/matches/new/classic", data=data)
    html = refused.get_data(as_text=True)
    assert refused.status_code == 200 and "security check did not pass" in html
    assert 'value="Ann &amp; Bob"' in html and 'value="Friday"' in html and 'value="7500"' in html
    assert match_count(secure_app) == 0
    created = phone.post("/matches/new/classic", data={**data, "csrf_token": token(html)})
    assert created.status_code == 303 and match_count(secure_app) == 1


def test_the_preview_says_so_and_swaps_in_a_fresh_token(secure_app, phone):
    match_id = add_match(secure_app, [])
    page(phone, f"/matches/{match_id}/hands/new")
    preview = phone.post(f"/matches/{match_id}/hands/preview", data={**HAND, "csrf_token": "stale"})
    html = preview.get_data(as_text=True)
    assert preview.status_code == 200 and "security check did not pass" in html
    swapped = re.search(
        r'<input[^>]*hx-swap-oob="true"[^>]*name="csrf_token"[^>]*>|<input[^>]*name="csrf_token"[^>]*', html
    )
    assert swapped and 'hx-swap-oob="true"' in swapped[0]
    fresh = re.search(r'value="([^"]+)"', swapped[0])[1]
    saved = phone.post(f"/matches/{match_id}/hands", data={**HAND, "version": "1", "csrf_token": fresh})
    assert saved.status_code == 303


ONE_BUTTON = [
    # (form, where it posts, where the refusal goes back to, what must not have changed)
    ("undo", "/matches/{id}/hands/undo", "/matches/{id}"),
    ("put back", "/matches/{id}/hands/restore", "/matches/{id}"),
    ("delete", "/matches/{id}/delete", "/matches/{id}/delete"),
    ("restore match", "/matches/{id}/restore", "/matches/{id}"),
]


@pytest.mark.parametrize(("name", "action", "back"), ONE_BUTTON, ids=[row[0] for row in ONE_BUTTON])
def test_a_one_button_form_with_a_refused_token_goes_back_saying_nothing_changed(secure_app, phone, name, action, back):
    match_id = add_match(secure_app, ONE_HAND * 2)
    db = connect(secure_app.config["DATABASE"])
    try:
        if name == "put back":
            store.undo_last_hand(db, match_id, 3)
        if name == "restore match":
            store.delete_match(db, match_id, 3)
    finally:
        db.close()
    before = stored(secure_app, match_id)
    response = phone.post(action.format(id=match_id), data={"version": str(before.version), "csrf_token": "x"})
    assert response.status_code == 303
    assert response.headers["Location"] == back.format(id=match_id)
    after = stored(secure_app, match_id)
    assert (after.version, after.deleted, after.match.hands) == (before.version, before.deleted, before.match.hands)
    assert "Nothing was changed" in page(phone, response.headers["Location"])


def test_an_import_with_a_refused_token_goes_back_to_the_import_page(secure_app, phone):
    backup = json.dumps({"format": "x"}).encode()
    response = phone.post(
        "/import", data={"file": (io.BytesIO(backup), "b.json"), "csrf_token": "x"}, content_type="multipart/form-data"
    )
    assert response.status_code == 303 and response.headers["Location"] == "/import"
    assert "Nothing was changed" in page(phone, "/import")


# --- numbers too large for any box -------------------------------------------------------------
HUGE = ["9" * 310, "-" + "9" * 400, "1" + "0" * 5000, "1000000001"]


def number_boxes(html):
    return re.findall(r'<input[^>]*id="([^"]+)"[^>]*name="([^"]+)"[^>]*type="number"', html)


@pytest.mark.parametrize("variant", ["classic", "samba", "classic-3p", "bolivia"])
def test_a_huge_number_in_any_hand_box_is_a_message_on_that_box(app, client, variant):
    """Every box of every variant's hand form gets a huge number, the four kinds taking turns along
    the boxes (every box is read by the same reader: a page for every box times every kind cost
    four times this test and tried nothing more)."""
    match_id = add_match(app, [], variant=variant, sides=None if variant != "classic-3p" else _three())
    html = client.get(f"/matches/{match_id}/hands/new").get_data(as_text=True)
    boxes = number_boxes(html)
    assert len(boxes) > 20
    for turn, (box_id, name) in enumerate(boxes):
        huge = HUGE[turn % len(HUGE)]
        response = client.post(f"/matches/{match_id}/hands", data={name: huge, "version": "1"})
        body = response.get_data(as_text=True)
        assert response.status_code == 200, name
        message = re.search(rf'id="{re.escape(box_id)}-error">(.*?)</span>', body)
        assert message and "must be a whole number" in message[1], (name, message)
    assert stored(app, match_id).match.hands == ()


def _three():
    from scorepad.documents import Side

    return [Side("Ann"), Side("Bob"), Side("Cy")]


@pytest.mark.parametrize("huge", HUGE, ids=["310 digits", "negative 400 digits", "5001 digits", "10^9 + 1"])
def test_a_huge_number_in_any_new_match_box_is_a_message_on_that_box(app, client, huge):
    html = client.get("/matches/new/classic").get_data(as_text=True)
    boxes = number_boxes(html) + re.findall(r'<input[^>]*id="(start_\d)"[^>]*name="(start_\d)"', html)
    assert {"option_target", "start_0", "start_1"} <= {name for _id, name in boxes}
    for box_id, name in boxes:
        response = client.post("/matches/new/classic", data={"side_0": "We", "side_1": "They", name: huge})
        body = response.get_data(as_text=True)
        assert response.status_code == 200, name
        message = re.search(rf'id="{re.escape(box_id)}-error">(.*?)</span>', body)
        assert message and "must be" in message[1], (name, body[:200])
    assert match_count(app) == 0


@pytest.mark.parametrize("field", ["side", "score", "opt.max_wilds", "opt.canastas_to_go_out", "opt.decks"])
@pytest.mark.parametrize("huge", HUGE)
def test_a_huge_number_on_the_checker_page_is_no_error(client, field, huge):
    data = {"variant": "classic", "house_rules_for": "classic", "op": "add:K", field: huge}
    for url in ("/check", "/check/verdict"):
        assert client.post(url, data=data).status_code == 200


# --- bounded request bodies ---------------------------------------------------------------------
BIG = 2 * 1024 * 1024


def test_an_oversized_api_body_is_a_json_413(client):
    response = client.post("/api/v1/score", data=b"[" + b" " * BIG + b"]", content_type="application/json")
    assert response.status_code == 413
    message = response.get_json()["errors"][0]["message"]
    assert "body is too large" in message and "at most 1 MB" in message and "form" not in message


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded"])
def test_an_api_post_that_is_not_json_is_a_clear_415(client, content_type):
    headers = {"Content-Type": content_type} if content_type else {}
    response = client.post("/api/v1/score", data='{"variant": "classic", "hands": []}', headers=headers)
    assert response.status_code == 415
    assert response.get_json() == {
        "errors": [{"field": "", "message": 'Send the body as JSON, with the header "Content-Type: application/json".'}]
    }
    with_charset = client.post(
        "/api/v1/score", data='{"variant": "classic", "hands": []}', content_type="application/json; charset=utf-8"
    )
    assert with_charset.status_code == 200


def test_an_oversized_form_is_a_413_page_and_stores_nothing(app, client):
    match_id = add_match(app, [])
    response = client.post(f"/matches/{match_id}/hands", data={**HAND, "version": "1", "note": "x" * BIG})
    assert response.status_code == 413
    html = response.get_data(as_text=True)
    assert "<html" in html and "at most 64 KB" in html and "Nothing was saved" in html
    assert stored(app, match_id).match.hands == ()


def test_too_many_form_parts_is_a_413(app, client):
    match_id = add_match(app, [])
    parts = {f"extra{i}": "1" for i in range(1200)}  # (a URL-encoded body is bounded by its size alone)
    response = client.post(f"/matches/{match_id}/hands", **multipart(parts))
    assert response.status_code == 413
    assert stored(app, match_id).match.hands == ()


def multipart(fields, files=()):
    """A multipart body built in memory (the test client would spool a large one to a temp file)."""
    boundary = "scorepad-test-boundary"
    chunks = []
    for name, value in fields.items():
        chunks.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    for name, filename, content in files:
        head = f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
        chunks.append(head.encode() + b"Content-Type: application/json\r\n\r\n" + content + b"\r\n")
    chunks.append(f"--{boundary}--\r\n".encode())
    return {"data": b"".join(chunks), "content_type": f"multipart/form-data; boundary={boundary}"}


def test_an_oversized_form_with_csrf_on_is_a_413_not_a_token_error(secure_app, phone):
    """The body bound applies before the CSRF check reads the form."""
    response = phone.post("/matches/new/classic", data={"title": "x" * BIG})
    assert response.status_code == 413


def test_the_import_keeps_its_larger_allowance(app, client, make_app):
    client.get(f"/matches/{add_match(app, ONE_HAND)}")  # opening its link puts it on this phone's list
    backup = client.get("/export/matches.json").get_data(as_text=True)
    padded = backup.rstrip() + " " * BIG  # valid JSON, larger than any form may be
    other = make_app()
    response = other.test_client().post("/import", **multipart({}, [("file", "b.json", padded.encode())]))
    assert response.status_code == 303
    assert match_count(other) == 1


def test_an_import_beyond_its_allowance_is_a_413_page(client):
    response = client.post("/import", **multipart({}, [("file", "b.json", b" " * (17 * 1024 * 1024))]))
    assert response.status_code == 413
    assert "at most 16 MB" in response.get_data(as_text=True)


def test_api_addresses_and_methods_it_lacks_answer_json(client):
    """Found while routing, before the API blueprint's handlers would apply; the fuzzer found them."""
    missing = client.get("/api/v1/nothing")
    assert missing.status_code == 404 and missing.get_json()["errors"][0]["message"]
    wrong = client.post("/api/v1/matches/0123456789abcdef")
    assert wrong.status_code == 405 and wrong.get_json()["errors"][0]["message"]
    assert "GET" in wrong.headers["Allow"]
    assert "<html" in client.get("/nothing").get_data(as_text=True), "pages stay pages"


# --- each browser's own token on a sheet every browser reads -----------------------------------
def test_each_browsers_sheet_carries_its_own_token(secure_app):
    match_id = add_match(secure_app, ONE_HAND * 2)
    url = f"/matches/{match_id}"
    ours, theirs = secure_app.test_client(), secure_app.test_client()
    our_page, their_page = page(ours, url), page(theirs, url)
    assert token(our_page) != token(their_page)
    # Their token in our browser is refused and nothing is undone; our own is taken.
    refused = ours.post(f"{url}/hands/undo", data={"csrf_token": token(their_page), "version": "3"})
    assert refused.status_code == 303 and "Nothing was changed" in page(ours, url)
    taken = ours.post(f"{url}/hands/undo", data={"csrf_token": token(our_page), "version": "3"})
    assert taken.status_code == 303 and "Hand 2 undone." in page(ours, url)


def test_a_watcher_of_the_kept_sheet_gets_no_session(secure_app, phone):
    match_id = add_match(secure_app, ONE_HAND)
    database = connect(secure_app.config["DATABASE"])
    token_of_match = store.match_head(database, match_id).watch_token
    database.close()
    phone.get(f"/matches/{match_id}")  # the writer's sheet, with forms, is drawn and kept first
    watcher = secure_app.test_client()
    response = watcher.get(f"/watch/{token_of_match}/sheet")  # no form on it: no token, no session
    assert response.status_code == 200 and "csrf_token" not in response.get_data(as_text=True)
    assert not any(value.startswith("scorepad_session=") for value in response.headers.getlist("Set-Cookie"))


def test_a_new_secret_key_starts_a_new_session(secure_app, phone):
    phone.get("/matches/new/classic")  # a session cookie signed with the first key
    secure_app.config["SECRET_KEY"] = "a new key"
    form = phone.get("/matches/new/classic")
    assert session_cookie(form)  # the old cookie no longer reads: a new session under the new key


def test_a_browsers_form_token_stays_its_own(secure_app):
    match_id = add_match(secure_app, ONE_HAND * 2)
    url = f"/matches/{match_id}"
    ours, theirs = secure_app.test_client(), secure_app.test_client()
    first = token(page(ours, url))
    their_token = token(page(theirs, url))
    assert their_token != first
    assert token(page(ours, f"{url}/delete")).split(".")[0] == first.split(".")[0], "one session, one raw token"
    refused = theirs.post(f"{url}/hands/undo", data={"csrf_token": first, "version": "3"})
    assert refused.status_code == 303 and "Nothing was changed" in page(theirs, url)
    taken = ours.post(f"{url}/hands/undo", data={"csrf_token": first, "version": "3"})
    assert taken.status_code == 303 and "Hand 2 undone." in page(ours, url)


def test_a_kept_form_token_follows_the_secret_key(secure_app, phone):
    match_id = add_match(secure_app, ONE_HAND * 2)
    url = f"/matches/{match_id}"
    before = token(page(phone, url))
    secure_app.config["SECRET_KEY"] = "a new key"
    after = token(page(phone, url))  # the old session no longer reads: a new one, a new token
    assert after != before
    taken = phone.post(f"{url}/hands/undo", data={"csrf_token": after, "version": "3"})
    assert taken.status_code == 303 and "Hand 2 undone." in page(phone, url)


def test_with_a_time_limit_each_page_signs_its_token_afresh(make_app, clock):
    app = make_app(**AS_SERVED, WTF_CSRF_TIME_LIMIT=60)
    client = app.test_client()
    url = f"/matches/{add_match(app, ONE_HAND * 2)}"
    first = token(page(client, url))
    clock["seconds"] = 30
    assert token(page(client, url)) != first, "a newer timestamp, so the token lasts its full minute again"


def test_a_session_cookie_changed_by_one_letter_is_a_new_session(secure_app, phone):
    match_id = add_match(secure_app, ONE_HAND * 2)
    url = f"/matches/{match_id}"
    ours = token(page(phone, url))
    # A message changes the session (a new cookie); it is shown once.
    phone.post(f"{url}/hands/undo", data={"csrf_token": ours, "version": "3"})
    assert "Hand 2 undone." in page(phone, url) and "Hand 2 undone." not in page(phone, url)
    value = phone.get_cookie("scorepad_session").value
    phone.set_cookie("scorepad_session", value[:5] + ("A" if value[5] != "A" else "B") + value[6:])
    refused = phone.post(f"{url}/hands/restore", data={"csrf_token": ours, "version": "4"})
    assert refused.status_code == 303 and "Nothing was changed" in page(phone, url)


def test_a_session_cookie_expires(make_app, monkeypatch):
    app = make_app(**AS_SERVED, PERMANENT_SESSION_LIFETIME=60)
    phone = app.test_client()
    url = f"/matches/{add_match(app, ONE_HAND)}"
    first = token(page(phone, url))
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now + 120)  # itsdangerous reads this clock
    later = token(page(phone, url))
    assert later != first, "an expired cookie is a new session"
    refused = phone.post(f"{url}/hands/undo", data={"csrf_token": first, "version": "2"})
    assert refused.status_code == 303 and "Nothing was changed" in page(phone, url)


def unkeyed(html: str) -> str:
    return re.sub(r'(name="submission" type="hidden" value=")[^"]*"', r'\1"', html)


def test_each_browser_gets_the_gzipped_sheet_with_its_own_token(secure_app, monkeypatch):
    # Every token signed at the same second, so one browser's pages are the same page.
    monkeypatch.setattr(itsdangerous.TimestampSigner, "get_timestamp", lambda self: 1_800_000_000)
    url = f"/matches/{add_match(secure_app, ONE_HAND * 2)}"
    browsers = [secure_app.test_client() for _ in range(3)]
    plain = [page(browser, url) for browser in browsers]
    assert len({token(html) for html in plain}) == 3
    for _ in range(2):  # made, then kept
        for browser, html in zip(browsers, plain, strict=True):
            packed = browser.get(url, headers={"Accept-Encoding": "gzip"})
            assert packed.headers["Content-Encoding"] == "gzip"
            # The next hand's form on the sheet carries a fresh submission key each time (issue 29).
            assert unkeyed(gzip.decompress(packed.data).decode()) == unkeyed(html)
