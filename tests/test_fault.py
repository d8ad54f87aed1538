"""The real server killed mid-game: ``kill -9`` during about 1,000 concurrent saves loses nothing.

``scorepad serve`` runs as its own process on loopback, on a file database. Client threads
(phones) each save hands to their own matches over HTTP, as the hand form does: read the form
for the match's version, post the hand, and count it saved only on the 303 back to the sheet.
Half-way through, the server gets SIGKILL. It is started again on the same database, which
must pass ``PRAGMA integrity_check`` and hold every acknowledged hand with what was typed (plus
at most the one hand per match that was in flight, never half of one); the phones then save
the rest, and every match ends with exactly the hands that were sent. A bounded run: about
fifteen seconds on two cores.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

import pytest

PHONES = 8
MATCHES_PER_PHONE = 5
HANDS = 25  # per match: 8 x 5 x 25 = 1,000 saves
KILL_AFTER = 450  # acknowledged saves before the kill
START_SECONDS = 30
LOOPBACK = "127.0.0.1"

pytestmark = pytest.mark.slow  # a real server under stress: CI runs it, the quick command does not


def hand_form(number: int, version: str) -> str:
    """Hand ``number`` of a match; side 1's melded points (5 x number) tell the hands apart."""
    return urllib.parse.urlencode(
        {
            "sides-0-melded_points": "300",
            "sides-0-canasta_natural": "1",
            "sides-0-went_out": "y",
            "sides-1-melded_points": str(5 * number),
            "version": version,
            "low_melds_confirmed": "1",  # side 1 melds below its minimum on purpose: saved anyway
        }
    )


def expected_entries(number: int) -> list[dict]:
    """Hand ``number`` as the API gives its entries back."""
    return [
        {"melded_points": 300, "canastas": {"natural": 1}, "went_out": True},
        {"melded_points": 5 * number},
    ]


