"""The database: one sqlite-utils connection per request, migrated at start-up."""

from __future__ import annotations

from flask import Flask, current_app, g
from sqlite_utils import Database

from .migrations import migrations

# A writer waits this long for another writer's transaction to finish before giving up: saves
# from every phone at a table queue behind each other instead of failing with "database is locked".
BUSY_TIMEOUT_MS = 30_000


def connect(path: str) -> Database:
    """Open the database with the settings every connection uses."""
    db = Database(path)
    db.execute("PRAGMA foreign_keys = ON")
    db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    return db


def get_db() -> Database:
    """The request's database connection, opened on first use."""
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


def migrate(path: str) -> None:
    """Bring the database file up to date; safe to run on every start."""
    from .store import fill_missing_figures, writing

    db = connect(path)
    try:
        db.enable_wal()
        # Several server processes may start at once (gunicorn workers): the first to take the
        # write lock migrates, the others wait and then find nothing pending.
        with writing(db):
            migrations.apply(db)
            fill_missing_figures(db)
    finally:
        db.close()


def init_app(app: Flask) -> None:
    migrate(app.config["DATABASE"])
    app.teardown_appcontext(close_db)
