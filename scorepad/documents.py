"""JSON documents: a scored match as the API answers it, exports it and imports it back.

One shape serves ``POST /api/v1/score`` (the scoring part), ``GET /api/v1/matches/<id>`` and
the JSON export (the whole document), so an exported match imports back unchanged. The
scores in a document are derived; on import only the facts (variant, options, sides, starting
totals, hands as ENTRY objects) are read and everything else is scored again.
"""

from __future__ import annotations

import re
import reprlib
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from . import canasta
from .canasta import InvalidError, Match, Violation
from .canasta.match import settlement_for
from .canasta.text import t
from .records import FiguredMatch, MatchInfo, Side

FORMAT = "scorepad-match"
FORMAT_VERSION = 1
ALL_FORMAT = "scorepad-matches"
# What ``store.new_token()`` makes: 128 random bits as 32 lowercase hex digits. Only such an id
# is kept when a match is imported; any other is a name someone could guess.
WELL_FORMED_ID = re.compile(r"[0-9a-f]{32}")
# What a name or title read from a file may not hold: control characters, line and paragraph
# separators, and lone surrogates (which are not text at all and cannot be stored).
UNREADABLE = frozenset({"Cc", "Cs", "Zl", "Zp"})
# Every character of those categories (Cc: C0, DEL and C1; Cs: the surrogates; Zl, Zp: one each),
# as one search that runs in C over any length of text (tests/test_documents.py holds them equal).
UNREADABLE_CHARACTER = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029]")
MAX_TITLE = 200


def is_well_formed_id(match_id: str) -> bool:
    """Whether an id looks like one scorepad made: 32 lowercase hex digits.

    >>> is_well_formed_id("0123456789abcdef" * 2), is_well_formed_id("0000000000000000")
    (True, False)
    """
    return WELL_FORMED_ID.fullmatch(match_id) is not None


def score_document(match: Match) -> dict[str, Any]:
    """The scored hands and the state of the match (docs/api.md, ``POST /api/v1/score``)."""
    return score_fields(match.variant, _hand_documents(match), match, match.settlement)


def score_fields(
    variant: canasta.Variant, hands: list[dict[str, Any]], state: Any, settlement: dict[str, Any] | None
) -> dict[str, Any]:
    """How every match document ends: its variant, its scored hands and where it stands."""
    return {"variant": variant.key, "hands": hands, **state_fields(state, settlement)}


def _hand_documents(match: Match) -> list[dict[str, Any]]:
    breakdowns: dict[tuple[canasta.Part, ...], dict[str, Any]] = {}
    return [hand_document(result, breakdowns) for result in match.results]


def state_fields(state: Any, settlement: dict[str, Any] | None) -> dict[str, Any]:
    """Where a match stands, as every match document ends: totals, minimums, game over, winner.

    ``state`` is a :class:`~scorepad.canasta.Match` or a stored ``Standing`` (the same names);
    ``tie`` and ``settlement`` are there only when they apply.
    """
    fields: dict[str, Any] = {
        "totals": list(state.totals),
        "next_minimums": list(state.next_minimums),
        "game_over": state.is_finished,
        "winner": state.winner,
    }
    if state.is_tie:
        fields["tie"] = True
    if settlement:
        fields["settlement"] = settlement
    return fields


def hand_document(
    result: canasta.HandResult, breakdowns: dict[tuple[canasta.Part, ...], dict[str, Any]] | None = None
) -> dict[str, Any]:
    """One hand scored by the core, as :func:`hand_fields` writes it.

    ``breakdowns`` keeps each side's breakdown by the parts it is made of, for one document:
    a match's hands repeat the same few breakdowns (parts are values, equal when they say the
    same), and the document holds each one once (a reader sees equal objects).
    """
    sides = result.sides
    if breakdowns is None:
        breakdown = [side.to_dict() for side in sides]
    else:
        breakdown = []
        for side in sides:
            found = breakdowns.get(side.parts)
            if found is None:
                found = breakdowns[side.parts] = side.to_dict()
            breakdown.append(found)
    scores = [side.score for side in sides]
    return hand_fields(result.hand, scores, result.totals, result.minimums, breakdown, result.warnings, result.number)


def hand_fields(
    hand: canasta.Hand,
    scores: Sequence[int],
    totals: Sequence[int],
    minimums: Sequence[int],
    breakdown: list[dict[str, Any]],
    warnings: Sequence[Violation],
    number: int,
) -> dict[str, Any]:
    """The one writer of a hand in a document: entries as given, scores, totals, minimums in force,
    breakdown, and warnings (their fields as absolute paths, like the errors').

    Written from a hand the core just scored (:func:`hand_document`) or from the figures stored
    with it (:func:`figured_document`), so both read alike.
    """
    # Hand.to_dict's fields, written here in one step with the scores after them.
    document: dict[str, Any] = {"entries": list(hand.entry_dicts())}
    if hand.partnership:
        document["partnership"] = list(hand.partnership)
    document["scores"] = list(scores)
    document["totals"] = list(totals)
    document["minimums"] = list(minimums)
    document["breakdown"] = breakdown
    if warnings:
        where = f"hands[{number - 1}]"
        document["warnings"] = [{"field": w.under(where).field, "message": w.message} for w in warnings]
    return document


