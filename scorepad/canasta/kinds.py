"""Kinds of canasta and how play goes: the pieces a variant is built from.

The numbers are docs/rules.md's "Presets"; how play goes, its "What the checker decides".

>>> NATURAL.bonus, MIXED.min_points, SAMBA_PLAY.duplicate_melds
(500, 50, True)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .text import t

# --- initial-meld ladders: (lowest total, minimum), highest step first --------------------
CLASSIC_LADDER = ((3000, 120), (1500, 90), (0, 50))
HARDER_LADDER = ((3000, 150), (1500, 120), (0, 90))  # Palace "Harder First Meld"
HARDER_BELOW_ZERO = 50
AMERICAN_LADDER = ((5000, 180), (3000, 155), (0, 125))


@dataclass(frozen=True)
class CanastaKind:
    """A kind of completed canasta: its bonus and the least it can hold.

    ``naturals``/``wilds``/``jokers``/``twos`` are the fewest cards of each sort seven cards of
    this kind need; ``min_points`` is the least its cards can be worth.
    """

    key: str
    label: str
    bonus: int
    min_points: int
    naturals: int = 0
    wilds: int = 0
    jokers: int = 0
    twos: int = 0
    rank: str | None = None  # a kind tied to one rank (sevens, aces): one meld per side


def _kinds(*kinds: CanastaKind) -> tuple[CanastaKind, ...]:
    return kinds


# Bonus numbers from docs/rules.md "Presets" (canasta bonuses); least contents worked out from the
# meld rules (a natural canasta of fours is 7 x 5 = 35; a mixed one with one wild two is
# 6 x 5 + 20 = 50; a suit sequence 4-10 is 4 x 5 + 3 x 10 = 50).
NATURAL = CanastaKind("natural", t("Natural canasta"), 500, 35, naturals=7)
MIXED = CanastaKind("mixed", t("Mixed canasta"), 300, 50, naturals=4, wilds=1)
SEQUENCE = CanastaKind("sequence", t("Sequence canasta (samba / escalera)"), 1500, 50, naturals=7)
WILD_1000 = CanastaKind("wild", t("Wild-card canasta"), 1000, 140, wilds=7)
WILD_2000 = CanastaKind("wild", t("Wild-card canasta"), 2000, 140, wilds=7)  # pagat's "typical bonus"
WILD_BIG = CanastaKind("wild_big", t("Big wild canasta (more jokers than twos)"), 2000, 260, wilds=7, jokers=4)
WILD_SMALL = CanastaKind("wild_small", t("Small wild canasta (more twos than jokers)"), 1000, 140, wilds=7, twos=4)
BOLIVIA_WILD = CanastaKind("wild", t("Wild canasta (a bolivia)"), 2500, 140, wilds=7)
AMERICAN_KINDS = _kinds(
    NATURAL,
    CanastaKind("mixed", t("Mixed canasta"), 300, 50, naturals=5, wilds=1),
    CanastaKind("sevens", t("Canasta of sevens"), 2500, 35, naturals=7, rank="7"),
    CanastaKind("aces", t("Pure canasta of aces"), 2500, 140, naturals=7, rank="A"),
    # 1-3 jokers with twos: at least one joker and six twos, 50 + 6 x 20.
    CanastaKind("wild", t("Wild-card canasta (1-3 jokers)"), 2000, 170, wilds=7, jokers=1, twos=4),
    CanastaKind("jokers", t("Jokers canasta (all four jokers)"), 2500, 260, wilds=7, jokers=4, twos=3),
    CanastaKind("twos", t("Canasta of seven twos"), 3000, 140, wilds=7, twos=7),
)

WILD_CANASTA_KINDS = {"none": (), "1000": (WILD_1000,), "2000": (WILD_2000,), "palace": (WILD_BIG, WILD_SMALL)}
WILD_CANASTA_INCOMPLETE = {"none": (), "1000": (), "2000": (), "palace": (("wild", 1000),)}
SEQUENCES_GOING_OUT = 200  # Palace "Sequences": going out always scores 200, never concealed


@dataclass(frozen=True)
class PlayRules:
    """How play goes in a family of variants, where no house-rule option says it.

    docs/rules.md "What the checker decides" states these rules for each family.

    The rules checker reads these and never asks which preset it is playing. Where a play rule
    and an option share a name (``pickup_with_wild``, ``pickup_onto_canasta``), the play rule
    says whether the variant allows it at all and the option then decides.
    """

    canasta: int  # cards that make a meld a canasta
    sequence_cards: tuple[int, int]  # a sequence holds this many cards, fewest and most (Palace)
    wild_meld_cards: tuple[int, int]  # a meld of wild cards holds this many (pagat, Palace)
    black_three_cards: tuple[int, int]  # black threes melded going out: this many, no wild cards
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
    duplicate_melds: bool = False  # a side may hold two melds of a rank and merge them (Samba family)
    wild_onto_canasta: bool = True  # a wild card may be added to a completed canasta (not in Samba)


# The classic game's play rules (pagat, Bicycle); Samba and American say how they differ.
CLASSIC_PLAY = PlayRules(
    canasta=7,
    sequence_cards=(3, 7),
    wild_meld_cards=(3, 7),
    black_three_cards=(3, 4),
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
# docs/rules.md "Taking the pile", Samba family: a natural pair, or the top card onto a meld that is not yet a canasta.
# Bicycle's Samba and the Official Canasta Laws: a second meld of a rank, never a wild card onto a canasta.
SAMBA_PLAY = dataclasses.replace(
    CLASSIC_PLAY,
    pickup_with_wild=False,
    pickup_onto_canasta=False,
    duplicate_melds=True,
    wild_onto_canasta=False,
)
# pagat, Modern American: pairs only, threes held, discards limited, the splash.
AMERICAN_PLAY = dataclasses.replace(
    CLASSIC_PLAY,
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
)
