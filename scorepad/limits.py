"""What one request may ask for: the caps, and the walk that holds a JSON body to them.

Each cap is far beyond a real game and stated in ``docs/api.md`` and ``openapi.json``, so no
request can make the server spend time or memory out of proportion to a game (a body of a
megabyte could otherwise hold 40,000 empty hands, or an ``options`` object nested thousands
deep). A body over a cap is refused with 413, and text no one types (a control character, a
lone surrogate) with 422; each problem names the field and the cap or the rule. The walk
uses a list, not recursion, so no nesting can exhaust the stack, and it lists at most
``PROBLEMS`` problems: the rest are counted in one last line.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .canasta import InvalidError, Violation
from .canasta.text import fit_characters, t, unfit_text

DEPTH = 10  # lists and objects inside one another; a score request needs 5 (body, hands, a hand, entries, an entry)
TEXT = 100  # characters in any string or field name; the longest id or card is under 25
FIELDS = 64  # fields of any one object; an entry has 15, the house rules about 20
ITEMS = 1000  # items of any one list: hands in a score request, the longest match a hand limit allows
CARDS = 220  # cards in one check: hand, melds and table together; four decks with three jokers each (52 + 3)
PROBLEMS = 100  # problems listed in one refusal; the rest are counted
# Translators: stands for a field's name in a refusal that is about the whole request body.
BODY = t("The body")


class OverLimit(InvalidError):
    """A request beyond one of the caps: answered 413, every problem with its field."""


def check_json(body: Any) -> None:
    """Hold a parsed JSON body to the caps on nesting, text, fields and items.

    :raises OverLimit: when something is beyond a cap (the problems name each cap).
    :raises InvalidError: when a string holds a control character or a lone surrogate.
    """
    problems: list[Violation] = []
    more = 0
    for problem in _walk(body):
        if len(problems) < PROBLEMS:
            problems.append(problem)
        else:
            more += 1
    if not problems:
        return
    if more:
        # Translators: the last line of a long refusal; %(count)s problems were not listed.
        problems.append(Violation("more-problems", t("… and %(count)s more problems like these.", count=more)))
    over = any(p.code in ("too-deep", "too-many-fields", "too-many-items", "too-long") for p in problems)
    raise (OverLimit if over else InvalidError)(problems)


def _walk(body: Any) -> Iterator[Violation]:
    """Every problem of ``body`` with the caps, level by level, without recursion.

    Every request pays for this walk, so it makes no path until it finds a problem: each level's
    lists and objects are counted, and the strings and field names of the level are measured and
    searched at once, one by one (to say where) only when that finds something.
    """
    paths: dict[int, str] = {}  # where each list and object sits, filled in at the first problem
    refused: set[int] = set()  # the lists and objects beyond a cap: nothing inside them is looked at
    parents: list[Any] = []
    level: list[Any] = [body]
    for depth in range(DEPTH + 1):
        inner: list[Any] = []
        texts: list[str] = []
        for value in level:
            kind = type(value)
            if kind is str:
                texts.append(value)
            elif kind is dict or kind is list:
                over = _over(value, depth, body, paths)
                if over is not None:
                    refused.add(id(value))
                    yield over
                elif kind is dict:
                    texts.extend(value)
                    inner.extend(value.values())
                else:
                    inner.extend(value)
        if texts and (max(map(len, texts)) > TEXT or not fit_characters("".join(texts))):
            yield from _unfit(parents, level, refused, _paths(body, paths))
        if not inner:
            return
        parents, level = level, inner


def _unfit(parents: list[Any], level: list[Any], refused: set[int], paths: dict[int, str]) -> Iterator[Violation]:
    """The problem of each string of ``level`` (found in ``parents``) and each field name of its objects."""
    if not parents and type(level[0]) is str:  # the body itself is a string
        yield from _text(level[0], "")
    for parent in parents:
        if (type(parent) is dict or type(parent) is list) and id(parent) not in refused:
            items = parent.items() if type(parent) is dict else enumerate(parent)
            for key, item in items:
                if type(item) is str:
                    yield from _text(item, _inner(paths[id(parent)], key))
    for value in level:
        if type(value) is dict and id(value) not in refused:
            for key in value:
                if unfit_text(key, "", TEXT) is not None:
                    yield from _text(key, _inner(paths[id(value)], key))


def _paths(body: Any, paths: dict[int, str]) -> dict[int, str]:
    """Where each list and object of ``body`` sits (``hands[0].entries``), by identity, found once into ``paths``."""
    if paths:
        return paths
    stack: list[tuple[Any, str, int]] = [(body, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        if type(value) is dict or type(value) is list:
            paths[id(value)] = where
            if depth < DEPTH and len(value) <= (FIELDS if type(value) is dict else ITEMS):  # else not looked in
                items = value.items() if type(value) is dict else enumerate(value)
                stack.extend((item, _inner(where, key), depth + 1) for key, item in items)
    return paths


def _inner(where: str, key: str | int) -> str:
    """The path of item ``key`` of what sits at ``where``; a field name no one types shown escaped and cut short."""
    if type(key) is int:
        return f"{where}[{key}]"
    name = key if unfit_text(key, "", TEXT) is None else _escaped(key)
    return f"{where}.{name}" if where else name


def _over(value: dict[str, Any] | list[Any], depth: int, body: Any, paths: dict[int, str]) -> Violation | None:
    """The cap a list or an object at ``depth`` of ``body`` is beyond (nesting, fields, items), or None."""
    too_many = len(value) > (FIELDS if type(value) is dict else ITEMS)
    if depth < DEPTH and not too_many:
        return None
    where = _paths(body, paths)[id(value)]
    field = where or BODY
    if depth >= DEPTH:
        return too_deep(where)
    if type(value) is dict:
        message = t(
            "%(field)s has %(count)s fields; at most %(most)s are taken.", field=field, count=len(value), most=FIELDS
        )
        return Violation("too-many-fields", message, where)
    message = t("%(field)s has %(count)s items; at most %(most)s are taken.", field=field, count=len(value), most=ITEMS)
    return Violation("too-many-items", message, where)


def too_deep(where: str = "") -> Violation:
    """The nesting cap, for ``where`` (the whole body when empty): also what a body too deep for
    the JSON reader itself gets, so thousands of levels are refused as the cap, not as bad JSON."""
    # Translators: %(field)s is where in the request; %(depth)s is the most lists and objects inside one another.
    message = t("%(field)s nests lists and objects more than %(depth)s deep.", field=where or BODY, depth=DEPTH)
    return Violation("too-deep", message, where)


def _escaped(key: str) -> str:
    """A field name as ASCII (``\\ud800``, ``\\n``), at most 40 characters of it."""
    shown = ascii(key)[1:-1]
    return shown if len(shown) <= 40 else shown[:40] + "…"


def _text(value: str, where: str) -> Iterator[Violation]:
    problem = unfit_text(value, where or BODY, TEXT)
    if problem is not None:
        yield Violation("too-long" if len(value) > TEXT else "unfit-text", problem, where)


def count_cards(body: dict[str, Any]) -> None:
    """Hold a check request to ``CARDS`` cards in all (its lists already held to the caps).

    :raises OverLimit: naming the cap, with ``hand`` as the field when the hand alone is over.
    """
    lists = [body.get("hand"), *_groups(body.get("melds")), *_groups(body.get("table"))]
    count = sum(len(cards) for cards in lists if isinstance(cards, list))
    if count > CARDS:
        field = "hand" if isinstance(body.get("hand"), list) and len(body["hand"]) > CARDS else ""
        message = t(
            "A check names at most %(most)s cards in all (four decks with three jokers each); this "
            "one names %(count)s.",
            most=CARDS,
            count=count,
        )
        raise OverLimit([Violation("too-many-cards", message, field)])


def _groups(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
