"""The largest import the page takes, racing a phone's saves, against the real server (issue 18).

``scorepad serve`` runs in its own process on a file database. One client uploads a backup at
the Import page's caps (2,000 matches, 10,000 hands in all; before issue 34, 10,000 matches and
16 MB) through the Import page; meanwhile a phone saves hands to its match through the hand
form, and a reader watches the database. Every save must answer 303 within a few seconds
(before, the import held the write lock for 40-65 s and a save got a 500), some of them while
the import's matches were being written, and nobody may ever see part of the import: the matches
anyone sees number either one (the phone's) or all of them.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
import urllib.parse

import pytest
from test_fault import Server, form_version, request

from scorepad import canasta, store
from scorepad.db import connect, migrate
from scorepad.documents import ALL_FORMAT, MatchInfo, Side, match_document
from scorepad.formats import WEB_LIMITS
from scorepad.security import UPLOAD_BODY

pytestmark = pytest.mark.slow  # a real server under stress: CI runs it, the quick command does not

MATCHES = WEB_LIMITS.matches  # the most the Import page takes
HANDS_IN_FILE = WEB_LIMITS.all_hands  # and its most hands in all
SLOWEST_SAVE = 5.0  # seconds: "waits at most a few seconds"
# Each small hand scores 5 a side, so a match ends at its 1,000th (5000, Classic's target): the
# phone keeps each match to 500 hands and has matches for an import that takes twenty minutes.
HANDS_PER_MATCH = 500
PHONE_MATCHES = 5
# Each side +5 a hand (50 melded, 45 left in hand): the phone's match never ends.
SMALL_HAND = {"entries": [{"melded_points": 50, "hand_points": 45}, {"melded_points": 50, "hand_points": 45}]}


def hand_form(version: str) -> str:
    fields = {"version": version, "low_melds_confirmed": "1"}  # 50 melded is below 90 from 1500 on: saved anyway
    for side in (0, 1):
        fields |= {f"sides-{side}-melded_points": "50", f"sides-{side}-hand_points": "45"}
    return urllib.parse.urlencode(fields)


def largest_backup() -> bytes:
    """The most matches the page takes, of as many hands each as its cap on hands allows, facts only."""
    match = canasta.score_match("classic", [SMALL_HAND] * (HANDS_IN_FILE // MATCHES))
    sides = (Side("Table 1", ("Ann", "Bob")), Side("Table 2", ("Cy", "Di")))
    template = match_document(match, MatchInfo("x", sides, "2026-01-01T20:00:00+00:00"))
    template["hands"] = [{"entries": hand["entries"]} for hand in template["hands"]]
    for derived in ("totals", "next_minimums", "game_over", "winner"):  # worked out again on import
        del template[derived]
    template = {key: value for key, value in template.items() if value not in ([], {}, None, "")}  # optional
    documents = [template | {"id": store.new_token(), "title": f"Night {number}"} for number in range(MATCHES)]
    raw = json.dumps({"format": ALL_FORMAT, "format_version": 1, "matches": documents}).encode()
    assert len(raw) < UPLOAD_BODY - 1024 and len(documents) * len(template["hands"]) == HANDS_IN_FILE, len(raw)
    return raw


def multipart(raw: bytes) -> tuple[bytes, str]:
    boundary = "scorepad-race-boundary"
    head = f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="backup.json"\r\n\r\n'
    return head.encode() + raw + f"\r\n--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


class Race:
    """What the importer, the phone and the reader saw, and when."""

    def __init__(self, server: Server, match_ids: list[str]) -> None:
        self.server, self.match_ids = server, match_ids
        self.importing = threading.Event()
        self.done = threading.Event()
        self.imported: tuple[int, str] | None = None
        self.saves: list[tuple[int, float, bool]] = []  # status, seconds, import half written meanwhile
        self.seen_counts: set[int] = set()
        self.pending_seen = threading.Event()

    def upload(self, raw: bytes) -> None:
        body, kind = multipart(raw)
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=600)
        try:
            self.importing.set()
            connection.request("POST", "/import", body=body, headers={"Content-Type": kind})
            response = connection.getresponse()
            self.imported = (response.status, response.getheader("Location", ""))
            response.read()
        finally:
            connection.close()
            self.done.set()

    def save(self) -> None:
        connection = self.server.connection()
        try:
            self.importing.wait()
            while not self.done.is_set():
                # A match holds at most a thousand hands: on a slow machine the import outlasts that
                # many saves, so the phone moves on to its next match, as a table starts a new game.
                url = f"/matches/{self.match_ids[len(self.saves) // HANDS_PER_MATCH]}"
                pending_before = self.pending_seen.is_set()
                started = time.monotonic()
                try:
                    status, _, page = request(connection, "GET", f"{url}/hands/new")
                    if status == 200:
                        status, _, _ = request(connection, "POST", f"{url}/hands", hand_form(form_version(page)))
                except (OSError, http.client.HTTPException):  # no answer in 30 s: as bad as a 500
                    status = 0
                    connection.close()
                    connection = self.server.connection()
                during = pending_before and not self.done.is_set()
                self.saves.append((status, time.monotonic() - started, during))
                time.sleep(0.1)  # a phone at the table saves a hand every few minutes, not in a loop
        finally:
            connection.close()

    def watch(self) -> None:
        db = connect(str(self.server.database))
        try:
            while not self.done.is_set():
                self.seen_counts.add(store.count_matches(db))
                if db.execute("select 1 from matches where pending is not null limit 1").fetchone():
                    self.pending_seen.set()
                time.sleep(0.05)
        finally:
            db.close()


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path / "scorepad.db", tmp_path)
    yield running
    running.kill()  # whatever happened, no server outlives the test


def test_saves_go_on_while_the_largest_import_is_written(server):
    migrate(str(server.database))
    db = connect(str(server.database))
    try:
        rules = canasta.rules_for("classic")
        match_ids = [store.create_match(db, rules, [Side("We"), Side("They")]) for _ in range(PHONE_MATCHES)]
    finally:
        db.close()
    raw = largest_backup()
    server.start()
    race = Race(server, match_ids)
    threads = [threading.Thread(target=work) for work in (race.save, race.watch)]
    threads.append(threading.Thread(target=race.upload, args=(raw,)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)
    assert not any(thread.is_alive() for thread in threads)

    assert race.imported == (303, "/import")
    statuses = {status for status, _, _ in race.saves}
    slowest = max(seconds for _, seconds, _ in race.saves)
    during = sum(1 for _, _, meanwhile in race.saves if meanwhile)
    assert statuses == {303} and slowest < SLOWEST_SAVE, (statuses, slowest)
    assert during >= 3, f"only {during} saves while the import's matches were being written"
    assert len(race.saves) <= PHONE_MATCHES * HANDS_PER_MATCH, "the phone ran out of matches"
    assert race.seen_counts <= {PHONE_MATCHES, MATCHES + PHONE_MATCHES}, "part of an import was seen"
    db = connect(str(server.database))
    try:
        assert store.count_matches(db) == MATCHES + PHONE_MATCHES
        assert db.execute("select count(*) from matches where pending is not null").fetchone()[0] == 0
        hands = sum(
            db.execute("select count(*) from hands where match_id = ?", [match_id]).fetchone()[0]
            for match_id in match_ids
        )
    finally:
        db.close()
    assert hands == len(race.saves), "every acknowledged save is stored"
