"""A release: its version, its changelog, its declared lower bounds, and the upgrade from the last one."""

import json
import os
import re
import sqlite3
import subprocess
import tomllib
from pathlib import Path

import pytest

from scorepad import cli, create_app
from scorepad.db import connect

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
PROJECT_URLS = PROJECT["urls"]
DATA = Path(__file__).resolve().parent / "data"


def test_the_version_has_its_changelog_entry_at_the_top():
    """``pip install --upgrade`` upgrades only when the version rises: each release names itself."""
    headings = re.findall(r"^## (\S+)", (ROOT / "CHANGELOG.md").read_text(), re.MULTILINE)
    assert headings[0] == PROJECT["version"], "raise the version and the changelog together"
    assert len(headings) == len(set(headings))
    as_numbers = [tuple(int(part) for part in heading.split(".")) for heading in headings]
    assert as_numbers == sorted(as_numbers, reverse=True), "newest first, each above the last"


def test_version_names_the_release(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--version"])
    installed = capsys.readouterr().out.strip()
    # An editable install's metadata is from when it was installed: reinstall after a release.
    assert installed == f"scorepad {PROJECT['version']}", "pip install -e . again after raising the version"


def lower_bounds():
    """Each runtime dependency's name and the lower bound pyproject.toml declares for it."""
    bounds = {}
    for requirement in PROJECT["dependencies"]:
        name, bound = re.fullmatch(r"([A-Za-z0-9_.-]+)>=([0-9.]+)", requirement.split(";")[0].strip()).groups()
        bounds[name.lower()] = bound
    return bounds


def test_ci_installs_every_dependency_at_its_declared_lower_bound():
    """.ci/lower-bounds.txt pins each runtime dependency at its bound; CI runs the quick tests there."""
    pinned = {}
    for line in (ROOT / ".ci" / "lower-bounds.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, version = line.split("==")
            pinned[name.strip().lower()] = version.strip()
    declared = lower_bounds()
    assert pinned.keys() == declared.keys()
    for name, bound in declared.items():
        # "3.1" pins as "3.1.0": the same release.
        assert pinned[name].split(".")[: len(bound.split("."))] == bound.split("."), name
        assert all(part == "0" for part in pinned[name].split(".")[len(bound.split(".")) :]), name


def test_no_dependency_needs_a_compiler_where_it_has_no_wheel():
    """isal has no wheel for 32-bit ARM (a Raspberry Pi 3B+): pip would build it from C there."""
    assert "isal" not in lower_bounds()


# --- the upgrade from the previous release's database ----------------------------------------
def old_database(tmp_path, release="0.1.0"):
    """A database file as ``release`` left it (tests/data/make_old_database.py says how it was made)."""
    path = tmp_path / "scorepad.db"
    with sqlite3.connect(path) as db:
        db.executescript((DATA / f"scorepad-{release}.sql").read_text())
    db.close()
    return path


def applied(path):
    with sqlite3.connect(path) as db:
        names = [row[0] for row in db.execute("SELECT name FROM _sqlite_migrations ORDER BY id")]
    db.close()
    return names


def test_the_fixture_is_the_previous_release_and_older_than_this_one(tmp_path):
    """0.1.0's migrations are a prefix of today's: a later one must be added at the end."""
    fresh = tmp_path / "fresh.db"
    create_app({"DATABASE": str(fresh), "SECRET_KEY": "t"})
    old, now = applied(old_database(tmp_path)), applied(fresh)
    assert old and now[: len(old)] == old


def test_a_server_started_on_the_previous_releases_database_shows_every_hand(tmp_path):
    """README, "Upgrading": stop, install, start. Each hand: We 620 + natural canasta 500 + out 100
    = 1220, They 260 - 95 = 165 (docs/rules.md "Scoring a hand", classic); two hands: 2440 to 330."""
    path = old_database(tmp_path)
    app = create_app({"DATABASE": str(path), "SECRET_KEY": "upgrade-test"})
    db = connect(str(path))
    try:
        [match_id] = [row["id"] for row in db.query("SELECT id FROM matches")]
    finally:
        db.close()
    client = app.test_client()
    document = client.get(f"/api/v1/matches/{match_id}").get_json()
    assert document["totals"] == [2440, 330]
    assert [hand["scores"] for hand in document["hands"]] == [[1220, 165], [1220, 165]]
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "2440" in page.replace(",", "").replace("\u202f", "").replace(".", "") and "Friday" in page
    assert applied(path)[-1] == applied(tmp_path / "scorepad.db")[-1]


def test_restore_brings_a_backup_of_the_previous_release_up_to_date(tmp_path, capsys):
    """README: ``scorepad restore`` brings an older backup up to date; then export shows every hand."""
    (tmp_path / "old").mkdir()
    backup = old_database(tmp_path / "old")
    target = tmp_path / "live.db"
    assert cli.main(["restore", str(backup), "--database", str(target)]) == 0
    assert cli.main(["rescore", "--database", str(target)]) == 0
    assert cli.main(["export", str(tmp_path / "all.json"), "--database", str(target)]) == 0
    [match] = json.loads((tmp_path / "all.json").read_text())["matches"]
    assert len(match["hands"]) == 2 and match["title"] == "Friday"


# --- what a release ships says who made it -----------------------------------------------------
TRANSLATIONS = ROOT / "scorepad" / "translations"


@pytest.mark.parametrize("catalogue", sorted(TRANSLATIONS.rglob("*.po")), ids=lambda path: path.parent.parent.name)
def test_catalogue_headers_keep_no_babel_placeholders(catalogue):
    header = catalogue.read_text().partition("\n\n")[0]
    for placeholder in ("PROJECT", "ORGANIZATION", "FULL NAME", "EMAIL@ADDRESS", "LL@li.org"):
        assert placeholder not in header, placeholder
    assert '"Project-Id-Version: scorepad' in header


def test_the_template_names_the_project_as_docs_translating_extracts_it():
    """The template's translator fields stay Babel's (``pybabel init`` fills them in per language)."""
    header = (TRANSLATIONS / "messages.pot").read_text().partition("\n\n")[0]
    assert '"Project-Id-Version: scorepad' in header and "Report-Msgid-Bugs-To: https://" in header


def test_the_openapi_document_names_its_server_license_and_contact(client):
    document = client.get("/api/v1/openapi.json").get_json()
    assert document["info"]["license"]["identifier"] == PROJECT["license"] == "MIT"
    assert document["info"]["contact"]["url"] == PROJECT_URLS["Issues"]
    assert document["servers"] == [{"url": "/", "description": "this scorepad"}]
    mounted = client.get("/api/v1/openapi.json", base_url="http://localhost/canasta").get_json()
    assert mounted["servers"][0]["url"] == "/canasta"


# The project's rule, API and club-night contracts and its house style are kept outside the
# repository; what a reader needs of them is in docs/ (rules.md, api.md, clubnight.md,
# architecture.md). Nothing here may send a reader to them, by file name or section number; the
# pattern writes the names so that this file does not match it.
OUTSIDE = re.compile(r"\b(?:RULES|API|STYLE|CLUB_NIGHT)(?:\.md\b| ?\u00a7| \d+\.\d+\b)")
NOT_SOURCE = {".git", "__pycache__", ".pytest_cache", ".ruff_cache", ".hypothesis", "build", "dist"}


def repository_files():
    """Every file of the checkout that git keeps or would keep: not what .gitignore leaves out
    (any venv, such as CI's ``.venv-lower``, and generated caches). Outside a git checkout (an
    unpacked source archive), every file but version control, venvs and caches."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    if listed.returncode == 0 and listed.stdout:
        yield from (ROOT / name for name in listed.stdout.decode().split("\0") if name and (ROOT / name).is_file())
        return
    for folder, subfolders, names in os.walk(ROOT):
        subfolders[:] = [
            name
            for name in subfolders
            if name not in NOT_SOURCE and not name.startswith(".venv") and not name.endswith(".egg-info")
        ]
        yield from (Path(folder) / name for name in names)


def test_no_file_names_a_project_file_kept_outside_the_repository():
    """Users and contributors get only the repository: a docstring, comment, test or page that sends
    them to the rules contract by its file name, or to one of its numbered sections, points at nothing."""
    files = set(repository_files())
    assert {ROOT / "README.md", ROOT / "scorepad" / "canasta" / "scoring.py", ROOT / "tests" / "test_match.py"} <= files
    found = []
    for path in sorted(files):
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:  # a compiled catalogue, the previous release's database
            continue
        for number, line in enumerate(text.splitlines(), 1):
            found += [f"{path.relative_to(ROOT)}:{number}: {match}" for match in OUTSIDE.findall(line)]
    assert found == [], f"{len(found)} references to files outside the repository:\n" + "\n".join(found[:40])
