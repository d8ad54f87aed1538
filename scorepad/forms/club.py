"""The club night's forms: the event's settings, an entrant, and the director's notes.

The forms check the shape of what was typed; :class:`EventSettings` checks the night
(``from_dict`` refuses every bad value at once, each naming its field), and
:func:`attach` puts each refusal under the box it names.
"""

from __future__ import annotations

from typing import Any

from markupsafe import escape
from wtforms import HiddenField, SelectField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional, ValidationError

from .. import canasta
from ..canasta.text import unfit_text
from ..club.core import settings as defaults
from ..club.core.settings import CHOICE_LABELS, DEFAULT_BANDS, EventSettings
from ..i18n import lazy_gettext, text
from .boxes import PageForm, WholeNumberField

NAME = 100  # longest event, entrant or player name
REASON = 500  # longest reason, note or announcement


def one_line(form: Any, field: Any) -> None:
    """A name is one line of text, tested as every name in scorepad is (``unfit_text``); its
    length is ``Length``'s to say."""
    value = field.data or ""
    problem = unfit_text(value, text(field.label.text), len(value))
    if problem is not None:
        raise ValidationError(text(problem))


def within(label: Any, low: int, high: int) -> NumberRange:
    """A range whose message names its box, said in the request's language (forms.boxes.in_range, made at import)."""
    message = lazy_gettext("%(box)s must be a whole number from %(low)s to %(high)s.", box=label, low=low, high=high)
    return NumberRange(low, high, message=message)


ROUND, TABLE, AMOUNT = lazy_gettext("Round"), lazy_gettext("Table"), lazy_gettext("Amount (negative for a penalty)")


def _choices(codes: tuple[str, ...]) -> list[SelectChoice]:
    return [SelectChoice(code, LazyLabel(CHOICE_LABELS[code])) for code in codes]


class LazyLabel:
    """A core message as a choice's label, said in the request's language when the form renders."""

    def __init__(self, message: Any) -> None:
        self.message = message

    def __str__(self) -> str:
        return str(text(self.message))

    def __html__(self) -> str:
        return str(escape(str(self)))


def _tie_breaks() -> list[SelectChoice]:
    return [SelectChoice("", lazy_gettext("nothing more")), *_choices(defaults.TIE_BREAKS)]


def entrant_choices(names: list[str]) -> list[SelectChoice]:
    return [SelectChoice(name, name) for name in names]


def _variants() -> list[SelectChoice]:
    """The presets a club night can seat: two sides of the same size."""
    return [
        SelectChoice(variant.key, text(variant.name))
        for variant in canasta.VARIANTS.values()
        if variant.sides == 2 and len(set(variant.players_per_side)) == 1
    ]


def bands_text(bands: tuple[tuple[int, int], ...]) -> str:
    """The victory-point table as the form shows it: one band a line, 'largest difference: winner's share'.

    >>> bands_text(((100, 10), (300, 11)))
    '100: 10\\n300: 11'
    """
    return "\n".join(f"{limit}: {share}" for limit, share in bands)


def read_bands(text: str) -> list[list[Any]]:
    """The bands typed, each line read as two whole numbers; a line that is not is kept as text to refuse.

    >>> read_bands("100: 10\\n 300 11 \\n\\nmany")
    [[100, 10], [300, 11], ['many']]
    """
    bands: list[list[Any]] = []
    for line in text.splitlines():
        parts = line.replace(":", " ").replace("-", " ").split()
        if not parts:
            continue
        bands.append([int(part) for part in parts] if all(part.isdigit() for part in parts) else [line.strip()])
    return bands[: defaults.MOST_BANDS + 1]


