"""Writing a checked import: new matches a short transaction at a time, out of sight until the last."""

from __future__ import annotations

import json
import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence, Sized
from contextlib import suppress
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from itertools import islice
from typing import Any

from sqlite_utils import Database

from .. import canasta
from ..records import MatchInfo
from .access import EVERY_MATCH, Viewer, grant_access, visible_to
from .figures import write_figures
from .reads import stored_match
from .rows import Progress, as_stored, hand_json, insert_rows, match_row, new_token, now, select_rows, writing


def save_imported_match(db: Database, match: canasta.Match, info: MatchInfo, pending: str | None = None) -> bool:
    """Store a match read from a document under ``info.id``; False when that id exists already.

    ``info.origin`` (the id the match had in the file) is kept, so a re-import is recognised
    even when the id was replaced (see :func:`backups.plan_matches`). With ``pending`` (an
    import's id) the match stays out of sight until :func:`save_import` ends that import.
    """
    with writing(db):
        if list(select_rows(db, "select 1 from matches where id = ?", [info.id])):
            return False
        stamp = now()
        finished = info.finished or (stamp if match.is_finished else None)
        row = {
            "id": info.id,
            "watch_token": new_token(),
            "variant": match.variant.key,
            "options": json.dumps(match.variant.option_values()),
            "sides": json.dumps([side.to_dict() for side in info.sides]),
            "starting_totals": json.dumps(list(match.starting_totals)) if match.starting_totals else None,
            "title": info.title,
            "created": info.created or stamp,
            "updated": stamp,
            "finished": finished if match.is_finished else None,
            "version": 1,
            "origin": info.origin,
            "pending": pending,
        }
        insert_rows(db, "matches", tuple(row), [tuple(row.values())])
        hand_ids = []
        revisions = []
        for position, hand in enumerate(match.hands, start=1):
            data = hand_json(hand)
            sql = "insert into hands (match_id, position, data, created) values (?, ?, ?, ?)"
            hand_ids.append(db.conn.execute(sql, [info.id, position, data, stamp]).lastrowid)
            history = info.history[position - 1] if position <= len(info.history) else ()
            revisions += _imported_revisions(hand_ids[-1], data, history, stamp)
        revisions += _insert_undone(db, info, len(match.hands), stamp)
        insert_rows(db, "hand_revisions", REVISION_COLUMNS, revisions)
        stored = canasta.Match(match.variant, tuple(as_stored(h) for h in match.hands), match.starting_totals)
        write_figures(db, match_row(db, info.id, pending_too=True), stored, hand_ids)
    return True


def _imported_revisions(
    hand_id: int, data: str, history: Sequence[Any], stamp: str
) -> list[tuple[int, int, str, str | None, int, str]]:
    """A hand's revisions: every version the file lists (as the hand's page showed them), else one 'import'."""
    if len(history) <= 1:
        return [(hand_id, 1, "import", data, 1, stamp)]  # a new hand's first revision
    return [
        (hand_id, number, version["action"], hand_json(canasta.read_hand(version["hand"])) if version["hand"] else None,
         1, version["created"])
        for number, version in enumerate(history, start=1)
    ]  # fmt: skip


def _insert_undone(db: Database, info: MatchInfo, played: int, stamp: str) -> list[tuple[Any, ...]]:
    """The undone hands after the ``played`` ones, out of sight, the one undone last first (Put back
    brings it first); returns their revisions."""
    revisions = []
    sql = "insert into hands (match_id, position, data, created, deleted, undone) values (?, ?, ?, ?, ?, ?)"
    for depth, undone in enumerate(info.undone):
        data = hand_json(canasta.read_hand(undone))
        values = [info.id, played + 1 + depth, data, stamp, stamp, len(info.undone) - depth]
        revisions.append((db.conn.execute(sql, values).lastrowid, 1, "import", data, 1, stamp))
    return revisions


def matches_from(db: Database, file_id: str, viewer: Viewer = EVERY_MATCH) -> list[tuple[canasta.Match, MatchInfo]]:
    """Stored matches (deleted ones too) a file's match id may refer to: the match with that id,
    and every match ``viewer`` sees that was imported from a file where it had that id.

    The file holds the write link of the match with its own id, so that one is found whoever
    asks; a match stored under a replaced id is another browser's business unless it lists it.
    """
    seen, params = visible_to(viewer)
    rows = select_rows(
        db,
        f"select * from matches where id = ? or (origin = ? and {seen}) order by id = ? desc",
        [file_id, file_id, *params, file_id],
    )
    return [(stored.match, stored.info) for stored in (stored_match(db, row) for row in rows)]


def lookalikes(db: Database, pairs: Sequence[tuple[canasta.Match, MatchInfo]], viewer: Viewer = EVERY_MATCH) -> int:
    """How many of these matches look like one ``viewer`` sees under another id: same start and sides.

    A file whose ids were changed (edited, or exported again elsewhere) is not recognised as
    already here; the import page says so instead of adding copies silently. Only the viewer's
    own matches are compared: the answer must not tell a stranger what others stored.
    """
    seen, params = visible_to(viewer)
    found = 0
    for _match, info in pairs:
        sides = json.dumps([side.to_dict() for side in info.sides])
        sql = f"select 1 from matches where created = ? and sides = ? and {seen} limit 1"
        if info.created and db.execute(sql, [info.created, sides, *params]).fetchone():
            found += 1
    return found


# An import is written a batch at a time, each batch a transaction of at most this long (or this
# many matches), so a phone saving a hand meanwhile waits a fraction of a second, not the import.
IMPORT_BATCH_SECONDS = 0.15

IMPORT_BATCH_MATCHES = 100

