"""scorepad: the Canasta score keeper and rules checker for a phone on the card table."""

from __future__ import annotations

import os
import secrets
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import platformdirs
from flask import Flask, current_app, jsonify, render_template, request

from . import (
    access,
    api,
    assets,
    checker,
    db,
    exports,
    fragments,
    i18n,
    matches,
    organiser,
    polls,
    security,
    store,
)
from .club import web as club_pages
from .i18n import gettext as _
from .lock import hold_server_lock
from .security import csrf

__all__ = ["create_app", "csrf"]


def _resource_root() -> Path:
    """Where templates/ and static/ live: the checkout, or inside the installed package."""
    package = Path(__file__).resolve().parent
    for root in (package.parent, package):
        if (root / "templates").is_dir() and (root / "static").is_dir():
            return root
    return package.parent


def data_folder() -> Path:
    """Where the database and its secret key live unless ``FLASK_DATABASE`` says otherwise.

    In a checkout (the source tree, ``pip install -e .``) it is ``instance/`` beside the code, as
    ever. An installed scorepad uses the user's data folder (platformdirs: ``~/.local/share/scorepad``
    on Linux, ``~/Library/Application Support/scorepad`` on macOS, ``%LOCALAPPDATA%\\scorepad`` on
    Windows), so removing or recreating the virtual environment never takes the matches with it.
    """
    checkout = Path(__file__).resolve().parent.parent
    if (checkout / "pyproject.toml").is_file() and (checkout / "templates").is_dir():
        return checkout / "instance"
    return platformdirs.user_data_path("scorepad", appauthor=False)


def default_database() -> Path:
    """The database used when neither ``--database`` nor ``FLASK_DATABASE`` names one."""
    return data_folder() / "scorepad.db"


def _instance_secret(instance: Path) -> str:
    """A secret key generated once into the database's folder, never written in the repo."""
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


def _make_private(folder: Path, database: Path) -> None:
    """Take group and other access off the default data folder and its files (0.1.0 left the
    database 0644 in a 0755 folder: any local user could read every match's write link)."""
    for path, mode in ((folder, 0o700), (database, 0o600), (folder / "secret_key", 0o600)):
        try:
            if path.stat().st_mode & 0o077:
                path.chmod(mode)
        except OSError:  # not there yet, or not ours: leave it to its owner
            pass


def _configure(app: Flask, config: Mapping[str, Any] | None, overrides: Mapping[str, Any] | None) -> None:
    """Defaults, then the environment or ``config``, then ``overrides``; the data folder and the secret key."""
    app.config.from_mapping(DATABASE=str(default_database()), **security.DEFAULTS)
    if config is None:
        app.config.from_prefixed_env()  # FLASK_SECRET_KEY, FLASK_DATABASE, ...
    else:
        app.config.update(config)
    app.config.update(overrides or {})
    folder = Path(app.config["DATABASE"]).parent
    if folder == Path(app.instance_path):
        # The default place (a chosen one must exist), the owner's alone: it holds the secret key and
        # the database, and with them every match's write link.
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        _make_private(folder, Path(app.config["DATABASE"]))
    if config is None:
        hold_server_lock(app.config["DATABASE"])
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(folder)  # beside the database it signs for


def create_app(config: Mapping[str, Any] | None = None, overrides: Mapping[str, Any] | None = None) -> Flask:
    """Build the app; a mapping passed in (as tests do) wins over the environment.

    Without ``config`` the environment's ``FLASK_*`` variables are read, then ``overrides``
    (the command line's options) win over them; such a process holds the database's server
    lock (:mod:`scorepad.lock`) while it lives, so ``scorepad restore`` knows it is running.
    """
    root = _resource_root()
    app = Flask(
        __name__,
        instance_path=str(data_folder()),
        template_folder=str(root / "templates"),
        static_folder=str(root / "static"),
    )
    _configure(app, config, overrides)

    security.init_app(app)  # first: the body bound is set before anything reads a form
    db.init_app(app)
    api.init_app(app)
    access.init_app(app)
    assets.init_app(app)
    fragments.init_app(app)  # the one cache of request-independent markup
    for pages in (matches.bp, checker.bp, exports.bp, organiser.bp, club_pages.bp):
        app.register_blueprint(pages)
    i18n.init_app(app)  # the language switch, and core messages rendered in templates and JSON

    @app.errorhandler(404)
    @app.errorhandler(store.NotFoundError)
    def not_found(error):
        return render_template("errors/404.html"), 404

    app.register_error_handler(sqlite3.OperationalError, not_written)
    # The JSON API is an app of its own under /api/v1/, beside the pages (api.Dispatcher).
    app.wsgi_app = api.Dispatcher(app.wsgi_app, api_app(app).wsgi_app)  # type: ignore[method-assign]
    polls.init_app(app)  # last: an unchanged sheet's poll is answered before all of the above
    return app


def api_app(pages: Flask) -> Flask:
    """The JSON API's own small app, with the pages' config: only the hooks a JSON answer needs.

    Headers, body bounds and the URL root's bound (:func:`security.init_api`), the database
    connection, gzip, the request's language by ``Accept-Language`` alone, and JSON for every
    error. No session, form token, browser id, language cookie or markup cache: the API keeps
    no state of a client's (docs/architecture.md, "One request").
    """
    app = Flask(__name__, instance_path=pages.instance_path, static_folder=None, template_folder=None)
    app.config.update(pages.config)
    security.init_api(app)
    app.teardown_appcontext(db.close_db)
    api.init_app(app)
    app.after_request(assets.compress)
    i18n.init_api(app)
    app.register_blueprint(api.bp)
    app.register_error_handler(404, api.routing_error)
    app.register_error_handler(405, api.routing_error)
    app.register_error_handler(store.NotFoundError, api.not_found)
    app.register_error_handler(sqlite3.OperationalError, not_written)
    return app


def not_written(error: sqlite3.OperationalError) -> Any:
    """The database could not be written (a full disk, a lock held too long): nothing of this
    request was saved, and the page says so and why, never a bare error page."""
    full = "full" in str(error).lower()
    current_app.logger.warning("not saved (%s %s): %s", request.method, request.path, error)
    what = _("The hand was not saved.") if "hand" in (request.endpoint or "") else _("Nothing was saved.")
    why = _("The server's disk is full.") if full else _("The server could not write to its database.")
    if full:
        advice = _(
            "Everything saved before is safe. Ask the person running the server to free some disk space, "
            "then send it again."
        )
    else:
        advice = _("Everything saved before is safe. Send it again in a moment.")
    if request.path.startswith("/api/"):
        return jsonify(errors=[{"field": "", "message": f"{what} {why} {advice}"}]), 503
    return render_template("errors/not_saved.html", what=what, why=why, advice=advice), 503
