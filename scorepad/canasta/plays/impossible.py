"""Positions that cannot occur at a table: refused with every problem, never judged."""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card, overdrawn
from ..variants import PlayRules, Variant
from ..violations import InvalidError, Violation
from .meld import meld_findings
from .melds import Laid, Turn, _laid_from_table, take
from .position import Position
from .wording import NAMES, card_name, codes, describe, plural


def _refuse_impossible(rules: Variant, play: PlayRules, position: Position) -> None:
    problems = []
    pool = list(position.hand) + [card for meld in position.table for card in meld]
    if position.pile_top is not None:
        pool.append(position.pile_top)
    for text in overdrawn(pool, rules.deck):
        problems.append(Violation("more-cards-than-decks", f"That is {text}: no table can hold it.", ""))
    # initial_meld_done only defaults from the table (API.md): when players say it outright,
    # their word wins, so a side that lists its melds but says it has not opened is judged
    # as not opened.
    problems += _table_problems(rules, play, position.table)
    available = list(position.hand)
    if position.action == "pickup":
        if position.pile_top is None:
            problems.append(Violation("pile-top-missing", "Say which card is on top of the pile.", "pile.top"))
        else:
            available.append(position.pile_top)
    if position.action == "meld" and not position.melds:
        problems.append(Violation("melds-missing", "Pick the cards you want to meld.", "melds"))
    wanted = [card for meld in position.melds for card in meld]
    missing, rest = take(available, wanted)
    if missing:
        what = "your hand or the top of the pile" if position.action == "pickup" else "your hand"
        problems.append(
            Violation(
                "melded-cards-not-held",
                f"The melds use {describe(missing)} more than {what} holds ({codes(missing)}).",
                "melds",
            )
        )
    if position.action == "discard" and position.discard is None:
        problems.append(Violation("discard-missing", "Pick the card you want to discard.", "discard"))
    if position.action in ("discard", "go_out") and position.discard is not None and not missing:
        if take(rest, [position.discard])[0]:
            where = "after the melds" if position.melds else "in your hand"
            problems.append(
                Violation(
                    "discard-not-held", f"There is no {card_name(position.discard)} left {where} to discard.", "discard"
                )
            )
    if problems:
        raise InvalidError(problems)


def _table_problems(rules: Variant, play: PlayRules, table: Sequence[Sequence[Card]]) -> list[Violation]:
    problems, seen = [], set()
    turn = Turn(rules, play, opening=True)
    for index, meld in enumerate(table):
        laid = _laid_from_table(meld)
        where = f"table[{index}]"
        if laid.kind == "threes":
            problems.append(
                Violation("threes-on-table", "Threes never stay in a side's melds while play goes on.", where)
            )
            continue
        if laid.kind in ("rank", "wild"):
            if (laid.kind, laid.rank) in seen:
                what = "wild cards" if laid.kind == "wild" else plural(NAMES[laid.rank])
                problems.append(Violation("two-melds-of-a-rank", f"A side has only one meld of {what}.", where))
            seen.add((laid.kind, laid.rank))
        broken = [f for f in meld_findings(Laid(laid.kind, laid.rank, added=laid.before), turn) if f.kept is False]
        problems += [Violation("table-meld-impossible", f"On the table: {f.text}", where) for f in broken]
    return problems
