"""The commands that copy matches in and out: ``export``, ``import``, ``rescore``, ``backup``, ``restore``.

``export`` and ``import`` read and write the JSON backup (a file any scorepad imports);
``backup`` and ``restore`` copy the database file itself; ``rescore`` rebuilds stored figures.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path
from typing import Any

from .common import CommandError, configured_database, data_help, database_path, existing_database, matches, progress


def export_command(args: argparse.Namespace) -> int:
    """Write every match to a file (or standard output): the JSON backup or the results CSV."""
    from .. import backups
    from ..db import connect

    db = connect(database_path(args, must_exist=True))
    try:
        # The server's owner exports every match: the same files as the pages' downloads.
        backup = backups.all_results_csv(db) if args.format == "csv" else backups.all_matches_json(db)
    finally:
        db.close()
    if args.file == "-":
        sys.stdout.write(backup.text)
    else:
        try:
            with open(args.file, "w", encoding="utf-8", newline="") as out:
                out.write(backup.text)
        except OSError as error:
            raise CommandError(f"cannot write {args.file}: {error.strerror}.") from None
    where = args.file if args.file != "-" else "standard output"
    print(f"Exported {matches(backup.count)} to {where}.", file=sys.stderr)
    return 0


def import_command(args: argparse.Namespace) -> int:
    """Check a whole export, then add its new matches all at once; never overwrite.

    The file is read and checked before the database is opened, so a refused file never
    creates one. The matches are written a short transaction at a time (a running server's
    saves go on meanwhile) and appear together at the end.
    """
    from pathlib import Path

    from .. import backups, formats
    from ..canasta import InvalidError
    from ..db import connect

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
    from .. import store
    from ..db import connect

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
    from ..db import copy_database

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
    """Put a backup in place of the database while no server runs; the replaced one is kept aside."""
    from .. import default_database
    from ..db import copy_database, is_scorepad_database, migrate
    from ..lock import ServerRunning, no_server

    database = configured_database(args) or str(default_database())
    if not Path(database).parent.is_dir():
        raise CommandError(f"cannot restore into {database}: the folder {Path(database).parent} does not exist.")
    if problem := is_scorepad_database(args.file):
        raise CommandError(f"{args.file} {problem}; nothing was changed.")
    try:
        with no_server(database):
            kept = _keep_aside(database)
            copy_database(args.file, database)
            migrate(database)  # a backup from an older version is brought up to date now
    except ServerRunning:
        raise CommandError(
            f"a scorepad server (or another scorepad command) is using {database}; "
            "stop it first, then restore (nothing was changed)."
        ) from None
    print(f"Restored {args.file} to {database}.", file=sys.stderr)
    if kept:
        print(f"The database it replaced is kept as {kept}.", file=sys.stderr)
    return 0


def _keep_aside(database: str) -> str | None:
    """Copy the database about to be replaced aside; None if there is none.

    The first restore keeps it as ``<database>.before-restore``; a later one never overwrites an
    earlier copy (the only one holding what was there before), it takes ``.before-restore.2``, ``.3``...
    """
    from ..db import copy_database

    if not Path(database).is_file():
        return None
    kept, number = database + ".before-restore", 1
    while Path(kept).exists():
        number += 1
        kept = f"{database}.before-restore.{number}"
    copy_database(database, kept)
    return kept


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
        "server uses the database; the database it replaces is kept as <database>.before-restore.\n\n"
        + COPY_HELP
        + data_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    restore.add_argument("file", help="the backup to put in place")
    restore.add_argument("--database", help="database file (default: FLASK_DATABASE, else the data folder's)")
    restore.set_defaults(func=restore_command)
