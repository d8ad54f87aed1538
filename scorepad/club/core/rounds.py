"""Scoring a round: what the standings count from each table (docs/clubnight.md "Scoring a round").

A table's match is scored by scorepad as any match; its final totals come here as a
:class:`TableResult`, and :func:`score_table` turns them into one :class:`RoundScore` per
entrant in the event's units: points, match points (2/1/0) or victory points from the
event's conversion table. A bye, a no-show and the organiser's adjustments are scored here too.

>>> from .settings import EventSettings
>>> settings = EventSettings(name="Club", date="2026-11-26")
>>> [(s.entrant, s.score, s.balance) for s in score_table(TableResult(1, 2, ("A", "B"), (3150, 2640)), settings)]
[('A', 13, 510), ('B', 7, -510)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ...canasta import InvalidError, Violation
from ...canasta.text import Text, t
from .settings import CHOICE_LABELS, EventSettings

WIN, DRAW, LOSS = 2, 1, 0  # docs/clubnight.md, the `scoring` setting: 2 win, 1 draw, 0 loss

# What a round's line says about how it was scored.
PLAYED, BYE, NO_SHOW, ABSENT = "played", "bye", "no-show", "absent"
KIND_LABELS = {
    PLAYED: t("Match played"),
    BYE: t("Bye"),
    NO_SHOW: t("Opponent did not come"),
    ABSENT: t("Did not come"),
}


@dataclass(frozen=True)
class TableResult:
    """What one table of one round reports: its entrants and the match's final totals.

    ``entrants`` are North-South and East-West; a bye has one of them ``None`` and no totals.
    ``no_show`` names an entrant who never came (the totals are then left out). ``finished``
    is False while the match is still being played: the standings are then provisional.
    """

    round: int
    table: int
    entrants: tuple[str | None, str | None]
    totals: tuple[int, int] | None = None
    no_show: str | None = None
    finished: bool = True

    def __post_init__(self) -> None:
        problems = self.problems()
        if problems:
            raise InvalidError(problems)

    def problems(self) -> list[Violation]:
        """Why this result cannot be scored: totals for a played table, none for a bye or a no-show."""
        where = f"rounds[{self.round}].tables[{self.table}]"
        seated = [entrant for entrant in self.entrants if entrant is not None]
        if len(self.entrants) != 2 or not seated or len(set(seated)) != len(seated):
            return [Violation("bad-table", t("A table seats two different entrants, or one for a bye."), where)]
        if self.no_show is not None and (self.no_show not in seated or len(seated) != 2):
            return [Violation("bad-no-show", t("The entrant who did not come must be seated at the table."), where)]
        expects_totals = len(seated) == 2 and self.no_show is None
        if expects_totals != _are_totals(self.totals) or (self.totals is not None and not expects_totals):
            return [Violation("bad-totals", t("A played table reports two totals; a bye or a no-show none."), where)]
        return []


def _are_totals(totals: Any) -> bool:
    """True for two whole numbers: a match's final totals."""
    return (
        isinstance(totals, tuple)
        and len(totals) == 2
        and all(isinstance(total, int) and not isinstance(total, bool) for total in totals)
    )


@dataclass(frozen=True)
class Adjustment:
    """A penalty (negative) or an adjustment by the organiser, in the round's units, with the reason."""

    round: int
    entrant: str
    amount: int
    reason: str

    def __post_init__(self) -> None:
        if not isinstance(self.reason, str) or not self.reason.strip():
            raise InvalidError([Violation("no-reason", t("A penalty or an adjustment needs a reason."), "reason")])


@dataclass(frozen=True)
class RoundScore:
    """One entrant's round: the score in the event's units and what the tie-breaks read."""

    round: int
    table: int
    entrant: str
    opponent: str | None
    kind: str  # PLAYED, BYE, NO_SHOW (the opponent did not come) or ABSENT
    score: int
    points_for: int = 0
    points_against: int = 0
    won: bool = False
    drawn: bool = False

    @property
    def balance(self) -> int:
        """Points for minus points against (zero for a bye)."""
        return self.points_for - self.points_against

    @property
    def label(self) -> Text:
        """What the results sheet says about how this round went."""
        return KIND_LABELS[self.kind]


