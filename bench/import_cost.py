"""What one web import costs: CPU seconds and peak RSS of POST /import through Flask's test client.

    python bench/import_cost.py build FILE [--matches N] [--hands K]
    python bench/import_cost.py run FILE [--profile]

``build`` stores 40 played matches (random classic hands: 1, 1, 1 or 2 each, or ``--hands``
each), exports them as the download does, and copies them under new ids: ``--matches`` of them,
or as many as fit in the Import page's 16 MB. ``run`` imports FILE into a new database in this
process and prints the answer, the CPU time, and the RSS before and at its peak (Linux: the peak
is reset through /proc/self/clear_refs just before), with ``--profile`` the cProfile listing.
Figures: bench/RESULTS.md, "A web import's cost".
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import re
import tempfile
import time

from scorepad import backups, canasta, create_app, store
from scorepad.db import connect
from scorepad.documents import Side
from scorepad.security import UPLOAD_BODY


def random_hand(rnd: random.Random) -> dict:
    winner = rnd.randrange(2)
    entries = []
    for side in range(2):
        canastas = {"natural": rnd.randrange(0, 2), "mixed": rnd.randrange(0, 2)}
        entry = {"melded_points": rnd.randrange(50, 400, 5), "canastas": canastas}
        if side == winner:
            entry["went_out"] = True
            canastas["natural"] = max(1, canastas["natural"])
        else:
            entry["hand_points"] = rnd.randrange(0, 120, 5)
        if rnd.random() < 0.3:
            entry["red_threes"] = rnd.randrange(1, 3)
        entries.append(entry)
    return {"entries": entries}


def build(out: str, matches: int | None, hands: int | None) -> None:
    rnd = random.Random(34)
    folder = tempfile.mkdtemp()
    create_app({"DATABASE": os.path.join(folder, "played.db"), "SECRET_KEY": "bench"})
    db = connect(os.path.join(folder, "played.db"))
    rules = canasta.rules_for("classic")
    for number in range(40):
        sides = [Side("We", ("Ann", "Bob")), Side("They", ("Cy", "Di"))]
        match_id = store.create_match(db, rules, sides, title=f"Night {number}")
        version = 1
        for _ in range(hands or rnd.choice([1, 1, 1, 2])):
            try:
                version = store.add_hand(db, match_id, canasta.Hand.from_dict(random_hand(rnd)), version)
            except canasta.InvalidError:  # the match ended
                break
    document = json.loads(backups.all_matches_json(db).text)
    played, copies, size = document["matches"], [], 200
    while matches is None or len(copies) < matches:
        copy = played[len(copies) % len(played)] | {"id": store.new_token()}
        size += len(json.dumps(copy)) + 2
        if matches is None and size > UPLOAD_BODY - 4096:
            break
        copies.append(copy)
    document["matches"], document["count"] = copies, len(copies)
    raw = json.dumps(document).encode()
    with open(out, "wb") as file:
        file.write(raw)
    print(f"{out}: {len(copies):,} matches, {sum(len(m['hands']) for m in copies):,} hands, {len(raw):,} bytes")


def rss(field: str) -> int:
    with open("/proc/self/status") as status:
        return int(re.search(field + r":\s+(\d+) kB", status.read())[1]) * 1024


def run(path: str, profile: bool) -> None:
    with open(path, "rb") as file:
        raw = file.read()
    folder = tempfile.mkdtemp()
    app = create_app({"DATABASE": os.path.join(folder, "s.db"), "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    boundary = "bench-boundary"
    head = f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="backup.json"\r\n\r\n'
    body = head.encode() + raw + f"\r\n--{boundary}--\r\n".encode()
    client.get("/import")
    before = rss("VmRSS")
    with open("/proc/self/clear_refs", "w") as clear:
        clear.write("5")  # the peak (VmHWM) starts again from the current RSS
    profiler = cProfile.Profile() if profile else None
    started, wall = time.process_time(), time.monotonic()
    if profiler:
        profiler.enable()
    response = client.post("/import", data=body, content_type=f"multipart/form-data; boundary={boundary}")
    if profiler:
        profiler.disable()
    cpu, wall = time.process_time() - started, time.monotonic() - wall
    peak = rss("VmHWM")
    if response.status_code == 303:
        page = client.get("/import").data.decode()
        said = re.search(r'<p class="import-done" role="status">(.*?)</p>', page, re.S)[1].strip()
    else:
        said = " ".join(re.findall(r"<li><code>.*?</code>(.*?)</li>", response.data.decode(), re.S)[:2])
    print(f"{response.status_code}: {said}")
    print(
        f"{len(raw):,} bytes: CPU {cpu:.1f} s, wall {wall:.1f} s; RSS {before / 2**20:.0f} MB before, "
        f"peak {peak / 2**20:.0f} MB (+{(peak - before) / 2**20:.0f} MB)"
    )
    if profiler:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    making = commands.add_parser("build")
    making.add_argument("file")
    making.add_argument("--matches", type=int)
    making.add_argument("--hands", type=int)
    running = commands.add_parser("run")
    running.add_argument("file")
    running.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    if args.command == "build":
        build(args.file, args.matches, args.hands)
    else:
        run(args.file, args.profile)


if __name__ == "__main__":
    main()
