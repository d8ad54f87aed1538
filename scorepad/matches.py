"""Pages for keeping score at the table: match list, new match, score sheet, hand entry.

Every view reads a form, asks the core, writes through :mod:`store`, then redirects (303) or
renders; scores always come from :mod:`scorepad.canasta`. Every page works without JavaScript;
htmx only adds the live preview and the self-refreshing sheet.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
from dataclasses import dataclass
from typing import Any

import segno
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    send_from_directory,
    url_for,
)
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from . import access, canasta, conditional, i18n, meanwhile, sheets, store
from .assets import SHELL, asset_url
from .canasta.match import game_ends, play_hand, settlement_for, standing
from .db import get_db
from .forms import HandForm, hand_form, match_form, new_submission_key, version_number
from .forms.posted import CSRF_FIELD, PostedHand, csrf_enabled, hidden_input
from .fragments import fragments
from .htmx import wants_fragment
from .i18n import gettext as _
from .i18n import lazy_gettext
from .limits import ITEMS
from .security import form_checks_token

bp = Blueprint("matches", __name__)
NOTHING_ENTERED = lazy_gettext("Nothing is entered yet: type each side's points (or count its cards), then save.")


@dataclass(frozen=True)
class Outcome:
    """How a finished match ended, as the sheet announces it."""

    winner: str | None
    margin: int
    rounded: tuple[int, ...]
    settled_margin: int


def outcome(stored: store.StoredMatch | store.MatchHead) -> Outcome | None:
    """The winner, by how much, and Bicycle's rounded settlement; None while the match runs."""
    summary = stored.summary
    if not summary.is_finished:
        return None
    settlement = settlement_for(summary.totals, stored.variant.settlement_unit)
    names = i18n.side_names(stored)
    return Outcome(
        winner=None if summary.winner is None else names[summary.winner],
        margin=summary.margin,
        rounded=tuple(settlement["rounded"]),
        settled_margin=settlement["margin"],
    )


def hand_context(stored: store.StoredMatch, hand_number: int | None) -> dict[str, Any]:
    """The hand form's page: the sheet's context plus the minimums in force for that hand."""
    match = stored.match
    needs = match.next_minimums if hand_number is None else match.results[hand_number - 1].minimums
    return sheet_context(stored, hand_number=hand_number, needs=needs, next_hand=len(match.hands) + 1)


def sheet_context(stored: store.StoredMatch, **extra: Any) -> dict[str, Any]:
    """What the pages around the sheet (hand detail, share, delete) show of a match scored whole."""
    return {"stored": stored, "match": stored.match, "sides": stored.info.sides, "outcome": outcome(stored), **extra}


def score_sheet_context(head: store.MatchHead, **extra: Any) -> dict[str, Any]:
    """What the score sheet (page or fragment, writer or watcher) shows: see :mod:`scorepad.sheets`."""
    return sheets.context(head, outcome, **extra)


@bp.get("/")
def index() -> str:
    """This browser's matches (every match for the organiser) a page at a time, a search, and the way to start one."""
    db = get_db()
    search = request.args.get("q", "").strip()
    variant = request.args.get("variant", "")
    viewer = access.viewer()
    before = request.args.get("before") or None
    page = store.match_page(db, before=before, search=search, variant=variant, viewer=viewer)
    return render_template(
        "matches/index.html",
        matches=page.items,
        match_lines=sheets.match_lines(page.items),
        older=page.older,
        search=search,
        variant=variant,
        variants=canasta.VARIANTS.values(),
        deleted=store.recently_deleted(db, viewer=viewer) if not request.args else [],
        organiser=viewer.every_match,
        organiser_mode=access.passphrase() is not None,
    )


@bp.get("/matches/new")
def choose_variant() -> str:
    """Step one of a new match: the presets, each with a line on its rules."""
    return render_template("matches/choose.html", variants=canasta.VARIANTS.values())


