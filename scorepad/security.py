"""Defended pages: response headers, cookies, request size and refused form tokens, in one place.

- Every response carries a Content-Security-Policy that allows only this server's own scripts
  and styles (no inline code, no ``eval``: htmx is configured in ``base.html`` to need neither),
  may not be framed, sends no Referer (match links are secrets) and is not MIME-sniffed.
- The session cookie (it holds the form token and one-off messages) is ``SameSite=Lax`` and ``HttpOnly``, and
  ``Secure`` whenever the request came over HTTPS, directly or through a trusted reverse proxy
  (``FLASK_PROXY_HOPS``), or always with ``FLASK_SESSION_COOKIE_SECURE=true``.
- Request bodies are bounded: ordinary forms and API bodies to ``MAX_CONTENT_LENGTH`` (1 MiB), a
  view marked :func:`large_body` (the backup import) to its own allowance; a larger body is a 413
  page, or JSON under ``/api/``.
- Form tokens never expire while the browser that rendered the form keeps its session
  (``WTF_CSRF_TIME_LIMIT = None``). Pages with a form of typed data check the token in the form
  itself (:func:`form_checks_token`), so a refused token comes back as a message on the filled-in
  form with a fresh token; a refused one-button form (undo, delete, restore, import) is sent back
  with 303 to the page it lives on, with a flash saying nothing was changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import (
    Flask,
    Response,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.sessions import SecureCookieSessionInterface, SessionMixin
from flask_wtf import CSRFProtect
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import IntegerConverter

from .assets import cookie_path
from .i18n import gettext, lazy_gettext

csrf = CSRFProtect()

View = TypeVar("View", bound=Callable[..., Any])

# Only this server's files: no inline script or style, no eval, no plugins, no framing.
# ``img-src data:`` is absent on purpose: nothing here draws from data: URLs.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",
        "font-src 'self'",
        "manifest-src 'self'",
        "worker-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "Referrer-Policy": "no-referrer",  # match links carry the write id: never hand them on
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers too old to read CSP
    # A match or night link is a capability URL: a link to it pasted anywhere must not be indexed.
    "X-Robots-Tag": "noindex, nofollow",
}
# A page is drawn for one browser (its list, its session's form token): no shared cache keeps it,
# and the browser asks again each time (answered with 304 when unchanged).
PAGE_CACHING = "private, no-cache"
FORM_BODY = 1024 * 1024  # a hand form is a few KB; a long API score request a few hundred
UPLOAD_BODY = 16 * 1024 * 1024  # a backup of thousands of matches
DEFAULTS = {
    "MAX_CONTENT_LENGTH": FORM_BODY,
    # A form's boxes together (urlencoded), or any one box of a multipart form: the longest box
    # a page has takes 2,000 characters; a 250 KB box cost ~50 MB while it was read and echoed.
    "MAX_FORM_MEMORY_SIZE": 64 * 1024,
    "MAX_FORM_PARTS": 1000,
    "WTF_CSRF_TIME_LIMIT": None,  # the token is bound to the session: valid as long as the browser keeps it
    # With Referrer-Policy: no-referrer a browser sends no Referer even to this server, so
    # Flask-WTF's HTTPS-only Referer check would refuse every form; the session-bound token
    # and the SameSite cookie are the defence.
    "WTF_CSRF_SSL_STRICT": False,
    "SESSION_COOKIE_NAME": "scorepad_session",  # not Flask's "session": a club's site may have its own
    "SESSION_COOKIE_SAMESITE": "Lax",
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SECURE": False,  # still Secure on every HTTPS request, see SessionInterface
    "PROXY_HOPS": 0,  # reverse proxies in front whose X-Forwarded-* headers are trusted
}
TOKEN_REFUSED = lazy_gettext(
    "Nothing was changed: this page's security check did not pass (it was opened in another "
    "browser, or the browser dropped its session). Please try again."
)


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed cookie session, marked Secure whenever the request itself was HTTPS.

    A response that never read or changed the session sends nothing about it: most requests
    (the API, a phone's poll, static files) never touch it. Flask would re-sign and re-send a
    permanent session (the organiser's) on every response; here it is renewed by the pages,
    which all read it.
    """

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        if not session.accessed and not session.modified:
            return  # this answer does not depend on the session: no cookie, no Vary
        super().save_session(app, session, response)

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"] or request.is_secure)

    def get_cookie_path(self, app: Flask) -> str:
        return cookie_path()


def form_checks_token(view: View) -> View:
    """Let the view's FlaskForm check the token, so a refusal re-renders the form filled in.

    Only for views that validate a FlaskForm before storing anything: the form's token field
    then refuses the request like any other box, and the page comes back with what was typed,
    the message, and a fresh token.
    """
    return csrf.exempt(view)


def large_body(limit: int = UPLOAD_BODY) -> Callable[[View], View]:
    """Allow this view a larger request body than the ordinary bound (the import upload)."""

    def mark(view: View) -> View:
        view.max_content_length = limit  # type: ignore[attr-defined]
        return view

    return mark


