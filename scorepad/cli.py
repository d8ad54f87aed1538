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


def configured_database(args: argparse.Namespace | None = None) -> str | None:
    """The database ``--database`` or ``FLASK_DATABASE`` names, or None for the default one."""
    return getattr(args, "database", None) or os.environ.get("FLASK_DATABASE") or None


def open_app(args: argparse.Namespace | None = None, **overrides: Any) -> Flask:
    """The app as ``serve`` runs it, its database checked first (``--database`` wins).

    :raises CommandError: when the database cannot be created or opened.
    """
    from . import create_app

    configured = configured_database(args)
    if configured:
        checked_database(configured, must_exist=False)
        overrides["DATABASE"] = configured
    try:
        return create_app(overrides=overrides)
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


# The proxy headers waitress takes from a trusted proxy: the client's address, the host and port
# it asked for and whether it came over HTTPS. ``Forwarded`` and ``X-Forwarded-By`` are dropped.
PROXY_HEADERS = {"x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-port"}
CONNECTION_LIMIT = 1000  # open connections; a phone holds one or two, so a trickle of slow clients cannot fill it
CHANNEL_TIMEOUT = 30  # seconds a connection may stay silent between requests before it is closed


def waitress_settings(args: argparse.Namespace) -> dict[str, Any]:
    """waitress's settings for ``serve``: threads, connection bounds and the proxies to trust.

    With ``--proxy-hops N`` waitress believes the last N entries of the proxy headers from any
    peer (listen on 127.0.0.1 so only the proxy reaches scorepad) and clears them otherwise;
    the app's own ``PROXY_HOPS`` then reads the same entries, and ``X-Forwarded-Prefix``.
    """
    settings: dict[str, Any] = {
        "threads": args.threads,
        "ident": "scorepad",
        "connection_limit": args.connection_limit,
        "channel_timeout": args.channel_timeout,
        "cleanup_interval": max(1, min(30, args.channel_timeout // 2)),  # so the timeout is kept promptly
        "clear_untrusted_proxy_headers": True,
    }
    if args.proxy_hops:
        settings.update(
            trusted_proxy="*", trusted_proxy_count=args.proxy_hops, trusted_proxy_headers=set(PROXY_HEADERS)
        )
    return settings


def largest_body(app: Flask) -> int:
    """The most bytes of request body waitress receives: the largest any view takes, and a
    megabyte more so the app's own 413 answers a body near it. Without it waitress spools up to
    a gigabyte per request to a temporary file (RAM where /tmp is tmpfs) before the app refuses it."""
    allowances = [getattr(view, "max_content_length", 0) or 0 for view in app.view_functions.values()]
    return max([app.config.get("MAX_CONTENT_LENGTH") or 0, *allowances]) + 1024 * 1024


def room_for_connections(limit: int) -> int:
    """Raise this process's open-file limit to fit ``limit`` connections if the system allows;
    returns the connection limit that fits (never more than asked)."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to raise
        return limit
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = limit + 64  # the database, the listening socket, the log...
    if soft != resource.RLIM_INFINITY and soft < wanted:
        soft = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return limit if soft == resource.RLIM_INFINITY else max(1, min(limit, soft - 64))


def serve(args: argparse.Namespace) -> int:
    """Serve the app with waitress, a production WSGI server, once its port and database are ready."""
    import waitress

    if args.proxy_hops is None:
        try:
            args.proxy_hops = proxy_hops_from_environment()
        except argparse.ArgumentTypeError as error:
            raise CommandError(f"FLASK_PROXY_HOPS: {error}.") from None
    listener = listen(args.host, args.port)  # first: a busy port or a bad host creates nothing
    try:
        app = open_app(args, PROXY_HOPS=args.proxy_hops)
        args.connection_limit = room_for_connections(args.connection_limit)
        settings = waitress_settings(args) | {"max_request_body_size": largest_body(app)}
        server = waitress.create_server(app, sockets=[listener], **settings)
    except BaseException:
        listener.close()
        raise
    print(f"The database is {Path(app.config['DATABASE']).resolve()}", file=sys.stdout)
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


def at_least(minimum: int) -> Callable[[str], int]:
    """A whole number of at least ``minimum``, for an option.

    >>> at_least(1)("8")
    8
    """

    def number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = minimum - 1
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least {minimum}")
        return value

    return number


def proxy_hops_from_environment() -> int:
    """``FLASK_PROXY_HOPS`` as the default of ``--proxy-hops`` (0 when unset)."""
    text = os.environ.get("FLASK_PROXY_HOPS", "").strip()
    return at_least(0)(text) if text else 0


SERVE_HELP = """\
Serve the score sheet with waitress, a production web server, and print the address (with a
QR code for phones on the same network) and where the database is.

environment:
  FLASK_DATABASE        the database file (--database wins)
  FLASK_PROXY_HOPS      reverse proxies in front to trust (--proxy-hops wins)
  FLASK_SECRET_KEY      signs cookies; else generated once into secret_key beside the database
  FLASK_ORGANISER_PASSPHRASE   turns on organiser mode (every match, for the club)
  FLASK_SESSION_COOKIE_SECURE  true: cookies always Secure, whatever the proxy says

Behind a reverse proxy with TLS (Caddy, nginx) run it as
  scorepad serve --host 127.0.0.1 --proxy-hops 1
See docs/deploy.md.
"""


def add_serve(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="serve the score sheet on the local network",
        description=SERVE_HELP + data_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every interface)")
    parser.add_argument("--port", type=port_number, default=DEFAULT_PORT, help=f"port (default: {DEFAULT_PORT})")
    parser.add_argument("--threads", type=at_least(1), default=8, help="worker threads, at least 1 (default: 8)")
    parser.add_argument("--database", help="database file (default: FLASK_DATABASE, else the data folder's)")
    parser.add_argument(
        "--proxy-hops",
        type=at_least(0),
        default=None,
        help="reverse proxies in front whose X-Forwarded-* headers to trust (default: FLASK_PROXY_HOPS, else 0)",
    )
    parser.add_argument(
        "--connection-limit",
        type=at_least(1),
        default=CONNECTION_LIMIT,
        help=f"open connections at most; more wait to be accepted (default: {CONNECTION_LIMIT})",
    )
    parser.add_argument(
        "--channel-timeout",
        type=at_least(1),
        default=CHANNEL_TIMEOUT,
        help=f"seconds a silent connection is kept open (default: {CHANNEL_TIMEOUT})",
    )
    parser.set_defaults(func=serve)


COMMANDS: list[Callable[[Any], None]] = [add_serve]


# --- backups: export and import (issue 5) -------------------------------------------------
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
    print(f"Rescored {matches(rescored)}.", file=sys.stderr)
    for match_id in refused:
        print(f"  {match_id}: today's rules refuse its hands; its figures were left as they were.", file=sys.stderr)
    return 1 if refused else 0


def add_rescore(subparsers: Any) -> None:
    parser = subparsers.add_parser("rescore", help="rebuild every stored score from the hands (after a scoring fix)")
    parser.add_argument("--database", help="database file (default: FLASK_DATABASE, else the data folder's)")
    parser.set_defaults(func=rescore_command)


COMMANDS.append(add_rescore)


# --- copies of the database file (issue 22) -------------------------------------------------
def existing_database(args: argparse.Namespace) -> str:
    """The database file a copy command works on: ``--database``, ``FLASK_DATABASE`` or the default.

    :raises CommandError: when there is no such file (nothing is created).
    """
    from . import default_database

    path = configured_database(args) or str(default_database())
    if not Path(path).is_file():
        raise CommandError(f"there is no database at {path}; check the name (nothing was created).")
    return path


def backup_command(args: argparse.Namespace) -> int:
    """Copy the database, consistent to one moment, with SQLite's online backup; the server may run."""
    from .db import copy_database

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
    from . import default_database
    from .db import copy_database, is_scorepad_database, migrate
    from .lock import ServerRunning, no_server

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
    """Copy the database about to be replaced to ``<database>.before-restore``; None if there is none."""
    from .db import copy_database

    if not Path(database).is_file():
        return None
    kept = database + ".before-restore"
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


COMMANDS.append(add_copies)


def data_help() -> str:
    """Where the data is, for the end of each command's help."""
    from . import default_database

    configured = os.environ.get("FLASK_DATABASE")
    where = f"{configured} (from FLASK_DATABASE)" if configured else str(default_database())
    return f"\nThe database is {where}; the secret key sits beside it.\n"


# What each command does and reads, shown by ``scorepad COMMAND --help``; a command whose
# parser sets its own description (serve) is left as it is.
DESCRIPTIONS = {
    "export": "Write every match on the server to FILE (or standard output): the JSON backup that\n"
    "`scorepad import` reads, or with --format csv a row of results per match.",
    "import": "Add the matches of a JSON backup or match file; matches already here are recognised\n"
    "and nothing stored is overwritten.",
    "rescore": "Score every stored match again from its hands and rewrite the stored figures (after\n"
    "an upgrade that fixes a scoring rule).",
}
ENVIRONMENT_HELP = "\nenvironment:\n  FLASK_DATABASE        the database file (--database wins)\n"


def describe(subparsers: Any) -> None:
    """Give each command's help what it does, the environment it reads and where the data is."""
    for name, parser in subparsers.choices.items():
        if parser.description is None:
            parser.description = DESCRIPTIONS.get(name, parser.format_usage()) + "\n" + ENVIRONMENT_HELP
            parser.description += data_help()
            parser.formatter_class = argparse.RawDescriptionHelpFormatter


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("scorepad")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scorepad",
        description="Canasta score keeper and rules checker for the card table. "
        "Start it with `scorepad serve`; `scorepad COMMAND --help` says more.",
        epilog="Settings come from FLASK_* environment variables (FLASK_DATABASE, FLASK_SECRET_KEY, ...); "
        "each command's help names those it reads." + data_help(),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="command")
    for add in COMMANDS:
        add(subparsers)
    describe(subparsers)
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
