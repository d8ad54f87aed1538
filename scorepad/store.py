"""Storage: the only module that knows table names; rows in, ``canasta`` objects out.

A match row holds what was fixed at creation (variant, every option value, sides, starting
totals); hand rows hold each hand's entries as they were entered, and ``hand_revisions`` keeps
every version of every hand, so an edit or a deletion never loses what a player typed. Those are
the facts. What the rules core derives from them (each hand's scores, totals and minimums, each
match's totals and state, each side's figures for the stats) is a cache written in the same
transaction as the facts that change it, so lists and pages read figures instead of rescoring;
:func:`rescore` rebuilds it from the facts after a scoring fix.

Every write is one transaction and starts by bumping the match's ``version`` only if it still is
the version the writer's page was rendered from; otherwise :class:`StaleError` says what changed.
"""

from __future__ import annotations

import itertools
import json
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import cached_property, lru_cache
from typing import Any

from sqlite_utils import Database

from . import canasta
from .canasta.match import Standing, carry_forward, game_ends, play_hand, settlement_for, standing
from .canasta.text import fold, t
from .db import SYNCHRONOUS
from .documents import FORMAT, FORMAT_VERSION, MatchInfo, Side, state_fields, team_name

RESTORE_DAYS = 30  # a deleted match is offered for restoring this long
Progress = Callable[[int, int], None]  # (done, of) for long imports


class NotFoundError(LookupError):
    """No match (or hand) at this id; the pages answer 404."""


class AlreadySavedError(Exception):
    """This very save (its form's submission key) is stored already; ``number`` is its hand, 0 if undone since."""

    def __init__(self, number: int):
        super().__init__(f"hand {number} was already saved")
        self.number = number


class StaleError(Exception):
    """The match changed since the page was rendered; ``changes`` says how, in sentences."""

    def __init__(self, changes: list[str], version: int):
        super().__init__(" ".join(changes))
        self.changes = changes
        self.version = version


@dataclass(frozen=True)
class StoredMatch:
    """A match as the pages need it: the scored match, its info, and what guards writes."""

    match: canasta.Match
    info: MatchInfo
    version: int
    watch_token: str
    updated: str
    deleted: str | None = None

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def variant_key(self) -> str:
        return self.match.variant.key


@dataclass(frozen=True)
class MatchSummary:
    """A line of the match list: who, which variant, the totals and the state."""

    id: str
    title: str
    variant_name: str
    variant_key: str
    side_names: tuple[str, ...]
    totals: tuple[int, ...]
    hands: int
    is_finished: bool
    winner: int | None
    created: str
    updated: str
    deleted: str | None
    is_tie: bool = False
    last_played: str = ""
    sides: tuple[Side, ...] = ()
    version: int = 0  # the match's version: what the list line shows changes only with it


@dataclass(frozen=True)
class HandFigures:
    """One hand's stored figures: its scores, the minimums in force and the totals after it."""

    number: int
    scores: tuple[int, ...]
    minimums: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class MatchHead:
    """A match without its hands: the row, its stored summary, and the rules it is played by.

    What the score sheet, the hand form and the write views need, read in one query.
    """

    info: MatchInfo
    version: int
    watch_token: str
    updated: str
    deleted: str | None
    variant_key: str
    options: dict[str, Any] = field(repr=False)
    starting_totals: tuple[int, ...] | None
    summary: Standing
    variant_name: str
    last_played: str

    @property
    def id(self) -> str:
        return self.info.id

    @cached_property
    def variant(self) -> canasta.Variant:
        return canasta.rules_for(self.variant_key, self.options)


@dataclass(frozen=True)
class Page:
    """One page of a list, newest first, and the key of the next (older) page if there is one."""

    items: list[MatchSummary]
    older: str | None


@dataclass(frozen=True)
class Revision:
    """One stored version of a hand: ``hand`` is None for a deletion."""

    revision: int
    action: str
    hand: canasta.Hand | None
    created: str


@dataclass(frozen=True)
class Viewer:
    """Whose matches a list covers: one browser's (see the access section), or every match.

    A browser with no id yet (``browser=None``) sees nothing; ``every_match`` is for the
    organiser's signed-in browser and for the command line run by the server's owner.
    """

    browser: str | None = None
    every_match: bool = False


EVERY_MATCH = Viewer(every_match=True)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def new_token() -> str:
    """128 random bits as 32 hex digits: match ids and watch tokens are never guessable."""
    return secrets.token_hex(16)


@contextmanager
def writing(db: Database, durable: bool = True) -> Iterator[Database]:
    """One write transaction that holds the write lock from its first statement.

    A transaction that reads first and writes later (SQLite's default ``BEGIN DEFERRED``) fails
    at once with "database is locked" when another writer got in between, because its snapshot
    can no longer be upgraded; ``BEGIN IMMEDIATE`` takes the lock up front, so concurrent writers
    wait their turn (``busy_timeout``) instead. Nested use becomes a savepoint.

    ``durable=False`` commits without waiting for the disk (WAL with ``synchronous = NORMAL``):
    only a power cut or an OS crash in the next moments can lose it, never corrupt anything,
    and the next durable commit makes it durable too. Only for a row that is cheap to lose.
    """
    if db.conn.in_transaction:
        with db.atomic():
            yield db
        return
    if not durable:
        db.execute("PRAGMA synchronous = NORMAL")
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.conn.rollback()
            raise
        try:
            db.execute("COMMIT")
        except BaseException:
            db.conn.rollback()
            raise
    finally:
        if not durable:
            _durable_again(db)


def _durable_again(db: Database) -> None:
    """Put the connection back to waiting for the disk, whatever the transaction it held came to.

    The setting cannot change inside a transaction, and the connection is kept for the thread's
    next request: if a rollback above failed, the transaction is ended here first, so no later
    write on this connection ever commits without ``synchronous = FULL``.
    """
    if db.conn.in_transaction:
        db.conn.rollback()
    db.execute(f"PRAGMA synchronous = {SYNCHRONOUS}")


# --- reading ----------------------------------------------------------------------------
def _select(db: Database, sql: str, params: Sequence[Any] = ()) -> Iterator[dict[str, Any]]:
    """The rows of a SELECT as dicts, fetched lazily, like ``db.query`` without its guard.

    sqlite-utils wraps every ``query`` in a savepoint so that a statement which turns out to
    write can be rolled back; every statement here is a plain SELECT, and three statements for
    one lookup cost more than the rest of a watcher's poll.
    """
    cursor = db.conn.execute(sql, params)
    keys = [column[0] for column in cursor.description]
    return (dict(zip(keys, row, strict=True)) for row in cursor)


def _match_row(db: Database, match_id: str, pending_too: bool = False) -> dict[str, Any]:
    """A match's row; one whose import has not finished is found only ``pending_too``."""
    held = "" if pending_too else " and pending is null"
    rows = list(_select(db, f"select * from matches where id = ?{held}", [match_id]))
    if not rows:
        raise NotFoundError(match_id)
    return rows[0]


def _live_hands(db: Database, match_id: str) -> list[dict[str, Any]]:
    return list(_select(db, "select * from hands where match_id = ? and deleted is null order by position", [match_id]))


def _variant(row: dict[str, Any]) -> canasta.Variant:
    return canasta.rules_for(row["variant"], json.loads(row["options"]))


def _starting(row: dict[str, Any]) -> tuple[int, ...] | None:
    return tuple(json.loads(row["starting_totals"])) if row["starting_totals"] else None