# Then it lets go of the lock this long. A waiting writer is no queue: SQLite's busy handler
# sleeps and tries again, every 50 to 100 ms once it has waited a while, and would miss a gap
# shorter than that again and again while the import takes the lock straight back.
IMPORT_PAUSE_SECONDS = 0.1

# The rows of an import that never ended (its process was killed) are removed this much later.
ABANDONED_IMPORT = timedelta(days=1)

# Every table with a row per match or per hand of a match, children first, for removing a failed import.
MATCH_TABLES = ("access", "match_players", "side_figures", "match_summaries", "hand_figures")


def save_import(
    db: Database,
    new: Iterable[tuple[canasta.Match, MatchInfo]],
    already: Sequence[tuple[canasta.Match, MatchInfo]] = (),
    progress: Progress | None = None,
    browser: str | Callable[[], str] | None = None,
) -> int:
    """Write the new matches of a checked import; returns how many were added. All or nothing.

    The matches are written in short transactions (:data:`IMPORT_BATCH_SECONDS`), so saves from
    the tables go on meanwhile; each carries the import's id in ``pending``, which hides it from
    every list, page and sum. The last transaction clears that id, so every match of the file
    appears at once; if anything fails before, the rows written so far are deleted again.
    A match whose id was taken meanwhile is stored under a fresh id. With ``browser`` (or what
    it returns, asked at the end), every match of the file (``new`` and ``already`` here, as it
    is once ``new`` has been gone through) joins that browser's list.

    ``new`` may be read as it is written (``backups.import_file``): a batch of
    :data:`IMPORT_BATCH_MATCHES` is taken from it before each write transaction, never inside
    one, and an error it raises (a problem further in the file) removes what was written.
    """
    remove_abandoned_imports(db)
    # Starts with its time (an abandoned one is found by age) and names its process (a killed
    # one is found at the next start).
    import_id = f"{now()} {os.getpid()} {new_token()}"
    try:
        added = _save_pending(db, new, import_id, progress)
        with writing(db):
            if callable(browser):
                browser = browser()
            if browser:
                db.execute(
                    "insert or ignore into access (browser, match_id, how, created) "
                    "select ?, id, 'imported', ? from matches where pending = ?",
                    [browser, now(), import_id],
                )
                for _, info in already:
                    grant_access(db, browser, info.id, "imported")
            db.execute("update matches set pending = null where pending = ?", [import_id])
    except BaseException:
        # When the database itself failed, the rows stay out of sight and a later import removes them.
        with suppress(Exception):
            _remove_pending(db, "pending = ?", [import_id])
        raise
    return added


def _save_pending(
    db: Database, new: Iterable[tuple[canasta.Match, MatchInfo]], import_id: str, progress: Progress | None
) -> int:
    """Write ``new`` out of sight under ``import_id``, a short transaction at a time; returns how many."""
    count = len(new) if isinstance(new, Sized) else 0  # for progress; 0: unknown until the end
    pairs = iter(new)
    done = 0
    batch = deque(islice(pairs, IMPORT_BATCH_MATCHES))  # read before the write lock is taken
    while batch:
        deadline = time.monotonic() + IMPORT_BATCH_SECONDS
        with writing(db):
            while batch:
                match, info = batch.popleft()
                while not save_imported_match(db, match, info, pending=import_id):
                    info = replace(info, id=new_token())  # taken since the import was planned
                done += 1
                if progress:
                    progress(done, max(count, done))
                if time.monotonic() > deadline:
                    break
        if not batch:
            batch.extend(islice(pairs, IMPORT_BATCH_MATCHES))
        if batch:
            time.sleep(IMPORT_PAUSE_SECONDS)
    return done


def remove_abandoned_imports(db: Database, starting: bool = False) -> int:
    """Delete what imports left half written: those whose process has ended (it was killed),
    and any a day old or more; returns how many imports were removed.

    Run at every start (``db.migrate``, ``starting``: this process has begun no import yet, so
    one under its own process id was a killed process's whose id it was given again) and
    before each import, so a killed import's hidden rows last until the server or the next
    import starts, not a day.
    """
    cutoff = (datetime.now(UTC) - ABANDONED_IMPORT).isoformat(timespec="seconds")
    rows = select_rows(db, "select distinct pending from matches where pending is not null")
    found = [row["pending"] for row in rows]
    mine = f" {os.getpid()} "
    abandoned = [
        import_id
        for import_id in found
        if import_id < cutoff or not _running(import_id) or (starting and mine in import_id)
    ]
    for import_id in abandoned:
        _remove_pending(db, "pending = ?", [import_id])
    return len(abandoned)


def _running(import_id: str) -> bool:
    """Whether the process that began this import may still be writing it (unknown: yes)."""
    parts = import_id.split(" ")
    if len(parts) != 3 or not parts[1].isdigit() or os.name != "posix":
        return True  # an id from before processes were named, or no signal 0 to ask with
    try:
        os.kill(int(parts[1]), 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists, under another user
    return True


def _remove_pending(db: Database, condition: str, params: list[Any]) -> None:
    """Delete every row of the pending matches that meet ``condition``, in one transaction."""
    matches = f"select id from matches where pending is not null and {condition}"
    with writing(db):
        for table in MATCH_TABLES:
            db.execute(f"delete from {table} where match_id in ({matches})", params)
        db.execute(
            f"delete from hand_revisions where hand_id in (select id from hands where match_id in ({matches}))", params
        )
        db.execute(f"delete from hands where match_id in ({matches})", params)
        db.execute(f"delete from matches where pending is not null and {condition}", params)


REVISION_COLUMNS = ("hand_id", "revision", "action", "data", "match_version", "created")
