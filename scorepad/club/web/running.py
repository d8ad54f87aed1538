"""The organiser runs the night: entrants, seating, rounds, results, corrections, penalties, announcements."""

from __future__ import annotations

import dataclasses
import random
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import timedelta
from typing import Any

from flask import Response, abort, flash, redirect, render_template, request, session, url_for

from ... import canasta, conditional, store
from ...db import get_db
from ...forms.club import (
    AdjustmentForm,
    AnnouncementForm,
    EntrantForm,
    EventForm,
    PlanForm,
    ReasonForm,
    RenameForm,
    entrant_choices,
    settings_from,
)
from ...i18n import gettext as _
from ...i18n import text
from ...records import Side
from ...security import form_checks_token
from ...store import club as clubstore
from ..core import (
    Adjustment,
    MovementError,
    Seating,
    late_arrival,
    plan_problems,
    player_key,
    random_draw,
    round_robin,
    seat_in_order,
    seat_next_round,
    withdraw,
)
from ..core.settings import MOST_TABLES
from .log import meanwhile
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

REASON_LENGTH = 200  # characters of the director's reason for counting every hand
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
        played={name for r in night.rounds if r.started for name in r.seating.entrants},
        club_players=club_players(night),
    )


def club_players(night: Night) -> list[str]:
    """The club's known players for the entrant form: each player of another night once, as first written."""
    known: dict[str, str] = {}
    for player in clubstore.players_elsewhere(get_db(), night.event.id):
        known.setdefault(player_key(player), player)
    return sorted(known.values(), key=player_key)


def _seen() -> int | None:
    """The night's version the organiser's page showed (its forms send it), None when it says none."""
    value = request.form.get("night_version", "")
    return int(value) if value.isdigit() and len(value) < 16 else None


@contextmanager
def _acting(event_id: str) -> Iterator[Night]:
    """One organiser action: the night read inside its own write transaction, checked against the page's version.

    A page older than a change to who plays, where, or in which round is refused: the
    blueprint's handler of :class:`~scorepad.store.club.StaleNightError` tells what changed.
    """
    try:
        with clubstore.acting(get_db(), event_id, _seen()) as event:
            yield load_night(event)
    except clubstore.NotFoundError:
        abort(404)


@bp.errorhandler(clubstore.StaleNightError)
def stale_page(error: clubstore.StaleNightError) -> Response:
    """Another laptop changed the night since this page: say what, do nothing, show the night as it is."""
    for sentence in meanwhile(error):
        flash(sentence)
    return redirect(url_for(".dashboard", event_id=(request.view_args or {}).get("event_id", "")), 303)


def _upcoming(night: Night) -> clubstore.Round | None:
    """The round seated and not started, if there is one."""
    return night.current if night.current is not None and not night.current.started else None


@bp.post("/nights/<event_id>/entrants")
@form_checks_token
def add_entrant(event_id: str) -> Any:
    """A pair or player joins; before a seated round starts they take its bye or a new table."""
    form = EntrantForm()
    valid = form.validate_on_submit()
    with _acting(event_id) as night:
        if valid:
            name = one_name(form.name.data)
            if (same := _entered_as(night, name)) is not None:
                form.name.errors.append(_("%(name)s is already entered tonight.", name=same))
            elif len(night.entrants) >= MOST_TABLES * 2:
                form.name.errors.append(_("A night has at most %(count)s entrants.", count=MOST_TABLES * 2))
            elif night.current is not None and night.current.started and night.current.number >= night.settings.rounds:
                form.name.errors.append(_("Every round has started: nobody can join now."))
            elif new_problems := _plan_after(night, len(night.active_names) + 1):
                form.name.errors.append(_plan_message(new_problems))
            else:
                _enter(night, name, form.player_names())
                flash(_("%(name)s joined the night.", name=name))
                return redirect(url_for(".dashboard", event_id=event_id), 303)
    return _dashboard(load_night(event_or_404(event_id)), entrant=form)


def one_name(typed: str) -> str:
    """A name as it reads: one Unicode form (NFC), single spaces, none around it."""
    return " ".join(unicodedata.normalize("NFC", typed).split())