@bp.route("/matches/new/<variant_key>", methods=["GET", "POST"])
@form_checks_token
def new_match(variant_key: str) -> Any:
    """Step two: names, seating, house rules, target and starting totals."""
    variant = canasta.VARIANTS.get(variant_key) or abort(404)
    form = match_form(variant)
    if form.validate_on_submit():
        try:
            rules = form.to_variant()
            match_id = store.create_match(
                get_db(),
                rules,
                form.sides(),
                form.starting_totals(),
                form.title.data or "",
                browser=access.ensure_browser_id(),
            )
        except canasta.InvalidError as error:
            form.attach(error.violations)
        else:
            return redirect(url_for(".show", match_id=match_id), 303)
    return render_template("matches/new.html", form=form, variant=variant)


# --- the score sheet ----------------------------------------------------------------------
@bp.get("/matches/<match_id>")
def show(match_id: str) -> str | bytes:
    """The score sheet: big totals and minimums on top, every hand below."""
    db = get_db()
    head = store.match_head(db, match_id)
    access.record(match_id)
    if head.deleted:
        return render_template("matches/deleted.html", stored=head)
    extra: dict[str, Any] = {}
    if not head.summary.is_finished:
        # The next hand's form comes with the page: a saved hand lands on it (#next-hand), with or
        # without JavaScript, and no second request is made for it.
        extra = {"next_form": next_hand_form(head)}
    context = score_sheet_context(head, undone=store.undone_hand(db, match_id))
    return render_template("matches/show.html", **{**extra, **context})


@bp.get("/matches/<match_id>/sheet")
def sheet(match_id: str) -> Response:
    """The sheet alone, for phones that refresh it; 204 or 304 while nothing changed."""
    version = store.current_version(get_db(), match_id=match_id)
    return _sheet_or_nothing(
        match_id, version, "matches/show.html", lambda: store.match_head(get_db(), match_id), writer=True
    )


def _sheet_or_nothing(key: str, version: int, page: str, head: Any, **extra: Any) -> Response:
    """Answer a poll: decided from the version alone before any figure is read (:func:`conditional.unchanged_or`)."""
    template = "matches/_sheet.html" if wants_fragment() else page

    def render() -> str:
        # A writer's sheet offers Put back as the page does; a watcher's offers nothing.
        undone = None if extra.get("watching") else store.undone_hand(get_db(), key)
        fragment = template == "matches/_sheet.html"
        return render_template(template, **score_sheet_context(head(), undone=undone, fragment=fragment, **extra))

    return conditional.unchanged_or(key, version, template, render)


@bp.get("/watch/<token>")
def watch(token: str) -> str | bytes:
    """The read-only score sheet for everyone else at the table."""
    head = store.watched_head(get_db(), token)
    return render_template("matches/watch.html", **score_sheet_context(head, watching=True, token=token))


@bp.get("/watch/<token>/sheet")
def watch_sheet(token: str) -> Response:
    version = store.current_version(get_db(), watch_token=token)
    return _sheet_or_nothing(
        token, version, "matches/watch.html", lambda: store.watched_head(get_db(), token), watching=True, token=token
    )


# --- entering and correcting hands --------------------------------------------------------
def _hand_form(stored: store.StoredMatch | store.MatchHead, **kwargs: Any) -> HandForm:
    variant = stored.variant
    names = i18n.side_names(stored)
    return hand_form(variant, names, variant.players_per_side, **kwargs)


def _form_hand(form: HandForm | PostedHand) -> canasta.Hand | None:
    """The hand the form describes, or None with every problem of its boxes on the form."""
    if not form.validate():
        return None
    try:
        hand = form.to_hand()
    except canasta.InvalidError as error:
        form.attach(error.violations)
        return None
    if not any(entry.to_dict() for entry in hand.entries):
        # A stray tap on Save with nothing typed would add a hand of zeros to the sheet.
        form.problems.append(NOTHING_ENTERED)
        return None
    return hand


