"""Reading a club night's JSON export back: settings, entrants, rounds with each table's match, notes.

Pure functions over the parsed JSON (no database, no web): :func:`read_night` returns an
:class:`ImportedNight` or raises :class:`InvalidError` naming the field of each problem (the
first few: a broken file says so quickly). The caller stores it (``store.club``) with new ids for
its matches; the night's ``id`` is kept as its origin, so a night already here is recognised.

Everything is checked before anything is stored: every field's type, every text (no control
character, lone surrogate or blank name) and every time (ISO 8601 with its offset), and the
shape of the night (rounds in order, the last one alone not started, each entrant seated once
in a round, a match only at a table with two entrants), so no page of an accepted night fails.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ..canasta import InvalidError, Match, Violation
from ..canasta.text import t
from ..documents import is_well_formed_id, read_match_document, unreadable, unreadable_fields
from ..records import MatchInfo
from .core import Adjustment, EventSettings, Seating, Table
from .core.settings import MOST_ROUNDS, MOST_TABLES

FORMAT = "scorepad-club-night"
FORMAT_VERSION = 1
MOST_NOTES = 1000
NAME = 100
MOST_HANDS = 1000


@dataclass(frozen=True)
class ImportedTable:
    number: int
    entrants: tuple[str | None, str | None]
    match: tuple[Match, MatchInfo] | None
    accepted: str | None
    disputed: str | None
    no_show: str | None = None
    confirmed: tuple[bool, bool] = (False, False)  # each side confirmed the result as it stands
    dispute_note: str = ""
    hand_times: tuple[str, ...] = ()  # when each hand of its match was saved, in order
    every_hand: str | None = None  # the director's reason for counting every hand, past the time rule


@dataclass(frozen=True)
class ImportedRound:
    number: int
    started: str | None
    ends: str | None
    closed: str | None
    tables: tuple[ImportedTable, ...]

    @property
    def seating(self) -> Seating:
        return Seating(self.number, tuple(Table(table.number, table.entrants) for table in self.tables))


@dataclass(frozen=True)
class ImportedNight:
    settings: EventSettings
    entrants: tuple[tuple[str, tuple[str, ...], int], ...]  # name, players, the round they joined
    rounds: tuple[ImportedRound, ...]
    adjustments: tuple[Adjustment, ...]
    corrections: tuple[tuple[int, int, str, str], ...]  # round, table, reason, who made it
    announcements: tuple[str, ...]
    draw: tuple[str, ...] = ()  # round 1's order, which a round robin seats every round from
    origin: str | None = None  # the night's id where it was first run
    withdrawn: dict[str, str] | None = None  # entrant: when they left
    in_season: bool = True
    announced: tuple[str, ...] = ()  # when each announcement was made, as ``announcements``
    notes_created: tuple[str, ...] = ()  # when each correction was noted, as ``corrections``
    adjusted: tuple[str, ...] = ()  # when each adjustment was recorded, as ``adjustments``


def _problem(where: str, message: Any) -> InvalidError:
    return InvalidError([Violation("bad-club-night", message, where)])


def _list(data: Mapping[str, Any], name: str, most: int) -> list[Any]:
    value = data.get(name, [])
    if not isinstance(value, list):
        raise _problem(name, t("%(field)s must be a list.", field=name))
    if len(value) > most:
        raise _problem(name, t("%(field)s holds more than %(most)s items.", field=name, most=most))
    return value


def _text(item: Any, where: str, most: int = NAME) -> str:
    if not isinstance(item, str) or not item.strip() or len(item) > most:
        raise _problem(where, t("%(field)s must be text of 1 to %(most)s characters.", field=where, most=most))
    return item.strip()


def _name(item: Any, where: str) -> str:
    """An entrant's or a player's name: one line of text, as the forms take it (inner spaces folded)."""
    return " ".join(_text(item, where).split())


def _number(item: Any, where: str, low: int, high: int) -> int:
    if not isinstance(item, int) or isinstance(item, bool) or not low <= item <= high:
        raise _problem(
            where, t("%(field)s must be a whole number from %(low)s to %(high)s.", field=where, low=low, high=high)
        )
    return item


def _stamp(item: Any, where: str) -> str | None:
    """A time as the store writes it: ISO 8601 with its offset, kept in UTC to the second."""
    if item is None:
        return None
    problem = _problem(where, t("%(field)s must be a time such as 2026-11-26T19:30:00+00:00.", field=where))
    if not isinstance(item, str) or len(item) > 40:
        raise problem
    try:
        moment = datetime.fromisoformat(item)
    except ValueError:
        raise problem from None
    if moment.tzinfo is None or not 2000 <= moment.year <= 9998:
        raise problem
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def _flag(item: Any, where: str) -> bool:
    if not isinstance(item, bool):
        raise _problem(where, t("%(field)s must be true or false.", field=where))
    return item


def read_night(data: Any) -> ImportedNight:
    """The night a club night export holds. :raises InvalidError: naming the field of the first problem."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise _problem("format", t("This is not a club night export from scorepad."))
    if data.get("format_version") != FORMAT_VERSION:
        raise _problem("format_version", t("This club night export is of another version."))
    unreadable_ones = list(unreadable_fields(data))
    if unreadable_ones:
        raise InvalidError([unreadable(where) for where in unreadable_ones[:5]])
    settings = EventSettings.from_dict(data.get("settings"))
    entrants = tuple(
        _entrant(item, f"entrants[{i}]") for i, item in enumerate(_list(data, "entrants", MOST_TABLES * 2))
    )
    names = {name for name, _players, _joined in entrants}
    if len(names) != len(entrants):
        raise _problem("entrants", t("Each entrant's name appears once."))
    rounds = tuple(_round(item, f"rounds[{i}]", names) for i, item in enumerate(_list(data, "rounds", MOST_ROUNDS)))
    adjustments, corrections, announcements = _notes(data, names)
    draw = tuple(_name(name, f"draw[{i}]") for i, name in enumerate(_list(data, "draw", MOST_TABLES * 2)))
    if not set(draw) <= names or len(set(draw)) != len(draw):
        raise _problem("draw", t("%(field)s names each entrant of the night at most once.", field="draw"))
    _check_shape(settings, rounds, names)
    notes = _objects(_list(data, "corrections", MOST_NOTES), "corrections")
    said = _objects(_list(data, "announcements", MOST_NOTES), "announcements")
    penalties = _objects(_list(data, "adjustments", MOST_NOTES), "adjustments")
    return ImportedNight(
        settings, entrants, rounds, adjustments, corrections, announcements, draw,
        origin=_origin(data.get("id")),
        withdrawn=_withdrawn(data, names),
        in_season=_flag(data.get("in_season", True), "in_season"),
        announced=_created(said, "announcements"),
        notes_created=_created(notes, "corrections"),
        adjusted=_created(penalties, "adjustments"),
    )  # fmt: skip


