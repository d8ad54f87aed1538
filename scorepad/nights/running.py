"""The organiser runs the night: entrants, seating, rounds, results, corrections, penalties, announcements."""

from __future__ import annotations

import dataclasses
import random
from datetime import timedelta
from typing import Any

from flask import Response, abort, flash, redirect, render_template, request, session, url_for

from .. import canasta, conditional, store
from ..clubnight import (
    Adjustment,
    MovementError,
    Seating,
    late_arrival,
    plan_problems,
    random_draw,
    round_robin,
    seat_in_order,
    seat_next_round,
    withdraw,
)
from ..clubnight.settings import MOST_TABLES
from ..db import get_db
from ..documents import Side
from ..i18n import gettext as _
from ..i18n import text
from ..nightforms import (
    AdjustmentForm,
    AnnouncementForm,
    EntrantForm,
    EventForm,
    PlanForm,
    ReasonForm,
    entrant_choices,
    settings_from,
)
from ..security import form_checks_token
from ..store import nights as clubstore
from .night import (
    BYE,
    FINISHED,
    Night,
    bp,
    clock,
    event_or_404,
    load_night,
    now,
    table_state,
)

# The name this organiser's device last signed a correction with (prefilled next time).
CORRECTED_BY = "club_corrected_by"


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
            problems = plan_problems(settings, 0)
            if problems:
                raise canasta.InvalidError(problems)
        except canasta.InvalidError as error:
            form.attach(error)
        else:
            event_id = clubstore.create_event(get_db(), settings)
            flash(_("The night is ready: enter the pairs or players."))
            return redirect(url_for(".dashboard", event_id=event_id), 303)
    return render_template("nights/new.html", form=form)


@bp.get("/nights/<event_id>")
def dashboard(event_id: str) -> str:
    """The director's dashboard: entrants, the round's tables and their states, and every control."""
    return _dashboard(load_night(event_or_404(event_id)))


@bp.get("/nights/<event_id>/live")
def dashboard_live(event_id: str) -> Response:
    """The dashboard's poll: 204 while the night's version stands, else the round's tables and the standings."""
    try:
        version = clubstore.night_version(get_db(), event_id=event_id)
    except clubstore.NotFoundError:
        abort(404)
    template = "nights/_dashboard_live.html"
    return conditional.unchanged_or(
        event_id,
        version,
        template,
        lambda: render_template(template, **_round_context(load_night(event_or_404(event_id)))),
    )


def _round_context(night: Night) -> dict[str, Any]:
    """What the live part of the dashboard shows: the tables' states, the clock, and the version it was read at."""
    moment = now()
    return {
        "night": night,
        "states": {
            table.id: table_state(table, r, moment, night.hands_per_round) for r in night.rounds for table in r.tables
        },
        "clock": clock(night, night.playing, moment),
        "version": clubstore.night_version(get_db(), event_id=night.event.id),
    }


def _dashboard(night: Night, **forms: Any) -> str:
    adjustment = forms.pop("adjustment", None) or AdjustmentForm(prefix="adjustment")
    adjustment.entrant.choices = entrant_choices(night.active_names)
    return render_template(
        "nights/dashboard.html",
        **_round_context(night),
        entrant_form=forms.pop("entrant", None) or EntrantForm(),
        adjustment_form=adjustment,
        correction_form=forms.pop("correction", None) or ReasonForm(prefix="correction", by=session.get(CORRECTED_BY)),
        announcement_form=forms.pop("announcement", None) or AnnouncementForm(prefix="announcement"),
        plan_form=forms.pop("plan", None) or _plan_form(night),
        plan_problems=plan_problems_of(night),
        corrections=clubstore.corrections(get_db(), night.event.id),
        announcements=clubstore.announcements(get_db(), night.event.id),
        cards=clubstore.cards(get_db(), night.event.id),
    )


@bp.post("/nights/<event_id>/entrants")
@form_checks_token
def add_entrant(event_id: str) -> Any:
    """A pair or player joins; before a seated round starts they take its bye or a new table."""
    night = load_night(event_or_404(event_id))
    form = EntrantForm()
    if form.validate_on_submit():
        name = form.name.data.strip()
        if name in night.players:
            form.name.errors.append(_("%(name)s is already entered tonight.", name=name))
        elif len(night.entrants) >= MOST_TABLES * 2:
            form.name.errors.append(_("A night has at most %(count)s entrants.", count=MOST_TABLES * 2))
        elif night.current is not None and night.current.started and night.current.number >= night.settings.rounds:
            form.name.errors.append(_("Every round has started: nobody can join now."))
        elif new_problems := _plan_after(night, len(night.active_names) + 1):
            form.name.errors.append(_plan_message(new_problems))
        else:
            _enter(night, name, form.player_names())
            return redirect(url_for(".dashboard", event_id=event_id), 303)
    return _dashboard(night, entrant=form)


def _plan_after(night: Night, entrants: int) -> list[canasta.Violation]:
    """What a larger field would break that no later entrant can mend (a round robin past its size).

    A Mitchell short of tables is mended by more pairs: the dashboard says so until round 1 is seated.
    """
    seated = [r.seating for r in night.rounds]
    return [v for v in plan_problems(night.settings, entrants, seated) if v.code == "round-robin-too-big"]


def _plan_message(problems: list[canasta.Violation]) -> str:
    """A plan's problem as the dashboard says it: the core's sentence, and where to change the plan."""
    return _(
        "%(problem)s Change the movement or the number of rounds under “The rest of the night”.",
        problem=text(problems[0].message),
    )


