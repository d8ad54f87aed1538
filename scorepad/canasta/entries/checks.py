"""What makes a hand impossible (docs/rules.md "Impossible hands"): every check, each named once.

:func:`check_hand` returns every reason a hand cannot be scored, as python-chess's
``status()`` does, and :func:`hand_warnings` what is merely unlikely. A hand is checked entry
by entry (ENTRY_CHECKS), side by side with partners pooled (SIDE_CHECKS), then across the table
(``table.TABLE_CHECKS``). Each check returns at once when the fields it reads are empty, which
most are, so the usual hand costs little.

>>> from ..presets import VARIANTS
>>> from .entry import read_hand
>>> hand = read_hand({"entries": [{"melded_points": 600, "canastas": {"natural": 1},
...                                "went_out": True}, {"hand_points": 45}]})
>>> check_hand(hand, VARIANTS["classic"])
[]
>>> [v.code for v in check_hand(hand, VARIANTS["classic-2p"])]
['went-out-without-canastas']
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import CLASS_NAMES, NATURAL_RANKS, RANK_VALUES
from ..text import Text, t, tn
from ..variants import Variant
from ..violations import Violation
from .entry import Entry, Hand
from .table import NOTHING, check_table, side_name

# The least a set kept in hand (three of the rank) is worth, for checking hand points.
HELD_SET_POINTS = {"sevens": 3 * RANK_VALUES["7"], "aces": 3 * RANK_VALUES["A"]}
# The least an unfinished meld of a special kind is worth (three of it; three twos for wild cards).
INCOMPLETE_POINTS = {**HELD_SET_POINTS, "wild": 3 * RANK_VALUES["2"]}
BLACK_THREE_MELDS = (0, 3, 4)


def check_hand(hand: Hand, variant: Variant) -> list[Violation]:
    """Return every reason this hand cannot be scored under ``variant``; empty means it can."""
    if len(hand.entries) != variant.sides:
        return [
            Violation(
                "wrong-number-of-entries",
                t(
                    "%(variant)s has %(sides)s sides, so a hand has %(sides)s entries, not %(count)s.",
                    variant=variant.name,
                    sides=variant.sides,
                    count=len(hand.entries),
                ),
                "entries",
            )
        ]
    refused = _check_partnership(hand, variant)
    if refused:
        return list(refused)
    problems: list[Violation] = []
    for index, entry in enumerate(hand.entries):
        for check in ENTRY_CHECKS:  # a loop, not a comprehension: most checks find nothing
            found = check(entry, variant, index)
            if found:
                problems += [v.under(f"entries[{index}]") for v in found]
    if hand.partnership is None:  # every side is one entry: nothing to pool
        for index, entry in enumerate(hand.entries):
            found = _check_side(entry, variant, False)
            if found:
                problems += [v.under(f"entries[{index}]") for v in found]
    else:
        for unit in hand.units():
            found = _check_side(hand.pooled(unit), variant, len(unit) > 1)
            if found:
                problems += [v.under(f"entries[{unit[0]}]") for v in found]
    return problems + check_table(hand.entries, variant)


def hand_warnings(hand: Hand, variant: Variant) -> list[Violation]:
    """What is possible but unlikely, worth a second look before saving."""
    warnings = []
    for index, entry in enumerate(hand.entries):
        if not entry.has_melded and not entry.hand_points and not entry.has_gone_out:
            warnings.append(
                Violation(
                    "nothing-entered",
                    t(
                        "No melds and no cards left in hand for %(side)s: is that right?",
                        side=side_name(variant, index),
                    ),
                    f"entries[{index}]",
                )
            )
    return warnings


def _check_partnership(hand: Hand, variant: Variant) -> Sequence[Violation]:
    if hand.partnership is None:
        return NOTHING
    if not variant.temporary_partnerships:
        return [
            Violation(
                "partnership-not-in-variant",
                t(
                    "%(variant)s has fixed sides; only three-player canasta names a partnership per hand.",
                    variant=variant.name,
                ),
                "partnership",
            )
        ]
    first, second = hand.partnership
    if first == second or not all(0 <= i < variant.sides for i in hand.partnership):
        return [
            Violation(
                "bad-partnership",
                t("A partnership is two different players, numbered 0 to %(last)s.", last=variant.sides - 1),
                "partnership",
            )
        ]
    return NOTHING


def _known_canasta_kinds(entry: Entry, variant: Variant, index: int) -> Sequence[Violation]:
    """Every canasta is of a kind the variant has."""
    if not entry.canastas:
        return NOTHING
    kinds = variant.canasta_kinds
    return [
        Violation(
            "unknown-canasta-kind",
            # Translators: %(kind)s and %(kinds)s are the API's names of canasta kinds ("natural, mixed").
            t(
                "%(variant)s has no '%(kind)s' canastas; its kinds are %(kinds)s.",
                variant=variant.name,
                kind=kind,
                kinds=", ".join(kinds),
            ),
            f"canastas.{kind}",
        )
        for kind in entry.canastas
        if kind not in kinds
    ]


def _known_special_hand(entry: Entry, variant: Variant, index: int) -> Sequence[Violation]:
    """A special hand is one the variant has."""
    specials = variant.special_hand_values
    if entry.special_hand is None or entry.special_hand in specials:
        return NOTHING
    name = entry.special_hand
    if specials:
        # Translators: %(known)s are the API's names of special hands ("straight, pairs").
        text = t(
            "%(variant)s has no special hand '%(name)s'. Its special hands are %(known)s.",
            variant=variant.name,
            name=name,
            known=", ".join(specials),
        )
    else:
        text = t(
            "%(variant)s has no special hand '%(name)s'. It has no special hands.", variant=variant.name, name=name
        )
    return [
        Violation(
            "unknown-special-hand",
            text,
            "special_hand",
        )
    ]


def _known_incomplete_kinds(entry: Entry, variant: Variant, index: int) -> Sequence[Violation]:
    """An unfinished meld costs a penalty only where the variant names one for its kind."""
    if not entry.incomplete:
        return NOTHING
    penalised = variant.incomplete_penalties
    problems = []
    for position, kind in enumerate(entry.incomplete):
        if kind not in penalised:
            if penalised:
                text = t(
                    "%(variant)s has no penalty for an unfinished '%(kind)s' meld (only %(known)s).",
                    variant=variant.name,
                    kind=kind,
                    known=", ".join(penalised),
                )
            else:
                text = t(
                    "%(variant)s has no penalty for an unfinished '%(kind)s' meld (none).",
                    variant=variant.name,
                    kind=kind,
                )
            problems.append(
                Violation(
                    "unknown-incomplete-kind",
                    text,
                    f"incomplete[{position}]",
                )
            )
    return problems


def held_set_cards(variant: Variant, kind: str) -> Text | str:
    """The cards a held set is made of, in words ("sevens"): held sets are named by a canasta kind of one rank."""
    spec = variant.canasta_kinds.get(kind)
    rank = spec.rank if spec is not None else None
    return CLASS_NAMES[rank] if rank in CLASS_NAMES else kind


def _known_held_sets(entry: Entry, variant: Variant, index: int) -> Sequence[Violation]:
    """Sets kept in hand are of a kind the variant penalises, at most one per player of the side."""
    if not entry.held_sets:
        return NOTHING
    held = variant.held_set_values
    players = variant.players_per_side[index]
    problems = []
    for kind, count in entry.held_sets.items():
        if kind not in held:
            problems.append(
                Violation(
                    "unknown-held-set",
                    t("%(variant)s has no penalty for '%(kind)s' kept in hand.", variant=variant.name, kind=kind),
                    f"held_sets.{kind}",
                )
            )
        elif count > players:
            problems.append(
                Violation(
                    "too-many-held-sets",
                    t(
                        "Only %(players)s players on this side can each hold a set of %(kind)s; %(count)s entered.",
                        players=players,
                        kind=held_set_cards(variant, kind),
                        count=count,
                    ),
                    f"held_sets.{kind}",
                )
            )
    return problems


def _concealed_only_going_out(entry: Entry, variant: Variant, index: int) -> Sequence[Violation]:
    """Only the side that went out can have gone out concealed."""
    if not (entry.concealed and not entry.went_out):
        return NOTHING
    return [
        Violation(
            "concealed-without-going-out",
            t("Concealed is only for the side that went out: tick went out too, or untick concealed."),
            "concealed",
        )
    ]


def _concealed_has_bonus(entry: Entry, variant: Variant, index: int) -> Sequence[Violation]:
    """Going out concealed is entered only where the variant pays for it."""
    if not (entry.concealed and variant.concealed is None):
        return NOTHING
    return [
        Violation(
            "no-concealed-bonus",
            t("%(variant)s has no bonus for going out concealed.", variant=variant.name),
            "concealed",
        )
    ]


def _red_threes_in_the_decks(entry: Entry, variant: Variant, index: int) -> Sequence[Violation]:
    """A side cannot hold more red threes than the decks have."""
    if not entry.red_threes > variant.deck.red_threes:
        return NOTHING
    return [
        Violation(
            "too-many-red-threes",
            t(
                "Only %(limit)s red threes exist in a %(decks)s-deck game; %(count)s entered.",
                limit=variant.deck.red_threes,
                decks=variant.decks,
                count=entry.red_threes,
            ),
            "red_threes",
        )
    ]


def _out_with_no_cards(entry: Entry, variant: Variant, index: int) -> Sequence[Violation]:
    """A player who went out alone holds no cards (partners may still hold theirs)."""
    if not (entry.went_out and variant.players_per_side[index] == 1 and entry.hand_points):
        return NOTHING
    return [
        Violation(
            "went-out-with-cards",
            t("The player who went out has no cards left, so their cards in hand are 0."),
            "hand_points",
        )
    ]


def _black_threes_fit_in_hand(entry: Entry, variant: Variant, index: int) -> Sequence[Violation]:
    """Black threes left in hand, 5 points each, are part of the points left in hand."""
    if not entry.black_threes_in_hand * 5 > entry.hand_points:
        return NOTHING
    return [
        Violation(
            "black-threes-exceed-hand",
            t(
                "%(count)s black threes in hand are worth %(points)s points, "
                "more than the %(hand)s entered for cards in hand.",
                count=entry.black_threes_in_hand,
                points=entry.black_threes_in_hand * 5,
                hand=entry.hand_points,
            ),
            "black_threes_in_hand",
        )
    ]


def _held_sets_fit_in_hand(entry: Entry, variant: Variant, index: int) -> Sequence[Violation]:
    """Sets kept in hand are part of the points left in hand."""
    held_points = (
        sum(HELD_SET_POINTS.get(kind, 0) * count for kind, count in entry.held_sets.items()) if entry.held_sets else 0
    )
    if not held_points > entry.hand_points:
        return NOTHING
    return [
        Violation(
            "held-sets-exceed-hand",
            t(
                "The sets kept in hand are worth at least %(points)s points, "
                "more than the %(hand)s entered for cards in hand.",
                points=held_points,
                hand=entry.hand_points,
            ),
            "held_sets",
        )
    ]


def _black_threes_counted(entry: Entry, variant: Variant, index: int) -> Sequence[Violation]:
    """A side that counted its hand's cards counts its black threes among them."""
    if not (entry.hand_cards and entry.black_threes_in_hand > entry.hand_cards.get("black3", 0)):
        return NOTHING
    return [
        Violation(
            "black-threes-not-counted",
            t("Black threes left in hand must also be counted among the cards in hand (black3)."),
            "black_threes_in_hand",
        )
    ]


