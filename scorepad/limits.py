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
    if _fits(body):
        return
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
        # Translators: the last line of a long refusal; {count} problems were not listed.
        problems.append(Violation("more-problems", t("… and {count} more problems like these.", count=more)))
    over = any(p.code in ("too-deep", "too-many-fields", "too-many-items", "too-long") for p in problems)
    raise (OverLimit if over else InvalidError)(problems)


def _fits(body: Any) -> bool:
    """True when ``body`` is within every cap, found quickly: level by level, no paths.

    Every request pays for this, so it makes no path and no message: the containers of each
    level are counted, and the strings and field names of the whole body are measured and
    searched at once. Only a body that does not fit is walked again by :func:`_walk`, which
    says where and why.
    """
    texts: list[str] = []
    level: list[Any] | None = [body]
    for _depth in range(DEPTH):
        level = _inside(level, texts)
        if not level:
            break
    if level is None or any(type(value) is dict or type(value) is list for value in level):
        return False  # a list or an object beyond a cap, or DEPTH deep
    texts.extend(value for value in level if type(value) is str)
    return not texts or (max(map(len, texts)) <= TEXT and fit_characters("".join(texts)))


def _inside(level: list[Any], texts: list[str]) -> list[Any] | None:
    """The values one level further in, the strings and field names of this one put in ``texts``.

    None when a list or an object of this level is beyond its cap.
    """
    inner: list[Any] = []
    for value in level:
        kind = type(value)
        if kind is dict:
            if len(value) > FIELDS:
                return None
            texts.extend(value)
            inner.extend(value.values())
        elif kind is list:
            if len(value) > ITEMS:
                return None
            inner.extend(value)
        elif kind is str:
            texts.append(value)
    return inner


def _walk(body: Any) -> Iterator[Violation]:
    """Every problem of ``body`` with the caps, depth first, without recursion."""
    stack: list[tuple[Any, str, int]] = [(body, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        if isinstance(value, str):
            yield from _text(value, where)
        elif isinstance(value, dict | list):
            over = _over(value, where, depth)
            if over is not None:
                yield over  # and nothing inside it is looked at
            elif isinstance(value, dict):
                for key, item in reversed(value.items()):
                    fit = unfit_text(key, "", TEXT) is None
                    # A field name no one types is shown escaped and cut short, never echoed as sent.
                    name = key if fit else _escaped(key)
                    inner = f"{where}.{name}" if where else name
                    if not fit:
                        yield from _text(key, inner)
                    stack.append((item, inner, depth + 1))
            else:
                stack.extend((item, f"{where}[{index}]", depth + 1) for index, item in reversed(list(enumerate(value))))


def _over(value: dict[str, Any] | list[Any], where: str, depth: int) -> Violation | None:
    """The cap a list or an object at ``depth`` is beyond (nesting, fields, items), or None."""
    field = where or BODY
    if depth >= DEPTH:
        return too_deep(where)
    if isinstance(value, dict) and len(value) > FIELDS:
        message = t("{field} has {count} fields; at most {most} are taken.", field=field, count=len(value), most=FIELDS)
        return Violation("too-many-fields", message, where)
    if isinstance(value, list) and len(value) > ITEMS:
        message = t("{field} has {count} items; at most {most} are taken.", field=field, count=len(value), most=ITEMS)
        return Violation("too-many-items", message, where)
    return None


def too_deep(where: str = "") -> Violation:
    """The nesting cap, for ``where`` (the whole body when empty): also what a body too deep for
    the JSON reader itself gets, so thousands of levels are refused as the cap, not as bad JSON."""
    # Translators: {field} is where in the request; {depth} is the most lists and objects inside one another.
    message = t("{field} nests lists and objects more than {depth} deep.", field=where or BODY, depth=DEPTH)
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
            "A check names at most {most} cards in all (four decks with three jokers each); this one names {count}.",
            most=CARDS,
            count=count,
        )
        raise OverLimit([Violation("too-many-cards", message, field)])


def _groups(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
