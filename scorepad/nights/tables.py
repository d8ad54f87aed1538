"""A table's phones: the table card and its QR code, the sheet's banner, confirming or disputing the result."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

import segno
from flask import Response, abort, flash, redirect, render_template, request, session, url_for

from ..db import get_db
from ..i18n import gettext as _
from ..nightforms import (
    DisputeForm,
)
from ..security import form_checks_token
from ..store import nights as clubstore
from .night import (
    Night,
    bp,
    card_night,
    clock,
    event_or_404,
    load_night,
    now,
    table_in,
)


@bp.get("/nights/<event_id>/cards")
def table_cards(event_id: str) -> str:
    """The printable table cards: each table's number and the QR code of its address."""
    night = load_night(event_or_404(event_id))
    return render_template("nights/cards.html", night=night, cards=clubstore.cards(get_db(), event_id))


@bp.get("/nights/<event_id>/cards/<int:number>.svg")
def card_code(event_id: str, number: int) -> Response:
    """A table card's QR code, drawn here: no request leaves the club's network."""
    token = clubstore.cards(get_db(), event_or_404(event_id).id).get(number)
    if token is None:
        abort(404)
    out = io.BytesIO()
    link = url_for(".table_card", token=token, _external=True)
    segno.make(link, error="m").save(out, kind="svg", scale=8, border=2, dark="#000", light="#fff")
    return Response(out.getvalue(), mimetype="image/svg+xml")


# --- a table's phones ----------------------------------------------------------------------
@bp.get("/tables/<token>")
def table_card(token: str) -> Any:
    """The table card's address: the table's match in the round being played, or what the table waits for."""
    night, number = card_night(token, with_standings=False)
    table = table_in(night.playing, number)
    if table is not None and table.match_id:
        return redirect(url_for("matches.show", match_id=table.match_id), 303)
    upcoming = night.current if night.current is not None and not night.current.started else None
    return render_template(
        "nights/table.html", night=night, number=number, table=table, upcoming=table_in(upcoming, number)
    )


@bp.get("/tables/<token>/result")
def table_result(token: str) -> str:
    """Both sides confirm the result from their phones, or dispute it."""
    night, number = card_night(token)
    return _result_page(night, number, token)


def _result_page(night: Night, number: int, token: str, form: DisputeForm | None = None) -> str:
    played = night.playing or (night.rounds[-1] if night.rounds and night.rounds[-1].started else None)
    table = table_in(played, number)
    return render_template(
        "nights/result.html",
        night=night,
        number=number,
        table=table,
        token=token,
        form=form or DisputeForm(),
        live=banner_context(night, number, token),
        mine=phone_side(night, table),
    )


# Which entrant each phone plays for, per night: {event id: entrant}, kept in the signed session.
SEATS_KEY = "club_seats"


def phone_side(night: Night, table: clubstore.ClubTable | None) -> int | None:
    """The side (0 North-South, 1 East-West) this phone plays for at the table, once it has confirmed once."""
    entrant = session.get(SEATS_KEY, {}).get(night.event.id)
    if table is None or entrant is None or entrant not in table.entrants:
        return None
    return table.entrants.index(entrant)


def remember_side(night: Night, entrant: str) -> None:
    """The phone's first confirmation says whose phone it is: from then on it confirms for them only."""
    seats = dict(session.get(SEATS_KEY, {}))
    seats[night.event.id] = entrant
    session[SEATS_KEY] = seats


@bp.post("/tables/<token>/confirm")
def confirm_result(token: str) -> Response:
    """One side agrees with the result as the sheet shows it (at that version: a later change asks again)."""
    night, number = card_night(token)
    table = table_in(night.playing, number)
    side = request.form.get("side")
    version = request.form.get("version", "")
    if table is None or table.is_bye or side not in ("0", "1") or not version.isdigit():
        abort(400)
    mine = phone_side(night, table)
    if mine is not None and mine != int(side):
        flash(
            _("This phone is %(entrant)s's: the other side confirms on their own phone.", entrant=table.entrants[mine])
        )
    elif int(version) != table.version:
        flash(_("The sheet changed since you looked: check the result again."))
    else:
        remember_side(night, table.entrants[int(side)])
        clubstore.confirm(get_db(), table.id, int(side), int(version))
        flash(_("Thank you: your side confirmed the result."))
    return redirect(url_for(".table_result", token=token), 303)


@bp.post("/tables/<token>/dispute")
@form_checks_token
def dispute_result(token: str) -> Any:
    """A side does not agree: the table is shown to the director as disputed."""
    night, number = card_night(token)
    table = table_in(night.playing, number)
    form = DisputeForm()
    if table is None or table.is_bye:
        abort(400)
    if form.validate_on_submit():
        clubstore.dispute(get_db(), table.id, (form.note.data or "").strip())
        flash(_("The director has been told: please wait at your table."))
        return redirect(url_for(".table_result", token=token), 303)
    return _result_page(night, number, token, form)


@bp.get("/tables/<token>/banner")
def table_banner(token: str) -> str:
    """What changes above a table's sheet: the clock, the next round's seats, the announcements (htmx polls it)."""
    night, number = card_night(token, with_standings=False)
    return render_template("nights/_banner_live.html", live=banner_context(night, number, token))


def banner_context(night: Night, number: int, token: str) -> dict[str, Any]:
    moment = now()
    return {
        "night": night,
        "number": number,
        "token": token,
        "played": night.playing,
        "clock": clock(night, night.playing, moment),
        "announcements": clubstore.announcements(get_db(), night.event.id)[:3],
        "next": table_in(night.current, number) if night.current and not night.current.started else None,
        "table": table_in(night.playing, number),
    }


@dataclass(frozen=True)
class Banner:
    """What a club table's sheet says above the hands that never changes for its match.

    The sheet page is rendered once per match version and kept for every browser (matches.py),
    so only this goes into it; the clock and the announcements are fetched into it by htmx
    (:func:`table_banner`), and without JavaScript the result page shows them.
    """

    token: str
    event_name: str
    number: int
    round: int
    rounds: int


@bp.app_template_global()
def club_banner(match_id: str) -> Banner | None:
    """For a match played at a club night's table: the banner above its sheet; None for any other match."""
    found = clubstore.table_of_match(get_db(), match_id)
    if found is None:
        return None
    event_id, round_number, number, token = found
    event = clubstore.get_event(get_db(), event_id)
    return Banner(token, event.name, number, round_number, event.settings.rounds)
