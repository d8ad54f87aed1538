"""The schema: a blank database migrates to the tables store.py expects, and again safely."""

from scorepad.db import connect, migrate
from scorepad.migrations import migrations


def test_blank_database_migrates(tmp_path):
    path = str(tmp_path / "blank.db")
    migrate(path)
    migrate(path)  # applied on every start: the second run changes nothing
    db = connect(path)
    try:
        assert db.journal_mode == "wal"
        assert db.table("matches").columns_dict == {
            "id": str,
            "watch_token": str,
            "variant": str,
            "options": str,
            "sides": str,
            "starting_totals": str,
            "title": str,
            "created": str,
            "updated": str,
            "finished": str,
            "deleted": str,
            "version": int,
            "origin": str,
        }
        assert db.table("hands").columns_dict == {
            "id": int,
            "match_id": str,
            "position": int,
            "data": str,
            "created": str,
            "deleted": str,
        }
        assert db.table("hand_revisions").columns_dict == {
            "id": int,
            "hand_id": int,
            "revision": int,
            "action": str,
            "data": str,
            "match_version": int,
            "created": str,
        }
        applied = [row["name"] for row in db.query("select name from _sqlite_migrations order by id")]
        assert applied[0] == "m001_create_matches_and_hands"
        assert applied == sorted(applied)
        assert not migrations.pending(db)
    finally:
        db.close()


def test_migration_names_follow_the_house_pattern():
    import re

    names = [name for name in dir(__import__("scorepad.migrations", fromlist=["x"])) if name.startswith("m0")]
    assert names and all(re.fullmatch(r"m\d{3}_[a-z_]+", name) for name in names)
    assert names == sorted(names)
