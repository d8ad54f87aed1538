"""A posted hand read for the live preview, without building a form.

The preview fires on every pause while a player types, and answers only figures and the
problems next to each box: it needs the boxes' values and messages, never their HTML. Building
the hand form (three WTForms classes and ~45 bound fields a request) was most of its cost, so
:class:`PostedHand` reads the same boxes (:func:`~.hand.side_boxes`) straight from the posted
data, each number through :func:`~.boxes.read_count` as the form's boxes are, and hands them to
the core's entry reader (:func:`~.hand.read_hand`). Its problems go where the form's go
(:class:`~.hand.HandProblems`), so the preview's fragment is the one the form would give. Only
the full save builds and renders the form.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import current_app, g, request
from flask_wtf.csrf import generate_csrf, validate_csrf
from markupsafe import Markup
from werkzeug.datastructures import ImmutableMultiDict
from wtforms.validators import ValidationError

from .. import canasta
from .boxes import TOKEN_REFUSED, WTFormsMessages, html_params, read_count
from .hand import HandProblems, partnership_choices, read_hand, side_boxes

NOT_A_CHOICE = "Not a valid choice."  # WTForms' message, in WTForms' catalogue (not ours)
FALSE_VALUES = ("false", "")  # what a yes/no box sent as "no" (WTForms' BooleanField reads the same)


class PostedBox:
    """One box as posted: its id on the page and what is wrong with it."""

    __slots__ = ("errors", "id")

    def __init__(self, box_id: str, errors: list[str]) -> None:
        self.id = box_id
        self.errors = errors


def posted_data() -> dict[str, Any]:
    """The posted boxes, each its first value as the form reads it (a JSON body is read as its object).

    A plain dict: Werkzeug's ``MultiDict.get`` raises and catches an exception for every absent
    box, and most of a hand's ~60 boxes are absent.
    """
    if request.form:
        return dict(request.form.items())
    if request.is_json:
        return dict(ImmutableMultiDict(request.get_json()).items())
    return {}


CSRF_FIELD = "csrf_token"  # Flask-WTF's default (WTF_CSRF_FIELD_NAME), which scorepad keeps


def csrf_enabled() -> bool:
    return bool(current_app.config.get("WTF_CSRF_ENABLED", True))


def hidden_input(name: str, value: str, **attributes: Any) -> Markup:
    """A hidden box as WTForms' ``HiddenField`` writes it (its id is its name)."""
    return Markup(f"<input {html_params(id=name, name=name, type='hidden', value=value, **attributes)}>")


def token_problem(data: Any) -> str | None:
    """Why the posted form token is refused (as a form of typed data checks it), or None."""
    if not csrf_enabled() or g.get("csrf_valid", False):
        return None
    try:
        validate_csrf(data.get(CSRF_FIELD))
    except ValidationError as error:
        return str(error.args[0]) if error.args else ""
    return None


class PostedHand(HandProblems):
    """A hand's boxes read from the request: values, problems and the hand the core reads."""

    def __init__(self, variant: canasta.Variant, side_names: Sequence[str], players: Sequence[int]) -> None:
        self.variant = variant
        self.side_names = tuple(side_names)
        self.problems: list[str] = []
        self.side_problems: dict[int, list[str]] = {index: [] for index in range(variant.sides)}
        self.low_melds: list[str] = []
        data = posted_data()
        boxes = side_boxes(variant, max(players))
        self.values: list[dict[str, Any]] = []
        self.boxes: list[dict[str, PostedBox]] = []
        for index in range(variant.sides):
            values, read = self._side(data, f"sides-{index}-", boxes)
            self.values.append(values)
            self.boxes.append(read)
        self.partnership: PostedBox | None = None
        self.partnership_data: str | None = None
        if variant.temporary_partnerships:
            self.partnership_data = str(data.get("partnership", ""))
            choices = {choice.value for choice in partnership_choices(self.side_names, variant.sides)}
            self.partnership = PostedBox("partnership", [] if self.partnership_data in choices else [not_a_choice()])
        problem = token_problem(data)
        self.token_refused = problem is not None
        self.token = PostedBox("csrf_token", [] if problem is None else [problem])
        if self.token_refused:
            self.problems.insert(0, TOKEN_REFUSED)

    @staticmethod
    def _side(data: Any, prefix: str, boxes: list[Any]) -> tuple[dict[str, Any], dict[str, PostedBox]]:
        values: dict[str, Any] = {}
        read: dict[str, PostedBox] = {}
        for box in boxes:
            name = prefix + box.name
            errors: list[str] = []
            typed = data.get(name)
            if box.kind == "count":
                values[box.name], problem = read_count(typed, box.label, box.high, box.step)
                if problem is not None:
                    errors.append(problem)
            elif box.kind == "flag":
                values[box.name] = typed is not None and typed not in FALSE_VALUES
            else:
                values[box.name] = "" if typed is None else str(typed)
                if values[box.name] not in {choice.value for choice in box.choices}:
                    errors.append(not_a_choice())
            read[box.name] = PostedBox(name, errors)
        return values, read

    def validate(self) -> bool:
        """Whether every box was read and the token passed (the form's ``validate``)."""
        return not self.token_refused and not any(box.errors for box in self._read_boxes())

    def _read_boxes(self) -> list[PostedBox]:
        partnership = [self.partnership] if self.partnership is not None else []
        return partnership + [box for side in self.boxes for box in side.values()]

    def to_hand(self) -> canasta.Hand:
        """The hand as the core reads it.

        :raises InvalidError: for input the core's reader refuses (fields as ``entries[i]...``).
        """
        return read_hand(self.variant, self.values, self.partnership_data)

    @property
    def side_blocks(self) -> list[tuple[int, str, list[PostedBox]]]:
        """Each side's index, name and boxes, in sheet order (as the form's ``side_blocks``)."""
        return [(index, self.side_names[index], list(side.values())) for index, side in enumerate(self.boxes)]

    def csrf_token(self, **attributes: Any) -> Markup:
        """A fresh form token's hidden box, as the form's token field writes it."""
        return hidden_input(CSRF_FIELD, generate_csrf(), **attributes)

    # HandProblems' view of the boxes.
    def top_boxes(self) -> list[Any]:
        return ([self.partnership] if self.partnership is not None else []) + [self.token]

    def partnership_box(self) -> Any | None:
        return self.partnership

    def boxes_of(self, index: int) -> Mapping[str, Any]:
        return self.boxes[index]


def not_a_choice() -> str:
    """WTForms' own message for a choice it does not offer, from its catalogue (as the form says it)."""
    return WTFormsMessages().gettext(NOT_A_CHOICE)
