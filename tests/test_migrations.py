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
            "pending": str,
        }
        assert db.table("hands").columns_dict == {
            "id": int,
            "match_id": str,
            "position": int,
            "data": str,
            "created": str,
            "deleted": str,
            "played": str,  # m009: when the phone saved it
            "undone": int,  # m012: the match version it was undone at
        }
        assert db.table("hand_revisions").columns_dict == {
            "id": int,
            "hand_id": int,
            "revision": int,
            "action": str,
            "data": str,
            "match_version": int,
            "created": str,
            "submission": str,
        }
        # m002: the derived figures, a cache of what the core works out from the facts above.
        assert list(db.table("match_summaries").columns_dict) == [
            "match_id", "version", "variant_name", "hands", "totals", "next_minimums", "is_finished", "is_tie",
            "winner", "margin", "last_played", "names",
        ]  # fmt: skip
        assert list(db.table("hand_figures").columns_dict) == [
            "hand_id", "match_id", "number", "scores", "totals", "minimums", "canastas", "red_threes", "detail",
        ]  # fmt: skip
        assert list(db.table("side_figures").columns_dict) == [
            "match_id", "side", "name", "total", "outcome", "hands", "points", "best_hand", "canastas", "red_threes",
        ]  # fmt: skip
        assert list(db.table("match_players").columns_dict) == ["id", "match_id", "side", "kind", "key", "name"]
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


def test_m002_fills_the_figures_of_matches_stored_before_it(tmp_path):
    """A database last migrated at m001, with matches as that scorepad stored them."""
    import json

    from scorepad import canasta, store

    path = str(tmp_path / "old.db")
    db = connect(path)
    try:
        migrations.apply(db, stop_before="m002_store_derived_figures")
        sides = json.dumps([{"name": "We", "players": ["Ann", "Bob"]}, {"name": "They", "players": ["Cy"]}])
        for match_id, version in (("a" * 32, 4), ("b" * 32, 1)):
            db.table("matches").insert(
                {
                    "id": match_id,
                    "watch_token": match_id.replace("a", "c").replace("b", "d"),
                    "variant": "classic",
                    "options": json.dumps({"target": 5000}),
                    "sides": sides,
                    "title": "",
                    "created": "2025-01-04T20:00:00+00:00",
                    "updated": "2025-01-04T21:00:00+00:00",
                    "version": version,
                }
            )
        went_out = {"entries": [{"melded_points": 620, "canastas": {"natural": 1}, "went_out": True},
                                {"melded_points": 260, "hand_points": 95}]}  # fmt: skip
        lost = {"entries": [{"melded_points": 50}, {"melded_points": 3000, "canastas": {"natural": 4}}]}
        rows = [(1, went_out, None), (2, went_out, None), (3, lost, "2025-01-04T20:30:00+00:00")]
        for position, hand, deleted in rows:
            db.table("hands").insert(
                {
                    "match_id": "a" * 32,
                    "position": position,
                    "data": json.dumps(hand),
                    "created": "x",
                    "deleted": deleted,
                }
            )
    finally:
        db.close()
    migrate(path)
    db = connect(path)
    try:
        assert db.table("match_summaries").columns_dict["totals"] is str
        head = store.match_head(db, "a" * 32)
        # Two live hands of 620 + 500 + 100 = 1220 against 260 - 95 = 165; the undone third counts not.
        assert head.summary.totals == (2440, 330) and head.summary.played == 2
        assert head.summary.next_minimums == (90, 50)  # 1500 to 2995 needs 90
        assert not head.summary.is_finished and head.summary.margin == 2110
        assert [f.totals for f in store.hand_figures(db, "a" * 32)] == [(1220, 165), (2440, 330)]
        assert [f.minimums for f in store.hand_figures(db, "a" * 32)] == [(50, 50), (50, 50)]
        assert store.match_head(db, "b" * 32).summary.totals == (0, 0)
        version = db.execute("select version from match_summaries where match_id = ?", ["a" * 32]).fetchone()[0]
        assert version == 4
        ann = [r for r in store.player_records(db) if r["key"] == "ann"]
        assert ann[0]["matches"] == 2 and ann[0]["points"] == 2440 and ann[0]["biggest_hand"] == 1220
        assert store.add_hand(db, "a" * 32, canasta.read_hand(went_out), 4) == 5
        assert store.match_head(db, "a" * 32).summary.totals == (3660, 495)
    finally:
        db.close()