def allow_large_bodies(app: Flask) -> Callable[[], None]:
    def allow() -> None:
        view = app.view_functions.get(request.endpoint or "")
        limit = getattr(view, "max_content_length", None)
        if limit is not None:
            request.max_content_length = limit
        elif request.mimetype == "application/x-www-form-urlencoded":
            # Werkzeug reads such a form whole, with no bound per box: its boxes together are
            # held to what one multipart box may hold.
            request.max_content_length = app.config["MAX_FORM_MEMORY_SIZE"]

    return allow


def add_headers(response: Response) -> Response:
    """The defence headers, on every response: pages, fragments, JSON, static files and errors.

    A header a view set itself is kept. The response's headers are read once: asking for
    each absent one (``setdefault``) raises and catches an exception apiece in Werkzeug.
    """
    headers = response.headers
    present = {name.lower() for name, _ in headers}
    for name, value in HEADERS.items():
        if name.lower() not in present:
            headers.add(name, value)
    if "cache-control" not in present and response.mimetype == "text/html":
        headers.add("Cache-Control", PAGE_CACHING)
    return response


def token_refused(error: CSRFError) -> Response:
    """A one-button form whose token was refused: back to its page (303), saying nothing changed."""
    flash(str(TOKEN_REFUSED))
    return redirect(_page_of_form(), 303)


def _page_of_form() -> str:
    """The page the refused form lives on: its own address when that is a page, else the match's.

    The address is built again with ``url_for``, never copied from the request: that quotes
    whatever the path held (a line break in a match id cannot reach the ``Location`` header)
    and keeps the script root a proxy gave.
    """
    try:
        endpoint, values = current_app.url_map.bind_to_environ(request.environ).match(request.path, method="GET")
    except HTTPException:  # no page at this address (only the POST): go to the match, or home
        match_id = (request.view_args or {}).get("match_id")
        if match_id is not None:
            return url_for("matches.show", match_id=match_id)
        return url_for("matches.index")
    return url_for(endpoint, **values)


def too_large(error: RequestEntityTooLarge) -> tuple[Response | str, int]:
    """A body over the bound: JSON for the API, a page otherwise; never a 500."""
    limit = request.max_content_length
    size = f"{limit // 1024} KB" if limit and limit < 1024 * 1024 else f"{(limit or 0) // (1024 * 1024)} MB"
    if request.path.startswith("/api/"):  # a JSON body has no form fields: speak of the body
        message = gettext("The request body is too large: scorepad accepts at most %(size)s.", size=size)
        return jsonify(errors=[{"field": "", "message": message}]), 413
    parts = current_app.config["MAX_FORM_PARTS"]
    message = gettext(
        "That was more than scorepad accepts in one request (at most %(size)s, in at most %(parts)s form fields).",
        size=size,
        parts=parts,
    )
    return render_template("errors/413.html", message=message), 413


class StoredInteger(IntegerConverter):
    """``<int:...>`` in every URL: a whole number SQLite can hold, so a longer one is a 404.

    Werkzeug's own takes any number of digits, and SQLite refuses a parameter past 2**63 - 1
    with an OverflowError (a 500) wherever a view looks the number up.
    """

    def __init__(self, map: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", 2**63 - 1)
        super().__init__(map, *args, **kwargs)


def init_app(app: Flask) -> None:
    """Proxy trust, body bounds, CSRF and headers (``DEFAULTS`` are loaded before the config).

    Call it before anything else registers a ``before_request``: the body bound must be set
    before the CSRF check reads the form.
    """
    _trust_proxies(app)
    app.session_interface = SessionInterface()
    app.url_map.converters["int"] = StoredInteger  # before any blueprint adds its rules
    app.before_request(allow_large_bodies(app))  # before the CSRF check reads the form
    csrf.init_app(app)
    app.after_request(add_headers)
    app.register_error_handler(CSRFError, token_refused)
    app.register_error_handler(RequestEntityTooLarge, too_large)
    app.before_request(bounded_root)


def init_api(app: Flask) -> None:
    """The JSON API's app (:func:`scorepad.api_app`): the same proxy trust, headers, body bounds
    and bounded URL root as the pages, and no session or form token at all."""
    _trust_proxies(app)
    app.url_map.converters["int"] = StoredInteger
    app.before_request(allow_large_bodies(app))
    app.after_request(add_headers)
    app.register_error_handler(RequestEntityTooLarge, too_large)
    app.before_request(bounded_root)


def _trust_proxies(app: Flask) -> None:
    hops = int(app.config["PROXY_HOPS"] or 0)
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=hops, x_prefix=hops)


LONGEST_ROOT = 200  # characters of the URL root scorepad answers under (a proxy's X-Forwarded-Prefix)


def bounded_root() -> tuple[Response, int] | None:
    """Refuse a URL root longer than any real path (400), before anything renders under it.

    Behind a proxy the root comes from ``X-Forwarded-Prefix``; it is in every link, so it is
    part of the key of kept markup (:func:`sheets.piece_key`). A bounded root keeps that
    cache's keys bounded in size.
    """
    if len(request.script_root) <= LONGEST_ROOT:
        return None
    if request.path.startswith("/api/"):
        message = f"The URL root (X-Forwarded-Prefix) is at most {LONGEST_ROOT} characters long."
        return jsonify(errors=[{"field": "", "message": message}]), 400
    abort(400)
