"""The ``scorepad`` command: ``scorepad serve`` puts the score sheet on the local network.

Each command lives with its kind: :mod:`.serving` (``serve``), :mod:`.copies` (``export``,
``import``, ``rescore``, ``backup``, ``restore``), and what they share in :mod:`.common`. Add a
command by writing a function that takes the subparsers object, adds its parser and sets
``func`` (see :func:`~.serving.add_serve`), and naming it in :data:`COMMANDS`. A problem the
person at the terminal can fix is raised as :class:`CommandError` and shown as one line on
standard error, never as a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as installed
from typing import Any

from .common import CommandError, checked_database, data_help, default_database, progress
from .copies import add_backups, add_copies, add_rescore
from .serving import add_serve, address_for, announce, lan_address, listen, unlisted_notice

__all__ = [
    "COMMANDS",
    "CommandError",
    "address_for",
    "announce",
    "build_parser",
    "checked_database",
    "default_database",
    "lan_address",
    "listen",
    "main",
    "progress",
    "unlisted_notice",
]

COMMANDS: tuple[Callable[[Any], None], ...] = (add_serve, add_backups, add_rescore, add_copies)


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
