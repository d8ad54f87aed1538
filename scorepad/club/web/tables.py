"""A table's phones: the table card and its QR code, the sheet's banner, confirming or disputing the result."""

from __future__ import annotations

import hashlib
import hmac
import io
from dataclasses import dataclass
from typing import Any

import segno
from flask import Response, abort, current_app, flash, redirect, render_template, request, session, url_for

from ...db import get_db
from ...forms.club import (
    DisputeForm,
)
from ...i18n import gettext as _
from ...security import form_checks_token
from ...store import club as clubstore
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
    return _qr(url_for(".table_card", token=token, _external=True))


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
    """Both sides confirm the result from their phones, or dispute it (``?round=`` an earlier round's)."""
    night, number = card_night(token)
    return _result_page(night, number, token)


def asked_round(night: Night) -> clubstore.Round | None:
    """The round a result page or a confirmation is about: ``round`` in the query or form, else the one played.

    A sheet of an earlier round links to its own round's result (its banner names it), so a phone
    left on an old sheet never confirms the round played now.
    """
    asked = request.values.get("round", "")
    if asked.isdigit() and len(asked) <= 3:
        return next((r for r in night.rounds if r.number == int(asked) and r.started), None)
    return night.playing or (night.rounds[-1] if night.rounds and night.rounds[-1].started else None)


def _result_page(night: Night, number: int, token: str, form: DisputeForm | None = None) -> str:
    played = asked_round(night)
    table = table_in(played, number)
    return render_template(
        "nights/result.html",
        night=night,
        number=number,
        played=played,
        table=table,
        token=token,
        form=form or DisputeForm(),
        live=banner_context(night, number, token),
        phone=phone_of(night, table),
    )


# Which entrant each phone plays for, per night: {event id: entrant}, kept in the signed session.
SEATS_KEY = "club_seats"


@dataclass(frozen=True)
class Phone:
    """Whose phone this is at a table: the entrant it belongs to tonight (if any) and the sides it may confirm."""

    entrant: str | None
    sides: tuple[int, ...]  # the sides this phone may confirm at this table
    elsewhere: bool = False  # it is an entrant's who does not sit at this table

    def may_confirm(self, side: int) -> bool:
        return side in self.sides


def phone_of(night: Night, table: clubstore.ClubTable | None) -> Phone:
    """Which sides this phone may confirm at ``table`` (issue 30, 34: a confirmation belongs to a table).

    A phone that is an entrant's tonight (their pair card, or the first result it confirmed)
    confirms that entrant's side at the table they sit at, and nothing elsewhere. A phone that is
    nobody's yet holds only the table card: it may confirm either side until the card has
    confirmed one; the other side then confirms on a phone of theirs, or the director settles it.
    """
    entrant = session.get(SEATS_KEY, {}).get(night.event.id)
    if table is None or table.is_bye:
        return Phone(entrant, ())
    if entrant is not None:
        if entrant not in table.entrants:
            return Phone(entrant, (), elsewhere=True)
        return Phone(entrant, (table.entrants.index(entrant),))
    if table.card_side is not None:
        return Phone(None, (table.card_side,))
    return Phone(None, (0, 1))


def remember_side(night: Night, entrant: str) -> None:
    """The phone's first confirmation (or its pair card) says whose phone it is: it then confirms for them only."""
    seats = dict(session.get(SEATS_KEY, {}))
    seats[night.event.id] = entrant
    session[SEATS_KEY] = seats


