"""``scorepad serve``: waitress on the local network, its address and a QR code for phones."""

from __future__ import annotations

import argparse
import ctypes
import errno
import ipaddress
import os
import signal
import socket
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import segno

from .. import access, store
from ..db import connect
from .common import CommandError, data_help, open_app

try:
    import resource
except ImportError:  # Windows: no open-file limit to raise
    resource = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from flask import Flask

DEFAULT_PORT = 8000
EVERY_INTERFACE = ("", "0.0.0.0", "::")


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


# A phone at http://<LAN address>/ is not in a secure context: browsers give it no service worker.
# tests/browser/test_lan_browser.py shows what still works there (the save queue).
PLAIN_HTTP_NOTICE = (
    "Phones keep score at this address, and a hand saved while the Wi-Fi drops is sent when it\n"
    "returns. Pages kept for offline use and installing the app need HTTPS (docs/deploy.md) or a\n"
    "browser on this computer (http://localhost)."
)


def announce(url: str, out: TextIO, reachable: bool = True, every_interface: bool = False) -> None:
    """Print the address, and the QR code a phone's camera opens when a phone can reach it."""
    print(f"scorepad is at {url}", file=out)
    if reachable:
        print("Scan this with a phone on the same network:", file=out)
        segno.make(url, error="l").terminal(out=out, compact=True)
        print(PLAIN_HTTP_NOTICE, file=out)
    elif every_interface:
        print("No local network was found, so only this computer can open it for now.", file=out)
    else:
        print("Only this computer can open it; for phones, start it with --host 0.0.0.0.", file=out)
    print("Press Ctrl+C to stop.", file=out, flush=True)


def unlisted_notice(app: Any) -> str | None:
    """A line for the server's owner when some matches are on no phone's list and nobody can be
    the organiser: matches stored before scorepad kept track of who sees what (or imported here on
    the command line) would otherwise seem to have vanished."""
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
OUTBUF_HIGH_WATERMARK = 1024 * 1024  # bytes of a response waitress holds before the app waits
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
        # A download waits for its client once this much is unsent, so a large one streamed
        # to a slow reader holds a batch or two, not 16 MB (waitress's default).
        "outbuf_high_watermark": OUTBUF_HIGH_WATERMARK,
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
    if resource is None:  # Windows: no such limit to raise
        return limit
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = limit + 64  # the database, the listening socket, the log...
    if soft != resource.RLIM_INFINITY and soft < wanted:
        soft = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return limit if soft == resource.RLIM_INFINITY else max(1, min(limit, soft - 64))


# glibc's M_ARENA_MAX: how many malloc arenas the process's threads share.
M_ARENA_MAX = -8


def fewer_malloc_arenas() -> None:
    """Let the server's threads share two malloc arenas instead of one each (glibc only).

    Each waitress thread that streams a large download otherwise keeps what it freed in an
    arena of its own: 8 threads, each holding tens of MB, while every download is bounded by a
    batch. Two arenas keep the process flat (the setting many Python and Ruby servers use).
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL("libc.so.6").mallopt(M_ARENA_MAX, 2)
    except (OSError, AttributeError):
        pass  # another C library (musl): nothing to set


def serve(args: argparse.Namespace) -> int:
    """Serve the app with waitress, a production WSGI server, once its port and database are ready."""
    import waitress  # noqa: PLC0415  (only `serve` runs a server: every other command starts without it)

    fewer_malloc_arenas()  # before waitress starts its threads
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
    previous = stop_on_sigterm()
    try:
        server.run()  # returns on Ctrl+C, and on SIGTERM (what systemd and Docker send) as on Ctrl+C
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        server.task_dispatcher.shutdown()
        server.close()
    print("scorepad stopped.", file=sys.stderr)
    return 0


def stop_on_sigterm() -> Any:
    """Make SIGTERM stop the server as Ctrl+C does, with a line saying so; return the old handler."""

    def stop(signum: int, frame: Any) -> None:
        print("scorepad was asked to stop (SIGTERM).", file=sys.stderr, flush=True)
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        return None  # only the main thread can take signals (a test serving from another thread)
    return signal.signal(signal.SIGTERM, stop)


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
