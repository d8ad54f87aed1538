"""Play rules a family of variants shares, and the sizes of melds and canastas."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

SEQUENCE_CARDS = (3, 7)  # a sequence holds three to seven cards (RULES.md §5, Palace)
WILD_MELD_CARDS = (3, 7)  # a meld of wild cards holds three to seven (pagat, Palace)
BLACK_THREE_CARDS = (3, 4)  # black threes melded going out: three or four, no wild cards
CANASTA = 7


@dataclass(frozen=True)
class PlayStyle:
    """Play rules a family of variants shares where no :class:`Variant` field says them.

    Kept here as data, keyed by ``Variant.play_style``, so the checker reads rules and never
    asks which preset it is playing.
    """

    black_threes_going_out: bool  # a meld of black threes is allowed when going out
    threes_held: bool  # threes may stay in the hand (American keeps one for a straight)
    pickup_pair_only: bool  # the pile is only ever taken with a natural pair
    pickup_with_wild: bool  # natural + wild may take an unfrozen pile (the option then decides)
    pickup_onto_meld: bool  # the top card alone may go onto a side meld of its rank
    pickup_onto_canasta: bool  # ... even onto a canasta (the option then decides)
    pickup_blocked_from: int | None  # a side meld this long blocks taking the pile (American 5)
    concealed_needs_no_minimum: bool  # going out in one turn from the stock needs no minimum
    going_out_needs_discard: bool
    discard_only_going_out: bool  # threes and wild cards are discarded only when going out
    empty_pile_guarded: tuple[str, ...]  # ranks not discarded onto an empty pile (American A, 7)
    pure_ranks: tuple[str, ...]  # ranks whose melds never take wild cards (American sevens)
    opening_wild_ranks: tuple[str, ...]  # wild cards only if in the meld from the initial meld
    splash: bool  # a natural or wild canasta from the hand opens without a minimum
    needs_set_to_open: bool  # the initial meld holds three matching naturals or a wild meld


# The classic game's play rules (pagat, Bicycle); the other styles say how they differ.
CLASSIC_STYLE = PlayStyle(
    black_threes_going_out=True,
    threes_held=False,
    pickup_pair_only=False,
    pickup_with_wild=True,
    pickup_onto_meld=True,
    pickup_onto_canasta=True,
    pickup_blocked_from=None,
    concealed_needs_no_minimum=True,
    going_out_needs_discard=False,
    discard_only_going_out=False,
    empty_pile_guarded=(),
    pure_ranks=(),
    opening_wild_ranks=(),
    splash=False,
    needs_set_to_open=False,
)
STYLES: Mapping[str, PlayStyle] = {
    "classic": CLASSIC_STYLE,
    # RULES.md section 5: a natural pair, or the top card onto a meld that is not yet a canasta.
    "samba": replace(CLASSIC_STYLE, pickup_with_wild=False, pickup_onto_canasta=False),
    # pagat, Modern American: pairs only, threes held, discards limited, the splash.
    "american": replace(
        CLASSIC_STYLE,
        black_threes_going_out=False,
        threes_held=True,
        pickup_pair_only=True,
        pickup_with_wild=False,
        pickup_onto_meld=False,
        pickup_onto_canasta=False,
        pickup_blocked_from=5,
        concealed_needs_no_minimum=False,
        going_out_needs_discard=True,
        discard_only_going_out=True,
        empty_pile_guarded=("A", "7"),
        pure_ranks=("7",),
        opening_wild_ranks=("A",),
        splash=True,
        needs_set_to_open=True,
    ),
}
