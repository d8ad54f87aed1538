"""The new-match form: the match's title, each side's name and players, the house rules its
preset offers, and totals carried over from a paper sheet."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from wtforms import BooleanField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, InputRequired, Length, Optional, ValidationError

from .. import canasta
from ..canasta.text import unfit_text
from ..i18n import gettext as _
from ..i18n import lazy_gettext, text
from ..records import Side
from .boxes import NUMERIC, TableForm, WholeNumberField, in_range

TOO_LONG = lazy_gettext("Names and titles are at most 60 letters: shorten this one.")
NAME_LONGEST = 60  # letters in a side's or player's name, or a match's title


def plain_text(form: Any, field: Any) -> None:
    """A name or title is one line of text: no line break, tab or other control character.

    The length is ``Length``'s to say; this checks the characters, with the test the API and
    the import use (:func:`scorepad.canasta.text.unfit_text`).
    """
    problem = unfit_text((field.data or "")[:NAME_LONGEST], text(field.label.text), NAME_LONGEST)
    if problem is not None:
        raise ValidationError(text(problem))


def _strip(text: str | None) -> str | None:
    """Names without stray spaces, so a box of spaces counts as empty."""
    return text.strip() if isinstance(text, str) else text


class MatchForm(TableForm):
    """A new match: title, side and player names, house rules, starting totals."""

    title = StringField(
        lazy_gettext("Name of the match (optional)"),
        [Optional(), Length(max=NAME_LONGEST, message=TOO_LONG), plain_text],
    )

    def __init__(self, *args: Any, variant: canasta.Variant, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.variant = variant

    def side_blocks(self) -> list[tuple[Any, list[Any], Any]]:
        """Per side: the name box, the player boxes and the starting-total box."""
        return [
            (
                self[f"side_{i}"],
                [self[f"side_{i}_player_{j}"] for j in range(self.variant.players_per_side[i])],
                self[f"start_{i}"],
            )
            for i in range(self.variant.sides)
        ]

    def option_fields(self) -> list[Any]:
        return [self[f"option_{option_id}"] for option_id in self.variant.option_ids]

    def sides(self) -> tuple[Side, ...]:
        return tuple(
            Side(name.data.strip(), tuple(p.data.strip() for p in players if p.data and p.data.strip()))
            for name, players, _start in self.side_blocks()
        )

    @property
    def resuming(self) -> bool:
        """Whether any starting total was typed or is wrong, so its section shows open."""
        starts = [start for _name, _players, start in self.side_blocks()]
        return any(start.errors or start.raw_data and start.raw_data[0].strip() for start in starts)

    @property
    def house_rules_wrong(self) -> bool:
        """Whether a house rule in the folded section is wrong (the target has its own box)."""
        return any(option.errors for option in self.option_fields() if option.name != "option_target")

    def starting_totals(self) -> tuple[int, ...] | None:
        """Totals carried over from a paper sheet; None when every box is empty."""
        values = [start.data for _name, _players, start in self.side_blocks()]
        if all(value is None for value in values):
            return None
        return tuple(value or 0 for value in values)

    def to_variant(self) -> canasta.Variant:
        """The preset with the house rules as chosen.

        :raises OptionError: naming every refused option as ``options.<id>``.
        """
        return self.variant.with_options(
            {option_id: self[f"option_{option_id}"].data for option_id in self.variant.option_ids}
        )

    def attach(self, violations: Iterable[canasta.Violation]) -> None:
        for violation in violations:
            head, _, tail = violation.field.partition(".")
            if head == "options" and f"option_{tail}" in self._fields:
                field = self[f"option_{tail}"]
            elif head == "starting_totals":
                typed = [start for _name, _players, start in self.side_blocks() if start.data]
                field = typed[0] if typed else self["start_0"]
            else:
                self.problems.append(violation.message)
                continue
            field.errors = [*field.errors, violation.message]


def _option_field(variant: canasta.Variant, option_id: str) -> Any:
    option = variant.option_spec(option_id)
    default = getattr(variant, option_id)
    label, help_text = option.label, option.help
    if option.kind is bool:
        return BooleanField(label, default=default, description=help_text)
    if option.choices is not None:
        return SelectField(
            label,
            choices=[SelectChoice(choice, text(option.choice_label(choice))) for choice in option.choices],
            coerce=option.kind,
            default=default,
            description=help_text,
        )
    required = InputRequired(message=_("%(box)s: enter a number.", box=text(label)))
    validators = [Optional() if option.nullable else required, in_range(label, option.low, option.high)]
    return WholeNumberField(label, validators, default=default, description=help_text, render_kw=NUMERIC)


def match_form(variant: canasta.Variant, **kwargs: Any) -> MatchForm:
    """The new-match form for a preset: its sides, players and every house rule it has."""
    fields: dict[str, Any] = {}
    for i in range(variant.sides):
        fields[f"side_{i}"] = StringField(
            _("Name"),
            [
                DataRequired(_("Give this side a name (up to 60 letters).")),
                Length(max=NAME_LONGEST, message=TOO_LONG),
                plain_text,
            ],
            default=text(variant.side_names[i]),  # "Nosotros" at a Spanish table: names are stored as typed
            filters=[_strip],
        )
        for j in range(variant.players_per_side[i]):
            fields[f"side_{i}_player_{j}"] = StringField(
                _("Player %(number)s", number=j + 1),
                [Optional(), Length(max=NAME_LONGEST, message=TOO_LONG), plain_text],
                filters=[_strip],
            )
        label = _("%(side)s: starting total", side=text(variant.side_names[i]))
        fields[f"start_{i}"] = WholeNumberField(
            label,
            [Optional(), in_range(label, -100_000, 100_000)],
            render_kw={"step": 5},  # no numeric keypad: a paper total can be negative
        )
    for option_id in variant.option_ids:
        fields[f"option_{option_id}"] = _option_field(variant, option_id)
    form_class = type("VariantMatchForm", (MatchForm,), fields)
    return form_class(variant=variant, **kwargs)