def match_document(match: Match, info: MatchInfo) -> dict[str, Any]:
    """A whole stored match (``GET /api/v1/matches/<id>``), which imports back unchanged."""
    return whole_document(info, match.variant, match.starting_totals, _hand_documents(match), match, match.settlement)


def whole_document(
    info: MatchInfo,
    variant: canasta.Variant,
    starting_totals: Sequence[int] | None,
    hands: list[dict[str, Any]],
    state: Any,
    settlement: dict[str, Any] | None,
) -> dict[str, Any]:
    """The one writer of a whole match document: from a match the core just scored
    (:func:`match_document`), or from the figures stored with it (:func:`figured_document`).
    """
    if any(len(versions) > 1 for versions in info.history):
        hands = [
            {**hand, "history": [dict(version) for version in versions]} if len(versions) > 1 else hand
            for hand, versions in zip(hands, info.history, strict=False)
        ]
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "id": info.id,
        "title": info.title,
        "created": info.created,
        "finished": info.finished,
        "options": variant.option_values(),
        "sides": [side.to_dict() for side in info.sides],
        "starting_totals": list(starting_totals) if starting_totals else None,
        **score_fields(variant, hands, state, settlement),
        **({"undone": [dict(hand) for hand in info.undone]} if info.undone else {}),
    }


def figured_document(stored: FiguredMatch) -> dict[str, Any]:
    """A whole match document from the figures stored with it (a backup reads, it does not
    rescore): the document :func:`match_document` writes of the same match."""
    summary, variant = stored.summary, stored.variant
    settlement = settlement_for(summary.totals, variant.settlement_unit) if summary.is_finished else None
    hands = [
        hand_fields(hand.hand, hand.scores, hand.totals, hand.minimums, hand.breakdown, hand.warnings, hand.number)
        for hand in stored.hands
    ]
    return whole_document(stored.info, variant, stored.starting_totals, hands, summary, settlement)


def read_match_document(data: Any, where: str = "") -> tuple[Match, MatchInfo]:
    """Read a match document back into a scored match and its info.

    :raises InvalidError: with every problem, fields as paths inside the document.
    """
    if not isinstance(data, Mapping):
        raise InvalidError([Violation("not-a-match", t("A match document is a JSON object."), where)])
    problems = _heading_problems(data, where) + _text_problems(data, where)
    sides = _read_sides(data.get("sides"), _at(where, "sides"), problems)
    hands = _read_hands(data.get("hands"), _at(where, "hands"), problems)
    if problems:
        raise InvalidError(problems)
    match = _score_facts(data, hands, where)
    _check_side_count(match, sides, _at(where, "sides"))
    undone = _read_undone(data.get("undone"), match.variant, _at(where, "undone"))
    history = _read_histories(hands, _at(where, "hands"))
    return match, replace(_match_info(data, sides), undone=undone, history=history)


HISTORY_ACTIONS = ("add", "edit", "delete", "restore", "import")


def _read_histories(hands: list[Any], where: str) -> tuple[tuple[dict[str, Any], ...], ...]:
    """Each hand's optional "history" (every version of it), checked; none at all when no hand has one.

    :raises InvalidError: with the problems, fields under ``where``.
    """
    if not any(isinstance(hand, Mapping) and "history" in hand for hand in hands):
        return ()
    histories, problems = [], []
    for index, hand in enumerate(hands):
        raw = hand.get("history", [])
        at = f"{where}[{index}].history"
        if not isinstance(raw, list):
            problems.append(Violation("history-not-list", t("A hand's history is a list."), at))
            continue
        versions = [_read_version(version, f"{at}[{number}]", problems) for number, version in enumerate(raw)]
        kept = tuple(version for version in versions if version is not None)
        histories.append(kept if len(kept) > 1 else ())
    if problems:
        raise InvalidError(problems)
    return tuple(histories) if any(histories) else ()


def _read_version(version: Any, where: str, problems: list[Violation]) -> dict[str, Any] | None:
    """One version of a hand's history (what was done, when, and the hand then), or None with its problems."""
    if (
        not isinstance(version, Mapping)
        or version.get("action") not in HISTORY_ACTIONS
        or not isinstance(version.get("created"), str)
        or not is_readable(version["created"])
    ):
        problems.append(Violation("history-version", t("Each version of a hand says what was done and when."), where))
        return None
    hand = version.get("hand")
    try:
        hand = None if hand is None else canasta.read_hand(hand).to_dict()
    except InvalidError as error:
        problems += [v.under(f"{where}.hand") for v in error.violations]
        return None
    return {"action": version["action"], "created": version["created"], "hand": hand}


