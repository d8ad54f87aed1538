"""Fixtures shared by the web tests: an app on a fresh database, and its client.

Every app a test builds (with these fixtures or with ``create_app`` itself) starts from a copy of
one migrated database and shares compiled URL builders and templates (``sharing.py``).
"""

import itertools
import os
import sys

import club
import pytest
import sharing
from support import fresh_app

# Compiled code is kept (in __pycache__, which git ignores) even where the environment asks for none
# (PYTHONDONTWRITEBYTECODE, set on some CI machines): otherwise every test process, and every server
# a test starts, compiles the app again and rewrites the asserts of every test module, about ten
# seconds of each process's start.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # and the servers and commands the tests start

# Started first when the suite runs on several cores (pytest-xdist hands tests out in this order):
# the browser tests and the long generated runs. The last minute of a run is then short tests
# filling in beside them, not one long test running alone.
LONG = ("tests/browser/", "tests/test_match_lifecycle.py", "tests/test_night_races.py", "tests/test_night_model.py")


def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: not item.nodeid.startswith(LONG))  # stable: each file's order is kept


@pytest.fixture(scope="session", autouse=True)
def shared_compilation(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        sharing.install(patch, tmp_path_factory.mktemp("shared"))
        yield


@pytest.fixture
def make_app(tmp_path):
    """Build apps for this test, each on a fresh database of its own: ``make_app(**config)``."""
    made = itertools.count()

    def make(**config):
        folder = tmp_path / f"app-{next(made)}"
        folder.mkdir()
        return fresh_app(folder, **config)

    return make


@pytest.fixture
def app(make_app):
    return make_app()


@pytest.fixture(scope="module")
def module_app(tmp_path_factory):
    """One app for a whole module whose tests only read, or add only what no other test looks at.

    A module opts in by overriding ``app`` with it (``client`` then follows)::

        @pytest.fixture(scope="module")
        def app(module_app):
            return module_app
    """
    return fresh_app(tmp_path_factory.mktemp("module"))


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def started_night(app, organiser):
    """Starts a club night on the test module's ``app`` with its signed-in ``organiser``:
    ``started_night("A", "B", rounds="1")`` (tests/club.py, :func:`club.start_night`)."""
    return lambda *names, **changes: club.start_night(app, organiser, *names, **changes)
