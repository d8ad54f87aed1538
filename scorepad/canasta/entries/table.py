"""Checks across the table: what all the sides entered together must fit in the decks.

>>> from ..presets import VARIANTS
>>> from .entry import Entry
>>> [v.code for v in check_table((Entry(red_threes=3), Entry(red_threes=2)), VARIANTS["classic"])]
['too-many-red-threes']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from ..cards import CARD_GROUPS, CLASS_NAMES
from ..text import Text, t
from ..variants import Variant
from ..violations import Violation
from .entry import CARD_FIELDS, Entry

NOTHING: tuple[Violation, ...] = ()  # what a check that finds nothing returns, made once
BOTH_SIDES = t("both sides")
# What the canastas entered need more of than the decks hold, by sort of card: (need, decks, have).
CANASTA_CARDS_SHORT = {
    "naturals": lambda need, decks, have: t(
        "The canastas entered need at least %(need)s natural cards, but %(decks)s decks hold %(have)s.",
        need=need, decks=decks, have=have,
    ),
    "wilds": lambda need, decks, have: t(
        "The canastas entered need at least %(need)s wild cards, but %(decks)s decks hold %(have)s.",
        need=need, decks=decks, have=have,
    ),
    "jokers": lambda need, decks, have: t(
        "The canastas entered need at least %(need)s jokers, but %(decks)s decks hold %(have)s.",
        need=need, decks=decks, have=have,
    ),
    "twos": lambda need, decks, have: t(
        "The canastas entered need at least %(need)s twos, but %(decks)s decks hold %(have)s.",
        need=need, decks=decks, have=have,
    ),
}  # fmt: skip


def check_table(entries: tuple[Entry, ...], variant: Variant) -> list[Violation]:
    """Rules across all sides: one goes out, and the decks hold everything entered.

    A limit broken by the sides together is reported on the entry whose value goes past it
    (the last one contributing), as docs/api.md's example error does
    (``hands[0].entries[1].red_threes``).
    """
    table = _Table(entries)
    problems: list[Violation] = []
    for check in TABLE_CHECKS:
        found = check(table, variant)
        if found:
            problems += found
    return problems


def side_name(variant: Variant, index: int) -> Text | str:
    """What the score sheet calls side ``index``."""
    if index < len(variant.side_names):
        return variant.side_names[index]
    return t("Side %(n)s", n=index + 1)


class _Table:
    """What the sides entered, added up once for the checks across the table."""

    __slots__ = ("entries", "out", "red_threes", "black_threes", "points", "counts_cards", "canastas")

    def __init__(self, entries: tuple[Entry, ...]) -> None:
        self.entries = entries
        self.out = []  # the sides that went out
        red = black = points = canastas = 0
        counts_cards = False
        for index, entry in enumerate(entries):
            if entry.went_out or entry.special_hand is not None:
                self.out.append(index)
            red += entry.red_threes
            black += entry.black_threes + entry.black_threes_in_hand
            points += entry.melded_points + entry.hand_points
            canastas += entry.canasta_count
            counts_cards = counts_cards or entry.melded_cards is not None or entry.hand_cards is not None
        self.red_threes, self.black_threes, self.points, self.counts_cards = red, black, points, counts_cards
        self.canastas = canastas

    @property
    def across(self) -> Text:
        """The sides, as the messages name them all: "both sides", "all 3 sides"."""
        count = len(self.entries)
        # Translators: the sides together, in "... entered across %(sides)s".
        return BOTH_SIDES if count == 2 else t("all %(count)s sides", count=count)


def _one_side_out(table: _Table, variant: Variant) -> Sequence[Violation]:
    """Only one player goes out in a hand."""
    out = table.out
    if not len(out) > 1:
        return NOTHING
    second = table.entries[out[1]]
    first, second_name = (side_name(variant, index) for index in out[:2])
    return [
        Violation(
            "two-sides-went-out",
            t(
                "Only one player goes out in a hand, but two sides say they went out: %(first)s and %(second)s.",
                first=first,
                second=second_name,
            ),
            f"entries[{out[1]}].{'went_out' if second.went_out else 'special_hand'}",
        )
    ]


def _red_threes_in_the_decks_across(table: _Table, variant: Variant) -> Sequence[Violation]:
    """The sides together hold no more red threes than the decks have (one side alone is its own check)."""
    deck, red = variant.deck, table.red_threes
    if not (red > deck.red_threes and all(entry.red_threes <= deck.red_threes for entry in table.entries)):
        return NOTHING
    return [
        Violation(
            "too-many-red-threes",
            t(
                "Only %(limit)s red threes exist in a %(decks)s-deck game; %(count)s entered across %(sides)s.",
                limit=deck.red_threes,
                decks=variant.decks,
                count=red,
                sides=table.across,
            ),
            _last_field(table.entries, ("red_threes",)),
        )
    ]


def _black_threes_in_the_decks(table: _Table, variant: Variant) -> Sequence[Violation]:
    """The sides together hold no more black threes, melded or in hand, than the decks have."""
    deck, black = variant.deck, table.black_threes
    if not black > deck.black_threes:
        return NOTHING
    return [
        Violation(
            "too-many-black-threes",
            t(
                "Only %(limit)s black threes exist in a %(decks)s-deck game; %(count)s entered across %(sides)s.",
                limit=deck.black_threes,
                decks=variant.decks,
                count=black,
                sides=table.across,
            ),
            _last_field(table.entries, ("black_threes", "black_threes_in_hand")),
        )
    ]


def _points_in_the_decks(table: _Table, variant: Variant) -> Sequence[Violation]:
    """The sides' points add up to no more than all the cards are worth."""
    points, limit = table.points, _points_in_play(variant)
    if not points > limit:
        return NOTHING
    return [
        Violation(
            "too-many-points",
            t(
                "All the cards of %(decks)s decks are worth %(limit)s points, but %(points)s were "
                "entered across %(sides)s.",
                decks=variant.decks,
                limit=limit,
                points=points,
                sides=table.across,
            ),
            _last_field(table.entries, ("melded_points", "hand_points"), counted_as=CARD_FIELDS),
        )
    ]


