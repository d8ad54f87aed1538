"""Forms: the shape of what players type, turned into core objects with one method each.

Forms check that a box holds a whole number in range; every rule of the game is the core's,
and its :class:`~scorepad.canasta.Violation` s come back onto the field they are about
(``entries[1].red_threes`` is side 1's red threes box) so the error shows next to the box.
A form class is built per variant, because only the boxes a variant uses are shown.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from wtforms import BooleanField, Form, HiddenField, IntegerField, RadioField, SelectField, StringField
from wtforms.fields import FieldList, FormField
from wtforms.fields.choices import SelectChoice
from wtforms.fields.simple import PasswordField
from wtforms.validators import (
    DataRequired,
    InputRequired,
    Length,
    NumberRange,
    Optional,
    StopValidation,
    ValidationError,
)

from . import canasta
from .canasta.cards import BLACK_THREE_VALUE, CARD_CLASSES, CARD_GROUPS
from .canasta.entries import held_set_cards
from .canasta.scoring import UNFINISHED
from .canasta.text import unfit_text
from .documents import Side
from .i18n import text

NUMERIC = {"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"}

# The card counter's classes: what players sort a pile into, with the API class each fills first
# and the others it adds up when a stored count is shown. "High" and "low" cards share a value
# and are counted without telling ranks apart, so they are kept as the API's groups K-8 and 7-4
# (a count of them is never one rank); ranks a count from elsewhere gives join their group's box.
# Each label shows the value the rules core gives the class.
VALUE = CARD_CLASSES
COUNTER_CLASSES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("joker", lazy_gettext("Jokers (%(value)s)", value=VALUE["joker"]), ("joker",)),
    ("two", lazy_gettext("Twos (%(value)s)", value=VALUE["2"]), ("2",)),
    ("ace", lazy_gettext("Aces (%(value)s)", value=VALUE["A"]), ("A",)),
    # Translators: the ranks as players in your language write them on the cards (German: K D B).
    ("high", lazy_gettext("K Q J 10 9 8 (%(value)s)", value=VALUE["K-8"]), ("K-8", *CARD_GROUPS["K-8"])),
    ("low", f"7 6 5 4 ({VALUE['7-4']})", ("7-4", *CARD_GROUPS["7-4"])),
    ("black3", lazy_gettext("Black threes (%(value)s)", value=VALUE["black3"]), ("black3",)),
)
PILES = (("melded", "melded_points", "melded_cards"), ("hand", "hand_points", "hand_cards"))
MAX_POINTS = 10_000
MAX_COUNT = 200
# Beyond any number a Canasta box takes, and far inside what a range check can compare
# (WTForms' NumberRange turns a 310-digit number into a float and fails with OverflowError).
LARGEST = 10**9
TOKEN_REFUSED = lazy_gettext(
    "Not saved yet: this page's security check did not pass (it was opened in another browser, "
    "or the browser dropped its session). Everything you typed is still here: check it and save again."
)


def in_range(label: str, low: int | None, high: int | None) -> NumberRange:
    """A range check whose message names the box and the rule, e.g. "Red threes: 0 to 12"."""
    box = text(label)
    if low is not None and high is not None:
        message = _("%(box)s must be a whole number from %(low)s to %(high)s.", box=box, low=low, high=high)
    elif low is not None:
        message = _("%(box)s must be a whole number of at least %(low)s.", box=box, low=low)
    else:
        message = _("%(box)s must be a whole number of at most %(high)s.", box=box, high=high)
    return NumberRange(low, high, message=message)


class WholeNumberField(IntegerField):
    """A whole number box whose messages say which box and what it takes, and say it once.

    WTForms would say "Not a valid integer value." and then run the range check on nothing;
    a player reading that at the table does not know which box or what to type instead.
    """

    def process_formdata(self, valuelist: list[str]) -> None:
        if valuelist and not str(valuelist[0]).strip():
            self.data = None  # an empty box: Optional or InputRequired decides what that means
            return
        try:
            super().process_formdata(valuelist)
        except ValueError:
            raise ValueError(self.not_whole()) from None
        if self.data is not None and abs(self.data) > LARGEST:
            self.data = None
            raise ValueError(self.too_large())

    def not_whole(self) -> str:
        """What a box that holds no whole number says ("abc", "12.5")."""
        return _("%(box)s must be a whole number, like 120 (no letters or decimals).", box=text(self.label.text))

    def too_large(self) -> str:
        """The box's own range message, or a plain one when it has no range."""
        ranges = [v.message for v in self.validators if isinstance(v, NumberRange) and v.message]
        return (
            ranges[0]
            if ranges
            else _("%(box)s is far too large: type a whole number, like 120.", box=text(self.label.text))
        )

    def pre_validate(self, form: Any) -> None:
        if self.process_errors:
            raise StopValidation()  # the box could not be read: the range says nothing more


