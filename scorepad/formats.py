"""Taking results away: CSV, the all-matches JSON document, share text, the progress chart, stats.

Pure functions over scored matches (``canasta.Match``) and what storage knows about them
(``documents.MatchInfo``): no Flask, no database. The blueprint in ``exports.py`` and the
``scorepad export`` / ``scorepad import`` commands (through ``backups.py``) only call these.

>>> from scorepad import canasta
>>> from scorepad.documents import MatchInfo, Side
>>> match = canasta.score_match("classic", [{"entries": [
...     {"melded_points": 620, "canastas": {"natural": 1}, "went_out": True},
...     {"melded_points": 260, "hand_points": 95}]}])
>>> info = MatchInfo("a" * 16, (Side("We"), Side("They")))
>>> share_text(match, info)
'Classic canasta, 1 hand so far: We 1,220 – They 165. We lead by 1,055.'
"""

from __future__ import annotations

import csv
import gettext
import hashlib
import io
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from types import SimpleNamespace
from typing import Any

from .canasta import HandResult, InvalidError, Match, SideScore, Violation
from .canasta.cards import CARD_CLASSES
from .canasta.entries import Entry
from .canasta.match import standing
from .canasta.text import t, tn
from .documents import (
    ALL_FORMAT,
    FORMAT,
    MatchInfo,
    match_document,
    read_match_document,
    shown,
    team_name,
    unreadable,
    unreadable_fields,
    wrong_version,
)

ALL_FORMAT_VERSION = 1
# Spreadsheets run a cell that starts with one of these as a formula; names typed at the table
# must never do that (OWASP "CSV injection"), so such text gets a leading apostrophe.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# The order players count a side's score in, for the breakdown columns of the CSV.
PART_ORDER = (
    "special_hand", "canastas.", "red_threes", "black_threes", "going_out", "concealed",
    "melded_points", "hand_points", "black_threes_in_hand", "incomplete.", "held_sets.",
    "restored_piles", "penalty_points",
)  # fmt: skip
# Pronouns read better than names in a sentence: "We win", not "We wins".


def N_(message: str) -> str:
    """Mark a message for the catalogue (``pybabel extract``) where it is translated later."""
    return message


# A side called "We" (or "They", "You", "Me") wins or leads in the first person, as the table says it;
# any other name stands as a label ("Winner: Ann and Bob, by 250."), where no verb has to agree with it.
WIN_PHRASES = {
    "we": N_("We win by {margin}."),
    "they": N_("They win by {margin}."),
    "you": N_("You win by {margin}."),
    "me": N_("I win by {margin}."),
}
LEAD_PHRASES = {
    "we": N_("We lead by {margin}."),
    "they": N_("They lead by {margin}."),
    "you": N_("You lead by {margin}."),
    "me": N_("I lead by {margin}."),
}
ENGLISH = gettext.NullTranslations()

Pair = tuple[Match, MatchInfo]


def thousands(number: int) -> str:
    """A score as people write it: ``5,120``, ``-1,250``.

    >>> thousands(5120), thousands(-1250), thousands(0)
    ('5,120', '-1,250', '0')
    """
    return f"{number:,}"


def safe_text(text: str) -> str:
    """Text for a CSV cell that a spreadsheet will not run as a formula.

    >>> safe_text("=1+1"), safe_text("Ann")
    ("'=1+1", 'Ann')
    """
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def side_labels(info: MatchInfo) -> list[str]:
    """Side names for column headings, made unique when two sides share a name."""
    labels: list[str] = []
    for index, side in enumerate(info.sides):
        name = safe_text(side.name)
        labels.append(name if name not in labels else f"{name} ({index + 1})")
    return labels


# --- one match as CSV --------------------------------------------------------------------


def entry_columns(match: Match) -> list[str]:
    """The ENTRY fields of this match's variant, one CSV column each per side."""
    variant = match.variant
    held = [kind for kind, _ in variant.held_set_penalties]
    return [
        "melded_points",
        "hand_points",
        *(f"canastas.{kind}" for kind in variant.canasta_kinds),
        "red_threes",
        "black_threes",
        "black_threes_in_hand",
        "went_out",
        "concealed",
        "special_hand",
        "incomplete",
        *(f"held_sets.{kind}" for kind in held),
        "penalty_points",
        "restored_piles",
        "melded_cards",
        "hand_cards",
    ]


