"""The JSON files: one match's document, the all-matches backup, and reading either back on import."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..canasta import InvalidError, Violation
from ..canasta.text import t, tn
from ..documents import (
    ALL_FORMAT,
    FORMAT,
    match_document,
    read_match_document,
    shown,
    unreadable,
    unreadable_fields,
    wrong_version,
)
from .common import Pair, thousands
from .streaming import Streamed, json_file, json_pieces

ALL_FORMAT_VERSION = 1


def all_matches_document(pairs: Iterable[Pair], exported: str | None = None) -> dict[str, Any]:
    """Every match in one versioned document; each is exactly its ``GET /api/v1/matches/<id>``."""
    return matches_document((match_document(match, info) for match, info in pairs), exported)


def matches_document(documents: Iterable[dict[str, Any]], exported: str | None = None) -> dict[str, Any]:
    """:func:`all_matches_document` from match documents already made (the store's, from its figures)."""
    matches = list(documents)
    document: dict[str, Any] = {"format": ALL_FORMAT, "format_version": ALL_FORMAT_VERSION}
    if exported:
        document["exported"] = exported
    document["count"] = len(matches)
    document["matches"] = matches
    return document


def backup_json(documents: Iterable[dict[str, Any]], exported: str) -> str:
    """The all-matches backup as the file both the download and ``scorepad export`` write."""
    return json_file(matches_document(documents, exported))


def backup_json_pieces(documents: Iterable[dict[str, Any]], count: int, exported: str) -> Iterator[str]:
    """The all-matches backup as :func:`backup_json` writes it, a piece at a time: one match's
    document in memory at once, whatever the file's size. ``count`` is how many ``documents`` holds."""
    document: dict[str, Any] = {"format": ALL_FORMAT, "format_version": ALL_FORMAT_VERSION, "exported": exported}
    document["count"] = count
    document["matches"] = Streamed(documents)
    return json_pieces(document)


def parse_json(raw: bytes | str) -> Any:
    """The JSON in an uploaded file.

    :raises InvalidError: saying where the file stops being JSON.
    """
    try:
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError as error:
        raise InvalidError(
            [Violation("not-utf8", t("The file is not UTF-8 text (byte %(byte)s cannot be read).", byte=error.start))]
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        # Translators: %(problem)s is Python's own English description, such as "Expecting value".
        message = t(
            "The file is not JSON: %(problem)s at line %(line)s, column %(column)s.",
            problem=error.msg,
            line=error.lineno,
            column=error.colno,
        )
        raise InvalidError([Violation("not-json", message)]) from None
    except RecursionError:
        raise InvalidError([Violation("not-json", t("The file nests too deeply to be a scorepad export."))]) from None
    except ValueError:  # a number thousands of digits long: Python refuses to read it
        raise InvalidError([Violation("not-json", t("The file holds a number too long to be a score."))]) from None


def is_single_match(data: Any) -> bool:
    """Whether a parsed file is one match's document rather than an all-matches export."""
    return isinstance(data, Mapping) and (data.get("format") == FORMAT or ("hands" in data and "format" not in data))


@dataclass(frozen=True)
class Limits:
    """How much one import may hold, so that reading it costs time and memory in proportion to a
    real club's backup: matches in the file (None: any number), hands in one match, hands in the
    whole file (None: any number; undone hands and each version of a corrected hand count, as each
    is read), and problems listed when it is refused (the rest are counted)."""

    matches: int | None = 2_000
    hands: int = 1_000
    all_hands: int | None = 10_000
    problems: int = 50


# The Import page: a few seconds of one core at most (bench/RESULTS.md, "A web import's cost"):
# each match costs about a millisecond to read, score and write, each hand a quarter of one, so
# its 16 MB upload (room for 9,000 short matches, or 100,000 hands) is held to a club's year or so.
WEB_LIMITS = Limits()
# ``scorepad import``, run by the server's owner on the server: a club's whole history at once.
COMMAND_LIMITS = Limits(matches=None, all_hands=None)


class Problems:
    """The problems of one file, collected flat: the first ``most`` listed in full, the rest only counted."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.listed: list[Violation] = []
        self.more = 0

    def add(self, problems: Iterable[Violation]) -> None:
        for problem in problems:
            if len(self.listed) < self.most:
                self.listed.append(problem)
            else:
                self.more += 1

    def __bool__(self) -> bool:
        return bool(self.listed)

    def error(self) -> InvalidError:
        """The refusal: the problems listed, and a last line counting those left out."""
        listed = list(self.listed)
        if self.more:
            listed.append(
                Violation(
                    "more-problems",
                    tn(
                        "…and %(count)s more problem.",
                        "…and %(count)s more problems.",
                        self.more,
                        count=thousands(self.more),
                    ),
                )
            )
        error = InvalidError(listed)
        error.total = len(self.listed) + self.more  # type: ignore[attr-defined]  # how many, counted ones too
        return error


def read_all_matches_document(
    data: Any, progress: Callable[[int, int], None] | None = None, limits: Limits = WEB_LIMITS
) -> list[Pair]:
    """Read a match document or an all-matches document, checking every match before returning.

    ``progress(done, count)`` is called after each match is read, for long files. A file with
    more matches, or a match with more hands, than ``limits`` allows is refused before any is read.

    :raises InvalidError: with the problems in the file (at most ``limits.problems`` of them, then
        how many more), each ``field`` a path such as ``matches[3].hands[2].entries[0].red_threes``.
    """
    return list(each_match_read(data, progress, limits))


def each_match_read(
    data: Any, progress: Callable[[int, int], None] | None = None, limits: Limits = WEB_LIMITS, release: bool = False
) -> Iterator[Pair]:
    """:func:`read_all_matches_document` a match at a time: each match that reads, in order, until
    the first problem; the rest are still read for their problems, and all of them are raised at
    the end. The file's own problems (its heading, the caps, text that is not text) are raised
    before the first match. With ``release``, each match's parsed document is dropped from
    ``data`` once read, so a caller that writes each batch and drops it holds one batch at a time.

    :raises InvalidError: as :func:`read_all_matches_document`.
    """
    single = is_single_match(data)
    if single:
        data = {"format": ALL_FORMAT, "format_version": ALL_FORMAT_VERSION, "matches": [data]}
    if not isinstance(data, Mapping):
        raise InvalidError([Violation("not-an-export", t("A scorepad export is a JSON object."))])
    problems = Problems(limits.problems)
    problems.add(_export_heading_problems(data))
    matches = data.get("matches")
    if not isinstance(matches, list):
        problems.add([Violation("matches-not-list", t("An export's matches are a list."), "matches")])
        matches = []
    if limits.matches is not None and len(matches) > limits.matches:
        raise InvalidError([_too_many_matches(len(matches), limits.matches)])
    if limits.all_hands is not None and (hands := _count_hands(matches)) > limits.all_hands:
        raise InvalidError([_too_many_hands_in_all(hands, limits.all_hands)])
    problems.add(unreadable(field) for field in unreadable_fields(matches[0] if single else data))
    if problems:  # before any match is read, so no message quotes what is not text
        raise problems.error()
    yield from _read_each_match(matches, problems, progress, limits.hands, single=single, release=release)
    if problems:
        raise problems.error()


def _too_many_matches(count: int, most: int) -> Violation:
    return Violation(
        "too-many-matches",
        t(
            "The Import page takes at most %(most)s matches at once; this file has %(count)s. Import it in "
            "parts, or with 'scorepad import' on the server's computer.",
            most=thousands(most),
            count=thousands(count),
        ),
        "matches",
    )


def _count_hands(matches: list[Any]) -> int:
    """Every hand the matches of a file hold, as reading them reads one: played, undone, and
    each version of a hand's history (a list's length, whatever its items; nothing is read)."""
    count = 0
    for item in matches:
        if not isinstance(item, Mapping):
            continue
        hands, undone = item.get("hands"), item.get("undone")
        if isinstance(hands, list):
            count += len(hands)
            count += sum(
                len(h["history"]) for h in hands if isinstance(h, Mapping) and isinstance(h.get("history"), list)
            )
        if isinstance(undone, list):
            count += len(undone)
    return count


def _too_many_hands_in_all(count: int, most: int) -> Violation:
    return Violation(
        "too-many-hands-in-all",
        t(
            "The Import page takes at most %(most)s hands at once (undone hands and the earlier versions of a "
            "corrected hand count too); this file has %(count)s. Import it in parts, or with 'scorepad import' "
            "on the server's computer.",
            most=thousands(most),
            count=thousands(count),
        ),
        "matches",
    )


def _export_heading_problems(data: Mapping[str, Any]) -> list[Violation]:
    """What is wrong with an all-matches export's format and format version."""
    if data.get("format") != ALL_FORMAT:
        return [
            Violation(
                "wrong-format",
                t(
                    "This is not a scorepad export: 'format' is '%(found)s', not '%(all)s' or '%(one)s'.",
                    found=shown(data.get("format")),
                    all=ALL_FORMAT,
                    one=FORMAT,
                ),
                "format",
            )
        ]
    if data.get("format_version") != ALL_FORMAT_VERSION:
        return [wrong_version(data.get("format_version"), ALL_FORMAT_VERSION, "format_version")]
    return []


def _read_each_match(
    matches: list[Any],
    problems: Problems,
    progress: Callable[[int, int], None] | None,
    most_hands: int,
    single: bool = False,
    release: bool = False,
) -> Iterator[Pair]:
    """Each match of an export that reads, until the first problem, adding to ``problems`` what is
    wrong with the others (``release``: each match's document is dropped from ``matches`` once read).

    A single match's document (``single``) is read with its fields at the top of the file.
    """
    first_at: dict[str, int] = {}
    for index, item in enumerate(matches):
        if release:
            matches[index] = None
        where = "" if single else f"matches[{index}]"
        hands = item.get("hands") if isinstance(item, Mapping) else None
        if isinstance(hands, list) and len(hands) > most_hands:
            problems.add([_too_many_hands(len(hands), most_hands, where)])
            continue
        try:
            match, info = read_match_document(item, where)
        except InvalidError as error:
            problems.add(error.violations)
            continue
        if info.id in first_at:
            problems.add([_duplicate_id(info.id, first_at[info.id], where)])
            continue
        first_at[info.id] = index
        if progress:
            progress(index + 1, len(matches))
        if not problems:  # after a problem the file is refused: the rest are read only for theirs
            yield match, info


def _too_many_hands(count: int, most: int, where: str) -> Violation:
    return Violation(
        "too-many-hands",
        t(
            "A match can hold at most %(most)s hands; this one has %(count)s.",
            most=thousands(most),
            count=thousands(count),
        ),
        f"{where}.hands" if where else "hands",
    )


def _duplicate_id(match_id: str, first: int, where: str) -> Violation:
    """The problem of a match whose id an earlier match in the same file already has."""
    return Violation(
        "duplicate-id",
        t("Match %(id)s is in this file twice (first as matches[%(first)s]).", id=match_id, first=first),
        f"{where}.id",
    )
