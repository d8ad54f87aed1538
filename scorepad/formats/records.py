"""History and stats: what each player and team has done across the stored matches."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Record:
    """What one player or team has done across the stored matches."""

    name: str
    matches: int = 0
    wins: int = 0
    losses: int = 0
    ties: int = 0
    hands: int = 0
    points: int = 0
    biggest_hand: int | None = None
    canastas: int = 0
    red_threes: int = 0

    @property
    def average_hand(self) -> int | None:
        """The mean hand score, rounded to the nearest 5 as every score is."""
        if not self.hands:
            return None
        return round(self.points / self.hands / 5) * 5


@dataclass(frozen=True)
class Stats:
    """Records by player and by team (a side of two or more named players), best first."""

    players: list[Record]
    teams: list[Record]
    matches: int


def stats_from_rows(rows: Iterable[Mapping[str, Any]], matches: int) -> Stats:
    """The records from sums already made by SQL over stored figures (``store.player_records``).

    Each row is a player or a team, spelt as in its first match, its figures its side's in every
    match it played; best first: most wins, fewest losses, most matches, then by name.
    """
    players: list[Record] = []
    teams: list[Record] = []
    for row in sorted(rows, key=lambda r: r["first"]):
        record = Record(
            name=row["name"],
            matches=row["matches"],
            wins=row["wins"],
            losses=row["losses"],
            ties=row["ties"],
            hands=row["hands"],
            points=row["points"],
            biggest_hand=row["biggest_hand"],
            canastas=row["canastas"],
            red_threes=row["red_threes"],
        )
        (teams if row["kind"] == "team" else players).append(record)

    def best_first(records: list[Record]) -> list[Record]:
        return sorted(records, key=lambda r: (-r.wins, r.losses, -r.matches, r.name.casefold()))

    return Stats(best_first(players), best_first(teams), matches)
