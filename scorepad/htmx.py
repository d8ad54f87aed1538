"""htmx: the one place that reads ``HX-*`` request headers (no header literal anywhere else).

Page routes always answer whole pages; a fragment is sent only when htmx asked for part of a
page, and every answer that could differ says so with ``Vary: HX-Request``.
"""

from __future__ import annotations

from flask import request


def wants_fragment() -> bool:
    """True when htmx is swapping part of the page rather than the whole body."""
    headers = request.headers
    return (
        headers.get("HX-Request") == "true"
        and headers.get("HX-Boosted") != "true"  # boosted: wants the page
        and headers.get("HX-History-Restore-Request") != "true"  # back button: wants the page
        and headers.get("HX-Request-Type", "partial") == "partial"  # htmx 4 says this directly
    )
