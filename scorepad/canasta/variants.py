"""The Variant type: every number and switch that differs between Canasta rule sets, as data.

Each preset of docs/rules.md "Presets" (``presets.py``) is one frozen :class:`Variant`; each
house-rule option of section 4 is a field of it, so ``variant.with_options({...})`` gives the
rules in force for a match. Scoring and checking code reads these fields; it never asks which
preset it is playing.

>>> from .presets import VARIANTS
>>> classic = VARIANTS["classic"]
>>> classic.minimum_for(1495), classic.minimum_for(1500), classic.minimum_for(-5)
(50, 90, 15)
>>> classic.with_options({"harder_first_meld": True}).minimum_for(-5)
50
>>> VARIANTS["american"].minimum_for(5000)
180
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .cards import Decks
from .kinds import (
    CLASSIC_LADDER,
    HARDER_BELOW_ZERO,
    HARDER_LADDER,
    MIXED,
    NATURAL,
    SEQUENCE,
    SEQUENCES_GOING_OUT,
    WILD_CANASTA_INCOMPLETE,
    WILD_CANASTA_KINDS,
    CanastaKind,
    PlayRules,
)
from .options import CLASSIC_OPTIONS, OPTIONS, Option, OptionError, OptionValueError, coerce
from .text import t
from .violations import Violation


@dataclass(frozen=True)
class Variant:
    """The rules of one Canasta variant, with its house-rule options applied."""

    key: str  # stored with every match; never renamed
    name: str
    summary: str
    players: int
    sides: int
    side_names: tuple[str, ...]
    players_per_side: tuple[int, ...]
    deal: int
    draw: int
    play_rules: PlayRules  # how play goes: what the rules checker reads
    base_kinds: tuple[CanastaKind, ...] = (NATURAL, MIXED)
    going_out_bonus: int = 100
    concealed_bonus: int | None = 100  # extra for going out concealed; None: no such bonus
    ladder: tuple[tuple[int, int], ...] = CLASSIC_LADDER
    below_zero_minimum: int = 15
    red_three_each: int = 100
    red_three_all: int | None = None  # a side with every red three in play scores this in all...
    red_three_all_extra: int = 400  # ...or, where None, 100 each and this much more (Palace)
    red_three_steps: tuple[tuple[int, int], ...] = ()  # explicit values for some counts
    black_threes_scored: bool = False  # American: melded black threes score like red ones
    threes_positive_with: int = 0  # canastas for threes to count plus; 0: any meld at all
    threes_void_with: int | None = None  # American: exactly this many canastas, threes score 0
    melds_negative_without_canasta: bool = False
    base_incomplete: tuple[tuple[str, int], ...] = ()  # unfinished special melds: penalty each
    held_set_penalties: tuple[tuple[str, int], ...] = ()  # sets kept in hand: penalty each
    special_hands: tuple[tuple[str, int], ...] = ()
    going_out_needs_kind: str | None = None  # one of the canastas to go out must be this kind
    meld_cap: int | None = None  # most cards in one meld (American 7)
    initial_meld_from_hand: bool = False  # American: minimum from the hand alone
    threes_in_hand_count: bool = False  # American: red threes kept in hand count 5 too
    temporary_partnerships: bool = False  # three-player classic
    choices: tuple[tuple[str, tuple[Any, ...]], ...] = ()  # narrower option values per preset
    settlement_unit: int = 100  # Bicycle's club settlement rounds final totals to this, half up
    option_ids: tuple[str, ...] = CLASSIC_OPTIONS
    # --- the house-rule options (docs/rules.md "House rules"), with this preset's defaults ---
    target: int = 5000
    decks: int = 2
    jokers_per_deck: int = 2
    canastas_to_go_out: int = 1
    harder_first_meld: bool = False
    tough_end: bool = False
    canasta_required_for_positive: bool = False
    wild_canasta: str = "none"
    sequences: bool = False
    black_three_in_hand: int = 5
    pile_always_frozen: bool = False
    pickup_with_wild: bool = True
    pickup_onto_canasta: bool = True
    max_wilds: int = 3
    strict_wild_cards: bool = False  # Palace: also max 2 wild cards, whatever max_wilds says
    strict_discard_pile: bool = False  # Palace: also the pile always frozen, whatever pile_always_frozen says
    no_pickup_on_initial_meld: bool = False  # American variation (pagat)
    wilds_not_more_than_naturals: bool = True
    black_three_freezes: bool = False
    top_counts_for_minimum: bool = True
    restore_pile_penalty: int = 0
    max_hands: int | None = None

    # --- derived rules, worked out when the variant is made ---------------------------------
    # Scoring and checking read them for every hand; the mappings are read-only because every
    # caller shares them. They take no part in equality, hashing or ``dataclasses.replace``.
    deck: Decks = field(init=False, repr=False, compare=False)
    canasta_kinds: Mapping[str, CanastaKind] = field(init=False, repr=False, compare=False)
    canastas_always_held: int = field(init=False, repr=False, compare=False)
    incomplete_penalties: Mapping[str, int] = field(init=False, repr=False, compare=False)
    held_set_values: Mapping[str, int] = field(init=False, repr=False, compare=False)
    special_hand_values: Mapping[str, int] = field(init=False, repr=False, compare=False)
    tough_end_kinds: frozenset[str] = field(init=False, repr=False, compare=False)
    red_three_values: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        derive = object.__setattr__  # the documented way to finish a frozen dataclass
        deck = Decks(self.decks, self.jokers_per_deck)
        kinds = _canasta_kinds(self)
        derive(self, "deck", deck)
        derive(self, "canasta_kinds", kinds)
        derive(self, "canastas_always_held", _canastas_always_held(kinds.values(), deck))
        incomplete = self.base_incomplete + WILD_CANASTA_INCOMPLETE[self.wild_canasta]
        derive(self, "incomplete_penalties", MappingProxyType(dict(incomplete)))
        derive(self, "held_set_values", MappingProxyType(dict(self.held_set_penalties)))
        derive(self, "special_hand_values", MappingProxyType(dict(self.special_hands)))
        derive(self, "tough_end_kinds", frozenset(kind.key for kind in WILD_CANASTA_KINDS[self.wild_canasta]))
        derive(self, "red_three_values", tuple(_red_three_value(self, count) for count in range(deck.red_threes + 1)))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle and copy the fields a variant is made with; what they give is worked out again."""
        made_with = {spec.name: getattr(self, spec.name) for spec in dataclasses.fields(self) if spec.init}
        return (_variant, (made_with,))

    def minimum_for(self, total: int) -> int:
        """The initial-meld minimum for a side whose total at the start of the hand is ``total``."""
        ladder, below = self.ladder, self.below_zero_minimum
        if self.harder_first_meld:
            ladder, below = HARDER_LADDER, HARDER_BELOW_ZERO
        for lowest, minimum in ladder:
            if total >= lowest:
                return minimum
        return below

    def going_out_lacks(self, canastas: Mapping[str, int]) -> tuple[str, ...]:
        """What a side's canastas (kind: how many) lack to go out; empty when it may go out.

        ``"count"``: fewer than the variant's number; ``"kind"``: none of the kind it names
        (Samba's sequence, say); ``"tough-end"``: the Tough End option's two canastas, or one
        natural where the variant has no sequences. The checks of reported hands and of plays
        both ask this, each in its own words.

        >>> from .presets import VARIANTS
        >>> VARIANTS["classic"].going_out_lacks({"mixed": 1}), VARIANTS["classic"].going_out_lacks({})
        ((), ('count',))
        """
        count = sum(canastas.values())
        lacks = []
        if count < self.canastas_to_go_out:
            lacks.append("count")
        if self.going_out_needs_kind and not canastas.get(self.going_out_needs_kind):
            lacks.append("kind")
        if self.tough_end and count < 2 and (self.sequences or not canastas.get("natural")):
            lacks.append("tough-end")
        return tuple(lacks)

    def forfeited_kinds(self, went_out: bool) -> frozenset[str]:
        """Canasta kinds whose bonus a side loses for not going out.

        Palace: with Tough End, only the side going out scores its complete wild canasta.
        """
        if not self.tough_end or went_out:
            return frozenset()
        return self.tough_end_kinds

    @property
    def going_out(self) -> int:
        return SEQUENCES_GOING_OUT if self.sequences else self.going_out_bonus

    @property
    def concealed(self) -> int | None:
        """The extra for going out concealed, or None where the variant has none."""
        return None if self.sequences else self.concealed_bonus

    def red_three_value(self, count: int) -> int:
        """What ``count`` laid-out threes are worth before their sign is decided.

        >>> from .presets import VARIANTS
        >>> [VARIANTS["classic"].red_three_value(n) for n in range(5)]
        [0, 100, 200, 300, 800]
        >>> [VARIANTS["classic-6p-3x2"].red_three_value(n) for n in (4, 5, 6)]
        [400, 1000, 1200]
        """
        if 0 <= count < len(self.red_three_values):
            return self.red_three_values[count]
        return _red_three_value(self, count)

    @property
    def wild_limit(self) -> int:
        """Most wild cards one meld may hold: ``max_wilds``, and two at most with Palace's strict wild cards."""
        return min(self.max_wilds, 2) if self.strict_wild_cards else self.max_wilds

    @property
    def pile_frozen_always(self) -> bool:
        """The pile is only taken with a natural pair: ``pile_always_frozen``, or Palace's strict discard pile."""
        return self.pile_always_frozen or self.strict_discard_pile

    @property
    def has_wild_melds(self) -> bool:
        return any(kind.wilds == 7 for kind in self.canasta_kinds.values())

    @property
    def has_sequences(self) -> bool:
        return "sequence" in self.canasta_kinds

    def option_values(self) -> dict[str, Any]:
        """The value of every option this variant has."""
        return {option_id: getattr(self, option_id) for option_id in self.option_ids}

    def option_spec(self, option_id: str) -> Option:
        """An option as this variant allows it (some presets narrow the values)."""
        option = OPTIONS[option_id]
        narrowed = dict(self.choices).get(option_id)
        return option if narrowed is None else dataclasses.replace(option, choices=narrowed)

    def with_options(self, options: Mapping[str, Any] | None) -> Variant:
        """These rules with some house rules changed.

        :raises OptionError: naming every option that is unknown, not part of this variant, or
            given a value it does not allow.
        """
        if options is not None and not isinstance(options, Mapping):
            raise OptionError(
                [Violation("options-not-object", t("Options are given as an object of id: value."), "options")]
            )
        if not options:
            return self
        problems, changes = [], {}
        for option_id, value in options.items():
            where = f"options.{option_id}"
            if option_id not in OPTIONS:
                problems.append(
                    Violation(
                        "unknown-option", t("There is no house rule called '%(option)s'.", option=option_id), where
                    )
                )
            elif option_id not in self.option_ids:
                problems.append(
                    Violation(
                        "option-not-in-variant",
                        t(
                            "The house rule '%(option)s' is not part of %(variant)s.",
                            option=option_id,
                            variant=self.name,
                        ),
                        where,
                    )
                )
            else:
                try:
                    changes[option_id] = coerce(self.option_spec(option_id), value)
                except OptionValueError as error:
                    problems.append(Violation("bad-option-value", error.message, where))
        if problems:
            raise OptionError(problems)
        if all(getattr(self, option_id) == value for option_id, value in changes.items()):
            return self  # an export names every option, most as the preset has them: nothing to work out again
        return dataclasses.replace(self, **changes)