def _previewed_hand(form: HandForm | PostedHand, head: store.MatchHead, number: int | None) -> canasta.Hand | None:
    """The hand the preview shows, or None with every problem on the form, as saving it would say them."""
    hand = _form_hand(form)
    if hand is None:
        return None
    try:
        store.check_save(get_db(), head, number, hand, i18n.side_names(head))
    except canasta.InvalidError as error:
        form.attach(error.violations, hand_index=head.summary.played if number is None else number - 1)
        return None
    return hand


def _head_hand_context(head: store.MatchHead, hand_number: int | None) -> dict[str, Any]:
    """The hand form's page from stored figures: the minimums in force for that hand."""
    if hand_number is None:
        needs = head.summary.next_minimums
    else:
        needs = store.hand_figures(get_db(), head.id)[hand_number - 1].minimums
    return {
        "stored": head,
        "sides": head.info.sides,
        "hand_number": hand_number,
        "needs": needs,
        # The totals so far beside each side's name: in view where a save lands, with the next hand.
        "totals": head.summary.totals if hand_number is None and head.summary.played else None,
        **({"server_totals": head.summary.totals} if hand_number is None else {}),
        "next_hand": head.summary.played + 1,
    }


@bp.get("/matches/<match_id>/hands/new")
def new_hand(match_id: str) -> Any:
    """The hand entry page: one block per side."""
    head = _writable_head(match_id)
    access.record(match_id)
    if head.summary.is_finished:
        flash(_("The game is over. Correct a hand to reopen it."))
        return redirect(url_for(".show", match_id=match_id), 303)
    form = _hand_form(head, data={"version": str(head.version)})
    return render_template("matches/hand.html", form=form, **_head_hand_context(head, None))


@bp.get("/matches/<match_id>/hands/next")
def next_hand(match_id: str) -> Any:
    """The next hand's form alone, loaded in place under the sheet (a fragment route: without
    JavaScript the sheet links to the hand page instead); nothing once the game is over."""
    head = _writable_head(match_id)
    if head.summary.is_finished:
        return Response(status=204)
    return next_hand_form(head)


def next_hand_form(head: store.MatchHead) -> Markup:
    """The next hand's empty form (``_next_hand.html``), kept in the markup cache by match version.

    An empty form depends on the match's version (its rules, names, totals and minimums), the
    language and the URL root, which the key names, and on two things of the request: the form
    token and the form's new submission key. Those two are written around the kept pieces on
    every request, never inside them, so a sheet builds no form at all once its version's form
    is kept.
    """
    key = sheets.piece_key("next-form", head.id, head.version)
    drawn: list[str] = []

    def part(index: int) -> Any:
        def render() -> str:
            if not drawn:
                drawn.extend(_next_form_pieces(head))
            return drawn[index]

        return render

    before, between, after = (fragments().get((*key, index), part(index)) for index in range(3))
    token = hidden_input(CSRF_FIELD, generate_csrf()) if csrf_enabled() else Markup("")
    return before + token + between + hidden_input("submission", new_submission_key()) + after


def _next_form_pieces(head: store.MatchHead) -> list[str]:
    """The next hand's form drawn once, cut around its token and its submission key."""
    form = _hand_form(head, data={"version": str(head.version)})
    page = render_template("matches/_next_hand.html", form=form, **_head_hand_context(head, None))
    token = str(form.csrf_token) if csrf_enabled() else ""
    before, _, rest = page.partition(token) if token else ("", "", page)
    between, _, after = rest.partition(str(form.submission))
    return [before, between, after]


CONFIRM_LOW = "low_melds_confirmed"


