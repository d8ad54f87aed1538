"""The season table: a club's nights added up, player by player (docs/clubnight.md "Season table").

Each night gives every player points: by default placement points (first of N entrants gets
N, second N - 1, ..., last 1; a shared place shares the points of the places it covers), or
the night's score. A pair's points go to both its players. The table counts each player's
best N nights (8 by default, or every night). Shared placement points can be halves or
thirds, so points are exact fractions; the pages print them as they like.

>>> rules = SeasonRules(best=1)
>>> nights = [NightPoints("1 Oct", {"Ana": 3, "Ben": 1}), NightPoints("8 Oct", {"Ana": 2, "Ben": 4})]
>>> [(line.player, line.total) for line in season_table(nights, rules)]
[('Ben', Fraction(4, 1)), ('Ana', Fraction(3, 1))]
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from .settings import SeasonRules
from .standings import Standings


@dataclass(frozen=True)
class NightPoints:
    """What one night gives each player toward the season."""

    night: str  # how the club names the night: its date or the event's name
    points: Mapping[str, Fraction | int] = field(default_factory=dict)


@dataclass(frozen=True)
class SeasonNight:
    """One night in a player's history: the points, and whether they are among the best that count."""

    night: str
    points: Fraction
    counted: bool


@dataclass(frozen=True)
class SeasonLine:
    """One player's line of the season table."""

    rank: int
    shared: bool
    player: str
    total: Fraction
    history: tuple[SeasonNight, ...]

    @property
    def place(self) -> str:
        """The place as printed: ``2``, or ``=2`` when shared."""
        return f"={self.rank}" if self.shared else str(self.rank)


def placement_points(standings: Standings) -> dict[str, Fraction]:
    """Placement points per entrant: N for first of N, down to 1 for last; a shared place shares its places' points.

    Two entrants sharing second of five cover places 2 and 3, worth 4 and 3: each gets 7/2.
    """
    count = len(standings.rows)
    sharing: dict[int, int] = {}
    for row in standings.rows:
        sharing[row.rank] = sharing.get(row.rank, 0) + 1
    points = {}
    for row in standings.rows:
        covered = range(row.rank, row.rank + sharing[row.rank])
        points[row.entrant] = Fraction(sum(count - place + 1 for place in covered), len(covered))
    return points


def night_points(
    night: str, standings: Standings, rules: SeasonRules, players: Mapping[str, Sequence[str]] | None = None
) -> NightPoints:
    """A finished night's points for each player; ``players`` names each entrant's players (a pair's two).

    Without ``players`` each entrant is one player of the same name (individual play).
    """
    if rules.points == "placement":
        by_entrant = placement_points(standings)
    else:
        by_entrant = {row.entrant: Fraction(row.score) for row in standings.rows}
    players = players or {}
    points = {player: value for entrant, value in by_entrant.items() for player in players.get(entrant, (entrant,))}
    return NightPoints(night, points)


def player_key(name: str) -> str:
    """Who a player name means across nights: the same letters whatever the case, spaces or Unicode form.

    >>> player_key("  Ana   Souza ") == player_key("ana souza")
    True
    """
    return " ".join(unicodedata.normalize("NFC", name).split()).casefold()


def season_table(nights: Sequence[NightPoints], rules: SeasonRules) -> tuple[SeasonLine, ...]:
    """The season so far: each player's best nights summed, ranked, level totals sharing a place.

    ``nights`` come in the order played. A player is known by :func:`player_key` (so "Ana  Souza"
    and "ana souza" are one player) and named as first written.
    """
    history: dict[str, list[tuple[int, str, Fraction]]] = {}
    written: dict[str, str] = {}
    for index, night in enumerate(nights):
        for player, value in night.points.items():
            key = player_key(player)
            played = history.setdefault(key, [])
            if played and played[-1][0] == index:
                continue  # one player once a night (a name written twice the same night counts once)
            written.setdefault(key, player)
            played.append((index, night.night, Fraction(value)))
    lines = [_line(written[key], played, rules) for key, played in history.items()]
    lines.sort(key=lambda line: (-line.total, line.player))
    level = Counter(line.total for line in lines)
    ranked, rank = [], 1
    for index, line in enumerate(lines):
        if index and line.total != lines[index - 1].total:
            rank = index + 1
        ranked.append(SeasonLine(rank, level[line.total] > 1, line.player, line.total, line.history))
    return tuple(ranked)


def _line(player: str, played: list[tuple[int, str, Fraction]], rules: SeasonRules) -> SeasonLine:
    """One player's nights, the best ``rules.best`` marked as counted (the earlier night first on equal points)."""
    best = sorted(played, key=lambda item: (-item[2], item[0]))
    counted = {index for index, _, _ in (best if rules.best is None else best[: rules.best])}
    nights = tuple(SeasonNight(night, points, index in counted) for index, night, points in played)
    return SeasonLine(0, False, player, sum((night.points for night in nights if night.counted), Fraction(0)), nights)