def _info(row: dict[str, Any]) -> MatchInfo:
    return MatchInfo(
        id=row["id"],
        sides=tuple(Side(side["name"], tuple(side["players"])) for side in json.loads(row["sides"])),
        created=row["created"],
        finished=row["finished"],
        title=row["title"] or "",
    )


def _stored(db: Database, row: dict[str, Any]) -> StoredMatch:
    # read_hand: a match loaded again (its API document, an export) shares the hands read before.
    hands = tuple(canasta.read_hand(json.loads(hand["data"])) for hand in _live_hands(db, row["id"]))
    match = canasta.Match(_variant(row), hands, _starting(row))
    return StoredMatch(match, _info(row), row["version"], row["watch_token"], row["updated"], row["deleted"])


def get_match(db: Database, match_id: str) -> StoredMatch:
    """A match, deleted or not, with every hand scored by the core (the hand pages, exports).

    :raises NotFoundError: for an id that was never stored.
    """
    return _stored(db, _match_row(db, match_id))


def get_watched_match(db: Database, watch_token: str) -> StoredMatch:
    """The match a read-only link shows.

    :raises NotFoundError: for an unknown token or a deleted match.
    """
    rows = list(
        _select(
            db, "select * from matches where watch_token = ? and deleted is null and pending is null", [watch_token]
        )
    )
    if not rows:
        raise NotFoundError(watch_token)
    return _stored(db, rows[0])


def load_match(db: Database, match_id: str) -> tuple[canasta.Match, MatchInfo]:
    """The scored match and its info, for export and the JSON API.

    :raises NotFoundError: for an unknown or deleted match.
    """
    stored = get_match(db, match_id)
    if stored.deleted:
        raise NotFoundError(match_id)
    return stored.match, stored.info


def all_match_ids(db: Database, viewer: Viewer = EVERY_MATCH) -> list[str]:
    """Every match that is not deleted and ``viewer`` sees, oldest first."""
    seen, params = _visible_to(viewer)
    rows = _select(db, f"select id from matches where deleted is null and {seen} order by created, id", params)
    return [row["id"] for row in rows]


# --- reading stored figures: no hand is rescored -----------------------------------------
HEAD_SQL = (
    "select m.*, s.variant_name, s.hands, s.totals, s.next_minimums, s.is_finished, s.is_tie, s.winner, "
    "s.margin, s.last_played from matches m join match_summaries s on s.match_id = m.id"
)


def _loads(text: str | None) -> tuple[int, ...]:
    return tuple(json.loads(text)) if text else ()


def _standing(row: dict[str, Any]) -> Standing:
    return Standing(
        totals=_loads(row["totals"]),
        played=row["hands"],
        next_minimums=_loads(row["next_minimums"]),
        is_finished=bool(row["is_finished"]),
        is_tie=bool(row["is_tie"]),
        winner=row["winner"],
        margin=row["margin"],
    )


def _head(row: dict[str, Any]) -> MatchHead:
    return MatchHead(
        info=_info(row),
        version=row["version"],
        watch_token=row["watch_token"],
        updated=row["updated"],
        deleted=row["deleted"],
        variant_key=row["variant"],
        options=json.loads(row["options"]),
        starting_totals=_starting(row),
        summary=_standing(row),
        variant_name=row["variant_name"],
        last_played=row["last_played"],
    )


def match_head(db: Database, match_id: str) -> MatchHead:
    """A match's row and stored summary in one query, without reading a hand.

    :raises NotFoundError: for an id that was never stored.
    """
    return _one_head(db, f"{HEAD_SQL} where m.id = ? and m.pending is null", match_id)


def watched_head(db: Database, watch_token: str) -> MatchHead:
    """:func:`match_head` for a read-only link.

    :raises NotFoundError: for an unknown token or a deleted match.
    """
    return _one_head(db, f"{HEAD_SQL} where m.watch_token = ? and m.deleted is null and m.pending is null", watch_token)


def _one_head(db: Database, sql: str, key: str) -> MatchHead:
    cursor = db.conn.execute(sql, [key])
    row = cursor.fetchone()
    if row is None:
        raise NotFoundError(key)
    return _head_of(tuple(column[0] for column in cursor.description), row)


@lru_cache(maxsize=256)
def _head_of(columns: tuple[str, ...], values: tuple[Any, ...]) -> MatchHead:
    """The head read from these exact values (JSON columns and all), made once and shared.

    Keyed by everything the row holds, so a changed match (a new version, a deletion) is
    another key; a head is frozen and its options are only ever read.
    """
    return _head(dict(zip(columns, values, strict=True)))


def current_version(db: Database, match_id: str | None = None, watch_token: str | None = None) -> int:
    """The version of a live match, by id or by watch token: one indexed lookup, nothing else.

    :raises NotFoundError: for an unknown id or token, or a deleted match.
    """
    column, key = ("id", match_id) if match_id is not None else ("watch_token", watch_token)
    rows = list(
        _select(db, f"select version from matches where {column} = ? and deleted is null and pending is null", [key])
    )
    if not rows:
        raise NotFoundError(key)
    return rows[0]["version"]


def hand_figures(db: Database, match_id: str) -> list[HandFigures]:
    """Every live hand's stored scores, minimums in force and totals after it, in order."""
    rows = _select(
        db, "select number, scores, minimums, totals from hand_figures where match_id = ? order by number", [match_id]
    )
    return [HandFigures(r["number"], _loads(r["scores"]), _loads(r["minimums"]), _loads(r["totals"])) for r in rows]


LIST_COLUMNS = (
    "m.id", "m.version", "m.title", "m.sides", "m.created", "m.updated", "m.deleted", "m.variant", "s.variant_name",
    "s.totals",
    "s.hands", "s.is_finished", "s.is_tie", "s.winner", "s.last_played",
)  # fmt: skip
LIST_SQL = f"select {', '.join(LIST_COLUMNS)} from matches m join match_summaries s on s.match_id = m.id"
_LIST_NAMES = tuple(column.partition(".")[2] for column in LIST_COLUMNS)


def _list_summaries(db: Database, sql: str, params: Sequence[Any]) -> list[MatchSummary]:
    """The summaries a list query (``LIST_SQL`` and its conditions) reads, made once per distinct row.

    A page of the list reads thirty rows; parsing each one's sides and building its frozen
    summary cost more than the query, and most pages show lines already seen. A summary
    depends on its row's values and nothing else, so the row itself is the key.
    """
    return [_list_summary(values) for values in db.conn.execute(sql, params).fetchall()]


@lru_cache(maxsize=4096)
def _list_summary(values: tuple[Any, ...]) -> MatchSummary:
    row = dict(zip(_LIST_NAMES, values, strict=True))
    sides = tuple(Side(side["name"], tuple(side["players"])) for side in json.loads(row["sides"]))
    return MatchSummary(
        id=row["id"],
        title=row["title"] or "",
        variant_name=row["variant_name"],
        variant_key=row["variant"],
        side_names=tuple(side.name for side in sides),
        sides=sides,
        totals=_loads(row["totals"]),
        hands=row["hands"],
        is_finished=bool(row["is_finished"]),
        winner=row["winner"],
        created=row["created"],
        updated=row["updated"],
        deleted=row["deleted"],
        is_tie=bool(row["is_tie"]),
        last_played=row["last_played"] or "",
        version=row["version"],
    )


def search_key(text: str) -> str:
    """How names are compared: case folded, spaces trimmed."""
    return " ".join(text.split()).casefold()