def low_melds(hand: canasta.Hand, needs: Any, stored: store.MatchHead) -> list[str]:
    """Sides whose melded points are below their own minimum: the likeliest slip at a table.

    Possible (a side may report what it has, and the rules core takes it), so a warning the
    player confirms, not a refusal; a side that went out concealed needed no opening meld.
    """
    names = i18n.side_names(stored)
    return [
        _(
            "%(side)s: %(melded)s melded, below the %(minimum)s needed to open. Check it, or save anyway.",
            side=names[index],
            melded=i18n.number(entry.melded_points),
            minimum=i18n.number(needs[index]),
        )
        for index, entry in enumerate(hand.entries)
        if index < len(needs) and 0 < entry.melded_points < needs[index] and not (entry.went_out and entry.concealed)
    ]


def _asks_again(form: HandForm, hand: canasta.Hand, needs: Any, head: store.MatchHead) -> bool:
    """Put the low-meld warnings on the form unless this save already confirmed them."""
    if request.form.get(CONFIRM_LOW) == "1":
        return False
    form.low_melds = low_melds(hand, needs, head)
    return bool(form.low_melds)


@bp.post("/matches/<match_id>/hands")
@form_checks_token
def add_hand(match_id: str) -> Any:
    """Save a new hand, or show the form again, filled in, with what is wrong."""
    head = _writable_head(match_id)
    form = _hand_form(head)
    saved = store.saved_submission(get_db(), match_id, form.submission_key())
    if saved is not None:
        return _already_saved(match_id, saved)
    hand = _form_hand(form)
    if hand is not None:
        try:
            saved_as = store.add_hand(
                get_db(),
                match_id,
                hand,
                form.version_number(),
                form.submission_key(),
                played=form.saved_time(),
                organiser=access.is_organiser(),
                rules=head.variant,
                names=i18n.side_names(head),
                confirm=lambda result: not _asks_again(form, hand, result.minimums, head),
            )
        except store.AlreadySavedError as error:
            return _already_saved(match_id, error.number)
        except store.StaleError as error:
            _stale(form, error)
        except canasta.InvalidError as error:
            form.attach(error.violations, hand_index=head.summary.played)
        else:
            if saved_as is not None:
                # Where the next hand starts: the browser scrolls there (htmx's swap: scorepad.js).
                return redirect(url_for(".show", match_id=match_id, _anchor="next-hand"), 303)
    return render_template("matches/hand.html", form=form, **_head_hand_context(head, None))


# A hand typed behind hands that wait on the phone is previewed from their totals (offline.js
# sends them): far beyond any game, so a number typed into the request cannot cost anything.
WAITING_TOTAL = 10**9


def _waiting_start(head: store.MatchHead) -> tuple[int, tuple[int, ...]] | None:
    """The hand number and the totals before it that the page previews a waiting hand from.

    offline.js sends ``hand`` and ``totals_before`` (one total per side, space-separated) when
    the hand follows hands that wait on the phone and are not on the sheet yet: the core then
    scores it as the server will once those hands are sent. None when neither is sent; a
    malformed pair is refused (400), never read as the stored totals.
    """
    hand, totals = request.form.get("hand"), request.form.get("totals_before")
    if hand is None and totals is None:
        return None
    try:
        number = int(hand or "")
        before = tuple(int(total) for total in (totals or "").split())
    except ValueError:
        abort(400)
    played = head.summary.played
    if not played < number <= played + ITEMS or len(before) != len(head.summary.totals):
        abort(400)
    if any(abs(total) > WAITING_TOTAL for total in before):
        abort(400)
    return number, before


def _figures(head: store.MatchHead, result: Any, before: tuple[int, ...], ends_game: bool) -> dict[str, Any]:
    """What the phone keeps of a new hand's preview, should the hand wait on it (offline.js).

    The core's figures (its scores, the totals after it and the next minimums from those
    totals), each also as the page's language writes it: the queue shows them and adds nothing.
    """
    after = standing(head.variant, result.totals, result.number)
    scores = tuple(side.score for side in result.sides)
    return {
        "hand": result.number,
        "before": list(before),
        "scores": list(scores),
        "totals": list(result.totals),
        "needs": list(after.next_minimums),
        "ends": ends_game,
        "text": {
            "scores": [i18n.number(score) for score in scores],
            "totals": [i18n.number(total) for total in result.totals],
            "needs": [i18n.number(need) for need in after.next_minimums],
        },
    }


