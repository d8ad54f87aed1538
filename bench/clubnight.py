"""A club night of 50 tables on one ``scorepad serve`` process: every request's p99 and no 5xx (issue 23).

Run from the repository root, with the project installed (``pip install -e '.[dev]'``):

    python bench/clubnight.py                  # 150 seconds of a night
    python bench/clubnight.py --duration 30    # a quick look

What it does:

1. Builds a night in a fresh database through the app's own pages (the organiser's forms):
   100 pairs, round 1 seated and started, so 50 tables each play an ordinary match.
2. Starts ``scorepad serve`` on loopback (waitress, as a club runs it) with organiser mode on.
3. For ``--duration`` seconds drives it as the night would:
   - 200 phones, four at each table, poll their table's sheet every 3 s as the sheet page does
     (``?since=<version>``: 204 while nothing changed), and the table's banner (round clock and
     announcements) every 20 s;
   - each table saves a hand through the form every two minutes (the form is loaded first, for
     its token and version, as a phone does), spread evenly over the two minutes;
   - the projector polls the standings every 10 s, and 20 phones watch the standings page;
   - the organiser's dashboard is reloaded every 5 s.
4. Prints, for each kind of request, how many were made, the median, p99 and worst time, and
   how many answered 5xx. The claim is p99 under 100 ms and no 5xx.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlencode

from scorepad import create_app
from scorepad.db import connect
from scorepad.store import club as clubstore

ROOT = Path(__file__).resolve().parent.parent
PASSPHRASE = "bench-organiser-passphrase"
TABLES = 50
PHONES_PER_TABLE = 4
STANDINGS_PHONES = 20
SHEET_EVERY, BANNER_EVERY, STANDINGS_EVERY, DASHBOARD_EVERY, SAVE_EVERY = 3.0, 20.0, 10.0, 5.0, 120.0
# A hand that keeps every match far from the target: each side melds 50 and holds 45.
HAND = {"sides-0-melded_points": "50", "sides-0-hand_points": "45",
        "sides-1-melded_points": "50", "sides-1-hand_points": "45"}  # fmt: skip
NIGHT = {
    "name": "Bench night", "date": "2026-11-26", "variant": "classic", "rounds": "3",
    "round_length": "minutes", "length_value": "50", "warning": "10", "at_time": "finish_hand",
    "first_round": "as_entered", "movement": "mitchell", "scoring": "victory_points",
    "victory_points": "100: 10\n300: 11\n500: 12\n750: 13\n1000: 14\n1300: 15\n1600: 16\n2000: 17\n2500: 18\n3000: 19",
    "bye_score": "12", "no_show_margin": "1500", "tie_break_1": "matches_won", "tie_break_2": "point_balance",
    "tie_break_3": "head_to_head", "tie_break_4": "", "season_points": "placement", "season_best": "8",
}  # fmt: skip


def build_night(database: Path) -> tuple[str, str, list[str], list[str]]:
    """The night through the organiser's pages: returns its id, standings token and the tables' match ids."""
    app = create_app({"TESTING": True, "DATABASE": str(database), "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False,
                      "ORGANISER_PASSPHRASE": PASSPHRASE})  # fmt: skip
    client = app.test_client()
    client.post("/organiser", data={"passphrase": PASSPHRASE})
    event_id = client.post("/nights/new", data=NIGHT).headers["Location"].rsplit("/", 1)[1]
    for number in range(TABLES * 2):
        client.post(f"/nights/{event_id}/entrants", data={"name": f"Pair {number + 1}"})
    client.post(f"/nights/{event_id}/rounds")
    client.post(f"/nights/{event_id}/rounds/1/start")
    db = connect(str(database))
    try:
        event = clubstore.get_event(db, event_id)
        (first,) = clubstore.rounds(db, event_id)
        cards = clubstore.cards(db, event_id)
    finally:
        db.close()
    matches = [table.match_id for table in first.tables]
    assert len(matches) == TABLES and all(matches)
    return event_id, event.standings_token, matches, [cards[n] for n in range(1, TABLES + 1)]


class Phone:
    """One keep-alive connection with its cookies, timing every request by kind."""

    def __init__(self, port: int, timings: dict[str, list[float]], errors: dict[str, int]) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookies: dict[str, str] = {}
        self.timings, self.errors = timings, errors

    def request(self, kind: str, method: str, path: str, form: dict[str, str] | None = None) -> tuple[int, str]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        started = time.perf_counter()
        try:
            response, text = self._send(method, path, body, headers)
        except (OSError, http.client.HTTPException):
            self.connection.close()
            self.errors[kind] += 1
            return 599, ""
        self.timings[kind].append(time.perf_counter() - started)
        for header in response.headers.get_all("Set-Cookie") or ():
            name, _, value = header.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value
        if response.status >= 500:
            self.errors[kind] += 1
        return response.status, text

    def _send(self, method: str, path: str, body: str | None, headers: dict[str, str]):
        """One request; a kept connection the server has closed meanwhile is opened again, as a browser does."""
        for attempt in (1, 2):
            try:
                self.connection.request(method, path, body=body, headers=headers)
                response = self.connection.getresponse()
                return response, response.read().decode()
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.connection.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


def every(seconds: float, until: float, action, offset: float = 0.0) -> None:
    """Run ``action`` every ``seconds`` (after ``offset``) until the deadline."""
    next_time = time.monotonic() + offset
    while next_time < until:
        time.sleep(max(0.0, next_time - time.monotonic()))
        action()
        next_time += seconds


def sheet_poller(phone: Phone, match_id: str, card: str, until: float, offset: float) -> None:
    version = {"v": 1}

    def poll() -> None:
        status, text = phone.request("sheet poll", "GET", f"/matches/{match_id}/sheet?since={version['v']}")
        if status == 200:
            found = re.search(r'data-version="(\d+)"', text)
            version["v"] = int(found[1]) if found else version["v"]

    banner_due = {"t": time.monotonic() + offset + random.uniform(0, BANNER_EVERY)}

    def tick() -> None:
        poll()
        if time.monotonic() >= banner_due["t"]:
            phone.request("table banner", "GET", f"/tables/{card}/banner")
            banner_due["t"] += BANNER_EVERY

    every(SHEET_EVERY, until, tick, offset)


def saver(phone: Phone, match_id: str, until: float, offset: float) -> None:
    def save() -> None:
        status, page = phone.request("hand form", "GET", f"/matches/{match_id}/hands/new")
        fields = dict(re.findall(r'name="(csrf_token|version|submission)"[^>]*value="([^"]*)"', page))
        status, _ = phone.request("save hand", "POST", f"/matches/{match_id}/hands", {**fields, **HAND})
        if status not in (303, 200):
            phone.errors["save hand"] += 1

    every(SAVE_EVERY, until, save, offset)


def organiser(phone: Phone, event_id: str, until: float) -> None:
    _, page = phone.request("sign in", "GET", "/organiser")
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"|name="csrf_token" value="([^"]+)"', page)
    phone.request("sign in", "POST", "/organiser", {"csrf_token": token[1] or token[2], "passphrase": PASSPHRASE})
    every(DASHBOARD_EVERY, until, lambda: phone.request("dashboard", "GET", f"/nights/{event_id}"))


@contextmanager
def serving(database: Path, port: int):
    env = {**os.environ, "FLASK_ORGANISER_PASSPHRASE": PASSPHRASE}
    command = [sys.executable, "-m", "scorepad.cli", "serve", "--database", str(database), "--host", "127.0.0.1",
               "--port", str(port)]  # fmt: skip
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/")
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("scorepad serve did not start") from None
                time.sleep(0.2)
        yield
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


def warm_up(port: int, night: tuple[str, str, list[str], list[str]]) -> None:
    """One request of each page before the clock starts, as a server that has been up a while has had:
    Jinja compiles each template on its first use (the measured night then starts warm, not cold)."""
    event_id, token, matches, cards = night
    phone = Phone(port, defaultdict(list), defaultdict(int))
    for path in (
        f"/matches/{matches[0]}",
        f"/matches/{matches[0]}/hands/new",
        f"/tables/{cards[0]}/banner",
        f"/standings/{token}",
        f"/standings/{token}/screen",
        f"/standings/{token}/live",
        "/organiser",
    ):
        phone.request("warm-up", "GET", path)  # fmt: skip


def drive(port: int, night: tuple[str, str, list[str], list[str]], duration: float) -> tuple[dict, dict]:
    event_id, token, matches, cards = night
    warm_up(port, night)
    timings: dict[str, list[float]] = defaultdict(list)
    errors: dict[str, int] = defaultdict(int)
    until = time.monotonic() + duration
    threads = []

    def start(target, *args) -> None:
        threads.append(threading.Thread(target=target, args=(Phone(port, timings, errors), *args), daemon=True))

    for table, (match_id, card) in enumerate(zip(matches, cards, strict=True)):
        for _ in range(PHONES_PER_TABLE):
            start(sheet_poller, match_id, card, until, random.uniform(0, SHEET_EVERY))
        start(saver, match_id, until, table * SAVE_EVERY / TABLES)
    for number in range(STANDINGS_PHONES + 1):
        path = f"/standings/{token}/live" if number else f"/standings/{token}/screen"
        kind = "standings (phones)" if number else "standings screen"
        start(lambda phone, p=path, k=kind: every(STANDINGS_EVERY, until, lambda: phone.request(k, "GET", p),
                                                   random.uniform(0, STANDINGS_EVERY)))  # fmt: skip
    start(organiser, event_id, until)
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return timings, errors


def report(timings: dict[str, list[float]], errors: dict[str, int], duration: float) -> str:
    load = " / ".join(f"{value:.1f}" for value in os.getloadavg())
    lines = [
        f"A night of {TABLES} tables, {TABLES * PHONES_PER_TABLE} phones polling their sheets, {duration:.0f} s "
        f"(`python bench/clubnight.py --duration {duration:.0f}`), the machine's load average at the end "
        f"{load} on {os.cpu_count()} cores:",
        "",
        "| request | count | median ms | p95 ms | p99 ms | worst ms | 5xx or failed |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for kind in sorted(timings):
        times = sorted(timings[kind])
        p95, p99 = (times[min(len(times) - 1, int(len(times) * share))] for share in (0.95, 0.99))
        lines.append(
            f"| {kind} | {len(times)} | {statistics.median(times) * 1000:.1f} | {p95 * 1000:.1f} | {p99 * 1000:.1f} "
            f"| {times[-1] * 1000:.1f} | {errors.get(kind, 0)} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=150.0, help="seconds of the night to play (150)")
    parser.add_argument("--port", type=int, default=0, help="the server's port (a free one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "night.db"
        night = build_night(database)
        port = args.port or free_port()
        with serving(database, port):
            timings, errors = drive(port, night, args.duration)
    print(report(timings, errors, args.duration))


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


if __name__ == "__main__":
    main()
