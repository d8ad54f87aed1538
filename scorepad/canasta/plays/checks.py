"""Checks the actions share: this turn's melds, the canastas to go out, red threes, going out by melding.

>>> from scorepad.canasta.presets import VARIANTS
>>> [f.code for f in canasta_findings(VARIANTS["classic-2p"], [Laid("rank", "Q", before=(Card("Q"),) * 7)])]
['not-enough-canastas']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from ..cards import Card
from ..text import Text, and_list, t, tn, tp
from ..variants import PlayRules, Variant
from .melds import Laid, Turn, side_melds
from .position import Position
from .verdict import Finding
from .wording import codes, number

KEEP_ONE_TO_DISCARD = t("You may not go out by melding every card: keep one to discard.")
MELDING_EVERY_CARD = t("Melding every card goes out, with no discard.")
THEN_GO_OUT = t("You may then go out by discarding your last card.")


def turn_melds(
    rules: Variant, play: PlayRules, position: Position, going_out: bool
) -> tuple[list[Laid], list[Laid], Turn]:
    """The side's melds after this turn (touched, untouched) and what the meld rules need to know."""
    touched, untouched = side_melds(position.table, position.melds, rules, position.placed)
    open_wild = any(m.kind == "wild" and len(m.cards) < play.canasta for m in touched + untouched)
    turn = Turn(
        rules,
        play,
        going_out=going_out,
        opening=not position.has_opened and bool(position.melds),
        wild_meld_open=open_wild and rules.has_wild_melds,
    )
    return touched, untouched, turn


# Translators: a canasta of each kind, as in "your side needs two canastas, one of them a natural canasta".
CANASTA_KINDS = {
    "natural": t("a natural canasta"),
    "mixed": t("a mixed canasta"),
    "wild": t("a wild canasta"),
    "sequence": t("a sequence canasta"),
}
COUNTED_CANASTAS = {
    # Translators: %(count)s is a number word ("two"), %(n)s the same number in digits.
    "natural": lambda n: tn("%(count)s natural canasta", "%(count)s natural canastas", n, count=number(n)),
    "mixed": lambda n: tn("%(count)s mixed canasta", "%(count)s mixed canastas", n, count=number(n)),
    "wild": lambda n: tn("%(count)s wild canasta", "%(count)s wild canastas", n, count=number(n)),
    "sequence": lambda n: tn("%(count)s sequence canasta", "%(count)s sequence canastas", n, count=number(n)),
}
NEEDED_KIND = {**CANASTA_KINDS, "sequence": t("an escalera (sequence canasta)")}
# Translators: the canastas a side has: "To go out your side needs one canasta; it has none."
NO_CANASTAS = tp("canastas", "none")


def canasta_count(rules: Variant, melds: Sequence[Laid]) -> tuple[bool, Text, Text]:
    """Whether the side has the canastas to go out, what it needs, and what it has, in words."""
    size = rules.play_rules.canasta
    counted = Counter(meld.canasta_kind(size) for meld in melds if meld.is_canasta(size))
    ok = not rules.going_out_lacks(counted)  # the rule the checks of reported hands ask too
    need = rules.canastas_to_go_out
    wanted = tn("one canasta", "%(count)s canastas", need, count=number(need))
    if rules.tough_end:
        tough = max(2, need)
        if rules.sequences:
            wanted = tn("%(count)s canasta (tough end)", "%(count)s canastas (tough end)", tough, count=number(tough))
        else:
            wanted = tn(
                "%(count)s canasta or a natural one (tough end)",
                "%(count)s canastas or a natural one (tough end)",
                tough,
                count=number(tough),
            )
    if rules.going_out_needs_kind:
        kind = rules.going_out_needs_kind
        # Translators: %(wanted)s is the canastas needed ("two canastas"), %(canasta)s one of a kind.
        wanted = t("%(wanted)s, one of them %(canasta)s", wanted=wanted, canasta=NEEDED_KIND[kind])
    # In the order of CANASTA_KINDS, never the order of the melds: one answer whatever their order.
    named = [
        CANASTA_KINDS[k] if counted[k] == 1 else COUNTED_CANASTAS[k](counted[k]) for k in CANASTA_KINDS if counted[k]
    ]
    listed = and_list(named) if named else NO_CANASTAS
    return ok, wanted, listed


MOST_MERGED = 5  # melds of one rank tried for merging; more are left as they are


def merged(rules: Variant, melds: Sequence[Laid]) -> tuple[list[Laid], list[list[Laid]]]:
    """Samba family: the side's melds of one rank merged where that completes more canastas.

    A side may hold two melds of a rank and merge them at any time (docs/rules.md "Melds"), keeping the
    meld rules: the wild cards of the merged meld, and no wild card onto a completed canasta.
    Returns the melds after merging and the groups merged.
    """
    if not rules.play_rules.duplicate_melds:
        return list(melds), []
    by_rank: dict[str, list[Laid]] = {}
    for meld in melds:
        if meld.kind == "rank":
            by_rank.setdefault(meld.rank, []).append(meld)
    result = [meld for meld in melds if meld.kind != "rank"]
    merges = []
    for group in by_rank.values():
        parts = _best_partition(rules, group) if 1 < len(group) <= MOST_MERGED else [[meld] for meld in group]
        for part in parts:
            if len(part) > 1:
                merges.append(part)
                cards = [meld.cards for meld in part]
                result.append(Laid("rank", part[0].rank, before=tuple(card for meld in cards for card in meld)))
            else:
                result.append(part[0])
    return result, merges