def match_page(
    db: Database,
    before: str | None = None,
    search: str = "",
    variant: str = "",
    player: str = "",
    limit: int = 30,
    include_deleted: bool = False,
    viewer: Viewer = EVERY_MATCH,
) -> Page:
    """One page of stored summaries, most recently played first, through the (updated, id) index.

    ``before`` is the ``older`` key of the page before (``updated|id``); ``search`` finds a side,
    player or title containing it, ``variant`` a preset key, ``player`` a player or team by name.
    """
    seen, params = _visible_to(viewer, "m.id")
    where: list[str] = [seen] if include_deleted else ["m.deleted is null", seen]
    if before:
        updated, _, last_id = before.partition("|")
        where.append("(m.updated < ? or (m.updated = ? and m.id < ?))")
        params += [updated, updated, last_id]
    if search.strip():
        where.append("instr(s.names, ?) > 0")
        params.append(search_key(search))
    if variant:
        where.append("m.variant = ?")
        params.append(variant)
    if player.strip():
        # "+m.id": walk the (updated, id) index and stop at a page, checking each match against
        # the player's (read once), rather than fetch every match of a regular and sort them all.
        where.append("+m.id in (select match_id from match_players where key = ?)")
        params.append(search_key(player))
    clause = f" where {' and '.join(where)}" if where else ""
    rows = _list_summaries(db, f"{LIST_SQL}{clause} order by m.updated desc, m.id desc limit ?", [*params, limit + 1])
    items = rows[:limit]
    older = f"{items[-1].updated}|{items[-1].id}" if len(rows) > limit else None
    return Page(items, older)


def list_matches(
    db: Database, include_deleted: bool = False, limit: int = 1_000_000, viewer: Viewer = EVERY_MATCH
) -> list[MatchSummary]:
    """Matches ``viewer`` sees, most recently played first (the first page of :func:`match_page`)."""
    return match_page(db, limit=limit, include_deleted=include_deleted, viewer=viewer).items


def recently_deleted(
    db: Database, days: int = RESTORE_DAYS, limit: int = 50, viewer: Viewer = EVERY_MATCH
) -> list[MatchSummary]:
    """Matches ``viewer`` sees deleted within ``days``, which can still be restored from the home page."""
    since = (datetime.now(UTC) - timedelta(days=days)).isoformat(timespec="seconds")
    seen, params = _visible_to(viewer, "m.id")
    sql = f"{LIST_SQL} where m.deleted >= ? and {seen} order by m.deleted desc limit ?"
    return _list_summaries(db, sql, [since, *params, limit])


@dataclass(frozen=True)
class ResultRow:
    """A stored match as the results CSV lists it: its info, rules and stored summary."""

    info: MatchInfo
    variant_key: str
    variant_name: str
    summary: Standing


def result_rows(db: Database, viewer: Viewer = EVERY_MATCH) -> list[ResultRow]:
    """Every match ``viewer`` sees that is not deleted, oldest first, from stored summaries only."""
    seen, params = _visible_to(viewer, "m.id")
    rows = _select(db, f"{HEAD_SQL} where m.deleted is null and {seen} order by m.created, m.id", params)
    return [ResultRow(_info(row), row["variant"], row["variant_name"], _standing(row)) for row in rows]


def match_documents(db: Database, viewer: Viewer = EVERY_MATCH) -> Iterator[dict[str, Any]]:
    """Every match ``viewer`` sees that is not deleted as its document (``GET /api/v1/matches/<id>``),
    oldest first.

    Built from the stored entries and figures: the backup reads, it does not rescore.
    """
    seen, params = _visible_to(viewer, "m.id")
    for row in _select(db, f"{HEAD_SQL} where m.deleted is null and {seen} order by m.created, m.id", params):
        yield _document_from_figures(db, row)


def _document_from_figures(db: Database, row: dict[str, Any]) -> dict[str, Any]:
    """One match's document from its row and stored figures, key for key what ``documents.match_document`` writes."""
    summary = _standing(row)
    hands = _hand_documents_from_figures(db, row["id"])
    starting = _starting(row)
    document = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "id": row["id"],
        "title": row["title"] or "",
        "created": row["created"],
        "finished": row["finished"],
        "options": json.loads(row["options"]),
        "sides": json.loads(row["sides"]),
        "starting_totals": list(starting) if starting else None,
        "variant": row["variant"],
        "hands": hands,
    }
    settlement = settlement_for(summary.totals, _variant(row).settlement_unit) if summary.is_finished else None
    return document | state_fields(summary, settlement)


def _hand_documents_from_figures(db: Database, match_id: str) -> list[dict[str, Any]]:
    """A match's live hands as its document lists them, in order, from their entries and stored figures."""
    stored = _select(
        db,
        "select h.data, f.scores, f.totals, f.minimums, f.detail from hand_figures f "
        "join hands h on h.id = f.hand_id where f.match_id = ? order by f.number",
        [match_id],
    )
    return [_hand_document_from_figures(hand, index) for index, hand in enumerate(stored)]


def _hand_document_from_figures(hand: dict[str, Any], index: int) -> dict[str, Any]:
    """One hand as ``documents.hand_document`` writes it: entries, scores, totals, minimums, breakdown, warnings."""
    detail = json.loads(hand["detail"])
    document = _hand(hand).to_dict()
    document.update(
        scores=json.loads(hand["scores"]),
        totals=json.loads(hand["totals"]),
        minimums=json.loads(hand["minimums"]),
        breakdown=detail["breakdown"],
    )
    if detail["warnings"]:
        document["warnings"] = [
            {
                "field": canasta.Violation(w["code"], w["message"], w["field"]).under(f"hands[{index}]").field,
                "message": w["message"],
            }
            for w in detail["warnings"]
        ]
    return document


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


def hand_revisions(db: Database, match_id: str, number: int) -> list[Revision]:
    """Every stored version of hand ``number`` (1-based), oldest first.

    :raises NotFoundError: when the match has no such hand.
    """
    hand_id = _hand_row(db, match_id, number)["id"]
    rows = _select(db, "select * from hand_revisions where hand_id = ? order by revision", [hand_id])
    return [
        Revision(
            row["revision"],
            row["action"],
            canasta.Hand.from_dict(json.loads(row["data"])) if row["data"] else None,
            row["created"],
        )
        for row in rows
    ]


def _hand_row(db: Database, match_id: str, number: int) -> dict[str, Any]:
    hands = _live_hands(db, match_id)
    if not 1 <= number <= len(hands):
        raise NotFoundError(f"{match_id} hand {number}")
    return hands[number - 1]


# --- writing ----------------------------------------------------------------------------
def create_match(
    db: Database,
    variant: canasta.Variant,
    sides: Sequence[Side],
    starting_totals: Sequence[int] | None = None,
    title: str = "",
    browser: str | None = None,
) -> str:
    """Store a new match with every option value frozen; returns its id.

    With ``browser``, the match joins that browser's list in the same transaction.

    :raises InvalidError: for starting totals the core refuses.
    """
    canasta.Match.validated(variant, (), starting_totals)
    match_id = new_token()
    stamp = now()
    with writing(db):
        db.table("matches").insert(
            {
                "id": match_id,
                "watch_token": new_token(),
                "variant": variant.key,
                "options": json.dumps(variant.option_values()),
                "sides": json.dumps([side.to_dict() for side in sides]),
                "starting_totals": json.dumps(list(starting_totals)) if starting_totals else None,
                "title": title,
                "created": stamp,
                "updated": stamp,
                "version": 1,
            }
        )
        # A match made just now is nobody's import: its row is read as it was written.
        row = _match_row(db, match_id, pending_too=True)
        _write_figures(db, row, canasta.Match(variant, (), _starting_or_none(starting_totals)), [])
        if browser:
            grant_access(db, browser, match_id, "created")
    return match_id


