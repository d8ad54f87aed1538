"""Results as CSV for a spreadsheet: one match hand by hand, or a row per match from stored summaries."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from ..canasta import HandResult, Match, SideScore
from ..canasta.cards import CARD_CLASSES
from ..canasta.entries import Entry
from ..records import MatchInfo
from .common import safe_text
from .streaming import csv_pieces

# The order players count a side's score in, for the breakdown columns of the CSV.
PART_ORDER = (
    "special_hand", "canastas.", "red_threes", "black_threes", "going_out", "concealed",
    "melded_points", "hand_points", "black_threes_in_hand", "incomplete.", "held_sets.",
    "restored_piles", "penalty_points",
)  # fmt: skip


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


# --- all matches ----------------------------------------------------------------------------


def summary_csv(rows: Iterable[Any]) -> str:
    """One row per match, from stored summaries (``store.ResultRow``): nothing rescored."""
    rows = list(rows)
    return "".join(summary_csv_pieces(rows, max((len(row.info.sides) for row in rows), default=2)))


def summary_csv_pieces(rows: Iterable[Any], most: int) -> Iterator[str]:
    """:func:`summary_csv` a row at a time, for rows read as they are written; ``most`` is the
    largest number of sides among them (the columns every row has)."""
    return csv_pieces(_summary_lines(rows, max(most, 2)))


def _summary_lines(rows: Iterable[Any], most: int) -> Iterator[list[int | str]]:
    header = ["id", "created", "finished", "title", "variant", "variant name", "hands", "status", "winner", "margin"]
    for number in range(1, most + 1):
        header += [f"side {number}", f"side {number} players", f"side {number} total"]
    yield header
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
        yield line
