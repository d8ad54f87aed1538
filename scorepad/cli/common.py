"""What every ``scorepad`` command shares: its one-line errors and the database it works on.

A problem the person at the terminal can fix (a mistyped database, a busy port) is raised as
:class:`CommandError` and shown as one line on standard error, never as a traceback.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from .. import create_app
from .. import default_database as app_database
from ..db import migrate

if TYPE_CHECKING:
    from flask import Flask


class CommandError(Exception):
    """Something the person at the terminal can fix; ``main`` prints it as one line, exit status 1."""


def checked_database(path: str, must_exist: bool) -> str:
    """Migrate the database file at ``path`` and return the path.

    :raises CommandError: when ``must_exist`` and there is no such file (nothing is created),
        when its folder does not exist, or when it cannot be opened as a database.
    """
    file = Path(path)
    if file.is_dir():
        raise CommandError(f"{path} is a folder, not a database file.")
    if not file.exists():
        if must_exist:
            raise CommandError(f"there is no database at {path}; check the name (nothing was created).")
        if not file.parent.is_dir():
            raise CommandError(f"cannot create the database {path}: the folder {file.parent} does not exist.")
    try:
        migrate(path)
    except sqlite3.DatabaseError as error:
        raise CommandError(f"cannot open the database {path}: {error}.") from None
    return path


def configured_database(args: argparse.Namespace | None = None) -> str | None:
    """The database ``--database`` or ``FLASK_DATABASE`` names, or None for the default one."""
    return getattr(args, "database", None) or os.environ.get("FLASK_DATABASE") or None


def open_app(args: argparse.Namespace | None = None, **overrides: Any) -> Flask:
    """The app as ``serve`` runs it, its database checked first (``--database`` wins).

    :raises CommandError: when the database cannot be created or opened.
    """
    configured = configured_database(args)
    if configured:
        checked_database(configured, must_exist=False)
        overrides["DATABASE"] = configured
    try:
        return create_app(overrides=overrides)
    except (sqlite3.DatabaseError, OSError) as error:
        raise CommandError(f"cannot open the database: {error}.") from None


def matches(count: int) -> str:
    """A count of matches in words.

    >>> matches(0), matches(1), matches(2)
    ('0 matches', '1 match', '2 matches')
    """
    return f"{count} match" if count == 1 else f"{count} matches"


def database_path(args: argparse.Namespace, must_exist: bool) -> str:
    """The database a backup command works on, migrated: ``--database``, else the app's own.

    :raises CommandError: as :func:`checked_database`; exporting needs a database that exists,
        and nothing is created when it does not (the app's own database neither).
    """
    path = args.database or configured_database()
    if path:
        return checked_database(path, must_exist)
    if must_exist and not Path(default_database()).exists():
        raise CommandError(f"there is no database at {default_database()}; check the name (nothing was created).")
    return open_app().config["DATABASE"]


def default_database() -> str:
    """The database every command and the server use when none is configured (one source: the app's)."""
    return str(app_database())


def progress(label: str, out: TextIO) -> Callable[[int, int], None]:
    """Report ``done/count`` as work goes: one updating line on a terminal, a line per tenth otherwise."""
    shown = {"step": -1}

    def report(done: int, count: int) -> None:
        if out.isatty():
            print(f"\r{label} {done}/{count}", end="\n" if done == count else "", file=out, flush=True)
            return
        step = done * 10 // max(count, 1)
        if step != shown["step"] and (step > shown["step"] or done == count):
            shown["step"] = step
            print(f"{label} {done}/{count}", file=out, flush=True)

    return report


def existing_database(args: argparse.Namespace) -> str:
    """The database file a copy command works on: ``--database``, ``FLASK_DATABASE`` or the default.

    :raises CommandError: when there is no such file (nothing is created).
    """
    path = configured_database(args) or str(app_database())
    if not Path(path).is_file():
        raise CommandError(f"there is no database at {path}; check the name (nothing was created).")
    return path


def data_help() -> str:
    """Where the data is, for the end of each command's help."""
    configured = os.environ.get("FLASK_DATABASE")
    where = f"{configured} (from FLASK_DATABASE)" if configured else str(app_database())
    return f"\nThe database is {where}; the secret key sits beside it.\n"
