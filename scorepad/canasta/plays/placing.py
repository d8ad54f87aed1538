"""Where the cards go when the player leaves it open: every placement tried, the legal one answered.

A wild card sent alone goes on whichever of the side's melds the player chooses, and in the Samba
family a meld of a rank may join one of the side's melds of that rank or stand alone (docs/rules.md "Melds").
Where the question does not say, the checker judges each placement, in an order that depends on
the cards alone, and answers for the first that makes the play legal, naming it; when none does,
it gives the reasons for each meld a wild card could go on.

>>> from scorepad.canasta.plays import check_request
>>> verdict = check_request({"action": "meld", "hand": ["JK", "5", "6"], "melds": [["JK"]],
...     "table": [["7", "7", "7", "7", "2C", "2D", "2H"], ["Q", "Q", "Q"]]})
>>> verdict.legal, verdict.reasons[-1]
(True, 'You choose the meld JK goes on: on your Q-Q-Q the play is allowed.')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from itertools import islice

from ..text import and_list, t
from ..variants import PlayRules, Variant
from ..violations import Violation
from .melds import Target, lone_wilds, placements, wild_groups
from .position import Position
from .verdict import Verdict
from .wording import codes

MOST_PLACEMENTS = 64  # ways tried at most: a question with more leaves the rest to the first ones
Judge = Callable[[Variant, PlayRules, Position], Verdict]


def placed_check(judge: Judge, rules: Variant, play: PlayRules, position: Position) -> Verdict:
    """Judge the play with each placement the player may choose; the first legal one, else why none is."""
    ways = _ways(position, rules)
    if len(ways) <= 1:
        onto = tuple(sorted(ways[0].items())) if ways else position.onto
        return judge(rules, play, replace(position, onto=onto))
    for way in _ways(position, rules, hopeful=True):
        verdict = judge(rules, play, replace(position, onto=tuple(sorted(way.items()))))
        if verdict.legal:
            return _chosen(verdict, position, rules, way, ways)
    tried = [(way, judge(rules, play, replace(position, onto=tuple(sorted(way.items()))))) for way in ways]
    return _refused_everywhere(position, rules, tried)


def _ways(position: Position, rules: Variant, hopeful: bool = False) -> list[dict[int, Target]]:
    """The placements tried, at most :data:`MOST_PLACEMENTS`; ``hopeful``: only those that may be legal."""
    found = placements(position.table, position.melds, rules, position.placed, hopeful)
    return list(islice(found, MOST_PLACEMENTS))


def _open_wilds(position: Position, rules: Variant, ways: list[dict[int, Target]]) -> list[int]:
    """The wild cards sent alone whose meld the player left open and that could go on more than one."""
    lone = [i for i in wild_groups(position.melds) if i not in position.placed]
    lone.sort(key=lambda i: (sorted(map(str, position.melds[i])), i))  # named in an order of the cards alone
    return [i for i in lone if len({way[i] for way in ways}) > 1]


def _target_words(position: Position, way: dict[int, Target], index: int) -> str:
    """The meld a group goes on, as the table writes it."""
    pile, where = way[index]
    if pile == "table":
        return codes(position.table[where])
    return codes(position.melds[where])


def _chosen(
    verdict: Verdict, position: Position, rules: Variant, way: dict[int, Target], ways: list[dict[int, Target]]
) -> Verdict:
    """A legal placement: say which meld each open wild card goes on."""
    lone = lone_wilds(position.melds, rules)
    notes = [
        t(
            "You choose the meld %(cards)s goes on: on your %(meld)s the play is allowed.",
            cards=codes(position.melds[i]),
            meld=_target_words(position, way, i),
        )
        for i in _open_wilds(position, rules, ways)
        if i in lone or way[i] != ways[0][i]  # wild cards enough for a meld, where it goes by default: no choice made
    ]
    return replace(verdict, reasons=(*verdict.reasons, *dict.fromkeys(notes)))  # like wild cards on one meld: once


def _placement_words(position: Position, way: dict[int, Target], index: int) -> str:
    """Where one group of wild cards goes, in words: on a meld, or as a meld of wild cards of its own."""
    if way[index] == ("melds", index):
        # Translators: %(cards)s are wild cards laid down together as a meld of wild cards, e.g. "2H-2C-JK".
        return t("%(cards)s as a meld of their own", cards=codes(position.melds[index]))
    return t("%(cards)s on your %(meld)s", cards=codes(position.melds[index]), meld=_target_words(position, way, index))


def _refused_everywhere(position: Position, rules: Variant, tried: list[tuple[dict[int, Target], Verdict]]) -> Verdict:
    """No placement is legal: the reasons for each meld an open wild card could go on.

    A reason every placement gives is said once, for wherever the wild cards go.
    """
    ways = [way for way, _ in tried]
    open_wilds = _open_wilds(position, rules, ways)
    first = tried[0][1]
    if not open_wilds:
        return first
    distinct = list({tuple(way[i] for i in open_wilds): (way, verdict) for way, verdict in reversed(tried)}.values())
    distinct.reverse()  # one try per placement of the open wild cards, the first of each, in the order tried
    common = set.intersection(*({str(problem.message) for problem in verdict.problems} for _, verdict in distinct))
    anywhere = and_list([codes(position.melds[i]) for i in open_wilds])
    found: dict[str, Violation] = {}
    everywhere = set()
    for way, verdict in distinct:
        where = and_list([_placement_words(position, way, i) for i in open_wilds])
        for problem in verdict.problems:
            if str(problem.message) in common:
                # Translators: %(cards)s are the wild cards sent alone, e.g. "2C and JK"; every meld gives this reason.
                text = t("Wherever you put %(cards)s: %(reason)s", cards=anywhere, reason=problem.message)
                everywhere.add(str(text))
            else:
                text = t("With %(placement)s: %(reason)s", placement=where, reason=problem.message)
            found.setdefault(str(text), Violation(problem.code, text, problem.field))
    said = sorted(found.values(), key=lambda problem: str(problem.message) not in everywhere)  # those first
    return replace(first, reasons=tuple(problem.message for problem in said), problems=tuple(said))
