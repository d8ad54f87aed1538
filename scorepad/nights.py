"""Club night pages: the organiser runs a night; tables play ordinary matches; anyone with the link watches.

Who may do what (issue 23): only the organiser (organiser mode, :mod:`access`) creates and runs
events, under ``/nights``; a table's phones reach their table's current match through the table
card's address (``/tables/<token>``, one unguessable token per table number, valid all night) and
confirm or dispute its result there; once a round is closed its matches are the organiser's to
correct, and nobody else's saves reach them; the standings (``/standings/<token>``) are read-only
for anyone who has that link. No list of nights is shown to anyone but the organiser.
"""

from __future__ import annotations

import csv
import io
import random
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from typing import Any

import segno
from flask import Blueprint, Response, abort, flash, jsonify, redirect, render_template, request, url_for

from . import access, canasta, store
from .clubimport import ImportedNight, read_night
from .clubnight import (
    Adjustment,
    EventSettings,
    MovementError,
    Seating,
    Standings,
    late_arrival,
    night_points,
    random_draw,
    round_robin,
    season_table,
    seat_in_order,
    seat_next_round,
    standings,
    time_rule,
    withdraw,
)
from .clubnight.settings import MOST_TABLES
from .db import get_db
from .documents import Side, match_document
from .formats import parse_json, safe_text
from .i18n import gettext as _
from .nightforms import (
    AdjustmentForm,
    AnnouncementForm,
    DisputeForm,
    EntrantForm,
    EventForm,
    ReasonForm,
    entrant_choices,
    settings_from,
)
from .security import form_checks_token, large_body
from .store import nights as clubstore

bp = Blueprint("nights", __name__)

# Pages anyone with the address may open; every other page of this blueprint is the organiser's.
PUBLIC = {
    "nights.table_card",
    "nights.table_result",
    "nights.confirm_result",
    "nights.dispute_result",
    "nights.table_banner",
    "nights.standings_page",
    "nights.standings_screen",
    "nights.standings_live",
}
# The match pages that write: a closed round's match takes them from the organiser only.
MATCH_WRITES = {
    "matches.add_hand",
    "matches.update_hand",
    "matches.undo_hand",
    "matches.restore_hand",
    "matches.delete_match",
    "matches.restore_match",
}
PLAYING, WAITING, FINISHED, DISPUTED, LATE, BYE, SEATED = (
    "playing", "waiting", "finished", "disputed", "late", "bye", "seated",
)  # fmt: skip


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


# --- what a page shows of a night ----------------------------------------------------------
@dataclass(frozen=True)
class Night:
    """A night as its pages need it: the event, entrants, rounds and the standings now."""

    event: clubstore.Event
    entrants: list[clubstore.Entrant]
    rounds: list[clubstore.Round]
    standings: Standings
    adjustments: list[Adjustment]

    @property
    def settings(self) -> EventSettings:
        return self.event.settings

    @property
    def current(self) -> clubstore.Round | None:
        """The last round seated (started or not)."""
        return self.rounds[-1] if self.rounds else None

    @property
    def playing(self) -> clubstore.Round | None:
        """The round being played now: started and not closed."""
        return next((r for r in reversed(self.rounds) if r.started and not r.closed), None)

    @property
    def active_names(self) -> list[str]:
        return [entrant.name for entrant in self.entrants if not entrant.withdrawn]

    @property
    def players(self) -> dict[str, tuple[str, ...]]:
        """Each entrant's players as entered (none for a player entered by name alone)."""
        return {entrant.name: entrant.players for entrant in self.entrants}

    @property
    def season_players(self) -> dict[str, tuple[str, ...]]:
        """Whose season an entrant's points go to: a pair's two players, or the entrant named alone."""
        return {name: players or (name,) for name, players in self.players.items()}

    @property
    def hands_per_round(self) -> int | None:
        """The round's number of hands when rounds are played by hands, else None."""
        length = self.settings.round_length
        return length.value if length.kind == "hands" else None

    def time_sentence(self) -> Any:
        return time_rule(self.settings)