@bp.post("/matches/<match_id>/hands/preview")
@form_checks_token
def preview_hand(match_id: str) -> str:
    """The live preview fragment: this hand's scores and new totals, or what is wrong.

    Scored from the stored totals before the hand, like a save: typing costs the same at hand 300.
    A new hand's preview also carries its figures for the phone's queue (``data-figures``), and
    a hand behind hands waiting on the phone is scored from their totals (:func:`_waiting_start`).
    """
    head = _writable_head(match_id)
    number = request.args.get("number", type=int)
    played = head.summary.played
    if number is not None and not 1 <= number <= played:
        abort(404)
    waiting = _waiting_start(head) if number is None else None
    form = PostedHand(head.variant, i18n.side_names(head), head.variant.players_per_side)
    hand = _previewed_hand(form, head, number)
    result, ends_game, low, figures = None, False, [], None
    if hand is not None:
        if waiting is not None:
            at, before = waiting
        elif number is None or number == played + 1:
            before, at = head.summary.totals, played + 1
        else:
            before, at = store.totals_before(get_db(), head, number), number
        # Its warnings name the sides as this match does ("… for Ann and Bob"), not as the preset does.
        named = dataclasses.replace(head.variant, side_names=tuple(i18n.side_names(head)))
        result = play_hand(named, at, before, hand)
        ends_game = at >= played and game_ends(head.variant, result.totals, at)
        low = low_melds(hand, result.minimums, head)  # the minimums this hand was played under
        if number is None:
            figures = _figures(head, result, tuple(before), ends_game)
    return render_template(
        "matches/_preview.html",
        form=form,
        result=result,
        figures=figures,
        preview=hand,
        ends_game=ends_game,
        low_melds=low,
        stored=head,
    )


@bp.get("/matches/<match_id>/hands/<int:number>")
def show_hand(match_id: str, number: int) -> str:
    """One hand itemised, with every earlier version of it."""
    stored = _writer_page(match_id)
    if not 1 <= number <= len(stored.match.hands):
        abort(404)
    revisions = store.hand_revisions(get_db(), match_id, number)
    variant = stored.match.variant
    scored = [
        (revision, store.hand_scores(revision.hand, variant) if revision.hand else None) for revision in revisions
    ]
    return render_template(
        "matches/show_hand.html",
        result=stored.match.results[number - 1],
        revisions=scored,
        **sheet_context(stored),
    )


@bp.get("/matches/<match_id>/hands/<int:number>/edit")
def edit_hand(match_id: str, number: int) -> str:
    stored = _writable(match_id)
    access.record(match_id)
    if not 1 <= number <= len(stored.match.hands):
        abort(404)
    form = _hand_form(stored)
    form.fill(stored.match.hands[number - 1], stored.version)
    return render_template("matches/hand.html", form=form, **hand_context(stored, number))


@bp.post("/matches/<match_id>/hands/<int:number>")
@form_checks_token
def update_hand(match_id: str, number: int) -> Any:
    """Save a corrected hand; later totals, minimums and game end follow."""
    head = _writable_head(match_id)
    form = _hand_form(head)
    # A correction sent again is recognised first: its hand may have been undone since.
    saved = store.saved_submission(get_db(), match_id, form.submission_key())
    if saved is not None:
        return _already_saved(match_id, saved)
    if not 1 <= number <= head.summary.played:
        abort(404)
    hand = _form_hand(form)
    if hand is not None:
        try:
            saved_as = store.replace_hand(
                get_db(),
                match_id,
                number,
                hand,
                form.version_number(),
                form.submission_key(),
                organiser=access.is_organiser(),
                rules=head.variant,
                names=i18n.side_names(head),
                confirm=lambda result: not _asks_again(form, hand, result.minimums, head),
            )
        except store.AlreadySavedError as error:
            return _already_saved(match_id, error.number)
        except store.StaleError as error:
            _stale(form, error)
        except canasta.InvalidError as error:
            form.attach(error.violations, hand_index=number - 1)
        else:
            if saved_as is not None:
                flash(_("Hand %(number)s corrected.", number=number))
                return redirect(url_for(".show", match_id=match_id), 303)
    return render_template("matches/hand.html", form=form, **_head_hand_context(head, number))


