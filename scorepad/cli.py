"""The ``scorepad`` command: ``scorepad serve`` puts the score sheet on the local network.

Subcommands register themselves in :data:`COMMANDS`; add one by writing a function that takes
the subparsers object, adds its parser and sets ``func`` (see :func:`add_serve`). A problem the
person at the terminal can fix (a mistyped database, a busy port) is raised as
:class:`CommandError` and shown as one line on standard error, never as a traceback.
"""

from __future__ import annotations

import argparse
import errno
import ipaddress
import os
import socket
import sqlite3
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import segno

if TYPE_CHECKING:
    from flask import Flask

DEFAULT_PORT = 8000
EVERY_INTERFACE = ("", "0.0.0.0", "::")


class CommandError(Exception):
    """Something the person at the terminal can fix; ``main`` prints it as one line, exit status 1."""


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), or loopback."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))  # UDP connect only picks a route
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def is_loopback(host: str) -> bool:
    """Whether only this computer can open ``host``.

    >>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("localhost"), is_loopback("192.168.1.20")
    (True, True, True, False)
    """
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name
        return host.lower() == "localhost" or host.lower().endswith(".localhost")


def address_for(host: str, port: int) -> tuple[str, bool]:
    """The URL to open for a server listening on ``host``, and whether a phone can reach it.

    Listening on every interface shows this machine's address on the local network.
    """
    shown = lan_address() if host in EVERY_INTERFACE else host
    url_host = f"[{shown}]" if ":" in shown else shown
    return f"http://{url_host}:{port}/", not is_loopback(shown)


def announce(url: str, out: TextIO, reachable: bool = True, every_interface: bool = False) -> None:
    """Print the address, and the QR code a phone's camera opens when a phone can reach it."""
    print(f"scorepad is at {url}", file=out)
    if reachable:
        print("Scan this with a phone on the same network:", file=out)
        segno.make(url, error="l").terminal(out=out, compact=True)
    elif every_interface:
        print("No local network was found, so only this computer can open it for now.", file=out)
    else:
        print("Only this computer can open it; for phones, start it with --host 0.0.0.0.", file=out)
    print("Press Ctrl+C to stop.", file=out, flush=True)


def unlisted_notice(app: Any) -> str | None:
    """A line for the server's owner when some matches are on no phone's list and nobody can be
    the organiser: matches stored before scorepad kept track of who sees what (or imported here on
    the command line) would otherwise seem to have vanished."""
    from . import access, store
    from .db import connect

    with app.app_context():
        if access.passphrase() is not None:
            return None
    db = connect(app.config["DATABASE"])
    try:
        count = store.count_unlisted(db)
    finally:
        db.close()
    if not count:
        return None
    matches = "1 match is" if count == 1 else f"{count} matches are"
    return (
        f"{matches} on no phone's list yet (stored before scorepad kept track of who sees what): "
        "each phone lists a match once it opens the match link. Set FLASK_ORGANISER_PASSPHRASE "
        "and sign in at /organiser to see them all."
    )


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
    from .db import migrate

    try:
        migrate(path)
    except sqlite3.DatabaseError as error:
        raise CommandError(f"cannot open the database {path}: {error}.") from None
    return path


def configured_database() -> str | None:
    """The database ``FLASK_DATABASE`` names (the app reads it too), or None for the app's default."""
    return os.environ.get("FLASK_DATABASE") or None


def open_app() -> Flask:
    """The app as ``serve`` runs it, its database checked first.

    :raises CommandError: when the database cannot be created or opened.
    """
    from . import create_app

    configured = configured_database()
    if configured:
        checked_database(configured, must_exist=False)
    try:
        return create_app()
    except (sqlite3.DatabaseError, OSError) as error:
        raise CommandError(f"cannot open the database: {error}.") from None


def listen(host: str, port: int) -> socket.socket:
    """Bind the server's socket now, so a busy port is reported before anything is announced.

    :raises CommandError: when the address is unknown or the port is taken.
    """
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as error:
        raise CommandError(f"cannot listen on {host}: {error.strerror}.") from None
    listener = socket.socket(family, kind, proto)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as waitress does
        listener.bind(address)
    except OSError as error:
        listener.close()
        if error.errno == errno.EADDRINUSE:
            raise CommandError(
                f"port {port} on {host} is already in use (is scorepad already running?); choose another with --port."
            ) from None
        raise CommandError(f"cannot listen on {host} port {port}: {error.strerror}.") from None
    return listener


