"""Scoring one hand: each side's score as labelled parts that add up (RULES.md section 3).

>>> from scorepad.canasta import VARIANTS, Entry, Hand
>>> we = Entry(melded_points=620, canastas={"natural": 1}, red_threes=1, went_out=True)
>>> they = Entry(melded_points=260, hand_points=95, red_threes=1)
>>> [side.score for side in score_hand(Hand((we, they)), VARIANTS["classic"])]
[1320, 265]
"""

from __future__ import annotations

from dataclasses import dataclass

from .entries import Entry, Hand
from .variants import Variant

SPECIAL_HAND_LABELS = {
    "straight": "Straight",
    "pairs": "Seven pairs",
    "pairs_wild": "Pairs with twos, sevens and aces",
    "garbage": "Garbage",
}


# Part, SideScore (and Hand, HandResult, Match) have their own __init__, which fills the
# instance dict in one step: a frozen dataclass's generated one sets each field through
# object.__setattr__, which cost more than the scoring itself when each side of each hand
# builds half a dozen parts. They are frozen dataclasses all the same: equality, repr,
# hashing and fields are generated, and setting an attribute afterwards raises.
@dataclass(frozen=True, init=False)
class Part:
    """One labelled item of a side's score for a hand."""

    id: str
    label: str
    points: int

    def __init__(self, id: str, label: str, points: int) -> None:
        self.__dict__.update(id=id, label=label, points=points)

    def to_dict(self) -> dict[str, object]:
        return {"id": self.id, "label": self.label, "points": self.points}


@dataclass(frozen=True, init=False)
class SideScore:
    """A side's score for one hand, itemised."""

    parts: tuple[Part, ...]

    def __init__(self, parts: tuple[Part, ...]) -> None:
        # The score is added up once: totals, the sheet and the API all read it. Not a field,
        # so equality and the dataclass's fields are as they were.
        score = 0
        for part in parts:
            score += part.points
        self.__dict__.update(parts=parts, _score=score)

    @property
    def score(self) -> int:
        return self._score

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
            own = _threes_part("red_threes", "Red threes", hand.entries[index].red_threes, pooled, variant)
            scores[index] = SideScore(tuple(shared + ([own] if own else [])))
    return [score for score in scores if score is not None]


def side_parts(entry: Entry, variant: Variant, *, with_red_threes: bool = True) -> list[Part]:
    """The parts of one side's score, in the order players count them."""
    if entry.special_hand is not None:
        return _special_hand_parts(entry, variant)
    short = variant.canasta_required_for_positive and entry.canasta_count < variant.canastas_to_go_out
    parts = _canasta_parts(entry, variant) if not short and entry.canastas else []
    if with_red_threes and entry.red_threes:
        parts.append(_threes_part("red_threes", "Red threes", entry.red_threes, entry, variant))
    if variant.black_threes_scored and entry.black_threes:
        parts.append(_threes_part("black_threes", "Black threes", entry.black_threes, entry, variant))
    if entry.went_out:
        parts += _going_out_parts(entry, variant)
    parts.append(_melded_part(entry, variant, short))
    parts.append(Part("hand_points", "Cards left in hand", -entry.hand_points))
    if entry.black_threes_in_hand or entry.incomplete or entry.held_sets:
        parts += _penalty_parts(entry, variant)
    elif entry.restored_piles or entry.penalty_points:
        parts += _table_penalty_parts(entry, variant)
    return parts


def _special_hand_parts(entry: Entry, variant: Variant) -> list[Part]:
    """The special hand replaces items 1-5 of American scoring (canastas, unfinished melds,
    threes, melded cards, cards in hand); only penalties agreed at the table still apply."""
    value = variant.special_hand_values[entry.special_hand]
    label = SPECIAL_HAND_LABELS.get(entry.special_hand, entry.special_hand)
    parts = [Part("special_hand", f"Special hand: {label}", value)]
    return parts + _table_penalty_parts(entry, variant)


