"""The hand form: one block of boxes per side, built for the variant, read into a core hand,
with the core's violations put back next to the box each is about."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from wtforms import BooleanField, Form, HiddenField, RadioField, SelectField
from wtforms.fields import FieldList, FormField
from wtforms.fields.choices import SelectChoice

from .. import canasta
from ..canasta.cards import BLACK_THREE_VALUE, CARD_CLASSES, CARD_GROUPS
from ..canasta.entries import held_set_cards
from ..canasta.scoring import UNFINISHED
from ..i18n import gettext as _
from ..i18n import lazy_gettext, text
from .boxes import MAX_POINTS, CountField, TableForm, WTFormsMessages

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
MAX_COUNT = 200


# A hand form's submission key: made here (token_urlsafe) or by the offline queue; 8 to 64 characters.
SUBMISSION_KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")


def new_submission_key() -> str:
    """A new form's key (the offline queue makes its own for each hand it holds)."""
    return secrets.token_urlsafe(16)


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
@dataclass(frozen=True, slots=True)
class Box:
    """One box of a side's block: the one description the form's fields and the live preview's
    reading (:mod:`.posted`) are both made from. ``kind`` is ``count``, ``flag`` or ``choice``."""

    name: str
    label: Any
    kind: str = "count"
    high: int = MAX_POINTS
    step: int = 1
    choices: tuple[SelectChoice, ...] = ()


def side_boxes(variant: canasta.Variant, players: int) -> list[Box]:
    """The boxes one side fills in, for the boxes this variant uses, in the page's order."""
    boxes = [Box("melded_points", _("Melded points"), step=5), Box("hand_points", _("Points in hand"), step=5)]
    boxes += [Box(f"canasta_{key}", kind.label, high=20) for key, kind in variant.canasta_kinds.items()]
    boxes.append(Box("red_threes", _("Red threes"), high=12))
    if variant.black_threes_scored:
        boxes.append(Box("black_threes", _("Black threes laid out"), high=12))
    if variant.black_three_in_hand != BLACK_THREE_VALUE:  # it costs more than its card value
        boxes.append(Box("black_threes_in_hand", _("Black threes left in hand"), high=12))
    boxes.append(Box("went_out", _("Went out"), "flag"))
    if variant.concealed is not None:
        boxes.append(Box("concealed", _("Concealed"), "flag"))
    if variant.special_hands:
        choices = [SelectChoice("", _("None"))] + [
            SelectChoice(key, f"{text(canasta.scoring.SPECIAL_HAND_LABELS.get(key, key))} ({value})")
            for key, value in variant.special_hands
        ]
        boxes.append(Box("special_hand", _("Went out with a special hand"), "choice", choices=tuple(choices)))
    for kind, penalty in variant.incomplete_penalties.items():
        meld = text(UNFINISHED.get(kind, kind))  # "Unfinished sevens meld", as the score line says it
        # Translators: %(meld)s is a score line such as "Unfinished sevens meld"; the figure is its penalty.
        boxes.append(Box(f"incomplete_{kind}", _("%(meld)s (−%(penalty)s)", meld=meld, penalty=penalty), "flag"))
    for kind, penalty in variant.held_set_penalties:
        cards = text(held_set_cards(variant, kind))  # "sevens", in the page's language
        label = _("Players holding 3+ %(kind)s (−%(penalty)s each)", kind=cards, penalty=penalty)
        boxes.append(Box(f"held_{kind}", label, high=players))
    if variant.restore_pile_penalty:
        label = _("Piles put back (−%(penalty)s each)", penalty=variant.restore_pile_penalty)
        boxes.append(Box("restored_piles", label, high=50))
    boxes.append(Box("penalty_points", _("Other penalties"), step=5))
    for pile, _points, _cards in PILES:
        boxes += [Box(f"{pile}_{key}", label, high=MAX_COUNT) for key, label, _classes in COUNTER_CLASSES]
    return boxes


def side_form_class(variant: canasta.Variant, players: int) -> type[Form]:
    """The boxes one side fills in (:func:`side_boxes`) as a WTForms form, for pages that show them."""

    class SideForm(Form):
        class Meta:  # WTForms' own messages ("Not a valid choice.") in the page's language, as PageForm's
            def get_translations(self, form: Any) -> WTFormsMessages:
                return WTFormsMessages()

    fields: dict[str, Any] = {}
    for box in side_boxes(variant, players):
        if box.kind == "count":
            fields[box.name] = CountField(box.label, step=box.step, high=box.high)
        elif box.kind == "flag":
            fields[box.name] = BooleanField(box.label)
        else:
            fields[box.name] = SelectField(box.label, choices=list(box.choices), default="")
    return type("SideForm", (SideForm,), fields)


def partnership_choices(side_names: Sequence[str], sides: int) -> list[SelectChoice]:
    """Who played together this hand (three players): everyone alone, or one pair of sides."""
    pairs = [
        SelectChoice(f"{i}-{j}", _("%(first)s with %(second)s", first=side_names[i], second=side_names[j]))
        for i in range(sides)
        for j in range(i + 1, sides)
    ]
    return [SelectChoice("", _("Everyone alone")), *pairs]


