"""Variants: every number and switch that differs between Canasta rule sets, as data.

Each preset of RULES.md section 2 is one frozen :class:`Variant`; each house-rule option of
section 4 is a field of it, so ``variant.with_options({...})`` gives the rules in force for a
match. Scoring and checking code reads these fields; it never asks which preset it is playing.

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
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Any

from .cards import Decks
from .text import Text, fold, t, tp
from .violations import InvalidError, Violation

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


# Bonus numbers from RULES.md "Canasta kinds and bonuses"; least contents worked out from the
# meld rules (a natural canasta of fours is 7 x 5 = 35; a mixed one with one wild two is
# 6 x 5 + 20 = 50; a suit sequence 4-10 is 4 x 5 + 3 x 10 = 50).
NATURAL = CanastaKind("natural", t("Natural canasta"), 500, 35, naturals=7)
MIXED = CanastaKind("mixed", t("Mixed canasta"), 300, 50, naturals=4, wilds=1)
SEQUENCE = CanastaKind("sequence", t("Sequence canasta (samba / escalera)"), 1500, 50, naturals=7)
WILD_1000 = CanastaKind("wild", t("Wild-card canasta"), 1000, 140, wilds=7)
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

WILD_CANASTA_KINDS = {"none": (), "1000": (WILD_1000,), "palace": (WILD_BIG, WILD_SMALL)}
WILD_CANASTA_INCOMPLETE = {"none": (), "1000": (), "palace": (("wild", 1000),)}
SEQUENCES_GOING_OUT = 200  # Palace "Sequences": going out always scores 200, never concealed


@dataclass(frozen=True)
class PlayRules:
    """How play goes in a family of variants, where no house-rule option says it (RULES.md §5).

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
# RULES.md section 5: a natural pair, or the top card onto a meld that is not yet a canasta.
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


@dataclass(frozen=True)
class Option:
    """A house rule a match may change; ``choices`` or ``low``/``high`` bound its values."""

    id: str
    label: str
    help: str
    kind: type  # bool, int or str
    choices: tuple[Any, ...] | None = None
    low: int | None = None
    high: int | None = None
    step: int = 1
    nullable: bool = False
    labels: tuple[tuple[Any, str], ...] = ()  # words for choices whose value is a code ("palace")

    def choice_label(self, value: Any) -> str:
        """What a player reads for one of the choices: its words, or the value itself (a number).

        >>> OPTIONS["wild_canasta"].choice_label("palace"), OPTIONS["decks"].choice_label(3)
        ('Palace: big wild canasta 2000, small 1000', '3')
        """
        return dict(self.labels).get(value, str(value))

    def allowed(self) -> dict[str, Any]:
        """The allowed values, as the variants listing shows them."""
        if self.kind is bool:
            return {"type": "bool", "values": [False, True]}
        if self.choices is not None:
            return {"type": self.kind.__name__, "values": list(self.choices)}
        shown = {"type": "int", "min": self.low, "max": self.high}
        if self.step != 1:
            shown["multiple_of"] = self.step
        if self.nullable:
            shown["null"] = True
        return shown


