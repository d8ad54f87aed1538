"""Export then import reproduces everything a player sees of a match: the workflow's round trip.

Random matches of every variant (house rules, counted cards, starting totals) are played, then
corrected, undone and put back through the store as the pages do; the match's JSON export is
imported on another server. There the score sheet (with its Undo and Put back offers), each
hand's page with every version of it, the CSV and the JSON are the original's, and importing the
file a second time changes nothing.
"""

import io
import json
import re
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import DEFAULTS
from test_import_roundtrip import matches

from scorepad import canasta, create_app, store
from scorepad.canasta import InvalidError
from scorepad.db import connect

_APPS = []


def servers():
    """Two servers (apps on their own databases), made once: each example plays a match of its own."""
    if not _APPS:
        for name in ("source", "target"):
            folder = tempfile.mkdtemp(prefix=f"scorepad-roundtrip-{name}-")
            config = {"TESTING": True, "DATABASE": f"{folder}/db", "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False}
            _APPS.append(create_app(config))
    return _APPS


@st.composite
def edits(draw, count):
    """What the players did after entering the hands: corrections, undos, put backs."""
    steps = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["correct", "undo", "undo", "put back"]))
        steps.append((kind, draw(st.integers(0, max(count - 1, 0)))))
    return steps


def play(db, variant, sides, starting, title, hands, steps):
    """Create the match and play it as the pages do: every hand added, then the edits; its id."""
    match_id = store.create_match(db, variant, sides, starting, title)
    version = 1
    for hand in hands:
        version = store.add_hand(db, match_id, canasta.Hand.from_dict(hand), version)
    for kind, index in steps:
        played = store.current_version(db, match_id=match_id)
        try:
            if kind == "undo":
                store.undo_last_hand(db, match_id, played)
            elif kind == "put back":
                store.restore_last_hand(db, match_id, played)
            else:
                now = store.load_match(db, match_id)[0].hands
                if now:  # hand (index mod n) takes the entries of another hand of the match
                    number = index % len(now) + 1
                    other = canasta.Hand.from_dict(hands[(index + 1) % len(hands)])
                    store.replace_hand(db, match_id, number, other, played)
        except (InvalidError, store.NotFoundError):
            pass  # refused as the pages refuse it: nothing changed
    return match_id


def seen(client, match_id, hands):
    """Everything a player can see of the match, with what only names this copy (its id, version) left out."""
    pages = [client.get(f"/matches/{match_id}").get_data(as_text=True)]
    pages += [client.get(f"/matches/{match_id}/hands/{n}").get_data(as_text=True) for n in range(1, hands + 1)]
    main = [re.search(r"<main.*</main>", page, re.S).group(0) for page in pages]
    csv = client.get(f"/matches/{match_id}/export.csv").get_data(as_text=True)
    document = json.loads(client.get(f"/matches/{match_id}/export.json").get_data(as_text=True))
    document.pop("id")
    text = "\n".join([*main, csv])
    text = re.sub(r'name="csrf_token" value="[^"]*"', "", text)
    text = re.sub(r'(name="submission" type="hidden" value=")[^"]*', r"\1K", text)  # each form drawn has a fresh key
    text = re.sub(r'(data-version="|since=|name="version" (?:type="hidden" )?value=")\d+', r"\1N", text)
    text = re.sub(r"/watch/[0-9a-f]+", "/watch/W", text)
    return text.replace(match_id, "ID"), document


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), matches())
def test_export_then_import_shows_the_same_match(data, played):
    export_then_import(data, played)


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), matches())
def test_export_then_import_shows_the_same_match_over_many_more_matches(data, played):
    export_then_import(data, played)


def export_then_import(data, played):
    variant, sides, starting, title, hands = played
    steps = data.draw(edits(len(hands)), label="edits")
    source, target = servers()
    db = connect(source.config["DATABASE"])
    try:
        match_id = play(db, variant, sides, starting, title, hands, steps)
        live = len(store.load_match(db, match_id)[0].hands)
    finally:
        db.close()
    here, there = source.test_client(), target.test_client()
    before = seen(here, match_id, live)
    body = here.get(f"/matches/{match_id}/export.json").get_data()
    for _ in range(2):  # the second import finds it already there and changes nothing
        answer = there.post("/import", data={"file": (io.BytesIO(body), "m.json")}, follow_redirects=True)
        assert answer.status_code == 200
        assert seen(there, match_id, live) == before
    assert "Nothing new to import" in answer.get_data(as_text=True)


def test_an_import_with_broken_undone_hands_or_history_is_refused_naming_the_place(client):
    played = client.post(
        "/matches/new/classic",
        data={"side_0": "We", "side_1": "They", **DEFAULTS},
    )
    match_id = played.headers["Location"].rsplit("/", 1)[-1]
    form = {"sides-0-melded_points": "120", "sides-1-hand_points": "15", "version": "1"}
    assert client.post(f"/matches/{match_id}/hands", data=form).status_code == 303
    document = json.loads(client.get(f"/matches/{match_id}/export.json").get_data(as_text=True))
    document["id"] = "f" * 32
    broken = [
        ({"undone": "hand 2"}, "undone", "A match's undone hands are a list."),
        ({"undone": [{"entries": [{"red_threes": -1}, {}]}]}, "undone[0].entries[0].red_threes", ""),
        ({"hands": [{**document["hands"][0], "history": {}}]}, "hands[0].history", "A hand's history is a list."),
        (
            {"hands": [{**document["hands"][0], "history": [{"action": "zap", "created": "x", "hand": None}] * 2}]},
            "hands[0].history[0]",
            "Each version of a hand says what was done and when.",
        ),
    ]
    for change, field, message in broken:
        body = json.dumps({**document, **change}).encode()
        answer = client.post("/import", data={"file": (io.BytesIO(body), "m.json")})
        page = answer.get_data(as_text=True)
        assert answer.status_code == 200 and field in page and message in page.replace("&#39;", "'"), field
    assert client.get(f"/matches/{'f' * 32}").status_code == 404  # nothing was imported
