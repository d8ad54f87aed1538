"""The table's language: which one a request gets, the switch that changes it, and rendering in it.

Flask-Babel does the work. A page's language is the one the player chose with the switch
(remembered in a cookie), else the best of the shipped languages the browser's
``Accept-Language`` asks for, else English. The JSON API ignores the cookie: it answers in English
unless the request itself sends ``Accept-Language``.

The rules core's messages are strings whose value is English and that carry a ``render`` method
(``scorepad/canasta``'s ``Text``; see docs/translating.md). They are rendered in the request's
language in every template (Jinja's ``finalize``), in JSON answers, and by :func:`text` wherever a
view joins or stores them. English needs none of this: a core message already *is* its English
text, so every English request takes the fast path.

Catalogues are loaded once per language and process (Flask-Babel's domain cache), never per
request; a request looks its catalogue up once (:func:`translations`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from babel import Locale
from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    g,
    has_request_context,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.json.provider import DefaultJSONProvider
from flask_babel import Babel, LazyString, format_date, format_datetime, format_decimal, get_locale, get_translations
from markupsafe import Markup
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from .assets import cookie_path, vary
from .fragments import fragments
from .presetnames import preset_side_name

# The shipped languages, each named in its own language for the switch, in the switch's order.
LANGUAGES: dict[str, str] = {"en": "English", "es": "Español", "pt_BR": "Português", "de": "Deutsch"}
DEFAULT = "en"
COOKIE = "scorepad_language"
COOKIE_AGE = 400 * 24 * 3600  # the longest a browser keeps a cookie
API_PREFIX = "/api/"
# What Accept-Language may ask for, mapped to the catalogue that serves it: any Portuguese gets
# Brazil's rather than English, any Spanish gets Spanish (werkzeug matches "es-MX" to "es"),
# any German gets German ("de-AT" to "de").
_ASKED = {"en": "en", "es": "es", "pt_BR": "pt_BR", "pt": "pt_BR", "de": "de"}
_LOCALES = {code: Locale.parse(code) for code in LANGUAGES}

babel = Babel()
bp = Blueprint("i18n", __name__)


def select_locale() -> Locale:
    """The request's language (Flask-Babel asks once per request and keeps the answer)."""
    if not request.path.startswith(API_PREFIX):  # the API answers by header only
        chosen = request.cookies.get(COOKIE)
        if chosen in _LOCALES:
            return _LOCALES[chosen]
    return _asked_for(request.headers.get("Accept-Language", ""))


def _asked_for(header: str) -> Locale:
    """The shipped language an ``Accept-Language`` header asks for first (or English)."""
    asked = parse_accept_header(header, LanguageAccept).best_match(_ASKED)
    return _LOCALES[_ASKED[asked]] if asked else _LOCALES[DEFAULT]


def translations() -> Any:
    """The request's catalogue (Flask-Babel's, loaded once per language), looked up once per request.

    Flask-Babel finds the catalogue again on every call (~10 µs), and a page makes dozens of
    calls, so the request keeps the one it found.
    """
    if not has_request_context():
        return get_translations()
    found = getattr(request, "scorepad_translations", None)
    if found is None:
        found = request.scorepad_translations = get_translations()
    return found


def gettext(message: str, /, **variables: Any) -> str:
    """A message of the web layer (``%(name)s`` placeholders) in the request's language.

    With :func:`ngettext`, :func:`pgettext`, :func:`lazy_gettext` and :func:`text` (the core's
    messages), the one way a message reaches a page: each looks the words up in
    :func:`translations`, as the templates' ``_()`` does. Flask-Babel's own functions behave the
    same, but look the catalogue up again on every call.
    """
    translated = translations().ugettext(message)
    return translated % variables if variables else translated


def ngettext(singular: str, plural: str, num: int, /, **variables: Any) -> str:
    """:func:`gettext` for a message with a plural, which may say ``%(num)s``."""
    variables.setdefault("num", num)
    return translations().ungettext(singular, plural, num) % variables


def pgettext(context: str, message: str, /, **variables: Any) -> str:
    """:func:`gettext` for a message told apart by ``context`` (the same English, other words)."""
    translated = translations().upgettext(context, message)
    return translated % variables if variables else translated


def lazy_gettext(message: str, /, **variables: Any) -> LazyString:
    """:func:`gettext`, said when the message is shown: for messages made once, at import."""
    return LazyString(gettext, message, **variables)