OPTIONS: Mapping[str, Option] = {
    option.id: option
    for option in (
        Option(
            "target",
            t("Game target"),
            t("The game ends after the hand in which a side reaches this total."),
            int,
            low=100,
            high=100_000,
            step=5,
        ),
        Option("decks", t("Decks"), t("Packs in play; changes every card limit."), int, choices=(2, 3, 4)),
        Option(
            "jokers_per_deck", t("Jokers per deck"), t("Play with a third joker in each pack."), int, choices=(2, 3)
        ),
        Option(
            "canastas_to_go_out",
            t("Canastas to go out"),
            t("Completed canastas a side needs before it may go out."),
            int,
            low=1,
            high=4,
        ),
        Option(
            "harder_first_meld", t("Harder first meld"), t("Initial-meld minimums become 50 / 90 / 120 / 150."), bool
        ),
        Option("tough_end", t("Tough end"), t("Going out needs two canastas, or one natural canasta."), bool),
        Option(
            "canasta_required_for_positive",
            t("Canasta required for a plus score"),
            t("A side short of the canastas needed to go out scores minus its melded and hand cards."),
            bool,
        ),
        Option(
            "wild_canasta",
            t("Wild canastas"),
            t(
                "none: no wild melds; 1000: a wild-card canasta is worth 1000; palace: big wild canasta 2000, "
                "small 1000, an unfinished wild meld costs 1000."
            ),
            str,
            choices=("none", "1000", "palace"),
            labels=(
                ("none", t("No wild canastas")),
                ("1000", t("A wild-card canasta is worth 1000")),
                ("palace", t("Palace: big wild canasta 2000, small 1000")),
            ),
        ),
        Option(
            "sequences",
            t("Sequences"),
            t(
                "Suit sequences may be melded; a sequence canasta is worth 1500, "
                "going out always 200 (no concealed bonus)."
            ),
            bool,
        ),
        Option(
            "black_three_in_hand",
            t("Black three left in hand"),
            t("What each black three left in a hand costs."),
            int,
            choices=(5, 100),
        ),
        Option("pile_always_frozen", t("Pile always frozen"), t("The pile is only taken with a natural pair."), bool),
        Option(
            "pickup_with_wild",
            t("Take the pile with one natural and a wild"),
            t("An unfrozen pile may be taken with one natural card and one wild card."),
            bool,
        ),
        Option(
            "pickup_onto_canasta",
            t("Take the pile onto a canasta"),
            t("An unfrozen pile may be taken to add its top card to a completed canasta."),
            bool,
        ),
        Option("max_wilds", t("Wild cards per meld"), t("Most wild cards one meld may hold."), int, choices=(2, 3)),
        Option(
            "wilds_not_more_than_naturals",
            t("Wild cards never outnumber naturals"),
            t("Off: Bicycle's literal rule, so two naturals with three wild cards is a meld."),
            bool,
        ),
        Option(
            "black_three_freezes",
            t("Black three freezes the pile"),
            t("A discarded black three freezes the pile until it is taken."),
            bool,
        ),
        Option(
            "top_counts_for_minimum",
            t("Top discard counts for the minimum"),
            t("The top card of the pile counts toward the initial meld."),
            bool,
        ),
        Option(
            "restore_pile_penalty",
            t("Penalty for a pile put back"),
            t("Points lost each time a side takes a pile it cannot use and puts it back."),
            int,
            low=0,
            high=1000,
            step=5,
        ),
        Option(
            "max_hands",
            t("Hand limit"),
            t("The match also ends after this many hands."),
            int,
            low=1,
            high=1000,
            nullable=True,
        ),
    )
}

CLASSIC_OPTIONS = tuple(OPTIONS)
SAMBA_OPTIONS = (
    "target", "decks", "jokers_per_deck", "canastas_to_go_out", "black_three_in_hand",
    "pile_always_frozen", "max_wilds", "wilds_not_more_than_naturals", "black_three_freezes",
    "top_counts_for_minimum", "restore_pile_penalty", "max_hands",
)  # fmt: skip
AMERICAN_OPTIONS = ("target", "canastas_to_go_out", "restore_pile_penalty", "max_hands")


class OptionError(InvalidError):
    """Options that a variant does not have or does not allow; carries every problem."""


