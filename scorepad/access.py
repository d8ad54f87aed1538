"""Who sees what: which browser asks, whether it is the organiser's, and the viewer that makes.

A browser sees the matches it created, opened with the write link, or imported. It is known by
a random id (128 bits, like a match id) in its own cookie rather than in Flask's session:
the list must outlive a change of ``SECRET_KEY`` and the organiser signing in or out, and
one cookie with one purpose is easy to reason about (HttpOnly, SameSite=Lax, and Secure on
every HTTPS request, or always with ``SESSION_COOKIE_SECURE``). Nothing else about a browser is stored.

The organiser is the browser signed in with ``ORGANISER_PASSPHRASE`` (the server's owner sets
it as ``FLASK_ORGANISER_PASSPHRASE``; unset, organiser mode is off). The signed-in state lives
in Flask's signed session as a keyed fingerprint of the passphrase, so changing the passphrase
signs every organiser out, and the id of that one sign-in, kept in the database: signing out
ends that sign-in alone (and every copy of its cookie), so nobody else's sign-out can end the
organiser's. Wrong guesses slow further guesses down from the same source address and the
same browser only (:func:`try_passphrase`), so a stranger's guesses never keep the right
passphrase out on another phone; a device the organiser has signed in from before never waits.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import math
import os
import time
from datetime import timedelta

from flask import Flask, Response, current_app, g, request, session

from . import store
from .assets import cookie_path, vary
from .db import get_db
from .documents import is_well_formed_id

COOKIE = "scorepad_browser"
# A writer page opened by a browser with no id yet: the match it opened, until it comes back
# with the id it was given (a client that keeps no cookie never does, and writes nothing).
OPENED_COOKIE = "scorepad_opened"
# Browsers cap a cookie's life at 400 days; every writer page sends it again, so a phone that
# keeps playing keeps its list.
COOKIE_LIFETIME = timedelta(days=400)
ORGANISER_KEY = "organiser"
GENERATION_KEY = "organiser_generation"
DEVICE_KEY = "organiser_device"
SESSION_KEY = "organiser_session"
DEVICE_SALT = "device:"
# After wrong passphrases in a row the next guess waits 1 s, then 2, 4, ... at most 5 minutes.
FIRST_DELAY = 1.0
MAX_DELAY = 300.0


# --- this browser -------------------------------------------------------------------------
def browser_id() -> str | None:
    """This browser's id from its cookie, or None when it has none (it then lists no match).

    A browser that comes back with the id it was given keeps cookies: the match it opened
    before it had one (:func:`record`) joins its list now.
    """
    if "browser_id" not in g:
        raw = request.cookies.get(COOKIE, "")
        g.browser_id = raw if is_well_formed_id(raw) else None
        opened = request.cookies.get(OPENED_COOKIE)
        if opened is not None and g.browser_id is not None:
            if is_well_formed_id(opened):
                store.grant_access(get_db(), g.browser_id, opened, "opened")
            g.forget_opened = True
    return g.browser_id


def ensure_browser_id() -> str:
    """This browser's id, made now if it had none; the response sends (and renews) the cookie."""
    if browser_id() is None:
        g.browser_id = store.new_token()
    g.send_browser_cookie = True
    return g.browser_id


def record(match_id: str) -> None:
    """A writer page of this match was opened: the match joins this browser's list.

    A browser with no id yet is given one, and the match joins its list when it comes back
    with it (:func:`browser_id`): a client that keeps no cookie writes no row per visit.
    """
    known = browser_id() is not None
    browser = ensure_browser_id()
    if not known:
        g.opened_match = match_id
    elif not store.has_access(get_db(), browser, match_id):  # read first: most visits write nothing
        store.grant_access(get_db(), browser, match_id, "opened")


def viewer() -> store.Viewer:
    """What this request may list: every match for the organiser, else this browser's."""
    g.viewer_used = True
    if is_organiser():
        return store.EVERY_MATCH
    return store.Viewer(browser=browser_id())


def send_browser_cookie(response: Response) -> Response:
    """After a request: send the browser's cookie when a page used it; lists vary by cookie."""
    secure = bool(current_app.config.get("SESSION_COOKIE_SECURE") or request.is_secure)
    lifetime = int(COOKIE_LIFETIME.total_seconds())
    path = cookie_path()
    if g.get("send_browser_cookie"):
        response.set_cookie(
            COOKIE, g.browser_id, max_age=lifetime, path=path, httponly=True, samesite="Lax", secure=secure
        )
    if g.get("opened_match"):
        response.set_cookie(
            OPENED_COOKIE, g.opened_match, max_age=lifetime, path=path, httponly=True, samesite="Lax", secure=secure
        )
    elif g.get("forget_opened"):
        response.delete_cookie(OPENED_COOKIE, path=path, httponly=True, samesite="Lax", secure=secure)
    if g.get("send_browser_cookie") or g.get("viewer_used"):
        vary(response, "Cookie")
    return response


# --- the organiser ------------------------------------------------------------------------
def passphrase() -> str | None:
    """The organiser passphrase the server's owner set, or None: organiser mode is off."""
    value = current_app.config.get("ORGANISER_PASSPHRASE")
    if value is not None and not isinstance(value, str):
        # from_prefixed_env() reads values as JSON, so "1234" arrives as a number: take the text.
        value = os.environ.get("FLASK_ORGANISER_PASSPHRASE", str(value))
    return value or None


def _fingerprint(text: str) -> str:
    key = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(key, text.encode(), hashlib.sha256).hexdigest()