class EventForm(PageForm):
    """A new club night: every box starts at its default (docs/clubnight.md)."""

    name = StringField(lazy_gettext("Name of the night"), [InputRequired(), Length(max=NAME), one_line])
    date = StringField(lazy_gettext("Date"), [InputRequired(), Length(max=10), one_line], render_kw={"type": "date"})
    variant = SelectField(lazy_gettext("Rules"), choices=_variants, default=canasta.DEFAULT_VARIANT)
    rounds = WholeNumberField(lazy_gettext("Rounds"), [InputRequired()], default=3)
    round_length = SelectField(lazy_gettext("How long a round lasts"), choices=_choices(defaults.ROUND_LENGTHS))
    length_value = WholeNumberField(lazy_gettext("Minutes or hands per round"), [Optional()], default=50)
    warning = WholeNumberField(lazy_gettext("Warning, minutes before time"), [Optional()], default=10)
    at_time = SelectField(lazy_gettext("At time"), choices=_choices(defaults.AT_TIME))
    first_round = SelectField(lazy_gettext("Round 1"), choices=_choices(defaults.FIRST_ROUNDS))
    movement = SelectField(lazy_gettext("Later rounds"), choices=_choices(defaults.MOVEMENTS))
    scoring = SelectField(lazy_gettext("A round scores"), choices=_choices(defaults.SCORINGS))
    victory_points = TextAreaField(
        lazy_gettext("Victory points: largest difference, winner's share (one band a line)"),
        [Length(max=2000)],
        default=bands_text(DEFAULT_BANDS),
    )
    bye_score = WholeNumberField(lazy_gettext("A bye scores"), [Optional()], default=12)
    no_show = SelectField(lazy_gettext("A no-show"), choices=_choices(defaults.NO_SHOWS), default="bye")
    no_show_margin = WholeNumberField(lazy_gettext("No-show margin (points)"), [InputRequired()], default=1500)
    final_table = WholeNumberField(lazy_gettext("Final table for the top (leave empty for none)"), [Optional()])
    tie_break_1 = SelectField(lazy_gettext("First tie-break"), choices=_tie_breaks, default="matches_won")
    tie_break_2 = SelectField(lazy_gettext("Second tie-break"), choices=_tie_breaks, default="point_balance")
    tie_break_3 = SelectField(lazy_gettext("Third tie-break"), choices=_tie_breaks, default="head_to_head")
    tie_break_4 = SelectField(lazy_gettext("Fourth tie-break"), choices=_tie_breaks, default="")
    season_points = SelectField(
        lazy_gettext("Toward the season, each night gives"), choices=_choices(defaults.SEASON_POINTS)
    )
    season_best = WholeNumberField(
        lazy_gettext("Best nights that count (leave empty for every night)"), [Optional()], default=8
    )
    season_name = StringField(
        lazy_gettext("Season"),
        [Optional(), Length(max=NAME), one_line],
        description=lazy_gettext("Nights with the same season add up together. Leave empty for the night’s year."),
    )

    def to_settings_data(self) -> dict[str, Any]:
        """What was typed as :meth:`EventSettings.from_dict` reads it."""
        length: dict[str, Any] = {"kind": self.round_length.data}
        if self.round_length.data != "target":
            length["value"] = self.length_value.data
            length["warning"] = self.warning.data if self.round_length.data == "minutes" else None
        data: dict[str, Any] = {
            "name": (self.name.data or "").strip(),
            "date": self.date.data,
            "variant": self.variant.data,
            "rounds": self.rounds.data,
            "round_length": length,
            "at_time": self.at_time.data,
            "first_round": self.first_round.data,
            "movement": self.movement.data,
            "scoring": self.scoring.data,
            "victory_points": {"total": 20, "bands": read_bands(self.victory_points.data or "")},
            "no_show": self.no_show.data,
            "no_show_margin": self.no_show_margin.data,
            "final_table": self.final_table.data,
            "tie_breaks": [box.data for box in self.tie_break_boxes if box.data],
            "season": {
                "points": self.season_points.data,
                "best": self.season_best.data,
                "name": (self.season_name.data or "").strip(),
            },
        }
        if self.bye_score.data is not None:
            kind = "average" if self.scoring.data == "points" else "fixed"
            data["bye"] = {"kind": kind, "score": self.bye_score.data}
        return data

    @property
    def tie_break_boxes(self) -> list[SelectField]:
        return [self.tie_break_1, self.tie_break_2, self.tie_break_3, self.tie_break_4]

    def attach(self, error: canasta.InvalidError) -> None:
        """Each refusal under the box its field names (``round_length.value`` under the minutes)."""
        boxes = {"round_length.value": self.length_value, "round_length.warning": self.warning, "bye": self.bye_score,
                 "tie_breaks": self.tie_break_1, "season": self.season_best,
                 "season.name": self.season_name}  # fmt: skip
        for violation in error.violations:
            where = violation.field or "name"
            box = boxes.get(where) or boxes.get(where.partition(".")[0]) or getattr(self, where.split(".")[0], None)
            if box is None or not hasattr(box, "errors"):
                box = self.name
            if isinstance(box.errors, tuple):
                box.errors = list(box.errors)
            # The box's own words, not the setting's stored name (round_length.warning).
            said = str(text(violation.message))
            if violation.field and said.startswith(violation.field + " "):
                said = str(box.label.text) + said[len(violation.field) :]
            if said not in box.errors:
                box.errors.append(said)


