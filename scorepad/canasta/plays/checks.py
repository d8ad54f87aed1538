"""Checks the actions share: this turn's melds, the canastas to go out, red threes, going out by melding.

>>> from scorepad.canasta.variants import VARIANTS
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
    # Translators: {count} is a number word ("two"), {n} the same number in digits.
    "natural": lambda n: tn("{count} natural canasta", "{count} natural canastas", n, count=number(n)),
    "mixed": lambda n: tn("{count} mixed canasta", "{count} mixed canastas", n, count=number(n)),
    "wild": lambda n: tn("{count} wild canasta", "{count} wild canastas", n, count=number(n)),
    "sequence": lambda n: tn("{count} sequence canasta", "{count} sequence canastas", n, count=number(n)),
}
NEEDED_KIND = {**CANASTA_KINDS, "sequence": t("an escalera (sequence canasta)")}
# Translators: the canastas a side has: "To go out your side needs one canasta; it has none."
NO_CANASTAS = tp("canastas", "none")


def canasta_count(rules: Variant, melds: Sequence[Laid]) -> tuple[bool, Text, Text]:
    """Whether the side has the canastas to go out, what it needs, and what it has, in words."""
    size = rules.play_rules.canasta
    kinds = [meld.canasta_kind(size) for meld in melds if meld.is_canasta(size)]
    need = rules.canastas_to_go_out
    have = len(kinds)
    ok = have >= need
    wanted = tn("one canasta", "{count} canastas", need, count=number(need))
    if rules.tough_end:
        tough = max(2, need)
        if rules.sequences:
            ok = have >= tough
            wanted = tn("{count} canasta (tough end)", "{count} canastas (tough end)", tough, count=number(tough))
        else:
            ok = have >= tough or (have >= need and "natural" in kinds)
            wanted = tn(
                "{count} canasta or a natural one (tough end)",
                "{count} canastas or a natural one (tough end)",
                tough,
                count=number(tough),
            )
    if rules.going_out_needs_kind:
        kind = rules.going_out_needs_kind
        ok = ok and kind in kinds
        # Translators: {wanted} is the canastas needed ("two canastas"), {canasta} one of a kind.
        wanted = t("{wanted}, one of them {canasta}", wanted=wanted, canasta=NEEDED_KIND[kind])
    counted = Counter(kinds)
    named = [CANASTA_KINDS[k] if n == 1 else COUNTED_CANASTAS[k](n) for k, n in counted.items()]
    listed = and_list(named) if named else NO_CANASTAS
    return ok, wanted, listed


def canasta_findings(rules: Variant, melds: Sequence[Laid]) -> list[Finding]:
    """Going out: the side has, or completes this turn, the canastas its variant requires."""
    ok, wanted, listed = canasta_count(rules, melds)
    if ok:
        return [
            Finding("canastas", t("To go out your side needs {wanted}; it has {listed}.", wanted=wanted, listed=listed))
        ]
    text = t(
        "To go out your side needs {wanted}; counting this turn it has {listed}. "
        "Keep at least one card after your discard until then.",
        wanted=wanted,
        listed=listed,
    )
    return [Finding("not-enough-canastas", text, False)]


def red_threes_held(play: PlayRules, cards: Iterable[Card]) -> list[Finding]:
    """A red three in the hand is laid out at once (except where threes may be held)."""
    reds = [card for card in cards if card.is_red_three]
    if not reds or play.threes_held:
        return []
    return [
        Finding(
            "red-three-held",
            t(
                "Lay out {cards} at once and draw a replacement: red threes are never kept in the hand.",
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
    if findings[0].kept is False:
        _, wanted, listed = canasta_count(rules, melds)
        text = tn(
            "Melding these leaves you {count} card, which is going out, and to go out your side needs {wanted}; "
            "counting this turn it has {listed}. Keep at least one card after your discard until then.",
            "Melding these leaves you {count} cards, which is going out, and to go out your side needs {wanted}; "
            "counting this turn it has {listed}. Keep at least one card after your discard until then.",
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
