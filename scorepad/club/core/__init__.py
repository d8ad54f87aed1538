"""Club night: the pure parts of a night of many tables (docs/clubnight.md), beside the rules core.

Settings with every default as data, seating (movements), scoring a round, standings with
tie-breaks, and the season table: plain functions over frozen dataclasses, standard library
and :mod:`scorepad.canasta` only (``tests/test_architecture.py`` enforces it). The pages that
run a night are built on these later.

>>> import random
>>> settings = EventSettings(name="Thursday club", date="2026-11-26")
>>> first = seat_first_round(settings, ["A", "B", "C", "D"], random.Random(1))
>>> results = [TableResult(1, table.number, table.entrants, (2000, 2400)) for table in first.tables]
>>> [row.score for row in standings(first.entrants, results, settings).rows]
[12, 12, 8, 8]
"""

from __future__ import annotations

from .movements import (
    MovementError,
    Seating,
    Table,
    late_arrival,
    meetings,
    mitchell,
    next_mitchell_round,
    plan_problems,
    random_draw,
    round_robin,
    seat_first_round,
    seat_in_order,
    seat_next_round,
    swiss,
    withdraw,
)
from .rounds import (
    Adjustment,
    RoundScore,
    TableResult,
    bye_score,
    hands_counted,
    round_score,
    score_rounds,
    score_table,
    time_rule,
)
from .season import NightPoints, SeasonLine, night_points, placement_points, player_key, season_table
from .settings import ByeRule, EventSettings, RoundLength, SeasonRules, VictoryPoints
from .standings import Standing, Standings, standings

__all__ = [
    "Adjustment", "ByeRule", "EventSettings", "MovementError", "NightPoints", "RoundLength", "RoundScore",
    "SeasonLine", "SeasonRules", "Seating", "Standing", "Standings", "Table", "TableResult", "VictoryPoints",
    "bye_score", "hands_counted", "late_arrival", "meetings", "mitchell", "next_mitchell_round", "night_points",
    "placement_points", "plan_problems", "random_draw", "round_robin", "round_score", "score_rounds", "score_table",
    "player_key", "season_table", "seat_first_round", "seat_in_order", "seat_next_round", "standings", "swiss",
    "time_rule", "withdraw",
]  # fmt: skip
