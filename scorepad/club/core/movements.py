"""Seating: who plays whom at which table, round by round (docs/clubnight.md "Seating").

A round's :class:`Seating` is its tables, each with a North-South and an East-West seat; an
empty seat (``None``) makes the table a bye for whoever sits at it. Entrants are named by
their ids (any text). Every function here is pure: the random draw takes the caller's
``random.Random``, so a stored seed gives the same draw again.

>>> first = seat_in_order(["A", "B", "C", "D", "E"])
>>> [table.entrants for table in first.tables]
[('A', 'B'), ('C', 'D'), (None, 'E')]
>>> [table.entrants for table in next_mitchell_round(first).tables]
[('A', 'E'), ('C', 'B'), (None, 'D')]
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from ...canasta import InvalidError, Violation
from ...canasta.text import Text, t, tn
from .settings import MOST_TABLES, EventSettings

MOST_ROUND_ROBIN = 10  # docs/clubnight.md "Seating": round robin "for up to 10 entrants"
SEARCH_STEPS = 20000  # how far the Swiss pairing looks for a way round every repeat


class MovementError(InvalidError):
    """A seating that cannot be made, with the reason."""

    def __init__(self, code: str, message: str, where: str = "entrants") -> None:
        super().__init__([Violation(code, message, where)])


@dataclass(frozen=True)
class Table:
    """One table of a round: North-South, then East-West; ``None`` is an empty seat."""

    number: int
    entrants: tuple[str | None, str | None]

    @property
    def is_bye(self) -> bool:
        """True when a seat is empty: whoever sits here does not play this round."""
        return None in self.entrants

    @property
    def seated(self) -> tuple[str, ...]:
        """The entrants at this table, without the empty seat."""
        return tuple(entrant for entrant in self.entrants if entrant is not None)


@dataclass(frozen=True)
class Seating:
    """Every table of one round, in table order."""

    round: int
    tables: tuple[Table, ...]

    @property
    def byes(self) -> tuple[str, ...]:
        """The entrants who sit out this round."""
        return tuple(entrant for table in self.tables if table.is_bye for entrant in table.seated)

    @property
    def entrants(self) -> tuple[str, ...]:
        """Everyone seated this round, table by table."""
        return tuple(entrant for table in self.tables for entrant in table.seated)

    def meetings(self) -> set[frozenset[str]]:
        """The pairs of entrants who play each other this round."""
        return {frozenset(table.entrants) for table in self.tables if not table.is_bye}

    def swapped(self, first: str, second: str) -> Seating:
        """The organiser's change before the round starts: two entrants change seats."""
        if not {first, second} <= set(self.entrants):
            raise MovementError("not-seated", t("Both entrants must be seated in this round to swap them."))
        swap = {first: second, second: first}
        return Seating(self.round, tuple(_reseated(table, swap) for table in self.tables))


def _reseated(table: Table, change: dict[str | None, str | None]) -> Table:
    north_south, east_west = (change.get(entrant, entrant) for entrant in table.entrants)
    return Table(table.number, (north_south, east_west))


def _check_entrants(entrants: Sequence[str], most: int = MOST_TABLES * 2) -> None:
    if len(set(entrants)) != len(entrants):
        raise MovementError("repeated-entrant", t("An entrant appears twice in the list."))
    if not 2 <= len(entrants) <= most:
        raise MovementError(
            "entrant-count",
            t("This seating needs from 2 to %(most)s entrants, not %(count)s.", most=most, count=len(entrants)),
        )


def random_draw(entrants: Iterable[str], rng: random.Random) -> list[str]:
    """The entrants shuffled by the caller's generator (docs/clubnight.md: `first_round`'s default).

    >>> random_draw(["A", "B", "C", "D"], random.Random(7)) == random_draw(["A", "B", "C", "D"], random.Random(7))
    True
    """
    order = list(entrants)
    rng.shuffle(order)
    return order


