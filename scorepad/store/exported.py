"""Every match a viewer sees as its figures were kept: entries and stored figures, not rescored.

The store reads the rows; ``documents.figured_document`` writes each as its JSON document.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from sqlite_utils import Database

from .. import canasta
from ..records import FiguredHand, FiguredMatch
from .access import EVERY_MATCH, Viewer, visible_to
from .reads import HEAD_SQL
from .rows import (
    hand_histories,
    hand_of,
    info_of,
    numbers,
    select_rows,
    standing_of,
    starting_of,
    undone_stack,
    variant_of,
)


def figured_matches(db: Database, viewer: Viewer = EVERY_MATCH) -> Iterator[FiguredMatch]:
    """Every match ``viewer`` sees that is not deleted, oldest first, read one at a time with its
    stored figures (``GET /api/v1/matches/<id>``'s document is written from it): a backup reads,
    it does not rescore.
    """
    seen, params = visible_to(viewer, "m.id")
    for row in select_rows(db, f"{HEAD_SQL} where m.deleted is null and {seen} order by m.created, m.id", params):
        yield _figured_match(db, row)


def _figured_match(db: Database, row: dict[str, Any]) -> FiguredMatch:
    """One match from its row, its stored summary and its hands' stored figures."""
    info = replace(info_of(row), undone=undone_stack(db, row["id"]), history=hand_histories(db, row["id"]))
    hands = select_rows(
        db,
        "select h.data, f.number, f.scores, f.totals, f.minimums, f.detail from hand_figures f "
        "join hands h on h.id = f.hand_id where f.match_id = ? order by f.number",
        [row["id"]],
    )
    return FiguredMatch(info, variant_of(row), starting_of(row), standing_of(row), [_figured_hand(h) for h in hands])


def _figured_hand(hand: dict[str, Any]) -> FiguredHand:
    detail = json.loads(hand["detail"])
    return FiguredHand(
        hand_of(hand),
        hand["number"],
        numbers(hand["scores"]),
        numbers(hand["totals"]),
        numbers(hand["minimums"]),
        detail["breakdown"],
        [canasta.Violation(w["code"], w["message"], w["field"]) for w in detail["warnings"]],
    )
