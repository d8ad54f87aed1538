"""``scorepad backup`` copies a live database consistently; ``scorepad restore`` puts a copy back
only while no server uses the database."""

import sqlite3

import pytest

from scorepad import canasta, cli, create_app, store
from scorepad.db import connect, migrate
from scorepad.documents import Side


@pytest.fixture
def database(tmp_path, monkeypatch):
    monkeypatch.delenv("FLASK_DATABASE", raising=False)
    path = str(tmp_path / "club.db")
    migrate(path)
    return path


def add_match(path, title):
    db = connect(path)
    try:
        return store.create_match(db, canasta.rules_for("classic"), [Side("We"), Side("They")], title=title)
    finally:
        db.close()


def titles(path):
    db = sqlite3.connect(path)
    try:
        return sorted(row[0] for row in db.execute("select title from matches"))
    finally:
        db.close()


def test_a_backup_of_a_live_database_has_every_commit_and_nothing_half_written(database, tmp_path, capsys):
    add_match(database, "Friday")
    live = connect(database)  # a server's connection: the commit may still sit in the -wal file
    live.execute("begin immediate")
    live.execute("update matches set title = 'half written'")  # a writer in the middle of a save
    copy = tmp_path / "copy.db"
    assert cli.main(["backup", str(copy), "--database", database]) == 0
    live.conn.rollback()
    live.close()
    assert titles(str(copy)) == ["Friday"]
    assert sqlite3.connect(copy).execute("pragma integrity_check").fetchone() == ("ok",)
    assert f"Backed up {database} to {copy}." in capsys.readouterr().err


def test_a_backup_needs_a_database_and_never_overwrites_it_with_itself(database, tmp_path, capsys):
    missing = tmp_path / "typo.db"
    assert cli.main(["backup", str(tmp_path / "c.db"), "--database", str(missing)]) == 1
    assert "no database" in capsys.readouterr().err and not missing.exists()
    assert cli.main(["backup", database, "--database", database]) == 1
    assert "the database itself" in capsys.readouterr().err


def test_restore_puts_the_backup_in_place_and_keeps_the_replaced_database(database, tmp_path, capsys):
    add_match(database, "Before")
    copy = str(tmp_path / "copy.db")
    assert cli.main(["backup", copy, "--database", database]) == 0
    add_match(database, "After the backup")
    assert cli.main(["restore", copy, "--database", database]) == 0
    assert titles(database) == ["Before"]
    assert titles(database + ".before-restore") == ["After the backup", "Before"]
    err = capsys.readouterr().err
    assert f"Restored {copy} to {database}." in err and ".before-restore" in err


def test_a_second_restore_keeps_the_first_ones_copy(database, tmp_path, capsys):
    """The first .before-restore may be the only copy of what was there: never overwritten."""
    add_match(database, "Original")
    copy = str(tmp_path / "copy.db")
    assert cli.main(["backup", copy, "--database", database]) == 0
    add_match(database, "Later")
    assert cli.main(["restore", copy, "--database", database]) == 0  # Original, Later kept aside
    assert cli.main(["restore", copy, "--database", database]) == 0  # Original kept aside again
    assert titles(database + ".before-restore") == ["Later", "Original"]
    assert titles(database + ".before-restore.2") == ["Original"]
    assert f"kept as {database}.before-restore.2" in capsys.readouterr().err


def test_restore_is_refused_while_a_server_uses_the_database(database, tmp_path, monkeypatch, capsys):
    add_match(database, "Live")
    copy = str(tmp_path / "copy.db")
    assert cli.main(["backup", copy, "--database", database]) == 0
    monkeypatch.setenv("FLASK_SECRET_KEY", "t")
    create_app(overrides={"DATABASE": database})  # as `scorepad serve` or a gunicorn worker: holds the lock
    add_match(database, "Played since")
    assert cli.main(["restore", copy, "--database", database]) == 1
    err = capsys.readouterr().err
    assert "stop it first" in err and "nothing was changed" in err
    assert titles(database) == ["Live", "Played since"]


def test_restore_refuses_a_file_that_is_not_a_scorepad_backup(database, tmp_path, capsys):
    add_match(database, "Kept")
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database\n")
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("create table t(x)")
    for file, problem in ((notes, "is not a database"), (other, "not a scorepad database"), (tmp_path / "x", "not")):
        assert cli.main(["restore", str(file), "--database", database]) == 1
        assert problem in capsys.readouterr().err
    assert titles(database) == ["Kept"]


def test_the_secret_key_is_kept_beside_the_database(tmp_path, monkeypatch):
    monkeypatch.delenv("FLASK_SECRET_KEY", raising=False)
    folder = tmp_path / "club"
    folder.mkdir()
    app = create_app(overrides={"DATABASE": str(folder / "scores.db")})
    assert (folder / "secret_key").read_text().strip() == app.config["SECRET_KEY"]


def test_a_database_whose_path_has_uri_characters_is_copied_and_restored(tmp_path, capsys):
    folder = tmp_path / "club #1? 100%"
    folder.mkdir()
    database, copy = str(folder / "scores.db"), str(folder / "copy.db")
    migrate(database)
    add_match(database, "Odd folder")
    assert cli.main(["backup", copy, "--database", database]) == 0
    assert titles(copy) == ["Odd folder"]
    assert cli.main(["restore", copy, "--database", database]) == 0
