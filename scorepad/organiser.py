"""Organiser mode: the browser signed in with the server owner's passphrase sees every match.

For a club or a family server, the person who runs it sets ``FLASK_ORGANISER_PASSPHRASE``;
without it organiser mode is off and this page says so. Signing in lists and exports every
match on the server (home page, stats, results CSV, all-matches JSON); see :mod:`access`.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, url_for

from . import access
from .forms import OrganiserForm
from .i18n import gettext as _
from .i18n import lazy_gettext, ngettext

bp = Blueprint("organiser", __name__, url_prefix="/organiser")

WRONG = lazy_gettext("That is not the organiser passphrase.")


@bp.route("", methods=["GET", "POST"])
def sign_in() -> Any:
    """The sign-in form, or what organiser mode is when it is off or already on."""
    form = OrganiserForm()
    if access.passphrase() is None:
        status = 403 if request.method == "POST" else 200  # nothing to sign in to
        return render_template("organiser/sign_in.html", form=form, mode_off=True), status
    if form.validate_on_submit():
        state, wait = access.try_passphrase(form.passphrase.data)
        if wait:
            form.passphrase.errors.append(
                _("Too many wrong passphrases were tried: try again in %(wait)s.", wait=_duration(wait))
            )
        elif state is not None:
            access.sign_in(state)
            flash(_("Signed in as the organiser: every match on this server is listed."))
            return redirect(url_for("matches.index"), 303)
        else:
            form.passphrase.errors.append(WRONG)
    return render_template("organiser/sign_in.html", form=form, signed_in=access.is_organiser())


@bp.post("/sign-out")
def sign_out() -> Any:
    """End the organiser's sign-in, on this browser and on any copy of its cookie; its own matches stay listed.

    A plain POST: CSRFProtect has already checked its token, and there is nothing else to read.
    """
    access.sign_out()
    flash(_("Signed out: this phone lists only its own matches again."))
    return redirect(url_for("matches.index"), 303)


def _duration(seconds: int) -> str:
    """A wait in words.

    >>> _duration(1), _duration(59), _duration(61), _duration(300)
    ('1 second', '59 seconds', '2 minutes', '5 minutes')
    """
    if seconds < 60:
        return ngettext("%(num)s second", "%(num)s seconds", seconds)
    minutes = -(-seconds // 60)
    return ngettext("%(num)s minute", "%(num)s minutes", minutes)