def _starting_or_none(totals: Sequence[int] | None) -> tuple[int, ...] | None:
    return tuple(totals) if totals else None


def add_hand(db: Database, match_id: str, hand: canasta.Hand, version: int, submission: str | None = None) -> int:
    """Append a hand, scored against the stored totals before it; returns the match's new version.

    ``submission`` is the key of the form that sent it, stored with the hand: sent again, it is
    recognised before the version is looked at (inside the write lock, so two copies sent at
    once store one hand).

    :raises AlreadySavedError: when a hand was already saved with this ``submission``.
    :raises StaleError: when ``version`` is not the match's current version.
    :raises InvalidError: when the match with this hand cannot be scored (fields ``hands[i]``).
    """
    with writing(db):
        _refuse_a_second_copy(db, match_id, submission)
        row = _begin_write(db, match_id, version)
        position = _next_position(db, match_id)
        hand_id = _append(db, row, hand, position, now())
        _revise(db, hand_id, "add", hand, version + 1, submission)
    return version + 1


def saved_submission(db: Database, match_id: str, submission: str | None) -> int | None:
    """The hand (1-based; 0 if it has been undone since) saved in this match by ``submission``, if any."""
    if not submission:
        return None
    rows = list(
        _select(
            db,
            "select h.deleted, (select count(*) from hands l where l.match_id = h.match_id "
            "and l.deleted is null and l.position <= h.position) as number "
            "from hand_revisions r join hands h on h.id = r.hand_id where r.submission = ? and h.match_id = ?",
            [submission, match_id],
        )
    )
    if not rows:
        return None
    return 0 if rows[0]["deleted"] else rows[0]["number"]


def _refuse_a_second_copy(db: Database, match_id: str, submission: str | None) -> None:
    number = saved_submission(db, match_id, submission)
    if number is not None:
        raise AlreadySavedError(number)


def _append(db: Database, row: dict[str, Any], hand: canasta.Hand, position: int, created: str) -> int:
    """Score one more hand from the stored summary and store it with its figures; returns its id.

    Only this hand is checked and scored: the hands before it are summed up in the summary. A
    refused hand goes through the whole match once, so the refusal reads exactly as the core's.
    """
    variant = _variant(row)
    hand = _as_stored(hand)
    summary = _summary(db, row["id"])
    if summary.is_finished or canasta.check_hand(hand, variant):
        _refuse(db, row, [*(_hand(h) for h in _live_hands(db, row["id"])), hand])
    result = play_hand(variant, summary.played + 1, summary.totals, hand)
    after = standing(variant, result.totals, result.number)
    _set_finished(db, row, after)
    hand_id = (
        db.table("hands")
        .insert({"match_id": row["id"], "position": position, "data": _json(hand), "created": created})
        .last_pk
    )
    _insert_hand_figures(db, row["id"], [(hand_id, result)])
    _update_summary(db, row, variant, after, created)
    _add_to_sides(db, row["id"], after, result)
    return hand_id


def replace_hand(
    db: Database, match_id: str, number: int, hand: canasta.Hand, version: int, submission: str | None = None
) -> int:
    """Correct hand ``number``; later totals, minimums and game end follow. Returns the new version.

    The corrected hand is checked and scored from the stored totals before it; later hands keep
    their stored scores and only their totals and minimums move (arithmetic, no rescoring).

    :raises AlreadySavedError, StaleError, InvalidError, NotFoundError: as :func:`add_hand`, or for no such hand.
    """
    with writing(db):
        _refuse_a_second_copy(db, match_id, submission)
        row = _begin_write(db, match_id, version)
        figures = _figure_rows(db, match_id)
        if not 1 <= number <= len(figures):
            raise NotFoundError(f"{match_id} hand {number}")
        variant = _variant(row)
        before = _loads(figures[number - 2]["totals"]) if number > 1 else _start(row, variant)
        later = [_loads(f["scores"]) for f in figures[number:]]
        hand = _as_stored(hand)
        if canasta.check_hand(hand, variant):
            _refuse_with(db, row, number, hand)
        result, carried = correct(variant, before, number, hand, later)
        if ends_early(variant, number, result, carried):
            _refuse_with(db, row, number, hand)
        after = standing(variant, carried[-1][1] if carried else result.totals, len(figures))
        _set_finished(db, row, after)
        hand_id = figures[number - 1]["hand_id"]
        db.table("hands").update(hand_id, {"data": _json(hand)})
        db.execute("delete from hand_figures where hand_id = ?", [hand_id])
        _insert_hand_figures(db, match_id, [(hand_id, result)])
        for figure, (minimums, totals) in zip(figures[number:], carried, strict=True):
            if (_loads(figure["minimums"]), _loads(figure["totals"])) != (minimums, totals):
                db.execute(
                    "update hand_figures set minimums = ?, totals = ? where hand_id = ?",
                    [json.dumps(minimums), json.dumps(totals), figure["hand_id"]],
                )
        _update_summary(db, row, variant, after, figures[-1]["created"])
        _recount_sides(db, match_id, after)
        _revise(db, hand_id, "edit", hand, version + 1, submission)
    return version + 1


def correct(
    variant: canasta.Variant, before: Sequence[int], number: int, hand: canasta.Hand, later: list[tuple[int, ...]]
) -> tuple[canasta.HandResult, list[tuple[tuple[int, ...], tuple[int, ...]]]]:
    """Hand ``number`` scored from the totals ``before`` it, and the later hands' (minimums, totals)."""
    result = play_hand(variant, number, before, hand)
    return result, carry_forward(variant, result.totals, later)


def ends_early(
    variant: canasta.Variant, number: int, result: canasta.HandResult, carried: list[tuple[Any, tuple[int, ...]]]
) -> bool:
    """Would the game end before the last hand, once hand ``number`` reads ``result``?"""
    ends = [result.totals, *(totals for _, totals in carried)]
    return any(game_ends(variant, totals, number + i) for i, totals in enumerate(ends[:-1]))


def totals_before(db: Database, head: MatchHead, number: int) -> tuple[int, ...]:
    """The stored totals before hand ``number`` (1-based): the starting totals before hand 1."""
    if number > 1:
        rows = list(
            _select(db, "select totals from hand_figures where match_id = ? and number = ?", [head.id, number - 1])
        )
        if rows:
            return _loads(rows[0]["totals"])
    return head.starting_totals or (0,) * len(head.summary.totals)


def correction_ends_early(db: Database, head: MatchHead, number: int, hand: canasta.Hand) -> bool:
    """:func:`ends_early` for a correction to a stored match, from its stored figures."""
    figures = hand_figures(db, head.id)
    before = figures[number - 2].totals if number > 1 else head.starting_totals or (0,) * len(head.summary.totals)
    result, carried = correct(head.variant, before, number, hand, [f.scores for f in figures[number:]])
    return ends_early(head.variant, number, result, carried)


def _refuse_with(db: Database, row: dict[str, Any], number: int, hand: canasta.Hand) -> None:
    hands = [_hand(h) for h in _live_hands(db, row["id"])]
    hands[number - 1] = hand
    _refuse(db, row, hands)


