"""Scoring one hand: each side's score as labelled parts that add up (docs/rules.md "Scoring a hand").

>>> from scorepad.canasta import VARIANTS, Entry, Hand
>>> we = Entry(melded_points=620, canastas={"natural": 1}, red_threes=1, went_out=True)
>>> they = Entry(melded_points=260, hand_points=95, red_threes=1)
>>> [side.score for side in score_hand(Hand((we, they)), VARIANTS["classic"])]
[1320, 265]
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .entries import Entry, Hand
from .text import Text, t
from .variants import Variant

# Translators: the labels of a side's score for a hand, one line each on the score sheet.
SPECIAL_HAND_LABELS = {
    "straight": t("Straight"),
    "pairs": t("Seven pairs"),
    "pairs_wild": t("Pairs with twos, sevens and aces"),
    "garbage": t("Garbage"),
}
GOING_OUT = t("Going out")
CONCEALED = t("Going out concealed (extra)")
MELDED = t("Melded cards")
MELDED_SHORT = t("Melded cards (count minus: short of canastas)")
MELDED_NO_CANASTA = t("Melded cards (count minus: no canasta)")
IN_HAND = t("Cards left in hand")
PENALTIES = t("Penalties")
UNFINISHED = {
    "sevens": t("Unfinished sevens meld"),
    "aces": t("Unfinished aces meld"),
    "wild": t("Unfinished wild meld"),
}


def _held_label(kind: str, count: int) -> Text:
    if kind == "sevens":
        return t("Three or more sevens kept in hand × %(count)s", count=count)
    if kind == "aces":
        return t("Three or more aces kept in hand × %(count)s", count=count)
    return t("Three or more %(kind)s kept in hand × %(count)s", kind=kind, count=count)


# Labels of laid-out threes, by the part and why they count as they do; each is given the count,
# and the canastas that would have made them count plus.
THREES_LABELS = {
    ("red_threes", "plus"): lambda count, needed: t("Red threes (%(count)s)", count=count),
    ("red_threes", "short"): lambda count, needed: t("Red threes (%(count)s, minus: short of canastas)", count=count),
    ("red_threes", "void"): lambda count, needed: t(
        "Red threes (%(count)s, count nothing with one canasta)", count=count
    ),
    ("red_threes", "canastas"): lambda count, needed: t(
        "Red threes (%(count)s, minus: not %(needed)s+ canastas)", count=count, needed=needed
    ),
    ("red_threes", "melded"): lambda count, needed: t("Red threes (%(count)s, minus: not melded)", count=count),
    ("black_threes", "plus"): lambda count, needed: t("Black threes (%(count)s)", count=count),
    ("black_threes", "short"): lambda count, needed: t(
        "Black threes (%(count)s, minus: short of canastas)", count=count
    ),
    ("black_threes", "void"): lambda count, needed: t(
        "Black threes (%(count)s, count nothing with one canasta)", count=count
    ),
    ("black_threes", "canastas"): lambda count, needed: t(
        "Black threes (%(count)s, minus: not %(needed)s+ canastas)", count=count, needed=needed
    ),
    ("black_threes", "melded"): lambda count, needed: t("Black threes (%(count)s, minus: not melded)", count=count),
}


@dataclass(frozen=True, slots=True)
class Part:
    """One labelled item of a side's score for a hand."""

    id: str
    label: str
    points: int

    def to_dict(self) -> dict[str, object]:
        return {"id": self.id, "label": self.label, "points": self.points}


@dataclass(frozen=True, slots=True)
class SideScore:
    """A side's score for one hand, itemised; ``score`` is their sum, added up when it is made."""

    parts: tuple[Part, ...]
    score: int = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "score", sum([part.points for part in self.parts]))

    def to_dict(self) -> dict[str, object]:
        return {"score": self.score, "parts": [part.to_dict() for part in self.parts]}


def score_hand(hand: Hand, variant: Variant) -> list[SideScore]:
    """Every side's score for a hand that :func:`check_hand` has accepted."""
    if hand.partnership is None:  # every side scores alone
        return [SideScore(tuple(side_parts(entry, variant))) for entry in hand.entries]
    scores: list[SideScore | None] = [None] * len(hand.entries)
    for unit in hand.units():
        pooled = hand.pooled(unit)
        if len(unit) == 1:
            scores[unit[0]] = SideScore(tuple(side_parts(pooled, variant)))
            continue
        # Three-player partnership: the pair scores its pooled melds together, and each partner
        # adds their own red threes (pagat, "Canasta for three players").
        shared = side_parts(pooled, variant, with_red_threes=False)
        for index in unit:
            own = _threes_part("red_threes", hand.entries[index].red_threes, pooled, variant)
            scores[index] = SideScore(tuple(shared + ([own] if own else [])))
    return [score for score in scores if score is not None]


def side_parts(entry: Entry, variant: Variant, *, with_red_threes: bool = True) -> list[Part]:
    """The parts of one side's score, in the order players count them."""
    if entry.special_hand is not None:
        return _special_hand_parts(entry, variant)
    short = variant.canasta_required_for_positive and entry.canasta_count < variant.canastas_to_go_out
    parts = _canasta_parts(entry, variant) if not short and entry.canastas else []
    if with_red_threes and entry.red_threes:
        parts.append(_threes_part("red_threes", entry.red_threes, entry, variant))
    if variant.black_threes_scored and entry.black_threes:
        parts.append(_threes_part("black_threes", entry.black_threes, entry, variant))
    if entry.went_out:
        parts += _going_out_parts(entry, variant)
    parts.append(_melded_part(entry, variant, short))
    parts.append(_hand_part(entry.hand_points))
    if entry.black_threes_in_hand or entry.incomplete or entry.held_sets:
        parts += _penalty_parts(entry, variant)
    elif entry.restored_piles or entry.penalty_points:
        parts += _table_penalty_parts(entry, variant)
    return parts


