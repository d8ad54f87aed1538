"""The server's part of offline use: the "You're offline" page, the shell the worker keeps, and
the hand forms' marks that let a page queue them (the queue itself is tested in Chromium)."""

import html
import json
import re
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_matches import add, new_match, totals

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


# --- what a new hand's preview tells the phone's queue (issue #28, item 3) --------------------
# The figures are worked out by hand from docs/rules.md ("Presets", classic; "Scoring a hand"): canastas natural 500,
# mixed 300; going out 100; each red three 100; melded points minus the points left in hand.
# Initial-meld minimum by the total at the start of a hand: below 0, 15; 0-1495, 50;
# 1500-2995, 90; 3000 and up, 120.
WE_OUT = {  # We: natural 500 + going out 100 + 620 melded = 1220; They: 260 melded - 95 in hand = 165
    "sides-0-melded_points": "620",
    "sides-0-canasta_natural": "1",
    "sides-0-went_out": "y",
    "sides-1-melded_points": "260",
    "sides-1-hand_points": "95",
}
THEY_OUT = {  # We: 40 in hand, nothing melded = -40; They: mixed 300 + 2 red threes 200 + out 100 + 150 = 750
    "sides-0-hand_points": "40",
    "sides-1-canasta_mixed": "1",
    "sides-1-red_threes": "2",
    "sides-1-went_out": "y",
    "sides-1-melded_points": "150",
}


def figures(response):
    """The figures a preview carries for the queue, or None."""
    assert response.status_code == 200
    found = re.search(r'data-figures="([^"]*)"', response.get_data(as_text=True))
    return found and json.loads(html.unescape(found[1]))


def test_a_new_hands_preview_carries_its_figures_for_the_queue(client):
    url = new_match(client)
    first = figures(client.post(f"{url}/hands/preview", data=WE_OUT))
    assert first == {
        "hand": 1,
        "before": [0, 0],
        "scores": [1220, 165],
        "totals": [1220, 165],
        "needs": [50, 50],  # 1220 and 165 are both in 0-1495
        "ends": False,
        "text": {"scores": ["1220", "165"], "totals": ["1220", "165"], "needs": ["50", "50"]},
    }
    assert add(client, url, WE_OUT).status_code == 303
    second = figures(client.post(f"{url}/hands/preview", data=WE_OUT))
    assert (second["hand"], second["before"], second["totals"], second["needs"]) == (
        2,
        [1220, 165],
        [2440, 330],
        [90, 50],
    )
    # A correction is not queued behind anything: its preview carries no figures.
    assert figures(client.post(f"{url}/hands/preview?number=1", data=WE_OUT)) is None
    # Nor does a preview that reports a problem.
    assert figures(client.post(f"{url}/hands/preview", data={**WE_OUT, "sides-1-red_threes": "9"})) is None


def test_a_hand_behind_waiting_hands_is_previewed_from_their_totals(client):
    """The phone sends the totals after the hands that wait on it: the core scores the next from them."""
    url = new_match(client)
    # Hands 1 and 2 wait on the phone; their figures put the totals at 2440 / 330.
    behind = figures(client.post(f"{url}/hands/preview", data={**THEY_OUT, "hand": "3", "totals_before": "2440 330"}))
    assert behind["hand"] == 3 and behind["before"] == [2440, 330]
    assert behind["scores"] == [-40, 750]
    assert behind["totals"] == [2400, 1080]
    assert behind["needs"] == [90, 50]  # 2400 in 1500-2995; 1080 in 0-1495
    # From 3010 / 20: 2970 needs 90; 770 needs 50. From 20 / 3000: -20 needs 15; 3750 needs 120.
    assert figures(client.post(f"{url}/hands/preview", data={**THEY_OUT, "hand": "2", "totals_before": "3010 20"}))[
        "needs"
    ] == [90, 50]
    low_high = figures(client.post(f"{url}/hands/preview", data={**THEY_OUT, "hand": "2", "totals_before": "20 3000"}))
    assert (low_high["totals"], low_high["needs"]) == ([-20, 3750], [15, 120])
    # The preview only answers: nothing is stored, and the sheet still starts from 0 / 0.
    assert totals(client, url) == [0, 0]
    assert add(client, url, THEY_OUT).status_code == 303
    assert totals(client, url) == [-40, 750]


def test_a_waiting_hand_that_reaches_the_target_may_end_the_game(client):
    url = new_match(client)
    ending = client.post(f"{url}/hands/preview", data={**WE_OUT, "hand": "5", "totals_before": "3900 2000"})
    found = figures(ending)
    assert found["totals"] == [5120, 2165] and found["ends"] is True  # 3900 + 1220 reaches 5000
    assert "This hand ends the game." in ending.get_data(as_text=True)
    assert (
        figures(client.post(f"{url}/hands/preview", data={**WE_OUT, "hand": "5", "totals_before": "3700 2000"}))["ends"]
        is False
    )  # 4920


@pytest.mark.parametrize(
    "start",
    [
        {"hand": "2"},  # no totals
        {"totals_before": "0 0"},  # no hand
        {"hand": "x", "totals_before": "0 0"},
        {"hand": "2", "totals_before": "0"},  # one total for two sides
        {"hand": "2", "totals_before": "0 0 0"},
        {"hand": "2", "totals_before": "0 zero"},
        {"hand": "2", "totals_before": "1" * 5000 + " 0"},  # longer than Python reads as a number
        {"hand": "2", "totals_before": "2000000000 0"},
        {"hand": "1", "totals_before": "0 0"},  # hand 1 is on the sheet: nothing waits before it
        {"hand": "1002", "totals_before": "0 0"},  # beyond any match's length
    ],
)
def test_a_preview_start_the_page_would_never_send_is_refused(client, start):
    url = new_match(client)
    assert add(client, url, WE_OUT).status_code == 303
    assert client.post(f"{url}/hands/preview", data={**WE_OUT, **start}).status_code == 400


def test_the_sheet_and_a_new_hands_form_say_where_the_server_stands(client):
    """offline.js checks that the first waiting hand's figures start where the server's sheet ends."""
    url = new_match(client)
    assert add(client, url, WE_OUT).status_code == 303
    page = client.get(url).get_data(as_text=True)
    assert re.search(r'data-version="2" data-hands="1"\s+data-totals="\[1220, 165\]"', page)
    form = client.get(f"{url}/hands/new").get_data(as_text=True)
    assert 'data-version="2" data-hands="1" data-totals="[1220, 165]"' in form
    assert 'data-to-open="50"' in form and "<small>to open: 50</small>" in form
    correction = client.get(f"{url}/hands/1/edit").get_data(as_text=True)
    assert "data-totals" not in correction


@settings(max_examples=25, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    hand=st.one_of(st.none(), st.text(max_size=12), st.integers().map(str)),
    start=st.one_of(
        st.none(), st.text(max_size=40), st.lists(st.integers(), max_size=3).map(lambda t: " ".join(map(str, t)))
    ),
)
def test_any_preview_start_is_answered_or_refused_never_an_error(client, hand, start):
    """Whatever a page (or anyone) sends as the start, the preview answers 200 or 400."""
    client.match_url = getattr(client, "match_url", None) or new_match(client)  # one match for every example
    data = dict(WE_OUT)
    if hand is not None:
        data["hand"] = hand
    if start is not None:
        data["totals_before"] = start
    assert client.post(f"{client.match_url}/hands/preview", data=data).status_code in (200, 400)