def language() -> str:
    """The request's language code (``en``, ``es``, ``pt_BR``); English outside a request.

    Looked up once per request, as :func:`translations` is: a page asks for it a dozen times
    (its tag, its language link, the keys of its kept pieces).
    """
    if not has_request_context():
        return DEFAULT if (locale := get_locale()) is None else str(locale)
    found = getattr(request, "scorepad_language", None)
    if found is None:
        locale = get_locale()
        found = request.scorepad_language = DEFAULT if locale is None else str(locale)
    return found


def is_english() -> bool:
    locale = get_locale()
    return locale is None or locale.language == "en"


def text(value: Any) -> Any:
    """A core message as plain text in the request's language; anything else unchanged.

    For a view that joins or stores a message (a flash, a line made of several): the template's
    ``finalize`` only sees what reaches a template whole.
    """
    if type(value) is str or not isinstance(value, str):
        return value
    render: Callable[[Any], str] | None = getattr(value, "render", None)
    if render is None or is_english():
        return value
    return render(translations())


def stored_name(name: str) -> str:
    """A variant's name as the store keeps it (its English), in the request's language.

    The stored lists keep the name the variant had when the match was saved; the name is the
    catalogue's message id, so it is looked up as one. A name no catalogue knows stays as it is.
    """
    return name if is_english() else translations().gettext(name)


def side_name(name: str, variant_key: str | None = None, index: int | None = None) -> str:
    """A side's stored name in the page's language when it is its preset's own name for that side
    (:mod:`scorepad.presetnames`: "Nosotros" is "We" on an English page); any other name as typed."""
    message = preset_side_name(variant_key, index, name)
    return name if message is None else text(message)


def side_names(match: Any) -> list[str]:
    """Every side's name of a match (stored, its head, or a line of the list) as :func:`side_name` shows it."""
    names = match.side_names if hasattr(match, "side_names") else [side.name for side in match.info.sides]
    return [side_name(name, match.variant_key, index) for index, name in enumerate(names)]


def shown_sides(info: Any, variant_key: str) -> Any:
    """``info`` (a match's ``MatchInfo``) with each side's name as :func:`side_name` shows it."""
    sides = tuple(replace(side, name=side_name(side.name, variant_key, index)) for index, side in enumerate(info.sides))
    return info if sides == info.sides else replace(info, sides=sides)


def finalize(value: Any) -> Any:
    """Jinja's ``finalize``: every ``{{ value }}`` that is a core message is printed in the page's language."""
    if type(value) is str or not isinstance(value, str):
        return value  # the common case, decided without a lookup
    return text(value)