def plan_problems_of(night: Night) -> list[canasta.Violation]:
    return plan_problems(night.settings, len(night.active_names), [r.seating for r in night.rounds])


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
    night = load_night(event_or_404(event_id))
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
    problems = plan_problems_of(night)
    if problems:
        return _plan_message(problems)
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
    night = load_night(event_or_404(event_id))
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
    night = load_night(event_or_404(event_id))
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
    event_or_404(event_id)
    clubstore.close_round(get_db(), event_id, number)
    flash(_("Round %(number)s is closed.", number=number))
    return redirect(url_for(".dashboard", event_id=event_id), 303)


@bp.post("/nights/<event_id>/tables/<int:table_id>/accept")
def accept_result(event_id: str, table_id: int) -> Response:
    """The director settles a disputed (or unconfirmed) table's result as its sheet stands."""
    table = table_or_404(event_id, table_id)
    clubstore.accept(get_db(), table.id)
    flash(_("Round %(round)s, table %(table)s: the result stands.", round=table.round, table=table.number))
    return redirect(url_for(".dashboard", event_id=event_id), 303)


@bp.post("/nights/<event_id>/tables/<int:table_id>/no-show")
def no_show(event_id: str, table_id: int) -> Response:
    """An entrant never came to the table: scored as the night's no-show rule says (or it is taken back)."""
    table = table_or_404(event_id, table_id)
    entrant = request.form.get("entrant") or None
    if entrant is not None and (table.is_bye or entrant not in table.entrants):
        abort(400)
    clubstore.mark_no_show(get_db(), table.id, entrant)
    if entrant:
        flash(_("%(entrant)s did not come: they score nothing this round.", entrant=entrant))
    return redirect(url_for(".dashboard", event_id=event_id), 303)


@bp.post("/nights/<event_id>/entrants/withdraw")
def withdraw_entrant(event_id: str) -> Response:
    """An entrant leaves: seated no more, and the round not yet started loses them (their opponent has a bye)."""
    night = load_night(event_or_404(event_id))
    name = request.form.get("name", "")
    if name not in night.active_names:
        abort(400)
    if request.form.get("sure") != "yes":  # the box was not ticked (a browser that does not check `required`)
        flash(_("%(name)s is still in the night: tick the box to confirm the withdrawal.", name=name))
        return redirect(url_for(".dashboard", event_id=event_id), 303)
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
    night = load_night(event_or_404(event_id))
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
    night = load_night(event_or_404(event_id))
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
    night = load_night(event_or_404(event_id))
    form = ReasonForm(prefix="correction")
    if form.validate_on_submit() and form.round.data and form.table.data:
        by = (form.by.data or "").strip()
        session[CORRECTED_BY] = by
        clubstore.add_correction(get_db(), event_id, form.round.data, form.table.data, form.text.data.strip(), by)
        flash(_("The correction's reason is recorded."))
        return redirect(url_for(".dashboard", event_id=event_id), 303)
    if not form.round.data or not form.table.data:
        form.table.errors = [*form.table.errors, _("Say which round and table was corrected.")]
    return _dashboard(night, correction=form)


@bp.post("/nights/<event_id>/announcements")
@form_checks_token
def announce(event_id: str) -> Any:
    """A message shown on every table's sheet and on the standings."""
    night = load_night(event_or_404(event_id))
    form = AnnouncementForm(prefix="announcement")
    if form.validate_on_submit():
        clubstore.announce(get_db(), event_id, form.text.data.strip())
        flash(_("Announced on every table."))
        return redirect(url_for(".dashboard", event_id=event_id), 303)
    return _dashboard(night, announcement=form)


def _plan_form(night: Night) -> PlanForm:
    form = PlanForm(prefix="plan", data={"movement": night.settings.movement, "rounds": night.settings.rounds})
    return form


@bp.post("/nights/<event_id>/plan")
@form_checks_token
def change_plan(event_id: str) -> Any:
    """The rest of the night: another movement or number of rounds, for the rounds not seated yet."""
    night = load_night(event_or_404(event_id))
    form = PlanForm(prefix="plan")
    if form.validate_on_submit():
        seated = len(night.rounds)
        settings = dataclasses.replace(night.settings, movement=form.movement.data, rounds=form.rounds.data)
        if form.rounds.data < seated:
            form.rounds.errors.append(
                _("%(count)s rounds are seated already: the night has at least %(count)s.", count=seated)
            )
        elif night.rounds and settings.movement == "round_robin" and night.settings.movement != "round_robin":
            form.movement.errors.append(_("A round robin is chosen before round 1 is seated."))
        else:
            problems = plan_problems(settings, len(night.active_names), [r.seating for r in night.rounds])
            if not problems:
                clubstore.change_settings(get_db(), event_id, settings)
                flash(_("The rest of the night is changed."))
                return redirect(url_for(".dashboard", event_id=event_id), 303)
            box = form.movement if problems[0].field == "movement" else form.rounds
            box.errors.append(text(problems[0].message))
    return _dashboard(night, plan=form)


def table_or_404(event_id: str, table_id: int) -> clubstore.ClubTable:
    """A table of this night (any round), or 404 for a night or table that is not there."""
    event_or_404(event_id)
    try:
        return clubstore.table_by_id(get_db(), event_id, table_id)
    except clubstore.NotFoundError:
        abort(404)
