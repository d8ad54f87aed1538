"""American special hands on the checker (docs/rules.md "Going out", pagat Modern American "Special Hands").

A player whose team has not melded may go out after drawing by laying down the whole 14-card
hand, with no discard and no canastas, when it is a straight (one card of every rank A-2-3-…-K
and a joker), seven pairs (no jokers, no threes; with a pair of twos, also a pair of sevens and a
pair of aces) or garbage (two fours of a kind and two threes of a kind, no wild cards, no threes).
What each scores comes from the variant (``special_hand_values``), its name from the score sheet.

pagat's own example of a hand that is not valid:

>>> from scorepad.canasta.plays import check_request
>>> hand = "2 2 4 4 5 5 6 6 8 8 9 9 A A".split()
>>> verdict = check_request({"variant": "american", "action": "go_out", "hand": hand})
>>> verdict.legal, verdict.problems[0].code
(False, 'not-a-special-hand')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from ..cards import JOKER, Card
from ..scoring import SPECIAL_HAND_LABELS
from ..text import Text, t, tn
from ..variants import PlayRules, Variant
from .position import Position
from .verdict import Finding, Verdict
from .wording import codes, number

HAND_SIZE = 14
STRAIGHT_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", JOKER)
AFTER_MELDING = t("Your side has melded already: a special hand is laid down only while your side has melded nothing.")
NOT_FROM_PILE = t("A special hand is laid down after drawing from the stock, never after taking the pile.")
NO_DISCARD_NO_CANASTAS = t("A special hand goes out with the whole hand: no discard and no canastas.")


def is_special_question(rules: Variant, position: Position) -> bool:
    """Going out with no discard and the whole hand as one meld, or with no melds, where special hands exist."""
    if not rules.special_hand_values or position.action != "go_out" or position.discard is not None:
        return False
    if not position.melds:
        return True
    return len(position.melds) == 1 and len(position.melds[0]) == len(position.hand) == HAND_SIZE


def _slot(card: Card) -> str:
    """The card's place in a straight: its rank, with any three as "3"."""
    return card.rank


def special_hand(cards: Sequence[Card]) -> str | None:
    """The special hand these 14 cards are (``straight``, ``pairs``, ``pairs_wild``, ``garbage``), or None.

    >>> special_hand([Card(code) for code in "4 4 4 6 6 6 6 J J J J A A A".split()])
    'garbage'
    """
    found = [name for name, (breaking, _why) in _shapes(cards).items() if not breaking]
    return found[0] if found else None


def _shapes(cards: Sequence[Card]) -> dict[str, tuple[list[Card], Text | None]]:
    """For each special hand, the cards that break it (none: it is one) and, where it helps, why."""
    straight = _straight(cards)
    pairs = _pairs(cards)
    kind = "pairs_wild" if any(card.is_wild for card in cards) else "pairs"
    return {"straight": straight, kind: pairs, "garbage": _garbage(cards)}


def _straight(cards: Sequence[Card]) -> tuple[list[Card], Text | None]:
    """One card of every rank A-2-3-…-K and a joker: the second card of a rank breaks it."""
    seen: set[str] = set()
    extra = []
    for card in cards:
        if _slot(card) in seen:
            extra.append(card)
        seen.add(_slot(card))
    missing = [rank for rank in STRAIGHT_RANKS if rank not in seen]
    if not extra and not missing:
        return [], None
    text = tn(
        "Not a straight: a straight is one card of each rank from ace to king and a joker, "
        "so %(cards)s breaks it (it has no %(missing)s).",
        "Not a straight: a straight is one card of each rank from ace to king and a joker, "
        "so %(cards)s break it (it has no %(missing)s).",
        len(extra),
        cards=codes(extra),
        missing=", ".join(missing),
    )
    return extra, text


