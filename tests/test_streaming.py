"""Downloads of every match are written as they are read: memory is a batch, not the file (issue 34).

On ``main`` before this, 2,000 matches of 20 hands exported 36 MB with a 404 MB peak in
process, and one ``/export/matches.json`` of 9,200 matches raised a real server from 141 MB to
2,084 MB. The streamed file is the same bytes as the whole one, and imports back.
"""

import csv
import gc
import io
import json
import re
import threading
import time
import tracemalloc
from pathlib import Path

import pytest
from support import add_match

from scorepad import backups, documents, formats, store
from scorepad.db import connect
from scorepad.formats.streaming import Streamed, batched, json_file, json_pieces

PASSPHRASE = "count the canastas"
# docs/rules.md: We 620 + natural canasta 500 + going out 100 = 1,220; They 260 - 95 in hand = 165.
HAND = {
    "entries": [
        {"melded_points": 620, "canastas": {"natural": 1}, "went_out": True},
        {"melded_points": 260, "hand_points": 95},
    ]
}
# Two hands of 650 to 500: nobody out, no bonus. We 1,300, They 1,000 after both.
PLAIN = {"entries": [{"melded_points": 650}, {"melded_points": 500}]}
# A long match's hand: 19 of them and one HAND leave We at 19 x 120 + 1,220 = 3,500, short of 5,000.
SMALL = {"entries": [{"melded_points": 120}, {"melded_points": 90}]}


def copy_match(database: str, match_id: str, copies: int) -> None:
    """Store ``copies`` more copies of a stored match under new ids, rows copied in SQL (fast)."""
    db = connect(database)
    try:
        with store.writing(db):
            tables = ("match_summaries", "side_figures", "match_players", "access")
            columns = {name: [c for c in db.table(name).columns_dict if c not in ("id", "match_id")] for name in tables}
            hand_columns = [c for c in db.table("hands").columns_dict if c not in ("id", "match_id")]
            figure_columns = [c for c in db.table("hand_figures").columns_dict if c not in ("hand_id", "match_id")]
            match_columns = [c for c in db.table("matches").columns_dict if c not in ("id", "watch_token")]
            hands = db.execute("select id from hands where match_id = ? order by id", [match_id]).fetchall()
            for _ in range(copies):
                new = store.new_token()
                listed = ", ".join(match_columns)
                db.execute(
                    f"insert into matches (id, watch_token, {listed}) select ?, ?, {listed} from matches where id = ?",
                    [new, store.new_token(), match_id],
                )
                for name in tables:
                    listed = ", ".join(columns[name])
                    db.execute(
                        f"insert into {name} (match_id, {listed}) select ?, {listed} from {name} where match_id = ?",
                        [new, match_id],
                    )
                for (hand_id,) in hands:
                    listed = ", ".join(hand_columns)
                    cursor = db.execute(
                        f"insert into hands (match_id, {listed}) select ?, {listed} from hands where id = ?",
                        [new, hand_id],
                    )
                    listed = ", ".join(figure_columns)
                    db.execute(
                        f"insert into hand_figures (hand_id, match_id, {listed}) "
                        f"select ?, ?, {listed} from hand_figures where hand_id = ?",
                        [cursor.lastrowid, new, hand_id],
                    )
    finally:
        db.close()


def club(app, matches: int = 2_000, hands: int = 20) -> str:
    """``matches`` matches of ``hands`` hands each (the first stored the way the pages store it)."""
    first = add_match(app, [SMALL] * (hands - 1) + [HAND])
    copy_match(app.config["DATABASE"], first, matches - 1)
    return first


@pytest.fixture
def organiser(app):
    app.config["ORGANISER_PASSPHRASE"] = PASSPHRASE
    client = app.test_client()
    assert client.post("/organiser", data={"passphrase": PASSPHRASE}).status_code == 303
    return client


# --- the mechanism -------------------------------------------------------------------------


def test_a_streamed_document_is_the_same_text_as_the_whole_one():
    nested = {"a": [1, {"b": "ñ\n\u2028"}], "c": {"d": Streamed(iter([]))}, "e": Streamed(iter([{}, [], "x"]))}
    whole = {"a": [1, {"b": "ñ\n\u2028"}], "c": {"d": []}, "e": [{}, [], "x"]}
    text = "".join(json_pieces(nested))  # a Streamed list is read once
    assert text == json_file(whole) and json.loads(text) == whole


def test_pieces_are_batched_and_nothing_is_lost():
    pieces = [str(n % 10) * 7 for n in range(1000)]
    batches = list(batched(pieces, size=100))
    assert "".join(batches) == "".join(pieces)
    assert all(100 <= len(batch) < 107 for batch in batches[:-1])  # one piece past the size at most


def test_the_streamed_backup_is_the_whole_backup_and_imports_back(app, tmp_path):
    first = add_match(app, [PLAIN, HAND], title="Friday")
    add_match(app, [PLAIN], title="Saturday")
    db = connect(app.config["DATABASE"])
    try:
        stamp = "2025-03-01T12:00:00+00:00"
        streamed = backups.all_matches_json(db, exported=stamp)
        text = "".join(streamed.pieces)
        figured = [documents.figured_document(match) for match in store.figured_matches(db)]
        whole = formats.backup_json(figured, exported=stamp)
        rows = list(csv.DictReader(io.StringIO(backups.all_results_csv(db).text)))
    finally:
        db.close()
    assert text == whole and streamed.count == 2
    document = json.loads(text)
    assert document["count"] == 2 and sorted(m["title"] for m in document["matches"]) == ["Friday", "Saturday"]
    # Friday: We 650 + 1,220 = 1,870; They 500 + 165 = 665.
    assert sorted((r["title"], r["side 1 total"], r["side 2 total"]) for r in rows) == [
        ("Friday", "1870", "665"),
        ("Saturday", "650", "500"),
    ]
    other = tmp_path / "other.db"
    other_db = connect(str(other))
    try:
        from scorepad.db import migrate

        migrate(str(other))
        plan = backups.plan_import(other_db, text)
        assert backups.save_import(other_db, plan) == 2
        assert store.load_match(other_db, first)[0].totals == (1870, 665)
    finally:
        other_db.close()


