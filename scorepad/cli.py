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
