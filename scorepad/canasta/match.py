"""A match: hands in order, running totals, minimums, game end and the winner.

>>> from scorepad.canasta import VARIANTS, Entry, Hand
>>> hand = Hand((Entry(melded_points=620, canastas={"natural": 1}, went_out=True),
...              Entry(melded_points=260, hand_points=95)))
>>> match = Match(VARIANTS["classic"], (hand,))
>>> match.totals, match.next_minimums, match.is_finished, match.margin
((1220, 165), (50, 50), False, 1055)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .entries import Hand, check_hand, hand_warnings
from .scoring import SideScore, score_hand
from .text import Text, t, tn
from .variants import Variant
from .violations import InvalidError, Violation

STARTING_TOTALS_BY_FIVE = t("Starting totals are multiples of 5, like every score.")


@dataclass(frozen=True, slots=True)
class HandResult:
    """One scored hand with the state of the match around it."""

    number: int  # 1-based, as on the score sheet
    hand: Hand
    sides: tuple[SideScore, ...]
    minimums: tuple[int, ...]  # the initial-meld minimum each side needed in this hand
    totals: tuple[int, ...]  # running totals after this hand
    warnings: tuple[Violation, ...] = ()

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(side.score for side in self.sides)


def check_and_score(
    hand: Hand, variant: Variant
) -> tuple[list[Violation], tuple[SideScore, ...], tuple[Violation, ...]]:
    """What ``hand`` breaks under ``variant`` and, when it breaks nothing, its scores and warnings.

    None of it depends on the hands around it (the minimums and totals do, and the match
    works them out).

    >>> from .presets import VARIANTS
    >>> from .entries import Entry
    >>> hand = Hand((Entry(melded_points=90, hand_points=15), Entry(melded_points=50)))
    >>> problems, sides, warnings = check_and_score(hand, VARIANTS["classic"])
    >>> problems, [side.score for side in sides], warnings
    ([], [75, 50], ())
    """
    problems = check_hand(hand, variant)
    if problems:
        return problems, (), ()
    return problems, tuple(score_hand(hand, variant)), tuple(hand_warnings(hand, variant))


def _after_game_over(ended: int, first: int, last: int) -> Text:
    """Hands sent after the one that ended the game: "hand 5 cannot be added", or "hands 5 to 7"."""
    if first == last:
        return t("The game ended after hand %(ended)s; hand %(hand)s cannot be added.", ended=ended, hand=first)
    return t(
        "The game ended after hand %(ended)s; hands %(first)s to %(last)s cannot be added.",
        ended=ended,
        first=first,
        last=last,
    )


def settle(total: int, unit: int = 100) -> int:
    """A final total rounded to the nearest ``unit`` (the variant's ``settlement_unit``), half away from zero.

    >>> settle(5150), settle(5149), settle(-150), settle(-149)
    (5200, 5100, -200, -100)
    """
    sign = -1 if total < 0 else 1
    return sign * ((abs(total) + unit // 2) // unit * unit)


@dataclass(frozen=True)
class Match:
    """Hands of one match under one set of rules; everything else is derived from them.

    Every hand is checked and scored once, when the match is made: ``scored`` holds the
    results when nothing is wrong, ``refused_for`` every problem otherwise.

    :raises InvalidError: (from :meth:`validated`) for hands that cannot be scored.
    """

    variant: Variant
    hands: tuple[Hand, ...] = ()
    starting_totals: tuple[int, ...] | None = None
    refused_for: tuple[Violation, ...] = field(init=False, repr=False, compare=False)
    scored: tuple[HandResult, ...] | None = field(init=False, repr=False, compare=False)  # None when refused

    def __post_init__(self) -> None:
        problems = self._start_problems()
        scored = () if problems else _check_and_play(self.variant, self.hands, self.start, problems)
        object.__setattr__(self, "refused_for", tuple(problems))
        object.__setattr__(self, "scored", None if problems else scored)

    @classmethod
    def validated(cls, variant: Variant, hands: Sequence[Hand], starting_totals: Sequence[int] | None = None) -> Match:
        """Build a match, refusing it whole with every problem in every hand."""
        match = cls(variant, tuple(hands), tuple(starting_totals) if starting_totals is not None else None)
        if match.refused_for:
            raise InvalidError(list(match.refused_for))
        return match

    def problems(self) -> list[Violation]:
        """Every reason this match cannot be scored, fields pointing at ``hands[i]``."""
        return list(self.refused_for)

    def _start_problems(self) -> list[Violation]:
        if self.starting_totals is None:
            return []
        sides = self.variant.sides
        if len(self.starting_totals) != sides or not all(
            isinstance(t, int) and not isinstance(t, bool) for t in self.starting_totals
        ):
            return [
                Violation(
                    "bad-starting-totals",
                    tn(
                        "Starting totals are %(n)s whole number, one per side.",
                        "Starting totals are %(n)s whole numbers, one per side.",
                        sides,
                    ),
                    "starting_totals",
                )
            ]
        if any(t % 5 for t in self.starting_totals):
            return [Violation("bad-starting-totals", STARTING_TOTALS_BY_FIVE, "starting_totals")]
        if any(t >= self.variant.target for t in self.starting_totals):
            return [
                Violation(
                    "bad-starting-totals",
                    t(
                        "A starting total has already reached the target of %(target)s: that game is over.",
                        target=self.variant.target,
                    ),
                    "starting_totals",
                )
            ]
        return []

    @property
    def start(self) -> tuple[int, ...]:
        return self.starting_totals or (0,) * self.variant.sides

    @property
    def results(self) -> tuple[HandResult, ...]:
        """Every hand scored in order; a match that breaks a rule is scored as it stands."""
        if self.scored is not None:
            return self.scored
        return _play_as_it_stands(self.variant, self.hands, self.start)

    @property
    def totals(self) -> tuple[int, ...]:
        results = self.results
        return results[-1].totals if results else self.start

    @property
    def standing(self) -> Standing:
        """Where the match stands now: the one rule for game end, winner, tie and margin."""
        return standing(self.variant, self.totals, len(self.results))

    @property
    def next_minimums(self) -> tuple[int, ...]:
        """Each side's initial-meld minimum for the next hand, from its total now."""
        return self.standing.next_minimums

    @property
    def is_finished(self) -> bool:
        """A side reached the target, or the hand limit was played."""
        return self.standing.is_finished

    @property
    def winner(self) -> int | None:
        """The index of the side with the highest total once the game is over; None on a tie."""
        return self.standing.winner

    @property
    def is_tie(self) -> bool:
        """The game is over and two or more sides share the highest total."""
        return self.standing.is_tie

    @property
    def margin(self) -> int | None:
        """How far the leading side is ahead of the next (pagat: the margin of victory).

        None before the first hand.
        """
        return self.standing.margin

    @property
    def settlement(self) -> dict[str, object] | None:
        """Bicycle's club settlement: rounded totals and what each side is behind the winner."""
        if not self.is_finished:
            return None
        return settlement_for(self.totals, self.variant.settlement_unit)


def _check_and_play(
    variant: Variant, hands: tuple[Hand, ...], start: tuple[int, ...], found: list[Violation]
) -> tuple[HandResult, ...]:
    """Check and score each hand in turn from ``start``; every problem goes into ``found``.

    Checking a hand needs the totals before it (did the game end?), so the results are gathered
    on the way and hold when nothing is found. Hands after the one that ended the game are one
    problem, and nothing after them is reported.
    """
    results = []
    totals = start
    for index, hand in enumerate(hands):
        problems, sides, warnings = check_and_score(hand, variant)
        if problems:
            found += [v.under(f"hands[{index}]") for v in problems]
            continue
        # As many scores as totals: the start and the hand were checked against the sides.
        results.append(_result(variant, index + 1, totals, hand, sides, warnings))
        totals = results[-1].totals
        if index + 1 < len(hands) and game_ends(variant, totals, index + 1):
            found.append(
                Violation(
                    "hand-after-game-over", _after_game_over(index + 1, index + 2, len(hands)), f"hands[{index + 1}]"
                )
            )
            break
    return tuple(results)


def _play_as_it_stands(variant: Variant, hands: tuple[Hand, ...], start: tuple[int, ...]) -> tuple[HandResult, ...]:
    """Every hand scored whatever it breaks, for a stored match the rules now refuse."""
    results = []
    totals = start
    for number, hand in enumerate(hands, start=1):
        # A hand that breaks a rule is scored as it stands.
        results.append(play_hand(variant, number, totals, hand))
        totals = results[-1].totals
    return tuple(results)


# --- a match carried forward from stored figures --------------------------------------------
# For callers that keep each hand's scores and totals (the store) and must not replay a whole
# match to add one hand: the same rules as :class:`Match`, applied from the totals before a hand.


def game_ends(variant: Variant, totals: Sequence[int], played: int) -> bool:
    """A side reached the target, or the hand limit was played (the rule :class:`Match` applies).

    >>> from .presets import VARIANTS
    >>> game_ends(VARIANTS["classic"], (5010, 200), 7), game_ends(VARIANTS["classic"], (4990, 200), 7)
    (True, False)
    """
    reached = bool(totals) and max(totals) >= variant.target  # checked after every hand: no generator
    return reached or (variant.max_hands is not None and played >= variant.max_hands)


def play_hand(variant: Variant, number: int, totals: Sequence[int], hand: Hand) -> HandResult:
    """Score hand ``number`` (1-based) of a match whose totals before it are ``totals``.

    Assumes :func:`check_hand` found nothing, as :attr:`Match.results` does.
    """
    return _result(variant, number, totals, hand, tuple(score_hand(hand, variant)), tuple(hand_warnings(hand, variant)))


def _result(
    variant: Variant,
    number: int,
    totals: Sequence[int],
    hand: Hand,
    sides: tuple[SideScore, ...],
    warnings: tuple[Violation, ...],
) -> HandResult:
    """Hand ``number`` scored ``sides`` from ``totals``: the minimums it was played under and the totals after."""
    minimums = tuple(variant.minimum_for(total) for total in totals)
    after = tuple(total + side.score for total, side in zip(totals, sides, strict=True))
    return HandResult(number, hand, sides, minimums, after, warnings)


def carry_forward(
    variant: Variant, totals: Sequence[int], scores: Sequence[Sequence[int]]
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Minimums in force and totals after each of hands already scored ``scores``, from ``totals``.

    >>> from .presets import VARIANTS
    >>> carry_forward(VARIANTS["classic"], (1400, 0), [(200, 100), (-100, 50)])
    [((50, 50), (1600, 100)), ((90, 50), (1500, 150))]
    """
    out = []
    running = tuple(totals)
    for hand_scores in scores:
        minimums = tuple(variant.minimum_for(total) for total in running)
        running = tuple(t + s for t, s in zip(running, hand_scores, strict=True))
        out.append((minimums, running))
    return out


@dataclass(frozen=True)
class Standing:
    """Where a match stands after ``played`` hands, from its totals alone (as :class:`Match` says)."""

    totals: tuple[int, ...]
    played: int
    next_minimums: tuple[int, ...]
    is_finished: bool
    is_tie: bool
    winner: int | None
    margin: int | None


def standing(variant: Variant, totals: Sequence[int], played: int) -> Standing:
    """The state of a match with these totals after ``played`` hands.

    >>> from .presets import VARIANTS
    >>> standing(VARIANTS["classic"], (5100, 4200), 9).winner
    0
    """
    totals = tuple(totals)
    finished = played > 0 and game_ends(variant, totals, played)
    tie = finished and totals.count(max(totals)) > 1
    winner = max(range(len(totals)), key=totals.__getitem__) if finished and not tie else None
    margin = None
    if played:
        first, second = sorted(totals, reverse=True)[:2]
        margin = first - second
    return Standing(totals, played, tuple(variant.minimum_for(t) for t in totals), finished, tie, winner, margin)


def settlement_for(totals: Sequence[int], unit: int) -> dict[str, object]:
    """Bicycle's club settlement of final totals, as :attr:`Match.settlement` gives it.

    >>> settlement_for((5150, 3420), 100)["rounded"]
    [5200, 3400]
    """
    rounded = [settle(total, unit) for total in totals]
    top = max(rounded)
    others = sorted(rounded, reverse=True)
    return {"rounded": rounded, "margin": others[0] - others[1], "behind": [top - value for value in rounded]}