def _canasta_parts(entry: Entry, variant: Variant) -> list[Part]:
    """Each kind of canasta at its bonus, or at nothing where a tough end forfeits it."""
    parts = []
    kinds = variant.canasta_kinds
    forfeited = variant.forfeited_kinds(entry.went_out)
    for kind, count in entry.canastas.items():
        if kind in forfeited:
            label = f"{kinds[kind].label} × {count} (forfeited: tough end pays it only to the side going out)"
            parts.append(Part(f"canastas.{kind}", label, 0))
            continue
        bonus = kinds[kind].bonus
        parts.append(Part(f"canastas.{kind}", f"{kinds[kind].label} × {count} (at {bonus})", bonus * count))
    return parts


def _going_out_parts(entry: Entry, variant: Variant) -> list[Part]:
    """The bonus for going out, and the extra for going out concealed."""
    parts = [Part("going_out", "Going out", variant.going_out)]
    if entry.concealed:
        parts.append(Part("concealed", "Going out concealed (extra)", variant.concealed or 0))
    return parts


def _melded_part(entry: Entry, variant: Variant, short: bool) -> Part:
    """Melded cards count plus, or minus for a side short of canastas (or with none, where so)."""
    negative = short or (variant.melds_negative_without_canasta and entry.canasta_count == 0)
    if negative:
        reason = "short of canastas" if short else "no canasta"
        return Part("melded_points", f"Melded cards (count minus: {reason})", -entry.melded_points)
    return Part("melded_points", "Melded cards", entry.melded_points)


def _threes_part(part_id: str, label: str, count: int, side: Entry, variant: Variant) -> Part | None:
    """Laid-out threes: plus, nothing or minus depending on what the side achieved."""
    if not count:
        return None
    value = variant.red_three_value(count)
    canastas = side.canasta_count
    short = variant.canasta_required_for_positive and canastas < variant.canastas_to_go_out
    if short:
        return Part(part_id, f"{label} ({count}, minus: short of canastas)", -value)
    if variant.threes_void_with is not None and canastas == variant.threes_void_with:
        return Part(part_id, f"{label} ({count}, count nothing with one canasta)", 0)
    if variant.threes_positive_with:
        earned = canastas >= variant.threes_positive_with
        condition = f"{variant.threes_positive_with}+ canastas"
    else:
        earned = side.melded_points > 0 or canastas > 0 or side.went_out  # melded, or went out
        condition = "melded"
    if earned:
        return Part(part_id, f"{label} ({count})", value)
    return Part(part_id, f"{label} ({count}, minus: not {condition})", -value)


def _penalty_parts(entry: Entry, variant: Variant) -> list[Part]:
    parts = []
    extra = variant.black_three_in_hand - 5  # the first 5 of each is already in hand points
    if entry.black_threes_in_hand and extra:
        count = entry.black_threes_in_hand
        parts.append(
            Part("black_threes_in_hand", f"Black threes left in hand × {count} (at {extra} more)", -extra * count)
        )
    incomplete = variant.incomplete_penalties
    for kind in entry.incomplete:
        parts.append(Part(f"incomplete.{kind}", f"Unfinished {kind} meld", -incomplete[kind]))
    held = variant.held_set_values
    for kind, count in entry.held_sets.items():
        parts.append(Part(f"held_sets.{kind}", f"Three or more {kind} kept in hand × {count}", -held[kind] * count))
    return parts + _table_penalty_parts(entry, variant)


def _table_penalty_parts(entry: Entry, variant: Variant) -> list[Part]:
    parts = []
    if entry.restored_piles and variant.restore_pile_penalty:
        count = entry.restored_piles
        parts.append(Part("restored_piles", f"Pile put back × {count}", -variant.restore_pile_penalty * count))
    if entry.penalty_points:
        parts.append(Part("penalty_points", "Penalties", -entry.penalty_points))
    return parts
