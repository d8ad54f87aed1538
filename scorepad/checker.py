"""The "Can I?" pages: a player taps in the cards in question and gets the rules checker's verdict.

Everything is a plain form first: the cards live in hidden fields of card codes, and every tap is
a submit button that posts the form back with one change made (add a card, start a meld, choose
what to ask). htmx only makes the same buttons post to ``/check/verdict`` and swap the board in
place. The board and its taps are ``board.py``; the verdict comes from ``canasta.plays``; this
module reads the request, words the answer and renders.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from flask import Blueprint, g, render_template, request, url_for

from . import canasta
from .board import ASKS, N_, SUIT_SYMBOLS, Board, BoardProblem, board_fields, play_options
from .canasta.cards import RED_SUITS, Card, parse_card
from .canasta.plays import Position, Verdict, check
from .canasta.violations import InvalidError
from .i18n import gettext as _
from .i18n import lazy_gettext, number, pgettext, side_name, text
from .security import csrf

bp = Blueprint("checker", __name__)
# The checker only reads: its POSTs carry the board from tap to tap and store nothing, like
# the API's /check. A form token would only add a way to lose the board, so it carries none.
csrf.exempt(bp)

# The questions, worded as the table asks them; the keys are the API's actions.
ACTIONS = {
    "meld": lazy_gettext("Meld these?"),
    "pickup": lazy_gettext("Take the pile?"),
    "go_out": lazy_gettext("Go out?"),
    "discard": lazy_gettext("Discard?"),
}
TARGETS = {
    "hand": lazy_gettext("Hand"),
    "melds": lazy_gettext("Melds"),
    "table": lazy_gettext("On the table"),
    "top": lazy_gettext("Top of pile"),
    "discard": lazy_gettext("Discard"),
}
FIELD_LABELS = {
    "hand": lazy_gettext("Hand"),
    "melds": lazy_gettext("Melds"),
    "table": lazy_gettext("On the table"),
    "pile": lazy_gettext("Top of pile"),
    "discard": lazy_gettext("Discard"),
    "score": lazy_gettext("Score"),
    "variant": lazy_gettext("Variant"),
    "options": lazy_gettext("House rules"),
    "initial_meld_done": lazy_gettext("On the table"),
}
SUITS = {"": lazy_gettext("Any"), **SUIT_SYMBOLS}
PAD = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "2", "JK")
THREES = ("3H", "3D", "3S", "3C")


NO_MELD = lazy_gettext(
    "No meld can be made from these cards: a meld needs at least three cards of one rank"
    " (wild cards may stand in for some)."
)


@dataclass(frozen=True)
class Answer:
    """The checker's answer, shown under the board: a prompt, the errors, or the verdict."""

    prompt: str | None = None
    errors: tuple[tuple[str, str], ...] = ()
    verdict: Verdict | None = None
    no: tuple[str, ...] = ()  # a "No" the page words itself (the core was given nothing to judge)


def answer(board: Board, rules: canasta.Variant | None) -> Answer:
    """Ask the rules core about the board; errors come back naming the field."""
    if board.problems:
        return Answer(errors=tuple(("", worded(problem)) for problem in board.problems))
    if rules is None:
        return Answer(errors=((_("Variant"), _("Choose the variant you play.")),))
    prompt = board.missing()
    if prompt:
        return Answer(prompt=_(prompt))
    if board.action == "meld" and board.hand and not board.chosen_melds(rules):
        # "Meld these?" with cards that make no meld at all: a No, with its reason (issue 29).
        return Answer(no=(str(NO_MELD),))
    try:
        position = Position.from_dict(board.request(rules))
        if board.action == "meld" and not board.all_cards:
            position = replace(position, whole_hand=False)  # the cards shown, not the whole hand
        return Answer(verdict=check(rules, position))
    except InvalidError as error:
        return Answer(errors=tuple((_label(v.field), v.message) for v in error.violations))


def worded(problem: BoardProblem) -> str:
    """A problem of the board in the page's language, its numbers written as the language writes them."""
    values = {name: number(value) if isinstance(value, int) else value for name, value in problem.values}
    return _(problem.message, **values)


def _label(field_path: str) -> str:
    return FIELD_LABELS.get(field_path.partition("[")[0].partition(".")[0], "")


def board_rules(board: Board) -> tuple[canasta.Variant | None, dict[str, Any]]:
    """The rules in force: the linked match's, or the chosen variant with its house rules."""
    context: dict[str, Any] = {}
    if board.match:
        found = _match_rules(board)
        if found is not None:
            return found
        board.match = ""
    try:
        return canasta.rules_for(board.variant, board.options), context
    except InvalidError as error:
        board.problems += [
            BoardProblem(
                N_("%(box)s: %(problem)s"), (("box", _label(v.field) or _("Variant")), ("problem", text(v.message)))
            )
            for v in error.violations
        ]
        bad = set()
        for violation in error.violations:
            where, _dot, option_id = violation.field.partition(".")
            if where == "options" and option_id:
                bad.add(option_id)
                board.option_errors[option_id] = violation.message
        board.options = {key: value for key, value in board.options.items() if key not in bad}
        board.rules_open = board.rules_open or bool(bad)
        try:
            return canasta.rules_for(board.variant, board.options), context
        except InvalidError:
            pass
        try:
            return canasta.find_variant(board.variant), context
        except InvalidError:
            board.variant = canasta.DEFAULT_VARIANT
            return canasta.VARIANTS[canasta.DEFAULT_VARIANT], context


