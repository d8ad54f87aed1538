"""The derived figures: written with the facts that change them, and rebuilt from the facts.

Each hand's scores, totals and minimums, each match's summary and each side's figures are
what the core derives from the stored hands; they are written in the same transaction as the
hands, and :func:`rescore` rebuilds them from the facts after a scoring fix.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlite_utils import Database

from .. import canasta
from ..canasta.match import Standing, carry_forward, game_ends, play_hand, standing
from ..records import team_name
from .rows import (
    Progress,
    hand_of,
    insert_rows,
    live_hands,
    match_row,
    numbers,
    search_key,
    select_rows,
    starting_of,
    variant_of,
    writing,
)


def correct(
    variant: canasta.Variant, before: Sequence[int], number: int, hand: canasta.Hand, later: list[tuple[int, ...]]
) -> tuple[canasta.HandResult, list[tuple[tuple[int, ...], tuple[int, ...]]]]:
    """Hand ``number`` scored from the totals ``before`` it, and the later hands' (minimums, totals)."""
    result = play_hand(variant, number, before, hand)
    return result, carry_forward(variant, result.totals, later)


def ends_early(
    variant: canasta.Variant, number: int, result: canasta.HandResult, carried: list[tuple[Any, tuple[int, ...]]]
) -> bool:
    """Would the game end before the last hand, once hand ``number`` reads ``result``?"""
    ends = [result.totals, *(totals for _, totals in carried)]
    return any(game_ends(variant, totals, number + i) for i, totals in enumerate(ends[:-1]))


# --- rebuilding the figures from the facts ---------------------------------------------------
def rescore(db: Database, progress: Progress | None = None, new_versions: bool = True) -> tuple[int, list[str]]:
    """Score every stored match (deleted ones too) again from its hands and rewrite its figures.

    Run after a scoring fix (:func:`fill_missing_figures` fills them in on upgrade). Each match rescored
    gets a new version (unless ``new_versions`` is False), so sheets cached by version or held by
    a phone are not taken for current. Returns how many matches were rescored and the ids of
    those today's rules refuse (their figures are left as they were).
    """
    ids = [row["id"] for row in select_rows(db, "select id from matches where pending is null order by created, id")]
    refused = []
    with writing(db):
        for done, match_id in enumerate(ids, start=1):
            if new_versions:
                db.execute("update matches set version = version + 1 where id = ?", [match_id])
            if not rescore_match(db, match_id):
                refused.append(match_id)
            if progress:
                progress(done, len(ids))
    return len(ids) - len(refused), refused


def fill_missing_figures(db: Database) -> int:
    """Score the matches that have no stored figures yet (stored before they existed); returns how many.

    Runs at every start, after the migrations; with nothing missing it is one indexed query.
    """
    rows = select_rows(
        db, "select id from matches m where not exists (select 1 from match_summaries s where s.match_id = m.id)"
    )
    missing = [row["id"] for row in rows]
    with writing(db):
        return sum(rescore_match(db, match_id) for match_id in missing)


def rescore_match(db: Database, match_id: str) -> bool:
    """Rewrite one match's figures from its hands; False (nothing written) when the core refuses it."""
    with writing(db):
        row = match_row(db, match_id)
        live = live_hands(db, match_id)
        match = canasta.Match(variant_of(row), tuple(hand_of(h) for h in live), starting_of(row))
        if match.problems():
            return False
        write_figures(db, row, match, [h["id"] for h in live])
        return True


def write_figures(db: Database, row: dict[str, Any], match: canasta.Match, hand_ids: list[int]) -> None:
    """Replace every figure of a match with those of ``match`` (scored whole by the core)."""
    match_id = row["id"]
    for table in ("hand_figures", "side_figures", "match_players"):
        db.execute(f"delete from {table} where match_id = ?", [match_id])
    db.execute("delete from match_summaries where match_id = ?", [match_id])
    variant = match.variant
    insert_hand_figures(db, match_id, list(zip(hand_ids, match.results, strict=True)))
    after = standing(variant, match.totals, len(match.results))
    last = list(
        select_rows(db, "select max(created) as last from hands where match_id = ? and deleted is null", [match_id])
    )
    update_summary(db, row, variant, after, last[0]["last"] or row["created"])
    sides = json.loads(row["sides"])
    players = []
    for index, side in enumerate(sides):
        names = side["players"]
        for key in dict.fromkeys(search_key(name) for name in names):
            spelt = next(name for name in names if search_key(name) == key)
            players.append((match_id, index, "player", key, spelt))
        if len(names) >= 2:
            team = team_name(names)
            players.append((match_id, index, "team", search_key(team), team))
    insert_rows(db, "match_players", PLAYERS, players)
    insert_rows(
        db,
        "side_figures",
        SIDE_FIGURES,
        [(match_id, index, side["name"], 0, "playing", 0, 0, None, 0, 0) for index, side in enumerate(sides)],
    )
    recount_sides(db, match_id, after)


