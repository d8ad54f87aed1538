"""The connection and start-up migration: several server processes may open one file at once."""

import multiprocessing

from sqlite_utils import Database

from scorepad.db import connect, migrate
from scorepad.migrations import migrations


def _migrate(path: str) -> None:
    migrate(path)


def test_processes_starting_together_migrate_once(tmp_path):
    path = str(tmp_path / "fresh.db")
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_migrate, args=(path,)) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    assert [worker.exitcode for worker in workers] == [0, 0, 0, 0]
    db = Database(path)
    applied = [row["name"] for row in db.query("select name from _sqlite_migrations")]
    db.close()
    assert sorted(applied) == sorted(migration.name for migration in migrations.pending(Database(memory=True)))


def test_connections_wait_for_a_busy_writer(tmp_path):
    path = str(tmp_path / "busy.db")
    db = connect(path)
    timeout = next(iter(db.execute("PRAGMA busy_timeout").fetchone()))
    db.close()
    assert timeout >= 5000
