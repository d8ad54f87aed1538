"""The 100-hand score sheet in-process, beside a bare Flask "hello": where issue 9's time goes.

Run from the repository root, with the project installed (``pip install -e '.[dev]'``):

    python bench/sheet.py              # medians, about half a minute
    python bench/sheet.py --no-fragments   # the same with nothing kept in the markup cache
    python bench/sheet.py --profile b  # then cProfile of one case, busiest functions first

Two ways a client asks for the sheet, both accepting gzip, each timed in turns with the floor
(``bench/floor.py``'s app) through Flask's test client, so a busy moment weighs on all alike:

- ``phone``: keeps its cookies, as a phone at the table does (its browser id, its session);
- ``first visit``: sends no cookie at all, as load tools do, so every request is a new browser
  (a new id and access row, a new session and form token).

It builds no server and runs no load: ``bench/load.py`` measures requests per second under waitress.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
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

GZIP = {"Accept-Encoding": "gzip"}


def cases(folder: Path, budget: int | None = None) -> dict[str, Callable[[], object]]:
    """The floor and the two sheet requests, each ready to call; ``budget`` 0 keeps no markup."""
    database = folder / "sheet.db"
    load.import_into(database, [load.match_pair([load.SMALL_HAND] * 100, 0)])
    config = {"DATABASE": str(database), "SECRET_KEY": "bench", "TESTING": True}
    if budget is not None:
        config["FRAGMENT_BUDGET"] = budget
    app = create_app(config)
    url = f"/matches/{load.match_with(database, 100)}"
    hello, phone, fresh = floor.create_app().test_client(), app.test_client(), app.test_client(use_cookies=False)
    return {
        "hello": lambda: hello.get("/", headers=GZIP),
        "phone": lambda: phone.get(url, headers=GZIP),
        "first visit": lambda: fresh.get(url, headers=GZIP),
    }


def medians(actions: dict[str, Callable[[], object]], rounds: int, batch: int) -> dict[str, float]:
    """Median µs per request of each action, over ``rounds`` batches taken in turns."""
    for action in actions.values():
        for _ in range(batch):
            action()  # warm up: the sheet is drawn and kept, the caches filled
    times: dict[str, list[float]] = {name: [] for name in actions}
    for _ in range(rounds):
        for name, action in actions.items():
            start = time.perf_counter()
            for _ in range(batch):
                action()
            times[name].append((time.perf_counter() - start) / batch * 1e6)
    return {name: statistics.median(values) for name, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--batch", type=int, default=200)
    parser.add_argument("--profile", choices=["phone", "first visit", "a", "b"])
    parser.add_argument("--no-fragments", action="store_true", help="keep nothing in the markup cache")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        actions = cases(Path(folder), 0 if args.no_fragments else None)
        result = medians(actions, args.rounds, args.batch)
        for name, micros in result.items():
            print(f"{name:12s} {micros:7.1f} µs  {micros / result['hello']:4.1f}× hello")
        if args.profile:
            action = actions[{"a": "phone", "b": "first visit"}.get(args.profile, args.profile)]
            profile = cProfile.Profile()
            profile.runcall(lambda: [action() for _ in range(2000)])
            pstats.Stats(profile).sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