class CountField(WholeNumberField):
    """A whole number of points or cards where an empty box means 0, as on the paper sheet."""

    def __init__(self, label: str, validators: Sequence[Any] = (), step: int = 1, high: int = MAX_POINTS, **kwargs):
        render_kw = {**NUMERIC, "min": 0, "step": step, "placeholder": "0", **kwargs.pop("render_kw", {})}
        kwargs.setdefault("default", 0)
        super().__init__(label, [in_range(label, 0, high), *validators], render_kw=render_kw, **kwargs)
        self.step = step

    def not_whole(self) -> str:
        """A count of cards or canastas says its range ("from 0 to 20"): "like 120" is a points box's example."""
        return self.too_large() if self.step == 1 else super().not_whole()

    def process_formdata(self, valuelist: list[str]) -> None:
        if not valuelist or not valuelist[0].strip():
            self.data = 0
            return
        super().process_formdata(valuelist)

    def _value(self) -> str:
        if not self.raw_data and not self.data:
            return ""  # a zero shows as the placeholder, so typing never starts with "0"
        return super()._value()


# A hand form's submission key: made here (token_urlsafe) or by the offline queue; 8 to 64 characters.
SUBMISSION_KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")


def version_number(text: Any) -> int:
    """The match version a page was showing; 0 (always stale) for anything that is not one.

    >>> version_number("12"), version_number("x"), version_number("9" * 30)
    (12, 0, 0)
    """
    try:
        number = int(str(text).strip())
    except (TypeError, ValueError):
        return 0
    return number if 0 <= number < 2**63 else 0  # SQLite integers are 64-bit


# --- hand entry ---------------------------------------------------------------------------
def side_form_class(variant: canasta.Variant, players: int) -> type[Form]:
    """The boxes one side fills in, for the boxes this variant uses."""

    class SideForm(Form):
        melded_points = CountField(_("Melded points"), step=5)
        hand_points = CountField(_("Points in hand"), step=5)

    fields: dict[str, Any] = {}
    for key, kind in variant.canasta_kinds.items():
        fields[f"canasta_{key}"] = CountField(kind.label, high=20)
    fields["red_threes"] = CountField(_("Red threes"), high=12)
    if variant.black_threes_scored:
        fields["black_threes"] = CountField(_("Black threes laid out"), high=12)
    if variant.black_three_in_hand != BLACK_THREE_VALUE:  # it costs more than its card value
        fields["black_threes_in_hand"] = CountField(_("Black threes left in hand"), high=12)
    fields["went_out"] = BooleanField(_("Went out"))
    if variant.concealed is not None:
        fields["concealed"] = BooleanField(_("Concealed"))
    if variant.special_hands:
        choices = [SelectChoice("", _("None"))] + [
            SelectChoice(key, f"{text(canasta.scoring.SPECIAL_HAND_LABELS.get(key, key))} ({value})")
            for key, value in variant.special_hands
        ]
        fields["special_hand"] = SelectField(_("Went out with a special hand"), choices=choices, default="")
    for kind, penalty in variant.incomplete_penalties.items():
        meld = text(UNFINISHED.get(kind, kind))  # "Unfinished sevens meld", as the score line says it
        # Translators: %(meld)s is a score line such as "Unfinished sevens meld"; the figure is its penalty.
        label = _("%(meld)s (−%(penalty)s)", meld=meld, penalty=penalty)
        fields[f"incomplete_{kind}"] = BooleanField(label)
    for kind, penalty in variant.held_set_penalties:
        cards = text(held_set_cards(variant, kind))  # "sevens", in the page's language
        label = _("Players holding 3+ %(kind)s (−%(penalty)s each)", kind=cards, penalty=penalty)
        fields[f"held_{kind}"] = CountField(label, high=players)
    if variant.restore_pile_penalty:
        label = _("Piles put back (−%(penalty)s each)", penalty=variant.restore_pile_penalty)
        fields["restored_piles"] = CountField(label, high=50)
    fields["penalty_points"] = CountField(_("Other penalties"), step=5)
    for pile, _points, _cards in PILES:
        for key, label, _classes in COUNTER_CLASSES:
            fields[f"{pile}_{key}"] = CountField(label, high=MAX_COUNT)
    return type("SideForm", (SideForm,), fields)


