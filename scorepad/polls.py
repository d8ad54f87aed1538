"""The score sheet's poll answered before Flask when nothing has changed.

A phone watching or keeping a match asks for its sheet every few seconds with
``?since=<version>`` (``templates/matches/_sheet.html``); almost every answer is "204: nothing
new". That answer depends on one indexed lookup (:func:`store.current_version`) and nothing
else: no session, no language, no form token, no body. Flask's request context, hooks and
response object cost several times the lookup, so :class:`UnchangedPolls` wraps the app's
WSGI callable and answers exactly that case itself, with the headers Flask's 204 carries.
Anything else, including an unknown or deleted match and a version that moved on, goes to
Flask unchanged (``matches._sheet_or_nothing``, through :func:`conditional.unchanged_or`), which
decides what a changed sheet looks like. Both ask :func:`conditional.unchanged_since` whether a
poll's ``since`` is current: one rule, answered here early for the commonest case.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from werkzeug.exceptions import HTTPException

from . import db, security, store
from .conditional import unchanged_since
from .store import club as clubstore

# The poll's own query string, as the sheet writes it; any other query goes to Flask.
SINCE = re.compile(r"since=(\d{1,18})")
# The poll's endpoints: the URL argument that names what is watched, and its one version lookup.
POLLS: dict[str, tuple[str, Callable[[Any, str], int]]] = {
    "matches.sheet": ("match_id", lambda connection, key: store.current_version(connection, match_id=key)),
    "matches.watch_sheet": ("token", lambda connection, key: store.current_version(connection, watch_token=key)),
    "nights.standings_live": ("token", lambda c, key: clubstore.night_version(c, standings_token=key)),
    "nights.screen_live": ("token", lambda c, key: clubstore.night_version(c, standings_token=key)),
}
NOT_FOUND = (store.NotFoundError, clubstore.NotFoundError)


class UnchangedPolls:
    """WSGI middleware: ``GET`` a sheet's poll ``?since=<the current version>`` is 204 at once."""

    def __init__(self, app: Flask, wrapped: Callable[..., Iterable[bytes]]) -> None:
        self.app = app
        self.wrapped = wrapped
        # Routing through the app's own URL map keeps one list of addresses; the host plays
        # no part in these rules, so one adapter serves every request.
        self.adapter = app.url_map.bind("localhost")
        # What Flask's Response(status=204) carries once security.add_headers has run.
        self.headers = [("Content-Type", "text/html; charset=utf-8"), *security.HEADERS.items()]

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET" and self.unchanged(environ):
            start_response("204 NO CONTENT", list(self.headers))
            return []
        return self.wrapped(environ, start_response)

    def unchanged(self, environ: dict[str, Any]) -> bool:
        """Whether this request is a sheet's poll whose ``since`` is the match's current version."""
        since = SINCE.fullmatch(environ.get("QUERY_STRING", ""))
        if since is None:
            return False
        try:
            endpoint, arguments = self.adapter.match(environ.get("PATH_INFO") or "/", method="GET")
        except HTTPException:  # no such page, or a redirect: Flask answers it
            return False
        if endpoint not in POLLS:
            return False
        argument, lookup = POLLS[endpoint]
        path = self.app.config["DATABASE"]
        kept = db.kept_connections()
        connection = kept.take(path) or db.connect(path)
        try:
            version = lookup(connection, arguments[argument])
        except NOT_FOUND:
            return False
        finally:
            if connection.conn.in_transaction:
                connection.conn.rollback()
            kept.keep(path, connection)
        return unchanged_since(since[1], version)


def init_app(app: Flask) -> None:
    """Put the shortcut in front of everything else (the proxy fix included): it needs none of it."""
    app.wsgi_app = UnchangedPolls(app, app.wsgi_app)  # type: ignore[method-assign]
