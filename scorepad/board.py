"""The "Can I?" board: the question and the cards a player has tapped in, and what each tap changes.

Pure Python over the rules core, no Flask: the board is read from a form's fields
(:meth:`Board.from_form`), changed by one tap (:meth:`Board.apply`), written back to the
fields that carry it to the next tap (:func:`board_fields`), and turned into a rules-check
request (:meth:`Board.request`). The pages in ``checker.py`` word and draw it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import canasta, limits
from .canasta.cards import CardError, parse_card
from .canasta.plays import best_melds, lone_wilds, special_hand
from .canasta.scoring import SPECIAL_HAND_LABELS
from .canasta.text import N_
from .canasta.violations import InvalidError

# Which cards each question needs, so the page asks for them in order; the keys are the API's actions.
ASKS = {
    "meld": ("hand", "melds", "table"),
    "pickup": ("hand", "top", "melds", "table"),
    "go_out": ("hand", "melds", "discard", "table"),
    "discard": ("discard", "hand", "table"),
}
PILES = ("hand", "melds", "table", "top", "discard")  # what the pad can fill
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}  # the pad's suits where runs need them; none: any
MAX_CARDS = 40  # a hand after taking the pile is long, but a form this long is a mistake
TOTAL_LIMIT = 1_000_000
# The house rules that change what the checker says; the rest only change scores. The standalone
# page shows those the chosen variant has as controls named ``opt.<id>``.
PLAY_OPTIONS = (
    "max_wilds",
    "wilds_not_more_than_naturals",
    "pile_always_frozen",
    "pickup_with_wild",
    "pickup_onto_canasta",
    "top_counts_for_minimum",
    "sequences",
    "wild_canasta",
    "tough_end",
    "canastas_to_go_out",
    "black_three_freezes",
    "decks",
    "jokers_per_deck",
)


@dataclass(frozen=True)
class BoardProblem:
    """What is wrong with the form, as a message id and its ``%(name)s`` values, for the page to word."""

    message: str
    values: tuple[tuple[str, Any], ...] = ()


@dataclass
class Board:
    """The form's state: the question and the cards picked so far."""

    variant: str = canasta.DEFAULT_VARIANT
    options: dict[str, Any] = field(default_factory=dict)
    match: str = ""
    side: int = 0
    score: int = 0
    score_typed: str = ""  # the total as typed, shown again when it was refused
    action: str = "meld"
    target: str = "hand"
    suit: str = ""
    hand: list[str] = field(default_factory=list)
    picked: list[int] = field(default_factory=list)  # positions in ``hand`` tapped to meld
    melds: list[list[str]] = field(default_factory=list)
    table: list[list[str]] = field(default_factory=list)
    top: str = ""
    discard: str = ""
    frozen: bool = False
    one_card_pile: bool = False
    took_pile: bool = False
    all_cards: bool = False  # to meld: the hand shown is every card the player holds
    special: bool = False  # to go out: with a special hand (the whole hand, no discard)
    onto: dict[int, str] = field(default_factory=dict)  # a wild card sent alone: its meld, "table:1" / "melds:0"
    rules_open: bool = False
    problems: list[BoardProblem] = field(default_factory=list)
    option_errors: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_form(cls, form: Mapping[str, str]) -> Board:
        """Read the board from form or query fields, keeping what parses and noting what does not."""
        board = cls()
        board.variant = form.get("variant", canasta.DEFAULT_VARIANT)
        text = form.get("options", "")
        if text:
            try:
                options = json.loads(text)
                limits.check_json(options)  # no nesting, control character or lone surrogate
                board.options = options if isinstance(options, dict) else {}
            except (ValueError, RecursionError):  # InvalidError is a ValueError
                board.problems.append(BoardProblem(N_("House rules: these are not house rules scorepad can read.")))
        board.match = form.get("match", "")[:64]
        board.side = _number(form.get("side"), 0)
        board.score, board.score_typed = _total(form.get("score"), board.problems)
        board.action = form.get("action") if form.get("action") in ASKS else "meld"
        board.target = form.get("target") if form.get("target") in PILES else ASKS[board.action][0]
        board.suit = form.get("suit") if form.get("suit") in SUIT_SYMBOLS else ""
        board.hand = _cards(form.get("hand", ""))
        positions = {_number(part, -1) for part in str(form.get("picked", "")).split()}
        board.picked = sorted(i for i in positions if 0 <= i < len(board.hand))
        board.melds = _groups(form.get("melds", ""))
        board.table = _groups(form.get("table", ""))
        board.top = (_cards(form.get("top", "")) or [""])[0]
        board.discard = (_cards(form.get("discard", "")) or [""])[0]
        board.frozen = form.get("frozen") == "1"
        board.one_card_pile = form.get("one_card_pile") == "1"
        board.took_pile = form.get("took_pile") == "1"
        board.all_cards = form.get("all_cards") == "1"
        board.special = form.get("special") == "1"
        board.onto = _onto(form.get("onto", ""))
        board.rules_open = form.get("op") == "rules"
        board._read_house_rules(form)
        return board

    def _read_house_rules(self, form: Mapping[str, str]) -> None:
        """The house-rule controls, when the form was drawn for this variant.

        ``house_rules_for`` names the variant the controls were drawn for: without it (a link) the
        ``options`` field is all there is; when it names another variant the player has just
        changed variant, and the new one starts from its own rules.
        """
        drawn_for = form.get("house_rules_for")
        if drawn_for is None:
            return
        try:
            variant = canasta.find_variant(self.variant)
        except InvalidError:
            return
        self.options = {key: value for key, value in self.options.items() if key in variant.option_ids}
        if drawn_for != self.variant:
            return
        for option_id in play_options(variant):
            raw = form.get(f"opt.{option_id}")
            if variant.option_spec(option_id).kind is bool:
                self.options[option_id] = raw == "1" if raw in (None, "", "1") else raw
            elif raw is not None:
                self.options[option_id] = int(raw) if re.fullmatch(r"-?\d{1,9}", raw.strip()) else raw

    def apply(self, op: str) -> None:
        """One tap: add or remove a card, start a meld, or change what is asked.

        ``op`` is ``verb:rest``; an unknown verb, or a rest its tap does not take, changes nothing.
        """
        verb, _colon, rest = op.partition(":")
        tap = TAPS.get(verb)
        if tap is not None:
            tap(self, rest)

    def _tap_add(self, code: str) -> None:
        """Add the card the pad names to the pile it is filling."""
        if code:
            self._add(code)

    def _tap_new(self, pile: str) -> None:
        """Start a new meld, the player's or on the table, unless the last one is still empty."""
        if pile not in ("melds", "table"):
            return
        groups = getattr(self, pile)
        if not groups or groups[-1]:
            groups.append([])
        self.target = pile

    def _tap_target(self, pile: str) -> None:
        """Fill another pile with the pad."""
        if pile in PILES:
            self.target = pile

    def _tap_suit(self, suit: str) -> None:
        """Give the pad's cards this suit."""
        if not suit or suit in SUIT_SYMBOLS:
            self.suit = suit

    def _tap_action(self, action: str) -> None:
        """Ask another question, keeping the cards picked."""
        if action in ASKS:
            # The cards are picked once: asking another question keeps them, and the pad moves
            # to what this question still needs (the top of the pile, the discard).
            self.action = action
            self.target = self._next_target()

    def _tap_pick(self, position: str) -> None:
        """Tap a card in hand into the meld being made, or out of it again."""
        if re.fullmatch(r"[0-9]{1,3}", position) and int(position) < len(self.hand):
            index = int(position)
            self.picked = sorted(set(self.picked) ^ {index})

    def _tap_back(self, _rest: str) -> None:
        """Take back the last card added."""
        self._take_back()

    def _tap_toggle(self, name: str) -> None:
        """Turn the pile's frozen or one-card state, "all my cards" or the special hand on or off."""
        if name in ("frozen", "one_card_pile", "all_cards", "special"):
            setattr(self, name, not getattr(self, name))

    def _tap_onto(self, rest: str) -> None:
        """Put a wild card sent alone on a meld (``0:table:1``), or leave it to the checker (``0:auto``)."""
        group, _colon, place = rest.partition(":")
        if not re.fullmatch(r"[0-9]{1,2}", group):  # ASCII only: "²".isdigit(), but int("²") fails
            return
        if place == "auto":
            self.onto.pop(int(group), None)
        elif re.fullmatch(r"(table|melds):[0-9]{1,2}", place):
            self.onto[int(group)] = place

    def _tap_clear(self, _rest: str) -> None:
        """Start again with no cards, the pad on the question's first pile."""
        self.hand, self.melds, self.table, self.top, self.discard = [], [], [], "", ""
        self.picked = []
        self.target = ASKS[self.action][0]

    def _add(self, code: str) -> None:
        try:
            card = parse_card(code if code.startswith("3") or code == "JK" else code + self.suit)
        except CardError:
            return
        if self.card_count() >= MAX_CARDS:
            message = N_("That is more than %(most)s cards: remove some first.")
            self.problems.append(BoardProblem(message, (("most", MAX_CARDS),)))
            return
        text = str(card)
        if self.target == "hand":
            self.hand.append(text)
        elif self.target in ("melds", "table"):
            groups = getattr(self, self.target)
            if not groups:
                groups.append([])
            groups[-1].append(text)
        else:
            setattr(self, self.target, text)
            self.target = self._next_target()

    def _next_target(self) -> str:
        """The first of the question's piles still empty: after the hand, the top or the discard."""
        for name in ASKS[self.action]:
            if name == "hand" and not self.hand or name in ("top", "discard") and not getattr(self, name):
                return name
        return "hand"

    def _take_back(self) -> None:
        """Undo the last card added to the pile the pad is filling."""
        if self.target == "hand" and self.hand:
            self.hand.pop()
            self.picked = [i for i in self.picked if i < len(self.hand)]
        elif self.target in ("melds", "table") and getattr(self, self.target):
            groups = getattr(self, self.target)
            if groups[-1]:
                groups[-1].pop()
            if not groups[-1]:
                groups.pop()
        elif self.target in ("top", "discard") and getattr(self, self.target):
            setattr(self, self.target, "")
        elif self.hand:
            self.hand.pop()
            self.picked = [i for i in self.picked if i < len(self.hand)]

    def _remove(self, where: str) -> None:
        name, _colon, place = where.partition(":")
        numbers = [_number(part, -1) for part in place.split(":")] if place else []
        if name == "hand" and numbers and 0 <= numbers[0] < len(self.hand):
            del self.hand[numbers[0]]
            self.picked = [i - (i > numbers[0]) for i in self.picked if i != numbers[0]]
        elif name in ("melds", "table") and len(numbers) == 2:
            groups = getattr(self, name)
            group, index = numbers
            if 0 <= group < len(groups) and 0 <= index < len(groups[group]):
                del groups[group][index]
                if not groups[group]:
                    del groups[group]
        elif name in ("top", "discard"):
            setattr(self, name, "")

    def card_count(self) -> int:
        return len(self.hand) + sum(map(len, self.melds)) + sum(map(len, self.table)) + 2

    def picked_cards(self) -> list[str]:
        return [self.hand[i] for i in self.picked]

    def chosen_melds(self, rules: canasta.Variant | None = None) -> list[list[str]]:
        """The melds in question: those tapped into Melds, else the hand's picked cards grouped
        into melds, else (to meld or go out) the cards a way is found for.

        To meld, the best melds the hand makes are judged (``best_melds``); to go out, every card
        but the discard is laid down by rank, as the player would.
        """
        melds = [group for group in self.melds if group]
        if melds:
            return melds
        has_runs = rules is not None and rules.has_sequences
        if self.picked:
            return _by_rank(self.picked_cards(), has_runs)
        if self.action == "meld" and rules is not None and self.hand:
            cards = [parse_card(code) for code in self.hand]
            return [[str(card) for card in meld] for meld in best_melds(rules, rules.play_rules, cards)]
        if self.action == "go_out" and self.hand:
            return _by_rank(self.kept_hand(rules), has_runs)
        return []

    def kept_hand(self, rules: canasta.Variant | None = None) -> list[str]:
        """The hand without the discard: a card tapped both into Hand and as the discard is the
        discard (one copy of it leaves the hand), as the player who tapped it twice meant."""
        hand = list(self.hand)
        if self.action in ("discard", "go_out") and self.discard and not self.is_special(rules):
            if self.discard in hand:
                hand.remove(self.discard)
        return hand

    def request(self, rules: canasta.Variant | None = None) -> dict[str, Any]:
        """The board as a rules-check request (docs/api.md), melds with the top card where it goes."""
        melds = self._asked_melds(rules)
        tapped = self.discard if self.action in ("discard", "go_out") else ""
        discard = "" if self.is_special(rules) else tapped  # a special hand has no discard: the card is one of the 14
        hand = self.kept_hand(rules) + ([tapped] if tapped else [])  # the page picks the discard apart from the hand
        body: dict[str, Any] = {
            "action": self.action,
            "hand": hand,
            "table": [group for group in self.table if group],
            "melds": melds,
            "score": self.score,
        }
        if self.action == "pickup":
            body["pile"] = {
                "top": self.top or None,
                "frozen": self.frozen,
                **({"size": 1} if self.one_card_pile else {}),
            }
        if discard:
            body["discard"] = discard
        if self.action == "go_out" and self.took_pile:
            body["took_pile"] = True
        onto = self.placed(rules, melds, body["table"])
        if onto:
            body["onto"] = onto
        return body

    def _asked_melds(self, rules: canasta.Variant | None) -> list[list[str]]:
        """The melds asked about, with the top card where it goes; none for a special hand."""
        if self.is_special(rules):
            return []
        melds = self.chosen_melds(rules)
        if self.action == "pickup" and self.top and melds:
            melds = _with_top(melds, self.top)
        return melds

    def is_special(self, rules: canasta.Variant | None) -> bool:
        """Going out with a special hand, where the variant has them."""
        return self.action == "go_out" and self.special and rules is not None and bool(rules.special_hand_values)

    def special_offer(self, rules: canasta.Variant | None) -> str | None:
        """The special hand the cards make (the core's name for it), when a player asks to go out without saying so."""
        if rules is None or not rules.special_hand_values or self.action != "go_out" or self.special:
            return None
        if any(self.table):
            return None  # the side has melded: too late for a special hand
        cards = [parse_card(code) for code in self.kept_hand(rules) + ([self.discard] if self.discard else [])]
        kind = special_hand(cards) if len(cards) == 14 else None  # the whole hand after drawing
        return None if kind is None else SPECIAL_HAND_LABELS[kind]

    def placed(self, rules: canasta.Variant | None, melds: list[list[str]], table: list[list[str]]) -> dict[str, str]:
        """The melds the player tapped for wild cards sent alone, as the check's ``onto``."""
        if rules is None:
            return {}
        lone = lone_wilds([[parse_card(code) for code in group] for group in melds], rules)
        onto = {}
        for group, place in sorted(self.onto.items()):
            pile, _colon, index = place.partition(":")
            size = len(table) if pile == "table" else len(melds)
            if group in lone and int(index) < size and not (pile == "melds" and int(index) in lone):
                onto[f"melds[{group}]"] = f"{pile}[{index}]"
        return onto

    def wild_choices(self, rules: canasta.Variant | None) -> list[WildChoice]:
        """Each wild card sent alone, with the melds the player may tap for it."""
        if rules is None or self.action not in ("meld", "pickup", "go_out") or self.is_special(rules):
            return []
        melds = self.chosen_melds(rules)
        table = [group for group in self.table if group]
        lone = lone_wilds([[parse_card(code) for code in group] for group in melds], rules)
        choices = []
        for group in lone:
            places = [(f"table:{j}", meld) for j, meld in enumerate(table)]
            places += [(f"melds:{k}", meld) for k, meld in enumerate(melds) if k not in lone]
            chosen = self.onto.get(group, "")
            if places:  # a meld chosen and since removed leaves the wild card to any meld, as placed() does
                chosen = chosen if chosen in dict(places) else ""
                choices.append(WildChoice(group, melds[group], tuple(places), chosen))
        return choices

    def missing(self) -> str | None:
        """What the question still needs before it can be judged, as a prompt's message id."""
        if self.action == "discard" and not self.discard:
            return N_("Tap the card you want to discard.")
        if not self.hand and not (self.action == "discard" and self.discard):
            return N_("Tap the cards in your hand.")
        if self.action == "pickup" and not self.top:
            return N_("Tap the top card of the pile.")
        return None