def undo_last_hand(db: Database, match_id: str, version: int) -> int:
    """Remove the last hand (its revisions stay, and :func:`restore_last_hand` puts it back).

    Returns the number of the hand removed.

    :raises StaleError: when ``version`` is stale. :raises NotFoundError: when there is no hand.
    """
    with writing(db):
        row = _begin_write(db, match_id, version)
        figures = _figure_rows(db, match_id)
        if not figures:
            raise NotFoundError(f"{match_id} has no hands")
        variant = _variant(row)
        last = figures[-1]
        totals = _loads(figures[-2]["totals"]) if len(figures) > 1 else _start(row, variant)
        after = standing(variant, totals, len(figures) - 1)
        _set_finished(db, row, after)
        db.execute("delete from hand_figures where hand_id = ?", [last["hand_id"]])
        db.table("hands").update(last["hand_id"], {"deleted": now()})
        _update_summary(db, row, variant, after, figures[-2]["created"] if len(figures) > 1 else row["created"])
        _recount_sides(db, match_id, after)
        _revise(db, last["hand_id"], "delete", None, version + 1)
    return len(figures)


def undone_hand(db: Database, match_id: str) -> int | None:
    """The number the last undone hand would take back, if it can be put back."""
    row = _last_undone(db, match_id)
    return _summary(db, match_id).played + 1 if row else None


def _last_undone(db: Database, match_id: str) -> dict[str, Any] | None:
    rows = list(
        _select(
            db,
            "select * from hands where match_id = ? and deleted is not null and position > "
            "coalesce((select max(position) from hands where match_id = ? and deleted is null), -1) "
            "order by position desc limit 1",
            [match_id, match_id],
        )
    )
    return rows[0] if rows else None


def restore_last_hand(db: Database, match_id: str, version: int) -> int:
    """Put back the hand undone last; returns its number.

    :raises NotFoundError: when there is none. :raises StaleError, InvalidError: as :func:`add_hand`.
    """
    with writing(db):
        row = _begin_write(db, match_id, version)
        undone = _last_undone(db, match_id)
        if undone is None:
            raise NotFoundError(f"{match_id} has no undone hand")
        summary = _summary(db, match_id)
        variant = _variant(row)
        hand = _hand(undone)
        if summary.is_finished or canasta.check_hand(hand, variant):
            _refuse(db, row, [*(_hand(h) for h in _live_hands(db, match_id)), hand])
        result = play_hand(variant, summary.played + 1, summary.totals, hand)
        after = standing(variant, result.totals, result.number)
        _set_finished(db, row, after)
        db.table("hands").update(undone["id"], {"deleted": None})
        _insert_hand_figures(db, match_id, [(undone["id"], result)])
        _update_summary(db, row, variant, after, undone["created"])
        _add_to_sides(db, match_id, after, result)
        _revise(db, undone["id"], "restore", hand, version + 1)
    return result.number


def delete_match(db: Database, match_id: str, version: int) -> None:
    """Mark a match deleted; it stays restorable and nothing in it is removed."""
    with writing(db):
        _begin_write(db, match_id, version)
        db.table("matches").update(match_id, {"deleted": now()})
        _summary_version(db, match_id)


def restore_match(db: Database, match_id: str) -> None:
    """Bring a deleted match back.

    :raises NotFoundError: for an unknown id.
    """
    with writing(db):
        _match_row(db, match_id)
        db.execute(
            "update matches set deleted = null, version = version + 1, updated = ? where id = ?", [now(), match_id]
        )
        _summary_version(db, match_id)


def save_imported_match(db: Database, match: canasta.Match, info: MatchInfo, pending: str | None = None) -> bool:
    """Store a match read from a document under ``info.id``; False when that id exists already.

    ``info.origin`` (the id the match had in the file) is kept, so a re-import is recognised
    even when the id was replaced (see :func:`backups.plan_matches`). With ``pending`` (an
    import's id) the match stays out of sight until :func:`save_import` ends that import.
    """
    with writing(db):
        if list(_select(db, "select 1 from matches where id = ?", [info.id])):
            return False
        stamp = now()
        finished = info.finished or (stamp if match.is_finished else None)
        row = {
            "id": info.id,
            "watch_token": new_token(),
            "variant": match.variant.key,
            "options": json.dumps(match.variant.option_values()),
            "sides": json.dumps([side.to_dict() for side in info.sides]),
            "starting_totals": json.dumps(list(match.starting_totals)) if match.starting_totals else None,
            "title": info.title,
            "created": info.created or stamp,
            "updated": stamp,
            "finished": finished if match.is_finished else None,
            "version": 1,
            "origin": info.origin,
            "pending": pending,
        }
        _insert(db, "matches", tuple(row), [tuple(row.values())])
        hand_ids = []
        revisions = []
        for position, hand in enumerate(match.hands, start=1):
            data = _json(hand)
            sql = "insert into hands (match_id, position, data, created) values (?, ?, ?, ?)"
            hand_ids.append(db.conn.execute(sql, [info.id, position, data, stamp]).lastrowid)
            revisions.append((hand_ids[-1], 1, "import", data, 1, stamp))  # a new hand's first revision
        _insert(db, "hand_revisions", REVISION_COLUMNS, revisions)
        stored = canasta.Match(match.variant, tuple(_as_stored(h) for h in match.hands), match.starting_totals)
        _write_figures(db, _match_row(db, info.id, pending_too=True), stored, hand_ids)
    return True


def find_match(db: Database, match_id: str) -> tuple[canasta.Match, MatchInfo] | None:
    """A stored match (deleted ones too) with its info, or None when the id is free."""
    try:
        stored = get_match(db, match_id)
    except NotFoundError:
        return None
    return stored.match, stored.info


def matches_from(db: Database, file_id: str, viewer: Viewer = EVERY_MATCH) -> list[tuple[canasta.Match, MatchInfo]]:
    """Stored matches (deleted ones too) a file's match id may refer to: the match with that id,
    and every match ``viewer`` sees that was imported from a file where it had that id.

    The file holds the write link of the match with its own id, so that one is found whoever
    asks; a match stored under a replaced id is another browser's business unless it lists it.
    """
    seen, params = _visible_to(viewer)
    rows = _select(
        db,
        f"select * from matches where id = ? or (origin = ? and {seen}) order by id = ? desc",
        [file_id, file_id, *params, file_id],
    )
    return [(stored.match, stored.info) for stored in (_stored(db, row) for row in rows)]


def lookalikes(db: Database, pairs: Sequence[tuple[canasta.Match, MatchInfo]], viewer: Viewer = EVERY_MATCH) -> int:
    """How many of these matches look like one ``viewer`` sees under another id: same start and sides.

    A file whose ids were changed (edited, or exported again elsewhere) is not recognised as
    already here; the import page says so instead of adding copies silently. Only the viewer's
    own matches are compared: the answer must not tell a stranger what others stored.
    """
    seen, params = _visible_to(viewer)
    found = 0
    for _match, info in pairs:
        sides = json.dumps([side.to_dict() for side in info.sides])
        sql = f"select 1 from matches where created = ? and sides = ? and {seen} limit 1"
        if info.created and db.execute(sql, [info.created, sides, *params]).fetchone():
            found += 1
    return found