def test_m006_stores_the_counters_spread_counts_as_groups(tmp_path):
    """Hands the counter saved with invented ranks (K:5 for five cards K-8) come back as groups."""
    import json

    from scorepad import canasta, store
    from scorepad.documents import Side

    path = str(tmp_path / "old.db")
    db = connect(path)
    try:
        migrations.apply(db, stop_before="m006_keep_counted_groups_as_groups")
        classic = canasta.find_variant("classic")
        match_id = store.create_match(db, classic, [Side("We", ()), Side("They", ())], None, "")
        # What the old counter saved for 1 joker, 2 twos, 5 cards K-8, 6 cards 7-4 (170), and
        # for They's 10 cards K-8 and 2 aces; and a count named rank by rank, which stays.
        old = {"entries": [{"melded_cards": {"joker": 1, "2": 2, "K": 5, "7": 6}},
                           {"hand_cards": {"K": 8, "Q": 2, "A": 2}, "melded_cards": {"K": 3, "9": 2}}]}  # fmt: skip
        db.execute("insert into hands (match_id, position, data, created) values (?, 1, ?, 'x')",
                   [match_id, json.dumps(old)])  # fmt: skip
        migrations.apply(db)
        data = json.loads(next(iter(db.query("select data from hands")))["data"])
        assert data["entries"][0]["melded_cards"] == {"joker": 1, "2": 2, "K-8": 5, "7-4": 6}
        assert data["entries"][1]["hand_cards"] == {"K-8": 10, "A": 2}
        assert data["entries"][1]["melded_cards"] == {"K": 3, "9": 2}  # not the counter's shape
        hand = store.load_match(db, match_id)[0].hands[0]
        assert (hand.entries[0].melded_points, hand.entries[1].hand_points) == (170, 140)
    finally:
        db.close()


def test_m012_orders_hands_undone_before_it_as_a_stack(tmp_path):
    """Hands 3 then 2 undone by an older scorepad: Put back brings hand 2 back first, then 3."""
    from scorepad import canasta, store
    from scorepad.documents import Side

    path = str(tmp_path / "old.db")
    db = connect(path)
    try:
        migrations.apply(db, stop_before="m012_order_undone_hands")
        classic = canasta.find_variant("classic")
        match_id = store.create_match(db, classic, [Side("We", ()), Side("They", ())], None, "")
        hands = [
            canasta.Hand.from_dict({"entries": [{"melded_points": melded}, {"hand_points": 10}]})
            for melded in (100, 200, 300)
        ]
        version = 1
        # The older scorepad kept no stack in the database: its add wrote no `undone` (the column
        # m012 makes), so today's "a new hand clears the stack" statement is left out here.
        today = db.execute
        db.execute = lambda sql, *args: None if "set undone = null" in sql else today(sql, *args)
        for hand in hands:
            version = store.add_hand(db, match_id, hand, version)
        del db.execute
        # What the older undo wrote: the hand marked deleted and a 'delete' revision at the new version.
        for position in (3, 2):
            version += 1
            hand_id = db.execute(
                "select id from hands where match_id = ? and position = ?", [match_id, position]
            ).fetchone()[0]
            db.execute("update hands set deleted = 'x' where id = ?", [hand_id])
            db.execute(
                "insert into hand_revisions (hand_id, revision, action, match_version, created) "
                "values (?, 2, 'delete', ?, 'x')",
                [hand_id, version],
            )
            db.execute("update matches set version = ? where id = ?", [version, match_id])
        db.conn.commit()
        migrations.apply(db)
        assert store.restore_last_hand(db, match_id, version) == 2
        assert store.load_match(db, match_id)[0].hands == tuple(hands[:2])
        assert store.restore_last_hand(db, match_id, version + 1) == 3
        assert store.load_match(db, match_id)[0].hands == tuple(hands)
    finally:
        db.close()
