"""A night in and out: the JSON export (with its matches) that imports back, and the CSV of the standings."""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import Response, flash, jsonify, redirect, render_template, request, url_for

from ... import canasta, store
from ...db import get_db
from ...documents import match_document
from ...formats import parse_json, safe_text
from ...i18n import gettext as _
from ...security import large_body
from ...store import club as clubstore
from ..reading import read_night
from .night import (
    Night,
    bp,
    event_or_404,
    load_night,
)


def export_document(night: Night) -> dict[str, Any]:
    """The night as JSON: its settings, entrants, rounds with each table's match, and the director's notes."""
    db = get_db()
    adjusted = clubstore.adjustment_times(db, night.event.id)
    return {
        "format": "scorepad-club-night",
        "format_version": 1,
        "id": night.event.origin,
        "in_season": night.event.in_season,
        "settings": night.settings.to_dict(),
        "draw": list(night.event.draw),
        "entrants": [
            {"name": e.name, "players": list(e.players), "joined_round": e.joined_round, "withdrawn": e.withdrawn}
            for e in night.entrants
        ],
        "rounds": [_round_document(db, r) for r in night.rounds],
        "adjustments": [{**vars(a), "created": stamp} for a, stamp in zip(night.adjustments, adjusted, strict=True)],
        "corrections": [vars(c) for c in clubstore.corrections(db, night.event.id)],
        "announcements": [vars(a) for a in clubstore.announcements(db, night.event.id)],
        "standings": [
            {"place": row.place, "entrant": row.entrant, "score": row.score, "matches_won": row.matches_won,
             "point_balance": row.point_balance, "points_won": row.points_won}
            for row in night.standings.rows
        ],
    }  # fmt: skip


def _round_document(db: Any, played: clubstore.Round) -> dict[str, Any]:
    tables = []
    for table in played.tables:
        match, times = None, []
        if table.match_id:
            match = match_document(*store.load_match(db, table.match_id))
            times = clubstore.hand_times(db, table.match_id)
        confirmed = [table.version is not None and seen == table.version for seen in table.confirmed]
        tables.append({"number": table.number, "north_south": table.entrants[0], "east_west": table.entrants[1],
                       "match": match, "hand_times": times, "accepted": table.accepted, "disputed": table.disputed,
                       "dispute_note": table.dispute_note, "no_show": table.no_show,
                       "confirmed": confirmed, "every_hand": table.every_hand})  # fmt: skip
    return {"number": played.number, "started": played.started, "ends": played.ends, "closed": played.closed,
            "tables": tables}  # fmt: skip


@bp.post("/nights/import")
@large_body()
def import_night() -> Any:
    """A night's JSON export read back with its matches (new ids); a night already here is recognised by its id."""
    upload = request.files.get("file")
    try:
        night = read_night(parse_json(upload.read() if upload else b""))
    except canasta.InvalidError as error:
        problems = [f"{v.field}: {v.message}" if v.field else v.message for v in error.violations[:5]]
        return render_template("nights/index.html", events=clubstore.list_events(get_db()), problems=problems), 200
    matches = {(r.number, table.number): table.match for r in night.rounds for table in r.tables if table.match}
    event_id, new = clubstore.save_imported_night(get_db(), night, matches)
    if new:
        flash(_("The night is imported with its matches."))
    else:
        flash(_("This night is here already: nothing was imported."))
    return redirect(url_for(".dashboard", event_id=event_id), 303)


@bp.get("/nights/<event_id>/export.json")
def export_json(event_id: str) -> Response:
    night = load_night(event_or_404(event_id))
    response = jsonify(export_document(night))
    response.headers["Content-Disposition"] = f'attachment; filename="club-night-{night.settings.date}.json"'
    return response


@bp.get("/nights/<event_id>/export.csv")
def export_csv(event_id: str) -> Response:
    """The standings as a spreadsheet: one line an entrant, each round's score, the adjustments' sum."""
    night = load_night(event_or_404(event_id))
    numbers = [r.number for r in night.rounds if r.started]
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["place", "entrant", "players", "score", "matches_won", "point_balance", "points_won",
                     *[f"round_{n}" for n in numbers], "adjustments"])  # fmt: skip
    for row in night.standings.rows:
        by_round = {r.round: r.score for r in row.rounds}
        players = ", ".join(night.players.get(row.entrant, ()))
        writer.writerow([safe_text(row.place), safe_text(row.entrant), safe_text(players), row.score,
                         row.matches_won, row.point_balance, row.points_won,
                         *[by_round.get(n, "") for n in numbers], sum(a.amount for a in row.adjustments)])  # fmt: skip
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="club-night-{night.settings.date}.csv"'
    return response