class HandProblems:
    """Where a hand's problems go, and the first of them: the core's violations put next to the box
    each is about. Shared by the form (:class:`HandForm`) and the live preview's reading
    (:class:`~scorepad.forms.posted.PostedHand`), which give their boxes through the three methods below."""

    problems: list[str]
    side_problems: dict[int, list[str]]

    def top_boxes(self) -> list[Any]:
        """The boxes outside the sides (the token, the partnership), each with its ``errors``."""
        raise NotImplementedError

    def partnership_box(self) -> Any | None:
        raise NotImplementedError

    def boxes_of(self, index: int) -> Mapping[str, Any]:
        """Side ``index``'s boxes by name, in the page's order, each with its ``errors``."""
        raise NotImplementedError

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
            partnership = self.partnership_box()
            if rest == "partnership" and partnership is not None:
                partnership.errors = [*partnership.errors, violation.message]
            else:
                self.problems.append(violation.message)
            return
        index = int(side)
        if index >= len(self.side_problems):
            self.problems.append(violation.message)
            return
        boxes = self.boxes_of(index)
        name = _side_field_name(rest, boxes)
        if name is None:
            self.side_problems[index].append(violation.message)
        else:
            boxes[name].errors = [*boxes[name].errors, violation.message]

    @property
    def first_problem(self) -> str | None:
        """What stops the hand being saved, the first in the form's order: shown by the Save button."""
        messages = [*self.problems]
        messages += [error for box in self.top_boxes() for error in box.errors]
        for index in self.side_problems:
            messages += self.side_problems[index]
            messages += [error for box in self.boxes_of(index).values() for error in box.errors]
        return str(messages[0]) if messages else None

    @property
    def has_errors(self) -> bool:
        """Any problem anywhere: above the form, on a side, or next to a box."""
        boxes = [*self.top_boxes()]
        boxes += [box for index in self.side_problems for box in self.boxes_of(index).values()]
        return bool(self.problems or any(self.side_problems.values()) or any(box.errors for box in boxes))


