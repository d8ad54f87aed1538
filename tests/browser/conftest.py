"""Browser tests: the real app on a loopback port, driven by Playwright in Debian's Chromium.

Browsers are never downloaded: the tests use the system Chromium and skip, saying so, where
it is not installed (``.ci/run`` installs it).

Every browser context any test opens is watched: a Content-Security-Policy violation, any other
console error, or an uncaught script error fails the test that caused it. A test that expects
an error (say, a page it opens on purpose that answers 404) names it with
``@pytest.mark.console_allows(r"regex", ...)``.
"""

import re
import shutil
import threading
from pathlib import Path

import pytest
from support import AS_SERVED
from werkzeug.serving import make_server

CHROMIUM = Path("/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


# Errors that say nothing about the page: a test that takes the phone offline makes them, a
# quick navigation can cut off the last page's loads (net::ERR_FAILED on a busy machine), and
# Chromium probes /favicon.ico for documents that name no icon (JSON, CSV). A load the policy
# blocks is reported differently ("Refused to load ..."), so none of these hides a violation.
ALWAYS_ALLOWED = (
    # Network-level failures (a connection reset or cut off as a test's server stops, offline
    # tests): not the page's doing. A blocked load says "Refused to load" and an HTTP error
    # "the server responded with a status of", and both still fail the test.
    r"Failed to load resource: net::ERR_",
    r"/favicon\.ico: Failed to load resource",
    # The service worker's script fetch cut off when a test's server stops under it (a race of the
    # test harness, seen under load); a worker that fails to install is what the offline tests check.
    r"An unknown error occurred when fetching the script",
)
CONSOLE_PROBLEMS: list[str] = []  # what the watched contexts reported during the current test

# How long a test waits for what the player should see (Playwright's expect: 5 s by default). A
# busy CI machine (load 15 on two cores) took longer than 5 s to save a hand and draw the sheet;
# the wait still ends the moment the page shows it, so a quiet run is no slower.
SEEN_WITHIN_MS = 20_000


def pytest_configure(config):
    config.addinivalue_line("markers", "console_allows(*patterns): console errors this browser test expects")


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.browser)


def watch(context):
    """Record console errors (CSP violations among them) and uncaught errors in this context."""
    context.on(
        "console",
        lambda message: (
            CONSOLE_PROBLEMS.append(f"console {message.type} at {message.location.get('url')}: {message.text}")
            if message.type == "error"
            else None
        ),
    )
    context.on("weberror", lambda error: CONSOLE_PROBLEMS.append(f"uncaught error: {error.error}"))
    return context


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists() and not shutil.which("chromium"):
        pytest.skip("Debian's chromium is not installed (apt-get install chromium); .ci/run installs it")
    sync_api = pytest.importorskip("playwright.sync_api")
    sync_api.expect.set_options(timeout=SEEN_WITHIN_MS)
    with sync_api.sync_playwright() as playwright, pytest.MonkeyPatch.context() as patch:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        new_context = type(browser).new_context
        # Every context, however a test opens it (even page.context.browser.new_context), is watched.
        patch.setattr(type(browser), "new_context", lambda self, *a, **k: watch(new_context(self, *a, **k)))
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def no_console_errors(request):
    """Fail the test on any console error or script error it did not declare."""
    CONSOLE_PROBLEMS.clear()
    yield
    marker = request.node.get_closest_marker("console_allows")
    allowed = [*ALWAYS_ALLOWED, *(marker.args if marker else ())]
    problems = [p for p in CONSOLE_PROBLEMS if not any(re.search(pattern, p) for pattern in allowed)]
    CONSOLE_PROBLEMS.clear()
    assert not problems, "the browser reported:\n" + "\n".join(problems)


@pytest.fixture
def live_app(make_app):
    """The app with CSRF on, as a phone would use it."""
    return make_app(**AS_SERVED)


def closing_when_dropped(app):
    """The app, its answers closed however the connection ends.

    werkzeug's test server leaves an answer unclosed when the browser drops the connection (a
    page left while one of its scripts is on its way): its open static file then surfaces as a
    ResourceWarning in whichever test runs next. waitress, which ``scorepad serve`` runs, closes
    it; so does this generator when it is let go.
    """

    def answer(environ, start_response):
        body = app(environ, start_response)
        try:
            yield from body
        finally:
            if hasattr(body, "close"):
                body.close()

    return answer


class Served:
    """A loopback server for one module's tests, answering with the app the current test set.

    Each test still gets its own app and database (``live_app``) and its own browser context;
    only the listening socket and its thread are shared, so that no test waits for a server to
    start or to stop. The base URL is the same for every test of the module.
    """

    def __init__(self) -> None:
        self.app = None
        self.server = make_server("127.0.0.1", 0, closing_when_dropped(self.answer), threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        # A short poll: shutdown() waits for serve_forever's next look (0.5 s by default).
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def answer(self, environ, start_response):
        return self.app(environ, start_response)

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


@pytest.fixture(scope="module")
def served():
    served = Served()
    yield served
    served.stop()


@pytest.fixture
def live_server(live_app, served):
    """The app served on a free loopback port; yields its base URL."""
    served.app = live_app
    yield served.url


@pytest.fixture
def context(browser, request):
    # The phone closes before the test's server stops (fixtures end in reverse order), as at a real
    # table: a page still open on a stopped server would see its next poll refused.
    if "live_server" in request.fixturenames:
        request.getfixturevalue("live_server")
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    yield context
    context.close()


@pytest.fixture
def page(context):
    return context.new_page()


@pytest.fixture
def no_js_page(browser):
    """A phone with JavaScript switched off: every page must still work."""
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    yield context.new_page()
    context.close()
