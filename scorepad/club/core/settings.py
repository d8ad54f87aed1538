"""A club night's settings: every default of docs/clubnight.md as data the organiser may change.

An event keeps the settings it was created with, as a match keeps its house rules: they are
stored as the plain dict :meth:`EventSettings.to_dict` gives and read back, checked, by
:meth:`EventSettings.from_dict`, which names the field of every value it refuses.

>>> settings = EventSettings.from_dict({"name": "Thursday club", "date": "2026-11-26"})
>>> settings.movement, settings.scoring, settings.victory_points.split(105)
('mitchell', 'victory_points', (11, 9))
>>> EventSettings.from_dict(settings.to_dict()) == settings
True
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...canasta import DEFAULT_VARIANT, InvalidError, Variant, Violation, rules_for
from ...canasta.text import t

# --- the choices, by the codes the settings store ------------------------------------------
FIRST_ROUNDS = ("random", "as_entered")
MOVEMENTS = ("mitchell", "swiss", "danish", "round_robin")
SCORINGS = ("victory_points", "match_points", "points")
ROUND_LENGTHS = ("minutes", "hands", "target")
AT_TIME = ("finish_hand", "score_as_it_stands", "drop_hand")
BYE_KINDS = ("fixed", "average")
TIE_BREAKS = ("matches_won", "point_balance", "points_won", "head_to_head")
SEASON_POINTS = ("placement", "score")
NO_SHOWS = ("bye", "margin")

# What the organiser reads for each choice (the stored codes never change).
CHOICE_LABELS = {
    "random": t("Random draw"),
    "as_entered": t("As entered"),
    "mitchell": t("Mitchell (East-West move up one table)"),
    "swiss": t("Swiss (by the standings, no repeat opponents)"),
    "danish": t("Danish (by the standings, 1st against 2nd)"),
    "round_robin": t("Round robin (everyone meets everyone)"),
    "victory_points": t("Victory points"),
    "match_points": t("Match points (2 win, 1 draw, 0 loss)"),
    "points": t("Points"),
    "minutes": t("Minutes per round"),
    "hands": t("Hands per round"),
    "target": t("Play to the target"),
    "finish_hand": t("At time the hand in progress is played to its end; no new hand starts."),
    "score_as_it_stands": t("At time the hand in progress is scored as it stands, with no going-out bonus."),
    "drop_hand": t("At time the hand in progress is dropped."),
    "fixed": t("A fixed score"),
    "average": t("The entrant's average so far"),
    "matches_won": t("Matches won"),
    "point_balance": t("Point balance"),
    "points_won": t("Points won"),
    "head_to_head": t("Head-to-head"),
    "placement": t("Placement points"),
    "bye": t("The side present scores a bye; the absent side scores nothing"),
    "margin": t("The side present wins by the no-show margin; the absent side scores nothing"),
    "score": t("The night's score"),
}

# docs/clubnight.md, the default victory-point table: (largest difference, the winner's share) for each band of
# the default two-deck Canasta table; beyond the last band the winner takes the whole split.
DEFAULT_BANDS = (
    (100, 10),
    (300, 11),
    (500, 12),
    (750, 13),
    (1000, 14),
    (1300, 15),
    (1600, 16),
    (2000, 17),
    (2500, 18),
    (3000, 19),
)
# docs/clubnight.md, the `bye` setting: 12 victory points, or 1 match point; with raw points, the average.
DEFAULT_BYES = {"victory_points": ("fixed", 12), "match_points": ("fixed", 1), "points": ("average", 0)}
MOST_ROUNDS = 30
MOST_BANDS = 50
MOST_TABLES = 200  # a club night of 50 tables is the scale; four times that is plenty


def shown(value: Any) -> str:
    """A refused value as a message repeats it: its first 40 characters, so a long one costs no more."""
    text = str(value) if isinstance(value, (str, int, float)) or value is None else type(value).__name__
    return text if len(text) <= 40 else text[:39] + "…"


def problem(code: str, message: str, where: str) -> Violation:
    """One refused setting, with the field it is about."""
    return Violation(code, message, where)


def _choice(value: Any, choices: tuple[str, ...], where: str) -> list[Violation]:
    if value in choices:
        return []
    return [
        problem(
            "bad-choice",
            # Translators: %(field)s is the setting as stored (rounds, bye.kind) and %(choices)s its
            # codes; keep both as they are.
            t(
                "%(field)s must be one of %(choices)s, not %(value)s.",
                field=where,
                choices=", ".join(choices),
                value=shown(value),
            ),
            where,
        )
    ]


def _whole(value: Any, low: int, high: int | None, where: str) -> list[Violation]:
    if isinstance(value, int) and not isinstance(value, bool) and value >= low and (high is None or value <= high):
        return []
    # Translators: %(field)s is the setting as stored (rounds, bye.score); keep it as it is.
    if high is None:
        message = t(
            "%(field)s must be a whole number of at least %(low)s, not %(value)s.",
            field=where,
            low=low,
            value=shown(value),
        )
    else:
        message = t(
            "%(field)s must be a whole number from %(low)s to %(high)s, not %(value)s.",
            field=where,
            low=low,
            high=high,
            value=shown(value),
        )
    return [problem("bad-number", message, where)]


def _refuse(problems: list[Violation]) -> None:
    if problems:
        raise InvalidError(problems)


@dataclass(frozen=True)
class VictoryPoints:
    """The conversion table: the difference of two totals gives the winner ``10 + k`` of 20.

    ``bands`` are (largest difference, the winner's share), smallest first; a difference beyond
    the last band gives the winner the whole ``total``.

    >>> table = VictoryPoints()
    >>> table.split(0), table.split(100), table.split(3000), table.split(3005)
    ((10, 10), (10, 10), (19, 1), (20, 0))
    """

    total: int = 20
    bands: tuple[tuple[int, int], ...] = DEFAULT_BANDS

    def __post_init__(self) -> None:
        _refuse(self.problems())

    def split(self, difference: int) -> tuple[int, int]:
        """The winner's and the loser's victory points for a win by ``difference`` points."""
        for largest, winner in self.bands:
            if abs(difference) <= largest:
                return winner, self.total - winner
        return self.total, 0

    def rows(self, step: int = 5) -> tuple[tuple[int, int | None, int, int], ...]:
        """The table as the results sheet prints it: (lowest, highest or None for "over", winner, loser).

        Canasta totals are multiples of five, so a band starts five above the last one's end.

        >>> VictoryPoints(bands=((100, 10), (300, 11))).rows()
        ((0, 100, 10, 10), (105, 300, 11, 9), (305, None, 20, 0))
        """
        lowest, rows = 0, []
        for largest, winner in self.bands:
            rows.append((lowest, largest, winner, self.total - winner))
            lowest = largest + step
        return (*rows, (lowest, None, self.total, 0))

    def problems(self, where: str = "victory_points") -> list[Violation]:
        """Every reason this is not a usable table: bands growing, shares from an even split up."""
        found = _whole(self.total, 2, 1000, f"{where}.total")
        if len(self.bands) > MOST_BANDS:
            message = t("The table may have at most %(most)s bands.", most=MOST_BANDS)
            return [*found, problem("too-many-bands", message, f"{where}.bands")]
        if found or not self.bands:
            return found + ([] if self.bands else [problem("no-bands", t("The table needs at least one band."), where)])
        wrong = [index for index, band in enumerate(self.bands) if not _is_band(band)]
        if wrong:
            message = t("Each band is two whole numbers from 0 up: the largest difference and the winner's share.")
            return [problem("bad-band", message, f"{where}.bands[{wrong[0]}]")]
        if self.bands[0][1] * 2 != self.total:
            found.append(
                problem(
                    "draw-not-even",
                    t(
                        "The first band must split the %(total)s points evenly: a draw gives both the same.",
                        total=self.total,
                    ),
                    f"{where}.bands[0]",
                )
            )
        previous = (-1, self.total // 2 - 1)
        for index, (largest, winner) in enumerate(self.bands):
            place = f"{where}.bands[{index}]"
            if largest <= previous[0] or winner < previous[1] or winner > self.total:
                found.append(
                    problem(
                        "bands-out-of-order",
                        t(
                            "Each band must reach a larger difference than the one before, and give "
                            "the winner at least as much, at most %(total)s.",
                            total=self.total,
                        ),
                        place,
                    )
                )
            previous = (largest, winner)
        return found


def _is_band(band: Any) -> bool:
    return (
        isinstance(band, tuple)
        and len(band) == 2
        and all(isinstance(number, int) and not isinstance(number, bool) and number >= 0 for number in band)
    )


@dataclass(frozen=True)
class ByeRule:
    """What an entrant who sits out scores: a fixed score, or their average so far.

    ``score`` is the fixed score, and the score of a bye before the entrant has played a round.
    """

    kind: str = "fixed"
    score: int = 12

    def __post_init__(self) -> None:
        _refuse(self.problems())

    def problems(self, where: str = "bye") -> list[Violation]:
        return _choice(self.kind, BYE_KINDS, f"{where}.kind") + _whole(self.score, 0, None, f"{where}.score")


@dataclass(frozen=True)
class RoundLength:
    """How long a round lasts: minutes on a clock (with a warning), a number of hands, or the target."""

    kind: str = "minutes"
    value: int | None = 50  # NVSO's 50-minute games
    warning: int | None = 10  # ... with a 10-minute warning

    def __post_init__(self) -> None:
        _refuse(self.problems())

    def problems(self, where: str = "round_length") -> list[Violation]:
        found = _choice(self.kind, ROUND_LENGTHS, f"{where}.kind")
        if self.kind == "target":
            return found
        found += _whole(self.value, 1, 600 if self.kind == "minutes" else 100, f"{where}.value")
        if (
            self.kind == "minutes"
            and self.warning is not None
            and not found
            and _whole(self.warning, 0, self.value - 1, "")
        ):
            path = f"{where}.warning"
            message = t(
                # Translators: %(field)s is the setting as stored (round_length.warning); keep it as it is.
                "%(field)s must be a whole number of minutes shorter than the round, not %(value)s.",
                field=path,
                value=shown(self.warning),
            )
            found.append(problem("bad-warning", message, path))
        return found


@dataclass(frozen=True)
class SeasonRules:
    """How nights add up to a season: placement points or the night's score, best ``best`` nights.

    ``name`` says which season the night belongs to: nights of the same name add up together.
    Left empty, the season is the night's calendar year (:attr:`EventSettings.season_name`).
    """

    points: str = "placement"
    best: int | None = 8  # None: every night counts
    name: str = ""

    def __post_init__(self) -> None:
        _refuse(self.problems())

    def problems(self, where: str = "season") -> list[Violation]:
        found = _choice(self.points, SEASON_POINTS, f"{where}.points")
        if self.name:
            found += _text(self.name, f"{where}.name")
        elif not isinstance(self.name, str):
            found += _text(None, f"{where}.name")
        return found + ([] if self.best is None else _whole(self.best, 1, 366, f"{where}.best"))


@dataclass(frozen=True)
class EventSettings:
    """One night's settings; ``bye`` left out takes the scoring's default (12 VP, 1 MP, the average)."""

    name: str
    date: str  # ISO 8601, "2026-11-26"
    variant: str = DEFAULT_VARIANT
    house_rules: Mapping[str, Any] = field(default_factory=dict)
    rounds: int = 3
    round_length: RoundLength = RoundLength()
    first_round: str = "random"
    movement: str = "mitchell"  # "swiss" when each round is seated from the standings
    scoring: str = "victory_points"
    victory_points: VictoryPoints = VictoryPoints()
    bye: ByeRule | None = None
    no_show: str = "bye"  # docs/clubnight.md, `no_show`: the absent side 0, the side present the bye's score
    no_show_margin: int = 1500  # with no_show "margin": the Brazilian clubs' rule, a win by 1500-0
    at_time: str = "finish_hand"
    tie_breaks: tuple[str, ...] = ("matches_won", "point_balance", "head_to_head")
    final_table: int | None = None  # how many go to a final table; None: no final table
    season: SeasonRules = SeasonRules()

    def __post_init__(self) -> None:
        if self.bye is None and self.scoring in DEFAULT_BYES:
            object.__setattr__(self, "bye", ByeRule(*DEFAULT_BYES[self.scoring]))
        if self.house_rules is None:
            object.__setattr__(self, "house_rules", {})
        if isinstance(self.house_rules, Mapping):
            object.__setattr__(self, "house_rules", dict(self.house_rules))
        if isinstance(self.tie_breaks, list):
            object.__setattr__(self, "tie_breaks", tuple(self.tie_breaks))
        _refuse(self.problems())

    @property
    def rules(self) -> Variant:
        """The variant with the night's house rules: what every table plays by."""
        return rules_for(self.variant, self.house_rules)

    @property
    def season_name(self) -> str:
        """The season this night counts toward: the name chosen, or else the night's year ("2026")."""
        return self.season.name.strip() or self.date[:4]

    @property
    def movement_label(self) -> Any:
        """The movement as the organiser reads it."""
        return CHOICE_LABELS[self.movement]

    @property
    def entrant_size(self) -> int:
        """Players in one entrant: 2 for a pair, 1 where each plays alone (docs/clubnight.md "Words")."""
        return self.rules.players_per_side[0]

    def problems(self) -> list[Violation]:
        """Every setting that cannot run a night, each naming its field."""
        found = _text(self.name, "name") + _date(self.date)
        found += _variant(self.variant, self.house_rules)
        found += _whole(self.rounds, 1, MOST_ROUNDS, "rounds")
        found += _choice(self.first_round, FIRST_ROUNDS, "first_round") + _choice(self.movement, MOVEMENTS, "movement")
        found += _choice(self.scoring, SCORINGS, "scoring") + _choice(self.at_time, AT_TIME, "at_time")
        found += _choice(self.no_show, NO_SHOWS, "no_show") + _whole(self.no_show_margin, 0, 100000, "no_show_margin")
        found += _tie_breaks(self.tie_breaks)
        if self.final_table is not None:
            found += _whole(self.final_table, 2, MOST_TABLES * 2, "final_table")
        return found

    def to_dict(self) -> dict[str, Any]:
        """The settings as plain JSON-ready data, every default written out."""
        data = dataclasses.asdict(self)
        data["victory_points"]["bands"] = [list(band) for band in self.victory_points.bands]
        data["tie_breaks"] = list(self.tie_breaks)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EventSettings:
        """Settings from stored or submitted data; what is left out takes its default.

        :raises InvalidError: naming the field of every value refused, all at once.
        """
        if not isinstance(data, Mapping):
            raise InvalidError([problem("not-an-object", t("Event settings are an object."), "")])
        known = {spec.name for spec in dataclasses.fields(cls)}
        unknown = sorted(map(str, set(data) - known))
        # The first few unknown names are enough to see the mistake; a flood of them costs no more.
        found = [
            problem("unknown-setting", t("There is no setting %(field)s.", field=name), name) for name in unknown[:5]
        ]
        values = {name: value for name, value in data.items() if name in known}
        parts = {"round_length": RoundLength, "victory_points": VictoryPoints, "bye": ByeRule, "season": SeasonRules}
        for name, part in parts.items():
            if name in values and values[name] is not None:
                values[name], refused = _part(part, values[name], name)
                if refused:  # checked with its default, so the other settings' problems show too
                    del values[name]
                    found += refused
        try:
            settings = cls(**values)
        except InvalidError as error:
            found += error.violations
        except TypeError:
            found.append(problem("missing-setting", t("An event needs a name and a date."), "name"))
        if found:
            raise InvalidError(found)
        return settings


def _part(part: type, data: Any, where: str) -> tuple[Any, list[Violation]]:
    """One nested setting read from its dict, or the reasons it cannot be."""
    if not isinstance(data, Mapping):
        return None, [problem("not-an-object", t("%(field)s must be an object.", field=where), where)]
    known = {spec.name for spec in dataclasses.fields(part)}
    unknown = sorted(map(str, set(data) - known))
    if unknown:
        path = f"{where}.{unknown[0]}"  # a setting's path, not words
        return None, [problem("unknown-setting", t("There is no setting %(field)s.", field=path), path)]
    if part is VictoryPoints and "bands" in data:
        bands = data["bands"]
        path = f"{where}.bands"
        if not isinstance(bands, list) or not all(isinstance(band, list) and len(band) == 2 for band in bands):
            message = t("%(field)s must be a list of [largest difference, winner's share] pairs.", field=path)
            return None, [problem("bad-bands", message, path)]
        data = {**data, "bands": tuple(tuple(band) for band in bands)}
    try:
        value = part(**data)
    except InvalidError as error:
        return None, [replaced_field(v, where) for v in error.violations]
    except TypeError:  # a type the checks could not compare
        return None, [problem("bad-setting", t("%(field)s holds a value of the wrong kind.", field=where), where)]
    return value, []


def replaced_field(violation: Violation, where: str) -> Violation:
    """A nested setting's problem, its field placed under ``where`` (``bye.kind``)."""
    default_prefix = violation.field.partition(".")[0].partition("[")[0]
    return dataclasses.replace(violation, field=where + violation.field[len(default_prefix) :])


def _text(value: Any, where: str) -> list[Violation]:
    if isinstance(value, str) and value.strip() and len(value) <= 200:
        return []
    return [problem("bad-text", t("%(field)s must be a text of 1 to 200 characters.", field=where), where)]


def _date(value: Any) -> list[Violation]:
    try:
        datetime.date.fromisoformat(value)
    except (TypeError, ValueError):
        return [
            problem("bad-date", t("date must be a date written 2026-11-26, not %(value)s.", value=shown(value)), "date")
        ]
    return []


def _variant(key: Any, house_rules: Any) -> list[Violation]:
    try:
        rules = rules_for(key, house_rules)
    except InvalidError as error:
        return [replaced_field(v, "house_rules") if v.field != "variant" else v for v in error.violations]
    except TypeError:
        return [problem("bad-house-rules", t("house_rules must be an object."), "house_rules")]
    sizes = set(rules.players_per_side)
    if rules.sides != 2 or len(sizes) != 1:
        message = t(
            "A club night seats two sides of the same size at each table; %(variant)s does not.", variant=rules.name
        )
        return [problem("variant-not-for-club-night", message, "variant")]
    return []


def _tie_breaks(order: Any) -> list[Violation]:
    if not isinstance(order, tuple) or len(order) > len(TIE_BREAKS):
        return [problem("bad-tie-breaks", t("tie_breaks must be a list of tie-breaks, each once."), "tie_breaks")]
    found = []
    for index, key in enumerate(order):
        found += _choice(key, TIE_BREAKS, f"tie_breaks[{index}]")
    if not found and len(set(order)) != len(order):
        found.append(problem("repeated-tie-break", t("Each tie-break may appear once."), "tie_breaks"))
    return found
