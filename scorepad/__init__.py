"""scorepad: the Canasta score keeper and rules checker for a phone on the card table."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, render_template, request

from . import security
from .security import csrf

__all__ = ["create_app", "csrf"]


def _resource_root() -> Path:
    """Where templates/ and static/ live: the checkout, or inside the installed package."""
    package = Path(__file__).resolve().parent
    for root in (package.parent, package):
        if (root / "templates").is_dir() and (root / "static").is_dir():
            return root
    return package.parent


def _instance_secret(instance: Path) -> str:
    """A secret key generated once into the instance folder, never written in the repo."""
    path = instance / "secret_key"
    if not path.exists():
        # Written aside and linked into place, so server processes starting together (gunicorn
        # workers) all end up with the one key that won, never a half-written or a second one.
        draft = instance / f".secret_key.{secrets.token_hex(8)}"
        draft.write_text(secrets.token_hex(32))
        draft.chmod(0o600)
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_text().strip()


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app; a mapping passed in (as tests do) wins over the environment."""
    root = _resource_root()
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(root / "templates"),
        static_folder=str(root / "static"),
    )
    instance = Path(app.instance_path)
    app.config.from_mapping(DATABASE=str(instance / "scorepad.db"), **security.DEFAULTS)
    if config is None:
        app.config.from_prefixed_env()  # FLASK_SECRET_KEY, FLASK_DATABASE, ...
    else:
        app.config.update(config)
    instance.mkdir(parents=True, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(instance)

    from . import access, api, assets, checker, db, exports, i18n, matches, organiser, polls, store

    security.init_app(app)  # first: the body bound is set before anything reads a form
    db.init_app(app)
    api.init_app(app)
    access.init_app(app)
    assets.init_app(app)
    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)
    for pages in (matches.bp, checker.bp, exports.bp, organiser.bp):
        app.register_blueprint(pages)
    i18n.init_app(app)  # the language switch, and core messages rendered in templates and JSON
    polls.init_app(app)  # last: an unchanged sheet's poll is answered before all of the above

    @app.errorhandler(404)
    @app.errorhandler(store.NotFoundError)
    def not_found(error):
        if request.path.startswith(api.bp.url_prefix + "/"):
            return api.not_found(error)  # an address the API has no route for still answers JSON
        return render_template("errors/404.html"), 404

    @app.errorhandler(405)
    def wrong_method(error):
        if request.path.startswith(api.bp.url_prefix + "/"):
            response, status = api.wrong_method(error)  # found while routing, before the API's handler applies
            response.headers["Allow"] = ", ".join(error.valid_methods or ())
            return response, status
        return error

    return app
