"""A check request read into a :class:`Position`, every malformed field named at once (docs/api.md "Rules check").

>>> position = Position.from_dict({"action": "discard", "hand": ["K", "5"], "discard": "5"})
>>> position.action, str(position.discard), position.has_opened
('discard', '5', False)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..cards import Card, CardError, parse_card
from ..text import t
from ..violations import InvalidError, Violation

# Translators: what a player asks the checker about.
ACTIONS = {"meld": t("Meld"), "pickup": t("Take the pile"), "go_out": t("Go out"), "discard": t("Discard")}
REQUEST_FIELDS = (
    "variant", "options", "action", "hand", "table", "initial_meld_done", "score", "melds",
    "pile", "discard", "stock_empty", "took_pile", "onto",
)  # fmt: skip
ONTO_KEY = re.compile(r"melds\[([0-9]{1,3})\]")  # ASCII digits: "table[١]" is no place
ONTO_PLACE = re.compile(r"(table|melds)\[([0-9]{1,3})\]")


SCORE_LIMIT = 1_000_000
BODY_NOT_OBJECT = t("A check is a JSON object.")
NOT_BOOL_OPENED = t("initial_meld_done is true or false.")
BAD_SCORE = t("The side's score is a whole number, e.g. 1200.")
BAD_PILE = t('The pile is an object like {"top": "K", "size": 12}.')
BAD_SIZE = t("The pile's size is a number of cards, 0 or more.")
EMPTY_PILE_TOP = t("An empty pile has no top card.")
NULL_CARD = t("A card is written like 'K' or '3H', not null.")
BAD_ONTO = t('onto is an object like {"melds[0]": "table[1]"}: a wild card sent alone, and the meld it goes on.')
ONTO_KEY_RANGE = t("There is no such meld in melds.")
ONTO_PLACE_BAD = t('Name the meld the wild card goes on as "table[N]" or "melds[N]", counting from 0.')
ONTO_PLACE_RANGE = t("There is no such meld to put the wild card on.")
EMPTY_MELD = t("A meld needs cards.")


@dataclass(frozen=True)
class Position:
    """One player's moment of play, as the checker is asked about it (docs/api.md "Rules check")."""

    action: str
    hand: tuple[Card, ...]
    table: tuple[tuple[Card, ...], ...] = ()
    melds: tuple[tuple[Card, ...], ...] = ()
    initial_meld_done: bool | None = None  # None: the side has melds on the table
    score: int = 0
    pile_top: Card | None = None
    pile_frozen: bool = False
    pile_size: int | None = None
    discard: Card | None = None
    stock_empty: bool = False
    took_pile: bool = False  # going out: the turn began by taking the pile, not from the stock
    # where groups of ``melds`` go: (index in melds, ("table" | "melds", index)), or ("new", -1) for a meld of their own
    onto: tuple[tuple[int, tuple[str, int]], ...] = ()
    whole_hand: bool = True  # ``hand`` is every card the player holds (the page may ask about some only)

    @property
    def has_opened(self) -> bool:
        """The side has made its initial meld."""
        return bool(self.table) if self.initial_meld_done is None else self.initial_meld_done

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Position:
        """Read a check request (docs/api.md's field names; ``variant`` and ``options`` are ignored).

        :raises InvalidError: naming every field that is missing, mistyped or not a card.
        """
        if not isinstance(data, Mapping):
            raise InvalidError([Violation("body-not-object", BODY_NOT_OBJECT, "")])
        problems: list[Violation] = []
        unknown = sorted(str(name) for name in set(data) - set(REQUEST_FIELDS))
        problems += [
            Violation("unknown-field", t("'%(name)s' is not a field of a check.", name=name), name) for name in unknown
        ]
        fields = {
            "action": _action(data, problems),
            "hand": _card_list(data.get("hand"), "hand", problems, required=True),
            "table": _meld_list(data.get("table", []), "table", problems),
            "melds": _meld_list(data.get("melds", []), "melds", problems),
            "initial_meld_done": _initial_meld_done(data, problems),
            "score": _score(data, problems),
        }
        fields["pile_top"], fields["pile_frozen"], fields["pile_size"] = _pile(data, problems)
        fields["discard"] = _card(data.get("discard"), "discard", problems)
        fields["stock_empty"] = _flag(data, "stock_empty", "stock_empty", problems)
        fields["took_pile"] = _flag(data, "took_pile", "took_pile", problems)
        fields["onto"] = _onto(data, problems)
        if problems:
            raise InvalidError(problems)
        return cls(**fields)

    def to_dict(self) -> dict[str, Any]:
        """The position as a check request, cards in API notation."""
        data: dict[str, Any] = {
            "action": self.action,
            "hand": [str(card) for card in self.hand],
            "table": [[str(card) for card in meld] for meld in self.table],
            "melds": [[str(card) for card in meld] for meld in self.melds],
            "score": self.score,
            "pile": {"top": None if self.pile_top is None else str(self.pile_top), "frozen": self.pile_frozen},
            "discard": None if self.discard is None else str(self.discard),
            "stock_empty": self.stock_empty,
            "took_pile": self.took_pile,
        }
        if self.pile_size is not None:
            data["pile"]["size"] = self.pile_size
        if self.initial_meld_done is not None:
            data["initial_meld_done"] = self.initial_meld_done
        if self.onto:
            data["onto"] = {f"melds[{group}]": f"{pile}[{index}]" for group, (pile, index) in self.onto}
        return data

    @property
    def placed(self) -> dict[int, tuple[str, int]]:
        """Where groups of ``melds`` go, by their index in ``melds``."""
        return dict(self.onto)


