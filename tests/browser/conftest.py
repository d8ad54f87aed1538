"""Browser tests: the real app on a loopback port, driven by Playwright in Debian's Chromium.

Browsers are never downloaded: the tests use the system Chromium and skip, saying so, where
it is not installed (``.ci/run`` installs it).
"""

import shutil
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from scorepad import create_app

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


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists() and not shutil.which("chromium"):
        pytest.skip("Debian's chromium is not installed (apt-get install chromium); .ci/run installs it")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def live_app(tmp_path):
    """The app with CSRF on, as a phone would use it."""
    return create_app({"DATABASE": str(tmp_path / "browser.db"), "SECRET_KEY": "browser-tests"})


@pytest.fixture
def live_server(live_app):
    """The app served on a free loopback port; yields its base URL."""
    server = make_server("127.0.0.1", 0, live_app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)


@pytest.fixture
def context(browser):
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