def settings_from(form: EventForm) -> EventSettings:
    """The night's settings. :raises InvalidError: naming the field of every value refused."""
    return EventSettings.from_dict(form.to_settings_data())


class EntrantForm(PageForm):
    """A pair or a player joins the night (a late arrival before a round starts, too)."""

    # DataRequired: a name of spaces alone is no name (it was entered as an entrant called "").
    name = StringField(lazy_gettext("Name (a pair's or a player's)"), [DataRequired(), Length(max=NAME), one_line])
    players = StringField(lazy_gettext("Players, separated by commas"), [Optional(), Length(max=NAME * 3), one_line])
    # The page shows one box per player (as many as a side seats), each offering the club's known players.
    player_1 = StringField(lazy_gettext("Player %(number)s", number=1), [Optional(), Length(max=NAME), one_line])
    player_2 = StringField(lazy_gettext("Player %(number)s", number=2), [Optional(), Length(max=NAME), one_line])
    player_3 = StringField(lazy_gettext("Player %(number)s", number=3), [Optional(), Length(max=NAME), one_line])

    def player_boxes(self, size: int) -> list[Any]:
        """The boxes the page shows for a side of ``size`` players: none when each plays alone (the name is theirs)."""
        return [self.player_1, self.player_2, self.player_3][:size] if size > 1 else []

    def player_names(self) -> tuple[str, ...]:
        """The players as typed in their boxes, or (a client that sends the older field) separated by commas."""
        boxes = [box.data.strip() for box in (self.player_1, self.player_2, self.player_3) if (box.data or "").strip()]
        return tuple(boxes) or tuple(p.strip() for p in (self.players.data or "").split(",") if p.strip())


class RenameForm(PageForm):
    """The organiser corrects an entrant's name before they play."""

    name = HiddenField()
    new_name = StringField(lazy_gettext("New name"), [InputRequired(), Length(max=NAME), one_line])


class ReasonForm(PageForm):
    """A correction's note or an announcement: one text, with what it concerns."""

    text = TextAreaField(lazy_gettext("Reason"), [DataRequired(), Length(max=REASON)])
    round = WholeNumberField(ROUND, [Optional(), within(ROUND, 1, defaults.MOST_ROUNDS)])
    table = WholeNumberField(TABLE, [Optional(), within(TABLE, 1, defaults.MOST_TABLES)])
    by = StringField(
        lazy_gettext("Made by"),
        [Optional(), Length(max=NAME), one_line],
        description=lazy_gettext("Your name, so everyone sees who changed the result (this device remembers it)."),
    )


class AnnouncementForm(PageForm):
    """A message for every table's sheet and the standings."""

    text = TextAreaField(lazy_gettext("Announcement"), [DataRequired(), Length(max=REASON)])


class AdjustmentForm(PageForm):
    """A penalty (a negative amount) or an adjustment, in the round's units, with its reason."""

    entrant = SelectField(lazy_gettext("Entrant"), choices=[], validate_choice=True)
    round = WholeNumberField(ROUND, [InputRequired(), within(ROUND, 1, defaults.MOST_ROUNDS)])
    amount = WholeNumberField(AMOUNT, [InputRequired(), within(AMOUNT, -1000, 1000)])
    reason = StringField(
        lazy_gettext("Reason"),
        [DataRequired(lazy_gettext("A penalty or an adjustment needs a reason.")), Length(max=REASON), one_line],
    )


class DisputeForm(PageForm):
    """A side at the table does not agree with the result."""

    note = TextAreaField(lazy_gettext("What is wrong?"), [Optional(), Length(max=REASON)])


class PlanForm(PageForm):
    """The rest of the night: its movement and number of rounds, for the rounds not seated yet."""

    movement = SelectField(lazy_gettext("Later rounds"), choices=_choices(defaults.MOVEMENTS))
    rounds = WholeNumberField(
        lazy_gettext("Rounds"), [InputRequired(), within(lazy_gettext("Rounds"), 1, defaults.MOST_ROUNDS)]
    )