def serve(args: argparse.Namespace) -> int:
    """Serve the app with waitress, a production WSGI server, once its database and port are ready."""
    import waitress

    app = open_app()
    listener = listen(args.host, args.port)
    try:
        server = waitress.create_server(app, sockets=[listener], threads=args.threads, ident="scorepad")
    except BaseException:
        listener.close()
        raise
    if notice := unlisted_notice(app):
        print(notice, file=sys.stdout)
    url, reachable = address_for(args.host, listener.getsockname()[1])
    announce(url, sys.stdout, reachable, every_interface=args.host in EVERY_INTERFACE)
    try:
        server.run()  # returns on Ctrl+C
    finally:
        server.task_dispatcher.shutdown()
        server.close()
    print("scorepad stopped.", file=sys.stderr)
    return 0


def port_number(text: str) -> int:
    """A TCP port for ``--port``: 1 to 65535, or 0 for any free port."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (0 to 65535)")
    return port


def add_serve(subparsers: Any) -> None:
    parser = subparsers.add_parser("serve", help="serve the score sheet on the local network")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every interface)")
    parser.add_argument("--port", type=port_number, default=DEFAULT_PORT, help=f"port (default: {DEFAULT_PORT})")
    parser.add_argument("--threads", type=int, default=8, help="worker threads (default: 8)")
    parser.set_defaults(func=serve)


COMMANDS: list[Callable[[Any], None]] = [add_serve]


# --- backups: export and import (issue 5) -------------------------------------------------
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
    """The database the app uses when none is configured: ``scorepad.db`` in its instance folder."""
    from flask import Flask

    return str(Path(Flask("scorepad", instance_relative_config=True).instance_path) / "scorepad.db")


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


def export_command(args: argparse.Namespace) -> int:
    """Write every match to a file (or standard output): the JSON backup or the results CSV."""
    from . import backups
    from .db import connect

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
    print(
        f"Exported {backup.count} matches to {args.file if args.file != '-' else 'standard output'}.", file=sys.stderr
    )
    return 0


def import_command(args: argparse.Namespace) -> int:
    """Check a whole export, then add its new matches all at once; never overwrite.

    The file is read and checked before the database is opened, so a refused file never
    creates one. The matches are written a short transaction at a time (a running server's
    saves go on meanwhile) and appear together at the end.
    """
    from pathlib import Path

    from . import backups, formats
    from .canasta import InvalidError
    from .db import connect

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
    print(f"Imported {added} matches; {len(plan.already)} already here.", file=sys.stderr)
    return 0


def add_backups(subparsers: Any) -> None:
    export_parser = subparsers.add_parser("export", help="write every match to a JSON backup (or results CSV)")
    export_parser.add_argument("file", nargs="?", default="-", help="where to write (default: standard output)")
    export_parser.add_argument("--format", choices=("json", "csv"), default="json", help="json backup or results csv")
    export_parser.add_argument("--database", help="database file (default: the app's)")
    export_parser.set_defaults(func=export_command)
    import_parser = subparsers.add_parser("import", help="add the matches of a JSON backup or match file")
    import_parser.add_argument("file", help="the file to import ('-' for standard input)")
    import_parser.add_argument("--database", help="database file (default: the app's)")
    import_parser.set_defaults(func=import_command)


COMMANDS.append(add_backups)


# --- stored figures (issue 9) -------------------------------------------------------------
def rescore_command(args: argparse.Namespace) -> int:
    """Score every stored match again from its hands and rewrite the stored figures."""
    from . import store
    from .db import connect

    db = connect(database_path(args, must_exist=True))
    try:
        rescored, refused = store.rescore(db, progress("Rescored", sys.stderr))
    finally:
        db.close()
    print(f"Rescored {rescored} match{'' if rescored == 1 else 'es'}.", file=sys.stderr)
    for match_id in refused:
        print(f"  {match_id}: today's rules refuse its hands; its figures were left as they were.", file=sys.stderr)
    return 1 if refused else 0


def add_rescore(subparsers: Any) -> None:
    parser = subparsers.add_parser("rescore", help="rebuild every stored score from the hands (after a scoring fix)")
    parser.add_argument("--database", help="database file (default: the app's)")
    parser.set_defaults(func=rescore_command)


COMMANDS.append(add_rescore)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scorepad", description="Canasta score keeper for the card table.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="command")
    for add in COMMANDS:
        add(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run a subcommand; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except CommandError as error:
        print(f"scorepad {args.command}: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
