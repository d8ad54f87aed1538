"""The schema, built only by append-only migrations (sqlite-utils ``Migrations``).

A migration that has shipped is never edited, renamed or reordered; a fix is a new one.
Inspect a database with ``sqlite-utils migrate instance/scorepad.db scorepad/migrations.py --list``.
"""

from __future__ import annotations

from sqlite_utils import Migrations

migrations = Migrations("scorepad")


@migrations()
def m001_create_matches_and_hands(db):
    # A match row holds the facts fixed at creation; `version` counts every write so two phones
    # writing the same match can tell when their page is stale (optimistic versioning).
    db.table("matches").create(
        {
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
        },
        pk="id",
        not_null={"watch_token", "variant", "options", "sides", "created", "updated", "version"},
        defaults={"title": "", "version": 1},
    )
    db.table("matches").create_index(["watch_token"], unique=True)
    # The current state of each hand, ordered by `position`; a deleted hand keeps its row.
    db.table("hands").create(
        {"id": int, "match_id": str, "position": int, "data": str, "created": str, "deleted": str},
        pk="id",
        not_null={"match_id", "position", "data", "created"},
        foreign_keys=[("match_id", "matches", "id")],
    )
    db.table("hands").create_index(["match_id", "position"], unique=True)
    # Every version of every hand as entered, never updated: nothing a player typed is lost.
    db.table("hand_revisions").create(
        {
            "id": int,
            "hand_id": int,
            "revision": int,
            "action": str,
            "data": str,
            "match_version": int,
            "created": str,
        },
        pk="id",
        not_null={"hand_id", "revision", "action", "match_version", "created"},
        foreign_keys=[("hand_id", "hands", "id")],
    )
    db.table("hand_revisions").create_index(["hand_id", "revision"], unique=True)


@migrations()
def m003_record_access_and_import_origin(db):
    # Who sees what: a row per browser and match it created, opened with the write link or
    # imported. A browser is a random id in a cookie, never a person; nothing else about it is kept.
    # Matches stored before this table existed have no row: the organiser sees them, and they
    # join a browser's list when it opens their write link.
    db.table("access").create(
        {"id": int, "browser": str, "match_id": str, "how": str, "created": str},
        pk="id",
        not_null={"browser", "match_id", "how", "created"},
        foreign_keys=[("match_id", "matches", "id")],
    )
    # Listing a browser's matches reads this index; it also makes a grant idempotent.
    db.table("access").create_index(["browser", "match_id"], unique=True)
    # Finding matches nobody has opened yet (the upgrade notice) reads this one.
    db.table("access").create_index(["match_id"])
    # The id a match had in the file it was imported from, when it came from one: an id that was
    # not kept (malformed, or taken here) still lets a re-import of that file be recognised.
    db.table("matches").add_column("origin", str)
    db.table("matches").create_index(["origin"])
