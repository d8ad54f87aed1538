"""Reading a club night's JSON export back: settings, entrants, rounds with each table's match, notes.

Pure functions over the parsed JSON (no database, no web): :func:`read_night` returns an
:class:`ImportedNight` or raises :class:`InvalidError` naming the field of each problem (the
first few: a broken file says so quickly). The caller stores it as a new night (``store.nights``)
with new ids for the night and its matches, so importing the same file twice makes two nights.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .canasta import InvalidError, Match, Violation
from .canasta.text import t
from .clubnight import Adjustment, EventSettings, Seating, Table
from .clubnight.settings import MOST_ROUNDS, MOST_TABLES
from .documents import MatchInfo, read_match_document

FORMAT = "scorepad-club-night"
FORMAT_VERSION = 1
MOST_NOTES = 1000
NAME = 100


@dataclass(frozen=True)
class ImportedTable:
    number: int
    entrants: tuple[str | None, str | None]
    match: tuple[Match, MatchInfo] | None
    accepted: str | None
    disputed: str | None


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


def _problem(where: str, message: Any) -> InvalidError:
    return InvalidError([Violation("bad-club-night", message, where)])


def _list(data: Mapping[str, Any], name: str, most: int) -> list[Any]:
    value = data.get(name, [])
    if not isinstance(value, list):
        raise _problem(name, t("{field} must be a list.", field=name))
    if len(value) > most:
        raise _problem(name, t("{field} holds more than {most} items.", field=name, most=most))
    return value


def _text(item: Any, where: str, most: int = NAME) -> str:
    if not isinstance(item, str) or not item.strip() or len(item) > most:
        raise _problem(where, t("{field} must be text of 1 to {most} characters.", field=where, most=most))
    return item.strip()


def _number(item: Any, where: str, low: int, high: int) -> int:
    if not isinstance(item, int) or isinstance(item, bool) or not low <= item <= high:
        raise _problem(
            where, t("{field} must be a whole number from {low} to {high}.", field=where, low=low, high=high)
        )
    return item


def _stamp(item: Any, where: str) -> str | None:
    return None if item is None else _text(item, where, 40)


def read_night(data: Any) -> ImportedNight:
    """The night a club night export holds. :raises InvalidError: naming the field of the first problem."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise _problem("format", t("This is not a club night export from scorepad."))
    if data.get("format_version") != FORMAT_VERSION:
        raise _problem("format_version", t("This club night export is of another version."))
    settings = EventSettings.from_dict(data.get("settings"))
    entrants = tuple(
        _entrant(item, f"entrants[{i}]") for i, item in enumerate(_list(data, "entrants", MOST_TABLES * 2))
    )
    names = {name for name, _players, _joined in entrants}
    if len(names) != len(entrants):
        raise _problem("entrants", t("Each entrant's name appears once."))
    rounds = tuple(_round(item, f"rounds[{i}]", names) for i, item in enumerate(_list(data, "rounds", MOST_ROUNDS)))
    if [each.number for each in rounds] != list(range(1, len(rounds) + 1)):
        raise _problem("rounds", t("The rounds are numbered 1, 2, 3 … in order."))
    adjustments = tuple(
        _adjustment(item, f"adjustments[{i}]", names) for i, item in enumerate(_list(data, "adjustments", MOST_NOTES))
    )
    corrections = tuple(
        (_number(item.get("round"), f"corrections[{i}].round", 1, MOST_ROUNDS),
         _number(item.get("table"), f"corrections[{i}].table", 1, MOST_TABLES),
         _text(item.get("text"), f"corrections[{i}].text", 500),
         _text(item.get("by", "organiser"), f"corrections[{i}].by"))
        for i, item in enumerate(_objects(_list(data, "corrections", MOST_NOTES), "corrections"))
    )  # fmt: skip
    announcements = tuple(
        _text(item.get("text"), f"announcements[{i}].text", 500)
        for i, item in enumerate(_objects(_list(data, "announcements", MOST_NOTES), "announcements"))
    )
    draw = tuple(_text(name, f"draw[{i}]") for i, name in enumerate(_list(data, "draw", MOST_TABLES * 2)))
    return ImportedNight(settings, entrants, rounds, adjustments, corrections, announcements, draw)


def _objects(items: list[Any], where: str) -> list[Mapping[str, Any]]:
    for index, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise _problem(f"{where}[{index}]", t("{field} must be an object.", field=f"{where}[{index}]"))
    return items


def _entrant(item: Any, where: str) -> tuple[str, tuple[str, ...], int]:
    if not isinstance(item, Mapping):
        raise _problem(where, t("{field} must be an object.", field=where))
    players = item.get("players", [])
    if not isinstance(players, list) or len(players) > 6:
        raise _problem(f"{where}.players", t("{field} must be a list.", field=f"{where}.players"))
    return (
        _text(item.get("name"), f"{where}.name"),
        tuple(_text(player, f"{where}.players[{i}]") for i, player in enumerate(players)),
        _number(item.get("joined_round", 1), f"{where}.joined_round", 1, MOST_ROUNDS),
    )


def _round(item: Any, where: str, names: set[str]) -> ImportedRound:
    if not isinstance(item, Mapping):
        raise _problem(where, t("{field} must be an object.", field=where))
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
        if name is not None and name not in names:
            raise _problem(f"{where}.{seat}", t("{field} names no entrant of the night.", field=f"{where}.{seat}"))
        seats.append(name)
    match = item.get("match")
    return ImportedTable(
        _number(item.get("number"), f"{where}.number", 1, MOST_TABLES),
        (seats[0], seats[1]),
        None if match is None else read_match_document(match, f"{where}.match"),
        _stamp(item.get("accepted"), f"{where}.accepted"),
        _stamp(item.get("disputed"), f"{where}.disputed"),
    )


def _adjustment(item: Any, where: str, names: set[str]) -> Adjustment:
    if not isinstance(item, Mapping):
        raise _problem(where, t("{field} must be an object.", field=where))
    entrant = item.get("entrant")
    if entrant not in names:
        raise _problem(f"{where}.entrant", t("{field} names no entrant of the night.", field=f"{where}.entrant"))
    return Adjustment(
        _number(item.get("round"), f"{where}.round", 1, MOST_ROUNDS),
        entrant,
        _number(item.get("amount"), f"{where}.amount", -1000, 1000),
        _text(item.get("reason"), f"{where}.reason", 500),
    )
