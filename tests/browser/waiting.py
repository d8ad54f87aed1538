"""Helpers for browser tests that must work under the app's Content-Security-Policy."""

import time


def wait_until(page, expression: str, timeout: float = 10.0) -> None:
    """Poll a JavaScript expression until it is truthy.

    Playwright's ``wait_for_function`` runs its predicate through ``eval`` inside the page, which
    the policy (``script-src 'self'``, no ``'unsafe-eval'``) rightly refuses; ``page.evaluate``
    is sent over the DevTools protocol and is not subject to it.
    """
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout} s: {expression}")
        page.wait_for_timeout(25)
