"""Matches as the pages read them: scored whole from their hands, or from stored figures only.

:class:`StoredMatch` is a match with every hand scored by the core (the hand pages, exports);
:class:`MatchHead` is a match without its hands, read with its stored summary in one query (the
score sheet, the hand form, the write views). Lists read :class:`MatchSummary` lines.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import cached_property
from typing import Any

from sqlite_utils import Database

from .. import canasta
from ..canasta.match import Standing, standing
from ..records import MatchInfo, Side
from .access import EVERY_MATCH, Viewer, visible_to
from .rows import (
    RESTORE_DAYS,
    NotFoundError,
    hand_histories,
    hand_of,
    info_of,
    live_hands,
    match_row,
    numbers,
    search_key,
    select_rows,
    standing_of,
    starting_of,
    undone_stack,
    variant_of,
)


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

    @property
    def variant(self) -> canasta.Variant:
        return self.match.variant

    @property
    def summary(self) -> Standing:
        """Where the match stands, as :class:`MatchHead` reads it from the stored summary."""
        return standing(self.match.variant, self.match.totals, len(self.match.hands))


@dataclass(frozen=True)
class MatchSummary:
    """A line of the match list: who, which variant, the totals and the state.

    Its sides and totals are read from the row's JSON when asked: a list whose lines are already drawn
    (kept by match and version) asks only for each line's id and version.
    """

    id: str
    title: str
    variant_name: str
    variant_key: str
    hands: int
    is_finished: bool
    winner: int | None
    created: str
    updated: str
    deleted: str | None
    is_tie: bool = False
    last_played: str = ""
    version: int = 0  # the match's version: what the list line shows changes only with it
    sides_json: str = field(default="[]", repr=False)  # the row's sides, as stored
    totals_json: str = field(default="[]", repr=False)  # the stored totals, read when a line is drawn

    @property
    def totals(self) -> tuple[int, ...]:
        return numbers(self.totals_json)

    @property
    def sides(self) -> tuple[Side, ...]:
        return tuple(Side(side["name"], tuple(side["players"])) for side in json.loads(self.sides_json))

    @property
    def side_names(self) -> tuple[str, ...]:
        return tuple(side["name"] for side in json.loads(self.sides_json))


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

    What the score sheet, the hand form and the write views need, read in one query. It
    answers the same questions as :class:`StoredMatch` (``id``, ``info``, ``version``,
    ``variant``, ``summary``, ...) without scoring a hand; only a page that needs the hands
    themselves reads the whole match.
    """

    info: MatchInfo
    version: int
    watch_token: str
    updated: str
    deleted: str | None
    variant_key: str
    options: str = field(repr=False)  # the house rules the match froze, as stored (JSON)
    starting_totals: tuple[int, ...] | None
    summary: Standing
    variant_name: str
    last_played: str

    @property
    def id(self) -> str:
        return self.info.id

    @cached_property
    def variant(self) -> canasta.Variant:
        """The rules the match is played by, made when first asked: the score sheet's figures
        are stored, so most sheet requests never ask (making them costs ~50 µs)."""
        return canasta.rules_for(self.variant_key, json.loads(self.options))


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


def stored_match(db: Database, row: dict[str, Any]) -> StoredMatch:
    hands = tuple(hand_of(hand) for hand in live_hands(db, row["id"]))
    match = canasta.Match(variant_of(row), hands, starting_of(row))
    info = replace(info_of(row), undone=undone_stack(db, row["id"]), history=hand_histories(db, row["id"]))
    return StoredMatch(match, info, row["version"], row["watch_token"], row["updated"], row["deleted"])


def get_match(db: Database, match_id: str) -> StoredMatch:
    """A match, deleted or not, with every hand scored by the core (the hand pages, exports).

    :raises NotFoundError: for an id that was never stored.
    """
    return stored_match(db, match_row(db, match_id))


def get_watched_match(db: Database, watch_token: str) -> StoredMatch:
    """The match a read-only link shows.

    :raises NotFoundError: for an unknown token or a deleted match.
    """
    rows = list(
        select_rows(
            db, "select * from matches where watch_token = ? and deleted is null and pending is null", [watch_token]
        )
    )
    if not rows:
        raise NotFoundError(watch_token)
    return stored_match(db, rows[0])


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
    seen, params = visible_to(viewer)
    rows = select_rows(db, f"select id from matches where deleted is null and {seen} order by created, id", params)
    return [row["id"] for row in rows]


# --- reading stored figures: no hand is rescored -----------------------------------------
HEAD_SQL = (
    "select m.*, s.variant_name, s.hands, s.totals, s.next_minimums, s.is_finished, s.is_tie, s.winner, "
    "s.margin, s.last_played from matches m join match_summaries s on s.match_id = m.id"
)