def rendered(value: Any) -> Any:
    """A JSON answer with every core message in it rendered (lists, tuples and objects walked).

    For the standard library's writer, which never shows a ``str`` subclass to its ``default``;
    the API's orjson writer renders each message as it writes it (``api.JSONProvider``)."""
    if isinstance(value, str):
        return text(value)
    if isinstance(value, dict):
        return {key: rendered(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [rendered(item) for item in value]
    return value


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON, with core messages rendered when the request asked for a language by header.

    The API's provider (``api.JSONProvider``, which writes with orjson) builds on this one.
    """

    def rendering(self) -> bool:
        """True when this request's core messages are said in its language: it asked for one by header."""
        return has_request_context() and "Accept-Language" in request.headers and not is_english()

    def prepare(self, obj: Any) -> Any:
        """``obj`` with its core messages in the request's language, if the request asked for one."""
        return rendered(obj) if self.rendering() else obj

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return super().dumps(self.prepare(obj), **kwargs)


# --- numbers and dates ---------------------------------------------------------------------------
def number(value: Any) -> str:
    """A score as the page's language writes it: ``5,120``, ``5.120`` (German, Portuguese), ``5120`` (Spanish).

    The one number style of every page, the chart, the printed sheet and the share text, so a
    total reads the same wherever it is shown. Only for text, never for an input's value (a
    number box wants ``5120``); anything but a whole number is shown as it is.
    """
    if not isinstance(value, int) or isinstance(value, bool):
        return str(value)
    if is_english():
        return f"{value:,}"
    return format_decimal(value)


def _moment(stamp: str) -> datetime | None:
    try:
        moment = datetime.fromisoformat(stamp)
    except (TypeError, ValueError):
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def day(stamp: str) -> str:
    """A stored ISO timestamp's date: ``2025-01-04`` in English, ``4 ene 2025`` in Spanish."""
    moment = _moment(stamp)
    if moment is None or is_english():
        return str(stamp)[:10]
    return format_date(moment, "medium")


def moment(stamp: str) -> str:
    """A stored ISO timestamp to the minute, in UTC as the server keeps it."""
    when = _moment(stamp)
    if when is None or is_english():
        return str(stamp)[:16].replace("T", " ") + " UTC"
    return format_datetime(when, "short") + " UTC"


# --- the switch ----------------------------------------------------------------------------------
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _local(target: str | None) -> str:
    """Where to go back to: a path on this server, never another site."""
    target = target or ""
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//") or _CONTROL.search(target):
        return url_for("matches.index")  # a control character (CR, LF) is no path and no header
    return target


@bp.get("/language/<code>")
def choose(code: str) -> Response:
    """Remember the language tapped in the switch, then go back to the page it was tapped on."""
    response = redirect(_local(request.args.get("next")), 303)
    if code in LANGUAGES:
        response.set_cookie(
            COOKIE, code, max_age=COOKIE_AGE, path=cookie_path(), samesite="Lax", httponly=True,
            secure=request.is_secure,
        )  # fmt: skip
    return response


@bp.get("/language")
def languages() -> str:
    """The languages, one big link each; the switch in every page's bar leads here."""
    back = _local(request.args.get("next"))
    current = language()
    links = [
        (code, name, url_for(".choose", code=code, next=back), code == current) for code, name in LANGUAGES.items()
    ]
    return render_template("i18n/languages.html", links=links, back=back)


def here() -> str:
    """This page's address, to come back to after choosing a language.

    A POST's page is the start, unless its view left an address that shows the same page in
    ``g.here`` (the "Can I?" board, whose every tap is a POST without JavaScript).
    """
    if g.get("here"):
        return g.here
    return request.full_path.rstrip("?") if request.method == "GET" else url_for("matches.index")


def page_head() -> Markup:
    """The end of every page's head (``_head.html``): the words the page's scripts say, in the
    page's language, and the links to the static files, under the URL root.

    The same on every page of a language under one root, and a page's largest share of
    messages and URLs, so kept in the markup cache under the language and the root. In debug
    mode a static file's hash changes when it is edited, so nothing is kept.
    """
    if current_app.debug:
        return Markup(render_template("_head.html").strip())
    return fragments().get(("head", language(), request.script_root), lambda: render_template("_head.html").strip())


def language_name() -> str:
    return LANGUAGES.get(language(), LANGUAGES[DEFAULT])


def _vary(response: Response) -> Response:
    """Pages depend on the language, so caches keep one copy per language (a 204 has no words)."""
    if response.mimetype == "text/html" and response.status_code != 204:
        vary(response, "Accept-Language", "Cookie")
    return response


def init_api(app: Flask) -> None:
    """The JSON API's app: Flask-Babel with the language its request asks for by header (no
    cookie, no templates); the API's JSON provider renders core messages in it."""
    babel.init_app(app, locale_selector=select_locale)


def init_app(app: Flask) -> None:
    """Flask-Babel with the locale chosen here, core messages rendered in templates and JSON."""
    babel.init_app(app, locale_selector=select_locale)
    if not isinstance(app.json, JSONProvider):  # the API's provider already renders messages
        app.json = JSONProvider(app)
    app.jinja_env.finalize = finalize  # before any template is compiled: finalize is compiled in
    # {% trans %} blocks are looked up as babel.cfg extracts them: whitespace trimmed, one line.
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    app.jinja_env.install_gettext_callables(  # the catalogue of translations(); Jinja fills the placeholders
        lambda message: translations().ugettext(message),
        lambda singular, plural, n: translations().ungettext(singular, plural, n),
        newstyle=True,
    )
    app.jinja_env.filters.update(
        number=number,
        day=day,
        moment=moment,
        message=text,
        stored_name=stored_name,
        side_name=side_name,
        side_names=side_names,
    )
    app.jinja_env.globals.update(language=language, language_name=language_name, here=here, page_head=page_head)
    app.register_blueprint(bp)
    app.after_request(_vary)
