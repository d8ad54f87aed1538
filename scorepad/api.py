"""The JSON API, version 1: JSON in, JSON out, every error as ``{"errors": [{"field", "message"}]}``.

Every answer comes from the rules core; this module only reads bodies and shapes replies.
``docs/api.md`` is the guide and ``openapi.json`` beside this module the machine-readable
contract, served at ``/api/v1/openapi.json``.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import orjson
from flask import Blueprint, Flask, Response, abort, jsonify, request

from . import canasta, i18n, limits, store
from .canasta import InvalidError, Violation
from .canasta.plays import check_request
from .canasta.text import t
from .db import get_db
from .documents import match_document, score_document

bp = Blueprint("api", __name__, url_prefix="/api/v1")
NOTHING_HERE = t("There is nothing at this address.")
WRONG_METHOD = t("This address does not take that method.")
NOT_JSON = t('Send the body as JSON, with the header "Content-Type: application/json".')
# The OpenAPI 3.1 description of this blueprint, a file of the package so a wheel carries it too.
OPENAPI = resources.files(__package__) / "openapi.json"


class JSONProvider(i18n.JSONProvider):
    """Flask's JSON answers written by orjson: the same document, in a tenth of the time.

    A 30-hand score document is ~16 KB of small objects; the standard library took longer to
    write it than the rules core took to score the match. Keys stay sorted, and anything orjson
    does not know goes through Flask's own ``default``. Core messages are rendered in the
    request's language as they are written, when the request asked for one
    (:meth:`scorepad.i18n.JSONProvider.rendering`): orjson hands each ``str`` subclass to
    :meth:`rendering_default`, so no copy of the answer is made first. ``i18n.init_app`` keeps
    this provider. Debug mode's indented answers, and ``dumps`` (the ``tojson`` template
    filter), are left to Flask's provider.
    """

    def rendering_default(self, value: Any) -> Any:
        """orjson's ``default`` while rendering: what it passes through (every subclass of ``str``,
        ``int``, ``dict`` and ``list``) as the plain value, a core message in the request's language."""
        if isinstance(value, str):
            return str(i18n.text(value))
        if isinstance(value, dict):
            return dict(value)
        if isinstance(value, list):
            return list(value)
        if isinstance(value, int):
            return int(value)
        return self.default(value)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        if (self.compact is None and self._app.debug) or self.compact is False:
            return super().response(*args, **kwargs)
        options = orjson.OPT_APPEND_NEWLINE | orjson.OPT_NON_STR_KEYS
        if self.sort_keys:
            options |= orjson.OPT_SORT_KEYS
        default = self.default
        if self.rendering():
            options |= orjson.OPT_PASSTHROUGH_SUBCLASS
            default = self.rendering_default
        obj = self._prepare_response_obj(args, kwargs)
        try:
            body = orjson.dumps(obj, default=default, option=options)
        except orjson.JSONEncodeError:
            # A string orjson cannot write as UTF-8 (a lone surrogate): the standard library
            # writes it escaped (\ud800), so even text that slipped past the checks is no 500.
            obj = self.prepare(obj)
            body = (json.dumps(obj, default=self.default, sort_keys=bool(self.sort_keys)) + "\n").encode()
        return self._app.response_class(body, mimetype=self.mimetype)


def init_app(app: Flask) -> None:
    app.json = JSONProvider(app)


class Dispatcher:
    """WSGI: a request under ``/api/v1/`` goes to the API's own app, anything else to the pages.

    The JSON API keeps no session, takes no form token, sets no cookie and reads no language
    cookie: mounted apart, it pays for none of the pages' hooks (session, CSRF, the browser's id,
    the language switch, the markup cache), only for its own (headers, body bounds, gzip, the
    request's language by header). The path is not rewritten: the API's addresses, script root
    and answers are the ones they were as a blueprint of the pages' app.
    """

    def __init__(self, pages: Any, api: Any) -> None:
        self.pages = pages
        self.api = api

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if environ.get("PATH_INFO", "").startswith(PREFIX):
            return self.api(environ, start_response)
        return self.pages(environ, start_response)


PREFIX = bp.url_prefix + "/"


def routing_error(error: Exception) -> tuple[Response, int]:
    """An address or method the API has no route for, found while routing: JSON all the same."""
    if getattr(error, "code", 404) == 405:
        response, status = wrong_method(error)
        response.headers["Allow"] = ", ".join(getattr(error, "valid_methods", None) or ())
        return response, status
    return not_found(error)


class BadJSON(Exception):
    """A body that is not JSON at all: answered with 400."""