# An import is written a batch at a time, each batch a transaction of at most this long (or this
# many matches), so a phone saving a hand meanwhile waits a fraction of a second, not the import.
IMPORT_BATCH_SECONDS = 0.15
IMPORT_BATCH_MATCHES = 100
# Then it lets go of the lock this long. A waiting writer is no queue: SQLite's busy handler
# sleeps and tries again, every 50 to 100 ms once it has waited a while, and would miss a gap
# shorter than that again and again while the import takes the lock straight back.
IMPORT_PAUSE_SECONDS = 0.1
# The rows of an import that never ended (its process was killed) are removed this much later.
ABANDONED_IMPORT = timedelta(days=1)
# Every table with a row per match or per hand of a match, children first, for removing a failed import.
MATCH_TABLES = ("access", "match_players", "side_figures", "match_summaries", "hand_figures")


def save_import(
    db: Database,
    new: Sequence[tuple[canasta.Match, MatchInfo]],
    already: Sequence[tuple[canasta.Match, MatchInfo]] = (),
    progress: Progress | None = None,
    browser: str | None = None,
) -> int:
    """Write the new matches of a checked import; returns how many were added. All or nothing.

    The matches are written in short transactions (:data:`IMPORT_BATCH_SECONDS`), so saves from
    the tables go on meanwhile; each carries the import's id in ``pending``, which hides it from
    every list, page and sum. The last transaction clears that id, so every match of the file
    appears at once; if anything fails before, the rows written so far are deleted again.
    A match whose id was taken meanwhile is stored under a fresh id. With ``browser``, every
    match of the file (``new`` and ``already`` here) joins that browser's list.
    """
    _remove_abandoned_imports(db)
    import_id = f"{now()} {new_token()}"  # starts with its time: an abandoned one is found by age
    try:
        added = _save_pending(db, new, import_id, progress)
        with writing(db):
            if browser:
                db.execute(
                    "insert or ignore into access (browser, match_id, how, created) "
                    "select ?, id, 'imported', ? from matches where pending = ?",
                    [browser, now(), import_id],
                )
                for _, info in already:
                    grant_access(db, browser, info.id, "imported")
            db.execute("update matches set pending = null where pending = ?", [import_id])
    except BaseException:
        # When the database itself failed, the rows stay out of sight and a later import removes them.
        with suppress(Exception):
            _remove_pending(db, "pending = ?", [import_id])
        raise
    return added


def _save_pending(
    db: Database, new: Sequence[tuple[canasta.Match, MatchInfo]], import_id: str, progress: Progress | None
) -> int:
    """Write ``new`` out of sight under ``import_id``, a short transaction at a time; returns how many."""
    done = 0
    while done < len(new):
        deadline = time.monotonic() + IMPORT_BATCH_SECONDS
        with writing(db):
            for match, info in new[done : done + IMPORT_BATCH_MATCHES]:
                while not save_imported_match(db, match, info, pending=import_id):
                    info = replace(info, id=new_token())  # taken since the import was planned
                done += 1
                if progress:
                    progress(done, len(new))
                if time.monotonic() > deadline:
                    break
        if done < len(new):
            time.sleep(IMPORT_PAUSE_SECONDS)
    return done


def _remove_abandoned_imports(db: Database) -> None:
    """Delete what imports left half written a day ago or more (their process was killed)."""
    cutoff = (datetime.now(UTC) - ABANDONED_IMPORT).isoformat(timespec="seconds")
    _remove_pending(db, "pending < ?", [cutoff])


def _remove_pending(db: Database, condition: str, params: list[Any]) -> None:
    """Delete every row of the pending matches that meet ``condition``, in one transaction."""
    matches = f"select id from matches where pending is not null and {condition}"
    with writing(db):
        for table in MATCH_TABLES:
            db.execute(f"delete from {table} where match_id in ({matches})", params)
        db.execute(
            f"delete from hand_revisions where hand_id in (select id from hands where match_id in ({matches}))", params
        )
        db.execute(f"delete from hands where match_id in ({matches})", params)
        db.execute(f"delete from matches where pending is not null and {condition}", params)


# --- who sees what --------------------------------------------------------------------------
# A browser sees the matches it created, opened with the write link, or imported: one `access`
# row each. The organiser and the command line see every match (EVERY_MATCH).
def _visible_to(viewer: Viewer, column: str = "id") -> tuple[str, list[Any]]:
    """A WHERE condition on the match id ``column`` keeping what ``viewer`` sees, with its parameters.

    Nobody sees a match whose import has not finished (:func:`save_import`).
    """
    held = f"{column.removesuffix('id')}pending is null"
    if viewer.every_match:
        return held, []
    if viewer.browser is None:
        return "0", []
    return f"{held} and {column} in (select match_id from access where browser = ?)", [viewer.browser]


def has_access(db: Database, browser: str, match_id: str) -> bool:
    """Whether ``browser`` already lists this match."""
    return bool(list(_select(db, "select 1 from access where browser = ? and match_id = ?", [browser, match_id])))


def grant_access(db: Database, browser: str, match_id: str, how: str) -> None:
    """Add a match to a browser's list (``how``: created, opened, imported); nothing for an unknown id.

    An opened match's line is not worth waiting for the disk: every first visit to a match
    writes one, and a power cut that lost it loses nothing the link cannot give back by being
    opened again. Created and imported matches are part of their own durable writes.
    """
    with writing(db, durable=how != "opened"):
        db.execute(
            "insert or ignore into access (browser, match_id, how, created) "
            "select ?, id, ?, ? from matches where id = ?",
            [browser, how, now(), match_id],
        )


def count_unlisted(db: Database) -> int:
    """Matches no browser lists yet: stored before ownership existed, or imported on the command line."""
    rows = _select(
        db,
        "select count(*) as n from matches m where m.deleted is null and m.pending is null "
        "and not exists (select 1 from access a where a.match_id = m.id)",
    )
    return next(iter(rows))["n"]


# --- rebuilding the figures from the facts ---------------------------------------------------
def rescore(db: Database, progress: Progress | None = None, new_versions: bool = True) -> tuple[int, list[str]]:
    """Score every stored match (deleted ones too) again from its hands and rewrite its figures.

    Run after a scoring fix (:func:`fill_missing_figures` fills them in on upgrade). Each match rescored
    gets a new version (unless ``new_versions`` is False), so sheets cached by version or held by
    a phone are not taken for current. Returns how many matches were rescored and the ids of
    those today's rules refuse (their figures are left as they were).
    """
    ids = [row["id"] for row in _select(db, "select id from matches where pending is null order by created, id")]
    refused = []
    with writing(db):
        for done, match_id in enumerate(ids, start=1):
            if new_versions:
                db.execute("update matches set version = version + 1 where id = ?", [match_id])
            if not rescore_match(db, match_id):
                refused.append(match_id)
            if progress:
                progress(done, len(ids))
    return len(ids) - len(refused), refused


def fill_missing_figures(db: Database) -> int:
    """Score the matches that have no stored figures yet (stored before they existed); returns how many.

    Runs at every start, after the migrations; with nothing missing it is one indexed query.
    """
    rows = _select(
        db, "select id from matches m where not exists (select 1 from match_summaries s where s.match_id = m.id)"
    )
    missing = [row["id"] for row in rows]
    with writing(db):
        return sum(rescore_match(db, match_id) for match_id in missing)


def rescore_match(db: Database, match_id: str) -> bool:
    """Rewrite one match's figures from its hands; False (nothing written) when the core refuses it."""
    with writing(db):
        row = _match_row(db, match_id)
        live = _live_hands(db, match_id)
        match = canasta.Match(_variant(row), tuple(_hand(h) for h in live), _starting(row))
        if match.problems():
            return False
        _write_figures(db, row, match, [h["id"] for h in live])
        return True


