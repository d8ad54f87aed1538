"""Throughput against a floor, and cost at scale: the figures in bench/RESULTS.md.

Run from the repository root, with the project installed (``pip install -e '.[dev]'``):

    python bench/load.py                      # about 4 minutes on a 2-core machine
    python bench/load.py --duration 3 --matches 500 --out -   # a quick look, printed only

What it does, in one run:

1. Builds the databases through the project's own import (``scorepad import``): one with a
   100-hand match and a 30-hand match, and the "club" databases of 10 and ``--matches`` stored
   matches of 8 hands each.
2. Throughput: starts the floor (``bench/floor.py``, a bare Flask "hello" app) and
   ``scorepad serve`` under the same server and settings on loopback, drives both with
   ``wrk -t2 -c16`` accepting gzip (Debian's ``wrk``; a bounded Python load generator when wrk
   is missing), and reports each request's requests per second as a share of the floor's,
   the floor being measured before and after the app's runs in the same run.
3. Scale: in-process median time (each page timed in turns with its counterpart, so a busy
   moment on a shared machine weighs on both) of the home page, the 100-hand sheet and
   ``GET /api/v1/matches/<id>`` with 10 and with ``--matches`` stored matches, seen by the
   organiser (who sees every match), and the time to save hand 1 and hand 300 of a match
   through the form.

Ratios, not absolute times, are the claims: absolute figures move with the machine.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import partial
from importlib.util import find_spec
from pathlib import Path

from scorepad import canasta, store
from scorepad.cli import build_parser
from scorepad.documents import MatchInfo, Side
from scorepad.formats import all_matches_document

ROOT = Path(__file__).resolve().parent.parent
WRK_THREADS, WRK_CONNECTIONS = 2, 16
REPEAT = 51  # in-process timings: the median of this many, each page timed in turns with its pair
PASSPHRASE = "bench-organiser-passphrase"
# A hand that keeps a match under the target for hundreds of hands (each side +5).
SMALL_HAND = {"entries": [{"melded_points": 50, "hand_points": 45}, {"melded_points": 50, "hand_points": 45}]}
HAND_FORM = {
    "sides-0-melded_points": "50",
    "sides-0-hand_points": "45",
    "sides-1-melded_points": "50",
    "sides-1-hand_points": "45",
}
# Five hands of an ordinary classic game (each side +770 and +295 a round): 30 hands stay under 5000.
ORDINARY = {"entries": [{"melded_points": 120, "hand_points": 30}, {"melded_points": 90, "hand_points": 40}]}
CLOSE = {"entries": [{"melded_points": 75, "hand_points": 55}, {"melded_points": 130, "hand_points": 20}]}
OUT = {
    "entries": [
        {"melded_points": 150, "canastas": {"mixed": 1}, "went_out": True},
        {"melded_points": 60, "hand_points": 85},
    ]
}
CLASSIC_HANDS = [ORDINARY, CLOSE, OUT, ORDINARY, CLOSE]  # fmt: skip
PICKUP_CHECK = {
    "variant": "classic",
    "action": "pickup",
    "hand": ["K", "K", "Q", "Q", "2C", "9", "9", "7H", "5S"],
    "pile": {"top": "K", "size": 12},
    "score": 1200,
}
NAMES = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jo", "Kim", "Lu"]


# --- building databases through the project's own import --------------------------------
def match_pair(hands: list[dict], number: int) -> tuple[canasta.Match, MatchInfo]:
    """A scored match with its info, as the export document carries it."""
    match = canasta.score_match("classic", hands)
    players = (NAMES[number % 12], NAMES[(number + 5) % 12]), (NAMES[(number + 2) % 12], NAMES[(number + 7) % 12])
    sides = (Side(f"Table {number % 40}", players[0]), Side(f"Guests {number % 17}", players[1]))
    return match, MatchInfo(store.new_token(), sides, created=f"2026-{1 + number % 12:02d}-{1 + number % 28:02d}")


def club_hands(number: int) -> list[dict]:
    """Eight hands that differ from match to match, as a club's matches do."""
    return [CLASSIC_HANDS[(number + turn) % len(CLASSIC_HANDS)] for turn in range(8)]