@dataclass(frozen=True)
class HouseRule:
    """One house rule as the page shows it: a checkbox or a list of values."""

    id: str
    label: str
    help: str
    is_bool: bool
    choices: tuple[tuple[str, str], ...]  # (value, what a player reads)
    value: str
    changed: bool
    error: str | None
    value_label: str = ""  # the value in force, as a player reads it


def house_rules(board: Board, rules: canasta.Variant) -> list[HouseRule]:
    """The play-changing house rules with their values in force (``True`` / ``False`` for yes/no)."""
    try:
        preset = canasta.find_variant(rules.key)
    except InvalidError:
        preset = rules
    shown = []
    for option_id in play_options(rules):
        spec = rules.option_spec(option_id)
        if spec.kind is bool:
            choices: tuple[Any, ...] = (False, True)
        elif spec.choices is not None:
            choices = spec.choices
        else:
            choices = tuple(range(spec.low or 0, (spec.high or 0) + 1))
        value = getattr(rules, option_id)
        shown.append(
            HouseRule(
                option_id,
                spec.label,
                spec.help,
                spec.kind is bool,
                tuple((str(choice), spec.choice_label(choice)) for choice in choices),
                str(value),
                value != getattr(preset, option_id),
                board.option_errors.get(option_id),
                spec.choice_label(value),
            )
        )
    return shown


def _match_rules(board: Board) -> tuple[canasta.Variant, dict[str, Any]] | None:
    """A stored match's rules and the side's total; None when there is no such match."""
    try:
        from . import store
        from .db import get_db

        match, info = store.load_match(get_db(), board.match)
    except (ImportError, LookupError):
        return None
    side = board.side if 0 <= board.side < len(match.totals) else 0
    board.side, board.score, board.variant = side, match.totals[side], match.variant.key
    names = [side_name(getattr(s, "name", str(i)), match.variant.key, i) for i, s in enumerate(info.sides)]
    return match.variant, {"side_names": names, "match_url": url_for("matches.show", match_id=board.match)}


def render(page: bool) -> str:
    """Read the board, make the tap, judge it, and render the page or the board alone."""
    source = request.form if request.method == "POST" else request.args
    board = Board.from_form(source)
    board.apply(source.get("op", ""))
    rules, extra = board_rules(board)
    # Fourteen cards that make a special hand, asked as an ordinary "Go out?", are judged as the
    # special hand they are: the player need not find the toggle first (issue 29).
    offer = board.special_offer(rules)
    judged = replace(board, special=True) if offer is not None else board
    context = {
        "board": board,
        "rules": rules,
        "answer": answer(judged, rules),
        "targets": {key: TARGETS[key] for key in ASKS[board.action]},
        "actions": ACTIONS,
        "pad": PAD,
        "threes": THREES,
        "suits": SUITS if rules is not None and rules.has_sequences else {},
        "variants": canasta.VARIANTS,
        "ladder": rules.ladder if rules is not None else (),
        "minimum": rules.minimum_for(board.score) if rules is not None else None,  # the core's, not the template's
        "house_rules": house_rules(board, rules) if rules is not None else [],
        "wild_choices": board.wild_choices(rules),
        "has_special": rules is not None and bool(rules.special_hand_values),
        **extra,
    }
    g.here = board_address(board)  # where the language switch comes back to: this board, by GET
    return render_template("checker/check.html" if page else "checker/_board.html", **context)


@bp.route("/check", methods=["GET", "POST"])
def page() -> str:
    """The "Can I?" page; every tap without JavaScript posts here and comes back with the verdict."""
    return render(page=True)


@bp.post("/check/verdict")
def verdict() -> str:
    """The board and verdict alone, for htmx to swap in place."""
    return render(page=False)


def board_address(board: Board) -> str:
    """The page showing this board, as a link: its fields, every house rule and the total."""
    try:
        preset = canasta.find_variant(board.variant)
        changed = {key: value for key, value in board.options.items() if getattr(preset, key, None) != value}
    except InvalidError:
        changed = dict(board.options)
    fields = {**board_fields(board), "options": json.dumps(changed) if changed else ""}
    fields["score"] = board.score_typed if board.score_typed not in ("", "0") else ""
    blank = board_fields(Board(target=ASKS[board.action][0]))  # what an address may leave out
    given = {name: value for name, value in fields.items() if value and value != blank.get(name)}
    return url_for("checker.page", **given)


@bp.app_template_global()
def checker_fields(board: Board) -> dict[str, str]:
    return board_fields(board)


@bp.app_template_filter("card_label")
def card_label(code: str) -> str:
    """A card as the pad shows it: 10♥, K, JK as ★ Joker."""
    card = parse_card(code)
    if card.is_joker:
        return _("Joker")
    return _rank_letter(card.rank) + (SUITS.get(card.suit, "") if card.suit else "")


def _rank_letter(rank: str) -> str:
    """A court card or ace as the players' own decks print it (German: D for Dame, B for Bube)."""
    letters = {
        "A": pgettext("card rank", "A"),
        "K": pgettext("card rank", "K"),
        "Q": pgettext("card rank", "Q"),
        "J": pgettext("card rank", "J"),
    }
    return letters.get(rank, rank)


@bp.app_template_filter("card_colour")
def card_colour(card: Card | str) -> str:
    """``red`` for hearts and diamonds, else empty: the one place a page decides a card's colour.

    Takes a card, a card code (``10H``, ``JK``) or a suit letter (``H``; empty for any suit).
    """
    suit = card.suit if isinstance(card, Card) else card[-1:]
    return "red" if suit in RED_SUITS else ""
