"""Positions that cannot occur at a table: refused with every problem, never judged.

>>> from scorepad.canasta.plays import check_request
>>> try:
...     check_request({"action": "meld", "hand": ["K"], "melds": [["Q", "Q", "Q"]]})
... except InvalidError as error:
...     [problem.code for problem in error.violations]
['melded-cards-not-held']
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card, overdrawn
from ..text import t
from ..variants import PlayRules, Variant
from ..violations import InvalidError, Violation
from .meld import meld_findings
from .melds import Laid, Turn, laid_from_table, lone_wilds, take, wild_groups
from .position import Position
from .wording import CARDS, card_name, codes, describe

PILE_TOP_MISSING = t("Say which card is on top of the pile.")
MELDS_MISSING = t("Pick the cards you want to meld.")
DISCARD_MISSING = t("Pick the card you want to discard.")
THREES_ON_TABLE = t("Threes never stay in a side's melds while play goes on.")
ONE_MELD_OF_WILD_CARDS = t("A side has only one meld of wild cards.")
ONTO_NOT_LONE_WILD = t("Only a wild card sent alone names the meld it goes on: this group is not wild cards alone.")
ONTO_LONE_WILD = t("A wild card goes on a meld of natural cards or of wild cards, not on another wild card sent alone.")


def refuse_impossible(rules: Variant, play: PlayRules, position: Position) -> None:
    """:raises InvalidError: with every reason the position cannot occur at a table."""
    problems = [problem for check in IMPOSSIBLE for problem in check(rules, play, position)]
    if problems:
        raise InvalidError(problems)


def _overdrawn(rules: Variant, play: PlayRules, position: Position) -> list[Violation]:
    """No table holds more of a card than its decks do."""
    pool = list(position.hand) + [card for meld in position.table for card in meld]
    if position.pile_top is not None:
        pool.append(position.pile_top)
    return [
        Violation("more-cards-than-decks", t("That is %(cards)s: no table can hold it.", cards=text), "")
        for text in overdrawn(pool, rules.deck)
    ]


def _table(rules: Variant, play: PlayRules, position: Position) -> list[Violation]:
    # initial_meld_done only defaults from the table (docs/api.md "Rules check"): when players say it outright,
    # their word wins, so a side that lists its melds but says it has not opened is judged
    # as not opened.
    return _table_problems(rules, play, position.table)


def _onto_problems(rules: Variant, play: PlayRules, position: Position) -> list[Violation]:
    """``onto`` places groups of wild cards alone (of any size), onto a meld that is not itself one."""
    lone, wild = lone_wilds(position.melds, rules), wild_groups(position.melds)
    problems = []
    for group, (pile, index) in position.onto:
        where = f"onto.melds[{group}]"
        if group not in wild:
            problems.append(Violation("onto-not-wild", ONTO_NOT_LONE_WILD, where))
        elif pile == "melds" and index in lone:
            problems.append(Violation("onto-wild", ONTO_LONE_WILD, where))
    return problems


def _pile_top_missing(rules: Variant, play: PlayRules, position: Position) -> list[Violation]:
    if position.action != "pickup" or position.pile_top is not None:
        return []
    return [Violation("pile-top-missing", PILE_TOP_MISSING, "pile.top")]


def _melds_missing(rules: Variant, play: PlayRules, position: Position) -> list[Violation]:
    if position.action != "meld" or position.melds:
        return []
    return [Violation("melds-missing", MELDS_MISSING, "melds")]


def _after_melds(position: Position) -> tuple[list[Card], list[Card]]:
    """The melded cards the player does not hold, and what the player holds after melding."""
    available = list(position.hand)
    if position.action == "pickup" and position.pile_top is not None:
        available.append(position.pile_top)
    return take(available, [card for meld in position.melds for card in meld])


def _melds_not_held(rules: Variant, play: PlayRules, position: Position) -> list[Violation]:
    missing, _ = _after_melds(position)
    if not missing:
        return []
    words = {"cards": describe(missing), "codes": codes(missing)}
    if position.action == "pickup":
        text = t("The melds use %(cards)s more than your hand or the top of the pile holds (%(codes)s).", **words)
    else:
        text = t("The melds use %(cards)s more than your hand holds (%(codes)s).", **words)
    return [Violation("melded-cards-not-held", text, "melds")]


def _discard_missing(rules: Variant, play: PlayRules, position: Position) -> list[Violation]:
    if position.action != "discard" or position.discard is not None:
        return []
    return [Violation("discard-missing", DISCARD_MISSING, "discard")]


def _discard_not_held(rules: Variant, play: PlayRules, position: Position) -> list[Violation]:
    """The discard is a card left after the melds (when the melds themselves are held)."""
    if position.action not in ("discard", "go_out") or position.discard is None:
        return []
    missing, rest = _after_melds(position)
    if missing or not take(rest, [position.discard])[0]:
        return []
    if position.melds:
        text = t("There is no %(card)s left after the melds to discard.", card=card_name(position.discard))
    else:
        text = t("There is no %(card)s left in your hand to discard.", card=card_name(position.discard))
    return [Violation("discard-not-held", text, "discard")]


IMPOSSIBLE = (
    _overdrawn,
    _table,
    _onto_problems,
    _pile_top_missing,
    _melds_missing,
    _melds_not_held,
    _discard_missing,
    _discard_not_held,
)


def _table_problems(rules: Variant, play: PlayRules, table: Sequence[Sequence[Card]]) -> list[Violation]:
    problems, seen = [], set()
    turn = Turn(rules, play, opening=True)
    for index, meld in enumerate(table):
        laid = laid_from_table(meld)
        where = f"table[{index}]"
        if laid.kind == "threes":
            problems.append(Violation("threes-on-table", THREES_ON_TABLE, where))
            continue
        if laid.kind == "wild" or (laid.kind == "rank" and not play.duplicate_melds):
            if (laid.kind, laid.rank) in seen:
                if laid.kind == "wild":
                    text = ONE_MELD_OF_WILD_CARDS
                else:
                    text = t("A side has only one meld of %(cards)s.", cards=CARDS[laid.rank].plural)
                problems.append(Violation("two-melds-of-a-rank", text, where))
            seen.add((laid.kind, laid.rank))
        broken = [f for f in meld_findings(Laid(laid.kind, laid.rank, added=laid.before), turn) if f.obeyed is False]
        problems += [
            Violation("table-meld-impossible", t("On the table: %(reason)s", reason=f.text), where) for f in broken
        ]
    return problems