class Server:
    """``scorepad serve`` on loopback in its own process, on one database file."""

    def __init__(self, database: Path, logs: Path) -> None:
        self.database = database
        self.logs = logs
        self.process: subprocess.Popen | None = None
        self.port = 0
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        out = self.logs / f"serve-{self.starts}.out"
        environment = {
            **os.environ,
            "FLASK_DATABASE": str(self.database),
            "FLASK_SECRET_KEY": "fault-test",
            "FLASK_WTF_CSRF_ENABLED": "false",  # from_prefixed_env reads it as JSON: False
        }
        with open(out, "w") as stdout, open(self.logs / f"serve-{self.starts}.err", "w") as stderr:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "scorepad.cli", "serve", "--host", LOOPBACK, "--port", "0", "--threads", "8"],
                stdout=stdout,
                stderr=stderr,
                env=environment,
                cwd=Path(__file__).resolve().parents[1],
            )
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline and self.process.poll() is None:
            found = re.search(rf"scorepad is at http://{LOOPBACK}:(\d+)/", out.read_text())
            if found:
                self.port = int(found[1])
                return
            time.sleep(0.05)
        raise AssertionError(f"the server did not start: {(self.logs / f'serve-{self.starts}.err').read_text()}")

    def kill(self) -> None:
        """SIGKILL, as a power cut or the OOM killer would: no clean shutdown at all."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(LOOPBACK, self.port, timeout=30)


def request(connection, method: str, path: str, body: str | None = None) -> tuple[int, str, str]:
    headers = {"Content-Type": "application/x-www-form-urlencoded"} if body is not None else {}
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    return response.status, response.getheader("Location", ""), response.read().decode()


def form_version(html: str) -> str:
    for tag in re.findall(r"<input[^>]*>", html):
        if 'name="version"' in tag:
            return re.search(r'value="(\d+)"', tag)[1]
    raise AssertionError("no version on the hand form")


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path / "scorepad.db", tmp_path)
    yield running
    running.kill()  # whatever happened, no server outlives the test


class Phones:
    """Client threads, each saving hands to its own matches; counts what the server acknowledged."""

    def __init__(self, server: Server, matches: list[str]) -> None:
        self.server = server
        self.matches = matches
        self.lock = threading.Lock()
        self.acknowledged = {match_id: 0 for match_id in matches}
        self.problems: list[str] = []

    def save(self, phone: int, start: dict[str, int]) -> None:
        mine = self.matches[phone::PHONES]
        connection = self.server.connection()
        try:
            for number in range(1, HANDS + 1):
                for match_id in mine:
                    if number <= start[match_id]:
                        continue
                    url = f"/matches/{match_id}"
                    status, _, page = request(connection, "GET", f"{url}/hands/new")
                    if status != 200:
                        self.problems.append(f"hand form {status}")
                        return
                    body = hand_form(number, form_version(page))
                    status, location, page = request(connection, "POST", f"{url}/hands", body)
                    if status != 303 or location != f"{url}#next-hand":  # the phone lands on the next hand
                        self.problems.append(f"save {status} {location} {page[:200]}")
                        return
                    with self.lock:
                        self.acknowledged[match_id] = number
        except (OSError, http.client.HTTPException):
            return  # the server is gone: this phone stops, as a phone would with no answer
        finally:
            connection.close()

    def run(self, start: dict[str, int]) -> list[threading.Thread]:
        threads = [threading.Thread(target=self.save, args=(phone, start)) for phone in range(PHONES)]
        for thread in threads:
            thread.start()
        return threads

    def total(self) -> int:
        with self.lock:
            return sum(self.acknowledged.values())


def stored_hands(server: Server, match_id: str) -> list[list[dict]]:
    """Each hand's entries as the (restarted) server's API gives them."""
    connection = server.connection()
    try:
        status, _, body = request(connection, "GET", f"/api/v1/matches/{match_id}")
    finally:
        connection.close()
    assert status == 200, body
    return [hand["entries"] for hand in json.loads(body)["hands"]]


def create_matches(server: Server, count: int) -> list[str]:
    connection = server.connection()
    made = []
    try:
        for number in range(count):
            form = {
                "side_0": f"We {number}",
                "side_1": "They",
                "option_target": "100000",  # 25 hands never end a match
                "option_canastas_to_go_out": "1",
                "option_restore_pile_penalty": "0",
            }
            status, location, body = request(connection, "POST", "/matches/new/classic", urllib.parse.urlencode(form))
            assert status == 303, body
            made.append(location.rsplit("/", 1)[1])
    finally:
        connection.close()
    return made


def integrity(database: Path) -> str:
    with sqlite3.connect(database) as connection:
        result = connection.execute("PRAGMA integrity_check").fetchone()[0]
    connection.close()
    return result


def test_kill_9_during_concurrent_saves_loses_no_acknowledged_hand(server):
    server.start()
    matches = create_matches(server, PHONES * MATCHES_PER_PHONE)
    phones = Phones(server, matches)
    threads = phones.run({match_id: 0 for match_id in matches})
    deadline = time.monotonic() + 120
    while phones.total() < KILL_AFTER and time.monotonic() < deadline and any(t.is_alive() for t in threads):
        time.sleep(0.01)
    server.kill()
    for thread in threads:
        thread.join(timeout=60)
    assert phones.problems == []
    acknowledged = dict(phones.acknowledged)
    assert KILL_AFTER <= sum(acknowledged.values()) < PHONES * MATCHES_PER_PHONE * HANDS  # killed mid-way

    server.start()  # the same database, after the crash
    assert integrity(server.database) == "ok"
    stored = {}
    for match_id in matches:
        hands = stored_hands(server, match_id)
        saved = acknowledged[match_id]
        # every acknowledged hand, as typed; at most the one in flight beyond it, and whole
        assert saved <= len(hands) <= saved + 1, (match_id, saved, len(hands))
        assert hands == [expected_entries(number) for number in range(1, len(hands) + 1)]
        stored[match_id] = len(hands)

    threads = phones.run(stored)  # the phones reload and save the rest
    for thread in threads:
        thread.join(timeout=120)
    assert phones.problems == []
    for match_id in matches:
        assert stored_hands(server, match_id) == [expected_entries(number) for number in range(1, HANDS + 1)]
    server.kill()
    assert integrity(server.database) == "ok"
