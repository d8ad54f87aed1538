"""The schema, built only by append-only migrations (sqlite-utils ``Migrations``).

A migration that has shipped is never edited, renamed or reordered; a fix is a new one.
Inspect a database with ``sqlite-utils migrate instance/scorepad.db scorepad/migrations.py --list``.
"""

from __future__ import annotations

from sqlite_utils import Migrations

migrations = Migrations("scorepad")
