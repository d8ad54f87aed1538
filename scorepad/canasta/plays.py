"""The rules checker: may this player make this play, and which rule decides it (RULES.md §5).

A :class:`Position` is one player's moment at the table: the hand, the side's melds, the top of
the pile, and the play in question (meld, take the pile, go out, discard). :func:`check` judges
it under the rules in force and returns a :class:`Verdict`: yes or no, every rule that decides
it as a sentence naming the cards (all broken rules at once, as python-chess's ``status()``
does), the initial-meld count against the minimum, and for the pile a legal way to take it.
A position that cannot occur (more cards than the decks hold, melded cards not in the hand)
raises :class:`~scorepad.canasta.violations.InvalidError` instead of being judged.

pagat's example: a king on the pile, two kings, two queens and a two in hand.

>>> from scorepad.canasta import VARIANTS
>>> position = Position.from_dict({"action": "pickup", "hand": ["K", "K", "Q", "Q", "2C"],
...     "melds": [["K", "K", "K"], ["Q", "Q", "2C"]], "pile": {"top": "K"}, "score": 0})
>>> verdict = check(VARIANTS["classic"], position)
>>> verdict.legal, verdict.count, verdict.minimum
(True, 70, 50)
>>> check(VARIANTS["classic"], Position.from_dict({**position.to_dict(), "score": 1500})).legal
False
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from .cards import JOKER, NATURAL_RANKS, Card, CardError, cards_value, overdrawn, parse_card
from .variants import Variant, rules_for
from .violations import InvalidError, Violation

ACTIONS = {"meld": "Meld", "pickup": "Take the pile", "go_out": "Go out", "discard": "Discard"}
REQUEST_FIELDS = (
    "variant", "options", "action", "hand", "table", "initial_meld_done", "score", "melds",
    "pile", "discard", "stock_empty", "took_pile",
)  # fmt: skip
SEQUENCE_RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")  # low to high
SEQUENCE_CARDS = (3, 7)  # a sequence holds three to seven cards (RULES.md §5, Palace)
WILD_MELD_CARDS = (3, 7)  # a meld of wild cards holds three to seven (pagat, Palace)
BLACK_THREE_CARDS = (3, 4)  # black threes melded going out: three or four, no wild cards
CANASTA = 7
SCORE_LIMIT = 1_000_000


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

# --- card words -------------------------------------------------------------------------------
NAMES = {
    "A": "ace", "K": "king", "Q": "queen", "J": "jack", "10": "ten", "9": "nine", "8": "eight",
    "7": "seven", "6": "six", "5": "five", "4": "four", "2": "two", JOKER: "joker",
}  # fmt: skip
NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
ORDER = {rank: index for index, rank in enumerate((*NATURAL_RANKS, "black three", "red three", "2", JOKER))}


def card_name(card: Card) -> str:
    """A card as a player says it: "king", "red three", "joker"."""
    if card.is_three:
        return "red three" if card.is_red_three else "black three"
    return NAMES[card.rank]


def plural(name: str) -> str:
    return name + ("es" if name.endswith("x") else "s")


def number(count: int) -> str:
    return NUMBERS[count] if count < len(NUMBERS) else str(count)


def with_article(name: str) -> str:
    return ("an " if name[0] in "aeiou" else "a ") + name


def describe(cards: Iterable[Card]) -> str:
    """Cards in words, grouped: "two kings and a joker".

    >>> describe([Card("K"), Card("JK"), Card("K")])
    'two kings and a joker'
    >>> describe([Card("K"), Card("2", "C")]), describe([])
    ('one king and a two', 'no cards')
    """
    counts = Counter(card_name(card) for card in cards)
    if not counts:
        return "no cards"
    parts = []
    for index, name in enumerate(sorted(counts, key=lambda n: ORDER.get(n, ORDER.get(_rank_of(n), 99)))):
        count = counts[name]
        if count == 1:
            parts.append(f"one {name}" if index == 0 else with_article(name))
        else:
            parts.append(f"{number(count)} {plural(name)}")
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _held(cards: Sequence[Card], names: str) -> str:
    """What the hand holds toward a pair: "one king and a joker", or "no kings"."""
    return describe(cards) if cards else f"no {names}"


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _rank_of(name: str) -> str:
    return next((rank for rank, word in NAMES.items() if word == name), name)


def codes(cards: Iterable[Card]) -> str:
    """Cards as the table writes a meld: ``K-K-2C``."""
    return "-".join(str(card) for card in cards)


# --- the position -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Position:
    """One player's moment of play, as the checker is asked about it (API.md "Rules check")."""

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

    @property
    def has_opened(self) -> bool:
        """The side has made its initial meld."""
        return bool(self.table) if self.initial_meld_done is None else self.initial_meld_done

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Position:
        """Read a check request (API.md field names; ``variant`` and ``options`` are ignored).

        :raises InvalidError: naming every field that is missing, mistyped or not a card.
        """
        if not isinstance(data, Mapping):
            raise InvalidError([Violation("body-not-object", "A check is a JSON object.", "")])
        problems: list[Violation] = []
        unknown = sorted(str(name) for name in set(data) - set(REQUEST_FIELDS))
        problems += [Violation("unknown-field", f"'{name}' is not a field of a check.", name) for name in unknown]
        action = data.get("action")
        if not isinstance(action, str) or action not in ACTIONS:
            choices = ", ".join(ACTIONS)
            problems.append(Violation("bad-action", f"Say what the player wants to do: one of {choices}.", "action"))
        hand = _card_list(data.get("hand"), "hand", problems, required=True)
        table = _meld_list(data.get("table", []), "table", problems)
        melds = _meld_list(data.get("melds", []), "melds", problems)
        done = data.get("initial_meld_done")
        if done is not None and not isinstance(done, bool):
            problems.append(Violation("not-bool", "initial_meld_done is true or false.", "initial_meld_done"))
        score = data.get("score", 0)
        if score is None:
            score = 0
        if isinstance(score, bool) or not isinstance(score, int) or abs(score) > SCORE_LIMIT:
            problems.append(Violation("bad-score", "The side's score is a whole number, e.g. 1200.", "score"))
            score = 0
        pile = data.get("pile") or {}
        top = size = None
        frozen = False
        if not isinstance(pile, Mapping):
            problems.append(Violation("bad-pile", 'The pile is an object like {"top": "K", "size": 12}.', "pile"))
        else:
            for name in sorted(str(name) for name in set(pile) - {"top", "frozen", "size"}):
                problems.append(Violation("unknown-field", f"'{name}' is not a field of the pile.", f"pile.{name}"))
            top = _card(pile.get("top"), "pile.top", problems)
            frozen = _flag(pile, "frozen", "pile.frozen", problems)
            size = pile.get("size")
            if size is not None and (isinstance(size, bool) or not isinstance(size, int) or not 0 <= size <= 500):
                problems.append(Violation("bad-size", "The pile's size is a number of cards, 0 or more.", "pile.size"))
                size = None
            if size == 0 and top is not None:
                problems.append(Violation("empty-pile-top", "An empty pile has no top card.", "pile.size"))
        discard = _card(data.get("discard"), "discard", problems)
        stock_empty = _flag(data, "stock_empty", "stock_empty", problems)
        took_pile = _flag(data, "took_pile", "took_pile", problems)
        if problems:
            raise InvalidError(problems)
        return cls(
            action=action,
            hand=hand,
            table=table,
            melds=melds,
            initial_meld_done=done,
            score=score,
            pile_top=top,
            pile_frozen=frozen,
            pile_size=size,
            discard=discard,
            stock_empty=stock_empty,
            took_pile=took_pile,
        )

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
        return data