@bp.post("/tables/<token>/confirm")
def confirm_result(token: str) -> Response:
    """One side agrees with the result as the sheet shows it (at that version: a later change asks again)."""
    night, number = card_night(token)
    played = asked_round(night)
    table = table_in(played, number)
    side = request.form.get("side")
    version = request.form.get("version", "")
    if table is None or table.is_bye or side not in ("0", "1") or not version.isdigit() or len(version) > 18:
        abort(400)
    back = redirect(url_for(".table_result", token=token, round=table.round), 303)
    phone = phone_of(night, table)
    if played is not night.playing:
        flash(_("Round %(number)s is closed: its result is the director's now.", number=table.round))
    elif phone.elsewhere:
        flash(
            _(
                "This phone is %(entrant)s's, who do not play at table %(table)s this round: it confirms nothing here.",
                entrant=phone.entrant,
                table=number,
            )
        )
    elif not table.hands:  # a tap before a card was dealt: nothing to agree with (0 : 0)
        flash(_("No hand is saved at this table yet: there is no result to confirm."))
    elif not phone.may_confirm(int(side)):
        flash(_other_side(table, int(side), phone))
    elif int(version) != table.version:
        flash(_("The sheet changed since you looked: check the result again."))
    elif clubstore.confirm(get_db(), table.id, int(side), int(version), by_card=phone.entrant is None):
        remember_side(night, table.entrants[int(side)])
        flash(_("Thank you: your side confirmed the result."))
    else:  # another phone holding only the card confirmed the other side meanwhile
        flash(_other_side(table, int(side), Phone(None, (1 - int(side),))))
    return back


def _other_side(table: clubstore.ClubTable, side: int, phone: Phone) -> str:
    """Why this phone cannot confirm ``side``: it is the other side's, or the table card confirmed the other side."""
    if phone.entrant is not None:
        return _("This phone is %(entrant)s's: the other side confirms on their own phone.", entrant=phone.entrant)
    return _(
        "This table's card has confirmed %(entrant)s's side: %(other)s confirm on their own phone (their pair card), "
        "or the director settles the result.",
        entrant=table.entrants[1 - side],
        other=table.entrants[side],
    )


@bp.post("/tables/<token>/dispute")
@form_checks_token
def dispute_result(token: str) -> Any:
    """A side does not agree: the table is shown to the director as disputed."""
    night, number = card_night(token)
    played = asked_round(night)
    table = table_in(played, number)
    form = DisputeForm()
    if table is None or table.is_bye:
        abort(400)
    if played is not night.playing:
        flash(_("Round %(number)s is closed: its result is the director's now.", number=table.round))
        return redirect(url_for(".table_result", token=token, round=table.round), 303)
    if form.validate_on_submit():
        clubstore.dispute(get_db(), table.id, (form.note.data or "").strip())
        flash(_("The director has been told: please wait at your table."))
        return redirect(url_for(".table_result", token=token, round=table.round), 303)
    return _result_page(night, number, token, form)


# --- a pair's own card: the phone that scans it is theirs for the night -------------------------
def pair_code(event_id: str, name: str) -> str:
    """An entrant's card code: unguessable without the server's key, and kept nowhere (it is worked out)."""
    key = str(current_app.secret_key).encode()
    return hmac.new(key, f"club-pair\0{event_id}\0{name}".encode(), hashlib.sha256).hexdigest()[:24]


def pair_codes(night: Night) -> dict[str, str]:
    """Every active entrant's card code, by entrant."""
    return {name: pair_code(night.event.id, name) for name in night.active_names}


@bp.get("/nights/<event_id>/pairs")
def pair_cards(event_id: str) -> str:
    """The pair cards: each entrant's QR code; the phone that scans it confirms that entrant's results."""
    night = load_night(event_or_404(event_id), with_standings=False)
    return render_template("nights/pairs.html", night=night, codes=pair_codes(night))


@bp.get("/nights/<event_id>/pairs/<code>.svg")
def pair_code_image(event_id: str, code: str) -> Response:
    night = load_night(event_or_404(event_id), with_standings=False)
    if code not in pair_codes(night).values():
        abort(404)
    return _qr(url_for(".pair_phone", token=night.event.standings_token, code=code, _external=True))


@bp.get("/standings/<token>/pair/<code>")
def pair_phone(token: str, code: str) -> str:
    """A pair card scanned: this phone is that entrant's tonight, and confirms their side at their table."""
    try:
        night = load_night(clubstore.watched_event(get_db(), token), with_standings=False)
    except clubstore.NotFoundError:
        abort(404)
    entrant = next((name for name, mine in pair_codes(night).items() if hmac.compare_digest(mine, code)), None)
    if entrant is None:
        abort(404)
    remember_side(night, entrant)
    return render_template("nights/pair.html", night=night, entrant=entrant)


def _qr(link: str) -> Response:
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="svg", scale=8, border=2, dark="#000", light="#fff")
    return Response(out.getvalue(), mimetype="image/svg+xml")


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
