"""Backups in and out: what the pages and the ``scorepad export`` / ``scorepad import`` commands share.

Between the file formats (``formats/``, ``documents.py``) and storage (``store/``). A backup is
the store's rows and kept figures for what a viewer sees (:func:`store.figured_matches`), each
match written here as its document (:func:`documents.figured_document`) and the whole by one
format function: the download and the command call the same function here, so they write the
same file. An import is read and checked by the formats, planned here against what is stored
(which matches are new, under which ids, and which are already here), then written by the store
a short transaction at a time, out of sight until the last one commits
(:func:`store.save_import`): ``scorepad import`` reads the whole file before it opens the
database; the Import page reads, plans and writes a batch at a time (:func:`import_file`), so it
holds the parsed file and one batch. The store reads and writes rows and figures only and knows
no file format or document.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import suppress
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from sqlite_utils import Database

from . import formats, store
from .documents import figured_document, is_well_formed_id, match_document
from .formats import Pair


@dataclass
class Backup:
    """A backup file as it is written: how many matches it holds, and its text a batch at a time.

    The pieces are read from the database as they are written (one match in memory at a time,
    whatever the file's size), all from one moment of it: the read transaction they hold ends
    when the last piece has been made, or when the connection they read is closed.
    """

    count: int
    pieces: Iterator[str]

    @cached_property
    def text(self) -> str:
        """The whole file at once (tests and small files; a download streams :attr:`pieces`)."""
        return "".join(self.pieces)


def all_matches_json(db: Database, viewer: store.Viewer = store.EVERY_MATCH, exported: str | None = None) -> Backup:
    """Every match ``viewer`` sees, as the JSON backup (stamped ``exported``, by default now).

    Read from the stored entries and figures, as the pages are: a backup does not rescore.
    """
    began = store.read_snapshot(db)
    count = store.count_matches(db, viewer=viewer)
    documents = (figured_document(match) for match in store.figured_matches(db, viewer=viewer))
    pieces = formats.backup_json_pieces(documents, count, exported or store.now())
    return Backup(count, _ending(db, began, formats.batched(pieces)))


def all_results_csv(db: Database, viewer: store.Viewer = store.EVERY_MATCH) -> Backup:
    """A row per match ``viewer`` sees: the results CSV, from the stored summaries."""
    began = store.read_snapshot(db)
    count = store.count_matches(db, viewer=viewer)
    rows = store.each_result_row(db, viewer=viewer)
    pieces = formats.summary_csv_pieces(rows, store.most_sides(db, viewer=viewer))
    return Backup(count, _ending(db, began, formats.batched(pieces)))


def _ending(db: Database, began: bool, pieces: Iterator[str]) -> Iterator[str]:
    """The pieces, then the end of the read transaction begun for them (when one was)."""
    try:
        yield from pieces
    finally:
        with suppress(sqlite3.ProgrammingError):  # the connection was closed already: nothing to end
            if began and db.conn.in_transaction:
                db.conn.rollback()


# --- bringing a backup back in ---------------------------------------------------------------


@dataclass
class ImportPlan:
    """What an import will do: matches to add (under the id each will have here), and the stored
    matches that a file's match already is."""

    new: list[Pair]
    already: list[Pair]


def plan_matches(pairs: Iterable[Pair], find: Callable[[str], Sequence[Pair]], new_id: Callable[[], str]) -> ImportPlan:
    """Sort read matches into new ones and ones already stored; choose each new match's id.

    ``find(file_id)`` returns the stored matches that id may name: the match with that id, and
    the importer's matches imported from a file where they had it. One whose document is
    identical, apart from its id, is "already here" (a re-import); nothing stored is ever
    overwritten. Another browser's match imported under a replaced id is never found, so
    the importer gets a copy of their own rather than a stranger's write link. A new
    match keeps its id only when it is well formed (:func:`documents.is_well_formed_id`) and
    not taken, so links from the old server keep working; otherwise it gets ``new_id()``.
    Either way ``origin`` remembers the file's id, so importing the file again is recognised.
    """
    plan = ImportPlan([], [])
    plan.new.extend(planned(pairs, find, new_id, plan.already))
    return plan


def planned(
    pairs: Iterable[Pair], find: Callable[[str], Sequence[Pair]], new_id: Callable[[], str], already: list[Pair]
) -> Iterator[Pair]:
    """:func:`plan_matches` a match at a time: each new match under the id it will have, in
    order; each stored match a read one already is goes into ``already``."""
    for match, info in pairs:
        stored = find(info.id)
        same = None
        if stored:  # the usual new match is compared with nothing: its document is never made
            document = _without_id(match_document(match, info))
            same = next((pair for pair in stored if _without_id(match_document(*pair)) == document), None)
        if same is not None:
            already.append(same)
            continue
        taken = any(stored_info.id == info.id for _, stored_info in stored)
        keep = is_well_formed_id(info.id) and not taken
        yield match, replace(info, id=info.id if keep else new_id(), origin=info.id)


def _without_id(document: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in document.items() if key != "id"}


def read_import(
    raw: bytes | str, progress: store.Progress | None = None, limits: formats.Limits = formats.WEB_LIMITS
) -> list[Pair]:
    """Read and check a whole export file, within ``limits``; no database is needed yet.

    :raises canasta.InvalidError: with the problems (at most ``limits.problems`` of them listed),
        each with its path in the file.
    """
    return formats.read_all_matches_document(formats.parse_json(raw), progress, limits)


def plan_import(
    db: Database,
    raw: bytes | str | list[Pair],
    progress: store.Progress | None = None,
    viewer: store.Viewer = store.EVERY_MATCH,
    limits: formats.Limits = formats.WEB_LIMITS,
) -> ImportPlan:
    """Read and check a whole export file (or take the pairs :func:`read_import` read) against
    what ``viewer`` may find stored; nothing is written.

    :raises canasta.InvalidError: as :func:`read_import`.
    """
    pairs = raw if isinstance(raw, list) else read_import(raw, progress, limits)
    return plan_matches(pairs, lambda file_id: store.matches_from(db, file_id, viewer), new_id=store.new_token)


@dataclass
class Imported:
    """What an import did: matches added, matches already here, and added ones that look like one here."""

    added: int
    already: int
    similar: int


def import_file(
    db: Database,
    raw: bytes | str,
    viewer: store.Viewer,
    browser: Callable[[], str],
    limits: formats.Limits = formats.WEB_LIMITS,
) -> Imported:
    """Read, check and write an export file a batch of matches at a time (the Import page).

    The file is parsed once; then each batch of matches is read, checked, planned against what
    ``viewer`` sees (as :func:`plan_import` plans) and written out of sight before the next is
    read, and its parsed documents and read matches are dropped: what the import holds is the
    parsed file and one batch, whatever its length (and the stored matches a re-imported match
    already is, to list them for ``browser``). A problem anywhere refuses the whole file
    (the rest is still read for its problems) and removes what was written (:func:`store.save_import`).
    ``browser()`` (called only when the import succeeds) names the browser whose list gains
    every match of the file.

    :raises canasta.InvalidError: as :func:`read_import`.
    """
    data = formats.parse_json(raw)
    del raw  # passed inline (the Import page), this was the bytes' one reference: dropped once parsed
    already: list[Pair] = []
    similar = 0

    def new_matches() -> Iterator[Pair]:
        nonlocal similar
        read = formats.each_match_read(data, limits=limits, release=True)
        for pair in planned(read, lambda file_id: store.matches_from(db, file_id, viewer), store.new_token, already):
            similar += store.lookalikes(db, [pair], viewer)
            yield pair

    added = store.save_import(db, new_matches(), already, browser=browser)
    return Imported(added, len(already), similar)


def save_import(
    db: Database, plan: ImportPlan, progress: store.Progress | None = None, browser: str | None = None
) -> int:
    """Write every new match of a checked import, all or nothing; returns how many were added.

    Short transactions let saves through meanwhile; the matches appear together when the last
    one commits, and a failure removes what was written (:func:`store.save_import`). With
    ``browser``, every match of the file (new or already here) joins that browser's list.
    """
    return store.save_import(db, plan.new, plan.already, progress=progress, browser=browser)