def read_body() -> dict[str, Any]:
    """The request's JSON object.

    :raises BadJSON: when the body does not parse.
    :raises InvalidError: when it parses but is not an object, or a string in it holds a control
        character or a lone surrogate (:class:`~scorepad.limits.OverLimit` when it is beyond a cap).
    """
    data = request.get_data(cache=False) or b""
    try:
        body = orjson.loads(data)
    except orjson.JSONDecodeError:
        # What orjson refuses (NaN, huge integers, lone surrogates) the standard library may
        # still read, as it always has here; when it cannot, its message names the place.
        try:
            body = json.loads(data)
        except RecursionError:  # nested far beyond the cap: refused as the cap, 413
            raise limits.OverLimit([limits.too_deep()]) from None
        except ValueError as error:
            # Translators: %(problem)s is the JSON reader's own English description of the fault.
            raise BadJSON(t("The body is not valid JSON: %(problem)s.", problem=str(error))) from None
    if not isinstance(body, dict):
        raise InvalidError(
            [Violation("body-not-object", 'The body is a JSON object, e.g. {"variant": "classic", "hands": [...]}.')]
        )
    limits.check_json(body)
    return body


@bp.before_request
def json_only() -> tuple[Response, int] | None:
    """A POST must say its body is JSON (``Content-Type: application/json``): 415 otherwise.

    Checked before the body is read, so a form post or a file sent by mistake gets one clear
    answer rather than a parse error about its first character.
    """
    if request.method == "POST" and not request.is_json:
        return jsonify(errors=[{"field": "", "message": NOT_JSON}]), 415
    return None


@bp.errorhandler(BadJSON)
def bad_json(error: BadJSON) -> tuple[Response, int]:
    return jsonify(errors=[{"field": "", "message": error.args[0]}]), 400


@bp.errorhandler(InvalidError)
def invalid(error: InvalidError) -> tuple[Response, int]:
    response, status = errors_response(error.violations)
    return response, 413 if isinstance(error, limits.OverLimit) else status


def errors_response(violations: list[Violation]) -> tuple[Response, int]:
    return jsonify(errors=[{"field": v.field, "message": v.message} for v in violations]), 422


@bp.errorhandler(404)
def not_found(error: Exception) -> tuple[Response, int]:
    return jsonify(errors=[{"field": "", "message": NOTHING_HERE}]), 404


@bp.errorhandler(405)
def wrong_method(error: Exception) -> tuple[Response, int]:
    return jsonify(errors=[{"field": "", "message": WRONG_METHOD}]), 405


def variant_document(variant: canasta.Variant) -> dict[str, Any]:
    """A preset as ``GET /api/v1/variants`` lists it."""
    return {
        "id": variant.key,
        "name": variant.name,
        "summary": variant.summary,
        "players": variant.players,
        "sides": variant.sides,
        "side_names": list(variant.side_names),
        "target": variant.target,
        "canastas_to_go_out": variant.canastas_to_go_out,
        "canastas": {key: kind.bonus for key, kind in variant.canasta_kinds.items()},
        "special_hands": dict(variant.special_hands),
        "options": [
            {
                "id": option_id,
                "label": variant.option_spec(option_id).label,
                "help": variant.option_spec(option_id).help,
                "default": getattr(variant, option_id),
                "allowed": variant.option_spec(option_id).allowed(),
            }
            for option_id in variant.option_ids
        ],
    }


@bp.get("/variants")
def variants() -> Response:
    """Every preset with its options."""
    return jsonify(variants=[variant_document(v) for v in canasta.VARIANTS.values()])


@bp.post("/score")
def score() -> Response:
    """Score a sequence of hands of one match, statelessly."""
    body = read_body()
    problems = []
    variant = body.get("variant")
    if not isinstance(variant, str):
        problems.append(Violation("variant-missing", 'Name the variant, e.g. "classic".', "variant"))
    hands = body.get("hands", [])
    if not isinstance(hands, list):
        problems.append(Violation("hands-not-list", 'Hands are a list of {"entries": [...]} objects.', "hands"))
    unknown = sorted(set(body) - {"variant", "options", "hands", "starting_totals"})
    problems += [Violation("unknown-field", f"'{name}' is not a field of a score request.", name) for name in unknown]
    if problems:
        raise InvalidError(problems)
    match = canasta.score_match(variant, hands, body.get("options"), body.get("starting_totals"))
    return jsonify(score_document(match))


@bp.get("/matches/<match_id>")
def match(match_id: str) -> Response:
    """A stored match: its rules, sides, hands as ENTRY objects, and everything derived."""
    try:
        stored_match, info = store.load_match(get_db(), match_id)
    except store.NotFoundError:
        abort(404)
    return jsonify(match_document(stored_match, info))


@bp.post("/check")
def check() -> Response:
    """Rules check: may this player make this play, and which rules decide it (docs/api.md, "Rules check")."""
    body = read_body()
    limits.count_cards(body)
    return jsonify(check_request(body).to_dict())


@bp.get("/openapi.json")
def openapi() -> Response:
    """The OpenAPI 3.1 document of this API, as the package ships it, naming the server it is on.

    ``servers`` is this app's root (``/``, or ``/canasta`` under a path), as the client sees it.
    """
    document = json.loads(OPENAPI.read_bytes())
    document["servers"] = [{"url": request.script_root or "/", "description": "this scorepad"}]
    return Response(json.dumps(document, indent=2, ensure_ascii=False), mimetype="application/json")