def _read_undone(raw: Any, variant: canasta.Variant, where: str) -> tuple[dict[str, Any], ...]:
    """The document's undone hands (optional), each read and checked on its own as the core reads a hand.

    :raises InvalidError: with the problems, fields under ``where``.
    """
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise InvalidError([Violation("undone-not-list", t("A match's undone hands are a list."), where)])
    hands, problems = [], []
    for index, item in enumerate(raw):
        at = f"{where}[{index}]"
        try:
            hand = canasta.read_hand(item)
        except InvalidError as error:
            problems += [v.under(at) for v in error.violations]
            continue
        problems += [v.under(at) for v in canasta.check_hand(hand, variant)]
        hands.append(hand.to_dict())
    if problems:
        raise InvalidError(problems)
    return tuple(hands)


def _at(where: str, name: str) -> str:
    """The path of a field of the document at ``where`` (the top level when ``where`` is empty)."""
    return f"{where}.{name}" if where else name


def _heading_problems(data: Mapping[str, Any], where: str) -> list[Violation]:
    """What is wrong with the document's format, format version and id."""
    problems = []
    if data.get("format", FORMAT) != FORMAT:
        problems.append(
            Violation(
                "wrong-format",
                t("This is not a scorepad match (format '%(found)s').", found=shown(data.get("format"))),
                _at(where, "format"),
            )
        )
    if data.get("format_version", FORMAT_VERSION) != FORMAT_VERSION:
        problems.append(wrong_version(data.get("format_version"), FORMAT_VERSION, _at(where, "format_version")))
    # Any id of reasonable text is read; only a well-formed one is kept on import (is_well_formed_id),
    # any other is replaced and remembered so importing the file again is recognised.
    match_id = data.get("id")
    if not isinstance(match_id, str) or not 1 <= len(match_id) <= 64 or not match_id.isprintable():
        problems.append(Violation("bad-id", t("A match id is text of 1 to 64 characters."), _at(where, "id")))
    return problems


def _text_problems(data: Mapping[str, Any], where: str) -> list[Violation]:
    """What is wrong with the document's title and times: they are stored as text, so they must be text."""
    problems = []
    title = data.get("title")
    if title is not None and (not isinstance(title, str) or len(title) > MAX_TITLE):
        problems.append(
            Violation("bad-title", t("A match's title is text of at most 200 characters."), _at(where, "title"))
        )
    elif title and not is_readable(title):
        problems.append(unreadable(_at(where, "title")))
    for name in ("created", "finished"):
        stamp = data.get(name)
        if stamp is not None and (not isinstance(stamp, str) or len(stamp) > 40 or not is_readable(stamp)):
            problems.append(
                Violation(
                    "bad-time", t("A time is written as in an export: 2025-01-04T20:00:00+00:00."), _at(where, name)
                )
            )
    return problems


def _read_hands(raw: Any, where: str, problems: list[Violation]) -> list[Any]:
    """The document's hands as a list, or none with a problem when they are not one."""
    if not isinstance(raw, list):
        problems.append(Violation("hands-not-list", t("A match's hands are a list."), where))
        return []
    return raw


def _score_facts(data: Mapping[str, Any], hands: list[Any], where: str) -> Match:
    """Score the facts again (entries and partnership of each hand); the document's own scores are not read.

    :raises InvalidError: with the core's problems, fields under ``where``.
    """
    facts = [
        {key: hand[key] for key in ("entries", "partnership") if key in hand} if isinstance(hand, Mapping) else hand
        for hand in hands
    ]
    try:
        return canasta.score_match(data.get("variant"), facts, data.get("options"), data.get("starting_totals"))
    except InvalidError as error:
        raise InvalidError([v.under(where) for v in error.violations]) from None


def _check_side_count(match: Match, sides: tuple[Side, ...], where: str) -> None:
    """The document names as many sides as its variant has.

    :raises InvalidError: when it names more or fewer.
    """
    if len(sides) == match.variant.sides:
        return
    raise InvalidError(
        [
            Violation(
                "wrong-number-of-sides",
                t(
                    "%(variant)s has %(sides)s sides; the document names %(named)s.",
                    variant=match.variant.name,
                    sides=match.variant.sides,
                    named=len(sides),
                ),
                where,
            )
        ]
    )