def _flag(data: Mapping[str, Any], name: str, where: str, problems: list[Violation]) -> bool:
    value = data.get(name, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        problems.append(Violation("not-bool", f"{where} is true or false.", where))
        return False
    return value


def _card(text: Any, where: str, problems: list[Violation]) -> Card | None:
    if text is None:
        return None
    try:
        return parse_card(text)
    except CardError as error:
        problems.append(Violation("bad-card", str(error), where))
        return None


def _card_list(value: Any, where: str, problems: list[Violation], required: bool = False) -> tuple[Card, ...]:
    if value is None and not required:
        return ()
    if not isinstance(value, list) or (required and not value):
        problems.append(Violation("bad-cards", f'{where} is a list of cards, e.g. ["K", "K", "2C"].', where))
        return ()
    cards = [_card(text, f"{where}[{index}]", problems) for index, text in enumerate(value)]
    for index, card in enumerate(cards):
        if card is None and value[index] is None:
            problems.append(Violation("bad-card", "A card is written like 'K' or '3H', not null.", f"{where}[{index}]"))
    return tuple(card for card in cards if card is not None)


def _meld_list(value: Any, where: str, problems: list[Violation]) -> tuple[tuple[Card, ...], ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        problems.append(Violation("bad-melds", f'{where} is a list of melds, e.g. [["K", "K", "K"]].', where))
        return ()
    melds = []
    for index, meld in enumerate(value):
        if isinstance(meld, list) and not meld:
            problems.append(Violation("empty-meld", "A meld needs cards.", f"{where}[{index}]"))
            continue
        melds.append(_card_list(meld, f"{where}[{index}]", problems))
    return tuple(melds)


# --- the verdict ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Finding:
    """One rule applied to the position: kept (True), broken (False) or worth knowing (None)."""

    code: str
    text: str
    kept: bool | None = True


@dataclass(frozen=True)
class Verdict:
    """The answer: legal or not, the rules that decide it, and the initial-meld arithmetic."""

    legal: bool
    reasons: tuple[str, ...]
    count: int | None = None
    minimum: int | None = None
    how: tuple[tuple[Card, ...], ...] | None = None
    problems: tuple[Violation, ...] = ()  # the broken rules, with stable codes

    def to_dict(self) -> dict[str, Any]:
        """The verdict as ``POST /api/v1/check`` answers it."""
        return {
            "legal": self.legal,
            "reasons": list(self.reasons),
            "count": self.count,
            "minimum": self.minimum,
            "how": None if self.how is None else [[str(card) for card in meld] for meld in self.how],
            "problems": [{"code": v.code, "message": v.message} for v in self.problems],
        }

    @classmethod
    def from_findings(cls, findings: Sequence[Finding], **numbers: Any) -> Verdict:
        broken = [f for f in findings if f.kept is False]
        notes = [f.text for f in findings if f.kept is None]
        if broken:
            reasons = [f.text for f in broken] + notes
        else:
            reasons = [f.text for f in findings if f.kept] + notes
        return cls(
            legal=not broken,
            reasons=tuple(_dedupe(reasons)),
            problems=tuple(Violation(f.code, f.text) for f in broken),
            **numbers,
        )


def _dedupe(texts: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(texts))


# --- melds ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Laid:
    """One side meld after this turn: what was on the table and what goes on it now."""

    kind: str  # "rank", "wild", "threes", "run" (a sequence, or cards of several ranks)
    rank: str | None
    before: tuple[Card, ...] = ()
    added: tuple[Card, ...] = ()

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.before + self.added

    @property
    def is_new(self) -> bool:
        return not self.before

    @property
    def naturals(self) -> list[Card]:
        return [card for card in self.cards if card.is_natural]

    @property
    def wilds(self) -> list[Card]:
        return [card for card in self.cards if card.is_wild]

    @property
    def is_canasta(self) -> bool:
        return self.kind in ("rank", "wild", "run") and len(self.cards) >= CANASTA

    @property
    def canasta_kind(self) -> str | None:
        """natural, mixed, wild or sequence, once the meld is a canasta."""
        if not self.is_canasta:
            return None
        if self.kind == "run":
            return "sequence"
        if self.kind == "wild":
            return "wild"
        return "mixed" if self.wilds else "natural"

    def __str__(self) -> str:
        if self.before and self.added:
            return f"{codes(self.added)} on your {codes(self.before)}"
        return codes(self.cards)


def meld_key(cards: Sequence[Card]) -> tuple[str, str | None]:
    """What a group of cards is trying to be: a meld of one rank, of wild cards, of threes, a run."""
    if any(card.is_three for card in cards):
        return ("threes", None)
    ranks = {card.rank for card in cards if card.is_natural}
    if not ranks:
        return ("wild", None)
    if len(ranks) == 1:
        return ("rank", ranks.pop())
    return ("run", None)


def run_order(cards: Sequence[Card]) -> list[Card]:
    """A sequence's cards from low to high."""
    return sorted(cards, key=lambda card: SEQUENCE_RANKS.index(card.rank) if card.rank in SEQUENCE_RANKS else -1)


def is_run(cards: Sequence[Card]) -> bool:
    """Natural cards of one suit in unbroken rank order, 4 up to ace, at most seven."""
    if not cards or any(not card.is_natural or card.suit is None for card in cards):
        return False
    if len({card.suit for card in cards}) != 1 or len(cards) > SEQUENCE_CARDS[1]:
        return False
    places = sorted(SEQUENCE_RANKS.index(card.rank) for card in cards)
    return places == list(range(places[0], places[0] + len(places)))


def side_melds(
    table: Sequence[Sequence[Card]], melds: Sequence[Sequence[Card]], rules: Variant | None = None
) -> tuple[list[Laid], list[Laid]]:
    """The side's melds after this turn: (melds touched this turn, melds left as they were).

    A proposed meld of a rank the side has is added to it, and proposed melds of one rank are one
    meld (one meld per rank per side); so are wild cards and black threes. Wild cards alone that
    cannot be a meld of wild cards go on the first meld of the side they fit. A run, or a lone card
    of a rank the side has no meld of, is added to a table sequence of its suit when together they
    make one; otherwise it is a new sequence (or meld).
    """
    untouched = [_laid_from_table(meld) for meld in table]
    touched: list[Laid] = []

    def add(base: Laid, group: Sequence[Card]) -> None:
        if base in untouched:
            untouched.remove(base)
            touched.append(replace(base, added=tuple(group)))
        else:
            touched[touched.index(base)] = replace(base, added=base.added + tuple(group))

    for group in melds:
        kind, rank = meld_key(group)
        if kind == "wild" and not _wild_meld_meant(group, touched + untouched, rules):
            target = _wild_target(group, touched + untouched, rules)
            if target is not None:
                add(target, group)
                continue
        if kind in ("rank", "wild", "threes"):
            base = next((m for m in touched + untouched if (m.kind, m.rank) == (kind, rank)), None)
            if base is None and kind == "rank":  # a lone card may extend a table sequence instead
                base = next((m for m in untouched if m.kind == "run" and is_run(m.before + tuple(group))), None)
            if base is not None:
                add(base, group)
            else:
                touched.append(Laid(kind, rank, added=tuple(group)))
        else:
            base = next((m for m in untouched if m.kind == "run" and is_run(m.before + tuple(group))), None)
            if base is not None:
                add(base, group)
            else:
                touched.append(Laid("run", None, added=tuple(group)))
    return touched, untouched


def _wild_meld_meant(group: Sequence[Card], melds: Sequence[Laid], rules: Variant | None) -> bool:
    """Three or more wild cards alone are meant as a meld of wild cards; fewer join one if the side has it."""
    if len(group) >= WILD_MELD_CARDS[0]:
        return True
    return rules is not None and rules.has_wild_melds and any(m.kind == "wild" for m in melds)


def _wild_target(group: Sequence[Card], melds: Sequence[Laid], rules: Variant | None) -> Laid | None:
    """The first meld of one rank these wild cards may join; the first of any rank if none fits."""
    ranked = [m for m in melds if m.kind == "rank"]
    for meld in ranked:
        wilds, naturals = len(meld.wilds) + len(group), len(meld.naturals)
        limit = rules.max_wilds if rules else 3
        if wilds <= limit and (wilds <= naturals or (rules and not rules.wilds_not_more_than_naturals)):
            return meld
    return ranked[0] if ranked else None


def _laid_from_table(meld: Sequence[Card]) -> Laid:
    kind, rank = meld_key(meld)
    return Laid(kind, rank, before=tuple(meld))


@dataclass(frozen=True)
class Turn:
    """What the checker knows about the turn while judging melds."""

    rules: Variant
    style: PlayStyle
    going_out: bool = False
    opening: bool = False  # these melds are the side's initial meld
    wild_meld_open: bool = False  # the side has an unfinished meld of wild cards after this turn


def meld_findings(meld: Laid, turn: Turn) -> list[Finding]:
    """Every meld rule this meld keeps or breaks, for its variant (RULES.md §5 "Melds")."""
    judge = {"rank": _rank_meld, "wild": _wild_meld, "threes": _three_meld, "run": _run_meld}[meld.kind]
    findings = judge(meld, turn)
    if not any(f.kept is False for f in findings):
        findings.append(Finding("meld", _meld_sentence(meld), True))
    return findings


def _rank_meld(meld: Laid, turn: Turn) -> list[Finding]:
    rules, style = turn.rules, turn.style
    cards, rank = meld.cards, meld.rank
    naturals, wilds = len(meld.naturals), len(meld.wilds)
    added_wilds = [card for card in meld.added if card.is_wild]
    names = plural(NAMES[rank])
    found = []
    if len(cards) < 3:
        wild_helps = rank not in style.pure_ranks and naturals + 3 - len(cards) >= 3
        if len(cards) == 1:
            fix = f"add two more {names}{', or one more and a wild card' if wild_helps else ''}"
        else:
            fix = f"add another {NAMES[rank]}{' or a wild card' if wild_helps else ''}"
        found.append(
            Finding(
                "meld-too-small",
                f"{codes(cards)} is only {number(len(cards))} card{'s' * (len(cards) != 1)}: a meld needs "
                f"at least three ({fix}).",
                False,
            )
        )
    elif naturals < 2:
        found.append(
            Finding(
                "too-few-naturals",
                f"{codes(cards)} has {describe(meld.naturals)}: a meld needs at least two natural {names}.",
                False,
            )
        )
    if wilds and rank in style.pure_ranks:
        found.append(
            Finding(
                "pure-rank-wild",
                f"A meld of {names} never takes wild cards: leave {describe(meld.wilds).replace('one ', 'the ')} out.",
                False,
            )
        )
    elif added_wilds and rank in style.opening_wild_ranks:
        if not meld.is_new and not any(card.is_wild for card in meld.before):
            found.append(
                Finding(
                    "pure-meld-stays-pure",
                    f"Your {names} began without wild cards, so they can never take one.",
                    False,
                )
            )
        elif meld.is_new and not turn.opening:
            found.append(
                Finding(
                    "wild-only-in-opening",
                    f"A meld of {names} takes wild cards only when it is part of your side's initial meld; "
                    f"meld the {names} pure.",
                    False,
                )
            )
    if wilds > rules.max_wilds:
        found.append(
            Finding(
                "too-many-wilds",
                f"{codes(cards)} holds {number(wilds)} wild cards: one meld may hold at most "
                f"{number(rules.max_wilds)}.",
                False,
            )
        )
    elif rules.wilds_not_more_than_naturals and wilds > naturals and naturals >= 2:
        found.append(
            Finding(
                "wilds-outnumber-naturals",
                f"{codes(cards)} has {number(wilds)} wild cards and only {number(naturals)} natural {names}: "
                f"wild cards may never outnumber naturals (add a {NAMES[rank]} or leave a wild card out).",
                False,
            )
        )
    if rules.meld_cap and len(cards) > rules.meld_cap:
        found.append(
            Finding(
                "meld-too-long",
                f"{meld} would make {number(len(cards))} {names}: no meld may hold more than "
                f"{number(rules.meld_cap)} cards.",
                False,
            )
        )
    if added_wilds and turn.wild_meld_open and rank not in style.pure_ranks:
        found.append(
            Finding(
                "wild-meld-open",
                "While your side's meld of wild cards is unfinished, no wild card goes on any other meld: "
                f"keep {codes(added_wilds)} for it.",
                False,
            )
        )
    return found


def _wild_meld(meld: Laid, turn: Turn) -> list[Finding]:
    rules, cards = turn.rules, meld.cards
    if not rules.has_wild_melds:
        return [
            Finding(
                "wild-meld-not-allowed",
                f"{codes(cards)} is wild cards alone, and {rules.name} has no melds of wild cards: "
                "a meld needs at least two natural cards of one rank.",
                False,
            )
        ]
    low, high = WILD_MELD_CARDS
    if len(cards) < low:
        return [
            Finding(
                "meld-too-small",
                f"{codes(cards)} is only {number(len(cards))} wild card{'s' * (len(cards) != 1)}: "
                f"a meld of wild cards needs at least {number(low)}.",
                False,
            )
        ]
    if len(cards) > high:
        return [
            Finding(
                "meld-too-long",
                f"{meld} would make {number(len(cards))} wild cards: a meld of wild cards stops at {number(high)}.",
                False,
            )
        ]
    return []


def _three_meld(meld: Laid, turn: Turn) -> list[Finding]:
    cards = meld.cards
    reds = [card for card in cards if card.is_red_three]
    if reds:
        return [
            Finding(
                "red-three-melded",
                f"{codes(reds)}: red threes are never melded; they are laid out on their own as bonus cards.",
                False,
            )
        ]
    if not turn.style.black_threes_going_out:
        return [
            Finding(
                "three-melded",
                f"Threes are never melded in {turn.rules.name}: they are laid out beside your melds.",
                False,
            )
        ]
    found = []
    others = [card for card in cards if not card.is_three]
    if others:
        found.append(
            Finding(
                "black-threes-mixed",
                f"Black threes are melded only with each other: leave {codes(others)} out.",
                False,
            )
        )
    if not turn.going_out:
        found.append(
            Finding(
                "black-threes-not-going-out",
                "Black threes are melded only when you go out, in your last turn.",
                False,
            )
        )
    threes = len(cards) - len(others)
    low, high = BLACK_THREE_CARDS
    if not low <= threes <= high:
        found.append(
            Finding(
                "black-threes-count",
                f"A meld of black threes holds three or four of them, not {number(threes)}.",
                False,
            )
        )
    return found


def _run_meld(meld: Laid, turn: Turn) -> list[Finding]:
    rules, cards = turn.rules, meld.cards
    naturals = meld.naturals
    ranks = sorted({card.rank for card in naturals}, key=SEQUENCE_RANKS.index)
    if not rules.has_sequences:
        return [
            Finding(
                "mixed-ranks",
                f"{codes(cards)} mixes {_and([plural(NAMES[r]) for r in reversed(ranks)])}: "
                f"a meld is cards of one rank ({rules.name} has no sequences).",
                False,
            )
        ]
    found = []
    if meld.wilds:
        found.append(
            Finding(
                "wild-in-sequence",
                f"A sequence takes no wild cards: leave {describe(meld.wilds).replace('one ', 'the ')} out.",
                False,
            )
        )
    unsuited = [card for card in naturals if card.suit is None]
    if unsuited:
        found.append(
            Finding(
                "sequence-needs-suits",
                f"A sequence is cards of one suit: give the suit of {describe(unsuited).replace('one ', 'the ')}.",
                False,
            )
        )
        return found
    if len({card.suit for card in naturals}) > 1:
        found.append(
            Finding("sequence-mixed-suits", f"{codes(run_order(naturals))} mixes suits: a sequence is one suit.", False)
        )
    if len(ranks) < len(naturals):
        found.append(
            Finding(
                "sequence-repeats",
                f"{codes(run_order(naturals))} repeats a rank: a sequence has each rank once.",
                False,
            )
        )
    places = [SEQUENCE_RANKS.index(rank) for rank in ranks]
    missing = [r for r in SEQUENCE_RANKS[places[0] : places[-1] + 1] if r not in ranks]
    if missing:
        found.append(
            Finding(
                "sequence-gap",
                f"{codes(run_order(naturals))} has a gap: a sequence runs without one (it lacks "
                f"{' and '.join(with_article(NAMES[r]) for r in missing)}).",
                False,
            )
        )
    low, high = SEQUENCE_CARDS
    if len(cards) < low:
        found.append(
            Finding("meld-too-small", f"{codes(cards)} is too short: a sequence needs at least three cards.", False)
        )
    if len(cards) > high:
        found.append(
            Finding("meld-too-long", f"{meld} would be {number(len(cards))} cards: a sequence stops at seven.", False)
        )
    return found


def _meld_sentence(meld: Laid) -> str:
    cards = meld.cards
    if meld.kind == "rank":
        what = (
            f"{number(len(cards))} {plural(NAMES[meld.rank])}"
            if not meld.wilds
            else (f"{describe(meld.naturals)} with {describe(meld.wilds).replace('one ', 'a ')}")
        )
    elif meld.kind == "wild":
        what = f"{number(len(cards))} wild cards"
    elif meld.kind == "threes":
        what = f"{number(len(cards))} black threes, melded going out"
    else:
        what = f"a sequence of {number(len(cards))} in {SUIT_NAMES[cards[0].suit]}"
    kind = meld.canasta_kind
    done = f", a {kind} canasta" if kind and kind != "sequence" else ", a sequence canasta" if kind else ""
    if meld.is_new:
        return f"{codes(cards)} is {'' if meld.kind == 'run' else 'a meld of '}{what}{done}."
    return f"{codes(meld.added)} goes on your {codes(meld.before)}: {what}{done}."


# --- the checks -------------------------------------------------------------------------------
def check(rules: Variant, position: Position) -> Verdict:
    """Judge one play under ``rules``: every rule that decides it, kept or broken.

    :raises InvalidError: when the position cannot occur (cards the decks don't hold, melded or
        discarded cards not in the hand, table melds no side could have).
    """
    style = STYLES[rules.play_style]
    _refuse_impossible(rules, style, position)
    judge = {"meld": _check_meld, "pickup": _check_pickup, "go_out": _check_go_out, "discard": _check_discard}
    return judge[position.action](rules, style, position)


def check_request(data: Any) -> Verdict:
    """Judge a check request given as API.md's JSON object: the one call the API and pages need.

    :raises InvalidError: for an unknown variant or option, a malformed field, or a position that
        cannot occur.
    """
    if not isinstance(data, Mapping):
        raise InvalidError([Violation("body-not-object", "A check is a JSON object.", "")])
    problems = []
    rules = None
    variant = data.get("variant", "classic")
    try:
        rules = rules_for(variant, data.get("options"))
    except InvalidError as error:
        problems += error.violations
    try:
        position = Position.from_dict(data)
    except InvalidError as error:
        problems += error.violations
    if problems:
        raise InvalidError(problems)
    return check(rules, position)


def _refuse_impossible(rules: Variant, style: PlayStyle, position: Position) -> None:
    problems = []
    pool = list(position.hand) + [card for meld in position.table for card in meld]
    if position.pile_top is not None:
        pool.append(position.pile_top)
    for text in overdrawn(pool, rules.deck):
        problems.append(Violation("more-cards-than-decks", f"That is {text}: no table can hold it.", ""))
    # initial_meld_done only defaults from the table (API.md): when players say it outright,
    # their word wins, so a side that lists its melds but says it has not opened is judged
    # as not opened.
    problems += _table_problems(rules, style, position.table)
    available = list(position.hand)
    if position.action == "pickup":
        if position.pile_top is None:
            problems.append(Violation("pile-top-missing", "Say which card is on top of the pile.", "pile.top"))
        else:
            available.append(position.pile_top)
    if position.action == "meld" and not position.melds:
        problems.append(Violation("melds-missing", "Pick the cards you want to meld.", "melds"))
    wanted = [card for meld in position.melds for card in meld]
    missing, rest = take(available, wanted)
    if missing:
        what = "your hand or the top of the pile" if position.action == "pickup" else "your hand"
        problems.append(
            Violation(
                "melded-cards-not-held",
                f"The melds use {describe(missing)} more than {what} holds ({codes(missing)}).",
                "melds",
            )
        )
    if position.action == "discard" and position.discard is None:
        problems.append(Violation("discard-missing", "Pick the card you want to discard.", "discard"))
    if position.action in ("discard", "go_out") and position.discard is not None and not missing:
        if take(rest, [position.discard])[0]:
            where = "after the melds" if position.melds else "in your hand"
            problems.append(
                Violation(
                    "discard-not-held", f"There is no {card_name(position.discard)} left {where} to discard.", "discard"
                )
            )
    if problems:
        raise InvalidError(problems)


def _table_problems(rules: Variant, style: PlayStyle, table: Sequence[Sequence[Card]]) -> list[Violation]:
    problems, seen = [], set()
    turn = Turn(rules, style, opening=True)
    for index, meld in enumerate(table):
        laid = _laid_from_table(meld)
        where = f"table[{index}]"
        if laid.kind == "threes":
            problems.append(
                Violation("threes-on-table", "Threes never stay in a side's melds while play goes on.", where)
            )
            continue
        if laid.kind in ("rank", "wild"):
            if (laid.kind, laid.rank) in seen:
                what = "wild cards" if laid.kind == "wild" else plural(NAMES[laid.rank])
                problems.append(Violation("two-melds-of-a-rank", f"A side has only one meld of {what}.", where))
            seen.add((laid.kind, laid.rank))
        broken = [f for f in meld_findings(Laid(laid.kind, laid.rank, added=laid.before), turn) if f.kept is False]
        problems += [Violation("table-meld-impossible", f"On the table: {f.text}", where) for f in broken]
    return problems


def take(pool: Sequence[Card], wanted: Sequence[Card]) -> tuple[list[Card], list[Card]]:
    """Match wanted cards against a pool: (the wanted cards it lacks, the pool's leftovers).

    A card without a suit matches any suit of its rank, and a suited card one without a suit.

    >>> take([Card("K"), Card("K", "S")], [Card("K", "S"), Card("K", "H")])
    ([], [])
    """
    rest = list(pool)
    missing = []
    suited = [card for card in wanted if card.suit is not None]
    plain = [card for card in wanted if card.suit is None]
    unmatched = []
    for card in suited:
        if card in rest:
            rest.remove(card)
        else:
            unmatched.append(card)
    for card in unmatched:
        match = next((c for c in rest if c.rank == card.rank and c.suit is None), None)
        if match is None:
            missing.append(card)
        else:
            rest.remove(match)
    for card in plain:
        match = next((c for c in rest if c.rank == card.rank and c.suit is None), None)
        match = match or next((c for c in rest if c.rank == card.rank), None)
        if match is None:
            missing.append(card)
        else:
            rest.remove(match)
    return missing, rest


# --- shared pieces of the checks --------------------------------------------------------------
def _turn_melds(
    rules: Variant, style: PlayStyle, position: Position, going_out: bool
) -> tuple[list[Laid], list[Laid], Turn]:
    touched, untouched = side_melds(position.table, position.melds, rules)
    open_wild = any(m.kind == "wild" and len(m.cards) < CANASTA for m in touched + untouched)
    turn = Turn(
        rules,
        style,
        going_out=going_out,
        opening=not position.has_opened and bool(position.melds),
        wild_meld_open=open_wild and rules.has_wild_melds,
    )
    return touched, untouched, turn


def _melds_findings(touched: Sequence[Laid], turn: Turn) -> list[Finding]:
    findings = []
    for meld in touched:
        findings += meld_findings(meld, turn)
    return findings


def _minimum_findings(
    rules: Variant, style: PlayStyle, position: Position, touched: Sequence[Laid], top: Card | None = None
) -> tuple[list[Finding], int]:
    """The initial meld: the cards laid down this turn against the side's minimum."""
    minimum = rules.minimum_for(position.score)
    cards = [card for meld in touched for card in meld.added]
    if rules.initial_meld_from_hand:
        return _american_opening(rules, style, position, touched, top, minimum)
    count = cards_value(cards)
    note = ""
    if top is not None and not rules.top_counts_for_minimum:
        count -= top.value
        note = f" (the top {card_name(top)} does not count at this table)"
    elif top is not None:
        note = f" (the top {card_name(top)} counts; no other card from the pile does)"
    if count >= minimum:
        return [Finding("minimum", f"Your initial meld counts {count}{note}: your side needs {minimum}.", True)], count
    return [
        Finding(
            "below-minimum",
            f"Your initial meld counts {count}{note}, but your side needs {minimum} (its total is {position.score}): "
            f"add melds worth {minimum - count} more; bonuses never count.",
            False,
        )
    ], count


def _american_opening(
    rules: Variant, style: PlayStyle, position: Position, touched: Sequence[Laid], top: Card | None, minimum: int
) -> tuple[list[Finding], int]:
    """American: the minimum comes from the hand alone, with three matching naturals or a wild meld."""
    hand_parts = []
    for meld in touched:
        part = list(meld.added)
        if top is not None and meld.kind == "rank" and meld.rank == top.rank:
            part.remove(next(card for card in part if card.rank == top.rank))
            if len(part) < 3:
                continue  # the pair that takes the pile is no meld from the hand
        hand_parts.append(part)
    count = sum(cards_value(part) for part in hand_parts)
    sets = [p for p in hand_parts if _natural_set(p) or (len(p) >= 3 and all(card.is_wild for card in p))]
    splash = style.splash and any(
        len(p) >= CANASTA and (all(c.is_wild for c in p) or (len({c.rank for c in p}) == 1 and p[0].is_natural))
        for p in hand_parts
    )
    if splash:
        return [
            Finding("splash", "A natural or wild canasta from your hand opens with no minimum (a splash).", True)
        ], count
    found = []
    if count >= minimum:
        found.append(
            Finding("minimum", f"Your initial meld counts {count} from your hand: your side needs {minimum}.", True)
        )
    else:
        found.append(
            Finding(
                "below-minimum",
                f"Your initial meld counts {count} from your hand, but your side needs {minimum} (its total is "
                f"{position.score}): add melds from your hand worth {minimum - count} more; the top card never "
                "counts, and bonuses never count.",
                False,
            )
        )
    if style.needs_set_to_open:
        if sets:
            found.append(Finding("opening-set", f"It holds {codes(sets[0])} from your hand.", True))
        else:
            found.append(
                Finding(
                    "opening-needs-set",
                    "An initial meld must hold three matching natural cards, or three or more wild cards, "
                    "from your hand.",
                    False,
                )
            )
    return found, count


def _natural_set(cards: Sequence[Card]) -> bool:
    counts = Counter(card.rank for card in cards if card.is_natural)
    return any(count >= 3 for count in counts.values())


def canasta_findings(rules: Variant, melds: Sequence[Laid]) -> list[Finding]:
    """Going out: the side has, or completes this turn, the canastas its variant requires."""
    kinds = [meld.canasta_kind for meld in melds if meld.is_canasta]
    need = rules.canastas_to_go_out
    have = len(kinds)
    ok = have >= need
    wanted = f"{number(need)} canasta{'s' * (need != 1)}"
    if rules.tough_end:
        tough = max(2, need)
        if rules.sequences:
            ok, wanted = have >= tough, f"{number(tough)} canastas (tough end)"
        else:
            ok = have >= tough or (have >= need and "natural" in kinds)
            wanted = f"{number(tough)} canastas or a natural one (tough end)"
    if rules.going_out_needs_kind:
        kind = rules.going_out_needs_kind
        label = "escalera (sequence canasta)" if kind == "sequence" else f"{kind} canasta"
        ok = ok and kind in kinds
        wanted += f", one of them {with_article(label)}"
    counted = Counter(kinds)
    named = [with_article(f"{k} canasta") if n == 1 else f"{number(n)} {k} canastas" for k, n in counted.items()]
    listed = _and(named) if named else "none"
    if ok:
        return [Finding("canastas", f"To go out your side needs {wanted}; it has {listed}.", True)]
    return [
        Finding(
            "not-enough-canastas",
            f"To go out your side needs {wanted}; counting this turn it has {listed}. "
            "Keep at least one card after your discard until then.",
            False,
        )
    ]


def _red_threes_held(style: PlayStyle, cards: Iterable[Card]) -> list[Finding]:
    reds = [card for card in cards if card.is_red_three]
    if not reds or style.threes_held:
        return []
    return [
        Finding(
            "red-three-held",
            f"Lay out {codes(reds)} at once and draw a replacement: red threes are never kept in the hand.",
            None,
        )
    ]


def _left_after(position: Position, melded_from_hand: int, extra: int = 0) -> int:
    return len(position.hand) - melded_from_hand + extra


# --- meld -------------------------------------------------------------------------------------
def _check_meld(rules: Variant, style: PlayStyle, position: Position) -> Verdict:
    cards = [card for meld in position.melds for card in meld]
    left = len(position.hand) - len(cards)
    going_out = left <= 1
    touched, untouched, turn = _turn_melds(rules, style, position, going_out)
    findings = _melds_findings(touched, turn)
    count = None
    if not position.has_opened:
        found, count = _minimum_findings(rules, style, position, touched)
        findings += found
    if going_out:
        findings += _going_out_by_melding(rules, style, position, touched + untouched, left)
    else:
        findings.append(Finding("cards-left", f"You keep {number(left)} cards: discard one to end your turn.", None))
    findings += _red_threes_held(style, position.hand)
    return Verdict.from_findings(findings, count=count, minimum=rules.minimum_for(position.score))


def _going_out_by_melding(
    rules: Variant, style: PlayStyle, position: Position, melds: Sequence[Laid], left: int
) -> list[Finding]:
    """Melding down to one card or none is going out, with everything that asks."""
    findings = canasta_findings(rules, melds)
    if findings[0].kept is False:
        return [
            Finding(
                "must-keep-a-card",
                f"Melding these leaves you {number(left)} card{'s' * (left != 1)}, which is going out, and "
                f"{findings[0].text[0].lower()}{findings[0].text[1:]}",
                False,
            )
        ]
    if left == 0 and style.going_out_needs_discard:
        return findings + [
            Finding(
                "going-out-needs-discard",
                "You may not go out by melding every card: keep one to discard.",
                False,
            )
        ]
    if left == 0:
        return findings + [Finding("going-out", "Melding every card goes out, with no discard.", None)]
    return findings + [Finding("going-out", "You may then go out by discarding your last card.", None)]


# --- taking the pile --------------------------------------------------------------------------
def _check_pickup(rules: Variant, style: PlayStyle, position: Position) -> Verdict:
    minimum = rules.minimum_for(position.score)
    if position.melds:
        return _judge_pickup(rules, style, position)
    blocked = _pile_blocked(rules, position)
    if blocked:
        return Verdict.from_findings(blocked, minimum=minimum)
    failures = []
    for melds in pickup_candidates(rules, style, position):
        verdict = _judge_pickup(rules, style, replace(position, melds=melds))
        if verdict.legal:
            melds = _trim(rules, style, position, melds)
            verdict = _judge_pickup(rules, style, replace(position, melds=melds))
            shown = "; ".join(codes(meld) for meld in melds)
            return replace(verdict, reasons=(f"Yes: meld {shown} and take the pile.", *verdict.reasons), how=melds)
        failures.append((len(verdict.problems), -(verdict.count or 0), len(failures), melds, verdict))
    if not failures:
        top = position.pile_top
        verdict = _judge_pickup(rules, style, replace(position, melds=((top,),)))
        return replace(verdict, reasons=("No way to take the pile with this hand.", *verdict.reasons))
    *_, melds, verdict = min(failures)
    pile_rules = [v for v in verdict.problems if v.code.startswith(("pickup", "pile", "one-card", "top-"))]
    if pile_rules:
        verdict = replace(verdict, reasons=tuple(v.message for v in pile_rules), problems=tuple(pile_rules))
    elif verdict.count is not None:
        shown = "; ".join(codes(meld) for meld in melds)
        lead = f"The most you can lay down with the top {card_name(position.pile_top)} is {shown}."
        verdict = replace(verdict, reasons=(lead, *verdict.reasons))
    return replace(verdict, reasons=("No way to take the pile with this hand.", *verdict.reasons))


def _pile_blocked(rules: Variant, position: Position) -> list[Finding]:
    """The pile cannot be taken at all: its top card, or the one-card rule."""
    top = position.pile_top
    found = []
    if top.is_wild:
        found.append(
            Finding(
                "pile-top-wild", f"You can never take the pile while a wild card ({card_name(top)}) is on top.", False
            )
        )
    elif top.is_three:
        what = "a black three (a stop card)" if top.is_black_three else "a red three"
        found.append(Finding("pile-top-three", f"You can never take the pile while {what} is on top.", False))
    if position.pile_size == 1 and len(position.hand) == 1:
        found.append(
            Finding(
                "one-card-pile",
                "With one card in your hand you may not take a pile of one card.",
                False,
            )
        )
    return found


def _frozen_because(rules: Variant, position: Position) -> list[str]:
    why = []
    if position.pile_frozen:
        why.append("it holds a wild card or a red three turned up at the start")
    if not position.has_opened:
        why.append("your side has not made its initial meld")
    if rules.pile_always_frozen:
        why.append("your table plays it always frozen")
    return why


def _judge_pickup(rules: Variant, style: PlayStyle, position: Position) -> Verdict:
    top = position.pile_top
    minimum = rules.minimum_for(position.score)
    findings = _pile_blocked(rules, position)
    touched, untouched, turn = _turn_melds(rules, style, position, going_out=False)
    findings += _top_meld_findings(rules, style, position, touched)
    findings += _melds_findings(touched, turn)
    count = None
    if not position.has_opened:
        found, count = _minimum_findings(rules, style, position, touched, top)
        findings += found
    melded_from_hand = sum(len(meld) for meld in position.melds) - 1
    if position.pile_size is not None:
        left = _left_after(position, melded_from_hand, position.pile_size - 1)
        if left <= 1:
            findings += _going_out_by_melding(rules, style, position, touched + untouched, left)
    if (
        position.stock_empty
        and not _frozen_because(rules, position)
        and any(m.kind == "rank" and m.rank == top.rank and not m.is_new for m in touched)
    ):
        findings.append(
            Finding("must-take", "With the stock gone you must take a discard that goes on one of your melds.", None)
        )
    findings += _red_threes_held(style, position.hand)
    return Verdict.from_findings(findings, count=count, minimum=minimum)


def _top_meld_findings(rules: Variant, style: PlayStyle, position: Position, touched: Sequence[Laid]) -> list[Finding]:
    """How the top card is melded, against the ways the pile may be taken (RULES.md §5 "Taking the pile")."""
    top = position.pile_top
    if not top.is_natural:
        return []
    name, names = NAMES[top.rank], plural(NAMES[top.rank])
    meld = next((m for m in touched if m.kind == "rank" and m.rank == top.rank), None)
    in_run = any(m.kind == "run" and any(card.rank == top.rank for card in m.added) for m in touched)
    if meld is None:
        if in_run:
            return [Finding("top-in-sequence", "The top card never starts or extends a sequence.", False)]
        return [Finding("top-not-melded", f"To take the pile you must meld the top {name} now.", False)]
    part = list(meld.added)
    part.remove(next(card for card in part if card.rank == top.rank))
    naturals = [card for card in part if card.is_natural]
    wilds = [card for card in part if card.is_wild]
    held = [card for card in position.hand if card.rank == top.rank] + [card for card in position.hand if card.is_wild]
    frozen = _frozen_because(rules, position) if not style.pickup_pair_only else ["you always need a pair"]
    canasta = len(meld.before) >= CANASTA
    found = []
    if style.pickup_blocked_from and len(meld.before) >= style.pickup_blocked_from:
        return [
            Finding(
                "pickup-meld-full",
                f"Your {codes(meld.before)} has {number(len(meld.before))} cards: a pair and the top {name} would "
                f"pass {number(CANASTA)}, so you cannot take this pile.",
                False,
            )
        ]
    if canasta and not style.pickup_onto_canasta and style.pickup_onto_meld:
        return [
            Finding(
                "pickup-onto-canasta",
                f"The top {name} never goes onto a completed canasta in {rules.name}.",
                False,
            )
        ]
    pair = len(naturals) >= 2
    if pair:
        what = "frozen pile" if frozen and not style.pickup_pair_only else "pile"
        found.append(
            Finding("pickup-pair", f"Two natural {names} from your hand take the {what} with the top {name}.", True)
        )
        return found
    if frozen:
        why = "; ".join(frozen) if not style.pickup_pair_only else ""
        lead = f"The pile is frozen ({why})" if why else f"In {rules.name} the pile is only taken with a natural pair"
        return [
            Finding(
                "pickup-needs-pair",
                f"{lead}: you need two natural {names} in your hand; you have {_held(held, names)}.",
                False,
            )
        ]
    onto_canasta_ok = not canasta or (style.pickup_onto_canasta and rules.pickup_onto_canasta)
    if naturals and wilds:
        if not (style.pickup_with_wild and rules.pickup_with_wild):
            where = f"in {rules.name}" if not style.pickup_with_wild else "at your table"
            found.append(
                Finding(
                    "pickup-with-wild-off",
                    f"One {name} and a wild card do not take the pile {where}: you need two natural {names}.",
                    False,
                )
            )
        elif not onto_canasta_ok:
            found.append(
                Finding(
                    "pickup-onto-canasta",
                    f"Your {names} are a completed canasta: at your table only two natural {names} "
                    "take the pile onto it.",
                    False,
                )
            )
        else:
            found.append(
                Finding(
                    "pickup-natural-wild",
                    f"One natural {name} and a wild card take the pile with the top {name}.",
                    True,
                )
            )
        return found
    if meld.before:
        if not style.pickup_onto_meld:
            found.append(
                Finding(
                    "pickup-needs-pair",
                    f"You need two natural {names} in your hand; you have {_held(held, names)}.",
                    False,
                )
            )
        elif not onto_canasta_ok:
            found.append(
                Finding(
                    "pickup-onto-canasta",
                    f"Your {names} are a completed canasta, and at your table the pile is not taken "
                    "just to add to one: "
                    f"you need two natural {names}.",
                    False,
                )
            )
        else:
            found.append(
                Finding(
                    "pickup-onto-meld",
                    f"The top {name} goes on your {codes(meld.before)}, so you may take the pile.",
                    True,
                )
            )
        return found
    ways = f"two natural {names}"
    if style.pickup_with_wild and rules.pickup_with_wild:
        ways += f", one {name} with a wild card"
    if style.pickup_onto_meld:
        ways += f", or a meld of {names} on the table"
    return [Finding("pickup-no-match", f"To take the pile you need {ways}; you have {_held(held, names)}.", False)]


def pickup_candidates(rules: Variant, style: PlayStyle, position: Position) -> Iterable[tuple[tuple[Card, ...], ...]]:
    """Ways to take the pile worth judging, simplest first (for ``how``)."""
    top = position.pile_top
    if not top.is_natural:
        return
    naturals = [card for card in position.hand if card.rank == top.rank]
    wilds = sorted((card for card in position.hand if card.is_wild), key=lambda card: card.value)
    on_table = any(meld_key(meld) == ("rank", top.rank) for meld in position.table)
    options = [tuple(naturals[:2])]
    if on_table:
        options.append(())
    if naturals and wilds:
        options.append((naturals[0], wilds[0]))
    options.append(tuple(naturals))
    room = rules.max_wilds
    options.append(tuple(naturals) + tuple(reversed(wilds))[:room])
    seen = set()
    for part in options:
        top_meld = (top, *part)
        if top_meld in seen:
            continue
        seen.add(top_meld)
        yield (top_meld,)
        if not position.has_opened:
            _, rest = take(position.hand, list(part))
            extras = best_melds(rules, style, rest, skip=top.rank)
            if extras:
                yield (top_meld, *extras)


def best_melds(
    rules: Variant, style: PlayStyle, cards: Sequence[Card], skip: str | None = None
) -> tuple[tuple[Card, ...], ...]:
    """The melds worth the most that these cards make (one per rank), to reach a minimum."""
    by_rank: dict[str, list[Card]] = {}
    for card in cards:
        if card.is_natural and card.rank != skip:
            by_rank.setdefault(card.rank, []).append(card)
    wilds = sorted((card for card in cards if card.is_wild), key=lambda card: -card.value)
    cap = rules.meld_cap or 99
    sets = {rank: group[:cap] for rank, group in by_rank.items() if len(group) >= 3}
    pairs = [rank for rank, group in by_rank.items() if len(group) == 2 and rank not in style.pure_ranks]
    pairs.sort(key=lambda rank: -by_rank[rank][0].value)
    best: tuple[int, tuple[tuple[Card, ...], ...]] = (0, ())
    for size in range(0, min(len(pairs), len(wilds), 6) + 1):
        for chosen in combinations(pairs, size):
            melds = {rank: list(group) for rank, group in sets.items()}
            spare = list(wilds)
            for rank in chosen:
                melds[rank] = by_rank[rank] + [spare.pop(0)]
            for rank, meld in sorted(melds.items(), key=lambda item: -len(item[1])):
                naturals = sum(1 for card in meld if card.is_natural)
                limit = rules.max_wilds
                if rules.wilds_not_more_than_naturals:
                    limit = min(limit, naturals)
                if rank in style.pure_ranks:
                    limit = 0
                while spare and len(meld) - naturals < limit and len(meld) < cap:
                    meld.append(spare.pop(0))
            result = tuple(tuple(meld) for meld in melds.values())
            if rules.has_wild_melds and len(spare) >= WILD_MELD_CARDS[0]:
                result += (tuple(spare[: WILD_MELD_CARDS[1]]),)
            value = sum(cards_value(meld) for meld in result)
            if value > best[0]:
                best = (value, result)
    return best[1]


def _trim(rules: Variant, style: PlayStyle, position: Position, melds: tuple[tuple[Card, ...], ...]):
    """Drop extra melds (smallest first) that a legal way to take the pile does not need."""
    melds = list(melds)
    for meld in sorted(melds[1:], key=cards_value):
        fewer = [m for m in melds if m is not meld]
        if _judge_pickup(rules, style, replace(position, melds=tuple(fewer))).legal:
            melds = fewer
    return tuple(melds)


# --- going out --------------------------------------------------------------------------------
def _check_go_out(rules: Variant, style: PlayStyle, position: Position) -> Verdict:
    touched, untouched, turn = _turn_melds(rules, style, position, going_out=True)
    findings = _melds_findings(touched, turn)
    _, left = take(position.hand, [card for meld in position.melds for card in meld])
    if position.discard is not None:
        _, left = take(left, [position.discard])
    if left:
        reds = [card for card in left if card.is_red_three and not style.threes_held]
        others = [card for card in left if card not in reds]
        if others:
            findings.append(
                Finding(
                    "cards-left",
                    f"You still hold {codes(others)}: to go out every card is melded, with at most one discard.",
                    False,
                )
            )
        if reds:
            findings.append(
                Finding("red-three-held", f"Lay out {codes(reds)} first: red threes are never kept in the hand.", False)
            )
    findings += canasta_findings(rules, touched + untouched)
    findings += _going_out_discard(rules, style, position)
    count = None
    concealed = not position.has_opened and not position.took_pile
    if not position.has_opened:
        if concealed and style.concealed_needs_no_minimum:
            findings.append(
                Finding(
                    "concealed-no-minimum",
                    "Going out in one turn after drawing from the stock needs no initial-meld minimum.",
                    True,
                )
            )
            count = cards_value(card for meld in touched for card in meld.added)
        else:
            found, count = _minimum_findings(rules, style, position, touched)
            if position.took_pile and not rules.initial_meld_from_hand:
                found = [
                    replace(
                        f,
                        text=f.text + " Only your hand cards and the top card count: the rest of the pile never does.",
                    )
                    for f in found
                ]
            findings += found
    if concealed and rules.concealed is not None and not any(f.kept is False for f in findings):
        findings.append(
            Finding(
                "concealed",
                f"Your side had not melded, so this is going out concealed: {rules.going_out + rules.concealed} "
                f"for going out instead of {rules.going_out}.",
                None,
            )
        )
    elif (
        position.has_opened
        and rules.players > 2  # playing alone, melds on the table are your own
        and rules.concealed is not None
        and not any(not m.is_new for m in touched)
        and not any(f.kept is False for f in findings)
    ):
        findings.append(
            Finding(
                "maybe-concealed",
                "If you had melded nothing before and your partner made every meld on the table, "
                "this is going out concealed.",
                None,
            )
        )
    return Verdict.from_findings(findings, count=count, minimum=rules.minimum_for(position.score))


def _going_out_discard(rules: Variant, style: PlayStyle, position: Position) -> list[Finding]:
    card = position.discard
    if card is None:
        if style.going_out_needs_discard:
            return [Finding("going-out-needs-discard", "To go out you must keep a card for a last discard.", False)]
        return [Finding("no-discard", "You may go out with or without a last discard.", None)]
    if card.is_red_three and not style.threes_held:
        return [Finding("discard-red-three", "A red three is laid out, never discarded.", False)]
    if style.discard_only_going_out and (card.is_wild or card.is_three):
        return [
            Finding("discard-going-out", f"Going out, your last discard may be {with_article(card_name(card))}.", True)
        ]
    return [Finding("discard", f"You end by discarding {with_article(card_name(card))}.", True)]


# --- discarding -------------------------------------------------------------------------------
def _check_discard(rules: Variant, style: PlayStyle, position: Position) -> Verdict:
    card = position.discard
    name = card_name(card)
    findings: list[Finding] = []
    last = len(position.hand) == 1
    if card.is_red_three and not style.threes_held:
        findings.append(
            Finding(
                "discard-red-three",
                f"{codes([card])} is a red three: lay it out and draw a replacement, never discard it.",
                False,
            )
        )
    elif style.discard_only_going_out and (card.is_wild or card.is_three) and not last:
        all_wild = card.is_wild and all(c.is_wild for c in position.hand)
        if all_wild:
            findings.append(
                Finding(
                    "discard-all-wild",
                    "Your hand is all wild cards, so you may discard one; the next player cannot take it.",
                    True,
                )
            )
        else:
            what = "wild card" if card.is_wild else "three"
            findings.append(
                Finding(
                    f"discard-{'wild' if card.is_wild else 'three'}",
                    f"You may discard {with_article(what)} only as your last card, going out.",
                    False,
                )
            )
    else:
        findings.append(Finding("discard", f"You may discard {with_article(name)}.", True))
    if style.empty_pile_guarded and card.rank in style.empty_pile_guarded and not last:
        others = [c for c in position.hand if c.is_natural and c.rank not in style.empty_pile_guarded]
        if others and position.pile_size == 0:
            findings.append(
                Finding(
                    "discard-guarded-on-empty-pile",
                    f"On an empty pile you may not discard {with_article(name)} while you hold another natural card "
                    f"({codes(others[:3])}).",
                    False,
                )
            )
        elif others and position.pile_top is None and position.pile_size is None:
            findings.append(
                Finding(
                    "discard-guarded-if-empty",
                    f"If the pile is empty, you may not discard {with_article(name)} while you hold "
                    f"{codes(others[:3])}.",
                    None,
                )
            )
    if last:
        findings += [
            replace(f, text=f"Discarding your last card goes out. {f.text}") if f.code == "canastas" else f
            for f in canasta_findings(rules, [_laid_from_table(meld) for meld in position.table])
        ]
    findings += _discard_effects(rules, style, position)
    return Verdict.from_findings(findings, minimum=rules.minimum_for(position.score))


def _discard_effects(rules: Variant, style: PlayStyle, position: Position) -> list[Finding]:
    """What the discard does to the pile for the next player."""
    card = position.discard
    if card.is_red_three and not style.threes_held:
        return []
    if card.is_wild:
        return [
            Finding(
                "freezes",
                f"A discarded {card_name(card)} freezes the pile: after it, only a natural pair takes it.",
                None,
            )
        ]
    if card.is_black_three:
        if rules.black_three_freezes:
            return [
                Finding(
                    "freezes",
                    "A discarded black three freezes the pile at your table, and stops the next player.",
                    None,
                )
            ]
        return [
            Finding("stops", "A black three stops the next player from taking the pile; it does not freeze it.", None)
        ]
    if card.is_three:
        return []
    return [Finding("next-player", f"The next player may take the pile only by melding the {card_name(card)}.", None)]
