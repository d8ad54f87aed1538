"""The checker's entry points: a position, or a check request, to its action's checks.

>>> check_request({"action": "discard", "hand": ["K", "2"], "discard": "2"}).reasons[0]
'You may discard a two.'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..presets import DEFAULT_VARIANT, rules_for
from ..variants import Variant
from ..violations import InvalidError, Violation
from .discard import check_discard
from .going_out import check_go_out
from .impossible import refuse_impossible
from .meld import check_meld
from .pickup import check_pickup
from .placing import placed_check
from .position import BODY_NOT_OBJECT, Position
from .verdict import Verdict


def check(rules: Variant, position: Position) -> Verdict:
    """Judge one play under ``rules``: every rule that decides it, obeyed or broken.

    :raises InvalidError: when the position cannot occur (cards the decks don't hold, melded or
        discarded cards not in the hand, table melds no side could have).
    """
    play = rules.play_rules
    refuse_impossible(rules, play, position)
    judge = {"meld": check_meld, "pickup": check_pickup, "go_out": check_go_out, "discard": check_discard}
    return placed_check(judge[position.action], rules, play, position)


def check_request(data: Any) -> Verdict:
    """Judge a check request given as docs/api.md's JSON object: the one call the API and pages need.

    :raises InvalidError: for an unknown variant or option, a malformed field, or a position that
        cannot occur.
    """
    if not isinstance(data, Mapping):
        raise InvalidError([Violation("body-not-object", BODY_NOT_OBJECT, "")])
    problems = []
    rules = None
    variant = data.get("variant", DEFAULT_VARIANT)
    try:
        rules = rules_for(variant, data.get("options"))
    except InvalidError as error:
        problems += error.violations
    try:
        position = Position.from_dict(data)
    except InvalidError as error:
        problems += error.violations
    if problems:
        raise InvalidError(problems)
    return check(rules, position)