def _entered_as(night: Night, name: str) -> str | None:
    """The entrant entered tonight under this name, whatever its case, spaces or Unicode form (the
    pages show them alike), or None."""
    key = player_key(name)
    return next((entered for entered in night.players if player_key(entered) == key), None)


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
    upcoming = _upcoming(night)
    joined = upcoming.number if upcoming else (night.current.number + 1 if night.current else 1)
    clubstore.add_entrant(db, night.event.id, name, players, joined)
    if upcoming is not None:
        clubstore.save_seating(db, night.event.id, late_arrival(upcoming.seating, name))
    clubstore.record(db, night.event.id, "joined", name=name, round=joined)


@bp.post("/nights/<event_id>/rounds")
def seat_round(event_id: str) -> Response:
    """Seat the next round by the event's movement (round 1: drawn or as entered)."""
    with _acting(event_id) as night:
        problem = _cannot_seat(night)
        if problem is None:
            try:
                _seat(night)
            except MovementError as error:
                problem = error.violations[0].message
    flash(problem or _("Round %(number)s was seated.", number=night.current.number + 1 if night.current else 1))
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
        clubstore.set_draw(db, night.event.id, order)
    else:
        previous = [r.seating for r in night.rounds]
        if night.settings.movement == "round_robin":
            order = list(night.event.draw) + [name for name in names if name not in night.event.draw]
        else:
            order = [name for name in night.standings.ranked if name in names]
        seating = seat_next_round(night.settings, previous, order)
        for name in names:
            if name not in seating.entrants:
                seating = late_arrival(seating, name)
        seating = _without_withdrawn(seating, names)
    clubstore.save_seating(db, night.event.id, seating)
    clubstore.record(db, night.event.id, "seated", round=seating.round)


def _without_withdrawn(seating: Seating, names: list[str]) -> Seating:
    """A withdrawn entrant's seat is emptied: their opponent has the bye (a Mitchell keeps the empty seat moving)."""
    for name in sorted(set(seating.entrants) - set(names)):
        seating = withdraw(seating, name)
    return seating


@bp.post("/nights/<event_id>/rounds/<int:number>/swap")
def swap_seats(event_id: str, number: int) -> Response:
    """The organiser's change before a round starts: two entrants change seats."""
    first, second = request.form.get("first", ""), request.form.get("second", "")
    with _acting(event_id) as night:
        current = _upcoming(night)
        if current is None or current.number != number:
            flash(_("Only a round that has not started can be changed."))
        else:
            try:
                seating = current.seating.swapped(first, second)
            except MovementError as error:
                flash(error.violations[0].message)
            else:
                clubstore.save_seating(get_db(), event_id, seating)
                clubstore.record(get_db(), event_id, "swapped", round=number, first=first, second=second)
                flash(_("Seats swapped."))
    return redirect(url_for(".dashboard", event_id=event_id), 303)


@bp.post("/nights/<event_id>/rounds/<int:number>/start")
def start_round(event_id: str, number: int) -> Response:
    """Start the round's clock; each played table gets an ordinary match with the night's rules.

    One transaction: the round starts with one match at every played table, or not at all.
    """
    with _acting(event_id) as night:
        current = _upcoming(night)
        if current is None or current.number != number:
            flash(_("Only the round just seated can start."))
            return redirect(url_for(".dashboard", event_id=event_id), 303)
        _start(night, current)
    flash(_("Round %(number)s has started.", number=number))
    return redirect(url_for(".dashboard", event_id=event_id), 303)


def _start(night: Night, current: clubstore.Round) -> None:
    db = get_db()
    settings, event_id, number = night.settings, night.event.id, current.number
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
    for earlier in night.rounds[:-1]:
        if not earlier.closed:
            clubstore.close_round(db, event_id, earlier.number)
            clubstore.record(db, event_id, "closed", round=earlier.number)
    clubstore.start_round(db, event_id, number, ends, matches)
    clubstore.record(db, event_id, "started", round=number)


@bp.post("/nights/<event_id>/rounds/<int:number>/close")
def close_round(event_id: str, number: int) -> Response:
    """End the round: its tables' phones stop writing; the organiser can still correct its hands."""
    with _acting(event_id) as night:
        played = next((r for r in night.rounds if r.number == number), None)
        if played is None or not played.started or played.closed:
            flash(_("Only a round being played can be closed."))
            return redirect(url_for(".dashboard", event_id=event_id), 303)
        clubstore.close_round(get_db(), event_id, number)
        clubstore.record(get_db(), event_id, "closed", round=number)
    flash(_("Round %(number)s is closed.", number=number))
    return redirect(url_for(".dashboard", event_id=event_id), 303)