def _pairs(cards: Sequence[Card]) -> tuple[list[Card], Text | None]:
    """Seven pairs of seven ranks, no jokers, no threes; a pair of twos only with sevens and aces."""
    by_rank: dict[str, list[Card]] = {}
    for card in cards:
        by_rank.setdefault(card.rank, []).append(card)
    breaking = []
    for rank, group in by_rank.items():
        if rank in (JOKER, "3") or len(group) != 2:
            breaking += group if rank in (JOKER, "3") or len(group) < 2 else group[2:]
    if breaking:
        text = tn(
            "Not seven pairs: they are two cards of each of seven ranks, with no joker and no three, "
            "so %(cards)s breaks them.",
            "Not seven pairs: they are two cards of each of seven ranks, with no joker and no three, "
            "so %(cards)s break them.",
            len(breaking),
            cards=codes(breaking),
        )
        return breaking, text
    if "2" in by_rank and not ("7" in by_rank and "A" in by_rank):
        text = t(
            "Not seven pairs: a pair of twos (%(cards)s) is allowed only with a pair of sevens and a pair of aces.",
            cards=codes(by_rank["2"]),
        )
        return by_rank["2"], text
    return [], None


def _garbage(cards: Sequence[Card]) -> tuple[list[Card], Text | None]:
    """Two fours of a kind and two threes of a kind, of four ranks, no wild cards, no threes."""
    wrong = [card for card in cards if card.is_wild or card.is_three]
    counts = Counter(card.rank for card in cards if card not in wrong)
    ranks = sorted(counts, key=lambda rank: -counts[rank])
    keep = dict(zip(ranks, (4, 4, 3, 3), strict=False))
    breaking = list(wrong)
    taken: Counter[str] = Counter()
    for card in cards:
        if card in wrong:
            continue
        if taken[card.rank] < keep.get(card.rank, 0):
            taken[card.rank] += 1
        else:
            breaking.append(card)
    short = sum(keep.values()) - sum(taken.values())
    if not breaking and not short:
        return [], None
    text = tn(
        "Not garbage: garbage is two fours of a kind and two threes of a kind, with no wild card and no three, "
        "so %(cards)s breaks it.",
        "Not garbage: garbage is two fours of a kind and two threes of a kind, with no wild card and no three, "
        "so %(cards)s break it.",
        max(len(breaking), 1),
        cards=codes(breaking) if breaking else codes(cards),
    )
    return breaking or list(cards), text


def check_special(rules: Variant, play: PlayRules, position: Position) -> Verdict:
    """Going out with a special hand: the side has not melded, it drew from the stock, 14 cards make one."""
    findings = [finding for check in SPECIAL_CHECKS if (finding := check(rules, position)) is not None]
    return Verdict.from_findings(findings, minimum=rules.minimum_for(position.score))


def _not_melded(rules: Variant, position: Position) -> Finding | None:
    if not position.has_opened:
        return None
    return Finding("special-hand-after-meld", AFTER_MELDING, False)


def _from_stock(rules: Variant, position: Position) -> Finding | None:
    if not position.took_pile:
        return None
    return Finding("special-hand-from-pile", NOT_FROM_PILE, False)


def _whole_hand(rules: Variant, position: Position) -> Finding:
    """The 14 cards make a special hand, or the closest one says which cards break it."""
    cards = position.hand
    if len(cards) != HAND_SIZE:
        text = tn(
            "A special hand is the whole hand of %(most)s cards after drawing: you hold %(count)s card.",
            "A special hand is the whole hand of %(most)s cards after drawing: you hold %(count)s cards.",
            len(cards),
            most=HAND_SIZE,
            count=number(len(cards)),
        )
        return Finding("special-hand-size", text, False)
    shapes = _shapes(cards)
    kind = special_hand(cards)
    if kind is not None:
        text = t(
            "%(cards)s is a special hand: %(name)s. Your side scores %(value)s for this hand in place of everything "
            "else; the other side scores as usual.",
            cards=codes(cards),
            name=SPECIAL_HAND_LABELS[kind],
            value=rules.special_hand_values[kind],
        )
        return Finding("special-hand", text, True)
    closest = min(len(breaking) for breaking, _why in shapes.values())
    why = next(why for breaking, why in shapes.values() if len(breaking) == closest)
    return Finding("not-a-special-hand", why, False)


def _how_it_goes_out(rules: Variant, position: Position) -> Finding:
    return Finding("special-hand-goes-out", NO_DISCARD_NO_CANASTAS, None)


SPECIAL_CHECKS: tuple[Callable[[Variant, Position], Finding | None], ...] = (
    _not_melded,
    _from_stock,
    _whole_hand,
    _how_it_goes_out,
)
