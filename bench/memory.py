"""Memory under many browsers: does the app's memory stay flat over 50,000 requests?

Every request comes from a browser the app has not seen (no cookies, or the cookies of its own
first request only), with a varied Accept-Language and query string, across the pages a crowd
opens: the start page, score sheets and their polls, a watcher's sheet, a hand, the new-match
and check pages, the match JSON, and small score and check questions. The app runs in this
process (Flask's test client, on a temporary database holding a few matches), so the figures
are the app's own: every ``--every`` requests the garbage is collected and the Python heap
traced by ``tracemalloc`` (``--no-trace`` for speed) and the resident set size (RSS) are printed.

    python bench/memory.py [--requests 50000 --every 5000 --warmup 25000 --where]

Flat means: over the second half of the run (after ``--warmup`` requests) the traced heap grows
by less than ``--bound`` KiB (1 MiB by default, about 40 bytes a request) and the RSS by less
than ``--rss-bound`` KiB (8 MiB). Anything kept per browser, per language header or per query
string without a bound costs at least a hundred bytes a request (a dict entry alone is ~100 B,
a kept page several KiB): 25,000 requests would add 2.4 MiB or more, and it grows on in the
second half as in the first. A cache with a bound fills in the first half, where every kind of
request is sent thousands of times, and then stays put, unless its bound is more browsers than
fill it by then (a cache of 4,096 browsers that only a browser's second request adds to): that
still shows as growth, and ``--where`` names it. The RSS also holds the allocator's free lists
and SQLite's page cache, hence its looser bound.
(``--where``'s two heap snapshots add to the RSS.) Exit status 1 when the curve is not flat.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import random
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

LANGUAGES = ("en", "es", "pt-BR", "de", "de-DE,de;q=0.9,en;q=0.8", "pt-br", "es-AR,es;q=0.9", "fr-CA", "")
HAND = {"entries": [{"melded_points": 620, "canastas": {"natural": 1}, "went_out": True}, {"hand_points": 95}]}
CHECK = {"action": "pickup", "hand": ["K", "K", "Q", "Q", "2C"], "pile": {"top": "K", "size": 12}, "score": 1200}


def seed_matches(database: str, count: int = 6) -> list[tuple[str, str]]:
    """A few matches with hands, imported through the Import page: their (id, watch path)."""
    from scorepad import create_app

    app = create_app({"DATABASE": database, "SECRET_KEY": "memory", "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    matches = []
    for number in range(count):
        match_id = f"{number + 1:032x}"
        document = {
            "format": "scorepad-match",
            "format_version": 1,
            "id": match_id,
            "title": f"Memory {number}",
            "created": "2026-01-02T20:00:00+00:00",
            "variant": "classic",
            "options": {"target": 100000},
            "sides": [{"name": "We", "players": ["Ann"]}, {"name": "They", "players": ["Bob"]}],
            "hands": [HAND] * (10 + 12 * number),  # 70 hands at most: 85,400 of a 100,000 target
        }
        upload = {"file": (io.BytesIO(json.dumps(document).encode()), "match.json")}
        answer = client.post("/import", data=upload, content_type="multipart/form-data")
        assert answer.status_code == 303, answer.text
        share = client.get(f"/matches/{match_id}/share").text
        watch = share.split("/watch/", 1)[1].split('"', 1)[0].split("<", 1)[0] if "/watch/" in share else ""
        matches.append((match_id, f"/watch/{watch}" if watch else f"/matches/{match_id}"))
    return matches


def request_for(rng: random.Random, number: int, matches: list[tuple[str, str]]) -> tuple[str, str, dict[str, Any]]:
    """The ``number``-th request: method, path (with a query string of its own) and options."""
    match_id, watch = rng.choice(matches)
    query = f"?from=browser-{number}" if rng.random() < 0.5 else ""
    choice = number % 12
    if choice == 10:
        return "POST", "/api/v1/score", {"json": {"variant": "classic", "hands": [HAND] * rng.randint(1, 5)}}
    if choice == 11:
        return "POST", "/api/v1/check", {"json": dict(CHECK, score=rng.choice((0, 1500, 3000)))}
    paths = (
        "/",
        f"/matches/{match_id}",
        f"/matches/{match_id}/sheet",
        f"/matches/{match_id}/sheet",
        watch,
        f"/matches/{match_id}/hands/{rng.randint(1, 10)}",
        "/check",
        f"/api/v1/matches/{match_id}",
        "/matches/new/classic",
        "/api/v1/variants",
    )
    return "GET", paths[choice] + query, {}


def language(rng: random.Random, number: int) -> str:
    """An Accept-Language header: mostly the usual ones, one in ten never seen before."""
    if rng.random() < 0.1:
        return f"en-US,en;q=0.9,x-{number};q=0.1"
    return rng.choice(LANGUAGES)


def sample(done: int, started: float, trace: bool) -> dict[str, float]:
    gc.collect()
    with open("/proc/self/statm") as statm:
        rss = int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    point = {
        "requests": done,
        "rss_mib": rss / 2**20,
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "seconds": time.perf_counter() - started,
    }
    if trace:
        current, peak = tracemalloc.get_traced_memory()
        point.update(traced_kib=current / 1024, traced_peak_kib=peak / 1024)
    return point


def run(requests: int, every: int, trace: bool, seed: int, warmup: int, where: bool = False) -> list[dict[str, float]]:
    """Send ``requests`` requests from distinct browsers; the memory every ``every`` of them."""
    from scorepad import create_app

    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        database = str(Path(folder) / "memory.db")
        matches = seed_matches(database)
        gc.collect()
        app = create_app({"DATABASE": database, "SECRET_KEY": "memory"})
        if trace or where:
            tracemalloc.start()
        started = time.perf_counter()
        curve = [sample(0, started, trace)]
        client = None
        snapshots: list[tracemalloc.Snapshot] = []
        for number in range(1, requests + 1):
            if client is None or rng.random() < 0.7:  # most browsers send one request; some a second
                client = app.test_client()
            method, path, options = request_for(rng, number, matches)
            answer = client.open(path, method=method, headers={"Accept-Language": language(rng, number)}, **options)
            if answer.status_code >= 500:
                raise SystemExit(f"{method} {path}: {answer.status_code}")
            answer.close()
            if number % every == 0:
                curve.append(sample(number, started, trace))
                print(_line(curve[-1]), flush=True)
            if where and number in (warmup, requests):
                snapshots.append(tracemalloc.take_snapshot())
        if trace:
            tracemalloc.stop()
        grown(snapshots)
    return curve


def grown(snapshots: list[tracemalloc.Snapshot], top: int = 8) -> None:
    """Where the traced heap grew most from the end of the warm-up to the last request."""
    if len(snapshots) < 2:
        return
    ignore = [tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, __file__)]
    before, after = (snapshot.filter_traces(ignore) for snapshot in snapshots[-2:])
    print("grown most after the warm-up (file:line, KiB, blocks):")
    for stat in after.compare_to(before, "lineno")[:top]:
        frame = stat.traceback[0]
        print(f"  {frame.filename}:{frame.lineno}  {stat.size_diff / 1024:+.0f} KiB  {stat.count_diff:+d}")


def _line(point: dict[str, float]) -> str:
    traced = ""
    if "traced_kib" in point:
        traced = f"  traced {point['traced_kib']:9.0f} KiB (peak {point['traced_peak_kib']:.0f})"
    return (
        f"{int(point['requests']):6d} requests  {point['seconds']:6.0f} s  RSS {point['rss_mib']:6.1f} MiB"
        f" (peak {point['peak_rss_mib']:.1f}){traced}"
    )


def flat(curve: list[dict[str, float]], warmup: int, bound_kib: float, rss_bound_kib: float) -> bool:
    """Print the growth after the warm-up against the bounds; True when it is within them."""
    start = next(point for point in curve if point["requests"] >= warmup)
    end = curve[-1]
    requests = int(end["requests"] - start["requests"])
    rss = (end["rss_mib"] - start["rss_mib"]) * 1024
    span = f"from request {int(start['requests'])} to {int(end['requests'])}"
    print(f"RSS {span}: {rss:+.0f} KiB (bound {rss_bound_kib:.0f})")
    within = rss < rss_bound_kib
    if "traced_kib" in end:
        traced = end["traced_kib"] - start["traced_kib"]
        each = traced * 1024 / max(requests, 1)
        print(f"traced heap {span}: {traced:+.0f} KiB, {each:+.0f} B a request (bound {bound_kib:.0f} KiB)")
        within = within and traced < bound_kib
    print("flat" if within else "NOT flat")
    return within


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=50_000)
    parser.add_argument("--every", type=int, default=5_000)
    parser.add_argument("--warmup", type=int, help="requests before growth counts (default: half of them)")
    parser.add_argument("--bound", type=float, default=1024, help="KiB the traced heap may grow after the warm-up")
    parser.add_argument("--rss-bound", type=float, default=8192, help="KiB the RSS may grow after the warm-up")
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--no-trace", dest="trace", action="store_false", help="RSS only (tracemalloc slows it)")
    parser.add_argument("--where", action="store_true", help="name the lines that grew (the snapshots cost RSS)")
    args = parser.parse_args(argv)
    warmup = min(args.requests, args.requests // 2 if args.warmup is None else args.warmup)
    curve = run(args.requests, args.every, args.trace, args.seed, warmup, args.where)
    return 0 if flat(curve, warmup, args.bound, args.rss_bound) else 1


if __name__ == "__main__":
    sys.exit(main())
