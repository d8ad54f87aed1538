"""Players' and teams' figures, summed by SQL over the figures stored with each match."""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from .access import EVERY_MATCH, Viewer, visible_to
from .rows import select_rows


def player_records(db: Database, viewer: Viewer = EVERY_MATCH) -> list[dict[str, Any]]:
    """Per player and per team: matches, results and hand figures, summed by SQL over stored figures.

    A name's spelling is the one it had in its first match; names are compared case folded.
    """
    seen, params = visible_to(viewer, "m.id")
    return list(
        select_rows(
            db,
            "select p.kind, p.key, p.name, min(m.created || ' ' || m.id) as first, count(*) as matches, "
            "sum(f.outcome = 'won') as wins, sum(f.outcome = 'lost') as losses, sum(f.outcome = 'tie') as ties, "
            "sum(f.hands) as hands, sum(f.points) as points, max(f.best_hand) as biggest_hand, "
            "sum(f.canastas) as canastas, sum(f.red_threes) as red_threes "
            "from match_players p join side_figures f on f.match_id = p.match_id and f.side = p.side "
            f"join matches m on m.id = p.match_id where m.deleted is null and {seen} group by p.kind, p.key",
            params,
        )
    )


def player_stats(db: Database, viewer: Viewer = EVERY_MATCH) -> tuple[list[dict[str, Any]], int]:
    """:func:`player_records` and :func:`count_matches`; the sums over every match are kept with
    the connection that made them until the database changes.

    A browser's own matches are summed in well under a millisecond; every match of a club's ten
    thousand takes about a third of a second, and most visits to the organiser's stats page
    follow no change at all. What was summed is kept on the connection itself (``db.py`` keeps a
    few per thread), under the state it saw: SQLite's ``data_version`` moves with every commit by
    any other connection (another thread, another process, ``scorepad rescore``), and the
    connection's ``total_changes`` with every change of its own. Anything written is seen; a
    connection closed takes its sums with it.
    """
    if not viewer.every_match:
        return player_records(db, viewer), count_matches(db, viewer)
    state = (db.conn.execute("PRAGMA data_version").fetchone()[0], db.conn.total_changes)
    kept = db.__dict__.get("_scorepad_stats")
    if kept is None or kept[0] != state:
        kept = db.__dict__["_scorepad_stats"] = (state, player_records(db, viewer), count_matches(db, viewer))
    return kept[1], kept[2]


def count_matches(db: Database, viewer: Viewer = EVERY_MATCH) -> int:
    """How many matches ``viewer`` sees that are stored and not deleted."""
    seen, params = visible_to(viewer)
    return next(iter(select_rows(db, f"select count(*) as n from matches where deleted is null and {seen}", params)))[
        "n"
    ]
