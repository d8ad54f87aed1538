"""Entries: what each side reports when a hand ends, and what makes a report impossible.

``entry`` holds the types (:class:`Entry`, :class:`Hand`), ``reading`` reads them from JSON
values naming every problem, ``checks`` and ``table`` hold the rules a hand must keep
(docs/rules.md "Impossible hands").

>>> from scorepad.canasta import VARIANTS
>>> hand = Hand.from_dict({"entries": [{"melded_points": 600, "canastas": {"natural": 1},
...                                     "went_out": True}, {"hand_points": 45}]})
>>> check_hand(hand, VARIANTS["classic"])
[]
"""

from .checks import check_hand, hand_warnings, held_set_cards
from .entry import (
    CARD_FIELDS,
    COUNT_FIELDS,
    ENTRY_FIELDS,
    FIELD_LABELS,
    FLAG_FIELDS,
    HAND_FIELDS,
    POINT_FIELDS,
    Entry,
    Hand,
    read_entry,
    read_hand,
)

__all__ = [
    "CARD_FIELDS", "COUNT_FIELDS", "ENTRY_FIELDS", "FIELD_LABELS", "FLAG_FIELDS", "HAND_FIELDS", "POINT_FIELDS",
    "Entry", "Hand", "check_hand", "hand_warnings", "held_set_cards", "read_entry", "read_hand",
]  # fmt: skip