def card_counts_text(counts: Mapping[str, int]) -> str:
    """Card counts as they were counted, class by class; the groups stay groups.

    >>> card_counts_text({"7-4": 6, "2": 2, "K-8": 5, "joker": 1})
    'joker:1 2:2 K-8:5 7-4:6'
    """
    order = list(CARD_CLASSES)
    ranked = sorted(counts.items(), key=lambda item: order.index(item[0]) if item[0] in order else len(order))
    return " ".join(f"{name}:{count}" for name, count in ranked)


def entry_cell(entry: Entry, column: str) -> int | str:
    """One ENTRY field as a spreadsheet cell: numbers, 1/0 for yes/no, text for the rest."""
    group, _, kind = column.partition(".")
    if kind:
        return getattr(entry, group).get(kind, 0)
    value = getattr(entry, column)
    if isinstance(value, bool):
        return int(value)
    if column in ("melded_cards", "hand_cards"):
        return card_counts_text(value) if value else ""
    if column == "incomplete":
        return " ".join(value)
    if column == "special_hand":
        return value or ""
    return value


def part_columns(match: Match) -> list[str]:
    """Every breakdown part that occurs in the match, in the order players count them."""
    kinds = list(match.variant.canasta_kinds)
    seen = {part.id for result in match.results for side in result.sides for part in side.parts}

    def rank(part_id: str) -> tuple[int, int, str]:
        group = next((i for i, start in enumerate(PART_ORDER) if part_id == start or part_id.startswith(start)), 99)
        kind = part_id.partition(".")[2]
        return group, kinds.index(kind) if kind in kinds else 0, part_id

    return sorted(seen, key=rank)


def match_csv(match: Match, info: MatchInfo) -> str:
    """One row per hand: each side's entry, score breakdown, hand score and running total.

    A ``start`` row comes first when the match began from carried-over totals, and a ``total``
    row last: entry numbers and breakdowns summed, yes/no fields counted, the final totals.
    """
    fields, parts = entry_columns(match), part_columns(match)
    labels = side_labels(info)
    width = len(fields) + len(parts) + 2
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(_csv_header(labels, fields, parts))
    if match.starting_totals:
        writer.writerow(_start_row(match.starting_totals, width))
    sums = [[0] * (width - 1) for _ in labels]
    for result in match.results:
        writer.writerow(_hand_row(result, fields, parts, sums))
    writer.writerow(_total_row(match.totals, fields, sums))
    return out.getvalue()


def _csv_header(labels: list[str], fields: list[str], parts: list[str]) -> list[str]:
    """The heading row: per side its entry fields, its score parts, hand score and total."""
    header = ["hand"]
    for label in labels:
        header += [f"{label} {name}" for name in fields]
        header += [f"{label} score: {part}" for part in parts]
        header += [f"{label} hand score", f"{label} total"]
    return header


def _start_row(starting_totals: Sequence[int], width: int) -> list[int | str]:
    """The ``start`` row: each side's carried-over total in its total column, the rest empty."""
    row: list[int | str] = ["start"]
    for total in starting_totals:
        row += [""] * (width - 1) + [total]
    return row


def _hand_row(result: HandResult, fields: list[str], parts: list[str], sums: list[list[int]]) -> list[int | str]:
    """One hand's row, adding each side's numbers to its ``sums`` for the total row."""
    row: list[int | str] = [result.number]
    for index, (entry, side) in enumerate(zip(result.hand.entries, result.sides, strict=True)):
        cells = _side_cells(entry, side, fields, parts)
        for position, cell in enumerate(cells):
            if isinstance(cell, int):
                sums[index][position] += cell
        row += [safe_text(cell) if isinstance(cell, str) else cell for cell in cells]
        row.append(result.totals[index])
    return row