def _hand_part(points: int) -> Part:
    """The cards left in a hand count minus."""
    return Part("hand_points", IN_HAND, -points)


def _special_hand_parts(entry: Entry, variant: Variant) -> list[Part]:
    """The special hand replaces items 1-5 of American scoring (canastas, unfinished melds,
    threes, melded cards, cards in hand); only penalties agreed at the table still apply."""
    value = variant.special_hand_values[entry.special_hand]
    name = SPECIAL_HAND_LABELS.get(entry.special_hand, entry.special_hand)
    parts = [Part("special_hand", t("Special hand: %(name)s", name=name), value)]
    return parts + _table_penalty_parts(entry, variant)


def _canasta_parts(entry: Entry, variant: Variant) -> list[Part]:
    """Each kind of canasta at its bonus, or at nothing where a tough end forfeits it."""
    parts = []
    kinds = variant.canasta_kinds
    forfeited = variant.forfeited_kinds(entry.went_out)
    for kind, count in entry.canastas.items():
        spec = kinds[kind]
        if kind in forfeited:
            parts.append(_forfeited_part(kind, spec.label, count))
        else:
            parts.append(_canasta_part(kind, spec.label, spec.bonus, count))
    return parts


def _canasta_part(kind: str, label: Text, bonus: int, count: int) -> Part:
    # Translators: a kind of canasta ("Natural canasta"), how many the side made and what each is worth.
    label = t("%(label)s × %(count)s (at %(bonus)s)", label=label, count=count, bonus=bonus)
    return Part(f"canastas.{kind}", label, bonus * count)


def _forfeited_part(kind: str, label: Text, count: int) -> Part:
    label = t(
        "%(label)s × %(count)s (forfeited: tough end pays it only to the side going out)", label=label, count=count
    )
    return Part(f"canastas.{kind}", label, 0)


def _going_out_parts(entry: Entry, variant: Variant) -> list[Part]:
    """The bonus for going out, and the extra for going out concealed."""
    parts = [Part("going_out", GOING_OUT, variant.going_out)]
    if entry.concealed:
        parts.append(Part("concealed", CONCEALED, variant.concealed or 0))
    return parts


def _melded_part(entry: Entry, variant: Variant, short: bool) -> Part:
    """Melded cards count plus, or minus for a side short of canastas (or with none, where so)."""
    negative = short or (variant.melds_negative_without_canasta and entry.canasta_count == 0)
    if negative:
        label = MELDED_SHORT if short else MELDED_NO_CANASTA
        return Part("melded_points", label, -entry.melded_points)
    return Part("melded_points", MELDED, entry.melded_points)


def _threes_part(part_id: str, count: int, side: Entry, variant: Variant) -> Part | None:
    """Laid-out threes: plus, nothing or minus depending on what the side achieved."""
    if not count:
        return None
    value = variant.red_three_value(count)
    canastas = side.canasta_count
    needed = variant.threes_positive_with
    short = variant.canasta_required_for_positive and canastas < variant.canastas_to_go_out
    if short:
        why, points = "short", -value
    elif variant.threes_void_with is not None and canastas == variant.threes_void_with:
        why, points = "void", 0
    elif canastas >= needed if needed else side.melded_points > 0 or canastas > 0 or side.went_out:
        why, points = "plus", value  # enough canastas, or where none are asked: melded, or went out
    else:
        why, points = "canastas" if needed else "melded", -value
    return Part(part_id, THREES_LABELS[part_id, why](count, needed), points)


def _penalty_parts(entry: Entry, variant: Variant) -> list[Part]:
    parts = []
    extra = variant.black_three_in_hand - 5  # the first 5 of each is already in hand points
    if entry.black_threes_in_hand and extra:
        count = entry.black_threes_in_hand
        label = t("Black threes left in hand × %(count)s (at %(extra)s more)", count=count, extra=extra)
        parts.append(Part("black_threes_in_hand", label, -extra * count))
    incomplete = variant.incomplete_penalties
    for kind in entry.incomplete:
        label = UNFINISHED.get(kind) or t("Unfinished %(kind)s meld", kind=kind)
        parts.append(Part(f"incomplete.{kind}", label, -incomplete[kind]))
    held = variant.held_set_values
    for kind, count in entry.held_sets.items():
        parts.append(Part(f"held_sets.{kind}", _held_label(kind, count), -held[kind] * count))
    return parts + _table_penalty_parts(entry, variant)


def _table_penalty_parts(entry: Entry, variant: Variant) -> list[Part]:
    parts = []
    if entry.restored_piles and variant.restore_pile_penalty:
        count = entry.restored_piles
        label = t("Pile put back × %(count)s", count=count)
        parts.append(Part("restored_piles", label, -variant.restore_pile_penalty * count))
    if entry.penalty_points:
        parts.append(Part("penalty_points", PENALTIES, -entry.penalty_points))
    return parts
