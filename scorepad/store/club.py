"""Club nights' rows: events, entrants, rounds, tables, confirmations, adjustments, announcements.

The only module that knows the club night tables (as ``store`` is for matches); it turns rows
into small frozen records and :mod:`scorepad.club.core` objects and back. A table's match is an
ordinary scorepad match made by ``store.create_match``; here a table only holds its id, and the
results read its stored summary (the totals the sheet shows), so the standings follow every
saved hand and every correction without scoring anything again.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from sqlite_utils import Database

from ..club.core import Adjustment, EventSettings, Seating, Table, TableResult, hands_counted
from ..club.reading import ImportedNight
from . import imports
from .rows import NotFoundError, new_token, now, select_rows, writing

__all__ = ["NotFoundError", "StaleNightError", "new_token", "now", "writing"]  # the store's, shared

ORGANISER = "organiser"  # who made a correction when the organiser gave no name


@dataclass(frozen=True)
class Event:
    """One night: its addresses, the settings it was created with, and round 1's draw."""

    id: str
    standings_token: str
    settings: EventSettings
    seed: int
    draw: tuple[str, ...]
    version: int
    created: str
    origin: str = ""  # the id the night was first run under (itself, unless it was imported)
    in_season: bool = True

    @property
    def name(self) -> str:
        return self.settings.name


@dataclass(frozen=True)
class Entrant:
    """A pair or a player of the night, known by name; ``joined_round`` 1 unless they came late."""

    name: str
    players: tuple[str, ...]
    joined_round: int
    withdrawn: str | None = None


@dataclass(frozen=True)
class ClubTable:
    """One table of one round, with its match and what its sides said about the result."""

    id: int
    round: int
    number: int
    entrants: tuple[str | None, str | None]
    match_id: str | None
    confirmed: tuple[int | None, int | None]  # the match version each side confirmed
    disputed: str | None
    dispute_note: str
    accepted: str | None
    version: int | None = None  # the match's, from its summary
    totals: tuple[int, ...] | None = None
    hands: int = 0
    is_finished: bool = False
    no_show: str | None = None
    not_counted: int = 0  # hands saved after the round's time that the night's time rule leaves out
    card_side: int | None = None  # the side a phone holding only the table card confirmed
    every_hand: str | None = None  # the director's reason for counting every hand saved, past the time rule

    @property
    def is_bye(self) -> bool:
        return None in self.entrants

    @property
    def is_confirmed(self) -> bool:
        """Both sides confirmed the result as it stands now, or the director accepted it."""
        if self.accepted:
            return True
        return self.version is not None and self.confirmed == (self.version, self.version)


@dataclass(frozen=True)
class Round:
    """A round: seated, started (its clock from ``started`` to ``ends``), closed; and its tables."""

    number: int
    seated: str
    started: str | None
    ends: str | None
    closed: str | None
    tables: tuple[ClubTable, ...]

    @property
    def seating(self) -> Seating:
        return Seating(self.number, tuple(Table(table.number, table.entrants) for table in self.tables))


@dataclass(frozen=True)
class Note:
    """A correction's note or an announcement: what was said, when, and for corrections where."""

    text: str
    created: str
    round: int = 0
    table: int = 0
    by: str = ""


