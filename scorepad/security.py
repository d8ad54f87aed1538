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

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from flask import (
    Flask,
    Request,
    Response,
    abort,
    current_app,
    flash,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from flask_babel import gettext, lazy_gettext
from flask_wtf import CSRFProtect
from flask_wtf.csrf import CSRFError, generate_csrf
from itsdangerous import BadSignature, URLSafeTimedSerializer
from markupsafe import Markup, escape
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge
from werkzeug.middleware.proxy_fix import ProxyFix

from . import assets

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
}
FORM_BODY = 1024 * 1024  # a hand form is a few KB; a long API score request a few hundred
UPLOAD_BODY = 16 * 1024 * 1024  # a backup of thousands of matches
DEFAULTS = {
    "MAX_CONTENT_LENGTH": FORM_BODY,
    "MAX_FORM_MEMORY_SIZE": 256 * 1024,
    "MAX_FORM_PARTS": 1000,
    "WTF_CSRF_TIME_LIMIT": None,  # the token is bound to the session: valid as long as the browser keeps it
    # With Referrer-Policy: no-referrer a browser sends no Referer even to this server, so
    # Flask-WTF's HTTPS-only Referer check would refuse every form; the session-bound token
    # and the SameSite cookie are the defence.
    "WTF_CSRF_SSL_STRICT": False,
    "SESSION_COOKIE_SAMESITE": "Lax",
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SECURE": False,  # still Secure on every HTTPS request, see SessionInterface
    "PROXY_HOPS": 0,  # reverse proxies in front whose X-Forwarded-* headers are trusted
}
TOKEN_REFUSED = lazy_gettext(
    "Nothing was changed: this page's security check did not pass (it was opened in another "
    "browser, or the browser dropped its session). Please try again."
)


