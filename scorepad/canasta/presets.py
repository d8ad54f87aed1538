"""The presets of docs/rules.md "Presets", each one :class:`~scorepad.canasta.variants.Variant`.

>>> find_variant("samba").target, rules_for("samba", {"target": 12000}).target
(10000, 12000)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .kinds import (
    AMERICAN_KINDS,
    AMERICAN_LADDER,
    AMERICAN_PLAY,
    BOLIVIA_WILD,
    CLASSIC_LADDER,
    CLASSIC_PLAY,
    MIXED,
    NATURAL,
    SAMBA_PLAY,
    SEQUENCE,
)
from .options import AMERICAN_OPTIONS, SAMBA_OPTIONS
from .text import t, tp
from .variants import Variant
from .violations import InvalidError, Violation

# --- the presets (docs/rules.md "Presets") --------------------------------------------------
# Translators: what the score sheet calls the sides, at its column heads.
WE_THEY = (tp("side", "We"), tp("side", "They"))
CLASSIC = Variant(
    key="classic",
    name=t("Classic canasta"),
    summary=t("Four players in two partnerships, two decks, 11 cards; one canasta to go out; 5000 wins."),
    players=4,
    sides=2,
    side_names=WE_THEY,
    players_per_side=(2, 2),
    deal=11,
    draw=1,
    play_rules=CLASSIC_PLAY,
)
CLASSIC_2P = dataclasses.replace(
    CLASSIC,
    key="classic-2p",
    name=t("Classic canasta for two"),
    summary=t("Two players, each alone; 15 cards, draw two; two canastas to go out; 5000 wins."),
    players=2,
    side_names=(tp("side", "Me"), tp("side", "You")),
    players_per_side=(1, 1),
    deal=15,
    draw=2,
    canastas_to_go_out=2,
)
CLASSIC_3P = dataclasses.replace(
    CLASSIC,
    key="classic-3p",
    name=t("Classic canasta for three"),
    summary=t(
        "Three players with their own columns; each hand the first to take the pile plays alone "
        "against the other two; 13 cards, draw two; 7500 wins."
    ),
    players=3,
    sides=3,
    side_names=(tp("side", "North"), tp("side", "East"), tp("side", "West")),
    players_per_side=(1, 1, 1),
    deal=13,
    draw=2,
    target=7500,
    temporary_partnerships=True,
)
CLASSIC_5P = dataclasses.replace(
    CLASSIC,
    key="classic-5p",
    name=t("Classic canasta for five"),
    summary=t("A pair against a trio (one of the trio sits out each hand, in turn); 11 cards; 5000 wins."),
    players=5,
    side_names=(tp("side", "Pair"), tp("side", "Trio")),
    players_per_side=(2, 3),
)
_SIX = dict(
    players=6,
    decks=3,
    deal=13,
    canastas_to_go_out=2,
    target=7500,
    red_three_steps=((5, 1000), (6, 1200)),  # four of six are not "all": 400
)
CLASSIC_6P_3X2 = dataclasses.replace(
    CLASSIC,
    key="classic-6p-3x2",
    name=t("Classic canasta for six (three pairs)"),
    summary=t("Six players in three partnerships, three decks, 13 cards; two canastas to go out; 7500 wins."),
    sides=3,
    side_names=(tp("side", "A"), tp("side", "B"), tp("side", "C")),
    players_per_side=(2, 2, 2),
    **_SIX,
)
CLASSIC_6P_2X3 = dataclasses.replace(
    CLASSIC,
    key="classic-6p-2x3",
    name=t("Classic canasta for six (two teams of three)"),
    summary=t(
        "Six players in two teams of three, three decks, 13 cards; two canastas to go out; "
        "10000 wins; 150 to open from 7000."
    ),
    side_names=WE_THEY,
    players_per_side=(3, 3),
    ladder=((7000, 150), *CLASSIC_LADDER),
    **{**_SIX, "target": 10000},
)
AMERICAN = Variant(
    key="american",
    name=t("Modern American canasta"),
    summary=t(
        "Four players, two decks, 13 cards plus talons; pure sevens and aces, wild canastas and "
        "special hands; two canastas to go out; 8500 wins."
    ),
    players=4,
    sides=2,
    side_names=WE_THEY,
    players_per_side=(2, 2),
    deal=13,
    draw=1,
    play_rules=AMERICAN_PLAY,
    base_kinds=AMERICAN_KINDS,
    concealed_bonus=None,
    ladder=AMERICAN_LADDER,
    below_zero_minimum=125,
    red_three_steps=((1, 100), (2, 300), (3, 500), (4, 1000)),
    black_threes_scored=True,
    threes_positive_with=2,
    threes_void_with=1,
    melds_negative_without_canasta=True,
    base_incomplete=(("sevens", 2500), ("aces", 2500), ("wild", 2000)),
    held_set_penalties=(("sevens", 1500), ("aces", 1500)),
    special_hands=(("straight", 3000), ("pairs", 2500), ("pairs_wild", 2000), ("garbage", 2000)),
    meld_cap=7,
    initial_meld_from_hand=True,
    threes_in_hand_count=True,
    option_ids=AMERICAN_OPTIONS,
    target=8500,
    canastas_to_go_out=2,
    max_wilds=2,
)
SAMBA = Variant(
    key="samba",
    name=t("Samba"),
    summary=t(
        "Four players, three decks, 15 cards, draw two; suit sequences (sambas) worth 1500; "
        "two canastas to go out; 10000 wins."
    ),
    players=4,
    sides=2,
    side_names=WE_THEY,
    players_per_side=(2, 2),
    deal=15,
    draw=2,
    play_rules=SAMBA_PLAY,
    base_kinds=(NATURAL, MIXED, SEQUENCE),
    going_out_bonus=200,
    concealed_bonus=None,
    ladder=((7000, 160), *CLASSIC_LADDER),
    red_three_all=1000,
    threes_positive_with=2,
    option_ids=SAMBA_OPTIONS,
    choices=(("decks", (3,)),),
    target=10000,
    decks=3,
    canastas_to_go_out=2,
    max_wilds=2,
)
BOLIVIA = dataclasses.replace(
    SAMBA,
    key="bolivia",
    name=t("Bolivia"),
    summary=t(
        "Samba's cousin: escaleras (sequences) 1500, wild canastas (bolivias) 2500, black threes "
        "left in hand cost 100; two canastas to go out, one an escalera; 15000 wins."
    ),
    base_kinds=(NATURAL, MIXED, SEQUENCE, BOLIVIA_WILD),
    ladder=((7000, 150), *CLASSIC_LADDER),
    going_out_needs_kind="sequence",
    target=15000,
    black_three_in_hand=100,
)
CHILE = dataclasses.replace(
    BOLIVIA,
    key="chile",
    name=t("Chile (played as Bolivia)"),
    summary=t("Chilean canasta as the sources document it: Bolivia's rules with three or four packs."),
    choices=(("decks", (3, 4)),),
)

VARIANTS: Mapping[str, Variant] = {
    variant.key: variant
    for variant in (
        CLASSIC,
        CLASSIC_2P,
        CLASSIC_3P,
        CLASSIC_5P,
        CLASSIC_6P_3X2,
        CLASSIC_6P_2X3,
        AMERICAN,
        SAMBA,
        BOLIVIA,
        CHILE,
    )
}
# The preset a check request or the checker's page uses when it names none
# (docs/api.md "Rules check": "`classic` when left out").
DEFAULT_VARIANT = CLASSIC.key


class UnknownVariantError(InvalidError):
    """A variant id scorepad does not know."""

    def __init__(self, key: object):
        # Translators: %(known)s are the variants' ids, as the API writes them.
        message = t("There is no variant '%(key)s'. Known variants: %(known)s.", key=key, known=", ".join(VARIANTS))
        super().__init__([Violation("unknown-variant", message, "variant")])


def find_variant(key: str) -> Variant:
    """The preset with this id.

    :raises UnknownVariantError: for an id that is not in :data:`VARIANTS`.
    """
    try:
        return VARIANTS[key]
    except (KeyError, TypeError):
        raise UnknownVariantError(key) from None


def rules_for(key: str, options: Mapping[str, Any] | None = None) -> Variant:
    """The preset with these house rules applied: what a match plays by.

    >>> rules_for("classic", {"target": 10000}).target, rules_for("classic").target
    (10000, 5000)
    """
    return find_variant(key).with_options(options)