def _best_partition(rules: Variant, group: list[Laid]) -> list[list[Laid]]:
    """The partition of one rank's melds into merged melds with the most canastas, fewest merges on a tie."""
    size = rules.play_rules.canasta
    best, best_key = [[meld] for meld in group], None
    for parts in _partitions(group):
        if not all(_may_merge(rules, part) for part in parts):
            continue
        canastas = sum(1 for part in parts if sum(len(meld.cards) for meld in part) >= size)
        key = (canastas, len(parts))
        if best_key is None or key > best_key:
            best, best_key = parts, key
    return best


def _partitions(items: list[Laid]) -> list[list[list[Laid]]]:
    if not items:
        return [[]]
    first, rest = items[0], items[1:]
    found = []
    for parts in _partitions(rest):
        found.append([[first], *parts])
        for index in range(len(parts)):
            found.append([*parts[:index], [first, *parts[index]], *parts[index + 1 :]])
    return found


def _may_merge(rules: Variant, part: list[Laid]) -> bool:
    """Merged melds keep the wild-card rules, and no wild card goes onto a completed canasta."""
    if len(part) == 1:
        return True
    cards = [card for meld in part for card in meld.cards]
    wilds = sum(1 for card in cards if card.is_wild)
    if wilds > rules.wild_limit or (rules.wilds_not_more_than_naturals and wilds > len(cards) - wilds):
        return False
    canasta = rules.play_rules.canasta
    return rules.play_rules.wild_onto_canasta or not any(
        len(meld.cards) >= canasta and any(other.wilds for other in part if other is not meld) for meld in part
    )


def canasta_findings(rules: Variant, melds: Sequence[Laid]) -> list[Finding]:
    """Going out: the side has, or completes this turn, the canastas its variant requires."""
    melds, merges = merged(rules, melds)
    notes = [
        Finding(
            "merge",
            t("Merge your %(melds)s: together they make a canasta.", melds=and_list([codes(m.cards) for m in part])),
            None,
        )
        for part in merges
    ]
    ok, wanted, listed = canasta_count(rules, melds)
    if ok:
        return [
            Finding(
                "canastas",
                t("To go out your side needs %(wanted)s; it has %(listed)s.", wanted=wanted, listed=listed),
            ),
            *notes,
        ]
    text = t(
        "To go out your side needs %(wanted)s; counting this turn it has %(listed)s. "
        "Keep at least one card after your discard until then.",
        wanted=wanted,
        listed=listed,
    )
    return [Finding("not-enough-canastas", text, False), *notes]


def red_threes_held(play: PlayRules, cards: Iterable[Card]) -> list[Finding]:
    """A red three in the hand is laid out at once (except where threes may be held)."""
    reds = [card for card in cards if card.is_red_three]
    if not reds or play.threes_held:
        return []
    return [
        Finding(
            "red-three-held",
            t(
                "Lay out %(cards)s at once and draw a replacement: red threes are never kept in the hand.",
                cards=codes(reds),
            ),
            None,
        )
    ]


def left_after(position: Position, melded_from_hand: int, extra: int = 0) -> int:
    """Cards in the hand after melding, plus any the pile brings."""
    return len(position.hand) - melded_from_hand + extra


def going_out_by_melding(
    rules: Variant, play: PlayRules, position: Position, melds: Sequence[Laid], left: int
) -> list[Finding]:
    """Melding down to one card or none is going out, with everything that asks."""
    findings = canasta_findings(rules, melds)
    if findings[0].obeyed is False:
        _, wanted, listed = canasta_count(rules, merged(rules, melds)[0])
        text = tn(
            "Melding these leaves you %(count)s card, which is going out, and to go out your side needs %(wanted)s; "
            "counting this turn it has %(listed)s. Keep at least one card after your discard until then.",
            "Melding these leaves you %(count)s cards, which is going out, and to go out your side needs %(wanted)s; "
            "counting this turn it has %(listed)s. Keep at least one card after your discard until then.",
            left,
            count=number(left),
            wanted=wanted,
            listed=listed,
        )
        return [Finding("must-keep-a-card", text, False)]
    if left == 0 and play.going_out_needs_discard:
        return findings + [Finding("going-out-needs-discard", KEEP_ONE_TO_DISCARD, False)]
    if left == 0:
        return findings + [Finding("going-out", MELDING_EVERY_CARD, None)]
    return findings + [Finding("going-out", THEN_GO_OUT, None)]
