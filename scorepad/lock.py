"""The server lock: how ``scorepad restore`` knows a server is using the database.

Every process that serves the database (``scorepad serve``, each gunicorn worker, and the
commands that open the app) holds a shared ``flock`` on ``<database>.lock`` for as long as it
lives; the kernel drops it when the process ends, even on ``kill -9``, so a stale lock file
never blocks anything. ``scorepad restore`` takes the lock exclusively, without waiting: while
any server holds it the restore is refused, and a server starting during a restore waits for it.
On a system without ``fcntl`` (Windows) nothing is locked and the restore trusts the person at
the keyboard to have stopped the server.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

_held: dict[str, int] = {}  # lock file -> its descriptor, one per database per process
_held_lock = threading.Lock()


class ServerRunning(Exception):
    """A server (or another scorepad command) has the database open."""


def lock_path(database: str) -> str:
    return os.path.abspath(database) + ".lock"


def hold_server_lock(database: str) -> None:
    """Hold the shared server lock on ``database`` until this process ends (once per database)."""
    if fcntl is None:
        return
    path = lock_path(database)
    with _held_lock:
        if path in _held:
            return
        try:
            descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            return  # a folder that does not exist: opening the database reports it
        fcntl.flock(descriptor, fcntl.LOCK_SH)  # waits only while a restore is putting a backup in place
        _held[path] = descriptor


@contextmanager
def no_server(database: str) -> Iterator[None]:
    """Hold ``database`` exclusively: no server may use it meanwhile.

    :raises ServerRunning: when a server (or another command) has it open now.
    """
    if fcntl is None:
        yield
        return
    descriptor = os.open(lock_path(database), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ServerRunning(database) from None
        yield
    finally:
        os.close(descriptor)  # closing releases the lock
