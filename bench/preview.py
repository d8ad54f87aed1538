"""The live preview in-process, beside a bare Flask "hello": the request a player's typing makes.

Run from the repository root, with the project installed (``pip install -e '.[dev]'``):

    python bench/preview.py              # medians, about half a minute
    python bench/preview.py --cpu        # the same in this thread's CPU time (a busy shared machine)
    python bench/preview.py --profile preview   # then cProfile of one case, busiest functions first

The preview fires on every pause while a player types a hand (``POST …/hands/preview``, htmx).
Three requests, each timed in turns with the floor (``bench/floor.py``'s app) through Flask's
test client, the phone keeping its cookies (its session, so its form token is the page's):

- ``preview``: an ordinary hand of a 30-hand classic match (points typed for both sides);
- ``counted``: the same hand with cards counted in the counter boxes;
- ``refused``: a hand the rules refuse (too many red threes), so the problems are rendered.

The share of the floor is hello's time ÷ the preview's (issue 33 asks ≥ 10% for ``preview``).
It builds no server and runs no load: ``bench/load.py`` measures requests per second under waitress.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import floor  # noqa: E402
import load  # noqa: E402

from scorepad import create_app  # noqa: E402

HTMX = {"HX-Request": "true", "Accept-Encoding": "gzip"}
ORDINARY = {
    "sides-0-melded_points": "120",
    "sides-0-hand_points": "30",
    "sides-1-melded_points": "90",
    "sides-1-hand_points": "40",
}
COUNTED = {
    "sides-0-melded_joker": "1",
    "sides-0-melded_high": "9",
    "sides-0-hand_low": "2",
    "sides-1-melded_points": "90",
    "sides-1-hand_points": "40",
}
REFUSED = {**ORDINARY, "sides-1-red_threes": "9"}


def cases(folder: Path) -> dict[str, Callable[[], object]]:
    """The floor and the three previews, each ready to call, with a phone's cookies and form token."""
    database = folder / "preview.db"
    load.import_into(database, [load.match_pair(load.CLASSIC_HANDS * 6, 0)])
    app = create_app({"DATABASE": str(database), "SECRET_KEY": "bench", "TESTING": True})
    match_id = load.match_with(database, 30)
    phone = app.test_client()
    page = phone.get(f"/matches/{match_id}").get_data(as_text=True)
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
    hidden = {"csrf_token": token[1]} if token else {}
    version = re.search(r'name="version"[^>]*value="(\d+)"', page)
    hidden["version"] = version[1] if version else "30"
    url = f"/matches/{match_id}/hands/preview"
    hello = floor.create_app().test_client()

    def post(data: dict[str, str]) -> Callable[[], object]:
        body = {**data, **hidden}

        def send() -> object:
            response = phone.post(url, data=body, headers=HTMX)
            assert response.status_code == 200, response.status_code
            return response

        return send

    return {
        "hello": lambda: hello.get("/", headers={"Accept-Encoding": "gzip"}),
        "preview": post(ORDINARY),
        "counted": post(COUNTED),
        "refused": post(REFUSED),
    }


def medians(actions: dict[str, Callable[[], object]], rounds: int, batch: int, clock=time.perf_counter):
    """Median µs per request of each action, over ``rounds`` batches taken in turns (as bench/sheet.py)."""
    for action in actions.values():
        for _ in range(batch):
            action()  # warm up
    times: dict[str, list[float]] = {name: [] for name in actions}
    for _ in range(rounds):
        for name, action in actions.items():
            start = clock()
            for _ in range(batch):
                action()
            times[name].append((clock() - start) / batch * 1e6)
    return {name: statistics.median(values) for name, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--profile", choices=["preview", "counted", "refused"])
    parser.add_argument(
        "--cpu", action="store_true", help="time this thread's CPU, not the wall clock (a machine shared by others)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        actions = cases(Path(folder))
        result = medians(actions, args.rounds, args.batch, time.thread_time if args.cpu else time.perf_counter)
        for name, micros in result.items():
            print(f"{name:8s} {micros:7.1f} µs  {result['hello'] / micros:6.1%} of hello")
        if args.profile:
            profile = cProfile.Profile()
            profile.runcall(lambda: [actions[args.profile]() for _ in range(1000)])
            pstats.Stats(profile).sort_stats("tottime").print_stats(35)


if __name__ == "__main__":
    main()