def is_organiser() -> bool:
    """Whether this browser signed in with the passphrase in force now, and has not signed out."""
    configured = passphrase()
    if configured is None:
        return False
    signed = session.get(ORGANISER_KEY)
    if not signed or not hmac.compare_digest(str(signed), _fingerprint(configured)):
        return False
    if session.get(GENERATION_KEY) != _generation():
        return False
    return _session_goes_on()


def _session_goes_on() -> bool:
    """Whether this browser's sign-in has not been signed out, read once per request."""
    if "organiser_session" not in g:
        session_id = session.get(SESSION_KEY)
        g.organiser_session = isinstance(session_id, str) and store.has_organiser_session(get_db(), session_id)
    return g.organiser_session


def is_passphrase(attempt: str) -> bool:
    """Whether ``attempt`` is the organiser passphrase, compared in constant time."""
    configured = passphrase()
    if configured is None:
        return False
    return hmac.compare_digest(_fingerprint(attempt), _fingerprint(configured))


def sign_in(state: store.SignInState) -> None:
    """Remember in the signed session that this browser is the organiser's, under an id of its
    own (:func:`sign_out` ends it alone), and that it is a device the organiser uses
    (:func:`known_device`)."""
    session_id = store.new_token()
    clock = time.time()
    lifetime = current_app.permanent_session_lifetime.total_seconds()
    store.add_organiser_session(get_db(), session_id, clock, older_than=clock - lifetime)
    session[ORGANISER_KEY] = _fingerprint(passphrase() or "")
    session[GENERATION_KEY] = state.generation
    session[SESSION_KEY] = session_id
    session[DEVICE_KEY] = _device_fingerprint(state.device_generation)
    session.permanent = True
    g.organiser_session = True


def sign_out() -> None:
    """End this browser's sign-in, here and on any copy of its cookie; nobody else's.

    A stranger's sign-out (with their own form token) ends only the stranger's session.
    """
    session_id = session.pop(SESSION_KEY, None)
    if isinstance(session_id, str):
        store.end_organiser_session(get_db(), session_id)
    session.pop(ORGANISER_KEY, None)
    session.pop(GENERATION_KEY, None)
    g.organiser_session = False


def _generation() -> int:
    """The generation of organiser sign-ins in force, read once per request."""
    if "organiser_generation" not in g:
        g.organiser_generation = store.sign_in_state(get_db()).generation
    return g.organiser_generation


def _device_fingerprint(device_generation: int) -> str:
    return _fingerprint(f"{DEVICE_SALT}{device_generation}:{passphrase() or ''}")


def known_device(device_generation: int) -> bool:
    """Whether this browser signed in as the organiser before, with the passphrase in force now,
    and no known device has guessed wrong since (``device_generation``).

    A wait after wrong guesses does not apply to it, so a guessing stranger slows everyone
    else down but never locks the organiser out of their own phone. A wrong guess from a known
    device ends every device's exemption, so a copied cookie buys one free guess at most.
    """
    if passphrase() is None:
        return False
    return hmac.compare_digest(str(session.get(DEVICE_KEY, "")), _device_fingerprint(device_generation))


def delay_after(failures: int) -> float:
    """Seconds before the next guess is checked, after ``failures`` wrong passphrases in a row.

    >>> [delay_after(n) for n in (0, 1, 2, 3, 10, 30)]
    [0.0, 1.0, 2.0, 4.0, 300.0, 300.0]
    """
    if failures <= 0:
        return 0.0
    return min(MAX_DELAY, FIRST_DELAY * 2.0 ** min(failures - 1, 30))


def guesser_keys() -> list[str]:
    """Who is guessing, as wrong guesses are counted: the source address (an IPv6 address by its
    /64, what one home or phone is given) and, when it has one, this browser's id."""
    address = request.remote_addr or "unknown"
    try:
        parsed = ipaddress.ip_address(address)
        if parsed.version == 6 and parsed.ipv4_mapped is None:
            address = str(ipaddress.ip_network(f"{address}/64", strict=False))
    except ValueError:
        pass
    keys = [f"source:{address}"]
    if browser_id() is not None:
        keys.append(f"device:{browser_id()}")
    return keys


def try_passphrase(attempt: str, clock: float | None = None) -> tuple[store.SignInState | None, int]:
    """Check ``attempt`` unless guessing must wait; returns (the sign-in state when it is right,
    else None; seconds to wait).

    Wrong passphrases in a row and the time of the next check are kept in the database per
    source address and per browser (:func:`guesser_keys`), so every server process (gunicorn
    workers) slows down together, and a stranger's guesses slow down the stranger: a phone at
    another address, with the right passphrase, is checked at once. A guess during the wait is
    not checked, so it neither gets in nor lengthens the wait; a known device
    (:func:`known_device`) is checked at once. A right passphrase clears its keys' count.
    """
    now = time.time() if clock is None else clock
    keys = guesser_keys()
    db = get_db()
    with store.writing(db):
        state = store.sign_in_state(db)
        known = known_device(state.device_generation)
        failures, next_try = store.guess_wait(db, keys)
        if now < next_try and not known:
            return None, max(1, math.ceil(next_try - now))
        if is_passphrase(attempt):
            store.forget_wrong_guesses(db, keys)
            return state, 0
        failures += 1
        store.record_wrong_guess(db, keys, failures, now + delay_after(failures), now)
        if known:
            store.forget_known_devices(db)
    return None, 0


def init_app(app: Flask) -> None:
    app.after_request(send_browser_cookie)
    app.jinja_env.globals["is_organiser"] = is_organiser