def _created(items: list[Mapping[str, Any]], where: str) -> tuple[str, ...]:
    """When each note was made ("" where the file does not say)."""
    return tuple(_stamp(item.get("created"), f"{where}[{i}].created") or "" for i, item in enumerate(items))


def _notes(
    data: Mapping[str, Any], names: set[str]
) -> tuple[tuple[Adjustment, ...], tuple[tuple[int, int, str, str], ...], tuple[str, ...]]:
    """The director's adjustments, corrections and announcements."""
    adjustments = tuple(
        _adjustment(item, f"adjustments[{i}]", names) for i, item in enumerate(_list(data, "adjustments", MOST_NOTES))
    )
    corrections = tuple(
        (_number(item.get("round"), f"corrections[{i}].round", 1, MOST_ROUNDS),
         _number(item.get("table"), f"corrections[{i}].table", 1, MOST_TABLES),
         _text(item.get("text"), f"corrections[{i}].text", 500),
         _name(item.get("by", "organiser"), f"corrections[{i}].by"))
        for i, item in enumerate(_objects(_list(data, "corrections", MOST_NOTES), "corrections"))
    )  # fmt: skip
    announcements = tuple(
        _text(item.get("text"), f"announcements[{i}].text", 500)
        for i, item in enumerate(_objects(_list(data, "announcements", MOST_NOTES), "announcements"))
    )
    return adjustments, corrections, announcements


