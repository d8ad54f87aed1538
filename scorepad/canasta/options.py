"""House rules a match may change (docs/rules.md "House rules"), and the values each allows.

>>> OPTIONS["decks"].allowed()
{'type': 'int', 'values': [2, 3, 4]}
>>> coerce(OPTIONS["wild_canasta"], 1000)
'1000'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .text import Text, fold, t
from .violations import InvalidError


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
                "none: no wild melds; 1000 or 2000: a wild-card canasta is worth that much; palace: big wild "
                "canasta 2000, small 1000, an unfinished wild meld costs 1000."
            ),
            str,
            choices=("none", "1000", "2000", "palace"),
            labels=(
                ("none", t("No wild canastas")),
                ("1000", t("A wild-card canasta is worth 1000")),
                ("2000", t("A wild-card canasta is worth 2000")),
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
            "strict_wild_cards",
            t("Strict wild cards"),
            t(
                "At most two wild cards in a meld, none added to a canasta, and after the initial meld "
                "wild cards only go on a meld with at least five natural cards."
            ),
            bool,
        ),
        Option(
            "strict_discard_pile",
            t("Strict discard pile"),
            t("The pile is always frozen, and no card from it is added to a canasta."),
            bool,
        ),
        Option(
            "no_pickup_on_initial_meld",
            t("No pile on the initial-meld turn"),
            t("The pile is only taken by a side that made its initial meld before this turn."),
            bool,
        ),
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

AMERICAN_ONLY = ("no_pickup_on_initial_meld",)
CLASSIC_OPTIONS = tuple(option_id for option_id in OPTIONS if option_id not in AMERICAN_ONLY)
SAMBA_OPTIONS = (
    "target", "decks", "jokers_per_deck", "canastas_to_go_out", "black_three_in_hand",
    "pile_always_frozen", "max_wilds", "wilds_not_more_than_naturals", "black_three_freezes",
    "top_counts_for_minimum", "restore_pile_penalty", "max_hands",
)  # fmt: skip
AMERICAN_OPTIONS = ("target", "canastas_to_go_out", "restore_pile_penalty", "max_hands", "no_pickup_on_initial_meld")


class OptionError(InvalidError):
    """Options that a variant does not have or does not allow; carries every problem."""


class OptionValueError(ValueError):
    """A value an option does not allow; ``str(error)`` is its message, still translatable."""

    def __init__(self, message: Text) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


def or_list(items: list[str]) -> Any:
    """Choices as a sentence offers them, in any language: "2 or 3 or 4".

    >>> or_list(["2", "3", "4"])
    '2 or 3 or 4'
    """
    # Translators: two of the values a house rule allows ("2 or 3"); %(second)s may be a longer list.
    return fold(items, lambda first, rest: t("%(first)s or %(second)s", first=first, second=rest))


def coerce(option: Option, value: Any) -> Any:
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
    raise OptionValueError(t("%(option)s is true or false, not %(value)s.", option=option.label, value=repr(value)))


def _coerce_choice(option: Option, value: Any) -> str:
    """A named choice; a number is read as its name (a wild canasta of 1000)."""
    text = str(value) if isinstance(value, (str, int)) and not isinstance(value, bool) else None
    if text in option.choices:
        return text
    # Translators: %(choices)s are the values the API takes, as they are written there ("none, 1000, palace").
    choices = ", ".join(option.choices)
    raise OptionValueError(
        t("%(option)s is one of %(choices)s, not %(value)s.", option=option.label, choices=choices, value=repr(value))
    )


def _coerce_number(option: Option, value: Any) -> int:
    """A whole number: one of the choices, or within the range and a multiple of the step."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionValueError(
            t("%(option)s is a whole number, not %(value)s.", option=option.label, value=repr(value))
        )
    if option.choices is not None and value not in option.choices:
        allowed = or_list([str(choice) for choice in option.choices])
        raise OptionValueError(
            t("%(option)s is %(allowed)s here, not %(value)s.", option=option.label, allowed=allowed, value=value)
        )
    if option.low is not None and not option.low <= value <= option.high:
        raise OptionValueError(
            t(
                "%(option)s must be between %(low)s and %(high)s, not %(value)s.",
                option=option.label,
                low=option.low,
                high=option.high,
                value=value,
            )
        )
    if value % option.step:
        raise OptionValueError(
            t(
                "%(option)s must be a multiple of %(step)s, not %(value)s.",
                option=option.label,
                step=option.step,
                value=value,
            )
        )
    return value
