"""The night on paper: the seating of each round, and the results sheet with the scoring in force."""

from __future__ import annotations

from flask import abort, render_template, request

from ...db import get_db
from ...store import club as clubstore
from ..core import RoundScore
from .night import Night, bp, event_or_404, load_night


@bp.get("/nights/<event_id>/print/seating")
def print_seating(event_id: str) -> str:
    """Who sits where, a page a round (``?round=2`` for one round): to pin up or hand to the tables."""
    night = load_night(event_or_404(event_id), with_standings=False)
    rounds = night.rounds
    asked = request.args.get("round", "")
    if asked:
        rounds = [r for r in night.rounds if str(r.number) == asked]
        if not rounds:
            abort(404)
    return render_template("nights/print_seating.html", night=night, rounds=rounds)


@bp.get("/nights/<event_id>/print/results")
def print_results(event_id: str) -> str:
    """The results sheet: the standings with each round's score, every table's result, the penalties
    and corrections with their reasons, and how rounds were scored (the victory-point table in force)."""
    night = load_night(event_or_404(event_id))
    return render_template(
        "nights/print_results.html",
        night=night,
        round_numbers=[r.number for r in night.rounds if r.started],
        scores=round_scores(night),
        corrections=clubstore.corrections(get_db(), night.event.id),
        final=night.standings.top(night.settings.final_table) if night.settings.final_table else (),
    )


def round_scores(night: Night) -> dict[tuple[int, str], RoundScore]:
    """Each entrant's score of each round, by (round, entrant): what a table's line on the sheet shows."""
    return {(score.round, row.entrant): score for row in night.standings.rows for score in row.rounds}
