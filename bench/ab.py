"""Two trees of scorepad under waitress side by side with the floor, driven by wrk in one run.

    python bench/ab.py /path/to/other/checkout [--duration 4 --rounds 2]

On a shared machine figures of runs minutes apart differ by a third; this serves the floor
(``bench/floor.py``), the other tree ("a", e.g. a checkout of ``main``) and this one ("b") at
once, each scorepad on its own copy of one database (``bench/load.py``'s throughput database),
and measures ``bench/load.py``'s requests in rounds, the floor and both trees in turn within
each round, the order of a and b alternating. Each share is the mean over rounds of the
request's req/s ÷ that round's floor.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import sys
import tempfile
from contextlib import ExitStack, contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # noqa: E402


@contextmanager
def serving(root: Path, database: Path, port: int):
    """``scorepad serve`` of the tree at ``root`` (its own code first on the path)."""
    command = [sys.executable, "-m", "scorepad.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]
    env = {"FLASK_DATABASE": str(database), "FLASK_SECRET_KEY": "bench", "PYTHONPATH": str(root)}
    with load.running(command, port, env=env, cwd=root) as url:
        yield url


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("other", type=Path, help="the other tree (a), e.g. a checkout of main")
    parser.add_argument("--duration", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    from scorepad import create_app

    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        paths = load.build_databases(folder, 50)
        serve = paths["serve"]
        app = create_app({"DATABASE": str(serve), "SECRET_KEY": "bench", "TESTING": True})
        client = app.test_client()
        long_id = load.match_with(serve, 100)
        token = load._rows(serve, "select watch_token from matches where id = ?", [long_id])[0]["watch_token"]
        watch_page = client.get(f"/watch/{token}").get_data(as_text=True)
        poll = re.search(r'id="sheet"[^>]*hx-get="([^"]+)"', watch_page)[1].replace("&amp;", "&")
        poll_headers = {"HX-Request": "true"}
        phone = {"Cookie": load.phone_cookies(client, f"/matches/{long_id}")}
        json_headers = {"Content-Type": "application/json"}
        requests = [
            ("POST /api/v1/score, a 30-hand classic match", "POST", "/api/v1/score",
             json.dumps({"variant": "classic", "hands": load.CLASSIC_HANDS * 6}), json_headers),
            ("the score sheet of a 100-hand match", "GET", f"/matches/{long_id}", None, phone),
            ("the same sheet, first visit (no cookies)", "GET", f"/matches/{long_id}", None, {}),
            ("a watcher's poll of an unchanged sheet", "GET", poll, None, poll_headers),
            ("POST /api/v1/check, a pickup with `how`", "POST", "/api/v1/check",
             json.dumps(load.PICKUP_CHECK), json_headers),
        ]  # fmt: skip
        copies = {"a": folder / "a.db", "b": folder / "b.db"}
        for copy in copies.values():
            shutil.copy(serve, copy)
        roots = {"a": args.other.resolve(), "b": load.ROOT}
        shares: dict[tuple[str, str], list[float]] = {}
        floors: list[float] = []
        with ExitStack() as stack:
            floor_port = load.free_port()
            floor = stack.enter_context(load.running(load.commands("waitress", floor_port, 0)[0], floor_port))
            served = {
                tree: stack.enter_context(serving(roots[tree], copies[tree], load.free_port())) for tree in ("a", "b")
            }
            for url in (floor + "/", served["a"] + "/api/v1/variants", served["b"] + "/api/v1/variants"):
                load.requests_per_second(url, folder, 2)
            for turn in range(args.rounds):
                rate = load.requests_per_second(floor + "/", folder, args.duration)
                floors.append(rate)
                order = ("a", "b") if turn % 2 == 0 else ("b", "a")
                for label, method, path, body, headers in requests:
                    for tree in order:
                        url = served[tree] + path
                        got = load.requests_per_second(url, folder, args.duration, method, body, headers)
                        shares.setdefault((label, tree), []).append(got / rate)
        print(f"floor (bench/floor.py under waitress), runs: {', '.join(f'{f:,.0f}' for f in floors)} req/s")
        print("| request | a | b |")
        print("|---|---:|---:|")
        for label, *_rest in requests:
            a, b = (statistics.mean(shares[(label, tree)]) for tree in ("a", "b"))
            print(f"| {label} | {a:.0%} | {b:.0%} |")


if __name__ == "__main__":
    main()
