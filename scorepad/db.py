"""The database: one sqlite-utils connection per request, kept by its thread, migrated at start-up.

Imports run one way: this module opens and hands out connections and calls the store (which
knows the tables) to migrate and check a database; the store never imports it.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections import OrderedDict
from pathlib import Path

from flask import Flask, current_app, g
from sqlite_utils import Database

from .migrations import migrations
from .store import SYNCHRONOUS, fill_missing_figures, holds_matches, remove_abandoned_imports, writing

# A writer waits this long for another writer's transaction to finish before giving up: saves
# from every phone at a table queue behind each other instead of failing with "database is locked".
BUSY_TIMEOUT_MS = 30_000


def connect(path: str) -> Database:
    """Open the database with the settings every connection uses."""
    db = Database(path)
    db.execute("PRAGMA foreign_keys = ON")
    db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    db.execute(f"PRAGMA synchronous = {SYNCHRONOUS}")  # each commit waits for the disk (store.writing)
    return db


class _Kept:
    """The connections one thread has finished with, by database path, oldest first.

    Opening a SQLite connection (and mapping its WAL index) costs more than answering a whole
    watcher's poll, so each server thread keeps its connection for the next request. A thread
    keeps a few at most (tests open many databases), and closes them when it ends.
    """

    LIMIT = 4

    def __init__(self) -> None:
        self.connections: OrderedDict[str, Database] = OrderedDict()

    def take(self, path: str) -> Database | None:
        return self.connections.pop(path, None)

    def keep(self, path: str, db: Database) -> None:
        self.connections[path] = db
        while len(self.connections) > self.LIMIT:
            self.connections.popitem(last=False)[1].close()

    def __del__(self) -> None:
        for db in self.connections.values():
            db.close()


_threads = threading.local()


def kept_connections() -> _Kept:
    """This thread's connections kept for its next request (the poll shortcut uses them too)."""
    if not hasattr(_threads, "kept"):
        _threads.kept = _Kept()
    return _threads.kept


def get_db() -> Database:
    """The request's database connection: this thread's from an earlier request, or a new one."""
    if "db" not in g:
        path = current_app.config["DATABASE"]
        g.db = kept_connections().take(path) or connect(path)
    return g.db


def close_db(exc: BaseException | None = None) -> None:
    """Hand the request's connection back to its thread, with no transaction left open."""
    db = g.pop("db", None)
    if db is None:
        return
    if db.conn.in_transaction:
        db.conn.rollback()
    kept_connections().keep(current_app.config["DATABASE"], db)


def migrate(path: str) -> None:
    """Bring the database file up to date; safe to run on every start.

    A database that does not exist yet is created readable by its owner alone (0600): it holds
    every match's write link. SQLite gives its -wal and -shm files the database's own mode.
    """
    _create_private(path)
    db = connect(path)
    try:
        db.enable_wal()
        # Several server processes may start at once (gunicorn workers): the first to take the
        # write lock migrates, the others wait and then find nothing pending.
        with writing(db):
            migrations.apply(db)
            fill_missing_figures(db)
            remove_abandoned_imports(db, starting=True)  # a killed import's hidden rows
    finally:
        db.close()


def _create_private(path: str) -> None:
    """Create an empty file at ``path`` with mode 0600 unless something is there already."""
    if path.startswith((":", "file:")):
        return  # an in-memory database or a URI: nothing to create here
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass


def copy_database(source: str, target: str) -> None:
    """Copy the database ``source`` to ``target`` with SQLite's online backup API.

    The copy is of one moment, including what still sits in the write-ahead log, taken while
    servers keep reading and writing ``source``. It is written beside ``target`` first and moved
    into place whole, so a failed copy never leaves half a file; a ``target`` that is a live
    database (a restore) is written through SQLite instead, in one transaction.
    """
    from_db = sqlite3.connect(Path(source).resolve().as_uri() + "?mode=ro", uri=True)
    try:
        if Path(target).is_file() and _is_database(target):
            to_db = sqlite3.connect(target)
            try:
                from_db.backup(to_db)
            finally:
                to_db.close()
            return
        draft = f"{target}.partial"
        Path(draft).unlink(missing_ok=True)
        _create_private(draft)  # a copy holds the write links as the database does
        to_db = sqlite3.connect(draft)
        try:
            from_db.backup(to_db)
        finally:
            to_db.close()
        os.replace(draft, target)
    finally:
        from_db.close()


def _is_database(path: str) -> bool:
    with open(path, "rb") as file:
        return file.read(16) == b"SQLite format 3\x00"


# scorepad never sets SQLite's user_version: a file with a higher one was written by something
# newer (or other) than this version, and is never put in place of the database.
USER_VERSION = 0


def unreadable_backup(path: str) -> str | None:
    """What makes ``path`` no database at all, or None when SQLite may read it."""
    if not Path(path).is_file():
        return "does not exist"
    if not _is_database(path):
        return "is not a database"
    return None


def backup_problem(copy: str) -> str | None:
    """What is wrong with ``copy`` as a database to restore, or None when it may be put in place.

    ``copy`` is a scratch copy of the backup, never the live database: it is checked (SQLite's
    integrity check; a scorepad database: its migrations and matches; not from a newer version:
    no migration unknown here, no higher ``user_version``), then brought up to this version and
    its tables compared with a new database's, column by column.
    """
    db = sqlite3.connect(copy)
    try:
        if db.execute("pragma integrity_check").fetchone()[0] != "ok":
            return "is damaged (SQLite's integrity check failed)"
        user_version = db.execute("pragma user_version").fetchone()[0]
        if user_version > USER_VERSION:
            return f"was written by a newer version (its user_version is {user_version}); upgrade scorepad first"
        applied = _applied_migrations(db)
        if not applied or not holds_matches(db):
            return "is not a scorepad database"
        known = {migration.name for migration in migrations._migrations}
        unknown = [name for name in applied if name not in known]
        if unknown:
            name = unknown[0]
            return f"was written by a newer version (its migration {name} is unknown here); upgrade scorepad first"
    except sqlite3.DatabaseError as error:
        return f"cannot be read ({error})"
    finally:
        db.close()
    try:
        migrate(copy)  # a backup from an older version is brought up to date (the copy, not the live file)
    except Exception as error:  # noqa: BLE001  (any failure refuses the file; nothing live was touched)
        return f"cannot be brought up to this version ({error})"
    if _columns(copy) != _columns(":memory:", fresh=True):
        return "is not a scorepad database (its tables are not scorepad's)"
    return None


def _applied_migrations(db) -> list[str]:
    """The names of scorepad's migrations applied to an open sqlite3 connection (none: not ours)."""
    if not db.execute("select 1 from sqlite_master where type = 'table' and name = '_sqlite_migrations'").fetchone():
        return []
    rows = db.execute("select name from _sqlite_migrations where migration_set = ?", [migrations.name])
    return [row[0] for row in rows]


def _columns(path: str, fresh: bool = False) -> set[tuple[str, str]]:
    """Every (table, column) of the database at ``path``; ``fresh``: of a new database instead."""
    db = Database(memory=True) if fresh else Database(path)
    try:
        if fresh:
            migrations.apply(db)
        return {(table.name, column) for table in db.tables for column in table.columns_dict}
    finally:
        db.close()


def init_app(app: Flask) -> None:
    migrate(app.config["DATABASE"])
    app.teardown_appcontext(close_db)