PLAYERS = ("match_id", "side", "kind", "key", "name")

SIDE_FIGURES = (
    "match_id", "side", "name", "total", "outcome", "hands", "points", "best_hand", "canastas", "red_threes",
)  # fmt: skip


HAND_FIGURES = ("hand_id", "match_id", "number", "scores", "totals", "minimums", "canastas", "red_threes", "detail")

SUMMARY = (
    "match_id", "version", "variant_name", "hands", "totals", "next_minimums", "is_finished", "is_tie", "winner",
    "margin", "last_played", "names",
)  # fmt: skip


def insert_hand_figures(db: Database, match_id: str, scored: list[tuple[int, canasta.HandResult]]) -> None:
    rows = []
    for hand_id, result in scored:
        detail = {
            "breakdown": [side.to_dict() for side in result.sides],
            "warnings": [{"field": w.field, "message": w.message, "code": w.code} for w in result.warnings],
        }
        rows.append(
            (
                hand_id,
                match_id,
                result.number,
                json.dumps(result.scores),
                json.dumps(result.totals),
                json.dumps(result.minimums),
                json.dumps([entry.canasta_count for entry in result.hand.entries]),
                json.dumps([entry.red_threes for entry in result.hand.entries]),
                json.dumps(detail),
            )
        )
    insert_rows(db, "hand_figures", HAND_FIGURES, rows)


def update_summary(
    db: Database, row: dict[str, Any], variant: canasta.Variant, after: Standing, last_played: str
) -> None:
    sides = json.loads(row["sides"])
    words = [row["title"] or "", *(s["name"] for s in sides), *(p for s in sides for p in s["players"])]
    values = (
        row["id"],
        row["version"],
        variant.name,
        after.played,
        json.dumps(after.totals),
        json.dumps(after.next_minimums),
        after.is_finished,
        after.is_tie,
        after.winner,
        after.margin,
        last_played,
        "\n".join(search_key(word) for word in words if word),
    )
    insert_rows(db, "match_summaries", SUMMARY, [values], replace=True)


def sync_summary_version(db: Database, match_id: str) -> None:
    db.execute(
        "update match_summaries set version = (select version from matches where id = ?) where match_id = ?",
        [match_id, match_id],
    )


def _outcome(after: Standing, side: int) -> str:
    if not after.is_finished:
        return "playing"
    if after.is_tie and after.totals[side] == max(after.totals):
        return "tie"
    return "won" if after.winner == side else "lost"


def add_to_sides(db: Database, match_id: str, after: Standing, result: canasta.HandResult) -> None:
    """One more hand on each side's figures: counts and sums grow, the best hand may change."""
    for index, (score, entry) in enumerate(zip(result.scores, result.hand.entries, strict=True)):
        db.execute(
            "update side_figures set total = ?, outcome = ?, hands = hands + 1, points = points + ?, "
            "best_hand = max(coalesce(best_hand, ?), ?), canastas = canastas + ?, red_threes = red_threes + ? "
            "where match_id = ? and side = ?",
            [after.totals[index], _outcome(after, index), score, score, score, entry.canasta_count,
             entry.red_threes, match_id, index],
        )  # fmt: skip


def recount_sides(db: Database, match_id: str, after: Standing) -> None:
    """Each side's figures summed again from the stored hand figures (no hand is rescored)."""
    sums: dict[int, list[Any]] = {index: [0, 0, None, 0, 0] for index in range(len(after.totals))}
    for row in select_rows(db, "select scores, canastas, red_threes from hand_figures where match_id = ?", [match_id]):
        for index, (score, canastas, threes) in enumerate(
            zip(numbers(row["scores"]), numbers(row["canastas"]), numbers(row["red_threes"]), strict=True)
        ):
            figures = sums[index]
            figures[0] += 1
            figures[1] += score
            figures[2] = score if figures[2] is None else max(figures[2], score)
            figures[3] += canastas
            figures[4] += threes
    for index, (hands, points, best, canastas, threes) in sums.items():
        db.execute(
            "update side_figures set total = ?, outcome = ?, hands = ?, points = ?, best_hand = ?, canastas = ?, "
            "red_threes = ? where match_id = ? and side = ?",
            [after.totals[index], _outcome(after, index), hands, points, best, canastas, threes, match_id, index],
        )


def hand_scores(hand: canasta.Hand, variant: canasta.Variant) -> tuple[int, ...] | None:
    """A stored version of a hand's scores, or None if today's rules no longer accept it."""
    if canasta.check_hand(hand, variant):
        return None
    return tuple(side.score for side in canasta.score_hand(hand, variant))
