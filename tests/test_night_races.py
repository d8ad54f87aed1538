"""Two laptops at the organiser's desk, against a real server: every pair of organiser actions raced.

Issue 30: every organiser action is one transaction checked against the night's version. Each
trial makes a fresh night of six pairs over three rounds (a Mitchell of three tables), brings it
to a state (round 1 seated, or round 1 started), lets both laptops load the dashboard, then fires
one action from each at the same moment with the version their page showed. After each trial:
no 5xx, and the night's rows keep the invariants below, read straight from the database.

``SCOREPAD_RACE_REPEATS`` (default 1) repeats every pair in every state that many times.
"""

from __future__ import annotations

import http.cookiejar
import itertools
import os
import re
import sqlite3
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter

import pytest
from served import Server

PASSPHRASE = "long table long night"
REPEATS = int(os.environ.get("SCOREPAD_RACE_REPEATS", "1"))
SETTINGS = {
    "name": "Race night", "date": "2026-11-26", "variant": "classic", "rounds": "3", "round_length": "minutes",
    "length_value": "50", "warning": "10", "at_time": "finish_hand", "first_round": "as_entered",
    "movement": "mitchell", "scoring": "victory_points",
    "victory_points": "100: 10\n300: 11\n500: 12\n750: 13\n1000: 14\n1300: 15\n1600: 16\n2000: 17\n2500: 18\n3000: 19",
    "bye_score": "12", "no_show_margin": "1500", "tie_break_1": "matches_won", "tie_break_2": "point_balance",
    "tie_break_3": "head_to_head", "tie_break_4": "", "season_points": "placement", "season_best": "8",
}  # fmt: skip
PAIRS = ["Ana & Bo", "Cy & Di", "Ed & Flo", "Gus & Hal", "Ida & Jo", "Kim & Lu"]


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Laptop:
    """One organiser's browser: its own session and CSRF token; answers are (status, body)."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirect()
        )
        page = self.get("/organiser")[1]
        self.token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)[1]
        status, _ = self.post("/organiser", {"passphrase": PASSPHRASE})
        assert status == 303

    def send(self, path: str, data: dict[str, str] | None = None) -> tuple[int, str]:
        body = None if data is None else urllib.parse.urlencode({"csrf_token": self.token, **data}).encode()
        try:
            with self.opener.open(self.base + path, body, timeout=60) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:  # a 303 too (redirects are not followed): its body is its Location
            return error.code, error.headers.get("Location") or error.read().decode()

    def get(self, path: str) -> tuple[int, str]:
        return self.send(path)

    def post(self, path: str, data: dict[str, str]) -> tuple[int, str]:
        return self.send(path, data)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    os.environ["FLASK_ORGANISER_PASSPHRASE"] = PASSPHRASE
    where = tmp_path_factory.mktemp("races")
    try:
        running = Server(where)
        running.database = str(where / "served.db")
    finally:
        del os.environ["FLASK_ORGANISER_PASSPHRASE"]
    yield running
    running.stop()


@pytest.fixture(scope="module")
def laptops(server):
    base = f"http://127.0.0.1:{server.port}"
    return Laptop(base), Laptop(base)


def new_night(laptop: Laptop, started: bool) -> str:
    status, location = laptop.post("/nights/new", SETTINGS)
    assert status == 303
    event_id = location.rsplit("/", 1)[1]
    for name in PAIRS:
        assert laptop.post(f"/nights/{event_id}/entrants", {"name": name, "players": ""})[0] == 303
    assert laptop.post(f"/nights/{event_id}/rounds", {})[0] == 303
    if started:
        assert laptop.post(f"/nights/{event_id}/rounds/1/start", {})[0] == 303
    return event_id


def version(page: str) -> str:
    found = re.search(r'name="night_version" value="(\d+)"', page)
    return found[1] if found else ""


def table_ids(page: str, event_id: str) -> list[str]:
    return re.findall(rf"/nights/{event_id}/tables/(\d+)/no-show", page)


# Each action as a laptop sends it: (path, form) from the night's id, its dashboard, and the laptop's number.
def actions(event_id: str, page: str, who: int) -> dict[str, tuple[str, dict[str, str]]]:
    tables = table_ids(page, event_id) or ["0"]
    return {
        "late pair": (f"/nights/{event_id}/entrants", {"name": f"Late {who}", "players": ""}),
        "same pair": (f"/nights/{event_id}/entrants", {"name": "Same & Pair", "players": ""}),
        "seat": (f"/nights/{event_id}/rounds", {"override": "yes"}),
        "start": (f"/nights/{event_id}/rounds/1/start", {}),
        "start 2": (f"/nights/{event_id}/rounds/2/start", {}),
        "close": (f"/nights/{event_id}/rounds/1/close", {}),
        "withdraw": (f"/nights/{event_id}/entrants/withdraw", {"name": PAIRS[who], "sure": "yes"}),
        "back": (f"/nights/{event_id}/entrants/back", {"name": PAIRS[who]}),
        "no-show": (f"/nights/{event_id}/tables/{tables[0]}/no-show", {"entrant": PAIRS[0]}),
        "swap": (f"/nights/{event_id}/rounds/1/swap", {"first": PAIRS[0], "second": PAIRS[3]}),
        "penalty": (
            f"/nights/{event_id}/adjustments",
            {
                "adjustment-entrant": PAIRS[1],
                "adjustment-round": "1",
                "adjustment-amount": "-1",
                "adjustment-reason": "slow play",
            },
        ),  # fmt: skip
        "correction": (
            f"/nights/{event_id}/corrections",
            {"correction-round": "1", "correction-table": "1", "correction-text": "hand 2", "correction-by": "Di"},
        ),
    }


NAMES = list(actions("x", "", 0))


def check_invariants(path: str, event_id: str, where: str, orphans: set[str]) -> None:
    """Every active entrant seated once in a round not yet started (or on its bye), nobody twice in
    any round, one match at every played table of a started round and none elsewhere, no orphan match."""
    db = sqlite3.connect(path)
    try:
        active = {r[0] for r in db.execute("select name from club_entrants where event_id = ? and withdrawn is null",
                                           [event_id])}  # fmt: skip
        rounds = db.execute("select number, started from club_rounds where event_id = ? order by number", [event_id])
        rounds = rounds.fetchall()
        for number, started in rounds:
            tables = db.execute(
                "select number, north_south, east_west, match_id from club_tables where event_id = ? and round = ?",
                [event_id, number],
            ).fetchall()
            seated = [name for _, ns, ew, _ in tables for name in (ns, ew) if name]
            assert not [n for n, c in Counter(seated).items() if c > 1], f"{where}: round {number} seats twice"
            assert len({t[0] for t in tables}) == len(tables), f"{where}: two tables with one number"
            for table, ns, ew, match_id in tables:
                played = started and ns and ew
                assert bool(match_id) == bool(played), f"{where}: round {number} table {table} match {match_id}"
            if number == rounds[-1][0] and not started:
                assert set(seated) == active, f"{where}: round {number} seats {sorted(seated)}, active {sorted(active)}"
        matches = {r[0] for r in db.execute("select id from matches where deleted is null")}
        held = Counter(r[0] for r in db.execute("select match_id from club_tables where match_id is not null"))
        assert not [m for m, c in held.items() if c > 1], f"{where}: a match at two tables"
        new_orphans = matches - set(held) - orphans
        orphans |= new_orphans  # each told once
        assert not new_orphans, f"{where}: {len(new_orphans)} orphan matches"
    finally:
        db.close()


def race(sends: list[tuple[Laptop, str, dict[str, str]]]) -> list[int]:
    """Post each form from its laptop at the same moment; their statuses."""
    answers = [0] * len(sends)
    gate = threading.Barrier(len(sends))

    def send(index: int) -> None:
        laptop, path, form = sends[index]
        gate.wait()
        answers[index] = laptop.post(path, form)[0]

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(sends))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


PAIRS_OF_ACTIONS = list(itertools.combinations_with_replacement(NAMES, 2))


@pytest.mark.parametrize("started", [False, True], ids=["seated", "started"])
def test_every_pair_of_organiser_actions_raced_keeps_the_night_whole(server, laptops, tmp_path, started):
    a, b = laptops
    database = server.database
    failures: list[str] = []
    orphans: set[str] = set()
    for (first, second), _repeat in itertools.product(PAIRS_OF_ACTIONS, range(REPEATS)):
        event_id = new_night(a, started)
        pages = [laptop.get(f"/nights/{event_id}")[1] for laptop in (a, b)]
        sends = [
            (laptop, *actions(event_id, page, who)[name])
            for who, (laptop, page, name) in enumerate(zip((a, b), pages, (first, second), strict=True))
        ]
        answers = race([(laptop, path, {**form, "night_version": version(page)})
                        for (laptop, path, form), page in zip(sends, pages, strict=True)])  # fmt: skip
        where = f"{first} / {second} ({'started' if started else 'seated'})"
        if any(status >= 500 for status in answers):
            failures.append(f"{where}: {answers}")
        for laptop in (a, b):
            status, _ = laptop.get(f"/nights/{event_id}")
            if status >= 500:
                failures.append(f"{where}: dashboard {status}")
        try:
            check_invariants(database, event_id, where, orphans)
        except AssertionError as error:
            failures.append(str(error).splitlines()[0])
    assert not failures, "\n".join(failures[:20]) + f"\n({len(failures)} in all)"
