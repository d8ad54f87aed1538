"""An installed scorepad, as a club's volunteer has it: a wheel in a fresh virtual environment, a fresh
data folder, run from a folder that is not the checkout. Every command is run once.

A checkout hides where an installed scorepad keeps its data (both are ``instance/`` here), so only a
wheel outside the checkout shows that every command uses the one data folder.
"""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from scorepad import canasta, store
from scorepad.db import connect, migrate
from scorepad.documents import Side

pytestmark = pytest.mark.slow
CHECKOUT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A fresh venv with the wheel built from this checkout installed (its dependencies from the index)."""
    root = tmp_path_factory.mktemp("installed")
    wheels = root / "wheels"
    build = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(CHECKOUT)]
    subprocess.run(build, check=True, cwd=root, timeout=300)
    [wheel] = wheels.glob("scorepad-*.whl")
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)]
    subprocess.run(pip, check=True, cwd=root, timeout=600)
    return venv, wheel


def run(venv, home, *args, stdin=None, check=True):
    """``scorepad ARGS`` from a folder that is not the checkout, with a fresh data folder."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("FLASK_", "XDG_", "PYTHON"))}
    env |= {"XDG_DATA_HOME": str(home / "data"), "HOME": str(home)}
    done = subprocess.run(
        [str(venv / "bin" / "scorepad"), *args], cwd=home / "elsewhere", env=env, input=stdin,
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    if check:
        assert done.returncode == 0, done.stderr
    return done


def a_backup(tmp_path):
    """A JSON backup with one match, written by the checkout's own export."""
    from scorepad import cli

    database = str(tmp_path / "source.db")
    migrate(database)
    db = connect(database)
    try:
        store.create_match(db, canasta.rules_for("classic"), [Side("We"), Side("They")])
    finally:
        db.close()
    assert cli.main(["export", str(tmp_path / "one.json"), "--database", database]) == 0
    return tmp_path / "one.json"


def test_every_command_of_an_installed_wheel_uses_the_users_data_folder(installed, tmp_path):
    venv, wheel = installed
    home = tmp_path / "home"
    (home / "elsewhere").mkdir(parents=True)
    data = home / "data" / "scorepad"
    database = data / "scorepad.db"
    version = wheel.name.split("-")[1]

    assert run(venv, home, "--version").stdout.strip() == f"scorepad {version}"
    assert not (venv / "var").exists()

    # Nothing there yet: export and rescore say so in one line and create nothing.
    missing = run(venv, home, "export", "out.json", check=False)
    assert missing.returncode == 1 and f"there is no database at {database}" in missing.stderr
    assert not data.exists()

    assert "Imported 1 match" in run(venv, home, "import", str(a_backup(tmp_path))).stderr
    assert database.is_file()
    # The data folder and what is in it are the user's alone (the matches' write links are in it).
    assert data.stat().st_mode & 0o777 == 0o700
    assert database.stat().st_mode & 0o777 == 0o600
    assert (data / "secret_key").stat().st_mode & 0o777 == 0o600

    run(venv, home, "export", "out.json")
    [match] = json.loads((home / "elsewhere" / "out.json").read_text())["matches"]
    assert [side["name"] for side in match["sides"]] == ["We", "They"]
    assert json.loads(run(venv, home, "export", "-").stdout)["matches"] == [match]
    assert run(venv, home, "export", "--format", "csv", "-").stdout.count("\n") == 2
    assert "1 match" in run(venv, home, "rescore").stderr

    run(venv, home, "backup", "copy.db")
    assert (home / "elsewhere" / "copy.db").is_file()
    restored = run(venv, home, "restore", "copy.db")
    assert f"Restored copy.db to {database}" in restored.stderr
    assert Path(str(database) + ".before-restore").is_file()

    served = serve_briefly(venv, home)
    assert f"The database is {database}" in served


def test_an_upgrade_makes_the_data_folder_private(installed, tmp_path):
    """0.1.0 created the database 0644 in a 0755 folder; starting 0.2.0 takes that access away."""
    venv, _ = installed
    home = tmp_path / "home"
    (home / "elsewhere").mkdir(parents=True)
    data = home / "data" / "scorepad"
    data.mkdir(parents=True, mode=0o755)
    data.chmod(0o755)
    assert run(venv, home, "import", str(a_backup(tmp_path))).returncode == 0
    (data / "scorepad.db").chmod(0o644)
    data.chmod(0o755)
    run(venv, home, "rescore")
    assert data.stat().st_mode & 0o777 == 0o700
    assert (data / "scorepad.db").stat().st_mode & 0o777 == 0o600


def serve_briefly(venv, home):
    """Start ``scorepad serve``, fetch the home page, stop it as systemd does (SIGTERM)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {key: value for key, value in os.environ.items() if not key.startswith(("FLASK_", "XDG_", "PYTHON"))}
    env |= {"XDG_DATA_HOME": str(home / "data"), "HOME": str(home)}
    command = [str(venv / "bin" / "scorepad"), "serve", "--host", "127.0.0.1", "--port", str(port)]
    server = subprocess.Popen(
        command, cwd=home / "elsewhere", env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                    assert response.status == 200
                    break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, server.stderr.read()
                time.sleep(0.2)
        server.send_signal(signal.SIGTERM)
        out, err = server.communicate(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert server.returncode == 0, err
    assert "scorepad stopped." in err
    return out


def test_the_wheel_carries_no_checkout_only_files(installed):
    import zipfile

    names = zipfile.ZipFile(installed[1]).namelist()
    assert "scorepad/templates/base.html" in names and "scorepad/static/manifest.webmanifest" in names
    assert not [name for name in names if name.endswith((".po", ".pot"))]