def _action(data: Mapping[str, Any], problems: list[Violation]) -> str | None:
    action = data.get("action")
    if not isinstance(action, str) or action not in ACTIONS:
        choices = ", ".join(ACTIONS)
        text = t("Say what the player wants to do: one of %(choices)s.", choices=choices)
        problems.append(Violation("bad-action", text, "action"))
    return action


def _initial_meld_done(data: Mapping[str, Any], problems: list[Violation]) -> bool | None:
    done = data.get("initial_meld_done")
    if done is not None and not isinstance(done, bool):
        problems.append(Violation("not-bool", NOT_BOOL_OPENED, "initial_meld_done"))
    return done


def _score(data: Mapping[str, Any], problems: list[Violation]) -> int:
    score = data.get("score", 0)
    if score is None:
        return 0
    if isinstance(score, bool) or not isinstance(score, int) or abs(score) > SCORE_LIMIT:
        problems.append(Violation("bad-score", BAD_SCORE, "score"))
        return 0
    return score


def _pile(data: Mapping[str, Any], problems: list[Violation]) -> tuple[Card | None, bool, int | None]:
    """The pile's top card, whether it is frozen, and its size."""
    pile = data.get("pile")
    pile = {} if pile is None else pile  # false, 0 or [] is not a pile: refused below, not taken for none
    if not isinstance(pile, Mapping):
        problems.append(Violation("bad-pile", BAD_PILE, "pile"))
        return None, False, None
    for name in sorted(str(name) for name in set(pile) - {"top", "frozen", "size"}):
        text = t("'%(name)s' is not a field of the pile.", name=name)
        problems.append(Violation("unknown-field", text, f"pile.{name}"))
    top = _card(pile.get("top"), "pile.top", problems)
    frozen = _flag(pile, "frozen", "pile.frozen", problems)
    size = pile.get("size")
    if size is not None and (isinstance(size, bool) or not isinstance(size, int) or not 0 <= size <= 500):
        problems.append(Violation("bad-size", BAD_SIZE, "pile.size"))
        size = None
    if size == 0 and top is not None:
        problems.append(Violation("empty-pile-top", EMPTY_PILE_TOP, "pile.size"))
    return top, frozen, size


def _flag(data: Mapping[str, Any], name: str, where: str, problems: list[Violation]) -> bool:
    value = data.get(name, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        problems.append(Violation("not-bool", t("%(field)s is true or false.", field=where), where))
        return False
    return value


def _card(text: Any, where: str, problems: list[Violation]) -> Card | None:
    if text is None:
        return None
    try:
        return parse_card(text)
    except CardError as error:
        problems.append(Violation("bad-card", error.message, where))
        return None


def _card_list(value: Any, where: str, problems: list[Violation], required: bool = False) -> tuple[Card, ...]:
    if value is None and not required:
        return ()
    if not isinstance(value, list) or (required and not value):
        problems.append(
            Violation("bad-cards", t('%(field)s is a list of cards, e.g. ["K", "K", "2C"].', field=where), where)
        )
        return ()
    cards = [_card(text, f"{where}[{index}]", problems) for index, text in enumerate(value)]
    for index, card in enumerate(cards):
        if card is None and value[index] is None:
            problems.append(Violation("bad-card", NULL_CARD, f"{where}[{index}]"))
    return tuple(card for card in cards if card is not None)


def _meld_list(value: Any, where: str, problems: list[Violation]) -> tuple[tuple[Card, ...], ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        text = t('%(field)s is a list of melds, e.g. [["K", "K", "K"]].', field=where)
        problems.append(Violation("bad-melds", text, where))
        return ()
    melds = []
    for index, meld in enumerate(value):
        if isinstance(meld, list) and not meld:
            problems.append(Violation("empty-meld", EMPTY_MELD, f"{where}[{index}]"))
            continue
        melds.append(_card_list(meld, f"{where}[{index}]", problems))
    return tuple(melds)


def _onto(data: Mapping[str, Any], problems: list[Violation]) -> tuple[tuple[int, tuple[str, int]], ...]:
    """``onto``: each wild card sent alone (``melds[i]``) and the meld it goes on (``table[j]``, ``melds[k]``)."""
    value = data.get("onto")
    if value is None:
        return ()
    if not isinstance(value, Mapping):
        problems.append(Violation("bad-onto", BAD_ONTO, "onto"))
        return ()
    melds, table = data.get("melds"), data.get("table")
    sizes = {name: len(v) if isinstance(v, list) else 0 for name, v in (("melds", melds), ("table", table))}
    placed = []
    for key, place in value.items():
        where = f"onto.{key}"
        key_match = ONTO_KEY.fullmatch(str(key))
        place_match = ONTO_PLACE.fullmatch(place) if isinstance(place, str) else None
        if key_match is None:
            problems.append(Violation("bad-onto", BAD_ONTO, where))
        elif int(key_match[1]) >= sizes["melds"]:
            problems.append(Violation("onto-no-such-meld", ONTO_KEY_RANGE, where))
        elif place_match is None:
            problems.append(Violation("bad-onto", ONTO_PLACE_BAD, where))
        elif int(place_match[2]) >= sizes[place_match[1]] or place_match[0] == key:
            problems.append(Violation("onto-no-such-meld", ONTO_PLACE_RANGE, where))
        else:
            placed.append((int(key_match[1]), (place_match[1], int(place_match[2]))))
    return tuple(sorted(placed))