@dataclass(frozen=True)
class WildChoice:
    """A wild card sent alone and the melds it may go on, as the page offers them."""

    group: int  # its place in the melds asked about
    cards: list[str]
    places: tuple[tuple[str, list[str]], ...]  # ("table:1", the meld's cards)
    chosen: str  # the place tapped, or "" to leave it to the checker


def _onto(text: str) -> dict[int, str]:
    """The wild cards' melds as the form carries them: ``0:table:1 2:melds:0``."""
    onto = {}
    for part in str(text).split()[:20]:
        group, _colon, place = part.partition(":")
        if re.fullmatch(r"[0-9]{1,2}", group) and re.fullmatch(r"(table|melds):[0-9]{1,2}", place):
            onto[int(group)] = place
    return onto


# What each verb of a tap (``Board.apply``) does, by the verb before the colon.
TAPS: dict[str, Callable[[Board, str], None]] = {
    "add": Board._tap_add,
    "remove": Board._remove,
    "new": Board._tap_new,
    "target": Board._tap_target,
    "suit": Board._tap_suit,
    "action": Board._tap_action,
    "pick": Board._tap_pick,
    "back": Board._tap_back,
    "toggle": Board._tap_toggle,
    "clear": Board._tap_clear,
    "onto": Board._tap_onto,
}