def _write_figures(db: Database, row: dict[str, Any], match: canasta.Match, hand_ids: list[int]) -> None:
    """Replace every figure of a match with those of ``match`` (scored whole by the core)."""
    match_id = row["id"]
    for table in ("hand_figures", "side_figures", "match_players"):
        db.execute(f"delete from {table} where match_id = ?", [match_id])
    db.execute("delete from match_summaries where match_id = ?", [match_id])
    variant = match.variant
    _insert_hand_figures(db, match_id, list(zip(hand_ids, match.results, strict=True)))
    after = standing(variant, match.totals, len(match.results))
    last = list(
        _select(db, "select max(created) as last from hands where match_id = ? and deleted is null", [match_id])
    )
    _update_summary(db, row, variant, after, last[0]["last"] or row["created"])
    sides = json.loads(row["sides"])
    players = []
    for index, side in enumerate(sides):
        names = side["players"]
        for key in dict.fromkeys(search_key(name) for name in names):
            spelt = next(name for name in names if search_key(name) == key)
            players.append({"match_id": match_id, "side": index, "kind": "player", "key": key, "name": spelt})
        if len(names) >= 2:
            team = team_name(names)
            players.append({"match_id": match_id, "side": index, "kind": "team", "key": search_key(team), "name": team})
    db.table("match_players").insert_all(players)
    db.table("side_figures").insert_all(
        {"match_id": match_id, "side": index, "name": side["name"], "total": 0, "outcome": "playing",
         "hands": 0, "points": 0, "best_hand": None, "canastas": 0, "red_threes": 0}
        for index, side in enumerate(sides)
    )  # fmt: skip
    _recount_sides(db, match_id, after)


HAND_FIGURES = ("hand_id", "match_id", "number", "scores", "totals", "minimums", "canastas", "red_threes", "detail")
SUMMARY = (
    "match_id", "version", "variant_name", "hands", "totals", "next_minimums", "is_finished", "is_tie", "winner",
    "margin", "last_played", "names",
)  # fmt: skip


def _insert(db: Database, table: str, columns: Sequence[str], rows: list[Sequence[Any]], replace: bool = False) -> None:
    """Plain INSERT of known columns: sqlite-utils' insert and upsert inspect the schema on every call."""
    if rows:
        verb = "insert or replace" if replace else "insert"
        marks = ", ".join("?" * len(columns))
        db.conn.executemany(f"{verb} into {table} ({', '.join(columns)}) values ({marks})", rows)


def _insert_hand_figures(db: Database, match_id: str, scored: list[tuple[int, canasta.HandResult]]) -> None:
    rows = []
    for hand_id, result in scored:
        detail = {
            "breakdown": [side.to_dict() for side in result.sides],
            "warnings": [{"field": w.field, "message": w.message, "code": w.code} for w in result.warnings],
        }
        rows.append(
            (
                hand_id,
                match_id,
                result.number,
                json.dumps(result.scores),
                json.dumps(result.totals),
                json.dumps(result.minimums),
                json.dumps([entry.canasta_count for entry in result.hand.entries]),
                json.dumps([entry.red_threes for entry in result.hand.entries]),
                json.dumps(detail),
            )
        )
    _insert(db, "hand_figures", HAND_FIGURES, rows)


def _update_summary(
    db: Database, row: dict[str, Any], variant: canasta.Variant, after: Standing, last_played: str
) -> None:
    sides = json.loads(row["sides"])
    words = [row["title"] or "", *(s["name"] for s in sides), *(p for s in sides for p in s["players"])]
    values = (
        row["id"],
        row["version"],
        variant.name,
        after.played,
        json.dumps(after.totals),
        json.dumps(after.next_minimums),
        after.is_finished,
        after.is_tie,
        after.winner,
        after.margin,
        last_played,
        "\n".join(search_key(word) for word in words if word),
    )
    _insert(db, "match_summaries", SUMMARY, [values], replace=True)


def _summary_version(db: Database, match_id: str) -> None:
    db.execute(
        "update match_summaries set version = (select version from matches where id = ?) where match_id = ?",
        [match_id, match_id],
    )


def _outcome(after: Standing, side: int) -> str:
    if not after.is_finished:
        return "playing"
    if after.is_tie and after.totals[side] == max(after.totals):
        return "tie"
    return "won" if after.winner == side else "lost"


def _add_to_sides(db: Database, match_id: str, after: Standing, result: canasta.HandResult) -> None:
    """One more hand on each side's figures: counts and sums grow, the best hand may change."""
    for index, (score, entry) in enumerate(zip(result.scores, result.hand.entries, strict=True)):
        db.execute(
            "update side_figures set total = ?, outcome = ?, hands = hands + 1, points = points + ?, "
            "best_hand = max(coalesce(best_hand, ?), ?), canastas = canastas + ?, red_threes = red_threes + ? "
            "where match_id = ? and side = ?",
            [after.totals[index], _outcome(after, index), score, score, score, entry.canasta_count,
             entry.red_threes, match_id, index],
        )  # fmt: skip


def _recount_sides(db: Database, match_id: str, after: Standing) -> None:
    """Each side's figures summed again from the stored hand figures (no hand is rescored)."""
    sums: dict[int, list[Any]] = {index: [0, 0, None, 0, 0] for index in range(len(after.totals))}
    for row in _select(db, "select scores, canastas, red_threes from hand_figures where match_id = ?", [match_id]):
        for index, (score, canastas, threes) in enumerate(
            zip(_loads(row["scores"]), _loads(row["canastas"]), _loads(row["red_threes"]), strict=True)
        ):
            figures = sums[index]
            figures[0] += 1
            figures[1] += score
            figures[2] = score if figures[2] is None else max(figures[2], score)
            figures[3] += canastas
            figures[4] += threes
    for index, (hands, points, best, canastas, threes) in sums.items():
        db.execute(
            "update side_figures set total = ?, outcome = ?, hands = ?, points = ?, best_hand = ?, canastas = ?, "
            "red_threes = ? where match_id = ? and side = ?",
            [after.totals[index], _outcome(after, index), hands, points, best, canastas, threes, match_id, index],
        )


# --- helpers for writes ---------------------------------------------------------------------
def _begin_write(db: Database, match_id: str, version: int) -> dict[str, Any]:
    """Claim the next version of the match, or explain why this writer is stale."""
    cursor = db.execute(
        "update matches set version = version + 1, updated = ? "
        "where id = ? and version = ? and deleted is null and pending is null",
        [now(), match_id, version],
    )
    if cursor.rowcount == 1:
        row = _match_row(db, match_id)
        cached = list(_select(db, "select version from match_summaries where match_id = ?", [match_id]))
        if not cached or cached[0]["version"] != version:
            rescore_match(db, match_id)  # figures not written at this version: rebuild before building on them
        return row
    row = _match_row(db, match_id)
    if row["deleted"]:
        raise StaleError([DELETED_MEANWHILE], row["version"])
    raise StaleError(changes_since(db, row, version), row["version"])


def _summary(db: Database, match_id: str) -> Standing:
    rows = list(_select(db, "select * from match_summaries where match_id = ?", [match_id]))
    if not rows:
        raise NotFoundError(match_id)
    return _standing(rows[0])