# The rules of one entry, in the order their problems are reported.
ENTRY_CHECKS = (
    _known_canasta_kinds,
    _known_special_hand,
    _known_incomplete_kinds,
    _known_held_sets,
    _concealed_only_going_out,
    _concealed_has_bonus,
    _red_threes_in_the_decks,
    _out_with_no_cards,
    _black_threes_fit_in_hand,
    _held_sets_fit_in_hand,
    _black_threes_counted,
)


def _check_side(entry: Entry, variant: Variant, partnership: bool) -> Sequence[Violation]:
    """Rules about a scoring side as a whole (partners pooled in three-player canasta)."""
    if entry.special_hand is not None:
        checks = SPECIAL_HAND_CHECKS
    elif entry.went_out:
        checks = GOING_OUT_SIDE_CHECKS
    else:
        checks = SIDE_CHECKS
    problems: list[Violation] = []
    for check in checks:
        found = check(entry, variant, partnership)
        if found:
            problems += found
    return problems


def _special_hand_alone(entry: Entry, variant: Variant, partnership: bool) -> Sequence[Violation]:
    """A special hand is the side's only meld."""
    if not (entry.has_melded or entry.black_threes):
        return NOTHING
    return [
        Violation(
            "special-hand-with-melds",
            t("A special hand is the side's only meld: leave melded points and canastas empty."),
            "special_hand",
        )
    ]


