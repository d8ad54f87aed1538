"""Running under a multi-process server: gunicorn workers share one SQLite file and one secret.

A phone's requests land on whichever worker is free, so a match created through one worker
must be read and written through the others, and the CSRF token one worker signed must be
accepted by the rest.
"""

import http.cookiejar
import multiprocessing
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from scorepad import _instance_secret
from scorepad.cli import main as scorepad_command

ROOT = Path(__file__).resolve().parents[1]


def _secret(folder: str, queue) -> None:
    queue.put(_instance_secret(Path(folder)))


def test_processes_starting_together_share_one_secret_key(tmp_path):
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    workers = [context.Process(target=_secret, args=(str(tmp_path), queue)) for _ in range(4)]
    for worker in workers:
        worker.start()
    keys = {queue.get(timeout=60) for _ in workers}
    for worker in workers:
        worker.join(timeout=60)
    assert len(keys) == 1
    assert len(keys.pop()) == 64
    assert [path.name for path in tmp_path.iterdir()] == ["secret_key"]  # no draft left behind


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def gunicorn(tmp_path):
    """scorepad under gunicorn with two worker processes on loopback; yields its base URL."""
    if shutil.which("gunicorn") is None and not (Path(sys.executable).parent / "gunicorn").exists():
        pytest.skip("gunicorn is not installed (pip install -e '.[dev]' installs it)")
    port = _free_port()
    env = {**os.environ, "FLASK_DATABASE": str(tmp_path / "shared.db")}
    env.pop("FLASK_SECRET_KEY", None)
    command = [
        sys.executable, "-m", "gunicorn", "--workers", "2", "--threads", "2",
        "--bind", f"127.0.0.1:{port}", "scorepad:create_app()",
    ]  # fmt: skip
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert process.poll() is None, process.stderr.read().decode()
                assert time.monotonic() < deadline, "gunicorn did not start within a minute"
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=20)
        process.stderr.close()


def _browser():
    """A cookie-keeping client that never reuses a connection, so requests spread over workers."""
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))


def _token(html: str, name: str) -> str:
    return re.search(rf'name="{name}" (?:type="hidden" )?value="([^"]+)"', html)[1]


def test_a_match_kept_through_two_gunicorn_workers(gunicorn, tmp_path, capsys):
    phone = _browser()
    new = phone.open(f"{gunicorn}/matches/new/classic").read().decode()
    form = {
        "csrf_token": _token(new, "csrf_token"),
        "side_0": "We",
        "side_1": "They",
        "option_target": "5000",
        "option_canastas_to_go_out": "1",
        "option_restore_pile_penalty": "0",
    }
    created = phone.open(f"{gunicorn}/matches/new/classic", urllib.parse.urlencode(form).encode())
    sheet_url = created.geturl()
    assert re.search(r"/matches/[0-9a-f]{32}$", sheet_url)
    # Ten hands, each posted with the token of a page that may come from the other worker.
    # Hand: We meld 620 with a natural canasta (500) and go out (100) = 1,220 a hand, They meld
    # 260 and hold 95 = 165 a hand; four hands stay under 5,000 (4,880 and 660).
    for _ in range(4):
        page = phone.open(f"{sheet_url}/hands/new").read().decode()
        hand = {
            "csrf_token": _token(page, "csrf_token"),
            "version": _token(page, "version"),
            "sides-0-melded_points": "620",
            "sides-0-canasta_natural": "1",
            "sides-0-went_out": "y",
            "sides-1-melded_points": "260",
            "sides-1-hand_points": "95",
        }
        saved = phone.open(f"{sheet_url}/hands", urllib.parse.urlencode(hand).encode())
        assert saved.geturl() == sheet_url + "#next-hand"  # the phone lands on the next hand (issue 29)
    for _ in range(4):  # whichever worker answers, the sheet is the same
        sheet = _browser().open(sheet_url).read().decode()
        assert re.findall(r"data-total>(-?[\d,]+)<", sheet)[:2] == ["4,880", "660"]
    # Each worker holds the server lock: a live backup has the four hands, a restore is refused.
    database, copy = str(tmp_path / "shared.db"), str(tmp_path / "copy.db")
    assert scorepad_command(["backup", copy, "--database", database]) == 0
    assert sqlite3.connect(copy).execute("select count(*) from hands").fetchone() == (4,)
    assert scorepad_command(["restore", copy, "--database", database]) == 1
    assert "stop it first" in capsys.readouterr().err