class OptionValueError(ValueError):
    """A value an option does not allow; ``str(error)`` is its message, still translatable."""

    def __init__(self, message: Text) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


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
    # --- the house-rule options (RULES.md section 4), with this preset's defaults -----------
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
    wilds_not_more_than_naturals: bool = True
    black_three_freezes: bool = False
    top_counts_for_minimum: bool = True
    restore_pile_penalty: int = 0
    max_hands: int | None = None

    # --- derived rules ---------------------------------------------------------------------
    # A Variant never changes, so what is derived from its fields is worked out on first use
    # and kept on the instance (outside the fields, so equality and hashing ignore it); the
    # mappings are read-only because every caller shares them.
    def __getstate__(self) -> dict[str, Any]:
        """Pickle and copy the fields only; what is derived from them is worked out again."""
        return {spec.name: getattr(self, spec.name) for spec in dataclasses.fields(self)}

    @cached_property
    def deck(self) -> Decks:
        return Decks(self.decks, self.jokers_per_deck)

    def minimum_for(self, total: int) -> int:
        """The initial-meld minimum for a side whose total at the start of the hand is ``total``."""
        ladder, below = self.ladder, self.below_zero_minimum
        if self.harder_first_meld:
            ladder, below = HARDER_LADDER, HARDER_BELOW_ZERO
        for lowest, minimum in ladder:
            if total >= lowest:
                return minimum
        return below

    @cached_property
    def canasta_kinds(self) -> Mapping[str, CanastaKind]:
        """Every kind of canasta this variant scores, by API key.

        >>> list(VARIANTS["samba"].canasta_kinds)
        ['natural', 'mixed', 'sequence']
        """
        kinds = {kind.key: kind for kind in self.base_kinds}
        kinds["mixed"] = dataclasses.replace(kinds["mixed"], naturals=7 - self.max_wilds)
        if self.sequences:
            kinds.setdefault("sequence", SEQUENCE)
        for kind in WILD_CANASTA_KINDS[self.wild_canasta]:
            kinds.setdefault(kind.key, kind)
        return MappingProxyType(kinds)

    @cached_property
    def canastas_always_held(self) -> int:
        """The most canastas, of whichever of this variant's kinds, that the decks always have the cards for.

        Checking a hand adds up the cards its canastas need (entries.py); no more canastas
        than this, each of a kind the variant has, never need more than the decks hold.

        >>> VARIANTS["classic"].canastas_always_held, VARIANTS["samba"].canastas_always_held
        (12, 18)
        >>> VARIANTS["american"].canastas_always_held  # seven wild cards of twelve
        1
        """
        kinds = self.canasta_kinds.values()
        deck = self.deck
        limits = []
        for have, sort in zip(deck.canasta_cards, ("naturals", "wilds", "jokers", "twos"), strict=True):
            most = max(getattr(kind, sort) for kind in kinds)
            if most:
                limits.append(have // most)
        of_one_rank = [kind.naturals for kind in kinds if kind.rank]
        if of_one_rank:
            limits.append(deck.per_rank // max(of_one_rank))
        return min(limits)

    def forfeited_kinds(self, went_out: bool) -> frozenset[str]:
        """Canasta kinds whose bonus a side loses for not going out.

        Palace: with Tough End, only the side going out scores its complete wild canasta.
        """
        if not self.tough_end or went_out:
            return frozenset()
        return self._tough_end_kinds

    @cached_property
    def _tough_end_kinds(self) -> frozenset[str]:
        return frozenset(kind.key for kind in WILD_CANASTA_KINDS[self.wild_canasta])

    @cached_property
    def incomplete_penalties(self) -> Mapping[str, int]:
        """Unfinished melds that cost points at the end of a hand, by kind."""
        return MappingProxyType(dict(self.base_incomplete + WILD_CANASTA_INCOMPLETE[self.wild_canasta]))

    @cached_property
    def held_set_values(self) -> Mapping[str, int]:
        """What each set kept in hand costs, by kind (:attr:`held_set_penalties` as a mapping)."""
        return MappingProxyType(dict(self.held_set_penalties))

    @cached_property
    def special_hand_values(self) -> Mapping[str, int]:
        """What each special hand scores, by name (:attr:`special_hands` as a mapping)."""
        return MappingProxyType(dict(self.special_hands))

    @property
    def going_out(self) -> int:
        return SEQUENCES_GOING_OUT if self.sequences else self.going_out_bonus

    @property
    def concealed(self) -> int | None:
        """The extra for going out concealed, or None where the variant has none."""
        return None if self.sequences else self.concealed_bonus

    def red_three_value(self, count: int) -> int:
        """What ``count`` laid-out threes are worth before their sign is decided.

        >>> [VARIANTS["classic"].red_three_value(n) for n in range(5)]
        [0, 100, 200, 300, 800]
        >>> [VARIANTS["classic-6p-3x2"].red_three_value(n) for n in (4, 5, 6)]
        [400, 1000, 1200]
        """
        known = self._red_three_values
        if count in known:
            return known[count]
        return self._red_three_value(count)

    @cached_property
    def _red_three_values(self) -> Mapping[int, int]:
        # Every count a hand can hold, worked out once: scoring asks for one per side per hand.
        return MappingProxyType({count: self._red_three_value(count) for count in range(self.deck.red_threes + 1)})

    def _red_three_value(self, count: int) -> int:
        steps = self._red_three_steps
        if count in steps:
            return steps[count]
        if count and count == self.deck.red_threes:
            if self.red_three_all is not None:
                return self.red_three_all
            return self.red_three_each * count + self.red_three_all_extra
        return self.red_three_each * count

    @cached_property
    def _red_three_steps(self) -> Mapping[int, int]:
        return MappingProxyType(dict(self.red_three_steps))

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
        key = _options_key(options)
        cache = self._with_options_cache
        known = cache.get(key) if key is not None else None
        if known is not None:
            return known
        problems, changes = [], {}
        for option_id, value in options.items():
            where = f"options.{option_id}"
            if option_id not in OPTIONS:
                problems.append(
                    Violation("unknown-option", t("There is no house rule called '{option}'.", option=option_id), where)
                )
            elif option_id not in self.option_ids:
                problems.append(
                    Violation(
                        "option-not-in-variant",
                        t("The house rule '{option}' is not part of {variant}.", option=option_id, variant=self.name),
                        where,
                    )
                )
            else:
                try:
                    changes[option_id] = _coerce(self.option_spec(option_id), value)
                except OptionValueError as error:
                    problems.append(Violation("bad-option-value", error.message, where))
        if problems:
            raise OptionError(problems)
        rules = dataclasses.replace(self, **changes)
        if key is not None:
            if len(cache) >= WITH_OPTIONS_CACHE_SIZE:
                cache.clear()
            cache[key] = rules
        return rules

    @cached_property
    def _with_options_cache(self) -> dict[tuple[tuple[Any, type, Any], ...], Variant]:
        # Each set of house rules is built once per variant and shared from then on: a
        # server answers many requests for the same few rule sets.
        return {}


WITH_OPTIONS_CACHE_SIZE = 512  # distinct option sets kept per variant; a full cache starts over


def _options_key(options: Mapping[str, Any]) -> tuple[tuple[Any, type, Any], ...] | None:
    """Options as a cache key, or None when a value cannot be one (it is then never cached).

    Each value goes with its type, because ``True == 1`` and ``1.0 == 1`` in Python while a
    house rule accepts only one of them:

    >>> _options_key({"harder_first_meld": True}) == _options_key({"harder_first_meld": 1})
    False
    >>> _options_key({"decks": [3]}) is None
    True
    """
    key = tuple((option_id, type(value), value) for option_id, value in options.items())
    try:
        hash(key)
    except TypeError:
        return None
    return key


def or_list(items: list[str]) -> Any:
    """Choices as a sentence offers them, in any language: "2 or 3 or 4".

    >>> or_list(["2", "3", "4"])
    '2 or 3 or 4'
    """
    # Translators: two of the values a house rule allows ("2 or 3"); {second} may be a longer list.
    return fold(items, lambda first, rest: t("{first} or {second}", first=first, second=rest))


def _coerce(option: Option, value: Any) -> Any:
    """Check one option value against what the option allows and return it in its own type."""
    if value is None and option.nullable:
        return None
    if option.kind is bool:
        return _coerce_flag(option, value)
    if option.kind is str:
        return _coerce_choice(option, value)
    return _coerce_number(option, value)


def _coerce_flag(option: Option, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise OptionValueError(t("{option} is true or false, not {value}.", option=option.label, value=repr(value)))


def _coerce_choice(option: Option, value: Any) -> str:
    """A named choice; a number is read as its name (a wild canasta of 1000)."""
    text = str(value) if isinstance(value, (str, int)) and not isinstance(value, bool) else None
    if text in option.choices:
        return text
    # Translators: {choices} are the values the API takes, as they are written there ("none, 1000, palace").
    choices = ", ".join(option.choices)
    raise OptionValueError(
        t("{option} is one of {choices}, not {value}.", option=option.label, choices=choices, value=repr(value))
    )


def _coerce_number(option: Option, value: Any) -> int:
    """A whole number: one of the choices, or within the range and a multiple of the step."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionValueError(t("{option} is a whole number, not {value}.", option=option.label, value=repr(value)))
    if option.choices is not None and value not in option.choices:
        allowed = or_list([str(choice) for choice in option.choices])
        raise OptionValueError(
            t("{option} is {allowed} here, not {value}.", option=option.label, allowed=allowed, value=value)
        )
    if option.low is not None and not option.low <= value <= option.high:
        raise OptionValueError(
            t(
                "{option} must be between {low} and {high}, not {value}.",
                option=option.label,
                low=option.low,
                high=option.high,
                value=value,
            )
        )
    if value % option.step:
        raise OptionValueError(
            t("{option} must be a multiple of {step}, not {value}.", option=option.label, step=option.step, value=value)
        )
    return value


# --- the presets (RULES.md section 2) -------------------------------------------------------
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
# The preset a check request or the checker's page uses when it names none (API.md: "classic when left out").
DEFAULT_VARIANT = CLASSIC.key


class UnknownVariantError(InvalidError):
    """A variant id scorepad does not know."""

    def __init__(self, key: object):
        # Translators: {known} are the variants' ids, as the API writes them.
        message = t("There is no variant '{key}'. Known variants: {known}.", key=key, known=", ".join(VARIANTS))
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

    Built once for each preset and set of option values (given in the same order), then shared:

    >>> rules_for("classic", {"target": 10000}) is rules_for("classic", {"target": 10000})
    True
    >>> rules_for("classic", {"target": 10000}) is rules_for("classic", {"target": 7500})
    False
    """
    return find_variant(key).with_options(options)
