"""What every part of the store shares: its errors, write transactions, and reading rows.

Every write is one transaction (:func:`writing`); the readers here turn a match's row and its
hands' rows into the core's objects and the store's records.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlite_utils import Database

from .. import canasta
from ..canasta.match import Standing
from ..records import MatchInfo, Side

# A commit is on disk before it returns (SQLite's default): every connection starts so
# (``db.connect``), and :func:`writing` returns to it after a write that need not wait.
SYNCHRONOUS = "FULL"
RESTORE_DAYS = 30  # a deleted match is offered for restoring this long

Progress = Callable[[int, int], None]  # (done, of) for long imports


class NotFoundError(LookupError):
    """No match (or hand) at this id; the pages answer 404."""


class AlreadySavedError(Exception):
    """This very save (its form's submission key) is stored already; ``number`` is its hand, 0 if undone since."""

    def __init__(self, number: int):
        super().__init__(f"hand {number} was already saved")
        self.number = number


class LockedError(Exception):
    """Only the organiser writes this match now: it is a club night table's, and its round is
    closed (any write), or the write would delete it (``deleting``), which only the organiser does
    to a table's match at any time."""

    def __init__(self, match_id: str, deleting: bool = False):
        super().__init__(f"{match_id} is the organiser's to {'delete' if deleting else 'write'}")
        self.deleting = deleting


@dataclass(frozen=True)
class Change:
    """A write to a hand since a writer's version: what was done (``add``, ``edit``, ``restore``,
    ``import`` or ``delete``, as its revision says), the hand's number, the sides' names, and the
    hand's scores before the write and after it (None when there are none, or today's rules no
    longer score that version)."""

    action: str
    number: int
    sides: tuple[str, ...]
    before: tuple[int, ...] | None
    after: tuple[int, ...] | None


class StaleError(Exception):
    """The match changed since the page was rendered: ``changes`` says how, ``deleted`` that the
    match itself was deleted; the pages word it (``meanwhile.sentences``)."""

    def __init__(self, changes: list[Change], version: int, deleted: bool = False):
        super().__init__("the match was deleted meanwhile" if deleted else f"{len(changes)} writes meanwhile")
        self.changes = changes
        self.version = version
        self.deleted = deleted


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


def read_snapshot(db: Database) -> bool:
    """Begin a read transaction, so that every read until it ends sees one moment of the database;
    returns whether one was begun (False inside a transaction already). End it with ``rollback``.

    In WAL mode a reader blocks no writer: saves go on while a long download reads its snapshot.
    """
    if db.conn.in_transaction:
        return False
    db.execute("BEGIN")
    return True


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
def select_rows(db: Database, sql: str, params: Sequence[Any] = ()) -> Iterator[dict[str, Any]]:
    """The rows of a SELECT as dicts, fetched lazily, like ``db.query`` without its guard.

    sqlite-utils wraps every ``query`` in a savepoint so that a statement which turns out to
    write can be rolled back; every statement here is a plain SELECT, and three statements for
    one lookup cost more than the rest of a watcher's poll.
    """
    cursor = db.conn.execute(sql, params)
    keys = [column[0] for column in cursor.description]
    return (dict(zip(keys, row, strict=True)) for row in cursor)


def match_row(db: Database, match_id: str, pending_too: bool = False) -> dict[str, Any]:
    """A match's row; one whose import has not finished is found only ``pending_too``."""
    held = "" if pending_too else " and pending is null"
    rows = list(select_rows(db, f"select * from matches where id = ?{held}", [match_id]))
    if not rows:
        raise NotFoundError(match_id)
    return rows[0]


def live_hands(db: Database, match_id: str) -> list[dict[str, Any]]:
    """A match's hands that are not undone, in the order played."""
    return list(
        select_rows(db, "select * from hands where match_id = ? and deleted is null order by position", [match_id])
    )


def undone_stack(db: Database, match_id: str) -> tuple[dict[str, Any], ...]:
    """The hands Put back can still bring back, the one undone last first, as the core's hand objects."""
    rows = select_rows(
        db,
        "select data from hands where match_id = ? and deleted is not null and undone is not null and position > "
        "coalesce((select max(position) from hands where match_id = ? and deleted is null), -1) "
        "order by undone desc, position",
        [match_id, match_id],
    )
    return tuple(json.loads(row["data"]) for row in rows)


def hand_histories(db: Database, match_id: str) -> tuple[tuple[dict[str, Any], ...], ...]:
    """Every version of each hand on the sheet, in order, oldest version first (a hand's page lists them)."""
    rows = select_rows(
        db,
        "select r.hand_id, r.action, r.created, r.data from hand_revisions r join hands h on h.id = r.hand_id "
        "where h.match_id = ? and h.deleted is null order by h.position, r.revision",
        [match_id],
    )
    histories: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        hand = json.loads(row["data"]) if row["data"] else None
        histories.setdefault(row["hand_id"], []).append(
            {"action": row["action"], "created": row["created"], "hand": hand}
        )
    return kept_histories([tuple(history) for history in histories.values()])


def kept_histories(histories: list[tuple[dict[str, Any], ...]]) -> tuple[tuple[dict[str, Any], ...], ...]:
    """What a match keeps of its hands' histories: those of more than one version (a hand entered
    once has nothing to show), and nothing at all when no hand has one."""
    kept = tuple(history if len(history) > 1 else () for history in histories)
    return kept if any(kept) else ()


def variant_of(row: dict[str, Any]) -> canasta.Variant:
    """The rules a match row is played by: its preset with every option value it froze."""
    return canasta.rules_for(row["variant"], json.loads(row["options"]))


def starting_of(row: dict[str, Any]) -> tuple[int, ...] | None:
    """A match row's starting totals, None when it started from zero."""
    return tuple(json.loads(row["starting_totals"])) if row["starting_totals"] else None


def info_of(row: dict[str, Any]) -> MatchInfo:
    """What a match row knows beyond its rules and hands."""
    return MatchInfo(
        id=row["id"],
        sides=tuple(Side(side["name"], tuple(side["players"])) for side in json.loads(row["sides"])),
        created=row["created"],
        finished=row["finished"],
        title=row["title"] or "",
    )


def numbers(text: str | None) -> tuple[int, ...]:
    """A stored JSON list of figures (scores, totals, minimums) as a tuple; none for NULL."""
    return tuple(json.loads(text)) if text else ()


def standing_of(row: dict[str, Any]) -> Standing:
    """Where a match stands, from its stored summary's columns."""
    return Standing(
        totals=numbers(row["totals"]),
        played=row["hands"],
        next_minimums=numbers(row["next_minimums"]),
        is_finished=bool(row["is_finished"]),
        is_tie=bool(row["is_tie"]),
        winner=row["winner"],
        margin=row["margin"],
    )


def search_key(text: str) -> str:
    """How names are compared: case folded, spaces trimmed."""
    return " ".join(text.split()).casefold()


def insert_rows(
    db: Database, table: str, columns: Sequence[str], rows: list[Sequence[Any]], replace: bool = False
) -> None:
    """Plain INSERT of known columns: sqlite-utils' insert and upsert inspect the schema on every call."""
    if rows:
        verb = "insert or replace" if replace else "insert"
        marks = ", ".join("?" * len(columns))
        db.conn.executemany(f"{verb} into {table} ({', '.join(columns)}) values ({marks})", rows)


def hand_of(row: dict[str, Any]) -> canasta.Hand:
    """A hand read back from its row (or a revision's): the one place the store parses a hand."""
    return canasta.read_hand(json.loads(row["data"]))


def hand_json(hand: canasta.Hand) -> str:
    """A hand as its row stores it."""
    return json.dumps(hand.to_dict(), sort_keys=True)


def as_stored(hand: canasta.Hand) -> canasta.Hand:
    """The hand as it reads back from its row, so its itemised figures list parts in that order."""
    return hand_of({"data": hand_json(hand)})


def holds_matches(conn: Any) -> bool:
    """Whether the open SQLite connection ``conn`` is a scorepad database (it has the matches table)."""
    return bool(conn.execute("select 1 from sqlite_master where type = 'table' and name = 'matches'").fetchone())