def _figure_rows(db: Database, match_id: str) -> list[dict[str, Any]]:
    return list(
        _select(
            db,
            "select f.hand_id, f.number, f.scores, f.minimums, f.totals, h.created from hand_figures f "
            "join hands h on h.id = f.hand_id where f.match_id = ? order by f.number",
            [match_id],
        )
    )


def _start(row: dict[str, Any], variant: canasta.Variant) -> tuple[int, ...]:
    return _starting(row) or (0,) * variant.sides


def _refuse(db: Database, row: dict[str, Any], hands: list[canasta.Hand]) -> None:
    """Check the whole match as it would be: raises the core's InvalidError with every problem.

    Reached only when the quick check from stored figures found a problem, so a refusal reads
    exactly as it always has.
    """
    canasta.Match.validated(_variant(row), hands, _starting(row))
    raise RuntimeError(f"Match {row['id']}: the stored figures and the rules disagree; run `scorepad rescore`.")


def _set_finished(db: Database, row: dict[str, Any], after: Standing) -> None:
    """Record when the match finished (or that a correction reopened it)."""
    finished = (row["finished"] or now()) if after.is_finished else None
    if finished != row["finished"]:
        db.table("matches").update(row["id"], {"finished": finished})


def _next_position(db: Database, match_id: str) -> int:
    rows = list(_select(db, "select coalesce(max(position), 0) + 1 as next from hands where match_id = ?", [match_id]))
    return rows[0]["next"]


REVISION_COLUMNS = ("hand_id", "revision", "action", "data", "match_version", "created")


def _revise(
    db: Database,
    hand_id: int,
    action: str,
    hand: canasta.Hand | None,
    match_version: int,
    submission: str | None = None,
) -> None:
    rows = list(
        _select(db, "select coalesce(max(revision), 0) + 1 as next from hand_revisions where hand_id = ?", [hand_id])
    )
    db.table("hand_revisions").insert(
        {
            "hand_id": hand_id,
            "revision": rows[0]["next"],
            "action": action,
            "data": _json(hand) if hand else None,
            "match_version": match_version,
            "created": now(),
            "submission": submission or None,
        }
    )


def _hand(row: dict[str, Any]) -> canasta.Hand:
    return canasta.read_hand(json.loads(row["data"]))


def _json(hand: canasta.Hand) -> str:
    return json.dumps(hand.to_dict(), sort_keys=True)


def _as_stored(hand: canasta.Hand) -> canasta.Hand:
    """The hand as it reads back from its row, so its itemised figures list parts in that order."""
    return _hand({"data": _json(hand)})


# --- what changed meanwhile ----------------------------------------------------------------
# Core-style messages (``Text``: English as a ``str``, rendered in the page's language by the web
# layer), one whole sentence per kind of write so a translator never gets an English verb to fit in.
DELETED_MEANWHILE = t("This match was deleted meanwhile; restore it from the start page.")
CHANGED_MEANWHILE = t("Someone else changed this match meanwhile.")
WRITTEN_MEANWHILE: dict[str, Callable[..., Any]] = {
    "add": lambda **values: t("Someone else saved hand {number} meanwhile: {scores}.", **values),
    "edit": lambda **values: t("Someone else changed hand {number} meanwhile: {scores}.", **values),
    "restore": lambda **values: t("Someone else put back hand {number} meanwhile: {scores}.", **values),
    "import": lambda **values: t("Someone else imported hand {number} meanwhile: {scores}.", **values),
    "delete": lambda **values: t("Someone else removed hand {number} meanwhile: it scored {scores}.", **values),
}


def _score_list(items: list[Any]) -> Any:
    """Each side's figure (``We 1220, They 165``), joined by the list's comma pattern."""
    # Translators: the items of a list before its last two: {second} is the rest of the list.
    return fold(items, lambda first, rest: t("{first}, {second}", first=first, second=rest))


def changes_since(db: Database, row: dict[str, Any], version: int) -> list[str]:
    """Sentences naming each hand written after ``version``, with its scores before and after."""
    variant = _variant(row)
    names = [side["name"] for side in json.loads(row["sides"])]
    revisions = list(
        _select(
            db,
            "select r.*, h.position, (select count(*) from hands l where l.match_id = h.match_id "
            "and l.deleted is null and l.position < h.position) as before "
            "from hand_revisions r join hands h on h.id = r.hand_id "
            "where h.match_id = ? and r.match_version > ? order by r.match_version, r.id",
            [row["id"], version],
        )
    )
    changes = []
    for revision in revisions:
        number = revision["before"] + 1
        new = _scores(variant, revision["data"])
        previous = list(
            _select(
                db,
                "select data from hand_revisions where hand_id = ? and revision < ? and data is not null "
                "order by revision desc limit 1",
                [revision["hand_id"], revision["revision"]],
            )
        )
        old = _scores(variant, previous[0]["data"]) if previous else None
        if new and old and revision["action"] == "edit":
            scores = [
                t("{side} {before} → {after}", side=name, before=a, after=b)
                for name, a, b in zip(names, old, new, strict=False)
            ]
        else:
            scores = [
                t("{side} {score}", side=name, score=score)
                for name, score in zip(names, new or old or (), strict=False)
            ]
        if not scores:
            changes.append(t("Someone else changed hand {number} meanwhile.", number=number))
            continue
        # A hand that reads back (saved, changed, put back) says its scores now; a removed one (or
        # one that no longer scores) says what it scored.
        action = revision["action"] if new else "delete"
        say = WRITTEN_MEANWHILE.get(action, WRITTEN_MEANWHILE["edit"])
        changes.append(say(number=number, scores=_score_list(scores)))
    return changes or [CHANGED_MEANWHILE]


def _scores(variant: canasta.Variant, data: str | None) -> tuple[int, ...] | None:
    if not data:
        return None
    hand = canasta.Hand.from_dict(json.loads(data))
    if canasta.check_hand(hand, variant):
        return None
    return tuple(side.score for side in canasta.score_hand(hand, variant))


# --- the organiser's sign-in ------------------------------------------------------------------
@dataclass(frozen=True)
class SignInState:
    """Wrong passphrases in a row, when the next guess may be checked (epoch seconds), the
    generation of organiser sign-ins in force and that of known organiser devices."""

    failures: int
    next_try: float
    generation: int
    device_generation: int


def sign_in_state(db: Database) -> SignInState:
    row = db.execute(
        "select failures, next_try, generation, device_generation from organiser_sign_in where id = 1"
    ).fetchone()
    return SignInState(*row) if row else SignInState(0, 0.0, 1, 1)


def record_sign_in(db: Database, failures: int, next_try: float) -> None:
    """Keep the count of wrong passphrases in a row and when the next may be checked."""
    db.execute("update organiser_sign_in set failures = ?, next_try = ? where id = 1", [failures, next_try])


def forget_known_devices(db: Database) -> None:
    """Every device known to the organiser's sign-in waits like any other from now on."""
    db.execute("update organiser_sign_in set device_generation = device_generation + 1 where id = 1")


def end_organiser_sign_ins(db: Database) -> int:
    """Start a new generation of organiser sign-ins: every earlier one ends; returns the new one."""
    with writing(db):
        db.execute("update organiser_sign_in set generation = generation + 1 where id = 1")
        return sign_in_state(db).generation


def holds_matches(conn: Any) -> bool:
    """Whether the open SQLite connection ``conn`` is a scorepad database (it has the matches table)."""
    return bool(conn.execute("select 1 from sqlite_master where type = 'table' and name = 'matches'").fetchone())
