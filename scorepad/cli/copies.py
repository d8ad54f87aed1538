"""The commands that copy matches in and out: ``export``, ``import``, ``rescore``, ``backup``, ``restore``.

``export`` and ``import`` read and write the JSON backup (a file any scorepad imports);
``backup`` and ``restore`` copy the database file itself; ``rescore`` rebuilds stored figures.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .. import backups, default_database, formats, store
from ..canasta import InvalidError
from ..db import backup_problem, connect, copy_database, unreadable_backup
from ..lock import ServerRunning, no_server
from .common import CommandError, configured_database, data_help, database_path, existing_database, matches, progress


def export_command(args: argparse.Namespace) -> int:
    """Write every match to a file (or standard output): the JSON backup or the results CSV."""
    db = connect(database_path(args, must_exist=True))
    try:
        # The server's owner exports every match: the same files as the pages' downloads,
        # written as they are read (a batch in memory at a time).
        backup = backups.all_results_csv(db) if args.format == "csv" else backups.all_matches_json(db)
        if args.file == "-":
            sys.stdout.writelines(backup.pieces)
        else:
            _write_pieces(args.file, backup.pieces)
    finally:
        db.close()
    where = args.file if args.file != "-" else "standard output"
    print(f"Exported {matches(backup.count)} to {where}.", file=sys.stderr)
    return 0


def _write_pieces(file: str, pieces: Iterator[str]) -> None:
    try:
        with open(file, "w", encoding="utf-8", newline="") as out:
            out.writelines(pieces)
    except OSError as error:
        raise CommandError(f"cannot write {file}: {error.strerror}.") from None


def import_command(args: argparse.Namespace) -> int:
    """Check a whole export, then add its new matches all at once; never overwrite.

    The file is read and checked before the database is opened, so a refused file never
    creates one. The matches are written a short transaction at a time (a running server's
    saves go on meanwhile) and appear together at the end.
    """
    try:
        raw = sys.stdin.buffer.read() if args.file == "-" else Path(args.file).read_bytes()
    except OSError as error:
        print(f"Cannot read {args.file}: {error.strerror}.", file=sys.stderr)
        return 1
    try:
        pairs = backups.read_import(raw, progress("Checked", sys.stderr), formats.COMMAND_LIMITS)
    except InvalidError as error:
        lines = [f"{problem.field or '(whole file)'}: {problem.message}" for problem in error.violations]
        if len(lines) == 1:  # one problem, one line
            print(f"{args.file} was not imported; nothing was written: {lines[0]}", file=sys.stderr)
            return 1
        print(f"{args.file} was not imported; nothing was written:", file=sys.stderr)
        for line in lines:
            print(f"  {line}", file=sys.stderr)
        return 1
    db = connect(database_path(args, must_exist=False))
    try:
        plan = backups.plan_import(db, pairs)
        added = backups.save_import(db, plan, progress("Saved", sys.stderr))
    finally:
        db.close()
    print(f"Imported {matches(added)}; {len(plan.already)} already here.", file=sys.stderr)
    return 0


def add_backups(subparsers: Any) -> None:
    export_parser = subparsers.add_parser("export", help="write every match to a JSON backup (or results CSV)")
    export_parser.add_argument("file", nargs="?", default="-", help="where to write (default: standard output)")
    export_parser.add_argument("--format", choices=("json", "csv"), default="json", help="json backup or results csv")
    export_parser.add_argument("--database", help="database file (default: FLASK_DATABASE, else the data folder's)")
    export_parser.set_defaults(func=export_command)
    import_parser = subparsers.add_parser("import", help="add the matches of a JSON backup or match file")
    import_parser.add_argument("file", help="the file to import ('-' for standard input)")
    import_parser.add_argument("--database", help="database file (default: FLASK_DATABASE, else the data folder's)")
    import_parser.set_defaults(func=import_command)


# --- stored figures (issue 9) -------------------------------------------------------------
def rescore_command(args: argparse.Namespace) -> int:
    """Score every stored match again from its hands and rewrite the stored figures."""
    db = connect(database_path(args, must_exist=True))
    try:
        rescored, refused = store.rescore(db, progress("Rescored", sys.stderr))
    finally:
        db.close()
    print(f"Rescored {matches(rescored)}.", file=sys.stderr)
    for match_id in refused:
        print(f"  {match_id}: today's rules refuse its hands; its figures were left as they were.", file=sys.stderr)
    return 1 if refused else 0


def add_rescore(subparsers: Any) -> None:
    parser = subparsers.add_parser("rescore", help="rebuild every stored score from the hands (after a scoring fix)")
    parser.add_argument("--database", help="database file (default: FLASK_DATABASE, else the data folder's)")
    parser.set_defaults(func=rescore_command)


def backup_command(args: argparse.Namespace) -> int:
    """Copy the database, consistent to one moment, with SQLite's online backup; the server may run."""
    source = existing_database(args)
    target = Path(args.file)
    if target.exists() and target.resolve() == Path(source).resolve():
        raise CommandError(f"{args.file} is the database itself; name another file.")
    try:
        copy_database(source, str(target))
    except (OSError, sqlite3.Error) as error:
        raise CommandError(f"cannot back up to {args.file}: {error}.") from None
    print(f"Backed up {source} to {args.file}.", file=sys.stderr)
    return 0


