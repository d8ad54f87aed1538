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


# --- a restore never destroys (issue 34) ------------------------------------------------------
# On main before this, `scorepad restore club.db.before-restore` first copied the live database
# over the kept one and then restored that: both files ended as the restored database.


def files_beside(database):
    from pathlib import Path

    folder = Path(database).parent
    return sorted(path.name for path in folder.iterdir() if path.name.startswith(Path(database).name + "."))


def test_restoring_the_kept_database_undoes_a_restore_and_keeps_both(database, tmp_path, capsys):
    add_match(database, "Old")
    copy = str(tmp_path / "copy.db")
    assert cli.main(["backup", copy, "--database", database]) == 0
    add_match(database, "Played since")
    assert cli.main(["restore", copy, "--database", database]) == 0
    assert titles(database) == ["Old"]
    kept = database + ".before-restore"
    assert f"to undo: scorepad restore {kept}" in capsys.readouterr().err
    assert cli.main(["restore", kept, "--database", database]) == 0  # the undo
    assert titles(database) == ["Old", "Played since"]
    assert titles(kept) == ["Old", "Played since"]  # read before anything was touched, and kept
    assert titles(database + ".before-restore.2") == ["Old"]  # what the undo replaced: not lost either
    assert f"kept as {database}.before-restore.2" in capsys.readouterr().err
    assert cli.main(["restore", copy, "--database", database]) == 0
    assert titles(database + ".before-restore.3") == ["Old", "Played since"]
    assert [titles(database + suffix) for suffix in (".before-restore", ".before-restore.2")] == [
        ["Old", "Played since"],
        ["Old"],
    ]
    assert ".restoring" not in " ".join(files_beside(database))  # no scratch copy left behind


def refused(database, file, problem, capsys):
    before = files_beside(database)
    assert cli.main(["restore", str(file), "--database", database]) == 1
    err = capsys.readouterr().err
    assert problem in err and "nothing was changed" in err, err
    assert titles(database) == ["Kept"] and files_beside(database) == before  # no keep, no scratch


def test_restore_refuses_a_database_from_a_newer_version(database, tmp_path, capsys):
    add_match(database, "Kept")
    newer = str(tmp_path / "newer.db")
    assert cli.main(["backup", newer, "--database", database]) == 0
    db = sqlite3.connect(newer)
    db.execute("pragma user_version = 99")
    db.commit()
    db.close()
    refused(database, newer, "newer version (its user_version is 99)", capsys)
    unknown = str(tmp_path / "unknown.db")
    assert cli.main(["backup", unknown, "--database", database]) == 0
    db = sqlite3.connect(unknown)
    db.execute(
        "insert into _sqlite_migrations (migration_set, name, applied_at) values ('scorepad', 'm999_from_later', 'x')"
    )
    db.commit()
    db.close()
    refused(database, unknown, "its migration m999_from_later is unknown here", capsys)
    assert titles(newer) == ["Kept"]  # the backup itself is only read


def test_restore_refuses_another_programs_database_with_a_matches_table(database, tmp_path, capsys, monkeypatch):
    add_match(database, "Kept")
    other = str(tmp_path / "other.db")
    db = sqlite3.connect(other)
    db.execute("create table matches (id text primary key, title text)")
    db.execute("insert into matches values ('a', 'Chess')")
    db.commit()
    db.close()
    refused(database, other, "is not a scorepad database", capsys)
    # A scorepad migration record on a table of another shape is no scorepad database either.
    db = sqlite3.connect(other)
    db.execute("create table _sqlite_migrations (id integer primary key, migration_set text, name text, applied_at)")
    db.execute(
        "insert into _sqlite_migrations (migration_set, name) values ('scorepad', 'm001_create_matches_and_hands')"
    )
    db.commit()
    db.close()
    refused(database, other, "nothing was changed", capsys)
    monkeypatch.setenv("FLASK_SECRET_KEY", "t")
    create_app(overrides={"DATABASE": database})  # the server still starts on the database


def test_restore_brings_a_backup_from_an_older_version_up_to_date(database, tmp_path, capsys):
    from sqlite_utils import Database

    from scorepad.migrations import migrations

    older = str(tmp_path / "older.db")
    db = Database(older)
    migrations.apply(db, stop_before="m008_create_club_nights")  # a version before club nights
    db.execute(
        "insert into matches (id, watch_token, variant, options, sides, created, updated, title) "
        "values ('0123456789abcdef0123456789abcdef', 'w', 'classic', '{}', "
        '\'[{"name": "We", "players": []}, {"name": "They", "players": []}]\', \'c\', \'u\', \'Older\')'
    )
    db.conn.commit()
    db.close()
    add_match(database, "Kept")
    assert cli.main(["restore", older, "--database", database]) == 0, capsys.readouterr().err
    assert titles(database) == ["Older"] and titles(database + ".before-restore") == ["Kept"]
    live = Database(database)
    try:
        assert "club_events" in live.table_names() and not migrations.pending(live)
    finally:
        live.close()