def _table_of(night: Night, table_id: int) -> clubstore.ClubTable:
    """A table of this night (any round) as the night reads now, or 404."""
    found = next((t for r in night.rounds for t in r.tables if t.id == table_id), None)
    if found is None:
        abort(404)
    return found


@bp.post("/nights/<event_id>/tables/<int:table_id>/accept")
def accept_result(event_id: str, table_id: int) -> Response:
    """The director settles a disputed (or unconfirmed) table's result as its sheet stands."""
    with _acting(event_id) as night:
        table = _table_of(night, table_id)
        if not table.match_id:
            abort(400)
        clubstore.accept(get_db(), table.id)
        clubstore.record(get_db(), event_id, "accepted", round=table.round, table=table.number)
    flash(_("Round %(round)s, table %(table)s: the result stands.", round=table.round, table=table.number))
    return redirect(url_for(".dashboard", event_id=event_id), 303)


@bp.post("/nights/<event_id>/tables/<int:table_id>/no-show")
def no_show(event_id: str, table_id: int) -> Response:
    """An entrant never came to the table: scored as the night's no-show rule says (or it is taken back)."""
    entrant = request.form.get("entrant") or None
    with _acting(event_id) as night:
        table = _table_of(night, table_id)
        if entrant is not None and (table.is_bye or entrant not in table.entrants):
            abort(400)
        clubstore.mark_no_show(get_db(), table.id, entrant)
        clubstore.record(get_db(), event_id, "no_show", round=table.round, table=table.number, entrant=entrant)
    if entrant:
        flash(_("%(entrant)s did not come: they score nothing this round.", entrant=entrant))
    return redirect(url_for(".dashboard", event_id=event_id), 303)


@bp.post("/nights/<event_id>/tables/<int:table_id>/every-hand")
def count_every_hand(event_id: str, table_id: int) -> Response:
    """The director's override of the time rule for one table: every hand saved counts, with the reason why.

    For a phone that saved hands before time but could only send them after (the rule judges when
    a hand reached the server). The reason goes into the night's log and onto the dashboard;
    ``undo`` puts the table back under the rule.
    """
    undo = request.form.get("undo") == "yes"
    reason = " ".join(request.form.get("reason", "").split())[:REASON_LENGTH]
    with _acting(event_id) as night:
        table = _table_of(night, table_id)
        if not table.match_id:
            abort(400)
        if not undo and not reason:
            flash(_("Say why every hand of this table counts."))
            return redirect(url_for(".dashboard", event_id=event_id), 303)
        clubstore.count_every_hand(get_db(), table.id, None if undo else reason)
        clubstore.record(get_db(), event_id, "cut", round=table.round, table=table.number, reason=reason, undo=undo)
    if undo:
        flash(_("Round %(round)s, table %(table)s: the time rule counts its hands again.", round=table.round,
                table=table.number))  # fmt: skip
    else:
        flash(_("Round %(round)s, table %(table)s: every hand saved counts (%(reason)s).", round=table.round,
                table=table.number, reason=reason))  # fmt: skip
    return redirect(url_for(".dashboard", event_id=event_id), 303)


@bp.post("/nights/<event_id>/entrants/withdraw")
def withdraw_entrant(event_id: str) -> Response:
    """An entrant leaves: seated no more, and the round not yet started loses them (their opponent has a bye)."""
    name = request.form.get("name", "")
    if request.form.get("sure") != "yes":  # the box was not ticked (a browser that does not check `required`)
        flash(_("%(name)s is still in the night: tick the box to confirm the withdrawal.", name=name))
        return redirect(url_for(".dashboard", event_id=event_id), 303)
    with _acting(event_id) as night:
        if name not in night.active_names:
            abort(400)
        db = get_db()
        clubstore.withdraw(db, event_id, name)
        upcoming = _upcoming(night)
        if upcoming is not None:
            staying = [other for other in night.active_names if other != name]
            clubstore.save_seating(db, event_id, _without_withdrawn(upcoming.seating, staying))
        clubstore.record(db, event_id, "withdrew", name=name)
    flash(_("%(name)s has left the night.", name=name))
    return redirect(url_for(".dashboard", event_id=event_id), 303)