def _variant(made_with: dict[str, Any]) -> Variant:
    return Variant(**made_with)


def _canasta_kinds(variant: Variant) -> Mapping[str, CanastaKind]:
    """Every kind of canasta a variant scores, by API key.

    >>> from .presets import VARIANTS
    >>> list(VARIANTS["samba"].canasta_kinds)
    ['natural', 'mixed', 'sequence']
    """
    kinds = {kind.key: kind for kind in variant.base_kinds}
    kinds["mixed"] = dataclasses.replace(kinds["mixed"], naturals=7 - variant.wild_limit)
    if variant.sequences:
        kinds.setdefault("sequence", SEQUENCE)
    for kind in WILD_CANASTA_KINDS[variant.wild_canasta]:
        kinds.setdefault(kind.key, kind)
    return MappingProxyType(kinds)


def _canastas_always_held(kinds: Any, deck: Decks) -> int:
    """The most canastas, of whichever of these kinds, that the decks always have the cards for.

    Checking a hand adds up the cards its canastas need (entries); no more canastas than
    this, each of a kind the variant has, never need more than the decks hold.

    >>> from .presets import VARIANTS
    >>> VARIANTS["classic"].canastas_always_held, VARIANTS["samba"].canastas_always_held
    (12, 18)
    >>> VARIANTS["american"].canastas_always_held  # seven wild cards of twelve
    1
    """
    kinds = tuple(kinds)
    limits = []
    for have, sort in zip(deck.canasta_cards, ("naturals", "wilds", "jokers", "twos"), strict=True):
        most = max(getattr(kind, sort) for kind in kinds)
        if most:
            limits.append(have // most)
    of_one_rank = [kind.naturals for kind in kinds if kind.rank]
    if of_one_rank:
        limits.append(deck.per_rank // max(of_one_rank))
    return min(limits)


def _red_three_value(variant: Variant, count: int) -> int:
    steps = dict(variant.red_three_steps)
    if count in steps:
        return steps[count]
    red_threes = 2 * variant.decks
    if count and count == red_threes:
        if variant.red_three_all is not None:
            return variant.red_three_all
        return variant.red_three_each * count + variant.red_three_all_extra
    return variant.red_three_each * count


# Kinds and play rules are named here too: a Variant is made of them.
__all__ = ["WILD_CANASTA_KINDS", "CanastaKind", "Option", "OptionError", "PlayRules", "Variant"]
