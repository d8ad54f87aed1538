"""Answers decided from one version before anything is read: a poll's 204, a page's 304.

The score sheet, a club night's dashboard poll, its standings and its projector all answer
through :func:`unchanged_or`; :mod:`polls` answers the commonest case (a poll whose ``since``
is current) even before Flask.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from flask import Response, make_response, request, session

from . import i18n


def unchanged_since(since: str | None, version: int) -> bool:
    """The one rule of an unchanged poll: its ``since`` names the version stored now.

    Flask's answer (:func:`unchanged_or`) and the shortcut before Flask (:mod:`polls`) both ask it.
    """
    return since == str(version)


def unchanged_or(key: str, version: int, template: str, render: Callable[[], str]) -> Response:
    """A page or a poll's answer decided from one version before anything is read or rendered.

    ``since=<version>`` gets 204; a copy whose ETag names this version (and template and
    language) gets 304; anything else is ``render()``, tagged so that the next ask can be 304.
    A page that shows a flashed message is not the same page again: it is neither tagged nor kept.
    """
    if unchanged_since(request.args.get("since"), version):
        return Response(status=204)
    tag = hashlib.blake2s(f"{key}:{version}:{template}:{i18n.language()}".encode(), digest_size=12).hexdigest()
    if request.if_none_match.contains(tag):
        response = Response(status=304)
    else:
        flashes = "_flashes" in session
        response = make_response(render())
        response.vary.add("HX-Request")
        if flashes:
            response.cache_control.no_store = True
            return response
    response.set_etag(tag)
    response.vary.add("HX-Request")
    response.cache_control.no_cache = True  # keep it, but ask each time: the answer is usually 304
    return response
