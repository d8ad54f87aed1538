"""The schema, built only by append-only migrations (sqlite-utils ``Migrations``).

A migration that has shipped is never edited, renamed or reordered; a fix is a new one.
Inspect a database with ``sqlite-utils migrate instance/scorepad.db scorepad/migrations.py --list``.
"""

from __future__ import annotations

import json

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
def m002_store_derived_figures(db):
    # Figures the rules core derives from the facts above, kept as a cache written in the same
    # transaction as the facts, so lists and pages never rescore what nothing changed
    # (docs/architecture.md). `version` is the match version they were computed at.
    # Its steps below are part of it and shipped with it: never edit them, never call them from
    # a later migration (copy instead), so this migration does on every database what it did.
    _m002_create_match_summaries(db)
    _m002_create_hand_figures(db)
    _m002_create_side_figures(db)
    _m002_create_match_players(db)
    _m002_index_matches_for_lists(db)
    # The figures of matches stored before this migration are filled by `db.migrate` right after
    # every migration has run (store.fill_missing_figures), with the schema complete: a migration
    # must not call today's store code, which may write columns a later migration adds.


def _m002_create_match_summaries(db):
    """m002, step 1: a summary per match, for lists that must not rescore."""
    db.table("match_summaries").create(
        {
            "match_id": str,
            "version": int,
            "variant_name": str,
            "hands": int,
            "totals": str,
            "next_minimums": str,
            "is_finished": int,
            "is_tie": int,
            "winner": int,
            "margin": int,
            "last_played": str,
            "names": str,
        },
        pk="match_id",
        not_null={"version", "variant_name", "hands", "totals", "next_minimums", "is_finished", "is_tie"},
        foreign_keys=[("match_id", "matches", "id")],
    )


def _m002_create_hand_figures(db):
    """m002, step 2: the figures of each live hand."""
    # One row per live hand: its scores, the totals after it and the minimums in force during it,
    # with the itemised breakdown and warnings as JSON for the documents.
    db.table("hand_figures").create(
        {
            "hand_id": int,
            "match_id": str,
            "number": int,
            "scores": str,
            "totals": str,
            "minimums": str,
            "canastas": str,
            "red_threes": str,
            "detail": str,
        },
        pk="hand_id",
        not_null={"match_id", "number", "scores", "totals", "minimums", "canastas", "red_threes", "detail"},
        foreign_keys=[("hand_id", "hands", "id"), ("match_id", "matches", "id")],
    )
    db.table("hand_figures").create_index(["match_id", "number"], unique=True)


def _m002_create_side_figures(db):
    """m002, step 3: each side's figures in a match, which the stats page sums in SQL."""
    db.table("side_figures").create(
        {
            "match_id": str,
            "side": int,
            "name": str,
            "total": int,
            "outcome": str,
            "hands": int,
            "points": int,
            "best_hand": int,
            "canastas": int,
            "red_threes": int,
        },
        pk=("match_id", "side"),
        not_null={"name", "total", "outcome", "hands", "points", "canastas", "red_threes"},
        foreign_keys=[("match_id", "matches", "id")],
    )


def _m002_create_match_players(db):
    """m002, step 4: who played each side of a match, for the stats page."""
    db.table("match_players").create(
        {"id": int, "match_id": str, "side": int, "kind": str, "key": str, "name": str},
        pk="id",
        not_null={"match_id", "side", "kind", "key", "name"},
        foreign_keys=[("match_id", "matches", "id")],
    )
    db.table("match_players").create_index(["key", "match_id"])
    db.table("match_players").create_index(["match_id"])


def _m002_index_matches_for_lists(db):
    """m002, step 5: the indexes the home page and the recently deleted list read."""
    # The home page lists most recently played first and pages by (updated, id).
    db.table("matches").create_index(["updated", "id"])
    # The recently deleted, for restoring. Partial, so the planner never takes it for the home
    # page's `deleted is null`, which nearly every match satisfies.
    db.execute("create index idx_matches_deleted on matches(deleted) where deleted is not null")


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