@bp.post("/nights/<event_id>/entrants/back")
def entrant_back(event_id: str) -> Response:
    """A withdrawal taken back: the entrant is seated again from the next round seated (a late arrival's way)."""
    name = request.form.get("name", "")
    with _acting(event_id) as night:
        if not any(entrant.name == name and entrant.withdrawn for entrant in night.entrants):
            abort(400)
        db = get_db()
        clubstore.withdraw(db, event_id, name, back=True)
        upcoming = _upcoming(night)
        if upcoming is not None and name not in upcoming.seating.entrants:
            clubstore.save_seating(db, event_id, late_arrival(upcoming.seating, name))
        clubstore.record(db, event_id, "back", name=name)
    flash(_("%(name)s is back in the night.", name=name))
    return redirect(url_for(".dashboard", event_id=event_id), 303)


@bp.post("/nights/<event_id>/adjustments")
@form_checks_token
def add_adjustment(event_id: str) -> Any:
    """A penalty or an adjustment with its reason, in the round's units."""
    form = AdjustmentForm(prefix="adjustment")
    with _acting(event_id) as night:
        form.entrant.choices = entrant_choices(night.active_names)
        if form.validate_on_submit():
            adjustment = Adjustment(form.round.data, form.entrant.data, form.amount.data, form.reason.data.strip())
            clubstore.add_adjustment(get_db(), event_id, adjustment)
            clubstore.record(get_db(), event_id, "adjustment", entrant=adjustment.entrant, amount=adjustment.amount)
            flash(
                _("Adjustment recorded: %(entrant)s, %(amount)s.", entrant=adjustment.entrant, amount=adjustment.amount)
            )
            return redirect(url_for(".dashboard", event_id=event_id), 303)
    return _dashboard(night, adjustment=form)


@bp.post("/nights/<event_id>/corrections")
@form_checks_token
def add_correction(event_id: str) -> Any:
    """The reason for a hand corrected on a table's sheet (the sheet keeps every version of the hand)."""
    form = ReasonForm(prefix="correction")
    if form.validate_on_submit() and form.round.data and form.table.data:
        by = (form.by.data or "").strip()
        session[CORRECTED_BY] = by
        with _acting(event_id):
            clubstore.add_correction(get_db(), event_id, form.round.data, form.table.data, form.text.data.strip(), by)
            clubstore.record(get_db(), event_id, "correction", round=form.round.data, table=form.table.data, by=by)
        flash(_("The correction's reason is recorded."))
        return redirect(url_for(".dashboard", event_id=event_id), 303)
    if not form.round.data or not form.table.data:
        form.table.errors = [*form.table.errors, _("Say which round and table was corrected.")]
    return _dashboard(load_night(event_or_404(event_id)), correction=form)


@bp.post("/nights/<event_id>/announcements")
@form_checks_token
def announce(event_id: str) -> Any:
    """A message shown on every table's sheet and on the standings."""
    form = AnnouncementForm(prefix="announcement")
    if form.validate_on_submit():
        with _acting(event_id):
            clubstore.announce(get_db(), event_id, form.text.data.strip())
            clubstore.record(get_db(), event_id, "announced")
        flash(_("Announced on every table."))
        return redirect(url_for(".dashboard", event_id=event_id), 303)
    return _dashboard(load_night(event_or_404(event_id)), announcement=form)


def _has_played(night: Night, name: str) -> bool:
    """Whether an entrant sat at a table (or had the bye) of a round that started."""
    return any(name in r.seating.entrants for r in night.rounds if r.started)


@bp.post("/nights/<event_id>/entrants/rename")
@form_checks_token
def rename_entrant(event_id: str) -> Any:
    """A typo in a name, corrected before the entrant plays: every seat and note of theirs follows."""
    form = RenameForm()
    valid = form.validate_on_submit()
    old, new = form.name.data or "", one_name(form.new_name.data or "")
    with _acting(event_id) as night:
        if old not in night.players:
            abort(400)
        same = _entered_as(night, new)
        if _has_played(night, old):
            flash(_("%(name)s has played already: their name stays as the results know it.", name=old))
        elif valid and new and new != old and same in (None, old):
            clubstore.rename_entrant(get_db(), event_id, old, new)
            clubstore.record(get_db(), event_id, "renamed", old=old, new=new)
            flash(_("%(old)s is now called %(new)s.", old=old, new=new))
        elif same is not None and same != old:
            flash(_("%(name)s is already entered tonight.", name=same))
        elif new != old:
            flash(_("Type the new name: one line, up to 100 characters."))
    return redirect(url_for(".dashboard", event_id=event_id), 303)