def _origin(item: Any) -> str | None:
    """The night's id in the file: kept only when it is one scorepad made (32 hex digits)."""
    if item is None:
        return None
    if not isinstance(item, str) or not is_well_formed_id(item):
        raise _problem("id", t("%(field)s must be a night's id as scorepad writes it.", field="id"))
    return item


def _withdrawn(data: Mapping[str, Any], names: set[str]) -> dict[str, str]:
    found = {}
    for i, item in enumerate(_objects(_list(data, "entrants", MOST_TABLES * 2), "entrants")):
        stamp = _stamp(item.get("withdrawn"), f"entrants[{i}].withdrawn")
        if stamp is not None:
            found[_name(item.get("name"), f"entrants[{i}].name")] = stamp
    return found


def _check_shape(settings: EventSettings, rounds: tuple[ImportedRound, ...], names: set[str]) -> None:
    """What the pages take for granted of a night: rounds in order, each seated as a night seats them."""
    if [each.number for each in rounds] != list(range(1, len(rounds) + 1)):
        raise _problem("rounds", t("The rounds are numbered 1, 2, 3 … in order."))
    if len(rounds) > settings.rounds:
        raise _problem("rounds", t("%(field)s holds more rounds than the night's settings.", field="rounds"))
    for i, each in enumerate(rounds):
        _check_round(each, f"rounds[{i}]", is_last=i == len(rounds) - 1)


def _check_round(each: ImportedRound, where: str, is_last: bool) -> None:
    """A round started unless it is the last, closed only once started, each table and entrant once."""
    if each.started is None and not is_last:
        raise _problem(f"{where}.started", t("%(field)s: only the last round may be not started.", field=where))
    if each.closed is not None and each.started is None:
        raise _problem(f"{where}.closed", t("%(field)s: a round is closed only once started.", field=where))
    numbers = [table.number for table in each.tables]
    if len(set(numbers)) != len(numbers):
        raise _problem(f"{where}.tables", t("%(field)s: each table number appears once.", field=where))
    seated = [name for table in each.tables for name in table.entrants if name is not None]
    if len(set(seated)) != len(seated):
        raise _problem(f"{where}.tables", t("%(field)s: each entrant sits at one table.", field=where))
    for j, table in enumerate(each.tables):
        _check_table(table, each.started is not None, f"{where}.tables[{j}]")


def _check_table(table: ImportedTable, started: bool, at: str) -> None:
    """A match only at a started round's table of two, a no-show of one of its entrants, no more times than hands."""
    if table.match is not None and (not started or None in table.entrants):
        raise _problem(f"{at}.match", t("%(field)s: only a started round's table of two has a match.", field=at))
    if table.no_show is not None and table.no_show not in table.entrants:
        raise _problem(f"{at}.no_show", t("%(field)s names no entrant of the night.", field=f"{at}.no_show"))
    if len(table.hand_times) > (len(table.match[0].hands) if table.match else 0):
        raise _problem(f"{at}.hand_times", t("%(field)s holds more times than hands.", field=f"{at}.hand_times"))


def _objects(items: list[Any], where: str) -> list[Mapping[str, Any]]:
    for index, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise _problem(f"{where}[{index}]", t("%(field)s must be an object.", field=f"{where}[{index}]"))
    return items