def _special_hand_finished(entry: Entry, variant: Variant, partnership: bool) -> Sequence[Violation]:
    """A side that went out with a special hand has no other melds, so none unfinished."""
    if not entry.incomplete:
        return NOTHING
    return [
        Violation(
            "special-hand-with-melds",
            t("A side that went out with a special hand has no unfinished melds."),
            "incomplete",
        )
    ]


def _out_with_the_canastas_needed(entry: Entry, variant: Variant, partnership: bool) -> Sequence[Violation]:
    """Going out needs the variant's number of canastas, of the kind it names, past a tough end."""
    lacks = variant.going_out_lacks(entry.canastas)
    problems = []
    if "count" in lacks:
        needed = variant.canastas_to_go_out
        text = _canastas_needed_text(partnership, needed, variant.name, entry.canasta_count)
        problems.append(Violation("went-out-without-canastas", text, "went_out"))
    if "kind" in lacks:
        kind = variant.going_out_needs_kind
        if kind == "sequence":
            text = t(
                "Going out in %(variant)s needs one sequence canasta (samba / escalera) among the canastas.",
                variant=variant.name,
            )
        else:
            label = variant.canasta_kinds[kind].label
            text = t(
                "Going out in %(variant)s needs one %(label)s among the canastas.", variant=variant.name, label=label
            )
        problems.append(Violation("went-out-without-kind", text, "went_out"))
    if "tough-end" in lacks:
        if variant.sequences:
            text = t("Tough end: going out needs two canastas.")
        else:
            text = t("Tough end: going out needs two canastas or one natural canasta.")
        problems.append(Violation("tough-end", text, "went_out"))
    return problems