class TableForm(FlaskForm):
    """A form whose refused token is a message above the boxes, like any other problem.

    Its view checks the token through the form (``security.form_checks_token``), so a page left
    open in another browser, or one whose session cookie is gone, comes back filled in with this
    message and a fresh token instead of a bare error page.
    """

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.problems: list[str] = []

    @property
    def token_refused(self) -> bool:
        return bool(self.meta.csrf and self.csrf_token.errors)

    def validate(self, extra_validators: Mapping[str, Sequence[Any]] | None = None) -> bool:
        valid = super().validate(extra_validators)
        if self.token_refused and TOKEN_REFUSED not in self.problems:
            self.problems.insert(0, TOKEN_REFUSED)
        return valid


class HandForm(TableForm):
    """A whole hand: one block per side; ``version`` is the match version the page showed."""

    version = HiddenField()  # anything but the current version is treated as stale, never hidden away
    # This form's key, new each time a form is shown (the offline queue gives each queued hand its
    # own): a save sent twice is recognised by it (store.saved_submission).
    submission = HiddenField(default=lambda: secrets.token_urlsafe(16))

    def __init__(self, *args: Any, variant: canasta.Variant, side_names: Sequence[str], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.variant = variant
        self.side_names = tuple(side_names)
        self.side_problems: dict[int, list[str]] = {index: [] for index in range(variant.sides)}

    @property
    def side_blocks(self) -> list[tuple[int, str, Form]]:
        """Each side's index, name and sub-form, in sheet order."""
        return [(index, self.side_names[index], entry.form) for index, entry in enumerate(self.sides)]

    def version_number(self) -> int:
        return version_number(self.version.data)

    def submission_key(self) -> str | None:
        """The form's key when it looks like one (never stored otherwise: it is the client's text)."""
        key = self.submission.data or ""
        return key if SUBMISSION_KEY.fullmatch(key) else None

    def counter_fields(self, side: Form, pile: str) -> list[Any]:
        return [side[f"{pile}_{key}"] for key, _label, _classes in COUNTER_CLASSES]

    def counting(self, side: Form) -> bool:
        """Whether cards were counted for this side (or a count is wrong), so the counter shows open."""
        return any(
            field.data or field.errors for pile, _points, _cards in PILES for field in self.counter_fields(side, pile)
        )

    def counter_value(self, field: Any) -> int:
        """What one card of a counter box is worth, from the core's card values (for the live sum)."""
        key = field.short_name.partition("_")[2]
        classes = next(classes for name, _label, classes in COUNTER_CLASSES if name == key)
        return canasta.cards.CARD_CLASSES[classes[0]]

    def canasta_fields(self, side: Form) -> list[Any]:
        return [side[f"canasta_{key}"] for key in self.variant.canasta_kinds]

    def extra_fields(self, side: Form) -> list[Any]:
        """Boxes beyond points, canastas and red threes, in the order the variant uses them."""
        names = [
            name
            for name in side._fields
            if name.startswith(("incomplete_", "held_"))
            or name in ("black_threes", "black_threes_in_hand", "special_hand", "restored_piles", "penalty_points")
        ]
        return [side[name] for name in names]

    def to_hand(self) -> canasta.Hand:
        """The hand as the core reads it.

        :raises InvalidError: for input the core's reader refuses (fields as ``entries[i]...``).
        """
        data: dict[str, Any] = {"entries": [self._entry(entry.form) for entry in self.sides]}
        if "partnership" in self._fields and self.partnership.data:
            data["partnership"] = [int(i) for i in self.partnership.data.split("-")]
        return canasta.Hand.from_dict(data)

    def _entry(self, side: Form) -> dict[str, Any]:
        """A side's boxes as the core's ENTRY object, holding only what was filled in."""
        values = side.data
        entry = self._piles(values)
        entry.update(self._kinds_filled(values))
        entry.update(_numbers_and_flags(values))
        return entry

    def _piles(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Melded cards and cards in hand: card counts when the counter was used, else points."""
        entry: dict[str, Any] = {}
        for pile, points, cards in PILES:
            counts = {key: values[f"{pile}_{key}"] or 0 for key, _label, _classes in COUNTER_CLASSES}
            if any(counts.values()):
                entry[cards] = counter_counts(counts)
            else:
                entry[points] = values[points] or 0
        return entry

    def _kinds_filled(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Canastas, held sets and unfinished melds of each kind the variant has, where filled in."""
        entry: dict[str, Any] = {}
        canastas = {key: values[f"canasta_{key}"] for key in self.variant.canasta_kinds if values[f"canasta_{key}"]}
        if canastas:
            entry["canastas"] = canastas
        held = {kind: values[f"held_{kind}"] for kind, _p in self.variant.held_set_penalties if values[f"held_{kind}"]}
        if held:
            entry["held_sets"] = held
        incomplete = [kind for kind in self.variant.incomplete_penalties if values[f"incomplete_{kind}"]]
        if incomplete:
            entry["incomplete"] = incomplete
        return entry

    def attach(self, violations: Iterable[canasta.Violation], hand_index: int | None = None) -> None:
        """Put each core violation next to the box it is about, or above the form."""
        for violation in violations:
            self._attach(violation, hand_index)

    def _attach(self, violation: canasta.Violation, hand_index: int | None) -> None:
        found = FIELD_PATH.match(violation.field)
        hand, side, rest = found.group("hand"), found.group("side"), found.group("rest")
        if hand is not None and int(hand) != hand_index:
            self.problems.append(
                _("Hand %(number)s: %(problem)s", number=int(hand) + 1, problem=text(violation.message))
            )
            return
        if side is None:
            if rest == "partnership" and "partnership" in self._fields:
                self.partnership.errors = [*self.partnership.errors, violation.message]
            else:
                self.problems.append(violation.message)
            return
        index = int(side)
        if index >= len(self.sides):
            self.problems.append(violation.message)
            return
        form = self.sides[index].form
        name = _side_field_name(rest, form)
        if name is None:
            self.side_problems[index].append(violation.message)
        else:
            form[name].errors = [*form[name].errors, violation.message]

    def fill(self, hand: canasta.Hand, version: int) -> None:
        """Show a stored hand in the boxes, for editing it."""
        self.version.data = str(version)
        for entry, side in zip(hand.entries, self.sides, strict=False):
            for name, value in entry_values(entry, self.variant).items():
                if name in side.form._fields:
                    side.form[name].data = value
        if "partnership" in self._fields:
            self.partnership.data = "-".join(str(i) for i in sorted(hand.partnership)) if hand.partnership else ""

    @property
    def has_errors(self) -> bool:
        """Any problem anywhere: above the form, on a side, or next to a box."""
        boxes = [field for field in self if field.name != "sides"]
        boxes += [field for entry in self.sides for field in entry.form]
        return bool(self.problems or any(self.side_problems.values()) or any(field.errors for field in boxes))


FIELD_PATH = re.compile(r"^(?:hands\[(?P<hand>\d+)\]\.?)?(?:entries\[(?P<side>\d+)\]\.?)?(?P<rest>.*)$")
_SUBFIELDS = {"canastas": "canasta_", "held_sets": "held_"}


def _side_field_name(path: str, form: Form) -> str | None:
    head, _, tail = path.partition(".")
    if head in _SUBFIELDS and tail:
        name = _SUBFIELDS[head] + tail
    elif head == "incomplete":
        name = next((n for n in form._fields if n.startswith("incomplete_")), "")
    elif head in ("melded_cards", "hand_cards"):
        name = _counter_box(head, tail) or head.replace("_cards", "_points")
    else:
        name = head
    return name if name in form._fields else None


def _counter_box(pile: str, card_class: str) -> str | None:
    """The counter box a card class is counted in ("melded_cards", "K-8" -> "melded_high")."""
    key = next((key for key, _label, classes in COUNTER_CLASSES if card_class in classes), None)
    return f"{pile.removesuffix('_cards')}_{key}" if key else None


def _numbers_and_flags(values: Mapping[str, Any]) -> dict[str, Any]:
    """A side's plain counts, yes/no boxes and special hand, where filled in."""
    entry: dict[str, Any] = {}
    for name in ("red_threes", "black_threes", "black_threes_in_hand", "restored_piles", "penalty_points"):
        if values.get(name):
            entry[name] = values[name]
    for name in ("went_out", "concealed"):
        if values.get(name):
            entry[name] = True
    if values.get("special_hand"):
        entry["special_hand"] = values["special_hand"]
    return entry


def counter_counts(counts: Mapping[str, int]) -> dict[str, int]:
    """Counter boxes as API card classes, the groups kept as groups.

    >>> counter_counts({"joker": 1, "two": 2, "high": 5, "low": 6, "ace": 0})
    {'joker': 1, '2': 2, 'K-8': 5, '7-4': 6}
    """
    return {classes[0]: counts[key] for key, _label, classes in COUNTER_CLASSES if counts.get(key)}


def entry_values(entry: canasta.Entry, variant: canasta.Variant) -> dict[str, Any]:
    """The boxes of a side's block filled from a stored entry."""
    values: dict[str, Any] = {
        "melded_points": entry.melded_points,
        "hand_points": entry.hand_points,
        "red_threes": entry.red_threes,
        "black_threes": entry.black_threes,
        "black_threes_in_hand": entry.black_threes_in_hand,
        "went_out": entry.went_out,
        "concealed": entry.concealed,
        "special_hand": entry.special_hand or "",
        "penalty_points": entry.penalty_points,
        "restored_piles": entry.restored_piles,
    }
    for key in variant.canasta_kinds:
        values[f"canasta_{key}"] = entry.canastas.get(key, 0)
    for kind, _penalty in variant.held_set_penalties:
        values[f"held_{kind}"] = entry.held_sets.get(kind, 0)
    for kind in variant.incomplete_penalties:
        values[f"incomplete_{kind}"] = kind in entry.incomplete
    for pile, points, cards in PILES:
        counts = getattr(entry, cards)
        if counts:
            values[points] = 0
            for key, _label, classes in COUNTER_CLASSES:
                values[f"{pile}_{key}"] = sum(counts.get(card_class, 0) for card_class in classes)
    return values


def hand_form(variant: canasta.Variant, side_names: Sequence[str], players: Sequence[int], **kwargs: Any) -> HandForm:
    """A hand form for this variant's sides (and, for three players, who partnered)."""
    side_class = side_form_class(variant, max(players))
    fields: dict[str, Any] = {
        "sides": FieldList(FormField(side_class), min_entries=variant.sides, max_entries=variant.sides)
    }
    if variant.temporary_partnerships:
        pairs = [
            SelectChoice(f"{i}-{j}", _("%(first)s with %(second)s", first=side_names[i], second=side_names[j]))
            for i in range(variant.sides)
            for j in range(i + 1, variant.sides)
        ]
        fields["partnership"] = RadioField(
            _("Who played together this hand?"),
            choices=[SelectChoice("", _("Everyone alone")), *pairs],
            default="",
            validate_choice=True,
        )
    form_class = type("VariantHandForm", (HandForm,), fields)
    return form_class(variant=variant, side_names=side_names, **kwargs)


# --- a new match ------------------------------------------------------------------------------
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


class OrganiserForm(FlaskForm):
    """The organiser's sign-in: the passphrase the server's owner set."""

    passphrase = PasswordField(
        lazy_gettext("Organiser passphrase"),
        [InputRequired(message=lazy_gettext("Type the organiser passphrase.")), Length(max=1000)],
        render_kw={"autocomplete": "current-password"},
    )
