"""Every match a viewer sees as its document, built from the stored entries and figures."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from sqlite_utils import Database

from .. import canasta
from ..canasta.match import settlement_for
from ..documents import FORMAT, FORMAT_VERSION, state_fields
from .access import EVERY_MATCH, Viewer, _visible_to
from .reads import HEAD_SQL
from .rows import _hand, _select, _standing, _starting, _variant


def match_documents(db: Database, viewer: Viewer = EVERY_MATCH) -> Iterator[dict[str, Any]]:
    """Every match ``viewer`` sees that is not deleted as its document (``GET /api/v1/matches/<id>``),
    oldest first.

    Built from the stored entries and figures: the backup reads, it does not rescore.
    """
    seen, params = _visible_to(viewer, "m.id")
    for row in _select(db, f"{HEAD_SQL} where m.deleted is null and {seen} order by m.created, m.id", params):
        yield _document_from_figures(db, row)


def _document_from_figures(db: Database, row: dict[str, Any]) -> dict[str, Any]:
    """One match's document from its row and stored figures, key for key what ``documents.match_document`` writes."""
    summary = _standing(row)
    hands = _hand_documents_from_figures(db, row["id"])
    starting = _starting(row)
    document = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "id": row["id"],
        "title": row["title"] or "",
        "created": row["created"],
        "finished": row["finished"],
        "options": json.loads(row["options"]),
        "sides": json.loads(row["sides"]),
        "starting_totals": list(starting) if starting else None,
        "variant": row["variant"],
        "hands": hands,
    }
    settlement = settlement_for(summary.totals, _variant(row).settlement_unit) if summary.is_finished else None
    return document | state_fields(summary, settlement)


def _hand_documents_from_figures(db: Database, match_id: str) -> list[dict[str, Any]]:
    """A match's live hands as its document lists them, in order, from their entries and stored figures."""
    stored = _select(
        db,
        "select h.data, f.scores, f.totals, f.minimums, f.detail from hand_figures f "
        "join hands h on h.id = f.hand_id where f.match_id = ? order by f.number",
        [match_id],
    )
    return [_hand_document_from_figures(hand, index) for index, hand in enumerate(stored)]


def _hand_document_from_figures(hand: dict[str, Any], index: int) -> dict[str, Any]:
    """One hand as ``documents.hand_document`` writes it: entries, scores, totals, minimums, breakdown, warnings."""
    detail = json.loads(hand["detail"])
    document = _hand(hand).to_dict()
    document.update(
        scores=json.loads(hand["scores"]),
        totals=json.loads(hand["totals"]),
        minimums=json.loads(hand["minimums"]),
        breakdown=detail["breakdown"],
    )
    if detail["warnings"]:
        document["warnings"] = [
            {
                "field": canasta.Violation(w["code"], w["message"], w["field"]).under(f"hands[{index}]").field,
                "message": w["message"],
            }
            for w in detail["warnings"]
        ]
    return document