def _points_in_play(variant: Variant) -> int:
    """What all the cards the sides can enter are worth (red threes kept in hand too, where they count)."""
    deck = variant.deck
    return deck.points + (5 * deck.red_threes if variant.threes_in_hand_count else 0)


def _counted_cards_in_the_decks(table: _Table, variant: Variant) -> Sequence[Violation]:
    """The decks must hold every card the sides counted, card class by card class.

    A group (``K-8``, ``7-4``) is checked against the cards its ranks hold together, with
    any of those ranks counted one by one; a rank is checked against its own cards.
    """
    if not table.counts_cards:
        return NOTHING
    counted: Counter[str] = Counter()
    for entry in table.entries:
        counted.update(entry.melded_cards or {})
        counted.update(entry.hand_cards or {})
    problems = []
    for card_class, seen in counted.items():
        if card_class not in CARD_GROUPS and seen > variant.deck.holds(card_class):
            problems.append(_too_many_counted(table, variant, card_class, seen))
    for group, ranks in CARD_GROUPS.items():
        seen = counted[group] + sum(counted[rank] for rank in ranks)
        if counted[group] and seen > variant.deck.holds(group):
            problems.append(_too_many_counted(table, variant, group, seen))
    return problems


def _too_many_counted(table: _Table, variant: Variant, card_class: str, seen: int) -> Violation:
    """More cards of one class (or group) counted than the decks hold, at the box that passed the limit."""
    return Violation(
        "too-many-cards",
        t(
            "%(decks)s decks hold %(limit)s %(cards)s; %(count)s were counted across %(sides)s.",
            decks=variant.decks,
            limit=variant.deck.holds(card_class),
            cards=CLASS_NAMES[card_class],
            count=seen,
            sides=table.across,
        ),
        _last_field(table.entries, ("melded_cards", "hand_cards"), card_class=card_class),
    )