def _canastas_needed_text(partnership: bool, needed: int, variant: Text | str, count: int) -> Text:
    if partnership:
        return tn(
            "Going out needs %(n)s completed canasta in %(variant)s; this partnership has %(count)s.",
            "Going out needs %(n)s completed canastas in %(variant)s; this partnership has %(count)s.",
            needed,
            variant=variant,
            count=count,
        )
    return tn(
        "Going out needs %(n)s completed canasta in %(variant)s; this side has %(count)s.",
        "Going out needs %(n)s completed canastas in %(variant)s; this side has %(count)s.",
        needed,
        variant=variant,
        count=count,
    )


def _melds_hold_their_points(entry: Entry, variant: Variant, partnership: bool) -> Sequence[Violation]:
    """Melded points hold at least the cards of the canastas, unfinished melds and black threes."""
    kinds = variant.canasta_kinds
    needed = 0
    for kind, count in entry.canastas.items():
        spec = kinds.get(kind)
        if spec is not None:
            needed += spec.min_points * count
    if entry.incomplete:
        needed += sum(INCOMPLETE_POINTS.get(kind, 0) for kind in entry.incomplete)
    needed += 0 if variant.black_threes_scored else 5 * entry.black_threes
    if not entry.melded_points < needed:
        return NOTHING
    return [
        Violation(
            "melded-points-too-low",
            t(
                "This partnership's canastas and melds hold at least %(needed)s points of cards, but melded points "
                "are %(melded)s (a natural canasta holds at least 35, a mixed one at least 50).",
                needed=needed,
                melded=entry.melded_points,
            )
            if partnership
            else t(
                "This side's canastas and melds hold at least %(needed)s points of cards, but melded points "
                "are %(melded)s (a natural canasta holds at least 35, a mixed one at least 50).",
                needed=needed,
                melded=entry.melded_points,
            ),
            "melded_points",
        )
    ]


