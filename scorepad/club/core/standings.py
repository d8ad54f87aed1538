"""Standings: each entrant's total over the rounds, tie-breaks in the event's order, shared places.

docs/clubnight.md "Standings": ranked by the round scores summed (with the organiser's penalties
and adjustments), then, to break a tie, by the event's tie-breaks in order (by default
matches won, the sum of point differences, the result between the tied entrants if they all
met); entrants still level share the place. While a table is still playing, the standings
are provisional.

>>> from .rounds import TableResult
>>> from .settings import EventSettings
>>> night = standings(["A", "B"], [TableResult(1, 1, ("A", "B"), (2500, 2500))], EventSettings("Club", "2026-11-26"))
>>> [(row.place, row.entrant, row.score) for row in night.rows]
[('=1', 'A', 10), ('=1', 'B', 10)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ...canasta.text import Text, t
from .rounds import PLAYED, Adjustment, RoundScore, TableResult, score_rounds
from .settings import EventSettings

PROVISIONAL = t("Provisional: a table is still playing.")


@dataclass(frozen=True)
class Standing:
    """One entrant's line: rank (shared or not), total and what the tie-breaks read, and their history."""

    rank: int
    shared: bool
    entrant: str
    score: int
    matches_won: int
    point_balance: int
    points_won: int
    rounds: tuple[RoundScore, ...]
    adjustments: tuple[Adjustment, ...]
    tie_break: str | None  # the tie-break that placed them among entrants level on score

    @property
    def place(self) -> str:
        """The place as a results sheet prints it: ``3``, or ``=3`` when shared."""
        return f"={self.rank}" if self.shared else str(self.rank)


@dataclass(frozen=True)
class Standings:
    """The ranked lines, best first; ``provisional`` while any table of a round is still playing."""

    rows: tuple[Standing, ...]
    provisional: bool

    @property
    def notice(self) -> Text | None:
        """What the standings screen says above provisional standings."""
        return PROVISIONAL if self.provisional else None

    @property
    def ranked(self) -> list[str]:
        """The entrants best first: what a Swiss or Danish round is paired from."""
        return [row.entrant for row in self.rows]

    def of(self, entrant: str) -> Standing:
        """One entrant's line.

        :raises KeyError: for an entrant who is not in the standings.
        """
        for row in self.rows:
            if row.entrant == entrant:
                return row
        raise KeyError(entrant)

    def top(self, count: int) -> tuple[Standing, ...]:
        """The final table's entrants: places 1 to ``count``; a place shared across the cut brings them all."""
        return tuple(row for row in self.rows if row.rank <= count)

    def round_results(self, round_number: int) -> list[RoundScore]:
        """One round's results, table by table, North-South first."""
        scores = [score for row in self.rows for score in row.rounds if score.round == round_number]
        return sorted(scores, key=lambda score: (score.table, score.opponent is None, score.kind))


@dataclass
class _Tally:
    entrant: str
    rounds: list[RoundScore]
    adjustments: list[Adjustment]

    @property
    def score(self) -> int:
        return sum(score.score for score in self.rounds) + sum(adjustment.amount for adjustment in self.adjustments)

    @property
    def matches_won(self) -> int:
        return sum(score.won for score in self.rounds)

    @property
    def point_balance(self) -> int:
        return sum(score.balance for score in self.rounds)

    @property
    def points_won(self) -> int:
        return sum(score.points_for for score in self.rounds)


def _head_to_head(group: Sequence[_Tally]) -> Callable[[_Tally], int]:
    """The score each tied entrant made against the others of the group, when every two of them played."""
    names = {tally.entrant for tally in group}
    met = {
        frozenset((score.entrant, score.opponent))
        for tally in group
        for score in tally.rounds
        if score.kind == PLAYED and score.opponent in names
    }
    if len(met) < len(group) * (len(group) - 1) // 2:
        return lambda tally: 0  # not all of them met: the result between them cannot decide
    return lambda tally: sum(s.score for s in tally.rounds if s.opponent in names and s.kind == PLAYED)


KEYS: dict[str, Callable[[Sequence[_Tally]], Callable[[_Tally], int]]] = {
    "matches_won": lambda group: lambda tally: tally.matches_won,
    "point_balance": lambda group: lambda tally: tally.point_balance,
    "points_won": lambda group: lambda tally: tally.points_won,
    "head_to_head": _head_to_head,
}


def _ordered(group: list[_Tally], keys: Sequence[str], decided: dict[str, str]) -> list[list[_Tally]]:
    """The group split into places, best first, by the first key that separates it, then the next."""
    if len(group) == 1 or not keys:
        return [group]
    value = KEYS[keys[0]](group)
    by_value: dict[int, list[_Tally]] = {}
    for tally in group:
        by_value.setdefault(value(tally), []).append(tally)
    if len(by_value) == 1:
        return _ordered(group, keys[1:], decided)
    places = []
    for _, level in sorted(by_value.items(), reverse=True):
        for tally in level:
            decided[tally.entrant] = keys[0]
        places += _ordered(level, keys[1:], decided)
    return places


def standings(
    entrants: Iterable[str],
    results: Iterable[TableResult],
    settings: EventSettings,
    adjustments: Iterable[Adjustment] = (),
) -> Standings:
    """The standings after these results: every entrant listed, those who have not played yet at 0."""
    results = list(results)
    tallies: dict[str, _Tally] = {entrant: _Tally(entrant, [], []) for entrant in entrants}
    for score in score_rounds(results, settings):
        tallies.setdefault(score.entrant, _Tally(score.entrant, [], [])).rounds.append(score)
    for adjustment in adjustments:
        tallies.setdefault(adjustment.entrant, _Tally(adjustment.entrant, [], [])).adjustments.append(adjustment)
    by_score: dict[int, list[_Tally]] = {}
    for tally in tallies.values():
        by_score.setdefault(tally.score, []).append(tally)
    decided: dict[str, str] = {}
    places = [
        place
        for _, level in sorted(by_score.items(), reverse=True)
        for place in _ordered(level, settings.tie_breaks, decided)
    ]
    rows, rank = [], 1
    for place in places:
        for tally in sorted(place, key=lambda tally: tally.entrant):
            rows.append(_row(tally, rank, len(place) > 1, decided.get(tally.entrant)))
        rank += len(place)
    return Standings(tuple(rows), provisional=any(not result.finished for result in results))


def _row(tally: _Tally, rank: int, shared: bool, tie_break: str | None) -> Standing:
    return Standing(
        rank=rank,
        shared=shared,
        entrant=tally.entrant,
        score=tally.score,
        matches_won=tally.matches_won,
        point_balance=tally.point_balance,
        points_won=tally.points_won,
        rounds=tuple(tally.rounds),
        adjustments=tuple(tally.adjustments),
        tie_break=None if shared else tie_break,
    )