def load_night(event: clubstore.Event, with_standings: bool = True) -> Night:
    """Everything a page of this night reads, in a few queries (the sheet's banner needs no standings)."""
    db = get_db()
    entrants = clubstore.entrants(db, event.id)
    rounds = clubstore.rounds(db, event.id)
    if not with_standings:
        return Night(event, entrants, rounds, Standings((), provisional=False), [])
    adjustments = clubstore.adjustments(db, event.id)
    names = [entrant.name for entrant in entrants]
    table = standings(names, clubstore.results(rounds), event.settings, adjustments)
    return Night(event, entrants, rounds, table, adjustments)


def table_state(table: clubstore.ClubTable, played: clubstore.Round, moment: datetime, hands: int | None = None) -> str:
    """What the dashboard says of a table: playing, waiting for confirmation, finished, disputed or late.

    ``hands`` is the round's number of hands when rounds are played by hands: a table that has
    played them waits for its confirmation.
    """
    if table.is_bye:
        return BYE
    if played.started is None:
        return SEATED
    if table.disputed:
        return DISPUTED
    if table.is_confirmed or played.closed or table.no_show:
        return FINISHED
    if table.is_finished or any(table.confirmed) or (hands is not None and table.hands >= hands):
        return WAITING
    if played.ends and moment >= datetime.fromisoformat(played.ends):
        return LATE
    return PLAYING


@dataclass(frozen=True)
class Clock:
    """A round's clock as a page shows it: minutes left, and whether the warning or the time has come."""

    ends: str
    minutes_left: int
    is_warning: bool
    is_over: bool