@migrations()
def m004_remember_hand_submissions(db):
    # The key a hand form carried when it was saved (one per form shown, or per hand queued on a
    # phone): the same save sent again (a replay from the offline queue, a second tab, a double
    # tap) is recognised as the one already stored instead of being refused or saved twice.
    # Revisions written without a form (undo, restore, imports) have none.
    db.table("hand_revisions").add_column("submission", str)
    db.execute(
        "create unique index idx_hand_revisions_submission on hand_revisions(submission) where submission is not null"
    )


@migrations()
def m005_hold_imported_matches_until_the_import_ends(db):
    # A large import is written in short transactions so saves are never kept waiting; until its
    # last one commits, its matches carry the import's id here and no list, page or sum shows them.
    # A failed import's rows are deleted, so an import is still all or nothing to whoever looks.
    db.table("matches").add_column("pending", str)
    db.execute("create index idx_matches_pending on matches(pending) where pending is not null")


# The card counter's groups, as m006 reads them (copied here, never imported: a shipped
# migration does on every database what it did the day it shipped).
_M006_GROUPS = {"K-8": ("K", "Q", "J", "10", "9", "8"), "7-4": ("7", "6", "5", "4")}


@migrations()
def m006_keep_counted_groups_as_groups(db):
    # Until now the hand form's counter stored a count of "K Q J 10 9 8" or "7 6 5 4" spread over
    # the ranks in order (5 high cards: K 5; 10: K 8, Q 2), inventing ranks nobody counted and
    # refusing ordinary hands. A pile whose ranks of a group are filled that way is the counter's
    # count of the group and becomes the group (K-8, 7-4): the same points, so scores, totals and
    # the figures stored with them are unchanged. The revisions keep the data as entered.
    for row in list(db.query("select id, data from hands")):
        hand = json.loads(row["data"])
        changed = False
        for entry in hand.get("entries", []):
            for pile in ("melded_cards", "hand_cards"):
                counts = entry.get(pile)
                if isinstance(counts, dict):
                    grouped = _m006_grouped(counts)
                    changed = changed or grouped != counts
                    entry[pile] = grouped
        if changed:
            db.execute("update hands set data = ? where id = ?", [json.dumps(hand, sort_keys=True), row["id"]])


def _m006_grouped(counts: dict) -> dict:
    """A pile's counts with each group the counter spread over its ranks put back as the group."""
    out = dict(counts)
    for group, ranks in _M006_GROUPS.items():
        filled = [out.get(rank, 0) for rank in ranks]
        if group in out or not _m006_is_spread(filled):
            continue
        for rank in ranks:
            out.pop(rank, None)
        out[group] = sum(filled)
    return dict(sorted(out.items()))


def _m006_is_spread(filled: list) -> bool:
    """Ranks filled as the counter spread a count: the first ranks full alike, the next with the rest.

    Full is the cards of one rank in the decks: 8, 12 or 16 (two, three or four decks).
    """
    if not all(isinstance(n, int) and n >= 0 for n in filled):
        return False
    used = len(filled) - next((i for i, n in enumerate(reversed(filled)) if n), len(filled))
    if used == 0 or not all(filled[:used]):
        return False
    full, last = filled[: used - 1], filled[used - 1]
    if not full:
        return True
    per_rank = filled[0]
    return (
        per_rank >= 8
        and per_rank % 4 == 0
        and all(n == per_rank for n in full)
        and (used == len(filled) or last <= per_rank)
    )