VERIFIED_COOKIES = 4096  # session cookies whose signature is known good


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed cookie session, marked Secure whenever the request itself was HTTPS.

    It does what Flask's does at less cost per request, since most requests (the API, a
    phone's poll, static files) never touch the session: the signing serializer is built once
    per secret key rather than twice a request, a cookie whose signature passed is not checked
    again (:meth:`open_session`), and a response that never read or changed the
    session sends nothing about it. Flask would re-sign and re-send a permanent session (the
    organiser's) on every response; here it is renewed by the pages, which all read it.
    """

    def __init__(self) -> None:
        self._serializers: dict[tuple[Any, ...], URLSafeTimedSerializer | None] = {}
        # A cookie already verified: its contents (as the session's JSON) and when it was signed.
        self._verified: OrderedDict[tuple[URLSafeTimedSerializer, str], tuple[str, int]] = OrderedDict()
        self._verified_lock = threading.Lock()

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        # The keys are part of the cache key, so a changed SECRET_KEY (or fallback) takes effect at once.
        key = (app.secret_key, *(app.config["SECRET_KEY_FALLBACKS"] or ()))
        serializer = self._serializers.get(key)
        if serializer is None:
            serializer = super().get_signing_serializer(app)
            if len(self._serializers) > 8:
                self._serializers.clear()
            self._serializers[key] = serializer
        return serializer

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """Flask's ``open_session``, verifying each distinct cookie once rather than on every request.

        A phone sends the same session cookie until its session changes. Checking its signature
        again gives the same answer, so a cookie that passed is kept with its contents and the
        time it was signed, under the serializer (the secret keys) that checked it: another
        key, or another cookie, is checked in full. Its age is checked on every request, exactly
        as itsdangerous does, and its contents are read afresh from JSON, so no request sees
        another's changes.
        """
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return self.session_class()
        max_age = int(app.permanent_session_lifetime.total_seconds())
        kept = self._verified.get((serializer, value))
        if kept is not None and 0 <= int(time.time()) - kept[1] <= max_age:
            return self.session_class(serializer.serializer.loads(kept[0]))
        try:
            data, signed = serializer.loads(value, max_age=max_age, return_timestamp=True)
        except BadSignature:
            return self.session_class()
        with self._verified_lock:
            self._verified[(serializer, value)] = (serializer.serializer.dumps(data), int(signed.timestamp()))
            while len(self._verified) > VERIFIED_COOKIES:
                self._verified.popitem(last=False)
        return self.session_class(data)

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        if not session.accessed and not session.modified:
            return  # this answer does not depend on the session: no cookie, no Vary
        super().save_session(app, session, response)

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"] or request.is_secure)


# Stands where a browser's form token goes in markup rendered once for every browser; random
# per process, so no text a player types can imitate it.
TOKEN_SLOT = f"csrf-token-slot-{secrets.token_hex(16)}"


def render_for_everyone(template: str, context: Callable[[], dict[str, Any]]) -> tuple[str, ...]:
    """Render markup to keep and serve to every browser: the text around each form token.

    Forms on the page still carry this browser's token: :func:`with_token` puts it into the
    slots on every request. Flask-WTF keeps the request's signed token in ``g.csrf_token``
    (its documented place), so the slot is put there while ``context()`` is worked out and the
    template renders: markup kept earlier and filled in with :func:`with_token` inside it
    gets slots too, never this browser's token.
    """
    name = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    own = g.pop(name, None)
    setattr(g, name, TOKEN_SLOT)
    try:
        html = render_template(template, **context())
    finally:
        g.pop(name, None)
        if own is not None:
            setattr(g, name, own)
    return tuple(html.split(TOKEN_SLOT))


def with_token(parts: tuple[str, ...]) -> Markup:
    """Markup kept by :func:`render_for_everyone`, with this browser's form token in each slot.

    When it is the whole answer (a fragment), the gzip of the parts is kept too (``assets.keep_body``).
    """
    token = _filler(parts)
    assets.keep_body(parts, token)
    return Markup(token.join(parts))


def page_with_token(parts: tuple[str, ...]) -> bytes:
    """A whole page kept by :func:`render_for_everyone`, with this browser's token in each slot, as the body.

    The parts are encoded once and, for gzip, compressed once (``assets.kept_body``).
    """
    return assets.kept_body(parts, _filler(parts))


def _filler(parts: tuple[str, ...]) -> str:
    """What goes in the slots: this browser's token, escaped; for markup with no form, nothing."""
    return "" if len(parts) == 1 else str(escape(form_token()))  # no form: no token, no session


SIGNED_TOKENS = 4096  # browsers whose signed form token is kept
_signed_tokens: OrderedDict[tuple[Any, str], str] = OrderedDict()
_signed_tokens_lock = threading.Lock()


def form_token() -> str:
    """This browser's signed form token (Flask-WTF's ``generate_csrf``), signed once per session token.

    Flask-WTF signs the session's raw token again on every request (an HMAC, a timestamp and
    base64: ~25 µs), though with ``WTF_CSRF_TIME_LIMIT = None`` a token signed earlier stays
    exactly as valid: validation checks the signature and that it names the session's raw
    token, never the timestamp. So the signed token is kept under the secret and the raw
    token, and is only ever handed to a request whose own signed session holds that raw
    token: the one browser it was made for, which would be given an equally valid token
    anyway. Another browser's session holds another raw token and so finds another entry, or
    none. A server that sets a time limit signs afresh each time, as Flask-WTF does.
    """
    config = current_app.config
    name = config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    if name in g:  # this request's token, or the slot while markup for everyone renders
        return g.get(name)
    if config.get("WTF_CSRF_TIME_LIMIT") is not None:
        return generate_csrf()
    secret = config.get("WTF_CSRF_SECRET_KEY", current_app.secret_key)
    raw = session.get(name)
    signed = _signed_tokens.get((secret, raw)) if isinstance(raw, str) else None
    if signed is not None:
        setattr(g, name, signed)  # where generate_csrf and the forms look for it in this request
        return signed
    signed = generate_csrf()
    raw = session.get(name)  # made just now for a browser without one
    if isinstance(raw, str):
        with _signed_tokens_lock:
            _signed_tokens[(secret, raw)] = signed
            while len(_signed_tokens) > SIGNED_TOKENS:
                _signed_tokens.popitem(last=False)
    return signed


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


def init_app(app: Flask) -> None:
    """Proxy trust, body bounds, CSRF and headers (``DEFAULTS`` are loaded before the config).

    Call it before anything else registers a ``before_request``: the body bound must be set
    before the CSRF check reads the form.
    """
    hops = int(app.config["PROXY_HOPS"] or 0)
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=hops, x_prefix=hops)
    app.session_interface = SessionInterface()
    app.before_request(allow_large_bodies(app))  # before the CSRF check reads the form
    csrf.init_app(app)
    app.jinja_env.globals["csrf_token"] = form_token  # Flask-WTF's global, signing once per session
    app.after_request(add_headers)
    app.register_error_handler(CSRFError, token_refused)
    app.register_error_handler(RequestEntityTooLarge, too_large)
    app.before_request(bounded_root)


LONGEST_ROOT = 200  # characters of the URL root scorepad answers under (a proxy's X-Forwarded-Prefix)


def bounded_root() -> tuple[Response, int] | None:
    """Refuse a URL root longer than any real path (400), before anything renders under it.

    Behind a proxy the root comes from ``X-Forwarded-Prefix``; it is in every link, so it is
    part of the key of kept markup (sheets, list lines, their gzip). A bounded root keeps
    those caches bounded in size, not only in count.
    """
    if len(request.script_root) <= LONGEST_ROOT:
        return None
    if request.path.startswith("/api/"):
        message = f"The URL root (X-Forwarded-Prefix) is at most {LONGEST_ROOT} characters long."
        return jsonify(errors=[{"field": "", "message": message}]), 400
    abort(400)