def _match_info(data: Mapping[str, Any], sides: tuple[Side, ...]) -> MatchInfo:
    """What the document says about the match beyond its rules and hands."""
    return MatchInfo(
        id=data["id"],
        sides=sides,
        created=str(data.get("created") or ""),
        finished=data.get("finished") if isinstance(data.get("finished"), str) else None,
        title=str(data.get("title") or ""),
    )


def wrong_version(found: Any, version: int, field: str) -> Violation:
    """The problem of a file written in another format version than this scorepad reads."""
    return Violation(
        "wrong-version",
        t(
            "This file is format version %(found)s; this scorepad reads version %(version)s.",
            found=shown(found),
            version=version,
        ),
        field,
    )


def is_readable(text: str) -> bool:
    """Whether text holds no control character, line separator or lone surrogate.

    >>> is_readable("Ann & Bob 👩‍👩‍👧"), is_readable("Ann\\x00"), is_readable("\\ud800")
    (True, False, False)
    """
    return text.isprintable() or UNREADABLE_CHARACTER.search(text) is None


def shown(value: Any, most: int = 40) -> str:
    """A value from a file as a message quotes it: short, and only readable characters.

    >>> shown("scorepad-\\ud800"), shown("x" * 50)
    ('scorepad-�', 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…')
    """
    text = (value if isinstance(value, str) else reprlib.repr(value))[: most + 1]
    text = "".join(c if unicodedata.category(c) not in UNREADABLE else "\ufffd" for c in text)
    return text if len(text) <= most else text[: most - 1] + "…"


def unreadable_fields(data: Any, where: str = "") -> Iterator[str]:
    """The path of every text in parsed JSON (a field's name or a value) that is not readable text.

    One walk over the whole document, without recursion, so that no message made later ever
    quotes a control character or a lone surrogate (a page or a terminal cannot show one). The
    walk gathers the texts and searches them at once; only when that finds something are paths
    made (a 16 MB backup has a million texts, and a path for each cost seconds).

    >>> list(unreadable_fields({"sides": [{"name": "We"}, {"name": "They\\x1b[2J"}], "x\\ud800": 1}))
    ['sides[1].name', 'x�']
    """
    if _all_readable(data):
        return
    stack: list[tuple[Any, str]] = [(data, where)]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            if not is_readable(value):
                yield path
        elif isinstance(value, Mapping):
            for key, item in reversed(list(value.items())):
                readable = is_readable(key)  # a name that is not is reported in its place, once
                stack.append((item if readable else "\x00", _at(path, key if readable else shown(key))))
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{index}]") for index, item in reversed(list(enumerate(value))))


def _all_readable(data: Any) -> bool:
    """Whether every text of parsed JSON (field names and values) is readable, in one search."""
    texts: list[str] = []
    level = [data]
    while level:
        inner: list[Any] = []
        for value in level:
            kind = type(value)
            if kind is str:
                texts.append(value)
            elif kind is dict:
                texts.extend(value)
                inner.extend(value.values())
            elif kind is list:
                inner.extend(value)
            elif isinstance(value, Mapping):  # not from the JSON reader: walked with paths
                return False
        level = inner
    return is_readable("".join(texts))


def unreadable(field: str) -> Violation:
    """The problem of a name or title holding what is not text."""
    return Violation(
        "unreadable-text",
        t("This holds a control character or a broken character (a lone surrogate); type it again as plain text."),
        field,
    )


def _read_sides(raw: Any, where: str, problems: list[Violation]) -> tuple[Side, ...]:
    """The document's sides, adding to ``problems`` what is wrong with any of them."""
    if not isinstance(raw, list) or not raw:
        problems.append(Violation("sides-missing", t("Name each side in 'sides'."), where))
        return ()
    sides = []
    for index, item in enumerate(raw):
        found = _side_problems(item, f"{where}[{index}]")
        if found:
            problems += found
        else:
            name, players = item["name"], item.get("players", [])
            sides.append(Side(name.strip(), tuple(p.strip() for p in players if p.strip())))
    return tuple(sides)


def _side_problems(item: Any, at: str) -> list[Violation]:
    """What is wrong with one side: a name of 1 to 60 characters, players a list of such names, all text."""
    name = item.get("name") if isinstance(item, Mapping) else None
    players = item.get("players", []) if isinstance(item, Mapping) else None
    if not isinstance(name, str) or not name.strip() or len(name) > 60:
        return [Violation("bad-side-name", t("Each side has a name of 1 to 60 characters."), f"{at}.name")]
    if not isinstance(players, list) or not all(isinstance(p, str) and len(p) <= 60 for p in players):
        return [Violation("bad-players", t("A side's players are a list of names."), f"{at}.players")]
    bad = [f"{at}.name"] * (not is_readable(name))
    bad += [f"{at}.players[{number}]" for number, player in enumerate(players) if not is_readable(player)]
    return [unreadable(field) for field in bad]