def _already_saved(match_id: str, number: int) -> Response:
    """The same save sent again (the phone's queue, a second tab, a double tap): it is on the sheet."""
    if number:
        flash(_("Hand %(number)s was already saved.", number=number))
    else:
        flash(_("That hand was already saved, and has been undone since."))
    return redirect(url_for(".show", match_id=match_id), 303)


def _stale(form: HandForm, error: store.StaleError) -> None:
    """Keep what was typed, say what changed, and let a second tap save it over the new version."""
    form.problems += [*meanwhile.sentences(error), _("Your entry is kept below: check it and save again.")]
    form.version.data = str(error.version)


@bp.post("/matches/<match_id>/hands/undo")
def undo_hand(match_id: str) -> Response:
    """Take back the last hand; it can be put back from the sheet."""
    version = version_number(request.form.get("version"))
    try:
        number = store.undo_last_hand(get_db(), match_id, version, organiser=access.is_organiser())
    except store.StaleError as error:
        flash(" ".join([*map(i18n.text, meanwhile.sentences(error)), _("Nothing was undone.")]))
    else:
        flash(_("Hand %(number)s undone.", number=number), "undone")  # the sheet offers Put back in it
    return redirect(url_for(".show", match_id=match_id), 303)


@bp.post("/matches/<match_id>/hands/restore")
def restore_hand(match_id: str) -> Response:
    """Put the undone hand back."""
    version = version_number(request.form.get("version"))
    try:
        number = store.restore_last_hand(get_db(), match_id, version, organiser=access.is_organiser())
    except store.StaleError as error:
        flash(" ".join([*map(i18n.text, meanwhile.sentences(error)), _("Nothing was put back.")]))
    except canasta.InvalidError:
        flash(_("That hand cannot come back: the match has moved on since."))
    else:
        flash(_("Hand %(number)s is back.", number=number))
    return redirect(url_for(".show", match_id=match_id), 303)


# --- deleting and restoring matches -------------------------------------------------------
@bp.get("/matches/<match_id>/delete")
def confirm_delete(match_id: str) -> str:
    """Ask before deleting: the confirmation works without JavaScript."""
    stored = _writable(match_id)
    access.record(match_id)
    return render_template("matches/delete.html", **sheet_context(stored))


@bp.post("/matches/<match_id>/delete")
def delete_match(match_id: str) -> Response:
    version = version_number(request.form.get("version"))
    try:
        store.delete_match(get_db(), match_id, version, organiser=access.is_organiser())
    except store.StaleError as error:
        flash(" ".join([*map(i18n.text, meanwhile.sentences(error)), _("The match was not deleted.")]))
        return redirect(url_for(".show", match_id=match_id), 303)
    flash(
        _(
            "Match deleted. You can restore it from this page for %(days)s days.",
            days=store.RESTORE_DAYS,
        )
    )
    return redirect(url_for(".index"), 303)


@bp.post("/matches/<match_id>/restore")
def restore_match(match_id: str) -> Response:
    store.restore_match(get_db(), match_id, organiser=access.is_organiser())
    flash(_("Match restored."))
    return redirect(url_for(".show", match_id=match_id), 303)


def _writable(match_id: str) -> store.StoredMatch:
    stored = store.get_match(get_db(), match_id)
    if stored.deleted:
        abort(404)
    return stored


