"""Club night pages: the organiser runs a night; tables play ordinary matches; anyone with the link watches.

Who may do what (issue 23): only the organiser (organiser mode, :mod:`access`) creates and runs
events, under ``/nights``; a table's phones reach their table's current match through the table
card's address (``/tables/<token>``, one unguessable token per table number, valid all night) and
confirm or dispute its result there; once a round is closed its matches are the organiser's to
correct, and nobody else's saves reach them; the standings (``/standings/<token>``) are read-only
for anyone who has that link. No list of nights is shown to anyone but the organiser.

One blueprint, one module per concern: :mod:`.night` (the night as a page reads it),
:mod:`.running` (the organiser), :mod:`.tables` (a table's phones), :mod:`.watching` (standings
and season), :mod:`.printing` (seating and results on paper) and :mod:`.transfer` (export and import).
"""

from __future__ import annotations

from typing import Any

from flask import render_template, request

from ... import access
from ...db import get_db
from ...store import club as clubstore
from . import printing, running, tables, transfer, watching  # noqa: F401  (their pages join the blueprint)
from .night import MATCH_WRITES, PUBLIC, bp

__all__ = ["bp"]


@bp.before_request
def organiser_only() -> Any:
    """Running a night is the organiser's: anyone else gets a page saying how to sign in."""
    if request.endpoint not in PUBLIC and not access.is_organiser():
        return render_template("nights/organiser_only.html"), 403
    return None


@bp.before_app_request
def closed_rounds_are_the_organisers() -> Any:
    """A phone of a table writes only its table's current match: a closed round's match refuses it."""
    if request.method != "POST" or request.endpoint not in MATCH_WRITES:
        return None
    match_id = (request.view_args or {}).get("match_id", "")
    if access.is_organiser():
        return None
    deleting = request.endpoint == "matches.delete_match"
    if (deleting and clubstore.table_of_match(get_db(), match_id)) or clubstore.is_closed_table_match(
        get_db(), match_id
    ):
        return render_template("nights/closed.html", deleting=deleting), 403
    return None