def _side_cells(entry: Entry, side: SideScore, fields: list[str], parts: list[str]) -> list[int | str]:
    """A side's cells in one hand: its entry as given, its points per part, its hand score."""
    points: dict[str, int] = {}
    for part in side.parts:
        points[part.id] = points.get(part.id, 0) + part.points
    cells = [entry_cell(entry, name) for name in fields]
    cells += [points.get(part, 0) for part in parts]
    cells.append(side.score)
    return cells


def _total_row(totals: Sequence[int], fields: list[str], sums: list[list[int]]) -> list[int | str]:
    """The ``total`` row: numbers summed, yes/no fields counted, text left empty, the final totals."""
    row: list[int | str] = ["total"]
    text_columns = {"special_hand", "incomplete", "melded_cards", "hand_cards"}
    for index, total in enumerate(totals):
        counted = zip(fields, sums[index][: len(fields)], strict=True)
        row += ["" if name in text_columns else value for name, value in counted]
        row += sums[index][len(fields) :]
        row.append(total)
    return row


# --- all matches: results CSV and the JSON document -------------------------------------


def results_csv(pairs: Iterable[Pair]) -> str:
    """One row per match: date, variant, sides with players and final totals, winner, hands.

    For scored matches; the same columns as :func:`summary_csv` writes from stored summaries.
    """
    return summary_csv(
        SimpleNamespace(
            info=info,
            variant_key=match.variant.key,
            variant_name=match.variant.name,
            summary=standing(match.variant, match.totals, len(match.results)),
        )
        for match, info in pairs
    )


def summary_csv(rows: Iterable[Any]) -> str:
    """One row per match from stored summaries (``store.ResultRow``): nothing rescored."""
    rows = list(rows)
    most = max((len(row.info.sides) for row in rows), default=2)
    header = ["id", "created", "finished", "title", "variant", "variant name", "hands", "status", "winner", "margin"]
    for number in range(1, most + 1):
        header += [f"side {number}", f"side {number} players", f"side {number} total"]
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    for row in rows:
        info, summary = row.info, row.summary
        winner = "tie" if summary.is_tie else "" if summary.winner is None else info.sides[summary.winner].name
        line: list[int | str] = [
            info.id,
            info.created,
            info.finished or "",
            safe_text(info.title),
            row.variant_key,
            row.variant_name,
            summary.played,
            "finished" if summary.is_finished else "playing",
            safe_text(winner),
            "" if summary.margin is None or not summary.is_finished else summary.margin,
        ]
        for index in range(most):
            if index < len(info.sides):
                side = info.sides[index]
                line += [safe_text(side.name), safe_text(", ".join(side.players)), summary.totals[index]]
            else:
                line += ["", "", ""]
        writer.writerow(line)
    return out.getvalue()


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