def test_the_csv_download_says_its_charset_once(app, organiser):
    add_match(app, [PLAIN])
    response = organiser.get("/export/results.csv")
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert response.data.startswith("\ufeff".encode())


def test_a_gzipped_download_is_the_same_file(app, organiser):
    add_match(app, [PLAIN, HAND])
    plain = organiser.get("/export/matches.json").data
    packed = organiser.get("/export/matches.json", headers={"Accept-Encoding": "gzip"})
    import gzip

    assert packed.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed.headers["Vary"]
    # Only the stamp differs between two downloads.
    stamp = re.compile(rb'"exported": "[^"]+"')
    assert stamp.sub(b"", gzip.decompress(packed.data)) == stamp.sub(b"", plain)


# --- the cost -----------------------------------------------------------------------------


@pytest.mark.slow
def test_a_2000_match_download_costs_a_batch_not_the_file(app, organiser):
    """Short matches keep tracemalloc's sevenfold slowdown affordable; the 36 MB file of 2,000
    matches of 20 hands is measured on a real server below (its RSS)."""
    club(app, hands=3)
    downloads = {}
    for path in ("/export/matches.json", "/export/results.csv"):
        gc.collect()
        tracemalloc.start()
        try:
            response = organiser.get(path, buffered=False)
            size, tail = 0, b""
            for piece in response.response:
                size += len(piece)
                tail = (tail + piece)[-200:]
            response.close()
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        downloads[path] = (size, peak, tail)
    size, peak, tail = downloads["/export/matches.json"]
    assert size > 6_000_000, size  # 2,000 matches of 3 hands: some 7 MB (on main: a peak of 10 times that)
    assert peak < 2_000_000, f"peak {peak:,} bytes for a {size:,}-byte file"
    assert tail.endswith(b"\n ]\n}\n")
    size, peak, _ = downloads["/export/results.csv"]
    assert size > 250_000 and peak < 1_000_000, (size, peak)


def test_a_large_download_imports_back(app, organiser, tmp_path):
    club(app, matches=300, hands=2)
    response = organiser.get("/export/matches.json")
    document = json.loads(response.data)  # byte for byte JSON
    assert document["count"] == len(document["matches"]) == 300
    other = str(tmp_path / "other.db")
    from scorepad.cli import main

    path = tmp_path / "export.json"
    path.write_bytes(response.data)
    assert main(["import", str(path), "--database", other]) == 0
    db = connect(other)
    try:
        assert store.count_matches(db) == 300
    finally:
        db.close()


# --- a real server --------------------------------------------------------------------------


def rss(pid: int) -> int:
    """The process's resident memory in bytes."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+) kB", status)[1]) * 1024


@pytest.mark.slow
def test_a_real_servers_memory_stays_flat_while_two_downloads_run(tmp_path, monkeypatch):
    import http.client
    from types import SimpleNamespace

    from served import Server

    from scorepad.db import migrate

    database = str(tmp_path / "served.db")
    migrate(database)
    club(SimpleNamespace(config={"DATABASE": database}))
    monkeypatch.setenv("FLASK_ORGANISER_PASSPHRASE", PASSPHRASE)
    server = Server(tmp_path)
    try:
        response, page = server.request("GET", "/organiser")
        cookie = response.getheader("Set-Cookie").split(";")[0]
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)[1]
        body = f"csrf_token={token}&passphrase={PASSPHRASE.replace(' ', '+')}"
        headers = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}
        response, _ = server.request("POST", "/organiser", headers=headers, body=body)
        assert response.status == 303
        cookie = response.getheader("Set-Cookie").split(";")[0]
        server.request("GET", "/", headers={"Cookie": cookie})  # templates compiled, pieces kept
        before = rss(server.process.pid)
        sizes, peaks = [], []

        def download():
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=300)
            connection.request("GET", "/export/matches.json", headers={"Cookie": cookie})
            answer = connection.getresponse()
            size = 0
            while piece := answer.read(65536):
                size += len(piece)
            connection.close()
            sizes.append((answer.status, size))

        for _ in range(2):  # the first pair warms the threads' allocators up; the second must add nothing
            threads = [threading.Thread(target=download) for _ in range(2)]
            for thread in threads:
                thread.start()
            peak = 0
            while any(thread.is_alive() for thread in threads):
                peak = max(peak, rss(server.process.pid))
                time.sleep(0.05)
            for thread in threads:
                thread.join()
            peaks.append(peak)
    finally:
        server.stop()
    assert [status for status, _ in sizes] == [200] * 4 and min(size for _, size in sizes) > 30_000_000
    size = sizes[0][1]
    # On main two such downloads held both files and their documents: hundreds of MB.
    # 17 MB measured here: threads' allocators and a batch or two in flight per download.
    assert peaks[0] - before < 24_000_000, f"two {size:,}-byte downloads took {peaks[0] - before:,} bytes"
    assert peaks[1] - peaks[0] < 8_000_000, f"flat: the second pair added {peaks[1] - peaks[0]:,} bytes ({peaks})"
