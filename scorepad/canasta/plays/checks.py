"""Checks the actions share: this turn's melds, the canastas to go out, red threes, going out by melding.

>>> from scorepad.canasta.variants import VARIANTS
>>> [f.code for f in canasta_findings(VARIANTS["classic-2p"], [Laid("rank", "Q", before=(Card("Q"),) * 7)])]
['not-enough-canastas']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from ..cards import Card
from ..variants import PlayRules, Variant
from .melds import Laid, Turn, side_melds
from .position import Position
from .verdict import Finding
from .wording import codes, joined_with_and, number, with_article


def turn_melds(
    rules: Variant, play: PlayRules, position: Position, going_out: bool
) -> tuple[list[Laid], list[Laid], Turn]:
    """The side's melds after this turn (touched, untouched) and what the meld rules need to know."""
    touched, untouched = side_melds(position.table, position.melds, rules)
    open_wild = any(m.kind == "wild" and len(m.cards) < play.canasta for m in touched + untouched)
    turn = Turn(
        rules,
        play,
        going_out=going_out,
        opening=not position.has_opened and bool(position.melds),
        wild_meld_open=open_wild and rules.has_wild_melds,
    )
    return touched, untouched, turn


def canasta_findings(rules: Variant, melds: Sequence[Laid]) -> list[Finding]:
    """Going out: the side has, or completes this turn, the canastas its variant requires."""
    size = rules.play_rules.canasta
    kinds = [meld.canasta_kind(size) for meld in melds if meld.is_canasta(size)]
    need = rules.canastas_to_go_out
    have = len(kinds)
    ok = have >= need
    wanted = f"{number(need)} canasta{'s' * (need != 1)}"
    if rules.tough_end:
        tough = max(2, need)
        if rules.sequences:
            ok, wanted = have >= tough, f"{number(tough)} canastas (tough end)"
        else:
            ok = have >= tough or (have >= need and "natural" in kinds)
            wanted = f"{number(tough)} canastas or a natural one (tough end)"
    if rules.going_out_needs_kind:
        kind = rules.going_out_needs_kind
        label = "escalera (sequence canasta)" if kind == "sequence" else f"{kind} canasta"
        ok = ok and kind in kinds
        wanted += f", one of them {with_article(label)}"
    counted = Counter(kinds)
    named = [with_article(f"{k} canasta") if n == 1 else f"{number(n)} {k} canastas" for k, n in counted.items()]
    listed = joined_with_and(named) if named else "none"
    if ok:
        return [Finding("canastas", f"To go out your side needs {wanted}; it has {listed}.", True)]
    return [
        Finding(
            "not-enough-canastas",
            f"To go out your side needs {wanted}; counting this turn it has {listed}. "
            "Keep at least one card after your discard until then.",
            False,
        )
    ]


def red_threes_held(play: PlayRules, cards: Iterable[Card]) -> list[Finding]:
    """A red three in the hand is laid out at once (except where threes may be held)."""
    reds = [card for card in cards if card.is_red_three]
    if not reds or play.threes_held:
        return []
    return [
        Finding(
            "red-three-held",
            f"Lay out {codes(reds)} at once and draw a replacement: red threes are never kept in the hand.",
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
        return [
            Finding(
                "must-keep-a-card",
                f"Melding these leaves you {number(left)} card{'s' * (left != 1)}, which is going out, and "
                f"{findings[0].text[0].lower()}{findings[0].text[1:]}",
                False,
            )
        ]
    if left == 0 and play.going_out_needs_discard:
        return findings + [
            Finding(
                "going-out-needs-discard",
                "You may not go out by melding every card: keep one to discard.",
                False,
            )
        ]
    if left == 0:
        return findings + [Finding("going-out", "Melding every card goes out, with no discard.", None)]
    return findings + [Finding("going-out", "You may then go out by discarding your last card.", None)]