def _writer_page(match_id: str) -> store.StoredMatch:
    """A match opened with its write link (deleted ones too): it joins this browser's list."""
    stored = store.get_match(get_db(), match_id)
    access.record(match_id)
    return stored


def _writable_head(match_id: str) -> store.MatchHead:
    head = store.match_head(get_db(), match_id)
    if head.deleted:
        abort(404)
    return head


# --- sharing ------------------------------------------------------------------------------
@bp.get("/matches/<match_id>/share")
def share(match_id: str) -> str:
    """The match link and the read-only link, as text and QR codes for other phones."""
    stored = _writable(match_id)
    access.record(match_id)
    links = {
        "match": url_for(".show", match_id=match_id, _external=True),
        "watch": url_for(".watch", token=stored.watch_token, _external=True),
    }
    return render_template("matches/share.html", links=links, **sheet_context(stored))


@bp.get("/matches/<match_id>/qr.svg")
def match_qr(match_id: str) -> Response:
    _writable(match_id)
    return _qr(url_for(".show", match_id=match_id, _external=True))


@bp.get("/watch/<token>/qr.svg")
def watch_qr(token: str) -> Response:
    store.get_watched_match(get_db(), token)
    return _qr(url_for(".watch", token=token, _external=True))


def _qr(link: str) -> Response:
    """A QR code drawn here with segno: no request leaves the table's network."""
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="svg", scale=6, border=2, dark="#000", light="#fff")
    response = Response(out.getvalue(), mimetype="image/svg+xml")
    response.cache_control.private = True
    response.cache_control.max_age = 3600
    return response


# --- installable app ----------------------------------------------------------------------
@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, served from the root so it may cache the whole app's shell."""
    path = current_app.static_folder + "/sw.js"
    with open(path, encoding="utf-8") as file:
        source = file.read()
    offline = url_for(".offline")
    shell = [url_for(".index"), offline, url_for(".manifest"), *(asset_url(name) for name in SHELL)]
    version = hashlib.sha256((json.dumps(shell) + source).encode()).hexdigest()[:12]
    body = (
        f"const SHELL = {json.dumps(shell)};\nconst VERSION = {json.dumps(version)};\n"
        f"const OFFLINE = {json.dumps(offline)};\n{source}"
    )
    response = Response(body, mimetype="text/javascript")
    response.cache_control.no_cache = True
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest, its addresses below the URL root the app is served under.

    ``static/manifest.webmanifest`` holds it for the root; under a path (``/canasta/``) an
    installed app must open, stay within and be known by ``/canasta/``, not the club's home page,
    so ``id``, ``start_url``, ``scope`` and the icons are rewritten here.
    """
    with open(current_app.static_folder + "/manifest.webmanifest", encoding="utf-8") as file:
        document = json.load(file)
    root = url_for(".index")
    document |= {"id": root, "start_url": root, "scope": root}
    for icon in document["icons"]:
        icon["src"] = asset_url(icon["src"])
    response = Response(json.dumps(document, indent=1), mimetype="application/manifest+json")
    response.cache_control.no_cache = True
    response.add_etag()
    return response.make_conditional(request)


@bp.get("/robots.txt")
def robots() -> Response:
    """No search engine indexes scorepad: its match and night links are capability URLs."""
    response = Response("User-agent: *\nDisallow: /\n", mimetype="text/plain")
    response.cache_control.public = True
    response.cache_control.max_age = 86400
    return response


@bp.get("/favicon.ico")
def favicon() -> Response:
    """What a browser asks for by itself at the root: the app's icon (PNG, which every browser reads there)."""
    response = send_from_directory(current_app.static_folder, "icons/icon-192.png", mimetype="image/png")
    response.cache_control.public = True
    response.cache_control.max_age = 86400
    return response


@bp.get("/offline")
def offline() -> str:
    """What the service worker shows for a page this phone has not kept, while it is offline."""
    return render_template("errors/offline.html")