def _total(text: Any, problems: list[BoardProblem]) -> tuple[int, str]:
    """The side's total as typed: a whole number, or 0 with a problem naming the box (what was typed is shown again)."""
    typed = str(text if text is not None else "").strip()
    if not typed:
        return 0, ""
    try:
        value = int(typed)
    except ValueError:
        value = None
    if value is None or not -TOTAL_LIMIT <= value <= TOTAL_LIMIT:
        message = N_("Your side's total: type a whole number from -%(limit)s to %(limit)s.")
        problems.append(BoardProblem(message, (("limit", TOTAL_LIMIT),)))
        return 0, typed
    return value, typed


def _number(text: Any, default: int) -> int:
    try:
        value = int(str(text).strip())
    except (TypeError, ValueError):
        return default
    return max(-1_000_000, min(1_000_000, value))


def _cards(text: str) -> list[str]:
    cards = []
    for code in str(text).split()[:MAX_CARDS]:
        try:
            cards.append(str(parse_card(code)))
        except CardError:
            continue
    return cards


def _groups(text: str) -> list[list[str]]:
    return [_cards(part) for part in str(text).split("|")][:20] if text.strip() else []


def _by_rank(codes: list[str], has_runs: bool) -> list[list[str]]:
    """Cards laid down as the player would: naturals by rank, threes apart, wild cards with the
    largest meld (a game with runs keeps the picked cards as one meld)."""
    if has_runs:
        return [list(codes)]
    groups: dict[str, list[str]] = {}
    wilds = []
    for code in codes:
        card = parse_card(code)
        if card.is_wild:
            wilds.append(code)
        else:
            red_three = card.rank == "3" and card.suit in ("H", "D")
            groups.setdefault(card.rank + (card.suit if red_three else ""), []).append(code)
    melds = sorted(groups.values(), key=len, reverse=True)
    if wilds:
        if melds:
            melds[0] = melds[0] + wilds
        else:
            melds = [wilds]
    return melds


