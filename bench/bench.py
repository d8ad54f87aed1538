"""Benchmark scorepad's hot paths and print a Markdown table (results kept in bench/RESULTS.md).

Run: python bench/bench.py   (takes about half a minute on a 2-core machine)

It measures what a player waits for: scoring a long match in the core, the stateless scoring
API, and the score sheet page of a stored match. Each figure is the median of several runs.
"""

from __future__ import annotations

import json
import platform
import statistics
import tempfile
import time
from pathlib import Path

from scorepad import canasta, create_app

CLASSIC_HAND = {
    "entries": [
        {"melded_points": 420, "canastas": {"natural": 1, "mixed": 1}, "red_threes": 1, "went_out": True},
        {"melded_points": 180, "hand_points": 65, "red_threes": 1},
    ]
}
SMALL_HAND = {"entries": [{"melded_points": 50, "hand_points": 45}, {"melded_points": 50, "hand_points": 40}]}


def median_ms(action, repeat: int = 7, number: int = 1) -> float:
    """Median wall time of ``action`` in milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            action()
        times.append((time.perf_counter() - start) / number * 1000)
    return statistics.median(times)


def long_match(hands: int) -> list[dict]:
    """A match that stays under the target for ``hands`` hands."""
    return [SMALL_HAND] * hands


def main() -> None:
    rows = []
    for count in (10, 100, 500):
        hands = long_match(count)
        ms = median_ms(lambda hands=hands: canasta.score_match("classic", hands).totals, number=3)
        rows.append((f"core: score a {count}-hand classic match", ms))
    ms = median_ms(lambda: canasta.score_match("classic", [CLASSIC_HAND]).totals, number=200)
    rows.append(("core: score one classic hand (validate + score)", ms))

    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "DATABASE": str(Path(folder) / "bench.db"), "SECRET_KEY": "bench"})
        client = app.test_client()
        for count in (10, 100):
            body = json.dumps({"variant": "classic", "hands": long_match(count)})

            def post(body=body):
                response = client.post("/api/v1/score", data=body, content_type="application/json")
                assert response.status_code == 200

            rows.append((f"API: POST /api/v1/score, {count} hands", median_ms(post, number=5)))
        rows.append(("API: GET /api/v1/variants", median_ms(lambda: client.get("/api/v1/variants"), number=20)))
        rows += page_rows(app, client)

    print(f"Python {platform.python_version()} on {platform.machine()}, {platform.system()}")
    print()
    print("| what | median ms |")
    print("|---|---:|")
    for name, ms in rows:
        print(f"| {name} | {ms:.2f} |")


def page_rows(app, client) -> list[tuple[str, float]]:
    """The score sheet and its JSON document for a stored 30-hand match."""
    from scorepad import db, store
    from scorepad.documents import Side

    with app.app_context():
        connection = db.get_db()
        match_id = store.create_match(connection, canasta.rules_for("classic"), (Side("We"), Side("They")))
        version = store.get_match(connection, match_id).version
        for _ in range(30):
            version = store.add_hand(connection, match_id, canasta.Hand.from_dict(SMALL_HAND), version)
    sheet = f"/matches/{match_id}"
    document = f"/api/v1/matches/{match_id}"
    return [
        ("page: score sheet of a 30-hand match", median_ms(lambda: client.get(sheet), number=10)),
        ("API: GET /api/v1/matches/<id>, 30 hands", median_ms(lambda: client.get(document), number=10)),
    ]


if __name__ == "__main__":
    main()
