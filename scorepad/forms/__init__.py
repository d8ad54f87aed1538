"""Forms: the shape of what players type, turned into core objects with one method each.

Forms check that a box holds a whole number in range; every rule of the game is the core's,
and its :class:`~scorepad.canasta.Violation` s come back onto the field they are about
(``entries[1].red_threes`` is side 1's red threes box) so the error shows next to the box.
A form class is built per variant, because only the boxes a variant uses are shown.

The forms live by concern: :mod:`.boxes` (number boxes and the refused token, shared by all),
:mod:`.hand` (a hand's boxes per side), :mod:`.match` (a new match and its house rules) and
:mod:`.organiser` (the organiser's sign-in). Their public names are importable from here.
"""

from .boxes import LARGEST, MAX_POINTS, NUMERIC, TOKEN_REFUSED, CountField, TableForm, WholeNumberField, in_range
from .hand import (
    COUNTER_CLASSES,
    MAX_COUNT,
    PILES,
    SUBMISSION_KEY,
    HandForm,
    counter_counts,
    entry_values,
    hand_form,
    new_submission_key,
    side_form_class,
    version_number,
)
from .match import NAME_LONGEST, TOO_LONG, MatchForm, match_form, plain_text
from .organiser import OrganiserForm

__all__ = [
    "COUNTER_CLASSES",
    "LARGEST",
    "MAX_COUNT",
    "MAX_POINTS",
    "NAME_LONGEST",
    "NUMERIC",
    "PILES",
    "SUBMISSION_KEY",
    "TOKEN_REFUSED",
    "TOO_LONG",
    "CountField",
    "HandForm",
    "MatchForm",
    "OrganiserForm",
    "TableForm",
    "WholeNumberField",
    "counter_counts",
    "entry_values",
    "hand_form",
    "in_range",
    "new_submission_key",
    "match_form",
    "plain_text",
    "side_form_class",
    "version_number",
]