class HandForm(HandProblems, TableForm):
    """A whole hand: one block per side; ``version`` is the match version the page showed."""

    version = HiddenField()  # anything but the current version is treated as stale, never hidden away
    # This form's key, new each time a form is shown (the offline queue gives each queued hand its
    # own): a save sent twice is recognised by it (store.saved_submission).
    submission = HiddenField(default=lambda: new_submission_key())
    # When the phone saved the hand: the offline queue sends it with a hand it held (ISO 8601).
    saved_at = HiddenField()

    def __init__(self, *args: Any, variant: canasta.Variant, side_names: Sequence[str], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.variant = variant
        self.side_names = tuple(side_names)
        self.side_problems: dict[int, list[str]] = {index: [] for index in range(variant.sides)}
        self.low_melds: list[str] = []  # sides melded below their minimum: saved once confirmed

    @property
    def side_blocks(self) -> list[tuple[int, str, Form]]:
        """Each side's index, name and sub-form, in sheet order."""
        return [(index, self.side_names[index], entry.form) for index, entry in enumerate(self.sides)]

    def version_number(self) -> int:
        return version_number(self.version.data)

    def saved_time(self) -> str | None:
        """The phone's save time as the store writes times (UTC, to the second), or None when it says none."""
        value = (self.saved_at.data or "")[:40]
        try:
            moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
        if moment.tzinfo is None or not 2000 <= moment.year <= 9998:
            return None
        return moment.astimezone(UTC).isoformat(timespec="seconds")

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
        partnership = self.partnership.data if "partnership" in self._fields else None
        return read_hand(self.variant, [entry.form.data for entry in self.sides], partnership)

    def fill(self, hand: canasta.Hand, version: int) -> None:
        """Show a stored hand in the boxes, for editing it."""
        self.version.data = str(version)
        for entry, side in zip(hand.entries, self.sides, strict=False):
            for name, value in entry_values(entry, self.variant).items():
                if name in side.form._fields:
                    side.form[name].data = value
        if "partnership" in self._fields:
            self.partnership.data = "-".join(str(i) for i in sorted(hand.partnership)) if hand.partnership else ""

    # What HandProblems reads and writes: the boxes above the sides, and each side's boxes by name.
    def top_boxes(self) -> list[Any]:
        return [field for field in self if field.name != "sides"]

    def partnership_box(self) -> Any | None:
        return self.partnership if "partnership" in self._fields else None

    def boxes_of(self, index: int) -> Mapping[str, Any]:
        return self.sides[index].form._fields


def read_hand(variant: canasta.Variant, sides: Sequence[Mapping[str, Any]], partnership: str | None) -> canasta.Hand:
    """Each side's boxes (read as numbers, yes/no and choices) through the core's entry reader.

    :raises InvalidError: for input the core's reader refuses (fields as ``entries[i]...``).
    """
    data: dict[str, Any] = {"entries": [side_entry(variant, values) for values in sides]}
    if partnership:
        data["partnership"] = [int(i) for i in partnership.split("-")]
    return canasta.Hand.from_dict(data)


def side_entry(variant: canasta.Variant, values: Mapping[str, Any]) -> dict[str, Any]:
    """A side's boxes as the core's ENTRY object, holding only what was filled in."""
    entry = _piles(values)
    entry.update(_kinds_filled(variant, values))
    entry.update(_numbers_and_flags(values))
    return entry


def _piles(values: Mapping[str, Any]) -> dict[str, Any]:
    """Melded cards and cards in hand: card counts when the counter was used, else points."""
    entry: dict[str, Any] = {}
    for pile, points, cards in PILES:
        counts = {key: values[f"{pile}_{key}"] or 0 for key, _label, _classes in COUNTER_CLASSES}
        if any(counts.values()):
            entry[cards] = counter_counts(counts)
        else:
            entry[points] = values[points] or 0
    return entry


def _kinds_filled(variant: canasta.Variant, values: Mapping[str, Any]) -> dict[str, Any]:
    """Canastas, held sets and unfinished melds of each kind the variant has, where filled in."""
    entry: dict[str, Any] = {}
    canastas = {key: values[f"canasta_{key}"] for key in variant.canasta_kinds if values[f"canasta_{key}"]}
    if canastas:
        entry["canastas"] = canastas
    held = {kind: values[f"held_{kind}"] for kind, _p in variant.held_set_penalties if values[f"held_{kind}"]}
    if held:
        entry["held_sets"] = held
    incomplete = [kind for kind in variant.incomplete_penalties if values[f"incomplete_{kind}"]]
    if incomplete:
        entry["incomplete"] = incomplete
    return entry


FIELD_PATH = re.compile(r"^(?:hands\[(?P<hand>\d+)\]\.?)?(?:entries\[(?P<side>\d+)\]\.?)?(?P<rest>.*)$")
_SUBFIELDS = {"canastas": "canasta_", "held_sets": "held_"}


def _side_field_name(path: str, boxes: Mapping[str, Any]) -> str | None:
    head, _, tail = path.partition(".")
    if head in _SUBFIELDS and tail:
        name = _SUBFIELDS[head] + tail
    elif head == "incomplete":
        name = next((n for n in boxes if n.startswith("incomplete_")), "")
    elif head in ("melded_cards", "hand_cards"):
        name = _counter_box(head, tail) or head.replace("_cards", "_points")
    else:
        name = head
    return name if name in boxes else None


def counted_in_words(counts: Mapping[str, int]) -> str:
    """Counted cards in the reader's words, as the hand form's counter names them, in its order.

    For the printed sheet: ``Jokers (50) × 1, Twos (20) × 2, K Q J 10 9 8 (10) × 7`` (German
    ``Joker (50) × 1, Zweien (20) × 2, K D B 10 9 8 (10) × 7``), never the file formats' codes.
    A single rank counted elsewhere (the API's ``K``) joins its group's line.
    """
    totals: dict[str, int] = {}
    for card_class, count in counts.items():
        key = next((key for key, _label, classes in COUNTER_CLASSES if card_class in classes), card_class)
        totals[key] = totals.get(key, 0) + count
    labels = {key: str(label) for key, label, _classes in COUNTER_CLASSES}
    order = [key for key, _label, _classes in COUNTER_CLASSES]
    ranked = sorted(totals, key=lambda key: order.index(key) if key in order else len(order))
    return ", ".join(f"{labels.get(key, key)} × {totals[key]}" for key in ranked if totals[key])


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


class SidesList(FieldList):
    """One block per side, each read from its own index: ``sides-1-…`` is side 1's boxes.

    WTForms' ``FieldList`` reads the indices that were posted, in order, into its entries: a
    three-side hand posted without any box of side 1 gave side 1 the boxes of side 2 (and
    saved them so). Here side ``i`` is always read from ``sides-i-``; a side with nothing
    posted is a side that typed nothing, as the live preview reads it.
    """

    def _extract_indices(self, prefix: str, formdata: Any) -> Iterable[int]:
        return range(self.min_entries)


def hand_form(variant: canasta.Variant, side_names: Sequence[str], players: Sequence[int], **kwargs: Any) -> HandForm:
    """A hand form for this variant's sides (and, for three players, who partnered)."""
    side_class = side_form_class(variant, max(players))
    fields: dict[str, Any] = {
        "sides": SidesList(FormField(side_class), min_entries=variant.sides, max_entries=variant.sides)
    }
    if variant.temporary_partnerships:
        fields["partnership"] = RadioField(
            _("Who played together this hand?"),
            choices=partnership_choices(side_names, variant.sides),
            default="",
            validate_choice=True,
        )
    form_class = type("VariantHandForm", (HandForm,), fields)
    return form_class(variant=variant, side_names=side_names, **kwargs)