def seat_in_order(order: Sequence[str], round_number: int = 1) -> Seating:
    """Seat entrants two to a table in order; an odd one out sits East-West at a bye table after the others."""
    _check_entrants(order)
    tables = [Table(index // 2 + 1, (order[index], order[index + 1])) for index in range(0, len(order) - 1, 2)]
    if len(order) % 2:
        tables.append(Table(len(tables) + 1, (None, order[-1])))
    return Seating(round_number, tuple(tables))


def next_mitchell_round(previous: Seating) -> Seating:
    """Mitchell: North-South stay, East-West move up one table (the last table's go to table 1).

    An empty North-South seat (the bye table of an odd field) stays too, so each East-West
    entrant sits out once as they pass it; an empty East-West seat moves with its line.
    """
    tables = previous.tables
    moved = [
        Table(table.number, (table.entrants[0], tables[index - 1].entrants[1])) for index, table in enumerate(tables)
    ]
    return Seating(previous.round + 1, tuple(moved))


def _too_short(tables: int, rounds: int) -> Text:
    """A Mitchell of ``tables`` tables asked for more rounds (one table: "1 table gives 1 round")."""
    return tn(
        "A Mitchell of %(tables)s table gives %(tables)s round without a repeat, not %(rounds)s.",
        "A Mitchell of %(tables)s tables gives %(tables)s rounds without a repeat, not %(rounds)s.",
        tables,
        tables=tables,
        rounds=rounds,
    )


def _mitchell_long_enough(seating: Seating, rounds: int) -> None:
    if rounds > len(seating.tables):
        message = _too_short(len(seating.tables), rounds)
        raise MovementError("mitchell-too-short", message, "rounds")


def mitchell(first: Seating, rounds: int) -> list[Seating]:
    """The whole Mitchell from its first round: with N tables, N rounds and no repeat.

    :raises MovementError: for more rounds than tables, which would bring pairs together again.
    """
    _mitchell_long_enough(first, rounds)
    seatings = [first]
    while len(seatings) < rounds:
        seatings.append(next_mitchell_round(seatings[-1]))
    return seatings


def round_robin(order: Sequence[str], round_number: int) -> Seating:
    """Round ``round_number`` of the Berger tables for ``order`` (FIDE's circle, the last entrant fixed).

    An odd field adds an empty seat as the fixed entrant: who meets it has the bye, at the last table.
    """
    _check_entrants(order, MOST_ROUND_ROBIN)
    circle = [*order, None] if len(order) % 2 else list(order)
    size = len(circle)
    if not 1 <= round_number <= size - 1:
        message = t("A round robin of %(count)s entrants has rounds 1 to %(last)s.", count=len(order), last=size - 1)
        raise MovementError("no-such-round", message, "round")
    fixed, others = circle[-1], circle[:-1]
    start = ((round_number - 1) * (size // 2)) % (size - 1)
    turn = others[start:] + others[:start]
    games = [(turn[0], fixed) if round_number % 2 else (fixed, turn[0])]
    games += [(turn[index], turn[-index]) for index in range(1, size // 2)]
    games.sort(key=lambda game: None in game)  # the bye table last
    return Seating(round_number, tuple(Table(number, game) for number, game in enumerate(games, start=1)))


def swiss(
    ranked: Sequence[str],
    round_number: int,
    met: Collection[frozenset[str]] = (),
    had_bye: Collection[str] = (),
    repeats: bool = False,
) -> Seating:
    """Swiss (or, with ``repeats``, Danish): pair the standings top-down, 1 v 2, 3 v 4 ...

    Swiss swaps an entrant who has already met their opponent with the next one down, as far
    as that avoids every repeat (the first such pairing, reading top-down); when none does,
    the fewest swaps that keep the order are made and the repeat stays. In an odd field the
    lowest-ranked entrant without a bye yet sits out, at the last table.
    """
    _check_entrants(ranked)
    players = list(ranked)
    bye = None
    if len(players) % 2:
        bye = next((entrant for entrant in reversed(players) if entrant not in had_bye), players[-1])
        players.remove(bye)
    pairs = None if repeats else _pairing_without_repeats(players, set(met))
    if pairs is None:
        pairs = _pairing_greedy(players, set(met) if not repeats else set())
    tables = [Table(number, pair) for number, pair in enumerate(pairs, start=1)]
    if bye is not None:
        tables.append(Table(len(tables) + 1, (None, bye)))
    return Seating(round_number, tuple(tables))


def _pairing_without_repeats(players: list[str], met: set[frozenset[str]]) -> list[tuple[str, str]] | None:
    """The first top-down pairing with no repeat, or None when there is none (or it is too far to find)."""
    steps = [SEARCH_STEPS]

    def pair(rest: list[str]) -> list[tuple[str, str]] | None:
        if not rest:
            return []
        top = rest[0]
        for index in range(1, len(rest)):
            steps[0] -= 1
            if steps[0] < 0:
                return None
            if frozenset((top, rest[index])) in met:
                continue
            found = pair(rest[1:index] + rest[index + 1 :])
            if found is not None:
                return [(top, rest[index]), *found]
        return None

    return pair(players)


def _pairing_greedy(players: list[str], met: set[frozenset[str]]) -> list[tuple[str, str]]:
    """Top-down, each taking the highest opponent not met yet, or the next one down when all were met."""
    rest, pairs = list(players), []
    while rest:
        top = rest.pop(0)
        opponent = next((other for other in rest if frozenset((top, other)) not in met), rest[0])
        rest.remove(opponent)
        pairs.append((top, opponent))
    return pairs


def late_arrival(seating: Seating, entrant: str) -> Seating:
    """A late arrival, before the round starts: the empty seat of a bye table, or a new table of their own."""
    if entrant in seating.entrants:
        raise MovementError("already-seated", t("%(entrant)s is already seated in this round.", entrant=entrant))
    tables = list(seating.tables)
    for index, table in enumerate(tables):
        if table.is_bye and table.seated:
            seats = (entrant, table.entrants[1]) if table.entrants[0] is None else (table.entrants[0], entrant)
            tables[index] = Table(table.number, seats)
            return Seating(seating.round, tuple(tables))
    number = max((table.number for table in tables), default=0) + 1
    return Seating(seating.round, (*tables, Table(number, (entrant, None))))


def withdraw(seating: Seating, entrant: str) -> Seating:
    """A withdrawn entrant's seat is emptied: their opponent in this round gets the bye."""
    return Seating(seating.round, tuple(_reseated(table, {entrant: None}) for table in seating.tables))


def meetings(seatings: Iterable[Seating]) -> set[frozenset[str]]:
    """Every pair of entrants who have played each other in these rounds."""
    return {pair for seating in seatings for pair in seating.meetings()}


def plan_problems(settings: EventSettings, entrants: int, seated: Sequence[Seating] = ()) -> list[Violation]:
    """Why the night's movement cannot seat all its rounds for this field, each naming its setting; [] when it can.

    Checked when the night is created (no field yet: only what no field can mend), when the field
    changes, before round 1 is seated and when the organiser changes the plan, so that a night
    never runs into a round it cannot seat. ``seated`` are the rounds seated so far: a Mitchell's
    length is its first round's tables.

    >>> from .settings import EventSettings
    >>> [v.field for v in plan_problems(EventSettings("Club", "2026-11-26", rounds=4), 5)]
    ['rounds']
    >>> plan_problems(EventSettings("Club", "2026-11-26", rounds=3), 5)
    []
    >>> [v.code for v in plan_problems(EventSettings("Club", "2026-11-26", movement="round_robin"), 11)]
    ['round-robin-too-big']
    """
    rounds = settings.rounds
    if settings.movement == "round_robin":
        largest = MOST_ROUND_ROBIN - 1  # ten entrants meet in nine rounds
        if entrants > MOST_ROUND_ROBIN:
            message = t(
                "A round robin seats at most %(most)s entrants, not %(count)s: choose another movement.",
                most=MOST_ROUND_ROBIN,
                count=entrants,
            )
            return [Violation("round-robin-too-big", message, "movement")]
        if entrants >= 2:
            largest = entrants if entrants % 2 else entrants - 1
        if rounds > largest:
            message = t(
                "A round robin of %(count)s entrants has %(last)s rounds, not %(rounds)s.",
                count=entrants or MOST_ROUND_ROBIN,
                last=largest,
                rounds=rounds,
            )
            return [Violation("round-robin-too-long", message, "rounds")]
        return []
    if settings.movement == "mitchell" and entrants >= 2:
        tables = len(seated[0].tables) if seated else (entrants + 1) // 2
        if rounds > tables:
            message = _too_short(tables, rounds)
            return [Violation("mitchell-too-short", message, "rounds")]
    return []


def seat_first_round(settings: EventSettings, entrants: Sequence[str], rng: random.Random) -> Seating:
    """Round 1 as the event says: drawn at random or as entered; the round robin's round 1 of that order."""
    order = random_draw(entrants, rng) if settings.first_round == "random" else list(entrants)
    return round_robin(order, 1) if settings.movement == "round_robin" else seat_in_order(order)


def seat_next_round(settings: EventSettings, previous: Sequence[Seating], entrants: Sequence[str]) -> Seating:
    """The next round by the event's movement.

    ``entrants`` are the standings' order (best first) for Swiss and Danish, and the drawn
    order of round 1 for the round robin; Mitchell moves the last round's East-West line.
    """
    round_number = previous[-1].round + 1
    if settings.movement == "mitchell":
        _mitchell_long_enough(previous[0], len(previous) + 1)
        return next_mitchell_round(previous[-1])
    if settings.movement == "round_robin":
        return round_robin(entrants, round_number)
    had_bye = {entrant for seating in previous for entrant in seating.byes}
    return swiss(entrants, round_number, meetings(previous), had_bye, repeats=settings.movement == "danish")
