"""Who sees what: which browser asks, whether it is the organiser's, and the viewer that makes.

A browser sees the matches it created, opened with the write link, or imported. It is known by
a random id (128 bits, like a match id) in its own cookie rather than in Flask's session:
the list must outlive a change of ``SECRET_KEY`` and the organiser signing in or out, and
one cookie with one purpose is easy to reason about (HttpOnly, SameSite=Lax, Secure when
``SESSION_COOKIE_SECURE`` is set). Nothing else about a browser is stored.

The organiser is the browser signed in with ``ORGANISER_PASSPHRASE`` (the server's owner sets
it as ``FLASK_ORGANISER_PASSPHRASE``; unset, organiser mode is off). The signed-in state lives
in Flask's signed session as a keyed fingerprint of the passphrase, so changing the passphrase
signs every organiser out.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import threading
import time
from collections import deque
from datetime import timedelta

from flask import Flask, Response, current_app, g, request, session

from . import store
from .assets import vary
from .db import get_db
from .documents import is_well_formed_id

COOKIE = "scorepad_browser"
# Browsers cap a cookie's life at 400 days; every writer page sends it again, so a phone that
# keeps playing keeps its list.
COOKIE_LIFETIME = timedelta(days=400)
ORGANISER_KEY = "organiser"
# Wrong passphrases allowed from one address in the window; then it waits for the window.
MAX_FAILURES = 5
FAILURE_WINDOW = 300.0  # seconds
MAX_ADDRESSES = 10_000  # failures are remembered for at most this many addresses


# --- this browser -------------------------------------------------------------------------
def browser_id() -> str | None:
    """This browser's id from its cookie, or None when it has none (it then lists no match)."""
    if "browser_id" not in g:
        raw = request.cookies.get(COOKIE, "")
        g.browser_id = raw if is_well_formed_id(raw) else None
    return g.browser_id


def ensure_browser_id() -> str:
    """This browser's id, made now if it had none; the response sends (and renews) the cookie."""
    if browser_id() is None:
        g.browser_id = store.new_token()
    g.send_browser_cookie = True
    return g.browser_id


def record(match_id: str) -> None:
    """A writer page of this match was opened: the match joins this browser's list."""
    db = get_db()
    known = browser_id() is not None  # an id made just now lists nothing yet: no need to ask
    browser = ensure_browser_id()
    if not known or not store.has_access(db, browser, match_id):  # read first: most visits write nothing
        store.grant_access(db, browser, match_id, "opened")


def viewer() -> store.Viewer:
    """What this request may list: every match for the organiser, else this browser's."""
    g.viewer_used = True
    if is_organiser():
        return store.EVERY_MATCH
    return store.Viewer(browser=browser_id())


def send_browser_cookie(response: Response) -> Response:
    """After a request: send the browser's cookie when a page used it; lists vary by cookie."""
    if g.get("send_browser_cookie"):
        response.set_cookie(
            COOKIE,
            g.browser_id,
            max_age=int(COOKIE_LIFETIME.total_seconds()),
            httponly=True,
            samesite="Lax",
            secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
        )
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
    """Whether this browser signed in with the passphrase in force now."""
    configured = passphrase()
    if configured is None:
        return False
    return hmac.compare_digest(str(session.get(ORGANISER_KEY, "")), _fingerprint(configured))


def is_passphrase(attempt: str) -> bool:
    """Whether ``attempt`` is the organiser passphrase, compared in constant time."""
    configured = passphrase()
    if configured is None:
        return False
    return hmac.compare_digest(_fingerprint(attempt), _fingerprint(configured))


def sign_in() -> None:
    """Remember in the signed session that this browser is the organiser's."""
    session[ORGANISER_KEY] = _fingerprint(passphrase() or "")
    session.permanent = True


def sign_out() -> None:
    session.pop(ORGANISER_KEY, None)


class Attempts:
    """Wrong passphrases per address within a sliding window, so guessing is slow.

    Behind a reverse proxy every request has the proxy's address, and the bound becomes one
    for the whole server: slower for the organiser after a guessing spree, never faster to guess.
    """

    def __init__(self, limit: int = MAX_FAILURES, window: float = FAILURE_WINDOW):
        self.limit, self.window = limit, window
        self.failures: dict[str, deque[float]] = {}
        self.lock = threading.Lock()

    def wait(self, address: str, clock: float | None = None) -> int:
        """Seconds ``address`` must wait before trying again (0: it may try now)."""
        now = time.monotonic() if clock is None else clock
        with self.lock:
            times = self._recent(address, now)
            if len(times) < self.limit:
                return 0
            return max(1, int(times[0] + self.window - now + 0.999))

    def failed(self, address: str, clock: float | None = None) -> None:
        now = time.monotonic() if clock is None else clock
        with self.lock:
            if address not in self.failures and len(self.failures) >= MAX_ADDRESSES:
                self.failures.pop(next(iter(self.failures)))
            self._recent(address, now).append(now)

    def _recent(self, address: str, now: float) -> deque[float]:
        times = self.failures.setdefault(address, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        return times


def attempts() -> Attempts:
    """This app's record of wrong passphrases."""
    return current_app.extensions["scorepad.sign_in_attempts"]


def init_app(app: Flask) -> None:
    app.extensions["scorepad.sign_in_attempts"] = Attempts()
    app.after_request(send_browser_cookie)
    app.jinja_env.globals["is_organiser"] = is_organiser