def round_score(settings: EventSettings, points_for: int, points_against: int) -> int:
    """An entrant's score for a match that ended ``points_for`` to ``points_against``, in the event's units.

    >>> from .settings import EventSettings
    >>> settings = EventSettings(name="Club", date="2026-11-26", scoring="match_points")
    >>> round_score(settings, 2400, 2400), round_score(settings, 5100, 2400), round_score(settings, 2400, 5100)
    (1, 2, 0)
    """
    difference = points_for - points_against
    if settings.scoring == "points":
        return points_for
    if settings.scoring == "match_points":
        return WIN if difference > 0 else DRAW if difference == 0 else LOSS
    winner, loser = settings.victory_points.split(difference)
    return winner if difference >= 0 else loser


def bye_score(settings: EventSettings, earlier: Iterable[RoundScore] = ()) -> int:
    """A bye's score: the event's fixed score, or the entrant's average over the rounds played so far.

    The average is rounded half up to a whole number; before any round is played it is the fixed score.
    """
    played = [score.score for score in earlier if score.kind == PLAYED]
    if settings.bye.kind == "fixed" or not played:
        return settings.bye.score
    return (2 * sum(played) + len(played)) // (2 * len(played))


def score_table(
    result: TableResult, settings: EventSettings, earlier: Sequence[RoundScore] = ()
) -> tuple[RoundScore, ...]:
    """Each entrant's :class:`RoundScore` for one table; ``earlier`` are scores already made (for an average bye).

    A no-show is scored by the event's ``no_show`` rule (:func:`_forfeit`).
    """
    seated = [entrant for entrant in result.entrants if entrant is not None]
    if len(seated) == 1:
        (entrant,) = seated
        mine = [score for score in earlier if score.entrant == entrant and score.round < result.round]
        return (RoundScore(result.round, result.table, entrant, None, BYE, bye_score(settings, mine)),)
    if result.no_show is not None:
        return tuple(_forfeit(result, settings, side, earlier) for side in (0, 1))
    return tuple(_played(result, settings, side, result.totals) for side in (0, 1))


def _forfeit(result: TableResult, settings: EventSettings, side: int, earlier: Sequence[RoundScore]) -> RoundScore:
    """A no-show (docs/clubnight.md "Scoring a round"): the absent side scores nothing in any unit;
    the side present scores the bye's score, or (``no_show`` "margin") a win by the night's margin to 0.

    A forfeit never gives the absent side more than a side that played and lost: 0 is the least a
    loss scores in victory points and match points.
    """
    entrant, opponent = result.entrants[side], result.entrants[1 - side]
    margin = settings.no_show_margin if settings.no_show == "margin" else 0
    if entrant == result.no_show:
        return RoundScore(result.round, result.table, entrant, opponent, ABSENT, 0, 0, margin)
    if settings.no_show == "margin":
        score = round_score(settings, margin, 0)
        return RoundScore(result.round, result.table, entrant, opponent, NO_SHOW, score, margin, 0, won=margin > 0)
    mine = [score for score in earlier if score.entrant == entrant and score.round < result.round]
    return RoundScore(result.round, result.table, entrant, opponent, NO_SHOW, bye_score(settings, mine))


def _played(result: TableResult, settings: EventSettings, side: int, totals: tuple[int, int]) -> RoundScore:
    mine, theirs = totals[side], totals[1 - side]
    entrant, opponent = result.entrants[side], result.entrants[1 - side]
    return RoundScore(
        round=result.round,
        table=result.table,
        entrant=entrant,
        opponent=opponent,
        kind=PLAYED,
        score=round_score(settings, mine, theirs),
        points_for=mine,
        points_against=theirs,
        won=mine > theirs,
        drawn=mine == theirs,
    )


def score_rounds(results: Iterable[TableResult], settings: EventSettings) -> list[RoundScore]:
    """Every entrant's round scores for every table, in round and table order (byes see earlier rounds)."""
    scores: list[RoundScore] = []
    for result in sorted(results, key=lambda result: (result.round, result.table)):
        scores += score_table(result, settings, scores)
    return scores


def time_rule(settings: EventSettings) -> Text:
    """What the score sheet says happens when the round's clock runs out (docs/clubnight.md, the `at_time` setting)."""
    return CHOICE_LABELS[settings.at_time]


def hands_counted(at_time: str, first_after_time: int) -> int:
    """How many hands of a table's match count when hand ``first_after_time`` was saved after the clock ran out.

    The hand in progress at time is the first one saved after it: played to its end or scored as
    it stands, it counts; dropped, it does not. No hand after it counts (no new hand starts).

    >>> hands_counted("finish_hand", 3), hands_counted("score_as_it_stands", 3), hands_counted("drop_hand", 3)
    (3, 3, 2)
    """
    return first_after_time - 1 if at_time == "drop_hand" else first_after_time
