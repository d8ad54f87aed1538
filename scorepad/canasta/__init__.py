"""The rules core: pure Python, standard library only (tests/test_architecture.py enforces it).

Everything scorepad knows about Canasta lives here: cards, variants and their house rules,
hand entries and what makes them impossible, scoring, matches, and the rules checker. The web
pages, the JSON API, storage and export only call it.

>>> match = score_match("classic", [{"entries": [
...     {"melded_points": 620, "canastas": {"natural": 1}, "went_out": True},
...     {"melded_points": 260, "hand_points": 95}]}])
>>> match.totals
(1220, 165)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .cards import Card, CardError, Decks, parse_card, parse_cards
from .entries import Entry, Hand, check_hand, hand_warnings, read_hand
from .match import HandResult, Match, check_and_score, settle
from .options import OPTIONS, Option, OptionError
from .presets import DEFAULT_VARIANT, VARIANTS, UnknownVariantError, find_variant, rules_for
from .scoring import Part, SideScore, score_hand
from .text import t
from .variants import Variant
from .violations import InvalidError, Violation

STARTING_TOTALS_LIST = t("Starting totals are a list, one per side.")
HANDS_LIST = t("Hands are a list.")


def score_match(
    variant: str,
    hands: Sequence[Any],
    options: Mapping[str, Any] | None = None,
    starting_totals: Sequence[int] | None = None,
) -> Match:
    """Score hands given as API dicts: the one call the JSON API and imports need.

    :raises InvalidError: with every problem, fields as docs/api.md's paths (``hands[0].entries[1]...``).
    """
    rules = rules_for(variant, options)
    if starting_totals is not None and not isinstance(starting_totals, (list, tuple)):
        raise InvalidError([Violation("bad-starting-totals", STARTING_TOTALS_LIST, "starting_totals")])
    if not isinstance(hands, (list, tuple)):
        raise InvalidError([Violation("hands-not-list", HANDS_LIST, "hands")])
    parsed, problems = [], []
    for index, data in enumerate(hands):
        try:
            parsed.append(read_hand(data))
        except InvalidError as error:
            problems += [v.under(f"hands[{index}]") for v in error.violations]
    if problems:
        raise InvalidError(problems)
    return Match.validated(rules, parsed, starting_totals)


__all__ = [
    "DEFAULT_VARIANT", "OPTIONS", "VARIANTS", "Card", "CardError", "Decks", "Entry", "Hand", "HandResult",
    "InvalidError", "Match", "Option", "OptionError", "Part", "SideScore", "UnknownVariantError",
    "Variant", "Violation", "check_and_score", "check_hand", "find_variant", "hand_warnings", "parse_card",
    "parse_cards", "read_hand", "rules_for", "score_hand", "score_match", "settle",
]  # fmt: skip