def _with_top(melds: list[list[str]], top: str) -> list[list[str]]:
    """On the page the top card joins the meld of its rank by itself; the API names it."""
    rank = parse_card(top).rank
    melds = [list(group) for group in melds]
    for group in melds:
        if any(parse_card(code).rank == rank for code in group):
            group.append(top)
            return melds
    return melds


def play_options(rules: canasta.Variant) -> list[str]:
    """The play-changing house rules this variant has, in the page's order."""
    return [option_id for option_id in PLAY_OPTIONS if option_id in rules.option_ids]


def board_fields(board: Board) -> dict[str, str]:
    """The hidden fields that carry the board from one tap to the next.

    On the standalone page the play-changing house rules travel in their own controls; the
    ``options`` field keeps the rest (from a link) so they are not lost.
    """
    carried = {k: v for k, v in board.options.items() if board.match or k not in PLAY_OPTIONS}
    return {
        "variant": board.variant,
        "options": json.dumps(carried) if carried else "",
        "match": board.match,
        "side": str(board.side),
        "action": board.action,
        "target": board.target,
        "suit": board.suit,
        "hand": " ".join(board.hand),
        "picked": " ".join(str(i) for i in board.picked),
        "melds": "|".join(" ".join(group) for group in board.melds),
        "table": "|".join(" ".join(group) for group in board.table),
        "top": board.top,
        "discard": board.discard,
        "frozen": "1" if board.frozen else "",
        "one_card_pile": "1" if board.one_card_pile else "",
        "all_cards": "1" if board.all_cards else "",
        "special": "1" if board.special else "",
        "onto": " ".join(f"{group}:{place}" for group, place in sorted(board.onto.items())),
    }
