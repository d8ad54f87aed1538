"""Club night pages: the organiser runs a night; tables play ordinary matches; anyone with the link watches.

Who may do what (issue 23): only the organiser (organiser mode, :mod:`access`) creates and runs
events, under ``/nights``; a table's phones reach their table's current match through the table
card's address (``/tables/<token>``, one unguessable token per table number, valid all night) and
confirm or dispute its result there; once a round is closed its matches are the organiser's to
correct, and nobody else's saves reach them (the store's rule: :class:`~scorepad.store.LockedError`,
worded here); the standings (``/standings/<token>``) are read-only for anyone who has that link.
No list of nights is shown to anyone but the organiser.

One blueprint, one module per concern: :mod:`.night` (the night as a page reads it),
:mod:`.running` (the organiser), :mod:`.tables` (a table's phones), :mod:`.watching` (standings
and season), :mod:`.printing` (seating and results on paper) and :mod:`.transfer` (export and import).
"""

from __future__ import annotations

from typing import Any

from flask import render_template, request

from ... import access, store
from . import printing, running, tables, transfer, watching  # noqa: F401  (their pages join the blueprint)
from .night import PUBLIC, bp

__all__ = ["bp"]


@bp.before_request
def organiser_only() -> Any:
    """Running a night is the organiser's: anyone else gets a page saying how to sign in."""
    if request.endpoint not in PUBLIC and not access.is_organiser():
        return render_template("nights/organiser_only.html"), 403
    return None


@bp.app_errorhandler(store.LockedError)
def closed_rounds_are_the_organisers(error: store.LockedError) -> Any:
    """A table's phone wrote a match the store keeps for the organiser: a closed round's, or (to delete) any table's."""
    return render_template("nights/closed.html", deleting=error.deleting), 403
