"""The ``scorepad`` command: ``scorepad serve`` puts the score sheet on the local network.

Subcommands register themselves in :data:`COMMANDS`; add one by writing a function that takes
the subparsers object, adds its parser and sets ``func`` (see :func:`add_serve`).
"""

from __future__ import annotations

import argparse
import socket
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

import segno

DEFAULT_PORT = 8000


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


def announce(url: str, out: TextIO) -> None:
    """Print the address and a QR code a phone's camera opens."""
    print(f"scorepad is at {url}", file=out)
    print("Scan this with a phone on the same network:", file=out)
    segno.make(url, error="l").terminal(out=out, compact=True)
    print("Press Ctrl+C to stop.", file=out, flush=True)


def serve(args: argparse.Namespace) -> int:
    """Serve the app with waitress, a production WSGI server."""
    import waitress

    from . import create_app

    app = create_app()
    shown = lan_address() if args.host in ("0.0.0.0", "") else args.host
    announce(f"http://{shown}:{args.port}/", sys.stdout)
    waitress.serve(app, host=args.host, port=args.port, threads=args.threads, ident="scorepad")
    return 0


def add_serve(subparsers: Any) -> None:
    parser = subparsers.add_parser("serve", help="serve the score sheet on the local network")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every interface)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default: {DEFAULT_PORT})")
    parser.add_argument("--threads", type=int, default=8, help="worker threads (default: 8)")
    parser.set_defaults(func=serve)


COMMANDS: list[Callable[[Any], None]] = [add_serve]


# --- backups: export and import (issue 5) -------------------------------------------------
def database_path(args: argparse.Namespace) -> str:
    """The database a backup command works on: ``--database``, else the app's own (migrated)."""
    if args.database:
        from .db import migrate

        migrate(args.database)
        return args.database
    from . import create_app

    return create_app().config["DATABASE"]


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
    import json
    from datetime import UTC, datetime

    from . import export, store
    from .db import connect

    db = connect(database_path(args))
    try:
        ids = store.all_match_ids(db)
        report = progress("Read", sys.stderr)
        pairs = []
        for done, match_id in enumerate(ids, start=1):
            pairs.append(store.load_match(db, match_id))
            report(done, len(ids))
    finally:
        db.close()
    if args.format == "csv":
        text = export.results_csv(pairs)
    else:
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        text = json.dumps(export.all_matches_document(pairs, exported=stamp), ensure_ascii=False, indent=1) + "\n"
    if args.file == "-":
        sys.stdout.write(text)
    else:
        with open(args.file, "w", encoding="utf-8", newline="") as out:
            out.write(text)
    print(f"Exported {len(pairs)} matches to {args.file if args.file != '-' else 'standard output'}.", file=sys.stderr)
    return 0


def import_command(args: argparse.Namespace) -> int:
    """Check a whole export, then add its new matches in one transaction; never overwrite."""
    from pathlib import Path

    from . import store
    from .canasta import InvalidError
    from .db import connect

    try:
        raw = sys.stdin.buffer.read() if args.file == "-" else Path(args.file).read_bytes()
    except OSError as error:
        print(f"Cannot read {args.file}: {error.strerror}.", file=sys.stderr)
        return 1
    db = connect(database_path(args))
    try:
        try:
            plan = store.plan_import(db, raw, progress("Checked", sys.stderr))
        except InvalidError as error:
            print(f"{args.file} was not imported; nothing was written:", file=sys.stderr)
            for problem in error.violations:
                print(f"  {problem.field or '(whole file)'}: {problem.message}", file=sys.stderr)
            return 1
        store.save_import(db, plan, progress("Saved", sys.stderr))
    finally:
        db.close()
    print(f"Imported {len(plan.new)} matches; {len(plan.already)} already here.", file=sys.stderr)
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

    db = connect(database_path(args))
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
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