def restore_command(args: argparse.Namespace) -> int:
    """Put a backup in place of the database while no server runs; never lose what it replaces.

    The backup is read whole into a scratch copy beside the database before anything live is
    touched, and that copy is checked and brought up to this version (:func:`db.backup_problem`):
    a damaged file, another program's SQLite file, or one from a newer scorepad is refused with
    nothing changed. Only then is the database kept aside under a name no earlier restore used
    (``<database>.before-restore``, then ``.before-restore.2``, ...), and the copy put in place.
    Restoring the kept file undoes the restore, and keeps the undone database in turn.
    """
    database = configured_database(args) or str(default_database())
    if not Path(database).parent.is_dir():
        raise CommandError(f"cannot restore into {database}: the folder {Path(database).parent} does not exist.")
    if Path(args.file).exists() and Path(args.file).resolve() == Path(database).resolve():
        raise CommandError(f"{args.file} is the database itself; name a backup.")
    if problem := unreadable_backup(args.file):
        raise CommandError(f"{args.file} {problem}; nothing was changed.")
    scratch = f"{database}.restoring"
    _remove_database(scratch)  # left by a restore that was stopped: never a file anyone kept
    try:
        try:
            copy_database(args.file, scratch)
        except (OSError, sqlite3.Error) as error:
            raise CommandError(f"{args.file} cannot be read ({error}); nothing was changed.") from None
        if problem := backup_problem(scratch):
            raise CommandError(f"{args.file} {problem}; nothing was changed.")
        try:
            with no_server(database):
                kept = _keep_aside(database)
                copy_database(scratch, database)
        except ServerRunning:
            raise CommandError(
                f"a scorepad server (or another scorepad command) is using {database}; "
                "stop it first, then restore (nothing was changed)."
            ) from None
    finally:
        _remove_database(scratch)
    print(f"Restored {args.file} to {database}.", file=sys.stderr)
    if kept:
        print(f"The database it replaced is kept as {kept}; to undo: scorepad restore {kept}", file=sys.stderr)
    return 0


def _keep_aside(database: str) -> str | None:
    """Copy the database about to be replaced to a name no earlier keep has; None if there is none.

    ``<database>.before-restore`` first, then ``.before-restore.2``, ``.3``, ...: an earlier
    keep is never overwritten, so undoing a restore (restoring its keep) loses nothing either.
    """
    if not Path(database).is_file():
        return None
    kept = database + ".before-restore"
    number = 1
    while Path(kept).exists() or Path(kept + ".partial").exists():
        number += 1
        kept = f"{database}.before-restore.{number}"
    copy_database(database, kept)
    return kept


def _remove_database(path: str) -> None:
    for name in (path, f"{path}-wal", f"{path}-shm", f"{path}.partial"):
        Path(name).unlink(missing_ok=True)


COPY_HELP = """\
environment:
  FLASK_DATABASE        the database file (--database wins)

Schedule a nightly copy with cron or a systemd timer, and keep a continuous copy elsewhere
with Litestream if you like: see docs/deploy.md.
"""


def add_copies(subparsers: Any) -> None:
    backup = subparsers.add_parser(
        "backup",
        help="copy the live database to a file (safe while the server runs)",
        description="Copy the database to FILE with SQLite's online backup: a consistent copy of one\n"
        "moment, taken while the server keeps running. The copy is a database `scorepad restore` reads.\n\n"
        + COPY_HELP
        + data_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    backup.add_argument("file", help="where to write the copy (replaced if it exists)")
    backup.add_argument("--database", help="database file (default: FLASK_DATABASE, else the data folder's)")
    backup.set_defaults(func=backup_command)
    restore = subparsers.add_parser(
        "restore",
        help="put a backup in place of the database (the server must be stopped)",
        description="Replace the database with FILE, a copy `scorepad backup` made. Refused while a\n"
        "server uses the database; FILE is checked first (a scorepad database of this or an older version),\n"
        "and the database it replaces is kept as <database>.before-restore (or .before-restore.2, ...,\n"
        "never overwriting an earlier one): restore that file to undo.\n\n" + COPY_HELP + data_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    restore.add_argument("file", help="the backup to put in place")
    restore.add_argument("--database", help="database file (default: FLASK_DATABASE, else the data folder's)")
    restore.set_defaults(func=restore_command)
