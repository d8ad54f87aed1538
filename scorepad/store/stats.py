"""Players' and teams' figures, summed by SQL over the figures stored with each match."""

from __future__ import annotations

import itertools
import threading
from collections import OrderedDict
from typing import Any

from sqlite_utils import Database

from .access import EVERY_MATCH, Viewer, _visible_to
from .rows import _select


def player_records(db: Database, viewer: Viewer = EVERY_MATCH) -> list[dict[str, Any]]:
    """Per player and per team: matches, results and hand figures, summed by SQL over stored figures.

    A name's spelling is the one it had in its first match; names are compared case folded.
    """
    seen, params = _visible_to(viewer, "m.id")
    return list(
        _select(
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


STATS_KEPT = 64  # viewers whose sums are kept, each until the database changes

_stats_kept: OrderedDict[tuple[Any, ...], tuple[list[dict[str, Any]], int]] = OrderedDict()

_stats_lock = threading.Lock()

_connections = itertools.count()


def player_stats(db: Database, viewer: Viewer = EVERY_MATCH) -> tuple[list[dict[str, Any]], int]:
    """:func:`player_records` and :func:`count_matches`, summed once for each state of the database.

    The sums run over every match the viewer sees (a club's ten thousand: about a tenth of a
    second), while most visits to the stats page follow no change at all. The key is the state
    this connection sees: SQLite's ``data_version`` moves with every commit by any other
    connection (another thread, another process, ``scorepad rescore``), and the connection's
    ``total_changes`` with every change of its own; the connection (a number of its own), the
    database and the viewer complete it. Anything written makes a new key; nothing stale is served.
    """
    connection = db.__dict__.get("_scorepad_connection")
    if connection is None:  # a number of its own: an address could be a later connection's
        connection = db.__dict__["_scorepad_connection"] = next(_connections)
    state = (connection, db.conn.execute("PRAGMA data_version").fetchone()[0], db.conn.total_changes)
    key = (_database_name(db), viewer, *state)
    found = _stats_kept.get(key)
    if found is None:
        found = (player_records(db, viewer), count_matches(db, viewer))
        with _stats_lock:
            _stats_kept[key] = found
            while len(_stats_kept) > STATS_KEPT:
                _stats_kept.popitem(last=False)
    return found


def _database_name(db: Database) -> str:
    """The file the connection reads (``""`` for an in-memory database)."""
    return next((row[2] for row in db.conn.execute("PRAGMA database_list") if row[1] == "main"), "")


def count_matches(db: Database, viewer: Viewer = EVERY_MATCH) -> int:
    """How many matches ``viewer`` sees that are stored and not deleted."""
    seen, params = _visible_to(viewer)
    return next(iter(_select(db, f"select count(*) as n from matches where deleted is null and {seen}", params)))["n"]
