"""The rules checker: may this player make this play, and which rule decides it.

The rules it applies are docs/rules.md's "What the checker decides".

A :class:`Position` is one player's moment at the table: the hand, the side's melds, the top of
the pile, and the play in question (meld, take the pile, go out, discard). :func:`check` judges
it under the rules in force and returns a :class:`Verdict`: yes or no, every rule that decides
it as a sentence naming the cards (all broken rules at once, as python-chess's ``status()``
does), the initial-meld count against the minimum, and for the pile a legal way to take it.
A position that cannot occur (more cards than the decks hold, melded cards not in the hand)
raises :class:`~scorepad.canasta.violations.InvalidError` instead of being judged.

pagat's example: a king on the pile, two kings, two queens and a two in hand.

>>> from scorepad.canasta import VARIANTS
>>> position = Position.from_dict({"action": "pickup", "hand": ["K", "K", "Q", "Q", "2C"],
...     "melds": [["K", "K", "K"], ["Q", "Q", "2C"]], "pile": {"top": "K"}, "score": 0})
>>> verdict = check(VARIANTS["classic"], position)
>>> verdict.legal, verdict.count, verdict.minimum
(True, 70, 50)
>>> check(VARIANTS["classic"], Position.from_dict({**position.to_dict(), "score": 1500})).legal
False
"""

from .checks import canasta_findings
from .judge import check, check_request
from .meld import meld_findings
from .melds import (
    SEQUENCE_RANKS,
    Laid,
    Turn,
    is_run,
    lone_wilds,
    meld_key,
    placements,
    run_order,
    side_melds,
    take,
    wild_groups,
)
from .position import ACTIONS, REQUEST_FIELDS, SCORE_LIMIT, Position
from .search import best_melds, pickup_candidates
from .special import special_hand
from .verdict import Finding, Verdict
from .wording import CARDS, NAMES, NUMBERS, ORDER, SUIT_NAMES, CardWords, card_name, codes, describe, number

__all__ = [
    "ACTIONS", "CARDS", "NAMES", "NUMBERS", "ORDER", "REQUEST_FIELDS", "SCORE_LIMIT", "SEQUENCE_RANKS",
    "SUIT_NAMES", "CardWords", "Finding", "Laid", "Position", "Turn", "Verdict", "best_melds",
    "canasta_findings", "card_name", "check", "check_request", "codes", "describe", "is_run",
    "lone_wilds", "meld_findings", "meld_key", "number", "pickup_candidates", "placements", "run_order",
    "side_melds", "special_hand", "take", "wild_groups",
]  # fmt: skip