def _head(row: dict[str, Any]) -> MatchHead:
    return MatchHead(
        info=info_of(row),
        version=row["version"],
        watch_token=row["watch_token"],
        updated=row["updated"],
        deleted=row["deleted"],
        variant_key=row["variant"],
        options=row["options"],
        starting_totals=starting_of(row),
        summary=standing_of(row),
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
    return _head(dict(zip((column[0] for column in cursor.description), row, strict=True)))


def current_version(db: Database, match_id: str | None = None, watch_token: str | None = None) -> int:
    """The version of a live match, by id or by watch token: one indexed lookup, nothing else.

    :raises NotFoundError: for an unknown id or token, or a deleted match.
    """
    column, key = ("id", match_id) if match_id is not None else ("watch_token", watch_token)
    rows = list(
        select_rows(
            db, f"select version from matches where {column} = ? and deleted is null and pending is null", [key]
        )
    )
    if not rows:
        raise NotFoundError(key)
    return rows[0]["version"]


def hand_figures(db: Database, match_id: str) -> list[HandFigures]:
    """Every live hand's stored scores, minimums in force and totals after it, in order."""
    rows = select_rows(
        db, "select number, scores, minimums, totals from hand_figures where match_id = ? order by number", [match_id]
    )
    return [HandFigures(r["number"], numbers(r["scores"]), numbers(r["minimums"]), numbers(r["totals"])) for r in rows]


LIST_COLUMNS = (
    "m.id", "m.version", "m.title", "m.sides", "m.created", "m.updated", "m.deleted", "m.variant", "s.variant_name",
    "s.totals",
    "s.hands", "s.is_finished", "s.is_tie", "s.winner", "s.last_played",
)  # fmt: skip

LIST_SQL = f"select {', '.join(LIST_COLUMNS)} from matches m join match_summaries s on s.match_id = m.id"

_LIST_NAMES = tuple(column.partition(".")[2] for column in LIST_COLUMNS)


def _list_summaries(db: Database, sql: str, params: Sequence[Any]) -> list[MatchSummary]:
    """The summaries a list query (``LIST_SQL`` and its conditions) reads, a line per row."""
    return [_list_summary(dict(zip(_LIST_NAMES, values, strict=True))) for values in db.conn.execute(sql, params)]


def _list_summary(row: dict[str, Any]) -> MatchSummary:
    return MatchSummary(
        id=row["id"],
        title=row["title"] or "",
        variant_name=row["variant_name"],
        variant_key=row["variant"],
        sides_json=row["sides"],
        totals_json=row["totals"],
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
    seen, params = visible_to(viewer, "m.id")
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


def recently_deleted(
    db: Database, days: int = RESTORE_DAYS, limit: int = 50, viewer: Viewer = EVERY_MATCH
) -> list[MatchSummary]:
    """Matches ``viewer`` sees deleted within ``days``, which can still be restored from the home page."""
    since = (datetime.now(UTC) - timedelta(days=days)).isoformat(timespec="seconds")
    seen, params = visible_to(viewer, "m.id")
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
    return list(each_result_row(db, viewer))


def each_result_row(db: Database, viewer: Viewer = EVERY_MATCH) -> Iterator[ResultRow]:
    """:func:`result_rows` read as they are used, for a download of any length."""
    seen, params = visible_to(viewer, "m.id")
    rows = select_rows(db, f"{HEAD_SQL} where m.deleted is null and {seen} order by m.created, m.id", params)
    return (ResultRow(info_of(row), row["variant"], row["variant_name"], standing_of(row)) for row in rows)


def most_sides(db: Database, viewer: Viewer = EVERY_MATCH) -> int:
    """The largest number of sides among the matches ``viewer`` sees (2 when none)."""
    seen, params = visible_to(viewer, "id")
    sql = f"select max(json_array_length(sides)) as most from matches where deleted is null and {seen}"
    rows = select_rows(db, sql, params)
    return next(rows)["most"] or 2


def hand_revisions(db: Database, match_id: str, number: int) -> list[Revision]:
    """Every stored version of hand ``number`` (1-based), oldest first.

    :raises NotFoundError: when the match has no such hand.
    """
    hand_id = _hand_row(db, match_id, number)["id"]
    rows = select_rows(db, "select * from hand_revisions where hand_id = ? order by revision", [hand_id])
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
    hands = live_hands(db, match_id)
    if not 1 <= number <= len(hands):
        raise NotFoundError(f"{match_id} hand {number}")
    return hands[number - 1]


def totals_before(db: Database, head: MatchHead, number: int) -> tuple[int, ...]:
    """The stored totals before hand ``number`` (1-based): the starting totals before hand 1."""
    if number > 1:
        rows = list(
            select_rows(db, "select totals from hand_figures where match_id = ? and number = ?", [head.id, number - 1])
        )
        if rows:
            return numbers(rows[0]["totals"])
    return head.starting_totals or (0,) * len(head.summary.totals)