def json_file(document: Any) -> str:
    """A document as every scorepad JSON file is written: UTF-8 text, one-space indents, a last newline."""
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def parse_json(raw: bytes | str) -> Any:
    """The JSON in an uploaded file.

    :raises InvalidError: saying where the file stops being JSON.
    """
    try:
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError as error:
        raise InvalidError(
            [Violation("not-utf8", t("The file is not UTF-8 text (byte {byte} cannot be read).", byte=error.start))]
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        # Translators: {problem} is Python's own English description, such as "Expecting value".
        message = t(
            "The file is not JSON: {problem} at line {line}, column {column}.",
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
    real club's backup: matches in the file (None: any number), hands in one match, and problems
    listed when it is refused (the rest are counted)."""

    matches: int | None = 10_000
    hands: int = 1_000
    problems: int = 50


# The Import page: its 16 MB upload holds about 9,000 matches of a club's usual length.
WEB_LIMITS = Limits()
# ``scorepad import``, run by the server's owner on the server: a club's whole history at once.
COMMAND_LIMITS = Limits(matches=None)


class Problems:
    """The problems of one file, collected flat: the first ``kept`` in full, the rest only counted."""

    def __init__(self, kept: int) -> None:
        self.kept = kept
        self.listed: list[Violation] = []
        self.more = 0

    def add(self, problems: Iterable[Violation]) -> None:
        for problem in problems:
            if len(self.listed) < self.kept:
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
                        "…and {count} more problem.",
                        "…and {count} more problems.",
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
    problems.add(unreadable(field) for field in unreadable_fields(matches[0] if single else data))
    if problems:  # before any match is read, so no message quotes what is not text
        raise problems.error()
    pairs = _read_each_match(matches, problems, progress, limits.hands, single=single)
    if problems:
        raise problems.error()
    return pairs


def _too_many_matches(count: int, most: int) -> Violation:
    return Violation(
        "too-many-matches",
        t(
            "The Import page takes at most {most} matches at once; this file has {count}. Import it in "
            "parts, or with 'scorepad import' on the server's computer.",
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
                    "This is not a scorepad export: 'format' is '{found}', not '{all}' or '{one}'.",
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
) -> list[Pair]:
    """Every match of an export that reads, adding to ``problems`` what is wrong with the others.

    A single match's document (``single``) is read with its fields at the top of the file.
    """
    pairs: list[Pair] = []
    first_at: dict[str, int] = {}
    for index, item in enumerate(matches):
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
        pairs.append((match, info))
        if progress:
            progress(index + 1, len(matches))
    return pairs


def _too_many_hands(count: int, most: int, where: str) -> Violation:
    return Violation(
        "too-many-hands",
        t(
            "A match can hold at most {most} hands; this one has {count}.",
            most=thousands(most),
            count=thousands(count),
        ),
        f"{where}.hands" if where else "hands",
    )


def _duplicate_id(match_id: str, first: int, where: str) -> Violation:
    """The problem of a match whose id an earlier match in the same file already has."""
    return Violation(
        "duplicate-id",
        t("Match {id} is in this file twice (first as matches[{first}]).", id=match_id, first=first),
        f"{where}.id",
    )


# --- share text --------------------------------------------------------------------------


def share_text(
    match: Match, info: MatchInfo, translations: Any = ENGLISH, number: Callable[[int], str] = thousands
) -> str:
    """One line for the group chat: variant, hands, totals and who won or leads by how much.

    ``translations`` is any object with the ``gettext`` API (the web layer passes the request's
    language) and ``number`` writes a figure as that language does; the default is English.

    >>> from scorepad import canasta
    >>> from scorepad.documents import Side
    >>> info = MatchInfo("b" * 16, (Side("We"), Side("They")))
    >>> share_text(canasta.score_match("classic", []), info)
    'Classic canasta, no hands yet.'
    """
    tr = translations
    name = _rendered(match.variant.name, tr)
    count = len(match.results)
    if not count:
        return tr.gettext("{variant}, no hands yet.").format(variant=name)
    if match.is_finished:
        hands = tr.ngettext("{n} hand", "{n} hands", count).format(n=count)
    else:
        hands = tr.ngettext("{n} hand so far", "{n} hands so far", count).format(n=count)
    scores = " – ".join(f"{side.name} {number(total)}" for side, total in zip(info.sides, match.totals, strict=True))
    leader = max(range(len(match.totals)), key=match.totals.__getitem__)
    leader_name = info.sides[leader].name
    margin = number(match.margin or 0)
    if match.is_tie:
        verdict = tr.gettext("It's a tie.")
    elif match.is_finished:
        phrase = _personal(WIN_PHRASES, leader_name, tr)
        verdict = (tr.gettext(phrase) if phrase else tr.gettext("Winner: {side}, by {margin}.")).format(
            side=leader_name, margin=margin
        )
    elif not match.margin:
        verdict = tr.gettext("All square.")
    else:
        phrase = _personal(LEAD_PHRASES, leader_name, tr)
        verdict = (tr.gettext(phrase) if phrase else tr.gettext("In the lead: {side}, by {margin}.")).format(
            side=leader_name, margin=margin
        )
    return tr.gettext("{variant}, {hands}: {scores}. {verdict}").format(
        variant=name, hands=hands, scores=scores, verdict=verdict
    )


def _personal(phrases: dict[str, str], name: str, translations: Any) -> str | None:
    """The phrase for a side named as the presets name it ("We", or "Nosotros" in Spanish), else None.

    "Nosotros gana" is wrong where "We wins" would be: a side called "we" in the line's own
    language gets "We win by" in that language.
    """
    folded = name.casefold()
    for key, phrase in phrases.items():
        if folded in (key, translations.pgettext("side", key.capitalize()).casefold()):
            return phrase
    return None


def _rendered(value: Any, translations: Any) -> str:
    """A core message (a ``str`` with ``render``) in the given language; any other text as it is."""
    render = getattr(value, "render", None)
    return render(translations) if callable(render) and isinstance(value, str) else value


# --- the progress chart ------------------------------------------------------------------

CHART_WIDTH, CHART_HEIGHT = 360, 250
CHART_LEFT, CHART_RIGHT, CHART_TOP, CHART_BOTTOM = 46, 12, 40, 30
# Distinct in colour and in dash pattern, so the lines part on a grey printout too; mid tones
# that read on a light and a dark page. Text and axes use the page's own colour.
SIDE_STYLES = (
    ("#2563eb", ""),
    ("#dc2626", "7 4"),
    ("#059669", "2 3"),
)
TICK_STEPS = (100, 250, 500, 1000, 2000, 2500, 5000, 10000, 20000, 50000)


@dataclass(frozen=True)
class Chart:
    """A drawn progression chart (``svg``, safe markup) and the target line it shows."""

    svg: str
    target: int


def _tick_step(span: int) -> int:
    return next((step for step in TICK_STEPS if span / step <= 6), TICK_STEPS[-1])


def progress_svg(
    match: Match, info: MatchInfo, translations: Any = ENGLISH, thousands: Callable[[int], str] = thousands
) -> str:
    """Each side's total after every hand against the target line, as a self-contained SVG.

    Plain markup for the server to send: a ``viewBox`` that scales to a phone's width, one
    polyline per side, a dashed target line, text escaped, and a ``<title>``/``<desc>`` that
    say the same thing in words.
    """
    return progress_chart(
        match.variant.name,
        match.variant.target,
        match.start,
        [r.totals for r in match.results],
        info,
        translations,
        thousands,
    )


def progress_chart(
    variant_name: str,
    target: int,
    start: Sequence[int],
    totals: Sequence[Sequence[int]],
    info: MatchInfo,
    translations: Any = ENGLISH,
    thousands: Callable[[int], str] = thousands,
) -> str:
    """:func:`progress_svg` from figures alone: the starting totals and the totals after each hand.

    ``translations`` (the ``gettext`` API) and ``thousands`` word the title, description and
    labels in the page's language, as :func:`share_text` does; the default is English.
    """
    tr = translations
    series = [[start[i]] + [after[i] for after in totals] for i in range(len(info.sides))]
    plot = _Plot.around([v for line in series for v in line], target, max(len(totals), 1))
    names = [side.name for side in info.sides]
    title = tr.gettext("Score progression: {variant}, target {target}").format(
        variant=_rendered(variant_name, tr), target=thousands(target)
    )
    about = tr.gettext("Totals from the start and after each hand.")
    axis = tr.gettext("hand")  # Translators: under the chart's axis of hand numbers
    target_label = tr.gettext("Target {target}").format(target=thousands(target))
    desc = "; ".join(
        f"{name}: {', '.join(thousands(v) for v in line)}" for name, line in zip(names, series, strict=True)
    )
    return "\n".join(
        [
            *_chart_heading(info.id, title, f"{about} {desc}"),
            *_total_grid(plot, thousands),
            *_hand_axis(plot, axis),
            _target_line(plot, target, target_label),
            *_side_lines(plot, names, series, thousands),
            "</svg>",
        ]
    )


@dataclass(frozen=True)
class _Plot:
    """Where a hand number and a total fall on the chart: its scale, from low to high in steps."""

    low: int
    high: int
    step: int
    hands: int

    @classmethod
    def around(cls, values: list[int], target: int, hands: int) -> _Plot:
        step = _tick_step(max(max(values + [target]) - min(values + [0]), 1))
        low = min(min(values), 0) // step * step
        high = -(-max(max(values), target) // step) * step
        return cls(low, high, step, hands)

    def x(self, hand: int) -> float:
        return round(CHART_LEFT + (CHART_WIDTH - CHART_LEFT - CHART_RIGHT) * hand / self.hands, 1)

    def y(self, total: int) -> float:
        plot_h = CHART_HEIGHT - CHART_TOP - CHART_BOTTOM
        return round(CHART_TOP + plot_h * (self.high - total) / (self.high - self.low), 1)


def _chart_heading(match_id: str, title: str, description: str) -> list[str]:
    """The ``<svg>`` element with its title and description, for screen readers."""
    # Element ids must not carry the match id: the chart is also shown to read-only watchers,
    # and the match id is what lets a phone write to the match.
    key = hashlib.blake2s(match_id.encode(), digest_size=4).hexdigest()
    return [
        f'<svg class="progress" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {CHART_WIDTH} {CHART_HEIGHT}" '
        f'width="100%" role="img" aria-labelledby="progress-title-{key} progress-desc-{key}" '
        f'font-family="system-ui, sans-serif" font-size="12" fill="currentColor">',
        f'<title id="progress-title-{key}">{escape(title)}</title>',
        f'<desc id="progress-desc-{key}">{escape(description)}.</desc>',
    ]


def _total_grid(plot: _Plot, thousands: Callable[[int], str]) -> list[str]:
    """A faint line and its total at each step, the zero line stronger."""
    y = plot.y
    return [
        f'<line x1="{CHART_LEFT}" x2="{CHART_WIDTH - CHART_RIGHT}" y1="{y(tick)}" y2="{y(tick)}" '
        f'stroke="currentColor" stroke-opacity="0.25" stroke-width="{1.5 if tick == 0 else 0.75}"/>'
        f'<text x="{CHART_LEFT - 4}" y="{y(tick) + 4}" text-anchor="end">{thousands(tick)}</text>'
        for tick in range(plot.low, plot.high + 1, plot.step)
    ]


def _hand_axis(plot: _Plot, axis: str) -> list[str]:
    """Hand numbers along the bottom (at most about eight of them) and the axis's name."""
    hands = plot.hands
    labels = sorted({0, hands, *range(0, hands + 1, max(1, -(-hands // 8)))})
    return [
        *(
            f'<text x="{plot.x(hand)}" y="{CHART_HEIGHT - CHART_BOTTOM + 16}" text-anchor="middle" '
            f'fill="currentColor">{hand}</text>'
            for hand in labels
        ),
        f'<text x="{CHART_WIDTH - CHART_RIGHT}" y="{CHART_HEIGHT - 2}" text-anchor="end">{escape(axis)}</text>',
    ]


def _target_line(plot: _Plot, target: int, label: str) -> str:
    """The game's target, dashed across the chart."""
    y = plot.y(target)
    return (
        f'<line x1="{CHART_LEFT}" x2="{CHART_WIDTH - CHART_RIGHT}" y1="{y}" y2="{y}" '
        f'stroke="currentColor" stroke-opacity="0.8" stroke-width="1.5" stroke-dasharray="4 3"/>'
        f'<text x="{CHART_LEFT + 4}" y="{y - 4}">{escape(label)}</text>'
    )


def _side_lines(plot: _Plot, names: list[str], series: list[list[int]], thousands: Callable[[int], str]) -> list[str]:
    """Each side's totals as a line in its own colour and dash, with its name and total in the legend."""
    out = []
    for index, (name, line) in enumerate(zip(names, series, strict=True)):
        colour, dash = SIDE_STYLES[index % len(SIDE_STYLES)]
        points = " ".join(f"{plot.x(hand)},{plot.y(total)}" for hand, total in enumerate(line))
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(
            f'<polyline class="side-{index}" fill="none" stroke="{colour}" stroke-width="2.5" '
            f'stroke-linejoin="round"{dashes} points="{points}"/>'
        )
        legend_x = 8 + index * (CHART_WIDTH - 16) // len(names)
        out.append(
            f'<line x1="{legend_x}" x2="{legend_x + 22}" y1="14" y2="14" stroke="{colour}" '
            f'stroke-width="2.5"{dashes}/>'
            f'<text x="{legend_x + 28}" y="18" font-weight="600">'
            f"{escape(name)} {thousands(line[-1])}</text>"
        )
    return out


# --- history and stats -------------------------------------------------------------------


@dataclass
class Record:
    """What one player or team has done across the stored matches."""

    name: str
    matches: int = 0
    wins: int = 0
    losses: int = 0
    ties: int = 0
    hands: int = 0
    points: int = 0
    biggest_hand: int | None = None
    canastas: int = 0
    red_threes: int = 0
    match_ids: list[str] = field(default_factory=list)

    @property
    def playing(self) -> int:
        """Matches not finished yet, counted as neither win nor loss."""
        return self.matches - self.wins - self.losses - self.ties

    @property
    def average_hand(self) -> int | None:
        """The mean hand score, rounded to the nearest 5 as every score is."""
        if not self.hands:
            return None
        return round(self.points / self.hands / 5) * 5


@dataclass
class Stats:
    """Records by player and by team (a side of two or more named players), best first."""

    players: list[Record]
    teams: list[Record]
    matches: int


def _add(record: Record, match: Match, info: MatchInfo, side: int) -> None:
    record.matches += 1
    record.match_ids.append(info.id)
    if match.is_finished:
        top = max(match.totals)
        if match.is_tie and match.totals[side] == top:
            record.ties += 1
        elif match.winner == side:
            record.wins += 1
        else:
            record.losses += 1
    for result in match.results:
        score = result.sides[side].score
        entry = result.hand.entries[side]
        record.hands += 1
        record.points += score
        record.biggest_hand = score if record.biggest_hand is None else max(record.biggest_hand, score)
        record.canastas += entry.canasta_count
        record.red_threes += entry.red_threes


def stats(pairs: Iterable[Pair]) -> Stats:
    """Wins, losses, hand scores, canastas and red threes per player and per team.

    Names are matched without regard to case. A player's figures are their side's in every
    match they played; a side without named players counts for nobody.
    """
    players: dict[str, Record] = {}
    teams: dict[str, Record] = {}
    count = 0
    for match, info in pairs:
        count += 1
        for index, side in enumerate(info.sides):
            for player in dict.fromkeys(p.casefold() for p in side.players):
                name = next(p for p in side.players if p.casefold() == player)
                _add(players.setdefault(player, Record(name)), match, info, index)
            if len(side.players) >= 2:
                name = team_name(side.players)
                _add(teams.setdefault(name.casefold(), Record(name)), match, info, index)

    def best_first(records: dict[str, Record]) -> list[Record]:
        return sorted(records.values(), key=lambda r: (-r.wins, r.losses, -r.matches, r.name.casefold()))

    return Stats(best_first(players), best_first(teams), count)


def stats_from_rows(rows: Iterable[Mapping[str, Any]], matches: int) -> Stats:
    """:func:`stats` from sums already made over stored figures (``store.player_records``)."""
    players: list[Record] = []
    teams: list[Record] = []
    for row in sorted(rows, key=lambda r: r["first"]):
        record = Record(
            name=row["name"],
            matches=row["matches"],
            wins=row["wins"],
            losses=row["losses"],
            ties=row["ties"],
            hands=row["hands"],
            points=row["points"],
            biggest_hand=row["biggest_hand"],
            canastas=row["canastas"],
            red_threes=row["red_threes"],
        )
        (teams if row["kind"] == "team" else players).append(record)

    def best_first(records: list[Record]) -> list[Record]:
        return sorted(records, key=lambda r: (-r.wins, r.losses, -r.matches, r.name.casefold()))

    return Stats(best_first(players), best_first(teams), matches)


def records_for(name: str, pairs: Iterable[Pair]) -> list[Pair]:
    """The matches a player (or a team, by its ``team_name``) played in, as given."""
    wanted = name.casefold()
    return [
        (match, info)
        for match, info in pairs
        if any(
            wanted in {p.casefold() for p in side.players} or wanted == team_name(side.players).casefold()
            for side in info.sides
        )
    ]