def clock(night: Night, played: clubstore.Round | None, moment: datetime) -> Clock | None:
    """The clock of a started round that has an end time, else None."""
    if played is None or not played.ends or played.closed:
        return None
    left = datetime.fromisoformat(played.ends) - moment
    minutes = max(0, -(-int(left.total_seconds()) // 60))
    warning = night.settings.round_length.warning or 0
    return Clock(played.ends, minutes, 0 < minutes <= warning, left.total_seconds() <= 0)


def now() -> datetime:
    return datetime.now(UTC)


# --- the organiser's pages -----------------------------------------------------------------
@bp.get("/nights")
def index() -> str:
    """The organiser's nights, newest first, and the way to a new one."""
    return render_template("nights/index.html", events=clubstore.list_events(get_db()))


@bp.route("/nights/new", methods=["GET", "POST"])
@form_checks_token
def new_event() -> Any:
    """The settings form with every default filled in; refusals name their box."""
    form = EventForm()
    if request.method == "GET" and not form.date.data:
        form.date.data = now().date().isoformat()
    if form.validate_on_submit():
        try:
            settings = settings_from(form)
        except canasta.InvalidError as error:
            form.attach(error)
        else:
            event_id = clubstore.create_event(get_db(), settings)
            flash(_("The night is ready: enter the pairs or players."))
            return redirect(url_for(".dashboard", event_id=event_id), 303)
    return render_template("nights/new.html", form=form)


def _event(event_id: str) -> clubstore.Event:
    try:
        return clubstore.get_event(get_db(), event_id)
    except clubstore.NotFoundError:
        abort(404)


@bp.get("/nights/<event_id>")
def dashboard(event_id: str) -> str:
    """The director's dashboard: entrants, the round's tables and their states, and every control."""
    return _dashboard(load_night(_event(event_id)))


def _dashboard(night: Night, **forms: Any) -> str:
    moment = now()
    adjustment = forms.pop("adjustment", None) or AdjustmentForm(prefix="adjustment")
    adjustment.entrant.choices = entrant_choices(night.active_names)
    return render_template(
        "nights/dashboard.html",
        night=night,
        states={
            table.id: table_state(table, r, moment, night.hands_per_round) for r in night.rounds for table in r.tables
        },
        clock=clock(night, night.playing, moment),
        entrant_form=forms.pop("entrant", None) or EntrantForm(),
        adjustment_form=adjustment,
        correction_form=forms.pop("correction", None) or ReasonForm(prefix="correction"),
        announcement_form=forms.pop("announcement", None) or AnnouncementForm(prefix="announcement"),
        corrections=clubstore.corrections(get_db(), night.event.id),
        announcements=clubstore.announcements(get_db(), night.event.id),
        cards=clubstore.cards(get_db(), night.event.id),
    )


@bp.post("/nights/<event_id>/entrants")
@form_checks_token
def add_entrant(event_id: str) -> Any:
    """A pair or player joins; before a seated round starts they take its bye or a new table."""
    night = load_night(_event(event_id))
    form = EntrantForm()
    if form.validate_on_submit():
        name = form.name.data.strip()
        if name in night.players:
            form.name.errors.append(_("%(name)s is already entered tonight.", name=name))
        elif len(night.entrants) >= MOST_TABLES * 2:
            form.name.errors.append(_("A night has at most %(count)s entrants.", count=MOST_TABLES * 2))
        elif night.current is not None and night.current.started and night.current.number >= night.settings.rounds:
            form.name.errors.append(_("Every round has started: nobody can join now."))
        else:
            _enter(night, name, form.player_names())
            return redirect(url_for(".dashboard", event_id=event_id), 303)
    return _dashboard(night, entrant=form)


def _enter(night: Night, name: str, players: tuple[str, ...]) -> None:
    db = get_db()
    upcoming = night.current if night.current is not None and not night.current.started else None
    joined = upcoming.number if upcoming else (night.current.number + 1 if night.current else 1)
    with clubstore.writing(db):
        clubstore.add_entrant(db, night.event.id, name, players, joined)
        if upcoming is not None:
            clubstore.save_seating(db, night.event.id, late_arrival(upcoming.seating, name))
    flash(_("%(name)s joined the night.", name=name))


@bp.post("/nights/<event_id>/rounds")
def seat_round(event_id: str) -> Response:
    """Seat the next round by the event's movement (round 1: drawn or as entered)."""
    night = load_night(_event(event_id))
    problem = _cannot_seat(night)
    if problem is None:
        try:
            _seat(night)
        except MovementError as error:
            problem = error.violations[0].message
    if problem is not None:
        flash(problem)
    return redirect(url_for(".dashboard", event_id=event_id), 303)


def _cannot_seat(night: Night) -> str | None:
    """Why the next round cannot be seated now, or None."""
    current = night.current
    if len(night.active_names) < 2:
        return _("Enter at least two pairs or players first.")
    if current is not None and not current.started:
        return _("Round %(number)s is seated already: start it first.", number=current.number)
    if current is not None and current.number >= night.settings.rounds:
        return _("Every round of the night has been seated.")
    if current is None or request.form.get("override") == "yes":
        return None
    if any(table.disputed for table in current.tables):
        return _("A table of round %(number)s is disputed: settle it first.", number=current.number)
    moment = now()
    missing = [
        t.number
        for t in current.tables
        if table_state(t, current, moment, night.hands_per_round) not in (FINISHED, BYE)
    ]
    if missing:
        return _(
            "Round %(number)s has no result yet at table %(tables)s: close the round, "
            "or tick the box to seat it anyway.",
            number=current.number,
            tables=", ".join(map(str, missing)),
        )
    return None


def _seat(night: Night) -> None:
    db = get_db()
    names = night.active_names
    if night.current is None:
        rng = random.Random(night.event.seed)
        order = random_draw(names, rng) if night.settings.first_round == "random" else names
        seating = round_robin(order, 1) if night.settings.movement == "round_robin" else seat_in_order(order)
        with clubstore.writing(db):
            clubstore.set_draw(db, night.event.id, order)
            clubstore.save_seating(db, night.event.id, seating)
        return
    previous = [r.seating for r in night.rounds]
    if night.settings.movement == "round_robin":
        order = list(night.event.draw) + [name for name in names if name not in night.event.draw]
    else:
        order = [name for name in night.standings.ranked if name in names]
    seating = seat_next_round(night.settings, previous, order)
    for name in names:
        if name not in seating.entrants:
            seating = late_arrival(seating, name)
    clubstore.save_seating(db, night.event.id, _without_withdrawn(seating, names))


def _without_withdrawn(seating: Seating, names: list[str]) -> Seating:
    """A withdrawn entrant's seat is emptied: their opponent has the bye (a Mitchell keeps the empty seat moving)."""
    for name in sorted(set(seating.entrants) - set(names)):
        seating = withdraw(seating, name)
    return seating


@bp.post("/nights/<event_id>/rounds/<int:number>/swap")
def swap_seats(event_id: str, number: int) -> Response:
    """The organiser's change before a round starts: two entrants change seats."""
    night = load_night(_event(event_id))
    current = night.current
    if current is None or current.number != number or current.started:
        flash(_("Only a round that has not started can be changed."))
    else:
        try:
            seating = current.seating.swapped(request.form.get("first", ""), request.form.get("second", ""))
        except MovementError as error:
            flash(error.violations[0].message)
        else:
            clubstore.save_seating(get_db(), event_id, seating)
            flash(_("Seats swapped."))
    return redirect(url_for(".dashboard", event_id=event_id), 303)


@bp.post("/nights/<event_id>/rounds/<int:number>/start")
def start_round(event_id: str, number: int) -> Response:
    """Start the round's clock; each played table gets an ordinary match with the night's rules."""
    night = load_night(_event(event_id))
    current = night.current
    if current is None or current.number != number or current.started:
        flash(_("Only the round just seated can start."))
        return redirect(url_for(".dashboard", event_id=event_id), 303)
    db = get_db()
    settings = night.settings
    matches = {}
    for table in current.tables:
        if table.is_bye:
            continue
        sides = [Side(name, night.players.get(name, ())) for name in table.entrants if name]
        title = _(
            "%(night)s · round %(round)s · table %(table)s", night=settings.name, round=number, table=table.number
        )
        matches[table.number] = store.create_match(db, settings.rules, sides, title=title)
    ends = None
    if settings.round_length.kind == "minutes":
        ends = (now() + timedelta(minutes=settings.round_length.value)).isoformat(timespec="seconds")
    with clubstore.writing(db):
        for earlier in night.rounds[:-1]:
            if not earlier.closed:
                clubstore.close_round(db, event_id, earlier.number)
        clubstore.start_round(db, event_id, number, ends, matches)
    flash(_("Round %(number)s has started.", number=number))
    return redirect(url_for(".dashboard", event_id=event_id), 303)


@bp.post("/nights/<event_id>/rounds/<int:number>/close")
def close_round(event_id: str, number: int) -> Response:
    """End the round: its tables' phones stop writing; the organiser can still correct its hands."""
    _event(event_id)
    clubstore.close_round(get_db(), event_id, number)
    flash(_("Round %(number)s is closed.", number=number))
    return redirect(url_for(".dashboard", event_id=event_id), 303)


@bp.post("/nights/<event_id>/tables/<int:table_id>/accept")
def accept_result(event_id: str, table_id: int) -> Response:
    """The director settles a disputed (or unconfirmed) table's result as its sheet stands."""
    _event(event_id)
    try:
        table = clubstore.table_by_id(get_db(), event_id, table_id)
    except clubstore.NotFoundError:
        abort(404)
    clubstore.accept(get_db(), table.id)
    flash(_("Round %(round)s, table %(table)s: the result stands.", round=table.round, table=table.number))
    return redirect(url_for(".dashboard", event_id=event_id), 303)


@bp.post("/nights/<event_id>/tables/<int:table_id>/no-show")
def no_show(event_id: str, table_id: int) -> Response:
    """An entrant never came to the table: they lose by the night's no-show margin (or it is taken back)."""
    _event(event_id)
    try:
        table = clubstore.table_by_id(get_db(), event_id, table_id)
    except clubstore.NotFoundError:
        abort(404)
    entrant = request.form.get("entrant") or None
    if entrant is not None and (table.is_bye or entrant not in table.entrants):
        abort(400)
    clubstore.mark_no_show(get_db(), table.id, entrant)
    if entrant:
        flash(_("%(entrant)s did not come: they lose this round by the night's margin.", entrant=entrant))
    return redirect(url_for(".dashboard", event_id=event_id), 303)


@bp.post("/nights/<event_id>/entrants/withdraw")
def withdraw_entrant(event_id: str) -> Response:
    """An entrant leaves: seated no more, and the round not yet started loses them (their opponent has a bye)."""
    night = load_night(_event(event_id))
    name = request.form.get("name", "")
    if name not in night.active_names:
        abort(400)
    db = get_db()
    with clubstore.writing(db):
        clubstore.withdraw(db, event_id, name)
        upcoming = night.current if night.current is not None and not night.current.started else None
        if upcoming is not None:
            staying = [other for other in night.active_names if other != name]
            clubstore.save_seating(db, event_id, _without_withdrawn(upcoming.seating, staying))
    flash(_("%(name)s has left the night.", name=name))
    return redirect(url_for(".dashboard", event_id=event_id), 303)


@bp.post("/nights/<event_id>/entrants/back")
def entrant_back(event_id: str) -> Response:
    """A withdrawal taken back: the entrant is seated again from the next round seated (a late arrival's way)."""
    night = load_night(_event(event_id))
    name = request.form.get("name", "")
    if not any(entrant.name == name and entrant.withdrawn for entrant in night.entrants):
        abort(400)
    db = get_db()
    with clubstore.writing(db):
        clubstore.withdraw(db, event_id, name, back=True)
        upcoming = night.current if night.current is not None and not night.current.started else None
        if upcoming is not None and name not in upcoming.seating.entrants:
            clubstore.save_seating(db, event_id, late_arrival(upcoming.seating, name))
    flash(_("%(name)s is back in the night.", name=name))
    return redirect(url_for(".dashboard", event_id=event_id), 303)


@bp.post("/nights/<event_id>/adjustments")
@form_checks_token
def add_adjustment(event_id: str) -> Any:
    """A penalty or an adjustment with its reason, in the round's units."""
    night = load_night(_event(event_id))
    form = AdjustmentForm(prefix="adjustment")
    form.entrant.choices = entrant_choices(night.active_names)
    if form.validate_on_submit():
        adjustment = Adjustment(form.round.data, form.entrant.data, form.amount.data, form.reason.data.strip())
        clubstore.add_adjustment(get_db(), event_id, adjustment)
        flash(_("Adjustment recorded: %(entrant)s, %(amount)s.", entrant=adjustment.entrant, amount=adjustment.amount))
        return redirect(url_for(".dashboard", event_id=event_id), 303)
    return _dashboard(night, adjustment=form)


@bp.post("/nights/<event_id>/corrections")
@form_checks_token
def add_correction(event_id: str) -> Any:
    """The reason for a hand corrected on a table's sheet (the sheet keeps every version of the hand)."""
    night = load_night(_event(event_id))
    form = ReasonForm(prefix="correction")
    if form.validate_on_submit() and form.round.data and form.table.data:
        clubstore.add_correction(get_db(), event_id, form.round.data, form.table.data, form.text.data.strip())
        flash(_("The correction's reason is recorded."))
        return redirect(url_for(".dashboard", event_id=event_id), 303)
    if not form.round.data or not form.table.data:
        form.table.errors = [*form.table.errors, _("Say which round and table was corrected.")]
    return _dashboard(night, correction=form)


@bp.post("/nights/<event_id>/announcements")
@form_checks_token
def announce(event_id: str) -> Any:
    """A message shown on every table's sheet and on the standings."""
    night = load_night(_event(event_id))
    form = AnnouncementForm(prefix="announcement")
    if form.validate_on_submit():
        clubstore.announce(get_db(), event_id, form.text.data.strip())
        flash(_("Announced on every table."))
        return redirect(url_for(".dashboard", event_id=event_id), 303)
    return _dashboard(night, announcement=form)


@bp.get("/nights/<event_id>/cards")
def table_cards(event_id: str) -> str:
    """The printable table cards: each table's number and the QR code of its address."""
    night = load_night(_event(event_id))
    return render_template("nights/cards.html", night=night, cards=clubstore.cards(get_db(), event_id))


@bp.get("/nights/<event_id>/cards/<int:number>.svg")
def card_code(event_id: str, number: int) -> Response:
    """A table card's QR code, drawn here: no request leaves the club's network."""
    token = clubstore.cards(get_db(), _event(event_id).id).get(number)
    if token is None:
        abort(404)
    out = io.BytesIO()
    link = url_for(".table_card", token=token, _external=True)
    segno.make(link, error="m").save(out, kind="svg", scale=8, border=2, dark="#000", light="#fff")
    return Response(out.getvalue(), mimetype="image/svg+xml")


# --- a table's phones ----------------------------------------------------------------------
def _card(token: str, with_standings: bool = True) -> tuple[Night, int]:
    try:
        event_id, number = clubstore.card(get_db(), token)
    except clubstore.NotFoundError:
        abort(404)
    return load_night(clubstore.get_event(get_db(), event_id), with_standings), number


def _table_in(played: clubstore.Round | None, number: int) -> clubstore.ClubTable | None:
    if played is None:
        return None
    return next((table for table in played.tables if table.number == number), None)


@bp.get("/tables/<token>")
def table_card(token: str) -> Any:
    """The table card's address: the table's match in the round being played, or what the table waits for."""
    night, number = _card(token, with_standings=False)
    table = _table_in(night.playing, number)
    if table is not None and table.match_id:
        return redirect(url_for("matches.show", match_id=table.match_id), 303)
    upcoming = night.current if night.current is not None and not night.current.started else None
    return render_template(
        "nights/table.html", night=night, number=number, table=table, upcoming=_table_in(upcoming, number)
    )


@bp.get("/tables/<token>/result")
def table_result(token: str) -> str:
    """Both sides confirm the result from their phones, or dispute it."""
    night, number = _card(token)
    return _result_page(night, number, token)


def _result_page(night: Night, number: int, token: str, form: DisputeForm | None = None) -> str:
    played = night.playing or (night.rounds[-1] if night.rounds and night.rounds[-1].started else None)
    table = _table_in(played, number)
    return render_template(
        "nights/result.html",
        night=night,
        number=number,
        table=table,
        token=token,
        form=form or DisputeForm(),
        live=banner_context(night, number, token),
    )


@bp.post("/tables/<token>/confirm")
def confirm_result(token: str) -> Response:
    """One side agrees with the result as the sheet shows it (at that version: a later change asks again)."""
    night, number = _card(token)
    table = _table_in(night.playing, number)
    side = request.form.get("side")
    version = request.form.get("version", "")
    if table is None or table.is_bye or side not in ("0", "1") or not version.isdigit():
        abort(400)
    if int(version) != table.version:
        flash(_("The sheet changed since you looked: check the result again."))
    else:
        clubstore.confirm(get_db(), table.id, int(side), int(version))
        flash(_("Thank you: your side confirmed the result."))
    return redirect(url_for(".table_result", token=token), 303)


@bp.post("/tables/<token>/dispute")
@form_checks_token
def dispute_result(token: str) -> Any:
    """A side does not agree: the table is shown to the director as disputed."""
    night, number = _card(token)
    table = _table_in(night.playing, number)
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
    night, number = _card(token, with_standings=False)
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
        "next": _table_in(night.current, number) if night.current and not night.current.started else None,
        "table": _table_in(night.playing, number),
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


# --- watching -------------------------------------------------------------------------------
def _watched(token: str) -> Night:
    try:
        return load_night(clubstore.watched_event(get_db(), token))
    except clubstore.NotFoundError:
        abort(404)


def standings_context(night: Night) -> dict[str, Any]:
    moment = now()
    return {
        "night": night,
        "clock": clock(night, night.playing, moment),
        "announcements": clubstore.announcements(get_db(), night.event.id)[:1],
        "round_numbers": [r.number for r in night.rounds if r.started],
        "final": night.standings.top(night.settings.final_table) if night.settings.final_table else (),
    }


@bp.get("/standings/<token>")
def standings_page(token: str) -> str:
    """The standings on a phone: every entrant's rounds, the tables of the round, the results table used."""
    return render_template("nights/standings.html", **standings_context(_watched(token)))


@bp.get("/standings/<token>/screen")
def standings_screen(token: str) -> str:
    """The standings for a projector: large type, scrolls itself when long, refreshes itself."""
    return render_template("nights/screen.html", **standings_context(_watched(token)))


@bp.get("/standings/<token>/live")
def standings_live(token: str) -> str:
    """The standings' table alone, for the screen's and the phones' htmx poll."""
    return render_template("nights/_standings.html", **standings_context(_watched(token)))


# --- the season and the exports ------------------------------------------------------------
@bp.get("/nights/season")
def season() -> str:
    """The season table over every night on this server, by the latest night's season rules."""
    events = list(reversed(clubstore.list_events(get_db())))
    nights = [load_night(event) for event in events]
    rules = events[-1].settings.season if events else None
    points = [
        night_points(f"{n.settings.date} {n.event.name}", n.standings, n.settings.season, n.season_players)
        for n in nights
    ]
    return render_template("nights/season.html", lines=season_table(points, rules) if rules else (), rules=rules)


def export_document(night: Night) -> dict[str, Any]:
    """The night as JSON: its settings, entrants, rounds with each table's match, and the director's notes."""
    db = get_db()
    return {
        "format": "scorepad-club-night",
        "format_version": 1,
        "settings": night.settings.to_dict(),
        "draw": list(night.event.draw),
        "entrants": [
            {"name": e.name, "players": list(e.players), "joined_round": e.joined_round} for e in night.entrants
        ],
        "rounds": [_round_document(db, r) for r in night.rounds],
        "adjustments": [vars(a) for a in night.adjustments],
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
        match = None
        if table.match_id:
            match = match_document(*store.load_match(db, table.match_id))
        tables.append({"number": table.number, "north_south": table.entrants[0], "east_west": table.entrants[1],
                       "match": match, "accepted": table.accepted, "disputed": table.disputed})  # fmt: skip
    return {"number": played.number, "started": played.started, "ends": played.ends, "closed": played.closed,
            "tables": tables}  # fmt: skip


@bp.post("/nights/import")
@large_body()
def import_night() -> Any:
    """A night's JSON export read back as a new night, with its matches (new ids: the file can come in twice)."""
    upload = request.files.get("file")
    try:
        night = read_night(parse_json(upload.read() if upload else b""))
        event_id = _store_imported(night)
    except canasta.InvalidError as error:
        problems = [f"{v.field}: {v.message}" if v.field else v.message for v in error.violations[:5]]
        return render_template("nights/index.html", events=clubstore.list_events(get_db()), problems=problems), 200
    flash(_("The night is imported with its matches."))
    return redirect(url_for(".dashboard", event_id=event_id), 303)


def _store_imported(night: ImportedNight) -> str:
    db = get_db()
    with clubstore.writing(db):
        match_ids = {}
        for each in night.rounds:
            for table in each.tables:
                if table.match is not None:
                    match, info = table.match
                    info = replace(info, id=store.new_token(), origin=info.id)
                    store.save_imported_match(db, match, info)
                    match_ids[(each.number, table.number)] = info.id
        return clubstore.save_imported_night(db, night, match_ids)


@bp.get("/nights/<event_id>/export.json")
def export_json(event_id: str) -> Response:
    night = load_night(_event(event_id))
    response = jsonify(export_document(night))
    response.headers["Content-Disposition"] = f'attachment; filename="club-night-{night.settings.date}.json"'
    return response


@bp.get("/nights/<event_id>/export.csv")
def export_csv(event_id: str) -> Response:
    """The standings as a spreadsheet: one line an entrant, each round's score, the adjustments' sum."""
    night = load_night(_event(event_id))
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


@bp.app_template_filter("fraction")
def fraction(value: Fraction) -> str:
    """Season points as a club writes them: 7, 3½, 2⅓.

    >>> fraction(Fraction(7, 2)), fraction(Fraction(4)), fraction(Fraction(7, 3))
    ('3½', '4', '2⅓')
    """
    whole, part = divmod(value, 1)
    marks = {Fraction(1, 2): "½", Fraction(1, 3): "⅓", Fraction(2, 3): "⅔", Fraction(1, 4): "¼", Fraction(3, 4): "¾"}
    if not part:
        return str(int(whole))
    return f"{int(whole) or ''}{marks.get(part, f' {part.numerator}/{part.denominator}')}"