@migrations()
def m007_record_organiser_sign_in(db):
    # One row (id 1) shared by every server process: wrong organiser passphrases in a row since
    # the last right one and when the next guess may be checked (seconds since the epoch), so
    # guessing slows down everywhere at once; the generation of organiser sign-ins, which
    # signing out bumps, so a copied organiser cookie stops working everywhere; and the
    # generation of known organiser devices (exempt from the wait), which a wrong guess from
    # such a device bumps, so a copied cookie buys one free guess at most.
    db.table("organiser_sign_in").create(
        {"id": int, "failures": int, "next_try": float, "generation": int, "device_generation": int},
        pk="id",
        not_null={"failures", "next_try", "generation", "device_generation"},
        defaults={"failures": 0, "next_try": 0.0, "generation": 1, "device_generation": 1},
    )
    db.table("organiser_sign_in").insert({"id": 1})


@migrations()
def m008_create_club_nights(db):
    # A club night (docs/clubnight.md): the event keeps the settings it was created with as
    # EventSettings.to_dict() JSON; `id` is the organiser's address, `standings_token` the
    # watchers' and `seed` the random draw's, so the night can be drawn again the same way.
    # `draw` is round 1's order (a round robin seats every later round from it).
    db.table("club_events").create(
        {
            "id": str,
            "standings_token": str,
            "name": str,
            "date": str,
            "settings": str,
            "seed": int,
            "draw": str,
            "created": str,
            "updated": str,
            "version": int,
        },
        pk="id",
        not_null={"standings_token", "name", "date", "settings", "seed", "created", "updated", "version"},
        defaults={"version": 1},
    )
    db.table("club_events").create_index(["standings_token"], unique=True)
    # Its steps below are part of it: never edit them, never call them from a later migration.
    _m008_create_entrants_and_rounds(db)
    _m008_create_tables_and_cards(db)
    _m008_create_director_notes(db)


def _m008_create_entrants_and_rounds(db):
    """m008, step 1: who plays, and the rounds."""
    # An entrant is known by its name within the event (the core's movements seat names).
    db.table("club_entrants").create(
        {"id": int, "event_id": str, "name": str, "players": str, "position": int, "joined_round": int,
         "withdrawn": str, "created": str},
        pk="id",
        not_null={"event_id", "name", "players", "position", "joined_round", "created"},
        foreign_keys=[("event_id", "club_events", "id")],
    )  # fmt: skip
    db.table("club_entrants").create_index(["event_id", "name"], unique=True)
    # A round is seated, then started (its clock runs from `started` to `ends`), then closed.
    db.table("club_rounds").create(
        {"event_id": str, "number": int, "seated": str, "started": str, "ends": str, "closed": str},
        pk=("event_id", "number"),
        not_null={"event_id", "number", "seated"},
        foreign_keys=[("event_id", "club_events", "id")],
    )


def _m008_create_tables_and_cards(db):
    """m008, step 2: each round's tables with their matches and confirmations, and the table cards."""
    # One table of one round: who sits North-South and East-West (NULL: an empty seat, a bye),
    # the scorepad match it plays (made when the round starts), each side's confirmation of the
    # result at the match version it saw, and a dispute for the director.
    db.table("club_tables").create(
        {"id": int, "event_id": str, "round": int, "number": int, "north_south": str, "east_west": str,
         "match_id": str, "no_show": str, "confirmed_ns": int, "confirmed_ew": int, "disputed": str,
         "dispute_note": str, "accepted": str},
        pk="id",
        not_null={"event_id", "round", "number"},
        foreign_keys=[("event_id", "club_events", "id"), ("match_id", "matches", "id")],
    )  # fmt: skip
    db.table("club_tables").create_index(["event_id", "round", "number"], unique=True)
    db.table("club_tables").create_index(["match_id"])
    # A table card's address: one unguessable token per table number, valid all night.
    db.table("club_table_cards").create(
        {"token": str, "event_id": str, "number": int},
        pk="token",
        not_null={"event_id", "number"},
        foreign_keys=[("event_id", "club_events", "id")],
    )
    db.table("club_table_cards").create_index(["event_id", "number"], unique=True)