def _last_field(
    entries: tuple[Entry, ...],
    names: tuple[str, ...],
    counted_as: Mapping[str, str] | None = None,
    card_class: str | None = None,
) -> str:
    """The path of the last non-empty value among ``names``: where a shared limit was passed."""
    for index in range(len(entries) - 1, -1, -1):
        entry = entries[index]
        for name in reversed(names):
            value = getattr(entry, name)
            if card_class is not None:
                value = (value or {}).get(card_class)
            if value:
                if counted_as:  # points that came from card counts point at the counts
                    cards = next((c for c, p in counted_as.items() if p == name), None)
                    if cards and getattr(entry, cards) is not None:
                        name = cards
                return f"entries[{index}].{name}" + (f".{card_class}" if card_class else "")
    return "entries"


def _canasta_cards_in_the_decks(table: _Table, variant: Variant) -> Sequence[Violation]:
    """The decks must hold enough cards for every canasta entered, on all sides together.

    No more canastas than the variant's ``canastas_always_held`` ever need more cards than the
    decks hold, whatever their kinds, so the usual hand is answered without adding them up.
    """
    if table.canastas <= variant.canastas_always_held:
        return NOTHING
    entries = table.entries
    deck = variant.deck
    naturals, wilds, jokers, twos, per_rank = _canasta_cards_needed(entries, variant)
    have_naturals, have_wilds, have_jokers, have_twos = deck.canasta_cards
    problems = []
    if naturals > have_naturals or wilds > have_wilds or jokers > have_jokers or twos > have_twos:
        need = {"naturals": naturals, "wilds": wilds, "jokers": jokers, "twos": twos}
        have = {"naturals": have_naturals, "wilds": have_wilds, "jokers": have_jokers, "twos": have_twos}
        problems = [
            Violation(
                "too-many-canastas",
                CANASTA_CARDS_SHORT[sort](need[sort], variant.decks, have[sort]),
                _last_field(entries, ("canastas",)),
            )
            for sort in have
            if need[sort] > have[sort]
        ]
    for rank, cards in per_rank.items():
        if cards > deck.per_rank:
            problems.append(
                Violation(
                    "too-many-canastas",
                    t(
                        "The canastas entered need %(count)s cards of rank %(rank)s, but %(decks)s "
                        "decks hold %(limit)s.",
                        count=cards,
                        rank=rank,
                        decks=variant.decks,
                        limit=deck.per_rank,
                    ),
                    _last_field(entries, ("canastas",)),
                )
            )
    return problems


def _canasta_cards_needed(entries: tuple[Entry, ...], variant: Variant) -> tuple[int, int, int, int, dict[str, int]]:
    """The fewest natural cards, wild cards, jokers and twos the canastas entered hold, and naturals by rank."""
    kinds = variant.canasta_kinds
    naturals = wilds = jokers = twos = 0
    per_rank: dict[str, int] = {}
    for entry in entries:
        for kind, count in entry.canastas.items():
            spec = kinds.get(kind)
            if spec is not None:
                naturals += spec.naturals * count
                wilds += spec.wilds * count
                jokers += spec.jokers * count
                twos += spec.twos * count
                if spec.rank:
                    per_rank[spec.rank] = per_rank.get(spec.rank, 0) + spec.naturals * count
    return naturals, wilds, jokers, twos, per_rank


# The rules across the table, in the order their problems are reported.
TABLE_CHECKS = (
    _one_side_out,
    _red_threes_in_the_decks_across,
    _black_threes_in_the_decks,
    _points_in_the_decks,
    _counted_cards_in_the_decks,
    _canasta_cards_in_the_decks,
)
