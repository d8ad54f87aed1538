"""Every match a viewer sees as its document, built from the stored entries and figures."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from sqlite_utils import Database

from .. import canasta
from ..canasta.match import settlement_for
from ..documents import hand_fields, whole_document
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


def match_documents(db: Database, viewer: Viewer = EVERY_MATCH) -> Iterator[dict[str, Any]]:
    """Every match ``viewer`` sees that is not deleted as its document (``GET /api/v1/matches/<id>``),
    oldest first.

    Built from the stored entries and figures: the backup reads, it does not rescore.
    """
    seen, params = visible_to(viewer, "m.id")
    for row in select_rows(db, f"{HEAD_SQL} where m.deleted is null and {seen} order by m.created, m.id", params):
        yield _document_from_figures(db, row)


def _document_from_figures(db: Database, row: dict[str, Any]) -> dict[str, Any]:
    """One match's document from its row and stored figures, written by ``documents.whole_document``."""
    summary = standing_of(row)
    variant = variant_of(row)
    settlement = settlement_for(summary.totals, variant.settlement_unit) if summary.is_finished else None
    hands = _hand_documents_from_figures(db, row["id"])
    info = replace(info_of(row), undone=undone_stack(db, row["id"]), history=hand_histories(db, row["id"]))
    return whole_document(info, variant, starting_of(row), hands, summary, settlement)


def _hand_documents_from_figures(db: Database, match_id: str) -> list[dict[str, Any]]:
    """A match's live hands as its document lists them, in order, from their entries and stored figures."""
    stored = select_rows(
        db,
        "select h.data, f.number, f.scores, f.totals, f.minimums, f.detail from hand_figures f "
        "join hands h on h.id = f.hand_id where f.match_id = ? order by f.number",
        [match_id],
    )
    return [_hand_document_from_figures(hand) for hand in stored]


def _hand_document_from_figures(hand: dict[str, Any]) -> dict[str, Any]:
    detail = json.loads(hand["detail"])
    warnings = [canasta.Violation(w["code"], w["message"], w["field"]) for w in detail["warnings"]]
    return hand_fields(
        hand_of(hand),
        numbers(hand["scores"]),
        numbers(hand["totals"]),
        numbers(hand["minimums"]),
        detail["breakdown"],
        warnings,
        hand["number"],
    )