def _m008_create_director_notes(db):
    """m008, step 3: the director's penalties, adjustments, corrections and announcements."""
    # The organiser's penalties and adjustments (in the round's units) and notes of corrections,
    # each with its reason; and announcements shown on every table's sheet.
    db.table("club_adjustments").create(
        {"id": int, "event_id": str, "round": int, "entrant": str, "amount": int, "reason": str, "created": str},
        pk="id",
        not_null={"event_id", "round", "entrant", "amount", "reason", "created"},
        foreign_keys=[("event_id", "club_events", "id")],
    )
    db.table("club_corrections").create(
        {"id": int, "event_id": str, "round": int, "table_number": int, "reason": str, "by": str, "created": str},
        pk="id",
        not_null={"event_id", "round", "table_number", "reason", "by", "created"},
        foreign_keys=[("event_id", "club_events", "id")],
    )
    db.table("club_announcements").create(
        {"id": int, "event_id": str, "text": str, "created": str},
        pk="id",
        not_null={"event_id", "text", "created"},
        foreign_keys=[("event_id", "club_events", "id")],
    )


@migrations()
def m009_log_club_night_changes(db):
    # Every organiser action on a night is one transaction checked against the night's version
    # (issue 30): `club_changes` says what each action changed, so a laptop holding an older
    # page is told what happened meanwhile. `version` is the night's version after the change.
    db.table("club_changes").create(
        {"id": int, "event_id": str, "version": int, "what": str, "detail": str, "created": str},
        pk="id",
        not_null={"event_id", "version", "what", "detail", "created"},
        foreign_keys=[("event_id", "club_events", "id")],
    )
    db.table("club_changes").create_index(["event_id", "version"])
    # `origin`: the id the night had where it was first run, kept through export and import so
    # an import of a night already here is recognised; `in_season` 0 leaves it out of the season.
    db.table("club_events").add_column("origin", str)
    db.table("club_events").add_column("in_season", int, not_null_default=1)
    db.execute("update club_events set origin = id")
    # The director's override of the time rule for one table: every hand saved counts, and why.
    db.table("club_tables").add_column("every_hand", str)
    # When the phone saved a hand (an offline queue sends it later), never after the server
    # received it: a club night's time rule judges when a hand was played, not when it arrived.
    db.table("hands").add_column("played", str)


@migrations()
def m010_remember_the_side_a_table_card_confirmed(db):
    # A table card's address lets one phone confirm one side of its table (issue 34): the side
    # confirmed by a phone that was nobody's yet, so that a second such phone cannot confirm the
    # other side. NULL until then; the other side confirms on a phone that is theirs (their pair
    # card) or the director settles the result.
    db.table("club_tables").add_column("card_side", int)


@migrations()
def m011_keep_organiser_sessions_and_guesses_by_source(db):
    # Each organiser sign-in's own id, so that signing out ends that sign-in (and every copy of
    # its cookie) and nobody else's; and wrong passphrases counted per source address and per
    # browser (`key` is "source:<address>" or "device:<browser id>"), so that a stranger's
    # guesses slow down only the stranger.
    db.table("organiser_sessions").create({"id": str, "created": float}, pk="id", not_null={"created"})
    db.table("organiser_guesses").create(
        {"key": str, "failures": int, "next_try": float},
        pk="key",
        not_null={"failures", "next_try"},
    )
    db.table("organiser_guesses").create_index(["next_try"])


@migrations()
def m012_order_undone_hands(db):
    # Undo and Put back are a stack: `undone` is the match version at which a hand was undone
    # (NULL while it is on the sheet), so "Put back" takes the hand undone last, whatever its
    # position. Hands undone before this migration take it from their last 'delete' revision.
    db.table("hands").add_column("undone", int)
    db.execute(
        "update hands set undone = (select max(r.match_version) from hand_revisions r "
        "where r.hand_id = hands.id and r.action = 'delete') where deleted is not null"
    )