def _one_meld_per_rank(entry: Entry, variant: Variant, partnership: bool) -> Sequence[Violation]:
    """A side has one meld per rank: no more canastas of ranks than ranks, one of each rank."""
    if not entry.canastas:
        return NOTHING
    kinds = variant.canasta_kinds
    problems = []
    of_ranks = 0  # canastas of one rank each
    for kind, count in entry.canastas.items():
        spec = kinds.get(kind)
        if spec is not None and spec.naturals and kind != "sequence":
            of_ranks += count
    if of_ranks > len(NATURAL_RANKS):
        problems.append(
            Violation(
                "too-many-canastas",
                t("A side has one meld per rank, so at most %(most)s canastas of ranks.", most=len(NATURAL_RANKS)),
                "canastas",
            )
        )
    for kind in entry.canastas:
        rank = kinds[kind].rank if kind in kinds else None
        if rank and (entry.canastas[kind] > 1 or kind in entry.incomplete):
            problems.append(
                Violation(
                    "one-meld-per-rank",
                    _one_meld_text(CLASS_NAMES.get(rank, kind), entry.canastas[kind], kind in entry.incomplete),
                    f"canastas.{kind}",
                )
            )
    return problems


def _one_meld_text(cards: Text | str, count: int, unfinished: bool) -> Text:
    # Translators: %(cards)s are a rank in the plural ("sevens"); %(n)s canastas of them.
    if unfinished:
        return tn(
            "A side has only one meld of %(cards)s, so it cannot have %(n)s canasta of %(cards)s and "
            "an unfinished one.",
            "A side has only one meld of %(cards)s, so it cannot have %(n)s canastas of %(cards)s "
            "and an unfinished one.",
            count,
            cards=cards,
        )
    return tn(
        "A side has only one meld of %(cards)s, so it cannot have %(n)s canasta of %(cards)s.",
        "A side has only one meld of %(cards)s, so it cannot have %(n)s canastas of %(cards)s.",
        count,
        cards=cards,
    )


def _black_threes_melded_going_out(entry: Entry, variant: Variant, partnership: bool) -> Sequence[Violation]:
    """Where black threes are not scored, only the player going out melds them, three or four."""
    if variant.black_threes_scored or not entry.black_threes:
        return NOTHING
    problems = []
    if entry.black_threes not in BLACK_THREE_MELDS:
        problems.append(
            Violation(
                "black-three-meld-size", t("Black threes are melded as a group of three or four."), "black_threes"
            )
        )
    if not entry.went_out:
        problems.append(
            Violation(
                "black-threes-without-going-out",
                t("Black threes can only be melded by the player going out."),
                "black_threes",
            )
        )
    return problems


# A side with a special hand: nothing else is melded (and its canasta rules do not apply).
SPECIAL_HAND_CHECKS = (_special_hand_alone, _special_hand_finished)
# Any other side, in the order problems are reported; the side that went out checks its
# canastas for going out first.
SIDE_CHECKS = (_melds_hold_their_points, _one_meld_per_rank, _black_threes_melded_going_out)
GOING_OUT_SIDE_CHECKS = (_out_with_the_canastas_needed, *SIDE_CHECKS)