@bp.post("/nights/<event_id>/entrants/remove")
def remove_entrant(event_id: str) -> Response:
    """An entrant entered by mistake, taken out before they play: as if never entered (their seat is emptied)."""
    name = request.form.get("name", "")
    with _acting(event_id) as night:
        if name not in night.players:
            abort(400)
        if _has_played(night, name):
            flash(_("%(name)s has played already: withdraw them instead.", name=name))
            return redirect(url_for(".dashboard", event_id=event_id), 303)
        db = get_db()
        clubstore.remove_entrant(db, event_id, name)
        upcoming = _upcoming(night)
        if upcoming is not None and name in upcoming.seating.entrants:
            staying = [other for other in night.active_names if other != name]
            clubstore.save_seating(db, event_id, _without_withdrawn(upcoming.seating, staying))
        clubstore.record(db, event_id, "removed", name=name)
    flash(_("%(name)s was removed from the night.", name=name))
    return redirect(url_for(".dashboard", event_id=event_id), 303)


@bp.post("/nights/<event_id>/season")
def count_in_season(event_id: str) -> Response:
    """Leave the night out of its season, or count it again."""
    counted = request.form.get("in_season") == "yes"
    with _acting(event_id):
        clubstore.set_in_season(get_db(), event_id, counted)
        clubstore.record(get_db(), event_id, "season", counted=counted)
    flash(_("The night counts toward its season.") if counted else _("The night is left out of its season."))
    return redirect(url_for(".dashboard", event_id=event_id), 303)


@bp.post("/nights/<event_id>/delete")
def delete_event(event_id: str) -> Response:
    """Delete the night (its tables' matches are deleted as matches, restorable for a while); it asks to be sure."""
    if request.form.get("sure") != "yes":
        flash(_("Tick the box to delete the night."))
        return redirect(url_for(".dashboard", event_id=event_id), 303)
    db = get_db()
    with _acting(event_id) as night:
        for match_id in clubstore.delete_event(db, event_id):
            with suppress(store.NotFoundError):
                store.delete_match(db, match_id, store.current_version(db, match_id), organiser=True)
    flash(_("The night %(name)s is deleted.", name=night.event.name))
    return redirect(url_for(".index"), 303)


def _plan_form(night: Night) -> PlanForm:
    form = PlanForm(prefix="plan", data={"movement": night.settings.movement, "rounds": night.settings.rounds})
    return form


@bp.post("/nights/<event_id>/plan")
@form_checks_token
def change_plan(event_id: str) -> Any:
    """The rest of the night: another movement or number of rounds, for the rounds not seated yet."""
    form = PlanForm(prefix="plan")
    valid = form.validate_on_submit()
    with _acting(event_id) as night:
        if valid:
            seated = len(night.rounds)
            settings = dataclasses.replace(night.settings, movement=form.movement.data, rounds=form.rounds.data)
            if form.rounds.data < seated:
                form.rounds.errors.append(
                    _("%(count)s rounds are seated already: the night has at least %(count)s.", count=seated)
                )
            elif night.rounds and settings.movement == "round_robin" and night.settings.movement != "round_robin":
                form.movement.errors.append(_("A round robin is chosen before round 1 is seated."))
            elif problems := plan_problems(settings, len(night.active_names), [r.seating for r in night.rounds]):
                box = form.movement if problems[0].field == "movement" else form.rounds
                box.errors.append(text(problems[0].message))
            else:
                clubstore.change_settings(get_db(), event_id, settings)
                clubstore.record(get_db(), event_id, "plan", movement=settings.movement, rounds=settings.rounds)
                flash(_("The rest of the night is changed."))
                return redirect(url_for(".dashboard", event_id=event_id), 303)
    return _dashboard(load_night(event_or_404(event_id)), plan=form)


def table_or_404(event_id: str, table_id: int) -> clubstore.ClubTable:
    """A table of this night (any round), or 404 for a night or table that is not there."""
    event_or_404(event_id)
    try:
        return clubstore.table_by_id(get_db(), event_id, table_id)
    except clubstore.NotFoundError:
        abort(404)