def _rows(db: Database, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
    return list(select_rows(db, sql, list(params)))


# --- one organiser action, checked against the night's version -----------------------------
# What an organiser's action changes that makes another laptop's older page wrong to act on:
# who plays, where they sit, which round runs. Notes (penalties, corrections, announcements)
# and the tables' own confirmations are told too but never refuse an action.
SEATING_CHANGES = frozenset(
    {"joined", "renamed", "removed", "withdrew", "back", "seated", "swapped", "started", "closed", "no_show",
     "accepted", "cut"}
)  # fmt: skip


@dataclass(frozen=True)
class NightChange:
    """One action on a night as its log keeps it: what (``joined``, ``seated`` …) and its details."""

    what: str
    detail: dict[str, Any] = field(default_factory=dict)
    created: str = ""
    version: int = 0


class StaleNightError(Exception):
    """The night changed since the organiser's page was rendered: ``changes`` says how (the pages word it)."""

    def __init__(self, changes: list[NightChange]):
        super().__init__(f"{len(changes)} changes meanwhile")
        self.changes = changes


@contextmanager
def acting(db: Database, event_id: str, seen: int | None) -> Iterator[Event]:
    """One organiser action: a write transaction that reads the night afresh and checks ``seen``.

    ``seen`` is the night's version the organiser's page showed (None when the request says
    none). The lock is held from the first read, so the action decides on the night as it is,
    and two actions from two laptops take turns; one whose page is older than a change to who
    plays, where or in which round (``SEATING_CHANGES``) is refused with those changes.

    :raises NotFoundError: for an unknown night.
    :raises StaleNightError: when the page is older than such a change.
    """
    with writing(db):
        event = get_event(db, event_id)
        if seen is not None and seen < event.version:
            meanwhile = [change for change in changes_since(db, event_id, seen) if change.what in SEATING_CHANGES]
            if meanwhile:
                raise StaleNightError(meanwhile)
        yield event


def record(db: Database, event_id: str, what: str, **detail: Any) -> None:
    """Log one change of the night (inside its action's transaction); the night's version moves on."""
    touch(db, event_id)
    version = _rows(db, "select version from club_events where id = ?", [event_id])[0]["version"]
    db.execute(
        "insert into club_changes (event_id, version, what, detail, created) values (?, ?, ?, ?, ?)",
        [event_id, version, what, json.dumps(detail, sort_keys=True), now()],
    )


def changes_since(db: Database, event_id: str, version: int) -> list[NightChange]:
    """What the log says happened to the night after ``version``, oldest first."""
    rows = _rows(db, "select * from club_changes where event_id = ? and version > ? order by id", [event_id, version])
    return [NightChange(r["what"], json.loads(r["detail"]), r["created"], r["version"]) for r in rows]


def changes(db: Database, event_id: str) -> list[NightChange]:
    """The night's whole log (the director's audit), oldest first."""
    return changes_since(db, event_id, 0)


# --- events -------------------------------------------------------------------------------
def create_event(db: Database, settings: EventSettings, origin: str | None = None) -> str:
    """Store a new night with its settings written out in full; returns its id.

    ``origin`` is the id an imported night was first run under (a new night's is its own id).
    """
    event_id, stamp = new_token(), now()
    with writing(db):
        db.table("club_events").insert(
            {
                "id": event_id,
                "standings_token": new_token(),
                "name": settings.name,
                "date": settings.date,
                "settings": json.dumps(settings.to_dict()),
                "seed": secrets.randbits(32),
                "draw": None,
                "created": stamp,
                "updated": stamp,
                "version": 1,
                "origin": origin or event_id,
            }
        )
    return event_id


def change_settings(db: Database, event_id: str, settings: EventSettings) -> None:
    """The organiser changed the plan for the rounds not seated yet (movement, number of rounds)."""
    with writing(db):
        db.execute("update club_events set settings = ? where id = ?", [json.dumps(settings.to_dict()), event_id])
        touch(db, event_id)


def _event(row: dict[str, Any]) -> Event:
    draw = tuple(json.loads(row["draw"])) if row["draw"] else ()
    settings = EventSettings.from_dict(json.loads(row["settings"]))
    return Event(
        row["id"], row["standings_token"], settings, row["seed"], draw, row["version"], row["created"],
        row["origin"] or row["id"], bool(row["in_season"]),
    )  # fmt: skip


def get_event(db: Database, event_id: str) -> Event:
    """:raises NotFoundError: for an unknown id."""
    rows = _rows(db, "select * from club_events where id = ?", [event_id])
    if not rows:
        raise NotFoundError(event_id)
    return _event(rows[0])


def watched_event(db: Database, token: str) -> Event:
    """The night a standings link shows. :raises NotFoundError: for an unknown token."""
    rows = _rows(db, "select * from club_events where standings_token = ?", [token])
    if not rows:
        raise NotFoundError(token)
    return _event(rows[0])


def list_events(db: Database) -> list[Event]:
    """Every night, newest first (the organiser's list; nobody else sees it)."""
    return [_event(row) for row in _rows(db, "select * from club_events order by date desc, created desc")]


def players_elsewhere(db: Database, event_id: str) -> list[str]:
    """Every player entered on the club's other nights, oldest night first: a pair's players, or a name alone."""
    rows = _rows(
        db,
        "select n.name, n.players from club_entrants n join club_events e on e.id = n.event_id"
        " where n.event_id != ? order by e.date, e.created, n.position",
        [event_id],
    )
    return [player for row in rows for player in (json.loads(row["players"]) or [row["name"]])]


def touch(db: Database, event_id: str) -> None:
    """Something of the night changed: its version moves on (the standings' ETag)."""
    db.execute("update club_events set version = version + 1, updated = ? where id = ?", [now(), event_id])


def event_version(db: Database, event_id: str) -> int:
    """The night's own version plus its matches' versions: what a standings page shows changes with it."""
    rows = _rows(
        db,
        "select e.version + coalesce((select sum(m.version) from club_tables t join matches m on m.id = t.match_id"
        " where t.event_id = e.id), 0) as v from club_events e where e.id = ?",
        [event_id],
    )
    if not rows:
        raise NotFoundError(event_id)
    return rows[0]["v"]


# The night's version and the end of its running round's clock, by the night's id or its standings link.
NIGHT_VERSION_SQL = """
select e.version + coalesce((select sum(m.version) from club_tables t join matches m on m.id = t.match_id
  where t.event_id = e.id), 0) as v,
  (select r.ends from club_rounds r where r.event_id = e.id and r.started is not null and r.closed is null
   order by r.number desc limit 1) as ends
from club_events e where e.{column} = ?
"""


def night_version(db: Database, *, event_id: str | None = None, standings_token: str | None = None) -> int:
    """What every screen of the night shows changes with this one number (a poll's ``since``, an ETag).

    The night's version and its matches' (:func:`event_version`), and, while a round's clock runs,
    the minutes left on it (a screen's clock moves once a minute, and "Late" comes with time).
    :raises NotFoundError: for an unknown night.
    """
    column, key = ("id", event_id) if event_id is not None else ("standings_token", standings_token)
    rows = _rows(db, NIGHT_VERSION_SQL.format(column=column), [key])
    if not rows:
        raise NotFoundError(key)
    return rows[0]["v"] * 1000 + clock_step(rows[0]["ends"], datetime.now(UTC))


def clock_step(ends: str | None, moment: datetime) -> int:
    """The clock as a screen shows it, as a number: 0 without a clock, 999 once time is up, else minutes left + 1.

    >>> clock_step(None, datetime(2026, 11, 26, 20, 0, tzinfo=UTC))
    0
    >>> [clock_step("2026-11-26T20:50:00+00:00", datetime(2026, 11, 26, 20, m, s, tzinfo=UTC)) for m, s in
    ...  ((0, 0), (1, 0), (49, 59), (50, 0))]
    [51, 50, 2, 999]
    """
    if not ends:
        return 0
    try:
        left = (datetime.fromisoformat(ends) - moment).total_seconds()
    except (TypeError, ValueError):
        return 0
    return 999 if left <= 0 else min(998, 1 + -(-int(left) // 60))


def set_draw(db: Database, event_id: str, order: Sequence[str]) -> None:
    db.execute("update club_events set draw = ? where id = ?", [json.dumps(list(order)), event_id])


# --- entrants -----------------------------------------------------------------------------
def entrants(db: Database, event_id: str) -> list[Entrant]:
    """The night's entrants in the order they were entered."""
    rows = _rows(db, "select * from club_entrants where event_id = ? order by position", [event_id])
    return [Entrant(r["name"], tuple(json.loads(r["players"])), r["joined_round"], r["withdrawn"]) for r in rows]


def add_entrant(db: Database, event_id: str, name: str, players: Sequence[str], joined_round: int = 1) -> None:
    """Enter a pair or a player; the caller has checked the name is new to the night."""
    with writing(db):
        position = _rows(db, "select count(*) as n from club_entrants where event_id = ?", [event_id])[0]["n"]
        db.table("club_entrants").insert(
            {
                "event_id": event_id,
                "name": name,
                "players": json.dumps(list(players)),
                "position": position + 1,
                "joined_round": joined_round,
                "created": now(),
            }
        )
        touch(db, event_id)


def withdraw(db: Database, event_id: str, name: str, back: bool = False) -> None:
    """An entrant leaves the night (seated no more; their later opponents get the bye), or comes ``back``."""
    with writing(db):
        stamp = None if back else now()
        db.execute("update club_entrants set withdrawn = ? where event_id = ? and name = ?", [stamp, event_id, name])
        touch(db, event_id)


def rename_entrant(db: Database, event_id: str, old: str, new: str) -> None:
    """An entrant who has not played yet is renamed everywhere the night names them (the caller checked both)."""
    with writing(db):
        db.execute("update club_entrants set name = ? where event_id = ? and name = ?", [new, event_id, old])
        for column in ("north_south", "east_west", "no_show"):
            db.execute(f"update club_tables set {column} = ? where event_id = ? and {column} = ?", [new, event_id, old])
        db.execute("update club_adjustments set entrant = ? where event_id = ? and entrant = ?", [new, event_id, old])
        draw = get_event(db, event_id).draw
        if old in draw:
            set_draw(db, event_id, [new if name == old else name for name in draw])
        touch(db, event_id)


def remove_entrant(db: Database, event_id: str, name: str) -> None:
    """An entrant who has not played is taken out of the night as if never entered (the caller re-seats)."""
    with writing(db):
        db.execute("delete from club_entrants where event_id = ? and name = ?", [event_id, name])
        db.execute("delete from club_adjustments where event_id = ? and entrant = ?", [event_id, name])
        draw = get_event(db, event_id).draw
        if name in draw:
            set_draw(db, event_id, [other for other in draw if other != name])
        touch(db, event_id)


def delete_event(db: Database, event_id: str) -> list[str]:
    """Remove a night and everything of it; returns its tables' matches (the caller deletes them as matches)."""
    with writing(db):
        matches = [r["match_id"] for r in _rows(db, "select match_id from club_tables where event_id = ?"
                                                " and match_id is not null", [event_id])]  # fmt: skip
        for table in ("club_changes", "club_announcements", "club_corrections", "club_adjustments",
                      "club_table_cards", "club_tables", "club_rounds", "club_entrants"):  # fmt: skip
            db.execute(f"delete from {table} where event_id = ?", [event_id])
        db.execute("delete from club_events where id = ?", [event_id])
    return matches


def set_in_season(db: Database, event_id: str, counted: bool) -> None:
    """Whether the night counts toward its season."""
    db.execute("update club_events set in_season = ? where id = ?", [int(counted), event_id])


# --- rounds and tables --------------------------------------------------------------------
TABLES_SQL = """
select t.*, s.version as match_version, s.totals, s.hands, s.is_finished
from club_tables t left join match_summaries s on s.match_id = t.match_id
where t.event_id = ? order by t.round, t.number
"""


def _table(row: dict[str, Any]) -> ClubTable:
    return ClubTable(
        id=row["id"],
        round=row["round"],
        number=row["number"],
        entrants=(row["north_south"], row["east_west"]),
        match_id=row["match_id"],
        confirmed=(row["confirmed_ns"], row["confirmed_ew"]),
        disputed=row["disputed"],
        dispute_note=row["dispute_note"] or "",
        accepted=row["accepted"],
        version=row["match_version"],
        totals=tuple(json.loads(row["totals"])) if row["totals"] else None,
        hands=row["hands"] or 0,
        is_finished=bool(row["is_finished"]),
        no_show=row["no_show"],
        card_side=row["card_side"],
        every_hand=row["every_hand"],
    )


# The first hand of each table's match played after its round's time ran out (few or none): played
# when its phone saved it, never later than it reached the server (a time before the round's start
# is simply on time).
LATE_HANDS_SQL = """
select h.match_id, min(f.number) as first_late
from club_tables t join club_rounds r on r.event_id = t.event_id and r.number = t.round
join hands h on h.match_id = t.match_id and h.deleted is null
join hand_figures f on f.hand_id = h.id
where t.event_id = ? and r.ends is not null and coalesce(h.played, h.created) > r.ends
group by h.match_id
"""


def rounds(db: Database, event_id: str, at_time: str = "finish_hand") -> list[Round]:
    """Every round seated so far with its tables and their matches' totals, in order.

    A table's totals follow the night's time rule (``at_time``): hands saved after its round's
    time beyond the one in progress (or that one too, when it is dropped) are not counted.
    """
    late = {row["match_id"]: hands_counted(at_time, row["first_late"]) for row in _rows(db, LATE_HANDS_SQL, [event_id])}
    tables: dict[int, list[ClubTable]] = {}
    for row in _rows(db, TABLES_SQL, [event_id]):
        table = _table(row)
        if table.match_id in late and late[table.match_id] < table.hands and not table.every_hand:
            table = _timed(db, table, late[table.match_id])
        tables.setdefault(row["round"], []).append(table)
    rows = _rows(db, "select * from club_rounds where event_id = ? order by number", [event_id])
    return [
        Round(r["number"], r["seated"], r["started"], r["ends"], r["closed"], tuple(tables.get(r["number"], ())))
        for r in rows
    ]


def _timed(db: Database, table: ClubTable, counted: int) -> ClubTable:
    """The table as its time rule counts it: the totals after its last counted hand."""
    found = _rows(db, "select totals from hand_figures where match_id = ? and number = ?", [table.match_id, counted])
    totals = tuple(json.loads(found[0]["totals"])) if found else tuple(0 for _ in table.totals or (0, 0))
    return replace(table, totals=totals, not_counted=table.hands - counted)


def save_seating(db: Database, event_id: str, seating: Seating) -> None:
    """Seat a round that has not started (again, after a late arrival or a swap)."""
    with writing(db):
        db.execute("delete from club_tables where event_id = ? and round = ?", [event_id, seating.round])
        db.table("club_rounds").upsert(
            {"event_id": event_id, "number": seating.round, "seated": now()}, pk=("event_id", "number")
        )
        db.table("club_tables").insert_all(
            {
                "event_id": event_id,
                "round": seating.round,
                "number": table.number,
                "north_south": table.entrants[0],
                "east_west": table.entrants[1],
            }
            for table in seating.tables
        )
        for table in seating.tables:
            ensure_card(db, event_id, table.number)
        touch(db, event_id)


def start_round(db: Database, event_id: str, number: int, ends: str | None, matches: dict[int, str]) -> None:
    """The round's clock starts; each played table gets its match (by table number)."""
    with writing(db):
        db.execute(
            "update club_rounds set started = ?, ends = ? where event_id = ? and number = ?",
            [now(), ends, event_id, number],
        )
        for table_number, match_id in matches.items():
            db.execute(
                "update club_tables set match_id = ? where event_id = ? and round = ? and number = ?",
                [match_id, event_id, number, table_number],
            )
        touch(db, event_id)


def close_round(db: Database, event_id: str, number: int) -> None:
    """The round is over: its tables' phones stop writing its matches."""
    with writing(db):
        db.execute("update club_rounds set closed = ? where event_id = ? and number = ?", [now(), event_id, number])
        touch(db, event_id)


def table_by_id(db: Database, event_id: str, table_id: int) -> ClubTable:
    """:raises NotFoundError: for a table of another night."""
    rows = _rows(db, TABLES_SQL.replace("order by", "and t.id = ? order by"), [event_id, table_id])
    if not rows:
        raise NotFoundError(table_id)
    return _table(rows[0])


def confirm(db: Database, table_id: int, side: int, version: int, by_card: bool = False) -> bool:
    """A side confirms the result as its match stands at ``version``; False when it cannot.

    ``by_card``: the phone is nobody's yet and holds only the table card, which confirms one side
    of its table: refused (False) once the card has confirmed the other side. Checked in the
    statement that writes, so two such phones at once cannot both pass.
    """
    column = ("confirmed_ns", "confirmed_ew")[side]
    card = ", card_side = ?" if by_card else ""
    guard = " and (card_side is null or card_side = ?)" if by_card else ""
    with writing(db):
        cursor = db.execute(
            f"update club_tables set {column} = ?, disputed = null{card} where id = ?{guard}",
            [version, *([side] if by_card else []), table_id, *([side] if by_card else [])],
        )
        if cursor.rowcount:
            _touch_table(db, table_id)
    return bool(cursor.rowcount)


def dispute(db: Database, table_id: int, note: str) -> None:
    """A side does not agree: the table goes to the director."""
    with writing(db):
        db.execute("update club_tables set disputed = ?, dispute_note = ? where id = ?", [now(), note, table_id])
        _touch_table(db, table_id)


def mark_no_show(db: Database, table_id: int, entrant: str | None) -> None:
    """An entrant never came to the table (they lose by the night's margin); None takes it back."""
    with writing(db):
        db.execute("update club_tables set no_show = ? where id = ?", [entrant, table_id])
        _touch_table(db, table_id)


def count_every_hand(db: Database, table_id: int, reason: str | None) -> None:
    """The director lets every hand saved at the table count, whatever the time rule says (None: the rule again)."""
    with writing(db):
        db.execute("update club_tables set every_hand = ? where id = ?", [reason, table_id])
        _touch_table(db, table_id)


def accept(db: Database, table_id: int) -> None:
    """The director settles the table's result as it stands (a dispute, or a table that cannot confirm)."""
    with writing(db):
        db.execute("update club_tables set accepted = ?, disputed = null where id = ?", [now(), table_id])
        _touch_table(db, table_id)


def _touch_table(db: Database, table_id: int) -> None:
    (row,) = _rows(db, "select event_id from club_tables where id = ?", [table_id])
    touch(db, row["event_id"])


# --- table cards --------------------------------------------------------------------------
def ensure_card(db: Database, event_id: str, number: int) -> str:
    """The table card's token for this table number, made the first time the table is seated."""
    rows = _rows(db, "select token from club_table_cards where event_id = ? and number = ?", [event_id, number])
    if rows:
        return rows[0]["token"]
    token = new_token()
    db.table("club_table_cards").insert({"token": token, "event_id": event_id, "number": number})
    return token


def cards(db: Database, event_id: str) -> dict[int, str]:
    """Every table card of the night: table number to token."""
    rows = _rows(db, "select number, token from club_table_cards where event_id = ? order by number", [event_id])
    return {row["number"]: row["token"] for row in rows}


def card(db: Database, token: str) -> tuple[str, int]:
    """The night and table number a table card leads to. :raises NotFoundError: for an unknown card."""
    rows = _rows(db, "select event_id, number from club_table_cards where token = ?", [token])
    if not rows:
        raise NotFoundError(token)
    return rows[0]["event_id"], rows[0]["number"]


@dataclass(frozen=True)
class MatchTable:
    """Where a match is played at a club night: the night's name and number of rounds, the
    round, the table's number and its table card's token (what the score sheet's banner says)."""

    event_name: str
    rounds: int
    round: int
    number: int
    token: str


# The night, round and table a match is played at, in one query (the score sheet asks it).
MATCH_TABLE_SQL = """
select e.name, e.settings, t.round, t.number, c.token from club_tables t
join club_table_cards c on c.event_id = t.event_id and c.number = t.number
join club_events e on e.id = t.event_id
where t.match_id = ?
"""


def table_of_match(db: Database, match_id: str) -> MatchTable | None:
    """The night, round and table a match is played at, and its table card; None for any other match."""
    rows = _rows(db, MATCH_TABLE_SQL, [match_id])
    if not rows:
        return None
    row = rows[0]
    # Settings are stored with every default written out (EventSettings.to_dict): ``rounds`` is there.
    rounds = json.loads(row["settings"])["rounds"]
    return MatchTable(row["name"], rounds, row["round"], row["number"], row["token"])


# --- results ------------------------------------------------------------------------------
def results(played: Sequence[Round]) -> list[TableResult]:
    """What each table of each started round reports, for the standings (a bye reports no totals).

    A table is finished once its match is, both sides confirmed it, the director accepted it,
    or its round closed; until then the standings are provisional. A dispute unsettles it (as the
    dashboard's *Disputed* says) until a side confirms again, the director accepts it or the round closes.
    """
    found = []
    for each in played:
        if each.started is None:
            continue
        for table in each.tables:
            if not any(table.entrants):
                continue  # both seats emptied by withdrawals
            if table.is_bye:
                found.append(TableResult(each.number, table.number, table.entrants))
            elif table.no_show is not None:
                found.append(TableResult(each.number, table.number, table.entrants, no_show=table.no_show))
            elif table.totals is not None and len(table.totals) == 2:
                settled = (table.is_finished or table.is_confirmed) and not table.disputed
                done = settled or each.closed is not None
                found.append(TableResult(each.number, table.number, table.entrants, table.totals, finished=done))
    return found


# --- adjustments, corrections, announcements ------------------------------------------------
def add_adjustment(db: Database, event_id: str, adjustment: Adjustment) -> None:
    with writing(db):
        db.table("club_adjustments").insert(
            {
                "event_id": event_id,
                "round": adjustment.round,
                "entrant": adjustment.entrant,
                "amount": adjustment.amount,
                "reason": adjustment.reason,
                "created": now(),
            }
        )
        touch(db, event_id)


def adjustments(db: Database, event_id: str) -> list[Adjustment]:
    rows = _rows(db, "select * from club_adjustments where event_id = ? order by id", [event_id])
    return [Adjustment(r["round"], r["entrant"], r["amount"], r["reason"]) for r in rows]


def add_correction(
    db: Database, event_id: str, round_number: int, table: int, reason: str, by: str = ORGANISER
) -> None:
    """Note why and by whom a table's hand was corrected (the hand itself is corrected on its sheet)."""
    with writing(db):
        db.table("club_corrections").insert(
            {
                "event_id": event_id,
                "round": round_number,
                "table_number": table,
                "reason": reason,
                "by": by or ORGANISER,
                "created": now(),
            }
        )
        touch(db, event_id)


def corrections(db: Database, event_id: str) -> list[Note]:
    rows = _rows(db, "select * from club_corrections where event_id = ? order by id", [event_id])
    return [Note(r["reason"], r["created"], r["round"], r["table_number"], r["by"]) for r in rows]


def announce(db: Database, event_id: str, text: str) -> None:
    with writing(db):
        db.table("club_announcements").insert({"event_id": event_id, "text": text, "created": now()})
        touch(db, event_id)


def announcements(db: Database, event_id: str) -> list[Note]:
    """The night's announcements, newest first."""
    rows = _rows(db, "select * from club_announcements where event_id = ? order by id desc", [event_id])
    return [Note(r["text"], r["created"]) for r in rows]


# --- a night read back from its export -----------------------------------------------------
def night_of_origin(db: Database, origin: str | None) -> str | None:
    """The night here that was first run as ``origin`` (itself, or an import of it), if any."""
    if not origin:
        return None
    rows = _rows(db, "select id from club_events where id = ? or origin = ? order by id = ? desc", [origin] * 3)
    return rows[0]["id"] if rows else None


def hand_times(db: Database, match_id: str) -> list[str]:
    """When each live hand of a match was played (its phone's save time), in order: the time rule's facts."""
    rows = _rows(
        db,
        "select coalesce(played, created) as t from hands where match_id = ? and deleted is null order by position",
        [match_id],
    )
    return [row["t"] for row in rows]


def adjustment_times(db: Database, event_id: str) -> list[str]:
    """When each adjustment was recorded, in the order of :func:`adjustments`."""
    return [r["created"] for r in _rows(db, "select created from club_adjustments where event_id = ? order by id",
                                        [event_id])]  # fmt: skip


def save_imported_night(
    db: Database, night: ImportedNight, matches: dict[tuple[int, int], tuple[Any, Any]]
) -> tuple[str, bool]:
    """Store an exported night with its tables' ``matches`` (by round and table number).

    Returns the night's id and whether it is new: a night already here (its ``origin``) is
    recognised and left as it is. The matches are written first, out of sight and a short
    transaction at a time (as a match import is, :mod:`.imports`), so saves from the tables go
    on; the night's own rows and the matches' coming into sight are the last transaction.
    """
    known = night_of_origin(db, night.origin)
    if known is not None:
        return known, False
    import_id = f"{now()} {new_token()}"
    try:
        match_ids = _save_pending_matches(db, night, matches, import_id)
        with writing(db):
            known = night_of_origin(db, night.origin)  # imported meanwhile from another laptop
            if known is not None:
                raise _AlreadyHere(known)
            event_id = _save_night_rows(db, night, match_ids)
            db.execute("update matches set pending = null where pending = ?", [import_id])
    except _AlreadyHere as here:
        _remove_pending(db, import_id)
        return here.event_id, False
    except BaseException:
        with suppress(Exception):
            _remove_pending(db, import_id)
        raise
    return event_id, True


class _AlreadyHere(Exception):
    def __init__(self, event_id: str):
        super().__init__(event_id)
        self.event_id = event_id


def _save_pending_matches(
    db: Database, night: ImportedNight, matches: dict[tuple[int, int], tuple[Any, Any]], import_id: str
) -> dict[tuple[int, int], str]:
    """Each table's match under a new id, hidden under ``import_id``, with its hands' saved times."""
    times = {(each.number, table.number): table.hand_times for each in night.rounds for table in each.tables}
    ids: dict[tuple[int, int], str] = {}
    keys = list(matches)
    done = 0
    while done < len(keys):
        deadline = time.monotonic() + imports.IMPORT_BATCH_SECONDS
        with writing(db):
            while done < len(keys) and time.monotonic() <= deadline:
                key = keys[done]
                match, info = matches[key]
                info = replace(info, id=new_token(), origin=info.id)
                while not imports.save_imported_match(db, match, info, pending=import_id):
                    info = replace(info, id=new_token())
                for position, stamp in enumerate(times.get(key, ()), start=1):
                    if stamp:
                        db.execute(
                            "update hands set created = ? where match_id = ? and position = ?",
                            [stamp, info.id, position],
                        )
                ids[key] = info.id
                done += 1
        if done < len(keys):
            time.sleep(imports.IMPORT_PAUSE_SECONDS)
    return ids


def _remove_pending(db: Database, import_id: str) -> None:
    imports._remove_pending(db, "pending = ?", [import_id])  # noqa: SLF001  (the store's own cleaner)


def _save_night_rows(db: Database, night: ImportedNight, match_ids: dict[tuple[int, int], str]) -> str:
    event_id = create_event(db, night.settings, night.origin)
    db.execute("update club_events set in_season = ? where id = ?", [int(night.in_season), event_id])
    if night.draw:
        set_draw(db, event_id, night.draw)
    for name, players, joined in night.entrants:
        add_entrant(db, event_id, name, players, joined)
    for name, stamp in (night.withdrawn or {}).items():
        db.execute("update club_entrants set withdrawn = ? where event_id = ? and name = ?", [stamp, event_id, name])
    for each in night.rounds:
        _save_imported_round(db, event_id, each, match_ids)
    for adjustment, stamp in zip(night.adjustments, _padded(night.adjusted, len(night.adjustments)), strict=True):
        add_adjustment(db, event_id, adjustment)
        _stamped(db, "club_adjustments", stamp)
    notes = _padded(night.notes_created, len(night.corrections))
    for (round_number, table, reason, by), stamp in zip(night.corrections, notes, strict=True):
        add_correction(db, event_id, round_number, table, reason, by)
        _stamped(db, "club_corrections", stamp)
    said = _padded(night.announced, len(night.announcements))
    for text, stamp in zip(reversed(night.announcements), reversed(said), strict=True):  # exported newest first
        announce(db, event_id, text)
        _stamped(db, "club_announcements", stamp)
    record(db, event_id, "imported")
    return event_id


def _padded(stamps: Sequence[str], count: int) -> list[str]:
    return [*stamps[:count], *[""] * (count - len(stamps))]


def _stamped(db: Database, table: str, stamp: str) -> None:
    """The row just inserted keeps the time the file gives it (when it gives one)."""
    if stamp:
        db.execute(f"update {table} set created = ? where id = last_insert_rowid()", [stamp])


def _save_imported_round(db: Database, event_id: str, each: Any, match_ids: dict[tuple[int, int], str]) -> None:
    save_seating(db, event_id, each.seating)
    db.execute(
        "update club_rounds set started = ?, ends = ?, closed = ? where event_id = ? and number = ?",
        [each.started, each.ends, each.closed, event_id, each.number],
    )
    for table in each.tables:
        match_id = match_ids.get((each.number, table.number))
        confirmed = [1 if mark and match_id else None for mark in table.confirmed]  # an imported match is at version 1
        db.execute(
            "update club_tables set match_id = ?, accepted = ?, disputed = ?, dispute_note = ?, no_show = ?,"
            " confirmed_ns = ?, confirmed_ew = ?, every_hand = ? where event_id = ? and round = ? and number = ?",
            [match_id, table.accepted, table.disputed, table.dispute_note or None, table.no_show, *confirmed,
             table.every_hand, event_id, each.number, table.number],
        )  # fmt: skip