def _entrant(item: Any, where: str) -> tuple[str, tuple[str, ...], int]:
    if not isinstance(item, Mapping):
        raise _problem(where, t("%(field)s must be an object.", field=where))
    players = item.get("players", [])
    if not isinstance(players, list) or len(players) > 6:
        raise _problem(f"{where}.players", t("%(field)s must be a list.", field=f"{where}.players"))
    return (
        _name(item.get("name"), f"{where}.name"),
        tuple(_name(player, f"{where}.players[{i}]") for i, player in enumerate(players)),
        _number(item.get("joined_round", 1), f"{where}.joined_round", 1, MOST_ROUNDS),
    )


def _round(item: Any, where: str, names: set[str]) -> ImportedRound:
    if not isinstance(item, Mapping):
        raise _problem(where, t("%(field)s must be an object.", field=where))
    tables = _objects(_list(item, "tables", MOST_TABLES), f"{where}.tables")
    return ImportedRound(
        _number(item.get("number"), f"{where}.number", 1, MOST_ROUNDS),
        _stamp(item.get("started"), f"{where}.started"),
        _stamp(item.get("ends"), f"{where}.ends"),
        _stamp(item.get("closed"), f"{where}.closed"),
        tuple(_table(table, f"{where}.tables[{i}]", names) for i, table in enumerate(tables)),
    )


def _table(item: Mapping[str, Any], where: str, names: set[str]) -> ImportedTable:
    seats = []
    for seat in ("north_south", "east_west"):
        name = item.get(seat)
        if name is not None and (not isinstance(name, str) or name not in names):
            raise _problem(f"{where}.{seat}", t("%(field)s names no entrant of the night.", field=f"{where}.{seat}"))
        seats.append(name)
    match = item.get("match")
    no_show = item.get("no_show")
    if no_show is not None and not isinstance(no_show, str):
        raise _problem(f"{where}.no_show", t("%(field)s names no entrant of the night.", field=f"{where}.no_show"))
    confirmed = item.get("confirmed", [False, False])
    if not isinstance(confirmed, list) or len(confirmed) != 2:
        raise _problem(f"{where}.confirmed", t("%(field)s must be a list.", field=f"{where}.confirmed"))
    times = _list(item, "hand_times", MOST_HANDS)
    return ImportedTable(
        _number(item.get("number"), f"{where}.number", 1, MOST_TABLES),
        (seats[0], seats[1]),
        None if match is None else read_match_document(match, f"{where}.match"),
        _stamp(item.get("accepted"), f"{where}.accepted"),
        _stamp(item.get("disputed"), f"{where}.disputed"),
        no_show=no_show,
        confirmed=tuple(_flag(mark, f"{where}.confirmed[{k}]") for k, mark in enumerate(confirmed)),
        dispute_note=_note(item.get("dispute_note"), f"{where}.dispute_note"),
        every_hand=_note(item.get("every_hand"), f"{where}.every_hand") or None,
        hand_times=tuple(_stamp(stamp, f"{where}.hand_times[{k}]") or "" for k, stamp in enumerate(times)),
    )


def _note(item: Any, where: str) -> str:
    """A free note that may be empty (a dispute's)."""
    if item is None or item == "":
        return ""
    return _text(item, where, 500)


def _adjustment(item: Any, where: str, names: set[str]) -> Adjustment:
    if not isinstance(item, Mapping):
        raise _problem(where, t("%(field)s must be an object.", field=where))
    entrant = item.get("entrant")
    if not isinstance(entrant, str) or entrant not in names:  # a list or an object is no name (and unhashable)
        raise _problem(f"{where}.entrant", t("%(field)s names no entrant of the night.", field=f"{where}.entrant"))
    return Adjustment(
        _number(item.get("round"), f"{where}.round", 1, MOST_ROUNDS),
        entrant,
        _number(item.get("amount"), f"{where}.amount", -1000, 1000),
        _text(item.get("reason"), f"{where}.reason", 500),
    )
