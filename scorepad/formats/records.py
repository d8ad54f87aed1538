"""History and stats: what each player and team has done across the stored matches."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..canasta import Match
from ..documents import MatchInfo, team_name
from .common import Pair


@dataclass
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
    match_ids: list[str] = field(default_factory=list)

    @property
    def playing(self) -> int:
        """Matches not finished yet, counted as neither win nor loss."""
        return self.matches - self.wins - self.losses - self.ties

    @property
    def average_hand(self) -> int | None:
        """The mean hand score, rounded to the nearest 5 as every score is."""
        if not self.hands:
            return None
        return round(self.points / self.hands / 5) * 5


@dataclass
class Stats:
    """Records by player and by team (a side of two or more named players), best first."""

    players: list[Record]
    teams: list[Record]
    matches: int


def _add(record: Record, match: Match, info: MatchInfo, side: int) -> None:
    record.matches += 1
    record.match_ids.append(info.id)
    if match.is_finished:
        top = max(match.totals)
        if match.is_tie and match.totals[side] == top:
            record.ties += 1
        elif match.winner == side:
            record.wins += 1
        else:
            record.losses += 1
    for result in match.results:
        score = result.sides[side].score
        entry = result.hand.entries[side]
        record.hands += 1
        record.points += score
        record.biggest_hand = score if record.biggest_hand is None else max(record.biggest_hand, score)
        record.canastas += entry.canasta_count
        record.red_threes += entry.red_threes


def stats(pairs: Iterable[Pair]) -> Stats:
    """Wins, losses, hand scores, canastas and red threes per player and per team.

    Names are matched without regard to case. A player's figures are their side's in every
    match they played; a side without named players counts for nobody.
    """
    players: dict[str, Record] = {}
    teams: dict[str, Record] = {}
    count = 0
    for match, info in pairs:
        count += 1
        for index, side in enumerate(info.sides):
            for player in dict.fromkeys(p.casefold() for p in side.players):
                name = next(p for p in side.players if p.casefold() == player)
                _add(players.setdefault(player, Record(name)), match, info, index)
            if len(side.players) >= 2:
                name = team_name(side.players)
                _add(teams.setdefault(name.casefold(), Record(name)), match, info, index)

    def best_first(records: dict[str, Record]) -> list[Record]:
        return sorted(records.values(), key=lambda r: (-r.wins, r.losses, -r.matches, r.name.casefold()))

    return Stats(best_first(players), best_first(teams), count)


def stats_from_rows(rows: Iterable[Mapping[str, Any]], matches: int) -> Stats:
    """:func:`stats` from sums already made over stored figures (``store.player_records``)."""
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


def records_for(name: str, pairs: Iterable[Pair]) -> list[Pair]:
    """The matches a player (or a team, by its ``team_name``) played in, as given."""
    wanted = name.casefold()
    return [
        (match, info)
        for match, info in pairs
        if any(
            wanted in {p.casefold() for p in side.players} or wanted == team_name(side.players).casefold()
            for side in info.sides
        )
    ]