def import_into(database: Path, pairs: list[tuple[canasta.Match, MatchInfo]]) -> None:
    """Write an all-matches backup and bring it in with ``scorepad import``."""
    document = all_matches_document(pairs, exported=datetime.now(UTC).isoformat(timespec="seconds"))
    backup = database.with_suffix(".json")
    backup.write_text(json.dumps(document))
    subprocess.run(
        [sys.executable, "-m", "scorepad.cli", "import", str(backup), "--database", str(database)],
        check=True,
        stderr=subprocess.DEVNULL,
    )
    backup.unlink()


def build_databases(folder: Path, matches: int) -> dict[str, Path]:
    """The throughput database and the two club databases; each gets the 100-hand match."""
    long_match = match_pair([SMALL_HAND] * 100, 0)
    paths = {
        "serve": folder / "serve.db",
        "small": folder / "club-10.db",
        "full": folder / "club-40.db",
        "large": folder / f"club-{matches}.db",
    }
    import_into(paths["serve"], [long_match, match_pair(CLASSIC_HANDS * 6, 1)])
    for name, count in (("small", 10), ("full", 40), ("large", matches)):
        import_into(paths[name], [long_match, *(match_pair(club_hands(n), n) for n in range(1, count))])
    return paths


# --- servers --------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def running(command: list[str], port: int, env: dict[str, str] | None = None, cwd: Path | None = None) -> Iterator[str]:
    """Start a server on loopback (in ``cwd``, this tree by default), wait until it answers, and always stop it."""
    process = subprocess.Popen(
        command,
        cwd=cwd or ROOT,
        env={**os.environ, **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{command[:3]} did not start") from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


# --- load ---------------------------------------------------------------------------------
def lua_script(folder: Path, method: str, body: str | None, headers: dict[str, str]) -> Path:
    """A wrk script that sends one fixed request."""
    lines = [f"wrk.method = {json.dumps(method)}"]
    if body is not None:
        lines.append(f"wrk.body = {json.dumps(body)}")
    lines += [f"wrk.headers[{json.dumps(k)}] = {json.dumps(v)}" for k, v in headers.items()]
    path = folder / f"request-{abs(hash((method, body, tuple(headers.items()))))}.lua"
    path.write_text("\n".join(lines) + "\n")
    return path


def requests_per_second(url: str, folder: Path, duration: int, method="GET", body=None, headers=None) -> float:
    """Requests per second answered 2xx/3xx, by wrk or by the Python fallback."""
    headers = {"Accept-Encoding": "gzip", **(headers or {})}
    if shutil.which("wrk"):
        script = lua_script(folder, method, body, headers)
        command = ["wrk", f"-t{WRK_THREADS}", f"-c{WRK_CONNECTIONS}", f"-d{duration}s", "-s", str(script), url]
        output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        if "Non-2xx or 3xx responses" in output:
            raise RuntimeError(f"{method} {url} answered errors under load:\n{output}")
        return float(re.search(r"Requests/sec:\s+([\d.]+)", output)[1])
    return python_load(url, duration, method, body, headers)


def python_load(url: str, duration: int, method: str, body: str | None, headers: dict[str, str]) -> float:
    """A bounded load generator for machines without wrk: 16 keep-alive connections."""
    host, port, path = re.match(r"http://([^:/]+):(\d+)(.*)", url).groups()
    stop = time.monotonic() + duration
    counts, errors = [0] * WRK_CONNECTIONS, []

    def worker(index: int) -> None:
        connection = http.client.HTTPConnection(host, int(port), timeout=10)
        while time.monotonic() < stop:
            connection.request(method, path or "/", body=body, headers=headers)
            response = connection.getresponse()
            response.read()
            if response.status >= 400:
                errors.append(response.status)
                return
            counts[index] += 1
        connection.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(WRK_CONNECTIONS)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise RuntimeError(f"{method} {url} answered {errors[0]} under load")
    return sum(counts) / (time.monotonic() - started)


def commands(server: str, floor_port: int, app_port: int) -> tuple[list[str], list[str]]:
    """How to start the floor and scorepad under ``server``, with the same settings for both.

    ``waitress`` is ``scorepad serve`` (one process, its default threads); ``gunicorn`` is one
    worker process per core with threads splitting the same total, for machines with more cores.
    """
    if server == "waitress":
        floor = [sys.executable, str(ROOT / "bench" / "floor.py"), "--port", str(floor_port)]
        app = [sys.executable, "-m", "scorepad.cli", "serve", "--host", "127.0.0.1", "--port", str(app_port)]
        return floor, app
    workers = os.cpu_count() or 1
    threads = max(1, build_parser().parse_args(["serve"]).threads // workers)
    base = [sys.executable, "-m", "gunicorn", "--workers", str(workers), "--threads", str(threads)]
    floor = [*base, "--chdir", str(ROOT / "bench"), "--bind", f"127.0.0.1:{floor_port}", "floor:create_app()"]
    app = [*base, "--bind", f"127.0.0.1:{app_port}", "scorepad:create_app()"]
    return floor, app


def throughput(
    paths: dict[str, Path], folder: Path, duration: int, server: str = "waitress"
) -> list[tuple[str, float, float]]:
    """(request, req/s, share of the floor) for each request the issue names, plus the floor."""
    from scorepad import create_app

    app = create_app({"DATABASE": str(paths["serve"]), "SECRET_KEY": "bench", "TESTING": True})
    client = app.test_client()
    long_id = match_with(paths["serve"], 100)
    token = _rows(paths["serve"], "select watch_token from matches where id = ?", [long_id])[0]["watch_token"]
    watch_page = client.get(f"/watch/{token}").get_data(as_text=True)
    poll = re.search(r'id="sheet"[^>]*hx-get="([^"]+)"', watch_page)[1].replace("&amp;", "&")
    first = client.get(poll, headers={"HX-Request": "true"})
    poll_headers = {"HX-Request": "true"}
    if first.headers.get("ETag"):
        poll_headers["If-None-Match"] = first.headers["ETag"]
    phone = {"Cookie": phone_cookies(client, f"/matches/{long_id}")}
    score_body = json.dumps({"variant": "classic", "hands": CLASSIC_HANDS * 6})
    json_headers = {"Content-Type": "application/json"}
    floor_port, app_port = free_port(), free_port()
    env = {"FLASK_DATABASE": str(paths["serve"]), "FLASK_SECRET_KEY": "bench"}
    floor_command, app_command = commands(server, floor_port, app_port)
    with running(floor_command, floor_port) as floor, running(app_command, app_port, env) as served:
        for warm_up in (floor + "/", served + "/api/v1/variants"):  # let workers start and settle; not counted
            requests_per_second(warm_up, folder, 2)
        floors = [requests_per_second(floor + "/", folder, duration)]
        measured = [
            ("POST /api/v1/score, a 30-hand classic match", "POST", "/api/v1/score", score_body, json_headers),
            ("the score sheet of a 100-hand match", "GET", f"/matches/{long_id}", None, phone),
            ("the same sheet, each request a first visit (no cookies)", "GET", f"/matches/{long_id}", None, {}),
            ("a watcher's poll of an unchanged sheet", "GET", poll, None, poll_headers),
            ("POST /api/v1/check, a pickup with the search for `how`", "POST", "/api/v1/check",
             json.dumps(PICKUP_CHECK), json_headers),
        ]  # fmt: skip
        results = [
            (name, requests_per_second(served + path, folder, duration, method, body, headers))
            for name, method, path, body, headers in measured
        ]
        floors.append(requests_per_second(floor + "/", folder, duration))
    floor_rate = statistics.mean(floors)
    rows = [(f"floor: bare Flask 'hello' (runs: {', '.join(f'{f:.0f}' for f in floors)})", floor_rate, 1.0)]
    return rows + [(name, rate, rate / floor_rate) for name, rate in results]


def phone_cookies(client, path: str) -> str:
    """The cookies a phone at the table sends back after its first visit: its browser id and session.

    Only that first visit records the match and makes the browser's form token; the served
    app shares the client's database and secret key, so it accepts both.
    """
    response = client.get(path)
    cookies = dict(re.findall(r"(scorepad_browser|session)=([^;]+)", ";".join(response.headers.getlist("Set-Cookie"))))
    return "; ".join(f"{name}={value}" for name, value in cookies.items())


def _rows(path: Path, sql: str, params=()) -> list[dict]:
    from sqlite_utils import Database

    db = Database(path)
    try:
        return list(db.query(sql, params))
    finally:
        db.close()


def match_with(path: Path, hands: int) -> str:
    """The id of the stored match that has ``hands`` hands."""
    sql = (
        "select m.id from matches m left join hands h on h.match_id = m.id and h.deleted is null "
        "group by m.id having count(h.id) = ?"
    )
    return _rows(path, sql, [hands])[0]["id"]


# --- scale, in-process ----------------------------------------------------------------------
def organiser_client(database: Path):
    """A test client signed in as the organiser, who sees every match."""
    from scorepad import create_app

    config = {"DATABASE": str(database), "SECRET_KEY": "bench", "TESTING": True, "WTF_CSRF_ENABLED": False}
    app = create_app({**config, "ORGANISER_PASSPHRASE": PASSPHRASE})
    client = app.test_client()
    if "organiser" in {rule.endpoint.split(".")[0] for rule in app.url_map.iter_rules()}:
        client.post("/organiser", data={"passphrase": PASSPHRASE})
    return client


def in_turns(actions: dict[str, Callable[[], object]], repeat: int = REPEAT) -> dict[str, float]:
    """Median ms of each action, timed in turns: a moment when the shared machine is busy
    weighs on every action alike instead of on whichever ran then."""
    for action in actions.values():
        action()  # warm up: the first call fills caches
    times: dict[str, list[float]] = {name: [] for name in actions}
    for _ in range(repeat):
        for name, action in actions.items():
            start = time.perf_counter()
            action()
            times[name].append((time.perf_counter() - start) * 1000)
    return {name: statistics.median(values) for name, values in times.items()}


def scale(paths: dict[str, Path]) -> list[tuple[str, float, float, str]]:
    """(page, ms with 10 matches, ms with many, the ratio) for each page the issue names."""
    long_id = _rows(paths["small"], "select id from matches order by created limit 1")[0]["id"]
    clients = {size: organiser_client(paths[size]) for size in ("small", "full", "large")}
    sizes = {}
    for size, client in clients.items():
        home = client.get("/", headers={"Accept-Encoding": "identity"})
        assert home.status_code == 200
        sizes[size] = len(home.data)
    pages = {
        "home page": "/",
        "score sheet, 100 hands": f"/matches/{long_id}",
        "GET /api/v1/matches/<id>": f"/api/v1/matches/{long_id}",
        "stats page (every player's sums)": "/stats",
        "stats, one player's matches (40 stored: 13 lines; 10,000: a page of 30)": f"/stats?player={NAMES[0]}",
    }
    rows = []
    for page, path in pages.items():
        # The full first page (40 stored) is timed in the same turns as the home page.
        measured = ("small", "full", "large") if page == "home page" else ("small", "large")
        if page.startswith("stats, one player"):  # against 40 stored: the nearest to a page of their own
            measured = ("full", "large")
        ms = in_turns({size: partial(clients[size].get, path) for size in measured})
        base = ms.get("small", ms.get("full"))
        rows.append((page, base, ms["large"], f"{ms['large'] / base:.2f}×"))
        if page == "home page":
            home = ms
    rows.append(("home page HTML (bytes)", sizes["small"], sizes["large"], ""))
    # Ten matches fill a third of the first page; forty fill it, as ten thousand do: this row
    # separates what the stored count costs from what drawing more rows costs.
    full, large = home["full"], home["large"]
    rows.append(("home page, 40 stored (a full first page)", full, large, f"{large / full:.2f}×"))
    return rows


def saves(folder: Path) -> tuple[float, float]:
    """Median ms to save hand 1 and hand 300 of a match through the form (CSRF off), in turns."""
    from scorepad import create_app

    database = folder / "saves.db"
    import_into(database, [match_pair([], 0), match_pair([SMALL_HAND] * 299, 1)])
    config = {"DATABASE": str(database), "SECRET_KEY": "bench", "TESTING": True, "WTF_CSRF_ENABLED": False}
    client = create_app(config).test_client()
    matches = {hands: match_with(database, hands) for hands in (0, 299)}
    times: dict[int, list[float]] = {hands: [] for hands in matches}
    for _ in range(REPEAT):
        for hands, match_id in matches.items():
            version = _rows(database, "select version from matches where id = ?", [match_id])[0]["version"]
            start = time.perf_counter()
            response = client.post(f"/matches/{match_id}/hands", data={**HAND_FORM, "version": str(version)})
            times[hands].append((time.perf_counter() - start) * 1000)
            assert response.status_code == 303, response.get_data(as_text=True)[:2000]
            undone = client.post(f"/matches/{match_id}/hands/undo", data={"version": str(version + 1)})
            assert undone.status_code == 303
    return statistics.median(times[0]), statistics.median(times[299])


# --- the report -----------------------------------------------------------------------------
def machine() -> str:
    cores = os.cpu_count()
    wrk = "none (the Python load generator)"
    if shutil.which("wrk"):
        wrk = subprocess.run(["wrk", "--version"], capture_output=True, text=True).stdout.split(" Copyright")[0]
    python = f"Python {platform.python_version()} on {platform.machine()} {platform.system()}"
    return f"{python}, {cores} cores; load: {wrk.strip()}"


def gunicorn_section(args, many) -> list[str]:
    if not many:
        return ["(gunicorn is not installed: the many-cores table was skipped.)", ""]
    return [
        f"## Many cores: gunicorn, {os.cpu_count()} workers",
        "",
        "The same requests and load under `gunicorn --workers <cores> --threads <8 / cores>`, the floor under the "
        "same command. The last column compares with the waitress floor above.",
        "",
        "| request | req/s | share of this floor | share of the waitress floor |",
        "|---|---:|---:|---:|",
        *(f"| {name} | {rate:,.0f} | {share:.0%} | {rate / args.waitress_floor:.0%} |" for name, rate, share in many),
        "",
    ]


def report(args, through, scaled, save_times, many) -> str:
    lines = [
        "## Throughput against the floor",
        "",
        f"`wrk -t{WRK_THREADS} -c{WRK_CONNECTIONS} -d{args.duration}s`, gzip accepted, on loopback; both apps under "
        "waitress as `scorepad serve` runs it. Share = the request's req/s ÷ the floor's (the mean of a floor run "
        "before and one after).",
        "",
        "| request | req/s | share of the floor |",
        "|---|---:|---:|",
        *(f"| {name} | {rate:,.0f} | {share:.0%} |" for name, rate, share in through),
        "",
        *gunicorn_section(args, many),
        f"## Cost at scale (in-process, median of {REPEAT} timed in turns, as the organiser who sees every match)",
        "",
        f"| page | 10 stored matches | {args.matches:,} stored matches ({args.matches * 8:,} hands) | ratio |",
        "|---|---:|---:|---:|",
        *(
            f"| {page} | {small:,.1f} ms | {large:,.1f} ms | {ratio} |"
            if ratio
            else f"| {page} | {small:,} | {large:,} | |"
            for page, small, large, ratio in scaled
        ),
        "",
        f"## Saving a hand through the form (in-process, median of {REPEAT} timed in turns)",
        "",
        "| hand | ms |",
        "|---|---:|",
        f"| hand 1 | {save_times[0]:.2f} |",
        f"| hand 300 | {save_times[1]:.2f} |",
        f"| ratio | {save_times[1] / save_times[0]:.2f}× |",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description="scorepad's load and scale benchmark")
    parser.add_argument("--duration", type=int, default=10, help="seconds per wrk run (default 10)")
    parser.add_argument("--matches", type=int, default=10_000, help="matches in the large database")
    parser.add_argument("--out", default=str(ROOT / "bench" / "RESULTS.md"), help="where to write ('-' prints)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        started = time.monotonic()
        paths = build_databases(folder, args.matches)
        print(f"built databases in {time.monotonic() - started:.0f} s", file=sys.stderr)
        through = throughput(paths, folder, args.duration)
        args.waitress_floor = through[0][1]
        many = throughput(paths, folder, args.duration, "gunicorn") if find_spec("gunicorn") else []
        scaled = scale(paths)
        save_times = saves(folder)
    command = "python bench/load.py"
    if (args.duration, args.matches) != (10, 10_000):
        command += f" --duration {args.duration} --matches {args.matches}"
    header = [
        "# Load and scale benchmark",
        "",
        f"Recorded {datetime.now(UTC).date()} with `{command}` on {machine()}.",
        "",
        "",
    ]
    text = "\n".join(header) + report(args, through, scaled, save_times, many)
    if args.out == "-":
        print(text)
    else:
        Path(args.out).write_text(text + kept_notes(Path(args.out)))
        print(text)


NOTES = "## Reading these figures"


def kept_notes(path: Path) -> str:
    """The hand-written notes at the end of an earlier RESULTS.md (from ``NOTES`` on), kept as they are."""
    earlier = path.read_text() if path.is_file() else ""
    start = earlier.find(NOTES)
    return earlier[start:] if start >= 0 else ""


if __name__ == "__main__":
    main()
